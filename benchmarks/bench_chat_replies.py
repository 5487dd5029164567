"""How the default gate reads chat replies, per kind (issue 47, item 3; issue 48, item 5).

Runs the default gate (bundled models, ``GatePolicy()``) on the hand-written chat sets in
``tests/data`` and prints, per kind of reply (grounded, grounded and hedged, non-claim,
unsupported, unsupported and hedged, contradicted, contradicted and hedged), the share the gate
does not pass, and the AUROC of 1 - grounding score per set. ``chat_replies_written`` was read
while building the claim typing; ``chat_replies_heldout`` was written by someone who never
read the code and is never tuned on. Only the public API is used, so the script runs on an
older commit too (``PYTHONPATH=<tree>``).

    python benchmarks/bench_chat_replies.py [--json benchmarks/results/chat_replies.json]
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SETS = ["chat_replies_written", "chat_replies_heldout"]


def read(name: str) -> dict[str, Any]:
    from langchain_qgate import GatePolicy, HallucinationMonitor, QualityGate

    monitor = HallucinationMonitor()
    gate = QualityGate(monitor=monitor, policy=GatePolicy(), observer=False)
    flagged: dict[str, list[bool]] = defaultdict(list)
    scored: list[tuple[int, float]] = []
    path = ROOT / "tests" / "data" / f"{name}.jsonl"
    for line in path.open(encoding="utf-8"):
        if not line.strip():
            continue
        row = json.loads(line)
        report = monitor.verify_grounding(
            row["response"], row["context"], question=row.get("question")
        )
        decision = gate.decide(row["response"], report).metadata.decision
        flagged[row["meta"]["kind"]].append(decision != "pass")
        flagged[f"label {row['label']}"].append(decision != "pass")
        scored.append((int(row["label"]), 1.0 - report.score))
    out: dict[str, Any] = {
        k: {"n": len(v), "flagged": round(sum(v) / len(v), 4)} for k, v in flagged.items()
    }
    out["auroc"] = round(_auroc(scored), 4)
    return out


def _auroc(scored: list[tuple[int, float]]) -> float:
    """AUROC of the risk 1 - score for label 1 (ties count a half)."""
    pos = [r for y, r in scored if y == 1]
    neg = [r for y, r in scored if y == 0]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / max(1, len(pos) * len(neg))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args()
    out: dict[str, Any] = {
        "command": "python benchmarks/bench_chat_replies.py",
        "load_average_start": os.getloadavg()[0],
    }
    for name in SETS:
        out[name] = read(name)
        print(name)
        figures = out[name]
        print(f"  AUROC {figures['auroc']:.3f}")
        for kind, fig in sorted(figures.items()):
            if kind != "auroc":
                print(f"  {kind:22s} n={fig['n']:4d} not passed {fig['flagged']:.1%}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
