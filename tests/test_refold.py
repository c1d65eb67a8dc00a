"""The tail refold (``refold.extend_slot``: new evidence folds on from the stored state)
gives bit for bit what a full refold of the slot gives (``refold.recompute_slot``, the
only way before it): every belief's confidence, last update and history, and every
derived edge, for evidence arriving in time order, out of order, with ties, hedges,
weaker sources, denials, additions and several claims per message; on both backends;
and for text through the offline extractor (restatement claims added to older evidence).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bcg_rag import BeliefMemory, Policy, refold
from servers import BACKENDS, CURRENT

sys.path.insert(0, str(Path(__file__).parent / "bench"))
import scale_data  # noqa: E402

NOW = "2030-01-01T00:00:00"
PREDICATES = ["lives_in", "works_at", "likes", "birthday"]
VALUES = ["Paris", "Berlin", "Lyon", "Oslo", "Acme"]
SOURCES = ["user_explicit", "user_explicit", "third_party", "model_inferred", "user_implicit"]
STANCES = [1.0, 1.0, 0.9, 0.5, 0.3, -0.8, -0.4]


def full_refold_only(monkeypatch) -> None:
    """Every write refolds its slots in full, as before the tail refold existed."""
    monkeypatch.setattr(refold, "extend_slot", lambda memory, *slot, since: refold.recompute_slot(memory, *slot))


def snapshot(m) -> tuple:
    beliefs = sorted((r["id"], r["predicate"], r["value"], r["confidence"], r["last_updated"], r["history"], r["status"])
                     for r in m.store.all_rows("belief"))
    edges = sorted((e.src, e.dst, e.relation, e.weight, e.value, e.valid_from, e.reason, e.source_type)
                   for e in m.store.all_edges() if e.relation in refold.BELIEF_RELATIONS)
    return beliefs, edges


def stream(n: int, seed: int) -> list[dict]:
    """One user's structured evidence: out-of-order and tied timestamps, several claims per message."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        day = max(0, i // 3 + rng.choice([0, 0, 0, -1, -5, -20, 2]))  # mostly in time order
        claims = []
        for k in range(rng.choice([1, 1, 1, 2])):
            claims.append(dict(subject=rng.choice(["user", "user", "Ada Abbott"]), predicate=rng.choice(PREDICATES),
                               value=rng.choice(VALUES), stance=rng.choice(STANCES), source_type=rng.choice(SOURCES),
                               additive=rng.random() < 0.1))
        items.append(dict(text=f"note {i}", user_id="u", timestamp=f"2024-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T"
                          f"{rng.choice([9, 9, 17]):02d}:00:00", source=f"s:{i}", claims=claims))
    return items


def build(new, items: list[dict], batch: int = 7):
    m = new()
    for start in range(0, len(items), batch):
        m.observe_many(items[start : start + batch])
    return m


def every_slot(m) -> list[tuple]:
    return sorted({(r["user_id"], r["subject_id"], r["predicate"], r["context_key"]) for r in m.store.all_rows("belief")})


@pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)
@pytest.mark.usefixtures("on_backend")
def test_tail_refold_equals_the_full_refold_in_any_arrival_order(monkeypatch):
    new = lambda: CURRENT["backend"].new(Policy.default(), index=None, clock=lambda: NOW)
    items = stream(240, seed=5)
    tail = build(new, items)
    shuffled = list(items)
    random.Random(1).shuffle(shuffled)
    tail_shuffled = build(new, shuffled)
    with monkeypatch.context() as mp:
        full_refold_only(mp)
        full = build(new, items)
    assert snapshot(tail) == snapshot(full)
    beliefs, edges = snapshot(tail)
    assert len(beliefs) > 20 and any("functional:" in e[6] for e in edges)  # the test compares something
    # Arrival order aside, the same evidence: the same confidences and histories (ids, numbers, reasons).
    assert snapshot(tail_shuffled) == snapshot(full)
    # And a full refold of the result changes nothing.
    with tail.store.transaction():
        assert [c for slot in every_slot(tail) for c in refold.recompute_slot(tail, *slot)] == []
    assert tail.validate() == []


def test_text_through_the_extractor_tail_equals_full(monkeypatch):
    """One user's chat (the scale benchmark's stream): extracted claims, restatement claims
    added later to older evidence (``add_claims``), a hot single-valued slot."""
    messages = list(scale_data.messages(500, 1, seed=3))

    def make():
        m = BeliefMemory.in_memory(Policy.default(), index=None, clock=lambda: NOW)
        for start in range(0, len(messages), 50):
            m.add_messages(messages[start : start + 50])
        return m

    tail = make()
    with monkeypatch.context() as mp:
        full_refold_only(mp)
        full = make()
    assert snapshot(tail) == snapshot(full)
    hot = max((len(r["history"]), r["predicate"]) for r in tail.store.all_rows("belief"))
    assert hot[0] > 20, hot  # a slot restated many times was compared
    assert tail.validate() == []


EVENT = st.tuples(st.sampled_from(VALUES[:3]), st.integers(0, 12), st.sampled_from(SOURCES), st.sampled_from(STANCES),
                  st.sampled_from(["lives_in", "likes"]), st.booleans())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(events=st.lists(EVENT, min_size=1, max_size=10))
def test_tail_refold_equals_full_refold_for_random_sequences(events, monkeypatch):
    items = [dict(text=f"e{n}", user_id="u", timestamp=f"2024-01-{1 + day:02d}T09:00:00", source=f"s:{n}",
                  source_type=source, claims=[dict(subject="user", predicate=p, value=v, stance=stance, additive=add)])
             for n, (v, day, source, stance, p, add) in enumerate(events)]
    new = lambda: BeliefMemory.in_memory(Policy.default(), index=None, clock=lambda: NOW)
    tail = build(new, items, batch=1)
    with monkeypatch.context() as mp:
        full_refold_only(mp)
        full = build(new, items, batch=1)
    assert snapshot(tail) == snapshot(full)
