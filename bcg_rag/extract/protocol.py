"""What every extractor offers: claims from one message (``OfflineExtractor``,
``LLMExtractor``, ``CascadeExtractor``, or a user's own)."""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from ..models import Claim


@runtime_checkable
class Extractor(Protocol):
    def extract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]: ...
