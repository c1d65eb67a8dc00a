"""The phone someone uses, one at a time (``uses_phone``, single-valued): "my Pixel 7 battery is
dead", "caved and got an iPhone 16", "replaced it with a Galaxy S24", "I'm on a Fairphone 5 now",
"新入手的iPhone 16 Pro", "我现在用的就是小米14"; handed on or sold: "旧的Mate60给我爸用了" (the user's
denied, the father's stated), "gave my old iPhone 12 to my mom", "sold my Pixel 6". The mobile
carrier is one at a time too (``mobile_carrier``): "my carrier Tellvane", "ported my number to
Brightlink Mobile", "携号转网到了电信".

A phone is a model the lexicon's makes name (``[devices]``): a make that is only a phone
("iPhone", "Fairphone") alone or with its model; a series whose name is also a word or a
company ("Pixel", "Galaxy", "Mate", "小米", "华为") only with a model number ("Pixel 8", "Mate60").
A possessive says the user has it now ("my Pixel 7"); "my old Galaxy S9" is the one before (the
phone used, denied); a relative's ("my dad's iPhone") is read by no rule here. Before, a phone bought was one more
thing owned beside the last, and "what phone do I use?" was answered with the first.
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

PREDICATE = "uses_phone"
QUALIFIERS = r"(?:Pro|Max|Plus|mini|Ultra|SE|XR|XS|Lite|FE|Fold|Flip|Note|Neo|\+)"
EN_ARTICLE = (r"(?:(?:a|an|the|my|this|that)\s+)?(?:(?:new|brand[\s-]new|shiny|used|refurbished|refurb|second[\s-]hand|secondhand)\s+)?"
              r"(?:phone\s*[,:-]\s*(?:(?:a|an|the)\s+)?)?")  # "got a new phone, the Pixel 9"
EN_HAD_VERBS = (r"(?:got|bought|picked\s+up|grabbed|upgraded\s+to|switched\s+(?:over\s+|back\s+)?to|went\s+with|"
                r"replaced\s+(?:it|that|him|her|the\s+old\s+one|my\s+(?:old\s+)?phone|the\s+\w+)\s+with|"
                r"traded\s+(?:it|that|my\s+\w+(?:\s+\d+)?)\s+in\s+for|treated\s+myself\s+to|"
                r"(?:am|'m|is|'s|are|'re)\s+(?:now\s+|back\s+)*on|went\s+back\s+to|(?:am|'m|is|'s)\s+(?:now\s+)?using|use|uses|have|has|'ve\s+got|own|owns)")
# "又换回iPhone了" (back to the one before), "用了五年iPhone", "一直用华为": the phone used now too
ZH_HAD_VERBS = (r"(?:新入手的|新买的|刚买的|刚入手的|刚换的|新换的|入手了|抢到了|抢到|买了|换了|换成了|换成|换到了|换回了|换回|用上了|"
                r"(?:现在|目前)?用的(?:就|还|也)?是|(?:现在|目前)?在用|用着|的手机是|(?:一直|还在|还是|一直都)在?用|"
                r"用了(?:[0-9一二三四五六七八九十两几]+|好几|好多)年(?:的)?)")
ZH_COUNTER = r"(?:一?(?:台|部|个|款|只))?(?:新的?)?"
ZH_HANDED_ON = r"(?:给了|给|送给了|送给|留给了|留给|传给了|传给)"
# The mobile carrier, one at a time too: "my carrier Tellvane keeps dropping calls", "ported my
# number to Brightlink Mobile", "携号转网到了电信".
CARRIER = "mobile_carrier"
EN_NAME = r"(?P<name>(?-i:[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2}))"
EN_CARRIER_MINE = re.compile(rf"(?<![\w'])my\s+(?:mobile\s+|phone\s+|cell\s+)?(?:carrier|network|provider)\s+(?:is\s+|'s\s+)?(?:now\s+)?{EN_NAME}",
                             re.IGNORECASE)
EN_CARRIER_MOVED = re.compile(rf"^(?P<who>.*?)\b(?:ported|moved|switched|transferred)\s+(?:my\s+)?(?:phone\s+)?(?:number|sim|carrier|network)"
                              rf"\s+(?:over\s+)?to\s+{EN_NAME}", re.IGNORECASE)
# The same typed in lower case ("finally ported my number to giffgaff"): one word, or one and "mobile"
EN_CARRIER_MOVED_LOWER = re.compile(EN_CARRIER_MOVED.pattern.replace(EN_NAME, r"(?!(?:the|a|an|my|our|his|her|their|it|this|that|a\s+new)\b)(?P<name>[a-z][\w&'-]+(?:\s+mobile)?)(?![\w'-])"),
                                    re.IGNORECASE)
ZH_CARRIER_MOVED = re.compile(r"^(?P<who>.*?)携号转网(?:到了|到|去了|去|成了|成)?(?:中国)?(?P<name>移动|联通|电信|广电)")


@functools.lru_cache(maxsize=8)
def phone_model(lexicon: Lexicon) -> str:
    """A regex (no groups) for a phone model: a make alone or with a model, a series with a number."""
    makes = "|".join(sorted((re.escape(w) for w in lexicon.words("devices", "phone_makes")), key=len, reverse=True))
    series = "|".join(sorted([re.escape(w) for w in lexicon.words("devices", "phone_series")]
                             + [f"(?-i:{re.escape(w)})" for w in lexicon.words("devices", "phone_series_capitalised")],
                             key=len, reverse=True))
    brands = "|".join(sorted((re.escape(w) for w in lexicon.words("devices", "phone_brands")), key=len, reverse=True))
    tail = rf"(?:\s?(?:\d{{1,3}}[a-z]?|{QUALIFIERS}))"
    number = r"\s?(?:[A-Za-z]{1,2}\s?)?\d{1,3}[a-z]?(?![\d:/%]|[.,]\d)"  # not "8.5", "8,000", "8:30"
    # Not \w after the model: Chinese goes on without a space ("旧的Mate60给我爸用了").
    return (rf"(?:(?:{brands})\s?)?(?:(?:{makes})(?![A-Za-z0-9_-]){tail}{{0,3}}(?![A-Za-z0-9_:/%]|[.,]\d)"
            rf"|(?:{series}){number}(?:\s?{QUALIFIERS})?(?![A-Za-z0-9_:/%]|[.,]\d))")


@functools.lru_cache(maxsize=8)
def _patterns(lexicon: Lexicon) -> dict[str, re.Pattern]:
    model = phone_model(lexicon)
    return {
        "en_had": re.compile(rf"^(?P<who>.*?)(?:(?<![\w'])(?:(?:finally|just|then|and|caved\s+and|went\s+and)\s+)*|(?=')){EN_HAD_VERBS}\s+"
                             rf"{EN_ARTICLE}(?P<model>{model})", re.IGNORECASE),
        "en_mine": re.compile(rf"(?<![\w'])my\s+(?:(?:new|current|trusty|shiny|beloved)\s+)?"
                              rf"(?:phone\s*(?:is|'s|,|:|-)\s*(?:now\s+)?(?:(?:a|an|the)\s+)?)?(?P<model>{model})", re.IGNORECASE),
        "en_handed": re.compile(rf"\b(?:gave|handed|passed)\s+(?:(?P<to1>my\s+[a-z]+|him|her)\s+)?(?:my|the)\s+(?:old\s+)?"
                                rf"(?P<model>{model})(?:\s+(?:down\s+|on\s+)?to\s+(?P<to2>my\s+[a-z]+))?", re.IGNORECASE),
        # "my old Galaxy S9 was held together with tape": the phone before this one
        "en_old": re.compile(rf"(?<![\w'])my\s+old\s+(?P<model>{model})", re.IGNORECASE),
        "en_sold": re.compile(rf"^(?P<who>.*?)\b(?:sold|traded\s+in|got\s+rid\s+of)\s+(?:my|the)\s+(?:old\s+)?(?P<model>{model})",
                              re.IGNORECASE),
        "zh_had": re.compile(rf"^(?P<who>.*?){ZH_HAD_VERBS}{ZH_COUNTER}\s?(?P<model>{model})", re.IGNORECASE),
        "zh_mine": re.compile(rf"^(?P<who>我|我的)(?P<model>{model})", re.IGNORECASE),
        # a new phone taken for granted in a question: "新入手的iPhone 16 Pro 微信聊天记录怎么迁过来",
        # "how do I move my photos to my new Pixel 8?"
        "asked_new": re.compile(rf"(?:(?<![\w'])my\s+(?:brand[\s-])?new\s+|(?<![他她它你])(?:新入手的|新买的|刚买的|刚入手的|刚换的|新换的))"
                                rf"\s?(?P<model>{model})", re.IGNORECASE),
        "zh_handed": re.compile(rf"^(?:我)?(?:把)?(?:旧的|以前的|之前的|原来的|老的|淘汰下来的|淘汰的)?(?P<model>{model})\s?"
                                rf"{ZH_HANDED_ON}(?P<to>[\u4e00-\u9fff]{{1,4}}?)(?:用了|用|了)", re.IGNORECASE),
    }


class DeviceRules:
    lexicon: Lexicon

    def _phone(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        pats = _patterns(self.lexicon)
        if (m := ZH_CARRIER_MOVED.match(clause) or EN_CARRIER_MOVED.match(clause)
                or turn.lower_case and EN_CARRIER_MOVED_LOWER.match(clause)) and (who := self._who(m["who"], turn)):
            return Found(who, CARRIER, m["name"].strip(), False, True)
        if not has_cjk(clause) and (m := EN_CARRIER_MINE.search(clause)):
            return Found(turn.speaker_id, CARRIER, m["name"].strip())
        if has_cjk(clause):
            if m := pats["zh_handed"].match(clause):
                return self._handed_on(m["model"], m["to"], turn)
            if (m := pats["zh_had"].match(clause) or pats["zh_mine"].match(clause)) and (who := self._who(m["who"], turn)):
                return Found(who, PREDICATE, m["model"].strip(), False, True)
            return None
        if m := pats["en_handed"].search(clause):
            return self._handed_on(m["model"], m["to1"] or m["to2"], turn)
        if (m := pats["en_sold"].match(clause)) and (who := self._who(m["who"], turn)):
            return Found(who, PREDICATE, m["model"].strip(), True, True)
        if (m := pats["en_had"].match(clause)) and (who := self._who(m["who"], turn)):
            return Found(who, PREDICATE, m["model"].strip(), False, True)
        if m := pats["en_old"].search(clause):  # "i'm back on my old iphone": the old one is the one again
            back = re.search(r"\b(?:back\s+(?:on|to)|using)\s+$", clause[: m.start()], re.IGNORECASE)
            return Found(turn.speaker_id, PREDICATE, m["model"].strip(), not back, bool(back))
        if m := pats["en_mine"].search(clause):
            return Found(turn.speaker_id, PREDICATE, m["model"].strip())
        return None

    def _phone_asked_about(self, sentence: str, turn: Turn) -> list[Found]:
        """The speaker's new phone that a question takes for granted (a question states nothing
        else): the speaker uses it."""
        m = _patterns(self.lexicon)["asked_new"].search(sentence)
        return [Found(turn.speaker_id, PREDICATE, m["model"].strip(), False, True)] if m and turn.user_is_speaker else []

    def _handed_on(self, model: str, to: str | None, turn: Turn) -> list[Found]:
        """The speaker's phone is no longer theirs; the one it went to (a relative) uses it."""
        found = [Found(turn.speaker_id, PREDICATE, model.strip(), True, True)]
        if to and (receiver := self._subject(to, turn)) and receiver != turn.speaker_id:
            found.append(Found(receiver, PREDICATE, model.strip()))
        return found
