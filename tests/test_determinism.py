"""Same memory, same query, same result, order included: 200 queries twice in this
process and twice in a second one, against one memory built from structured and text
events of 20 users (real MiniLM, real Chroma); and the same answers from a memory built
again from the same events. Ties in ranking are broken by ids and the
nearest-neighbour index answers identically once built, so nothing may differ."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bcg_rag import BeliefMemory

BENCH = Path(__file__).parent / "bench"
sys.path.insert(0, str(BENCH))
import scale  # noqa: E402
import scale_data  # noqa: E402

USERS = 20
QUERIES = 200


def build(path: Path) -> Path:
    mem = BeliefMemory.open(path, scale.policy("minilm"), clock=lambda: scale.NOW)
    structured = list(scale_data.structured(1500, USERS))
    for start in range(0, len(structured), 100):
        mem.observe_many(structured[start : start + 100])
    messages = list(scale_data.messages(500, USERS, seed=7))
    for start in range(0, len(messages), 100):
        mem.add_messages(messages[start : start + 100])
    mem.close()
    return path


@pytest.fixture(scope="module")
def memory_dir(tmp_path_factory) -> Path:
    pytest.importorskip("sentence_transformers")
    return build(tmp_path_factory.mktemp("determinism") / "memory")


def _plain(x):
    return json.loads(json.dumps(x))  # tuples as lists, as the other process writes them


def _same(a, b) -> bool:
    """Equal in ids, values and order; scores equal to 1e-6. Another process may embed the
    query with another number of torch threads, which moves a score in its 8th digit (seen
    when a test before this one had loaded the model): that is not a different result."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-6)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def test_same_queries_twice_in_one_process_and_in_another(memory_dir, tmp_path):
    first, second = scale.determinism(memory_dir, "minilm", QUERIES, USERS)
    assert len(first) == QUERIES
    answered = sum(1 for groups, _, _ in first if groups)
    assert answered >= QUERIES * 0.9, answered  # the queries reach beliefs: the test compares something
    assert first == second

    out = tmp_path / "other.json"
    env = dict(os.environ, HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    subprocess.run(
        [sys.executable, str(BENCH / "scale.py"), "determinism", "--dir", str(memory_dir), "--embedder", "minilm",
         "--queries", str(QUERIES), "--users", str(USERS), "--out", str(out)],
        check=True, env=env, timeout=600,
    )
    other = json.loads(out.read_text())
    assert other[0] == other[1]
    differing = [i for i, (a, b) in enumerate(zip(_plain(first), other[0])) if not _same(a, b)]
    assert not differing, f"{len(differing)} of {QUERIES} results differ across processes, first at query {differing[0]}"


def test_a_memory_built_again_the_same_way_answers_the_same(memory_dir, tmp_path):
    again = build(tmp_path / "again")
    first, _ = scale.determinism(memory_dir, "minilm", QUERIES, USERS)
    second, _ = scale.determinism(again, "minilm", QUERIES, USERS)
    assert [i for i, (a, b) in enumerate(zip(first, second)) if a != b] == []
