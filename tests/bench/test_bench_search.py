"""Search latency benchmarks (``make bench``; deselected from the default run).

1. 10k evidence of one user: ``bcg_rag.search.search`` next to a plain LlamaIndex
   ``VectorIndexRetriever`` (ChromaVectorStore) over the same vectors in the same
   Chroma client, same MiniLM embedder, measured interleaved in one process.
2. 100k evidence across 1000 users: our search p95 against (query embedding +
   unfiltered Chroma top-k over all 100k vectors), the floor any vector search pays.
3. Opening that 100k memory directory: wall time and peak RSS, in a fresh process.

Bulk loading embeds a pool of distinct texts once (MiniLM does ~200 texts/s on two
cores, 100k would take 8 minutes); every query is a new text, embedded for real.
Each query is embedded once and that time is added to both sides, so the ratios
compare what differs: our search against the baseline's retrieval.
Figures go to stdout and out/bench_search.json. BCG_BENCH_USERS scales part 2.

torch runs with one thread here: on a two-core machine shared with other work, its
two spinning OpenMP threads made one MiniLM query take ~490 ms instead of ~17 ms.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bcg_rag import BeliefMemory, Policy
from bcg_rag.chroma_glue import PrecomputedEmbeddings
from bcg_rag.index import EvidenceIndex
from bcg_rag.search import search

pytestmark = pytest.mark.slow

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # pragma: no cover
    pass

OUT = Path(__file__).resolve().parents[2] / "out" / "bench_search.json"
NOW = "2025-07-01T00:00:00"
TOPICS = ["coffee", "tea", "city", "job", "music", "sport", "food", "travel", "books", "movies", "pets", "cars"]
THINGS = ["latte", "americano", "green tea", "Berlin", "Paris", "nurse", "engineer", "jazz", "rock", "tennis",
          "hiking", "sushi", "pasta", "Japan", "Italy", "novels", "comics", "dogs", "cats", "bikes", "trains"]
VERBS = ["likes", "loves", "no longer likes", "talked about", "is thinking about", "stopped", "started", "misses"]


class PoolEmbedder:
    """Embeds each distinct text once; same name as the wrapped model, so the memory
    directory is an ordinary MiniLM memory when reopened."""

    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.cache: dict[str, list[float]] = {}

    def embed(self, texts):
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        for t, v in zip(todo, self.inner.embed(todo)):
            self.cache[t] = v
        return [self.cache[t] for t in texts]


def _text(rng: random.Random, i: int) -> str:
    return f"note {i % 997}: the user {rng.choice(VERBS)} {rng.choice(THINGS)} when it comes to {rng.choice(TOPICS)}"


def _query(rng: random.Random, i: int) -> str:
    return f"what does the user think about {rng.choice(THINGS)} and {rng.choice(TOPICS)}? ({i})"


def _items(rng: random.Random, user: str, texts: list[str], start: int, user_size: int) -> list[dict]:
    """About 8 evidence per slot (functional ``attr:*`` predicates), 3 rival values per
    slot: a user with more evidence has more things known, not longer quarrels."""
    per_topic = max(1, user_size // (8 * len(TOPICS)))
    items = []
    for j, text in enumerate(texts):
        k = start + j
        slot = rng.randrange(per_topic)
        topic = rng.choice(TOPICS)
        value = THINGS[(slot * 7 + TOPICS.index(topic) * 3 + rng.randrange(3)) % len(THINGS)]
        items.append(dict(
            text=text, user_id=user, timestamp=f"2025-{1 + k % 6:02d}-{1 + k % 28:02d}T{k % 24:02d}:{k % 60:02d}:00",
            source=f"bench:{k}", claim=dict(subject="user", predicate=f"attr:{topic}_{slot}", value=value,
                                           stance=rng.choice([1.0, 0.8, -0.6])),
        ))
    return items


def _pcts(samples: list[float]) -> dict:
    ms = sorted(s * 1000 for s in samples)
    return dict(p50=round(statistics.median(ms), 2), p95=round(ms[int(0.95 * (len(ms) - 1))], 2), n=len(ms))


def _record(name: str, figures: dict) -> None:
    OUT.parent.mkdir(exist_ok=True)
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    data[name] = figures
    OUT.write_text(json.dumps(data, indent=2))
    print(f"\n[bench] {name}: {json.dumps(figures)}", file=sys.__stdout__, flush=True)


def _minilm_policy() -> Policy:
    return Policy.from_dict({"embedder": {"kind": "sentence-transformers"}, "storage": {"synchronous": "NORMAL"}})


def test_bench_10k_vs_llama_index_vector_retriever(minilm, tmp_path):
    ChromaVectorStore = pytest.importorskip("llama_index.vector_stores.chroma").ChromaVectorStore
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import BaseEmbedding
    from llama_index.core.schema import QueryBundle

    rng = random.Random(10)
    pool = PoolEmbedder(minilm)
    policy = _minilm_policy()
    index = EvidenceIndex.from_policy(policy, tmp_path / "m")
    index.embedder = pool
    mem = BeliefMemory.open(tmp_path / "m", policy, index=index, clock=lambda: NOW)
    n = int(os.environ.get("BCG_BENCH_10K", 10_000))
    texts = [_text(rng, i) for i in range(n)]
    t0 = time.perf_counter()
    for start in range(0, n, 1000):
        mem.observe_many(_items(rng, "u1", texts[start : start + 1000], start, n))
    load_s = time.perf_counter() - t0

    # The baseline's copy: same ids and vectors, plus the texts a LlamaIndex store needs.
    col = index.client.get_or_create_collection(
        "bench_llamaindex", embedding_function=PrecomputedEmbeddings(), configuration={"hnsw": {"space": "cosine"}}
    )
    rows = mem.store.evidence_for_user("u1")
    for start in range(0, len(rows), 5000):
        part = rows[start : start + 5000]
        col.upsert(ids=[r["id"] for r in part], embeddings=pool.embed([r["text"] for r in part]),
                   documents=[r["text"] for r in part], metadatas=[{"user_id": "u1"} for _ in part])

    class MiniLM(BaseEmbedding):  # the same loaded model behind LlamaIndex's interface
        def _get_query_embedding(self, query):
            return minilm.embed([query])[0]

        def _get_text_embedding(self, text):
            return minilm.embed([text])[0]

        async def _aget_query_embedding(self, query):
            return self._get_query_embedding(query)

    baseline = VectorStoreIndex.from_vector_store(
        ChromaVectorStore(chroma_collection=col), embed_model=MiniLM(model_name="minilm")
    ).as_retriever(similarity_top_k=5)

    queries = [_query(rng, i) for i in range(220)]
    embed, ours, theirs = [], [], []
    for i, q in enumerate(queries):  # interleaved, the first 20 are warm-up
        t = time.perf_counter()
        vector = pool.embed([q])[0]  # cached: neither side below embeds again
        d0 = time.perf_counter() - t
        t = time.perf_counter()
        groups = search(mem, q, user_id="u1", top_k=5)
        d1 = time.perf_counter() - t
        t = time.perf_counter()
        nodes = baseline.retrieve(QueryBundle(q, embedding=vector))
        d2 = time.perf_counter() - t
        if i >= 20:
            embed.append(d0)
            ours.append(d1)
            theirs.append(d2)
        assert groups and nodes
    o = _pcts([e + x for e, x in zip(embed, ours)])
    b = _pcts([e + x for e, x in zip(embed, theirs)])
    _record("10k_one_user", dict(
        evidence=n, load_seconds=round(load_s, 1), query_embedding_ms=_pcts(embed),
        bcg_search_without_embedding_ms=_pcts(ours), llamaindex_retrieve_without_embedding_ms=_pcts(theirs),
        bcg_search_ms=o, llamaindex_vector_retriever_ms=b,
        p50_ratio=round(o["p50"] / b["p50"], 2), p95_ratio=round(o["p95"] / b["p95"], 2),
    ))
    mem.close()


@pytest.fixture(scope="module")
def big_memory(tmp_path_factory, minilm):
    """100k evidence (100 per user) in a durable memory directory. BCG_BENCH_DIR
    names a directory built before (it is used as is, and built there if missing)."""
    users = int(os.environ.get("BCG_BENCH_USERS", 1000))
    per_user = 100
    rng = random.Random(100)
    given = os.environ.get("BCG_BENCH_DIR")
    path = Path(given) if given else tmp_path_factory.mktemp("big") / "memory"
    reuse = bool(given) and (path / "memory.sqlite3").exists()
    pool = PoolEmbedder(minilm)
    policy = _minilm_policy()
    index = EvidenceIndex.from_policy(policy, path)
    index.embedder = pool
    mem = BeliefMemory.open(path, policy, index=index, clock=lambda: NOW)
    distinct = list(dict.fromkeys(_text(rng, i) for i in range(6000)))  # users repeat each other's phrasing
    t0 = time.perf_counter()
    pool.embed(distinct)
    embed_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    if reuse:
        users = len(mem.store.users())
    else:
        texts = [t for _ in range(users) for t in rng.sample(distinct, per_user)]
        for u in range(users):
            mem.observe_many(_items(rng, f"user{u:04d}", texts[u * per_user : (u + 1) * per_user], u * per_user, per_user))
    load_s = time.perf_counter() - t0
    texts = [r["text"] for r in mem.store.execute("SELECT text FROM evidence ORDER BY seq")]
    yield dict(mem=mem, path=path, users=users, texts=texts, pool=pool, rng=rng,
               build=dict(distinct_texts=len(pool.cache), embed_seconds=round(embed_s, 1),
                          observe_seconds=None if reuse else round(load_s, 1)))
    mem.close()


def test_bench_100k_search_vs_unfiltered_chroma(big_memory):
    mem, users, rng, pool = big_memory["mem"], big_memory["users"], big_memory["rng"], big_memory["pool"]
    # The floor: every vector in one collection, no filter at all.
    flat = mem.index.client.get_or_create_collection(
        "bench_flat", embedding_function=PrecomputedEmbeddings(), configuration={"hnsw": {"space": "cosine"}}
    )
    texts = big_memory["texts"]
    t0 = time.perf_counter()
    vecs = np.asarray(pool.embed(texts), dtype=np.float32)
    for start in range(0, len(texts), 5000):
        flat.upsert(ids=[f"e{i}" for i in range(start, min(start + 5000, len(texts)))], embeddings=vecs[start : start + 5000])
    flat_s = time.perf_counter() - t0
    del vecs

    queries = [(_query(rng, i), f"user{rng.randrange(users):04d}") for i in range(320)]
    # Warm: a user's collection is loaded from disk on its first use in a process
    # (~110 ms); the target is the warm latency, the cold one is reported beside it.
    cold = []
    for j, user in enumerate(dict.fromkeys(u for _, u in queries)):
        q = f"warm-up {j}"
        pool.embed([q])
        t = time.perf_counter()
        search(mem, q, user_id=user)
        cold.append(time.perf_counter() - t)
    embed, ours, floor = [], [], []
    for i, (q, user) in enumerate(queries):
        t = time.perf_counter()
        vector = pool.embed([q])[0]  # cached: search below does not embed again
        d0 = time.perf_counter() - t
        t = time.perf_counter()
        groups = search(mem, q, user_id=user, top_k=5)
        d1 = time.perf_counter() - t
        t = time.perf_counter()
        flat.query(query_embeddings=[vector], n_results=30, include=["distances"])
        d2 = time.perf_counter() - t
        if i >= 20:
            embed.append(d0)
            ours.append(d1)
            floor.append(d2)
        assert all(g.best.user_id == user for g in groups)
    o = _pcts([e + x for e, x in zip(embed, ours)])
    f = _pcts([e + x for e, x in zip(embed, floor)])
    _record("100k_1000_users", dict(
        users=users, evidence=len(texts), **big_memory["build"], flat_collection_seconds=round(flat_s, 1),
        first_search_of_a_user_in_process_ms=_pcts(cold),
        query_embedding_ms=_pcts(embed), bcg_search_without_embedding_ms=_pcts(ours),
        unfiltered_topk_ms=_pcts(floor), bcg_search_ms=o, embed_plus_unfiltered_topk_ms=f,
        p50_ratio=round(o["p50"] / f["p50"], 2), p95_ratio=round(o["p95"] / f["p95"], 2),
    ))
    mem.index.client.delete_collection("bench_flat")


def test_bench_open_100k_memory_directory(big_memory):
    path = big_memory["path"]
    big_memory["mem"].close()  # the reopen below is a fresh process, as after a restart
    script = f"""
import json, time
def peak_mb():  # VmHWM: ru_maxrss would carry the parent's peak over fork + exec
    return round(int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]) / 1024)
t0 = time.perf_counter()
from bcg_rag.embedders import embedder_from_config
embedder_from_config({{"kind": "sentence-transformers"}})
t1 = time.perf_counter()
rss_model = peak_mb()
from bcg_rag import BeliefMemory
from bcg_rag.search import search
mem = BeliefMemory.open({str(path)!r})
t2 = time.perf_counter()
rss_open = peak_mb()
search(mem, "what about jazz", user_id=mem.store.users()[0])
t3 = time.perf_counter()
print(json.dumps(dict(evidence=mem.store.count("evidence"), model_load_seconds=round(t1 - t0, 2),
                      open_seconds=round(t2 - t1, 2), first_search_seconds=round(t3 - t2, 2),
                      peak_rss_mb_after_model=rss_model, peak_rss_mb_after_open=rss_open,
                      peak_rss_mb_after_first_search=peak_mb())))
mem.close()
"""
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["evidence"] == len(big_memory["texts"])
    _record("open_100k_directory", figures)
