"""Change statements in everyday chat (``bcg_rag/extract/changes.py`` and the lexicon): a new
or returning employer, a new title, a diet taken up or dropped, a switch, an ending, a new
partner, someone or something moving. Each is read in the slot of the value it replaces,
and only where the text says the change: plans stay plans, hedges stay hedged, questions
say nothing, and other people's changes are theirs."""

from __future__ import annotations

import pytest

from bcg_rag import BeliefMemory, Policy
from claims import USER, triples


@pytest.mark.parametrize(
    "text, expected",
    [
        # starting at an employer
        ("first day at Lumen Labs, so many new faces", [(USER, "works_at", "Lumen Labs", 1.0)]),
        ("my first week at the new job at Brightwave went fine", [(USER, "works_at", "Brightwave", 1.0)]),
        ("Day one at the hospital, exhausted", [(USER, "works_at", "hospital", 1.0)]),
        ("new gig at Quarry Analytics", [(USER, "works_at", "Quarry Analytics", 1.0)]),
        ("my new role as a product designer at Tessel", [(USER, "works_at", "Tessel", 1.0), (USER, "job_title", "product designer", 1.0)]),
        ("started at Pinecrest on Monday", [(USER, "works_at", "Pinecrest", 1.0)]),
        ("new job at Orrin as a data engineer", [(USER, "works_at", "Orrin", 1.0), (USER, "job_title", "data engineer", 1.0)]),
        ("new job at Orrin as of Monday", [(USER, "works_at", "Orrin", 1.0)]),  # a date, not a title
        ("my sister's first day at Tessaly went great", [(f"{USER}'s sister", "works_at", "Tessaly", 1.0)]),
        ("first day at school for my son", []),  # a pupil's first day, no job
        # returning to an employer: a job word, an organisation's name, or a long absence
        ("rejoined Verity Health last month", [(USER, "works_at", "Verity Health", 1.0)]),
        ("went back to SAP after the startup folded", [(USER, "works_at", "SAP", 1.0)]),
        ("back at Marlow after three years away", [(USER, "works_at", "Marlow", 1.0)]),
        ("went back to work at Kestrel", [(USER, "works_at", "Kestrel", 1.0)]),
        ("went back to Lisbon for the holidays", []),  # a place, not an employer
        ("back at Starbucks again lol", []),  # an errand
        # one employer for another
        ("my cousin Dev left Vantage for Orbitly", [("Dev", "works_at", "Vantage", -0.8), ("Dev", "works_at", "Orbitly", 1.0)]),
        ("my old manager Nadia left Crestline for Tessaly", [("Nadia", "works_at", "Crestline", -0.8), ("Nadia", "works_at", "Tessaly", 1.0)]),
        ("my former boss moved to Boston", []),  # not "my boss": filed under no one
        # a new title
        ("just got bumped up to senior engineer", [(USER, "job_title", "senior engineer", 1.0)]),
        ("I was made head of marketing", [(USER, "job_title", "head of marketing", 1.0)]),
        ("I'm now engineering manager", [(USER, "job_title", "engineering manager", 1.0)]),
        ("my dad got promoted to regional director", [(f"{USER}'s father", "job_title", "regional director", 1.0)]),
        ("I got made redundant", [(USER, "does", "job", -0.8)]),  # no title: the job ended
        ("I'm now really tired", []),
        # diets
        ("went vegetarian in January", [(USER, "diet", "vegetarian", 1.0)]),
        ("I've gone paleo", [(USER, "diet", "paleo", 1.0)]),
        ("my husband went vegan", [(f"{USER}'s husband", "diet", "vegan", 1.0)]),
        ("I'm on the keto diet", [(USER, "diet", "keto", 1.0)]),
        ("done with keto, carbs are back", [(USER, "diet", "keto", -0.8)]),
        ("maybe I'll go vegan", [(USER, "plan:diet", "vegan", 0.5)]),
        ("i'm doing keto rn", [(USER, "diet", "keto", 1.0)]),
        ("been on intermittent fasting since May", [(USER, "diet", "intermittent fasting", 1.0)]),
        ("my sister is doing keto", [(f"{USER}'s sister", "diet", "keto", 1.0)]),
        ("i'm allergic to shellfish, lactose intolerant, and doing keto rn",
         [(USER, "allergic_to", "shellfish", 1.0), (USER, "is", "lactose intolerant", 1.0), (USER, "diet", "keto", 1.0)]),
        ("keto is over. i missed bread way too much", [(USER, "diet", "keto", -0.8)]),
        ("ditched paleo last month", [(USER, "diet", "paleo", -0.8)]),
        ("I tried keto once", []),  # a past try, no diet now
        # switching someone to a school, one's money to a bank
        ("switched our son to Oak Hill Academy", [(f"{USER}'s son", "studies_at", "Oak Hill Academy", 1.0)]),
        ("moved my savings over to Fernbank", [(USER, "banks_with", "Fernbank", 1.0)]),
        ("switched my brother to Rust", []),  # no school: nothing said of him
        # ending
        ("cancelled my gym membership at IronWorks", [(USER, "member_of", "IronWorks", -0.8)]),
        ("cancelled my subscription to Crunchy Reads", [(USER, "subscribes_to", "Crunchy Reads", -0.8)]),
        ("broke up with Jonas last week", [(USER, "dating", "Jonas", -0.8)]),
        ("I broke up with my girlfriend", []),  # whom, not said
        ("my sister broke up with her boyfriend Leo", [(f"{USER}'s sister", "dating", "Leo", -0.8)]),
        ("I didn't break up with Jonas", []),
        # dating
        ("started dating Ines", [(USER, "dating", "Ines", 1.0)]),
        ("I've been seeing Marco", [(USER, "dating", "Marco", 1.0)]),
        ("seeing someone new, his name is Oskar", [(USER, "dating", "Oskar", 1.0)]),
        ("been seeing someone for a couple of months, her name's Ilse and she's a vet", [(USER, "dating", "Ilse", 1.0)]),
        ("her name's Ilse and she's a vet", []),  # no one courted before: a name of someone else
        ("I'm seeing Hamilton tonight", []),  # a show, not a date
        ("I have a girlfriend now, her name's Lena", [(USER, "has", "girlfriend", 1.0), (USER, "dating", "Lena", 1.0)]),
        # organisations and other people moving
        ("Corvane moved its headquarters to Denver", [("Corvane", "headquarters", "Denver", 1.0)]),
        ("Corvane has officially moved its HQ to Austin", [("Corvane", "headquarters", "Austin", 1.0)]),
        ("Pellworth just moved its head office to Leeds", [("Pellworth", "headquarters", "Leeds", 1.0)]),
        ("Pellworth moved the whole HQ to Leeds last month", [("Pellworth", "headquarters", "Leeds", 1.0)]),
        ("we moved our HQ to Denver", [(f"{USER}'s employer", "headquarters", "Denver", 1.0)]),
        ("the company moved HQ to Austin", [(f"{USER}'s employer", "headquarters", "Austin", 1.0)]),
        ("BCB finally finished moving head office out to Saltmarsh Park", [("BCB", "headquarters", "Saltmarsh Park", 1.0)]),
        ("joined the fraud team at Brambleton Cooperative Bank this week! head office is right in Old Quay",
         [(USER, "member_of", "fraud team", 1.0), (USER, "works_at", "Brambleton Cooperative Bank", 1.0),
          ("Brambleton Cooperative Bank", "headquarters", "Old Quay", 1.0)]),  # a team of an employer: one works there
        ("my sister joined the marketing department at Unilever",
         [(f"{USER}'s sister", "member_of", "marketing department", 1.0), (f"{USER}'s sister", "works_at", "Unilever", 1.0)]),
        ("joined the running group at my gym", [(USER, "member_of", "running group", 1.0)]),  # no organisation named
        ("Pellworth moved the whole team to Leeds", [("Pellworth", "moved_the_whole_team_to", "Leeds", 1.0)]),  # a team is no HQ
        ("my aunt moved to Tucson", [(f"{USER}'s aunt", "lives_in", "Tucson", 1.0)]),
        # a region after a town: the town is in it
        ("moved to Coimbra, Portugal", [(USER, "lives_in", "Coimbra", 1.0), ("Coimbra", "located_in", "Portugal", 1.0)]),
        ("my uncle moved to Fresno, California", [(f"{USER}'s uncle", "lives_in", "Fresno", 1.0), ("Fresno", "located_in", "California", 1.0)]),
        ("I live in Berlin, Anna lives in Rome", [(USER, "lives_in", "Berlin", 1.0), ("Anna", "lives_in", "Rome", 1.0)]),
        ("I moved to Austin, Yay", [(USER, "lives_in", "Austin", 1.0)]),
        ("搬到了波尔图，葡萄牙", [(USER, "lives_in", "波尔图", 1.0), ("波尔图", "located_in", "葡萄牙", 1.0)]),
        ("我住在杭州，西湖边上", [(USER, "lives_in", "杭州", 1.0)]),
        # any other name followed by a country or a state: one place, as said
        ("The capital of Vellmar is Oban, New Zealand.", [("Vellmar", "capital", "Oban, New Zealand", 1.0)]),
        ("My favourite city is Nelson, British Columbia", [(USER, "attr:favorite_city", "Nelson, British Columbia", 1.0)]),
        ("I speak French, Spanish", [(USER, "speaks", "French", 1.0)]),  # a language is no region
        # a place name that a counted description follows, in a town's slot
        ("我老家是湖南一个小县城", [(USER, "attr:hometown", "湖南", 1.0)]),
        ("我住在杭州一个小区", [(USER, "lives_in", "杭州", 1.0)]),
        # a span of time before the object is how long, not what
        ("我学了三年钢琴", [(USER, "studies", "钢琴", 1.0)]),
        ("我学了两年多的日语", [(USER, "studies", "日语", 1.0)]),
        # a purpose is not yet so
        ("I saved up so I can move to Tallinn", [(USER, "plan:lives_in", "Tallinn", 0.5)]),
        ("I'm learning German so that I can live in Munich",
         [(USER, "studies", "German", 1.0), (USER, "plan:lives_in", "Munich", 0.5)]),
        ("So I moved to Denver last week", [(USER, "lives_in", "Denver", 1.0)]),  # a discourse "so"
        # plans, hedges, questions, requests
        ("I'm going to start at Brightwave next month",
         [(USER, "plan:works_at", "Brightwave", 0.5), (USER, "works_at", "Brightwave", 1.0, 30)]),  # falls due
        ("first day at Tessel tomorrow", [(USER, "plan:works_at", "Tessel", 0.5), (USER, "works_at", "Tessel", 1.0, 1)]),
        ("I'm going to move from Austin to Denver", [(USER, "plan:lives_in", "Denver", 0.5)]),
        ("should I go vegan?", []),
        ("can you help me cancel my gym membership at IronWorks", []),
        ("thinking of switching to Fernbank", [(USER, "plan:switched_to", "Fernbank", 0.5)]),
        # Chinese: employers
        ("又回华为了", [(USER, "works_at", "华为", 1.0)]),
        ("回到百度上班了", [(USER, "works_at", "百度", 1.0)]),
        ("我哥回腾讯了", [(f"{USER}'s brother", "works_at", "腾讯", 1.0)]),
        ("回北京了", []),  # a place
        ("回公司上班了", []),  # back at the office, no employer named
        ("回家了", []),
        ("入职了美团", [(USER, "works_at", "美团", 1.0)]),
        ("下个月回华为", [(USER, "plan:works_at", "华为", 0.5), (USER, "works_at", "华为", 1.0, 30)]),
        # Chinese: titles
        ("升职成了主管", [(USER, "job_title", "主管", 1.0)]),
        ("我姐被提拔为经理了", [(f"{USER}'s sister", "job_title", "经理", 1.0)]),
        ("当上了组长", [(USER, "job_title", "组长", 1.0)]),
        # Chinese: diets
        ("开始吃素了", [(USER, "diet", "素食", 1.0)]),
        ("我妈一直吃素", [(f"{USER}'s mother", "diet", "素食", 1.0)]),
        ("我不吃素了", [(USER, "diet", "素食", -0.8)]),
        ("我想吃素", [(USER, "plan:diet", "素食", 0.5)]),
        ("最近在搞16+8轻断食", [(USER, "diet", "轻断食", 1.0)]),  # 16+8 is the fast's schedule
        ("我妈在搞生酮", [(f"{USER}'s mother", "diet", "生酮", 1.0)]),
        ("轻断食坚持不下去了，放弃", [(USER, "diet", "轻断食", -0.8)]),
        ("生酮我放弃了", [(USER, "diet", "生酮", -0.8)]),
        ("我放弃了轻断食", [(USER, "diet", "轻断食", -0.8)]),
        ("我没在搞生酮", [(USER, "diet", "生酮", -0.8)]),
        ("想试试轻断食", []),
        ("轻断食期间喝黑咖啡算破戒吗", []),  # a question
        # Chinese: switching and ending
        ("改学日语了", [(USER, "studies", "日语", 1.0)]),
        ("改用安卓了", [(USER, "switched_to", "android", 1.0)]),
        ("换成了比亚迪", [(USER, "owns", "比亚迪", 1.0)]),  # a car make switched to is the car kept now
        ("我和小林分手了", [(USER, "dating", "小林", -0.8)]),
        ("我没和小林分手", []),
        # Chinese: dating, and a relative by name
        ("我有女朋友了，叫小雨", [(USER, "has", "女朋友", 1.0), (USER, "dating", "小雨", 1.0)]),
        ("我有个妹妹，叫小雨", [(USER, "has", "妹妹", 1.0), (USER, "has_sister", "小雨", 1.0)]),
        # Chinese: organisations and others moving
        ("腾讯把总部搬到了深圳", [("腾讯", "headquarters", "深圳", 1.0)]),
        ("公司总部搬到了杭州", [(f"{USER}'s employer", "headquarters", "杭州", 1.0)]),  # the speaker's, unnamed
        ("老王搬来厦门了", [("老王", "lives_in", "厦门", 1.0)]),
        ("我哥搬到深圳了", [(f"{USER}'s brother", "lives_in", "深圳", 1.0)]),
        ("打算搬来厦门", [(USER, "plan:lives_in", "厦门", 0.5)]),
    ],
)
def test_change_statements(extractor, text, expected):
    assert triples(extractor, text) == expected


