"""judge_node in fan-out LangGraph graphs: invalid agent results are excluded and recorded."""

from __future__ import annotations

import logging
from typing import Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.integrations.judge_node import JudgeRejection, JudgeState, judge_node
from langchain_qgate.judge import AgentResult, Hypothesis, InMemorySignalMemory, JudgeLayer

SIGNALS = {"cpu-spike", "disk-95pct", "oom-kill"}

CITATIONS = {
    "infra": ["disk-95pct"],
    "app": ["oom-kill", "cpu-spike"],
    "network": ["packet-loss"],  # never recorded: must be excluded
}


def agent_result(name: str) -> AgentResult:
    return AgentResult(
        agent_name=name,
        hypotheses=[
            Hypothesis(
                title=f"{name} hypothesis",
                supporting_signals=CITATIONS[name],
                confidence=0.6,
            )
        ],
    )


class IncidentState(JudgeState, total=False):
    signals: list[str]
    report: list[str]


class AgentTask(TypedDict):
    name: str


def run_agent(task: AgentTask) -> dict[str, Any]:
    return {"results": [agent_result(task["name"])]}


def aggregate(state: IncidentState) -> dict[str, Any]:
    return {"report": [r.agent_name for r in state.get("accepted", [])]}


def build_send_graph(node: Any) -> Any:
    def fan_out(state: IncidentState) -> list[Send]:
        return [Send("agent", {"name": n}) for n in CITATIONS]

    builder = StateGraph(IncidentState)
    builder.add_node("agent", run_agent)
    builder.add_node("judge", node)
    builder.add_node("aggregate", aggregate)
    builder.add_conditional_edges(START, fan_out, ["agent"])
    builder.add_edge("agent", "judge")
    builder.add_edge("judge", "aggregate")
    builder.add_edge("aggregate", END)
    return builder


def test_send_fan_out_excludes_the_agent_citing_an_unknown_signal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    graph = build_send_graph(judge_node(InMemorySignalMemory(SIGNALS))).compile()
    with caplog.at_level(logging.WARNING, logger="langchain_qgate.integrations.judge_node"):
        out = graph.invoke({})
    assert sorted(out["report"]) == ["app", "infra"]
    assert len(out["results"]) == 3
    assert [r.agent_name for r in out["accepted"]] == [
        r.agent_name for r in out["results"] if r.agent_name != "network"
    ]
    (rejection,) = out["rejections"]
    assert rejection.agent_name == "network"
    assert rejection.check == "citations_known"
    assert rejection.reason == (
        "hypothesis 0 ('network hypothesis') cites unknown signal id 'packet-loss'; "
        "valid ids: ['cpu-spike', 'disk-95pct', 'oom-kill']"
    )
    assert any("left out agent 'network'" in r.getMessage() for r in caplog.records)


def test_parallel_edges_fan_out_with_ids_read_from_state() -> None:
    def retrieve(state: IncidentState) -> dict[str, Any]:
        return {"signals": sorted(SIGNALS)}

    def make_agent(name: str) -> Any:
        return lambda state: {"results": [agent_result(name)]}

    builder = StateGraph(IncidentState)
    builder.add_node("retrieve", retrieve)
    for name in CITATIONS:
        builder.add_node(name, make_agent(name))
        builder.add_edge("retrieve", name)
    builder.add_node("judge", judge_node(valid_ids=lambda s: set(s["signals"])))
    builder.add_node("aggregate", aggregate)
    builder.add_edge(START, "retrieve")
    builder.add_edge(list(CITATIONS), "judge")
    builder.add_edge("judge", "aggregate")
    builder.add_edge("aggregate", END)
    out = builder.compile().invoke({})
    assert sorted(out["report"]) == ["app", "infra"]
    assert [r.agent_name for r in out["rejections"]] == ["network"]


def test_judge_node_survives_a_checkpointer_round_trip() -> None:
    graph = build_send_graph(judge_node(SIGNALS)).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    graph.invoke({}, config)
    state = graph.get_state(config).values
    assert sorted(state["report"]) == ["app", "infra"]
    assert [r.agent_name for r in state["rejections"]] == ["network"]


def test_node_called_directly_returns_accepted_and_rejections_without_mutating_state() -> None:
    results = [agent_result("infra"), agent_result("network"), agent_result("app")]
    state = {"results": list(results)}
    update = judge_node(JudgeLayer(SIGNALS))(state)
    assert update["accepted"] == [results[0], results[2]]
    assert update["rejections"] == [
        JudgeRejection(
            agent_name="network",
            index=1,
            check="citations_known",
            reason=update["rejections"][0].reason,
        )
    ]
    assert state == {"results": results}


def test_node_with_custom_keys_and_dict_results() -> None:
    node = judge_node(SIGNALS, results_key="findings", accepted_key="ok", rejections_key="bad")
    findings = [
        {"agent_name": "", "hypotheses": []},
        agent_result("app").model_dump(mode="json"),
    ]
    update = node({"findings": findings})
    assert update["ok"] == [findings[1]]
    assert [(r.index, r.check, r.reason) for r in update["bad"]] == [
        (0, "agent_name", "agent name is empty")
    ]


def test_node_with_no_results_accepts_nothing() -> None:
    assert judge_node(SIGNALS)({}) == {"accepted": [], "rejections": []}


def test_node_factory_validates_its_arguments() -> None:
    with pytest.raises(InvalidInputError):
        judge_node()
    with pytest.raises(InvalidInputError):
        judge_node(SIGNALS, accepted_key="results")
    with pytest.raises(InvalidInputError):
        judge_node(SIGNALS)({"results": "not a list"})


async def test_send_fan_out_async_run_excludes_the_same_agent() -> None:
    graph = build_send_graph(judge_node(SIGNALS)).compile()
    out = await graph.ainvoke({})
    assert sorted(out["report"]) == ["app", "infra"]
    assert [r.agent_name for r in out["rejections"]] == ["network"]
