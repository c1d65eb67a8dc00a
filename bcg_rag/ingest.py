"""From chat messages to linked evidence.

Only ``extract`` may call an LLM (when one is configured). Everything after it is
deterministic: subjects and predicates are linked by alias table, normalisation
and embedding similarity; then the generic restatement rule (``restatements.py``) links
statements that repeat an earlier one with one span changed. An ending that does not name
its slot ("gave up on spanish") is linked to the values it names (``endings.py``), from
either side, like the restatement pairs.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .endings import link_endings
from .errors import InvalidInputError
from .entities import add_alias, known_forms, name_relatives
from .extract.endings import ENDED
from .extract.lexicon import org_forms
from .models import Claim, ObserveResult
from .names import known_entities, unit_vectors
from .relevance import memory_lexicon
from .restatements import batch_neighbours, link_restatements
from .writing import check_messages

if TYPE_CHECKING:
    from .memory import BeliefMemory

AMBIGUITY_MARGIN = 0.02  # predicates: two names this close are a tie


@dataclass
class MessageResult(ObserveResult):
    """What one message became: the extracted claims, and per claim the belief it
    touched with old -> new confidence (``links``). ``ambiguous`` lists subjects that
    resembled several known entities and were therefore not merged."""

    links: list[dict] = field(default_factory=list)
    ambiguous: list[dict] = field(default_factory=list)
    # Claims the message said as an addition ("I also work at Globex on weekends"): they
    # support their value and should refute no other value of a single-valued slot
    # (the extractor marks them; the memory's functional rule is what must honour it).
    additive: list[Claim] = field(default_factory=list)


def add_messages(memory: "BeliefMemory", messages: Sequence[dict], batch_size: int | None = None) -> list[MessageResult]:
    """Extract claims from each message, link them, and write everything in one batch. With
    ``batch_size``, in consecutive batches of that size instead, each exactly as its own
    ``add_messages`` call (its own transaction: a failure keeps the batches before it), while
    the next batch's texts are embedded in the worker thread as this one is linked and
    written: a backlog imported at the model's pace rather than at the model's plus ours."""
    messages = check_messages(memory, messages)  # sizes and types first: nothing to extract from bad input
    if batch_size is None:
        return _add_batch(memory, messages, _texts_ahead(memory, messages))[0]
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise InvalidInputError(f"batch_size must be a positive int, got {batch_size!r:.80}")
    batches = [messages[i : i + batch_size] for i in range(0, len(messages), batch_size)] or [[]]
    out: list[MessageResult] = []
    texts = _texts_ahead(memory, batches[0])
    for k, batch in enumerate(batches):
        results, texts = _add_batch(memory, batch, texts, batches[k + 1] if k + 1 < len(batches) else None)
        out += results
    return out


def _texts_ahead(memory: "BeliefMemory", messages: Sequence[dict]):
    """The messages' texts handed to the embedding worker (None without an index)."""
    if memory.index is None:
        return None
    return memory.embeddings.ahead([m["text"] for m in messages if _readable(m)])


def _add_batch(memory: "BeliefMemory", messages: list[dict], texts, following: list[dict] | None = None) -> tuple:
    """One batch written; with ``following``, that batch's texts handed to the worker once
    this one's model calls are done (returned: the next call's ``texts``)."""
    prepared = [_prepare(m) for m in messages]
    # The model runs once per batch, not once per message (a call for one short text costs
    # most of a batched one): the texts while the claims are extracted (in a worker thread,
    # see ``embedding``), the subjects after. Linking, storing and the restatement links
    # find both in the embedding cache.
    with memory.names.held():  # nothing is written until the batch is linked: check names once
        # Nothing of the batch is written before every message is read: a user's known
        # predicates are the same for all of them, asked once (not once per message).
        known = {u: _known_predicates(memory, u) for u in dict.fromkeys(m["user_id"] for m, _ in prepared if _readable(m))}
        extracted = [_extract_one(memory, m, speaker, known[m["user_id"]]) if _readable(m) else ((), (), (), ())
                     for m, speaker in prepared]
        if texts is not None:
            texts.result()
        _embed_ahead(memory, _unknown_subjects(memory, prepared, extracted))
        # the model is free: it embeds the next batch while this one is linked and written
        ahead = _texts_ahead(memory, following) if following else None
        items, notes_per_item, additive_per_item, fuller_names = _link_all(memory, prepared, extracted)
    # One transaction for the batch: the evidence, its claims and the restatement links
    # commit together (a crash in between would leave a message whose retry is a duplicate
    # and whose links are never made). Linking is idempotent and also runs for duplicates,
    # so a message stored by an older version without its links gets them on a retry.
    with memory.store.transaction():
        for (m, _), (_, _, _, kin) in zip(prepared, extracted):
            name_relatives(memory, m["user_id"], kin)  # before the claims: "my sister" resolves to her
        for user_id, short, full in fuller_names:  # an organisation goes by its fuller name, in any order
            add_alias(memory, user_id, short, full, actor="extractor")
        results = memory.observe_many(items)
        out = []
        for r, notes, additive in zip(results, notes_per_item, additive_per_item):
            out.append(MessageResult(r.evidence_id, r.duplicate, list(r.changes), r.claims, ambiguous=notes, additive=additive))
        near = batch_neighbours(memory, [r.evidence_id for r in out])
        for r in out:
            r.changes += link_restatements(memory, r.evidence_id, near.get(r.evidence_id))
            r.changes += link_endings(memory, r.evidence_id)
            r.links = _links(memory, r)
    return out, ahead


