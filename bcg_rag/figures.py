"""Figures: counts, frequencies, times and amounts the extractor did not read.

Asked "how many steps a day does the user get?", a reader of dated quotes takes the newest
one that states a figure on the thing asked about ("lucky to hit 3,000 steps a day" after
"doing 11k a day"), not the one whose words are nearest the question ("I'm averaging about
6k steps a day"): a figure changes; it is restated, seldom taken back. ``latest_figure``
finds that text among the raw rows search returns, for ``unstructured.py`` to mark.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .asked import refers_to_user, slot_name, speaks_of_relation
from .hop_words import words
from .models import HIDDEN_TEXT, WEAKER_SOURCES
from .naming import only_asks, self_as_subject
from .relevance import memory_lexicon

# A question that asks for a figure: how many / much / often / long..., 几, 多少, 多久...
ASKS_FIGURE = re.compile(
    r"\bhow\s+(?:many|much|often|frequently|long|far|fast|heavy|old|big)\b"
    r"|\bwhat(?:'s|\s+is|\s+was)\s+(?:the\s+user's|their|his|her|my)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:time|pb|personal\s+best|record|weight|rent|salary|price|pace)\b"
    r"|(?<!星期|礼拜)(?<!周)几(?!乎|号|月|日)|多少|多久|多长时间|多重|多快|多远|多大|频率",
    re.IGNORECASE)

# A question that asks for an age: the one figure an age slot answers.
ASKS_AGE = re.compile(r"\bhow\s+old\b|\bages?\b|几岁|多大|年龄|岁数|年纪", re.IGNORECASE)


def of_figure_asked(query: str, predicate: str, value: str, of_kind: bool | None) -> bool | None:
    """``of_kind`` (``asked.of_asked_kind``), except that a question asking for a figure is not
    answered by a value that states none ("how many cats does my sister have?" against "sister:
    has cat"), nor by an age unless it asks one ("how many steps a day does my dad walk?"
    against "Dad: age 71", though both are numbers): such a slot is read from its quote."""
    if not ASKS_FIGURE.search(query):
        return of_kind
    if not FIGURE.search(value) or slot_name(predicate) == "age" and not ASKS_AGE.search(query):
        return False
    return of_kind


_EN_NUMBER = (r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty"
              r"|hundred|thousand|once|twice|dozen|half|couple")
_ZH_MEASURE = r"个|只|本|次|辆|台|天|周|月|年|岁|公斤|斤|块|元|杯|趟|遍|回|条|双|部|分钟|秒|小时|公里|米|万|千|百"
# A text that states a figure: digits, a number word, "a book a week", 两只, 一周三次.
FIGURE = re.compile(
    rf"\d|\b(?:{_EN_NUMBER})\b|\b(?:a|an|per|every|each)\s+(?:day|week|month|year|night|morning)\b"
    rf"|\b(?:daily|weekly|monthly)\b|[一二两三四五六七八九十百千万半]+(?:{_ZH_MEASURE})",
    re.IGNORECASE)

# Relevance below the best figure-stating text that still counts as speaking of the same
# figure (a cosine; the words shared with the question say what it is about).
FIGURE_MARGIN = 0.3

# Words of a question that say it asks for a figure or about the user, not about what:
# shared with a message, they say nothing of its topic (``hop_words.words`` stems).
_ASKING = frozenset({"many", "much", "often", "long", "user", "get", "got", "currently", "still", "usual", "total",
                     "time", "用户", "现在", "目前", "多少", "一共", "总共", "一般", "平时", "大概", "是多", "少钱"})


def _words(text: str) -> set[str]:
    """The content words and Chinese character pairs of ``text`` (``hop_words.words``) that can
    say what it is about."""
    return words(text) - _ASKING


def subject_test(memory: Any, query: str) -> Callable[[str, str], bool]:
    """Whether a clause (of a text) can state the figure of whom ``query`` asks about: asked
    about a relative ("how many steps does my dad walk?"), a text naming that relation; asked
    about the user, a clause where the speaker is a subject or that names no relative and no
    "he" or "she" ("Dad's down to about 5,000 steps" is not the user's count; "since we got
    Biscuit I'm doing 11k a day, she needs two walks" is); else any."""
    if (relation := speaks_of_relation(memory, query)) is not None:
        return lambda clause, text: relation(text)
    if not refers_to_user(query):
        return lambda clause, text: True
    kin = memory_lexicon(memory).relative_regex
    return lambda clause, text: (self_as_subject(memory, clause) and not kin.search(clause)
                                 or not (kin.search(clause) or _THIRD.search(clause)))


_THIRD = re.compile(r"\b(?:he|she|he's|she's|his|her)\b|他|她", re.IGNORECASE)
# (a comma or point between digits is inside a number: "14,000", "5.5")
_CLAUSE_END = re.compile(r"(?:(?<!\d)[,.]|[,.](?!\d)|[;:!?，。；：！？…])+\s*|\s+(?:but|so|and|while|whereas)\s+", re.IGNORECASE)


def states_figure(text: str, asked: set[str], on_subject: Callable[[str, str], bool]) -> bool:
    """``text`` shares a content word with the question (``asked``) and one of its clauses
    states a figure about whom it asks (``on_subject``): "Since we got Biscuit I'm doing 11k
    a day" answers "how many steps a day?" without the word "steps"."""
    return bool(asked & _words(text)) and any(FIGURE.search(clause) and on_subject(clause, text)
                                              for clause in _CLAUSE_END.split(text))


def latest_figure(query: str, rows: list[dict], on_subject: Callable[[str, str], bool] = lambda clause, text: True,
                  skip_nearest: bool = True) -> str | None:
    """The id of the newest raw row stating a figure on what ``query`` asks about, when the
    question asks for a figure and (``skip_nearest``) that row is not already the most relevant
    one, which a reader of the raw rows takes first anyway; else None.
    Candidates state it in a clause (``states_figure``) and are within ``FIGURE_MARGIN`` of
    the most relevant such row (``relevance`` as search set it). Rows search marked as said in the asked context, or as
    speaking of whom it asks about, are the only candidates when there are any (they are read
    first); a record's or a guess's figure is not the user's word."""
    if not rows or not ASKS_FIGURE.search(query):
        return None
    given = rows
    for flag in ("in_asked_context", "about_asked"):
        if any(u.get(flag) for u in rows):
            rows = [u for u in rows if u.get(flag)]
    asked = _words(query)
    figured = [u for u in rows if u["text"] != HIDDEN_TEXT and not only_asks(u["text"])
               and u.get("source_type") not in WEAKER_SOURCES
               and states_figure(u["text"], asked, on_subject)]
    if not figured:
        return None
    best = max(u.get("relevance", 0.0) for u in figured)
    near = [u for u in figured if u.get("relevance", 0.0) >= best - FIGURE_MARGIN]
    newest = max(near, key=lambda u: (str(u["timestamp"]), str(u["id"])))
    # (of all the rows: a reader takes the flagged ones by relevance, whichever flag)
    nearest = max(given, key=lambda u: (u.get("relevance", 0.0), str(u["timestamp"])))
    return None if newest is nearest and skip_nearest else newest["id"]


def asks_figure(query: str) -> bool:
    """The question asks for a figure (``ASKS_FIGURE``)."""
    return bool(ASKS_FIGURE.search(query))


def mark_latest_figure(memory: Any, query: str, rows: list[dict], unread: set[str], groups: list,
                       relevance: dict[str, float], group_rows: list[dict], asked_fit: float) -> tuple[list[dict], bool]:
    """``rows`` with the newest text stating the figure asked marked ``latest_figure``
    (``latest_figure`` over the ``unread`` rows, ``group_rows``, the other groups' evidence, and
    the best group's quotes, added to the rows when marked), and whether it is to be read
    before the best group: when that group is read from its quote (a value of another kind than asked, or a
    predicate below ``asked_fit``: "Dad: age 71", quoted "my dad is 71 and walks 15,000 steps
    a day"), a newer figure in words comes before the quote."""
    if not asks_figure(query):
        return rows, False
    best = groups[0] if groups else None
    fit = getattr(best, "predicate_fit", None)
    by_quote = (best is not None and best.current is not None
                and (best.of_asked_kind is False or fit is not None and fit < asked_fit))
    quoted = ([dict(s, id=s["evidence_id"], relevance=relevance.get(s["evidence_id"], -1.0)) for s in best.supporters]
              if by_quote else [])
    candidates = [u for u in rows if u["id"] in unread] + group_rows + quoted
    figure = latest_figure(query, candidates, subject_test(memory, query), skip_nearest=not by_quote)
    if figure is None:
        return rows, False
    # the best group's own quote may be the newest figure: then it is read as it would be, and
    # among the raw texts first, when those are read first ("上半年一共读了11本" before "一季度读完了5本书")
    listed = {u["id"] for u in rows}
    rows = rows + [u for u in group_rows + quoted if u["id"] == figure and u["id"] not in listed][:1]
    rows = [dict(u, latest_figure=True) if u["id"] == figure else u for u in rows]
    return rows, by_quote and figure not in {q["id"] for q in quoted}
