"""The LangGraph gate node, the routing function and add_quality_gate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from typing_extensions import TypedDict

from langchain_qgate.errors import InvalidInputError, QualityGateRejected
from langchain_qgate.gate import GatePolicy
from langchain_qgate.integrations.graph import (
    QualityGateState,
    add_quality_gate,
    make_quality_gate_node,
    route_after_gate,
)
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    REVENUE_DOCS,
    WARRANTY_GOOD,
    WARRANTY_Q,
    build_rag_graph,
    make_monitor,
    scripted_model,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _cfg(thread: str = "g1"):
    return {"configurable": {"thread_id": thread}}


def _graph(monitor, answers, **policy):
    model = scripted_model(answers)
    graph = build_rag_graph(
        model, checkpointer=InMemorySaver(), monitor=monitor, policy=GatePolicy(**policy)
    )
    return graph, model


# -- the node and the route, called directly -------------------------------------------------


def test_gate_node_passes_and_routes_to_then(monitor):
    node = make_quality_gate_node(monitor=monitor)
    state = {
        "messages": [HumanMessage(QUESTION, id="q"), AIMessage(GOOD, id="a")],
        "evidence": REVENUE_DOCS,
    }
    update = node.invoke(state)
    assert update["qgate_route"] == "pass"
    assert update["qgate_guidance"] is None
    assert update["qgate_metadata"]["decision"] == "pass"
    assert update["messages"][0].response_metadata["qgate"]["passed"] is True
    assert route_after_gate({**state, **update}) == "pass"


async def test_gate_node_rejects_with_guidance_in_state_async(monitor):
    node = make_quality_gate_node(monitor=monitor, policy=GatePolicy(max_retries=2))
    state = {
        "messages": [HumanMessage(QUESTION, id="q"), AIMessage(BAD, id="a")],
        "evidence": REVENUE_DOCS,
    }
    update = await node.ainvoke(state)
    assert update["qgate_route"] == "retry"
    assert "52.7" in update["qgate_guidance"]
    assert update["messages"][1].content == update["qgate_guidance"]
    assert route_after_gate({**state, **update}) == "retry"


def test_gate_node_requires_the_generators_message(monitor):
    node = make_quality_gate_node(monitor=monitor)
    with pytest.raises(InvalidInputError, match="AIMessage"):
        node.invoke({"messages": [HumanMessage(QUESTION)]})


def test_route_defaults_to_pass_before_any_gate_run():
    assert route_after_gate({"messages": []}) == "pass"


def test_add_quality_gate_requires_the_gate_state_keys():
    class Plain(TypedDict):
        messages: list

    builder = StateGraph(Plain)
    builder.add_node("generate", lambda s: {})
    with pytest.raises(ValueError, match="QualityGateState"):
        add_quality_gate(builder)


def test_add_quality_gate_wires_the_retry_edge():
    builder = StateGraph(QualityGateState)
    builder.add_node("generate", lambda s: {})
    builder.add_edge(START, "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", then=END)
    graph = builder.compile().get_graph()
    edges = {(e.source, e.target) for e in graph.edges}
    assert ("generate", "quality_gate") in edges
    assert ("quality_gate", "generate") in edges
    assert ("quality_gate", "__end__") in edges


# -- whole graph runs ------------------------------------------------------------------------


def test_graph_passes_on_the_first_try(monitor):
    graph, model = _graph(monitor, [GOOD])
    result = graph.invoke({"messages": [("user", QUESTION)]}, _cfg())
    assert result["messages"][-1].content == GOOD
    assert result["qgate_metadata"]["decision"] == "pass"
    assert len(model.calls) == 1


def test_graph_retries_with_guidance_then_passes(monitor):
    graph, model = _graph(monitor, [BAD, GOOD], max_retries=2)
    result = graph.invoke({"messages": [("user", QUESTION)]}, _cfg())
    assert [m.content for m in result["messages"]] == [QUESTION, GOOD]
    assert result["qgate_counters"]["retries"] == 1
    assert result["qgate_audit"][0]["draft"] == BAD
    assert "52.7" in model.calls[-1][-1].content


def test_graph_escalates_and_resumes_with_each_decision(monitor):
    for decision, expected in [
        ({"type": "approve"}, BAD),
        ({"type": "edit", "text": GOOD}, GOOD),
        ({"type": "reject", "message": "Quote the annual report."}, GOOD),
    ]:
        graph, _ = _graph(monitor, [BAD, BAD, GOOD], max_retries=1)
        first = graph.invoke({"messages": [("user", QUESTION)]}, _cfg())
        assert first["__interrupt__"][0].value["draft"] == BAD
        result = graph.invoke(Command(resume=decision), _cfg())
        assert result["messages"][-1].content == expected, decision
        assert "__interrupt__" not in result


def test_graph_pass_with_warning_and_raise(monitor):
    graph, _ = _graph(monitor, [BAD], max_retries=0, on_exhausted="pass_with_warning")
    result = graph.invoke({"messages": [("user", QUESTION)]}, _cfg())
    assert result["qgate_metadata"]["decision"] == "pass_with_warning"
    graph, _ = _graph(monitor, [BAD], max_retries=0, on_exhausted="raise")
    with pytest.raises(QualityGateRejected):
        graph.invoke({"messages": [("user", QUESTION)]}, _cfg())


def test_graph_threads_do_not_share_counters_or_evidence(monitor):
    model = scripted_model([BAD, GOOD])
    graph = build_rag_graph(
        model, checkpointer=InMemorySaver(), monitor=monitor, policy=GatePolicy(max_retries=2)
    )
    a = graph.invoke({"messages": [("user", QUESTION)]}, _cfg("a"))
    model.respond = scripted_model([WARRANTY_GOOD]).respond
    b = graph.invoke({"messages": [("user", WARRANTY_Q)]}, _cfg("b"))
    assert a["qgate_counters"]["retries"] == 1
    assert b["qgate_counters"]["retries"] == 0
    assert all(not d.id.startswith("annual_report") for d in b["evidence"])


async def test_async_graph_escalates_and_resumes(monitor):
    graph, _ = _graph(monitor, [BAD], max_retries=1)
    first = await graph.ainvoke({"messages": [("user", QUESTION)]}, _cfg())
    assert "__interrupt__" in first
    result = await graph.ainvoke(Command(resume={"type": "edit", "text": GOOD}), _cfg())
    assert result["messages"][-1].content == GOOD


_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command
    from langchain_qgate.gate import GatePolicy
    from tests.unit_tests._qgate_fakes import BAD, GOOD, QUESTION, build_rag_graph
    from tests.unit_tests._qgate_fakes import make_monitor, scripted_model

    db, step = sys.argv[1], sys.argv[2]
    cfg = {"configurable": {"thread_id": "escalated"}}
    with SqliteSaver.from_conn_string(db) as saver:
        graph = build_rag_graph(
            scripted_model([BAD]), checkpointer=saver, monitor=make_monitor(),
            policy=GatePolicy(max_retries=1),
        )
        if step == "start":
            out = graph.invoke({"messages": [("user", QUESTION)]}, cfg)
            print(json.dumps({"interrupted": "__interrupt__" in out,
                              "draft": out["__interrupt__"][0].value["draft"]}))
        else:
            out = graph.invoke(Command(resume={"type": "edit", "text": GOOD}), cfg)
            print(json.dumps({"final": out["messages"][-1].content,
                              "retries": out["qgate_counters"]["retries"],
                              "review": out["messages"][-1].response_metadata["qgate_review"]}))
    """
)


