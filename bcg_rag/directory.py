"""Opening a memory directory (``BeliefMemory.open``): the directory itself, whether it is
writable, and its vector index, rebuilt from SQLite (the source of truth) when Chroma cannot
read its files, or copied privately when the directory is read-only."""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

from .errors import ConfigError, InvalidInputError, StoreError
from .policy import Policy


def prepare_directory(path: Path) -> Path:
    """The memory directory, created if missing; typed errors for what cannot be one."""
    if path.exists() and not path.is_dir():
        raise InvalidInputError(f"{path} is a file, not a memory directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the memory directory {path}: {exc}") from exc
    return path


def writable(path: Path) -> bool:
    db = path / "memory.sqlite3"
    return os.access(path, os.W_OK) and (not db.exists() or os.access(db, os.W_OK))


def open_index(policy: Policy, path: Path, read_only: bool) -> tuple[Any, bool, Path | None]:
    """The directory's vector index: (index, rebuilt, snapshot). Read-only: a private copy
    of the vectors (Chroma cannot open a directory it cannot write). Damaged (Chroma
    cannot read its files): warned about, dropped and rebuilt from SQLite, the source of
    truth, so that a derived file never keeps the memory from opening."""
    from .index import EvidenceIndex

    if policy.section("chroma").get("host"):  # a Chroma server: nothing of ours on disk
        return EvidenceIndex.from_policy(policy, path), False, None
    base, snapshot = path, None
    if read_only:
        base = snapshot = Path(tempfile.mkdtemp(prefix="bcg-readonly-"))
        if (path / "chroma").is_dir():
            _copywritable(path / "chroma", base / "chroma")
    try:
        index = EvidenceIndex.from_policy(policy, base)
        index._own_collections(limit=1)  # reads chroma.sqlite3: a damaged file fails here, not later
        return index, False, snapshot
    except ConfigError:
        raise
    except Exception as exc:  # Chroma's own errors: chromadb.errors.*, RuntimeError, sqlite3.Error
        warnings.warn(f"the vector index in {base / 'chroma'} cannot be read ({type(exc).__name__}: {exc}); "
                      "rebuilding it from memory.sqlite3", RuntimeWarning, stacklevel=3)
        forget_chroma_system(base / "chroma")
        shutil.rmtree(base / "chroma", ignore_errors=True)
        return EvidenceIndex.from_policy(policy, base), True, snapshot


def _copywritable(src: Path, dst: Path) -> None:
    """Copy a directory tree without its permission bits (a copy of a read-only tree must
    be writable, or Chroma cannot open it either)."""
    for root, _, files in os.walk(src):
        target = dst / Path(root).relative_to(src)
        target.mkdir(parents=True, exist_ok=True)
        for name in files:
            shutil.copyfile(Path(root) / name, target / name)


def forget_chroma_system(chroma_dir: Path) -> None:
    """Chroma caches one client system per directory, also a failed one: drop it so that
    a new client starts afresh."""
    try:
        from chromadb.api.shared_system_client import SharedSystemClient
    except ImportError:  # pragma: no cover
        return
    key = str(chroma_dir)
    system = SharedSystemClient._identifier_to_system.pop(key, None)
    SharedSystemClient._identifier_to_refcount.pop(key, None)
    if system is not None:
        try:
            system.stop()
        except Exception:  # a system that failed to start may fail to stop
            pass


def default_index(policy: Policy, path: Path | None):
    from .index import EvidenceIndex

    return EvidenceIndex.from_policy(policy, path)
