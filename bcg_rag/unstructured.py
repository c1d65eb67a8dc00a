"""Unstructured memory: the nearest evidence that no returned belief stands on.

Plain retrieval would answer from it, so search never hides it: a statement the extractor
read nothing in comes back beside the beliefs, and first when it is the nearest evidence of
all, when there is no belief at all, when the question asks about the user (or a relative)
and no belief is about them while the statement speaks of them, or when it is newer than
what the best belief stands on and about the same thing (an update the extractor could
not read), or when the question asks through an organisation and a later statement names it
("which city is my sister's company in?": ``threads.py``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np

from .asked import asked_subjects, asks_a_day, asks_recent, of_a_known_kind, relatives_asked, speaks_of_relation, speaks_of_unanswered
from .extract.races import PB_SUFFIX
from .extract.text import has_cjk, writes_in_lower_case
from .figures import asks_figure, mark_latest_figure
from .groups import held_in
from .models import HIDDEN_TEXT, WEAKER_SOURCES
from .naming import names_every, names_something, names_start_of, only_asks, self_as_subject, statement_reader
from .partly_read import long_read_for_other_slots, other_groups_evidence, shown_by
from .relevance import STATEMENT_SLOTS, is_wh_question, memory_lexicon, named_in_question
from .render import status
from .threads import asks_through, chain_rows, en_names, named


def unstructured_memory(memory: Any, query: str, hits: list, relevance: dict[str, float], claimed: set[str],
                        groups: list, user_id: str, agent_id: str | None,
                        unread: tuple[float, ...], stands_on: set[str] = frozenset(),
                        context: str | None = None, reads: Any = None,
                        asked_kind: frozenset[str] = frozenset()) -> tuple[list[dict], bool]:
    """The unstructured rows (newest first) and whether they are to be read first. Rows
    that no claim was read from (or long messages read for another slot: ``partly_read``)
    and that may update the best group's stated value
    (``_newer_unread``; ``unread`` is its similarity threshold and relevance margin) are
    marked ``newer_than_belief``; the newest row stating a figure asked for, ``latest_figure``;
    rows that speak of the subject the question asks about
    when no group is about it (``asked.speaks_of_unanswered``), ``about_asked``; rows that
    take a question asked through an organisation one step further (``threads.chain_rows``),
    ``continues_chain``; rows said in the question's ``context`` when the best group is not
    held there, ``in_asked_context``. ``asked_kind`` is the question's ``answer_kind``, which
    ``search`` has computed.
    Rows in ``stands_on`` (claims on a returned belief) are the groups' and are left out, unless
    no group is about whom the question asks (then they are rows like any other).
    ``reads``: the search's ``SearchReads`` (rows and names it has read)."""
    # "Where does the user live?" answered only by groups about Tom and Jess: the beliefs
    # do not answer it (``speaks``). Their own evidence may still speak of the user in a part
    # the extractor did not read ("Priya drinks 3 matchas a day. meanwhile me on my 4th black
    # coffee"): it stays among the raw rows, as a plain retriever would have it.
    speaks = speaks_of_unanswered(memory, user_id, query, [g.best.subject_id for g in groups], reads) if groups else None
    # The best group asserts nothing and is of another kind than the one asked (her ended "Norway
    # trips", asked where Aoife works): it is no "no answer"; its messages are raw text like any other.
    mute = (shown_by(groups[:1]) if groups and groups[0].current is None and groups[0].of_asked_kind is False
            and of_a_known_kind(groups[0].predicate) else set())
    stands_on, claimed = set(stands_on) - mute, claimed - mute
    groups_own = (shown_by(groups) - mute) | stands_on
    others = groups_own if speaks is not None else set()  # shown, yet about someone else than asked
    rows = _unstructured(memory, hits, relevance, set() if speaks is not None else groups_own, user_id, agent_id, reads)
    # The nearest evidence of all is what plain retrieval would answer from. When the
    # extractor read nothing in it and it is more relevant than every returned belief, the
    # raw text is read first; where it made claims, the beliefs ranked them already. A question
    # the user asked states nothing ("any tips for getting metal dust out of hair?"): it is
    # shown, not read before a belief it outranks only by its words.
    top = hits[0][0] if hits else None
    top_row = next((u for u in rows if u["id"] == top), None)
    first = (top_row is not None and top not in claimed and not only_asks(top_row["text"])
             and relevance[top] > max((_comparable_relevance(g, relevance) for g in groups), default=-1.0)
             and not (groups and groups[0].relevance >= relevance[top] - ACCOUNTED_MARGIN
                      and (accounted(groups[0], top_row) or superseded(memory, groups[0], top_row))))
    # A belief of the kind the question asks for ("哪家健身房": an organisation) outranks a nearer
    # text that names nothing of any kind ("练腿第二天下楼梯像企鹅"): such a text cannot be the answer.
    # (English in lower case names nothing by its capitals, so there the text may still come first.)
    first = first and not (groups and groups[0].of_asked_kind and groups[0].current is not None
                           and (has_cjk(top_row["text"]) or not writes_in_lower_case(top_row["text"]))
                           and not names_something(memory, top_row["text"])
                           and speaks_of_relation(memory, query) is None  # "what does my husband do?" is not the user's
                           and groups[0].best.subject_id in asked_subjects(memory, user_id, query, [groups[0].best.subject_id]))
    # When the nearest raw text beats every belief, the best belief is no answer either: texts
    # newer than it (below) would be updates of the wrong thing, read before the nearest.
    nearest_first = first
    first = first or (not groups and bool(rows)) or bool(mute and rows)  # no belief at all: the raw evidence is all there is
    # Asked for a birthday, the best belief holds no day (a daycare, an age): what was said is read first.
    first = first or bool(groups and rows and groups[0].of_asked_kind is False and asks_a_day(asked_kind))
    # Beliefs whose every stated value the question names answer nothing: "乌龟" is not the
    # name asked for by "用户的乌龟叫什么名字？"; the raw "慢慢今天醒了" may be.
    stated = {g.best.id: g.current.value for g in groups if g.current is not None}
    first = first or (bool(rows) and bool(stated) and is_wh_question(query) and names_every(memory, query, stated))
    # Rows with claims were read: their beliefs speak (unless they speak of someone else only).
    not_read = [u for u in rows if u["id"] not in claimed or u["id"] in others]
    # A plan asserted below the line says nothing of now: "我可能要搬去成都了" leaves where one
    # lives to what else was said ("西安今天又是雾霾"), not to "no answer".
    first = first or (bool(groups) and groups[0].current is None and str(groups[0].predicate).startswith("plan:")
                      and any(u["text"] != HIDDEN_TEXT for u in not_read))
    speaks = speaks if rows else None  # the user's own unread "I'm stuck here in Kansas City" may answer
    about = {u["id"] for u in not_read if speaks is not None and u["text"] != HIDDEN_TEXT and speaks(u["text"])
             and (u["id"] not in others or self_as_subject(memory, u["text"]))}
    if about:
        rows = [dict(u, about_asked=True) if u["id"] in about else u for u in rows]
    # No belief is about the subject asked (the groups answer for the husband, asked about
    # the user): the raw evidence is read first, as a plain retriever would.
    first = first or (speaks is not None and bool(not_read))
    # Asked within a context the best belief is not held in (the office's green tea, asked
    # at the gym), or with no belief at all: what was said in that context and not read is
    # what to answer from, before newer texts said elsewhere (the laptop at home).
    if context and (not groups or not held_in(memory, context, groups[0].contexts, groups[0].context_key)):
        here = {u["id"] for u in not_read if u["text"] != HIDDEN_TEXT and u.get("context")
                and memory.context_group(u["context"]) == memory.context_group(context)}
        if here:
            rows = [dict(u, in_asked_context=True) if u["id"] in here else u for u in rows]
            first = True
    further = _chain_further(memory, user_id, query, groups, rows, reads) if rows and asks_through(query) else set()
    # A hop said before the best belief's newer value of the asked kind is no further answer:
    # "Jake got hired at Fernhill Games" is older than "Fernhill moved their whole HQ to Denver".
    further = {u["id"] for u in rows if u["id"] in further and not (groups and superseded(memory, groups[0], u))}
    # The best belief is a chain's end with a value (search followed the hops in beliefs):
    # only a text newer than what it stands on may take the chain further ("I have an interview at
    # Adyen next week" is older than "Adyen flew the new joiners to the Amsterdam HQ").
    if further and groups and groups[0].current is not None and getattr(groups[0], "via", None):
        stated = max((str(s["timestamp"]) for s in groups[0].supporters), default="")
        further = {u["id"] for u in rows if u["id"] in further and str(u["timestamp"]) > stated}
    if further:
        rows = [dict(u, continues_chain=True) if u["id"] in further else u for u in rows]
        first = True
    # An update of the best belief answers nothing when that belief is not about whom the
    # question asks (``speaks``): asked "where do i work?", Kofi's new employer is no answer.
    # A long message read for another slot ("Dickens the cat remembered me") may still say what
    # the extractor missed about this one ("I'm back at Larkspur Books"): unread for it.
    other = (visible_rows(memory, long_read_for_other_slots(groups, relevance, {u["id"] for u in rows}),
                          relevance, user_id, agent_id, reads) if groups and speaks is None else [])
    newer = (_newer_unread(memory, user_id, groups[0], not_read + other, relevance, *unread, recent=asks_recent(query))
             if groups and not nearest_first and speaks is None else set())
    if newer:
        rows = rows + [u for u in other if u["id"] in newer]
        rows = [dict(u, newer_than_belief=True) if u["id"] in newer else u for u in rows]
        first = True
        rows = chain_before_update(rows)
    # Asked for a figure (how many, how often, 多少), the newest text stating one on it (figures.py),
    # also in a message read for another slot ("上半年一共读了11本，最喜欢的是《置身事内》").
    group_rows = []
    if asks_figure(query):
        read_elsewhere = other_groups_evidence(groups, relevance, {u["id"] for u in rows})
        group_rows = visible_rows(memory, [e["evidence_id"] for e in read_elsewhere], relevance, user_id, agent_id, reads)
    rows, before_quote = mark_latest_figure(memory, query, rows, {u["id"] for u in not_read} - newer, groups, relevance,
                                            group_rows, ASKED_FIT)
    first = first or before_quote
    return rows, first


