"""bcg_rag.search_reads: a search reads each entity, alias list and alias key once, in
batches (not one statement per name), and says the same; the batched store reads give what
their one-at-a-time forms give."""

from __future__ import annotations

import pytest

from bcg_rag import Claim
from bcg_rag.entities import known_forms
from bcg_rag.errors import InvalidInputError
from bcg_rag.search import search
from bcg_rag.search_reads import SearchReads
from servers import BACKENDS

pytestmark = pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)

# Store reads one name (or one entity) at a time: a search makes none of them.
ONE_AT_A_TIME = ("get_alias", "aliases_of", "aliases_among", "get_node")


@pytest.fixture(autouse=True)
def _on_backend(store_backend):  # make_memory builds on it
    return store_backend


def _memory(make_memory):
    m = make_memory("hash")
    for i, (city, day) in enumerate([("Paris", "01"), ("Berlin", "02"), ("Lyon", "03")]):
        m.observe(f"Ana Berg lives in {city}", user_id="u1", timestamp=f"2025-01-{day}", claim=Claim("Ana Berg", "lives_in", city))
        m.observe(f"Ana Berg likes {city} food", user_id="u1", timestamp=f"2025-02-{day}",
                  claim=Claim("Ana Berg", "likes", f"{city} food"))
    m.observe("Ana Berg works at Acme", user_id="u1", timestamp="2025-03-01", claim=Claim("Ana Berg", "works_at", "Acme"))
    m.observe("Acme is headquartered in Oslo", user_id="u1", timestamp="2025-03-02",
              claim=Claim("Acme", "headquartered_in", "Oslo"))
    m.observe("I work at Acme Labs", user_id="u1", timestamp="2025-03-03", claim=Claim("I", "works_at", "Acme Labs"))
    m.add_alias("u1", "Annie", "Ana Berg")
    return m


def test_a_search_reads_names_in_batches_each_once_and_answers_the_same(make_memory, monkeypatch):
    m = _memory(make_memory)
    queries = ["Where does Ana Berg live?", "What food does Annie like?", "In which city is the headquarters of Ana Berg's employer?",
               "Where is the headquarters of the company I work at?"]
    before = [[g.to_dict() for g in search(m, q, user_id="u1")] for q in queries]
    entities: list[str] = []
    keys: list[str] = []
    one_at_a_time: list[str] = []
    store = m.store
    with_aliases, targets, get_nodes = store.entities_with_aliases, store.alias_targets, store.get_nodes

    def reading_entities(ids):
        entities.extend(ids)
        return with_aliases(ids)

    def looking_up(user_id, found, prefixes=()):
        keys.extend(found)
        return targets(user_id, found, prefixes)

    def nodes(kind, ids, history=True):
        entities.extend(ids if kind == "entity" else [])
        return get_nodes(kind, ids, history)

    monkeypatch.setattr(store, "entities_with_aliases", reading_entities)
    monkeypatch.setattr(store, "alias_targets", looking_up)
    monkeypatch.setattr(store, "get_nodes", nodes)
    for name in ONE_AT_A_TIME:
        monkeypatch.setattr(store, name, lambda *a, name=name, inner=getattr(store, name): one_at_a_time.append(name) or inner(*a))
    for q, want in zip(queries, before):
        entities.clear()
        keys.clear()
        one_at_a_time.clear()
        assert [g.to_dict() for g in search(m, q, user_id="u1")] == want
        assert entities and keys and one_at_a_time == []
        assert len(entities) == len(set(entities)) and len(keys) == len(set(keys)), (entities, keys)  # each once


def test_search_reads_say_what_the_store_says_one_at_a_time(make_memory):
    m = _memory(make_memory)
    store = m.store
    reads = SearchReads(store)
    subject = m.resolve_entity("u1", "Ana Berg")
    assert reads.entities([subject, "ent_none"]) == {subject: store.get_nodes("entity", [subject])[subject]}
    assert reads.aliases_of(subject) == store.aliases_of(subject) == ["ana berg", "annie"]
    assert reads.entity("ent_none") is None and reads.aliases_of("ent_none") == store.aliases_of("ent_none") == []
    m.observe("Bob Smith likes tea", user_id="u1", timestamp="2025-04-01", claim=Claim("Bob Smith", "likes", "tea"))
    m.add_alias("u1", "Bobby", "Bob Smith")
    m.add_alias("u1", "Bob Smith", "Ana Berg")  # a merge: "bobby" still names Bob's entity, merged into Ana's
    assert m.resolve_entity("u1", "Bobby") == subject != store.get_alias("u1", "bobby")
    names = ["Ana Berg", "annie", "ANNIE", "I", "me", "u1", "Acme", "Acme Labs", "Nobody", "Oslo", "Bobby", "Bob Smith"]
    reads = SearchReads(store)
    reads.look_up_names("u1", names + ["   "])
    for name in names:
        assert reads.resolve_entity("u1", name) == m.resolve_entity("u1", name), name
    for bad in ["", "   "]:
        with pytest.raises(InvalidInputError):
            m.resolve_entity("u1", bad)
        with pytest.raises(InvalidInputError):
            reads.resolve_entity("u1", bad)
    forms = ["Acme", "Acme Labs", "acme labs", "Acme Inc", "Annie", "nobody"]
    assert reads.known_forms("u1", forms) == known_forms(m, "u1", forms) == ["Acme", "Annie"]
    assert reads.alias_targets("u2", ["annie"]) == {}  # another user's alias keys
    guessed = [f"{w} {s}" for w in ("Acme", "Nobody", "Ana") for s in "Inc Labs Corp Group Bio AI Ltd GmbH Berg".split()]
    reads = SearchReads(store)
    reads.look_up_names("u1", ["Acme"], guessed=guessed)  # "ana " starts an alias key ("ana berg"): looked up
    for form in guessed + ["Acme", "I"]:
        assert reads.resolve_entity("u1", form) == m.resolve_entity("u1", form), form
    assert reads.known_forms("u1", guessed) == known_forms(m, "u1", guessed) == ["Ana Berg"]
    keys = ["ana berg", "annie", "acme", "nobody"]
    assert store.alias_targets("u1", keys) == {
        k: (store.get_alias("u1", k), store.get_node("entity", store.get_alias("u1", k))) for k in keys if store.get_alias("u1", k)}
    prefixed = store.alias_targets("u1", ["annie"], prefixes=["ana ", "an", "bob ", "zed "])
    assert prefixed == {k: (store.get_alias("u1", k), store.get_node("entity", store.get_alias("u1", k)))
                        for k in ["annie", "ana berg", "bob smith"]}  # and the least key of each prefix
    rows, aliases = store.entities_with_aliases([subject, "ent_none", subject])
    assert rows == store.get_nodes("entity", [subject]) and aliases == {subject: store.aliases_of(subject), "ent_none": []}


def test_newest_history_reads_what_belief_history_does_per_count(make_memory):
    m = _memory(make_memory)
    store = m.store
    ids = [r["id"] for r in store.find_beliefs("u1", history=False)]
    whole = store.belief_history(ids)
    counts = {i: n for i, n in zip(ids, [0, 1, 2, 64, 1, 3, -1, 8] * len(ids))}
    got = store.newest_history(counts)
    assert list(got) == ids
    for i, n in counts.items():
        assert got[i] == store.belief_history([i], last=n)[i] == (whole[i][len(whole[i]) - max(0, n):] if n > 0 else [])
    assert store.newest_history({}) == {} and store.newest_history({"bel_none": 3}) == {"bel_none": []}
