"""The covering indexes a search reads from (issue 13: its own work on one user's large
memory was random page reads inside single statements): SQLite's ``belief_id_slot`` and
``belief_slot_rows`` (``slot_rows``) and ``edge_src_rows`` (``edges_from``,
``edges_between``); PostgreSQL's ``edge_src_rows``. A memory written before them opens with
them and answers the same, on both backends; the statements read index pages only; a
read-only file without them still reads; a value PostgreSQL could not index still writes."""

from __future__ import annotations

import json

import pytest
from servers import BACKENDS, open_spec

from bcg_rag import BeliefMemory, Claim
from bcg_rag.search import search

pytestmark = pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)

SQLITE_INDEXES = ("belief_id_slot", "belief_slot_rows", "edge_src_rows")
POSTGRES_INDEXES = ("edge_src_rows",)
NOW = "2024-06-01T00:00:00"
QUESTIONS = ("Where do I live?", "Where does Ada work?", "What do I like?", "where did I live before Rome")


def _new_indexes(store) -> tuple[str, ...]:
    return POSTGRES_INDEXES if hasattr(store, "schema") else SQLITE_INDEXES


def _indexes(store) -> set[str]:
    if hasattr(store, "schema"):
        rows = store.execute("SELECT indexname AS name FROM pg_indexes WHERE schemaname = %s", (store.schema,))
    else:
        rows = store.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    return {r["name"] for r in rows}


def _drop_new_indexes(store) -> None:
    """Back to the layout of a memory written before these indexes existed."""
    s = f"{store.schema}." if hasattr(store, "schema") else ""
    with store.transaction():
        for name in _new_indexes(store):
            store.execute(f"DROP INDEX {s}{name}")


def _fill(m: BeliefMemory) -> None:
    """Busy single-valued slots (derived refutations), a multi-valued one, another person, two users."""
    cities = ("Paris", "Berlin", "Rome", "Oslo")
    for day in range(1, 21):
        for user in ("u", "w"):
            m.observe(f"I live in {cities[day % 4]} now", user_id=user, timestamp=f"2024-01-{day:02d}",
                      claim=Claim("I", "lives_in", cities[(day + (user == "w")) % 4]))
        m.observe(f"Ada works at Firm {day % 3}", user_id="u", timestamp=f"2024-02-{day:02d}",
                  claim=Claim("Ada", "works_at", f"Firm {day % 3}"))
        m.observe(f"I like dish {day % 5}", user_id="u", timestamp=f"2024-03-{day:02d}",
                  claim=Claim("I", "likes", f"dish {day % 5}"), context="home" if day % 2 else None)


def _reads(m: BeliefMemory) -> dict:
    """What a search asks the store for, over every belief and edge source of the memory."""
    store = m.store
    beliefs = [r["id"] for r in store.find_beliefs(None, history=False)]
    sources = sorted({e.src for e in store.all_edges()})
    pairs = [(e.src, e.dst) for e in store.all_edges() if e.relation in ("SUPPORTS", "REFUTES")]
    slots = store.slot_rows(beliefs[::3])
    rels = ["SUPPORTS", "REFUTES"]
    return {
        "slots": [[key, rows] for key, rows in slots.items()],
        "direct": [e.__dict__ for e in store.edges_from(sources, rels, direct_only=True)],
        "into": [e.__dict__ for e in store.edges_from(sources, rels, dst_ids=beliefs[:7])],
        "between": [e.__dict__ for e in store.edges_between(pairs[::2] + [("nope", beliefs[0])], rels)],
        "beliefs": store.find_beliefs("u", history=False),
    }


def _answers(m: BeliefMemory) -> list[str]:
    out = []
    for q in QUESTIONS:
        for kw in ({}, {"as_of": "2024-01-10T00:00:00"}, {"top_k": 1}, {"context": "home"}):
            res = search(m, q, user_id="u", **kw)
            out.append(json.dumps([[g.to_dict() for g in res], list(res.unstructured), res.unstructured_first],
                                  sort_keys=True, default=repr))
    return out


