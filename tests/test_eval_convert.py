"""Evaluation cases: the format, the builtin set, and the public-data converters."""

from __future__ import annotations

import json
import logging
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from bcg_rag.errors import InvalidInputError
from bcg_rag.evaluation.cases import (
    BUILTIN_PATH, KINDS, Case, load_cases, matches, normalise_answer, overlaps, write_cases,
)
from bcg_rag.evaluation.convert import convert_mquake, convert_situatedqa
from bcg_rag.models import Claim

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(os.environ.get("BCG_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data")

EXAMPLE = {
    "id": "coffee-zh-001", "lang": "zh", "kind": "refute",
    "events": [{"text": "我爱喝美式咖啡，每天都要来一杯", "timestamp": "2025-03-01T10:00:00", "user_id": "u1",
                "source": "dialog:1", "source_type": "user_explicit", "context": "topic:coffee", "agent_id": None,
                "claim": {"subject": "u1", "predicate": "prefers_coffee_type", "value": "americano", "stance": 1.0}},
               {"text": "我现在每天都喝拿铁", "timestamp": "2025-03-05T10:00:00", "user_id": "u1",
                "source": "dialog:2", "source_type": "user_explicit", "context": "topic:coffee", "agent_id": None,
                "claim": {"subject": "u1", "predicate": "prefers_coffee_type", "value": "latte", "stance": 1.0}}],
    "functional": ["prefers_coffee_type"], "ingest_order": [1, 0],
    "questions": [{"question": "用户现在偏好什么咖啡？", "user_id": "u1", "context": None, "as_of": None, "now": None,
                   "expect": ["latte", "拿铁"], "expect_all": [], "stale": ["americano", "美式"]}],
}


# --- matching ------------------------------------------------------------------------

def test_normalise_answer():
    assert normalise_answer("  Washington,   D.C.! ") == "washington dc"
    assert normalise_answer("Ｂｅｒｌｉｎ") == "berlin"  # NFKC folds full-width letters
    assert normalise_answer("拿铁。") == "拿铁"
    assert normalise_answer("Hewlett-Packard / HP") == "hewlett packard hp"


def test_matches_alias_contained_in_answer():
    assert matches("You live in Berlin now.", ["Paris", "berlin"])
    assert matches("冰拿铁", ["latte", "拿铁"])
    assert matches("公司配的是ThinkPad，Windows系统", ["ThinkPad"])  # a Chinese comma ends the word
    assert matches("用的是MacBook Air。", ["MacBook Air"]) and matches("ThinkPad", ["ＴｈｉｎｋＰａｄ"])
    assert matches("Lenc\u0327o\u0301is", ["Lençóis"])  # composed and decomposed accents are one letter
    assert matches("Washington DC", ["Washington, D.C."])
    assert not matches("Berlin", ["I live in Berlin"])  # containment one way only
    assert not matches("Australia", ["US"])  # never half a word
    assert not matches("145", ["45"])
    assert not matches("Berlin", [])
    assert not matches("Berlin", ["", "  "])
    assert not matches(None, ["Berlin"])
    assert overlaps("New York City", "York") and not overlaps("Oslo", "Bergen")


# --- the format ----------------------------------------------------------------------

def test_case_round_trips_and_orders_events():
    case = Case.from_dict(EXAMPLE)
    assert case.to_dict() == EXAMPLE
    assert case.events[0].claims == (Claim("u1", "prefers_coffee_type", "americano", 1.0),)
    assert [e.timestamp for e in case.ordered_events()] == ["2025-03-05T10:00:00", "2025-03-01T10:00:00"]
    assert case.now_for(case.questions[0]) == "2025-03-05T10:00:00"


def test_expect_all_groups_and_claims_list():
    d = json.loads(json.dumps(EXAMPLE))
    d["questions"][0]["expect_all"] = ["tea", ["coffee", "咖啡"]]
    d["events"][1]["claims"] = [d["events"][1].pop("claim"), {"subject": "u1", "predicate": "likes", "value": "tea"}]
    case = Case.from_dict(d)
    assert case.questions[0].expect_all == (("tea",), ("coffee", "咖啡"))
    assert len(case.events[1].claims) == 2 and case.events[1].claims[1].stance == 1.0
    assert Case.from_dict(case.to_dict()) == case


@pytest.mark.parametrize("patch", [
    lambda d: d.update(kind="  "),  # kinds are free-form, but not empty
    lambda d: d.update(ingest_order=[0, 0]),
    lambda d: d.update(events=[]),
    lambda d: d.update(colour="blue"),
    lambda d: d["events"][0].update(timestamp="yesterday"),
    lambda d: d["events"][0].update(text="  "),
    lambda d: d["events"][0]["claim"].update(stance=1.5),
    lambda d: d["questions"][0].update(expect="latte"),
])
def test_load_cases_names_the_bad_line(tmp_path, patch):
    bad = json.loads(json.dumps(EXAMPLE))
    patch(bad)
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(EXAMPLE, ensure_ascii=False) + "\n\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"cases\.jsonl:3: "):
        load_cases(path)


def test_load_cases_rejects_bad_json_and_duplicate_ids(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=":1: "):
        load_cases(path)
    line = json.dumps(EXAMPLE)
    path.write_text(line + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=":2: duplicate case id"):
        load_cases(path)


# --- the builtin set -----------------------------------------------------------------

TIMESTAMP = re.compile(r"^202[345]-\d\d-\d\dT\d\d:\d\d:\d\d$")


def test_builtin_set():
    cases = load_cases(BUILTIN_PATH)
    assert len(cases) >= 130
    kinds = Counter(c.kind for c in cases)
    assert set(kinds) <= set(KINDS)
    assert all(n >= (5 if kind == "multihop" else 6) for kind, n in kinds.items()), kinds
    langs = Counter(c.lang for c in cases)
    assert set(langs) == {"zh", "en"} and min(langs.values()) >= 0.4 * len(cases), langs
    for case in cases:
        for event in case.events:
            assert event.text.strip(), case.id
            assert TIMESTAMP.match(event.timestamp), (case.id, event.timestamp)
        assert sorted(i for i in range(len(case.events))) == sorted(case.ingest_order or range(len(case.events)))
        users = {e.user_id for e in case.events}
        for q in case.questions:
            assert q.user_id in users, case.id
            assert q.expect or q.stale or q.expect_all, case.id
            expected = [*q.expect, *(a for g in q.expect_all for a in g)]
            assert not any(overlaps(s, e) for s in q.stale for e in expected), (case.id, q.question)
        if case.kind == "decay":
            assert all(q.now for q in case.questions), case.id
        if case.kind == "asof":
            assert any(q.as_of for q in case.questions), case.id
        if case.kind == "out_of_order":
            assert case.ingest_order and list(case.ingest_order) != sorted(case.ingest_order), case.id
        if case.kind == "alias":
            assert case.aliases, case.id
        if case.kind == "multivalue":
            assert any(len(q.expect_all) >= 2 for q in case.questions), case.id
        if case.kind == "reliability":  # a weaker source, or the user's own hedge or plan
            assert any(e.source_type != "user_explicit" or any(c.stance < 1 for c in e.claims) or not e.claims
                       for e in case.events), case.id
        if case.kind == "longterm":
            assert all(q.now for q in case.questions), case.id


# --- MQuAKE --------------------------------------------------------------------------

def test_convert_mquake_fixture():
    cases = convert_mquake(FIXTURES / "mquake_small.json")
    assert [c.id for c in cases] == ["mquake-2-edits", "mquake-2-multihop", "mquake-4-edits", "mquake-4-multihop"]
    edits, multi = cases[0], cases[1]
    assert (edits.kind, multi.kind, edits.lang) == ("update", "multihop", "en")
    assert edits.events == multi.events and edits.functional == ("P27", "P36")
    assert [(e.text, e.timestamp, e.source_type, e.claims[0]) for e in edits.events] == [
        ("Ada Quill is a citizen of Norway.", "2020-01-01T00:00:00", "user_explicit", Claim("Ada Quill", "P27", "Norway")),
        ("The capital of Chile is Santiago.", "2020-01-01T00:01:00", "user_explicit", Claim("Chile", "P36", "Santiago")),
        ("Ada Quill is a citizen of Chile.", "2024-01-01T00:00:00", "user_explicit", Claim("Ada Quill", "P27", "Chile")),
        ("The capital of Chile is Valparaíso.", "2024-01-01T00:01:00", "user_explicit",
         Claim("Chile", "P36", "Valparaíso")),
    ]
    # new_single_hops are listed in the other order: aliases follow the answer, not the index.
    assert [(q.question, q.expect, q.stale) for q in edits.questions] == [
        ("What is the country of citizenship of Ada Quill?", ("Chile", "Republic of Chile", "CL"), ("Norway",)),
        ("What is the capital of Chile?", ("Valparaíso", "Valpo"), ("Santiago",)),
    ]
    assert len(multi.questions) == 3
    assert {(q.expect, q.stale) for q in multi.questions} == {(("Valparaíso", "Valpo"), ("Oslo", "Christiania"))}
    # Stale aliases that would also match the expected answer are dropped.
    assert {q.stale for q in cases[3].questions} == {("NYC",)}
    assert cases[2].questions[1].expect == ("York", "City of York")


def test_convert_mquake_skips_malformed_records(tmp_path, caplog):
    records = json.loads((FIXTURES / "mquake_small.json").read_text(encoding="utf-8"))
    del records[0]["requested_rewrite"][1]["target_new"]
    records.insert(0, "not a record")
    path = tmp_path / "m.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        cases = convert_mquake(path)
    assert [c.id for c in cases] == ["mquake-4-edits", "mquake-4-multihop"]
    assert "skipped 2 record(s)" in caplog.text
    assert [c.id for c in convert_mquake(FIXTURES / "mquake_small.json", limit=1)] == ["mquake-2-edits", "mquake-2-multihop"]


def test_mquake_multihop_kind_is_the_chain_length(tmp_path):
    records = json.loads((FIXTURES / "mquake_small.json").read_text(encoding="utf-8"))
    chain = [["Ada Quill", "country of citizenship", "Chile"], ["Chile", "capital", "Valparaíso"]]
    records[0]["orig"] = {"triples_labeled": chain, "new_triples_labeled": chain}
    records[1]["orig"] = {"new_triples_labeled": chain + [["Valparaíso", "mayor", "X"]]}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    assert [c.kind for c in convert_mquake(path)] == ["update", "multihop-2", "update", "multihop-3"]


# --- SituatedQA ----------------------------------------------------------------------

def test_convert_situatedqa_fixture():
    cases = convert_situatedqa(FIXTURES / "situatedqa_timelines_small.jsonl", FIXTURES / "situatedqa_asof_small.jsonl")
    assert [c.id for c in cases] == ["situatedqa-101-update", "situatedqa--202-update",
                                     "situatedqa-101-asof", "situatedqa--202-asof"]
    coach = cases[0]
    q = "who is the head coach of the riverside rowing club"
    assert (coach.kind, coach.functional) == ("update", ("answer",))
    assert [(e.text, e.timestamp, e.claims[0]) for e in coach.events] == [
        (f"Q: {q} A: Jan Ode", "2012-01-01T00:00:00", Claim(q, "answer", "Jan Ode")),
        (f"Q: {q} A: Mara Lind", "2019-06-01T00:00:00", Claim(q, "answer", "Mara Lind")),
    ]
    assert [(x.question, x.expect, x.stale, x.as_of) for x in coach.questions] == [(q, ("Mara Lind",), ("Jan Ode",), None)]
    moons = cases[1]
    assert [(e.text, e.timestamp) for e in moons.events] == [
        ("Q: how many moons does the planet kessel have A: 12", "2001-03-15T00:00:00"),
        ("Q: how many moons does the planet kessel have A: 14, fourteen", "2015-01-01T00:00:00"),
    ]
    assert (moons.questions[0].expect, moons.questions[0].stale) == (("14", "fourteen"), ("12",))
    asof = cases[2]
    assert asof.kind == "asof" and asof.events == coach.events
    # 2010 is before the first statement: skipped.
    assert [(x.as_of, x.now, x.expect, x.stale) for x in asof.questions] == [
        ("2015-12-31T23:59:59", "2012-01-01T00:00:00", ("Jan Ode",), ("Mara Lind",)),
        ("2019-06-01T23:59:59", "2019-06-01T00:00:00", ("Mara Lind",), ("Jan Ode",)),
    ]
    # "13" was never stated in the timeline: the row is skipped.
    assert [(x.as_of, x.expect, x.stale) for x in cases[3].questions] == [("2016-12-31T23:59:59", ("14",), ("12",))]
    assert convert_situatedqa(FIXTURES / "situatedqa_timelines_small.jsonl") == cases[:2]
    assert [c.id for c in convert_situatedqa(FIXTURES / "situatedqa_timelines_small.jsonl",
                                             FIXTURES / "situatedqa_asof_small.jsonl", limit=1)] == \
        ["situatedqa-101-update", "situatedqa-101-asof"]


def test_convert_situatedqa_skips_unusable_timelines(tmp_path, caplog):
    good = (FIXTURES / "situatedqa_timelines_small.jsonl").read_text(encoding="utf-8").splitlines()[0]
    start = {"year": 2018, "month": None, "date": None}
    lines = [
        "{broken",
        json.dumps({"question": "a", "id": 1, "timelines": [{"prev_answers": None, "prev_start": None,
                                                              "cur_answers": ["x"], "cur_start": start}]}),
        json.dumps({"question": "b", "id": 2, "timelines": [{"prev_answers": ["x"], "prev_start": start,
                                                              "cur_answers": ["y"], "cur_start": start}]}),
        json.dumps({"question": "c", "id": 3, "timelines": [{"prev_answers": ["x"], "prev_start": start,
                                                              "cur_answers": ["x"], "cur_start": start}]}),
        json.dumps({"question": "d", "id": 4, "timelines": [{"prev_answers": ["x"], "prev_start": {"year": "soon"},
                                                              "cur_answers": ["y"], "cur_start": start}]}),
        good,
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        cases = convert_situatedqa(path)
    assert [c.id for c in cases] == ["situatedqa-101-update"]
    assert "skipped 5 record(s)" in caplog.text


# --- the public development data (optional) --------------------------------------------

def test_converters_on_shared_data(tmp_path):
    mquake = SHARED / "mquake_hard" / "mquake_hard.dev.json"
    timelines = SHARED / "situatedqa_temp" / "timelines.dev.jsonl"
    asof = SHARED / "situatedqa_temp" / "asof.dev.jsonl"
    if not (mquake.exists() and timelines.exists() and asof.exists()):
        pytest.skip("../shared/data is not present")
    cases = convert_mquake(mquake)
    assert len(cases) == 2 * 221
    assert sum(len(c.questions) for c in cases if c.kind == "update") == 884
    assert Counter(c.kind for c in cases) == {"update": 221, "multihop-4": 221}  # MQuAKE-hard chains: 4 hops
    assert sum(len(c.questions) for c in cases if c.kind.startswith("multihop")) == 3 * 221
    sqa = convert_situatedqa(timelines, asof)
    kinds = Counter(c.kind for c in sqa)
    assert kinds == {"update": 362, "asof": 362}
    assert sum(len(c.questions) for c in sqa if c.kind == "asof") == 2134
    assert len(convert_mquake(mquake, limit=10)) == 20
    # Everything converted passes the loader's validation.
    out = tmp_path / "converted.jsonl"
    assert write_cases(cases + sqa, out) == len(cases) + len(sqa)
    assert len(load_cases(out)) == len(cases) + len(sqa)
