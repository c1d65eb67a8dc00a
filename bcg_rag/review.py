"""Review and audit: beliefs a person should look at (contested, low confidence), a
person's verdict recorded as ``human_review`` evidence that moves the belief by the
ordinary rule, and the append-only audit log. Plain functions over a ``BeliefMemory``;
thresholds from the policy's ``[lifecycle]`` section. ``lifecycle`` re-exports them.
"""

from __future__ import annotations

from typing import Any

from . import lifecycle, revision
from .checks import check_optional_text, check_text, require_user
from .errors import InvalidInputError
from .models import REFUTES, SUPPORTS, Claim
from .views import belief_row

REVIEW_SOURCE_TYPE = "human_review"
VERDICTS = {"confirm": 1.0, "reject": -1.0}


# --- review ------------------------------------------------------------------------------
def _contested(row: dict, strong: float) -> bool:
    """Strong evidence on both sides. Derived refutations do not count: that a user moved
    is an inference, not two sources disagreeing."""
    sides = {SUPPORTS: False, REFUTES: False}
    for h in row["history"]:
        if not revision.is_derived(h["reason"]) and h["weight"] * abs(h["value"]) >= strong:
            sides[h["relation"]] = True
    return sides[SUPPORTS] and sides[REFUTES]


def review_queue(memory: Any, user_id: str | None = None, *, now: Any = None) -> list[dict]:
    """Beliefs a person should look at: contested ones, and those whose effective
    confidence is below ``review_below``. Invalidated beliefs are settled and left out,
    and so is a belief whose latest evidence is already a human verdict (until new
    evidence arrives). Contested first, then lowest confidence."""
    user_id = None if user_id is None else require_user(user_id)
    now = lifecycle._now(memory, now)
    strong, below = lifecycle._lc(memory, "review_contested"), lifecycle._lc(memory, "review_below")
    out = []
    for row in memory.store.find_beliefs(user_id):
        if not row["history"] or row["status"] == "invalidated":
            continue
        effective = lifecycle._effective(memory, row, now)
        reasons = (["contested"] if _contested(row, strong) else []) + (["low_confidence"] if effective < below else [])
        if not reasons:
            continue
        last = memory.store.get_node("evidence", row["history"][-1]["evidence_id"])
        if last is not None and last["source_type"] == REVIEW_SOURCE_TYPE:
            continue
        subject = memory.store.get_node("entity", row["subject_id"])
        out.append(dict(
            belief_id=row["id"], user_id=row["user_id"], subject=subject["name"] if subject else row["subject_id"],
            predicate=row["predicate"], value=row["value"], contexts=row["contexts"], status=row["status"],
            confidence=row["confidence"], effective_confidence=effective, reasons=reasons,
        ))
    out.sort(key=lambda d: ("contested" not in d["reasons"], d["effective_confidence"], d["belief_id"]))
    return out


def review(
    memory: Any, belief_id: str, verdict: str | float, reviewer: str, note: str | None = None, now: Any = None
) -> Any:
    """Record a person's verdict on a belief as ``human_review`` evidence ("confirm" = +1,
    "reject" = -1, or a stance in [-1, 1]), so it moves the belief by the ordinary rule
    and shows in ``explain``. Returns the ``ObserveResult``."""
    belief_id = check_text(belief_id, "belief_id", 1000)
    if isinstance(verdict, str):
        if verdict not in VERDICTS:
            raise InvalidInputError(f"verdict must be 'confirm', 'reject' or a stance in [-1, 1], got {verdict!r}")
        stance = VERDICTS[verdict]
    else:
        stance = verdict  # Claim checks the range
    reviewer = check_text(reviewer, "reviewer", 200)
    note = check_optional_text(note, "note", 2000)
    Claim("user", "review", "verdict", stance)  # the stance is checked before anything is read or written
    row = belief_row(memory, belief_id, None)  # by id: a reviewer works on any user's belief
    now = lifecycle._now(memory, now)
    subject = memory.store.get_node("entity", row["subject_id"])["name"]
    claim = Claim(subject=subject, predicate=row["predicate"], value=row["value"], stance=stance)
    context = row["contexts"][0] if row["contexts"] else None
    target = dict(user_id=row["user_id"], subject=subject, predicate=row["predicate"], value=row["value"], context=context)
    if lifecycle._claim_belief_id(memory, target) != belief_id:  # checked before writing anything
        raise InvalidInputError(f"a review claim would not reach belief {belief_id!r} (its subject resolves elsewhere)")
    text = f"Review by {reviewer}: {verdict} that {subject} {row['predicate']} {row['value']}" + (f". {note}" if note else "")
    result = memory.observe(
        text=text, user_id=row["user_id"], timestamp=now, source=f"review:{reviewer}:{now}",
        source_type=REVIEW_SOURCE_TYPE, claim=claim, context=context,
    )
    with memory.store.transaction():
        lifecycle._audit(memory, now, "review", belief_id, row["user_id"], reviewer, f"verdict {verdict}", dict(evidence_id=result.evidence_id))
    lifecycle._update_status(memory, belief_id, now, reviewer)  # the same rule maintain applies
    return result


# --- audit -------------------------------------------------------------------------------
def audit(memory: Any, user_id: str | None = None, action: str | None = None) -> list[dict]:
    """The append-only audit log (oldest first): weaken, reactivate, invalidate, archive,
    restore, review, alias_merge, alias_undo, forget_evidence, forget_user."""
    user_id = None if user_id is None else require_user(user_id)
    action = None if action is None else check_text(action, "action", 100)
    return memory.store.audit(user_id=user_id, action=action)
