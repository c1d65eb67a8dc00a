"""Claim extraction: turn one chat message into ``Claim``s.

Two extractors share the ``Extractor`` protocol:

* ``OfflineExtractor``: rules over the word lists in ``lexicon.toml``. No model,
  deterministic, Chinese and English. The code knows sentence shapes ("<subject>
  <verb> <value>", "my X is Y", "The X of Y is Z"); the lexicon knows the words,
  so users teach it new verbs and values without touching code.
* ``LLMExtractor``: any LlamaIndex LLM asked for JSON, validated, retried.

``restatement_diff`` and ``statement_key`` are the fallback for messages no rule
understands: two statements that differ in one span are two values of one slot.

A message nothing understands gives ``[]``; the caller still stores it as evidence.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence, runtime_checkable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - pyproject installs tomli there
    import tomli as tomllib

from .errors import ConfigError, ExtractionError, InvalidInputError
from .models import Claim

if TYPE_CHECKING:
    from llama_index.core.llms import LLM

DEFAULT_LEXICON_PATH = Path(__file__).with_name("lexicon.toml")

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR = re.compile(f"[{CJK}]")
COPULAS = ("is", "are", "was", "were")
# English negated copulas name the verb they negate; the lexicon lists them as negations.
CONTRACTED_COPULAS = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were"}
# Characters that end a value or a clause without being part of it.
EDGE_PUNCTUATION = " \t.,!?;:。，！？；：、…~\"“”‘’()（）[]【】"
# A Chinese subject other than a name: pronouns and demonstratives start with these.
CJK_NON_NAME_START = "我你您他她它这那谁哪"


# --------------------------------------------------------------------------- text helpers


def has_cjk(text: str) -> bool:
    return CJK_CHAR.search(text) is not None


def collapse(text: str) -> str:
    """Single spaces, no edge whitespace; curly apostrophes made straight so "don’t" == "don't"."""
    return " ".join(text.replace("’", "'").split())


def name_key(name: str) -> str:
    """What two spellings of one name share: "Lives In", "lives_in", "lives-in" -> "livesin"."""
    return re.sub(r"[\W_]+", "", name.casefold())


def snake_name(text: str) -> str:
    """A readable predicate from a phrase: "Plays the  position of" -> "plays_the_position_of"."""
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)*", text.lower())
    return "_".join(words)


def english_forms(phrase: str) -> list[str]:
    """The regular inflections of a phrase's first English word: "live in" -> lives/living/lived in.

    Only regular rules: irregular forms ("drank") are listed in the lexicon instead.
    """
    first, _, rest = phrase.partition(" ")
    if not (first.isascii() and first.isalpha() and len(first) > 1):
        return [phrase]
    if first.endswith("e"):
        forms = [first, first + "s", first[:-1] + "ing", first + "d"]
    elif first.endswith("y") and first[-2] not in "aeiou":
        forms = [first, first[:-1] + "ies", first + "ing", first[:-1] + "ied"]
    elif first.endswith(("s", "sh", "ch", "x", "o")):
        forms = [first, first + "es", first + "ing", first + "ed"]
    else:
        forms = [first, first + "s", first + "ing", first + "ed"]
    return [f"{form} {rest}".strip() for form in forms]


def third_person(verb: str) -> str:
    """ "play" -> "plays", so "Alex doesn't play for X" names the slot "Alex plays for X" names."""
    return english_forms(verb)[1] if verb.isascii() and verb.isalpha() else verb


def phrase_pattern(phrases: Sequence[str]) -> str:
    """A regex alternation matching any phrase; English ones only as whole words.

    Longest first, so at one position "喜欢喝" wins over "喜欢" and "no longer" over "no".
    A lookahead on the possible first characters lets a search skip most positions at once.
    """
    parts, firsts = [], set()
    for phrase in sorted(set(phrases), key=lambda p: (-len(p), p)):
        body = r"\s+".join(re.escape(word) for word in phrase.split())
        if re.match(r"[A-Za-z0-9']", phrase):
            body = r"(?<![A-Za-z0-9'])" + body
        if re.search(r"[A-Za-z0-9']$", phrase):
            body += r"(?![A-Za-z0-9'])"
        parts.append(body)
        firsts.update({phrase[0].lower(), phrase[0].upper()})
    if not parts:
        return r"(?!)"  # never matches: an empty list finds nothing
    return "(?=[" + "".join(re.escape(c) for c in sorted(firsts)) + "])(?:" + "|".join(parts) + ")"


class EdgePattern:
    """A pattern anchored at one end of the text, searched only where a match can start.

    ``search`` is what ``re.Pattern.search`` would find on collapsed text (single spaces),
    without trying every position of a long text.
    """

    def __init__(self, pattern: re.Pattern[str], reach: int | None):
        self.pattern = pattern
        self.reach = reach  # None: anchored at the start; else the longest match at the end

    def search(self, text: str) -> re.Match[str] | None:
        if self.reach is None:
            return self.pattern.match(text)
        return self.pattern.search(text, max(0, len(text) - self.reach))

    match = search


class PhraseSet:
    """One word list, compiled for "anywhere", "at the start" and "at the end" searches."""

    def __init__(self, phrases: Sequence[str]):
        body = phrase_pattern(phrases)
        self.anywhere = re.compile(body, re.IGNORECASE)
        self.lead = EdgePattern(re.compile(rf"^\s*(?:{body})\s*", re.IGNORECASE), None)
        # A trailing phrase starts within its own length (plus a few spaces) of the end.
        reach = max((len(collapse(p)) for p in phrases), default=0) + 4
        self.trail = EdgePattern(re.compile(rf"\s*(?:{body})\s*$", re.IGNORECASE), reach)


# ------------------------------------------------------------------------------ lexicon

# Top-level tables a lexicon may have; an unknown one is most likely a typo.
LEXICON_SECTIONS = frozenset(
    {
        "stance", "defaults", "predicates", "relations", "cessation", "negation", "hedges",
        "fillers", "time_phrases", "subjects", "grammar", "values", "value_predicates", "attributes",
    }
)


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"cannot read lexicon {path}: {e}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"lexicon {path} is not valid TOML: {e}") from e


def merge_tables(base: dict[str, Any], extra: dict[str, Any], where: str = "") -> dict[str, Any]:
    """``base`` with ``extra`` merged in: lists unioned (base order first), tables merged, scalars replaced."""
    merged = copy.deepcopy(base)
    for key, value in extra.items():
        old = merged.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            merged[key] = merge_tables(old, value, f"{where}{key}.")
        elif isinstance(old, list) and isinstance(value, list):
            merged[key] = old + [v for v in value if v not in old]
        elif old is not None and isinstance(old, (dict, list)) != isinstance(value, (dict, list)):
            raise ConfigError(f"lexicon {where}{key}: cannot merge {type(value).__name__} into {type(old).__name__}")
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def check_tables(tables: dict[str, Any]) -> None:
    """Reject what would make the extractor fail later, naming the bad entry."""
    if not isinstance(tables, dict):
        raise ConfigError(f"a lexicon is a table, got {type(tables).__name__}")
    unknown = sorted(set(tables) - LEXICON_SECTIONS)
    if unknown:
        raise ConfigError(f"unknown lexicon section(s) {unknown}; known: {sorted(LEXICON_SECTIONS)}")

    def check(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                check(inner, f"{where}.{key}")
        elif isinstance(value, list):
            for item in value:
                if not isinstance(item, str) or not item.strip():
                    raise ConfigError(f"lexicon {where}: entries must be non-empty strings, got {item!r}")
        elif where.startswith("stance."):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not -1 <= value <= 1:
                raise ConfigError(f"lexicon {where} must be a number in [-1, 1], got {value!r}")
        elif not where.startswith("defaults."):
            raise ConfigError(f"lexicon {where} must be a list of strings, got {value!r}")
        elif not isinstance(value, str) or not value.strip():
            raise ConfigError(f"lexicon {where} must be a non-empty string, got {value!r}")

    for section, value in tables.items():
        if not isinstance(value, dict):
            raise ConfigError(f"lexicon section [{section}] must be a table")
        check(value, section)


class Lexicon:
    """The word lists ``OfflineExtractor`` matches, indexed once at construction.

    Treat it as read-only: ``extend`` returns a new lexicon, so an extractor built
    on the old one (and the shared default) never changes under it.
    """

    def __init__(self, tables: dict[str, Any]):
        check_tables(tables)
        self.tables = tables
        self._index()

    @classmethod
    def load(cls, path: str | Path | None = None, *, extend_default: bool = True) -> Lexicon:
        """The shipped lexicon, or it extended by the TOML file at ``path``.

        With ``extend_default=False`` the file replaces the shipped lexicon instead.
        """
        if path is None:
            return default_lexicon()
        user_tables = read_toml(Path(path))
        if not extend_default:
            return cls(user_tables)
        return default_lexicon().extend(user_tables)

    def extend(self, extra: dict[str, Any]) -> Lexicon:
        """A new lexicon with ``extra`` (same shape as lexicon.toml) merged in."""
        check_tables(extra)
        return Lexicon(merge_tables(self.tables, extra))

    def words(self, section: str, key: str) -> list[str]:
        return list(self.tables.get(section, {}).get(key, []))

    def _index(self) -> None:
        t = self.tables
        stance = t.get("stance", {})
        self.asserted = float(stance.get("asserted", 1.0))
        self.negated = float(stance.get("negated", -0.8))
        self.hedge_factor = float(stance.get("hedge_factor", 0.5))
        self.cessation_predicate = t.get("defaults", {}).get("cessation_predicate", "consumes")

        # Verb phrases: surface (casefolded) -> (kind, predicate). Kind "verb" states its
        # predicate; kind "stop" negates whatever its object names.
        self.verbs: dict[str, tuple[str, str]] = {}
        self.frames: list[tuple[re.Pattern[str], str]] = []  # "在{}工作": the value sits inside
        for predicate, phrases in sorted(t.get("predicates", {}).items()):
            for phrase in phrases:
                if "{}" in phrase:
                    before, _, after = phrase.partition("{}")
                    frame = re.escape(before.strip()) + r"\s*(.+?)\s*" + re.escape(after.strip())
                    self.frames.append((re.compile(frame, re.IGNORECASE), predicate))
                    continue
                for form in english_forms(phrase):
                    self.verbs.setdefault(collapse(form).casefold(), ("verb", predicate))
        for phrase in self.words("cessation", "phrases"):
            for form in english_forms(phrase):
                self.verbs.setdefault(collapse(form).casefold(), ("stop", ""))
        self.verb_regex = re.compile(phrase_pattern(list(self.verbs)), re.IGNORECASE)

        self.relations: dict[str, str] = {}  # third-person-only verb phrases
        for predicate, phrases in sorted(t.get("relations", {}).items()):
            for phrase in phrases:
                for form in english_forms(phrase):
                    self.relations.setdefault(collapse(form).casefold(), predicate)
        self.relation_regex = re.compile(phrase_pattern(list(self.relations)), re.IGNORECASE)

        self.negation = PhraseSet(self.words("negation", "phrases"))
        self.hedges = PhraseSet(self.words("hedges", "phrases"))
        self.time = PhraseSet(self.words("time_phrases", "phrases"))
        self.before_verb = PhraseSet(self.words("fillers", "before_verb"))
        self.around_value = PhraseSet(self.words("fillers", "around_value"))
        self.activity_verbs = PhraseSet(self.words("fillers", "activity_verbs")).lead
        self.value_stops = PhraseSet(self.words("fillers", "value_stops")).anywhere
        self.adverbs = {w.casefold() for w in self.words("fillers", "before_verb")}

        self.first_person = {w.casefold() for w in self.words("subjects", "first_person")}
        self.second_person = {w.casefold() for w in self.words("subjects", "second_person")}
        self.user_references = {collapse(w).casefold() for w in self.words("subjects", "user")}
        # "The user's ...": the longest reference a clause starts with, as a whole word.
        self.user_lead = re.compile(rf"^(?:{phrase_pattern(self.words('subjects', 'user'))})(?=\s|'|$)", re.IGNORECASE)
        self.not_names = {w.casefold() for w in self.words("subjects", "not_names")}
        self.pronoun_values = {w.casefold() for w in self.words("subjects", "pronoun_values")}
        self.relation_verbs = {w.casefold() for w in self.words("grammar", "relation_verbs")}
        self.prepositions = {w.casefold() for w in self.words("grammar", "prepositions")}
        reporting = [form for phrase in self.words("grammar", "reporting_verbs") for form in english_forms(phrase)]
        self.reporting = re.compile(phrase_pattern(reporting), re.IGNORECASE)
        self.preference = PhraseSet(self.words("grammar", "preference_markers")).lead
        self.locatives = PhraseSet(self.words("grammar", "locatives"))
        connectors = phrase_pattern(self.words("grammar", "name_connectors"))
        # A capitalised name, possibly with "of"/"de"-style words inside: "Bank of England".
        self.name_run = re.compile(rf"[A-Z][\w'.-]*(?:\s+(?:(?:{connectors})\s+)?[A-Z][\w'.-]*)*")

        self.values: dict[str, str] = {}  # surface (casefolded) -> canonical value
        for canonical, surfaces in sorted(t.get("values", {}).items()):
            for surface in [canonical, *surfaces]:
                self.values.setdefault(collapse(surface).casefold(), canonical)
        # canonical value -> (predicate it moves to, predicates it moves from)
        self.value_predicates: dict[str, tuple[str, frozenset[str]]] = {}
        for predicate, rule in sorted(t.get("value_predicates", {}).items()):
            if not isinstance(rule, dict):
                raise ConfigError(f"lexicon [value_predicates.{predicate}] must be a table with values and from")
            for value in rule.get("values", []):
                self.value_predicates[value.casefold()] = (predicate, frozenset(rule.get("from", [])))
        self.attributes: dict[str, str] = {}  # surface (casefolded) -> attribute name
        for name, surfaces in sorted(t.get("attributes", {}).items()):
            for surface in surfaces:
                self.attributes.setdefault(collapse(surface).casefold(), name)

    def predicate_names(self) -> frozenset[str]:
        """The predicates this lexicon defines: their cardinality is the policy's to say
        (functional or not), never something to guess from how sentences repeat."""
        t = self.tables
        names = set(t.get("predicates", {})) | set(t.get("relations", {})) | set(t.get("value_predicates", {}))
        names.add(t.get("defaults", {}).get("cessation_predicate", "consumes"))
        return frozenset(names)

    def predicate_of(self, phrase: str) -> str | None:
        """The canonical predicate a verb phrase states, or None when the lexicon does not know it."""
        key = collapse(phrase.replace("_", " ")).casefold()
        kind_predicate = self.verbs.get(key)
        if kind_predicate and kind_predicate[0] == "verb":
            return kind_predicate[1]
        return self.relations.get(key)

    def value_of(self, value: str) -> str:
        return self.values.get(collapse(value).casefold(), value)

    def attribute_of(self, phrase: str) -> str:
        """The lexicon's name for an attribute phrase; "最爱的颜色" finds "最喜欢的颜色"'s name too."""
        key = collapse(phrase).casefold()
        if key in self.attributes:
            return self.attributes[key]
        if marker := self.preference.match(key):
            rest = key[marker.end():]
            for other in self.words("grammar", "preference_markers"):
                variant = collapse(f"{other} {rest}" if other.isascii() else other + rest).casefold()
                if variant in self.attributes:
                    return self.attributes[variant]
        return snake_name(phrase)


@functools.lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The shipped lexicon, read once per process (every default extractor shares it)."""
    return Lexicon(read_toml(DEFAULT_LEXICON_PATH))


