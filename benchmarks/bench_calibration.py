"""Calibration benchmark: ECE / Brier of the grounding score before and after calibration.

For each development file, on its ``report`` split:

* **uncalibrated**: the grounding score used as P(supported);
* **shipped map (in-distribution)**: one pooled map fitted on the ``fit`` split of all five
  files together (what ``scripts/fit_calibration.py`` ships, isotonic or Platt as 5-fold
  cross-validation on the fit split prefers);
* **per-shape maps**: the same recipe with one map per output shape (``by_shape=True``), the
  option for users who fit on their own outcomes;
* **own file**: a map fitted on the ``fit`` split of that file alone (isotonic or Platt by
  cross-validation), the grounding benchmark's meaning of in-distribution and what a user gets
  after calling ``fit`` on labelled outcomes of their own. Its noise floor is a *refit* one:
  labels of both halves drawn from the own-file map, a map refitted on the drawn fit half and
  scored on the drawn report half (200 draws);
* **leave-one-dataset-out (LODO)**: the map fitted on the ``fit`` split of the *other* four
  files, i.e. what a user with a new kind of data sees before calling ``fit``.

**Noise floor**: ECE is not 0 for a perfectly calibrated predictor on a few hundred rows. For
each file's report part, labels are drawn from the shipped map's own probabilities (1,000
draws, seed 0) and the ECE of those probabilities is recorded (mean and 95th percentile):
an observed ECE near that floor is as good as this sample size can show. Input is the
detection benchmark's per-item scores (``benchmarks/results/detection_scores.jsonl``);
``--synthetic`` runs on generated scores to exercise the pipeline. Writes
``benchmarks/results/calibration.json`` and a reliability diagram
``benchmarks/results/calibration_reliability.png``, and prints a Markdown table.

Usage:
    python benchmarks/bench_calibration.py [--scores PATH] [--synthetic]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import numpy as np  # noqa: E402
from fit_calibration import (  # noqa: E402
    DEFAULT_BENCHDATA,
    DEFAULT_SCORES,
    attach_shapes,
    load_scores,
    records,
)

from langchain_qgate.calibration import (  # noqa: E402
    ConfidenceCalibrator,
    ShapeRule,
    expected_calibration_error,
)
from langchain_qgate.calibration.calibrator import (  # noqa: E402
    _shape_of,
    default_calibration_map,
)
from langchain_qgate.evaluation import split_of  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


VARIANTS: dict[str, dict] = {
    "pooled": {"method": "auto"},
    "shape": {"method": "auto", "by_shape": True},
    "platt": {"method": "platt"},
}
"""Maps compared: one pooled map, isotonic or Platt chosen by cross-validation on the fit split
(shipped); per-shape maps (``ShapeRule`` bounds of the shipped map's rule) next to a pooled
fallback; one pooled Platt map."""

SHIPPED_RULE = default_calibration_map().shape_rule


def noise_floor(probs: np.ndarray, draws: int = 1000, seed: int = 0) -> dict[str, float]:
    """ECE of ``probs`` against labels drawn from ``probs`` themselves (mean, 95th pct)."""
    rng = np.random.default_rng(seed)
    eces = np.array(
        [
            expected_calibration_error(probs, (rng.random(len(probs)) < probs).astype(float))
            for _ in range(draws)
        ]
    )
    return {"mean": float(eces.mean()), "p95": float(np.percentile(eces, 95))}


def refit_noise_floor(
    own: ConfidenceCalibrator,
    fit_recs: list[tuple],
    rep_recs: list[tuple],
    draws: int = 200,
    seed: int = 0,
) -> dict[str, float]:
    """ECE a *refitted* map shows when ``own`` is the truth: labels of both halves are drawn
    from ``own``'s probabilities, a map is fitted on the drawn fit half (same method) and
    scored on the drawn report half. This adds the fit half's sampling noise to the report
    half's, which is what an own-file figure carries."""
    rng = np.random.default_rng(seed)
    p_fit, p_rep = probabilities(own, fit_recs), probabilities(own, rep_recs)
    feats_fit = [f for f, _ in fit_recs]
    eces = []
    for _ in range(draws):
        y_fit = (rng.random(len(p_fit)) < p_fit).astype(int)
        cal = ConfidenceCalibrator(None)
        cal.fit(list(zip(feats_fit, y_fit.tolist(), strict=True)), method=own.map.method)
        y_rep = (rng.random(len(p_rep)) < p_rep).astype(float)
        eces.append(expected_calibration_error(probabilities(cal, rep_recs), y_rep))
    arr = np.array(eces)
    return {"mean": float(arr.mean()), "p95": float(np.percentile(arr, 95))}


def synthetic_rows(seed: int = 0) -> list[dict]:
    """Five fake datasets whose P(supported | score) differs (a stand-in for real scores)."""
    rng = random.Random(seed)
    rows = []
    specs = [
        ("a", 2000, 2.0, 1.0, 30, 3),
        ("b", 4000, 1.5, 0.0, 250, 12),
        ("c", 700, 1.0, 0.0, 45, 1),
        ("d", 850, 2.5, 0.0, 60, 5),
        ("e", 1000, 1.2, 0.0, 130, 10),
    ]
    for k, (name, n, power, has_q, chars, chunks) in enumerate(specs):
        for i in range(n):
            s = rng.betavariate(2, 2)
            rid = f"{name}-{k}-{i}"
            rows.append(
                {
                    "id": rid,
                    "dataset": name,
                    "label": int(rng.random() >= s**power),
                    "score": s,
                    "split": split_of(rid),
                    "has_question": has_q,
                    "output_chars": float(max(5, int(rng.gauss(chars, chars / 3)))),
                    "evidence_chunks": float(chunks),
                }
            )
    return rows


def fit(recs: list[tuple], variant: str, rule: ShapeRule | None = None) -> ConfidenceCalibrator:
    cal = ConfidenceCalibrator(None)
    kwargs = dict(VARIANTS[variant])
    kwargs.setdefault("shape_rule", rule if rule is not None else SHIPPED_RULE)
    cal.fit(recs, **kwargs)
    return cal


def probabilities(cal: ConfidenceCalibrator, recs: list[tuple]) -> np.ndarray:
    rule = cal.map.shape_rule
    return cal.map.apply_many(
        [f["grounding"] for f, _ in recs], [_shape_of(f, rule) for f, _ in recs]
    )


def scores(cal: ConfidenceCalibrator, recs: list[tuple]) -> dict:
    rep = cal.report(recs)
    return {"ece": rep.ece, "brier": rep.brier}


def run(rows: list[dict], rule: ShapeRule | None = None) -> dict:
    datasets = sorted({r["dataset"] for r in rows})
    fit_all = records(rows, split="fit")
    pooled = {v: fit(fit_all, v, rule) for v in VARIANTS}
    variants = {
        v: {k: (x.model_dump() if isinstance(x, ShapeRule) else x) for k, x in kw.items()}
        for v, kw in VARIANTS.items()
    }
    out: dict = {
        "datasets": {},
        "pooled": {},
        "variants": variants,
        "shape_rule": pooled["shape"].map.shape_rule.model_dump(),
        "fit_split": "split_of(id) == 'fit' of all five files (LODO: of the other four)",
        "report_split": "split_of(id) == 'report' of each file",
    }
    for d in datasets:
        rep = records(rows, split="report", datasets={d})
        lodo = {
            v: fit(records(rows, split="fit", datasets=set(datasets) - {d}), v, rule)
            for v in VARIANTS
        }
        # The file's own map (fitted on its fit half only): "in-distribution" as the grounding
        # benchmark defines it, and what a user gets after calling ``fit`` on their own labels.
        own = ConfidenceCalibrator(None)
        own_fit = records(rows, split="fit", datasets={d})
        own.fit(own_fit, method="auto", by_shape=False)
        raw = pooled["pooled"].report(rep)
        out["datasets"][d] = {
            "own_file": {**scores(own, rep), "method": own.map.method},
            "own_file_noise_floor": refit_noise_floor(own, own_fit, rep),
            "n_report": len(rep),
            "noise_floor": noise_floor(probabilities(pooled["pooled"], rep)),
            "supported_rate": sum(c for _, c in rep) / max(1, len(rep)),
            "uncalibrated": {"ece": raw.ece_uncalibrated, "brier": raw.brier_uncalibrated},
            "in_distribution": {v: scores(pooled[v], rep) for v in VARIANTS},
            "lodo": {v: scores(lodo[v], rep) for v in VARIANTS},
        }
    rep_all = records(rows, split="report")
    raw = pooled["pooled"].report(rep_all)
    out["pooled"] = {
        "n_fit": len(fit_all),
        "n_report": len(rep_all),
        "noise_floor": noise_floor(probabilities(pooled["pooled"], rep_all)),
        "uncalibrated": {"ece": raw.ece_uncalibrated, "brier": raw.brier_uncalibrated},
        "in_distribution": {v: scores(pooled[v], rep_all) for v in VARIANTS},
        "shapes_fitted": sorted(pooled["shape"].map.groups),
    }
    try:
        pooled["pooled"].report(rep_all, plot_path=RESULTS / "calibration_reliability.png")
        out["reliability_png"] = "benchmarks/results/calibration_reliability.png"
    except ImportError:
        out["reliability_png"] = None
    return out


def table(result: dict) -> str:
    head = (
        "| dataset | n (report) | ECE noise floor (mean / 95%) | ECE raw | "
        "ECE own file (refit noise floor mean / 95%) | ECE shipped map | ECE per-shape maps | "
        "ECE LODO | ECE LODO, per-shape | Brier raw | Brier own file | Brier shipped | "
        "Brier LODO |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    for d, r in result["datasets"].items():
        u, i, lo, nf = r["uncalibrated"], r["in_distribution"], r["lodo"], r["noise_floor"]
        own, onf = r["own_file"], r["own_file_noise_floor"]
        lines.append(
            f"| {d} | {r['n_report']} | {nf['mean']:.3f} / {nf['p95']:.3f} | {u['ece']:.3f} | "
            f"**{own['ece']:.3f}** ({onf['mean']:.3f} / {onf['p95']:.3f}) | "
            f"{i['pooled']['ece']:.3f} | {i['shape']['ece']:.3f} | "
            f"{lo['pooled']['ece']:.3f} | {lo['shape']['ece']:.3f} | "
            f"{u['brier']:.3f} | {own['brier']:.3f} | {i['pooled']['brier']:.3f} | "
            f"{lo['pooled']['brier']:.3f} |"
        )
    p = result["pooled"]
    u, i, nf = p["uncalibrated"], p["in_distribution"], p["noise_floor"]
    lines.append(
        f"| **all five (pooled)** | {p['n_report']} | {nf['mean']:.3f} / {nf['p95']:.3f} | "
        f"{u['ece']:.3f} | – | **{i['pooled']['ece']:.3f}** | {i['shape']['ece']:.3f} | – | – | "
        f"{u['brier']:.3f} | – | {i['pooled']['brier']:.3f} | – |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Calibration benchmark (ECE / Brier).")
    parser.add_argument("--scores", type=Path, default=DEFAULT_SCORES)
    parser.add_argument("--synthetic", action="store_true", help="use generated scores")
    parser.add_argument("--benchdata", type=Path, default=DEFAULT_BENCHDATA)
    parser.add_argument("--out", type=Path, default=RESULTS / "calibration.json")
    args = parser.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.synthetic:
        rows, source, rule = synthetic_rows(), "synthetic", ShapeRule()
    elif args.scores.exists():
        rows = load_scores(args.scores)
        if attach_shapes(rows, args.benchdata) < len(rows):
            print(f"some ids are missing from {args.benchdata}")
            return 2
        final = (args.scores.parent / "DETECTION_FINAL").exists()
        source = f"{args.scores.name} ({'final' if final else 'preliminary'})"
        rule = SHIPPED_RULE
    else:
        print(f"no scores at {args.scores}; run the detection benchmark or pass --synthetic")
        return 2
    result = run(rows, rule)
    result["source"] = source
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"source: {source}")
    print(table(result))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
