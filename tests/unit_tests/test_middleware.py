"""QualityGateMiddleware: hooks called directly, then whole create_agent runs."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime
from langgraph.types import Command

from langchain_qgate.errors import InvalidInputError, QualityGateRejected
from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.integrations._review import HumanDecision
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    REVENUE_DOCS,
    SEARCH_TOOL,
    WARRANTY_BAD,
    WARRANTY_GOOD,
    WARRANTY_Q,
    make_monitor,
    scripted_model,
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _mw(monitor, **policy) -> QualityGateMiddleware:
    return QualityGateMiddleware(monitor=monitor, policy=GatePolicy(**policy))


def _state(answer: str, **extra):
    tool_msg = ToolMessage(
        content="revenue passage",
        artifact=REVENUE_DOCS,
        tool_call_id="c1",
        name="search_docs",
        id="tool-1",
    )
    call = AIMessage(
        content="",
        tool_calls=[{"name": "search_docs", "args": {"query": QUESTION}, "id": "c1"}],
        id="ai-0",
    )
    messages = [HumanMessage(QUESTION, id="q-1"), call, tool_msg, AIMessage(answer, id="ai-1")]
    return {"messages": messages, **extra}


def _agent(monitor, answers, *, middleware=None, **policy):
    mw = middleware or _mw(monitor, **policy)
    model = scripted_model(answers)
    agent = create_agent(model, tools=[SEARCH_TOOL], middleware=[mw], checkpointer=InMemorySaver())
    return agent, model


def _cfg(thread: str = "t1", **configurable):
    return {"configurable": {"thread_id": thread, **configurable}}


# -- tier 1: hooks called directly -----------------------------------------------------------


def test_tool_calling_turn_is_not_gated_but_counted(monitor):
    state = _state("")
    state["messages"] = state["messages"][:2]
    update = _mw(monitor).after_model(state, Runtime())
    assert update is not None
    assert "messages" not in update
    assert "jump_to" not in update
    assert update["qgate_counters"]["model_calls"] == 1
    assert update["qgate_turn"] == "q-1"


def test_grounded_answer_passes_with_quality_metadata(monitor):
    update = _mw(monitor).after_model(_state(GOOD), Runtime())
    assert update is not None
    assert "jump_to" not in update
    final = update["messages"][0]
    assert final.id == "ai-1"
    assert final.content == GOOD
    meta = final.response_metadata["qgate"]
    assert meta["decision"] == "pass"
    assert meta["passed"] is True
    assert meta["score"] >= 0.6
    assert any(s["evidence_id"].startswith("annual_report_2024") for s in meta["sources"])


def test_contradicted_answer_is_removed_and_guidance_sent_back(monitor):
    update = _mw(monitor, max_retries=2).after_model(_state(BAD), Runtime())
    assert update is not None
    assert update["jump_to"] == "model"
    removal, guidance = update["messages"]
    assert isinstance(removal, RemoveMessage)
    assert removal.id == "ai-1"
    assert isinstance(guidance, HumanMessage)
    assert "52.7" in guidance.content
    assert update["qgate_counters"]["retries"] == 1
    (record,) = update["qgate_audit"]
    assert record["draft"] == BAD
    assert record["guidance"] == guidance.content


async def test_async_hook_gives_the_same_update(monitor):
    mw = _mw(monitor, max_retries=2)
    sync_update = mw.after_model(_state(BAD), Runtime())
    async_update = await mw.aafter_model(_state(BAD), Runtime())
    assert sync_update is not None
    assert async_update is not None
    assert async_update["jump_to"] == sync_update["jump_to"] == "model"
    assert async_update["messages"][1].content == sync_update["messages"][1].content
    assert async_update["qgate_counters"]["retries"] == 1


def test_counters_of_a_previous_question_are_reset(monitor):
    old = {"model_calls": 7, "retries": 2, "tokens_in": 0, "tokens_out": 0, "tool_errors": 0}
    state = _state(BAD, qgate_counters=old, qgate_turn="an-older-question", qgate_audit=[{}])
    update = _mw(monitor, max_retries=2).after_model(state, Runtime())
    assert update is not None
    assert update["qgate_counters"]["retries"] == 1
    assert update["qgate_counters"]["model_calls"] == 1
    assert len(update["qgate_audit"]) == 1


def test_raise_policy_raises_when_budget_is_spent(monitor):
    spent = {"retries": 1, "model_calls": 1}
    state = _state(BAD, qgate_counters=spent, qgate_turn="q-1")
    with pytest.raises(QualityGateRejected) as info:
        _mw(monitor, max_retries=1, on_exhausted="raise").after_model(state, Runtime())
    assert info.value.payload.escalation.draft == BAD


def test_pass_with_warning_delivers_the_draft_with_a_warning(monitor):
    spent = {"retries": 1, "model_calls": 1}
    state = _state(BAD, qgate_counters=spent, qgate_turn="q-1")
    update = _mw(monitor, max_retries=1, on_exhausted="pass_with_warning").after_model(
        state, Runtime()
    )
    assert update is not None
    assert "jump_to" not in update
    final = update["messages"][0]
    assert final.content == BAD
    assert final.response_metadata["qgate"]["decision"] == "pass_with_warning"
    assert "Low confidence" in final.response_metadata["qgate_warning"]


def test_static_evidence_and_evidence_fn_are_used(monitor):
    state = {"messages": [HumanMessage(QUESTION, id="q"), AIMessage(GOOD, id="a")]}
    no_evidence = _mw(monitor, max_retries=1).after_model(state, Runtime())
    assert no_evidence is not None
    assert no_evidence["jump_to"] == "model"
    static = QualityGateMiddleware(monitor=monitor, evidence=REVENUE_DOCS)
    assert "jump_to" not in (static.after_model(state, Runtime()) or {})
    seen = []

    def from_state(s):
        seen.append(len(s["messages"]))
        return [Document(page_content=REVENUE_DOCS[0].page_content)]

    by_fn = QualityGateMiddleware(monitor=monitor, evidence_fn=from_state)
    assert "jump_to" not in (by_fn.after_model(state, Runtime()) or {})
    assert seen == [2]


def test_constructor_rejects_gate_together_with_policy(monitor):
    with pytest.raises(ValueError, match="either gate"):
        QualityGateMiddleware(gate=QualityGate(monitor=monitor), policy=GatePolicy())
    with pytest.raises(ValueError, match="callable"):
        QualityGateMiddleware(monitor=monitor, evidence_fn="not callable")  # type: ignore[arg-type]


def test_middleware_declares_its_jumps_and_private_state():
    assert QualityGateMiddleware.after_model.__can_jump_to__ == ["model", "end"]
    assert QualityGateMiddleware.aafter_model.__can_jump_to__ == ["model", "end"]
    assert "qgate_counters" in QualityGateMiddleware.state_schema.__annotations__


# -- tier 2: whole create_agent runs --------------------------------------------------------


def test_agent_passes_a_grounded_answer_on_the_first_try(monitor):
    agent, model = _agent(monitor, [GOOD])
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    final = result["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate"]["decision"] == "pass"
    assert "qgate_rejected_drafts" not in final.response_metadata
    assert len(model.calls) == 2  # tool call, answer
    state = agent.get_state(_cfg()).values
    assert state["qgate_counters"]["retries"] == 0
    assert state["qgate_counters"]["model_calls"] == 2


def test_agent_rejects_then_passes_the_corrected_answer(monitor):
    agent, model = _agent(monitor, [BAD, GOOD], max_retries=2)
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    contents = [m.content for m in result["messages"]]
    assert contents[-1] == GOOD
    assert BAD not in contents
    assert not any(str(m.id).startswith("qgate-guidance-") for m in result["messages"])
    final = result["messages"][-1]
    assert final.response_metadata["qgate"]["decision"] == "pass"
    assert final.response_metadata["qgate_rejected_drafts"][0]["draft"] == BAD
    # The model saw the guidance as the last (user) turn before its second answer.
    guidance_turn = model.calls[-1][-1]
    assert isinstance(guidance_turn, HumanMessage)
    assert "52.7" in guidance_turn.content
    state = agent.get_state(_cfg()).values
    assert state["qgate_counters"]["retries"] == 1
    assert state["qgate_audit"][0]["draft"] == BAD


def test_exhausted_budget_escalates_with_the_report_and_draft(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=1)
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    (intr,) = result["__interrupt__"]
    payload = intr.value
    assert payload["kind"] == "qgate_escalation"
    assert payload["draft"] == BAD
    assert payload["retries_used"] == 1
    assert payload["report"]["score"] < 0.6
    assert "52.7" in payload["summary"]
    assert intr.response_schema["title"] == "HumanDecision"


def test_while_paused_the_last_message_is_a_placeholder_not_the_rejected_draft(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=1)
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    last = result["messages"][-1]
    assert last.content != BAD
    assert last.content.startswith("[Held for review]")
    assert last.response_metadata["qgate_status"] == "held_for_review"
    assert all(m.content != BAD for m in result["messages"])  # the draft is nowhere visible
    assert result["__interrupt__"][0].value["draft"] == BAD  # it is in the interrupt
    assert agent.get_state(_cfg()).values["messages"][-1].id == last.id
    calls = len(model.calls)
    # approving delivers the draft in the placeholder's place (no duplicate, no extra call)
    result = agent.invoke(Command(resume="approve"), _cfg())
    assert len(model.calls) == calls
    final = result["messages"][-1]
    assert (final.id, final.content) == (last.id, BAD)
    assert not any(m.content.startswith("[Held for review]") for m in result["messages"])
    assert not agent.get_state(_cfg()).values.get("qgate_pending")


async def test_async_agent_holds_the_draft_too(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=0)
    result = await agent.ainvoke({"messages": [("user", QUESTION)]}, _cfg("a2"))
    assert result["messages"][-1].response_metadata["qgate_status"] == "held_for_review"
    result = await agent.ainvoke(Command(resume={"type": "edit", "text": GOOD}), _cfg("a2"))
    assert result["messages"][-1].content == GOOD


@pytest.mark.parametrize(
    "decision", [{"type": "approve"}, "approve", HumanDecision(type="approve")]
)
def test_resume_with_approval_delivers_the_draft(monitor, decision):
    agent, _ = _agent(monitor, [BAD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    result = agent.invoke(Command(resume=decision), _cfg())
    final = result["messages"][-1]
    assert final.content == BAD
    assert final.response_metadata["qgate_review"]["decision"] == "approve"
    meta = final.response_metadata["qgate"]
    assert (meta["decision"], meta["passed"]) == ("approved", True)
    assert meta["reason"] == "approved by a human reviewer after escalation"
    assert meta["failed_dimensions"] == ["grounding"]  # the gate's own findings stay


def test_resume_with_an_edit_delivers_the_reviewers_text(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    edit = {"type": "edit", "text": GOOD, "reviewer": "ana"}
    result = agent.invoke(Command(resume=edit), _cfg())
    final = result["messages"][-1]
    assert final.content == GOOD
    review = final.response_metadata["qgate_review"]
    assert review == {"decision": "edit", "reviewer": "ana", "original_draft": BAD}
    assert final.response_metadata["qgate"]["reason"].startswith(
        "edited by a human reviewer (ana) after escalation"
    )
    assert "__interrupt__" not in result


def test_resume_with_a_rejection_sends_feedback_and_gates_the_new_answer(monitor):
    agent, model = _agent(monitor, [BAD, BAD, GOOD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    feedback = "Use the figure from the annual report only."
    result = agent.invoke(Command(resume={"type": "reject", "message": feedback}), _cfg())
    assert model.calls[-1][-1].content == feedback
    assert not any("[Held for review]" in str(m.content) for m in model.calls[-1])
    final = result["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate"]["decision"] == "pass"
    drafts = final.response_metadata["qgate_rejected_drafts"]
    assert drafts[-1]["human_decision"]["message"] == feedback


def test_invalid_resume_can_be_answered_again(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    with pytest.raises(InvalidInputError, match="needs the replacement 'text'"):
        agent.invoke(Command(resume={"type": "edit"}), _cfg())
    result = agent.invoke(Command(resume={"type": "edit", "text": GOOD}), _cfg())
    assert result["messages"][-1].content == GOOD


def test_agent_pass_with_warning_when_budget_is_spent(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=1, on_exhausted="pass_with_warning")
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    final = result["messages"][-1]
    assert final.content == BAD
    assert final.response_metadata["qgate"]["decision"] == "pass_with_warning"
    assert "__interrupt__" not in result


def test_agent_raise_policy_raises_quality_gate_rejected(monitor):
    agent, model = _agent(monitor, [BAD], max_retries=1, on_exhausted="raise")
    with pytest.raises(QualityGateRejected):
        agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    assert len(model.calls) == 3  # tool call, draft, one retry


def test_config_override_changes_the_budget_per_call(monitor):
    agent, model = _agent(monitor, [BAD, GOOD], max_retries=2)
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg(qgate_max_retries=0))
    assert result["__interrupt__"][0].value["retries_used"] == 0
    assert len(model.calls) == 2


def test_per_call_profile_keeps_the_instance_retry_budget_and_exhaustion_policy(monitor):
    # Issue 16, item 9: a per-call profile changes the thresholds, never the budget or the
    # exhaustion policy set on the instance (before: 4 model calls and an interrupt).
    agent, model = _agent(monitor, [BAD], max_retries=0, on_exhausted="raise")
    with pytest.raises(QualityGateRejected) as info:
        agent.invoke({"messages": [("user", QUESTION)]}, _cfg(qgate_profile="strict"))
    assert len(model.calls) == 2  # tool call, draft: no retry
    meta = info.value.payload.metadata
    assert (meta.profile, meta.grounding_threshold, meta.max_retries) == ("strict", 0.8, 0)
    assert meta.decision == "raise"


def test_with_profile_swaps_thresholds_only():
    policy = GatePolicy(max_retries=0, on_exhausted="raise", grounding_threshold=0.5)
    strict = policy.with_profile("strict")
    assert strict == GatePolicy.from_profile("strict", max_retries=0, on_exhausted="raise")
    assert policy.with_overrides({"qgate_profile": "strict"}) == strict
    assert policy.with_overrides({"qgate_profile": "strict", "qgate_max_retries": 2}) == (
        GatePolicy.from_profile("strict", max_retries=2, on_exhausted="raise")
    )
    with pytest.raises(ValueError, match="unknown gate profile"):
        policy.with_profile("lenient")


def test_two_threads_share_one_middleware_without_bleed(monitor):
    mw = _mw(monitor, max_retries=1)
    agent_a, _ = _agent(monitor, [BAD], middleware=mw)
    agent_b, _ = _agent(monitor, [WARRANTY_GOOD], middleware=mw)
    saver = InMemorySaver()
    agent_a = create_agent(
        scripted_model([BAD]), tools=[SEARCH_TOOL], middleware=[mw], checkpointer=saver
    )
    agent_b = create_agent(
        scripted_model([WARRANTY_GOOD]), tools=[SEARCH_TOOL], middleware=[mw], checkpointer=saver
    )
    a = agent_a.invoke({"messages": [("user", QUESTION)]}, _cfg("a"))
    b = agent_b.invoke({"messages": [("user", WARRANTY_Q)]}, _cfg("b"))
    assert "__interrupt__" in a
    assert "__interrupt__" not in b
    meta_b = b["messages"][-1].response_metadata["qgate"]
    assert meta_b["retries_used"] == 0
    assert all(not s["evidence_id"].startswith("annual_report") for s in meta_b["sources"])
    state_a = agent_a.get_state(_cfg("a")).values
    state_b = agent_b.get_state(_cfg("b")).values
    assert state_a["qgate_counters"]["retries"] == 1
    assert state_b["qgate_counters"]["retries"] == 0
    assert state_b["qgate_audit"] == []
    assert not vars(mw).get("_counters")


def test_second_question_in_a_thread_gets_a_fresh_budget(monitor):
    mw = _mw(monitor, max_retries=1)
    model = scripted_model([BAD, GOOD])
    agent = create_agent(model, tools=[SEARCH_TOOL], middleware=[mw], checkpointer=InMemorySaver())
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    model.respond = scripted_model([WARRANTY_BAD, WARRANTY_GOOD]).respond
    result = agent.invoke({"messages": [("user", WARRANTY_Q)]}, _cfg())
    assert result["messages"][-1].content == WARRANTY_GOOD
    state = agent.get_state(_cfg()).values
    assert state["qgate_counters"]["retries"] == 1
    assert [r["draft"] for r in state["qgate_audit"]] == [WARRANTY_BAD]


async def test_async_agent_rejects_then_passes(monitor):
    agent, _ = _agent(monitor, [BAD, GOOD], max_retries=2)
    result = await agent.ainvoke({"messages": [("user", QUESTION)]}, _cfg())
    assert result["messages"][-1].content == GOOD
    assert result["messages"][-1].response_metadata["qgate"]["decision"] == "pass"


async def test_async_agent_escalates_and_resumes(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=1)
    first = await agent.ainvoke({"messages": [("user", QUESTION)]}, _cfg())
    assert first["__interrupt__"][0].value["draft"] == BAD
    result = await agent.ainvoke(Command(resume={"type": "edit", "text": GOOD}), _cfg())
    assert result["messages"][-1].content == GOOD


def test_edit_is_graded_for_the_record_and_the_escalated_draft_is_audited(monitor):
    agent, _ = _agent(monitor, [BAD], max_retries=1)
    agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    result = agent.invoke(Command(resume={"type": "edit", "text": GOOD}), _cfg())
    meta = result["messages"][-1].response_metadata
    assert meta["qgate"]["decision"] == "edited"  # the reviewer's text, not the draft
    assert meta["qgate"]["passed"] is True
    assert meta["qgate"]["failed_dimensions"] == []  # the reviewer's text passes on its own
    assert next(c["text"] for c in meta["qgate"]["claims"]).startswith("In fiscal year 2024")
    drafts = meta["qgate_rejected_drafts"]
    assert [d["draft"] for d in drafts] == [BAD, BAD]
    assert drafts[-1]["escalated"] is True
    assert drafts[-1]["human_decision"]["decision"] == "edit"


def test_documents_in_checkpointed_artifacts_are_still_evidence():
    from langchain_qgate.integrations._harvest import tool_output_evidence

    restored = ToolMessage(
        content="[annual_report_2024#0] text with an id",
        artifact=[{"id": "d1", "metadata": {"source": "f.md"}, "page_content": "Revenue."}],
        tool_call_id="c1",
        name="search_docs",
    )
    (doc,) = tool_output_evidence(restored)
    assert isinstance(doc, Document)
    assert doc.page_content == "Revenue."
    assert doc.id == "d1"
    assert doc.metadata == {"source": "f.md", "tool_call_id": "c1"}


def test_error_tool_results_are_not_evidence_but_count_as_tool_errors(monitor):
    from langchain_qgate.integrations._harvest import harvest_tool_messages

    failed = ToolMessage(content="boom", tool_call_id="c1", status="error", id="t")
    assert harvest_tool_messages([failed]) == []
    state = _state(GOOD)
    state["messages"].insert(3, failed)
    update = _mw(monitor).after_model(state, Runtime())
    assert update is not None
    assert update["qgate_counters"]["tool_errors"] == 1


def test_integrations_package_exports_its_public_names():
    import langchain_qgate.integrations as integrations

    assert integrations.__all__ == sorted(integrations.__all__)
    for name in integrations.__all__:
        assert getattr(integrations, name) is not None
    with pytest.raises(AttributeError):
        _ = integrations.NotAName


def test_qgate_demo_subcommand_is_registered():
    from langchain_qgate.cli import build_parser
    from langchain_qgate.cli.demo import default_docs_dir

    args = build_parser().parse_args(["demo", "--max-retries", "2"])
    assert args.command == "demo"
    assert args.max_retries == 2
    assert callable(args.func)
    docs = default_docs_dir()
    assert docs is not None
    assert sorted(p.name for p in docs.glob("*.md"))[0] == "annual_report_2024.md"


def test_stacks_with_tool_gating_middleware(monitor):
    from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
    from langchain_qgate.integrations.tool_gating_middleware import ToolGatingMiddleware

    gating = ToolGatingMiddleware(embedder=HashingEmbedder(), retrieval_tools={"search_docs"})
    agent = create_agent(
        scripted_model([BAD, GOOD]),
        tools=[SEARCH_TOOL],
        middleware=[gating, _mw(monitor, max_retries=2)],
        checkpointer=InMemorySaver(),
    )
    result = agent.invoke({"messages": [("user", QUESTION)]}, _cfg())
    final = result["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate"]["decision"] == "pass"
    assert final.response_metadata["qgate_rejected_drafts"][0]["draft"] == BAD


async def test_concurrent_async_threads_on_one_agent_keep_their_own_state(monitor):
    import asyncio

    from langchain_qgate.testing import ScriptedChatModel
    from tests.unit_tests._qgate_fakes import rag_responder

    bad, good = rag_responder([BAD]), rag_responder([WARRANTY_GOOD])

    def respond(messages):
        return bad(messages) if str(messages[0].content) == QUESTION else good(messages)

    agent = create_agent(
        ScriptedChatModel(respond=respond),
        tools=[SEARCH_TOOL],
        middleware=[_mw(monitor, max_retries=1)],
        checkpointer=InMemorySaver(),
    )
    a, b = await asyncio.gather(
        agent.ainvoke({"messages": [("user", QUESTION)]}, _cfg("a")),
        agent.ainvoke({"messages": [("user", WARRANTY_Q)]}, _cfg("b")),
    )
    assert a["__interrupt__"][0].value["draft"] == BAD
    assert b["messages"][-1].content == WARRANTY_GOOD
    state_a = (await agent.aget_state(_cfg("a"))).values
    state_b = (await agent.aget_state(_cfg("b"))).values
    assert state_a["qgate_counters"]["retries"] == 1
    assert state_b["qgate_counters"] == {**state_b["qgate_counters"], "retries": 0}
    assert state_b["qgate_counters"]["model_calls"] == 2
