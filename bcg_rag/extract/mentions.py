"""What a mention says by itself: "our cat Luna knocked over a plant" says that the
speaker keeps a cat called Luna.

A possessive presupposes what it names, whatever the clause goes on to say about it, so
these claims keep their sign under negation, the past and plans ("my dog Rex won't eat"
still says Rex is the speaker's dog). Only the animals the lexicon lists in ``[mentions]``
are read this way, and only with a name after them: "my dog" alone would stand in for the
message where its name may be said in words no rule reads ("我家狗旺仔"). Kin are not
read this way: "my son Leo" would answer questions about Leo with his name; nor is a boss
named in passing ("my boss Linda is the VP…": read so, "what is Linda's role?" drew the
user's own slots). A machine pointed at as the speaker's is ("我这台MacBook": owns).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .grammar import MONTHS, WEEKDAYS
from .pets_hobbies import is_pet
from .shared import Found
from .text import CJK, collapse, phrase_pattern

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

# Words that may stand between "my" and the animal: "our old dog", "my new puppy".
EN_BETWEEN = r"(?:(?:little|baby|big|old|new|sweet|rescue)\s+)?"


@functools.lru_cache(maxsize=8)
def pet_named_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """The English "my <pet> <Name>" pattern."""
    pets = [w for w in lexicon.words("mentions", "pets") if w.isascii()]
    return re.compile(
        rf"(?<![\w'])(?:my|our)\s+{EN_BETWEEN}(?P<word>{phrase_pattern(pets)})(?![-'])"
        r"\s*,?\s+(?P<name>(?-i:[A-Z][a-z][\w'-]*))(?![\w'-])",
        re.IGNORECASE,
    )


@functools.lru_cache(maxsize=8)
def pet_name_first_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """The name before the animal: "Pistachio (my cat)", "Pistachio, my cat,", "Mango the parrot"."""
    pets = [w for w in lexicon.words("mentions", "pets") if w.isascii()]
    return re.compile(
        r"(?<![\w'])(?P<name>(?-i:[A-Z][a-z][\w'-]*))(?:\s*\(\s*|,\s+)(?:my|our)\s+"
        rf"{EN_BETWEEN}(?P<word>{phrase_pattern(pets)})\s*[),]"
        rf"|(?<![\w'])(?P<name2>(?-i:[A-Z][a-z][\w'-]*))\s+the\s+(?P<word2>{phrase_pattern(pets)})(?![\w'-])",
        re.IGNORECASE,
    )


# What may come before a clause's subject: nothing, a break, a linking word ("and yes").
EN_CLAUSE_LEAD = re.compile(r"(?:^|[,;:(!.]|\b(?:and|yes|yeah|so|plus|also|oh|btw|lol))\s*$", re.IGNORECASE)
# "我家狗狗豆豆特别怕打雷": the speaker's household, then the animal (a word of its own to jieba).
ZH_OURS = re.compile(r"(?:我们家|我家|家里)的?")
# "我家可乐（柯基）今天又偷吃了": the household's pet, its name, then the animal in brackets.
ZH_NAME_THEN_PET = re.compile(rf"{ZH_OURS.pattern}(?P<name>[{CJK}]{{2,3}})\s*[（(]\s*(?P<pet>[{CJK}]{{1,5}})\s*[）)]")
ZH_NAME_TAGS = ("nr", "nz")
# What only an animal does or has done to it: "我家煤球今天把我耳机线咬断了", "我家旺财又拆家了"
ZH_PET_ACTS = re.compile(r"绝育|驱虫|掉毛|拆家|咬断|咬坏|咬烂|抓坏|挠坏|乱尿|随地大小便|舔毛|炸毛|猫砂|狗粮|猫粮|罐罐|遛弯|喵喵|汪汪")
# "cant stop playing Khruangbin, they're my favorite band rn": a taste said of a pronoun whose
# name came before it in the message (one word of what is liked: "band", "show", "café").
EN_PRONOUN_FAVORITE = re.compile(
    r"(?:^|[,;:!.(-]\s*|\b(?:and|but|so|honestly|ok|okay)\s+)(?:it|they|that|this)\s*(?:'s|'re|’s|’re|\s+is|\s+are)\s+"
    r"(?:my|our)\s+(?:new\s+|current\s+)?(?P<attr>(?:all[- ]time\s+)?(?:favou?rite|fave?)(?:\s+(?!(?:again|now|ever|still|too|rn|atm|lol|of|for|in|on|at)\b)[a-z]+)?)\b",
    re.IGNORECASE)
EN_CALENDAR = re.compile(rf"{WEEKDAYS}|{MONTHS}|christmas|easter", re.IGNORECASE)  # a day is no name of a place
# A name: capitalised words, with initials ("Fontaines D.C."), not opening a sentence.
EN_NAME_BEFORE = re.compile(r"(?<=[a-z0-9,;:(]\s)(?P<name>(?-i:[A-Z][\w'&-]*(?:\.[A-Z]\.?)*(?:\s+[A-Z][\w'&-]*(?:\.[A-Z]\.?)*)*))")
# "我这台MacBook用了八年", "继续用我这部华为": "my this <machine>" keeps the thing it points to
# (owns). Only the classifiers of machines and vehicles: "我这个人", "我这部电影" point elsewhere.
ZH_MY_THIS = re.compile(r"我(?:的)?这(?:台|辆|部)")
ZH_THING_TAGS = ("n", "eng", "nt", "nz", "zg")
ZH_NOT_THINGS = frozenset({"电影", "剧", "片子", "小说", "作品", "戏"})


class MentionRules:
    lexicon: Lexicon

    def _mentions(self, clause: str, turn: Turn) -> list[Found]:
        """The speaker's named pets: "our cat Luna" -> (speaker, has, cat), (speaker, pet_name, Luna)."""
        if not turn.user_is_speaker:
            return []
        found: list[Found] = []
        for m in pet_named_pattern(self.lexicon).finditer(clause):
            if m["name"].casefold() not in self.lexicon.not_names:
                found += [Found(turn.speaker_id, "has", collapse(m["word"]).casefold()),
                          Found(turn.speaker_id, "pet_name", m["name"])]
        if (ours := ZH_OURS.search(clause)) and (named := self._zh_pet_named(clause[ours.end():])):
            found += [Found(turn.speaker_id, "has", named[0]), Found(turn.speaker_id, "pet_name", named[1])]
        elif ours and (name := self._zh_pet_by_its_acts(clause[ours.end():])):
            found.append(Found(turn.speaker_id, "pet_name", name))
        if (this := ZH_MY_THIS.search(clause)) and (thing := self._zh_kept_thing(clause[this.end():])):
            found.append(Found(turn.speaker_id, "owns", thing))
        return found

    def _pets_named_first(self, sentence: str, turn: Turn) -> list[Found]:
        """The speaker's pets named before the animal, read on the sentence (brackets and commas
        cut clauses): "Pistachio (my cat) just knocked…", "and yes Mango the parrot survived". A
        "Name the <animal>" leads its clause: "I love Garfield the cat" is no pet of one's own."""
        if not turn.user_is_speaker:
            return []
        found: list[Found] = []
        for m in pet_name_first_pattern(self.lexicon).finditer(sentence):
            name, word = m["name"] or m["name2"], m["word"] or m["word2"]
            if name.casefold() in self.lexicon.not_names or m["name2"] and not EN_CLAUSE_LEAD.search(sentence[: m.start()]):
                continue
            found += [Found(turn.speaker_id, "has", collapse(word).casefold()), Found(turn.speaker_id, "pet_name", name)]
        for m in ZH_NAME_THEN_PET.finditer(sentence):
            if is_pet(self.lexicon, m["pet"]):
                found += [Found(turn.speaker_id, "has", m["pet"]), Found(turn.speaker_id, "pet_name", m["name"])]
        return found

    def _favorite_named_before(self, sentence: str, before: str, turn: Turn) -> list[Found]:
        """ "<Name> …, they're my favorite <thing>": the last name said before the pronoun, in this
        sentence or the ones before it (``before``: the message up to this sentence)."""
        if not turn.user_is_speaker or not (m := EN_PRONOUN_FAVORITE.search(sentence)):
            return []
        said = f"{before} {sentence[:m.start()]}"
        names = [n["name"].rstrip(".") for n in EN_NAME_BEFORE.finditer(said)
                 if n["name"].casefold() not in self.lexicon.not_names and n["name"] not in ("I", "I'm")
                 and not EN_CALENDAR.fullmatch(n["name"])]
        if not names:
            return []
        if not re.search(r"(?:rite|fave?)\s+[a-z]", m["attr"], re.IGNORECASE):  # "they're my favorite again": a favourite of no kind said is liked
            return [Found(turn.speaker_id, "likes", value)] if self._usable(value := self._clean_value(names[-1])) else []
        found = self._attribute_claim(turn.speaker_id, True, m["attr"], names[-1], False)
        return [found] if found else []

    def _zh_kept_thing(self, rest: str) -> str | None:
        """The noun phrase at the start of ``rest``: "iPhone 13用了…" -> iPhone 13, "电脑…" -> 电脑."""
        end, brand = 0, False
        for word, flag, at in self._tokens(rest):
            # a model after the make ("iPhone 13", "华为Mate60", "小米手机"), not a comment ("电脑太卡")
            goes_on = word == " " or flag in ("eng", "m") or brand and flag == "n"
            if at != end or not (flag.startswith(ZH_THING_TAGS) if not end else goes_on):
                break
            brand, end = flag in ("eng", "nt", "nz"), at + len(word)
        thing = rest[:end].strip()
        return thing if thing and thing not in ZH_NOT_THINGS else None

    def _zh_pet_by_its_acts(self, rest: str) -> str | None:
        """ "煤球今天把我耳机线咬断了" after 我家: a two-character name whose clause says what only an
        animal does is a pet's (not a relative, a pet word or a word that says when)."""
        tokens, name = self._tokens(rest), rest[:2]
        # two characters, one word or two (旺 + 财), ending where a word ends
        if not ZH_PET_ACTS.search(rest[2:]) or not any(at == 2 for _, _, at in tokens) or re.search(r"[^\u4e00-\u9fff]", name) \
                or not all(flag.startswith(("n", "a")) and flag != "ns" for _, flag, at in tokens if at < 2):
            return None
        if name[-1] in "台厅房室间楼院门口区" or rest[2:3] in ("上", "里", "下", "边", "的"):
            return None  # "我家阳台猫砂…", "我家客厅里…": a part of the home
        return None if name in self.lexicon.pets or self.lexicon.relative_regex.fullmatch(name) else name

    def _zh_pet_named(self, rest: str) -> tuple[str, str] | None:
        """(animal, name) at the start of ``rest``: "狗狗豆豆…" -> (狗狗, 豆豆). A name is two
        characters, doubled (豆豆, 球球), 阿 and one more (阿福) or a word jieba tags a name; not
        "狗特别乖"."""
        tokens = self._tokens(rest)
        if len(tokens) < 2 or tokens[0][0] not in self.lexicon.pets:
            return None
        name = rest[tokens[1][2]: tokens[1][2] + 2]
        # doubled, but not an adverb or a time word doubled ("猫天天拆家", "狗狗刚刚吃完")
        doubled = len(name) == 2 and name[0] == name[1] and tokens[1][0][0] == name[0] and not tokens[1][1].startswith(("t", "d"))
        # 阿 + one character is a pet name jieba cuts apart (阿福 as 阿 + 福)
        nickname = len(name) == 2 and tokens[1][0] == "阿" and len(tokens) > 2 and len(tokens[2][0]) == 1
        if doubled or nickname or tokens[1][0] == name and tokens[1][1] in ZH_NAME_TAGS:
            return tokens[0][0], name
        return None
