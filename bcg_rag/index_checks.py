"""Checking a memory's evidence vectors against its store (the source of truth): on first
use of each user's collection, or for everyone at once (see ``index``'s module docstring for
why on first use). A part of ``EvidenceIndex``, kept apart because it is its own capability."""

from __future__ import annotations

from typing import Any

from chromadb.errors import NotFoundError as ChromaNotFound


class IndexChecks:
    """Mixed into ``EvidenceIndex``: uses its collections, its lock and its calls."""

    def repair(self, memory: Any, *, eager: bool = False) -> int:
        """Check vectors against ``memory``'s store: each user on first use from now on
        (cheap to open), or every user right away with ``eager=True``. A check adds the
        vectors of evidence that has none (a crash between the memory's commit and our
        upsert) and removes vectors whose evidence is gone; with ``eager=True`` also the
        collections of users who have no evidence at all. Returns how many vectors were
        added (0 unless eager)."""
        self.flush()  # what waits is written first: a check compares what Chroma holds
        with self._lock:
            self._memory = memory
            self._verified.clear()
        # One collection's metadata (no vectors loaded) tells a model change at open.
        for col in self._guard(lambda: self._own_collections(limit=1)):
            self._check_embedder(col)
        if not eager:
            return 0
        collections = self._guard(self._own_collections)  # before the store: see the module docstring
        counts = _evidence_counts(memory)
        known = {self.collection_name(u) for u in counts}
        small = self._small_vectors
        in_chroma = small.chroma_spaces() if small is not None else None
        for col in collections:
            # every vector of a user who has no evidence, and a collection left by a move to
            # Chroma cut short (the small file says where a user is: index_small)
            if col.name not in known or (in_chroma is not None and col.name not in in_chroma):
                try:
                    self._guard(lambda: self.client.delete_collection(col.name))
                except (ChromaNotFound, ValueError):
                    pass
        for name in set(small.counts() if small is not None else ()) - known:
            small.drop(name)
        with self._lock:
            self._verified.clear()
        return sum(self._verify(user_id, full=True) for user_id in counts)

    def _verify(self, user_id: str, full: bool = False) -> int:
        """Compare one user's vectors with the store: add the vectors of evidence that has
        none, remove those of evidence that is gone. Counts first; the ids only when they
        differ (always with ``full``: one missing and one stray vector leave the counts
        equal). Returns how many vectors were added."""
        with self._lock:
            if user_id in self._verified:
                return 0
            self._verified.add(user_id)  # first: the upsert below comes back through here
            try:
                return self._reconcile(user_id, full)
            except BaseException:
                self._verified.discard(user_id)
                raise

    def _reconcile(self, user_id: str, full: bool = False) -> int:
        if self._exact is not None:  # what the check changes is read again on the next search
            self._exact.drop(user_id)
        store = self._memory.store
        col = self._collections.get(user_id) or self._guard(lambda: self._open_collection(user_id, create=False))
        indexed = self._guard(col.count) if col is not None else 0
        # Vectors waiting in this process (index_buffer) are not missing: they are written
        # later. (Counted as missing, a user's first look-up wrote them at once, and with
        # 1,000 new users the text path paid every first write in its first decile.)
        waiting = self._pending.keys(user_id)
        n = self._opened_count.pop(user_id, None)
        n = store.evidence_count(user_id) if n is None else n
        if n in (indexed, indexed + len(waiting)) and not full:  # (in a write, what is written is still listed)
            return 0
        # Vectors first, evidence second: a vector is written after its evidence commits, so
        # one listed here whose evidence is not in the later read has really lost it.
        vector_ids = self.ids(user_id, verify=False) if col is not None else set()
        stored = set(store.evidence_ids(user_id))
        strays = sorted(vector_ids - stored)
        if strays:
            self._call(user_id, lambda c: c.delete(ids=strays), verify=False)
        missing = sorted(stored - vector_ids - waiting)
        added = 0
        for start in range(0, len(missing), 256):  # bounded memory for a big backlog
            rows = list(store.get_nodes("evidence", missing[start : start + 256]).values())
            if rows:
                self.upsert(rows, self.embed([r["text"] for r in rows]))
                self._flush([user_id])  # the read that checked this user comes next
                added += len(rows)
        return added

    def problems(self, memory: Any) -> list[str]:
        """Evidence without a vector and vectors without evidence (full comparison; a
        user not yet checked in this process is checked, and so repaired, first)."""
        out: list[str] = []
        self.flush()
        collections = self._guard(self._own_collections)  # vectors before evidence, as in _reconcile
        users = set(_evidence_counts(memory))
        for user_id in sorted(users):
            indexed = self.ids(user_id)
            stored = set(memory.store.evidence_ids(user_id))
            out += [f"evidence {e} of user {user_id} has no vector in the index" for e in sorted(stored - indexed)]
            out += [f"index vector {e} of user {user_id} has no evidence" for e in sorted(indexed - stored)]
        known = {self.collection_name(u) for u in users}
        sizes = self._small_vectors.counts() if self._small_vectors is not None else {}
        for col in collections:
            if col.name not in known:
                try:
                    sizes[col.name] = sizes.get(col.name, 0) + self._guard(col.count)
                except ChromaNotFound:  # deleted meanwhile
                    continue
        out += [f"index collection {name} holds {n} vectors of a user with no evidence"
                for name, n in sorted(sizes.items()) if n and name not in known]
        return out


def _evidence_counts(memory: Any) -> dict[str, int]:
    return memory.store.evidence_counts()
