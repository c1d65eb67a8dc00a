"""Belief lifecycle: weak, invalidated and archived beliefs (status, ``maintain``,
``archive``, ``restore``). Plain functions over a ``BeliefMemory``; every threshold
comes from the policy's ``[lifecycle]`` section. Reading the archive lives in
``archive.py``, the review queue and the audit log in ``review.py``, deletion on request
in ``forget.py``; each of them builds on this module, never the other way round.

A belief's status is a function of its history and the clock, recomputed by
``maintain``, not a latch: so ``maintain`` is idempotent, and a weak or invalidated
belief that new evidence lifts comes back at the next run.

Archived beliefs live in a second store with the same schema (``cold.sqlite3`` in the
memory directory; a second in-RAM store for in-memory memories). Two SQLite files
cannot commit atomically together, so every move is copy-then-delete: a crash in
between leaves a duplicate that the next run resolves, never a loss. To rule out
lock cycles between processes, the cold store is only ever written while holding the
hot store's write lock (hot first, then cold).
"""

from __future__ import annotations

import os
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from . import revision, writing
from .checks import check_id
from .errors import NotFoundError
from .ids import normalise_key, stable_id
from .models import BELONGS_TO, CONTEXT_OF, HIDDEN_TEXT, OCCURRED_IN, REFUTES, SUPPORTS
from .store_sqlite import SQLiteStore, storage_options
from .timeutil import days_between, parse_timestamp

COLD_FILE = "cold.sqlite3"

BELIEF_RELATIONS = (SUPPORTS, REFUTES)
# The statuses maintain() decides, and the audit action for entering each one.
STATUS_ACTIONS = {"weak": "weaken", "invalidated": "invalidate", "active": "reactivate"}

# In-memory memories keep their cold store here, for as long as the memory lives.
_IN_MEMORY_COLD: "weakref.WeakKeyDictionary[Any, SQLiteStore]" = weakref.WeakKeyDictionary()


# --- small helpers -----------------------------------------------------------------------
def visible_text(evidence_row: dict, agent_id: str | None) -> str:
    """The evidence text as ``agent_id`` may see it: another agent's private text is
    replaced. ``agent_id=None`` is the user-level view and sees everything (as explain)."""
    hidden = evidence_row.get("private") and agent_id is not None and evidence_row.get("agent_id") != agent_id
    return HIDDEN_TEXT if hidden else evidence_row["text"]


def _now(memory: Any, now: Any) -> str:
    return parse_timestamp(now, "now") if now is not None else memory.clock()


def _lc(memory: Any, key: str) -> float:
    return float(memory.policy.section("lifecycle")[key])


def _slot(row: dict) -> tuple[str, str, str, str]:
    return (row["user_id"], row["subject_id"], row["predicate"], row["context_key"])


def _effective(memory: Any, row: dict, now: str) -> float:
    return revision.decay(row["confidence"], row["last_updated"], now, memory.policy.half_life_days(row["predicate"]))


def _audit(memory: Any, at: str, action: str, target: str | None, user_id: str | None, actor: str, reason: str, detail: Any = None) -> int:
    return memory.store.append_audit(dict(at=at, action=action, target=target, user_id=user_id, actor=actor, reason=reason, detail=detail))


@contextmanager
def _cold(memory: Any, create: bool = True) -> Iterator[SQLiteStore | None]:
    """The memory's cold store, or None when it has none yet and ``create`` is False.
    A file store is opened per call and closed after, so it never outlives the memory."""
    beside = getattr(memory.store, "cold_store", None)
    if beside is not None:  # a server backend keeps it beside the hot store (store.py)
        yield beside(create)
        return
    if memory.path is None:
        store = _IN_MEMORY_COLD.get(memory)
        if store is None and create:
            store = _IN_MEMORY_COLD[memory] = SQLiteStore(":memory:", synchronous="OFF")
        yield store
        return
    path = Path(memory.path) / COLD_FILE
    if not create and not path.exists():
        yield None
        return
    store = SQLiteStore(path, **storage_options(memory.policy.section("storage")))
    try:
        yield store
    finally:
        store.close()


cold_store = _cold  # public names for readers of the archive (search)


def may_have_cold_store(memory: Any) -> bool:
    """False only when the memory surely has no cold store (so nothing archived): a search
    asks this before looking in the archive, whose checks and opening cost it ~0.1 ms for
    nothing in the common case. A server backend's cold store is its own: asked there."""
    if getattr(memory.store, "cold_store", None) is not None:
        return True
    if memory.path is None:
        return _IN_MEMORY_COLD.get(memory) is not None
    return os.path.exists(os.path.join(memory.path, COLD_FILE))


