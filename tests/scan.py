"""The byte scan the deletion tests use: which files under a directory hold which strings."""

from __future__ import annotations

from pathlib import Path


def files_with(root: Path, needles: list[bytes]) -> dict[str, list[bytes]]:
    found = {}
    for p in sorted(root.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            hits = [n for n in needles if n in data]
            if hits:
                found[str(p.relative_to(root))] = hits
    return found
