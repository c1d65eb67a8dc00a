"""Small users' vectors in one SQLite file, a user past PROMOTE_ABOVE in a Chroma collection
of their own (``index_small``), with real Chroma and real SQLite."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_index import FIXED_NOW, _obs, raw_vectors

from bcg_rag import BeliefMemory, index_small
from bcg_rag.chroma_glue import PrecomputedEmbeddings
from bcg_rag.index_small import SMALL_FILE, SmallCollection
from bcg_rag.search import search_evidence


def _collections(mem) -> set[str]:
    return {c.name for c in mem.index._own_collections()}


def test_small_users_get_no_chroma_collection_and_are_found_after_reopening(make_memory):
    mem = make_memory(durable=True)
    ids = {u: _obs(mem, f"{u} grows tomatoes on the balcony", u) for u in ("ann", "bob", "cy")}
    mem.index.flush()
    assert _collections(mem) == set()  # a collection per user cost ~9 ms each to write
    assert mem.index.count() == 3 and mem.index._small_vectors.counts() == {mem.index.collection_name(u): 1 for u in ids}
    path = mem.path
    mem.close()
    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        for user, evidence_id in ids.items():
            assert [h["id"] for h in search_evidence(reopened, "tomatoes on the balcony", user)] == [evidence_id]
        assert reopened.validate() == []
    finally:
        reopened.close()


def test_a_user_who_grows_past_the_line_moves_to_chroma(make_memory, monkeypatch):
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", 3)
    mem = make_memory(durable=True)
    ids = [_obs(mem, f"note number {i}", "big", ts=f"2025-01-0{i + 1}") for i in range(3)]
    _obs(mem, "a note of someone else", "small")
    mem.index.flush()
    big, small = mem.index.collection_name("big"), mem.index.collection_name("small")
    assert _collections(mem) == set()
    ids.append(_obs(mem, "note number 3", "big", ts="2025-01-04"))
    mem.index.flush()
    assert _collections(mem) == {big}  # moved: four vectors, written there first
    assert mem.index._small_vectors.counts() == {small: 1}  # and taken out of the small file
    assert mem.index._small_vectors.in_chroma(big) and not mem.index._small_vectors.in_chroma(small)
    assert raw_vectors(mem, "big").count() == 4
    assert all(search_evidence(mem, f"note number {i}", "big")[0]["id"] == ids[i] for i in range(4))
    # as_of still filters by the evidence's time, in Chroma as in the small file
    vec = mem.index.embed(["note number"])[0]
    assert {e for e, _ in mem.index.query(vec, "big", 10, as_of="2025-01-02T00:00:00")} == set(ids[:2])
    assert {e for e, _ in mem.index.query(vec, "small", 10, as_of="2024-01-01T00:00:00")} == set()
    assert mem.validate() == []


def test_a_handle_on_a_user_who_moved_meanwhile_is_opened_afresh(make_memory, monkeypatch):
    """Two memories of one process on one directory: one moves a user to Chroma, the
    other's handle on the user's rows says so (as a deleted Chroma collection does) and
    the index follows the user to Chroma."""
    mem = make_memory(durable=True)
    first = _obs(mem, "the first note", "u")
    mem.index.flush()
    stale = SmallCollection(mem.index._small_vectors, mem.index.collection_name("u"), mem.index.embedder.name)
    mem.index._collections["u"] = stale
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", 1)
    other = BeliefMemory.open(mem.path, clock=lambda: FIXED_NOW)
    try:
        second = _obs(other, "the second note", "u")
        other.index.flush()
        assert mem.index.collection_name("u") in _collections(other)
    finally:
        other.close()
    from chromadb.errors import NotFoundError

    with pytest.raises(NotFoundError):
        stale.count()
    assert mem.index.count("u") == 2 and mem.index._collections["u"] is not stale
    assert {h["id"] for h in search_evidence(mem, "note", "u")} == {first, second}


def test_a_move_cut_short_leaves_a_collection_that_repair_removes(make_memory):
    mem = make_memory(durable=True)
    evidence_id = _obs(mem, "a note on the garden", "u")
    mem.index.flush()
    name = mem.index.collection_name("u")
    # A crash after the collection was written and before the small file said so.
    leftover = mem.index.client.get_or_create_collection(name, embedding_function=PrecomputedEmbeddings())
    leftover.upsert(ids=[evidence_id, "ev_gone"], embeddings=mem.index.embed(["a note", "gone"]))
    assert search_evidence(mem, "a note on the garden", "u")[0]["id"] == evidence_id  # the file says where u is
    assert mem.validate() == []
    mem.index.repair(mem, eager=True)
    assert _collections(mem) == set() and mem.index.count("u") == 1


def test_forgetting_a_small_user_removes_their_rows_and_a_new_write_starts_small(make_memory, monkeypatch):
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", 1)
    mem = make_memory(durable=True)
    _obs(mem, "one", "big")
    _obs(mem, "two", "big")
    _obs(mem, "three", "tiny")
    mem.index.flush()
    big, tiny = mem.index.collection_name("big"), mem.index.collection_name("tiny")
    assert _collections(mem) == {big}
    mem.index.delete_user("tiny")
    mem.index.delete_user("big")
    assert _collections(mem) == set() and mem.index._small_vectors.counts() == {}
    assert not mem.index._small_vectors.in_chroma(big)
    mem.index.delete_user("nobody")  # no vectors anywhere: no error
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", 10)
    again = _obs(mem, "back again", "big")
    assert search_evidence(mem, "back again", "big")[0]["id"] == again
    assert _collections(mem) == set() and mem.index._small_vectors.counts() == {big: 1}
    assert tiny not in mem.index._small_vectors.counts()


def test_a_memory_made_before_the_small_file_keeps_its_users_in_chroma(make_memory, monkeypatch, users_in_chroma):
    mem = make_memory(durable=True)
    old = {u: _obs(mem, f"{u} plays the cello", u) for u in ("ann", "bob")}
    path = mem.path
    mem.close()
    (path / "chroma" / SMALL_FILE).unlink()  # as a directory of the release before
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", index_small.EXACT_LIMIT)
    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        names = {reopened.index.collection_name(u) for u in old}
        assert reopened.index._small_vectors.chroma_spaces() == names
        new = _obs(reopened, "cy plays the cello", "cy")
        assert all(search_evidence(reopened, f"{u} plays the cello", u)[0]["id"] == e for u, e in {**old, "cy": new}.items())
        assert _collections(reopened) == names  # cy is small
        assert reopened.validate() == [] and reopened.index.count() == 3
    finally:
        reopened.close()


def test_a_stray_small_user_is_reported_and_removed(make_memory):
    mem = make_memory()
    _obs(mem, "real", "u1")
    mem.index.flush()
    ghost = SmallCollection(mem.index._small_vectors, mem.index.collection_name("ghost"), mem.index.embedder.name)
    ghost.upsert(ids=["ev_stray"], embeddings=mem.index.embed(["stray"]), metadatas=[{"ts": 0.0}])
    assert any("holds 1 vectors of a user with no evidence" in p for p in mem.validate())
    mem.index.repair(mem, eager=True)
    assert mem.validate() == [] and mem.index.count() == 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes=st.lists(st.tuples(st.sampled_from(["ann", "bob", "cy"]), st.sampled_from(["tea", "cello", "rome", "chess"])),
                       min_size=1, max_size=14),
       line=st.integers(min_value=0, max_value=4))
def test_a_user_finds_exactly_their_own_evidence_in_the_file_or_in_chroma(make_memory, monkeypatch, writes, line):
    """Whatever the order of writes and wherever each user is (some moved to Chroma part way),
    each user's vectors are exactly their evidence's, and a search reaches no one else's."""
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", line)
    mem = make_memory()
    mine: dict[str, set[str]] = {}
    for i, (user, word) in enumerate(writes):
        mine.setdefault(user, set()).add(_obs(mem, f"{user} note {i} about {word}", user, ts=f"2025-01-{i + 1:02d}"))
        if i % 3 == 2:
            mem.index.flush()
    for user, ids in mine.items():
        assert mem.index.ids(user) == ids
        assert {e for e, _ in mem.index.query(mem.index.embed([f"note about {writes[0][1]}"])[0], user, 50)} == ids
    assert mem.validate() == []