def _link_all(memory: "BeliefMemory", prepared: list, extracted: list) -> tuple[list, list, list, list]:
    """Each message's claims linked (``_link``): the items to store, per item the
    ambiguity notes and the claims said as additions, and the (user, short, full) names of
    organisations to merge under their fuller name."""
    items, notes_per_item, additive_per_item, fuller_names = [], [], [], []
    # Subjects linked earlier in this batch, per user: not in the store until the batch is
    # written, yet "云杉" two messages after "云杉智能" is that company, as it is one by one.
    batch_subjects: dict[str, set[str]] = {}
    for (m, _), (raw, added, known_predicates, _) in zip(prepared, extracted):
        claims, notes, additive = [], [], []
        for c, is_added in zip(raw, added):
            earlier = batch_subjects.setdefault(m["user_id"], set())
            c, note = _link(memory, c, m["user_id"], list(known_predicates), earlier, fuller_names)
            earlier.add(c.subject)
            if is_added and not c.additive:
                c = dataclasses.replace(c, additive=True)
            claims.append(c)
            if is_added:
                additive.append(c)
            if note:
                notes.append(note)
        notes_per_item.append(notes)
        additive_per_item.append(additive)
        items.append(dict(m, claims=claims))
    return items, notes_per_item, additive_per_item, list(dict.fromkeys(fuller_names))


def _prepare(message: dict) -> tuple[dict, str]:
    m = dict(message)
    speaker = m.pop("speaker", "user")
    if speaker != "user" and "source_type" not in m:
        m["source_type"] = "model_inferred"  # what an assistant says about the user is weaker evidence
    return m, speaker


def _extract_one(memory: "BeliefMemory", m: dict, speaker: str,
                 known_predicates: list[str]) -> tuple[list[Claim], list[bool], list[str], list]:
    raw, added, kin = _extract(
        memory.extractor, m["text"], user_id=m["user_id"], speaker=speaker, context=m.get("context"),
        known_predicates=known_predicates, known_entities=known_entities(memory, m["user_id"], m["text"]),
    )
    return raw, added, known_predicates, kin


def _readable(m: dict) -> bool:
    text, user_id = m.get("text"), m.get("user_id")
    return isinstance(text, str) and bool(text.strip()) and isinstance(user_id, str) and bool(user_id.strip())


def _unknown_subjects(memory: "BeliefMemory", prepared: list, extracted: list) -> list[str]:
    """The claims' subjects that no name or alias of their user matches: only these are
    compared with known names by vector (``_link``) or become new entities' names, whose
    vectors the name index takes from the cache; a known one resolves by its name."""
    by_user: dict[str, list[str]] = {}
    for (m, _), (raw, _, _, _) in zip(prepared, extracted):
        by_user.setdefault(m["user_id"], []).extend(c.subject for c in raw)
    unknown: list[str] = []
    for user_id, subjects in by_user.items():
        known = set(known_forms(memory, user_id, subjects))
        unknown += [s for s in subjects if s not in known]
    return unknown


def _embed_ahead(memory: "BeliefMemory", texts: list[str]) -> None:
    if memory.index is not None and texts:
        memory.embed(texts)


def _extract(extractor, text: str, **kwargs) -> tuple[list[Claim], list[bool], list[tuple[str, str]]]:
    """The claims, per claim whether it was said as an addition, and the relatives named
    (extractors that can tell: ``read`` returns how the message was read; others mark nothing)."""
    read = getattr(extractor, "read", None)
    if callable(read):
        claims, reading = read(text, **kwargs)
        flags = list(getattr(reading, "additive", []))
        return claims, (flags + [False] * len(claims))[: len(claims)], list(getattr(reading, "kin", []))
    claims = extractor.extract(text, **kwargs)
    return claims, [False] * len(claims), []


def _links(memory: "BeliefMemory", r: MessageResult) -> list[dict]:
    by_belief = {c.belief_id: c for c in r.changes}
    out = []
    edges = memory.store.edges_from([r.evidence_id], ("SUPPORTS", "REFUTES"))
    # One read for all: a statement in a slot of k values refutes the k - 1 others
    beliefs = memory.store.get_nodes("belief", [e.dst for e in edges], history=False)
    for e in edges:
        ch = by_belief.get(e.dst)
        belief = beliefs.get(e.dst)
        out.append(dict(
            belief_id=e.dst, predicate=belief["predicate"] if belief else None, value=belief["value"] if belief else None,
            relation=e.relation, reason=e.reason, old=ch.old if ch else None,
            new=ch.new if ch else (belief["confidence"] if belief else None),
        ))
    return out


