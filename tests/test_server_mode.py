"""Server mode: PostgreSQL for the graph, a Chroma server for the vectors, many processes.
Real servers (tests/servers.py), one of each per session; skipped where they cannot run."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import _load_worker as load
from bcg_rag import BeliefMemory, Claim, ConfigError, IndexUnavailableError, Policy, StoreError
from bcg_rag.search import search_evidence
from servers import free_port, unique_schema

HERE = Path(__file__).parent


@pytest.fixture
def server(postgres_server, postgres_dsn, chroma_session):
    """Connect arguments for a fresh memory (its own schema; its own collections)."""
    schemas = []

    def new_spec() -> dict:
        schemas.append(unique_schema())
        return dict(store=postgres_dsn, chroma=chroma_session.url, schema=schemas[-1])

    yield new_spec
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        for s in schemas:
            conn.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
            conn.execute(f"DROP SCHEMA IF EXISTS {s}_cold CASCADE")


def connect(spec: dict, **kw) -> BeliefMemory:
    return BeliefMemory.connect(**spec, **kw)


def fold(mem) -> list:
    """Every stored belief with its exact fold."""
    return sorted((r["id"], r["value"], r["status"], round(r["confidence"], 12),
                   [(h["evidence_id"], round(h["new"], 12)) for h in r["history"]]) for r in mem.store.find_beliefs(None))


def test_connect_from_arguments_a_config_file_and_the_cli(server, tmp_path):
    spec = server()
    mem = connect(spec, policy=Policy.from_dict({"embedder": {"kind": "hash"}}))
    r = mem.observe("I live in Oslo", user_id="u1", timestamp="2025-01-01", claim=Claim("I", "lives_in", "Oslo"))
    assert mem.path is None and type(mem.store).__name__ == "PostgresStore"
    mem.close()
    config = tmp_path / "server.toml"
    config.write_text(f'[server]\nstore = "{spec["store"]}"\nchroma = "{spec["chroma"]}"\nschema = "{spec["schema"]}"\n')
    again = BeliefMemory.connect(config=config)  # the policy comes from the database
    assert again.policy.section("embedder")["kind"] == "hash"
    assert [h["id"] for h in search_evidence(again, "I live in Oslo", "u1")] == [r.evidence_id]
    again.close()
    bcg = [sys.executable, "-m", "bcg_rag.cli"]
    out = subprocess.run(bcg + ["observe", "-m", str(config), "-u", "u1", "-t", "2025-02-01", "--subject", "I",
                                "--predicate", "lives_in", "--value", "Rome", "I moved to Rome"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    out = subprocess.run(bcg + ["beliefs", "-m", str(config), "-u", "u1", "--now", "2025-02-02"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Rome" in out.stdout, out.stdout + out.stderr


def test_bad_server_settings_are_typed_errors(server, tmp_path):
    with pytest.raises(ConfigError):
        BeliefMemory.connect(store="mysql://nope", chroma=None)
    with pytest.raises(ConfigError):
        BeliefMemory.connect(config=tmp_path / "missing.toml")
    with pytest.raises(StoreError, match="cannot connect"):
        BeliefMemory.connect(store=f"postgresql://postgres@127.0.0.1:{free_port()}/x", chroma=None)
    spec = server()
    with pytest.raises(IndexUnavailableError):
        connect(dict(spec, chroma=f"http://127.0.0.1:{free_port()}"), policy=Policy.from_dict({"embedder": {"kind": "hash"}}))


def test_concurrent_writers_end_with_the_single_process_fold(server, tmp_path):
    """2 processes x 100 observations into 3 shared users (10% written by both), a reader
    process searching for what was acknowledged: nothing lost, no stale read, validate()
    empty, and exactly the beliefs one process computes from the same observations."""
    writers, n, users = 2, 100, 3
    spec = server()
    mem = connect(spec, policy=Policy.from_dict(load.POLICY))
    got = load.in_processes(json.dumps(spec), writers, n, users, tmp_path / "load")
    assert got["reader"]["checks"] > 0 and got["reader"]["stale"] == 0, got["reader"]
    stored = set(mem.store.evidence_ids())
    assert set(got["acked_ids"]) <= stored and len(stored) == writers * n  # 0 lost, duplicates idempotent
    assert mem.validate() == []

    single = BeliefMemory.in_memory(Policy.from_dict(load.POLICY), index=None)
    for k in load.all_items(writers, n):
        single.observe(**load.item(k, users))
    assert fold(mem) == fold(single)
    single.close()
    mem.close()


def test_forget_user_while_others_read_and_write_the_same_user(server, postgres_server, chroma_session, tmp_path):
    """Two processes keep writing and reading alice and bob while this one forgets alice:
    every failure they see is a BCGError, nothing of bob is lost, and the texts alice had
    before the deletion are gone from PostgreSQL's data files; once the writers stop, a
    last forget leaves no byte of alice in PostgreSQL or in Chroma's directory."""
    spec = server()
    mem = connect(spec, policy=Policy.from_dict({"embedder": {"kind": "hash"}}))
    stop = tmp_path / "stop"
    procs = [subprocess.Popen([sys.executable, str(HERE / "_forget_worker.py"), json.dumps(spec), str(stop), str(w)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for w in range(2)]
    deadline = time.monotonic() + 120
    while mem.store.evidence_count("alice-7f3e9") < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
    before = [r["text"] for r in mem.store.evidence_for_user("alice-7f3e9")]
    counts = mem.forget_user("alice-7f3e9")
    assert counts["evidence"] >= len(before) >= 30
    after_first = _data_files_containing(postgres_server.data, [t.encode() for t in before])
    time.sleep(1.0)  # the others keep going on the forgotten user
    stop.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-3000:] for o in outs]
    reports = [json.loads(o[0]) for o in outs]
    for r in reports:
        assert r["untyped"] == [], r["untyped"]  # only BCGError subclasses, or nothing at all
    assert after_first == {}, after_first
    bob = [i for r in reports for i in r["bob_acked"]]
    assert bob and set(bob) <= set(mem.store.evidence_ids("bob"))  # the other user is untouched
    assert mem.validate() == []

    mem.forget_user("alice-7f3e9")  # the writers are stopped: nothing of alice may remain
    alice_texts = [t.encode() for r in reports for t in r["alice_texts"]]
    needles = [b"alice-7f3e9", b"zqxjkvbw"] + alice_texts
    assert _data_files_containing(postgres_server.data, needles) == {}
    assert _files_containing(chroma_session.data, needles) == {}
    assert mem.validate() == [] and mem.beliefs("alice-7f3e9") == []
    mem.close()