def chain_before_update(rows: list[dict]) -> list[dict]:
    """The rows, with ``continues_chain`` taken off those said before the first unread update
    of the best belief (``newer_than_belief``): such a hop continues the old value's chain
    ("Quorra Labs is based in Utrecht" is no answer once "Kofi is at Brightmoor now" is newer)."""
    updates = [str(u["timestamp"]) for u in rows if u.get("newer_than_belief")]
    if not updates:
        return rows
    since = min(updates)
    return [{k: v for k, v in u.items() if k != "continues_chain"}
            if u.get("continues_chain") and not u.get("newer_than_belief") and str(u["timestamp"]) < since else u
            for u in rows]


def _comparable_relevance(group: Any, relevance: dict[str, float]) -> float:
    """A group's relevance, as compared with a raw text's. A restated statement's slot
    ("slot:Q: when does the new season start A: {}") is named by its own statement, so the
    fit of its predicate to the question counts that text a second time: its evidence's
    relevance is what it has. (With the bonus, in a memory of 724 such statements, the
    nearest raw text, the asked question's own, lost to another question's slot.)"""
    if not group.predicate.startswith(STATEMENT_SLOTS):
        return group.relevance
    ids = [e["evidence_id"] for e in group.supporters + group.refuters]
    return max((relevance[i] for i in ids if i in relevance), default=-1.0)


