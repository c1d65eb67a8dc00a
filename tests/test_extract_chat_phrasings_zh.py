"""Everyday Chinese chat phrasings (zh_work.py, zh_belonging.py, and the zh.py, whereabouts.py,
ventures.py and gate.py shapes they lean on): the subject left out, an employer by its
suffix, self-introduction lists, starting and leaving a job, switching groups, who leads a
group, a pet that died, a shop's town. Sentences of our own, each rule with near misses that
must stay silent."""

from __future__ import annotations

import pytest

from claims import USER, triples

BROTHER = f"{USER}'s brother"
MOTHER = f"{USER}'s mother"
HUSBAND = f"{USER}'s husband"


def additive(extractor, text):
    claims, reading = extractor.read(text, user_id=USER)
    return [(c.subject, c.predicate, c.value) for c, added in zip(claims, reading.additive) if added]


# 1. The subject left out: the speaker, unless someone else is the topic
@pytest.mark.parametrize("text, expected", [
    ("现在在杭州做室内设计", [(USER, "works_in", "杭州", 1.0), (USER, "job_title", "室内设计", 1.0)]),
    ("我在杭州做室内设计", [(USER, "works_in", "杭州", 1.0), (USER, "job_title", "室内设计", 1.0)]),
    ("在苏州做会计", [(USER, "works_in", "苏州", 1.0), (USER, "job_title", "会计", 1.0)]),
    ("我哥去年去了深圳，在那做销售", [(BROTHER, "job_title", "销售", 1.0)]),  # 那 is no name
])
def test_a_job_said_without_a_subject(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_a_job_said_without_a_subject_after_someone_named(extractor):
    said = triples(extractor, "我妈退休了，现在在社区做志愿者")
    # volunteering is where one volunteers, no job (test_extract_everyday_fresh27.py)
    assert (MOTHER, "volunteers_at", "社区", 1.0) in said and {t[0] for t in said} == {MOTHER}


@pytest.mark.parametrize("text", ["现在在开会", "在家做饭", "现在在路上"])
def test_no_job_without_one(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] in ("job_title", "works_in", "works_at")] == []


