"""Restatements: two statements that differ in one span name one slot with two values.

``restatement_diff`` finds the span; ``statement_key`` names a whole statement as a slot;
``competing`` says whether the two values of a diff may compete (precision first: only a
single-valued slot, a definite description, or a text that itself says the change).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .lexicon import Lexicon, default_lexicon
from .text import CJK, EDGE_PUNCTUATION, collapse
from .grammar import Grammar
from .whereabouts import is_region
from .grammar import AGO_TAIL, DURATION_TAIL, YEAR_TAIL, ZH_DURATION, ZH_DURATION_TAIL

@dataclass(frozen=True)
class SlotDiff:
    template: str  # shared text, differing span as "{}"; lower-case, single spaces, no final punctuation
    old_value: str  # the span in the old text ("" if inserted)
    new_value: str  # the span in the new text ("" if removed)
    negated: bool  # the only difference is an inserted or removed negation


# Chinese characters are one token each; other words keep inner apostrophes ("Grey's");
# punctuation inside the text is a token of its own.
TOKEN = re.compile(rf"[{CJK}]|(?:(?![{CJK}])[\w'’])+|[^\w\s]")


def tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def normalise_statement(text: str) -> str:
    return collapse(text).strip(EDGE_PUNCTUATION).lower()


def restatement_diff(old_text: str, new_text: str, *, min_shared: float = 0.6) -> SlotDiff | None:
    """How ``new_text`` restates ``old_text``: the one span that changed, if the rest is shared.

    "X plays the position of defender" -> "... of linebacker" is a new value ("linebacker")
    for the slot "x plays the position of {}". Returns None when the texts are the same or
    share too little (fewer than ``min_shared`` of the shorter text's tokens, or < 2 tokens:
    against the longer one, a long new value such as "Sony Interactive Entertainment" hid
    that the rest of the sentence is the same).
    """
    # Time words at the ends say when, not what: "I drink tea every morning now" restates
    # "I drink coffee every morning" with one span changed.
    old = _untimed(collapse(old_text)) or collapse(old_text).strip(EDGE_PUNCTUATION)
    new = _untimed(collapse(new_text)) or collapse(new_text).strip(EDGE_PUNCTUATION)
    old_tokens, new_tokens = tokens(old), tokens(new)
    old_keys = [t.group().casefold().replace("’", "'") for t in old_tokens]
    new_keys = [t.group().casefold().replace("’", "'") for t in new_tokens]
    if old_keys == new_keys:
        return None
    prefix = 0
    while prefix < min(len(old_keys), len(new_keys)) and old_keys[prefix] == new_keys[prefix]:
        prefix += 1
    suffix = 0  # never overlapping the prefix
    while (
        suffix < min(len(old_keys), len(new_keys)) - prefix
        and old_keys[-1 - suffix] == new_keys[-1 - suffix]
    ):
        suffix += 1
    shared = prefix + suffix
    if shared < 2 or shared < min_shared * min(len(old_keys), len(new_keys)):
        return None
    # A proper name is one value: "United Kingdom" -> "United States of America" changes the
    # whole name, not just the words after "United".
    while prefix and all(
        len(toks) > prefix and _capitalised(toks[prefix - 1].group()) and _capitalised(toks[prefix].group())
        for toks in (old_tokens, new_tokens)
    ):
        prefix -= 1

    def span(text: str, toks: list[re.Match[str]]) -> tuple[int, int]:
        """Character range of the differing tokens; an empty range at the insertion point."""
        if len(toks) - suffix > prefix:
            return toks[prefix].start(), toks[len(toks) - suffix - 1].end()
        at = toks[prefix].start() if prefix < len(toks) else len(text)
        return at, at

    def values() -> tuple[str, str, str]:
        old_start, old_end = span(old, old_tokens)
        new_start, new_end = span(new, new_tokens)
        # The template comes from the side that has the span, so "{}" stands where the words were.
        if old_end > old_start:
            template = old[:old_start] + "{}" + old[old_end:]
        else:
            template = new[:new_start] + "{}" + new[new_end:]
        return old[old_start:old_end], new[new_start:new_end], template

    old_value, new_value, template = values()
    if old_value and new_value and suffix and _region_tail(new[new_tokens[len(new_tokens) - suffix].start():]):
        # A name and, after a comma, the region it is in are one value: "South China Mall,
        # Dongguan, China" -> "Golden Resources Mall, Beijing, China" changes the whole place.
        suffix = 0
        old_value, new_value, template = values()
    elif old_value and new_value and 0 < suffix <= 2 and _noun_tail([t.group() for t in new_tokens[len(new_tokens) - suffix:]]):
        # The shared words after the span finish one noun phrase: "Gaelic football" ->
        # "association football" changes the whole sport, not one word of it.
        suffix = 0
        old_value, new_value, template = values()
    negation_words = {collapse(p).casefold() for p in default_lexicon().words("negation", "phrases")}
    changed = collapse(old_value or new_value).casefold().replace("’", "'")
    negated = (not old_value or not new_value) and changed in negation_words
    if not negated and (not old_value or not new_value):
        # Words added or dropped at the end of a value ("rugby union" -> "rugby"): the value
        # is the shared word plus what changed, so take one shared token into the span.
        if prefix:
            prefix -= 1
        else:
            suffix -= 1
        old_value, new_value, template = values()
    if not negated:
        # "red" -> "blue now": the time word says when, it is not part of the value.
        old_value, new_value = without_time(old_value), without_time(new_value)
        if old_value.casefold() == new_value.casefold():
            return None  # only a time word changed: "I live in Paris" / "I live in Paris now"
    return SlotDiff(normalise_statement(template), old_value.strip(EDGE_PUNCTUATION), new_value.strip(EDGE_PUNCTUATION), negated)


def _region_tail(tail: str) -> bool:
    """The shared words after a span are only ", <country or state>" (", China", ", Texas")."""
    m = re.fullmatch(r"\s*,\s*(.+?)", tail.strip(EDGE_PUNCTUATION.replace(",", "")))
    return bool(m) and is_region(m.group(1))


def _noun_tail(words: list[str]) -> bool:
    """Words that can end a noun phrase: Latin words, none an adverb, filler, time or "also"-word."""
    lex = default_lexicon()
    for word in words:
        key = word.casefold()
        if not re.fullmatch(r"[A-Za-z][\w'-]*", word) or key.endswith("ly"):
            return False
        if key in lex.adverbs or lex.around_value.lead.match(key) or lex.additive_markers.lead.match(key):
            return False
        if lex.time.lead.match(key) or key in lex.prepositions or key in lex.negation_words:
            return False
    return True


def _capitalised(token: str) -> bool:
    return token[:1].isupper()


def without_time(text: str, lexicon: Lexicon | None = None) -> str:
    """``text`` without time phrases at either end: "blue now" -> "blue", "现在住在苏州" stays."""
    lex = lexicon or default_lexicon()
    previous = None
    while text != previous:
        previous = text
        text = text.strip(EDGE_PUNCTUATION)
        for pattern in (lex.time.lead, lex.time.trail, YEAR_TAIL, AGO_TAIL, DURATION_TAIL, ZH_DURATION_TAIL):
            m = pattern.search(text)
            if m and m.group().strip():
                text = (text[: m.start()] + " " + text[m.end():]).strip()
    return "" if re.fullmatch(ZH_DURATION, text) else collapse(text)  # a diff span "三年了" is all time


@functools.lru_cache(maxsize=1 << 16)
def _untimed(text: str) -> str:
    """``without_time`` with the shipped lexicon, remembered: ingestion compares each new
    statement with its neighbours, and a neighbour's text comes back pair after pair. With
    many users a user's neighbours were said many messages ago: 8,192 texts missed nearly
    every time with 1,000 users (a chat message and its result: ~20 MB at 65,536)."""
    return without_time(text)


def statement_key(text: str) -> str:
    """A whole statement as a slot name: lower-case, single spaces, no final punctuation.

    Negation words are removed, so a statement and its negation share one key
    ("Alex no longer plays defender" ~ "Alex plays defender"): the sign belongs in
    the stance, not in the slot name.
    """
    without_negation = default_lexicon().negation.anywhere.sub(" ", collapse(text))
    # Chinese has no spaces: don't leave one where "不" was ("小张不喜欢茶" -> "小张喜欢茶").
    without_negation = re.sub(rf"(?<=[{CJK}])\s+(?=[{CJK}])", "", without_negation)
    return normalise_statement(without_negation)



# ------------------------------------------------------------------ may two values compete?

# Definite singular descriptions before the value: they name one thing.
DEFINITE = (
    re.compile(r"^(?:the)\s+.+\s+(?:is|was)\s+$"),  # "the capital of x is {}", "the company that produced x is {}"
    re.compile(r"^(?:my|your|our|his|her|their|its|[^\s]+'s)\s+(?:[\w-]+\s+){0,3}?[\w-]*[^s\s]\s+(?:is|was)\s+$"),
    re.compile(r"\bthe\s+(?:[\w-]+\s+){1,3}(?:of|for)\s+$"),  # "plays the position of {}", "in the country of {}"
    re.compile(r"\b(?:is|was|are|were)\s+\w+(?:ed|en|wn|ne|lt|ht)\s+by\s+$"),  # "was developed by {}": one event's agent
    re.compile(r"的[^的{}]{1,8}(?:是|为|在|位于)$"),  # "x的首都是{}"
    re.compile(r"(?:^|\s)(?:a|answer|答)\s*[:：]\s*$"),  # "q: who ... a: {}": the answer to one question
)


def value_position(template: str) -> bool:
    """The changed span is the value: it comes after the subject and verb, at the end
    (Chinese: or inside a short verb frame such as 在{}工作), not in the subject."""
    before, _, after = template.partition("{}")
    if not before.strip():
        return False
    after_tokens = tokens(after)
    return len(after_tokens) <= (2 if re.search(f"[{CJK}]", after) else 1)


def definite(template: str) -> bool:
    before = template.partition("{}")[0]
    return any(p.search(before) for p in DEFINITE)


def competing(
    diff: SlotDiff, newer_text: str, *, single_valued: bool = False, lexicon: Lexicon | None = None
) -> bool:
    """Whether the two values of a restatement pair may compete (the newer replaces the older).

    Precision first: only where the changed span is the value (not the subject) and the
    slot is single-valued (``single_valued``: by lexicon or policy), or the template is a
    definite singular description ("the capital of X is {}", "my favourite X is {}",
    "X的Y是{}"), or the newer text itself says the change ("moved to", "now", "不再") without
    saying it adds ("also", "too", "也"). "I have a {}", "I speak {}", "I like {}" are
    many-valued: two values there are two facts. A newer text that says it adds ("I also
    work at Globex", ``Grammar.says_additive``) never competes, whatever the slot.
    """
    if not value_position(diff.template):
        return False
    lex = lexicon or default_lexicon()
    grammar = Grammar(lex)
    if grammar.says_additive(newer_text):
        return False  # "I also work at Globex on weekends": a second value, even in a single-valued slot
    if single_valued or definite(diff.template):
        return True
    text = collapse(newer_text)
    # Chinese markers count as words only (改 is no change inside 改善, 换 none inside 交换)
    says_change = grammar.marker(lex.change_markers.anywhere, text) is not None
    return says_change and grammar.marker(lex.additive_markers.anywhere, text) is None
