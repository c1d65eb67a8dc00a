"""jieba's words hold against the phrase peels, and the shapes added for chat_fresh2's
development half: adverbs before a subject, suggestions after adverbs, a degree before 有,
a transfer to a school, an institution's place, 和 inside a name, an attribute of the
clause's topic, "HQ'd in", "hubby". Sentences of our own."""

from __future__ import annotations

import pytest

from bcg_rag.extract import OfflineExtractor
from claims import USER, triples

HUSBAND, WIFE, DAUGHTER, BROTHER = (f"{USER}'s {r}" for r in ("husband", "wife", "daughter", "brother"))


@pytest.mark.parametrize(
    "text, expected",
    [
        # an adverb jieba tags before the subject region is no one (正式 was read as the employer)
        ("今天正式从字节离职了", [(USER, "works_at", "字节", -0.8)]),
        ("我上周正式从小米离职了", [(USER, "works_at", "小米", -0.8)]),
        ("我终于从广州搬到了深圳", [(USER, "lives_in", "广州", -0.8), (USER, "lives_in", "深圳", 1.0)]),
        # a suggestion that opens with adverbs or 还是 before its verb states nothing
        ("还是早点睡觉吧", []),
        ("干脆去吃烧烤吧", []),
        # a peel may not cut a word in two: the 能 of 星河智能 is no "can"
        ("我哥在星河智能上班", [(BROTHER, "works_at", "星河智能", 1.0)]),
        ("星河智能总部在杭州", [("星河智能", "headquarters", "杭州", 1.0)]),
        ("我以后会去学日语", [(USER, "plan:studies", "日语", 0.5)]),  # 我会 is one jieba word, 我 + 会
        # a degree before 有 says a quality, not a thing owned
        ("我们老师很有耐心", []),
        ("我挺有信心的", []),
        ("我有一只兔子", [(USER, "has", "兔子", 1.0)]),
        # a transfer to a school, without 从
        ("女儿转到第一实验小学了", [(DAUGHTER, "studies_at", "第一实验小学", 1.0)]),
        ("我转到市场部了", []),  # no school: nothing read here
        # where an institution is
        ("第一实验小学在西城区", [("第一实验小学", "located_in", "西城区", 1.0)]),
        ("我妈在济南", [(f"{USER}'s mother", "lives_in", "济南", 1.0)]),  # a person in a place lives there
        # 和 splits a list only as a word of its own: 协和医院 is one name
        ("我在协和医院上班", [(USER, "works_at", "协和医院", 1.0)]),
        ("我会说法语和英语", [(USER, "speaks", "法语", 1.0), (USER, "speaks", "英语", 1.0)]),
        # an attribute without 我 goes on about the clause's topic
        ("我老婆是护士，老家是湖南的", [(WIFE, "job_title", "护士", 1.0), (WIFE, "attr:hometown", "湖南", 1.0)]),
        ("我老家是江西的", [(USER, "attr:hometown", "江西", 1.0)]),
        # English: "HQ'd in", "hubby"
        ("Novum is HQ'd in Austin, which is handy", [("Novum", "headquarters", "Austin", 1.0)]),
        ("hubby took a job at Verity last week", [(HUSBAND, "works_at", "Verity", 1.0)]),
        # a named place one has been at for months or years is where one works
        ("my wife's been at Halvorsen Labs for 6 years", [(WIFE, "works_at", "Halvorsen Labs", 1.0)]),
        ("I've been working at Brightwave for two months", [(USER, "works_at", "Brightwave", 1.0)]),
        ("we've been at Legoland for 3 days", []),
        ("I've been at the clinic for 2 hours", []),
    ],
)
def test_words_and_shapes(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_the_shipped_lexicon_and_its_segmenter_are_made_once_per_process():
    """Every default extractor shares one lexicon, hence one jieba tokenizer: a tokenizer per
    memory costs a second of dictionary loading each (an evaluation opens one per case)."""
    from bcg_rag.extract.lexicon import default_lexicon
    from bcg_rag.extract.zh import segmenter

    assert default_lexicon() is default_lexicon()
    assert OfflineExtractor().lexicon is OfflineExtractor().lexicon
    assert segmenter(default_lexicon()) is segmenter(OfflineExtractor().lexicon)


@pytest.mark.parametrize("text, states", [("salmon recipe that isn't boring pls", False), ("a quick pasta recipe please!", False),
                                          ("pleased to say I moved to Leeds", True)])
def test_a_request_may_end_with_its_please(extractor, text, states):
    assert extractor.states_something(text) is states


@pytest.mark.parametrize("text, states", [
    ("what's a good pub quiz team name, something nerdy", False),  # what the question is for
    ("recommend a podcast, something about history", False),
    ("anyway can you give me a quick stretch routine i can do at my desk", False),  # a request after "anyway"
    ("so what do you think", False),
    ("anyway, can you help me plan a weekend trip somewhere warm?", False),  # an opener alone says nothing
    ("can you recommend a book, I love sci-fi", True),  # the speaker says something after the request
    ("any tips for a trip to Rome, we go in May", True),
    ("ok so I moved to Leeds", True),
])
def test_after_a_question_or_request_a_clause_naming_no_one_says_what_it_is_for(extractor, text, states):
    assert extractor.states_something(text) is states
