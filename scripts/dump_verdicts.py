"""Per-row verdicts of the default gate, to compare two commits row by row.

Writes one JSON line per row (id, file, label, score, grades, contradicted, decision) for the
report half of each benchdata file (balanced sample, as ``qgate bench detection``) and for every
row of the hand-written suites in ``tests/data``, then prints a summary per file. Run it on two
commits and compare with ``--compare``:

    python scripts/dump_verdicts.py --data ../shared/benchdata/*.jsonl --out before.jsonl
    python scripts/dump_verdicts.py --data ../shared/benchdata/*.jsonl --out after.jsonl
    python scripts/dump_verdicts.py --compare before.jsonl after.jsonl

Only the public API is used, so the same script runs on an older commit (``PYTHONPATH=<tree>``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


class _Row:
    def __init__(self, rid: str, context: Any, response: str, label: int, question: Any) -> None:
        self.id, self.context, self.response = rid, context, response
        self.label, self.question = label, question


def _suite_rows(path: Path) -> list[_Row]:
    """A hand-written suite's rows, whatever its fields (claim/response, evidence/record)."""
    rows = []
    for n, line in enumerate(path.open(encoding="utf-8")):
        if not line.strip():
            continue
        r = json.loads(line)
        context = next((r[k] for k in ("context", "evidence", "record", "data") if k in r), "")
        response = r.get("response", r.get("claim", ""))
        label = r.get("label", -1)
        label = label if isinstance(label, int) else -1
        rows.append(_Row(str(r.get("id", n)), context, str(response), label, r.get("question")))
    return rows


def _rows(path: Path, limit: int | None, split: str = "report") -> list[Any]:
    from langchain_qgate.evaluation import load_rows

    if path.parent.name == "data" and path.parent.parent.name == "tests":
        return _suite_rows(path)
    return load_rows(path, limit=limit, split=split)


def dump(files: list[Path], out: Path, limit: int | None, split: str = "report") -> None:
    from langchain_qgate import GatePolicy, HallucinationMonitor, QualityGate

    monitor = HallucinationMonitor()
    gate = QualityGate(monitor=monitor, policy=GatePolicy(), observer=False)
    with out.open("w", encoding="utf-8") as fh:
        for path in files:
            for row in _rows(path, limit, split):
                report = monitor.verify_grounding(row.response, row.context, question=row.question)
                meta = gate.decide(row.response, report).metadata
                line = {
                    "id": row.id,
                    "file": path.stem,
                    "label": row.label,
                    "score": round(report.score, 6),
                    "grades": [v.grade.value for v in report.verdicts],
                    "contradicted": bool(report.contradictions),
                    "decision": meta.decision,
                    "reasons": [v.reason for v in report.verdicts],
                }
                fh.write(json.dumps(line) + "\n")
            print(f"{path.stem}: done", file=sys.stderr)
    summary(out)


def _auroc(labels: list[int], risks: list[float]) -> float | None:
    pos = [r for r, y in zip(risks, labels, strict=True) if y == 1]
    neg = [r for r, y in zip(risks, labels, strict=True) if y == 0]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def summary(path: Path) -> dict[str, dict[str, Any]]:
    by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in path.open(encoding="utf-8"):
        r = json.loads(line)
        by_file[r["file"]].append(r)
    out: dict[str, dict[str, Any]] = {}
    print(f"{'file':32s} {'n':>5s} {'AUROC':>6s} {'fcontra':>8s} {'freject':>8s} {'caught':>7s}")
    for name, rows in by_file.items():
        labelled = [r for r in rows if r["label"] in (0, 1)]
        if not labelled:
            continue
        neg = [r for r in labelled if r["label"] == 0]
        pos = [r for r in labelled if r["label"] == 1]
        auc = _auroc([r["label"] for r in labelled], [1 - r["score"] for r in labelled])
        stats = {
            "n": len(labelled),
            "auroc": auc,
            "false_contradictions": sum(r["contradicted"] for r in neg) / max(1, len(neg)),
            "false_rejects": sum(r["decision"] != "pass" for r in neg) / max(1, len(neg)),
            "caught": sum(r["decision"] != "pass" for r in pos) / max(1, len(pos)),
        }
        out[name] = stats
        a = f"{auc:.3f}" if auc is not None else "  -  "
        print(
            f"{name:32s} {len(labelled):5d} {a:>6s} {stats['false_contradictions']:8.1%} "
            f"{stats['false_rejects']:8.1%} {stats['caught']:7.1%}"
        )
    return out


def compare(before: Path, after: Path) -> None:
    old = {(r["file"], r["id"]): r for r in map(json.loads, before.open(encoding="utf-8"))}
    new = {(r["file"], r["id"]): r for r in map(json.loads, after.open(encoding="utf-8"))}
    changed = [k for k in old.keys() & new.keys() if old[k] != new[k]]
    print(f"{len(changed)} of {len(old.keys() & new.keys())} rows changed")
    for k in sorted(changed)[:40]:
        o, n = old[k], new[k]
        print(
            f"  {k[0]}/{k[1]} label {o['label']}: {o['score']:.3f} {o['grades']} {o['decision']}"
            f" -> {n['score']:.3f} {n['grades']} {n['decision']}"
        )
    print("before:")
    summary(before)
    print("after:")
    summary(after)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="*", type=Path, default=[])
    ap.add_argument("--suites", action="store_true", help="also every tests/data/*.jsonl suite")
    ap.add_argument("--limit", type=int, default=600, help="report rows per benchdata file")
    ap.add_argument(
        "--split",
        choices=("report", "fit"),
        default="report",
        help="which half of each benchdata file (fit: to choose a change; report: to report it)",
    )
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
        return 0
    files = list(args.data)
    if args.suites:
        files += sorted((ROOT / "tests" / "data").glob("*.jsonl"))
    if not files or args.out is None:
        ap.error("give --data and/or --suites, and --out (or --compare BEFORE AFTER)")
    dump(files, args.out, args.limit, args.split)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
