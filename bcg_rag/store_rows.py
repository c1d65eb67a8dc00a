"""Row codecs shared by both storage backends (``store_sqlite``, ``store_postgres``).

A belief's history is not a column of its row: each entry is one row of
``belief_history`` (belief_id, seq, at, entry), seq 0, 1, ... in fold order, ``entry``
the entry's JSON. A write appends the entries a fold added and replaces only a changed
tail (``write_history``), so a belief restated thousands of times costs per statement
what its new entries cost. Entries are in event-time order (the fold sorts by time
first), so the entries dated ``since`` or later are always a tail.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Sequence

from .errors import StoreError
from .models import RELATIONS, Edge, check_relation
from .revision import CONFLICT_PREFIX, DERIVED_PREFIX

# An edge a claim made itself, not one derived from a single-valued predicate
# (``revision.is_derived``): the SQL both stores add for ``edges_from(direct_only=True)``.
DIRECT_PATTERNS = (DERIVED_PREFIX + "%", CONFLICT_PREFIX + DERIVED_PREFIX + "%")
DIRECT_SQL = " AND (reason IS NULL OR (reason NOT LIKE %s AND reason NOT LIKE %s))"

NODE_TABLES = ("entity", "event", "context", "evidence", "belief")
RELATION_CHECK = ", ".join(f"'{r}'" for r in sorted(RELATIONS))


def table(kind: str) -> str:
    if kind not in NODE_TABLES:
        raise StoreError(f"unknown node kind {kind!r}")
    return kind


def contexts(text: str) -> list[str]:
    """A belief's ``contexts`` column as a list: most hold none, and a search decodes dozens."""
    return [] if text == "[]" else json.loads(text)


def decode(kind: str, row: Any) -> dict:
    """A stored node row as the interface returns it (a belief without its history:
    ``attach_history`` adds that)."""
    d = dict(row)
    if kind == "belief":
        d["contexts"] = contexts(d["contexts"])
        d.pop("history", None)  # a schema-1 row read where it cannot be migrated (read-only)
    elif kind == "evidence":
        d["private"] = bool(d["private"])
        d.pop("seq", None)
    return d


def belief_columns(row: dict) -> dict:
    """The belief row's own columns, encoded: everything but its history."""
    out = {k: v for k, v in row.items() if k != "history"}
    out["contexts"] = json.dumps(out["contexts"], ensure_ascii=False)
    return out


def entry_rows(belief_id: str, start: int, entries: Sequence[dict]) -> list[tuple[str, int, str, str]]:
    """``belief_history`` rows for ``entries``, numbered from ``start``."""
    return [(belief_id, start + i, e["at"], json.dumps(e, ensure_ascii=False)) for i, e in enumerate(entries)]


def edge_rows(edges: Iterable[Edge]) -> list[tuple]:
    """Edges as rows of the edge table's columns, sorted by key (neighbouring rows of its
    B-trees are then written together); sorted stably, so of two edges with one key the
    later is still written last and stays."""
    out = []
    for e in sorted(edges, key=lambda e: (e.src, e.dst, e.relation)):
        check_relation(e.relation)
        out.append((e.src, e.dst, e.relation, e.weight, e.value, e.valid_from, e.valid_until, e.reason, e.source_type))
    return out


def entry(text: str | None) -> dict | None:
    return None if text is None else json.loads(text)


def group_entries(rows: Iterable[tuple[str, str]], ids: Iterable[str]) -> dict[str, list[dict]]:
    """(belief_id, entry JSON) rows, in seq order, as each id's history ([] for none)."""
    out: dict[str, list[dict]] = {i: [] for i in ids}
    for belief_id, text in rows:
        out.setdefault(belief_id, []).append(json.loads(text))
    return out


def attach_history(rows: list[dict], histories: dict[str, list[dict]]) -> list[dict]:
    for r in rows:
        r["history"] = histories.get(r["id"], [])
    return rows


def tail(start: int, first: str | None, last: str | None, entries: list[dict]) -> dict:
    """One belief's answer to ``history_tails``: ``start`` entries are dated before
    ``since`` (the kept prefix), ``first`` and ``last`` of them, and the stored
    ``entries`` from ``start`` on."""
    return dict(start=start, first=entry(first), last=entry(last), entries=entries)


def tails(ids: Sequence[str], rows: Iterable[tuple[str, int | None, int, str]]) -> dict[str, dict]:
    """``history_tails``' answer, per id in order, from (belief_id, seq of the last entry
    dated before ``since`` or None, seq, entry JSON) rows: the entries from that one on,
    and entry 0 when that one is later."""
    found: dict[str, tuple[int | None, dict[int, str]]] = {}
    for belief_id, last, seq, text in rows:
        found.setdefault(belief_id, (last, {}))[1][seq] = text
    out = {}
    for i in ids:
        last, texts = found.get(i, (None, {}))
        start = 0 if last is None else last + 1
        out[i] = tail(start, None if last is None else texts[0], None if last is None else texts[last],
                      [json.loads(texts[s]) for s in sorted(texts) if s >= start])
    return out


def prefix_end(prefix: str) -> str:
    """The least string above every string that starts with ``prefix`` (both backends compare
    alias keys bytewise): its last character raised by one."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def chunks(items: Iterable, size: int = 500) -> Iterator[list]:
    items = list(items)
    for i in range(0, len(items), size):
        yield items[i : i + size]


def fold_entity_aliases(found: Iterable[Any], rows: dict[str, dict], aliases: dict[str, list[str]]) -> None:
    """Rows of entities left-joined with their aliases (``entity_key_``, ``alias_norm_``, then the
    entity's columns), folded into each entity's decoded row and its alias keys, in place: both
    backends' ``entities_with_aliases`` read them so."""
    for r in found:
        row = dict(r)
        entity_id, alias = row.pop("entity_key_"), row.pop("alias_norm_")
        if row["id"] is not None and entity_id not in rows:
            rows[entity_id] = decode("entity", row)
        aliases.setdefault(entity_id, []).extend([alias] if alias is not None else [])
