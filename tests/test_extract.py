"""Claim extraction: offline rules, restatement diffs, and the LLM extractor with a scripted LLM."""

from __future__ import annotations

import asyncio
import time
import pytest

from bcg_rag.errors import ConfigError, ExtractionError, InvalidInputError
from bcg_rag.extract import (
    Extractor,
    Lexicon,
    LLMExtractor,
    OfflineExtractor,
    SlotDiff,
    restatement_diff,
    statement_key,
)
from bcg_rag.models import Claim
from claims import USER, triples


# ------------------------------------------------------------------ seed stories


def test_seed_story_chinese(extractor):
    assert triples(extractor, "我爱喝美式咖啡，每天都要来一杯") == [(USER, "prefers_coffee_type", "americano", 1.0)]
    later = triples(extractor, "最近开始戒咖啡因了，先把美式停掉")
    assert (USER, "prefers_coffee_type", "americano", -0.8) in later
    assert (USER, "consumes", "caffeine", -0.8) in later


def test_seed_story_english(extractor):
    assert triples(extractor, "I love Americano, I have one every day.") == [
        (USER, "prefers_coffee_type", "americano", 1.0)
    ]
    later = triples(extractor, "I've quit caffeine, no more Americano for me.")
    assert (USER, "prefers_coffee_type", "americano", -0.8) in later
    assert (USER, "consumes", "caffeine", -0.8) in later


def test_both_languages_name_the_same_slot(extractor):
    assert triples(extractor, "我爱喝美式咖啡") == triples(extractor, "I love americanos")
    assert triples(extractor, "我喜欢拿铁") == [(USER, "prefers_coffee_type", "latte", 1.0)]


def test_claims_carry_context_and_are_claim_objects(extractor):
    claims = extractor.extract("I like tea", user_id=USER, context="topic:drinks")
    assert claims == [Claim(USER, "likes", "tea", 1.0, context="topic:drinks")]


# ------------------------------------------------------------------ stance


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Maybe I like tea", (USER, "likes", "tea", 0.5)),
        ("I think I like tea", (USER, "likes", "tea", 0.5)),
        ("I probably like tea", (USER, "likes", "tea", 0.5)),
        ("我可能喜欢茶", (USER, "likes", "tea", 0.5)),
        ("我好像喜欢茶", (USER, "likes", "tea", 0.5)),
        ("I probably don't like tea", (USER, "likes", "tea", -0.4)),  # hedge keeps the sign
    ],
)
def test_hedges_halve_the_magnitude(extractor, text, expected):
    assert triples(extractor, text) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I don't like tea", (USER, "likes", "tea", -0.8)),
        ("I do not like tea", (USER, "likes", "tea", -0.8)),
        ("我不喜欢茶", (USER, "likes", "tea", -0.8)),
        ("I don't drink coffee anymore", (USER, "drinks", "coffee", -0.8)),
        ("我不喝咖啡了", (USER, "drinks", "coffee", -0.8)),
        ("我不再喝咖啡了", (USER, "drinks", "coffee", -0.8)),
        ("I no longer live in Berlin", (USER, "lives_in", "Berlin", -0.8)),
        ("I stopped drinking coffee", (USER, "drinks", "coffee", -0.8)),
        ("I quit caffeine", (USER, "consumes", "caffeine", -0.8)),
        ("I gave up meat", (USER, "consumes", "meat", -0.8)),
        ("我不吃肉", (USER, "eats", "meat", -0.8)),
        ("我戒咖啡了", (USER, "drinks", "coffee", -0.8)),  # quitting a drink denies drinking it
        ("no more latte for me", (USER, "prefers_coffee_type", "latte", -0.8)),
    ],
)
def test_negation_and_cessation(extractor, text, expected):
    assert triples(extractor, text) == [expected]


def test_negated_cessation_affirms(extractor):
    assert triples(extractor, "I didn't quit coffee") == [(USER, "drinks", "coffee", 1.0)]
    assert triples(extractor, "我没有戒咖啡") == [(USER, "drinks", "coffee", 1.0)]
    # quitting smoking also ends what was smoked ("smoking": the smokes slot, SLOT_ENDINGS)
    assert triples(extractor, "I quit smoking") == [(USER, "consumes", "smoking", -0.8), (USER, "does", "smoking", -0.8)]
    assert triples(extractor, "我没有戒烟") == [(USER, "consumes", "烟", 1.0)]


