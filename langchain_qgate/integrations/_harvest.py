"""Evidence harvesting shared by the middleware, the graph nodes, the callbacks and LCEL.

Evidence is whatever the model actually saw: tool results (``ToolMessage`` content, or the
``artifact`` when a tool returns ``Document`` objects with ``response_format=
"content_and_artifact"``), retriever results, static documents given to a constructor, and
whatever a user function returns from the state. Everything is normalised to a flat list of
items the hallucination monitor accepts (``str``, ``Document``, ``EvidenceChunk``, ``dict``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from langchain_core.documents import Document
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.grounding.evidence.structured import CUT_KEY, is_records, structured_text
from langchain_qgate.schemas import EvidenceChunk

__all__ = [
    "GUIDANCE_ID_PREFIX",
    "EvidenceFn",
    "EvidenceItem",
    "collect_evidence",
    "flatten_evidence",
    "guidance_message",
    "harvest_tool_messages",
    "is_guidance",
    "last_ai_message",
    "last_question",
    "message_text",
    "question_from_input",
    "tool_output_evidence",
]

_QUESTION_KEYS = ("question", "input", "query")

EvidenceItem: TypeAlias = str | Document | EvidenceChunk | Mapping[str, Any] | ToolMessage
"""One piece of evidence in a form the hallucination monitor accepts."""

EvidenceFn: TypeAlias = Callable[[Any], Any]
"""A user function ``evidence_fn(state) -> evidence`` (an item, a sequence of items or None)."""

GUIDANCE_ID_PREFIX = "qgate-guidance-"
"""Id prefix of the guidance messages the gate adds; lets the gate find and strip them."""


def message_text(message: BaseMessage | str) -> str:
    """Plain text of a message (text content blocks joined; other blocks skipped)."""
    if isinstance(message, str):
        return message
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def guidance_message(text: str) -> HumanMessage:
    """The model-facing guidance as a user turn.

    A user turn is what every chat API accepts after a tool result or an assistant turn; a
    system message in the middle of a conversation is rejected by several providers.
    """
    return HumanMessage(content=text, id=f"{GUIDANCE_ID_PREFIX}{uuid.uuid4().hex}")


def is_guidance(message: BaseMessage) -> bool:
    """Whether ``message`` is a guidance turn added by the gate."""
    return isinstance(message, HumanMessage) and str(message.id or "").startswith(
        GUIDANCE_ID_PREFIX
    )


def question_from_input(value: Any) -> str | None:
    """The user's question in a chain's input: the string itself, the ``question`` /
    ``input`` / ``query`` key of a dict, or the last user turn of messages."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        q = last_question([m for m in value if isinstance(m, BaseMessage)])
        return message_text(q) if q is not None else None
    if isinstance(value, Mapping):
        for key in _QUESTION_KEYS:
            if isinstance(value.get(key), str):
                return str(value[key])
        if isinstance(value.get("messages"), list):
            return question_from_input(value["messages"])
    return None


def last_ai_message(messages: Sequence[AnyMessage]) -> AIMessage | None:
    """The last message if it is an ``AIMessage``, else ``None``."""
    if messages and isinstance(messages[-1], AIMessage):
        return messages[-1]
    return None


