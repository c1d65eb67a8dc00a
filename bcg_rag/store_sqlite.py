"""SQLite backend: the embedded, durable default (WAL, one file under the memory dir).

A thin, explicit layer: one table per node kind, one edge table whose CHECK
constraint admits only the five relations of the belief context graph, and one row per
belief history entry (``store_rows``). This module holds the connection, transactions
and beliefs; ``store_sqlite_facts`` the rest of the interface but the aliases, which are
``store_sqlite_aliases``'s; ``store_sqlite_schema`` the tables and their migrations.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence, TypeVar

from . import store_rows as rows_
from .errors import ReadOnlyError, StoreError
from .store_rows import chunks as _chunks
from .store_rows import decode as _decode
from .store_rows import table as _table
from .store_sqlite_aliases import SQLiteAliases
from .store_sqlite_facts import EDGE_KEY_INDEX, EDGE_ROWS_INDEX, SQLiteFacts
from .store_sqlite_schema import SCHEMA, SCHEMA_VERSION, create_or_migrate, has_history_column

__all__ = ["SCHEMA", "SCHEMA_VERSION", "SQLiteStore"]

T = TypeVar("T")

_SLOT_SQL = (
    # The slots first (by primary key), each once: a DISTINCT over the slots' rows sorted
    # every row whole, twice the time of the join at 100,000 events.
    "WITH s AS MATERIALIZED (SELECT DISTINCT user_id, subject_id, predicate, context_key FROM belief{by_id}"
    # No user filter here: with one, SQLite walks the user's whole slot index instead of
    # the primary key (8 ms instead of 0.5 ms at 10k beliefs). The ids come from one user.
    " WHERE id IN ({marks}))"
    " SELECT b.id, b.user_id, b.subject_id, b.predicate, b.value, b.context_key, b.contexts, b.confidence,"
    " b.last_updated, b.status FROM s CROSS JOIN belief AS b{by_slot} ON b.user_id = s.user_id"
    " AND b.subject_id = s.subject_id AND b.predicate = s.predicate AND b.context_key = s.context_key"
)

# history_tails: per belief the last entry dated before ``since``, found backwards along the
# primary key (the entries from ``since`` on are a tail), then that entry and the ones after
# it, and entry 0 when it is not among them.
_TAILS_SQL = (
    "WITH ids(id) AS (VALUES {ids}), l(id, seq) AS MATERIALIZED (SELECT id, (SELECT seq FROM belief_history"
    " WHERE belief_id = ids.id AND at < ?{since} ORDER BY seq DESC LIMIT 1) FROM ids)"
    " SELECT l.id, l.seq, h.seq, h.entry FROM l JOIN belief_history AS h ON h.belief_id = l.id"
    " AND h.seq >= COALESCE(l.seq, 0)"
    " UNION ALL SELECT l.id, l.seq, h.seq, h.entry FROM l JOIN belief_history AS h ON h.belief_id = l.id AND h.seq = 0"
    " WHERE l.seq > 0"
)

# newest_history: a belief's entries from its n-th newest on (all of them when it has fewer);
# OFFSET is bound once per part, so a statement has one part per distinct n.
_NEWEST_SQL = (
    "SELECT h.belief_id, h.seq, h.entry FROM (VALUES {ids}) AS ids CROSS JOIN belief_history AS h"
    " ON h.belief_id = ids.column1 AND h.seq >= COALESCE((SELECT t.seq FROM belief_history AS t"
    " WHERE t.belief_id = ids.column1 ORDER BY t.seq DESC LIMIT 1 OFFSET ?), 0)"
)
NEWEST_PER_STATEMENT = 400  # ids bound in one newest_history statement (SQLite's old limit is 999 values)

WAL_CHECKPOINT_PAGES = 10_000


def storage_options(storage: dict) -> dict:
    """SQLiteStore's keyword arguments from a policy's [storage] section (defaults as in
    default_policy.toml): the memory's file and its archive open with the same ones."""
    return dict(synchronous=storage.get("synchronous", "FULL"), busy_timeout_ms=int(storage.get("busy_timeout_ms", 30000)),
                cache_mib=int(storage.get("cache_mib", 64)))


