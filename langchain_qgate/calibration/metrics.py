"""Calibration metrics: ECE, Brier score, reliability bins and the reliability diagram.

Private helper of :mod:`langchain_qgate.calibration` (names re-exported there).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CalibrationBin",
    "CalibrationMethod",
    "CalibrationReport",
    "brier_score",
    "ece_and_bins",
    "expected_calibration_error",
    "plot_reliability",
]

CalibrationMethod = Literal["isotonic", "platt", "identity"]
"""How a calibration map was fitted: isotonic regression, Platt scaling (logistic), or none."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CalibrationBin(_Model):
    """One bin of a reliability diagram.

    Attributes:
        lower: Bin lower edge.
        upper: Bin upper edge.
        count: Records in the bin.
        mean_predicted: Mean predicted probability.
        frequency: Observed frequency of correct outcomes.
    """

    lower: float
    upper: float
    count: int
    mean_predicted: float
    frequency: float


class CalibrationReport(_Model):
    """Calibration quality on a set of labelled records.

    Attributes:
        n: Records.
        ece: Expected calibration error (10 equal-width bins, count-weighted).
        brier: Brier score (mean squared error of the probabilities).
        ece_uncalibrated: ECE of the raw feature used as a probability.
        brier_uncalibrated: Brier of the raw feature.
        bins: The reliability diagram's bins (calibrated probabilities).
        method: The map's method.
        plot_path: Where the reliability diagram PNG was written, if requested.
    """

    n: int
    ece: float
    brier: float
    ece_uncalibrated: float
    brier_uncalibrated: float
    bins: list[CalibrationBin] = Field(default_factory=list)
    method: CalibrationMethod = "identity"
    plot_path: str | None = None


def expected_calibration_error(
    probs: Sequence[float] | np.ndarray, labels: Sequence[int] | np.ndarray, n_bins: int = 10
) -> float:
    """ECE: count-weighted mean |accuracy - confidence| over equal-width bins."""
    return ece_and_bins(np.asarray(probs, float), np.asarray(labels, float), n_bins)[0]


def brier_score(probs: Sequence[float] | np.ndarray, labels: Sequence[int] | np.ndarray) -> float:
    """Mean squared difference between probabilities and 0/1 outcomes."""
    p, y = np.asarray(probs, float), np.asarray(labels, float)
    return float(np.mean((p - y) ** 2)) if len(p) else 0.0


def ece_and_bins(p: np.ndarray, y: np.ndarray, n_bins: int) -> tuple[float, list[CalibrationBin]]:
    if len(p) == 0:
        return 0.0, []
    idx = np.minimum((p * n_bins).astype(int), n_bins - 1)
    ece, bins = 0.0, []
    for b in range(n_bins):
        mask = idx == b
        count = int(mask.sum())
        if count == 0:
            continue
        conf, freq = float(p[mask].mean()), float(y[mask].mean())
        ece += count / len(p) * abs(freq - conf)
        bins.append(
            CalibrationBin(
                lower=b / n_bins,
                upper=(b + 1) / n_bins,
                count=count,
                mean_predicted=conf,
                frequency=freq,
            )
        )
    return float(ece), bins


def plot_reliability(report: CalibrationReport, path: str | Path, *, title: str = "") -> Path:
    """Write a reliability diagram PNG of ``report`` to ``path``.

    Raises:
        ImportError: matplotlib is not installed (``pip install 'langchain-qgate[plot]'``).
    """
    try:
        import matplotlib as mpl

        mpl.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        msg = "the reliability diagram needs matplotlib: pip install 'langchain-qgate[plot]'"
        raise ImportError(msg) from exc
    out = Path(path)
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfect")
    xs = [b.mean_predicted for b in report.bins]
    ys = [b.frequency for b in report.bins]
    ax.plot(xs, ys, marker="o", label=f"{report.method} (ECE {report.ece:.3f})")
    ax.set_xlabel("predicted P(supported)")
    ax.set_ylabel("observed frequency")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title or f"Reliability (n={report.n}, Brier {report.brier:.3f})")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out
