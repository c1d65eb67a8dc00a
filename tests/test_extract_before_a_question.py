"""Statements said around a question or a request, and in passing. Before a question in one
sentence, even one that opens with a joining word ("grew up in Swansea so this rain is nothing,
but what's the best waterproof?"); a pet named there ("Biscuit (our spaniel) ate a sock again,
should I be worried??"); after a request, the speaker left out ("…recipe pls, been vegetarian
since uni"). In passing: an age turned on a day names the birthday ("turning 35 on Nov 3rd"), a
company's headquarters ("Zalando's HQ in Berlin is massive"), a gym joined by a one-word name
("joined PureGym"), an offer accepted by the company's name ("accepted Adyen's offer": a plan).
Near misses: a sentence that only asks says nothing."""

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

