"""What the offline extractor reads, as plain tuples: the helper the extraction tests share."""

from __future__ import annotations

from typing import Any

from bcg_rag.extract import OfflineExtractor

USER = "u1"


def triples(extractor: OfflineExtractor, text: str, **kwargs: Any) -> list[tuple[str, str, str, float]]:
    kwargs.setdefault("user_id", USER)
    return [(c.subject, c.predicate, c.value, c.stance) for c in extractor.extract(text, **kwargs)]
