"""Tool gating with the real bundled model, and on real data (``../shared/benchdata``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from langchain_core.documents import Document

from langchain_qgate.grounding.embeddings import CachedEmbedder
from langchain_qgate.tool_gating import (
    GatingLevel,
    JohariQuadrant,
    ToolGatingConfig,
    ToolGatingEvaluator,
)

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_tool_gating.py"

KB = [
    Document("The Eiffel Tower was completed in 1889 for the World's Fair in Paris."),
    Document("Gustave Eiffel's company designed and built the tower."),
    Document("The tower is 330 metres tall and was the tallest structure until 1930."),
]


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_tool_gating", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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


@pytest.mark.model
@pytest.mark.benchdata
def test_irrelevant_retrievals_reach_warning_far_more_often(benchdata_dir: Path) -> None:
    bench = load_bench()
    pairs = bench.load_pairs(benchdata_dir, "report", 20)
    assert len(pairs) >= 80
    results = bench.run(pairs, ToolGatingConfig(), 4)
    overall = results["all"]
    assert overall["irrelevant_warning"] >= 0.7
    assert overall["relevant_warning"] <= 0.1
    for name, r in results.items():
        assert r["irrelevant_warning"] > r["relevant_warning"] + 0.4, name
