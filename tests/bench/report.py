"""One Markdown report, with PNGs, from what ``make bench`` wrote under out/:

- out/bench/ingest-*.json, search-*.json, open-*.json (``test_bench_scale.py``);
- out/bench/token-budget.json (tokens vs accuracy, builtin set);
- out/bench_search.json and out/bench_server.json (search beside its baselines);
- out/bench_eval/ (the long-memory evaluation; linked, it has its own reports).

``python tests/bench/report.py [OUT_DIR]`` writes OUT_DIR/bench/report.md (default out/).
A missing input is a missing section, not an error: the report says what was not run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def _load(path: Path):
    return json.loads(path.read_text()) if path.exists() else None


def _table(header: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join("-" if v is None else str(v) for v in row) + " |" for row in rows]
    return out + [""]


def _ms(p: dict | None) -> str:
    return f"{p['p50']} / {p['p95']}" if p and p.get("p50") is not None else "-"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


def _save(fig, ax, path: Path) -> None:
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)


def _plot_throughput(ingests: dict, path: Path) -> bool:
    if not ingests:
        return False
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, r in sorted(ingests.items()):
        ax.plot([d["decile"] for d in r["deciles"]], [d["events_per_s"] for d in r["deciles"]], marker="o", label=name)
    ax.set_xlabel("decile of the build")
    ax.set_ylabel("events / s")
    ax.set_title("Ingestion throughput per decile (dashed: embedding-bound rates)")
    for r in ingests.values():
        ax.axhline(r["embedding_bound_per_s"], linestyle="--", linewidth=0.6, color="grey")
    _save(fig, ax, path)
    return True


def _plot_latency(searches: dict, path: Path) -> bool:
    if not searches:
        return False
    plt = _pyplot()
    names = sorted(searches)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = range(len(names))
    bars = [("search_ms", "bcg search"), ("floor_ms", "floor: embed + index top-k"),
            ("raw_chroma_floor_ms", "floor: embed + raw Chroma top-k")]
    for offset, (key, label) in enumerate(bars):
        ax.bar([x + offset * 0.28 for x in xs], [(searches[n].get(key) or {}).get("p95") or 0 for n in names], width=0.28,
               label=f"{label} p95")
    ax.set_xticks([x + 0.28 for x in xs], names, rotation=20, fontsize=7)
    ax.set_ylabel("ms")
    ax.set_title("Warm search p95 against its floor")
    _save(fig, ax, path)
    return True


def _plot_tokens(rows: list | None, path: Path) -> bool:
    if not rows:
        return False
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [r["tokens_per_group"] for r in rows]
    for key in ("accuracy", "attributed"):
        ax.plot(xs, [r[key] for r in rows], marker="o", label=key)
    for r in rows:
        ax.annotate(str(r["budget"] or "none"), (r["tokens_per_group"], r["accuracy"]), fontsize=7)
    ax.set_xlabel("tokens per group")
    ax.set_ylim(0, 1.05)
    ax.set_title("Token budget: accuracy and attribution (builtin set)")
    _save(fig, ax, path)
    return True


def write(out: Path) -> Path:
    bench = out / "bench"
    bench.mkdir(parents=True, exist_ok=True)
    ingests = {p.stem[len("ingest-"):]: _load(p) for p in sorted(bench.glob("ingest-*.json"))}
    searches = {p.stem[len("search-"):]: _load(p) for p in sorted(bench.glob("search-*.json"))}
    opens = {p.stem[len("open-"):]: _load(p) for p in sorted(bench.glob("open-*.json"))}
    budget = _load(bench / "token-budget.json")
    lines = ["# bcg-rag benchmark report", "", "Written by `make bench` (`tests/bench/report.py`). Ratios matter; "
             "absolute times depend on the machine and its load.", ""]

    lines += ["## Ingestion", ""]
    if ingests:
        lines += _table(
            ["setting", "events", "events/s", "first decile", "last decile", "of it, writing what waited (s)", "last / first",
             "last / first, each against its embedding-only rate", "embedding-bound /s", "ratio to it", "entities",
             "peak RSS MB"],
            [[n, r["n"], r["events_per_s"], r["deciles"][0]["events_per_s"], r["deciles"][-1]["events_per_s"],
              r["deciles"][-1].get("final_flush_seconds", "-"), r["last_over_first"], r.get("last_over_first_vs_embedding", "-"), r["embedding_bound_per_s"],
              r["ratio_to_embedding_bound"], r.get("entities"),
              r["peak_rss_mb"]] for n, r in sorted(ingests.items())],
        )
        if _plot_throughput(ingests, bench / "throughput.png"):
            lines += ["![throughput per decile](throughput.png)", ""]
    else:
        lines += ["Not run.", ""]

    lines += ["## Search against its floor", ""]
    if searches:
        lines += _table(
            ["setting", "evidence", "users", "search p50 / p95 ms", "of it not the model", "floor (index) p50 / p95 ms",
             "ratio p50", "ratio p95", "floor (raw Chroma) p50 / p95 ms", "ratio p50", "ratio p95",
             "first search p50 / p95 ms", "open s"],
            [[n, r["evidence"], r["users"], _ms(r["search_ms"]),
              _ms(r["search_without_model_ms"]) if "search_without_model_ms" in r else "-",
              _ms(r["floor_ms"]), r["p50_ratio"], r["p95_ratio"],
              _ms(r["raw_chroma_floor_ms"]) if "raw_chroma_floor_ms" in r else "-", r.get("p50_ratio_raw_chroma", "-"),
              r.get("p95_ratio_raw_chroma", "-"), _ms(r["cold_first_search_ms"]), r["open_seconds"]]
             for n, r in sorted(searches.items())],
        )
        if _plot_latency(searches, bench / "latency.png"):
            lines += ["![search p95 vs floor](latency.png)", ""]
    else:
        lines += ["Not run.", ""]
    if opens:
        lines += ["### Opening a memory (fresh process)", ""]
        lines += _table(
            ["setting", "model load s", "open s", "first search s", "peak RSS MB without model", "with model",
             "after open + first search"],
            [[n, r["model_load_seconds"], r["open_seconds"], r["first_search_seconds"], r["peak_rss_mb_before_model"],
              r["peak_rss_mb_after_model"], r["peak_rss_mb_after_first_search"]] for n, r in sorted(opens.items())],
        )

    lines += ["## Tokens against accuracy", ""]
    if budget:
        cols = ["budget", "tokens_per_group", "tokens_per_question", "accuracy", "attributed", "answer_kept",
                "refuting_kept"]
        lines += _table(cols, [[r.get(c) if c != "budget" else (r["budget"] or "none") for c in cols] for r in budget])
        if _plot_tokens(budget, bench / "tokens.png"):
            lines += ["![tokens vs accuracy](tokens.png)", ""]
    else:
        lines += ["Not run.", ""]

    for title, name in (("Search beside its baselines", "bench_search.json"), ("Server mode", "bench_server.json")):
        data = _load(out / name)
        lines += [f"## {title}", ""]
        lines += [f"```json\n{json.dumps(data, indent=1)}\n```", ""] if data else ["Not run.", ""]
    evals = sorted((out / "bench_eval").glob("*.md")) if (out / "bench_eval").exists() else []
    lines += ["## Long-memory evaluation", ""]
    lines += [f"- [{p.name}](../bench_eval/{p.name})" for p in evals] or ["Not run."]
    path = bench / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "out"))
