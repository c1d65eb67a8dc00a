"""Search: from a query to the beliefs that answer it, with their evidence.

Plain functions over a ``BeliefMemory`` (no framework):

1. embed the query (one call) and take the ``candidates`` nearest evidence of the
   user from the index (only evidence with timestamp <= ``as_of`` when given); a query
   that names an entity with other names is also asked by each (``names.hits_by_other_names``);
2. follow their claim edges (SUPPORTS / REFUTES) to beliefs. Relevance is per claim,
   not per message: a message that makes several claims ("my mom's a doctor, she
   lives in Chengdu") has a vector per claim (``writing.claim_text``), and a claim
   that the query matches less than its sibling gets the message's relevance minus
   the difference;
3. add each belief's competitors: same user, subject, predicate and context group
   (a *slot*), and decide what the slot states. Evidence decides *whether* a value is
   current (stored confidence against the decision line, ``views.asserted``); age
   only lowers its band and its rank. A single-valued slot states its best-supported
   asserted value; a many-valued slot states all asserted values, freshest first;
4. rank the slots by

       relevance = max over the slot's claims of their relevance (step 2)
       freshness = max over the slot's beliefs of 0.5 ** (days since last confirmed
                   or refuted / half-life)
       score     = relevance * (1 - age_weight * (1 - freshness))
                   + context_bonus   (if the query's context is one of the slot's)

   so an old slot ranks below an equally relevant, fresh one (age can lower a score by
   at most ``age_weight``), while doubt does not lower the rank: a slot whose value was refuted is still
   the one its question is about, and says so;
5. never worse than plain retrieval: candidate evidence that no claim speaks to (the
   extractor found nothing in it) among the ``top_k`` nearest comes back as
   ``SearchResult.unstructured``, newest first, and first when it is more relevant
   than the best slot.

Cost grows with ``candidates`` and the size of the touched slots, not with the size
of the memory: full views and evidence are loaded for the returned groups only.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np

from . import archive, lifecycle, revision
from .asked import NAMED_WINDOW, answer_kind, asked_first, of_asked_kind, slots_by_predicate
from .checks import check_agent, check_context, check_count, check_query, require_user
from .errors import InvalidInputError, MissingUserError
from .extract.restate import restatement_diff
from .figures import of_figure_asked
from .groups import BeliefGroup, SearchResult, add_said_forms, evidence_entries, held_in, make_group
from .hops import follow_links
from .ids import normalise_key
from .models import HIDDEN_TEXT
from .names import hits_by_other_names
from .relevance import belief_relevance as claim_relevance
from .relevance import claim_pairs, memory_lexicon, predicate_similarity
from .search_reads import SearchReads
from .timeutil import parse_timestamp
from .tokens import fit_group
from .unstructured import unstructured_memory, visible_rows
from .views import hidden_values


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
    max_tokens: int | None = None,
) -> SearchResult:
    """The ``top_k`` belief groups that best answer ``query`` for one user (see module doc).
    ``max_tokens``: a budget per group; each group is trimmed to it (``tokens.fit_group``:
    the current value, its band and the newest quote for and against are kept first)."""
    user_id = _check(user_id, query, memory)
    if max_tokens is not None:
        max_tokens = check_count(max_tokens, "max_tokens")
    settings = memory.policy.section("search")
    max_top_k = int(memory.policy.section("limits").get("max_top_k", 1000))
    top_k = check_count(top_k, "top_k", max_top_k)
    candidates = check_count(candidates if candidates is not None else settings.get("candidates", 30), "candidates", max_top_k)
    agent_id = check_agent(agent_id)
    context = check_context(context)
    bonus = float(settings.get("context_bonus", 0.25))
    age_weight = float(settings.get("age_weight", 0.5))
    as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
    # One "now" for every view and explanation, so decay is the same across the answer.
    now = parse_timestamp(now, "now") if now is not None else (None if as_of else memory.clock())

    vector = _query_vector(memory, query)
    reads = SearchReads(memory.store, user_id)  # rows read by more than one stage, read once (this search only)
    hits = memory.index.query(vector.tolist(), user_id, candidates, agent_id=agent_id, as_of=as_of)
    hits = hits_by_other_names(memory, user_id, query, hits, candidates, agent_id, as_of, reads)
    if not hits:
        return SearchResult()
    relevance = {eid: 1.0 - dist for eid, dist in hits}
    pairs, claimed = claim_pairs(memory, relevance, as_of)
    belief_evidence: dict[str, set[str]] = {}
    for eid, bid in pairs:
        belief_evidence.setdefault(bid, set()).add(eid)

    # Whole slots: the competing values decide what is current. Ranking needs only each
    # belief's last state; full rows, views and evidence are loaded for the returned
    # groups only, so the work stays proportional to the candidates.
    slots = _slot_rows(memory, user_id, list(belief_evidence))
    belief_relevance = claim_relevance(
        memory, query, vector, pairs, {r["id"]: r for rows in slots.values() for r in rows if r["id"] in belief_evidence}
    )
    if as_of is not None:  # replaying needs the histories
        full = memory.store.get_nodes("belief", [r["id"] for rows in slots.values() for r in rows])
        slots = {k: [full[r["id"]] for r in rows] for k, rows in slots.items()}
    stored = {r["id"]: r for rows in slots.values() for r in rows}  # rows as the store gave them (see _groups)
    states: dict[str, tuple[float, float]] = {}  # belief id -> (stored, effective) at as_of / now
    restated = _restated_by(memory, belief_evidence)
    pending = _pending(memory, slots, as_of, now)
    slots = {k: [pending.get(r["id"], r) for r in rows] for k, rows in slots.items()}
    ranked = []
    for (_, predicate, _), slot_rows in slots.items():
        for r in slot_rows:
            state = _state(memory, r, as_of, now, r["id"] in pending)
            if state is not None:
                states[r["id"]] = state
        ordered = _order(memory, [r for r in slot_rows if r["id"] in states], states, predicate, belief_relevance, restated)
        if not ordered:
            continue
        best = ordered[0]
        rel = max(belief_relevance.get(r["id"], -1.0) for r in ordered)
        contexts = sorted({c for r in ordered for c in r["contexts"]})
        in_context = held_in(memory, context, contexts, best["context_key"])
        # Age lowers the rank, doubt does not: a slot whose value was just refuted is as much
        # the answer to its question as a confirmed one (the answer is then "no longer").
        fresh = max(states[r["id"]][2] for r in ordered)
        score = rel * (1.0 - age_weight * (1.0 - fresh)) + (bonus if in_context else 0.0)
        ranked.append((score, rel, ordered, contexts))
    ranked.sort(key=lambda g: (-g[0], g[2][0]["id"]))
    ranked = slots_by_predicate(memory, ranked, vector, query, context)
    # The subjects the next stages read by name (asked_first, the hops' starts), in one statement.
    reads.names(list(dict.fromkeys(g[2][0]["subject_id"] for g in ranked))[:NAMED_WINDOW])
    ranked = asked_first(memory, user_id, query, ranked, reads)

    ranked, via = follow_links(memory, ranked, query, vector, user_id=user_id, states=states, as_of=as_of, now=now,
                               agent_id=agent_id, reads=reads)
    chosen = ranked[: max(0, top_k)]
    reads.want_evidence(eid for eid, _ in hits[: max(0, top_k)])  # the raw rows' candidates, read with the groups' evidence
    groups = _groups(memory, chosen, via, as_of, now, agent_id, pending, reads, stored)
    if as_of is None and lifecycle.may_have_cold_store(memory):
        groups = _with_archived(memory, query, user_id, groups, top_k, agent_id, now)
    fits = predicate_similarity(memory, sorted({g.predicate for g in groups}), vector) if groups else {}
    kind = answer_kind(query)
    for g in groups:
        g.predicate_fit = round(float(fits[g.predicate]), 6)
        g.of_asked_kind = of_figure_asked(query, g.predicate, str(g.best.value), of_asked_kind(g.predicate, g.best.value, kind))
    unread = (float(settings.get("unread_similarity", 0.5)), float(settings.get("unread_relevance_margin", 0.2)),
              float(settings.get("unread_named_similarity", 0.3)))
    # Evidence among the hits whose claims point to a returned belief is that group's, whether
    # or not the group quotes it (a value other than the best quotes only its newest entries).
    returned = {g.best.id for g in groups} | {a["belief_id"] for g in groups for a in g.alternatives}
    stands_on = {eid for eid, bid in pairs if bid in returned}
    unstructured, first = unstructured_memory(memory, query, hits[: max(0, top_k)], relevance, claimed, groups, user_id,
                                              agent_id, unread, stands_on, context, reads, asked_kind=kind)
    groups = hide_private_values(groups, agent_id)  # before trimming: it reads every supporter
    add_said_forms(groups, memory_lexicon(memory).surfaces_of_values())  # after hiding: a hidden quote says nothing
    if max_tokens is not None:
        groups = [fit_group(g, max_tokens) for g in groups]
    return SearchResult(groups, unstructured, first)


def hide_private_values(groups: list[BeliefGroup], agent_id: str | None) -> list[BeliefGroup]:
    """Agent-private evidence hides more than its quote: a value that only other agents'
    private evidence claims is shown to ``agent_id`` as ``HIDDEN_TEXT`` (its confidence,
    band and sources' types stay: the agent may know that something is known, not what)."""
    if agent_id is None:
        return groups
    for g in groups:
        if hidden_values({g.best.id: g.supporters + g.refuters}, agent_id):
            hidden = replace(g.best, value=HIDDEN_TEXT)
            g.current = hidden if g.current is not None and g.current.id == g.best.id else g.current
            g.best = hidden
        for alt in g.alternatives:
            if hidden_values({alt["belief_id"]: alt["supporters"] + alt["refuted_by"]}, agent_id):
                alt["value"] = HIDDEN_TEXT
    return groups


def _query_vector(memory: Any, query: str) -> np.ndarray:
    if memory.index is None:
        raise InvalidInputError("this memory has no vector index; open it with an index to search")
    return np.asarray(memory.index.embed([query])[0], dtype=np.float32)


def _pending(memory: Any, slots: dict, as_of: str | None, now: str) -> dict[str, dict]:
    """The full rows (histories included) of every value of a slot that holds a change not
    yet due at ``now`` (a dated plan's claim, ``Claim.starts_in_days``): ``memory.view``
    replays such a slot to ``now``, so the change counts only from its date."""
    if as_of is not None:
        return {}
    ids = [r["id"] for rows in slots.values() if any(r["last_updated"] > now for r in rows) for r in rows]
    return memory.store.get_nodes("belief", ids) if ids else {}


def _state(memory: Any, row: dict, as_of: str | None, now: str, pending: bool = False) -> tuple[float, float, float] | None:
    """(stored, effective confidence, freshness) of a belief, as ``memory.view`` computes
    them; None for a belief that did not exist yet at ``as_of`` (or not before a pending
    change falls due). Freshness is what decay leaves of 1.0 since the belief was last
    confirmed (or refuted). Otherwise the row's stored confidence is the last state and is
    only decayed here."""
    half_life = memory.policy.half_life_days(row["predicate"])
    if as_of is not None or pending:
        view = memory.view(row, as_of=as_of, now=now)
        if view is None:
            return None
        return view.confidence, view.effective_confidence, revision.decay(1.0, view.last_updated, as_of or now, half_life)
    fresh = revision.decay(1.0, row["last_updated"], now, half_life)
    return row["confidence"], row["confidence"] * fresh, fresh


def _asserted(memory: Any, row: dict, state: tuple[float, float]) -> bool:
    return memory.asserted(SimpleNamespace(confidence=state[0], effective_confidence=state[1], status=row["status"]))


def _order(memory: Any, rows: list[dict], states: dict[str, tuple[float, float]], predicate: str,
           relevance: dict[str, float] | None = None, restated: Any = None) -> list[dict]:
    """A slot's beliefs, the one to state first. Asserted values come first. In a
    single-valued slot the best-supported one (stored confidence; then the newest) is the
    current value, whatever its age: only evidence can replace it. In a many-valued slot
    every asserted value holds, so the freshest (effective confidence) comes first, and of
    equally fresh ones (a slot that does not decay: names, family) the one whose claims are
    nearest the question ("what's my dog's name?" of two pets' names). ``restated(a, b)``:
    whether two beliefs stand on statements that differ in their values only."""
    functional = memory.policy.is_functional(predicate)
    rows = sorted(rows, key=lambda r: r["id"])
    if functional:
        rows.sort(key=lambda r: r["last_updated"], reverse=True)
        rows.sort(key=lambda r: -states[r["id"]][0])
    else:
        near = relevance or {}
        rows.sort(key=lambda r: (-states[r["id"]][1], -near.get(r["id"], -1.0)))
    rows.sort(key=lambda r: not _asserted(memory, r, states[r["id"]]))
    if not functional and rows:
        # Values as fresh as the first and about as near the question are a tie, and so are
        # values stated in the same words but for the value ("Wilma's child is Pebbles
        # Flintstone", "... is Eric Garcetti": only the value's own words make one nearer
        # "who is Wilma Flintstone's child?"): the newest goes first.
        lead = rows[0]
        tied = [r for r in rows if _asserted(memory, r, states[r["id"]]) == _asserted(memory, lead, states[lead["id"]])
                and abs(states[r["id"]][1] - states[lead["id"]][1]) < 1e-9
                and (r is lead or near.get(r["id"], -1.0) >= near.get(lead["id"], -1.0) - NEAR_TIE
                     or restated is not None and restated(lead, r))]
        newest = sorted(tied, key=lambda r: r["last_updated"], reverse=True)
        rows = newest + [r for r in rows if r not in tied]
    return rows


def _restated_by(memory: Any, belief_evidence: dict[str, set[str]]) -> Any:
    """``restated(a, b)`` for ``_order``: some candidate statement of ``a`` and one of ``b``
    differ in one span, which is their two values. Reads the statements only when asked
    (a many-valued slot whose values are tied but for relevance)."""
    def restated(a: dict, b: dict) -> bool:
        mine, theirs = belief_evidence.get(a["id"], set()), belief_evidence.get(b["id"], set())
        if not mine or not theirs:
            return False
        texts = memory.store.get_nodes("evidence", sorted(mine | theirs))
        values = {normalise_key(a["value"]), normalise_key(b["value"])}
        for x in sorted(mine & texts.keys()):
            for y in sorted(theirs & texts.keys()):
                diff = restatement_diff(texts[x]["text"], texts[y]["text"])
                if diff is not None and not diff.negated and {
                        normalise_key(diff.old_value), normalise_key(diff.new_value)} == values:
                    return True
        return False
    return restated


def _slot_rows(memory: Any, user_id: str, belief_ids: list[str]) -> dict[tuple, list[dict]]:
    """Every belief sharing a slot with one of ``belief_ids`` (the storage interface's
    ``slot_rows``), keyed by (subject, predicate, context group)."""
    out: dict[tuple, list[dict]] = {}
    for (owner, subject_id, predicate, context_key), rows in memory.store.slot_rows(belief_ids).items():
        if owner == user_id:  # cannot differ (the ids come from this user's evidence); never leak
            out[(subject_id, predicate, context_key)] = rows
    return out


# Entries of each belief's history a search reads when it need not replay (no ``as_of``):
# the newest ones, whose evidence the group quotes. A slot restated thousands of times ("I
# live in X now") held 150,000 entries and took seconds to read; ``explain`` lists them all.
# Relevance within this of the nearest value's is no reason to put a value first (see _order).
NEAR_TIE = 0.05
SHOWN_HISTORY = 64
# A slot's other values are rendered with their newest entry; a many-valued slot restated
# thousands of times has dozens of them, each read with this many entries.
SHOWN_HISTORY_OTHERS = 8


def _groups(memory: Any, chosen: list, via: dict, as_of: str | None, now: str, agent_id: str | None,
            pending: dict[str, dict], reads: SearchReads, stored: dict[str, dict]) -> list[BeliefGroup]:
    """The chosen slots as groups. ``stored``: the slots' rows as this search read them from
    the store; they are used as read (without their histories). Rows the hops reached are
    read again: one may stand for another subject's (the user's unnamed employer, employer.py)."""
    ids = [r["id"] for _, _, slot_rows, _ in chosen for r in slot_rows]
    if as_of is None:
        rows = [r for _, _, slot_rows, _ in chosen for r in slot_rows if r["id"] not in pending]
        full = {r["id"]: dict(r) for r in rows if stored.get(r["id"]) is r}
        if len(full) < len(rows):
            full.update(memory.store.get_nodes("belief", [r["id"] for r in rows if r["id"] not in full], history=False))
        firsts = {slot_rows[0]["id"] for _, _, slot_rows, _ in chosen if slot_rows}
        tails = memory.store.newest_history({i: SHOWN_HISTORY if i in firsts else SHOWN_HISTORY_OTHERS for i in full})
        for belief_id, row in full.items():
            tail = tails[belief_id]
            shown = SHOWN_HISTORY if belief_id in firsts else SHOWN_HISTORY_OTHERS
            if len(tail) >= shown and all(revision.is_conflict(h["reason"]) for h in tail):
                tail = memory.store.belief_history([belief_id])[belief_id]  # rare: when it was last confirmed is older
            row["history"] = tail
        full.update({i: pending[i] for i in ids if i in pending})
    else:
        full = memory.store.get_nodes("belief", ids)
    reads.entities(row["subject_id"] for row in full.values())  # the subjects' names, in one read
    views = {i: memory.view(row, as_of=as_of, now=now, entity=reads.entity) for i, row in full.items()}
    entries = evidence_entries(memory, [v for v in views.values() if v is not None], agent_id, reads)
    clock = as_of or now
    groups = []
    for score, rel, slot_rows, contexts in chosen:
        beliefs = [views[r["id"]] for r in slot_rows if views.get(r["id"]) is not None]  # None: deleted meanwhile
        if not beliefs:
            continue
        group = make_group(memory, beliefs, contexts, score, rel, entries, clock)
        group.via = via.get(slot_rows[0]["id"], [])
        groups.append(group)
    return groups


def _with_archived(memory: Any, query: str, user_id: str, groups: list[BeliefGroup], top_k: int,
                   agent_id: str | None, now: str) -> list[BeliefGroup]:
    """Archived beliefs are cold storage, not deletion: the archive is consulted (when
    there is one) and what it returns is marked ``archived``. An archived group goes
    before the hot groups it is more relevant than, so it answers only where the hot tier
    has nothing as relevant to state."""
    hits = archive.search_archived(memory, query, user_id=user_id, top_k=top_k, agent_id=agent_id)
    if not hits:
        return groups
    found, seen = [], set()
    with lifecycle.cold_store(memory, create=False) as cold:
        if cold is None:
            return groups
        cm = lifecycle.cold_memory(memory, cold)
        for hit in hits:
            row = cold.get_node("belief", hit["belief_id"])
            if row is None or row["id"] in seen:
                continue
            rows = cold.slot_beliefs(row["user_id"], row["subject_id"], row["predicate"], row["context_key"])
            seen.update(r["id"] for r in rows)
            states = {r["id"]: _state(cm, r, None, now) for r in rows}
            beliefs = [cm.view(r, now=now) for r in _order(cm, rows, states, row["predicate"])]
            entries = evidence_entries(cm, beliefs, agent_id)
            contexts = sorted({c for r in rows for c in r["contexts"]})
            found.append(make_group(cm, beliefs, contexts, hit["score"], hit["score"], entries, now, archived=True))
    merged = sorted(groups + found, key=lambda g: -g.relevance) if found else groups
    # Hot groups keep their own order (hops may have placed them); archived ones slot in by relevance.
    hot = iter(groups)
    merged = [g if g.archived else next(hot) for g in merged]
    return merged[: max(0, top_k)]


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
    user_id = _check(user_id, query, memory)
    top_k = check_count(top_k, "top_k", int(memory.policy.section("limits").get("max_top_k", 1000)))
    agent_id = check_agent(agent_id)
    as_of = parse_timestamp(as_of, "as_of") if as_of is not None else None
    hits = memory.index.query(_query_vector(memory, query).tolist(), user_id, top_k, agent_id=agent_id, as_of=as_of)
    return visible_rows(memory, [eid for eid, _ in hits], {eid: 1.0 - d for eid, d in hits}, user_id, agent_id)


def _check(user_id: Any, query: Any, memory: Any = None) -> str:
    if not isinstance(user_id, str) or not user_id.strip():
        raise MissingUserError(f"search needs a non-empty user_id, got {user_id!r:.80}")
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("the query must be a non-empty string")
    check_query(memory, query)  # its size ([limits] max_query_chars) and encoding, before any embedding
    return require_user(user_id)
