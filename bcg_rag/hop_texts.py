"""What each hop of a multi-hop chain says (``hops.py``): the words of its statement with
the names in it masked, plus its predicate's and slot's words, and the statement's stored
vector. Loaded lazily, for the hops a chain reaches."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from .extract.splitting import clauses, sentences
from .hop_words import template, words
from .models import SUPPORTS
from .relevance import memory_lexicon

VECTOR_CACHE_SIZE = 20_000


def load_templates(memory: Any, hops: list, as_of: str | None, reads: Any = None) -> None:
    """Each hop's statement: of the evidence supporting its current value (at ``as_of``),
    the latest; its words with the subject's and the value's names masked. ``reads``: the
    search's ``SearchReads`` (the subjects' aliases, read together)."""
    todo = {h.row["id"]: h for h in hops if h.template is None}
    if not todo:
        return
    lexicon = memory_lexicon(memory)
    if reads is not None:
        reads.names(h.row["subject_id"] for h in todo.values())
    for h in todo.values():  # "Bobby got a job at Intel" says nothing new of Robert's by the name "Bobby"
        h.aliases = reads.aliases_of(h.row["subject_id"]) if reads is not None else memory.store.aliases_of(h.row["subject_id"])
    supporters: dict[str, list[str]] = {}
    for e in memory.store.edges_to(sorted(todo), [SUPPORTS]):
        if as_of is None or (e.valid_from or "") <= as_of:
            supporters.setdefault(e.dst, []).append(e.src)
    evidence = memory.store.get_nodes("evidence", sorted({e for es in supporters.values() for e in es}))
    for bid, h in todo.items():
        rows = [evidence[e] for e in supporters.get(bid, ()) if e in evidence]
        h.template = set()
        if rows:
            ev = max(rows, key=lambda r: (r["timestamp"], r["id"]))
            h.evidence_id = ev["id"]
            h.template = template(_stating(ev["text"], h.row["value"]), [h.subject, h.row["value"], *h.aliases])
        # The predicate is what the hop says even where the statement words it otherwise
        # ("Halcyon's HQ is in San Diego" is headquartered_in), and so are the words a
        # question asks for its slot with (the lexicon's [slots]: "which town" for located_in);
        # they tell apart hops that one message states together.
        predicate = h.row["predicate"]
        h.template |= words(" ".join([predicate.replace("_", " "), *lexicon.words("slots", predicate.removeprefix("attr:"))]))


def _stating(text: str, value: str) -> str:
    """The clauses of a message that name the value, else the whole message: in "我老公在青禾
    科技上班，他们总部在合肥" the employer's hop says 上班, not 总部 (the next hop's word). Of
    several, those where the value is no subject ("去了米境互动", not "米境总部在上海": that
    one is the next hop's statement about it)."""
    folded = value.casefold()
    said = [c for sentence in sentences(text) for c in clauses(sentence.text) if folded in c.casefold()]
    told = [c for c in said if not c.casefold().lstrip().startswith(folded)]
    return " ".join(told or said) or text


def load_vectors(memory: Any, user_id: str, hops: list) -> None:
    """The stored vectors of the hops' statements (unit length), remembered on the memory:
    evidence never changes, so neither does its vector."""
    cache: OrderedDict = memory.__dict__.setdefault("_hop_vectors", OrderedDict())
    todo = sorted({h.evidence_id for h in hops if h.vector is None and h.evidence_id and h.evidence_id not in cache})
    if todo and memory.index is not None:
        for eid, v in memory.index.vectors(user_id, todo).items():
            v = np.asarray(v, dtype=np.float32)
            cache[eid] = v / max(float(np.linalg.norm(v)), 1e-12)
        while len(cache) > VECTOR_CACHE_SIZE:
            cache.popitem(last=False)
    for h in hops:
        if h.vector is None and h.evidence_id in cache:
            h.vector = cache[h.evidence_id]


def prefix_similarity(path: list, q: np.ndarray) -> list[float]:
    """Similarity of the question to each prefix of the path: the mean of its statements'
    unit vectors stands for the text of the chain so far."""
    total = np.zeros_like(q)
    out = []
    for h in path:
        if h.vector is not None:
            total = total + h.vector
        out.append(float(q @ total) / max(float(np.linalg.norm(total)), 1e-12))
    return out
