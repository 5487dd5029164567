"""What the learned pair model costs, side by side with the rules alone, in one run.

On the same hash-chosen, label-balanced ``report`` rows of every dev file (as
``qgate bench detection --split report --limit N`` picks them), item by item with the order
rotating, it times:

- ``rules``: ``HallucinationMonitor(policy=GroundingPolicy(pair_model=None))``, the verdict
  without the pair model (the embedder and the rules, with the rules-only combination);
- ``verifier``: ``HallucinationMonitor()``, the default (embedder, rules and the shipped pair
  model).

Neither has the evidence or the pairs cached (both caches are cleared before each item). Per
file: median and p95 seconds per item and the ratio of the medians; over all items too. Also:
the pair model's file size, the cold load of the pair model in a fresh process (import, load,
first prediction), and the training time recorded in ``verifier.json``.

Run: python benchmarks/bench_verifier_cost.py --limit 100
Writes benchmarks/results/verifier_cost.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain_qgate.config import GroundingPolicy  # noqa: E402
from langchain_qgate.evaluation import load_rows  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402
from langchain_qgate.grounding.verifier.crossencoder import PairModel, default_pair_model  # noqa: E402

DATA = ROOT.parent / "shared" / "benchdata"
OUT = ROOT / "benchmarks" / "results" / "verifier_cost.json"

COLD = """
import time; t0 = time.perf_counter()
from langchain_qgate.grounding.verifier.crossencoder import PairModel
m = PairModel()
m.predict([("The museum is open on Mondays.", "The museum is closed on Mondays.")])
print(time.perf_counter() - t0)
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def load() -> float:
    return round(os.getloadavg()[0], 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, nargs="*", default=None)
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--json", type=Path, default=OUT)
    args = ap.parse_args()
    paths = args.data or sorted(DATA.glob("*.jsonl"))
    rules = HallucinationMonitor(policy=GroundingPolicy(pair_model=None))
    ours = HallucinationMonitor()
    for mon in (rules, ours):
        mon.verify_grounding("warm up.", ["warm up."])
    pair = ours.pair_model
    assert isinstance(pair, PairModel)
    systems = {"rules": rules, "verifier": ours}
    names = list(systems)
    result: dict[str, Any] = {
        "command": f"python benchmarks/bench_verifier_cost.py --limit {args.limit}",
        "machine": (
            f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        ),
        "load_average_start": load(),
        "files": {},
    }
    every: dict[str, list[float]] = {n: [] for n in names}
    for path in paths:
        rows = load_rows(path, limit=args.limit, split="report")
        times: dict[str, list[float]] = {n: [] for n in names}
        for k, row in enumerate(rows):
            turn = k % len(names)
            for name in names[turn:] + names[:turn]:
                mon = systems[name]
                mon.embedder.clear()  # type: ignore[attr-defined]  # evidence not cached
                pair.clear()
                t0 = time.perf_counter()
                mon.verify_grounding(row.response, row.context, question=row.question)
                times[name].append(time.perf_counter() - t0)
        entry: dict[str, Any] = {"items": len(rows), "load_average_end": load()}
        for name in names:
            every[name].extend(times[name])
            entry[name] = {
                "median_s": round(statistics.median(times[name]), 4),
                "p95_s": round(pct(times[name], 95), 4),
            }
        entry["median_ratio"] = round(entry["verifier"]["median_s"] / entry["rules"]["median_s"], 2)
        result["files"][path.stem] = entry
        print(path.stem, json.dumps(entry), flush=True)
    result["all"] = {
        name: {
            "median_s": round(statistics.median(every[name]), 4),
            "p95_s": round(pct(every[name], 95), 4),
        }
        for name in names
    }
    result["all"]["median_ratio"] = round(
        result["all"]["verifier"]["median_s"] / result["all"]["rules"]["median_s"], 2
    )
    colds = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", COLD], capture_output=True, text=True, check=True, cwd=ROOT
        )
        colds.append(float(out.stdout.strip().splitlines()[-1]))
    model = default_pair_model()
    info = model.manifest
    result["pair_model"] = {
        "file_mb": round((model.folder / info.get("file", "model.onnx")).stat().st_size / 1e6, 1),
        "quantized": info.get("quantized"),
        "cold_load_s_median_of_3": round(statistics.median(colds), 3),
        "train_minutes": info.get("train_minutes"),
        "total_build_minutes": info.get("total_minutes"),
        "train_pairs": info.get("train_pairs"),
    }
    result["load_average_end"] = load()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print("| file | items | rules p50 s | verifier p50 s | ratio | rules p95 s | verifier p95 s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, e in [*result["files"].items(), ("all", {**result["all"], "items": ""})]:
        print(
            f"| {name} | {e['items']} | {e['rules']['median_s']} | {e['verifier']['median_s']} "
            f"| {e['median_ratio']} | {e['rules']['p95_s']} | {e['verifier']['p95_s']} |"
        )
    print(json.dumps(result["pair_model"]))


if __name__ == "__main__":
    main()
