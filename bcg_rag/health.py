"""Health and export: ``validate`` finds every inconsistency we can detect (the store's
own integrity checks, beliefs that no longer match the fold of their evidence, the
vector index, the cold store); ``to_networkx`` hands the graph to networkx."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import networkx as nx

from . import lifecycle, revision
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
    if memory.index is not None:
        problems += memory.index.problems(memory)
    problems += lifecycle.cold_problems(memory)
    return problems


def to_networkx(memory: "BeliefMemory", user_id: str | None = None) -> nx.MultiDiGraph:
    """The belief context graph (or one user's part of it) as a networkx MultiDiGraph."""
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