def stable_name(name: str, known: Sequence[str], lexicon: Lexicon | None = None) -> str:
    """``name`` spelled as the caller already spells it, so one slot keeps one name.

    A known name matches when it differs only in case/spaces/underscores, or when the
    lexicon says both are the same predicate ("live in" and "lives_in").
    """
    key = name_key(name)
    canonical = name_key(lexicon.predicate_of(name) or name) if lexicon else key
    for candidate in known:
        if name_key(candidate) == key:
            return candidate
        if lexicon and name_key(lexicon.predicate_of(candidate) or candidate) == canonical:
            return candidate
    return name


# ------------------------------------------------------------------- offline extraction


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


@dataclass(frozen=True)
class Turn:
    """Who the pronouns in one message point to, and the names the caller already uses."""

    user_id: str
    speaker_id: str  # what "I" means: the user's id when the user speaks
    user_is_speaker: bool
    entities: dict[str, str]  # casefolded known entity -> the caller's spelling


@dataclass(frozen=True)
class Found:
    """What one clause says, before value normalisation and stance."""

    subject: str
    predicate: str
    value: str
    negated: bool = False


# Sentence shapes for attributes. The words here are grammar, not vocabulary.
# "my X is Y"; "your X is Y" is about the user when the assistant says it.
EN_MY_ATTRIBUTE = re.compile(r"^(?P<owner>my|your)\s+(?P<attr>.+?)\s+(?:is|are|was|were)\s+(?P<value>.+)$", re.IGNORECASE)
EN_DETERMINER_OWNER = {"my": "i", "your": "you"}
EN_OF_ATTRIBUTE = re.compile(
    r"^the\s+(?P<attr>[^,]+?)\s+of\s+(?P<owner>.+?)\s+(?:is|are|was|were)\s+(?P<value>.+)$", re.IGNORECASE
)
# The attribute starts lower-case, so "Grey's Anatomy's broadcaster" finds the right "'s".
EN_POSSESSIVE = re.compile(r"^(?P<owner>.+?)'s\s+(?P<attr>[a-z][\w\s-]*?)\s+(?:is|are|was|were)\s+(?P<value>.+)$")
# "<owner>的<X>是<Y>": "我的名字是…", "小张的生日是…"; the owner may carry a verb phrase
# that makes the attribute: "老王最喜欢的颜色是…" -> owner 老王, attribute 最喜欢的颜色.
ZH_ATTRIBUTE = re.compile(r"^(?P<head>.+?)的(?P<attr>.+?)(?P<copula>不是|是)(?P<value>.+)$")