@pytest.mark.parametrize(
    "first, second",
    [
        ("I work at Acme.", "first day at Globex, wish me luck"),
        ("I work at Acme.", "went back to IBM last month"),
        ("我在阿里上班。", "又回华为了"),
        ("I'm vegetarian.", "went vegan last month"),
        ("我在腾讯当经理。", "升职成了总监"),
        ("我在北京工作。", "我现在在上海工作"),  # the city of work is one at a time (works_in)
        ("我在北京上班。", "公司把我调到长沙分公司了"),
    ],
)
def test_a_change_replaces_the_old_value(first, second):
    memory, old = _first_values_after(first, second)
    assert any(not memory.asserted(b) for b in old)


def _first_values_after(first: str, second: str) -> tuple[BeliefMemory, list]:
    """A memory told ``first`` then ``second``, and the beliefs in what ``first`` asserted."""
    memory = BeliefMemory.in_memory(Policy.from_dict({"embedder": {"kind": "hash"}}))
    said = memory.add_message(first, user_id=USER, timestamp="2025-01-01T00:00:00")
    memory.add_message(second, user_id=USER, timestamp="2025-01-04T00:00:00")
    before = {(c.subject, c.predicate, c.value) for c in said.claims if c.stance > 0}
    assert before
    beliefs = memory.beliefs(USER, now="2025-01-04T00:00:00")
    return memory, [b for b in beliefs if (b.subject, b.predicate, b.value) in before]


@pytest.mark.parametrize(
    "first, second",
    [
        ("I work at Acme.", "my sister's first day at Globex went great"),
        ("I work at Acme.", "I'm going to start at Globex next month"),
        ("我在阿里上班。", "我哥又回华为了"),
        ("I'm vegetarian.", "maybe I'll go vegan"),
    ],
)
def test_no_change_for_others_or_plans(first, second):
    memory, old = _first_values_after(first, second)
    assert old and all(memory.asserted(b) for b in old)
