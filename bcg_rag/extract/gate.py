"""The confidence gate: a claim leaves the offline extractor only when its parts read cleanly.

Every rule proposes ``Found``s; the gate decides whether each one is read with
confidence. Precision first: a wrong claim becomes a wrong answer or a false
"outdated", while a message with no claim is still stored as evidence and
returned to the LLM as unstructured memory. So a claim is dropped when

* its value is not a thing: it holds a verb, a pronoun, a question word or a
  clause ("Denver was the best decision", "啥好纠结", "歌手变成陈奕迅"), or it is
  only a time ("六年", "last weekend");
* its subject is not someone the text names (``gate_subjects.py``): the speaker, the user, a relative,
  a known entity, or a name that reads as one (a capitalised English name; in
  Chinese a surname-led name, 小王 / 老张 / 张姐, or a name jieba knows);
* it reports an episode rather than a state: "今天中午吃了猪脚饭", "ate sushi
  yesterday" say nothing durable about what someone eats.

Values are also cut to their noun phrase (``noun_phrase``): a Chinese value ends
before the first pronoun, adverb, preposition or particle of jieba's segmentation
("深圳这边最近…" -> "深圳"), and one that runs on into a verb is a clause, not a value.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .devices import PREDICATE as PHONE_PREDICATE
from .en import EN_CLASS_OF
from .gate_subjects import ORG_ATTRIBUTES, SubjectGateRules
from .grammar import ZH_DURATION, ZH_PLACE_CALLED
from .in_passing import zh_car_pattern
from .shapes import ZH_EMPLOYER_WORDS
from .shared import Found
from .subjects import ZH_PERSON_ADVERBS
from .text import CJK_CHAR, EDGE_PUNCTUATION, NAME_JOINS, collapse, has_cjk
from .zh_homes import ZH_HOME_WORDS

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# English words that make a value a clause (a verb of its own) or a pointer (a pronoun).
EN_CLAUSE_WORDS = frozenset(
    "is was are were be been being am has have had do does did will would can could should shall might must "
    "i me my mine we us our you your he him his she her they them their it its this that these those "
    "something anything nothing someone somebody everyone everything here there".split()
)


def _joins_name(words: list[str], i: int) -> bool:
    """A small word between two capitalised ones is part of a name: "Duke of Bourbon"."""
    return (0 < i < len(words) - 1 and words[i] in NAME_JOINS and words[i - 1][:1].isupper()
            and words[i + 1][:1].isupper())


EN_BAD_CHARS = re.compile(r"[()\[\]{};?!\"“”<>|]|(?<!\d):|:(?!\d)")  # a colon only inside "25:10"
EN_SPECIFIC_TIME = re.compile(
    r"\b(?:yesterday|today|tonight|last night|this morning|this afternoon|this evening|earlier|just now|right now)\b",
    re.IGNORECASE,
)
# "I'm eating lunch", "我正在喝咖啡": happening now, not a habit.
EN_PROGRESSIVE = re.compile(r"(?:'m|'re|'s|\b(?:am|are|is))\s+(?:\w+ly\s+)?(?:eating|drinking|having|playing|watching)\b", re.IGNORECASE)
ZH_PROGRESSIVE = re.compile(r"(?:正在|(?<![现实存所自])在)(?:吃|喝|玩|看)")  # not the 在 of 现在
EN_EPISODE_VERB = re.compile(r"\b(?:ate|eaten|drank|drunk|had|played|watched)\b", re.IGNORECASE)
# "My (college) roommate (Marcus) is …", "Marcus is …": who an English clause is about.
# Chinese: episodes (a meal today, "吃了/喝过") are not habits.
ZH_SPECIFIC_TIME = re.compile(r"今天|昨天|前天|今晚|昨晚|刚才|刚刚|中午|这顿|那天|上次|这次")
ZH_PERFECTIVE = re.compile(r"(?:吃|喝)(?:了|完|过|到)")
EPISODIC_PREDICATES = frozenset({"eats", "drinks", "likes", "plays"})
REPLY_WORDS = re.compile(r"\b(?:idea|ideas|suggestion|suggestions|option|options|tip|tips|advice|answer|recommendation|recommendations)$"
                         r"|^(?:第[一二三四五六七八九十\d]+个|这个|那个)?(?:主意|建议|方案|选项)$", re.IGNORECASE)
# Tags of jieba that end a Chinese noun phrase: pronouns, adverbs, prepositions,
# conjunctions, particles, modal words, punctuation, time words.
ZH_PHRASE_END = ("r", "d", "p", "c", "u", "y", "x", "w", "t")  # and the exact tags "e", "o" (not "eng")
ZH_QUESTION_WORDS = re.compile(r"啥|什么|谁|哪|几|怎|吗|呢|吧|嘛|呀|啊")


class GateRules(SubjectGateRules):
    lexicon: Lexicon

    # ------------------------------------------------------------------ values

    def _noun_phrase(self, value: str, predicate: str = "") -> str:
        """A Chinese value cut to its noun phrase; "" when it runs on into a verb (a clause).

        English values are cut by the value stops of the lexicon already (``_clean_value``).
        """
        # "写代码的程序员", "正儿八经的产品经理", "(一家做跨境电商的)公司当运营": the title, not what describes it
        if predicate == "job_title" and "的" in value and self._listed_title(
                head := re.split(r"当|做|干", value.rsplit("的", 1)[1])[-1], predicate):
            return head
        if (not has_cjk(value) or self.lexicon.value_of(value) != value or value.casefold() in self.lexicon.value_predicates
                or predicate.removeprefix("attr:") in NAME_PREDICATES | DATE_PREDICATES | MEASURE_PREDICATES
                or self._listed_title(value, predicate) or self._employer_name(value, predicate)
                or zh_car_pattern(self.lexicon).fullmatch(value)  # "特斯拉Model Y": a make and its model
                or predicate == PHONE_PREDICATE  # "华为Mate 60 Pro": a phone's model as said (devices.py)
                or self._taste_attribute(predicate)):  # "最喜欢的乐队是回声公路": a title or a name as said (回声 a verb to jieba)
            return value
        if called := ZH_PLACE_CALLED.match(value):  # "一家叫星辰科技的小公司": the place is named
            return called["name"]
        tokens = self._tokens(value)
        end = len(value)
        for i, (word, flag, at) in enumerate(tokens):
            if i == 0:
                if flag.startswith("v") and not flag.startswith("vn") and len(tokens) > 1 and predicate not in ACTIVITY_PREDICATES:
                    return ""  # "叫星辰科技的小公司": a verb phrase where a thing should be
                continue
            if flag.startswith("v") and not flag.startswith("vn") and word not in self.lexicon.values:
                return ""  # "柯基叫旺财", "乐队是五月天": a clause
            if (flag.startswith(ZH_PHRASE_END) or flag in ("e", "o")) and not (flag.startswith("u") and word == "的" and i + 1 < len(tokens)):
                end = at
                break
        return value[:end].strip()

    def _taste_attribute(self, predicate: str) -> bool:
        """An attribute that is a taste: "attr:最喜欢的乐队", "attr:favorite_band"."""
        return predicate.startswith("attr:") and bool(self.lexicon.preference.match(predicate.removeprefix("attr:")))

    def _employer_name(self, value: str, predicate: str) -> bool:
        """An employer named with a company's suffix, whatever jieba makes of its first word
        ("知岸咨询": 知 is a verb to jieba, ``ZhWorkRules._zh_organisation``), or a name jieba
        splits into a person's name and a character."""
        if predicate != "works_at":
            return False
        return self._zh_organisation(value) or self._made_up_name(value)  # where a job is said, a company

    def _listed_title(self, value: str, predicate: str) -> bool:
        """A Chinese job title the lexicon ends it with, whatever jieba tags it ("前端组长", 组长
        as a verb)."""
        return predicate == "job_title" and self.lexicon.is_occupation(value) and not ZH_BAD_TITLE.search(value)

    def _value_ok(self, found: Found) -> bool:
        value = found.value
        if not value or not value.strip():
            return False
        lex = self.lexicon
        dated = (found.predicate.removeprefix("attr:") in DATE_PREDICATES | MEASURE_PREDICATES
                 or found.predicate.startswith("number_of_"))  # numbers are values here
        # A taste's value is a title or a name as said ("最喜欢的乐队是五月天", "最喜欢的季节是秋天",
        # "最喜欢的动漫是进击的巨人"): whatever jieba tags its words.
        taste = self._taste_attribute(found.predicate)
        if has_cjk(value):
            if ZH_QUESTION_WORDS.search(value) or re.fullmatch(ZH_DURATION, value) or value[0] in "我你他她它这那" \
                    or value.startswith(("小时", "分钟", "钟头")):  # "练了一个小时琴": how long, then what
                return False
            if (lex.value_of(value) != value or value.casefold() in lex.values or value.casefold() in lex.value_predicates
                    or self._zh_named(value)):
                return True  # a thing the lexicon knows, or a person's name ("刘洋")
            if self._listed_title(value, found.predicate) or self._employer_name(value, found.predicate):
                return True
            tokens = self._tokens(value)
            if found.predicate == "owns" and self._place_and_thing(tokens):
                return True  # "大连的烧烤店": a business with its town (ventures.py)
            # "o" (onomatopoeia) is a pet's name where a name is said: 咪咪, 汪汪
            named = found.predicate.removeprefix("attr:") in NAME_PREDICATES
            if taste and not any(flag.startswith(("r", "y", "d", "c", "p")) or flag == "e" for _, flag, _ in tokens) \
                    and not all(flag.startswith(("m", "q")) for _, flag, _ in tokens):
                return True
            if named and len(value) == 2 and value[0] == value[1]:
                return True  # "叫慢慢", "叫乖乖": a doubled character is a pet's or a child's name, whatever its tag
            if any(flag.startswith(("r", "d", "p", "c", "y", "u")) or flag == "e" or flag == "o" and not named for _, flag, _ in tokens):
                return False
            if all(flag.startswith(("t", "m", "q")) for _, flag, _ in tokens) and not dated:
                return False  # "六年", "三点": a time or a number, not a thing
            if len(CJK_CHAR.findall(value)) == 1 and not re.search(r"[A-Za-z0-9]", value):
                # "猫", "狗", "辣": one character is a thing only where things are kept or tasted
                return ((tokens[0][1].startswith(("n", "a")) or value in practised(lex))  # 鼓 is a verb to jieba
                        and found.predicate in ONE_CHARACTER_PREDICATES and value not in ZH_RESULTS)
            if found.predicate in PLACE_PREDICATES and len(tokens) == 1 and tokens[0][1] in ("s", "f"):
                return False  # "住在海边", "在国外": a kind of place, not a place
            if found.predicate.removeprefix("attr:") in NAME_PREDICATES:
                return 2 <= len(value) <= 4 and not any(flag.startswith("v") for _, flag, _ in tokens)
            if found.predicate in PLACE_PREDICATES and tokens[0][1] == "ns" and len(value) - len(tokens[0][0]) <= 3:
                return True  # "上海闵行": a town, then a district jieba does not know (闵 + 行)
            if (found.predicate not in ACTIVITY_PREDICATES and not dated and len(tokens) > 1
                    and not tokens[-1][1].startswith(ZH_NOUN_TAGS) and not self._unknown_name(tokens)):
                return False  # "有…伤好无聊": what is owned, worked at or lived in is a noun
            return True
        words = value.split()
        lower = [w.casefold().strip(".,'") for w in words if not w[:1].isupper()]
        if EN_BAD_CHARS.search(value) or any(w in EN_CLAUSE_WORDS for w in lower):
            return False
        if self.lexicon.time.anywhere.fullmatch(value) or re.fullmatch(r"\d+\s*(?:am|pm|%)?", value, re.IGNORECASE):
            return dated or found.predicate.startswith("attr:")
        if found.predicate in ("works_at", "studies_at") and not value[:1].isupper() and not WORKPLACE.search(value):
            return False  # "started at the bottom": an employer is a name, or a kind of workplace
        if found.predicate in PLACE_PREDICATES and not value[:1].isupper():
            return False  # "moved out to the suburbs": a place is named by its name
        if found.predicate.removeprefix("attr:") in NAME_PREDICATES and not value[:1].isupper():
            return False  # "called off the engagement": not a name
        if len(words) > 4 and any(not w[:1].isupper() and not _joins_name(words, i) for i, w in enumerate(words)):
            return False  # a long lower-case run is a clause, not a thing ("Louis Henri, Duke of Bourbon" is a name)
        return True

    def _town(self, said: str, turn: Turn) -> bool:
        """A town's name as said: capitalised, or in lower case where the message is (``_lower_case_place``)."""
        said = said.strip(EDGE_PUNCTUATION)
        return bool(said) and (said[:1].isupper() or turn.lower_case and self._lower_case_place(said) is not None)

    def _lower_case_place(self, said: str) -> str | None:
        """In chat typed in lower case, one to three lower-case words where a town goes are one
        ("moved to bristol", "settled into montreal finally"), capitalised; not a kind of place,
        a time or a state ("live in fear", "moved to the suburbs", "moved to nights")."""
        words = said.strip(EDGE_PUNCTUATION).split()
        while words and (words[-1] in self.lexicon.adverbs or self.lexicon.time.anywhere.fullmatch(words[-1])):
            words.pop()  # "montreal finally", "toronto now"
        if not (1 <= len(words) <= 3 and all(re.fullmatch(r"[a-z][a-z'-]+", w) for w in words)) \
                or any(w in NOT_PLACE_WORDS or w in ("my", "our", "the", "a", "an", "his", "her", "their") for w in words) \
                or len(words) == 1 and words[0] in self.lexicon.not_names or " ".join(words) in self.lexicon.values \
                or " ".join(words) in work_fields(self.lexicon):  # "a developer in fintech" works in no town
            return None
        return " ".join(w.upper() if len(w) <= 2 else w.capitalize() for w in words)  # "la" is LA, "sf" SF

    @staticmethod
    def _place_and_thing(tokens: tuple) -> bool:
        """A place name, 的, and a noun: "大连的烧烤店"."""
        return (len(tokens) == 3 and tokens[0][1].startswith("ns") and tokens[1][0] == "的"
                and tokens[2][1].startswith(ZH_NOUN_TAGS) and len(tokens[2][0]) > 1)

    @staticmethod
    def _unknown_name(tokens: tuple) -> bool:
        """Two or three characters jieba knows only one by one (博远: 博 + 远, "far"): a name
        its dictionary lacks, whose characters' tags say nothing about the whole."""
        return (len(tokens) in (2, 3) and all(len(word) == 1 and not flag.startswith("v") for word, flag, _ in tokens)
                and any(flag.startswith(("n", "j")) for _, flag, _ in tokens))  # "好累" is two adjectives

    def _gate(self, found: Found, clause: str, turn: Turn) -> Found | None:
        said = found.value  # before its article goes: "the routine" is no town
        value = turn.entities.get(found.value.casefold()) or self._noun_phrase(found.value, found.predicate)
        if (kind := EN_CLASS_OF.match(value)) and kind.group(1).casefold() in self.lexicon.class_nouns:
            value = value[kind.end():]  # "the continent of Europe" -> "Europe"
        if value != found.value:
            found = replace(found, value=value)
        if found.predicate == "is" and turn.owned and value.casefold() in self.lexicon.pets:
            found = replace(found, subject=turn.owned[0], predicate="has")  # "我家狗叫可乐，是只金毛": the breed kept
        if found.predicate == "switched_to" and zh_car_pattern(self.lexicon).match(value):
            found = replace(found, predicate="owns", changed=True)  # "(卖了思域，)换成了比亚迪海豹": a make first, the car kept now
        if turn.lower_case and found.predicate in LOWER_CASE_PLACE_SLOTS and (town := self._lower_case_place(said)):
            found = replace(found, value=town)  # "bristol" is Bristol
        if turn.lower_case and found.predicate in ("works_at", "member_of") and said.strip().casefold() not in NOT_EMPLOYER_WORDS \
                and not WORKPLACE.search(said) and not GROUP_KIND.search(said) and not re.search(
                    rf"\b(?:the|my|our|a|an|his|her|their)\s+{re.escape(said.strip())}", clause, re.IGNORECASE) \
                and (org := self._lower_case_place(said)):
            # "i just started at rivian": Rivian, named as the message names towns ("the orchestra" is none)
            found = replace(found, value=org)
        if found.predicate == "teaches" and (own := EN_REFLEXIVE.match(found.value)):
            found = replace(found, predicate="studies", value=found.value[own.end():])  # "teaching myself guitar": learning it
        if found.predicate in ("works_at", "job_title") and ZH_VOLUNTEERING.search(clause):
            if found.predicate == "job_title":
                return None  # "在市图书馆做志愿者": where one volunteers, no employer and no job
            found = replace(found, predicate="volunteers_at")
        if found.predicate in ("job_title", "is") and (doing := ZH_DOING.match(value)):
            if not self.lexicon.is_occupation(value[doing.end():]):
                return None  # "还是干电池": still doing batteries, no thing one is (干电池 is no job)
            found = replace(found, predicate="job_title", value=value[doing.end():])  # "还是干测试": the trade is 测试
        if found.predicate == "job_title" and ZH_TREAT_AS.search(clause):
            return None  # "就当省心了": taken as, no job
        if found.predicate == "works_at" and (town := ZH_TOWN_THEN_ONE.match(found.value)) and self._zh_place(town["town"]):
            found = replace(found, predicate="works_in", value=town["town"])  # "在杭州一家游戏公司上班": which town is said
        if found.predicate == "works_at" and (found.value in ZH_EMPLOYER_WORDS or re.search(r"(?:一|某)(?:家|个|所|间)", found.value)
                                              or re.search(rf"(?:一|某)(?:家|个|所|间){re.escape(found.value)}", clause)):
            return None  # "入职了一家新公司", "在一家创业公司当CTO": which one is not said (yet)
        if found.predicate in ("works_at", "works_in") and re.fullmatch(r"[\d一二三四五六七八九十两几]+(?:楼|层|号|号楼)", found.value):
            return None  # "从三楼跳去二楼": a floor is where one stands, no employer
        if found.predicate == "member_of" and has_cjk(found.value) and found.value.endswith(ZH_HOME_WORDS):
            return None  # "房子退了": a home given up (zh_homes.py), no group left
        if found.predicate == "works_at" and has_cjk(found.value) and len(tokens := self._tokens(found.value)) == 2 \
                and tokens[0][1] in ("nt", "nz") and tokens[1][1] == "ns" and len(tokens[1][0]) > 1:
            found = replace(found, value=tokens[0][0])  # "在顺丰武汉这边做调度": the company, in its city's branch
        if found.predicate == "works_at" and self._zh_place(found.value):
            # "我在岳麓区上班": a district is where, not whom for; "(跳槽去京东了，)人还在深圳": where she is
            found = replace(found, predicate="lives_in" if re.match(rf"人{ZH_PERSON_ADVERBS}*在", clause) else "works_in")
        # a name the caller knows, or this message named as one ("乐刻的年卡"), whatever jieba tags it
        if not (has_cjk(found.value) and found.value.casefold() in turn.entities or self._value_ok(found)) \
                or not self._subject_ok(found, turn):
            return None
        if found.predicate == "lives_in" and "住的是" in clause:
            return None  # "我住的是老小区": what kind of home, not where
        if found.predicate in ("has", "owns") and ZH_REQUIRED.search(clause):
            return None  # "(住民宿)要有两间房": what is asked for, not what one has
        if found.predicate == "practices" and found.value not in practised(self.lexicon):
            return None  # "练车", "练口语": practising a sport, a game or an instrument is kept up; not every drill
        if found.predicate in ("likes", "dislikes") and REPLY_WORDS.search(found.value):
            return None  # "love the garden bench idea", "I like the second option": a reply to a suggestion, no taste
        if found.predicate == "has" and (kin := re.fullmatch(r"new\s+(.+)", found.value, re.IGNORECASE)) \
                and collapse(kin.group(1)).casefold() in self.lexicon.relatives:
            return None  # "we've got a new manager now": a person, who is named next (changes.py)
        if found.subject.casefold() in ("hq", "headquarters", "head office"):
            return None  # "HQ is in Rotterdam" with no company named in the message: whose is not said
        if found.subject == turn.speaker_id and found.predicate.removeprefix("attr:") in ORG_ATTRIBUTES:
            return None  # "our HQ is in Denver": "our" is the company there, not the speaker
        if found.predicate in EPISODIC_PREDICATES and not found.negated and self._episode(clause):
            return None
        if found.predicate == "is" and (EN_SPECIFIC_TIME.search(clause) or ZH_SPECIFIC_TIME.search(clause)):
            return None  # "I'm a mess today": a passing state
        return found

    @staticmethod
    def _episode(clause: str) -> bool:
        """One occasion, not a habit: "今天中午吃了猪脚饭", "had sushi yesterday", "I just ate too much"."""
        if has_cjk(clause):
            return bool(ZH_SPECIFIC_TIME.search(clause) or ZH_PERFECTIVE.search(clause) or ZH_PROGRESSIVE.search(clause))
        text = collapse(clause)
        if EN_LASTING.search(text) and not EN_SPECIFIC_TIME.search(text):
            return False  # "i've played ukulele since high school": kept up since, not once
        return bool(EN_SPECIFIC_TIME.search(text) or EN_EPISODE_VERB.search(text) or EN_PROGRESSIVE.search(text))


