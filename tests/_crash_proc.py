"""Kill-point helper for tests/test_crash.py: runs one ingestion call and dies at an
injected step, so that a test can kill the call at *every* step instead of by luck.

Steps are counted by wrapping the hot store's SQLite connection and the vector index:
one step before each statement that can change the database (INSERT, UPDATE, DELETE,
REPLACE, COMMIT...), one after each COMMIT, and one before and one after each index
write. Reads are not steps: killing before a read leaves the same files as killing
after the write before it. ``BCG_KILL_AT=n`` makes the process call ``os._exit(KILLED)``
at step n (1-based); 0 runs the call to the end.

Two ways to run it:

- ``BCG_KILL_AT=n python tests/_crash_proc.py run DIR SCENARIO [retry]``: open DIR,
  run SCENARIO's call, die at step n; with ``retry``, run the call to the end instead
  and print the memory's state as JSON (beliefs, evidence ids, validate()).
- ``python tests/_crash_proc.py serve``: a zygote for speed. It imports everything once,
  then reads JSON requests ``{"dir", "scenario", "kill_at", "mode"}`` from stdin, one
  per line, forks a child per request (the child opens the memory, so no Chroma client
  ever crosses a fork) and answers one JSON line: ``{"exit": code, "steps": n, "state": ...}``.
"""

from __future__ import annotations

import json
import os
import sys
import traceback

KILLED = 77
NOW = "2025-07-01T00:00:00"

from bcg_rag import BeliefMemory, Claim, Policy  # noqa: E402
from bcg_rag import index as index_module  # noqa: E402
from bcg_rag import store_sqlite  # noqa: E402

_steps = 0
_kill_at = 0
_store_path = ""
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "COMMIT", "CREATE", "DROP", "VACUUM")


def _step() -> None:
    global _steps
    _steps += 1
    if _kill_at and _steps >= _kill_at:
        sys.stdout.flush()
        os._exit(KILLED)


class _Conn:
    """A sqlite3 connection that counts the statements that can change the database."""

    def __init__(self, conn):
        self._conn = conn

    def execute(self, sql, params=()):
        verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        write = verb in _WRITES
        if write:
            _step()
        out = self._conn.execute(sql, params)
        if verb == "COMMIT":
            _step()
        return out

    def __getattr__(self, name):
        return getattr(self._conn, name)


_orig_init = store_sqlite.SQLiteStore.__init__


def _init(self, path=":memory:", *args, **kwargs):
    _orig_init(self, path, *args, **kwargs)
    if str(path) == _store_path:  # the hot store only; opening it is not part of the call
        self._conn = _Conn(self._conn)


store_sqlite.SQLiteStore.__init__ = _init


def _wrap_index(name: str) -> None:
    original = getattr(index_module.EvidenceIndex, name)

    def wrapped(self, *args, **kwargs):
        _step()
        out = original(self, *args, **kwargs)
        _step()
        return out

    setattr(index_module.EvidenceIndex, name, wrapped)


for _name in ("upsert", "delete"):
    _wrap_index(_name)


# --- scenarios: (setup run once on a clean directory, the call under test) ----------------
def _policy() -> Policy:
    # Process kills, not power loss: without fsync the files are the same and the loop is faster.
    return Policy.from_dict({"embedder": {"kind": "hash"}, "storage": {"synchronous": "OFF"}})


def _setup_observe(m) -> None:
    m.observe("I live in Paris", user_id="u1", timestamp="2025-01-01T00:00:00", source="dialog:1",
              claim=Claim("I", "lives_in", "Paris"))


def _call_observe(m):
    return m.observe("I moved to Berlin", user_id="u1", timestamp="2025-02-01T00:00:00", source="dialog:2",
                     claims=[Claim("I", "lives_in", "Berlin"), Claim("I", "likes", "currywurst")])


def _setup_message(m) -> None:
    m.add_message("The wifi password is alpha123", user_id="u1", timestamp="2025-01-01T00:00:00", source="chat:1")


