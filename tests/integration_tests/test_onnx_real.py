"""The bundled model on ONNX Runtime gives the PyTorch vectors and the same verdicts."""

from __future__ import annotations

import numpy as np
import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.evaluation import load_rows
from langchain_qgate.grounding.evidence.embeddings import default_embedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.evidence.onnx_embedder import OnnxEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor


@pytest.mark.model
def test_bundled_model_runs_on_onnx_by_default() -> None:
    inner = default_embedder().inner
    assert isinstance(inner, OnnxEmbedder)
    assert inner.backend == "onnx"
    assert inner.dimension == 384


@pytest.mark.model
@pytest.mark.benchdata
def test_onnx_and_torch_agree_on_summedits_evidence(benchdata_dir) -> None:
    rows = load_rows(benchdata_dir / "summedits.jsonl", split="report")[::200][:8]
    texts = [c.text for r in rows for c in EvidenceIndex(r.context, embedder=None).chunks]
    texts += [r.response for r in rows]
    onnx = default_embedder().inner.embed(texts)
    torch_vecs = default_embedder(backend="torch").inner.embed(texts)
    assert len(texts) > 100
    assert float(np.abs(onnx - torch_vecs).max()) < 1e-5


@pytest.mark.model
@pytest.mark.benchdata
def test_verdicts_do_not_depend_on_the_backend(benchdata_dir) -> None:
    rows = []
    for name in ("halueval_qa", "fever_symmetric_dev", "wice_dev", "summedits"):
        rows += load_rows(benchdata_dir / f"{name}.jsonl", split="report")[::97][:5]
    onnx = HallucinationMonitor()
    torch_monitor = HallucinationMonitor(policy=GroundingPolicy(embedding_backend="torch"))
    for r in rows:
        a = onnx.verify_grounding(r.response, r.context, question=r.question)
        b = torch_monitor.verify_grounding(r.response, r.context, question=r.question)
        assert [v.grade for v in a.verdicts] == [v.grade for v in b.verdicts]
        assert a.score == pytest.approx(b.score, abs=1e-5)
