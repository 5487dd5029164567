"""The default gate next to one MiniLM pass over its input, item by item, in one run.

Issue 47's cost target: the gate's median time per answer at most 1.5x the time of reading
the input once, that is one pass of the bundled embedder (all-MiniLM-L6-v2 on ONNX Runtime,
the one the gate uses) over every sentence of the evidence and of the answer, in one batch.

On the same hash-chosen, label-balanced ``report`` rows of every dev file (as
``qgate bench detection --split report --limit N`` picks them), with the order rotating from
item to item, it times:

- ``one_pass``: split evidence and answer into sentences (``split_sentences``) and embed them
  all (``embedder.embed``), nothing cached;
- ``gate``: ``HallucinationMonitor().verify_grounding(response, context, question=...)`` with
  the default policy; the embedding and verifier caches cleared before each item.

Per file and over all items: median and p95 seconds, and the ratio of the medians. Also the
verifier's share of the gate's time (its ``predict`` calls, timed inside the same run) and the
number of pairs it scores per item, so a change can be traced to its part.

Run: python benchmarks/bench_gate_vs_one_pass.py --limit 60
Writes benchmarks/results/gate_vs_one_pass.json and prints a markdown table.
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain_qgate.evaluation import load_rows  # noqa: E402
from langchain_qgate.grounding.claims.segment import split_sentences  # noqa: E402
from langchain_qgate.grounding.evidence.evidence import content_to_text  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402
from langchain_qgate.grounding.verifier.crossencoder import PairModel  # noqa: E402

DATA = ROOT.parent / "shared" / "benchdata"
OUT = ROOT / "benchmarks" / "results" / "gate_vs_one_pass.json"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)] or [text]


class _Timed:
    """Wraps a pair model's ``predict`` to add up its time and its pairs."""

    def __init__(self, model: PairModel) -> None:
        self.model = model
        self.inner = model.predict
        self.seconds = 0.0
        self.pairs = 0
        model.predict = self  # type: ignore[method-assign]

    def __call__(self, pairs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self.inner(pairs)
        finally:
            self.seconds += time.perf_counter() - t0
            self.pairs += len(pairs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, nargs="*", default=None)
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--json", type=Path, default=OUT)
    args = ap.parse_args()
    paths = args.data or sorted(DATA.glob("*.jsonl"))
    gate = HallucinationMonitor()
    gate.verify_grounding("warm up.", ["warm up."])
    embedder = gate.embedder
    pair = gate.pair_model
    assert isinstance(pair, PairModel)
    timed = _Timed(pair)

    def one_pass(row: Any) -> None:
        chunks = row.context if isinstance(row.context, list) else [row.context]
        texts = [s for c in chunks for s in sentences(content_to_text(c))]
        embedder.embed([*texts, *sentences(row.response)])

    def check(row: Any) -> None:
        gate.verify_grounding(row.response, row.context, question=row.question)

    systems = {"one_pass": one_pass, "gate": check}
    names = list(systems)
    result: dict[str, Any] = {
        "command": f"python benchmarks/bench_gate_vs_one_pass.py --limit {args.limit}",
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "load_average_start": round(os.getloadavg()[0], 2),
        "files": {},
    }
    every: dict[str, list[float]] = {n: [] for n in names}
    verifier_s: list[float] = []
    pairs_n: list[int] = []
    for path in paths:
        rows = load_rows(path, limit=args.limit, split="report")
        times: dict[str, list[float]] = {n: [] for n in names}
        v_share: list[float] = []
        for k, row in enumerate(rows):
            turn = k % len(names)
            for name in names[turn:] + names[:turn]:
                embedder.clear()  # type: ignore[attr-defined]
                pair.clear()
                timed.seconds, timed.pairs = 0.0, 0
                t0 = time.perf_counter()
                systems[name](row)
                times[name].append(time.perf_counter() - t0)
                if name == "gate":
                    v_share.append(timed.seconds)
                    verifier_s.append(timed.seconds)
                    pairs_n.append(timed.pairs)
        entry: dict[str, Any] = {"items": len(rows)}
        for name in names:
            every[name].extend(times[name])
            entry[name] = {
                "median_s": round(statistics.median(times[name]), 4),
                "p95_s": round(pct(times[name], 95), 4),
            }
        entry["median_ratio"] = round(entry["gate"]["median_s"] / entry["one_pass"]["median_s"], 2)
        entry["verifier_median_s"] = round(statistics.median(v_share), 4)
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
        result["all"]["gate"]["median_s"] / result["all"]["one_pass"]["median_s"], 2
    )
    result["all"]["verifier_median_s"] = round(statistics.median(verifier_s), 4)
    result["all"]["verifier_pairs_median"] = statistics.median(pairs_n)
    result["load_average_end"] = round(os.getloadavg()[0], 2)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print("| file | items | one pass p50 s | gate p50 s | ratio | verifier p50 s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, e in [*result["files"].items(), ("all", {**result["all"], "items": ""})]:
        print(
            f"| {name} | {e['items']} | {e['one_pass']['median_s']} | {e['gate']['median_s']} "
            f"| {e['median_ratio']} | {e['verifier_median_s']} |"
        )


if __name__ == "__main__":
    main()
