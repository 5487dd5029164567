"""``with_quality_gate``: gate an LCEL runnable and retry it with guidance.

The wrapper invokes the runnable, grades its output against the evidence (static, from the
input through ``evidence_fn``, and whatever retrievers and tools inside the runnable returned),
and on rejection re-invokes it with the model-facing guidance appended to the input. tenacity
drives the loop (and the optional backoff); the gate's policy decides when the budget is spent:
``pass_with_warning`` returns the answer with a warning, ``raise`` raises
``QualityGateRejected``, and ``escalate`` hands the escalation to ``on_escalate`` (a human or a
fallback) or raises ``QualityGateRejected`` carrying it. For a pause-and-resume human review use
:class:`~langchain_qgate.integrations.QualityGateMiddleware` or the graph gate node.

How the guidance reaches the model:

- **A chain with a chat model step** (``prompt | model``, ``prompt | model | parser``...): the
  gate works at the chat-model level, as the middleware does. The steps before the model run
  once (the prompt is rendered, retrievers run); on each retry the model is called again with
  the prompt's messages plus the rejected draft and a user turn carrying the guidance; the
  steps after the model run on the new answer. Any prompt works, no ``{guidance}`` slot needed.
- **A chat model alone**: its input (string, messages or prompt value) gets the draft and the
  guidance turn appended the same way.
- **Any other runnable** (a lambda, an agent, a chain without a chat model step): a string
  input gets the guidance as a new paragraph; a list of messages gets the draft and a guidance
  turn; a dict with ``messages`` gets them appended there; any other dict gets the guidance
  under ``guidance_key``. When the runnable's input schema shows no such key (and no
  ``messages``), the guidance would have nowhere to go: the wrapper raises ``ValueError`` at
  construction, or :class:`~langchain_qgate.errors.InvalidInputError` at the first retry,
  saying how to add one (an optional ``{guidance}`` slot, e.g. ``prompt.partial(guidance="")``,
  or ``input_fn=``).
- ``input_fn(original_input, draft, guidance) -> next input`` overrides all of the above.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, convert_to_messages
from langchain_core.prompt_values import PromptValue
from langchain_core.prompts import BasePromptTemplate
from langchain_core.runnables import (
    Runnable,
    RunnableBinding,
    RunnableConfig,
    RunnableSequence,
    ensure_config,
)
from langchain_core.runnables.base import RunnableLike, coerce_to_runnable
from langchain_core.runnables.config import merge_configs
from tenacity import (
    AsyncRetrying,
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
    wait_none,
)
from tenacity.wait import wait_base

from langchain_qgate.errors import InvalidInputError, QualityGateRejected
from langchain_qgate.gate import (
    Escalation,
    FilteredOutput,
    GatePolicy,
    QualityGate,
    RejectedOutput,
)
from langchain_qgate.gate.telemetry import gate_scope
from langchain_qgate.integrations._describe import evidence_source, surface_repr
from langchain_qgate.integrations._harvest import (
    EvidenceItem,
    flatten_evidence,
    guidance_message,
    last_question,
    message_text,
    question_from_input,
)
from langchain_qgate.integrations._review import HumanDecision, parse_decision, reviewed_metadata
from langchain_qgate.integrations._sentences import (
    QGateStreamEvent,
    SentenceStream,
    StreamMode,
    check_streamed,
    delivery_events,
    rejection_events,
)
from langchain_qgate.integrations._step import default_gate
from langchain_qgate.integrations.callbacks import EvidenceCollector
from langchain_qgate.integrations.streaming import (
    aprocess,
    chunk_text,
    has_tool_calls,
    open_stream,
    retract_shown,
    streamed_draft,
)

__all__ = ["QualityGateRunnable", "with_quality_gate"]

EscalationHandler = Callable[[Escalation], HumanDecision | Mapping[str, Any] | str | None]
"""Called when the budget is spent under ``escalate``; returns a decision or ``None`` (raise)."""


class _RetryWithGuidance(Exception):  # noqa: N818 - internal control flow for tenacity
    """Raised inside an attempt to make tenacity run another one."""


_NOWHERE = (
    "the guidance has nowhere to go: the input of {name} has no {key!r} key and no "
    "'messages', and the chain has no chat model step to append it to as a message. Add an "
    "optional slot to your prompt (a '{{{key}}}' variable with prompt.partial({key}='')), "
    "pass input_fn=lambda original, draft, guidance: ..., or end the chain with a chat model."
)


@dataclass
class _Loop:
    """The retry loop's state across attempts.

    Input level: ``current`` is the next input. Chat-model level: ``prompt`` holds the
    messages the steps before the model produced (once), ``turns`` the rejected drafts and
    guidance turns appended since, ``head_evidence`` what those steps retrieved.
    """

    current: Any
    retries: int = 0
    prompt: list[BaseMessage] | None = None
    turns: list[BaseMessage] = field(default_factory=list)
    head_evidence: list[EvidenceItem] = field(default_factory=list)


@dataclass(frozen=True)
class _ModelSplit:
    """A chain cut around its (last) chat model step: ``head | model | tail``."""

    head: Runnable[Any, Any] | None
    model: Runnable[Any, Any]
    tail: Runnable[Any, Any] | None


def _is_chat_model(step: Runnable[Any, Any]) -> bool:
    target: Any = step
    while isinstance(target, RunnableBinding):  # model.bind(...), .with_config(...)
        target = target.bound
    return isinstance(target, BaseChatModel)


def _chain(steps: Sequence[Runnable[Any, Any]]) -> Runnable[Any, Any] | None:
    if not steps:
        return None
    if len(steps) == 1:
        return steps[0]
    return RunnableSequence(*steps)


def _split_at_model(runnable: Runnable[Any, Any]) -> _ModelSplit | None:
    """``head | model | tail`` around the last chat model step, or ``None`` without one."""
    if _is_chat_model(runnable):
        return _ModelSplit(head=None, model=runnable, tail=None)
    if not isinstance(runnable, RunnableSequence):
        return None
    steps = runnable.steps
    at = [i for i, step in enumerate(steps) if _is_chat_model(step)]
    if not at:
        return None
    i = at[-1]
    return _ModelSplit(head=_chain(steps[:i]), model=steps[i], tail=_chain(steps[i + 1 :]))


def _as_messages(value: Any) -> list[BaseMessage]:
    """A chat model's input as messages (what the steps before the model produced)."""
    if isinstance(value, PromptValue):
        return value.to_messages()
    if isinstance(value, str):
        return [HumanMessage(content=value)]
    if isinstance(value, Sequence):
        return convert_to_messages(value)
    raise InvalidInputError(
        "input", f"a chat model step cannot take a {type(value).__name__}; expected messages"
    )