def _as_memory(memory: Any, store: SQLiteStore) -> Any:
    """The cold store seen as a memory (no index), to reuse the fold, explain and validate."""
    return type(memory)(store, memory.policy, index=None, clock=memory.clock)


def _claim_belief_id(memory: Any, claim: dict) -> str | None:
    """The belief a claim would link to now; mirrors ``writing.link_claim``."""
    subject_id = memory.resolve_entity(claim["user_id"], claim["subject"])
    if subject_id is None:
        return None
    context_key = memory.context_group(claim["context"])
    return stable_id("bel", claim["user_id"], subject_id, claim["predicate"], normalise_key(claim["value"]), context_key)


def _unit(memory: Any, store: SQLiteStore, row: dict) -> list[dict]:
    """What archives and restores together. The beliefs of a single-valued slot refute
    one another (derived REFUTES edges), so the slot moves as one; others move alone."""
    if memory.policy.is_functional(row["predicate"]):
        return store.slot_beliefs(*_slot(row))
    return [row]


cold_memory = _as_memory


# --- status: weak, invalidated, active ---------------------------------------------------
def status_for(memory: Any, row: dict, now: str) -> tuple[str, str]:
    """(status, why) that the policy gives a stored belief row at ``now``."""
    history = row["history"]
    floor = _lc(memory, "invalidate_floor")
    refutations = sum(h["relation"] == REFUTES for h in history)
    below_since = None  # start of the trailing run of history entries below the floor
    for h in history:
        below_since = (below_since or h["at"]) if h["new"] < floor else None
    if refutations >= _lc(memory, "invalidate_min_refutations") and below_since is not None:
        days = days_between(below_since, now)
        if days >= _lc(memory, "invalidate_after_days"):
            return "invalidated", f"refuted {refutations} times and below {floor:+g} for {days:.1f} days"
    effective = _effective(memory, row, now)
    weak_below = _lc(memory, "weak_below")
    if effective < weak_below:
        return "weak", f"effective confidence {effective:+.3f} below {weak_below:g}"
    return "active", f"effective confidence {effective:+.3f} not below {weak_below:g}"


def _update_status(memory: Any, belief_id: str, now: str, actor: str) -> str | None:
    """Apply status_for to one belief in its own short transaction; the audit action or None."""
    with memory.store.transaction():
        row = memory.store.get_node("belief", belief_id)  # re-read: a writer may have moved it
        if row is None or not row["history"] or row["status"] not in STATUS_ACTIONS:
            return None
        status, why = status_for(memory, row, now)
        if status == row["status"]:
            return None
        old = row["status"]
        row["status"] = status
        memory.store.upsert_belief({k: v for k, v in row.items() if k != "history"})  # the history stays as stored
        action = STATUS_ACTIONS[status]
        _audit(memory, now, action, belief_id, row["user_id"], actor, why, dict(old=old, new=status, confidence=row["confidence"]))
        return action


# --- maintain ----------------------------------------------------------------------------
def maintain(memory: Any, now: Any = None) -> dict[str, int]:
    """Apply the lifecycle rules once: bring back archived beliefs that got new evidence,
    set weak / invalidated / active, archive what has been idle too long. Idempotent,
    and safe beside writers in other processes (one short transaction per change).
    Returns how many of each action it took."""
    now = _now(memory, now)
    counts = dict(restore=_revive(memory, now), weaken=0, invalidate=0, reactivate=0, archive=0)
    for row in memory.store.find_beliefs(None):
        if not row["history"] or row["status"] not in STATUS_ACTIONS:
            continue
        if status_for(memory, row, now)[0] != row["status"]:  # cheap check before taking the write lock
            action = _update_status(memory, row["id"], now, "maintain")
            if action:
                counts[action] += 1
    counts["archive"] = _archive_idle(memory, now)
    return counts


def _restored_at(memory: Any) -> dict[str, str]:
    """When each belief was last restored: a restored belief gets a fresh idle period,
    or the next maintain would archive it again at once."""
    out: dict[str, str] = {}
    for a in memory.store.audit(action="restore"):
        if a["target"]:
            out[a["target"]] = max(out.get(a["target"], ""), a["at"])
    return out


def _idle(unit: list[dict], restored: dict[str, str], now: str, after_days: float) -> bool:
    return all(days_between(max(r["last_updated"], restored.get(r["id"], "")), now) >= after_days for r in unit)


