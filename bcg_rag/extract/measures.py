"""Measurements of a person said without naming the attribute: "I'm 6 ft 1", "我一米六五，
九十斤", "我是O型血".

The unit (or the shape of the number) names the attribute: a height in feet and inches,
metres or centimetres; a weight in pounds, kilograms or 斤; a blood type in 型. A clause
is read only when it is the owner and the measurement (with an optional copula, attribute
word or "about"), so "the box is 5 kg" and "跑了三公里" say nothing about anyone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

EN_HEIGHT = r"\d'\s?\d{1,2}(?:\"|'')?|\d\s*(?:ft|feet|foot)(?:\s*\d{1,2}(?:\s*(?:in|inches))?)?|1\d\d\s*cm|[12][.,]\d{1,2}\s*m"
EN_WEIGHT = r"\d{2,3}\s*(?:lbs?|pounds|kg|kgs|kilos)"
ZH_NUMERAL = "[0-9一二三四五六七八九十百两]"
ZH_HEIGHT = r"[一1]米[0-9一二三四五六七八九]{1,2}|[12][.]\d{1,2}\s*米|1\d\d\s*(?:cm|厘米|公分)"
ZH_WEIGHT = rf"{ZH_NUMERAL}{{2,5}}\s*(?:斤|公斤|千克|kg)"
ZH_BLOOD = r"(?:AB|A|B|O)\s*型"
APPROXIMATELY_EN = r"(?:(?:like|about|around|roughly|almost|nearly|only|just|barely|over|under)\s+)?"
APPROXIMATELY_ZH = "(?:大概|大约|差不多|将近|快|才|只有|有)?"
EN_MEASURED = re.compile(
    rf"^(?P<who>.+?)(?:'m|'s|'re|\s+(?:am|is|are|weighs?))\s+{APPROXIMATELY_EN}"
    rf"(?:(?P<height>{EN_HEIGHT})(?:\s+tall)?|(?P<weight>{EN_WEIGHT}))$",
    re.IGNORECASE,
)
ZH_MEASURED = re.compile(
    rf"^(?P<who>.*?)(?:身高|个子|体重|血型)?(?P<neg>不是|是)?{APPROXIMATELY_ZH}"
    rf"(?:(?P<height>{ZH_HEIGHT})|(?P<weight>{ZH_WEIGHT})|(?P<blood>{ZH_BLOOD})血?)(?:左右|多|了)?(?:吧|哦|呢|啦)?$"
)


class MeasureRules:
    lexicon: Lexicon

    def _measure(self, clause: str, turn: Turn) -> Found | None:
        m = (ZH_MEASURED if has_cjk(clause) else EN_MEASURED).match(clause.strip(" .!~"))
        if m is None:
            return None
        region, negated = self._clean_before_verb(m["who"])
        if m["who"].strip() and not region:
            return None
        owner, personal = self._owner(region, turn) if region else (turn.other if turn.topic else turn.speaker_id, not turn.topic)
        if owner is None:
            return None
        attr = "height" if m["height"] else "weight" if m["weight"] else "blood_type"
        value = re.sub(r"\s+", "", m[attr if attr != "blood_type" else "blood"]) if has_cjk(clause) else m[attr]
        negated = negated or m.groupdict().get("neg") == "不是"
        return Found(owner, ("attr:" if personal else "") + attr, value, negated)