def _input_keys(runnable: Runnable[Any, Any]) -> set[str] | None:
    """The keys of a dict-shaped input schema, or ``None`` when the schema does not say."""
    try:
        schema = runnable.get_input_jsonschema()
    except Exception:  # an exotic runnable: nothing to check against
        return None
    props = schema.get("properties")
    return set(props) if isinstance(props, Mapping) and props else None


def _takes_guidance(runnable: Runnable[Any, Any], key: str) -> bool:
    keys = _input_keys(runnable)
    if keys is None or key in keys or "messages" in keys:
        return True
    first = runnable.steps[0] if isinstance(runnable, RunnableSequence) else runnable
    if isinstance(first, BasePromptTemplate):
        return key in first.input_variables or key in first.partial_variables
    return False


def _append_guidance(
    value: Any, draft: Any, guidance: str, guidance_key: str, runnable: Runnable[Any, Any]
) -> Any:
    if isinstance(value, str):
        return f"{value}\n\n{guidance}"
    if isinstance(value, list) and all(isinstance(m, BaseMessage) for m in value):
        return [*value, _as_ai(draft), guidance_message(guidance)]
    if isinstance(value, Mapping):
        out = dict(value)
        messages = out.get("messages")
        if isinstance(messages, list):
            out["messages"] = [*messages, _as_ai(draft), guidance_message(guidance)]
        elif guidance_key in out or _takes_guidance(runnable, guidance_key):
            out[guidance_key] = guidance
        else:
            raise InvalidInputError(
                guidance_key, _NOWHERE.format(name=runnable.get_name(), key=guidance_key)
            )
        return out
    raise TypeError(
        f"cannot add guidance to an input of type {type(value).__name__}; pass input_fn="
    )