def test_a_forgotten_users_vectors_are_in_no_file(make_memory):
    """Vectors say something of the texts they were made from: forgetting a small user
    leaves none of their bytes in the small vectors' file or its log."""
    mem = make_memory(durable=True)
    gone = [_obs(mem, f"my secret number {i} is {i * 7919}", "alice") for i in range(5)]
    _obs(mem, "bob keeps bees", "bob")
    mem.index.flush()
    _, vectors, _ = mem.index._small_vectors.rows(mem.index.collection_name("alice"), gone)
    needles = [v.tobytes()[:64] for v in vectors]
    mem.forget_user("alice")
    files = [f for f in (mem.path / "chroma").iterdir() if f.is_file()]
    assert files and not [f.name for f in files for n in needles if n in f.read_bytes()]
    assert search_evidence(mem, "bob keeps bees", "bob")[0]["text"] == "bob keeps bees"


@pytest.mark.parametrize("promote_above", [3, 1000])
def test_many_vectors_are_read_in_pieces(make_memory, monkeypatch, promote_above):
    # a user's vectors asked all at once: Chroma's SQLite takes 32,766 variables at most, so
    # they are asked in pieces (here of 2), in Chroma as in the small file, and none is lost
    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", promote_above)
    mem = make_memory(durable=True)
    ids = [_obs(mem, f"note number {i}", "big", ts=f"2025-01-0{i + 1}") for i in range(5)]
    mem.index.flush()
    whole = mem.index.vectors("big", ids + ["ev_none"])
    from bcg_rag import index as index_module

    monkeypatch.setattr(index_module, "VECTORS_PER_GET", 2)
    assert mem.index.vectors("big", ids + ["ev_none"]) == whole and set(whole) == set(ids)
