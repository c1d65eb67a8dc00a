"""Where someone is from, said by a demonym after the copula: "I'm Brazilian", "my wife is
Korean, so…", "Jonas is Dutch" (nationality).

Only a demonym the lexicon lists (``[states] nationalities``), capitalised, is read, and only
as the whole predicate: "I'm Italian-American", "she's French Canadian" or "he's a Spanish
teacher" say something else, and "I'm Ryan" is a name however it ends.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .shared import Found

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

EN_IS_AFTER = r"(?:'m|\s+am|'s|\s+is|'re|\s+are)\s+(?P<neg>not\s+)?(?:(?:originally|actually|also|both)\s+)?"
EN_AFTER_NATION = r"(?=\s*$|\s*[,.!?;]|\s+(?:but|and|so|though|by\s+birth|lol|haha)\b)"


@functools.lru_cache(maxsize=8)
def demonym_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """ "<who> is <Demonym>", the demonym capitalised and ending the predicate."""
    nations = "|".join(sorted(map(re.escape, lexicon.words("states", "nationalities")), key=len, reverse=True))
    return re.compile(rf"^(?P<who>.*?){EN_IS_AFTER}(?P<nation>(?-i:{nations})){EN_AFTER_NATION}", re.IGNORECASE)


class OriginRules:
    lexicon: Lexicon

    def _origin(self, clause: str, turn: Turn) -> Found | None:
        if (m := demonym_pattern(self.lexicon).match(clause)) is None:
            return None
        region, negated = self._clean_before_verb(m["who"])
        subject = self._subject(region, turn) if region else None
        return Found(subject, "nationality", m["nation"], negated or bool(m["neg"])) if subject else None
