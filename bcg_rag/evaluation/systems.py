"""The memories under test and how each bcg system ingests and answers.

``bcg``: the cases' structured claims (texts without claims go through the offline
extractor), answered by ``search``. ``bcg-text``: texts and timestamps only, one message
at a time through ``add_message``, as a chat arrives. Both read the search result with
``bcg_answers``. The baselines (``baselines.py``) share one plain memory per unit.

Every memory of a run embeds through one ``SharedEmbeddings``: each distinct text (event,
question, entity name) is embedded once per run, whatever the number of systems, units
and pack sizes. Its time is reported apart from ingestion and search.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Iterable

from ..embedders import Embedder
from ..memory import BeliefMemory
from ..policy import Policy
from ..extract import restatement_diff
from ..render import count_tokens, render_evidence_rows, render_groups
from ..search import search
# WEAKER_SOURCES: below the user's own word (policy weights); ASKED_FIT: a slot's fit to the question
from ..unstructured import ASKED_FIT, WEAKER_SOURCES
from .cases import CaseEvent, Question, matches

TOP_K = 5
BCG_SYSTEMS = ("bcg", "bcg-text")


class SharedEmbeddings:
    """An embedder that remembers every text it embedded (same name and vectors as the
    model it wraps, so memories built with it are ordinary memories of that model)."""

    def __init__(self, inner: Embedder, batch: int = 256):
        self.inner, self.name, self.dim, self.batch = inner, inner.name, inner.dim, batch
        self.vectors: dict[str, list[float]] = {}
        self.seconds = 0.0
        self.embedded = 0

    def prime(self, texts: Iterable[str]) -> None:
        """Embed the texts not seen yet, in large batches."""
        todo = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        for start in range(0, len(todo), self.batch):
            self.embed(todo[start : start + self.batch])

    def embed(self, texts: list[str]) -> list[list[float]]:
        todo = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if todo:
            started = time.perf_counter()
            for text, vector in zip(todo, self.inner.embed(todo)):
                self.vectors[text] = vector
            self.seconds += time.perf_counter() - started
            self.embedded += len(todo)
        return [self.vectors[t] for t in texts]


def open_memory(policy: Policy, embedder: SharedEmbeddings) -> BeliefMemory:
    """A throwaway memory (SQLite in RAM, ephemeral Chroma) embedding through ``embedder``."""
    from ..index import EvidenceIndex

    index = EvidenceIndex.from_policy(policy, None)
    index.embedder = embedder
    return BeliefMemory.in_memory(policy, index=index)


def observe_kwargs(e: CaseEvent, claims: bool) -> dict:
    kw = dict(text=e.text, user_id=e.user_id, timestamp=e.timestamp, source=e.source or None,
              source_type=e.source_type, context=e.context, agent_id=e.agent_id)
    if claims:
        kw["claims"] = list(e.claims)
    return kw


def ingest_bcg(memory: BeliefMemory, system: str, events: list[CaseEvent], aliases: Iterable) -> None:
    """Aliases first, then the events in the given order: ``bcg`` writes the annotated
    claims in one batch (texts without claims follow as messages); ``bcg-text`` sends every
    text as a chat message, one at a time."""
    for a in aliases:
        memory.add_alias(a.user_id, a.alias, a.canonical)
    structured = [e for e in events if e.claims] if system == "bcg" else []
    if structured:
        memory.observe_many([observe_kwargs(e, claims=True) for e in structured])
    for e in events:
        if not (system == "bcg" and e.claims):
            memory.add_message(**observe_kwargs(e, claims=False))


@dataclass
class Answer:
    """What a system returned for one question."""

    answers: list[str]  # ranked; "" stands for "no asserted answer"
    flagged: bool | None  # bcg: the stale value is shown as outdated / below the line
    supporters: list[str]  # texts offered as the justification of the top answer
    tokens: int  # what the LLM would read
    latency_ms: float


def ask_bcg(memory: BeliefMemory, q: Question, now: str) -> Answer:
    started = time.perf_counter()
    result = search(memory, q.question, user_id=q.user_id, context=q.context, as_of=q.as_of, now=now, top_k=TOP_K)
    latency = (time.perf_counter() - started) * 1000
    answers, flagged, supporters = bcg_answers(result, q)
    return Answer(answers, flagged, supporters, count_tokens(context_text(result, q.question)), latency)


def bcg_answers(result: Any, q: Question) -> tuple[list[str], bool, list[str]]:
    """Ranked answers from a search result. When its raw evidence that no belief stands on
    holds the nearest evidence of all (``unstructured_first``), those texts come first,
    most relevant first, then the groups' answers; otherwise
    the groups' answers: asserted current values (and asserted alternatives) in group
    order, with "" (no answer) on top when the best group asserts nothing, then those
    texts; last, the quotes of the values stated (the rendering shows them: they count for
    "all of" questions, as a retriever's lower hits do)."""
    answers: list[str] = []
    shown_outdated: list[str] = []
    supporters: list[str] = []
    for g in result:
        if g.current is not None:
            if not answers or answers == [""]:
                supporters = [s["text"] for s in g.supporters]
                if (quote := _quote_read(g)) is not None:  # the quote, not the slot's value
                    answers.append(quote)
            # the value as the user said it beside the lexicon's (the rendering shows both)
            answers.append(f"{g.current.value} ({g.said})" if getattr(g, "said", None) else g.current.value)
            answers += [a["value"] for a in g.alternatives if a.get("status", "outdated" if a.get("outdated") else "also") == "also"]
        elif not answers:
            answers.append("")
        shown_outdated += [a["value"] for a in g.alternatives if a.get("outdated")]
    if answers and answers[0] == "" and len(answers) > 1:
        answers = answers[:1] + [a for a in answers[1:] if a]
    # Raw evidence that no belief stands on, when it holds the nearest of all: read as a
    # reader of the rendering would, the most relevant text first, unless a newer text
    # restates it with one span changed (then that newer value is the current one).
    # (Newest first throughout measured lower on the chat set: 0.447 against 0.516.)
    # Otherwise they follow the groups' answers: the LLM reads them too, as it reads a
    # plain retriever's lower hits (which count for that retriever's "all of" questions).
    unstructured = _read_order(getattr(result, "unstructured", None) or [], q.question)
    if getattr(result, "unstructured_first", False) and unstructured:
        answers = [u["text"] for u in unstructured] + [a for a in answers if a]
        supporters = [unstructured[0]["text"]]
    else:
        answers += [u["text"] for u in unstructured]
    # The quotes of the values stated are read too: asked "which languages?", the value
    # "French" quoted "I speak French and a bit of German" gives both (as a retriever's hit would).
    quoted = [s["text"] for g in result if g.current is not None for s in g.supporters]
    answers += [t for t in dict.fromkeys(quoted) if t not in answers]
    flagged = any(matches(v, q.stale) for v in shown_outdated) and not matches(answers[0] if answers else "", q.stale)
    return answers, flagged, supporters


# A question about the present ("where does she live now?", "用户现在住在哪？", "who was
# nominated this year?"): of the raw texts nearly as relevant as the best, a reader takes
# the newest, as it would from dated quotes; otherwise the most relevant.
_NOW = re.compile(r"\b(now|currently|these days|nowadays|lately|recently|at the moment|still|this (?:year|season|month|week))\b"
                  r"|现在|目前|如今|最近|这阵子|今年|本月|这个月|本周|这周",
                  re.IGNORECASE)
READ_MARGIN = 0.2  # relevance below the best raw text that still counts as "as relevant"
TIE_MARGIN = 0.05  # a newer text this close to the best, sharing its words, is the same thing updated
# A best group whose predicate is this far from what the question asks for (predicate_fit,
# a cosine) is read from its newest quote, as an LLM reading it would: asked "what school
# does Leo go to?", the belief "Leo: age 8" quoted "My son Leo is 8, he's in third grade at
# Maple Grove Elementary" answers Maple Grove. So is one whose value is not of the kind the
# question's words ask for (``of_asked_kind``): asked "which city does my brother live in?",
# "brother: owns barbecue place" quoted "my brother opened a barbecue place in Dalian" answers Dalian.
READ_FIT = ASKED_FIT


def _quote_read(g: Any) -> str | None:
    """The quote a reader answers from instead of the group's value: for a predicate far
    from the question, its newest quote; for a value not of the kind asked for, the newest
    quote that states that value (a later one may only confirm it in other words)."""
    fit = getattr(g, "predicate_fit", None)
    off_kind = getattr(g, "of_asked_kind", None) is False
    if not g.supporters or not (off_kind or fit is not None and fit < READ_FIT):
        return None
    newest = sorted(g.supporters, key=lambda s: (s["timestamp"], s["evidence_id"]), reverse=True)
    if fit is not None and fit < READ_FIT:
        return newest[0]["text"]
    return next((s["text"] for s in newest if matches(s["text"], [g.current.value])), None)


def _read_order(rows: list[dict], question: str = "") -> list[dict]:
    """The raw texts in the order a reader of the rendering takes them: those search marked
    as taking a chain question further, newest first; else those newer than the best belief,
    newest first; else those
    it marked as speaking of the subject asked about, most relevant first; else the most
    relevant, or a newer text within ``TIE_MARGIN`` of it that shares its words (for a
    question about the present, the newest of those within ``READ_MARGIN``); the user's own
    words before a record or a guess within ``READ_MARGIN``; else a newer text restating the
    most relevant one with one span changed."""
    rows = sorted(rows, key=lambda u: -u.get("relevance", 0.0))
    best = rows[0].get("relevance", 0.0) if rows else 0.0
    if rows and _NOW.search(question):
        near = [u for u in rows if u.get("relevance", 0.0) >= best - READ_MARGIN]
        near.sort(key=lambda u: (u["timestamp"], u.get("id", "")), reverse=True)
        rows = near + [u for u in rows if not any(u is n for n in near)]
    elif rows:  # a near tie about the same thing ("2 books a month", later "4 books a month"): the newest
        top = rows[0]
        tied = [u for u in rows[1:] if u.get("relevance", 0.0) >= best - TIE_MARGIN and u["timestamp"] > top["timestamp"]
                and len(_content_words(u["text"]) & _content_words(top["text"])) >= 2]
        if tied:
            latest = max(tied, key=lambda u: (u["timestamp"], u.get("id", "")))
            rows = [latest] + [u for u in rows if u is not latest]
    if rows and rows[0].get("source_type") in WEAKER_SOURCES:
        # The user's own words outweigh a record or a guess nearly as relevant (the rendering
        # types them), as they do in the beliefs.
        own = [u for u in rows
               if u.get("relevance", 0.0) >= best - READ_MARGIN and u.get("source_type") not in WEAKER_SOURCES]
        rows = own + [u for u in rows if not any(u is o for o in own)]
    for flag in ("continues_chain", "newer_than_belief", "latest_figure"):
        # marked by search as taking a question asked through an organisation further
        # (threads.py), or as newer than the best belief: the newest of them first
        marked = sorted((u for u in rows if u.get(flag)), key=lambda u: (u["timestamp"], u.get("id", "")), reverse=True)
        if marked:
            return marked + [u for u in rows if not u.get(flag)]
    about = [u for u in rows if u.get("about_asked") or u.get("in_asked_context")]
    if about:  # marked by search as speaking of the subject asked about, which no belief is, or said in the asked context
        return about + [u for u in rows if not (u.get("about_asked") or u.get("in_asked_context"))]
    if not rows:
        return rows
    top = rows[0]
    newer = [u for u in rows[1:] if u["timestamp"] > top["timestamp"] and restatement_diff(top["text"], u["text"])]
    if newer:
        latest = max(newer, key=lambda u: (u["timestamp"], u.get("id", "")))
        rows = [latest] + [u for u in rows if u is not latest]
    return rows


def _content_words(text: str) -> set[str]:
    """Words of four letters or more, and Chinese character pairs: what two texts share when
    they speak of the same thing."""
    text = text.casefold()
    return set(re.findall(r"[a-z0-9']{4,}", text)) | {a + b for run in re.findall(r"[\u4e00-\u9fff]+", text)
                                                       for a, b in zip(run, run[1:])}


def context_text(result: Any, query: str) -> str:
    """What the LLM reads: the rendered groups, plus the unstructured evidence when the
    renderer did not already include it."""
    text = render_groups(result, query=query)
    rows = [u for u in getattr(result, "unstructured", None) or [] if u["text"] not in text]
    if rows:
        text = "\n\n".join(p for p in (text, render_evidence_rows(rows)) if p)
    return text
