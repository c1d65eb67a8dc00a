"""The evaluation runner: our retrieval and its baselines, side by side, one process.

Every system gets a fresh memory per case (so that a case's ``functional`` list and
clock cannot leak into another), the same embedder, and the same events in the
same ``ingest_order``. A system answers a question with a ranked list of answers;
the first one is scored.

Systems:
- ``bcg``: structured claims when the case has them (texts otherwise go through the
  offline extractor), answered by ``search``: the top group's current belief.
- ``bcg-text``: texts and timestamps only, through the offline extractor.
- ``vector``: plain top-k over the statement texts in the same Chroma index; the
  answer is the top statement.
- ``recency``: the most recent of the top-k similar statements (as of the question's
  ``as_of``, when it has one).
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

from ..embedders import Embedder
from ..memory import BeliefMemory
from ..policy import Policy
from ..render import count_tokens, render_groups
from ..search import search, search_evidence
from .cases import Case, CaseEvent, Question, matches

SYSTEMS = ("bcg", "bcg-text", "vector", "recency")
TOP_K = 5


@dataclass
class QuestionResult:
    case_id: str
    kind: str
    lang: str
    system: str
    question: str
    answers: list[str]  # ranked; "" stands for "no asserted answer"
    correct: bool
    stale: bool
    outdated_flagged: bool | None  # bcg only: the stale value is shown as outdated / below the line
    attributed: bool | None  # the statement that justifies the expected answer supports the top answer
    tokens: int
    latency_ms: float


@dataclass
class Report:
    systems: list[str]
    results: list[QuestionResult] = field(default_factory=list)
    ingest: dict[str, dict] = field(default_factory=dict)  # system -> {events, seconds}

    def summary(self) -> dict:
        """Per system, overall and per kind: accuracy@1, stale@1, outdated-flagged,
        attribution, mean context tokens, latency p50/p95, ingest throughput."""
        out: dict = {}
        for system in self.systems:
            rows = [r for r in self.results if r.system == system]
            by_kind = defaultdict(list)
            for r in rows:
                by_kind[r.kind].append(r)
            ing = self.ingest.get(system, {})
            out[system] = {
                "all": _metrics(rows),
                "kinds": {k: _metrics(v) for k, v in sorted(by_kind.items())},
                "ingest_events_per_s": (ing.get("events", 0) / ing["seconds"]) if ing.get("seconds") else None,
            }
        return out

    def to_dict(self) -> dict:
        return {"systems": self.systems, "summary": self.summary(), "ingest": self.ingest,
                "results": [asdict(r) for r in self.results]}


def _metrics(rows: list[QuestionResult]) -> dict:
    if not rows:
        return {}
    lat = sorted(r.latency_ms for r in rows)
    flagged = [r.outdated_flagged for r in rows if r.outdated_flagged is not None]
    attributed = [r.attributed for r in rows if r.attributed is not None]
    return {
        "n": len(rows),
        "accuracy@1": sum(r.correct for r in rows) / len(rows),
        "stale@1": sum(r.stale for r in rows) / len(rows),
        "outdated_flagged": (sum(flagged) / len(flagged)) if flagged else None,
        "attribution": (sum(attributed) / len(attributed)) if attributed else None,
        "tokens": statistics.fmean(r.tokens for r in rows),
        "latency_p50_ms": _percentile(lat, 50),
        "latency_p95_ms": _percentile(lat, 95),
    }


def _percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


# --- running -------------------------------------------------------------------------------
def run(
    cases: Sequence[Case],
    *,
    systems: Sequence[str] = SYSTEMS,
    policy: Policy | None = None,
    embedder: Embedder | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Score every system on every case. ``progress(n)`` is called after each case."""
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        raise ValueError(f"unknown systems {sorted(unknown)}; known: {SYSTEMS}")
    base = policy or Policy.default()
    report = Report(list(systems))
    for system in systems:
        report.ingest[system] = {"events": 0, "seconds": 0.0}
    for case in cases:
        case_policy = base.with_overrides(
            {"functional": {"predicates": list(base.section("functional")["predicates"]) + list(case.functional)}}
        )
        for system in systems:
            memory = _memory(case_policy, embedder)
            try:
                started = time.perf_counter()
                _ingest(memory, case, system)
                report.ingest[system]["seconds"] += time.perf_counter() - started
                report.ingest[system]["events"] += len(case.events)
                for q in case.questions:
                    report.results.append(_ask(memory, case, q, system))
            finally:
                memory.close()
        if progress:
            progress(1)
    return report


