"""A RAG agent (``create_agent``) whose answers pass through ``QualityGateMiddleware``.

1. The first draft states a wrong revenue figure: the gate rejects it, the guidance goes back to
   the model, and the corrected answer passes with citations.
2. A second question keeps getting a wrong answer: the retry budget runs out, the run pauses
   with ``interrupt()`` and resumes with a human decision (``Command(resume=...)``).

Run: python examples/agent_middleware.py   (offline: scripted chat model, bundled MiniLM)
"""

from __future__ import annotations

from pathlib import Path

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_qgate import GatePolicy, QualityGateMiddleware

# Offline stand-ins for a real chat model and retriever (swap in your own).
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedChatModel,
    load_docs,
    make_search_tool,
)

SCRIPT = {  # question -> the scripted model's successive answers (the last one repeats)
    "What was Nordlicht's revenue in 2024?": [
        "Nordlicht Robotics reported revenue of €52.7 million in fiscal year 2024.",
        "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million, "
        "up 31% from €36.8 million in 2023.",
    ],
    "How long is the warranty on the Kestrel P3?": [
        "The Kestrel P3 comes with a 36-month warranty.",
    ],
}


def respond(messages: list[BaseMessage]) -> AIMessage:
    """Search first; then answer, one scripted answer further after each guidance turn."""
    at = max(i for i, m in enumerate(messages) if m.type == "human" and m.content in SCRIPT)
    question, after = str(messages[at].content), messages[at + 1 :]
    if not any(isinstance(m, ToolMessage) for m in after):
        call = {"name": "search_docs", "args": {"query": question}, "id": f"call-{at}"}
        return AIMessage("", tool_calls=[call])
    retries = sum(isinstance(m, HumanMessage) for m in after)
    answers = SCRIPT[question]
    return AIMessage(answers[min(retries, len(answers) - 1)])


def main() -> None:
    """Run both stories: rejected, guided, corrected; then escalated and edited by a human."""
    model = ScriptedChatModel(respond=respond)
    # A real model instead: model = init_chat_model("openai:gpt-4o-mini", logprobs=True)

    docs = load_docs(Path(__file__).parent / "docs")  # one Document per paragraph
    search_docs = make_search_tool(KeywordRetriever(docs=docs, k=3))

    agent = create_agent(
        model,
        tools=[search_docs],
        middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=1))],
        checkpointer=InMemorySaver(),  # the gate's counters live in (checkpointed) state
    )

    # 1. Rejected, guided, corrected.
    config = {"configurable": {"thread_id": "revenue"}}
    result = agent.invoke({"messages": [("user", "What was Nordlicht's revenue in 2024?")]}, config)
    final = result["messages"][-1]
    meta = final.response_metadata["qgate"]
    print("answer:", final.content)
    score, retries = meta["score"], meta["retries_used"]
    print(f"decision {meta['decision']}, grounding {score:.2f}, retries {retries}")
    for draft in final.response_metadata.get("qgate_rejected_drafts", []):
        print("rejected draft:", draft["draft"])
        print("guidance sent to the model:")
        print(draft["guidance"])

    # 2. Budget spent -> interrupt() -> a human edits the answer.
    config = {"configurable": {"thread_id": "warranty"}}
    result = agent.invoke(
        {"messages": [("user", "How long is the warranty on the Kestrel P3?")]}, config
    )
    request = result["__interrupt__"][0].value  # an EscalationRequest as a dict
    print("escalated:", request["summary"].splitlines()[0])
    edit = "Every Nordlicht robot, including the Kestrel P3, comes with a 24-month warranty."
    result = agent.invoke(Command(resume={"type": "edit", "text": edit}), config)
    final = result["messages"][-1]
    print("after review:", final.content)
    print("review:", final.response_metadata["qgate_review"]["decision"])


if __name__ == "__main__":
    main()