def test_a_memory_without_the_covering_indexes_opens_with_them_and_answers_the_same(memory_backend, policy_hash):
    m = memory_backend.new(policy_hash, index="auto", durable=True, clock=lambda: NOW)
    _fill(m)
    before = (_reads(m), _answers(m))
    _drop_new_indexes(m.store)
    assert not set(_new_indexes(m.store)) & _indexes(m.store)
    spec = memory_backend.spec(m)
    m.close()
    for _ in range(2):  # the second open finds nothing left to do
        again = open_spec(spec, policy=policy_hash, clock=lambda: NOW)
        assert set(_new_indexes(again.store)) <= _indexes(again.store)
        assert (_reads(again), _answers(again)) == before
        assert again.validate() == []
        again.close()


@pytest.fixture
def policy_hash():
    from conftest import policy_for

    return policy_for("hash")


@pytest.mark.embedded_only  # SQLite's query plans
def test_the_search_statements_read_the_covering_indexes_only(memory_backend):
    m = memory_backend.new()
    _fill(m)
    store = m.store
    seen: list[tuple[str, object]] = []
    execute = store.execute
    store.execute = lambda sql, params=(): (seen.append((sql, params)), execute(sql, params))[1]
    beliefs = [r["id"] for r in store.find_beliefs("u", history=False)]
    sources = store.evidence_ids("u")
    pairs = [(e.src, e.dst) for e in store.edges_from(sources[:20], ["SUPPORTS"])]
    assert pairs
    seen.clear()
    store.slot_rows(beliefs[:5])
    store.edges_from(sources[:20], ["SUPPORTS", "REFUTES"], direct_only=True)
    store.edges_between(pairs, ["SUPPORTS", "REFUTES"])
    store.execute = execute
    plans = [" / ".join(r[3] for r in execute("EXPLAIN QUERY PLAN " + sql, params)) for sql, params in seen]
    assert len(plans) == 3
    slot, direct, between = plans
    assert "COVERING INDEX belief_id_slot" in slot and "COVERING INDEX belief_slot_rows" in slot, slot
    assert "COVERING INDEX edge_src_rows" in direct, direct
    assert "COVERING INDEX edge_src_rows" in between, between


@pytest.mark.embedded_only  # a file opened read-only
def test_a_read_only_file_without_the_covering_indexes_reads_the_same(memory_backend):
    from bcg_rag.store_sqlite import SQLiteStore

    m = memory_backend.new(durable=True, clock=lambda: NOW)
    _fill(m)
    before = _reads(m)
    _drop_new_indexes(m.store)
    path = m.store.path
    m.close()
    ro = SQLiteStore(path, read_only=True)
    assert not set(SQLITE_INDEXES) & _indexes(ro)

    class Reader:  # what _reads asks of a memory
        store = ro

    assert _reads(Reader) == before
    assert not set(SQLITE_INDEXES) & _indexes(ro)  # nothing was written
    ro.close()


def test_a_value_of_a_thousand_chinese_characters_is_written_and_read_back(memory_backend):
    """PostgreSQL refuses an index entry over 2,704 bytes: no index there holds a belief's
    value (3,000 bytes here, within the default max_field_chars)."""
    m = memory_backend.new(clock=lambda: NOW)
    values = sorted("".join(chr(0x4E00 + (i * k) % 20000) for i in range(1000)) for k in (7919, 104729))
    for day, value in enumerate(values, 1):
        m.observe(f"a long favourite {day}", user_id="u", timestamp=f"2024-01-0{day}", claim=Claim("I", "likes", value))
    assert sorted(r["value"] for r in m.store.find_beliefs("u", history=False)) == values
    ids = [r["id"] for r in m.store.find_beliefs("u", history=False)]
    assert sorted(r["value"] for rows in m.store.slot_rows(ids).values() for r in rows) == values
