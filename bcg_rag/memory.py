"""BeliefMemory: the public entry point.

Write path (no LLM here): validate everything, embed new evidence texts in one
batch, then in one transaction store the evidence (append-only), its claims, and
the edges to the beliefs they touch, and refold those beliefs. The vector index is
written after the commit; a crash in between is repaired when the memory opens.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import networkx as nx

from . import lifecycle, revision
from .errors import (
    EmptyTextError,
    InvalidInputError,
    InvalidWeightError,
    MissingUserError,
    NotFoundError,
)
from .ids import clean_value, normalise_key, stable_id, text_hash
from .models import (
    BELONGS_TO,
    CONTEXT_OF,
    HIDDEN_TEXT,
    OCCURRED_IN,
    REFUTES,
    SUPPORTS,
    Belief,
    Change,
    Claim,
    Edge,
    HistoryEntry,
    ObserveResult,
    check_unit,
)
from .policy import Policy
from .revision import DIRECT, EdgeEvent
from .store_sqlite import SQLiteStore
from .timeutil import parse_timestamp, utc_now

FIRST_PERSON = frozenset({"user", "i", "me", "my", "myself", "我", "我的", "本人", "自己"})
BELIEF_RELATIONS = (SUPPORTS, REFUTES)
EMBEDDING_CACHE_SIZE = 4096


@dataclass
class _Prepared:
    """One validated observation, ready to write."""

    evidence: dict
    claims: list[dict]
    event: dict
    contexts: list[str]


@dataclass
class Explanation:
    """Why a belief is (not) believed: printable, and JSON-serialisable via to_dict()."""

    belief: dict
    confidence: float
    effective_confidence: float
    band: str
    asserted: bool
    supporters: list[dict]
    refuters: list[dict]
    history: list[dict]
    superseded_by: list[dict] = field(default_factory=list)
    supersedes: list[dict] = field(default_factory=list)
    as_of: str | None = None
    now: str | None = None

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    def __str__(self) -> str:
        b = self.belief
        ctx = ", ".join(b["contexts"]) or "no context"
        lines = [
            f"Belief {b['id']}: {b['subject']} {b['predicate']} = {b['value']}  [{ctx}]",
            f"  confidence {self.confidence:+.3f} stored, {self.effective_confidence:+.3f} effective"
            f" ({self.band}{', asserted' if self.asserted else ', not asserted'})"
            + (f" as of {self.as_of}" if self.as_of else ""),
        ]
        for title, items in (("supported by", self.supporters), ("refuted by", self.refuters)):
            for e in items:
                lines.append(
                    f"  {title}: \"{e['text']}\" ({e['source_type']}, {e['source']}, {e['timestamp']},"
                    f" weight {e['weight']:.2f}, value {e['value']:+.2f}{', ' + e['reason'] if e['reason'] != DIRECT else ''})"
                )
        for h in self.history:
            old = "new" if h["old"] is None else f"{h['old']:+.3f}"
            lines.append(f"  history: {h['at']} {old} -> {h['new']:+.3f} by {h['evidence_id']} ({h['relation']})")
        for s in self.superseded_by:
            lines.append(f"  superseded by: {s['value']} ({s['belief_id']}) via {s['evidence_id']} at {s['at']}")
        for s in self.supersedes:
            lines.append(f"  supersedes: {s['value']} ({s['belief_id']}) via {s['evidence_id']} at {s['at']}")
        return "\n".join(lines)


class BeliefMemory:
    """Evidence in, beliefs out. Open with ``BeliefMemory.open(dir)`` or ``BeliefMemory.in_memory()``."""

    def __init__(
        self,
        store: SQLiteStore,
        policy: Policy,
        *,
        path: Path | None = None,
        index: Any = None,
        extractor: Any = None,
        clock: Callable[[], str] | None = None,
    ):
        self.store = store
        self.policy = policy
        self.path = path
        self.index = index
        self._extractor = extractor
        self.clock = clock or utc_now
        self._embedding_cache: OrderedDict[str, list[float]] = OrderedDict()
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
        clock: Callable[[], str] | None = None,
    ) -> "BeliefMemory":
        """Open (or create) a durable memory directory: SQLite + Chroma + policy.toml inside."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        policy_file = path / "policy.toml"
        if policy is None:
            policy = Policy.load(policy_file) if policy_file.exists() else Policy.default()
        elif not isinstance(policy, Policy):
            policy = Policy.load(policy)
        if not policy_file.exists():
            policy_file.write_text(policy.to_toml(), encoding="utf-8")
        storage = policy.section("storage")
        store = SQLiteStore(
            path / "memory.sqlite3",
            synchronous=storage.get("synchronous", "FULL"),
            busy_timeout_ms=int(storage.get("busy_timeout_ms", 30000)),
        )
        if index == "auto":
            index = _default_index(policy, path)
        return cls(store, policy, path=path, index=index, extractor=extractor, clock=clock)

    @classmethod
    def in_memory(
        cls,
        policy: Policy | str | Path | None = None,
        *,
        index: Any = "auto",
        extractor: Any = None,
        clock: Callable[[], str] | None = None,
    ) -> "BeliefMemory":
        """A throwaway memory: SQLite in RAM and an ephemeral Chroma client."""
        if policy is None:
            policy = Policy.default()
        elif not isinstance(policy, Policy):
            policy = Policy.load(policy)
        if index == "auto":
            index = _default_index(policy, None)
        return cls(SQLiteStore(":memory:", synchronous="OFF"), policy, index=index, extractor=extractor, clock=clock)

    def close(self) -> None:
        if self.index is not None and hasattr(self.index, "close"):
            self.index.close()
        self.store.close()

    def __enter__(self) -> "BeliefMemory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing -----------------------------------------------------------------------
    def observe(self, text: str, **kwargs) -> ObserveResult:
        """Record one piece of evidence and the claims it makes. See ``observe_many``."""
        return self.observe_many([dict(kwargs, text=text)])[0]

    def observe_many(self, items: Sequence[dict]) -> list[ObserveResult]:
        """Record many observations: one validation pass, one embedding batch, one transaction.

        Each item takes ``observe``'s keyword arguments: text, user_id, timestamp, source,
        source_type, context, claim / claims, weight, agent_id, event_id, private.
        Any invalid item raises before anything is written.
        """
        prepared = [self._prepare(**item) for item in items]
        ids = [p.evidence["id"] for p in prepared]
        existing = set(self.store.get_nodes("evidence", ids))
        fresh: dict[str, _Prepared] = {}
        for p in prepared:
            if p.evidence["id"] not in existing:
                fresh.setdefault(p.evidence["id"], p)
        vectors = None
        if self.index is not None and fresh:
            vectors = self.embed([p.evidence["text"] for p in fresh.values()])
        results: list[ObserveResult] = []
        written: set[str] = set()
        with self.store.transaction():
            for p in prepared:
                eid = p.evidence["id"]
                if eid in existing or eid in written:
                    results.append(ObserveResult(eid, True, [], _claims_of(p)))
                    continue
                written.add(eid)
                changes = self._write(p)
                results.append(ObserveResult(eid, False, changes, _claims_of(p)))
        if self.index is not None and fresh:
            self.index.upsert([p.evidence for p in fresh.values()], vectors)
        return results

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed through the index's embedder, remembering recent texts: ingestion links a
        message to its neighbours right after storing it, and must not pay for it twice."""
        cache = self._embedding_cache
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            for text, vector in zip(missing, self.index.embed(missing)):
                cache[text] = vector
        out = []
        for t in texts:
            cache.move_to_end(t)
            out.append(cache[t])
        while len(cache) > EMBEDDING_CACHE_SIZE:
            cache.popitem(last=False)
        return out

    def _prepare(
        self,
        text: str | None = None,
        *,
        user_id: str | None = None,
        timestamp: Any = None,
        source: str | None = None,
        source_type: str = "user_explicit",
        context: str | None = None,
        claim: Claim | dict | None = None,
        claims: Sequence[Claim | dict] | None = None,
        weight: float | None = None,
        agent_id: str | None = None,
        event_id: str | None = None,
        event_type: str | None = None,
        private: bool = False,
    ) -> _Prepared:
        if not isinstance(text, str) or not text.strip():
            raise EmptyTextError("evidence text must be a non-empty string")
        user_id = _require_user(user_id)
        ts = parse_timestamp(timestamp)
        self.policy.weight(source_type)  # unknown source types fail here, before any write
        if weight is not None:
            weight = check_unit(weight, "weight", 0.0, 1.0, InvalidWeightError)
        context = _check_context(context)
        if agent_id is not None and (not isinstance(agent_id, str) or not agent_id.strip()):
            raise InvalidInputError("agent_id must be a non-empty string or None")
        source = source or f"api:{ts}"
        all_claims = ([claim] if claim is not None else []) + list(claims or [])
        evidence_id = stable_id("ev", user_id, source, ts, text_hash(text))
        claim_rows = []
        contexts = [context] if context else []
        for idx, c in enumerate(all_claims):
            c = _as_claim(c)
            c_type = c.source_type or source_type
            c_weight = weight if weight is not None else self.policy.weight(c_type)
            c_context = _check_context(c.context) if c.context else context
            if c_context and c_context not in contexts:
                contexts.append(c_context)
            claim_rows.append(
                dict(
                    evidence_id=evidence_id, idx=idx, user_id=user_id, subject=c.subject.strip(),
                    predicate=_clean_predicate(c.predicate), value=clean_value(c.value), stance=c.stance,
                    weight=c_weight, source_type=c_type, context=c_context, timestamp=ts, origin="caller",
                )
            )
        event_id = event_id or stable_id("evt", user_id, source)
        event = dict(id=event_id, event_type=event_type or (source.split(":", 1)[0] if ":" in source else "observation"), timestamp=ts)
        evidence = dict(
            id=evidence_id, text=text, source=source, source_type=source_type, timestamp=ts, event_id=event_id,
            user_id=user_id, agent_id=agent_id, embedding_key=evidence_id, context=context, private=bool(private),
        )
        return _Prepared(evidence, claim_rows, event, contexts)

    def _write(self, p: _Prepared) -> list[Change]:
        ev = p.evidence
        self.store.insert_node("event", p.event)
        for ctx in p.contexts:
            self._ensure_context(ctx)
        self.store.insert_node("evidence", ev)
        self.store.put_edge(Edge(ev["id"], p.event["id"], OCCURRED_IN))
        if ev["context"]:
            self.store.put_edge(Edge(ev["id"], ev["context"], CONTEXT_OF))
        slots = []
        for row in p.claims:
            self.store.insert_claim(row)
            slots.append(self._link_claim(row))
        return self._recompute_slots(slots)

    def add_claims(self, evidence_id: str, claims: Sequence[Claim], origin: str = "linker") -> list[Change]:
        """Attach claims found later (e.g. by a restatement rule) to stored evidence.
        The evidence itself is never changed; its claim list only grows."""
        ev = self.store.get_node("evidence", evidence_id)
        if ev is None:
            raise NotFoundError(f"no evidence {evidence_id!r}")
        with self.store.transaction():
            idx = self.store.next_claim_idx(evidence_id)
            slots = []
            for i, c in enumerate(claims):
                c = _as_claim(c)
                c_type = c.source_type or ev["source_type"]
                row = dict(
                    evidence_id=evidence_id, idx=idx + i, user_id=ev["user_id"], subject=c.subject.strip(),
                    predicate=_clean_predicate(c.predicate), value=clean_value(c.value), stance=c.stance,
                    weight=self.policy.weight(c_type), source_type=c_type, context=c.context or ev["context"],
                    timestamp=ev["timestamp"], origin=origin,
                )
                if row["context"]:
                    self._ensure_context(row["context"])
                self.store.insert_claim(row)
                slots.append(self._link_claim(row))
            return self._recompute_slots(slots)

    def _ensure_context(self, ctx: str) -> None:
        ctype, _, cvalue = ctx.partition(":") if ":" in ctx else ("context", "", ctx)
        parent = self.policy.context_parent(ctx)
        if parent:
            self._ensure_context(parent)
        self.store.insert_node("context", dict(id=ctx, context_type=ctype, context_value=cvalue, parent=parent))

    def context_group(self, ctx: str | None) -> str:
        """Contexts that share a parent form one group; a belief lives in one group."""
        if not ctx:
            return ""
        return self.policy.context_parent(ctx) or ctx

    def _link_claim(self, c: dict) -> tuple[str, str, str, str]:
        user_id = c["user_id"]
        subject_id = self.resolve_entity(user_id, c["subject"], create=True)
        context_key = self.context_group(c["context"])
        belief_id = stable_id("bel", user_id, subject_id, c["predicate"], normalise_key(c["value"]), context_key)
        row = self.store.get_node("belief", belief_id)
        if row is None:
            row = dict(
                id=belief_id, user_id=user_id, subject_id=subject_id, predicate=c["predicate"], value=c["value"],
                context_key=context_key, contexts=[], confidence=0.0, last_updated=c["timestamp"], history=[],
                status="active",
            )
            self.store.put_edge(Edge(belief_id, subject_id, BELONGS_TO))
        if c["context"] and c["context"] not in row["contexts"]:
            row["contexts"] = sorted(row["contexts"] + [c["context"]])
            self.store.put_edge(Edge(belief_id, c["context"], CONTEXT_OF))
        self.store.upsert_belief(row)
        self.store.put_edge(
            Edge(
                c["evidence_id"], belief_id, revision.relation_for(c["stance"]), weight=c["weight"], value=c["stance"],
                valid_from=c["timestamp"], reason=DIRECT if c["origin"] == "caller" else c["origin"],
                source_type=c["source_type"],
            )
        )
        return (user_id, subject_id, c["predicate"], context_key)

    def _recompute_slots(self, slots: Iterable[tuple[str, str, str, str]]) -> list[Change]:
        changes: list[Change] = []
        for slot in dict.fromkeys(slots):
            changes += self._recompute_slot(*slot)
        return changes

    def _recompute_slot(self, user_id: str, subject_id: str, predicate: str, context_key: str) -> list[Change]:
        """Refold every belief of one slot. For a functional predicate, derive the
        REFUTES edges that support for one value implies for the others."""
        rows = self.store.slot_beliefs(user_id, subject_id, predicate, context_key)
        ids = [r["id"] for r in rows]
        edges = self.store.edges_to(ids, BELIEF_RELATIONS)
        direct: dict[str, list[EdgeEvent]] = {i: [] for i in ids}
        derived_now: set[tuple[str, str, str]] = set()
        for e in edges:
            if revision.is_derived(e.reason):
                derived_now.add((e.src, e.dst, e.relation))
            else:
                direct[e.dst].append(_edge_event(e))
        derived: dict[str, list[EdgeEvent]] = {i: [] for i in ids}
        if self.policy.is_functional(predicate) and len(ids) > 1:
            for bid in ids:
                own = {ev.evidence_id for ev in direct[bid]}
                first = min((ev.timestamp for ev in direct[bid]), default=None)
                siblings = [
                    ev for other in ids if other != bid for ev in direct[other]
                    if ev.relation == SUPPORTS and ev.evidence_id not in own
                ]
                derived[bid] = revision.functional_refutations(first, _unique(siblings), predicate, self.policy.initial_confidence)
        wanted = {(ev.evidence_id, bid, REFUTES): ev for bid in ids for ev in derived[bid]}
        self.store.delete_edges(derived_now - set(wanted))
        for (src, dst, rel), ev in wanted.items():
            if (src, dst, rel) not in derived_now:
                self.store.put_edge(
                    Edge(src, dst, rel, weight=ev.weight, value=ev.value, valid_from=ev.timestamp, reason=ev.reason,
                         source_type=ev.source_type)
                )
        changes = []
        for row in rows:
            events = direct[row["id"]] + derived[row["id"]]
            history = revision.fold(events, self.policy.initial_confidence)
            if not history:  # nothing left that claims it (e.g. its evidence was forgotten)
                self.store.delete_edges_touching([row["id"]])
                self.store.delete_beliefs([row["id"]])
                changes.append(Change(row["id"], row["confidence"] if row["history"] else None, 0.0))
                continue
            old = row["confidence"] if row["history"] else None
            new_history = [h.__dict__ for h in history]
            if new_history != row["history"]:  # a refold that changed nothing writes nothing
                row.update(confidence=history[-1].new, last_updated=history[-1].at, history=new_history)
                self.store.upsert_belief(row)
                changes.append(Change(row["id"], old, history[-1].new))
        return changes

    def refold_user(self, user_id: str) -> None:
        """Rebuild every belief of a user from the stored claims (after an alias merge or
        undo, or a deletion). Ids are content hashes, so unchanged beliefs keep their ids."""
        with self.store.transaction():
            old = self.store.find_beliefs(user_id)
            status = {r["id"]: r["status"] for r in old}
            self.store.delete_edges_touching([r["id"] for r in old])
            self.store.delete_beliefs([r["id"] for r in old])
            slots = [self._link_claim(c) for c in self.store.claims_for_user(user_id)]
            self._recompute_slots(slots)
            for row in self.store.find_beliefs(user_id):  # lifecycle status survives a rebuild
                if status.get(row["id"], "active") != row["status"]:
                    row["status"] = status[row["id"]]
                    self.store.upsert_belief(row)

    # --- messages (claim extraction, then deterministic linking) ----------------------
    @property
    def extractor(self):
        """The configured claim extractor (policy [extractor]); offline unless one was passed."""
        if self._extractor is None:
            from .extract import Lexicon, OfflineExtractor

            lexicon_path = self.policy.section("extractor").get("lexicon")
            self._extractor = OfflineExtractor(Lexicon.load(lexicon_path) if lexicon_path else None)
        return self._extractor

    def add_message(self, text: str, *, user_id: str, timestamp: Any, **kwargs):
        """Store a chat message as evidence with the claims extracted from it, linked to
        beliefs. Returns a ``MessageResult``: claims, per-claim belief links (old -> new)."""
        return self.add_messages([dict(kwargs, text=text, user_id=user_id, timestamp=timestamp)])[0]

    def add_messages(self, messages: Sequence[dict]):
        """Batched ``add_message``: one embedding batch, one transaction for the evidence."""
        from .ingest import add_messages

        return add_messages(self, messages)

    # --- search ----------------------------------------------------------------------
    def search(self, query: str, *, include_archived: bool = False, **kwargs):
        """Resolved belief groups for a query; see ``bcg_rag.search.search``. With
        ``include_archived``, matching archived beliefs follow (as plain dicts, see
        ``lifecycle.search_archived``)."""
        from .search import search

        groups = search(self, query, **kwargs)
        if include_archived:
            groups += lifecycle.search_archived(
                self, query, user_id=kwargs["user_id"], top_k=kwargs.get("top_k", 5), agent_id=kwargs.get("agent_id")
            )
        return groups

    # --- lifecycle (rules in lifecycle.py) -----------------------------------------------
    def maintain(self, now: Any = None) -> dict:
        """Apply the policy's lifecycle rules (weak, invalidated, archived); idempotent."""
        return lifecycle.maintain(self, now)

    def archive(self, belief_id: str, **kw) -> list[str]:
        return lifecycle.archive(self, belief_id, **kw)

    def restore(self, belief_id: str, **kw) -> list[str]:
        return lifecycle.restore(self, belief_id, **kw)

    def archived_beliefs(self, user_id: str, **kw) -> list[dict]:
        return lifecycle.archived_beliefs(self, user_id, **kw)

    def review_queue(self, user_id: str | None = None, **kw) -> list[dict]:
        return lifecycle.review_queue(self, user_id, **kw)

    def review(self, belief_id: str, verdict: Any, reviewer: str, note: str | None = None, now: Any = None):
        """Record a person's verdict as human_review evidence; it flows through the same rules."""
        return lifecycle.review(self, belief_id, verdict, reviewer, note, now)

    def audit(self, user_id: str | None = None, action: str | None = None) -> list[dict]:
        return lifecycle.audit(self, user_id, action)

    def forget_user(self, user_id: str, **kw) -> dict:
        """Delete everything of a user from every store; the audit entry keeps no content."""
        return lifecycle.forget_user(self, user_id, **kw)

    def forget_evidence(self, evidence_id: str, **kw) -> None:
        """Delete one evidence and refold the beliefs it touched as if it had never been seen."""
        return lifecycle.forget_evidence(self, evidence_id, **kw)

    # --- entities and aliases --------------------------------------------------------
    def resolve_entity(self, user_id: str, name: str, create: bool = False) -> str | None:
        """The canonical entity id for a name as this user refers to it."""
        user_id = _require_user(user_id)
        key = normalise_key(name)
        if not key:
            raise InvalidInputError("entity name must not be empty")
        if key in FIRST_PERSON:
            key = normalise_key(user_id)
        entity_id = self.store.get_alias(user_id, key)
        if entity_id is None:
            if not create:
                return None
            entity_id = stable_id("ent", user_id, key)
            is_user = key == normalise_key(user_id)
            self.store.insert_node(
                "entity", dict(id=entity_id, user_id=user_id, name=user_id if is_user else name.strip(),
                               entity_type="user" if is_user else "thing", canonical_id=None)
            )
            self.store.set_alias(user_id, key, entity_id)
            return entity_id
        return self._canonical(entity_id)

    def _canonical(self, entity_id: str) -> str:
        seen = set()
        while entity_id not in seen:
            seen.add(entity_id)
            row = self.store.get_node("entity", entity_id)
            if row is None or not row["canonical_id"]:
                return entity_id
            entity_id = row["canonical_id"]
        return entity_id

    def entity(self, entity_id: str) -> dict:
        row = self.store.get_node("entity", entity_id)
        if row is None:
            raise NotFoundError(f"no entity {entity_id!r}")
        return dict(row, aliases=self.store.aliases_of(entity_id))

    def add_alias(self, user_id: str, alias: str, canonical: str, *, actor: str = "api") -> int | None:
        """Declare that ``alias`` names the same entity as ``canonical`` for this user.
        Logged; returns the merge id for ``undo_merge`` (None when already so)."""
        user_id = _require_user(user_id)
        with self.store.transaction():
            target = self.resolve_entity(user_id, canonical, create=True)
            key = normalise_key(alias)
            if not key:
                raise InvalidInputError("alias must not be empty")
            previous = self.store.get_alias(user_id, key)
            if previous is not None and self._canonical(previous) == target:
                return None
            self.store.set_alias(user_id, key, target)
            if previous is not None:
                self.store.set_canonical(previous, target)
            merge_id = self.store.append_audit(
                dict(at=self.clock(), action="alias_merge", target=target, user_id=user_id, actor=actor,
                     reason=f"{alias!r} -> {canonical!r}", detail=dict(alias=key, previous=previous, entity=target))
            )
            self.refold_user(user_id)
            return merge_id

    def undo_merge(self, merge_id: int, *, actor: str = "api") -> None:
        entries = [a for a in self.store.audit(action="alias_merge") if a["id"] == merge_id]
        if not entries:
            raise NotFoundError(f"no alias merge {merge_id}")
        entry = entries[0]
        if self.store.audit(action="alias_undo", target=str(merge_id)):
            return
        d = entry["detail"]
        with self.store.transaction():
            self.store.set_alias(entry["user_id"], d["alias"], d["previous"])
            if d["previous"] is not None:
                self.store.set_canonical(d["previous"], None)
            self.store.append_audit(
                dict(at=self.clock(), action="alias_undo", target=str(merge_id), user_id=entry["user_id"], actor=actor,
                     reason=f"undo merge {merge_id}", detail=dict(alias=d["alias"]))
            )
            self.refold_user(entry["user_id"])

    # --- reading -----------------------------------------------------------------------
    def beliefs(
        self,
        user_id: str | None = None,
        subject: str | None = None,
        predicate: str | None = None,
        context: str | None = None,
        as_of: Any = None,
        *,
        now: Any = None,
        global_read: bool = False,
    ) -> list[Belief]:
        """Beliefs of a user, strongest first, with decayed confidence and band at ``now``
        (or at ``as_of``, replayed from the evidence up to that time)."""
        if user_id is None and not global_read:
            raise MissingUserError("beliefs() needs a user_id (or global_read=True)")
        subject_id = None
        if subject is not None:
            if user_id is None:
                raise MissingUserError("a subject filter needs a user_id")
            subject_id = self.resolve_entity(user_id, subject)
            if subject_id is None:
                return []
        rows = self.store.find_beliefs(
            user_id, subject_id=subject_id, predicate=_clean_predicate(predicate) if predicate else None,
            context_key=self.context_group(context) if context else None,
        )
        as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
        now = parse_timestamp(now, "now") if now is not None else None
        out = [b for b in (self.view(r, as_of=as_of, now=now) for r in rows) if b is not None]
        out.sort(key=lambda b: (-b.effective_confidence, b.id))
        return out

    def view(self, row: dict, *, as_of: str | None = None, now: str | None = None) -> Belief | None:
        """A stored belief row as seen at a time: replayed to ``as_of``, decayed to ``now``."""
        history = [HistoryEntry(**h) for h in row["history"]]
        if as_of is not None:
            history = revision.history_at(history, as_of)
        if not history:
            return None
        at = as_of or now or self.clock()
        confidence = history[-1].new
        effective = revision.decay(confidence, history[-1].at, at, self.policy.half_life_days(row["predicate"]))
        subject = self.store.get_node("entity", row["subject_id"])
        return Belief(
            id=row["id"], user_id=row["user_id"], subject_id=row["subject_id"],
            subject=subject["name"] if subject else row["subject_id"], predicate=row["predicate"], value=row["value"],
            contexts=list(row["contexts"]), context_key=row["context_key"], confidence=confidence,
            last_updated=history[-1].at, history=history, status=row["status"], effective_confidence=effective,
            band=revision.band(effective, self.policy.bands),
        )

    def asserted(self, belief: Belief) -> bool:
        """Whether a belief may be stated as current: at or above the decision line (and the
        weak threshold, checked live so that weakness needs no maintain run to take effect),
        and not invalidated."""
        line = max(self.policy.decision_line, float(self.policy.section("lifecycle").get("weak_below", 0.0)))
        return belief.effective_confidence >= line and belief.status in ("active", "weak")

    def get_belief(self, belief_id: str, user_id: str | None = None) -> dict:
        row = self.store.get_node("belief", belief_id)
        if row is None or (user_id is not None and row["user_id"] != user_id):
            raise NotFoundError(f"no belief {belief_id!r}" + (f" for user {user_id!r}" if user_id else ""))
        return row

    def evidence(self, evidence_id: str, user_id: str | None = None) -> dict:
        row = self.store.get_node("evidence", evidence_id)
        if row is None or (user_id is not None and row["user_id"] != user_id):
            raise NotFoundError(f"no evidence {evidence_id!r}")
        return row

    def explain(
        self,
        belief_id: str,
        as_of: Any = None,
        *,
        now: Any = None,
        user_id: str | None = None,
        agent_id: str | None = None,
    ) -> Explanation:
        """Why a belief stands where it does: supporters, refuters, history, supersession.
        Pass ``user_id`` to enforce tenancy, ``agent_id`` to hide other agents' private texts."""
        row = self.get_belief(belief_id, user_id)
        as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
        now = parse_timestamp(now, "now") if now is not None else None
        belief = self.view(row, as_of=as_of, now=now)
        if belief is None:
            raise NotFoundError(f"belief {belief_id!r} did not exist as of {as_of}")
        edges = [e for e in self.store.edges_to([belief_id], BELIEF_RELATIONS) if as_of is None or e.valid_from <= as_of]
        counted = {h.evidence_id for h in belief.history}
        edges = [e for e in edges if e.src in counted]
        evidence = self.store.get_nodes("evidence", [e.src for e in edges])
        entries = sorted((self._evidence_entry(e, evidence[e.src], agent_id) for e in edges), key=lambda x: (x["timestamp"], x["evidence_id"]))
        slot = {
            r["id"]: r for r in self.store.slot_beliefs(row["user_id"], row["subject_id"], row["predicate"], row["context_key"])
        }
        superseded_by = []
        for e in edges:
            if revision.is_derived(e.reason):
                for s in self.store.edges_from([e.src], [SUPPORTS]):
                    if s.dst in slot and s.dst != belief_id:
                        superseded_by.append(dict(belief_id=s.dst, value=slot[s.dst]["value"], evidence_id=e.src, at=e.valid_from))
        supersedes = []
        supporters = [e.src for e in edges if e.relation == SUPPORTS]
        for r in self.store.edges_from(supporters, [REFUTES]):
            if revision.is_derived(r.reason) and r.dst in slot and (as_of is None or r.valid_from <= as_of):
                supersedes.append(dict(belief_id=r.dst, value=slot[r.dst]["value"], evidence_id=r.src, at=r.valid_from))
        belief_dict = dict(
            id=belief.id, user_id=belief.user_id, subject=belief.subject, subject_id=belief.subject_id,
            predicate=belief.predicate, value=belief.value, contexts=belief.contexts, status=belief.status,
            last_updated=belief.last_updated,
        )
        return Explanation(
            belief=belief_dict, confidence=belief.confidence, effective_confidence=belief.effective_confidence,
            band=belief.band, asserted=self.asserted(belief),
            supporters=[x for x in entries if x["relation"] == SUPPORTS],
            refuters=[x for x in entries if x["relation"] == REFUTES],
            history=[h.__dict__ for h in belief.history], superseded_by=superseded_by, supersedes=supersedes,
            as_of=as_of, now=now or (None if as_of else self.clock()),
        )

    @staticmethod
    def _evidence_entry(edge: Edge, ev: dict, agent_id: str | None) -> dict:
        hidden = ev["private"] and agent_id is not None and ev["agent_id"] != agent_id
        return dict(
            evidence_id=ev["id"], text=HIDDEN_TEXT if hidden else ev["text"], source=ev["source"],
            source_type=ev["source_type"], timestamp=ev["timestamp"], weight=edge.weight, value=edge.value,
            context=ev["context"], relation=edge.relation, reason=edge.reason or DIRECT, agent_id=ev["agent_id"],
            private=ev["private"],
        )

    # --- health --------------------------------------------------------------------------
    def validate(self) -> list[str]:
        """Every inconsistency we can find; empty when the memory is healthy."""
        problems: list[str] = []
        s = self.store
        dangling = s.execute(
            "SELECT src, dst, relation FROM edge WHERE"
            " (relation IN ('SUPPORTS','REFUTES') AND (src NOT IN (SELECT id FROM evidence) OR dst NOT IN (SELECT id FROM belief)))"
            " OR (relation = 'BELONGS_TO' AND (src NOT IN (SELECT id FROM belief) OR dst NOT IN (SELECT id FROM entity)))"
            " OR (relation = 'OCCURRED_IN' AND (src NOT IN (SELECT id FROM evidence) OR dst NOT IN (SELECT id FROM event)))"
            " OR (relation = 'CONTEXT_OF' AND dst NOT IN (SELECT id FROM context))"
        )
        problems += [f"dangling {r['relation']} edge {r['src']} -> {r['dst']}" for r in dangling]
        for r in s.execute("SELECT id FROM evidence WHERE id NOT IN (SELECT src FROM edge WHERE relation = 'OCCURRED_IN')"):
            problems.append(f"evidence {r['id']} has no OCCURRED_IN event")
        for r in s.execute("SELECT id FROM belief WHERE id NOT IN (SELECT src FROM edge WHERE relation = 'BELONGS_TO')"):
            problems.append(f"belief {r['id']} has no BELONGS_TO entity")
        for r in s.execute(
            "SELECT evidence_id, idx FROM claim WHERE evidence_id NOT IN (SELECT id FROM evidence)"
        ):
            problems.append(f"claim {r['evidence_id']}#{r['idx']} has no evidence")
        for r in s.execute("SELECT id, text FROM evidence"):
            if not r["text"].strip():
                problems.append(f"evidence {r['id']} has empty text")
        for row in s.all_rows("belief"):
            events = [_edge_event(e) for e in s.edges_to([row["id"]], BELIEF_RELATIONS)]
            history = [h.__dict__ for h in revision.fold(events, self.policy.initial_confidence)]
            if not history:
                problems.append(f"belief {row['id']} has no evidence")
            elif _differs(history, row["history"]) or abs(history[-1]["new"] - row["confidence"]) > 1e-9:
                problems.append(
                    f"belief {row['id']} stored confidence {row['confidence']:+.4f} does not match its evidence"
                    f" ({history[-1]['new']:+.4f})"
                )
        if self.index is not None:
            problems += self.index.problems(self)
        problems += lifecycle.cold_problems(self)
        return problems

    # --- export --------------------------------------------------------------------------
    def to_networkx(self, user_id: str | None = None) -> nx.MultiDiGraph:
        """The belief context graph (or one user's part of it) as a networkx MultiDiGraph."""
        g = nx.MultiDiGraph()
        kinds = ("entity", "event", "context", "evidence", "belief")
        for kind in kinds:
            for row in self.store.all_rows(kind):
                if user_id is not None and "user_id" in row and row["user_id"] != user_id:
                    continue
                attrs = {k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v) for k, v in row.items() if k != "id"}
                g.add_node(row["id"], kind=kind, **{k: v for k, v in attrs.items() if v is not None})
        for e in self.store.all_edges():
            if e.src in g and e.dst in g:
                attrs = {k: v for k, v in e.__dict__.items() if k not in ("src", "dst") and v is not None}
                g.add_edge(e.src, e.dst, key=e.relation, **attrs)
        if user_id is not None:  # contexts and events only where this user's nodes touch them
            g.remove_nodes_from([n for n, d in list(g.nodes(data=True)) if d["kind"] in ("context", "event") and g.degree(n) == 0])
        return g


