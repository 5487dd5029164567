"""An agent answers from a flight-status API: a wrong gate is rejected and named, then fixed.

The ``get_flight_status`` tool returns the JSON a flight-status service gives. The gate reads
it as fields (``get_flight_status.departure.gate: B14``), not as prose, and compares each claim
with them by value type: clocks in figures or words ("10:25 am", "twenty-five past ten"),
dates, money, counts, codes. The first draft gives the wrong gate; the gate names the field
that disagrees and sends it back as guidance; the corrected answer passes with field-level
citations. Nothing in the package knows about flights.

Run: python examples/flight_status_agent.py   (offline: scripted chat model, bundled MiniLM)
"""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import GatePolicy, QualityGateMiddleware
from langchain_qgate.testing import ScriptedChatModel


@tool
def get_flight_status(flight: str) -> dict[str, Any]:
    """Look up the live status of a flight by its number."""
    return {
        "flight": "BA117",
        "status": "delayed",
        "origin": "LHR",
        "destination": "JFK",
        "departure": {"gate": "B14", "scheduled": "2025-03-08T09:40", "estimated": "10:25"},
        "arrival": {"estimated": "13:05"},
        "seats_left": 4,
        "fare_usd": 612,
    }


DRAFTS = [  # the scripted model's answers: the wrong gate first, then corrected
    "BA117 to JFK is delayed: it now leaves at 10:25 am from gate B12 and arrives at 1:05 pm. "
    "There are 4 seats left at $612.",
    "BA117 to JFK is delayed: it now leaves at 10:25 am from gate B14 and arrives at 1:05 pm. "
    "There are 4 seats left at $612.",
]


def respond(messages: list[BaseMessage]) -> AIMessage:
    """Call the tool first; then answer, one draft further after each guidance turn."""
    if not any(isinstance(m, ToolMessage) for m in messages):
        call = {"name": "get_flight_status", "args": {"flight": "BA117"}, "id": "call-1"}
        return AIMessage("", tool_calls=[call])
    retries = sum(isinstance(m, HumanMessage) for m in messages) - 1
    return AIMessage(DRAFTS[min(retries, len(DRAFTS) - 1)])


def main() -> None:
    """Ask about the flight and print the rejected draft, the guidance and the cited fields."""
    model = ScriptedChatModel(respond=respond)
    # A real model instead: model = init_chat_model("openai:gpt-4o-mini", logprobs=True)

    agent = create_agent(
        model,
        tools=[get_flight_status],
        middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=2))],
        checkpointer=InMemorySaver(),
    )
    config: RunnableConfig = {"configurable": {"thread_id": "flight"}}
    question = "Is BA117 on time, and which gate does it leave from?"
    result = agent.invoke({"messages": [HumanMessage(question)]}, config)
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
