"""The evidence index's write-behind buffer (``index_buffer``) and its exact search of small
collections (``index_exact``), with real Chroma."""

from __future__ import annotations

from test_index import FIXED_NOW, _obs, raw_vectors

from bcg_rag import BeliefMemory
from bcg_rag.search import search_evidence


# --- written behind ---------------------------------------------------------------------
def _raw_counts(mem) -> dict[str, int]:
    """Vectors Chroma holds per user, read behind the index's back (no flush)."""
    counts = {u: raw_vectors(mem, u).count() for u in mem.store.evidence_counts()}
    return {u: n for u, n in counts.items() if n}


def test_vectors_are_written_behind_yet_every_read_sees_them(make_memory):
    """Many users' observations reach Chroma in bulk, not one upsert per user per batch; a
    read of a user writes that user's first, so a search sees what was just said, and
    closing writes the rest."""
    mem = make_memory(durable=True)
    ids = {f"u{i}": _obs(mem, f"note of user {i}", f"u{i}") for i in range(5)}
    assert _raw_counts(mem) == {}  # nothing written yet
    assert search_evidence(mem, "note of user 3", "u3")[0]["id"] == ids["u3"]
    assert _raw_counts(mem) == {"u3": 1}
    path = mem.path
    mem.close()
    reopened = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        assert _raw_counts(reopened) == {u: 1 for u in ids}
        assert all(search_evidence(reopened, f"note of user {u[1:]}", u)[0]["id"] == e for u, e in ids.items())
    finally:
        reopened.close()


def test_ingestion_looking_up_neighbours_writes_nothing(make_memory):
    """The text path looks up each message's neighbours; a user's first look-up checks
    that user's vectors against the store, and the waiting ones are not missing: nothing
    is written, and the next message still finds the waiting one it restates."""
    mem = make_memory(durable=True)
    mem.add_messages([{"text": f"I drink tea every morning ({u})", "user_id": u, "timestamp": "2025-01-01T08:00:00"}
                      for u in ("a", "b", "c")])
    mem.add_messages([{"text": "I drink coffee every morning (a)", "user_id": "a", "timestamp": "2025-02-01T08:00:00"}])
    assert _raw_counts(mem) == {}
    assert "coffee" in {g.current.value for g in mem.search("what does the user drink every morning?", user_id="a")
                        if g.current is not None}
    assert _raw_counts(mem) == {"a": 2} and mem.validate() == []


def test_waiting_vectors_are_written_per_user_and_in_all(make_memory, monkeypatch):
    from bcg_rag import index_writes

    monkeypatch.setattr(index_writes, "FLUSH_AT", 3)
    monkeypatch.setattr(index_writes, "MAX_WAITING", 6)
    mem = make_memory(durable=True)
    for i in range(3):
        _obs(mem, f"a{i}", "a")
    assert _raw_counts(mem) == {"a": 3}  # the user's third: FLUSH_AT
    _obs(mem, "b0", "b")
    _obs(mem, "b1", "b")
    assert _raw_counts(mem) == {"a": 3}
    for u in "cde":
        _obs(mem, f"{u}0", u)
    assert _raw_counts(mem) == {"a": 3}  # five waiting
    _obs(mem, "f0", "f")
    assert _raw_counts(mem) == {"a": 3, "b": 2}  # six waiting, MAX_WAITING: the longest backlog is written
    _obs(mem, "c1", "c")
    _obs(mem, "g0", "g")
    assert _raw_counts(mem) == {"a": 3, "b": 2, "c": 2}  # six again: c's two are the longest (ties by id)
    mem.index.flush()
    assert _raw_counts(mem) == {"a": 3, "b": 2, "c": 2, "d": 1, "e": 1, "f": 1, "g": 1}


