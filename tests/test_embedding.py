"""Embedding on the write path (``bcg_rag/embedding.py``): texts embedded in a worker
thread while the store is written (``observe_many``) or the claims are extracted
(``add_messages``) give the same vectors, the same beliefs and the same answers as
embedding them first; a failed embedding still writes nothing. Real MiniLM, real Chroma."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from bcg_rag import embedding
from bcg_rag.embedders import HashEmbedder, SentenceTransformerEmbedder

TEXTS = ["I live in Lisbon now.", "My sister Anna is a nurse.", "I drink oolong tea every morning.",
         "I live in Lisbon now.", "We adopted a cat called Miso."]


def _items(user="u1"):
    return [dict(text=f"{t} ({i})", user_id=user, timestamp=f"2025-0{1 + i % 9}-01T00:00:00",
                 claim=dict(subject="user", predicate="note", value=f"v{i}"))
            for i, t in enumerate(TEXTS)]


def _messages(user="u1"):
    return [dict(text=t, user_id=user, timestamp=f"2025-0{1 + i}-01T00:00:00") for i, t in enumerate(TEXTS)]


def _spy_threads(mem, monkeypatch) -> list[str]:
    """The names of the threads the model ran in, in order."""
    seen: list[str] = []
    inner = mem.index.embed

    def embed(texts):
        seen.append(threading.current_thread().name)
        return inner(texts)

    monkeypatch.setattr(mem.index, "embed", embed)
    return seen


def test_ahead_gives_the_vectors_embed_gives_in_order(make_memory, minilm):
    mem = make_memory("sentence-transformers")
    mem.embed(TEXTS[:1])  # one remembered already
    got = mem.embeddings.ahead(TEXTS).result()
    assert len(got) == len(TEXTS)
    np.testing.assert_allclose(got, minilm.embed(TEXTS), atol=1e-5)
    assert got[0] == got[3]  # a text said twice, one vector
    assert mem.embeddings.ahead(TEXTS).result() == got  # now all remembered


def test_a_batch_larger_than_the_cache_still_gets_every_vector(make_memory, monkeypatch):
    monkeypatch.setattr(embedding, "CACHE_SIZE", 2)
    mem = make_memory("sentence-transformers")
    pending = mem.embeddings.ahead([f"note {i}" for i in range(6)])
    mem.embed(["something else", "and another"])  # pushes older texts out meanwhile
    assert len(pending.result()) == 6


def test_the_evidence_texts_are_embedded_beside_the_write(make_memory, monkeypatch):
    mem = make_memory("sentence-transformers")
    seen = _spy_threads(mem, monkeypatch)
    mem.observe_many(_items())
    assert seen and all(name.startswith("bcg-embed") for name in seen)
    lisbon = mem.embed([f"{TEXTS[0]} (0)"])[0]
    nearest = mem.index.query(lisbon, "u1", 1)[0]
    assert mem.store.get_node("evidence", nearest[0])["text"] == f"{TEXTS[0]} (0)" and nearest[1] < 1e-4


def test_a_python_embedder_runs_in_the_callers_thread(make_memory, monkeypatch):
    assert not getattr(HashEmbedder, "releases_gil", False)
    mem = make_memory("hash")
    seen = _spy_threads(mem, monkeypatch)
    mem.observe_many(_items())
    assert seen == [threading.current_thread().name]


@pytest.mark.parametrize("path", ["observe_many", "add_messages"])
def test_the_worker_changes_nothing_but_when(make_memory, monkeypatch, path):
    """The same items with the worker and without: the same beliefs, histories and answers."""
    def build(worker: bool):
        monkeypatch.setattr(SentenceTransformerEmbedder, "releases_gil", worker)
        mem = make_memory("sentence-transformers")
        for user in ("u1", "u2"):
            getattr(mem, path)(_items(user) if path == "observe_many" else _messages(user))
        beliefs = sorted((b.subject, b.predicate, b.value, b.confidence, b.status, str(b.history))
                         for u in ("u1", "u2") for b in mem.beliefs(user_id=u))
        answers = [[g.to_dict() for g in mem.search(q, user_id="u1")]
                   for q in ("Where do I live?", "What do I drink?", "Who is Anna?")]
        return beliefs, answers

    assert build(True) == build(False)


@pytest.mark.parametrize("path", ["observe_many", "add_messages"])
def test_a_failed_embedding_writes_nothing(make_memory, monkeypatch, path):
    mem = make_memory("sentence-transformers")

    def broken(texts):
        raise RuntimeError("the model went away")

    monkeypatch.setattr(mem.index.embedder, "embed", broken)
    with pytest.raises(RuntimeError, match="went away"):
        getattr(mem, path)(_items() if path == "observe_many" else _messages())
    assert mem.store.count("evidence") == 0 and mem.store.count("belief") == 0
    monkeypatch.undo()
    getattr(mem, path)(_items() if path == "observe_many" else _messages())  # and the memory goes on
    assert mem.store.count("evidence") == len(TEXTS)


def test_close_stops_the_worker(make_memory):
    mem = make_memory("sentence-transformers")
    mem.observe_many(_items())
    workers = list(mem.embeddings._worker._threads)  # this memory's, not another test's
    assert workers and all(t.is_alive() for t in workers)
    mem.close()
    assert not any(t.is_alive() for t in workers)


def test_a_forked_child_embeds_ahead_without_the_parents_worker(hash_embedder):
    """A child made by fork has no worker thread, though it has the parent's executor: it
    makes its own instead of waiting forever on one that never runs."""
    import multiprocessing
    from types import SimpleNamespace

    from bcg_rag.embedding import Embeddings

    index = SimpleNamespace(embedder=SimpleNamespace(releases_gil=True), embed=hash_embedder.embed)
    embeddings = Embeddings(index)
    parent = embeddings.ahead(["before the fork"]).result()

    def child(out):
        out.put(embeddings.ahead(["after the fork", "before the fork"]).result())

    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    proc = ctx.Process(target=child, args=(out,))
    proc.start()
    try:
        got = out.get(timeout=60)
        proc.join(timeout=60)
    finally:
        if proc.is_alive():
            proc.kill()
    assert proc.exitcode == 0
    assert got == [hash_embedder.embed(["after the fork"])[0], parent[0]]
    embeddings.close()


def test_a_known_subject_is_not_embedded_again(make_memory, monkeypatch):
    """Linking compares only unknown subjects with known names by vector; a subject that a
    name or alias of the user matches resolves by it, so it is not sent to the model."""
    mem = make_memory("hash")
    first = mem.add_messages([dict(text="Marcus works at Globex.", user_id="u1", timestamp="2025-01-01T00:00:00")])
    assert [c.subject for c in first[0].claims] == ["Marcus"]
    mem.embeddings.clear()  # as a later process would find it
    sent: list[str] = []
    inner = mem.index.embed
    monkeypatch.setattr(mem.index, "embed", lambda texts: sent.extend(texts) or inner(texts))
    again = mem.add_messages([dict(text="Marcus works at Initech now.", user_id="u1", timestamp="2025-03-01T00:00:00")])
    assert [c.subject for c in again[0].claims] == ["Marcus"]
    assert "Marcus" not in sent and "Marcus works at Initech now." in sent


CHAT = ["I live in Lisbon now.", "My sister Anna is a nurse.", "moved to Porto last month!", "I work at Globex.",
        "I drink oolong tea every morning.", "Anna moved to Madrid.", "I quit Globex, I'm at Initech now.",
        "We adopted a cat called Miso.", "Miso is 3.", "I also work at Umbrella on weekends.", "what's a good podcast?",
        "back in Lisbon again lol", "my manager is Priya Raman", "I switched to green tea."]


def _chat(n: int) -> list[dict]:
    return [dict(text=f"{CHAT[i % len(CHAT)]}", user_id=f"u{i % 3}", timestamp=f"2025-01-01T{i // 60:02d}:{i % 60:02d}:00")
            for i in range(n)]


def _state(mem) -> tuple:
    beliefs = sorted((b.subject, b.predicate, b.value, b.confidence, b.status, str(b.history))
                     for u in ("u0", "u1", "u2") for b in mem.beliefs(user_id=u))
    return beliefs, mem.store.count("entity"), mem.store.count("evidence")


def test_batches_are_the_separate_calls_they_stand_for(make_memory):
    """``add_messages(messages, batch_size=k)`` writes what k-sized calls one after the other
    write (the batches' ends decide linking, so they are the caller's, not ours), only sooner."""
    messages = _chat(70)
    one_by_one = make_memory("sentence-transformers")
    separate = [r for start in range(0, len(messages), 10) for r in one_by_one.add_messages(messages[start:start + 10])]
    pipelined = make_memory("sentence-transformers")
    together = pipelined.add_messages(messages, batch_size=10)
    assert _state(pipelined) == _state(one_by_one)
    assert [(r.evidence_id, r.claims, r.links) for r in together] == [(r.evidence_id, r.claims, r.links) for r in separate]


def test_the_next_batch_is_embedded_while_one_is_written(make_memory, monkeypatch):
    mem = make_memory("sentence-transformers")
    messages = _chat(30)
    log: list[str] = []
    ahead, write = mem.embeddings.ahead, mem.observe_many
    monkeypatch.setattr(mem.embeddings, "ahead", lambda texts, **kw: log.append(f"embed {texts[0] if texts else ''}") or ahead(texts, **kw))
    monkeypatch.setattr(mem, "observe_many", lambda items: log.append(f"write {items[0]['text']}") or write(items))
    mem.add_messages(messages, batch_size=10)
    firsts = [m["text"] for m in messages[::10]]
    # the second batch's texts go to the worker before the first batch is written, and so on
    assert log.index(f"embed {firsts[1]}") < log.index(f"write {firsts[0]}")
    assert log.index(f"embed {firsts[2]}") < log.index(f"write {firsts[1]}") < log.index(f"write {firsts[2]}")


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "10"])
def test_a_bad_batch_size_is_refused_and_writes_nothing(make_memory, bad):
    from bcg_rag.errors import InvalidInputError

    mem = make_memory("sentence-transformers")
    with pytest.raises(InvalidInputError, match="batch_size"):
        mem.add_messages(_chat(5), batch_size=bad)
    assert mem.store.count("evidence") == 0
