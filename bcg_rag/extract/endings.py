"""Endings whose slot the sentence does not name: "gave up on spanish", "stopped going to
the YMCA", "left Northwind", "last day at Accenture is monday", "we had to rehome Biscuit",
"网球只能不打了", "吉他课不上了", "旧车卖了", "the vegetarian thing is over".

The speaker says that something is over, not what kind of thing it was: learning a
language, a membership, a job, a sport. The rule reads only that (``ENDED`` of the value,
denied); ``bcg_rag.endings`` then links it, from either side and whatever the order of
arrival, to the same subject's values that it names, which the fold refutes at its time.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from .in_passing import is_car
from .shared import ENDED, Found
from .text import CJK, EN_MODEL, has_cjk
from .tongues import ANY_CASE_LANGUAGE

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

MEMBERSHIP = "membership"
# What "I quit my job" or "我辞职了" ends, naming no employer: the employer's slot, whatever
# its value (``bcg_rag.endings.names_predicates``); likewise a broken engagement, a breakup and
# a divorce end the slots of the partner they name no more.
JOB = "job"
SMOKING = "smoking"
PETS = "pets"
MEDS = "meds"  # "not on any meds at the moment" (medications.py)
SCHOOL = "school"  # "graduated last weekend": where one studied, unnamed
CAR = "car"  # "sold the car", "车卖了，现在家里没车了": the cars owned before (``bcg_rag.endings.of_kind``)
SLOT_ENDINGS = {JOB: ("works_at",), "engagement": ("engaged_to",), "relationship": ("dating", "engaged_to"),
                "marriage": ("married_to",), MEMBERSHIP: ("member_of",), SMOKING: ("smokes",), PETS: ("has",),
                MEDS: ("takes_medication",), SCHOOL: ("studies_at", "attends"), CAR: ("owns", "drives")}
# A membership ended by its kind, not its name ("quit the gym", "健身卡退了", "cancelled my gym
# membership"): the memberships stated before it end ("Ironworks Gym", "乐刻").
GENERIC_MEMBERSHIPS = frozenset("gym membership 健身卡 健身房 会员 会员卡 年卡 健身年卡".split()) | {"gym membership", "the gym"}
EN_MEMBERSHIP_ENDED = re.compile(
    r"^(?P<who>.*?)\b(?:cancel(?:l?ed|l?ing)|ended|dropped|quit|froze|frozen)\s+(?:my|our|the)\s+(?:gym\s+)?membership"
    r"(?!\s+(?:at|with|to|for)\s)|^(?P<who2>.*?)\blet\s+(?:my|our|the)\s+(?:gym\s+)?membership\s+(?:lapse|expire|run\s+out)",
    re.IGNORECASE)


# Smoking denied by what is smoked, not by a brand: "戒烟了", "烟已经戒了", "quit smoking".
GENERIC_SMOKES = frozenset("烟 香烟 抽烟 吸烟 smoking cigarettes cigs".split())
# Pets denied by the word for pets, not by the animal: "家里没有宠物了", "啥宠物都没了". Of the
# values of ``has`` it ends only the animals (``bcg_rag.endings.of_kind``), not children or a car.
GENERIC_PETS = frozenset("宠物 毛孩子 pets pet".split())
# A slot denied by its kind, not by a value: (the predicates such a denial comes in, the words
# for the kind, the ending of ``SLOT_ENDINGS`` that ends every value stated before it).
GENERIC_CARS = frozenset("car 车 车子 私家车 the car".split()) | {"the car"}
KIND_ENDINGS = ((("member_of",), GENERIC_MEMBERSHIPS, MEMBERSHIP), (("smokes", "consumes", ENDED), GENERIC_SMOKES, SMOKING),
                (("has",), GENERIC_PETS, PETS), (("owns", "has", "drives"), GENERIC_CARS, CAR))
# "车卖了", "把车卖掉了", "卖车了", "现在家里没车了": the car, by its kind, is gone
ZH_CAR_SOLD = re.compile(r"^(?P<who>[^，,]{0,6}?)(?:把)?(?:车|车子)(?:已经|早就|终于)?(?:卖了|卖掉了|处理掉了|出掉了)|"
                         r"^(?P<who2>[^，,]{0,6}?)(?:已经|终于)?卖车了|^(?:现在)?(?:家里|我们家|我家)(?:已经|现在)?没(?:有)?车了")


def ended_by_kind(found: list[Found]) -> list[Found]:
    """The slot endings that denials by kind imply: "quit the gym" ends the memberships stated
    before it, "烟已经戒了" every brand smoked ("抽的玉溪"). An ending is not its own kind."""
    return [Found(f.subject, ENDED, kind, True, True) for predicates, words, kind in KIND_ENDINGS for f in found
            if f.negated and f.predicate in predicates and " ".join(f.value.casefold().split()) in words
            and not (f.predicate == ENDED and f.value.casefold() == kind)]
# "marco and I called off the engagement", "we broke up", "he and Lena split up", "we got divorced"
EN_COUPLE_ENDED = re.compile(
    r"^(?P<who>.*?)\b(?:(?P<engagement>(?:called|call|calling|broke|break)\s+off|cancell?ed)\s+(?:the|our|their)\s+"
    r"(?:engagement|wedding)|(?P<relationship>broke\s+up|split\s+up|split|separated)(?!\s+(?:with|from)\b)"
    r"|(?P<marriage>got\s+divorced|are\s+divorced|divorced))"
    r"(?:\s+(?:last\s+\w+|this\s+\w+|yesterday|today|recently|finally|officially|lol))*$",
    re.IGNORECASE,
)
# The two of a couple: "marco and I", "he and Lena" (whose partnership it is: ``_partner``)
EN_COUPLE = re.compile(r"^(?P<one>.+?)\s+and\s+(?P<other>.+?)$", re.IGNORECASE)
# Devices one owns and may ditch ("ditched the iphone"): an ending of what is owned, not consumed.
DEVICES = frozenset("iphone ipad android pixel galaxy macbook laptop kindle fitbit smartwatch phone tablet "
                    "playstation xbox switch console".split())
ZH_COUPLE_ENDED = re.compile(r"^(?P<who>[^，,]{0,8}?)(?:已经|刚|刚刚|终于|正式|上个月|上周)*(?:(?P<relationship>分手|分(?=了\W*$))|(?P<marriage>离婚)|(?P<engagement>退婚))了")
# Verbs that end something: no relation of the generic "<Name> <verb> <value>" rule.
ENDING_VERBS = frozenset({"left", "quit", "quitting", "sold", "stopped", "gave", "rehomed", "re-homed"})

EN_ENDED = re.compile(
    r"^(?P<who>.*?)\b(?:gave\s+up|given\s+up|giving\s+up|stopped|quit|quitting|dropped|dropping|done\s+with|left|leaving"
    r"|(?:haven't|have\s+not|hasn't|has\s+not)\s+touched|no\s+longer(?:\s+(?:on|using|into))?|deleted|uninstalled"
    r"|(?:had\s+to\s+|have\s+to\s+)?re-?home(?:d)?|gave\s+away|sold"
    r"|(?P<last>(?:my\s+|his\s+|her\s+)?last\s+(?:day|week|shift)\s+(?:at|with))"
    r"|(?:my\s+|his\s+|her\s+)?last\s+(?:day|week|shift)\s+of(?=\s+[a-z]+ing\b))"
    r"(?:\s+on)?\s+(?:(?:going\s+to|doing|playing|learning|taking|attending|practi[cs]ing|studying|working\s+(?:at|for))\s+)?"
    r"(?P<what>[^,;]+)$",
    re.IGNORECASE,
)
# "mom gave Captain back to the rescue", "we gave Max away": a pet by its name, kept no more (not
# "gave Tom back his charger": only at the clause's end, or back to where pets come from)
EN_GIVEN_BACK = re.compile(r"^(?P<who>.*?)\b(?:gave|given|giving|took|taken|taking)\s+(?P<what>(?-i:[A-Z])[\w'-]*)\s+(?:back|away)"
                           r"(?:\s+to\s+(?:the|a|his|her|their|its)\s+(?:rescue|shelter|breeder|pound|charity|farm|owners?))?"
                           r"(?:\s+(?:yesterday|today|last\s+\w+|this\s+\w+))?\s*$",
                           re.IGNORECASE)
# "3 months smoke-free", "I've been alcohol-free since June": the thing is over (a diet such as
# "gluten-free" is a state of the lexicon's, read by the copula rule).
EN_FREE = re.compile(
    r"^(?P<who>.*?)(?:\b(?:a|one|two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:days?|weeks?|months?|years?)\s+)?"
    r"\b(?P<what>[a-z]+)-free\b", re.IGNORECASE)
EN_BE_BEFORE = re.compile(r"(?:'m|'ve been|'s been|\b(?:am|is|are|been|now|finally|officially))\s*$", re.IGNORECASE)
# "I'm not on Instagram anymore", "not doing keto any more": "not" and "anymore" around the thing.
EN_NOT_ANYMORE = re.compile(
    r"^(?P<who>.*?)\b(?:'m|am|'re|are|is|'s)?\s*not\s+(?:on|doing|using|into|playing|taking)\s+(?P<what>[^,;]+?)"
    r"\s+any\s*more$",
    re.IGNORECASE,
)
# "the vegetarian thing is over", "my Spotify subscription's done": the speaker's, said over.
EN_OVER = re.compile(
    r"^(?:(?:so|ok|okay|well|and|yeah|anyway)\s+)?(?:the|my)\s+(?P<what>[a-z][\w\s-]{1,30}?)"
    r"(?:\s+(?:thing|phase|streak|era|experiment|kick|life))?\s*(?:(?:\s+is|'s)\s+(?:officially\s+|definitely\s+|so\s+)?"
    r"(?:over|done|no\s+more)|(?:\s+are|'re)\s+no\s+more)(?:\s+(?:lol|haha|now|for\s+good|for\s+me))*$",  # "the loose ends are no more"
    re.IGNORECASE,
)
# A process is over when it is complete ("the HQ relocation is officially done", "the move is
# over"): nothing one did or had has ended. A broken engagement is the exception.
EN_PROCESS = re.compile(r"(?<!engage)(?:tion|sion|ment)s?$|\b(?:move|paperwork|project|deal|merger|surgery|interview|exam|trip"
                        r"|launch|build|sale|handover|onboarding)s?$", re.IGNORECASE)
# Where the thing named ends: a word that starts another phrase ("tbh", "because", "is friday").
EN_WHAT_END = re.compile(
    r"\s+(?:tbh|lol|honestly|anymore|any\s+more|altogether|completely|for\s+good|because|since|after|so|but|and|when|"
    r"is|was|will|this|last|next|today|yesterday|now|a\s+while|ago|already|finally|recently|ever)\b.*$",
    re.IGNORECASE,
)
EN_OWNER = re.compile(r"^(?:my|our|his|her|their|the)\s+", re.IGNORECASE)
# "stopped by the store", "stopped at a gas station": a visit, not an ending.
EN_NOT_A_THING = re.compile(r"^(?:by|at|in|to|for|from|off|over|into|on|the\s+(?:car|clock|music|bleeding))\b", re.IGNORECASE)
# "left", "quit" and "sold" end a place, an employer, a group or a possession only when it
# is named: "left early", "quit it", "left the house" say nothing here.
NAMED_ONLY = frozenset({"left", "leaving", "quit", "quitting", "sold", "deleted", "uninstalled"})
ZH_ENDED = re.compile(
    rf"^(?P<who>.*?)(?:把)?(?<![那这])(?P<what>(?![我你他她])(?:(?!把|那个|那家|这个|这家|这事|这件事)[{CJK}A-Za-z]|(?<=[A-Za-z])[ 0-9](?=[A-Za-z0-9])){{2,8}}?)"
    r"(?:这事|这件事|这个事儿?)?"  # "跑步这事算是彻底告别了"
    r"(?:也|就|都|只能|只好|已经|早就|现在|暂时|上个?月|上周|去年|年初|年底|前阵子|前两天|最近|算是|彻底|基本上?|正式)*"
    r"(?:不(?:打|上|学|弹|练|玩|去|做|干|续|跳|跑|学了|练了|搞|弄|用)了|(?:坚持|学|练|弹|读|跑|写|画|唱)不下去了|戒了|停了|退了|卖了|送人了|送走了|卸载了|删了"
    r"|告别了"
    r"|关了|关门了|倒闭了|黄了)"  # a shop closed: "我妈那个超市上个月关了"
    r"(?:(?:[0-9一二三四五六七八九十两俩几半]+|好几)个?(?:月|年|天|周|星期|礼拜)了?)?$"
    # "以后不能再跑马拉松了", "再也不打篮球了": no longer able or willing, the activity after the verb
    rf"|^(?P<who2>.*?)(?:放弃了|戒了|退了|不再去|(?:以后)?(?:不能再|再也不能|再也不|没法再)(?:跑|打|弹|练|玩|去|学|做|跳|踢|滑|骑|爬|游))"
    rf"(?P<what2>[{CJK}A-Za-z]{{2,8}})了?$"
)
ZH_SMOKING_QUIT = re.compile(r"^(?P<who>[^，,]{0,6}?)烟(?:也|都|已经|早就|终于|现在)*戒(?:掉)?了"
                             r"(?:(?:[0-9一二三四五六七八九十两俩几半]+|好几)个?(?:月|年|天|周|星期|礼拜)了?)?$")
# When a job ended, said after it: "today", "rn", "after two weeks".
EN_WHEN_OVER = (r"today|yesterday|(?:this|last)\s+(?:week|month|year|\w+day)|on\s+\w+day|lol|haha|finally|officially|rn|right\s+now|atm|at\s+the\s+moment"
                r"|currently|anymore|again|after\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?)")
ZH_THAT_ONE = re.compile(r"(?:那个|那家|这个|这家|的)$")
# "I quit my job", "finally handed in my notice", "I resigned today": a job ends, its employer
# unnamed ("quit my job at Acme" names it: the employer rule reads that, and a message that
# names the employer ended keeps only that, ``OfflineExtractor.read``).
EN_QUIT_JOB = re.compile(
    r"^(?P<who>.*?)\b(?:(?:quit|quitting|left|leaving|lost|losing)\s+(?:my|his|her|their)\s+(?:day\s+|full-?time\s+)?job"
    r"|handed\s+in\s+(?:my|his|her|their)\s+(?:notice|resignation)|resigned"
    # the job ended for them: "got laid off", "was let go", "not working anywhere rn", "between jobs"
    r"|(?:got|was|were|been|getting|being)\s+(?:laid\s+off|let\s+go|fired|sacked|made\s+redundant)"
    r"|(?:am|'m|is|'s|are|'re)\s+(?:\w+\s+)?(?:not\s+working\s+anywhere|out\s+of\s+work|between\s+jobs)"
    r"|not\s+working\s+anywhere)(?!\s+(?:at|with|from|in|for|by)\b(?!\s+the\s+moment))"
    rf"(?:\s+(?:{EN_WHEN_OVER}))*$",
    re.IGNORECASE,
)
# "ravensholt let me go after two weeks", "Acme laid me off": the employer ended the job.
EN_LET_GO = re.compile(
    r"^(?P<org>.*?)\s+(?:let\s+me\s+go|laid\s+me\s+off|fired\s+me|sacked\s+me|made\s+me\s+redundant)"
    rf"(?:\s+(?:{EN_WHEN_OVER}))*$",
    re.IGNORECASE,
)
# "graduated last weekend 🎓", "finally graduated!!": studies end, the school unnamed ("graduated
# from X" names it: the verb rule reads studied_at X).
EN_GRADUATED = re.compile(rf"^(?P<who>.*?)\b(?:just\s+|finally\s+|officially\s+)?graduated(?:\s+(?:{EN_WHEN_OVER}|last\s+weekend))*\W*$",
                          re.IGNORECASE)
# "no pets any more", "we don't have any pets now": every animal kept ends (``KIND_ENDINGS``).
EN_NO_PETS = re.compile(
    r"^(?P<who>.*?)\b(?:no\s+(?:more\s+)?pets|(?:don't|do\s+not|doesn't|does\s+not|dont)\s+have\s+(?:any\s+)?pets)"
    r"(?:\s+(?:any\s*more|now|these\s+days|at\s+the\s+moment|rn|lol))*$", re.IGNORECASE)
# Whoever let the speaker go without being the employer: "they let me go", "my boss fired me".
EN_NOT_EMPLOYER = re.compile(r"^(?:they|he|she|we|it|you|my\s+\w+|the\s+\w+|work|management)$", re.IGNORECASE)
# "我辞职了", "裸辞了", "老公离职了": the same in Chinese, nothing named before the verb.
ZH_QUIT_UNNAMED = re.compile(r"^(?P<who>[^，,]{0,6}?)(?:已经|刚|刚刚|今天|终于|正式|昨天)*(?:裸辞|辞职|离职|辞工)了")
ZH_QUIT_JOB = re.compile(
    rf"^(?P<org>[{CJK}A-Za-z]{{2,8}}?)(?:那边|那儿|这边)?(?P<who>我|他|她)?(?:已经|刚|刚刚|早就)?(?:离职|辞职)了$"
)


class EndingRules:
    lexicon: Lexicon

    def _ending(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        """The thing said to be over, denied, under ``ENDED`` (or ``works_at`` where
        离职 names the employer)."""
        if has_cjk(clause):
            return self._zh_ending(clause, turn)
        if (free := EN_FREE.match(clause)) and f"{free['what']}-free".casefold() not in self.lexicon.states:
            who = EN_BE_BEFORE.sub("", free["who"]).strip()
            subject = self._who(who, turn)
            # "smoke-free": smoking is over
            what = self.lexicon.activity_doing.get(free["what"].casefold(), free["what"].casefold())
            return Found(subject, ENDED, what, True, True) if subject and self._usable(what) else None
        if (over := EN_OVER.match(clause)) and not EN_PROCESS.search(over["what"]):
            what = self._clean_value(over["what"])
            if job := re.fullmatch(r"(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)*)\s+(?:job|gig|internship)", what):
                return Found(turn.speaker_id, "works_at", job["org"], True, True)  # "the Halvorsen job is over"
            return Found(turn.speaker_id, ENDED, what, True, True) if self._usable(what) else None
        if (job := EN_QUIT_JOB.match(clause)) and (subject := self._who(job["who"], turn)):
            return Found(subject, ENDED, JOB, True, True)
        if (done := EN_GRADUATED.match(clause)) and (subject := self._who(done["who"], turn)):
            return Found(subject, ENDED, SCHOOL, True, True)
        if (no_pets := EN_NO_PETS.match(clause)) and (subject := self._who(no_pets["who"], turn)):
            return Found(subject, "has", "pets", True, True)
        if let_go := EN_LET_GO.match(clause):
            return self._let_go(let_go["org"], turn)
        if (gone := EN_MEMBERSHIP_ENDED.match(clause)) and (subject := self._who(gone["who"] or gone["who2"] or "", turn)):
            return Found(subject, ENDED, MEMBERSHIP, True, True)
        if (couple := EN_COUPLE_ENDED.match(clause)) and (subject := self._partner(couple["who"], turn)):
            return self._partnership_ended(subject, couple)
        if not (m := EN_ENDED.search(clause) or EN_NOT_ANYMORE.search(clause) or EN_GIVEN_BACK.search(clause)):
            return None
        what = EN_WHAT_END.sub("", m["what"]).strip()
        verb = clause[len(m["who"]):m.start("what")].split()[0].casefold().strip("'")
        if EN_NOT_A_THING.match(what):
            return None
        what = self._clean_value(EN_OWNER.sub("", what))  # "sold my Civic": the Civic is what ended
        # "had to quit the football": a sport or a course quit needs no name ("quit it" does)
        quit_pastime = verb in ("quit", "quitting") and (what.casefold() in self.lexicon.pastimes or self._learnt(what.casefold()))
        # a car is named by its model in any case ("sold my corolla for parts")
        if verb in NAMED_ONLY and not what[:1].isupper() and not quit_pastime and not (verb == "sold" and is_car(self.lexicon, what)):
            return None
        if verb in ("dropped", "dropping") and not self._learnt(what.casefold()):
            return None  # "dropped my phone", "dropped the kids off": only a language or a course is dropped as an ending
        if not self._usable(what) or len(what.split()) > 4:
            return None
        subject = self._who(m["who"], turn)
        predicate = "works_at" if m.groupdict().get("last") else ENDED  # "last day at Accenture": the job ends
        return Found(subject, predicate, what, True, True) if subject else None

    def _let_go(self, said: str, turn: Turn) -> Found:
        """ "Ravensholt let me go": the speaker no longer works there; "they fired me" (or a
        name in lower case, which the gate does not take for one): the job ends, whatever the
        employer."""
        org = self._clean_value(re.sub(r"^(?:well|so|and|but|ok|okay|anyway|ugh|lol)\b[\s,.:]*", "", said.strip(), flags=re.IGNORECASE))
        named = org and not EN_NOT_EMPLOYER.match(org) and len(org.split()) <= 3 and org[:1].isupper()
        return Found(turn.speaker_id, "works_at", org, True, True) if named else Found(turn.speaker_id, ENDED, JOB, True, True)

    def _kept_or_done(self, value: str) -> bool:
        """A thing one owns or does rather than consumes: a pastime, sport or instrument of the
        lexicon's, a device ("the iphone", "my pixel 8"); "quit sugar", "no more steak" consume."""
        words = self._clean_value(value).casefold().split()
        if not words:
            return False
        thing = " ".join(words)
        return (thing in self.lexicon.pastimes or words[-1] in self.lexicon.pastimes or self._learnt(thing)
                or words[0] in DEVICES or words[-1] in DEVICES or bool(EN_MODEL.fullmatch(thing)))

    @staticmethod
    def _learnt(thing: str) -> bool:
        """A language or a course, which one learns, not consumes: "quit german", "dropped the pottery class"."""
        return bool(re.fullmatch(ANY_CASE_LANGUAGE, thing, re.IGNORECASE) or re.search(r"\b(?:class|course|lessons?)$", thing))

    @staticmethod
    def _partnership_ended(subject: str, couple: re.Match[str]) -> list[Found]:
        """The partner's slots end; an engagement called off is no status of "engaged" any
        more, a divorce is one of "divorced" ("我们离婚了", "I'm divorced now")."""
        kind = next(k for k in ("engagement", "relationship", "marriage") if couple[k])
        status = {"engagement": [Found(subject, "relationship_status", "engaged", True, True)],
                  "marriage": [Found(subject, "relationship_status", "divorced", False, True)]}.get(kind, [])
        return [Found(subject, ENDED, kind, True, True), *status]

    def _partner(self, who: str, turn: Turn) -> str | None:
        """Whose partnership ended: "marco and I", "我和男朋友", "we" -> the speaker; "he and Lena"
        -> him; "my sister and her husband" -> her."""
        who = re.sub(r"^(?:so|ok|okay|well|and|yeah|anyway|update)\b[\s,:]*", "", who.strip(), flags=re.IGNORECASE)
        if couple := EN_COUPLE.match(who) or re.match(r"^(?P<one>.+?)(?:和|跟)(?P<other>.+)$", who):
            one, other = couple["one"].strip(), couple["other"].strip()
            # the speaker's partnership when the speaker is one of the two, else the first one's
            who = "we" if {one.casefold(), other.casefold()} & {"i", "me", "我"} else one
        if who.casefold() in ("we", "我们", "咱们", "咱俩", "我俩"):
            return turn.speaker_id
        return self._who(who, turn)

    def _zh_ending(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if (car := ZH_CAR_SOLD.match(clause)) and (subject := self._who(car["who"] or car["who2"] or "", turn)):
            return Found(subject, "owns", "车", True, True)
        if (quit_smoking := ZH_SMOKING_QUIT.match(clause)) and (subject := self._who(quit_smoking["who"], turn)):
            return Found(subject, "smokes", "烟", True, True)  # "烟已经戒了三个月了": one character, said first
        if (job := ZH_QUIT_UNNAMED.match(clause)) and (subject := self._who(job["who"], turn)):
            return Found(subject, ENDED, JOB, True, True)  # before the employer's rule: 我老公 is no employer
        if (couple := ZH_COUPLE_ENDED.match(clause)) and couple["relationship"] == "分" and not re.fullmatch(r"(?:我们|我俩|我们俩)?", couple["who"]):
            couple = None  # "分了" alone is a couple's only when it is theirs ("蛋糕分了" is shared out)
        if couple and (subject := self._partner(couple["who"], turn)):
            return self._partnership_ended(subject, couple)
        if (m := ZH_QUIT_JOB.match(clause)) and (org := self._clean_value(m["org"])):
            subject = self._subject(m["who"] or "", turn)
            return Found(subject, "works_at", org, True, True) if subject and self._usable(org) else None
        if not (m := ZH_ENDED.match(clause)):
            return None
        what = self._clean_value(m["what"] or m["what2"])
        if not self._usable(what):
            return None
        who = ZH_THAT_ONE.sub("", m["who"]) if m["what"] else m["who2"]  # "我妈那个超市": hers
        subject = self._who(who, turn)
        if subject and (said := self._ended_as_said(f"{who or '我'}{what}", subject, turn)):
            return said
        return Found(subject, ENDED, what, True, True) if subject else None

    def _ended_as_said(self, said: str, subject: str, turn: Turn) -> Found | None:
        """What is over, read as the statement it ends: "吃素坚持不下去了" ends what "我吃素" says
        (diet 素食), which ``ENDED`` of "吃素" would not name. One reading of the same subject, or none."""
        found = self._parse_clause(said, dataclasses.replace(turn, groups=dict(turn.groups)), reported=False)
        if len(found) != 1 or found[0].subject != subject or found[0].negated or found[0].predicate == ENDED:
            return None
        return dataclasses.replace(found[0], negated=True, changed=True, rule="ending/as_said")
