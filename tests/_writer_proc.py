"""Writer for tests/test_lifecycle.py: observes N evidence into a memory while the test
runs maintain() on the same memory (server mode: from another process; embedded: from a
thread, through a second connection). As a script it prints the ids it wrote, one per line.

Usage: python tests/_writer_proc.py SPEC N   (SPEC: a memory directory, or servers.MemoryBackend.spec)
"""

import sys

from bcg_rag import Claim
from servers import open_spec


def write(spec: str, n: int) -> list[str]:
    memory = open_spec(spec, index=None)
    ids = []
    for i in range(n):
        # Half old (maintain archives those at once, so later old evidence lands on
        # archived beliefs and must revive them), half recent (stays hot).
        old = i % 2 == 0
        ts = f"{'2020-01-01' if old else '2024-12-20'}T{i // 60 % 24:02d}:{i % 60:02d}:00"
        claims = [Claim("user", "likes", f"{'old' if old else 'new'}{i % 4}", 1.0 if i % 3 else -0.5)]
        if i % 5 == 0:  # a single-valued slot, archived and restored as a whole
            claims.append(Claim("user", "lives_in", f"city{i % 3}"))
        result = memory.observe(f"writer note {i}", user_id="w", timestamp=ts, source=f"writer:{i}", claims=claims)
        ids.append(result.evidence_id)
    memory.close()
    return ids


if __name__ == "__main__":
    print("\n".join(write(sys.argv[1], int(sys.argv[2]))))