def _as_ai(draft: Any) -> AIMessage:
    if isinstance(draft, AIMessage):
        return draft
    return AIMessage(content=draft if isinstance(draft, str) else message_text(draft))


_NO_REVIEWER = (
    "on_exhausted='escalate' hands the answer to a human, but with_quality_gate runs outside a "
    "LangGraph graph, where interrupt() cannot pause the run: pass on_escalate= (a function "
    "that asks a reviewer and returns 'approve' or a HumanDecision), gate the model inside a "
    "graph with a checkpointer (QualityGateMiddleware in create_agent, or add_quality_gate), or "
    "set GatePolicy(on_exhausted='pass_with_warning') or on_exhausted='raise'"
)


def _as_runnable(runnable: RunnableLike[Any, Any]) -> Runnable[Any, Any]:
    """``runnable`` coerced the way LCEL does (a function -> ``RunnableLambda``, a dict of
    runnables -> ``RunnableParallel``); anything else is an :class:`InvalidInputError`."""
    try:
        return coerce_to_runnable(runnable)
    except TypeError as exc:
        raise InvalidInputError(
            "runnable",
            f"expected a Runnable, a callable or a dict of them, got {type(runnable).__name__}",
        ) from exc


class QualityGateRunnable(Runnable[Any, Any]):
    """A runnable whose output passes the quality gate (see :func:`with_quality_gate`).

    Attributes:
        level: ``"chat_model"`` when the guidance is appended as messages to the chat model
            step's input, ``"input"`` when it is added to the runnable's input.
    """

    def __init__(
        self,
        bound: RunnableLike[Any, Any],
        *,
        gate: QualityGate,
        evidence: list[EvidenceItem],
        evidence_fn: Callable[[Any], Any] | None,
        input_fn: Callable[[Any, Any, str], Any] | None,
        guidance_key: str,
        wait: wait_base,
        on_escalate: EscalationHandler | None,
        return_decision: bool,
        stream: StreamMode | None = None,
        min_support: float | None = None,
        stop_early: bool = False,
    ) -> None:
        """Create the wrapper; use :func:`with_quality_gate`."""
        self.stream_mode = stream
        self.min_support = min_support
        self.stop_early = stop_early
        bound = _as_runnable(bound)
        self.bound = bound
        self.gate = gate
        self.evidence = evidence
        self.evidence_fn = evidence_fn
        self.input_fn = input_fn
        self.guidance_key = guidance_key
        self.wait = wait
        self.on_escalate = on_escalate
        self.return_decision = return_decision
        self.name = f"QualityGate<{bound.get_name()}>"
        self._split = _split_at_model(bound) if input_fn is None else None
        self.level = "chat_model" if self._split is not None else "input"
        if self._split is None and input_fn is None and not _takes_guidance(bound, guidance_key):
            raise ValueError(
                "with_quality_gate: " + _NOWHERE.format(name=bound.get_name(), key=guidance_key)
            )

    def __repr__(self) -> str:
        source = evidence_source(
            harvested="retriever and tool results",
            static=self.evidence,
            evidence_fn=self.evidence_fn,
        )
        return surface_repr(
            f"QualityGateRunnable[{self.bound.get_name()}]",
            self.gate,
            source,
            stream=self.stream_mode,
        )

    # -- one attempt ------------------------------------------------------------------------
    def _evidence_for(
        self, value: Any, collector: EvidenceCollector, loop: _Loop
    ) -> list[EvidenceItem]:
        items = [*self.evidence, *loop.head_evidence, *collector.evidence]
        if self.evidence_fn is not None:
            items.extend(flatten_evidence(self.evidence_fn(value)))
        return items

    def _deliver(self, output: Any, decision: FilteredOutput | RejectedOutput) -> Any:
        if self.return_decision:
            return decision
        if isinstance(output, AIMessage):
            meta = {**output.response_metadata, "qgate": decision.metadata.model_dump(mode="json")}
            if isinstance(decision, FilteredOutput) and decision.warning:
                meta["qgate_warning"] = decision.warning
            return output.model_copy(update={"response_metadata": meta})
        return output

    def _resolve(self, output: Any, decision: FilteredOutput | RejectedOutput) -> Any:
        if isinstance(decision, FilteredOutput):
            return self._deliver(output, decision)
        if decision.escalation is None:  # pragma: no cover - the loop retries these
            raise _RetryWithGuidance
        answer = self.on_escalate(decision.escalation) if self.on_escalate is not None else None
        if answer is not None:
            human = parse_decision(answer, argument="on_escalate")
            if human.type in ("approve", "edit"):
                reviewed = decision.model_copy(
                    update={"metadata": reviewed_metadata(decision.metadata, human)}
                )
                if human.type == "approve":
                    return self._deliver(output, reviewed)
                text = human.text or ""
                edited = (
                    output.model_copy(update={"content": text})
                    if isinstance(output, AIMessage)
                    else text
                )
                return self._deliver(edited, reviewed)
        reasons = [decision.escalation.reason, *decision.guidance.issues]
        if self.on_escalate is None:
            reasons.append(_NO_REVIEWER)
        raise QualityGateRejected(reasons, payload=decision)

    # -- the loop ---------------------------------------------------------------------------
    def _retrying_kwargs(self, config: RunnableConfig) -> dict[str, Any]:
        retries = self.gate.effective_policy(config).max_retries
        return {
            "stop": stop_after_attempt(retries + 1),
            "wait": self.wait,
            "retry": retry_if_exception_type(_RetryWithGuidance),
            "reraise": True,
        }

    def _head_setup(self, config: RunnableConfig) -> tuple[EvidenceCollector, RunnableConfig]:
        collector = EvidenceCollector()
        return collector, merge_configs(config, {"callbacks": [collector]})

    def _head_done(self, loop: _Loop, collector: EvidenceCollector, value: Any) -> None:
        loop.prompt = _as_messages(value)
        loop.head_evidence = list(collector.evidence)

    def _model_input(self, loop: _Loop) -> list[BaseMessage]:
        return [*(loop.prompt or []), *loop.turns]

    def _attempt_setup(
        self, input: Any, loop: _Loop, config: RunnableConfig
    ) -> tuple[EvidenceCollector, RunnableConfig, dict[str, Any]]:
        """A fresh evidence collector, the run config that feeds it, and the gate's kwargs."""
        collector = EvidenceCollector()
        question = question_from_input(input)
        if question is None and loop.prompt is not None:
            asked = last_question(loop.prompt)
            question = message_text(asked) if asked is not None else None
        gate_kwargs: dict[str, Any] = {
            "question": question,
            "retries_used": loop.retries,
            "config": config,
        }
        return collector, merge_configs(config, {"callbacks": [collector]}), gate_kwargs

    def _settle(
        self,
        input: Any,
        loop: _Loop,
        output: Any,
        draft: Any,
        decision: FilteredOutput | RejectedOutput,
    ) -> Any:
        """The delivered result, or queue the guided next attempt and raise for it."""
        if isinstance(decision, RejectedOutput) and decision.escalation is None:
            loop.retries += 1
            guidance = decision.guidance.to_model_message()
            if self._split is not None:
                loop.turns = [*loop.turns, _as_ai(draft), guidance_message(guidance)]
            elif self.input_fn is not None:
                loop.current = self.input_fn(input, output, guidance)
            else:
                loop.current = _append_guidance(
                    loop.current, output, guidance, self.guidance_key, self.bound
                )
            raise _RetryWithGuidance
        return self._resolve(output, decision)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Invoke the runnable until its output passes or the budget is spent."""
        config = ensure_config(config)
        loop, result, split = _Loop(current=input), None, self._split
        if split is not None:
            collector, head_config = self._head_setup(config)
            head_out = split.head.invoke(input, head_config) if split.head else input
            self._head_done(loop, collector, head_out)
        for attempt in Retrying(**self._retrying_kwargs(config)):
            with attempt:
                collector, run_config, gate_kwargs = self._attempt_setup(input, loop, config)
                if split is not None:
                    draft = split.model.invoke(self._model_input(loop), run_config, **kwargs)
                    output = split.tail.invoke(draft, run_config) if split.tail else draft
                else:
                    output = draft = self.bound.invoke(loop.current, run_config, **kwargs)
                evidence = self._evidence_for(input, collector, loop)
                with gate_scope("runnable", warn_no_evidence=loop.retries == 0):
                    decision = self.gate.check(output, evidence, **gate_kwargs)
                result = self._settle(input, loop, output, draft, decision)
        return result

    async def ainvoke(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async :meth:`invoke`."""
        config = ensure_config(config)
        loop, result, split = _Loop(current=input), None, self._split
        if split is not None:
            collector, head_config = self._head_setup(config)
            head_out = await split.head.ainvoke(input, head_config) if split.head else input
            self._head_done(loop, collector, head_out)
        async for attempt in AsyncRetrying(**self._retrying_kwargs(config)):
            with attempt:
                collector, run_config, gate_kwargs = self._attempt_setup(input, loop, config)
                if split is not None:
                    messages = self._model_input(loop)
                    draft = await split.model.ainvoke(messages, run_config, **kwargs)
                    output = await split.tail.ainvoke(draft, run_config) if split.tail else draft
                else:
                    output = draft = await self.bound.ainvoke(loop.current, run_config, **kwargs)
                evidence = self._evidence_for(input, collector, loop)
                with gate_scope("runnable", warn_no_evidence=loop.retries == 0):
                    decision = await self.gate.acheck(output, evidence, **gate_kwargs)
                result = self._settle(input, loop, output, draft, decision)
        return result

    # -- streaming (``stream="sentences"``) -----------------------------------------------------
    def _open(self, input: Any, loop: _Loop, config: RunnableConfig) -> tuple[Any, ...]:
        collector, run_config, gate_kwargs = self._attempt_setup(input, loop, config)
        evidence = self._evidence_for(input, EvidenceCollector(), loop)
        events: list[QGateStreamEvent] = []
        stream = open_stream(
            self.gate,
            evidence,
            messages=loop.prompt or [],
            attempt=loop.retries + 1,
            retries_used=loop.retries,
            writer=events.append,
            config=config,
            min_support=self.min_support,
            question=gate_kwargs["question"],
            stop_early=self.stop_early,
        )
        model = self._split.model if self._split is not None else self.bound
        model_input = self._model_input(loop) if self._split is not None else loop.current
        return collector, run_config, gate_kwargs, events, stream, model, model_input

    def _streamed_decision(
        self,
        *,
        input: Any,
        loop: _Loop,
        stream: SentenceStream,
        acc: Any,
        collector: EvidenceCollector,
        gate_kwargs: dict[str, Any],
        config: RunnableConfig,
    ) -> tuple[Any, Any, FilteredOutput | RejectedOutput]:
        draft = streamed_draft(stream, acc)
        output: Any = draft
        if self._split is not None and self._split.tail is not None and not stream.stopped:
            output = self._split.tail.invoke(draft, config)
        elif isinstance(acc, str):
            output = stream.text if stream.stopped else acc
        evidence = self._evidence_for(input, collector, loop)
        kwargs = {k: v for k, v in gate_kwargs.items() if k != "config"}
        with gate_scope("runnable", warn_no_evidence=loop.retries == 0):
            decision = check_streamed(
                self.gate, draft, stream.meta(), evidence, config=config, **kwargs
            )
        return output, draft, decision

    def _after_attempt(
        self,
        *,
        input: Any,
        loop: _Loop,
        stream: SentenceStream,
        output: Any,
        draft: Any,
        decision: FilteredOutput | RejectedOutput,
    ) -> tuple[list[QGateStreamEvent], bool]:
        """The events after an attempt's sentences; True when the loop is done."""
        record = stream.meta()
        if isinstance(decision, RejectedOutput):
            events = rejection_events(record, decision, review=False)
            try:
                result = self._settle(input, loop, output, draft, decision)
            except _RetryWithGuidance:
                return events, False
        else:
            events = []
            result = self._resolve(output, decision)
        done = delivery_events(
            record,
            decision,
            text=message_text(result) if not isinstance(result, str) else result,
            decision=_decided(result, decision),
            check=stream.check,
            show_held=isinstance(decision, FilteredOutput),
            check_alone=stream.check_alone,
        )
        last = done[-1]
        if last["type"] == "qgate.done":
            last["output"] = result
        return [*events, *done], True

    def stream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Any]:
        """With ``stream="sentences"``: the gate's stream events; else the default stream.

        Yields ``qgate.*`` events (see the README's "Streaming"): sentences as they pass,
        ``retracted`` and ``retry`` when an attempt is rejected, ``done`` with the delivered
        ``output``. Retries take no backoff (``wait``) while streaming.
        """
        if self.stream_mode is None:
            yield from super().stream(input, config, **kwargs)
            return
        config = ensure_config(config)
        loop, split = _Loop(current=input), self._split
        if split is not None:
            collector, head_config = self._head_setup(config)
            head_out = split.head.invoke(input, head_config) if split.head else input
            self._head_done(loop, collector, head_out)
        while True:
            collector, run_config, gate_kwargs, events, stream, model, model_input = self._open(
                input, loop, config
            )
            acc: Any = None
            chunks = model.stream(model_input, run_config, **kwargs)
            try:
                for chunk in chunks:
                    acc = chunk if acc is None else acc + chunk
                    if has_tool_calls(chunk):
                        stream.saw_tool_calls()
                    stopped = stream.feed(chunk_text(chunk))
                    yield from events
                    events.clear()
                    if stopped:
                        break
                else:
                    stream.end()
                    yield from events
                    events.clear()
            except Exception:
                retract_shown(stream, events.append)
                yield from events
                raise
            finally:
                close = getattr(chunks, "close", None)
                if callable(close):
                    close()
            try:
                output, draft, decision = self._streamed_decision(
                    input=input,
                    loop=loop,
                    stream=stream,
                    acc=acc,
                    collector=collector,
                    gate_kwargs=gate_kwargs,
                    config=config,
                )
                after, finished = self._after_attempt(
                    input=input,
                    loop=loop,
                    stream=stream,
                    output=output,
                    draft=draft,
                    decision=decision,
                )
            except QualityGateRejected:  # under "raise": withdraw what was shown first
                retract_shown(stream, events.append)
                yield from events
                raise
            yield from after
            if finished:
                return

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """Async :meth:`stream` (sentences are graded in a worker thread)."""
        if self.stream_mode is None:
            async for item in super().astream(input, config, **kwargs):
                yield item
            return
        config = ensure_config(config)
        loop, split = _Loop(current=input), self._split
        if split is not None:
            collector, head_config = self._head_setup(config)
            head_out = await split.head.ainvoke(input, head_config) if split.head else input
            self._head_done(loop, collector, head_out)
        while True:
            opened = await asyncio.to_thread(self._open, input, loop, config)
            collector, run_config, gate_kwargs, events, stream, model, model_input = opened
            acc: Any = None
            chunks = model.astream(model_input, run_config, **kwargs)
            try:
                async for chunk in chunks:
                    acc = chunk if acc is None else acc + chunk
                    if has_tool_calls(chunk):
                        stream.saw_tool_calls()
                    ready = stream.push(chunk_text(chunk))
                    stopped = bool(ready) and await aprocess(stream, ready, events.append)
                    for event in events:
                        yield event
                    events.clear()
                    if stopped:
                        break
                else:
                    await aprocess(stream, stream.push_end(), events.append)
                    for event in events:
                        yield event
                    events.clear()
            except Exception:
                retract_shown(stream, events.append)
                for event in events:
                    yield event
                raise
            finally:
                aclose = getattr(chunks, "aclose", None)
                if callable(aclose):
                    await aclose()
            try:
                output, draft, decision = await asyncio.to_thread(
                    functools.partial(
                        self._streamed_decision,
                        input=input,
                        loop=loop,
                        stream=stream,
                        acc=acc,
                        collector=collector,
                        gate_kwargs=gate_kwargs,
                        config=config,
                    )
                )
                after, finished = self._after_attempt(
                    input=input,
                    loop=loop,
                    stream=stream,
                    output=output,
                    draft=draft,
                    decision=decision,
                )
            except QualityGateRejected:  # under "raise": withdraw what was shown first
                retract_shown(stream, events.append)
                for event in events:
                    yield event
                raise
            for event in after:
                yield event
            if finished:
                return