# Clause boundaries: sentence ends, commas, and "but"-style joins (each side is its own claim).
# A period after a lone capital is an initial ("George W. Bush"), not the end of a clause.
CLAUSE_BREAK = re.compile(r"(?<!\b(?-i:[A-Z]))[.!?;]+(?=\s|$)|[。！？；，\n]+|,\s+|\s+but\s+|但是|不过|可是", re.IGNORECASE)
# A sentence that ends in a question mark.
QUESTION = re.compile(r"[^.!?;。！？；]*[?？]+")
# Time phrases the word list cannot enumerate: "in 2019", "2019年", "3 weeks ago".
YEAR_TAIL = re.compile(r"\s*(?:\b(?:in|since|from)\s+\d{4}|\d{4}\s*年)\s*$", re.IGNORECASE)
AGO_TAIL = re.compile(r"\s*\b(?:\d+|a|an|one|two|three|few|several)\s+\w+?s?\s+ago\s*$", re.IGNORECASE)
# Durations ending a value are time, not value: "Paris for 3 years", "Acme for a few months".
DURATION_TAIL = re.compile(
    r"(?<=\S)\s+(?:for|since)\s+(?:(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|many)\s+)?"
    r"(?:more\s+)?(?:second|minute|hour|day|week|month|year|decade)s?\s*$",
    re.IGNORECASE,
)
# "北京三年了" -> "北京": a counted span of time ends the value. Months need 个 ("三个月"),
# since "五月" is May; a whole value is never stripped ("三年" alone stays).
ZH_DURATION = r"[\d一二三四五六七八九十百两几半多好]+(?:个)?多?(?:秒钟?|分钟|小时|天|周|星期|个月|年)多?(?:了|啦)?"
ZH_DURATION_TAIL = re.compile(rf"(?<=[^\d一二三四五六七八九十百两几半多好]){ZH_DURATION}$")
MAX_VALUE_WORDS = 6  # longer "values" are clauses the rules misread, not things
MAX_VALUE_CJK_CHARS = 12


