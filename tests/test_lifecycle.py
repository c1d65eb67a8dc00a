"""Lifecycle: weak, invalidated and archived beliefs, review, audit, and several agents
sharing one user's beliefs (deletion on request: ``test_lifecycle_forget.py``). Every clock
is injected."""

import math
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from servers import BACKENDS, CURRENT

from bcg_rag import BeliefMemory, Claim, InvalidInputError, NotFoundError, Policy
from bcg_rag import archive as ar
from bcg_rag import lifecycle as lc
from bcg_rag import review as rv

T0 = "2025-01-01T00:00:00"
HASH = {"embedder": {"kind": "hash"}}  # deterministic embedder: a real Chroma index, no model
# The lifecycle's own numbers, pinned here so these tests check its mechanics whatever the
# default policy says: "likes" fades with a 90-day half-life, idle beliefs archive after 180 days.
# Time passes through the now= arguments while the clock stays at day 0, so evidence
# "from the future" of the clock is what these tests are made of.
LIFECYCLE = {"decay": {"per_predicate": {"likes": 90.0}}, "lifecycle": {"archive_after_days": 180.0},
             "limits": {"max_future_skew_days": 36500.0}}


def day(n: float) -> str:
    return (datetime.fromisoformat(T0) + timedelta(days=n)).isoformat(timespec="seconds")


# Every test here runs on each storage backend (SQLite; PostgreSQL in server mode, where
# the cold store is a second schema), except those marked embedded_only.
pytestmark = [pytest.mark.parametrize("store_backend", BACKENDS, indirect=True), pytest.mark.usefixtures("on_backend")]


def mem(overrides: dict | None = None, index: bool = False) -> BeliefMemory:
    policy = Policy.default().with_overrides(LIFECYCLE).with_overrides(dict(overrides or {}, **(HASH if index else {})))
    return CURRENT["backend"].new(policy, index="auto" if index else None, clock=lambda: day(0))


def healthy(m: BeliefMemory) -> None:
    assert m.validate() == []
    assert ar.cold_problems(m) == []


def likes(m, value, t, stance=1.0, user="u1", **kw):
    text = kw.pop("text", f"{'likes' if stance > 0 else 'dislikes'} {value} (said {t})")
    return m.observe(text, user_id=user, timestamp=t, source=f"chat:{t}:{value}", claim=Claim("user", "likes", value, stance), **kw)


def belief_id(m, value, user="u1", predicate="likes") -> str:
    (b,) = [b for b in m.beliefs(user, predicate=predicate, now=day(0)) if b.value == value]
    return b.id


def status(m, bid) -> str:
    return m.get_belief(bid, user_id="u1")["status"]


def explained(m, bid, **kw) -> dict:
    kw.setdefault("user_id", "u1")
    d = m.explain(bid, now=day(400), **kw).to_dict()
    d.pop("now")
    return d


def hot_ids(m) -> set:
    return {r["id"] for r in m.store.find_beliefs(None)}


# --- weak ------------------------------------------------------------------------------------
def test_weak_at_its_threshold_and_back_with_new_evidence():
    m = mem()
    likes(m, "tea", day(0))  # 0.6, half-life 90 days: effective 0.6 * 0.5 ** (d / 90)
    bid = belief_id(m, "tea")
    crossing = 90 * math.log2(0.6 / 0.2)  # effective confidence reaches weak_below (0.2) here: 142.6 days
    before, at = math.floor(crossing), math.ceil(crossing)

    lc.maintain(m, now=day(before))
    assert status(m, bid) == "active" and m.beliefs("u1", now=day(before))[0].effective_confidence > 0.2
    healthy(m)
    counts = lc.maintain(m, now=day(at))
    assert counts["weaken"] == 1 and status(m, bid) == "weak"
    assert m.beliefs("u1", now=day(at))[0].effective_confidence < 0.2
    healthy(m)

    ex = m.explain(bid, user_id="u1", now=day(at))  # weak is an age label: still explainable, still stated (hedged)
    assert ex.belief["status"] == "weak" and ex.asserted and ex.band == "low" and len(ex.supporters) == 1
    (entry,) = rv.audit(m, user_id="u1", action="weaken")
    assert entry["target"] == bid and entry["actor"] == "maintain" and entry["at"] == day(at)

    likes(m, "tea", day(150))  # still updated by new evidence: 0.6 + 0.5 * (1 - 0.6)
    assert m.get_belief(bid, user_id="u1")["confidence"] == pytest.approx(0.8) and status(m, bid) == "weak"
    lc.maintain(m, now=day(150))  # back above the threshold: active at the next maintain
    assert status(m, bid) == "active" and m.explain(bid, user_id="u1", now=day(150)).asserted
    assert [a["action"] for a in rv.audit(m, user_id="u1")] == ["weaken", "reactivate"]
    healthy(m)