def _memory(policy: Policy, embedder: Embedder | None) -> BeliefMemory:
    from ..index import EvidenceIndex

    index = EvidenceIndex.from_policy(policy, None)
    if embedder is not None:
        index.embedder = embedder
    return BeliefMemory.in_memory(policy, index=index)


def _ingest(memory: BeliefMemory, case: Case, system: str) -> None:
    for a in case.aliases:
        if system.startswith("bcg"):
            memory.add_alias(a.user_id, a.alias, a.canonical)
    events = case.ordered_events()
    if system == "bcg" and all(e.claims for e in events):
        memory.observe_many([_observe_kwargs(e, claims=True) for e in events])
    elif system.startswith("bcg"):
        structured = [e for e in events if e.claims] if system == "bcg" else []
        if structured:
            memory.observe_many([_observe_kwargs(e, claims=True) for e in structured])
        texts = [e for e in events if not (system == "bcg" and e.claims)]
        # One message at a time, in ingest order: that is how a chat arrives.
        for e in texts:
            memory.add_message(**_observe_kwargs(e, claims=False))
    else:
        memory.observe_many([_observe_kwargs(e, claims=False) for e in events])


def _observe_kwargs(e: CaseEvent, claims: bool) -> dict:
    kw = dict(text=e.text, user_id=e.user_id, timestamp=e.timestamp, source=e.source or None,
              source_type=e.source_type, context=e.context, agent_id=e.agent_id)
    if claims:
        kw["claims"] = list(e.claims)
    return kw


def _ask(memory: BeliefMemory, case: Case, q: Question, system: str) -> QuestionResult:
    now = case.now_for(q)
    started = time.perf_counter()
    if system.startswith("bcg"):
        groups = search(memory, q.question, user_id=q.user_id, context=q.context, as_of=q.as_of, now=now, top_k=TOP_K)
        latency = (time.perf_counter() - started) * 1000
        answers, flagged, supporters = _bcg_answers(groups, q)
        tokens = count_tokens(render_groups(groups, query=q.question))
    else:
        raw = search_evidence(memory, q.question, user_id=q.user_id, top_k=TOP_K)
        hits = raw
        if system == "recency":
            pool = [h for h in hits if q.as_of is None or h["timestamp"] <= q.as_of] or hits
            hits = sorted(pool, key=lambda h: h["timestamp"], reverse=True)
        latency = (time.perf_counter() - started) * 1000
        answers = [h["text"] for h in hits]
        flagged = None
        supporters = [hits[0]["text"]] if hits else []
        tokens = count_tokens("\n\n".join(h["text"] for h in raw))  # what a plain retriever passes: raw top-k
    top = answers[0] if answers else ""
    asserted = [a for a in answers if a]
    # expect [] means "no answer" only when nothing is listed in expect_all either.
    correct = (matches(top, q.expect) if q.expect else (top == "" or bool(q.expect_all))) and all(
        any(matches(a, group) for a in asserted) for group in q.expect_all
    )
    justifying = _justifying_texts(case, q)
    attributed = bool(set(supporters) & justifying) if q.expect and justifying else None
    return QuestionResult(
        case.id, case.kind, case.lang, system, q.question, answers, correct, matches(top, q.stale),
        flagged if q.stale else None, attributed, tokens, latency,
    )


