"""``with_quality_gate``: gate an LCEL runnable and retry it with guidance.

The wrapper invokes the runnable, grades its output against the evidence (static, from the
input through ``evidence_fn``, and whatever retrievers and tools inside the runnable returned),
and on rejection re-invokes it with the model-facing guidance appended to the input. tenacity
drives the loop (and the optional backoff); the gate's policy decides when the budget is spent:
``pass_with_warning`` returns the answer with a warning, ``raise`` raises
``QualityGateRejected``, and ``escalate`` hands the escalation to ``on_escalate`` (a human or a
fallback) or raises ``QualityGateRejected`` carrying it. For a pause-and-resume human review use
:class:`~langchain_qgate.integrations.QualityGateMiddleware` or the graph gate node.

How guidance is appended depends on the input: a string gets it as a new paragraph; a list of
messages gets the rejected draft and a user turn with the guidance; a dict with ``messages``
gets them appended there; any other dict gets the guidance under ``guidance_key``
(``{"guidance": ...}`` -- give your prompt an optional ``{guidance}`` slot, for example with
``prompt.partial(guidance="")``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig, ensure_config
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

from langchain_qgate.errors import QualityGateRejected
from langchain_qgate.gate import (
    Escalation,
    FilteredOutput,
    GatePolicy,
    QualityGate,
    RejectedOutput,
)
from langchain_qgate.integrations._harvest import (
    EvidenceItem,
    flatten_evidence,
    last_question,
    message_text,
)
from langchain_qgate.integrations._review import HumanDecision
from langchain_qgate.integrations._step import default_gate
from langchain_qgate.integrations.callbacks import EvidenceCollector

__all__ = ["QualityGateRunnable", "with_quality_gate"]

EscalationHandler = Callable[[Escalation], HumanDecision | Mapping[str, Any] | str | None]
"""Called when the budget is spent under ``escalate``; returns a decision or ``None`` (raise)."""


class _RetryWithGuidance(Exception):  # noqa: N818 - internal control flow for tenacity
    """Raised inside an attempt to make tenacity run another one."""


@dataclass
class _Loop:
    """The retry loop's state across attempts: the next input and the rejections so far."""

    current: Any
    retries: int = 0


def _append_guidance(value: Any, draft: Any, guidance: str, guidance_key: str) -> Any:
    if isinstance(value, str):
        return f"{value}\n\n{guidance}"
    if isinstance(value, list) and all(isinstance(m, BaseMessage) for m in value):
        return [*value, _as_ai(draft), HumanMessage(content=guidance)]
    if isinstance(value, Mapping):
        out = dict(value)
        messages = out.get("messages")
        if isinstance(messages, list):
            out["messages"] = [*messages, _as_ai(draft), HumanMessage(content=guidance)]
        else:
            out[guidance_key] = guidance
        return out
    raise TypeError(
        f"cannot add guidance to an input of type {type(value).__name__}; pass input_fn="
    )


def _as_ai(draft: Any) -> AIMessage:
    if isinstance(draft, AIMessage):
        return draft
    return AIMessage(content=draft if isinstance(draft, str) else message_text(draft))


