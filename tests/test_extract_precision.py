"""Precision first (issue 10): the offline extractor emits a claim only from shapes it reads
with confidence; values are whole noun phrases; plans, wishes and episodes are no facts;
an additive marker is carried to the caller."""

from __future__ import annotations

import pytest

from bcg_rag import BeliefMemory, Policy
from bcg_rag.extract import competing, restatement_diff
from bcg_rag.extract.restate import value_position
from claims import USER, triples


# ------------------------------------------------------------------ nothing durable, nothing extracted

@pytest.mark.parametrize(
    "text",
    [
        # clauses, moods and pointers where a value should be
        "my son Leo loves his new school",
        "moving to Denver was the best decision, I can see the mountains",
        "Kat sits next to me in the office",
        "Katherine just transferred to our London office",
        "Mochi is NOT impressed",
        "Portland summers are perfect",
        "the vet says Biscuit needs to lose weight",
        "It's sooo hot today, like 38 degrees",
        "Back from the gym",
        "my car is literally yellow",
        "my teacher is very patient",
        "my forearms are destroyed",
        "moved out to the suburbs",
        # episodes and passing wishes are no habits
        "I just ate way too much pizza",
        "I had sushi yesterday",
        "今天中午吃了猪脚饭，撑",
        "刚吃完饭，有点撑",
        "我想喝奶茶",
        "I'm eating lunch",
        "我正在喝咖啡",
        "I'm a mess today",
        "我喜欢这个回答",
        "I wouldn't say I love running",
        "我不是不喜欢咖啡",
        "I eat like a bird",
        # Chinese: subjects that are no names, values that are clauses, questions in A-not-A form
        "晚饭吃啥好纠结啊",
        "一口气吃了两只虾",
        "猫跟狗会不会打架啊",
        "还有榴莲，越臭越爱哈哈",
        "沈阳有啥好吃的推荐下",
        "学习使我快乐",
        "在家养伤好无聊",
        "女儿转学了，现在在外国语学校",
        "杭州的夏天也太热了吧，空调一天都没停过",
        "浙大的食堂还是那个味儿",
        "武汉今天下雪了",
    ],
)
def test_loose_shapes_give_no_claim(extractor, text):
    assert triples(extractor, text) == []


# ------------------------------------------------------------------ values are whole noun phrases

@pytest.mark.parametrize(
    "text, expected",
    [
        ("Stefano Pioli is associated with the sport of association football.",
         ("Stefano Pioli", "is_associated_with", "association football", 1.0)),
        ("Satya Nadella was born in the city of Hyderabad.", ("Satya Nadella", "born_in", "Hyderabad", 1.0)),
        ("London is located in the continent of Europe.", ("London", "located_in", "Europe", 1.0)),
        ("Joey Barton plays the position of shooting guard.", ("Joey Barton", "plays_the_position_of", "shooting guard", 1.0)),
        ("I speak Spanish pretty well", (USER, "speaks", "Spanish", 1.0)),
        ("moved to Portland last weekend", (USER, "lives_in", "Portland", 1.0)),
        ("I'm from Toronto originally", (USER, "hometown", "Toronto", 1.0)),
        ("I have a 2015 Honda Civic with 150k miles on it", (USER, "has", "Honda Civic", 1.0)),  # the car, not its model year
        ("I drink too much coffee", (USER, "drinks", "coffee", 1.0)),
        ("我住的深圳这边最近回南天", (USER, "lives_in", "深圳", 1.0)),
        ("我叫陈晨", (USER, "name", "陈晨", 1.0)),
        ("云杉公司的CEO是刘洋", ("云杉公司", "ceo", "刘洋", 1.0)),
    ],
)
def test_values_are_noun_phrases(extractor, text, expected):
    assert triples(extractor, text) == [expected]


def test_restatements_keep_the_whole_noun_phrase():
    diff = restatement_diff("goalkeeper is associated with the sport of Gaelic football.",
                            "goalkeeper is associated with the sport of association football.")
    assert (diff.old_value, diff.new_value) == ("Gaelic football", "association football")
    diff = restatement_diff("Joey Barton plays the position of shooting guard.", "Joey Barton plays the position of point guard.")
    assert (diff.old_value, diff.new_value) == ("shooting guard", "point guard")
    assert restatement_diff("I have a cat too", "I have a dog too").old_value == "cat"  # "too" ends no noun phrase
    assert restatement_diff("我在腾讯工作", "我在阿里工作").template == "我在{}工作"