# --- linking -----------------------------------------------------------------------------
def _known_predicates(memory: "BeliefMemory", user_id: str) -> list[str]:
    return memory.store.known_predicates(user_id)


def _link(memory: "BeliefMemory", c: Claim, user_id: str, predicates: list[str],
          batch_subjects: frozenset[str] | set[str] = frozenset(),
          fuller_names: list | None = None) -> tuple[Claim, dict | None]:
    """Canonical subject and predicate for a claim. Exact names and aliases win; then
    embedding similarity above the policy's threshold; a tie is reported, not merged.
    A fuller name of a known organisation is appended to ``fuller_names`` to be merged."""
    note = None
    subject = c.subject
    unknown = memory.resolve_entity(user_id, subject) is None
    if unknown and (known := _org_form(memory, user_id, subject, batch_subjects)):
        # "云杉把总部搬到西安了" and "云杉智能总部在成都": one company, named by its fuller
        # name whichever was said first (the shorter becomes its alias)
        if len(subject) > len(known) and fuller_names is not None:
            fuller_names.append((user_id, known, subject))
        else:
            subject = known
    elif unknown and memory.index is not None:
        # People and things: a wrong merge is worse than a missed one, so a name that
        # resembles two known entities is reported and merged with neither.
        entities, sims = memory.names.candidates(user_id, unit_vectors(memory, [subject])[0])
        match, candidates = _best(
            entities, sims, memory.policy.section("linking").get("entity_similarity", 0.86), margin=1.0
        )
        if match:
            subject = match
        elif len(candidates) > 1:
            note = dict(subject=c.subject, candidates=candidates)
    predicate = c.predicate
    # An ending's predicate is the endings rule's word, no slot's name: "does" is near "has".
    predicates = [p for p in predicates if p != ENDED]
    # A predicate the lexicon names is canonical already: mapped onto a near one the user
    # happens to have ("works_in" onto "works_at"), the slot would depend on which was said
    # first, and beliefs on arrival order.
    if predicate not in predicates and predicates and predicate != ENDED and predicate not in _vocabulary(memory):
        match, _ = _nearest(
            memory, predicate, predicates, memory.policy.section("linking").get("predicate_similarity", 0.86),
            humanise=True, margin=AMBIGUITY_MARGIN,
        )
        if match:
            predicate = match
    if (subject, predicate) == (c.subject, c.predicate):
        return c, note
    return dataclasses.replace(c, subject=subject, predicate=predicate), note  # keeps additive, starts_in_days


def _vocabulary(memory: "BeliefMemory") -> frozenset[str]:
    return _lexicon_vocabulary(memory_lexicon(memory))


@functools.lru_cache(maxsize=8)
def _lexicon_vocabulary(lexicon) -> frozenset[str]:
    """The predicates and slots a lexicon defines."""
    return lexicon.predicate_names() | frozenset(lexicon.tables.get("slots", {}))


def _org_form(memory: "BeliefMemory", user_id: str, name: str,
              batch_subjects: frozenset[str] | set[str] = frozenset()) -> str | None:
    """The name of a known entity (or of a subject linked earlier in the batch) that is
    another form of ``name`` (an organisation with or without its suffix, ``org_forms``),
    when exactly one is known."""
    forms = org_forms(name, memory_lexicon(memory))  # "Orla": "Orla Foods", "Orla Labs", ... (dozens)
    known = set(known_forms(memory, user_id, forms))
    found = {f for f in forms if f in batch_subjects or f in known}
    return found.pop() if len(found) == 1 else None


def _nearest(memory: "BeliefMemory", name: str, known: list[str], threshold: float, *, humanise: bool = False,
             margin: float):
    """The known name most similar to ``name`` above ``threshold``, unless the runner-up is
    within ``margin`` of it (then None and the candidates)."""
    if memory.index is None:
        return None, []
    show = (lambda s: s.replace("_", " ").replace(":", " ")) if humanise else (lambda s: s)
    vectors = unit_vectors(memory, [show(name)] + [show(k) for k in known])
    return _best(known, vectors[1:] @ vectors[0], threshold, margin)


def _best(known: list[str], sims: np.ndarray, threshold: float, margin: float):
    if not known:
        return None, []
    # Only the names above the threshold are sorted and listed: ``known`` may be every
    # entity of a long-lived user, and a Python pass over all of them grew with the memory.
    # Ties go by name, whatever order the names were learnt in.
    picked = np.flatnonzero(sims >= threshold)
    if not len(picked):
        return None, []
    order = sorted(picked, key=lambda i: (-float(sims[i]), known[i]))
    above = [known[i] for i in order]
    if len(above) > 1 and sims[order[0]] - sims[order[1]] < margin:
        return None, above
    return above[0], above