def _archive_idle(memory: Any, now: str) -> int:
    after_days = _lc(memory, "archive_after_days")
    restored = _restored_at(memory)
    seen: set[str] = set()
    archived = 0
    for row in memory.store.find_beliefs(None):
        if row["id"] in seen or not row["history"]:
            continue
        unit = _unit(memory, memory.store, row)
        seen.update(r["id"] for r in unit)
        if _idle(unit, restored, now, after_days):
            archived += len(_archive_unit(memory, row["id"], now, "maintain", after_days, restored))
    return archived


def _revive(memory: Any, now: str) -> int:
    """Archived beliefs whose slot got new evidence since (a hot belief with the same id,
    or any hot value of the same single-valued slot) come back and merge with it."""
    with _cold(memory, create=False) as cold:
        if cold is None:
            return 0
        wanted = []
        for row in cold.all_rows("belief"):
            hot = memory.store.get_node("belief", row["id"], history=False) is not None or (
                memory.policy.is_functional(row["predicate"]) and memory.store.slot_beliefs(*_slot(row), history=False)
            )
            if hot:
                wanted.append(row["id"])
    restored: set[str] = set()
    for belief_id in wanted:
        if belief_id in restored:  # restoring one belief of a slot restores the slot
            continue
        try:
            restored.update(restore(memory, belief_id, now=now, actor="maintain", reason="new evidence arrived"))
        except NotFoundError:  # another process restored it first
            pass
    return len(restored)


# --- moving beliefs between the hot and the cold store ----------------------------------
@dataclass
class _Moved:
    belief_ids: list[str]
    evidence: dict[str, dict]  # every evidence row with an edge into the moved beliefs
    inserted: list[dict]  # those that the destination did not have yet
    claims: list[dict]  # the claims that link to the moved beliefs


def _claims_behind(memory: Any, store: SQLiteStore, beliefs: dict[str, dict], edges: list) -> list[dict]:
    """The stored claims behind the direct edges into ``beliefs``, matched by what they
    say (predicate, value, context group) and not by recomputing the belief id: that would
    follow alias merges made since, and lose the claims of a belief archived before one."""
    keys = {
        (e.src, b["predicate"], normalise_key(b["value"]), b["context_key"])
        for e in edges if not revision.is_derived(e.reason) and (b := beliefs.get(e.dst)) is not None
    }
    return [
        c for c in store.claims_for_evidence(sorted({k[0] for k in keys}))
        if (c["evidence_id"], c["predicate"], normalise_key(c["value"]), memory.context_group(c["context"])) in keys
    ]


def _copy(memory: Any, src: SQLiteStore, dst: Any, belief_ids: list[str]) -> _Moved:
    """Copy beliefs with everything that explains them from ``src`` into the memory ``dst``
    (inside the caller's transactions), then refold them there: if the destination already
    holds some of it (a belief that got new evidence while archived), the fold merges both."""
    d = dst.store
    beliefs = src.get_nodes("belief", belief_ids)
    belief_edges = src.edges_to(belief_ids, BELIEF_RELATIONS)
    own_edges = src.edges_from(belief_ids, [BELONGS_TO, CONTEXT_OF])
    ev_ids = sorted({e.src for e in belief_edges})
    evidence = src.get_nodes("evidence", ev_ids)
    ev_edges = src.edges_from(ev_ids, [OCCURRED_IN, CONTEXT_OF])
    claims = _claims_behind(memory, src, beliefs, belief_edges)
    contexts = {e.dst for e in own_edges + ev_edges if e.relation == CONTEXT_OF}
    frontier = list(contexts)
    context_rows: dict[str, dict] = {}
    while frontier:  # the parent contexts come along too (in any order: no foreign keys)
        rows = src.get_nodes("context", frontier)
        context_rows.update(rows)
        frontier = [r["parent"] for r in rows.values() if r["parent"] and r["parent"] not in context_rows]

    present = set(d.get_nodes("evidence", ev_ids))
    for row in src.get_nodes("entity", [b["subject_id"] for b in beliefs.values()]).values():
        d.insert_node("entity", row)
    for row in context_rows.values():
        d.insert_node("context", row)
    for row in src.get_nodes("event", [e.dst for e in ev_edges if e.relation == OCCURRED_IN]).values():
        d.insert_node("event", row)
    for eid in ev_ids:
        d.insert_node("evidence", evidence[eid])
    for c in claims:
        d.insert_claim(c)
    for row in beliefs.values():
        d.upsert_belief(row)
    for e in belief_edges + own_edges + ev_edges:
        d.put_edge(e)
    writing.recompute_slots(dst, (_slot(r) for r in beliefs.values()))
    return _Moved(list(beliefs), evidence, [evidence[e] for e in ev_ids if e not in present], claims)


