"""Lifecycle: deletion on request (a user, or one piece of evidence), with the helpers of
``test_lifecycle.py``."""

import pytest
from scan import files_with
from servers import BACKENDS
from test_lifecycle import HASH, LIFECYCLE, day, explained, healthy, hot_ids, mem

from bcg_rag import BeliefMemory, Claim, NotFoundError, Policy
from bcg_rag import archive as ar
from bcg_rag import forget as fg
from bcg_rag import lifecycle as lc
from bcg_rag import review as rv

# Every test here runs on each storage backend, as in test_lifecycle.py, except those marked embedded_only.
pytestmark = [pytest.mark.parametrize("store_backend", BACKENDS, indirect=True), pytest.mark.usefixtures("on_backend")]

# --- deletion on request ---------------------------------------------------------------------
TOKEN = "zqxjkvbw"


@pytest.mark.embedded_only  # server mode: tests/test_server_mode.py
def test_forget_user_leaves_no_trace_and_keeps_other_users(tmp_path):
    path = tmp_path / "mem"
    policy = Policy.default().with_overrides(LIFECYCLE).with_overrides(HASH)
    m = BeliefMemory.open(path, policy, clock=lambda: day(300))  # a real Chroma index under path/chroma
    alice = "alice-7f3e9"
    alice_texts = [f"my cat {TOKEN} likes tuna", f"爱丽丝的{TOKEN}住在柏林", "I quietly prefer rooibos", f"{TOKEN} secret"]
    m.observe(alice_texts[0], user_id=alice, timestamp=day(0), context=f"project:{TOKEN}", claim=Claim(f"cat {TOKEN}", "likes", "tuna"))
    m.observe(alice_texts[1], user_id=alice, timestamp=day(10), claim=Claim("user", "lives_in", "Berlin"))
    m.observe(alice_texts[2], user_id=alice, timestamp=day(250), agent_id="a1", private=True, claim=Claim("user", "likes", "rooibos"))
    m.observe(alice_texts[3], user_id=alice, timestamp=day(260))  # no claim at all
    m.add_alias(alice, f"kitty {TOKEN}", f"cat {TOKEN}")  # an audit entry that names things
    m.observe("bob likes espresso", user_id="bob", timestamp=day(0), claim=Claim("user", "likes", "espresso"))
    m.observe("bob lives in Oslo", user_id="bob", timestamp=day(280), context="topic:home", claim=Claim("user", "lives_in", "Oslo"))
    m.observe("bob dislikes tuna", user_id="bob", timestamp=day(281), claim=Claim("user", "likes", "tuna", -1.0))
    lc.maintain(m, now=day(300))  # archives the old beliefs of both users: cold storage has texts too
    assert ar.archived_beliefs(m, alice) and ar.archived_beliefs(m, "bob")
    bob_before = ({b.id: explained(m, b.id, user_id="bob") for b in m.beliefs("bob")}, ar.archived_beliefs(m, "bob"))
    needles = [TOKEN.encode(), alice.encode()] + [t.encode("utf-8") for t in alice_texts]
    assert files_with(path, needles)  # the scan can see them before

    counts = fg.forget_user(m, alice, now=day(301))
    assert counts["evidence"] + counts["cold_evidence"] == 4
    assert files_with(path, needles) == {}  # while the memory is still open
    assert m.beliefs(alice) == [] and ar.archived_beliefs(m, alice) == [] and m.index.count(alice) == 0
    (entry,) = rv.audit(m, action="forget_user")
    assert entry["user_id"].startswith("sha256:") and alice not in str(entry)
    assert rv.audit(m, user_id=alice) == []  # earlier entries were redacted, not left in clear
    assert bob_before == ({b.id: explained(m, b.id, user_id="bob") for b in m.beliefs("bob")}, ar.archived_beliefs(m, "bob"))
    healthy(m)
    m.close()

    assert files_with(path, needles) == {}
    # Chroma leaves a deleted collection's HNSW directory behind, but neither user ever had a
    # collection: a small user's vectors are rows of the small vectors' file (index_small).
    assert [p for p in (path / "chroma").iterdir() if p.is_dir()] == []
    m = BeliefMemory.open(path, clock=lambda: day(302))
    assert bob_before == ({b.id: explained(m, b.id, user_id="bob") for b in m.beliefs("bob")}, ar.archived_beliefs(m, "bob"))
    healthy(m)
    m.close()


OBSERVATIONS = [  # (text, day, claims); mixed stances, a shared evidence, a single-valued slot
    ("likes tea", 0, [("likes", "tea", 1.0)]),
    ("tea is too bitter", 3, [("likes", "tea", -0.6)]),
    ("tea again, and no coffee", 6, [("likes", "tea", 1.0), ("likes", "coffee", -1.0)]),
    ("I live in Paris", 0, [("lives_in", "Paris", 1.0)]),
    ("moved to Berlin", 10, [("lives_in", "Berlin", 1.0)]),
    ("back in Paris", 20, [("lives_in", "Paris", 1.0)]),
    ("Berlin was nice", 30, [("lives_in", "Berlin", 0.5)]),
]


def _feed(m, skip=None):
    ids = []
    for i, (text, d, claims) in enumerate(OBSERVATIONS):
        if i != skip:
            r = m.observe(text, user_id="u1", timestamp=day(d), source=f"chat:{i}",
                          claims=[Claim("user", p, v, s) for p, v, s in claims])
            ids.append(r.evidence_id)
    return ids


def _state(m) -> dict:
    return {b.id: (explained(m, b.id), b.confidence, b.history) for b in m.beliefs("u1")}


@pytest.mark.parametrize("skip", range(len(OBSERVATIONS)), ids=[o[0] for o in OBSERVATIONS])
def test_forget_evidence_is_as_if_never_observed(skip):
    m = mem()
    ids = _feed(m)
    fg.forget_evidence(m, ids[skip], now=day(50))
    fresh = mem()
    _feed(fresh, skip=skip)
    assert _state(m) == _state(fresh)
    assert m.store.count("evidence") == len(OBSERVATIONS) - 1
    (entry,) = rv.audit(m, action="forget_evidence")
    assert entry["target"] == ids[skip] and OBSERVATIONS[skip][0] not in str(entry)
    healthy(m)


def test_forget_evidence_reaches_archived_beliefs():
    m = mem()
    ids = _feed(m)
    lc.maintain(m, now=day(300))  # everything is idle: all archived
    assert hot_ids(m) == set()
    fg.forget_evidence(m, ids[4], now=day(301))  # "moved to Berlin", now only in cold storage
    healthy(m)
    fresh = mem()
    _feed(fresh, skip=4)
    lc.maintain(fresh, now=day(300))  # the same statuses and archive as m, without that evidence
    for memory in (m, fresh):
        while ar.archived_beliefs(memory, "u1"):
            lc.restore(memory, ar.archived_beliefs(memory, "u1")[0]["belief_id"], now=day(302))
    assert _state(m) == _state(fresh)
    with pytest.raises(NotFoundError):
        fg.forget_evidence(m, ids[4])
