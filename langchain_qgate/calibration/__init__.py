"""Confidence calibration: how far an answer's stated confidence is from what the evidence backs.

:class:`ConfidenceCalibrator` reads the stated confidence of an output (verbalized phrases and
numbers, token logprobs) and maps the grounding report through a calibration map to a
:class:`CalibratedConfidence` (raw, calibrated, gap, overconfident). ``fit`` learns a map from
labelled outcomes and reports ECE and Brier score.

Modules: ``calibrator`` (the calibrator and its maps), ``stated_confidence`` (what the output
says), ``metrics`` (ECE, Brier score, the reliability diagram).

Depends only on the shared leaves (``schemas``, ``_text``) and the shipped map in
``langchain_qgate/data``; the grounding report it reads is a :mod:`langchain_qgate.schemas` model.
"""

from __future__ import annotations

from langchain_qgate.calibration.calibrator import (
    CalibratedConfidence,
    CalibrationMap,
    ConfidenceCalibrator,
    ConfidenceSignal,
    ConfidenceSource,
    ShapeRule,
    TaskShape,
    task_shape,
)
from langchain_qgate.calibration.metrics import (
    CalibrationBin,
    CalibrationMethod,
    CalibrationReport,
    brier_score,
    expected_calibration_error,
    plot_reliability,
)
from langchain_qgate.calibration.stated_confidence import (
    VERBAL_CONFIDENCE,
    logprob_confidence,
    verbalized_confidence,
)

__all__ = [
    "VERBAL_CONFIDENCE",
    "CalibratedConfidence",
    "CalibrationBin",
    "CalibrationMap",
    "CalibrationMethod",
    "CalibrationReport",
    "ConfidenceCalibrator",
    "ConfidenceSignal",
    "ConfidenceSource",
    "ShapeRule",
    "TaskShape",
    "brier_score",
    "expected_calibration_error",
    "logprob_confidence",
    "plot_reliability",
    "task_shape",
    "verbalized_confidence",
]
