"""Record scaling (issue 48 item 9): CPU seconds of a claim that names no record against a
table with a closed-vocabulary field, as the table grows.

Such a claim is about every record, so it is read against every field; the reads of a
closed vocabulary (``status``, ``carrier``) used to re-tokenise every value of the table for
each field (quadratic: 200 / 400 / 800 records took 1.0 / 2.9 / 8.8 s, 1,000 five-field
records 122 s). Now each distinct value is tokenised once and each vocabulary read is made
once per claim (``_record_words.RecordValues``).

Rows: 200, 400, 800, 1,000 and 1,600 orders of ``{"order_id", "total", "status"}``, and
500 and 1,000 orders of five fields (``customer`` and ``carrier`` added); a larger table is
cut at 5,000 fields (``_flatten.MAX_FIELDS``, noted in the report). Per row, CPU seconds
(``time.process_time``, median of ``--repeats`` runs, each on a new index) of:

- ``decide``: the typed field decisions alone (``fields.decide_claims``) for the answer's
  claims, on a new index built before the clock starts (reading the table's fields once per
  index is counted);
- ``verify``: ``HallucinationMonitor.verify_grounding`` end to end (index, prefilter,
  embeddings, pair model, field decisions) with the bundled model, or the hashing embedder
  with ``--embedder hashing``. The model is loaded before the clock starts.

``growth`` is the CPU time per record of each row over that of the smallest row of the same
shape (1.0 is linear). ``--compare FILE`` puts the rows of an earlier run (the same script
on older code) beside these, as ``before``.

Run: OMP_NUM_THREADS=2 python benchmarks/bench_record_scaling.py [--embedder hashing]
Writes benchmarks/results/record_scaling.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain_qgate.grounding.claims.claims import extract_claims  # noqa: E402
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402
from langchain_qgate.grounding.records.fields import decide_claims  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "record_scaling.json"
ANSWER = "The order was shipped. It was sent with UPS and is still in transit."
ROWS = [(200, 3), (400, 3), (800, 3), (1_000, 3), (1_600, 3), (500, 5), (1_000, 5)]
"""(records, fields per record); at most 5,000 fields, the most one source is read to."""
_STATUS = ("shipped", "delivered", "pending", "cancelled", "in transit")
_CARRIERS = ("UPS", "DHL", "FedEx", "Royal Mail")


def orders(n: int, fields: int) -> dict[str, list[dict[str, Any]]]:
    """``n`` orders with ``fields`` fields (3: id, total, status; 5: customer, carrier too)."""
    out: list[dict[str, Any]] = []
    for i in range(n):
        row: dict[str, Any] = {"order_id": 10_000 + i}
        if fields >= 5:
            row["customer"] = f"Customer {i:05d}"
        row["total"] = round(12.5 + (i * 7.31) % 480, 2)
        row["status"] = _STATUS[i % len(_STATUS)]
        if fields >= 5:
            row["carrier"] = _CARRIERS[i % len(_CARRIERS)]
        out.append(row)
    return {"orders": out}


def _cpu(run: Callable[[Any], object], setup: Callable[[], Any], repeats: int) -> float:
    """Median CPU seconds of ``run(setup())``, the setup outside the clock."""
    times = []
    for _ in range(repeats):
        arg = setup()
        start = time.process_time()
        run(arg)
        times.append(time.process_time() - start)
    return round(statistics.median(times), 3)


def measure(monitor: HallucinationMonitor, repeats: int, max_records: int) -> list[dict[str, Any]]:
    """One row per ``ROWS`` entry (up to ``max_records``): CPU seconds of ``decide`` and
    ``verify``."""
    claims = [c.text for c in extract_claims(ANSWER)]
    rows: list[dict[str, Any]] = []
    for n, width in ROWS:
        if n > max_records:
            continue
        data = orders(n, width)

        def index(data: Any = data) -> EvidenceIndex:
            return EvidenceIndex([data], embedder=monitor.embedder)

        def same(data: Any = data) -> Any:
            return data

        decide_s = _cpu(lambda idx: decide_claims(claims, idx), index, repeats)
        verify_s = _cpu(lambda d: monitor.verify_grounding(ANSWER, [d]), same, repeats)
        report = monitor.verify_grounding(ANSWER, [data])
        rows.append(
            {
                "records": n,
                "fields_per_record": width,
                "chunks": report.evidence_count,
                "decide_cpu_s": decide_s,
                "verify_cpu_s": verify_s,
                "grades": [v.grade.value for v in report.verdicts],
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    for row in rows:
        first = next(r for r in rows if r["fields_per_record"] == row["fields_per_record"])
        for key in ("decide_cpu_s", "verify_cpu_s"):
            per = row[key] / row["records"]
            base = first[key] / first["records"]
            row[f"{key[:-6]}_growth"] = round(per / base, 2) if base > 0 else None
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=("model", "hashing"), default="model")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-records", type=int, default=2_000, help="skip larger rows")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--compare", type=Path, help="an earlier results file (before)")
    args = parser.parse_args(argv)
    if args.embedder == "hashing":
        from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder

        monitor = HallucinationMonitor(embedder=HashingEmbedder())
    else:
        monitor = HallucinationMonitor()
    monitor.verify_grounding(ANSWER, [orders(5, 5)])  # load the models before the clock
    result: dict[str, Any] = {
        "answer": ANSWER,
        "embedder": args.embedder,
        "repeats": args.repeats,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "rows": measure(monitor, args.repeats, args.max_records),
    }
    if args.compare is not None:
        result["before"] = json.loads(args.compare.read_text())["rows"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
