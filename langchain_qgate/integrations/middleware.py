"""``QualityGateMiddleware``: the quality gate inside ``langchain.agents.create_agent``.

The middleware gates every final answer (an ``AIMessage`` without tool calls) in
``after_model``. A rejected draft is removed from the conversation (kept in the audit trail),
the model-facing guidance is added as a user turn and the agent jumps back to the model.
When the retry budget is spent the policy decides: ``"escalate"`` replaces the draft in the
conversation with a placeholder (``response_metadata["qgate_status"] == "held_for_review"``)
and pauses the run with LangGraph ``interrupt()`` (in ``before_model``) until a human decides
(:class:`HumanDecision`); while paused, ``result["messages"][-1]`` is that placeholder and the
rejected draft is in the interrupt's ``"draft"``. A reviewer's reject sends the feedback to the
model as a user turn with a fresh retry budget (the policy's ``max_retries``, or the decision's
``retries``), kept in the checkpointed counters;
``"pass_with_warning"`` delivers the answer with a warning, ``"raise"`` raises
``QualityGateRejected``.

Evidence is harvested from the run itself: every ``ToolMessage`` (content, or the ``Document``
artifact of retriever tools), plus static evidence and an optional ``evidence_fn(state)``.
All per-run data (counters, retries, rejected drafts) lives in agent state as private
attributes, so it is checkpointed, survives a process restart and never leaks between threads.

Tool gating is a separate middleware (``ToolGatingMiddleware``); stack both in the same
``middleware=[...]`` list to gate retrieval results before the model sees them and answers
after it writes them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, NotRequired, get_args

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    PrivateStateAttr,
    ResponseT,
    hook_config,
)
from langchain_core.messages import AIMessage
from langgraph.typing import ContextT

from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.gate.load import LoadCountersDict
from langchain_qgate.integrations._describe import surface_repr
from langchain_qgate.integrations._harvest import EvidenceFn, EvidenceItem, flatten_evidence
from langchain_qgate.integrations._review import grant_retries, granted_config
from langchain_qgate.integrations._sentences import StreamMode
from langchain_qgate.integrations._step import (
    COUNTERS_KEY,
    PENDING_KEY,
    GateRunner,
    Prepared,
    StepResult,
    current_config,
    default_gate,
    gate_load_monitor,
)
from langchain_qgate.integrations.streaming import AgentStreamGate

if TYPE_CHECKING:
    from langchain.agents.middleware.types import ModelRequest, ModelResponse
    from langgraph.runtime import Runtime

    from langchain_qgate.grounding import HallucinationMonitor

__all__ = ["QualityGateAgentState", "QualityGateMiddleware"]


class QualityGateAgentState(AgentState[ResponseT]):
    """Agent state with the gate's private bookkeeping (checkpointed, not in input/output).

    Attributes:
        qgate_counters: Load counters of the current turn (model calls, tokens, retries...).
        qgate_turn: Id of the user message the counters belong to.
        qgate_audit: Rejected drafts of the current turn with their guidance.
        qgate_pending: An escalation waiting for the reviewer (the held draft and verdict).
    """

    qgate_counters: NotRequired[Annotated[LoadCountersDict, PrivateStateAttr]]
    qgate_turn: NotRequired[Annotated[str | None, PrivateStateAttr]]
    qgate_audit: NotRequired[Annotated[list[dict[str, Any]], PrivateStateAttr]]
    qgate_pending: NotRequired[Annotated[dict[str, Any] | None, PrivateStateAttr]]


class QualityGateMiddleware(AgentMiddleware[QualityGateAgentState[ResponseT], ContextT, ResponseT]):
    """Gate the agent's final answers for grounding, confidence and load.

    Args:
        gate: A configured :class:`~langchain_qgate.gate.QualityGate`. Built from ``monitor``
            and ``policy`` when omitted.
        monitor: Hallucination monitor for the default gate (the bundled model when omitted;
            loaded lazily on the first check).
        policy: Gate policy for the default gate (thresholds, retry budget, exhaustion policy):
            a :class:`~langchain_qgate.gate.GatePolicy` or a mapping of its fields
            (``{"max_retries": 1}``, ``{"profile": "strict"}``); an invalid mapping raises
            :class:`~langchain_qgate.errors.InvalidInputError`.
        evidence: Static evidence checked alongside the harvested tool results.
        evidence_fn: ``evidence_fn(state) -> evidence`` for evidence kept elsewhere in state.
        annotate: Deliver the annotated rendering (citation markers) instead of the raw text.
        strip_guidance: Remove the gate's guidance turns from the history once an answer passes.
        stream: ``"sentences"``: generate final answers with the model's streaming API and
            write each sentence that passes its check to LangGraph's custom stream as it
            completes; a failing sentence and the rest are held back until the gate decides
            on the whole answer, as without streaming (see "Streaming" in the README for the
            event protocol). ``None`` (default): gate whole answers only.
        min_support: Per-sentence floor under ``stream="sentences"``: a sentence whose gate
            score is below it fails (``None``: half the policy's grounding threshold, so an
            unsupported sentence fails and an inferred one does not). Contradictions fail
            it as the policy says.
        stop_early: Under ``stream="sentences"``, close the model stream at a failing
            sentence when retries are left and retry with that sentence's guidance (faster,
            but the attempt is judged by that sentence, so a draft the whole-answer gate
            would pass can be retried). Off by default: the decision never depends on
            ``stream``.

    The per-call profile can be switched through ``config["configurable"]`` (for example
    ``{"qgate_profile": "strict"}``), as :meth:`GatePolicy.with_overrides` reads it: a profile
    sets the thresholds only, the retry budget and ``on_exhausted`` of ``policy`` stay.

    Example:
        ```python
        from langchain.agents import create_agent
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.types import Command
        from langchain_qgate import GatePolicy, QualityGateMiddleware

        agent = create_agent(
            model,
            tools=[search_docs],
            middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=2))],
            checkpointer=InMemorySaver(),
        )
        config = {"configurable": {"thread_id": "t1"}}
        result = agent.invoke({"messages": [("user", "What was 2024 revenue?")]}, config)
        if "__interrupt__" in result:  # budget spent, a human decides
            result = agent.invoke(Command(resume={"type": "approve"}), config)
        result["messages"][-1].response_metadata["qgate"]["score"]
        ```
    """

    state_schema = QualityGateAgentState  # type: ignore[assignment]

    def __init__(
        self,
        *,
        gate: QualityGate | None = None,
        monitor: HallucinationMonitor | None = None,
        policy: GatePolicy | Mapping[str, Any] | None = None,
        evidence: Any = None,
        evidence_fn: EvidenceFn | None = None,
        annotate: bool = False,
        strip_guidance: bool = True,
        stream: StreamMode | None = None,
        min_support: float | None = None,
        stop_early: bool = False,
    ) -> None:
        super().__init__()
        if stream is not None and stream not in get_args(StreamMode):
            raise ValueError(
                f"stream must be one of {get_args(StreamMode)} or None, got {stream!r}"
            )
        if min_support is not None and not 0.0 <= min_support <= 1.0:
            raise ValueError(f"min_support must be in [0, 1], got {min_support}")
        if gate is not None and (monitor is not None or policy is not None):
            raise ValueError("pass either gate= or monitor=/policy=, not both")
        if evidence_fn is not None and not callable(evidence_fn):
            raise ValueError("evidence_fn must be callable")
        self.gate = gate if gate is not None else default_gate(monitor, policy)
        static: list[EvidenceItem] = flatten_evidence(evidence)
        self._runner = GateRunner(
            self.gate,
            load_monitor=gate_load_monitor(self.gate),
            static_evidence=static,
            evidence_fn=evidence_fn,
            annotate=annotate,
            strip_guidance=strip_guidance,
            surface="middleware",
        )
        self.stream = stream
        self._streaming = (
            AgentStreamGate(self._runner, min_support=min_support, stop_early=stop_early)
            if stream is not None
            else None
        )

    def __repr__(self) -> str:
        return surface_repr(
            type(self).__name__, self.gate, self._runner.evidence_source(), stream=self.stream
        )

    def _prepare(self, state: QualityGateAgentState[ResponseT]) -> Prepared | dict[str, Any] | None:
        """The check's inputs for a final answer; else the update to return without a check.

        ``None`` when the last message is not an AI message, the load bookkeeping when it is a
        tool-calling turn.
        """
        messages = state.get("messages") or []
        draft = messages[-1] if messages else None
        if not isinstance(draft, AIMessage):
            return None
        if draft.tool_calls:
            return self._runner.record_model_call(state, draft)
        return self._runner.prepare(state, draft)

    @staticmethod
    def _apply(step: StepResult) -> dict[str, Any]:
        # retry: back to the model with guidance; review: through before_model, which asks
        # the human before the model runs again.
        if step.route in ("retry", "review"):
            return {**step.update, "jump_to": "model"}
        return step.update

    @staticmethod
    def _after_review(step: StepResult | None) -> dict[str, Any] | None:
        if step is None:
            return None
        if step.route == "pass":  # approved or edited: the answer is final
            return {**step.update, "jump_to": "end"}
        # rejected with feedback: the model answers again, with a fresh retry budget
        fresh = grant_retries(step.update.get(COUNTERS_KEY), step.decision)
        return step.update if fresh is None else {**step.update, COUNTERS_KEY: fresh}

    @hook_config(can_jump_to=["end"])
    def before_model(
        self, state: QualityGateAgentState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Ask the human about a held escalation (``interrupt()``); nothing otherwise.

        Args:
            state: Agent state; ``qgate_pending`` holds the escalated draft, if any.
            runtime: The LangGraph runtime (unused).

        Returns:
            ``None`` when nothing is pending; else the reviewer's decision applied: the draft
            (or the edit) replaces the placeholder and the run ends, or (reject) the
            placeholder is removed, the feedback goes to the model as a user turn and the
            retry counters start again with a fresh budget.
        """
        if not state.get(PENDING_KEY):
            return None
        return self._after_review(self._runner.review(state))

    @hook_config(can_jump_to=["end"])
    async def abefore_model(
        self, state: QualityGateAgentState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async :meth:`before_model`."""
        if not state.get(PENDING_KEY):
            return None
        return self._after_review(self._runner.review(state))

    @hook_config(can_jump_to=["model", "end"])
    def after_model(
        self, state: QualityGateAgentState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Gate a final answer; jump back to the model with guidance when it fails.

        Args:
            state: Agent state (messages and the gate's private bookkeeping).
            runtime: The LangGraph runtime (unused).

        Returns:
            The state update: the annotated answer, or the draft's removal plus guidance and
            ``jump_to="model"``; bookkeeping only for tool-calling turns.

        Raises:
            QualityGateRejected: Budget spent under the ``"raise"`` policy.
        """
        prepared = self._prepare(state)
        if not isinstance(prepared, Prepared):
            return prepared
        config = granted_config(current_config(), prepared.counters)
        result = self._runner.check(prepared, config)
        return self._apply(self._runner.finish(prepared, result, defer_review=True))

    @hook_config(can_jump_to=["model", "end"])
    async def aafter_model(
        self, state: QualityGateAgentState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async :meth:`after_model` (the grounding check runs off the event loop)."""
        prepared = self._prepare(state)
        if not isinstance(prepared, Prepared):
            return prepared
        config = granted_config(current_config(), prepared.counters)
        result = await self._runner.acheck(prepared, config)
        return self._apply(self._runner.finish(prepared, result, defer_review=True))

    # -- streaming (``stream="sentences"``) ------------------------------------------------
    def wrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], ModelResponse[ResponseT]],
    ) -> Any:
        """With ``stream="sentences"``: gate the model's token stream sentence by sentence.

        Args:
            request: The model request.
            handler: Calls the model.

        Returns:
            The model response; its answer carries ``response_metadata["qgate_stream"]`` (the
            sentences and whether the draft was stopped), which ``after_model`` reads.
        """
        if self._streaming is None:
            return handler(request)
        return self._streaming.wrap(request, handler)

    async def awrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[ResponseT]]],
    ) -> Any:
        """Async :meth:`wrap_model_call`."""
        if self._streaming is None:
            return await handler(request)
        return await self._streaming.awrap(request, handler)
