"""Normalise retrieval results (Documents, scored pairs, dicts, tool output) into scored items.

Shared by :mod:`langchain_qgate.tool_gating` and the tool-gating middleware.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document

__all__ = [
    "SCORE_KEYS",
    "RetrievedItem",
    "documents_in",
    "documents_in_text",
    "split_passages",
    "to_items",
]

SCORE_KEYS = ("relevance_score", "score", "similarity", "similarity_score")
"""Metadata keys read, in this order, for a retriever-supplied relevance score."""

_TEXT_KEYS = ("page_content", "content", "text")


@dataclass(frozen=True, slots=True)
class RetrievedItem:
    """One retrieved passage and the score its retriever gave it, if any."""

    text: str
    score: float | None = None


def _as_score(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    score = float(value)
    return score if math.isfinite(score) else None


def _score_from_metadata(metadata: Mapping[str, Any]) -> float | None:
    for key in SCORE_KEYS:
        score = _as_score(metadata.get(key))
        if score is not None:
            return score
    return None


def _one(obj: Any) -> RetrievedItem | None:
    if isinstance(obj, RetrievedItem):
        return obj
    if isinstance(obj, Document):
        return RetrievedItem(obj.page_content, _score_from_metadata(obj.metadata))
    if isinstance(obj, str):
        return RetrievedItem(obj)
    if isinstance(obj, tuple) and len(obj) == 2 and _as_score(obj[1]) is not None:
        inner = _one(obj[0])
        return None if inner is None else RetrievedItem(inner.text, _as_score(obj[1]))
    if isinstance(obj, Mapping):
        text = next((obj[k] for k in _TEXT_KEYS if isinstance(obj.get(k), str)), None)
        if text is None:
            return None
        score = _score_from_metadata(obj)
        meta = obj.get("metadata")
        if score is None and isinstance(meta, Mapping):
            score = _score_from_metadata(meta)
        return RetrievedItem(text, score)
    return None


def to_items(obj: Any) -> list[RetrievedItem]:
    """Flatten a retrieval result into items, keeping retriever scores when present.

    Accepts a ``Document``, a string, a ``(document_or_text, score)`` pair, a dict with
    ``page_content``/``content``/``text`` (and optionally a score or ``metadata``), or a
    sequence of these. Scores come from the pair or from the first of :data:`SCORE_KEYS`
    found in the metadata. Empty texts are dropped; unknown objects are ignored.
    """
    if obj is None:
        return []
    single = _one(obj)
    if single is not None:
        return [single] if single.text.strip() else []
    if isinstance(obj, Sequence) and not isinstance(obj, str | bytes):
        out: list[RetrievedItem] = []
        for part in obj:
            out.extend(to_items(part))
        return out
    return []


def documents_in(obj: Any) -> list[Document] | None:
    """The Documents in ``obj`` when it is a Document or a non-empty sequence of them.

    ``(Document, score)`` pairs count as Documents (the score is copied into the metadata
    under ``"score"`` unless a score key is already present). Returns ``None`` otherwise.
    """
    if isinstance(obj, Document):
        return [obj]
    if not isinstance(obj, Sequence) or isinstance(obj, str | bytes) or not obj:
        return None
    docs: list[Document] = []
    for part in obj:
        if isinstance(part, Document):
            docs.append(part)
        elif (
            isinstance(part, tuple)
            and len(part) == 2
            and isinstance(part[0], Document)
            and _as_score(part[1]) is not None
        ):
            doc = part[0]
            if _score_from_metadata(doc.metadata) is None:
                doc = doc.model_copy(update={"metadata": {**doc.metadata, "score": part[1]}})
            docs.append(doc)
        else:
            return None
    return docs


def _documents_from_json(text: str) -> list[RetrievedItem] | None:
    stripped = text.strip()
    if not stripped.startswith("["):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, list) or not data:
        return None
    items = to_items(data)
    return items if len(items) == len(data) else None


_DOC_REPR = re.compile(
    r"Document\(.*?page_content=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")", re.DOTALL
)


def _documents_from_repr(text: str) -> list[RetrievedItem] | None:
    if "Document(" not in text:
        return None
    items = []
    for match in _DOC_REPR.finditer(text):
        try:
            value = ast.literal_eval(match.group(1))
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, str) and value.strip():
            items.append(RetrievedItem(value))
    return items or None


def documents_in_text(text: str) -> list[RetrievedItem] | None:
    """Documents serialised into a tool's text output, or ``None`` when there are none.

    Recognises a JSON list of documents (dicts with ``page_content``) and the ``repr`` of
    ``Document`` objects, which is what a tool returning ``list[Document]`` produces as
    ``ToolMessage`` content.
    """
    parsed = _documents_from_json(text)
    if parsed is not None and text.find("page_content") >= 0:
        return parsed
    return _documents_from_repr(text)


_BLANK_LINE = re.compile(r"\n\s*\n")


def split_passages(text: str) -> list[RetrievedItem]:
    """Split a retrieval tool's plain-text output into passages.

    A JSON list of documents/dicts/strings, or the ``repr`` of Documents, is parsed as such;
    otherwise passages are separated by blank lines, or by single newlines when there is no
    blank line.
    """
    parsed = _documents_from_json(text) or _documents_from_repr(text)
    if parsed is not None:
        return parsed
    parts = _BLANK_LINE.split(text) if _BLANK_LINE.search(text) else text.split("\n")
    return [RetrievedItem(p.strip()) for p in parts if p.strip()]
