"""Child process for the SIGKILL test: observes evidence one by one and prints each
acknowledged id, flushing, so the parent knows exactly what was acknowledged."""

import sys

from bcg_rag import BeliefMemory, Claim

path, n = sys.argv[1], int(sys.argv[2])
mem = BeliefMemory.open(path, index=None)
for i in range(n):
    r = mem.observe(
        text=f"I live in city {i % 7} (note {i})", user_id=f"u{i % 3}", timestamp=f"2025-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}",
        source=f"dialog:{i}", claim=Claim("I", "lives_in", f"city {i % 7}", 1.0),
    )
    print(r.evidence_id, flush=True)
