"""The storage interface (bcg_rag/store.py) is the only way to the data, both backends
implement all of it, give the same rows for the same history, and the PostgreSQL one
serialises writers per slot."""

from __future__ import annotations

import inspect
import re
import threading
import time
from pathlib import Path

import pytest

from bcg_rag import BeliefMemory, Claim, Policy
from bcg_rag import lifecycle as lc
from bcg_rag.store import GraphStore, slot_lock
from bcg_rag.store_postgres import PostgresStore
from bcg_rag.store_sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1] / "bcg_rag"
INTERFACE = sorted(n for n, v in vars(GraphStore).items() if callable(v) and not n.startswith("_"))


def _backend_module(path: Path) -> bool:
    """The backends' own modules (each split in several: store_sqlite_*.py, store_postgres_*.py)."""
    return path.name.startswith(("store_sqlite", "store_postgres", "store_rows"))


@pytest.mark.parametrize("backend", [SQLiteStore, PostgresStore], ids=["sqlite", "postgres"])
def test_both_backends_implement_the_whole_interface(backend):
    for name in INTERFACE:
        assert callable(getattr(backend, name, None)), f"{backend.__name__} lacks {name}"
        want = list(inspect.signature(getattr(GraphStore, name)).parameters)
        got = list(inspect.signature(getattr(backend, name)).parameters)
        assert got[: len(want)] == want, f"{backend.__name__}.{name}{got} != {want}"


def test_the_code_reaches_data_only_through_the_interface():
    used = set()
    for path in ROOT.rglob("*.py"):
        if _backend_module(path):
            continue
        used |= set(re.findall(r"\bstore\.(\w+)\(", path.read_text(encoding="utf-8")))
    outside = sorted(used - set(INTERFACE) - {"execute"} - set(dir(str)))  # connect.py: store is a URL there
    assert outside == [], f"store methods called but not in store.GraphStore: {outside}"
    # forget.py reads Chroma's own SQLite file (a workaround for the segments Chroma leaves
    # behind), not ours; what it asks of our data goes through names_for_user / holds_text.
    # index_small.py is the evidence index's file of small users' vectors (the index's, as
    # Chroma's files are), reached only through the index.
    sql = [p.name for p in ROOT.rglob("*.py") if not _backend_module(p)
           and p.name not in ("lifecycle.py", "forget.py", "index_small.py")
           and re.search(r"\.execute\(\s*f?[\"'](SELECT|INSERT|UPDATE|DELETE)", p.read_text(encoding="utf-8"))]
    assert sql == []
    assert sorted(p.name for p in ROOT.rglob("*.py") if "index_small" in p.read_text(encoding="utf-8")
                  and p.name != "index_small.py") == ["index.py", "index_checks.py", "index_writes.py"]  # parts of EvidenceIndex


def _history(m: BeliefMemory) -> None:
    """A bit of everything: contexts with a parent, a single-valued slot, an alias merge
    and its undo, a forgotten evidence, an archived and a restored belief, a review."""
    m.observe("I live in Paris", user_id="u1", timestamp="2024-01-01", context="topic:home",
              claims=[Claim("I", "lives_in", "Paris"), Claim("I", "likes", "croissants")])
    m.observe("moved to Berlin", user_id="u1", timestamp="2024-06-01", context="topic:travel", claim=Claim("I", "lives_in", "Berlin"))
    r = m.observe("no more croissants", user_id="u1", timestamp="2024-07-01", claim=Claim("I", "likes", "croissants", -0.8))
    m.observe("Bob's dog Rex likes bones", user_id="u1", timestamp="2024-08-01", agent_id="a1", private=True,
              claim=Claim("Rex", "likes", "bones"))
    merge = m.add_alias("u1", "the dog", "Rex")
    m.observe("the dog hates cats", user_id="u1", timestamp="2024-08-02", claim=Claim("the dog", "likes", "cats", -1.0))
    m.undo_merge(merge)
    m.observe("old note", user_id="u2", timestamp="2020-01-01", claim=Claim("I", "likes", "tea"))
    m.forget_evidence(r.evidence_id)
    m.maintain(now="2024-12-01")
    (archived,) = [a for a in m.archived_beliefs("u2")]
    m.restore(archived["belief_id"], now="2024-12-01")
    hot = m.store.find_beliefs("u1") + m.store.find_beliefs("u2")
    m.review(hot[0]["id"], "confirm", reviewer="ops", now="2024-12-01")


