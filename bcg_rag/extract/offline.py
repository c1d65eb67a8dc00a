"""``OfflineExtractor``: rule-based claims from Chinese and English chat; no model, deterministic.

The code knows sentence shapes; the lexicon (``lexicon.toml``) knows the words. A message
is cut into sentences and clauses (``grammar.py``); questions, requests and small talk
are skipped; each remaining clause is read by the rules below (shared), ``en.py``
(English shapes) and ``zh.py`` (Chinese shapes, on jieba's segmentation), from the most
specific shape to the loosest. The clause's mood (hedge, plan, past) sets the stance
and, for plans, the predicate (``plan:<predicate>``): a plan is not a current fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable

from ..errors import InvalidInputError
from ..models import Claim
from .en import EnglishRules
from .grammar import Grammar, clauses, sentences
from .lexicon import Lexicon, default_lexicon, stable_name
from .shared import Found, SharedRules
from .text import EDGE_PUNCTUATION, collapse
from .zh import ChineseRules


@runtime_checkable
class Extractor(Protocol):
    def extract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]: ...


@dataclass
class Turn:
    """Who the pronouns in one message point to, and the names the caller already uses."""

    user_id: str
    speaker_id: str  # what "I" means: the user's id when the user speaks
    user_is_speaker: bool
    entities: dict[str, str]  # casefolded known entity -> the caller's spelling
    other: str | None = None  # the last third-person subject: what "she" / "他" points to
    topic: bool = False  # the previous clause of this sentence was about ``other``
    parsed: list[str] = field(default_factory=list)  # clauses read with confidence (for the cascade)


class OfflineExtractor(EnglishRules, ChineseRules, SharedRules):
    """Rule-based claims from Chinese and English chat messages; no model, deterministic."""

    def __init__(self, lexicon: Lexicon | None = None):
        self.lexicon = lexicon or default_lexicon()
        self.grammar = Grammar(self.lexicon)

    def extract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]:
        return self.read(
            text, user_id=user_id, speaker=speaker, context=context,
            known_predicates=known_predicates, known_entities=known_entities,
        )[0]

    def read(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> tuple[list[Claim], Reading]:
        """The claims, and how the message was read (what the cascade needs to decide)."""
        if not isinstance(text, str):
            raise InvalidInputError(f"text must be a string, got {type(text).__name__}")
        if not isinstance(user_id, str) or not user_id.strip():
            raise InvalidInputError(f"user_id must be a non-empty string, got {user_id!r}")
        user_is_speaker = speaker == "user"
        turn = Turn(
            user_id=user_id,
            speaker_id=user_id if user_is_speaker or not speaker else speaker,
            user_is_speaker=user_is_speaker,
            entities={collapse(e).casefold(): e for e in known_entities if isinstance(e, str) and e.strip()},
        )
        claims: list[Claim] = []
        seen: set[tuple[str, str, str]] = set()
        reading = Reading()
        for sentence in sentences(collapse(text)):
            turn.other = None if sentence.question else turn.other
            turn.topic = False
            for clause in clauses(sentence.text):
                clause = clause.strip(EDGE_PUNCTUATION)
                if not clause:
                    continue
                if self.grammar.says_nothing(sentence, clause):
                    reading.silent += 1
                    continue
                reading.statements += 1
                mood = self.grammar.mood(clause)
                found = self._parse_clause(mood.clause, turn)
                turn.topic = bool(found) and all(f.subject == turn.other for f in found)
                if found:
                    reading.parsed += 1
                else:
                    reading.unread.append(clause)
                for f in found:
                    claim = self._claim(f, mood, turn, known_predicates, context)
                    key = (claim.subject, claim.predicate, claim.value)
                    if key in seen:  # "I love tea, I love tea" is one claim
                        continue
                    seen.add(key)
                    claims.append(claim)
        return claims, reading

    def _claim(self, found: Found, mood: Any, turn: Turn, known_predicates: Sequence[str], context: str | None) -> Claim:
        lex = self.lexicon
        value = turn.entities.get(found.value.casefold()) or lex.value_of(found.value)
        predicate = found.predicate
        moved = lex.value_predicates.get(value.casefold())
        if moved and predicate in moved[1]:  # "likes americano" -> "prefers_coffee_type"
            predicate = moved[0]
        predicate = stable_name(predicate, known_predicates, lex)
        negated = found.negated
        if mood.past and not mood.plan and not found.changed:
            negated = True  # "I used to live in Paris": Paris no longer holds
        stance = lex.negated if negated else lex.asserted
        if mood.plan and not found.changed:
            predicate = "plan:" + predicate  # a plan is not a current fact; it never competes with one
            stance *= lex.hedge_factor
        elif mood.hedged:
            stance *= lex.hedge_factor
        return Claim(found.subject, predicate, value, stance, context=context)

    def extract_batch(self, texts: Sequence[str], **kwargs: Any) -> list[list[Claim]]:
        """One claim list per text (same keywords as ``extract``); mirrors ``LLMExtractor``."""
        return [self.extract(text, **kwargs) for text in texts]

    # Each rule reads one clause and returns what it says (a Found or a list), or None
    # to let the next try. The order goes from the most specific shape to the loosest.
    def _parse_clause(self, clause: str, turn: Turn, reported: bool = True) -> list[Found]:
        rules = (
            self._change_from_to, self._job, self._attribute, self._verb, self._copula,
            self._relation, self._english_relation,
        )
        for rule in rules:
            found = rule(clause, turn)
            if found:
                found = found if isinstance(found, list) else [found]
                for f in found:
                    if f.subject not in (turn.user_id, turn.speaker_id):
                        turn.other = f.subject
                return found
        if reported:  # "A colleague says the user works at X": read what was said
            found = self._reported(clause, turn)
            return [found] if found else []
        return []


@dataclass
class Reading:
    """How a message was read: clauses that state something, those parsed, those skipped."""

    statements: int = 0
    parsed: int = 0
    silent: int = 0  # questions, requests, small talk
    unread: list[str] = field(default_factory=list)  # statements no rule read

    @property
    def confident(self) -> bool:
        """Every clause that states something gave claims (or nothing stated anything)."""
        return self.parsed >= self.statements
