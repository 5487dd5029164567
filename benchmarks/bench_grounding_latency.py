"""Latency of the hallucination monitor on this machine (no timed asserts anywhere else).

Measures, with the real bundled model on the CPU:
- cold start: a fresh process that imports the package and produces its first verdict, with
  the ONNX export already cached (every run after the first) and on first use ever (empty
  cache folder: the export is part of it);
- warm, evidence NOT cached: median/p95 seconds per SummEdits item (the embedding cache is
  cleared before each item), on the default ONNX Runtime backend and on PyTorch;
- warm, evidence cached: a 6-claim answer re-checked against the same evidence;
- scaling: one claim against 100 / 1,000 / 10,000 evidence chunks (index build + search).

Run: OMP_NUM_THREADS=2 python benchmarks/bench_grounding_latency.py [--items 200]
Writes benchmarks/results/grounding_latency.json, with the torch thread count and the load
average before and after (other jobs on a 2-core machine make every figure slower; with two
torch threads and a busy machine, OpenMP threads wait on each other and latency jumps).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import torch  # noqa: E402

from langchain_qgate.config import GroundingPolicy  # noqa: E402
from langchain_qgate.evaluation import load_rows  # noqa: E402
from langchain_qgate.grounding.evidence.embeddings import default_embedder  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402

DATA = ROOT.parent / "shared" / "benchdata"
OUT = ROOT / "benchmarks" / "results" / "grounding_latency.json"

COLD = """
import time; t0 = time.perf_counter()
from langchain_qgate.grounding import HallucinationMonitor
m = HallucinationMonitor()
r = m.verify_grounding("Acme was founded in 2019.", ["Acme was founded in 2020 in Berlin."])
t1 = time.perf_counter()
print(round(t1 - t0, 3), r.verdicts[0].grade.value, m.embedder.inner.backend)
"""

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


def pct(values: list[float], q: float) -> float:
    return round(statistics.quantiles(values, n=100)[int(q) - 1], 4) if len(values) > 2 else 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=200, help="SummEdits items for the warm run")
    args = ap.parse_args()
    result: dict[str, object] = {
        "machine": (
            f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        ),
        "command": (
            f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '')} "
            f"python benchmarks/bench_grounding_latency.py --items {args.items}"
        ),
        "torch_threads": torch.get_num_threads(),
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }

    def cold_start(env: dict[str, str]) -> tuple[float, str]:
        out = subprocess.run(
            [sys.executable, "-c", COLD],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, **env},
        ).stdout.split()
        return float(out[0]), out[2]

    cold_start({})  # make sure the export is cached
    result["cold_start_s"], result["backend"] = cold_start({})
    with tempfile.TemporaryDirectory() as empty:
        result["cold_start_first_use_s"], _ = cold_start({"QGATE_CACHE_DIR": empty})

    every = load_rows(DATA / "summedits.jsonl", split="report")
    rows = every[:: max(1, len(every) // args.items)][: args.items]  # spread over all domains
    for backend in ("onnx", "torch"):
        mon = HallucinationMonitor(policy=GroundingPolicy(embedding_backend=backend))
        mon.verify_grounding("warm up.", ["warm up."])
        times = []
        for r in rows:
            mon.embedder.clear()  # type: ignore[attr-defined]
            t0 = time.perf_counter()
            mon.verify_grounding(r.response, r.context)
            times.append(time.perf_counter() - t0)
        key = "summedits_uncached" if backend == "onnx" else "summedits_uncached_torch"
        result[key] = {
            "backend": backend,
            "items": len(times),
            "median_s": round(statistics.median(times), 4),
            "p95_s": pct(times, 95),
            "mean_context_chars": round(statistics.mean(len(r.context) for r in rows)),
        }

    monitor = HallucinationMonitor()
    emb = default_embedder()

    index = monitor.build_index(EVIDENCE)
    monitor.verify_grounding(SIX_CLAIMS, index)
    cached = []
    for _ in range(50):
        t0 = time.perf_counter()
        rep = monitor.verify_grounding(SIX_CLAIMS, EVIDENCE)
        cached.append(time.perf_counter() - t0)
    result["six_claims_cached"] = {
        "claims": len(rep.verdicts),
        "runs": len(cached),
        "median_s": round(statistics.median(cached), 4),
        "p95_s": pct(cached, 95),
    }

    scaling = {}
    for n in (100, 1_000, 10_000):
        docs = [
            f"Record {i}: customer C{i} bought {i % 97} units of product P{i % 13} in "
            f"{2000 + i % 25}."
            for i in range(n)
        ]
        emb.clear()
        t0 = time.perf_counter()
        idx = monitor.build_index(docs)
        idx.vectors  # noqa: B018 - embeds and builds the index
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        monitor.verify_grounding("Customer C42 bought 42 units of product P3 in 2017.", idx)
        scaling[str(n)] = {
            "build_s": round(built, 3),
            "verify_s": round(time.perf_counter() - t0, 4),
        }
    result["evidence_scaling"] = scaling
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]

    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
