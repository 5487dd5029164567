"""A RAG agent with the quality gate, ready for a real chat model.

Run it with a scripted model (no API key needed)::

    python examples/demo_agent.py

or with any chat model LangChain can build, e.g.::

    QGATE_MODEL="openai:gpt-4o-mini" python examples/demo_agent.py

The agent searches the documents in ``examples/docs`` with a tool that returns ``Document``
artifacts; ``QualityGateMiddleware`` harvests them as evidence, checks every final answer,
sends guidance back when a claim is not backed by the documents, and pauses for a human when
the retry budget is spent.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_qgate import GatePolicy, QualityGateMiddleware
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedChatModel,
    load_docs,
    make_search_tool,
)

DOCS = Path(__file__).resolve().parent / "docs"
QUESTION = sys.argv[1] if len(sys.argv) > 1 else "How many robots did Nordlicht ship in 2024?"


def scripted(messages):
    """Search once, then answer (the first answer is wrong on purpose)."""
    if not any(isinstance(m, ToolMessage) for m in messages):
        call = {"name": "search_docs", "args": {"query": QUESTION}, "id": "search-1"}
        return AIMessage(content="", tool_calls=[call])
    if sum(m.type == "human" for m in messages) == 1:
        return AIMessage(content="Nordlicht shipped 1,500 robots in 2024.")
    return AIMessage(content="Nordlicht shipped 1,150 robots in 2024, up from 870 in 2023.")


def build_model():
    name = os.environ.get("QGATE_MODEL")
    if not name:
        return ScriptedChatModel(respond=scripted)
    from langchain.chat_models import init_chat_model

    return init_chat_model(name)


def main() -> None:
    tool = make_search_tool(KeywordRetriever(docs=load_docs(DOCS), k=3))
    agent = create_agent(
        build_model(),
        tools=[tool],
        system_prompt="Answer from the company documents only. Search before answering.",
        middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=2))],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "example"}}
    result = agent.invoke({"messages": [("user", QUESTION)]}, config)
    if "__interrupt__" in result:
        request = result["__interrupt__"][0].value
        print("Escalated to a human:\n" + request["summary"])
        result = agent.invoke(Command(resume={"type": "approve"}), config)
    final = result["messages"][-1]
    meta = final.response_metadata["qgate"]
    print(final.content)
    print(f"grounding {meta['score']:.2f}, decision {meta['decision']}")
    for draft in final.response_metadata.get("qgate_rejected_drafts", []):
        print(f"rejected draft: {draft['draft']}")


if __name__ == "__main__":
    main()
