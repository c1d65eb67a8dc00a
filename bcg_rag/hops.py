"""Multi-hop answers: follow current values from what the question names.

"In which city is the headquarters of Maria's employer?" names Maria. Her ``works_at``
slot's current value, Bosch, names an entity with beliefs of its own ("Bosch
headquartered_in Stuttgart"), so Stuttgart answers the question through her employer.
``follow_links`` walks such links over the user's current beliefs (loaded lazily, entity
by entity, from the store: a hop need not have been retrieved) and decides how far the
question asks to go. Plain arithmetic over stored rows and vectors; no embedding.

- A chain starts at one of the best retrieved groups whose subject the question names
  (name or alias; the user when the question speaks of the user). When none starts a chain, the entities the
  question names are looked up by name (quoted spans, capitalised runs of words).
- A hop follows only a current value (``memory.asserted`` at the search's time), or a plan
  for a slot that states nothing now; outdated links are never followed; a value names an
  entity when ``memory.resolve_entity`` finds it. The user's employer also has what was said
  of the user's unnamed company since (``employer.py``).
- A hop is *asked for* when the question has a word that the hop's statement brings and
  no earlier hop's statement has, with the names in the statements masked ("headquarters"
  in "The headquarters of Bosch is in Stuttgart", against "Maria works at Bosch";
  ``hop_words``). The chain ends at its deepest asked hop, so it does not stop at an
  intermediate value; a question about the first hop alone ("Where does Maria work?")
  stays where it is. Past the deepest worded hop of a chain that has one, a hop is asked
  for while each brings the chain closer to the question (``[search] hop_min_gain``): the mean of the
  statements' stored unit vectors stands for the chain's text.
- Of the chains from one start, the one that explains most question words wins, then the
  longest, then the one closest to the question.
- A chain's answer is placed just above the chain's head (from the bottom for a head that
  was not retrieved) and above the groups it may pass (``_place``). A hop may add an
  answer, never demote a better-scoring direct one. ``via`` records the hops.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from .asked import names_entity, refers_to_user, relatives_asked
from .employer import EMPLOYER_PREDICATE, employer_rows, unnamed_employer
from .errors import InvalidInputError
from .hop_chains import Chain, Hop, best, decide, slot_key
from .hop_texts import load_templates, load_vectors, prefix_similarity
from .hop_words import words
from .relevance import memory_lexicon
from .search_reads import SearchReads, name_forms
from .threads import asks_through

PLAN = "plan:"  # the prefix of a planned slot's predicate (extract.offline)
MAX_PATHS = 64  # chains examined per start group
MAX_STARTS = 5  # start groups examined per search
START_WINDOW = 10  # among the best-ranked groups
MAX_NAME_LOOKUPS = 48  # spans of the question looked up as names when no retrieved group starts a chain


class _Walker:
    """The user's current beliefs around the start groups, loaded lazily, entity by entity:
    an entity's slots that state a current value (search's ranked tuples)."""

    def __init__(self, memory: Any, ranked: list, user_id: str, states: dict, as_of: str | None, now: str | None,
                 agent_id: str | None = None, reads: SearchReads | None = None):
        from . import (
            search,  # search calls us, so it is loaded by now; its helpers decide states
        )

        self.memory, self.user_id, self.as_of, self.now, self.states = memory, user_id, as_of, now, states
        settings = memory.policy.section("search")
        self.max_hops = int(settings.get("max_hops", 4))  # values followed from the start
        self.min_gain = float(settings.get("hop_min_gain", 0.02))  # a hop no word asks for must bring this
        self._search = search
        self.retrieved = {slot_key(g[2][0]): g for g in ranked}
        self._slots: dict[tuple, list[tuple]] = {}
        self.reads = reads or SearchReads(memory.store)  # entities and aliases the search has read
        self._targets: dict[str, str | None] = {}
        self._forms: dict[str, list[str]] = {}  # a value looked up and not resolved yet: its names (look_up)
        self._hops: dict[tuple, Hop] = {}
        self.agent_id = agent_id
        self._hidden: dict[str, bool] = {}
        self.relatives: set[str] = set()  # the user's relatives the question asks about
        self._holding: dict[tuple[str, str], bool] = {}
        self._user_entity: str | None = ""  # "": not looked up yet
        self._unnamed_said: bool | None = None  # whether anything was said of the user's unnamed employer

    def user_entity(self) -> str | None:
        if self._user_entity == "":
            self._user_entity = self.reads.resolve_entity(self.user_id, self.user_id)
        return self._user_entity

    def hop(self, group: tuple) -> Hop:
        key = slot_key(group[2][0])
        if key not in self._hops:
            row = group[2][0]
            self._hops[key] = Hop(group, row, None, None, self.name(row["subject_id"]))
        return self._hops[key]

    def state(self, row: dict) -> tuple | None:
        """(stored, effective) confidence at the search's time, as search computes it."""
        if row["id"] not in self.states:
            st = self._search._state(self.memory, row, self.as_of, self.now)
            if st is None:
                return None
            self.states[row["id"]] = st
        return self.states[row["id"]]

    def entity(self, entity_id: str) -> dict | None:
        return self.reads.entity(entity_id)

    def name(self, entity_id: str) -> str:
        row = self.entity(entity_id)
        return row["name"] if row else entity_id

    def target(self, value: str, row: dict | None = None) -> str | None:
        """The entity a value names for this user (its name or an alias), if any; for a
        company's full name, also its short form ("Halcyon Bio" -> "Halcyon": people drop
        the suffix once the name is known). The user's employer (``row``, the user's own
        ``works_at``) that nothing else was said of is still where what was said of "our
        company" leads (``employer.py``): its name stands in for an entity then. Of the
        forms that name an entity, the first that has something said of it: "started at Oxbow
        Health" names one entity, "oxbow's HQ is in Bristol" another."""
        if value not in self._targets:
            named = []
            self.look_up([value])  # every form at once (nothing to read when looked up with others)
            forms = self._forms.pop(value)
            # The guessed forms of an organisation's name are dozens: only those it knows are resolved.
            guessed = self.reads.known_forms(self.user_id, forms[2:])
            for name in dict.fromkeys((*forms[:2], *guessed)):
                try:
                    if (entity_id := self.reads.resolve_entity(self.user_id, name)) and entity_id not in named:
                        named.append(entity_id)
                except InvalidInputError:  # a value that is no name (empty once normalised)
                    pass
            self._targets[value] = next((e for e in named if self.slots(e)), named[0] if named else None)
        if self._targets[value] is None and row is not None and self._users_employer(row):
            return value
        return self._targets[value]

    def look_up(self, values: list[str]) -> None:
        """Look up the names ``target`` resolves for each of ``values`` not looked up yet, all
        at once (``SearchReads.look_up_names``): the value, the value without a company suffix,
        and the guessed forms of an organisation's name (``org_forms``), kept for ``target``."""
        todo = [v for v in dict.fromkeys(values) if v not in self._targets and v not in self._forms]
        if todo:
            lexicon = memory_lexicon(self.memory)
            named = [name_forms(v, lexicon) for v in todo]
            for v, (forms, guessed) in zip(todo, named):
                self._forms[v] = [*forms, *guessed]
            maybe = self.reads.look_up_names(self.user_id, [f for forms, _ in named for f in forms],
                                             guessed=[guessed for _, guessed in named])
            for v, any_known in zip(todo, maybe):
                if not any_known:  # none of its guessed forms names anything: none to resolve
                    del self._forms[v][2:]

    def _users_employer(self, row: dict) -> bool:
        if row["predicate"] != EMPLOYER_PREDICATE or row["subject_id"] != self.user_entity():
            return False
        if self._unnamed_said is None:  # looked up once per search
            unnamed = unnamed_employer(self.memory, self.user_id, self.reads)
            self._unnamed_said = unnamed is not None and bool(self.memory.store.find_beliefs(self.user_id, subject_id=unnamed))
        return self._unnamed_said

    def hidden(self, row: dict) -> bool:
        """Whether the searching agent may not see this belief's value (``views.value_hidden_for``)."""
        if self.agent_id is None:
            return False
        if row["id"] not in self._hidden:
            from .views import value_hidden_for

            self._hidden[row["id"]] = row["id"] in value_hidden_for(self.memory, [row["id"]], self.agent_id)
        return self._hidden[row["id"]]

    def current(self, group: tuple) -> dict | None:
        """The value a chain may follow: the current one; or a plan ("starting at Halcyon Bio
        next week", positive) for a slot that states nothing now. Its group stays hedged."""
        row = group[2][0]
        if (st := self.state(row)) is None or self._search._asserted(self.memory, row, st):
            return row if st is not None else None
        planned = row["predicate"].removeprefix(PLAN)
        if planned == row["predicate"] or st[0] <= 0 or row["status"] not in ("active", "weak"):
            return None
        return None if self._holds(row["subject_id"], planned) else row

    def _holds(self, subject_id: str, predicate: str) -> bool:
        """Whether a slot of this subject states a current value (any context)."""
        if (key := (subject_id, predicate)) not in self._holding:
            rows = self.memory.store.find_beliefs(self.user_id, self.as_of is not None, subject_id=subject_id,
                                                  predicate=predicate)
            self._holding[key] = any(self.current((0, 0, [r], [])) is r for r in rows)  # not a plan: asserted
        return self._holding[key]

    def slots(self, subject_id: str, via: dict | None = None) -> list[tuple]:
        """Every slot of an entity with a current value, as search's ranked tuples
        (retrieved ones as retrieved; the others ordered here). ``via``: the row a chain
        followed to it (the user's employer also has what was said of "the company")."""
        # Histories only to replay to ``as_of``: the user's own slots can hold hundreds of
        # thousands of entries (seconds to read), and a current state needs none of them.
        history = self.as_of is not None
        # Checked before any read: a chain asks for an entity's slots once per path.
        from_user = via is not None and via["predicate"] == EMPLOYER_PREDICATE and via["subject_id"] == self.user_entity()
        cache = (subject_id, via["id"] if from_user else None)
        if cache in self._slots:
            return self._slots[cache]
        unnamed = employer_rows(self.memory, self.user_id, subject_id, via, history, self.reads) if from_user else []
        by_slot: dict[tuple, list[dict]] = {}
        rows = self.memory.store.find_beliefs(self.user_id, history=history, subject_id=subject_id) + unnamed
        for row in rows:
            by_slot.setdefault(slot_key(row), []).append(row)
        out = []
        merged = {slot_key(r) for r in unnamed}
        for key, rows in sorted(by_slot.items()):
            group = None if key in merged else self.retrieved.get(key)
            if group is None:
                live = [r for r in rows if self.state(r) is not None]
                if not live:
                    continue
                ordered = self._search._order(self.memory, live, self.states, key[1])
                group = (0.0, -1.0, ordered, sorted({c for r in ordered for c in r["contexts"]}))
            if self.current(group) is not None:
                out.append(group)
        self._slots[cache] = out
        return out


