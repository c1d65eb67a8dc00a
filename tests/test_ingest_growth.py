"""Per-message ingestion work that must not grow with the memory: the predicates a user
has used (``known_predicates``, asked once per message) and a slot's strongest earlier
supporter (``supporter_types``, asked by every tail refold) come from index seeks, not
from reading every claim or every supporter. Same answers as the plain reading, on both
backends, and a memory written before their indexes existed opens with them."""

from __future__ import annotations

import pytest
from servers import BACKENDS

from bcg_rag import BeliefMemory, Claim, revision, writing
from bcg_rag.models import Edge

pytestmark = pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)

CITIES = ("Paris", "Berlin", "Rome")
NEW_INDEXES = ("claim_user_predicate", "edge_support_type")


def _restate(m: BeliefMemory, days: range, user: str = "u", source_type: str = "user_explicit") -> None:
    for day in days:
        m.observe(f"I live in {CITIES[day % 3]} ({day})", user_id=user, timestamp=f"2024-01-{day:02d}",
                  source_type=source_type, claim=Claim("I", "lives_in", CITIES[day % 3]))


def _naive_types(store, ids: list[str], before: str) -> dict[str, set]:
    out: dict[str, set] = {}
    for e in store.edges_to(ids, ["SUPPORTS"]):
        if e.valid_from < before:
            out.setdefault(e.dst, set()).add(e.source_type)
    return out


