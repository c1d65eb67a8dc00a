"""The concurrent load of the server-mode tests and benchmarks (tests/test_server_mode.py,
tests/bench/test_bench_server.py): writers observing into shared users, a reader that
searches for what the writers have acknowledged, and the same load in one process.

As a script: ``python tests/_load_worker.py writer SPEC JSON`` or ``reader SPEC JSON``
(SPEC: servers.MemoryBackend.spec). A writer appends one JSON line per acknowledged
observation to its ack file (after ``observe`` returned, flushed); the reader follows
those files and, for the newest acknowledged observation of each writer, searches its
exact text (hash embedder: distance 0) and counts a stale read when it is not found.
The hash embedder is used so that the model is not the bottleneck.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

PREDICATES = [("lives_in", ["Paris", "Berlin", "Oslo", "Rome", "Lima"]),  # single-valued
              ("works_at", ["Acme", "Initech", "Globex", "Umbrella"]),  # single-valued
              ("likes", ["tea", "coffee", "jazz", "chess", "tennis", "sushi"]),  # multi-valued
              ("drinks", ["water", "latte", "americano", "juice"])]
CONTEXTS = [None, "topic:home", "topic:work", "topic:travel"]
POLICY = {"embedder": {"kind": "hash"}, "contexts": {"topic:home": "topic:life", "topic:travel": "topic:life"}}


def item(k: int, users: int) -> dict:
    """Observation number k: deterministic, one or two claims, event times shuffled
    against arrival order, mixed stances, contexts that share a parent."""
    rng = random.Random(k)
    user = f"user{k % users}"
    claims = []
    for _ in range(1 + (k % 3 == 0)):
        predicate, values = rng.choice(PREDICATES)
        claims.append(dict(subject="I", predicate=predicate, value=rng.choice(values),
                           stance=rng.choice([1.0, 1.0, 0.8, -0.6, -1.0])))
    day = rng.randrange(365)
    ts = f"2025-{1 + day // 31 % 12:02d}-{1 + day % 28:02d}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:{k % 60:02d}"
    return dict(text=f"obs{k} {user} says " + "; ".join(f"{c['predicate']} {c['value']} {c['stance']:+.1f}" for c in claims),
                user_id=user, timestamp=ts, source=f"load:{k}", context=rng.choice(CONTEXTS),
                source_type=rng.choice(["user_explicit", "user_explicit", "third_party"]), claims=claims)


def writer_items(w: int, writers: int, n: int, users: int) -> list[int]:
    """Writer w's share of writers * n observations, plus every 10th of its neighbour's
    (written twice, from two processes: idempotent)."""
    own = [k for k in range(writers * n) if k % writers == w]
    if writers > 1:
        own += [k for k in range(writers * n) if k % writers == (w + 1) % writers][::10]
    return own


def all_items(writers: int, n: int) -> list[int]:
    return list(range(writers * n))


def pcts(samples: list[float]) -> dict:
    if not samples:
        return dict(p50=None, p95=None, n=0)
    ms = sorted(s * 1000 for s in samples)
    return dict(p50=round(statistics.median(ms), 2), p95=round(ms[int(0.95 * (len(ms) - 1))], 2), n=len(ms))


def write(memory, ks: list[int], users: int, ack) -> list[float]:
    """Observe items ``ks`` one by one; ``ack(line)`` after each; observe latencies."""
    latencies = []
    for k in ks:
        it = item(k, users)
        t = time.perf_counter()
        r = memory.observe(**it)
        latencies.append(time.perf_counter() - t)
        ack(json.dumps(dict(k=k, id=r.evidence_id, user=it["user_id"], text=it["text"])))
    return latencies


class Reader:
    """Searches for the newest acknowledged observations; counts stale reads."""

    def __init__(self, memory):
        self.memory = memory
        self.checks = self.stale = 0
        self.search_s: list[float] = []
        self.stale_examples: list[dict] = []

    def check(self, ack: dict) -> None:
        from bcg_rag.search import search_evidence

        found = [h["id"] for h in search_evidence(self.memory, ack["text"], ack["user"], 3)]
        self.checks += 1
        if ack["id"] not in found:
            self.stale += 1
            if len(self.stale_examples) < 5:
                self.stale_examples.append(dict(ack, found=found))
        t = time.perf_counter()
        self.memory.search(f"where does {ack['user']} live and what do they like?", user_id=ack["user"])
        self.search_s.append(time.perf_counter() - t)

    def summary(self) -> dict:
        return dict(checks=self.checks, stale=self.stale, stale_examples=self.stale_examples, search_ms=pcts(self.search_s))


def follow(paths: list[Path], stop: Path, reader: Reader) -> None:
    """Read the writers' ack files as they grow; check each file's newest line."""
    offsets = {p: 0 for p in paths}
    while True:
        stopping = stop.exists()
        newest = []
        for p in paths:
            if not p.exists():
                continue
            with open(p, encoding="utf-8") as f:
                f.seek(offsets[p])
                chunk = f.read()
            complete = chunk[: chunk.rfind("\n") + 1]
            offsets[p] += len(complete.encode("utf-8"))
            lines = complete.splitlines()
            if lines:
                newest.append(json.loads(lines[-1]))
        for ack in newest:
            reader.check(ack)
        if stopping and not newest:
            return
        if not newest:
            time.sleep(0.01)


def in_one_process(memory, writers: int, n: int, users: int) -> dict:
    """The same load in this process: all observations written in turn, a reader thread
    beside them on the same memory (embedded mode is one process)."""
    ks = all_items(writers, n)
    acks: list[dict] = []
    reader = Reader(memory)
    done = threading.Event()

    def read():
        seen = 0
        while not done.is_set() or seen < len(acks):
            if len(acks) > seen:
                seen = len(acks)
                reader.check(acks[seen - 1])
            else:
                time.sleep(0.01)

    thread = threading.Thread(target=read)
    t0 = time.perf_counter()
    thread.start()
    latencies = write(memory, ks, users, lambda line: acks.append(json.loads(line)))
    wall = time.perf_counter() - t0
    done.set()
    thread.join()
    return dict(observations=len(ks), wall_seconds=round(wall, 2), throughput_per_s=round(len(ks) / wall, 1),
                observe_ms=pcts(latencies), reader=reader.summary(), acked_ids=sorted({a["id"] for a in acks}))


def in_processes(spec: str, writers: int, n: int, users: int, workdir: Path, timeout: float = 1800) -> dict:
    """The load from ``writers`` writer processes and one reader process on the memory
    that ``spec`` names; wall time from the common start to the last writer's end."""
    import subprocess

    workdir.mkdir(parents=True, exist_ok=True)
    go, stop = workdir / "go", workdir / "stop"
    acks = [workdir / f"ack{w}.jsonl" for w in range(writers)]
    ready = [workdir / f"ready{w}" for w in range(writers + 1)]
    script = str(Path(__file__).resolve())

    def spawn(role, args):
        return subprocess.Popen([sys.executable, script, role, spec, json.dumps(args)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    procs = [spawn("writer", dict(w=w, writers=writers, n=n, users=users, ack=str(acks[w]), ready=str(ready[w]),
                                  go=str(go))) for w in range(writers)]
    reader = spawn("reader", dict(acks=[str(a) for a in acks], stop=str(stop), ready=str(ready[-1])))
    deadline = time.monotonic() + 300
    while not all(r.exists() for r in ready):
        dead = [p for p in procs + [reader] if p.poll() is not None]
        if dead or time.monotonic() > deadline:
            raise RuntimeError(f"a load process did not start: {dead[0].communicate()[1][-3000:] if dead else 'timeout'}")
        time.sleep(0.05)
    t0 = time.perf_counter()
    go.touch()
    outs = [p.communicate(timeout=timeout) for p in procs]
    wall = time.perf_counter() - t0
    stop.touch()
    r_out, r_err = reader.communicate(timeout=600)
    for p, (out, err) in zip(procs + [reader], outs + [(r_out, r_err)]):
        if p.returncode:
            raise RuntimeError(f"a load process failed: {err[-3000:]}")
    per_writer = [json.loads(o[0]) for o in outs]
    acked = [json.loads(line) for a in acks for line in a.read_text(encoding="utf-8").splitlines()]
    latencies_p95 = max(w["observe_ms"]["p95"] for w in per_writer)
    total = sum(w["observations"] for w in per_writer)
    return dict(writers=writers, observations=total, distinct=len({a["id"] for a in acked}),
                wall_seconds=round(wall, 2), throughput_per_s=round(total / wall, 1),
                observe_ms=dict(p50=round(statistics.median(w["observe_ms"]["p50"] for w in per_writer), 2),
                                p95=latencies_p95),
                reader=json.loads(r_out), acked_ids=sorted({a["id"] for a in acked}))


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from servers import open_spec

    role, spec, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    memory = open_spec(spec)
    if role == "writer":
        ks = writer_items(args["w"], args["writers"], args["n"], args["users"])
        with open(args["ack"], "a", encoding="utf-8") as f:
            def ack(line):
                f.write(line + "\n")
                f.flush()

            Path(args["ready"]).touch()
            while not Path(args["go"]).exists():
                time.sleep(0.01)
            t0 = time.perf_counter()
            latencies = write(memory, ks, args["users"], ack)
            wall = time.perf_counter() - t0
        print(json.dumps(dict(observations=len(ks), wall_seconds=wall, observe_ms=pcts(latencies))))
    else:
        reader = Reader(memory)
        Path(args["ready"]).touch()
        follow([Path(p) for p in args["acks"]], Path(args["stop"]), reader)
        print(json.dumps(reader.summary()))
    memory.close()


if __name__ == "__main__":
    main()
