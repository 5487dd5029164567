"""Tool gating: warn, or block, when a retrieval is too uncertain to build an answer on.

A retrieval (a query and the items it returned) becomes a :class:`LearningSignal` (entropy:
how weak and flat the match is; coherence: how much the items agree), placed in a Johari
quadrant and at a :class:`GatingLevel`; :class:`ToolGatingEvaluator` turns it into a
:class:`ToolGatingWarning` with suggested actions and ``should_gate``.

Modules: ``evaluator`` (the signal, the evaluator, the gated retriever), ``config``
(levels, quadrants, thresholds), ``signal`` (the numeric measures), ``retrieval`` (retrieval
results of any shape as scored items).

Depends on :mod:`langchain_qgate.grounding` (the embedder) and LangChain core.
"""

from __future__ import annotations

from langchain_qgate.tool_gating.config import (
    GatingLevel,
    JohariQuadrant,
    SuggestedAction,
    ToolGatingConfig,
)
from langchain_qgate.tool_gating.evaluator import (
    WARNING_METADATA_KEY,
    GatedRetriever,
    LearningSignal,
    ScoreSource,
    ToolGatingEvaluator,
    ToolGatingWarning,
    compute_learning_signal,
    gated_retriever,
)

__all__ = [
    "WARNING_METADATA_KEY",
    "GatedRetriever",
    "GatingLevel",
    "JohariQuadrant",
    "LearningSignal",
    "ScoreSource",
    "SuggestedAction",
    "ToolGatingConfig",
    "ToolGatingEvaluator",
    "ToolGatingWarning",
    "compute_learning_signal",
    "gated_retriever",
]
