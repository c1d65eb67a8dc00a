"""Everyday shapes that a blind set (chat_fresh25) showed unread or misread, each a general
mechanism rather than one sentence:

* "eat out", "hang out": the particle is the verb's, no thing eaten;
* a trade "up in" a town, the town typed in lower case ("my sister's a vet up in aberdeen"), and
  lives "up in" / "down in" a town; a field of work is no town ("a developer in fintech");
* a title without an article ("i'm store manager now");
* a town, then an organisation it does not name: "在杭州一家游戏公司上班" works in 杭州;
* "进了腾讯做HRBP": joined, with the title;
* a life event, then where the same one went, as two clauses ("辞职搬去深圳了");
* "就当省心了": taking something as something, no job; "又回去挤地铁了": back to a way of commuting;
* "X不干了" / "X不续了" end X, and so does "再也不跑马拉松了"; "我吃素三年了": a diet with how long;
* gone to a town to study ("我弟去了北京读博"): one lives where one studies;
* 泡(在) a place regularly is a habit, as 去 is ("周末都泡在攀岩馆"); Nokia and BlackBerry are phones by their make;
* "the loose ends are no more" ends the band "The Loose Ends" (a name's article is no word of it);
* "搞电池测试的" after the speaker's employer is the speaker's trade; "我叫陈晓，二十九": naming oneself
  introduces oneself, and a bare age after it is one's own.
"""

from __future__ import annotations

import pytest

from bcg_rag.endings import names_value
from bcg_rag.extract.endings import ENDED
from claims import USER, triples

SISTER = f"{USER}'s sister"


@pytest.mark.parametrize("text", ["i eat out way too much", "I eat out a lot", "we hang out at the Crown a lot"])
def test_a_verb_particle_is_no_value(extractor, text):
    assert triples(extractor, text) == []


@pytest.mark.parametrize("text, expected", [
    ("my sister's a vet up in aberdeen and basically never gets the holidays off",
     [(SISTER, "job_title", "vet", 1.0), (SISTER, "works_in", "Aberdeen", 1.0)]),
    ("my sister lives up in aberdeen", [(SISTER, "lives_in", "Aberdeen", 1.0)]),
    ("I live down in Brighton", [(USER, "lives_in", "Brighton", 1.0)]),
    ("I'm a developer in fintech", [(USER, "job_title", "developer", 1.0)]),
    ("update: i'm store manager now. my life is spreadsheets", [(USER, "job_title", "store manager", 1.0)]),
    ("i'm nurse", [(USER, "job_title", "nurse", 1.0)]),
])
def test_a_trade_up_in_a_town_and_a_title_without_article(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", ["we live out in the sticks", "I'm manager material", "I'm happy"])
def test_no_town_or_title_in_near_misses(extractor, text):
    assert triples(extractor, text) == []


@pytest.mark.parametrize("text, expected", [
    ("我在杭州一家游戏公司上班", [(USER, "works_in", "杭州", 1.0)]),
    ("我在杭州的一家外企工作", [(USER, "works_in", "杭州", 1.0)]),
    ("在宁波一家创业公司当CTO", [(USER, "works_in", "宁波", 1.0), (USER, "job_title", "CTO", 1.0)]),
    ("进了腾讯做HRBP", [(USER, "works_at", "腾讯", 1.0), (USER, "job_title", "HRBP", 1.0)]),
    ("李思琪上个月辞职搬去深圳了，进了腾讯做HRBP，羡慕死了",
     [("李思琪", "lives_in", "深圳", 1.0), ("李思琪", "works_at", "腾讯", 1.0), ("李思琪", "job_title", "HRBP", 1.0)]),
])
def test_chinese_work_said_by_town_by_joining_and_after_a_life_event(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("就当省心了", []),
    ("就当是锻炼身体了", []),
    ("入职了一家新公司", []),
    ("销售不干了", [(USER, "does", "销售", -0.8)]),
    ("健身卡不续了", [(USER, "does", "健身卡", -0.8)]),  # not renewed: over
    ("我吃素三年了", [(USER, "diet", "素食", 1.0)]),
    ("吃素两个多月了", [(USER, "diet", "素食", 1.0)]),
    ("不吃素了", [(USER, "diet", "素食", -0.8)]),
])
def test_chinese_taken_as_ended_and_a_diet_with_its_span(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_a_band_that_is_no_more_ends_the_membership(extractor):
    assert triples(extractor, "well the loose ends are no more. our drummer moved to canada") == [
        (USER, ENDED, "loose ends", -0.8)]
    assert triples(extractor, "the kids are done") == []  # "are done": finished, not over
    assert names_value("loose ends", "The Loose Ends") and names_value("the crown", "Crown")
    assert not names_value("loose ends", "The Loose Screws")


@pytest.mark.parametrize("text, expected", [
    ("我弟去了北京读博", [(f"{USER}'s brother", "lives_in", "北京", 1.0)]),  # one lives where one studies
    ("我去了北京上大学", [(USER, "lives_in", "北京", 1.0)]),
    ("我姐去深圳工作了", [(SISTER, "works_in", "深圳", 1.0)]),
    ("我再也不跑马拉松了", [(USER, ENDED, "马拉松", -0.8)]),
    ("我想去深圳工作", []),
    ("去上海出差了", []),
])
def test_gone_to_a_town_to_study_and_no_longer_doing_an_activity(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("这阵子周末都泡在攀岩馆，手上全是茧", [(USER, "habit", "攀岩馆", 1.0)]),  # 泡(在): one's time spent there
    ("最近天天泡健身房", [(USER, "habit", "健身房", 1.0)]),
    ("泡了杯茶", []),
    ("每天泡脚", []),
    ("哈哈对，我还在用诺基亚，按键机yyds", [(USER, "uses_phone", "诺基亚", 1.0)]),  # a make said alone is the phone
    ("Nokia laid off 500 people", []),
])
def test_a_place_one_spends_time_at_and_a_phone_by_its_make(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("行吧，又回去挤地铁了，反正冬天骑车也冻手，就当省心了", [(USER, "commutes_by", "地铁", 1.0)]),
    ("又改回骑车了", [(USER, "commutes_by", "骑车", 1.0)]),
    ("我回去开车", []),  # going back to drive somewhere: no way of getting about said as back
    ("回到北京了", []),
])
def test_back_to_a_way_of_getting_about(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("我在宁德时代上班，搞电池测试的，天天跟电芯打交道", [(USER, "works_at", "宁德时代", 1.0), (USER, "job_title", "电池测试", 1.0)]),
    ("我姐在腾讯上班，搞测试的", [(SISTER, "works_at", "腾讯", 1.0), (SISTER, "job_title", "测试", 1.0)]),
    ("搞IT的都这样", []),  # a kind of people, nobody's trade
    ("搞电池测试的", []),  # whose is not said
    ("我叫陈晓，二十九，在杭州一家游戏公司画原画", [(USER, "name", "陈晓", 1.0), (USER, "age", "二十九岁", 1.0)]),
    ("我叫小林。你见过我儿子吗？5岁了", [(USER, "name", "小林", 1.0)]),
    ("二十九", []),
])
def test_a_bare_trade_after_ones_employer_and_a_bare_age_after_ones_name(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("腰伤了，以后不能再跑马拉松了", [(USER, ENDED, "马拉松", -0.8)]),  # no longer able: now, not a plan
    ("以后不喝奶茶了", [(USER, "drinks", "milk tea", -0.8)]),
])
def test_from_now_on_no_longer_is_said_now(extractor, text, expected):
    assert triples(extractor, text) == expected
