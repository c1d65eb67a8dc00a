"""What a mention says by itself: "our cat Luna knocked over a plant" says that the
speaker keeps a cat called Luna.

A possessive presupposes what it names, whatever the clause goes on to say about it, so
these claims keep their sign under negation, the past and plans ("my dog Rex won't eat"
still says Rex is the speaker's dog). Only the animals the lexicon lists in ``[mentions]``
are read this way, and only with a name after them: "my dog" alone would stand in for the
message where its name may be said in words no rule reads ("我家狗旺仔"). Kin are not
read this way: "my son Leo" would answer questions about Leo with his name.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import Found
from .text import collapse, phrase_pattern

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .offline import Turn

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


# "我家狗狗豆豆特别怕打雷": the speaker's household, then the animal (a word of its own to jieba).
ZH_OURS = re.compile(r"(?:我们家|我家|家里)的?")
ZH_NAME_TAGS = ("nr", "nz")


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
        return found

    def _zh_pet_named(self, rest: str) -> tuple[str, str] | None:
        """(animal, name) at the start of ``rest``: "狗狗豆豆…" -> (狗狗, 豆豆). A name is two
        characters, doubled (豆豆, 球球) or a word jieba tags a name; not "狗特别乖"."""
        tokens = self._tokens(rest)
        if len(tokens) < 2 or tokens[0][0] not in self.lexicon.pets:
            return None
        name = rest[tokens[1][2]: tokens[1][2] + 2]
        doubled = len(name) == 2 and name[0] == name[1] and tokens[1][0][0] == name[0]
        if doubled or tokens[1][0] == name and tokens[1][1] in ZH_NAME_TAGS:
            return tokens[0][0], name
        return None
