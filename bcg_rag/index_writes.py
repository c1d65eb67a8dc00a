"""Writing a memory's evidence vectors: through the write-behind buffer (``index_buffer``)
into a small user's rows (``index_small``) or a Chroma collection, a user's move from the
one to the other, deletion. A part of ``EvidenceIndex``, kept apart because it is its own
capability."""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
from chromadb.errors import NotFoundError as ChromaNotFound

from . import chroma_glue, index_small
from .chroma_glue import reopen_persistent, size_collection, vector_metadata
from .errors import IndexUnavailableError
from .index_buffer import FLUSH_AT, MAX_WAITING, keep_waiting


class IndexWrites:
    """Mixed into ``EvidenceIndex``: uses its collections, its lock, its buffer and its calls."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embedder.embed(list(texts)) if texts else []

    def upsert(self, evidence_rows: Sequence[dict], vectors: Sequence[Sequence[float]]) -> None:
        """Store vectors under their evidence's embedding key, grouped by user. Idempotent.
        Written behind (``index_buffer``): a read of the user, ``flush`` or ``close`` writes
        them; in server mode at once."""
        if len(evidence_rows) != len(vectors):
            raise ValueError(f"{len(evidence_rows)} evidence rows but {len(vectors)} vectors")
        by_user: dict[str, list[int]] = {}
        for i, row in enumerate(evidence_rows):
            by_user.setdefault(row["user_id"], []).append(i)
        due: list[str] = []
        for user_id, idx in by_user.items():
            keys = [evidence_rows[i]["embedding_key"] for i in idx]
            vecs = np.asarray([vectors[i] for i in idx], dtype=np.float32)
            metas = [vector_metadata(evidence_rows[i]) for i in idx]
            if self.shared:
                self._write(user_id, keys, vecs, metas, [evidence_rows[i] for i in idx])
                continue
            with self._lock:
                if self._pending.add(user_id, keys, vecs, metas) >= FLUSH_AT:
                    due.append(user_id)
        if self._pending.total >= MAX_WAITING:
            due += [u for u in self._pending.largest(keep_waiting(MAX_WAITING)) if u not in due]
        self._flush(due)

    def flush(self) -> None:
        """Write every waiting vector to its user's place (the small vectors' file or Chroma)."""
        self._flush(self._pending.users())

    def _flush(self, users: Sequence[str]) -> None:
        for user_id in users:
            # A reader of this user waits until they are written (the buffer's lock after ours).
            with self._lock, self._pending.writing(user_id) as (keys, vecs, metas):
                if keys:
                    self._write(user_id, keys, vecs, metas)
        if self._reopen_due:
            self._in_use.replace(self._reopen)

    def _write(self, user_id: str, keys: list[str], vecs: np.ndarray, metas: list[dict],
               rows: list[dict] | None = None) -> None:
        batch = self._guard(self.client.get_max_batch_size)
        small, name = self._small_vectors, self.collection_name(user_id)
        if small is not None and not small.in_chroma(name) and small.count(name) + len(keys) > index_small.PROMOTE_ABOVE:
            self._promote(user_id, batch)
        try:
            for start in range(0, len(keys), batch):
                part = slice(start, start + batch)
                # Checked after writing: before, the rows being written would look missing.
                self._call(user_id, lambda col, part=part: col.upsert(
                    ids=keys[part], embeddings=vecs[part], metadatas=metas[part]), create=True, verify=False, flush=False)
            if rows is not None and self._memory is not None:
                self._drop_if_forgotten(user_id, rows)
        except IndexUnavailableError:
            with self._lock:  # check this user again on its next use: the vectors may be missing
                self._verified.discard(user_id)
            raise
        if self._exact is not None:
            self._exact.add(user_id, keys, vecs, [m["ts"] for m in metas])
        self._collection(user_id)
        self._grew(user_id, len(keys))

    def _promote(self, user_id: str, batch: int) -> None:
        """Move a small user's vectors into a Chroma collection of their own (``index_small``):
        written there first, then taken out of the small file in one commit, so a crash
        between leaves them in both, and the small file, which still says where the user
        is, is right (the next move starts the collection afresh)."""
        name = self.collection_name(user_id)
        with self._lock:
            self._collections.pop(user_id, None)
            try:  # what a move cut short left
                self._guard(lambda: self.client.delete_collection(name))
            except (ChromaNotFound, ValueError):
                pass
            col = self._guard(lambda: self._chroma_collection(user_id, create=True))
            keys, vecs, ts = self._small_vectors.rows(name)
            for start in range(0, len(keys), batch):
                part = slice(start, start + batch)
                self._guard(lambda: col.upsert(ids=keys[part], embeddings=vecs[part], metadatas=[{"ts": t} for t in ts[part]]))
            self._small_vectors.promoted(name)

    def _grew(self, user_id: str, added: int) -> None:
        """A collection that reaches LARGE_COLLECTION records in this process gets the large
        flush setting; its loaded vector index takes it up when our client reopens (at the
        end of a write with no other call in flight)."""
        with self._lock:
            col = self._collections.get(user_id)
            if col is None:
                return
            before = self._sizes.get(user_id)
            size = self._sizes[user_id] = self._guard(col.count) if before is None else before + added
            if (before or 0) < chroma_glue.LARGE_COLLECTION <= size and self._guard(lambda: size_collection(col, size)):
                self._reopen_due = self.reopenable

    def _reopen(self) -> None:
        self._reopen_due = False
        self.client = reopen_persistent(self.client)
        self._collections = {}  # the closed client's handles

    def _drop_if_forgotten(self, user_id: str, rows: Sequence[dict]) -> None:
        """Server mode: another process may have forgotten this evidence between our
        commit and our upsert, and then our vectors would outlive it. Delete those."""
        keys = {r["id"]: r["embedding_key"] for r in rows}
        present = self._memory.store.get_nodes("evidence", list(keys))
        gone = [keys[e] for e in keys if e not in present]
        if gone:
            self._call(user_id, lambda col: col.delete(ids=gone))

    def delete(self, ids: Iterable[str], user_id: str) -> None:
        ids = list(ids)
        if ids:
            self._call(user_id, lambda col: col.delete(ids=ids))
            if self._exact is not None:
                self._exact.remove(user_id, ids)

    def delete_user(self, user_id: str) -> None:
        with self._lock:
            self._collections.pop(user_id, None)
            self._sizes.pop(user_id, None)
            self._pending.drop(user_id)  # its vectors go with it
            if self._exact is not None:
                self._exact.drop(user_id)
            try:
                self._guard(lambda: self.client.delete_collection(self.collection_name(user_id)))
            except (ChromaNotFound, ValueError):
                pass
            if self._small_vectors is not None:  # after the collection: a user in neither is new
                self._small_vectors.drop(self.collection_name(user_id))
