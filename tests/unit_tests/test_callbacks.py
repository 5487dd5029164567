"""QualityGateCallbackHandler: evidence from retrievers and tools, grades per model run."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda

from langchain_qgate.gate import GatePolicy
from langchain_qgate.integrations.callbacks import QualityGateCallbackHandler
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    RETRIEVER,
    SEARCH_TOOL,
    WARRANTY_GOOD,
    WARRANTY_Q,
    make_monitor,
)

PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Answer from the context.\n{context}"), ("user", "{question}")]
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _rag_chain(answer: str):
    model = GenericFakeChatModel(messages=iter([answer]))

    def fetch(question: str) -> dict:
        docs = RETRIEVER.invoke(question)
        return {"question": question, "context": "\n".join(d.page_content for d in docs)}

    return RunnableLambda(fetch) | PROMPT | model


def test_handler_grades_a_grounded_rag_answer_and_annotates_it(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor)
    answer = _rag_chain(GOOD).invoke(QUESTION, {"callbacks": [handler]})
    check = handler.latest()
    assert check is not None
    assert check.passed
    assert check.output == GOOD
    assert check.question == QUESTION
    assert check.evidence_count == 3
    assert answer.response_metadata["qgate"]["decision"] == "pass"


def test_handler_flags_a_fabricated_answer_without_raising(monitor):
    handler = QualityGateCallbackHandler(
        monitor=monitor, policy=GatePolicy(max_retries=0, on_exhausted="raise")
    )
    answer = _rag_chain(BAD).invoke(QUESTION, {"callbacks": [handler]})
    assert answer.content == BAD  # observe only: the run is not blocked
    check = handler.latest()
    assert check is not None
    assert not check.passed
    assert check.decision is not None
    assert check.decision.metadata.score < 0.6
    assert "rejected" in (check.error or "")


def test_tool_results_are_evidence(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor)
    model = GenericFakeChatModel(messages=iter([GOOD]))
    chain = (
        RunnableLambda(lambda q: SEARCH_TOOL.invoke({"query": q}))
        | RunnableLambda(lambda ctx: [("system", ctx), ("user", QUESTION)])
        | model
    )
    chain.invoke(QUESTION, {"callbacks": [handler]})
    check = handler.latest()
    assert check is not None
    assert check.passed
    assert check.evidence_count >= 1


def test_tool_calling_generations_are_not_graded(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor)
    message = AIMessage("", tool_calls=[{"name": "search_docs", "args": {}, "id": "c"}])
    result = LLMResult(generations=[[ChatGeneration(message=message)]])
    handler.on_llm_end(result, run_id=uuid.uuid4())
    assert handler.checks == {}


def test_grading_errors_are_recorded_not_raised():
    class Broken:
        def verify_grounding(self, output, evidence, question=None):
            raise RuntimeError("index unavailable")

    handler = QualityGateCallbackHandler(monitor=Broken())
    result = LLMResult(generations=[[ChatGeneration(message=AIMessage(GOOD))]])
    run_id = uuid.uuid4()
    handler.on_llm_end(result, run_id=run_id)
    check = handler.checks[run_id]
    assert check.decision is None
    assert check.error == "RuntimeError: index unavailable"


def test_concurrent_runs_keep_their_own_evidence(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor)
    revenue = _rag_chain(GOOD)
    warranty = _rag_chain(WARRANTY_GOOD)
    revenue.batch([QUESTION], {"callbacks": [handler]})
    warranty.batch([WARRANTY_Q], {"callbacks": [handler]})
    checks = list(handler.checks.values())
    assert [c.question for c in checks] == [QUESTION, WARRANTY_Q]
    assert all(c.passed for c in checks)
    roots = {c.root_run_id for c in checks}
    assert len(roots) == 2
    warranty_meta = checks[1].decision.metadata
    assert all(not s.evidence_id.startswith("annual_report") for s in warranty_meta.sources)
    assert handler.checks_for(checks[0].root_run_id) == [checks[0]]


async def test_async_runs_in_parallel_are_graded_separately(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor)
    await asyncio.gather(
        _rag_chain(GOOD).ainvoke(QUESTION, {"callbacks": [handler]}),
        _rag_chain(BAD).ainvoke(QUESTION, {"callbacks": [handler]}),
    )
    by_output = {c.output: c for c in handler.checks.values()}
    assert by_output[GOOD].passed
    assert not by_output[BAD].passed
    assert by_output[GOOD].root_run_id != by_output[BAD].root_run_id


def test_handler_keeps_at_most_max_checks(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor, max_checks=1)
    for _ in range(2):
        handler.on_llm_end(
            LLMResult(generations=[[ChatGeneration(message=AIMessage(GOOD))]]),
            run_id=uuid.uuid4(),
        )
    assert len(handler.checks) == 1
    handler.clear()
    assert handler.latest() is None


def test_handler_validates_its_arguments(monitor):
    with pytest.raises(ValueError, match="max_checks"):
        QualityGateCallbackHandler(monitor=monitor, max_checks=0)


def test_finished_runs_leave_no_run_tree_behind(monitor):
    handler = QualityGateCallbackHandler(monitor=monitor)
    for _ in range(3):
        _rag_chain(GOOD).invoke(QUESTION, {"callbacks": [handler]})
    assert len(handler.checks) == 3
    assert handler._parents == {}
    assert handler._evidence == {}


def test_tool_outputs_become_evidence_by_shape():
    from langchain_core.documents import Document
    from langgraph.types import Command

    from langchain_qgate.integrations._harvest import tool_output_evidence

    (as_json,) = tool_output_evidence({"revenue": "€48.2 million"}, tool_name="finance")
    assert as_json.page_content == '{"revenue": "€48.2 million"}'
    assert as_json.metadata == {"source": "tool:finance"}
    docs = tool_output_evidence([Document(page_content="A.")], tool_name="search")
    assert docs[0].metadata["source"] == "tool:search"
    assert tool_output_evidence(Command(update={})) == []
    assert tool_output_evidence("  ") == []


# -- issue 16, item 7 ------------------------------------------------------------------------


def test_callback_records_the_users_question_not_the_rendered_prompt(monitor):
    from langchain_core.runnables import RunnablePassthrough

    model = GenericFakeChatModel(messages=iter([GOOD, WARRANTY_GOOD]))
    prompt = ChatPromptTemplate.from_messages(
        [("user", "Context: {context}\n\nQuestion: {question}")]
    )
    chain = {"context": RETRIEVER, "question": RunnablePassthrough()} | prompt | model
    handler = QualityGateCallbackHandler(monitor=monitor)
    chain.invoke(QUESTION, {"callbacks": [handler]})
    assert handler.latest().question == QUESTION
    handler.clear()
    get_question = RunnableLambda(lambda x: x["question"])
    dict_chain = {"context": get_question | RETRIEVER, "question": get_question} | prompt | model
    dict_chain.invoke({"question": WARRANTY_Q}, {"callbacks": [handler]})
    assert handler.latest().question == WARRANTY_Q


def test_latest_returns_a_quality_check_importable_from_the_top_level(monitor):
    from langchain_qgate import QualityCheck

    handler = QualityGateCallbackHandler(monitor=monitor)
    _rag_chain(GOOD).invoke(QUESTION, {"callbacks": [handler]})
    assert isinstance(handler.latest(), QualityCheck)
