"""Medicines someone takes, started and stopped, as chat says them: "i've been on lexapro for my
anxiety since last fall", "started taking metformin", "doc put me on sertraline" (takes_medication);
"doc tapered me off lexapro", "stopped taking ibuprofen", "no longer on prednisone" (denied, a
change); "not on any meds at the moment" ends the whole slot (``endings.MEDS``). Chinese: "我在吃
二甲双胍控制血糖", "开始服用阿司匹林"; "医生让我把二甲双胍停了", "降压药不吃了" (denied).

A medicine is named by the lexicon's list (``[mentions] medications``) or, in English, by the
endings of generic names ("-statin", "-pril", "-xetine"; ``medication_endings``); in Chinese by the
list or the endings of a medicine's kind ("…双胍", "…他汀", "降压药", "…胶囊"). Someone else's
medicine is theirs ("my mom takes metformin"); a plan or a question is the clause mood's business.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .endings import MEDS
from .shared import ENDED, Found
from .text import CJK, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

PREDICATE = "takes_medication"
EN_AFTER = r"(?:\s+(?:\d+\s*mg|daily|every\s+\w+|again|now|anymore|any\s+more|for\s+.+|since\s+.+|to\s+.+|last\s+\w+|this\s+\w+|as\s+well|too))*\s*$"
# One taken off it by someone else: "doc tapered me off lexapro", "they took me off prednisone"
EN_TAKEN_OFF = re.compile(r"\b(?:tapered|weaned|took|taken|taking)\s+me\s+off\s+(?:of\s+)?(?P<med>[\w-]+)" + EN_AFTER, re.IGNORECASE)
EN_PUT_ON = re.compile(r"\b(?:put|putting|started)\s+me\s+on\s+(?P<med>[\w-]+)" + EN_AFTER, re.IGNORECASE)
EN_OFF = re.compile(
    r"^(?P<who>.*?)\b(?:(?:'m|'re|am|is|are|was|been|got|came|coming|went)\s+)?(?:(?:finally|officially|completely|now)\s+)*"
    r"(?P<verb>off|stopped(?:\s+taking)?|quit(?:\s+taking)?|no\s+longer\s+(?:on|taking)|weaned\s+(?:myself\s+)?off|tapered\s+off)\s+"
    r"(?:of\s+)?(?:the\s+|my\s+)?(?P<med>[\w-]+)" + EN_AFTER, re.IGNORECASE)
EN_ON = re.compile(
    r"^(?P<who>.*?)(?:'ve\s+been|'s\s+been|\s+(?:have|has)\s+been|'m|'re|'s|\s+am|\s+is|\s+are|\bbeen)?\s*\b(?:(?:still|now|currently|also)\s+)*"
    r"(?:on|taking|takes|take|started(?:\s+taking)?|starting|prescribed)\s+(?:(?:a|the|some|daily|my)\s+)?(?P<med>[\w-]+)" + EN_AFTER,
    re.IGNORECASE)
EN_NO_MEDS = re.compile(r"^(?P<who>.*?)(?:'m|\s+am|\bnot|\bno\s+longer)\s*(?:not\s+)?on\s+(?:any|no)\s+(?:meds|medications?|medicines?|pills)\b"
                        r"|^(?P<who2>.*?)\boff\s+(?:all\s+)?(?:my\s+)?(?:meds|medications?)\b", re.IGNORECASE)
ZH_TAKES = re.compile(rf"^(?P<who>.*?)(?:在|一直|每天|天天|开始|还在|还|都|正在|目前|现在)*(?:吃|服用|服|打)(?:着|上)?(?P<med>[{CJK}A-Za-z]{{2,8}}?)"
                      r"(?:控制[\u4e00-\u9fff]{1,4}|降[\u4e00-\u9fff]{1,2}|治[\u4e00-\u9fff]{1,4})?$")
ZH_STOPPED = re.compile(rf"^(?P<who>.*?)把(?P<med>[{CJK}A-Za-z]{{2,8}}?)(?:给)?停(?:掉)?了$|^(?P<who2>.*?)停(?:掉)?了(?P<med2>[{CJK}A-Za-z]{{2,8}})$"
                        rf"|^(?P<med3>[{CJK}A-Za-z]{{2,8}}?)(?P<who3>我)?(?:已经|也|早就|先|就)?(?:停了|停掉了|不吃了|停掉)$")
# "医生开了氨氯地平" (prescribed: the speaker takes it); "二甲双胍吃了七八年" (the medicine first, then how long)
ZH_PRESCRIBED = re.compile(rf"^(?P<who>(?:医生|大夫)(?:给我|帮我)?)开了?(?:点|些)?(?P<med>[{CJK}A-Za-z]{{2,8}})$")
ZH_TAKEN_FOR = re.compile(rf"^(?P<med>[{CJK}A-Za-z]{{2,8}}?)(?P<who>我|她|他)?(?:都|已经|一直)?吃了?(?:快|好)?"
                          r"(?:[一二三四五六七八九十两几0-9]+|好几|很多|多)年了?$")
# "医生说氨氯地平可以停了": the doctor's word that it may stop is the stop
ZH_MAY_STOP = re.compile(rf"^(?P<who>(?:医生|大夫)(?:说|讲)?)?(?P<med>[{CJK}A-Za-z]{{2,8}}?)(?:可以|能)(?:停|停掉|不吃)了$")
# "现在不用再吃药了", "药都停了": no medicine at all
ZH_NO_MEDS = re.compile(r"^(?P<who>.*?)(?:现在|已经|目前)?(?:不用再?吃药了|不用吃药了|不吃药了|药都停了|停药了|所有的?药都停了)$")
# Someone who has the speaker do it ("医生让我把二甲双胍停了"): the speaker takes it or stops.
ZH_HAD_ME = re.compile(r"^(?:医生|大夫|主治|主任)?(?:让|叫|要)我")
ZH_SAID_BY_DOCTOR = re.compile(r"(?:医生|大夫)(?:说|讲)?")
ZH_MED_ENDINGS = ("双胍", "他汀", "沙坦", "地平", "洛尔", "普利", "西林", "霉素", "沙星", "胰岛素", "激素", "胶囊", "降压药",
                  "安眠药", "止痛药", "抗抑郁药", "中药", "褪黑素")


@functools.lru_cache(maxsize=8)
def _en_medicines(lexicon: Lexicon) -> tuple[frozenset[str], tuple[str, ...]]:
    return (frozenset(w.casefold() for w in lexicon.words("mentions", "medications") if w.isascii()),
            tuple(lexicon.words("mentions", "medication_endings")))


class MedicationRules:
    lexicon: Lexicon

    def _medication(self, clause: str, turn: Turn) -> Found | None:
        return self._zh_medication(clause, turn) if has_cjk(clause) else self._en_medication(clause, turn)

    def _is_medicine(self, word: str) -> bool:
        names, endings = _en_medicines(self.lexicon)
        word = word.casefold()
        return word in names or len(word) >= 6 and word.endswith(endings)

    def _en_medication(self, clause: str, turn: Turn) -> Found | None:
        if m := EN_NO_MEDS.match(clause):
            subject = self._who(m["who"] if m["who"] is not None else m["who2"], turn)
            return Found(subject, ENDED, MEDS, True, True) if subject else None
        if (m := EN_TAKEN_OFF.search(clause)) and self._is_medicine(m["med"]):
            return Found(turn.speaker_id, PREDICATE, m["med"], True, True)
        if (m := EN_PUT_ON.search(clause)) and self._is_medicine(m["med"]):
            return Found(turn.speaker_id, PREDICATE, m["med"], False, True)
        off = EN_OFF.match(clause)
        m = off or EN_ON.match(clause)
        if m is None or not self._is_medicine(m["med"]):
            return None
        subject = self._who(m["who"], turn)
        return Found(subject, PREDICATE, m["med"], bool(off), bool(off)) if subject else None

    def _zh_medicine(self, words: str) -> bool:
        return words in self.lexicon.words("mentions", "medications") or words.endswith(ZH_MED_ENDINGS)

    def _zh_medication(self, clause: str, turn: Turn) -> Found | None:
        if m := ZH_NO_MEDS.match(clause):
            subject = self._zh_patient(m["who"], turn)
            return Found(subject, ENDED, MEDS, True, True) if subject else None
        if (m := ZH_MAY_STOP.match(clause)) and self._zh_medicine(m["med"]):
            return Found(turn.speaker_id, PREDICATE, m["med"], True, True)
        if m := ZH_STOPPED.match(clause):
            med = m["med"] or m["med2"] or m["med3"]
            who = next((w for w in (m["who"], m["who2"], m["who3"]) if w is not None), "")
            stopped = True
        elif m := ZH_TAKEN_FOR.match(clause) or ZH_PRESCRIBED.match(clause) or ZH_TAKES.match(clause):
            med, who, stopped = m["med"], m["who"] or "", False
        else:
            return None
        if not self._zh_medicine(med):
            return None
        subject = self._zh_patient(who, turn)
        return Found(subject, PREDICATE, med, stopped, stopped) if subject else None

    def _zh_patient(self, who: str, turn: Turn) -> str | None:
        """Whose medicine: the speaker where a doctor has them take or stop it ("医生让我…")."""
        return turn.speaker_id if ZH_HAD_ME.fullmatch(who) or ZH_SAID_BY_DOCTOR.fullmatch(who) else self._who(who, turn)
