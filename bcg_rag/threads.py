"""Chain questions over raw text: the thread of statements an organisation links.

"Which city is my brother's company in?" asks through something the question does not
name: the brother's employer, named in one message ("he's at Tessaly Bio now") and placed
in a later one ("Tessaly Bio's HQ is in Leiden"). When the extractor read neither, the
beliefs cannot follow the link (``hops.py`` does that for beliefs); a reader of the raw
statements can, by the names they share. ``chain_rows`` follows those names from the
statements about the subject asked about (and the best belief's value) to the statements
that name the same organisations, transitively, and returns those newer than every
statement it started from: the chain taken further, the newest read first.

Only for a question that *asks through* a role ("my son's school", "the studio Jake works
at", "我表姐现在那家公司", "我儿子学校在哪个区"); asked for the role itself ("which school
does Theo go to?", "他在哪家公司"), the subject's own statements answer. Names are
capitalised words inside a sentence (and one opening it that is no common word), with the
short forms chat uses ("Fernhill" for "Fernhill Games", "Elm Park" for "Elm Park School");
in Chinese, three characters shared with no function character among them ("育英小学",
"云启数据"), not the question's own words. Names the question says are the subject, not
a link. Plain string work over rows already retrieved: no embedding, no store access.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .extract.text import has_cjk
from .relevance import is_wh_question

_EN_ROLES = ("company|employer|firm|studio|school|college|university|hospital|clinic|office|team|startup|lab|agency"
             "|practice|shop|store|restaurant|bakery|gym|club|band|academy|nursery|kindergarten|daycare|workplace")
# A role someone has: "my son's school", "her company", "the studio Jake works at". Lower
# case: "University of California" is a name.
_EN_ROLE = re.compile(rf"(?:'s|\b(?:[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|[Yy]our|[Tt]he|[Tt]hat))\s+"
                      rf"(?:(?:new|current|old|former|favou?rite)\s+)?(?P<role>(?:{_EN_ROLES})s?)\b")
# The role asked for itself: "which school", "what company", "what's my brother's company
# called?", "what is the user's favorite band?", "who is the user's employer?".
_EN_ROLE_ASKED = re.compile(
    rf"\b(?:which|what|whose)\s+(?:[a-z-]+\s+)?(?:{_EN_ROLES})s?\b"
    rf"|\b(?:what|which|who)(?:'s|\s+is|\s+was|\s+are)\s+(?:(?:the|a|my|our|your|his|her|their|[\w-]+'s)\s+)*"
    rf"(?:[a-z-]+\s+){{0,2}}?(?:{_EN_ROLES})s?(?=\s*(?:called|named|now|again|these\s+days)?\s*[?.!]*\s*$)",
    re.IGNORECASE)
_ZH_ROLES = "公司|单位|东家|学校|小学|中学|大学|幼儿园|医院|诊所|工作室|团队|店|队|俱乐部|社团|协会|合唱团|乐团"
_ZH_ROLE = re.compile(rf"(?:{_ZH_ROLES})")
_ZH_ROLE_ASKED = re.compile(rf"(?:哪|什么|啥)(?:一|个|家|所|间|种)?(?:{_ZH_ROLES})|(?:{_ZH_ROLES})(?=(?:是|叫)(?:哪|什么|啥))")
_ZH_ROLE_LAST = re.compile(rf"(?:{_ZH_ROLES})[吗呢啊呀吧？?。！!\s]*$")

# The last word of an organisation's name that a chat leaves out: "Elm Park School" is
# "Elm Park" in "met Elm Park's headteacher"; "星桥数据科技" is "星桥数据".
_KIND_WORDS = frozenset("school academy college university elementary primary high inc ltd llc corp corporation"
                        " company co group labs lab hospital clinic bank studio studios games".split())
_KIND_SUFFIX = re.compile(r"(?:公司|集团|学校|中学|小学|大学|学院|医院|银行|科技|幼儿园)$")

_EN_CAPITALISED = re.compile(r"(?<![\w'])[A-Z][\w&.-]*(?:'s)?(?:\s+(?:&\s+)?[A-Z][\w&.-]*(?:'s)?)*")
# Capitalised at a sentence's start, or always, and no name: pronouns, chat fillers, dates.
_NOT_NAMES = frozenset((
    "i im i'm i've i'd i'll the a an my our your his her their he she they we it this that these those what which who"
    " where when how why ok okay so and but also hey hi lol omg ugh btw anyway honestly update just oh yeah yes no well"
    " today yesterday tomorrow finally still now then tbh idk fyi haha wow great"
    " monday tuesday wednesday thursday friday saturday sunday january february march april may june july august"
    " september october november december").split())
_SHORT_FORM_MIN = 5  # a multi-word name's first word stands for it when this long ("Fernhill", not "New")

# Characters of pronouns, particles, prepositions, measures and time words: a run holding
# one is phrasing ("下个月", "现在在"), not a name. Jieba is no help here: it cuts a name it
# does not know into pieces of any tag ("青柠文化" as 青/ns 柠/zg 文化/n).
_ZH_FUNCTION_CHARS = frozenset("我你他她它们的了在是有和跟与也都就还很太挺这那哪个么吗呢吧啊呀哦嘛说去到从给要会能想过着得地"
                               "每天月年日号点上下里后前再又才刚已经把被让对为于之")
_ZH_LINK = 3  # characters two statements share to name the same thing: "育英小学", not "儿子"


def value_forms(value: str) -> dict[str, str]:
    """A value and the short name a chat calls it by, each keyed by itself (as
    ``relevance.named_in_question`` takes them)."""
    forms = [value]
    words = value.split()
    if len(words) >= 2 and words[-1].casefold().strip(".") in _KIND_WORDS and len(" ".join(words[:-1])) >= 4:
        forms.append(" ".join(words[:-1]))
    short = _KIND_SUFFIX.sub("", value)
    if has_cjk(value) and short != value and len(short) >= 2:
        forms.append(short)
    return {form: form for form in forms}


def asks_through(query: str) -> bool:
    """The question names a role it does not ask for: its answer is a fact of that
    organisation, reached through the subject ("where is my son's school?")."""
    if not is_wh_question(query):
        return False
    if has_cjk(query):
        asked = {at for m in _ZH_ROLE_ASKED.finditer(query) for at in m.span()}
        return any(m.end() not in asked and m.start() not in asked and not _ZH_ROLE_LAST.match(query, m.start())
                   for m in _ZH_ROLE.finditer(query))
    asked = {m.end() for m in _EN_ROLE_ASKED.finditer(query)}
    return any(m.end("role") not in asked for m in _EN_ROLE.finditer(query))


def en_names(text: str) -> set[str]:
    """Capitalised runs, split at a possessive, without the fillers that open them
    ("So Jake"), with their short forms."""
    out: set[str] = set()
    for m in _EN_CAPITALISED.finditer(text):
        for part in re.split(r"'s\b\s*", m.group()):
            words = part.split()
            while words and words[0].casefold().rstrip(".") in _NOT_NAMES:
                words.pop(0)
            if not words:
                continue
            out.update(value_forms(" ".join(words).rstrip(".")))
            if len(words) >= 2 and len(words[0]) >= _SHORT_FORM_MIN:
                out.add(words[0])
    return out


def zh_links(text: str, query: str) -> set[str]:
    """The character runs of ``text`` that may name something (``_ZH_LINK`` characters, none
    of them a function character, and no two of them a word of the question): "蓝鲸互",
    "育英小"; not "下个月", "现在在" or "我闺蜜" (the question's own subject)."""
    out: set[str] = set()
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        for i in range(len(run) - _ZH_LINK + 1):
            piece = run[i:i + _ZH_LINK]
            if not any(ch in _ZH_FUNCTION_CHARS for ch in piece) and not any(piece[j:j + 2] in query for j in range(_ZH_LINK - 1)):
                out.add(piece)
    return out


def named(name: str, text: str, any_case: bool = False) -> bool:
    """``name`` in ``text``: as whole words for Latin script (in any case with
    ``any_case``: chat types "pellucid's studio" for Pellucid Games), anywhere for Chinese."""
    if has_cjk(name):
        return name in text
    flags = re.IGNORECASE if any_case else 0
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text, flags) is not None


