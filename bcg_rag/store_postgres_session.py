"""The PostgreSQL backend's connection: one ``_Session`` (a connection and its transaction
state) shared by a store and its cold store, the advisory lock keys, and how driver errors
become bcg-rag's (a deadlock or lock timeout is a ``StoreConflictError``, which
``PostgresStore.run`` retries).
"""

from __future__ import annotations

import hashlib
import re
import threading

from .errors import StoreConflictError, StoreError

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.rows import dict_row
except ImportError:  # pragma: no cover - exercised where psycopg is missing
    psycopg = None


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


def _error(exc: Exception, sql: str) -> StoreError:
    verb = sql.split()[0] if sql.split() else "?"
    if psycopg is not None and isinstance(exc, (pg_errors.DeadlockDetected, pg_errors.SerializationFailure,
                                                 pg_errors.LockNotAvailable)):
        return StoreConflictError(f"concurrent writers conflicted in {verb} statement: {exc}".strip())
    return StoreError(f"{exc} in {verb} statement".strip())
