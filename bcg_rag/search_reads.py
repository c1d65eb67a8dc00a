"""Rows one search reads more than once, or one at a time, read once and together (issue 13:
a search's own work).

Several stages of a search ask the store for the same small rows: the subject entity of
every belief it views (a slot's values share their subject: one read per value before),
the subjects the question may name (``asked``) and those a chain starts from (``hops``),
with their aliases; and a chain resolves each value it follows by its name and dozens of
guessed forms of it (``hops._Walker.target``). At a million events each read is a
statement of its own, and their count, not their size, made most of a search's SQL. A
``SearchReads`` is made by one search, passed to its stages explicitly and dropped when it
returns: it holds only what this search has read, so nothing it serves is older than the
search (a process-wide cache could serve a row that a later write changed). Its stages ask
it for what they will read next in one call (``names``, ``alias_targets``), so one
statement reads what took one per entity or per name.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any

from .checks import FIRST_PERSON
from .entities import alias_key, follow_merges
from .extract.lexicon import org_forms
from .ids import normalise_key


# Guessed names whose keys share a first word with this many others or more are looked up only
# where some alias key starts with that word (``SearchReads.look_up_names``).
PROBED_GROUP = 8


# The words that end a company's full name and that its short form drops.
ORG_SUFFIX = re.compile(r"(?<=\w)(?:,?\s+(?:Inc|Corp|Corporation|Co|Company|Group|Labs?|Technologies|Systems|Analytics|Bio|"
                        r"Biosciences|Software|Studios?|Holdings|Partners|Capital|Robotics|AI|Media|Ltd|LLC|GmbH)\.?)+$")

# Values whose names a process keeps per lexicon (``name_forms``): the words a few hundred
# searches' questions capitalise; past it the kept ones are dropped and kept anew.
NAME_FORMS_KEPT = 1024
_name_forms: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # lexicon -> value -> name_forms


def name_forms(value: str, lexicon: Any) -> tuple[tuple[str, str], tuple[str, ...]]:
    """The names ``hops._Walker.target`` resolves for a value: (the value, the value without a
    company suffix), and the guessed forms of an organisation's name (``org_forms``; dozens
    for a capitalised word). Kept per process and lexicon (a lexicon does not change once
    made; a dropped one takes its values with it): a search asks it of every capitalised word
    of its question ("Where", "Arlo"), and the guessed tuple is what
    ``guessed_keys`` keeps its keys under."""
    kept = _name_forms.get(lexicon)
    if kept is None:
        kept = _name_forms[lexicon] = {}
    found = kept.get(value)
    if found is None:
        if len(kept) >= NAME_FORMS_KEPT:
            kept.clear()
        found = kept[value] = ((value, ORG_SUFFIX.sub("", value)), tuple(org_forms(value, lexicon)))
    return found


@functools.lru_cache(maxsize=1024)  # the words a few hundred searches' questions capitalise
def guessed_keys(forms: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The alias keys of a list of guessed names (a tuple, the cache's key: ``name_forms``
    gives the same one for a value each time), and the prefix ``look_up_names`` probes first
    when they are PROBED_GROUP or more that all start with one word and a space ("" when they
    are looked up as they are)."""
    found = tuple(map(normalise_key, forms))
    prefix = found[0].partition(" ")[0] + " " if found else ""
    if len(found) >= PROBED_GROUP and prefix != " " and all(map(str.startswith, found, repeat(prefix))):
        return prefix, found
    return "", found


