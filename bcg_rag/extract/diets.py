"""Diets taken up or dropped, as chat says them.

A diet is something one does or is on, not a food one eats: "went vegan", "gone keto",
"on the keto diet", "doing keto rn", "been on intermittent fasting since May" (diet);
"done with keto", "ditched paleo", "keto is over" (the diet denied); "开始吃素了", "最近在搞
16+8轻断食", "我在做生酮" (diet); "不吃素了", "轻断食坚持不下去了", "生酮我放弃了" (denied).
Every claim is marked ``changed``: a diet taken up replaces the one before. Plans and
hedges ("thinking of going vegan", "想试试轻断食") are the clause mood's business.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found

if TYPE_CHECKING:
    from .turn import Turn

DIETS = (r"raw\s+vegan|vegan|vegetarian|veggie|pescatarian|pescetarian|keto|paleo|gluten-free|dairy-free|plant-based"
         r"|carnivore|intermittent\s+fasting|low[-\s]carb|whole\s?30|atkins")
EN_WENT_DIET = re.compile(
    rf"^(?P<who>.*?)\b(?:went|gone|go|going|goes|turned|become|became|becoming|switched\s+to|'ve\s+gone)\s+(?:full\s+|fully\s+)?(?P<diet>{DIETS})\b",
    re.IGNORECASE,
)
# "I'm on the keto diet", "i'm on keto", "been on intermittent fasting since May"
EN_ON_DIET = re.compile(
    rf"^(?P<who>.*?)(?:'m|'re|'s|\s+am|\s+is|\s+are|\s+been|\bbeen)\s+(?:now\s+|still\s+|currently\s+)?on\s+(?:(?:a|the)\s+)?"
    rf"(?P<diet>{DIETS})(?:\s+diet)?\b(?!-)", re.IGNORECASE)
# "doing keto rn", "started paleo last week" (not "tried keto once": a past try)
EN_DOING_DIET = re.compile(
    rf"^(?P<who>.*?)\b(?:doing|started|starting|began|begun)\s+(?:(?:a|the)\s+)?(?P<diet>{DIETS})(?:\s+diet)?\b(?!-)"
    # "follows a vegan diet", "eat a mostly plant-based diet": the word "diet" says it is one
    rf"|^(?P<who2>.*?)\b(?:follow|follows|following|eat|eats|eating|stick\s+to|sticks\s+to)\s+(?:(?:a|the)\s+)?"
    rf"(?:(?:strict|mostly|strictly|fully)\s+)?(?P<diet2>{DIETS})\s+diet\b",
    re.IGNORECASE)
EN_OFF_DIET = re.compile(
    rf"^(?P<who>.*?)\b(?:done\s+with|off|quit|gave\s+up(?:\s+on)?|stopped|ditched|dropped|fell\s+off)\s+(?:the\s+)?(?P<diet>{DIETS})(?:\s+diet)?\b",
    re.IGNORECASE)
# "keto is over", "ok the paleo diet's done": the speaker's diet, said over.
EN_DIET_OVER = re.compile(
    rf"^(?:(?:so|ok|okay|well|and|yeah|welp|anyway)\s+)*(?:(?:the|my)\s+)?(?P<diet>{DIETS})(?:\s+(?:diet|thing|phase|experiment))?"
    rf"\s*(?:\s+is|'s)\s+(?:officially\s+|so\s+|definitely\s+)?(?:over|done|dead)\b", re.IGNORECASE)

# "我吃素三年了": for how long, said after it
ZH_FOR_A_SPAN = r"(?:(?:[0-9一二三四五六七八九十两几半]+|好几)个?多?(?:月|年|天|周|星期|礼拜)多?)?"
ZH_DIET = re.compile(rf"^(?P<who>.*?)(?P<neg>不再|不|没)?(?:开始|改成?|改为|已经|一直|都|也|还|又)*吃(?:全)?素{ZH_FOR_A_SPAN}(?:了|啦|呢)?$")
# 16+8 is a schedule of the fast: "16+8轻断食" is 轻断食, as a later "轻断食坚持不下去了" names it.
ZH_DIETS = r"(?:(?:16|18)\s*[+:：/]\s*(?:8|6))?(?P<diet>间歇性断食|轻断食|断食|生酮(?:饮食)?|低碳水?(?:饮食)?|地中海饮食)"
ZH_ON_DIET = re.compile(
    rf"^(?P<who>.*?)(?P<neg>不再|不|没|没有)?(?:最近|现在|目前|正在|在|开始|一直|坚持|都|也|还|又|已经)*"
    rf"(?:搞|做|吃|执行|实行|进行|尝试)?(?:着|了)?{ZH_DIETS}(?:了|呢|啦|中|ing)?$")
# "放弃了轻断食"; "轻断食坚持不下去了", "生酮我放弃了"
ZH_DROPPED_DIET = re.compile(rf"^(?P<who>.*?)(?:放弃|停掉|停|结束|不搞|不做)了?{ZH_DIETS}了?$")
ZH_DIET_DROPPED = re.compile(
    rf"^{ZH_DIETS}(?P<who>我|我们)?(?:也|就|还是|终于|已经|彻底|真的|实在)*"
    rf"(?:放弃了?|坚持不下去了?|坚持不住了?|搞不下去了?|不搞了|不做了|结束了|停了|破功了)$")
# "so pescatarian now I guess": the diet said alone, with the word that makes it new (the hedge
# is the mood's).
EN_DIET_NOW = re.compile(rf"^(?:(?:so|ok|okay|well|and|yeah|basically|officially|fully)\s+)*(?P<diet>{DIETS})\s+now$", re.IGNORECASE)
EN_LIST_JOIN = re.compile(r"^\s*(?:and|plus|also|and\s+also)\s*$", re.IGNORECASE)


def _en_diet_value(diet: str) -> str:
    diet = re.sub(r"\s+", " ", diet.casefold())
    return {"veggie": "vegetarian", "pescetarian": "pescatarian", "low carb": "low-carb", "whole 30": "whole30"}.get(diet, diet)


def _zh_diet_value(diet: str) -> str:
    """One name per diet: "生酮饮食" is 生酮, "低碳饮食" 低碳水 (地中海饮食 keeps its word)."""
    if diet.startswith("低碳"):
        return "低碳水"
    return diet if diet == "地中海饮食" else diet.removesuffix("饮食")


class DietRules:
    def _en_diet(self, clause: str, turn: Turn) -> Found | None:
        """ "went vegan", "on the keto diet", "doing keto" (diet); "done with keto", "keto is over" (denied)."""
        if m := EN_DIET_OVER.match(clause):
            return Found(turn.speaker_id, "diet", _en_diet_value(m["diet"]), True, True)
        if m := EN_DIET_NOW.match(clause):
            return Found(turn.speaker_id, "diet", _en_diet_value(m["diet"]), False, True)
        off = EN_OFF_DIET.search(clause)
        m = off or EN_WENT_DIET.search(clause) or EN_ON_DIET.search(clause) or EN_DOING_DIET.search(clause)
        if m is None:
            return None
        who, diet = (m["who"], m["diet"]) if m["diet"] else (m["who2"], m["diet2"])
        subject = self._who(EN_LIST_JOIN.sub("", who), turn)  # "..., and doing keto rn": the list's subject
        return Found(subject, "diet", _en_diet_value(diet), bool(off), True) if subject else None

    def _zh_diet(self, clause: str, turn: Turn) -> Found | None:
        """ "开始吃素了" (diet 素食), "最近在搞16+8轻断食" (diet 轻断食); "不吃素了", "轻断食坚持不下去了" (denied)."""
        if m := ZH_DROPPED_DIET.match(clause) or ZH_DIET_DROPPED.match(clause):
            who, negated = self._clean_before_verb(m["who"] or "")
            subject = self._subject(who, turn)
            return Found(subject, "diet", _zh_diet_value(m["diet"]), not negated, True) if subject else None
        if m := ZH_DIET.match(clause):
            value = "素食"
        elif m := ZH_ON_DIET.match(clause):
            value = _zh_diet_value(m["diet"])
        else:
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        return Found(subject, "diet", value, negated or bool(m["neg"]), True) if subject else None
