"""Animals taken in and where work is: "we adopted a dog!!! her name is Juno" (the speaker
keeps a dog, named in the next clause), "my mum finally caved and adopted a cat" (hers);
"我在岳麓区上班" (a district is where one works, not the employer), "长沙…我在岳麓区上班"
(the district of the one city the message names), "公司把我调到长沙分公司了" (posted to a
city). Sentences of our own, and the near misses that must stay silent."""

from __future__ import annotations

import pytest

from claims import USER, triples

MOTHER = f"{USER}'s mother"


@pytest.mark.parametrize("text, expected", [
    # "shes" is read as "she's" (text.restore_apostrophes): what Juno is, as with the apostrophe
    ("we adopted a dog!!! her name is Juno, shes a greyhound mix",
     [(USER, "has", "dog", 1.0), (USER, "pet_name", "Juno", 1.0), ("Juno", "is", "greyhound mix", 1.0)]),
    ("we got a dog named Juno", [(USER, "has", "dog", 1.0), (USER, "pet_name", "Juno", 1.0)]),
    ("just rescued a kitten", [(USER, "has", "kitten", 1.0)]),
    ("we adopted a puppy! golden retriever, named him Waffles",
     [(USER, "has", "puppy", 1.0), (USER, "pet_name", "Waffles", 1.0)]),
    ("my mum finally caved and adopted a cat!! called him Biscuit",
     [(MOTHER, "has", "cat", 1.0), (MOTHER, "pet_name", "Biscuit", 1.0)]),
    ("我养了一只仓鼠，很可爱，叫团子", [(USER, "has", "仓鼠", 1.0), (USER, "pet_name", "团子", 1.0)]),
])
def test_an_animal_taken_in_is_kept_and_named(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", [
    "got a cold",
    "we adopted a new policy at work",
    "I didn't get a dog",
    "her name is Juno",  # whose? nothing before says
    "should I get a dog or a cat?",
])
def test_no_pet_without_an_animal_taken_in(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] in ("has", "pet_name")] == []


@pytest.mark.parametrize("text, expected", [
    ("我在岳麓区上班", [(USER, "works_in", "岳麓区", 1.0)]),
    ("我在深圳上班", [(USER, "works_in", "深圳", 1.0)]),
    ("我在腾讯上班", [(USER, "works_at", "腾讯", 1.0)]),
    ("长沙租房哪个区通勤方便？我在岳麓区上班", [(USER, "works_in", "长沙岳麓区", 1.0)]),
    ("北京房租好贵，我住在朝阳区", [(USER, "lives_in", "北京朝阳区", 1.0)]),
    ("我住在朝阳区", [(USER, "lives_in", "朝阳区", 1.0)]),  # no city named: the district as said
    ("公司把我调到长沙分公司了，昨天刚到", [(USER, "works_in", "长沙", 1.0), (USER, "lives_in", "长沙", 1.0)]),  # arrived where posted: lives there
    ("我老公被外派去深圳了", [(f"{USER}'s husband", "works_in", "深圳", 1.0)]),
    ("公司把我调到销售部了", []),  # a department is no place
    ("我老公在深圳华为上班", [(f"{USER}'s husband", "works_at", "华为", 1.0), (f"{USER}'s husband", "works_in", "深圳", 1.0)]),
    ("我在北京协和医院上班", [(USER, "works_at", "北京协和医院", 1.0)]),  # one name, the city in it
])
def test_where_work_is_in_chinese(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("我家狗狗豆豆特别怕打雷", [(USER, "has", "狗狗", 1.0), (USER, "pet_name", "豆豆", 1.0)]),
    ("我们家的兔子团团丢了", [(USER, "has", "兔子", 1.0), (USER, "pet_name", "团团", 1.0)]),
    ("我家狗特别乖", [(USER, "has", "狗", 1.0)]),  # 特别 is no name
    ("我家猫今天吐了", [(USER, "has", "猫", 1.0)]),
    ("我家猫天天拆家", [(USER, "has", "猫", 1.0)]),  # 天天 (every day) is no name
    ("我家狗粮吃完了", []),  # dog food, no dog named
])
def test_a_chinese_household_animal_and_its_name(extractor, text, expected):
    assert triples(extractor, text) == expected