def test_a_process_killed_with_vectors_waiting_loses_none(tmp_path):
    """The store commits first; vectors still waiting when the process dies are added back
    from it by the next process's first check of each user."""
    import subprocess
    import sys

    path = tmp_path / "mem"
    code = (
        "import os, sys\n"
        "from bcg_rag import BeliefMemory, Policy\n"
        "mem = BeliefMemory.open(sys.argv[1], Policy.from_dict({'embedder': {'kind': 'hash'}}))\n"
        "for i in range(4):\n"
        "    mem.observe(f'note of user {i}', user_id=f'u{i}', timestamp='2025-01-01')\n"
        "os._exit(0)  # no close: nothing written to Chroma\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr
    mem = BeliefMemory.open(path, clock=lambda: FIXED_NOW)
    try:
        assert _raw_counts(mem) == {}
        assert search_evidence(mem, "note of user 2", "u2")[0]["text"] == "note of user 2"
        assert mem.validate() == [] and _raw_counts(mem) == {f"u{i}": 1 for i in range(4)}
    finally:
        mem.close()


def test_neighbours_among_waiting_vectors_are_found_without_writing_them(make_memory):
    """Ingestion looks up each message's neighbours: the user's waiting vectors are compared
    exactly and merged with Chroma's hits, the same hits as after writing them."""
    mem = make_memory(durable=True)
    for text in ("I live in Paris", "I like tea", "my dog is Rex"):
        _obs(mem, text, "u")
    mem.index.flush()
    for text in ("I live in Lyon now", "I like coffee"):
        _obs(mem, text, "u")
    queries = mem.index.embed(["I live in Lyon", "I like green tea"])
    merged = mem.index.query_many(queries, "u", 3)
    assert _raw_counts(mem) == {"u": 3}  # the two waiting ones are still waiting
    mem.index.flush()
    written = mem.index.query_many(queries, "u", 3)
    assert [[k for k, _ in hits] for hits in merged] == [[k for k, _ in hits] for hits in written]
    assert all(abs(a[1] - b[1]) < 1e-4 for m, w in zip(merged, written) for a, b in zip(m, w))


# --- small collections searched exactly -------------------------------------------------
def test_a_small_collection_is_searched_exactly_where_chromas_index_misses(make_memory, monkeypatch, users_in_chroma):
    """Chroma's HNSW index sometimes leaves out a vector that its collection holds (seen on
    real memories: 1 of 20, at random). Up to EXACT_LIMIT vectors a user's collection is
    read once and compared exactly, so a miss of the index costs nothing; above it the
    index answers. Simulated here: Chroma's query returns nothing at all."""
    from chromadb.api.models.Collection import Collection

    from bcg_rag import index_exact

    mem = make_memory()
    ids = [_obs(mem, f"note number {i}", "u1", ts=f"2025-01-0{i + 1}") for i in range(4)]
    exact = search_evidence(mem, "note number 2", "u1")
    monkeypatch.setattr(Collection, "query", lambda self, **kw: {"ids": [[] for _ in kw["query_embeddings"]],
                                                                  "distances": [[] for _ in kw["query_embeddings"]]})
    assert search_evidence(mem, "note number 2", "u1")[0]["id"] == ids[2] == exact[0]["id"]
    monkeypatch.setattr(index_exact, "EXACT_LIMIT", 3)
    mem.index._exact.clear()
    assert search_evidence(mem, "note number 2", "u1") == []  # four vectors: Chroma's index answers


def test_the_exact_search_keeps_up_with_writes_deletes_and_as_of(make_memory):
    mem = make_memory()
    first = _obs(mem, "I live in Paris", "u1", ts="2024-01-01")
    assert search_evidence(mem, "where do I live", "u1")[0]["id"] == first
    later = _obs(mem, "I live in Lisbon", "u1", ts="2025-01-01")
    assert {h["id"] for h in search_evidence(mem, "where do I live", "u1")} == {first, later}
    vector = mem.index.embed(["where do I live"])[0]
    assert [h for h, _ in mem.index.query(vector, "u1", 5, as_of="2024-06-01")] == [first]
    mem.index.delete([first], "u1")
    assert [h for h, _ in mem.index.query(vector, "u1", 5)] == [later]


def test_the_exact_search_ranks_as_chroma_does(make_memory, users_in_chroma):
    """Same ids, same order, same distances (to float precision) as Chroma's own query."""
    mem = make_memory()
    texts = ["I drink tea", "my dog is Rex", "I work at Acme", "I live in Oslo", "I like jazz", "my sister is Ana"]
    for i, text in enumerate(texts):
        _obs(mem, text, "u1", ts=f"2025-01-0{i + 1}")
    queries = mem.index.embed(["what do I drink", "who is my sister", "where do I work"])
    ours = [mem.index.query(q, "u1", 4) for q in queries]
    col = mem.index._collections["u1"]
    res = col.query(query_embeddings=queries, n_results=4, include=["distances"])
    assert [[h for h, _ in hits] for hits in ours] == res["ids"]
    assert all(abs(a[1] - b) < 1e-4 for hits, dists in zip(ours, res["distances"]) for a, b in zip(hits, dists))


def test_the_exact_cache_keeps_at_most_max_bytes_of_vectors():
    """Least recently used users go first; the count follows writes and deletes."""
    import numpy as np

    from bcg_rag import index_exact

    cache = index_exact.ExactVectors(max_bytes=4 * (3 * 4 + 8))  # four vectors of 3 float32 and their times
    vec = np.eye(3, dtype=np.float32)
    cache.put("a", ["a1", "a2"], vec[:2], [0, 0])
    cache.put("b", ["b1", "b2"], vec[:2], [0, 0])
    cache.get("a")  # a used last: b goes first
    cache.add("a", ["a3"], vec[2:], [0])
    assert cache.get("b") is None and (cache.total, cache.bytes) == (3, 60)
    cache.remove("a", ["a1"])
    assert cache.get("a").ids == ["a2", "a3"] and (cache.total, cache.bytes) == (2, 40)


def test_the_exact_cache_size_comes_from_the_policy(make_memory):
    """``[chroma] exact_cache_mib``: 0 keeps only the user searched last; searches still
    answer the same, the others' vectors read back from their place."""
    small = make_memory(durable=True, chroma={"exact_cache_mib": 0})
    roomy = make_memory(durable=True)
    assert small.index._exact.max_bytes == 0 and roomy.index._exact.max_bytes == 2048 << 20
    for mem in (small, roomy):
        for user in ("a", "b", "c"):
            mem.observe_many([dict(text=f"{user} note {i} about tea", user_id=user, timestamp="2025-01-01T00:00:00",
                                   claim=dict(subject="user", predicate="note", value=f"{user}{i}")) for i in range(5)])
    vector = small.index.embed(["note 3 about tea"])[0]
    for user in ("a", "b", "c", "a"):
        assert small.index.query(vector, user, 3) == roomy.index.query(vector, user, 3)
    assert small.index._exact.total == 5 and roomy.index._exact.total == 15


def test_the_exact_cache_appends_in_spare_rows_and_never_changes_rows_a_search_holds():
    """``add`` appends into spare rows (a quarter more than needed) instead of copying the
    user's matrix each time; the rows an earlier entry shows stay as they were, an id written
    again still replaces its row, and ``bytes`` counts the spare rows too."""
    import numpy as np

    from bcg_rag import index_exact

    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((300, 8)).astype(np.float32)
    cache = index_exact.ExactVectors()
    cache.put("u", [f"k{i}" for i in range(100)], vecs[:100], list(range(100)))
    held = cache.get("u")
    held_unit, held_ts = held.unit.copy(), held.ts.copy()
    for start in range(100, 300, 7):
        end = min(start + 7, 300)
        cache.add("u", [f"k{i}" for i in range(start, end)], vecs[start:end], list(range(start, end)))
    entry = cache.get("u")
    fresh = index_exact.ExactVectors().put("u", [f"k{i}" for i in range(300)], vecs, list(range(300)))
    assert entry.ids == fresh.ids and np.array_equal(entry.unit, fresh.unit) and np.array_equal(entry.ts, fresh.ts)
    assert held.ids == [f"k{i}" for i in range(100)]
    assert np.array_equal(held.unit, held_unit) and np.array_equal(held.ts, held_ts)
    assert len(entry.room[0]) < 1.25 * 300 + 8 and cache.bytes == entry.room[0].nbytes + entry.room[1].nbytes
    cache.add("u", ["k5", "new"], vecs[:2], [1000, 1001])  # k5 written again: its row moves to the end
    again = cache.get("u")
    assert again.ids == [f"k{i}" for i in range(300) if i != 5] + ["k5", "new"]
    assert np.array_equal(again.unit[-2:], index_exact.unit_rows(vecs[:2])) and list(again.ts[-2:]) == [1000, 1001]
    assert np.array_equal(entry.unit, fresh.unit)  # the entry before it untouched
    assert [h for h, _ in index_exact.nearest(again, vecs[:1], 2)[0]] == ["k0", "k5"]  # one vector twice: by id
