"""Everyday shapes that two blind sets (chat_fresh30, rambling voice notes; chat_fresh31, terse
phone texting) showed unread, each a general mechanism rather than one sentence:

* a question sentence whose first clause does not ask is asked by its last clause; what comes
  before is said ("下周六就是我生日了，5月27，…，厦门还是青岛好？", "…, he's our tortoise, …, dandelions
  are fine for him right?"); a first clause that asks ("do you think, …") still makes it all a question;
* "Dev's my brother-in-law" is "Dev is my brother-in-law" ('s before "my" is no possessive);
* "Pickle is my cat", "he's our tortoise" (after "Gerald's finally eating properly"): a pet and its name;
* "so Gerald's finally eating properly": a name before a contracted "is" is whom "he" means next;
* "cancelled the PureGym thing": the thing ends, whatever slot held it; "PureGym by the station": the
  place after "by the" is no part of the name;
* "I'm just running outside now": a progressive of being, with only where and since when after it,
  is a habit (not "I'm running late now");
* "the vegetarian era is over lol had a burger": a laugh in chat is a pause between clauses;
* "omw to my shift at Mercy": one's shift is at one's workplace;
* "update on the Dev saga, he's sold the Tesla", "heard from Priya, she moved…": whom news is of is
  whom "he" / "she" means next;
* "a rescue greyhound called Pepper" after "we adopted a dog": a word before the kind says which one;
* "Dr. Lindqvist (at the Elm St clinic) is my GP now" is "my GP is Dr. Lindqvist";
* a daily commute starts at home ("每天从回龙观挤地铁去国贸", "commuting in from Reading"), and the way
  home after work goes there ("下班回宝山的地铁"); "哎你知道吗" only calls for attention, so what follows
  it is said, not asked;
* in a message typed in lower case, an employer or club is named in lower case too, as its towns
  are ("i just started at rivian", "finally joined planet fitness"; not "at noon", "at it");
* "我羽毛球不打了": the speaker first, then the pastime ended (as "羽毛球不打了"); "照例" (as usual) says a habit.
"""

from __future__ import annotations

import pytest

from claims import USER, triples

ENDED = "does"


@pytest.mark.parametrize("text, expected", [
    ("下周六就是我生日了，5月27，想去海边过，厦门还是青岛好？", [(USER, "attr:birthday", "5月27号", 1.0)]),
    ("so Gerald's finally eating properly, he's our tortoise, fifty-odd years old, anyway dandelions are fine for him right?",
     [(USER, "has", "tortoise", 1.0), (USER, "pet_name", "Gerald", 1.0)]),
    ("I live in Leeds, is that far from York?", [(USER, "lives_in", "Leeds", 1.0)]),
    ("Dev's my brother-in-law, he's a paramedic", [(USER, "has_brother_in_law", "Dev", 1.0), ("Dev", "job_title", "paramedic", 1.0)]),
    ("Anna's my sister, she lives in Rome", [(USER, "has_sister", "Anna", 1.0), ("Anna", "lives_in", "Rome", 1.0)]),
    ("Pickle is my cat", [(USER, "has", "cat", 1.0), (USER, "pet_name", "Pickle", 1.0)]),
    ("Biscuit is our dog", [(USER, "has", "dog", 1.0), (USER, "pet_name", "Biscuit", 1.0)]),
    ("Gerald's finally home, he lives in Leeds now", [("Gerald", "lives_in", "Leeds", 1.0)]),
    ("I finally cancelled the PureGym thing", [(USER, ENDED, "PureGym", -0.8)]),
    ("signed up at PureGym by the station", [(USER, "member_of", "PureGym", 1.0)]),
    ("I'm just running outside now", [(USER, "habit", "running", 1.0)]),
    ("ok the vegetarian era is over lol had a great time", [(USER, ENDED, "vegetarian", -0.8)]),
    ("omw to my shift at Mercy", [(USER, "works_at", "Mercy", 1.0)]),
    ("I love my night shift at St Mary's", [(USER, "works_at", "St Mary's", 1.0)]),
    ("哎你知道吗，每天从回龙观挤地铁去国贸真要命", [(USER, "lives_in", "回龙观", 1.0)]),
    ("下班回宝山的地铁又故障了，多绕了四十分钟", [(USER, "lives_in", "宝山", 1.0)]),
    ("我妈每天从昌平坐车去西城上班", [(f"{USER}'s mother", "lives_in", "昌平", 1.0)]),
    ("commuting in from Reading every day", [(USER, "lives_in", "Reading", 1.0)]),
    ("我羽毛球不打了", [(USER, ENDED, "羽毛球", -0.8)]),
    ("周三晚上照例去打羽毛球，然后那个球馆又涨价了", [(USER, "plays", "羽毛球", 1.0)]),
    ("update on the Dev saga, he's sold the Tesla, got fed up with the insurance", [("Dev", "owns", "Tesla", -0.8)]),
    ("heard from Priya, she moved to Lisbon", [("Priya", "lives_in", "Lisbon", 1.0)]),
    ("i just started at rivian", [(USER, "works_at", "Rivian", 1.0)]),
    ("finally joined planet fitness", [(USER, "member_of", "Planet Fitness", 1.0)]),
    ("i work at a bakery", [(USER, "works_at", "bakery", 1.0)]),
    ("Dr. Lindqvist at the Elm St clinic is my GP now", [(USER, "attr:doctor", "Dr. Lindqvist", 1.0)]),
    ("my GP is Dr. Okafor", [(USER, "attr:doctor", "Dr. Okafor", 1.0)]),  # GP, family doctor, doctor: one slot
    ("we adopted a dog!! a rescue greyhound called Pepper.",
     [(USER, "has", "dog", 1.0), (USER, "has", "greyhound", 1.0), (USER, "pet_name", "Pepper", 1.0)]),
])
def test_everyday_shapes_of_rambling_and_texting(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


@pytest.mark.parametrize("text", [
    "do you think, since I live in Leeds, I should get a car?",  # asked from its first clause
    "I'm running late now",  # an occasion, not a habit
    "I'm running a bakery now",  # the verb has an object
    "Anna is our sister",  # whose? only a pet is the household's
    "she's my cat",  # no one named before "she"
    "下班回家好累",  # home, no place named
    "每天从家坐地铁去公司",
    "the commute from the station is short",
    "my commute from Monday to Friday is long",
    "i started at noon",  # a time, no employer (in a message typed in lower case)
    "working at it",
])
def test_what_stays_unsaid(extractor, text):
    assert not [t for t in triples(extractor, text) if t[1] in ("lives_in", "habit", "has_sister", "pet_name", "works_at")]


def test_a_statement_before_the_question_is_raw_evidence_worth_showing(extractor):
    assert extractor.states_something("下周六就是我生日了，5月27，想去海边过，厦门还是青岛好？")
    assert not extractor.states_something("do you think, since I live in Leeds, I should get a car?")
