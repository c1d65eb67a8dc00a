"""The write path, no LLM on it: validate everything, embed new evidence texts in one
batch, then in one transaction store the evidence (append-only), its claims and the
edges to the beliefs they touch, and refold those beliefs (``refold.py``: new evidence
folds on from the stored state, from its own event time on). The
vector index is written after the commit; a crash in between is repaired when the
memory opens (``index.EvidenceIndex.repair``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from . import revision
from .checks import (
    FIRST_PERSON, Limits, as_claim, check_agent, check_bool, check_claim_size, check_context, check_id, check_items,
    check_not_future, check_optional_text, check_text, clean_predicate, require_user,
)
from .errors import (
    EmptyTextError, InputTooLargeError, InvalidInputError, InvalidWeightError, NotFoundError, UnknownSourceTypeError,
)
from .ids import clean_value, normalise_key, stable_id, text_hash
from .models import BELONGS_TO, CONTEXT_OF, OCCURRED_IN, Change, Claim, Edge, ObserveResult, check_unit
from .refold import BELIEF_RELATIONS, recompute_slot, recompute_slots  # noqa: F401 (callers use writing.*)
from .revision import DIRECT
from .store import slot_locks
from .timeutil import days_after, days_between, parse_timestamp

if TYPE_CHECKING:
    from .memory import BeliefMemory

# A claim's origin (claim table) and the reason of the edge it becomes.
CALLER = "caller"
CALLER_ADDITIVE = "caller:additive"
_REASON = {CALLER: DIRECT, CALLER_ADDITIVE: revision.ADDITIVE}


@dataclass
class Prepared:
    """One validated observation, ready to write."""

    evidence: dict
    claims: list[dict]
    event: dict
    contexts: list[str]


def observe_many(memory: "BeliefMemory", items: Sequence[dict]) -> list[ObserveResult]:
    """Record many observations: one validation pass, one embedding batch, one transaction.

    Each item takes ``observe``'s keyword arguments: text, user_id, timestamp, source,
    source_type, context, claim / claims, weight, agent_id, event_id, private.
    Any invalid item raises before anything is written.
    """
    prepared = prepare_all(memory, items)
    ids = [p.evidence["id"] for p in prepared]
    existing = set(memory.store.get_nodes("evidence", ids))
    fresh: dict[str, Prepared] = {}
    for p in prepared:
        if p.evidence["id"] not in existing:
            fresh.setdefault(p.evidence["id"], p)
    vectors, claim_vectors, pending = None, {}, None
    if memory.index is not None and fresh:
        # A short sentence per claim of the messages that make several claims (see
        # claim_text) is written with the claims, so it is embedded first; the evidence
        # texts are embedded while the store is written (``embedding``), and taken before
        # the commit, so an embedding that fails writes nothing.
        phrases = sorted({claim_text(c) for p in fresh.values() if len(p.claims) > 1 for c in p.claims})
        claim_vectors = dict(zip(phrases, memory.embed(phrases))) if phrases else {}
        pending = memory.embeddings.ahead([p.evidence["text"] for p in fresh.values()])

    def write_all() -> list[ObserveResult]:  # run again from scratch if a server backend retries it
        nonlocal vectors
        results: list[ObserveResult] = []
        written: set[str] = set()
        for p in prepared:
            eid = p.evidence["id"]
            if eid in existing or eid in written:
                results.append(ObserveResult(eid, True, [], claims_of(p)))
                continue
            written.add(eid)
            changes = write(memory, p, claim_vectors)
            results.append(ObserveResult(eid, False, changes, claims_of(p)))
        if pending is not None:
            vectors = pending.result()
        return results

    # The slots it refolds: writers of other slots run beside it (store.py, "Concurrency").
    locks = slot_locks(memory, (c for p in fresh.values() for c in p.claims))
    results = memory.store.run(write_all, locks=locks)
    if memory.index is not None and fresh:
        memory.index.upsert([p.evidence for p in fresh.values()], vectors)
    _report_stored_claims(memory, results)
    return results


def _report_stored_claims(memory: "BeliefMemory", results: list[ObserveResult]) -> None:
    """A duplicate reports the claims its evidence was stored with, not those passed this
    time: a repeated observe with other claims records nothing, so it must not say it did
    (claims are attached to stored evidence with ``add_claims``)."""
    dups = {r.evidence_id for r in results if r.duplicate}
    if not dups:
        return
    stored: dict[str, list[Claim]] = {}
    said = memory.store.get_nodes("evidence", sorted(dups))
    for c in memory.store.claims_for_evidence(sorted(dups)):
        if c["origin"] in (CALLER, CALLER_ADDITIVE):
            stored.setdefault(c["evidence_id"], []).append(claim_of_row(c, said[c["evidence_id"]]["timestamp"]))
    for r in results:
        if r.duplicate:
            r.claims = stored.get(r.evidence_id, [])


OBSERVE_KEYS = frozenset({
    "text", "user_id", "timestamp", "source", "source_type", "context", "claim", "claims", "weight", "agent_id",
    "event_id", "event_type", "private",
})


def prepare_all(memory: "BeliefMemory", items: Any, extra_keys: frozenset = frozenset()) -> list[Prepared]:
    """Validate a batch of ``observe`` keyword dicts (every item, before anything is
    written): a list of dicts with known keys, within the policy's ``[limits]``."""
    items = check_items(items, "the batch", Limits.of(memory).max_batch_items)
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidInputError(f"batch item {i} must be a dict of observe() arguments, got {type(item).__name__}")
        unknown = set(item) - OBSERVE_KEYS - extra_keys
        if unknown:
            raise InvalidInputError(f"batch item {i}: unknown arguments {sorted(map(str, unknown))}; "
                                    f"known: {sorted(OBSERVE_KEYS | extra_keys)}")
        out.append(prepare(memory, **{k: v for k, v in item.items() if k not in extra_keys}))
    return out


