"""Bad input that costs: a message or query of a megabyte is refused at once, a 40 KB message
costs about ten 4 KB ones, a timestamp from the future cannot pin a belief, and a directory this
process cannot write opens for reading and refuses every write. (The table of typed errors is
``test_bad_input.py``, whose ``Env`` these tests share.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_bad_input import NOW, Env

import bcg_rag
from bcg_rag import BeliefMemory, Claim, Policy
from bcg_rag import errors as E


# --- bounded cost ------------------------------------------------------------------------------
def _cpu(fn) -> float:
    """CPU seconds of this process: the machine is shared, so wall time measures the neighbours."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def test_a_1mb_message_and_query_are_refused_at_once(tmp_path):
    env = Env(tmp_path)
    try:
        env.msg("warm up")
        for fn in (lambda: env.msg("I live in Paris. " * 60_000), lambda: env.q("where do I live? " * 60_000),
                   lambda: env.obs(text="y" * 1_000_000)):
            start = time.perf_counter()
            with pytest.raises(E.InputTooLargeError):
                fn()
            assert time.perf_counter() - start < 0.1
    finally:
        env.close()


@pytest.mark.parametrize("shape", ["prose", "one word", "chinese", "list"])
def test_a_40kb_message_costs_ten_4kb_ones(shape, tmp_path):
    """Linear in the message: 40 KB cost about ten times 4 KB (at most 15), measured side by side
    (absolute CPU seconds are not a measure on this shared machine: one list message measured
    0.85 to 1.4 s, run after run, the code unchanged). Under a second on a quiet machine."""
    said = {
        "prose": "I live in Paris and my sister works at Oracle. I like tea, not coffee. " * 600,
        "one word": "I live in " + "a" * 40_000,
        "chinese": "我住在北京，我喜欢喝咖啡。" * 1100,
        "list": "I like " + ", ".join(f"thing{i}" for i in range(4500)),
    }[shape]

    def sized(kb: int, n: int) -> str:  # that many KB, whatever the script; first words differ (no duplicates)
        return f"{n} {said}".encode("utf-8")[: kb * 1000].decode("utf-8", "ignore")

    assert 39_990 <= len(sized(40, 1).encode("utf-8")) <= 40_000
    env = Env(tmp_path)
    try:
        env.msg("warm up: I live in Rome. 我住在罗马")  # loads the dictionaries (jieba) outside the timing
        result = []
        # The lesser of two runs each: the machine's noise only adds.
        small, large = (min(_cpu(lambda n=n: result.append(env.msg(sized(kb, n)))) for n in (kb, kb + 1)) for kb in (4, 40))
        assert not any(r.duplicate for r in result)
        assert large < 15 * small + 0.05 and large < 3.0, f"{shape}: {large:.2f} s of CPU for 40 KB, {small:.3f} s for 4 KB"
    finally:
        env.close()


def test_time_from_the_future_cannot_pin_a_belief(tmp_path):
    env = Env(tmp_path)
    try:
        with pytest.raises(E.FutureTimestampError):
            env.obs(text="I live in Atlantis", timestamp="2205-01-01", claim=Claim("I", "lives_in", "Atlantis"))
        env.obs(text="I moved to Berlin", timestamp="2025-06-01", claim=Claim("I", "lives_in", "Berlin"))
        assert env.m.beliefs("u")[0].value == "Berlin"
        # The skew is the policy's: a memory that replays a future-dated log can allow it.
        lenient = BeliefMemory.in_memory(Policy.from_dict({"embedder": {"kind": "hash"},
                                                           "limits": {"max_future_skew_days": 365000.0}}),
                                         clock=lambda: NOW)
        lenient.observe("I live in Atlantis", user_id="u", timestamp="2205-01-01", claim=Claim("I", "lives_in", "Atlantis"))
        lenient.close()
    finally:
        env.close()


# --- a directory this process cannot write -------------------------------------------------------
READ_ONLY_SCRIPT = r"""
import os, sys, warnings
from bcg_rag import BeliefMemory, ReadOnlyError
import bcg_rag.index, bcg_rag.search, bcg_rag.ingest, bcg_rag.forget, bcg_rag.review, bcg_rag.extract
import chromadb.api.rust
from bcg_rag.embedders import embedder_from_config
from bcg_rag.extract import extractor_from_config
embedder_from_config({"kind": "hash"})
extractor_from_config({"kind": "offline"}).extract("I like tea", user_id="u")
os.setgid(65534); os.setuid(65534)  # nobody: the directory is no longer writable
m = BeliefMemory.open(sys.argv[1], clock=lambda: "2025-07-01T00:00:00")
assert m.read_only
assert [b.value for b in m.beliefs("u")] == ["tea"]
assert m.search("tea", user_id="u")[0].best.value == "tea"
assert m.explain(m.beliefs("u")[0].id, user_id="u").supporters[0]["text"] == "I like tea"
refused = 0
for write in (lambda: m.observe("I like coffee", user_id="u", timestamp="2025-01-02"),
              lambda: m.add_message("I like coffee", user_id="u", timestamp="2025-01-02"),
              lambda: m.forget_user("u"), lambda: m.add_alias("u", "Bobby", "Bob"),
              lambda: m.archive(m.beliefs("u")[0].id)):
    try:
        write()
    except ReadOnlyError:
        refused += 1
m.close()
print("refused", refused)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="drops privileges to nobody to make the directory unwritable")
def test_a_read_only_directory_opens_for_reading_and_refuses_writes(tmp_path):
    path = Path("/tmp") / f"bcg-ro-{os.getpid()}-{tmp_path.name}"
    m = BeliefMemory.open(path, Policy.from_dict({"embedder": {"kind": "hash"}}), clock=lambda: NOW)
    m.observe("I like tea", user_id="u", timestamp="2025-01-01", claim=Claim("I", "likes", "tea"))
    m.close()
    try:
        for p in [path, *path.rglob("*")]:
            p.chmod(0o555 if p.is_dir() else 0o444)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(bcg_rag.__file__).parents[1]),
                                                          os.environ.get("PYTHONPATH", "")]))
        run = subprocess.run([sys.executable, "-c", READ_ONLY_SCRIPT, str(path)], capture_output=True, text=True,
                             env=env, timeout=300)
        assert run.returncode == 0, run.stderr[-3000:]
        assert run.stdout.split()[-1] == "5"
    finally:
        for p in [path, *path.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        import shutil

        shutil.rmtree(path, ignore_errors=True)
