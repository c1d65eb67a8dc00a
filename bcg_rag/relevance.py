"""Relevance per claim, not per message.

A message's vector stands for everything it says, so "my mom's a doctor, she lives in
Chengdu" is as relevant to "what does my mom do?" as to "where does she live?". Two
corrections, both plain arithmetic on vectors we already have:

- Inside a message that makes several claims, each claim is scored against the query
  by its own sentence (``writing.claim_text``, embedded at write time) and by its
  predicate phrase ("works at", embedded once per predicate and cached); a claim that
  scores below its best sibling loses the difference.
- The answer to a wh-question is not in the question: a claim whose value the question
  already names ("which *gym* is the user a member of?" against "exercises at the
  gym") is not what it asks for, and loses ``answer_in_question_penalty``. Yes/no
  questions ("does the user still drink coffee?") are left alone.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import numpy as np

from . import revision
from .models import REFUTES, SUPPORTS

CLAIM_WEIGHT = 0.5  # of the claim sentence's similarity, beside the predicate phrase's (1.0)
PREDICATE_CACHE_SIZE = 10_000

_WH_EN = re.compile(r"\b(what|which|where|who|whom|whose|when|how|why)\b", re.IGNORECASE)
_WH_ZH = re.compile(r"什么|哪|谁|几|多少|怎么|怎样|为什么|何")


def claim_pairs(memory: Any, relevance: dict[str, float], as_of: str | None):
    """The claims among the candidate evidence: ``{(evidence_id, belief_id): relevance}``
    of the direct claim edges, and the set of evidence that any edge starts from.
    Derived refutations ("moved to Berlin" refutes Paris) are left out: the message's own
    claim about the new value already brings the same slot in."""
    pairs: dict[tuple[str, str], float] = {}
    claimed: set[str] = set()
    for e in memory.store.edges_from(list(relevance), [SUPPORTS, REFUTES]):
        if as_of is not None and (e.valid_from or "") > as_of:
            continue
        claimed.add(e.src)
        if not revision.is_derived(e.reason):
            pairs[(e.src, e.dst)] = relevance[e.src]
    return pairs, claimed


def belief_relevance(memory: Any, query: str, vector: np.ndarray, pairs: dict[tuple[str, str], float],
                     rows: dict[str, dict]) -> dict[str, float]:
    """Per belief, the best relevance of its claims among the candidates (see module doc)."""
    by_message: dict[str, list[str]] = {}
    for eid, bid in pairs:
        if bid in rows:
            by_message.setdefault(eid, []).append(bid)
    gap = _sibling_gaps(memory, vector, {e: b for e, b in by_message.items() if len(b) > 1}, rows)
    penalty = float(memory.policy.section("search").get("answer_in_question_penalty", 0.2))
    answered = _named_in_question(query, {bid: rows[bid]["value"] for bid in rows}) if is_wh_question(query) else set()
    out: dict[str, float] = {}
    for (eid, bid), rel in pairs.items():
        if bid not in rows:
            continue
        rel -= gap.get((eid, bid), 0.0) + (penalty if bid in answered else 0.0)
        out[bid] = max(out.get(bid, -1.0), rel)
    return out


def _sibling_gaps(memory: Any, vector: np.ndarray, several: dict[str, list[str]], rows: dict[str, dict]) -> dict:
    if not several:
        return {}
    claim_vectors = memory.store.claim_vectors(list(several))
    predicates = sorted({rows[b]["predicate"] for bids in several.values() for b in bids})
    phrase_sims = dict(zip(predicates, predicate_vectors(memory, predicates) @ vector))
    gaps = {}
    for eid, bids in several.items():
        scores = {}
        for bid in bids:
            v = claim_vectors.get((eid, bid))
            scores[bid] = float(phrase_sims[rows[bid]["predicate"]]) + (CLAIM_WEIGHT * float(v @ vector) if v is not None else 0.0)
        top = max(scores.values())
        gaps.update({(eid, bid): top - s for bid, s in scores.items()})
    return gaps


def predicate_phrase(predicate: str) -> str:
    """'lives_in' -> 'lives in', 'attr:favorite_color' -> 'favorite color', 'plan:lives_in' -> 'plans: lives in'."""
    return predicate.replace("plan:", "plans: ").replace("attr:", "").replace("slot:", "").replace("_", " ").strip()


def predicate_vectors(memory: Any, predicates: list[str]) -> np.ndarray:
    """Unit vectors of predicate phrases, cached on the memory: a memory has few distinct
    predicates, so after warm-up this costs no embedding at all."""
    cache: dict[str, np.ndarray] = memory.__dict__.setdefault("_predicate_vectors", {})
    missing = [p for p in predicates if p not in cache]
    if missing:
        if len(cache) + len(missing) > PREDICATE_CACHE_SIZE:
            cache.clear()
        for p, v in zip(missing, memory.index.embed([predicate_phrase(p) for p in missing])):
            v = np.asarray(v, dtype=np.float32)
            cache[p] = v / max(float(np.linalg.norm(v)), 1e-12)
    return np.stack([cache[p] for p in predicates])


def is_wh_question(query: str) -> bool:
    return bool(_WH_EN.search(query) or _WH_ZH.search(query))


def _normalise(text: str) -> str:
    return " ".join("".join(ch if ch.isalnum() else " " for ch in unicodedata.normalize("NFKC", text).casefold()).split())


def _named_in_question(query: str, values: dict[str, str]) -> set[str]:
    """Beliefs whose value the query names: whole words for Latin script, any substring
    of two or more characters for CJK (no spaces to cut at)."""
    q = f" {_normalise(query)} "
    out = set()
    for bid, value in values.items():
        v = _normalise(value)
        if not v:
            continue
        cjk = any("\u3400" <= ch <= "\u9fff" for ch in v)
        if (cjk and len(v) >= 2 and v in q) or (not cjk and f" {v} " in q):
            out.add(bid)
    return out
