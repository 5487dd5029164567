"""A reviewer's reject: the feedback goes to the model with a fresh retry budget (issue 48, 7).

Before, the budget stayed spent: after ``Command(resume={"type": "reject", ...})`` the model got
one call and the run escalated again ("Retry budget spent (2 of 2 used)"). Now a reject grants
the policy's ``max_retries`` again, or exactly ``retries`` when the decision says so; the grant
is kept in the checkpointed counters, on the agent middleware, the graph nodes and the
structured-citation middleware, sync and async.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.gate.load import CognitiveLoadMonitor, LoadBudget, LoadCounters
from langchain_qgate.integrations._review import (
    HumanDecision,
    granted_config,
    parse_decision,
    reviewed_metadata,
)
from langchain_qgate.integrations.graph import (
    QualityGateState,
    make_quality_gate_node,
    route_after_gate,
)
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    RETRIEVER,
    REVENUE_DOCS,
    SEARCH_TOOL,
    build_rag_graph,
    make_monitor,
    scripted_model,
)

REPO = Path(__file__).resolve().parents[2]
FEEDBACK = "Use the revenue figure of the annual report only."


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _cfg(thread: str = "t1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _reject(**extra: Any) -> Command:
    return Command(resume={"type": "reject", "message": FEEDBACK, **extra})


def _agent(monitor, answers, *, saver=None, max_retries: int = 2):
    mw = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(max_retries=max_retries))
    model = scripted_model(answers)
    agent = create_agent(
        model, tools=[SEARCH_TOOL], middleware=[mw], checkpointer=saver or InMemorySaver()
    )
    return agent, model


def _graph(monitor, answers, *, max_retries: int = 2):
    model = scripted_model(answers)
    graph = build_rag_graph(
        model,
        checkpointer=InMemorySaver(),
        monitor=monitor,
        policy=GatePolicy(max_retries=max_retries),
    )
    return graph, model


# -- the decision ----------------------------------------------------------------------------


def test_reject_decision_takes_an_optional_retry_count_documented_in_its_schema():
    assert parse_decision({"type": "reject", "message": "x"}).retries is None
    assert parse_decision({"type": "reject", "message": "x", "retries": 0}).retries == 0
    assert HumanDecision(type="reject", message="x", retries=4).retries == 4
    schema = HumanDecision.model_json_schema()["properties"]["retries"]
    assert {"type": "integer", "minimum": 0} in schema["anyOf"]


@pytest.mark.parametrize("retries", [-1, 1.5, True, "2"])
def test_reject_resume_rejects_negative_or_non_integer_retries(retries):
    with pytest.raises(InvalidInputError, match=r"'retries' must be an int >= 0"):
        parse_decision({"type": "reject", "message": "x", "retries": retries})


def test_retries_only_go_with_a_reject():
    with pytest.raises(InvalidInputError, match="'retries' goes with a 'reject' decision"):
        parse_decision({"type": "approve", "retries": 2})


def test_rejected_metadata_says_which_budget_the_model_gets(monitor):
    meta = QualityGate(monitor=monitor).check(BAD, REVENUE_DOCS).metadata
    default = reviewed_metadata(meta, HumanDecision(type="reject", message="x"))
    assert "feedback and a fresh retry budget (the policy's)" in default.reason
    granted = reviewed_metadata(meta, HumanDecision(type="reject", message="x", retries=5))
    assert "feedback and a fresh retry budget of 5" in granted.reason


# -- the budget in the counters ---------------------------------------------------------------


def test_fresh_retries_restart_the_count_and_keep_the_other_counters():
    spent = LoadCounters(model_calls=4, tool_errors=1, retries=2, started_at=10.0)
    fresh = spent.with_fresh_retries()
    assert (fresh.retries, fresh.granted_retries, fresh.started_at) == (0, None, None)
    assert (fresh.model_calls, fresh.tool_errors) == (4, 1)
    assert spent.with_fresh_retries(5).to_state()["granted_retries"] == 5
    with pytest.raises(InvalidInputError, match="granted_retries"):
        spent.with_fresh_retries(-1)


def test_load_monitor_counts_against_a_granted_budget():
    monitor = CognitiveLoadMonitor(LoadBudget(max_retries=2))
    granted = LoadCounters(retries=3, granted_retries=5)
    assert monitor.retries_left(granted) == 2
    assert monitor.assess(granted, now=0.0).action == "continue"
    assert monitor.assess(LoadCounters(retries=3), now=0.0).action == "abort"
    assert LoadCounters.from_state(granted.to_state()) == granted


def test_granted_budget_reaches_the_gate_as_the_per_call_override(monitor):
    config = {"configurable": {"thread_id": "t", "qgate_max_retries": 1}, "tags": ["x"]}
    assert granted_config(config, LoadCounters()) is config
    out = granted_config(config, LoadCounters(granted_retries=4))
    assert out == {"configurable": {"thread_id": "t", "qgate_max_retries": 4}, "tags": ["x"]}
    assert config["configurable"]["qgate_max_retries"] == 1  # the caller's config is not changed
    assert granted_config(None, {"granted_retries": 0}) == {
        "configurable": {"qgate_max_retries": 0}
    }
    gate = QualityGate(monitor=monitor, policy=GatePolicy(max_retries=2))
    assert gate.effective_policy(out).max_retries == 4


# -- create_agent ----------------------------------------------------------------------------


def _calls_after(model, before: int) -> int:
    return len(model.calls) - before


def test_reject_resume_grants_fresh_retry_budget(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=2)
    first = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    assert first["__interrupt__"][0].value["retries_used"] == 2
    before = len(model.calls)
    again = agent.invoke(_reject(), _cfg())
    # the policy's 2 retries again: the answer to the feedback plus 2 guided retries
    assert _calls_after(model, before) == 3
    request = again["__interrupt__"][0].value
    assert request["reason"] == "failed grounding after 2 of 2 retries"
    assert request["retries_used"] == 2
    # the feedback reached the model as a user turn, verbatim
    feedback_turn = model.calls[before][-1]
    assert isinstance(feedback_turn, HumanMessage)
    assert feedback_turn.content == FEEDBACK
    # the guidance after the feedback counts down the fresh budget
    assert "Attempts left: 2 of 2." in model.calls[before + 1][-1].content


def test_reject_resume_then_a_corrected_answer_passes_with_the_retries_of_the_new_round(monitor):
    # first round: BAD x3 (2 retries, escalated); after the feedback: BAD, then GOOD
    agent, model = _agent(monitor, [BAD, BAD, BAD, BAD, GOOD], max_retries=2)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    result = agent.invoke(_reject(), _cfg())
    assert "__interrupt__" not in result
    assert len(model.calls) == 6  # search, 3 drafts, the answer to the feedback, 1 retry
    final = result["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate"]["decision"] == "pass"
    assert final.response_metadata["qgate"]["retries_used"] == 1
    counters = agent.get_state(_cfg()).values["qgate_counters"]
    assert (counters["retries"], counters["granted_retries"]) == (1, None)
    drafts = final.response_metadata["qgate_rejected_drafts"]
    assert [d["metadata"]["decision"] for d in drafts] == ["retry", "retry", "rejected", "retry"]


def test_reject_resume_with_retries_sets_budget(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    before = len(model.calls)
    again = agent.invoke(_reject(retries=3), _cfg())
    assert _calls_after(model, before) == 4  # the answer to the feedback plus exactly 3 retries
    request = again["__interrupt__"][0].value
    assert request["reason"] == "failed grounding after 3 of 3 retries"
    assert request["metadata"]["max_retries"] == 3
    counters = agent.get_state(_cfg()).values["qgate_counters"]
    assert (counters["retries"], counters["granted_retries"]) == (3, 3)


def test_reject_resume_with_zero_retries_gives_one_answer_then_escalates(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=2)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    before = len(model.calls)
    again = agent.invoke(_reject(retries=0), _cfg())
    assert _calls_after(model, before) == 1
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 0 of 0 retries"


def test_reject_resume_rejects_negative_retries(monitor):
    agent, model = _agent(monitor, [BAD, BAD, GOOD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    before = len(model.calls)
    with pytest.raises(InvalidInputError, match=r"retries=-1: 'retries' must be an int >= 0"):
        agent.invoke(_reject(retries=-1), _cfg())
    assert len(model.calls) == before  # nothing ran, nothing was saved
    result = agent.invoke(_reject(retries=1), _cfg())  # the same interrupt, answered again
    assert result["messages"][-1].content == GOOD


def test_a_new_question_ends_the_reviewers_grant(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    agent.invoke(_reject(retries=3), _cfg())
    agent.invoke(Command(resume="approve"), _cfg())
    assert agent.get_state(_cfg()).values["qgate_counters"]["granted_retries"] == 3
    before = len(model.calls)
    again = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 1 of 1 retries"
    assert _calls_after(model, before) == 3  # search, the answer, one retry: the policy's 1


async def test_async_reject_resume_grants_fresh_retry_budget(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=2)
    await agent.ainvoke({"messages": [("user", QUESTION)]}, _cfg("a"))
    before = len(model.calls)
    again = await agent.ainvoke(_reject(), _cfg("a"))
    assert _calls_after(model, before) == 3
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 2 of 2 retries"
    before = len(model.calls)
    again = await agent.ainvoke(_reject(retries=1), _cfg("a"))
    assert _calls_after(model, before) == 2
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 1 of 1 retries"


def test_reject_grant_survives_a_checkpoint_and_a_new_agent(monitor):
    saver = InMemorySaver()
    agent, _ = _agent(monitor, [BAD], saver=saver, max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    # the reviewer's decision is applied, then the run stops before the model answers
    agent.invoke(_reject(retries=2), _cfg(), interrupt_before=["model"])
    counters = agent.get_state(_cfg()).values["qgate_counters"]
    assert (counters["retries"], counters["granted_retries"]) == (0, 2)
    # a new middleware instance (another worker) continues the run from the checkpoint
    other, model = _agent(monitor, [BAD], saver=saver, max_retries=1)
    again = other.invoke(None, _cfg())
    assert len(model.calls) == 3  # the answer to the feedback plus the 2 granted retries
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 2 of 2 retries"


def test_an_explicit_load_budget_still_caps_a_reviewers_grant(monitor):
    gate = QualityGate(
        monitor=monitor,
        policy=GatePolicy(max_retries=1),
        load_monitor=CognitiveLoadMonitor(LoadBudget(max_retries=1)),
    )
    model = scripted_model([BAD])
    agent = create_agent(
        model,
        tools=[SEARCH_TOOL],
        middleware=[QualityGateMiddleware(gate=gate)],
        checkpointer=InMemorySaver(),
    )
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg("cap"))
    before = len(model.calls)
    again = agent.invoke(_reject(retries=3), _cfg("cap"))
    assert _calls_after(model, before) == 2  # the operator's hard limit of 1 retry holds
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 1 of 1 retries"


# -- LangGraph nodes -------------------------------------------------------------------------


def test_graph_reject_resume_grants_fresh_retry_budget(monitor):
    graph, model = _graph(monitor, [BAD], max_retries=2)
    graph.invoke({"messages": [("user", QUESTION)]}, _cfg("g"))
    before = len(model.calls)
    again = graph.invoke(_reject(), _cfg("g"))
    assert _calls_after(model, before) == 3
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 2 of 2 retries"
    assert model.calls[before][-1].content == FEEDBACK  # a user turn, after the evidence


def test_graph_reject_resume_with_retries_sets_budget(monitor):
    graph, model = _graph(monitor, [BAD, BAD, BAD, GOOD], max_retries=1)
    graph.invoke({"messages": [("user", QUESTION)]}, _cfg("g"))
    # after the feedback: BAD (retry 1 of 3), then GOOD
    result = graph.invoke(_reject(retries=3), _cfg("g"))
    assert len(model.calls) == 4
    assert result["messages"][-1].content == GOOD
    assert result["qgate_metadata"]["max_retries"] == 3
    assert result["qgate_metadata"]["retries_used"] == 1
    assert (result["qgate_counters"]["retries"], result["qgate_counters"]["granted_retries"]) == (
        1,
        3,
    )


async def test_async_graph_reject_resume_with_retries_sets_budget(monitor):
    graph, model = _graph(monitor, [BAD], max_retries=1)
    await graph.ainvoke({"messages": [("user", QUESTION)]}, _cfg("ga"))
    before = len(model.calls)
    again = await graph.ainvoke(_reject(retries=2), _cfg("ga"))
    assert _calls_after(model, before) == 3
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 2 of 2 retries"


def _single_node_graph(monitor, answers, *, max_retries: int):
    """START -> generate -> quality_gate (which calls interrupt() itself) -> END / generate."""
    model = scripted_model(answers)

    class RagState(QualityGateState, total=False):
        question: str

    def generate(state):
        docs = RETRIEVER.invoke(QUESTION)
        context = ToolMessage(
            content="\n".join(d.page_content for d in docs), tool_call_id="context"
        )
        messages = list(state["messages"])
        return {"messages": [model.invoke([messages[0], context, *messages[1:]])], "evidence": docs}

    builder = StateGraph(RagState)
    builder.add_node("generate", generate)
    node = make_quality_gate_node(monitor=monitor, policy=GatePolicy(max_retries=max_retries))
    builder.add_node("quality_gate", node)
    builder.add_edge(START, "generate")
    builder.add_edge("generate", "quality_gate")
    builder.add_conditional_edges(
        "quality_gate", route_after_gate, {"pass": END, "retry": "generate"}
    )
    return builder.compile(checkpointer=InMemorySaver()), model


async def test_single_gate_node_reject_resume_grants_fresh_retry_budget(monitor):
    graph, model = _single_node_graph(monitor, [BAD], max_retries=1)
    graph.invoke({"messages": [("user", QUESTION)]}, _cfg("n"))
    before = len(model.calls)
    again = graph.invoke(_reject(), _cfg("n"))
    assert _calls_after(model, before) == 2
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 1 of 1 retries"
    before = len(model.calls)
    again = await graph.ainvoke(_reject(retries=2), _cfg("n"))
    assert _calls_after(model, before) == 3
    assert again["__interrupt__"][0].value["reason"] == "failed grounding after 2 of 2 retries"


_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command
    from langchain_qgate.gate import GatePolicy
    from tests.unit_tests._qgate_fakes import BAD, QUESTION, build_rag_graph
    from tests.unit_tests._qgate_fakes import make_monitor, scripted_model

    db, step = sys.argv[1], sys.argv[2]
    cfg = {"configurable": {"thread_id": "granted"}}
    model = scripted_model([BAD])
    with SqliteSaver.from_conn_string(db) as saver:
        graph = build_rag_graph(
            model, checkpointer=saver, monitor=make_monitor(), policy=GatePolicy(max_retries=1)
        )
        if step == "start":
            out = graph.invoke({"messages": [("user", QUESTION)]}, cfg)
        elif step == "reject":  # apply the decision, stop before the generator runs
            reject = {"type": "reject", "message": "Quote the report.", "retries": 2}
            out = graph.invoke(Command(resume=reject), cfg, interrupt_before=["generate"])
        else:
            out = graph.invoke(None, cfg)
        values = graph.get_state(cfg).values
        interrupts = out.get("__interrupt__") or []
        print(json.dumps({
            "calls": len(model.calls),
            "counters": {k: values["qgate_counters"][k] for k in ("retries", "granted_retries")},
            "reason": interrupts[0].value["reason"] if interrupts else None,
        }))
    """
)


