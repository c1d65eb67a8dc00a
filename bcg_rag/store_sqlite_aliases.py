"""The SQLite backend's entity names: aliases (a user's name keys and the entities they
name), merges (``set_canonical``) and the batched reads a search makes of them. A mixin of
``SQLiteStore`` (``store_sqlite.py``); it only calls ``execute``.
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Sequence

from .store_rows import chunks as _chunks
from .store_rows import decode as _decode
from .store_rows import fold_entity_aliases, prefix_end

# alias_targets: the rows of alias keys found, each with the entity it names and that entity's row
_TARGET_COLUMNS = "SELECT a.alias_norm AS alias_key_, a.entity_id AS alias_entity_, e.*"
_ENTITY = "LEFT JOIN entity AS e ON e.id = a.entity_id"
_FIRST_WITH_PREFIX = ("(SELECT alias_norm FROM alias WHERE user_id = ? AND alias_norm >= p.column1 AND alias_norm < p.column2"
                      " ORDER BY alias_norm LIMIT 1)")
PREFIXES_PER_STATEMENT = 200  # two bounds each, beside 500 keys: within SQLite's old limit of 999 values


class SQLiteAliases:
    """The GraphStore methods over aliases (see ``store.py``), SQLite dialect."""

    def get_alias(self, user_id: str, alias_norm: str) -> str | None:
        rows = self.execute("SELECT entity_id FROM alias WHERE user_id = ? AND alias_norm = ?", (user_id, alias_norm))
        return rows[0]["entity_id"] if rows else None

    def set_alias(self, user_id: str, alias_norm: str, entity_id: str | None) -> None:
        if entity_id is None:
            self.execute("DELETE FROM alias WHERE user_id = ? AND alias_norm = ?", (user_id, alias_norm))
        else:
            self.execute(
                "INSERT OR REPLACE INTO alias (user_id, alias_norm, entity_id) VALUES (?, ?, ?)",
                (user_id, alias_norm, entity_id),
            )

    def aliases_of(self, entity_id: str) -> list[str]:
        return [r["alias_norm"] for r in self.execute("SELECT alias_norm FROM alias WHERE entity_id = ? ORDER BY alias_norm", (entity_id,))]

    def aliases_among(self, user_id: str, keys: Sequence[str]) -> list[tuple[str, str]]:
        out = []
        for chunk in _chunks(sorted(set(keys))):  # primary-key seeks: the cost is the keys', not the user's aliases'
            out += [(r["alias_norm"], r["name"]) for r in self.execute(
                "SELECT a.alias_norm, e.name FROM alias a JOIN entity e ON e.id = a.entity_id"
                f" WHERE a.user_id = ? AND a.alias_norm IN ({','.join('?' * len(chunk))})", (user_id, *chunk))]
        return sorted(out)

    def alias_targets(self, user_id: str, keys: Sequence[str],
                      prefixes: Sequence[str] = ()) -> dict[str, tuple[str, dict | None]]:
        """Per key that is one of the user's aliases: the entity it names and that entity's
        row (None when the row is gone); and per prefix the least alias key that starts with
        it. Primary-key seeks, as ``aliases_among`` (a prefix: one range seek)."""
        out: dict[str, tuple[str, dict | None]] = {}
        for chunk, starts in zip_longest(_chunks(sorted(set(keys))), _chunks(sorted(set(prefixes)), PREFIXES_PER_STATEMENT)):
            sql, params = [], []
            if chunk:
                sql.append(f"{_TARGET_COLUMNS} FROM alias AS a {_ENTITY}"
                           f" WHERE a.user_id = ? AND a.alias_norm IN ({','.join('?' * len(chunk))})")
                params += [user_id, *chunk]
            if starts:
                sql.append(f"{_TARGET_COLUMNS} FROM (VALUES {','.join(['(?, ?)'] * len(starts))}) AS p CROSS JOIN alias AS a"
                           f" ON a.user_id = ? AND a.alias_norm = {_FIRST_WITH_PREFIX} {_ENTITY}")
                params += [x for start in starts for x in (start, prefix_end(start))] + [user_id, user_id]
            for r in self.execute(" UNION ALL ".join(sql), params):
                row = dict(r)
                key, entity_id = row.pop("alias_key_"), row.pop("alias_entity_")
                out[key] = (entity_id, _decode("entity", row) if row["id"] is not None else None)
        return out

    def entities_with_aliases(self, ids: Sequence[str]) -> tuple[dict[str, dict], dict[str, list[str]]]:
        """The rows of those of ``ids`` that exist (as ``get_nodes``) and each id's alias keys
        (as ``aliases_of``), in one statement per 500 ids."""
        rows: dict[str, dict] = {}
        aliases: dict[str, list[str]] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            found = self.execute(
                f"WITH ids(id) AS (VALUES {','.join(['(?)'] * len(chunk))}) SELECT ids.id AS entity_key_,"
                " a.alias_norm AS alias_norm_, e.* FROM ids LEFT JOIN entity AS e ON e.id = ids.id"
                " LEFT JOIN alias AS a ON a.entity_id = ids.id ORDER BY ids.id, a.alias_norm", chunk)
            fold_entity_aliases(found, rows, aliases)
        return rows, aliases

    def names_for_user(self, user_id: str) -> list[str]:
        return [r["name"] for r in self.execute(
            "SELECT name FROM entity WHERE user_id = ? UNION SELECT alias_norm FROM alias WHERE user_id = ?", (user_id, user_id))]

    def set_canonical(self, entity_id: str, canonical_id: str | None) -> None:
        self.execute("UPDATE entity SET canonical_id = ? WHERE id = ?", (canonical_id, entity_id))
