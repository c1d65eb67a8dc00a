"""Health and export: ``validate`` finds every inconsistency we can detect (the store's
own integrity checks, beliefs that no longer match the fold of their evidence, the
vector index, the cold store); ``to_networkx`` hands the graph to networkx."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import networkx as nx

from . import archive, revision
from .checks import require_user
from .ids import normalise_key
from .views import BELIEF_RELATIONS

if TYPE_CHECKING:
    from .memory import BeliefMemory


def validate(memory: "BeliefMemory") -> list[str]:
    """Every inconsistency we can find; empty when the memory is healthy."""
    problems: list[str] = []
    s = memory.store
    problems += s.integrity_problems()
    rules = revision.Rules.from_policy(memory.policy)
    for row in s.all_rows("belief"):
        events = [revision.edge_event(e) for e in s.edges_to([row["id"]], BELIEF_RELATIONS)]
        history = [h.__dict__ for h in revision.fold(events, memory.policy.initial_confidence, rules)]
        if not history:
            problems.append(f"belief {row['id']} has no evidence")
        elif _differs(history, row["history"]) or abs(history[-1]["new"] - row["confidence"]) > 1e-9:
            problems.append(
                f"belief {row['id']} stored confidence {row['confidence']:+.4f} does not match its evidence"
                f" ({history[-1]['new']:+.4f})"
            )
    problems += linking_problems(memory)
    if memory.index is not None:
        problems += memory.index.problems(memory)
    problems += archive.cold_problems(memory)
    return problems


def linking_problems(memory: "BeliefMemory") -> list[str]:
    """Claims and belief edges that do not match: a stored claim with no direct edge from
    its evidence to a belief of its predicate, value and context group (its linking did
    not happen, or was cut), and a direct edge that no claim of its evidence makes.
    Matched by what they say, not by recomputing belief ids: a cold store keeps no aliases."""
    s = memory.store
    beliefs = {r["id"]: r for r in s.all_rows("belief")}
    edges: set[tuple] = set()
    for e in s.all_edges():
        if e.relation in BELIEF_RELATIONS and not revision.is_derived(e.reason) and e.dst in beliefs:
            b = beliefs[e.dst]
            edges.add((e.src, b["predicate"], normalise_key(b["value"]), b["context_key"], e.relation))
    claimed: set[tuple] = set()
    problems = []
    for c in _all_claims(memory):
        key = (c["evidence_id"], c["predicate"], normalise_key(c["value"]), memory.context_group(c["context"]),
               revision.relation_for(c["stance"]))
        claimed.add(key)
        if key not in edges:
            problems.append(
                f"claim {c['evidence_id']}#{c['idx']} ({c['predicate']} = {c['value']!r}) is not linked to a belief"
            )
    for key in sorted(edges - claimed):
        problems.append(f"{key[4]} edge {key[0]} -> {key[1]} = {key[2]!r} has no claim behind it")
    return problems


def _all_claims(memory: "BeliefMemory") -> list[dict]:
    return [c for user in memory.store.users() for c in memory.store.claims_for_user(user)]


def to_networkx(memory: "BeliefMemory", user_id: str | None = None) -> nx.MultiDiGraph:
    """The belief context graph (or one user's part of it) as a networkx MultiDiGraph."""
    user_id = None if user_id is None else require_user(user_id)
    g = nx.MultiDiGraph()
    kinds = ("entity", "event", "context", "evidence", "belief")
    for kind in kinds:
        for row in memory.store.all_rows(kind):
            if user_id is not None and "user_id" in row and row["user_id"] != user_id:
                continue
            attrs = {k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v) for k, v in row.items() if k != "id"}
            g.add_node(row["id"], kind=kind, **{k: v for k, v in attrs.items() if v is not None})
    for e in memory.store.all_edges():
        if e.src in g and e.dst in g:
            attrs = {k: v for k, v in e.__dict__.items() if k not in ("src", "dst") and v is not None}
            g.add_edge(e.src, e.dst, key=e.relation, **attrs)
    if user_id is not None:  # contexts and events only where this user's nodes touch them
        g.remove_nodes_from([n for n, d in list(g.nodes(data=True)) if d["kind"] in ("context", "event") and g.degree(n) == 0])
    return g


def _differs(a: list[dict], b: list[dict]) -> bool:
    if len(a) != len(b):
        return True
    return any(abs(x["new"] - y["new"]) > 1e-9 or x["evidence_id"] != y["evidence_id"] for x, y in zip(a, b))
