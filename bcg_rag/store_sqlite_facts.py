"""The SQLite backend's facts: evidence, claims, claim vectors, edges, the audit log
(aliases: ``store_sqlite_aliases``), and deleting them (lifecycle). A mixin of ``SQLiteStore`` (``store_sqlite.py``),
which owns the connection, the transactions and the beliefs; it only calls ``execute``
and, where it needs a row count or a new id, the shared connection under its lock.
"""

from __future__ import annotations

import json
from typing import Iterable, Sequence

import numpy as np

from .models import Edge
from .store import TEXT_COLUMNS
from .store_rows import DIRECT_PATTERNS, DIRECT_SQL, edge_rows
from .store_rows import chunks as _chunks
from .store_rows import decode as _decode
from .store_rows import table as _table

# Beliefs named in one edge query's "dst IN (...)", beside a chunk of 500 sources: within
# SQLite's 999 bound variables; more than that are filtered in Python.
MAX_DST_FILTER = 400
PAIRS_PER_STATEMENT = 400  # 800 bound values, well under SQLite's limit
EDGE_KEY_INDEX = "sqlite_autoindex_edge_1"  # the edge table's PRIMARY KEY (src, dst, relation)
EDGE_ROWS_INDEX = "edge_src_rows"  # the same key and every other column: no table row read
UPSERT_EDGE = (
    "INSERT INTO edge (src, dst, relation, weight, value, valid_from, valid_until, reason, source_type)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (src, dst, relation) DO UPDATE SET weight = excluded.weight,"
    " value = excluded.value, valid_from = excluded.valid_from, valid_until = excluded.valid_until,"
    " reason = excluded.reason, source_type = excluded.source_type"
)


