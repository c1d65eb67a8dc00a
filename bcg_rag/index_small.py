"""Small users' evidence vectors, kept as rows of one SQLite file beside Chroma.

Why: with a Chroma collection per user, a user's first write cost about 9 ms (making the
collection and one upsert call, whose binding holds the GIL), and a build of 1,000 users paid
it for every user in its last decile, when the write-behind buffer (``index_buffer``) wrote
what waited: that decile ran at 0.15 to 0.20 of the first. A user of up to ``EXACT_LIMIT``
vectors is searched exactly in the process anyway (``index_exact``), so Chroma's HNSW index did
nothing for them. Here such a user's vectors are rows of one table (a write is one commit);
a user who grows past ``EXACT_LIMIT`` moves into a Chroma collection of their own, where
approximate search pays (``EvidenceIndex._promote``).

``SmallCollection`` is one user's rows with the calls of a Chroma collection that the index
makes (count, get, upsert, delete; never query: a user here has at most ``PROMOTE_ABOVE``
vectors, which ``index_exact`` compares itself), so the checks against the store, the
write-behind buffer and the exact search treat both places alike. Where a user is, is one
fact of this file: the collection names in ``in_chroma`` are in Chroma, every other is here.
A memory made
before this file existed has every user in Chroma: they are listed when the file is made.

The file holds vectors and times under the user's collection name (a hash), no text and no
user id; deleted rows are overwritten with zeros (``secure_delete``).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from chromadb.errors import NotFoundError as ChromaNotFound

from .errors import IndexUnavailableError
from .index_exact import EXACT_LIMIT

PROMOTE_ABOVE = EXACT_LIMIT  # vectors of a user that move to a Chroma collection of their own
SMALL_FILE = "bcg_small_vectors.sqlite3"  # in the memory's chroma directory: copied and rebuilt with it

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS vectors (space TEXT NOT NULL, id TEXT NOT NULL, ts REAL NOT NULL, vec BLOB NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS vectors_space_id ON vectors (space, id);
CREATE TABLE IF NOT EXISTS in_chroma (space TEXT PRIMARY KEY);
"""


