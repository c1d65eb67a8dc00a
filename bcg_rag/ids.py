"""Stable ids and the text normalisation they rest on.

Ids are content hashes, so the same facts get the same ids in any process and in
any arrival order: that is what makes dedup and order independence cheap.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = " \t\r\n.,;:!?'\"`()[]{}<>，。；：！？、“”‘’（）【】《》"


def normalise_text(text: str) -> str:
    """What makes two evidence texts 'the same': NFKC, case and whitespace folded."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


@functools.lru_cache(maxsize=1 << 16)  # pure; search asks it of the same names and values over and over
def normalise_key(text: str) -> str:
    """Entity names and belief values: like normalise_text, minus surrounding punctuation."""
    return normalise_text(text).strip(_EDGE_PUNCT)


def clean_value(text: str) -> str:
    """A value as displayed: whitespace collapsed, surrounding punctuation removed, case kept."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().strip(_EDGE_PUNCT)


def stable_id(prefix: str, *parts: str) -> str:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:24]
    return f"{prefix}_{digest}"


def text_hash(text: str) -> str:
    return hashlib.sha256(normalise_text(text).encode("utf-8")).hexdigest()
