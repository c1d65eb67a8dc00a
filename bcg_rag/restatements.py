"""The generic restatement rule: a statement that repeats an earlier one of the same user
with one span changed ("... plays the position of defender" then "... of linebacker") is
linked to it. Precision first: the later statement refutes the earlier value only where the
changed span is the value, and the slot is single-valued (lexicon or policy), the template
is a definite description, or the newer text itself says the change (``extract.competing``).
"I have a cat" then "I have a dog" is two pets; "my sister lives in Rome" and "my brother
lives in Rome" are two people. Called by ``ingest`` for every message, from either side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .extract import competing, restatement_diff, statement_key
from .ids import normalise_key
from .models import Claim
from .writing import add_claims_once

if TYPE_CHECKING:
    from .memory import BeliefMemory

RESTATEMENT_NEIGHBOURS = 5
RECENT_WITHOUT_INDEX = 50  # without a vector index, compare with this many latest statements


def link_restatements(memory: "BeliefMemory", evidence_id: str, neighbour_ids: list[str] | None = None) -> list:
    """Pair a statement with earlier or later ones of the same user that differ in one
    span; the later of each pair refutes the earlier value (or, when the only change is
    a negation, the statement itself). Pairs are found from either side, so the result
    does not depend on arrival order. ``neighbour_ids``: its neighbours, when a batch
    looked them up at once (``batch_neighbours``)."""
    ev = memory.store.get_node("evidence", evidence_id)
    changes = []
    for other in _neighbours(memory, ev, neighbour_ids):
        older, newer = sorted((ev, other), key=lambda e: (e["timestamp"], e["id"]))
        if older["timestamp"] == newer["timestamp"]:
            continue
        diff = restatement_diff(older["text"], newer["text"])
        if diff is None:
            continue
        changes += _apply_restatement(memory, older, newer, diff)
    return changes


def batch_neighbours(memory: "BeliefMemory", evidence_ids: list[str]) -> dict[str, list[str]]:
    """Per evidence of a batch, the ids of its user's evidence near enough to restate it:
    one index query per user for the whole batch, not one per message (the same hits)."""
    if memory.index is None:
        return {}
    found = memory.store.get_nodes("evidence", evidence_ids)
    by_user: dict[str, list[dict]] = {}
    for eid in dict.fromkeys(evidence_ids):
        if eid in found:
            by_user.setdefault(found[eid]["user_id"], []).append(found[eid])
    threshold = memory.policy.section("linking").get("restatement_similarity", 0.75)
    out = {}
    for user_id, evs in by_user.items():
        vectors = memory.embed([ev["text"] for ev in evs])
        for ev, hits in zip(evs, memory.index.query_many(vectors, user_id, RESTATEMENT_NEIGHBOURS + 1)):
            out[ev["id"]] = [eid for eid, dist in hits if eid != ev["id"] and 1.0 - dist >= threshold]
    return out


def _neighbours(memory: "BeliefMemory", ev: dict, ids: list[str] | None = None) -> list[dict]:
    if ids is None and memory.index is not None:
        ids = batch_neighbours(memory, [ev["id"]]).get(ev["id"], [])
    elif ids is None:
        ids = memory.store.recent_evidence_ids(ev["user_id"], ev["id"], RECENT_WITHOUT_INDEX)
    found = memory.store.get_nodes("evidence", ids)
    return [found[i] for i in ids if i in found]


def _apply_restatement(memory: "BeliefMemory", older: dict, newer: dict, diff) -> list:
    user_id = newer["user_id"]
    old_claims = memory.store.claims_for_evidence([older["id"]])
    new_claims = memory.store.claims_for_evidence([newer["id"]])
    if diff.negated:
        positive, negative = (older, newer) if _longer(newer["text"], older["text"]) else (newer, older)
        if positive is not older:
            return []  # "not X" then "X": the later plain statement reasserts; the fold handles it
        targets = [c for c in old_claims if c["stance"] > 0] or None
        if targets is None:
            slot = Claim(user_id, "stmt:" + statement_key(older["text"]), "true", 1.0)
            changes = _add_once(memory, older["id"], [slot])
            return changes + _add_once(memory, newer["id"], [Claim(user_id, slot.predicate, "true", -0.8)])
        return _add_once(memory, newer["id"], [Claim(c["subject"], c["predicate"], c["value"], -0.8) for c in targets])
    old_key, new_key = normalise_key(diff.old_value), normalise_key(diff.new_value)
    if not old_key or not new_key:
        return []
    lexicon = getattr(memory.extractor, "lexicon", None)
    if old_claims and new_claims:
        # The extractor understood both statements: a pair of its claims competes when the
        # changed span is their value, the subject is the same, and the slot is single-valued
        # or the template or the newer text says one value replaced the other. A predicate
        # the policy declares functional needs nothing here: the memory refutes already.
        pairs = [
            (o, n) for o in old_claims for n in new_claims
            if o["stance"] > 0 and n["stance"] > 0 and o["predicate"] == n["predicate"]
            and not memory.policy.is_functional(o["predicate"])
            and _spans(o["value"], old_key) and _spans(n["value"], new_key)
            and _same_entity(memory, user_id, o["subject"], n["subject"])
            and normalise_key(o["value"]) != normalise_key(n["value"])
            and competing(diff, newer["text"], single_valued=_single(lexicon, o["predicate"]), lexicon=lexicon)
        ]
        return _add_once(memory, newer["id"], [Claim(o["subject"], o["predicate"], o["value"], -1.0) for o, _ in pairs])
    if not competing(diff, newer["text"], lexicon=lexicon):
        return []  # the two values need not compete: both hold
    # Not both parsed: the statement template itself is the slot (single-valued by policy: "slot:*").
    predicate = "slot:" + diff.template
    changes = _add_once(memory, older["id"], [Claim(user_id, predicate, diff.old_value, 1.0)])
    return changes + _add_once(memory, newer["id"], [Claim(user_id, predicate, diff.new_value, 1.0)])


def _single(lexicon, predicate: str) -> bool:
    return bool(lexicon is not None and lexicon.is_single_valued(predicate))


def _spans(value: str, span_key: str) -> bool:
    """The claim's value is the changed span (or inside it, or it inside the value)."""
    key = normalise_key(value)
    return bool(key) and (key in span_key or span_key in key)


def _longer(a: str, b: str) -> bool:
    return len(a) > len(b)


def _same_entity(memory: "BeliefMemory", user_id: str, a: str, b: str) -> bool:
    return memory.resolve_entity(user_id, a) == memory.resolve_entity(user_id, b)


def _add_once(memory: "BeliefMemory", evidence_id: str, claims: list[Claim]) -> list:
    return add_claims_once(memory, evidence_id, claims, origin="restatement")
