"""Agent middleware that measures retrieval tool results and warns or blocks when uncertain."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from langchain.agents.middleware.types import AgentMiddleware, AgentState, ResponseT
from langchain_core.messages import ToolMessage
from langgraph.typing import ContextT

from langchain_qgate.tool_gating import (
    WARNING_METADATA_KEY,
    GatingLevel,
    ToolGatingConfig,
    ToolGatingEvaluator,
    ToolGatingWarning,
)
from langchain_qgate.tool_gating.retrieval import (
    RetrievedItem,
    documents_in,
    documents_in_text,
    split_passages,
    to_items,
)

if TYPE_CHECKING:
    from langchain.agents.middleware.types import ToolCallRequest
    from langgraph.types import Command

    from langchain_qgate.grounding.evidence.embeddings import Embedder

__all__ = ["RETRIEVAL_FLAG", "ToolGatingMiddleware"]

logger = logging.getLogger(__name__)

RETRIEVAL_FLAG = "qgate_retrieval"
"""Tool metadata key marking a retrieval tool: ``tool.metadata = {"qgate_retrieval": True}``."""


def _append_note(content: str | list[Any], note: str) -> str | list[Any]:
    if isinstance(content, str):
        return f"{content}\n\n[{note}]" if content else f"[{note}]"
    return [*content, {"type": "text", "text": f"[{note}]"}]


def _content_text(content: str | list[Any]) -> str:
    if isinstance(content, str):
        return content
    parts = [
        p if isinstance(p, str) else str(p.get("text", ""))
        for p in content
        if isinstance(p, str) or (isinstance(p, Mapping) and p.get("type") == "text")
    ]
    return "\n\n".join(p for p in parts if p)


class ToolGatingMiddleware(AgentMiddleware[AgentState[ResponseT], ContextT, ResponseT]):
    """Measures each retrieval tool result and attaches a tool-gating warning.

    A tool counts as a retrieval tool when its name is in ``retrieval_tools``, when its
    ``metadata`` has ``{"qgate_retrieval": True}``, or (with ``detect_documents``) when it
    returns Documents: in ``ToolMessage.artifact`` (a tool declared with
    ``response_format="content_and_artifact"``) or serialised into the content (the ``repr``
    a tool returning ``list[Document]`` produces, or a JSON list with ``page_content``).
    The retrieved items are the artifact's Documents (with their scores, if any) or else the
    passages of the text content (a JSON list of documents, or blank-line/line separated).
    The query is ``args[query_arg]`` or, by default, the first string argument of the call; a
    call without one passes through ungated.

    What happens to the ``ToolMessage``:

    - any level from Caution up: the warning (JSON-ready dict) is stored in
      ``response_metadata["tool_gating_warning"]`` (``artifact`` stays the tool's own);
    - from ``note_level`` (Warning by default) up: a short model-facing note is appended to
      the content;
    - ``should_gate`` (hard gating on, Critical, Blind or Unknown quadrant): the content is
      replaced by the warning telling the model to refine its query, ``status="error"`` and
      the artifact is dropped (so evidence harvesters do not take the withheld items).

    Stack it next to ``QualityGateMiddleware``; it keeps no per-run state, so one instance can
    serve many threads. If measuring fails, the result passes through unchanged (logged).

    Args:
        config: Gating thresholds (ignored when ``evaluator`` is given).
        embedder: Embedder for the signal (default: the bundled model, loaded lazily).
        evaluator: A ready evaluator (shares config and embedder with other components).
        retrieval_tools: Names of tools to treat as retrieval tools.
        detect_documents: Also gate tools whose artifact holds Documents.
        query_arg: Name of the tool argument holding the query.
        note_level: Lowest level whose note is appended to the content.

    Example:
        >>> from langchain.agents import create_agent
        >>> mw = ToolGatingMiddleware(retrieval_tools={"search_docs"},
        ...     config=ToolGatingConfig(hard_gating=True))
        >>> # agent = create_agent(model, tools=[search_docs], middleware=[mw])
    """

    def __init__(
        self,
        *,
        config: ToolGatingConfig | None = None,
        embedder: Embedder | None = None,
        evaluator: ToolGatingEvaluator | None = None,
        retrieval_tools: Iterable[str] = (),
        detect_documents: bool = True,
        query_arg: str | None = None,
        note_level: GatingLevel = GatingLevel.WARNING,
    ) -> None:
        super().__init__()
        if isinstance(retrieval_tools, str):
            raise ValueError("retrieval_tools must be a collection of names, not one string")
        if note_level is GatingLevel.NONE:
            raise ValueError("note_level must be CAUTION, WARNING or CRITICAL")
        self.evaluator = evaluator or ToolGatingEvaluator(config, embedder=embedder)
        self.retrieval_tools = frozenset(retrieval_tools)
        self.detect_documents = detect_documents
        self.query_arg = query_arg
        self.note_level = GatingLevel(note_level)

    # -- selection ---------------------------------------------------------------------

    def _query(self, request: ToolCallRequest) -> str | None:
        args = request.tool_call.get("args") or {}
        if self.query_arg is not None:
            value = args.get(self.query_arg)
            return value if isinstance(value, str) else None
        return next((v for v in args.values() if isinstance(v, str)), None)

    def _is_retrieval(self, request: ToolCallRequest, result: ToolMessage) -> bool:
        if request.tool_call["name"] in self.retrieval_tools:
            return True
        metadata = getattr(request.tool, "metadata", None) or {}
        if metadata.get(RETRIEVAL_FLAG):
            return True
        if not self.detect_documents:
            return False
        return (
            documents_in(result.artifact) is not None
            or documents_in_text(_content_text(result.content)) is not None
        )

    def _items(self, result: ToolMessage) -> list[RetrievedItem]:
        docs = documents_in(result.artifact)
        if docs is not None:
            return to_items(docs)
        return split_passages(_content_text(result.content))

    def _target(
        self, request: ToolCallRequest, result: ToolMessage | Command[Any]
    ) -> tuple[ToolMessage, str, list[RetrievedItem]] | None:
        if not isinstance(result, ToolMessage) or result.status == "error":
            return None
        if not self._is_retrieval(request, result):
            return None
        query = self._query(request)
        if query is None:
            return None
        return result, query, self._items(result)

    # -- rewriting ---------------------------------------------------------------------

    def _apply(self, result: ToolMessage, warning: ToolGatingWarning | None) -> ToolMessage:
        if warning is None:
            return result
        metadata = {
            **result.response_metadata,
            WARNING_METADATA_KEY: warning.model_dump(mode="json"),
        }
        if warning.should_gate:
            return result.model_copy(
                update={
                    "content": warning.to_model_message(),
                    "artifact": None,
                    "status": "error",
                    "response_metadata": metadata,
                }
            )
        content = result.content
        if warning.level >= self.note_level:
            content = _append_note(content, warning.to_model_message())
        return result.model_copy(update={"content": content, "response_metadata": metadata})

    # -- hooks -------------------------------------------------------------------------

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool, then measure and annotate (or withhold) a retrieval result."""
        result = handler(request)
        target = self._target(request, result)
        if target is None:
            return result
        message, query, items = target
        try:
            warning = self.evaluator.assess(query, items)
        except Exception:
            logger.exception("tool gating failed for %r; passing the result through", query)
            return result
        return self._apply(message, warning)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async :meth:`wrap_tool_call` (embedding runs in a worker thread)."""
        result = await handler(request)
        target = self._target(request, result)
        if target is None:
            return result
        message, query, items = target
        try:
            warning = await self.evaluator.aassess(query, items)
        except Exception:
            logger.exception("tool gating failed for %r; passing the result through", query)
            return result
        return self._apply(message, warning)
