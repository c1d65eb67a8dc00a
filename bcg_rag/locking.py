"""Embedded mode is one process per memory directory, enforced by a lock that dies with
its process: ``fcntl.flock`` on ``<dir>/memory.lock``. The kernel drops a flock when the
process holding it exits (or is killed), so a lock left by a dead process is simply free:
the next opener takes it over and writes its own pid and host into the file. The file is
never deleted (deleting a lock file races with a process that has just opened it).

Within one process a directory may be opened more than once (the lock is counted and
released by the last close); another process gets ``MemoryLockedError`` naming the holder.
On systems without ``fcntl`` (Windows) the lock is a no-op.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from datetime import datetime, timezone
from pathlib import Path

from .errors import MemoryLockedError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

LOCK_FILE = "memory.lock"

_held: dict[str, "DirectoryLock"] = {}  # realpath -> the lock this process holds
_guard = threading.Lock()


class DirectoryLock:
    """This process's hold on one memory directory; ``release`` once per ``acquire``."""

    def __init__(self, key: str, fd: int | None):
        self.key = key
        self.fd = fd
        self.count = 0
        self.pid = os.getpid()

    @classmethod
    def acquire(cls, path: str | Path) -> "DirectoryLock":
        path = Path(path)
        key = os.path.realpath(path)
        with _guard:
            lock = _held.get(key)
            if lock is not None and lock.pid != os.getpid():  # inherited through fork: not ours
                _held.pop(key)
                lock = None
            if lock is None:
                lock = cls(key, _lock_file(path))
                _held[key] = lock
            lock.count += 1
            return lock

    def release(self) -> None:
        with _guard:
            if self.count <= 0:
                return
            self.count -= 1
            if self.count:
                return
            if _held.get(self.key) is self:
                del _held[self.key]
            if self.fd is not None:
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_UN)
                finally:
                    os.close(self.fd)
                    self.fd = None


def holder(path: str | Path) -> dict:
    """What the lock file says about its last holder (pid, host, since), or {}."""
    try:
        return json.loads((Path(path) / LOCK_FILE).read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}


def _lock_file(path: Path) -> int | None:
    if fcntl is None:
        return None
    fd = os.open(path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        who = holder(path)
        pid, host = who.get("pid"), who.get("host")
        raise MemoryLockedError(
            f"memory directory {path} is open in another process (pid {pid} on {host}, since {who.get('since')}):"
            " embedded mode is one process per directory; to share a memory between processes or machines"
            " use server mode, BeliefMemory.connect(store='postgresql://...', chroma='http://...')"
            " (see the README, \"Server mode\")",
            path=str(path), pid=pid, host=host,
        ) from None
    except BaseException:
        os.close(fd)
        raise
    info = json.dumps(dict(pid=os.getpid(), host=socket.gethostname(),
                           since=datetime.now(timezone.utc).isoformat(timespec="seconds")))
    os.ftruncate(fd, 0)
    os.pwrite(fd, info.encode("utf-8"), 0)
    return fd