# The best group accounts for the nearest raw text only when nearly as relevant: in a long
# memory, a value of some other subject's slot is named in many texts.
ACCOUNTED_MARGIN = 0.1
# A slot whose predicate is at least this near the question (``predicate_fit``, a cosine) is
# what it asks for; below it, a reader answers from the slot's quote rather than its value.
ASKED_FIT = 0.1


def accounted(group: Any, row: dict) -> bool:
    """The group already knows what ``row`` says: the row names one of its outdated values
    (or its best one, taken back) and is no newer than the group's newest evidence. "my 2015 civic is making a
    grinding noise" is older than the "traded in the civic for an Outback" that made the
    civic outdated; read first, it would bring the old car back."""
    entries = group.supporters + group.refuters + [e for a in group.alternatives
                                                   for e in a.get("refuted_by", []) + a.get("supporters", [])]
    if not entries or str(row["timestamp"]) > max(str(e["timestamp"]) for e in entries):
        return False
    # Whole words, and a value that is a name, not a number: "18" or "2020" is in many texts.
    values = {str(i): str(a["value"]) for i, a in enumerate(group.alternatives) if status(a) == "outdated"}
    # The best value itself, when later evidence took it back and nothing replaced it, and the
    # slot is what the question asks for: "I pay for Ironleaf Gym" is older than "cancelled my
    # Ironleaf membership" (asked how one exercises, the old text may still say more).
    fit = getattr(group, "predicate_fit", None)
    if group.current is None and group.best.confidence < 0 and (fit is None or fit >= ASKED_FIT):
        values["best"] = str(group.best.value)
    values = {k: v for k, v in values.items() if not v.replace(" ", "").isdigit()}
    return bool(named_in_question(row["text"], values))