# ------------------------------------------------------------------ attributes and states


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I moved to Berlin last month", (USER, "lives_in", "Berlin", 1.0)),
        ("I live in Paris", (USER, "lives_in", "Paris", 1.0)),
        ("I've been living in Berlin since 2019", (USER, "lives_in", "Berlin", 1.0)),
        ("I'm moving to Tokyo", (USER, "plan:lives_in", "Tokyo", 0.5)),  # a plan, not a fact (issue 10)
        ("我上个月搬到了柏林", (USER, "lives_in", "柏林", 1.0)),
        ("我最近住在上海", (USER, "lives_in", "上海", 1.0)),
        ("I work at Google", (USER, "works_at", "Google", 1.0)),
        ("I work for the Bank of England", (USER, "works_at", "Bank of England", 1.0)),
        ("I joined Acme Corp recently", (USER, "works_at", "Acme Corp", 1.0)),
        ("我在腾讯工作", (USER, "works_at", "腾讯", 1.0)),
    ],
)
def test_states_without_time_phrases(extractor, text, expected):
    assert triples(extractor, text) == [expected]


def test_also_is_ignored(extractor):
    assert triples(extractor, "I like tea") == [(USER, "likes", "tea", 1.0)]
    assert triples(extractor, "I also like coffee") == [(USER, "likes", "coffee", 1.0)]
    assert triples(extractor, "我也喜欢咖啡") == [(USER, "likes", "coffee", 1.0)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("my favorite color is blue", (USER, "attr:favorite_color", "blue", 1.0)),
        ("My favourite colour is blue.", (USER, "attr:favorite_color", "blue", 1.0)),
        ("My shoe size is 42", (USER, "attr:shoe_size", "42", 1.0)),
        ("我最喜欢的颜色是蓝色", (USER, "attr:favorite_color", "蓝色", 1.0)),
        ("我的名字是小明", (USER, "attr:name", "小明", 1.0)),
        ("我的名字不是小红", (USER, "attr:name", "小红", -0.8)),
        ("my name is not Bob", (USER, "attr:name", "Bob", -0.8)),
        # a taste's value is a name or title as said, whatever jieba tags it (五月天 is a time to it)
        ("我最喜欢的乐队是五月天", (USER, "attr:最喜欢的乐队", "五月天", 1.0)),
        ("我最喜欢的季节是秋天", (USER, "attr:最喜欢的季节", "秋天", 1.0)),
        ("我最喜欢的乐队是苏打绿", (USER, "attr:最喜欢的乐队", "苏打绿", 1.0)),
        # said without 我, after a time word, or as a change
        ("最喜欢的乐队是五月天", (USER, "attr:最喜欢的乐队", "五月天", 1.0)),
        ("最爱的颜色是蓝色", (USER, "attr:favorite_color", "蓝色", 1.0)),
        ("最近最喜欢的乐队变成草东了", (USER, "attr:最喜欢的乐队", "草东", 1.0)),
        ("说来你可能不信，现在我最喜欢的歌手变成陈奕迅了", (USER, "attr:最喜欢的歌手", "陈奕迅", 1.0)),
    ],
)
def test_my_x_is_y(extractor, text, expected):
    assert triples(extractor, text) == [expected]


@pytest.mark.parametrize("text", ["我最喜欢的食物是很多", "我最喜欢的颜色是什么来着", "我最喜欢的歌是你"])
def test_a_taste_needs_a_value_that_names_something(extractor, text):
    assert triples(extractor, text) == []