def _files_containing(root: Path, needles: list[bytes]) -> dict:
    found = {}
    for p in root.rglob("*"):
        if p.is_file():
            data = p.read_bytes()
            hits = [n.decode() for n in needles if n in data]
            if hits:
                found[str(p.relative_to(root))] = hits[:3]
    return found


def _data_files_containing(data: Path, needles: list[bytes]) -> dict:
    """PostgreSQL's data files: every relation (base/, global/). The WAL (pg_wal/) keeps
    old records until PostgreSQL recycles its segments (README, "Server mode")."""
    return {**_files_containing(data / "base", needles), **_files_containing(data / "global", needles)}


def test_a_process_whose_collection_vanished_recovers(server):
    spec = server()
    policy = Policy.from_dict({"embedder": {"kind": "hash"}})
    a, b = connect(spec, policy=policy), connect(spec, policy=policy)
    a.observe("alice note one", user_id="alice", timestamp="2025-01-01", claim=Claim("I", "likes", "tea"))
    assert search_evidence(b, "alice note one", "alice")  # b has a handle on alice's collection now
    a.forget_user("alice")
    assert search_evidence(b, "alice note one", "alice") == []  # no untyped NotFoundError
    assert b.index.count("alice") == 0 and b.validate() == []
    r = b.observe("alice note two", user_id="alice", timestamp="2025-01-02", claim=Claim("I", "likes", "coffee"))
    assert [h["id"] for h in search_evidence(a, "alice note two", "alice")] == [r.evidence_id]  # recreated
    assert a.validate() == [] and b.validate() == []
    a.close()
    b.close()


def test_missing_and_stray_vectors_are_repaired(server):
    spec = server()
    mem = connect(spec, policy=Policy.from_dict({"embedder": {"kind": "hash"}}))
    ids = [mem.observe(f"note {i}", user_id="u1", timestamp=f"2025-01-0{i + 1}").evidence_id for i in range(3)]
    col = mem.index.client.get_collection(mem.index.collection_name("u1"))
    col.delete(ids=[ids[0]])  # a crash between the commit and the upsert
    ghost = dict(mem.evidence(ids[1], user_id="u1"), id="ev_ghost", embedding_key="ev_ghost")
    mem.index.upsert([ghost], mem.index.embed(["ghost"]))  # through the index: checked against the graph at once
    assert mem.index.ids("u1") == set(ids[1:])
    vector = mem.index.embed(["ghost"])
    col.upsert(ids=["ev_ghost"], embeddings=vector)  # written behind its back: a vector whose evidence is gone
    nobody = mem.index.client.get_or_create_collection(mem.index.collection_name("nobody"))
    nobody.upsert(ids=["ev_ghost"], embeddings=vector)  # and a user with no evidence at all
    problems = mem.validate()
    assert f"evidence {ids[0]} of user u1 has no vector in the index" in problems
    assert "index vector ev_ghost of user u1 has no evidence" in problems
    assert any("vectors of a user with no evidence" in p for p in problems)
    mem.index.repair(mem, eager=True)
    assert mem.validate() == [] and mem.index.ids("u1") == set(ids)
    mem.close()


def test_a_long_lived_process_sees_what_others_wrote(server):
    spec = server()
    policy = Policy.from_dict({"embedder": {"kind": "hash"}})
    reader = connect(spec, policy=policy)
    reader.observe("first note", user_id="u1", timestamp="2025-01-01")
    assert search_evidence(reader, "first note", "u1")  # the reader has checked u1 and holds its collection
    out = subprocess.run([sys.executable, "-c", (
        "import sys, json; sys.path.insert(0, sys.argv[2]); from servers import open_spec\n"
        "m = open_spec(sys.argv[1]); print(m.observe('second note from elsewhere', user_id='u1',"
        " timestamp='2025-01-02').evidence_id); m.close()"), json.dumps(spec), str(HERE)],
        capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    hits = search_evidence(reader, "second note from elsewhere", "u1")
    assert hits and hits[0]["id"] == out.stdout.strip()
    reader.close()


def test_lifecycle_archive_and_restore_on_postgres(server):
    """The cold store is a second schema on the same connection: a move commits whole."""
    spec = server()
    mem = connect(spec, policy=Policy.from_dict({"embedder": {"kind": "hash"}}), clock=lambda: "2025-12-01T00:00:00")
    mem.observe("old fact", user_id="u1", timestamp="2020-01-01", claim=Claim("I", "likes", "tea"))
    assert mem.maintain()["archive"] == 1
    (archived,) = mem.archived_beliefs("u1")
    assert mem.store.cold_store(create=False).get_node("belief", archived["belief_id"]) is not None
    assert mem.restore(archived["belief_id"]) == [archived["belief_id"]]
    assert mem.validate() == [] and mem.archived_beliefs("u1") == []
    mem.close()
