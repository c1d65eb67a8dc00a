"""Server mode (``BeliefMemory.connect``); the embedded directory is ``BeliefMemory.open``,
held by one process at a time (``locking.py``; another process gets ``MemoryLockedError``).
Everything after opening is the same API.

Server mode: the graph in PostgreSQL (``store_postgres.py``), the vectors on a Chroma
server, any number of processes on any number of machines::

    BeliefMemory.connect(store="postgresql://user@host:5432/db", chroma="http://host:8000")
    BeliefMemory.connect(config="server.toml")   # [server] store = ..., chroma = ...

The memory's policy lives in the database (``meta.policy``), written by the first
process that connects, so every process decides with the same numbers; so does the
prefix of its Chroma collections (``meta.index_prefix``: one Chroma server can hold
several memories). A policy passed to ``connect`` is used by that process (and stored
if the database has none yet), as ``open`` does with a directory's policy.toml.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any, Callable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .errors import ConfigError
from .policy import Policy

SERVER_KEYS = ("store", "chroma", "schema")


def _as_policy(policy: Policy | str | Path | None) -> Policy | None:
    if policy is None or isinstance(policy, Policy):
        return policy
    return Policy.load(policy)


# --- server mode ---------------------------------------------------------------------------
def load_config(path: str | Path) -> dict:
    """The ``[server]`` table of a TOML file: store (a postgresql:// URL), chroma (an
    http:// URL, optional: without it the memory has no vector index), schema (default
    ``bcg``) and policy (a policy TOML path, relative to the config file)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"server config not found: {path}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"server config {path} is not valid TOML: {exc}") from exc
    server = raw.get("server")
    if not isinstance(server, dict) or not server.get("store"):
        raise ConfigError(f"{path} needs a [server] table with store = \"postgresql://...\"")
    unknown = set(server) - set(SERVER_KEYS) - {"policy"}
    if unknown:
        raise ConfigError(f"{path}: unknown [server] keys {sorted(unknown)}; known: {list(SERVER_KEYS) + ['policy']}")
    config = dict(server)
    if config.get("policy"):
        config["policy"] = str((path.parent / config["policy"]).resolve())
    return config


def is_server_config(path: str | Path) -> bool:
    """Whether ``path`` names a server config file (a TOML file with a [server] table)."""
    path = Path(path)
    if not path.is_file() or path.suffix != ".toml":
        return False
    try:
        return isinstance(tomllib.loads(path.read_text(encoding="utf-8")).get("server"), dict)
    except (OSError, tomllib.TOMLDecodeError):
        return False


def connect(cls: type, store: str | None = None, chroma: str | None = None, *, config: str | Path | None = None,
            schema: str | None = None, policy: Policy | str | Path | None = None, index: Any = "auto",
            extractor: Any = None, llm: Any = None, clock: Callable[[], str] | None = None) -> Any:
    """Server mode: the graph in PostgreSQL at ``store``, the vectors on the Chroma server
    at ``chroma`` (None: no vector index). Arguments override the config file's."""
    from .index import EvidenceIndex
    from .store_postgres import PostgresStore

    settings = load_config(config) if config is not None else {}
    store = store or settings.get("store")
    chroma = chroma if chroma is not None else settings.get("chroma")
    schema = schema or settings.get("schema") or "bcg"
    policy = policy if policy is not None else settings.get("policy")
    if not isinstance(store, str) or not store.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"server mode needs store='postgresql://user@host:5432/db', got {store!r}")
    pg = PostgresStore(store, schema)
    made = None
    try:
        stored = pg.get_meta("policy")
        policy = _as_policy(policy)
        if policy is None:
            policy = Policy.from_dict(tomllib.loads(stored)) if stored else Policy.default()
        if stored is None:
            pg.setdefault_meta("policy", policy.to_toml())
        if index == "auto":
            index = None
            if chroma:
                base = policy.section("chroma").get("collection") or "bcg_evidence"
                prefix = pg.setdefault_meta("index_prefix", f"{base}_{secrets.token_hex(4)}")
                index = made = EvidenceIndex.from_server(policy, chroma, prefix, shared=True)
        return cls(pg, policy, index=index, extractor=extractor, llm=llm, clock=clock)
    except BaseException:
        _close_quietly(made, pg)
        raise


def _close_quietly(index: Any, store: Any) -> None:
    for thing in (index, store):
        if thing is not None and hasattr(thing, "close"):
            try:
                thing.close()
            except Exception:
                pass
