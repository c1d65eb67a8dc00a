"""Relevance per claim, not per message.

A message's vector stands for everything it says, so "my mom's a doctor, she lives in
Chengdu" is as relevant to "what does my mom do?" as to "where does she live?", and a
message that names Bobby is as relevant to "where does Bobby live?" whether it says
where he lives or where he works. Three corrections, plain arithmetic on vectors we
already have:

- Every claim gains ``predicate_weight`` x the similarity of the query to its predicate,
  which tells the slots of one subject apart. A predicate has several phrasings: its
  name as words ("lives_in": "lives in") averaged with the extractor's lexicon's verb
  phrases for it in every language ("live in", "住在", "搬到", ...), and each of the
  lexicon's ``[slots]`` phrases, the words a question asks for the slot with ("what
  someone does for a living", "是做什么的" for an occupation). Its similarity is the
  mean of the name's and the best phrasing's: more phrasings must not mean more
  chances. Predicate vectors are computed once and cached: a memory has few distinct
  predicates. (A similar term for the subject phrase was measured and dropped: it
  lowered the blind chat set; the subject is read from the question, ``asked.py``.)
- Inside a message that makes several claims, each claim is also scored by its own
  sentence (``writing.claim_text``, embedded at write time); a claim that scores below
  its best sibling loses the difference.
- The answer to a wh-question is not in the question: a claim whose value the question
  already names ("which *gym* is the user a member of?" against "exercises at the
  gym") is not what it asks for, and loses ``answer_in_question_penalty``. Yes/no
  questions ("does the user still drink coffee?") are left alone.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

import numpy as np

from .models import REFUTES, SUPPORTS

CLAIM_WEIGHT = 0.5  # of a claim sentence's similarity, when siblings of one message are compared
PREDICATE_CACHE_SIZE = 10_000
PHRASES_PER_SCRIPT = 4

_WH_EN = re.compile(r"\b(what|which|where|who|whom|whose|when|how|why)\b", re.IGNORECASE)
_WH_ZH = re.compile(r"什么|哪|谁|几|多少|怎么|怎样|为什么|何")


def claim_pairs(memory: Any, relevance: dict[str, float], as_of: str | None):
    """The claims among the candidate evidence: ``{(evidence_id, belief_id): relevance}``
    of the direct claim edges, and the set of evidence that any edge starts from.
    Derived refutations ("moved to Berlin" refutes Paris) are left out: the message's own
    claim about the new value already brings the same slot in."""
    pairs: dict[tuple[str, str], float] = {}
    claimed: set[str] = set()
    # A derived refutation comes with its claim's own edge, so the direct edges alone say
    # which evidence made claims (and are few: a busy slot's derived ones are hundreds).
    for e in memory.store.edges_from(list(relevance), [SUPPORTS, REFUTES], direct_only=True):
        if as_of is not None and (e.valid_from or "") > as_of:
            continue
        claimed.add(e.src)
        pairs[(e.src, e.dst)] = relevance[e.src]
    return pairs, claimed


def belief_relevance(memory: Any, query: str, vector: np.ndarray, pairs: dict[tuple[str, str], float],
                     rows: dict[str, dict]) -> dict[str, float]:
    """Per belief, the best relevance of its claims among the candidates (see module doc)."""
    by_message: dict[str, list[str]] = {}
    for eid, bid in pairs:
        if bid in rows:
            by_message.setdefault(eid, []).append(bid)
    settings = memory.policy.section("search")
    gap = _sibling_gaps(memory, vector, {e: b for e, b in by_message.items() if len(b) > 1})
    penalty = float(settings.get("answer_in_question_penalty", 0.2))
    p_weight = float(settings.get("predicate_weight", 0.5))
    predicate_of = {b: rows[b]["predicate"] for _, b in pairs if b in rows}
    predicates = sorted(set(predicate_of.values())) if p_weight else []
    sims = predicate_similarity(memory, predicates, vector) if predicates else {}
    answered = named_in_question(query, {bid: rows[bid]["value"] for bid in rows}) if is_wh_question(query) else set()
    out: dict[str, float] = {}
    for (eid, bid), rel in pairs.items():
        if bid not in rows:
            continue
        rel += p_weight * sims.get(predicate_of[bid], 0.0)
        rel -= gap.get((eid, bid), 0.0) + (penalty if bid in answered else 0.0)
        out[bid] = max(out.get(bid, -1.0), rel)
    return out


def _sibling_gaps(memory: Any, vector: np.ndarray, several: dict[str, list[str]]) -> dict:
    """Per (message, claim) of a message with several claims: how far the claim's own
    sentence falls behind its best sibling's in similarity to the query."""
    if not several:
        return {}
    claim_vectors = memory.store.claim_vectors(list(several))
    gaps = {}
    for eid, bids in several.items():
        scores = {b: CLAIM_WEIGHT * float(claim_vectors[(eid, b)] @ vector) for b in bids if (eid, b) in claim_vectors}
        if len(scores) > 1:
            top = max(scores.values())
            gaps.update({(eid, b): top - s for b, s in scores.items()})
    return gaps


