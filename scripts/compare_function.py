"""Whether a text function gives the same output before and after a refactor, on every text
of the benchmark data and the hand-written suites.

The function at another checkout (``--old-root``, e.g. a ``git worktree add /tmp/before
<commit>``) and the one here are called on every string field of ``../shared/benchdata/*.jsonl``
and ``tests/data/*.jsonl`` (and on random markdown made of fences, lists, headings, quotes,
tables and rules, with ``--markdown N``); each output is compared by ``repr``:

    python scripts/compare_function.py --old-root /tmp/before \\
        --module langchain_qgate.grounding.checks.checks --function extract_quantities
    python scripts/compare_function.py --old-root /tmp/before --markdown 5000 \\
        --module langchain_qgate.grounding.claims.segment --function segment_text --kwargs skip_code

With ``--pairs N``, a function of (claim, evidence sentence) is called on each sentence of a
row's response against each of the first N sentences of its context (``substitution``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_MARKDOWN = [
    "# Title", "## Sub", "> quoted line", "| a | b |", "|---|---|", "- item one",
    "* item two", "1. first", "  continued", "    indented code", "```", "```python", "~~~",
    "---", "", "Plain sentence here.", "another line without period", "Mr. Smith went. He left!",
]  # fmt: skip


def texts(benchdata: Path, markdown: int) -> list[str]:
    out: list[str] = []
    for path in [
        *sorted(benchdata.glob("*.jsonl")),
        *sorted((ROOT / "tests/data").glob("*.jsonl")),
    ]:
        for line in path.open(encoding="utf-8"):
            if line.strip():
                out += [v for v in json.loads(line).values() if isinstance(v, str)]
    rng = random.Random(0)
    for _ in range(markdown):
        out.append("\n".join(rng.choice(_MARKDOWN) for _ in range(rng.randint(1, 25))))
    return out


def pairs(benchdata: Path, per_row: int) -> list[tuple[str, str]]:
    from langchain_qgate.grounding.claims.segment import split_sentences

    out: list[tuple[str, str]] = []
    for path in [
        *sorted(benchdata.glob("*.jsonl")),
        *sorted((ROOT / "tests/data").glob("*.jsonl")),
    ]:
        for line in path.open(encoding="utf-8"):
            if not line.strip():
                continue
            row = json.loads(line)
            claim = next((row[k] for k in ("response", "claim") if isinstance(row.get(k), str)), "")
            context = next(
                (row[k] for k in ("context", "evidence") if isinstance(row.get(k), str)), ""
            )
            claims = [claim[a:b] for a, b in split_sentences(claim)]
            sentences = [context[a:b] for a, b in split_sentences(context)][:per_row]
            out += [(c, s) for c in claims for s in sentences]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-root", type=Path, required=True)
    ap.add_argument("--module", required=True)
    ap.add_argument("--function", required=True)
    ap.add_argument("--kwargs", nargs="*", default=[], help="boolean keywords tried both ways")
    ap.add_argument("--markdown", type=int, default=0)
    ap.add_argument("--pairs", type=int, default=0, help="sentences of context per row")
    ap.add_argument("--benchdata", type=Path, default=ROOT.parent / "shared" / "benchdata")
    args = ap.parse_args()
    path = args.old_root / (args.module.replace(".", "/") + ".py")
    spec = importlib.util.spec_from_file_location("_old_" + args.module.replace(".", "_"), path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    old = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = old
    spec.loader.exec_module(old)
    before, after = (
        getattr(old, args.function),
        getattr(importlib.import_module(args.module), args.function),
    )
    calls = [{}] + [{k: True} for k in args.kwargs]
    corpus: list[Any] = (
        pairs(args.benchdata, args.pairs) if args.pairs else texts(args.benchdata, args.markdown)
    )
    differ = 0
    for item in corpus:
        given = item if isinstance(item, tuple) else (item,)
        for kw in calls:
            if repr(before(*given, **kw)) != repr(after(*given, **kw)):
                differ += 1
                if differ <= 3:
                    print("differs:", kw, repr(str(item)[:120]))
    print(
        f"{args.module}.{args.function}: {len(corpus)} texts x {len(calls)} calls, {differ} differ"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
