"""Belief revision arithmetic: pure functions, no I/O.

A belief's state is the fold of its SUPPORTS / REFUTES edges in event-time order,
so the same evidence gives the same belief whatever order it arrived in, and any
past moment can be replayed by folding only the edges up to that moment.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import accumulate
from typing import Callable, Iterable, Sequence

from .ids import normalise_key
from .models import REFUTES, SUPPORTS, Edge, HistoryEntry
from .timeutil import days_between

DIRECT = "claim"  # reason of an edge written from a caller's claim
DERIVED_PREFIX = "functional:"  # reason of an edge derived from a single-valued predicate
CONFLICT_PREFIX = "conflict:"  # evidence against a belief that did not move it (weaker source or hedge)
ADDITIVE = "additive"  # reason of an edge from a claim said as an addition: it refutes no sibling value


def is_derived(reason: str | None) -> bool:
    reason = reason or ""
    return reason.startswith(DERIVED_PREFIX) or reason.startswith(CONFLICT_PREFIX + DERIVED_PREFIX)


def is_conflict(reason: str | None) -> bool:
    return (reason or "").startswith(CONFLICT_PREFIX)


@dataclass(frozen=True)
class Rules:
    """How evidence against a belief counts (policy ``[revision]``)."""

    hedge_stance: float = 0.5
    conflicts_from_weaker_sources: bool = True

    @classmethod
    def from_policy(cls, policy) -> "Rules":
        return cls(policy.hedge_stance, policy.conflicts_from_weaker_sources)


def is_hedge(stance: float, rules: Rules) -> bool:
    return abs(stance) <= rules.hedge_stance


@dataclass(frozen=True)
class EdgeEvent:
    """One SUPPORTS / REFUTES edge as the fold sees it."""

    evidence_id: str
    timestamp: str
    relation: str
    value: float  # the evidence's signed stance
    weight: float
    source_type: str
    reason: str = DIRECT

    @property
    def sort_key(self) -> tuple:
        # Ties on event time are broken by evidence id, never by arrival order.
        return (self.timestamp, self.evidence_id, self.relation)


def edge_event(e: Edge) -> EdgeEvent:
    """A stored SUPPORTS / REFUTES edge as the fold sees it."""
    return EdgeEvent(e.src, e.valid_from, e.relation, e.value, e.weight, e.source_type or "user_explicit", e.reason or DIRECT)


def clip(x: float) -> float:
    return max(-1.0, min(1.0, x))


def initial_confidence(initial: float, stance: float) -> float:
    """First evidence of a belief: the policy's initial confidence for its source type, signed."""
    return clip(initial * stance)


def update(old: float, weight: float, value: float) -> float:
    """Move confidence toward the evidence value: new = old + weight * (value - old)."""
    return clip(old + weight * (value - old))


def relation_for(stance: float) -> str:
    return SUPPORTS if stance > 0 else REFUTES


def fold(events: Iterable[EdgeEvent], initial_for: Callable[[str], float], rules: Rules | None = None, *,
         current: float | None = None, strongest: float | None = None) -> list[HistoryEntry]:
    """Replay a belief from its edges. Returns the history; the last entry is the current state.

    Derived (functional) refutations that happened before the belief's first direct
    evidence are skipped: an earlier "I live in Paris" cannot refute a Berlin that
    nobody had claimed yet.

    Evidence against the belief that is only a *conflict* does not move it, but stays in
    the history (reason ``conflict:...``) so that it can be shown: a refutation whose
    source type is less reliable (lower initial confidence) than the belief's strongest
    supporter so far, or a hedged one (|stance| <= ``rules.hedge_stance``). Derived
    refutations arrive already marked by ``functional_refutations``. Everything depends
    on event time and content only, so the fold stays order-independent.

    ``current`` and ``strongest`` resume a fold: the state after the events before these
    (the last history entry's ``new``, and ``fold_strongest`` of the direct events before);
    the entries returned then continue that history (``writing``'s tail refold).
    """
    rules = rules or Rules()
    history: list[HistoryEntry] = []
    # strongest: initial confidence of the most reliable direct supporter so far
    for ev in sorted(events, key=lambda e: e.sort_key):
        reason = ev.reason
        if current is None:
            if is_derived(reason):
                continue
            new = initial_confidence(initial_for(ev.source_type), ev.value)
        elif is_conflict(reason) or (ev.relation == REFUTES and not is_derived(reason)
                                     and _weaker_or_hedged(ev.source_type, ev.value, strongest, initial_for, rules)):
            reason = reason if is_conflict(reason) else CONFLICT_PREFIX + reason
            new = current
        else:
            new = update(current, ev.weight, ev.value)
        if ev.relation == SUPPORTS and not is_derived(reason):
            strongest = max(strongest or 0.0, initial_for(ev.source_type))
        history.append(HistoryEntry(current, new, ev.evidence_id, ev.timestamp, ev.relation, ev.weight, ev.value, reason))
        current = new
    return history


def strongest_supporter(events: Iterable[EdgeEvent], initial_for: Callable[[str], float]) -> float | None:
    """The initial confidence of the most reliable direct supporter among ``events`` (None: none)."""
    values = [initial_for(ev.source_type) for ev in events if ev.relation == SUPPORTS and not is_derived(ev.reason)]
    return max(values) if values else None