class SQLiteStore(SQLiteFacts, SQLiteAliases):
    """GraphStore over one SQLite file (or ``:memory:``)."""

    def __init__(self, path: str | Path = ":memory:", synchronous: str = "FULL", busy_timeout_ms: int = 30000,
                 read_only: bool | None = None, cache_mib: int = 64):
        self.path = str(path)
        # A file this process cannot write (or in a directory it cannot write) opens
        # read-only: reads work, every write transaction raises ReadOnlyError.
        self.read_only = bool(read_only) if read_only is not None else (self.path != ":memory:" and not _writable(self.path))
        self._lock = threading.RLock()
        self._depth = 0
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._json_history = False
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
                # Copy the WAL into the file every 10,000 pages (40 MiB) rather than SQLite's
                # 1,000: ids are content hashes, so a batch dirties pages all over each index
                # (hash embedder, 50,000 structured events: 87 -> 81 s and 92 -> 79 s, two
                # back-to-back pairs).
                self._conn.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            self._conn.execute(f"PRAGMA synchronous={synchronous}")
            self._conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            # SQLite's own default page cache is 2 MiB; past a few thousand events the
            # B-tree pages of every write come back through the OS (hash embedder,
            # 100,000 structured events: 193 -> 171 s with 64 MiB).
            self._conn.execute(f"PRAGMA cache_size={-1024 * int(cache_mib)}")
            if self.read_only:
                if not self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchall():
                    raise StoreError(f"{self.path} is not a bcg-rag memory (and is read-only)")
                # Schema 1 (histories in a JSON column) cannot be migrated here: read as it is.
                self._json_history = has_history_column(self._conn)
            else:
                with self.transaction():
                    create_or_migrate(self._conn)
            self._use_indexes()
        except sqlite3.Error as exc:  # a damaged or foreign file: typed, and the handle closed
            conn = getattr(self, "_conn", None)
            if conn is not None:
                conn.close()
            raise StoreError(f"cannot open {self.path}: {exc}") from exc
        except StoreError:
            self._conn.close()
            raise

    def _use_indexes(self) -> None:
        """The statements that read from the covering indexes name them (the planner would
        take the primary key's): only where the file has them, which a read-only file
        written by an earlier bcg-rag may not."""
        have = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        slot = {"belief_id_slot", "belief_slot_rows"} <= have
        self._slot_sql = _SLOT_SQL.format(by_id=" INDEXED BY belief_id_slot" if slot else "",
                                          by_slot=" INDEXED BY belief_slot_rows" if slot else "", marks="{marks}")
        self._edge_key_index = EDGE_ROWS_INDEX if EDGE_ROWS_INDEX in have else EDGE_KEY_INDEX

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

    def _executemany(self, sql: str, rows: Sequence[Sequence]) -> None:
        """One statement run for each of ``rows``: parsed and bound once, not per row."""
        with self._lock:
            try:
                self._conn.executemany(sql, rows)
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
        """Write a belief's row; with ``history`` in it, replace the stored history whole
        (refolds append with ``write_history`` instead), without, leave it as it is."""
        cols = rows_.belief_columns(row)
        names = ", ".join(cols)
        marks = ", ".join("?" for _ in cols)
        # An upsert keeps the row where it is; INSERT OR REPLACE would delete it and insert it again
        updates = ", ".join(f"{c} = excluded.{c}" for c in cols if c != "id")
        self.execute(f"INSERT INTO belief ({names}) VALUES ({marks}) ON CONFLICT (id) DO UPDATE SET {updates}",
                     tuple(cols.values()))
        if "history" in row:
            self.write_history(row["id"], 0, row["history"])

    def delete_beliefs(self, ids: Sequence[str]) -> None:
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            self.execute(f"DELETE FROM belief_history WHERE belief_id IN ({marks})", chunk)
            self.execute(f"DELETE FROM belief WHERE id IN ({marks})", chunk)

    def get_nodes(self, kind: str, ids: Sequence[str], history: bool = True) -> dict[str, dict]:
        table = _table(kind)
        out: dict[str, dict] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for r in self.execute(f"SELECT * FROM {table} WHERE id IN ({marks})", chunk):
                out[r["id"]] = _decode(kind, r)
        if kind == "belief" and history:
            rows_.attach_history(list(out.values()), self.belief_history(list(out)))
        return out

    def get_node(self, kind: str, node_id: str, history: bool = True) -> dict | None:
        return self.get_nodes(kind, [node_id], history).get(node_id)

    def find_beliefs(self, user_id: str | None, history: bool = True, **filters) -> list[dict]:
        where, params = [], []
        if user_id is not None:
            where.append("user_id = ?")
            params.append(user_id)
        for key in ("subject_id", "predicate", "context_key", "status"):
            if filters.get(key) is not None:
                where.append(f"{key} = ?")
                params.append(filters[key])
        sql = "SELECT * FROM belief" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        rows = [_decode("belief", r) for r in self.execute(sql, params)]
        return rows_.attach_history(rows, self.belief_history([r["id"] for r in rows])) if history else rows

    def slot_beliefs(self, user_id: str, subject_id: str, predicate: str, context_key: str,
                     history: bool = True) -> list[dict]:
        return self.find_beliefs(user_id, history, subject_id=subject_id, predicate=predicate, context_key=context_key)

    # --- belief histories: one row per entry (store_rows) ------------------------------
    def belief_history(self, ids: Sequence[str], last: int | None = None) -> dict[str, list[dict]]:
        """Each belief's whole history, in order ([] for an id without one); with ``last``,
        its newest ``last`` entries, read backwards along the primary key."""
        ids = list(dict.fromkeys(ids))
        if last is not None and not self._json_history:
            return self.newest_history(dict.fromkeys(ids, last))
        found: list = []
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            if self._json_history:
                found += self.execute(f"SELECT id, history FROM belief WHERE id IN ({marks})", chunk)
            else:
                found += self.execute(f"SELECT belief_id, entry FROM belief_history WHERE belief_id IN ({marks})"
                                      " ORDER BY belief_id, seq", chunk)
        if self._json_history:  # a schema-1 memory being migrated: one JSON list per belief
            whole = {r[0]: json.loads(r[1]) for r in found}
            return {i: [] for i in ids} | {i: h if last is None else h[len(h) - min(len(h), max(0, last)):]
                                           for i, h in whole.items()}
        return rows_.group_entries(((r[0], r[1]) for r in found), ids)

    def newest_history(self, last: Mapping[str, int]) -> dict[str, list[dict]]:
        """Each belief's newest ``last[id]`` entries, oldest first, for every id in one
        statement (per 400 ids): one part per distinct count (SQLite's OFFSET takes no
        column), each seeking the entry that many back from the newest along the primary key."""
        if self._json_history:  # a schema-1 memory being migrated
            return {i: h[len(h) - min(len(h), max(0, last[i])):] for i, h in self.belief_history(list(last)).items()}
        by_count: dict[int, list[str]] = {}
        for belief_id, n in last.items():
            if n > 0:  # else none of its entries
                by_count.setdefault(n, []).append(belief_id)
        statements: list[list[tuple[int, list[str]]]] = [[]]
        bound = 0
        for n, ids in sorted(by_count.items()):
            for chunk in _chunks(ids, NEWEST_PER_STATEMENT):
                if bound + len(chunk) > NEWEST_PER_STATEMENT:
                    statements.append([])
                    bound = 0
                statements[-1].append((n, chunk))
                bound += len(chunk)
        found: list = []
        for parts in statements:
            if parts:
                sql = " UNION ALL ".join(_NEWEST_SQL.format(ids=",".join(["(?)"] * len(chunk))) for _, chunk in parts)
                found += self.execute(sql + " ORDER BY 1, 2", [x for n, chunk in parts for x in (*chunk, n - 1)])
        return rows_.group_entries(((r[0], r[2]) for r in found), last)

    def history_tails(self, ids: Sequence[str], since: str) -> dict[str, dict]:
        """Per belief, what a fold resuming at ``since`` reads (``store_rows.tail``): the
        entries dated before it are only counted, and their first and last returned. One
        statement for all (it was three per belief: a refold reads every belief of a slot)."""
        ids = list(dict.fromkeys(ids))
        rows: list = []
        for chunk in _chunks(ids):
            rows += self.execute(_TAILS_SQL.format(ids=",".join(f"(?{i})" for i in range(1, len(chunk) + 1)),
                                                   since=len(chunk) + 1), chunk + [since])
        return rows_.tails(ids, rows)

    def write_history(self, belief_id: str, start: int, entries: Sequence[dict]) -> None:
        """Replace a belief's history from position ``start`` on with ``entries``; the
        entries before ``start`` are not touched."""
        self.execute("DELETE FROM belief_history WHERE belief_id = ? AND seq >= ?", (belief_id, start))
        self._executemany("INSERT INTO belief_history (belief_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                         rows_.entry_rows(belief_id, start, entries))

    def slot_rows(self, belief_ids: Sequence[str]) -> dict[tuple[str, str, str, str], list[dict]]:
        """Every belief sharing a slot (user, subject, predicate, context group) with one of
        ``belief_ids``, grouped by slot, without histories: one indexed self-join instead of
        a decoded ``slot_beliefs`` call per slot, which cost most of a search's time."""
        slots: dict[tuple[str, str, str, str], list[dict]] = {}
        for chunk in _chunks(list(dict.fromkeys(belief_ids))):
            for r in self.execute(self._slot_sql.format(marks=",".join("?" * len(chunk))), chunk):
                row = dict(r, contexts=rows_.contexts(r["contexts"]))
                slots.setdefault((row["user_id"], row["subject_id"], row["predicate"], row["context_key"]), []).append(row)
        for rows in slots.values():
            rows.sort(key=lambda r: r["id"])
        return slots

    def all_rows(self, kind: str) -> list[dict]:
        rows = [_decode(kind, r) for r in self.execute(f"SELECT * FROM {_table(kind)} ORDER BY id")]
        if kind == "belief" and self._json_history:
            rows_.attach_history(rows, self.belief_history([r["id"] for r in rows]))
        elif kind == "belief":
            found = self.execute("SELECT belief_id, entry FROM belief_history ORDER BY belief_id, seq")
            rows_.attach_history(rows, rows_.group_entries(((r[0], r[1]) for r in found), ()))
        return rows

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