# 2. 在<organisation>做<job>: the employer by its suffix, a city is where
@pytest.mark.parametrize("text, expected", [
    ("我在知岸咨询做分析", [(USER, "works_at", "知岸咨询", 1.0), (USER, "job_title", "分析", 1.0)]),
    ("我老公在启航教育当老师", [(f"{USER}'s husband", "works_at", "启航教育", 1.0), (f"{USER}'s husband", "job_title", "老师", 1.0)]),
    ("我在大连做会计", [(USER, "works_in", "大连", 1.0), (USER, "job_title", "会计", 1.0)]),  # 大连: a city jieba mistags
    ("我在合肥上班", [(USER, "works_in", "合肥", 1.0)]),
])
def test_an_employer_by_its_suffix(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", ["我在公司做分析", "在新公司做运营"])
def test_no_employer_named_by_a_suffix_alone(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "works_at"] == []


# 3. Self-introduction lists
def test_a_self_introduction_list(extractor):
    assert triples(extractor, "简单介绍下：28岁，泉州人，现在在南京做产品经理，养了只柯基") == [
        (USER, "age", "28岁", 1.0), (USER, "hometown", "泉州", 1.0), (USER, "works_in", "南京", 1.0),
        (USER, "job_title", "产品经理", 1.0), (USER, "has", "柯基", 1.0)]
    assert triples(extractor, "先自我介绍一下，三十岁，厦门人") == [(USER, "age", "三十岁", 1.0), (USER, "hometown", "厦门", 1.0)]


@pytest.mark.parametrize("text", [
    "28岁",  # an answer to whom? no introduction said
    "泉州人，在厦门上班",  # no introduction: whose origin is not said (厦门 is still read)
    "给你介绍下我妈，58岁，泉州人",  # introducing someone else
    "简单介绍下：我女儿，5岁",  # someone named since
    "简单介绍下：这里的人都很好",
])
def test_no_age_or_origin_without_the_speaker_introduced(extractor, text):
    assert [t for t in triples(extractor, text) if t[0] == USER and t[1] in ("age", "hometown")] == []


# 4. Starting and leaving a job, changing jobs
@pytest.mark.parametrize("text, expected", [
    ("今天第一天去华晨科技上班", [(USER, "works_at", "华晨科技", 1.0)]),
    ("在恒远第一个月，累死", [(USER, "works_at", "恒远", 1.0)]),
    ("入职星河银行的第一周", [(USER, "works_at", "星河银行", 1.0)]),
    ("入职星河银行了", [(USER, "works_at", "星河银行", 1.0)]),
    ("下周一去恒远资本报到", [(USER, "plan:works_at", "恒远资本", 0.5), (USER, "works_at", "恒远资本", 1.0, 7)]),
    ("从启航教育出来了", [(USER, "works_at", "启航教育", -0.8)]),
    ("从启航教育离职了", [(USER, "works_at", "启航教育", -0.8)]),
    ("跳槽了，现在去了华晨科技", [(USER, "works_at", "华晨科技", 1.0)]),
    ("跳槽去了华晨科技", [(USER, "works_at", "华晨科技", 1.0)]),
    ("阿凯跳槽到了华晨科技", [("阿凯", "works_at", "华晨科技", 1.0)]),
    ("我哥跳槽了，去了字节", [(BROTHER, "works_at", "字节", 1.0)]),
])
def test_starting_leaving_and_changing_jobs(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_a_brothers_new_employer_replaces_the_old_one(extractor):
    assert additive(extractor, "我哥跳槽了，去了字节") == []  # a change, not a second job


@pytest.mark.parametrize("text", [
    "在成都第一个月，好多好吃的",  # a stay in a city
    "儿子在幼儿园第一天，哭了",  # a pupil
    "在抖音第一个月，涨粉一千",  # an app the lexicon names, no work word
    "刚从启航教育出来，去吃饭",  # out of the building
    "从协和医院出来了",  # a patient
    "从地铁站出来了",
])
def test_no_employer_from_a_first_day_or_a_way_out(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "works_at"] == []


# 5. Groups joined and switched
@pytest.mark.parametrize("text, expected", [
    ("现在改去彩虹合唱团了", [(USER, "member_of", "彩虹合唱团", 1.0)]),
    ("退出舞蹈队了，改去腰鼓队", [(USER, "member_of", "舞蹈队", -0.8), (USER, "member_of", "腰鼓队", 1.0)]),
    ("我妈退出舞蹈队了，改去腰鼓队", [(MOTHER, "member_of", "舞蹈队", -0.8), (MOTHER, "member_of", "腰鼓队", 1.0)]),
    ("我妈从舞蹈队转到腰鼓队了", [(MOTHER, "member_of", "舞蹈队", -0.8), (MOTHER, "member_of", "腰鼓队", 1.0)]),
    ("我妈参加了腰鼓队", [(MOTHER, "member_of", "腰鼓队", 1.0)]),
    ("我在彩虹合唱团", [(USER, "member_of", "彩虹合唱团", 1.0)]),
])
def test_groups_joined_and_switched(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", ["我在排队", "改去旅行社了", "现在改去北京了", "我妈没参加腰鼓队", "参加了集团年会"])
def test_no_group_without_one(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "member_of"] == []


# 6. Who leads a group or a company
@pytest.mark.parametrize("text, expected", [
    ("腰鼓队领队是刘桂兰", [("腰鼓队", "leader", "刘桂兰", 1.0)]),
    ("我妈参加了腰鼓队，她们队的队长是王芳", [(MOTHER, "member_of", "腰鼓队", 1.0), ("腰鼓队", "captain", "王芳", 1.0)]),
    ("我们公司老板是张伟", [(f"{USER}'s employer", "ceo", "张伟", 1.0)]),
    ("我们组组长是小李", [(f"{USER}'s team", "leader", "小李", 1.0)]),
    ("腾讯老板是马化腾", [("腾讯", "ceo", "马化腾", 1.0)]),
    ("彩虹合唱团的教练是王强", [("彩虹合唱团", "coach", "王强", 1.0)]),
])
def test_a_groups_role(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "她们队的队长是王芳",  # which team? none named in the message
    "我们公司老板是个狠人",  # no one named
    "腰鼓队领队是谁",  # a question
    "队长是前锋",
])
def test_no_role_without_a_group_and_a_name(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] in ("leader", "captain", "ceo", "coach")] == []


# 7. Pets named, pets lost
@pytest.mark.parametrize("text, expected", [
    ("我养了一只猫，叫咪咪", [(USER, "has", "猫", 1.0), (USER, "pet_name", "咪咪", 1.0)]),
    ("仓鼠走了，难过了一整天", [(USER, "has", "仓鼠", -0.8)]),
    ("我家狗狗去世了", [(USER, "has", "狗狗", -0.8)]),
    ("猫咪没了", [(USER, "has", "猫咪", -0.8)]),
    ("我妈家的猫前几天病死了", [(MOTHER, "has", "猫", -0.8)]),
])
def test_pets_named_and_lost(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", ["他走了", "车走了", "猫粮没了", "狗狗还没走", "我家狗走了过来"])
def test_no_pet_lost_without_an_animal_gone(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "has" and t[3] < 0] == []


# 8. A shop opened in a town: the kind of business is what is owned; the town stays in the
# quote (asked where, a reader takes it from there), and says nothing of where the owner lives
@pytest.mark.parametrize("text, expected", [
    ("我哥在大连开了家烧烤店", [(BROTHER, "owns", "烧烤店", 1.0)]),
    ("我在家开了个网店", [(USER, "owns", "网店", 1.0)]),
])
def test_a_shop_opened_in_a_town_is_owned(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", ["现在在一家创业公司当CTO", "我在一家外企做销售", "我姐在某个小公司上班"])
def test_an_employer_described_not_named_is_no_employer(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] == "works_at"] == []


@pytest.mark.parametrize("text, expected", [
    # a 他/她 the message does not name: the clause after is about them too, not the speaker
    ("他跳槽了！去了北辰新能源", []),
    ("她换工作了，去了蓝格动画", []),
    ("跳槽了！去了北辰新能源", [(USER, "works_at", "北辰新能源", 1.0)]),
    ("他说我做饭好吃，我在杭州上班", [(USER, "works_in", "杭州", 1.0)]),
    # 入坑: took up a hobby
    ("入坑飞盘了！每周六去公园扔", [(USER, "likes", "飞盘", 1.0)]),
    ("最近入坑了陶艺", [(USER, "likes", "陶艺", 1.0)]),
])
def test_an_unnamed_him_and_a_hobby_taken_up(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a holiday is when, not who: "五一搬到重庆了" is the speaker's move
    ("五一搬到重庆了，坡多得我小腿都粗了一圈", [(USER, "lives_in", "重庆", 1.0)]),
    ("国庆搬到重庆了", [(USER, "lives_in", "重庆", 1.0)]),
    ("十一点睡觉", []),
    # a home rented in a town is where one lives
    ("在武汉租了个单间，月租一千二", [(USER, "lives_in", "武汉", 1.0)]),
    ("我哥在深圳租了个单间", [(BROTHER, "lives_in", "深圳", 1.0)]),
    ("我在公司附近租了个房子", []),
    ("我在淘宝租了个相机", []),
    ("在武汉租车", []),
])
def test_a_holiday_is_a_time_and_a_rented_home_a_town(extractor, text, expected):
    assert triples(extractor, text) == expected


# 9. A company's headquarters: a new name jieba knows only character by character; a word
# that only points at a company named before is no subject
@pytest.mark.parametrize("text, expected", [
    ("鲸落总部在南沅，下个月得过去培训一周", [("鲸落", "headquarters", "南沅", 1.0)]),
    ("鲸落网络总部在南沅", [("鲸落网络", "headquarters", "南沅", 1.0)]),
    ("老公说顺达把总部搬到武汉了", [("顺达", "headquarters", "武汉", 1.0)]),  # 说 is no part of a name
    ("人家总部在青岚，我们分部就是后妈养的", []),  # 人家 is no name (and 青岚 no place jieba knows)
    # "their HQ", no company named in the message: the one spoken of before, most often the speaker's own
    ("他们总部在杭州", [(f"{USER}'s employer", "headquarters", "杭州", 1.0)]),
    ("我老公在顺达上班，他们总部在郑州", [("顺达", "headquarters", "郑州", 1.0)]),
])
def test_a_headquarters_and_whose(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] == "headquarters"] == expected


