"""What ties the evidence index to Chroma: a collection embedding function that never
embeds (we always pass vectors), the settings of a user's collection, the metadata stored
beside a vector, how many vector indexes an embedded client keeps loaded, and which errors
are Chroma's (or the way to its server's) rather than ours."""

from __future__ import annotations

import threading
import weakref
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

import chromadb
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.config import Settings
from chromadb.utils.embedding_functions import register_embedding_function


@register_embedding_function
class PrecomputedEmbeddings(EmbeddingFunction[Documents]):
    """Collection embedding function that refuses to embed.

    We always pass vectors ourselves. Passing ``embedding_function=None`` does not
    stop Chroma from falling back to its default model (a download), so collections
    get this one: registered by name, so Chroma can rebuild it when it reopens them.
    """

    def __init__(self) -> None:
        pass

    def __call__(self, input: Documents) -> Embeddings:
        raise RuntimeError("bcg-rag passes embeddings explicitly; this collection never embeds text itself")

    @staticmethod
    def name() -> str:
        return "bcg_precomputed"

    def get_config(self) -> dict:
        return {}

    @staticmethod
    def build_from_config(config: dict) -> "PrecomputedEmbeddings":
        return PrecomputedEmbeddings()

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine"]


# A user's collection flushes its writes into its vector index every 2 records, not Chroma's
# default 1,000: Chroma keeps every unflushed write in one log shared by all collections, so
# with a collection per user, each holding a few unflushed records, the log grew with the
# whole memory and every upsert and query slowed with it (1,000 collections, one write and one
# query each per round: 10.6 s of CPU per round at round 3, 34.5 s at round 29; flat at 7 to 11
# s with these settings). A single collection of 20,000 records, written 100 at a time, costs
# the same either way.
COLLECTION_CONFIGURATION = {"hnsw": {"space": "cosine", "batch_size": 2, "sync_threshold": 2}}

# A large collection is another matter: each flush writes files that grow with the collection,
# so with 2 an upsert of 100 records took 0.54 s of CPU at 520,000 records (0.08 to 0.12 s at
# 5,000), and 0.20 s with Chroma's 1,000. So a collection that holds LARGE_COLLECTION records
# or more when a process first opens it is switched to 1,000 (the log then holds at most 1,000
# unflushed records per large collection). Chroma reads the setting when it loads a
# collection's vector index and keeps the index loaded while its client's system runs, so a
# collection that grows past the line within a process is switched and its embedded client
# reopened (``ClientInUse``). (Switching every collection to 1,000 brings the growth above
# back: 11.7 s per round at round 1, 19.7 s at round 7.)
LARGE_COLLECTION = 10_000
LARGE_COLLECTION_SYNC = 1_000


def size_collection(col: Any, records: int) -> bool:
    """Give a collection of ``records`` the flush setting for its size; True when this
    changed it. It takes effect when Chroma next loads the collection's vector index: before
    its first read or write in this process, or after its client's system restarts."""
    if records < LARGE_COLLECTION:
        return False
    hnsw = (getattr(col, "configuration_json", None) or {}).get("hnsw") or {}
    if int(hnsw.get("sync_threshold") or 0) >= LARGE_COLLECTION_SYNC:
        return False
    col.modify(configuration={"hnsw": {"sync_threshold": LARGE_COLLECTION_SYNC}})
    return True


class ClientInUse:
    """Counts the calls in flight on a Chroma client, so that the client is replaced only
    between them: ``replace`` runs when no call is in flight (a call made meanwhile waits
    for it) and is skipped otherwise, to be tried again later; it never waits itself, so it
    cannot deadlock with a caller holding another lock. Calls nest freely."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._calls = 0
        self._replacing = False

    @contextmanager
    def call(self) -> Iterator[None]:
        with self._cond:
            while self._replacing:
                self._cond.wait()
            self._calls += 1
        try:
            yield
        finally:
            with self._cond:
                self._calls -= 1

    def replace(self, fn: Callable[[], None]) -> bool:
        """Run ``fn`` alone; False (and ``fn`` not run) while a call is in flight."""
        with self._cond:
            if self._calls or self._replacing:
                return False
            self._replacing = True
        try:
            fn()
        finally:
            with self._cond:
                self._replacing = False
                self._cond.notify_all()
        return True


# An embedded client keeps every vector index it has loaded in memory, up to a number Chroma
# derives from the process's file-handle limit (a fifth of it: 4,000 with this machine's 20,000).
# A user's index takes about 2.6 MB even with 10 records, so 1,000 users of 10 records each
# held 2.9 GB; with 100 loaded at most, 600 small users held 330 MB where 4,000 held 1.7 GB.
# An index pushed out is read back from disk on its next use (1.6 ms more per query for a
# small one); its writes are on disk already (sync_threshold above).
DEFAULT_LOADED_INDEXES = 512


def persistent_client(path: str, settings: Settings, loaded_indexes: int) -> Any:
    """An embedded client on ``path`` keeping at most ``loaded_indexes`` vector indexes
    loaded (least recently used go first). Chroma reads the bound only when its system
    starts, so a system this process already runs on the directory keeps its own."""
    client = chromadb.PersistentClient(path=path, settings=settings)
    server = getattr(client, "_server", None)  # Chroma has no setting for it: see above
    if getattr(server, "hnsw_cache_size", 0) > loaded_indexes and server not in _bounded:
        server.hnsw_cache_size = loaded_indexes
        server.stop()  # nothing is loaded yet: a fresh system
        server.start()
    if server is not None:
        _bounded.add(server)
    return client


_bounded: "weakref.WeakSet[Any]" = weakref.WeakSet()


def reopen_persistent(client: Any) -> Any:
    """The same embedded Chroma directory through a new client. Closing the last client of
    a directory in this process stops its system, so the new one loads every collection
    afresh, with its current settings; while another client of the directory is open the
    system (and the settings it loaded) is shared and carries on."""
    settings = client.get_settings()
    loaded = getattr(getattr(client, "_server", None), "hnsw_cache_size", DEFAULT_LOADED_INDEXES)
    client.close()
    return persistent_client(settings.persist_directory, settings, loaded)


def epoch_seconds(ts: str) -> float:
    """Chroma compares only numbers with $lte, so timestamps are also stored as epoch seconds."""
    return datetime.fromisoformat(ts).replace(tzinfo=timezone.utc).timestamp()


def vector_metadata(row: dict) -> dict:
    """What a vector carries: its evidence's time, which ``as_of`` filters on. Nothing else:
    the store holds the rest, and a server or the small vectors' file keeps no user id, agent
    or context (see ``index``'s module docstring)."""
    return dict(ts=epoch_seconds(row["timestamp"]))


def is_chroma_failure(exc: Exception) -> bool:
    """A failure of Chroma or of the way to it (HTTP), not a bug of ours."""
    from chromadb.errors import ChromaError

    if isinstance(exc, ChromaError):
        return True
    try:
        import httpx
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, (httpx.HTTPError, ConnectionError))