def test_supporter_types_are_the_types_of_the_earlier_supporters(memory_backend):
    m = memory_backend.new()
    types = ["user_explicit", "model_inferred", None, "zz_custom"]
    with m.store.transaction():
        for i in range(40):
            for b in ("bel_a", "bel_b"):
                if b == "bel_b" and i % 2:
                    continue
                m.store.put_edge(Edge(f"ev_{i:03d}", b, "SUPPORTS", weight=0.5, value=1.0,
                                      valid_from=f"2024-02-{1 + i % 28:02d}T{i:02d}", reason="claim",
                                      source_type=types[(i * 7 // 3) % 4]))
            m.store.put_edge(Edge(f"ev_{i:03d}", "bel_c", "REFUTES", weight=0.5, value=-1.0,
                                  valid_from="2024-01-01", reason="functional:x", source_type="user_explicit"))
    ids = ["bel_a", "bel_b", "bel_c", "bel_none"]
    for before in ("2024-01-01", "2024-02-01T00", "2024-02-02", "2024-02-05T09", "2024-02-15", "2025-01-01"):
        assert m.store.supporter_types(ids, before) == _naive_types(m.store, ids, before)
    assert m.store.supporter_types([], "2025-01-01") == {}


def test_known_predicates_are_the_distinct_predicates_of_the_users_claims(memory_backend):
    m = memory_backend.new()
    assert m.store.known_predicates("u") == []
    for i, p in enumerate(["works_at", "lives_in", "works_at", "Lives In", "slot:x {}", "likes"]):
        m.observe(f"note {i}", user_id="u", timestamp=f"2024-01-{i + 1:02d}", claim=Claim("I", p, f"v{i}"))
    m.observe("other", user_id="w", timestamp="2024-01-01", claim=Claim("I", "born_in", "Oslo"))
    plain = [r["predicate"] for r in m.store.execute(
        "SELECT DISTINCT predicate FROM claim WHERE user_id = ? ORDER BY predicate", ("u",))]
    assert m.store.known_predicates("u") == plain == sorted(set(plain))
    assert m.store.known_predicates("w") == ["born_in"]
    assert m.store.known_predicates("nobody") == []


def test_a_restatement_reads_no_edge_from_before_it(memory_backend):
    """The work of one more statement in time order does not depend on how often the slot
    was restated before: the refold reads only the edges from its own time on."""
    m = memory_backend.new()
    read: list[int] = []
    edges_to = m.store.edges_to

    def counting(dst_ids, relations, since=None):
        found = edges_to(dst_ids, relations, since)
        read.append(len(found))
        return found

    costs = []
    for start, stop in ((1, 4), (4, 28)):
        _restate(m, range(start, stop))
        m.store.edges_to = counting
        read.clear()
        _restate(m, range(stop, stop + 1))
        m.store.edges_to = edges_to
        costs.append(sum(read))
    assert costs[0] == costs[1]


def test_a_statement_tests_each_value_of_its_slot_for_narrowing_once(memory_backend, monkeypatch):
    """A user's own slots grow with their history (every city lived in): one more statement
    in time order tests the k values of its slot for narrowing k times, not k x k, and
    refolds to what the full refold gives."""
    m = memory_backend.new()
    cities = [f"Town {chr(65 + i)}" for i in range(24)] + ["Town C North"]  # a narrower name among them
    for day, city in enumerate(cities, 1):
        m.observe(f"I live in {city}", user_id="u", timestamp=f"2024-01-{day:02d}", claim=Claim("I", "lives_in", city))
    tested: list[tuple[str, str]] = []
    narrows = revision.narrows
    monkeypatch.setattr(revision, "narrows", lambda a, b: tested.append((a, b)) or narrows(a, b))
    m.observe("I live in Town C", user_id="u", timestamp="2024-02-01", claim=Claim("I", "lives_in", "Town C"))
    assert len(tested) == len(cities) - 1 and any(narrows(*pair) for pair in tested)
    tail = m.store.all_rows("belief")
    writing.refold_user(m, "u")
    assert m.store.all_rows("belief") == tail


def test_a_stronger_earlier_supporter_still_makes_a_weaker_rival_a_conflict(memory_backend):
    """``supporter_types`` feeds the same rule the full refold applies."""
    m = memory_backend.new()
    _restate(m, range(1, 3))
    _restate(m, range(3, 6), source_type="model_inferred")
    tail = m.store.all_rows("belief")
    writing.refold_user(m, "u")
    assert m.store.all_rows("belief") == tail
    assert any(h["reason"].startswith("conflict:") for r in tail for h in r["history"])


def _drop_new_indexes(store) -> None:
    """Back to the layout of a memory written before these indexes existed."""
    s = f"{store.schema}." if hasattr(store, "schema") else ""
    with store.transaction():
        for name in NEW_INDEXES:
            store.execute(f"DROP INDEX {s}{name}")


def _indexes(store) -> set[str]:
    if hasattr(store, "schema"):
        rows = store.execute("SELECT indexname AS name FROM pg_indexes WHERE schemaname = ?", (store.schema,))
    else:
        rows = store.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    return {r["name"] for r in rows}


def _reopen(memory_backend, m: BeliefMemory) -> BeliefMemory:
    if memory_backend.server:
        return BeliefMemory.connect(store=m.store.dsn, schema=m.store.schema, index=None, policy=m.policy,
                                    clock=lambda: "2024-06-01T00:00:00")
    return BeliefMemory.open(m.path, m.policy, index=None, clock=lambda: "2024-06-01T00:00:00")


def test_a_memory_without_the_new_indexes_opens_with_them(memory_backend):
    m = memory_backend.new(durable=True, clock=lambda: "2024-06-01T00:00:00")
    _restate(m, range(1, 10))
    before = (m.store.all_rows("belief"), m.store.all_edges(), m.store.known_predicates("u"))
    _drop_new_indexes(m.store)
    assert not set(NEW_INDEXES) & _indexes(m.store)
    m.close()
    for _ in range(2):  # the second open finds nothing left to do
        again = _reopen(memory_backend, m)
        assert set(NEW_INDEXES) <= _indexes(again.store)
        assert (again.store.all_rows("belief"), again.store.all_edges(), again.store.known_predicates("u")) == before
        assert again.validate() == []
        again.close()
    again = _reopen(memory_backend, m)  # and folds on as the full refold does
    _restate(again, range(10, 14))
    extended = again.store.all_rows("belief")
    writing.refold_user(again, "u")
    assert again.store.all_rows("belief") == extended
    again.close()