class SmallVectors:
    """The vectors of users who have no Chroma collection, by collection name ("space")."""

    def __init__(self, path: str | Path | None):
        self.lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(":memory:" if path is None else str(path), timeout=30,
                                         isolation_level=None, check_same_thread=False)
            if path is not None:
                self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")  # what a crash loses, the store's check adds back
            self._conn.execute("PRAGMA secure_delete=ON")
            self._conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise IndexUnavailableError(f"small vectors file {path}: {exc}") from exc

    def _run(self, fn: Any) -> Any:
        with self.lock:
            try:
                return fn(self._conn)
            except sqlite3.Error as exc:
                raise IndexUnavailableError(f"small vectors: {type(exc).__name__}: {exc}") from exc

    def _write(self, fn: Any) -> Any:
        def txn(conn: sqlite3.Connection) -> Any:
            conn.execute("BEGIN IMMEDIATE")
            try:
                out = fn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return out
        return self._run(txn)

    # --- the file ------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self._run(lambda c: c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone())
        return row[0] if row else None

    def note(self, key: str, value: str) -> None:
        """Set ``key`` once (the embedder of the first vectors); later values are ignored."""
        if self.meta(key) is None:
            self._write(lambda c: c.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value)))

    def adopt(self, chroma_names: Iterable[str]) -> None:
        """Once per file: the users who already have a Chroma collection stay there."""
        names = list(chroma_names)

        def txn(c: sqlite3.Connection) -> None:
            if c.execute("SELECT 1 FROM meta WHERE key = 'layout'").fetchone():
                return
            c.executemany("INSERT OR IGNORE INTO in_chroma (space) VALUES (?)", [(n,) for n in names])
            c.execute("INSERT INTO meta (key, value) VALUES ('layout', 'small-in-sqlite')")
        self._write(txn)

    def close(self) -> None:
        with self.lock:
            self._conn.close()

    # --- where a user is -------------------------------------------------------------
    def in_chroma(self, space: str) -> bool:
        return self._run(lambda c: c.execute("SELECT 1 FROM in_chroma WHERE space = ?", (space,)).fetchone()) is not None

    def chroma_spaces(self) -> set[str]:
        return {r[0] for r in self._run(lambda c: c.execute("SELECT space FROM in_chroma").fetchall())}

    def promoted(self, space: str) -> None:
        """The user's vectors are in their Chroma collection now: the rows go, in one commit."""
        def txn(c: sqlite3.Connection) -> None:
            c.execute("INSERT OR IGNORE INTO in_chroma (space) VALUES (?)", (space,))
            c.execute("DELETE FROM vectors WHERE space = ?", (space,))
        self._write(txn)

    def drop(self, space: str) -> None:
        """Every vector of a user, and their place: a user written again starts here. The
        rows are zeroed in the file (``secure_delete``) and the log is emptied into it, so a
        forgotten user's vectors are in no file of the directory afterwards."""
        def txn(c: sqlite3.Connection) -> None:
            c.execute("DELETE FROM vectors WHERE space = ?", (space,))
            c.execute("DELETE FROM in_chroma WHERE space = ?", (space,))
        self._write(txn)
        self._run(lambda c: c.execute("PRAGMA wal_checkpoint(TRUNCATE)"))

    # --- rows ------------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        return dict(self._run(lambda c: c.execute("SELECT space, COUNT(*) FROM vectors GROUP BY space").fetchall()))

    def total(self) -> int:
        return self._run(lambda c: c.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    def count(self, space: str) -> int:
        return self._run(lambda c: c.execute("SELECT COUNT(*) FROM vectors WHERE space = ?", (space,)).fetchone()[0])

    def rows(self, space: str, ids: Sequence[str] | None = None) -> tuple[list[str], np.ndarray, list[float]]:
        """(ids, vectors, times) of a user, all or those of ``ids``, in id order."""
        def read(c: sqlite3.Connection) -> list[tuple]:
            if ids is None:
                return c.execute("SELECT id, ts, vec FROM vectors WHERE space = ? ORDER BY id", (space,)).fetchall()
            out: list[tuple] = []
            wanted = sorted(set(ids))
            for start in range(0, len(wanted), 500):  # under SQLite's bound on parameters
                part = wanted[start : start + 500]
                out += c.execute(f"SELECT id, ts, vec FROM vectors WHERE space = ? AND id IN ({','.join('?' * len(part))})"
                                 " ORDER BY id", (space, *part)).fetchall()
            return out
        got = self._run(read)
        vectors = np.stack([np.frombuffer(v, dtype=np.float32) for _, _, v in got]) if got else np.zeros((0, 0), np.float32)
        return [r[0] for r in got], vectors, [r[1] for r in got]

    def upsert(self, space: str, ids: Sequence[str], vectors: np.ndarray, ts: Sequence[float]) -> None:
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1)
        rows = [(space, key, float(t), vec.tobytes()) for key, t, vec in zip(ids, ts, vectors)]
        self._write(lambda c: c.executemany(
            "INSERT INTO vectors (space, id, ts, vec) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (space, id) DO UPDATE SET ts = excluded.ts, vec = excluded.vec", rows))

    def delete(self, space: str, ids: Sequence[str]) -> None:
        self._write(lambda c: c.executemany("DELETE FROM vectors WHERE space = ? AND id = ?", [(space, i) for i in ids]))


class SmallCollection:
    """One user's rows in ``SmallVectors``, answering the calls ``EvidenceIndex`` makes of a
    Chroma collection. Once the user has moved to Chroma (``_promote``, maybe by another
    memory of this process), every call raises Chroma's NotFoundError, as a deleted
    collection does, and the index opens the user's place afresh."""

    def __init__(self, vectors: SmallVectors, name: str, embedder_name: str):
        self.vectors, self.name = vectors, name
        self.metadata = {"embedder": embedder_name}

    def _here(self) -> None:
        if self.vectors.in_chroma(self.name):
            raise ChromaNotFound(f"{self.name} has moved to Chroma")

    def count(self) -> int:
        self._here()
        return self.vectors.count(self.name)

    def get(self, ids: Sequence[str] | None = None, include: Sequence[str] = ()) -> dict:
        self._here()
        keys, vectors, ts = self.vectors.rows(self.name, ids)
        return dict(ids=keys, embeddings=vectors if "embeddings" in include else None,
                    metadatas=[{"ts": t} for t in ts] if "metadatas" in include else None)

    def upsert(self, ids: Sequence[str], embeddings: Any, metadatas: Sequence[dict] | None = None) -> None:
        self._here()
        ts = [m["ts"] for m in metadatas] if metadatas else [0.0] * len(ids)
        self.vectors.upsert(self.name, ids, np.asarray(embeddings, dtype=np.float32), ts)

    def delete(self, ids: Sequence[str]) -> None:
        self._here()
        self.vectors.delete(self.name, ids)