def strongest_of_types(source_types: Iterable[str | None], initial_for: Callable[[str], float]) -> float | None:
    """``strongest_supporter`` of direct SUPPORTS edges known only by their source types
    (None, as in ``edge_event``, counts as user_explicit): the answer depends on nothing else."""
    values = [initial_for(t or "user_explicit") for t in source_types]
    return max(values) if values else None


def fold_strongest(strongest: float | None) -> float | None:
    """``strongest_supporter`` as ``fold`` keeps it (never below zero)."""
    return None if strongest is None else max(0.0, strongest)


def _weaker_or_hedged(source_type: str, stance: float, strongest: float | None, initial_for, rules: Rules) -> bool:
    if not rules.conflicts_from_weaker_sources:
        return False
    return is_hedge(stance, rules) or (strongest is not None and initial_for(source_type) < strongest)


def functional_refutations(
    own: Sequence[EdgeEvent],
    sibling_supports: Sequence[EdgeEvent],
    predicate: str,
    initial_for: Callable[[str], float],
    rules: Rules | None = None,
    *,
    first: str | None = None,
    strongest: float | None = None,
) -> list[EdgeEvent]:
    """Support for another value of a single-valued slot refutes this belief (whose own
    direct events are ``own``), but only support that came after this belief was first
    claimed, and only as strongly as that support is believed at first sight (its initial
    confidence x stance): a model's guess of a new city must not overturn what the user
    said, a user's own update does. A rival claim that is a hedge, or comes from a less
    reliable source than this belief's strongest supporter before it, is a conflict
    (reason ``conflict:functional:...``): recorded, shown, but it does not move the belief.

    For a tail refold ``own`` and ``sibling_supports`` may be only the events from some
    time on: ``first`` is then the timestamp of the belief's first direct evidence before
    that time, and ``strongest`` the ``strongest_supporter`` of its events before it."""
    rules = rules or Rules()
    firsts = [ev.timestamp for ev in own] + ([first] if first is not None else [])
    if not firsts:
        return []
    first = min(firsts)
    # The strongest own supporter before each rival, by bisection over a running maximum:
    # a slot restated thousands of times must not cost own x rivals per refold.
    supports = sorted((o.sort_key, initial_for(o.source_type)) for o in own if o.relation == SUPPORTS)
    keys = [k for k, _ in supports]
    prior = [] if strongest is None else [strongest]
    running = list(accumulate(prior + [v for _, v in supports], max))
    out = []
    for s in sibling_supports:
        if s.timestamp <= first:
            continue
        before = bisect_left(keys, s.sort_key) + len(prior)
        best = running[before - 1] if before else None
        reason = f"{DERIVED_PREFIX}{predicate}"
        if _weaker_or_hedged(s.source_type, s.value, best, initial_for, rules):
            reason = CONFLICT_PREFIX + reason
        out.append(EdgeEvent(s.evidence_id, s.timestamp, REFUTES, -abs(s.value) * initial_for(s.source_type), s.weight,
                             s.source_type, reason))
    return out


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def narrows(a: str, b: str) -> bool:
    """Whether one value is the other with more of a name after it: "华为" and "华为终端",
    "Google" and "Google Cloud", "上海" and "上海浦东". Both are true at once (a division of
    the same employer, a district of the same city), so in a single-valued slot neither
    refutes the other. A Latin name is extended by whole words, a Chinese one of two
    characters or more by two or more; a value with a digit never is ("30" and "300",
    "3号线" and "3号线北段" are other values)."""
    short, long = sorted((normalise_key(a), normalise_key(b)), key=len)
    if not short or short == long or not long.startswith(short) or any(ch.isdigit() for ch in long):
        return False
    rest = long[len(short):]
    if _cjk(short[-1]):
        return len(short) >= 2 and len(rest) >= 2 and all(_cjk(ch) for ch in rest)
    return rest[0] == " " and rest.strip() != ""


def last_confirmed(history: Sequence[HistoryEntry]) -> str:
    """When the belief was last moved or confirmed: the newest entry that is not a mere
    conflict (a weaker source's disagreement says nothing about how fresh the belief is)."""
    for h in reversed(history):
        if not is_conflict(h.reason):
            return h.at
    return history[-1].at


def decay(confidence: float, last_updated: str, now: str, half_life_days: float | None) -> float:
    """Read-time freshness: stored * 0.5 ** (days since last update / half-life); a
    half-life of None (or 0) does not age. Never stored, and never decides whether a
    value may be stated: evidence does (see ``views.asserted``)."""
    if not half_life_days:
        return confidence
    days = max(0.0, days_between(last_updated, now))
    return confidence * 0.5 ** (days / half_life_days)


def band(confidence: float, bands: dict[str, float]) -> str:
    if confidence >= bands["high"]:
        return "high"
    if confidence >= bands["medium"]:
        return "medium"
    if confidence >= bands["low"]:
        return "low"
    if confidence >= bands["lean_negative"]:
        return "lean_negative"
    return "strong_negative"


def history_at(history: Sequence[HistoryEntry], as_of: str) -> list[HistoryEntry]:
    """The prefix of a history that had happened by ``as_of`` (event time)."""
    return [h for h in history if h.at <= as_of]
