"""Services paid for by the month, taken and cancelled, as chat says them: "i pay for spotify
premium and audible every month", "every month i pay for an Equinox membership, Hulu, and the NYT
app", "subscribed to Hulu" (subscribes_to; a named membership is member_of); "cancelled hulu this
morning", "unsubscribed from audible" (denied, a change). Chinese: "顺便还续了网易云黑胶", "开了爱奇艺
会员" (subscribes_to); "爱奇艺会员我退了", "取消了优酷会员" (denied); "网易云还留着" (still so).

A service is one the lexicon lists (``[mentions] video_services``, ``music_services``,
``subscription_services``), in any case, as a whole word: chat types "hulu" as often as "Hulu",
and "Audible" is also an English adjective, so only the verbs above make one a subscription. The
value is the listed spelling; a video or music service has a slot of its own
(``video_subscription``, ``music_subscription``): "which streaming service?" is not asked of a
newspaper, and a cancelled one leaves that slot stating nothing.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

PREDICATE = "subscribes_to"
EN_PAID = re.compile(r"^(?P<who>.*?)\b(?:pay(?:ing|s)?|paid|subscribed|subscribe|subscribing|signed\s+up)\s+(?:for|to)\s+(?P<what>.+)$",
                     re.IGNORECASE)
EN_CANCELLED = re.compile(r"^(?P<who>.*?)\b(?:cancell?ed|cancell?ing|cancels?|unsubscribed\s+from|ditched|got\s+rid\s+of|"
                          r"stopped\s+paying\s+for|dropped)\s+(?:my\s+|the\s+|our\s+)?(?P<what>.+)$", re.IGNORECASE)
EN_MEMBERSHIP = re.compile(r"^(?:an?\s+|my\s+|the\s+)?(?P<club>(?-i:[A-Z][\w&'-]*)(?:\s+(?-i:[A-Z][\w&'-]*))?)\s+membership$", re.IGNORECASE)
EN_TAIL = re.compile(r"\s+(?:every\s+month|each\s+month|a\s+month|monthly|per\s+month|every\s+year|now|too|as\s+well|this\s+morning|"
                     r"today|yesterday|last\s+\w+)$", re.IGNORECASE)
ZH_PLAN_WORDS = r"(?:(?:年度|季度|月度|包年|包月)会员|会员|大会员|黑胶|VIP|vip|年卡|月卡|季卡|连续包月|自动续费)"
ZH_TAKEN = re.compile(rf"^(?P<who>.*?)(?:开了|开通了|续了|续费了|办了|充了|买了)(?:个|一个|张)?(?:年卡|月卡)?(?P<svc>.+?){ZH_PLAN_WORDS}*$")
ZH_DROPPED = re.compile(rf"^(?P<svc>.+?){ZH_PLAN_WORDS}*(?P<who>我|我们)?(?:已经|也|早就)?(?:退了|取消了|不续了|停了|到期不续了|退订了)$"
                        rf"|^(?P<who2>.*?)(?:取消了|退了|退订了|停了)(?P<svc2>.+?){ZH_PLAN_WORDS}+$")
ZH_KEPT = re.compile(rf"^(?P<svc>.+?){ZH_PLAN_WORDS}*(?:还|倒是|倒|也)?(?:留着|保留着|还在续|在用|续着)$")


SLOTS = (("video_services", "video_subscription"), ("music_services", "music_subscription"), ("subscription_services", PREDICATE))


@functools.lru_cache(maxsize=8)
def _services(lexicon: Lexicon) -> dict[str, tuple[str, str]]:
    """Casefolded name -> (the listed spelling, its slot)."""
    return {" ".join(s.casefold().split()): (s, slot) for words, slot in SLOTS for s in lexicon.words("mentions", words)}


class SubscriptionRules:
    lexicon: Lexicon

    def _service(self, words: str) -> tuple[str, str] | None:
        words = EN_TAIL.sub("", words.strip(" .,!?")).strip()
        words = re.sub(r"^(?:the|my|our|a|an)\s+", "", words, flags=re.IGNORECASE)
        words = re.sub(r"\s+(?:premium|plus|app|subscription|account|membership)$", "", words, flags=re.IGNORECASE)
        return _services(self.lexicon).get(" ".join(words.casefold().split()))

    def _payer(self, region: str, turn: Turn) -> str | None:
        """Who pays: the words before the verb, a time said first left out ("every month i")."""
        if when := self.lexicon.time.lead.match(region):
            region = region[when.end():]
        return self._who(region, turn)

    def _subscription(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        if has_cjk(clause):
            return self._zh_subscription(clause, turn)
        if m := EN_CANCELLED.match(clause):
            if (service := self._service(m["what"])) and (subject := self._payer(m["who"], turn)):
                return Found(subject, service[1], service[0], True, True)
            return None
        if not (m := EN_PAID.match(clause)) or not (subject := self._payer(m["who"], turn)):
            return None
        found = []
        for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", EN_TAIL.sub("", m["what"].strip(" .!"))):
            if service := self._service(part):
                found.append(Found(subject, service[1], service[0]))
            elif club := EN_MEMBERSHIP.match(part.strip()):
                found.append(Found(subject, "member_of", club["club"]))
            elif part.strip():
                return None  # "pay for groceries and Netflix": not a list of services alone
        return found or None

    def _services_paid(self, sentence: str, turn: Turn) -> list[Found]:
        """The items of a list the comma cut from its verb: "every month i pay for an Equinox
        membership, Hulu, and the NYT app" (read on the sentence, as a clause each would not be)."""
        if has_cjk(sentence) or "," not in sentence or not EN_PAID.match(sentence):
            return []
        found = self._subscription(sentence, turn)
        return found if isinstance(found, list) else []

    def _zh_subscription(self, clause: str, turn: Turn) -> Found | None:
        for pattern, denied in ((ZH_DROPPED, True), (ZH_KEPT, False), (ZH_TAKEN, False)):
            if (m := pattern.match(clause)) and (service := _services(self.lexicon).get((m["svc"] or m.groupdict().get("svc2") or "").casefold())):
                who = next((w for w in (m.groupdict().get("who"), m.groupdict().get("who2")) if w), "")
                subject = self._who(who, turn) if who else turn.speaker_id
                return Found(subject, service[1], service[0], denied, denied) if subject else None
        return None
