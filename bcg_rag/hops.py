"""Multi-hop answers over the retrieved groups: when the current value of one group
names the subject of another ("Maria works_at Bosch"; "Bosch headquarters Stuttgart"),
the second may answer the question through the first. Plain graph arithmetic over
what search retrieved; ``search`` calls ``follow_links``."""

from __future__ import annotations

import re
from typing import Any


class HopCue:
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
        own = self.words(second[0]["value"]) | self.words(subject_name(self.memory, second[0]["subject_id"]))
        new_words = self._evidence_words(second) - self._evidence_words(first) - own
        return bool(self.query & new_words)


def follow_links(memory: Any, ranked: list, user_id: str, hop_relevance: float, asserted, asks_for_hop,
                 query: str = "") -> tuple[list, dict]:
    """Multi-hop questions ("the headquarters of Maria's employer"). When the current value
    of one group names the subject of another retrieved group (Maria works_at Bosch;
    Bosch headquarters Stuttgart), that second group is itself relevant to the query (at
    least ``hop_relevance`` x the first one's relevance) and the query asks for it (see
    ``_HopCue``), the second answers the query through the first: it moves just above
    it, and ``via`` records the link.
    Outdated values are never followed. Plain graph arithmetic over what was retrieved."""
    by_subject: dict[str, list[int]] = {}
    for i, (_, _, rows, _) in enumerate(ranked):
        by_subject.setdefault(rows[0]["subject_id"], []).append(i)

    def groups_about(value: str) -> list[int]:
        return by_subject.get(memory.resolve_entity(user_id, value) or "", [])

    links: dict[int, int] = {}  # group -> the group whose current value names its subject
    for i, (_, rel, rows, _) in enumerate(ranked):
        if asserted(rows[0]):
            for j in groups_about(rows[0]["value"]):
                if (j != i and j not in links and asserted(ranked[j][2][0]) and ranked[j][1] >= hop_relevance * rel
                        and asks_for_hop(rows, ranked[j][2])):
                    links[j] = i
    if not links:
        return ranked, {}

    def chain(i: int) -> list[int]:  # i, its parent, its grandparent... (cycle-safe)
        out = [i]
        while out[-1] in links and links[out[-1]] not in out:
            out.append(links[out[-1]])
        return out

    # Each chain's deepest end takes the place of the chain's head, but a hop may only add
    # an answer, never demote a direct one: it moves up past members of its own chain and
    # past groups about things the question does not name (Siemens' headquarters, reached
    # through Maria's former employer), never past a group about something it names ("the
    # capital of Japan" stays above Japan's official language, however that is linked).
    asked = _normalise(query)

    def direct(k: int) -> bool:
        subject_id = ranked[k][2][0]["subject_id"]
        row = memory.store.get_node("entity", subject_id)
        return row is None or row.get("entity_type") == "user" or _normalise(row["name"]) in asked

    placed_before: dict[int, list[int]] = {}
    for i in sorted(links, key=lambda i: -len(chain(i))):
        members = set(chain(i))
        head = chain(i)[-1]
        if head < i and all(k in members or not direct(k) for k in range(head + 1, i)):
            placed_before.setdefault(head, []).append(i)
    moved = {i for items in placed_before.values() for i in items}
    order = []
    for i in range(len(ranked)):
        if i not in moved:
            order += [j for j in placed_before.get(i, []) if j not in order] + [i]
    via = {
        ranked[i][2][0]["id"]: [
            dict(belief_id=ranked[p][2][0]["id"], predicate=ranked[p][2][0]["predicate"], value=ranked[p][2][0]["value"],
                 subject=subject_name(memory, ranked[p][2][0]["subject_id"]))
            for p in reversed(chain(i)[1:])
        ]
        for i in links
    }
    return [ranked[i] for i in order], via


def subject_name(memory: Any, subject_id: str) -> str:
    row = memory.store.get_node("entity", subject_id)
    return row["name"] if row else subject_id



def _normalise(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())
