"""Former home of the fakes, kept for old imports: use :mod:`langchain_qgate.testing`."""

from __future__ import annotations

from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedChatModel,
    load_docs,
    make_search_tool,
)

__all__ = ["KeywordRetriever", "ScriptedChatModel", "load_docs", "make_search_tool"]
