"""A streamed agent answer, gated sentence by sentence (``stream="sentences"``).

The scripted model streams its answer token by token. Each sentence is graded against the
retrieved evidence as soon as it is complete; sentences that pass reach the app through
LangGraph's custom stream. The draft's second sentence contradicts the evidence (45% growth;
the annual report says 31%): with ``stop_early=True`` the model stream is closed at once, the
sentence already shown is retracted, and the corrected answer streams after it. The
contradicted sentence never reaches the user. (By default, ``stop_early=False``, the draft runs
to its end with the failing sentence held back, and the gate decides on the whole answer
exactly as without streaming.)

Run: python examples/streaming_agent.py   (offline: scripted streaming model, bundled MiniLM)
"""

from __future__ import annotations

from pathlib import Path

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import GatePolicy, QualityGateMiddleware

# Offline stand-ins for a real chat model and retriever (swap in your own).
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedStreamingChatModel,
    load_docs,
    make_search_tool,
    tokenize,
)

QUESTION = "How did Nordlicht's revenue develop in 2024?"
DRAFTS = [  # the first draft, then the answer after the gate's guidance
    "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million. "
    "Revenue grew 45% from €36.8 million in fiscal year 2023. "
    "The growth came from strong demand for inspection robots across European plants, "
    "and the company expects the same pace for several years to come.",
    "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million. "
    "Revenue grew 31% from €36.8 million in fiscal year 2023.",
]


def respond(messages: list[BaseMessage]) -> AIMessage:
    """Search first; then answer, one draft further after each guidance turn."""
    at = max(i for i, m in enumerate(messages) if m.type == "human" and m.content == QUESTION)
    after = messages[at + 1 :]
    if not any(isinstance(m, ToolMessage) for m in after):
        call = {"name": "search_docs", "args": {"query": "Nordlicht revenue 2024"}, "id": "c1"}
        return AIMessage("", tool_calls=[call])
    retries = sum(isinstance(m, HumanMessage) for m in after)
    return AIMessage(DRAFTS[min(retries, len(DRAFTS) - 1)])


def main() -> None:
    """Stream one question through the gated agent and print what the user sees."""
    model = ScriptedStreamingChatModel(respond=respond, token_delay=0.01)
    # A real model instead: model = init_chat_model("openai:gpt-4o-mini")  (it streams natively)

    docs = load_docs(Path(__file__).parent / "docs")
    agent = create_agent(
        model,
        tools=[make_search_tool(KeywordRetriever(docs=docs, k=3))],
        middleware=[
            QualityGateMiddleware(
                policy=GatePolicy(max_retries=1), stream="sentences", stop_early=True
            ),
        ],
        checkpointer=InMemorySaver(),
    )

    config = {"configurable": {"thread_id": "stream-1"}}
    shown: dict[str, str] = {}  # what the user sees: sentence id -> text
    for event in agent.stream(
        {"messages": [("user", QUESTION)]}, config, stream_mode="custom"
    ):  # render only the gated stream, never the raw token stream
        kind = event["type"]
        if kind == "qgate.sentence":
            shown[event["id"]] = event["text"]
            print(f"[attempt {event['attempt']}] shown ({event['grade']}): {event['text']}")
        elif kind == "qgate.retracted":
            for sid in event["ids"]:
                print(f"[attempt {event['attempt']}] retracted: {shown.pop(sid)}")
        elif kind == "qgate.retry":
            print(f"[attempt {event['attempt']}] stopped early: {event['stopped_early']}")
            print("  why:", event["summary"].splitlines()[-1].strip("- "))
        elif kind == "qgate.done":
            print(f"done: {event['decision']} (grounding {event['score']:.2f})")

    print("the user saw:", " ".join(shown.values()))
    contradicted = DRAFTS[0].split(". ")[1]
    print("contradicted sentence ever shown:", any(contradicted in t for t in shown.values()))
    total = len(tokenize(DRAFTS[0]))
    print(f"first draft: {model.streamed[1]} of {total} tokens generated before the stop")
    audit = (
        agent.get_state(config).values["messages"][-1].response_metadata["qgate_rejected_drafts"]
    )
    print("partial draft kept for audit:", audit[0]["draft"])


if __name__ == "__main__":
    main()
