"""Deletion on request, and proof of it. ``forget_user`` and ``forget_evidence`` delete
rows (hot store, cold store, vectors), then make the deleted text physically gone and
check that it is: every file of the memory directory is scanned for the deleted strings.
A deletion that cannot prove itself raises ``DeletionIncompleteError`` (retryable)
instead of reporting success.

Why a scan and not trust. Three ways deleted text survived a plain DELETE + VACUUM:

- A reader holding an old snapshot (another connection inside a read transaction)
  keeps SQLite from checkpointing the WAL: the old pages stay in ``memory.sqlite3-wal``
  and ``memory.sqlite3``. Waiting for the reader is bounded (``[storage]
  compact_wait_ms``); after that the deletion reports itself incomplete and a retry,
  once the reader is done, finishes the job.
- Chroma 1.x keeps a deleted collection's HNSW directory and does not vacuum its SQLite
  file (chroma-core/chroma#5259, #5520): ``_scrub_index_files``.
- Chroma's HNSW persistence (chroma-core/hnswlib ``initPersistentIndex``) writes a new
  segment's whole capacity from ``malloc``'d, uninitialised memory: ``data_level0.bin``
  and ``length.bin`` beyond the segment's element count hold whatever the process heap
  held, which can be another user's texts (SQLite's page cache, tokenizer buffers). So a
  *bystander's* segment could hold the forgotten user's strings. Those bytes are no part
  of the index (nothing reads past the element count): ``_scrub_hnsw_tails`` zeroes
  them in the segments where the scan finds deleted text.

The strings searched for are the user's evidence texts (windows of long ones), claim
subjects and values, entity names and aliases, sources, contexts and the user id, at
least ``MIN_NEEDLE_BYTES`` long. A string that remaining data still holds (another user
said the same words) is not a leak, and is told apart by asking the stores.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import re
import secrets
import shutil
import sqlite3
import struct
import time
from pathlib import Path
from typing import Any, Iterable

from . import lifecycle, writing
from .checks import check_bool, check_id, require_user
from .errors import DeletionIncompleteError, NotFoundError
from .models import CONTEXT_OF

BELIEF_EDGES = ("SUPPORTS", "REFUTES")
MIN_NEEDLE_BYTES = 8  # shorter strings ("tea", "Paris") are not identifying, and match by chance
WINDOW_CHARS = 48  # long texts are searched by windows (SQLite splits them across pages)
WINDOW_STEP = 256
MAX_WINDOWS = 8  # per string
MAX_NEEDLES = 5000  # per deletion: a bound on the scan's cost
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")  # Chroma segment dirs
_HNSW_HEADER = struct.Struct("<iqqqq")  # version, offsetLevel0, max_elements, cur_element_count, size_data_per_element


# --- the public calls ------------------------------------------------------------------
def forget_user(memory: Any, user_id: str, *, now: Any = None, actor: str = "api") -> dict[str, int]:
    """Delete everything of one user everywhere: hot SQLite, cold storage, vectors; redact
    their past audit entries; log the deletion under a salted hash; then VACUUM and empty
    the WALs, and scan every file of the memory for the user's strings. Returns row counts.

    Raises ``DeletionIncompleteError`` (retryable; the rows are already gone) when the
    scan still finds them, e.g. while another connection holds an old read snapshot:
    call ``forget_user`` again once it is done."""
    user_id = require_user(user_id)
    now = lifecycle._now(memory, now)
    needles = _pending(memory).pop(("user", user_id), set()) | _user_strings(memory, user_id)
    _pending(memory)[("user", user_id)] = needles  # until proven gone: a retry checks them again
    with memory.store.transaction(), lifecycle._cold(memory, create=False) as cold:
        digest = _user_digest(memory, user_id)
        counts = memory.store.delete_user(user_id)
        if cold is not None:
            with cold.transaction():  # commits first: a retry after a crash finds the rest
                for table, n in cold.delete_user(user_id).items():
                    counts[f"cold_{table}"] = n
        counts["audit_redacted"] = memory.store.redact_audit(user_id, digest)
        lifecycle._audit(memory, now, "forget_user", digest, digest, actor, "deletion on request", counts)
    memory.names.drop(user_id)
    memory.embeddings.clear()  # its keys are texts, some of them this user's
    if memory.index is not None:
        memory.index.delete_user(user_id)
        _scrub_index_files(memory)
    _purge(memory, ("user", user_id))
    return counts


def forget_evidence(memory: Any, evidence_id: str, *, now: Any = None, actor: str = "api", purge: bool = True) -> None:
    """Delete one evidence (row, claims, edges, vector; hot and cold) and refold the
    beliefs it touched, as if it had never been observed. Beliefs left with no evidence
    disappear. ``purge`` VACUUMs and checks that its text is physically gone
    (``DeletionIncompleteError`` otherwise, as ``forget_user``)."""
    evidence_id = check_id(evidence_id, "evidence_id")
    purge = check_bool(purge, "purge")
    now = lifecycle._now(memory, now)
    key = ("evidence", evidence_id)
    strings = _evidence_strings(memory, evidence_id)
    with memory.store.transaction(), lifecycle._cold(memory, create=False) as cold:
        row = memory.store.get_node("evidence", evidence_id)
        if row is not None:
            _drop_evidence(memory, evidence_id)
        if cold is not None and cold.get_node("evidence", evidence_id) is not None:
            with cold.transaction():
                row = _drop_evidence(lifecycle._as_memory(memory, cold), evidence_id)
        if row is None and key not in _pending(memory):
            raise NotFoundError(f"no evidence {evidence_id!r}")
        if row is not None:
            lifecycle._audit(memory, now, "forget_evidence", evidence_id, row["user_id"], actor, "deletion on request")
    _pending(memory)[key] = _pending(memory).get(key, set()) | strings
    if memory.index is not None and row is not None:
        memory.index.delete([evidence_id], row["user_id"])
    if purge:
        _purge(memory, key)
    else:
        _pending(memory).pop(key, None)


# --- what to look for ----------------------------------------------------------------------
def _pending(memory: Any) -> dict:
    """Strings of deletions not yet proven, kept on the memory object (never on disk) so
    that a retry in the same process checks them again."""
    pending = getattr(memory, "_forget_pending", None)
    if pending is None:
        pending = {}
        try:
            memory._forget_pending = pending
        except AttributeError:  # a memory without attributes: no retry state
            pass
    return pending


def _user_strings(memory: Any, user_id: str) -> set[str]:
    stores = [memory.store]
    with lifecycle._cold(memory, create=False) as cold:
        if cold is not None:
            stores.append(cold)
        out = {user_id}
        for s in stores:
            for ev in s.evidence_for_user(user_id):
                out.update(_windows(ev["text"]))
                out.update(x for x in (ev["source"], ev["context"], ev["agent_id"]) if x)
            for c in s.claims_for_user(user_id):
                out.update((c["subject"], c["value"]))
            out.update(s.names_for_user(user_id))
    return out


def _evidence_strings(memory: Any, evidence_id: str) -> set[str]:
    out: set[str] = set()
    with lifecycle._cold(memory, create=False) as cold:
        for s in [memory.store] + ([cold] if cold is not None else []):
            ev = s.get_node("evidence", evidence_id)
            if ev is not None:
                out.update(_windows(ev["text"]))
                out.update(c["value"] for c in s.claims_for_evidence([evidence_id]))
    return out


def _windows(text: str) -> list[str]:
    """A text, or windows of a long one (overflowing SQLite pages split it)."""
    if len(text) <= 2 * WINDOW_CHARS:
        return [text]
    starts = list(range(0, len(text) - WINDOW_CHARS + 1, WINDOW_STEP))
    if len(starts) > MAX_WINDOWS:
        step = len(starts) / MAX_WINDOWS
        starts = [starts[int(i * step)] for i in range(MAX_WINDOWS)]
    return [text[i : i + WINDOW_CHARS] for i in starts] + [text[-WINDOW_CHARS:]]


def _needles(strings: Iterable[str]) -> list[bytes]:
    out = sorted({b for s in strings if s and len(b := s.encode("utf-8")) >= MIN_NEEDLE_BYTES})
    if len(out) > MAX_NEEDLES:  # bounded cost: an even sample of a very large user
        step = len(out) / MAX_NEEDLES
        out = [out[int(i * step)] for i in range(MAX_NEEDLES)]
    return out


# --- making it gone, and proving it --------------------------------------------------------
def _purge(memory: Any, key: tuple) -> None:
    """Compact every store, then scan; zero HNSW garbage where the scan finds text; raise
    ``DeletionIncompleteError`` if anything remains. On success the pending strings go."""
    wait_ms = int(memory.policy.section("storage").get("compact_wait_ms", 5000))
    emptied = _compact(memory, wait_ms)
    needles = _needles(_pending(memory).get(key, ()))
    if memory.path is None:  # in RAM: nothing on disk to scan
        _pending(memory).pop(key, None)
        return
    _scrub_hnsw_garbage(memory, _word_needles(_pending(memory).get(key, ())))
    leaks = _leaks(memory, needles)
    segments = {p.parent for p, _ in leaks if p.parent.parent.name == "chroma" and _UUID.fullmatch(p.parent.name)}
    if segments:
        for seg in segments:
            _scrub_hnsw_tail(seg)
        leaks = _leaks(memory, needles)
    if leaks:
        files = sorted({str(p.relative_to(memory.path)) for p, _ in leaks})
        why = "" if emptied else " (a reader held an older snapshot, so the write-ahead log could not be emptied)"
        raise DeletionIncompleteError(
            f"the deleted rows are gone, but {len(leaks)} of their strings are still in {files}{why}; "
            "retry the deletion once other connections have finished reading", files=files,
        )
    _pending(memory).pop(key, None)


def _compact(memory: Any, wait_ms: int) -> bool:
    """VACUUM and empty the WAL of the hot and the cold store, waiting at most ``wait_ms``
    for readers. True when every WAL was emptied."""
    emptied = _compact_store(memory.store, wait_ms)
    with lifecycle._cold(memory, create=False) as cold:
        if cold is not None:
            emptied = _compact_store(cold, wait_ms) and emptied
    return emptied


def _compact_store(store: Any, wait_ms: int) -> bool:
    compact = getattr(store, "compact", None)
    if compact is None:
        return True
    deadline = time.monotonic() + wait_ms / 1000.0
    while True:
        try:
            emptied = compact(timeout_ms=min(wait_ms, 1000))
        except TypeError:  # a backend whose compact() takes no timeout
            compact()
            return True
        if emptied is not False or time.monotonic() >= deadline:
            return emptied is not False
        time.sleep(0.05)


def _files(root: Path) -> list[Path]:
    out = []
    for dirpath, _, names in os.walk(root):
        out += [Path(dirpath) / n for n in names]
    return sorted(out)


def _leaks(memory: Any, needles: list[bytes]) -> list[tuple[Path, bytes]]:
    """(file, needle) pairs for every needle found in a file of the memory directory and
    not legitimately held by remaining data."""
    if not needles:
        return []
    found: list[tuple[Path, bytes]] = []
    for path in _files(Path(memory.path)):
        try:
            with open(path, "rb") as f:
                if os.fstat(f.fileno()).st_size == 0:
                    continue
                with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:  # not all in RAM at once
                    found += [(path, n) for n in needles if data.find(n) != -1]
        except (OSError, ValueError):
            continue
    if not found:
        return []
    legit: dict[bytes, bool] = {}
    out = []
    for path, needle in found:
        if needle not in legit:
            legit[needle] = _still_stored(memory, needle.decode("utf-8", "ignore"))
        if not legit[needle]:
            out.append((path, needle))
    return out


def _still_stored(memory: Any, text: str) -> bool:
    """Whether remaining data (either store, or the policy file) holds ``text``: then
    its bytes in a file are that data, not a leak."""
    if not text:
        return True
    policy_file = Path(memory.path) / "policy.toml"
    if policy_file.exists() and text in policy_file.read_text(encoding="utf-8", errors="ignore"):
        return True
    with lifecycle._cold(memory, create=False) as cold:
        return any(store.holds_text(text) for store in [memory.store] + ([cold] if cold is not None else []))


def _garbage(segment: Path) -> list[tuple[Path, int, int]]:
    """(file, used bytes, size) of an HNSW segment's ``data_level0.bin`` and ``length.bin``
    that extend past the element count in ``header.bin``: the rest is no part of the index
    (uninitialised memory written when the segment was created, see the module doc)."""
    try:
        _, _, _, count, size = _HNSW_HEADER.unpack((segment / "header.bin").read_bytes()[: _HNSW_HEADER.size])
    except (OSError, struct.error):
        return []
    out = []
    for name, used in (("data_level0.bin", count * size), ("length.bin", count * 4)):
        try:
            total = (segment / name).stat().st_size
        except OSError:
            continue
        if total > used >= 0:
            out.append((segment / name, used, total))
    return out


def _scrub_hnsw_garbage(memory: Any, words: list[bytes]) -> None:
    """Zero the garbage of every HNSW segment whose garbage holds one of ``words``: single
    words of the deleted texts (a tokenizer's buffer) that the window needles would miss.
    Only bytes that are no part of any index are read and zeroed, so a word that other
    data also uses cannot be mistaken for a leak or damage anything."""
    root = Path(memory.path) / "chroma"
    if not words or not root.is_dir():
        return
    for segment in sorted(p for p in root.iterdir() if p.is_dir() and _UUID.fullmatch(p.name)):
        for path, used, _ in _garbage(segment):
            try:
                with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                    hit = any(data.find(w, used) != -1 for w in words)
            except (OSError, ValueError):
                continue
            if hit:
                _scrub_hnsw_tail(segment)
                break


def _word_needles(strings: Iterable[str]) -> list[bytes]:
    return _needles(w for s in strings if s for w in re.findall(r"\w+", s))


def _scrub_hnsw_tail(segment: Path) -> None:
    """Zero the bytes of an HNSW segment that are no part of the index (``_garbage``)."""
    for path, used, total in _garbage(segment):
        with open(path, "r+b") as f:
            f.seek(used)
            remaining = total - used
            while remaining:
                n = min(remaining, 1 << 20)
                f.write(b"\0" * n)
                remaining -= n
            f.flush()
            os.fsync(f.fileno())


# --- rows ------------------------------------------------------------------------------------
def _user_digest(memory: Any, user_id: str) -> str:
    """A salted hash that names a forgotten user in the log: whoever holds the user id can
    check that the deletion happened, but the log does not say whom it was about."""
    salt = memory.store.get_meta("audit_salt")
    if salt is None:
        salt = secrets.token_hex(16)
        memory.store.set_meta("audit_salt", salt)
    return "sha256:" + hashlib.sha256(f"{salt}\x1f{user_id}".encode("utf-8")).hexdigest()


def _scrub_index_files(memory: Any) -> None:
    """Workaround, until the index does it itself (an index with a ``purge()`` method is
    trusted to): Chroma 1.x leaves a deleted collection's HNSW directory on disk and does
    not vacuum its SQLite file (chroma-core/chroma#5259, #5520), so a forgotten user's
    vectors and metadata would survive ``delete_user``."""
    if hasattr(memory.index, "purge"):
        memory.index.purge()
        return
    root = Path(memory.path) / "chroma" if memory.path is not None else None
    if root is None or not (root / "chroma.sqlite3").exists():
        return  # in RAM, or a Chroma server: nothing of ours on disk
    # Directories listed before the segments are read: Chroma writes a segment's row
    # before its directory, so a listed directory without a row is surely orphaned.
    dirs = [p for p in root.iterdir() if p.is_dir() and _UUID.fullmatch(p.name)]
    con = sqlite3.connect(root / "chroma.sqlite3", timeout=30, isolation_level=None)
    try:
        live = {r[0] for r in con.execute("SELECT id FROM segments")}
        con.execute("VACUUM")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    for p in dirs:
        if p.name not in live:
            shutil.rmtree(p, ignore_errors=True)


def _drop_evidence(mem: Any, evidence_id: str) -> dict:
    """Delete one evidence from a memory's store and refold every slot it touched."""
    s = mem.store
    row = s.get_node("evidence", evidence_id)
    touched = s.get_nodes("belief", [e.dst for e in s.edges_from([evidence_id], BELIEF_EDGES)], history=False)
    contexts = {e.dst for e in s.edges_from([evidence_id, *touched], [CONTEXT_OF])}
    s.delete_edges_touching([evidence_id])
    s.delete_claims_of([evidence_id])
    s.delete_nodes("evidence", [evidence_id])
    s.delete_orphan_events([row["event_id"]])
    writing.recompute_slots(mem, (lifecycle._slot(b) for b in touched.values()))  # may delete beliefs left without evidence
    s.delete_orphan_contexts(sorted(contexts))
    return row
