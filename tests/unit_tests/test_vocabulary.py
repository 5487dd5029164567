"""Issue 25, item 3: one vocabulary across objects, JSON, stream events and CLI output.

A claim's grade is ``grade`` with the lowercase ``Grade`` values everywhere (no ``label`` key,
no upper-case spelling in any output); a decision is ``decision``, and after a human review of
an escalated answer it says what the human did (``approved`` / ``edited`` / ``rejected``).
Grading runs on the hashing embedder (no model).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_qgate import GatePolicy, QualityGate, QualityGateMiddleware
from langchain_qgate.cli import main
from langchain_qgate.gate import describe_decision
from langchain_qgate.schemas import Grade
from langchain_qgate.testing import ScriptedStreamingChatModel
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    REVENUE_DOCS,
    SEARCH_TOOL,
    make_monitor,
    rag_responder,
    scripted_model,
)

GRADES = {g.value for g in Grade}
UPPER = re.compile(r"\b(GROUNDED|INFERRED|FABRICATED|OPINION)\b")


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


@pytest.fixture(autouse=True)
def hashing_cli(monkeypatch, monitor):
    import langchain_qgate.grounding.monitor as monitor_module

    monkeypatch.setattr(monitor_module, "HallucinationMonitor", lambda **_: monitor)


def _keys(value: Any) -> set[str]:
    """Every mapping key in a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _stream(agent, payload, thread: str) -> list[dict[str, Any]]:
    config = {"configurable": {"thread_id": thread}}
    return [e for _, e in agent.stream(payload, config, stream_mode=["custom"]) if e]


def test_one_vocabulary_across_object_json_stream_event_and_cli(monitor, tmp_path, capsys):
    # the Python objects
    decision = QualityGate(monitor=monitor).check(BAD, REVENUE_DOCS, question=QUESTION)
    claims = decision.metadata.claims
    assert {c.grade for c in claims} <= GRADES
    assert "fabricated" in {c.grade for c in claims}
    report = monitor.verify_grounding(BAD, REVENUE_DOCS, question=QUESTION)
    assert [v.grade.value for v in report.verdicts] == [c.grade for c in claims]

    # their JSON: the same key and values, no "label" anywhere
    dumped = json.loads(decision.model_dump_json())
    assert [c["grade"] for c in dumped["metadata"]["claims"]] == [c.grade for c in claims]
    assert "label" not in _keys(dumped)
    assert not UPPER.search(decision.model_dump_json())

    # a stream event
    model = ScriptedStreamingChatModel(respond=rag_responder([GOOD]))
    gate_mw = QualityGateMiddleware(monitor=monitor, stream="sentences")
    agent = create_agent(
        model, tools=[SEARCH_TOOL], middleware=[gate_mw], checkpointer=InMemorySaver()
    )
    events = _stream(agent, {"messages": [("user", QUESTION)]}, "vocab")
    sentences = [e for e in events if e["type"] == "qgate.sentence"]
    assert sentences
    assert {e["grade"] for e in sentences} <= GRADES
    assert "label" not in _keys(events)
    assert events[-1]["decision"] == "pass"

    # the CLI: the table and --json
    answer, evidence = tmp_path / "answer.txt", tmp_path / "evidence.md"
    answer.write_text(BAD, encoding="utf-8")
    evidence.write_text(REVENUE_DOCS[0].page_content, encoding="utf-8")
    argv = ["check", "--evidence", str(evidence), "--answer", str(answer)]
    assert main(argv) == 1
    table = capsys.readouterr().out
    assert not UPPER.search(table)
    assert re.search(r"^\[\d\] factual\s+fabricated\s+support=", table, flags=re.MULTILINE)
    assert f"Gate decision: {describe_decision('retry', model_in_loop=False)}" in table
    assert main([*argv, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [v["grade"] for v in out["report"]["verdicts"]] == [c.grade for c in claims]
    assert out["decision"]["metadata"]["decision"] == "retry"
    assert "label" not in _keys(out)


@pytest.mark.parametrize(
    ("resume", "decision", "passed", "reason"),
    [
        ("approve", "approved", True, "approved by a human reviewer after escalation"),
        (
            {"type": "edit", "text": GOOD, "reviewer": "ana"},
            "edited",
            True,
            "edited by a human reviewer (ana) after escalation",
        ),
    ],
)
def test_a_reviewed_answer_says_what_the_human_decided(monitor, resume, decision, passed, reason):
    model = ScriptedStreamingChatModel(respond=rag_responder([BAD]))
    gate_mw = QualityGateMiddleware(
        monitor=monitor, policy=GatePolicy(max_retries=0), stream="sentences"
    )
    agent = create_agent(
        model, tools=[SEARCH_TOOL], middleware=[gate_mw], checkpointer=InMemorySaver()
    )
    first = _stream(agent, {"messages": [("user", QUESTION)]}, "review")
    assert first[-1]["type"] == "qgate.escalated"
    resumed = _stream(agent, Command(resume=resume), "review")
    config = {"configurable": {"thread_id": "review"}}
    final = agent.get_state(config).values["messages"][-1]
    meta = final.response_metadata["qgate"]
    assert (meta["decision"], meta["passed"]) == (decision, passed)
    assert meta["reason"].startswith(reason)
    assert resumed[-1]["type"] == "qgate.done"
    assert resumed[-1]["decision"] == decision  # the event says the same as the metadata
    assert describe_decision(decision).startswith(decision)


def test_a_human_rejection_is_recorded_as_rejected(monitor):
    agent = create_agent(
        scripted_model([BAD, BAD, GOOD]),
        tools=[SEARCH_TOOL],
        middleware=[QualityGateMiddleware(monitor=monitor, policy={"max_retries": 1})],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "rejected"}}
    agent.invoke({"messages": [("user", QUESTION)]}, config)
    feedback = "Use the annual report's figure."
    result = agent.invoke(
        Command(resume={"type": "reject", "message": feedback, "reviewer": "ana"}), config
    )
    final = result["messages"][-1]
    assert final.response_metadata["qgate"]["decision"] == "pass"  # the new answer passed
    drafts = final.response_metadata["qgate_rejected_drafts"]
    assert [d["metadata"]["decision"] for d in drafts] == ["retry", "rejected"]
    rejected = drafts[-1]["metadata"]
    assert drafts[-1]["human_decision"]["type"] == "reject"
    assert (rejected["decision"], rejected["passed"]) == ("rejected", False)
    assert rejected["reason"].startswith("rejected by a human reviewer (ana) after escalation")


def test_label_is_a_deprecated_alias_that_keeps_working(monitor):
    claim = QualityGate(monitor=monitor).check(BAD, REVENUE_DOCS).metadata.claims[0]
    with pytest.deprecated_call(match="ClaimQuality.label is deprecated"):
        assert claim.label == claim.grade.upper()


def test_the_readme_writes_the_vocabulary_down():
    # The README and the docs pages its depth moved to (issue 46): the vocabulary table is in
    # docs/grounding.md, and no page spells a grade in upper case.
    repo = Path(__file__).resolve().parents[2]
    pages = [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]
    texts = [p.read_text(encoding="utf-8") for p in pages]
    (section,) = [
        t.split("### One vocabulary", 1)[1].split("\n## ", 1)[0]
        for t in texts
        if "### One vocabulary" in t
    ]
    for value in [*GRADES, "approved", "edited", "rejected", "pass_with_warning"]:
        assert f"`{value}`" in section
    for page, text in zip(pages, texts, strict=True):
        prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
        assert not UPPER.search(prose.replace("`OPINION`", "")), page.name
