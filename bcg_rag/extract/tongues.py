"""How well someone speaks a language, said as a comment on it: "英语和法语都挺流利", "德语能
简单聊", "粤语学了两年还是一窍不通", "my French is pretty good", "I'm hopeless at Mandarin"; and
the language spoken somewhere or with someone: "在家跟爸妈说粤语", "上班说普通话"; a language on
a learning app ("started duolingo japanese") or a course ("报了个西语网课", "signed up for a Spanish
course"): studies.

The language comes first (the topic) and the comment says the level: a good or usable level
speaks it, none denies it. A middling level ("马马虎虎", "rusty") is left unread: how much it
says is for a person to weigh. Only the speaker's own languages are read ("我妈英语不错" is
the verb rules' or no one's), and only names of languages (``_zh_language``; English names
by their shape: Spanish, Japanese, Italian, Arabic, or a listed one).
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

ZH_LANG = r"(?:[\u4e00-\u9fff]{1,4}[语文]|普通话|[\u4e00-\u9fff]{1,3}话)"
ZH_DEGREE = r"(?:挺|很|非常|特别|比较|超|还|也|都|算|相当|蛮)*"
ZH_GOOD = r"(?:流利|溜|不错|还行|还可以|没问题|好|地道|精通|能(?:简单|日常)?(?:聊|交流|沟通|对话)(?:几句)?|能说|会说)"
ZH_NONE = r"(?:一窍不通|完全不会|一点都不会|不会|不行|很烂|很差|听不懂)"
ZH_LANGUAGE_COMMENT = re.compile(
    rf"^(?P<who>我的?)?(?P<langs>{ZH_LANG}(?:(?:和|跟|与|、){ZH_LANG})*)(?:嘛|呢|的话|我)?"
    rf"(?P<tried>学了[^，。]{{1,6}}?)?{ZH_DEGREE}(?:(?P<good>{ZH_GOOD})|(?P<none>{ZH_NONE}))(?:了|吧|啊|的|哈+)?$"
)
# "在家跟爸妈说粤语", "出来上班说普通话": the language spoken, said last; where and with whom go
ZH_SPEAKS_LAST = re.compile(rf"^(?P<who>.*?)(?:说|讲)(?P<lang>{ZH_LANG})$")
ZH_WHERE = re.compile(r"^在[^跟和与同对]{1,4}?(?=跟|和|与|同|对|$)")
ZH_WITH = re.compile(r"(?:跟|和|与|同|对)[^跟和与同对]{1,4}$")
# What may stand before the verb when the speaker is left out: doing (出来上班), when, where.
ZH_SETTING_TAGS = ("v", "d", "t", "f", "p", "m", "q")
EN_LANGUAGE = (r"(?-i:(?:[A-Z][a-z]+(?:ish|ese|ian|ic))|French|German|Dutch|Greek|Thai|Hindi|Urdu|Mandarin|Cantonese|"
               r"Tamil|Swahili|Hebrew|Farsi|Latin|Czech|Welsh|Gaelic|Punjabi|Bengali|Tagalog|Korean|Turkish)")
EN_LEVEL_GOOD = r"(?:good|great|fluent|decent|solid|excellent|not\s+bad|pretty\s+good|native|perfect)"
EN_LEVEL_NONE = r"(?:non-?existent|terrible|awful|hopeless|useless|zero)"
EN_MY_LANGUAGE_IS = re.compile(
    rf"^(?:my|our)\s+(?P<lang>{EN_LANGUAGE})\s+(?:is|'s)\s+(?:(?:actually|pretty|quite|really|very|still)\s+)?"
    rf"(?:(?P<good>{EN_LEVEL_GOOD})|(?P<none>{EN_LEVEL_NONE}))\b(?!\s+(?:at|for|with|to)\b)",
    re.IGNORECASE,
)
EN_BAD_AT = re.compile(
    rf"^(?:i'm|i\s+am)\s+(?:(?:still|just|completely|totally|really|pretty)\s+)?(?P<level>hopeless|terrible|awful|useless|rubbish|fluent|good)"
    rf"\s+(?:at|in)\s+(?P<lang>{EN_LANGUAGE})(?=\s*$|\s*[,.!?]|\s+(?:despite|though|even|but|lol|haha|tbh)\b)",
    re.IGNORECASE,
)

# A language on a learning app, in chat's lower case: "started duolingo japanese", "day 60 of
# german on duolingo", "doing french on babbel" (studies; "learning Spanish on Babbel" is the
# verb rule's, app and all).
APPS = r"(?:duolingo|babbel|busuu|memrise|pimsleur|italki|rosetta\s+stone)"
ANY_CASE_LANGUAGE = (r"(?:english|spanish|japanese|chinese|italian|portuguese|russian|arabic|polish|swedish|danish|finnish|"
                     r"norwegian|vietnamese|indonesian|ukrainian|romanian|hungarian|french|german|dutch|greek|thai|hindi|"
                     r"urdu|mandarin|cantonese|korean|turkish|hebrew|swahili|tagalog|latin|irish|welsh)")
EN_ON_APP = re.compile(
    rf"^(?P<who>.*?)\b(?:(?:started|starting|doing|on|using)\s+{APPS}\s+(?P<lang>{ANY_CASE_LANGUAGE})"
    rf"|(?:day\s+\d+\s+of|doing|started|starting)\s+(?P<lang2>{ANY_CASE_LANGUAGE})\s+on\s+{APPS}"
    # a language one turns to learn: "dropped german, switched to japanese" (the one dropped is the ending rule's)
    rf"|(?:switched|switching|moved\s+on)\s+to\s+(?P<lang3>{ANY_CASE_LANGUAGE})(?!\s+(?:with|for|at|in)\b))\b", re.IGNORECASE)

# A language course signed up for or taken is a language being learned (studies): "报了个西语
# 网课", "我报名了日语班", "signed up for a Spanish course", "taking an online Japanese class"; so
# is an instrument's ("我报了个尤克里里班"), learnt as a language is (zh_daily.fronted_activity).
ZH_COURSE = re.compile(rf"^(?P<who>.*?)(?:报了|报名了|报名参加了|买了|在上|上了)(?:个|一个|一门|门)?(?:线上|网上|在线)?"
                       rf"(?P<lang>{ZH_LANG}|[\u4e00-\u9fff]{{2,5}}?)(?:网课|课程|课|班|培训班|学习班)")
# The course given up: "日语班我退了", "dropped my Spanish class" (studies, denied, a change).
ZH_COURSE_QUIT = re.compile(rf"^(?P<lang>{ZH_LANG})(?:网课|课程|课|班|培训班|学习班)(?P<who>我|我们)?(?:已经|也|早就|还是)?"
                            r"(?:退了|退掉了|不上了|停了|放弃了|没再上了|不学了)$")
EN_COURSE_QUIT = re.compile(
    rf"^(?P<who>.*?)\b(?:dropped|quit|cancell?ed|stopped|gave\s+up(?:\s+on)?)\s+(?:my|the|our)?\s*(?P<lang>{ANY_CASE_LANGUAGE})\s+"
    r"(?:class|classes|course|lessons)\b", re.IGNORECASE)
EN_COURSE = re.compile(
    rf"^(?P<who>.*?)\b(?:signed\s+up\s+for|enrolled\s+in|registered\s+for|taking|started)\s+(?:a|an|my|the)?\s*(?:online\s+|evening\s+|night\s+)?"
    rf"(?P<lang>{ANY_CASE_LANGUAGE})\s+(?:class|classes|course|lessons)\b", re.IGNORECASE)

@functools.lru_cache(maxsize=8)
def instruments(lexicon: Lexicon) -> frozenset[str]:
    return frozenset(w for w in lexicon.words("habits", "instruments") if has_cjk(w))


# "she's teaching me some Tamil words", "(同事阿杰)最近在教我几句潮汕话": the teacher speaks it, the speaker learns it
EN_TEACHING_ME = re.compile(rf"^(?P<who>.*?)(?:'s|\s+is|\s+has\s+been|'s\s+been)\s+teaching\s+me\s+(?:(?:some|a\s+few|a\s+bit\s+of|basic)\s+)?"
                            rf"(?P<lang>{EN_LANGUAGE})\b", re.IGNORECASE)
ZH_TEACHING_ME = re.compile(rf"^(?P<who>.*?)(?:最近|一直|经常|还)?(?:在)?教我(?:说|讲|学)?(?:几句|一点|一些|点)?(?P<lang>{ZH_LANG})$")


class TongueRules:
    lexicon: Lexicon

    def _tongue(self, clause: str, turn: Turn) -> list[Found] | Found | None:
        if not turn.user_is_speaker:
            return None
        if m := ZH_LANGUAGE_COMMENT.match(clause):
            langs = re.split(r"和|跟|与|、", m["langs"])
            if not all(self._zh_language(lang) for lang in langs):
                return None  # "电话没问题", "论文还行": no language
            return [Found(turn.speaker_id, "speaks", lang, bool(m["none"])) for lang in langs]
        if (m := ZH_SPEAKS_LAST.match(clause)) and self._zh_language(m["lang"]):
            region = ZH_WITH.sub("", ZH_WHERE.sub("", m["who"]))
            region, negated = self._clean_before_verb(region)
            tokens = self._tokens(region) if region else ()
            if not region or all(flag.startswith(ZH_SETTING_TAGS) and word not in "他她" for word, flag, _ in tokens):
                subject = turn.speaker_id  # "出来上班说普通话": the speaker, at work
            else:
                subject = self._subject(region, turn)
            return Found(subject, "speaks", m["lang"], negated) if subject else None
        if (taught := ZH_TEACHING_ME.match(clause)) and self._zh_language(taught["lang"]) or (taught := EN_TEACHING_ME.match(clause)):
            region, negated = self._clean_before_verb(taught["who"])
            teacher = (self._subject(region, turn) if region.strip() else turn.other if turn.topic else None)
            if teacher is None or negated or teacher == turn.speaker_id:
                return None
            return [Found(teacher, "speaks", taught["lang"]), Found(turn.speaker_id, "studies", taught["lang"])]
        if app := EN_ON_APP.match(clause):
            region, negated = self._clean_before_verb(re.sub(r"(?:'m|'s|'re|\s+am|\s+is|\s+are)$", "", app["who"].strip()))
            subject = self._subject(region, turn)
            return Found(subject, "studies", (app["lang"] or app["lang2"] or app["lang3"]).capitalize(), negated) if subject else None
        if (quit := ZH_COURSE_QUIT.match(clause)) and self._zh_language(quit["lang"]):
            return Found(turn.speaker_id, "studies", quit["lang"], True, True)
        if (quit := EN_COURSE_QUIT.match(clause)) and (subject := self._who(quit["who"], turn)):
            return Found(subject, "studies", quit["lang"].capitalize(), True, True)
        if (course := ZH_COURSE.match(clause)) and (self._zh_language(course["lang"]) or course["lang"] in instruments(self.lexicon)) \
                or (course := EN_COURSE.match(clause)):
            region, negated = self._clean_before_verb(course["who"])
            subject = self._subject(region, turn) if region.strip() else turn.speaker_id
            lang = course["lang"] if has_cjk(course["lang"]) else course["lang"].capitalize()
            return Found(subject, "studies", lang, negated) if subject else None
        m = EN_MY_LANGUAGE_IS.match(clause) or EN_BAD_AT.match(clause)
        if m is None:
            return None
        denied = bool(m["none"]) if "none" in m.re.groupindex else m["level"].casefold() not in ("fluent", "good")
        return Found(turn.speaker_id, "speaks", m["lang"], denied)
