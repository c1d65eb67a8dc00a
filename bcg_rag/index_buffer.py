"""Vectors written but not yet handed to Chroma, per user (write-behind).

With a collection per user, a batch of 100 events from 100 users made 100 Chroma upserts of one
record each, and those calls were most of many-user ingestion: 1,000 users, hash embedder, 36
events/s with them and 770 without. The store is the source of truth and commits first; a
user's vectors wait here until that user's collection is read, the user has ``FLUSH_AT``
waiting, all users together have ``MAX_WAITING`` (then the longest backlogs are written), or
the memory closes. A crash loses only waiting vectors, and the first check of that user in the
next process adds them back from the store (``index_checks``), as it does for a crash between
a commit and an upsert.

Two memories of one process on one directory share one buffer (``for_directory``): what one
has written, the other's read of that user writes first, so it is seen as at once (``per_directory``).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from .index_exact import UserVectors, nearest, unit_rows

FLUSH_AT = 256  # one user's waiting vectors that are written at once
MAX_WAITING = 20_000  # all users' waiting vectors (about 30 MB at 384 dimensions)


def keep_waiting(max_waiting: int) -> int:
    """How many may still wait once ``max_waiting`` is reached: the users with the most
    waiting are written until a twentieth less waits, a few users every thousand or so
    events, each call carrying the longest backlogs (writing every user at once each 20,000,
    with 1,000 users a burst of 1,000 calls, cost ~20 s in one decile of a build)."""
    return max_waiting - max(1, max_waiting // 20)


_by_directory: weakref.WeakValueDictionary[tuple[str, str], Any] = weakref.WeakValueDictionary()
_registry_lock = threading.Lock()
T = TypeVar("T")


def per_directory(kind: type[T], key: str) -> T:
    """One ``kind()`` per directory's index in this process, shared by the memories open on
    it (kept while one of them holds it)."""
    with _registry_lock:
        made = _by_directory.get((kind.__name__, key))
        if made is None:
            made = _by_directory[(kind.__name__, key)] = kind()
        return made


class PendingVectors:
    """Per user, embedding key -> (vector, metadata), in the order written; a key written
    again replaces its entry (an upsert). A user's vectors stay listed until written, so a
    reader that finds some waiting, or being written, waits for them (``writing``)."""

    def __init__(self) -> None:
        self._by_user: dict[str, dict[str, tuple[np.ndarray, dict]]] = {}  # float32: 1.5 KB per 384-d vector
        self.total = 0
        self.lock = threading.RLock()  # taken after an index's own lock, never before it

    def add(self, user_id: str, keys: Sequence[str], vectors: np.ndarray, metadatas: Sequence[dict]) -> int:
        """Add one user's vectors; returns how many of that user's are waiting."""
        with self.lock:
            waiting = self._by_user.setdefault(user_id, {})
            before = len(waiting)
            for key, vector, meta in zip(keys, vectors, metadatas):
                waiting[key] = (vector, meta)
            self.total += len(waiting) - before
            return len(waiting)

    @contextmanager
    def writing(self, user_id: str) -> Iterator[tuple[list[str], np.ndarray | None, list[dict]]]:
        """One user's waiting vectors, (keys, vectors, metadatas), while they are written;
        dropped afterwards, written or not (a failed write is repaired from the store)."""
        with self.lock:
            waiting = self._by_user.get(user_id, {})
            try:
                vectors = np.stack([v for v, _ in waiting.values()]) if waiting else None
                yield list(waiting), vectors, [m for _, m in waiting.values()]
            finally:
                self.drop(user_id)

    def drop(self, user_id: str) -> None:
        with self.lock:
            self.total -= len(self._by_user.pop(user_id, {}))

    def largest(self, keep: int) -> list[str]:
        """The users with the most waiting (ties by id), as many as it takes for no more than
        ``keep`` to wait once theirs are written."""
        with self.lock:
            over = self.total - keep
            out = []
            for user_id, waiting in sorted(self._by_user.items(), key=lambda kv: (-len(kv[1]), kv[0])):
                if over <= 0:
                    break
                out.append(user_id)
                over -= len(waiting)
            return out

    def keys(self, user_id: str) -> set[str]:
        """One user's waiting keys."""
        with self.lock:
            return set(self._by_user.get(user_id, ()))

    def users(self) -> list[str]:
        """Users with waiting vectors, in a fixed order."""
        with self.lock:
            return sorted(self._by_user)

    def nearest(self, user_id: str, vectors: Sequence[Sequence[float]], top_k: int) -> list[list[tuple[str, float]]]:
        """Per query vector, one user's waiting vectors nearest to it: (key, cosine distance),
        closest first, compared exactly (as ``index_exact`` compares the stored ones)."""
        with self.lock:
            waiting = self._by_user.get(user_id, {})
            keys, stored = list(waiting), [v for v, _ in waiting.values()]
        if not keys:
            return [[] for _ in vectors]
        return nearest(UserVectors(keys, unit_rows(np.stack(stored)), np.zeros(len(keys))), vectors, top_k)

    def __contains__(self, user_id: str) -> bool:
        return user_id in self._by_user
