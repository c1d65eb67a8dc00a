"""Favourites: one slot whichever word marks it, chat shorthand after it, and a favourite said of a
pronoun whose name came earlier in the message. Sentences of our own."""

from __future__ import annotations

import pytest
from claims import USER, triples


@pytest.mark.parametrize("text, expected", [
    ("my favourite band is Blur", [(USER, "attr:favorite_band", "Blur", 1.0)]),
    ("my fave band is Blur", [(USER, "attr:favorite_band", "Blur", 1.0)]),
    ("my fav band rn is Blur", [(USER, "attr:favorite_band", "Blur", 1.0)]),
    ("my all-time favorite band is Blur", [(USER, "attr:favorite_band", "Blur", 1.0)]),
    ("my favorite band atm is Blur", [(USER, "attr:favorite_band", "Blur", 1.0)]),
    ("我最爱的乐队是五月天", [(USER, "attr:最喜欢的乐队", "五月天", 1.0)]),  # as 最喜欢的乐队
    ("my preferred airline is KLM", [(USER, "attr:preferred_airline", "KLM", 1.0)]),  # a preference, not a favourite
    ("my favourite colour is blue", [(USER, "attr:favorite_color", "blue", 1.0)]),  # the lexicon's own slot
    ("my favorite band is Blur btw", [(USER, "attr:favorite_band", "Blur", 1.0)]),  # chat shorthand ends a value
])
def test_one_favourite_slot_whatever_the_marker(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("cant stop playing Khruangbin this week, they're my favorite band rn",
     [(USER, "attr:favorite_band", "Khruangbin", 1.0)]),
    ("ok update, Fontaines D.C. have completely taken over. they're my favorite band now, sorry Khruangbin",
     [(USER, "attr:favorite_band", "Fontaines D.C", 1.0)]),  # the last name before the pronoun
    ("went to see Oppenheimer last night, it's my favorite movie now", [(USER, "attr:favorite_movie", "Oppenheimer", 1.0)]),
    ("Went to Luigi's on Friday. honestly it's my fave restaurant lol",
     [(USER, "attr:favorite_restaurant", "Luigi's", 1.0)]),  # a day is no name of a place
    ("Honestly it's my favorite spot", []),  # a sentence's first word is no name
    ("I think they're my favorite band", []),  # no name before it
    ("we saw Blur, they're not my favorite band", []),
    ("is Blur my favorite band?", []),
])
def test_a_favourite_said_of_a_pronoun_takes_the_name_before_it(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("back to Radiohead, they're my favorite again", [(USER, "likes", "Radiohead", 1.0)]),
    ("we tried Luigi's, it's my favorite now", [(USER, "likes", "Luigi's", 1.0)]),
    ("back to Radiohead, they're my all-time favorite lol", [(USER, "likes", "Radiohead", 1.0)]),
    ("I love Radiohead the most", [(USER, "likes", "Radiohead", 1.0)]),  # how much is no part of what
])
def test_a_favourite_of_no_kind_said_of_a_pronoun_is_liked(extractor, text, expected):
    assert triples(extractor, text) == expected
