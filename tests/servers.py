"""Real servers for the server-mode tests: one PostgreSQL cluster and one ``chroma run``
per test session, started here and stopped by PID.

PostgreSQL comes from the system's binaries (``initdb``/``pg_ctl``, found on PATH, with
``pg_config --bindir`` or under /usr/lib/postgresql/*/bin) in a fresh temporary cluster
on a free port; PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` user and the binaries run through ``runuser``. Chroma is the ``chroma``
binary that ships with the chromadb wheel. Where a binary is missing the fixtures skip
with a one-line reason.

Also usable outside pytest (the benchmarks and the docs' commands use the same code):
``PostgresServer(...).start()`` / ``.stop()``, ``ChromaServer(...).start()`` / ``.stop()``.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import weakref
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours counts as gone.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _stop_pid(pid: int, sig: int, timeout: float = 30.0) -> None:
    """Signal one process and wait for it to go; SIGKILL it after ``timeout``."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                return
            deadline = time.monotonic() + 10
        time.sleep(0.05)


# --- PostgreSQL --------------------------------------------------------------------------
def postgres_bindir() -> Path | None:
    """Where initdb, pg_ctl and postgres live, or None."""
    candidates = []
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).parent)
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            candidates.append(Path(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=True).stdout.strip()))
        except (OSError, subprocess.CalledProcessError):
            pass
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    candidates += [Path(p) for p in sorted(glob.glob("/usr/pgsql-*/bin"), reverse=True)]
    for d in candidates:
        if all((d / b).exists() for b in ("initdb", "pg_ctl", "postgres")):
            return d
    return None


class PostgresServer:
    """A throwaway PostgreSQL cluster: ``initdb`` into a temp dir, ``pg_ctl start`` on a free
    port (TCP on 127.0.0.1, trust auth), stopped by the postmaster's PID."""

    def __init__(self, *, durable: bool = False, settings: dict | None = None, bindir: Path | None = None):
        self.bindir = bindir or postgres_bindir()
        self.durable = durable  # False: fsync off (tests); True: the defaults (benchmarks)
        self.settings = dict(settings or {})
        self.port = 0
        self.dir: Path | None = None
        self.pid: int | None = None

    @property
    def data(self) -> Path:
        return self.dir / "data"

    def dsn(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def skip_reason(self) -> str | None:
        if self.bindir is None:
            return "PostgreSQL server binaries (initdb, pg_ctl) not found"
        if os.geteuid() == 0:
            try:
                import pwd

                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no postgres user to run PostgreSQL as"
            if shutil.which("runuser") is None:
                return "running as root and runuser is missing"
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "psycopg is not installed (pip install 'bcg-rag[server]')"
        return None

    def _run(self, args: list[str], **kw) -> subprocess.CompletedProcess:
        if os.geteuid() == 0:
            args = ["runuser", "-u", "postgres", "--"] + args
        return subprocess.run(args, capture_output=True, text=True, **kw)

    def start(self) -> "PostgresServer":
        reason = self.skip_reason()
        if reason:
            raise RuntimeError(reason)
        self.dir = Path(tempfile.mkdtemp(prefix="bcg-pg-"))
        if os.geteuid() == 0:
            import pwd

            pw = pwd.getpwnam("postgres")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o700)
        r = self._run([str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                       "-E", "UTF8", "--locale=C", "--no-instructions"] + ([] if self.durable else ["--no-sync"]))
        if r.returncode:
            raise RuntimeError(f"initdb failed: {r.stderr.strip()[-2000:]}")
        opts = dict(listen_addresses="127.0.0.1", unix_socket_directories=str(self.dir), max_connections="200",
                    shared_buffers="64MB")
        if not self.durable:
            opts.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        opts.update({k: str(v) for k, v in self.settings.items()})
        for attempt in range(3):  # a free port can be taken between finding and binding it
            self.port = free_port()
            o = " ".join(f"-c {k}={v}" for k, v in dict(opts, port=str(self.port)).items())
            r = self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"), "-o", o,
                           "-w", "-t", "60", "start"])
            if r.returncode == 0:
                break
        else:
            log = (self.dir / "log").read_text(errors="replace")[-2000:] if (self.dir / "log").exists() else r.stderr
            raise RuntimeError(f"PostgreSQL did not start: {log}")
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])
        return self

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def psql(self, sql: str, dbname: str = "postgres") -> str:
        import psycopg

        with psycopg.connect(self.dsn(dbname), autocommit=True) as conn:
            cur = conn.execute(sql)
            return "" if cur.description is None else "\n".join("|".join(map(str, r)) for r in cur.fetchall())

    def stop(self) -> None:
        if self.pid is not None:
            _stop_pid(self.pid, signal.SIGINT)  # "fast" shutdown: the postmaster ends its children
            self.pid = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None