def follow_links(memory: Any, ranked: list, query: str, vector: Any, *, user_id: str, states: dict,
                 as_of: str | None = None, now: str | None = None, agent_id: str | None = None,
                 debug: list | None = None, reads: SearchReads | None = None) -> tuple[list, dict]:
    """Reorder search's ranked groups ``(score, relevance, ordered rows, contexts)`` so that
    a chain's answer comes first (see module doc). Returns the new order and ``via``:
    belief id of a chain's end -> the hops that lead to it. ``states`` maps belief ids to
    their (stored, effective) confidence at the search's time (``as_of``, ``now``); the
    beliefs reached beyond the retrieved ones are added to it. ``agent_id``: a value that
    only other agents' private evidence claims is never followed (its hop would tell it).
    ``reads``: the search's ``SearchReads`` (entities and aliases it has read)."""
    walker = _Walker(memory, ranked, user_id, states, as_of, now, agent_id, reads)
    walker.relatives = set(relatives_asked(memory, user_id, query, walker.reads))
    asked_words = words(query)
    q = np.asarray(vector, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)

    vectors = lambda hops: load_vectors(memory, user_id, hops)
    chains: list[tuple[int, Chain]] = []  # (position of the head in ranked, chain)
    tried: set[tuple] = set()
    # What the loop below reads, all at once: the start subjects' names (one statement), then
    # where the values of those the question names lead (SearchReads.look_up_names).
    walker.reads.names(g[2][0]["subject_id"] for g in ranked[:START_WINDOW])
    walker.look_up([g[2][0]["value"] for g in ranked[:START_WINDOW]
                    if _named(walker, g[2][0]["subject_id"], query, g[2][0]["predicate"])])
    for i, group in enumerate(ranked[:START_WINDOW]):
        row = group[2][0]
        if len(tried) >= MAX_STARTS or walker.current(group) is None:
            continue
        # Both must hold; whether the question names the subject is the cheaper to tell (where
        # a value leads is looked up in each of its dozens of guessed forms, ``target``).
        if _named(walker, row["subject_id"], query, row["predicate"]) and walker.target(row["value"], row) is not None:
            tried.add(slot_key(row))
            chain = _chain_from(walker, [group], asked_words, q, vectors, debug)
            if chain is not None:
                chains.append((i, chain))
    if not chains:  # what the question names was not retrieved (a crowded memory): look its name up
        for entity_id in _names_in(walker, query)[:MAX_STARTS]:
            starts = [g for g in walker.slots(entity_id) if slot_key(g[2][0]) not in tried]
            chain = _chain_from(walker, starts, asked_words, q, vectors, debug) if starts else None
            if chain is not None:
                chains.append((len(ranked), chain))
    if not chains:
        return ranked, {}
    return _place(walker, ranked, chains, query, q, vectors)