def _decided(result: Any, decision: FilteredOutput | RejectedOutput) -> str:
    """The decision as delivered: a reviewer's (``approved``, ``edited``) when the result
    carries it in its metadata, else the gate's."""
    if isinstance(result, (FilteredOutput, RejectedOutput)):
        return result.metadata.decision
    if isinstance(result, AIMessage):
        meta = result.response_metadata.get("qgate")
        if isinstance(meta, dict) and isinstance(meta.get("decision"), str):
            return str(meta["decision"])
    return decision.metadata.decision


def with_quality_gate(
    runnable: RunnableLike[Any, Any],
    *,
    evidence: Any = None,
    evidence_fn: Callable[[Any], Any] | None = None,
    policy: GatePolicy | Mapping[str, Any] | None = None,
    gate: QualityGate | None = None,
    monitor: Any = None,
    wait: float | wait_base = 0.0,
    input_fn: Callable[[Any, Any, str], Any] | None = None,
    guidance_key: str = "guidance",
    on_escalate: EscalationHandler | None = None,
    return_decision: bool = False,
    stream: StreamMode | None = None,
    min_support: float | None = None,
    stop_early: bool = False,
) -> QualityGateRunnable:
    """Wrap ``runnable`` so its output passes the quality gate, retrying with guidance.

    Args:
        runnable: The chain or model to gate (its output: a message or a string); a function
            or a dict of runnables is coerced as LCEL does.
        evidence: Static evidence for every call.
        evidence_fn: ``evidence_fn(input) -> evidence`` (for example ``lambda x: x["context"]``).
        policy: Gate policy (thresholds, retry budget, exhaustion policy).
        gate: A configured gate instead of ``policy``/``monitor``.
        monitor: Hallucination monitor for the default gate.
        wait: Seconds of exponential backoff between attempts (``0``: none), or a tenacity wait.
        input_fn: ``input_fn(original_input, draft, guidance) -> next input`` (re-invoked).
        guidance_key: Key of the guidance in a dict input without ``messages`` (no chat model).
        on_escalate: Called with the :class:`Escalation` when the budget is spent; returns a
            :class:`HumanDecision`, a dict or ``"approve"`` (``None``/``reject`` raises).
        return_decision: Return the gate's decision instead of the (annotated) output.
        stream: ``"sentences"``: ``.stream()`` / ``.astream()`` yield the gate's events
            (``qgate.sentence``, ``qgate.done``; README "Streaming"); ``None``: the default.
        min_support: Per-sentence floor when streaming (``None``: half the grounding threshold).
        stop_early: Under ``stream="sentences"``, close the stream at a failing sentence and
            retry with its guidance (off: the whole answer is gated, as ``invoke`` does).

    Returns:
        The gated runnable.

    Raises:
        ValueError: On contradictory arguments, a negative ``wait``, no runnable
            (:class:`InvalidInputError`), or guidance with nowhere to go (module docstring).

    A chain with a chat model step is gated at that step: a retry sends the prompt's messages,
    the rejected draft and the guidance (module docstring).

    Example:
        ```python
        gated = with_quality_gate(
            prompt | model,
            evidence_fn=lambda x: x["context"],
            policy=GatePolicy(max_retries=2, on_exhausted="pass_with_warning"),
        )
        answer = gated.invoke({"question": q, "context": docs})
        answer.response_metadata["qgate"]["score"]
        ```
    """
    if gate is not None and (monitor is not None or policy is not None):
        raise ValueError("pass either gate= or monitor=/policy=, not both")
    if stream is not None and stream != "sentences":
        raise ValueError(f"stream must be 'sentences' or None, got {stream!r}")
    if min_support is not None and not 0.0 <= min_support <= 1.0:
        raise ValueError(f"min_support must be in [0, 1], got {min_support}")
    return QualityGateRunnable(
        runnable,
        gate=gate if gate is not None else default_gate(monitor, policy),
        evidence=flatten_evidence(evidence),
        evidence_fn=evidence_fn,
        input_fn=input_fn,
        guidance_key=guidance_key,
        wait=_backoff(wait),
        on_escalate=on_escalate,
        return_decision=return_decision,
        stream=stream,
        min_support=min_support,
        stop_early=stop_early,
    )


def _backoff(wait: float | wait_base) -> wait_base:
    """The wait between attempts: seconds for an exponential backoff starting there (``0``:
    none), or a tenacity strategy as it is."""
    if not isinstance(wait, int | float):
        return wait
    if wait < 0:
        raise ValueError(f"wait must be >= 0, got {wait}")
    if wait == 0:
        return wait_none()
    return wait_exponential(multiplier=wait, min=wait, max=max(30.0, wait))
