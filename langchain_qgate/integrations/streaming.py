"""Verified streaming: gate an answer sentence by sentence while the model streams it.

Each sentence is graded against the attempt's evidence index (built once per attempt) as soon
as the segmenter sees the next sentence start (or the stream ends); a passing sentence is
written to LangGraph's custom stream (``stream_mode="custom"``) as a ``qgate.sentence``
event. A failing sentence and everything after it are held back and the stream runs to its
end: the gate then decides on the whole answer, exactly as without streaming (so the decision
never depends on ``stream``); ``pass_with_warning`` shows the held sentences after a warning,
a retry or an escalation retracts what was shown. With ``stop_early=True`` (off by default) a
failing sentence closes the model stream at once when retries are left, and the attempt is
judged by that sentence (the partial draft is kept for audit and the retry gets that
sentence's guidance): faster retries, but a draft the whole-answer gate would have passed can
be retried. The protocol's events are in :mod:`langchain_qgate.integrations._sentences` and
the README.

- :class:`QualityGateMiddleware` with ``stream="sentences"`` uses :class:`AgentStreamGate`
  in ``wrap_model_call``: the model is called as usual (tools bound, system prompt) while a
  callback handler taps its token stream.
- :class:`QualityGateStreamer` streams a model inside your own graph node; the gate node of
  :func:`~langchain_qgate.integrations.add_quality_gate` then decides on the draft.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config, merge_configs, var_child_runnable_config

from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.integrations._describe import surface_repr
from langchain_qgate.integrations._harvest import (
    EvidenceFn,
    collect_evidence,
    flatten_evidence,
    last_question,
    message_text,
)
from langchain_qgate.integrations._sentences import (
    STREAM_KEY,
    QGateDoneEvent,
    QGateEscalatedEvent,
    QGateRetractedEvent,
    QGateRetryEvent,
    QGateSentenceEvent,
    QGateStreamEvent,
    QGateWarningEvent,
    SentenceStream,
    StreamMode,
    sentence_checks,
)
from langchain_qgate.integrations._step import (
    GateRunner,
    current_config,
    default_gate,
    gate_load_monitor,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from uuid import UUID

    from langchain_core.outputs import ChatGenerationChunk, GenerationChunk

__all__ = [
    "AgentStreamGate",
    "DraftStopped",
    "QGateDoneEvent",
    "QGateEscalatedEvent",
    "QGateRetractedEvent",
    "QGateRetryEvent",
    "QGateSentenceEvent",
    "QGateStreamEvent",
    "QGateWarningEvent",
    "QualityGateStreamer",
    "StreamMode",
    "aprocess",
    "chunk_text",
    "has_tool_calls",
    "open_stream",
    "retract_shown",
    "streamed_draft",
]

Writer = Callable[[Any], None]


class DraftStopped(Exception):  # noqa: N818 - a signal, not an error
    """Raised from the token callback to close the model stream at a failing sentence.

    An ``Exception``: langchain-core's async ``agenerate`` only reports ``Exception``s
    correctly. Something that retries on any exception between the gate and the model
    (``model.with_retry()``, a ``ModelRetryMiddleware`` listed after the gate) would retry
    the stopped call: list retry middleware before ``QualityGateMiddleware``.
    """


def open_stream(
    gate: QualityGate,
    evidence: list[Any],
    *,
    messages: Sequence[BaseMessage],
    attempt: int,
    retries_used: int,
    writer: Writer,
    config: RunnableConfig | Mapping[str, Any] | None,
    min_support: float | None,
    question: str | None = None,
    stop_early: bool = False,
) -> SentenceStream:
    """A :class:`SentenceStream` for one attempt, its evidence index built once.

    Args:
        gate: The gate whose monitor and policy grade the sentences.
        evidence: The attempt's evidence (empty: every sentence waits for the final decision).
        messages: The conversation (its last user turn is the question).
        attempt: The attempt's number in the turn.
        retries_used: Retries spent in the turn; with retries left a failing sentence stops
            the draft.
        writer: Receives the sentence events.
        config: The run's config (per-call policy overrides).
        min_support: Per-sentence floor (``None``: half the policy's grounding threshold).
        question: The question; read from ``messages`` when omitted.
        stop_early: Stop the draft at a failing sentence when retries are left (the attempt
            is then judged by that sentence); by default it runs to its end and is judged
            whole.
    """
    policy = gate.effective_policy(config)
    if question is None:
        asked = last_question(list(messages))
        question = message_text(asked) if asked is not None else None
    check = alone = None
    if evidence:
        monitor = gate.monitor
        build = getattr(monitor, "build_index", None)
        index: Any = build(evidence) if callable(build) else evidence
        check, alone = sentence_checks(
            gate, index, question=question, config=config, floor=min_support
        )
    return SentenceStream(
        check=check,
        writer=writer,
        attempt=attempt,
        stop_on_fail=stop_early and retries_used < policy.max_retries,
        id_prefix=f"a{attempt}-{uuid.uuid4().hex[:8]}",
        floor=min_support,
        check_alone=alone,
    )


def chunk_text(chunk: Any) -> str:
    """The text of a stream chunk (message chunk, generation chunk or string)."""
    message = getattr(chunk, "message", chunk)
    if isinstance(message, BaseMessage):
        return message.text
    return chunk if isinstance(chunk, str) else ""


def has_tool_calls(chunk: Any) -> bool:
    """Whether a stream chunk carries tool calls (the message is not a final answer)."""
    message = getattr(chunk, "message", chunk)
    return bool(getattr(message, "tool_call_chunks", None) or getattr(message, "tool_calls", None))


def _token_text(token: str | list[str | dict[str, Any]]) -> str:
    if isinstance(token, str):
        return token
    return "".join(t if isinstance(t, str) else str(t.get("text", "")) for t in token)


def retract_shown(stream: SentenceStream, writer: Writer) -> None:
    """Withdraw the sentences ``stream`` showed (its attempt broke off)."""
    shown = [s.id for s in stream.sentences if s.status == "shown"]
    if shown:
        writer(QGateRetractedEvent(type="qgate.retracted", attempt=stream.attempt, ids=shown))


def finish_message(
    stream: SentenceStream, message: AIMessage | None, msg_id: str | None
) -> AIMessage:
    """The draft to hand to the gate: the whole message, or the stopped partial draft."""
    if stream.stopped or message is None:
        return AIMessage(
            content=stream.text, id=msg_id, response_metadata={STREAM_KEY: stream.meta()}
        )
    meta = {**message.response_metadata, STREAM_KEY: stream.meta()}
    return message.model_copy(update={"response_metadata": meta})


# -- tapping a model call's token stream (agents) ----------------------------------------------
class _TokenTap:
    """What the sync and async taps share: the streaming-handler marker methods
    (``tap_output_iter`` / ``tap_output_aiter``: a chat model whose run has one calls its
    streaming API inside ``invoke``) and reading one token."""

    stream: SentenceStream
    tokens: int

    def tap_output_iter(self, run_id: UUID, output: Iterator[Any]) -> Iterator[Any]:
        return output

    def tap_output_aiter(self, run_id: UUID, output: AsyncIterator[Any]) -> AsyncIterator[Any]:
        return output

    def _read(
        self,
        token: str | list[str | dict[str, Any]],
        chunk: GenerationChunk | ChatGenerationChunk | None,
    ) -> str:
        """Count the token, note tool calls, and return its text."""
        self.tokens += 1
        if chunk is not None and has_tool_calls(chunk):
            self.stream.saw_tool_calls()
        return chunk_text(chunk) if chunk is not None else _token_text(token)


class _Tap(_TokenTap, BaseCallbackHandler):
    """Feeds the model's tokens to the sentence stream; stops the stream on a failure."""

    raise_error = True
    run_inline = True

    def __init__(self, stream: SentenceStream) -> None:
        self.stream = stream
        self.tokens = 0

    def on_llm_new_token(
        self,
        token: str | list[str | dict[str, Any]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        if self.stream.feed(self._read(token, chunk)):
            raise DraftStopped


class _AsyncTap(_TokenTap, AsyncCallbackHandler):
    """:class:`_Tap` for async runs: sentences are graded in a worker thread."""

    raise_error = True
    run_inline = True

    def __init__(self, stream: SentenceStream, writer: Writer) -> None:
        self.stream = stream
        self.writer = writer
        self.tokens = 0

    async def on_llm_new_token(
        self,
        token: str | list[str | dict[str, Any]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        ready = self.stream.push(self._read(token, chunk))
        if ready and await aprocess(self.stream, ready, self.writer):
            raise DraftStopped


async def aprocess(stream: SentenceStream, ready: list[Any], writer: Writer) -> bool:
    """Grade ``ready`` sentences in a worker thread; write their events on the loop."""
    events: list[Any] = []
    stream.writer = events.append
    try:
        stopped = await asyncio.to_thread(stream.process, ready)
    finally:
        stream.writer = writer
    for event in events:
        writer(event)
    return stopped


def _is_stop_log(record: logging.LogRecord) -> bool:
    """False for langchain-core's log line about the stop signal (not an error)."""
    return not any(isinstance(a, str) and a.startswith("DraftStopped(") for a in record.args or ())


def _quiet_stop_logs() -> None:
    """Drop the callback manager's "Error in ... callback: DraftStopped()" warnings."""
    logger = logging.getLogger("langchain_core.callbacks.manager")
    if _is_stop_log not in logger.filters:
        logger.addFilter(_is_stop_log)


@contextmanager
def _attached(handler: BaseCallbackHandler) -> Iterator[None]:
    """Add ``handler`` to the callbacks of runnables invoked in this context."""
    config = merge_configs(ensure_config(), {"callbacks": [handler]})
    token = var_child_runnable_config.set(config)
    try:
        yield
    finally:
        var_child_runnable_config.reset(token)


def _response_message(response: Any) -> AIMessage | None:
    result = getattr(response, "result", None)
    if isinstance(response, AIMessage):
        return response
    if isinstance(result, list):
        return next((m for m in reversed(result) if isinstance(m, AIMessage)), None)
    return None


def _with_message(response: Any, old: AIMessage | None, new: AIMessage) -> Any:
    if isinstance(response, AIMessage):
        return new
    result = getattr(response, "result", None)
    if isinstance(result, list):
        response.result = [new if m is old else m for m in result]
    return response


class AgentStreamGate:
    """Sentence streaming inside ``wrap_model_call`` (used by ``QualityGateMiddleware``).

    Args:
        runner: The middleware's gate runner (gate, evidence sources, bookkeeping).
        min_support: Per-sentence floor (``None``: half the policy's grounding threshold).
        stop_early: Close the model stream at a failing sentence when retries are left.
    """

    def __init__(
        self, runner: GateRunner, *, min_support: float | None = None, stop_early: bool = False
    ) -> None:
        self.runner = runner
        self.min_support = min_support
        self.stop_early = stop_early
        _quiet_stop_logs()

    def _open(self, request: Any, writer: Writer) -> SentenceStream:
        state = request.state
        _turn, counters, audit = self.runner.bookkeeping(state)
        evidence = collect_evidence(
            state,
            static=self.runner.static_evidence,
            evidence_fn=self.runner.evidence_fn,
            state_key=self.runner.evidence_key,
        )
        return open_stream(
            self.runner.gate,
            evidence,
            messages=list(state.get("messages") or []),
            attempt=len(audit) + 1,
            retries_used=counters.retries,
            writer=writer,
            config=current_config(),
            min_support=self.min_support,
            stop_early=self.stop_early,
        )

    @staticmethod
    def _writer(request: Any) -> Writer:
        runtime = getattr(request, "runtime", None)
        writer = getattr(runtime, "stream_writer", None)
        return writer if callable(writer) else (lambda _event: None)

    def _settle(self, stream: SentenceStream, response: Any, tap_tokens: int) -> Any:
        message = _response_message(response)
        if message is not None and message.tool_calls:
            stream.saw_tool_calls()
        if tap_tokens == 0 and message is not None:  # the model cannot stream: whole message
            stream.feed(message.text)
        stream.end()
        if message is None:
            return response
        return _with_message(response, message, finish_message(stream, message, message.id))

    def wrap(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        """Call the model through ``handler`` with its token stream gated."""
        writer = self._writer(request)
        stream = self._open(request, writer)
        tap = _Tap(stream)
        try:
            with _attached(tap):
                response = handler(request)
        except DraftStopped:
            return _stopped_response(stream)
        except Exception:
            retract_shown(stream, writer)
            raise
        return self._settle(stream, response, tap.tokens)

    async def awrap(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        """Async :meth:`wrap`."""
        writer = self._writer(request)
        stream = await asyncio.to_thread(self._open, request, writer)
        tap = _AsyncTap(stream, writer)
        try:
            with _attached(tap):
                response = await handler(request)
        except DraftStopped:
            return _stopped_response(stream)
        except Exception:
            retract_shown(stream, writer)
            raise
        message = _response_message(response)
        if message is not None and message.tool_calls:
            stream.saw_tool_calls()
        ready = stream.push(message.text) if tap.tokens == 0 and message is not None else []
        await aprocess(stream, [*ready, *stream.push_end()], writer)
        if message is None:
            return response
        return _with_message(response, message, finish_message(stream, message, message.id))


def _stopped_response(stream: SentenceStream) -> Any:
    from langchain.agents.middleware.types import ModelResponse

    return ModelResponse(result=[finish_message(stream, None, f"qgate-draft-{stream.id_prefix}")])


# -- a streaming generator node in a hand-built graph ------------------------------------------
class QualityGateStreamer:
    """Stream a chat model's answer through the gate inside your own graph node.

    Share the gate with :func:`~langchain_qgate.integrations.add_quality_gate` (pass the same
    ``gate=``); the gate node then decides on the returned draft (a stopped draft is judged by
    its failing sentence) and writes the events that follow the sentences.

    Args:
        gate: The gate (built from ``monitor`` / ``policy`` when omitted).
        monitor: Hallucination monitor for the default gate.
        policy: Gate policy for the default gate.
        evidence: Static evidence.
        evidence_fn: ``evidence_fn(state) -> evidence``.
        evidence_key: State key holding evidence (``"evidence"`` as in ``QualityGateState``).
        min_support: Per-sentence floor (``None``: half the policy's grounding threshold).
        stop_early: Close the model stream at a failing sentence when retries are left (the
            gate node then judges the attempt by that sentence); off by default: the draft
            runs to its end and is judged whole, as without streaming.

    Example:
        ```python
        gate = QualityGate(policy=GatePolicy(max_retries=1))
        streamer = QualityGateStreamer(gate=gate)

        def generate(state):
            return {"messages": [streamer.generate(model, prompt(state), state)]}

        add_quality_gate(builder, after="generate", retry_to="generate", then=END, gate=gate)
        for mode, event in graph.stream(inputs, config, stream_mode=["custom", "updates"]):
            ...
        ```
    """

    def __init__(
        self,
        *,
        gate: QualityGate | None = None,
        monitor: Any = None,
        policy: GatePolicy | Mapping[str, Any] | None = None,
        evidence: Any = None,
        evidence_fn: EvidenceFn | None = None,
        evidence_key: str | None = "evidence",
        min_support: float | None = None,
        stop_early: bool = False,
    ) -> None:
        if gate is not None and (monitor is not None or policy is not None):
            raise ValueError("pass either gate= or monitor=/policy=, not both")
        if min_support is not None and not 0.0 <= min_support <= 1.0:
            raise ValueError(f"min_support must be in [0, 1], got {min_support}")
        self.gate = gate if gate is not None else default_gate(monitor, policy)
        self.min_support = min_support
        self._runner = GateRunner(
            self.gate,
            load_monitor=gate_load_monitor(self.gate),
            static_evidence=flatten_evidence(evidence),
            evidence_fn=evidence_fn,
            evidence_key=evidence_key,
            surface="streaming",
        )
        self._agent = AgentStreamGate(self._runner, min_support=min_support, stop_early=stop_early)

    def __repr__(self) -> str:
        return surface_repr(
            type(self).__name__,
            self.gate,
            self._runner.evidence_source(),
            min_support=self.min_support,
        )

    def _open(self, state: Mapping[str, Any], writer: Writer) -> SentenceStream:
        class _Request:
            pass

        request = _Request()
        request.state = state  # type: ignore[attr-defined]
        return self._agent._open(request, writer)

    def generate(
        self,
        model: Runnable[Any, Any],
        messages: Any,
        state: Mapping[str, Any],
        config: RunnableConfig | None = None,
    ) -> AIMessage:
        """Stream ``model`` on ``messages``; the draft (whole, or stopped at a failing sentence).

        Raises:
            Exception: Whatever the model stream raised (shown sentences are retracted first).
        """
        writer = _current_writer()
        stream = self._open(state, writer)
        acc: AIMessageChunk | None = None
        chunks = model.stream(messages, config)
        try:
            for chunk in chunks:
                acc = chunk if acc is None else acc + chunk
                if has_tool_calls(chunk):
                    stream.saw_tool_calls()
                if stream.feed(chunk_text(chunk)):
                    break
            else:
                stream.end()
        except Exception:
            retract_shown(stream, writer)
            raise
        finally:
            close = getattr(chunks, "close", None)
            if callable(close):
                close()  # an early stop closes the model stream here
        draft: AIMessage = streamed_draft(stream, acc)
        return draft

    async def agenerate(
        self,
        model: Runnable[Any, Any],
        messages: Any,
        state: Mapping[str, Any],
        config: RunnableConfig | None = None,
    ) -> AIMessage:
        """Async :meth:`generate` (sentences are graded in a worker thread)."""
        writer = _current_writer()
        stream = await asyncio.to_thread(self._open, state, writer)
        acc: AIMessageChunk | None = None
        chunks = model.astream(messages, config)
        try:
            async for chunk in chunks:
                acc = chunk if acc is None else acc + chunk
                if has_tool_calls(chunk):
                    stream.saw_tool_calls()
                ready = stream.push(chunk_text(chunk))
                if ready and await aprocess(stream, ready, writer):
                    break
            else:
                await aprocess(stream, stream.push_end(), writer)
        except Exception:
            retract_shown(stream, writer)
            raise
        finally:
            aclose = getattr(chunks, "aclose", None)
            if callable(aclose):
                await aclose()
        draft: AIMessage = streamed_draft(stream, acc)
        return draft


def streamed_draft(stream: SentenceStream, acc: Any) -> Any:
    """The draft of a streamed attempt from its accumulated chunks (a message, or text)."""
    from langchain_core.messages import message_chunk_to_message

    if isinstance(acc, str):
        return stream.text if stream.stopped else acc
    if acc is None:
        return finish_message(stream, None, None)
    whole = message_chunk_to_message(acc)
    message = whole if isinstance(whole, AIMessage) else AIMessage(content=whole.content)
    return finish_message(stream, message, message.id)


def _current_writer() -> Writer:
    from langgraph.config import get_stream_writer

    try:
        return get_stream_writer()
    except RuntimeError:
        return lambda _event: None