def _chain_from(walker: _Walker, starts: list[tuple], asked_words: set[str], q: np.ndarray,
                vectors: Callable[[list[Hop]], None], debug: list | None) -> Chain | None:
    """The best chain from some start groups of one named entity, if the question asks for
    more than the start's own value."""
    walker.look_up([start[2][0]["value"] for start in starts])
    paths = [p for start in starts for p in _paths(walker, start) if len(p) > 1]
    if not paths:
        return None
    load_templates(walker.memory, [h for p in paths for h in p], walker.as_of, walker.reads)
    question = asked_words - words(walker.name(starts[0][2][0]["subject_id"]))
    chosen = best([decide(p, question, q, vectors, walker.min_gain) for p in paths], q, vectors)
    if debug is not None:
        debug.append(chosen)
    return chosen if chosen.end > 0 else None


def _names_in(walker: _Walker, query: str) -> list[str]:
    """Entities with beliefs that the question names, found by their names: quoted spans
    and runs of up to six words that start and end with a capital letter or a digit
    ("Ford Scorpio", "Ju 88", "Greg Oden's"). A few alias look-ups, no scan of all names."""
    spans = [a or b for a, b in re.findall(r'"([^"]+)"|\u201c([^\u201d]+)\u201d', query)]
    tokens = re.findall(r"[\w][\w.'&-]*", query)
    capital = [t[0].isupper() or t[0].isdigit() for t in tokens]
    for i in range(len(tokens)):
        for j in range(i, min(i + 6, len(tokens))):
            if capital[i] and capital[j]:  # "United States of America", not "Ford Scorpio a"
                span = " ".join(tokens[i: j + 1])
                spans += [span, span[:-2]] if span.endswith("'s") else [span]
    out: list[str] = []
    walker.look_up(spans[:MAX_NAME_LOOKUPS])
    for span in dict.fromkeys(spans[:MAX_NAME_LOOKUPS]):
        entity_id = walker.target(span)
        if entity_id is not None and entity_id not in out and walker.slots(entity_id):
            out.append(entity_id)
    return out


