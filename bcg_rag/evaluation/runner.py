"""The evaluation runner: our retrieval and its baselines, side by side, one process.

Cases are answered in *units*, each from its own memories (``pack.py``): by default one
unit per case (cases with identical inputs share one), so a case's ``functional`` list,
aliases and clock cannot leak into another; with ``pack=N``, N consecutive source
records in one memory of one user. In a unit, each bcg system gets its own memory and
the baselines share one plain memory of the raw statements; all use the same embedder
(each text embedded once per run), the same top-k and the same events in the same order.
A system answers a question with a ranked list of answers; the first one is scored.

Systems: ``bcg``, ``bcg-text`` (``systems.py``); ``vector``, ``recency``, ``recency2``,
``restatement``, ``llamaindex`` (``baselines.py``). A question's clock (decay) is its own
``now``, else the latest event of its memory (``Unit.clock``; for one case, ``Case.now_for``):
a packed memory is asked after everything it was told.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

from ..embedders import Embedder, embedder_from_config
from ..errors import ConfigError, InvalidInputError
from ..policy import Policy
from .baselines import BASELINES, PLAIN_SYSTEMS, LlamaIndexBaseline, ask_plain, llamaindex_available
from .cases import Case, Question, matches
from .pack import Unit, isolated_units, pack_label, packed_units
from .report import QuestionResult, Report, markdown_table, pack_markdown, write_pack_reports, write_reports
from .systems import BCG_SYSTEMS, TOP_K, Answer, SharedEmbeddings, ask_bcg, ingest_bcg, observe_kwargs, open_memory

SYSTEMS = BCG_SYSTEMS + BASELINES

__all__ = [
    "SYSTEMS", "TOP_K", "Report", "QuestionResult", "run", "run_packs", "check_systems", "available_systems",
    "markdown_table",
    "pack_markdown", "write_reports", "write_pack_reports",
]


def check_systems(systems: Sequence[str]) -> list[str]:
    """The systems in the order given, without repeats; an unknown name raises."""
    out = list(dict.fromkeys(systems))
    unknown = [s for s in out if s not in SYSTEMS]
    if unknown:
        raise InvalidInputError(f"unknown system(s) {', '.join(unknown)}; known: {', '.join(SYSTEMS)}")
    if not out:
        raise InvalidInputError(f"no system to evaluate; known: {', '.join(SYSTEMS)}")
    if "llamaindex" in out and not llamaindex_available():
        raise ConfigError("the llamaindex baseline needs llama-index-core and llama-index-vector-stores-chroma"
                          " (pip install 'bcg-rag[llama-index,dev]')")
    return out


def available_systems() -> list[str]:
    """Every system whose dependencies are installed (``llamaindex`` needs llama-index)."""
    return [s for s in SYSTEMS if s != "llamaindex" or llamaindex_available()]


def shared_embeddings(policy: Policy, embedder: Embedder | None = None) -> SharedEmbeddings:
    if isinstance(embedder, SharedEmbeddings):
        return embedder
    return SharedEmbeddings(embedder or embedder_from_config(policy.section("embedder")))


def run(
    cases: Sequence[Case],
    *,
    systems: Sequence[str] = SYSTEMS,
    policy: Policy | None = None,
    embedder: Embedder | None = None,
    pack: int | str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Score every system on every case. ``pack``: None (a memory per case), a number of
    records per memory, or ``"all"``. ``progress(n)`` is called as cases are done."""
    systems = check_systems(systems)
    base = policy or Policy.default()
    shared = shared_embeddings(base, embedder)
    if pack is None:
        units = isolated_units(cases)
    else:
        units = packed_units(cases, None if pack == "all" else int(pack))
    started, embed_before, embedded_before = time.perf_counter(), shared.seconds, shared.embedded
    shared.prime([e.text for u in units for e in u.events] + [q.question for c in cases for q in c.questions])
    report = Report(systems, ingest={s: {"events": 0, "seconds": 0.0} for s in systems})
    policies: dict[tuple, Policy] = {}
    for unit in units:
        if unit.functional not in policies:
            predicates = list(base.section("functional").get("predicates", [])) + list(unit.functional)
            policies[unit.functional] = base.with_overrides({"functional": {"predicates": predicates}})
        _run_unit(unit, systems, policies[unit.functional], shared, report)
        if progress:
            progress(len(unit.cases))
    report.meta = {
        "pack": "none" if pack is None else pack_label(None if pack == "all" else int(pack)),
        "memories": len(units),
        "records": sum(u.records for u in units),
        "events_per_memory": (sum(len(u.events) for u in units) / len(units)) if units else 0,
        "questions": sum(u.n_questions for u in units),
        "texts_embedded": shared.embedded - embedded_before,
        "embedding_s": shared.seconds - embed_before,
        "wall_s": time.perf_counter() - started,
    }
    return report


