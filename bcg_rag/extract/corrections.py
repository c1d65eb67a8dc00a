"""Self-corrections inside a message: "现在住望京——哦不对，严格说是酒仙桥", "I live in Leeds,
sorry, I mean Bradford", "we moved to Leeds - no wait, Bradford".

People who talk (or dictate) correct a name they just said. Read clause by clause, the wrong
name is a claim and the right one is a bare name that reads as nothing, so the memory kept
the name the speaker took back. Here the correction is applied to the text before any rule
reads it: the name said last in the clause before is replaced by the corrected one, and the
correcting clause is emptied. Only an explicit marker starts a correction (不对, 说错了, "no
wait", "sorry" before it; 严格说是, 准确地说, "I mean", "or rather", "make that" leading it),
and only a bare name of the same kind corrects: "I mean, it's fine" or "不对，我再想想" change
nothing.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from .text import has_cjk

Tokens = Callable[[str], Sequence[tuple[str, str, int]]]  # jieba words: (word, flag, offset)

# A marker that takes back what was just said, at the end of a clause or as one of its own
_ZH_MARK = r"(?:哦|噢|呃|额|啊)?(?:不对不对|不对|说错了|口误)"
_EN_MARK = r"(?:(?:oh|um|uh|er|well)\s+)?(?:no\s+wait|wait\s+no|wait|sorry|no|correction)"
MARK_AT_END = re.compile(rf"\s*(?:——|—|–|--|-|…)+\s*(?:{_ZH_MARK}|(?i:{_EN_MARK}))$")
MARK_ALONE = re.compile(rf"{_ZH_MARK}|(?i:{_EN_MARK})")
# A clause that says what was meant: after a marker, or by itself with a lead that only corrects
ZH_LEAD = re.compile(r"^(?:(?P<strict>(?:严格|准确|确切|具体)(?:地|点|来)?说(?:的话)?)?(?:是|应该是|其实是)?)")
EN_LEAD = re.compile(r"^(?:(?P<strict>i\s+mean|(?:or|well)\s+rather|make\s+that)\s*,?\s*|(?:actually|technically)\s*,?\s*)?"
                     r"(?:(?:in|at|to|for|with|from)\s+)?", re.IGNORECASE)
EN_NAME = re.compile(r"[A-Z][\w'&.-]*(?:\s+(?:of|de|la|du|[A-Z][\w'&.-]*))*")
ZH_NOUN_KINDS = {"ns": ("ns",), "nt": ("nt", "nz"), "nz": ("nt", "nz"), "nr": ("nr",)}


def _zh_corrected(before: str, name: str, tokens: Tokens) -> str | None:
    """The clause before, its last word of the corrected name's kind replaced by it."""
    said = tokens(name)
    if not 2 <= len(name) <= 10 or not said or not all(flag.startswith("n") for _, flag, _ in said):
        return None
    kinds = ZH_NOUN_KINDS.get(said[-1][1], ("ns", "nt", "nz", "nr"))
    wrong = [(word, at) for word, flag, at in tokens(before) if flag in kinds]
    if not wrong:
        return None
    word, at = wrong[-1]
    return before[:at] + name + before[at + len(word):]


def _en_corrected(before: str, name: str) -> str | None:
    """The clause before, the last name in it (not its first word) replaced by the corrected one."""
    if not EN_NAME.fullmatch(name) or len(name.split()) > 5:
        return None
    wrong = [m for m in EN_NAME.finditer(before) if m.start() > 0]
    if not wrong:
        return None
    last = wrong[-1]
    return before[: last.start()] + name + before[last.end():]


def _corrected(before: str, clause: str, marked: bool, tokens: Tokens) -> str | None:
    if has_cjk(clause):
        lead = ZH_LEAD.match(clause)
        if not (marked or lead["strict"]):
            return None
        return _zh_corrected(before, clause[lead.end():].strip(), tokens)
    lead = EN_LEAD.match(clause)
    if not (marked or lead["strict"]):
        return None
    return _en_corrected(before, clause[lead.end():].strip().rstrip(".!"))


def corrections_applied(parts: list[str], tokens: Tokens) -> list[str]:
    """The clauses with each self-correction applied: the corrected clause says the meant name,
    the marker and the correcting clause are left empty (read as nothing)."""
    out: list[str] = []
    marked = False  # a marker was said since the last clause that states something
    for part in parts:
        if out and MARK_ALONE.fullmatch(part.strip()):
            out.append("")
            marked = True
            continue
        stated = next((i for i in range(len(out) - 1, -1, -1) if out[i]), None)
        if stated is not None and (fixed := _corrected(out[stated], part.strip(), marked, tokens)):
            out[stated] = fixed
            out.append("")
            marked = False
            continue
        marked = False
        if (mark := MARK_AT_END.search(part)) and mark.start() > 0:
            out.append(part[: mark.start()])
            marked = True
            continue
        out.append(part)
    return out
