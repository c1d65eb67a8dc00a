"""What the offline extractor reads, as plain tuples: the helper the extraction tests share."""

from __future__ import annotations

from typing import Any

from bcg_rag.extract import OfflineExtractor

USER = "u1"


def triples(extractor: OfflineExtractor, text: str, **kwargs: Any) -> list[tuple]:
    """(subject, predicate, value, stance) per claim; a claim that falls due later
    (``Claim.starts_in_days``) carries its days as a fifth element."""
    kwargs.setdefault("user_id", USER)
    return [(c.subject, c.predicate, c.value, c.stance) + ((c.starts_in_days,) if c.starts_in_days else ())
            for c in extractor.extract(text, **kwargs)]


def say_dated(memory: Any, *dated: tuple[str, str]) -> None:
    """The user's messages, each (timestamp, text), through ``add_message``."""
    for at, text in dated:
        memory.add_message(text, user_id=USER, timestamp=at)
