"""Issue 5: the evaluation runner end to end, reports, and the public dev sets when present.

Floors are set from measured runs (see the closing notes): bcg and bcg-text >= 0.95
accuracy@1 on the builtin set, and above both baselines on every kind where they differ.
"""

import json
from pathlib import Path

import pytest

from bcg_rag.evaluation import convert
from bcg_rag.evaluation.cases import BUILTIN_PATH, load_cases
from bcg_rag.evaluation.runner import SYSTEMS, markdown_table, run, write_reports
from bcg_rag.policy import Policy

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="module")
def builtin_report(usem3_embedder):
    cases = load_cases(BUILTIN_PATH)
    return run(cases, systems=SYSTEMS, policy=Policy.from_dict({"embedder": {"kind": "usem3"}}))


def test_builtin_floors(builtin_report):
    summary = builtin_report.summary()
    print("\n" + markdown_table(builtin_report))
    for system in ("bcg", "bcg-text"):
        assert summary[system]["all"]["accuracy@1"] >= 0.95, system
    for kind, ours in summary["bcg"]["kinds"].items():
        for baseline in ("vector", "recency"):
            theirs = summary[baseline]["kinds"][kind]["accuracy@1"]
            for system in ("bcg", "bcg-text"):
                mine = summary[system]["kinds"][kind]["accuracy@1"]
                assert mine >= theirs, (system, kind, baseline, mine, theirs)
    # The baselines really are fooled somewhere: otherwise the set would prove nothing.
    assert summary["vector"]["all"]["stale@1"] > 0.2 and summary["recency"]["all"]["accuracy@1"] < 0.9
    assert summary["bcg"]["all"]["attribution"] >= 0.9


def test_reports_are_written(builtin_report, tmp_path):
    paths = write_reports(builtin_report, tmp_path, name="eval-builtin")
    data = json.loads(Path(paths["json"]).read_text(encoding="utf-8"))
    assert set(data["summary"]) == set(SYSTEMS) and len(data["results"]) == 4 * sum(
        len(c.questions) for c in load_cases(BUILTIN_PATH))
    assert "| bcg |" in Path(paths["markdown"]).read_text(encoding="utf-8")
    assert Path(paths["png"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_system_is_rejected():
    with pytest.raises(ValueError):
        run([], systems=["oracle"])


@pytest.mark.skipif(not (SHARED / "mquake_hard").exists(), reason="../shared/data is absent")
def test_mquake_single_hop_floors(minilm):
    cases = [c for c in convert.convert_mquake(SHARED / "mquake_hard" / "mquake_hard.dev.json") if c.kind == "update"]
    policy = Policy.from_dict({"embedder": {"kind": "sentence-transformers"}, "decay": {"half_life_days": 36500.0}})
    report = run(cases, systems=["bcg", "bcg-text"], policy=policy)
    summary = report.summary()
    print("\n" + markdown_table(report))
    assert summary["bcg"]["all"]["n"] == 884
    assert summary["bcg"]["all"]["accuracy@1"] >= 0.99
    assert summary["bcg-text"]["all"]["accuracy@1"] >= 0.90


@pytest.mark.skipif(not (SHARED / "situatedqa_temp").exists(), reason="../shared/data is absent")
def test_situatedqa_runs_and_reports(minilm):
    base = SHARED / "situatedqa_temp"
    cases = convert.convert_situatedqa(base / "timelines.dev.jsonl", base / "asof.dev.jsonl", limit=60)
    policy = Policy.from_dict({"embedder": {"kind": "sentence-transformers"}, "decay": {"half_life_days": 36500.0}})
    report = run(cases, systems=["bcg", "bcg-text", "recency"], policy=policy)
    print("\n" + markdown_table(report))
    summary = report.summary()
    assert summary["bcg-text"]["all"]["n"] > 0  # reported, no floor: the timelines are noisy
