"""Chinese chat about oneself and one's job, said the short way chat says it.

* A self-introduction drops 我 from every item of its list: "简单介绍下：28岁，泉州人，现在在
  南京做产品经理，养了只柯基" is age 28岁, hometown 泉州, works_in 南京, job_title 产品经理, has
  柯基. Once a clause said the speaker introduces themself ("简单介绍下", "自我介绍一下"), a bare
  age ("28岁") or origin ("泉州人") is the speaker's while no one else has been named; said
  alone ("28岁" as an answer) it names no one and stays silent. "我叫小林，28岁" is not read
  so: a name does not say the list is all about the speaker (tried: it cost precision).
* Poached: "我被蓝鲸互娱挖走了" (works_at, a change).
* Starting at an employer: "今天第一天去华晨科技上班", "在恒远第一个月", "入职星河银行的第一周"
  (works_at, a change). Without a work word ("上班", "入职") the name must read as a company:
  one jieba tags an organisation or a made-up name (恒远), not a brand or an app of the
  lexicon ("在抖音第一个月" is a creator's), a city ("在成都第一个月" is a stay) or a school.
* Leaving one: "从启航教育出来了" (works_at denied). 出来 is also walking out of a building, so
  only a name with a company's suffix counts ("从协和医院出来了" is a patient's), never just
  now ("刚从…出来", a visit).
* A new boss, named in the next clause: "我们组换了个新领导，叫蒋雯", "公司来了个新领导，叫张伟"
  (has_boss, one at a time), as "we've got a new manager now, Tom Reyes" (changes.py); or said as
  who leads the group now: "现在带我们的是小葛", "我们现在归老王管".
* An office moved: "云帆办公室搬去徐汇滨江了" (located_in), "我们公司从望京搬到了亦庄" (the
  speaker's employer: located_in 亦庄, 望京 denied); not "他们公司…", whose company is unsaid.

An organisation's name is recognised by ``_zh_organisation`` (also the gate's test of an
employer whose first word jieba reads as a verb: 知岸咨询 is 知 + 岸 + 咨询).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .changes import ZH_GENERIC_PLACES
from .shapes import ZH_EMPLOYER_WORDS, ZH_NUMBER
from .shared import Found
from .text import CJK, collapse, employer_of
from .zh import ZH_SCHOOL_END

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# "简单介绍下", "先自我介绍一下", "介绍一下我自己吧": the speaker introduces themself (not "给你介绍下我妈").
ZH_INTRO = re.compile(r"^(?:那|先|我先|来|我来)?(?:简单|简单地|正式)?(?:自我介绍|介绍)(?:一)?下?(?:我自己|自己|我)?(?:吧|哈|啊|呀|哦)?$")
ZH_BARE_AGE = re.compile(rf"^(?:今年|现在)?(?P<age>{ZH_NUMBER})(?:(?:周)?岁了?)?$")  # "二十九" alone, after 我叫…
ZH_BARE_ORIGIN = re.compile(rf"^(?P<place>[{CJK}]{{2,6}})人$")
ZH_FIRST = r"(?:第一|头一)(?:天|周|个?星期|个?礼拜|个月)"
ZH_WORK = "上班|工作|报到|入职|实习"
# "今天第一天去华晨科技上班", "第一周来恒远报到"
ZH_FIRST_DAY_TO = re.compile(rf"^(?P<who>.*?){ZH_FIRST}(?:去|到|来|在)(?P<org>[{CJK}A-Za-z]{{2,10}}?)(?P<work>{ZH_WORK})了?$")
# "在恒远第一个月", "入职星河银行的第一周", "来华晨科技第一天上班"
ZH_FIRST_DAY_AT = re.compile(
    rf"^(?P<who>.*?)(?:(?<![现实正存所自])在|来|到|进|(?P<joined>入职))(?P<org>[{CJK}A-Za-z]{{2,10}}?)的?{ZH_FIRST}(?P<work>{ZH_WORK})?了?$")
# "在青橙科技待了两年了", "在腾讯干了三年": years spent at a company (where one works)
ZH_YEARS_AT = re.compile(rf"^(?P<who>.*?)(?<![现实正存所自])在(?P<org>[{CJK}A-Za-z]{{2,10}}?)(?:待|呆|(?P<work>干))了(?:快|差不多|将近|整整)?"
                         rf"(?P<span>[0-9一二三四五六七八九十两几半]+(?:年|个月))(?:多)?了?$")
# "我被蓝鲸互娱挖走了", "被字节挖过去了": poached, so working there now
ZH_POACHED = re.compile(rf"^(?P<who>.*?)被(?P<org>[{CJK}A-Za-z]{{2,10}}?)(?:高薪)?(?:挖走|挖过去|挖去|挖)了$")
# "现在全职画插画接稿", "目前专职做自媒体": work done full-time is one's job now
ZH_FULL_TIME = re.compile(rf"^(?P<who>.*?)(?:现在|目前|已经)?(?:全职|专职)(?:在家)?(?:做|当|搞|干|画|写|拍|教)(?P<job>[{CJK}A-Za-z]{{2,6}}?)"
                          rf"(?:接稿|接单|赚钱|谋生)?(?:了|的|中)?$")
# "title是产品专家", "职位是区域经理": the title, by its word
ZH_TITLE_IS = re.compile(rf"^(?P<who>.*?)(?:的)?(?:新)?(?:title|Title|TITLE|职位|岗位|职务|头衔)(?:是|叫|变成了?|换成了?)(?P<job>[{CJK}A-Za-z]{{2,8}}?)(?:了|啦)?$")
ZH_QUIT_WORDS = re.compile(r"离职|辞职|裸辞")  # "离职手续办完了": a job left, whatever else is read
# "从网易离职了，下个月去米哈游": after a job left in the message, where one goes next is the next employer
ZH_GOING_TO = re.compile(rf"^(?:下个?月|下周|下礼拜|下星期|上个?月|上周|上礼拜|上星期|前两天|前几天|月底|年后|过完年|\d{{1,2}}号|[一二三四五六七八九十]{{1,2}}月)?(?:初|中|底)?"
                         rf"(?:就|要|会)?(?:去了|去|入职了|入职|加入了|加入)(?P<org>[{CJK}A-Za-z]{{2,10}}?)(?:上班|报到|入职)?了?$")
# "从启航教育出来了", "去年从启航教育裸辞了": leaving an employer (离职 / 辞职 are zh.py's)
ZH_LEFT_FROM = re.compile(rf"^(?P<who>.*?)从(?P<org>[{CJK}A-Za-z]{{2,10}}?)(?:出来|裸辞|辞职出来)了$")
ZH_JUST_NOW = re.compile(r"(?:刚刚|刚|才|正)$")  # "刚从启航教育出来": out of the building, not the job
# The last words of a company's name beside the lexicon's ([organisations] suffixes).
ZH_COMPANY_ENDS = ("事务所", "研究院", "研究所", "出版社")  # 资本, 银行, 集团... are the lexicon's
# Where people go for other things than work: a name ending so is no employer one "came out of".
ZH_VISITED_ENDS = ("银行", "医院", "酒店", "餐厅", "商场", "店", "超市", "出版社")
# Words before a suffix that name no organisation: "新公司", "一家咨询", "这家银行", "别的公司".
ZH_NOT_ORG_HEAD = re.compile(r"^(?:新|老|原|前|一家|这家|那家|这个|那个|别的|其他|某|我|你|他|她|咱)")


# An office moved: "云帆办公室搬去徐汇滨江了", "我们公司从望京搬到了亦庄" (located_in, the old place ends)
ZH_MOVED_OFFICE = re.compile(rf"^(?P<org>[{CJK}A-Za-z]{{0,8}}?)(?:的)?(?P<office>办公室|办公地点|公司)(?:已经|正式|整体|全部|终于)?"
                             rf"(?:从(?P<old>[{CJK}]{{2,6}}?))?(?:搬到|搬去|迁到|迁去|搬迁到|迁至)了?(?P<place>[{CJK}]{{2,6}}?)(?:去了|来了|了)?$")

# "我们组换了个新领导", "部门新来了一位领导": the user's group (or no one said) got a new one
ZH_GOT_NEW_KIN = re.compile(rf"^(?:我们|咱们|我)?(?:组|部门|团队|公司|组里|部门里|公司里|单位)?(?:最近|今天|刚|又)?"
                            rf"(?:换了|来了|新来了|调来了|空降了)(?:个|一个|一位|位)新?的?(?P<kin>[{CJK}]{{2,3}})$")
# "现在带我们的是小葛", "管我们组的换成了老王", "我们现在归老王管": who leads the user's group now
ZH_LEADS_US = re.compile(rf"^(?:现在|目前|如今|新)?(?:带|管)(?:我们|我)(?:组|部门|团队)?的(?:人|领导)?(?:是|换成了?|变成了?)(?P<name>[{CJK}A-Za-z]{{2,4}})$"
                         rf"|^(?:我们|我)(?:组|部门|团队)?(?:现在|目前)?归(?P<name2>[{CJK}A-Za-z]{{2,4}})管了?$")
ZH_NAMED_NEXT = re.compile(rf"^(?:他|她)?(?:叫|名叫|名字叫)(?P<name>[{CJK}A-Za-z]{{2,4}})$")


class ZhWorkRules:
    lexicon: Lexicon

    def _zh_work(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if not re.search(f"[{CJK}]", clause):
            return None
        if office := ZH_MOVED_OFFICE.match(clause):
            return self._zh_moved_office(office, turn)
        return (self._zh_introduced(clause, turn) or self._zh_first_day(clause, turn) or self._zh_left_from(clause, turn)
                or self._zh_poached(clause, turn) or self._zh_new_boss(clause, turn) or self._zh_next_employer(clause, turn)
                or self._zh_full_time(clause, turn) or self._zh_title(clause, turn))

    def _zh_title(self, clause: str, turn: Turn) -> Found | None:
        """ "title是产品专家" (the speaker's, or whose the words before say); "又升了，区域经理": a bare
        title right after a clause that said a change of job is the new one."""
        if turn.job_moved and self.lexicon.is_occupation(clause):
            return Found(turn.speaker_id, "job_title", clause, False, True)
        if not (m := ZH_TITLE_IS.match(clause)):
            return None
        job = m["job"]  # a title as said ("产品专家"): a run of nouns, or one the lexicon lists
        if not (self.lexicon.is_occupation(job) or all(flag.startswith(("n", "eng", "vn")) for _, flag, _ in self._tokens(job))):
            return None
        region = re.sub(r"^(?:我的|我)", "", m["who"])
        who = turn.speaker_id if not region else self._who(m["who"], turn)
        return Found(who, "job_title", job) if who else None

    def _zh_full_time(self, clause: str, turn: Turn) -> Found | None:
        if not (m := ZH_FULL_TIME.match(clause)) or (who := self._who(m["who"], turn)) is None:
            return None
        return Found(who, "job_title", m["job"], False, True)

    def _zh_next_employer(self, clause: str, turn: Turn) -> Found | None:
        """ "从网易离职了，下个月去米哈游", "…上周去了云帆物流": the job just left makes "去X" the next
        employer (not a trip)."""
        if not turn.job_left or not (m := ZH_GOING_TO.match(clause)):
            return None
        tokens = self._tokens(org := self._clean_value(m["org"]))
        # a name jieba cuts apart ("米哈" + "游", "南" + "屿" + "生物"); not a town ("去上海"), not one word ("去医院")
        named = len(tokens) > 1 and not (tokens[0][1].startswith("ns") and len(tokens[0][0]) > 1) and not any(
            flag.startswith(("r", "t", "m")) for _, flag, _ in tokens)
        return Found(turn.speaker_id, "works_at", org, False, True) if named or self._zh_employer_named(org, True) else None

    def _zh_new_boss(self, clause: str, turn: Turn) -> Found | None:
        """ "我们组换了个新领导" (nothing yet), then "叫蒋雯": the user's boss now; also "现在带我们的是小葛"."""
        if (lead := ZH_LEADS_US.match(clause)) and self._zh_named(name := lead["name"] or lead["name2"]):
            return Found(turn.user_id, "has_boss", name, False, True)
        if (m := ZH_GOT_NEW_KIN.match(clause)) and (kin := self.lexicon.relative_regex.fullmatch(m["kin"])) \
                and self.lexicon.relatives[collapse(kin.group()).casefold()] == "boss":
            turn.new_kin = kin.group()
            return None
        if turn.new_kin and (named := ZH_NAMED_NEXT.match(clause)) and self._zh_named(named["name"]):
            found, turn.new_kin = self._relation_claim(named["name"], turn.new_kin, turn), None
            return found
        return None

    def _zh_poached(self, clause: str, turn: Turn) -> Found | None:
        """ "我被蓝鲸互娱挖走了": the employer one was poached by (a change of employer)."""
        if not (m := ZH_POACHED.match(clause)) or not self._zh_employer_named(org := self._clean_value(m["org"]), True):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn) if region else turn.speaker_id
        return Found(subject, "works_at", org, False, True) if subject and not negated else None

    # ---- a self-introduction
    def _zh_introduced(self, clause: str, turn: Turn) -> Found | None:
        """A bare "28岁" or "泉州人" in a message that introduced the speaker."""
        if ZH_INTRO.match(clause):
            turn.introduced = turn.introduced or turn.user_is_speaker
            return None
        if not turn.introduced or turn.other is not None:
            return None  # no introduction yet, or someone else named since: whose age is not said
        if m := ZH_BARE_AGE.match(clause):
            return Found(turn.speaker_id, "age", m["age"] + "岁")
        if (m := ZH_BARE_ORIGIN.match(clause)) and (tokens := self._tokens(m["place"])) \
                and all(flag.startswith("ns") for _, flag, _ in tokens):
            return Found(turn.speaker_id, "hometown", m["place"])
        return None

    # ---- employers
    def _zh_first_day(self, clause: str, turn: Turn) -> Found | None:
        """ "今天第一天去华晨科技上班", "在恒远第一个月": the employer one has just started at; "在青橙科技待了
        两年了": the one worked at for years; years in a town are where one lives ("在厦门待了快十年了")."""
        m = ZH_FIRST_DAY_TO.match(clause) or ZH_FIRST_DAY_AT.match(clause) or ZH_YEARS_AT.match(clause)
        if m is None:
            return None
        org = self._clean_value(m["org"])
        work = bool(m.groupdict().get("work") or m.groupdict().get("joined"))
        region, negated = self._clean_before_verb(m["who"])
        # years in a town, still there (了 at the end: "待了三年" alone is a stay that ended)
        if m.re is ZH_YEARS_AT and not work and m["span"].endswith("年") and clause.endswith("了") and self._zh_town(org):
            subject = self._subject(region, turn) if region else turn.speaker_id
            return Found(subject, "lives_in", org) if subject and not negated else None
        if not self._zh_employer_named(org, work):
            return None
        subject = self._subject(region, turn)
        # years spent are a state, not a start: "之前在华为干了三年" is past (the mood's to say)
        return Found(subject, "works_at", org, False, m.re is not ZH_YEARS_AT) if subject and not negated else None

    def _zh_left_from(self, clause: str, turn: Turn) -> Found | None:
        """ "从启航教育出来了": no longer works there (only a company's name by its suffix)."""
        if not (m := ZH_LEFT_FROM.match(clause)) or ZH_JUST_NOW.search(m["who"]):
            return None
        org = self._clean_value(m["org"])
        if not self._zh_organisation(org) or org.endswith(ZH_VISITED_ENDS):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        return Found(subject, "works_at", org, True, True) if subject and not negated else None

    def _zh_town(self, name: str) -> bool:
        """A place jieba tags as one (a city, a district): 厦门, 成都, 海淀."""
        tokens = self._tokens(name)
        return len(tokens) == 1 and tokens[0][1].startswith("ns") and len(name) >= 2

    def _zh_employer_named(self, org: str, work: bool) -> bool:
        """A company one works at: a name with a company's suffix, or one jieba tags an
        organisation or a proper noun; with a work word said, also a name jieba does not know
        (two or three characters read one by one). Not a place, a school or a brand the
        lexicon lists when no work word says it is a job ("在抖音第一个月")."""
        if not org or org in ZH_GENERIC_PLACES or org in ZH_EMPLOYER_WORDS or re.search(f"(?:{ZH_SCHOOL_END})$", org):
            return False
        if self._zh_organisation(org):
            return True
        tokens = self._tokens(org)
        if any(flag.startswith("ns") for _, flag, _ in tokens) or ZH_NOT_ORG_HEAD.match(org):
            return False
        if len(tokens) == 1 and tokens[0][1] in ("nt", "nz"):
            return work or org not in self.lexicon.words("organisations", "names")
        return work and self._unknown_name(tokens)

    def _zh_organisation(self, name: str) -> bool:
        """A Chinese organisation's name by its end: a head of two to four characters and a
        company's suffix ("知岸咨询", "启航教育", "恒远资本", "星河银行"); not "新公司", "一家咨询"."""
        if not re.fullmatch(f"[{CJK}A-Za-z]{{3,10}}", name) or ZH_NOT_ORG_HEAD.match(name):
            return False
        for suffix in (*self.lexicon.words("organisations", "suffixes"), *ZH_COMPANY_ENDS):
            head = name[: -len(suffix)]
            if name.endswith(suffix) and 2 <= len(head) <= 4:
                tokens = self._tokens(head)
                # the head is a name: no pronoun, numeral, time, particle or preposition in it
                return not any(flag.startswith(("r", "m", "q", "t", "u", "p", "c", "d", "y", "f")) for _, flag, _ in tokens)
        return False

    def _zh_moved_office(self, m: re.Match[str], turn: Turn) -> list[Found] | None:
        """ "云帆办公室搬去徐汇滨江了" (云帆 located_in 徐汇滨江); "我们公司从望京搬到了亦庄" (the
        speaker's employer: located_in 亦庄, no longer 望京)."""
        org, place = collapse(m["org"]), self._clean_value(m["place"])
        if m["office"] == "公司" and org not in ("", "我们", "咱们", "我", "咱"):
            return None  # "物流公司搬到…", "他公司…": whose is not plainly said
        owner = employer_of(turn.user_id) if org in ("", "我们", "咱们", "我", "咱") else org
        if not self._usable(place) or org in ZH_GENERIC_PLACES:
            return None
        found = [Found(owner, "located_in", place, False, True)]
        if m["old"] and self._usable(old := self._clean_value(m["old"])):
            found.append(Found(owner, "located_in", old, True, True))
        return found