def _bcg_answers(groups, q: Question) -> tuple[list[str], bool, list[str]]:
    """Ranked answers from resolved groups: asserted current values first, in group
    order; a question whose best group asserts nothing gets "" (no answer) on top."""
    answers: list[str] = []
    shown_outdated: list[str] = []
    supporters: list[str] = []
    for g in groups:
        if g.current is not None:
            if not answers or answers == [""]:
                supporters = [s["text"] for s in g.supporters]
            answers.append(g.current.value)
            answers += [a["value"] for a in g.alternatives if not a.get("outdated")]
        elif not answers:
            answers.append("")
        shown_outdated += [a["value"] for a in g.alternatives if a.get("outdated")]
    if answers and answers[0] == "" and len(answers) > 1:
        answers = answers[:1] + [a for a in answers[1:] if a]
    flagged = any(matches(v, q.stale) for v in shown_outdated) and not matches(answers[0] if answers else "", q.stale)
    return answers, flagged, supporters


def _justifying_texts(case: Case, q: Question) -> set[str]:
    """Statements whose claim value or text carries the expected answer, for the asker."""
    out = set()
    for e in case.events:
        if e.user_id != q.user_id:
            continue
        if any(c.stance > 0 and matches(c.value, q.expect) for c in e.claims) or (not e.claims and matches(e.text, q.expect)):
            out.add(e.text)
    return out


# --- reports -------------------------------------------------------------------------------
METRIC_COLUMNS = ("accuracy@1", "stale@1", "outdated_flagged", "attribution", "tokens", "latency_p50_ms", "latency_p95_ms")


def markdown_table(report: Report) -> str:
    s = report.summary()
    lines = ["| system | n | " + " | ".join(METRIC_COLUMNS) + " | ingest ev/s |",
             "|---" * (len(METRIC_COLUMNS) + 3) + "|"]
    for system, d in s.items():
        m = d["all"]
        lines.append(f"| {system} | {m.get('n', 0)} | " + " | ".join(_fmt(m.get(c)) for c in METRIC_COLUMNS)
                     + f" | {_fmt(d['ingest_events_per_s'])} |")
    kinds = sorted({k for d in s.values() for k in d["kinds"]})
    lines += ["", "accuracy@1 per kind (stale@1 in brackets):", "",
              "| kind | " + " | ".join(s) + " |", "|---" * (len(s) + 1) + "|"]
    for k in kinds:
        cells = []
        for system in s:
            m = s[system]["kinds"].get(k, {})
            cells.append(f"{_fmt(m.get('accuracy@1'))} ({_fmt(m.get('stale@1'))})" if m else "-")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if v < 10 else f"{v:.1f}"
    return str(v)


def write_reports(report: Report, out_dir, name: str = "eval") -> dict[str, str]:
    """JSON (everything), Markdown (the tables) and a PNG chart (accuracy@1 per kind)."""
    import json
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / f"{name}.json", "markdown": out / f"{name}.md", "png": out / f"{name}.png"}
    paths["json"].write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    paths["markdown"].write_text(f"# {name}\n\n" + markdown_table(report), encoding="utf-8")
    s = report.summary()
    kinds = sorted({k for d in s.values() for k in d["kinds"]}) + ["all"]
    fig, ax = plt.subplots(figsize=(max(6, len(kinds) * 0.9), 4))
    width = 0.8 / max(1, len(s))
    for i, (system, d) in enumerate(s.items()):
        ys = [(d["all"] if k == "all" else d["kinds"].get(k, {})).get("accuracy@1", 0) or 0 for k in kinds]
        ax.bar([x + i * width for x in range(len(kinds))], ys, width, label=system)
    ax.set_xticks([x + width * (len(s) - 1) / 2 for x in range(len(kinds))], kinds, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("accuracy@1")
    ax.set_title(name)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside the bars, not over them
    fig.tight_layout()
    fig.savefig(paths["png"], dpi=110)
    plt.close(fig)
    return {k: str(v) for k, v in paths.items()}
