"""Long memories (issue 11): N source records in one memory of one user, and its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bcg_rag.errors import InvalidInputError
from bcg_rag.evaluation.cases import BUILTIN_PATH, Case, load_cases
from bcg_rag.evaluation.convert import convert_mquake, convert_situatedqa
from bcg_rag.evaluation.pack import (
    PACK_USER, PackError, isolated_units, pack_label, packed_units, parse_pack_sizes, records, self_reference,
)
from bcg_rag.evaluation.runner import SYSTEMS, pack_markdown, run, run_packs, write_pack_reports
from bcg_rag.policy import Policy

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HASH = Policy.from_dict({"embedder": {"kind": "hash"}})


def _mquake():
    return convert_mquake(FIXTURES / "mquake_small.json")


def _situated():
    return convert_situatedqa(FIXTURES / "situatedqa_timelines_small.jsonl", FIXTURES / "situatedqa_asof_small.jsonl")


def test_records_group_the_cases_of_one_source_record():
    cases = _mquake()
    assert [[c.id for c in r] for r in records(cases)] == [
        ["mquake-2-edits", "mquake-2-multihop"], ["mquake-4-edits", "mquake-4-multihop"]]
    sqa = _situated()
    for group in records(sqa):
        assert len({c.id.rsplit("-", 1)[0] for c in group}) == 1  # update and asof of one question id
    assert len(records(sqa)) < len(sqa)


def test_pack_ingests_each_record_once_in_its_own_order_under_one_user():
    cases = _mquake()
    (unit,) = packed_units(cases, None)
    assert unit.records == 2 and len(unit.cases) == 4
    expected = [e for group in records(cases) for e in group[0].ordered_events()]
    assert [(e.text, e.timestamp) for e in unit.events] == [(e.text, e.timestamp) for e in expected]
    assert {e.user_id for e in unit.events} == {PACK_USER}
    asked = list(unit.questions())
    assert len(asked) == sum(len(c.questions) for c in cases)
    assert all(q.user_id == "u1" and a.user_id == PACK_USER for _, q, a in asked)
    assert set(unit.functional) == {p for c in cases for p in c.functional}
    assert [u.records for u in packed_units(cases, 1)] == [1, 1]
    assert [len(u.cases) for u in isolated_units(cases)] == [2, 2]  # identical inputs share a memory


def test_cases_about_the_user_are_refused():
    with pytest.raises(PackError, match="cannot be packed.*'u1' is the user"):
        packed_units(load_cases(BUILTIN_PATH), 10)
    base = _mquake()[0].to_dict()

    def case(**patch):
        d = json.loads(json.dumps(base))
        for i, e in enumerate(d["events"]):
            e.update(patch.get("event", {}) if i == 0 else {})
        return Case.from_dict(d)

    assert self_reference(case()) is None
    for subject in ("u1", "I", "我", "u1's mother", "user's sister"):
        claim = {"subject": subject, "predicate": "lives_in", "value": "Rome"}
        assert "is the user" in self_reference(case(event={"claim": claim})), subject
    d = json.loads(json.dumps(base))
    d["events"][0].pop("claim")
    d["events"][0]["text"] = "I moved to Rome."
    assert "first person" in self_reference(Case.from_dict(d))
    d["events"][0]["user_id"] = "u2"
    d["events"][0]["text"] = "Rome is in Italy."
    assert "2 users" in self_reference(Case.from_dict(d))
    assert isinstance(PackError("x"), InvalidInputError)


def test_parse_pack_sizes():
    assert parse_pack_sizes(["1,10", "100", "all", "10"]) == [1, 10, 100, None]
    assert [pack_label(s) for s in (1, None)] == ["1", "all"]
    for bad in (["0"], ["x"], ["-3"]):
        with pytest.raises(InvalidInputError):
            parse_pack_sizes(bad)


def test_pack_one_answers_as_isolated_cases(hash_embedder):
    cases = _mquake() + _situated()
    isolated = run(cases, policy=HASH)
    packed = run(cases, policy=HASH, pack=1)
    key = lambda r: (r.case_id, r.system, r.question, r.correct, r.stale)  # noqa: E731
    assert sorted(map(key, isolated.results)) == sorted(map(key, packed.results))
    assert packed.meta["pack"] == "1" and packed.meta["records"] == len(records(cases))


def test_run_packs_reports_every_size(hash_embedder, tmp_path):
    cases = _mquake() + _situated()
    reports = run_packs(cases, [1, None], policy=HASH)
    assert list(reports) == ["1", "all"]
    assert reports["all"].meta["memories"] == 1
    for report in reports.values():
        assert report.systems == list(SYSTEMS)
        assert len(report.results) == len(SYSTEMS) * sum(len(c.questions) for c in cases)
        assert all(report.ingest[s]["seconds"] > 0 for s in SYSTEMS)
    text = pack_markdown(reports)
    assert "pack 1 | pack all" in text and "cost by pack size" in text and "**" in text
    paths = write_pack_reports(reports, tmp_path, "eval-small-pack")
    assert Path(paths["png"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(Path(paths["json"]).read_text(encoding="utf-8"))
    assert set(data) == {"1", "all"} and "best_baselines" in data["all"]
    with pytest.raises(PackError):
        run_packs(load_cases(BUILTIN_PATH), [1], policy=HASH)
