"""Exact nearest neighbours over a user's small collection, kept in the process.

Chroma's HNSW index sometimes does not return a vector that the collection holds. After
ingesting the SituatedQA dev memories of 10 records (about 20 vectors each), querying each
stored vector with itself missed one of them in 1 to 3 of the 37 memories, a different one
in each round; `get` still had it. It looks like a race inside Chroma (it depends on timing:
it went away when each call was logged, and never showed with the same upserts made from a
plain script). A search that misses the evidence it needs answers from something else, and
differently from run to run. So up to ``EXACT_LIMIT`` vectors, a user's vectors are read
once per process and compared exactly: 20 or 2,000 vectors of 384 dimensions are a
fraction of a millisecond. Larger collections are searched by Chroma's HNSW.

The cache is kept in step by the index: what it writes is appended, what it deletes is
removed, a user it checks is read again. Memories of one directory in one process share it,
as they share the write-behind buffer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .blas import similarities
from .chroma_glue import epoch_seconds

EXACT_LIMIT = 2048  # vectors of a user compared exactly; above it, Chroma's HNSW
# Memory for the vectors kept, all users (least recently used go first): ``[chroma]
# exact_cache_mib``. At 200,000 vectors a million MiniLM vectors of 1,000 users were read
# back from the small vectors' file on 4 searches in 5 (~3 ms each).
DEFAULT_CACHE_MIB = 2048


@dataclass
class UserVectors:
    ids: list[str]
    unit: np.ndarray  # (n, dim) float32, unit length
    ts: np.ndarray  # (n,) epoch seconds, for as_of
    # (unit, ts) with spare rows past n, where ``ExactVectors.add`` appends: ``unit`` and
    # ``ts`` are their first n rows, which no write touches (a search may be reading them).
    room: tuple[np.ndarray, np.ndarray] | None = None


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def _appended(entry: UserVectors, ids: Sequence[str], unit: np.ndarray, ts: np.ndarray) -> UserVectors:
    """``entry`` with rows added: in its spare rows when they suffice, else in arrays a quarter
    larger than needed. Copying a user's whole matrix on every write (twice: without the
    rewritten ids, then stacked) cost 2 x 1.5 MB of fresh pages per user per flush at
    1,000 vectors; a quarter, not double, since the spare rows count against the cache."""
    n, end = len(entry.ids), len(entry.ids) + len(ids)
    rows, times = entry.room or (entry.unit, entry.ts)
    if end > len(rows) or rows.shape[1] != unit.shape[1]:
        rows = np.empty((min(max(end, n + n // 4), EXACT_LIMIT), unit.shape[1]), np.float32)
        times = np.empty(len(rows), np.float64)
        if n:
            rows[:n], times[:n] = entry.unit, entry.ts
    rows[n:end], times[n:end] = unit, ts
    return UserVectors(entry.ids + list(ids), rows[:end], times[:end], (rows, times))


def _without(entry: UserVectors, ids: Sequence[str]) -> UserVectors:
    gone = set(ids)
    keep = [i for i, key in enumerate(entry.ids) if key not in gone]
    return UserVectors([entry.ids[i] for i in keep], entry.unit[keep], entry.ts[keep])


class ExactVectors:
    """Per user, the stored vectors of a small collection (least recently used first)."""

    def __init__(self, max_bytes: int = DEFAULT_CACHE_MIB << 20) -> None:
        self._users: OrderedDict[str, UserVectors] = OrderedDict()
        self.max_bytes = max_bytes
        self.bytes = 0  # of the vectors kept, all users: what the limit counts
        self.large: set[str] = set()  # users whose collection is above EXACT_LIMIT
        self.lock = threading.RLock()

    def get(self, user_id: str) -> UserVectors | None:
        with self.lock:
            entry = self._users.get(user_id)
            if entry is not None:
                self._users.move_to_end(user_id)
            return entry

    def _set(self, user_id: str, entry: UserVectors) -> UserVectors:
        old = self._users.pop(user_id, None)
        if old is not None:
            self._forget(old)
        self._users[user_id] = entry
        self.bytes += _size(entry)
        while self.bytes > self.max_bytes and len(self._users) > 1:
            self._forget(self._users.popitem(last=False)[1])
        return entry

    def _forget(self, entry: UserVectors) -> None:
        self.bytes -= _size(entry)

    @property
    def total(self) -> int:
        """Vectors kept, all users."""
        with self.lock:
            return sum(len(entry.ids) for entry in self._users.values())

    def put(self, user_id: str, ids: Sequence[str], vectors: np.ndarray, ts: Sequence[float]) -> UserVectors:
        entry = UserVectors(list(ids), unit_rows(vectors) if len(ids) else np.zeros((0, 0), np.float32),
                            np.asarray(ts, dtype=np.float64))
        with self.lock:
            return self._set(user_id, entry)

    def add(self, user_id: str, ids: Sequence[str], vectors: np.ndarray, ts: Sequence[float]) -> None:
        """Vectors just written (an id written again replaces its row)."""
        with self.lock:
            entry = self._users.get(user_id)
            if entry is None:
                return
            # Written again (rare): its old row goes, and the rest is copied
            kept = entry if set(ids).isdisjoint(entry.ids) else _without(entry, ids)
            if len(kept.ids) + len(ids) > EXACT_LIMIT:
                self.drop(user_id)
                self.large.add(user_id)
                return
            self._set(user_id, _appended(kept, ids, unit_rows(vectors), np.asarray(ts, dtype=np.float64)))

    def remove(self, user_id: str, ids: Sequence[str]) -> None:
        with self.lock:
            entry = self._users.get(user_id)
            if entry is not None:
                self._set(user_id, _without(entry, ids))

    def drop(self, user_id: str) -> None:
        with self.lock:
            old = self._users.pop(user_id, None)
            if old is not None:
                self._forget(old)
            self.large.discard(user_id)

    def clear(self) -> None:
        with self.lock:
            self._users.clear()
            self.bytes = 0
            self.large.clear()


def _size(entry: UserVectors) -> int:
    unit, ts = entry.room or (entry.unit, entry.ts)
    return unit.nbytes + ts.nbytes


def nearest(entry: UserVectors, queries: Sequence[Sequence[float]], top_k: int,
            max_ts: float | None = None) -> list[list[tuple[str, float]]]:
    """Per query, the entry's nearest ids by cosine distance (closest first, ties by id),
    only those with ts <= ``max_ts`` when given: what Chroma's query answers, exactly."""
    if not entry.ids:
        return [[] for _ in queries]
    dist = 1.0 - similarities(unit_rows(np.asarray(queries, dtype=np.float32)), entry.unit)
    allowed = np.arange(len(entry.ids)) if max_ts is None else np.flatnonzero(entry.ts <= max_ts)
    out = []
    for row in dist:
        near = row[allowed]
        if len(near) > top_k:  # the k nearest and everything tied with the k-th, then sorted
            near_ids = allowed[near <= np.partition(near, top_k - 1)[top_k - 1]]
        else:
            near_ids = allowed
        ranked = sorted(near_ids.tolist(), key=lambda j: (float(row[j]), entry.ids[j]))[:top_k]
        out.append([(entry.ids[j], float(row[j])) for j in ranked])
    return out


