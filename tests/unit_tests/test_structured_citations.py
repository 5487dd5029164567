"""Structured outputs citing evidence ids: rejected with guidance, corrected, then accepted."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.structured_output import ProviderStrategy
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import BaseModel, PrivateAttr

from langchain_qgate.errors import CheckpointerRequiredError, QualityGateRejected
from langchain_qgate.gate import FilteredOutput, GatePolicy, RejectedOutput
from langchain_qgate.integrations.structured import (
    REJECTION_MARKER,
    StructuredCitationMiddleware,
    evidence_ids_from,
    evidence_ids_from_messages,
    gate_structured_output,
)
from langchain_qgate.judge import CitationJudge
from langchain_qgate.schemas import EvidenceChunk

# ---------------------------------------------------------------- fixtures


class CitedClaim(BaseModel):
    """One claim of the answer."""

    text: str
    evidence_ids: list[str]


class CitedAnswer(BaseModel):
    """An answer whose claims cite evidence ids."""

    answer: str
    claims: list[CitedClaim]


DOCS = [
    {"id": "doc-1", "text": "ACME was founded in 2020."},
    {"id": "doc-2", "text": "ACME has 500 employees."},
]


@tool
def search_docs(query: str) -> str:
    """Search the company knowledge base."""
    return json.dumps(DOCS)


class ScriptedChatModel(BaseChatModel):
    """Returns the scripted messages in order and records what it was sent."""

    responses: list[AIMessage]
    _index: int = PrivateAttr(default=0)
    _seen: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def seen(self) -> list[list[BaseMessage]]:
        return self._seen

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._seen.append(list(messages))
        message = self.responses[self._index]
        self._index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])


def search_call() -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[{"name": "search_docs", "args": {"query": "ACME"}, "id": "call-search"}],
    )


def answer_args(*ids: str) -> dict[str, Any]:
    return {
        "answer": "ACME was founded in 2020 and has 500 employees.",
        "claims": [
            {"text": "ACME was founded in 2020.", "evidence_ids": [ids[0]]},
            {"text": "ACME has 500 employees.", "evidence_ids": list(ids[1:])},
        ],
    }


def answer_call(call_id: str, *ids: str) -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": "CitedAnswer", "args": answer_args(*ids), "id": call_id}]
    )


def make_agent(model: BaseChatModel, **kwargs: Any) -> Any:
    policy = kwargs.pop("policy", GatePolicy(max_retries=2))
    return create_agent(
        model,
        tools=[search_docs],
        response_format=kwargs.pop("response_format", CitedAnswer),
        middleware=[StructuredCitationMiddleware("claims[].evidence_ids", policy=policy)],
        **kwargs,
    )


QUESTION = {"messages": [HumanMessage("When was ACME founded and how big is it?")]}

EXPECTED_GUIDANCE = (
    "Your previous answer did not pass the fact check against the evidence.\n"
    "Problems:\n"
    "- claims[1].evidence_ids cites 'doc-7', which is not the id of any evidence you "
    "retrieved.\n"
    "Revise it:\n"
    "- Cite only ids of evidence you retrieved: ['doc-1', 'doc-2'].\n"
    "- If a claim needs a source you do not have, retrieve it first or drop the claim.\n"
    "Attempts left: 2 of 2."
)


# ---------------------------------------------------------------- create_agent, end to end


def test_create_agent_structured_answer_citing_unretrieved_id_is_rejected_then_corrected() -> None:
    model = ScriptedChatModel(
        responses=[
            search_call(),
            answer_call("call-a1", "doc-1", "doc-7"),  # doc-7 was never retrieved
            answer_call("call-a2", "doc-1", "doc-2"),
        ]
    )
    result = make_agent(model).invoke(QUESTION)

    assert result["structured_response"] == CitedAnswer.model_validate(
        answer_args("doc-1", "doc-2")
    )
    assert len(model.seen) == 3
    # the model's third call saw the guidance as the result of its structured-output call
    guidance = model.seen[2][-1]
    assert isinstance(guidance, ToolMessage)
    assert guidance.tool_call_id == "call-a1"
    assert guidance.status == "error"
    assert guidance.content == EXPECTED_GUIDANCE
    # the accepted answer carries the gate's metadata
    final_ai = next(m for m in reversed(result["messages"]) if isinstance(m, AIMessage))
    meta = final_ai.response_metadata["qgate"]
    assert meta["decision"] == "pass"
    assert meta["retries_used"] == 1
    assert meta["score"] == 1.0
    assert [s["evidence_id"] for s in meta["sources"]] == ["doc-1", "doc-2"]
    assert meta["sources"][0]["quote"] == "ACME was founded in 2020."
    # the rejected attempt stays in the history, marked
    rejected = [m for m in result["messages"] if m.response_metadata.get(REJECTION_MARKER)]
    assert [m.tool_call_id for m in rejected] == ["call-a1"]


async def test_create_agent_async_run_is_rejected_then_corrected() -> None:
    model = ScriptedChatModel(
        responses=[
            search_call(),
            answer_call("call-a1", "doc-9", "doc-2"),
            answer_call("call-a2", "doc-1", "doc-2"),
        ]
    )
    result = await make_agent(model).ainvoke(QUESTION)
    assert result["structured_response"].claims[0].evidence_ids == ["doc-1"]
    assert "cites 'doc-9'" in str(model.seen[2][-1].content)


def test_create_agent_valid_first_answer_passes_without_retry() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c", "doc-2", "doc-1")])
    result = make_agent(model).invoke(QUESTION)
    assert result["structured_response"].claims[1].evidence_ids == ["doc-1"]
    assert len(model.seen) == 2


def test_create_agent_answer_without_any_retrieval_is_rejected() -> None:
    model = ScriptedChatModel(
        responses=[
            answer_call("c1", "doc-1", "doc-2"),
            search_call(),
            answer_call("c2", "doc-1", "doc-2"),
        ]
    )
    result = make_agent(model).invoke(QUESTION)
    assert "You have not retrieved any evidence yet: retrieve it before citing it." in str(
        model.seen[1][-1].content
    )
    assert result["structured_response"].claims[0].evidence_ids == ["doc-1"]


def test_create_agent_provider_strategy_gets_guidance_as_a_user_turn() -> None:
    model = ScriptedChatModel(
        responses=[
            search_call(),
            AIMessage(content=json.dumps(answer_args("doc-1", "doc-3"))),
            AIMessage(content=json.dumps(answer_args("doc-1", "doc-2"))),
        ]
    )
    agent = make_agent(model, response_format=ProviderStrategy(CitedAnswer))
    result = agent.invoke(QUESTION)
    assert result["structured_response"].claims[1].evidence_ids == ["doc-2"]
    guidance = model.seen[2][-1]
    assert isinstance(guidance, HumanMessage)
    assert "claims[1].evidence_ids cites 'doc-3'" in str(guidance.content)


def test_budget_spent_with_raise_policy_raises_quality_gate_rejected() -> None:
    model = ScriptedChatModel(
        responses=[search_call(), answer_call("c1", "doc-1", "x"), answer_call("c2", "doc-1", "y")]
    )
    agent = make_agent(model, policy=GatePolicy(max_retries=1, on_exhausted="raise"))
    with pytest.raises(QualityGateRejected) as info:
        agent.invoke(QUESTION)
    assert isinstance(info.value.payload, RejectedOutput)
    assert info.value.payload.metadata.decision == "raise"
    assert "claims[1].evidence_ids cites 'y'" in str(info.value)


def test_budget_spent_with_pass_with_warning_keeps_the_answer_with_a_warning() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c1", "doc-1", "x")])
    agent = make_agent(model, policy=GatePolicy(max_retries=0, on_exhausted="pass_with_warning"))
    result = agent.invoke(QUESTION)
    assert result["structured_response"].claims[1].evidence_ids == ["x"]
    final_ai = next(m for m in reversed(result["messages"]) if isinstance(m, AIMessage))
    meta = final_ai.response_metadata["qgate"]
    assert meta["decision"] == "pass_with_warning"
    assert meta["warning"].startswith("Low confidence: this answer cites evidence")


def escalating_agent(model: BaseChatModel) -> Any:
    return make_agent(
        model,
        policy=GatePolicy(max_retries=0, on_exhausted="escalate"),
        checkpointer=InMemorySaver(),
    )


def test_budget_spent_escalates_and_a_reviewer_can_approve() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c1", "doc-1", "x")])
    agent = escalating_agent(model)
    config = {"configurable": {"thread_id": "esc-approve"}}
    paused = agent.invoke(QUESTION, config)
    (request,) = paused["__interrupt__"]
    assert request.value["kind"] == "qgate_escalation"
    assert request.value["reason"] == "fabricated citations after 0 of 0 retries"
    result = agent.invoke(Command(resume="approve"), config)
    assert result["structured_response"].claims[1].evidence_ids == ["x"]


def test_escalation_without_checkpointer_fails_at_the_first_escalation() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c1", "doc-1", "x")])
    agent = make_agent(model, policy=GatePolicy(max_retries=0, on_exhausted="escalate"))
    with pytest.raises(CheckpointerRequiredError, match="StructuredCitationMiddleware"):
        agent.invoke(QUESTION, {"configurable": {"thread_id": "no-saver"}})


def test_escalation_edit_replaces_the_answer() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c1", "doc-1", "x")])
    agent = escalating_agent(model)
    config = {"configurable": {"thread_id": "esc-edit"}}
    agent.invoke(QUESTION, config)
    edited = json.dumps(answer_args("doc-1", "doc-2"))
    result = agent.invoke(Command(resume={"type": "edit", "text": edited}), config)
    assert result["structured_response"].claims[1].evidence_ids == ["doc-2"]


def test_escalation_edit_with_an_invalid_answer_is_refused_clearly() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c1", "doc-1", "x")])
    agent = escalating_agent(model)
    config = {"configurable": {"thread_id": "esc-bad-edit"}}
    agent.invoke(QUESTION, config)
    with pytest.raises(ValueError, match="the edited answer is not a valid CitedAnswer"):
        agent.invoke(Command(resume={"type": "edit", "text": "{not json"}), config)


def test_escalation_reject_sends_feedback_to_the_model() -> None:
    model = ScriptedChatModel(
        responses=[
            search_call(),
            answer_call("c1", "doc-1", "x"),
            answer_call("c2", "doc-1", "doc-2"),
        ]
    )
    agent = escalating_agent(model)
    config = {"configurable": {"thread_id": "esc-reject"}}
    agent.invoke(QUESTION, config)
    result = agent.invoke(
        Command(resume={"type": "reject", "message": "cite doc-2 for headcount"}), config
    )
    assert result["structured_response"].claims[1].evidence_ids == ["doc-2"]
    assert model.seen[2][-1].content == "A reviewer rejected your answer: cite doc-2 for headcount"


def test_per_call_config_overrides_the_retry_budget() -> None:
    model = ScriptedChatModel(responses=[search_call(), answer_call("c1", "doc-1", "x")])
    agent = make_agent(model, policy=GatePolicy(max_retries=3, on_exhausted="raise"))
    with pytest.raises(QualityGateRejected):
        agent.invoke(QUESTION, {"configurable": {"qgate_max_retries": 0}})


# ---------------------------------------------------------------- the hook called directly


def test_after_model_hook_called_directly_rejects_and_jumps_to_model() -> None:
    ai = answer_call("c1", "doc-1", "zzz")
    tool_result = ToolMessage("Returning structured response", tool_call_id="c1", id="tm-1")
    state: dict[str, Any] = {
        "messages": [
            HumanMessage("q", id="h1"),
            search_call(),
            ToolMessage(json.dumps(DOCS), tool_call_id="call-search", id="tm-0"),
            ai,
            tool_result,
        ],
        "structured_response": CitedAnswer.model_validate(answer_args("doc-1", "zzz")),
    }
    mw = StructuredCitationMiddleware("claims[].evidence_ids")
    update = mw.after_model(state, Runtime())
    assert update is not None
    assert update["jump_to"] == "model"
    assert update["structured_response"] is None
    (replacement,) = update["messages"]
    assert replacement.id == "tm-1"
    assert "cites 'zzz'" in replacement.content
    assert mw.after_model({"messages": state["messages"]}, Runtime()) is None


async def test_async_hook_matches_sync_hook() -> None:
    state: dict[str, Any] = {
        "messages": [HumanMessage("q"), AIMessage(content="{}")],
        "structured_response": CitedAnswer.model_validate(answer_args("a", "b")),
    }
    mw = StructuredCitationMiddleware("claims[].evidence_ids", static_ids=["a", "b"])
    sync_update = mw.after_model(state, Runtime())
    async_update = await mw.aafter_model(state, Runtime())
    assert sync_update is not None
    assert async_update is not None
    assert sync_update["messages"][0].response_metadata["qgate"]["decision"] == "pass"
    assert (
        async_update["messages"][0].response_metadata
        == sync_update["messages"][0].response_metadata
    )


def test_evidence_ids_from_state_function_are_valid() -> None:
    state: dict[str, Any] = {
        "messages": [HumanMessage("q"), AIMessage(content="{}")],
        "structured_response": CitedAnswer.model_validate(answer_args("k1", "k2")),
        "kb": ["k1", "k2"],
    }
    mw = StructuredCitationMiddleware(
        CitationJudge("claims[].evidence_ids"), evidence_ids=lambda s: s["kb"]
    )
    update = mw.after_model(state, Runtime())
    assert update is not None
    assert "jump_to" not in update


# ---------------------------------------------------------------- gate step without an agent


def test_gate_structured_output_passes_known_citations() -> None:
    answer = CitedAnswer.model_validate(answer_args("doc-1", "doc-2"))
    decision = gate_structured_output(
        answer, {"doc-1", "doc-2"}, judge="claims[].evidence_ids", quotes={"doc-1": "Q1"}
    )
    assert isinstance(decision, FilteredOutput)
    assert decision.text == answer.model_dump_json()
    assert decision.metadata.passed
    assert [c.grade for c in decision.metadata.claims] == ["grounded", "grounded"]
    assert [(s.marker, s.evidence_id, s.quote) for s in decision.metadata.sources] == [
        (1, "doc-1", "Q1"),
        (2, "doc-2", ""),
    ]


def test_gate_structured_output_rejects_with_guidance_like_a_fabricated_claim() -> None:
    answer = CitedAnswer.model_validate(answer_args("doc-1", "doc-7"))
    decision = gate_structured_output(
        answer,
        {"doc-1", "doc-2"},
        judge="claims[].evidence_ids",
        policy=GatePolicy(max_retries=2),
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.escalation is None
    assert decision.metadata.decision == "retry"
    assert decision.metadata.failed_dimensions == ["grounding"]
    assert decision.metadata.score == 0.5
    assert [c.grade for c in decision.metadata.claims] == ["grounded", "fabricated"]
    assert decision.guidance.to_model_message() == EXPECTED_GUIDANCE
    assert decision.guidance.retries_left == 2
    assert [f.kind for f in decision.guidance.flagged_claims] == ["unsupported"]
    assert decision.guidance.summary(brief=True) == (
        "Failed: grounding. 1 unsupported claim. 0 of 2 retries used; 2 left."
    )
    assert RejectedOutput.model_validate_json(decision.model_dump_json()) == decision


def test_gate_structured_output_missing_citations_and_escalation() -> None:
    answer = CitedAnswer(answer="x", claims=[CitedClaim(text="t", evidence_ids=[])])
    decision = gate_structured_output(
        answer, {"d"}, judge="claims[].evidence_ids", retries_used=3, policy=GatePolicy()
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.escalation is not None
    assert decision.metadata.decision == "escalate"
    assert decision.guidance.should_escalate
    assert decision.guidance.issues == ["claims[0].evidence_ids cites no evidence."]
    assert decision.guidance.actions == ["Give every claim at least one evidence id."]


def test_gate_structured_output_accepts_mappings_and_validates_retries() -> None:
    decision = gate_structured_output({"sources": ["a"]}, ["a"], judge=CitationJudge("sources"))
    assert isinstance(decision, FilteredOutput)
    with pytest.raises(ValueError):
        gate_structured_output({"sources": ["a"]}, ["a"], judge="sources", retries_used=-1)


# ---------------------------------------------------------------- evidence ids


def test_evidence_ids_are_read_from_artifacts_json_and_patterns() -> None:
    messages = [
        ToolMessage(
            "two docs",
            tool_call_id="1",
            artifact=[
                Document(page_content="alpha", id="doc-a"),
                Document(page_content="beta", metadata={"evidence_id": "doc-b"}),
            ],
        ),
        ToolMessage(
            content="ignored",
            tool_call_id="2",
            artifact=EvidenceChunk(id="src#0", text="gamma", source_id="src"),
        ),
        ToolMessage(json.dumps({"results": [{"doc_id": 7, "snippet": "delta"}]}), tool_call_id="3"),
        ToolMessage("See [kb-12] and [kb-13].", tool_call_id="4"),
        ToolMessage(json.dumps([{"id": "err"}]), tool_call_id="5", status="error"),
        ToolMessage(
            json.dumps([{"id": "marked"}]),
            tool_call_id="6",
            response_metadata={REJECTION_MARKER: True},
        ),
        AIMessage(content=json.dumps([{"id": "from-ai"}])),
    ]
    ids = evidence_ids_from_messages(messages, id_pattern=r"\[(kb-\d+)\]")
    assert ids == {
        "doc-a": "alpha",
        "doc-b": "beta",
        "src#0": "gamma",
        "src": "gamma",
        "7": "delta",
        "kb-12": "",
        "kb-13": "",
    }


def test_middleware_validates_arguments() -> None:
    with pytest.raises(ValueError):
        StructuredCitationMiddleware("claims[].evidence_ids", static_ids="abc")
    with pytest.raises(ValueError):
        StructuredCitationMiddleware("claims[.evidence_ids")


def test_evidence_ids_from_documents_chunks_and_dicts_feed_the_gate_step() -> None:
    evidence = [
        Document(page_content="ACME was founded in 2020.", metadata={"id": "doc-1"}),
        EvidenceChunk(id="kb#3", text="ACME has 500 employees.", source_id="kb"),
        {"doc_id": "doc-2", "text": "x"},
        ToolMessage(json.dumps([{"id": "t-1"}]), tool_call_id="9"),
    ]
    ids = evidence_ids_from(evidence)
    assert list(ids) == ["doc-1", "kb#3", "kb", "doc-2", "t-1"]
    answer = CitedAnswer.model_validate(answer_args("doc-1", "kb#3"))
    decision = gate_structured_output(answer, ids.keys(), judge="claims[].evidence_ids", quotes=ids)
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.sources[1].quote == "ACME has 500 employees."