def chain_rows(query: str, starts: list[dict], rows: list[dict], values: Iterable[str]) -> list[dict]:
    """The chain of ``starts`` (what is said of the subject asked about) taken further,
    newest first: the rows (starts among them) naming a name that another row of the chain,
    or one of the belief ``values``, said, transitively; of them, those newer than every
    start that links to nothing (a start naming only its own names, such as a later
    "he moved to Acme", ends the chain there)."""
    if not starts:
        return []
    asked = en_names(query)
    value_names = {f for v in values for f in value_forms(v) if f not in query}
    pool = {r["id"]: r for r in [*starts, *rows] if r["text"]}
    names = {i: (en_names(r["text"]) - asked) | zh_links(r["text"], query) for i, r in pool.items()}
    said = {s["id"] for s in starts if s["id"] in pool}  # rows whose names the chain may follow
    chain: set[str] = set()
    grew = True
    while grew:
        grew = False
        for i, row in pool.items():
            followed = value_names | {n for o in said - {i} for n in names[o]}
            if i not in chain and any(named(n, row["text"], any_case=True) for n in followed):
                chain.add(i)
                said.add(i)
                grew = True
    newest_end = max((str(s["timestamp"]) for s in starts if s["id"] not in chain), default="")
    listed = {r["id"] for r in rows}
    further = [pool[i] for i in chain if str(pool[i]["timestamp"]) > newest_end and i in listed]
    return sorted(further, key=lambda r: (str(r["timestamp"]), r["id"]), reverse=True)
