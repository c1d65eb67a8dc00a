"""What a text names: a place, a person or an organisation (by jieba's tags in Chinese, a
capitalised word inside an English sentence), a value or the start of one. Search reads raw
evidence with these (``unstructured.py``), and whether a text only asks or states something."""

from __future__ import annotations

import re
import weakref
from functools import lru_cache
from typing import Any

from .extract.devices import PREDICATE as PHONE_PREDICATE
from .extract.devices import phone_model
from .extract.races import PB_SUFFIX, RACE_TIME
from .extract.text import CJK_CHAR, has_cjk
from .relevance import memory_lexicon, named_in_question


def names_start_of(text: str, value: str) -> bool:
    """The text names the value, or its first word (two characters in Chinese): "恒通这边" names
    "恒通物流", "Brindle had a nice logo" names "Brindle Labs"."""
    head = value[:2] if has_cjk(value) else value.split()[0] if value.split() else value
    return bool(head) and (head in text if has_cjk(value) else named_in_question(text, {"v": head}))


EN_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w'&.-]+")  # a capitalised word not opening a sentence
ZH_NAME_TAGS = ("ns", "nr", "nt", "nz")


# The names a slot's value may be, by jieba's tag: a place for where one lives, an organisation
# (or a name jieba does not know) for an employer.
ZH_TAGS_OF = {"lives_in": ("ns",), "works_in": ("ns",), "headquarters": ("ns",), "located_in": ("ns",),
              "works_at": ("nt", "nz", "eng")}


@lru_cache(maxsize=8)
def _phone_named(lexicon: Any) -> re.Pattern:
    return re.compile(phone_model(lexicon), re.IGNORECASE)


def _cut(memory: Any, text: str) -> list:
    """jieba's (word, tag, offset) tokens of a Chinese text, with the memory's lexicon."""
    from .extract.zh import segmenter  # jieba loads its dictionary on first use only

    return segmenter(memory_lexicon(memory)).cut(text)


def names_something(memory: Any, text: str, predicate: str | None = None) -> bool:
    """The statement names a place, person or organisation (of the kind ``predicate``'s value
    is, where given): jieba's tags for Chinese, a capitalised word inside a sentence for English;
    a phone by its model ("back on a Pixel 8", not "replace the battery for now"); a race's best
    by a time ("26:35 now")."""
    if predicate == PHONE_PREDICATE:
        return _phone_named(memory_lexicon(memory)).search(text) is not None
    if predicate is not None and predicate.endswith(PB_SUFFIX):
        return RACE_TIME.search(text) is not None
    if has_cjk(text):
        tags = ZH_TAGS_OF.get(predicate or "", ZH_NAME_TAGS + ("eng",))
        return any(flag.startswith(tags) and (flag != "eng" or word[:1].isupper())  # a Latin word when capitalised
                   for word, flag, _ in _cut(memory, text))
    return bool(EN_NAME.search(text.strip()))


def names_every(memory: Any, query: str, values: dict[str, str]) -> bool:
    """The question names every one of the values: a one-character Chinese value ("猫") only
    as a word of its own ("带猫看病", not "熊猫"), which a substring test cannot tell."""
    named = named_in_question(query, values)
    single = {k for k, v in values.items() if k not in named and len(v) == 1 and has_cjk(v)}
    if single:
        words = {word for word, _, _ in _cut(memory, query)}
        named |= {k for k in single if values[k] in words}
    return named == set(values)


# A question at the start of a text, nothing said before it ("any tips for …?"; not "ugh, my
# knees. how do I …?").
LEADING_QUESTION = re.compile(r"^[^.!。！?？]*[?？]+")


def only_asks(text: str) -> bool:
    """A text that asks and says nothing else: a question with at most a short tail ("any tips
    for metal dust in hair? asking seriously", "有啥办法？在线等"); not "which is better? asking
    for me, Hangzhou life is getting boring", which says where one lives."""
    text = text.strip()
    if (asked := LEADING_QUESTION.match(text)) is None:
        return False
    rest = text[asked.end():]
    return len(rest.split()) <= 3 and len(CJK_CHAR.findall(rest)) <= 4


def self_as_subject(memory: Any, text: str) -> bool:
    """The speaker is a subject of the text ("me on my 4th coffee", "我也在那上班"), not only the
    owner of whom it is about ("my friend Kofi works at…", "我老公…")."""
    kin = memory_lexicon(memory).relative_regex.pattern
    return bool(re.search(rf"(?<![\w'])(?:i|i'm|i've|i'd|i'll|im|me|myself)(?![\w'])|我(?!的|们|(?:{kin}))", text, re.IGNORECASE))


# Evidence whose answer ``statement_reader`` keeps per extractor: the raw evidence a few
# hundred searches show; past it the kept answers are dropped and kept anew.
STATEMENTS_KEPT = 4096
_statements: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # extractor -> evidence id -> states something


def statement_reader(memory: Any):
    """The offline grammar's test for "states something" (the memory's extractor's, or the
    default lexicon's when the memory extracts with an LLM only), as ``reader(text,
    evidence_id)``. Its answers are kept per extractor by evidence id (an evidence id stands
    for its text, ``writing.py``; the answer is the grammar's alone): a search asks it of the
    same nearest evidence again and again."""
    reader = getattr(memory.extractor, "states_something", None) or getattr(
        getattr(memory.extractor, "offline", None), "states_something", None)
    if reader is None:
        from .extract import OfflineExtractor

        reader = memory.__dict__.setdefault("_statement_reader", OfflineExtractor().states_something)
    try:
        kept = _statements.setdefault(getattr(reader, "__self__", None), {})
    except TypeError:  # no extractor object to keep them by: asked each time
        return lambda text, evidence_id: reader(text)

    def states_something(text: str, evidence_id: str) -> bool:
        if (found := kept.get(evidence_id)) is None:
            if len(kept) >= STATEMENTS_KEPT:
                kept.clear()
            found = kept[evidence_id] = reader(text)
        return found
    return states_something
