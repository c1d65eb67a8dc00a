"""Scoring claim extraction on the blind annotation sets (``eval/README.md``, "Claim annotations").

* ``score_claims``: precision and recall on (subject, value, sign of stance) over
  ``chat_claims.jsonl``, per language, per phenomenon and per half. A gold claim with
  ``"modality": "plan"`` is matched only by a ``plan:`` predicate, any other only by a
  non-plan one (a dated plan's claim that falls due, ``starts_in_days``, is not scored:
  the plan claim stands for it). The gold subject ``"user"`` stands for the user id passed in. Values
  match after normalisation, or by the lexicon's canonical name ("咖啡" ~ "coffee").
* ``score_pairs``: each pair of ``chat_pairs.jsonl`` through a real ``BeliefMemory``:
  how many ``additive`` pairs mark a value of the first message outdated (must be 0),
  and how many ``change`` pairs do (the detection rate).
* ``cascade_savings``: LLM calls a ``CascadeExtractor`` makes against one per message.

Halves: an id whose numeric suffix is odd is the development half, even is held out.
Only aggregate figures of the held-out half are meant to be read.

Run ``python -m bcg_rag.evaluation.extraction [--claims FILE] [--pairs FILE]`` for the tables.
"""

from __future__ import annotations

import json
import re
import string
import time
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..errors import InvalidInputError

DATASETS = Path(__file__).resolve().parents[2] / "eval" / "datasets"
CLAIMS_PATH = DATASETS / "chat_claims.jsonl"
PAIRS_PATH = DATASETS / "chat_pairs.jsonl"
USER = "u1"
LEADING = re.compile(r"^(?:(?:a|an|the|my|our|your|his|her|their|its|some)\s+)+")
PUNCT = re.compile(f"[{re.escape(string.punctuation)}“”‘’。，！？；：、（）《》【】…·~]+")


