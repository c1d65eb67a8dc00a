"""Token accounting for what the LLM reads, and the token budget.

``count_tokens`` uses tiktoken's cl100k_base when it can load (llama-index ships the
encoding file, so this works offline through its ``get_tokenizer``), else a
deterministic estimate. Either way the same text always gives the same count.
``fit_group`` trims a belief group to a token budget (``render.render_group(group,
max_tokens)`` and ``search(max_tokens=...)`` use it).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable
from typing import Any

MIN_QUOTE_TOKENS = 8  # a budget never cuts a quote below this many tokens; it drops it instead

_TOKENIZER: Any = None
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def _tokenizer():
    """tiktoken's cl100k_base if it can load; otherwise False and count_tokens estimates."""
    global _TOKENIZER
    if _TOKENIZER is None:
        _TOKENIZER = False
        try:
            from llama_index.core.utils import get_tokenizer

            _TOKENIZER = get_tokenizer()
        except Exception:
            try:
                import tiktoken

                _TOKENIZER = tiktoken.get_encoding("cl100k_base").encode
            except Exception:  # not installed, or offline without a cached encoding
                pass
    return _TOKENIZER


def count_tokens(text: str, *, exact: bool = True) -> int:
    """Tokens in ``text``: tiktoken when available, else a deterministic estimate
    (each CJK character 1, every other word or symbol about 1.3)."""
    tok = _tokenizer() if exact else False
    if tok:
        return len(tok(text))
    cjk = len(_CJK.findall(text))
    other = len(_WORD.findall(_CJK.sub(" ", text)))
    return cjk + round(other * 1.3)


# --- token budget --------------------------------------------------------------------------
def fit_group(group: Any, max_tokens: int | None) -> Any:
    """A copy of ``group`` whose rendering (``render_group``) fits ``max_tokens``;
    ``group`` itself when ``max_tokens`` is None. Pure and deterministic.

    Kept first, never cut: the title line (current or best value, band, age), the
    via line and the instruction. Then, in priority order, each added if it fits:

    1. the values that also hold (``ALSO HOLDS``): a many-valued slot's current answer
       is all of them, so dropping one would change the answer;
    2. the newest supporting and the newest refuting quote. If they do not fit, their
       tags lose id and source (``compact``; both stay in the copy's data); if they
       still do not fit, they are cut to a common length (so the longer one is cut
       first), never below ``MIN_QUOTE_TOKENS`` tokens, and marked ``truncated``; if
       that does not fit either, only the quote that backs the label is kept (cut if
       need be): the supporting one of a CURRENT value, the refuting one of an
       UNCERTAIN one;
    3. the other alternatives' lines (outdated, conflict), first alternative first;
    4. the alternatives' quotes, newest first;
    5. the older quotes of the best belief, newest first.

    An item that does not fit is skipped and the next one tried. If the title, via
    and instruction alone exceed the budget they are returned alone. The copy's
    evidence lists hold what is rendered (plus, in an alternative, entries quoted
    elsewhere in the group, which cost nothing); an alternative keeps the entry its
    line cites in ``cited``. ``fit_group(fit_group(g, n), n)`` renders the same.
    """
    if max_tokens is None:
        return group
    return _Fitter(group, max_tokens).run()


