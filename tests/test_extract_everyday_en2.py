"""Everyday English said in passing (``bcg_rag/extract/in_passing.py``): pets by their kind, a partner by name, an office's town, habits said by
a count, practices kept up, abilities learned or never learned, what one has none of; and
the near misses that stay silent: questions, wishes, hypotheticals, other people's pets."""

from __future__ import annotations

import pytest

from claims import USER, triples


@pytest.mark.parametrize(
    "text, expected",
    [
        # a pet presupposed by "my <kind>"
        ("walking my corgi before work", (USER, "has", "corgi", 1.0)),
        ("my cat knocked over my plant again 😩", (USER, "has", "cat", 1.0)),
        ("I walk my dog twice a day", (USER, "has", "dog", 1.0)),
        ("taking my golden retriever to the vet tomorrow", (USER, "has", "golden retriever", 1.0)),
        # a car by its make or model after "my"; in Chinese too
        ("my 2016 mazda 3 makes a clicking noise when i turn left", (USER, "owns", "mazda 3", 1.0)),
        ("my civic needs new tires", (USER, "owns", "civic", 1.0)),
        ("my Tesla Model Y is amazing", (USER, "owns", "Tesla Model Y", 1.0)),
        ("我那台本田飞度开了六年了", (USER, "owns", "本田飞度", 1.0)),
        ("我的卡罗拉该保养了", (USER, "owns", "卡罗拉", 1.0)),
        ("提了辆特斯拉Model Y，第一次开电车还不太习惯", (USER, "owns", "特斯拉Model Y", 1.0)),
        # a partner named in passing
        ("my wife Sarah and I are celebrating 10 years", (USER, "married_to", "Sarah", 1.0)),
        ("date night with my boyfriend Theo tonight", (USER, "dating", "Theo", 1.0)),
        # an office's town
        ("the drive to my office in Burbank takes forever", (USER, "works_in", "Burbank", 1.0)),
        ("my office is in Midtown so lunch options are great", (USER, "works_in", "Midtown", 1.0)),
        ("my commute to the Denver office is brutal", (USER, "works_at", "Denver", 1.0)),
        # habits said by a count, practices kept up
        ("I've been running 3x a week", (USER, "habit", "running", 1.0)),
        ("i swim 4 times a week", (USER, "habit", "swimming", 1.0)),
        ("I've been swimming three times a week", (USER, "habit", "swimming", 1.0)),
        ("I've been doing yoga for years", (USER, "habit", "yoga", 1.0)),
        ("been doing pilates for a few months now", (USER, "habit", "pilates", 1.0)),
        ("I usually bike to work", (USER, "habit", "biking", 1.0)),
        # abilities learned or not, things one has none of
        ("never learned to drive", (USER, "can", "driving", -0.8)),
        ("I never learned how to swim tbh", (USER, "can", "swimming", -0.8)),
        ("I learned to drive last year", (USER, "can", "driving", 1.0)),
        ("i don't have any pets", (USER, "has", "pets", -0.8)),
        ("I have no kids", (USER, "has", "kids", -0.8)),
        ("we don't have a car anymore", (USER, "has", "car", -0.8)),
        ("I don't eat pork", (USER, "eats", "pork", -0.8)),
        ("I'm not on instagram anymore", (USER, "does", "instagram", -0.8)),
        # third persons: a named person's kin, friends and coworkers
        ("my coworker Dana just moved to Austin", ("Dana", "lives_in", "Austin", 1.0)),
        ("my buddy from college is a pilot now", (f"{USER}'s friend", "job_title", "pilot", 1.0)),
        ("my grandpa still lives in Ohio", (f"{USER}'s grandfather", "lives_in", "Ohio", 1.0)),
    ],
)
def test_reads_in_passing(extractor, text, expected):
    assert expected in triples(extractor, text)


@pytest.mark.parametrize(
    "text",
    [
        "should I learn to drive?",
        "can you recommend a gym near me?",
        "if I had a dog I'd name it Max",
        "I wish I could swim",
        "my old dog used to love the beach",
        "my friend's dog is huge",
        "I miss my dog so much",
        "my cat allergy is acting up",
        "do you think I should quit coffee?",
        "I'm dog sitting my neighbor's puppy this week",
        "what if I moved to Seattle",
        "my old civic was better",
        "my dad's civic",
        "my golf swing is off",  # a word that is also a model's
        "我以前的飞度",
        "is my tesla worth fixing?",
    ],
)
def test_near_misses_stay_silent(extractor, text):
    assert triples(extractor, text) == []


@pytest.mark.parametrize(
    "text, absent",
    [
        ("can't wait to see my nephew Leo this weekend", "has_nephew"),  # kin named in passing: an alias, not a claim
        ("my sister wants to become a pilot", "job_title"),  # her plan, not her job
    ],
)
def test_no_claim_of_the_kind(extractor, text, absent):
    assert all(t[1] != absent for t in triples(extractor, text))


def test_other_peoples_plans_are_plans(extractor):
    claims = triples(extractor, "my coworker Dana is planning to move to Austin")
    assert ("Dana", "plan:lives_in", "Austin", 0.5) in claims
    assert all(not p.startswith("lives_in") for _, p, *_ in claims)


