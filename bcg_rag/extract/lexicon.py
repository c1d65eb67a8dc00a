"""The word lists the offline extractor matches (``lexicon.toml``), loaded, checked and indexed."""

from __future__ import annotations

import copy
import functools
import re
import sys
from pathlib import Path
from typing import Any, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - pyproject installs tomli there
    import tomli as tomllib

from ..errors import ConfigError
from ..models import MAX_STARTS_IN_DAYS
from .text import CJK_CHAR, PhraseSet, collapse, english_forms, name_key, phrase_pattern, snake_name

DEFAULT_LEXICON_PATH = Path(__file__).with_name("lexicon.toml")

# ------------------------------------------------------------------------------ lexicon

# Top-level tables a lexicon may have; an unknown one is most likely a typo.
LEXICON_SECTIONS = frozenset(
    {
        "stance", "defaults", "predicates", "relations", "cessation", "negation", "hedges",
        "fillers", "time_phrases", "subjects", "grammar", "values", "value_predicates", "attributes",
        "cardinality", "questions", "requests", "small_talk", "plans", "changes", "relatives", "mentions", "habits", "states", "slots",
        "occupations", "organisations", "places", "devices",
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
        elif where.startswith("plans.due_in_days."):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_STARTS_IN_DAYS:
                raise ConfigError(f"lexicon {where} must be a whole number of days in [1, {MAX_STARTS_IN_DAYS}], got {value!r}")
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
        for phrase in self.words("cessation", "memberships"):  # "退出乐队": a membership ends
            for form in english_forms(phrase):
                self.verbs.setdefault(collapse(form).casefold(), ("stop", "member_of"))
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

        self._index_grammar()
        self.negation = PhraseSet(self.words("negation", "phrases"))
        self.negation_words = {collapse(w).casefold() for w in self.words("negation", "phrases")}
        self.hedges = PhraseSet(self.words("hedges", "phrases"))
        times = self.words("time_phrases", "phrases")
        # "从这周开始吃素了", "从今年起": a span's start said around a time word is a time phrase too
        self.time = PhraseSet(times + [f"从{t}{end}" for t in times if CJK_CHAR.match(t) for end in ("开始", "起", "")])
        # Plan and past markers sit between subject and verb too ("I'm going to move", "我以前住在").
        self.before_verb = PhraseSet(
            self.words("fillers", "before_verb") + self.words("plans", "phrases") + self.words("plans", "past")
        )
        self.around_value = PhraseSet(self.words("fillers", "around_value"))
        self.before_value = PhraseSet(self.words("fillers", "before_value")).lead
        self.activity_verbs = PhraseSet(self.words("fillers", "activity_verbs")).lead
        self.value_stops = PhraseSet(self.words("fillers", "value_stops")).anywhere
        self.adverbs = {w.casefold() for w in self.words("fillers", "before_verb")}
        self.durable_goods = frozenset(w.casefold() for w in self.words("mentions", "durable_goods"))

        self.first_person = {w.casefold() for w in self.words("subjects", "first_person")}
        self.second_person = {w.casefold() for w in self.words("subjects", "second_person")}
        self.user_references = {collapse(w).casefold() for w in self.words("subjects", "user")}
        # "The user's ...": the longest reference a clause starts with, as a whole word.
        self.user_lead = re.compile(rf"^(?:{phrase_pattern(self.words('subjects', 'user'))})(?=\s|'|$)", re.IGNORECASE)
        self.not_names = {w.casefold() for w in self.words("subjects", "not_names")}
        self.pets = frozenset(w.casefold() for w in self.words("mentions", "pets"))  # animals one keeps
        # pastimes named as a noun ("pottery", "tennis", "ukulele"): a hobby taken up, a thing one stops doing
        self.pastimes = frozenset(w.casefold() for w in self.words("habits", "hobbies") + self.words("habits", "instruments"))
        self.surnames = frozenset(w for w in self.words("subjects", "surnames") if len(w) == 1)
        self.pronoun_values = {w.casefold() for w in self.words("subjects", "pronoun_values")}
        self.zh_pronoun_subjects = frozenset(self.words("subjects", "zh_pronoun_subjects"))
        self.relation_verbs = {w.casefold() for w in self.words("grammar", "relation_verbs")}
        self.prepositions = {w.casefold() for w in self.words("grammar", "prepositions")}
        self.class_nouns = {w.casefold() for w in self.words("grammar", "class_nouns")}
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

    def _index_grammar(self) -> None:
        """The clause markers of ``grammar.py`` and the vocabulary of subjects and states."""
        self.single_valued = frozenset(self.words("cardinality", "single"))
        self.shared_relations = frozenset(self.words("cardinality", "shared_relations"))
        self.questions = PhraseSet(self.words("questions", "phrases"))
        self.requests = PhraseSet(self.words("requests", "phrases"))
        self.small_talk = {collapse(w).casefold() for w in self.words("small_talk", "phrases")}
        self.plan_markers = PhraseSet(self.words("plans", "phrases"))
        self.future_time = PhraseSet(self.words("plans", "future"))
        due = self.tables.get("plans", {}).get("due_in_days", {})
        self.due_in_days = {collapse(phrase).casefold(): int(days) for phrase, days in due.items()}
        self.dated_future = PhraseSet(sorted(self.due_in_days))
        self.settled_plans = frozenset(collapse(w).casefold() for w in self.words("plans", "settled"))
        self.past_markers = PhraseSet(self.words("plans", "past"))
        self.change_markers = PhraseSet(self.words("changes", "phrases"))
        self.additive_markers = PhraseSet(self.words("changes", "additive"))
        self.additive_claim_markers = PhraseSet(self.words("changes", "additive_claims"))
        self.relatives: dict[str, str] = {}  # surface (casefolded) -> English relation word
        for relation, surfaces in sorted(self.tables.get("relatives", {}).items()):
            for surface in surfaces:
                self.relatives.setdefault(collapse(surface).casefold(), relation)
        self.relative_regex = re.compile(phrase_pattern(list(self.relatives)), re.IGNORECASE)
        self.states = {collapse(w).casefold() for w in self.words("states", "phrases")}
        self.occupations = frozenset(collapse(w).casefold() for w in self.words("occupations", "words"))
        # An English activity's present forms -> its -ing form: "smoke", "smokes" -> "smoking".
        self.activity_doing: dict[str, str] = {}
        for phrase in self.words("habits", "activities"):
            if phrase.isascii():
                base, third, doing = english_forms(phrase)[:3]
                self.activity_doing[base.casefold()] = self.activity_doing[third.casefold()] = doing.casefold()
        self.not_possessions = {collapse(w).casefold() for w in self.words("states", "not_possessions")}

    def small_talk_full(self, clause: str) -> bool:
        """The whole clause is a greeting, thanks or acknowledgement."""
        return collapse(clause).strip(" .,!?~。！？，").casefold() in self.small_talk

    def is_single_valued(self, predicate: str) -> bool:
        """One value at a time for one subject, by this lexicon ("plan:" slots never are)."""
        return predicate in self.single_valued

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

    def is_occupation(self, value: str) -> bool:
        """The noun phrase names a job: its last English word, or its Chinese end, is one."""
        key = collapse(value).casefold()
        if not key:
            return False
        if key.isascii():
            return key.split()[-1] in self.occupations
        return any(key.endswith(w) for w in self.occupations if not w.isascii())

    def value_of(self, value: str) -> str:
        return self.values.get(collapse(value).casefold(), value)

    def surfaces_of_values(self) -> dict[str, list[str]]:
        """Each value's words, longest first ("green tea" -> ["green tea", "绿茶"]): how a quote may say it."""
        if (found := self.__dict__.get("_surfaces")) is None:
            found = {}
            for surface, value in self.values.items():
                found.setdefault(value.casefold(), []).append(surface)
            found = self.__dict__.setdefault("_surfaces", {v: sorted(ws, key=len, reverse=True) for v, ws in found.items()})
        return found

    def attribute_of(self, phrase: str) -> str:
        """The lexicon's name for an attribute phrase; "最爱的颜色" finds "最喜欢的颜色"'s name too."""
        key = collapse(phrase).casefold()
        if key in self.attributes:
            return self.attributes[key]
        if marker := self.preference.match(key):
            rest = key[marker.end():]
            markers = self.words("grammar", "preference_markers")
            for other in markers:
                variant = collapse(f"{other} {rest}" if other.isascii() else other + rest).casefold()
                if variant in self.attributes:
                    return self.attributes[variant]
            # One slot whichever marker says it: "favourite band", "fave band" and "favorite band"
            # (or 最爱的乐队 and 最喜欢的乐队) are the first marker's of their script.
            said = marker.group().strip()
            first = next((m for m in markers if m.isascii() == said.isascii()), said)
            if not said.casefold().startswith("prefer"):
                return snake_name(f"{first} {rest}" if first.isascii() else first + rest)
        return snake_name(phrase)


ZH_GROUP_KINDS = ("队", "团", "社", "俱乐部", "协会")
# A school too goes by its name without the city before it: "郑州外国语小学" is "外国语小学".
ZH_SCHOOL_KINDS = ("小学", "中学", "学校", "幼儿园", "学院", "高中", "初中")
# One to four capitalised words: a name an organisation may go by with or without its suffix.
EN_CAPITALISED_NAME = re.compile(r"[A-Z][\w&'-]*(?: [A-Z][\w&'.-]*){0,3}")


ZH_ORG_NAME = re.compile(r"[\u4e00-\u9fff]{2,12}")


@functools.lru_cache(maxsize=8)
def _en_suffixes(lexicon: Lexicon) -> tuple[frozenset[str], tuple[str, ...]]:
    """The lexicon's English organisation suffixes, as a set and title-cased in order: a
    search guesses a name with each of them for every capitalised word of its question."""
    suffixes = lexicon.words("organisations", "en_suffixes")
    return frozenset(suffixes), tuple(s.title() for s in suffixes)


def org_forms(name: str, lexicon: Lexicon) -> list[str]:
    """The other forms of a Chinese organisation's name: without its suffix ("云杉智能" ->
    "云杉"), or, for a short name, with each suffix ("云杉" -> "云杉智能", "云杉科技", ...).
    A form keeps two characters at least; other names have none. A group is also called by
    its kind alone ("彩虹腰鼓队" -> "腰鼓队": its tails of three characters or more), and a school by
    its name without its city ("郑州外国语小学" -> "外国语小学"). An English name in capitals
    likewise: "Orla Foods" -> "Orla", "Orla" -> "Orla Foods", "Orla Labs", ... (the lexicon's
    ``en_suffixes``)."""
    if EN_CAPITALISED_NAME.fullmatch(name):
        suffixes, titled = _en_suffixes(lexicon)
        *head, last = name.split()
        if head:
            return [" ".join(head)] if last.casefold().rstrip(".") in suffixes else []
        return [f"{name} {s}" for s in titled]
    if not ZH_ORG_NAME.fullmatch(name):
        return []
    suffixes = lexicon.words("organisations", "suffixes")
    shorter = [name[: -len(s)] for s in suffixes if name.endswith(s) and len(name) - len(s) >= 2]
    tails = [name[i:] for i in range(1, len(name) - 2)] if name.endswith(ZH_GROUP_KINDS + ZH_SCHOOL_KINDS) else []
    return (shorter or [name + s for s in suffixes]) + tails


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
        # Two predicate names of the rules' own form ("owns", "has") are two slots, whatever
        # the lexicon relates them by: renaming one to the other only where the other was
        # already known made the beliefs depend on the order messages arrive in.
        if (lexicon and name_key(lexicon.predicate_of(candidate) or candidate) == canonical
                and not (RULE_NAME.fullmatch(name) and RULE_NAME.fullmatch(candidate))):
            return candidate
    return name


RULE_NAME = re.compile(r"[a-z][a-z0-9_]*(?::[a-z0-9_*]+)?")  # "lives_in", "attr:birthday": not "live in", "住在"

