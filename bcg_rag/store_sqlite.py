"""SQLite backend: the embedded, durable default (WAL, one file under the memory dir).

A thin, explicit layer: one table per node kind, one edge table whose CHECK
constraint admits only the five relations of the belief context graph.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

import numpy as np

from .errors import ReadOnlyError, StoreError
from .models import RELATIONS, Edge, check_relation
from .store import TEXT_COLUMNS

SCHEMA_VERSION = 1

T = TypeVar("T")

_RELATION_CHECK = ", ".join(f"'{r}'" for r in sorted(RELATIONS))

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entity (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL,
    entity_type TEXT NOT NULL, canonical_id TEXT
);
CREATE TABLE IF NOT EXISTS alias (
    user_id TEXT NOT NULL, alias_norm TEXT NOT NULL, entity_id TEXT NOT NULL,
    PRIMARY KEY (user_id, alias_norm)
);
CREATE INDEX IF NOT EXISTS alias_entity ON alias(entity_id);
CREATE INDEX IF NOT EXISTS entity_user ON entity(user_id, canonical_id);
CREATE TABLE IF NOT EXISTS event (id TEXT PRIMARY KEY, event_type TEXT NOT NULL, timestamp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS context (
    id TEXT PRIMARY KEY, context_type TEXT NOT NULL, context_value TEXT NOT NULL, parent TEXT
);
CREATE TABLE IF NOT EXISTS evidence (
    id TEXT PRIMARY KEY, seq INTEGER NOT NULL, text TEXT NOT NULL, source TEXT NOT NULL,
    source_type TEXT NOT NULL, timestamp TEXT NOT NULL, event_id TEXT NOT NULL,
    user_id TEXT NOT NULL, agent_id TEXT, embedding_key TEXT NOT NULL, context TEXT,
    private INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS evidence_user ON evidence(user_id, timestamp);
CREATE INDEX IF NOT EXISTS evidence_seq ON evidence(seq);
CREATE TABLE IF NOT EXISTS claim (
    evidence_id TEXT NOT NULL, idx INTEGER NOT NULL, user_id TEXT NOT NULL,
    subject TEXT NOT NULL, predicate TEXT NOT NULL, value TEXT NOT NULL,
    stance REAL NOT NULL, weight REAL NOT NULL, source_type TEXT NOT NULL,
    context TEXT, timestamp TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'caller',
    PRIMARY KEY (evidence_id, idx)
);
CREATE INDEX IF NOT EXISTS claim_user ON claim(user_id, timestamp);
CREATE TABLE IF NOT EXISTS belief (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, subject_id TEXT NOT NULL,
    predicate TEXT NOT NULL, value TEXT NOT NULL, context_key TEXT NOT NULL,
    contexts TEXT NOT NULL, confidence REAL NOT NULL CHECK (confidence BETWEEN -1 AND 1),
    last_updated TEXT NOT NULL, history TEXT NOT NULL, status TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS belief_slot ON belief(user_id, subject_id, predicate, context_key);
CREATE TABLE IF NOT EXISTS edge (
    src TEXT NOT NULL, dst TEXT NOT NULL,
    relation TEXT NOT NULL CHECK (relation IN ({_RELATION_CHECK})),
    weight REAL, value REAL, valid_from TEXT, valid_until TEXT, reason TEXT, source_type TEXT,
    PRIMARY KEY (src, dst, relation)
);
DROP INDEX IF EXISTS edge_dst;
CREATE INDEX IF NOT EXISTS edge_dst_from ON edge(dst, relation, valid_from);
CREATE TABLE IF NOT EXISTS claim_vector (
    evidence_id TEXT NOT NULL, belief_id TEXT NOT NULL, user_id TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (evidence_id, belief_id)
);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, action TEXT NOT NULL,
    target TEXT, user_id TEXT, reason TEXT, actor TEXT, detail TEXT
);
"""

