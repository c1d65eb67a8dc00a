"""The baselines: what a plain retriever, and a few cheap rules on top of one, would answer.

All of them read the same statements, embedded by the same model, with the same top-k as
``bcg``, and only evidence dated at or before a question's ``as_of`` (filtered before the
top-k, which is the strongest way to use the date). The answer is one statement text.

- ``vector``: the top hit.
- ``recency``: the newest of the top k.
- ``recency2``: the newest of the top 2.
- ``restatement``: the newest of the top hit and the hits that restate it with one span
  changed (``bcg_rag.extract.restatement_diff``): "the capital of X is A" -> "... is B".
- ``llamaindex``: LlamaIndex's own pipeline: a ``VectorStoreIndex`` over a
  ``ChromaVectorStore`` collection of the same statements (same vectors, text and date
  metadata), its retriever (top k, ``as_of`` as a metadata filter), then its time-aware
  ``TimeWeightedPostprocessor``: score = similarity + (1 - time_decay) ** hours since the
  statement, at the question's clock (a statement dated after the clock counts as new).
  ``time_decay`` is set so that the time term halves every ``LLAMAINDEX_HALF_LIFE_DAYS``
  (90, the default policy's half-life, fixed so that the baseline does not move with our
  policy; LlamaIndex's per-hour default 0.99 gives every statement older than a day
  nothing). ``time_access_refresh`` is off: answering must not change later answers.
  (``FixedRecencyPostprocessor``, "newest of the top k", is ``recency`` and needs pandas.)

The first four come from one retrieval per question, timed once; each one's own step
(sorting, diffing) is added to its latency.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any, Callable

from ..errors import ConfigError
from ..extract import restatement_diff
from ..memory import BeliefMemory
from ..render import count_tokens
from ..search import search_evidence
from .cases import Question
from .systems import TOP_K, Answer, SharedEmbeddings

PLAIN_SYSTEMS = ("vector", "recency", "recency2", "restatement")
LLAMAINDEX_HALF_LIFE_DAYS = 90.0
BASELINES = PLAIN_SYSTEMS + ("llamaindex",)


def _newest(hits: list[dict]) -> dict:
    """The latest statement; between equal timestamps, the more relevant one."""
    return max(hits, key=lambda h: h["timestamp"])  # max keeps the first of equals


def _first(chosen: dict, hits: list[dict]) -> list[dict]:
    return [chosen] + [h for h in hits if h is not chosen]


def _restates(a: dict, b: dict) -> bool:
    older, newer = sorted((a, b), key=lambda h: h["timestamp"])
    return older["timestamp"] != newer["timestamp"] and restatement_diff(older["text"], newer["text"]) is not None


def _restatement(hits: list[dict]) -> list[dict]:
    family = [hits[0]] + [h for h in hits[1:] if _restates(hits[0], h)]
    return _first(_newest(family), hits)


RULES: dict[str, Callable[[list[dict]], list[dict]]] = {
    "vector": lambda hits: hits,
    "recency": lambda hits: _first(_newest(hits), hits),
    "recency2": lambda hits: _first(_newest(hits[:2]), hits),
    "restatement": _restatement,
}


def ask_plain(memory: BeliefMemory, q: Question, systems: list[str]) -> dict[str, Answer]:
    """One retrieval, then each rule. The tokens are what a plain retriever passes: the top k."""
    started = time.perf_counter()
    hits = search_evidence(memory, q.question, q.user_id, TOP_K, as_of=q.as_of)
    retrieval = time.perf_counter() - started
    tokens = count_tokens("\n\n".join(h["text"] for h in hits))
    out = {}
    for system in systems:
        started = time.perf_counter()
        ranked = RULES[system](hits) if hits else []
        latency = (retrieval + time.perf_counter() - started) * 1000
        texts = [h["text"] for h in ranked]
        out[system] = Answer(texts, None, texts[:1], tokens, latency)
    return out


def llamaindex_available() -> bool:
    import importlib.util

    try:
        return all(importlib.util.find_spec(m) is not None
                   for m in ("llama_index.core", "llama_index.vector_stores.chroma"))
    except ModuleNotFoundError:  # the llama_index namespace itself is missing
        return False


def _epoch(ts: str) -> float:
    return datetime.fromisoformat(ts).replace(tzinfo=timezone.utc).timestamp()


class LlamaIndexBaseline:
    """A LlamaIndex ``VectorStoreIndex`` over its own Chroma collection in the plain
    memory's Chroma client, holding the same statements with the same vectors."""

    def __init__(self, memory: BeliefMemory, embedder: SharedEmbeddings,
                 half_life_days: float = LLAMAINDEX_HALF_LIFE_DAYS):
        if not llamaindex_available():
            raise ConfigError("the llamaindex baseline needs llama-index-core and llama-index-vector-stores-chroma"
                              " (pip install 'bcg-rag[llama-index,dev]')")
        from llama_index.core import StorageContext, VectorStoreIndex
        from llama_index.core.schema import TextNode
        from llama_index.vector_stores.chroma import ChromaVectorStore

        from ..index import PrecomputedEmbeddings

        self.client = memory.index.client
        self.name = f"{memory.index.prefix}_llamaindex"
        collection = self.client.get_or_create_collection(
            self.name, embedding_function=PrecomputedEmbeddings(), configuration={"hnsw": {"space": "cosine"}})
        found = memory.store.get_nodes("evidence", memory.store.evidence_ids())
        rows = sorted(found.values(), key=lambda r: (r["timestamp"], r["id"]))
        nodes = [
            TextNode(id_=r["id"], text=r["text"], embedding=vector,
                     metadata={"date": r["timestamp"], "ts": _epoch(r["timestamp"]), "user_id": r["user_id"]})
            for r, vector in zip(rows, embedder.embed([r["text"] for r in rows]))
        ]
        self.embedder = embedder
        self.index = VectorStoreIndex(
            nodes, storage_context=StorageContext.from_defaults(vector_store=ChromaVectorStore(chroma_collection=collection)),
            embed_model=_llama_embedding(embedder),
        )
        # (1 - time_decay) ** hours halves every half-life.
        self.time_decay = 1.0 - 0.5 ** (1.0 / (half_life_days * 24.0))

    def ask(self, q: Question, now: str) -> Answer:
        from llama_index.core.postprocessor import TimeWeightedPostprocessor
        from llama_index.core.schema import QueryBundle
        from llama_index.core.vector_stores.types import FilterOperator, MetadataFilter, MetadataFilters

        bundle = QueryBundle(q.question, embedding=self.embedder.embed([q.question])[0])
        started = time.perf_counter()
        filters = [MetadataFilter(key="user_id", value=q.user_id, operator=FilterOperator.EQ)]
        if q.as_of:
            filters.append(MetadataFilter(key="ts", value=_epoch(q.as_of), operator=FilterOperator.LTE))
        retriever = self.index.as_retriever(similarity_top_k=TOP_K, filters=MetadataFilters(filters=filters))
        nodes = retriever.retrieve(bundle)
        clock = _epoch(now)
        for n in nodes:  # the key TimeWeightedPostprocessor reads, set on the retrieved copies only; a
            # statement dated after the clock counts as new (the formula would grow without bound)
            n.node.metadata["last_accessed"] = min(n.node.metadata["ts"], clock)
        ranked = TimeWeightedPostprocessor(
            time_decay=self.time_decay, last_accessed_key="last_accessed", time_access_refresh=False,
            now=clock, top_k=TOP_K,
        ).postprocess_nodes(nodes, bundle)
        latency = (time.perf_counter() - started) * 1000
        texts = [n.node.get_content() for n in ranked]
        return Answer(texts, None, texts[:1], count_tokens("\n\n".join(texts)), latency)

    def close(self) -> None:
        try:
            self.client.delete_collection(self.name)
        except Exception:  # already gone with its client
            pass


def _llama_embedding(embedder: SharedEmbeddings) -> Any:
    """The run's embedder behind LlamaIndex's interface (queries come pre-embedded anyway)."""
    from llama_index.core.embeddings import BaseEmbedding

    class Shared(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return embedder.embed([query])[0]

        def _get_text_embedding(self, text: str) -> list[float]:
            return embedder.embed([text])[0]

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return embedder.embed(list(texts))

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

    return Shared(model_name=embedder.name)
