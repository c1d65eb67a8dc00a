"""Writer process for tests/test_lifecycle.py: observes N evidence into a memory
directory while the test runs maintain() on the same directory, then prints the ids
it wrote, one per line.

Usage: python tests/_writer_proc.py MEMORY_DIR N
"""

import sys

from bcg_rag import BeliefMemory, Claim


def main(path: str, n: int) -> None:
    memory = BeliefMemory.open(path, index=None)
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
    print("\n".join(ids))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
