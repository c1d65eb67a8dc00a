"""BeliefMemory: the public entry point, a thin facade.

Each capability lives in its own module and is a set of plain functions over a
memory (networkx style): ``writing`` (observe, claims, the refold), ``entities``
(names and aliases), ``views`` (beliefs, replay, explain), ``ingest`` (chat
messages), ``search``, ``lifecycle`` and ``health``. A memory holds only what they
share: the store, the policy, the vector index, the extractor and the clock.
"""

from __future__ import annotations

import shutil
import weakref
from pathlib import Path
from typing import Any, Callable, Sequence

import networkx as nx

from . import archive, entities, forget, health, lifecycle, review, views, writing
from .checks import check_bool, check_path
from .directory import default_index, open_index, prepare_directory, writable
from .embedding import Embeddings
from .errors import InvalidInputError
from .locking import DirectoryLock
from .models import Belief, Change, Claim, ObserveResult
from .names import NameIndex
from .policy import Policy
from .store_sqlite import SQLiteStore, storage_options
from .timeutil import utc_now
from .views import Explanation

SEARCH_KEYS = frozenset({"agent_id", "context", "as_of", "now", "top_k", "candidates", "max_tokens"})

__all__ = ["BeliefMemory", "Explanation"]


class BeliefMemory:
    """Evidence in, beliefs out. Open with ``BeliefMemory.open(dir)`` or ``BeliefMemory.in_memory()``."""

    def __init__(
        self,
        store: Any,
        policy: Policy,
        *,
        path: Path | None = None,
        index: Any = None,
        extractor: Any = None,
        llm: Any = None,
        clock: Callable[[], str] | None = None,
    ):
        self.store = store
        self.llm = llm  # for the [extractor] kinds "llm" and "cascade" (any LlamaIndex LLM)
        self.policy = policy
        self.path = path
        self.index = index
        self._extractor = extractor
        self.clock = clock or utc_now
        self.embeddings = Embeddings(index)  # recent texts' vectors, and embedding ahead on the write path
        self.names = NameIndex(self)  # entity names and their vectors, for linking
        self._release: Callable[[], None] | None = None  # the directory lock, set by open()
        if self.index is not None:
            self.index.repair(self)

    # --- opening -----------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | Path,
        policy: Policy | str | Path | None = None,
        *,
        index: Any = "auto",
        extractor: Any = None,
        llm: Any = None,
        clock: Callable[[], str] | None = None,
    ) -> "BeliefMemory":
        """Open (or create) a durable memory directory: SQLite + Chroma + policy.toml inside.
        One process per directory: another raises ``MemoryLockedError`` (share a memory
        between processes with ``connect``). A directory this process cannot write opens
        read-only (and unlocked): reads work, writes raise ``ReadOnlyError``. A damaged
        vector index is rebuilt from SQLite (a warning); a damaged ``memory.sqlite3``
        raises ``StoreError``."""
        path = prepare_directory(Path(check_path(path)))
        read_only = not writable(path)
        lock = None if read_only else DirectoryLock.acquire(path)  # MemoryLockedError while another process holds it
        try:
            memory = cls._open_directory(path, read_only, policy, index, extractor, llm, clock)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        memory._release = lock.release if lock is not None else None
        return memory

    @classmethod
    def _open_directory(cls, path: Path, read_only: bool, policy: Any, index: Any, extractor: Any, llm: Any,
                        clock: Any) -> "BeliefMemory":
        policy_file = path / "policy.toml"
        if policy is None:
            policy = Policy.load(policy_file) if policy_file.exists() else Policy.default()
        elif not isinstance(policy, Policy):
            policy = Policy.load(policy)
        if not policy_file.exists() and not read_only:
            policy_file.write_text(policy.to_toml(), encoding="utf-8")
        storage = policy.section("storage")
        store = SQLiteStore(path / "memory.sqlite3", **storage_options(storage))
        rebuilt, snapshot, made = False, None, index == "auto"
        try:
            if index == "auto":
                index, rebuilt, snapshot = open_index(policy, path, store.read_only)
            memory = cls(store, policy, path=path, index=index, extractor=extractor, llm=llm, clock=clock)
        except BaseException:
            if made and index not in (None, "auto") and hasattr(index, "close"):
                index.close()  # releases the directory's Chroma system
            store.close()
            raise
        if snapshot is not None:  # the read-only copy of the vectors goes when the memory does
            weakref.finalize(memory, shutil.rmtree, snapshot, True)
        if rebuilt:
            index.repair(memory, eager=True)
        return memory

    @property
    def read_only(self) -> bool:
        """True when the memory was opened from a directory this process cannot write."""
        return bool(getattr(self.store, "read_only", False))

    @classmethod
    def connect(cls, store: str | None = None, chroma: str | None = None, **kwargs) -> "BeliefMemory":
        """Server mode, for many processes on many machines: the graph in PostgreSQL, the
        vectors on a Chroma server. ``connect(store="postgresql://user@host:5432/db",
        chroma="http://host:8000")`` or ``connect(config="server.toml")``; see ``connect.py``."""
        from .connect import connect

        return connect(cls, store, chroma, **kwargs)

    @classmethod
    def in_memory(
        cls,
        policy: Policy | str | Path | None = None,
        *,
        index: Any = "auto",
        extractor: Any = None,
        llm: Any = None,
        clock: Callable[[], str] | None = None,
    ) -> "BeliefMemory":
        """A throwaway memory: SQLite in RAM and an ephemeral Chroma client."""
        if policy is None:
            policy = Policy.default()
        elif not isinstance(policy, Policy):
            policy = Policy.load(policy)
        if index == "auto":
            index = default_index(policy, None)
        return cls(SQLiteStore(":memory:", synchronous="OFF"), policy, index=index, extractor=extractor, llm=llm,
                   clock=clock)

    def close(self) -> None:
        """Release everything: the vector index client, the store, the directory lock."""
        try:
            self.embeddings.close()
            if self.index is not None and hasattr(self.index, "close"):
                self.index.close()
            self.store.close()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()

    def __enter__(self) -> "BeliefMemory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing (writing.py) -------------------------------------------------------------
    def observe(self, text: str, **kwargs) -> ObserveResult:
        """Record one piece of evidence and the claims it makes. See ``observe_many``."""
        return self.observe_many([dict(kwargs, text=text)])[0]

    def observe_many(self, items: Sequence[dict]) -> list[ObserveResult]:
        """Record many observations: one validation pass, one embedding batch, one transaction.

        Each item takes ``observe``'s keyword arguments: text, user_id, timestamp, source,
        source_type, context, claim / claims, weight, agent_id, event_id, private.
        Any invalid item raises before anything is written.
        """
        return writing.observe_many(self, items)

    def add_claims(self, evidence_id: str, claims: Sequence[Claim], origin: str = "linker") -> list[Change]:
        """Attach claims found later (e.g. by a restatement rule) to stored evidence.
        The evidence itself is never changed; its claim list only grows."""
        return writing.add_claims(self, evidence_id, claims, origin)

    def refold_user(self, user_id: str) -> None:
        """Rebuild every belief of a user from the stored claims."""
        writing.refold_user(self, user_id)

    def context_group(self, ctx: str | None) -> str:
        """Contexts that share a parent form one group; a belief lives in one group."""
        if not ctx:
            return ""
        return self.policy.context_parent(ctx) or ctx

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed through the index's embedder, remembering recent texts (``embedding``)."""
        return self.embeddings.embed(texts)

    # --- messages (ingest.py: claim extraction, then deterministic linking) ---------------
    @property
    def extractor(self):
        """The claim extractor: the one passed, else the policy's ``[extractor]`` kind
        (offline; llm or cascade with the memory's ``llm``)."""
        if self._extractor is None:
            from .extract import extractor_from_config

            self._extractor = extractor_from_config(self.policy.section("extractor"), llm=self.llm)
        return self._extractor

    def add_message(self, text: str, *, user_id: str, timestamp: Any, **kwargs):
        """Store a chat message as evidence with the claims extracted from it, linked to
        beliefs. Returns a ``MessageResult``: claims, per-claim belief links (old -> new)."""
        return self.add_messages([dict(kwargs, text=text, user_id=user_id, timestamp=timestamp)])[0]

    def add_messages(self, messages: Sequence[dict], *, batch_size: int | None = None):
        """Batched ``add_message``: one embedding batch, one transaction for the evidence.
        With ``batch_size``, consecutive batches of that size, each as its own call, the
        next one embedded while this one is written (a backlog's import)."""
        from .ingest import add_messages

        return add_messages(self, messages, batch_size)

    # --- search (search.py) ----------------------------------------------------------------
    def search(self, query: str, *, user_id: str | None = None, include_archived: bool = False, **kwargs):
        """Resolved belief groups for a query; see ``bcg_rag.search.search``. With
        ``include_archived``, matching archived beliefs follow (as plain dicts, see
        ``archive.search_archived``)."""
        from .search import search

        unknown = set(kwargs) - SEARCH_KEYS
        if unknown:
            raise InvalidInputError(f"search() got unknown arguments {sorted(unknown)}; known: {sorted(SEARCH_KEYS)}")
        check_bool(include_archived, "include_archived")
        groups = search(self, query, user_id=user_id, **kwargs)
        if include_archived:
            groups += archive.search_archived(
                self, query, user_id=user_id, top_k=kwargs.get("top_k", 5), agent_id=kwargs.get("agent_id")
            )
        return groups

    # --- lifecycle (lifecycle.py) -----------------------------------------------------------
    def maintain(self, now: Any = None) -> dict:
        """Apply the policy's lifecycle rules (weak, invalidated, archived); idempotent."""
        return lifecycle.maintain(self, now)

    def archive(self, belief_id: str, **kw) -> list[str]:
        return lifecycle.archive(self, belief_id, **kw)

    def restore(self, belief_id: str, **kw) -> list[str]:
        return lifecycle.restore(self, belief_id, **kw)

    def archived_beliefs(self, user_id: str, **kw) -> list[dict]:
        return archive.archived_beliefs(self, user_id, **kw)

    def review_queue(self, user_id: str | None = None, **kw) -> list[dict]:
        return review.review_queue(self, user_id, **kw)

    def review(self, belief_id: str, verdict: Any, reviewer: str, note: str | None = None, now: Any = None):
        """Record a person's verdict as human_review evidence; it flows through the same rules."""
        return review.review(self, belief_id, verdict, reviewer, note, now)

    def audit(self, user_id: str | None = None, action: str | None = None) -> list[dict]:
        return review.audit(self, user_id, action)

    def forget_user(self, user_id: str, **kw) -> dict:
        """Delete everything of a user from every store; the audit entry keeps no content."""
        return forget.forget_user(self, user_id, **kw)

    def forget_evidence(self, evidence_id: str, **kw) -> None:
        """Delete one evidence and refold the beliefs it touched as if it had never been seen."""
        return forget.forget_evidence(self, evidence_id, **kw)

    # --- entities and aliases (entities.py) -------------------------------------------------
    def resolve_entity(self, user_id: str, name: str, create: bool = False) -> str | None:
        """The canonical entity id for a name as this user refers to it."""
        return entities.resolve_entity(self, user_id, name, create)

    def entity(self, entity_id: str) -> dict:
        return entities.entity(self, entity_id)

    def add_alias(self, user_id: str, alias: str, canonical: str, *, actor: str = "api") -> int | None:
        """Declare that ``alias`` names the same entity as ``canonical`` for this user.
        Logged; returns the merge id for ``undo_merge`` (None when already so)."""
        return entities.add_alias(self, user_id, alias, canonical, actor=actor)

    def undo_merge(self, merge_id: int, *, actor: str = "api") -> None:
        entities.undo_merge(self, merge_id, actor=actor)

    # --- reading (views.py) -----------------------------------------------------------------
    def beliefs(self, user_id: str | None = None, subject: str | None = None, predicate: str | None = None,
                context: str | None = None, as_of: Any = None, *, now: Any = None,
                global_read: bool = False) -> list[Belief]:
        """Beliefs of a user, strongest first, with decayed confidence and band at ``now``
        (or at ``as_of``, replayed from the evidence up to that time)."""
        return views.beliefs(self, user_id, subject, predicate, context, as_of, now=now, global_read=global_read)

    def view(self, row: dict, *, as_of: str | None = None, now: str | None = None,
             entity: Callable[[str], dict | None] | None = None) -> Belief | None:
        """A stored belief row as seen at a time: replayed to ``as_of``, decayed to ``now``
        (``entity``: how to read the subject's row, see ``views.view``)."""
        return views.view(self, row, as_of=as_of, now=now, entity=entity)

    def asserted(self, belief: Belief) -> bool:
        """Whether a belief may be stated as current."""
        return views.asserted(self, belief)

    # Reads by id are scoped like every other read: user_id= is required (MissingUserError
    # otherwise), or global_read=True for operator tools.
    def get_belief(self, belief_id: str, user_id: str | None = None, *, global_read: bool = False) -> dict:
        return views.get_belief(self, belief_id, user_id, global_read=global_read)

    def evidence(self, evidence_id: str, user_id: str | None = None, *, global_read: bool = False,
                 agent_id: str | None = None) -> dict:
        return views.evidence(self, evidence_id, user_id, global_read=global_read, agent_id=agent_id)

    def explain(self, belief_id: str, as_of: Any = None, *, now: Any = None, user_id: str | None = None,
                agent_id: str | None = None, global_read: bool = False) -> Explanation:
        """Why a belief stands where it does: supporters, refuters, history, supersession.
        ``agent_id`` hides other agents' private texts and the values only they claim."""
        return views.explain(self, belief_id, as_of, now=now, user_id=user_id, agent_id=agent_id,
                             global_read=global_read)

    # --- health and export (health.py) ------------------------------------------------------
    def validate(self) -> list[str]:
        """Every inconsistency we can find; empty when the memory is healthy."""
        return health.validate(self)

    def to_networkx(self, user_id: str | None = None) -> nx.MultiDiGraph:
        """The belief context graph (or one user's part of it) as a networkx MultiDiGraph."""
        return health.to_networkx(self, user_id)
