"""Shared scaffolding for the integration tests: documents, a retriever tool, scripted answers.

The scripted model searches first (a tool call with the user's question as the query), then
answers with ``answers[i]`` where ``i`` is the number of gate guidance turns (or feedback
turns) since the question: the first draft, the answer after one round of guidance, ...
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedChatModel,
    load_docs,
    make_search_tool,
)

DOCS_DIR = Path(__file__).resolve().parents[2] / "examples" / "docs"
DOCS = load_docs(DOCS_DIR)
REVENUE_DOCS = [d for d in DOCS if d.id == "annual_report_2024/p0"]
"""The page that states the 2024 revenue (EUR 48.2 million) the BAD / GOOD answers are about."""
RETRIEVER = KeywordRetriever(docs=DOCS, k=3)
SEARCH_TOOL = make_search_tool(RETRIEVER)

QUESTION = "What was Nordlicht Robotics' revenue in 2024?"
BAD = (
    "Nordlicht Robotics reported revenue of €52.7 million in fiscal year 2024. "
    "The company plans to list its shares on the Frankfurt stock exchange in 2026."
)
GOOD = (
    "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million. "
    "Revenue grew 31% from €36.8 million in fiscal year 2023."
)
WARRANTY_Q = "How long is the warranty on the Kestrel P3?"
WARRANTY_GOOD = "Every Nordlicht robot, including the Kestrel P3, comes with a 24-month warranty."
WARRANTY_BAD = (
    "The Kestrel P3 comes with a 36-month warranty. "
    "Owners also get free replacement robots for life."
)


def make_monitor():
    """The real monitor with the deterministic hashing embedder (no model)."""
    from langchain_qgate.grounding import HallucinationMonitor
    from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder

    return HallucinationMonitor(embedder=HashingEmbedder())


def _after_question(messages: Sequence[BaseMessage]) -> tuple[str, list[BaseMessage]]:
    """The question text and the messages after it (gate guidance turns are not questions)."""
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if isinstance(m, HumanMessage) and not str(m.id or "").startswith("qgate-guidance-"):
            return str(m.content), list(messages[i + 1 :])
    return "", list(messages)


def rag_responder(answers: Sequence[str], *, tool_name: str = "search_docs"):
    """Search once, then answer ``answers[k]`` after ``k`` guidance turns."""

    def respond(messages: list[BaseMessage]) -> AIMessage:
        question, after = _after_question(messages)
        if not any(isinstance(m, ToolMessage) for m in after):
            n = sum(isinstance(m, AIMessage) for m in messages)
            return AIMessage(
                content="",
                tool_calls=[{"name": tool_name, "args": {"query": question}, "id": f"call-{n}"}],
            )
        k = sum(isinstance(m, HumanMessage) for m in after)
        return AIMessage(content=answers[min(k, len(answers) - 1)])

    return respond


def scripted_model(answers: Sequence[str]) -> ScriptedChatModel:
    """A scripted RAG model (search, then the scripted answers)."""
    return ScriptedChatModel(respond=rag_responder(answers))


def build_rag_graph(model, *, checkpointer=None, **gate_options):
    """START -> retrieve -> generate -> quality_gate -> (pass: END, retry: generate)."""
    from langgraph.graph import START, StateGraph

    from langchain_qgate.integrations.graph import QualityGateState, add_quality_gate

    class RagState(QualityGateState, total=False):
        question: str

    def retrieve(state):
        question = state.get("question") or str(state["messages"][-1].content)
        return {"question": question, "evidence": RETRIEVER.invoke(question)}

    def generate(state):
        # The scripted model must see a tool result to answer; hand it the evidence as one.
        context = ToolMessage(
            content="\n".join(d.page_content for d in state.get("evidence", [])),
            tool_call_id="context",
        )
        messages = list(state["messages"])
        question_at = max(
            i
            for i, m in enumerate(messages)
            if isinstance(m, HumanMessage) and not str(m.id or "").startswith("qgate-guidance-")
        )
        prompt = [*messages[: question_at + 1], context, *messages[question_at + 1 :]]
        return {"messages": [model.invoke(prompt)]}

    builder = StateGraph(RagState)
    builder.add_node("retrieve", retrieve)
    builder.add_node("generate", generate)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", **gate_options)
    return builder.compile(checkpointer=checkpointer)
