"""An agent whose tool returns JSON: a wrong field value is rejected and named, then fixed.

The ``get_listing`` tool returns a business listing as a dict (a search API's JSON). The gate
reads it as fields (``get_listing.hours.Tuesday: 11:00-21:00``), not as prose: the first draft
says the restaurant closes at 10 pm on Tuesdays, the gate names the field that disagrees, and the
corrected answer passes with field-level citations.

Run: python examples/structured_tool.py   (offline: scripted chat model, bundled MiniLM)
"""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import GatePolicy, QualityGateMiddleware
from langchain_qgate.testing import ScriptedChatModel


@tool
def get_listing(name: str) -> dict[str, Any]:
    """Look up a business listing by name."""
    return {
        "name": "Harbor Noodle House",
        "address": "112 Pier St",
        "city": "Santa Barbara",
        "state": "CA",
        "categories": "Noodles, Ramen",
        "hours": {"Monday": "11:00-21:00", "Tuesday": "11:00-21:00", "Friday": "11:00-23:00"},
        "attributes": {"WiFi": "free", "OutdoorSeating": False},
        "stars": 4.5,
        "review_count": 245,
    }


DRAFTS = [  # the scripted model's answers: wrong closing time first, then corrected
    "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
    "They are open on Tuesdays from 11 am to 10 pm and offer free Wi-Fi.",
    "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
    "They are open on Tuesdays from 11 am to 9 pm and offer free Wi-Fi.",
]


def respond(messages: list[BaseMessage]) -> AIMessage:
    """Call the tool first; then answer, one draft further after each guidance turn."""
    if not any(isinstance(m, ToolMessage) for m in messages):
        call = {"name": "get_listing", "args": {"name": "Harbor Noodle House"}, "id": "call-1"}
        return AIMessage("", tool_calls=[call])
    retries = sum(isinstance(m, HumanMessage) for m in messages) - 1
    return AIMessage(DRAFTS[min(retries, len(DRAFTS) - 1)])


def main() -> None:
    """Ask about the listing and print the rejected draft, the guidance and the cited fields."""
    model = ScriptedChatModel(respond=respond)
    # A real model instead: model = init_chat_model("openai:gpt-4o-mini", logprobs=True)

    agent = create_agent(
        model,
        tools=[get_listing],
        middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=2))],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "listing"}}
    question = "Tell me about Harbor Noodle House and its Tuesday hours."
    result = agent.invoke({"messages": [("user", question)]}, config)
    final = result["messages"][-1]
    meta = final.response_metadata["qgate"]

    for draft in final.response_metadata.get("qgate_rejected_drafts", []):
        print("rejected draft:", draft["draft"])
        print("guidance sent to the model:")
        print(draft["guidance"])
    print()
    print("answer:", final.content)
    score, retries = meta["score"], meta["retries_used"]
    print(f"decision {meta['decision']}, grounding {score:.2f}, retries {retries}")
    for claim in meta["claims"]:
        print(f"  {claim['grade']:<10} {claim['text']}  <- {claim['reason']}")
    print("field-level citations:")
    for source in meta["sources"]:
        print(f"  [{source['marker']}] {source['quote']}")


if __name__ == "__main__":
    main()
