"""The arithmetic alone: no store, no I/O."""

import math

import pytest

from bcg_rag import revision
from bcg_rag.models import REFUTES, SUPPORTS
from bcg_rag.revision import EdgeEvent

INITIAL = {"user_explicit": 0.6, "third_party": 0.4}.__getitem__


def ev(eid, ts, value, weight=0.5, source="user_explicit", reason=revision.DIRECT):
    return EdgeEvent(eid, ts, revision.relation_for(value), value, weight, source, reason)


def test_seed_example_follows_the_formula():
    history = revision.fold([ev("e1", "2025-03-01T10:00:00", 1.0), ev("e2", "2025-06-10T09:00:00", -0.8)], INITIAL)
    assert [h.new for h in history] == [pytest.approx(0.6), pytest.approx(-0.1)]
    assert history[0].old is None and history[1].old == pytest.approx(0.6)
    assert history[1].relation == REFUTES


def test_first_evidence_is_initial_confidence_times_stance():
    assert revision.fold([ev("e", "2025-01-01T00:00:00", -0.5)], INITIAL)[0].new == pytest.approx(-0.3)
    assert revision.fold([ev("e", "2025-01-01T00:00:00", 1.0, source="third_party")], INITIAL)[0].new == pytest.approx(0.4)


def test_update_is_clipped():
    assert revision.update(0.9, 1.0, 1.0) == 1.0
    assert revision.update(-1.0, 0.5, -1.0) == -1.0
    assert revision.clip(1.7) == 1.0 and revision.clip(-3) == -1.0


def test_decay_halves_at_half_life_and_quarters_at_two():
    assert revision.decay(0.8, "2025-01-01T00:00:00", "2025-04-01T00:00:00", 90) == pytest.approx(0.4)
    assert revision.decay(0.8, "2025-01-01T00:00:00", "2025-06-30T00:00:00", 90) == pytest.approx(0.2)
    # Reading in the past never inflates confidence.
    assert revision.decay(0.8, "2025-01-01T00:00:00", "2024-01-01T00:00:00", 90) == pytest.approx(0.8)


def test_bands():
    bands = {"high": 0.7, "medium": 0.4, "low": 0.0, "lean_negative": -0.4}
    got = [revision.band(x, bands) for x in (0.7, 0.69, 0.4, 0.0, -0.01, -0.4, -0.41)]
    assert got == ["high", "medium", "medium", "low", "lean_negative", "lean_negative", "strong_negative"]


def test_fold_ignores_arrival_order_and_breaks_ties_by_id():
    events = [ev("b", "2025-01-01T00:00:00", 1.0), ev("a", "2025-01-01T00:00:00", -0.5), ev("c", "2025-02-01T00:00:00", 0.2)]
    one = revision.fold(events, INITIAL)
    two = revision.fold(list(reversed(events)), INITIAL)
    assert one == two and one[0].evidence_id == "a"


def test_functional_refutations_only_after_first_claim():
    supports = [ev("old", "2025-01-01T00:00:00", 1.0), ev("new", "2025-06-01T00:00:00", 1.0)]
    derived = revision.functional_refutations("2025-03-01T00:00:00", supports, "lives_in", INITIAL)
    assert [d.evidence_id for d in derived] == ["new"]
    # As strong as the rival claim is at first sight: 0.6 for a user's own statement.
    assert derived[0].relation == REFUTES and derived[0].value == -0.6 and revision.is_derived(derived[0].reason)
    # A derived refutation never creates a belief on its own.
    assert revision.fold(derived, INITIAL) == []


def test_history_prefix_is_the_as_of_replay():
    events = [ev("e1", "2025-01-01T00:00:00", 1.0), ev("e2", "2025-02-01T00:00:00", -1.0), ev("e3", "2025-03-01T00:00:00", 1.0)]
    full = revision.fold(events, INITIAL)
    for cut in ("2025-01-15T00:00:00", "2025-02-01T00:00:00", "2025-12-01T00:00:00"):
        assert revision.history_at(full, cut) == revision.fold([e for e in events if e.timestamp <= cut], INITIAL)
    assert all(math.isfinite(h.new) for h in full) and full[0].relation == SUPPORTS
