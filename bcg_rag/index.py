"""Evidence vectors, per user: a small user's as rows of one SQLite file beside Chroma
(``index_small``), compared exactly; a user past ``index_small.PROMOTE_ABOVE`` vectors in a
Chroma collection of their own (not in server mode, where every user has one).

Why per user: a ``where={"user_id": ...}`` filter over 100k vectors of 1000 users
measured 85 ms p50 against 2.5 ms unfiltered. A user's own place makes tenant isolation
structural (a query reads one user's rows or one user's collection, never another's) and
keeps a query's cost proportional to that user's evidence, not to the whole memory.

SQLite is the source of truth; the index only holds ``evidence id -> vector``
(no text, so private evidence is stored once) and the evidence's time. The memory
writes vectors after its commit, and they wait in a buffer until that user is read
(``index_buffer``; not in server mode), so a crash can leave vectors missing. (A small
collection is searched exactly in the process, ``index_exact``: Chroma's HNSW sometimes
leaves a vector out.) Missing vectors are added back per user, the first time a process
touches that user's collection:
Chroma loads a collection from disk on its first use anyway (~110 ms and ~3 MB
each, measured), so checking every user when the memory opens took 140 s at 1000
users, while checking on first use costs one extra count. ``repair`` (called on
open) arms that check, or runs it for everyone with ``eager=True``; ``problems``
(in validate) reports what is still inconsistent.

The graph is the source of truth in both directions: a check also removes vectors whose
evidence is gone (a vector written after another process forgot its user, or after a
transaction that rolled back), reading the vectors before the evidence so that a vector
written meanwhile is never mistaken for a stray. A collection that another process
deleted (``forget_user``) is reopened, or recreated for a write, never reported as an
untyped Chroma error; a Chroma server that cannot be reached is ``IndexUnavailableError``.

In server mode (``shared=True``: several processes write the same collections through a
Chroma server) every write is checked against the store right after it: the vectors of
evidence that a concurrent ``forget_user`` removed meanwhile are deleted again. And the
server gets nothing but vectors and times (no user id, agent or context in metadata):
its files are out of our reach, so nothing a user said or is called may go there, or a
deleted collection's leftovers in Chroma's SQLite would keep it.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from pathlib import Path
from typing import Any, Sequence

import chromadb
from chromadb.config import Settings
from chromadb.errors import NotFoundError as ChromaNotFound

from .chroma_glue import (
    COLLECTION_CONFIGURATION, DEFAULT_LOADED_INDEXES, ClientInUse, PrecomputedEmbeddings, is_chroma_failure,
    persistent_client, size_collection,
)
from .embedders import Embedder, embedder_from_config
from .errors import ConfigError, IndexUnavailableError
from .index_buffer import PendingVectors, per_directory
from .index_checks import IndexChecks
from .index_exact import DEFAULT_CACHE_MIB, ExactSearch, ExactVectors
from .index_small import SMALL_FILE, SmallCollection, SmallVectors
from .index_writes import IndexWrites

_HASH_LEN = 16
VECTORS_PER_GET = 10_000  # ids per Chroma get: one SQLite variable each, 32,766 at most


# What the embedded binding says when an index it pushed out of memory is not on disk.
UNLOADED = "Nothing found on disk"


class EvidenceIndex(IndexWrites, IndexChecks, ExactSearch):
    """Evidence vectors of one memory, per user: rows of the small vectors' file or a Chroma
    collection."""

    def __init__(self, embedder: Embedder, client: Any, collection_prefix: str, *, ephemeral: bool = False,
                 shared: bool = False, reopenable: bool = False, exact_cache_mib: int | None = None):
        self.embedder = embedder
        self.client = client
        self.prefix = collection_prefix
        self.ephemeral = ephemeral  # ephemeral collections are dropped on close
        self.shared = shared  # other processes write the same collections (server mode)
        self._collections: dict[str, Any] = {}  # user_id -> warm collection handle
        self._lock = threading.RLock()
        self._memory: Any = None  # set by repair(): whose store the vectors are checked against
        self._verified: set[str] = set()  # users checked against the store in this process
        self._opened_count: dict[str, int] = {}  # evidence counted on opening, for the check right after
        self._sizes: dict[str, int] = {}  # records of a collection written to in this process
        self._in_use = ClientInUse()
        self.reopenable = reopenable  # our own embedded client: see _grew
        self._reopen_due = False
        self._pending = PendingVectors()  # written behind, except in server mode (other processes read it)
        # Small collections are searched exactly (index_exact); not in server mode, where other
        # processes write the collections too.
        self._exact: ExactVectors | None = None if shared else ExactVectors()
        # Small users' vectors (index_small): not on a server, whose collections other processes share.
        self._small_vectors: SmallVectors | None = None
        if reopenable:  # our embedded directory: its other memories in this process share these
            directory = client.get_settings().persist_directory
            key = f"{directory}|{collection_prefix}"
            self._pending, self._exact = per_directory(PendingVectors, key), per_directory(ExactVectors, key)
            self._small_vectors = SmallVectors(Path(directory) / SMALL_FILE)
        elif ephemeral:
            self._small_vectors = SmallVectors(None)
        if self._exact is not None and exact_cache_mib is not None:  # memories sharing it: the last opened sets it
            self._exact.max_bytes = int(exact_cache_mib) << 20
        if self._small_vectors is not None:
            if self._small_vectors.meta("layout") is None:  # once per file: see index_small
                self._small_vectors.adopt([c.name for c in self._own_collections()])
            built_with = self._small_vectors.meta("embedder")
            if built_with and built_with != embedder.name:
                raise ConfigError(f"the small vectors of this memory are {built_with} vectors but the policy's embedder"
                                  f" is {embedder.name}; vectors of two models cannot be compared")

    @classmethod
    def from_policy(cls, policy: Any, path: str | Path | None) -> "EvidenceIndex":
        embedder = embedder_from_config(policy.section("embedder"))
        section = policy.section("chroma")
        prefix = section.get("collection") or "bcg_evidence"
        settings = Settings(anonymized_telemetry=False)
        cache_mib = int(section.get("exact_cache_mib", DEFAULT_CACHE_MIB))
        if section.get("host"):
            return cls.from_server(policy, f"http://{section['host']}:{int(section.get('port', 8000))}", prefix)
        if path is None:
            # Ephemeral clients in one process share one store: a unique prefix keeps
            # two in-memory memories from ever seeing each other's vectors.
            return cls(embedder, chromadb.EphemeralClient(settings=settings), f"{prefix}_{uuid.uuid4().hex[:12]}", ephemeral=True,
                       exact_cache_mib=cache_mib)
        client = persistent_client(str(Path(path) / "chroma"), settings,
                                   int(section.get("loaded_indexes", DEFAULT_LOADED_INDEXES)))
        return cls(embedder, client, prefix, reopenable=True, exact_cache_mib=cache_mib)

    @classmethod
    def from_server(cls, policy: Any, url: str, prefix: str, *, shared: bool = False) -> "EvidenceIndex":
        """An index on a Chroma server (``http://host:port``, or https)."""
        from urllib.parse import urlsplit

        parts = urlsplit(url if "://" in url else f"http://{url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"a Chroma server URL looks like http://host:8000, got {url!r}")
        port = parts.port or (443 if parts.scheme == "https" else 8000)
        embedder = embedder_from_config(policy.section("embedder"))
        try:
            client = chromadb.HttpClient(host=parts.hostname, port=port, ssl=parts.scheme == "https",
                                         settings=Settings(anonymized_telemetry=False))
        except Exception as exc:  # the client checks the server when it is made
            raise IndexUnavailableError(f"cannot reach the Chroma server at {url}: {exc}") from exc
        return cls(embedder, client, prefix, shared=shared)

    def _call(self, user_id: str, fn: Any, create: bool = False, verify: bool = True, flush: bool = True) -> Any:
        """``fn(collection)`` for one user's collection (None when it has none and
        ``create`` is False), after writing the user's waiting vectors. Another process may
        have deleted the collection since we opened it (``forget_user``): the stale handle
        is dropped and the call made once more on a fresh one (recreated when writing)."""
        if flush and user_id in self._pending:
            self._flush([user_id])
        for attempt in (0, 1):
            try:
                with self._in_use.call():  # the handle and its use: no client swap between
                    col = self._guard(lambda: self._collection(user_id, create=create, verify=verify))
                    if col is None:
                        return None
                    return self._guard(lambda: fn(col))
            except ChromaNotFound:
                self._forget_handle(user_id)
                if attempt:
                    raise IndexUnavailableError(f"the vector collection of user {user_id!r} keeps vanishing") from None
            except IndexUnavailableError as exc:
                # The embedded binding, its loaded indexes bounded, may push out an index it has
                # not written yet and then fail to read it back ("Nothing found on disk"); a
                # fresh client reads what is on disk and the log it has not applied. Once.
                if attempt or not self.reopenable or UNLOADED not in str(exc) or not self._in_use.replace(self._reopen):
                    raise
        return None

    def _guard(self, fn: Any) -> Any:
        """Chroma's own failures as typed errors; a deleted collection stays ChromaNotFound
        for ``_call`` to handle."""
        try:
            with self._in_use.call():
                return fn()
        except (ChromaNotFound, ConfigError, IndexUnavailableError):
            raise
        except Exception as exc:
            if is_chroma_failure(exc):
                raise IndexUnavailableError(f"vector index: {type(exc).__name__}: {exc}") from exc
            raise

    def _forget_handle(self, user_id: str) -> None:
        with self._lock:
            self._collections.pop(user_id, None)

    # --- collections ---------------------------------------------------------------
    def collection_name(self, user_id: str) -> str:
        return f"{self.prefix}_{hashlib.sha1(user_id.encode('utf-8')).hexdigest()[:_HASH_LEN]}"

    def _collection(self, user_id: str, create: bool = False, verify: bool = True) -> Any | None:
        col = self._collections.get(user_id)
        if col is None:
            col = self._open_collection(user_id, create)
        if verify and self._memory is not None and user_id not in self._verified:
            self._verify(user_id)
            col = self._collections.get(user_id)
        self._opened_count.pop(user_id, None)  # a later check counts afresh
        return col

    def _open_collection(self, user_id: str, create: bool) -> Any | None:
        with self._lock:
            if user_id in self._collections:
                return self._collections[user_id]
            name = self.collection_name(user_id)
            if self._small_vectors is not None and not self._small_vectors.in_chroma(name):
                if not create and not self._small_vectors.count(name):
                    return None
                if create:
                    self._small_vectors.note("embedder", self.embedder.name)
                col = SmallCollection(self._small_vectors, name, self.embedder.name)
            else:
                col = self._chroma_collection(user_id, create)
                if col is None:
                    return None
            self._check_embedder(col)
            if self._memory is not None:  # counted once: the first check (_reconcile) reuses it
                self._opened_count[user_id] = self._memory.store.evidence_count(user_id)
                if not isinstance(col, SmallCollection):
                    size_collection(col, self._opened_count[user_id])
            self._collections[user_id] = col
            return col

    def _chroma_collection(self, user_id: str, create: bool) -> Any | None:
        name = self.collection_name(user_id)
        if create:
            return self.client.get_or_create_collection(
                name, embedding_function=PrecomputedEmbeddings(), configuration=COLLECTION_CONFIGURATION,
                metadata={"embedder": self.embedder.name} if self.shared else {"user_id": user_id, "embedder": self.embedder.name},
            )
        try:
            return self.client.get_collection(name, embedding_function=PrecomputedEmbeddings())
        except (ChromaNotFound, ValueError):
            return None

    def _check_embedder(self, col: Any) -> None:
        built_with = (col.metadata or {}).get("embedder")
        if built_with and built_with != self.embedder.name:
            raise ConfigError(
                f"Chroma collection {col.name} holds {built_with} vectors but the policy's embedder is"
                f" {self.embedder.name}; vectors of two models cannot be compared"
            )

    def _own_collections(self, limit: int | None = None) -> list[Any]:
        """Our collections (name = prefix + '_' + 16 hex digits), found by listing once."""
        head = f"{self.prefix}_"
        return [
            c for c in self.client.list_collections(limit=limit)
            if c.name.startswith(head) and len(c.name) == len(head) + _HASH_LEN
            and all(ch in "0123456789abcdef" for ch in c.name[len(head):])
        ]

    # --- reading -------------------------------------------------------------------
    def vectors(self, user_id: str, ids: Sequence[str]) -> dict[str, list[float]]:
        """Stored vectors of some of a user's evidence, by evidence id (ids without a vector
        are left out): multi-hop search compares the hops it follows without embedding."""
        out: dict[str, list[float]] = {}
        unique = list(dict.fromkeys(ids))
        # in pieces: Chroma asks SQLite with one variable per id, and SQLite takes 32,766 at most
        for start in range(0, len(unique), VECTORS_PER_GET):
            piece = unique[start : start + VECTORS_PER_GET]
            res = self._call(user_id, lambda col, piece=piece: col.get(ids=piece, include=["embeddings"]))
            if res is not None:
                out.update((i, [float(x) for x in v]) for i, v in zip(res["ids"], res["embeddings"]))
        return out

    def count(self, user_id: str | None = None) -> int:
        if user_id is not None:
            return self._call(user_id, lambda col: col.count()) or 0
        self.flush()
        small = self._small_vectors.total() if self._small_vectors is not None else 0
        return small + sum(self._guard(c.count) for c in self._own_collections())

    def ids(self, user_id: str, *, verify: bool = True) -> set[str]:
        got = self._call(user_id, lambda col: col.get(include=[])["ids"], verify=verify)
        return set(got or ())

    def close(self) -> None:
        """Forget every handle and release the client: an embedded (persistent) Chroma
        keeps one system per directory per process until its last client closes, and
        then the directory can be deleted and recreated."""
        if self.client is not None and not self.ephemeral:
            try:
                self.flush()
            except IndexUnavailableError:
                pass  # the vectors are missing, and the next process's first check of each user adds them
        with self._lock:
            self._collections.clear()
            self._exact = None
            if self._small_vectors is not None:
                self._small_vectors.close()
                self._small_vectors = None
            self._memory = None
            self._verified.clear()
            client, self.client = self.client, None
        if client is None:
            return
        try:
            if self.ephemeral:  # nobody can reopen an in-memory memory: free its vectors
                head = f"{self.prefix}_"
                for col in client.list_collections():
                    if col.name.startswith(head):
                        client.delete_collection(col.name)
        finally:
            # A persistent client holds its directory; the ephemeral system holds nothing
            # on disk and is shared by every in-memory memory, so it is left running.
            if not self.ephemeral and hasattr(client, "close"):
                client.close()
