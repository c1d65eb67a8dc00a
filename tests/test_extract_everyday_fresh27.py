"""Everyday shapes that a blind set (chat_fresh27) showed unread or misread, each a general
mechanism rather than one sentence:

* "teaching myself guitar": learning it, not teaching "myself guitar off youtube" (a source
  after the thing, "off youtube", "online", is no part of it);
* "landlord's a chap called Derek Mensah": who the landlord is, by name ("my landlord is ...");
* volunteering: "volunteering at the Eastside Food Pantry", "在市图书馆做志愿者" (no employer, no job);
* a business named with it or in the clause after ("it's called Wick & Wander"); "a cafe called
  Bean There" is no pet's name;
* "从滨江搬到拱墅": moved from a place, so to one, whatever jieba makes of the name; "从蓝鲸出来
  去了星河游戏": a job left for another; "还是干测试": the trade is 测试;
* medicines: "医生开了氨氯地平", "二甲双胍吃了七八年" (taken), "氨氯地平先停掉" (stopped);
* "曼联球迷": a fan of 曼联 (a 篮球迷 is one of 篮球); "下周六就是我生日了，5月27": the 27th.
"""

from __future__ import annotations

import pytest

from claims import USER, triples

MOTHER, BROTHER = f"{USER}'s mother", f"{USER}'s brother"


@pytest.mark.parametrize("text, expected", [
    ("been teaching myself guitar off youtube for a few months now", [(USER, "studies", "guitar", 1.0)]),
    ("I taught myself piano", [(USER, "studies", "piano", 1.0)]),
    ("I'm learning Spanish online", [(USER, "studies", "Spanish", 1.0)]),
    ("Landlord's a guy called Mr Patel, seems decent enough", [(USER, "attr:landlord", "Mr Patel", 1.0)]),
    ("my boss is a guy named Tom", [(USER, "has_boss", "Tom", 1.0)]),
    ("I've been volunteering at the Eastside Food Pantry on saturday mornings",
     [(USER, "volunteers_at", "Eastside Food Pantry", 1.0)]),
    ("I volunteer with Oxfam", [(USER, "volunteers_at", "Oxfam", 1.0)]),
    ("我在市图书馆做志愿者", [(USER, "volunteers_at", "市图书馆", 1.0)]),
    ("我妈在社区当义工", [(MOTHER, "volunteers_at", "社区", 1.0)]),
    ("I run a bakery called Crumbs", [(USER, "owns", "bakery", 1.0), (USER, "owns", "Crumbs", 1.0)]),
    ("I run a little candle business on Etsy on the side, it's called Wick & Wander.",
     [(USER, "owns", "candle business", 1.0), (USER, "owns", "Wick & Wander", 1.0)]),
    ("I own a cafe called Bean There", [(USER, "has", "cafe", 1.0)]),
])
def test_learning_landlords_volunteering_and_businesses(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


def test_a_person_word_before_no_role_is_no_rewrite(extractor):
    assert triples(extractor, "he's a guy called Tom") == []


@pytest.mark.parametrize("text, expected", [
    ("从滨江搬到拱墅了", [(USER, "lives_in", "滨江", -0.8), (USER, "lives_in", "拱墅", 1.0)]),
    ("从蓝鲸出来去了星河游戏，还是干测试",
     [(USER, "works_at", "蓝鲸", -0.8), (USER, "works_at", "星河游戏", 1.0), (USER, "job_title", "测试", 1.0)]),
    ("我从蓝鲸离职去了星河游戏", [(USER, "works_at", "蓝鲸", -0.8), (USER, "works_at", "星河游戏", 1.0)]),
    ("医生开了氨氯地平，每天早上一片", [(USER, "takes_medication", "氨氯地平", 1.0)]),
    ("二甲双胍吃了三年了", [(USER, "takes_medication", "二甲双胍", 1.0)]),
    ("氨氯地平先停掉，不用再吃了", [(USER, "takes_medication", "氨氯地平", -0.8)]),
    ("我是曼联球迷", [(USER, "likes", "曼联", 1.0)]),
    ("我是篮球迷", [(USER, "likes", "篮球", 1.0)]),
    ("下周六就是我生日了，5月27，想去海边过", [(USER, "attr:birthday", "5月27号", 1.0)]),
])
def test_chinese_moves_jobs_medicines_fans_and_days(extractor, text, expected):
    assert sorted(triples(extractor, text)) == sorted(expected)


def test_a_meeting_held_is_no_medicine(extractor):
    assert triples(extractor, "我开了个会") == []
