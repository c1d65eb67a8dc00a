"""Turn public data sets into evaluation cases. The data is read from a path the
caller gives and never copied into the repository (see ``eval/README.md``).

Malformed records are skipped; how many, and why, is logged as one warning.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..errors import InvalidInputError
from ..models import Claim
from .cases import Case, CaseEvent, Question, overlaps

log = logging.getLogger(__name__)

USER = "u1"
MQUAKE_T0 = datetime(2020, 1, 1)  # the old facts
MQUAKE_T1 = datetime(2024, 1, 1)  # the edits
# What a malformed record can raise while we pick it apart.
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def _iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S")


def _unique(values: Iterable[str]) -> list[str]:
    """Non-empty strings, first occurrence kept."""
    if isinstance(values, (str, dict)):
        raise TypeError(f"expected a list of strings, got {values!r}")
    out: list[str] = []
    for v in values:
        if isinstance(v, str) and v.strip() and v not in out:
            out.append(v)
    return out


def _without(stale: Iterable[str], expected: list[str]) -> list[str]:
    """Stale aliases that cannot be confused with an expected alias."""
    return [s for s in _unique(stale) if not any(overlaps(s, e) for e in expected)]


def _warn(name: str, skipped: Counter) -> None:
    if skipped:
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(skipped.items()))
        log.warning("%s: skipped %d record(s): %s", name, sum(skipped.values()), reasons)


def _read_jsonl(path: str | Path, skipped: Counter) -> Iterator[Any]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                skipped["bad JSON line"] += 1


# --- MQuAKE ----------------------------------------------------------------------------

def convert_mquake(path: str | Path, limit: int | None = None) -> list[Case]:
    """Two cases per MQuAKE record: ``mquake-<id>-edits`` (kind update, one question per
    edit) and ``mquake-<id>-multihop`` (the record's multi-hop questions), both over the
    same events: every old fact at 2020-01-01, every edited fact at 2024-01-01."""
    text = Path(path).read_text(encoding="utf-8")
    skipped: Counter = Counter()
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{path} is not valid JSON: {exc}") from exc
    else:
        records = list(_read_jsonl(path, skipped))
    cases: list[Case] = []
    used = 0
    for record in records:
        if limit is not None and used >= limit:
            break
        try:
            cases.extend(_mquake_record(record))
            used += 1
        except MALFORMED as exc:
            skipped[f"malformed ({type(exc).__name__})"] += 1
    _warn(f"MQuAKE {path}", skipped)
    return cases


def _mquake_events(record: dict) -> list[CaseEvent]:
    cid = record["case_id"]
    old, new = [], []
    for i, edit in enumerate(record["requested_rewrite"]):
        if "{}" not in edit["prompt"]:
            raise ValueError("prompt without {}")
        stem = edit["prompt"].replace("{}", edit["subject"])
        for events, at, target, tag in ((old, MQUAKE_T0, "target_true", "old"), (new, MQUAKE_T1, "target_new", "new")):
            value = edit[target]["str"]
            events.append(CaseEvent(
                text=f"{stem} {value}" + ("" if value.endswith(".") else "."),
                timestamp=_iso(at + timedelta(minutes=i)),
                user_id=USER,
                source=f"mquake:{cid}:{i}:{tag}",
                source_type="user_explicit",
                claims=(Claim(edit["subject"], edit["relation_id"], value),),
            ))
    return old + new


def _mquake_record(record: dict) -> list[Case]:
    cid = record["case_id"]
    edits = record["requested_rewrite"]
    if not edits:
        raise ValueError("no edits")
    events = tuple(_mquake_events(record))
    functional = tuple(_unique(e["relation_id"] for e in edits))
    # Match hops by answer, not by position: the lists need not line up (README "trap").
    hop_aliases = {h["answer"]: h.get("answer_alias") or [] for h in record.get("new_single_hops") or []}
    single = []
    for edit in edits:
        new, old = edit["target_new"]["str"], edit["target_true"]["str"]
        expect = _unique([new, *hop_aliases.get(new, [])])
        single.append(Question(edit["question"], USER, expect=tuple(expect), stale=tuple(_without([old], expect))))
    expect = _unique([record["new_answer"], *(record.get("new_answer_alias") or [])])
    stale = _without([record["answer"], *(record.get("answer_alias") or [])], expect)
    multi = [Question(q, USER, expect=tuple(expect), stale=tuple(stale)) for q in _unique(record["questions"])]
    if not multi or not expect:
        raise ValueError("no multi-hop questions")
    return [
        Case(f"mquake-{cid}-edits", "en", "update", events, tuple(single), functional),
        Case(f"mquake-{cid}-multihop", "en", _multihop_kind(record), events, tuple(multi), functional),
    ]


def _multihop_kind(record: dict) -> str:
    """``multihop-<hops>``: the chain length, from the record's (new) triples; ``multihop``
    when the record does not give them."""
    orig = record.get("orig") or {}
    triples = orig.get("new_triples_labeled") or orig.get("triples_labeled") or orig.get("new_triples") or []
    return f"multihop-{len(triples)}" if isinstance(triples, list) and triples else "multihop"


# --- SituatedQA ------------------------------------------------------------------------

def _start(d: dict) -> datetime:
    return datetime(int(d["year"]), int(d.get("month") or 1), int(d.get("date") or 1))


def _as_of(date: str) -> datetime:
    """'2015' -> the last second of 2015; 'January 27, 2021' -> the last second of that day."""
    date = date.strip()
    if re.fullmatch(r"\d{4}", date):
        return datetime(int(date), 12, 31, 23, 59, 59)
    return datetime.strptime(date, "%B %d, %Y").replace(hour=23, minute=59, second=59)


def _situated_timeline(record: dict, skipped: Counter) -> dict | None:
    """The usable first timeline entry of a question, or None (counted in ``skipped``)."""
    timelines = record.get("timelines")
    if not timelines:
        return None  # a question that never changed: not an update case, not an error
    entry = timelines[0]
    prev, cur = _unique(entry.get("prev_answers") or []), _unique(entry.get("cur_answers") or [])
    if not prev or not cur:
        skipped["timeline without prev or cur answers"] += 1
        return None
    if set(prev) == set(cur):
        skipped["timeline with identical answers"] += 1
        return None
    if not entry.get("prev_start") or not entry.get("cur_start"):
        skipped["timeline without start dates"] += 1
        return None
    prev_at, cur_at = _start(entry["prev_start"]), _start(entry["cur_start"])
    if prev_at >= cur_at:
        skipped["timeline whose change has no later date"] += 1
        return None
    question = record["question"].strip()
    if not question:
        raise ValueError("empty question")
    qid = record["id"]
    events = tuple(
        CaseEvent(
            text=f"Q: {question} A: {', '.join(answers)}",
            timestamp=_iso(at),
            user_id=USER,
            source=f"situatedqa:{qid}:{tag}",
            source_type="user_explicit",
            claims=(Claim(question, "answer", ", ".join(answers)),),
        )
        for answers, at, tag in ((prev, prev_at, "prev"), (cur, cur_at, "cur"))
    )
    return {"id": qid, "question": question, "events": events, "prev": prev, "cur": cur,
            "prev_at": prev_at, "cur_at": cur_at}


def convert_situatedqa(
    timelines_path: str | Path, asof_path: str | Path | None = None, limit: int | None = None
) -> list[Case]:
    """One ``update`` case per question whose first timeline entry is a usable change
    (the answer before at its start date, the answer after at its own), then, with
    ``asof_path``, one ``asof`` case per such question with its as-of rows as questions.
    ``limit`` caps the number of questions converted."""
    skipped: Counter = Counter()
    timelines: dict[Any, dict] = {}
    cases: list[Case] = []
    for record in _read_jsonl(timelines_path, skipped):
        if limit is not None and len(timelines) >= limit:
            break
        try:
            tl = _situated_timeline(record, skipped)
        except MALFORMED as exc:
            skipped[f"malformed timeline ({type(exc).__name__})"] += 1
            continue
        if tl is None or tl["id"] in timelines:
            continue
        timelines[tl["id"]] = tl
        question = Question(tl["question"], USER, expect=tuple(tl["cur"]), stale=tuple(_without(tl["prev"], tl["cur"])))
        cases.append(Case(f"situatedqa-{tl['id']}-update", "en", "update", tl["events"], (question,), ("answer",)))
    _warn(f"SituatedQA timelines {timelines_path}", skipped)
    if asof_path is not None:
        cases.extend(_situated_asof(asof_path, timelines))
    return cases


def _situated_asof(path: str | Path, timelines: dict[Any, dict]) -> list[Case]:
    skipped: Counter = Counter()
    rows: dict[Any, list[Question]] = {}
    for row in _read_jsonl(path, skipped):
        try:
            tl = timelines.get(row["id"])
            if tl is None:
                continue  # no usable timeline for this question (or beyond ``limit``)
            at = _as_of(str(row["date"]))
            if at < tl["prev_at"]:
                skipped["as-of date before the first statement"] += 1
                continue
            expect = _unique(row["answer"])
            in_force = tl["cur"] if at >= tl["cur_at"] else tl["prev"]
            if not expect or not any(overlaps(a, v) for a in expect for v in in_force):
                skipped["answer is not the timeline's value at that date"] += 1
                continue
            stale = _without(row.get("any_answer") or [], expect)
            # The clock stands at the statement in force: decay models fading personal
            # memory, not world facts that hold for decades between two statements.
            now = tl["cur_at"] if at >= tl["cur_at"] else tl["prev_at"]
            rows.setdefault(tl["id"], []).append(Question(
                tl["question"], USER, as_of=_iso(at), now=_iso(now), expect=tuple(expect), stale=tuple(stale)))
        except MALFORMED as exc:
            skipped[f"malformed as-of row ({type(exc).__name__})"] += 1
    _warn(f"SituatedQA as-of {path}", skipped)
    return [
        Case(f"situatedqa-{qid}-asof", "en", "asof", timelines[qid]["events"], tuple(questions), ("answer",))
        for qid, questions in rows.items()
    ]