class OfflineExtractor:
    """Rule-based claims from Chinese and English chat messages; no model, deterministic."""

    def __init__(self, lexicon: Lexicon | None = None):
        self.lexicon = lexicon or default_lexicon()

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
        lex = self.lexicon
        claims: list[Claim] = []
        seen: set[tuple[str, str, str]] = set()
        # A question asserts nothing: "我住在哪里？" must not become lives_in = 哪里.
        for clause in CLAUSE_BREAK.split(QUESTION.sub(" ", collapse(text))):
            clause = clause.strip(EDGE_PUNCTUATION)
            if not clause:
                continue
            hedged = lex.hedges.anywhere.search(clause) is not None
            if hedged:
                clause = collapse(lex.hedges.anywhere.sub(" ", clause))
                # Chinese has no spaces: don't leave one where "可能" was ("颜色可能是" -> "颜色是").
                clause = re.sub(rf"(?<=[{CJK}])\s+(?=[{CJK}])", "", clause)
            found = self._parse_clause(clause, turn)
            if found is None:
                continue
            value = turn.entities.get(found.value.casefold()) or lex.value_of(found.value)
            predicate = found.predicate
            moved = lex.value_predicates.get(value.casefold())
            if moved and predicate in moved[1]:  # "likes americano" -> "prefers_coffee_type"
                predicate = moved[0]
            predicate = stable_name(predicate, known_predicates, lex)
            stance = lex.negated if found.negated else lex.asserted
            if hedged:
                stance *= lex.hedge_factor
            key = (found.subject, predicate, value)
            if key in seen:  # "I love tea, I love tea" is one claim
                continue
            seen.add(key)
            claims.append(Claim(found.subject, predicate, value, stance, context=context))
        return claims

    def extract_batch(self, texts: Sequence[str], **kwargs: Any) -> list[list[Claim]]:
        """One claim list per text (same keywords as ``extract``); mirrors ``LLMExtractor``."""
        return [self.extract(text, **kwargs) for text in texts]

    # Each rule reads one clause and returns what it says, or None to let the next try.
    # The order goes from the most specific shape to the loosest.
    def _parse_clause(self, clause: str, turn: Turn, reported: bool = True) -> Found | None:
        for rule in (self._attribute, self._verb, self._relation, self._english_relation):
            found = rule(clause, turn)
            if found is not None:
                return found
        if reported:  # "A colleague says the user works at X": read what was said
            return self._reported(clause, turn)
        return None

    def _reported(self, clause: str, turn: Turn) -> Found | None:
        """The clause after a reporting verb ("says", "told me", "说"), when the reporter is short."""
        for m in self.lexicon.reporting.finditer(clause):
            reporter, said = clause[: m.start()].strip(), clause[m.end():].strip(EDGE_PUNCTUATION)
            said = re.sub(r"^that\s+", "", said, flags=re.IGNORECASE)
            if len(reporter.split()) > 4 or len(CJK_CHAR.findall(reporter)) > 6 or not said:
                continue
            if found := self._parse_clause(said, turn, reported=False):
                return found
        return None

    def _attribute(self, clause: str, turn: Turn) -> Found | None:
        """ "my X is Y" / "我的X是Y" -> attr:X; "The X of Y is Z" / "Y's X is Z" / "Y的X是Z" -> (Y, X, Z).

        The user's attributes and tastes ("favorite ...", "老王最喜欢的…") are "attr:X" whoever
        has them, so "my favorite color", "the user's favorite color" and "Mike's favorite
        color" name one slot.
        """
        lex = self.lexicon
        if (early := lex.time.lead.match(clause)) and early.end() < len(clause):  # "These days my favorite …"
            clause = clause[early.end():]
        negated = False
        if m := EN_MY_ATTRIBUTE.match(clause):
            (owner, personal), attr = self._owner(EN_DETERMINER_OWNER[m["owner"].casefold()], turn), m["attr"]
        elif m := EN_OF_ATTRIBUTE.match(clause) or EN_POSSESSIVE.match(clause):
            (owner, personal), attr = self._owner(m["owner"], turn), m["attr"]
        elif m := ZH_ATTRIBUTE.match(clause):
            (owner, personal), attr = self._zh_owner(m["head"], m["attr"], turn)
            negated = m["copula"] == "不是"
        else:
            return self._zh_located(clause, turn)
        value = m["value"]
        if owner is None:
            return None
        return self._attribute_claim(owner, personal, attr, value, negated)

    def _attribute_claim(self, owner: str, personal: bool, attr: str, value: str, negated: bool) -> Found | None:
        lex = self.lexicon
        attr, attr_negated = self._clean_attribute(attr)  # "颜色现在是", "名字不再是", "color now is"
        negated = negated or attr_negated
        if not_lead := lex.negation.lead.match(value):  # "is not blue", "is no longer"
            value, negated = value[not_lead.end():], True
        value = self._clean_value(value)
        if (place := lex.locatives.lead.match(value)) and value[place.end():].strip():
            value = self._clean_value(value[place.end():])  # "is in Munich" -> "Munich"
        if not attr or not self._usable(value):
            return None
        name = lex.attribute_of(attr)
        if personal or lex.preference.match(attr):
            name = "attr:" + name
        return Found(owner, name, value, negated)

    def _zh_owner(self, head: str, attr: str, turn: Turn) -> tuple[tuple[str | None, bool], str]:
        """Who has the attribute in "<head>的<attr>", and the attribute's full phrase.

        A verb in the head starts a relative clause that belongs to the attribute:
        "老王最喜欢" + "颜色" -> owner 老王, attribute "最喜欢的颜色" (personal: a taste).
        """
        lex = self.lexicon
        verb = lex.verb_regex.search(head)
        if verb and verb.start() > 0:
            region, _ = self._clean_before_verb(head[: verb.start()])
            at = head.find(region) if region else -1
            owner = self._owner(region, turn)[0] if at >= 0 else None
            if owner is not None:
                return (owner, True), head[at + len(region):] + "的" + attr
        return self._owner(head, turn), attr

    def _zh_located(self, clause: str, turn: Turn) -> Found | None:
        """ "X的总部在Y" / "X的总部位于Y": the attribute's value is a place."""
        lex = self.lexicon
        head, of, tail = clause.partition("的")
        if not (of and head and has_cjk(clause)) or any(pattern.search(clause) for pattern, _ in lex.frames):
            return None  # "小张的妈妈在医院工作" is a verb frame, not a place
        place = self._search_outside(lex.locatives.anywhere, tail, self._time_spans(tail))
        if place is None or place.start() == 0 or lex.verb_regex.search(tail, place.end()):
            return None
        (owner, personal), attr = self._zh_owner(head, tail[: place.start()], turn)
        if owner is None:
            return None
        return self._attribute_claim(owner, personal, attr, tail[place.end():], False)

    def _verb(self, clause: str, turn: Turn) -> Found | None:
        """<subject> [adverbs] [negation] <lexicon verb> <value>, first or third person.

        Verb matches are tried left to right until the words before one name a subject
        ("王爱华喜欢茶": "爱" is inside the name); a match inside a time word ("现在" holds 在)
        is no verb.
        """
        lex = self.lexicon
        blocked = self._time_spans(clause) if has_cjk(clause) else ()
        pos = 0
        for _ in range(3):  # a few tries keep a long message cheap
            verb = self._search_outside(lex.verb_regex, clause, blocked, pos)
            frame = min(
                (
                    (m, predicate)
                    for pattern, predicate in lex.frames
                    if (m := self._search_outside(pattern, clause, blocked, pos))
                ),
                key=lambda found: found[0].start(),
                default=None,
            )
            if frame and (verb is None or frame[0].start() <= verb.start()):
                match, kind, predicate, value = frame[0], "verb", frame[1], frame[0].group(1)
            elif verb:
                match, value = verb, clause[verb.end():]
                kind, predicate = lex.verbs[collapse(verb.group()).casefold()]
            else:
                return None
            found = self._verb_claim(clause, match, kind, predicate, value, turn)
            if found is not False:
                return found
            pos = match.start() + 1
        return None

    def _verb_claim(
        self, clause: str, match: re.Match[str], kind: str, predicate: str, value: str, turn: Turn
    ) -> Found | None | bool:
        """The claim one verb match makes; False when the words before it name no subject."""
        lex = self.lexicon
        before = clause[: match.start()]
        if "把" in before:  # 把-construction puts the object before the verb: "把美式停掉"
            before, _, value = before.rpartition("把")
        before, negated = self._clean_before_verb(before)
        subject = self._subject(before, turn)
        if subject is None:
            return False
        value = self._clean_value(value)
        head, joined, tail = value.partition(" and ")
        if joined and lex.verb_regex.search(tail):  # "likes tea and lives in Paris": value is "tea"
            value = head
        # A verb followed by another verb: the second one carries the object
        # ("stopped drinking coffee", "enjoy eating fish").
        inner = lex.verb_regex.match(value)
        if inner and lex.verbs[collapse(inner.group()).casefold()][0] == "verb":
            predicate = lex.verbs[collapse(inner.group()).casefold()][1]
            value = self._clean_value(value[inner.end():])
        elif kind == "stop":
            predicate = lex.cessation_predicate
        if (light := lex.activity_verbs.match(value)) and self._is_object(value[light.end():]):
            value = self._clean_value(value[light.end():])  # "打篮球" -> "篮球", "playing tennis" -> "tennis"
        if kind == "stop":
            negated = not negated  # "I quit coffee" denies; "I didn't quit coffee" affirms
        return Found(subject, predicate, value, negated) if self._usable(value) else None

    def _relation(self, clause: str, turn: Turn) -> Found | None:
        """Third-person-only verbs from the lexicon: "小张是医生" -> (小张, is, 医生)."""
        lex = self.lexicon
        m = lex.relation_regex.search(clause)
        if m is None:
            return None
        before, negated = self._clean_before_verb(clause[: m.start()])
        subject = self._name(before, turn) or (turn.user_id if before.casefold() in lex.user_references else None)
        value = self._clean_value(clause[m.end():])
        if subject is None or not self._usable(value):
            return None
        return Found(subject, lex.relations[collapse(m.group()).casefold()], value, negated)

    def _english_relation(self, clause: str, turn: Turn) -> Found | None:
        """<Name> <relation phrase> <value>: "Alex Song plays the position of defender"."""
        lex = self.lexicon
        if has_cjk(clause):
            return None
        subject, rest = self._leading_name(clause, turn)
        if subject is None:
            return None
        words, negated = rest.split(), False
        while len(words) > 1 and words[0].casefold() in lex.adverbs and words[0].casefold() not in lex.relation_verbs:
            words = words[1:]  # "Alex usually plays": the adverb is not the relation
        if words and words[0].casefold() in CONTRACTED_COPULAS:  # "isn't" -> "is", negated
            words, negated = [CONTRACTED_COPULAS[words[0].casefold()], *words[1:]], True
        elif not_lead := lex.negation.lead.match(" ".join(words)):  # "no longer plays", "doesn't play"
            said = not_lead.group().strip().casefold()
            words, negated = " ".join(words)[not_lead.end():].split(), True
            if words and said in ("doesn't", "does not"):
                words[0] = third_person(words[0])
        if len(words) > 1 and words[0].casefold() in COPULAS:  # "is not a defender"
            if not_lead := lex.negation.lead.match(" ".join(words[1:])):
                words, negated = [words[0], *" ".join(words[1:])[not_lead.end():].split()], True
        if not words or not self._looks_like_verb(words[0]):
            return None
        # The relation runs to the first preposition close after the verb
        # ("was born in", "is the capital of"); without one it is the verb alone.
        end = 1
        for i, word in enumerate(words[1:5], start=1):
            if word.casefold() in lex.prepositions:
                end = i + 1
                break
        relation = " ".join(words[:end])
        value = self._clean_value(" ".join(words[end:]))
        if not self._usable(value):
            return None
        predicate = lex.predicate_of(relation)
        if predicate is None and end > 1 and words[0].casefold() in COPULAS:
            predicate = lex.predicate_of(" ".join(words[1:end]))  # "is located in" -> "located in"
        return Found(subject, predicate or snake_name(relation), value, negated)

    # ---- pieces the rules share

    def _time_spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self.lexicon.time.anywhere.finditer(text)]

    @staticmethod
    def _search_outside(
        pattern: re.Pattern[str], text: str, blocked: Sequence[tuple[int, int]], pos: int = 0
    ) -> re.Match[str] | None:
        """The first match at or after ``pos`` that does not start inside a blocked span."""
        while (m := pattern.search(text, pos)) is not None:
            if not any(start < m.start() < end for start, end in blocked):
                return m
            pos = m.start() + 1
        return None

    def _clean_before_verb(self, region: str) -> tuple[str, bool]:
        """Peel adverbs, time phrases and negations off the subject region; report a negation.

        Only the edges are peeled: Chinese has no spaces, and a filler character can sit
        inside a name ("王先生"), so removing fillers anywhere would damage subjects. For the
        same reason a peel that would leave one Chinese character other than a pronoun is
        not made: "王刚" is a name, not 王 + 刚 ("just").
        """
        lex = self.lexicon
        region, negated = region.strip(), False
        changed = True
        while changed:
            changed = False
            for phrases in (lex.negation, lex.time, lex.before_verb):
                for edge in (phrases.trail, phrases.lead):
                    m = edge.search(region)
                    if m and m.group().strip():
                        peeled = (region[: m.start()] + " " + region[m.end():]).strip()
                        if len(peeled) == 1 and CJK_CHAR.match(peeled) and not self._is_pronoun(peeled):
                            continue
                        region = peeled
                        negated = negated or phrases is lex.negation
                        changed = True
        return region, negated

    def _clean_attribute(self, attr: str) -> tuple[str, bool]:
        """Drop time words, adverbs and negations after an attribute ("颜色现在", "名字不再", "color now").

        Only the end is peeled: the start may be a word such as "最" in "最喜欢的颜色".
        """
        lex = self.lexicon
        attr, negated = attr.strip(EDGE_PUNCTUATION), False
        changed = True
        while changed and attr:
            changed = False
            for phrases in (lex.negation, lex.time, lex.before_verb):
                m = phrases.trail.search(attr)
                if m and m.group().strip() and m.start() > 0:
                    attr, changed = attr[: m.start()].strip(), True
                    negated = negated or phrases is lex.negation
        return attr, negated

    def _clean_value(self, value: str) -> str:
        """Drop what surrounds a value without being it: articles, fillers, time, punctuation."""
        lex = self.lexicon
        if stop := lex.value_stops.search(value, 1):  # "tea over coffee": the value is what comes first
            value = value[: stop.start()]
        previous = None
        while value != previous:
            previous = value
            value = value.strip(EDGE_PUNCTUATION)
            for pattern in (
                lex.around_value.lead, lex.around_value.trail, lex.time.trail, lex.time.lead,
                YEAR_TAIL, AGO_TAIL, DURATION_TAIL, ZH_DURATION_TAIL,
            ):
                m = pattern.search(value)
                if m and m.group().strip():
                    value = (value[: m.start()] + " " + value[m.end():]).strip()
        return collapse(value)

    def _usable(self, value: str) -> bool:
        """A short thing, not a pronoun: anything else is a clause the rules misread."""
        if not value:
            return False
        words = value.casefold().split()
        if value.casefold() in self.lexicon.pronoun_values or words[0] in self.lexicon.pronoun_values:
            return False
        return len(words) <= MAX_VALUE_WORDS and len(CJK_CHAR.findall(value)) <= MAX_VALUE_CJK_CHARS

    @staticmethod
    def _is_object(rest: str) -> bool:
        """What is left after a light verb stands alone: a word, or two Chinese characters."""
        rest = rest.strip()
        return len(CJK_CHAR.findall(rest)) >= 2 if has_cjk(rest) else bool(rest)

    def _is_pronoun(self, word: str) -> bool:
        key = word.casefold()
        return key in self.lexicon.first_person or key in self.lexicon.second_person

    def _subject(self, region: str, turn: Turn) -> str | None:
        """Whom the words before the verb name: the speaker, the user, or a named entity."""
        key = collapse(region).casefold()
        if not key or key in self.lexicon.first_person:
            return turn.speaker_id  # Chinese drops "我"; English "no more Americano for me"
        if key in self.lexicon.second_person and not turn.user_is_speaker:
            return turn.user_id  # the assistant saying "you love tea"
        if key in self.lexicon.user_references:
            return turn.user_id  # "The user lives in Lyon", "用户住在…"
        if has_cjk(region) and (said := self.lexicon.reporting.match(region)) and said.end() < len(region):
            return self._subject(region[said.end():], turn)  # "听说小张住在北京": 小张, not 听说小张
        return self._name(region, turn)

    def _owner(self, region: str, turn: Turn) -> tuple[str | None, bool]:
        """Who has an attribute, and whether that is a person the pronouns name (the speaker or user)."""
        key = collapse(region).casefold()
        if not key:
            return None, False
        if key in self.lexicon.first_person:
            return turn.speaker_id, True
        if key in self.lexicon.second_person:
            return (turn.user_id, True) if not turn.user_is_speaker else (None, False)
        if key in self.lexicon.user_references:
            return turn.user_id, True
        return self._name(region, turn), False

    def _name(self, text: str, turn: Turn) -> str | None:
        """``text`` if it is a whole name (known entity, capitalised words, 2-4 Chinese characters)."""
        text = collapse(text)
        key = text.casefold()
        if key in turn.entities:
            return turn.entities[key]
        if not text or key in self.lexicon.not_names or self.lexicon.time.anywhere.fullmatch(text):
            return None
        if has_cjk(text):
            # "的" makes a possessive phrase ("今天的天气"), never a bare name.
            is_name = re.fullmatch(f"[{CJK}]{{2,4}}", text) and text[0] not in CJK_NON_NAME_START and "的" not in text
            return text if is_name else None
        first = text.split()[0].casefold()
        is_name = self.lexicon.name_run.fullmatch(text) and first not in self.lexicon.not_names and len(text.split()) <= 5
        return text if is_name else None

    def _leading_name(self, clause: str, turn: Turn) -> tuple[str | None, str]:
        """The name a clause starts with (or "the user"), and the rest of the clause."""
        folded = clause.casefold()
        for key in sorted(turn.entities, key=len, reverse=True):  # longest known name first
            if folded.startswith(key) and not folded[len(key): len(key) + 1].isalnum():
                return turn.entities[key], clause[len(key):].strip()
        if user := self.lexicon.user_lead.match(clause):
            return turn.user_id, clause[user.end():].strip()
        m = self.lexicon.name_run.match(clause)
        if m and (name := self._name(m.group(), turn)):
            return name, clause[m.end():].strip()
        return None, clause

    def _looks_like_verb(self, word: str) -> bool:
        """A listed relation verb, or a lower-case word with a verb ending (plays, founded)."""
        folded = word.casefold()
        if folded in self.lexicon.relation_verbs:
            return True
        return (
            word.isalpha() and word.islower() and len(word) > 3
            and (folded.endswith("ed") or (folded.endswith("s") and not folded.endswith(("ss", "us", "is"))))
        )