def superseded(memory: Any, group: Any, row: dict) -> bool:
    """A newer stated value of the asked kind in a slot a move changes supersedes an older
    text naming a place or organisation: asked "which city do I live in?", the belief
    "lives in Shenzhen" said in March outranks "Hangzhou's rain again" said in January,
    however near that text is to the question (a reader of dated quotes takes the newer).
    In any other single-valued slot of the asked kind, it supersedes any older text."""
    if group.current is None or not group.of_asked_kind:
        return False
    newest = max((str(s["timestamp"]) for s in group.supporters), default="")
    if str(row["timestamp"]) >= newest or row["text"] == HIDDEN_TEXT:
        return False
    if named_by_a_move(group.predicate):
        return names_something(memory, row["text"])
    # Any other one-at-a-time slot of the asked kind: its newer value is the answer a reader
    # of dated quotes gives ("升运营主管了" in July over February's "现在是正式的运营专员").
    return memory.policy.is_functional(group.predicate)


def _chain_further(memory: Any, user_id: str, query: str, groups: list, rows: list[dict], reads: Any = None) -> set[str]:
    """The rows that take the question's chain further, by the names they share, from what
    is said of the subject asked about: the rows that speak of the relative it asks about
    ("my sister") or name the person it names ("Jake"), those search marked as about the
    subject, and what the best belief stands on, with its value (unless rows speak of the
    subject asked about and the belief is someone else's: asked about "my wife's company",
    the user's own new employer is no link); else the most relevant row."""
    asked_names = en_names(query)
    speaks = speaks_of_relation(memory, query)
    starts = [u for u in rows if u.get("about_asked") or (speaks is not None and speaks(u["text"]))
              or any(named(n, u["text"]) for n in asked_names)]
    values: list[str] = []
    if groups and starts and speaks is not None and groups[0].best.subject_id not in relatives_asked(memory, user_id, query, reads):
        groups = []
    if groups:
        starts += [{"id": e["evidence_id"], "text": e["text"], "timestamp": e["timestamp"]}
                   for e in groups[0].supporters + groups[0].refuters]
        values += [str(groups[0].current.value)] if groups[0].current is not None else []
    starts = [s for s in starts if s["text"] != HIDDEN_TEXT] or [max(rows, key=lambda u: u["relevance"])]
    visible = [u for u in rows if u["text"] != HIDDEN_TEXT]
    return {u["id"] for u in chain_rows(query, starts, visible, values)}


def _unstructured(memory: Any, hits: list, relevance: dict[str, float], shown: set[str], user_id: str,
                  agent_id: str | None, reads: Any = None) -> list[dict]:
    """The nearest evidence that no returned belief stands on, newest first: what a plain
    vector retriever would have passed and the beliefs do not show (the extractor read
    nothing in it, or something the question is not about). Questions, requests and small
    talk ("what's a good podcast?", "lol it's raining again") state nothing about the user
    and are left out: they would only push the beliefs down."""
    rows = visible_rows(memory, [eid for eid, _ in hits if eid not in shown], relevance, user_id, agent_id, reads)
    reader = statement_reader(memory)
    rows = [r for r in rows if r["text"] == HIDDEN_TEXT or reader(r["text"], r["id"])]
    return sorted(rows, key=lambda r: (r["timestamp"], r["id"]), reverse=True)


