"""A statement said before a question in one sentence is read: the question may open with a
joining word ("grew up in Swansea so this rain is nothing, but what's the best waterproof?"),
and a pet named in passing is read there too ("Biscuit (our spaniel) ate a sock again, should I
be worried??"). An age turned on a day names the birthday ("turning 35 on Nov 3rd"). Near
misses: a sentence that only asks says nothing."""

from __future__ import annotations

import pytest

from claims import USER, triples


@pytest.mark.parametrize("text, expected", [
    ("grew up in Swansea so this rain is nothing, but what's the best waterproof for running?",
     [(USER, "hometown", "Swansea", 1.0)]),
    ("I live in Leeds, but where should I go running?", [(USER, "lives_in", "Leeds", 1.0)]),
    ("Biscuit (our spaniel) ate a sock again, should I be worried??",
     [(USER, "has", "spaniel", 1.0), (USER, "pet_name", "Biscuit", 1.0)]),
    ("ugh, turning 35 on Nov 3rd and I'm already having a crisis about it",
     [(USER, "age", "35", 1.0), (USER, "attr:birthday", "Nov 3rd", 1.0)]),
    ("my son turned 7 on the 3rd of May", [(f"{USER}'s son", "age", "7", 1.0), (f"{USER}'s son", "attr:birthday", "3rd of May", 1.0)]),
    # near misses
    ("turning 40 in May", [(USER, "age", "40", 1.0)]),
    ("is Mango the parrot ok?", []),
    ("do you live in Leeds, and where should I go running?", []),
    ("but what's the best waterproof for running?", []),
])
def test_said_before_a_question(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("joined PureGym on Deansgate", [(USER, "member_of", "PureGym on Deansgate", 1.0)]),
    ("just joined Anytime Fitness", [(USER, "member_of", "Anytime Fitness", 1.0)]),
    ("joined Stripe in March", [(USER, "works_at", "Stripe", 1.0)]),
])
def test_a_gym_joined_is_no_employer(extractor, text, expected):
    """A club's kind may end its name written as one word ("PureGym"): joined, it is a membership."""
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a statement after a request, the speaker left out
    ("need a veggie lasagne recipe pls, been vegetarian since uni so no mince", [(USER, "diet", "vegetarian", 1.0)]),
    ("I'm fully vegan now", [(USER, "diet", "vegan", 1.0)]),
    # an offer accepted is a plan, by the company's name before 's too
    ("accepted Adyen's offer", [(USER, "plan:works_at", "Adyen", 0.5)]),
    # a company's headquarters said in passing
    ("Zalando's HQ in Berlin is massive, I got lost twice", [("Zalando", "headquarters", "Berlin", 1.0)]),
    # near misses
    ("I'm fully booked this week", []),
    ("need a veggie lasagne recipe pls, been there done that", []),
])
def test_said_in_passing_or_after_a_request(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a change of employer by 跳去 / 跳到 / 跳槽去, with 从
    ("老王刚从腾讯跳去拼多多，说那边的强度要把他熬干了", [("老王", "works_at", "腾讯", -0.8), ("老王", "works_at", "拼多多", 1.0)]),
    ("我从腾讯跳槽去拼多多了", [(USER, "works_at", "腾讯", -0.8), (USER, "works_at", "拼多多", 1.0)]),
    # after a job left in the message, where one goes next month is the next employer (from its date)
    ("从网易离职了，下个月去米哈游", [(USER, "works_at", "网易", -0.8), (USER, "plan:works_at", "米哈游", 0.5),
                                     (USER, "works_at", "米哈游", 1.0, 30)]),
    ("离职手续办完了，下个月去南屿生物", [(USER, "plan:works_at", "南屿生物", 0.5), (USER, "works_at", "南屿生物", 1.0, 30)]),
    # near misses: a trip, one common word, no job left, a page
    ("从网易离职了，下个月去上海", [(USER, "works_at", "网易", -0.8)]),
    ("辞职了，下周去医院", [(USER, "does", "job", -0.8)]),
    ("下个月去米哈游", []),
    ("从第一页跳到第三页", []),
])
def test_zh_next_employer(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("车卖了！！养车太费钱，现在家里没车了", [(USER, "owns", "car", -0.8), (USER, "does", "car", -0.8)]),
    ("把车卖掉了", [(USER, "owns", "car", -0.8), (USER, "does", "car", -0.8)]),
    ("家里就一辆Model Y，平时主要我开", [(USER, "owns", "Model Y", 1.0)]),
    ("蛋糕卖了", [(USER, "does", "蛋糕", -0.8)]),  # a cake sold is no car
])
def test_zh_the_household_car(extractor, text, expected):
    assert triples(extractor, text) == expected
