"""Everyday Chinese chat, said in passing (``bcg_rag/extract/zh_daily.py`` and the small edits
beside it): commutes, counted exercise, the pets and children one cares for, skills never
learned, exams passed, intolerances, kin named by where one met them ("我大学室友"), 基本 /
通常 before a verb; and, as near misses, one day's episodes, questions, wishes, hypotheticals,
other people's pets and children, and chores done for someone else."""

from __future__ import annotations

import pytest

from claims import USER, triples

MOTHER = f"{USER}'s mother"
ROOMMATE, BROTHER, SISTER, PARTNER, HUSBAND, COLLEAGUE, CLASSMATE = (
    f"{USER}'s {r}" for r in ("roommate", "brother", "sister", "partner", "husband", "colleague", "classmate"))


@pytest.mark.parametrize(
    "text, expected",
    [
        # commutes, and where the work is
        ("我一般骑车上班", [(USER, "commutes_by", "骑车", 1.0)]),
        ("平时都是坐公交上班", [(USER, "commutes_by", "公交", 1.0)]),
        ("每天挤地铁去望京上班", [(USER, "commutes_by", "地铁", 1.0), (USER, "works_in", "望京", 1.0)]),
        ("每天坐地铁去中关村上班😮‍💨", [(USER, "commutes_by", "地铁", 1.0), (USER, "works_in", "中关村", 1.0)]),
        ("我每天去华为上班", [(USER, "works_at", "华为", 1.0)]),
        ("我同事每天坐地铁上班", [(COLLEAGUE, "commutes_by", "地铁", 1.0)]),
        ("我姐每天挤地铁去国贸上班", [(SISTER, "commutes_by", "地铁", 1.0)]),
        # exercise counted
        ("每周跑三次步", [(USER, "habit", "跑步", 1.0)]),
        ("我每天晚上都要跑5公里", [(USER, "habit", "跑步", 1.0)]),
        ("我老公每周游两次泳", [(HUSBAND, "habit", "游泳", 1.0)]),
        # care that says who one has
        ("早上遛完柯基再去上班", [(USER, "has", "柯基", 1.0)]),
        ("下班回家还得给我家二哈铲屎", [(USER, "has", "二哈", 1.0)]),
        ("周末去看我外甥", [(USER, "has", "外甥", 1.0)]),
        ("每天送完女儿去幼儿园再去上班", [(USER, "has", "女儿", 1.0)]),
        ("周末带儿子去上游泳课", [(USER, "has", "儿子", 1.0)]),
        ("周末陪女儿去上钢琴课", [(USER, "has", "女儿", 1.0)]),
        # skills never learned, and learned
        ("一直没学会开车", [(USER, "can", "开车", -0.8)]),
        ("一直没学会游泳😂", [(USER, "can", "游泳", -0.8)]),
        ("我还没学会做饭", [(USER, "can", "做饭", -0.8)]),
        ("我学会了游泳", [(USER, "can", "游泳", 1.0)]),
        # exams passed
        ("我弟今年考上了浙大", [(BROTHER, "studies_at", "浙大", 1.0)]),
        ("我弟考上浙大的研究生了！！全家都在庆祝", [(BROTHER, "studies_at", "浙大", 1.0)]),  # the school, not the degree
        ("我考上了公务员", [(USER, "job_title", "公务员", 1.0)]),
        # intolerances, hedged or not
        ("我好像有点乳糖不耐", [(USER, "intolerant_to", "乳糖", 0.5)]),
        ("我有点乳糖不耐受", [(USER, "intolerant_to", "乳糖", 1.0)]),
        ("我对象乳糖不耐", [(PARTNER, "intolerant_to", "乳糖", 1.0)]),
        # a pet kept at home, taken in, and named by the next clause
        ("家里有只柯基叫土豆，腿短到上不了沙发哈哈", [(USER, "has", "柯基", 1.0), (USER, "pet_name", "土豆", 1.0)]),
        ("我家有只柯基叫土豆", [(USER, "has", "柯基", 1.0), (USER, "pet_name", "土豆", 1.0)]),
        ("前两天在楼下捡了只小橘猫，给它起名大橘", [(USER, "has", "橘猫", 1.0), (USER, "pet_name", "大橘", 1.0)]),
        ("我们领养了一只流浪狗，起名叫豆豆", [(USER, "has", "流浪狗", 1.0), (USER, "pet_name", "豆豆", 1.0)]),
        ("捡了个钱包", []),  # no animal
        # a shop opened (its size aside), a dance done daily, a shop closed
        ("我妈在老家开了个小超市，晚上还天天去跳广场舞",
         [(MOTHER, "owns", "超市", 1.0), (MOTHER, "habit", "广场舞", 1.0)]),
        ("我妈那个超市上个月关了，年纪大了实在干不动了", [(MOTHER, "does", "超市", -0.8)]),
        ("开了个小会", []),
        ("灯关了", []),
        # a move of headquarters heard from someone, with a time and 去了; "只" before the verb; a lead that says when
        ("听表哥说澜海今年把总部搬到上海去了，他也得跟着过去", [("澜海", "headquarters", "上海", 1.0)]),
        ("我只喝绿茶", [(USER, "drinks", "green tea", 1.0)]),
        ("上班的时候我只喝绿茶，一天两大杯", [(USER, "drinks", "green tea", 1.0)]),
        ("小的时候我住在北京", []),  # a stage of life gone by: not where one lives
        # allergies said without 对
        ("我芒果过敏", [(USER, "allergic_to", "芒果", 1.0)]),
        ("我老公海鲜过敏", [(HUSBAND, "allergic_to", "海鲜", 1.0)]),
        ("我有点花粉过敏", [(USER, "allergic_to", "花粉", 1.0)]),
        ("皮肤过敏了", []),  # where it shows
        ("我过敏了", []),  # no allergen named
        # kin named by where one met them; 基本 before a verb
        ("我大学室友现在在当飞行员", [(ROOMMATE, "job_title", "飞行员", 1.0)]),
        ("我高中同学在腾讯上班", [(CLASSMATE, "works_at", "腾讯", 1.0)]),
        ("我基本每天都喝一杯美式", [(USER, "prefers_coffee_type", "americano", 1.0)]),
        # already read, kept so
        ("我不吃猪肉", [(USER, "eats", "猪肉", -0.8)]),
        ("我好像对芒果过敏", [(USER, "allergic_to", "芒果", 0.5)]),
        ("我应该是O型血吧", [(USER, "attr:blood_type", "O型", 0.5)]),
        ("我同事小王上个月搬去成都了", [("小王", "lives_in", "成都", 1.0)]),
    ],
)
def test_everyday_zh(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "今天又在国贸加班到十点",  # one evening
        "昨天骑车上班",  # one day
        "我今天跑了5公里",
        "明天去国贸上班",
        "我不开车上班",  # how then is not said
        "他一般骑车上班",  # who he is is not said
        "要是能骑车上班就好了",  # a wish
        "你平时怎么上班？",  # a question
        "帮邻居遛狗",  # someone else's dog
        "我朋友每天遛柯基",  # the friend's
        "如果有柯基我天天遛",  # a hypothetical
        "我去看朋友的儿子",  # the friend's son
        "带孩子真累",
        "我妈每周去看我外甥",  # said of the mother: not read
        "今天送儿子去医院",  # one day: not read (conservative)
        "我没考上浙大",
        "他考上了北大",  # who he is is not said
        "考上研究生了",
        "你学会开车了吗",
        "她好像有点不耐烦",  # impatience
        "你喜欢吃猪肉吗",
        "要是我会开车就好了",
        "帮我查一下去成都的机票",
        "我朋友下个月要去日本玩",
        "如果有时间我想学吉他",
        "我骑车上班你呢",
        "我不想上班😭",
    ],
)
def test_everyday_zh_near_misses(extractor, text):
    assert triples(extractor, text) == []


