"""Issue 2: the belief context graph core, through the public API."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bcg_rag import (
    BCGError,
    BeliefMemory,
    Claim,
    EmptyTextError,
    InvalidInputError,
    InvalidStanceError,
    InvalidTimestampError,
    InvalidWeightError,
    MissingUserError,
    NotFoundError,
    Policy,
    UnknownRelationError,
    UnknownSourceTypeError,
)
from bcg_rag.models import Edge
from servers import BACKENDS, CURRENT, open_spec

SEED_1 = dict(
    text="我爱喝美式咖啡，每天都要来一杯", user_id="u_001", timestamp="2025-03-01T10:00:00",
    source="dialog:2025-03-01T10:00:00", source_type="user_explicit", context="topic:coffee",
    claim=Claim(subject="u_001", predicate="prefers_coffee_type", value="americano", stance=1.0),
)
SEED_2 = dict(
    text="最近开始戒咖啡因了，先把美式停掉", user_id="u_001", timestamp="2025-06-10T09:00:00",
    source="dialog:2025-06-10T09:00:00", source_type="user_explicit", context="topic:coffee",
    claim=Claim(subject="u_001", predicate="prefers_coffee_type", value="americano", stance=-0.8),
)


# Every test here runs on each storage backend: SQLite (embedded) and PostgreSQL (server
# mode; skipped where PostgreSQL cannot run). ``mem()`` makes a fresh memory on it.
pytestmark = [pytest.mark.parametrize("store_backend", BACKENDS, indirect=True), pytest.mark.usefixtures("on_backend")]


def mem(**kw):
    return CURRENT["backend"].new(index=None, **kw)


def snapshot(m: BeliefMemory, user_id: str):
    return sorted((b.id, b.value, round(b.confidence, 12), [(h.evidence_id, round(h.new, 12)) for h in b.history])
                  for b in m.beliefs(user_id, now="2030-01-01T00:00:00"))


def test_seed_scenario_end_to_end():
    m = mem()
    r1 = m.observe(**SEED_1)
    assert not r1.duplicate and r1.changes[0].old is None and r1.changes[0].new == pytest.approx(0.6)
    r2 = m.observe(**SEED_2)
    (change,) = r2.changes
    assert change.old == pytest.approx(0.6) and change.new == pytest.approx(-0.1)
    (belief,) = m.beliefs("u_001")
    assert belief.value == "americano" and belief.contexts == ["topic:coffee"]
    ex = m.explain(belief.id, now="2025-06-10T09:00:00", user_id="u_001")
    assert [s["text"] for s in ex.supporters] == [SEED_1["text"]]
    assert [s["text"] for s in ex.refuters] == [SEED_2["text"]]
    assert ex.refuters[0]["weight"] == 0.5 and ex.refuters[0]["value"] == -0.8
    assert [round(h["new"], 6) for h in ex.history] == [0.6, -0.1]
    assert ex.band == "lean_negative" and not ex.asserted
    assert SEED_2["text"] in str(ex) and "-0.100" in str(ex)
    assert json.loads(ex.to_json())["belief"]["predicate"] == "prefers_coffee_type"
    assert m.validate() == []


def test_decay_is_a_read_time_view_without_compounding():
    m = mem()
    m.observe(**SEED_1)
    (b,) = m.beliefs("u_001", now="2025-03-01T10:00:00")
    for _ in range(5):  # reading many times changes nothing (a preference: 180-day half-life)
        at_180 = m.beliefs("u_001", now="2025-08-28T10:00:00")[0]
        at_360 = m.beliefs("u_001", now="2026-02-24T10:00:00")[0]
    assert at_180.effective_confidence == pytest.approx(0.3)
    assert at_360.effective_confidence == pytest.approx(0.15)
    assert at_360.confidence == pytest.approx(0.6) and len(at_360.history) == 1
    # Age is not doubt: a year later it is still stated, in a lower band.
    assert m.asserted(at_360) and at_360.band == "low"
    assert m.store.get_node("belief", b.id)["confidence"] == pytest.approx(0.6)


def test_half_life_per_predicate_from_policy():
    m = mem(policy=Policy.default().with_overrides({"decay": {"per_predicate": {"mood": 10.0}}}))
    m.observe(text="I feel great", user_id="u", timestamp="2025-01-01", claim=Claim("I", "mood", "great"))
    assert m.beliefs("u", now="2025-01-11")[0].effective_confidence == pytest.approx(0.3)


def test_context_scoping_creates_a_separate_belief():
    m = mem()
    m.observe(text="At the office I drink an Americano every day", user_id="u", timestamp="2025-01-01",
              context="topic:office", claim=Claim("I", "drinks", "americano"))
    r = m.observe(text="For my health: no caffeine", user_id="u", timestamp="2025-02-01",
                  context="topic:health", claim=Claim("I", "drinks", "americano", -0.8))
    office = m.beliefs("u", context="topic:office")
    health = m.beliefs("u", context="topic:health")
    assert len(office) == 1 and office[0].confidence == pytest.approx(0.6)
    assert len(health) == 1 and health[0].confidence == pytest.approx(-0.48)
    assert [c.belief_id for c in r.changes] == [health[0].id]


def test_contexts_sharing_a_parent_change_one_belief():
    policy = Policy.default().with_overrides({"contexts": {"topic:latte": "topic:coffee", "topic:americano": "topic:coffee"}})
    m = mem(policy=policy)
    m.observe(text="I like coffee", user_id="u", timestamp="2025-01-01", context="topic:latte", claim=Claim("I", "likes", "coffee"))
    m.observe(text="I don't like coffee", user_id="u", timestamp="2025-02-01", context="topic:americano",
              claim=Claim("I", "likes", "coffee", -1.0))
    (b,) = m.beliefs("u")
    assert b.contexts == ["topic:americano", "topic:latte"] and b.confidence == pytest.approx(0.6 + 0.5 * (-1.6))


def test_functional_replacement_and_supersession():
    m = mem()
    m.observe(text="I live in Paris", user_id="u", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Paris"))
    m.observe(text="I moved to Berlin last month", user_id="u", timestamp="2025-05-01", claim=Claim("I", "lives_in", "Berlin"))
    berlin, paris = m.beliefs("u", now="2025-05-01")
    assert berlin.value == "Berlin" and berlin.confidence == pytest.approx(0.6)
    # Berlin's support refutes Paris as strongly as Berlin is first believed: 0.6 + 0.5 * (-0.6 - 0.6).
    assert paris.value == "Paris" and paris.confidence == pytest.approx(0.0)
    ex = m.explain(paris.id, user_id="u")
    assert ex.refuters[0]["reason"] == "functional:lives_in"
    assert ex.superseded_by[0]["value"] == "Berlin"
    assert m.explain(berlin.id, user_id="u").supersedes[0]["value"] == "Paris"
    # Non-functional predicates keep both values.
    m.observe(text="I like tea", user_id="v", timestamp="2025-01-01", claim=Claim("I", "likes", "tea"))
    m.observe(text="I also like coffee", user_id="v", timestamp="2025-02-01", claim=Claim("I", "likes", "coffee"))
    assert [round(b.confidence, 6) for b in m.beliefs("v")] == [0.6, 0.6]
    assert m.validate() == []


def test_a_model_guess_does_not_overturn_the_user():
    m = mem()
    m.observe(text="I live in Paris", user_id="u", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Paris"))
    m.observe(text="(inferred) lives in Lyon", user_id="u", timestamp="2025-02-01", source_type="model_inferred",
              claim=Claim("I", "lives_in", "Lyon"))
    paris, lyon = m.beliefs("u", now="2025-02-01")
    assert (paris.value, lyon.value) == ("Paris", "Lyon")
    # A weaker source's rival value is a conflict: recorded, shown, but Paris does not move.
    assert paris.confidence == pytest.approx(0.6) and m.asserted(paris)
    assert paris.history[-1].reason == "conflict:functional:lives_in"
    assert lyon.confidence == pytest.approx(0.2) and not m.asserted(lyon)


def test_reassert_after_replacement():
    m = mem()
    for ts, city in (("2025-01-01", "Paris"), ("2025-03-01", "Berlin"), ("2025-06-01", "Paris")):
        m.observe(text=f"I live in {city}", user_id="u", timestamp=ts, claim=Claim("I", "lives_in", city))
    top = m.beliefs("u", now="2025-06-01")[0]
    assert top.value == "Paris" and top.confidence == pytest.approx(0.5) and m.asserted(top)


def test_dedup_is_a_no_op():
    m = mem()
    m.observe(**SEED_1)
    again = m.observe(**dict(SEED_1, text="  我爱喝美式咖啡，每天都要来一杯 "))
    assert again.duplicate and again.changes == []
    assert m.store.count("evidence") == 1
    (b,) = m.beliefs("u_001")
    assert b.confidence == pytest.approx(0.6) and len(b.history) == 1


def test_observe_many_is_one_transaction_and_reports_changes():
    m = mem()
    results = m.observe_many([SEED_1, SEED_2, SEED_1])
    assert [r.duplicate for r in results] == [False, False, True]
    assert results[1].changes[0].new == pytest.approx(-0.1)
    with pytest.raises(EmptyTextError):
        m.observe_many([dict(SEED_1, source="x"), dict(SEED_1, text="")])
    assert m.store.count("evidence") == 2  # the valid first item was not written either


CITIES = ["Paris", "Berlin", "Rome"]


@st.composite
def evidence_sequences(draw):
    n = draw(st.integers(1, 8))
    items = []
    for i in range(n):
        pred = draw(st.sampled_from(["lives_in", "likes"]))
        items.append(dict(
            text=f"statement {i}", user_id="u", timestamp=f"2025-0{draw(st.integers(1, 9))}-0{draw(st.integers(1, 9))}T00:00:00",
            source=f"s{i}", source_type=draw(st.sampled_from(["user_explicit", "third_party", "model_inferred"])),
            context=draw(st.sampled_from([None, "topic:home"])),
            claim=Claim("I", pred, draw(st.sampled_from(CITIES)), draw(st.sampled_from([1.0, 0.5, -0.8, -1.0]))),
        ))
    order = draw(st.permutations(list(range(n))))
    return items, order


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evidence_sequences())
def test_order_independence(seq):
    items, order = seq
    a, b = mem(), mem()
    for it in items:
        a.observe(**it)
    for i in order:
        b.observe(**items[i])
    assert snapshot(a, "u") == snapshot(b, "u")
    assert sorted((e.src, e.dst, e.relation) for e in a.store.all_edges()) == sorted(
        (e.src, e.dst, e.relation) for e in b.store.all_edges())
    assert a.validate() == [] and b.validate() == []


def test_as_of_replay():
    m = mem()
    m.observe(text="I live in Paris", user_id="u", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Paris"))
    m.observe(text="I moved to Berlin", user_id="u", timestamp="2025-05-01", claim=Claim("I", "lives_in", "Berlin"))
    then = m.beliefs("u", as_of="2025-03-01")
    assert [(b.value, round(b.confidence, 6)) for b in then] == [("Paris", 0.6)]
    assert then[0].effective_confidence == pytest.approx(0.6 * 0.5 ** ((31 + 28) / 1095))  # lives_in: a status, 3 years
    assert m.beliefs("u", as_of="2024-12-31") == []
    paris = [b for b in m.beliefs("u") if b.value == "Paris"][0]
    assert m.explain(paris.id, as_of="2025-03-01", user_id="u").refuters == []
    assert len(m.explain(paris.id, user_id="u").refuters) == 1
    with pytest.raises(NotFoundError):
        m.explain([b for b in m.beliefs("u") if b.value == "Berlin"][0].id, as_of="2025-03-01", user_id="u")


def test_alias_resolution_and_undo():
    m = mem()
    m.observe(text="小张住在上海", user_id="u", timestamp="2025-01-01", claim=Claim("小张", "lives_in", "上海"))
    m.observe(text="zhang_san moved to 北京", user_id="u", timestamp="2025-03-01", claim=Claim("zhang_san", "lives_in", "北京"))
    assert len({b.subject_id for b in m.beliefs("u")}) == 2
    merges = [m.add_alias("u", "小张", "张三"), m.add_alias("u", "zhang_san", "张三"), m.add_alias("u", "用户张三", "张三")]
    ids = {m.resolve_entity("u", n) for n in ("小张", "zhang_san", "用户张三", "张三")}
    assert len(ids) == 1
    beliefs = m.beliefs("u", subject="张三", now="2025-03-01")
    assert [(b.value, round(b.confidence, 6)) for b in beliefs] == [("北京", 0.6), ("上海", 0.0)]
    assert [a["action"] for a in m.store.audit()] == ["alias_merge"] * 3
    m.undo_merge(merges[1])
    assert m.resolve_entity("u", "zhang_san") != m.resolve_entity("u", "张三")
    assert [round(b.confidence, 6) for b in m.beliefs("u", subject="小张")] == [0.6]
    assert m.store.audit(action="alias_undo")[0]["target"] == str(merges[1])
    assert m.validate() == []


def test_validate_catches_corruption():
    m = mem()
    m.observe(**SEED_1)
    m.observe(**SEED_2)
    assert m.validate() == []
    m.store.execute("UPDATE belief SET confidence = 0.99")
    problems = m.validate()
    assert problems and "does not match its evidence" in problems[0]
    m.store.execute("DELETE FROM edge WHERE relation = 'OCCURRED_IN'")
    assert any("OCCURRED_IN" in p for p in m.validate())


def test_reopen_after_close(memory_backend):
    m = memory_backend.new(durable=True)
    spec = memory_backend.spec(m)
    m.observe(**SEED_1)
    m.observe(**SEED_2)
    before = snapshot(m, "u_001")
    m.close()
    m2 = open_spec(spec, index=None)
    assert snapshot(m2, "u_001") == before and m2.validate() == []
    if not memory_backend.server:
        assert (m2.path / "policy.toml").exists()
        assert Policy.load(m2.path / "policy.toml").data == Policy.default().data
    else:
        assert m2.policy.data == Policy.default().data  # the policy lives in the database
    m2.close()


def test_sigkill_mid_ingest_loses_nothing_acknowledged(memory_backend):
    first = memory_backend.new(durable=True)
    spec = memory_backend.spec(first)
    first.close()
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("_ingest_proc.py")), spec, "100000"],
                            stdout=subprocess.PIPE, text=True)
    acked = []
    wanted = 100 if memory_backend.server else 300  # PostgreSQL's durability is PostgreSQL's: fewer suffice
    deadline = time.time() + 60
    while len(acked) < wanted and time.time() < deadline:
        acked.append(proc.stdout.readline().strip())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    m = open_spec(spec, index=None)  # embedded: the dead process's lock is taken over
    stored = set(m.store.evidence_ids())
    assert len(acked) >= wanted and set(acked) <= stored
    assert m.validate() == []
    m.close()


def test_two_processes_write_the_same_memory(memory_backend):
    first = memory_backend.new(durable=True)
    spec = memory_backend.spec(first)
    script = str(Path(__file__).with_name("_ingest_proc.py"))
    if not memory_backend.server:  # embedded: one process per directory; another is told who holds it
        refused = subprocess.run([sys.executable, script, spec, "5"], capture_output=True, text=True, timeout=120)
        assert refused.returncode == 3, refused.stderr
        assert f"pid {os.getpid()}" in refused.stderr and "server mode" in refused.stderr
    first.close()
    procs = [subprocess.Popen([sys.executable, script, spec, "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2 if memory_backend.server else 1)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    m = open_spec(spec, index=None)
    ids = [o[0].split() for o in outs]
    assert all(set(i) == set(ids[0]) for i in ids) and set(ids[0]) <= set(m.store.evidence_ids())  # deduplicated
    assert m.validate() == []
    m.close()


BAD_INPUTS = [
    (dict(claim=Claim("u_001", "p", "v", 1.0)), None),
    (dict(text=""), EmptyTextError),
    (dict(text="   "), EmptyTextError),
    (dict(user_id=None), MissingUserError),
    (dict(user_id=""), MissingUserError),
    (dict(timestamp="yesterday-ish"), InvalidTimestampError),
    (dict(timestamp=None), InvalidTimestampError),
    (dict(weight=1.5), InvalidWeightError),
    (dict(weight=float("nan")), InvalidWeightError),
    (dict(source_type="gossip"), UnknownSourceTypeError),
    (dict(claim={"subject": "u", "predicate": "p", "value": "v", "stance": 2.0}), InvalidStanceError),
    (dict(claim={"subject": "u", "predicate": "p", "value": "v", "stance": float("nan")}), InvalidStanceError),
    (dict(claim={"subject": "", "predicate": "p", "value": "v"}), InvalidInputError),
    (dict(context=""), InvalidInputError),
]


@pytest.mark.parametrize("override,error", BAD_INPUTS[1:])
def test_bad_input_is_rejected_and_changes_nothing(override, error):
    m = mem()
    m.observe(**SEED_1)
    before = (snapshot(m, "u_001"), m.store.count("evidence"), len(m.store.all_edges()))
    with pytest.raises(error) as info:
        m.observe(**dict(SEED_2, **override))
    assert isinstance(info.value, BCGError)
    assert (snapshot(m, "u_001"), m.store.count("evidence"), len(m.store.all_edges())) == before


def test_stance_out_of_range_on_a_claim_object():
    with pytest.raises(InvalidStanceError):
        Claim("u", "p", "v", -1.01)


def test_unknown_relation_is_rejected():
    with pytest.raises(UnknownRelationError):
        Edge("a", "b", "LIKES")
    m = mem()
    with pytest.raises(BCGError):
        m.store.execute("INSERT INTO edge (src, dst, relation) VALUES ('a', 'b', 'LIKES')")


def test_reads_need_a_user_unless_global():
    m = mem()
    m.observe(**SEED_1)
    m.observe(**dict(SEED_1, user_id="someone_else"))
    with pytest.raises(MissingUserError):
        m.beliefs()
    assert len(m.beliefs(global_read=True)) == 2
    assert len(m.beliefs("u_001")) == 1
    b = m.beliefs("someone_else")[0]
    with pytest.raises(NotFoundError):
        m.explain(b.id, user_id="u_001")


def test_to_networkx_export():
    m = mem()
    m.observe(**SEED_1)
    m.observe(**SEED_2)
    g = m.to_networkx()
    assert isinstance(g, nx.MultiDiGraph)
    kinds = {d["kind"] for _, d in g.nodes(data=True)}
    assert kinds == {"entity", "event", "context", "evidence", "belief"}
    relations = {k for _, _, k in g.edges(keys=True)}
    assert relations == {"SUPPORTS", "REFUTES", "BELONGS_TO", "CONTEXT_OF", "OCCURRED_IN"}
    assert m.to_networkx(user_id="nobody").number_of_nodes() == 0