def test_reject_grant_survives_a_restart_with_sqlite(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(_SCRIPT)
    db = str(tmp_path / "checkpoints.sqlite")
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def run(step: str) -> dict[str, Any]:
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
    assert started["reason"] == "failed grounding after 1 of 1 retries"
    rejected = run("reject")
    assert (rejected["calls"], rejected["counters"]) == (0, {"retries": 0, "granted_retries": 2})
    resumed = run("continue")  # a third process: the grant came from the checkpoint
    assert resumed["calls"] == 3
    assert resumed["reason"] == "failed grounding after 2 of 2 retries"
    assert resumed["counters"] == {"retries": 2, "granted_retries": 2}


# -- StructuredCitationMiddleware ------------------------------------------------------------


def _structured_agent(n_bad: int, *, max_retries: int):
    from tests.unit_tests import test_structured_citations as sc

    bad = [sc.answer_call(f"c{i}", "doc-1", "x") for i in range(n_bad)]
    model = sc.ScriptedChatModel(
        responses=[sc.search_call(), *bad, sc.answer_call("ok", "doc-1", "doc-2")]
    )
    policy = GatePolicy(max_retries=max_retries, on_exhausted="escalate")
    agent = sc.make_agent(model, policy=policy, checkpointer=InMemorySaver())
    return agent, model, sc.QUESTION


def test_structured_reject_resume_grants_fresh_retry_budget():
    # first round: 2 bad answers (1 retry, escalated); after the feedback: 2 bad answers again
    # (the policy's 1 retry) and the run escalates a second time
    agent, model, question = _structured_agent(4, max_retries=1)
    first = agent.invoke(question, _cfg("s"))
    assert first["__interrupt__"][0].value["reason"] == "fabricated citations after 1 of 1 retries"
    again = agent.invoke(_reject(), _cfg("s"))
    assert len(model.seen) == 5
    assert model.seen[3][-1].content == f"A reviewer rejected your answer: {FEEDBACK}"
    request = again["__interrupt__"][0].value
    assert request["reason"] == "fabricated citations after 1 of 1 retries"
    result = agent.invoke(_reject(retries=0), _cfg("s"))  # one more answer: the good one
    assert result["structured_response"].claims[1].evidence_ids == ["doc-2"]


async def test_structured_reject_resume_with_retries_sets_budget():
    agent, model, question = _structured_agent(4, max_retries=0)
    await agent.ainvoke(question, _cfg("sa"))
    # after the feedback: 3 bad answers (2 granted retries), escalated again
    again = await agent.ainvoke(_reject(retries=2), _cfg("sa"))
    assert len(model.seen) == 5
    assert again["__interrupt__"][0].value["reason"] == "fabricated citations after 2 of 2 retries"
