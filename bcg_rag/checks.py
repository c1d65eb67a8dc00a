"""Input checks shared by the write and read paths: each raises a typed error (a
``BCGError``) before anything is written, and before any work proportional to the size
of the input is done. Sizes are bounded by the policy's ``[limits]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from os import PathLike
from typing import Any, Sequence

from .errors import FutureTimestampError, InputTooLargeError, InvalidInputError, MissingUserError
from .models import Claim
from .timeutil import parse_timestamp, to_datetime

# Names by which a user speaks of themself: claims about them are claims about the user.
FIRST_PERSON = frozenset({"user", "i", "me", "my", "myself", "我", "我的", "本人", "自己"})


@dataclass(frozen=True)
class Limits:
    """The policy's ``[limits]`` (see default_policy.toml)."""

    max_message_chars: int = 50000
    max_query_chars: int = 10000
    max_field_chars: int = 1000
    max_claims_per_message: int = 100
    max_batch_items: int = 10000
    max_top_k: int = 1000
    max_future_skew_days: float = 1.0

    @classmethod
    def of(cls, memory: Any) -> "Limits":
        policy = getattr(memory, "policy", None)
        section = policy.section("limits") if policy is not None else {}
        return cls(**{k: v for k, v in section.items() if k in cls.__dataclass_fields__})


# --- strings ----------------------------------------------------------------------------
def encodable(value: str, name: str) -> str:
    """Text that UTF-8 can store: a lone surrogate ("\\ud800") cannot be written to SQLite,
    hashed into an id or tokenised, so it is refused here, as bad input."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(f"{name} is not valid Unicode text ({exc.reason} at position {exc.start})") from None
    return value


def check_text(value: Any, name: str, limit: int | None = None, *, error: type[Exception] = InvalidInputError) -> str:
    """A non-empty string of at most ``limit`` characters that UTF-8 can encode."""
    if not isinstance(value, str) or not value.strip():
        raise error(f"{name} must be a non-empty string, got {_show(value)}")
    if limit is not None and len(value) > limit:
        raise InputTooLargeError(f"{name} has {len(value)} characters; the limit is {limit} ([limits] in the policy)")
    return encodable(value, name)


def check_optional_text(value: Any, name: str, limit: int | None = None) -> str | None:
    return None if value is None else check_text(value, name, limit)


def check_id(value: Any, name: str) -> str:
    """An id argument (belief, evidence, entity): a non-empty string. Whether it exists
    is for the caller (NotFoundError)."""
    return check_text(value, name, 1000)


def check_bool(value: Any, name: str) -> bool:
    """True or False, not a truthy string ("false" is not False)."""
    if not isinstance(value, bool):
        raise InvalidInputError(f"{name} must be True or False, got {_show(value)}")
    return value


def check_count(value: Any, name: str, limit: int | None = None, *, low: int = 1) -> int:
    """An int >= ``low`` (not a bool, not "5"), at most ``limit``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer, got {_show(value)}")
    if value < low:
        raise InvalidInputError(f"{name} must be >= {low}, got {value}")
    if limit is not None and value > limit:
        raise InputTooLargeError(f"{name} is {value}; the limit is {limit} ([limits] max_top_k in the policy)")
    return value


def check_items(items: Any, name: str, limit: int | None = None) -> list:
    """A list or tuple (not a string, not a generator that could be consumed twice)."""
    if isinstance(items, (str, bytes, dict)) or not isinstance(items, (list, tuple)):
        raise InvalidInputError(f"{name} must be a list, got {_show(items)}")
    if limit is not None and len(items) > limit:
        raise InputTooLargeError(f"{name} has {len(items)} items; the limit is {limit} ([limits] in the policy)")
    return list(items)


def check_path(path: Any) -> Any:
    """A memory directory: a non-empty path (``""`` would silently mean the current directory)."""
    if not isinstance(path, (str, PathLike)) or not str(path).strip():
        raise InvalidInputError(f"a memory directory must be a non-empty path, got {_show(path)}")
    return path


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# --- users, contexts, predicates, claims --------------------------------------------------
def require_user(user_id: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip():
        raise MissingUserError(f"a non-empty user_id is required, got {_show(user_id)}")
    return encodable(user_id, "user_id")


def check_context(context: Any) -> str | None:
    if context is None:
        return None
    if not isinstance(context, str) or not context.strip():
        raise InvalidInputError(f"context must be a non-empty string like 'topic:coffee', got {_show(context)}")
    return encodable(context, "context").strip()


def clean_predicate(predicate: Any) -> str:
    if not isinstance(predicate, str) or not predicate.strip():
        raise InvalidInputError(f"predicate must be a non-empty string, got {_show(predicate)}")
    return " ".join(encodable(predicate, "predicate").split())


def as_claim(c: Claim | dict) -> Claim:
    if isinstance(c, Claim):
        return c
    if isinstance(c, dict):
        try:
            return Claim(**c)
        except TypeError as exc:
            raise InvalidInputError(f"bad claim {_show(c)}: {exc}") from None
    raise InvalidInputError(f"a claim must be a Claim or a dict, got {type(c).__name__}")


def check_claim_size(c: Claim, limits: Limits) -> Claim:
    for name in ("subject", "predicate", "value"):
        check_text(getattr(c, name), f"claim {name}", limits.max_field_chars)
    if c.source_type is not None and not isinstance(c.source_type, str):
        raise InvalidInputError(f"claim source_type must be a string, got {_show(c.source_type)}")
    if c.context is not None:
        check_text(c.context, "claim context", limits.max_field_chars)
    return c


# --- time -------------------------------------------------------------------------------
def check_not_future(memory: Any, ts: str, name: str = "timestamp") -> str:
    """Evidence may not be dated more than ``[limits] max_future_skew_days`` after the
    memory's clock: a claim dated 2205 would never decay and outweigh every later one."""
    skew = Limits.of(memory).max_future_skew_days
    now = parse_timestamp(memory.clock(), "the memory's clock")
    if to_datetime(ts) > to_datetime(now) + timedelta(days=skew):
        raise FutureTimestampError(
            f"{name} {ts} is more than {skew:g} days after the memory's clock ({now}); "
            "evidence from the future is refused ([limits] max_future_skew_days)"
        )
    return ts


# --- queries ----------------------------------------------------------------------------
def check_query(memory: Any, query: Any) -> str:
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("the query must be a non-empty string")
    return check_text(query, "the query", Limits.of(memory).max_query_chars)


def check_agent(agent_id: Any) -> str | None:
    if agent_id is not None and (not isinstance(agent_id, str) or not agent_id.strip()):
        raise InvalidInputError(f"agent_id must be a non-empty string or None, got {_show(agent_id)}")
    return agent_id if agent_id is None else encodable(agent_id, "agent_id")


def check_sequence_of_str(values: Sequence[Any], name: str) -> None:
    for v in values:
        check_text(v, name)