# ---------------------------------------------------------------- restatement diff


@dataclass(frozen=True)
class SlotDiff:
    template: str  # shared text, differing span as "{}"; lower-case, single spaces, no final punctuation
    old_value: str  # the span in the old text ("" if inserted)
    new_value: str  # the span in the new text ("" if removed)
    negated: bool  # the only difference is an inserted or removed negation


# Chinese characters are one token each; other words keep inner apostrophes ("Grey's");
# punctuation inside the text is a token of its own.
TOKEN = re.compile(rf"[{CJK}]|(?:(?![{CJK}])[\w'’])+|[^\w\s]")


def tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def normalise_statement(text: str) -> str:
    return collapse(text).strip(EDGE_PUNCTUATION).lower()


def restatement_diff(old_text: str, new_text: str, *, min_shared: float = 0.6) -> SlotDiff | None:
    """How ``new_text`` restates ``old_text``: the one span that changed, if the rest is shared.

    "X plays the position of defender" -> "... of linebacker" is a new value ("linebacker")
    for the slot "x plays the position of {}". Returns None when the texts are the same or
    share too little (fewer than ``min_shared`` of the longer text's tokens, or < 2 tokens).
    """
    old = collapse(old_text).strip(EDGE_PUNCTUATION)
    new = collapse(new_text).strip(EDGE_PUNCTUATION)
    old_tokens, new_tokens = tokens(old), tokens(new)
    old_keys = [t.group().casefold().replace("’", "'") for t in old_tokens]
    new_keys = [t.group().casefold().replace("’", "'") for t in new_tokens]
    if old_keys == new_keys:
        return None
    prefix = 0
    while prefix < min(len(old_keys), len(new_keys)) and old_keys[prefix] == new_keys[prefix]:
        prefix += 1
    suffix = 0  # never overlapping the prefix
    while (
        suffix < min(len(old_keys), len(new_keys)) - prefix
        and old_keys[-1 - suffix] == new_keys[-1 - suffix]
    ):
        suffix += 1
    shared = prefix + suffix
    if shared < 2 or shared < min_shared * max(len(old_keys), len(new_keys)):
        return None
    # A proper name is one value: "United Kingdom" -> "United States of America" changes the
    # whole name, not just the words after "United".
    while prefix and all(
        len(toks) > prefix and _capitalised(toks[prefix - 1].group()) and _capitalised(toks[prefix].group())
        for toks in (old_tokens, new_tokens)
    ):
        prefix -= 1

    def span(text: str, toks: list[re.Match[str]]) -> tuple[int, int]:
        """Character range of the differing tokens; an empty range at the insertion point."""
        if len(toks) - suffix > prefix:
            return toks[prefix].start(), toks[len(toks) - suffix - 1].end()
        at = toks[prefix].start() if prefix < len(toks) else len(text)
        return at, at

    def values() -> tuple[str, str, str]:
        old_start, old_end = span(old, old_tokens)
        new_start, new_end = span(new, new_tokens)
        # The template comes from the side that has the span, so "{}" stands where the words were.
        if old_end > old_start:
            template = old[:old_start] + "{}" + old[old_end:]
        else:
            template = new[:new_start] + "{}" + new[new_end:]
        return old[old_start:old_end], new[new_start:new_end], template

    old_value, new_value, template = values()
    negation_words = {collapse(p).casefold() for p in default_lexicon().words("negation", "phrases")}
    changed = collapse(old_value or new_value).casefold().replace("’", "'")
    negated = (not old_value or not new_value) and changed in negation_words
    if not negated and (not old_value or not new_value):
        # Words added or dropped at the end of a value ("rugby union" -> "rugby"): the value
        # is the shared word plus what changed, so take one shared token into the span.
        if prefix:
            prefix -= 1
        else:
            suffix -= 1
        old_value, new_value, template = values()
    if not negated:
        # "red" -> "blue now": the time word says when, it is not part of the value.
        old_value, new_value = without_time(old_value), without_time(new_value)
        if old_value.casefold() == new_value.casefold():
            return None  # only a time word changed: "I live in Paris" / "I live in Paris now"
    return SlotDiff(normalise_statement(template), old_value.strip(EDGE_PUNCTUATION), new_value.strip(EDGE_PUNCTUATION), negated)


