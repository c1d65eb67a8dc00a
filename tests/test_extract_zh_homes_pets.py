"""Chinese chat about home, said indirectly (``bcg_rag/extract/zh_homes.py`` and the small edits
beside it): pets counted at home, pets given away and no pet any more, moves said by a posting
and 搬过来, by 又回 / 搬回, by years lived in a place put first, a home given up; relatives'
pastimes said with "一到周末就"; a dance liked. Near misses: trips home, wishes, other people's
animals. And what the memory makes of a pet given away: the pet kept before it is kept no more."""

from __future__ import annotations

import pytest

from claims import USER, triples

HUSBAND, MOTHER, FATHER, SISTER, BROTHER, FRIEND, MOTHER_IN_LAW = (
    f"{USER}'s {r}" for r in ("husband", "mother", "father", "sister", "brother", "friend", "mother-in-law"))


@pytest.mark.parametrize("text, expected", [
    # pets at home, counted, whatever the clause says of them next
    ("家里两只巴西龟最近都不咋吃东西", [(USER, "has", "巴西龟", 1.0)]),
    ("我家两条柯基最近掉毛掉得厉害", [(USER, "has", "柯基", 1.0)]),
    ("家里三只仓鼠晚上吵死了", [(USER, "has", "仓鼠", 1.0)]),  # 吵死了 is noise, not a death
    ("我们家两只兔子特别能吃", [(USER, "has", "兔子", 1.0)]),
    ("家里两只小橘猫特别粘人", [(USER, "has", "橘猫", 1.0)]),
    ("家里两只猫最近都不想吃东西", [(USER, "has", "猫", 1.0)]),  # 想 after the animal is no wish
    ("我妈家两只猫天天打架", [(MOTHER, "has", "猫", 1.0)]),  # a relative's household is theirs
    # already read, kept so
    ("我养了两只仓鼠", [(USER, "has", "仓鼠", 1.0)]),
    ("婆婆养了只鹦鹉", [(MOTHER_IN_LAW, "has", "鹦鹉", 1.0)]),
    ("家里养着两只金鱼", [(USER, "has", "金鱼", 1.0)]),
    ("我想养只猫", [(USER, "plan:has", "猫", 0.5)]),  # a wish: a plan, no pet kept
])
def test_pets_at_home(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # given away: to a relative, to someone unnamed, with 把
    ("龟送我表弟了", [(USER, "has", "龟", -0.8)]),
    ("猫送人了", [(USER, "has", "猫", -0.8)]),
    ("狗送给朋友了", [(USER, "has", "狗", -0.8)]),
    ("仓鼠送给同事了", [(USER, "has", "仓鼠", -0.8)]),
    ("我把鹦鹉送给邻居了", [(USER, "has", "鹦鹉", -0.8)]),
    ("兔子给我姐养了", [(USER, "has", "兔子", -0.8)]),
    ("猫送给了邻居", [(USER, "has", "猫", -0.8)]),
    ("家里两只猫都送人了", [(USER, "has", "猫", -0.8)]),
    ("小黑送人了", [(USER, "does", "小黑", -0.8)]),  # a name: the ending rule's, as before
    # someone else's animal stays theirs: nothing of the user's
    ("朋友家的猫送人了", [(FRIEND, "has", "猫", -0.8)]),
    # no pet any more: the kind denied, which ends every animal kept before it
    ("现在家里啥宠物都没了", [(USER, "has", "宠物", -0.8), (USER, "does", "pets", -0.8)]),
    ("一只宠物都没有了", [(USER, "has", "宠物", -0.8), (USER, "does", "pets", -0.8)]),
    ("家里没有宠物了", [(USER, "has", "宠物", -0.8), (USER, "does", "pets", -0.8)]),
    ("不养宠物了", [(USER, "has", "宠物", -0.8), (USER, "does", "pets", -0.8)]),
    ("龟送我表弟了 现在家里啥宠物都没了",
     [(USER, "has", "龟", -0.8), (USER, "has", "宠物", -0.8), (USER, "does", "pets", -0.8)]),
])
def test_pets_given_away_or_none_left(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a posting, then the move toward it said by its direction
    ("公司把我调济南了 上周刚搬过来", [(USER, "works_in", "济南", 1.0), (USER, "lives_in", "济南", 1.0)]),
    ("领导把我调到了南京 上个月刚搬过去", [(USER, "works_in", "南京", 1.0), (USER, "lives_in", "南京", 1.0)]),
    ("我在杭州上班，上周刚搬过来", [(USER, "works_in", "杭州", 1.0), (USER, "lives_in", "杭州", 1.0)]),
    ("公司把我外派到昆明了，今天刚到，这边天好蓝", [(USER, "works_in", "昆明", 1.0), (USER, "lives_in", "昆明", 1.0)]),
    ("我在昆明常驻", [(USER, "lives_in", "昆明", 1.0)]),  # stationed there
    ("我被调去深圳了，下个月搬过去", [(USER, "works_in", "深圳", 1.0), (USER, "plan:lives_in", "深圳", 0.5)]),
    # back again
    ("兜兜转转又回青岛了", [(USER, "lives_in", "青岛", 1.0)]),
    ("绕了一圈最后还是回杭州了", [(USER, "lives_in", "杭州", 1.0)]),
    ("我又回到了成都", [(USER, "lives_in", "成都", 1.0)]),
    ("我又搬回成都了", [(USER, "lives_in", "成都", 1.0)]),
    ("前年搬回了杭州", [(USER, "lives_in", "杭州", 1.0)]),
    ("我姐又搬回成都了", [(SISTER, "lives_in", "成都", 1.0)]),
    ("从北京搬回成都了", [(USER, "lives_in", "北京", -0.8), (USER, "lives_in", "成都", 1.0)]),  # ZH_FROM_TO's, as before
    # years lived in the place the clause before put first
    ("青岛这海风…住三年了还是不习惯", [(USER, "lives_in", "青岛", 1.0)]),
    ("成都这冬天…住五年了还是受不了", [(USER, "lives_in", "成都", 1.0)]),
    ("北京这雾霾，我都住了快十年了", [(USER, "lives_in", "北京", 1.0)]),
    # a home given up: no membership
    ("济南那套房子已经退了", [(USER, "lives_in", "济南", -0.8)]),
    ("杭州那套房子已经退租了", [(USER, "lives_in", "杭州", -0.8)]),
    ("上海的房子退了", [(USER, "lives_in", "上海", -0.8)]),
])
def test_homes_moved_to_or_given_up(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a relative's pastime, whenever the weekend comes (habit, as "我每天都钓鱼")
    ("老公一到周末就去水库钓鱼 一坐一整天", [(HUSBAND, "habit", "钓鱼", 1.0)]),
    ("我爸一到周末就去水库钓鱼", [(FATHER, "habit", "钓鱼", 1.0)]),
    ("我哥每逢周末都去河边钓鱼", [(BROTHER, "habit", "钓鱼", 1.0)]),
    ("我姐一到周末就去爬山", [(SISTER, "habit", "爬山", 1.0)]),
    ("我妈每到周末都去公园跳广场舞", [(MOTHER, "habit", "广场舞", 1.0)]),
    ("我老公每到周末都去打羽毛球", [(HUSBAND, "plays", "羽毛球", 1.0)]),
    ("我周末经常去钓鱼", [(USER, "habit", "钓鱼", 1.0)]),
    ("我每周末都去钓鱼", [(USER, "habit", "钓鱼", 1.0)]),
    ("我每天都钓鱼", [(USER, "habit", "钓鱼", 1.0)]),  # already read, kept so
    # a dance liked: 跳 is a light verb, as 打 and 玩 are ("我喜欢打篮球": 篮球)
    ("我还是喜欢跳尊巴", [(USER, "likes", "尊巴", 1.0)]),
    ("我妈特别爱跳广场舞", [(MOTHER, "likes", "广场舞", 1.0)]),
    ("我喜欢跳舞", [(USER, "likes", "跳舞", 1.0)]),  # one character left: the word stays whole
    ("我喜欢跳跳糖", [(USER, "likes", "跳跳糖", 1.0)]),  # a verb said twice is a word of its own
    ("我喜欢玩玩具", [(USER, "likes", "玩具", 1.0)]),
    ("我喜欢打篮球", [(USER, "likes", "篮球", 1.0)]),
])
def test_pastimes(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "回家了",
    "回老家过年",
    "回公司了",
    "回北京了",  # back from a trip
    "回成都过年了",
    "又回成都出差了",
    "周末又回青岛了",
    "昨天又回青岛了",
    "我爸又搬回老家了",  # no place named
    "要是家里两只猫就好了",
    "家里两个孩子",  # no animal
    "家里两只鸡",  # food, not a pet
    "猫送我一只老鼠了",  # given nothing to anyone
    "车送人了",
    "他的狗送人了",  # whose is not said
    "住三年了还是不习惯",  # no place put first
    "这海风…住三年了",
    "一到周末就下雨",
    "我一到周末就想睡觉",
    "他一到周末就去钓鱼",  # who he is is not said
    "上周刚搬过来",  # no town named before
    "去北京出差，今天刚到",  # a trip: no town placed the speaker
    "常驻人口很多",
    "公司把我调岗了",
    "我什么都不想吃",
])
def test_near_misses(extractor, text):
    assert triples(extractor, text) == []


