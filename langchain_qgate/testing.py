"""Fakes for testing your own gated chains and agents offline: no LLM, no network.

- :class:`ScriptedChatModel`: a chat model whose replies come from a list or from a function
  of the conversation. Unlike ``GenericFakeChatModel`` it accepts ``bind_tools``, so
  ``create_agent`` takes it, and a reply with ``tool_calls`` makes the agent run tools. Every
  call's messages are recorded in ``model.calls`` (check what the gate sent back).
- :class:`KeywordRetriever`: ranks ``Document``s by query-term overlap; deterministic, instant.
- :func:`make_search_tool`: a retriever as an agent tool returning the passages as text and
  the ``Document``s as its artifact (the evidence the quality gate harvests).
- :func:`load_docs`: ``*.md`` / ``*.txt`` files as one ``Document`` per paragraph.
- :class:`FakeLangSmithClient`: an in-memory LangSmith client for the gate's feedback
  (``GateObserver(client=...)``) and the "how often did the gate reject" recipe.
- :class:`ScriptedStreamingChatModel`: the scripted model with a streaming API: each reply
  arrives token by token (words and punctuation, ``€48.2`` as ``€``, ``48``, ``.``, ``2``)
  with an optional delay, and can break mid-stream (raises :class:`StreamBrokenError`).
  ``ScriptedChatModel`` itself cannot stream: LangChain falls back to the whole message.

Example:
    ```python
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver

    from langchain_qgate import GatePolicy, QualityGateMiddleware
    from langchain_qgate.testing import KeywordRetriever, ScriptedChatModel, make_search_tool

    model = ScriptedChatModel.from_replies(
        AIMessage("", tool_calls=[{"name": "search_docs", "args": {"query": "revenue"},
                                   "id": "c1"}]),
        "Revenue was €52.7 million.",  # rejected: the evidence says €48.2 million
        "Revenue was €48.2 million.",
    )
    agent = create_agent(
        model,
        tools=[make_search_tool(KeywordRetriever(docs=my_docs))],
        middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=1))],
        checkpointer=InMemorySaver(),
    )
    ```
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import ConfigDict, Field

__all__ = [
    "FakeFeedback",
    "FakeLangSmithClient",
    "FakeRun",
    "KeywordRetriever",
    "ScriptedChatModel",
    "ScriptedStreamingChatModel",
    "StreamBrokenError",
    "load_docs",
    "make_search_tool",
    "tokenize",
]

Responder = Callable[[list[BaseMessage]], AIMessage | str]
"""``respond(messages) -> reply``: the scripted model's whole behaviour."""

_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "in",
        "on",
        "for",
        "to",
        "is",
        "was",
        "were",
        "what",
        "how",
        "did",
        "does",
        "do",
        "its",
        "it",
        "by",
        "with",
        "from",
        "at",
        "as",
        "which",
        "who",
        "when",
        "this",
        "that",
        "are",
        "be",
        "has",
        "have",
        "had",
        "per",
    ]
)


