"""The LLM extractor, with a scripted LLM (no hosted model runs here)."""

from __future__ import annotations

import asyncio

import pytest

from bcg_rag.errors import ExtractionError, InvalidInputError
from bcg_rag.extract import Extractor, LLMExtractor
from bcg_rag.models import Claim
from bcg_rag.testing import scripted

# ------------------------------------------------------------------ LLM extractor


GOOD = '{"claims": [{"subject": "u1", "predicate": "prefers_coffee_type", "value": "americano", "stance": 1.0}]}'


def test_llm_extractor_good_answer_and_prompt():
    llm = scripted("```json\n" + GOOD + "\n```")
    extractor = LLMExtractor(llm)
    claims = extractor.extract(
        "我爱喝美式咖啡", user_id="u1", context="topic:coffee",
        known_predicates=["prefers_coffee_type"], known_entities=["americano"],
    )
    assert claims == [Claim("u1", "prefers_coffee_type", "americano", 1.0, context="topic:coffee")]
    assert isinstance(extractor, Extractor)
    prompt = llm.prompts[0]
    assert "我爱喝美式咖啡" in prompt and '"prefers_coffee_type"' in prompt and '"americano"' in prompt
    assert 'have subject "u1"' in prompt
    # the offline rules' precision rules, said to the LLM too
    assert "number_of_bikes" in prompt and "job_title" in prompt and "unless the text says a change" in prompt
    assert extractor.usage["calls"] == 1
    assert extractor.usage["prompt_tokens"] > 0 and extractor.usage["completion_tokens"] > 0


def test_llm_extractor_stabilises_names_and_first_person():
    answer = '{"claims": [{"subject": "I", "predicate": "Lives In", "value": "Rome", "stance": 0.5, "source_type": "user"}]}'
    extractor = LLMExtractor(scripted(answer))
    claims = extractor.extract("maybe I live in Rome", user_id="u1", known_predicates=["lives_in"])
    assert claims == [Claim("u1", "lives_in", "Rome", 0.5, source_type="user")]


def test_llm_extractor_retries_a_malformed_answer():
    llm = scripted("Sure! Here are the claims: americano", GOOD)
    extractor = LLMExtractor(llm)
    assert extractor.extract("I love Americano", user_id="u1")[0].value == "americano"
    assert extractor.usage["calls"] == 2
    assert "rejected" in llm.prompts[1]


@pytest.mark.parametrize(
    "bad",
    [
        "not json at all",
        '{"claims": [{"subject": "u1", "predicate": "likes", "value": "tea"}]}',  # no stance
        '{"claims": [{"subject": "u1", "predicate": "likes", "value": "tea", "stance": 3}]}',  # out of range
        '{"claims": [{"subject": "", "predicate": "likes", "value": "tea", "stance": 1}]}',
        '{"answer": []}',
    ],
)
def test_llm_extractor_gives_up_with_extraction_error(bad):
    extractor = LLMExtractor(scripted(bad), max_retries=2)
    with pytest.raises(ExtractionError) as raised:
        extractor.extract("I like tea", user_id="u1")
    assert bad[:20] in str(raised.value)  # the raw answer is in the message
    assert extractor.usage["calls"] == 3


def test_llm_extractor_uses_reported_usage():
    extractor = LLMExtractor(scripted(GOOD, usage={"prompt_tokens": 120, "completion_tokens": 30}))
    extractor.extract("I love Americano", user_id="u1")
    extractor.extract("I love Americano", user_id="u1")
    assert extractor.usage == {"calls": 2, "prompt_tokens": 240, "completion_tokens": 60}


def test_llm_extractor_batch_one_call():
    answer = (
        '{"results": [{"index": 1, "claims": []}, '
        '{"index": 0, "claims": [{"subject": "u1", "predicate": "likes", "value": "tea", "stance": 1}]}]}'
    )
    llm = scripted(answer)
    extractor = LLMExtractor(llm)
    assert extractor.extract_batch(["I like tea", "hmm ok"], user_id="u1") == [[Claim("u1", "likes", "tea", 1.0)], []]
    assert extractor.usage["calls"] == 1 and '[1] "hmm ok"' in llm.prompts[0]


def test_llm_extractor_batch_partial_answer_is_retried():
    partial = '{"results": [{"index": 0, "claims": []}]}'
    full = '{"results": [{"index": 0, "claims": []}, {"index": 1, "claims": []}]}'
    extractor = LLMExtractor(scripted(partial, full))
    assert extractor.extract_batch(["a", "b"], user_id="u1") == [[], []]
    assert extractor.usage["calls"] == 2
    with pytest.raises(ExtractionError):
        LLMExtractor(scripted(partial), max_retries=0).extract_batch(["a", "b"], user_id="u1")


def test_llm_extractor_async():
    extractor = LLMExtractor(scripted("{oops", GOOD))
    claims = asyncio.run(extractor.aextract("I love Americano", user_id="u1"))
    assert claims == [Claim("u1", "prefers_coffee_type", "americano", 1.0)]
    assert extractor.usage["calls"] == 2
    with pytest.raises(ExtractionError):
        asyncio.run(LLMExtractor(scripted("{oops"), max_retries=1).aextract("x", user_id="u1"))


def test_llm_extractor_rejects_bad_arguments():
    with pytest.raises(InvalidInputError):
        LLMExtractor(scripted(GOOD), max_retries=-1)
    with pytest.raises(InvalidInputError):
        LLMExtractor(scripted(GOOD)).extract("x", user_id="")
