"""Known entity names and their vectors, per user, kept in the process.

Linking a new name compares it with the canonical entity names the user has. Embedding
those names again for each message made text ingestion fall off a cliff once a user knew
more names than the embedding cache holds (about 4,100): every message re-embedded all of
them. Here each name is embedded once per process and kept in a unit-vector matrix; the
store is asked only for the user's entity counts (canonical, merged), and the names are
re-read when they changed in a way this process did not do itself (a merge, an undo, a
forget, another writer). An entity this process creates is appended (``added``).

Past ``ANN_FROM`` names a user's names also go into an HNSW index (usearch): comparing a
name with every known one read the whole matrix per claim (about 4 ms at 25,000 names,
growing with the memory). The index proposes ``ANN_CANDIDATES`` names, which are then
scored exactly; below ``ANN_FROM`` every name is scored, as before.

``known_entities`` picks the names an extractor is offered for a message: the nearest ones,
and the aliases the message uses. ``hits_by_other_names`` asks search's question by the
other names of the entities it names.
"""

from __future__ import annotations

import functools
import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np

from .extract.text import CJK
from .ids import normalise_key, normalise_text

# Below this many names an exact product over all of them is as fast as an index query
# (measured here: 0.17 ms at 4,096 names, 4.2 ms at 25,000; a query 0.75 ms and an insert
# 0.8 ms at 25,000, with recall 1.0 of the 32 nearest on random 384-d vectors).
ANN_FROM = 16384
# Names the index proposes per query; linking needs only the best two above its threshold.
ANN_CANDIDATES = 32
# Rows of the name matrix per product. One product over a long-lived user's thousands of
# names crossed OpenBLAS's threshold for threading (~1,500 x 384 here): every call then woke
# worker threads, which on a busy two-core machine cost ~6 ms of CPU and wall time per claim
# linked, thirty times the product. Blocks this small stay on the calling thread.
_PRODUCT_ELEMENTS = 2**17
KNOWN_ENTITIES_SHOWN = 64  # names offered to an extractor for reuse
LATIN_LETTER = "[0-9A-Za-z\u00c0-\u024f]"
ALIAS_WORDS, ALIAS_CHARS = 4, 6  # the longest alias looked for: words, or Chinese characters
CJK_RUN = re.compile(f"[{CJK}]{{2,}}")


@dataclass
class _UserNames:
    count: tuple[int, int]
    names: list[str]  # row i of ``matrix`` and key i of ``ann``
    matrix: np.ndarray  # unit rows; rows past len(names) are spare capacity
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)  # added here, not embedded yet
    ann: Any = None

    @property
    def rows(self) -> np.ndarray:
        return self.matrix[: len(self.names)]


