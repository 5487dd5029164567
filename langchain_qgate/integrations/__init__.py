"""Integrations with LangChain agents, LangGraph graphs, callbacks and runnables.

- :class:`QualityGateMiddleware` for ``langchain.agents.create_agent``.
- :func:`add_quality_gate`, :func:`make_quality_gate_node`, :func:`route_after_gate` and
  :class:`QualityGateState` for hand-built LangGraph graphs.
- :class:`QualityGateCallbackHandler` to grade the outputs of any chain (observe only).
- :func:`with_quality_gate` to gate an LCEL runnable and retry it with guidance.
- :class:`HumanDecision` / :class:`EscalationRequest`: the human review of an escalation.

Names are imported lazily, so importing one integration does not import the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

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
    from langchain_qgate.integrations.middleware import (
        QualityGateAgentState,
        QualityGateMiddleware,
    )
    from langchain_qgate.integrations.runnable import QualityGateRunnable, with_quality_gate

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
}

__all__ = [
    "DecisionType",
    "EscalationRequest",
    "EvidenceCollector",
    "GateRoute",
    "HumanDecision",
    "QualityCheck",
    "QualityGateAgentState",
    "QualityGateCallbackHandler",
    "QualityGateMiddleware",
    "QualityGateRunnable",
    "QualityGateState",
    "add_quality_gate",
    "make_quality_gate_node",
    "route_after_gate",
    "with_quality_gate",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"langchain_qgate.integrations.{module}"), name)
    globals()[name] = value
    return value
