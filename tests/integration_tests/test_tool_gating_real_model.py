"""Tool gating with the real bundled model.

How often irrelevant and relevant retrievals on real data (``../shared/benchdata``) reach
Warning is a measured figure, checked by ``benchmarks/check_figures.py`` (``tool_gating``).
"""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from langchain_qgate.grounding.evidence.embeddings import CachedEmbedder
from langchain_qgate.tool_gating import (
    GatingLevel,
    JohariQuadrant,
    ToolGatingConfig,
    ToolGatingEvaluator,
)

KB = [
    Document("The Eiffel Tower was completed in 1889 for the World's Fair in Paris."),
    Document("Gustave Eiffel's company designed and built the tower."),
    Document("The tower is 330 metres tall and was the tallest structure until 1930."),
]


@pytest.mark.model
def test_real_model_passes_a_relevant_query(real_embedder: CachedEmbedder) -> None:
    ev = ToolGatingEvaluator(embedder=real_embedder)
    signal = ev.measure("When was the Eiffel Tower built?", KB)
    assert signal.best_match > 0.5
    assert ev.evaluate(signal) is None or ev.evaluate(signal).level < GatingLevel.WARNING


@pytest.mark.model
def test_real_model_flags_an_unrelated_query(real_embedder: CachedEmbedder) -> None:
    ev = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True), embedder=real_embedder)
    warning = ev.assess("How do I reset my router's admin password?", KB)
    assert warning is not None
    assert warning.level is GatingLevel.CRITICAL
    assert warning.quadrant in {JohariQuadrant.UNKNOWN, JohariQuadrant.BLIND}
    assert warning.should_gate is True


@pytest.mark.model
def test_real_model_coherence_separates_one_topic_from_many(
    real_embedder: CachedEmbedder,
) -> None:
    ev = ToolGatingEvaluator(embedder=real_embedder)
    scattered = [
        "The Eiffel Tower is 330 metres tall.",
        "Photosynthesis converts light into chemical energy.",
        "The central bank raised interest rates by half a point.",
    ]
    assert ev.measure("Eiffel Tower", KB).coherence >= 0.5
    assert ev.measure("Eiffel Tower", scattered).coherence <= 0.3
