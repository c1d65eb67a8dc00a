"""Habits and routines: "I run every morning", "I bike everywhere", "I go to yoga on Tuesdays",
"我每天跑步", "我每周去两次健身房"; and schools gone to: "Our kids go to Lincoln Elementary".

An activity named by its verb alone (``[habits] activities``: run, swim, 跑步, 游泳) or a
place gone to is a habit only when the clause says how often (``[habits] frequency``:
"every", "usually", "每天", "经常"). The present tense only: "I ran this morning" and
"I'm running late" are episodes, and a verb with an object ("I run a bakery") is no
activity of its own. The value is the activity ("running", English in its -ing form) or
the place ("gym", "farmers market").
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import english_forms, has_cjk, phrase_pattern

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .offline import Turn

EN_GO_TO = re.compile(r"^(?P<who>.*?)\bgo(?:es)?\s+to\s+(?P<place>.+)$", re.IGNORECASE)
EN_GO_DOING = re.compile(r"^(?P<who>.*?)\bgo(?:es)?\s+(?P<doing>[a-z]+ing)\b(?P<rest>.*)$", re.IGNORECASE)
SCHOOL = re.compile(r"\b(?:School|Elementary|Primary|Middle|High|Academy|College|University|Kindergarten|Preschool)\b")
# What may stand between the subject and a Chinese activity: times, counts, adverbs, "起来".
ZH_BETWEEN_TAGS = ("t", "m", "q", "d")
ZH_BETWEEN_WORDS = frozenset({"每天", "每周", "每晚", "天天", "起来", "坚持", "都", "也", "还", "会", "练", "做", "去"})


@functools.lru_cache(maxsize=8)
def routine_patterns(lexicon: Lexicon) -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """(English present form -> -ing form, that verb pattern, the frequency pattern)."""
    forms: dict[str, str] = {}
    for phrase in lexicon.words("habits", "activities"):
        if phrase.isascii():
            base, third, doing = english_forms(phrase)[:3]
            forms[base.casefold()] = forms[third.casefold()] = doing.casefold()
    verbs = re.compile(phrase_pattern(list(forms)), re.IGNORECASE)
    frequency = re.compile(phrase_pattern(lexicon.words("habits", "frequency")), re.IGNORECASE)
    return forms, verbs, frequency


class RoutineRules:
    lexicon: Lexicon

    def _routine(self, clause: str, turn: Turn) -> Found | None:
        return self._zh_routine(clause, turn) if has_cjk(clause) else self._en_routine(clause, turn)

    def _en_routine(self, clause: str, turn: Turn) -> Found | None:
        forms, verbs, frequency = routine_patterns(self.lexicon)
        if (m := EN_GO_TO.match(clause)) and SCHOOL.search(m["place"]):
            school = self._clean_value(m["place"])  # "go to Lincoln Elementary": a school attended
            return self._habit(m["who"], "studies_at", school, turn) if school[:1].isupper() else None
        if not frequency.search(clause):
            return None
        if m := EN_GO_TO.match(clause):
            return self._habit(m["who"], "habit", self._clean_value(m["place"]), turn)
        if (m := EN_GO_DOING.match(clause)) and m["doing"].casefold() in forms.values():
            return self._habit(m["who"], "habit", m["doing"].casefold(), turn)  # "go running on Sundays"
        if (verb := verbs.search(clause)) is None:
            return None
        rest = clause[verb.end():].strip()
        if rest and not (frequency.match(rest) or rest.split()[0].casefold() in self.lexicon.prepositions
                         or re.match(r"(?:\w+ly|a lot|everywhere)\b", rest, re.IGNORECASE)):
            return None  # "I run a bakery": the verb has an object
        return self._habit(clause[: verb.start()], "habit", forms[verb.group().casefold()], turn)

    def _zh_routine(self, clause: str, turn: Turn) -> Found | None:
        """ "(我)每天(早上六点起来)跑步", "我每周去两次健身房"."""
        _, _, frequency = routine_patterns(self.lexicon)
        if not frequency.search(clause):
            return None
        activities = set(self.lexicon.words("habits", "activities"))
        tokens = self._tokens(clause)
        for i, (word, flag, at) in enumerate(tokens):
            gone = word == "去" and i + 1 < len(tokens)
            if word not in activities and not gone:
                continue
            rest = tokens[i + 1:]
            if gone:  # 去 + (两次) + a place
                while rest and rest[0][1].startswith(("m", "q")):
                    rest = rest[1:]
                if not rest or not all(f.startswith(("n", "eng")) for _, f, _ in rest):
                    return None
                value = clause[rest[0][2]:]
            elif rest and not all(f.startswith(("m", "q", "t", "y", "ul")) for _, f, _ in rest):
                return None  # the activity is followed by more than "三次", "了"
            else:
                value = word
            subject_end = next((j for j, (w, f, _) in enumerate(tokens[:i])
                                if f.startswith(ZH_BETWEEN_TAGS) or w in ZH_BETWEEN_WORDS or frequency.fullmatch(w)), i)
            if any(not (f.startswith(ZH_BETWEEN_TAGS) or w in ZH_BETWEEN_WORDS or frequency.fullmatch(w))
                   for w, f, _ in tokens[subject_end:i]):
                return None  # another verb stands before the activity: "我喜欢跑步" is the verb rule's
            region = clause[: tokens[subject_end][2]] if subject_end < i else clause[:at]
            return self._habit(region, "habit", value, turn)
        return None

    def _habit(self, region: str, predicate: str, value: str, turn: Turn) -> Found | None:
        region, negated = self._clean_before_verb(region)
        subject = self._subject(region, turn)
        if subject is None or not self._usable(value):
            return None
        return Found(subject, predicate, value, negated)
