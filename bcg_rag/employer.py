"""The user's unnamed employer: "公司总部搬到南京了", "our company moved its HQ to Denver".

The extractor gives such statements the subject ``employer_of(user)`` (it cannot know which
company is meant). A chain that reaches the user's employer through the user's current
``works_at`` value reads them as that company's, when they were said since the user first
said they work there: the employer the user had at the time. Read at search time from the
stored beliefs, so the beliefs themselves do not depend on the order statements arrive in.
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidInputError
from .extract.text import employer_of
from .models import SUPPORTS

EMPLOYER_PREDICATE = "works_at"


def unnamed_employer(memory: Any, user_id: str, reads: Any = None) -> str | None:
    """The entity of the user's unnamed employer, if anything was said of it (``reads``: a
    search's ``SearchReads``, which resolves names it has looked up without reading again)."""
    try:
        resolve = reads.resolve_entity if reads is not None else memory.resolve_entity
        return resolve(user_id, employer_of(user_id))
    except InvalidInputError:
        return None


def employer_rows(memory: Any, user_id: str, entity_id: str, via: dict, history: bool, reads: Any = None) -> list[dict]:
    """Beliefs about the user's unnamed employer, as ``entity_id``'s; ``via`` is the user's own
    ``works_at`` row that a chain followed to ``entity_id``."""
    unnamed = unnamed_employer(memory, user_id, reads)
    if unnamed is None or unnamed == entity_id:
        return []
    started = min((e.valid_from or "" for e in memory.store.edges_to([via["id"]], [SUPPORTS])), default=None)
    if started is None:
        return []
    rows = memory.store.find_beliefs(user_id, history=history, subject_id=unnamed)
    return [dict(r, subject_id=entity_id) for r in rows if str(r["last_updated"]) >= started]
