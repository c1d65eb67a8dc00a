"""Reading beliefs: a stored row as seen at a time (replayed to ``as_of``, decayed to
``now``), whether it may be stated as current, and why (``explain``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from . import revision
from .checks import check_agent, check_context, check_id, check_text, clean_predicate, require_user
from .errors import InvalidInputError, MissingUserError, NotFoundError
from .models import HIDDEN_TEXT, REFUTES, SUPPORTS, Belief, Edge, HistoryEntry
from .revision import DIRECT
from .timeutil import parse_timestamp

if TYPE_CHECKING:
    from .memory import BeliefMemory

BELIEF_RELATIONS = (SUPPORTS, REFUTES)


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


def beliefs(memory: "BeliefMemory", user_id: str | None = None,
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
    user_id = _scope(user_id, global_read, "beliefs()")
    subject_id = None
    if subject is not None:
        if user_id is None:
            raise MissingUserError("a subject filter needs a user_id")
        subject_id = memory.resolve_entity(user_id, check_text(subject, "subject"))
        if subject_id is None:
            return []
    context = check_context(context)
    rows = memory.store.find_beliefs(
        user_id, subject_id=subject_id, predicate=clean_predicate(predicate) if predicate is not None else None,
        context_key=memory.context_group(context) if context else None,
    )
    as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
    now = parse_timestamp(now, "now") if now is not None else None
    out = [b for b in (memory.view(r, as_of=as_of, now=now) for r in rows) if b is not None]
    out.sort(key=lambda b: (-b.effective_confidence, b.id))
    return out


def _scope(user_id: Any, global_read: Any, what: str) -> str | None:
    """The user a read is scoped to; None only with ``global_read=True`` (operator tools).
    Tenancy is not opt-in: reads by id need the user too, or any id would open any
    user's data."""
    if not isinstance(global_read, bool):
        raise InvalidInputError(f"global_read must be True or False, got {global_read!r:.80}")
    if user_id is None:
        if not global_read:
            raise MissingUserError(f"{what} needs user_id= (or global_read=True for operator tools)")
        return None
    return require_user(user_id)


def view(memory: "BeliefMemory", row: dict, *, as_of: str | None = None, now: str | None = None,
         entity: Callable[[str], dict | None] | None = None) -> Belief | None:
    """A stored belief row as seen at a time: replayed to ``as_of`` (or to ``now``, where it
    holds a change not yet due at ``now``), decayed to ``now``. ``entity``: how to read the
    subject's row (a search's ``SearchReads.entity``: a slot's values share one); the store's
    ``get_node`` by default."""
    history = [HistoryEntry(**h) for h in row["history"]]
    at = as_of or now or memory.clock()
    if as_of is not None or _not_yet_due(memory, history, at):
        history = revision.history_at(history, at)
    if not history:
        return None
    confidence = history[-1].new
    confirmed = revision.last_confirmed(history)
    effective = revision.decay(confidence, confirmed, at, memory.policy.half_life_days(row["predicate"]))
    subject = entity(row["subject_id"]) if entity else memory.store.get_node("entity", row["subject_id"])
    return Belief(
        id=row["id"], user_id=row["user_id"], subject_id=row["subject_id"],
        subject=subject["name"] if subject else row["subject_id"], predicate=row["predicate"], value=row["value"],
        contexts=list(row["contexts"]), context_key=row["context_key"], confidence=confidence,
        last_updated=confirmed, history=history, status=row["status"], effective_confidence=effective,
        band=revision.band(effective, memory.policy.bands),
    )


def _not_yet_due(memory: "BeliefMemory", history: list[HistoryEntry], now: str) -> bool:
    """Whether the history holds a change dated after ``now`` by evidence said by then: a
    claim not yet due (``Claim.starts_in_days``), which counts from its date only. Evidence
    said after ``now`` (a caller's ``now`` before its own data) is left as it was."""
    later = {h.evidence_id for h in history if h.at > now}
    if not later:
        return False
    said = memory.store.get_nodes("evidence", sorted(later), history=False)
    return any(ev["timestamp"] <= now for ev in said.values())