def run_packs(
    cases: Sequence[Case],
    sizes: Sequence[int | None],
    *,
    systems: Sequence[str] = SYSTEMS,
    policy: Policy | None = None,
    embedder: Embedder | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Report]:
    """``run`` at each pack size (None: all records in one memory), one shared embedding cache."""
    base = policy or Policy.default()
    shared = shared_embeddings(base, embedder)
    packed_units(cases, 1)  # refuse before any work
    return {
        pack_label(size): run(cases, systems=systems, policy=base, embedder=shared,
                              pack="all" if size is None else size, progress=progress)
        for size in sizes
    }


def _run_unit(unit: Unit, systems: list[str], policy: Policy, shared: SharedEmbeddings, report: Report) -> None:
    for system in (s for s in systems if s in BCG_SYSTEMS):
        memory = open_memory(policy, shared)
        try:
            started, embedding = time.perf_counter(), shared.seconds
            ingest_bcg(memory, system, unit.events, unit.aliases)  # may embed new names: not ingest time
            _count_ingest(report, [system], len(unit.events),
                          time.perf_counter() - started - (shared.seconds - embedding))
            for case, q, asked in unit.questions():
                report.results.append(_score(case, q, system, ask_bcg(memory, asked, unit.clock(asked))))
        finally:
            memory.close()
    baselines = [s for s in systems if s in BASELINES]
    if not baselines:
        return
    memory = open_memory(policy, shared)
    llama = None
    try:
        started = time.perf_counter()
        memory.observe_many([observe_kwargs(e, claims=False) for e in unit.events])
        plain_s = time.perf_counter() - started
        _count_ingest(report, baselines, len(unit.events), plain_s)
        if "llamaindex" in baselines:
            started = time.perf_counter()
            llama = LlamaIndexBaseline(memory, shared)
            _count_ingest(report, ["llamaindex"], 0, time.perf_counter() - started)
        plain = [s for s in baselines if s in PLAIN_SYSTEMS]
        for case, q, asked in unit.questions():
            answers = ask_plain(memory, asked, plain) if plain else {}
            if llama is not None:
                answers["llamaindex"] = llama.ask(asked, unit.clock(asked))
            for system in baselines:
                report.results.append(_score(case, q, system, answers[system]))
    finally:
        if llama is not None:
            llama.close()
        memory.close()


def _count_ingest(report: Report, systems: list[str], events: int, seconds: float) -> None:
    for system in systems:
        report.ingest[system]["events"] += events
        report.ingest[system]["seconds"] += seconds


def _score(case: Case, q: Question, system: str, a: Answer) -> QuestionResult:
    top = a.answers[0] if a.answers else ""
    asserted = [x for x in a.answers if x]
    # expect [] means "no answer" only when nothing is listed in expect_all either.
    correct = (matches(top, q.expect) if q.expect else (top == "" or bool(q.expect_all))) and all(
        any(matches(x, group) for x in asserted) for group in q.expect_all
    )
    justifying = _justifying_texts(case, q)
    attributed = bool(set(a.supporters) & justifying) if q.expect and justifying else None
    return QuestionResult(
        case.id, case.kind, case.lang, system, q.question, a.answers, correct, matches(top, q.stale),
        a.flagged if q.stale else None, attributed, a.tokens, a.latency_ms,
    )


def _justifying_texts(case: Case, q: Question) -> set[str]:
    """Statements whose claim value or text carries the expected answer, for the asker."""
    out = set()
    for e in case.events:
        if e.user_id != q.user_id:
            continue
        if any(c.stance > 0 and matches(c.value, q.expect) for c in e.claims) or (not e.claims and matches(e.text, q.expect)):
            out.add(e.text)
    return out
