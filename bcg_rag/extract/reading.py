"""How a message was read: what the offline extractor reports beside its claims (the
cascade decides from it whether an LLM should read the message too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..models import Claim


@dataclass
class Reading:
    """How a message was read: clauses that state something, those parsed, those skipped."""

    statements: int = 0
    parsed: int = 0
    silent: int = 0  # questions, requests, small talk
    unread: list[str] = field(default_factory=list)  # statements no rule read
    rules: list[str] = field(default_factory=list)  # per claim, the rule that read it
    # Per claim: said as an addition ("I also work at Globex", "我也养了只狗"). Such a claim
    # supports its value without refuting the other values of a single-valued slot.
    additive: list[bool] = field(default_factory=list)
    # The user's relatives the message named, (relation, name): "my sister Ana" is who "my
    # sister" means. Not claims: who someone is to the user is a name, kept as an alias.
    kin: list[tuple[str, str]] = field(default_factory=list)

    def additive_claims(self, claims: Sequence[Claim]) -> list[Claim]:
        return [c for c, added in zip(claims, self.additive) if added]

    @property
    def confident(self) -> bool:
        """Every clause that states something gave claims (or nothing stated anything)."""
        return self.parsed >= self.statements