class ScriptedChatModel(BaseChatModel):
    """A chat model whose replies come from a function of the conversation.

    ``bind_tools`` returns the model itself, so ``create_agent`` accepts it; a reply with
    ``tool_calls`` makes the agent run tools. ``calls`` records the messages of every call.
    :meth:`from_replies` builds one from a fixed list of replies.

    Example:
        ```python
        def respond(messages):
            if not any(m.type == "tool" for m in messages):
                return AIMessage("", tool_calls=[{"name": "search_docs",
                                                  "args": {"query": "revenue"}, "id": "c1"}])
            return "Revenue was €48.2 million."

        model = ScriptedChatModel(respond=respond)
        ```
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    respond: Responder
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    usage: tuple[int, int] | None = None

    @classmethod
    def from_replies(cls, *replies: AIMessage | str) -> ScriptedChatModel:
        """A model answering ``replies`` in order, one per call (the last one repeats).

        Raises:
            ValueError: No replies.
        """
        if not replies:
            raise ValueError("from_replies needs at least one reply")
        script = list(replies)
        counter = {"n": 0}

        def respond(messages: list[BaseMessage]) -> AIMessage | str:
            reply = script[min(counter["n"], len(script) - 1)]
            counter["n"] += 1
            return reply

        return cls(respond=respond)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        reply = self.respond(list(messages))
        message = AIMessage(content=reply) if isinstance(reply, str) else reply
        if self.usage is not None and message.usage_metadata is None:
            tin, tout = self.usage
            message = message.model_copy(
                update={
                    "usage_metadata": {
                        "input_tokens": tin,
                        "output_tokens": tout,
                        "total_tokens": tin + tout,
                    }
                }
            )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any
    ) -> Runnable[Any, AIMessage]:
        """Tools are accepted and ignored: the script decides what to call."""
        return self


_TOKEN = re.compile(r"\s*(?:\w+|[^\w\s])|\s+$")


def tokenize(text: str) -> list[str]:
    """Split ``text`` into stream tokens: words and single punctuation marks, each with the
    whitespace before it (``"€48.2 m."`` -> ``["€", "48", ".", "2", " m", "."]``)."""
    return _TOKEN.findall(text)


class StreamBrokenError(ConnectionError):
    """A scripted stream broke off (``break_after`` tokens were sent)."""


class ScriptedStreamingChatModel(ScriptedChatModel):
    """:class:`ScriptedChatModel` with a streaming API that sends replies token by token.

    Attributes:
        token_delay: Seconds between two tokens (``0`` for unit tests).
        break_after: Raise :class:`StreamBrokenError` after this many tokens of a call
            (``None``: never); ``break_on_call`` limits it to one call (0-based).
        streamed: Tokens actually sent, one count per call: a consumer that closes the
            stream early leaves a smaller count than the reply's token total.

    A reply with ``tool_calls`` arrives as its text tokens followed by one chunk carrying
    the tool calls. ``invoke`` streams too when a caller asks LangChain to (a streaming
    callback handler, ``stream=True``), as real chat models do.

    Example:
        ```python
        model = ScriptedStreamingChatModel.from_replies(
            "Revenue was €48.2 million. Margins grew.", token_delay=0.02
        )
        for chunk in model.stream("What was revenue?"):
            print(chunk.content, end="")
        ```
    """

    token_delay: float = 0.0
    break_after: int | None = None
    break_on_call: int | None = None
    streamed: list[int] = Field(default_factory=list)

    @classmethod
    def from_replies(cls, *replies: AIMessage | str, **options: Any) -> ScriptedStreamingChatModel:
        """A streaming model answering ``replies`` in order (the last one repeats).

        Args:
            *replies: The replies, one per call.
            **options: Field values (``token_delay``, ``break_after``, ``usage``...).

        Raises:
            ValueError: No replies.
        """
        base = ScriptedChatModel.from_replies(*replies)
        return cls(respond=base.respond, **options)

    @property
    def _llm_type(self) -> str:
        return "scripted-streaming"

    def _chunks(self, messages: list[BaseMessage]) -> tuple[list[AIMessageChunk], int]:
        call = len(self.calls)
        self.calls.append(list(messages))
        self.streamed.append(0)
        reply = self.respond(list(messages))
        message = AIMessage(content=reply) if isinstance(reply, str) else reply
        text = message.content if isinstance(message.content, str) else message.text
        # an empty reply still arrives as one (empty) chunk, as real chat models send it
        chunks = [AIMessageChunk(content=tok) for tok in tokenize(text) or [""]]
        if message.tool_calls:
            chunks.append(
                AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {
                            "name": tc["name"],
                            "args": json.dumps(tc["args"]),
                            "id": tc.get("id"),
                            "index": i,
                        }
                        for i, tc in enumerate(message.tool_calls)
                    ],
                )
            )
        if self.usage is not None:
            tin, tout = self.usage
            chunks.append(
                AIMessageChunk(
                    content="",
                    usage_metadata={
                        "input_tokens": tin,
                        "output_tokens": tout,
                        "total_tokens": tin + tout,
                    },
                )
            )
        return chunks, call

    def _breaks(self, call: int, sent: int) -> bool:
        if self.break_after is None or sent < self.break_after:
            return False
        return self.break_on_call is None or self.break_on_call == call

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        chunks, call = self._chunks(messages)
        for sent, chunk in enumerate(chunks):
            if self._breaks(call, sent):
                raise StreamBrokenError(f"the scripted stream broke after {sent} tokens")
            if self.token_delay and sent:
                time.sleep(self.token_delay)
            self.streamed[call] = sent + 1
            yield ChatGenerationChunk(message=chunk)

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        chunks, call = self._chunks(messages)
        for sent, chunk in enumerate(chunks):
            if self._breaks(call, sent):
                raise StreamBrokenError(f"the scripted stream broke after {sent} tokens")
            if self.token_delay and sent:
                await asyncio.sleep(self.token_delay)
            self.streamed[call] = sent + 1
            yield ChatGenerationChunk(message=chunk)


def load_docs(folder: str | Path) -> list[Document]:
    """Load ``*.md`` / ``*.txt`` files as one document per paragraph (headings dropped).

    Ids read ``<file stem>/p<paragraph>`` (``warranty_and_support/p0``); the gate's evidence
    ids add the sentence: ``warranty_and_support/p0#1``.
    """
    docs: list[Document] = []
    for path in sorted(Path(folder).glob("*")):
        if path.suffix not in {".md", ".txt"}:
            continue
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        n = 0
        for para in paragraphs:
            lines = [ln for ln in para.strip().splitlines() if not ln.startswith("#")]
            text = " ".join(ln.strip() for ln in lines).strip()
            if not text:
                continue
            docs.append(
                Document(page_content=text, id=f"{path.stem}/p{n}", metadata={"source": path.name})
            )
            n += 1
    return docs


def _terms(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


class KeywordRetriever(BaseRetriever):
    """Ranks documents by query-term overlap (idf-weighted); deterministic and instant."""

    docs: list[Document]
    k: int = 3

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        terms = set(_terms(query))
        n = len(self.docs)
        df: dict[str, int] = {}
        doc_terms = [set(_terms(d.page_content)) for d in self.docs]
        for ts in doc_terms:
            for t in ts & terms:
                df[t] = df.get(t, 0) + 1
        scored = []
        for i, ts in enumerate(doc_terms):
            score = sum(math.log(1 + n / df[t]) for t in ts & terms)
            if score > 0:
                scored.append((-score, i))
        return [self.docs[i] for _, i in sorted(scored)[: self.k]]


def make_search_tool(retriever: BaseRetriever, *, name: str = "search_docs") -> BaseTool:
    """A tool returning the passages as text and the ``Document``s as its artifact."""

    def search(query: str) -> tuple[str, list[Document]]:
        docs = retriever.invoke(query)
        text = "\n\n".join(f"[{d.id}] {d.page_content}" for d in docs) or "No documents found."
        return text, docs

    return StructuredTool.from_function(
        func=search,
        name=name,
        description="Search the company documents; returns the most relevant passages.",
        response_format="content_and_artifact",
    )


@dataclass(frozen=True, kw_only=True)
class FakeFeedback:
    """One feedback entry kept by :class:`FakeLangSmithClient` (the fields the SDK's
    ``Feedback`` has and the recipes read)."""

    id: UUID
    run_id: UUID
    key: str
    score: float | int | bool | None = None
    value: Any = None
    comment: str | None = None
    created_at: datetime


@dataclass(frozen=True, kw_only=True)
class FakeRun:
    """A run as :meth:`FakeLangSmithClient.list_runs` returns it."""

    id: UUID
    start_time: datetime


class FakeLangSmithClient:
    """An in-memory stand-in for ``langsmith.Client``: no network.

    Keeps what ``create_feedback`` receives and answers ``list_feedback`` / ``list_runs`` from
    it; ``create_run`` / ``update_run`` (called by a ``LangChainTracer`` that uses this
    client) are accepted and ignored. ``list_runs`` ignores ``filter``: it returns every run
    that got feedback (since ``start_time``).

    Example:
        ```python
        client = FakeLangSmithClient()
        gate = QualityGate(observer=GateObserver(client=client))
        ```
    """

    otel_exporter: Any = None  # read by langsmith's tracing helpers
    tracing_queue: Any = None

    def __init__(self) -> None:
        self.feedback: list[FakeFeedback] = []
        self._lock = threading.Lock()

    def create_feedback(
        self,
        run_id: UUID | str | None = None,
        key: str = "unnamed",
        *,
        score: float | int | bool | None = None,
        value: Any = None,
        comment: str | None = None,
        **kwargs: Any,
    ) -> FakeFeedback:
        """Keep one feedback entry."""
        entry = FakeFeedback(
            id=uuid4(),
            run_id=UUID(str(run_id)),
            key=key,
            score=score,
            value=value,
            comment=comment,
            created_at=datetime.now(UTC),
        )
        with self._lock:
            self.feedback.append(entry)
        return entry

    def list_feedback(
        self,
        *,
        run_ids: Sequence[UUID | str] | None = None,
        feedback_key: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> Iterator[FakeFeedback]:
        """The kept feedback, optionally only for ``run_ids`` and keys ``feedback_key``."""
        ids = {UUID(str(r)) for r in run_ids} if run_ids is not None else None
        with self._lock:
            kept = list(self.feedback)
        for f in kept:
            if (ids is None or f.run_id in ids) and (feedback_key is None or f.key in feedback_key):
                yield f

    def list_runs(self, *, start_time: datetime | None = None, **kwargs: Any) -> Iterator[FakeRun]:
        """One run per run id that got feedback (after ``start_time``)."""
        first: dict[UUID, datetime] = {}
        with self._lock:
            for f in self.feedback:
                first.setdefault(f.run_id, f.created_at)
        for run_id, when in first.items():
            if start_time is None or when >= start_time:
                yield FakeRun(id=run_id, start_time=when)

    def create_run(self, *args: Any, **kwargs: Any) -> None:
        """Accepted and ignored (runs posted by a tracer)."""

    def update_run(self, *args: Any, **kwargs: Any) -> None:
        """Accepted and ignored (runs patched by a tracer)."""