def _question(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        q = last_question([m for m in value if isinstance(m, BaseMessage)])
        return message_text(q) if q is not None else None
    if isinstance(value, Mapping):
        for key in ("question", "input", "query"):
            if isinstance(value.get(key), str):
                return str(value[key])
        if isinstance(value.get("messages"), list):
            return _question(value["messages"])
    return None


class QualityGateRunnable(Runnable[Any, Any]):
    """A runnable whose output passes the quality gate (see :func:`with_quality_gate`)."""

    def __init__(
        self,
        bound: Runnable[Any, Any],
        *,
        gate: QualityGate,
        evidence: list[EvidenceItem],
        evidence_fn: Callable[[Any], Any] | None,
        input_fn: Callable[[Any, Any, str], Any] | None,
        guidance_key: str,
        wait: wait_base,
        on_escalate: EscalationHandler | None,
        return_decision: bool,
    ) -> None:
        """Create the wrapper; use :func:`with_quality_gate`."""
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

    # -- one attempt ------------------------------------------------------------------------
    def _evidence_for(self, value: Any, collector: EvidenceCollector) -> list[EvidenceItem]:
        items = [*self.evidence, *collector.evidence]
        if self.evidence_fn is not None:
            items.extend(flatten_evidence(self.evidence_fn(value)))
        return items

    def _next_input(self, original: Any, current: Any, draft: Any, guidance: str) -> Any:
        if self.input_fn is not None:
            return self.input_fn(original, draft, guidance)
        return _append_guidance(current, draft, guidance, self.guidance_key)

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
            human = HumanDecision.model_validate(answer)
            if human.type == "approve":
                return self._deliver(output, decision)
            if human.type == "edit":
                text = human.text or ""
                edited = (
                    output.model_copy(update={"content": text})
                    if isinstance(output, AIMessage)
                    else text
                )
                return self._deliver(edited, decision)
        reasons = [decision.escalation.reason, *decision.guidance.issues]
        raise QualityGateRejected(reasons, payload=decision)

    # -- the loop ---------------------------------------------------------------------------
    def _retrying_kwargs(self, config: RunnableConfig) -> dict[str, Any]:
        retries = self.gate.policy.with_overrides(config).max_retries
        return {
            "stop": stop_after_attempt(retries + 1),
            "wait": self.wait,
            "retry": retry_if_exception_type(_RetryWithGuidance),
            "reraise": True,
        }

    def _attempt_setup(
        self, input: Any, loop: _Loop, config: RunnableConfig
    ) -> tuple[EvidenceCollector, RunnableConfig, dict[str, Any]]:
        """A fresh evidence collector, the run config that feeds it, and the gate's kwargs."""
        collector = EvidenceCollector()
        gate_kwargs: dict[str, Any] = {
            "question": _question(input),
            "retries_used": loop.retries,
            "config": config,
        }
        return collector, merge_configs(config, {"callbacks": [collector]}), gate_kwargs

    def _settle(
        self, input: Any, loop: _Loop, output: Any, decision: FilteredOutput | RejectedOutput
    ) -> Any:
        """The delivered result, or queue the guided next input and raise for another attempt."""
        if isinstance(decision, RejectedOutput) and decision.escalation is None:
            loop.retries += 1
            guidance = decision.guidance.to_model_message()
            loop.current = self._next_input(input, loop.current, output, guidance)
            raise _RetryWithGuidance
        return self._resolve(output, decision)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Invoke the runnable until its output passes or the budget is spent."""
        config = ensure_config(config)
        loop, result = _Loop(current=input), None
        for attempt in Retrying(**self._retrying_kwargs(config)):
            with attempt:
                collector, run_config, gate_kwargs = self._attempt_setup(input, loop, config)
                output = self.bound.invoke(loop.current, run_config, **kwargs)
                evidence = self._evidence_for(input, collector)
                decision = self.gate.check(output, evidence, **gate_kwargs)
                result = self._settle(input, loop, output, decision)
        return result

    async def ainvoke(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async :meth:`invoke`."""
        config = ensure_config(config)
        loop, result = _Loop(current=input), None
        async for attempt in AsyncRetrying(**self._retrying_kwargs(config)):
            with attempt:
                collector, run_config, gate_kwargs = self._attempt_setup(input, loop, config)
                output = await self.bound.ainvoke(loop.current, run_config, **kwargs)
                evidence = self._evidence_for(input, collector)
                decision = await self.gate.acheck(output, evidence, **gate_kwargs)
                result = self._settle(input, loop, output, decision)
        return result


def with_quality_gate(
    runnable: Runnable[Any, Any],
    *,
    evidence: Any = None,
    evidence_fn: Callable[[Any], Any] | None = None,
    policy: GatePolicy | None = None,
    gate: QualityGate | None = None,
    monitor: Any = None,
    wait: float | wait_base = 0.0,
    input_fn: Callable[[Any, Any, str], Any] | None = None,
    guidance_key: str = "guidance",
    on_escalate: EscalationHandler | None = None,
    return_decision: bool = False,
) -> QualityGateRunnable:
    """Wrap ``runnable`` so its output passes the quality gate, retrying with guidance.

    Args:
        runnable: The chain or model to gate (its output: a message or a string).
        evidence: Static evidence for every call.
        evidence_fn: ``evidence_fn(input) -> evidence`` (for example ``lambda x: x["context"]``).
        policy: Gate policy (thresholds, retry budget, exhaustion policy).
        gate: A configured gate instead of ``policy``/``monitor``.
        monitor: Hallucination monitor for the default gate.
        wait: Backoff between attempts: seconds for an exponential backoff starting there
            (``0`` = none), or any tenacity wait strategy.
        input_fn: ``input_fn(original_input, draft, guidance) -> next input`` to control how
            guidance reaches the model.
        guidance_key: Key that carries the guidance for dict inputs without ``messages``.
        on_escalate: Called with the :class:`Escalation` when the budget is spent under
            ``escalate``; return a :class:`HumanDecision` (``approve``/``edit``), a dict or
            ``"approve"``; ``None`` or ``reject`` raises ``QualityGateRejected``.
        return_decision: Return the gate's decision instead of the (annotated) output.

    Returns:
        The gated runnable.

    Raises:
        ValueError: On contradictory arguments or a negative ``wait``.

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
    if isinstance(wait, int | float):
        if wait < 0:
            raise ValueError(f"wait must be >= 0, got {wait}")
        strategy: wait_base = (
            wait_exponential(multiplier=wait, min=wait, max=max(30.0, wait))
            if wait > 0
            else wait_none()
        )
    else:
        strategy = wait
    return QualityGateRunnable(
        runnable,
        gate=gate if gate is not None else default_gate(monitor, policy),
        evidence=flatten_evidence(evidence),
        evidence_fn=evidence_fn,
        input_fn=input_fn,
        guidance_key=guidance_key,
        wait=strategy,
        on_escalate=on_escalate,
        return_decision=return_decision,
    )
