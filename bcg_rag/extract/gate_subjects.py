"""The confidence gate's test of a claim's subject (``gate.py``): the speaker, the user, a
relative, a name the caller knows; in Chinese, a name read with confidence (a name jieba
knows, a surname-led name, 小王 / 老张 / 阿明, 张姐 / 王老师), an organisation where only one
has the slot (a headquarters, a CEO, a group's leader); in English, capitalised words."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import CJK, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

ZH_NAME_SUFFIXES = ("姐", "哥", "叔", "姨", "总", "老师", "阿姨", "师傅", "医生", "经理")
ZH_TITLE_PREFIXES = ("小", "老", "阿")
ORG_SUFFIXES = ("公司", "集团", "银行", "大学", "学院", "医院", "中学", "小学", "研究所", "工作室", "餐厅", "酒店",
                "科技", "技术", "网络", "传媒", "证券", "保险", "汽车", "电子", "软件", "航空")
ORG_ATTRIBUTES = frozenset({"headquarters", "ceo"})
GROUP_ROLES = frozenset({"leader", "captain", "coach", "ceo", "chairman"})
CONNECTORS = frozenset({"of", "de", "van", "von", "der", "la", "le", "da", "di", "y", "the", "and", "&", "'s"})
# Predicates only people have: a place or a company as their subject is a misreading.
PERSONAL_PREDICATES = frozenset({
    "likes", "dislikes", "eats", "drinks", "lives_in", "speaks", "has", "studies", "name", "job_title",
    "works_at", "studies_at", "married_to", "is", "consumes", "plays", "hometown",
})
# A dictionary word of these kinds is no name, whatever its first character ("周末", "高兴").
ZH_WORD_TAGS = ("t", "a", "d", "v", "r", "p", "c", "u", "m", "q", "f", "s", "ns", "y", "i", "l")


class SubjectGateRules:
    lexicon: Lexicon

    def _subject_ok(self, found: Found, turn: Turn) -> bool:
        subject = found.subject
        if subject in (turn.user_id, turn.speaker_id) or subject.startswith(f"{turn.user_id}'s "):
            return True
        if subject.casefold() in turn.entities:
            return True
        if has_cjk(subject):
            if subject in self.lexicon.zh_pronoun_subjects:
                return False  # "人家总部在青岚": "they", whoever was named before, is no name
            if found.predicate in GROUP_ROLES and (self._zh_group(subject) or self._zh_organisation(subject)):
                return True  # "彩虹合唱团的教练是王强": a group or a company has a leader (zh_belonging.py)
            if found.predicate.removeprefix("attr:") in ORG_ATTRIBUTES and re.fullmatch(f"[{CJK}A-Za-z]{{2,8}}", subject):
                # Only an organisation has a headquarters or a CEO: "字节跳动的总部…"; a new
                # company's two-character name may be characters jieba knows only one by one
                # ("鲸落": 鲸 + 落; not "老公说顺达", whose 说 is a verb among words)
                if all(flag.startswith(("n", "vn", "eng", "j")) for _, flag, _ in self._tokens(subject)):
                    return True
                if self._zh_organisation(subject) or self._made_up_name(subject):
                    return True  # "星河互娱" (a name and a company's suffix), "米哈游"
                head = next((subject[: -len(x)] for x in ORG_SUFFIXES if subject.endswith(x)), subject)  # 鲸落网络
                return len(head) == 2 and all(len(word) == 1 and flag.startswith(("n", "v", "a"))
                                              for word, flag, _ in self._tokens(head))
            return self._zh_named(subject, place_ok=found.predicate not in PERSONAL_PREDICATES)
        words = subject.split()
        if not all(w[:1].isupper() or w.isdigit() or w.casefold() in CONNECTORS for w in words):
            return False
        first = words[0].casefold().rstrip("'s")
        if first in self.lexicon.not_names or words[0].casefold() in self.lexicon.not_names:
            return False
        return not (len(words) == 1 and re.search(r"(?:ed|ing|ly)$", first))  # "Inferred", "Honestly"

    def _made_up_name(self, text: str) -> bool:
        """A made-up name jieba reads as a person's name and one more character (米哈游: 米哈 +
        游, "swim"); not someone's home or place (张三家, 李叔那)."""
        tokens = self._tokens(text)
        return (len(tokens) == 2 and tokens[0][1].startswith("nr") and len(tokens[0][0]) == 2 and len(tokens[1][0]) == 1
                and tokens[1][1].startswith(("v", "n", "a")) and tokens[1][0] not in "家里处边")

    def _zh_named(self, text: str, place_ok: bool = False) -> bool:
        """A Chinese name read with confidence: a name jieba knows, a surname-led name,
        小王 / 老张 / 阿明, 张姐 / 王老师; places and organisations only where ``place_ok``."""
        if not re.fullmatch(f"[{CJK}A-Za-z]{{2,6}}", text) or text.endswith("人"):
            return False
        surnames = self.lexicon.surnames
        if text[0] in ZH_TITLE_PREFIXES and len(text) == 2 and (text[1] in surnames or len(self._tokens(text)) == 2):
            return True  # 小王, 老张; 小明, 小红 (a nickname, not a word such as 小说 or 老师)
        if text[0] == "大" and len(text) == 2 and text[1] in surnames:
            return True  # 大毛, 大刘: a nickname by a surname (not 大家, 大狗)
        for suffix in ZH_NAME_SUFFIXES:
            head = text[: -len(suffix)]
            if text.endswith(suffix) and head and (head[0] in surnames or self._zh_named(head)):
                return True
        tokens = self._tokens(text)
        flags = [flag for _, flag, _ in tokens]
        if re.fullmatch("[A-Za-z]+", text):
            return text[0].isupper()
        if flags == ["nr", "nr"] and text[0] == text[1] or self._doubled_name(text) and not any(f.startswith(("v", "a")) for f in flags):
            return True  # a doubled given name the segmenter cuts in two (嘉嘉) or reads as a measure (朵朵); not 试试, 看看
        if len(tokens) == 1:
            if flags[0].startswith("nr"):
                return True
            if place_ok and flags[0].startswith(("n", "eng")):
                return True  # "大理位于云南", "腾讯总部在深圳": places and companies have places
            # A common noun of the dictionary is no name, though a surname may start it ("游戏", "高铁")
            return text[0] in surnames and len(text) <= 3 and not flags[0].startswith(ZH_WORD_TAGS) and flags[0] != "n"
        if place_ok and text.endswith(ORG_SUFFIXES) and all(f.startswith(("n", "eng", "vn", "m")) for f in flags):
            return True  # "云杉公司", "实验小学", "第一实验小学"
        if text[0] in surnames and len(text) <= 3:
            # The rest is not a dictionary word of its own kind ("周末" is a time, "高兴" a mood), a
            # particle or a common noun that holds the surname ("毕业了": 毕业 + 了).
            return not any(len(word) > 1 and flag.startswith(ZH_WORD_TAGS) or flag.startswith("u")
                           or at == 0 and len(word) > 1 and flag == "n" for word, flag, at in tokens)
        for reference in self.lexicon.user_references:  # "用户张三"
            if text.startswith(reference) and len(text) > len(reference):
                return self._zh_named(text[len(reference):])
        return False

    # ------------------------------------------------------------------ the gate
