"""Confidence calibrator: stated confidence vs. what the evidence supports.

Three signals are read from an output:

* **verbalized** confidence: explicit numbers ("I'm 90% sure", "confidence: 0.8", "7/10
  confident") and the phrases of :data:`VERBAL_CONFIDENCE` ("definitely" 0.95, "probably"
  0.7, "might" 0.4, "not sure" 0.35 ...). Numbers win over words; several values are averaged.
* **token logprobs** in the OpenAI shape on ``AIMessage.response_metadata["logprobs"]``
  (``{"content": [{"token", "logprob", "top_logprobs"}]}``, or the list itself): the mean
  token probability ``mean(exp(logprob))``. Used as the stated confidence only when nothing is
  verbalized.
* the **grounding report**: the calibrated confidence is the calibration map applied to the
  grounding score, i.e. the probability that the output is supported by its evidence.

``raw`` is the stated confidence (verbalized, else logprobs, else ``None``); ``gap = raw -
calibrated``; the output is *overconfident* when ``gap > overconfidence_margin`` (0.2).

The shipped map (``langchain_qgate/data/calibration_default.json``) is one pooled map fitted
on the fit split of ``../shared/benchdata`` (see ``scripts/fit_calibration.py`` and
BENCHMARKS.md). Per-shape maps (``fit(..., by_shape=True)``) are for your own outcomes: fitted
on the development files, the shapes stood in for the datasets and carried their base rates.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate._text import output_text
from langchain_qgate.calibration.metrics import (
    CalibrationMethod,
    CalibrationReport,
    brier_score,
    ece_and_bins,
    plot_reliability,
)
from langchain_qgate.calibration.stated_confidence import (
    logprob_confidence,
    verbalized_confidence,
)
from langchain_qgate.schemas import GroundingReport

__all__ = [
    "CalibratedConfidence",
    "CalibrationMap",
    "ConfidenceCalibrator",
    "ConfidenceSignal",
    "ConfidenceSource",
    "ShapeRule",
    "TaskShape",
    "default_calibration_map",
    "task_shape",
]

ConfidenceSource = Literal["verbalized", "logprobs", "grounding"]
"""Where a confidence signal came from."""

TaskShape = Literal[
    "question",
    "short_single",
    "medium_single",
    "long_single",
    "short_small",
    "short_mid",
    "short_large",
    "medium_small",
    "medium_mid",
    "medium_large",
    "long_small",
    "long_mid",
    "long_large",
]
"""The shape of a checked output, which changes what a grounding score means: an answer to a
given question, or (no question) ``<output length>_<evidence size>``: output short / medium /
long by characters, evidence small / mid / large by chunks, and ``single`` (one chunk) when the
rule sets :attr:`ShapeRule.single_evidence` (bounds in :class:`ShapeRule`). A claim against
one evidence sentence is ``short_single`` (``short_small`` under the default rule); a summary
of a report ``long_large``."""


class ShapeRule(BaseModel):
    """Bounds of the :data:`TaskShape` buckets.

    Attributes:
        short_chars: Outputs shorter than this are short.
        long_chars: Outputs at least this long are long (between: medium).
        small_evidence: At most this many evidence chunks is small evidence.
        large_evidence: More than this many chunks is large evidence (between: mid).
        single_evidence: When set, at most this many chunks is ``single`` evidence (and small
            is above it up to ``small_evidence``); ``None`` (default) has no single bucket.

    A map stores the rule it was fitted with (``scripts/fit_calibration.py --by-shape`` chooses
    one by cross-validation on the fit split); these defaults are the rule of maps saved before
    ``single_evidence`` existed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    short_chars: int = 100
    long_chars: int = 200
    small_evidence: int = 2
    large_evidence: int = 8
    single_evidence: int | None = None