def _dump(m: BeliefMemory) -> dict:
    s = m.store
    out = {kind: s.all_rows(kind) for kind in ("entity", "event", "context", "evidence", "belief")}
    out["edges"] = s.all_edges()
    out["claims"] = [s.claims_for_user(u) for u in ("u1", "u2")]
    out["audit"] = [{k: v for k, v in a.items() if k != "id"} for a in s.audit()]
    out["aliases"] = {e["id"]: s.aliases_of(e["id"]) for e in out["entity"]}
    out["names"] = [sorted(s.names_for_user(u)) for u in ("u1", "u2")]
    out["holds"] = [s.holds_text(t) for t in ("Berlin", "bones", "topic:travel", "no such text")]
    out["aliases_among"] = [s.aliases_among("u1", keys) for keys in (["the dog", "barks"], ["a dog"], ["rex"], [])]
    with lc._cold(m, create=False) as cold:
        out["cold"] = {kind: cold.all_rows(kind) for kind in ("evidence", "belief")} if cold is not None else None
    return out


@pytest.mark.parametrize("store_backend", ["postgres"], indirect=True)
def test_the_same_history_gives_the_same_rows_on_both_backends(memory_backend):
    policy = Policy.default().with_overrides({"contexts": {"topic:home": "topic:life", "topic:travel": "topic:life"}})
    sqlite = BeliefMemory.in_memory(policy, index=None, clock=lambda: "2024-12-01T00:00:00")
    postgres = memory_backend.new(policy, clock=lambda: "2024-12-01T00:00:00")
    for m in (sqlite, postgres):
        _history(m)
    assert _dump(postgres) == _dump(sqlite)
    assert postgres.validate() == sqlite.validate() == []
    sqlite.close()


def _three_cities(m: BeliefMemory) -> None:
    """A single-valued slot with three values: each statement refutes the other two."""
    for i, city in enumerate(["Paris", "Berlin", "Rome"]):
        m.observe(f"I live in {city}", user_id="u", timestamp=f"2024-0{i + 1}-01T00:00:00",
                  claim=Claim("u", "lives_in", city))


@pytest.mark.parametrize("store_backend", ["postgres"], indirect=True)
def test_edges_from_filters_to_beliefs_and_to_the_claims_own_edges_on_both_backends(memory_backend, monkeypatch):
    """``dst_ids`` keeps the edges into those beliefs (in SQL, or in Python past the bound);
    ``direct_only`` drops refutations derived from a single-valued slot."""
    from bcg_rag import store_sqlite_facts
    from bcg_rag.revision import is_derived

    sqlite = BeliefMemory.in_memory(index=None, clock=lambda: "2024-12-01T00:00:00")
    postgres = memory_backend.new(clock=lambda: "2024-12-01T00:00:00")
    for m in (sqlite, postgres):
        _three_cities(m)
        evidence = m.store.evidence_ids("u")
        every = m.store.edges_from(evidence, ["SUPPORTS", "REFUTES"])
        assert any(is_derived(e.reason) for e in every)
        direct = m.store.edges_from(evidence, ["SUPPORTS", "REFUTES"], direct_only=True)
        assert direct and {(e.src, e.dst) for e in direct} == {(e.src, e.dst) for e in every if not is_derived(e.reason)}
        one = every[0].dst
        assert {(e.src, e.dst) for e in m.store.edges_from(evidence, ["SUPPORTS", "REFUTES"], dst_ids=[one])} == {
            (e.src, e.dst) for e in every if e.dst == one}
        assert m.store.edges_from(evidence, ["SUPPORTS", "REFUTES"], dst_ids=[]) == []
    evidence = sqlite.store.evidence_ids("u")
    every = sqlite.store.edges_from(evidence, ["SUPPORTS", "REFUTES"])
    one = every[0].dst
    monkeypatch.setattr(store_sqlite_facts, "MAX_DST_FILTER", 0)  # the Python filter past the bound
    kept = sqlite.store.edges_from(evidence, ["SUPPORTS", "REFUTES"], dst_ids=[one])
    assert kept and {(e.src, e.dst) for e in kept} == {(e.src, e.dst) for e in every if e.dst == one}
    sqlite.close()


