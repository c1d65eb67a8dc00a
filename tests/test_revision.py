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
    own = [ev("mine", "2025-03-01T00:00:00", 1.0)]
    derived = revision.functional_refutations(own, supports, "lives_in", INITIAL)
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


def test_weaker_source_against_the_user_is_a_conflict_that_does_not_move():
    user = ev("u", "2025-01-01T00:00:00", 1.0)
    crm = ev("crm", "2025-02-01T00:00:00", -0.8, weight=0.3, source="third_party")
    history = revision.fold([user, crm], INITIAL)
    assert [h.new for h in history] == [pytest.approx(0.6), pytest.approx(0.6)]
    assert revision.is_conflict(history[1].reason) and history[1].relation == REFUTES


def test_a_hedge_is_a_conflict_and_the_users_own_word_is_not():
    user = ev("u", "2025-01-01T00:00:00", 1.0)
    hedge = ev("h", "2025-02-01T00:00:00", -0.4)
    assert revision.fold([user, hedge], INITIAL)[-1].new == pytest.approx(0.6)
    denial = ev("d", "2025-02-01T00:00:00", -0.8)
    assert revision.fold([user, denial], INITIAL)[-1].new == pytest.approx(0.6 + 0.5 * (-0.8 - 0.6))
    # Switched off by policy: the first revision rule.
    rules = revision.Rules(conflicts_from_weaker_sources=False)
    assert revision.fold([user, hedge], INITIAL, rules)[-1].new == pytest.approx(0.6 + 0.5 * (-0.4 - 0.6))


def test_functional_rival_from_a_weaker_source_or_hedge_is_marked_conflict():
    own = [ev("june", "2025-01-01T00:00:00", 1.0)]
    rivals = [ev("crm", "2025-02-01T00:00:00", 1.0, weight=0.3, source="third_party"),
              ev("maybe", "2025-03-01T00:00:00", 0.5), ev("user", "2025-04-01T00:00:00", 1.0)]
    derived = {d.evidence_id: d for d in revision.functional_refutations(own, rivals, "birthday", INITIAL)}
    assert revision.is_conflict(derived["crm"].reason) and revision.is_conflict(derived["maybe"].reason)
    assert not revision.is_conflict(derived["user"].reason) and revision.is_derived(derived["user"].reason)
    history = revision.fold(own + list(derived.values()), INITIAL)
    assert [round(h.new, 6) for h in history] == [0.6, 0.6, 0.6, round(0.6 + 0.5 * (-0.6 - 0.6), 6)]
    # A weaker source that came first is overturned by the user's later word.
    crm_first = [ev("crm0", "2024-12-01T00:00:00", 1.0, weight=0.3, source="third_party")]
    against_crm = revision.functional_refutations(crm_first, own, "birthday", INITIAL)
    assert not revision.is_conflict(against_crm[0].reason)


@pytest.mark.parametrize("a, b, narrower", [
    ("华为", "华为终端", True), ("Google", "google cloud", True), ("New York", "New York City", True),
    ("上海", "上海浦东", True),
    ("Paris", "Paris, Texas", False),  # not by a whole word
    ("Meta", "Metaverse", False), ("北京", "北京市", False), ("华", "华为", False),  # too short
    ("30", "300", False), ("3号线", "3号线北段", False),  # a digit: another value
    ("Acme", "Acme", False), ("", "Acme", False), ("tea", "green tea", False),  # only what follows
])
def test_narrows(a, b, narrower):
    assert revision.narrows(a, b) is narrower and revision.narrows(b, a) is narrower