def prepare(memory: "BeliefMemory", text: str | None = None,
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
) -> Prepared:
    """One observation checked and shaped for ``write``: every check raises a typed error,
    sizes first (the policy's ``[limits]``), so an oversized input costs nothing."""
    limits = Limits.of(memory)
    text = check_text(text, "evidence text", limits.max_message_chars, error=EmptyTextError)
    user_id = require_user(user_id)
    check_text(user_id, "user_id", limits.max_field_chars)
    ts = check_not_future(memory, parse_timestamp(timestamp))
    if not isinstance(source_type, str):
        raise UnknownSourceTypeError(f"source_type must be one of {memory.policy.source_types}, got {source_type!r:.80}")
    memory.policy.weight(source_type)  # unknown source types fail here, before any write
    if weight is not None:
        weight = check_unit(weight, "weight", 0.0, 1.0, InvalidWeightError)
    context = check_context(context)
    if context is not None:
        check_text(context, "context", limits.max_field_chars)
    agent_id = check_agent(agent_id)
    if agent_id is not None:
        check_text(agent_id, "agent_id", limits.max_field_chars)
    source = check_optional_text(source, "source", limits.max_field_chars) or f"api:{ts}"
    event_id = check_optional_text(event_id, "event_id", limits.max_field_chars)
    event_type = check_optional_text(event_type, "event_type", limits.max_field_chars)
    private = check_bool(private, "private")
    if claims is not None:
        claims = check_items(claims, "claims")
    all_claims = ([claim] if claim is not None else []) + list(claims or [])
    if len(all_claims) > limits.max_claims_per_message:
        raise InputTooLargeError(
            f"{len(all_claims)} claims for one evidence; the limit is {limits.max_claims_per_message}"
            " ([limits] max_claims_per_message)"
        )
    evidence_id = stable_id("ev", user_id, source, ts, text_hash(text))
    claim_rows = []
    contexts = [context] if context else []
    for idx, c in enumerate(all_claims):
        c = check_claim_size(as_claim(c), limits)
        c_type = c.source_type or source_type
        c_weight = weight if weight is not None else memory.policy.weight(c_type)
        c_context = check_context(c.context) if c.context else context
        if c_context and c_context not in contexts:
            contexts.append(c_context)
        claim_rows.append(
            dict(
                evidence_id=evidence_id, idx=idx, user_id=user_id, subject=c.subject.strip(),
                predicate=clean_predicate(c.predicate), value=clean_value(c.value), stance=c.stance,
                weight=c_weight, source_type=c_type, context=c_context, timestamp=days_after(ts, c.starts_in_days), origin=CALLER_ADDITIVE if c.additive else CALLER,
            )
        )
    event_id = event_id or stable_id("evt", user_id, source)
    event = dict(id=event_id, event_type=event_type or (source.split(":", 1)[0] if ":" in source else "observation"), timestamp=ts)
    evidence = dict(
        id=evidence_id, text=text, source=source, source_type=source_type, timestamp=ts, event_id=event_id,
        user_id=user_id, agent_id=agent_id, embedding_key=evidence_id, context=context, private=private,
    )
    return Prepared(evidence, claim_rows, event, contexts)


