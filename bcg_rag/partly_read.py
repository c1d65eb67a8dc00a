"""Evidence read for one slot that may speak of another.

A long message is often read for one thing and says another the extractor missed: "Plot
twist: I'm back at Larkspur Books. Pemberton restructured… Dickens the cat remembered me"
is read for the cat; for where the user works it is as unread as any raw text. Search
treats such a message like an unread one when it checks the best belief for newer updates
(``unstructured._newer_unread``). Short messages are left read: tried on every message read
for another slot, 14 read questions were lost over 36 sets for 2 never-read ones gained.
"""

from __future__ import annotations

import re

# The end of a sentence: a long message has at least ``LONG_MESSAGE`` of them.
SENTENCE_END = re.compile(r"[.!?。！？]+(?:\s|$)|[。！？]")
LONG_MESSAGE = 3


def shown_by(groups: list) -> set[str]:
    """The evidence the groups already quote or stand on."""
    out: set[str] = set()
    for g in groups:
        out.update(e["evidence_id"] for e in g.supporters + g.refuters)
        for a in g.alternatives:
            out.update(e["evidence_id"] for e in a.get("refuted_by", []) + a.get("supporters", []))
    return out


def other_groups_evidence(groups: list, relevance: dict[str, float], skip: set[str] = frozenset(),
                          other_slot: bool = False) -> list[dict]:
    """The evidence entries (among the hits) that the groups after the best stand on and that
    the best group does not show, nor ``skip`` lists; with ``other_slot``, only those of groups
    whose predicate is not the best group's."""
    if not groups:
        return []
    best, skip = groups[0], shown_by(groups[:1]) | set(skip)
    entries = {e["evidence_id"]: e for g in groups[1:] if not (other_slot and g.predicate == best.predicate)
               for e in g.supporters + g.refuters if e["evidence_id"] in relevance and e["evidence_id"] not in skip}
    return list(entries.values())


def long_read_for_other_slots(groups: list, relevance: dict[str, float], listed: set[str]) -> list[str]:
    """The long messages (among the hits, not ``listed`` already) that the other groups stand
    on for a slot other than the best group's and that the best group does not show."""
    return [e["evidence_id"] for e in other_groups_evidence(groups, relevance, listed, other_slot=True)
            if len(SENTENCE_END.findall(str(e["text"]))) >= LONG_MESSAGE]