@pytest.mark.parametrize("text, expected", [
    # the car sold ends the cars owned before it (endings.CAR)
    ("车卖了，不开了，现在改坐地铁上班", [(USER, "owns", "car", -0.8), (USER, "does", "car", -0.8), (USER, "commutes_by", "地铁", 1.0)]),
    ("改天上班", []),
])
def test_a_new_way_to_work_said_as_a_change(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("升产品经理了，手下要带一个实习生，有点慌", [(USER, "job_title", "产品经理", 1.0)]),  # the speaker, left out
    ("我升主管了", [(USER, "job_title", "主管", 1.0)]),
    ("老公升副总了", [(f"{USER}'s husband", "job_title", "副总", 1.0)]),
    ("手机升级了", []),  # an upgrade
    ("儿子升初中了", []),  # a school year
    ("温度升高了", []),
    ("我没升主管", []),
])
def test_promoted_to_a_title(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("finally done unpacking in tacoma!!! it's rained 4 days straight", [(USER, "lives_in", "Tacoma", 1.0)]),
    ("finished unpacking in Leeds", [(USER, "lives_in", "Leeds", 1.0)]),
    ("all settled in in Denver now", [(USER, "lives_in", "Denver", 1.0)]),
    ("we unpacked in Rome for a week", []),  # a stay
    ("I finished unpacking in the hotel room", []),
    ("终于在成都安顿下来了", [(USER, "lives_in", "成都", 1.0)]),
    ("我姐在深圳安家了", [(f"{USER}'s sister", "lives_in", "深圳", 1.0)]),
    ("想在大理安家", [(USER, "plan:lives_in", "大理", 0.5)]),
])
def test_settled_in_a_new_home(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a name jieba does not know, named as a club's by its card
    ("乐刻那张卡转给同事了，实在没时间去，以后不办了", [(USER, "member_of", "乐刻", -0.8)]),
    ("乐刻的卡退了", [(USER, "member_of", "乐刻", -0.8)]),
    ("我老婆把乐刻的会员卡退了", [(f"{USER}'s wife", "member_of", "乐刻", -0.8)]),
    ("这张卡退了", []),
    ("办了乐刻的年卡", []),
    # 爱 of 爱奇艺 is no verb; a video service's membership is a subscription (subscriptions.py)
    ("爱奇艺会员我退了 自动续费也取消了", [(USER, "video_subscription", "爱奇艺", -0.8)]),
    ("乐动那张卡我退了，太远了根本不去。现在改去公司楼下的超级猩猩，按次付费",
     [(USER, "member_of", "乐动", -0.8), (USER, "member_of", "超级猩猩", 1.0)]),  # the new club, after the old card
    ("现在改去超级猩猩了", []),  # no club left before it: what was changed is not said  # taken out: not read (see zh_belonging._zh_club_card)
])
def test_a_club_card_given_up(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("不过香菜我是真不行 一点都不能放", [(USER, "dislikes", "香菜", 1.0)]),
    ("这个我真不行", []),
    ("日语我能看懂，但是口语不行", []),  # a poor skill, not a taste
    ("我不行了", []),
    ("我从化学转到经济了", [(USER, "studies", "化学", -0.8), (USER, "studies", "经济", 1.0)]),  # a subject, not an employer
    ("Owen switched from chemistry to economics, dad is pretending not to care lol",
     [("Owen", "studies", "chemistry", -0.8), ("Owen", "studies", "economics", 1.0)]),
])
def test_cannot_stand_and_subjects_switched(extractor, text, expected):
    assert triples(extractor, text) == expected