@pytest.mark.parametrize("store_backend", ["postgres"], indirect=True)
def test_edges_between_reads_each_pair_only_on_both_backends(memory_backend, monkeypatch):
    """``edges_between`` returns the edges of the (src, dst) pairs asked for, and no other
    edge those sources sent (a busy single-valued slot's refutations), past a chunk too;
    read back, an edge equals the one written."""
    from bcg_rag import store_sqlite_facts

    sqlite = BeliefMemory.in_memory(index=None, clock=lambda: "2024-12-01T00:00:00")
    postgres = memory_backend.new(clock=lambda: "2024-12-01T00:00:00")
    for m in (sqlite, postgres):
        _three_cities(m)
        every = m.store.edges_from(m.store.evidence_ids("u"), ["SUPPORTS", "REFUTES"])
        asked = [(e.src, e.dst) for e in every[::2]] + [("ev_none", every[0].dst)]
        got = m.store.edges_between(asked, ["SUPPORTS", "REFUTES"])
        assert sorted(got, key=lambda e: (e.src, e.dst)) == sorted(every[::2], key=lambda e: (e.src, e.dst))
        assert m.store.edges_between([], ["SUPPORTS"]) == []
    monkeypatch.setattr(store_sqlite_facts, "PAIRS_PER_STATEMENT", 1)  # one pair a statement
    every = sqlite.store.edges_from(sqlite.store.evidence_ids("u"), ["SUPPORTS", "REFUTES"])
    assert sorted(sqlite.store.edges_between([(e.src, e.dst) for e in every], ["SUPPORTS", "REFUTES"]),
                  key=lambda e: (e.src, e.dst, e.relation)) == sorted(every, key=lambda e: (e.src, e.dst, e.relation))
    sqlite.close()


def _stores(memory_backend) -> tuple:
    m = memory_backend.new()
    return m.store, PostgresStore(m.store.dsn, m.store.schema)


def _in_thread(fn) -> tuple[threading.Thread, list]:
    done: list = []

    def run():
        fn()
        done.append(time.monotonic())

    t = threading.Thread(target=run)
    t.start()
    return t, done


@pytest.mark.parametrize("store_backend", ["postgres"], indirect=True)
def test_writers_of_one_slot_queue_and_others_pass(memory_backend):
    a, b = _stores(memory_backend)
    k1, k2 = slot_lock("u", "lives_in", ""), slot_lock("u", "likes", "")

    def inside(locks):
        def fn():
            with b.transaction(locks):
                pass
        return fn

    with a.transaction([k1]):
        other, done_other = _in_thread(inside([k2]))  # another slot: runs beside us
        other.join(timeout=10)
        assert done_other
        same, done_same = _in_thread(inside([k1]))  # the same slot: waits for our commit
        alone, done_alone = _in_thread(inside(None))  # no slots named: runs alone, so waits too
        time.sleep(0.5)
        assert not done_same and not done_alone
        released = time.monotonic()  # taken before our commit: a waiter that finishes earlier did not wait
    same.join(timeout=10)
    alone.join(timeout=10)
    assert done_same and done_alone and min(done_same + done_alone) >= released
    b.close()


