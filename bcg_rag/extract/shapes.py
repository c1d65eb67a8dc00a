"""Everyday shapes of both languages that the verb, copula and attribute rules do not cover.

Each reads one clause shape whose meaning is fixed by its grammar, so it is safe to
read with confidence:

* relations between people: "Anna is my roommate" / "Anna是我室友" -> (user, has_roommate, Anna);
* ages: "my daughter turned 7", "我女儿今年三岁了";
* a pet's or a thing's name: "我的猫叫年糕", "my cat is called Mochi", and "叫团子" right
  after "我养了一只仓鼠";
* leaving a group or a school: "I left the book club", "dropped out of my MBA at Wharton";
* a state said without a subject: "not married", "be vegan" (after "used to");
* moving away: "刚从广州搬过来" (广州 no longer holds);
* an attribute without 的: "我生日是3月15号".
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

from .idioms import EN_ON_DAY
from .in_passing import IN_PASSING_PREDICATES, PARTNER_PREDICATES, is_car
from .shared import CLUB_WORDS, ENDED, Found
from .text import CJK, EN_MODEL, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

ZH_NUMBER = "[0-9一二三四五六七八九十两]{1,3}"
ZH_AGE = re.compile(rf"^(?P<who>.*?)(?:(?:今年|现在|已经)?就?(?P<age>{ZH_NUMBER})(?:周)?岁(?:半)?了?|今年(?P<age2>{ZH_NUMBER})了)$")
EN_TURNED = re.compile(r"^(?P<who>.*?)\s*(?:just\s+)?(?:turned|turning|turns|turn)\s+(?P<age>\d{1,3})\b", re.IGNORECASE)
EN_IS_MY = re.compile(r"^(?P<name>[A-Z][\w'-]*?(?:\s+[A-Z][\w'-]*?)?)(?:\s+(?:is|was)|'s)\s+(?P<owner>my|our)\s+(?:(?:new|current)\s+)?(?P<rel>.+)$")
# "he's our tortoise": the one just named ("Gerald's finally eating properly"), a pet kept
EN_HE_IS_MY = re.compile(r"^(?:he|she|it)(?:\s+is|'s)\s+(?:my|our)\s+(?P<rel>[a-z]+)[\s.!]*$", re.IGNORECASE)
# "my manager is Gregory Tan", "new manager is Priya Raman" (chat drops the "my" before "new"):
# a person named for a relation ("my mom is a doctor" describes her: no name, no claim)
EN_MY_KIN_IS = re.compile(r"^(?:(?:my|our)\s+(?:(?:new|current)\s+)?|new\s+)(?P<rel>[a-z][a-z-]*(?:\s+[a-z-]+)?)"
                          r"\s+(?:is|'s)\s+(?:now\s+)?(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*[.!]*$")
# "Anna是我大学室友": at most a short modifier ("大学", "高中") before the kin word, no 的 inside.
ZH_IS_MY = re.compile(r"^(?P<name>.+?)是我的?(?P<rel>[^的]{1,6})$")
# "我们领导是老周", "新领导是张伟": the person named for the relation, as EN_MY_KIN_IS ("我岳父叫陈建国"
# gives his name: the name rules read it)
ZH_MY_KIN_IS = re.compile(r"^(?:(?:我们|我)的?(?:新来的|新的?|现在的)?|新来的|新的?)(?P<rel>[^是叫的]{1,4})是(?P<name>[^，。！？]{1,8})$")
# "我男朋友叫陈屿", "新领导叫蒋雯": for one at a time (a partner, one's boss) the name is the slot,
# as with 是; other kin named by 叫 ("我岳父叫陈建国") are the name rules' (their name)
ZH_MY_KIN_CALLED = re.compile(ZH_MY_KIN_IS.pattern.replace(")是(?P<name>", ")叫(?P<name>"))
ZH_THING_NAMED = re.compile(rf"^(?:我的|我家的?|我们家的?)(?![有养])(?P<thing>[{CJK}]{{1,4}})叫(?P<name>[{CJK}A-Za-z]{{1,4}})$")
EN_THING_NAMED = re.compile(
    r"^(?:[Mm]y|[Oo]ur)\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)(?:'s name is|\s+is\s+(?:called|named))\s+(?P<name>[A-Z][\w'-]*)$"
)
ZH_CALLED = re.compile(rf"^(?:它|他|她)?(?:的名字)?(?:叫|名叫|取名叫)(?P<name>[{CJK}A-Za-z]{{2,4}})$")  # "(它)叫奶盖"
# "养了两只猫，一只叫汤圆一只叫年糕", "大的叫可乐，小的叫雪碧": each of the animals just kept, by name
ZH_ONE_OF = r"(?:另外?一|一)(?:只|条|匹)|大的|小的|老大|老二|老三"
ZH_EACH_CALLED = re.compile(rf"(?:{ZH_ONE_OF})叫(?P<name>[{CJK}A-Za-z]{{2,4}}?)(?=(?:{ZH_ONE_OF})叫|$)")
# Words for an employer not yet named: "新公司入职第一周！叫星桥数据" names it in the next clause.
ZH_EMPLOYER_WORDS = ("新公司", "公司", "新单位", "单位", "新东家", "东家")
ZH_NEW_EMPLOYER = re.compile(r"新(?:公司|单位|东家)")
ZH_EMPLOYER_NAMED = re.compile(rf"^(?:我的?|我们)?(?P<word>新?(?:公司|单位|东家))(?:的名字)?叫(?P<name>[{CJK}A-Za-z0-9]{{2,8}})$")
EN_LEFT_GROUP = re.compile(
    r"^(?P<who>.*?)\b(?:left|quit|quitting|leaving)\s+(?:the|my|our)\s+(?P<group>[\w\s'-]{2,40})$", re.IGNORECASE
)
EN_DROPPED_OUT = re.compile(
    r"^(?P<who>.*?)\bdropped\s+out\s+of\s+(?:(?:my|the|a)\s+.*?\s+(?:at|from)\s+)?(?P<school>[A-Z][\w'.&-]*(?:\s+[A-Z][\w'.&-]*)*)",
    re.IGNORECASE,
)
ZH_MOVED_AWAY = re.compile(r"^(?P<who>.*?)从(?P<old>.+?)搬(?:过来|过来了|来|来了|走|走了|出来|出来了)$")
EN_MOVED_AWAY = re.compile(r"^(?P<who>.*?)\b[Mm]oved\s+(?:here\s+|over\s+|out\s+|away\s+)?from\s+(?P<old>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)$")
# "moved into a new place in Queens": the home's place is where the speaker lives now.
EN_MOVED_INTO = re.compile(
    r"^(?P<who>.*?)\b[Mm]oved\s+(?:in)?to\s+(?:a|an|our|my|the)\s+(?:new\s+|bigger\s+|smaller\s+)?"
    r"(?:place|apartment|house|home|flat|condo)\s+in\s+(?P<new>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)$"
)
EN_CANCELLED = re.compile(
    r"^(?P<who>.*?)\b[Cc]ancel(?:l?ed|l?ing|s)?\s+(?:(?:my|our|the)\s+(?P<thing>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)?)\s+"
    r"(?P<kind>membership|subscription|account|thing)|(?P<thing2>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)?)(?=\s*$|\s*[,.!]))",
)
# The same typed in lower case ("cancelled my ironworks membership"): one word, not a kind of plan.
EN_CANCELLED_LOWER = re.compile(
    r"^(?P<who>.*?)\bcancel(?:l?ed|l?ing|s)?\s+(?:my|our|the)\s+(?!(?:gym|monthly|annual|yearly|premium|family|old|free|trial)\s)"
    r"(?P<thing>[a-z][\w&'-]+)\s+(?P<kind>membership|subscription)\b")
# A choice among things to buy ("went with the roomba in the end", "ended up getting a Kindle",
# "settled on a used Prius") is a purchase too, of a durable thing only: "went with the Marriott"
# or "went with Anna" is no thing owned.
EN_CHOSE = r"ended\s+up\s+(?:getting|buying|with|going\s+with)|went\s+with|settled\s+on|opted\s+for|picked\s+up|chose|purchased"
EN_BOUGHT = re.compile(
    rf"^(?P<who>.*?)\b(?P<verb>bought|buy|sold|sell|got|picked\s+up|(?P<chose>{EN_CHOSE}))\s+(?P<thing>(?P<article>(?:a|an|the|my|our)\s+)?.+)$",
    re.IGNORECASE,
)
EN_AND_BOUGHT = re.compile(r"\s+and\s+(?:then\s+)?(?P<bought>(?:bought|got|picked\s+up|went\s+with)\s+(?:a|an|the|my|our)\s)", re.IGNORECASE)
EN_SOLD_TO_WHOM = re.compile(r"\s+(?:to|for)\s+(?:a|an|the|my|our|his|her|some|\d|£|\$|€).*$", re.IGNORECASE)
EN_CONDITION = re.compile(r"^((?:a|an|the|my|our)\s+)(?:brand[- ]new|new|used|second[- ]hand|pre-owned|refurbished)\s+(?=\S+\s+\S)",
                          re.IGNORECASE)
# "traded in the Civic for a Subaru": one thing given up for another.
EN_TRADED = re.compile(
    r"^(?P<who>.*?)\b(?:traded|swapped|exchanged)\s+(?:in\s+)?(?:my|our|the|a|an)\s+(?P<old>.+?)\s+for\s+(?:a|an|the)\s+(?P<new>.+)$",
    re.IGNORECASE,
)
# "我开的是一辆朗逸": <who> <verb>的 (不)是 <thing>; 开 and 用 are too loose to be verbs of their own.
ZH_CLEFT = re.compile(r"^(?P<who>.*?)(?P<verb>开|喝|吃|用|学|养|玩|弹)的(?P<neg>不)?是(?:一)?(?:辆|台|部|只|条|个|杯|款|家)?(?P<value>.+)$")
ZH_FAVORITE_IS = re.compile(r"^(?P<who>[^的]*?)(?:最[^最的]{1,3}也)?最(?:爱|喜欢)的(?:是|就是|还是)(?P<value>.+)$")
ZH_CLEFT_PREDICATES = {"开": "owns", "用": "uses", "养": "has"}  # the car one drives is the one bought (买了, 换了台)
EN_MY_JOB_AT = re.compile(r"\bmy\s+(?:(?:night|day|early|late|long|\d+-hour)\s+)?(?:office|job|work|desk|team|shifts?)\s+at\s+(?P<org>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)*)")
JOB_ENDED = re.compile(r"\b(?:quit|left|leav\w*|lost|los\w+|fired|resign\w*|retir\w*|former|old|previous|ex)\b", re.IGNORECASE)
MARRIED = re.compile(r"\b(?:got|just got|finally got)\s+married\b|(?<![没不])(?:结婚|领证)了|(?:刚|已经|早就)(?:结婚|领证)", re.IGNORECASE)
ZH_NOT_MARRIED = re.compile(r"(?:还)?没(?:有)?(?:结婚|领证)")
# "我姐和她男朋友阿杰领证了": who married whom, the partner named after the kin word
ZH_WED_PAIR = re.compile(r"^(?P<who>.+?)(?:和|跟|与)(?:她|他)?的?(?:男朋友|女朋友|男友|女友|对象|未婚夫|未婚妻)?(?P<whom>[\u4e00-\u9fff]{2,3})$")
# "28了还单身", "我姐一直单身": single; "我脱单了", "谈恋爱了": no longer (in a relationship).
ZH_SINGLE = re.compile(r"^(?P<who>.*?)(?:还是|还|依然|仍然|一直|目前|现在)?(?:是)?单身(?:狗)?(?:一个)?(?:了|呢|中|着|啊)?$")
ZH_TAKEN = re.compile(r"^(?P<who>.*?)(?:终于|总算|也|已经)?(?:脱单|谈恋爱|恋爱)了?$")  # "有女朋友了" is has 女朋友 (and the name after it, dating)
ZH_AGE_ONLY = re.compile(r"^(?:我)?(?:都|已经)?(?:\d{1,2}|[一二三四五六七八九十]{1,3})岁?了?$")
EN_BARE_STATE = re.compile(r"^(?:nope\s+|no\s+)?(?P<neg>not\s+)?(?:be\s+|being\s+)?(?P<state>.+)$", re.IGNORECASE)

# "我生日是3月15号", "我老公生日是5月2号" (the owner: the speaker or a relative of theirs)
ZH_BARE_ATTRIBUTE = re.compile(r"^(?P<owner>(?:我的?)?(?:老公|老婆|妈妈|妈|爸爸|爸|女儿|儿子|哥哥|哥|姐姐|姐|弟弟|弟|妹妹|妹"
                               r"|男朋友|女朋友|对象|爷爷|奶奶|外公|外婆)|我们|我)(?P<attr>[^是的]{1,6})(?P<neg>不是|是)(?P<value>.+)$")
# "下周一8月19号是我生日", "3月2号是我们结婚纪念日": a day, then whose day it is
ZH_DATE_IS_WHOSE = re.compile(r"^(?:[^0-9是]{0,6}?)(?P<date>\d{1,2}月\d{1,2}[号日])(?:就|正好|刚好)?是(?P<owner>我们|我|(?:我的?)?[^的是]{1,3}?)的?"
                              r"(?P<attr>生日|结婚纪念日|纪念日)(?:哦|呢|啦|了)?$")


class ShapeRules:
    lexicon: Lexicon

    def _shape(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if wed := MARRIED.search(clause):  # "Got married last Saturday!", "我上个月结婚了"
            region, negated = self._clean_before_verb(clause[: wed.start()])
            said = self._clean_attribute(clause[: wed.start()])[0]  # "…阿杰上周": the time after the pair
            if (pair := ZH_WED_PAIR.match(said)) and (who := self._subject(self._clean_before_verb(pair["who"])[0], turn)) \
                    and not self.lexicon.relative_regex.fullmatch(pair["whom"]) and (whom := self._name(pair["whom"], turn)):
                return Found(who, "married_to", whom, False, True)
            if not negated and self._subject(region, turn) == turn.speaker_id:
                return Found(turn.speaker_id, "relationship_status", "已婚" if has_cjk(clause) else "married", False, True)
        if wed := ZH_NOT_MARRIED.search(clause):  # "我还没有结婚": not married (yet)
            region, negated = self._clean_before_verb(clause[: wed.start()])
            if not negated and self._subject(region, turn) == turn.speaker_id:
                return Found(turn.speaker_id, "relationship_status", "已婚", True)
        if has_cjk(clause) and (m := ZH_SINGLE.match(clause) or ZH_TAKEN.match(clause)):
            region, negated = self._clean_before_verb(m["who"])
            subject = turn.speaker_id if not region or ZH_AGE_ONLY.match(region) else self._subject(region, turn)
            if subject is not None and not negated:  # "28了还单身" is the speaker's age, then the state
                taken = m.re is ZH_TAKEN
                return Found(subject, "relationship_status", "恋爱中" if taken else "单身", False, taken)
        if has_cjk(clause):
            return (self._zh_age(clause, turn) or self._zh_is_my(clause, turn) or self._thing_named(clause, turn)
                    or self._zh_called(clause, turn) or self._zh_moved_away(clause, turn) or self._zh_bare_attribute(clause, turn)
                    or self._zh_bought(clause, turn) or self._zh_cleft(clause, turn))
        return (self._en_age(clause, turn) or self._en_is_my(clause, turn) or self._thing_named(clause, turn)
                or self._left_group(clause, turn) or self._dropped_out(clause, turn) or self._bare_state(clause, turn)
                or self._cancelled(clause, turn) or self._pet_taken(clause, turn) or self._pet_name_after(clause, turn)
                or self._bought_or_sold(clause, turn) or self._my_job_at(clause, turn)
                or self._zh_moved_away(clause, turn) or self._traded(clause, turn))

    # ---- people and their relations
    def _relation_claim(self, name: str, relation: str, turn: Turn) -> Found | None:
        key = collapse(relation).casefold()
        if key not in self.lexicon.relatives:
            return None
        relation = self.lexicon.relatives[key]  # a husband or a girlfriend is who one is married to or dating
        return Found(turn.user_id, PARTNER_PREDICATES.get(relation) or "has_" + relation.replace(" ", "_").replace("-", "_"), name)

    def _en_is_my(self, clause: str, turn: Turn) -> Found | None:
        """ "Anna is my roommate", "my manager is Gregory Tan": the user has a roommate called
        Anna, a boss called Gregory Tan ("new manager is Priya Raman": the slot says the change)."""
        if (pet := EN_HE_IS_MY.match(clause)) and turn.other:  # "Gerald's finally eating properly, he's our tortoise"
            m, name = pet, turn.other
        elif not (m := EN_IS_MY.match(clause) or EN_MY_KIN_IS.match(clause)) or (name := self._name(m["name"], turn)) is None:
            return None
        said = m["rel"].strip(" .!")
        if said.casefold() in self.lexicon.pets and m.re is not EN_MY_KIN_IS:
            # "Pickle is my cat": one keeps a cat, and Pickle is its name
            turn.owned = (turn.speaker_id, said)
            return [Found(turn.speaker_id, "has", said), Found(turn.speaker_id, "pet_name", name)]
        if m.re is EN_HE_IS_MY and not re.search(r"\bmy\b", m.group(), re.IGNORECASE) \
                or m.groupdict().get("owner", "my").casefold() != "my":
            return None  # "Sam is our neighbour" is whose? Only a pet is the household's as much as one's own
        return self._relation_claim(name, said, turn)

    def _zh_is_my(self, clause: str, turn: Turn) -> Found | None:
        """ "Anna是我大学室友", "小王是我同事": the words before the kin word say which one."""
        if m := ZH_MY_KIN_IS.match(clause):  # the kin word alone ("我们公司老板是张伟": the company's)
            kin = self.lexicon.relative_regex.fullmatch(m["rel"])
            return self._relation_claim(m["name"], kin.group(), turn) if kin and self._zh_named(m["name"]) else None
        if (m := ZH_MY_KIN_CALLED.match(clause)) and (kin := self.lexicon.relative_regex.fullmatch(m["rel"])) \
                and self.lexicon.relatives[collapse(kin.group()).casefold()] in IN_PASSING_PREDICATES and self._zh_named(m["name"]):
            return self._relation_claim(m["name"], kin.group(), turn)
        if not (m := ZH_IS_MY.match(clause)) or not self._zh_named(m["name"]):
            return None
        kin = re.search(self.lexicon.relative_regex.pattern + "$", m["rel"], re.IGNORECASE)
        return self._relation_claim(m["name"], kin.group(), turn) if kin else None

    # ---- ages and names
    def _en_age(self, clause: str, turn: Turn) -> Found | None:
        if not (m := EN_TURNED.match(clause)):
            return None
        region, negated = self._clean_before_verb(re.sub(r"(?:'m|'s|'re|\s+(?:am|is|are))$", "", m["who"].strip()))
        # "just turned 30", "turning 40 in May": the speaker's
        if (who := turn.speaker_id if not region and not negated else self._age_owner(m["who"], turn)) is None:
            return None
        day = EN_ON_DAY.match(clause, m.end())  # "turning 35 on Nov 3rd": that day is the birthday
        return [Found(who, "age", m["age"])] + ([Found(who, "attr:birthday", day["date"])] if day else [])

    def _zh_age(self, clause: str, turn: Turn) -> Found | None:
        if not (m := ZH_AGE.match(clause)):
            return None
        who = self._age_owner(m["who"], turn)
        if who is None and not m["who"].strip() and turn.other is None and clause.startswith("今年"):
            who = turn.speaker_id  # "今年28了": this year's age, no one else named (as "just turned 30")
        if who is None:
            return None
        return Found(who, "age", (m["age"] or m["age2"]) + "岁")  # "今年七十了": 今年 says it is an age

    def _age_owner(self, region: str, turn: Turn) -> str | None:
        region, negated = self._clean_before_verb(region)
        if not region and has_cjk(region + "岁") and turn.topic and turn.other and not negated:
            return turn.other  # "我的狗叫豆豆，五岁了": the clause before named whose age it is
        if negated or not region and has_cjk(region + "岁"):
            return None  # "已经八岁了": whose age is not said here ("Just turned 30": the speaker's)
        subject = self._subject(region, turn)
        return subject if subject and (subject.startswith(f"{turn.user_id}'s ") or subject == turn.speaker_id
                                       or self._zh_named(subject) or not has_cjk(subject)) else None

    def _thing_named(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "我的猫叫年糕", "my cat is called Mochi": the speaker has one, and that is its name."""
        m = ZH_THING_NAMED.match(clause) or EN_THING_NAMED.match(clause)
        if m is None or self.lexicon.relative_regex.fullmatch(m["thing"]) or m["thing"] in ("name", "名字"):
            return None
        turn.owned = (turn.speaker_id, m["thing"])
        return [Found(turn.speaker_id, "has", m["thing"]), Found(turn.speaker_id, "pet_name", m["name"])]

    def _employer_unnamed(self, clause: str, turn: Turn) -> tuple[str, str] | None:
        """ "新公司入职第一周": the speaker has a new employer the next clause may name (not
        someone else's: "我老公新公司…")."""
        if (m := ZH_NEW_EMPLOYER.search(clause)) and not self.lexicon.relative_regex.search(clause[: m.start()]):
            return turn.speaker_id, m.group()
        return None

    def _zh_called(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        """ "我养了一只仓鼠，叫团子": the name of what the last clause said the speaker keeps."""
        if m := ZH_EMPLOYER_NAMED.match(clause):  # "新公司叫星桥数据"
            return Found(turn.speaker_id, "works_at", m["name"], False, m["word"].startswith("新"))
        if turn.owned and (each := list(ZH_EACH_CALLED.finditer(clause))) and each[0].start() == 0 and \
                all(a.end() == b.start() for a, b in pairwise(each)) and any(
                turn.owned[1].casefold().endswith(pet) for pet in self.lexicon.pets):  # 布偶猫 is a cat
            return [Found(turn.owned[0], "pet_name", m["name"]) for m in each]
        if not (m := ZH_CALLED.match(clause)) or turn.owned is None:
            return None
        # what is called so is a name, whatever the segmenter makes of it (奶盖: 奶 + 盖, "to cover")
        turn.entities.setdefault(m["name"].casefold(), m["name"])
        if turn.owned[1] in ZH_EMPLOYER_WORDS:  # "新公司入职第一周！叫星桥数据"
            return Found(turn.owned[0], "works_at", m["name"], False, turn.owned[1].startswith("新"))
        if relation := self.lexicon.relatives.get(collapse(turn.owned[1]).casefold()):
            # "我有女朋友了，叫小雨": whom the speaker dates; "我有个妹妹，叫小雨": a sister, no pet
            if relation in ("boyfriend", "girlfriend", "partner"):
                return Found(turn.owned[0], "dating", m["name"], False, True)
            return self._relation_claim(m["name"], turn.owned[1], turn) if turn.owned[0] == turn.user_id else None
        return Found(turn.owned[0], "pet_name", m["name"])

    # ---- leaving
    def _left_group(self, clause: str, turn: Turn) -> Found | None:
        """ "I left the book club": a membership ends (a club, team, band, league...)."""
        if not (m := EN_LEFT_GROUP.match(clause)) or not CLUB_WORDS.search(last := m["group"].split()[-1]):
            return None  # "left the book club"; not "left the club early" (a night out)
        if last == "party":
            return None  # "left the party": an evening; a political party is named ("the Green Party")
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        group = self._clean_value(m["group"])
        return Found(subject, "member_of", group, not negated, True) if subject and group else None

    def _dropped_out(self, clause: str, turn: Turn) -> Found | None:
        if not (m := EN_DROPPED_OUT.match(clause)):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        return Found(subject, "studies_at", m["school"], not negated, True) if subject and not negated else None

    def _cancelled(self, clause: str, turn: Turn) -> Found | None:
        """ "I cancelled my FitLife membership", "Cancelled Netflix": a membership or subscription ends."""
        if not (m := EN_CANCELLED.match(clause) or turn.lower_case and EN_CANCELLED_LOWER.match(clause)):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        kind = (m["kind"] or "").casefold()
        # "cancelled the PureGym thing": what it was is not said; whatever holds it ends
        predicate = "member_of" if kind == "membership" else ENDED if kind == "thing" else "subscribes_to"
        return Found(subject, predicate, m["thing"] or m["thing2"], not negated, True) if subject else None

    def _bought_or_sold(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        """ "I sold the Civic", "we bought a Subaru Outback", "got a new car": what is owned changes.
        Only a named thing or a durable one: "bought coffee" says nothing durable. "sold the
        Fabia and picked up a Mazda 3": one given up, the other had."""
        if not (m := EN_BOUGHT.match(clause)):
            return None
        sold = m["verb"].casefold().startswith(("sold", "sell"))
        if sold and (then := EN_AND_BOUGHT.search(clause, m.start("thing"))):
            found = [self._bought_or_sold(clause[: then.start()], turn), self._bought_or_sold(clause[then.start("bought"):], turn)]
            return [f for f in found if isinstance(f, Found)] or None
        # "sold the Fabia to a guy from work": whom to is not the thing; "a used Mazda 3": the car is the Mazda 3
        thing = self._clean_value(EN_CONDITION.sub(r"\1", EN_SOLD_TO_WHOM.sub("", m["thing"]) if sold else m["thing"]))
        durable = bool(thing) and (thing.split()[-1].casefold() in self.lexicon.durable_goods or is_car(self.lexicon, thing))
        named = m["article"] and (len(thing) > 1 and thing[:1].isupper() and not m["chose"] or EN_MODEL.fullmatch(thing))
        if not thing or not (durable or named):
            return None  # "got a cold", "got an A", "bought groceries": neither a name nor a thing kept
        if thing.split()[0].casefold().rstrip(".") in self.lexicon.not_possessions:
            return None  # "I've got a PhD in chemistry": a qualification (the lexicon's), not a thing owned
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        return Found(subject, "owns", thing, negated != sold, True) if subject else None

    def _traded(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "traded in the civic for a used Subaru Outback": the old one is no longer owned, the new one is."""
        if not (m := EN_TRADED.match(clause)):
            return None
        old, new = self._clean_value(m["old"]), self._clean_value(m["new"])
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        if subject is None or negated or not (self._usable(old) and self._usable(new)):
            return None
        return [Found(subject, "owns", old, True, True), Found(subject, "owns", new, False, True)]

    def _zh_cleft(self, clause: str, turn: Turn) -> Found | None:
        """ "我开的是一辆朗逸", "我平时喝的是美式": what someone drives, drinks, ... is that;
        "现在最常听也最喜欢的是白噪音计划了": the favourite, one at a time (attr:favorite, as
        "my favourite is Blur"), not one more thing liked."""
        if fav := ZH_FAVORITE_IS.match(clause):
            (subject, negated), value = self._zh_who(fav["who"], turn), self._clean_value(fav["value"])  # "现在": when
            return Found(subject, "attr:favorite", value, negated) if subject and self._usable(value) else None
        if not (m := ZH_CLEFT.match(clause)):
            return None
        verb = m["verb"]
        predicate = ZH_CLEFT_PREDICATES.get(verb) or self.lexicon.predicate_of(verb)
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        value = self._clean_value(m["value"])
        if not predicate or subject is None or not self._usable(value):
            return None
        return Found(subject, predicate, value, negated or m["neg"] is not None)

    def _my_job_at(self, clause: str, turn: Turn) -> Found | None:
        """ "my office at Deloitte", "I love my job at Amazon": the speaker works there."""
        if not (m := EN_MY_JOB_AT.search(clause)) or JOB_ENDED.search(clause[: m.start()]):
            return None  # "I quit my job at Acme" is the job rule's: it ended
        org = self._clean_value(m["org"])
        return Found(turn.speaker_id, "works_at", org) if org else None

    def _zh_moved_away(self, clause: str, turn: Turn) -> Found | None:
        """ "刚从广州搬过来", "moved here from Ohio": the old place no longer holds (the new one is
        not named); "moved into a new place in Queens": the new one does."""
        m = ZH_MOVED_AWAY.match(clause) or EN_MOVED_AWAY.match(clause)
        into = None if m else EN_MOVED_INTO.match(clause)
        if not (m or into):
            return None
        region, negated = self._clean_before_verb((m or into)["who"])
        subject, place = self._subject(region, turn), self._clean_value(m["old"] if m else into["new"])
        return Found(subject, "lives_in", place, bool(m), True) if subject and place and not negated else None

    # ---- states and attributes without a subject or without 的
    def _bare_state(self, clause: str, turn: Turn) -> Found | None:
        """ "Nope, not married", "be vegan" (after "used to"): a listed state of the speaker."""
        m = EN_BARE_STATE.match(collapse(clause).strip(" .!"))
        state = self._clean_value(m["state"]).casefold() if m else ""
        if state not in self.lexicon.states or state.endswith(" to"):
            return None
        return Found(turn.speaker_id, "is", state, bool(m["neg"]))

    def _zh_bare_attribute(self, clause: str, turn: Turn) -> Found | None:
        """ "我生日是3月15号", "我老公生日是5月2号": an attribute the lexicon knows right after the
        owner, without 的; "下周一8月19号是我生日": a date said before whose day it is."""
        if m := ZH_DATE_IS_WHOSE.match(clause):
            owner, attr, value, negated = m["owner"], m["attr"], m["date"], False
        elif m := ZH_BARE_ATTRIBUTE.match(clause):
            owner, attr, value, negated = m["owner"], m["attr"], m["value"], m["neg"] == "不是"
        else:
            return None
        if collapse(attr).casefold() not in self.lexicon.attributes:
            return None
        who, personal = self._owner(owner, turn)
        return self._attribute_claim(who, personal, attr, value, negated) if who else None
