"""The SQLite schema, and the migrations that bring a file written by an earlier
bcg-rag to it. Opening a file runs ``create_or_migrate`` inside one write transaction:
a crash leaves the file as it was, and a second open finds nothing left to do.

Versions: 1 kept each belief's history as one JSON list in ``belief.history``; 2 keeps
one row per entry in ``belief_history`` (see ``store_rows``). Indexes added within a
version (``claim_user_predicate``, ``edge_support_type``; the covering ``belief_id_slot``,
``belief_slot_rows`` and ``edge_src_rows``) need no new version: the schema's ``IF NOT
EXISTS`` statements create them on the next open (one user's 100,000 events: 0.8 to 1.8 s, the
file 222 -> 277 MB), and an older bcg-rag reads and writes the same tables while SQLite
keeps the indexes current for it. A file opened read-only is not migrated: its statements
then name no index it lacks (``SQLiteStore._use_indexes``).
"""

from __future__ import annotations

import json
import sqlite3

from .errors import StoreError
from .store_rows import RELATION_CHECK, entry_rows

SCHEMA_VERSION = 2

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
-- known_predicates: a skip scan over it costs per distinct predicate, not per claim
CREATE INDEX IF NOT EXISTS claim_user_predicate ON claim(user_id, predicate);
CREATE TABLE IF NOT EXISTS belief (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, subject_id TEXT NOT NULL,
    predicate TEXT NOT NULL, value TEXT NOT NULL, context_key TEXT NOT NULL,
    contexts TEXT NOT NULL, confidence REAL NOT NULL CHECK (confidence BETWEEN -1 AND 1),
    last_updated TEXT NOT NULL, status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS belief_history (
    belief_id TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, entry TEXT NOT NULL,
    PRIMARY KEY (belief_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS belief_slot ON belief(user_id, subject_id, predicate, context_key);
-- slot_rows: a belief's slot key, then the slot's rows, from index pages alone (no row of the table)
CREATE INDEX IF NOT EXISTS belief_id_slot ON belief(id, user_id, subject_id, predicate, context_key);
CREATE INDEX IF NOT EXISTS belief_slot_rows ON belief(user_id, subject_id, predicate, context_key, id, value, contexts,
    confidence, last_updated, status);
CREATE TABLE IF NOT EXISTS edge (
    src TEXT NOT NULL, dst TEXT NOT NULL,
    relation TEXT NOT NULL CHECK (relation IN ({RELATION_CHECK})),
    weight REAL, value REAL, valid_from TEXT, valid_until TEXT, reason TEXT, source_type TEXT,
    PRIMARY KEY (src, dst, relation)
);
DROP INDEX IF EXISTS edge_dst;
CREATE INDEX IF NOT EXISTS edge_dst_from ON edge(dst, relation, valid_from);
-- supporter_types: a belief's earliest supporter of each source type in a few seeks
CREATE INDEX IF NOT EXISTS edge_support_type ON edge(dst, source_type, valid_from) WHERE relation = 'SUPPORTS';
-- edges_from / edges_between: a source's edges whole, in key order, from index pages alone
CREATE INDEX IF NOT EXISTS edge_src_rows ON edge(src, dst, relation, weight, value, valid_from, valid_until, reason,
    source_type);
CREATE TABLE IF NOT EXISTS claim_vector (
    evidence_id TEXT NOT NULL, belief_id TEXT NOT NULL, user_id TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (evidence_id, belief_id)
);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, action TEXT NOT NULL,
    target TEXT, user_id TEXT, reason TEXT, actor TEXT, detail TEXT
);
"""


def create_or_migrate(conn: sqlite3.Connection) -> None:
    """Create what is missing, then migrate an older layout (inside the caller's transaction)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    version = int(conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(f"written by a newer bcg-rag (schema {version}; this one reads up to {SCHEMA_VERSION})")
    if has_history_column(conn):
        _history_to_rows(conn)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))


def has_history_column(conn: sqlite3.Connection) -> bool:
    """Whether beliefs still carry their history as one JSON column (schema 1)."""
    return any(r[1] == "history" for r in conn.execute("PRAGMA table_info(belief)"))


def _history_to_rows(conn: sqlite3.Connection) -> None:
    """1 -> 2: each belief's JSON history becomes its ``belief_history`` rows. Rows a
    belief already has are replaced, so a half-done copy could not double them."""
    for belief_id, text in conn.execute("SELECT id, history FROM belief ORDER BY id").fetchall():
        conn.execute("DELETE FROM belief_history WHERE belief_id = ?", (belief_id,))
        conn.executemany("INSERT INTO belief_history (belief_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                         entry_rows(belief_id, 0, json.loads(text)))
    conn.execute("ALTER TABLE belief DROP COLUMN history")
