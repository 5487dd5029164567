"""The gate loop step shared by ``QualityGateMiddleware`` and the LangGraph gate node.

One step: read the draft answer and the evidence from state, run the gate, and turn the
verdict into a state update plus a route (``"pass"`` or ``"retry"``). Everything per-run lives
in state under the ``qgate_*`` keys (checkpointed, never on the instance):

- ``qgate_counters``: :class:`~langchain_qgate.gate.load.LoadCounters` as a dict (retries included).
- ``qgate_turn``: id of the user turn the counters belong to; a new question resets them.
- ``qgate_audit``: the rejected drafts of the current turn, with the guidance they got.
- ``qgate_pending``: an escalation waiting for a human (the draft, the verdict, the request).

Escalation in two steps (the middleware and ``add_quality_gate``): the gate step replaces the
rejected draft in ``messages`` with a placeholder that says the answer is held for review and
keeps the draft in ``qgate_pending``; the review step then calls ``interrupt()``. So while the
run is paused, ``messages[-1]`` is never the rejected draft (it is in the interrupt's
``"draft"``). The reviewer's decision replaces the placeholder (approve, edit) or removes it and
sends the feedback to the model (reject).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, RemoveMessage, ToolMessage
from langchain_core.runnables import RunnableConfig

from langchain_qgate.errors import QualityGateRejected
from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityGate, RejectedOutput
from langchain_qgate.gate.load import CognitiveLoadMonitor, LoadCounters
from langchain_qgate.gate.telemetry import gate_scope
from langchain_qgate.integrations._describe import evidence_source
from langchain_qgate.integrations._harvest import (
    EvidenceFn,
    EvidenceItem,
    collect_evidence,
    guidance_message,
    is_guidance,
    last_question,
    message_text,
)
from langchain_qgate.integrations._review import (
    EscalationRequest,
    HumanDecision,
    ask_human,
    require_checkpointer,
    resuming,
    reviewed_metadata,
)
from langchain_qgate.integrations._sentences import (
    QGateStreamEvent,
    check_streamed,
    delivery_events,
    rejection_events,
    reviewer_retry_event,
    sentence_checks,
    stream_meta,
    write_events,
)

__all__ = [
    "AUDIT_KEY",
    "COUNTERS_KEY",
    "HELD_STATUS",
    "PENDING_KEY",
    "TURN_KEY",
    "GateRunner",
    "Prepared",
    "StepResult",
    "current_config",
    "default_gate",
    "gate_load_monitor",
]

COUNTERS_KEY = "qgate_counters"
TURN_KEY = "qgate_turn"
AUDIT_KEY = "qgate_audit"
PENDING_KEY = "qgate_pending"
HELD_STATUS = "held_for_review"
"""``response_metadata["qgate_status"]`` of the placeholder shown while a human reviews."""

Route = Literal["pass", "retry", "review"]


@dataclass(frozen=True, kw_only=True)
class Prepared:
    """Inputs of one gate check read from state."""

    draft: AIMessage
    evidence: list[EvidenceItem]
    question: str | None
    counters: LoadCounters
    turn: str | None
    audit: list[dict[str, Any]]
    guidance_ids: list[str]


@dataclass(frozen=True, kw_only=True)
class StepResult:
    """The outcome of one gate step: a route and the state update that goes with it."""

    route: Route
    update: dict[str, Any]
    result: FilteredOutput | RejectedOutput | None = None
    decision: HumanDecision | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def current_config() -> RunnableConfig | None:
    """The ``RunnableConfig`` of the running graph node, or None outside a graph."""
    from langgraph.config import get_config

    try:
        return get_config()
    except RuntimeError:
        return None


def default_gate(monitor: Any, policy: GatePolicy | Mapping[str, Any] | None) -> QualityGate:
    """A gate whose load budget allows as many retries as the policy does (per call)."""
    return QualityGate(monitor=monitor, policy=policy)


def gate_load_monitor(gate: QualityGate) -> CognitiveLoadMonitor:
    """The gate's load monitor, so the counters and the gate share one budget."""
    monitor = getattr(gate, "load_monitor", None)
    return monitor if isinstance(monitor, CognitiveLoadMonitor) else CognitiveLoadMonitor()


