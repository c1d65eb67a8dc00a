"""Units of evaluation: which cases share one memory.

Without packing, every case keeps its own memory (cases with identical inputs, such as
MQuAKE's ``-edits`` and ``-multihop`` cases of one record, share it: same events, same
rules, so the same memory). With ``pack=N``, N consecutive *records* go into one memory
of one user, MemoryAgentBench's FactConsolidation setting: every record's questions are
then asked against a memory crowded with near-duplicate facts about other subjects.

A record is the source record of a converter: the cases over the same events (MQuAKE's
edits and multi-hop cases of one record; SituatedQA's update and as-of cases of one
question). Its events are ingested once, in its own ``ingest_order``; records follow
one another in the order they first appear. Case-local user ids (``u1``, ``u2``...) all
become the one pack user, which is only sound when no fact is *about* the user: a case
with a claim whose subject is its user (``u1``, ``I``, ``我``, ``u1's mother``), a
claimless first-person text, or two users, cannot be packed (``PackError``).
"""

from __future__ import annotations

import re
from datetime import datetime
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from ..errors import InvalidInputError
from .cases import Alias, Case, CaseEvent, Question

PACK_USER = "pack"
# Words that make a subject (or a claimless text) about the speaker.
_SELF_WORDS = frozenset({"user", "the user", "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves",
                        "我", "我的", "我们", "咱们", "俺", "本人", "自己"})
_SELF_TEXT = re.compile(r"(?i)(?<![\w'])(i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|us|our|ours)(?![\w'])|我")


class PackError(InvalidInputError):
    """Cases that cannot share one memory of one user (facts about the user, several users)."""


@dataclass
class Unit:
    """Cases answered from one memory, the events to ingest (in order) and the rules."""

    cases: list[Case]
    events: list[CaseEvent]
    functional: tuple[str, ...]
    aliases: tuple[Alias, ...]
    records: int = 1
    user_map: dict[str, str] = field(default_factory=dict)  # case-local user id -> memory user id
    _latest: str | None = field(default=None, repr=False)

    def questions(self) -> Iterable[tuple[Case, Question, Question]]:
        """Every question of every case: as written, and as asked (user id mapped into this memory)."""
        for case in self.cases:
            for q in case.questions:
                yield case, q, (replace(q, user_id=self.user_map[q.user_id]) if self.user_map else q)

    def clock(self, q: Question) -> str:
        """The clock for decay: the question's ``now``, else the latest event timestamp of
        this memory (for one case, ``Case.now_for``): a packed memory is asked after
        everything it was told, as a long-running memory is."""
        if q.now:
            return q.now
        if self._latest is None:
            self._latest = max((e.timestamp for e in self.events), key=datetime.fromisoformat)
        return self._latest

    @property
    def n_questions(self) -> int:
        return sum(len(c.questions) for c in self.cases)


def _record_key(case: Case) -> tuple:
    return (case.events, case.ingest_order, case.aliases)


def records(cases: Sequence[Case]) -> list[list[Case]]:
    """Cases grouped by source record (same events, order and aliases), in first-seen order."""
    groups: dict[tuple, list[Case]] = {}
    for case in cases:
        groups.setdefault(_record_key(case), []).append(case)
    return list(groups.values())


def isolated_units(cases: Sequence[Case]) -> list[Unit]:
    """One memory per case; cases with identical inputs (events, order, aliases and
    functional predicates) share one, which changes no answer."""
    groups: dict[tuple, list[Case]] = {}
    for case in cases:
        groups.setdefault(_record_key(case) + (case.functional,), []).append(case)
    return [Unit(group, group[0].ordered_events(), group[0].functional, group[0].aliases) for group in groups.values()]


def packed_units(cases: Sequence[Case], size: int | None) -> list[Unit]:
    """``size`` consecutive records per memory (``None``: all of them), one user each."""
    problems = [p for case in cases if (p := self_reference(case))]
    if problems:
        raise PackError(
            f"{len(problems)} of {len(cases)} cases cannot be packed into one user's memory: their facts are"
            f" about the user, and packing would merge different users' facts; evaluate them without --pack."
            f" First: {problems[0]}"
        )
    if size is not None and size < 1:
        raise InvalidInputError(f"pack size must be at least 1, got {size}")
    recs = records(cases)
    step = size or max(1, len(recs))
    units = []
    for start in range(0, len(recs), step):
        chunk = recs[start : start + step]
        user_map = {u: PACK_USER for group in chunk for case in group for u in _users(case)}
        events, functional, aliases = [], [], []
        for group in chunk:
            first = group[0]
            events += [replace(e, user_id=PACK_USER) for e in first.ordered_events()]
            aliases += [replace(a, user_id=PACK_USER) for a in first.aliases]
            for case in group:
                functional += [p for p in case.functional if p not in functional]
        units.append(Unit([c for g in chunk for c in g], events, tuple(functional), tuple(aliases), len(chunk), user_map))
    return units


def _users(case: Case) -> set[str]:
    return {e.user_id for e in case.events} | {q.user_id for q in case.questions} | {a.user_id for a in case.aliases}


def self_reference(case: Case) -> str | None:
    """Why ``case`` cannot be packed, or None."""
    users = _users(case)
    if len(users) > 1:
        return f"case {case.id!r} has {len(users)} users ({', '.join(sorted(users))})"
    for i, e in enumerate(case.events):
        for c in e.claims:
            subject = " ".join(c.subject.casefold().split())
            owner = e.user_id.casefold()
            if subject == owner or subject in _SELF_WORDS or subject.startswith((f"{owner}'s ", "user's ")):
                return f"case {case.id!r}, event {i}: the claim subject {c.subject!r} is the user"
        if not e.claims and _SELF_TEXT.search(e.text):
            return f"case {case.id!r}, event {i}: the text speaks in the first person ({e.text!r})"
    return None


def parse_pack_sizes(values: Iterable[str]) -> list[int | None]:
    """``["1,10", "100", "all"]`` -> ``[1, 10, 100, None]`` (None: the whole data set)."""
    out: list[int | None] = []
    for value in values:
        for part in str(value).split(","):
            part = part.strip().casefold()
            if not part:
                continue
            if part == "all":
                size = None
            else:
                try:
                    size = int(part)
                except ValueError:
                    raise InvalidInputError(f"pack size {part!r} is neither a positive integer nor 'all'") from None
                if size < 1:
                    raise InvalidInputError(f"pack size must be at least 1, got {size}")
            if size not in out:
                out.append(size)
    return out


def pack_label(size: int | None) -> str:
    return "all" if size is None else str(size)
