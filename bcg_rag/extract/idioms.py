"""Everyday ways of stating a fact that put its parts in an unusual order or word:

* the taste after the copula: "Tacos are my favorite food", "红色是我最喜欢的颜色";
* a kind of person: "I'm definitely a cat person", "a huge Arsenal fan", "我是狗派", "我是林俊杰的粉丝";
* the favourite without a kind: "Sushi is my favorite", "火锅是我的最爱" (likes);
* the pseudo-cleft: "我喝的是拿铁", "我学的是金融" (what is drunk, studied);
* a trade: "我老公是做金融的" (occupation 金融), "她是学法律的" (studies 法律);
* a state reached: "我退休了", "她怀孕了" (a state the lexicon lists, with 了); "my dad retired
  last year" (the English verb, with nothing after it but when);
* a school by its graduates: "我是浙大毕业的" (studied_at 浙大);
* the make of a thing kept: "my phone is a Pixel", "我的车是辆比亚迪" (owns Pixel);
* the thing first, then the taste: "香菜我真的受不了" (dislikes), "爵士乐我不太感冒" (likes, denied).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import EN_OWNER_WORDS, Found
from .text import CJK, collapse, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

EN_IS_MY_TASTE = re.compile(
    r"^(?P<value>.+?)\s+(?:is|are|'s)\s+(?:(?:still|now|definitely|probably|always)\s+)?(?P<owner>my|our)\s+(?P<attr>.+)$",
    re.IGNORECASE,
)
# "august 19 is my birthday", "March 3rd is our anniversary": a day of the year, then whose day it is
EN_DAY_OF_YEAR = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?!\d)"
                  r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*")
# "turning 35 on Nov 3rd": the day after the age (shapes._en_age)
EN_ON_DAY = re.compile(rf"\s+on\s+(?:the\s+)?(?P<date>{EN_DAY_OF_YEAR})\b", re.IGNORECASE)
EN_DAY_IS_MINE = re.compile(
    rf"^(?P<date>{EN_DAY_OF_YEAR})"
    r"\s+is\s+(?P<owner>my|our|his|her|my\s+[a-z]+'s)\s+(?P<attr>birthday|bday|b-day|anniversary|wedding\s+anniversary)\s*[!.]*$",
    re.IGNORECASE)
# "Dr. Lindqvist (at the Elm St clinic) is my doctor now": a person named first, then the one role
# of the speaker's they hold (en.py reads it as "my doctor is Dr. Lindqvist")
EN_NAME_IS_MY_ROLE = re.compile(
    r"^(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)(?:\s+(?:at|from)\s+(?:the\s+)?[\w\s.'&-]+?)?"
    r"(?:\s+is|'s)\s+(?:now\s+)?my\s+(?:new\s+)?(?P<attr>[a-z]+|[A-Z]{2,4})(?:\s+now)?[\s.!]*$")
ZH_IS_MY_TASTE = re.compile(r"^(?P<value>.+?)是(?P<owner>我|我们)的?(?P<attr>.+)$")
EN_KIND_OF_PERSON = re.compile(
    r"^(?P<who>.+?)(?:'m|\s+am|'s|\s+is)\s+(?P<neg>not\s+(?:really\s+|exactly\s+)?)?(?:(?:more|much more|definitely|totally|such|kind|sort)\s+(?:of\s+)?)?"
    r"an?\s+(?:(?:big|huge|massive|die-hard|diehard|total|lifelong|true)\s+)?(?P<thing>[\w'&-]+(?:\s+[\w'&-]+){0,2}?)\s+"
    r"(?P<kind>person|fan|lover|addict|enthusiast|nut)$",
    re.IGNORECASE,
)
# "我是林俊杰的粉丝", "周一鸣是个钓鱼狂魔", "我是咖啡控", "老陈是个超级球迷"
ZH_FAN = re.compile(rf"^(?P<who>.*?)是(?:个|一个|一名|名|位|资深的?|超级|骨灰级的?|重度)*(?P<thing>[{CJK}A-Za-z]{{1,8}}?)的?"
                    r"(?:粉丝|铁粉|迷|狂魔|控|发烧友|爱好者|狂热分子|狂人)(?:了|啦|哈|呢)?$")
BARE_FAVORITE = re.compile(r"^(?:favorite|favourite|fave|最爱|最喜欢的)$", re.IGNORECASE)
# A person of a time of day or of people is a temperament, not a taste for something.
TEMPERAMENTS = frozenset({"morning", "night", "evening", "early", "late", "people", "detail", "glass"})
ZH_FACTION = re.compile(rf"^(?P<who>.*?)(?:是|算是?)(?P<thing>[{CJK}]{{1,3}})派$")  # "我不算猫派": 不 denies it
ZH_GRADUATE = re.compile(r"^(?P<who>.*?)是(?P<school>.+?)毕业的$")
EN_MY_THING_IS = re.compile(r"^(?:my|our)\s+(?P<thing>[a-z]+)\s+is\s+an?\s+(?P<make>(?-i:[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*){0,2}))$", re.IGNORECASE)
ZH_MY_THING_IS = re.compile(r"^(?:我|我们|我家|我们家)的?(?P<thing>车|手机|电脑|房子)是(?:一)?(?:辆|台|部|套|个)?(?P<make>.+)$")
# Things whose make or model is worth keeping: "my car is a Honda" says the speaker owns a Honda.
KEPT_THINGS = frozenset({"car", "truck", "van", "bike", "motorcycle", "phone", "laptop", "computer", "camera"})
# "I work in sales", "moved into marketing last year", "before going into nursing": a field of work
EN_FIELD_VERBS = r"(?P<verb>work|works|worked|working|went|gone|going|moved|moving|switched|switching|got|getting|transitioned|pivoted)"
ZH_REACHED = re.compile(r"^(?P<before>.+?)了[吧啊呀哦]?$")
# "retired from the post office" is a job left (en.py); "retired early" or "retired in May" a state.
EN_RETIRED = re.compile(r"^(?P<before>.+?)\s+(?:has\s+|have\s+|'s\s+|'ve\s+)?retired(?P<after>(?:\s+(?:early|last|this|in|two|three|a|"
                        r"few|couple|of|years?|months?|weeks?|ago|already|\d{4}))*)\s*$", re.IGNORECASE)
# The taste said after its thing, the speaker between or left out. 感冒 is "care for" here;
# not 受不了, which as often says a moment is unbearable ("天气真的受不了").
ZH_TASTE_AFTER = re.compile(r"^(?P<thing>[^我你他她]{1,6}?)(?P<who>我)?(?:真的|实在|是|有点|一直|完全|确实|其实|最|超|特别|很|也|都|真)*"
                            r"(?:(?P<hate>接受不了|吃不惯|喝不惯|不行)|(?P<cold>不太感冒|不感冒|无感)|(?P<neg>不太|不)?"
                            r"(?P<love>喜欢|爱))了?$")
# "升产品经理了", "老公升副总了": promoted to a title (the lexicon's jobs; not 升级 / 升初中 / 升高)
ZH_PROMOTED = re.compile(rf"^(?P<who>.*?)(?:终于|已经|刚|刚刚|正式|今年|这次)*(?:被)?升(?:职)?(?:成|为|到)?(?P<title>[{CJK}A-Za-z]{{1,8}}?)了[吧啊呀哦！!]*$")
# (是 may go: "张晓峰做外贸的", "我干销售的"; not for 学: "我学的" is what one learnt)
ZH_TRADE = re.compile(r"^(?P<who>.*?)(?:(?P<neg>不是|是)(?P<verb>做|搞|干|学)|(?P<bare>做|搞|干))(?P<trade>[^的].*?)的$")
# "我们做会计的这个月基本住在公司了", "我们当老师的最怕开学": the speaker's trade, as the topic of a remark
ZH_OUR_TRADE = re.compile(r"^(?:我们|咱们|我们这些|咱们这些|我们这种|我们这行)(?:做|搞|干|当)(?P<trade>[\u4e00-\u9fff]{2,4}?)的(?=[\u4e00-\u9fff]{2})")


@functools.lru_cache(maxsize=8)
def field_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    fields = "|".join(sorted(map(re.escape, lexicon.words("occupations", "fields")), key=len, reverse=True))
    return re.compile(rf"^(?P<who>.*?)\b{EN_FIELD_VERBS}\s+(?:in|into)\s+(?P<field>{fields})"
                      r"(?:\s+(?:now|instead|full[\s-]time|last\s+\w+|this\s+\w+|\w+\s+(?:years?|months?)\s+ago))*\s*[.!]*$", re.IGNORECASE)


class IdiomRules:
    lexicon: Lexicon

    def _idiom(self, clause: str, turn: Turn) -> Found | list[Found] | None:
        if has_cjk(clause):
            return (self._zh_trade(clause, turn) or self._zh_promoted(clause, turn) or self._zh_cleft(clause, turn) or self._zh_faction(clause, turn)
                    or self._taste_named_last(ZH_IS_MY_TASTE, clause, turn) or self._state_reached(clause, turn)
                    or self._graduate(clause, turn) or self._make_kept(clause, turn) or self._zh_taste_after(clause, turn))
        return (self._taste_named_last(EN_IS_MY_TASTE, clause, turn) or self._kind_of_person(clause, turn)
                or self._make_kept(clause, turn) or self._retired(clause, turn) or self._field_of_work(clause, turn))

    def _field_of_work(self, clause: str, turn: Turn) -> Found | None:
        """ "I work in sales" (occupation sales); "moved into marketing", "before going into nursing" (a change to it)."""
        if not (m := field_pattern(self.lexicon).match(clause)):
            return None
        who = re.sub(r"^\s*before\s*$", "", m["who"])  # "(I was a teacher…) before going into sales": the same speaker
        region, negated = self._clean_before_verb(who)
        subject = self._subject(region, turn) if region.strip() else turn.speaker_id
        moved = not m["verb"].casefold().startswith("work")
        return Found(subject, "occupation", m["field"].casefold(), negated, moved) if subject else None

    def _zh_taste_after(self, clause: str, turn: Turn) -> Found | None:
        """ "香菜真的接受不了", "爵士乐我不太感冒", "猫我最喜欢了": the thing, then the speaker's taste."""
        if not turn.user_is_speaker or (m := ZH_TASTE_AFTER.match(clause)) is None:
            return None
        thing = m["thing"]
        tokens = self._tokens(thing)
        if not tokens or not all(flag.startswith(("n", "eng")) or flag == "vn" for _, flag, _ in tokens) or \
                self._zh_named(thing) or thing in self.lexicon.pronoun_values:
            return None  # "小王我受不了": a person, not a taste; "这个我不喜欢": no thing named
        if m["hate"] == "不行" and not m["who"]:
            return None  # "口语不行": a poor skill; "香菜我是真不行": a taste
        if m["hate"]:
            return Found(turn.speaker_id, "dislikes", thing)
        return Found(turn.speaker_id, "likes", thing, bool(m["cold"] or m["neg"]))

    def _retired(self, clause: str, turn: Turn) -> Found | None:
        """ "my dad retired last year", "she just retired": no longer works (is retired)."""
        if (m := EN_RETIRED.match(clause)) is None:
            return None
        region, negated = self._clean_before_verb(m["before"])
        subject = self._subject(region, turn)
        return Found(subject, "is", "retired", negated) if subject else None

    def _graduate(self, clause: str, turn: Turn) -> Found | None:
        """ "我是浙大毕业的": a graduate of 浙大."""
        if not (m := ZH_GRADUATE.match(clause)):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject, school = self._subject(region, turn), self._clean_value(m["school"])
        return Found(subject, "studied_at", school, negated) if subject and self._usable(school) else None

    def _make_kept(self, clause: str, turn: Turn) -> Found | None:
        """ "my phone is a Pixel", "我的车是辆比亚迪": the speaker owns that make."""
        m = ZH_MY_THING_IS.match(clause) if has_cjk(clause) else EN_MY_THING_IS.match(clause)
        if m is None or not has_cjk(clause) and m["thing"].casefold() not in KEPT_THINGS:
            return None
        make = self._clean_value(m["make"])
        return Found(turn.speaker_id, "owns", make) if turn.user_is_speaker and self._usable(make) else None

    def _taste_named_last(self, pattern: re.Pattern[str], clause: str, turn: Turn) -> Found | None:
        """ "Pizza is my favorite food": a taste ("favorite …") of the owner, the value first."""
        m = pattern.match(clause)
        bare = m is not None and BARE_FAVORITE.match(m["attr"].strip(" .!")) is not None
        if m is None or not (bare or self.lexicon.preference.match(m["attr"])):
            return None
        region, negated = self._clean_before_verb(m["value"])
        if negated or not region or self._is_pronoun(region) or collapse(region).casefold() in self.lexicon.pronoun_values:
            return None  # "it is my favorite": the value is elsewhere
        owner, personal = self._owner(EN_OWNER_WORDS.get(m["owner"].casefold(), m["owner"]), turn)
        if bare:  # "火锅是我的最爱": a taste, of no named kind
            return Found(owner, "likes", region) if owner and self._usable(region) else None
        return self._attribute_claim(owner, personal, m["attr"], region, False) if owner else None

    def _kind_of_person(self, clause: str, turn: Turn) -> Found | None:
        """ "I'm definitely a cat person", "a huge Arsenal fan", "a coffee addict": a taste for it."""
        m = EN_KIND_OF_PERSON.match(clause)
        if m is None or m["thing"].casefold() in TEMPERAMENTS and m["kind"].casefold() == "person":
            return None  # "a morning person": a temperament
        if m["thing"].casefold() in ("big", "huge", "massive", "total", "true", "real"):
            return None  # "a big fan": of what, not said
        if any(word.endswith("ly") for word in m["thing"].casefold().split()):
            return None  # "a deeply normal person": what kind of person, no taste
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        return Found(subject, "likes", m["thing"], negated or bool(m["neg"])) if subject else None

    def _zh_faction(self, clause: str, turn: Turn) -> Found | None:
        """ "我是狗派": on the side of dogs; "我是林俊杰的粉丝": a fan of 林俊杰."""
        m = ZH_FACTION.match(clause) or ZH_FAN.match(clause)
        # a fan of a thing or of doing something ("钓鱼狂魔"); a 球迷 is a football fan
        if m is None or not all(flag.startswith("n" if m.re is ZH_FACTION else ("n", "v")) for _, flag, _ in self._tokens(m["thing"])):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn)
        thing = "足球" if m.re is ZH_FAN and m["thing"] == "球" else m["thing"]
        if m.re is ZH_FAN and len(thing) > 2 and thing.endswith("球") and thing not in self.lexicon.words("habits", "games"):
            thing = thing[:-1]  # "曼联球迷": a fan of 曼联 (a 篮球迷 is one of 篮球)
        return Found(subject, "likes", thing, negated) if subject else None

    def _zh_trade(self, clause: str, turn: Turn) -> Found | None:
        """ "我老公是做金融的" (occupation 金融), "我是做产品经理的" (job_title), "她是学法律的" (studies 法律)."""
        if (ours := ZH_OUR_TRADE.match(clause)) and turn.user_is_speaker and self._usable(trade := ours["trade"]):
            return Found(turn.speaker_id, "job_title" if self.lexicon.is_occupation(trade) else "occupation", trade)
        m = ZH_TRADE.match(clause)
        if m is None:
            return None
        region, negated = self._clean_before_verb(m["who"])
        # bare, it goes on from the clause before: hers ("我姐在腾讯，搞测试的"), or the speaker's
        # after the speaker's employer ("我在宁德时代上班，搞电池测试的")
        subject = self._subject(region, turn) if region or not m["bare"] else turn.other if turn.topic else (
            turn.speaker_id if turn.employer and turn.other is None else None)
        trade = self._clean_value(m["trade"])
        if subject is None or not self._usable(trade):
            return None
        # A job the lexicon knows is the job_title slot "我是产品经理" fills: one slot, not two
        # that each answer "what does the user do?" ("我是做产品经理的", later "可能是程序员").
        predicate = "studies" if m["verb"] == "学" else "job_title" if self.lexicon.is_occupation(trade) else "occupation"
        return Found(subject, predicate, trade, negated or m["neg"] == "不是")

    def _zh_promoted(self, clause: str, turn: Turn) -> Found | None:
        """ "升产品经理了" (job_title 产品经理), "老公升副总了", "张伟升VP了": a title the lexicon knows
        as a job, or one in capitals."""
        m = ZH_PROMOTED.match(clause)
        # a title in capitals is a rank too ("升VP了", "升CTO了")
        if m is None or not (self.lexicon.is_occupation(m["title"]) or m["title"].endswith("总") or re.fullmatch(r"[A-Z]{2,4}", m["title"])):
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn) if region else turn.speaker_id  # the speaker, left out
        return Found(subject, "job_title", m["title"], negated) if subject and not negated else None

    def _state_reached(self, clause: str, turn: Turn) -> Found | None:
        """ "我退休了", "我姐怀孕了": a listed state, reached (了), of someone named."""
        m = ZH_REACHED.match(clause)
        state = next((s for s in self.lexicon.states if m and has_cjk(s) and m["before"].endswith(s)), None)
        if state is None:
            return None
        region, negated = self._clean_before_verb(re.sub(r"就$", "", m["before"][: -len(state)]))  # "明年就退休了"
        subject = self._subject(region, turn)
        return Found(subject, "is", state, negated) if subject else None
