"""Replies built on tool results of services other than restaurants (issue 45).

Two sets, graded by the default ``HallucinationMonitor()`` (bundled model and verifier):

1. ``--data .../sgd_records_dev.jsonl``: Schema-Guided Dialogue tool results of 16 services and
   the replies crowd workers wrote from them (label 1: one stated value changed in the
   record); per split, faithful replies with a FABRICATED claim, faithful replies contradicted,
   label-1 replies flagged (a FABRICATED claim) and named (a contradiction), and the AUROC of
   ``1 - score``.
2. ``tests/data/tool_results_written.jsonl`` (always): 286 hand-written replies to tool results
   of 13 services, written by a helper that had read no code (its README says how); per
   kind: contradicted, any claim FABRICATED, every claim GROUNDED, flagged (some claim not
   GROUNDED), and the AUROC over all rows. The set was read once, at its first measurement;
   nothing is tuned on it.
3. ``tests/data/tool_results_heldout.jsonl`` (always): 240 more, of 12 other services, written
   the same way by another helper (2026-11-30); the same table. Its first reading is recorded
   in BENCHMARKS.md; nothing is tuned on it either.
4. ``tests/data/tool_results_dev.jsonl`` (always): 120 faithful replies of 10 more services,
   written the same way and **read** while building (a development set); the same table.
5. ``tests/data/tool_results_dev2.jsonl`` (always): 160 replies (100 faithful, 60 with one
   changed value, wrong pick or added fact) of 10 more services, written the same way on
   2026-11-30 and read while building from its first reading on (a second development set).
6. ``tests/data/tool_results_dev3.jsonl`` (always): 160 more of 10 other services, the same mix
   as the second, written the same way on 2026-12-02; its first reading is recorded in
   BENCHMARKS.md, and it is read while building from then on (a third development set).

Run from the project root:

    python benchmarks/bench_tool_results.py --data ../shared/benchdata/sgd_records_dev.jsonl \\
        --split report --json benchmarks/results/tool_results.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain_qgate.evaluation import binary_metrics, load_rows  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402
from langchain_qgate.schemas import Grade, GroundingReport  # noqa: E402

WRITTEN = ROOT / "tests" / "data" / "tool_results_written.jsonl"
HELDOUT = ROOT / "tests" / "data" / "tool_results_heldout.jsonl"
DEV = ROOT / "tests" / "data" / "tool_results_dev.jsonl"  # faithful only, read while building
DEV2 = ROOT / "tests" / "data" / "tool_results_dev2.jsonl"  # both labels, read while building
DEV3 = ROOT / "tests" / "data" / "tool_results_dev3.jsonl"  # the same, from its first reading on


def _read(report: GroundingReport) -> dict[str, bool]:
    counted = [v for v in report.verdicts if v.counted]
    grounded = bool(counted) and all(v.grade is Grade.GROUNDED for v in counted)
    return {
        "contradicted": any(v.contradiction is not None for v in report.verdicts),
        "fabricated": any(v.grade is Grade.FABRICATED for v in counted),
        "all_grounded": grounded,
        "flagged": not grounded,
    }


def run_dialogue(path: Path, split: str, monitor: HallucinationMonitor) -> dict[str, Any]:
    """The shares of ``bench_records`` on the tool results of a dialogue file's split."""
    rows = load_rows(path, split=split)
    labels: list[int] = []
    risks: list[float] = []
    counts: dict[int, dict[str, int]] = {0: defaultdict(int), 1: defaultdict(int)}
    for row in rows:
        report = monitor.verify_grounding(row.response, row.context)
        read = _read(report)
        counts[row.label]["n"] += 1
        for k, v in read.items():
            counts[row.label][k] += v
        labels.append(row.label)
        risks.append(1.0 - report.score)
    metrics = binary_metrics(labels, risks, 0.5)
    n0, n1 = counts[0]["n"], counts[1]["n"]
    return {
        "file": path.name,
        "split": split,
        "faithful": n0,
        "changed": n1,
        "faithful_fabricated": counts[0]["fabricated"] / n0,
        "faithful_contradicted": counts[0]["contradicted"] / n0,
        "changed_flagged": counts[1]["fabricated"] / n1,
        "changed_named": counts[1]["contradicted"] / n1,
        "auroc": metrics["auroc"],
    }


def run_written(monitor: HallucinationMonitor, path: Path = WRITTEN) -> dict[str, Any]:
    """Per kind (and label, for list picks) of a hand-written set, and the AUROC."""
    by_kind: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    labels: list[int] = []
    risks: list[float] = []
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    for r in rows:
        report = monitor.verify_grounding(r["response"], r["context"], question=r.get("question"))
        kind = f"{r['meta']['kind']} (label {r['label']})"
        by_kind[kind]["n"] += 1
        for k, v in _read(report).items():
            by_kind[kind][k] += v
        labels.append(int(r["label"]))
        risks.append(1.0 - report.score)
    table = {
        kind: {"n": c["n"], **{k: c[k] / c["n"] for k in c if k != "n"}}
        for kind, c in sorted(by_kind.items())
    }
    auroc = binary_metrics(labels, risks, 0.5)["auroc"] if len(set(labels)) > 1 else None
    return {"kinds": table, "auroc": auroc}  # None: one label only (the dev set)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, nargs="*", default=[])
    ap.add_argument("--split", choices=["report", "fit"], default="report")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    monitor = HallucinationMonitor()
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    out: dict[str, Any] = {"dialogue": [], "machine": platform.platform(), "load_at_start": load}
    for path in args.data:
        res = run_dialogue(path, args.split, monitor)
        out["dialogue"].append(res)
        print(
            f"{res['file']} ({res['split']}, {res['faithful']} faithful / {res['changed']} "
            f"changed): faithful FABRICATED {res['faithful_fabricated']:.1%}, contradicted "
            f"{res['faithful_contradicted']:.1%}; changed flagged {res['changed_flagged']:.1%}, "
            f"named {res['changed_named']:.1%}; AUROC {res['auroc']:.3f}"
        )
    sets = (
        ("written", WRITTEN),
        ("heldout", HELDOUT),
        ("dev", DEV),
        ("dev2", DEV2),
        ("dev3", DEV3),
    )
    for name, path in sets:
        written = run_written(monitor, path)
        out[name] = written
        auroc = "n/a (one label)" if written["auroc"] is None else f"{written['auroc']:.3f}"
        print(f"\n{path.name}: AUROC {auroc}")
        print("| kind | n | contradicted | a claim FABRICATED | all GROUNDED | flagged |")
        print("|---|---:|---:|---:|---:|---:|")
        for kind, row in written["kinds"].items():
            print(
                f"| {kind} | {row['n']} | {row['contradicted']:.1%} | {row['fabricated']:.1%} "
                f"| {row['all_grounded']:.1%} | {row['flagged']:.1%} |"
            )
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(f"\n{out['seconds']} s, load average at start {load:.1f}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
