"""A hand-built ``StateGraph`` with ``add_quality_gate`` and a SQLite checkpointer.

START -> retrieve -> generate -> quality_gate -> pass: END / retry: generate (with guidance)

The first draft is rejected and retried with guidance; the retried draft is still wrong, so the
budget is spent and the run pauses with ``interrupt()``. A *new* graph object over the same
SQLite file (as after a process restart) resumes it with the reviewer's decision.

Run: python examples/graph_gate.py   (offline: scripted chat model, bundled MiniLM)
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.sqlite import SqliteSaver  # pip install langgraph-checkpoint-sqlite
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from langchain_qgate import GatePolicy, QualityGateState, add_quality_gate
from langchain_qgate.testing import KeywordRetriever, ScriptedChatModel, load_docs

retriever = KeywordRetriever(docs=load_docs(Path(__file__).parent / "docs"), k=3)
DRAFTS = [
    "The Kestrel P3 runs for 20 hours on one charge.",
    "The Kestrel P3 runs for 20 hours on a single charge.",
]


def respond(messages: list[BaseMessage]) -> AIMessage:
    """Scripted model: the n-th draft after n guidance turns (the last one repeats)."""
    guidance_turns = sum(isinstance(m, HumanMessage) for m in messages) - 1
    return AIMessage(DRAFTS[min(guidance_turns, len(DRAFTS) - 1)])


model = ScriptedChatModel(respond=respond)


class RagState(QualityGateState, total=False):
    question: str


def retrieve(state: RagState) -> dict:
    question = str(state["messages"][-1].content)
    return {"question": question, "evidence": retriever.invoke(question)}


def generate(state: RagState) -> dict:
    context = "\n".join(d.page_content for d in state.get("evidence", []))
    prompt = [SystemMessage(f"Answer from this context only:\n{context}"), *state["messages"]]
    return {"messages": [model.invoke(prompt)]}


def build(checkpointer: SqliteSaver):
    builder = StateGraph(RagState)
    builder.add_node("retrieve", retrieve)
    builder.add_node("generate", generate)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    add_quality_gate(
        builder, after="generate", retry_to="generate", then=END,
        policy=GatePolicy(max_retries=1, on_exhausted="escalate"),
    )  # fmt: skip
    return builder.compile(checkpointer=checkpointer)


def main() -> None:
    """Run until the gate escalates, then resume from a fresh graph over the same file."""
    db = Path(tempfile.mkdtemp()) / "checkpoints.sqlite"
    config = {"configurable": {"thread_id": "kestrel"}}
    with SqliteSaver.from_conn_string(str(db)) as saver:
        graph = build(saver)
        out = graph.invoke(
            {"messages": [("user", "How long does the Kestrel P3 run on one charge?")]}, config
        )
        request = out["__interrupt__"][0].value
        print("paused for review:", request["reason"])
        print("draft:", request["draft"])
        for claim in request["metadata"]["claims"]:
            print(f"  {claim['grade']:<10} {claim['text']}  <- {claim['reason']}")
        print("retries used:", out["qgate_counters"]["retries"])

    with SqliteSaver.from_conn_string(str(db)) as saver:  # a fresh graph, same checkpoint file
        graph = build(saver)
        fixed = "The Kestrel P3 runs for 14 hours on one charge."
        out = graph.invoke(
            Command(resume={"type": "edit", "text": fixed, "reviewer": "ops"}), config
        )
        print("resumed; final answer:", out["messages"][-1].content)
        print(
            "metadata:", out["qgate_metadata"]["decision"], f"{out['qgate_metadata']['score']:.2f}"
        )


if __name__ == "__main__":
    main()
