"""Search: from a query to the beliefs that answer it, with their evidence.

Plain functions over a ``BeliefMemory`` (no framework), in five steps:

1. embed the query (one call) and take the ``candidates`` nearest evidence of the
   user from the index (only evidence with timestamp <= ``as_of`` when given);
2. follow their SUPPORTS / REFUTES edges to beliefs (indexed lookups);
3. add each belief's competitors: same user, subject, predicate and context group;
4. group them by (subject, predicate, context group) and rank inside a group by
   effective confidence at ``now`` (decayed) or ``as_of`` (replayed), as
   ``memory.view`` computes it;
5. rank the groups by

       relevance = max over the group's candidate evidence of (1 - cosine distance)
       score     = relevance * (0.5 + 0.5 * max(best effective confidence, 0))
                   + context_bonus   (if the query's context is one of the group's)

   so a doubtful belief ranks below an equally relevant, well-supported one, while
   confidence can at most halve a score: a group twice as relevant as another
   always ranks above it (context bonus aside).

The current value of a group is its best belief when the memory would assert it,
else None. Cost grows with ``candidates`` and the size of the touched slots, not
with the size of the memory: full views and evidence are loaded for the returned
groups only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from . import revision
from .views import evidence_entry
from .errors import InvalidInputError, MissingUserError
from .models import HIDDEN_TEXT, REFUTES, SUPPORTS, Belief
from .timeutil import parse_timestamp



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

    def to_dict(self) -> dict:
        return dict(
            subject=self.subject, predicate=self.predicate, context_key=self.context_key, contexts=self.contexts,
            current=self.current.to_dict() if self.current else None, best=self.best.to_dict(), band=self.band,
            score=self.score, relevance=self.relevance, supporters=self.supporters, refuters=self.refuters,
            alternatives=self.alternatives, via=self.via, age_days=self.age_days, archived=self.archived,
            functional=self.functional,
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


def search(
    memory: Any,
    query: str,
    *,
    user_id: str,
    agent_id: str | None = None,
    context: str | None = None,
    as_of: Any = None,
    now: Any = None,
    top_k: int = 5,
    candidates: int | None = None,
) -> list[BeliefGroup]:
    """The ``top_k`` belief groups that best answer ``query`` for one user (see module doc)."""
    user_id = _check(user_id, query)
    settings = memory.policy.section("search")
    candidates = int(candidates if candidates is not None else settings.get("candidates", 30))
    bonus = float(settings.get("context_bonus", 0.25))
    as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
    # One "now" for every view and explanation, so decay is the same across the answer.
    now = parse_timestamp(now, "now") if now is not None else (None if as_of else memory.clock())

    hits = _nearest(memory, query, user_id, candidates, agent_id, as_of)
    if not hits:
        return []
    relevance = {eid: 1.0 - dist for eid, dist in hits}

    # Beliefs the candidate evidence speaks to, and how relevant each one's evidence is.
    belief_relevance: dict[str, float] = {}
    belief_evidence: dict[str, set[str]] = {}
    for e in memory.store.edges_from(list(relevance), [SUPPORTS, REFUTES]):
        if as_of is None or (e.valid_from or "") <= as_of:
            belief_relevance[e.dst] = max(belief_relevance.get(e.dst, -1.0), relevance[e.src])
            belief_evidence.setdefault(e.dst, set()).add(e.src)
    # Whole slots: the competing values decide what is current. Ranking needs only
    # each belief's last state; full rows, views and evidence are loaded for the
    # returned groups only, so the work stays proportional to the candidates.
    slots = _slot_rows(memory, user_id, list(belief_relevance))
    if as_of is not None:  # replaying needs the histories
        full = memory.store.get_nodes("belief", [r["id"] for rows in slots.values() for r in rows])
        slots = {k: [full[r["id"]] for r in rows] for k, rows in slots.items()}

    ranked = []
    for slot_rows in slots.values():
        scored = sorted(
            ((eff, r) for r in slot_rows if (eff := _effective(memory, r, as_of, now)) is not None),
            key=lambda x: (-x[0], x[1]["id"]),
        )
        if not scored:
            continue
        best_eff, best = scored[0]
        rel = max(belief_relevance.get(r["id"], -1.0) for _, r in scored)
        contexts = sorted({c for _, r in scored for c in r["contexts"]})
        in_context = bool(context) and (context in contexts or memory.context_group(context) == best["context_key"])
        score = rel * (0.5 + 0.5 * max(best_eff, 0.0)) + (bonus if in_context else 0.0)
        ranked.append((score, rel, [r for _, r in scored], contexts))
    ranked.sort(key=lambda g: (-g[0], g[2][0]["id"]))
    ranked, via = _follow_links(
        memory, ranked, user_id, float(settings.get("hop_relevance", 0.5)),
        lambda row: _asserted(memory, row, as_of, now), _HopCue(memory, query, belief_evidence),
    )
    chosen = ranked[: max(0, top_k)]

    full = memory.store.get_nodes("belief", [r["id"] for _, _, slot_rows, _ in chosen for r in slot_rows])
    views = {i: memory.view(row, as_of=as_of, now=now) for i, row in full.items()}
    entries = _evidence_entries(memory, [v for v in views.values() if v is not None], agent_id)
    groups = []
    for score, rel, slot_rows, contexts in chosen:
        beliefs = [views[r["id"]] for r in slot_rows if views[r["id"]] is not None]
        groups.append(_group(memory, beliefs, contexts, score, rel, entries))
        groups[-1].via = via.get(slot_rows[0]["id"], [])
    return groups


def _asserted(memory: Any, row: dict, as_of: str | None, now: str) -> bool:
    eff = _effective(memory, row, as_of, now)
    return eff is not None and memory.asserted(SimpleNamespace(effective_confidence=eff, status=row["status"]))


class _HopCue:
    """Does the query ask for the second hop? Only if it shares a word with the second
    group's evidence that neither the first group's evidence nor the second's own subject
    and value explain: "the *headquarters* of Maria's employer" against "The headquarters
    of Bosch is in Stuttgart" and "Maria works at Bosch"; "the citizenship of Modi" has no
    such word against "The capital of Australia is Oderzo". Words: Latin words of three
    letters or more minus a few function words; CJK character bigrams."""

    STOP = frozenset("the and for with what which who whom whose where when how are was were is does did has have "
                     "had this that from into about your you his her their its not now".split())

    def __init__(self, memory: Any, query: str, belief_evidence: dict[str, set[str]]):
        self.memory, self.query = memory, self.words(query)
        self.belief_evidence = belief_evidence
        self._texts: dict[str, dict] | None = None  # loaded only when a link needs checking

    @classmethod
    def words(cls, text: str) -> set[str]:
        text = text.casefold()
        latin = {w for w in re.findall(r"[a-z0-9]{3,}", text) if w not in cls.STOP}
        cjk = {a + b for run in re.findall(r"[\u3400-\u9fff]+", text) for a, b in zip(run, run[1:])}
        return latin | cjk

    def _evidence_words(self, rows: list[dict]) -> set[str]:
        if self._texts is None:
            ids = sorted({e for ids in self.belief_evidence.values() for e in ids})
            self._texts = self.memory.store.get_nodes("evidence", ids)
        out: set[str] = set()
        for r in rows:
            for eid in self.belief_evidence.get(r["id"], ()):
                if eid in self._texts:
                    out |= self.words(self._texts[eid]["text"])
        return out

    def __call__(self, first: list[dict], second: list[dict]) -> bool:
        own = self.words(second[0]["value"]) | self.words(_subject_name(self.memory, second[0]["subject_id"]))
        new_words = self._evidence_words(second) - self._evidence_words(first) - own
        return bool(self.query & new_words)


def _follow_links(memory: Any, ranked: list, user_id: str, hop_relevance: float, asserted, asks_for_hop) -> tuple[list, dict]:
    """Multi-hop questions ("the headquarters of Maria's employer"). When the current value
    of one group names the subject of another retrieved group (Maria works_at Bosch;
    Bosch headquarters Stuttgart), that second group is itself relevant to the query (at
    least ``hop_relevance`` x the first one's relevance) and the query asks for it (see
    ``_HopCue``), the second answers the query through the first: it moves just above
    it, and ``via`` records the link.
    Groups reached only through an outdated value (Siemens, Maria's former employer)
    move below all others. Plain graph arithmetic over what was retrieved."""
    by_subject: dict[str, list[int]] = {}
    for i, (_, _, rows, _) in enumerate(ranked):
        by_subject.setdefault(rows[0]["subject_id"], []).append(i)

    def groups_about(value: str) -> list[int]:
        return by_subject.get(memory.resolve_entity(user_id, value) or "", [])

    links: dict[int, int] = {}  # group -> the group whose current value names its subject
    stale: set[int] = set()
    for i, (_, rel, rows, _) in enumerate(ranked):
        if asserted(rows[0]):
            for j in groups_about(rows[0]["value"]):
                if (j != i and j not in links and asserted(ranked[j][2][0]) and ranked[j][1] >= hop_relevance * rel
                        and asks_for_hop(rows, ranked[j][2])):
                    links[j] = i
        for other in rows[1:]:
            if not asserted(other):
                stale.update(groups_about(other["value"]))
    if not links and not stale:
        return ranked, {}

    def chain(i: int) -> list[int]:  # i, its parent, its grandparent... (cycle-safe)
        out = [i]
        while out[-1] in links and links[out[-1]] not in out:
            out.append(links[out[-1]])
        return out

    # Each chain's deepest end takes the place of the chain's head.
    placed_before: dict[int, list[int]] = {}
    for i in sorted(links, key=lambda i: -len(chain(i))):
        head = chain(i)[-1]
        placed_before.setdefault(head, []).append(i)
    order = []
    for i in range(len(ranked)):
        if i not in links:
            order += placed_before.get(i, []) + [i]
    order = [i for i in order if i not in stale or i in links] + [i for i in order if i in stale and i not in links]
    via = {
        ranked[i][2][0]["id"]: [
            dict(belief_id=ranked[p][2][0]["id"], predicate=ranked[p][2][0]["predicate"], value=ranked[p][2][0]["value"],
                 subject=_subject_name(memory, ranked[p][2][0]["subject_id"]))
            for p in reversed(chain(i)[1:])
        ]
        for i in links
    }
    return [ranked[i] for i in order], via


def _subject_name(memory: Any, subject_id: str) -> str:
    row = memory.store.get_node("entity", subject_id)
    return row["name"] if row else subject_id


def _effective(memory: Any, row: dict, as_of: str | None, now: str) -> float | None:
    """A belief's effective confidence, as ``memory.view`` computes it. Without
    ``as_of`` the row's stored confidence is the last state and is only decayed here."""
    if as_of is not None:
        view = memory.view(row, as_of=as_of, now=now)
        return view.effective_confidence if view is not None else None
    return revision.decay(row["confidence"], row["last_updated"], now, memory.policy.half_life_days(row["predicate"]))


def _slot_rows(memory: Any, user_id: str, belief_ids: list[str]) -> dict[tuple, list[dict]]:
    """Every belief sharing a slot with one of ``belief_ids`` (the storage interface's
    ``slot_rows``), keyed by (subject, predicate, context group)."""
    out: dict[tuple, list[dict]] = {}
    for (owner, subject_id, predicate, context_key), rows in memory.store.slot_rows(belief_ids).items():
        if owner == user_id:  # cannot differ (the ids come from this user's evidence); never leak
            out[(subject_id, predicate, context_key)] = rows
    return out


def _evidence_entries(memory: Any, beliefs: list[Belief], agent_id: str | None) -> dict[str, list[dict]]:
    """Per belief, the evidence entries of the edges its (replayed) history counted,
    oldest first, as ``memory.explain`` lists them; two queries for all beliefs."""
    counted = {b.id: {h.evidence_id for h in b.history} for b in beliefs}
    edges = [e for e in memory.store.edges_to(list(counted), [SUPPORTS, REFUTES]) if e.src in counted[e.dst]]
    evidence = memory.store.get_nodes("evidence", [e.src for e in edges])
    out: dict[str, list[dict]] = {b.id: [] for b in beliefs}
    for e in edges:
        out[e.dst].append(evidence_entry(e, evidence[e.src], agent_id))
    for items in out.values():
        items.sort(key=lambda x: (x["timestamp"], x["evidence_id"]))
    return out


def _group(memory, beliefs, contexts, score, rel, entries) -> BeliefGroup:
    best = beliefs[0]
    alternatives = []
    for b in beliefs[1:]:
        asserted = memory.asserted(b)
        alternatives.append(
            dict(
                belief_id=b.id, value=b.value, confidence=b.confidence, effective_confidence=b.effective_confidence,
                band=b.band, last_updated=b.last_updated, contexts=b.contexts, asserted=asserted,
                # Not assertable any more. For a multi-valued predicate an asserted
                # alternative is simply another value that holds, not an outdated one.
                outdated=not asserted, refuted_by=[e for e in entries[b.id] if e["relation"] == REFUTES],
            )
        )
    return BeliefGroup(
        subject=best.subject, predicate=best.predicate, context_key=best.context_key, contexts=contexts,
        current=best if memory.asserted(best) else None, best=best, band=best.band, score=score, relevance=rel,
        supporters=[e for e in entries[best.id] if e["relation"] == SUPPORTS],
        refuters=[e for e in entries[best.id] if e["relation"] == REFUTES], alternatives=alternatives,
    )


def search_evidence(
    memory: Any,
    query: str,
    user_id: str,
    top_k: int = 5,
    *,
    agent_id: str | None = None,
    as_of: Any = None,
) -> list[dict]:
    """The plain vector baseline: the ``top_k`` nearest evidence rows of a user, each
    with its ``relevance`` (1 - cosine distance). Same index, no beliefs."""
    user_id = _check(user_id, query)
    as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
    hits = _nearest(memory, query, user_id, top_k, agent_id, as_of)
    rows = memory.store.get_nodes("evidence", [eid for eid, _ in hits])
    out = []
    for eid, dist in hits:
        row = rows.get(eid)
        if row is None or row["user_id"] != user_id:  # a vector whose evidence is gone
            continue
        if row["private"] and agent_id is not None and row["agent_id"] != agent_id:
            row = dict(row, text=HIDDEN_TEXT)
        out.append(dict(row, relevance=1.0 - dist))
    return out


def _nearest(memory, query, user_id, k, agent_id, as_of) -> list[tuple[str, float]]:
    if memory.index is None:
        raise InvalidInputError("this memory has no vector index; open it with an index to search")
    vector = memory.index.embed([query])[0]
    return memory.index.query(vector, user_id, k, agent_id=agent_id, as_of=as_of)


def _check(user_id: Any, query: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip():
        raise MissingUserError(f"search needs a non-empty user_id, got {user_id!r}")
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("the query must be a non-empty string")
    return user_id