@pytest.mark.parametrize("text", ["房子退了", "济南那套房子已经退了"])
def test_a_home_given_up_is_no_membership(extractor, text):
    assert not [t for t in triples(extractor, text) if t[1] == "member_of"]


# ---- the memory: a pet given away, or no pet left, ends the pet kept before it

U = USER
KEPT = {"text": "家里两只巴西龟最近都不咋吃东西", "timestamp": "2024-03-01T10:00:00"}
DAUGHTER = {"text": "周末带女儿去上游泳课", "timestamp": "2024-02-01T10:00:00"}
GIVEN = {"text": "龟送我表弟了 现在家里啥宠物都没了", "timestamp": "2024-09-01T10:00:00"}
GIVEN_ONLY = {"text": "龟送我表弟了", "timestamp": "2024-09-01T10:00:00"}
NONE_LEFT = {"text": "现在家里啥宠物都没了", "timestamp": "2024-09-01T10:00:00"}
NEW_CAT = {"text": "又养了一只橘猫", "timestamp": "2024-12-01T10:00:00"}


def _has(make_memory, messages) -> dict[str, float]:
    mem = make_memory()
    for m in messages:
        mem.add_messages([dict(m, user_id=U)])
    return {b["value"]: b["confidence"] for b in mem.store.find_beliefs(U, history=False, predicate="has")}


