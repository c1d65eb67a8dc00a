"""The PostgreSQL backend's entity names: aliases (a user's name keys and the entities they
name), merges (``set_canonical``) and the batched reads a search makes of them. A mixin of
``PostgresStore`` (``store_postgres.py``); it only calls ``execute``.
"""

from __future__ import annotations

from typing import Sequence

from .store_rows import decode as _decode
from .store_rows import fold_entity_aliases, prefix_end


class PostgresAliases:
    """The GraphStore methods over aliases (see ``store.py``), PostgreSQL dialect."""

    schema: str

    def get_alias(self, user_id: str, alias_norm: str) -> str | None:
        rows = self.execute(f"SELECT entity_id FROM {self.schema}.alias WHERE user_id = %s AND alias_norm = %s", (user_id, alias_norm))
        return rows[0]["entity_id"] if rows else None

    def set_alias(self, user_id: str, alias_norm: str, entity_id: str | None) -> None:
        if entity_id is None:
            self.execute(f"DELETE FROM {self.schema}.alias WHERE user_id = %s AND alias_norm = %s", (user_id, alias_norm))
        else:
            self.execute(
                f"INSERT INTO {self.schema}.alias (user_id, alias_norm, entity_id) VALUES (%s, %s, %s)"
                " ON CONFLICT (user_id, alias_norm) DO UPDATE SET entity_id = EXCLUDED.entity_id",
                (user_id, alias_norm, entity_id),
            )

    def aliases_of(self, entity_id: str) -> list[str]:
        rows = self.execute(f"SELECT alias_norm FROM {self.schema}.alias WHERE entity_id = %s ORDER BY alias_norm", (entity_id,))
        return [r["alias_norm"] for r in rows]

    def aliases_among(self, user_id: str, keys: Sequence[str]) -> list[tuple[str, str]]:
        rows = self.execute(f"SELECT a.alias_norm, e.name FROM {self.schema}.alias a JOIN {self.schema}.entity e ON e.id = a.entity_id"
                            " WHERE a.user_id = %s AND a.alias_norm = ANY(%s) ORDER BY a.alias_norm", (user_id, sorted(set(keys))))
        return [(r["alias_norm"], r["name"]) for r in rows]

    def alias_targets(self, user_id: str, keys: Sequence[str],
                      prefixes: Sequence[str] = ()) -> dict[str, tuple[str, dict | None]]:
        """Per key that is one of the user's aliases: the entity it names and that entity's
        row (None when the row is gone); and per prefix the least alias key that starts with
        it (one range seek)."""
        s = self.schema
        columns = "SELECT a.alias_norm AS alias_key_, a.entity_id AS alias_entity_, e.*"
        entity = f"LEFT JOIN {s}.entity AS e ON e.id = a.entity_id"
        sql, params = [], []
        if keys:
            sql.append(f"{columns} FROM {s}.alias AS a {entity} WHERE a.user_id = %s AND a.alias_norm = ANY(%s)")
            params += [user_id, sorted(set(keys))]
        if prefixes:
            starts = sorted(set(prefixes))
            sql.append(f"{columns} FROM unnest(%s::text[], %s::text[]) AS p(lo, hi) JOIN {s}.alias AS a ON a.user_id = %s"
                       f" AND a.alias_norm = (SELECT alias_norm FROM {s}.alias WHERE user_id = %s AND alias_norm >= p.lo"
                       f" AND alias_norm < p.hi ORDER BY alias_norm LIMIT 1) {entity}")
            params += [starts, [prefix_end(p) for p in starts], user_id, user_id]
        out: dict[str, tuple[str, dict | None]] = {}
        for r in self.execute(" UNION ALL ".join(sql), params) if sql else []:
            row = dict(r)
            key, entity_id = row.pop("alias_key_"), row.pop("alias_entity_")
            out[key] = (entity_id, _decode("entity", row) if row["id"] is not None else None)
        return out

    def entities_with_aliases(self, ids: Sequence[str]) -> tuple[dict[str, dict], dict[str, list[str]]]:
        """The rows of those of ``ids`` that exist (as ``get_nodes``) and each id's alias keys
        (as ``aliases_of``), in one statement."""
        s = self.schema
        rows: dict[str, dict] = {}
        aliases: dict[str, list[str]] = {}
        ids = list(dict.fromkeys(ids))
        found = self.execute(f"SELECT b.id AS entity_key_, a.alias_norm AS alias_norm_, e.* FROM unnest(%s::text[]) AS b(id)"
                             f" LEFT JOIN {s}.entity AS e ON e.id = b.id LEFT JOIN {s}.alias AS a ON a.entity_id = b.id"
                             " ORDER BY b.id, a.alias_norm", (ids,)) if ids else []
        fold_entity_aliases(found, rows, aliases)
        return rows, aliases

    def names_for_user(self, user_id: str) -> list[str]:
        rows = self.execute(f"SELECT name FROM {self.schema}.entity WHERE user_id = %s UNION "
                            f"SELECT alias_norm FROM {self.schema}.alias WHERE user_id = %s", (user_id, user_id))
        return [r["name"] for r in rows]

    def set_canonical(self, entity_id: str, canonical_id: str | None) -> None:
        self.execute(f"UPDATE {self.schema}.entity SET canonical_id = %s WHERE id = %s", (canonical_id, entity_id))