def task_shape(
    *,
    has_question: bool,
    output_chars: int,
    evidence_chunks: int | None = None,
    rule: ShapeRule | None = None,
) -> TaskShape:
    """The :data:`TaskShape` of an output (``evidence_chunks`` unknown counts as mid)."""
    r = rule if rule is not None else ShapeRule()
    if has_question:
        return "question"
    if output_chars < r.short_chars:
        length = "short"
    else:
        length = "medium" if output_chars < r.long_chars else "long"
    if evidence_chunks is None or r.small_evidence < evidence_chunks <= r.large_evidence:
        size = "mid"
    elif r.single_evidence is not None and evidence_chunks <= r.single_evidence:
        size = "single"
    else:
        size = "small" if evidence_chunks <= r.small_evidence else "large"
    return cast("TaskShape", f"{length}_{size}")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ConfidenceSignal(_Model):
    """One confidence signal read from an output.

    Attributes:
        kind: ``verbalized``, ``logprobs`` or ``grounding``.
        value: The probability it expresses.
        detail: The phrase matched, the token count, or the grounding summary.
    """

    kind: ConfidenceSource
    value: float = Field(ge=0.0, le=1.0)
    detail: str = ""


class CalibratedConfidence(_Model):
    """Stated vs. calibrated confidence of one output.

    Attributes:
        raw: Stated confidence (verbalized, else token logprobs), ``None`` when none.
        calibrated: Probability that the output is supported (calibration map of the
            grounding score).
        sources: The signals read.
        overconfident: ``raw - calibrated > overconfidence_margin``.
        gap: ``raw - calibrated`` (0 when nothing was stated).
        reason: How the figures were obtained, in one sentence.
        fitted: The map was fitted on the user's own outcomes (``fit``, ``load`` or a map
            passed in), not the shipped one. Only then is ``calibrated`` a probability the
            gate holds against its confidence threshold; the shipped map restates the
            grounding score, which the grounding dimension already judges.
    """

    raw: float | None = Field(default=None, ge=0.0, le=1.0)
    calibrated: float = Field(ge=0.0, le=1.0)
    sources: list[ConfidenceSignal] = Field(default_factory=list)
    overconfident: bool = False
    gap: float = 0.0
    reason: str = ""
    fitted: bool = False

    @property
    def stated_in_words(self) -> bool:
        """Whether the output states its confidence in words ("I'm 90% sure", "definitely")."""
        return any(s.kind == "verbalized" for s in self.sources)


class CalibrationMap(_Model):
    """A fitted 1-D map from a feature (the grounding score) to a probability.

    Attributes:
        method: ``isotonic`` (``x``/``y`` are the fitted thresholds, linearly interpolated and
            clipped, as scikit-learn's ``IsotonicRegression.predict``), ``platt``
            (``sigmoid(coef * x + intercept)``) or ``identity``.
        feature: The input: ``grounding`` (report score) or ``stated`` (stated confidence).
        x: Isotonic thresholds (inputs).
        y: Isotonic thresholds (outputs).
        coef: Platt slope.
        intercept: Platt intercept.
        n_records: Records fitted on.
        fitted_on: Free text naming the data.
        groups: Optional per-:data:`TaskShape` maps (fitted where a shape had enough
            records); other shapes use this map.
        shape_rule: Bounds of the shapes (:func:`task_shape`).
    """

    method: CalibrationMethod = "identity"
    feature: Literal["grounding", "stated"] = "grounding"
    x: list[float] = Field(default_factory=list)
    y: list[float] = Field(default_factory=list)
    coef: float = 1.0
    intercept: float = 0.0
    n_records: int = 0
    fitted_on: str = ""
    groups: dict[str, CalibrationMap] = Field(default_factory=dict)
    shape_rule: ShapeRule = Field(default_factory=ShapeRule)

    def apply(self, value: float, *, shape: str | None = None) -> float:
        """Map one feature value to a probability in [0, 1] (the ``shape``'s map if fitted)."""
        if shape is not None and shape in self.groups:
            return self.groups[shape].apply(value)
        v = float(value)
        if self.method == "isotonic" and self.x:
            out = float(np.interp(v, self.x, self.y))
        elif self.method == "platt":
            out = 1.0 / (1.0 + math.exp(-(self.coef * v + self.intercept)))
        else:
            out = v
        return min(1.0, max(0.0, out))

    def apply_many(
        self, values: Sequence[float] | np.ndarray, shapes: Sequence[str | None] | None = None
    ) -> np.ndarray:
        """Vectorised :meth:`apply`."""
        if shapes is None:
            return np.array([self.apply(float(v)) for v in values], dtype=float)
        return np.array(
            [self.apply(float(v), shape=sh) for v, sh in zip(values, shapes, strict=True)],
            dtype=float,
        )


