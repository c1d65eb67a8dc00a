"""Reading the archive: archived beliefs as plain dicts, search over them (search consults
it when the hot tier has nothing to state), and the cold store's health. The moves
between the hot and the cold store are in ``lifecycle.py``."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from . import revision
from .checks import check_agent, check_count, check_query, require_user
from .lifecycle import BELIEF_RELATIONS, cold_memory, cold_store, visible_text
from .models import HIDDEN_TEXT
from .store_sqlite import SQLiteStore


def _archived_dict(cold: SQLiteStore, row: dict, agent_id: str | None) -> dict:
    edges = cold.edges_to([row["id"]], BELIEF_RELATIONS)
    evidence = cold.get_nodes("evidence", [e.src for e in edges])
    rows = sorted(evidence.values(), key=lambda e: (e["timestamp"], e["id"]))
    subject = cold.get_node("entity", row["subject_id"])
    direct = [evidence[e.src] for e in edges if e.src in evidence and not revision.is_derived(e.reason)]
    hidden = bool(direct) and all(visible_text(e, agent_id) == HIDDEN_TEXT for e in direct)
    return dict(
        belief_id=row["id"], user_id=row["user_id"], subject=subject["name"] if subject else row["subject_id"],
        predicate=row["predicate"], value=HIDDEN_TEXT if hidden else row["value"], contexts=row["contexts"],
        confidence=row["confidence"],
        last_updated=row["last_updated"], status=row["status"], archived=True,
        evidence_ids=[e["id"] for e in rows], evidence=[visible_text(e, agent_id) for e in rows],
    )


def archived_beliefs(memory: Any, user_id: str, *, agent_id: str | None = None) -> list[dict]:
    """One user's archived beliefs as plain dicts (strongest first), with their evidence
    texts as ``agent_id`` may see them (and no value that only other agents' private
    evidence claims)."""
    user_id = require_user(user_id)
    agent_id = check_agent(agent_id)
    with cold_store(memory, create=False) as cold:
        if cold is None:
            return []
        rows = cold.find_beliefs(user_id)
        hot = set(memory.store.get_nodes("belief", [r["id"] for r in rows], history=False))  # mid-restore: shown hot
        out = [_archived_dict(cold, r, agent_id) for r in rows if r["id"] not in hot]
    out.sort(key=lambda d: (-d["confidence"], d["belief_id"]))
    return out


_TOKEN = re.compile(r"[\u3400-\u9fff]|\w+")  # CJK characters one by one, other words whole


def _tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.casefold()))


def search_archived(memory: Any, query: str, *, user_id: str, top_k: int = 5, agent_id: str | None = None) -> list[dict]:
    """Archived beliefs of a user that match ``query``, best first, each with a ``score``:
    cosine similarity of the query to the belief's best text (its evidence, or
    "subject predicate value"), embedded now (cold evidence has no vectors); token
    overlap when the memory has no index. Texts hidden from ``agent_id`` are not matched."""
    query = check_query(memory, query)
    top_k = check_count(top_k, "top_k", int(memory.policy.section("limits").get("max_top_k", 1000)))
    items = archived_beliefs(memory, user_id, agent_id=agent_id)
    if not items:
        return []
    texts = [[t for t in d["evidence"] if t != HIDDEN_TEXT] + [f"{d['subject']} {d['predicate']} {d['value']}"] for d in items]
    if memory.index is not None:
        flat = [t for ts in texts for t in ts]
        vectors = np.asarray(memory.embed([query] + flat), dtype=float)  # cached: the archive rarely changes
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        sims = iter(vectors[1:] @ vectors[0])
        scores = [max(float(next(sims)) for _ in ts) for ts in texts]
    else:
        q = _tokens(query)
        scores = [max(len(q & _tokens(t)) / max(len(q), 1) for t in ts) for ts in texts]
    ranked = sorted((dict(d, score=s) for d, s in zip(items, scores) if s > 0), key=lambda d: (-d["score"], d["belief_id"]))
    return ranked[: max(0, top_k)]


def cold_problems(memory: Any) -> list[str]:
    """``validate()`` of the cold store (empty when healthy or when there is none)."""
    with cold_store(memory, create=False) as cold:
        return [] if cold is None else [f"cold: {p}" for p in cold_memory(memory, cold).validate()]