@pytest.mark.parametrize("order", [(KEPT, GIVEN, DAUGHTER), (GIVEN, DAUGHTER, KEPT)])
def test_a_pet_given_away_and_none_left_is_kept_no_more_in_any_order(make_memory, order):
    has = _has(make_memory, order)
    assert has["巴西龟"] < 0  # no longer asserted, whichever arrives first
    assert has["女儿"] > 0  # the pets ended, not the daughter ``has`` holds too


@pytest.mark.parametrize("order", [(KEPT, GIVEN_ONLY), (GIVEN_ONLY, KEPT)])
def test_a_pet_given_away_by_its_kind_ends_the_breed(make_memory, order):
    assert _has(make_memory, order)["巴西龟"] < 0  # "龟" names "巴西龟"


@pytest.mark.parametrize("order", [(KEPT, DAUGHTER, NONE_LEFT), (NONE_LEFT, DAUGHTER, KEPT)])
def test_no_pet_left_ends_every_pet_kept_before_it(make_memory, order):
    has = _has(make_memory, order)
    assert has["巴西龟"] < 0 and has["女儿"] > 0


@pytest.mark.parametrize("order", [(KEPT, NONE_LEFT, NEW_CAT), (NEW_CAT, NONE_LEFT, KEPT)])
def test_a_pet_kept_after_none_was_left_holds(make_memory, order):
    has = _has(make_memory, order)
    assert has["巴西龟"] < 0 and has["橘猫"] > 0


def test_a_move_toward_a_town_placed_for_a_company_is_not_the_companys(extractor):
    # "她" after "星河总部在杭州" may point at the company: no move is read for it
    found = triples(extractor, "小林去了星河科技，星河总部在杭州，她下个月搬过去")
    assert not [t for t in found if t[1].endswith("lives_in")]


@pytest.mark.parametrize("text, expected", [
    # the household's animal by its kind, said in passing
    ("只有我家兔子陪我😭", [(USER, "has", "兔子", 1.0)]),
    ("我的猫今天又拆家了", [(USER, "has", "猫", 1.0)]),
    ("我家那只橘猫太胖了", [(USER, "has", "橘猫", 1.0)]),
    ("我家狗粮吃完了", []),  # dog food, cut after 狗 by the segmenter
    ("我家猫砂用完了", []),
    ("我家以前的猫", []),
    ("我家金毛对猫过敏", []),
])
def test_a_pet_of_the_household_said_in_passing(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a nickname by a surname after 大 ("大毛", "大刘"), after a kin word; "新" before the verb is "newly"
    ("同事大毛养了只柯基叫馒头，天天在工位给我们看照片", [("大毛", "has", "柯基", 1.0), ("大毛", "pet_name", "馒头", 1.0)]),
    ("室友小李新养了只柯基叫旺财", [("小李", "has", "柯基", 1.0), ("小李", "pet_name", "旺财", 1.0)]),
    ("大家都养了狗", []),
])
def test_zh_a_colleagues_pet(extractor, text, expected):
    assert triples(extractor, text) == expected
