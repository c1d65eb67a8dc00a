"""Groups joined by name and left, work said by what one does there, and a change of what
one teaches, as English chat says them:

* a group joined and named: "joined a jazz trio called Lantern Fields", "I'm in a band
  called The Paper Kites now", "started a running club named Dawn Patrol" (member_of the
  name: the kind of group is no membership one could be asked about by name);
* a group left: "left the paper kites" when the message named it as a group before ("…in a
  band called The Paper Kites"), "I left the band" (the band it named, if it did), "quit the
  jazz trio last month" (member_of, denied). Only a group: "left the house", "left work
  early", "left the club at 2am" say where someone went, not a membership that ended;
* work said by an occupational verb at an organisation: "he's lecturing economics at
  Harwick University now", "she's teaching at Greenfield High", "I'm interning at Lumen
  Labs this summer", "my brother is nursing at St Mary's" (works_at; teaches the school
  subject when one is said). Not "teaching my kid at home" (no organisation), "teaching a
  workshop at Google" (an event there, not a job), "volunteering at Oxfam" (no job);
* work said by its tasks at a company: "I process claims at Thistledown Insurance", "i do
  payroll at Acme Corp", "she writes code at Stripe" (works_at): a task verb of the lexicon
  (``[occupations] task_verbs``), a bare plural or mass noun after it (not "my taxes"), and a
  company by a capitalised name or, in lower case, a company's last word ("thistledown
  insurance"); present tense only ("I wrote code at Stripe" may be over);
* a change of what one teaches: "they moved me to teaching 7th grade math this year",
  "switched from teaching history to teaching chemistry" (teaches, said as a change).

The subject is whom the words before the verb name, as for every rule ("my friend Kofi",
"he" after a named friend).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# The nouns of a group one is a member of. ("group", "gym", "party" are left out: a group
# chat, a gym visit, a party one leaves early.)
GROUP_KINDS = ("band", "trio", "duo", "quartet", "quintet", "club", "team", "choir", "chorus", "league", "orchestra",
               "ensemble", "troupe", "squad", "crew", "collective", "society")
KIND = rf"(?P<kind>{'|'.join(GROUP_KINDS)})"
# A group's name as said: capitalised words, with "of", "the", "&" inside ("The Paper Kites",
# "Friends of the Earth"); a lower-case name is no name one can tell from a description.
NAME = r"(?P<name>(?-i:(?:[Tt]he\s+)?[A-Z][\w'&.-]*(?:\s+(?:(?:of|the|&|de|la)\s+)?[A-Z][\w'&.-]*){0,4}))(?![\w'-])"
# "a (new) jazz trio", "my old band": the words before the group noun describe it.
GROUP = r"(?:a|an|the|this|my|our|his|her|their)\s+(?:[\w-]+\s+){0,3}?" + KIND + r"\s*,?\s+(?:called|named)\s+" + NAME
EN_JOINED_NAMED = re.compile(
    r"^(?P<who>.*?)\s*\b(?:(?:joined|join|joins|joining|started|start|starting|formed|form|forming|founded)"
    r"|(?P<be>'m|'s|'re|am|is|are|was|were|be|being|'ve\s+been|have\s+been|has\s+been|'s\s+been)\s+(?P<not>not\s+|no\s+longer\s+)?(?:now\s+|also\s+|still\s+|currently\s+)?in"
    r"|(?:play|plays|playing|played|sing|sings|singing|sang)(?:\s+(?:bass|drums|guitar|keys|piano|violin|cello|sax|trumpet|lead))?\s+(?:in|with|for))"
    r"\s+" + GROUP + r"(?P<tail>.*)$",
    re.IGNORECASE,
)
# After a membership given up in the same message ("cancelled my Brickhouse membership"), where
# one went instead: "went with Pulse Lab on Wren Avenue instead", "joined Ironclad Gym" (not
# "moved to Denver", a new home).
EN_CLUB_SWITCH = re.compile(
    r"^(?:(?:i|we)\s+)?(?:(?:just|now|then)\s+)?(?:went\s+with|joined|switched\s+to|signed\s+up\s+(?:at|with|for))\s+"
    + NAME + r"(?:\s+(?:on|in)\s+(?P<where>(?-i:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})))?(?:\s+instead)?\b.*$", re.IGNORECASE)
# "left the paper kites (last month)": the group, then at most a time said loosely. A night
# out ends "last night", "at 2am": those stay silent.
EN_LEFT = re.compile(
    r"^(?P<who>.*?)\s*\b(?:left|leave|leaves|leaving|quit|quits|quitting)\s+(?P<group>(?:the|my|our|his|her|their)\s+[\w\s'&.-]{2,60}?"
    r"|(?-i:[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,4}))"
    r"(?:\s+(?:last\s+(?:week|month|year|season|spring|summer|fall|autumn|winter)|this\s+(?:year|season|month|week)|recently"
    r"|after\s+(?:\w+\s+){1,2}(?:years?|months?|seasons?)|in\s+(?:19|20)\d\d))?$",
    re.IGNORECASE,
)
# Work named by what one does there. Helping out is no job ("volunteering at Oxfam"); cooking
# at "Dave's" may be a friend's kitchen: only trades one practises at an employer.
EN_AT_WORK = re.compile(
    r"^(?P<who>.*?)\s*\b(?P<verb>lectur(?:e|es|ed|ing)|teach(?:es|ing)?|taught|intern(?:s|ed|ing)?|nurs(?:e|es|ed|ing)"
    r"|bartend(?:s|ed|ing)?|waitress(?:es|ed|ing)?|clerk(?:s|ed|ing)?|temp(?:s|ed|ing)?)"
    r"\s+(?:(?:in\s+)?(?P<what>[\w-]+(?:\s+[\w-]+){0,3}?)\s+)?at\s+"
    r"(?P<org>(?-i:(?:the\s+)?[A-Z][\w&'.-]*(?:\s+(?:of\s+(?:the\s+)?|&\s+|for\s+)?[A-Z][\w&'.-]*){0,4}))(?![\w'-])(?P<tail>.*)$",
    re.IGNORECASE,
)
# What stands between the verb and "at" and says it is no job there: someone taught, an event.
NOT_A_SUBJECT = frozenset(
    "a an the my our his her their your this that these those some me him them us it kid kids child children son daughter "
    "baby people folks friends workshop workshops class classes seminar seminars session sessions course courses talk talks "
    "webinar masterclass bootcamp lesson lessons drink pint cold wound grudge hangover".split()
)
# What a tail after the organisation may be: a time, "now", how much one works. Anything else
# may say the place is a venue ("at Nando's with friends", "at Google's offices").
EN_WORK_TAIL = re.compile(
    r"^(?:\s*,?\s*(?:now|these\s+days|this\s+(?:year|term|semester|summer|spring|fall|autumn|winter)|full[\s-]time|part[\s-]time"
    r"|since\s+\w+|for\s+(?:\w+\s+){1,2}(?:years?|months?|weeks?)|again|too|as\s+well|anymore|any\s+more"
    r"|on\s+(?:the\s+)?weekends|at\s+weekends|in\s+the\s+evenings|on\s+the\s+side))*\s*$",
    re.IGNORECASE,
)
# Days, months and feasts: "at Christmas" says when, not where.
HOLIDAYS = re.compile(
    r"(?:Christmas|Xmas|Easter|Thanksgiving|Halloween|Hanukkah|Diwali|Eid|Ramadan|Passover|New\s+Year(?:'s)?(?:\s+Eve)?"
    r"|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?|January|February|March|April|May|June|July|August|September"
    r"|October|November|December|(?:the\s+)?[Ww]eekends?)(?:\s+(?:time|break|holidays?))?",
)
# The school subjects a teacher teaches: "teaching 7th grade math", "lecturing economics".
SUBJECTS = frozenset(
    "math maths mathematics algebra calculus geometry statistics english literature writing french spanish german italian "
    "chinese mandarin japanese latin history geography science biology chemistry physics economics business accounting law "
    "philosophy psychology sociology politics art music drama pe ict computing programming engineering nursing medicine "
    "anatomy religion theology linguistics finance marketing design architecture".split()
) | {"computer science", "social studies", "political science", "religious studies", "physical education"}
# "they moved me to teaching 7th grade math (this year)": a teacher moved to another subject.
EN_MOVED_TO_TEACHING = re.compile(
    r"^(?P<who>.*?)\b(?:moved|switched|put|transferred|shifted|reassigned|assigned|bumped)\s+(?P<obj>me|him|her)\s+"
    r"(?:over\s+|back\s+)?to\s+teaching\s+(?P<what>.+)$",
    re.IGNORECASE,
)
EN_TEACHING_FROM_TO = re.compile(
    r"^(?P<who>.*?)\b(?:moved|switched|switching|went|gone|changed)\s+(?:over\s+)?from\s+teaching\s+(?P<old>.+?)\s+to\s+"
    r"(?:teaching\s+)?(?P<new>.+)$",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=8)
def _task_at(lexicon: Lexicon) -> re.Pattern[str]:
    """ "<who> <task verb> <object> at|for <company>": the object one or two bare words, the
    verb in a present-tense form ("process", "processes")."""
    verbs = {form for verb in lexicon.words("occupations", "task_verbs")
             for form in (verb, verb + "s", verb + "es", verb[:-1] + "ies" if verb.endswith("y") else verb)}
    return re.compile(
        rf"^(?P<who>.*?)\s*\b(?P<verb>{'|'.join(sorted(verbs, key=len, reverse=True))})\s+"
        r"(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:at|for)\s+"
        r"(?P<org>[\w&'.-]+(?:\s+[\w&'.-]+){0,3}?)(?![\w'-])(?P<tail>(?:\s*,?\s*(?:and|but|so)\b.*)?)$",
        re.IGNORECASE)


# Trades named by their verb: "I weld hull sections at Halvorsen Marine" says a welder
# (by the verb's stem: "teaches", "teaching"). Only verbs whose doer is the trade's name.
TRADE_AGENTS = {"teach": "teacher", "lectur": "lecturer", "weld": "welder", "tutor": "tutor", "bartend": "bartender",
                "nurs": "nurse", "plumb": "plumber", "intern": "intern"}


def trade_agent(verb: str) -> str | None:
    """The trade a verb form names: "welds" -> "welder"; None for a task verb of no one trade."""
    return next((agent for stem, agent in TRADE_AGENTS.items() if verb.casefold().startswith(stem)), None)


# Task verbs said of chores and pastimes as well ("do laundry at Mom's", "run errands at
# Target"): only with a company's last word ("do payroll at Acme Corp").
LOOSE_TASK_VERBS = frozenset({"do", "does", "run", "runs"})
# ...unless what is done is a profession's field: "I do UX research at Lumora", "does marketing at Klarna".
# "being a nurse is no joke", "as a nurse, I can tell you": the speaker's own trade, said as
# what it is like (not "being a nurse must be hard", a guess about others)
EN_BEING_ONE = re.compile(r"^(?:honestly\s+|tbh\s+)?(?:being|as)\s+an?\s+(?P<title>[a-z]+(?:\s+[a-z]+)?)\s*(?:,\s*)?"
                          r"(?:(?<=being\s)\S+\s+)?(?:is|isn't|means|has|can\s+be|i\b)(?!\s+(?:must|would|might))", re.IGNORECASE)
FIELD_NOUNS = frozenset("""research marketing design engineering sales accounting consulting analytics recruiting
    compliance finance hr pr ops operations payroll qa security development strategy science communications
    bookkeeping procurement logistics""".split())


@functools.lru_cache(maxsize=8)
def _company_ends(lexicon: Lexicon) -> frozenset[str]:
    return frozenset(lexicon.words("organisations", "en_suffixes"))


class GroupWorkRules:
    lexicon: Lexicon

    def _groups_and_work(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        if has_cjk(clause):
            return None
        return (self._club_switched(clause, turn) or self._joined_named(clause, turn) or self._left_named(clause, turn)
                or self._work_by_trade(clause, turn) or self._work_by_task(clause, turn) or self._teaching_moved(clause, turn)
                or self._being_one(clause, turn))

    def _being_one(self, clause: str, turn: Turn) -> Found | None:
        """ "being a nurse is no joke": the speaker's job title, a trade the lexicon lists."""
        m = EN_BEING_ONE.match(clause)
        if not m or not turn.user_is_speaker or not self.lexicon.is_occupation(m["title"]):
            return None
        return Found(turn.speaker_id, "job_title", collapse(m["title"]).casefold())

    def _club_switched(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "went with Pulse Lab on Wren Avenue instead" after a membership given up in the same
        message (``Turn.club_left``): the new membership, said as a change, and where it is."""
        if not turn.club_left or not (m := EN_CLUB_SWITCH.match(clause)):
            return None
        name = collapse(m["name"])
        if name.split()[-1].casefold() in self.lexicon.not_names:
            return None
        found = [Found(turn.speaker_id, "member_of", name, False, True)]
        return found + [Found(name, "located_in", collapse(m["where"]))] if m["where"] else found

    def _joined_named(self, clause: str, turn: Turn) -> Found | None:
        """ "joined a jazz trio called Lantern Fields": a member of Lantern Fields (the name is
        kept for a later "left the lantern fields" or "quit the trio" in the same message)."""
        if not (m := EN_JOINED_NAMED.match(clause)) or m["tail"].startswith("'s"):
            return None
        name = collapse(m["name"])
        if name.split()[-1].casefold() in self.lexicon.not_names or name.casefold() in ("i", "the"):
            return None
        who = re.sub(r"(?:'m|'s|'re)$", "", m["who"].strip())
        region, negated = self._clean_before_verb(who)
        subject = self._subject(region, turn)
        if subject is None:
            return None
        turn.groups[_bare(name)] = name
        turn.groups[m["kind"].casefold()] = name  # "…called The Paper Kites. I left the band": that band
        was = (m["be"] or "").casefold() in ("was", "were")  # "I was in a band called X": no longer
        return Found(subject, "member_of", name, negated or was or bool(m["not"]))

    def _left_named(self, clause: str, turn: Turn) -> Found | None:
        """ "left the paper kites" after the message named it as a group; "quit the jazz trio
        last month" (a group noun). A bare "left the club" is the shapes rule's (or nothing)."""
        if not (m := EN_LEFT.match(clause)):
            return None
        said = collapse(m["group"])
        group = turn.groups.get(_bare(said)) or turn.groups.get(said.casefold())
        if group is None:
            words = _bare(said).split()
            if not words or words[-1] not in GROUP_KINDS or words[-1] in ("club", "team", "society") and len(words) == 1:
                return None  # "left the house", "quit my job"; "left the club" may be a night out
            group = self._clean_value(said)
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        if subject is None or negated or not group:
            return None  # "I didn't leave the band": nothing ended
        return Found(subject, "member_of", group, True, True)

    def _work_by_trade(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "she's teaching at Greenfield High", "he's lecturing economics at Harwick University
        now": where one works (and the subject one teaches)."""
        if not (m := EN_AT_WORK.match(clause)) or not EN_WORK_TAIL.match(m["tail"]):
            return None
        what = collapse(m["what"] or "").casefold()
        if what and (what.split()[0] in NOT_A_SUBJECT or what.split()[-1] in NOT_A_SUBJECT):
            return None  # "teaching my kid at home", "nursing a pint at The Crown", "teaching a class at Google"
        org = self._clean_value(m["org"])
        if not org or org.casefold() in self.lexicon.not_names or self.lexicon.time.anywhere.fullmatch(org) \
                or HOLIDAYS.fullmatch(org) or not self._usable(org):
            return None  # "teaching at Christmas", "nursing at Easter": when, not where
        verb = m["verb"].casefold()
        if verb.endswith("ed") or verb == "taught" or re.search(r"\b(?:was|were)$", m["who"].strip(), re.IGNORECASE):
            return None  # "she taught at X", "I was teaching at X when …": once, and maybe still ("used to" says no longer)
        who = re.sub(r"(?:'m|'s|'re|'ve|'d)(?:\s+been)?$", "", m["who"].strip())
        region, negated = self._clean_before_verb(who)
        subject = self._subject(region, turn)
        if subject is None:
            return None
        found = [Found(subject, "works_at", org, negated)]
        if what and verb.startswith(("lectur", "teach", "taught")) and self._subject_taught(what):
            found.append(Found(subject, "teaches", self._clean_value(m["what"]), negated))
        elif what:
            return None  # "nursing her wounds at Mercy": what is nursed is no trade
        agent = trade_agent(verb)
        return found + ([Found(subject, "job_title", agent, negated)] if agent else [])

    def _work_by_task(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "I process claims at Thistledown Insurance", "i do payroll at acme corp": whom one
        works for, said by what one does there."""
        if not (m := _task_at(self.lexicon).match(clause)):
            return None
        what = m["what"].casefold().split()
        if what[0] in NOT_A_SUBJECT or what[-1] in NOT_A_SUBJECT:
            return None  # "do my taxes at H&R Block", "run a workshop at Google"
        org = self._clean_value(m["org"])
        words = org.split()
        company = bool(words) and words[-1].casefold() in _company_ends(self.lexicon)
        loose = m["verb"].casefold() in LOOSE_TASK_VERBS and what[-1] not in FIELD_NOUNS
        if not company and (not words or not words[0][:1].isupper() or loose):
            return None  # "answer phones at a dental office": which one is not said; "do laundry at Mom's"
        if not org[:1].isupper():
            org = " ".join(w[:1].upper() + w[1:] for w in words)  # a name said in lower case
        if org.casefold() in self.lexicon.not_names or HOLIDAYS.fullmatch(org) or not self._usable(org):
            return None
        region, negated = self._clean_before_verb(m["who"])
        if (subject := self._subject(region, turn)) is None:
            return None
        agent = trade_agent(m["verb"])
        return [Found(subject, "works_at", org, negated)] + ([Found(subject, "job_title", agent, negated)] if agent else [])

    def _teaching_moved(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "they moved me to teaching 7th grade math this year", "switched from teaching history
        to teaching chemistry": what is taught now, said as a change."""
        if m := EN_TEACHING_FROM_TO.match(clause):
            old, new = self._clean_value(m["old"]), self._clean_value(m["new"])
            region, negated = self._clean_before_verb(m["who"])
            subject = self._subject(region, turn)
            if subject is None or negated or not (self._subject_taught(old) and self._subject_taught(new)):
                return None
            return [Found(subject, "teaches", old, True, True), Found(subject, "teaches", new, False, True)]
        if not (m := EN_MOVED_TO_TEACHING.match(clause)):
            return None
        what = self._clean_value(m["what"])
        if not self._subject_taught(what):
            return None  # "moved me to teaching the kids online": who, not what
        obj = m["obj"].casefold()
        region, negated = self._clean_before_verb(m["who"])
        if negated:
            return None  # "they didn't move me to teaching math"
        subject = turn.speaker_id if obj == "me" else turn.other
        return [Found(subject, "teaches", what, False, True)] if subject else None

    def _subject_taught(self, what: str) -> bool:
        """A school subject, with at most a level before it: "7th grade math", "AP biology",
        "year 9 science", "intro economics"."""
        words = collapse(what).casefold().split()
        if not words or len(words) > 4 or not self._usable(what):
            return False
        return words[-1] in SUBJECTS or " ".join(words[-2:]) in SUBJECTS


def _bare(said: str) -> str:
    """A group's name without its article or owner: "the Paper Kites" and "my band" -> "paper kites", "band"."""
    return re.sub(r"^(?:the|my|our|his|her|their)\s+", "", collapse(said), flags=re.IGNORECASE).casefold()
