"""Our monitor next to a purely lexical gate (``ancora-rag``), item by item, in one run.

For every dev file of ``../shared/benchdata`` it takes the same hash-chosen, label-balanced
``report`` rows as ``qgate bench detection --split report --limit N`` and, on each item in
turn (the order rotates from item to item), times:

- ``ours``: ``HallucinationMonitor().verify_grounding(response, context, question=...)`` with
  the default policy and the evidence NOT cached (the embedding cache is cleared first);
- ``ours_full``: the same with ``GroundingPolicy(prefilter_k=None)``: every evidence chunk is
  embedded (the slower version, for the AUROC comparison);
- ``ours_int8``: the default policy with ``embedding_quantized=True`` (int8 ONNX weights,
  opt-in);
- ``ancora``: ``ancora-rag``'s ``GroundingChecker().check_answer(response, chunks)`` on the
  context chunked by its own ``chunk_document`` (IDF coverage and a numeric guard).

Per file: median and p95 seconds per item for each system, the ratio of the medians, and the
AUROC of each (hallucinated = positive; ours: ``1 - report.score``; ancora: ``1 -`` the lowest
claim support, 0 for a claim with an unsupported number). Also: cold start (a fresh process
up to its first verdict) and that process's peak RSS for ours and for ancora, and the median
of a 6-claim answer re-checked against cached evidence (the retry loop's case).

``ancora-rag`` (MIT) is never a dependency of this package: install it anywhere, e.g.
``pip install --target /tmp/ancora_site ancora-rag==0.1.1``, and pass ``--ancora-path`` (or
set ``ANCORA_SITE``); the folder is put on ``sys.path`` only inside this script.

Run: python benchmarks/bench_speed_vs_lexical.py --limit 200 --ancora-path /tmp/ancora_site
Writes benchmarks/results/speed_vs_lexical.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from sklearn.metrics import roc_auc_score  # noqa: E402

from langchain_qgate.config import GroundingPolicy  # noqa: E402
from langchain_qgate.evaluation import BenchRow, load_rows  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402

DATA = ROOT.parent / "shared" / "benchdata"
OUT = ROOT / "benchmarks" / "results" / "speed_vs_lexical.json"

# The same answer and evidence as bench_grounding_latency.py (6 claims, evidence cached).
SIX_CLAIMS = (
    "Acme Corp was founded in 2020 in Berlin by Jane Doe. The company has 500 employees. "
    "In 2023 Acme reported revenue of $12M. Revenue grew 5% from 2022. "
    "Acme sells industrial robots. Its CEO is John Smith."
)
EVIDENCE = (
    "Acme Corp was founded in 2020 in Berlin by Jane Doe. The company has 500 employees. "
    "In 2023 Acme reported revenue of $10M, up 5% from 2022. Acme builds software for "
    "logistics companies and does not sell hardware. Jane Doe is the chief executive. "
) * 3

# Peak RSS is the child's own VmHWM: ru_maxrss survives exec on Linux, so a child forked from
# this (large) process would report the parent's peak.
PEAK_RSS = "int(next(ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')).split()[1])"

COLD_OURS = """
import time; t0 = time.perf_counter()
from langchain_qgate.grounding import HallucinationMonitor
r = HallucinationMonitor().verify_grounding(
    "Acme was founded in 2019.", ["Acme was founded in 2020 in Berlin."])