def _turn_messages(messages: Sequence[BaseMessage], turn: str | None) -> list[BaseMessage]:
    """Messages after the user turn ``turn`` (the whole list when it is not found)."""
    if turn is None:
        return list(messages)
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].id == turn:
            return list(messages[i + 1 :])
    return list(messages)


def _tool_errors_since_last_ai(messages: Sequence[BaseMessage]) -> int:
    """Error ``ToolMessage``s between the previous AI turn and the last message."""
    count = 0
    for message in reversed(messages[:-1]):
        if isinstance(message, AIMessage):
            break
        if isinstance(message, ToolMessage) and message.status == "error":
            count += 1
    return count


class GateRunner:
    """Stateless helper that runs the gate on state and builds the state update.

    Args:
        gate: The quality gate facade.
        load_monitor: Counts model calls and retries into the counters.
        static_evidence: Evidence given to the constructor.
        evidence_fn: Optional ``evidence_fn(state) -> evidence``.
        evidence_key: State key holding evidence (graph helper) or None.
        annotate: Replace the passed answer's content with the annotated rendering.
        strip_guidance: Remove this turn's guidance messages once the answer passes.
        surface: Name of the integration, in verdict records and the no-evidence warning.
    """

    def __init__(
        self,
        gate: QualityGate,
        *,
        load_monitor: CognitiveLoadMonitor,
        static_evidence: Sequence[EvidenceItem] = (),
        evidence_fn: EvidenceFn | None = None,
        evidence_key: str | None = None,
        annotate: bool = False,
        strip_guidance: bool = True,
        surface: str = "graph",
    ) -> None:
        self.gate = gate
        self.surface = surface
        self.load_monitor = load_monitor
        self.static_evidence = list(static_evidence)
        self.evidence_fn = evidence_fn
        self.evidence_key = evidence_key
        self.annotate = annotate
        self.strip_guidance = strip_guidance

    def evidence_source(self) -> str:
        """Where this runner reads evidence (for reprs)."""
        return evidence_source(
            harvested="tool messages",
            static=self.static_evidence,
            evidence_fn=self.evidence_fn,
            evidence_key=self.evidence_key,
        )

    def _scope(self, p: Prepared) -> AbstractContextManager[None]:
        """The gate call's scope: this surface; the no-evidence warning on the first attempt."""
        return gate_scope(self.surface, warn_no_evidence=p.counters.retries == 0)

    # -- reading state -------------------------------------------------------------------
    def bookkeeping(self, state: Mapping[str, Any]) -> tuple[str | None, LoadCounters, list[Any]]:
        """Turn id, counters and audit of the current user turn (fresh on a new question)."""
        messages = state.get("messages") or []
        question = last_question(messages)
        turn = question.id if question is not None else None
        if turn != state.get(TURN_KEY) or COUNTERS_KEY not in state:
            return turn, LoadCounters(), []
        counters = LoadCounters.from_state(state.get(COUNTERS_KEY))
        return turn, counters, list(state.get(AUDIT_KEY) or [])

    def record_model_call(self, state: Mapping[str, Any], message: AIMessage) -> dict[str, Any]:
        """Bookkeeping update for a model call that is not gated (it calls tools)."""
        turn, counters, audit = self.bookkeeping(state)
        counters = self._count(state, counters, message)
        return {COUNTERS_KEY: counters.to_state(), TURN_KEY: turn, AUDIT_KEY: audit}

    def _count(
        self, state: Mapping[str, Any], counters: LoadCounters, message: AIMessage
    ) -> LoadCounters:
        counters = self.load_monitor.record_model_call(counters, message)
        for _ in range(_tool_errors_since_last_ai(state.get("messages") or [])):
            counters = self.load_monitor.record_tool_error(counters)
        return counters

    def prepare(self, state: Mapping[str, Any], draft: AIMessage) -> Prepared:
        """Read everything the gate needs for ``draft`` from ``state``."""
        messages = state.get("messages") or []
        turn, counters, audit = self.bookkeeping(state)
        counters = self._count(state, counters, draft)
        question = last_question(messages)
        evidence = collect_evidence(
            state,
            static=self.static_evidence,
            evidence_fn=self.evidence_fn,
            state_key=self.evidence_key,
        )
        guidance_ids = [
            m.id for m in _turn_messages(messages, turn) if is_guidance(m) and m.id is not None
        ]
        return Prepared(
            draft=draft,
            evidence=evidence,
            question=message_text(question) if question is not None else None,
            counters=counters,
            turn=turn,
            audit=audit,
            guidance_ids=guidance_ids,
        )

    # -- running the gate ----------------------------------------------------------------
    def check(self, p: Prepared, config: RunnableConfig | None) -> FilteredOutput | RejectedOutput:
        """Run the gate synchronously."""
        with self._scope(p):
            if stream_meta(p.draft) is not None:
                return self._check_streamed(p, config)
            return self.gate.check(
                p.draft,
                p.evidence,
                question=p.question,
                retries_used=p.counters.retries,
                counters=p.counters,
                config=config,
            )

    async def acheck(
        self, p: Prepared, config: RunnableConfig | None
    ) -> FilteredOutput | RejectedOutput:
        """Run the gate asynchronously."""
        with self._scope(p):
            if stream_meta(p.draft) is not None:
                return await asyncio.to_thread(self._check_streamed, p, config)
            return await self.gate.acheck(
                p.draft,
                p.evidence,
                question=p.question,
                retries_used=p.counters.retries,
                counters=p.counters,
                config=config,
            )

    # -- turning the verdict into state --------------------------------------------------
    def finish(
        self,
        p: Prepared,
        result: FilteredOutput | RejectedOutput,
        *,
        defer_review: bool = False,
    ) -> StepResult:
        """State update and route for a gate verdict.

        An escalation calls ``interrupt()`` here, unless ``defer_review``: then the draft is
        replaced by a placeholder, kept in ``qgate_pending``, and the route is ``"review"``
        (:meth:`review` interrupts in the next step).
        """
        step = self._finish(p, result, defer_review=defer_review)
        self._emit_step(p, step)
        return step

    def _finish(
        self, p: Prepared, result: FilteredOutput | RejectedOutput, *, defer_review: bool
    ) -> StepResult:
        if isinstance(result, FilteredOutput):
            return self._deliver(p, result, text=None, review=None)
        if result.escalation is None:
            return self._retry(p, result, result.guidance.to_model_message(), decision=None)
        require_checkpointer("the quality gate")
        request = self._request(p, result)
        if defer_review:
            return self._hold(p, result, request)
        if stream_meta(p.draft) is not None and not resuming():
            # the shown sentences are withdrawn before the interrupt, once (not on the resume)
            write_events(rejection_events(_record(p), result, review=True))
        return self._decide(p, result, ask_human(request))

    def _request(self, p: Prepared, result: RejectedOutput) -> EscalationRequest:
        escalation = result.escalation
        if escalation is None:  # pragma: no cover - finish() only asks for escalations
            raise ValueError("not an escalation")
        return EscalationRequest(
            reason=escalation.reason,
            draft=escalation.draft,
            summary=result.guidance.summary(),
            guidance=result.guidance.model_dump(mode="json"),
            report=escalation.report.model_dump(mode="json"),
            metadata=result.metadata.model_dump(mode="json"),
            retries_used=p.counters.retries,
        )

    def _hold(self, p: Prepared, result: RejectedOutput, request: EscalationRequest) -> StepResult:
        """Replace the draft by a placeholder and keep everything the review step needs."""
        placeholder = AIMessage(
            content=(
                "[Held for review] This answer did not pass the quality check and is waiting "
                f"for a human decision ({request.reason}). The rejected draft is in the "
                "interrupt's 'draft'."
            ),
            id=p.draft.id,
            response_metadata={"qgate_status": HELD_STATUS},
        )
        pending = {
            "request": request.model_dump(mode="json"),
            "draft": p.draft,
            "result": result.model_dump(mode="json"),
            "question": p.question,
            "guidance_ids": p.guidance_ids,
        }
        update = {
            "messages": [placeholder],
            COUNTERS_KEY: p.counters.to_state(),
            TURN_KEY: p.turn,
            AUDIT_KEY: p.audit,
            PENDING_KEY: pending,
        }
        return StepResult(route="review", update=update, result=result)

    def review(self, state: Mapping[str, Any]) -> StepResult | None:
        """The human review of a held escalation (``interrupt()``), or ``None`` if none."""
        pending = state.get(PENDING_KEY)
        if not pending:
            return None
        draft = pending["draft"]
        if not isinstance(draft, AIMessage):
            draft = AIMessage.model_validate(draft)
        p = Prepared(
            draft=draft,
            evidence=collect_evidence(
                state,
                static=self.static_evidence,
                evidence_fn=self.evidence_fn,
                state_key=self.evidence_key,
            ),
            question=pending.get("question"),
            counters=LoadCounters.from_state(state.get(COUNTERS_KEY)),
            turn=state.get(TURN_KEY),
            audit=list(state.get(AUDIT_KEY) or []),
            guidance_ids=list(pending.get("guidance_ids") or []),
        )
        result = RejectedOutput.model_validate(pending["result"])
        request = EscalationRequest.model_validate(pending["request"])
        step = self._decide(p, result, ask_human(request))
        step.update[PENDING_KEY] = None
        self._emit_step(p, step, reviewed=True)
        return step

    def _decide(self, p: Prepared, result: RejectedOutput, decision: HumanDecision) -> StepResult:
        """Apply a reviewer's decision on an escalated draft."""
        review: dict[str, Any] = {"decision": decision.type, "reviewer": decision.reviewer}
        if decision.type == "approve":
            approved = _reviewed(result, decision)
            return self._deliver(p, approved, text=None, review=review, decision=decision)
        if decision.type == "edit":
            review["original_draft"] = message_text(p.draft)
            # The draft's claims do not describe the reviewer's text: grade the text itself
            # (for information; the reviewer's decision stands).
            edited = _reviewed(self._regrade(p, decision.text or ""), decision)
            return self._deliver(p, edited, text=decision.text, review=review, decision=decision)
        rejected = result.model_copy(
            update={"metadata": reviewed_metadata(result.metadata, decision)}
        )
        return self._retry(p, rejected, decision.message or "", decision=decision)

    def _regrade(self, p: Prepared, text: str) -> FilteredOutput | RejectedOutput:
        try:
            with gate_scope(self.surface, warn_no_evidence=False):
                return self.gate.check(text, p.evidence, question=p.question)
        except QualityGateRejected as exc:
            if isinstance(exc.payload, RejectedOutput):
                return exc.payload
            raise

    def _audit_record(self, p: Prepared, result: RejectedOutput, guidance: str) -> dict[str, Any]:
        return {
            "attempt": len(p.audit) + 1,
            "message_id": p.draft.id,
            "draft": message_text(p.draft),
            "score": result.metadata.score,
            "summary": result.guidance.summary(),
            "guidance": guidance,
            "metadata": result.metadata.model_dump(mode="json"),
        }

    def _escalated_record(self, p: Prepared, review: dict[str, Any]) -> dict[str, Any]:
        return {
            "attempt": len(p.audit) + 1,
            "message_id": p.draft.id,
            "draft": message_text(p.draft),
            "escalated": True,
            "human_decision": {k: v for k, v in review.items() if k != "original_draft"},
        }

    def _retry(
        self,
        p: Prepared,
        result: RejectedOutput,
        guidance: str,
        *,
        decision: HumanDecision | None,
    ) -> StepResult:
        if decision is None:
            counters = self.load_monitor.record_retry(p.counters)
        else:
            # The time a human took to review is not run time: restart the clock.
            counters = p.counters.model_copy(update={"started_at": None})
        record = self._audit_record(p, result, guidance)
        if decision is not None:
            record["human_decision"] = decision.model_dump(mode="json")
        messages: list[BaseMessage] = []
        if p.draft.id is not None:
            messages.append(RemoveMessage(id=p.draft.id))
        messages.append(guidance_message(guidance))
        update = {
            "messages": messages,
            COUNTERS_KEY: counters.to_state(),
            TURN_KEY: p.turn,
            AUDIT_KEY: [*p.audit, record],
        }
        return StepResult(
            route="retry",
            update=update,
            result=result,
            decision=decision,
            extra={"guidance": guidance},
        )

    def _deliver(
        self,
        p: Prepared,
        result: FilteredOutput | RejectedOutput,
        *,
        text: str | None,
        review: dict[str, Any] | None,
        decision: HumanDecision | None = None,
    ) -> StepResult:
        meta = dict(p.draft.response_metadata)
        meta["qgate"] = result.metadata.model_dump(mode="json")
        if isinstance(result, FilteredOutput) and result.warning:
            meta["qgate_warning"] = result.warning
        audit = p.audit
        if review is not None:
            meta["qgate_review"] = review
            audit = [*audit, self._escalated_record(p, review)]
        if audit:
            meta["qgate_rejected_drafts"] = audit
        content: Any = p.draft.content
        if text is not None:
            content = text
        elif self.annotate and isinstance(result, FilteredOutput):
            content = result.render_annotated()
        final = p.draft.model_copy(update={"content": content, "response_metadata": meta})
        messages: list[BaseMessage] = [final]
        if self.strip_guidance:
            messages.extend(RemoveMessage(id=i) for i in p.guidance_ids)
        update = {
            "messages": messages,
            COUNTERS_KEY: p.counters.to_state(),
            TURN_KEY: p.turn,
            AUDIT_KEY: audit,
        }
        return StepResult(route="pass", update=update, result=result, decision=decision)

    # -- streamed drafts (``stream="sentences"``, see ``_sentences``) ---------------------------
    def _check_streamed(
        self, p: Prepared, config: RunnableConfig | None
    ) -> FilteredOutput | RejectedOutput:
        """The gate's verdict on a streamed draft.

        A draft stopped at a failing sentence (``stop_early``) is judged by that sentence (its
        guidance goes to the model), with the partial draft as the rejected text; a finished
        draft is judged whole, exactly as without streaming. Shown sentences are retracted
        before a ``raise``.
        """
        return check_streamed(
            self.gate,
            p.draft,
            _record(p),
            p.evidence,
            config=config,
            question=p.question,
            retries_used=p.counters.retries,
            counters=p.counters,
        )

    def _emit_step(self, p: Prepared, step: StepResult, *, reviewed: bool = False) -> None:
        """Write the stream events that follow a streamed draft's sentences."""
        record = stream_meta(p.draft)
        if record is None or step.result is None:
            return
        events: list[QGateStreamEvent]
        if step.route in ("retry", "review") and isinstance(step.result, RejectedOutput):
            if step.decision is not None:
                # a reviewer rejected: the retraction and the escalation went out when the run
                # paused; the model answers again with the reviewer's feedback
                events = [reviewer_retry_event(record, step.result, step.decision)]
            else:
                if reviewed:
                    record = {**record, "sentences": []}
                events = rejection_events(record, step.result, review=step.route == "review")
        else:
            final = next(
                (m for m in step.update.get("messages", []) if isinstance(m, AIMessage)), p.draft
            )
            check, alone = sentence_checks(
                self.gate,
                p.evidence,
                question=p.question,
                config=current_config(),
                floor=record.get("floor"),
            )
            events = delivery_events(
                record,
                step.result,
                text=message_text(final),
                decision=step.result.metadata.decision,
                check=check,
                show_held=step.decision is None,
                check_alone=alone,
            )
        write_events(events)


def _reviewed(
    result: FilteredOutput | RejectedOutput, decision: HumanDecision
) -> FilteredOutput | RejectedOutput:
    """``result`` with the reviewer's decision in its metadata (``approved``, ...)."""
    return result.model_copy(update={"metadata": reviewed_metadata(result.metadata, decision)})


def _record(p: Prepared) -> dict[str, Any]:
    record = stream_meta(p.draft)
    return dict(record) if record is not None else {"sentences": []}