def asserted(memory: "BeliefMemory", belief: Belief) -> bool:
    """Whether a belief may be stated as current. Evidence decides, not age: its stored
    confidence (the fold of its evidence, replayed to ``as_of`` when given) is at or
    above the decision line, and it is not invalidated. Age only lowers the band (how
    to state it) and the rank: a long-term memory still knows what it was told last
    year and says how old that is."""
    return belief.confidence >= memory.policy.decision_line and belief.status in ("active", "weak")


def get_belief(memory: "BeliefMemory", belief_id: str, user_id: str | None = None, *,
               global_read: bool = False) -> dict:
    """One stored belief row of ``user_id`` (required, unless ``global_read``)."""
    user_id = _scope(user_id, global_read, "get_belief()")
    return belief_row(memory, check_id(belief_id, "belief_id"), user_id)


def belief_row(memory: "BeliefMemory", belief_id: str, user_id: str | None) -> dict:
    """The internal read behind get_belief: ``user_id=None`` means any user."""
    row = memory.store.get_node("belief", belief_id)
    if row is None or (user_id is not None and row["user_id"] != user_id):
        raise NotFoundError(f"no belief {belief_id!r}" + (f" for user {user_id!r}" if user_id else ""))
    return row


def evidence(memory: "BeliefMemory", evidence_id: str, user_id: str | None = None, *,
             global_read: bool = False, agent_id: str | None = None) -> dict:
    """One stored evidence row of ``user_id`` (required, unless ``global_read``); with
    ``agent_id``, another agent's private text is replaced by ``HIDDEN_TEXT``."""
    user_id = _scope(user_id, global_read, "evidence()")
    evidence_id = check_id(evidence_id, "evidence_id")
    agent_id = check_agent(agent_id)
    row = memory.store.get_node("evidence", evidence_id)
    if row is None or (user_id is not None and row["user_id"] != user_id):
        raise NotFoundError(f"no evidence {evidence_id!r}" + (f" for user {user_id!r}" if user_id else ""))
    if _hidden(row, agent_id):
        row = dict(row, text=HIDDEN_TEXT)
    return row


def _hidden(ev: dict, agent_id: str | None) -> bool:
    """Whether ``agent_id`` may not read this evidence (another agent's private evidence)."""
    return bool(ev["private"]) and agent_id is not None and ev["agent_id"] != agent_id


def hidden_values(entries: dict[str, list[dict]], agent_id: str | None) -> set[str]:
    """The beliefs whose value ``agent_id`` may not see: every evidence that claims them
    (their direct edges; derived refutations only follow from other values) is another
    agent's private evidence. ``entries``: belief id -> evidence entries (``evidence_entry``)."""
    if agent_id is None:
        return set()
    out = set()
    for bid, items in entries.items():
        direct = [e for e in items if not revision.is_derived(e["reason"])]
        if direct and all(e["private"] and e["agent_id"] != agent_id for e in direct):
            out.add(bid)
    return out


def value_hidden_for(memory: "BeliefMemory", belief_ids: list[str], agent_id: str | None) -> set[str]:
    """``hidden_values`` for beliefs by id (all their direct edges)."""
    if agent_id is None or not belief_ids:
        return set()
    edges = [e for e in memory.store.edges_to(belief_ids, BELIEF_RELATIONS) if not revision.is_derived(e.reason)]
    evidence = memory.store.get_nodes("evidence", [e.src for e in edges])
    entries: dict[str, list[dict]] = {b: [] for b in belief_ids}
    for e in edges:
        if e.src in evidence:
            entries[e.dst].append(evidence_entry(e, evidence[e.src], agent_id))
    return hidden_values(entries, agent_id)


