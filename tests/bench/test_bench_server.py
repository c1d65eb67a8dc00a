"""Server mode next to embedded mode (``make bench``; deselected from the default run).

1. Concurrent load: W writer processes x N observations into U shared users (10% of each
   writer's share also written by its neighbour), one reader process searching for what
   was acknowledged; against the same observations written by one embedded process with a
   reader thread beside it. Lost writes, stale reads, validate(), the two folds compared,
   throughput and search p50/p95. Defaults 4 x 2,000 into 4 users (BCG_BENCH_WRITERS,
   BCG_BENCH_N, BCG_BENCH_LOAD_USERS).
2. Search at 100k evidence (1000 users x 100; BCG_BENCH_USERS scales it): the same
   memory built in both modes, the same queries interleaved, search p50/p95.

Both use the hash embedder, so that the model is not the bottleneck (a MiniLM query
embedding costs the same ~17 ms in both modes). PostgreSQL runs durable (fsync on, its
defaults) like the embedded SQLite (synchronous=FULL); both servers are local, so the
figures carry localhost round trips, not a network's. Figures go to stdout and
out/bench_server.json.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

import pytest

import _load_worker as load
from bcg_rag import BeliefMemory, Policy
from bcg_rag.search import search
from servers import ChromaServer, PostgresServer

pytestmark = pytest.mark.slow

OUT = Path(__file__).resolve().parents[2] / "out" / "bench_server.json"
NOW = "2025-07-01T00:00:00"


def _record(name: str, figures: dict) -> None:
    OUT.parent.mkdir(exist_ok=True)
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    data[name] = figures
    OUT.write_text(json.dumps(data, indent=2))
    print(f"\n[bench] {name}: {json.dumps(figures)}", file=sys.__stdout__, flush=True)


@pytest.fixture(scope="module")
def servers():
    pg, chroma = PostgresServer(durable=True), ChromaServer()
    for s in (pg, chroma):
        if s.skip_reason():
            pytest.skip(s.skip_reason())
    pg.start()
    try:
        chroma.start()
        try:
            yield dict(dsn=pg.create_database("bench"), chroma=chroma.url, pg=pg)
        finally:
            chroma.stop()
    finally:
        pg.stop()


def _fold(mem) -> list:
    return sorted((r["id"], r["value"], r["status"], round(r["confidence"], 12),
                   [(h["evidence_id"], round(h["new"], 12)) for h in r["history"]]) for r in mem.store.find_beliefs(None))


def test_bench_concurrent_load_server_vs_embedded(servers, tmp_path):
    writers = int(os.environ.get("BCG_BENCH_WRITERS", 4))
    n = int(os.environ.get("BCG_BENCH_N", 2000))
    users = int(os.environ.get("BCG_BENCH_LOAD_USERS", 4))
    spec = dict(store=servers["dsn"], chroma=servers["chroma"], schema="load")
    mem = BeliefMemory.connect(**spec, policy=Policy.from_dict(load.POLICY))
    server = load.in_processes(json.dumps(spec), writers, n, users, tmp_path / "load")
    stored = set(mem.store.evidence_ids())
    lost = len(set(server["acked_ids"]) - stored)
    t = time.perf_counter()
    problems = mem.validate()
    validate_s = time.perf_counter() - t

    embedded_mem = BeliefMemory.open(tmp_path / "embedded", Policy.from_dict(load.POLICY))
    embedded = load.in_one_process(embedded_mem, writers, n, users)
    same = _fold(mem) == _fold(embedded_mem)
    embedded_lost = len(set(embedded["acked_ids"]) - set(embedded_mem.store.evidence_ids()))
    embedded_problems = embedded_mem.validate()
    beliefs = mem.store.count("belief")
    for d in (server, embedded):
        d.pop("acked_ids")
    _record("concurrent_load", dict(
        embedder="hash", writers=writers, observations_per_writer=n, users=users, distinct_evidence=len(stored),
        beliefs=beliefs, server=dict(server, lost=lost, validate_problems=len(problems), validate_seconds=round(validate_s, 1)),
        embedded_one_process=dict(embedded, lost=embedded_lost, validate_problems=len(embedded_problems)),
        same_beliefs_as_one_process=same,
    ))
    assert lost == 0 and server["reader"]["stale"] == 0 and problems == [] and same
    assert embedded_lost == 0 and embedded["reader"]["stale"] == 0 and embedded_problems == []
    embedded_mem.close()
    mem.close()


def test_bench_100k_search_server_vs_embedded(servers, tmp_path):
    """The same 100k evidence in both modes; the same queries, interleaved."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_bench_search import _items, _query, _text

    users = int(os.environ.get("BCG_BENCH_USERS", 1000))
    per_user = 100
    policy = Policy.from_dict({"embedder": {"kind": "hash"}, "storage": {"synchronous": "NORMAL"}})
    modes = dict(
        server=BeliefMemory.connect(store=servers["dsn"], chroma=servers["chroma"], schema="big", policy=policy, clock=lambda: NOW),
        embedded=BeliefMemory.open(tmp_path / "embedded", policy, clock=lambda: NOW),
    )
    build = {}
    for name, mem in modes.items():
        rng = random.Random(100)
        distinct = list(dict.fromkeys(_text(rng, i) for i in range(6000)))
        texts = [t for _ in range(users) for t in rng.sample(distinct, per_user)]
        t0 = time.perf_counter()
        for u in range(users):
            mem.observe_many(_items(rng, f"user{u:04d}", texts[u * per_user : (u + 1) * per_user], u * per_user, per_user))
        build[name] = round(time.perf_counter() - t0, 1)
    assert modes["server"].store.count("evidence") == modes["embedded"].store.count("evidence") == users * per_user

    rng = random.Random(7)
    queries = [(_query(rng, i), f"user{rng.randrange(users):04d}") for i in range(420)]
    times = {name: [] for name in modes}
    first = {name: [] for name in modes}
    for i, (q, user) in enumerate(queries):
        for name, mem in (modes.items() if i % 2 else reversed(modes.items())):
            t = time.perf_counter()
            groups = search(mem, q, user_id=user, top_k=5)
            (times if i >= 20 else first)[name].append(time.perf_counter() - t)
            assert all(g.best.user_id == user for g in groups)
    figures = {name: load.pcts(times[name]) for name in modes}
    _record("100k_search", dict(
        embedder="hash (query embedding included, ~0.1 ms)", evidence=users * per_user, users=users,
        build_seconds=build, search_ms=figures, first_20_queries_ms={n: load.pcts(v) for n, v in first.items()},
        p95_ratio_server_over_embedded=round(figures["server"]["p95"] / figures["embedded"]["p95"], 2),
    ))
    for mem in modes.values():
        mem.close()