@pytest.mark.parametrize("store_backend", ["postgres"], indirect=True)
def test_a_transaction_that_loses_a_deadlock_is_run_again(memory_backend):
    a, b = _stores(memory_backend)
    barrier = threading.Barrier(2)
    attempts = []

    def writer(store, first, second):
        def fn():
            attempts.append(first)
            store.insert_node("event", dict(id=first, event_type="t", timestamp="2025-01-01"))
            if attempts.count(first) == 1:
                barrier.wait(timeout=10)  # both hold their first row: each now wants the other's
            store.insert_node("event", dict(id=second, event_type="t", timestamp="2025-01-01"))
        return lambda: store.run(fn, locks=[])

    t1, d1 = _in_thread(writer(a, "x", "y"))
    t2, d2 = _in_thread(writer(b, "y", "x"))
    t1.join(timeout=30)
    t2.join(timeout=30)
    assert d1 and d2 and len(attempts) >= 3  # PostgreSQL aborted one (at least) and it was run again
    assert set(a.get_nodes("event", ["x", "y"])) == {"x", "y"}
    b.close()


def test_the_sqlite_page_cache_comes_from_the_policy_and_the_wal_is_copied_back_in_bulk(tmp_path):
    # SQLite's own 2 MiB cache sends a large memory's B-tree pages back through the OS on
    # every write; the policy's cache_mib (64 by default) is what the file is opened with.
    hashed = {"embedder": {"kind": "hash"}}
    m = BeliefMemory.open(tmp_path / "default", Policy.from_dict(hashed))
    assert m.store.execute("PRAGMA cache_size")[0][0] == -64 * 1024
    # And the WAL is copied back every 10,000 pages, not SQLite's 1,000.
    assert m.store.execute("PRAGMA wal_autocheckpoint")[0][0] == 10_000
    m.close()
    m = BeliefMemory.open(tmp_path / "small", Policy.from_dict(dict(hashed, storage={"cache_mib": 8})))
    assert m.store.execute("PRAGMA cache_size")[0][0] == -8 * 1024
    with lc._cold(m) as archive:  # the archive beside it too
        assert archive.execute("PRAGMA cache_size")[0][0] == -8 * 1024
    m.close()


@pytest.mark.parametrize("store_backend", ["sqlite", "postgres"], indirect=True)
def test_put_edges_writes_what_put_edge_writes_one_by_one(memory_backend):
    """``put_edges`` (one statement) ends with the edges ``put_edge`` leaves edge by edge:
    of two edges with one key the later stays, a stored edge is overwritten whole, and an
    unknown relation fails the call."""
    from bcg_rag.errors import UnknownRelationError
    from bcg_rag.models import Edge

    def edges(tag: str) -> list[Edge]:
        return [Edge(f"ev{tag}", "bel_b", "SUPPORTS", weight=0.5, value=1, valid_from="2024-01-01", source_type="user_explicit"),
                Edge(f"ev{tag}", "bel_a", "REFUTES", weight=0.25, value=-0.5, valid_from="2024-01-02", reason="functional:x"),
                Edge(f"ev{tag}", "bel_b", "SUPPORTS", weight=0.75, value=0.5, valid_from="2024-01-03"),
                Edge("bel_a", "ent_x", "BELONGS_TO")]

    one_by_one, batched = memory_backend.new(), memory_backend.new()
    with one_by_one.store.transaction():
        for e in edges("1") + edges("2"):
            one_by_one.store.put_edge(e)
    with batched.store.transaction():
        batched.store.put_edges(edges("1"))
        batched.store.put_edges(edges("2"))
        batched.store.put_edges([])
    assert batched.store.all_edges() == one_by_one.store.all_edges()
    (kept,) = [e for e in batched.store.all_edges() if e.src == "ev1" and e.dst == "bel_b"]
    assert (kept.weight, kept.value, kept.valid_from, kept.source_type) == (0.75, 0.5, "2024-01-03", None)
    bad = Edge("ev3", "bel_a", "SUPPORTS")
    object.__setattr__(bad, "relation", "LIKES")
    with pytest.raises(UnknownRelationError):
        with batched.store.transaction():
            batched.store.put_edges([Edge("ev3", "bel_b", "SUPPORTS"), bad])
    assert batched.store.all_edges() == one_by_one.store.all_edges()
