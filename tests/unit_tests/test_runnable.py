"""with_quality_gate: gate an LCEL runnable, retry with guidance, apply the exhaustion policy."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda
from tenacity import wait_fixed

from langchain_qgate.errors import QualityGateRejected
from langchain_qgate.gate import FilteredOutput, GatePolicy
from langchain_qgate.integrations.runnable import with_quality_gate
from langchain_qgate.testing import ScriptedChatModel
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    RETRIEVER,
    REVENUE_DOCS,
    WARRANTY_GOOD,
    WARRANTY_Q,
    make_monitor,
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


class Script:
    """A fake LLM step: answers from a list and records every input it got."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.inputs: list[object] = []

    def __call__(self, value: object) -> AIMessage:
        self.inputs.append(value)
        return AIMessage(self.answers[min(len(self.inputs) - 1, len(self.answers) - 1)])


def _gated(monitor, script: Script, **kwargs):
    policy = GatePolicy(**kwargs.pop("policy", {}))
    return with_quality_gate(RunnableLambda(script), monitor=monitor, policy=policy, **kwargs)


def test_passing_output_is_returned_with_metadata(monitor):
    script = Script(GOOD)
    answer = _gated(monitor, script, evidence=REVENUE_DOCS).invoke(QUESTION)
    assert answer.content == GOOD
    assert answer.response_metadata["qgate"]["decision"] == "pass"
    assert script.inputs == [QUESTION]


def test_rejected_output_is_retried_with_guidance_in_a_string_input(monitor):
    script = Script(BAD, GOOD)
    answer = _gated(monitor, script, evidence=REVENUE_DOCS).invoke(QUESTION)
    assert answer.content == GOOD
    first, second = script.inputs
    assert first == QUESTION
    assert isinstance(second, str)
    assert second.startswith(QUESTION)
    assert "52.7" in second


def test_message_inputs_get_the_draft_and_a_guidance_turn(monitor):
    script = Script(BAD, GOOD)
    gated = _gated(monitor, script, evidence=REVENUE_DOCS)
    gated.invoke([HumanMessage(QUESTION)])
    second = script.inputs[1]
    assert isinstance(second, list)
    assert [type(m).__name__ for m in second] == ["HumanMessage", "AIMessage", "HumanMessage"]
    assert second[1].content == BAD
    assert "52.7" in second[2].content


def test_dict_inputs_get_guidance_under_the_key_and_evidence_from_the_input(monitor):
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Context: {context}\n{guidance}"), ("user", "{question}")]
    ).partial(guidance="")
    seen: list[list[BaseMessage]] = []

    def model(value):
        seen.append(value.to_messages())
        return AIMessage(BAD if len(seen) == 1 else GOOD)

    chain = prompt | RunnableLambda(model)
    gated = with_quality_gate(
        chain,
        monitor=monitor,
        evidence_fn=lambda x: x["context"],
        policy=GatePolicy(max_retries=2),
    )
    answer = gated.invoke({"question": QUESTION, "context": REVENUE_DOCS[0].page_content})
    assert answer.content == GOOD
    assert "52.7" in seen[1][0].content


def test_retriever_results_inside_the_chain_are_evidence(monitor):
    chain = RETRIEVER | RunnableLambda(lambda docs: AIMessage(GOOD))
    answer = with_quality_gate(chain, monitor=monitor).invoke(QUESTION)
    assert answer.response_metadata["qgate"]["decision"] == "pass"
    warranty = RETRIEVER | RunnableLambda(lambda docs: AIMessage(WARRANTY_GOOD))
    meta = with_quality_gate(warranty, monitor=monitor).invoke(WARRANTY_Q).response_metadata
    assert all(not s["evidence_id"].startswith("annual_report") for s in meta["qgate"]["sources"])


def test_exhaustion_with_pass_with_warning_returns_the_last_draft(monitor):
    script = Script(BAD)
    policy = {"max_retries": 2, "on_exhausted": "pass_with_warning"}
    answer = _gated(monitor, script, evidence=REVENUE_DOCS, policy=policy).invoke(QUESTION)
    assert answer.content == BAD
    assert answer.response_metadata["qgate"]["decision"] == "pass_with_warning"
    assert "Low confidence" in answer.response_metadata["qgate_warning"]
    assert len(script.inputs) == 3


def test_exhaustion_with_raise_raises(monitor):
    script = Script(BAD)
    gated = _gated(
        monitor, script, evidence=REVENUE_DOCS, policy={"max_retries": 1, "on_exhausted": "raise"}
    )
    with pytest.raises(QualityGateRejected):
        gated.invoke(QUESTION)
    assert len(script.inputs) == 2


def test_escalation_without_a_handler_raises_with_the_escalation(monitor):
    gated = _gated(monitor, Script(BAD), evidence=REVENUE_DOCS, policy={"max_retries": 0})
    with pytest.raises(QualityGateRejected) as info:
        gated.invoke(QUESTION)
    assert info.value.payload.escalation.draft == BAD


@pytest.mark.parametrize(
    ("decision", "expected"),
    [("approve", BAD), ({"type": "edit", "text": GOOD}, GOOD), (None, None)],
)
def test_escalation_handler_decides(monitor, decision, expected):
    seen = []

    def review(escalation):
        seen.append(escalation.draft)
        return decision

    gated = _gated(
        monitor, Script(BAD), evidence=REVENUE_DOCS, policy={"max_retries": 0}, on_escalate=review
    )
    if expected is None:
        with pytest.raises(QualityGateRejected):
            gated.invoke(QUESTION)
    else:
        assert gated.invoke(QUESTION).content == expected
    assert seen == [BAD]


