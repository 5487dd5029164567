"""Issue 25, item 5: LangChain's conventions.

A plain function given to ``with_quality_gate`` is coerced as LCEL does; ``policy=`` takes a
mapping (validated) or raises a clear ``QGateError``; ``on_exhausted="escalate"`` outside a
graph says that escalation needs a graph and what to do instead.
"""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate.errors import InvalidInputError, QGateError, QualityGateRejected
from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from langchain_qgate.integrations.runnable import with_quality_gate
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    REVENUE_DOCS,
    SEARCH_TOOL,
    make_monitor,
    scripted_model,
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def test_with_quality_gate_coerces_a_plain_function_as_lcel_does(monitor):
    seen: list[object] = []

    def answer(value: object) -> AIMessage:  # a plain function, no RunnableLambda
        seen.append(value)
        return AIMessage(BAD if len(seen) == 1 else GOOD)

    gated = with_quality_gate(answer, monitor=monitor, evidence=REVENUE_DOCS)
    assert isinstance(gated.bound, RunnableLambda)
    assert gated.name == "QualityGate<answer>"
    result = gated.invoke(QUESTION)
    assert result.content == GOOD
    assert result.response_metadata["qgate"]["decision"] == "pass"
    assert seen[0] == QUESTION
    assert isinstance(seen[1], str)
    assert "52.7" in seen[1]  # the retry got the guidance about the wrong figure

    lam = with_quality_gate(lambda x: AIMessage(GOOD), monitor=monitor, evidence=REVENUE_DOCS)
    assert lam.invoke(QUESTION).content == GOOD


@pytest.mark.parametrize("value", [42, "prompt | model", None])
def test_with_quality_gate_rejects_what_lcel_cannot_coerce(monitor, value):
    with pytest.raises(InvalidInputError, match="expected a Runnable, a callable or a dict"):
        with_quality_gate(value, monitor=monitor)


def test_middleware_policy_accepts_a_mapping(monitor):
    mw = QualityGateMiddleware(monitor=monitor, policy={"max_retries": 1, "on_exhausted": "raise"})
    assert mw.gate.policy == GatePolicy(max_retries=1, on_exhausted="raise")
    strict = QualityGateMiddleware(monitor=monitor, policy={"profile": "strict", "max_retries": 0})
    assert strict.gate.policy == GatePolicy.from_profile("strict", max_retries=0)
    assert QualityGate(monitor=monitor, policy={"grounding_threshold": 0.7}).gate.policy == (
        GatePolicy(grounding_threshold=0.7)
    )


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ({"max_retry": 1}, "unknown key(s) ['max_retry']; GatePolicy fields: "),
        ({"grounding_threshold": 2.0}, "GatePolicy.grounding_threshold must be in [0, 1], got 2.0"),
        ({"on_exhausted": "ask"}, "GatePolicy.on_exhausted must be one of"),
        ({"profile": "lenient"}, "unknown gate profile 'lenient'"),
        (["max_retries", 1], "expected a GatePolicy or a mapping, got list"),
    ],
)
def test_middleware_policy_mapping_errors_are_clear(monitor, policy, message):
    with pytest.raises(InvalidInputError) as info:
        QualityGateMiddleware(monitor=monitor, policy=policy)
    assert isinstance(info.value, QGateError)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith("invalid policy: ")
    assert message in str(info.value)


def test_agent_runs_with_a_policy_mapping(monitor):
    mw = QualityGateMiddleware(monitor=monitor, policy={"max_retries": 0, "on_exhausted": "raise"})
    agent = create_agent(
        scripted_model([BAD]), tools=[SEARCH_TOOL], middleware=[mw], checkpointer=InMemorySaver()
    )
    with pytest.raises(QualityGateRejected) as info:
        agent.invoke({"messages": [("user", QUESTION)]}, {"configurable": {"thread_id": "m"}})
    assert info.value.payload.metadata.decision == "raise"
    assert info.value.payload.metadata.max_retries == 0


def test_escalate_outside_a_graph_says_it_needs_a_graph(monitor):
    gated = with_quality_gate(
        lambda x: AIMessage(BAD), monitor=monitor, evidence=REVENUE_DOCS, policy={"max_retries": 0}
    )
    assert gated.gate.policy.on_exhausted == "escalate"  # the default
    with pytest.raises(QualityGateRejected) as info:
        gated.invoke(QUESTION)
    text = str(info.value)
    assert "on_exhausted='escalate' hands the answer to a human" in text
    assert "outside a LangGraph graph, where interrupt() cannot pause the run" in text
    assert "pass on_escalate=" in text
    assert "QualityGateMiddleware in create_agent, or add_quality_gate" in text
    assert "on_exhausted='pass_with_warning'" in text
    assert info.value.payload.metadata.decision == "escalate"


def test_escalate_with_a_reviewer_that_declines_does_not_blame_the_graph(monitor):
    gated = with_quality_gate(
        lambda x: AIMessage(BAD),
        monitor=monitor,
        evidence=REVENUE_DOCS,
        policy={"max_retries": 0},
        on_escalate=lambda escalation: None,  # the reviewer declines
    )
    with pytest.raises(QualityGateRejected) as info:
        gated.invoke(QUESTION)
    assert "outside a LangGraph graph" not in str(info.value)
