"""The quality gate as LangGraph nodes for hand-built graphs.

``add_quality_gate(builder, after="generate", retry_to="generate", then=END)`` wires

```
generate -> quality_gate -> pass  -> then
                          -> retry -> retry_to   (guidance added to messages and state)
                          -> review -> quality_gate_review -> interrupt() for a human
                                       -> pass (approve / edit) -> then
                                       -> retry (reject with feedback) -> retry_to
```

When the budget is spent under ``escalate``, the gate node replaces the rejected draft with a
placeholder (``response_metadata["qgate_status"] == "held_for_review"``) and the review node
pauses the run: while paused, ``messages[-1]`` is the placeholder and the draft is in the
interrupt's ``"draft"`` (``pass_with_warning`` and ``raise`` need no review node). A reject
sends the reviewer's feedback to ``retry_to`` as a user turn in ``messages`` (and in
``qgate_guidance``) with a fresh retry budget: the policy's ``max_retries`` again, or the
decision's ``retries``; the grant is kept in ``qgate_counters``, so it is checkpointed.

The graph's state must extend :class:`QualityGateState` (``messages``, ``evidence`` and the
gate's ``qgate_*`` bookkeeping). The generator's last message must be its ``AIMessage``;
evidence comes from ``state["evidence"]``, the ``ToolMessage``s in ``messages``, static
evidence and an optional ``evidence_fn(state)``. With a checkpointer, a run paused at an
escalation resumes with ``Command(resume=HumanDecision(...))`` -- in another process too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import END, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.gate.load import LoadCountersDict
from langchain_qgate.integrations._harvest import EvidenceFn, flatten_evidence
from langchain_qgate.integrations._review import grant_retries, granted_config
from langchain_qgate.integrations._step import (
    AUDIT_KEY,
    COUNTERS_KEY,
    PENDING_KEY,
    TURN_KEY,
    GateRunner,
    StepResult,
    default_gate,
    gate_load_monitor,
)

__all__ = [
    "GateRoute",
    "QualityGateState",
    "add_quality_gate",
    "make_quality_gate_node",
    "route_after_gate",
]

GateRoute = Literal["pass", "retry", "review"]
"""Where the graph goes after the gate node.

- ``"pass"``: the answer passed (or a human approved/edited it, or it passed with a warning).
- ``"retry"``: the answer was rejected; guidance is in ``messages`` and ``qgate_guidance``.
- ``"review"``: the budget is spent; the draft is held for the review node (only with
  ``defer_review=True``, as :func:`add_quality_gate` wires it).
