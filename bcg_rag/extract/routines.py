"""Habits and routines: "I swim every morning", "I cycle everywhere", "I go to pilates on Mondays",
"我周末经常游泳", "我每周去三次图书馆"; and schools gone to: "My son goes to Jefferson High School".

An activity named by its verb alone (``[habits] activities``: run, swim, 跑步, 游泳) or a
place gone to is a habit only when the clause says how often (``[habits] frequency``:
"every", "usually", "每天", "经常"). The present tense only: "I ran this morning" and
"I'm running late" are episodes, and a verb with an object ("I run a bakery") is no
activity of its own. The value is the activity ("running", English in its -ing form) or
the place ("gym", "library"). Shift work is a routine too: "I'm a nurse, mostly night shifts",
"我在协和当护士，三班倒" (shift), the speaker's when no one else was named before it.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import has_cjk, phrase_pattern

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# "I can swim", "I can't drive", "I know how to ski": an ability, said right before the activity.
EN_ABLE = re.compile(r"\b(?P<neg>can't|cannot|can not|don't know how to|doesn't know how to)\s*$|\b(?:can|know how to|knows how to)\s*$", re.IGNORECASE)
ZH_ABLE = frozenset({"会", "不会", "能", "不能"})
ZH_LANGUAGE_STEMS = frozenset("英日法德韩俄中汉葡意泰越粤藏蒙阿西")  # 英语, 日文, 粤语, 西语 (Spanish): a language by one character
ZH_SPEECH_OF = frozenset({"闽南", "客家", "潮汕", "白", "广东", "四川", "东北", "温州"})  # 话 of a people or region jieba may not tag
# The language first: "日语也会一点点", "粤语我会说", "英语不太会" (speaks; 不 denies it).
ZH_LANGUAGE_FIRST = re.compile(r"^(?P<lang>[\u4e00-\u9fff]{1,3}[语文]|普通话|[\u4e00-\u9fff]{1,2}话)(?P<who>我|我也)?(?:也|还)?"
                               r"(?P<neg>不太|不)?会(?:说|讲)?(?:一点点|一点|一些|点儿?)?了?$")
# "mostly night shifts", "I work nights", "三班倒", "经常上夜班": when the work is done.
EN_SHIFTS = re.compile(r"^(?:(?:i|i'm)\s+)?(?:(?:work|working|do|doing|on)\s+)?(?:(?:mostly|usually|always|all|lots\s+of|a\s+lot\s+of)\s+)?"
                       r"(?P<shift>(?:night|day|early|late|evening|weekend|graveyard|split|rotating|12-hour)\s+shifts?|nights)$",
                       re.IGNORECASE)
ZH_SHIFTS = re.compile(r"^(?:我)?(?:经常|一般|基本|主要|都|也|还)*(?:是|要|得)?(?P<shift>三班倒|两班倒|倒班|上夜班|值夜班)(?:的|了)?$")
EN_GO_TO = re.compile(r"^(?P<who>.*?)\bgo(?:es)?\s+to\s+(?P<place>.+)$", re.IGNORECASE)
EN_GO_DOING = re.compile(r"^(?P<who>.*?)\bgo(?:es)?\s+(?P<doing>[a-z]+ing)\b(?P<rest>.*)$", re.IGNORECASE)
# "been running in the park instead", "took up swimming": an activity kept up or begun
EN_BEEN_DOING = re.compile(r"^(?P<who>.*?)\b(?:(?:have|'ve|has|'s)\s+)?been\s+(?P<doing>[a-z]+ing)\b(?P<rest>.*)$", re.IGNORECASE)
EN_TOOK_UP = re.compile(r"^(?P<who>.*?)\b(?:took|take|taken|taking)\s+up\s+(?P<doing>[a-z]+ing)\b(?P<rest>.*)$", re.IGNORECASE)
# "I'm just running outside now", "she's swimming again": a progressive of being, with nothing
# after the activity but where and since when (not "I'm running late", "running a bakery")
EN_AM_DOING = re.compile(r"^(?P<who>.*?)(?:\b(?:am|are|is)|'m|'re|'s)\s+(?:(?:just|mostly|only|also|back)\s+)?(?P<doing>[a-z]+ing)"
                         r"(?P<rest>(?:\s+(?:outside|outdoors|indoors|again|now|instead|lately|recently|these\s+days|a\s+lot"
                         r"|most\s+days|every\s+(?:day|morning|evening|weekend)))*)\s*$", re.IGNORECASE)
EN_AM_DOING_OF_LATE = re.compile(r"\b(?:again|now|instead|lately|recently|these days|a lot|most days|every)\b", re.IGNORECASE)
# what says a progressive is a habit of late, not one occasion ("been running late")
EN_OF_LATE = re.compile(r"\b(?:instead|lately|recently|these days|a lot|for (?:a few|several|\d+|two|three|four|six) "
                        r"(?:weeks|months|years))\b", re.IGNORECASE)
SCHOOL = re.compile(r"\b(?:School|Elementary|Primary|Middle|High|Academy|College|University|Kindergarten|Preschool)\b")
# What may stand between the subject and a Chinese activity: times, counts, adverbs, "起来".
ZH_BETWEEN_TAGS = ("t", "m", "q", "d")
ZH_LIGHT_VERBS = frozenset({"跳", "打", "踢", "下", "玩"})
ZH_BETWEEN_WORDS = frozenset({"每", "每天", "每周", "每晚", "天天", "起来", "坚持", "都", "也", "还", "会", "练", "做", "去", "一般", "通常"})
# Going somewhere regularly: 去, or 泡 (在), spending one's time there ("周末都泡在攀岩馆").
ZH_GOING = frozenset({"去", "泡", "泡在"})
# "一到周末就去钓鱼", "每逢周六都去爬山", "每到夏天都去游泳": whenever that time comes, a routine;
# read as 经常 (often), so the time's verb 到 / 逢 is no verb before the activity.
ZH_WHENEVER = re.compile(r"(?:一|每)(?:到|逢)[\u4e00-\u9fff]{1,3}?(?:就|都|便)")
# "周末一般约朋友打羽毛球", "跟同事一起踢球": with whom is said before the game, not who plays it
ZH_WITH_WHOM = re.compile(r"(?:约|跟|和|同|与|陪|带着?)[\u4e00-\u9fff]{1,4}?(?:们)?(?:一起|一块儿?)?(?=(?:打|踢|下|玩)[\u4e00-\u9fff])")


@functools.lru_cache(maxsize=8)
def routine_patterns(lexicon: Lexicon) -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """(English present form -> -ing form, that verb pattern, the frequency pattern)."""
    forms = lexicon.activity_doing
    verbs = re.compile(phrase_pattern(list(forms)), re.IGNORECASE)
    frequency = re.compile(phrase_pattern(lexicon.words("habits", "frequency")), re.IGNORECASE)
    return forms, verbs, frequency


@functools.lru_cache(maxsize=8)
def zh_game_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """<who> 打/踢/下/玩 <game>, then at most 了 or how long ("打了十年")."""
    games = "|".join(sorted(map(re.escape, lexicon.words("habits", "games")), key=len, reverse=True))
    return re.compile(rf"^(?P<who>.*?)(?:打|踢|下|玩)(?P<game>{games})"
                      r"(?:了|过)?(?:(?:打|踢|下|玩)了?(?:好几|[0-9一二三四五六七八九十两几半]+)个?(?:年|月|周|天|星期)多?了?)?$")


class RoutineRules:
    lexicon: Lexicon

    def _routine(self, clause: str, turn: Turn) -> Found | None:
        shifts = (ZH_SHIFTS if has_cjk(clause) else EN_SHIFTS).match(clause)
        if shifts and turn.user_is_speaker and turn.other is None:  # "室友是护士，经常三班倒": hers
            shift = shifts["shift"].casefold()
            return Found(turn.speaker_id, "shift", "night shifts" if shift == "nights" else shift)
        if has_cjk(clause):
            return self._zh_ability(clause, turn) or self._zh_game(clause, turn) or self._zh_routine(clause, turn)
        return self._en_routine(clause, turn)

    def _en_routine(self, clause: str, turn: Turn) -> Found | None:
        forms, verbs, frequency = routine_patterns(self.lexicon)
        if (m := EN_GO_TO.match(clause)) and SCHOOL.search(m["place"]):
            school = self._clean_value(m["place"])  # "goes to Jefferson High School": a school attended
            return self._habit(m["who"], "studies_at", school, turn) if school[:1].isupper() else None
        often = frequency.search(clause)
        if often and (m := EN_GO_TO.match(clause)):
            place = clause[m.start("place"):often.start()] if often.start() > m.start("place") else m["place"]
            return self._habit(m["who"], "habit", self._clean_value(place), turn)  # "yoga (twice a week)"
        if often and (m := EN_GO_DOING.match(clause)) and m["doing"].casefold() in forms.values():
            return self._habit(m["who"], "habit", m["doing"].casefold(), turn)  # "go running on Sundays"
        for shape, needs in ((EN_BEEN_DOING, True), (EN_TOOK_UP, False)):
            if (m := shape.match(clause)) and m["doing"].casefold() in forms.values() and (
                    often or EN_OF_LATE.search(m["rest"]) or not needs and not m["rest"].strip()):
                return self._habit(m["who"], "habit", m["doing"].casefold(), turn)
        if (m := EN_AM_DOING.match(clause)) and m["doing"].casefold() in forms.values() and EN_AM_DOING_OF_LATE.search(m["rest"]):
            return self._habit(m["who"], "habit", m["doing"].casefold(), turn)
        if (verb := verbs.search(clause)) is None:
            return None
        rest = clause[verb.end():].strip()
        if rest and not (frequency.match(rest) or rest.split()[0].casefold() in self.lexicon.prepositions
                         or re.match(r"(?:\w+ly|a lot|everywhere|pretty well|well)\b", rest, re.IGNORECASE)):
            return None  # "I run a bakery": the verb has an object
        region, doing = clause[: verb.start()], forms[verb.group().casefold()]
        if able := EN_ABLE.search(region):  # "I can't drive": what someone can do
            found = self._habit(region[: able.start()], "can", doing, turn)
            return Found(found.subject, found.predicate, found.value, found.negated or bool(able["neg"])) if found else None
        if not often and rest:
            return None  # "I swim in the lake": one swim, unless said how often
        return self._habit(region, "habit", doing, turn)  # "I smoke", "I cycle everywhere"

    def _zh_ability(self, clause: str, turn: Turn) -> Found | None:
        """ "我会滑雪", "我爸不会游泳" (can); "我会德语", "日语也会一点点" (speaks): 会 right before
        an activity or a language, or after the language said first."""
        if turn.user_is_speaker and (m := ZH_LANGUAGE_FIRST.match(clause)) and self._zh_language(m["lang"]):
            return Found(turn.speaker_id, "speaks", m["lang"], bool(m["neg"]))
        activities = set(self.lexicon.words("habits", "activities"))
        tokens = self._tokens(clause)
        for i, (word, _, at) in enumerate(tokens[:-1]):
            if word[-1:] == "会" and self._is_pronoun(word[:-1]):  # jieba's "我会" is 我 + 会
                word, at = word[-1], at + len(word) - 1
            if word not in ZH_ABLE:
                continue
            after, after_tag, start = tokens[i + 1]
            rest = clause[start:]
            if after_tag.startswith("v") and after not in activities:
                return None  # "会去学韩语": 会 says will, before another verb
            if after in activities and start + len(after) == len(clause):
                predicate, value = "can", after
            elif (re.fullmatch(r"[\u4e00-\u9fff]{1,3}[语文]|普通话|[\u4e00-\u9fff]{1,2}话", lang := self._clean_value(rest))
                  and self._zh_language(lang) and word.endswith("会")):  # 会德语, 只会普通话, 会上海话
                predicate, value = "speaks", self._clean_value(rest)
            else:
                return None
            found = self._habit(clause[:at], predicate, value, turn)
            return Found(found.subject, predicate, value, found.negated or word.startswith("不")) if found else None
        return None

    def _zh_language(self, words: str) -> bool:
        """日语, 中文, 西班牙语, 普通话, and a place's speech (上海话, 闽南话); not 电话, 论文 or 成语."""
        if words == "普通话":
            return True
        stem = words[:-1]  # 日 + 语, 上海 + 话, 西班牙 + 语
        known = ZH_SPEECH_OF if words.endswith("话") else ZH_LANGUAGE_STEMS
        return stem in known or all(flag == "ns" for _, flag, _ in self._tokens(stem))

    def _zh_game(self, clause: str, turn: Turn) -> Found | None:
        """ "我打羽毛球", "周末雷打不动去打羽毛球", "我爸不下围棋了": a game played (``plays``, as
        "I play badminton"). jieba often makes one word of the verb and the game (打篮球)."""
        m = zh_game_pattern(self.lexicon).match(ZH_WITH_WHOM.sub("", ZH_WHENEVER.sub("经常", clause), count=1))
        if m is None:
            return None
        _, _, frequency = routine_patterns(self.lexicon)
        region = m["who"]
        tokens = self._tokens(region)

        def between(word: str, tag: str) -> bool:  # times, counts, adverbs, set phrases ("每周六", "雷打不动")
            return tag.startswith((*ZH_BETWEEN_TAGS, "l", "i")) or word in ZH_BETWEEN_WORDS or bool(frequency.fullmatch(word))

        subject_end = next((j for j, (w, f, _) in enumerate(tokens) if between(w, f)), len(tokens))
        if not all(between(w, f) for w, f, _ in tokens[subject_end:]):
            return None  # another verb first: "我喜欢打羽毛球" is the verb rule's
        start = tokens[subject_end][2] if subject_end < len(tokens) else len(region)
        found = self._habit(region[:start], "plays", m["game"], turn)
        if found and any(f.startswith("d") and ("不" in w or "没" in w) for w, f, _ in tokens[subject_end:]):
            return Found(found.subject, found.predicate, found.value, not found.negated)  # "我不打羽毛球了"
        return found

    def _zh_routine(self, clause: str, turn: Turn) -> Found | None:
        """ "(我)每天(早上七点起来)游泳", "我每周去三次图书馆"."""
        _, _, frequency = routine_patterns(self.lexicon)
        clause = ZH_WHENEVER.sub("经常", clause)
        if not frequency.search(clause):
            return None
        activities = set(self.lexicon.words("habits", "activities"))
        games = set(self.lexicon.words("habits", "games"))
        tokens = self._tokens(clause)
        for i, (word, flag, at) in enumerate(tokens):
            gone = word in ZH_GOING and i + 1 < len(tokens)
            if word not in activities and not gone:
                continue
            rest = tokens[i + 1:]
            if gone:  # 去 + (两次) + a place, what is done there, or both: "经常去钓鱼", "天天去水库钓鱼"
                while rest and (rest[0][1].startswith(("m", "q")) or rest[0][0] == "在" and word == "泡"):
                    rest = rest[1:]
                # "天天去跳广场舞", "周末去公园打羽毛球": what is played or danced, after the light verb
                light = len(rest) > 1 and rest[-2][0] in ZH_LIGHT_VERBS and rest[-1][0] in activities | games
                places = rest[:-2] if light else rest[:-1]
                if rest and (light or rest[-1][0] in activities) and all(f.startswith(("n", "eng", "s")) for _, f, _ in places):
                    value = rest[-1][0]
                elif not rest or not all(f.startswith(("n", "eng")) for _, f, _ in rest):
                    return None
                else:
                    value = clause[rest[0][2]:]
            elif rest and not all(f.startswith(("m", "q", "t", "y", "ul")) for _, f, _ in rest):
                return None  # the activity is followed by more than "三次", "了"
            else:
                value = word
            subject_end = next((j for j, (w, f, _) in enumerate(tokens[:i])
                                if f.startswith(ZH_BETWEEN_TAGS) or w in ZH_BETWEEN_WORDS or frequency.fullmatch(w)), i)
            if any(not (f.startswith(ZH_BETWEEN_TAGS) or w in ZH_BETWEEN_WORDS or frequency.fullmatch(w))
                   for w, f, _ in tokens[subject_end:i]):
                return None  # another verb stands before the activity: "我喜欢跑步" is the verb rule's
            region = clause[: tokens[subject_end][2]] if subject_end < i else clause[:at]
            lead = self._tokens(region)
            if len(lead) > 2 and lead[-1][0] in ("后", "以后", "之后") and lead[-2][1].startswith("v"):
                region = region[: lead[-2][2]]  # "我爸退休后天天去钓鱼": since when, not who
            return self._habit(region, "habit", value, turn)
        return None

    def _habit(self, region: str, predicate: str, value: str, turn: Turn) -> Found | None:
        region, negated = self._clean_before_verb(region)
        subject = self._subject(region, turn)
        if subject is None or not self._usable(value):
            return None
        return Found(subject, predicate, value, negated)
