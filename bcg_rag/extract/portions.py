"""What one drinks, said by how much and how often: "每天一杯美式", "以前一天三杯咖啡" (no verb:
the cup says it is drunk), "I drink two cups of tea a day", "used to drink like 4 colas a day".

A portion with a rate is a habit, so the drink is the value (drinks); the mood does the rest
("以前…" is a past habit, denied now). Only a cup, glass, can or bottle is read in Chinese
("每天一碗" may be rice or noodles, and 一包 cigarettes); in English a plural counted per
day, week or night is read only when the lexicon knows it as a drink.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .offline import Turn

ZH_RATE = r"(?:每天|一天|每日|每周|一周|每晚|每个?星期)(?:早上|上午|下午|晚上|早晚)?(?:都|至少|起码|差不多|大概)?"
ZH_COUNT = r"[一二两三四五六七八九十几半\d]{1,2}"
ZH_PORTION = re.compile(rf"^(?P<who>.*?){ZH_RATE}{ZH_COUNT}(?:杯|瓶|罐|听|壶)(?P<drink>[\u4e00-\u9fffA-Za-z]{{1,8}}?)(?:了|吧|啊|呢)?$")
EN_NUMBER = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple(?:\s+of)?|a\s+few|several|\d{1,2}(?:-\d{1,2})?)"
EN_VESSEL = r"(?:cups?|mugs?|glasses|glass|cans?|bottles?|pints?|shots?)"
EN_PER = r"(?:a|per|each|every)\s+(?:day|week|night|morning)"
EN_PORTION = re.compile(
    r"^(?P<who>.*?)\b(?P<verb>drink|drinks|drank|drinking|have|has|had)\s+"
    r"(?:(?:about|around|like|maybe|roughly|at\s+least|up\s+to)\s+)?"
    rf"{EN_NUMBER}\s+(?:(?:{EN_VESSEL})\s+of\s+(?P<drink>[a-z]+(?:\s+[a-z]+)?)|(?P<plural>[a-z]+(?:\s+[a-z]+)?s))\s+{EN_PER}\b",
    re.IGNORECASE,
)


class PortionRules:
    lexicon: Lexicon

    def _portion(self, clause: str, turn: Turn) -> Found | None:
        if m := ZH_PORTION.match(clause):
            # jieba may glue the past marker to the rate ("以前一天" as 以/前一天), hiding it from the mood
            who, past = re.subn(r"(?:以前|之前|过去|原来)$", "", m["who"])
            region, negated = self._clean_before_verb(who)
            negated = negated or bool(past)
            subject = self._subject(region, turn)
            tokens = self._tokens(m["drink"])
            if subject is None or not tokens or not tokens[-1][1].startswith(("n", "eng")) or any(
                    flag.startswith(("p", "d", "r", "u", "c", "m")) or flag == "v" for _, flag, _ in tokens):
                return None  # "每天一杯就够了": no drink named ("生椰拿铁" is one)
            return Found(subject, "drinks", m["drink"], negated)
        if (m := EN_PORTION.match(clause)) is None:
            return None
        if m["drink"]:
            drink = m["drink"]
        else:  # "five coffees": a drink only if the lexicon knows the singular as one
            drink = re.sub(r"s$", "", m["plural"])
            if self.lexicon.value_predicates.get(self.lexicon.value_of(drink).casefold(), ("",))[0] != "drinks":
                return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn) if region.strip() else turn.speaker_id
        return Found(subject, "drinks", drink.casefold(), negated) if subject else None
