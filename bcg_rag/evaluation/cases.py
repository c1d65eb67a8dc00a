"""Evaluation cases: events to ingest, then questions with the answers we expect.

One case is one JSON object on one line of a JSONL file; the format is described
in ``eval/README.md``. Loading validates everything, so a runner can trust a Case.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from ..errors import InvalidInputError
from ..models import Claim

BUILTIN_PATH = Path(__file__).resolve().parents[2] / "eval" / "datasets" / "builtin.jsonl"

# The kinds our sets use (eval/README.md); a case's kind is free-form, like its lang.
KINDS = (
    "update", "refute", "reassert", "multivalue", "reliability", "context",
    "asof", "out_of_order", "decay", "longterm", "alias", "multihop", "third_person", "slot",
)


# --- answer matching -----------------------------------------------------------------

def normalise_answer(s: str) -> str:
    """NFKC, casefold, drop punctuation (dashes, slashes and full-width punctuation become
    spaces), collapse spaces. A Chinese comma separates like a space: "是ThinkPad，Windows系统"
    holds "ThinkPad" (dropped, it glued "thinkpadwindows", half a word to ``_contains``)."""
    # CJK and full-width punctuation sit with no space beside them: a space first, then NFKC
    # of the whole string (one character at a time would not compose "ó" from "o" + accent).
    s = "".join(" " if ch >= "\u3000" and unicodedata.category(ch).startswith("P") else ch for ch in s)
    out = []
    for ch in unicodedata.normalize("NFKC", s).casefold():
        category = unicodedata.category(ch)
        if ch.isspace() or ch == "/" or category == "Pd":
            out.append(" ")
        elif not category.startswith("P"):
            out.append(ch)
    return " ".join("".join(out).split())


def _wordy(ch: str) -> bool:
    """A letter or digit of a script that separates words with spaces (not CJK)."""
    return ch.isalnum() and ch < "\u2e80"


def _contains(text: str, part: str) -> bool:
    """``part`` occurs in ``text`` and does not cut a Latin word or number in half
    ("us" is not in "australia", "5" is not in "45"; "拿铁" is in "冰拿铁")."""
    start = text.find(part)
    while start != -1:
        end = start + len(part)
        cuts_left = start > 0 and _wordy(text[start - 1]) and _wordy(part[0])
        cuts_right = end < len(text) and _wordy(text[end]) and _wordy(part[-1])
        if not cuts_left and not cuts_right:
            return True
        start = text.find(part, start + 1)
    return False


def matches(answer: str | None, aliases: Iterable[str]) -> bool:
    """True when one of ``aliases`` is contained in ``answer`` after normalisation.

    Empty aliases (or an empty answer) never match.
    """
    if not answer:
        return False
    text = normalise_answer(answer)
    for alias in aliases:
        part = normalise_answer(alias)
        if part and _contains(text, part):
            return True
    return False


def overlaps(a: str, b: str) -> bool:
    """Either string matches the other: such an alias cannot tell two answers apart."""
    return matches(a, [b]) or matches(b, [a])


# --- validation helpers ----------------------------------------------------------------

def _check_keys(d: Any, allowed: set[str], required: set[str], what: str) -> dict:
    if not isinstance(d, dict):
        raise InvalidInputError(f"{what} must be a JSON object, got {type(d).__name__}")
    unknown = set(d) - allowed
    if unknown:
        raise InvalidInputError(f"{what} has unknown field(s) {sorted(unknown)}")
    missing = required - set(d)
    if missing:
        raise InvalidInputError(f"{what} lacks field(s) {sorted(missing)}")
    return d


def _text(value: Any, name: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{name} must be a non-empty string, got {value!r}")
    return value


def _texts(value: Any, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidInputError(f"{name} must be a list of strings, got {value!r}")
    return tuple(_text(v, f"{name} item") for v in value)


def _timestamp(value: Any, name: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be an ISO 8601 string, got {value!r}")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInputError(f"{name} {value!r} is not an ISO 8601 timestamp") from None
    return value


def _claim_from_dict(d: Any) -> Claim:
    d = _check_keys(d, {"subject", "predicate", "value", "stance", "source_type", "context", "additive", "starts_in_days"},
                    {"subject", "predicate", "value"}, "claim")
    return Claim(d["subject"], d["predicate"], d["value"], d.get("stance", 1.0),
                 _text(d.get("source_type"), "claim source_type", optional=True),
                 _text(d.get("context"), "claim context", optional=True), d.get("additive", False),
                 d.get("starts_in_days", 0))


def _claim_to_dict(c: Claim) -> dict:
    defaults = {"additive": False, "starts_in_days": 0}
    return {k: v for k, v in c.to_dict().items() if v is not None and not (k in defaults and v == defaults[k])}


# --- the records ---------------------------------------------------------------------

@dataclass(frozen=True)
class CaseEvent:
    """One piece of evidence: what was said, when, by whom, and (optionally) its claims."""

    text: str
    timestamp: str
    user_id: str
    source: str = ""
    source_type: str = "user_explicit"
    context: str | None = None
    agent_id: str | None = None
    claims: tuple[Claim, ...] = ()

    FIELDS = {"text", "timestamp", "user_id", "source", "source_type", "context", "agent_id", "claim", "claims"}

    @classmethod
    def from_dict(cls, d: Any) -> "CaseEvent":
        d = _check_keys(d, cls.FIELDS, {"text", "timestamp", "user_id"}, "event")
        if "claim" in d and "claims" in d:
            raise InvalidInputError("event has both 'claim' and 'claims'")
        raw = [d["claim"]] if d.get("claim") is not None else d.get("claims") or []
        if not isinstance(raw, list):
            raise InvalidInputError("event 'claims' must be a list")
        return cls(
            text=_text(d["text"], "event text"),
            timestamp=_timestamp(d["timestamp"], "event timestamp"),
            user_id=_text(d["user_id"], "event user_id"),
            source=_text(d.get("source") or None, "event source", optional=True) or "",
            source_type=_text(d.get("source_type", "user_explicit"), "event source_type"),
            context=_text(d.get("context"), "event context", optional=True),
            agent_id=_text(d.get("agent_id"), "event agent_id", optional=True),
            claims=tuple(_claim_from_dict(c) for c in raw),
        )

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "text": self.text, "timestamp": self.timestamp, "user_id": self.user_id,
            "source": self.source, "source_type": self.source_type,
            "context": self.context, "agent_id": self.agent_id,
        }
        if len(self.claims) == 1:
            d["claim"] = _claim_to_dict(self.claims[0])
        elif self.claims:
            d["claims"] = [_claim_to_dict(c) for c in self.claims]
        return d


@dataclass(frozen=True)
class Question:
    """A question and how to grade the answers.

    ``expect``: aliases, one of which the top answer must match ([]: no answer may be
    asserted, i.e. nothing at or above the decision line). ``expect_all``: groups of
    aliases; every group must match one of the answers at or above the decision line.
    ``stale``: aliases the top answer must not match.
    """

    question: str
    user_id: str
    context: str | None = None
    as_of: str | None = None
    now: str | None = None
    expect: tuple[str, ...] = ()
    expect_all: tuple[tuple[str, ...], ...] = ()
    stale: tuple[str, ...] = ()

    FIELDS = {"question", "user_id", "context", "as_of", "now", "expect", "expect_all", "stale"}

    @classmethod
    def from_dict(cls, d: Any) -> "Question":
        d = _check_keys(d, cls.FIELDS, {"question", "user_id"}, "question")
        groups = d.get("expect_all") or []
        if not isinstance(groups, list):
            raise InvalidInputError("question expect_all must be a list")
        return cls(
            question=_text(d["question"], "question text"),
            user_id=_text(d["user_id"], "question user_id"),
            context=_text(d.get("context"), "question context", optional=True),
            as_of=_timestamp(d.get("as_of"), "question as_of", optional=True),
            now=_timestamp(d.get("now"), "question now", optional=True),
            expect=_texts(d.get("expect"), "expect"),
            expect_all=tuple((_text(g, "expect_all item"),) if isinstance(g, str) else _texts(g, "expect_all group")
                             for g in groups),
            stale=_texts(d.get("stale"), "stale"),
        )

    def to_dict(self) -> dict:
        return {
            "question": self.question, "user_id": self.user_id, "context": self.context,
            "as_of": self.as_of, "now": self.now, "expect": list(self.expect),
            "expect_all": [g[0] if len(g) == 1 else list(g) for g in self.expect_all],
            "stale": list(self.stale),
        }


@dataclass(frozen=True)
class Alias:
    """``alias`` names the same entity as ``canonical`` for ``user_id``."""

    user_id: str
    canonical: str
    alias: str

    @classmethod
    def from_dict(cls, d: Any) -> "Alias":
        d = _check_keys(d, {"user_id", "canonical", "alias"}, {"user_id", "canonical", "alias"}, "alias")
        return cls(_text(d["user_id"], "alias user_id"), _text(d["canonical"], "alias canonical"),
                   _text(d["alias"], "alias alias"))

    def to_dict(self) -> dict:
        return {"user_id": self.user_id, "canonical": self.canonical, "alias": self.alias}


@dataclass(frozen=True)
class Case:
    id: str
    lang: str
    kind: str
    events: tuple[CaseEvent, ...]
    questions: tuple[Question, ...]
    functional: tuple[str, ...] = ()
    ingest_order: tuple[int, ...] | None = None
    aliases: tuple[Alias, ...] = ()
    note: str | None = None

    FIELDS = {"id", "lang", "kind", "events", "questions", "functional", "ingest_order", "aliases", "note"}

    @classmethod
    def from_dict(cls, d: Any) -> "Case":
        d = _check_keys(d, cls.FIELDS, {"id", "lang", "kind", "events", "questions"}, "case")
        for key in ("events", "questions"):
            if not isinstance(d[key], list) or not d[key]:
                raise InvalidInputError(f"case {key} must be a non-empty list")
        events = tuple(CaseEvent.from_dict(e) for e in d["events"])
        order = d.get("ingest_order")
        if order is not None:
            if not isinstance(order, list) or sorted(order) != list(range(len(events))):
                raise InvalidInputError(f"ingest_order {order!r} is not a permutation of the event indexes")
            order = tuple(order)
        aliases = d.get("aliases") or []
        if not isinstance(aliases, list):
            raise InvalidInputError("case aliases must be a list")
        return cls(
            id=_text(d["id"], "case id"),
            lang=_text(d["lang"], "case lang"),
            kind=_text(d["kind"], "case kind"),
            events=events,
            questions=tuple(Question.from_dict(q) for q in d["questions"]),
            functional=_texts(d.get("functional"), "functional"),
            ingest_order=order,
            aliases=tuple(Alias.from_dict(a) for a in aliases),
            note=_text(d.get("note"), "case note", optional=True),
        )

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "lang": self.lang, "kind": self.kind,
                             "events": [e.to_dict() for e in self.events]}
        if self.functional:
            d["functional"] = list(self.functional)
        if self.ingest_order is not None:
            d["ingest_order"] = list(self.ingest_order)
        if self.aliases:
            d["aliases"] = [a.to_dict() for a in self.aliases]
        d["questions"] = [q.to_dict() for q in self.questions]
        if self.note:
            d["note"] = self.note
        return d

    def ordered_events(self) -> list[CaseEvent]:
        """The events in the order to ingest them (their timestamps are unchanged)."""
        order = self.ingest_order if self.ingest_order is not None else range(len(self.events))
        return [self.events[i] for i in order]

    def now_for(self, question: Question) -> str:
        """The clock for decay: the question's ``now``, else the latest event timestamp."""
        return question.now or max((e.timestamp for e in self.events), key=datetime.fromisoformat)


# --- files ---------------------------------------------------------------------------

def load_cases(path: str | Path) -> list[Case]:
    """Read a JSONL file of cases. A bad line raises InvalidInputError naming its line."""
    cases: list[Case] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                case = Case.from_dict(json.loads(line))
                if case.id in seen:
                    raise InvalidInputError(f"duplicate case id {case.id!r}")
            except (ValueError, TypeError) as exc:  # JSONDecodeError and InvalidInputError are ValueErrors
                raise InvalidInputError(f"{path}:{lineno}: {exc}") from exc
            seen.add(case.id)
            cases.append(case)
    return cases


def write_cases(cases: Iterable[Case], path: str | Path) -> int:
    """Write cases as JSONL (UTF-8, one case a line). Returns how many were written."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for case in cases:
            f.write(json.dumps(case.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n