Record = tuple[float | Mapping[str, float], bool | int]
"""A labelled outcome: ``(feature value or features, correct)``. Features: ``grounding`` (or
``score``), ``stated``, and for per-shape maps ``has_question`` (0/1), ``output_chars`` and
``evidence_chunks``."""


def _shape_of(features: float | Mapping[str, float], rule: ShapeRule) -> str | None:
    if not isinstance(features, Mapping) or "output_chars" not in features:
        return None
    return task_shape(
        has_question=bool(features.get("has_question", 0)),
        output_chars=int(features["output_chars"]),
        evidence_chunks=int(features["evidence_chunks"]) if "evidence_chunks" in features else None,
        rule=rule,
    )


def _feature_of(features: float | Mapping[str, float], feature: str) -> float:
    if isinstance(features, Mapping):
        if feature in features:
            return float(features[feature])
        if feature == "grounding" and "score" in features:
            return float(features["score"])
        raise ValueError(f"record features {dict(features)!r} have no {feature!r} value")
    return float(features)


def _fit_auto(pairs: list[tuple[float, int]], feature: str, folds: int = 5) -> CalibrationMap:
    """Isotonic or Platt, whichever has the lower cross-validated Brier score on ``pairs``."""
    if len(pairs) < 2 * folds:
        return _fit_1d(pairs, "platt", feature)
    order = np.random.default_rng(0).permutation(len(pairs))
    loss = {"isotonic": 0.0, "platt": 0.0}
    for k in range(folds):
        held = set(order[k::folds].tolist())
        train = [p for i, p in enumerate(pairs) if i not in held]
        test = [p for i, p in enumerate(pairs) if i in held]
        if len({c for _, c in train}) < 2:
            return _fit_1d(pairs, "platt", feature)
        for method in loss:
            cmap = _fit_1d(train, method, feature)
            probs = cmap.apply_many([x for x, _ in test])
            loss[method] += brier_score(probs, [c for _, c in test]) * len(test)
    return _fit_1d(pairs, min(loss, key=loss.__getitem__), feature)


def _fit_1d(pairs: list[tuple[float, int]], method: str, feature: str) -> CalibrationMap:
    if method == "auto":
        return _fit_auto(pairs, feature)
    from sklearn.isotonic import IsotonicRegression
    from sklearn.linear_model import LogisticRegression

    x = np.array([p for p, _ in pairs], dtype=float)
    y = np.array([c for _, c in pairs], dtype=float)
    feat: Literal["grounding", "stated"] = "stated" if feature == "stated" else "grounding"
    if method == "isotonic":
        iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True)
        iso.fit(x, y)
        return CalibrationMap(
            method="isotonic",
            feature=feat,
            x=[float(v) for v in iso.X_thresholds_],
            y=[float(v) for v in iso.y_thresholds_],
            n_records=len(pairs),
        )
    lr = LogisticRegression(C=1e4)
    lr.fit(x.reshape(-1, 1), y)
    if float(lr.coef_[0][0]) < 0.0:  # a decreasing map would reward lower grounding scores
        return _fit_1d(pairs, "isotonic", feature)
    return CalibrationMap(
        method="platt",
        feature=feat,
        coef=float(lr.coef_[0][0]),
        intercept=float(lr.intercept_[0]),
        n_records=len(pairs),
    )


def default_calibration_map() -> CalibrationMap:
    """The map shipped in ``langchain_qgate/data/calibration_default.json`` (identity if absent)."""
    try:
        raw = resources.files("langchain_qgate").joinpath("data/calibration_default.json")
        return CalibrationMap.model_validate_json(raw.read_text(encoding="utf-8"))
    except (FileNotFoundError, OSError):
        return CalibrationMap(fitted_on="no shipped map found: identity")