# --- Chroma ------------------------------------------------------------------------------
def chroma_binary() -> str | None:
    here = Path(sys.executable).with_name("chroma")
    return str(here) if here.exists() else shutil.which("chroma")


class ChromaServer:
    """``chroma run --path D --host 127.0.0.1 --port P``, stopped by its PID."""

    def __init__(self, path: Path | None = None):
        self.binary = chroma_binary()
        self.path = path
        self._own_path = path is None
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self._log = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def skip_reason(self) -> str | None:
        return None if self.binary else "the chroma binary (chromadb) is not installed"

    def start(self) -> "ChromaServer":
        if self.binary is None:
            raise RuntimeError(self.skip_reason())
        if self.path is None:
            self.path = Path(tempfile.mkdtemp(prefix="bcg-chroma-"))
        self.path.mkdir(parents=True, exist_ok=True)
        log_path = self.path.parent / f"{self.path.name}.log"
        for attempt in range(3):
            self.port = free_port()
            self._log = open(log_path, "wb")
            self.proc = subprocess.Popen(
                [self.binary, "run", "--path", str(self.path / "data"), "--host", "127.0.0.1", "--port", str(self.port)],
                stdout=self._log, stderr=subprocess.STDOUT, env=dict(os.environ, ANONYMIZED_TELEMETRY="False"),
            )
            deadline = time.monotonic() + 60
            while self.proc.poll() is None and time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(f"{self.url}/api/v2/heartbeat", timeout=1).read()
                    return self
                except OSError:
                    time.sleep(0.1)
            self.stop(remove=False)
        raise RuntimeError(f"chroma server did not start: {log_path.read_text(errors='replace')[-2000:]}")

    @property
    def data(self) -> Path:
        return self.path / "data"

    def stop(self, remove: bool = True) -> None:
        if self.proc is not None:
            _stop_pid(self.proc.pid, signal.SIGTERM)  # this PID only
            self.proc.wait(timeout=10)
            self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None
        if remove and self._own_path and self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            log = self.path.parent / f"{self.path.name}.log"
            log.unlink(missing_ok=True)
            self.path = None


