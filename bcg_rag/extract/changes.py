"""Change statements of everyday chat: the text itself says that a value replaced another.

Each shape names its slot by its grammar, and every claim it reads is marked ``changed``
(the stance is the shape's: a clause said with "also"/"又" still replaces the old value):

* starting at or returning to an employer: "first day at Figma", "my first week at the new
  job at Canva", "new gig at Datadog", "rejoined Google", "went back to IBM" (a name that
  reads as an organisation), "back at work at Oracle", "signed with Orrin Systems" (a company
  by its last word); "回到百度上班了", "又回华为了";
  leaving one employer for another: "left Oracle for Salesforce";
* a new title: "got bumped up to team lead", "I'm now head of sales"; 升职成了主管;
* a diet taken up or dropped (``diets.py``);
* switching someone to a school ("switched our daughter to Oak Hill Elementary"), one's
  savings to a bank ("moved my savings over to Ally"), a membership to a gym ("moved my
  membership over to Peak Form"); 改学法语了 (studies), 换成了特斯拉;
* ending: "cancelled my gym membership at Equinox" (member_of), "broke up with Sam",
  "我和小张分手了" (dating, denied);
* dating: "started dating Theo", "been seeing Theo", "seeing someone new, her name's Mara",
  "我有女朋友了，叫小雨";
* an organisation moving its headquarters (``headquarters.py``).

Plans, hedges, questions and other people are the clause mood's and the subject rules'
business, as for every rule: "I'm going to start at Figma" is a plan.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .en import EN_NEW_JOB
from .headquarters import HeadquartersRules
from .routines import SCHOOL
from .shared import Found
from .text import CJK, ZH_GENERIC_PLACES, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

ORG = r"(?P<org>[A-Z][\w&'.-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w&'.-]*){0,3})"
# "first day at Figma", "Day 1 at the bakery", "my first week at the new job at Canva", "survived
# week one at Tallowmere" (the speaker's: chat leaves out the "I").
EN_FIRST_DAY = re.compile(
    r"^(?P<who>.*?)\b(?:(?:my|his|her)\s+)?(?:first|1st)\s+(?:day|week|month|shift)"
    r"|^(?P<who2>)(?i:(?:survived|finished|done\s+with|made\s+it\s+through)\s+)?(?i:day|week)\s+(?:one|1)\b",
)
# "my husband's been at Corvid Robotics for 5 years", "I've been working at Stripe for two
# months": a named place one has been at for months or years is where one works
# "signed with Orrin Systems!!": a contract with a company (by its last word: a label or a club is no employer)
EN_SIGNED_WITH = re.compile(r"^(?P<who>.*?)\b(?:signed|signing)\s+(?:on\s+)?with\s+(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})\s*$")
EN_STARTING_ON = re.compile(r"^(?:and\s+|i\s+)?start(?:ing|s)?\s+(?:on\s+|in\s+)?(?:the\s+)?(?:\d|next\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri)\w*\b)",
                            re.IGNORECASE)
EN_BEEN_AT = re.compile(
    r"^(?P<who>.*?)(?:'ve|'s|\s+have|\s+has)\s+been\s+(?:working\s+)?at\s+(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})"
    r"\s+for\s+(?:(?:about|almost|nearly|over|like|just)\s+)?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"a\s+few|a\s+couple(?:\s+of)?|several)\s+(?:years?|yrs?|months?)\b"
)
EN_AT_WORK = re.compile(
    r"^\s*(?i:(?:of\s+)?work\s+)?(?i:at|with)\s+(?i:(?:the|my|a)\s+new\s+(?:job|gig|role|position)\s+(?:at|with)\s+)?"
    r"(?P<org>(?i:the\s+)?[\w&'.-]+(?:\s+[A-Z][\w&'.-]*){0,3})",
)
NOT_EMPLOYERS = frozenset("school college university work gym camp kindergarten daycare preschool home".split())
# "new gig at Datadog", "my new job with the city": no verb before it.
EN_NEW_GIG = re.compile(
    r"^(?P<who>.*?)\b(?:a|my|the)?\s*new\s+(?:job|gig|role|position)\s+(?:as\s+(?:a\s+|an\s+)?(?P<title>[a-z][\w\s-]*?)\s+)?(?:at|with)\s+" + ORG
    # ... or the title after it: "new job at Lyft as a product designer" (three words at most)
    + r"(?:\s+as\s+(?!(?i:of|well|soon|long|usual|always|planned|expected)\b)(?:an?\s+)?(?P<title2>(?i:[a-z]+(?:[ -][a-z]+){0,2}))(?![\w-]))?"
)
# Back at an employer: "rejoined Google", "went back to IBM", "back at work at Oracle".
EN_REJOINED = re.compile(r"^(?P<who>.*?)\bre-?join(?:ed|ing|s)?\s+" + ORG + r"(?!\s+(?:club|team|league|gym))")
EN_BACK_TO = re.compile(
    r"^(?P<who>.*?)\b(?:went|gone|go|going|came|come|coming|moved|returned|return)\s+back\s+to\s+(?P<work>work(?:ing)?\s+(?:at|for)\s+)?" + ORG
    + r"|^(?P<who2>.*?)\b(?:returned\s+to|back\s+at|back\s+with)\s+(?P<work2>work\s+(?:at|for)\s+)?(?P<org2>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})"
)
AWAY = re.compile(r"\bafter\s+(?:\w+\s+){1,2}(?:years?|months?)\s+(?:away|off|elsewhere|at\s+[A-Z]\w*)", re.IGNORECASE)
# What reads as an organisation without a job word: an acronym, or a company's suffix.
ORG_NAME = re.compile(
    r"^(?:[A-Z]{2,6}|.+\s(?:Inc|Corp|Corporation|Co|Company|Group|Labs?|Bank|Technologies|Systems|Partners|Capital|Health|Software|Studios?))\.?$"
)
EN_LEFT_FOR = re.compile(r"^(?P<who>.*?)\b(?:left|quit|leaving|leaves)\s+" + ORG + r"\s+(?:to\s+join|for)\s+"
                         r"(?:(?:a|the)\s+(?:new\s+)?(?:job|role|position|gig)\s+(?:at|with)\s+)?(?P<new>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})")
# "got bumped up to team lead", "was made head of sales", "got promoted to senior".
EN_PROMOTED = re.compile(
    r"^(?P<who>.*?)\b(?:got|get|was|been|just\s+got)\s+(?:bumped(?:\s+up)?|moved\s+up|made|named|appointed)\s+(?:to\s+)?(?:the\s+)?(?:new\s+)?(?P<title>.+)$",
    re.IGNORECASE,
)
# "they made me team lead", "my boss promoted me to senior analyst": the speaker, by the object.
EN_MADE_ME = re.compile(
    r"^(?:.*?\b)?(?:made|promoted|bumped|moved|named|appointed)\s+me\s+(?:up\s+)?(?:to\s+)?(?:the\s+)?(?:new\s+)?"
    r"(?:an?\s+)?(?P<title>.+)$",
    re.IGNORECASE,
)
# A title, by its head word: "head of sales", "team lead", "engineering manager".
TITLE = re.compile(
    r"^(?:(?:senior|junior|staff|principal|lead|chief|head|deputy|assistant|associate|executive|general|regional|vice)\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:head\s+of\s+[\w\s&-]+|lead|manager|director|engineer|supervisor|president|vp|chief|officer|"
    r"architect|editor|partner|captain|principal|coordinator|analyst|administrator|designer|cto|ceo|cfo|coo)$",
    re.IGNORECASE,
)
EN_NOW_TITLE = re.compile(
    r"^(?P<who>.+?)(?:'m|'s|\s+am|\s+is)\s+(?:now|officially)\s+(?:the\s+)?(?:new\s+)?(?P<title>[a-z][\w\s&-]+)$", re.IGNORECASE
)
# "senior designer as of today", "officially team lead starting monday": a title alone, from a date
# (after "GUESS WHO GOT PROMOTED"): the speaker's, when no one else was named before.
EN_TITLE_FROM = re.compile(
    r"^(?:officially\s+)?(?:(?:the|a|an)\s+)?(?:new\s+)?(?P<title>[a-z][\w\s&-]+?)\s+(?:as\s+of|starting|effective|from)\s+"
    r"(?:today|now|tomorrow|monday|next\s+week|this\s+week|immediately)$", re.IGNORECASE
)
# "switched our daughter to Oak Hill Elementary": someone moved to another school.
EN_SCHOOL_SWITCH = re.compile(
    r"^(?P<who>.*?)\b(?:switched|moved|transferred|changed)\s+(?P<kid>(?:my|our)\s+[a-z-]+(?:\s+[A-Z][\w'-]*)?|[A-Z][\w'-]*)\s+"
    r"(?:over\s+)?to\s+(?P<school>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,4})"
)
EN_MONEY_MOVED = re.compile(
    r"^(?P<who>.*?)\b(?:moved|switched|transferred)\s+(?:my|our|all\s+(?:my|our))\s+(?:(?P<gym>(?:gym\s+)?membership)|savings|money"
    r"|banking|checking|accounts?)\s+(?:over\s+)?to\s+(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2})"
)
EN_CANCELLED_AT = re.compile(
    r"^(?P<who>.*?)\b(?:cancel(?:l?ed|l?ing|s)?|ended|dropped)\s+(?:my|our|the)\s+(?:[a-z-]+\s+){0,2}?(?P<kind>membership|subscription)\s+"
    r"(?:at|with|to|for)\s+(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2})"
)
EN_BROKE_UP = re.compile(
    r"^(?P<who>.*?)\b(?:broke|broken|breaking|break|split)\s+up\s+with\s+(?P<name>(?:my|her|his)\s+[a-z]+(?:\s+[A-Z][\w'-]*)?|[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
    # "Marco and I broke up", "me and Sam split up": the other one named first
    r"|^(?P<name2>(?:my\s+[a-z]+\s+)?[A-Z][\w'-]*)\s+and\s+(?:I|me)\s+(?:(?:just|finally|officially|have|'ve)\s+)*"
    r"(?:broke\s+up|split\s+up|split|separated|called\s+it\s+quits|called\s+off\s+(?:the|our)\s+(?:engagement|wedding))\b"
)
# "seeing" a name is also going to a show ("I'm seeing Hamilton"): only "been seeing" / "started
# seeing" a name, or "seeing someone", says whom one dates.
EN_DATING = re.compile(
    r"^(?P<who>.*?)\b(?:(?:started|start|been|'ve\s+been|'m|am|is|'s)\s+)?(?:dating|going\s+out\s+with)\s+"
    r"(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|someone(?:\s+new)?|somebody(?:\s+new)?)\s*$"
    r"|^(?P<who2>.*?)\b(?:(?:started|been|'ve\s+been)\s+seeing\s+(?P<name2>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
    r"|(?:(?:been|'ve\s+been|'m|am|is|'s)\s+)?seeing\s+(?P<name3>someone|somebody)(?:\s+new)?)"
    r"(?:\s+(?:for|since)\s+[\w\s]+|\s+lately|\s+recently)?\s*$"  # "... for a few weeks"
)
EN_PARTNER_NAME = re.compile(r"^(?:her|his|their)\s+name(?:'s|\s+is)\s+(?P<name>[A-Z][\w'-]*)(?:\s+and\s+.*)?\s*$")

# 回到百度上班了 / 又回华为了 / 重回阿里: back at an employer; 跟小张分手了: a breakup.
# One who serves the speaker, replaced: "switched GPs bc okafor retired", "changed dentists";
# then, in the same message, who it is now: "now seeing Dr. Lindqvist", "now with Monzo".
EN_SWITCHED_KIND = re.compile(r"^(?P<who>.*?)\b(?:switched|changed|swapped)\s+(?:my\s+|our\s+)?(?P<kind>[a-z]{3,12}|(?-i:[A-Z]{2,3}))s\b"
                              r"(?!\s+(?:to|over|from)\b)", re.IGNORECASE)
# "we've got a new manager now, Tom Reyes": the relation, then (the next clause) the name
EN_GOT_NEW_KIN = re.compile(r"^(?P<who>.*?)\b(?:got|have|has|getting)\s+a\s+new\s+(?P<kin>[a-z]+(?:\s+(?!now\b)[a-z]+)?)(?:\s+now)?\s*$", re.IGNORECASE)
EN_BARE_NAME = re.compile(r"^(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})\s*[.!]*$")
PROVIDER_KINDS = frozenset("gp doctor dentist therapist counselor counsellor physio pediatrician vet bank gym trainer coach "
                           "hairdresser barber stylist salon insurer carrier provider pharmacy landlord accountant lawyer "
                           "mechanic school daycare nursery church team club".split())
EN_NOW_WITH = re.compile(r"^(?:(?:and|so|but|ok)\s+)*(?:i'm\s+|im\s+)?now\s+(?:seeing|with|at|using|going\s+to|banking\s+with)\s+"
                         r"(?P<name>(?-i:(?:Dr\.?\s+)?[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,3}))\s*$", re.IGNORECASE)
ZH_BACK_TO_WORK = re.compile(rf"^(?P<who>.*?)(?:又|重新)?(?:回到|回|重回)了?(?P<org>[{CJK}A-Za-z]{{2,8}}?)(?P<work>上班|工作|任职)?了?$")
# "小宇跟我表白了", then "我们在一起啦": whom the speaker now dates
ZH_CONFESSED = re.compile(r"^(?P<before>.+?)(?:跟|向|对|和)我表白了$")
ZH_TOGETHER = re.compile(r"^(?:我们|我俩|我们俩)?(?:终于|正式|已经)?在一起(?:了|啦)$")
ZH_BROKE_UP = re.compile(rf"^(?P<who>.*?)(?:和|跟|与)(?P<name>[{CJK}A-Za-z]{{2,6}}?)(?:分手了?|分了)$")  # "跟阿哲分了" too
# Relatives that are someone one dates: a name given for one is whom the speaker dates.
PARTNERS = frozenset({"boyfriend", "girlfriend", "partner"})


class ChangeRules(HeadquartersRules):
    lexicon: Lexicon

    def _change(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if has_cjk(clause):
            return (self._zh_back_to_work(clause, turn) or self._zh_broke_up(clause, turn) or self._zh_diet(clause, turn)
                    or self._zh_moved_hq(clause, turn))
        return (self._en_started(clause, turn) or self._en_back(clause, turn) or self._en_left_for(clause, turn)
                or self._en_promoted(clause, turn) or self._en_diet(clause, turn) or self._en_switched_someone(clause, turn)
                or self._en_cancelled_at(clause, turn) or self._en_dating(clause, turn) or self._en_moved_hq(clause, turn)
                or self._en_switched_kind(clause, turn))

    def _en_switched_kind(self, clause: str, turn: Turn) -> Found | None:
        """ "switched GPs" (nothing yet: who it was is not said), then "now seeing Dr. Lindqvist"
        (attr:doctor, said as a change), as "my GP is Dr. Okafor" names the slot; "got a new manager
        now", then "Tom Reyes" (has_boss)."""
        if (m := EN_SWITCHED_KIND.match(clause)) and m["kind"].casefold() in PROVIDER_KINDS and self._who(m["who"], turn) == turn.speaker_id:
            turn.switched_kind = m["kind"]
            return None
        if (m := EN_GOT_NEW_KIN.match(clause)) and collapse(m["kin"]).casefold() in self.lexicon.relatives \
                and self._who(m["who"], turn) == turn.speaker_id:
            turn.new_kin = m["kin"]
            return None
        if turn.new_kin and (bare := EN_BARE_NAME.match(clause)) and (name := self._name(bare["name"], turn)):
            found, turn.new_kin = self._relation_claim(name, turn.new_kin, turn), None
            return found
        if turn.switched_kind and (now := EN_NOW_WITH.match(clause)):
            found = self._attribute_claim(turn.speaker_id, True, turn.switched_kind, now["name"], False, known_only=False)
            turn.switched_kind = None
            return replace(found, changed=True) if found else None
        return None

    def _who(self, region: str, turn: Turn) -> str | None:
        """The subject the words before the verb name; None when they deny the change."""
        region, negated = self._clean_before_verb(region or "")
        return None if negated else self._subject(region, turn)

    # ---- employers
    def _en_started(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "first day at Figma", "Day 1 at the bakery", "new gig at Datadog (as a ...)", "been at
        Corvid for 5 years"."""
        if m := EN_FIRST_DAY.search(clause):
            at = EN_AT_WORK.match(clause[m.end():])
            if at is None:
                return None
            subject, org = self._who(m["who"] or "", turn), self._clean_value(at["org"])
            if subject is None or not self._usable(org) or org.casefold() in NOT_EMPLOYERS:
                return None  # "first day at school" is a pupil's, "first week at the gym" a member's
            return [Found(subject, "works_at", org, False, True)]
        if m := EN_SIGNED_WITH.match(clause):
            subject, org = self._who(m["who"], turn), self._clean_value(m["org"])
            if m["org"].split()[-1].casefold() not in self.lexicon.words("organisations", "en_suffixes"):
                turn.signed = (subject, org) if subject and self._usable(org) else None  # a label, a club or a job: said next
                return None
            return [Found(subject, "works_at", org, False, True)] if subject and self._usable(org) else None
        if turn.signed and EN_STARTING_ON.match(clause):  # "signed with Zalando!! starting 1st of March": a job
            (subject, org), turn.signed = turn.signed, None
            return [Found(subject, "works_at", org, False, True)]
        if m := EN_BEEN_AT.search(clause):
            subject, org = self._who(m["who"], turn), self._clean_value(m["org"])
            if subject is None or not self._usable(org) or org.casefold() in NOT_EMPLOYERS:
                return None
            return [Found(subject, "works_at", org)]
        if (m := EN_NEW_GIG.search(clause)) and not EN_NEW_JOB.match(clause):  # "started a new job at X as Y": the job rule's
            subject, org = self._who(m["who"], turn), self._clean_value(m["org"])
            if subject is None or not self._usable(org):
                return None
            found = [Found(subject, "works_at", org, False, True)]
            if (m["title"] or m["title2"]) and self._usable(title := self._clean_value(m["title"] or m["title2"])):
                found.append(Found(subject, "job_title", title, False, True))
            return found
        return None

    def _en_back(self, clause: str, turn: Turn) -> Found | None:
        """ "rejoined Google", "went back to IBM", "back at work at Oracle": the employer again.
        Without a job word the name must read as an organisation ("back to Paris" is a place)."""
        if m := EN_REJOINED.search(clause):
            who, org, work = m["who"], m["org"], True
        elif m := EN_BACK_TO.search(clause):
            who, org, work = m["who"] if m["org"] else m["who2"], m["org"] or m["org2"], bool(m["work"] or m["work2"])
        else:
            return None
        org = self._clean_value(org)
        work = work or bool(AWAY.search(clause))  # "back at Oracle after two years away": a return, not an errand
        if not (work or ORG_NAME.match(org)) or not self._usable(org):
            return None
        subject = self._who(who, turn)
        return Found(subject, "works_at", org, False, True) if subject else None

    def _en_left_for(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "left Oracle for Salesforce": one employer for another."""
        if not (m := EN_LEFT_FOR.search(clause)):
            return None
        subject = self._who(m["who"], turn)
        old, new = self._clean_value(m["org"]), self._clean_value(m["new"])
        if subject is None or not (self._usable(old) and self._usable(new)):
            return None
        return [Found(subject, "works_at", old, True, True), Found(subject, "works_at", new, False, True)]

    # ---- titles
    def _en_promoted(self, clause: str, turn: Turn) -> Found | None:
        """ "got bumped up to team lead", "was made head of sales", "I'm now head of sales", "they
        made me team lead", "senior designer as of today"."""
        m = EN_PROMOTED.search(clause) or EN_NOW_TITLE.match(clause) or EN_MADE_ME.match(clause)
        if m is None and turn.other is None:
            m = EN_TITLE_FROM.match(clause)
        if m is None:
            return None
        title = self._clean_value(m["title"])
        if not TITLE.match(title) or not self._usable(title):
            return None  # "was made redundant", "I'm now tired", "made me laugh": no title
        subject = self._who(m["who"], turn) if "who" in m.re.groupindex else turn.speaker_id
        return Found(subject, "job_title", title, False, True) if subject else None

    # ---- switching, ending, dating
    def _en_switched_someone(self, clause: str, turn: Turn) -> Found | None:
        """ "switched our daughter to Oak Hill Elementary" (her school), "moved my savings over to Ally"."""
        if m := EN_MONEY_MOVED.search(clause):
            subject, org = self._who(m["who"], turn), self._clean_value(m["org"])
            predicate = "member_of" if m["gym"] else "banks_with"  # "moved my membership over to Peak Form"
            return Found(subject, predicate, org, False, True) if subject and self._usable(org) else None
        if not (m := EN_SCHOOL_SWITCH.search(clause)) or not SCHOOL.search(m["school"]):
            return None
        if self._who(m["who"], turn) != turn.speaker_id:
            return None
        kid = self._third_person(re.sub(r"^our\s", "my ", m["kid"]), turn)
        school = self._clean_value(m["school"])
        return Found(kid, "studies_at", school, False, True) if kid and self._usable(school) else None

    def _en_cancelled_at(self, clause: str, turn: Turn) -> Found | None:
        """ "cancelled my gym membership at Equinox": the membership there ends."""
        if not (m := EN_CANCELLED_AT.search(clause)):
            return None
        subject, org = self._who(m["who"], turn), self._clean_value(m["org"])
        predicate = "member_of" if m["kind"] == "membership" else "subscribes_to"
        return Found(subject, predicate, org, True, True) if subject and self._usable(org) else None

    def _en_dating(self, clause: str, turn: Turn) -> Found | None:
        """ "broke up with Sam" (dating, denied); "started dating Theo"; "seeing someone new",
        then "her name's Mara" in the next clause."""
        if m := EN_BROKE_UP.search(clause):
            subject = self._who(m["who"], turn) if m["name"] else turn.speaker_id
            name = self._partner_name(m["name"] or m["name2"], turn)
            return Found(subject, "dating", name, True, True) if subject and name else None
        if (m := EN_PARTNER_NAME.match(clause)) and (turn.courting or turn.owned and turn.owned[0] == turn.speaker_id
                                                     and self.lexicon.relatives.get(turn.owned[1].casefold()) in PARTNERS):
            return Found(turn.speaker_id, "dating", m["name"], False, True)  # "I have a girlfriend, her name's Mara"
        if not (m := EN_DATING.search(clause)):
            return None
        subject = self._who(m["who"] if m["name"] else m["who2"], turn)
        name = m["name"] or m["name2"] or m["name3"]
        if subject is None:
            return None
        if name.casefold().startswith("some"):
            turn.courting = subject == turn.speaker_id  # the next clause may name them
            return None
        return Found(subject, "dating", name, False, True)

    def _partner_name(self, words: str, turn: Turn) -> str | None:
        """ "Sam", "my boyfriend Luis": the person; "my boyfriend" alone names no one."""
        if words[:1].isupper():
            return words
        named = re.match(r"^(?:my|her|his)\s+[a-z]+\s+([A-Z][\w'-]*)$", words)
        return named.group(1) if named else None

    def _zh_broke_up(self, clause: str, turn: Turn) -> Found | None:
        """ "我和小张分手了": the speaker no longer dates 小张; "小宇跟我表白了…我们在一起啦": dates 小宇."""
        if m := ZH_CONFESSED.match(clause):  # the name ends what comes before: "跨年那天小宇"
            turn.suitor = next((m["before"][-n:] for n in (2, 3, 4) if self._zh_named(m["before"][-n:])), None)
            return None
        if turn.suitor and ZH_TOGETHER.match(clause):
            return Found(turn.speaker_id, "dating", turn.suitor, False, True)
        if not (m := ZH_BROKE_UP.match(clause)) or not self._zh_named(m["name"]):
            return None
        region, negated = self._clean_before_verb(m["who"])
        if negated or self._subject(region, turn) != turn.speaker_id:
            return None
        return Found(turn.speaker_id, "dating", m["name"], True, True)

    def _zh_back_to_work(self, clause: str, turn: Turn) -> Found | None:
        """ "回到百度上班了", "又回华为了": back at an employer. Without 上班/工作 the word must be
        an organisation's or a person's name in jieba's tags ("回北京了" is a place, "回家" home)."""
        if not (m := ZH_BACK_TO_WORK.match(clause)):
            return None
        org = self._clean_value(m["org"])
        if not org or org in ZH_GENERIC_PLACES or not self._on_tokens(clause, m.start("org"), m.end("org")):
            return None
        tokens = self._tokens(org)
        if m["work"]:
            ok = all(flag.startswith(("n", "eng", "j")) and not flag.startswith("ns") for _, flag, _ in tokens)
        else:
            ok = len(tokens) == 1 and tokens[0][1].startswith(("nt", "nz", "nrt", "eng")) or (
                len(tokens) == 1 and tokens[0][1] == "nr" and len(org) == 2 and not self.lexicon.relative_regex.fullmatch(org))
        if not ok:
            return None
        subject = self._who(m["who"], turn)
        return Found(subject, "works_at", org, False, True) if subject else None


# Days until an accepted offer is the job, when the message that leaves the old one says no date:
# a month's notice.
OFFER_NOTICE_DAYS = 30


def offers_taken(claims: list, asserted: float) -> list:
    """An offer accepted ("plan:works_at" Adyen) in a message that also leaves an employer
    ("leaving Zalando at the end of the month", "月底从腾讯离职") is the next job: ``works_at``
    from a month on (``starts_in_days``), beside the plan, as a dated plan is (``_falls_due``).
    Without the leaving, an offer stays a plan: it may still be declined."""
    out = []
    for c in claims:
        if c.predicate != "plan:works_at" or c.stance <= 0 or c.starts_in_days:
            continue
        leaves = any(o.subject == c.subject and o.stance < 0 and o.value != c.value
                     and (o.predicate in ("works_at", "plan:works_at") or o.predicate == "does" and o.value[:1].isupper())
                     for o in claims)  # "leaving Zalando" is read as an ending of a name ("does")
        due = any(o.subject == c.subject and o.predicate == "works_at" and o.value == c.value for o in claims)
        if leaves and not due:
            out.append(replace(c, predicate="works_at", stance=asserted, starts_in_days=OFFER_NOTICE_DAYS))
    return out