def _remove(store: SQLiteStore, moved: _Moved) -> list[str]:
    """Delete moved beliefs from ``store``, with their edges and claims, and the evidence
    nothing there uses any more (no belief edge, no claim left). Returns that evidence."""
    contexts = {e.dst for e in store.edges_from(moved.belief_ids + list(moved.evidence), [CONTEXT_OF])}
    store.delete_edges_touching(moved.belief_ids)
    store.delete_nodes("belief", moved.belief_ids)
    store.delete_claims((c["evidence_id"], c["idx"]) for c in moved.claims)
    ev_ids = list(moved.evidence)
    used = {e.src for e in store.edges_from(ev_ids, BELIEF_RELATIONS)}
    used |= {c["evidence_id"] for c in store.claims_for_evidence(ev_ids)}
    gone = [e for e in ev_ids if e not in used]
    store.delete_edges_touching(gone)
    store.delete_nodes("evidence", gone)
    store.delete_orphan_events([moved.evidence[e]["event_id"] for e in gone])
    store.delete_orphan_contexts(sorted(contexts))  # a context name can be personal too
    return gone


def _archive_unit(
    memory: Any, belief_id: str, now: str, actor: str, after_days: float | None = None, restored: dict | None = None
) -> list[str]:
    """Move a belief's unit to cold storage. With ``after_days``, only if it is still
    idle when re-checked under the write lock (a writer may have just added evidence)."""
    with memory.store.transaction(), _cold(memory) as cold:
        row = memory.store.get_node("belief", belief_id)
        if row is None:
            return []
        unit = _unit(memory, memory.store, row)
        if after_days is not None and not _idle(unit, restored or {}, now, after_days):
            return []
        with cold.transaction():  # commits before the hot deletion below: copy, then delete
            moved = _copy(memory, memory.store, _as_memory(memory, cold), [r["id"] for r in unit])
        gone = _remove(memory.store, moved)
        for r in unit:
            why = f"no new evidence since {r['last_updated']}" + (f" ({after_days:g} days or more)" if after_days is not None else "")
            _audit(memory, now, "archive", r["id"], r["user_id"], actor, why,
                   dict(evidence_moved=len(gone), evidence_kept_hot=len(moved.evidence) - len(gone)))
    # After the commit, as observe writes vectors. A crash in between leaves stray
    # vectors (search skips vectors without evidence; validate() reports them).
    if memory.index is not None and gone:
        memory.index.delete(gone, row["user_id"])
    return moved.belief_ids


def archive(memory: Any, belief_id: str, *, now: Any = None, actor: str = "api") -> list[str]:
    """Archive a belief now, whatever its age (maintain archives idle ones by itself).
    Returns the ids moved: the whole slot for a single-valued predicate."""
    belief_id = check_id(belief_id, "belief_id")
    if memory.store.get_node("belief", belief_id, history=False) is None:
        raise NotFoundError(f"no hot belief {belief_id!r}")
    return _archive_unit(memory, belief_id, _now(memory, now), actor)


def restore(memory: Any, belief_id: str, *, now: Any = None, actor: str = "api", reason: str = "restored on request") -> list[str]:
    """Bring an archived belief (with its slot, for a single-valued predicate) back into
    the hot graph and the search: rows, edges and claims re-inserted, vectors re-embedded,
    beliefs refolded. Returns the ids restored."""
    belief_id = check_id(belief_id, "belief_id")
    now = _now(memory, now)
    with _cold(memory, create=False) as cold:
        row = cold.get_node("belief", belief_id) if cold is not None else None
        if row is None:
            raise NotFoundError(f"no archived belief {belief_id!r}")
        # Phase 1, hot transaction: copy in. Cold is only read, and cannot change meanwhile
        # because every cold write happens under the hot write lock we now hold.
        with memory.store.transaction():
            row = cold.get_node("belief", belief_id)
            if row is None:  # another process restored it just now
                return []
            moved = _copy(memory, cold, memory, [r["id"] for r in _unit(memory, cold, row)])
            for bid in moved.belief_ids:
                _audit(memory, now, "restore", bid, row["user_id"], actor, reason)
        # Phase 2: delete from cold, only if still hot (a racing archive may have moved it back).
        with memory.store.transaction(), cold.transaction():
            if set(memory.store.get_nodes("belief", moved.belief_ids, history=False)) == set(moved.belief_ids):
                _remove(cold, moved)
    if memory.index is not None and moved.inserted:
        memory.index.upsert(moved.inserted, memory.index.embed([e["text"] for e in moved.inserted]))
    return moved.belief_ids