def _capitalised(token: str) -> bool:
    return token[:1].isupper()


def without_time(text: str, lexicon: Lexicon | None = None) -> str:
    """``text`` without time phrases at either end: "blue now" -> "blue", "现在住在苏州" stays."""
    lex = lexicon or default_lexicon()
    previous = None
    while text != previous:
        previous = text
        text = text.strip(EDGE_PUNCTUATION)
        for pattern in (lex.time.lead, lex.time.trail, YEAR_TAIL, AGO_TAIL, DURATION_TAIL, ZH_DURATION_TAIL):
            m = pattern.search(text)
            if m and m.group().strip():
                text = (text[: m.start()] + " " + text[m.end():]).strip()
    return "" if re.fullmatch(ZH_DURATION, text) else collapse(text)  # a diff span "三年了" is all time


def statement_key(text: str) -> str:
    """A whole statement as a slot name: lower-case, single spaces, no final punctuation.

    Negation words are removed, so a statement and its negation share one key
    ("Alex no longer plays defender" ~ "Alex plays defender"): the sign belongs in
    the stance, not in the slot name.
    """
    without_negation = default_lexicon().negation.anywhere.sub(" ", collapse(text))
    # Chinese has no spaces: don't leave one where "不" was ("小张不喜欢茶" -> "小张喜欢茶").
    without_negation = re.sub(rf"(?<=[{CJK}])\s+(?=[{CJK}])", "", without_negation)
    return normalise_statement(without_negation)


