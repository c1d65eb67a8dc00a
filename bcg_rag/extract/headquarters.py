"""An organisation moving its headquarters: "Northwind moved its headquarters to Boston",
"the company's head office officially moved to Amsterdam", "腾讯把总部搬到了深圳",
"我们公司把总部从广州迁到成都了". Said of the speaker's company without its name ("our
company", "公司"), the subject is ``employer_of(user)``: search reads it as the employer the
user had then (``bcg_rag/employer.py``). A change: the new place replaces the old.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import CJK, ZH_GENERIC_PLACES, collapse, employer_of

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

EN_MOVED_HQ = re.compile(
    r"^(?:(?P<ref>(?:our|my|the)\s+(?:company|employer|firm)|we)|(?P<org>(?-i:[A-Z][\w&'.-]*(?:(?:\s+&)?\s+[A-Z][\w&'.-]*){0,3})))\s+"
    r"(?:(?:just|has|have|officially|finally|recently|already|quietly)\s+){0,2}"
    # "Corvane just announced they're relocating HQ to Nashville": news of the move, said by the company
    r"(?:announced\s+(?:that\s+)?(?:they(?:'re|\s+are)|it(?:'s|\s+is))\s+(?:relocating|moving)|moved|relocated|moves|is\s+moving"
    r"|(?:finished|done)\s+(?:moving|relocating))\s+"  # "finished moving head office out to Saltmarsh Park"
    r"(?:(?:its|their|our|the)\s+)?(?:whole\s+|entire\s+)?(?:headquarters|hq|head\s+office|main\s+office)\s+"
    r"(?:from\s+\S.*?\s+)?(?:(?:out|over|down|up)\s+)?to\s+(?P<place>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})",
    re.IGNORECASE,
)
# The office as the subject: "the company's head office officially moved to Amsterdam", "our HQ is moving to Leeds"
EN_HQ_MOVED = re.compile(
    r"^(?:(?P<ref>(?:our|my|the)\s+(?:company's|employer's|firm's)|our)|(?P<org>(?-i:[A-Z][\w&'.-]*(?:(?:\s+&)?\s+[A-Z][\w&'.-]*){0,3}))'s)\s+"
    r"(?:headquarters|hq|head\s+office|main\s+office)\s+(?:(?:has|have|just|officially|finally|recently|already|is|are)\s+){0,3}"
    r"(?:moved|relocated|moving|relocating)\s+(?:from\s+\S.*?\s+)?(?:(?:out|over|down|up)\s+)?to\s+"
    r"(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))",
    re.IGNORECASE,
)
# 腾讯把总部搬到了深圳 / 腾讯总部搬到了深圳
# The speaker's employer, unnamed: "公司总部搬到南京了" (search reads it as the employer's).
ZH_EMPLOYER = frozenset("公司 我们公司 咱们公司 咱公司 我司 单位 我们单位".split())
ZH_MOVED_HQ = re.compile(rf"^(?:听[{CJK}]{{1,4}}?说|听说|据说)?(?P<org>[{CJK}A-Za-z]{{2,8}}?)(?:今年|去年|上个?月|最近|已经|前阵子)?(?:宣布|正式)?(?:把|的)?总部"
                         rf"(?:已经|正式|整体|全部)?(?:从[{CJK}]{{2,6}}?)?(?:搬到|迁到|迁往|迁去|搬去|搬迁到|迁至)了?(?P<place>[{CJK}]{{2,6}}?)(?:去了|来了|了)?$")


class HeadquartersRules:
    lexicon: Lexicon

    def _en_moved_hq(self, clause: str, turn: Turn) -> Found | None:
        """ "Northwind moved its headquarters to Boston": the organisation's headquarters;
        "our company moved its HQ to Denver": the speaker's employer's."""
        if not (m := EN_MOVED_HQ.match(clause) or EN_HQ_MOVED.match(clause)):
            return None
        # a firm named by two names joined by & ("Halden & Voss") is a name the name rules do not read
        org = employer_of(turn.user_id) if m["ref"] else self._name(m["org"], turn) or (m["org"] if " & " in m["org"] else None)
        if org is None:
            return None
        place = self._clean_value(m["place"])
        return Found(org, "headquarters", place, False, True) if self._usable(place) else None

    def _zh_moved_hq(self, clause: str, turn: Turn) -> Found | None:
        """ "腾讯把总部搬到了深圳"; "公司总部搬到了杭州" is about the speaker's unnamed employer
        (``employer_of``: search reads it as the company the user worked at then)."""
        if not (m := ZH_MOVED_HQ.match(clause)):
            return None
        org, place = collapse(m["org"]), self._clean_value(m["place"])
        if not self._usable(place):
            return None
        if org in ZH_EMPLOYER:  # "公司总部搬到南京了": the speaker's employer (search resolves it)
            return Found(employer_of(turn.user_id), "headquarters", place, False, True)
        if org in ZH_GENERIC_PLACES or org.startswith(("我", "咱")):
            return None
        return Found(org, "headquarters", place, False, True)