# Predicates whose value may be an activity (a verb phrase): "爱画画", "学做川菜", "不会开车".
ACTIVITY_PREDICATES = frozenset({"likes", "dislikes", "hobby", "studies", "plays", "can", "ability", "speaks"})
ZH_BAD_TITLE = re.compile(r"[了的是在不没很吗呢吧]")  # "当了组长": phrasing around a title, not one
ZH_NOUN_TAGS = ("n", "eng", "vn", "j", "nz", "nt", "ns", "nr", "an", "l", "i", "g", "m", "q", "s")
WORKPLACE = re.compile(
    r"\b(?:bakery|hospital|clinic|restaurant|cafe|café|school|college|university|store|shop|company|firm|startup"
    r"|bank|factory|office|agency|lab|hotel|bar|gym|library|church|warehouse|farm|studio|salon|pharmacy|airline"
    r"|nonprofit|non-profit|government|hospital|kindergarten|daycare|supermarket|mall|newspaper|magazine)s?\b",
    re.IGNORECASE,
)
@functools.cache
def practised(lexicon: Lexicon) -> frozenset[str]:
    """What one keeps practising: the lexicon's activities, games, instruments and pastimes."""
    return frozenset(w for key in ("activities", "games", "instruments", "hobbies") for w in lexicon.words("habits", key))


