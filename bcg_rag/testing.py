"""A scripted fake LLM for tests and offline examples: it answers with fixed strings
and records every prompt, so a test can assert what the LLM was shown. Used only
where a hosted LLM cannot run; it never decides anything on the update path."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.llms.types import CompletionResponse, CompletionResponseGen, LLMMetadata
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_completion_callback


class ScriptedLLM(CustomLLM):
    """Answers with the next string of ``answers`` (the last one repeats); records prompts."""

    answers: list[str]
    usage: dict | None = None  # reported as raw usage when set
    prompts: list[str] = []

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="scripted")

    def _next(self, prompt: str) -> CompletionResponse:
        self.prompts.append(prompt)
        answer = self.answers[min(len(self.prompts) - 1, len(self.answers) - 1)]
        raw = {"usage": self.usage} if self.usage else None
        return CompletionResponse(text=answer, raw=raw)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return self._next(prompt)

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        yield self._next(prompt)


def scripted(*answers: str, usage: dict | None = None) -> ScriptedLLM:
    return ScriptedLLM(answers=list(answers), usage=usage, prompts=[])
