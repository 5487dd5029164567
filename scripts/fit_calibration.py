"""Fit the shipped calibration map: grounding score -> P(output is supported).

Reads the per-item scores written by the detection benchmark
(``benchmarks/results/detection_scores.jsonl``: ``{"id", "dataset", "label", "score",
"split"}``, label 1 = hallucinated), fits on the rows whose split is ``"fit"`` (all five
development files pooled) and writes ``langchain_qgate/data/calibration_default.json``.

By default one **pooled** map is fitted (one map for every output). ``--by-shape`` also fits
one map per output shape (an answer to a question, or output length short / medium / long x
evidence size, see ``langchain_qgate.calibration.task_shape``; shapes with too few rows use
the pooled map), the shape coming from the development file's row (joined on id); its bounds
are chosen among :data:`CANDIDATE_RULES` by 5-fold cross-validation on the fit split only
(out-of-fold log loss pooled over all fit rows); ``--no-select`` keeps the default
:class:`~langchain_qgate.calibration.ShapeRule`.

Why the shipped map is pooled: on the development files the output shapes stand in for the
dataset (every FEVER row is one short claim against one sentence, every HaluEval row has a
question, SummEdits and WiCE are the long outputs over large evidence), so per-shape maps learn
each file's base rate. That looks good in-distribution and does not transfer: leave-one-dataset-
out ECE is no better than the pooled map's, and the long/large-evidence map topped out at a
calibrated confidence of 0.48 at a grounding score of 1.0, so the default gate rejected every
long answer, however well grounded. Users with labelled outcomes of their own fit per-shape
maps on them (``ConfidenceCalibrator.fit(records, by_shape=True)``).

Usage:
    python scripts/fit_calibration.py [--scores PATH] [--out PATH] [--method auto|isotonic|platt]
        [--by-shape] [--no-select] [--benchdata DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable without an editable install
    sys.path.insert(0, str(ROOT))

from langchain_qgate.calibration import (  # noqa: E402
    ConfidenceCalibrator,
    ShapeRule,
    expected_calibration_error,
)
from langchain_qgate.calibration.calibrator import _shape_of  # noqa: E402
from langchain_qgate.evaluation import split_of  # noqa: E402

DEFAULT_SCORES = ROOT / "benchmarks" / "results" / "detection_scores.jsonl"
DEFAULT_OUT = ROOT / "langchain_qgate" / "data" / "calibration_default.json"
DEFAULT_BENCHDATA = Path(os.environ.get("QGATE_BENCHDATA", ROOT.parent / "shared" / "benchdata"))


def evidence_chunks(context: str) -> int:
    """Evidence chunks of a context (sentences with a letter or digit, as the evidence index)."""
    from langchain_qgate.grounding.claims.segment import split_sentences

    return sum(any(ch.isalnum() for ch in context[s:e]) for s, e in split_sentences(context))


def attach_shapes(rows: list[dict], benchdata: Path) -> int:
    """Add ``has_question``, ``output_chars`` and ``evidence_chunks`` from the development
    files (joined on id).

    Returns:
        The number of rows that found their source row.
    """
    wanted = {r["id"] for r in rows}
    found: dict[str, tuple[float, float, float]] = {}
    for path in sorted(benchdata.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                src = json.loads(line)
                if str(src["id"]) not in wanted:
                    continue
                q = src.get("question")
                has_q = 0.0 if q in (None, "", "None") else 1.0
                found[str(src["id"])] = (
                    has_q,
                    float(len(src["response"])),
                    float(evidence_chunks(src["context"])),
                )
    hits = 0
    for r in rows:
        if r["id"] in found:
            r["has_question"], r["output_chars"], r["evidence_chunks"] = found[r["id"]]
            hits += 1
    return hits


def load_scores(path: Path) -> list[dict]:
    """Rows of the scores file; the split is recomputed from the id (and must agree)."""
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            split = split_of(str(row["id"]))
            if row.get("split", split) != split:
                raise SystemExit(f"row {row['id']}: split {row['split']!r} != split_of {split!r}")
            row["split"] = split
            row["label"] = int(row["label"])
            row["score"] = min(1.0, max(0.0, float(row["score"])))
            rows.append(row)
    return rows


def records(rows: list[dict], *, split: str, datasets: set[str] | None = None) -> list[tuple]:
    """``(features, supported)`` pairs: supported = 1 - label (label 1 = hallucinated)."""
    out = []
    for r in rows:
        if r["split"] != split or (datasets is not None and r["dataset"] not in datasets):
            continue
        feats = {"grounding": r["score"]}
        if "output_chars" in r:
            feats["has_question"] = r["has_question"]
            feats["output_chars"] = r["output_chars"]
            feats["evidence_chunks"] = r["evidence_chunks"]
        out.append((feats, 1 - r["label"]))
    return out


def _rule(short: int, long: int, ev: tuple[int | None, int, int]) -> ShapeRule:
    single, small, large = ev
    return ShapeRule(
        short_chars=short,
        long_chars=long,
        single_evidence=single,
        small_evidence=small,
        large_evidence=large,
    )


CANDIDATE_RULES: list[ShapeRule] = [
    _rule(short, long, ev)
    for short, long, ev in itertools.product(
        (100, 130, 160),
        (200, 250),
        ((None, 2, 8), (None, 1, 8), (1, 5, 12), (2, 8, 20)),
    )
]
"""Shape bounds tried by :func:`select_rule`: short/long output bounds (characters) x evidence
buckets (single / small / mid bounds in chunks). The first is the default rule."""


def _fold(row_id: str, k: int) -> int:
    return hashlib.blake2b(f"calibration-cv:{row_id}".encode(), digest_size=8).digest()[1] % k


def cross_validate(
    fit_rows: list[dict], rule: ShapeRule, *, method: str = "auto", k: int = 5
) -> tuple[float, dict[str, float]]:
    """Out-of-fold log loss (all rows) and per-dataset ECE of per-shape maps under ``rule``."""
    folds = np.array([_fold(r["id"], k) for r in fit_rows])
    probs = np.zeros(len(fit_rows))
    for f in range(k):
        train = [r for r, g in zip(fit_rows, folds, strict=True) if g != f]
        held = [r for r, g in zip(fit_rows, folds, strict=True) if g == f]
        cal = ConfidenceCalibrator(None)
        cal.fit(records(train, split="fit"), method=method, by_shape=True, shape_rule=rule)
        recs = records(held, split="fit")
        probs[folds == f] = cal.map.apply_many(
            [feats["grounding"] for feats, _ in recs], [_shape_of(feats, rule) for feats, _ in recs]
        )
    y = np.array([1 - r["label"] for r in fit_rows], dtype=float)
    p = np.clip(probs, 1e-4, 1 - 1e-4)
    logloss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    names = np.array([r["dataset"] for r in fit_rows])
    per = {
        d: expected_calibration_error(probs[names == d], y[names == d])
        for d in sorted(set(names.tolist()))
    }
    return logloss, per


def select_rule(fit_rows: list[dict], *, method: str = "auto", verbose: bool = True) -> ShapeRule:
    """The candidate rule with the lowest out-of-fold log loss on ``fit_rows``."""
    best: tuple[float, ShapeRule] | None = None
    for rule in CANDIDATE_RULES:
        logloss, per = cross_validate(fit_rows, rule, method=method)
        if verbose:
            eces = " ".join(f"{d[:8]} {e:.3f}" for d, e in per.items())
            print(
                f"  cv {rule.short_chars}/{rule.long_chars} chars, evidence "
                f"{rule.single_evidence}/{rule.small_evidence}/{rule.large_evidence}: "
                f"log loss {logloss:.4f} | ECE {eces}"
            )
        if best is None or logloss < best[0] - 1e-9:
            best = (logloss, rule)
    assert best is not None
    return best[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scores", type=Path, default=DEFAULT_SCORES)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--method", choices=["auto", "isotonic", "platt"], default="auto")
    parser.add_argument("--benchdata", type=Path, default=DEFAULT_BENCHDATA)
    parser.add_argument(
        "--by-shape",
        action="store_true",
        help="also fit one map per output shape (default: one pooled map)",
    )
    parser.add_argument(
        "--no-select",
        action="store_true",
        help="keep the default shape bounds (no cross-validated choice)",
    )
    args = parser.parse_args(argv)
    if not args.scores.exists():
        print(
            f"no scores file at {args.scores}; run the detection benchmark first", file=sys.stderr
        )
        return 2
    rows = load_scores(args.scores)
    by_shape = args.by_shape
    if by_shape and attach_shapes(rows, args.benchdata) < len(rows):
        print(f"some ids not found in {args.benchdata}; per-shape maps need them", file=sys.stderr)
        return 2
    fit = records(rows, split="fit")
    per = Counter(r["dataset"] for r in rows if r["split"] == "fit")
    final = (args.scores.parent / "DETECTION_FINAL").exists()
    desc = f"{args.scores.name} ({'final' if final else 'preliminary'}), fit split of " + ", ".join(
        f"{d} ({n})" for d, n in sorted(per.items())
    )
    rule = ShapeRule()
    if by_shape and not args.no_select:
        print("choosing shape bounds by 5-fold cross-validation on the fit split:")
        rule = select_rule([r for r in rows if r["split"] == "fit"], method=args.method)
        desc += f"; shape bounds chosen by 5-fold CV log loss on the fit split: {rule!r}"
    cal = ConfidenceCalibrator(None)
    cmap = cal.fit(fit, method=args.method, by_shape=by_shape, shape_rule=rule, fitted_on=desc)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cal.save(args.out)
    rep = cal.report(records(rows, split="report"))
    shapes = ", ".join(f"{k} ({g.n_records})" for k, g in cmap.groups.items()) or "none"
    print(f"fitted {cmap.method} map on {cmap.n_records} rows -> {args.out}; shapes: {shapes}")
    print(
        f"report split (pooled, n={rep.n}): ECE {rep.ece_uncalibrated:.3f} -> {rep.ece:.3f}, "
        f"Brier {rep.brier_uncalibrated:.3f} -> {rep.brier:.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
