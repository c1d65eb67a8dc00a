"""Claims from any LlamaIndex LLM: JSON asked for, validated, retried; usage counted."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..errors import ExtractionError, InvalidInputError
from ..models import Claim
from .lexicon import stable_name
from .text import CJK, CJK_CHAR

if TYPE_CHECKING:
    from llama_index.core.llms import LLM

LLM_RULES = """You extract claims from chat messages for a memory that tracks beliefs.
Rules:
- A claim is {{"subject": str, "predicate": str, "value": str, "stance": number, "source_type": str (optional), \
"starts_in_days": int (optional)}}.
- subject: the entity the claim is about. The speaker is "{speaker}"; first-person statements \
("I", "my", "me", "we", "our", "我", "我们") have subject "{speaker_id}".{user_rule} A named person or thing \
is its name as written ("my sister Anna" -> "Anna"); an unnamed relative, friend or colleague is \
"{user_id}'s <relation>" with an English relation word whatever the language ("my mom", "我妈" -> \
"{user_id}'s mother"). Different people never share a subject.
- predicate: short snake_case relation, e.g. lives_in, works_at, job_title, likes, has_pet, speaks. Reuse \
one of these names whenever it fits: {known_predicates}
- value: short, the thing itself ("Stripe", not "Stripe in March"; "Acme", not "my job at Acme"), \
without articles or time phrases. Reuse one of these entity names whenever it fits: {known_entities}
- stance in [-1, 1]: 1.0 asserted; -0.8 denied, stopped or past: "no longer", "quit", "used to", \
"不再", "戒", "以前", "之前"; a move or switch "from X to Y" gives X -0.8 and Y 1.0. Halve it for hedges \
("maybe", "I think", "可能"). An ending that does not say what kind of thing ended ("gave up on spanish", \
"left Northwind", "吉他课不上了") is the predicate "does" with stance -0.8; the memory links it to the value it names.
- Plans and intentions ("going to", "thinking of", "next year", "打算", "下个月") are not current facts: \
use the predicate "plan:<predicate>" (e.g. plan:lives_in) with stance 0.5. A settled plan with a date \
("starting at Stripe next week", "I'm moving to Lyon next month", "下周一去恒通物流报到") for where someone lives \
or works, their job title or the like also gives that claim itself, stance 1.0, with "starts_in_days": the \
days until it falls due (tomorrow 1, next week 7, next month 30, next year 365); a wish, a hedge or an \
undated plan ("want to", "thinking of", "maybe", "soon", "打算") does not.
- Only where, who one works for, job title, birthday, marriage and the like hold one value at a time. \
Possessions, pets, languages, likes, hobbies, skills, family and friends are many-valued: a new one \
is added, it does not replace the old one, so never deny an old value unless the text says so \
(moved to, switched to, now, no longer, instead of, quit, 不再, 换成, 搬到, 现在). A value said as an \
addition ("also", "too", "as well", "another", "也", "还") stands beside the old one even where one value \
is usual ("I also work at Globex on weekends"): never deny the old value for it.
- How many things someone has is one number at a time: "I now own four bikes" -> number_of_bikes "4" \
(beside has "bikes"); people and pets are named, not counted. A job noun after "I'm a" is a job_title \
("I'm a junior developer"). A relative one often has several of (aunt, cousin, brother, friend) may be \
two people: a second value for "my aunt" is added, not a replacement, unless the text says a change.
- Episodes are not habits: "had sushi yesterday", "今天中午吃了猪脚饭" say nothing about what someone eats.
- Questions, requests to the assistant and small talk say nothing: no claims.
- A message with nothing to remember has no claims.
Answer with JSON only, no prose."""

LLM_SINGLE = """{rules}
Answer shape: {{"claims": [claim, ...]}}

Message:
{message}"""

LLM_BATCH = """{rules}
The messages are numbered from 0. Answer shape: \
{{"results": [{{"index": 0, "claims": [claim, ...]}}, ...]}} with one entry for every message.

