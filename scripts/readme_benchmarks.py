"""Write the README's benchmark table from the last measured run (benchmarks/results).

The table between ``<!-- detection-table:start -->`` and ``<!-- detection-table:end -->`` in
README.md is generated from ``benchmarks/results/detection.json``, the file that
``qgate bench detection --data ../shared/benchdata/*.jsonl --split report --limit 600
--json benchmarks/results/detection.json`` writes; figures are rounded as that command prints
them (AUROC to 3 places, rates as percentages to 1 place). Nothing is re-measured here.

Run: python scripts/readme_benchmarks.py          (rewrite the README table)
     python scripts/readme_benchmarks.py --check  (exit 1 if the README is out of date)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
RESULTS = REPO / "benchmarks" / "results" / "detection.json"
START = "<!-- detection-table:start -->"
END = "<!-- detection-table:end -->"

ROWS = (
    ("halueval_qa", "HaluEval QA"),
    ("summedits", "SummEdits"),
    ("fever_symmetric_dev", "FEVER-Symmetric dev"),
    ("factcheck_gpt_stance", "Factcheck-GPT (stance)"),
    ("wice_dev", "WiCE dev"),
    ("e2e_structured_dev", "E2E structured dev"),
)
"""Result key and README name of each dev file, in the README's order."""

HEADER = (
    "| dev file (report split) | n | AUROC | IDF coverage AUROC | naive cosine AUROC "
    "| false contradictions | false rejects | wrong answers rejected |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|"
)


def auroc(value: float) -> str:
    """An AUROC as the CLI prints it (3 places)."""
    return f"{value:.3f}"


def percent(rate: float) -> str:
    """A rate as a percentage with one place."""
    return f"{100 * rate:.1f}%"


def render_table(result: dict[str, Any]) -> str:
    """The README table of a ``qgate bench detection --json`` result."""
    if result.get("split") != "report":
        raise ValueError(f"the README reports the 'report' split, got {result.get('split')!r}")
    lines = [HEADER]
    for key, name in ROWS:
        e = result["datasets"][key]
        lines.append(
            f"| {name} | {e['n']} | {auroc(e['auroc'])} | {auroc(e['idf_coverage_auroc'])} "
            f"| {auroc(e['baseline']['auroc'])} | {percent(e['false_contradiction_rate'])} "
            f"| {percent(e['false_reject_rate'])} | {percent(e['label1_reject_rate'])} |"
        )
    return "\n".join(lines)


def readme_table(readme: str) -> str:
    """The generated block of the README (between the markers)."""
    if readme.count(START) != 1 or readme.count(END) != 1:
        raise ValueError(f"README.md needs exactly one {START} and one {END}")
    return readme.split(START, 1)[1].split(END, 1)[0].strip("\n")


def updated_readme(readme: str, table: str) -> str:
    """``readme`` with its generated block replaced by ``table``."""
    readme_table(readme)  # validates the markers
    head, rest = readme.split(START, 1)
    tail = rest.split(END, 1)[1]
    return f"{head}{START}\n{table}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if README.md is stale")
    args = parser.parse_args(argv)
    table = render_table(json.loads(RESULTS.read_text(encoding="utf-8")))
    readme = README.read_text(encoding="utf-8")
    if args.check:
        if readme_table(readme) != table:
            print(
                "README.md's benchmark table differs from benchmarks/results/detection.json; "
                "run python scripts/readme_benchmarks.py",
                file=sys.stderr,
            )
            return 1
        print("README.md benchmark table is current")
        return 0
    new = updated_readme(readme, table)
    if new != readme:
        README.write_text(new, encoding="utf-8")
        print("README.md benchmark table rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
