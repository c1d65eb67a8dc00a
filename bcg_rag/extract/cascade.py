"""``CascadeExtractor``: the offline rules first, the LLM only where they fall short.

A message goes to the LLM only when the offline extractor left a clause unread that
looks informative: a statement (not a question, request or small talk) of some length.
Everything else is answered offline, so most chat turns cost no LLM call; ``stats``
counts the calls made and saved against one call per message.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..models import Claim
from .llm import LLMExtractor
from .offline import OfflineExtractor, Reading
from .text import CJK_CHAR

MIN_INFORMATIVE_WORDS = 3  # an unread clause shorter than this ("so yeah", "还行吧") is not worth a call
MIN_INFORMATIVE_CJK = 4


class CascadeExtractor:
    def __init__(self, offline: OfflineExtractor, llm: LLMExtractor):
        self.offline = offline
        self.llm = llm
        self.stats = {"messages": 0, "llm_calls": 0, "llm_messages": 0, "saved": 0}

    @property
    def lexicon(self):
        return self.offline.lexicon

    @property
    def usage(self) -> dict:
        return self.llm.usage

    @staticmethod
    def informative(clause: str) -> bool:
        cjk = len(CJK_CHAR.findall(clause))
        return cjk >= MIN_INFORMATIVE_CJK or len(clause.split()) >= MIN_INFORMATIVE_WORDS

    def needs_llm(self, reading: Reading) -> bool:
        """Some clause states something the rules could not read."""
        return any(self.informative(c) for c in reading.unread)

    def extract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]:
        kwargs: dict[str, Any] = dict(
            user_id=user_id, speaker=speaker, context=context,
            known_predicates=known_predicates, known_entities=known_entities,
        )
        claims, reading = self.offline.read(text, **kwargs)
        self.stats["messages"] += 1
        if not self.needs_llm(reading):
            self.stats["saved"] += 1
            return claims
        calls = self.llm.usage["calls"]
        self.stats["llm_messages"] += 1
        try:
            return self.llm.extract(text, **kwargs)
        finally:
            self.stats["llm_calls"] += self.llm.usage["calls"] - calls

    def extract_batch(self, texts: Sequence[str], **kwargs: Any) -> list[list[Claim]]:
        return [self.extract(text, **kwargs) for text in texts]