def write(memory: "BeliefMemory", p: Prepared, claim_vectors: dict[str, list[float]] | None = None) -> list[Change]:
    ev = p.evidence
    memory.store.insert_node("event", p.event)
    for ctx in p.contexts:
        ensure_context(memory, ctx)
    memory.store.insert_node("evidence", ev)
    edges = [Edge(ev["id"], p.event["id"], OCCURRED_IN)]
    if ev["context"]:
        edges.append(Edge(ev["id"], ev["context"], CONTEXT_OF))
    slots = []
    per_belief: dict[str, list[float]] = {}
    for row in p.claims:
        memory.store.insert_claim(row)
        slot = link_claim(memory, row, edges)
        slots.append(slot)
        if claim_vectors and claim_text(row) in claim_vectors:
            per_belief.setdefault(belief_id(slot, row["value"]), claim_vectors[claim_text(row)])
    if len(per_belief) > 1:  # relevance per claim, not per message (search.py)
        memory.store.put_claim_vectors((ev["id"], bid, ev["user_id"], v) for bid, v in sorted(per_belief.items()))
    memory.store.put_edges(edges)  # the refold reads them
    return recompute_slots(memory, slots, since=ev["timestamp"])  # only evidence dated then was added


def belief_id(slot: tuple[str, str, str, str], value: str) -> str:
    """The belief a claim of ``value`` in ``slot`` (user, subject id, predicate, context group) links to."""
    user_id, subject_id, predicate, context_key = slot
    return stable_id("bel", user_id, subject_id, predicate, normalise_key(value), context_key)


def claim_text(c: dict) -> str:
    """A claim as a short sentence to embed ("the user lives in Dallas", "Marcus works at
    Oracle"): a message's vector stands for all its claims at once, so "what does my mom
    do?" would rank her city as high as her job; these phrases tell its claims apart."""
    own = c["subject"] == c["user_id"] or normalise_key(c["subject"]) in FIRST_PERSON
    subject = "the user" if own else c["subject"].replace(f"{c['user_id']}'s ", "the user's ")
    predicate = c["predicate"].replace("plan:", "plans to ").replace("attr:", "").replace("_", " ")
    negated = " not" if c["stance"] < 0 else ""
    return f"{subject}{negated} {predicate} {c['value']}"


def add_claims(memory: "BeliefMemory", evidence_id: str, claims: Sequence[Claim], origin: str = "linker") -> list[Change]:
    """Attach claims found later (e.g. by a restatement rule) to stored evidence.
    The evidence itself is never changed; its claim list only grows."""
    evidence_id = check_id(evidence_id, "evidence_id")
    origin = check_text(origin, "origin", 100)
    limits = Limits.of(memory)
    claims = [check_claim_size(as_claim(c), limits) for c in check_items(claims, "claims", limits.max_claims_per_message)]
    ev = memory.store.get_node("evidence", evidence_id)
    if ev is None:
        raise NotFoundError(f"no evidence {evidence_id!r}")
    for c in claims:  # unknown source types fail before the transaction
        memory.policy.weight(c.source_type or ev["source_type"])
    with memory.store.transaction():
        idx = memory.store.next_claim_idx(evidence_id)
        slots, edges = [], []
        for i, c in enumerate(claims):
            c = as_claim(c)
            c_type = c.source_type or ev["source_type"]
            row = dict(
                evidence_id=evidence_id, idx=idx + i, user_id=ev["user_id"], subject=c.subject.strip(),
                predicate=clean_predicate(c.predicate), value=clean_value(c.value), stance=c.stance,
                weight=memory.policy.weight(c_type), source_type=c_type, context=c.context or ev["context"],
                timestamp=days_after(ev["timestamp"], c.starts_in_days), origin=origin,
            )
            if row["context"]:
                ensure_context(memory, row["context"])
            memory.store.insert_claim(row)
            slots.append(link_claim(memory, row, edges))
        memory.store.put_edges(edges)
        return recompute_slots(memory, slots, since=ev["timestamp"])


def add_claims_once(memory: "BeliefMemory", evidence_id: str, claims: Sequence[Claim], origin: str) -> list[Change]:
    """``add_claims`` for rules that may fire again for the same pair, or say what the
    extractor said already: a claim on a (subject, predicate, value) the evidence already
    speaks to is skipped."""
    have = {(c["subject"], c["predicate"], normalise_key(c["value"])) for c in memory.store.claims_for_evidence([evidence_id])}
    fresh = [c for c in claims if (c.subject, c.predicate, normalise_key(c.value)) not in have]
    return memory.add_claims(evidence_id, fresh, origin=origin) if fresh else []