# --- invalidated -----------------------------------------------------------------------------
def test_invalidated_after_enough_refutations_below_the_floor_for_long_enough():
    m = mem()
    likes(m, "durian", day(0))  # 0.6
    likes(m, "durian", day(1), stance=-1.0)  # 0.6 + 0.5 * (-1 - 0.6) = -0.2
    likes(m, "durian", day(2), stance=-1.0)  # -0.2 + 0.5 * (-1 + 0.2) = -0.6: below -0.4 since day 2
    likes(m, "okra", day(2), stance=-1.0)  # -0.6 too, but refuted only once: never invalidated
    durian, okra = belief_id(m, "durian"), belief_id(m, "okra")
    assert m.get_belief(durian, user_id="u1")["confidence"] == pytest.approx(-0.6)

    lc.maintain(m, now=day(2 + 29))
    assert status(m, durian) == "weak" and status(m, okra) == "weak"
    counts = lc.maintain(m, now=day(2 + 30))
    assert counts["invalidate"] == 1 and status(m, durian) == "invalidated" and status(m, okra) == "weak"
    healthy(m)

    ex = m.explain(durian, user_id="u1", now=day(40))  # kept for explanation, never current
    assert ex.belief["status"] == "invalidated" and not ex.asserted and len(ex.refuters) == 2
    assert rv.audit(m, action="invalidate")[0]["target"] == durian
    assert durian not in {q["belief_id"] for q in rv.review_queue(m, now=day(40))}  # settled: not queued


# --- archived --------------------------------------------------------------------------------
def test_archived_at_its_threshold_searchable_and_restorable():
    m = mem()
    likes(m, "tea", day(0), text="I drink green tea every morning")
    likes(m, "tea", day(5), text="oolong tea is my favourite")
    likes(m, "coffee", day(10), text="a flat white please")
    tea, coffee = belief_id(m, "tea"), belief_id(m, "coffee")

    lc.maintain(m, now=day(5 + 179))
    assert tea in hot_ids(m)
    counts = lc.maintain(m, now=day(5 + 180))
    assert counts["archive"] == 1 and hot_ids(m) == {coffee}  # coffee: only 175 days idle
    assert m.store.count("evidence") == 1  # tea's evidence left the hot graph too
    healthy(m)

    (arch,) = ar.archived_beliefs(m, "u1")
    assert arch["belief_id"] == tea and arch["value"] == "tea" and arch["confidence"] == pytest.approx(0.8)
    assert arch["evidence"] == ["I drink green tea every morning", "oolong tea is my favourite"]
    (hit,) = ar.search_archived(m, "which tea do I like", user_id="u1")
    assert hit["belief_id"] == tea and hit["score"] > 0
    assert ar.search_archived(m, "tea", user_id="someone else") == []

    assert lc.restore(m, tea, now=day(190)) == [tea]
    assert hot_ids(m) == {tea, coffee} and ar.archived_beliefs(m, "u1") == [] and m.store.count("evidence") == 3
    healthy(m)
    lc.maintain(m, now=day(191))  # a restored belief gets a fresh idle period...
    assert tea in hot_ids(m)
    lc.maintain(m, now=day(190 + 180))  # ...and is archived again when it runs out
    assert tea not in hot_ids(m)
    # At day 185 tea was exactly at weak_below (0.8 * 0.5 ** 2 = 0.2, not below): archived while active.
    assert [a["action"] for a in rv.audit(m, user_id="u1") if a["target"] == tea] == ["archive", "restore", "weaken", "archive"]
    with pytest.raises(NotFoundError):
        lc.restore(m, "bel_nope")
    healthy(m)