class SearchReads:
    """Entity rows, aliases, alias keys and evidence rows as this search has read them (see
    module doc)."""

    def __init__(self, store: Any, user_id: str | None = None):
        """``user_id``: the searching user, whose own alias key is looked up with the first
        keys looked up for them (most searches' hops resolve the user: "I", their employer)."""
        self.store = store
        self._own_key = (user_id, normalise_key(user_id)) if user_id else None
        self._entities: dict[str, dict | None] = {}  # None: no such entity
        self._aliases_of: dict[str, list[str]] = {}
        self._targets: dict[str, dict[str, str | None]] = {}  # user -> alias key -> entity id (None: no such alias)
        self._evidence: dict[str, dict | None] = {}
        self._wanted: list[str] = []  # evidence ids to read with the next evidence read

    def entities(self, ids: Iterable[str]) -> dict[str, dict]:
        """The rows of those of ``ids`` that exist (``store.get_nodes``); the ones not read
        yet in one statement, with their aliases."""
        ids = list(dict.fromkeys(ids))
        missing = [i for i in ids if i not in self._entities]
        if missing:
            self._read_names(missing)
        return {i: self._entities[i] for i in ids if self._entities[i] is not None}

    def entity(self, entity_id: str) -> dict | None:
        if entity_id not in self._entities:  # asked dozens of times a search: no list for one id
            self._read_names([entity_id])
        return self._entities[entity_id]

    def names(self, ids: Iterable[str]) -> None:
        """Read the rows and aliases of those of ``ids`` not read yet, in one statement."""
        missing = [i for i in dict.fromkeys(ids) if i not in self._aliases_of]
        if missing:
            self._read_names(missing)

    def aliases_of(self, entity_id: str) -> list[str]:
        if entity_id not in self._aliases_of:
            self._read_names([entity_id])
        return self._aliases_of[entity_id]

    def _read_names(self, ids: list[str]) -> None:
        rows, aliases = self.store.entities_with_aliases(ids)
        self._entities.update({i: rows.get(i) for i in ids})
        self._aliases_of.update({i: aliases.get(i, []) for i in ids})

    def alias_targets(self, user_id: str, keys: Iterable[str]) -> dict[str, str]:
        """Of ``keys``, those that are the user's alias keys, each with the entity id it
        names (``store.get_alias``); the keys not looked up yet in one statement, which also
        reads the entities' rows."""
        targets = self._targets.setdefault(user_id, {})
        keys = list(keys)
        missing = [k for k in dict.fromkeys(keys) if k not in targets]
        if missing:
            self._read_targets(user_id, missing)
        return {k: e for k in keys if (e := targets[k]) is not None}

    def _read_targets(self, user_id: str, keys: list[str], prefixes: list[str] = ()) -> set[str]:
        """``store.alias_targets``: every key and entity row it returns kept (``keys`` not
        found: known to name nothing); the keys it returned."""
        targets = self._targets.setdefault(user_id, {})
        if self._own_key is not None and self._own_key[0] == user_id:
            keys = keys + ([self._own_key[1]] if self._own_key[1] not in targets and self._own_key[1] not in keys else [])
            self._own_key = None
        found = self.store.alias_targets(user_id, keys, prefixes)
        for key in keys:
            targets[key] = None
        for key, (entity_id, row) in found.items():
            targets[key] = entity_id
            if entity_id not in self._entities:
                self._entities[entity_id] = row
        return set(found)

    def look_up_names(self, user_id: str, names: Iterable[str], guessed: Iterable[list[str]] = ()) -> list[bool]:
        """Look up the alias keys of ``names`` not looked up yet in one statement, so that
        ``resolve_entity`` and ``known_forms`` of them read nothing more. ``guessed``: lists
        of names that rarely name anything (an organisation's name with each suffix the
        lexicon knows: "Where Inc", "Where Labs", ...); a list of PROBED_GROUP keys or more
        that all start with one word and a space is looked up (in a second statement) only
        when some alias key of the user starts with them (one range seek). Per list of
        ``guessed``: False when none of it can be an alias key (``known_forms`` of it is [])."""
        targets = self._targets.setdefault(user_id, {})
        keys = {normalise_key(name) for name in names}
        if keys & FIRST_PERSON:  # resolve_entity looks "I", "me", "我" up as the user's own key
            keys.add(normalise_key(user_id))
        lists = [guessed_keys(tuple(forms)) for forms in guessed]  # (the prefix probed, or "", the list's keys)
        for prefix, found in lists:
            if not prefix:
                keys.update(found)
        known = targets.__contains__
        probed = {prefix for prefix, found in lists if prefix and not all(map(known, found))}
        missing = [k for k in keys if k and k not in targets]
        if missing or probed:
            returned = self._read_targets(user_id, missing, sorted(probed))
            live = {prefix for prefix in probed if any(key.startswith(prefix) for key in returned)}
            todo = [k for prefix, found in lists if prefix in live for k in found if k not in targets]
            for prefix, found in lists:
                if prefix in probed and prefix not in live:  # no alias key of the user starts with it: none of these is one
                    targets.update({k: None for k in found if k not in targets})
            if todo:
                self._read_targets(user_id, list(dict.fromkeys(todo)))
        # per list: some key of it names an entity (targets: None for a key looked up that names nothing)
        return [not prefix or list(map(targets.get, found)).count(None) < len(found) for prefix, found in lists]

    def resolve_entity(self, user_id: str, name: str) -> str | None:
        """``entities.resolve_entity(memory, user_id, name)`` (never creating), read through
        this search's rows: the canonical entity the name means for the user, if any."""
        key = alias_key(user_id, name)
        targets = self._targets.get(user_id, {})
        entity_id = targets[key] if key in targets else self.alias_targets(user_id, [key]).get(key)
        return None if entity_id is None else follow_merges(entity_id, self.entity)

    def known_forms(self, user_id: str, forms: list[str]) -> list[str]:
        """``entities.known_forms``: the forms, in order, whose key is one of the user's
        aliases of an entity that exists."""
        keys = list(map(normalise_key, forms))
        targets = self._targets.setdefault(user_id, {})
        if any(k and k not in targets for k in keys):
            self.alias_targets(user_id, [k for k in keys if k])
        entities = self._entities
        return [f for f, k in zip(forms, keys) if k and (e := targets[k]) is not None and entities.get(e) is not None]

    def want_evidence(self, ids: Iterable[str]) -> None:
        """Evidence this search will read later: read with the next ``evidence`` call."""
        self._wanted.extend(ids)

    def evidence(self, ids: Iterable[str]) -> dict[str, dict]:
        """The evidence rows of those of ``ids`` that exist (``store.get_nodes``); the ones
        not read yet in one statement, with those wanted (``want_evidence``)."""
        ids = list(dict.fromkeys(ids))
        missing = [i for i in ids if i not in self._evidence]
        if missing:
            missing = list(dict.fromkeys(missing + [i for i in self._wanted if i not in self._evidence]))
            self._wanted = []
            found = self.store.get_nodes("evidence", missing)
            self._evidence.update({i: found.get(i) for i in missing})
        return {i: self._evidence[i] for i in ids if self._evidence[i] is not None}
