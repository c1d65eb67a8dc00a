"""Claim extraction: turn one chat message into ``Claim``s.

Three extractors share the ``Extractor`` protocol:

* ``OfflineExtractor`` (``offline.py``, ``turn.py``, ``shared.py``, ``subjects.py``, ``en.py``, ``zh.py``,
  ``shapes.py``, ``idioms.py``, ``measures.py``, ``routines.py``, ``whereabouts.py``,
  ``mentions.py``, ``changes.py``, ``ventures.py``, ``portions.py``, ``tongues.py``, ``origins.py``, ``owners.py``,
  ``groups_work.py``, ``pets_hobbies.py``, ``in_passing.py``, ``zh_work.py``, ``zh_belonging.py``, ``zh_daily.py``,
  ``medications.py``, ``subscriptions.py``, ``headquarters.py``, ``grammar.py``, ``splitting.py``): rules over the word
  lists in ``lexicon.toml``. No model, deterministic,
  Chinese (on jieba's segmentation) and English. Precision first: every claim passes the
  confidence gate (``gate.py``, ``gate_subjects.py``: values are noun phrases, subjects are named, episodes are
  no habits); ``read`` also says which claims were said as additions ("I also work at …").
* ``LLMExtractor`` (``llm.py``): any LlamaIndex LLM asked for JSON, validated, retried.
* ``CascadeExtractor`` (``cascade.py``): the offline extractor first; the LLM only for
  informative messages the rules could not read.

``restatement_diff`` and ``statement_key`` (``restate.py``) pair two statements that
differ in one span; ``competing`` says when their values may compete.

A message nothing understands gives ``[]``; the caller still stores it as evidence.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from .cascade import CascadeExtractor
from .grammar import Grammar
from .lexicon import DEFAULT_LEXICON_PATH, Lexicon, default_lexicon, stable_name
from .llm import LLMExtractor
from .offline import OfflineExtractor, Reading
from .protocol import Extractor
from .restate import SlotDiff, competing, restatement_diff, statement_key

__all__ = [
    "CascadeExtractor", "DEFAULT_LEXICON_PATH", "Extractor", "Grammar", "LLMExtractor", "Lexicon",
    "OfflineExtractor", "Reading", "SlotDiff", "competing", "default_lexicon", "extractor_from_config",
    "restatement_diff", "stable_name", "statement_key",
]

KINDS = ("offline", "llm", "cascade")


def extractor_from_config(section: dict[str, Any] | None, llm: Any = None) -> Extractor:
    """The extractor a policy's ``[extractor]`` section names.

    ``kind``: ``offline`` (default), ``llm`` or ``cascade`` (both need ``llm``);
    ``lexicon``: a TOML file extending the shipped lexicon; ``max_retries``: LLM retries.
    """
    section = dict(section or {})
    kind = section.get("kind", "offline")
    if kind not in KINDS:
        raise ConfigError(f"[extractor] kind must be one of {list(KINDS)}, got {kind!r}")
    lexicon_path = section.get("lexicon")
    if lexicon_path is not None and (not isinstance(lexicon_path, str) or not lexicon_path.strip()):
        raise ConfigError(f"[extractor] lexicon must be a path, got {lexicon_path!r}")
    offline = OfflineExtractor(Lexicon.load(lexicon_path) if lexicon_path else None)
    if kind == "offline":
        return offline
    if llm is None:
        raise ConfigError(f"[extractor] kind {kind!r} needs an LLM; pass one (llm=...)")
    retries = section.get("max_retries", 2)
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ConfigError(f"[extractor] max_retries must be an int >= 0, got {retries!r}")
    model = LLMExtractor(llm, max_retries=retries)
    if kind == "llm":
        return model
    return CascadeExtractor(offline, model)
