"""The gate's own Python on record rows: the time left when both models' answers are cached.

Each row of the hand-written record and tool-result sets in ``tests/data`` is graded once (to
fill the embedder's and the verifier's caches), then again, timed: what the second pass takes is
the rules (claims, the record's fields, the checks, the aggregation), not the models. To compare
two commits, run it from each checkout in turn, alternating, on one machine:

    python benchmarks/bench_record_rules.py --rows 50
    python benchmarks/bench_record_rules.py --rows 50 --code ../other-checkout

Prints one JSON line: the code it imported, the rows, the total and the median seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = (
    "record_idioms.jsonl",
    "record_guides.jsonl",
    "tool_results_dev.jsonl",
    "tool_results_dev2.jsonl",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=50, help="first rows of each file")
    ap.add_argument("--code", type=Path, default=ROOT, help="checkout whose package is timed")
    args = ap.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    gate = HallucinationMonitor()
    rows = []
    for name in FILES:
        lines = (ROOT / "tests" / "data" / name).read_text(encoding="utf-8").splitlines()
        rows += [json.loads(line) for line in lines if line.strip()][: args.rows]

    def evidence(row: dict) -> str:
        return json.dumps(row["record"]) if "record" in row else str(row["context"])

    for row in rows:  # the models' answers, cached
        gate.verify_grounding(row["response"], evidence(row))
    times = []
    for row in rows:
        start = time.perf_counter()
        gate.verify_grounding(row["response"], evidence(row))
        times.append(time.perf_counter() - start)
    print(
        json.dumps(
            {
                "code": str(args.code),
                "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                "load_average_start": round(os.getloadavg()[0], 2),
                "rows": len(rows),
                "total_s": round(sum(times), 3),
                "p50_ms": round(statistics.median(times) * 1000, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
