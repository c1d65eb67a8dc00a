"""The bcg command over a memory directory (Typer's runner, real memory, hash embedder)."""

import json

from typer.testing import CliRunner

from bcg_rag.cli import app

runner = CliRunner()


def bcg(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result


def test_seed_story_through_the_cli(tmp_path):
    mem = tmp_path / "mem"
    assert bcg("init", "-m", mem, "--embedder", "hash").exit_code == 0
    r = bcg("observe", "-m", mem, "-u", "u_001", "-t", "2025-03-01T10:00:00", "--context", "topic:coffee", "我爱喝美式咖啡，每天都要来一杯")
    assert r.exit_code == 0 and "americano" in r.output and "new -> +0.600" in r.output
    r = bcg("observe", "-m", mem, "-u", "u_001", "-t", "2025-06-10T09:00:00", "--context", "topic:coffee", "最近开始戒咖啡因了，先把美式停掉")
    assert r.exit_code == 0 and "+0.600 -> -0.100" in r.output
    r = bcg("observe", "-m", mem, "-u", "u_001", "-t", "2025-06-11T09:00:00", "--context", "topic:coffee",
            "--subject", "u_001", "--predicate", "prefers_coffee_type", "--value", "latte", "I switched to latte")
    assert r.exit_code == 0
    r = bcg("ask", "-m", mem, "-u", "u_001", "--now", "2025-06-11T10:00:00", "现在喝什么咖啡")
    assert r.exit_code == 0 and "latte" in r.output and "OUTDATED" in r.output.upper()
    r = bcg("beliefs", "-m", mem, "-u", "u_001", "--json", "--as-of", "2025-04-01")
    assert [b["value"] for b in json.loads(r.output)] == ["americano"]
    r = bcg("explain", "-m", mem, "-u", "u_001", "--now", "2025-06-11T10:00:00")
    assert r.exit_code == 0 and "最近开始戒咖啡因了" in r.output
    assert bcg("validate", "-m", mem).exit_code == 0
    for fmt in ("json", "graphml"):
        out = tmp_path / f"g.{fmt}"
        assert bcg("export", "-m", mem, "--format", fmt, "-o", out).exit_code == 0 and out.stat().st_size > 0


def test_bad_input_is_a_clear_error(tmp_path):
    mem = tmp_path / "mem"
    bcg("init", "-m", mem, "--embedder", "hash")
    r = bcg("observe", "-m", mem, "-u", "u", "-t", "not a time", "hello")
    assert r.exit_code == 2 and "InvalidTimestampError" in r.output
    r = bcg("explain", "-m", mem, "no-such-belief")
    assert r.exit_code == 2 and "NotFoundError" in r.output


def test_eval_command_writes_reports(tmp_path):
    out = tmp_path / "out"
    r = bcg("eval", "--dataset", "builtin", "--limit", "3", "--embedder", "hash", "--out", out)
    assert r.exit_code == 0, r.output
    assert (out / "eval-builtin.md").exists() and (out / "eval-builtin.png").exists()


def test_lifecycle_commands(tmp_path):
    mem = tmp_path / "mem"
    bcg("init", "-m", mem, "--embedder", "hash")
    bcg("observe", "-m", mem, "-u", "u", "-t", "2025-01-01T00:00:00", "--subject", "u", "--predicate", "likes",
        "--value", "tea", "I like tea")
    r = bcg("maintain", "-m", mem, "--now", "2027-12-31T00:00:00")  # idle past archive_after_days (730)
    assert r.exit_code == 0 and "archive: 1" in r.output
    r = bcg("audit", "-m", mem)
    assert r.exit_code == 0 and "archive" in r.output
    bcg("observe", "-m", mem, "-u", "u", "-t", "2025-01-01T00:00:00", "--subject", "u", "--predicate", "likes",
        "--value", "cake", "--stance", "-0.1", "not sure about cake")
    r = bcg("review", "-m", mem, "-u", "u", "--now", "2025-01-02T00:00:00")
    assert r.exit_code == 0 and "cake" in r.output
    belief = json.loads(bcg("beliefs", "-m", mem, "-u", "u", "--json").output)[0]["id"]
    r = bcg("review", "-m", mem, "--belief", belief, "--verdict", "confirm", "--reviewer", "ana", "--now", "2025-01-02T00:00:00")
    assert r.exit_code == 0 and "->" in r.output