def read_jsonl(path: str | Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise InvalidInputError(f"{path}:{number}: not JSON ({e.msg})") from e
    return rows


def half(item_id: str) -> str:
    """ "dev" for an odd numeric suffix, "held_out" for an even one."""
    m = re.search(r"(\d+)$", item_id)
    if m is None:
        raise InvalidInputError(f"id {item_id!r} has no numeric suffix")
    return "dev" if int(m.group(1)) % 2 else "held_out"


def normalise(text: str) -> str:
    """NFKC, casefold, punctuation removed, spaces collapsed, leading articles/possessives dropped."""
    text = unicodedata.normalize("NFKC", str(text)).casefold().replace("'s ", " ")
    text = " ".join(PUNCT.sub(" ", text).split())
    return LEADING.sub("", text).strip()


def gold_subject(subject: str, user_id: str) -> str:
    if subject == "user":
        return user_id
    if subject.startswith("user's "):
        return f"{user_id}'s {subject[len('user'):].removeprefix(chr(39) + 's ')}"
    return subject


def canonical_value(value: str) -> str:
    from ..extract import default_lexicon

    return default_lexicon().value_of(value)


def sign(stance: float) -> int:
    return 1 if stance > 0 else -1 if stance < 0 else 0


def matches(claim: Any, gold: dict, user_id: str) -> bool:
    if normalise(claim.subject) != normalise(gold_subject(gold["subject"], user_id)):
        return False
    if sign(claim.stance) != sign(float(gold.get("stance", 1.0))):
        return False
    if claim.predicate.startswith("plan:") != (gold.get("modality") == "plan"):
        return False
    values = {normalise(v) for v in [gold["value"], *gold.get("value_aliases", [])]}
    # One thing, one name: the extractor may write a value the lexicon knows by its
    # canonical (English) name ("咖啡" -> "coffee"), as the claim conventions allow.
    canonical = {normalise(canonical_value(v)) for v in values}
    return normalise(claim.value) in values or normalise(canonical_value(claim.value)) in canonical


class Tally:
    def __init__(self) -> None:
        self.extracted = self.correct = self.gold = self.found = 0

    def add(self, extracted: int, correct: int, gold: int, found: int) -> None:
        self.extracted += extracted
        self.correct += correct
        self.gold += gold
        self.found += found

    def row(self) -> dict:
        return dict(
            precision=round(self.correct / self.extracted, 3) if self.extracted else None,
            recall=round(self.found / self.gold, 3) if self.gold else None,
            extracted=self.extracted, gold=self.gold, correct=self.correct, found=self.found,
        )


def score_sentence(extractor: Any, item: dict, user_id: str = USER) -> tuple[list, list[bool], list[bool]]:
    """(claims, per claim: matched a gold claim, per gold claim: was extracted)."""
    # A plan's value from its due date on is the plan read once more: scored as the plan
    claims = [c for c in extractor.extract(item["text"], user_id=user_id) if not c.starts_in_days]
    gold = item["claims"]
    used: set[int] = set()
    claim_ok = []
    for c in claims:
        hit = next((i for i, g in enumerate(gold) if i not in used and matches(c, g, user_id)), None)
        if hit is None:  # a second claim matching an already matched gold claim is still right
            hit = next((i for i, g in enumerate(gold) if matches(c, g, user_id)), None)
        else:
            used.add(hit)
        claim_ok.append(hit is not None)
    gold_ok = [any(matches(c, g, user_id) for c in claims) for g in gold]
    return claims, claim_ok, gold_ok


# The claim set's two blind batches (eval/README.md): ids up to this number were the first.
FIRST_BATCH_LAST_ID = 170


def batch(item_id: str) -> str:
    """ "first" or "second": which blind batch of the claim set an id belongs to."""
    return "first" if int(re.search(r"(\d+)$", item_id).group(1)) <= FIRST_BATCH_LAST_ID else "second"


def score_claims(extractor: Any, items: Iterable[dict], user_id: str = USER) -> dict:
    """Precision/recall tables: ``all``, per ``lang``, per ``phenomenon`` (phenomenon/half), per
    ``half``, per ``batch_half`` (first/dev, second/held_out, ...)."""
    tables: dict[str, dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    items = list(items)
    for warm in ("我喜欢茶", "I like tea"):  # load jieba's dictionary outside the timing
        extractor.extract(warm, user_id=user_id)
    start = time.perf_counter()
    for item in items:
        _, claim_ok, gold_ok = score_sentence(extractor, item, user_id)
        counts = (len(claim_ok), sum(claim_ok), len(gold_ok), sum(gold_ok))
        h, lang = half(item["id"]), item["lang"]
        keys = [("all", "all"), ("half", h), ("lang", lang), ("lang_half", f"{lang}/{h}"),
                ("batch_half", f"{batch(item['id'])}/{h}"), ("batch_lang_half", f"{batch(item['id'])}/{lang}/{h}")]
        keys += [("phenomenon", f"{p}/{h}") for p in item["phenomena"]]
        for table, key in keys:
            tables[table][key].add(*counts)
    elapsed = time.perf_counter() - start
    out = {name: {key: t.row() for key, t in sorted(rows.items())} for name, rows in tables.items()}
    out["throughput"] = dict(messages=len(items), seconds=round(elapsed, 3),
                             messages_per_s=round(len(items) / elapsed, 1) if elapsed else None)
    return out


def dev_failures(extractor: Any, items: Iterable[dict], user_id: str = USER) -> list[dict]:
    """The development half's misses and false claims, for looking at one by one.
    (Never the held-out half's: only its aggregate figures are for reading.)"""
    out = []
    for item in items:
        if half(item["id"]) != "dev":
            continue
        claims, claim_ok, gold_ok = score_sentence(extractor, item, user_id)
        if not all(claim_ok) or not all(gold_ok):
            out.append(dict(
                id=item["id"], text=item["text"],
                false=[(c.subject, c.predicate, c.value, c.stance) for c, ok in zip(claims, claim_ok) if not ok],
                missed=[(g["subject"], g["predicate"], g["value"], g.get("stance", 1.0), g.get("modality"))
                        for g, ok in zip(item["claims"], gold_ok) if not ok],
            ))
    return out


def score_pairs(pairs: Sequence[dict], make_memory: Any, user_id: str = USER) -> dict:
    """Each pair through a fresh memory (``make_memory()``): first message, then the second
    three days later. A pair marks the first outdated when a value the first message
    asserted is no longer asserted afterwards."""
    tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    outdated_additive: list[str] = []
    for pair in pairs:
        memory = make_memory()
        try:
            first = memory.add_message(pair["first"], user_id=user_id, timestamp="2025-01-01T00:00:00")
            memory.add_message(pair["second"], user_id=user_id, timestamp="2025-01-04T00:00:00")
            now = "2025-01-04T00:00:00"
            before = {(c.subject, c.predicate, c.value) for c in first.claims if c.stance > 0}
            beliefs = memory.beliefs(user_id, now=now)
            outdated = any(
                (b.subject, b.predicate, b.value) in before and not memory.asserted(b) for b in beliefs
            ) or _slot_outdated(memory, beliefs)
        finally:
            close = getattr(memory, "close", None)
            if close:
                close()
        key = f"{pair['lang']}/{half(pair['id'])}"
        for table in (pair["relation"], f"{pair['relation']}/{key}"):
            tallies[table]["pairs"] += 1
            tallies[table]["outdated"] += int(outdated)
        if outdated and pair["relation"] == "additive" and half(pair["id"]) == "dev":
            outdated_additive.append(pair["id"])
    out = {k: dict(v) for k, v in sorted(tallies.items())}
    out["dev_additive_outdated_ids"] = outdated_additive
    return out


def _slot_outdated(memory: Any, beliefs: list) -> bool:
    """A restatement slot ("slot:...") whose older value lost to the newer one."""
    return any(b.predicate.startswith("slot:") and not memory.asserted(b) for b in beliefs)


def cascade_savings(texts: Sequence[str], user_id: str = USER) -> dict:
    """LLM calls of a cascade (scripted LLM answering no claims) against one call per message."""
    from ..extract import CascadeExtractor, LLMExtractor, OfflineExtractor
    from ..testing import scripted

    cascade = CascadeExtractor(OfflineExtractor(), LLMExtractor(scripted('{"claims": []}')))
    for text in texts:
        cascade.extract(text, user_id=user_id)
    calls = cascade.stats["llm_calls"]
    return dict(messages=len(texts), llm_calls=calls, saved=len(texts) - calls,
                saved_share=round((len(texts) - calls) / len(texts), 3) if texts else None)


def builtin_texts() -> list[str]:
    from .cases import BUILTIN_PATH, load_cases

    return [e.text for case in load_cases(BUILTIN_PATH) for e in case.events]


def hash_memory_factory() -> Any:
    from .. import BeliefMemory, Policy

    policy = Policy.from_dict({"embedder": {"kind": "hash"}})
    return lambda: BeliefMemory.in_memory(policy)


def main(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - a report for people
    import argparse

    from ..extract import OfflineExtractor

    parser = argparse.ArgumentParser(description="claim extraction precision / recall and false supersessions")
    parser.add_argument("--claims", default=str(CLAIMS_PATH), help="a claims file in the chat_claims.jsonl format")
    parser.add_argument("--pairs", default=str(PAIRS_PATH), help="a pairs file in the chat_pairs.jsonl format")
    args = parser.parse_args(argv)
    items = read_jsonl(args.claims)
    claims = score_claims(OfflineExtractor(), items)
    for table in ("all", "half", "lang_half", "batch_half", "batch_lang_half", "phenomenon"):
        print(f"\n[{table}]")
        for key, row in claims[table].items():
            print(f"  {key:28s} P={row['precision']}  R={row['recall']}  (extracted {row['extracted']}, gold {row['gold']})")
    print("\nthroughput:", claims["throughput"])
    print("pairs:", json.dumps(score_pairs(read_jsonl(args.pairs), hash_memory_factory()), indent=1))
    print("cascade, builtin:", cascade_savings(builtin_texts()))
    print("cascade, chat_claims:", cascade_savings([i["text"] for i in items]))


if __name__ == "__main__":  # pragma: no cover
    main()
