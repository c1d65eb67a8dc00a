"""Quoting data for the rendering (``render.py``, "Quoting"): a user string becomes a one-line
JSON string literal with ``&<>`` as entities, so it can never break a line, leave its quotes
or open or close a tag."""

from __future__ import annotations

import json
import re
from typing import Any

_EXTRA_ESCAPES = {c: f"\\u{c:04x}" for c in (0x85, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}
_EXTRA_ESCAPES.update({c: f"\\u{c:04x}" for c in range(0xD800, 0xE000)})  # lone surrogates: escaped, encodable


def escape(text: Any) -> str:
    """``&``, ``<``, ``>`` as entities: a string cannot open or close a tag."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quote(value: Any) -> str:
    """A data string as a one-line JSON string literal with ``&<>`` as entities."""
    return escape(json.dumps(str(value), ensure_ascii=False).translate(_EXTRA_ESCAPES))


def unquote(token: str) -> str:
    """The inverse of ``quote`` (for tests and for code that reads a rendering back)."""
    text = re.sub(r"&(amp|lt|gt);", lambda m: {"amp": "&", "lt": "<", "gt": ">"}[m.group(1)], token)
    return json.loads(text)
