"""The chains of a multi-hop answer (``hops.py``): how far along a path of current values
a question asks to go (``decide``) and which of a start's chains wins (``best``). Pure
functions over the hops' statement words and unit vectors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .hop_texts import prefix_similarity
from .hop_words import words


@dataclass
class Hop:
    """One current value followed: the group (search's ranked tuple), its current row, the
    evidence that states it (text words with names masked, unit vector)."""

    group: tuple
    row: dict
    template: set[str] | None  # None: not loaded yet
    vector: np.ndarray | None
    subject: str
    evidence_id: str | None = None
    aliases: list[str] = field(default_factory=list)  # the subject's other names (with the template)


@dataclass
class Chain:
    hops: list[Hop]
    end: int = 0  # index of the hop that answers
    relevance: float | None = None  # similarity of the question to the chain up to ``end`` (when needed)
    cue: int = 0  # question words explained by the hops up to ``end``
    asked: list[bool] = field(default_factory=list)


def slot_key(row: dict) -> tuple:
    return (row["subject_id"], row["predicate"], row["context_key"])


def decide(path: list[Hop], question: set[str], q: np.ndarray, vectors: Callable[[list[Hop]], None],
            min_gain: float) -> Chain:
    """How far along ``path`` the question asks to go: to its deepest asked hop. A hop is
    asked for by a question word that its statement brings and no earlier one has; past
    the deepest such hop (when it is not the start), by bringing the chain's mean vector
    closer to the question, hop after hop (vectors are loaded only then). The names of the
    chain's entities count as seen from the start."""
    chain = Chain(path)
    # A name is no cue: the statement of a later hop often names an earlier hop's entity
    # unmasked ("Ana just moved to Lyon, France" for "Lyon located_in France").
    names = set().union(*(words(n) for h in path for n in (h.subject, h.row["value"], *h.aliases)))
    seen: set[str] = set(path[0].template or ()) | names
    covered = [len(question & seen)]
    chain.asked = [True]
    for h in path[1:]:
        cue = (question & (h.template or set())) - seen
        seen |= h.template or set()
        covered.append(len(question & seen))
        chain.asked.append(bool(cue))
    deepest = max(k for k, a in enumerate(chain.asked) if a)
    if 0 < deepest < len(path) - 1:  # a multi-hop question by its words: may it go further?
        vectors(path)
        prefix = prefix_similarity(path, q)
        for k in range(deepest + 1, len(path)):  # each one closer than the chain before it
            if prefix[k] <= prefix[k - 1] + min_gain:
                break
            chain.asked[k] = True
        chain.relevance = prefix[max(k for k, a in enumerate(chain.asked) if a)]
    chain.end = max(k for k, a in enumerate(chain.asked) if a)
    chain.cue = covered[chain.end]
    return chain


def best(decided: list[Chain], q: np.ndarray, vectors: Callable[[list[Hop]], None]) -> Chain:
    """The chain that explains most of the question's words (then the longest); among
    equals (two slots of one entity that the question's words fit alike: "located" in
    a question about a capital), the one whose statements are closest to the question."""
    top = max((c.cue, c.end) for c in decided)
    tied, seen = [], set()
    for c in decided:  # paths that agree up to their answer are one chain
        prefix = tuple(slot_key(h.row) for h in c.hops[: c.end + 1])
        if (c.cue, c.end) == top and prefix not in seen:
            seen.add(prefix)
            tied.append(c)
    if top[1] > 0 and len(tied) > 1:
        for c in tied:
            if c.relevance is None:
                vectors(c.hops)
                c.relevance = prefix_similarity(c.hops, q)[c.end]
        return max(tied, key=lambda c: c.relevance)  # the first of equals: paths come in a fixed order
    return tied[0]
