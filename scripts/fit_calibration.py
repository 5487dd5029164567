"""Fit the shipped calibration map: grounding score -> P(output is supported).

Reads the per-item scores written by the detection benchmark
(``benchmarks/results/detection_scores.jsonl``: ``{"id", "dataset", "label", "score",
"split"}``, label 1 = hallucinated), fits on the rows whose split is ``"fit"`` (all five
development files pooled) and writes ``langchain_qgate/data/calibration_default.json``.

By default one map per output shape (an answer to a question, or output length short / medium
/ long x evidence size small / mid / large, see ``langchain_qgate.calibration.task_shape``) is
fitted next to the pooled map (shapes with too few rows use the pooled map); the shape comes
from the development file's row (joined on id). ``--pooled`` fits the pooled map only.

Usage:
    python scripts/fit_calibration.py [--scores PATH] [--out PATH] [--method auto|isotonic|platt]
        [--pooled] [--benchdata DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable without an editable install
    sys.path.insert(0, str(ROOT))

from langchain_qgate._splits import split_of  # noqa: E402
from langchain_qgate.calibration import ConfidenceCalibrator  # noqa: E402

DEFAULT_SCORES = ROOT / "benchmarks" / "results" / "detection_scores.jsonl"
DEFAULT_OUT = ROOT / "langchain_qgate" / "data" / "calibration_default.json"
DEFAULT_BENCHDATA = Path(os.environ.get("QGATE_BENCHDATA", ROOT.parent / "shared" / "benchdata"))


def evidence_chunks(context: str) -> int:
    """Evidence chunks of a context (sentences with a letter or digit, as the evidence index)."""
    from langchain_qgate.grounding.segment import split_sentences

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scores", type=Path, default=DEFAULT_SCORES)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--method", choices=["auto", "isotonic", "platt"], default="auto")
    parser.add_argument("--benchdata", type=Path, default=DEFAULT_BENCHDATA)
    parser.add_argument(
        "--pooled", action="store_true", help="one map for every output shape (no per-shape maps)"
    )
    args = parser.parse_args(argv)
    if not args.scores.exists():
        print(
            f"no scores file at {args.scores}; run the detection benchmark first", file=sys.stderr
        )
        return 2
    rows = load_scores(args.scores)
    by_shape = not args.pooled
    if by_shape and attach_shapes(rows, args.benchdata) < len(rows):
        print(f"some ids not found in {args.benchdata}; per-shape maps need them", file=sys.stderr)
        return 2
    fit = records(rows, split="fit")
    per = Counter(r["dataset"] for r in rows if r["split"] == "fit")
    final = (args.scores.parent / "DETECTION_FINAL").exists()
    desc = f"{args.scores.name} ({'final' if final else 'preliminary'}), fit split of " + ", ".join(
        f"{d} ({n})" for d, n in sorted(per.items())
    )
    cal = ConfidenceCalibrator(None)
    cmap = cal.fit(fit, method=args.method, by_shape=by_shape, fitted_on=desc)
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