def test_new_evidence_for_an_archived_belief_brings_it_back_merged():
    m = mem()
    likes(m, "tea", day(0))
    tea = belief_id(m, "tea")
    lc.maintain(m, now=day(200))
    assert tea not in hot_ids(m)
    likes(m, "tea", day(201))  # the memory makes a fresh hot belief with the same id...
    assert m.get_belief(tea, user_id="u1")["confidence"] == pytest.approx(0.6)
    assert lc.maintain(m, now=day(202))["restore"] == 1  # ...which maintain merges with the archive
    assert len(m.get_belief(tea, user_id="u1")["history"]) == 2
    assert m.get_belief(tea, user_id="u1")["confidence"] == pytest.approx(0.8) and ar.archived_beliefs(m, "u1") == []
    healthy(m)


@pytest.mark.parametrize("index", [False, True], ids=["no-index", "chroma"])
def test_archive_then_restore_gives_the_same_explanation(index):
    long = {"decay": {"per_predicate": {"likes": 3650.0, "lives_in": 3650.0}}}  # statuses stay put
    m = mem(long, index=index)
    # One evidence, two beliefs: tea goes cold, durian stays hot, so the evidence is copied.
    m.observe("tea and durian, yes", user_id="u1", timestamp=day(0), context="topic:food", agent_id="a1",
              claims=[Claim("user", "likes", "tea"), Claim("user", "likes", "durian")])
    m.observe("secret tea ritual", user_id="u1", timestamp=day(5), context="topic:food", agent_id="a1", private=True,
              claim=Claim("user", "likes", "tea"))
    m.observe("durian is fine actually", user_id="u1", timestamp=day(200), context="topic:food", agent_id="a2",
              claim=Claim("user", "likes", "durian", 0.5))
    # A single-valued slot: Berlin's support refutes Paris, so the two move together.
    m.observe("I live in Paris", user_id="u1", timestamp=day(0), claim=Claim("user", "lives_in", "Paris"))
    m.observe("moved to Berlin", user_id="u1", timestamp=day(20), claim=Claim("user", "lives_in", "Berlin"))
    tea, durian = belief_id(m, "tea"), belief_id(m, "durian")
    paris, berlin = belief_id(m, "Paris", predicate="lives_in"), belief_id(m, "Berlin", predicate="lives_in")
    lc.maintain(m, now=day(30))  # settle statuses first (Paris, refuted by Berlin, is weak): only archiving differs below
    assert status(m, paris) == "weak" and hot_ids(m) == {tea, durian, paris, berlin}
    views = [dict(), dict(agent_id="a1"), dict(agent_id="a2")]
    before = {b: [explained(m, b, **v) for v in views] for b in (tea, durian, paris, berlin)}
    assert "secret tea ritual" not in str(before[tea][2]) and "secret tea ritual" in str(before[tea][1])

    counts = lc.maintain(m, now=day(210))
    assert counts["archive"] == 3 and hot_ids(m) == {durian}
    shared = m.store.evidence_ids("u1")
    assert len(shared) == 2  # "tea and durian, yes" stayed hot (copied), the other tea evidence moved
    assert {a["belief_id"] for a in ar.archived_beliefs(m, "u1")} == {tea, paris, berlin}
    healthy(m)
    if index:
        assert m.index.count("u1") == 2  # vectors of evidence no hot belief uses are gone

    assert lc.restore(m, tea, now=day(211)) == [tea]
    assert sorted(lc.restore(m, berlin, now=day(211))) == sorted([paris, berlin])  # the slot comes back whole
    healthy(m)
    if index:
        assert m.index.count("u1") == 5
    after = {b: [explained(m, b, **v) for v in views] for b in (tea, durian, paris, berlin)}
    assert after == before


