"""Deletion that is really deletion: after ``forget_user`` no file of the memory
directory holds the user's strings, or the call says so with a typed, retryable error.

The byte scan here is the test's own (every file, every string); ``forget_user`` runs
its own scan too and must agree with it.
"""

from __future__ import annotations

import sqlite3
import struct
import time
from pathlib import Path

import pytest

from bcg_rag import BeliefMemory, Claim, DeletionIncompleteError, Policy
from bcg_rag import lifecycle as lc
from scan import files_with

NOW = "2025-07-01T00:00:00"
SECRET = "qzvxkwplm"  # a token no other data contains


def policy(**sections) -> Policy:
    return Policy.from_dict(dict({"embedder": {"kind": "hash"}, "storage": {"compact_wait_ms": 300}}, **sections))


def fill(m: BeliefMemory, n: int = 12) -> list[bytes]:
    texts = []
    for i in range(n):
        text = f"alice note {i}: my {SECRET} pin is {1000 + i} and I live at {SECRET} street {i}"
        m.observe(text, user_id="alice-1", timestamp="2025-01-01", source=f"chat:{i}", context=f"project:{SECRET}",
                  claim=Claim("I", "likes", f"{SECRET} flavour {i}"))
        texts.append(text)
        m.observe(f"bob note {i}: espresso at nine", user_id="bob", timestamp="2025-01-01", source=f"chat:{i}",
                  claim=Claim("I", "likes", "espresso"))
    return [SECRET.encode(), b"alice-1"] + [t.encode() for t in texts]


def test_forget_user_with_a_concurrent_reader_fails_loudly_then_a_retry_finishes(tmp_path):
    path = tmp_path / "m"
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    needles = fill(m)
    assert files_with(path, needles)
    reader = sqlite3.connect(path / "memory.sqlite3")
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM evidence").fetchone()[0] == 24  # holds a snapshot from before
    started = time.monotonic()
    with pytest.raises(DeletionIncompleteError) as info:
        m.forget_user("alice-1")
    took = time.monotonic() - started
    assert took < 10, f"forget_user blocked {took:.1f} s on the reader"
    assert info.value.retryable and any("memory.sqlite3" in f for f in info.value.files)
    assert m.beliefs("alice-1") == [] and m.store.evidence_ids("alice-1") == []  # logically gone already
    assert files_with(path, needles), "the test's own scan agrees that the text is still on disk"
    reader.rollback()
    reader.close()
    m.forget_user("alice-1")  # the retry: compacts, scans, and this time succeeds
    assert files_with(path, needles) == {}
    assert [b.value for b in m.beliefs("bob")] == ["espresso"]
    assert m.validate() == []
    m.close()
    assert files_with(path, needles) == {}


def test_forget_user_without_readers_leaves_no_byte(tmp_path):
    path = tmp_path / "m"
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    needles = fill(m)
    lc.maintain(m, now="2030-01-01")  # most of it archived: cold.sqlite3 holds texts too
    assert (path / "cold.sqlite3").exists()
    counts = m.forget_user("alice-1")
    assert counts["evidence"] + counts["cold_evidence"] == 12
    assert files_with(path, needles) == {}
    m.close()
    assert files_with(path, needles) == {}


def _segments(path: Path) -> list[Path]:
    return [p for p in (path / "chroma").iterdir() if (p / "header.bin").exists()]


def test_a_bystanders_hnsw_garbage_is_scrubbed(tmp_path, users_in_chroma):
    """Chroma writes a new HNSW segment's whole capacity from uninitialised memory, so a
    bystander's data_level0.bin can hold another user's text past its element count
    (seen once in 11 runs). The same bytes are planted here, deterministically."""
    path = tmp_path / "m"
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    needles = fill(m, 3)
    for i in range(150):  # enough for Chroma to build bob's HNSW segment on disk
        m.observe(f"bob filler {i}", user_id="bob", timestamp="2025-01-02", source=f"f:{i}")
    m.search("espresso", user_id="bob")
    m.close()  # flushes the segments
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    planted = 0
    for seg in _segments(path):
        _, _, capacity, count, size = struct.unpack("<iqqqq", (seg / "header.bin").read_bytes()[:36])
        data = seg / "data_level0.bin"
        if data.stat().st_size > count * size + 200:
            with open(data, "r+b") as f:  # what malloc'd memory may hold: a freed copy of her text
                f.seek(count * size + 64)
                f.write(needles[2])
            planted += 1
    assert planted, "no segment with spare capacity to plant garbage in"
    assert files_with(path, needles)
    m.forget_user("alice-1")
    assert files_with(path, needles) == {}
    assert m.search("espresso", user_id="bob")[0].best.value == "espresso"  # the index still works
    assert m.validate() == []
    m.close()
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    assert m.search("espresso", user_id="bob")[0].best.value == "espresso"
    m.close()


def test_strings_another_user_also_holds_are_not_leaks(tmp_path):
    path = tmp_path / "m"
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    shared = "we both love the Lisbon tram 28"
    m.observe(shared, user_id="alice-1", timestamp="2025-01-01")
    m.observe(shared, user_id="bob", timestamp="2025-01-01")
    m.forget_user("alice-1")  # bob's copy is his: no DeletionIncompleteError
    assert files_with(path, [shared.encode()])
    m.close()


def test_forget_evidence_purges_its_text(tmp_path):
    path = tmp_path / "m"
    m = BeliefMemory.open(path, policy(), clock=lambda: NOW)
    keep = m.observe("I like tea very much indeed", user_id="u", timestamp="2025-01-01", claim=Claim("I", "likes", "tea"))
    gone = m.observe(f"my {SECRET} diary entry", user_id="u", timestamp="2025-01-02", claim=Claim("I", "likes", "diaries"))
    m.forget_evidence(gone.evidence_id)
    assert files_with(path, [SECRET.encode()]) == {}
    assert [b.value for b in m.beliefs("u")] == ["tea"] and m.evidence(keep.evidence_id, user_id="u")
    m.close()


def test_single_words_of_a_deleted_text_are_zeroed_in_hnsw_garbage_only(tmp_path):
    """A tokenizer's buffer can put one word of a deleted text into the uninitialised tail
    of an HNSW segment, where the scan's text windows would not see it: the tail is
    zeroed, the index part of the file is left alone."""
    from types import SimpleNamespace

    from bcg_rag.forget import _HNSW_HEADER, _scrub_hnsw_garbage, _word_needles

    segment = tmp_path / "chroma" / "0f0e0d0c-0b0a-4908-8706-050403020100"
    segment.mkdir(parents=True)
    count, size = 2, 16
    (segment / "header.bin").write_bytes(_HNSW_HEADER.pack(1, 0, 8, count, size))
    used = b"x" * (count * size - len(SECRET)) + SECRET.encode()  # index bytes: never touched
    (segment / "data_level0.bin").write_bytes(used + b"\x07" * 20 + SECRET.encode() + b"\x07" * 40)
    (segment / "length.bin").write_bytes(b"\0" * (8 * 4))
    _scrub_hnsw_garbage(SimpleNamespace(path=tmp_path), _word_needles([f"my {SECRET} diary entry"]))
    data = (segment / "data_level0.bin").read_bytes()
    assert data[: len(used)] == used and data[len(used):] == b"\0" * (len(data) - len(used))