# --- pytest fixtures (imported by conftest.py) ----------------------------------------------
def _for_the_session(server):
    """Start ``server`` (or skip with its reason), yield it, stop it by PID."""
    reason = server.skip_reason()
    if reason:
        pytest.skip(reason)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL cluster for the whole session (skips when it cannot run here)."""
    yield from _for_the_session(PostgresServer())


@pytest.fixture(scope="session")
def postgres_dsn(postgres_server):
    """A database of its own on the session cluster."""
    return postgres_server.create_database("bcg_test")


@pytest.fixture(scope="session")
def chroma_session():
    """One ``chroma run`` for the whole session (skips when the binary is missing)."""
    yield from _for_the_session(ChromaServer())


def unique_schema() -> str:
    return "t_" + uuid.uuid4().hex[:12]


# --- memories on a backend -----------------------------------------------------------------
class MemoryBackend:
    """Fresh memories on one storage backend, for tests that run on each of them.

    ``sqlite``: ``BeliefMemory.in_memory`` (``new``) or a directory (``durable=True``).
    ``postgres``: ``BeliefMemory.connect`` to the session cluster, one schema per memory
    (and, when the memory has an index, collections of its own on the session Chroma
    server); schemas are dropped and collections deleted at teardown. ``spec(memory)`` is
    a string from which a child process opens the same memory (``open_spec``).
    """

    def __init__(self, name: str, tmp_path: Path, dsn: str | None = None, chroma_url: Any = None):
        self.name = name
        self.tmp_path = tmp_path
        self.dsn = dsn
        self._chroma_url = chroma_url  # a callable: the session server starts on first need
        self._url: str | None = None
        self._opened: list = []  # weak references to every memory made here
        self._live: dict[str, Any] = {}  # schema -> weak reference to its memory
        self._conn = None  # for recycling schemas
        self._prefixes: list[str] = []
        self._specs: dict[int, str] = {}
        self._n = 0

    @property
    def server(self) -> bool:
        return self.name == "postgres"

    def new(self, policy: Any = None, *, index: Any = None, clock: Any = None, durable: bool = False) -> Any:
        """A fresh memory. ``index``: None (no vectors) or "auto"."""
        from bcg_rag import BeliefMemory

        self._n += 1
        if not self.server:
            if durable:
                mem = BeliefMemory.open(self.tmp_path / f"memory{self._n}", policy, index=index, clock=clock)
                self._specs[id(mem)] = str(mem.path)
            else:
                mem = BeliefMemory.in_memory(policy, index=index, clock=clock)
        else:
            schema = self._schema()
            chroma = self.chroma_url() if index == "auto" else None
            mem = BeliefMemory.connect(store=self.dsn, chroma=chroma, schema=schema, policy=policy,
                                       index="auto" if chroma else index, clock=clock)
            self._live[schema] = weakref.ref(mem)
            if mem.index is not None:
                self._prefixes.append(mem.index.prefix)
            self._specs[id(mem)] = json.dumps(dict(store=self.dsn, chroma=chroma, schema=schema))
        self._opened.append(weakref.ref(mem))
        return mem

    def _schema(self) -> str:
        """A clean schema: recycled from a memory that is gone, or new. Creating the tables
        costs ~50 ms, emptying them ~2 ms (the hypothesis tests make hundreds)."""
        for schema, ref in list(self._live.items()):
            if ref() is None:
                self._recycle(schema)
        pool = _SCHEMA_POOL.setdefault(self.dsn, [])
        return pool.pop() if pool else unique_schema()

    def _admin(self):
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.dsn, autocommit=True)
        return self._conn

    def _recycle(self, schema: str) -> None:
        del self._live[schema]
        conn = self._admin()
        if True:
            exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f"{schema}.meta",)).fetchone()[0]
            conn.execute(f"DROP SCHEMA IF EXISTS {schema}_cold CASCADE")
            if exists:
                conn.execute("; ".join(  # as new: no rows, counters from 1 (audit ids name merges)
                    [f"DELETE FROM {schema}.{t}" for t in RECYCLED_TABLES]
                    + [f"DELETE FROM {schema}.meta WHERE key != 'schema_version'",
                       f"ALTER TABLE {schema}.audit ALTER COLUMN id RESTART WITH 1",
                       f"SELECT setval(pg_get_serial_sequence('{schema}.evidence', 'seq'), 1, false)"]
                ))
                _SCHEMA_POOL.setdefault(self.dsn, []).append(schema)

    def chroma_url(self) -> str:
        if self._url is None:
            self._url = self._chroma_url()
        return self._url

    def spec(self, mem: Any) -> str:
        return self._specs[id(mem)]

    def cleanup(self) -> None:
        for ref in self._opened:
            mem = ref()
            if mem is not None:
                try:
                    mem.close()
                except Exception:
                    pass
        if self.server:
            for schema in list(self._live):
                self._recycle(schema)
            if self._conn is not None:
                self._conn.close()
        if self._prefixes:
            import chromadb
            from chromadb.config import Settings

            port = int(self._url.rsplit(":", 1)[1])
            client = chromadb.HttpClient(host="127.0.0.1", port=port, settings=Settings(anonymized_telemetry=False))
            try:
                for col in client.list_collections():
                    if col.name.startswith(tuple(self._prefixes)):
                        client.delete_collection(col.name)
            finally:
                client.close()


def open_spec(spec: str, **kw) -> Any:
    """Open the memory a ``MemoryBackend.spec`` names (in a child process)."""
    from bcg_rag import BeliefMemory

    if spec.startswith("{"):
        d = json.loads(spec)
        return BeliefMemory.connect(store=d["store"], chroma=d.get("chroma"), schema=d["schema"], **kw)
    return BeliefMemory.open(spec, **kw)


BACKENDS = ["sqlite", "postgres"]
RECYCLED_TABLES = ("entity", "alias", "event", "context", "evidence", "claim", "belief", "belief_history", "edge", "claim_vector", "audit")
_SCHEMA_POOL: dict[str, list[str]] = {}  # dsn -> clean schemas ready for a new memory


@pytest.fixture
def store_backend(request):
    """The storage backend of a test parametrised over ``BACKENDS`` (indirectly)."""
    return getattr(request, "param", "sqlite")


# Modules whose plain helpers (``mem()``) make memories reach the test's backend here:
# ``pytestmark = [pytest.mark.parametrize("store_backend", BACKENDS, indirect=True),
# pytest.mark.usefixtures("on_backend")]`` and ``CURRENT["backend"].new(...)``.
CURRENT: dict = {}


@pytest.fixture
def on_backend(memory_backend):
    CURRENT["backend"] = memory_backend
    yield memory_backend
    CURRENT.clear()


@pytest.fixture
def memory_backend(store_backend, request, tmp_path):
    """A ``MemoryBackend`` for the test's backend; postgres skips where it cannot run."""
    if store_backend == "postgres":
        if request.node.get_closest_marker("embedded_only"):
            pytest.skip("embedded mode only (reads the memory directory's files)")
        dsn = request.getfixturevalue("postgres_dsn")
        backend = MemoryBackend("postgres", tmp_path, dsn, lambda: request.getfixturevalue("chroma_session").url)
    else:
        backend = MemoryBackend("sqlite", tmp_path)
    yield backend
    backend.cleanup()


