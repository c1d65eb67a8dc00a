"""The PostgreSQL schema of one memory (its tables in a schema of their own), and the
migrations that bring one written by an earlier bcg-rag to it. ``create_or_migrate`` runs
inside one transaction, under an advisory lock that concurrent first opens share, and
finds nothing left to do the second time.

Versions: 1 kept each belief's history as one JSON list in ``belief.history``; 2 keeps
one row per entry in ``belief_history`` (see ``store_rows``).

Indexes added within a version (``ADDED_INDEXES``) need no new version: an older bcg-rag
reads and writes the same tables, and the server keeps the indexes current for it. An
open therefore also runs the DDL (``CREATE INDEX IF NOT EXISTS``) when one is missing.
"""

from __future__ import annotations

import json

from .errors import StoreError
from .store_rows import RELATION_CHECK, entry_rows

SCHEMA_VERSION = 2
# Created on open where missing (see above): the per-message reads of ingestion
# (known_predicates, supporter_types) seek them instead of reading a user's every row.
# edges_from / edges_between read a source's edges from index pages alone (an index-only
# scan), not one heap page per edge.
ADDED_INDEXES = ("claim_user_predicate", "edge_support_type", "edge_src_rows")
ADDED_INDEXES_SQL = "SELECT count(*) AS n FROM pg_indexes WHERE schemaname = %s AND indexname = ANY(%s)"
TABLES = ("meta", "entity", "alias", "event", "context", "evidence", "claim", "belief", "belief_history", "edge",
          "claim_vector", "audit")
TXT = 'TEXT COLLATE "C"'

# Columns that hold what users said (or names derived from it): no statistics, so
# ANALYZE never copies their values into pg_statistic, where no deletion would reach.
_PRIVATE_COLUMNS = {
    "entity": ("user_id", "name"), "alias": ("user_id", "alias_norm"), "event": ("id",),
    "context": ("id", "context_value", "parent"),
    "evidence": ("text", "source", "user_id", "agent_id", "context", "event_id"),
    "claim": ("user_id", "subject", "predicate", "value", "context"),
    "belief": ("user_id", "predicate", "value", "context_key", "contexts"), "belief_history": ("entry",),
    "edge": ("dst", "reason"), "audit": ("target", "user_id", "reason", "detail"),
    "claim_vector": ("user_id", "vector"),
}


def ddl(s: str) -> list[str]:
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
        # known_predicates: a skip scan over it costs per distinct predicate, not per claim
        f"CREATE INDEX IF NOT EXISTS claim_user_predicate ON {s}.claim(user_id, predicate)",
        f"""CREATE TABLE IF NOT EXISTS {s}.belief (
            id {TXT} PRIMARY KEY, user_id {TXT} NOT NULL, subject_id {TXT} NOT NULL,
            predicate {TXT} NOT NULL, value {TXT} NOT NULL, context_key {TXT} NOT NULL,
            contexts TEXT NOT NULL, confidence DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN -1 AND 1),
            last_updated {TXT} NOT NULL, status {TXT} NOT NULL)""",
        f"""CREATE TABLE IF NOT EXISTS {s}.belief_history (
            belief_id {TXT} NOT NULL, seq INTEGER NOT NULL, at {TXT} NOT NULL, entry TEXT NOT NULL,
            PRIMARY KEY (belief_id, seq))""",
        f"CREATE INDEX IF NOT EXISTS belief_slot ON {s}.belief(user_id, subject_id, predicate, context_key)",
        # Not SQLite's belief_id_slot / belief_slot_rows (slot_rows from index pages): an index
        # entry holds at most 2,704 bytes here, and a value of 1,000 Chinese characters (within
        # the default max_field_chars) or a predicate of 880 (which the indexes above take)
        # would make its belief one that cannot be written.
        f"""CREATE TABLE IF NOT EXISTS {s}.edge (
            src {TXT} NOT NULL, dst {TXT} NOT NULL,
            relation {TXT} NOT NULL CHECK (relation IN ({RELATION_CHECK})),
            weight DOUBLE PRECISION, value DOUBLE PRECISION, valid_from {TXT}, valid_until {TXT},
            reason {TXT}, source_type {TXT}, PRIMARY KEY (src, dst, relation))""",
        f"CREATE INDEX IF NOT EXISTS edge_dst_from ON {s}.edge(dst, relation, valid_from)",
        # supporter_types: a belief's earliest supporter of each source type in a few seeks
        f"CREATE INDEX IF NOT EXISTS edge_support_type ON {s}.edge(dst, source_type, valid_from)"
        " WHERE relation = 'SUPPORTS'",
        # edges_from / edges_between: a source's edges whole
        (f"CREATE INDEX IF NOT EXISTS edge_src_rows ON {s}.edge(src, dst, relation)"
         " INCLUDE (weight, value, valid_from, valid_until, reason, source_type)"),
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


def create_or_migrate(conn, s: str) -> None:
    """Create what is missing in schema ``s``, then migrate an older layout (inside the
    caller's transaction, which holds the DDL lock)."""
    conn.execute("; ".join([f"CREATE SCHEMA IF NOT EXISTS {s}"] + ddl(s) + [
        f"INSERT INTO {s}.meta(key, value) VALUES ('schema_version', '{SCHEMA_VERSION}') ON CONFLICT DO NOTHING"]))
    version = int(conn.execute(f"SELECT value FROM {s}.meta WHERE key = 'schema_version'").fetchone()["value"])
    if version > SCHEMA_VERSION:
        raise StoreError(f"schema {s} has version {version}; this bcg-rag reads up to {SCHEMA_VERSION}")
    if conn.execute("SELECT 1 FROM information_schema.columns WHERE table_schema = %s AND table_name = 'belief'"
                    " AND column_name = 'history'", (s,)).fetchall():
        _history_to_rows(conn, s)
    conn.execute(f"UPDATE {s}.meta SET value = %s WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))


def _history_to_rows(conn, s: str) -> None:
    """1 -> 2: each belief's JSON history becomes its ``belief_history`` rows (replacing
    any it has, so a half-done copy could not double them)."""
    rows = []
    for r in conn.execute(f"SELECT id, history FROM {s}.belief ORDER BY id").fetchall():
        rows += entry_rows(r["id"], 0, json.loads(r["history"]))
    conn.execute(f"DELETE FROM {s}.belief_history")
    with conn.cursor() as cur:
        cur.executemany(f"INSERT INTO {s}.belief_history (belief_id, seq, at, entry) VALUES (%s, %s, %s, %s)", rows)
    conn.execute(f"ALTER TABLE {s}.belief DROP COLUMN history")
