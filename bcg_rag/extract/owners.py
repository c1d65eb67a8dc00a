"""Who owns a company, said as a sale or a takeover: "Zephra sold Loomwell to a startup
called Quillbase", "Quillbase acquired Loomwell", "Loomwell got bought by Quillbase",
"星澜被腾讯收购了" (is_owned_by, said as a change: the new owner replaces the old).

Only names are read: in English both companies capitalised and the buyer no pronoun, and an
active "bought" not at all ("Mom bought Nintendo Switch games"); in Chinese a company that is
a noun phrase, not "我们公司" (the speaker's unnamed employer is ``employer.py``'s).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .shared import Found

if TYPE_CHECKING:
    from .lexicon import Lexicon
    from .turn import Turn

OWNED_BY = "is_owned_by"
ORG = r"(?-i:[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})"
# "some startup called Quillbase", "a fund named Arbor": the description before the name
CALLED = r"(?:(?:a|an|some|this|that)\s+(?:[a-z-]+\s+){0,2}?(?:called|named)\s+)?"
EN_SOLD_TO = re.compile(
    rf"^(?:.*?\s)??(?P<seller>{ORG})\s+(?:just\s+|finally\s+|has\s+|have\s+)?sold\s+(?P<company>{ORG})\s+to\s+{CALLED}(?P<buyer>{ORG})",
    re.IGNORECASE)
EN_ACQUIRED = re.compile(
    rf"^(?:.*?\s)??(?P<buyer>{ORG})\s+(?:just\s+|finally\s+|has\s+|have\s+)?(?:acquired|took\s+over|bought\s+out)\s+(?P<company>{ORG})",
    re.IGNORECASE)
EN_BOUGHT_BY = re.compile(
    rf"^(?:.*?\s)??(?P<company>{ORG})\s+(?:was|got|has\s+been|just\s+got|is\s+being)\s+(?:acquired|bought(?:\s+out)?|taken\s+over)"
    rf"\s+by\s+{CALLED}(?P<buyer>{ORG})",
    re.IGNORECASE)
ZH_BOUGHT_BY = re.compile(r"^(?P<company>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:被|让)(?P<buyer>[\u4e00-\u9fffA-Za-z]{2,10}?)给?"
                          r"(?:全资)?(?:收购|并购|买下)了?$")
ZH_NOT_COMPANIES = re.compile(r"^(?:我|你|他|她|咱|我们|他们|她们)")
PRONOUNS = frozenset("i we you he she they it my our his her their this that".split())


class OwnerRules:
    lexicon: Lexicon

    def _company_owner(self, clause: str, turn: Turn) -> Found | None:
        m = EN_SOLD_TO.match(clause) or EN_BOUGHT_BY.match(clause) or EN_ACQUIRED.match(clause)
        if m is not None:
            company, buyer = m["company"].strip(), m["buyer"].strip()
            if buyer.split()[0].casefold() in PRONOUNS or company.split()[0].casefold() in PRONOUNS or company == buyer:
                return None  # "I acquired Spanish": a person's learning, not a company's owner
            return Found(company, OWNED_BY, buyer, False, True)
        if (m := ZH_BOUGHT_BY.match(clause)) is None or ZH_NOT_COMPANIES.match(m["company"]):
            return None
        tokens = self._tokens(m["company"])
        if not tokens or not all(flag.startswith(("n", "eng", "j")) for _, flag, _ in tokens):
            return None
        return Found(m["company"], OWNED_BY, m["buyer"], False, True)
