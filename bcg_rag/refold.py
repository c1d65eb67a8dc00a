"""Refolding the beliefs of one slot (user, subject, predicate, context group) after its
evidence changed: the stored beliefs are a cache of ``revision.fold`` over their edges.

Two ways to the same beliefs, bit for bit:

- ``recompute_slot`` replays every belief of the slot from all its edges and derives
  every functional refutation again: after a deletion, a merge, a rebuild.
- ``extend_slot``, when evidence was only *added*, all of it at event time ``since`` or
  later: the fold only looks back, so every history entry before ``since`` stays what it
  is, and so does every derived refutation before it. Each belief keeps that prefix and
  folds on from its last state, reading only the edges from ``since`` on (plus, for its
  strongest supporter before ``since``, the source types that supported it). A slot restated
  thousands of times then costs per new statement what its new entries cost, not values
  x statements: evidence arriving in time order has almost no tail; evidence arriving out
  of order refolds from its own time, which is the same fold (order-independence).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable

from . import revision
from .models import REFUTES, SUPPORTS, Change, Edge
from .revision import EdgeEvent

if TYPE_CHECKING:
    from .memory import BeliefMemory

BELIEF_RELATIONS = (SUPPORTS, REFUTES)
Slot = tuple[str, str, str, str]


def recompute_slots(memory: "BeliefMemory", slots: Iterable[Slot], since: str | None = None) -> list[Change]:
    """Refold every slot once: in full, or (``since``: every change is evidence added at
    that event time or later) from ``since`` on."""
    changes: list[Change] = []
    for slot in dict.fromkeys(slots):
        changes += recompute_slot(memory, *slot) if since is None else extend_slot(memory, *slot, since=since)
    return changes


def recompute_slot(memory: "BeliefMemory", user_id: str, subject_id: str, predicate: str, context_key: str) -> list[Change]:
    """Refold every belief of one slot. For a functional predicate, derive the
    REFUTES edges that support for one value implies for the others."""
    rows = memory.store.slot_beliefs(user_id, subject_id, predicate, context_key)
    ids = [r["id"] for r in rows]
    direct, derived_now = _split(ids, memory.store.edges_to(ids, BELIEF_RELATIONS))
    derived = _derive(memory, predicate, {r["id"]: r["value"] for r in rows}, direct, {}, {})
    _sync_derived(memory, ids, derived, derived_now)
    stored = {r["id"]: dict(start=0, first=None, last=None, entries=r.pop("history")) for r in rows}
    return _store_folds(memory, rows, direct, derived, stored)


def extend_slot(memory: "BeliefMemory", user_id: str, subject_id: str, predicate: str, context_key: str, *,
                since: str) -> list[Change]:
    """``recompute_slot``'s result when the slot only gained evidence dated ``since`` or
    later: the histories before ``since`` are kept, the rest is folded on from there."""
    rows = memory.store.slot_beliefs(user_id, subject_id, predicate, context_key, history=False)
    ids = [r["id"] for r in rows]
    direct, derived_now = _split(ids, memory.store.edges_to(ids, BELIEF_RELATIONS, since=since))
    # The strongest supporter before ``since`` depends only on which source types supported
    # it: asked of the store as such (a few index seeks), not read off every earlier SUPPORTS
    # edge of the slot, which grew with every restatement. Derived edges are all REFUTES,
    # so every SUPPORTS edge is direct, as ``strongest_supporter`` requires.
    types = memory.store.supporter_types(ids, since)
    strongest = {i: revision.strongest_of_types(types.get(i, ()), memory.policy.initial_confidence) for i in ids}
    stored = memory.store.history_tails(ids, since)  # the entries before ``since``: counted, not read
    first = {i: (t["first"]["at"] if t["first"] else None) for i, t in stored.items()}
    derived = _derive(memory, predicate, {r["id"]: r["value"] for r in rows}, direct, first, strongest)
    _sync_derived(memory, ids, derived, derived_now)
    return _store_folds(memory, rows, direct, derived, stored, strongest)


def _split(ids: list[str], edges: list[Edge]) -> tuple[dict[str, list[EdgeEvent]], dict[tuple[str, str, str], Edge]]:
    """Direct events per belief, and the stored derived edges by key."""
    direct: dict[str, list[EdgeEvent]] = {i: [] for i in ids}
    derived_now: dict[tuple[str, str, str], Edge] = {}
    for e in edges:
        if revision.is_derived(e.reason):
            derived_now[(e.src, e.dst, e.relation)] = e
        else:
            direct[e.dst].append(revision.edge_event(e))
    return direct, derived_now


def _derive(memory: "BeliefMemory", predicate: str, values: dict[str, str], direct: dict[str, list[EdgeEvent]],
            first: dict[str, str | None], strongest: dict[str, float | None]) -> dict[str, list[EdgeEvent]]:
    """The functional refutations of each belief (id -> value in ``values``), from its
    siblings' support in ``direct`` (all of it, or the tail: then ``first`` and
    ``strongest`` summarise what came before)."""
    ids = list(values)
    derived: dict[str, list[EdgeEvent]] = {i: [] for i in ids}
    if not memory.policy.is_functional(predicate) or len(ids) < 2:
        return derived
    rules = revision.Rules.from_policy(memory.policy)
    # Per value, in ids order, the support that may refute its siblings (an addition, "I
    # also work at ...", refutes no other value); values without any are not tested for
    # narrowing. A tail refold in time order has one (the value just stated): a slot of
    # k values costs k tests, not k x k, and a user's own slots (every city they lived
    # in) grow with their history.
    rivals = {other: evs for other in ids
              if (evs := [ev for ev in direct[other] if ev.relation == SUPPORTS and ev.reason != revision.ADDITIVE])}
    for bid in ids:
        own = {ev.evidence_id for ev in direct[bid]}
        siblings = [  # nor does a narrower name of a value refute it
            ev for other, evs in rivals.items() if other != bid and not revision.narrows(values[bid], values[other])
            for ev in evs if ev.evidence_id not in own
        ]
        derived[bid] = revision.functional_refutations(
            direct[bid], unique(siblings), predicate, memory.policy.initial_confidence, rules,
            first=first.get(bid), strongest=strongest.get(bid),
        )
    return derived


def _sync_derived(memory: "BeliefMemory", ids: list[str], derived: dict[str, list[EdgeEvent]],
                  derived_now: dict[tuple[str, str, str], Edge]) -> None:
    """Store the derived edges wanted, delete those no longer wanted (of the span read)."""
    wanted = {
        (ev.evidence_id, bid, REFUTES): Edge(ev.evidence_id, bid, REFUTES, weight=ev.weight, value=ev.value,
                                            valid_from=ev.timestamp, reason=ev.reason, source_type=ev.source_type)
        for bid in ids for ev in derived[bid]
    }
    memory.store.delete_edges(set(derived_now) - set(wanted))
    # new, or its strength or conflict status changed
    memory.store.put_edges([edge for key, edge in wanted.items() if derived_now.get(key) != edge])


def _store_folds(memory: "BeliefMemory", rows: list[dict], direct: dict[str, list[EdgeEvent]],
                 derived: dict[str, list[EdgeEvent]], stored: dict[str, dict],
                 strongest: dict[str, float | None] | None = None) -> list[Change]:
    """Fold each belief on from its kept prefix (``stored``: ``store_rows.tail``; start 0
    for a full refold) and store the entries that changed: the prefix is never written."""
    rules = revision.Rules.from_policy(memory.policy)
    initial_for = memory.policy.initial_confidence
    changes = []
    for row in rows:
        bid = row["id"]
        st = stored[bid]
        start, last, old_tail = st["start"], st["last"], st["entries"]
        events = direct[bid] + derived[bid]
        if start and not events and not old_tail:
            continue  # nothing from ``since`` on: the stored history is the fold
        tail = [h.__dict__ for h in revision.fold(events, initial_for, rules, current=last["new"] if last else None,
                                                   strongest=revision.fold_strongest((strongest or {}).get(bid)))]
        old = row["confidence"] if start or old_tail else None
        if not start and not tail:  # nothing left that claims it (e.g. its evidence was forgotten)
            memory.store.delete_edges_touching([bid])
            memory.store.delete_beliefs([bid])
            changes.append(Change(bid, old, 0.0))
            continue
        if tail != old_tail:  # a refold that changed nothing writes nothing
            new = (tail or [last])[-1]["new"]
            state = dict(confidence=new, last_updated=_last_confirmed(memory, bid, start, last, tail))
            if not _same_state(row, state):  # new entries often end where the old ones did
                row.update(state)
                memory.store.upsert_belief(row)
            same = _common_prefix(old_tail, tail)
            memory.store.write_history(bid, start + same, tail[same:])
            changes.append(Change(bid, old, new))
    return changes


def _last_confirmed(memory: "BeliefMemory", bid: str, start: int, last: dict | None, tail: list[dict]) -> str:
    """``revision.last_confirmed`` over the kept prefix (``start`` entries ending in
    ``last``) and the new ``tail``, reading the prefix only when neither settles it."""
    for h in reversed(tail):
        if not revision.is_conflict(h["reason"]):
            return h["at"]
    if last is None or not revision.is_conflict(last["reason"]):
        return (tail or [last])[-1]["at"] if last is None else last["at"]
    prefix = memory.store.belief_history([bid])[bid][:start]  # rare: the prefix ends in conflicts
    for h in reversed(prefix):
        if not revision.is_conflict(h["reason"]):
            return h["at"]
    return (tail or prefix)[-1]["at"]


def _same_state(row: dict, state: dict) -> bool:
    """Whether the row already holds ``state``, bit for bit (0.0 and -0.0 differ)."""
    old, new = row["confidence"], state["confidence"]
    return (row["last_updated"] == state["last_updated"] and old == new
            and math.copysign(1.0, old) == math.copysign(1.0, new))


def _common_prefix(old: list[dict], new: list[dict]) -> int:
    n = 0
    for a, b in zip(old, new):
        if a != b:
            break
        n += 1
    return n


def unique(events: list[EdgeEvent]) -> list[EdgeEvent]:
    return list({ev.evidence_id: ev for ev in sorted(events, key=lambda e: e.sort_key)}.values())
