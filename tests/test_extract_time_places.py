"""Offline extraction: time words kept out of values, subjects around them, reported speech,
places and headquarters, light verbs."""

from __future__ import annotations

import pytest
from claims import USER, triples

from bcg_rag.extract import Lexicon

# ------------------------------------------------------------------ time words, attributes, third person


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My favorite color is blue now", (USER, "attr:favorite_color", "blue", 1.0)),
        ("My favorite color now is blue", (USER, "attr:favorite_color", "blue", 1.0)),
        ("These days my favorite color is green", (USER, "attr:favorite_color", "green", 1.0)),
        ("I usually drink green tea in the morning now", (USER, "drinks", "green tea", 1.0)),
        ("I drink tea at night", (USER, "drinks", "tea", 1.0)),
        ("I've lived in Paris for 3 years", (USER, "lives_in", "Paris", 1.0)),
        ("I don't live in Rome anymore", (USER, "lives_in", "Rome", -0.8)),
        ("我最喜欢的颜色现在是绿色", (USER, "attr:favorite_color", "绿色", 1.0)),
        ("我最喜欢的颜色目前是绿色", (USER, "attr:favorite_color", "绿色", 1.0)),
        ("我最喜欢的颜色已经是绿色了", (USER, "attr:favorite_color", "绿色", 1.0)),
        ("我的名字也是小明", (USER, "attr:name", "小明", 1.0)),
        ("我住在北京三年了", (USER, "lives_in", "北京", 1.0)),
        ("我早上喝咖啡", (USER, "drinks", "coffee", 1.0)),
        ("我的生日是五月", (USER, "attr:birthday", "五月", 1.0)),  # a month, not a duration
    ],
)
def test_time_words_never_inside_values(extractor, text, expected):
    assert triples(extractor, text) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我现在在腾讯工作", (USER, "works_at", "腾讯", 1.0)),  # 在 of 现在 is not the frame's 在
        ("小张现在在腾讯工作", ("小张", "works_at", "腾讯", 1.0)),
        ("老王目前在阿里巴巴工作", ("老王", "works_at", "阿里巴巴", 1.0)),
        ("我已经不在腾讯工作了", (USER, "works_at", "腾讯", -0.8)),
        ("我最喜欢茶", (USER, "likes", "tea", 1.0)),  # 最 is an adverb, not part of the subject
        ("小张最爱喝茶", ("小张", "drinks", "tea", 1.0)),
        ("王刚住在北京", ("王刚", "lives_in", "北京", 1.0)),  # 刚 ("just") inside a name stays
        ("王爱华喜欢茶", ("王爱华", "likes", "tea", 1.0)),  # 爱 inside a name is no verb
        ("王爱华的生日是五月", ("王爱华", "birthday", "五月", 1.0)),
    ],
)
def test_chinese_subjects_around_time_words_and_adverbs(extractor, text, expected):
    assert triples(extractor, text) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("老王最喜欢的颜色是蓝色", ("老王", "attr:favorite_color", "蓝色", 1.0)),
        ("王五最喜欢的颜色现在是绿色", ("王五", "attr:favorite_color", "绿色", 1.0)),
        ("小张最喜欢的颜色不是红色", ("小张", "attr:favorite_color", "红色", -0.8)),
        ("我最爱的颜色是红色", (USER, "attr:favorite_color", "红色", 1.0)),  # marker variants share a name
        ("Mike's favorite color is red", ("Mike", "attr:favorite_color", "red", 1.0)),
        ("The favorite color of Mike is red", ("Mike", "attr:favorite_color", "red", 1.0)),
        ("Michael Chen's favourite colour is yellow now", ("Michael Chen", "attr:favorite_color", "yellow", 1.0)),
    ],
)
def test_third_person_tastes_name_the_first_person_slot(extractor, text, expected):
    assert triples(extractor, text) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The user lives in Lyon.", (USER, "lives_in", "Lyon", 1.0)),
        ("The user no longer likes hiking.", (USER, "likes", "hiking", -0.8)),
        ("Maybe the user's favorite color is orange.", (USER, "attr:favorite_color", "orange", 0.5)),
        ("The user is a doctor", (USER, "job_title", "doctor", 1.0)),
        ("用户在京东工作。", (USER, "works_at", "京东", 1.0)),
        ("用户不再喝乌龙茶了。", (USER, "drinks", "乌龙茶", -0.8)),
        ("用户最喜欢的颜色可能是黄色。", (USER, "attr:favorite_color", "黄色", 0.5)),
        ("用户张三也喜欢足球", ("用户张三", "likes", "足球", 1.0)),  # a name that starts with 用户
    ],
)
def test_the_user_in_the_third_person(extractor, text, expected):
    assert triples(extractor, text) == [expected]
    assert triples(extractor, text, speaker="assistant") == [expected]


