"""Tool gating and the judge layer in a fan-out graph (an incident investigation).

Three specialist agents run in parallel (``Send``). Each searches the incident's signals
through a gated retriever: a retrieval too uncertain to build on (Critical, hard gating on)
is withheld and replaced by a warning. The judge node then checks every agent's structured
result before aggregation: each hypothesis must cite at least one signal, and every cited id
must be a signal that exists. The network agent, whose search was withheld, invents a signal
id anyway: the judge leaves its result out and says why.

Run: python examples/tool_gating_judge.py   (offline: bundled MiniLM, scripted agents)
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from langchain_core.documents import Document
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from langchain_qgate import (
    AgentResult,
    Hypothesis,
    JudgeState,
    ToolGatingConfig,
    gated_retriever,
    judge_node,
)
from langchain_qgate.testing import KeywordRetriever

SIGNALS = [
    Document("Disk usage on the db-1 database host reached 95% at 02:10.", id="sig-disk"),
    Document("CPU on the db-1 database host spiked to 98% during the export.", id="sig-cpu"),
    Document("The billing pods were OOMKilled 4 times between 02:00 and 02:30.", id="sig-oom"),
    Document("Release 2.14 of the billing service was deployed at 01:55.", id="sig-deploy"),
]
search = gated_retriever(
    KeywordRetriever(docs=SIGNALS, k=2),
    config=ToolGatingConfig(hard_gating=True),  # withhold Critical retrievals
)

AGENTS = {  # name -> (search query, the hypothesis the scripted agent writes)
    "infra": ("disk and CPU usage on the db-1 database host", "db-1 ran out of disk"),
    "app": ("billing pods OOMKilled after the release deploy", "release 2.14 leaks memory"),
    "network": ("packet loss between availability zones", "cross-zone packet loss"),
}


class IncidentState(JudgeState, total=False):
    signal_ids: list[str]
    searches: Annotated[list[str], operator.add]
    report: list[str]


class Task(TypedDict):
    agent: str


def fan_out(state: IncidentState) -> list[Send]:
    return [Send("specialist", {"agent": name}) for name in AGENTS]


def specialist(state: Task) -> dict[str, Any]:  # ``state``: the name LangGraph's types use
    """A scripted agent: search, then cite what it found (or, when withheld, invent an id)."""
    name = state["agent"]
    query, title = AGENTS[name]
    found = search.invoke(query)
    warning = found[0].metadata.get("tool_gating_warning") if found else None
    if warning:
        note = f"{name}: retrieval {warning['level']}: {warning['message']}"
    else:
        note = f"{name}: retrieval ok: {[d.id for d in found]}"
    withheld = bool(found) and found[0].metadata.get("qgate_gated", False)
    cited = ["sig-packet-loss"] if withheld else [str(d.id) for d in found]
    hypothesis = Hypothesis(title=title, supporting_signals=cited, confidence=0.7)
    return {"results": [AgentResult(agent_name=name, hypotheses=[hypothesis])], "searches": [note]}


def aggregate(state: IncidentState) -> dict[str, Any]:
    return {"report": [f"{r.agent_name}: {r.hypotheses[0].title}" for r in state["accepted"]]}


builder = StateGraph(IncidentState)
builder.add_node("specialist", specialist)
builder.add_node("judge", judge_node(valid_ids=lambda state: state["signal_ids"]))
builder.add_node("aggregate", aggregate)
builder.add_conditional_edges(START, fan_out, ["specialist"])
builder.add_edge("specialist", "judge")
builder.add_edge("judge", "aggregate")
builder.add_edge("aggregate", END)
graph = builder.compile()


def main() -> None:
    """Run the fan-out once and print the searches, the accepted and the rejected results."""
    out = graph.invoke({"signal_ids": [str(d.id) for d in SIGNALS]})
    for note in sorted(out["searches"]):
        print(note)
    print("accepted:", out["report"])
    for rejection in out["rejections"]:
        print(f"rejected {rejection.agent_name} ({rejection.check}): {rejection.reason}")


if __name__ == "__main__":
    main()
