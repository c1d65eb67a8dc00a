"""bcg_rag.search_reads: a search reads each entity and alias list once, and says the same."""

from __future__ import annotations

import pytest

from bcg_rag import Claim
from bcg_rag.search import search
from bcg_rag.search_reads import SearchReads
from servers import BACKENDS

pytestmark = pytest.mark.parametrize("store_backend", BACKENDS, indirect=True)


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
    m.add_alias("u1", "Annie", "Ana Berg")
    return m


def test_a_search_reads_each_entity_once_and_answers_as_without_the_cache(make_memory, monkeypatch):
    m = _memory(make_memory)
    queries = ["Where does Ana Berg live?", "What food does Annie like?", "In which city is the headquarters of Ana Berg's employer?"]
    before = [[g.to_dict() for g in search(m, q, user_id="u1")] for q in queries]
    read: list[str] = []
    get_nodes = m.store.get_nodes

    def counted(kind, ids, history=True):
        if kind == "entity":
            read.extend(ids)
        return get_nodes(kind, ids, history)

    resolved: list[str] = []  # resolving a name reads its entity (to follow merges) on its own
    resolve = m.resolve_entity

    def resolving(user_id, name, create=False):
        entity_id = resolve(user_id, name, create)
        resolved.extend([entity_id] if entity_id else [])
        return entity_id

    monkeypatch.setattr(m.store, "get_nodes", counted)
    monkeypatch.setattr(m, "resolve_entity", resolving)
    for q, want in zip(queries, before):
        read.clear()
        resolved.clear()
        assert [g.to_dict() for g in search(m, q, user_id="u1")] == want
        assert read and all(read.count(e) <= 1 + resolved.count(e) for e in read), (read, resolved)  # else read once
    reads = SearchReads(m.store)
    subject = m.resolve_entity("u1", "Ana Berg")
    assert reads.entities([subject, "ent_none"]) == {subject: get_nodes("entity", [subject])[subject]}
    assert reads.aliases_of(subject) == m.store.aliases_of(subject) == ["ana berg", "annie"]
    read.clear()
    assert reads.entity(subject) and reads.entity("ent_none") is None and read == []  # read once, a missing one too