def test_second_person_attributes_from_the_assistant(extractor):
    assert triples(extractor, "your favorite color is blue", speaker="assistant") == [
        (USER, "attr:favorite_color", "blue", 1.0)
    ]
    assert triples(extractor, "你的名字是小明", speaker="assistant") == [(USER, "attr:name", "小明", 1.0)]
    assert triples(extractor, "your favorite color is blue") == []  # the user talking about the assistant


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A colleague says the user maybe works at Umbrella now.", [(USER, "works_at", "Umbrella", 0.5)]),
        ("My sister told me that Alex lives in Oslo", [("Alex", "lives_in", "Oslo", 1.0)]),
        ("I said I like tea", [(USER, "likes", "tea", 1.0)]),
        ("同事说用户可能住在东莞。", [(USER, "lives_in", "东莞", 0.5)]),
        ("听说小张住在北京", [("小张", "lives_in", "北京", 1.0)]),
        ("小张说小李住在北京", [("小李", "lives_in", "北京", 1.0)]),
        ("他说他喜欢茶", []),  # what was said is about no one we can name
        ("我喜欢看小说", [(USER, "likes", "小说", 1.0)]),  # 说 inside a word is no reporting verb
    ],
)
def test_reported_speech(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The headquarters of Siemens is in Munich.", ("Siemens", "headquarters", "Munich", 1.0)),
        ("The headquarters of Norlith is in Bergen now.", ("Norlith", "headquarters", "Bergen", 1.0)),
        ("Siemens's headquarters is in Munich", ("Siemens", "headquarters", "Munich", 1.0)),
        ("Siemens is headquartered in Munich", ("Siemens", "headquarters", "Munich", 1.0)),
        ("The headquarters of Siemens is located in Munich", ("Siemens", "headquarters", "Munich", 1.0)),
        ("Geneva is located in Switzerland", ("Geneva", "located_in", "Switzerland", 1.0)),
        ("Geneva isn't located in France", ("Geneva", "located_in", "France", -0.8)),
        ("My birthday is on May 5", (USER, "attr:birthday", "May 5", 1.0)),
        ("华为的总部在深圳", ("华为", "headquarters", "深圳", 1.0)),
        ("华为的总部位于深圳", ("华为", "headquarters", "深圳", 1.0)),
        ("华为的总部现在在深圳", ("华为", "headquarters", "深圳", 1.0)),
        ("华为的总部不在深圳", ("华为", "headquarters", "深圳", -0.8)),
        ("华为总部在深圳", ("华为", "headquarters", "深圳", 1.0)),
        ("华为的总部所在地是深圳", ("华为", "headquarters", "深圳", 1.0)),
        ("大理位于云南", ("大理", "located_in", "云南", 1.0)),
        ("云杉公司的CEO是刘洋", ("云杉公司", "ceo", "刘洋", 1.0)),
    ],
)
def test_places_and_headquarters(extractor, text, expected):
    assert triples(extractor, text) == [expected]


def test_a_place_shape_does_not_swallow_verb_frames(extractor):
    assert triples(extractor, "小张的妈妈在医院工作") == []  # whose job? the mother's: no claim about 小张


@pytest.mark.parametrize(
    "text, same_as",
    [
        ("我喜欢打篮球", "小张喜欢篮球"),
        ("I like playing basketball", "I like basketball"),
        ("I enjoy listening to jazz", "I like jazz"),
        ("我还喜欢下围棋", "我喜欢围棋"),
    ],
)
def test_light_verbs_leave_the_activity(extractor, text, same_as):
    assert [c[1:] for c in triples(extractor, text)] == [c[1:] for c in triples(extractor, same_as)]


def test_light_verbs_keep_short_objects(extractor):
    assert triples(extractor, "我喜欢看书") == [(USER, "likes", "看书", 1.0)]  # 书 alone is too short
    assert triples(extractor, "I like Go") == [(USER, "likes", "Go", 1.0)]


def test_decaf_is_a_coffee_type_in_both_languages(extractor):
    assert triples(extractor, "For my health, I prefer decaf now.") == [(USER, "prefers_coffee_type", "decaf", 1.0)]
    assert triples(extractor, "为了健康，我现在喜欢喝低因咖啡") == [(USER, "prefers_coffee_type", "decaf", 1.0)]


def test_edge_patterns_find_what_a_full_search_finds():
    lexicon = Lexicon.load()
    texts = ["blue now", "green tea in the morning", "Berlin these days", "北京现在", "the user", "now blue",
             "a" * 300 + " right now", "nothing here", "现在", ""]
    for phrases in (lexicon.time, lexicon.around_value, lexicon.negation):
        for text in texts:
            fast, full = phrases.trail.search(text), phrases.trail.pattern.search(text)
            assert (fast.group().strip() if fast else None) == (full.group().strip() if full else None)
            assert (fast.end() if fast else None) == (full.end() if full else None)
            lead, full_lead = phrases.lead.search(text), phrases.lead.pattern.search(text)
            assert (lead.span() if lead else None) == (full_lead.span() if full_lead else None)