@pytest.mark.parametrize("text, expected", [
    ("work's been brutal, quarterly reserving as an actuary is no joke", [(USER, "job_title", "actuary", 1.0)]),
    ("life as a nurse is hard", [(USER, "job_title", "nurse", 1.0)]),
    ("my job as a barista is so boring", [(USER, "job_title", "barista", 1.0)]),
    ("moonlighting as a bartender on weekends", [(USER, "job_title", "bartender", 1.0)]),
    ("ten years as a nurse and I'm tired", []),  # may be over
    ("dressing up as a nurse for halloween", []),
    ("posing as a doctor lol", []),
    ("my sister's life as a nurse is hard", []),  # hers
    ("Tom is moonlighting as a bartender", []),
])
def test_ones_work_said_in_passing(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I'm a photographer", [(USER, "job_title", "photographer", 1.0)]),  # a job the lexicon knows
    ("我是摄影师", [(USER, "job_title", "摄影师", 1.0)]),
])
def test_more_jobs_are_titles(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I'm going to a concert", []),  # where one goes, not what one is
    ("I've been going to a bouldering gym", []),
    ("I'm going to be a nurse", [(USER, "plan:job_title", "nurse", 0.5)]),
    ("went bouldering 4 times this week", [(USER, "habit", "bouldering", 1.0)]),  # lately, by a count
    ("been bouldering 4 times this week", [(USER, "habit", "bouldering", 1.0)]),
    ("went to the dentist 3 times this week", []),
])
def test_going_somewhere_and_doing_something_lately(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("ugh honestly I cancelled the IronPeak membership", [(USER, "member_of", "IronPeak", -0.8)]),  # an interjection first
    ("yeah I work at Google", [(USER, "works_at", "Google", 1.0)]),
    ("I'm back in Austin, crashing at my brother's till I find a place", [(USER, "lives_in", "Austin", 1.0)]),
    ("my sister is back in Paris", [(f"{USER}'s sister", "lives_in", "Paris", 1.0)]),
    ("I'm back in London for the weekend", []),  # a visit
    ("we're back in Leeds after the trip", []),
    ("I'm a sales rep for Orla Foods, we make frozen dumplings. HQ is in Rotterdam",
     [(USER, "job_title", "sales rep", 1.0), (USER, "works_at", "Orla Foods", 1.0),
      ("Orla Foods", "headquarters", "Rotterdam", 1.0)]),  # the employer named in an earlier sentence
    ("I work at Orla Foods, HQ is in Rotterdam",
     [(USER, "works_at", "Orla Foods", 1.0), ("Orla Foods", "headquarters", "Rotterdam", 1.0)]),
    ("HQ is in Rotterdam", []),  # whose is not said
])
def test_interjections_returns_and_headquarters(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("At the office I drink espresso", [(USER, "prefers_coffee_type", "espresso", 1.0)]),  # where, before who
    ("On weekends I play tennis", [(USER, "plays", "tennis", 1.0)]),
    ("At the office I basically live on double espressos, the machine on the 3rd floor is the only decent one",
     [(USER, "prefers_coffee_type", "double espresso", 1.0)]),
    ("my brother lives on energy drinks", [(f"{USER}'s brother", "drinks", "energy drinks", 1.0)]),
    ("I live on Elm Street", []),  # an address, no drink
    ("In March I moved to Leeds", [(USER, "lives_in", "Leeds", 1.0)]),  # a time named before the subject
    ("At Google I work on search", []),  # "At Google I" is nobody's name
])
def test_a_setting_before_the_subject_and_what_one_lives_on(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a perfect tense: what was bought is owned, no possession named "already bought skis"
    ("Bobby has already bought skis", [("Bobby", "owns", "skis", 1.0)]),
    ("Tom has a Tesla", [("Tom", "has", "Tesla", 1.0)]),
    ("Anna has moved to Rome", [("Anna", "lives_in", "Rome", 1.0)]),
])
def test_a_perfect_tense_is_no_possession(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("i'm a junior QA tester rn, basically clicking thru regression suites all day", [(USER, "job_title", "junior QA tester", 1.0)]),
    ("I'm an ICU RN", [(USER, "is", "ICU RN", 1.0)]),  # RN, a nurse, is no "right now"
    ("我在宁波一家外贸公司做跟单，天天对接老外", [(USER, "works_in", "宁波", 1.0)]),  # which company is not said; the town is
])
def test_right_now_after_a_title_and_an_unnamed_company(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I lived in Paris for three years", [(USER, "lives_in", "Paris", -0.8)]),  # a past state over a span: no longer so
    ("my sister lived in Rome for two years", [(f"{USER}'s sister", "lives_in", "Rome", -0.8)]),
    ("I've lived in Melbourne for a decade", [(USER, "lives_in", "Melbourne", 1.0)]),  # still so
    ("I live in Leeds", [(USER, "lives_in", "Leeds", 1.0)]),
])
def test_a_past_state_over_a_span_no_longer_holds(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_a_car_sold_ends_whatever_its_case(extractor):
    """"sold my civic last week": a car named by its model in lower case is no longer kept, as
    "I sold my Civic" (an ending, never an "owns")."""
    claims = triples(extractor, "sold my civic last week")
    assert claims and all(stance < 0 for *_, stance in claims)
    assert any(value == "civic" for _, _, value, _ in claims)