# 10. 改成 / 换成 after giving something up: the new value of the same kind (a diet, a drink)
@pytest.mark.parametrize("text, expected", [
    ("生酮放弃了，改成轻断食", [(USER, "diet", "生酮", -0.8), (USER, "diet", "轻断食", 1.0)]),
    ("生酮放弃了，换成轻断食", [(USER, "diet", "生酮", -0.8), (USER, "diet", "轻断食", 1.0)]),
    ("咖啡戒了，改成喝茶", [(USER, "drinks", "coffee", -0.8), (USER, "drinks", "tea", 1.0)]),
    ("晚上的安排改成看电影了", []),
])
def test_a_change_to_a_value_of_the_same_kind(extractor, text, expected):
    assert triples(extractor, text) == expected


# 11. A favourite's value is a title or a name as said, whatever jieba tags its words
@pytest.mark.parametrize("text, expected", [
    ("最喜欢的乐队是回声公路", [(USER, "attr:最喜欢的乐队", "回声公路", 1.0)]),  # 回声 is a verb to jieba
    ("最喜欢的乐队还是回声公路 主唱那个嗓子绝了", [(USER, "attr:最喜欢的乐队", "回声公路", 1.0)]),  # not "likes 乐队"
    ("最喜欢的电影是让子弹飞", [(USER, "attr:favorite_movie", "让子弹飞", 1.0)]),
])
def test_a_favourite_named_as_said(extractor, text, expected):
    assert triples(extractor, text) == expected


# 12. Poached by a company: working there now (a change of employer)
@pytest.mark.parametrize("text, expected", [
    ("跟你说个事 我被蓝鲸互娱挖走了", [(USER, "works_at", "蓝鲸互娱", 1.0)]),
    ("我老公被腾讯挖走了", [(HUSBAND, "works_at", "腾讯", 1.0)]),
    ("被猎头挖了", []),  # a headhunter is no employer
    ("我被他挖走了", []),
])
def test_poached_by_a_company(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] == "works_at"] == expected


# 13. A car by its make and a model the list lacks; "老" before it is no former car; a space
# after a name's letters or digits is a pause, as between Chinese words
@pytest.mark.parametrize("text, expected", [
    ("我那台老朗逸又亮故障灯了", [(USER, "owns", "朗逸", 1.0)]),
    ("海豚给老婆开了 我换了台问界M7 空间大 娃的东西终于塞得下", [(USER, "owns", "问界M7", 1.0)]),
    ("我换了台理想L7", [(USER, "owns", "理想L7", 1.0)]),
    ("我想换台问界M7", []),  # a wish
])
def test_a_car_by_make_and_model(extractor, text, expected):
    assert [t for t in triples(extractor, text) if t[1] == "owns"] == expected
