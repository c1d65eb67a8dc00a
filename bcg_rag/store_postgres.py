"""PostgreSQL backend: the graph of server mode, shared by any number of processes on any
number of machines. The same interface as ``store_sqlite.py`` (see ``store.py``), the
same tables in a schema of their own (``bcg`` by default), the same results.

Concurrency. Every write transaction takes one advisory lock per memory, ``writers``:
shared when it names the slots it will refold (``transaction(locks=...)``; observe does),
exclusive when it names none (alias merges, refolds, lifecycle moves, forgetting: they
run alone, exactly as under SQLite's single writer). A transaction with slots then takes
one exclusive advisory lock per slot key, all at once and in sorted order, so writers of
the same slot queue up and the last one refolds over everything the others committed;
writers of other slots run in parallel. Reads never wait. Two writers can still meet on
a row both insert (a new entity or event), and PostgreSQL may answer that with a
deadlock error: ``run`` rolls back and retries the transaction (``StoreConflictError``
after ``RETRIES`` tries).

Deletion. ``compact`` rewrites every table with VACUUM FULL, so a forgotten user's rows
leave the data files (they stay in old WAL segments until PostgreSQL recycles them, as
they stay in backups); columns that carry user text have their statistics turned off, so
no value ever lands in ``pg_statistic``.

Text columns use the "C" collation: ids and timestamps sort bytewise, as in SQLite.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

import numpy as np

from .errors import ConfigError, StoreConflictError, StoreError
from .models import RELATIONS, Edge, check_relation
from .store import TEXT_COLUMNS

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.rows import dict_row
except ImportError:  # pragma: no cover - exercised where psycopg is missing
    psycopg = None

SCHEMA_VERSION = 1
RETRIES = 8
T = TypeVar("T")
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,50}")
_TABLES = ("meta", "entity", "alias", "event", "context", "evidence", "claim", "belief", "edge", "claim_vector", "audit")
_RELATION_CHECK = ", ".join(f"'{r}'" for r in sorted(RELATIONS))
_BELIEF_JSON = ("contexts", "history")
TXT = 'TEXT COLLATE "C"'

# Columns that hold what users said (or names derived from it): no statistics, so
# ANALYZE never copies their values into pg_statistic, where no deletion would reach.
_PRIVATE_COLUMNS = {
    "entity": ("user_id", "name"), "alias": ("user_id", "alias_norm"), "event": ("id",),
    "context": ("id", "context_value", "parent"),
    "evidence": ("text", "source", "user_id", "agent_id", "context", "event_id"),
    "claim": ("user_id", "subject", "predicate", "value", "context"),
    "belief": ("user_id", "predicate", "value", "context_key", "contexts", "history"),
    "edge": ("dst", "reason"), "audit": ("target", "user_id", "reason", "detail"),
    "claim_vector": ("user_id", "vector"),
}


def _ddl(s: str) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {s}.meta (key {TXT} PRIMARY KEY, value TEXT NOT NULL)",
        f"""CREATE TABLE IF NOT EXISTS {s}.entity (
            id {TXT} PRIMARY KEY, user_id {TXT} NOT NULL, name {TXT} NOT NULL,
            entity_type {TXT} NOT NULL, canonical_id {TXT})""",
        f"CREATE INDEX IF NOT EXISTS entity_user ON {s}.entity(user_id)",
        f"""CREATE TABLE IF NOT EXISTS {s}.alias (
            user_id {TXT} NOT NULL, alias_norm {TXT} NOT NULL, entity_id {TXT} NOT NULL,
            PRIMARY KEY (user_id, alias_norm))""",
        f"CREATE INDEX IF NOT EXISTS alias_entity ON {s}.alias(entity_id)",
        f"CREATE TABLE IF NOT EXISTS {s}.event (id {TXT} PRIMARY KEY, event_type {TXT} NOT NULL, timestamp {TXT} NOT NULL)",
        f"""CREATE TABLE IF NOT EXISTS {s}.context (
            id {TXT} PRIMARY KEY, context_type {TXT} NOT NULL, context_value {TXT} NOT NULL, parent {TXT})""",
        f"CREATE INDEX IF NOT EXISTS context_parent ON {s}.context(parent)",
        f"""CREATE TABLE IF NOT EXISTS {s}.evidence (
            id {TXT} PRIMARY KEY, seq BIGSERIAL, text TEXT NOT NULL, source {TXT} NOT NULL,
            source_type {TXT} NOT NULL, timestamp {TXT} NOT NULL, event_id {TXT} NOT NULL,
            user_id {TXT} NOT NULL, agent_id {TXT}, embedding_key {TXT} NOT NULL, context {TXT},
            private BOOLEAN NOT NULL DEFAULT FALSE)""",
        f"CREATE INDEX IF NOT EXISTS evidence_user ON {s}.evidence(user_id, timestamp)",
        f"CREATE INDEX IF NOT EXISTS evidence_user_seq ON {s}.evidence(user_id, seq)",
        f"CREATE INDEX IF NOT EXISTS evidence_seq ON {s}.evidence(seq)",
        f"""CREATE TABLE IF NOT EXISTS {s}.claim (
            evidence_id {TXT} NOT NULL, idx INTEGER NOT NULL, user_id {TXT} NOT NULL,
            subject {TXT} NOT NULL, predicate {TXT} NOT NULL, value {TXT} NOT NULL,
            stance DOUBLE PRECISION NOT NULL, weight DOUBLE PRECISION NOT NULL, source_type {TXT} NOT NULL,
            context {TXT}, timestamp {TXT} NOT NULL, origin {TXT} NOT NULL DEFAULT 'caller',
            PRIMARY KEY (evidence_id, idx))""",
        f"CREATE INDEX IF NOT EXISTS claim_user ON {s}.claim(user_id, timestamp)",
        f"""CREATE TABLE IF NOT EXISTS {s}.belief (
            id {TXT} PRIMARY KEY, user_id {TXT} NOT NULL, subject_id {TXT} NOT NULL,
            predicate {TXT} NOT NULL, value {TXT} NOT NULL, context_key {TXT} NOT NULL,
            contexts TEXT NOT NULL, confidence DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN -1 AND 1),
            last_updated {TXT} NOT NULL, history TEXT NOT NULL, status {TXT} NOT NULL)""",
        f"CREATE INDEX IF NOT EXISTS belief_slot ON {s}.belief(user_id, subject_id, predicate, context_key)",
        f"""CREATE TABLE IF NOT EXISTS {s}.edge (
            src {TXT} NOT NULL, dst {TXT} NOT NULL,
            relation {TXT} NOT NULL CHECK (relation IN ({_RELATION_CHECK})),
            weight DOUBLE PRECISION, value DOUBLE PRECISION, valid_from {TXT}, valid_until {TXT},
            reason {TXT}, source_type {TXT}, PRIMARY KEY (src, dst, relation))""",
        f"CREATE INDEX IF NOT EXISTS edge_dst_from ON {s}.edge(dst, relation, valid_from)",
        f"""CREATE TABLE IF NOT EXISTS {s}.claim_vector (
            evidence_id {TXT} NOT NULL, belief_id {TXT} NOT NULL, user_id {TXT} NOT NULL, vector BYTEA NOT NULL,
            PRIMARY KEY (evidence_id, belief_id))""",
        f"CREATE INDEX IF NOT EXISTS claim_vector_user ON {s}.claim_vector(user_id)",
        f"""CREATE TABLE IF NOT EXISTS {s}.audit (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, at {TXT} NOT NULL, action {TXT} NOT NULL,
            target {TXT}, user_id {TXT}, reason TEXT, actor {TXT}, detail TEXT)""",
        f"CREATE INDEX IF NOT EXISTS audit_user ON {s}.audit(user_id)",
        f"CREATE INDEX IF NOT EXISTS audit_action ON {s}.audit(action)",
    ] + [
        f"ALTER TABLE {s}.{table} ALTER COLUMN {col} SET STATISTICS 0"
        for table, cols in _PRIVATE_COLUMNS.items() for col in cols
    ]


def _key(*parts: str) -> int:
    """A 64-bit advisory lock key (a collision only serialises two writers needlessly)."""
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class _Session:
    """One connection and its transaction state, shared by a store and its cold store."""

    def __init__(self, dsn: str, connect_timeout: int, search_path: str):
        self.dsn = dsn
        self.connect_timeout = connect_timeout
        self.search_path = search_path
        self.lock = threading.RLock()  # async callers run us in threads; a transaction stays whole
        self.depth = 0
        self.exclusive = False  # this transaction holds a writers lock exclusively
        self.shared = False  # ... or shared
        self.held: set[int] = set()  # slot keys held in this transaction
        self.conn = None
        self.closed = False

    def connection(self):
        if self.closed:
            raise StoreError("this memory is closed")
        conn = self.conn
        if conn is None or conn.closed or conn.broken:
            if self.depth:
                raise StoreError("the connection to PostgreSQL was lost inside a transaction; nothing of it was written")
            try:
                conn = psycopg.connect(self.dsn, autocommit=True, row_factory=dict_row, connect_timeout=self.connect_timeout,
                                       application_name="bcg-rag")
                conn.execute(f"SET search_path TO {self.search_path}")
            except psycopg.Error as exc:
                raise StoreError(f"cannot connect to PostgreSQL at {_redact(self.dsn)}: {exc}".strip()) from exc
            self.conn = conn
        return conn

    def close(self) -> None:
        with self.lock:
            self.closed = True
            if self.conn is not None:
                self.conn.close()
                self.conn = None


def _redact(dsn: str) -> str:
    return re.sub(r"://([^:@/]+):[^@/]*@", r"://\1:***@", dsn)


class PostgresStore:
    """GraphStore over one schema of a PostgreSQL database."""

    def __init__(self, dsn: str, schema: str = "bcg", *, connect_timeout: int = 10, _session: _Session | None = None,
                 create: bool = True):
        if psycopg is None:
            raise ConfigError("server mode needs psycopg: pip install 'bcg-rag[server]'")
        if not _NAME.fullmatch(schema):
            raise ConfigError(f"schema name {schema!r}: lowercase letters, digits and _ only")
        self.dsn = dsn
        self.schema = schema
        self._s = _session or _Session(dsn, connect_timeout, schema)
        self._owner = _session is None
        self._writers = _key(schema, "writers")
        self._cold: PostgresStore | None = None
        s = schema
        self._slot_sql = (
            "SELECT DISTINCT b.id, b.user_id, b.subject_id, b.predicate, b.value, b.context_key, b.contexts,"
            f" b.confidence, b.last_updated, b.status FROM {s}.belief AS l JOIN {s}.belief AS b"
            " ON b.user_id = l.user_id AND b.subject_id = l.subject_id AND b.predicate = l.predicate"
            " AND b.context_key = l.context_key WHERE l.id = ANY(%s)"
        )
        if create:
            self._create_schema()

    # --- schema ------------------------------------------------------------------------
    def exists(self) -> bool:
        return bool(self.execute("SELECT to_regclass(%s) IS NOT NULL AS ok", (f"{self.schema}.meta",))[0]["ok"])

    def _create_schema(self) -> None:
        s = self.schema
        with self._s.lock:
            if self.exists() and self.get_meta("schema_version") is not None:
                self._check_version()
                return
            conn = self._s.connection()
            ddl_key = _key(s, "ddl")
            try:
                conn.execute("SELECT pg_advisory_lock(%s)", (ddl_key,))  # concurrent first opens: one creates
                try:
                    with conn.transaction():  # one round trip: a simple query may hold many statements
                        conn.execute("; ".join([f"CREATE SCHEMA IF NOT EXISTS {s}"] + _ddl(s) + [
                            f"INSERT INTO {s}.meta(key, value) VALUES ('schema_version', '{SCHEMA_VERSION}')"
                            " ON CONFLICT DO NOTHING"]))
                finally:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (ddl_key,))
            except psycopg.Error as exc:
                raise _error(exc, "CREATE") from exc
            self._check_version()

    def _check_version(self) -> None:
        version = self.get_meta("schema_version")
        if version != str(SCHEMA_VERSION):
            raise StoreError(f"schema {self.schema} has version {version}; this bcg-rag expects {SCHEMA_VERSION}")

    def cold_store(self, create: bool = True) -> "PostgresStore | None":
        """Archived beliefs: the same tables in ``<schema>_cold``, on this store's connection,
        so a move between hot and cold commits as one transaction."""
        if self._cold is None:
            cold = PostgresStore(self.dsn, f"{self.schema}_cold", _session=self._s, create=False)
            if not cold.exists():
                if not create:
                    return None
                cold._create_schema()
            self._cold = cold
        return self._cold

    def drop(self) -> None:
        """Delete this memory's schemas (and everything in them). Tests and tools only."""
        for s in (self.schema, f"{self.schema}_cold"):
            self.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")

    # --- transactions --------------------------------------------------------------------
    @contextmanager
    def transaction(self, locks: Sequence[str] | None = None) -> Iterator[None]:
        """A write transaction; nested calls join the outer one. ``locks`` are slot keys
        (``store.slot_lock``): with them the transaction runs beside others on other
        slots; without, it runs alone (see the module docstring)."""
        s = self._s
        with s.lock:
            if s.depth:
                self._take_locks(locks)
                s.depth += 1
                try:
                    yield
                finally:
                    s.depth -= 1
                return
            conn = s.connection()
            try:
                conn.execute("BEGIN")
            except psycopg.Error as exc:
                raise _error(exc, "BEGIN") from exc
            s.depth = 1
            try:
                self._take_locks(locks)
                yield
            except BaseException:
                try:
                    conn.execute("ROLLBACK")
                except psycopg.Error:  # the connection is gone: so is the transaction
                    pass
                raise
            else:
                try:
                    conn.execute("COMMIT")
                except psycopg.Error as exc:
                    raise _error(exc, "COMMIT") from exc
            finally:
                s.depth = 0
                s.exclusive = s.shared = False
                s.held = set()

    def _take_locks(self, locks: Sequence[str] | None) -> None:
        s = self._s
        if locks is None:
            if not s.exclusive:  # an outer transaction of this connection may already run alone
                self.execute("SELECT pg_advisory_xact_lock(%s)", (self._writers,))
                s.exclusive = True
            return
        if s.exclusive:
            return
        if not s.shared:
            self.execute("SELECT pg_advisory_xact_lock_shared(%s)", (self._writers,))
            s.shared = True
        keys = sorted({_key(self.schema, k) for k in locks} - s.held)
        if keys:
            self.execute(
                "SELECT pg_advisory_xact_lock(k) FROM (SELECT k FROM unnest(%s::bigint[]) AS k ORDER BY k) AS sorted",
                (keys,),
            )
            s.held.update(keys)

    def run(self, fn: Callable[[], T], locks: Sequence[str] | None = None) -> T:
        """``fn()`` in one write transaction, run again (from scratch) when PostgreSQL
        aborted it to break a deadlock; inside an outer transaction it cannot be retried."""
        if self._s.depth:
            with self.transaction(locks):
                return fn()
        for attempt in range(RETRIES):
            try:
                with self.transaction(locks):
                    return fn()
            except StoreConflictError:
                if attempt == RETRIES - 1:
                    raise
                time.sleep(random.uniform(0, min(0.5, 0.01 * 2 ** attempt)))
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._owner:
            self._s.close()

    def execute(self, sql: str, params: Sequence | None = ()) -> list[dict]:
        """Run one statement; rows as dicts. ``?`` placeholders are accepted (SQLite style)."""
        if params and "?" in sql and "%s" not in sql:
            sql = sql.replace("?", "%s")
        with self._s.lock:
            try:
                cur = self._s.connection().execute(sql, tuple(params) if params else None)
                return cur.fetchall() if cur.description is not None else []
            except psycopg.Error as exc:
                raise _error(exc, sql) from exc

    def _rowcount(self, sql: str, params: Sequence = ()) -> int:
        with self._s.lock:
            try:
                return self._s.connection().execute(sql, tuple(params) if params else None).rowcount
            except psycopg.Error as exc:
                raise _error(exc, sql) from exc

    # --- meta --------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self.execute(f"SELECT value FROM {self.schema}.meta WHERE key = %s", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self.execute(
            f"INSERT INTO {self.schema}.meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    def setdefault_meta(self, key: str, value: str) -> str:
        """Store ``value`` unless the key has one; the value that holds (first writer wins)."""
        self.execute(f"INSERT INTO {self.schema}.meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (key, value))
        return self.get_meta(key)

    # --- nodes ---------------------------------------------------------------------------
    def insert_node(self, kind: str, row: dict) -> bool:
        table = _table(kind)
        if kind == "belief":
            raise StoreError("beliefs are written with upsert_belief")
        if kind == "evidence":
            row = dict(row, private=bool(row.get("private", False)))
        cols = ", ".join(row)
        marks = ", ".join(["%s"] * len(row))
        return self._rowcount(
            f"INSERT INTO {self.schema}.{table} ({cols}) VALUES ({marks}) ON CONFLICT (id) DO NOTHING", list(row.values())
        ) == 1

    def upsert_belief(self, row: dict) -> None:
        row = dict(row)
        for key in _BELIEF_JSON:
            row[key] = json.dumps(row[key], ensure_ascii=False)
        cols = ", ".join(row)
        marks = ", ".join(["%s"] * len(row))
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in row if c != "id")
        self.execute(
            f"INSERT INTO {self.schema}.belief ({cols}) VALUES ({marks}) ON CONFLICT (id) DO UPDATE SET {updates}",
            list(row.values()),
        )

    def delete_beliefs(self, ids: Sequence[str]) -> None:
        if ids:
            self.execute(f"DELETE FROM {self.schema}.belief WHERE id = ANY(%s)", (list(ids),))

    def get_nodes(self, kind: str, ids: Sequence[str]) -> dict[str, dict]:
        table = _table(kind)
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        rows = self.execute(f"SELECT * FROM {self.schema}.{table} WHERE id = ANY(%s)", (ids,))
        found = {r["id"]: _decode(kind, r) for r in rows}
        return {i: found[i] for i in ids if i in found}

    def get_node(self, kind: str, node_id: str) -> dict | None:
        return self.get_nodes(kind, [node_id]).get(node_id)

    def find_beliefs(self, user_id: str | None, **filters) -> list[dict]:
        where, params = [], []
        if user_id is not None:
            where.append("user_id = %s")
            params.append(user_id)
        for key in ("subject_id", "predicate", "context_key", "status"):
            if filters.get(key) is not None:
                where.append(f"{key} = %s")
                params.append(filters[key])
        sql = f"SELECT * FROM {self.schema}.belief" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [_decode("belief", r) for r in self.execute(sql, params)]

    def slot_beliefs(self, user_id: str, subject_id: str, predicate: str, context_key: str) -> list[dict]:
        return self.find_beliefs(user_id, subject_id=subject_id, predicate=predicate, context_key=context_key)

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

    def slot_rows(self, belief_ids: Sequence[str]) -> dict[tuple[str, str, str, str], list[dict]]:
        slots: dict[tuple[str, str, str, str], list[dict]] = {}
        ids = list(dict.fromkeys(belief_ids))
        if not ids:
            return slots
        for r in self.execute(self._slot_sql, (ids,)):
            row = dict(r, contexts=json.loads(r["contexts"]))
            slots.setdefault((row["user_id"], row["subject_id"], row["predicate"], row["context_key"]), []).append(row)
        for rows in slots.values():
            rows.sort(key=lambda r: r["id"])
        return slots

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
        rows = self.execute(f"SELECT DISTINCT predicate FROM {self.schema}.claim WHERE user_id = %s ORDER BY predicate", (user_id,))
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
        check_relation(edge.relation)
        self.execute(
            f"INSERT INTO {self.schema}.edge (src, dst, relation, weight, value, valid_from, valid_until, reason, source_type)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (src, dst, relation) DO UPDATE SET"
            " weight = EXCLUDED.weight, value = EXCLUDED.value, valid_from = EXCLUDED.valid_from,"
            " valid_until = EXCLUDED.valid_until, reason = EXCLUDED.reason, source_type = EXCLUDED.source_type",
            (edge.src, edge.dst, edge.relation, edge.weight, edge.value, edge.valid_from, edge.valid_until, edge.reason,
             edge.source_type),
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

    def edges_from(self, src_ids: Sequence[str], relations: Sequence[str]) -> list[Edge]:
        return self._edges("src", src_ids, relations)

    def _edges(self, column: str, ids: Sequence[str], relations: Sequence[str], since: str | None = None) -> list[Edge]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        when, after = ("", ()) if since is None else (" AND valid_from >= %s", (since,))
        rows = self.execute(
            f"SELECT * FROM {self.schema}.edge WHERE {column} = ANY(%s) AND relation = ANY(%s){when}"
            " ORDER BY src, dst, relation",
            (ids, list(relations)) + after,
        )
        return [Edge(**r) for r in rows]

    def all_edges(self) -> list[Edge]:
        return [Edge(**r) for r in self.execute(f"SELECT * FROM {self.schema}.edge ORDER BY src, dst, relation")]

    def all_rows(self, kind: str) -> list[dict]:
        return [_decode(kind, r) for r in self.execute(f"SELECT * FROM {self.schema}.{_table(kind)} ORDER BY id")]

    # --- aliases -------------------------------------------------------------------------
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

    def names_for_user(self, user_id: str) -> list[str]:
        rows = self.execute(f"SELECT name FROM {self.schema}.entity WHERE user_id = %s UNION "
                            f"SELECT alias_norm FROM {self.schema}.alias WHERE user_id = %s", (user_id, user_id))
        return [r["name"] for r in rows]

    def holds_text(self, text: str) -> bool:
        return any(self.execute(f"SELECT 1 FROM {self.schema}.{table} WHERE "
                                f"{' OR '.join(f'strpos({c}::text, %s) > 0' for c in columns)} LIMIT 1", (text,) * len(columns))
                   for table, columns in TEXT_COLUMNS)

    def set_canonical(self, entity_id: str, canonical_id: str | None) -> None:
        self.execute(f"UPDATE {self.schema}.entity SET canonical_id = %s WHERE id = %s", (canonical_id, entity_id))

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

    def compact(self, timeout_ms: int | None = None) -> bool:
        """Make deleted rows physically gone: VACUUM FULL writes every table (and its
        indexes and TOAST) into new files without the dead rows and drops the old ones.
        Takes each table's exclusive lock briefly in turn; must run outside a transaction.
        With ``timeout_ms``, waits at most that long for each table's lock and returns
        False when one could not be had (the rest were compacted: try again later)."""
        with self._s.lock:
            if self._s.depth:
                raise StoreError("compact() cannot run inside a transaction")
            done = True
            for table in _TABLES:
                if timeout_ms is not None:
                    self.execute(f"SET lock_timeout = {int(timeout_ms)}")
                try:
                    self.execute(f"VACUUM FULL {self.schema}.{table}")
                except StoreConflictError:  # lock_timeout: a long reader or writer held the table
                    done = False
                finally:
                    if timeout_ms is not None:
                        self.execute("RESET lock_timeout")
            return done


def _error(exc: Exception, sql: str) -> StoreError:
    verb = sql.split()[0] if sql.split() else "?"
    if psycopg is not None and isinstance(exc, (pg_errors.DeadlockDetected, pg_errors.SerializationFailure,
                                                 pg_errors.LockNotAvailable)):
        return StoreConflictError(f"concurrent writers conflicted in {verb} statement: {exc}".strip())
    return StoreError(f"{exc} in {verb} statement".strip())


def _table(kind: str) -> str:
    if kind not in ("entity", "event", "context", "evidence", "belief"):
        raise StoreError(f"unknown node kind {kind!r}")
    return kind


def _decode(kind: str, row: dict) -> dict:
    if kind == "belief":
        row = dict(row)
        for key in _BELIEF_JSON:
            row[key] = json.loads(row[key])
    elif kind == "evidence":
        row = dict(row)
        row["private"] = bool(row["private"])
        row.pop("seq", None)
    return row