# --- idempotence and concurrency -------------------------------------------------------------
def test_maintain_twice_is_maintain_once():
    m = mem()
    likes(m, "tea", day(0))
    likes(m, "durian", day(0))
    likes(m, "durian", day(1), stance=-1.0)
    likes(m, "durian", day(2), stance=-1.0)
    likes(m, "coffee", day(100))
    likes(m, "cocoa", day(190))
    first = lc.maintain(m, now=day(200))
    assert first["archive"] == 2 and first["weaken"] >= 1
    snapshot = ({r["id"]: r["status"] for r in m.store.find_beliefs(None)}, len(rv.audit(m)),
                [a["belief_id"] for a in ar.archived_beliefs(m, "u1")])
    second = lc.maintain(m, now=day(200))
    assert all(n == 0 for n in second.values())
    assert ({r["id"]: r["status"] for r in m.store.find_beliefs(None)}, len(rv.audit(m)),
            [a["belief_id"] for a in ar.archived_beliefs(m, "u1")]) == snapshot
    healthy(m)


def test_maintain_runs_while_another_writer_writes(memory_backend):
    """Server mode: another process writes; embedded (one process per directory): another
    connection to the same directory, in a thread of this process."""
    m = memory_backend.new(durable=True, clock=lambda: "2025-01-01T00:00:00")
    spec = memory_backend.spec(m)
    n = 120
    if memory_backend.server:
        proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("_writer_proc.py")), spec, str(n)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        running = lambda: proc.poll() is None  # noqa: E731
    else:
        import threading

        from _writer_proc import write

        out_ids: list = []
        thread = threading.Thread(target=lambda: out_ids.extend(write(spec, n)))
        thread.start()
        running = thread.is_alive
    runs = 0
    deadline = time.time() + 120
    while running() and time.time() < deadline:
        lc.maintain(m)  # archives the old half as it arrives, revives it when more comes
        runs += 1
    if memory_backend.server:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        written = out.split()
    else:
        thread.join(timeout=60)
        written = out_ids
    # Later than every restore's fresh idle period: whatever the interleaving revived, the
    # old slots are idle again now (with the fixed clock alone, all could stay revived).
    lc.maintain(m, now="2028-01-01T00:00:00")
    assert len(written) == n and runs >= 2
    hot = set(m.store.evidence_ids())
    with lc._cold(m, create=False) as cold:
        archived = set(cold.evidence_ids())
        claims = {(c["evidence_id"], c["idx"]) for s in (m.store, cold) for c in s.claims_for_evidence(written)}
    assert set(written) <= hot | archived  # nothing lost
    assert rv.audit(m, action="archive")  # and archiving did happen (what stays cold depends on the interleaving)
    assert len(claims) == n + len(range(0, n, 5))  # every claim is somewhere
    healthy(m)
    m.close()


# --- review ----------------------------------------------------------------------------------
def test_review_verdicts_move_beliefs_by_the_ordinary_rule():
    m = mem()
    likes(m, "tea", day(0), context="topic:drinks")  # 0.6
    likes(m, "coffee", day(0))
    likes(m, "coffee", day(1), stance=-1.0)  # strong on both sides: contested
    likes(m, "okra", day(0), stance=-1.0)  # -0.6: below review_below
    tea, coffee, okra = belief_id(m, "tea"), belief_id(m, "coffee"), belief_id(m, "okra")
    queue = rv.review_queue(m, "u1", now=day(2))
    assert [(q["belief_id"], q["reasons"]) for q in queue] == [  # coffee: 0.6 then -0.2
        (coffee, ["contested", "low_confidence"]), (okra, ["low_confidence"])]

    rv.review(m, tea, "confirm", reviewer="ann", note="asked in person", now=day(2))
    assert m.get_belief(tea, user_id="u1")["confidence"] == pytest.approx(0.6 + 0.8 * (1 - 0.6))  # 0.92
    (_, review_ev) = m.explain(tea, user_id="u1", now=day(2)).supporters
    assert review_ev["source_type"] == "human_review" and "ann" in review_ev["text"] and "asked in person" in review_ev["text"]
    assert review_ev["context"] == "topic:drinks" and m.get_belief(tea, user_id="u1")["contexts"] == ["topic:drinks"]

    rv.review(m, coffee, "reject", reviewer="ann", now=day(2))  # -0.2 + 0.8 * (-1 + 0.2) = -0.84
    assert m.get_belief(coffee, user_id="u1")["confidence"] == pytest.approx(-0.84)
    assert m.explain(coffee, user_id="u1", now=day(2)).refuters[-1]["source_type"] == "human_review"
    rv.review(m, okra, 0.5, reviewer="bo", now=day(2))  # a stance: -0.6 + 0.8 * (0.5 + 0.6)
    assert m.get_belief(okra, user_id="u1")["confidence"] == pytest.approx(0.28)
    assert rv.review_queue(m, "u1", now=day(2)) == []  # a person has just decided on all of them
    assert [a["actor"] for a in rv.audit(m, action="review")] == ["ann", "ann", "bo"]
    healthy(m)

    evidence_before = m.store.count("evidence")
    for bad in ("maybe", 1.5):
        with pytest.raises(InvalidInputError):
            rv.review(m, tea, bad, reviewer="ann", now=day(3))
    with pytest.raises(NotFoundError):
        rv.review(m, "bel_nope", "confirm", reviewer="ann")
    assert m.store.count("evidence") == evidence_before