def _products(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """``matrix @ vector`` in blocks of rows that BLAS computes without threads."""
    rows = max(1, _PRODUCT_ELEMENTS // max(1, matrix.shape[1]))
    if matrix.shape[0] <= rows:
        return matrix @ vector
    return np.concatenate([matrix[i : i + rows] @ vector for i in range(0, matrix.shape[0], rows)])


def unit_vectors(memory: Any, texts: Sequence[str]) -> np.ndarray:
    vectors = np.asarray(memory.embed(list(texts)), dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def _new_ann(dim: int) -> Any:
    from usearch.index import Index  # only users past ANN_FROM names need it

    return Index(ndim=dim, metric="ip", dtype="f32", connectivity=16, expansion_add=64, expansion_search=64)


def _append(entry: _UserNames, names: list[str], vectors: np.ndarray) -> None:
    """Add rows (and index keys) for ``names``, growing the matrix by doubling."""
    start, end = len(entry.names), len(entry.names) + len(names)
    if end > entry.matrix.shape[0]:
        grown = np.zeros((max(end, 2 * entry.matrix.shape[0], 64), vectors.shape[1]), np.float32)
        if start:
            grown[:start] = entry.matrix[:start]
        entry.matrix = grown
    entry.matrix[start:end] = vectors
    entry.names.extend(names)
    entry.vectors.update(zip(names, vectors))
    if entry.ann is None and end >= ANN_FROM:
        entry.ann = _new_ann(vectors.shape[1])
        start = 0
    if entry.ann is not None:
        # One thread, in row order: the same names in the same order give the same graph.
        entry.ann.add(np.arange(start, end, dtype=np.uint64), entry.matrix[start:end], threads=1)


class NameIndex:
    """``names(user)`` and ``nearest(user, vector)`` over a user's canonical entity names."""

    def __init__(self, memory: Any) -> None:
        self._memory = memory
        self._users: dict[str, _UserNames] = {}
        self._held = threading.local()  # per thread: the users checked inside ``held()``

    @contextmanager
    def held(self) -> Iterator[None]:
        """Within it, each user's names are checked against the store once (in this thread).
        ``add_messages`` reads names for every message and claim of a batch and writes only
        after: asking the store each time (a count over the user's entities, which grows
        with them) could tell it only of another writer's entities, and those show from the
        next batch on, as they would had they been written a moment later."""
        if getattr(self._held, "users", None) is not None:  # nested: the outer one holds
            yield
            return
        self._held.users = set()
        try:
            yield
        finally:
            self._held.users = None

    def drop(self, user_id: str | None = None) -> None:
        """Forget what is kept for one user (after ``forget_user``), or for everyone."""
        if user_id is None:
            self._users.clear()
        else:
            self._users.pop(user_id, None)

    def added(self, user_id: str, name: str | None) -> None:
        """This process created an entity (``name`` None for the user's own): append it
        rather than re-read every name. Should the write not land (a rolled-back batch),
        the counts differ at the next check and the names are re-read."""
        entry = self._users.get(user_id)
        if entry is None:
            return
        entry.count = (entry.count[0] + 1, entry.count[1])
        if name is not None and name not in entry.vectors and name not in entry.pending:
            entry.pending.append(name)

    def _current(self, user_id: str) -> _UserNames:
        cached = self._users.get(user_id)
        held = getattr(self._held, "users", None)
        if held is not None and cached is not None and user_id in held:
            return cached
        if held is not None:
            held.add(user_id)
        count = self._memory.store.entity_counts(user_id)
        if cached is not None and cached.count == count:
            if cached.pending:
                pending, cached.pending = cached.pending, []
                if self._memory.index is not None:
                    _append(cached, pending, unit_vectors(self._memory, pending))
                else:
                    cached.names.extend(pending)
            return cached
        return self._reread(user_id, count, cached)

    def _reread(self, user_id: str, count: tuple[int, int], cached: _UserNames | None) -> _UserNames:
        names = self._memory.store.entity_names(user_id)
        known = dict(cached.vectors) if cached else {}
        new = [n for n in names if n not in known]
        if new and self._memory.index is not None:
            known.update(zip(new, unit_vectors(self._memory, new)))
        entry = _UserNames(count, [], np.zeros((0, 0), np.float32))
        if self._memory.index is None or not names:
            entry.names = list(names)
        else:
            _append(entry, list(names), np.stack([known[n] for n in names]))
        self._users[user_id] = entry
        return entry

    def names(self, user_id: str) -> list[str]:
        return list(self._current(user_id).names)

    def candidates(self, user_id: str, vector: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Known names that may be near the unit ``vector`` and their exact cosine
        similarities: every name below ``ANN_FROM``, else the index's nearest."""
        entry = self._current(user_id)
        if not entry.names or entry.matrix.shape[0] < len(entry.names):
            return [], np.zeros(0, np.float32)
        if entry.ann is None:
            return list(entry.names), _products(entry.rows, vector)
        found = entry.ann.search(vector, ANN_CANDIDATES, threads=1)
        rows = np.sort(np.asarray(found.keys, dtype=np.int64))
        return [entry.names[i] for i in rows], entry.matrix[rows] @ vector

    def nearest(self, user_id: str, vector: np.ndarray, k: int) -> list[str]:
        """The ``k`` known names most similar to ``vector``, best first (ties by name)."""
        names, sims = self.candidates(user_id, vector)
        if not names:
            return []
        k = min(k, len(names))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(names) else np.arange(len(names))
        return [names[i] for i in sorted(top, key=lambda i: (-float(sims[i]), names[i]))]


def known_entities(memory: Any, user_id: str, text: str) -> list[str]:
    """The user's entity names an extractor may reuse: the ones nearest the message (an
    LLM prompt cannot carry a long-lived user's tens of thousands of names), none for an
    extractor that reads names from the text alone (``uses_known_entities = False``); and
    for every extractor the aliases the message uses (``_aliases_used``)."""
    aliases = _aliases_used(memory, user_id, text)
    if not getattr(memory.extractor, "uses_known_entities", True):
        return aliases
    if memory.index is None:
        return memory.store.entity_names(user_id)[:KNOWN_ENTITIES_SHOWN] + aliases
    return memory.names.nearest(user_id, unit_vectors(memory, [text])[0], KNOWN_ENTITIES_SHOWN) + aliases


def _aliases_used(memory: Any, user_id: str, text: str) -> list[str]:
    """The user's aliases (other than an entity's own name) that the message uses, spelt as it
    does: "meg just got hired…" names Margaret (alias "Meg"), though a lower-case word is no
    name to the rules. An entity's own name is left to the rules, which read it from the text
    whether or not it is known: what they read must not depend on what came before."""
    used = []
    for alias, name in memory.store.aliases_among(user_id, alias_candidates(text)):
        if alias != normalise_key(name) and (said := alias_pattern(alias).search(text)):
            used.append(said.group())
    return used


@functools.lru_cache(maxsize=1024)  # pure; compiling one costs more than the search's look-up of it
def alias_pattern(key: str) -> re.Pattern[str]:
    """An alias key as the text may say it: a Latin alias as whole words ("al" is not in
    "also"), any spacing and case; Chinese has no spaces to keep."""
    return re.compile(rf"(?<!{LATIN_LETTER})" + r"\s+".join(map(re.escape, key.split())) + rf"(?!{LATIN_LETTER})",
                      re.IGNORECASE)


def alias_candidates(text: str) -> set[str]:
    """The keys an alias in ``text`` could have: runs of one to ``ALIAS_WORDS`` words, and
    Chinese runs of two to ``ALIAS_CHARS`` characters. Looked up by key, so the cost is the
    message's, not the number of names the user has: a scan of every alias row measured 0.1 ms
    a message at 400 rows (every entity has one), growing with the user; by key, 0.1 to 0.6 ms
    for a chat message and 20 ms for a 40 KB one, whatever the user has."""
    text = normalise_text(text)
    words = [w for w in (normalise_key(w) for w in text.split()) if w]
    keys = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(i + ALIAS_WORDS, len(words)) + 1)}
    for run in CJK_RUN.findall(text):
        keys.update(run[i:j] for i in range(len(run)) for j in range(i + 2, min(i + ALIAS_CHARS, len(run)) + 1))
    return keys - {""}


# Other names of an entity a question is asked by, each a query of its own (``asked_by_other_names``).
MAX_OTHER_NAMES = 4


def asked_by_other_names(memory: Any, user_id: str, query: str, reads: Any = None) -> list[str]:
    """The question asked by the other names of an entity it names: "What food is Sir Reginald
    Fluffington on?" is also asked as "What food is Reggie on?" when Reggie is his alias. What
    was said of him under one name is then as near the question as what was said under the
    other (a plain retriever misses it; so did search: the text naming him, however little it
    said, outranked the one that answered). None when no name it uses has another. ``reads``:
    a search's ``SearchReads``, which looks up every key of the question in one statement."""
    variants: list[str] = []
    normalised = normalise_text(query)  # what alias keys are made of (full-width letters folded, ...)
    for key, name, entity in _aliases_in(memory, user_id, alias_candidates(query), reads):
        if entity is None:
            continue
        aliases = reads.aliases_of(entity) if reads is not None else memory.store.aliases_of(entity)
        others = sorted(({normalise_key(name)} | set(aliases)) - {key})
        if not others:  # most names have none: no pattern to compile
            continue
        pattern = alias_pattern(key)
        said = query if pattern.search(query) else normalised
        if not pattern.search(said):
            continue
        for other in others:
            # every mention, capitalised where the question capitalised it ("Bobby" -> "Robert Hale")
            variants.append(pattern.sub(lambda m, other=other: other.title() if m.group()[:1].isupper() else other, said))
    return list(dict.fromkeys(variants))[:MAX_OTHER_NAMES]


def _aliases_in(memory: Any, user_id: str, keys: set[str], reads: Any) -> list[tuple[str, str, str | None]]:
    """(alias key, name of the entity it names, that entity's id) for those of ``keys`` that
    are the user's alias keys of an entity that exists, by key."""
    if reads is None:
        return [(key, name, memory.store.get_alias(user_id, key)) for key, name in memory.store.aliases_among(user_id, keys)]
    targets = reads.alias_targets(user_id, keys)
    rows = reads.entities(targets.values())  # read with the keys
    return sorted((key, rows[e]["name"], e) for key, e in targets.items() if e in rows)


def hits_by_other_names(memory: Any, user_id: str, query: str, hits: list[tuple[str, float]], top_k: int,
                        agent_id: str | None, as_of: str | None, reads: Any = None) -> list[tuple[str, float]]:
    """``hits`` merged with the nearest evidence of the question asked by the other names of
    the entities it names (``asked_by_other_names``): each evidence at its least distance,
    closest first, ties by id. The hits as they are when the question names no such entity."""
    variants = asked_by_other_names(memory, user_id, query, reads)
    if not variants:
        return hits
    best = dict(hits)
    for vector in memory.index.embed(variants):
        for eid, dist in memory.index.query(vector, user_id, top_k, agent_id=agent_id, as_of=as_of):
            best[eid] = min(dist, best.get(eid, dist))
    return sorted(best.items(), key=lambda h: (h[1], h[0]))[:top_k]