class SQLiteFacts:
    """Every GraphStore method over facts (see ``store.py``), SQLite dialect."""

    def evidence_ids(self, user_id: str | None = None) -> list[str]:
        if user_id is None:
            return [r["id"] for r in self.execute("SELECT id FROM evidence ORDER BY seq")]
        return [r["id"] for r in self.execute("SELECT id FROM evidence WHERE user_id = ? ORDER BY seq", (user_id,))]

    def evidence_for_user(self, user_id: str) -> list[dict]:
        rows = self.execute("SELECT * FROM evidence WHERE user_id = ? ORDER BY timestamp, id", (user_id,))
        return [_decode("evidence", r) for r in rows]

    def users(self) -> list[str]:
        return [r["user_id"] for r in self.execute("SELECT DISTINCT user_id FROM evidence ORDER BY user_id")]

    def count(self, kind: str) -> int:
        return self.execute(f"SELECT COUNT(*) AS n FROM {_table(kind)}")[0]["n"]

    def evidence_count(self, user_id: str) -> int:
        return self.execute("SELECT COUNT(*) AS n FROM evidence WHERE user_id = ?", (user_id,))[0]["n"]

    def evidence_counts(self) -> dict[str, int]:
        """Evidence per user, for every user that has any."""
        rows = self.execute("SELECT user_id, COUNT(*) AS n FROM evidence GROUP BY user_id ORDER BY user_id")
        return {r["user_id"]: r["n"] for r in rows}

    def recent_evidence_ids(self, user_id: str, exclude: str, limit: int) -> list[str]:
        """A user's latest stored evidence (by arrival), newest first."""
        rows = self.execute(
            "SELECT id FROM evidence WHERE user_id = ? AND id != ? ORDER BY seq DESC LIMIT ?", (user_id, exclude, limit)
        )
        return [r["id"] for r in rows]

    def entity_names(self, user_id: str) -> list[str]:
        """Names of a user's canonical entities other than the user."""
        rows = self.execute(
            "SELECT name FROM entity WHERE user_id = ? AND canonical_id IS NULL AND entity_type != 'user' ORDER BY name",
            (user_id,),
        )
        return [r["name"] for r in rows]

    def entity_counts(self, user_id: str) -> tuple[int, int]:
        """A user's canonical and merged entities: a new name raises the first, a merge or
        its undo moves the second, so a cache of names can tell it is stale."""
        r = self.execute("SELECT count(*) AS n, count(canonical_id) AS merged FROM entity WHERE user_id = ?", (user_id,))[0]
        return r["n"] - r["merged"], r["merged"]

    def integrity_problems(self) -> list[str]:
        """What the schema cannot enforce: dangling edges, evidence without its event,
        beliefs without their entity, claims without their evidence, empty texts."""
        problems = [
            f"dangling {r['relation']} edge {r['src']} -> {r['dst']}"
            for r in self.execute(
                "SELECT src, dst, relation FROM edge WHERE"
                " (relation IN ('SUPPORTS','REFUTES') AND (src NOT IN (SELECT id FROM evidence) OR dst NOT IN (SELECT id FROM belief)))"
                " OR (relation = 'BELONGS_TO' AND (src NOT IN (SELECT id FROM belief) OR dst NOT IN (SELECT id FROM entity)))"
                " OR (relation = 'OCCURRED_IN' AND (src NOT IN (SELECT id FROM evidence) OR dst NOT IN (SELECT id FROM event)))"
                " OR (relation = 'CONTEXT_OF' AND dst NOT IN (SELECT id FROM context)) ORDER BY src, dst, relation"
            )
        ]
        for r in self.execute("SELECT id FROM evidence WHERE id NOT IN (SELECT src FROM edge WHERE relation = 'OCCURRED_IN') ORDER BY id"):
            problems.append(f"evidence {r['id']} has no OCCURRED_IN event")
        for r in self.execute("SELECT id FROM belief WHERE id NOT IN (SELECT src FROM edge WHERE relation = 'BELONGS_TO') ORDER BY id"):
            problems.append(f"belief {r['id']} has no BELONGS_TO entity")
        for r in self.execute("SELECT evidence_id, idx FROM claim WHERE evidence_id NOT IN (SELECT id FROM evidence) ORDER BY evidence_id, idx"):
            problems.append(f"claim {r['evidence_id']}#{r['idx']} has no evidence")
        for r in self.execute("SELECT DISTINCT belief_id FROM belief_history WHERE belief_id NOT IN (SELECT id FROM belief)"
                              " ORDER BY belief_id"):
            problems.append(f"history of belief {r['belief_id']}, which is gone")
        for r in self.execute("SELECT id FROM evidence WHERE trim(text) = '' ORDER BY id"):
            problems.append(f"evidence {r['id']} has empty text")
        return problems

    # --- claim vectors: one per claim of a message that makes several claims --------
    def put_claim_vectors(self, rows: Iterable[tuple[str, str, str, Sequence[float]]]) -> None:
        """(evidence_id, belief_id, user_id, vector) rows; float32, idempotent."""
        for evidence_id, belief_id, user_id, vector in rows:
            blob = np.asarray(vector, dtype=np.float32).tobytes()
            self.execute(
                "INSERT OR REPLACE INTO claim_vector (evidence_id, belief_id, user_id, vector) VALUES (?, ?, ?, ?)",
                (evidence_id, belief_id, user_id, blob),
            )

    def claim_vectors(self, evidence_ids: Sequence[str]) -> dict[tuple[str, str], np.ndarray]:
        out: dict[tuple[str, str], np.ndarray] = {}
        for chunk in _chunks(list(dict.fromkeys(evidence_ids))):
            marks = ",".join("?" * len(chunk))
            for r in self.execute(f"SELECT evidence_id, belief_id, vector FROM claim_vector WHERE evidence_id IN ({marks})", chunk):
                out[(r["evidence_id"], r["belief_id"])] = np.frombuffer(r["vector"], dtype=np.float32)
        return out

    def known_predicates(self, user_id: str) -> list[str]:
        # Asked once per message: a DISTINCT over the user's claims grew with every claim,
        # this skip scan (claim_user_predicate) seeks once per distinct predicate.
        rows = self.execute(
            "WITH RECURSIVE p(predicate) AS (SELECT MIN(predicate) FROM claim WHERE user_id = :u UNION ALL"
            " SELECT (SELECT MIN(predicate) FROM claim WHERE user_id = :u AND predicate > p.predicate) FROM p"
            " WHERE p.predicate IS NOT NULL) SELECT predicate FROM p WHERE predicate IS NOT NULL ORDER BY predicate",
            {"u": user_id},
        )
        return [r["predicate"] for r in rows]

    # --- claims ----------------------------------------------------------------------
    def insert_claim(self, row: dict) -> None:
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self.execute(f"INSERT OR IGNORE INTO claim ({cols}) VALUES ({marks})", tuple(row.values()))

    def claims_for_user(self, user_id: str) -> list[dict]:
        rows = self.execute("SELECT * FROM claim WHERE user_id = ? ORDER BY timestamp, evidence_id, idx", (user_id,))
        return [dict(r) for r in rows]

    def claims_for_evidence(self, evidence_ids: Sequence[str]) -> list[dict]:
        out = []
        for chunk in _chunks(list(evidence_ids)):
            marks = ",".join("?" * len(chunk))
            out += [dict(r) for r in self.execute(f"SELECT * FROM claim WHERE evidence_id IN ({marks}) ORDER BY evidence_id, idx", chunk)]
        return out

    def next_claim_idx(self, evidence_id: str) -> int:
        return self.execute("SELECT COALESCE(MAX(idx), -1) + 1 AS n FROM claim WHERE evidence_id = ?", (evidence_id,))[0]["n"]

    # --- edges -----------------------------------------------------------------------
    def put_edge(self, edge: Edge) -> None:
        self.put_edges([edge])

    def put_edges(self, edges: Iterable[Edge]) -> None:
        """Write edges in key order, a later one of the same key replacing an earlier one.
        An upsert, not INSERT OR REPLACE: that deletes the stored row and inserts it again,
        rewriting its primary key and both secondary indexes for a row that keeps its key."""
        self._executemany(UPSERT_EDGE, edge_rows(edges))

    def delete_edges(self, edges: Iterable[tuple[str, str, str]]) -> None:
        self._executemany("DELETE FROM edge WHERE src = ? AND dst = ? AND relation = ?", sorted(edges))

    def delete_edges_touching(self, node_ids: Sequence[str]) -> None:
        for chunk in _chunks(list(node_ids)):
            marks = ",".join("?" * len(chunk))
            self.execute(f"DELETE FROM edge WHERE src IN ({marks}) OR dst IN ({marks})", chunk + chunk)

    def edges_to(self, dst_ids: Sequence[str], relations: Sequence[str], since: str | None = None) -> list[Edge]:
        return self._edges("dst", dst_ids, relations, since)

    def supporter_types(self, dst_ids: Sequence[str], before: str) -> dict[str, set[str | None]]:
        """Per belief, the source types of its SUPPORTS edges dated before ``before``: a
        skip scan over ``edge_support_type`` (one seek per type), so a tail refold learns its
        strongest earlier supporter without reading every supporter of the slot."""
        out: dict[str, set[str | None]] = {}
        for chunk in _chunks(list(dict.fromkeys(dst_ids))):
            ids = ",".join(f"(?{i})" for i in range(1, len(chunk) + 1))  # numbered: ``before`` is used twice
            since = len(chunk) + 1
            rows = self.execute(
                f"WITH RECURSIVE ids(id) AS (VALUES {ids}),"
                " t(dst, st) AS (SELECT id, (SELECT MIN(source_type) FROM edge WHERE dst = ids.id AND relation = 'SUPPORTS')"
                " FROM ids UNION ALL SELECT dst, (SELECT MIN(source_type) FROM edge WHERE dst = t.dst AND relation = 'SUPPORTS'"
                " AND source_type > t.st) FROM t WHERE t.st IS NOT NULL)"
                " SELECT dst, st FROM t WHERE st IS NOT NULL AND EXISTS (SELECT 1 FROM edge AS e WHERE e.dst = t.dst"
                f" AND e.relation = 'SUPPORTS' AND e.source_type = t.st AND e.valid_from < ?{since})"
                # (left to itself the planner walks edge_dst_from: every supporter before ``before``)
                " UNION ALL SELECT id, NULL FROM ids WHERE EXISTS (SELECT 1 FROM edge AS e INDEXED BY edge_support_type"
                " WHERE e.dst = ids.id"
                f" AND e.relation = 'SUPPORTS' AND e.source_type IS NULL AND e.valid_from < ?{since})",
                chunk + [before],
            )
            for r in rows:
                out.setdefault(r["dst"], set()).add(r["st"])
        return out

    def edges_from(self, src_ids: Sequence[str], relations: Sequence[str], dst_ids: Sequence[str] | None = None,
                   direct_only: bool = False) -> list[Edge]:
        dsts = None if dst_ids is None else set(dst_ids)
        if dsts is not None and len(dsts) <= MAX_DST_FILTER:
            if not dsts:
                return []
            return self._edges("src", src_ids, relations, into=sorted(dsts), direct_only=direct_only)
        edges = self._edges("src", src_ids, relations, direct_only=direct_only)
        return edges if dsts is None else [e for e in edges if e.dst in dsts]

    def edges_between(self, pairs: Sequence[tuple[str, str]], relations: Sequence[str]) -> list[Edge]:
        pairs, rels = sorted(set(pairs)), list(relations)
        out: list[Edge] = []
        for start in range(0, len(pairs), PAIRS_PER_STATEMENT):
            chunk = pairs[start: start + PAIRS_PER_STATEMENT]
            # The pairs drive the join, one primary-key seek each: a row-value IN scanned the edges,
            # and left to itself the planner sometimes built an automatic index over all of them.
            rows = self.execute(
                f"WITH p(s, d) AS (VALUES {','.join(['(?,?)'] * len(chunk))}) SELECT edge.* FROM p CROSS JOIN edge"
                f" INDEXED BY {self._edge_key_index} ON edge.src = p.s AND edge.dst = p.d"
                f" WHERE edge.relation IN ({','.join('?' * len(rels))})"
                " ORDER BY edge.src, edge.dst, edge.relation",
                [x for pair in chunk for x in pair] + rels,
            )
            out += [Edge.from_row(r) for r in rows]
        return out

    def _edges(self, column: str, ids: Sequence[str], relations: Sequence[str], since: str | None = None,
               into: Sequence[str] = (), direct_only: bool = False) -> list[Edge]:
        rels = list(relations)
        out: list[Edge] = []
        when, after = ("", []) if since is None else (" AND valid_from >= ?", [since])
        if into:
            when, after = when + f" AND dst IN ({','.join('?' * len(into))})", after + list(into)
        if direct_only:
            when, after = when + DIRECT_SQL.replace("%s", "?"), after + list(DIRECT_PATTERNS)
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            rmarks = ",".join("?" * len(rels))
            rows = self.execute(
                f"SELECT * FROM edge WHERE {column} IN ({marks}) AND relation IN ({rmarks}){when} ORDER BY src, dst, relation",
                chunk + rels + after,
            )
            out += [Edge.from_row(r) for r in rows]
        return out

    def all_edges(self) -> list[Edge]:
        return [Edge.from_row(r) for r in self.execute("SELECT * FROM edge ORDER BY src, dst, relation")]

    def holds_text(self, text: str) -> bool:
        return any(self.execute(f"SELECT 1 FROM {table} WHERE {' OR '.join(f'instr({c}, :s)' for c in columns)} LIMIT 1",
                                {"s": text}) for table, columns in TEXT_COLUMNS)

    # --- audit -----------------------------------------------------------------------
    def append_audit(self, row: dict) -> int:
        row = dict(row)
        if isinstance(row.get("detail"), (dict, list)):
            row["detail"] = json.dumps(row["detail"], ensure_ascii=False)
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self._lock:
            cur = self._conn.execute(f"INSERT INTO audit ({cols}) VALUES ({marks})", tuple(row.values()))
            return int(cur.lastrowid)

    def audit(self, **filters) -> list[dict]:
        where, params = [], []
        for key in ("action", "target", "user_id"):
            if filters.get(key) is not None:
                where.append(f"{key} = ?")
                params.append(filters[key])
        sql = "SELECT * FROM audit" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        out = []
        for r in self.execute(sql, params):
            d = dict(r)
            if d.get("detail"):
                try:
                    d["detail"] = json.loads(d["detail"])
                except ValueError:
                    pass
            out.append(d)
        return out

    # --- lifecycle (deletion, cold storage) ---
    # Used by lifecycle.py. Deletions are the only way facts ever leave a store: moving
    # them to the cold store (archiving) or forgetting them on request.
    def _delete_in(self, sql: str, ids: Sequence) -> int:
        """Run ``sql`` (with one ``IN ({marks})``) over ids in chunks; rows deleted."""
        n = 0
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            with self._lock:
                n += self._conn.execute(sql.format(marks=marks), chunk).rowcount
        return n

    def delete_nodes(self, kind: str, ids: Sequence[str]) -> int:
        if kind == "evidence":  # vectors derived from its text go with it
            self._delete_in("DELETE FROM claim_vector WHERE evidence_id IN ({marks})", ids)
        if kind == "belief":
            self._delete_in("DELETE FROM belief_history WHERE belief_id IN ({marks})", ids)
        return self._delete_in(f"DELETE FROM {_table(kind)} WHERE id IN ({{marks}})", ids)

    def delete_claims(self, keys: Iterable[tuple[str, int]]) -> None:
        for evidence_id, idx in keys:
            self.execute("DELETE FROM claim WHERE evidence_id = ? AND idx = ?", (evidence_id, idx))

    def delete_claims_of(self, evidence_ids: Sequence[str]) -> int:
        return self._delete_in("DELETE FROM claim WHERE evidence_id IN ({marks})", evidence_ids)

    def delete_orphan_events(self, event_ids: Sequence[str]) -> int:
        """Delete these events unless some evidence still occurred in them."""
        return self._delete_in(
            "DELETE FROM event WHERE id IN ({marks}) AND NOT EXISTS"
            " (SELECT 1 FROM edge WHERE edge.dst = event.id AND edge.relation = 'OCCURRED_IN')",
            event_ids,
        )

    def delete_orphan_contexts(self, context_ids: Sequence[str]) -> int:
        """Delete these contexts (and then their parents) once nothing points at them:
        a context name can itself be personal ("project:..."), so it must not outlive its user."""
        pending = set(context_ids)
        frontier = list(pending)
        while frontier:  # the parents become candidates too
            frontier = [p for p in (r.get("parent") for r in self.get_nodes("context", frontier).values()) if p and p not in pending]
            pending.update(frontier)
        total = 0
        while True:  # children first: a parent is free only when no context names it
            n = self._delete_in(
                "DELETE FROM context WHERE id IN ({marks})"
                " AND NOT EXISTS (SELECT 1 FROM edge WHERE edge.dst = context.id AND edge.relation = 'CONTEXT_OF')"
                " AND NOT EXISTS (SELECT 1 FROM context AS c WHERE c.parent = context.id)",
                sorted(pending),
            )
            total += n
            if not n:
                return total

    def delete_user(self, user_id: str) -> dict[str, int]:
        """Every row of one user: evidence, claims, beliefs, entities, aliases, the edges
        touching them, and the events and contexts only they used. Returns counts."""
        evidence = self.execute("SELECT id, event_id, context FROM evidence WHERE user_id = ?", (user_id,))
        beliefs = [r["id"] for r in self.execute("SELECT id FROM belief WHERE user_id = ?", (user_id,))]
        entities = [r["id"] for r in self.execute("SELECT id FROM entity WHERE user_id = ?", (user_id,))]
        ev_ids = [r["id"] for r in evidence]
        contexts = {e.dst for e in self.edges_from(ev_ids + beliefs, ["CONTEXT_OF"])}
        self.delete_edges_touching(ev_ids + beliefs + entities)
        self._delete_in("DELETE FROM belief_history WHERE belief_id IN ({marks})", beliefs)
        counts = {}
        for table in ("claim", "claim_vector", "evidence", "belief", "entity", "alias"):
            with self._lock:
                counts[table] = self._conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,)).rowcount
        counts["event"] = self.delete_orphan_events([r["event_id"] for r in evidence])
        counts["context"] = self.delete_orphan_contexts(sorted(contexts))
        return counts

    def redact_audit(self, user_id: str, replacement: str) -> int:
        """Keep a forgotten user's audit entries (the log is append-only) but strip what
        they said: the user id becomes ``replacement`` and target, reason and detail go."""
        with self._lock:
            return self._conn.execute(
                "UPDATE audit SET user_id = ?, target = NULL, reason = 'redacted: user forgotten', detail = NULL"
                " WHERE user_id = ?",
                (replacement, user_id),
            ).rowcount
