"""What a value is: a list of several ("tea and coffee", "法语和英语"), a thing owned, a kind
of person or animal, a pronoun. Pieces the rules share, beside ``shared.py``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .text import CJK_CHAR, EDGE_PUNCTUATION, collapse, english_forms, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon


# Slots whose value is an organisation, where "Halden & Rowe" is one firm's name.
ORGANISATION_SLOTS = frozenset({"works_at", "studies_at", "member_of", "subscribes_to", "banks_with"})
EN_AMPERSAND_NAME = re.compile(r"(?-i:[A-Z][\w'.-]*)\s*&\s*(?-i:[A-Z])")
# "learning to knit", "learning to play the cello": an activity learnt, said by its verb
NOT_LEARNT = frozenset("be get have do make take keep stay feel let say go see trust love accept deal live relax breathe "
                       "listen stop no yes forgive adapt cope".split())
EN_TO_DO = re.compile(r"^to\s+(?P<verb>[a-z]+)(?P<rest>(?:\s+[a-z']+){0,3})\s*$", re.IGNORECASE)


class ValueRules:
    lexicon: Lexicon

    def _coordinated(self, value: str, predicate: str | None = None) -> list[str]:
        """ "tea and coffee", "法语和英语": two values, when both sides are short. Where the value
        names an organisation, "&" between two names joins one ("Crumb & Co", "Marks & Spencer")."""
        if len(value) >= 60 or predicate in ORGANISATION_SLOTS and EN_AMPERSAND_NAME.search(value):
            return [value]
        if has_cjk(value):  # 和 as a word of its own: 协和医院 is one name
            cuts = [(at, at + len(w)) for w, _, at in self._tokens(value) if w in ("和", "跟", "与", "以及", "、")]
            bounds = [0] + [b for cut in cuts for b in cut] + [len(value)]
            parts = [value[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2)]
        else:
            parts = re.split(r"\s+(?:and|or|&)\s+", value)
        parts = [self._clean_value(p) for p in parts]
        if len(parts) > 1 and all(p and len(p.split()) <= 3 for p in parts):
            return parts
        return [value]

    def _possession(self, value: str) -> bool:
        """What follows "have"/"有" names a thing owned: "a cat", "two kids", "一只猫"."""
        words = collapse(value).casefold().split()
        if not words:
            return False
        if has_cjk(value):
            if self.lexicon.verb_regex.match(value.strip()):
                return False  # "没有戒咖啡": 没有 before a verb is "did not", not "has no"
            head = self._first_word(value)
            return head not in self.lexicon.not_possessions and not value.startswith(("点", "些", "时", "空", "没"))
        if words[0] in ("to", "been", "no", "not", "any", "lots", "plenty", "fun", "nothing", "something"):
            return False  # "I have to go", "I have no idea"
        quantity = {"a", "an", "one", "two", "three", "four", "five", "several", "my", "our"}
        if words[0] not in quantity and not words[0].isdigit():
            return False
        nouns = [w.strip(EDGE_PUNCTUATION) for w in words[1:]]
        return bool(nouns) and not any(n in self.lexicon.not_possessions for n in nouns[:3])

    def _someone(self, plural: str) -> bool:
        """A kind of person or animal ("kids", "sisters", "cats"): individuals, named, not counted."""
        one = re.sub(r"(?:ren|s)$", "", plural.casefold())  # "children", "dogs"
        pets = {w.casefold() for w in self.lexicon.words("mentions", "pets")}
        return bool(self.lexicon.relative_regex.fullmatch(plural) or self.lexicon.relative_regex.fullmatch(one)
                    or one in pets or plural.casefold() in pets)

    def _light_verb(self, value: str) -> re.Match[str] | None:
        """The light verb a value starts with ("打篮球", "跳尊巴", "playing tennis") when what follows
        it stands alone; a verb said twice that jieba reads as a word of its own is none ("跳跳糖")."""
        light = self.lexicon.activity_verbs.match(value)
        if light is None or not self._is_object(value[light.end():]):
            return None
        if has_cjk(value) and value[light.end():].startswith(light.group()) and self._tokens(value)[0][0] != light.group():
            return None  # "跳跳糖", "看看书"; "玩玩具" is 玩 + 玩具
        return light

    @staticmethod
    def _is_object(rest: str) -> bool:
        """What is left after a light verb stands alone: a word, or two Chinese characters."""
        rest = rest.strip()
        return len(CJK_CHAR.findall(rest)) >= 2 if has_cjk(rest) else bool(rest)

    def _is_pronoun(self, word: str) -> bool:
        key = word.casefold()
        return key in self.lexicon.first_person or key in self.lexicon.second_person

    def _learnt_doing(self, value: str) -> str | None:
        """What "learning to <verb> ..." learns: the object after a light verb ("to play the
        cello"), else the activity ("to knit" -> knitting, "to code" -> coding); None for a
        value not said so."""
        if not (learnt := EN_TO_DO.match(value.strip())):
            return None
        verb, rest = learnt["verb"].casefold(), learnt["rest"].strip()
        if verb in NOT_LEARNT:
            return None  # "learning to be patient", "to let go": a way to be, not a skill
        if rest and (light := self.lexicon.activity_verbs.match(f"{verb} {rest}")) and self._is_object(f"{verb} {rest}"[light.end():]):
            return f"{verb} {rest}"[light.end():].strip()
        doing = self.lexicon.activity_doing.get(verb) or english_forms(verb)[2]
        return f"{doing} {rest}".strip()
