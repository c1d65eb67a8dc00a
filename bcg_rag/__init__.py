"""bcg-rag: a belief context graph memory for LLM applications.

Facts (evidence, events, entities, contexts) are immutable; beliefs carry a signed
confidence that moves with each piece of evidence by plain arithmetic, so every
answer can say why it is believed.
"""

from .errors import (
    AccessDeniedError,
    BCGError,
    ConfigError,
    EmptyTextError,
    ExtractionError,
    InvalidInputError,
    InvalidStanceError,
    InvalidTimestampError,
    InvalidWeightError,
    MissingUserError,
    NotFoundError,
    StoreError,
    UnknownRelationError,
    UnknownSourceTypeError,
)
from .memory import BeliefMemory, Explanation
from .models import Belief, Change, Claim, Context, Edge, Entity, Event, Evidence, HistoryEntry, ObserveResult
from .policy import Policy

__all__ = [
    "AccessDeniedError", "BCGError", "Belief", "BeliefMemory", "Change", "Claim", "ConfigError", "Context", "Edge",
    "EmptyTextError", "Entity", "Event", "Evidence", "Explanation", "ExtractionError", "HistoryEntry",
    "InvalidInputError", "InvalidStanceError", "InvalidTimestampError", "InvalidWeightError", "MissingUserError",
    "NotFoundError", "ObserveResult", "Policy", "StoreError", "UnknownRelationError", "UnknownSourceTypeError",
]
__version__ = "0.1.0"

from .errors import DeletionIncompleteError, FutureTimestampError, InputTooLargeError, ReadOnlyError  # noqa: E402

__all__ += ["DeletionIncompleteError", "FutureTimestampError", "InputTooLargeError", "ReadOnlyError"]