class _Fitter:
    def __init__(self, group: Any, max_tokens: int):
        from . import render

        self.r, self.group, self.max_tokens = render, group, max_tokens
        blocks = render._layout(group)
        best = [entries for kind, _, entries in blocks if kind == "best"]
        self.alts = [(alt, entries) for kind, alt, entries in blocks if kind == "alt"]
        self.supporters, self.refuting = best[0], best[1] + best[2]
        self.kept: dict[str, dict] = {}  # evidence id -> entry (maybe compact or cut) of the best belief
        self.alt_kept: dict[int, list[dict]] = {}  # alternative index -> its kept entries

    def build(self) -> Any:
        r = self.r
        ids = set(self.kept) | {_eid(e) for es in self.alt_kept.values() for e in es}
        sup = [self.kept[_eid(e)] for e in self.supporters if _eid(e) in self.kept]
        ref = [self.kept[_eid(e)] for e in self.refuting if _eid(e) in self.kept]
        alts = []
        for i, (alt, _) in enumerate(self.alts):
            if i in self.alt_kept:
                kind = r.status(alt)
                own = [e for e in r._newest(r._alt_entries(alt), r.ALT_QUOTES[kind]) if _eid(e) in ids]
                alts.append(dict(alt, **{"refuted_by" if kind == "outdated" else "supporters": own}, cited=r.cited(alt)))
        return replace_fields(self.group, supporters=sup, refuters=ref, alternatives=alts)

    def fits(self) -> bool:
        return count_tokens(self.r.render_group(self.build())) <= self.max_tokens

    def try_alt(self, i: int) -> None:
        self.alt_kept[i] = []
        if not self.fits():
            del self.alt_kept[i]

    def try_quote(self, e: dict, alt: int | None = None) -> None:
        target = self.alt_kept[alt] if alt is not None else None
        if target is None:
            self.kept[_eid(e)] = e
        else:
            target.append(e)
        if not self.fits():
            if target is None:
                del self.kept[_eid(e)]
            else:
                target.pop()

    def set_quotes(self, entries: list[dict], cut: int | None = None) -> None:
        for e in entries:
            self.kept[_eid(e)] = e if cut is None else cut_entry(e, cut)

    def drop_quotes(self, entries: list[dict]) -> None:
        for e in entries:
            self.kept.pop(_eid(e), None)

    def must_quotes(self) -> None:
        must = self.r._newest(self.supporters, 1) + self.r._newest(self.refuting, 1)
        if self.group.current is None:
            must.reverse()  # nothing is asserted: the refutation is what backs the label
        for entries in (must, [dict(e, compact=True) for e in must]):  # whole, then compact tags
            self.set_quotes(entries)
            if self.fits():
                return
            self.drop_quotes(entries)
        compact = [dict(e, compact=True) for e in must]
        for chosen in (compact, compact[:1]):  # both cut to a common length, then the first alone
            if not chosen:
                return

            def trial(n: int) -> str:  # called right away, inside this iteration
                self.set_quotes(chosen, n)  # noqa: B023
                text = self.r.render_group(self.build())
                self.drop_quotes(chosen)  # noqa: B023
                return text

            n = truncate_to_fit(trial, self.max_tokens, max((str(e["text"]) for e in chosen), key=len))
            if n is not None:
                self.set_quotes(chosen, n)
                return

    def run(self) -> Any:
        status = self.r.status
        for i, (alt, _) in enumerate(self.alts):  # 1. values that also hold
            if status(alt) == "also":
                self.try_alt(i)
        self.must_quotes()  # 2.
        for i in range(len(self.alts)):  # 3. the other alternatives' lines
            if i not in self.alt_kept:
                self.try_alt(i)
        for i, (_, entries) in enumerate(self.alts):  # 4. their quotes, newest first
            if i in self.alt_kept:
                for e in reversed(entries):
                    self.try_quote(e, i)
        older = [e for e in self.supporters + self.refuting if _eid(e) not in self.kept]
        for e in sorted(older, key=lambda e: (str(e["timestamp"]), _eid(e)), reverse=True):  # 5.
            self.try_quote(e)
        return self.build()


def _eid(e: dict) -> str:
    return str(e["evidence_id"])


def cut_entry(e: dict, n: int) -> dict:
    """``e`` with its text cut to ``n`` characters (and an ellipsis), marked ``truncated``."""
    text = str(e["text"])
    return e if len(text) <= n else dict(e, text=text[:n] + "…", truncated=True)


def _min_cut(text: str) -> int:
    """The shortest prefix length worth quoting: ``MIN_QUOTE_TOKENS`` tokens (or all of it)."""
    lo, hi = 1, len(text)
    while lo < hi:
        mid = (lo + hi) // 2
        if count_tokens(text[:mid]) >= MIN_QUOTE_TOKENS:
            hi = mid
        else:
            lo = mid + 1
    return lo


def truncate_to_fit(render: Callable[[int], str], max_tokens: int, text: str) -> int | None:
    """The largest cut length of ``text`` (not below ``MIN_QUOTE_TOKENS`` tokens) for
    which ``render(length)`` fits, or None."""
    from .render import MAX_QUOTE

    lo, hi, best = _min_cut(text), min(len(text), MAX_QUOTE), None
    while lo <= hi:
        mid = (lo + hi) // 2
        if count_tokens(render(mid)) <= max_tokens:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best


def replace_fields(group: Any, **changes: Any) -> Any:
    """A copy of a group with some fields changed (a dataclass, or any object)."""
    if dataclasses.is_dataclass(group) and not isinstance(group, type):
        return dataclasses.replace(group, **changes)
    out = copy.copy(group)
    for k, v in changes.items():
        setattr(out, k, v)
    return out


def compare_with_raw_chunks(memory: Any, query: str, *, user_id: str, top_k: int = 5, **search_kwargs) -> dict:
    """Tokens of our rendering vs the raw chunks a plain vector retriever would pass
    for the same query (its ``top_k`` nearest evidence texts, concatenated)."""
    from .render import render_groups
    from .search import search, search_evidence

    groups = search(memory, query, user_id=user_id, top_k=top_k, **search_kwargs)
    rendered = render_groups(groups, query=query)
    raw = "\n\n".join(r["text"] for r in search_evidence(memory, query, user_id, top_k,
                                                         agent_id=search_kwargs.get("agent_id"),
                                                         as_of=search_kwargs.get("as_of")))
    r, w = count_tokens(rendered), count_tokens(raw)
    return dict(rendered_tokens=r, raw_tokens=w, ratio=(r / w) if w else None, groups=len(groups))


