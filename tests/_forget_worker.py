"""A process that keeps writing and reading two users (alice and bob) until a stop file
appears, while tests/test_server_mode.py forgets alice. Prints a JSON report: the types
of the failures it saw (only BCGError subclasses may occur), the alice texts it tried
to write, the bob evidence that was acknowledged.

Usage: python tests/_forget_worker.py SPEC STOP_FILE WORKER
"""

import json
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bcg_rag import BCGError, Claim  # noqa: E402
from bcg_rag.search import search_evidence  # noqa: E402
from servers import open_spec  # noqa: E402

ALICE, TOKEN = "alice-7f3e9", "zqxjkvbw"


def main(spec: str, stop: Path, worker: int) -> None:
    mem = open_spec(spec)
    typed: dict[str, int] = {}
    untyped: list[str] = []
    alice_texts, bob_acked = [], []

    def attempt(fn):
        try:
            return fn()
        except BCGError as exc:
            typed[type(exc).__name__] = typed.get(type(exc).__name__, 0) + 1
        except Exception:
            untyped.append(traceback.format_exc()[-1500:])
        return None

    i = 0
    while not stop.exists() and i < 5000:
        text = f"{TOKEN} alice secret {worker}-{i}: my cat {TOKEN} eats tuna"
        alice_texts.append(text)
        attempt(lambda: mem.observe(text, user_id=ALICE, timestamp=f"2025-01-01T00:00:{i % 60:02d}",
                                    context=f"project:{TOKEN}", claim=Claim("I", "likes", f"tuna {i % 3}")))
        attempt(lambda: search_evidence(mem, f"my cat {TOKEN}", ALICE))
        attempt(lambda: mem.search("what does my cat eat?", user_id=ALICE))
        r = attempt(lambda: mem.observe(f"bob note {worker}-{i}", user_id="bob", timestamp="2025-01-02",
                                        claim=Claim("I", "likes", f"espresso {i % 2}")))
        if r is not None:
            bob_acked.append(r.evidence_id)
        if i % 25 == 0:
            attempt(mem.validate)
        i += 1
    mem.close()
    print(json.dumps(dict(typed=typed, untyped=untyped, alice_texts=alice_texts, bob_acked=bob_acked)))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]))
