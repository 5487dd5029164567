"""The shipped calibration map on real data (``../shared/benchdata``).

Two tiers: the detection benchmark's per-item scores (``benchmarks/results/
detection_scores.jsonl``, report split only: rows the map was never fitted on), and a few live
rows through the real monitor and the bundled embedding model. The map's ECE and Brier score on
the report split are measured figures, checked by ``benchmarks/check_figures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_qgate.calibration import ConfidenceCalibrator, task_shape
from langchain_qgate.evaluation import split_of

ROOT = Path(__file__).resolve().parents[2]
SCORES = ROOT / "benchmarks" / "results" / "detection_scores.jsonl"


def _source_rows(benchdata_dir: Path) -> dict[str, dict]:
    rows = {}
    for path in sorted(benchdata_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                rows[str(r["id"])] = r
    return rows


def _has_question(row: dict) -> bool:
    return row.get("question") not in (None, "", "None")


@pytest.mark.benchdata
def test_shipped_map_was_fitted_on_the_fit_split_and_scores_cover_the_report_split(
    benchdata_dir: Path,
) -> None:
    """The map shipped is fitted (not the identity) on the fit split only, and the detection
    scores hold over a thousand report-split rows of the benchmark files. How well it is
    calibrated on them (ECE, Brier) is a measured figure: ``benchmarks/check_figures.py``,
    ``calibration_report_split``."""
    if not SCORES.exists():
        pytest.skip(f"no detection scores at {SCORES}; run `qgate bench detection --scores`")
    source = _source_rows(benchdata_dir)
    cal = ConfidenceCalibrator()
    assert cal.map.method != "identity", "no calibration map shipped"
    assert "fit split" in cal.map.fitted_on
    report_ids = [
        str(json.loads(line)["id"]) for line in SCORES.read_text(encoding="utf-8").splitlines()
    ]
    report_ids = [i for i in report_ids if split_of(i) == "report"]
    assert all(i in source for i in report_ids)
    assert len(report_ids) > 1000


@pytest.mark.benchdata
@pytest.mark.model
def test_live_rows_get_calibrated_probabilities(benchdata_dir: Path, real_embedder: object) -> None:
    from langchain_qgate.grounding import HallucinationMonitor

    monitor = HallucinationMonitor(embedder=real_embedder)
    cal = ConfidenceCalibrator()
    seen = set()
    for path in sorted(benchdata_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            rows = [json.loads(line) for _, line in zip(range(40), fh, strict=False)]
        rows = [r for r in rows if split_of(str(r["id"])) == "report"][:2]
        for r in rows:
            question = r["question"] if _has_question(r) else None
            report = monitor.verify_grounding(r["response"], r["context"], question=question)
            result = cal.calibrate(r["response"], report)
            shape = task_shape(
                has_question=question is not None,
                output_chars=len(r["response"]),
                evidence_chunks=report.evidence_count,
                rule=cal.map.shape_rule,
            )
            seen.add(shape)
            assert 0.0 <= result.calibrated <= 1.0
            assert result.calibrated == pytest.approx(cal.map.apply(report.score, shape=shape))
            assert result.raw is None or 0.0 <= result.raw <= 1.0
    assert "question" in seen
