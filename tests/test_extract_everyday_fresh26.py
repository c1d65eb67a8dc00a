"""Everyday shapes that a blind set (chat_fresh26) showed unread or misread, each a general
mechanism rather than one sentence:

* a relative one spoke with ("catching up w my mom on the phone: she's a nurse") is whom the
  "she" after it means, as a name met is ("caught up with Priya, she ...");
* "started as sous chef at X": a title without its article, with its employer;
* "got a new phone, a Pixel 7": the comma before the model opens no clause of its own; "my old
  Galaxy S9" is the phone before (denied), unless one is "back on my old iphone";
* "抢到iPhone 14了": a phone got; "把iPhone卖了换了小米13": one let go, then what came instead
  (two clauses); "买了只仓鼠": an animal bought is kept; "开了Keep年度会员": a yearly plan.
"""

from __future__ import annotations

import pytest

from claims import USER, triples

MOTHER, FATHER, SISTER = (f"{USER}'s {kin}" for kin in ("mother", "father", "sister"))


@pytest.mark.parametrize("text, expected", [
    ("catching up w my mom on the phone: she's a nurse, lives in Cork now",
     [(MOTHER, "job_title", "nurse", 1.0), (MOTHER, "lives_in", "Cork", 1.0)]),
    ("talked to my dad: he's retired and lives in Porto",
     [(FATHER, "employment_status", "retired", 1.0), (FATHER, "lives_in", "Porto", 1.0)]),
    ("had lunch with my sister, she moved to Leeds", [(SISTER, "lives_in", "Leeds", 1.0)]),
])
def test_a_relative_spoken_with_is_whom_she_or_he_means(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


def test_a_relative_with_another_is_no_one_pronoun(extractor):
    assert triples(extractor, "had lunch with my sister and mom, she moved to Leeds") == []


@pytest.mark.parametrize("text, expected", [
    ("started as sous chef at Ostrava Kitchen last week",
     [(USER, "works_at", "Ostrava Kitchen", 1.0), (USER, "job_title", "sous chef", 1.0)]),
    ("finally got a new phone, a Pixel 7!", [(USER, "uses_phone", "Pixel 7", 1.0)]),
    ("so i'm back on my old iphone until the 16 comes out", [(USER, "uses_phone", "iphone", 1.0)]),
    ("抢到iPhone 14了！熬夜蹲的，值了", [(USER, "uses_phone", "iPhone 14", 1.0)]),
    ("把iPhone卖了换了小米13，还便宜一半", [(USER, "uses_phone", "iPhone", -0.8), (USER, "uses_phone", "小米13", 1.0)]),
    ("买了只仓鼠，叫汤圆", [(USER, "has", "仓鼠", 1.0), (USER, "pet_name", "汤圆", 1.0)]),
    ("开了Keep年度会员，每天早上跟着跳操", [(USER, "subscribes_to", "Keep", 1.0)]),
])
def test_jobs_phones_pets_and_plans_said_in_passing(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


def test_my_old_phone_is_the_one_before(extractor):
    got = triples(extractor, "my old Galaxy S9 was literally held together with tape")
    assert (USER, "uses_phone", "Galaxy S9", -0.8) in got
    # a new one said first is the one used now; the old one is not denied by that clause
    assert (USER, "uses_phone", "Pixel 8", 1.0) in triples(extractor, "got a Pixel 8 to replace my old Galaxy S9")


@pytest.mark.parametrize("text", ["just got a new puppy, a Beagle named Max", "got a new car, a Tesla Model 3"])
def test_other_new_things_keep_their_own_readings(extractor, text):
    # the comma before a model is kept only after "phone": a new puppy's breed and name read as before
    assert not any(p == "uses_phone" for _, p, _, _ in triples(extractor, text))


@pytest.mark.parametrize("text, expected", [
    ("my mom and dad live in Tampa", [(MOTHER, "lives_in", "Tampa", 1.0), (FATHER, "lives_in", "Tampa", 1.0)]),
    ("mom and dad moved to Málaga last week", [(MOTHER, "lives_in", "Málaga", 1.0), (FATHER, "lives_in", "Málaga", 1.0)]),
    ("my dad retired last month and he and mom moved to Málaga",
     [(FATHER, "employment_status", "retired", 1.0), (FATHER, "lives_in", "Málaga", 1.0), (MOTHER, "lives_in", "Málaga", 1.0)]),
])
def test_two_relatives_as_one_subject_each_say_the_clause(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


@pytest.mark.parametrize("text", ["tea and coffee are my favourites", "Paris and Rome are lovely in May"])
def test_two_things_are_no_pair_of_people(extractor, text):
    assert triples(extractor, text) == []


@pytest.mark.parametrize("text, expected", [
    ("mom gave Captain back to the rescue", [(MOTHER, "does", "Captain", -0.8)]),
    ("we gave Max away", [(USER, "does", "Max", -0.8)]),
])
def test_a_pet_given_back_or_away_by_its_name_is_kept_no_more(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_something_given_back_to_someone_ends_nothing(extractor):
    assert triples(extractor, "I gave Tom back his charger") == []