@functools.cache
def work_fields(lexicon: Lexicon) -> frozenset[str]:
    """Fields one works in ("fintech", "sales"): no town's name, even in lower case."""
    return frozenset(lexicon.words("occupations", "fields"))


# "还是干测试": a verb of doing before a trade; "在社区做志愿者": volunteering; "teaching myself guitar"
ZH_DOING = re.compile(r"^(?:干|做|搞)(?=[\u4e00-\u9fff]{2})")
ZH_VOLUNTEERING = re.compile(r"(?:做|当|干)(?:了)?(?:志愿者|义工)")
EN_REFLEXIVE = re.compile(r"(?:myself|himself|herself|themselves|ourselves|yourself)\s+(?=\w)", re.IGNORECASE)
# "杭州一家游戏公司", "深圳的一家外企": a town, then an organisation it does not name
ZH_TOWN_THEN_ONE = re.compile(r"^(?P<town>[\u4e00-\u9fff]{2,4}?)的?(?:一|某)(?:家|个|所|间)")
# "就当省心了", "权当锻炼身体吧": taking something as something, not working as it
ZH_TREAT_AS = re.compile(r"(?:就|权|只|全)当(?!了)(?:是|作|成)?[^，,。]*?(?:了|吧|啦)\W*$")
ZH_REQUIRED = re.compile(r"(?:要|得|需要|必须|最好)有")
# How an eating or drinking went, not what was had: "没吃饱", "喝多了", "吃撑了"
ZH_RESULTS = frozenset("饱好完多少够撑腻醉")
ONE_CHARACTER_PREDICATES = frozenset({"eats", "drinks", "likes", "dislikes", "has", "owns", "consumes", "smokes", "plays"})
PLACE_PREDICATES = frozenset({"lives_in", "hometown", "born_in", "visited", "works_in"})
# Where a town named in lower case is read as one (``_lower_case_place``), and the words that
# name no town there: kinds of place, states one lives in, shifts and spans one moves to.
LOWER_CASE_PLACE_SLOTS = frozenset({"lives_in", "hometown", "born_in"})
NOT_PLACE_WORDS = frozenset("""fear hope denial peace sin harmony luxury poverty comfort style misery tears action shock
    silence secret sight bliss chaos debt hell heaven paradise limbo town city country countryside sticks boonies suburbs suburb
    downtown uptown centre center area neighborhood neighbourhood here there home house flat apartment place room
    dorm dorms campus van car tent hotel hostel bed studio condo basement attic garage part full remote night nights
    days weeks months years morning mornings evening evenings weekend weekends shifts shift""".split())
# Where one works or belongs, said in lower case, that is no name: "working at it", "at home", "at uni"
NOT_EMPLOYER_WORDS = frozenset("it this that them all least most first last once work school uni college night nights noon midnight"
                               " dawn lunch lunchtime breakfast dinner".split())
# "joined a running group", "book club": a kind of group, not its name
GROUP_KIND = re.compile(r"\b(?:group|club|team|choir|band|league|society|community|program|class)$", re.IGNORECASE)
NAME_PREDICATES = frozenset({"name", "pet_name", "nickname", "english_name"})
DATE_PREDICATES = frozenset({"birthday", "age", "birth_date", "anniversary", "wake_time"})
MEASURE_PREDICATES = frozenset({"height", "weight"})  # a number with a unit is the value itself
EN_LASTING = re.compile(r"\b(?:ever\s+since|since\s+(?:high\s+school|college|uni|school|i\s+was|childhood|forever|\d{4})"
                        r"|for\s+(?:\d+|a\s+few|several|many|two|three|four|five|ten)\s+years|for\s+years|for\s+ages)\b", re.IGNORECASE)
