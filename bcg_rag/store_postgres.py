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

import random
import re
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Mapping, Sequence, TypeVar

from . import store_rows as rows_
from .errors import ConfigError, StoreConflictError, StoreError
from .store_postgres_aliases import PostgresAliases
from .store_postgres_facts import PostgresFacts
from .store_postgres_schema import ADDED_INDEXES, ADDED_INDEXES_SQL, SCHEMA_VERSION, TABLES, create_or_migrate
from .store_postgres_session import _error, _key, _Session, psycopg
from .store_rows import decode as _decode
from .store_rows import table as _table

__all__ = ["PostgresStore", "SCHEMA_VERSION", "RETRIES"]

RETRIES = 8
T = TypeVar("T")
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,50}")


class PostgresStore(PostgresFacts, PostgresAliases):
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
        self._slot_sql = (  # the slots first, each once (store_sqlite._SLOT_SQL)
            f"WITH s AS MATERIALIZED (SELECT DISTINCT user_id, subject_id, predicate, context_key FROM {s}.belief"
            " WHERE id = ANY(%s)) SELECT b.id, b.user_id, b.subject_id, b.predicate, b.value, b.context_key, b.contexts,"
            f" b.confidence, b.last_updated, b.status FROM s JOIN {s}.belief AS b ON b.user_id = s.user_id"
            " AND b.subject_id = s.subject_id AND b.predicate = s.predicate AND b.context_key = s.context_key"
        )
        if create:
            self._create_schema()

    # --- schema ------------------------------------------------------------------------
    def exists(self) -> bool:
        return bool(self.execute("SELECT to_regclass(%s) IS NOT NULL AS ok", (f"{self.schema}.meta",))[0]["ok"])

    def _create_schema(self) -> None:
        """Create this memory's tables, or bring older ones up to date (``store_postgres_schema``)."""
        s = self.schema
        with self._s.lock:
            if (self.exists() and self.get_meta("schema_version") == str(SCHEMA_VERSION)
                    and self.execute(ADDED_INDEXES_SQL, (s, list(ADDED_INDEXES)))[0]["n"] == len(ADDED_INDEXES)):
                return
            conn = self._s.connection()
            ddl_key = _key(s, "ddl")
            try:
                conn.execute("SELECT pg_advisory_lock(%s)", (ddl_key,))  # concurrent first opens: one creates
                try:
                    with conn.transaction():
                        conn.execute("SELECT pg_advisory_xact_lock(%s)", (self._writers,))  # no writer meanwhile
                        create_or_migrate(conn, s)
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
            if not cold.exists() and not create:
                return None
            cold._create_schema()  # or migrate it
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
        """Write a belief's row; with ``history`` in it, replace the stored history whole
        (refolds append with ``write_history`` instead), without, leave it as it is."""
        cols = rows_.belief_columns(row)
        names = ", ".join(cols)
        marks = ", ".join(["%s"] * len(cols))
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in cols if c != "id")
        self.execute(
            f"INSERT INTO {self.schema}.belief ({names}) VALUES ({marks}) ON CONFLICT (id) DO UPDATE SET {updates}",
            list(cols.values()),
        )
        if "history" in row:
            self.write_history(row["id"], 0, row["history"])

    def delete_beliefs(self, ids: Sequence[str]) -> None:
        if ids:
            self.execute(f"DELETE FROM {self.schema}.belief_history WHERE belief_id = ANY(%s)", (list(ids),))
            self.execute(f"DELETE FROM {self.schema}.belief WHERE id = ANY(%s)", (list(ids),))

    def get_nodes(self, kind: str, ids: Sequence[str], history: bool = True) -> dict[str, dict]:
        table = _table(kind)
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        rows = self.execute(f"SELECT * FROM {self.schema}.{table} WHERE id = ANY(%s)", (ids,))
        found = {r["id"]: _decode(kind, r) for r in rows}
        if kind == "belief" and history:
            rows_.attach_history(list(found.values()), self.belief_history(list(found)))
        return {i: found[i] for i in ids if i in found}

    def get_node(self, kind: str, node_id: str, history: bool = True) -> dict | None:
        return self.get_nodes(kind, [node_id], history).get(node_id)

    def find_beliefs(self, user_id: str | None, history: bool = True, **filters) -> list[dict]:
        where, params = [], []
        if user_id is not None:
            where.append("user_id = %s")
            params.append(user_id)
        for key in ("subject_id", "predicate", "context_key", "status"):
            if filters.get(key) is not None:
                where.append(f"{key} = %s")
                params.append(filters[key])
        sql = f"SELECT * FROM {self.schema}.belief" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        rows = [_decode("belief", r) for r in self.execute(sql, params)]
        return rows_.attach_history(rows, self.belief_history([r["id"] for r in rows])) if history else rows

    def slot_beliefs(self, user_id: str, subject_id: str, predicate: str, context_key: str,
                     history: bool = True) -> list[dict]:
        return self.find_beliefs(user_id, history, subject_id=subject_id, predicate=predicate, context_key=context_key)

    # --- belief histories: one row per entry (store_rows) --------------------------------
    def belief_history(self, ids: Sequence[str], last: int | None = None) -> dict[str, list[dict]]:
        """Each belief's whole history, in order ([] for an id without one); with ``last``,
        its newest ``last`` entries, read backwards along the primary key."""
        ids = list(dict.fromkeys(ids))
        if last is not None:
            return self.newest_history(dict.fromkeys(ids, last))
        found = self.execute(f"SELECT belief_id, entry FROM {self.schema}.belief_history WHERE belief_id = ANY(%s)"
                             " ORDER BY belief_id, seq", (ids,)) if ids else []
        return rows_.group_entries(((r["belief_id"], r["entry"]) for r in found), ids)

    def newest_history(self, last: Mapping[str, int]) -> dict[str, list[dict]]:
        """Each belief's newest ``last[id]`` entries, oldest first, all in one statement."""
        ids, counts = list(last), [max(0, n) for n in last.values()]
        found = self.execute(
            f"SELECT b.id AS belief_id, t.entry FROM unnest(%s::text[], %s::int[]) AS b(id, n) CROSS JOIN LATERAL"
            f" (SELECT seq, entry FROM {self.schema}.belief_history AS h WHERE h.belief_id = b.id"
            "  ORDER BY seq DESC LIMIT b.n) AS t ORDER BY b.id, t.seq", (ids, counts)) if ids else []
        return rows_.group_entries(((r["belief_id"], r["entry"]) for r in found), ids)

    def history_tails(self, ids: Sequence[str], since: str) -> dict[str, dict]:
        """Per belief, what a fold resuming at ``since`` reads (``store_rows.tail``): the
        entries dated before it are only counted, and their first and last returned."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        s = self.schema
        # Per belief the last entry dated before ``since``, backwards along the primary key (the
        # entries from ``since`` on are a tail); then it and the ones after it, and entry 0.
        found = self.execute(
            f"WITH l AS MATERIALIZED (SELECT b.id, (SELECT seq FROM {s}.belief_history AS h WHERE h.belief_id = b.id"
            "  AND h.at < %s ORDER BY seq DESC LIMIT 1) AS last FROM unnest(%s::text[]) AS b(id))"
            f" SELECT l.id, l.last, h.seq, h.entry FROM l JOIN {s}.belief_history AS h ON h.belief_id = l.id"
            "  AND h.seq >= COALESCE(l.last, 0)"
            f" UNION ALL SELECT l.id, l.last, h.seq, h.entry FROM l JOIN {s}.belief_history AS h"
            "  ON h.belief_id = l.id AND h.seq = 0 WHERE l.last > 0",
            (since, ids),
        )
        return rows_.tails(ids, ((r["id"], r["last"], r["seq"], r["entry"]) for r in found))

    def write_history(self, belief_id: str, start: int, entries: Sequence[dict]) -> None:
        """Replace a belief's history from position ``start`` on with ``entries``; the
        entries before ``start`` are not touched."""
        s = self.schema
        self.execute(f"DELETE FROM {s}.belief_history WHERE belief_id = %s AND seq >= %s", (belief_id, start))
        rows = rows_.entry_rows(belief_id, start, entries)
        if rows:
            _, seqs, ats, texts = (list(x) for x in zip(*rows))
            self.execute(f"INSERT INTO {s}.belief_history (belief_id, seq, at, entry)"
                         " SELECT %s, * FROM unnest(%s::int[], %s::text[], %s::text[])", (belief_id, seqs, ats, texts))

    def slot_rows(self, belief_ids: Sequence[str]) -> dict[tuple[str, str, str, str], list[dict]]:
        slots: dict[tuple[str, str, str, str], list[dict]] = {}
        ids = list(dict.fromkeys(belief_ids))
        if not ids:
            return slots
        for r in self.execute(self._slot_sql, (ids,)):
            row = dict(r, contexts=rows_.contexts(r["contexts"]))
            slots.setdefault((row["user_id"], row["subject_id"], row["predicate"], row["context_key"]), []).append(row)
        for rows in slots.values():
            rows.sort(key=lambda r: r["id"])
        return slots

    def all_rows(self, kind: str) -> list[dict]:
        rows = [_decode(kind, r) for r in self.execute(f"SELECT * FROM {self.schema}.{_table(kind)} ORDER BY id")]
        if kind == "belief":
            found = self.execute(f"SELECT belief_id, entry FROM {self.schema}.belief_history ORDER BY belief_id, seq")
            rows_.attach_history(rows, rows_.group_entries(((r["belief_id"], r["entry"]) for r in found), ()))
        return rows

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
            for table in TABLES:
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

