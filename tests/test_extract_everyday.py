"""Everyday facts in chat, and the sentences that look like them but say nothing about the
speaker (``bcg_rag/extract/everyday.py`` and the rules it joins): reported speech about a
friend or relative, two people named together, possessions said with "we" / "我们家", ages to
come, homes and workplaces said in passing; and, as negative cases, advice, hypotheticals,
wishes, errands, job words outside a job, pauses that are no quitting, and other people's
relatives."""

from __future__ import annotations

import pytest

from claims import USER, triples

FRIEND, SISTER, BROTHER, BOSS, MOTHER = (f"{USER}'s {r}" for r in ("friend", "sister", "brother", "boss", "mother"))


@pytest.mark.parametrize(
    "text, expected",
    [
        # reported speech: "she" / "他" is the one who said it
        ("my friend said she's moving to Lyon", [(FRIEND, "plan:lives_in", "Lyon", 0.5)]),
        ("My sister told me she got a job at Amazon", [(SISTER, "works_at", "Amazon", 1.0)]),
        ("my brother told me he lives in Leeds now", [(BROTHER, "lives_in", "Leeds", 1.0)]),
        ("Jake said he works at Google", [("Jake", "works_at", "Google", 1.0)]),
        ("my boss said she's from Texas", [(BOSS, "hometown", "Texas", 1.0)]),
        ("我朋友说她要搬去成都", [(FRIEND, "plan:lives_in", "成都", 0.5)]),
        ("我妈说她不喝咖啡了", [(MOTHER, "drinks", "coffee", -0.8)]),
        # friends, coworkers, relatives as subjects
        ("my buddy Raj works at Intel", [("Raj", "works_at", "Intel", 1.0)]),
        ("My coworker Lisa is from Ohio", [("Lisa", "hometown", "Ohio", 1.0)]),
        ("my roommate quit her job at Starbucks", [(f"{USER}'s roommate", "works_at", "Starbucks", -0.8)]),
        ("my colleague is from Chicago, I'm from Boston",
         [(f"{USER}'s colleague", "hometown", "Chicago", 1.0), (USER, "hometown", "Boston", 1.0)]),
        ("我同事是北京人，我是上海人", [(f"{USER}'s colleague", "hometown", "北京", 1.0), (USER, "hometown", "上海", 1.0)]),
        ("我儿子对鸡蛋过敏", [(f"{USER}'s son", "allergic_to", "鸡蛋", 1.0)]),
        ("my son is allergic to eggs", [(f"{USER}'s son", "allergic_to", "eggs", 1.0)]),
        # two people named together share the claim
        ("My wife and I live in Chicago", [(USER, "lives_in", "Chicago", 1.0), (f"{USER}'s wife", "lives_in", "Chicago", 1.0)]),
        ("Jess and I work at Nike", [(USER, "works_at", "Nike", 1.0), ("Jess", "works_at", "Nike", 1.0)]),
        ("me and my brother both work at Ford", [(USER, "works_at", "Ford", 1.0), (BROTHER, "works_at", "Ford", 1.0)]),
        ("我跟我妈都喜欢喝茶", [(USER, "drinks", "tea", 1.0), (MOTHER, "drinks", "tea", 1.0)]),
        # possessions with "we" / "我们家": the thing kept, not how many
        ("we've got two kids", [(USER, "has", "kids", 1.0)]),  # people and pets are named, not counted
        ("We have two dogs and a cat", [(USER, "has", "dogs", 1.0), (USER, "has", "cat", 1.0)]),
        ("We're vegetarian", [(USER, "diet", "vegetarian", 1.0)]),
        ("我们家养了一条狗", [(USER, "has", "狗", 1.0)]),
        ("我们家养了两只猫", [(USER, "has", "猫", 1.0)]),
        ("我们家有一辆车", [(USER, "has", "car", 1.0)]),
        ("我家有两只猫", [(USER, "has", "猫", 1.0)]),
        ("our new Corolla is great", [(USER, "owns", "Corolla", 1.0)]),
        ("my old Honda died", [(USER, "owns", "Honda", 1.0)]),
        # a home, a workplace, said in passing
        ("finally signed the lease on a place in Austin", [(USER, "lives_in", "Austin", 1.0)]),
        ("We rent an apartment in Brooklyn", [(USER, "lives_in", "Brooklyn", 1.0)]),
        ("we bought a house in Denver", [(USER, "lives_in", "Denver", 1.0), (USER, "owns", "house", 1.0)]),
        ("my commute to the Google office is brutal", [(USER, "works_at", "Google", 1.0)]),
        # ages: one to come is a plan
        ("turning 30 next week", [(USER, "plan:age", "30", 0.5), (USER, "age", "30", 1.0, 7)]),
        ("I'm turning 40 in May", [(USER, "plan:age", "40", 0.5)]),
        ("my dad turns 70 next week",
         [(f"{USER}'s father", "plan:age", "70", 0.5), (f"{USER}'s father", "age", "70", 1.0, 7)]),
        ("我下个月就30岁了", [(USER, "plan:age", "30岁", 0.5), (USER, "age", "30岁", 1.0, 30)]),
        ("我爸今年七十了", [(f"{USER}'s father", "age", "七十岁", 1.0)]),
        ("我今年三十了", [(USER, "age", "三十岁", 1.0)]),
        ("I'm 34", [(USER, "age", "34", 1.0)]),
        # attributes and habits
        ("我血型是A型", [(USER, "attr:blood_type", "A型", 1.0)]),
        ("我对花生过敏", [(USER, "allergic_to", "花生", 1.0)]),
        ("I'm a stay-at-home mom", [(USER, "is", "stay-at-home mom", 1.0)]),
        ("I stopped going to the gym for a while", [(USER, "habit", "gym", -0.8)]),
        ("I run every morning", [(USER, "habit", "running", 1.0)]),
        ("我每周去三次健身房", [(USER, "habit", "健身房", 1.0)]),
        ("我每天都要喝咖啡", [(USER, "drinks", "coffee", 1.0)]),  # 要 of a habit, no plan
        ("I left the book club", [(USER, "member_of", "book club", -0.8)]),
        # advice said to the speaker is no fact
        ("my mom says I should move to Denver", []),
        ("My friend says I should try climbing", []),
        ("我妈说我应该多喝水", []),
        # hypotheticals, wishes, sarcasm
        ("Imagine working at Google lol", []),
        ("If I lived in Paris I'd eat croissants every day", []),
        ("I wish I had a dog", []),
        ("I would love to live in Japan", []),
        ("Yeah right, like I'd ever live in Ohio", []),
        ("要是我住在北京就好了", []),
        ("如果我有钱就买房", []),
        # episodes and errands
        ("I had an interview at Apple today", []),
        ("I left the party early", []),
        ("I left my wallet at Starbucks", []),
        ("I'm going to the gym every day", []),  # a place gone to is no plan
        ("I stopped by Target", []),
        ("我在星巴克等朋友", []),
        ("我在医院陪我妈", []),
        ("我老公在出差", []),
        ("我上周去了上海出差", []),
        # pausing is not quitting; an app is no job
        ("I'm taking a break from coffee", []),
        ("I paused my Netflix subscription", []),
        ("I quit Twitter", [(USER, "does", "Twitter", -0.8)]),  # no job: an ending whose slot is unnamed (endings.py)
        ("我暂停了健身", []),
        # job words outside a job
        ("that job at Google sounds amazing", []),
        ("I applied for a job at Microsoft", []),
        ("I didn't get the job at Google", []),
        ("I'm job hunting", []),
        ("My dream job is working at Pixar", []),
        ("I'm working on a project for Nike", []),
        ("I'm working from home today", []),
        # other people's relatives are not the speaker's
        ("My friend's sister is a lawyer", []),
        ("Jake's girlfriend works at Google", []),
        ("我朋友的姐姐是律师", []),
        # no one named, no place named, no thing named
        # a new home named without a lease or a purchase
        ("the new flat in Bristol is so bright", [(USER, "lives_in", "Bristol", 1.0)]),
        # how well a language is spoken is not the language
        ("I speak conversational Korean and basic Thai", [(USER, "speaks", "Korean", 1.0), (USER, "speaks", "Thai", 1.0)]),
        # emoji and a space between Chinese words end a clause, as a full stop and a comma would
        ("终于交房了🎉 从昌平搬到了海淀", [(USER, "lives_in", "昌平", -0.8), (USER, "lives_in", "海淀", 1.0)]),
        ("累死了 我从天津搬到了青岛", [(USER, "lives_in", "天津", -0.8), (USER, "lives_in", "青岛", 1.0)]),
        ("big week 🎉 we live in Tucson now", [(USER, "lives_in", "Tucson", 1.0)]),
        # "and he's ..." starts a new clause; English allergies; a weekday is a time, not a value
        ("My wife Ines is a dentist and she's allergic to penicillin",
         [("Ines", "job_title", "dentist", 1.0), ("Ines", "allergic_to", "penicillin", 1.0)]),
        ("I'm allergic to kiwi", [(USER, "allergic_to", "kiwi", 1.0)]),
        ("my dad is 64 on Sunday", [(f"{USER}'s father", "age", "64", 1.0)]),
        ("my granddad turned 95 last week", [(f"{USER}'s grandfather", "age", "95", 1.0)]),
        # a place one goes to, named after a possessive (read on the sentence: the comma cuts clauses)
        ("my daughter Mia adores her new school, Lakeside Primary!", [("Mia", "studies_at", "Lakeside Primary", 1.0)]),
        ("I love my new job at Figma", [(USER, "works_at", "Figma", 1.0)]),
        ("our new gym, Steel Works, opens at six", [(USER, "member_of", "Steel Works", 1.0)]),
        ("my job at the bank is boring", []),
        ("my new Boss is nice", []),
        ("I'm renting a room in a house", []),
        ("He is a doctor", []),
        ("she's 25", []),
        ("我们住在郊区", []),
        ("我们家有三口人", []),
    ],
)
def test_everyday_facts(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text", ["我和小张分手了", "我和小林分手了"])
def test_a_breakup_is_not_shared(extractor, text):
    """ "我和X" before 分手 is whom the speaker left, not a companion sharing a claim."""
    claims = triples(extractor, text)
    assert len(claims) == 1 and claims[0][0] == USER and claims[0][3] < 0


@pytest.mark.parametrize(
    "text, expected",
    [
        # a Chinese clause that opens with its verb and ends in 吧 / 呗 asks for something
        ("来首周杰伦的歌吧", []),
        ("讲个睡前故事呗，睡不着", []),
        ("下个月可能会去学德语吧", [(USER, "plan:studies", "德语", 0.5)]),  # a time first: a plan, not a request
        # 会 before another verb is "will", not "can speak"
        ("我以后会去学法语", [(USER, "plan:studies", "法语", 0.5)]),
        ("我会粤语", [(USER, "speaks", "粤语", 1.0)]),
        # "吃不下", "睡不着": a verb's ending, not a thing
        ("我从来不喝冰水，根本喝不下", [(USER, "drinks", "冰水", -0.8)]),
        ("我从来不吃辣，真的吃不了", [(USER, "eats", "辣", -0.8)]),
        # a word that only points back is no value
        ("my wife is French, so I'm slowly learning the language", [(f"{USER}'s wife", "nationality", "French", 1.0)]),
        # the thing first, the speaker left out: 可乐换成豆浆了
        ("奶茶换成豆浆了，控糖中", [(USER, "drinks", "milk tea", -0.8), (USER, "drinks", "soy milk", 1.0)]),
        # a switch whose new value the lexicon does not know takes the kind of the old one
        ("switched from coffee to yerba mate this year", [(USER, "drinks", "coffee", -0.8), (USER, "drinks", "yerba mate", 1.0)]),
        # the home is not the place; a model year is not the car; "that ..." ends a value
        ("we live in a tiny studio in Porto", [(USER, "lives_in", "Porto", 1.0)]),
        ("I have a 2009 Toyota Corolla that won't die", [(USER, "has", "Toyota Corolla", 1.0)]),
        # "twin", "baby": still the brother or sister
        ("my twin sister works at Deloitte", [(f"{USER}'s sister", "works_at", "Deloitte", 1.0)]),
        ("我双胞胎哥哥住在厦门", [(f"{USER}'s brother", "lives_in", "厦门", 1.0)]),
        # "my birthday's ..." and a day written with its ordinal: one day, however written
        ("my birthday's on October 2nd", [(USER, "attr:birthday", "October 2", 1.0)]),
        ("My mum's car is red", []),
        # where someone is known from says which one, not where they are from
        ("Kofi from my team is moving to Accra next month",
         [("Kofi", "plan:lives_in", "Accra", 0.5), ("Kofi", "lives_in", "Accra", 1.0, 30)]),
        ("my buddy from college works at Valve", [(f"{USER}'s friend", "works_at", "Valve", 1.0)]),
        ("Kofi is from Accra", [("Kofi", "hometown", "Accra", 1.0)]),
        # a named pet is the subject of its own age; what one thinks of it is no fact
        ("our dog Biscuit is 6", [("Biscuit", "age", "6", 1.0), (USER, "has", "dog", 1.0), (USER, "pet_name", "Biscuit", 1.0)]),
        ("my cat Pixel is a menace", [(USER, "has", "cat", 1.0), (USER, "pet_name", "Pixel", 1.0)]),
        # an adverb between a verb and its preposition
        ("I grew up mainly in Winnipeg", [(USER, "hometown", "Winnipeg", 1.0)]),
        # a job noun after a copula is a job title; any other noun is what someone is
        ("my cousin is a paramedic", [(f"{USER}'s cousin", "job_title", "paramedic", 1.0)]),
        ("我表姐是律师", [(f"{USER}'s cousin", "job_title", "律师", 1.0)]),
        ("I'm a night owl", [(USER, "is", "night owl", 1.0)]),
        ("转正了，现在是运营助理", [(USER, "job_title", "运营助理", 1.0)]),  # an assistant or an intern is a job
        # a city after 在…当/做 is where the work is; an organisation the lexicon names is the employer
        ("我哥在杭州当会计", [(f"{USER}'s brother", "works_in", "杭州", 1.0), (f"{USER}'s brother", "job_title", "会计", 1.0)]),
        ("我在美团做运营", [(USER, "works_at", "美团", 1.0), (USER, "job_title", "运营", 1.0)]),
        # "在济南老家", "在成都那边": the place
        ("我爸在洛阳老家", [(f"{USER}'s father", "lives_in", "洛阳", 1.0)]),
        # games played with 打 / 踢 / 下, however jieba cuts them; 不 inside an idiom denies nothing
        ("我每周五晚上打篮球", [(USER, "plays", "篮球", 1.0)]),
        ("周末风雨无阻去踢足球", [(USER, "plays", "足球", 1.0)]),
        ("我外公天天下象棋", [(f"{USER}'s grandfather", "plays", "象棋", 1.0)]),
        ("我已经不打网球了", [(USER, "plays", "网球", -0.8)]),
        ("我喜欢打网球", [(USER, "likes", "网球", 1.0)]),
        # how much of a habit is no thing; "<x>-free" ends x
        ("I smoke roughly ten a day", [(USER, "habit", "smoking", 1.0)]),
        ("two years smoke-free this week", [(USER, "does", "smoking", -0.8)]),
        ("I'm caffeine-free now", [(USER, "does", "caffeine", -0.8)]),
        ("I'm gluten-free", [(USER, "is", "gluten-free", 1.0)]),
        # the other one named first in a breakup
        ("Priya and I broke up last month", [(USER, "dating", "Priya", -0.8)]),
        # a new role said without "I'm", with a word that says it is new
        ("finally a senior paralegal now", [(USER, "job_title", "senior paralegal", 1.0)]),
        ("officially a homeowner now", []),
        # moved into a home: the place after it, or nothing
        ("my uncle moved into a care home in Dundee", [(f"{USER}'s uncle", "lives_in", "Dundee", 1.0)]),
        ("we moved into a bigger house", []),
        # an age with no one named: the speaker's when 今年 (this year) opens the message
        ("今年31了，腰开始不行了", [(USER, "age", "31岁", 1.0)]),
        ("已经五岁了", []),
        # a new home in a list of news
        ("crazy week: new job, new flat in Bristol", [(USER, "lives_in", "Bristol", 1.0)]),
        # going somewhere to do something regularly: the activity; "退休后" says since when
        ("我外婆退休后每天去公园散步", [(f"{USER}'s grandmother", "habit", "散步", 1.0)]),
        ("每周去健身房撸铁", [(USER, "habit", "撸铁", 1.0)]),
        # organisations jieba's dictionary cuts apart are one name (快手, not 快 + 手)
        ("离开网易了，现在在拼多多", [(USER, "works_at", "网易", -0.8), (USER, "works_at", "拼多多", 1.0)]),
        # a time of day or a race time keeps its colon; how often is not where one goes
        ("my 10K personal best is 51:07", [(USER, "attr:10k_pb", "51:07", 1.0)]),  # the race's slot (races.py)
        ("I go to pilates three times a week now", [(USER, "habit", "pilates", 1.0)]),
        # how many is one number at a time; a denial says no number
        ("I own three guitars now", [(USER, "has", "guitars", 1.0), (USER, "number_of_guitars", "3", 1.0)]),
        ("I don't have two phones", [(USER, "has", "phones", -0.8)]),
        ("旧手机卖了，换了台华为", [(USER, "does", "旧手机", -0.8), (USER, "owns", "华为", 1.0)]),
        # what someone drives, drinks, keeps "is" (a cleft); what kind of home is no place
        ("我开的是一辆本田思域", [(USER, "owns", "本田思域", 1.0)]),
        ("我爸喝的是普洱", [(f"{USER}'s father", "drinks", "普洱", 1.0)]),
        ("我住的是老小区", []),
    ],
)
def test_requests_modals_switches_and_homes(extractor, text, expected):
    assert triples(extractor, text) == expected
