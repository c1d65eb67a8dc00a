"""A search answer's shape: the ``BeliefGroup`` of one slot (its current value, the other
values with their status, the evidence for and against each), and the ``SearchResult``
list of groups plus the raw evidence no belief answers. ``make_group`` builds a group
from a slot's beliefs; ``search.py`` decides which slots and in what order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import revision
from .models import REFUTES, SUPPORTS, Belief
from .timeutil import days_between
from .views import evidence_entry


@dataclass
class BeliefGroup:
    """One question the memory can answer (subject + predicate + context group)."""

    subject: str
    predicate: str
    context_key: str
    contexts: list[str]
    current: Belief | None  # the value to state, or None when nothing may be asserted
    best: Belief  # the strongest belief: the current one, or the one shown as uncertain
    band: str  # band of the best belief
    score: float
    relevance: float
    supporters: list[dict] = field(default_factory=list)  # of the best belief
    refuters: list[dict] = field(default_factory=list)
    alternatives: list[dict] = field(default_factory=list)  # the other values, strongest first
    via: list[dict] = field(default_factory=list)  # the current beliefs that lead here (multi-hop)
    age_days: float | None = None  # days since the best belief was last confirmed, at the search's clock
    archived: bool = False  # found in cold storage because the hot tier had nothing to state
    functional: bool = False  # a single-valued slot: one current value, the others outdated or in conflict
    predicate_fit: float | None = None  # how near the predicate is to what the query asks (relevance.predicate_similarity)
    # whether the slot holds the kind of answer the query's words ask for (asked.answer_kind:
    # a place, an organisation, a job, a pet, a breed); None when they ask for no particular kind
    of_asked_kind: bool | None = None
    # the value as its newest supporting quote words it, when that is another language's word
    # for the lexicon's value ("绿茶" for "green tea"): what to answer a question in that language
    said: str | None = None

    def to_dict(self) -> dict:
        return dict(
            subject=self.subject, predicate=self.predicate, context_key=self.context_key, contexts=self.contexts,
            current=self.current.to_dict() if self.current else None, best=self.best.to_dict(), band=self.band,
            score=self.score, relevance=self.relevance, supporters=self.supporters, refuters=self.refuters,
            alternatives=self.alternatives, via=self.via, age_days=self.age_days, archived=self.archived,
            functional=self.functional, predicate_fit=self.predicate_fit, of_asked_kind=self.of_asked_kind,
            said=self.said,
        )


class SearchResult(list):
    """The belief groups that answer a query, best first (a plain list of ``BeliefGroup``),
    plus the raw evidence that no belief answers: ``unstructured`` rows (evidence dicts
    with ``relevance``), newest first, so the LLM always sees at least what a vector
    retriever would give it. ``unstructured_first`` is True when that raw evidence is
    more relevant than the best group and must be read first."""

    def __init__(self, groups=(), unstructured=(), unstructured_first: bool = False):
        super().__init__(groups)
        self.unstructured: list[dict] = list(unstructured)
        self.unstructured_first = unstructured_first


def evidence_entries(memory: Any, beliefs: list[Belief], agent_id: str | None, reads: Any = None) -> dict[str, list[dict]]:
    """Per belief, the evidence entries of the edges its (replayed) history counted,
    oldest first, as ``memory.explain`` lists them; two queries for all beliefs. An entry
    of a conflict (evidence that did not move the belief) carries its ``conflict:`` reason.
    ``reads``: a search's ``SearchReads``, which reads the evidence rows."""
    counted = {b.id: {h.evidence_id: h.reason for h in b.history} for b in beliefs}
    # Each belief's own (evidence, belief) pairs: a belief's history may be its newest entries
    # only (SHOWN_HISTORY), and its older edges are not read; nor are the refutations each
    # evidence of a busy single-valued slot sent to every other value (900 rows a search at
    # 20,000 messages, most of its time).
    pairs = [(e, bid) for bid, c in counted.items() for e in c if e]
    edges = memory.store.edges_between(pairs, [SUPPORTS, REFUTES])
    srcs = [e.src for e in edges]
    evidence = reads.evidence(srcs) if reads is not None else memory.store.get_nodes("evidence", srcs)
    out: dict[str, list[dict]] = {b.id: [] for b in beliefs}
    for e in edges:
        if e.src not in evidence:  # deleted by a concurrent forget between the two reads; its edge goes too
            continue
        entry = evidence_entry(e, evidence[e.src], agent_id)
        if revision.is_conflict(counted[e.dst][e.src]):
            entry["reason"] = counted[e.dst][e.src]
        out[e.dst].append(entry)
    for items in out.values():
        items.sort(key=lambda x: (x["timestamp"], x["evidence_id"]))
    return out


def make_group(memory: Any, beliefs: list[Belief], contexts: list[str], score: float, rel: float,
               entries: dict[str, list[dict]], clock: str, *, archived: bool = False) -> BeliefGroup:
    """A group from a slot's beliefs, the one to state first first (see ``_order``).
    Every other value gets a ``status``: ``also`` (a many-valued slot's other value that
    holds), ``outdated`` (refuted or superseded by evidence), ``conflict`` (a value only a
    weaker source or a hedge claims, or one the current value outweighs)."""
    best = beliefs[0]
    functional = memory.policy.is_functional(best.predicate)
    current = best if memory.asserted(best) else None
    alternatives = []
    for b in beliefs[1:]:
        asserted = memory.asserted(b)
        refuted_by = [e for e in entries.get(b.id, []) if e["relation"] == REFUTES]
        moved = [e for e in refuted_by if not revision.is_conflict(e["reason"])]
        if asserted and not functional:
            status = "also"
        elif moved and not asserted:
            status = "outdated"
        else:  # still supported, but the current value outweighs it, or only weakly claimed
            status = "conflict"
        alternatives.append(
            dict(
                belief_id=b.id, value=b.value, confidence=b.confidence, effective_confidence=b.effective_confidence,
                band=b.band, last_updated=b.last_updated, contexts=b.contexts, asserted=asserted and not functional,
                status=status, outdated=status == "outdated", refuted_by=refuted_by,
                supporters=[e for e in entries.get(b.id, []) if e["relation"] == SUPPORTS],
            )
        )
    return BeliefGroup(
        subject=best.subject, predicate=best.predicate, context_key=best.context_key, contexts=contexts,
        current=current, best=best, band=best.band, score=score, relevance=rel,
        supporters=[e for e in entries.get(best.id, []) if e["relation"] == SUPPORTS],
        refuters=[e for e in entries.get(best.id, []) if e["relation"] == REFUTES], alternatives=alternatives,
        age_days=max(0.0, days_between(best.last_updated, clock)), archived=archived, functional=functional,
    )


def held_in(memory: Any, context: str | None, contexts: list[str], context_key: str) -> bool:
    """A slot (its contexts and context group) is held in the asked ``context``."""
    return bool(context) and (context in contexts or memory.context_group(context) == context_key)


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def add_said_forms(groups: list[BeliefGroup], surfaces: dict[str, list[str]]) -> None:
    """Set ``said`` on the groups whose current value the lexicon names in another language
    (``surfaces``: value -> its words, longest first) and whose newest supporter says it so."""
    for g in groups:
        if g.current is None or not g.supporters:
            continue
        value = str(g.current.value)
        text = max(g.supporters, key=lambda e: str(e.get("timestamp", "")))["text"]
        g.said = next((w for w in surfaces.get(value.casefold(), ()) if _cjk(w) != _cjk(value) and w in text), None)

