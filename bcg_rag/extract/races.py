"""A race's personal best, as runners say it: "new 5k PB: 24:10", "my half marathon PB is now
1:52", "finally broke 2 hours in the half! 1:58:30", "第一次跑半马！成绩2小时05分", "半程跑了1小时52分！！PB！！".

The slot is the race's best time (``attr:<race>_pb``: one value at a time, the newest best).
Only a time said as a best is one: "PB", "personal best", "最好成绩", "破纪录", or a first race
(the first time is the best so far); "ran a 5k in 31 minutes" on another day is no best, and
a time without a race ("跑了三公里") says nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..models import Claim
from .shared import Found
from .text import has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .reading import Reading
    from .turn import Turn

# The race, by what it is called, -> the slot's name
RACES = (("half_marathon", r"half[\s-]?marathon|(?:the|a|my)\s+half(?!\s+(?:an?|of|the)\b)|半马|半程马拉松|半程|半程马"), ("marathon", r"marathon|全马|马拉松|全程马拉松"),
         ("10k", r"10\s?k|10\s?km|十公里|10公里"), ("5k", r"5\s?k|5\s?km|五公里|5公里|parkrun"))
EN_TIME = r"(?:\d{1,2}:\d{2}(?::\d{2})?|\d{1,3}\s*(?:min(?:ute)?s?|mins)(?:\s*\d{1,2}\s*(?:sec(?:ond)?s?|s))?)"
ZH_TIME = r"(?:\d{1,2}\s*(?:小时|个小时|h)\s*\d{1,2}\s*(?:分钟?|min|m)(?:\s*\d{1,2}\s*秒)?|\d{1,3}\s*分钟?(?:\s*\d{1,2}\s*秒)?|\d{1,2}:\d{2}(?::\d{2})?)"
# a best said, or a first race ("my first half marathon", "第一次跑半马": the first time is the best so far)
EN_BEST = re.compile(r"\b(?:pb|pr|personal\s+best|personal\s+record|best\s+time|new\s+record)\b"
                     r"|\bfirst\s+(?:ever\s+)?(?:half|marathon|10\s?k|5\s?k|parkrun)", re.IGNORECASE)
ZH_BEST = re.compile(r"PB|pb|PR|最好成绩|最好的成绩|个人最好|破纪录|新纪录|刷新|第一次(?:跑)?(?:半马|全马|马拉松|半程|十公里|五公里)|首马|首个半马")
# a time of day is no race time: "parkrun at 9:00"
CLOCK = re.compile(r"\b(?:at|by|before|after|until|till)\s+$|[点号]$", re.IGNORECASE)
PB_SUFFIX = "_pb"  # the slot: attr:<race>_pb
RACE_TIME = re.compile(rf"{EN_TIME}|{ZH_TIME}", re.IGNORECASE)  # what names a new best (bcg_rag.naming)
NOT_MINE = re.compile(r"\b(?:my\s+(?:wife|husband|partner|brother|sister|mom|mum|dad|friend|son|daughter)|he|she|they)\b|[他她]", re.IGNORECASE)


def _race(text: str) -> str | None:
    for slot, words in RACES:
        if re.search(rf"(?<![\w.:])(?:{words})(?![\w])" if not has_cjk(words) else rf"(?:{words})", text, re.IGNORECASE):
            return slot
    return None


class RaceRules:
    lexicon: Lexicon
    grammar: Any

    def _with_race_bests(self, text: str, turn: Turn, claims: list[Claim], reading: Reading, context: str | None) -> None:
        """Add the message's race bests to its claims; one read as an attribute too ("my 10K
        personal best is 51:07") moves to the race's slot rather than standing twice. A plan says
        no best ("hoping for a 5k PB of 23:00"); the mood is read only when a best was found."""
        bests = self._race_best(text, turn)
        for f in bests if bests and not self.grammar.mood(text).plan else ():
            said = [i for i, c in enumerate(claims) if (c.subject, c.value) == (f.subject, f.value) and c.predicate.startswith("attr:")]
            for i in said:
                claims[i] = replace(claims[i], predicate=f.predicate)
            if not said:
                claims.append(Claim(f.subject, f.predicate, f.value, self.lexicon.asserted, context=context))
                reading.rules.append("race")
                reading.additive.append(False)

    def _race_best(self, sentence: str, turn: Turn) -> list[Found]:
        """Read on the sentence (a time and its PB are often cut into clauses: "半程跑了1小时52分！！PB！！")."""
        zh = has_cjk(sentence)
        if not (ZH_BEST if zh else EN_BEST).search(sentence) or NOT_MINE.search(sentence) or not turn.user_is_speaker:
            return []
        pattern = ZH_TIME if zh else EN_TIME
        # "took my 5k PB from 28:30 to 27:15": the time it went to
        moved = re.search(rf"(?:from|从)\s*{pattern}\s*(?:to|down\s+to|->|→|到|变成|提到|进到)\s*(?P<to>{pattern})", sentence, re.IGNORECASE)
        time = re.search(pattern, sentence[moved.start("to"):] if moved else sentence, re.IGNORECASE)
        race = _race(sentence[: moved.start() if moved else time.start()]) if time else None
        if time is not None and not moved and CLOCK.search(sentence[: time.start()]):
            return []
        if time is None or race is None:
            return []
        return [Found(turn.speaker_id, f"attr:{race}{PB_SUFFIX}", re.sub(r"\s+", "", time.group()) if zh else time.group())]