# Slots whose new value a change names by its name: a place one moves to (where one was born
# does not move), an employer one moves to, a phone one switches to ("I'll just replace the
# battery for now" after "my iphone 12 battery is at 79%" is no new phone).
NAMED_BY_A_MOVE = frozenset({"lives_in", "works_in", "headquarters", "located_in", "works_at", "uses_phone"})


def named_by_a_move(predicate: str) -> bool:
    """A slot whose new value a text names (``NAMED_BY_A_MOVE``), or a race's best time, which a
    newer text names by a time ("shaved 40 seconds off, 26:35 now", races.py)."""
    return predicate in NAMED_BY_A_MOVE or predicate.endswith(PB_SUFFIX)


def _newer_unread(memory: Any, user_id: str, group: Any, rows: list[dict], relevance: dict[str, float],
                  threshold: float, margin: float, named_similarity: float = 1.0, recent: bool = False) -> set[str]:
    """Unstructured rows newer than the newest supporter of ``group``'s stated value (of
    any evidence it shows, when it states none) and about the same thing: naming its
    subject (for the user's own slot: not opening with a relative), at most ``margin`` less
    relevant to the query than its most relevant supporter (one outside the hits counts as
    the least relevant hit), and with a cosine of the stored vectors of at least
    ``threshold`` to one of its supporters; for a slot that states nothing, naming a place,
    person or organisation instead of the cosine; asked what is new (``recent``) of a slot of
    many values, any (Spanish said in other words than the Japanese stated before)."""
    # What the group stands on: its supporters, or, when it states nothing (the value was
    # refuted: "quit keto"), the refuters too; a later "back on keto" may be unread.
    shown = group.supporters if group.current is not None else group.supporters + group.refuters
    if not shown or not rows:
        return set()
    newest = max(str(s["timestamp"]) for s in shown)
    # A statement about someone other than the user names them; the user's own need not.
    # (Naming a relative by the relation too, "my sis", was tried: +1 read question, -3 never read.)
    named = None if group.subject == user_id else str(group.subject).casefold()
    floor = min(relevance.values())
    near = max(relevance.get(s["evidence_id"], floor) for s in shown) - margin
    # The subject's own name is no other place or employer named ("gift ideas for Odile?")
    own_name = re.compile(re.escape(str(group.subject)), re.IGNORECASE) if named is not None else None

    def unnamed(text: str) -> str:
        return own_name.sub(" ", text) if own_name is not None else text

    newer = [u for u in rows if str(u["timestamp"]) > newest and u["text"] != HIDDEN_TEXT
             and (named in u["text"].casefold() if named is not None else not _led_by_relative(memory, u["text"]))]
    later = [u for u in newer if u["relevance"] >= near]
    if not later and (group.current is None or not newer):
        return set()
    if group.current is None:
        # Nothing stands in the slot ("终于从北京搬出来了"): the next value is said in words
        # unlike the refutation's ("杭州的夏天也太热了"), so a newer relevant statement that
        # names something may be it ("在家躺平的第二周" names nothing: the slot stays empty);
        # the vectors' test is for a value still standing.
        return {u["id"] for u in later if names_something(memory, u["text"])}
    # A later text that names the stated value and says a change speaks of it, in whatever
    # words ("left halden & rowe!!! now at Cobalt Legal" after "i'm a paralegal at Halden &
    # Rowe": the vectors of the two messages are far apart); one that only names it ("brindlecove's
    # headquarters is in Rotterdam") is no update. A number is named by too many texts to count.
    value, changes = str(group.current.value), memory_lexicon(memory).change_markers.anywhere
    changing = [u for u in newer if changes.search(u["text"])]
    says_change = [u for u in changing if u["relevance"] >= near]
    # Naming the stated value and saying a change is about the slot however far its words are
    # from the question's ("blue heron got bought by some chain … Ritual Roasters is my go-to
    # now", asked "the user's favourite coffee place?"): no relevance needed.
    names_it = {u["id"] for u in changing if not value.replace(" ", "").isdigit()
                and named_in_question(u["text"], {"v": value})}
    naming = set(names_it)
    # A place or an employer ("lives in Rotterdam"): a later text that says a change and names
    # another of the kind may be the move the extractor could not read ("moved again 🙃 Utrecht
    # this time"); a home moved to a district ("搬到徐汇了") is no new employer. So in any
    # one-at-a-time slot whose value is a name ("favourite singer: 周杰伦"), with a name of any
    # kind ("现在心里排第一的是陈奕迅").
    moved = named_by_a_move(group.predicate)
    if moved or memory.policy.is_functional(group.predicate) and names_something(memory, value):
        kind = group.predicate if moved else None
        naming |= {u["id"] for u in says_change if u["id"] not in names_it and names_something(memory, unnamed(u["text"]), kind)}
    ids = [s["evidence_id"] for s in shown] + [u["id"] for u in later]
    vecs = memory.index.vectors(user_id, ids)
    unit = {i: np.asarray(v) / max(float(np.linalg.norm(v)), 1e-12) for i, v in vecs.items()}
    own = [unit[s["evidence_id"]] for s in shown if s["evidence_id"] in unit]
    similar = {u["id"]: max(float(o @ unit[u["id"]]) for o in own) for u in later if u["id"] in unit and own}
    # A place or an employer: a later text about the same thing (``named_similarity``) that
    # names another and not the stated one may be the move said in words the lexicon lacks
    # ("first week in Hamburg done" after "berlin winters are grey"); naming the stated one
    # without a change word is about it, not a move ("Brindle Labs had a nice logo though").
    if named_by_a_move(group.predicate):
        naming |= {u["id"] for u in later if similar.get(u["id"], -1.0) >= named_similarity
                   and u.get("source_type") not in WEAKER_SOURCES and not VISIT.search(u["text"])
                   and not names_start_of(u["text"], value) and names_something(memory, unnamed(u["text"]), group.predicate)}
    # (as relevant as the group itself, give or take the margin: not "got it, thanks" said after)
    many = recent and not memory.policy.is_functional(group.predicate)
    recent_ids = {u["id"] for u in newer if u["relevance"] >= group.relevance - margin} if many else set()
    # A place or an employer is said by naming one: a text near in words that names none is
    # about the same person, not a move ("birthday gift ideas for Odile?" after "Odile just moved
    # to Galway").
    if named_by_a_move(group.predicate):
        later_text = {u["id"]: u["text"] for u in later}
        similar = {i: cos for i, cos in similar.items() if names_something(memory, unnamed(later_text[i]), group.predicate)}
    return naming | {i for i, cos in similar.items() if cos >= threshold} | recent_ids