{messages}"""

JSON_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL | re.IGNORECASE)


class MalformedAnswer(ValueError):
    """An LLM answer that is not the JSON we asked for; the reason goes into the retry prompt."""


def estimate_tokens(text: str) -> int:
    """A model-free token count: one per Chinese character, one per other word or symbol run."""
    cjk = len(CJK_CHAR.findall(text))
    return cjk + len(re.findall(rf"[^\s{CJK}]+", text))


def usage_from(response: Any) -> tuple[int, int] | None:
    """(prompt, completion) tokens reported by the provider in ``response.raw``, if any."""
    raw = getattr(response, "raw", None)
    usage = raw.get("usage") if isinstance(raw, dict) else getattr(raw, "usage", None)
    if usage is None:
        return None

    def field(*names: str) -> int | None:
        for name in names:
            value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
            if isinstance(value, int):
                return value
        return None

    prompt = field("prompt_tokens", "input_tokens")
    completion = field("completion_tokens", "output_tokens")
    if prompt is None or completion is None:
        return None
    return prompt, completion


def parse_json_answer(answer: str) -> Any:
    fenced = JSON_FENCE.search(answer)
    body = fenced.group(1) if fenced else answer.strip()
    try:
        return json.loads(body)
    except json.JSONDecodeError as e:
        raise MalformedAnswer(f"not valid JSON ({e.msg} at char {e.pos})") from e


@dataclass(frozen=True)
class Request:
    """The extract() keywords, checked once and shared by prompting and validation."""

    user_id: str
    speaker: str = "user"
    context: str | None = None
    known_predicates: tuple[str, ...] = ()
    known_entities: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.user_id, str) or not self.user_id.strip():
            raise InvalidInputError(f"user_id must be a non-empty string, got {self.user_id!r}")

    @property
    def speaker_id(self) -> str:
        """What "I" means in the message."""
        return self.user_id if self.speaker == "user" or not self.speaker else self.speaker


class LLMExtractor:
    """Claims from any LlamaIndex LLM: one call per message (or per batch), JSON validated.

    A malformed or partial answer is asked again up to ``max_retries`` times, then
    ``ExtractionError`` carries the last raw answer. ``usage`` counts calls and tokens
    (the provider's numbers when the response reports them, an estimate otherwise).
    """

    def __init__(self, llm: LLM, max_retries: int = 2):
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise InvalidInputError(f"max_retries must be an int >= 0, got {max_retries!r}")
        self.llm = llm
        self.max_retries = max_retries
        self.usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}

    def extract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]:
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        prompt = LLM_SINGLE.format(rules=self._rules(request), message=text)
        return self._ask(prompt, lambda data: self._claims_of(data, request))

    async def aextract(
        self,
        text: str,
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[Claim]:
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        prompt = LLM_SINGLE.format(rules=self._rules(request), message=text)
        return await self._aask(prompt, lambda data: self._claims_of(data, request))

    def extract_batch(
        self,
        texts: Sequence[str],
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[list[Claim]]:
        """One call for all ``texts``; one claim list per text, in order."""
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        if not texts:
            return []
        prompt = self._batch_prompt(texts, request)
        return self._ask(prompt, lambda data: self._batch_claims_of(data, len(texts), request))

    async def aextract_batch(
        self,
        texts: Sequence[str],
        *,
        user_id: str,
        speaker: str = "user",
        context: str | None = None,
        known_predicates: Sequence[str] = (),
        known_entities: Sequence[str] = (),
    ) -> list[list[Claim]]:
        request = Request(user_id, speaker, context, tuple(known_predicates), tuple(known_entities))
        if not texts:
            return []
        prompt = self._batch_prompt(texts, request)
        return await self._aask(prompt, lambda data: self._batch_claims_of(data, len(texts), request))

    # ---- prompting

    @staticmethod
    def _rules(request: Request) -> str:
        def listing(names: tuple[str, ...]) -> str:
            return json.dumps(list(names), ensure_ascii=False) if names else "(none yet)"

        user_rule = ""
        if request.speaker_id != request.user_id:
            user_rule = f' Second-person statements ("you", "你") have subject "{request.user_id}".'
        return LLM_RULES.format(
            user_id=request.user_id,
            speaker=request.speaker,
            speaker_id=request.speaker_id,
            user_rule=user_rule,
            known_predicates=listing(request.known_predicates),
            known_entities=listing(request.known_entities),
        )

    def _batch_prompt(self, texts: Sequence[str], request: Request) -> str:
        numbered = "\n".join(f"[{i}] {json.dumps(t, ensure_ascii=False)}" for i, t in enumerate(texts))
        return LLM_BATCH.format(rules=self._rules(request), messages=numbered)

    @staticmethod
    def _retry_prompt(prompt: str, reason: str) -> str:
        return f"{prompt}\n\nYour previous answer was rejected: {reason}. Answer again with the JSON only."

    # ---- calling, with retries (the sync and async loops differ only in the await)

    def _ask(self, prompt: str, parse: Callable[[Any], Any]) -> Any:
        answer, reason = "", ""
        for attempt in range(self.max_retries + 1):
            sent = prompt if attempt == 0 else self._retry_prompt(prompt, reason)
            answer = self._count(sent, self.llm.complete(sent))
            try:
                return parse(parse_json_answer(answer))
            except MalformedAnswer as e:
                reason = str(e)
        raise self._give_up(answer, reason)

    async def _aask(self, prompt: str, parse: Callable[[Any], Any]) -> Any:
        answer, reason = "", ""
        for attempt in range(self.max_retries + 1):
            sent = prompt if attempt == 0 else self._retry_prompt(prompt, reason)
            answer = self._count(sent, await self.llm.acomplete(sent))
            try:
                return parse(parse_json_answer(answer))
            except MalformedAnswer as e:
                reason = str(e)
        raise self._give_up(answer, reason)

    def _give_up(self, answer: str, reason: str) -> ExtractionError:
        return ExtractionError(
            f"LLM answer still malformed after {self.max_retries + 1} attempt(s) ({reason}); "
            f"last raw answer: {answer[:2000]!r}"
        )

    def _count(self, prompt: str, response: Any) -> str:
        """Record one call's tokens; return the answer text."""
        answer = getattr(response, "text", None)
        answer = answer if isinstance(answer, str) else str(response)
        reported = usage_from(response)
        prompt_tokens, completion_tokens = reported or (estimate_tokens(prompt), estimate_tokens(answer))
        self.usage["calls"] += 1
        self.usage["prompt_tokens"] += prompt_tokens
        self.usage["completion_tokens"] += completion_tokens
        return answer

    # ---- validating

    def _claims_of(self, data: Any, request: Request) -> list[Claim]:
        if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
            raise MalformedAnswer('expected an object with a "claims" list')
        return [self._claim(item, request) for item in data["claims"]]

    def _batch_claims_of(self, data: Any, count: int, request: Request) -> list[list[Claim]]:
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            raise MalformedAnswer('expected an object with a "results" list')
        by_index: dict[int, list[Claim]] = {}
        for entry in data["results"]:
            index = entry.get("index") if isinstance(entry, dict) else None
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count or index in by_index:
                raise MalformedAnswer(f"bad or repeated result index {index!r}")
            by_index[index] = self._claims_of(entry, request)
        missing = [i for i in range(count) if i not in by_index]
        if missing:  # a partial answer would silently drop messages
            raise MalformedAnswer(f"no result for message(s) {missing}")
        return [by_index[i] for i in range(count)]

    @staticmethod
    def _claim(item: Any, request: Request) -> Claim:
        if not isinstance(item, dict):
            raise MalformedAnswer(f"a claim must be an object, got {item!r}")
        missing = [name for name in ("subject", "predicate", "value", "stance") if name not in item]
        if missing:
            raise MalformedAnswer(f"claim {item!r} lacks {missing}")
        subject, predicate = item["subject"], item["predicate"]
        if isinstance(subject, str):
            # Models sometimes answer "I"/"user" despite the instruction; the meaning is unambiguous.
            if subject.strip().casefold() in {"i", "me", "user", "the user", "我"}:
                subject = request.speaker_id
            known = {e.casefold(): e for e in request.known_entities}
            subject = known.get(subject.casefold(), subject)
        if isinstance(predicate, str):
            predicate = stable_name(predicate, request.known_predicates)
        source_type = item.get("source_type")
        try:
            return Claim(
                subject=subject,
                predicate=predicate,
                value=item["value"],
                stance=item["stance"],
                source_type=source_type if isinstance(source_type, str) and source_type.strip() else None,
                context=request.context,
                starts_in_days=0 if item.get("starts_in_days") is None else item["starts_in_days"],
            )
        except InvalidInputError as e:  # includes a stance outside [-1, 1]
            raise MalformedAnswer(f"invalid claim {item!r}: {e}") from e

