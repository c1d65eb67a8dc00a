"""Claim extraction by the offline rules: seed stories, stance, attributes, third person, throughput, everyday chat."""

from __future__ import annotations

import time

import pytest
from claims import USER, triples

from bcg_rag.errors import InvalidInputError
from bcg_rag.extract import (
    Extractor,
    OfflineExtractor,
    restatement_diff,
)
from bcg_rag.models import Claim

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
