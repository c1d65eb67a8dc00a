"""Tenancy is not opt-in: reads by id need the user (MissingUserError otherwise), another
user's id is NotFound, and agent-private evidence hides the value it alone claims from
other agents, in search, explain and the archive, not only its quote."""

from __future__ import annotations

import pytest

from bcg_rag import BeliefMemory, Claim, MissingUserError, NotFoundError, Policy
from bcg_rag.models import HIDDEN_TEXT

NOW = "2025-07-01T00:00:00"


@pytest.fixture
def m():
    mem = BeliefMemory.in_memory(Policy.from_dict({"embedder": {"kind": "hash"}}), clock=lambda: NOW)
    yield mem
    mem.close()


def test_reads_by_id_need_a_user(m):
    r = m.observe("I live in Paris", user_id="alice", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Paris"))
    (b,) = m.beliefs("alice")
    for call in (lambda: m.explain(b.id), lambda: m.get_belief(b.id), lambda: m.evidence(r.evidence_id)):
        with pytest.raises(MissingUserError):
            call()
    for call in (lambda: m.explain(b.id, user_id="mallory"), lambda: m.get_belief(b.id, user_id="mallory"),
                 lambda: m.evidence(r.evidence_id, user_id="mallory")):
        with pytest.raises(NotFoundError):
            call()
    assert m.explain(b.id, user_id="alice").belief["value"] == "Paris"
    assert m.get_belief(b.id, user_id="alice")["value"] == "Paris"
    assert m.evidence(r.evidence_id, user_id="alice")["text"] == "I live in Paris"
    # Operator tools opt in to a global read, as beliefs() does.
    assert m.explain(b.id, global_read=True).belief["user_id"] == "alice"
    assert m.get_belief(b.id, global_read=True)["user_id"] == "alice"
    with pytest.raises(MissingUserError):
        m.beliefs("")  # as search does


def test_a_value_only_another_agents_private_evidence_claims_is_hidden(m):
    m.observe("Bob's salary is 90k", user_id="u", timestamp="2025-01-01", agent_id="hr-bot", private=True,
              claim=Claim("Bob", "salary", "90k"))
    m.observe("I live in Paris", user_id="u", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Paris"))
    m.observe("(private) I might move to Rome", user_id="u", timestamp="2025-02-01", agent_id="travel-bot",
              private=True, claim=Claim("I", "lives_in", "Rome"))
    salary = [b for b in m.beliefs("u") if b.predicate == "salary"][0]
    # Another agent: neither the quote nor the value.
    ex = m.explain(salary.id, user_id="u", agent_id="support-bot")
    assert ex.belief["value"] == HIDDEN_TEXT and all(s["text"] == HIDDEN_TEXT for s in ex.supporters)
    assert "90k" not in str(ex) and "90k" not in ex.to_json()
    groups = m.search("how much does Bob earn?", user_id="u", agent_id="support-bot")
    group = [g for g in groups if g.predicate == "salary"][0]
    assert group.best.value == HIDDEN_TEXT and (group.current is None or group.current.value == HIDDEN_TEXT)
    assert "90k" not in repr(group.to_dict())
    # The owning agent and the user-level view see it.
    assert m.explain(salary.id, user_id="u", agent_id="hr-bot").belief["value"] == "90k"
    assert m.explain(salary.id, user_id="u").belief["value"] == "90k"
    owner = [g for g in m.search("how much does Bob earn?", user_id="u", agent_id="hr-bot") if g.predicate == "salary"]
    assert owner[0].best.value == "90k"
    # A value that public evidence also claims stays visible; a rival only the private
    # evidence claims does not (in the alternatives, and in what supersedes it).
    home = [g for g in m.search("where do I live?", user_id="u", agent_id="support-bot") if g.predicate == "lives_in"][0]
    values = {home.best.value} | {a["value"] for a in home.alternatives}
    assert "Paris" in values and "Rome" not in values and "Rome" not in repr(home.to_dict())
    paris = [b for b in m.beliefs("u") if b.value == "Paris"][0]
    ex = m.explain(paris.id, user_id="u", agent_id="support-bot")
    assert ex.belief["value"] == "Paris" and "Rome" not in ex.to_json()


def test_hidden_values_stay_hidden_in_the_archive(m):
    m.observe("Bob's salary is 90k", user_id="u", timestamp="2020-01-01", agent_id="hr-bot", private=True,
              claim=Claim("Bob", "salary", "90k"))
    m.maintain(now="2025-01-01")
    (other,) = m.archived_beliefs("u", agent_id="support-bot")
    assert other["value"] == HIDDEN_TEXT and other["evidence"] == [HIDDEN_TEXT]
    (own,) = m.archived_beliefs("u", agent_id="hr-bot")
    assert own["value"] == "90k"


def test_the_value_as_said_comes_only_from_quotes_the_agent_may_read(m):
    m.observe("我只喝绿茶", user_id="u", timestamp="2025-01-01", agent_id="diet-bot", private=True,
              claim=Claim("I", "drinks", "green tea"))
    other = [g for g in m.search("用户喝什么？", user_id="u", agent_id="support-bot") if g.predicate == "drinks"][0]
    assert other.said is None and "绿茶" not in repr(other.to_dict())  # hidden value, hidden quote, no word of it
    owner = [g for g in m.search("用户喝什么？", user_id="u", agent_id="diet-bot") if g.predicate == "drinks"][0]
    assert (owner.current.value, owner.said) == ("green tea", "绿茶")