def ensure_context(memory: "BeliefMemory", ctx: str) -> None:
    ctype, _, cvalue = ctx.partition(":") if ":" in ctx else ("context", "", ctx)
    parent = memory.policy.context_parent(ctx)
    if parent:
        ensure_context(memory, parent)
    memory.store.insert_node("context", dict(id=ctx, context_type=ctype, context_value=cvalue, parent=parent))


def link_claim(memory: "BeliefMemory", c: dict, edges: list[Edge]) -> tuple[str, str, str, str]:
    """Link a stored claim to its belief (created if new): the belief's row is written, the
    edges it needs are appended to ``edges``, for the caller to write in one go before the
    slot is refolded (nothing in between reads edges). Returns the slot."""
    user_id = c["user_id"]
    subject_id = memory.resolve_entity(user_id, c["subject"], create=True)
    context_key = memory.context_group(c["context"])
    bid = belief_id((user_id, subject_id, c["predicate"], context_key), c["value"])
    row = memory.store.get_node("belief", bid, history=False)  # the refold writes the history
    if row is None:
        row = dict(
            id=bid, user_id=user_id, subject_id=subject_id, predicate=c["predicate"], value=c["value"],
            context_key=context_key, contexts=[], confidence=0.0, last_updated=c["timestamp"], status="active",
        )
        edges.append(Edge(bid, subject_id, BELONGS_TO))
        changed = True
    else:
        changed = False
    if c["value"] != row["value"]:
        # Spellings of one value ("Product Designer", "product designer"): the smallest is kept,
        # so that the belief reads the same whatever order its claims arrived in.
        changed |= c["value"] < row["value"]
        row["value"] = min(row["value"], c["value"])
    if c["context"] and c["context"] not in row["contexts"]:
        row["contexts"] = sorted(row["contexts"] + [c["context"]])
        edges.append(Edge(bid, c["context"], CONTEXT_OF))
        changed = True
    if changed:  # a restatement leaves the row as stored: writing it again would change nothing
        memory.store.upsert_belief(row)
    edges.append(
        Edge(
            c["evidence_id"], bid, revision.relation_for(c["stance"]), weight=c["weight"], value=c["stance"],
            valid_from=c["timestamp"], reason=_REASON.get(c["origin"], c["origin"]),
            source_type=c["source_type"],
        )
    )
    return (user_id, subject_id, c["predicate"], context_key)


def refold_user(memory: "BeliefMemory", user_id: str) -> None:
    """Rebuild every belief of a user from the stored claims (after an alias merge or
    undo, or a deletion). Ids are content hashes, so unchanged beliefs keep their ids."""
    user_id = require_user(user_id)
    with memory.store.transaction():
        old = memory.store.find_beliefs(user_id, history=False)
        status = {r["id"]: r["status"] for r in old}
        memory.store.delete_edges_touching([r["id"] for r in old])
        memory.store.delete_beliefs([r["id"] for r in old])
        edges: list[Edge] = []
        slots = [link_claim(memory, c, edges) for c in memory.store.claims_for_user(user_id)]
        memory.store.put_edges(edges)
        recompute_slots(memory, slots)
        for row in memory.store.find_beliefs(user_id, history=False):  # lifecycle status survives a rebuild
            if status.get(row["id"], "active") != row["status"]:
                row["status"] = status[row["id"]]
                memory.store.upsert_belief(row)


def claims_of(p: Prepared) -> list[Claim]:
    return [claim_of_row(r, p.evidence["timestamp"]) for r in p.claims]


def claim_of_row(row: dict, said_at: str) -> Claim:
    """A stored claim row as the caller's ``Claim``: a row dated after its evidence was
    said is a claim that falls due that many days later."""
    return Claim(row["subject"], row["predicate"], row["value"], row["stance"], row["source_type"], row["context"],
                 row["origin"] == CALLER_ADDITIVE, starts_in_days=round(days_between(said_at, row["timestamp"])))


def check_messages(memory: "BeliefMemory", messages: Any) -> list[dict]:
    """``add_messages`` input checked before any extraction: every message as ``prepare``
    checks it (sizes first, so a 1 MB message is refused at once), plus its ``speaker``."""
    messages = check_items(messages, "messages", Limits.of(memory).max_batch_items)
    prepare_all(memory, messages, extra_keys=frozenset({"speaker"}))
    for m in messages:
        if "speaker" in m:
            check_text(m["speaker"], "speaker", 100)
    return messages
