"""End to end with the real bundled embedding model: create_agent, the graph helper, the demo."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_qgate.cli.demo import DEMO_SCRIPT, HUMAN_EDIT, default_docs_dir, run_demo
from langchain_qgate.gate import GatePolicy
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    SEARCH_TOOL,
    build_rag_graph,
    scripted_model,
)

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def monitor(real_embedder):
    from langchain_qgate.grounding import HallucinationMonitor

    return HallucinationMonitor(embedder=real_embedder)


def _cfg(thread: str = "e2e"):
    return {"configurable": {"thread_id": thread}}


def test_real_model_rejects_the_wrong_figure_and_passes_the_correction(monitor):
    mw = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(max_retries=2))
    agent = create_agent(
        scripted_model([BAD, GOOD]),
        tools=[SEARCH_TOOL],
        middleware=[mw],
        checkpointer=InMemorySaver(),
    )
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    final = result["messages"][-1]
    assert final.content == GOOD
    meta = final.response_metadata["qgate"]
    assert meta["decision"] == "pass"
    assert all(c["grade"] == "grounded" for c in meta["claims"])
    rejected = final.response_metadata["qgate_rejected_drafts"][0]
    assert rejected["draft"] == BAD
    assert "€48.2 million, not €52.7 million" in rejected["guidance"]


def test_real_model_escalates_and_resumes_in_the_graph_helper(monitor):
    graph = build_rag_graph(
        scripted_model([BAD]),
        checkpointer=InMemorySaver(),
        monitor=monitor,
        policy=GatePolicy(max_retries=1),
    )
    first = graph.invoke({"messages": [("user", QUESTION)]}, _cfg("g"))
    payload = first["__interrupt__"][0].value
    assert payload["draft"] == BAD
    assert payload["metadata"]["contradictions"] >= 1
    result = graph.invoke(Command(resume={"type": "edit", "text": GOOD}), _cfg("g"))
    assert result["messages"][-1].content == GOOD
    assert result["qgate_metadata"]["decision"] == "edited"  # the reviewer's edit (issue 25)
    assert result["qgate_metadata"]["passed"] is True


def test_demo_shows_rejection_guidance_correction_and_escalation(capsys):
    docs = default_docs_dir()
    assert docs is not None
    assert run_demo(docs) == 0
    out = capsys.readouterr().out
    _first, second = DEMO_SCRIPT.values()
    assert "contradicted: the evidence says €48.2 million" in out
    assert "retry (rejected; the model answers again with guidance)" in out
    assert "guidance sent back to the model" in out
    assert "[gate]   pass   grounding" in out
    assert "Sources:" in out
    assert "escalate (rejected; retry budget spent, a human decides)" in out
    assert "interrupt()" in out
    assert "decision applied: edited by support-lead" in out
    assert out.count("Audit:") == 2
    assert HUMAN_EDIT.split(";")[0] in out.replace("\n    ", " ")
    assert second[0].split(".")[0] in out