@lru_cache(maxsize=8)
def _relative_lead(lexicon: Any) -> re.Pattern[str]:
    return re.compile(rf"^\W*(?:(?:my|our)\s+|我的|我们的|我|咱)?(?:{lexicon.relative_regex.pattern})(?![a-z])", re.IGNORECASE)


def _led_by_relative(memory: Any, text: str) -> bool:
    """The statement opens with a relative of the user as its subject ("老公跳槽了！现在在安泰
    保险", "my sister finally quit"): it updates their slots, not the user's own."""
    return bool(_relative_lead(memory_lexicon(memory)).match(text))


# A trip is no move: "上周去上海出差", "weekend trip to Rome".
VISIT = re.compile(r"\b(?:trip|visit(?:ed|ing)?|vacation|holiday|travell?(?:ed|ing)?|flight|conference|weekend\s+in)\b"
                   r"|出差|旅游|旅行|度假|去玩|玩了|逛", re.IGNORECASE)


def visible_rows(memory: Any, ids: list[str], relevance: dict[str, float], user_id: str, agent_id: str | None,
                 reads: Any = None) -> list[dict]:
    rows = reads.evidence(ids) if reads is not None else memory.store.get_nodes("evidence", ids)
    out = []
    for eid in ids:
        row = rows.get(eid)
        if row is None or row["user_id"] != user_id:  # a vector whose evidence is gone
            continue
        if row["private"] and agent_id is not None and row["agent_id"] != agent_id:
            row = dict(row, text=HIDDEN_TEXT)
        out.append(dict(row, relevance=relevance[eid]))
    return out


