"""Restatement diffs (two statements that differ in one span) and the offline lexicon's extension."""

from __future__ import annotations

import pytest
from claims import USER, triples

from bcg_rag.errors import ConfigError
from bcg_rag.extract import (
    Lexicon,
    OfflineExtractor,
    SlotDiff,
    restatement_diff,
    statement_key,
)

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
