"""Where someone is, said with "be" alone: "I'm not in Chicago anymore", "I was at Intel for
six years", "现在在成都", "之前在腾讯".

"Be in <place>" and "be at <organisation>" say where someone lives or works only when the
clause says the state lasts: "anymore", "no longer", a span of months or years, and for
"in" also "now" or "these days". "I'm in Paris" alone may be a trip, "I'm at Starbucks
now" an errand. The place must be a name (capitalised in English).

Chinese drops the verb: "在<X>" alone is a whereabouts. After a clause of the same
message that placed someone ("我在百度上班，之前在腾讯"), the bare clause repeats that
slot (gapping); otherwise a place name (jieba's ``ns``) is where someone lives.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

import pycountry

from .changes import ZH_GENERIC_PLACES
from .grammar import EN_DWELLING_IN
from .shared import Found
from .text import employer_of, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

EN_BE_PLACED = re.compile(
    r"^(?P<who>.*?)(?P<be>'m|'re|'s|'ve been|'s been|(?:^|\s)(?:am|is|are|was|were|been|have been|has been))\s+"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
EN_PLACED = re.compile(r"^(?P<neg>not\s+|no longer\s+)?(?:still\s+|now\s+|currently\s+|officially\s+|finally\s+)?(?P<back>back\s+(?:(?:down|up|over|out)\s+)?)?"
                       r"(?P<prep>in|at)\s+(?P<name>.+)$", re.IGNORECASE)
# "finally got the keys to the new flat in Sheffield": a home moved into
EN_KEYS = re.compile(r"^(?P<who>.*?)\bgot\s+(?:the\s+)?keys\s+(?:to|for)\s+(?:the|my|our|her|his|their)\s+(?:new\s+)?(?:flat|place|house|apartment|home|condo)"
                     r"\s+(?:(?:over|down|up|out)\s+)?in\s+(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))", re.IGNORECASE)
# "the radiators in my flat in Harrogate are clanking": one's home said in passing (not "my old flat
# in Leeds", "my parents' house in York", nor one sold, let or left: EN_HOME_LEFT before it)
EN_MY_HOME_IN = re.compile(r"\b(?:my|our)\s+(?:new\s+|current\s+|little\s+|tiny\s+)?(?:flat|apartment|house|condo|place)"
                           r"\s+(?:(?:over|down|up|out)\s+)?in\s+(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))", re.IGNORECASE)
EN_HOME_LEFT = re.compile(r"\b(?:sell|sold|selling|rent(?:ing)?\s+out|let(?:ting)?\s+out|leav|left|out\s+of|miss|used\s+to|moving|moved)",
                          re.IGNORECASE)
# "I'm back in Austin" is a return home, unless it is a visit: "back in London for the weekend".
EN_VISIT = re.compile(r"\bfor\s+(?:the|a|an|a\s+few|two|three|christmas|thanksgiving|easter|the\s+holidays)\b|\bvisit|\btrip\b|\bholiday|\bvacation",
                      re.IGNORECASE)
# "we moved Nana into Oakridge House", "moved my mum to a flat in Leeds": the one moved lives there now
EN_MOVED_SOMEONE = re.compile(
    r"^(?P<who>.*?)\b(?:moved|relocated|got)\s+(?P<whom>(?:my|our)\s+[a-z-]+(?:\s+(?-i:[A-Z][a-z]+))?|(?-i:[A-Z][a-z]+))\s+"
    r"(?:in(?:to)?|to|over\s+to)\s+(?:(?:a|an|the|her|his|their)\s+(?:[a-z-]+\s+){0,3}?(?:in|at)\s+)?"
    r"(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,3}))", re.IGNORECASE)
# "we live on a houseboat in Amsterdam" (a home one lives "in" is the lexicon's "live in", grammar.EN_DWELLING_IN)
EN_LIVE_ON = re.compile(r"^(?P<who>.*?)\b(?:live|lives|living)\s+on\s+(?P<home>(?:a|an|the|our|my)\s.+)$", re.IGNORECASE)
# "我妈退休后回老家温州住了", "回成都住了": where one went back to live
ZH_BACK_TO_LIVE = re.compile(r"^(?P<who>.*?)(?:回|搬回)了?(?:老家)?(?P<place>[\u4e00-\u9fff]{2,4}?)(?:住|生活|定居|养老)(?:下来)?了?$")
# The state lasts: a change said ("now", "anymore") or a span of months or years.
EN_NOW = re.compile(r"\b(?:now|these days|nowadays)\b", re.IGNORECASE)
EN_LASTING = re.compile(
    r"\b(?:anymore|any more|no longer)\b"
    r"|\bfor\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|many)\s+(?:more\s+)?(?:months?|years?|yrs?)\b"
    r"|\bsince\s+(?:\d{4}|last\s+(?:year|month))\b",
    re.IGNORECASE,
)
# "our house is in Brooklyn": where the speaker's home is, the speaker lives.
EN_HOME = re.compile(r"^(?:my|our)\s+(?:new\s+)?(?:house|home|place|apartment|flat|condo)$", re.IGNORECASE)
# "在济南老家": 济南; not the 在 of 现在 ("跳槽了，现在去了字节" is ZH_WENT_TO's)
ZH_PLACED = re.compile(r"^(?P<who>.*?)(?<!现)在(?P<place>[^在]+?)(?:老家|那边|这边|那儿|这儿)?(?:了|呢|啦|哦)?$")
ZH_PLACE_DESCRIBED = re.compile(r"^(?P<place>[\u4e00-\u9fff]{2,8}?)的?[一两几][个座家所处间片][\u4e00-\u9fff]{1,8}$")
PLACE_TAGS = ("ns", "nt", "nz", "nr", "eng")  # a named place or organisation, not "家", "公司"
PLACING_PREDICATES = ("lives_in", "works_at", "studies_at")
ORIGIN_PREDICATES = frozenset({"hometown", "born_in"})  # where one comes from: a region, then its town
# A job change that does not say where to ("老公跳槽了！现在在安泰保险"): the next "在X" is the
# employer, and so is "去了X" ("老公跳槽了！去了字节").
ZH_JOB_CHANGED = re.compile(r"跳槽|换(?:了(?:份|个)?)?工作|找到(?:了)?(?:新)?工作|^(?:又|我又|我)?升(?:职)?了")
ZH_HOME_MOVED = re.compile(r"搬(?:了)?(?:个)?家了?$|搬走了$")  # a move, and where to in the next clause
# A home rented in a town: "在武汉租了个单间", "我在杭州租了套两居室" (lives_in the town).
ZH_RENTED = re.compile(r"^(?P<who>.*?)(?<!现)在(?P<place>[^在]+?)租了?(?:一|个|间|套|一个|一间|一套)?"
                       r"(?:房子?|单间|公寓|[一两三]居室?|[一两三]室一厅|小区)")
ZH_WENT_TO = re.compile(r"^(?P<who>.*?)(?:(?:这回|这次|这一次)是?)?(?:去了|跳到了?|跳去了|进了)(?P<place>[^在]+?)(?:了|呢|啦)?$")
# Slots whose value is a town a region may follow: "live in Porto, Portugal", "总部在杭州，浙江".
TOWN_PREDICATES = ("lives_in", "born_in", "hometown", "headquarters", "works_in")
EN_REGION = re.compile(r"[A-Z][\w'.-]*(?:\s+(?:of\s+)?[A-Z][\w'.-]*){0,2}")
# Slots whose value is a place one goes to (a school, an employer, a club), and "it's in X"
# right after one: where that place is ("switched Leo to Riverside Academy, it's over in Cranford").
VENUE_PREDICATES = ("works_at", "studies_at", "attends", "member_of")
NOT_IN_A_NAME = ("r", "v", "p", "u", "c", "y", "e", "t", "f", "x")  # pronouns, verbs, particles, time words...
EN_IT_IS_IN = re.compile(r"^it(?:'s|\s+is)\s+(?:(?:over|right|just|located|based|out)\s+)?in\s+(?-i:(?P<place>"
                         + EN_REGION.pattern + r"))(?![\w'-])", re.IGNORECASE)

# "their HQ is up in Leeds", "他们总部在合肥", "公司总部在合肥" right after a clause that named
# an employer: where that employer has its headquarters.
EN_ITS_HQ = re.compile(r"^(?:(?:their|its|our|the\s+company's|the)\s+)?(?:hq|headquarters|head\s+office|main\s+office)"
                       r"(?:'s|\s+is|\s+are)?\s+(?:(?:up|down|over|out|right|just|based|located)\s+)?in\s+(?-i:(?P<place>"
                       + EN_REGION.pattern + r"))(?![\w'-])", re.IGNORECASE)
# One of a town's people now: "officially a Manchester girl now", "(I'm) a Seattle resident as of
# this weekend". Said of oneself with a change ("officially", "now", "as of"); "a Londoner"
# alone may be where one is from.
EN_LOCAL_NOW = re.compile(
    r"^(?:(?:i'm|i\s+am|im)\s+)?(?P<said>(?:(?:officially|finally|now)\s+)+)?(?:a|an)\s+"
    r"(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))\s+(?:resident|local|girl|guy|boy|gal|lad|lass|person)"
    r"(?P<when>\s+(?:now|as\s+of\s+.+))?\W*$", re.IGNORECASE)
# "our HQ is in Austin", "我们公司总部在合肥" with no employer named in the message: the speaker's
# employer's headquarters (``text.employer_of``: search reads it as the employer the user has then).
# So is "他们总部在苏州" / "人家总部在青岚" that a user says with no company named: the company
# they spoke of before, which the rules cannot see, is most often their own.
# ("公司总部在广州" opening what the speaker says: the company is the speaker's, as 我司 is)
OUR_HQ = re.compile(r"^(?:our\s+(?:company's\s+)?(?:hq|headquarters|head\s+office|main\s+office)|(?:我们|他们|人家|咱们|咱)(?:公司)?的?总部"
                    r"|(?:公司|我司)的?总部)",
                    re.IGNORECASE)
ZH_ITS_HQ = re.compile(r"^(?:他们|她们|人家|它|公司|我们|我们公司|他们公司|她们公司|那家公司|这家公司)?的?总部(?:在|位于|设在)(?P<place>[\u4e00-\u9fff]{2,6}?)"
                       r"(?:那边|这边)?$")

# "my sister just moved there", "我妹刚搬过去", "现在就住那边": a home in the place the message
# named before ("What time is it in Auckland? …", "去了大理旅游，…"); not "moving there" (a plan)
EN_MOVED_THERE = re.compile(r"^(?P<who>.*?)\b(?:moved|relocated|lives|live|living)\s+(?:(?:over|out|back|down|up)\s+)?there\b(?!\s+(?:for|on)\b)",
                            re.IGNORECASE)
ZH_MOVED_THERE = re.compile(r"^(?P<who>.*?)(?:刚刚|刚|已经|也|早就|都)?(?:搬过去|搬(?:到|去)(?:那边|那儿|那里))(?:了|啦)?$"
                            r"|^(?P<who2>.*?)(?:现在|目前)?(?:就|也)?住(?:在)?(?:那边|那儿|那里)(?:了|啦)?$")
EN_CALENDAR = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|christmas|easter)",
                         re.IGNORECASE)  # "in May", "on Sunday": a time, no place
EN_PLACE_BEFORE = re.compile(r"\b(?:in|to|from|visit|visited|visiting|near)\s+(?P<place>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}))", re.IGNORECASE)


@cache
def _region_names() -> frozenset[str]:
    """Countries and their first-level divisions (states, provinces, nations), casefolded."""
    names = {getattr(c, a).casefold() for c in pycountry.countries
             for a in ("name", "common_name", "official_name") if getattr(c, a, None)}
    names.update(s.name.casefold() for s in pycountry.subdivisions if s.parent_code is None)
    return frozenset(names)


def is_region(name: str) -> bool:
    """``name`` is a country or a state, province or nation of one ("New Zealand", "Texas")."""
    return name.casefold() in _region_names()


class WhereaboutsRules:
    lexicon: Lexicon

    def _whereabouts(self, clause: str, turn: Turn) -> Found | None:
        return self._zh_whereabouts(clause, turn) if has_cjk(clause) else self._en_whereabouts(clause, turn)

    def _moved_there(self, clause: str, before: str, turn: Turn) -> Found | None:
        """ "my sister just moved there" after "What time is it in Auckland?": lives_in the
        place named last before the clause (jieba's place tag for Chinese)."""
        m = (ZH_MOVED_THERE if has_cjk(clause) else EN_MOVED_THERE).match(clause)
        if m is None:
            return None
        if has_cjk(clause):
            place = next((w for w, flag, _ in reversed(self._tokens(before)) if flag.startswith("ns") and len(w) >= 2), None)
        else:
            place = next((p["place"] for p in reversed(list(EN_PLACE_BEFORE.finditer(before)))
                          if p["place"].split()[0].casefold() not in self.lexicon.not_names
                          and not EN_CALENDAR.match(p["place"])), None)
        region, negated = self._clean_before_verb(m.group(1) or m.groupdict().get("who2") or "")
        if region:
            subject = self._subject(region, turn)
        else:
            subject = turn.other if has_cjk(clause) and turn.topic and turn.other else turn.speaker_id
        if subject and re.search(rf"{re.escape(subject)}(?:的)?(?:总部|公司|办公室)|{re.escape(subject)}'s\s+(?:hq|headquarters|office)",
                                 before, re.IGNORECASE):
            return None  # a pronoun may point at the company just placed ("星河总部在杭州，她下个月搬过去")
        return Found(subject, "lives_in", self._clean_value(place), negated, True) if place and subject else None

    def _region_of(self, clause: str, town: str, turn: Turn) -> Found | None:
        """A clause that is only a place name, right after one that named a town: the region
        the town is in ("moved to Porto, Portugal" -> Porto located_in Portugal)."""
        region = self._clean_value(clause)
        if not region or region.casefold() == town.casefold():
            return None
        if has_cjk(region):
            tokens = self._tokens(region)
            if len(tokens) != 1 or not tokens[0][1].startswith("ns") or len(region) < 2 or not has_cjk(town):
                return None
        elif not EN_REGION.fullmatch(region) or any(w.casefold() in self.lexicon.not_names for w in region.split()):
            return None
        return Found(town, "located_in", region, rule="region")

    def _place_head(self, predicate: str, value: str) -> str:
        """In a town's slot, "湘西一个小村子" ("a small village in Xiangxi") is the named place:
        a place name (jieba's ``ns``) that a counted description follows."""
        m = ZH_PLACE_DESCRIBED.match(value) if predicate.split(":")[-1] in TOWN_PREDICATES else None
        if m is None:
            return value
        tokens = self._tokens(m["place"])
        return m["place"] if tokens and all(tag.startswith("ns") for _, tag, _ in tokens) else value

    @staticmethod
    def _our_employer(clause: str, turn: Turn) -> str | None:
        return employer_of(turn.user_id) if turn.user_is_speaker and OUR_HQ.match(clause) else None

    def _venue_in(self, clause: str, venue: str | None, employer: str | None = None, read: bool = False) -> Found | None:
        """ "it's in Cranford" right after a clause that named a school or an employer; "their
        HQ is in Leeds" / "他们总部在合肥" right after one that named an employer, or after any
        sentence of the message that did ("I'm a sales rep for Orla Foods. HQ is in Rotterdam"),
        in place of what a looser rule read ("HQ is_in Rotterdam")."""
        org = venue or employer or ""
        named = clause[len(org):] if has_cjk(org) and clause.startswith(org) else clause  # "米境总部在上海"
        if (hq := EN_ITS_HQ.match(clause) or ZH_ITS_HQ.match(named)) and (
                not has_cjk(hq["place"]) or self._zh_place(hq["place"])):
            return Found(org, "headquarters", hq["place"], rule="region")
        if read or venue is None:
            return None
        m = EN_IT_IS_IN.match(clause)
        if m is None or any(w.casefold() in self.lexicon.not_names for w in m["place"].split()):
            return None
        return Found(venue, "located_in", m["place"], rule="region")

    def _ends_on_name(self, found: Found, clause: str, turn: Turn) -> bool:
        """The claim's value is a name that ends its clause, which a more precise one may follow
        after a comma: an English name in a slot that is not a town or a venue (those keep the
        town and read the region as where it is), or a Chinese region one comes from ("老家是东北的");
        never an item of a list."""
        if found.negated or turn.listed:
            return False
        if has_cjk(found.value):
            return (found.predicate.removeprefix("attr:") in ORIGIN_PREDICATES
                    and re.search(rf"{re.escape(found.value)}的?(?:人)?$", clause) is not None)
        return (found.predicate not in TOWN_PREDICATES + VENUE_PREDICATES + PLACING_PREDICATES
                and bool(EN_REGION.fullmatch(found.value)) and clause.endswith(found.value))

    def _refined_name(self, value: str, clause: str) -> str | None:
        """The name said just before, made precise by the clause after it: "the capital is Oban,
        New Zealand" (with its country); "老家是东北的，黑龙江鹤岗" (the places named after a region)."""
        if has_cjk(value):
            tokens = self._tokens(clause) if re.fullmatch(r"[\u4e00-\u9fff]{2,10}", clause) else ()
            return clause if tokens and all(flag.startswith("ns") for _, flag, _ in tokens) else None
        region = self._clean_value(clause)
        return f"{value}, {region}" if is_region(region) else None

    def _en_whereabouts(self, clause: str, turn: Turn) -> Found | None:
        """ "I've been in Lisbon for two years now", "I'm not in Chicago anymore", "was at Intel for six years";
        "officially a Manchester girl now", "a Seattle resident as of this weekend" (lives_in, a change)."""
        if (local := EN_LOCAL_NOW.match(clause)) and (local["said"] or local["when"]) and turn.user_is_speaker and \
                not any(w.casefold() in self.lexicon.not_names for w in local["place"].split()):
            return Found(turn.speaker_id, "lives_in", local["place"], False, True)
        if (keys := EN_KEYS.match(clause)) and (subject := self._who(keys["who"], turn)):
            return Found(subject, "lives_in", self._clean_value(keys["place"]), False, True)
        if (home := EN_MY_HOME_IN.search(clause)) and turn.user_is_speaker and not EN_HOME_LEFT.search(clause[: home.start()]) \
                and home["place"].split()[0].casefold() not in self.lexicon.not_names:
            return Found(turn.speaker_id, "lives_in", self._clean_value(home["place"]), False)
        if (moved := EN_MOVED_SOMEONE.match(clause)) and (subject := self._who(moved["who"], turn)) == turn.speaker_id \
                and (whom := turn.entities.get(moved["whom"].casefold()) or self._relative(moved["whom"], turn)) \
                and whom != turn.speaker_id and moved["place"].split()[0].casefold() not in self.lexicon.not_names:
            return Found(whom, "lives_in", self._clean_value(moved["place"]), False, True)
        if (on := EN_LIVE_ON.match(clause)) and (home := EN_DWELLING_IN.match(on["home"])) and (subject := self._who(on["who"], turn)):
            place = re.split(r"[,.!?]", home["place"])[0]  # a houseboat's town is read as a town is, whatever follows
            return Found(subject, "lives_in", self._clean_value(place)) if place[:1].isupper() else None
        m = EN_BE_PLACED.match(clause)
        placed = EN_PLACED.match(m["rest"]) if m else None
        if placed is None:
            return None
        at = placed["prep"].casefold() == "at"
        home = EN_HOME.match(m["who"].strip()) is not None and not at
        # "I'm at Starbucks now" is an errand; "at X for two years" a job, and so is "left Lumora,
        # I'm at Halvard now" (an employer left before it in the message)
        moved_on = at and turn.job_left and bool(EN_NOW.search(clause))
        returned = bool(placed["back"]) and not at and not placed["neg"] and not EN_VISIT.search(clause)
        if not (home or moved_on or returned or EN_LASTING.search(clause) or not at and EN_NOW.search(clause)):
            return None
        words = []
        for word in placed["name"].split():
            if not word[:1].isupper() or word.casefold().strip(",.!") in self.lexicon.not_names:
                break
            words.append(word)
        name = self._clean_value(" ".join(words))
        region, negated = self._clean_before_verb(m["who"])
        subject = turn.speaker_id if home else self._subject(region, turn)
        if subject is None or not name or (m["who"].strip() and not region):
            return None
        # "I was in Boston for years": a past state, no longer so
        negated = negated or bool(placed["neg"]) or m["be"].strip().casefold() in ("was", "were")
        predicate = "works_at" if at else "lives_in"
        return Found(subject, predicate, name, negated, moved_on or returned)

    def _zh_whereabouts(self, clause: str, turn: Turn) -> Found | None:
        """ "现在在成都" (lives_in 成都), "之前在腾讯" after "在百度上班" (works_at 腾讯), "去了字节"
        after "跳槽了" (works_at 字节), "在武汉租了个单间" (lives_in 武汉)."""
        if ZH_ITS_HQ.match(clause):
            return None  # "公司总部在合肥": the employer's, not a person's whereabouts (``_venue_in``)
        # "退休后": when, not who
        if (back := ZH_BACK_TO_LIVE.match(clause)) and self._zh_place(back["place"]) \
                and (subject := self._who(re.sub(r"[\u4e00-\u9fff]{2}(?:以后|之后|后)$", "", back["who"]), turn)):
            return Found(subject, "lives_in", back["place"], False, True)
        rented = ZH_RENTED.match(clause)
        m = rented or ZH_PLACED.match(clause) or (ZH_WENT_TO.match(clause) if turn.job_moved or turn.home_moved else None)
        if m is None or not self._on_tokens(clause, m.start("place") - 1, m.start("place")):
            return None
        tokens = self._tokens(m["place"])
        # After "跳槽了", "去了X" or "现在在X" names the new employer even where the dictionary
        # does not know its name (米境互动: 米 / 境 / 互动, a numeral, a morpheme and an adverb
        # to jieba; 星河智能: two common nouns).
        unknown_name = (turn.job_moved and m.re is not ZH_RENTED and tokens and tokens[0][0] not in ZH_GENERIC_PLACES  # 公司楼下
                        and re.fullmatch(r"[\u4e00-\u9fff]{2,6}", m["place"]) is not None
                        and not tokens[0][1].startswith(NOT_IN_A_NAME)  # 互娱 in 星途互娱 may be a "verb"
                        and not any(flag.startswith(NOT_IN_A_NAME) and not flag.startswith("v") for _, flag, _ in tokens))
        if not tokens or not unknown_name and any(not flag.startswith(("n", "eng")) for _, flag, _ in tokens):
            return None  # "在开会", "在这边": no place named
        if not (unknown_name or tokens[-1][1].startswith(PLACE_TAGS)  # an employer may end in a common noun: 安泰 + 保险
                or turn.placed == "works_at" and tokens[0][1].startswith(PLACE_TAGS)):
            return None
        if rented and tokens[-1][1].startswith("ns"):
            predicate = "lives_in"
        elif turn.placed:
            predicate = turn.placed
        elif tokens[-1][1].startswith("ns"):
            predicate = "lives_in"
        else:
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        place = self._clean_value(m["place"])
        # after "跳槽了" the new employer replaces the old one, even a brother's (not "also")
        moved = turn.job_moved and predicate == "works_at" or turn.home_moved and predicate == "lives_in"
        return Found(subject, predicate, place, negated, moved) if subject and place else None
