"""The PostgreSQL backend's facts: evidence, claims, claim vectors, edges, the audit
log (aliases: ``store_postgres_aliases``), and deleting them (lifecycle). A mixin of ``PostgresStore``
(``store_postgres.py``), which owns the session, the transactions and the beliefs; it
only calls ``execute`` and ``_rowcount``.
"""

from __future__ import annotations

import json
from typing import Iterable, Sequence

import numpy as np

from .models import Edge
from .store import TEXT_COLUMNS
from .store_rows import DIRECT_PATTERNS, DIRECT_SQL, edge_rows
from .store_rows import decode as _decode
from .store_rows import table as _table


class PostgresFacts:
    """Every GraphStore method over facts (see ``store.py``), PostgreSQL dialect."""

    schema: str

    def evidence_ids(self, user_id: str | None = None) -> list[str]:
        s = self.schema
        if user_id is None:
            return [r["id"] for r in self.execute(f"SELECT id FROM {s}.evidence ORDER BY seq")]
        return [r["id"] for r in self.execute(f"SELECT id FROM {s}.evidence WHERE user_id = %s ORDER BY seq", (user_id,))]

    def evidence_for_user(self, user_id: str) -> list[dict]:
        rows = self.execute(f"SELECT * FROM {self.schema}.evidence WHERE user_id = %s ORDER BY timestamp, id", (user_id,))
        return [_decode("evidence", r) for r in rows]

    def users(self) -> list[str]:
        return [r["user_id"] for r in self.execute(f"SELECT DISTINCT user_id FROM {self.schema}.evidence ORDER BY user_id")]

    def count(self, kind: str) -> int:
        return self.execute(f"SELECT COUNT(*) AS n FROM {self.schema}.{_table(kind)}")[0]["n"]

    def evidence_count(self, user_id: str) -> int:
        return self.execute(f"SELECT COUNT(*) AS n FROM {self.schema}.evidence WHERE user_id = %s", (user_id,))[0]["n"]

    def evidence_counts(self) -> dict[str, int]:
        rows = self.execute(f"SELECT user_id, COUNT(*) AS n FROM {self.schema}.evidence GROUP BY user_id ORDER BY user_id")
        return {r["user_id"]: r["n"] for r in rows}

    def recent_evidence_ids(self, user_id: str, exclude: str, limit: int) -> list[str]:
        rows = self.execute(
            f"SELECT id FROM {self.schema}.evidence WHERE user_id = %s AND id != %s ORDER BY seq DESC LIMIT %s",
            (user_id, exclude, limit),
        )
        return [r["id"] for r in rows]

    def entity_names(self, user_id: str) -> list[str]:
        rows = self.execute(
            f"SELECT name FROM {self.schema}.entity WHERE user_id = %s AND canonical_id IS NULL AND entity_type != 'user'"
            " ORDER BY name",
            (user_id,),
        )
        return [r["name"] for r in rows]

    def entity_counts(self, user_id: str) -> tuple[int, int]:
        r = self.execute(
            f"SELECT count(*) AS n, count(canonical_id) AS merged FROM {self.schema}.entity WHERE user_id = %s", (user_id,)
        )[0]
        return int(r["n"]) - int(r["merged"]), int(r["merged"])

    def integrity_problems(self) -> list[str]:
        s = self.schema

        def missing(table: str, column: str) -> str:
            return f"NOT EXISTS (SELECT 1 FROM {s}.{table} AS x WHERE x.id = e.{column})"

        problems = [
            f"dangling {r['relation']} edge {r['src']} -> {r['dst']}"
            for r in self.execute(
                f"SELECT src, dst, relation FROM {s}.edge AS e WHERE"
                f" (relation IN ('SUPPORTS','REFUTES') AND ({missing('evidence', 'src')} OR {missing('belief', 'dst')}))"
                f" OR (relation = 'BELONGS_TO' AND ({missing('belief', 'src')} OR {missing('entity', 'dst')}))"
                f" OR (relation = 'OCCURRED_IN' AND ({missing('evidence', 'src')} OR {missing('event', 'dst')}))"
                f" OR (relation = 'CONTEXT_OF' AND {missing('context', 'dst')}) ORDER BY src, dst, relation"
            )
        ]
        for r in self.execute(f"SELECT id FROM {s}.evidence AS v WHERE NOT EXISTS (SELECT 1 FROM {s}.edge AS e"
                              " WHERE e.src = v.id AND e.relation = 'OCCURRED_IN') ORDER BY id"):
            problems.append(f"evidence {r['id']} has no OCCURRED_IN event")
        for r in self.execute(f"SELECT id FROM {s}.belief AS b WHERE NOT EXISTS (SELECT 1 FROM {s}.edge AS e"
                              " WHERE e.src = b.id AND e.relation = 'BELONGS_TO') ORDER BY id"):
            problems.append(f"belief {r['id']} has no BELONGS_TO entity")
        for r in self.execute(f"SELECT evidence_id, idx FROM {s}.claim AS c WHERE NOT EXISTS (SELECT 1 FROM {s}.evidence AS v"
                              " WHERE v.id = c.evidence_id) ORDER BY evidence_id, idx"):
            problems.append(f"claim {r['evidence_id']}#{r['idx']} has no evidence")
        for r in self.execute(f"SELECT DISTINCT belief_id FROM {s}.belief_history AS h WHERE NOT EXISTS"
                              f" (SELECT 1 FROM {s}.belief AS b WHERE b.id = h.belief_id) ORDER BY belief_id"):
            problems.append(f"history of belief {r['belief_id']}, which is gone")
        for r in self.execute(f"SELECT id FROM {s}.evidence WHERE trim(text) = '' ORDER BY id"):
            problems.append(f"evidence {r['id']} has empty text")
        return problems

    # --- claim vectors: one per claim of a message that makes several claims --------
    def put_claim_vectors(self, rows: Iterable[tuple[str, str, str, Sequence[float]]]) -> None:
        """(evidence_id, belief_id, user_id, vector) rows; float32, idempotent."""
        for evidence_id, belief_id, user_id, vector in rows:
            self.execute(
                f"INSERT INTO {self.schema}.claim_vector (evidence_id, belief_id, user_id, vector) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (evidence_id, belief_id) DO UPDATE SET user_id = EXCLUDED.user_id, vector = EXCLUDED.vector",
                (evidence_id, belief_id, user_id, np.asarray(vector, dtype=np.float32).tobytes()),
            )

    def claim_vectors(self, evidence_ids: Sequence[str]) -> dict[tuple[str, str], np.ndarray]:
        ids = list(dict.fromkeys(evidence_ids))
        if not ids:
            return {}
        rows = self.execute(f"SELECT evidence_id, belief_id, vector FROM {self.schema}.claim_vector WHERE evidence_id = ANY(%s)", (ids,))
        return {(r["evidence_id"], r["belief_id"]): np.frombuffer(bytes(r["vector"]), dtype=np.float32) for r in rows}

    def known_predicates(self, user_id: str) -> list[str]:
        # Asked once per message: a DISTINCT over the user's claims grew with every claim,
        # this skip scan (claim_user_predicate) seeks once per distinct predicate.
        c = f"{self.schema}.claim"
        rows = self.execute(
            f"WITH RECURSIVE p(predicate) AS (SELECT MIN(predicate) FROM {c} WHERE user_id = %s UNION ALL"
            f" SELECT (SELECT MIN(predicate) FROM {c} WHERE user_id = %s AND predicate > p.predicate) FROM p"
            " WHERE p.predicate IS NOT NULL) SELECT predicate FROM p WHERE predicate IS NOT NULL ORDER BY predicate",
            (user_id, user_id),
        )
        return [r["predicate"] for r in rows]

    # --- claims ------------------------------------------------------------------------
    def insert_claim(self, row: dict) -> None:
        cols = ", ".join(row)
        marks = ", ".join(["%s"] * len(row))
        self.execute(f"INSERT INTO {self.schema}.claim ({cols}) VALUES ({marks}) ON CONFLICT DO NOTHING", list(row.values()))

    def claims_for_user(self, user_id: str) -> list[dict]:
        return self.execute(
            f"SELECT * FROM {self.schema}.claim WHERE user_id = %s ORDER BY timestamp, evidence_id, idx", (user_id,)
        )

    def claims_for_evidence(self, evidence_ids: Sequence[str]) -> list[dict]:
        ids = list(evidence_ids)
        if not ids:
            return []
        return self.execute(f"SELECT * FROM {self.schema}.claim WHERE evidence_id = ANY(%s) ORDER BY evidence_id, idx", (ids,))

    def next_claim_idx(self, evidence_id: str) -> int:
        return self.execute(
            f"SELECT COALESCE(MAX(idx), -1) + 1 AS n FROM {self.schema}.claim WHERE evidence_id = %s", (evidence_id,)
        )[0]["n"]

    # --- edges -------------------------------------------------------------------------
    def put_edge(self, edge: Edge) -> None:
        self.put_edges([edge])

    def put_edges(self, edges: Iterable[Edge]) -> None:
        """Write edges, a later one of the same key replacing an earlier one: one statement,
        which may not touch a row twice, so only the last edge of each key is sent."""
        last = {row[:3]: row for row in edge_rows(edges)}
        if not last:
            return
        cols = [list(c) for c in zip(*last.values())]
        cols[3:5] = [[None if x is None else float(x) for x in c] for c in cols[3:5]]  # int stances too: one array type
        self.execute(
            f"INSERT INTO {self.schema}.edge (src, dst, relation, weight, value, valid_from, valid_until, reason, source_type)"
            " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[], %s::float8[], %s::text[],"
            " %s::text[], %s::text[], %s::text[]) ON CONFLICT (src, dst, relation) DO UPDATE SET"
            " weight = EXCLUDED.weight, value = EXCLUDED.value, valid_from = EXCLUDED.valid_from,"
            " valid_until = EXCLUDED.valid_until, reason = EXCLUDED.reason, source_type = EXCLUDED.source_type",
            cols,
        )

    def delete_edges(self, edges: Iterable[tuple[str, str, str]]) -> None:
        edges = list(edges)
        if edges:
            src, dst, rel = (list(x) for x in zip(*edges))
            self.execute(
                f"DELETE FROM {self.schema}.edge WHERE (src, dst, relation) IN"
                " (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))",
                (src, dst, rel),
            )

    def delete_edges_touching(self, node_ids: Sequence[str]) -> None:
        ids = list(node_ids)
        if ids:
            self.execute(f"DELETE FROM {self.schema}.edge WHERE src = ANY(%s) OR dst = ANY(%s)", (ids, ids))

    def edges_to(self, dst_ids: Sequence[str], relations: Sequence[str], since: str | None = None) -> list[Edge]:
        return self._edges("dst", dst_ids, relations, since)

    def supporter_types(self, dst_ids: Sequence[str], before: str) -> dict[str, set[str | None]]:
        """Per belief, the source types of its SUPPORTS edges dated before ``before``: a
        skip scan over ``edge_support_type`` (one seek per type), so a tail refold learns its
        strongest earlier supporter without reading every supporter of the slot."""
        ids = list(dict.fromkeys(dst_ids))
        if not ids:
            return {}
        e = f"{self.schema}.edge"
        rows = self.execute(
            f"WITH RECURSIVE ids(id) AS (SELECT unnest(%s::text[])),"
            f" t(dst, st) AS (SELECT id, (SELECT MIN(source_type) FROM {e} WHERE dst = ids.id AND relation = 'SUPPORTS')"
            f" FROM ids UNION ALL SELECT dst, (SELECT MIN(source_type) FROM {e} WHERE dst = t.dst AND relation = 'SUPPORTS'"
            " AND source_type > t.st) FROM t WHERE t.st IS NOT NULL)"
            f" SELECT dst, st FROM t WHERE st IS NOT NULL AND EXISTS (SELECT 1 FROM {e} AS x WHERE x.dst = t.dst"
            " AND x.relation = 'SUPPORTS' AND x.source_type = t.st AND x.valid_from < %s)"
            f" UNION ALL SELECT id, NULL FROM ids WHERE EXISTS (SELECT 1 FROM {e} AS x WHERE x.dst = ids.id"
            " AND x.relation = 'SUPPORTS' AND x.source_type IS NULL AND x.valid_from < %s)",
            (ids, before, before),
        )
        out: dict[str, set[str | None]] = {}
        for r in rows:
            out.setdefault(r["dst"], set()).add(r["st"])
        return out

    def edges_from(self, src_ids: Sequence[str], relations: Sequence[str], dst_ids: Sequence[str] | None = None,
                   direct_only: bool = False) -> list[Edge]:
        if dst_ids is not None and not dst_ids:
            return []
        return self._edges("src", src_ids, relations, into=dst_ids, direct_only=direct_only)

    def edges_between(self, pairs: Sequence[tuple[str, str]], relations: Sequence[str]) -> list[Edge]:
        pairs = sorted(set(pairs))
        if not pairs:
            return []
        rows = self.execute(
            f"SELECT e.* FROM {self.schema}.edge e JOIN unnest(%s::text[], %s::text[]) AS p(src, dst)"
            " ON e.src = p.src AND e.dst = p.dst WHERE e.relation = ANY(%s) ORDER BY e.src, e.dst, e.relation",
            ([s for s, _ in pairs], [d for _, d in pairs], list(relations)),
        )
        return [Edge.from_row(r) for r in rows]

    def _edges(self, column: str, ids: Sequence[str], relations: Sequence[str], since: str | None = None,
               into: Sequence[str] | None = None, direct_only: bool = False) -> list[Edge]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        when, after = ("", ()) if since is None else (" AND valid_from >= %s", (since,))
        if into is not None:
            when, after = when + " AND dst = ANY(%s)", after + (sorted(set(into)),)
        if direct_only:
            when, after = when + DIRECT_SQL, after + DIRECT_PATTERNS
        rows = self.execute(
            f"SELECT * FROM {self.schema}.edge WHERE {column} = ANY(%s) AND relation = ANY(%s){when}"
            " ORDER BY src, dst, relation",
            (ids, list(relations)) + after,
        )
        return [Edge.from_row(r) for r in rows]

    def all_edges(self) -> list[Edge]:
        return [Edge.from_row(r) for r in self.execute(f"SELECT * FROM {self.schema}.edge ORDER BY src, dst, relation")]

    def holds_text(self, text: str) -> bool:
        return any(self.execute(f"SELECT 1 FROM {self.schema}.{table} WHERE "
                                f"{' OR '.join(f'strpos({c}::text, %s) > 0' for c in columns)} LIMIT 1", (text,) * len(columns))
                   for table, columns in TEXT_COLUMNS)

    # --- audit ---------------------------------------------------------------------------
    def append_audit(self, row: dict) -> int:
        row = dict(row)
        if isinstance(row.get("detail"), (dict, list)):
            row["detail"] = json.dumps(row["detail"], ensure_ascii=False)
        cols = ", ".join(row)
        marks = ", ".join(["%s"] * len(row))
        return int(self.execute(f"INSERT INTO {self.schema}.audit ({cols}) VALUES ({marks}) RETURNING id", list(row.values()))[0]["id"])

    def audit(self, **filters) -> list[dict]:
        where, params = [], []
        for key in ("action", "target", "user_id"):
            if filters.get(key) is not None:
                where.append(f"{key} = %s")
                params.append(filters[key])
        sql = f"SELECT * FROM {self.schema}.audit" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        out = []
        for d in self.execute(sql, params):
            if d.get("detail"):
                try:
                    d["detail"] = json.loads(d["detail"])
                except ValueError:
                    pass
            out.append(d)
        return out

    # --- lifecycle (deletion, cold storage) ----------------------------------------------
    def delete_nodes(self, kind: str, ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(ids))
        if kind == "evidence" and ids:  # vectors derived from its text go with it
            self.execute(f"DELETE FROM {self.schema}.claim_vector WHERE evidence_id = ANY(%s)", (ids,))
        if kind == "belief" and ids:
            self.execute(f"DELETE FROM {self.schema}.belief_history WHERE belief_id = ANY(%s)", (ids,))
        return self._rowcount(f"DELETE FROM {self.schema}.{_table(kind)} WHERE id = ANY(%s)", (ids,)) if ids else 0

    def delete_claims(self, keys: Iterable[tuple[str, int]]) -> None:
        keys = list(keys)
        if keys:
            ev, idx = (list(x) for x in zip(*keys))
            self.execute(
                f"DELETE FROM {self.schema}.claim WHERE (evidence_id, idx) IN (SELECT * FROM unnest(%s::text[], %s::int[]))",
                (ev, idx),
            )

    def delete_claims_of(self, evidence_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(evidence_ids))
        return self._rowcount(f"DELETE FROM {self.schema}.claim WHERE evidence_id = ANY(%s)", (ids,)) if ids else 0

    def delete_orphan_events(self, event_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(event_ids))
        if not ids:
            return 0
        s = self.schema
        return self._rowcount(
            f"DELETE FROM {s}.event AS v WHERE v.id = ANY(%s) AND NOT EXISTS"
            f" (SELECT 1 FROM {s}.edge AS e WHERE e.dst = v.id AND e.relation = 'OCCURRED_IN')",
            (ids,),
        )

    def delete_orphan_contexts(self, context_ids: Sequence[str]) -> int:
        s = self.schema
        pending = set(context_ids)
        frontier = list(pending)
        while frontier:  # the parents become candidates too
            frontier = [p for p in (r.get("parent") for r in self.get_nodes("context", frontier).values()) if p and p not in pending]
            pending.update(frontier)
        total = 0
        while pending:  # children first: a parent is free only when no context names it
            n = self._rowcount(
                f"DELETE FROM {s}.context AS c WHERE c.id = ANY(%s)"
                f" AND NOT EXISTS (SELECT 1 FROM {s}.edge AS e WHERE e.dst = c.id AND e.relation = 'CONTEXT_OF')"
                f" AND NOT EXISTS (SELECT 1 FROM {s}.context AS k WHERE k.parent = c.id)",
                (sorted(pending),),
            )
            total += n
            if not n:
                break
        return total

    def delete_user(self, user_id: str) -> dict[str, int]:
        s = self.schema
        evidence = self.execute(f"SELECT id, event_id, context FROM {s}.evidence WHERE user_id = %s", (user_id,))
        beliefs = [r["id"] for r in self.execute(f"SELECT id FROM {s}.belief WHERE user_id = %s", (user_id,))]
        entities = [r["id"] for r in self.execute(f"SELECT id FROM {s}.entity WHERE user_id = %s", (user_id,))]
        ev_ids = [r["id"] for r in evidence]
        contexts = {e.dst for e in self.edges_from(ev_ids + beliefs, ["CONTEXT_OF"])}
        self.delete_edges_touching(ev_ids + beliefs + entities)
        if beliefs:
            self.execute(f"DELETE FROM {s}.belief_history WHERE belief_id = ANY(%s)", (beliefs,))
        counts = {}
        for table in ("claim", "claim_vector", "evidence", "belief", "entity", "alias"):
            counts[table] = self._rowcount(f"DELETE FROM {s}.{table} WHERE user_id = %s", (user_id,))
        counts["event"] = self.delete_orphan_events([r["event_id"] for r in evidence])
        counts["context"] = self.delete_orphan_contexts(sorted(contexts))
        return counts

    def redact_audit(self, user_id: str, replacement: str) -> int:
        return self._rowcount(
            f"UPDATE {self.schema}.audit SET user_id = %s, target = NULL, reason = 'redacted: user forgotten', detail = NULL"
            " WHERE user_id = %s",
            (replacement, user_id),
        )
