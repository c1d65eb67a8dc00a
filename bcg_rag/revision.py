"""Belief revision arithmetic: pure functions, no I/O.

A belief's state is the fold of its SUPPORTS / REFUTES edges in event-time order,
so the same evidence gives the same belief whatever order it arrived in, and any
past moment can be replayed by folding only the edges up to that moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .models import REFUTES, SUPPORTS, Edge, HistoryEntry
from .timeutil import days_between

DIRECT = "claim"  # reason of an edge written from a caller's claim
DERIVED_PREFIX = "functional:"  # reason of an edge derived from a single-valued predicate


def is_derived(reason: str | None) -> bool:
    return (reason or "").startswith(DERIVED_PREFIX)


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


def fold(events: Iterable[EdgeEvent], initial_for: Callable[[str], float]) -> list[HistoryEntry]:
    """Replay a belief from its edges. Returns the history; the last entry is the current state.

    Derived (functional) refutations that happened before the belief's first direct
    evidence are skipped: an earlier "I live in Paris" cannot refute a Berlin that
    nobody had claimed yet.
    """
    history: list[HistoryEntry] = []
    current: float | None = None
    for ev in sorted(events, key=lambda e: e.sort_key):
        if current is None:
            if is_derived(ev.reason):
                continue
            new = initial_confidence(initial_for(ev.source_type), ev.value)
        else:
            new = update(current, ev.weight, ev.value)
        history.append(HistoryEntry(current, new, ev.evidence_id, ev.timestamp, ev.relation, ev.weight, ev.value, ev.reason))
        current = new
    return history


def functional_refutations(
    first_direct_at: str | None,
    sibling_supports: Sequence[EdgeEvent],
    predicate: str,
    initial_for: Callable[[str], float],
) -> list[EdgeEvent]:
    """Support for another value of a single-valued slot refutes this belief, but only
    support that came after this belief was first claimed, and only as strongly as that
    support is believed at first sight (its initial confidence x stance): a model's guess
    of a new city must not overturn what the user said, a user's own update does."""
    if first_direct_at is None:
        return []
    return [
        EdgeEvent(
            s.evidence_id, s.timestamp, REFUTES, -abs(s.value) * initial_for(s.source_type), s.weight, s.source_type,
            f"{DERIVED_PREFIX}{predicate}",
        )
        for s in sibling_supports
        if s.timestamp > first_direct_at
    ]


def decay(confidence: float, last_updated: str, now: str, half_life_days: float) -> float:
    """Read-time view: stored * 0.5 ** (days since last update / half-life). Never stored."""
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
