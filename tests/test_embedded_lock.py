"""Embedded mode is one process per directory, enforced; close releases everything."""

import os
import shutil
import signal
import socket
import subprocess
import sys

import pytest

from bcg_rag import BeliefMemory, BCGError, Claim, MemoryLockedError, Policy
from bcg_rag.locking import LOCK_FILE, holder
from bcg_rag.search import search_evidence

HASH = Policy.default().with_overrides({"embedder": {"kind": "hash"}})

HOLD = """
import sys, time
from bcg_rag import BeliefMemory
m = BeliefMemory.open(sys.argv[1], index=None)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
m.close() if len(sys.argv) > 3 else None
"""


def _hold(path, seconds=60.0, close=True):
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds)] + (["close"] if close else []),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held", proc.stderr.read()
    return proc


def test_another_process_is_refused_with_who_holds_it(tmp_path):
    path = tmp_path / "mem"
    proc = _hold(path)
    try:
        with pytest.raises(MemoryLockedError) as info:
            BeliefMemory.open(path, index=None)
        err = info.value
        assert isinstance(err, BCGError)
        assert err.pid == proc.pid and err.host == socket.gethostname()
        assert f"pid {proc.pid}" in str(err) and "server mode" in str(err) and "BeliefMemory.connect" in str(err)
    finally:
        proc.kill()
        proc.wait()


def test_a_lock_dies_with_its_process_and_is_taken_over(tmp_path):
    path = tmp_path / "mem"
    proc = _hold(path, close=False)
    os.kill(proc.pid, signal.SIGKILL)  # no close: the kernel drops the flock
    proc.wait()
    assert holder(path)["pid"] == proc.pid  # the stale file still names the dead process
    m = BeliefMemory.open(path, index=None)
    assert holder(path)["pid"] == os.getpid()
    m.close()


def test_close_releases_the_lock_for_the_next_process(tmp_path):
    path = tmp_path / "mem"
    m = BeliefMemory.open(path, index=None)
    m.close()
    proc = _hold(path, seconds=0.0)
    proc.wait(timeout=60)
    assert proc.returncode == 0


def test_one_process_may_open_a_directory_twice(tmp_path):
    path = tmp_path / "mem"
    a = BeliefMemory.open(path, index=None)
    b = BeliefMemory.open(path, index=None)
    a.close()
    a.close()  # closing twice does not release b's hold
    refused = subprocess.run([sys.executable, "-c", HOLD, str(path), "0"], capture_output=True, text=True, timeout=60)
    assert refused.returncode and "MemoryLockedError" in refused.stderr
    b.close()
    _hold(path, seconds=0.0).wait(timeout=60)


def test_close_delete_reopen_in_one_process(tmp_path):
    """Chroma keeps one system per directory per process; close must release it, or a
    recreated directory fails with 'attempt to write a readonly database'."""
    path = tmp_path / "mem"
    for round_ in range(3):
        m = BeliefMemory.open(path, HASH)
        m.observe(f"round {round_} note", user_id="u1", timestamp="2025-01-01", claim=Claim("user", "likes", f"v{round_}"))
        assert [h["text"] for h in search_evidence(m, f"round {round_} note", "u1")] == [f"round {round_} note"]
        assert m.validate() == []
        m.close()
        shutil.rmtree(path)
    assert not path.exists()


def test_in_memory_is_unaffected(tmp_path):
    a, b = BeliefMemory.in_memory(index=None), BeliefMemory.in_memory(index=None)
    a.observe("x", user_id="u", timestamp="2025-01-01")
    assert b.store.evidence_ids() == []
    a.close()
    b.close()


def test_the_lock_file_is_never_deleted(tmp_path):
    path = tmp_path / "mem"
    BeliefMemory.open(path, index=None).close()
    assert (path / LOCK_FILE).exists()


def test_a_second_memory_of_the_process_survives_a_forget_user(tmp_path):
    """Two memories of one process on one directory: one forgets a user whose collection
    the other holds a handle on; the other reopens it, never an untyped Chroma error."""
    path = tmp_path / "mem"
    a, b = BeliefMemory.open(path, HASH), BeliefMemory.open(path, HASH)
    a.observe("alice note one", user_id="alice", timestamp="2025-01-01", claim=Claim("I", "likes", "tea"))
    assert search_evidence(b, "alice note one", "alice")
    a.forget_user("alice")
    assert search_evidence(b, "alice note one", "alice") == []
    r = b.observe("alice note two", user_id="alice", timestamp="2025-01-02", claim=Claim("I", "likes", "coffee"))
    assert [h["id"] for h in search_evidence(a, "alice note two", "alice")] == [r.evidence_id]
    assert a.validate() == [] and b.validate() == []
    a.close()
    b.close()