# ------------------------------------------------------------------ LLM extraction

LLM_RULES = """You extract claims from chat messages for a memory that tracks beliefs.
Rules:
- A claim is {{"subject": str, "predicate": str, "value": str, "stance": number, "source_type": str (optional)}}.
- subject: the entity the claim is about. The speaker is "{speaker}"; first-person statements \
("I", "my", "me", "我", "我的") have subject "{speaker_id}".{user_rule}
- predicate: short snake_case relation, e.g. likes, lives_in, works_at. Reuse one of these \
names whenever it fits: {known_predicates}
- value: short, without articles or time phrases. Reuse one of these entity names whenever \
it fits: {known_entities}
- stance in [-1, 1]: 1.0 asserted; -0.8 negated or stopped ("no longer", "quit", "不再", "戒"); \
halve it for hedges ("maybe", "I think", "可能").
- A message with nothing to remember has no claims.
Answer with JSON only, no prose."""

LLM_SINGLE = """{rules}
Answer shape: {{"claims": [claim, ...]}}

Message:
{message}"""

LLM_BATCH = """{rules}
The messages are numbered from 0. Answer shape: \
{{"results": [{{"index": 0, "claims": [claim, ...]}}, ...]}} with one entry for every message.

{messages}"""

JSON_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL | re.IGNORECASE)


class MalformedAnswer(ValueError):
    """An LLM answer that is not the JSON we asked for; the reason goes into the retry prompt."""


def estimate_tokens(text: str) -> int:
    """A model-free token count: one per Chinese character, one per other word or symbol run."""
    cjk = len(CJK_CHAR.findall(text))
    return cjk + len(re.findall(rf"[^\s{CJK}]+", text))


def usage_from(response: Any) -> tuple[int, int] | None:
    """(prompt, completion) tokens reported by the provider in ``response.raw``, if any."""
    raw = getattr(response, "raw", None)
    usage = raw.get("usage") if isinstance(raw, dict) else getattr(raw, "usage", None)
    if usage is None:
        return None

    def field(*names: str) -> int | None:
        for name in names:
            value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
            if isinstance(value, int):
                return value
        return None

    prompt = field("prompt_tokens", "input_tokens")
    completion = field("completion_tokens", "output_tokens")
    if prompt is None or completion is None:
        return None
    return prompt, completion


def parse_json_answer(answer: str) -> Any:
    fenced = JSON_FENCE.search(answer)
    body = fenced.group(1) if fenced else answer.strip()
    try:
        return json.loads(body)
    except json.JSONDecodeError as e:
        raise MalformedAnswer(f"not valid JSON ({e.msg} at char {e.pos})") from e


