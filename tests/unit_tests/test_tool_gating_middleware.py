"""ToolGatingMiddleware: hook calls on their own, then whole create_agent runs (sync and async)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware.types import ToolCallRequest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from pydantic import Field

from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.integrations.tool_gating_middleware import ToolGatingMiddleware
from langchain_qgate.tool_gating import (
    WARNING_METADATA_KEY,
    GatingLevel,
    ToolGatingConfig,
    ToolGatingEvaluator,
)

CORPUS = [
    "Paris is the capital of France.",
    "France is a country in Western Europe; its capital is Paris.",
    "The Eiffel Tower is in Paris, France.",
]
GOOD_QUERY = "What is the capital city of France?"
VAGUE_QUERY = "things"
HARD = ToolGatingConfig(hard_gating=True)


@tool(response_format="content_and_artifact")
def search_docs(query: str) -> tuple[str, list[Document]]:
    """Search the knowledge base."""
    docs = [Document(t, metadata={"id": f"d{i}"}) for i, t in enumerate(CORPUS)]
    return "\n\n".join(d.page_content for d in docs), docs


@tool
def lookup(query: str) -> str:
    """Look something up (plain text, one passage per line)."""
    return "\n".join(CORPUS)


@tool
def add(a: int, b: int) -> str:
    """Add two numbers."""
    return str(a + b)


def mw(**kwargs: Any) -> ToolGatingMiddleware:
    kwargs.setdefault("embedder", HashingEmbedder())
    return ToolGatingMiddleware(**kwargs)


def request(tool_obj: BaseTool | None, name: str, args: dict[str, Any]) -> ToolCallRequest:
    call = {"name": name, "args": args, "id": "call-1", "type": "tool_call"}
    return ToolCallRequest(tool_call=call, tool=tool_obj, state={"messages": []}, runtime=None)  # type: ignore[arg-type]


def run_tool(tool_obj: BaseTool) -> Callable[[ToolCallRequest], ToolMessage]:
    def handler(req: ToolCallRequest) -> ToolMessage:
        out = tool_obj.invoke({**req.tool_call, "type": "tool_call"})
        assert isinstance(out, ToolMessage)
        return out

    return handler


def warning_of(msg: ToolMessage | Command[Any]) -> dict[str, Any] | None:
    assert isinstance(msg, ToolMessage)
    return msg.response_metadata.get(WARNING_METADATA_KEY)


# -- the hook on its own ----------------------------------------------------------------


def test_documents_artifact_marks_a_retrieval_tool_and_good_query_passes() -> None:
    req = request(search_docs, "search_docs", {"query": GOOD_QUERY})
    out = mw().wrap_tool_call(req, run_tool(search_docs))
    assert warning_of(out) is None
    assert isinstance(out, ToolMessage)
    assert len(out.artifact) == 3


def test_vague_query_gets_warning_metadata_and_a_model_note() -> None:
    req = request(search_docs, "search_docs", {"query": VAGUE_QUERY})
    out = mw().wrap_tool_call(req, run_tool(search_docs))
    warning = warning_of(out)
    assert warning is not None
    assert warning["level"] == "critical"
    assert warning["should_gate"] is False
    assert isinstance(out, ToolMessage)
    assert out.content.startswith(CORPUS[0])
    assert "[Retrieval quality critical" in out.content
    assert len(out.artifact) == 3  # the tool's own artifact is kept


def test_hard_gating_replaces_critical_result_with_the_warning() -> None:
    req = request(search_docs, "search_docs", {"query": VAGUE_QUERY})
    out = mw(config=HARD).wrap_tool_call(req, run_tool(search_docs))
    assert isinstance(out, ToolMessage)
    assert out.content.startswith("Search results withheld")
    assert "rephrase the query" in out.content
    assert out.status == "error"
    assert out.artifact is None
    assert CORPUS[0] not in out.content
    assert warning_of(out)["should_gate"] is True


def test_caution_attaches_metadata_without_a_note() -> None:
    # Lower thresholds so the good query lands exactly at Caution.
    cfg = ToolGatingConfig(caution_entropy=0.0, warning_entropy=0.95, critical_entropy=0.99)
    req = request(search_docs, "search_docs", {"query": GOOD_QUERY})
    out = mw(config=cfg).wrap_tool_call(req, run_tool(search_docs))
    assert warning_of(out)["level"] == "caution"
    assert isinstance(out, ToolMessage)
    assert "Retrieval quality" not in out.content


def test_note_level_can_be_lowered_to_caution() -> None:
    cfg = ToolGatingConfig(caution_entropy=0.0, warning_entropy=0.95, critical_entropy=0.99)
    req = request(search_docs, "search_docs", {"query": GOOD_QUERY})
    out = mw(config=cfg, note_level=GatingLevel.CAUTION).wrap_tool_call(req, run_tool(search_docs))
    assert isinstance(out, ToolMessage)
    assert "[Retrieval quality caution" in out.content


def test_plain_text_tool_is_gated_only_when_named_or_flagged() -> None:
    req = request(lookup, "lookup", {"query": VAGUE_QUERY})
    assert warning_of(mw().wrap_tool_call(req, run_tool(lookup))) is None
    named = mw(retrieval_tools={"lookup"}).wrap_tool_call(req, run_tool(lookup))
    assert warning_of(named)["signal"]["n_items"] == 3  # one passage per line
    flagged_tool = lookup.model_copy(update={"metadata": {"qgate_retrieval": True}})
    flagged = mw().wrap_tool_call(request(flagged_tool, "lookup", {"query": VAGUE_QUERY}),
                                  run_tool(flagged_tool))  # fmt: skip
    assert warning_of(flagged)["level"] == "critical"


def test_tool_returning_documents_as_content_is_detected() -> None:
    @tool
    def docs_tool(query: str) -> list[Document]:
        """Return documents."""
        return [Document(t) for t in CORPUS]

    out = mw().wrap_tool_call(request(docs_tool, "docs_tool", {"query": VAGUE_QUERY}),
                              run_tool(docs_tool))  # fmt: skip
    warning = warning_of(out)
    assert warning is not None
    assert warning["signal"]["n_items"] == 3


def test_query_arg_selects_the_argument() -> None:
    @tool(response_format="content_and_artifact")
    def filtered(collection: str, question: str) -> tuple[str, list[Document]]:
        """Search one collection."""
        return "x", [Document(t) for t in CORPUS]

    req = request(filtered, "filtered", {"collection": "geo", "question": GOOD_QUERY})
    assert warning_of(mw().wrap_tool_call(req, run_tool(filtered))) is not None  # used "geo"
    assert warning_of(mw(query_arg="question").wrap_tool_call(req, run_tool(filtered))) is None


def test_non_retrieval_errors_commands_and_queryless_calls_pass_through() -> None:
    middleware = mw(retrieval_tools={"add", "search_docs"})
    req = request(add, "add", {"a": 1, "b": 2})
    out = middleware.wrap_tool_call(req, run_tool(add))
    assert isinstance(out, ToolMessage)
    assert (out.content, out.response_metadata) == ("3", {})
    error = ToolMessage("boom", tool_call_id="call-1", status="error")
    req = request(search_docs, "search_docs", {"query": VAGUE_QUERY})
    assert middleware.wrap_tool_call(req, lambda _r: error) is error
    command: Command[Any] = Command(update={"messages": []})
    assert middleware.wrap_tool_call(req, lambda _r: command) is command


def test_measuring_failure_passes_the_result_through(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        def embed(self, texts: Sequence[str]) -> Any:
            raise RuntimeError("model unavailable")

    req = request(search_docs, "search_docs", {"query": VAGUE_QUERY})
    out = ToolGatingMiddleware(embedder=Broken()).wrap_tool_call(req, run_tool(search_docs))
    assert warning_of(out) is None
    assert "tool gating failed" in caplog.text


def test_constructor_validates() -> None:
    with pytest.raises(ValueError):
        ToolGatingMiddleware(retrieval_tools="search_docs")
    with pytest.raises(ValueError):
        ToolGatingMiddleware(note_level=GatingLevel.NONE)


async def test_async_hook_matches_sync() -> None:
    middleware = mw(config=HARD)
    req = request(search_docs, "search_docs", {"query": VAGUE_QUERY})

    async def handler(r: ToolCallRequest) -> ToolMessage:
        out = await search_docs.ainvoke({**r.tool_call, "type": "tool_call"})
        assert isinstance(out, ToolMessage)
        return out

    out = await middleware.awrap_tool_call(req, handler)
    assert out == middleware.wrap_tool_call(req, run_tool(search_docs))
    assert isinstance(out, ToolMessage)
    assert out.status == "error"
    good = await middleware.awrap_tool_call(request(search_docs, "search_docs",
                                                    {"query": GOOD_QUERY}), handler)  # fmt: skip
    assert warning_of(good) is None


def test_shared_evaluator_is_used() -> None:
    evaluator = ToolGatingEvaluator(HARD, embedder=HashingEmbedder())
    middleware = ToolGatingMiddleware(evaluator=evaluator)
    assert middleware.evaluator is evaluator


# -- whole agent runs --------------------------------------------------------------------


class RefiningModel(BaseChatModel):
    """Searches with a vague query; on a withheld or flagged result, refines; then answers."""

    queries: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "refining-fake"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RefiningModel:  # type: ignore[override]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        last = messages[-1]
        if isinstance(last, HumanMessage):
            reply = self._search(VAGUE_QUERY)
        elif isinstance(last, ToolMessage) and last.status == "error":
            reply = self._search(GOOD_QUERY)  # the gate told us to refine
        else:
            assert isinstance(last, ToolMessage)
            reply = AIMessage("Paris is the capital of France.")
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def _search(self, query: str) -> AIMessage:
        self.queries.append(query)
        call = {"name": "search_docs", "args": {"query": query}, "id": f"c{len(self.queries)}"}
        return AIMessage("", tool_calls=[call])


def agent(model: RefiningModel, config: ToolGatingConfig | None) -> Any:
    return create_agent(
        model,
        tools=[search_docs],
        middleware=[mw(config=config)],
        checkpointer=InMemorySaver(),
    )


def tool_messages(result: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def check_soft_run(model: RefiningModel, result: dict[str, Any]) -> None:
    assert model.queries == [VAGUE_QUERY]
    (msg,) = tool_messages(result)
    warning = msg.response_metadata[WARNING_METADATA_KEY]
    assert GatingLevel(warning["level"]) >= GatingLevel.WARNING
    assert "[Retrieval quality" in msg.content
    assert result["messages"][-1].content == "Paris is the capital of France."


def check_hard_run(model: RefiningModel, result: dict[str, Any]) -> None:
    assert model.queries == [VAGUE_QUERY, GOOD_QUERY]
    gated, good = tool_messages(result)
    assert gated.status == "error"
    assert gated.content.startswith("Search results withheld")
    assert gated.response_metadata[WARNING_METADATA_KEY]["should_gate"] is True
    assert good.status == "success"
    assert WARNING_METADATA_KEY not in good.response_metadata
    assert good.content.startswith(CORPUS[0])
    assert result["messages"][-1].content == "Paris is the capital of France."


def test_agent_vague_query_triggers_a_warning() -> None:
    model = RefiningModel()
    result = agent(model, None).invoke(
        {"messages": [HumanMessage("Tell me things")]}, {"configurable": {"thread_id": "s"}}
    )
    check_soft_run(model, result)


def test_agent_hard_gated_retrieval_makes_the_model_refine_its_query() -> None:
    model = RefiningModel()
    result = agent(model, HARD).invoke(
        {"messages": [HumanMessage("Tell me things")]}, {"configurable": {"thread_id": "h"}}
    )
    check_hard_run(model, result)


async def test_agent_vague_query_triggers_a_warning_async() -> None:
    model = RefiningModel()
    result = await agent(model, None).ainvoke(
        {"messages": [HumanMessage("Tell me things")]}, {"configurable": {"thread_id": "sa"}}
    )
    check_soft_run(model, result)


async def test_agent_hard_gated_retrieval_makes_the_model_refine_its_query_async() -> None:
    model = RefiningModel()
    result = await agent(model, HARD).ainvoke(
        {"messages": [HumanMessage("Tell me things")]}, {"configurable": {"thread_id": "ha"}}
    )
    check_hard_run(model, result)


def test_stacks_with_the_quality_gate_middleware() -> None:
    from langchain_qgate.grounding import HallucinationMonitor
    from langchain_qgate.integrations.middleware import QualityGateMiddleware

    model = RefiningModel()
    gate = QualityGateMiddleware(monitor=HallucinationMonitor(embedder=HashingEmbedder()))
    graph = create_agent(
        model,
        tools=[search_docs],
        middleware=[gate, mw(config=HARD)],
        checkpointer=InMemorySaver(),
    )
    result = graph.invoke(
        {"messages": [HumanMessage("Tell me things")]}, {"configurable": {"thread_id": "q"}}
    )
    check_hard_run(model, result)
    final = result["messages"][-1]
    assert "qgate" in final.response_metadata or "qgate" in final.additional_kwargs


def test_note_is_appended_as_a_text_block_to_block_content() -> None:
    docs = [Document(t) for t in CORPUS]
    blocks: list[Any] = [{"type": "text", "text": "\n\n".join(CORPUS)}]
    message = ToolMessage(content=blocks, artifact=docs, tool_call_id="call-1")
    req = request(search_docs, "search_docs", {"query": VAGUE_QUERY})
    out = mw().wrap_tool_call(req, lambda _r: message)
    assert isinstance(out, ToolMessage)
    assert isinstance(out.content, list)
    assert out.content[0] == blocks[0]
    assert out.content[-1]["text"].startswith("[Retrieval quality critical")