def main(argv: list[str]) -> None:
    """``python tests/servers.py [server.toml]``: start a PostgreSQL cluster and a Chroma
    server on free ports (data in temp dirs), write a server config for
    ``BeliefMemory.connect(config=...)`` / ``bcg -m server.toml``, and stop both (by PID,
    data removed) on Ctrl-C."""
    import signal as _signal

    config = Path(argv[0] if argv else "server.toml")
    pg, chroma = PostgresServer(durable=True), ChromaServer()
    for s in (pg, chroma):
        if s.skip_reason():
            sys.exit(f"cannot start: {s.skip_reason()}")
    pg.start()
    try:
        chroma.start()
        try:
            config.write_text(f'[server]\nstore = "{pg.dsn()}"\nchroma = "{chroma.url}"\n', encoding="utf-8")
            print(f"PostgreSQL {pg.dsn()} (pid {pg.pid}), Chroma {chroma.url} (pid {chroma.proc.pid})")
            print(f"wrote {config}; try: bcg ask -m {config} -u u1 'what do I drink?'  (Ctrl-C stops both servers)", flush=True)
            _signal.signal(_signal.SIGTERM, lambda *a: sys.exit(0))
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # even when started in the background
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            chroma.stop()
    finally:
        pg.stop()
        print("stopped both servers")


if __name__ == "__main__":
    main(sys.argv[1:])
