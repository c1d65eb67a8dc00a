"""Known entity names and their vectors, per user, kept in the process.

Linking a new name compares it with every canonical entity name the user has. Embedding
those names again for each message made text ingestion fall off a cliff once a user knew
more names than the embedding cache holds (about 4,100): every message re-embedded all of
them. Here each name is embedded once per process and kept in a unit-vector matrix; the
store is asked only for the user's entity counts (canonical, merged), and the names are
re-read when they changed (an entity added, merged, unmerged or forgotten, in this process
or another one).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np


@dataclass
class _UserNames:
    count: tuple[int, int]
    names: list[str]
    matrix: np.ndarray  # unit rows, aligned with ``names``
    vectors: dict[str, np.ndarray] = field(default_factory=dict)


# Rows of the name matrix per product. One product over a long-lived user's thousands of
# names crossed OpenBLAS's threshold for threading (~1,500 x 384 here): every call then woke
# worker threads, which on a busy two-core machine cost ~6 ms of CPU and wall time per claim
# linked, thirty times the product. Blocks this small stay on the calling thread.
_PRODUCT_ELEMENTS = 2**17


def _products(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """``matrix @ vector`` in blocks of rows that BLAS computes without threads."""
    rows = max(1, _PRODUCT_ELEMENTS // max(1, matrix.shape[1]))
    if matrix.shape[0] <= rows:
        return matrix @ vector
    return np.concatenate([matrix[i : i + rows] @ vector for i in range(0, matrix.shape[0], rows)])


def unit_vectors(memory: Any, texts: Sequence[str]) -> np.ndarray:
    vectors = np.asarray(memory.embed(list(texts)), dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


class NameIndex:
    """``names(user)`` and ``nearest(user, vector)`` over a user's canonical entity names."""

    def __init__(self, memory: Any) -> None:
        self._memory = memory
        self._users: dict[str, _UserNames] = {}
        self._held = threading.local()  # per thread: the users checked inside ``held()``

    @contextmanager
    def held(self) -> Iterator[None]:
        """Within it, each user's names are checked against the store once (in this thread).
        ``add_messages`` reads names for every message and claim of a batch and writes only
        after: asking the store each time (a count over the user's entities, which grows
        with them) could tell it only of another writer's entities, and those show from the
        next batch on, as they would had they been written a moment later."""
        if getattr(self._held, "users", None) is not None:  # nested: the outer one holds
            yield
            return
        self._held.users = set()
        try:
            yield
        finally:
            self._held.users = None

    def drop(self, user_id: str | None = None) -> None:
        """Forget what is kept for one user (after ``forget_user``), or for everyone."""
        if user_id is None:
            self._users.clear()
        else:
            self._users.pop(user_id, None)

    def _current(self, user_id: str) -> _UserNames:
        cached = self._users.get(user_id)
        held = getattr(self._held, "users", None)
        if held is not None:
            if cached is not None and user_id in held:
                return cached
            held.add(user_id)
        store = self._memory.store
        count = store.entity_counts(user_id)
        if cached is not None and cached.count == count:
            return cached
        names = store.entity_names(user_id)
        vectors = dict(cached.vectors) if cached else {}
        new = [n for n in names if n not in vectors]
        if new and self._memory.index is not None:
            vectors.update(zip(new, unit_vectors(self._memory, new)))
        wanted = set(names)
        vectors = {n: v for n, v in vectors.items() if n in wanted}  # merged or forgotten names go
        dim = next(iter(vectors.values())).shape[0] if vectors else 0
        matrix = np.stack([vectors[n] for n in names]) if vectors else np.zeros((0, dim), np.float32)
        self._users[user_id] = entry = _UserNames(count, names, matrix, vectors)
        return entry

    def names(self, user_id: str) -> list[str]:
        return self._current(user_id).names

    def similarities(self, user_id: str, vector: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Every known name and its cosine similarity to the unit ``vector``."""
        entry = self._current(user_id)
        if not entry.names or entry.matrix.shape[0] != len(entry.names):
            return [], np.zeros(0, np.float32)
        return entry.names, _products(entry.matrix, vector)

    def nearest(self, user_id: str, vector: np.ndarray, k: int) -> list[str]:
        """The ``k`` known names most similar to ``vector``, best first (ties by name)."""
        names, sims = self.similarities(user_id, vector)
        if not names:
            return []
        k = min(k, len(names))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(names) else np.arange(len(names))
        return [names[i] for i in sorted(top, key=lambda i: (-float(sims[i]), names[i]))]
