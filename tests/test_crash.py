"""Crash atomicity: kill an ingestion call at every step, not by luck.

``tests/_crash_proc.py`` counts the steps of one call (every statement that can change
the database, every COMMIT, every vector-index write) and dies with ``os._exit`` at a
chosen one. For every step of observe, add_message and a batched add_messages, a fresh
copy of the same memory is killed there, reopened, and the same call retried: the
memory must then hold exactly what a clean run leaves (beliefs with their histories,
claims, evidence, vectors) and ``validate()`` must find nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bcg_rag import BeliefMemory, Claim

HERE = Path(__file__).parent
KILLED = 77


class Zygote:
    """One helper process that imports everything once and forks a child per request."""

    def __init__(self):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "_crash_proc.py"), "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=env,
        )

    def __call__(self, **request) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the crash helper died"
        answer = json.loads(line)
        assert "error" not in answer, answer["error"]
        return answer

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def zygote():
    z = Zygote()
    yield z
    z.close()


@pytest.mark.parametrize("scenario", ["observe", "add_message", "add_messages"])
def test_a_kill_at_every_step_then_a_retry_equals_a_clean_run(scenario, zygote, tmp_path):
    template = tmp_path / "template"
    assert zygote(dir=str(template), scenario=scenario, mode="setup")["exit"] == 0

    def fresh(name: str) -> str:
        target = tmp_path / name
        shutil.copytree(template, target)
        return str(target)

    clean = zygote(dir=fresh("clean"), scenario=scenario, mode="retry")
    assert clean["exit"] == 0 and clean["state"]["problems"] == []
    assert clean["state"]["beliefs"], "the scenario must create beliefs"
    steps = zygote(dir=fresh("count"), scenario=scenario, mode="kill", kill_at=0)["steps"]
    assert steps >= 3
    survived = 0
    for k in range(1, steps + 1):
        path = fresh(f"k{k}")
        killed = zygote(dir=path, scenario=scenario, mode="kill", kill_at=k)
        assert killed["exit"] == KILLED, f"step {k} of {steps} was not reached"
        after = zygote(dir=path, scenario=scenario, mode="retry")
        assert after["exit"] == 0
        assert after["state"] == clean["state"], f"{scenario}: killed at step {k} of {steps}"
        survived += 1
        shutil.rmtree(path)
    print(f"{scenario}: {survived} of {steps} kill points survived")
    assert survived == steps


def test_validate_reports_a_claim_that_is_not_linked(make_memory):
    m = make_memory()
    m.observe("I live in Paris", user_id="u", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Paris"))
    r = m.observe("I like tea", user_id="u", timestamp="2025-01-02", claim=Claim("I", "likes", "tea"))
    assert m.validate() == []
    (edge,) = m.store.edges_from([r.evidence_id], ["SUPPORTS"])
    m.store.delete_edges([(edge.src, edge.dst, edge.relation)])
    problems = m.validate()
    assert any("not linked" in p and r.evidence_id in p for p in problems), problems


def test_a_duplicate_message_completes_linking_that_a_crash_cut(make_memory):
    """Memories written before ingestion was atomic may hold a message whose restatement
    linking never ran: repeating the message completes it."""
    m = make_memory()
    first = m.add_message("The wifi password is alpha123", user_id="u", timestamp="2025-01-01")
    m.observe("The wifi password is beta456", user_id="u", timestamp="2025-02-01")  # stored, never linked
    assert len(m.beliefs("u")) == 0
    again = m.add_message("The wifi password is beta456", user_id="u", timestamp="2025-02-01")
    assert again.duplicate and not first.duplicate
    assert sorted(b.value for b in m.beliefs("u")) == ["alpha123", "beta456"]
    assert m.validate() == []


def test_acknowledged_evidence_survives_reopening(tmp_path):
    m = BeliefMemory.open(tmp_path / "m", index=None)
    ids = [m.observe(f"note {i}", user_id="u", timestamp="2025-01-01", source=f"s:{i}").evidence_id for i in range(5)]
    m.close()
    m = BeliefMemory.open(tmp_path / "m", index=None)
    assert set(ids) <= set(m.store.evidence_ids("u"))
    m.close()