def _call_message(m):
    return m.add_message("The wifi password is beta456", user_id="u1", timestamp="2025-02-01T00:00:00", source="chat:2")


def _setup_batch(m) -> None:
    m.add_message("I live in Paris", user_id="u1", timestamp="2025-01-01T00:00:00", source="chat:0")


def _call_batch(m):
    return m.add_messages([
        dict(text="The wifi password is alpha123", user_id="u1", timestamp="2025-01-02T00:00:00", source="chat:1"),
        dict(text="I moved to Berlin", user_id="u1", timestamp="2025-01-03T00:00:00", source="chat:2"),
        dict(text="The wifi password is beta456", user_id="u1", timestamp="2025-02-01T00:00:00", source="chat:3"),
    ])


SCENARIOS = {
    "observe": (_setup_observe, _call_observe),
    "add_message": (_setup_message, _call_message),
    "add_messages": (_setup_batch, _call_batch),
}


def _open(path: str):
    global _store_path
    _store_path = os.path.join(path, "memory.sqlite3")
    return BeliefMemory.open(path, _policy(), clock=lambda: NOW)


def state(m) -> dict:
    """What must be the same after a crash and a retry as after a clean run."""
    beliefs = []
    for b in m.beliefs("u1", now=NOW):
        beliefs.append(dict(id=b.id, predicate=b.predicate, value=b.value, confidence=round(b.confidence, 9),
                            status=b.status, history=[(h.evidence_id, h.relation, round(h.new, 9)) for h in b.history]))
    claims = sorted((c["evidence_id"], c["subject"], c["predicate"], c["value"], c["stance"], c["origin"])
                    for c in m.store.claims_for_user("u1"))
    return dict(beliefs=beliefs, evidence=sorted(m.store.evidence_ids("u1")), claims=claims,
                vectors=sorted(m.index.ids("u1")), problems=m.validate())


def run(path: str, scenario: str, kill_at: int, mode: str) -> dict | None:
    """mode "setup": run the setup; "kill": the call, dying at step kill_at (0: not at
    all; the step count is returned); "retry": the call again to the end, then the state."""
    global _kill_at, _steps
    setup, call = SCENARIOS[scenario]
    m = _open(path)
    if mode == "setup":
        setup(m)
        m.close()
        return None
    _steps, _kill_at = 0, (kill_at if mode == "kill" else 0)
    call(m)
    out = dict(steps=_steps)
    if mode == "retry":
        out["state"] = state(m)
    m.close()
    return out


def serve() -> None:
    # Warm up what every child needs (the extractor's dictionaries) without any Chroma
    # client: a Chroma client starts threads, and threads must not cross a fork.
    from bcg_rag.extract import extractor_from_config

    extractor_from_config({"kind": "offline"}).extract("The wifi password is alpha123 我住在北京", user_id="u1")
    for line in sys.stdin:
        request = json.loads(line)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(r)
            os.environ["BCG_KILL_AT"] = str(request.get("kill_at", 0))
            try:
                out = run(request["dir"], request["scenario"], int(request.get("kill_at", 0)), request["mode"])
                payload = json.dumps(out or {})
                code = 0
            except BaseException:
                payload = json.dumps(dict(error=traceback.format_exc()))
                code = 1
            with os.fdopen(w, "w") as f:
                f.write(payload)
            os._exit(code)
        os.close(w)
        with os.fdopen(r) as f:
            payload = f.read()
        _, status = os.waitpid(pid, 0)
        answer = json.loads(payload) if payload else {}
        answer["exit"] = os.waitstatus_to_exitcode(status)
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve()
    else:
        _, _, path, scenario, *rest = sys.argv
        mode = "retry" if rest[:1] == ["retry"] else "kill"
        result = run(path, scenario, int(os.environ.get("BCG_KILL_AT", "0")), mode)
        print(json.dumps(result))
