"""Rows one search reads more than once, read once (issue 13: a search's own work).

Several stages of a search ask the store for the same small rows: the subject entity of
every belief it views (a slot's values share their subject: one read per value before),
the subjects the question may name (``asked``) and those a chain starts from (``hops``),
with their aliases. At a million events each read is a statement of its own. A
``SearchReads`` is made by one search, passed to its stages explicitly and dropped when it
returns: it holds only what this search has read, so nothing it serves is older than the
search (a process-wide cache could serve a row that a later write changed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class SearchReads:
    """Entity rows and aliases as this search has read them (see module doc)."""

    def __init__(self, store: Any):
        self.store = store
        self._entities: dict[str, dict | None] = {}  # None: no such entity
        self._aliases_of: dict[str, list[str]] = {}

    def entities(self, ids: Iterable[str]) -> dict[str, dict]:
        """The rows of those of ``ids`` that exist (``store.get_nodes``); the ones not read
        yet in one statement."""
        ids = list(dict.fromkeys(ids))
        missing = [i for i in ids if i not in self._entities]
        if missing:
            found = self.store.get_nodes("entity", missing)
            self._entities.update({i: found.get(i) for i in missing})
        return {i: self._entities[i] for i in ids if self._entities[i] is not None}

    def entity(self, entity_id: str) -> dict | None:
        return self.entities([entity_id]).get(entity_id)

    def aliases_of(self, entity_id: str) -> list[str]:
        if entity_id not in self._aliases_of:
            self._aliases_of[entity_id] = self.store.aliases_of(entity_id)
        return self._aliases_of[entity_id]
