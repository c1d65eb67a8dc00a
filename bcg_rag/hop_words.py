"""Words for multi-hop search (``hops.py``): what a statement says about the names in
it, and which of those words a question carries. Plain string work, no model: light
stemming for Latin script, character bigrams for CJK (no spaces to cut at)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_STOP = frozenset(
    "the and for with what which who whom whose where when how are was were is does did has have had this that from "
    "into about your you his her their its not now also than then there here been being do of in on at to by".split()
)
_SUFFIXES = sorted("ership ships ship ments ment ness ings ing ions ion ers er ors or ies ied ed es s al"
                   .split(), key=len, reverse=True)
CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
# Question words are no content: a bigram holding one ("什么", "在哪") says what is asked
# for, not about what, in a question and in the lexicon's phrasings of slots alike.
_CJK_QUESTION = frozenset("什么哪谁吗呢啥")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A light stem: one common suffix off, a final e off, at most six letters
    ("citizenship"/"citizen", "performer"/"performed", "located"/"location")."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word[:6]


def words(text: str) -> set[str]:
    """Content words: stemmed Latin words of three letters or more minus function words;
    CJK character bigrams (no spaces to cut at) without question words."""
    text = unicodedata.normalize("NFKC", text).casefold()
    latin = {_stem(w) for w in re.findall(r"[a-z0-9]{3,}", text) if w not in _STOP}
    return latin | {a + b for run in CJK_RUN.findall(text) for a, b in zip(run, run[1:])
                     if a not in _CJK_QUESTION and b not in _CJK_QUESTION}


def template(text: str, names: list[str]) -> set[str]:
    """The words of a statement with the names in it masked: what it says about them
    ("The headquarters of Bosch is in Stuttgart" -> {"headqu"})."""
    text = unicodedata.normalize("NFKC", text).casefold()
    for name in sorted((unicodedata.normalize("NFKC", n).casefold().strip() for n in names), key=len, reverse=True):
        if name:
            text = text.replace(name, " | ")
    return words(text) - set().union(*(words(n) for n in names))


@lru_cache(maxsize=1 << 14)  # pure; a search asks it of the same question and names for each subject
def normalise(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", unicodedata.normalize("NFKC", text).casefold()).split())
