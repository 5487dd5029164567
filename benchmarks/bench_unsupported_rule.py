"""How often "most of its words are in no passage" fires, on the fit halves only (issue 48).

For each prose file, a label-balanced sample of the fit half (160 rows) is prepared by the
monitor, and each reading of the rule is counted on correct (label 0) and wrong (label 1) rows:
a row counts when one of its claims meets the rule. The report halves are never read. The
shipped rule also asks that the claim name something or state a figure
(``monitor._checkable``), which can only narrow the shipped row further.

    python benchmarks/bench_unsupported_rule.py --data ../shared/benchdata
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

FILES = ["factcheck_gpt_stance", "wice_dev", "summedits", "fever_symmetric_dev", "halueval_qa"]
Signals = dict[str, Any]
RULES: dict[str, Callable[[Signals], bool]] = {
    "first reading: one passage holds < 50% and P(entailed) < 0.5": lambda c: (
        c["coverage_best"] < 0.5 and c["pair_entailed"] < 0.5
    ),
    "shipped: coverage_all < 0.35 and P(entailed) < 0.05": lambda c: (
        c["coverage_all"] < 0.35 and c["pair_entailed"] < 0.05
    ),
    "tried: or best passage < 0.25 with 0.5 more elsewhere": lambda c: (
        (c["coverage_all"] < 0.35 and c["pair_entailed"] < 0.05)
        or (
            c["coverage_best"] < 0.25
            and c["coverage_all"] - c["coverage_best"] >= 0.5
            and c["pair_entailed"] < 0.1
        )
    ),
}


def signals(data: Path, per_file: int) -> list[dict[str, Any]]:
    from langchain_qgate import HallucinationMonitor
    from langchain_qgate.evaluation import load_rows

    monitor = HallucinationMonitor()
    out = []
    for name in FILES:
        for row in load_rows(data / f"{name}.jsonl", split="fit", limit=per_file):
            _claims, _index, items = monitor.prepare(
                row.response, row.context, question=row.question
            )
            claims = [
                {
                    "coverage_best": it.signals.coverage_best,
                    "coverage_all": it.signals.coverage_all,
                    "pair_entailed": it.signals.pair_entailed,
                    "read": it.signals.pair_window >= 0
                    and not it.signals.pair_cut
                    and not it.signals.pair_record,
                }
                for it in items
            ]
            out.append({"file": name, "label": row.label, "claims": claims})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/benchdata"))
    ap.add_argument("--per-file", type=int, default=160)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/unsupported_rule.json"))
    args = ap.parse_args()
    rows = signals(args.data, args.per_file)
    table: dict[str, dict[str, dict[str, int]]] = {}
    for name, rule in RULES.items():
        table[name] = {}
        for f in FILES:
            mine = [r for r in rows if r["file"] == f]
            hit = [any(c["read"] and rule(c) for c in r["claims"]) for r in mine]
            table[name][f] = {
                "correct_flagged": sum(
                    h for h, r in zip(hit, mine, strict=True) if r["label"] == 0
                ),
                "correct": sum(r["label"] == 0 for r in mine),
                "wrong_flagged": sum(h for h, r in zip(hit, mine, strict=True) if r["label"] == 1),
                "wrong": sum(r["label"] == 1 for r in mine),
            }
            t = table[name][f]
            print(
                f"{name[:44]:44s} {f[:10]:10s} correct {t['correct_flagged']}/{t['correct']}"
                f"  wrong {t['wrong_flagged']}/{t['wrong']}"
            )
    args.out.write_text(json.dumps({"split": "fit", "rules": table}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
