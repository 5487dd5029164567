"""The judge: deterministic checks of structured agent results before they are aggregated.

:class:`JudgeLayer` checks each :class:`AgentResult` (a named agent, hypotheses that each cite
signals that exist, confidences in [0, 1]) without any model and names the offending item and
the valid ids. :class:`CitationJudge` is the generic form for any pydantic model or mapping
with citation fields; the integrations use it for structured outputs that cite evidence ids.

Modules: ``layer`` (the judge layer and its result models), ``citation`` (the citation judge),
``signals`` (signal memory, id sources and the field readers both share).

Depends only on the shared leaf ``errors`` (and pydantic).
"""

from __future__ import annotations

from langchain_qgate.judge.citation import (
    CitationCheck,
    CitationIssue,
    CitationIssueKind,
    CitationJudge,
)
from langchain_qgate.judge.layer import (
    AgentResult,
    Hypothesis,
    JudgeCheck,
    JudgedResult,
    JudgeLayer,
)
from langchain_qgate.judge.signals import (
    DEFAULT_MAX_LISTED_IDS,
    IdSource,
    InMemorySignalMemory,
    SignalMemory,
    format_valid_ids,
    resolve_ids,
)

__all__ = [
    "DEFAULT_MAX_LISTED_IDS",
    "AgentResult",
    "CitationCheck",
    "CitationIssue",
    "CitationIssueKind",
    "CitationJudge",
    "Hypothesis",
    "IdSource",
    "InMemorySignalMemory",
    "JudgeCheck",
    "JudgeLayer",
    "JudgedResult",
    "SignalMemory",
    "format_valid_ids",
    "resolve_ids",
]
