"""What a mention says by itself: "my brother Tom got engaged" says that Tom is the
speaker's brother, "my parrot Kiwi learned to say hello" that the speaker keeps a parrot
called Kiwi, "my dog" that the speaker has a dog.

A possessive presupposes what it names, whatever the clause goes on to say about it, so
these claims keep their sign under negation, the past and plans ("my son Leo won't eat
vegetables" still says Leo is a son). Only the kin and animals the lexicon lists in
``[mentions]`` are read this way, and kin only with a name: "my daughter" alone introduces
nobody new to remember (what is said about her is read as hers), and everyone has parents.
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

# Words that may stand between "my" and the kin word or animal: "my little sister", "our old dog".
EN_BETWEEN = r"(?:(?:little|baby|big|older|younger|elder|eldest|oldest|youngest|twin|old|new|two|three|sweet)\s+)?"
ZH_OWNERS = ("我", "我们", "咱", "咱们", "我家", "我们家", "咱家")


@functools.lru_cache(maxsize=8)
def mention_patterns(lexicon: Lexicon) -> tuple[dict[str, str], set[str], re.Pattern[str]]:
    """(relation word -> predicate, pet words, the English "my <kin or pet> [Name]" pattern)."""
    kin = {relation: predicate for predicate, relations in lexicon.tables.get("mentions", {}).items()
           if predicate != "pets" for relation in relations}
    pets = {collapse(w).casefold() for w in lexicon.words("mentions", "pets")}
    words = [surface for surface, relation in lexicon.relatives.items() if relation in kin] + list(pets)
    english = re.compile(
        rf"(?<![\w'])(?:my|our)\s+{EN_BETWEEN}(?P<word>{phrase_pattern([w for w in words if w.isascii()])})(?![-'])"
        r"(?:\s*,?\s+(?P<name>(?-i:[A-Z][a-z][\w'-]*))(?![\w'-]))?",
        re.IGNORECASE,
    )
    return kin, pets, english


class MentionRules:
    lexicon: Lexicon

    def _mentions(self, clause: str, turn: Turn) -> list[Found]:
        """The speaker's named kin and pets a clause names with "my" / "我": (speaker, has_sibling, Tom),
        (speaker, has, parrot), (speaker, pet_name, Kiwi)."""
        if not turn.user_is_speaker:
            return []
        kin, pets, english = mention_patterns(self.lexicon)
        found: list[Found] = []
        for m in english.finditer(clause):
            word = collapse(m["word"]).casefold()
            name = m["name"] if m["name"] and m["name"].casefold() not in self.lexicon.not_names else None
            found += self._mentioned(word, name, kin, pets, turn)
        if any("\u4e00" <= ch <= "\u9fff" for ch in clause):
            tokens = self._tokens(clause)
            for i, (word, _, _) in enumerate(tokens[:-1]):
                if word not in ZH_OWNERS:
                    continue
                j = i + 2 if tokens[i + 1][0] == "的" and i + 2 < len(tokens) else i + 1
                after = tokens[j][0]
                pet = next((p for p in pets if after == p or after.startswith(p) and tokens[j][1].startswith("v")), None)
                found += self._mentioned(pet or after, None, kin, pets, turn)
        return found

    def _mentioned(self, word: str, name: str | None, kin: dict[str, str], pets: set[str], turn: Turn) -> list[Found]:
        if word in pets:
            return [Found(turn.speaker_id, "has", word)] + ([Found(turn.speaker_id, "pet_name", name)] if name else [])
        relation = self.lexicon.relatives.get(word)
        if relation not in kin or name is None:
            return []  # "my daughter" alone: read through what is said about her
        return [Found(turn.speaker_id, kin[relation], name)]