def last_question(messages: Sequence[BaseMessage]) -> HumanMessage | None:
    """The last user turn that is not gate guidance (the question being answered)."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and not is_guidance(message):
            return message
    return None


def _artifact_items(artifact: Any, source: Mapping[str, Any]) -> list[EvidenceItem] | None:
    """Evidence items carried by a tool artifact, or None when it carries none."""
    items = artifact if isinstance(artifact, list | tuple) else [artifact]
    out: list[EvidenceItem] = []
    for item in items:
        if isinstance(item, Document):
            meta = {**source, **item.metadata}
            out.append(Document(page_content=item.page_content, metadata=meta, id=item.id))
        elif isinstance(item, EvidenceChunk | str):
            out.append(item)
        elif isinstance(item, Mapping) and isinstance(item.get("page_content"), str):
            # A Document after a checkpoint round-trip comes back as a plain dict.
            meta = {**source, **(item.get("metadata") or {})}
            out.append(
                Document(page_content=item["page_content"], metadata=meta, id=item.get("id"))
            )
        else:
            return None  # an artifact we do not understand: fall back to the content
    return out or None


def tool_output_evidence(
    output: Any, *, tool_name: str | None = None, tool_call_id: str | None = None
) -> list[EvidenceItem]:
    """Evidence from one tool result (a ``ToolMessage``, documents, or a plain value)."""
    if isinstance(output, ToolMessage):
        if output.status == "error":
            return []
        source = {
            "source": f"tool:{output.name or tool_name or 'tool'}",
            "tool_call_id": output.tool_call_id,
        }
        data = (
            output.artifact
        )  # a dict or records: structured evidence (grounding/evidence/structured)
        if (isinstance(data, Mapping) and "page_content" not in data) or is_records(data):
            text, cut = structured_text(data)
            meta = {**source, CUT_KEY: cut} if cut else source
            return [Document(page_content=text, metadata=meta, id=output.tool_call_id or None)]
        if output.artifact is not None:
            items = _artifact_items(output.artifact, source)
            if items is not None:
                return items
        text = message_text(output)
        if not text.strip():
            return []
        return [Document(page_content=text, metadata=source, id=output.tool_call_id or None)]
    source = {"source": f"tool:{tool_name or 'tool'}"}
    if tool_call_id:
        source["tool_call_id"] = tool_call_id
    if output is None:
        return []
    if isinstance(output, str):
        return [Document(page_content=output, metadata=source)] if output.strip() else []
    items = _artifact_items(output, source)
    if items is not None:
        return items
    if isinstance(output, Mapping | list | tuple):
        text, cut = structured_text(output)
        if cut:
            source[CUT_KEY] = cut
    elif isinstance(output, int | float | bool):
        text = str(output)
    else:
        return []  # e.g. a Command returned by a tool: no evidence in it
    return [Document(page_content=text, metadata=source)] if text.strip() else []


def harvest_tool_messages(messages: Iterable[BaseMessage]) -> list[EvidenceItem]:
    """Evidence from every successful ``ToolMessage`` in ``messages``, in order."""
    out: list[EvidenceItem] = []
    for message in messages:
        if isinstance(message, ToolMessage):
            out.extend(tool_output_evidence(message))
    return out


_MAX_NESTING = 32


def flatten_evidence(evidence: Any, *, _open: tuple[int, ...] = ()) -> list[EvidenceItem]:
    """Normalise an evidence argument (an item, a sequence of items or None) to a list.

    Raises:
        InvalidInputError: When an item is of a type the monitor cannot read, or nested
            lists contain themselves or go deeper than 32 levels.
    """
    if evidence is None:
        return []
    if isinstance(evidence, str | Document | EvidenceChunk | ToolMessage | Mapping):
        items: Iterable[Any] = [evidence]
    elif isinstance(evidence, Iterable):
        items = evidence
    else:
        raise InvalidInputError(
            "evidence",
            "expected text, Document, EvidenceChunk, dict or a list, got "
            f"{type(evidence).__name__}",
        )
    out: list[EvidenceItem] = []
    for item in items:
        if isinstance(item, ToolMessage):
            out.extend(tool_output_evidence(item))
        elif isinstance(item, str | Document | EvidenceChunk | Mapping):
            out.append(item)
        elif isinstance(item, list | tuple):
            if id(item) in _open or id(evidence) == id(item):
                raise InvalidInputError("evidence", "a sequence of evidence contains itself")
            if len(_open) >= _MAX_NESTING:
                raise InvalidInputError(
                    "evidence", f"sequences nested more than {_MAX_NESTING} levels deep"
                )
            out.extend(flatten_evidence(item, _open=(*_open, id(evidence))))
        else:
            raise InvalidInputError(
                "evidence", f"unsupported evidence item of type {type(item).__name__}"
            )
    return out


def collect_evidence(
    state: Mapping[str, Any],
    *,
    static: Sequence[EvidenceItem] = (),
    evidence_fn: EvidenceFn | None = None,
    state_key: str | None = None,
) -> list[EvidenceItem]:
    """All evidence for the current answer: static, tool results, a state key, ``evidence_fn``.

    Args:
        state: Graph or agent state with ``messages``.
        static: Evidence given to the constructor.
        evidence_fn: Optional user function returning evidence from the state.
        state_key: Optional state key holding evidence (``"evidence"`` in graph state).
    """
    out: list[EvidenceItem] = list(static)
    out.extend(harvest_tool_messages(state.get("messages") or ()))
    if state_key is not None:
        out.extend(flatten_evidence(state.get(state_key)))
    if evidence_fn is not None:
        out.extend(flatten_evidence(evidence_fn(state)))
    return out