def explain(memory: "BeliefMemory", belief_id: str,
    as_of: Any = None,
    *,
    now: Any = None,
    user_id: str | None = None,
    agent_id: str | None = None,
    global_read: bool = False,
) -> Explanation:
    """Why a belief stands where it does: supporters, refuters, history, supersession.
    ``user_id`` is required (tenancy), unless ``global_read=True``; with ``agent_id``,
    other agents' private texts are hidden, and so is the value of a belief that only
    other agents' private evidence claims."""
    user_id = _scope(user_id, global_read, "explain()")
    agent_id = check_agent(agent_id)
    row = belief_row(memory, check_id(belief_id, "belief_id"), user_id)
    as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
    now = parse_timestamp(now, "now") if now is not None else None
    belief = memory.view(row, as_of=as_of, now=now)
    if belief is None:
        raise NotFoundError(f"belief {belief_id!r} did not exist as of {as_of}")
    edges = [e for e in memory.store.edges_to([belief_id], BELIEF_RELATIONS) if as_of is None or e.valid_from <= as_of]
    counted = {h.evidence_id for h in belief.history}
    edges = [e for e in edges if e.src in counted]
    evidence = memory.store.get_nodes("evidence", [e.src for e in edges])
    entries = sorted((evidence_entry(e, evidence[e.src], agent_id) for e in edges if e.src in evidence),  # a concurrent forget
                     key=lambda x: (x["timestamp"], x["evidence_id"]))
    slot = {
        r["id"]: r for r in memory.store.slot_beliefs(row["user_id"], row["subject_id"], row["predicate"], row["context_key"])
    }
    superseded_by = []
    for e in edges:
        if revision.is_derived(e.reason):
            for s in memory.store.edges_from([e.src], [SUPPORTS]):
                if s.dst in slot and s.dst != belief_id:
                    superseded_by.append(dict(belief_id=s.dst, value=slot[s.dst]["value"], evidence_id=e.src, at=e.valid_from))
    supersedes = []
    supporters = [e.src for e in edges if e.relation == SUPPORTS]
    for r in memory.store.edges_from(supporters, [REFUTES]):
        if revision.is_derived(r.reason) and r.dst in slot and (as_of is None or r.valid_from <= as_of):
            supersedes.append(dict(belief_id=r.dst, value=slot[r.dst]["value"], evidence_id=r.src, at=r.valid_from))
    hidden = value_hidden_for(memory, [belief_id] + [s["belief_id"] for s in superseded_by + supersedes], agent_id)
    for s in superseded_by + supersedes:
        if s["belief_id"] in hidden:
            s["value"] = HIDDEN_TEXT
    belief_dict = dict(
        id=belief.id, user_id=belief.user_id, subject=belief.subject, subject_id=belief.subject_id,
        predicate=belief.predicate, value=HIDDEN_TEXT if belief_id in hidden else belief.value,
        contexts=belief.contexts, status=belief.status, last_updated=belief.last_updated,
    )
    return Explanation(
        belief=belief_dict, confidence=belief.confidence, effective_confidence=belief.effective_confidence,
        band=belief.band, asserted=memory.asserted(belief),
        supporters=[x for x in entries if x["relation"] == SUPPORTS],
        refuters=[x for x in entries if x["relation"] == REFUTES],
        history=[h.__dict__ for h in belief.history], superseded_by=superseded_by, supersedes=supersedes,
        as_of=as_of, now=now or (None if as_of else memory.clock()),
    )


def evidence_entry(edge: Edge, ev: dict, agent_id: str | None) -> dict:
    return dict(
        evidence_id=ev["id"], text=HIDDEN_TEXT if _hidden(ev, agent_id) else ev["text"], source=ev["source"],
        source_type=ev["source_type"], timestamp=ev["timestamp"], weight=edge.weight, value=edge.value,
        context=ev["context"], relation=edge.relation, reason=edge.reason or DIRECT, agent_id=ev["agent_id"],
        private=ev["private"],
    )