# ------------------------------------------------------------------ third person


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Alex Song plays the position of defender.",
            ("Alex Song", "plays_the_position_of", "defender", 1.0),
        ),
        (
            "Alex Song no longer plays the position of defender.",
            ("Alex Song", "plays_the_position_of", "defender", -0.8),
        ),
        ("Marie Curie was born in Warsaw", ("Marie Curie", "born_in", "Warsaw", 1.0)),  # a lexicon predicate (issue 10)
        ("Paris is the capital of France", ("Paris", "is_the_capital_of", "France", 1.0)),
        ("Alex doesn't play for Arsenal", ("Alex", "plays_for", "Arsenal", -0.8)),
        ("Alex Song isn't a defender", ("Alex Song", "is", "defender", -0.8)),
        ("Sarah moved to Berlin in 2019", ("Sarah", "lives_in", "Berlin", 1.0)),  # lexicon predicate
        ("The capital of Australia is Canberra", ("Australia", "capital", "Canberra", 1.0)),
        (
            "The original broadcaster of Grey's Anatomy is American Broadcasting Company",
            ("Grey's Anatomy", "original_broadcaster", "American Broadcasting Company", 1.0),
        ),
        ("Grey's Anatomy's original broadcaster is ABC", ("Grey's Anatomy", "original_broadcaster", "ABC", 1.0)),
        ("小张住在上海", ("小张", "lives_in", "上海", 1.0)),
        ("王先生住在北京", ("王先生", "lives_in", "北京", 1.0)),
        ("小张喜欢喝茶", ("小张", "drinks", "tea", 1.0)),
        ("小张是医生", ("小张", "job_title", "医生", 1.0)),
        ("小张的生日是五月", ("小张", "birthday", "五月", 1.0)),
        ("我觉得小张住在北京", ("小张", "lives_in", "北京", 0.5)),
    ],
)
def test_third_person_facts(extractor, text, expected):
    assert triples(extractor, text) == [expected]


def test_known_entities_are_subjects_and_keep_their_spelling(extractor):
    assert triples(extractor, "bob lives in paris", known_entities=["Bob", "Paris"]) == [
        ("Bob", "lives_in", "Paris", 1.0)
    ]


def test_pronouns_follow_the_speaker(extractor):
    assert triples(extractor, "You love tea", speaker="assistant") == [(USER, "likes", "tea", 1.0)]
    assert triples(extractor, "I love tea", speaker="assistant") == [("assistant", "likes", "tea", 1.0)]
    assert triples(extractor, "You love tea") == []  # the user talking about the assistant


@pytest.mark.parametrize(
    "text",
    ["hmm ok", "thanks!", "lol", "Sounds good", "Hi there", "I have one every day", "今天天气不错",
     "今天的天气是晴天", "他住在北京", "I like it", "Can you help me with my code?", "The weather is nice today",
     "", "   "],
)
def test_unparseable_messages_give_no_claims(extractor, text):
    assert extractor.extract(text, user_id=USER) == []


def test_several_clauses_and_duplicates(extractor):
    assert triples(extractor, "I like tea but I don't like coffee. I like tea!") == [
        (USER, "likes", "tea", 1.0),
        (USER, "likes", "coffee", -0.8),
    ]
    assert triples(extractor, "Alex likes tea and lives in Paris") == [("Alex", "likes", "tea", 1.0), ("Alex", "lives_in", "Paris", 1.0)]
    assert triples(extractor, "I prefer tea over coffee") == [(USER, "likes", "tea", 1.0)]


def test_known_predicates_keep_the_callers_spelling(extractor):
    assert triples(extractor, "I live in Rome", known_predicates=["Lives In"]) == [(USER, "Lives In", "Rome", 1.0)]
    assert triples(extractor, "I live in Rome", known_predicates=["live in"]) == [(USER, "live in", "Rome", 1.0)]
    assert triples(extractor, "我住在罗马", known_predicates=["住在"]) == [(USER, "住在", "罗马", 1.0)]
    assert triples(
        extractor, "Alex Song plays the position of defender", known_predicates=["Plays the position of"]
    ) == [("Alex Song", "Plays the position of", "defender", 1.0)]
    assert triples(extractor, "I live in Rome", known_predicates=["works_at"]) == [(USER, "lives_in", "Rome", 1.0)]


def test_deterministic(extractor):
    text = "我爱喝美式咖啡，最近开始戒咖啡因了。I moved to Berlin last month, my favorite color is blue."
    first = extractor.extract(text, user_id=USER)
    assert len(first) == 4
    assert all(OfflineExtractor().extract(text, user_id=USER) == first for _ in range(3))


def test_invalid_input(extractor):
    with pytest.raises(InvalidInputError):
        extractor.extract("I like tea", user_id="")
    with pytest.raises(InvalidInputError):
        extractor.extract(None, user_id=USER)  # type: ignore[arg-type]


def test_offline_extractor_satisfies_protocol(extractor):
    assert isinstance(extractor, Extractor)


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


# ------------------------------------------------------------------ lexicon


