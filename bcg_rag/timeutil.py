"""Timestamps: stored as naive-UTC ISO 8601 strings so that text order is time order."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from .errors import InvalidTimestampError


def parse_timestamp(value: object, name: str = "timestamp") -> str:
    """Normalise a datetime, date or ISO string to 'YYYY-MM-DDTHH:MM:SS[.ffffff]' in UTC."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    elif isinstance(value, str) and value.strip():
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            raise InvalidTimestampError(f"{name} {value!r} is not an ISO 8601 date or datetime") from None
    else:
        raise InvalidTimestampError(f"{name} must be an ISO 8601 string or a datetime, got {value!r}")
    if dt.tzinfo is not None:
        dt = dt.astimezone(timezone.utc).replace(tzinfo=None)
    return dt.isoformat(timespec="microseconds" if dt.microsecond else "seconds")


def to_datetime(ts: str) -> datetime:
    return datetime.fromisoformat(ts)


def days_between(earlier: str, later: str) -> float:
    return (to_datetime(later) - to_datetime(earlier)).total_seconds() / 86400.0


def utc_now() -> str:
    return parse_timestamp(datetime.now(timezone.utc).replace(microsecond=0))


def days_after(ts: str, days: int) -> str:
    """``ts`` moved ``days`` days on, in the same form."""
    return parse_timestamp(to_datetime(ts) + timedelta(days=days)) if days else ts
