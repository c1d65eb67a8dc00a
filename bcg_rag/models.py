"""Node and edge types of the belief context graph.

Facts (Entity, Event, Evidence, Context) are immutable records. A Belief is the
only node whose state changes, and that state is always the fold of its edges
(see ``revision.py``), so it can be recomputed or replayed at any time.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, Literal

from .errors import InvalidStanceError, InvalidWeightError, UnknownRelationError

SUPPORTS = "SUPPORTS"
REFUTES = "REFUTES"
BELONGS_TO = "BELONGS_TO"
CONTEXT_OF = "CONTEXT_OF"
OCCURRED_IN = "OCCURRED_IN"
RELATIONS = frozenset({SUPPORTS, REFUTES, BELONGS_TO, CONTEXT_OF, OCCURRED_IN})

# A claim may fall due at most a year after it is said: a later date is a wish, not a schedule.
MAX_STARTS_IN_DAYS = 366

# What another agent sees instead of a private evidence text.
HIDDEN_TEXT = "(observed by another agent)"

# Source types that are not the user telling: a record, a guess.
WEAKER_SOURCES = frozenset({"third_party", "model_inferred"})

Relation = Literal["SUPPORTS", "REFUTES", "BELONGS_TO", "CONTEXT_OF", "OCCURRED_IN"]


def check_relation(relation: str) -> str:
    if relation not in RELATIONS:
        raise UnknownRelationError(f"unknown relation {relation!r}; allowed: {sorted(RELATIONS)}")
    return relation


def check_unit(value: Any, name: str, low: float, high: float, error: type[Exception]) -> float:
    """A finite float in [low, high], or a typed error."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error(f"{name} must be a number in [{low}, {high}], got {value!r}")
    value = float(value)
    if math.isnan(value) or not (low <= value <= high):
        raise error(f"{name} must be in [{low}, {high}], got {value!r}")
    return value


@dataclass(frozen=True)
class Claim:
    """A structured statement about an entity: what an extractor produces.

    ``stance`` is how strongly the evidence asserts (+) or denies (-) that
    ``subject`` has ``value`` for ``predicate``.
    """

    subject: str
    predicate: str
    value: str
    stance: float = 1.0
    source_type: str | None = None  # overrides the evidence's source type for this claim
    context: str | None = None  # overrides the evidence's context for this claim
    # Said as an addition ("I also work at Globex on weekends"): it supports its own value
    # but does not refute the other values of a single-valued slot.
    additive: bool = False
    # Said as due on a date ("starting at Oak Valley High next week"): the claim holds from
    # this many days after its evidence's time, and counts from then on; 0 is when it was said.
    starts_in_days: int = 0

    def __post_init__(self) -> None:
        from .checks import encodable
        from .errors import InvalidInputError

        for name in ("subject", "predicate", "value"):
            v = getattr(self, name)
            if not isinstance(v, str) or not v.strip():
                raise InvalidInputError(f"claim {name} must be a non-empty string, got {v!r:.80}")
            encodable(v, f"claim {name}")
        for name in ("source_type", "context"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, str) or not v.strip()):
                raise InvalidInputError(f"claim {name} must be a non-empty string or None, got {v!r:.80}")
        object.__setattr__(self, "stance", check_unit(self.stance, "stance", -1.0, 1.0, InvalidStanceError))
        if not isinstance(self.additive, bool):
            raise InvalidInputError(f"claim additive must be a bool, got {self.additive!r:.80}")
        days = self.starts_in_days
        if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= MAX_STARTS_IN_DAYS:
            raise InvalidInputError(f"claim starts_in_days must be an integer in [0, {MAX_STARTS_IN_DAYS}], got {days!r:.80}")

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Entity:
    id: str
    user_id: str
    name: str
    entity_type: str = "thing"
    aliases: tuple[str, ...] = ()
    canonical_id: str | None = None  # None: this entity is canonical


@dataclass(frozen=True)
class Event:
    id: str
    event_type: str
    timestamp: str


@dataclass(frozen=True)
class Context:
    id: str  # "type:value", e.g. "topic:coffee"
    context_type: str
    context_value: str
    parent: str | None = None


@dataclass(frozen=True)
class Evidence:
    id: str
    text: str
    source: str
    source_type: str
    timestamp: str
    event_id: str
    user_id: str
    agent_id: str | None
    embedding_key: str
    context: str | None = None
    private: bool = False  # text visible only to agent_id

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    relation: str
    weight: float | None = None
    value: float | None = None  # the evidence's signed value for SUPPORTS / REFUTES
    valid_from: str | None = None
    valid_until: str | None = None
    reason: str | None = None  # "claim", or "functional:<predicate>" for derived refutations
    source_type: str | None = None  # of the claim behind a SUPPORTS / REFUTES edge (sets initial confidence)

    def __post_init__(self) -> None:
        check_relation(self.relation)
        if self.weight is not None:
            check_unit(self.weight, "weight", 0.0, 1.0, InvalidWeightError)
        if self.value is not None:
            check_unit(self.value, "value", -1.0, 1.0, InvalidStanceError)

    @classmethod
    def from_row(cls, row: Any) -> "Edge":
        """An edge read back from the store, which checked it on the way in: not checked
        again (a search reads hundreds, and the checks were most of their cost)."""
        edge = object.__new__(cls)
        fields_ = edge.__dict__
        fields_.update(EDGE_DEFAULTS)
        fields_.update(row)  # a mapping or an sqlite3.Row (keys() and [name]): no dict copy of it first
        return edge


EDGE_DEFAULTS = {f.name: f.default for f in fields(Edge) if f.default is not MISSING}


@dataclass(frozen=True)
class HistoryEntry:
    old: float | None  # None for the creating evidence
    new: float
    evidence_id: str
    at: str  # the evidence's timestamp (event time)
    relation: str
    weight: float
    value: float
    reason: str = "claim"


@dataclass
class Belief:
    id: str
    user_id: str
    subject_id: str
    subject: str  # the canonical entity's name
    predicate: str
    value: str
    contexts: list[str]
    context_key: str  # the context group this belief lives in ("" for no context)
    confidence: float
    last_updated: str
    history: list[HistoryEntry] = field(default_factory=list)
    status: str = "active"
    effective_confidence: float | None = None  # decayed view at read time
    band: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Change:
    belief_id: str
    old: float | None
    new: float


@dataclass
class ObserveResult:
    evidence_id: str
    duplicate: bool
    changes: list[Change] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