class ConfidenceCalibrator:
    """Reads stated confidence and maps the grounding score to a calibrated probability.

    Example:
        ```python
        calibrator = ConfidenceCalibrator()  # shipped map
        conf = calibrator.calibrate(ai_message, report)
        conf.overconfident, conf.gap

        calibrator.fit([(0.9, True), (0.2, False), ...], method="isotonic")
        calibrator.save("my_map.json")
        calibrator.report(held_out_records, plot_path="reliability.png").ece
        ```
    """

    def __init__(
        self,
        calibration_map: CalibrationMap | Literal["default"] | None = "default",
        *,
        overconfidence_margin: float = 0.2,
        use_logprobs: bool = True,
    ) -> None:
        """Create a calibrator.

        Args:
            calibration_map: A fitted map, ``"default"`` for the shipped one, ``None`` for the
                identity (calibrated = grounding score).
            overconfidence_margin: Stated minus calibrated above which an output is
                overconfident.
            use_logprobs: Read token logprobs when nothing is verbalized.

        Raises:
            ValueError: ``overconfidence_margin`` outside [0, 1].
        """
        if not 0.0 <= overconfidence_margin <= 1.0:
            raise ValueError(
                f"overconfidence_margin must be in [0, 1], got {overconfidence_margin}"
            )
        # A map the user passes in is taken as fitted on their outcomes.
        self.fitted = calibration_map not in ("default", None)
        if calibration_map == "default":
            calibration_map = default_calibration_map()
        self.map = calibration_map if calibration_map is not None else CalibrationMap()
        self.overconfidence_margin = overconfidence_margin
        self.use_logprobs = use_logprobs
        self._fit_records: list[tuple[float, int, str | None]] = []

    def stated(self, output: Any) -> tuple[float | None, list[ConfidenceSignal]]:
        """The stated confidence of ``output`` and the signals it came from."""
        signals = [
            ConfidenceSignal(kind="verbalized", value=v, detail=phrase)
            for phrase, v in verbalized_confidence(output_text(output))
        ]
        raw = sum(s.value for s in signals) / len(signals) if signals else None
        if self.use_logprobs:
            lp = logprob_confidence(output)
            if lp is not None:
                signals.append(
                    ConfidenceSignal(
                        kind="logprobs", value=lp[0], detail=f"mean token probability of {lp[1]}"
                    )
                )
                if raw is None:
                    raw = lp[0]
        return raw, signals

    def calibrate(self, output: Any, report: GroundingReport) -> CalibratedConfidence:
        """Calibrated confidence of one output.

        Args:
            output: The output (string or message; messages may carry logprobs).
            report: Its grounding report.

        Returns:
            Stated (``raw``) and calibrated confidence, the signals, the gap and a reason.
        """
        raw, signals = self.stated(output)
        grounding = ConfidenceSignal(
            kind="grounding",
            value=report.score,
            detail=f"grounding score over {sum(report.counts.values())} claims",
        )
        signals.append(grounding)
        feature = raw if self.map.feature == "stated" and raw is not None else report.score
        shape = task_shape(
            has_question=report.question is not None,
            output_chars=len(output_text(output)),
            evidence_chunks=report.evidence_count,
            rule=self.map.shape_rule,
        )
        calibrated = self.map.apply(feature, shape=shape)
        gap = raw - calibrated if raw is not None else 0.0
        over = raw is not None and gap > self.overconfidence_margin
        mapping = "identity" if self.map.method == "identity" else f"{self.map.method} map"
        if shape in self.map.groups:
            mapping += f" for {shape} outputs"
        if raw is None:
            reason = (
                f"no stated confidence; calibrated {calibrated:.2f} from the grounding score "
                f"{report.score:.2f} ({mapping})"
            )
        else:
            how = signals[0].kind
            reason = (
                f"stated {raw:.2f} ({how}), calibrated {calibrated:.2f} from the grounding "
                f"score {report.score:.2f} ({mapping})"
            )
            if over:
                reason += f"; overconfident by {gap:.2f}"
        if not report.has_claims:
            reason += "; no checkable claims: " + (report.reason or "nothing to grade")
        return CalibratedConfidence(
            raw=raw,
            calibrated=calibrated,
            sources=signals,
            overconfident=over,
            gap=gap,
            reason=reason,
            fitted=self.fitted,
        )

    def fit(
        self,
        records: Iterable[Record],
        *,
        method: Literal["isotonic", "platt", "auto"] = "isotonic",
        feature: Literal["grounding", "stated"] = "grounding",
        by_shape: bool = False,
        min_group: int = 150,
        shape_rule: ShapeRule | None = None,
        fitted_on: str = "",
    ) -> CalibrationMap:
        """Learn a calibration map from labelled outcomes and use it from now on.

        Args:
            records: ``(features, correct)`` pairs; ``features`` is the feature value or a
                mapping (see :data:`Record`); ``correct`` is truthy when the output was
                supported.
            method: Isotonic regression or Platt scaling (scikit-learn); ``auto`` picks,
                for the pooled map and each shape's map, the one with the lower 5-fold
                cross-validated Brier score on the records given.
            feature: Which feature the map takes.
            by_shape: Also fit one map per :data:`TaskShape` (records need ``output_chars``
                and ``has_question``) where a shape has ``min_group`` records with at least
                30 of each outcome; other shapes use the pooled map.
            min_group: Minimum records for a per-shape map.
            shape_rule: Bounds of the shapes (defaults of :class:`ShapeRule`).
            fitted_on: Description of the data, stored in the map.

        Returns:
            The fitted map (also set on the calibrator).

        Raises:
            ValueError: Fewer than 2 records, only one outcome, or an unknown method.
        """
        if method not in ("isotonic", "platt", "auto"):
            raise ValueError(f"method must be 'isotonic', 'platt' or 'auto', got {method!r}")
        rule = shape_rule if shape_rule is not None else ShapeRule()
        rows = [(_feature_of(f, feature), int(bool(c)), _shape_of(f, rule)) for f, c in records]
        if len(rows) < 2 or len({c for _, c, _ in rows}) < 2:
            raise ValueError("fit needs at least 2 records with both outcomes")
        pooled = _fit_1d([(x, c) for x, c, _ in rows], method, feature)
        groups: dict[str, CalibrationMap] = {}
        if by_shape:
            for shape in get_args(TaskShape):
                sub = [(x, c) for x, c, sh in rows if sh == shape]
                pos = sum(c for _, c in sub)
                if len(sub) >= min_group and min(pos, len(sub) - pos) >= 30:
                    groups[shape] = _fit_1d(sub, method, feature)
        self.fitted = True
        self.map = pooled.model_copy(
            update={"groups": groups, "shape_rule": rule, "fitted_on": fitted_on}
        )
        self._fit_records = rows
        return self.map

    def report(
        self,
        records: Iterable[Record] | None = None,
        *,
        n_bins: int = 10,
        plot_path: str | Path | None = None,
    ) -> CalibrationReport:
        """ECE, Brier score and reliability bins of the current map.

        Args:
            records: Labelled outcomes to evaluate on (held-out data); the records of the
                last :meth:`fit` (in-sample) when omitted.
            n_bins: Equal-width bins for ECE and the diagram.
            plot_path: Write a reliability diagram PNG there (needs matplotlib).

        Raises:
            ValueError: No records.
        """
        rule = self.map.shape_rule
        rows = (
            [
                (_feature_of(f, self.map.feature), int(bool(c)), _shape_of(f, rule))
                for f, c in records
            ]
            if records is not None
            else list(self._fit_records)
        )
        if not rows:
            raise ValueError("report needs labelled records (pass them or call fit first)")
        x = np.array([p for p, _, _ in rows], dtype=float)
        y = np.array([c for _, c, _ in rows], dtype=float)
        probs = self.map.apply_many(x, [sh for _, _, sh in rows])
        ece, bins = ece_and_bins(probs, y, n_bins)
        raw_probs = np.clip(x, 0.0, 1.0)
        result = CalibrationReport(
            n=len(rows),
            ece=ece,
            brier=brier_score(probs, y),
            ece_uncalibrated=ece_and_bins(raw_probs, y, n_bins)[0],
            brier_uncalibrated=brier_score(raw_probs, y),
            bins=bins,
            method=self.map.method,
        )
        if plot_path is not None:
            written = plot_reliability(result, plot_path)
            result = result.model_copy(update={"plot_path": str(written)})
        return result

    def save(self, path: str | Path) -> Path:
        """Write the current map as JSON (isotonic: thresholds; Platt: coef/intercept)."""
        out = Path(path)
        out.write_text(json.dumps(self.map.model_dump(mode="json"), indent=1) + "\n", "utf-8")
        return out

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> ConfidenceCalibrator:
        """A calibrator using the map saved at ``path`` (keyword options as in ``__init__``)."""
        cmap = CalibrationMap.model_validate_json(Path(path).read_text(encoding="utf-8"))
        return cls(cmap, **kwargs)