def _named(walker: _Walker, subject_id: str, query: str, predicate: str | None = None) -> bool:
    """The question names the entity (its name or an alias, as whole words), or it is the
    user and the question speaks of the user ("my", "the user", "我"), or a relative of the
    user the question asks about ("my son" names "<user>'s son"). A question about someone
    else does not start at the user's own slots: their values lead anywhere."""
    if subject_id in walker.relatives:
        return True
    row = walker.entity(subject_id)
    if row is None:
        return False
    if row.get("entity_type") == "user":
        # A restated template ("slot:the company that produced X is {}") is the user's only
        # because the statement had no subject the extractor could read: it starts a chain
        # when the question shares its words, as a named subject would.
        template = predicate[len("slot:"):] if predicate and predicate.startswith("slot:") else None
        return refers_to_user(query) or bool(template and words(template) & words(query))
    return names_entity(query, [row["name"], *walker.reads.aliases_of(subject_id)])


def _paths(walker: _Walker, start: tuple) -> list[list[Hop]]:
    """Simple paths of current values from a start group, at most ``max_hops`` values on."""
    out: list[list[Hop]] = []

    def extend(path: list[Hop], seen: set[str]) -> None:
        out.append(path)
        if len(out) >= MAX_PATHS or len(path) > walker.max_hops:
            return
        nxt = walker.target(path[-1].row["value"], path[-1].row)
        if nxt is None or nxt in seen or walker.hidden(path[-1].row):
            return
        groups = walker.slots(nxt, path[-1].row)
        if len(path) < walker.max_hops:  # each next path follows its value (see above): looked up together
            walker.look_up([g[2][0]["value"] for g in groups])
        for group in groups:
            if len(out) >= MAX_PATHS:
                return
            extend(path + [walker.hop(group)], seen | {nxt})

    extend([walker.hop(start)], {start[2][0]["subject_id"]})
    return out