# Predicates made of a statement (ingest: a restated template, a statement key), not a relation.
STATEMENT_SLOTS = ("slot:", "stmt:")


def predicate_phrase(predicate: str) -> str:
    """'lives_in' -> 'lives in', 'attr:favorite_color' -> 'favorite color', 'plan:lives_in' -> 'plans: lives in'."""
    return predicate.replace("plan:", "plans: ").replace("attr:", "").replace("slot:", "").replace("_", " ").strip()


def memory_lexicon(memory: Any) -> Any:
    """The lexicon of the memory's offline extractor, else the shipped one."""
    lexicon = getattr(memory.extractor, "lexicon", None) or getattr(getattr(memory.extractor, "offline", None), "lexicon", None)
    if lexicon is None:
        from .extract.lexicon import default_lexicon

        lexicon = default_lexicon()
    return lexicon


def predicate_similarity(memory: Any, predicates: list[str], vector: np.ndarray) -> dict[str, float]:
    """Per predicate, the mean of the query's similarity to its name (with its verb
    phrases) and to its best phrasing (see module doc)."""
    vectors = predicate_vectors(memory, predicates)
    out = {}
    for p in predicates:
        sims = vectors[p] @ vector
        out[p] = float(sims[0] + sims.max()) / 2  # the name always counts: many phrasings are many chances
    return out


def predicate_vectors(memory: Any, predicates: list[str]) -> dict[str, np.ndarray]:
    """Per predicate, the unit vectors of its phrasings (see ``_phrasings``), cached on the
    memory: after warm-up this costs no embedding at all."""
    cache: dict[str, np.ndarray] = memory.__dict__.setdefault("_predicate_vectors", {})
    missing = [p for p in predicates if p not in cache]
    if missing:
        if len(cache) + len(missing) > PREDICATE_CACHE_SIZE:
            cache.clear()
        phrasings = [_phrasings(memory, p) for p in missing]
        flat = [t for groups in phrasings for group in groups for t in group]
        vectors = iter(np.asarray(memory.index.embed(flat), dtype=np.float32))
        for p, groups in zip(missing, phrasings):
            rows = [np.mean([next(vectors) for _ in group], axis=0) for group in groups]
            cache[p] = np.stack([v / max(float(np.linalg.norm(v)), 1e-12) for v in rows])
    return {p: cache[p] for p in predicates}


def _phrasings(memory: Any, predicate: str) -> list[list[str]]:
    """Groups of phrases, each group one vector (their mean): the predicate as words with
    the lexicon's verb phrases for it, the first ``PHRASES_PER_SCRIPT`` of each script
    (frames such as "在{}工作" without the slot); then each of the lexicon's ``[slots]``
    phrases for it on its own ("what someone does for a living" for an occupation). A
    plan ("plan:lives_in") is named only: where someone lives is not where they plan to."""
    lexicon = memory_lexicon(memory)
    known = [w.replace("{}", "").strip() for w in lexicon.words("predicates", predicate)]
    cjk = [w for w in known if w and _has_cjk(w)][:PHRASES_PER_SCRIPT]
    latin = [w for w in known if w and not _has_cjk(w)][:PHRASES_PER_SCRIPT]
    named = list(dict.fromkeys([predicate_phrase(predicate)] + latin + cjk))
    if predicate.startswith("plan:"):
        return [named]
    slot = predicate.removeprefix("attr:")
    return [named] + [[w] for w in dict.fromkeys(lexicon.words("slots", slot)) if w]


_CJK = re.compile("[\u3400-\u9fff]")


def _has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None  # a search asks it of every value it ranks: no loop over characters


def is_wh_question(query: str) -> bool:
    return bool(_WH_EN.search(query) or _WH_ZH.search(query))


@lru_cache(maxsize=1 << 14)  # pure; a search normalises every value of the slots it ranks
def _normalise(text: str) -> str:
    return " ".join("".join(ch if ch.isalnum() else " " for ch in unicodedata.normalize("NFKC", text).casefold()).split())


def named_in_question(query: str, values: dict[str, str]) -> set[str]:
    """Beliefs whose value the query names: whole words for Latin script, any substring
    of two or more characters for CJK (no spaces to cut at)."""
    q = f" {_normalise(query)} "
    out = set()
    for bid, value in values.items():
        v = _normalise(value)
        if not v:
            continue
        cjk = _has_cjk(v)
        if (cjk and len(v) >= 2 and v in q) or (not cjk and f" {v} " in q):
            out.add(bid)
    return out
