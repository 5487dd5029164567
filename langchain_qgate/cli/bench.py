"""``qgate bench``: run the benchmarks (``qgate bench detection --data FILE ...``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from langchain_qgate.cli._io import emit
from langchain_qgate.cli._options import add_model_options, pair_model_of
from langchain_qgate.config import DEFAULT_MODEL_NAME

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``bench`` subcommand to the ``qgate`` subparsers."""
    bench = sub.add_parser(
        "bench",
        help="run a benchmark",
        description="Run a benchmark of the grounding check ('qgate bench detection --help':\n"
        "hallucination detection on labelled JSONL).",
    )
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    det = bench_sub.add_parser(
        "detection",
        help="hallucination detection on labelled JSONL",
        description="Score labelled rows (benchdata schema: context, response, label) with\n"
        "the grounding check and print, per file, AUROC, balanced accuracy, precision,\n"
        "recall, latency, a naive baseline and the share of rows the default gate rejects.",
    )
    det.add_argument("--data", nargs="+", required=True, help="JSONL files (benchdata schema)")
    det.add_argument("--limit", type=int, default=None, help="rows per file (label-balanced)")
    det.add_argument(
        "--split",
        choices=["report", "fit", "all"],
        default="report",
        help="which half of the rows (the shipped weights are fitted on 'fit')",
    )
    det.add_argument("--json", default=None, help="write the results as JSON here")
    det.add_argument("--scores", default=None, help="write per-row scores (JSONL) here")
    det.add_argument("--no-baseline", action="store_true", help="skip the naive baseline")
    det.add_argument("--quiet", action="store_true", help="no progress bar")
    add_model_options(det, DEFAULT_MODEL_NAME)
    det.set_defaults(func=_cmd_bench_detection)


def _cmd_bench_detection(args: argparse.Namespace) -> int:
    from langchain_qgate.config import GroundingPolicy
    from langchain_qgate.evaluation import format_table, run_detection
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    policy = GroundingPolicy(
        model_name=args.model, embedding_backend=args.backend, pair_model=pair_model_of(args)
    )
    monitor = HallucinationMonitor(policy=policy)
    scores: list[dict[str, Any]] = []
    result = run_detection(
        [Path(p) for p in args.data],
        monitor,
        limit=args.limit,
        split=args.split,
        progress=None if args.quiet else sys.stderr,
        scores_out=scores,
        with_baseline=not args.no_baseline,
    )
    emit(format_table(result))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.scores:
        with open(args.scores, "w", encoding="utf-8") as fh:
            for s in scores:
                fh.write(json.dumps(s) + "\n")
    return 0
