"""Calibration benchmark: ECE / Brier of the grounding score before and after calibration.

For each development file, on its ``report`` split:

* **uncalibrated**: the grounding score used as P(supported);
* **in-distribution**: the isotonic map fitted on the ``fit`` split of all five files pooled
  (what ``scripts/fit_calibration.py`` ships);
* **leave-one-dataset-out (LODO)**: the map fitted on the ``fit`` split of the *other* four
  files, i.e. what a user with a new kind of data sees before calling ``fit``.

Platt scaling is reported next to isotonic. Input is the detection benchmark's per-item scores
(``benchmarks/results/detection_scores.jsonl``); ``--synthetic`` runs on generated scores to
exercise the pipeline. Writes ``benchmarks/results/calibration.json`` and a reliability diagram
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

from fit_calibration import DEFAULT_SCORES, load_scores, records  # noqa: E402

from langchain_qgate._splits import split_of  # noqa: E402
from langchain_qgate.calibration import (  # noqa: E402
    CalibrationMap,
    ConfidenceCalibrator,
    brier_score,
    expected_calibration_error,
)

RESULTS = ROOT / "benchmarks" / "results"


def synthetic_rows(seed: int = 0) -> list[dict]:
    """Five fake datasets whose P(supported | score) differs (a stand-in for real scores)."""
    rng = random.Random(seed)
    rows = []
    for k, (name, n, power) in enumerate(
        [("a", 2000, 2.0), ("b", 4000, 1.5), ("c", 700, 1.0), ("d", 850, 2.5), ("e", 1000, 1.2)]
    ):
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
                }
            )
    return rows


def metrics(cmap: CalibrationMap | None, recs: list[tuple]) -> dict:
    x = [s for s, _ in recs]
    y = [c for _, c in recs]
    p = cmap.apply_many(x) if cmap is not None else x
    return {"ece": expected_calibration_error(p, y), "brier": brier_score(p, y)}


def fit(recs: list[tuple], method: str) -> CalibrationMap:
    return ConfidenceCalibrator(None).fit(recs, method=method)  # type: ignore[arg-type]


def run(rows: list[dict]) -> dict:
    datasets = sorted({r["dataset"] for r in rows})
    pooled = {m: fit(records(rows, split="fit"), m) for m in ("isotonic", "platt")}
    out: dict = {"datasets": {}, "pooled": {}}
    for d in datasets:
        rep = records(rows, split="report", datasets={d})
        others = set(datasets) - {d}
        lodo = {m: fit(records(rows, split="fit", datasets=others), m) for m in pooled}
        out["datasets"][d] = {
            "n_report": len(rep),
            "supported_rate": sum(c for _, c in rep) / max(1, len(rep)),
            "uncalibrated": metrics(None, rep),
            "in_distribution": {m: metrics(pooled[m], rep) for m in pooled},
            "lodo": {m: metrics(lodo[m], rep) for m in lodo},
        }
    rep_all = records(rows, split="report")
    out["pooled"] = {
        "n_fit": len(records(rows, split="fit")),
        "n_report": len(rep_all),
        "uncalibrated": metrics(None, rep_all),
        "in_distribution": {m: metrics(pooled[m], rep_all) for m in pooled},
    }
    try:
        cal = ConfidenceCalibrator(pooled["isotonic"])
        cal.report(rep_all, plot_path=RESULTS / "calibration_reliability.png")
        out["reliability_png"] = "benchmarks/results/calibration_reliability.png"
    except ImportError:
        out["reliability_png"] = None
    return out


def table(result: dict) -> str:
    head = (
        "| dataset | n (report) | ECE raw | ECE in-dist | ECE LODO | Brier raw | Brier in-dist "
        "| Brier LODO | ECE in-dist (Platt) | ECE LODO (Platt) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    for d, r in result["datasets"].items():
        u, i, lo = r["uncalibrated"], r["in_distribution"], r["lodo"]
        lines.append(
            f"| {d} | {r['n_report']} | {u['ece']:.3f} | {i['isotonic']['ece']:.3f} | "
            f"{lo['isotonic']['ece']:.3f} | {u['brier']:.3f} | {i['isotonic']['brier']:.3f} | "
            f"{lo['isotonic']['brier']:.3f} | {i['platt']['ece']:.3f} | {lo['platt']['ece']:.3f} |"
        )
    p = result["pooled"]
    lines.append(
        f"| **all (pooled)** | {p['n_report']} | {p['uncalibrated']['ece']:.3f} | "
        f"{p['in_distribution']['isotonic']['ece']:.3f} | – | {p['uncalibrated']['brier']:.3f} | "
        f"{p['in_distribution']['isotonic']['brier']:.3f} | – | "
        f"{p['in_distribution']['platt']['ece']:.3f} | – |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Calibration benchmark (ECE / Brier).")
    parser.add_argument("--scores", type=Path, default=DEFAULT_SCORES)
    parser.add_argument("--synthetic", action="store_true", help="use generated scores")
    parser.add_argument("--out", type=Path, default=RESULTS / "calibration.json")
    args = parser.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.synthetic:
        rows, source = synthetic_rows(), "synthetic"
    elif args.scores.exists():
        rows = load_scores(args.scores)
        final = (args.scores.parent / "DETECTION_FINAL").exists()
        source = f"{args.scores.name} ({'final' if final else 'preliminary'})"
    else:
        print(f"no scores at {args.scores}; run the detection benchmark or pass --synthetic")
        return 2
    result = run(rows)
    result["source"] = source
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"source: {source}")
    print(table(result))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
