"""Child process for the SIGKILL and two-process tests: observes evidence one by one and
prints each acknowledged id, flushing, so the parent knows exactly what was acknowledged.
Exits 3 when the memory is held by another process (embedded mode).

Usage: python tests/_ingest_proc.py SPEC N   (SPEC: a memory directory, or servers.MemoryBackend.spec)
"""

import sys

from bcg_rag import Claim, MemoryLockedError
from servers import open_spec

spec, n = sys.argv[1], int(sys.argv[2])
try:
    mem = open_spec(spec, index=None)
except MemoryLockedError as exc:
    print(f"MemoryLockedError: {exc}", file=sys.stderr)
    sys.exit(3)
for i in range(n):
    r = mem.observe(
        text=f"I live in city {i % 7} (note {i})", user_id=f"u{i % 3}", timestamp=f"2025-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}",
        source=f"dialog:{i}", claim=Claim("I", "lives_in", f"city {i % 7}", 1.0),
    )
    print(r.evidence_id, flush=True)
mem.close()
