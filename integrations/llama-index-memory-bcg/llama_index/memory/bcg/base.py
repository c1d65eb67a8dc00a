"""BeliefMemoryBlock: bcg-rag beliefs as a LlamaIndex ``Memory`` block.

Every turn, the block searches the belief memory with the latest user message and
returns the rendered beliefs (``render_groups``: a data header, then every user
string quoted), which ``Memory`` puts in the system message. ``max_tokens`` caps each
belief group (``bcg_rag.render.fit_group``), ``max_total_tokens`` the whole block. Writing needs one more piece: LlamaIndex's ``Memory`` hands
messages to its blocks only when its short-term buffer overflows and flushes
(``Memory._manage_queue``), which may be never in a short chat. So
``BeliefChatMemory`` (a ``Memory`` subclass) passes each message to its belief
blocks on every ``put``; the block stores each *user* message as evidence.
"""

from __future__ import annotations

import asyncio
from typing import Any, List, Optional

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, model_validator
from llama_index.core.memory import BaseMemoryBlock, Memory

from bcg_rag.render import render_groups
from bcg_rag.search import SearchResult, search, search_evidence

DEFAULT_DESCRIPTION = "What the memory believes about the user, with evidence and confidence."


class BeliefMemoryBlock(BaseMemoryBlock[str]):
    """Reads the user's relevant beliefs each turn; writes user messages as evidence.

    Use it inside ``BeliefChatMemory`` so that every user message is written when it
    is put. In a plain ``Memory`` it only writes what the short-term buffer flushes,
    and only with ``accept_short_term_memory=True``.
    """

    name: str = Field(default="beliefs", description="The name of the memory block.")
    description: Optional[str] = Field(default=DEFAULT_DESCRIPTION)
    memory: Any = Field(exclude=True, description="The bcg_rag.BeliefMemory to read and write.")
    user_id: str = Field(description="Whose memory this is; reads and writes never leave this user.")
    agent_id: Optional[str] = Field(default=None, description="Hides other agents' private evidence texts.")
    context: Optional[str] = Field(default=None, description="Context of written messages; boosts matching beliefs.")
    top_k: int = Field(default=5, description="How many belief groups to show.")
    max_tokens: Optional[int] = Field(
        default=None, gt=0, description="Token budget per belief group: the current value, its band and instruction"
        " and the newest supporting and refuting quotes are kept first.")
    max_total_tokens: Optional[int] = Field(
        default=None, gt=0, description="Token budget for the block's whole text: groups are added in rank order"
        " while they fit.")
    # Off: BeliefChatMemory already wrote these messages on put; taking them again on
    # flush would count the same statement twice.
    accept_short_term_memory: bool = Field(default=False)

    @classmethod
    def from_defaults(
        cls,
        memory: Any,
        user_id: str,
        agent_id: Optional[str] = None,
        context: Optional[str] = None,
        top_k: int = 5,
        max_tokens: Optional[int] = None,
        max_total_tokens: Optional[int] = None,
        **kwargs: Any,
    ) -> "BeliefMemoryBlock":
        return cls(memory=memory, user_id=user_id, agent_id=agent_id, context=context, top_k=top_k,
                   max_tokens=max_tokens, max_total_tokens=max_total_tokens, **kwargs)

    # --- reading ---------------------------------------------------------------------
    async def _aget(self, messages: Optional[List[ChatMessage]] = None, **block_kwargs: Any) -> str:
        query = _latest_user_text(messages or [])
        if not query:
            return ""
        # The search is sync (SQLite, Chroma, a local model): keep it off the event loop.
        return await asyncio.to_thread(self.recall, query)

    def recall(self, query: str) -> str:
        """The rendered beliefs relevant to ``query``, and the unstructured memory the
        search returns with them ("" when there is nothing). The message being answered
        was stored just before (``BeliefChatMemory``): it is never quoted back."""
        # The query is the user's latest message, not a query the caller wrote: a long one is
        # cut to the policy's limit instead of refused (search raises InputTooLargeError).
        cut = query[: int(self.memory.policy.section("limits").get("max_query_chars", 10000))]
        result = search(self.memory, cut, user_id=self.user_id, agent_id=self.agent_id, context=self.context,
                        top_k=self.top_k)
        groups = list(result)
        rows = [r for r in getattr(result, "unstructured", None) or () if r["text"] != query]
        if not groups and not rows:
            # No beliefs yet (messages stored without claims), from a search that returns no
            # unstructured evidence: quote the nearest earlier messages instead.
            rows = search_evidence(self.memory, cut, self.user_id, self.top_k + 1, agent_id=self.agent_id)
            rows = [r for r in rows if r["text"] != query][: self.top_k]
        first = bool(getattr(result, "unstructured_first", False))
        return render_groups(SearchResult(groups, rows, first), max_tokens=self.max_tokens,
                             max_total_tokens=self.max_total_tokens)

    # --- writing ---------------------------------------------------------------------
    async def _aput(self, messages: List[ChatMessage]) -> None:
        """Flushed messages (only with accept_short_term_memory=True)."""
        await self.aremember(messages)

    async def aremember(self, messages: List[ChatMessage], session_id: Optional[str] = None) -> List[str]:
        return await asyncio.to_thread(self.remember, messages, session_id)

    def remember(self, messages: List[ChatMessage], session_id: Optional[str] = None) -> List[str]:
        """Store each user message as evidence; returns the evidence ids. Assistant and
        tool messages are not evidence about the user and are skipped."""
        ids = []
        for m in messages:
            text = m.content if m.role == MessageRole.USER else None
            if not isinstance(text, str) or not text.strip():
                continue
            session = session_id or m.additional_kwargs.get("session_id") or "default"
            # Evidence plus the claims the memory's extractor finds in it (maybe none:
            # then recall() quotes the message itself).
            result = self.memory.add_message(
                text, user_id=self.user_id, timestamp=self.memory.clock(), source=f"chat:{session}",
                agent_id=self.agent_id, context=self.context,
            )
            ids.append(result.evidence_id)
        return ids


class BeliefChatMemory(Memory):
    """A LlamaIndex ``Memory`` that gives each message to its ``BeliefMemoryBlock``s
    on every ``put`` (not only when the short-term buffer flushes)."""

    @classmethod
    def class_name(cls) -> str:
        return "BeliefChatMemory"

    @model_validator(mode="after")
    def _no_double_writes(self) -> "BeliefChatMemory":
        for block in self.memory_blocks:
            if isinstance(block, BeliefMemoryBlock) and block.accept_short_term_memory:
                raise ValueError(
                    f"memory block {block.name!r}: BeliefChatMemory writes every message on put; with"
                    " accept_short_term_memory=True the flush would write it a second time"
                )
        return self

    async def _remember(self, messages: List[ChatMessage]) -> None:
        for block in self.memory_blocks:
            if isinstance(block, BeliefMemoryBlock):
                await block.aremember(messages, session_id=self.session_id)

    async def aput(self, message: ChatMessage) -> None:
        await self._remember([message])
        await super().aput(message)

    async def aput_messages(self, messages: List[ChatMessage]) -> None:
        await self._remember(messages)
        await super().aput_messages(messages)


def _latest_user_text(messages: List[ChatMessage]) -> str:
    for m in reversed(messages):
        if m.role == MessageRole.USER and isinstance(m.content, str) and m.content.strip():
            return m.content
    return ""