# --- helpers ---------------------------------------------------------------------------------
def _default_index(policy: Policy, path: Path | None):
    from .index import EvidenceIndex

    return EvidenceIndex.from_policy(policy, path)


def _require_user(user_id: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip():
        raise MissingUserError(f"a non-empty user_id is required, got {user_id!r}")
    return user_id


def _check_context(context: Any) -> str | None:
    if context is None:
        return None
    if not isinstance(context, str) or not context.strip():
        raise InvalidInputError(f"context must be a non-empty string like 'topic:coffee', got {context!r}")
    return context.strip()


def _clean_predicate(predicate: str) -> str:
    return " ".join(predicate.split())


def _as_claim(c: Claim | dict) -> Claim:
    if isinstance(c, Claim):
        return c
    if isinstance(c, dict):
        try:
            return Claim(**c)
        except TypeError as exc:
            raise InvalidInputError(f"bad claim {c!r}: {exc}") from None
    raise InvalidInputError(f"a claim must be a Claim or a dict, got {type(c).__name__}")


def _claims_of(p: _Prepared) -> list[Claim]:
    return [
        Claim(r["subject"], r["predicate"], r["value"], r["stance"], r["source_type"], r["context"]) for r in p.claims
    ]


def _edge_event(e: Edge) -> EdgeEvent:
    return EdgeEvent(e.src, e.valid_from, e.relation, e.value, e.weight, e.source_type or "user_explicit", e.reason or DIRECT)


def _unique(events: list[EdgeEvent]) -> list[EdgeEvent]:
    return list({ev.evidence_id: ev for ev in sorted(events, key=lambda e: e.sort_key)}.values())


def _differs(a: list[dict], b: list[dict]) -> bool:
    if len(a) != len(b):
        return True
    return any(abs(x["new"] - y["new"]) > 1e-9 or x["evidence_id"] != y["evidence_id"] for x, y in zip(a, b))
