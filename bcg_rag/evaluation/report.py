"""Results, their summary, and the reports (JSON, Markdown, PNG).

Per system and per kind (kinds are free-form): accuracy@1, stale@1, outdated-flagged,
attribution, context tokens, search latency p50/p95; per system the ingest time. Every
kind names its best baseline, and a bcg system "wins" a kind only when it is strictly
above that one.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

BCG_PREFIX = "bcg"


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
    meta: dict = field(default_factory=dict)  # pack size, memories, embedding and wall seconds

    def summary(self) -> dict:
        """Per system: overall and per-kind metrics, ingest seconds and events/s."""
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
                "ingest_seconds": ing.get("seconds"),
                "ingest_events_per_s": (ing.get("events", 0) / ing["seconds"]) if ing.get("seconds") else None,
            }
        return out

    def to_dict(self) -> dict:
        return {"systems": self.systems, "meta": self.meta, "summary": self.summary(),
                "best_baselines": best_baselines(self.summary()), "ingest": self.ingest,
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


def is_baseline(system: str) -> bool:
    return not system.startswith(BCG_PREFIX)


def best_baselines(summary: dict) -> dict[str, dict]:
    """Per kind (and ``all``): the baseline with the highest accuracy@1 (the first listed
    on a tie), and the bcg systems strictly above it."""
    kinds = sorted({k for d in summary.values() for k in d["kinds"]}) + ["all"]
    out = {}
    for kind in kinds:
        def acc(system: str):
            m = summary[system]["all"] if kind == "all" else summary[system]["kinds"].get(kind, {})
            return m.get("accuracy@1")

        scored = [(acc(s), s) for s in summary if is_baseline(s) and acc(s) is not None]
        if not scored:
            continue
        best_acc = max(a for a, _ in scored)
        best = next(s for a, s in scored if a == best_acc)
        ours = {s: acc(s) for s in summary if not is_baseline(s) and acc(s) is not None}
        out[kind] = {"baseline": best, "accuracy@1": best_acc,
                     "bcg_wins": [s for s, a in ours.items() if a > best_acc],
                     "bcg_below": [s for s, a in ours.items() if a < best_acc]}
    return out


# --- Markdown ------------------------------------------------------------------------------
METRIC_COLUMNS = ("accuracy@1", "stale@1", "outdated_flagged", "attribution", "tokens", "latency_p50_ms", "latency_p95_ms")


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def markdown_table(report: Report) -> str:
    """The overall table, then accuracy@1 per kind with the best baseline in bold."""
    s = report.summary()
    best = best_baselines(s)
    lines = ["| system | n | " + " | ".join(METRIC_COLUMNS) + " | ingest s | ingest ev/s |",
             "|---" * (len(METRIC_COLUMNS) + 4) + "|"]
    for system, d in s.items():
        m = d["all"]
        lines.append(f"| {system} | {m.get('n', 0)} | " + " | ".join(_fmt(m.get(c)) for c in METRIC_COLUMNS)
                     + f" | {_fmt(d['ingest_seconds'])} | {_fmt(d['ingest_events_per_s'])} |")
    kinds = sorted({k for d in s.values() for k in d["kinds"]}) + ["all"]
    lines += ["", "accuracy@1 per kind (stale@1 in brackets); **bold**: the best baseline of the kind;"
              " 'above it': the bcg systems strictly above that baseline:", "",
              "| kind | n | " + " | ".join(s) + " | best baseline | above it |", "|---" * (len(s) + 4) + "|"]
    for k in kinds:
        cells, n = [], 0
        for system in s:
            m = s[system]["all"] if k == "all" else s[system]["kinds"].get(k, {})
            n = max(n, m.get("n", 0))
            cell = f"{_fmt(m.get('accuracy@1'))} ({_fmt(m.get('stale@1'))})" if m else "-"
            cells.append(f"**{cell}**" if k in best and best[k]["baseline"] == system else cell)
        b = best.get(k)
        tail = f"{b['baseline']} | {', '.join(b['bcg_wins']) or 'none'}" if b else "- | -"
        lines.append(f"| {k} | {n} | " + " | ".join(cells) + f" | {tail} |")
    meta = report.meta
    if meta:
        lines += ["", "run: " + ", ".join(f"{k} {_fmt(v)}" for k, v in meta.items())]
    return "\n".join(lines) + "\n"


def pack_markdown(reports: dict[str, Report]) -> str:
    """Accuracy@1 by pack size per kind (best baseline in bold), then cost by pack size."""
    labels = list(reports)
    summaries = {label: r.summary() for label, r in reports.items()}
    best = {label: best_baselines(s) for label, s in summaries.items()}
    systems = reports[labels[0]].systems
    kinds = sorted({k for s in summaries.values() for d in s.values() for k in d["kinds"]}) + ["all"]
    lines = []
    for k in kinds:
        lines += [f"accuracy@1, kind {k} (stale@1 in brackets; **bold**: best baseline at that pack size):", "",
                  "| system | " + " | ".join(f"pack {lab}" for lab in labels) + " |", "|---" * (len(labels) + 1) + "|"]
        for system in systems:
            cells = []
            for lab in labels:
                m = summaries[lab][system]["all"] if k == "all" else summaries[lab][system]["kinds"].get(k, {})
                cell = f"{_fmt(m.get('accuracy@1'))} ({_fmt(m.get('stale@1'))})" if m else "-"
                cells.append(f"**{cell}**" if best[lab].get(k, {}).get("baseline") == system else cell)
            lines.append(f"| {system} | " + " | ".join(cells) + " |")
        wins = [f"pack {lab}: {', '.join(best[lab][k]['bcg_wins']) or 'none'}" for lab in labels if k in best[lab]]
        lines += ["", "above the best baseline: " + "; ".join(wins), ""]
    lines += ["cost by pack size: ingest seconds (embedding excluded, shared), search latency p50 / p95 ms"
              " (query embedding excluded, cached):", "",
              "| system | " + " | ".join(f"pack {lab}" for lab in labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for system in systems:
        cells = []
        for lab in labels:
            d = summaries[lab][system]
            cells.append(f"{_fmt(d['ingest_seconds'])} s; {_fmt(d['all'].get('latency_p50_ms'))} / "
                         f"{_fmt(d['all'].get('latency_p95_ms'))} ms")
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    keys = [k for k in reports[labels[0]].meta if k != "pack"]
    lines += ["", "| pack | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
    for lab in labels:
        lines.append(f"| {lab} | " + " | ".join(_fmt(reports[lab].meta.get(k)) for k in keys) + " |")
    return "\n".join(lines) + "\n"


# --- files ---------------------------------------------------------------------------------
def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_reports(report: Report, out_dir, name: str = "eval") -> dict[str, str]:
    """JSON (everything), Markdown (the tables) and a PNG chart (accuracy@1 per kind)."""
    plt = _plt()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / f"{name}.json", "markdown": out / f"{name}.md", "png": out / f"{name}.png"}
    paths["json"].write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    paths["markdown"].write_text(f"# {name}\n\n" + markdown_table(report), encoding="utf-8")
    s = report.summary()
    kinds = sorted({k for d in s.values() for k in d["kinds"]}) + ["all"]
    fig, ax = plt.subplots(figsize=(max(6, len(kinds) * 0.9 + len(s) * 0.3), 4))
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


def write_pack_reports(reports: dict[str, Report], out_dir, name: str) -> dict[str, str]:
    """One JSON (every pack size), one Markdown (the by-size tables, then each size in
    full) and one PNG (accuracy@1 against pack size, one panel per kind)."""
    plt = _plt()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / f"{name}.json", "markdown": out / f"{name}.md", "png": out / f"{name}.png"}
    paths["json"].write_text(json.dumps({lab: r.to_dict() for lab, r in reports.items()}, ensure_ascii=False,
                                        indent=1), encoding="utf-8")
    body = [f"# {name}\n", pack_markdown(reports)]
    body += [f"## pack {lab}\n\n" + markdown_table(r) for lab, r in reports.items()]
    paths["markdown"].write_text("\n".join(body), encoding="utf-8")
    labels = list(reports)
    summaries = [r.summary() for r in reports.values()]
    kinds = sorted({k for s in summaries for d in s.values() for k in d["kinds"]}) + ["all"]
    fig, axes = plt.subplots(1, len(kinds), figsize=(3.2 * len(kinds) + 1.8, 3.6), squeeze=False)
    for ax, k in zip(axes[0], kinds):
        for system in reports[labels[0]].systems:
            ys = [((s[system]["all"] if k == "all" else s[system]["kinds"].get(k, {})).get("accuracy@1")) for s in summaries]
            ax.plot(range(len(labels)), [y if y is not None else float("nan") for y in ys], marker="o",
                    linestyle="-" if not is_baseline(system) else "--", label=system)
        ax.set_xticks(range(len(labels)), [f"{lab}" for lab in labels])
        ax.set_xlabel("records per memory")
        ax.set_ylim(0, 1.05)
        ax.set_title(k, fontsize=9)
    axes[0][0].set_ylabel("accuracy@1")
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(name, fontsize=10)
    fig.tight_layout()
    fig.savefig(paths["png"], dpi=110)
    plt.close(fig)
    return {k: str(v) for k, v in paths.items()}