class ExactSearch:
    """Mixed into ``EvidenceIndex``: its searches, exact over a small collection."""

    def _small(self, user_id: str, flush: bool = True) -> Any:
        """The user's vectors for an exact search (``index_exact``), read once per process;
        None when the collection is above EXACT_LIMIT or in server mode."""
        if self._exact is None or user_id in self._exact.large:
            return None
        if flush and user_id in self._pending:
            self._flush([user_id])
        entry = self._exact.get(user_id)
        if entry is not None:
            return entry

        def read(col: Any) -> Any:
            if col.count() > EXACT_LIMIT:
                return False
            return col.get(include=["embeddings", "metadatas"])

        got = self._call(user_id, read, flush=flush)
        if got is False:
            self._exact.large.add(user_id)
            return None
        if got is None:  # no collection yet
            return self._exact.put(user_id, [], np.zeros((0, 0), np.float32), [])
        return self._exact.put(user_id, got["ids"], np.asarray(got["embeddings"]), [m["ts"] for m in got["metadatas"]])

    def query(
        self, vector: Sequence[float], user_id: str, top_k: int, agent_id: str | None = None, *, as_of: str | None = None
    ) -> list[tuple[str, float]]:
        """Nearest evidence of one user: ``[(evidence_id, cosine distance)]``, closest first.

        ``agent_id`` does not filter: another agent's private evidence still supports
        this user's beliefs; the renderer hides its text instead. ``as_of`` keeps only
        evidence with timestamp <= as_of.
        """
        if top_k <= 0:
            return []
        small = self._small(user_id)
        if small is not None:
            return nearest(small, [vector], top_k, epoch_seconds(as_of) if as_of else None)[0]
        where = {"ts": {"$lte": epoch_seconds(as_of)}} if as_of else None
        res = self._call(user_id, lambda col: col.query(
            query_embeddings=[list(vector)], n_results=top_k, where=where, include=["distances"]))
        return list(zip(res["ids"][0], res["distances"][0])) if res is not None else []

    def query_many(self, vectors: Sequence[Sequence[float]], user_id: str, top_k: int) -> list[list[tuple[str, float]]]:
        """``query`` for several vectors of one user in one index call (ingestion links a
        batch's messages to their neighbours): one hit list per vector, in order. The user's
        vectors still waiting to be written are compared exactly and merged in, so that
        ingestion does not write a user's vectors each time it looks for neighbours."""
        if top_k <= 0 or not vectors:
            return [[] for _ in vectors]
        small = self._small(user_id, flush=False)
        if small is not None:
            stored = nearest(small, vectors, top_k)
        else:
            res = self._call(user_id, lambda col: col.query(
                query_embeddings=[list(v) for v in vectors], n_results=top_k, include=["distances"]), flush=False)
            stored = [list(zip(i, d)) for i, d in zip(res["ids"], res["distances"])] if res is not None else [[] for _ in vectors]
        waiting = self._pending.nearest(user_id, vectors, top_k)
        # A key both stored and waiting (written again) counts as waiting: that is what it holds now.
        return [sorted({**dict(s), **dict(w)}.items(), key=lambda h: (h[1], h[0]))[:top_k] for s, w in zip(stored, waiting)]
