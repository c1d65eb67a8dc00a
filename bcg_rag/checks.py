"""Input checks shared by the write and read paths: each raises a typed error before
anything is written."""

from __future__ import annotations

from typing import Any

from .errors import InvalidInputError, MissingUserError
from .models import Claim

# Names by which a user speaks of themself: claims about them are claims about the user.
FIRST_PERSON = frozenset({"user", "i", "me", "my", "myself", "我", "我的", "本人", "自己"})


def require_user(user_id: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip():
        raise MissingUserError(f"a non-empty user_id is required, got {user_id!r}")
    return user_id


def check_context(context: Any) -> str | None:
    if context is None:
        return None
    if not isinstance(context, str) or not context.strip():
        raise InvalidInputError(f"context must be a non-empty string like 'topic:coffee', got {context!r}")
    return context.strip()


def clean_predicate(predicate: str) -> str:
    return " ".join(predicate.split())


def as_claim(c: Claim | dict) -> Claim:
    if isinstance(c, Claim):
        return c
    if isinstance(c, dict):
        try:
            return Claim(**c)
        except TypeError as exc:
            raise InvalidInputError(f"bad claim {c!r}: {exc}") from None
    raise InvalidInputError(f"a claim must be a Claim or a dict, got {type(c).__name__}")
