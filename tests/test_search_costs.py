"""The cheaper forms of a search's row decoding and name guessing give what the plain ones gave
(issue 13: a search's own work)."""

from __future__ import annotations

import sqlite3
from dataclasses import fields

import numpy as np

from bcg_rag.extract.lexicon import default_lexicon, org_forms
from bcg_rag.models import Edge


def _edge_row() -> sqlite3.Row:
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    conn.execute("CREATE TABLE edge (src, dst, relation, weight, value, valid_from, valid_until, reason, source_type)")
    conn.execute("INSERT INTO edge VALUES ('ev_1', 'b_1', 'SUPPORTS', 0.9, 1.0, '2024-01-01T00:00:00', NULL, 'claim', 'chat')")
    return conn.execute("SELECT * FROM edge").fetchone()


def test_an_edge_read_from_an_sqlite_row_or_a_dict_is_the_edge_written():
    row = _edge_row()
    written = Edge(src="ev_1", dst="b_1", relation="SUPPORTS", weight=0.9, value=1.0, valid_from="2024-01-01T00:00:00",
                   reason="claim", source_type="chat")
    for read in (Edge.from_row(row), Edge.from_row(dict(row))):  # SQLite's rows, Postgres's dicts
        assert read == written
        assert {f.name: getattr(read, f.name) for f in fields(Edge)} == {f.name: getattr(written, f.name) for f in fields(Edge)}


def test_a_name_is_guessed_with_each_suffix_of_its_own_lexicon():
    lexicon = default_lexicon()
    suffixes = lexicon.words("organisations", "en_suffixes")
    assert org_forms("Orla", lexicon) == [f"Orla {s.title()}" for s in suffixes]
    assert org_forms(f"Orla {suffixes[0].title()}", lexicon) == ["Orla"]
    assert org_forms("Orla Quartz", lexicon) == []
    # a lexicon with one more suffix guesses it too (the titled suffixes are the lexicon's, not the first one's)
    extended = lexicon.extend({"organisations": {"en_suffixes": ["quartz"]}})
    assert org_forms("Orla", extended)[-1] == "Orla Quartz" and org_forms("Orla Quartz", extended) == ["Orla"]
    assert org_forms("Orla", lexicon) == [f"Orla {s.title()}" for s in suffixes]
    assert org_forms("云杉", lexicon) and org_forms("x云杉", lexicon) == []


def test_a_predicates_fit_is_the_mean_of_its_name_and_its_best_phrasing(make_memory):
    from bcg_rag.relevance import predicate_similarity, predicate_vectors

    mem = make_memory()
    vector = np.asarray(mem.index.embed(["where does she live now?"])[0], dtype=np.float32)
    fits = predicate_similarity(mem, ["lives_in", "works_at"], vector)
    for p, vectors in predicate_vectors(mem, ["lives_in", "works_at"]).items():
        sims = vectors @ vector
        assert fits[p] == float(sims[0] + np.max(sims)) / 2


def test_a_search_looks_in_the_archive_only_once_there_is_one(make_memory, monkeypatch):
    import importlib

    from bcg_rag import Claim, lifecycle

    search_module = importlib.import_module("bcg_rag.search")  # the module (the package exports the function by that name)

    for durable in (False, True):
        mem = make_memory(durable=durable)
        mem.observe("Tea is green", user_id="u1", timestamp="2024-01-01T00:00:00", claim=Claim("Tea", "color", "green"))
        mem.observe("I live in Oslo", user_id="u1", timestamp="2024-01-01T00:00:00", claim=Claim("user", "lives_in", "Oslo"))
        looked = []
        monkeypatch.setattr(search_module, "_with_archived", lambda *a, **k: looked.append(a) or a[3])
        assert not lifecycle.may_have_cold_store(mem)
        mem.search("what colour is tea?", user_id="u1")
        assert looked == []
        monkeypatch.undo()
        mem.search("what colour is tea?", user_id="u1")  # no archive: the same answer, looked for or not
        (tea,) = [b for b in mem.beliefs("u1") if b.predicate == "color"]
        lifecycle.archive(mem, tea.id, now="2024-02-01T00:00:00")
        assert lifecycle.may_have_cold_store(mem)
        found = mem.search("what colour is tea?", user_id="u1")
        assert any(g.archived and g.best.value == "green" for g in found)


def test_the_names_a_search_guesses_are_kept_per_process_and_are_what_they_were():
    """``search_reads.name_forms`` and ``guessed_keys`` keep, per process, what a search
    computed for every capitalised word of its question: the same forms and keys as computed
    afresh, for each lexicon its own."""
    from bcg_rag.search_reads import ORG_SUFFIX, name_forms
    from bcg_rag.ids import normalise_key
    from bcg_rag.search_reads import PROBED_GROUP, guessed_keys

    lexicon = default_lexicon()
    extended = lexicon.extend({"organisations": {"en_suffixes": ["quartz"]}})
    for value in ["Orla", "Orla Foods", "Where", "Ju 88", "云杉", "郑州外国语小学", "orla", "Halcyon Bio Inc."]:
        for lex in (lexicon, extended):
            forms, guessed = name_forms(value, lex)
            assert forms == (value, ORG_SUFFIX.sub("", value)) and guessed == tuple(org_forms(value, lex))
            assert name_forms(value, lex)[1] is guessed  # kept
            prefix, keys = guessed_keys(guessed)
            assert keys == tuple(normalise_key(f) for f in guessed)
            probed = len(keys) >= PROBED_GROUP and all(k.startswith(keys[0].split(" ")[0] + " ") for k in keys)
            assert prefix == (keys[0].split(" ")[0] + " " if probed else "")
    assert name_forms("Orla", extended)[1][-1] == "Orla Quartz" != name_forms("Orla", lexicon)[1][-1]
    assert guessed_keys(name_forms("Orla", lexicon)[1])[0] == "orla "


def test_whether_a_text_states_something_is_kept_per_extractor_and_is_the_extractors_answer(make_memory):
    from types import SimpleNamespace

    from bcg_rag.extract import OfflineExtractor
    from bcg_rag.naming import statement_reader

    texts = ["I moved to Oslo last week", "what's a good podcast?", "lol it's raining again", "我搬到上海了", "Ana Berg works at Acme"]
    ids = [f"ev_{i}" for i in range(len(texts))]
    mem = make_memory()
    reader = statement_reader(mem)
    plain = OfflineExtractor()
    for text, eid in list(zip(texts, ids)) * 2:
        assert reader(text, eid) == plain.states_something(text), text
    asked: list[str] = []
    counting = OfflineExtractor()
    real = counting.states_something
    counting.states_something = lambda text: asked.append(text) or real(text)  # an instance's own: not kept (no __self__)
    other = SimpleNamespace(extractor=counting)
    for text, eid in list(zip(texts, ids)) * 2:
        assert statement_reader(other)(text, eid) == plain.states_something(text)
    assert asked == texts * 2
    kept = SimpleNamespace(extractor=OfflineExtractor())
    first = [statement_reader(kept)(t, eid) for t, eid in zip(texts, ids)]
    kept.extractor.grammar = None  # a kept answer does not ask the extractor again
    assert [statement_reader(kept)(t, eid) for t, eid in zip(texts, ids)] == first