@dataclass(frozen=True)
class Request:
    """The extract() keywords, checked once and shared by prompting and validation."""

    user_id: str
    speaker: str = "user"
    context: str | None = None
    known_predicates: tuple[str, ...] = ()
    known_entities: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.user_id, str) or not self.user_id.strip():
            raise InvalidInputError(f"user_id must be a non-empty string, got {self.user_id!r}")

    @property
    def speaker_id(self) -> str:
        """What "I" means in the message."""
        return self.user_id if self.speaker == "user" or not self.speaker else self.speaker


class LLMExtractor:
    """Claims from any LlamaIndex LLM: one call per message (or per batch), JSON validated.

    A malformed or partial answer is asked again up to ``max_retries`` times, then
    ``ExtractionError`` carries the last raw answer. ``usage`` counts calls and tokens
    (the provider's numbers when the response reports them, an estimate otherwise).
    """

    def __init__(self, llm: LLM, max_retries: int = 2):
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise InvalidInputError(f"max_retries must be an int >= 0, got {max_retries!r}")
        self.llm = llm
        self.max_retries = max_retries
        self.usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}

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
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        prompt = LLM_SINGLE.format(rules=self._rules(request), message=text)
        return self._ask(prompt, lambda data: self._claims_of(data, request))

    async def aextract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]:
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        prompt = LLM_SINGLE.format(rules=self._rules(request), message=text)
        return await self._aask(prompt, lambda data: self._claims_of(data, request))

    def extract_batch(
        self,
        texts: Sequence[str],
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[list[Claim]]:
        """One call for all ``texts``; one claim list per text, in order."""
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        if not texts:
            return []
        prompt = self._batch_prompt(texts, request)
        return self._ask(prompt, lambda data: self._batch_claims_of(data, len(texts), request))

    async def aextract_batch(
        self,
        texts: Sequence[str],
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[list[Claim]]:
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        if not texts:
            return []
        prompt = self._batch_prompt(texts, request)
        return await self._aask(prompt, lambda data: self._batch_claims_of(data, len(texts), request))

    # ---- prompting

    @staticmethod
    def _rules(request: Request) -> str:
        def listing(names: tuple[str, ...]) -> str:
            return json.dumps(list(names), ensure_ascii=False) if names else "(none yet)"

        user_rule = ""
        if request.speaker_id != request.user_id:
            user_rule = f' Second-person statements ("you", "你") have subject "{request.user_id}".'
        return LLM_RULES.format(
            speaker=request.speaker,
            speaker_id=request.speaker_id,
            user_rule=user_rule,
            known_predicates=listing(request.known_predicates),
            known_entities=listing(request.known_entities),
        )

    def _batch_prompt(self, texts: Sequence[str], request: Request) -> str:
        numbered = "\n".join(f"[{i}] {json.dumps(t, ensure_ascii=False)}" for i, t in enumerate(texts))
        return LLM_BATCH.format(rules=self._rules(request), messages=numbered)

    @staticmethod
    def _retry_prompt(prompt: str, reason: str) -> str:
        return f"{prompt}\n\nYour previous answer was rejected: {reason}. Answer again with the JSON only."

    # ---- calling, with retries (the sync and async loops differ only in the await)

    def _ask(self, prompt: str, parse: Callable[[Any], Any]) -> Any:
        answer, reason = "", ""
        for attempt in range(self.max_retries + 1):
            sent = prompt if attempt == 0 else self._retry_prompt(prompt, reason)
            answer = self._count(sent, self.llm.complete(sent))
            try:
                return parse(parse_json_answer(answer))
            except MalformedAnswer as e:
                reason = str(e)
        raise self._give_up(answer, reason)

    async def _aask(self, prompt: str, parse: Callable[[Any], Any]) -> Any:
        answer, reason = "", ""
        for attempt in range(self.max_retries + 1):
            sent = prompt if attempt == 0 else self._retry_prompt(prompt, reason)
            answer = self._count(sent, await self.llm.acomplete(sent))
            try:
                return parse(parse_json_answer(answer))
            except MalformedAnswer as e:
                reason = str(e)
        raise self._give_up(answer, reason)

    def _give_up(self, answer: str, reason: str) -> ExtractionError:
        return ExtractionError(
            f"LLM answer still malformed after {self.max_retries + 1} attempt(s) ({reason}); "
            f"last raw answer: {answer[:2000]!r}"
        )

    def _count(self, prompt: str, response: Any) -> str:
        """Record one call's tokens; return the answer text."""
        answer = getattr(response, "text", None)
        answer = answer if isinstance(answer, str) else str(response)
        reported = usage_from(response)
        prompt_tokens, completion_tokens = reported or (estimate_tokens(prompt), estimate_tokens(answer))
        self.usage["calls"] += 1
        self.usage["prompt_tokens"] += prompt_tokens
        self.usage["completion_tokens"] += completion_tokens
        return answer

    # ---- validating

    def _claims_of(self, data: Any, request: Request) -> list[Claim]:
        if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
            raise MalformedAnswer('expected an object with a "claims" list')
        return [self._claim(item, request) for item in data["claims"]]

    def _batch_claims_of(self, data: Any, count: int, request: Request) -> list[list[Claim]]:
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            raise MalformedAnswer('expected an object with a "results" list')
        by_index: dict[int, list[Claim]] = {}
        for entry in data["results"]:
            index = entry.get("index") if isinstance(entry, dict) else None
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count or index in by_index:
                raise MalformedAnswer(f"bad or repeated result index {index!r}")
            by_index[index] = self._claims_of(entry, request)
        missing = [i for i in range(count) if i not in by_index]
        if missing:  # a partial answer would silently drop messages
            raise MalformedAnswer(f"no result for message(s) {missing}")
        return [by_index[i] for i in range(count)]

    @staticmethod
    def _claim(item: Any, request: Request) -> Claim:
        if not isinstance(item, dict):
            raise MalformedAnswer(f"a claim must be an object, got {item!r}")
        missing = [name for name in ("subject", "predicate", "value", "stance") if name not in item]
        if missing:
            raise MalformedAnswer(f"claim {item!r} lacks {missing}")
        subject, predicate = item["subject"], item["predicate"]
        if isinstance(subject, str):
            # Models sometimes answer "I"/"user" despite the instruction; the meaning is unambiguous.
            if subject.strip().casefold() in {"i", "me", "user", "the user", "我"}:
                subject = request.speaker_id
            known = {e.casefold(): e for e in request.known_entities}
            subject = known.get(subject.casefold(), subject)
        if isinstance(predicate, str):
            predicate = stable_name(predicate, request.known_predicates)
        source_type = item.get("source_type")
        try:
            return Claim(
                subject=subject,
                predicate=predicate,
                value=item["value"],
                stance=item["stance"],
                source_type=source_type if isinstance(source_type, str) and source_type.strip() else None,
                context=request.context,
            )
        except InvalidInputError as e:  # includes a stance outside [-1, 1]
            raise MalformedAnswer(f"invalid claim {item!r}: {e}") from e