def test_restatements_keep_a_place_with_its_region():
    # The shared ", Portugal" names where each value is; the place is the whole span, and the
    # statement's answer slot stays a slot (a template ending ", portugal" is no value position).
    diff = restatement_diff("Q: which team does she coach A: FC Porto, Porto, Portugal",
                            "Q: which team does she coach A: Sporting CP, Lisbon, Portugal")
    assert (diff.template, diff.old_value, diff.new_value) == (
        "q: which team does she coach a: {}", "FC Porto, Porto, Portugal", "Sporting CP, Lisbon, Portugal")
    assert value_position(diff.template)
    # A shared tail that is no region stays outside the value.
    diff = restatement_diff("The best tacos are at Rosa's, downtown.", "The best tacos are at Pepe's, downtown.")
    assert (diff.old_value, diff.new_value) == ("Rosa's", "Pepe's")


# ------------------------------------------------------------------ plans, past states, changes

@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm moving to Berlin in June.", [(USER, "plan:lives_in", "Berlin", 0.5)]),
        ("We're relocating to Austin this summer.", [(USER, "plan:lives_in", "Austin", 0.5)]),
        ("I'm starting a new job at Stripe in two weeks.", [(USER, "plan:works_at", "Stripe", 0.5)]),
        ("下周一去美团报到，有点紧张", [(USER, "plan:works_at", "美团", 0.5), (USER, "works_at", "美团", 1.0, 7)]),
        ("I was a teacher for ten years before going into sales",
         [(USER, "job_title", "teacher", -0.8), (USER, "occupation", "sales", 1.0)]),  # the field gone into is now
        ("Used to be vegan but I eat fish now", [(USER, "diet", "vegan", -0.8), (USER, "eats", "fish", 1.0)]),
        ("Nope, not married", [(USER, "relationship_status", "married", -0.8)]),
        ("Got married last Saturday!", [(USER, "relationship_status", "married", 1.0)]),
        ("I left the book club, too much drama lol", [(USER, "member_of", "book club", -0.8)]),
        ("Dropped out of my MBA program at Wharton.", [(USER, "studies_at", "Wharton", -0.8)]),
        ("My dad retired from Ford last month.", [(f"{USER}'s father", "works_at", "Ford", -0.8)]),
        ("quit the barista job at Victrola last week!", [(USER, "works_at", "Victrola", -0.8)]),
        ("刚从广州搬过来，现在住在南京鼓楼区", [(USER, "lives_in", "广州", -0.8), (USER, "lives_in", "南京鼓楼区", 1.0)]),
        ("啤酒已经戒了快一个月了", [(USER, "drinks", "beer", -0.8)]),
        ("我把美式戒了，现在喝拿铁", [(USER, "prefers_coffee_type", "americano", -0.8),
                                  (USER, "prefers_coffee_type", "latte", 1.0)]),  # 现在 is no progressive 在
        ("辞职了，不在那家银行干了", [(USER, "works_at", "银行", -0.8)]),
        ("我没有驾照，一直没考", [(USER, "has", "驾照", -0.8)]),
        ("我退出乐队了", [(USER, "member_of", "乐队", -0.8)]),
    ],
)
def test_plans_past_states_and_changes(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_joining_is_a_membership_unless_an_employer(extractor):
    assert triples(extractor, "joined the YMCA downtown") == [(USER, "member_of", "YMCA", 1.0)]
    assert triples(extractor, "joined a rec volleyball league with some coworkers") == [
        (USER, "member_of", "rec volleyball league", 1.0)
    ]
    assert triples(extractor, "I joined Stripe in March") == [(USER, "works_at", "Stripe", 1.0)]


# ------------------------------------------------------------------ people, pets, ages

@pytest.mark.parametrize(
    "text, expected",
    [
        ("Anna是我大学室友，现在在德国读博", [(USER, "has_roommate", "Anna", 1.0), ("Anna", "studies_at", "德国", 1.0)]),
        ("Jess is my best friend", [(USER, "has_best_friend", "Jess", 1.0)]),
        ("我同事小王是四川人，超能吃辣", [("小王", "hometown", "四川", 1.0), ("小王", "eats", "辣", 1.0)]),
        ("我妈退休了，不当医生了", [(f"{USER}'s mother", "employment_status", "退休", 1.0), (f"{USER}'s mother", "job_title", "医生", -0.8)]),
        ("我岳父叫陈建国，住在青岛", [(f"{USER}'s father-in-law", "name", "陈建国", 1.0),
                                   (f"{USER}'s father-in-law", "lives_in", "青岛", 1.0)]),
        ("My daughter turned 7 yesterday", [(f"{USER}'s daughter", "age", "7", 1.0)]),
        ("我女儿今年三岁了，特别爱画画", [(f"{USER}'s daughter", "age", "三岁", 1.0), (f"{USER}'s daughter", "likes", "画画", 1.0)]),
        ("We used to have a golden retriever named Biscuit", [(USER, "has", "golden retriever", -0.8),
                                                              (USER, "pet_name", "Biscuit", -0.8)]),
        ("我养了一只仓鼠，叫团子", [(USER, "has", "仓鼠", 1.0), (USER, "pet_name", "团子", 1.0)]),
        ("我养了只柯基叫旺财", [(USER, "has", "柯基", 1.0), (USER, "pet_name", "旺财", 1.0)]),
        ("我的猫叫年糕", [(USER, "has", "猫", 1.0), (USER, "pet_name", "年糕", 1.0)]),
        ("My husband works at Boeing as a mechanic.", [(f"{USER}'s husband", "works_at", "Boeing", 1.0),
                                                      (f"{USER}'s husband", "job_title", "mechanic", 1.0)]),
        ("started my new gig as a data scientist at Spotify on monday", [(USER, "works_at", "Spotify", 1.0),
                                                                          (USER, "job_title", "data scientist", 1.0)]),
        ("Call me Rob, nobody uses Robert", [(USER, "name", "Rob", 1.0)]),
        ("我生日是3月15号", [(USER, "attr:birthday", "3月15号", 1.0)]),
        ("我老公生日是5月2号", [(f"{USER}'s husband", "birthday", "5月2号", 1.0)]),
        ("下周一8月19号是我生日！想自己去看场演唱会犒劳一下", [(USER, "attr:birthday", "8月19号", 1.0)]),  # a day said ahead: no plan
        ("3月2号是我们结婚纪念日", [(USER, "attr:anniversary", "3月2号", 1.0)]),
        ("august 19 is my birthday!", [(USER, "attr:birthday", "august 19", 1.0)]),
        ("May 5 is my mom's birthday", [(f"{USER}'s mother", "birthday", "May 5", 1.0)]),
        ("my bday is march 3", [(USER, "attr:birthday", "march 3", 1.0)]),
        ("今天是我生日", []),  # no date said
        ("我想8月19号过生日", []),
        ("我对花粉过敏。", [(USER, "allergic_to", "花粉", 1.0)]),
        ("我家有一只狗。", [(USER, "has", "狗", 1.0)]),
    ],
)
def test_people_pets_and_ages(extractor, text, expected):
    assert triples(extractor, text) == expected


# ------------------------------------------------------------------ additive markers

@pytest.mark.parametrize(
    "text, additive",
    [
        ("I also work at Globex on weekends", True),
        ("I have a dog too", True),
        ("我也养了一只狗", True),
        ("I work at Acme", False),
        ("I drink too much coffee", False),  # "too much" adds nothing
        ("我又搬到了上海", False),  # a change marker wins: a move is no addition
    ],
)
def test_additive_markers_are_marked(extractor, text, additive):
    claims, reading = extractor.read(text, user_id=USER)
    assert claims and reading.additive == [additive] * len(claims)


@pytest.mark.parametrize(
    "text, additive",
    [
        ("my cousin lives in Tampa", True),  # one may have several cousins
        ("我舅舅在华为上班", True),
        ("my mom lives in Tampa", False),  # one mother
        ("my cousin moved to Tampa", False),  # the text says the change
        ("我表哥现在住在杭州", False),
    ],
)
def test_a_relative_one_often_has_several_of_adds_a_value_unless_a_change_is_said(extractor, text, additive):
    claims, reading = extractor.read(text, user_id=USER)
    assert claims and reading.additive == [additive] * len(claims)


@pytest.mark.parametrize(
    "first, second, outdated",
    [
        ("我姑姑住在南京", "我姨妈住在合肥", False),  # 姑姑 and 姨妈 are two aunts, though English says "aunt" for both
        ("my uncle works at Boeing", "my uncle works at Airbus", False),
        ("my uncle works at Boeing", "my uncle works at Airbus now", True),
        ("my dad works at Boeing", "my dad works at Airbus", True),
        # a job noun after a copula is a job title, one at a time; "I'm a runner" is no job
        ("I'm a junior accountant", "I'm a senior accountant", True),
        ("我是初级设计师", "我是高级设计师", True),
        ("I'm a runner", "I'm a climber", False),
        # how many is one number at a time: the newer count replaces the older (the things stay)
        ("I have three bikes", "I now own four bikes", True),
    ],
)
def test_two_values_of_a_shared_relation_stand_side_by_side(first, second, outdated):
    memory = BeliefMemory.in_memory(Policy.from_dict({"embedder": {"kind": "hash"}}))
    try:
        said = memory.add_message(first, user_id=USER, timestamp="2025-01-01T00:00:00")
        memory.add_message(second, user_id=USER, timestamp="2025-01-04T00:00:00")
        before = {(c.subject, c.predicate, c.value) for c in said.claims}
        beliefs = memory.beliefs(USER, now="2025-01-04T00:00:00")
        assert before <= {(b.subject, b.predicate, b.value) for b in beliefs}
        assert any((b.subject, b.predicate, b.value) in before and not memory.asserted(b) for b in beliefs) == outdated
    finally:
        memory.close()


def test_an_additive_restatement_never_competes():
    diff = restatement_diff("I work at Acme on weekends", "I also work at Globex on weekends")
    assert diff is None or not competing(diff, "I also work at Globex on weekends", single_valued=True)
    diff = restatement_diff("I live in Paris", "I live in Berlin")
    assert competing(diff, "I live in Berlin", single_valued=True)


def test_message_results_carry_the_additive_claims():
    memory = BeliefMemory.in_memory(Policy.from_dict({"embedder": {"kind": "hash"}}))
    try:
        first = memory.add_message("I work at Acme", user_id=USER, timestamp="2025-01-01T00:00:00")
        second = memory.add_message("I also work at Globex on weekends", user_id=USER, timestamp="2025-01-04T00:00:00")
    finally:
        memory.close()
    assert first.additive == []
    assert [(c.predicate, c.value) for c in second.additive] == [("works_at", "Globex")]


@pytest.mark.parametrize(
    "text, states",
    [
        ("what's a good podcast for a long drive", False),  # a contracted question word, no question mark
        ("how's your day going", False),
        ("thoughts on the new iPhone?", False),
        ("my wife and I are taking a cooking class for valentine's, any tips?", True),  # a statement, then an ask
        ("I moved to Austin last week, any recommendations for tacos?", True),
        ("what is a good podcast?", False),
        ("I live in Leeds, where should I go running?", True),
        # 了吧 exclaims or supposes, a bare 吧 suggests: the clause after it still says something
        ("安和涨价也太狠了吧 以后改去贝贝宠物诊所了", True),
        ("去吃火锅吧", False),
        ("讲个笑话吧，要短的", False),
    ],
)
def test_a_statement_is_told_from_a_question(extractor, text, states):
    assert extractor.states_something(text) is states


@pytest.mark.parametrize(
    "text, expected",
    [
        # an accented letter is a letter: "a" is no word inside "Janša"
        ("The mayor of Ljubljana is Janez Janša.", [("Ljubljana", "mayor", "Janez Janša", 1.0)]),
        ("José moved to São Paulo", [("José", "lives_in", "São Paulo", 1.0)]),
        # "on" / "with" between capitalised words joins a title; "in" and "over" part two names
        ("My favorite show is Attack on Titan", [(USER, "attr:favorite_show", "Attack on Titan", 1.0)]),
        ("I love Gone with the Wind", [(USER, "likes", "Gone with the Wind", 1.0)]),
        ("I work at Google on Mondays", [(USER, "works_at", "Google", 1.0)]),
        ("I work at Acme in Berlin", [(USER, "works_at", "Acme", 1.0)]),
        ("I prefer Coke over Pepsi", [(USER, "likes", "Coke", 1.0)]),
        # a passive verb where the value should be states an event
        ("The Art of War was created in the country of China.", []),
        ("Taylor Swift's album was released by Republic Records.", []),
        ("The capital of France is Paris.", [("France", "capital", "Paris", 1.0)]),
        # a legal form is part of the name: no clause break at its comma, no sentence end at its period
        ("Transformers was created by Hasbro, Inc.", [("Transformers", "was_created_by", "Hasbro, Inc", 1.0)]),
        ("I work at Initech, LLC now", [(USER, "works_at", "Initech, LLC", 1.0)]),
        ("I work at Acme Inc. It is great.", [(USER, "works_at", "Acme Inc", 1.0)]),
        # a title after a name and a comma is the name's; a place after a place is where it is
        ("Mirela is married to Anton Vell, Count of Sarn.", [("Mirela", "married_to", "Anton Vell, Count of Sarn", 1.0)]),
        ("Thanks, Duke of Earl.", []),
        ("moved to Tartu, Estonia", [(USER, "lives_in", "Tartu", 1.0), ("Tartu", "located_in", "Estonia", 1.0)]),
        # a capital "The" inside a sentence begins a name; a lower-case one is an article
        ("Oskar is famous for The Quiet Harbour.", [("Oskar", "is_famous_for", "The Quiet Harbour", 1.0)]),
        ("I love the Beatles", [(USER, "likes", "Beatles", 1.0)]),
        # a workplace by its name; the speaker's unnamed company is the user's employer
        ("我在一家叫云杉数据的小公司做产品", [(USER, "works_at", "云杉数据", 1.0), (USER, "job_title", "产品", 1.0)]),
        ("公司总部搬到合肥了", [(f"{USER}'s employer", "headquarters", "合肥", 1.0)]),
        ("our company moved its HQ to Boise", [(f"{USER}'s employer", "headquarters", "Boise", 1.0)]),
        # "叫X的" names the place, not the speaker; a frame ends on a word ("在…工作" is not "工作室")
        ("我在一家叫松果的工作室上班", [(USER, "works_at", "松果", 1.0)]),
        ("我在一家名叫蓝鲸的公司上班", [(USER, "works_at", "蓝鲸", 1.0)]),
        ("我在工作室画画", []),
        # an item of a list of names is a name, even with a word that looks like a verb
        ("Top clubs: Leeds United, Boca Juniors, Los angeles Galaxy, Inter Miami", []),
        ("I met Tom, Jerry, Anna, Ben joins Google", [("Ben", "works_at", "Google", 1.0)]),
    ],
)
def test_names_titles_and_passives(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # "it's in X" right after a school or an employer: where that place is
        ("we moved Mia to Linden Academy, it's over in Westbury", [("Mia", "studies_at", "Linden Academy", 1.0),
                                                                   ("Linden Academy", "located_in", "Westbury", 1.0)]),
        ("I work at Corvane, it is based in Boston", [(USER, "works_at", "Corvane", 1.0), ("Corvane", "located_in", "Boston", 1.0)]),
        ("I joined a gym, it is in the basement", [(USER, "member_of", "gym", 1.0)]),  # no place's name
        ("I live in Paris, it is in France", [(USER, "lives_in", "Paris", 1.0)]),  # a town is no venue
    ],
)
def test_where_a_venue_just_named_is(extractor, text, expected):
    assert triples(extractor, text) == expected


# ------------------------------------------------------------------ reported speech is no name

@pytest.mark.parametrize(
    "text, kin_named",
    [
        ("我老公说新老板特别抠", []),  # 说 (said) + 新 (new) is not the husband's name
        ("我姐说云杉把总部搬到西安了", []),
        ("我姐小美在杭州上班", [("sister", "小美")]),  # a name after the kin word still is one
        ("我室友小陈养了只猫", [("roommate", "小陈")]),
    ],
)
def test_a_kin_word_before_a_verb_names_no_one(extractor, text, kin_named):
    _, reading = extractor.read(text, user_id=USER)
    assert sorted(reading.kin) == kin_named


def test_what_was_sold_is_never_the_seller(extractor):
    # "周建国把公司卖了": the 把 object is what ended, never the seller's name.
    assert all(value != "周建国" for _, _, value, _ in triples(extractor, "周建国把公司卖了"))
    assert (USER, "does", "吉他", -0.8) in triples(extractor, "我把吉他卖了")