# --- agents ----------------------------------------------------------------------------------
def test_two_agents_share_a_belief_but_not_a_private_text():
    from bcg_rag.render import render_groups
    from bcg_rag.search import search

    m = mem(index=True)
    secret = "my secret tea ritual involves a silver spoon"
    m.observe(secret, user_id="u1", timestamp=day(0), agent_id="a1", private=True, claim=Claim("user", "likes", "tea"))
    m.observe("I like tea with milk", user_id="u1", timestamp=day(1), agent_id="a2", claim=Claim("user", "likes", "tea"))
    (belief,) = m.beliefs("u1")  # one belief, fed by both agents
    assert belief.confidence == pytest.approx(0.8)

    for agent, sees in (("a1", True), ("a2", False)):
        ex = m.explain(belief.id, user_id="u1", now=day(1), agent_id=agent)
        assert (secret in str(ex.to_dict())) is sees and (secret in str(ex)) is sees
        groups = search(m, "tea ritual spoon", user_id="u1", agent_id=agent, now=day(1))
        assert groups and groups[0].best.id == belief.id
        text = render_groups(groups) + str([g.to_dict() for g in groups])
        assert (secret in text) is sees and "I like tea with milk" in text
    row = m.evidence(m.store.evidence_ids("u1")[0], user_id="u1")
    assert lc.visible_text(row, "a1") == secret and lc.visible_text(row, "a2") == lc.HIDDEN_TEXT
    assert lc.visible_text(row, None) == secret  # the user-level view, as explain()

    lc.archive(m, belief.id, now=day(2))  # archived search hides it too, and does not match on it
    (hit,) = ar.search_archived(m, "tea", user_id="u1", agent_id="a2")
    assert secret not in str(hit) and lc.HIDDEN_TEXT in hit["evidence"]
    assert secret in str(ar.search_archived(m, "tea", user_id="u1", agent_id="a1"))
    healthy(m)
    m.close()


# --- audit -----------------------------------------------------------------------------------
def test_audit_log_lists_every_kind_of_entry():
    m = mem()
    likes(m, "tea", day(0))
    merge = m.add_alias("u1", "Teh", "tea")
    m.undo_merge(merge)
    lc.maintain(m, now=day(200))
    (archived,) = ar.archived_beliefs(m, "u1")
    lc.restore(m, archived["belief_id"], now=day(201))
    actions = [a["action"] for a in rv.audit(m, user_id="u1")]
    assert actions == ["alias_merge", "alias_undo", "weaken", "archive", "restore"]
    assert [a["action"] for a in rv.audit(m, action="archive")] == ["archive"]
    assert all(a["at"] and a["actor"] and a["reason"] for a in rv.audit(m))


def test_restore_after_an_alias_merge_keeps_the_claims():
    m = mem()
    m.observe("Teh is green", user_id="u1", timestamp=day(0), claim=Claim("Teh", "color", "green"))
    (b,) = m.beliefs("u1")
    lc.archive(m, b.id, now=day(1))
    merge = m.add_alias("u1", "Teh", "tea")  # while archived, "Teh" comes to mean another entity
    lc.restore(m, b.id, now=day(2))
    assert len(m.store.claims_for_user("u1")) == 1 and ar.archived_beliefs(m, "u1") == []
    healthy(m)
    m.undo_merge(merge)  # refolds the user from the claims: the restored belief must survive it
    assert [x.value for x in m.beliefs("u1")] == ["green"]
    healthy(m)