"""

ROUTE_KEY = "qgate_route"
GUIDANCE_KEY = "qgate_guidance"
METADATA_KEY = "qgate_metadata"
_REQUIRED_KEYS = (
    "messages",
    COUNTERS_KEY,
    TURN_KEY,
    AUDIT_KEY,
    ROUTE_KEY,
    GUIDANCE_KEY,
    PENDING_KEY,
)


class QualityGateState(TypedDict):
    """Graph state for a gated generator; extend it with your own keys.

    Attributes:
        messages: The conversation (the generator appends its ``AIMessage``).
        evidence: Evidence for the answer (Documents, strings, chunks, dicts).
        qgate_counters: Load counters of the current user turn (retries included).
        qgate_turn: Id of the user message the counters belong to.
        qgate_audit: Rejected drafts of the current turn with their guidance.
        qgate_route: The gate's last route (read by :func:`route_after_gate`).
        qgate_guidance: Model-facing guidance after a rejection, ``None`` after a pass
            (for generators that build prompts from state rather than from ``messages``).
        qgate_metadata: Quality metadata (JSON) of the last delivered answer.
        qgate_pending: An escalation held for the review node (draft, verdict, request).

    Example:
        ```python
        class MyState(QualityGateState):
            question: str
        ```
    """

    messages: Annotated[list[AnyMessage], add_messages]
    evidence: NotRequired[list[Any]]
    qgate_counters: NotRequired[LoadCountersDict]
    qgate_turn: NotRequired[str | None]
    qgate_audit: NotRequired[list[dict[str, Any]]]
    qgate_route: NotRequired[GateRoute | None]
    qgate_guidance: NotRequired[str | None]
    qgate_metadata: NotRequired[dict[str, Any] | None]
    qgate_pending: NotRequired[dict[str, Any] | None]


def _node_update(step: StepResult) -> dict[str, Any]:
    update = dict(step.update)
    update[ROUTE_KEY] = step.route
    if step.route == "retry":
        update[GUIDANCE_KEY] = step.extra.get("guidance")
        fresh = grant_retries(update.get(COUNTERS_KEY), step.decision)  # a reviewer's reject
        if fresh is not None:
            update[COUNTERS_KEY] = fresh
    elif step.route == "review":
        update[GUIDANCE_KEY] = None
    else:
        update[GUIDANCE_KEY] = None
        if step.result is not None:
            update[METADATA_KEY] = step.result.metadata.model_dump(mode="json")
    return update


def _draft(state: QualityGateState) -> AIMessage:
    messages = state.get("messages") or []
    if not messages or not isinstance(messages[-1], AIMessage):
        raise InvalidInputError(
            "state", "the quality gate node expects the generator's AIMessage as the last message"
        )
    return messages[-1]


def _runner(
    *,
    gate: QualityGate | None = None,
    monitor: Any = None,
    policy: GatePolicy | Mapping[str, Any] | None = None,
    evidence: Any = None,
    evidence_fn: EvidenceFn | None = None,
    evidence_key: str | None = "evidence",
    annotate: bool = False,
    strip_guidance: bool = True,
) -> GateRunner:
    if gate is not None and (monitor is not None or policy is not None):
        raise ValueError("pass either gate= or monitor=/policy=, not both")
    the_gate = gate if gate is not None else default_gate(monitor, policy)
    return GateRunner(
        the_gate,
        load_monitor=gate_load_monitor(the_gate),
        static_evidence=flatten_evidence(evidence),
        evidence_fn=evidence_fn,
        evidence_key=evidence_key,
        annotate=annotate,
        strip_guidance=strip_guidance,
    )


def _gate_node(
    runner: GateRunner, *, defer_review: bool
) -> RunnableLambda[QualityGateState, dict[str, Any]]:
    def quality_gate(state: QualityGateState, config: RunnableConfig) -> dict[str, Any]:
        prepared = runner.prepare(state, _draft(state))
        result = runner.check(prepared, granted_config(config, prepared.counters))
        return _node_update(runner.finish(prepared, result, defer_review=defer_review))

    async def aquality_gate(state: QualityGateState, config: RunnableConfig) -> dict[str, Any]:
        prepared = runner.prepare(state, _draft(state))
        result = await runner.acheck(prepared, granted_config(config, prepared.counters))
        return _node_update(runner.finish(prepared, result, defer_review=defer_review))

    return RunnableLambda(quality_gate, afunc=aquality_gate, name="quality_gate")


def _review_node(runner: GateRunner, name: str) -> RunnableLambda[QualityGateState, dict[str, Any]]:
    def review(state: QualityGateState) -> dict[str, Any]:
        step = runner.review(state)
        if step is None:  # nothing held: let the answer through as it is
            return {ROUTE_KEY: "pass"}
        return _node_update(step)

    return RunnableLambda(review, name=name)


def make_quality_gate_node(
    *,
    gate: QualityGate | None = None,
    monitor: Any = None,
    policy: GatePolicy | Mapping[str, Any] | None = None,
    evidence: Any = None,
    evidence_fn: EvidenceFn | None = None,
    evidence_key: str | None = "evidence",
    annotate: bool = False,
    strip_guidance: bool = True,
) -> RunnableLambda[QualityGateState, dict[str, Any]]:
    """Build the gate node (sync and async) for a :class:`QualityGateState` graph.

    This single node calls ``interrupt()`` itself when the budget is spent under
    ``escalate`` (the draft is still the last message while paused); :func:`add_quality_gate`
    instead holds the draft behind a placeholder and asks the human in a review node.

    Args:
        gate: A configured gate; built from ``monitor`` and ``policy`` when omitted.
        monitor: Hallucination monitor for the default gate.
        policy: Gate policy for the default gate.
        evidence: Static evidence checked alongside the state's evidence.
        evidence_fn: ``evidence_fn(state) -> evidence`` for evidence kept elsewhere.
        evidence_key: State key holding evidence (``None`` to ignore state evidence).
        annotate: Deliver the annotated rendering instead of the raw text.
        strip_guidance: Remove this turn's guidance messages once an answer passes.

    Returns:
        A runnable node; add it with ``builder.add_node("quality_gate", node)``.

    Raises:
        ValueError: When both ``gate`` and ``monitor``/``policy`` are given.
    """
    runner = _runner(
        gate=gate,
        monitor=monitor,
        policy=policy,
        evidence=evidence,
        evidence_fn=evidence_fn,
        evidence_key=evidence_key,
        annotate=annotate,
        strip_guidance=strip_guidance,
    )
    return _gate_node(runner, defer_review=False)


def route_after_gate(state: QualityGateState) -> GateRoute:
    """Routing function after the gate node: ``"pass"``, ``"retry"`` or ``"review"``."""
    route = state.get(ROUTE_KEY)
    if route in ("retry", "review"):
        return route
    return "pass"


def add_quality_gate(
    builder: StateGraph[Any, Any, Any, Any],
    *,
    after: str = "generate",
    retry_to: str = "generate",
    then: str = END,
    name: str = "quality_gate",
    **node_options: Any,
) -> StateGraph[Any, Any, Any, Any]:
    """Wire a gate between a generator node and the rest of the graph.

    Adds the node ``name``, an edge ``after -> name``, the conditional edge
    ``name -> {pass: then, retry: retry_to, review: name_review}`` and the review node
    ``f"{name}_review" -> {pass: then, retry: retry_to}``, where an escalated draft waits
    (behind a placeholder in ``messages``) for the human decision. Do not add another edge out
    of ``after``.

    Args:
        builder: A ``StateGraph`` whose state extends :class:`QualityGateState`.
        after: The generator node whose answer is gated.
        retry_to: Where a rejected answer goes (usually the generator, or a retrieval node).
        then: Where a passed answer goes (``END`` by default).
        name: Name of the gate node.
        **node_options: Passed to :func:`make_quality_gate_node` (``policy=``, ``gate=``...).

    Returns:
        The same builder, for chaining.

    Raises:
        ValueError: When the state schema lacks the gate's keys.

    Example:
        ```python
        builder = StateGraph(QualityGateState)
        builder.add_node("generate", generate)
        builder.add_edge(START, "generate")
        add_quality_gate(builder, after="generate", retry_to="generate", then=END)
        graph = builder.compile(checkpointer=InMemorySaver())
        ```
    """
    missing = [key for key in _REQUIRED_KEYS if key not in builder.channels]
    if missing:
        raise ValueError(
            f"the graph state lacks {', '.join(missing)}; extend QualityGateState for the schema"
        )
    runner = _runner(**node_options)
    review = f"{name}_review"
    builder.add_node(name, _gate_node(runner, defer_review=True))
    builder.add_node(review, _review_node(runner, review))
    builder.add_edge(after, name)
    builder.add_conditional_edges(
        name, route_after_gate, {"pass": then, "retry": retry_to, "review": review}
    )
    builder.add_conditional_edges(review, route_after_gate, {"pass": then, "retry": retry_to})
    return builder