_BELIEF_JSON = ("contexts", "history")

_SLOT_SQL = (
    "SELECT DISTINCT b.id, b.user_id, b.subject_id, b.predicate, b.value, b.context_key, b.contexts, b.confidence,"
    " b.last_updated, b.status FROM belief AS l JOIN belief AS b ON b.user_id = l.user_id"
    " AND b.subject_id = l.subject_id AND b.predicate = l.predicate AND b.context_key = l.context_key"
    # No user filter here: with one, SQLite walks the user's whole slot index instead of
    # the primary key (8 ms instead of 0.5 ms at 10k beliefs). The ids come from one user.
    " WHERE l.id IN ({marks})"
)


class SQLiteStore:
    """GraphStore over one SQLite file (or ``:memory:``)."""

    def __init__(self, path: str | Path = ":memory:", synchronous: str = "FULL", busy_timeout_ms: int = 30000,
                 read_only: bool | None = None):
        self.path = str(path)
        # A file this process cannot write (or in a directory it cannot write) opens
        # read-only: reads work, every write transaction raises ReadOnlyError.
        self.read_only = bool(read_only) if read_only is not None else (self.path != ":memory:" and not _writable(self.path))
        self._lock = threading.RLock()
        self._depth = 0
        self._busy_timeout_ms = int(busy_timeout_ms)
        try:
            # One connection shared by threads (async callers run us in a thread pool); the
            # lock keeps transactions whole. Writers in other processes wait on SQLite's lock.
            if self.read_only:
                uri = Path(self.path).resolve().as_uri() + "?mode=ro"
                if not Path(self.path + "-wal").exists():
                    uri += "&immutable=1"  # no WAL to read, and none can be created here
                self._conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                                             timeout=busy_timeout_ms / 1000)
            else:
                self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                             timeout=busy_timeout_ms / 1000)
            self._conn.row_factory = sqlite3.Row
            if self.path != ":memory:" and not self.read_only:
                self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(f"PRAGMA synchronous={synchronous}")
            self._conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            if self.read_only:
                if not self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchall():
                    raise StoreError(f"{self.path} is not a bcg-rag memory (and is read-only)")
                return
            with self.transaction():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self._conn.execute(statement)
                self._conn.execute(
                    "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
        except sqlite3.Error as exc:  # a damaged or foreign file: typed, and the handle closed
            conn = getattr(self, "_conn", None)
            if conn is not None:
                conn.close()
            raise StoreError(f"cannot open {self.path}: {exc}") from exc
        except StoreError:
            self._conn.close()
            raise

    # --- transactions ---------------------------------------------------------------
    @contextmanager
    def transaction(self, locks: Sequence[str] | None = None) -> Iterator[None]:
        """A write transaction; nested calls join the outer one. BEGIN IMMEDIATE takes the
        write lock up front so that two processes serialise instead of deadlocking. One
        writer at a time already serialises every slot, so ``locks`` (see store.py) is
        not needed here."""
        if self.read_only:
            raise ReadOnlyError(f"{self.path} is read-only here (opened from a directory this process cannot write)")
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth = 0

    def run(self, fn: Callable[[], T], locks: Sequence[str] | None = None) -> T:
        """``fn()`` in one write transaction. SQLite has one writer at a time and never
        deadlocks, so there is nothing to retry."""
        with self.transaction(locks):
            return fn()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def execute(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"{exc} in {sql.split()[0]} statement") from exc

    # --- meta ------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self.execute("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # --- nodes -----------------------------------------------------------------------
    def insert_node(self, kind: str, row: dict) -> bool:
        table = _table(kind)
        if kind == "belief":
            raise StoreError("beliefs are written with upsert_belief")
        if kind == "evidence" and "seq" not in row:
            row = dict(row, seq=self._next_seq())
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self._lock:
            cur = self._conn.execute(f"INSERT OR IGNORE INTO {table} ({cols}) VALUES ({marks})", tuple(row.values()))
            return cur.rowcount == 1

    def _next_seq(self) -> int:
        return self.execute("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM evidence")[0]["n"]

    def upsert_belief(self, row: dict) -> None:
        row = dict(row)
        for key in _BELIEF_JSON:
            row[key] = json.dumps(row[key], ensure_ascii=False)
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self.execute(f"INSERT OR REPLACE INTO belief ({cols}) VALUES ({marks})", tuple(row.values()))

    def delete_beliefs(self, ids: Sequence[str]) -> None:
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            self.execute(f"DELETE FROM belief WHERE id IN ({marks})", chunk)

    def get_nodes(self, kind: str, ids: Sequence[str]) -> dict[str, dict]:
        table = _table(kind)
        out: dict[str, dict] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for r in self.execute(f"SELECT * FROM {table} WHERE id IN ({marks})", chunk):
                out[r["id"]] = _decode(kind, r)
        return out

    def get_node(self, kind: str, node_id: str) -> dict | None:
        return self.get_nodes(kind, [node_id]).get(node_id)

    def find_beliefs(self, user_id: str | None, **filters) -> list[dict]:
        where, params = [], []
        if user_id is not None:
            where.append("user_id = ?")
            params.append(user_id)
        for key in ("subject_id", "predicate", "context_key", "status"):
            if filters.get(key) is not None:
                where.append(f"{key} = ?")
                params.append(filters[key])
        sql = "SELECT * FROM belief" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [_decode("belief", r) for r in self.execute(sql, params)]

    def slot_beliefs(self, user_id: str, subject_id: str, predicate: str, context_key: str) -> list[dict]:
        return self.find_beliefs(user_id, subject_id=subject_id, predicate=predicate, context_key=context_key)

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

    def slot_rows(self, belief_ids: Sequence[str]) -> dict[tuple[str, str, str, str], list[dict]]:
        """Every belief sharing a slot (user, subject, predicate, context group) with one of
        ``belief_ids``, grouped by slot, without histories: one indexed self-join instead of
        a decoded ``slot_beliefs`` call per slot, which cost most of a search's time."""
        slots: dict[tuple[str, str, str, str], list[dict]] = {}
        for chunk in _chunks(list(dict.fromkeys(belief_ids))):
            for r in self.execute(_SLOT_SQL.format(marks=",".join("?" * len(chunk))), chunk):
                row = dict(r, contexts=json.loads(r["contexts"]))
                slots.setdefault((row["user_id"], row["subject_id"], row["predicate"], row["context_key"]), []).append(row)
        for rows in slots.values():
            rows.sort(key=lambda r: r["id"])
        return slots

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
        rows = self.execute("SELECT DISTINCT predicate FROM claim WHERE user_id = ? ORDER BY predicate", (user_id,))
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
        check_relation(edge.relation)
        self.execute(
            "INSERT OR REPLACE INTO edge (src, dst, relation, weight, value, valid_from, valid_until, reason, source_type)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (edge.src, edge.dst, edge.relation, edge.weight, edge.value, edge.valid_from, edge.valid_until,
             edge.reason, edge.source_type),
        )

    def delete_edges(self, edges: Iterable[tuple[str, str, str]]) -> None:
        for src, dst, relation in edges:
            self.execute("DELETE FROM edge WHERE src = ? AND dst = ? AND relation = ?", (src, dst, relation))

    def delete_edges_touching(self, node_ids: Sequence[str]) -> None:
        for chunk in _chunks(list(node_ids)):
            marks = ",".join("?" * len(chunk))
            self.execute(f"DELETE FROM edge WHERE src IN ({marks}) OR dst IN ({marks})", chunk + chunk)

    def edges_to(self, dst_ids: Sequence[str], relations: Sequence[str], since: str | None = None) -> list[Edge]:
        return self._edges("dst", dst_ids, relations, since)

    def edges_from(self, src_ids: Sequence[str], relations: Sequence[str]) -> list[Edge]:
        return self._edges("src", src_ids, relations)

    def _edges(self, column: str, ids: Sequence[str], relations: Sequence[str], since: str | None = None) -> list[Edge]:
        rels = list(relations)
        out: list[Edge] = []
        when, after = ("", []) if since is None else (" AND valid_from >= ?", [since])
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            rmarks = ",".join("?" * len(rels))
            rows = self.execute(
                f"SELECT * FROM edge WHERE {column} IN ({marks}) AND relation IN ({rmarks}){when} ORDER BY src, dst, relation",
                chunk + rels + after,
            )
            out += [Edge(**dict(r)) for r in rows]
        return out

    def all_edges(self) -> list[Edge]:
        return [Edge(**dict(r)) for r in self.execute("SELECT * FROM edge ORDER BY src, dst, relation")]

    def all_rows(self, kind: str) -> list[dict]:
        return [_decode(kind, r) for r in self.execute(f"SELECT * FROM {_table(kind)} ORDER BY id")]

    # --- aliases ---------------------------------------------------------------------
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

    def names_for_user(self, user_id: str) -> list[str]:
        return [r["name"] for r in self.execute(
            "SELECT name FROM entity WHERE user_id = ? UNION SELECT alias_norm FROM alias WHERE user_id = ?", (user_id, user_id))]

    def holds_text(self, text: str) -> bool:
        return any(self.execute(f"SELECT 1 FROM {table} WHERE {' OR '.join(f'instr({c}, :s)' for c in columns)} LIMIT 1",
                                {"s": text}) for table, columns in TEXT_COLUMNS)

    def set_canonical(self, entity_id: str, canonical_id: str | None) -> None:
        self.execute("UPDATE entity SET canonical_id = ? WHERE id = ?", (canonical_id, entity_id))

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

    def compact(self, timeout_ms: int | None = None) -> bool:
        """Make deleted rows physically gone: VACUUM rewrites the file without the freed
        pages, and the TRUNCATE checkpoints empty the WAL that still holds old page images.
        Must run outside a transaction (VACUUM cannot run inside one). Waits at most
        ``timeout_ms`` (default: the busy timeout) for readers; returns False when a reader
        holding an older snapshot kept the WAL from being emptied (the old pages are then
        still on disk: try again later)."""
        if self.read_only:
            raise ReadOnlyError(f"{self.path} is read-only here: nothing can be compacted")
        with self._lock:
            if self._depth:
                raise StoreError("compact() cannot run inside a transaction")
            if timeout_ms is not None:
                self._conn.execute(f"PRAGMA busy_timeout={int(timeout_ms)}")
            try:
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._conn.execute("VACUUM")
                row = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error as exc:
                raise StoreError(f"compaction failed: {exc}") from exc
            finally:
                if timeout_ms is not None:
                    self._conn.execute(f"PRAGMA busy_timeout={self._busy_timeout_ms}")
            return row is None or row[0] == 0


def _writable(path: str) -> bool:
    """Whether this process may write the database file (and its directory, for the WAL)."""
    p = Path(path)
    directory = p.parent if str(p.parent) else Path(".")
    return os.access(directory, os.W_OK) and (not p.exists() or os.access(p, os.W_OK))


def _table(kind: str) -> str:
    if kind not in ("entity", "event", "context", "evidence", "belief"):
        raise StoreError(f"unknown node kind {kind!r}")
    return kind


def _decode(kind: str, row: sqlite3.Row) -> dict:
    d = dict(row)
    if kind == "belief":
        for key in _BELIEF_JSON:
            d[key] = json.loads(d[key])
    if kind == "evidence":
        d["private"] = bool(d["private"])
        d.pop("seq", None)
    return d


def _chunks(items: list, size: int = 500) -> Iterator[list]:
    items = list(items)
    for i in range(0, len(items), size):
        yield items[i : i + size]