def test_lexicon_extension_by_dict(extractor):
    assert triples(extractor, "I fancy matcha") == []
    lexicon = Lexicon.load().extend(
        {
            "predicates": {"likes": ["fancy"], "plays": ["play", "打"]},
            "values": {"matcha": ["抹茶", "matcha latte"], "basketball": ["篮球"]},
            "value_predicates": {"prefers_tea_type": {"values": ["matcha"], "from": ["likes"]}},
        }
    )
    custom = OfflineExtractor(lexicon)
    assert triples(custom, "I fancy matcha") == [(USER, "prefers_tea_type", "matcha", 1.0)]
    assert triples(custom, "she fancies matcha latte", speaker="assistant") == []  # "she": no name
    assert triples(custom, "Alex fancies matcha latte") == [("Alex", "prefers_tea_type", "matcha", 1.0)]
    assert triples(custom, "我每天都打篮球") == [(USER, "plays", "basketball", 1.0)]
    # the original lexicon and extractor are unchanged
    assert triples(custom, "I love Americano") == triples(extractor, "I love Americano")
    assert triples(extractor, "I fancy matcha") == []


def test_lexicon_extension_by_user_toml(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[predicates]\nlikes = ["dig"]\n[values]\n"oolong tea" = ["乌龙", "oolong"]\n', encoding="utf-8")
    custom = OfflineExtractor(Lexicon.load(path))
    assert triples(custom, "I dig oolong") == [(USER, "likes", "oolong tea", 1.0)]
    assert triples(custom, "我喜欢乌龙") == [(USER, "likes", "oolong tea", 1.0)]
    assert triples(custom, "I love Americano") == [(USER, "prefers_coffee_type", "americano", 1.0)]


def test_lexicon_replacement_and_bad_files(tmp_path):
    only = tmp_path / "only.toml"
    only.write_text('[predicates]\nlikes = ["like"]\n[subjects]\nfirst_person = ["i"]\n', encoding="utf-8")
    replaced = OfflineExtractor(Lexicon.load(only, extend_default=False))
    assert triples(replaced, "I like tea") == [(USER, "likes", "tea", 1.0)]
    assert triples(replaced, "I love tea") == []

    broken = tmp_path / "broken.toml"
    broken.write_text("[predicates\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        Lexicon.load(broken)
    with pytest.raises(ConfigError):
        Lexicon.load(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="unknown lexicon section"):
        Lexicon.load().extend({"predicatez": {"likes": ["dig"]}})
    with pytest.raises(ConfigError):
        Lexicon.load().extend({"predicates": {"likes": [""]}})
    with pytest.raises(ConfigError):
        Lexicon.load().extend({"predicates": {"likes": "dig"}})  # a string where a list is
    with pytest.raises(ConfigError):
        Lexicon.load().extend({"stance": {"negated": -3}})
    with pytest.raises(ConfigError):
        Lexicon({"predicates": {"likes": "dig"}})  # a whole lexicon is checked the same way


# ------------------------------------------------------------------ restatement diff


def test_restatement_diff_replaces_a_span():
    assert restatement_diff(
        "Alex Song plays the position of defender.", "Alex Song plays the position of linebacker."
    ) == SlotDiff("alex song plays the position of {}", "defender", "linebacker", False)
    diff = restatement_diff(
        "The original broadcaster of Grey's Anatomy is American Broadcasting Company",
        "The original broadcaster of Grey's Anatomy is British Broadcasting Corporation",
    )
    assert diff is not None
    assert (diff.old_value, diff.new_value) == ("American Broadcasting Company", "British Broadcasting Corporation")
    assert diff.template == "the original broadcaster of grey's anatomy is {}"
    diff = restatement_diff(
        "Q: who is the president of france A: Hollande", "Q: who is the president of france A: Macron"
    )
    assert diff is not None and (diff.old_value, diff.new_value) == ("Hollande", "Macron")
    # The shared part is weighed against the shorter text: a long new value ("Sony
    # Interactive Entertainment") does not hide that the rest of the sentence is the same.
    diff = restatement_diff("The Kindle was made by Amazon.", "The Kindle was made by Sony Interactive Entertainment.")
    assert diff is not None and (diff.old_value, diff.new_value) == ("Amazon", "Sony Interactive Entertainment")
    assert restatement_diff("I have a cat.", "My sister has a dog and two rabbits.") is None


def test_restatement_diff_chinese_and_mixed():
    assert restatement_diff("小张住在上海", "小张住在北京") == SlotDiff("小张住在{}", "上海", "北京", False)
    assert restatement_diff("I live in 北京", "I live in 上海") == SlotDiff("i live in {}", "北京", "上海", False)


def test_restatement_diff_negation():
    diff = restatement_diff(
        "Alex Song plays the position of defender", "Alex Song no longer plays the position of defender"
    )
    assert diff == SlotDiff("alex song {} plays the position of defender", "", "no longer", True)
    back = restatement_diff("The sky is not blue", "The sky is blue")
    assert back is not None and back.negated and (back.old_value, back.new_value) == ("not", "")
    assert restatement_diff("小张喜欢茶", "小张不喜欢茶").negated
    assert not restatement_diff("Alex plays defender", "Alex plays striker").negated


def test_restatement_diff_leaves_time_words_out_of_values():
    assert restatement_diff("My favorite color is red.", "My favorite color is blue now.") == SlotDiff(
        "my favorite color is {}", "red", "blue", False
    )
    diff = restatement_diff("The headquarters of Norlith is in Oslo.", "The headquarters of Norlith is in Bergen now.")
    assert diff is not None and (diff.old_value, diff.new_value) == ("Oslo", "Bergen")
    assert restatement_diff("I live in Paris", "I live in Paris now") is None  # only the time changed
    assert restatement_diff("小张住在上海", "小张住在上海三年了") is None

@pytest.mark.parametrize(
    "old, new",
    [
        ("I live in Berlin", "I live in Berlin"),
        ("I live in Berlin", "i live in berlin."),  # only case and final punctuation differ
        ("hello there", "goodbye friend"),
        ("a b", "a c"),  # one shared token is not a slot
        ("Alex plays defender", "The weather in Paris is lovely today"),
    ],
)
def test_restatement_diff_none(old, new):
    assert restatement_diff(old, new) is None


def test_restatement_diff_min_shared():
    old, new = "Alex plays as a defender", "Alex plays the best striker role in Spain"
    assert restatement_diff(old, new) is None  # 2 shared of the shorter text's 5 tokens
    assert restatement_diff(old, new, min_shared=0.3) is not None


def test_statement_key():
    assert statement_key("Alex Song plays the position of defender.") == "alex song plays the position of defender"
    assert statement_key("Alex Song  no longer plays the position of defender!") == statement_key(
        "alex song plays the position of defender"
    )
    assert statement_key("小张不喜欢茶。") == statement_key("小张喜欢茶") == "小张喜欢茶"


# ------------------------------------------------------------------ LLM extractor

from bcg_rag.testing import scripted  # noqa: E402

GOOD = '{"claims": [{"subject": "u1", "predicate": "prefers_coffee_type", "value": "americano", "stance": 1.0}]}'


def test_llm_extractor_good_answer_and_prompt():
    llm = scripted("```json\n" + GOOD + "\n```")
    extractor = LLMExtractor(llm)
    claims = extractor.extract(
        "我爱喝美式咖啡", user_id="u1", context="topic:coffee",
        known_predicates=["prefers_coffee_type"], known_entities=["americano"],
    )
    assert claims == [Claim("u1", "prefers_coffee_type", "americano", 1.0, context="topic:coffee")]
    assert isinstance(extractor, Extractor)
    prompt = llm.prompts[0]
    assert "我爱喝美式咖啡" in prompt and '"prefers_coffee_type"' in prompt and '"americano"' in prompt
    assert 'have subject "u1"' in prompt
    # the offline rules' precision rules, said to the LLM too
    assert "number_of_bikes" in prompt and "job_title" in prompt and "unless the text says a change" in prompt
    assert extractor.usage["calls"] == 1
    assert extractor.usage["prompt_tokens"] > 0 and extractor.usage["completion_tokens"] > 0


def test_llm_extractor_stabilises_names_and_first_person():
    answer = '{"claims": [{"subject": "I", "predicate": "Lives In", "value": "Rome", "stance": 0.5, "source_type": "user"}]}'
    extractor = LLMExtractor(scripted(answer))
    claims = extractor.extract("maybe I live in Rome", user_id="u1", known_predicates=["lives_in"])
    assert claims == [Claim("u1", "lives_in", "Rome", 0.5, source_type="user")]


def test_llm_extractor_retries_a_malformed_answer():
    llm = scripted("Sure! Here are the claims: americano", GOOD)
    extractor = LLMExtractor(llm)
    assert extractor.extract("I love Americano", user_id="u1")[0].value == "americano"
    assert extractor.usage["calls"] == 2
    assert "rejected" in llm.prompts[1]


@pytest.mark.parametrize(
    "bad",
    [
        "not json at all",
        '{"claims": [{"subject": "u1", "predicate": "likes", "value": "tea"}]}',  # no stance
        '{"claims": [{"subject": "u1", "predicate": "likes", "value": "tea", "stance": 3}]}',  # out of range
        '{"claims": [{"subject": "", "predicate": "likes", "value": "tea", "stance": 1}]}',
        '{"answer": []}',
    ],
)
def test_llm_extractor_gives_up_with_extraction_error(bad):
    extractor = LLMExtractor(scripted(bad), max_retries=2)
    with pytest.raises(ExtractionError) as raised:
        extractor.extract("I like tea", user_id="u1")
    assert bad[:20] in str(raised.value)  # the raw answer is in the message
    assert extractor.usage["calls"] == 3


def test_llm_extractor_uses_reported_usage():
    extractor = LLMExtractor(scripted(GOOD, usage={"prompt_tokens": 120, "completion_tokens": 30}))
    extractor.extract("I love Americano", user_id="u1")
    extractor.extract("I love Americano", user_id="u1")
    assert extractor.usage == {"calls": 2, "prompt_tokens": 240, "completion_tokens": 60}


def test_llm_extractor_batch_one_call():
    answer = (
        '{"results": [{"index": 1, "claims": []}, '
        '{"index": 0, "claims": [{"subject": "u1", "predicate": "likes", "value": "tea", "stance": 1}]}]}'
    )
    llm = scripted(answer)
    extractor = LLMExtractor(llm)
    assert extractor.extract_batch(["I like tea", "hmm ok"], user_id="u1") == [[Claim("u1", "likes", "tea", 1.0)], []]
    assert extractor.usage["calls"] == 1 and '[1] "hmm ok"' in llm.prompts[0]


def test_llm_extractor_batch_partial_answer_is_retried():
    partial = '{"results": [{"index": 0, "claims": []}]}'
    full = '{"results": [{"index": 0, "claims": []}, {"index": 1, "claims": []}]}'
    extractor = LLMExtractor(scripted(partial, full))
    assert extractor.extract_batch(["a", "b"], user_id="u1") == [[], []]
    assert extractor.usage["calls"] == 2
    with pytest.raises(ExtractionError):
        LLMExtractor(scripted(partial), max_retries=0).extract_batch(["a", "b"], user_id="u1")


def test_llm_extractor_async():
    extractor = LLMExtractor(scripted("{oops", GOOD))
    claims = asyncio.run(extractor.aextract("I love Americano", user_id="u1"))
    assert claims == [Claim("u1", "prefers_coffee_type", "americano", 1.0)]
    assert extractor.usage["calls"] == 2
    with pytest.raises(ExtractionError):
        asyncio.run(LLMExtractor(scripted("{oops"), max_retries=1).aextract("x", user_id="u1"))


def test_llm_extractor_rejects_bad_arguments():
    with pytest.raises(InvalidInputError):
        LLMExtractor(scripted(GOOD), max_retries=-1)
    with pytest.raises(InvalidInputError):
        LLMExtractor(scripted(GOOD)).extract("x", user_id="")


# ------------------------------------------------------------------ throughput


def test_offline_throughput(extractor, capsys):
    """Not a timing assertion: prints messages/s for the report (run with -s to see it)."""
    samples = [
        "我爱喝美式咖啡，每天都要来一杯",
        "最近开始戒咖啡因了，先把美式停掉",
        "I love Americano, I have one every day.",
        "I've quit caffeine, no more Americano for me.",
        "I moved to Berlin last month",
        "my favorite color is blue",
        "Alex Song plays the position of defender.",
        "The capital of Australia is Canberra",
        "小张住在上海",
        "hmm ok, thanks for the help with my essay yesterday, it was really useful",
    ]
    messages = [f"{samples[i % len(samples)]} {i}" if i % 3 == 0 else samples[i % len(samples)] for i in range(2000)]
    start = time.perf_counter()
    claims = sum(len(extractor.extract(m, user_id=USER)) for m in messages)
    elapsed = time.perf_counter() - start
    with capsys.disabled():
        print(f"\noffline extraction: {len(messages) / elapsed:,.0f} messages/s ({claims} claims from {len(messages)} messages)")
    assert claims > 1000


def test_initials_do_not_end_a_clause_and_dropped_words_widen_the_span():
    claims = OfflineExtractor().extract("SpaceX was founded by George W. Bush.", user_id="u")
    assert [(c.subject, c.value) for c in claims] == [("SpaceX", "George W. Bush")]
    diff = restatement_diff("flanker is associated with the sport of rugby union.", "flanker is associated with the sport of rugby.")
    assert (diff.old_value, diff.new_value, diff.negated) == ("rugby union", "rugby", False)
    diff = restatement_diff("It was created in the country of United Kingdom.", "It was created in the country of United States of America.")
    assert (diff.old_value, diff.new_value) == ("United Kingdom", "United States of America")


def test_questions_assert_nothing():
    e = OfflineExtractor()
    assert e.extract("我住在哪里？", user_id="u") == []
    assert e.extract("我平时喝什么咖啡？", user_id="u") == []
    assert e.extract("Where do I live?", user_id="u") == []
    assert [c.value for c in e.extract("Where do I live? I live in Paris.", user_id="u")] == ["Paris"]


# ------------------------------------------------------------------ issue 10: ordinary chat


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I moved from Shanghai to Shenzhen last spring.",
         [(USER, "lives_in", "Shanghai", -0.8), (USER, "lives_in", "Shenzhen", 1.0)]),
        ("I just started a new job at Microsoft as a data scientist.",
         [(USER, "works_at", "Microsoft", 1.0), (USER, "job_title", "data scientist", 1.0)]),
        ("I'm vegetarian now, so no more steak for me.",
         [(USER, "diet", "vegetarian", 1.0), (USER, "consumes", "steak", -0.8)]),
        ("My sister Anna lives in Toronto.", [("Anna", "lives_in", "Toronto", 1.0)]),
        ("Maybe I'll switch to tea in the mornings.", [(USER, "plan:drinks", "tea", 0.5)]),
        ("我上个月从北京搬到了上海。", [(USER, "lives_in", "北京", -0.8), (USER, "lives_in", "上海", 1.0)]),
        ("我妈妈是医生，她住在成都。", [(f"{USER}'s mother", "job_title", "医生", 1.0), (f"{USER}'s mother", "lives_in", "成都", 1.0)]),
        ("I quit my job at Acme.", [(USER, "works_at", "Acme", -0.8)]),
        ("Joined Stripe in March", [(USER, "works_at", "Stripe", 1.0)]),
        ("I used to live in Paris.", [(USER, "lives_in", "Paris", -0.8)]),
    ],
)
def test_the_issue_sentences(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "text",
    ["Can you recommend a good sushi place in Berlin?", "Please remind me to call my mom.", "thanks, that helps!",
     "帮我写一封邮件给我老板", "你觉得我应该搬到上海吗？", "haha ok", "What's the weather like in Paris?", "好的，谢谢"],
)
def test_questions_requests_and_small_talk_say_nothing(extractor, text):
    assert extractor.extract(text, user_id=USER) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("We have two kids.", [(USER, "has", "kids", 1.0)]),
        ("My friend Sarah works at Google.", [("Sarah", "works_at", "Google", 1.0)]),
        ("我妈住在杭州", [(f"{USER}'s mother", "lives_in", "杭州", 1.0)]),
        ("我以前在阿里巴巴工作", [(USER, "works_at", "阿里巴巴", -0.8)]),
        ("我打算明年搬到杭州", [(USER, "plan:lives_in", "杭州", 0.5)]),
        ("I'm thinking of moving to Lisbon.", [(USER, "plan:lives_in", "Lisbon", 0.5)]),
        ("I have a question about my taxes", []),
        ("I'm a nurse at Mercy Hospital", [(USER, "job_title", "nurse", 1.0), (USER, "works_at", "Mercy Hospital", 1.0)]),
        ("I speak French and Spanish", [(USER, "speaks", "French", 1.0), (USER, "speaks", "Spanish", 1.0)]),
        ("我把美式换成了拿铁", [(USER, "prefers_coffee_type", "americano", -0.8), (USER, "prefers_coffee_type", "latte", 1.0)]),
    ],
)
def test_everyday_chat(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_a_long_message_extracts_in_linear_time(extractor):
    """Issue 12: value cleaning was quadratic (a 40 KB message took 91 s)."""
    for text in ("I like " + "very " * 8000 + "tea", "我喜欢" + "很" * 40000, ("I live in Paris. " * 2400)[:40960],
                 "a" * 40960, "I like tea " + "and coffee " * 3700):
        start = time.perf_counter()
        extractor.extract(text, user_id=USER)
        assert time.perf_counter() - start < 1.0, text[:30]
