"""Recall on ordinary chat: shapes everyday English and Chinese use to state facts without
the verbs of the lexicon (being somewhere, measurements, routines, a possessive naming
someone), each read with the precision rules of the product: plans and hedges are no
current facts, questions and requests say nothing."""

from __future__ import annotations

import pytest

from claims import USER, triples


@pytest.mark.parametrize(
    "text, expected",
    [
        # a possessive with a name: the pet is kept, and that is its name
        ("our cat Luna knocked over a plant", [(USER, "has", "cat", 1.0), (USER, "pet_name", "Luna", 1.0)]),
        ("my dog is old", []),  # no name: what is said of it is read, or nothing
        ("my sister Maya is a dentist", [("Maya", "job_title", "dentist", 1.0)]),  # kin: what is said of her
        # being somewhere, when the text says it lasts
        ("I've been in Lisbon for two years now", [(USER, "lives_in", "Lisbon", 1.0)]),
        ("I'm not in Chicago anymore", [(USER, "lives_in", "Chicago", -0.8)]),
        ("I was at Intel for six years", [(USER, "works_at", "Intel", -0.8)]),
        ("现在在成都", [(USER, "lives_in", "成都", 1.0)]),
        ("我在百度上班，之前在腾讯", [(USER, "works_at", "百度", 1.0), (USER, "works_at", "腾讯", -0.8)]),
        # measurements name their attribute by the unit
        ("I'm 6 ft 1", [(USER, "attr:height", "6 ft 1", 1.0)]),
        ("我一米六五，九十斤", [(USER, "attr:height", "一米六五", 1.0), (USER, "attr:weight", "九十斤", 1.0)]),
        ("我是O型血", [(USER, "attr:blood_type", "O型", 1.0)]),
        # routines: an activity or a place, with a word of frequency
        ("I swim every morning", [(USER, "habit", "swimming", 1.0)]),
        ("I usually go climbing on weekends", [(USER, "habit", "climbing", 1.0)]),
        ("My son goes to Jefferson High School", [(f"{USER}'s son", "studies_at", "Jefferson High School", 1.0)]),
        ("我周末经常游泳", [(USER, "habit", "游泳", 1.0)]),
        ("我每周去三次图书馆", [(USER, "habit", "图书馆", 1.0)]),
        # abilities, and an activity said alone as a habit
        ("I can't ski", [(USER, "can", "skiing", -0.8)]),
        ("my brother knows how to cook", [(f"{USER}'s brother", "can", "cooking", 1.0)]),
        ("我会滑雪", [(USER, "can", "滑雪", 1.0)]),
        ("我爸不会游泳", [(f"{USER}'s father", "can", "游泳", -0.8)]),
        ("我会德语", [(USER, "speaks", "德语", 1.0)]),
        ("I used to smoke", [(USER, "habit", "smoking", -0.8)]),
        ("Our apartment is in Kreuzberg", [(USER, "lives_in", "Kreuzberg", 1.0)]),
        # more of the lexicon: contracted "is", "a little", 迷, 嫁到, 踢, 抽
        ("my uncle's from Ireland", [(f"{USER}'s uncle", "hometown", "Ireland", 1.0)]),
        ("I speak a little Korean", [(USER, "speaks", "Korean", 1.0)]),
        ("我弟弟迷上了足球", [(f"{USER}'s brother", "likes", "足球", 1.0)]),
        ("我姑姑嫁到美国去了", [(f"{USER}'s aunt", "lives_in", "美国", 1.0)]),
        ("我不抽烟", [(USER, "smokes", "烟", -0.8), (USER, "does", "smoking", -0.8)]),
        # the past and the end of a habit
        ("小时候特别爱吃糖", [(USER, "eats", "sugar", -0.8)]),
        ("以后不喝奶茶了", [(USER, "drinks", "milk tea", -0.8)]),
        ("电视剧早就不看了", []),  # 看 is no verb of the lexicon
        # idioms: the taste named last, a kind of person, the cleft, a trade, a state reached
        ("Tacos are my favorite food", [(USER, "attr:favorite_food", "Tacos", 1.0)]),
        ("红色是我最喜欢的颜色", [(USER, "attr:favorite_color", "红色", 1.0)]),
        ("I'm definitely a cat person", [(USER, "likes", "cat", 1.0)]),
        ("I'm a night person", [(USER, "is", "night person", 1.0)]),  # a temperament, no taste
        ("我是狗派", [(USER, "likes", "狗", 1.0)]),
        ("我喝的是红茶", [(USER, "drinks", "black tea", 1.0)]),
        ("我老公是做金融的", [(f"{USER}'s husband", "occupation", "金融", 1.0)]),
        ("我爷爷退休了", [(f"{USER}'s grandfather", "employment_status", "退休", 1.0)]),
        ("我还没结婚", [(USER, "relationship_status", "已婚", -0.8)]),
        ("我们上周刚领证", [(USER, "relationship_status", "已婚", 1.0)]),
        ("I got a Vespa", [(USER, "owns", "Vespa", 1.0)]),
        ("My rabbit's name is Clover", [(USER, "has", "rabbit", 1.0), (USER, "pet_name", "Clover", 1.0)]),
        ("my cousin married her boyfriend Luis", [(f"{USER}'s cousin", "married_to", "Luis", 1.0)]),
        ("我是浙大毕业的", [(USER, "studied_at", "浙大", 1.0)]),
        ("my phone is a Pixel", [(USER, "owns", "Pixel", 1.0)]),
        ("my car is a mess", []),
        ("I can program in Java and a little Go", [(USER, "codes_in", "Java", 1.0), (USER, "codes_in", "Go", 1.0)]),
        ("我老家算四川的", [(USER, "attr:hometown", "四川", 1.0)]),
        ("我的狗叫豆豆，五岁了", [(USER, "has", "狗", 1.0), (USER, "pet_name", "豆豆", 1.0), ("豆豆", "age", "五岁", 1.0)]),
        ("已经八岁了", []),  # whose age is not said
        # tastes said in other words
        ("I'm a sucker for spy novels", [(USER, "likes", "spy novels", 1.0)]),
        ("my wife is a huge Arsenal fan", [(f"{USER}'s wife", "likes", "Arsenal", 1.0)]),
        ("I'm a big fan", [(USER, "is", "big fan", 1.0)]),
        ("我对书法很感兴趣", [(USER, "likes", "书法", 1.0)]),
        ("我对足球不感兴趣", [(USER, "dislikes", "足球", 1.0)]),
        ("我是林俊杰的粉丝", [(USER, "likes", "林俊杰", 1.0)]),
        ("饺子是我的最爱", [(USER, "likes", "饺子", 1.0)]),
        ("我不怎么吃肉", [(USER, "eats", "meat", -0.8)]),  # 不怎么 asks nothing
        ("I used to be a lawyer", [(USER, "job_title", "lawyer", -0.8)]),
        ("I'd be a terrible teacher", []),  # a conditional, and "I'd" is no name
        # moves said by the place left or the home moved into
        ("Moved over from Portugal", [(USER, "lives_in", "Portugal", -0.8)]),
        ("we moved into a bigger apartment in Harlem", [(USER, "lives_in", "Harlem", 1.0)]),
        ("My son started college at Rutgers", [(f"{USER}'s son", "studies_at", "Rutgers", 1.0)]),
        # purchases of durable things or brands
        ("我去年买了一辆比亚迪", [(USER, "owns", "比亚迪", 1.0)]),
        ("我们刚买了房", [(USER, "owns", "房", 1.0)]),
        ("我卖掉了钢琴", [(USER, "owns", "钢琴", -0.8)]),
        ("我买了咖啡", []),
        ("我想买车", []),  # a wish
        ("I traded my Corolla for a Subaru Forester", [(USER, "owns", "Corolla", -0.8), (USER, "owns", "Subaru Forester", 1.0)]),
        # attributes the lexicon names
        ("my major is computer science", [(USER, "attr:major", "computer science", 1.0)]),
        ("我的星座是天蝎座", [(USER, "attr:star_sign", "天蝎座", 1.0)]),
        ("我血型是AB型", [(USER, "attr:blood_type", "AB型", 1.0)]),
        # a statement before the question of the sentence is still a statement
        ("I live in Leeds, where should I go running?", [(USER, "lives_in", "Leeds", 1.0)]),
        ("我下个月搬去苏州，那边房租贵吗？", [(USER, "plan:lives_in", "苏州", 0.5), (USER, "lives_in", "苏州", 1.0, 30)]),
        ("I'm like 5'9 maybe", [(USER, "attr:height", "5'9", 0.5)]),  # hedged, not a taste
    ],
)
def test_everyday_shapes(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm in Paris",  # a trip as likely as a home
        "I'm at Starbucks now",  # an errand
        "I'm in a meeting now",
        "I run a small bakery every day",
        "I can run a marathon",  # what can be done to an object is no ability of its own
        "I swim in the lake",  # one swim, unless said how often
        "明天会下雨",  # "run" with an object is no exercise
        "I'm running late every day",
        "I ran every day last year",  # an episode, and past
        "the box is 5 kg",
        "跑了三公里",
        "I got a cold",
        "I got an A on the test",
        "it's my favorite",
        "我现在在家",
        "我去北京玩了",
        "What's a good gym near me, I go to yoga every week?",
        "Which is better for a beginner, Python or JavaScript?",
        "我女儿喜欢什么？",
        "Can you recommend a vet for my dog Rex?",
    ],
)
def test_still_nothing(extractor, text):
    assert triples(extractor, text) == []