def test_escalated_run_resumes_in_a_new_process_with_sqlite(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(_SCRIPT)
    db = str(tmp_path / "checkpoints.sqlite")
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def run(step: str) -> dict:
        proc = subprocess.run(
            [sys.executable, str(script), db, step],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    started = run("start")
    assert started == {"interrupted": True, "draft": BAD}
    resumed = run("resume")
    assert resumed["final"] == GOOD
    assert resumed["retries"] == 1
    assert resumed["review"]["decision"] == "edit"


def test_graph_holds_the_rejected_draft_behind_a_placeholder_while_paused(monitor):
    graph, model = _graph(monitor, [BAD, BAD, GOOD], max_retries=1)
    first = graph.invoke({"messages": [("user", QUESTION)]}, _cfg("held"))
    last = first["messages"][-1]
    assert last.response_metadata["qgate_status"] == "held_for_review"
    assert all(m.content != BAD for m in first["messages"])
    assert first["__interrupt__"][0].value["draft"] == BAD
    # reject with feedback: the placeholder goes, the model answers again and passes
    feedback = "Quote the annual report's revenue figure."
    result = graph.invoke(Command(resume={"type": "reject", "message": feedback}), _cfg("held"))
    assert result["messages"][-1].content == GOOD
    assert result["qgate_metadata"]["decision"] == "pass"
    assert not any(str(m.content).startswith("[Held for review]") for m in result["messages"])
    assert any(m.content == feedback for m in model.calls[-1])


def test_add_quality_gate_wires_a_review_node():
    builder = StateGraph(QualityGateState)
    builder.add_node("generate", lambda s: {})
    builder.add_edge(START, "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", then=END)
    edges = {(e.source, e.target) for e in builder.compile().get_graph().edges}
    assert ("quality_gate", "quality_gate_review") in edges
    assert ("quality_gate_review", "generate") in edges
    assert ("quality_gate_review", "__end__") in edges
    assert route_after_gate({"qgate_route": "review"}) == "review"
