"""Extraction measured on the blind annotation sets (issue 10): floors a little below what
the offline extractor measures, and no false "outdated" on additive pairs (dev half)."""

from __future__ import annotations

import json

import pytest

from bcg_rag.errors import ExtractionError
from bcg_rag.evaluation.extraction import (
    CLAIMS_PATH, DATASETS, PAIRS_PATH, batch, cascade_savings, half, hash_memory_factory, matches, normalise, read_jsonl,
    score_claims, score_pairs,
)
from bcg_rag.extract import CascadeExtractor, LLMExtractor, OfflineExtractor, extractor_from_config
from bcg_rag.models import Claim
from bcg_rag.testing import scripted

pytestmark = pytest.mark.skipif(not CLAIMS_PATH.exists(), reason="claim annotations not present")


@pytest.fixture(scope="module")
def scores():
    return score_claims(OfflineExtractor(), read_jsonl(CLAIMS_PATH))


def test_matching_conventions():
    gold = {"subject": "user's mother", "value": "the Doctor", "stance": 1.0, "value_aliases": ["physician"]}
    assert matches(Claim("u1's mother", "is", "doctor", 1.0), gold, "u1")
    assert matches(Claim("u1's mother", "is", "Physician", 0.5), gold, "u1")
    assert not matches(Claim("u1's mother", "is", "doctor", -0.8), gold, "u1")
    assert not matches(Claim("u1", "is", "doctor", 1.0), gold, "u1")
    assert not matches(Claim("u1's mother", "plan:is", "doctor", 0.5), gold, "u1")
    plan = {"subject": "user", "value": "Lisbon", "stance": 0.5, "modality": "plan"}
    assert matches(Claim("u1", "plan:lives_in", "Lisbon", 0.5), plan, "u1")
    assert not matches(Claim("u1", "lives_in", "Lisbon", 1.0), plan, "u1")
    assert normalise("My  Cat!") == "cat" and half("cc-en-007") == "dev" and half("cc-zh-010") == "held_out"
    assert batch("cc-en-170") == "first" and batch("cc-zh-171") == "second"


def test_precision_and_recall_floors(scores):
    for key, floors in FLOORS.items():
        row = scores["batch_half"][key]
        assert row["precision"] >= floors["precision"], (key, row)
        assert row["recall"] >= floors["recall"], (key, row)


def test_change_pairs_are_detected():
    pairs = [p for p in read_jsonl(PAIRS_PATH) if p["relation"] == "change"]
    result = score_pairs(pairs, hash_memory_factory())
    assert result["change"]["outdated"] >= CHANGE_PAIRS_FLOOR, result["change"]


def test_additive_pairs_are_never_outdated():
    pairs = read_jsonl(PAIRS_PATH)
    result = score_pairs([p for p in pairs if p["relation"] == "additive"], hash_memory_factory())
    assert result["additive"]["pairs"] >= 100
    # None in either half. The held-out half had one (a value and a narrower name of it, 2026-12-06:
    # that pair was read to find the mechanism, revision.narrows, and is no longer blind).
    assert result["additive"]["outdated"] == 0, result


def test_the_third_blind_batch_keeps_its_floors_and_never_outdates_an_additive_pair():
    """``chat_claims_fresh.jsonl`` / ``chat_pairs_fresh.jsonl``, written blind this release and
    scored once before they were read (P 0.871, R 0.379; 1 of 70 additive pairs outdated)."""
    claims, pairs = DATASETS / "chat_claims_fresh.jsonl", DATASETS / "chat_pairs_fresh.jsonl"
    scores = score_claims(OfflineExtractor(), read_jsonl(claims))
    for key, floors in FRESH_FLOORS.items():
        row = scores["half"][key]
        assert row["precision"] >= floors["precision"] and row["recall"] >= floors["recall"], (key, row)
    result = score_pairs(read_jsonl(pairs), hash_memory_factory())
    assert result["additive"]["pairs"] == 70 and result["additive"]["outdated"] == 0, result
    assert result["change"]["outdated"] >= 10, result["change"]


def test_cascade_saves_calls_on_the_builtin_and_claim_sets():
    from bcg_rag.evaluation.extraction import builtin_texts

    for texts, floor in ((builtin_texts(), 0.6), ([i["text"] for i in read_jsonl(CLAIMS_PATH)], 0.2)):
        saved = cascade_savings(texts)
        assert saved["saved_share"] >= floor, saved


# Floors a little below what was measured (issue 10, precision first), per blind batch and
# half: first batch dev P 0.993 R 0.741, held out 0.911 / 0.466; second batch (written later,
# never edited) dev 0.918 / 0.342, held out 0.792 / 0.209.
FLOORS = {"first/dev": {"precision": 0.97, "recall": 0.70}, "first/held_out": {"precision": 0.88, "recall": 0.44},
          "second/dev": {"precision": 0.89, "recall": 0.31}, "second/held_out": {"precision": 0.76, "recall": 0.19}}
CHANGE_PAIRS_FLOOR = 23  # 25 of 50 measured
# The third batch: dev 0.954 / 0.419, held out 0.855 / 0.387.
FRESH_FLOORS = {"dev": {"precision": 0.93, "recall": 0.39}, "held_out": {"precision": 0.83, "recall": 0.36}}


# ------------------------------------------------------------------ the cascade, with a scripted LLM

ANSWER = json.dumps({"claims": [{"subject": "u1", "predicate": "hobby", "value": "pottery", "stance": 1.0}]})


def cascade(*answers: str, retries: int = 1) -> tuple[CascadeExtractor, object]:
    llm = scripted(*answers)
    return extractor_from_config({"kind": "cascade", "max_retries": retries}, llm=llm), llm


@pytest.mark.parametrize(
    "text",
    ["Where do I live?", "Can you recommend a restaurant?", "thanks!", "haha ok", "I live in Paris.",
     "我喜欢喝茶", "I moved from Shanghai to Shenzhen last spring.", "帮我写一封邮件"],
)
def test_cascade_does_not_call_the_llm_for_questions_chitchat_or_parsed_messages(text):
    extractor, llm = cascade(ANSWER)
    extractor.extract(text, user_id="u1")
    assert llm.prompts == [] and extractor.stats["saved"] == 1


def test_cascade_calls_the_llm_for_informative_unparsed_messages():
    extractor, llm = cascade(ANSWER)
    claims = extractor.extract("Been spending every weekend at the pottery studio lately", user_id="u1")
    assert claims == [Claim("u1", "hobby", "pottery", 1.0)] and len(llm.prompts) == 1
    prompt = llm.prompts[0]
    for rule in ("plan:", "many-valued", "no longer", "u1's mother", "Questions"):
        assert rule in prompt


def test_cascade_retries_a_malformed_answer_then_raises():
    extractor, llm = cascade("not json", ANSWER, retries=1)
    assert extractor.extract("Been spending every weekend at the pottery studio lately", user_id="u1")
    assert len(llm.prompts) == 2 and extractor.stats["llm_calls"] == 2
    broken, _ = cascade("still not json", retries=1)
    with pytest.raises(ExtractionError):
        broken.extract("Been spending every weekend at the pottery studio lately", user_id="u1")


def test_extractor_from_config_kinds():
    from bcg_rag.errors import ConfigError

    assert isinstance(extractor_from_config({}), OfflineExtractor)
    assert isinstance(extractor_from_config({"kind": "llm"}, llm=scripted(ANSWER)), LLMExtractor)
    with pytest.raises(ConfigError):
        extractor_from_config({"kind": "cascade"})
    with pytest.raises(ConfigError):
        extractor_from_config({"kind": "magic"})
