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
    from .turn import Turn

ZH_RATE = r"(?:每天|一天|每日|每周|一周|每晚|每个?星期)(?:早上|上午|下午|晚上|早晚)?(?:都|至少|起码|差不多|大概)?"
ZH_COUNT = r"[一二两三四五六七八九十几半\d]{1,2}"
ZH_PORTION = re.compile(rf"^(?P<who>.*?){ZH_RATE}{ZH_COUNT}(?:杯|瓶|罐|听|壶)(?P<drink>[\u4e00-\u9fffA-Za-z]{{1,8}}?)(?:了|吧|啊|呢)?$")
# The drink of a time of day replaced: "下午那杯换成无糖豆浆" (the cup says it is a drink), "早上的
# 咖啡换成了绿茶" (a drink the lexicon knows; "可乐换成气泡水了", with no time, is ``zh.py``'s).
ZH_CUP_SWAP = re.compile(r"^(?P<who>.*?)(?:早上|上午|中午|下午|晚上|每天|平时|饭后)(?:(?P<cup>那杯|这杯|那一杯|的那杯)|的(?P<old>[\u4e00-\u9fff]{1,6}?))"
                         r"(?:也|都|就)?(?:换成|改成|改喝|变成)了?(?P<new>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:了|吧|啊|呢)?$")
# How a drink is made is no part of which drink it is ("无糖豆浆" is 豆浆; 无 is a verb to jieba).
ZH_HOW_MADE = re.compile(r"^(?:[无少低半全]糖|[去少加]冰|低脂|脱脂|热|冰)(?=[\u4e00-\u9fff]{2})")
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

    def _portion(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if swap := ZH_CUP_SWAP.match(clause):
            return self._cup_swapped(swap, turn)
        if m := ZH_PORTION.match(clause):
            # jieba may glue the past marker to the rate ("以前一天" as 以/前一天), hiding it from the mood
            who, past = re.subn(r"(?:以前|之前|过去|原来)$", "", m["who"])
            region, negated = self._clean_before_verb(who)
            negated = negated or bool(past)
            subject = self._subject(region, turn)
            if subject is None or not self._zh_drink(m["drink"]):
                return None  # "每天一杯就够了": no drink named ("生椰拿铁" is one)
            return Found(subject, "drinks", m["drink"], negated)
        if (m := EN_PORTION.match(clause)) is None:
            return None
        if m["drink"]:
            drink = m["drink"]
        else:  # "five coffees": a drink only if the lexicon knows the singular as one
            drink = re.sub(r"s$", "", m["plural"])
            if not self._known_drink(drink):
                return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn) if region.strip() else turn.speaker_id
        return Found(subject, "drinks", drink.casefold(), negated) if subject else None

    def _cup_swapped(self, m: re.Match[str], turn: Turn) -> list[Found] | None:
        """The new drink said as a change, and the old one denied when named."""
        if not (m["cup"] or self._known_drink(m["old"])) or not self._zh_drink(new := ZH_HOW_MADE.sub("", m["new"])):
            return None  # "晚上的安排换成了看电影": no drink
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn) if region.strip() else turn.speaker_id
        if subject is None or negated:
            return None
        dropped = [Found(subject, "drinks", m["old"], True, True)] if m["old"] else []
        return dropped + [Found(subject, "drinks", new, False, True)]

    def _known_drink(self, value: str) -> bool:
        return self.lexicon.value_predicates.get(self.lexicon.value_of(value).casefold(), ("",))[0] == "drinks"

    def _zh_drink(self, words: str) -> bool:
        """A drink named by nouns ("生椰拿铁"), not "每天一杯就够了"."""
        tokens = self._tokens(words)
        return bool(tokens) and tokens[-1][1].startswith(("n", "eng")) and not any(
            flag.startswith(("p", "d", "r", "u", "c", "m")) or flag == "v" for _, flag, _ in tokens)