def _place(walker: _Walker, ranked: list, chains: list[tuple[int, Chain]], query: str, q: np.ndarray,
           vectors: Callable[[list[Hop]], None]) -> tuple[list, dict]:
    """Each chain's end just above its head (or, for a head that was not retrieved, from
    the bottom) and above the groups before it that it may pass: chain members, groups
    that state no current value, groups about things the question does not name, and
    direct groups scoring below the chain."""
    order = list(ranked)
    via: dict[str, list[dict]] = {}
    placed: set[tuple] = set()
    # Asked through a role the question does not ask for ("我姐现在那家公司的总部在哪个城市？"), the
    # start's own slots are no answer: where the sister lives does not block her company's city.
    through = asks_through(query)
    for _, chain in sorted(chains, key=lambda c: c[0]):
        end = chain.hops[chain.end].group
        key = slot_key(end[2][0])
        if key in placed:
            continue
        members = {slot_key(h.row) for h in chain.hops[: chain.end]}
        was = next((k for k, g in enumerate(order) if slot_key(g[2][0]) == key), len(order))
        order = [g for g in order if slot_key(g[2][0]) != key and g[2][0]["id"] != end[2][0]["id"]]
        head = slot_key(chain.hops[0].row)
        at = next((k for k, g in enumerate(order) if slot_key(g[2][0]) == head), len(order))
        while at > 0:
            before = order[at - 1]
            k = slot_key(before[2][0])
            # A group that states no current value (the old job the user left) answers nothing
            # a chain could demote.
            own = through and before[2][0]["subject_id"] == chain.hops[0].row["subject_id"]
            blocks = k not in members and not own and walker.current(before) is not None and (
                k in placed or _named(walker, before[2][0]["subject_id"], query, before[2][0]["predicate"]))
            if blocks and chain.relevance is None:
                vectors(chain.hops)
                chain.relevance = prefix_similarity(chain.hops, q)[chain.end]
            if not blocks or before[1] < chain.relevance:
                at -= 1
            else:
                break
        at = min(at, was)  # never below where it stood on its own
        if end[1] < 0:  # reached outside the retrieved groups: it answers through its head
            head_group = chain.hops[0].group
            end = (head_group[0], head_group[1], end[2], end[3])
        order.insert(at, end)
        placed.add(key)
        via[end[2][0]["id"]] = [
            dict(belief_id=h.row["id"], predicate=h.row["predicate"], value=h.row["value"], subject=h.subject)
            for h in chain.hops[: chain.end]
        ]
    return order, via
