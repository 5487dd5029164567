"""A sentence copied from the evidence is never contradicted: every dev context, every sentence.

For each distinct context of each dev file, every evidence sentence (4+ words) is checked
against its own context as written and in three restatements (a discourse word in front, the
subject replaced by a pronoun or a fuller name, figures written another way); see
``langchain_qgate.evaluation.copied_sentence_variants``. Targets: zero contradictions, and at
least 99% of variants with every counted claim GROUNDED.

Run (real bundled model; the whole corpus takes a while on 2 cores):

    python benchmarks/bench_copied_sentences.py --data ../shared/benchdata/*.jsonl \
        --json benchmarks/results/copied_sentences.json
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from langchain_qgate.evaluation import load_rows, run_copied_sentences
from langchain_qgate.grounding.monitor import HallucinationMonitor


def contexts_of(path: Path, limit: int | None) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for row in load_rows(path):
        seen.setdefault(row.context, row.id)
    items = [(rid, ctx) for ctx, rid in seen.items()]
    return items[:limit] if limit else items


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", type=Path, required=True)
    ap.add_argument("--contexts", type=int, default=None, help="at most this many per file")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    monitor = HallucinationMonitor()
    out: dict[str, object] = {
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
        "command": " ".join(sys.argv),
        "files": {},
    }
    print(
        f"{'file':24s} {'contexts':>8s} {'sentences':>9s}  variant: n / contradicted /"
        " all claims GROUNDED (of the variants with a claim)"
    )
    for path in args.data:
        t0 = time.perf_counter()
        ctxs = contexts_of(path, args.contexts)
        res = run_copied_sentences(ctxs, monitor)
        res["contexts"] = len(ctxs)
        res["seconds"] = round(time.perf_counter() - t0, 1)
        out["files"][path.stem] = res  # type: ignore[index]
        parts = []
        for k, v in res["variants"].items():
            graded = max(v["n"] - v["no_claims"], 1)
            parts.append(f"{k} {v['n']}/{v['contradicted']}/{v['grounded'] / graded:.1%}")
        print(f"{path.stem:24s} {len(ctxs):8d} {res['sentences']:9d}  " + "; ".join(parts))
        for ex in res["contradiction_examples"][:5]:
            print(f"    CONTRADICTED {ex['kind']}: {ex['variant'][:90]!r} -> {ex['reason'][:90]}")
        sys.stdout.flush()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
