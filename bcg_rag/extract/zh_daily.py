"""Chinese daily life said in passing: what a routine, a chore or a skill never learned tells.

* A commute: "我一般骑车上班", "平时都是坐公交上班" (commutes_by 骑车 / 公交); between two places,
  "闵行到长宁这通勤真要命" (lives_in 闵行, works_in 长宁); with where it goes,
  "每天挤地铁去望京上班" also says where the work is (works_in 望京: a place jieba tags one) or
  for whom ("每天坐地铁去华为上班": works_at, an organisation). Without a way of travel, "去X上班"
  needs a word of how often ("每天去望京上班"): "明天去国贸上班" is one day.
* Exercise counted: "每周跑三次步", "每天晚上都要跑5公里", "一周游两次泳" (habit 跑步 / 游泳), only with
  a word of how often.
* Care that says who one has: "早上遛完柯基再去上班", "回家还得给我家二哈铲屎" (has 柯基 / 二哈: an
  animal the lexicon lists, or a breed below); "周末去看我外甥", "每天送女儿去幼儿园", "带儿子去上
  游泳课" (has 外甥 / 女儿 / 儿子: a child or a sibling's child, not a parent everyone has).
  Only the speaker's, said with nothing but times and adverbs before the verb: "帮邻居遛狗" is not.
* A skill never learned: "一直没学会开车", "还没学会游泳" (can, denied); "学会了游泳" (can).
* An exam passed: "我弟今年考上了浙大" (studies_at, a change); "考上了公务员" (job_title); a school
  year spent somewhere: "我家儿子在花园路小学读二年级" (studies_at).
* An intolerance: "我好像有点乳糖不耐" (intolerant_to 乳糖; the hedge is the mood's); an allergy
  said without 对: "我芒果过敏", "我老公海鲜过敏" (allergic_to; "皮肤过敏" names where, not what).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .changes import ZH_GENERIC_PLACES
from .gate import ZH_SPECIFIC_TIME
from .pets_hobbies import ZH_MORE_PETS
from .routines import routine_patterns
from .shared import Found
from .text import CJK, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# The way of travel, as said -> the value kept.
ZH_MODES = {"骑车": "骑车", "骑自行车": "骑车", "骑单车": "骑车", "骑共享单车": "骑车", "骑电动车": "电动车",
            "骑电瓶车": "电动车", "骑电驴": "电动车", "骑小电驴": "电动车", "开车": "开车", "自驾": "开车", "坐地铁": "地铁", "挤地铁": "地铁", "搭地铁": "地铁",
            "坐公交": "公交", "坐公交车": "公交", "挤公交": "公交", "挤公交车": "公交", "打车": "打车", "走路": "步行",
            "步行": "步行", "坐班车": "班车", "坐高铁": "高铁"}
# a metro line by its number: "每天挤4号线上班"
ZH_METRO_LINE = r"[坐挤搭乘](?:[0-9]{1,2}|[一二三四五六七八九十]{1,3})号线"
ZH_MODE = "|".join([*sorted(ZH_MODES, key=len, reverse=True), ZH_METRO_LINE])
# "再也不用挤地铁了": the old way is over
ZH_MODE_ENDED = re.compile(rf"^(?P<who>.*?)(?:再也不用|不用再|终于不用|以后不用)(?P<mode>{ZH_MODE})了?$")
# "又回去挤地铁了", "改回骑车了": back to a way of getting about (of getting to work, in chat)
ZH_MODE_BACK = re.compile(rf"^(?P<who>.*?)(?:又|还是|重新)*(?:回去|改回|换回|回到)了?(?P<mode>{ZH_MODE})了$")
# what is said of a commute after it: "每天挤4号线上班真的要命"
ZH_COMMUTE_REMARK = r"(?:[^，。！？]{0,4}(?:要命|累|痛苦|崩溃|烦|辛苦|难受|挤|远|方便|爽|快))?"
# "<who>(一般|平时都是)<way>(去<where>)上班" / "<who>每天去<where>上班" / "现在改坐地铁上班"
ZH_COMMUTE = re.compile(rf"^(?P<who>.*?)(?P<change>改成|换成|改|换)?(?P<mode>{ZH_MODE})?(?:去|到)?(?P<where>(?<=[去到])[{CJK}A-Za-z]{{2,6}}?)?"
                        rf"(?P<goal>上班|上学|通勤){ZH_COMMUTE_REMARK}(?:呢|哦|哈|啊|的|了)?$")
# "话说闵行到长宁这通勤真要命", "每天从昌平到国贸通勤": one lives where the commute starts and works
# where it ends (both places jieba tags as such).
ZH_COMMUTE_BETWEEN = re.compile(rf"^(?:话说|说起来|对了|说真的)?(?P<who>.*?)从?(?P<home>[{CJK}]{{2,4}}?)(?:到|去)(?P<work>[{CJK}]{{2,4}}?)"
                                r"(?:的|这|这个|这段)?(?:通勤|的?上下班)")
# A daily commute starts at home: "每天从回龙观挤地铁去国贸", "下班回宝山的地铁又故障了" (not "下班回家")
ZH_COMMUTE_FROM = re.compile(rf"^(?P<who>.*?)(?:每天|天天|每早|每天早上)从(?P<home>[{CJK}]{{2,5}}?)"
                             r"(?:挤|坐|搭|乘|倒|转|骑车|开车|打车|通勤)(?:地铁|公交|班车|车|高铁)?(?:去|到)")
ZH_HOME_AFTER_WORK = re.compile(rf"^(?P<who>.*?)下班(?:后|以后)?(?:坐地铁|坐车|开车|骑车)?回(?P<home>[{CJK}]{{2,5}}?)(?:的|了|$)")
ZH_HABITUAL = re.compile(r"(?:都是|就是|是)$")  # "平时都是坐公交上班": the 是 of a habit said
# "跑三次步", "跑5公里", "游两次泳", "游1000米"
ZH_NUM = r"[0-9一二三四五六七八九十两几半百千]+"
ZH_COUNTED = re.compile(rf"^(?P<who>.*?)(?P<verb>跑|游)(?:个)?(?:{ZH_NUM}(?:次|回|趟|公里|千米|km|KM|圈|米|个?小时|分钟))+"
                        r"(?P<tail>步|泳)?(?:左右)?$")
ZH_COUNTED_ACT = {"跑": "跑步", "游": "游泳"}
ZH_MINE = r"(?:我家的?|我们家的?|家里的?|我的)?"
# Children and siblings' children: who one visits, takes or sees off says one has them.
ZH_YOUNG_KIN = ("外甥女", "外甥", "侄女", "侄子", "外孙女", "外孙", "孙女", "孙子", "儿子", "女儿", "闺女")
ZH_KIN_CARE = re.compile(rf"^(?P<who>.*?)(?P<verb>去看望|去探望|看望|探望|去看|陪|带|接|送)(?:完|了)?(?P<mine>我家的?|我的|我)?"
                         rf"(?P<kin>{'|'.join(ZH_YOUNG_KIN)})(?P<rest>.*)$")
ZH_KIN_REST = re.compile(r"^(?:$|去|回|上|出去|玩|逛|放学|下课|到|过来|吃|看|一起|了|啦|呢|[\u4e00-\u9fff]{0,2}[班课]|.{0,8}(?:学校|幼儿园|小学|班))")
# Never learned: "一直没学会开车"; learned: "学会了游泳".
ZH_NOT_LEARNED = re.compile(r"^(?P<who>.*?)(?P<neg>没|没有|还没|还没有|一直没|一直没有|到现在都没|至今没|始终没|都没)学会(?P<act>[\u4e00-\u9fff]{2,3})$")
ZH_LEARNED = re.compile(r"^(?P<who>.*?)(?:终于|总算|已经)?学会了(?P<act>[\u4e00-\u9fff]{2,3})(?:了|啦)?$")
ZH_PASSED = re.compile(rf"^(?P<who>.*?)考(?:上|进|到|取)了?(?P<what>[{CJK}A-Za-z]{{2,10}}?)(?:了|啦)?$")
# A school year says where one studies: "我家儿子在花园路小学读二年级", "我在北大读大三".
ZH_IN_GRADE = re.compile(rf"^(?P<who>.*?)在(?P<what>[{CJK}A-Za-z]{{2,12}}?)(?:读|上|念)(?:[一二三四五六]年级|[初高][一二三]|大[一二三四]|研[一二三]|博[一二三]|[小中大]班)"
                         r"(?:了|啦|呢|下学期|上学期)?$")
ZH_SCHOOLISH = re.compile(r"(?:大学|学院|学校|中学|小学|高中|初中|[一二三四五六七八九十]+中|附中|附小|幼儿园|[^老]大)$|^(?:清华|北大|复旦|交大|浙大|南大|人大)$")
ZH_INTOLERANT = re.compile(rf"^(?P<body>[{CJK}]{{2,10}}?)不耐受?(?:吧|哦|呢)?$")
ZH_ALLERGIC = re.compile(rf"^(?P<body>[{CJK}]{{2,10}}?)(?:严重|特别|超级)?过敏(?:了|呢|哦|啊|的)?$")
# Where an allergy shows, or when: no allergen.
ZH_NOT_ALLERGENS = frozenset("皮肤 鼻子 眼睛 脸 身体 季节 换季 春天 体质".split())


# An activity said first, then what one does with it ("瑜伽倒是一直在练", "瑜伽每周练三次", "法语坚持了
# 俩月还是放弃了"): Chinese fronts the object; read as "我一直在练瑜伽", "我不学法语了".
ZH_FRONTED_LEAD = r"(?:倒是|还是|也|都|就|还|我)*"
ZH_FRONTED_VERBS = "练|学|弹|打|踢|下|跑|游"
ZH_FRONTED_DROPPED = re.compile(r"^(?P<mid>.*?)(?:还是|最后|后来|终于|已经|就)?(?:放弃了|弃了|不学了|不练了|没坚持下来|没坚持住|半途而废了?"
                                # "羽毛球以后打不了了", "篮球再也不能打了": no longer possible
                                rf"|(?:{ZH_FRONTED_VERBS})不(?:了|动)了|(?:再也)?不能再?(?:{ZH_FRONTED_VERBS})了)$")
ZH_LANGUAGE = re.compile(rf"^[{CJK}]{{1,4}}(?:语|文)$")


@functools.lru_cache(maxsize=8)
def _fronted_things(lexicon: Lexicon) -> re.Pattern[str]:
    things = [w for key in ("activities", "games", "instruments") for w in lexicon.words("habits", key) if has_cjk(w)]
    return re.compile(rf"^(?P<thing>{'|'.join(sorted(map(re.escape, things), key=len, reverse=True))}|[{CJK}]{{1,4}}?(?:语|文))"
                      rf"(?P<rest>{ZH_FRONTED_LEAD}.+)$")


def fronted_activity(lexicon: Lexicon, clause: str) -> str | None:
    """The clause with a fronted activity put back after its verb, as the speaker's; None when
    the clause fronts none."""
    if not (m := _fronted_things(lexicon).match(clause)):
        return None
    thing, rest = m["thing"], re.sub(rf"^{ZH_FRONTED_LEAD}", "", m["rest"])
    verb = re.search(ZH_FRONTED_VERBS, rest)
    if dropped := ZH_FRONTED_DROPPED.match(rest):
        if re.search(r"[他她它你]", dropped["mid"]) or ZH_SPECIFIC_TIME.search(dropped["mid"]):
            return None  # "羽毛球今天打不了了": one day's, not given up
        verb_said = verb.group() if verb else ("学" if ZH_LANGUAGE.match(thing) or thing in lexicon.words("habits", "instruments") else "练")
        return f"我不{verb_said}{thing}了"
    if verb is None or re.search(r"[他她它你]", rest[: verb.start()]) or not re.fullmatch(
            r"(?:一直|每周|每天|天天|经常|平时|坚持|都|在|还在|一直在|又|开始)*", rest[: verb.start()]):
        return None  # "瑜伽垫买了", "法语老师说…": not the activity done
    # the count after the verb is dropped: "羽毛球每周打两次" is read as "我每周打羽毛球"
    said = re.fullmatch(rf"(?:{ZH_FRONTED_VERBS})(?:了|着)?(?:[0-9一二两三四五六七八九十几]+[次回天年个月周小时分钟]+)?(?:了|呢|啦)?", rest[verb.start():])
    return f"我{rest[: verb.end()]}{thing}" if said else None


# "每天早上一杯黑咖啡代替奶茶", "用燕麦奶代替牛奶": one thing instead of another, read as "把奶茶换成黑咖啡"
ZH_INSTEAD = re.compile(rf"^(?P<who>.*?)(?:用|(?:一|每天一)(?:杯|份|碗|瓶|罐|块))(?P<new>[{CJK}A-Za-z]{{1,6}}?)来?(?:代替|替代|取代)了?"
                        rf"(?P<old>[{CJK}A-Za-z]{{1,6}}?)(?:了|啦)?$")


def instead_restated(clause: str) -> str | None:
    """The clause said as a switch ("<who>把<old>换成<new>"), or None."""
    m = ZH_INSTEAD.match(clause)
    return f"{m['who']}把{m['old']}换成{m['new']}" if m else None


def _mode(said: str) -> str:
    return ZH_MODES.get(said, "地铁")  # a metro line by its number is the metro


class ZhDailyRules:
    lexicon: Lexicon

    def _zh_daily(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if not re.search(f"[{CJK}]", clause) or ZH_SPECIFIC_TIME.search(clause):
            return None  # "今天又在国贸加班", "昨天骑车上班": one day, no routine
        return (self._zh_commute(clause, turn) or self._zh_commute_between(clause, turn) or self._zh_commute_home(clause, turn) or self._zh_counted(clause, turn) or self._zh_cared_for(clause, turn)
                or self._zh_learned(clause, turn) or self._zh_passed(clause, turn) or self._zh_intolerant(clause, turn))

    def _zh_who(self, region: str, turn: Turn, speaker_only: bool = False) -> tuple[str | None, bool]:
        """Whom the words before the verb name, once times, adverbs and 是 are peeled; None
        when a verb or anything else stands there."""
        region, negated = self._clean_before_verb(ZH_HABITUAL.sub("", self._zh_before_chores(region.strip())))
        tokens = self._tokens(region)
        while tokens and (tokens[-1][1] == "t" or tokens[-1][0].startswith("每")):  # "我每天晚上": when
            tokens = tokens[:-1]
        region = region[: tokens[-1][2] + len(tokens[-1][0])] if tokens else ""
        region, more = self._clean_before_verb(ZH_HABITUAL.sub("", region))
        subject = self._subject(region, turn)
        if speaker_only and subject != turn.speaker_id:
            return None, False
        return subject, negated or more

    def _often(self, clause: str) -> bool:
        return bool(routine_patterns(self.lexicon)[2].search(clause)) or "一般" in clause or "基本" in clause

    # ---- commutes
    def _zh_commute(self, clause: str, turn: Turn) -> list[Found] | None:
        if (ended := ZH_MODE_ENDED.match(clause)) and (subject := self._zh_who(ended["who"], turn)[0]):
            return [Found(subject, "commutes_by", _mode(ended["mode"]), True, True)]
        if (back := ZH_MODE_BACK.match(clause)) and (subject := self._zh_who(back["who"], turn)[0]):
            return [Found(subject, "commutes_by", _mode(back["mode"]), False, True)]
        if not (m := ZH_COMMUTE.match(clause)) or not (m["mode"] or m["where"] and self._often(m["who"])):
            return None
        subject, negated = self._zh_who(m["who"], turn)
        if subject is None or negated:
            return None  # "我不开车上班": how then is not said
        # "现在改坐地铁上班": a new way instead of the old one
        found = [Found(subject, "commutes_by", _mode(m["mode"]), changed=bool(m["change"]))] if m["mode"] else []
        if where := m["where"] and self._clean_value(m["where"]):
            if m["goal"] != "上班":
                return found or None
            tokens = self._tokens(where)
            if self._zh_place(where):
                found.append(Found(subject, "works_in", where))
            elif len(tokens) == 1 and tokens[0][1] == "nt" or self._zh_organisation(where):
                found.append(Found(subject, "works_at", where))
        return found or None

    def _zh_commute_between(self, clause: str, turn: Turn) -> list[Found] | None:
        """ "闵行到长宁这通勤真要命": lives_in 闵行, works_in 长宁 (the speaker's; one end a place to jieba)."""
        if not (m := ZH_COMMUTE_BETWEEN.match(clause)) or not (self._zh_place(m["home"]) or self._zh_place(m["work"])):
            return None  # one end at least a place jieba knows (闵行 and 昌平 are names to it)
        if any(end in ZH_GENERIC_PLACES or any(flag.startswith(("r", "d", "p", "c", "u", "y", "v", "m", "q", "t"))
                                               for _, flag, _ in self._tokens(end)) for end in (m["home"], m["work"])):
            return None  # "从家到公司通勤": no place named
        subject, negated = self._zh_who(m["who"], turn, speaker_only=True)
        if subject is None or negated:
            return None
        return [Found(subject, "lives_in", m["home"]), Found(subject, "works_in", m["work"])]

    def _zh_commute_home(self, clause: str, turn: Turn) -> Found | None:
        """ "每天从回龙观挤地铁去国贸", "下班回宝山的地铁…": one lives where the daily commute starts or
        where the way home from work goes; the frame says it is a place, so a name jieba takes for
        another kind (宝山 and 昌平 as people's, 回龙观 as a proper noun) is one too, but not 公司 or 老家."""
        if not (m := ZH_COMMUTE_FROM.match(clause) or ZH_HOME_AFTER_WORK.match(clause)):
            return None
        tokens = self._tokens(m["home"])
        if not (self._zh_place(m["home"]) or len(tokens) == 1 and tokens[0][1] in ("nr", "nz", "j")) or m["home"] in ZH_GENERIC_PLACES:
            return None
        subject, negated = self._zh_who(m["who"], turn)
        return Found(subject, "lives_in", m["home"]) if subject and not negated else None

    # ---- exercise counted
    def _zh_counted(self, clause: str, turn: Turn) -> Found | None:
        if not (m := ZH_COUNTED.match(clause)) or not self._often(m["who"]):
            return None
        if m["verb"] == "游" and not (m["tail"] or re.search("米|公里", clause)):
            return None
        subject, negated = self._zh_who(m["who"], turn)
        return Found(subject, "habit", ZH_COUNTED_ACT[m["verb"]], negated) if subject else None

    # ---- who one cares for
    def _zh_cared_for(self, clause: str, turn: Turn) -> Found | None:
        pets = sorted({*(p for p in self.lexicon.pets if re.fullmatch(f"[{CJK}]+", p)), *ZH_MORE_PETS}, key=len, reverse=True)
        pet = "|".join(pets)
        care = re.search(rf"(?:(?<![帮替])(?:遛|喂|撸)(?:完|了)?{ZH_MINE}(?P<a>{pet})|给{ZH_MINE}(?P<b>{pet})(?:铲屎|洗澡|喂饭|剪指甲|打疫苗|梳毛)"
                         rf"|(?:带|陪){ZH_MINE}(?P<c>{pet})(?:去|出去|散步|玩))", clause)
        if care and not self._zh_said_of_other(clause[: care.start()]):
            subject, negated = self._zh_who(clause[: care.start()], turn, speaker_only=True)
            if subject and not negated:
                return Found(subject, "has", care["a"] or care["b"] or care["c"])
        if (m := ZH_KIN_CARE.match(clause)) and ZH_KIN_REST.match(m["rest"]) and not self._zh_said_of_other(m["who"]):
            subject, negated = self._zh_who(m["who"], turn, speaker_only=True)
            if subject and not negated:
                return Found(subject, "has", m["kin"])
        return None

    @staticmethod
    def _zh_said_of_other(region: str) -> bool:
        return bool(re.search(r"[他她你]|帮|替|别人|朋友|邻居|同事|要是|如果|想|打算", region))

    @staticmethod
    def _zh_before_chores(region: str) -> str:
        """ "下班回家还得", "早上": the errands before the chore say when, not who."""
        region = re.sub(r"^(?:每天|平时|周末|早上|晚上|下班|下班后|下班以后|回家|下班回家|到家)+", "", region)
        return re.sub(r"(?:还得|得|要|都要|都得|还要|会|都会|就)$", "", region)

    # ---- skills
    def _zh_learned(self, clause: str, turn: Turn) -> Found | None:
        m = ZH_NOT_LEARNED.match(clause) or ZH_LEARNED.match(clause)
        if not m or m["act"] not in self.lexicon.words("habits", "activities"):
            return None
        subject, negated = self._zh_who(m["who"], turn)
        if subject is None or negated:
            return None
        return Found(subject, "can", m["act"], bool(m.groupdict().get("neg")), True)

    # ---- exams
    def _zh_passed(self, clause: str, turn: Turn) -> Found | None:
        if not (m := ZH_PASSED.match(clause) or ZH_IN_GRADE.match(clause)):
            return None
        what = self._clean_value(re.sub(r"的(?:研究生|研|硕士|博士|本科|专升本)$", "", m["what"]))  # "浙大的研究生": 浙大
        subject, negated = self._zh_who(m["who"], turn)
        if subject is None or negated:
            return None  # "没考上浙大": not there, and where then is not said
        if what == "公务员":
            return Found(subject, "job_title", what, False, True)
        if not ZH_SCHOOLISH.search(what) or re.search(r"[的了个]", what):
            return None
        return Found(subject, "studies_at", what, False, m.re is ZH_PASSED)

    # ---- intolerances
    def _zh_intolerant(self, clause: str, turn: Turn) -> Found | None:
        """ "我有点乳糖不耐" (intolerant_to 乳糖), "我芒果过敏" (allergic_to 芒果)."""
        allergic = ZH_ALLERGIC.match(clause)
        if not (m := allergic or ZH_INTOLERANT.match(clause)) or not (tokens := self._tokens(m["body"])):
            return None
        what, flag, at = tokens[-1]
        run = len(tokens) - 1  # a word jieba cut into single nouns is the allergen: "猫毛" (猫 + 毛)
        while allergic and run > 1 and len(tokens[run][0]) == len(tokens[run - 1][0]) == 1 \
                and tokens[run - 1][1].startswith("n") and flag.startswith("n"):
            run -= 1
        what, at = m["body"][tokens[run][2]:], tokens[run][2]
        if not flag.startswith("n") or (len(what) < 2 and not allergic) or what in ZH_NOT_ALLERGENS or not at:
            return None  # "有点不耐烦" is impatience; "皮肤过敏" where it shows; "我过敏了" names no allergen
        subject, negated = self._zh_who(re.sub(r"(?:有点|有些|有一点|有)$", "", m["body"][:at]), turn)
        return Found(subject, "allergic_to" if allergic else "intolerant_to", what, negated) if subject else None