t1 = time.perf_counter()
print(round(t1 - t0, 3), PEAK_RSS, r.verdicts[0].grade.value)
"""

COLD_ANCORA = """
import sys, time; t0 = time.perf_counter()
sys.path.insert(0, {path!r})
from ancora import Document, GroundingChecker, chunk_document
chunks = chunk_document(Document("d", "Acme was founded in 2020 in Berlin."))
checks = GroundingChecker().check_answer("Acme was founded in 2019.", chunks)
t1 = time.perf_counter()
print(round(t1 - t0, 3), PEAK_RSS, checks[0].supported)
"""


def pct(values: list[float], q: int) -> float:
    """The ``q``-th percentile (statistics' inclusive method)."""
    if len(values) < 3:
        return max(values, default=0.0)
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def cold_start(code: str) -> dict[str, Any]:
    """A fresh interpreter up to its first verdict: seconds and peak RSS (MiB)."""
    out = subprocess.run(
        [sys.executable, "-c", code.replace("PEAK_RSS", PEAK_RSS)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout.split()
    return {"seconds": float(out[0]), "peak_rss_mib": round(int(out[1]) / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="+", default=sorted(DATA.glob("*.jsonl")))
    ap.add_argument("--limit", type=int, default=200, help="report rows per file (balanced)")
    ap.add_argument("--ancora-path", default=os.environ.get("ANCORA_SITE", "/tmp/ancora_site"))
    ap.add_argument("--cold-runs", type=int, default=3, help="fresh processes per system")
    ap.add_argument("--json", type=Path, default=OUT)
    args = ap.parse_args()

    sys.path.insert(0, args.ancora_path)
    try:
        import ancora
        from ancora import Document, GroundingChecker, chunk_document
    except ImportError:
        sys.exit(
            f"ancora-rag not found in {args.ancora_path}: "
            "pip install --target /tmp/ancora_site ancora-rag==0.1.1"
        )

    result: dict[str, Any] = {
        "command": (
            f"python benchmarks/bench_speed_vs_lexical.py --limit {args.limit} "
            f"--ancora-path {args.ancora_path}"
        ),
        "machine": (
            f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.processor() or platform.system()}"
        ),
        "ancora_version": ancora.__version__,
        "load_average_start": load(),
    }
    ours = HallucinationMonitor()
    full = HallucinationMonitor(policy=GroundingPolicy(prefilter_k=None))
    int8 = HallucinationMonitor(policy=GroundingPolicy(embedding_quantized=True))
    checker = GroundingChecker()
    for mon in (ours, full, int8):
        mon.verify_grounding("warm up.", ["warm up."])
    checker.check_answer("warm up now.", chunk_document(Document("d", "warm up now.")))

    def run_ours(mon: HallucinationMonitor) -> Callable[[BenchRow], float]:
        def go(row: BenchRow) -> float:
            mon.embedder.clear()  # type: ignore[attr-defined]  # evidence not cached
            report = mon.verify_grounding(row.response, row.context, question=row.question)
            return 1.0 - report.score

        return go

    def run_ancora(row: BenchRow) -> float:
        checks = checker.check_answer(row.response, chunk_document(Document("d", row.context)))
        support = [0.0 if c.unsupported_numbers else c.support_score for c in checks]
        return 1.0 - min(support, default=1.0)

    systems: dict[str, Callable[[BenchRow], float]] = {
        "ours": run_ours(ours),
        "ours_full": run_ours(full),
        "ours_int8": run_ours(int8),
        "ancora": run_ancora,
    }
    names = list(systems)
    files: dict[str, Any] = {}
    for path in args.data:
        rows = load_rows(path, limit=args.limit, split="report")
        times: dict[str, list[float]] = {n: [] for n in names}
        risks: dict[str, list[float]] = {n: [] for n in names}
        load_before = load()
        for k, row in enumerate(rows):
            turn = k % len(names)
            for name in names[turn:] + names[:turn]:  # rotate the order item by item
                t0 = time.perf_counter()
                risk = systems[name](row)
                times[name].append(time.perf_counter() - t0)
                risks[name].append(risk)
        labels = [r.label for r in rows]
        entry: dict[str, Any] = {
            "items": len(rows),
            "mean_context_chars": round(statistics.mean(len(r.context) for r in rows)),
            "load_average": [load_before, load()],
        }
        for name in names:
            entry[name] = {
                "median_s": round(statistics.median(times[name]), 5),
                "p95_s": round(pct(times[name], 95), 5),
                "auroc": round(float(roc_auc_score(labels, risks[name])), 4),
            }
        entry["ratio_median"] = round(entry["ours"]["median_s"] / entry["ancora"]["median_s"], 1)
        for name in ("ours_full", "ours_int8"):
            entry[f"ratio_median_{name[5:]}"] = round(
                entry[name]["median_s"] / entry["ancora"]["median_s"], 1
            )
        files[path.stem] = entry
        print(path.stem, json.dumps(entry), file=sys.stderr, flush=True)
    result["files"] = files

    index = ours.build_index(EVIDENCE)
    ours.verify_grounding(SIX_CLAIMS, index)
    cached = []
    for _ in range(50):
        t0 = time.perf_counter()
        rep = ours.verify_grounding(SIX_CLAIMS, EVIDENCE)
        cached.append(time.perf_counter() - t0)
    result["six_claims_cached"] = {
        "claims": len(rep.verdicts),
        "median_ms": round(1000 * statistics.median(cached), 2),
        "p95_ms": round(1000 * pct(cached, 95), 2),
    }
    result["bench_process_peak_rss_mib"] = round(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
    )
    colds: dict[str, list[dict[str, Any]]] = {"ours": [], "ancora": []}
    for _ in range(args.cold_runs):  # alternate the two systems
        colds["ours"].append(cold_start(COLD_OURS))
        colds["ancora"].append(cold_start(COLD_ANCORA.format(path=args.ancora_path)))
    result["cold_start"] = {
        name: {
            "median_s": statistics.median(c["seconds"] for c in runs),
            "peak_rss_mib": max(c["peak_rss_mib"] for c in runs),
        }
        for name, runs in colds.items()
    }
    result["load_average_end"] = load()

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))


def table(result: dict[str, Any]) -> str:
    """The side-by-side markdown table."""
    lines = [
        "| file | items | ours median / p95 s | ancora median / p95 s | ratio | ours AUROC "
        "| all chunks embedded: median s, ratio, AUROC | int8 (opt-in): median s, ratio, AUROC "
        "| ancora AUROC | load avg |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, e in result["files"].items():
        o, a, f, q = e["ours"], e["ancora"], e["ours_full"], e["ours_int8"]
        lines.append(
            f"| {name} | {e['items']} | {o['median_s']:.4f} / {o['p95_s']:.4f} "
            f"| {a['median_s']:.4f} / {a['p95_s']:.4f} | {e['ratio_median']} | {o['auroc']:.4f} "
            f"| {f['median_s']:.4f}, {e['ratio_median_full']}, {f['auroc']:.4f} "
            f"| {q['median_s']:.4f}, {e['ratio_median_int8']}, {q['auroc']:.4f} "
            f"| {a['auroc']:.4f} | {e['load_average'][0][0]}-{e['load_average'][1][0]} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