def test_config_overrides_the_budget(monitor):
    script = Script(BAD, GOOD)
    gated = _gated(monitor, script, evidence=REVENUE_DOCS, policy={"max_retries": 3})
    with pytest.raises(QualityGateRejected):
        gated.invoke(QUESTION, {"configurable": {"qgate_max_retries": 0}})
    assert len(script.inputs) == 1


def test_return_decision_gives_the_gate_result(monitor):
    gated = _gated(monitor, Script(GOOD), evidence=REVENUE_DOCS, return_decision=True)
    decision = gated.invoke(QUESTION)
    assert isinstance(decision, FilteredOutput)
    assert decision.text == GOOD


def test_wait_strategy_is_validated_and_accepted(monitor):
    with pytest.raises(ValueError, match="wait"):
        with_quality_gate(RunnableLambda(Script(GOOD)), monitor=monitor, wait=-1)
    gated = with_quality_gate(
        RunnableLambda(Script(GOOD)), monitor=monitor, evidence=REVENUE_DOCS, wait=wait_fixed(0)
    )
    assert gated.invoke(QUESTION) is not None


async def test_async_retry_then_pass_and_parallel_calls_do_not_mix(monitor):
    a, b = Script(BAD, GOOD), Script(GOOD)
    ga = _gated(monitor, a, evidence=REVENUE_DOCS)
    gb = _gated(monitor, b, evidence=REVENUE_DOCS)
    out_a, out_b = await asyncio.gather(ga.ainvoke(QUESTION), gb.ainvoke(QUESTION))
    assert out_a.content == GOOD
    assert out_a.response_metadata["qgate"]["retries_used"] == 1
    assert out_b.response_metadata["qgate"]["retries_used"] == 0
    assert len(a.inputs) == 2
    assert len(b.inputs) == 1


# -- issue 16, item 1: the guidance reaches the model whatever the prompt -------------------


def _rag_prompt() -> ChatPromptTemplate:
    """An ordinary RAG prompt: no {guidance} slot."""
    return ChatPromptTemplate.from_messages(
        [
            ("system", "Answer from the context only.\n\nContext:\n{context}"),
            ("human", "{question}"),
        ]
    )


def test_lcel_wrapper_delivers_guidance_to_a_prompt_without_a_slot(monitor):
    model = ScriptedChatModel(respond=lambda messages: BAD if len(messages) == 2 else GOOD)
    gated = with_quality_gate(
        _rag_prompt() | model,
        monitor=monitor,
        evidence_fn=lambda x: x["context"],
        policy=GatePolicy(max_retries=2),
    )
    assert gated.level == "chat_model"
    answer = gated.invoke({"question": QUESTION, "context": REVENUE_DOCS})
    assert answer.content == GOOD
    assert answer.response_metadata["qgate"]["retries_used"] == 1
    first, second = model.calls
    assert [m.type for m in first] == ["system", "human"]
    assert [m.type for m in second] == ["system", "human", "ai", "human"]
    assert second[:2] == first  # the prompt is rendered once, then extended
    assert second[2].content == BAD
    assert "did not pass the fact check" in second[3].content
    assert "52.7" in second[3].content


async def test_async_lcel_wrapper_with_a_parser_after_the_model(monitor):
    from langchain_core.output_parsers import StrOutputParser

    model = ScriptedChatModel(respond=lambda messages: BAD if len(messages) == 2 else GOOD)
    gated = with_quality_gate(
        _rag_prompt() | model.bind(stop=["\n\n"]) | StrOutputParser(),
        monitor=monitor,
        evidence_fn=lambda x: x["context"],
    )
    answer = await gated.ainvoke({"question": QUESTION, "context": REVENUE_DOCS})
    assert answer == GOOD
    assert len(model.calls) == 2
    assert "52.7" in model.calls[1][-1].content


def test_retriever_before_the_model_runs_once_and_is_evidence(monitor):
    from langchain_core.runnables import RunnablePassthrough

    model = ScriptedChatModel(respond=lambda messages: BAD if len(messages) == 2 else GOOD)
    queries: list[str] = []

    def retrieve(query: str):
        queries.append(query)
        return RETRIEVER.invoke(query)

    context = RunnableLambda(retrieve)
    chain = {"context": context, "question": RunnablePassthrough()} | _rag_prompt() | model
    answer = with_quality_gate(chain, monitor=monitor).invoke(QUESTION)
    assert answer.content == GOOD
    assert answer.response_metadata["qgate"]["sources"]  # the retrieved passages are cited
    assert len(model.calls) == 2
    assert queries == [QUESTION]  # the steps before the model ran once


def test_guidance_with_nowhere_to_go_is_refused_at_construction(monitor):
    def fake_llm(value):
        return AIMessage(BAD)

    chain = _rag_prompt() | RunnableLambda(fake_llm)  # no chat model, no slot
    with pytest.raises(ValueError, match=r"nowhere to go.*\{guidance\}"):
        with_quality_gate(chain, monitor=monitor)
    # input_fn= or a slot makes it explicit
    assert with_quality_gate(chain, monitor=monitor, input_fn=lambda o, d, g: o) is not None
    slotted = ChatPromptTemplate.from_messages(
        [("system", "{context}\n{guidance}"), ("human", "{question}")]
    ).partial(guidance="")
    assert with_quality_gate(slotted | RunnableLambda(fake_llm), monitor=monitor).level == "input"
