"""Minimal pairs (issue 23): hand-written wrong and faithful claims, per family.

Every (evidence, claim) pair of ``tests/data/minimal_pairs.jsonl`` goes through
``HallucinationMonitor().verify_grounding(claim, [evidence], question=question)`` with the real
bundled model. Per family: n; the share not GROUNDED (some counted verdict INFERRED or
FABRICATED, or a contradiction; a wrong claim so graded is caught); the share contradicted; the
share GROUNDED or INFERRED (at least one claim extracted). Headline figures and targets (the
floors of ``benchmarks/check_figures.py``, ``minimal_pairs``): wrong claims caught >= 95%; swaps,
antonyms and negations contradicted >= 80%; faithful claims contradicted 0; faithful claims
GROUNDED or INFERRED >= 95%.

Run (about a minute on 2 cores):

    python benchmarks/bench_minimal_pairs.py --json benchmarks/results/minimal_pairs.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from benchmarks.check_figures import MINIMAL_PAIRS_TARGETS as TARGETS  # noqa: E402
from langchain_qgate.grounding.monitor import HallucinationMonitor  # noqa: E402
from tests.integration_tests.test_minimal_pairs import (  # noqa: E402
    CONTRADICTION_KINDS,
    DATA,
    grade_pair,
    load_pairs,
    shape_problems,
    summarise,
)

OUT = ROOT / "benchmarks" / "results" / "minimal_pairs.json"


def _mark(ok: bool) -> str:
    return "ok" if ok else "FAIL"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--json", type=Path, default=OUT, help=f"output (default {OUT})")
    ap.add_argument("--examples", type=int, default=3, help="failing pairs shown per family")
    args = ap.parse_args()
    pairs = load_pairs(args.data)
    for problem in shape_problems(pairs):
        print(f"DATA: {problem}")
    monitor = HallucinationMonitor()
    t0 = time.perf_counter()
    outcomes = [grade_pair(monitor, p) for p in pairs]
    seconds = time.perf_counter() - t0
    summary = summarise(outcomes)
    by_id = {p["id"]: p for p in pairs}

    print(
        f"{'family':24s} {'expected':>8s} {'n':>4s} {'not GROUNDED':>12s} {'contradicted':>12s}"
        f" {'GROUNDED/INFERRED':>17s}"
    )
    for family, f in summary["families"].items():
        print(
            f"{family:24s} {f['expected']:>8s} {f['n']:4d} {f['not_grounded']:12.1%}"
            f" {f['contradicted']:12.1%} {f['grounded_or_inferred']:17.1%}"
        )
        bad = [
            o
            for o in outcomes
            if o["family"] == family
            and (
                not o["caught"]
                if o["expected"] == "wrong"
                else o["contradicted"] or not o["supported"]
            )
        ]
        for o in bad[: args.examples]:
            note = o["reason"] or o["grades"]
            print(f"    {o['id']}: {by_id[o['id']]['claim'][:70]!r} -> {note[:70]}")

    caught, named = summary["wrong_caught"], summary["wrong_contradicted"]
    f_contra, f_supp = summary["faithful_contradicted"], summary["faithful_supported"]
    per_kind = ", ".join(
        f"{k} {summary['wrong_contradicted_by_kind'][k]:.1%}" for k in CONTRADICTION_KINDS
    )
    n_faithful = sum(1 for o in outcomes if o["expected"] == "faithful")
    print()
    print(f"pairs {len(outcomes)} ({n_faithful} faithful), {seconds:.1f} s")
    print(
        f"wrong claims caught (not GROUNDED):     {caught:6.1%}  target >= "
        f"{TARGETS['wrong_caught']:.0%}  {_mark(caught >= TARGETS['wrong_caught'])}"
    )
    print(
        f"swap/antonym/negation contradicted:     {named:6.1%}  target >= "
        f"{TARGETS['wrong_contradicted']:.0%}  {_mark(named >= TARGETS['wrong_contradicted'])}"
        f"  ({per_kind})"
    )
    print(
        f"faithful contradicted:                  {f_contra:6.1%}  target 0"
        f"  {_mark(f_contra <= TARGETS['faithful_contradicted'])}"
        f"  ({len(summary['failures']['faithful_contradicted'])} pairs)"
    )
    print(
        f"faithful GROUNDED or INFERRED:          {f_supp:6.1%}  target >= "
        f"{TARGETS['faithful_supported']:.0%}  {_mark(f_supp >= TARGETS['faithful_supported'])}"
    )

    out = {
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
        "command": " ".join(sys.argv),
        "data": str(args.data),
        "seconds": round(seconds, 1),
        "targets": TARGETS,
        **summary,
        "outcomes": outcomes,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
