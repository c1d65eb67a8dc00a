"""Verb phrases joined by "and" under one subject: "I live in Leeds and work at Acme", "I'm
vegetarian and allergic to peanuts", "my coworker Dana is a massive Arsenal fan and won't
shut up about it", "I'm vegetarian, have been since uni, and also deathly allergic to peanuts".

English leaves the subject out of the second phrase. Each phrase is read as a clause of its
own, with the subject said before it (and its "am" / "is" when the second phrase is a state
or a "be ..." phrase of the lexicon: "allergic to", "married to"). Only a subject that
plainly is one is carried: a pronoun, "my <relation>" (with a name), or a capitalised name;
and only before a phrase the lexicon reads (a verb, a "be" phrase or a listed state), so
lists of values ("tea and coffee") are never cut.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .text import english_forms, has_cjk

if TYPE_CHECKING:
    from .lexicon import Lexicon

FILLERS = r"(?:(?:ok|okay|so|btw|honestly|well|yeah|anyway|meanwhile)\s+)*"
SUBJECT = (r"(?P<subject>i|we|he|she|they|(?:my|our)\s+[a-z-]+(?:\s+(?-i:[A-Z][a-z]+))?"
           r"|(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?)")
COPULA = r"(?P<copula>'m|'s|'re|\s+am|\s+is|\s+are)"
LEAD = re.compile(rf"^{FILLERS}{SUBJECT}(?:{COPULA}\b|\s+(?=\S))", re.IGNORECASE)
# "and", "and also", "and still", "and deathly": the join and the adverbs before the phrase
JOIN = re.compile(r"\s+and\s+(?P<adverbs>(?:(?:also|still|now|currently|even|just|then|\w+ly)\s+)*)", re.IGNORECASE)
# A second phrase that opens with an auxiliary is a verb phrase too ("... fan and won't shut up about it")
AUXILIARY = re.compile(r"^(?:won't|wont|can't|cant|don't|dont|doesn't|didn't|never|will|would|can|could|should|always|keeps?|has|have|had)\s",
                       re.IGNORECASE)
OPENING_JOIN = re.compile(r"^and\s+(?P<adverbs>(?:(?:also|still|now|currently|even|just|then|\w+ly)\s+)*)", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def _be_phrases(lexicon: Lexicon) -> frozenset[str]:
    """The lexicon's "be ..." verb phrases without their "be": what needs the copula carried."""
    phrases = (p for ps in lexicon.tables.get("predicates", {}).values() for p in ps)
    return frozenset(form.casefold() for p in phrases if p.startswith("be ") for form in english_forms(p[3:]))


def _read_phrase(lexicon: Lexicon, rest: str) -> str | None:
    """ "verb" when ``rest`` opens with a verb of the lexicon, "be" with a "be" phrase or a
    listed state, else None."""
    verb = lexicon.verb_regex.match(rest)
    if verb and verb.group().casefold() in _be_phrases(lexicon):
        return "be"
    if verb or AUXILIARY.match(rest):
        return "verb"
    words = rest.casefold().split()
    if any(" ".join(words[:n]).strip(".,!") in lexicon.states for n in (3, 2, 1)):
        return "be"
    return None


def share_subjects(lexicon: Lexicon, parts: list[str]) -> list[str]:
    """The clauses, with a verb phrase joined by "and" read as a clause of its own under the
    subject said before it (in the same clause, or in an earlier clause of the sentence)."""
    out: list[str] = []
    lead = None  # the last subject (and copula) said in this sentence
    for part in parts:
        if not part or has_cjk(part):
            out.append(part)
            continue
        if (opening := OPENING_JOIN.match(part)) and lead is not None:
            carried = _carried(lexicon, lead, part[opening.end():])
            out.append(carried or part)
            continue
        m = LEAD.match(part)
        lead = m or lead
        pieces = [part]
        if m is not None:
            for join in JOIN.finditer(part, m.end()):
                carried = _carried(lexicon, m, part[join.end():])
                if carried:
                    pieces = [part[: join.start()], carried]
                    break
        out.extend(pieces)
    return out


def _carried(lexicon: Lexicon, lead: re.Match[str], rest: str) -> str | None:
    """``rest`` with the lead's subject (and copula, for a "be" phrase) put before it."""
    kind = _read_phrase(lexicon, rest)
    if kind is None:
        return None
    owned = re.match(r"(?i:my|our)\s+(?P<noun>[a-z-]+)", lead["subject"])
    if owned and not lexicon.relative_regex.fullmatch(owned["noun"]):
        return None  # "My older brother": a subject the lead cut short is carried by the topic, not here
    if kind == "be":
        return f"{lead['subject']}{lead['copula']} {rest}" if lead["copula"] else None
    return f"{lead['subject']} {rest}"
