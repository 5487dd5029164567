"""Structured evidence on real records (issue 24).

Two measurements, with the real bundled model:

1. ``--data e2e_structured_dev.jsonl`` (human-written descriptions of E2E restaurant records,
   the record given as JSON; label 1 where the dataset authors' re-annotation finds an added
   or changed attribute): per split, the share of faithful descriptions (label 0) with a
   FABRICATED claim, the share contradicted, the share of label-1 descriptions with a
   FABRICATED claim or a contradiction, and the AUROC of ``1 - score``. ``--list`` prints the
   label-0 rows with a contradiction and the label-1 rows graded all GROUNDED (the candidates
   for a wrong label; read them, they are not excluded).
2. ``--suite``: the hand-written real-format suite of ``tests/data/records_suite.jsonl``
   (``tests/unit_tests/test_records_suite.py``): faithful contradicted, swapped values named
   with their field, booleans in both polarities right, per family.

Run from the project root:

    python benchmarks/bench_records.py --data ../shared/benchdata/e2e_structured_dev.jsonl \
        --split report --suite --json benchmarks/results/records.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain_qgate.config import DEFAULT_RECORD_VOCABULARIES, GroundingPolicy  # noqa: E402
from langchain_qgate.evaluation import binary_metrics, load_rows  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402
from langchain_qgate.schemas import Grade  # noqa: E402


def run_rows(path: Path, split: str, monitor: HallucinationMonitor) -> dict[str, Any]:
    """Claim-level shares and the AUROC on one file's split."""
    rows = load_rows(path, split=split)
    labels: list[int] = []
    risks: list[float] = []
    fabricated = {0: 0, 1: 0}
    contradicted = {0: 0, 1: 0}
    count = {0: 0, 1: 0}
    listed: list[dict[str, Any]] = []
    for row in rows:
        report = monitor.verify_grounding(row.response, row.context)
        counted = [v for v in report.verdicts if v.counted]
        fab = any(v.grade == Grade.FABRICATED for v in counted)
        con = any(v.contradiction is not None for v in report.verdicts)
        labels.append(row.label)
        risks.append(1.0 - report.score)
        count[row.label] += 1
        fabricated[row.label] += fab
        contradicted[row.label] += con
        all_grounded = bool(counted) and all(v.grade == Grade.GROUNDED for v in counted)
        if (row.label == 0 and con) or (row.label == 1 and all_grounded):
            found = next((v.contradiction for v in report.verdicts if v.contradiction), None)
            listed.append(
                {
                    "id": row.id,
                    "label": row.label,
                    "record": row.context,
                    "response": row.response,
                    "contradiction": found.describe() if found is not None else None,
                }
            )
    n0, n1 = max(count[0], 1), max(count[1], 1)
    return {
        "rows": len(rows),
        "label0": count[0],
        "label1": count[1],
        "faithful_fabricated": fabricated[0] / n0,
        "faithful_contradicted": contradicted[0] / n0,
        "label1_flagged": fabricated[1] / n1,
        "label1_contradicted": contradicted[1] / n1,
        "auroc": binary_metrics(labels, risks, 0.4)["auroc"],
        "listed": listed,
    }


def run_suite(monitor: HallucinationMonitor) -> dict[str, Any]:
    from tests.unit_tests.test_records_suite import grade, load_pairs, summarise

    return summarise(grade(monitor, p) for p in load_pairs())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="*", type=Path, default=[])
    ap.add_argument("--split", choices=("report", "fit", "all"), default="report")
    ap.add_argument("--suite", action="store_true", help="also run the hand-written suite")
    ap.add_argument("--list", action="store_true", help="print the rows to re-read")
    ap.add_argument("--json", type=Path)
    ap.add_argument(
        "--vocabularies",
        nargs="+",
        default=None,
        help="GroundingPolicy.record_vocabularies (default: the policy's default domains)",
    )
    args = ap.parse_args()

    policy = GroundingPolicy(record_vocabularies=args.vocabularies or DEFAULT_RECORD_VOCABULARIES)
    monitor = HallucinationMonitor(policy=policy)
    out: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "load_average": os.getloadavg()[0],
        "split": args.split,
        "record_vocabularies": list(policy.record_vocabularies),
        "files": {},
    }
    t0 = time.perf_counter()
    for path in args.data:
        res = run_rows(path, args.split, monitor)
        # Only ids go to the JSON: the benchmark data stays outside the repository.
        out["files"][path.stem] = res | {
            "listed": [{"id": x["id"], "label": x["label"]} for x in res["listed"]]
        }
        print(
            f"{path.stem} ({args.split}, {res['label0']} faithful / {res['label1']} label 1): "
            f"faithful with a FABRICATED claim {res['faithful_fabricated']:.1%}, "
            f"faithful contradicted {res['faithful_contradicted']:.1%}, "
            f"label 1 flagged {res['label1_flagged']:.1%} "
            f"(contradicted {res['label1_contradicted']:.1%}), AUROC {res['auroc']:.3f}"
        )
        if args.list:
            for item in res["listed"]:
                print(f"  {item['id']} label={item['label']}: {item['response']}")
                print(f"      {item['record']}")
                if item["contradiction"]:
                    print(f"      -> {item['contradiction']}")
    if args.suite:
        suite = run_suite(monitor)
        out["suite"] = suite
        print(
            f"records suite: {suite['pairs']} pairs; faithful {suite['faithful']} contradicted "
            f"{suite['faithful_contradicted']:.1%}, grounded {suite['faithful_grounded']:.1%}; "
            f"swapped {suite['swapped']} named with the field {suite['swapped_named']:.1%}; "
            f"booleans {suite['boolean']} right {suite['boolean_right']:.1%}"
        )
        for family, c in suite["families"].items():
            print(f"  {family:24s} {c['right']}/{c['n']}")
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(f"{out['seconds']} s, load average at start {out['load_average']:.1f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
