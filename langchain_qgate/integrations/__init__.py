"""Integrations with LangChain agents, LangGraph graphs, callbacks and runnables.

- :class:`QualityGateMiddleware` for ``langchain.agents.create_agent``.
- :func:`add_quality_gate`, :func:`make_quality_gate_node`, :func:`route_after_gate` and
  :class:`QualityGateState` for hand-built LangGraph graphs.
- :class:`QualityGateCallbackHandler` to grade the outputs of any chain (observe only).
- :func:`with_quality_gate` to gate an LCEL runnable and retry it with guidance.
- Verified streaming (``stream="sentences"``): :class:`QualityGateStreamer` for graph nodes
  and the ``qgate.*`` stream events (:data:`QGateStreamEvent`).
- :func:`attempt_timeline` / :func:`plot_attempt_timeline`: a gated turn attempt by attempt.
- :class:`HumanDecision` / :class:`EscalationRequest`: the human review of an escalation.

Names are imported lazily, so importing one integration does not import the others.

The top library layer: it depends on the gate, grounding, calibration, tool gating and the
judge (and LangChain / LangGraph); only the facade and the CLI import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_qgate._lazy import load_lazily

if TYPE_CHECKING:
    from langchain_qgate.integrations._review import (
        DecisionType,
        EscalationRequest,
        HumanDecision,
    )
    from langchain_qgate.integrations.callbacks import (
        EvidenceCollector,
        QualityCheck,
        QualityGateCallbackHandler,
    )
    from langchain_qgate.integrations.graph import (
        GateRoute,
        QualityGateState,
        add_quality_gate,
        make_quality_gate_node,
        route_after_gate,
    )
    from langchain_qgate.integrations.judge_node import JudgeRejection, JudgeState, judge_node
    from langchain_qgate.integrations.middleware import (
        QualityGateAgentState,
        QualityGateMiddleware,
    )
    from langchain_qgate.integrations.runnable import QualityGateRunnable, with_quality_gate
    from langchain_qgate.integrations.streaming import (
        QGateDoneEvent,
        QGateEscalatedEvent,
        QGateRetractedEvent,
        QGateRetryEvent,
        QGateSentenceEvent,
        QGateStreamEvent,
        QGateWarningEvent,
        QualityGateStreamer,
        StreamMode,
    )
    from langchain_qgate.integrations.structured import (
        StructuredCitationMiddleware,
        gate_structured_output,
    )
    from langchain_qgate.integrations.timeline import (
        GateAttempt,
        attempt_timeline,
        plot_attempt_timeline,
    )
    from langchain_qgate.integrations.tool_gating_middleware import ToolGatingMiddleware

_WHERE = {
    "DecisionType": "_review",
    "EscalationRequest": "_review",
    "HumanDecision": "_review",
    "EvidenceCollector": "callbacks",
    "QualityCheck": "callbacks",
    "QualityGateCallbackHandler": "callbacks",
    "GateRoute": "graph",
    "QualityGateState": "graph",
    "add_quality_gate": "graph",
    "make_quality_gate_node": "graph",
    "route_after_gate": "graph",
    "QualityGateAgentState": "middleware",
    "QualityGateMiddleware": "middleware",
    "QualityGateRunnable": "runnable",
    "with_quality_gate": "runnable",
    "QGateDoneEvent": "streaming",
    "QGateEscalatedEvent": "streaming",
    "QGateRetractedEvent": "streaming",
    "QGateRetryEvent": "streaming",
    "QGateSentenceEvent": "streaming",
    "QGateStreamEvent": "streaming",
    "QGateWarningEvent": "streaming",
    "QualityGateStreamer": "streaming",
    "StreamMode": "streaming",
    "JudgeRejection": "judge_node",
    "JudgeState": "judge_node",
    "judge_node": "judge_node",
    "StructuredCitationMiddleware": "structured",
    "gate_structured_output": "structured",
    "ToolGatingMiddleware": "tool_gating_middleware",
    "GateAttempt": "timeline",
    "attempt_timeline": "timeline",
    "plot_attempt_timeline": "timeline",
}

__all__ = [
    "DecisionType",
    "EscalationRequest",
    "EvidenceCollector",
    "GateAttempt",
    "GateRoute",
    "HumanDecision",
    "JudgeRejection",
    "JudgeState",
    "QGateDoneEvent",
    "QGateEscalatedEvent",
    "QGateRetractedEvent",
    "QGateRetryEvent",
    "QGateSentenceEvent",
    "QGateStreamEvent",
    "QGateWarningEvent",
    "QualityCheck",
    "QualityGateAgentState",
    "QualityGateCallbackHandler",
    "QualityGateMiddleware",
    "QualityGateRunnable",
    "QualityGateState",
    "QualityGateStreamer",
    "StreamMode",
    "StructuredCitationMiddleware",
    "ToolGatingMiddleware",
    "add_quality_gate",
    "attempt_timeline",
    "gate_structured_output",
    "judge_node",
    "make_quality_gate_node",
    "plot_attempt_timeline",
    "route_after_gate",
    "with_quality_gate",
]


def __getattr__(name: str) -> Any:
    return load_lazily(__name__, _WHERE, globals(), name)
