"""langchain_qgate.testing: the public fakes work for a user's own gated agent (issue 16, 4)."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import GatePolicy, QualityGateMiddleware
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedChatModel,
    load_docs,
    make_search_tool,
)
from tests.unit_tests._qgate_fakes import BAD, DOCS_DIR, GOOD, QUESTION, make_monitor


def test_testing_fakes_drive_a_gated_tool_calling_agent():
    call = {"name": "search_docs", "args": {"query": QUESTION}, "id": "c1"}
    model = ScriptedChatModel.from_replies(AIMessage("", tool_calls=[call]), BAD, GOOD)
    agent = create_agent(
        model,
        tools=[make_search_tool(KeywordRetriever(docs=load_docs(DOCS_DIR)))],
        middleware=[QualityGateMiddleware(monitor=make_monitor(), policy=GatePolicy())],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t"}}
    result = agent.invoke({"messages": [("user", QUESTION)]}, config)
    assert result["messages"][-1].content == GOOD
    assert len(model.calls) == 3  # tool call, rejected draft, corrected answer
    assert "52.7" in model.calls[2][-1].content  # the guidance reached the model


def test_testing_module_documents_and_validates():
    import langchain_qgate.testing as testing

    assert "GenericFakeChatModel" in (testing.__doc__ or "")
    assert model_replies_repeat_the_last()
    with pytest.raises(ValueError, match="at least one"):
        ScriptedChatModel.from_replies()
    assert load_docs(DOCS_DIR)[0].id.endswith("/p0")


def model_replies_repeat_the_last() -> bool:
    model = ScriptedChatModel.from_replies("a", "b")
    return [model.invoke("x").content for _ in range(3)] == ["a", "b", "b"]
