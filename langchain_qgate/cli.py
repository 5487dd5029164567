"""The ``qgate`` command line.

``qgate check``   check an answer against evidence files, print the per-claim report; the exit
                  code says the verdict (0 passed, 2 rejected, 1 error), so it can gate a
                  shell or CI step.
``qgate bench``   run the benchmarks (``qgate bench detection --data FILE ...``).
``qgate demo``    run the agent demo (when the integrations are installed).
``qgate warm``    load the embedding model once (exports it to ONNX on first use), e.g. while
                  building a container image, so the first real check starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from langchain_qgate.schemas import GroundingReport

__all__ = ["main"]

EXIT_PASS = 0
"""``qgate check``: the answer passed the gate (also ``pass_with_warning``)."""
EXIT_ERROR = 1
"""Any command: it could not run (unreadable file, bad option value...)."""
EXIT_REJECTED = 2
"""``qgate check``: the gate rejected the answer."""

_EPILOG = """\
examples:
  qgate check --evidence examples/check/evidence.md --answer examples/check/answer.md
  qgate check --evidence examples/docs/*.md --answer answer.txt --profile strict --json
  echo "The Kestrel P3 carries 300 kg." | qgate check --evidence examples/check/evidence.md \\
      --answer - --grounding-threshold 0.7
  qgate demo
  qgate bench detection --data ../shared/benchdata/*.jsonl --split report

exit codes (qgate check):
  0  the answer passed the gate (a pass with a warning included)
  2  the gate rejected the answer
  1  error (unreadable input, invalid option)
"""

# Modules that add subcommands: each exposes ``register(subparsers)``.
_PLUGINS = ("langchain_qgate._cli_demo", "langchain_qgate._cli_judge")


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SystemExit(f"qgate: cannot read {path}: {exc.strerror}") from exc


def _evidence_docs(paths: Sequence[str]) -> list[Any]:
    from langchain_core.documents import Document

    docs = []
    for p in paths:
        text = _read(p)
        if p.endswith(".jsonl"):
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    item = json.loads(line)
                    docs.append(
                        Document(
                            page_content=str(item.get("page_content", item.get("text", ""))),
                            metadata={"source": f"{p}:{n}", **item.get("metadata", {})},
                        )
                    )
        else:
            docs.append(Document(page_content=text, metadata={"source": Path(p).name}))
    return docs


def format_report(report: GroundingReport) -> str:
    """One line per claim (type, grade, support, reason, evidence), then the score."""
    lines = []
    for v in report.verdicts:
        ev = v.evidence[0].evidence_id if v.evidence else "-"
        if not v.counted:  # an opinion is labelled, never graded against the evidence
            lines.append(f"[{v.claim.index}] {v.claim.type.value:9s} NOT GRADED (an opinion)")
            lines.append(f"     claim:  {v.claim.text}")
            continue
        lines.append(
            f"[{v.claim.index}] {v.claim.type.value:9s} {v.grade.value.upper():10s} "
            f"support={v.support:.2f} evidence={ev}"
        )
        lines.append(f"     claim:  {v.claim.text}")
        lines.append(f"     reason: {v.reason}")
        if v.contradiction is not None:
            lines.append(f"     quote:  {v.contradiction.quote!r}")
        elif v.evidence and v.grade.value == "grounded":
            lines.append(f"     quote:  {v.evidence[0].quote!r}")
    counts = ", ".join(f"{g.value} {n}" for g, n in report.counts.items())
    opinions = sum(not v.counted for v in report.verdicts)
    if opinions:
        counts += f"; {opinions} opinion{'s' if opinions != 1 else ''} not graded"
    lines.append(f"grounding score: {report.score:.2f} ({counts})")
    if report.reason:
        lines.append(f"note: {report.reason}")
    return "\n".join(lines)


def _cmd_check(args: argparse.Namespace) -> int:
    from langchain_qgate.config import GroundingPolicy
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    answer = _read(args.answer)
    evidence = _evidence_docs(args.evidence)
    from langchain_qgate.gate import FilteredOutput, QualityGate, format_decision

    gate_policy = _gate_policy(args)
    policy = GroundingPolicy(model_name=args.model, embedding_backend=args.backend)
    monitor = HallucinationMonitor(policy=policy)
    report = monitor.verify_grounding(answer, evidence, question=args.question)
    decision = QualityGate(monitor=monitor, policy=gate_policy).decide(answer, report)
    if args.json:
        payload = {
            "report": report.model_dump(mode="json"),
            "decision": decision.model_dump(mode="json"),
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(format_report(report))
        print()
        print(format_decision(decision))
    return EXIT_PASS if isinstance(decision, FilteredOutput) else EXIT_REJECTED


def _gate_policy(args: argparse.Namespace) -> Any:
    """The gate policy of ``qgate check``: the profile, then the single threshold options."""
    from langchain_qgate.gate import GatePolicy

    overrides: dict[str, Any] = {}
    for name in ("grounding_threshold", "confidence_threshold", "max_contradictions"):
        value = getattr(args, name)
        if value is not None:
            overrides[name] = None if value == -1 else value
    try:
        return GatePolicy.from_profile(args.profile, **overrides)
    except ValueError as exc:
        raise SystemExit(f"qgate: {exc}") from exc


def _cmd_bench_detection(args: argparse.Namespace) -> int:
    from langchain_qgate.config import GroundingPolicy
    from langchain_qgate.evaluation import format_table, run_detection
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    policy = GroundingPolicy(model_name=args.model, embedding_backend=args.backend)
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
    print(format_table(result))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.scores:
        with open(args.scores, "w", encoding="utf-8") as fh:
            for s in scores:
                fh.write(json.dumps(s) + "\n")
    return 0


def _cmd_warm(args: argparse.Namespace) -> int:
    import time

    from langchain_qgate.grounding.embeddings import default_embedder
    from langchain_qgate.grounding.onnx_embedder import OnnxEmbedder

    if args.cache_dir:
        os.environ["QGATE_CACHE_DIR"] = args.cache_dir
    start = time.perf_counter()
    embedder = default_embedder(args.model, backend=args.backend)
    dim = embedder.embed(["warm up"]).shape[1]
    inner = embedder.inner
    folder = inner.export_folder if isinstance(inner, OnnxEmbedder) else None
    where = (
        f"backend onnx, dimension {dim}, export in {folder}"
        if folder
        else (f"backend torch, dimension {dim}")
    )
    print(f"{args.model}: {where} ({time.perf_counter() - start:.1f} s)")
    return 0


def _add_model_options(parser: argparse.ArgumentParser, default_model: str) -> None:
    parser.add_argument("--model", default=default_model, help="embedding model")
    parser.add_argument(
        "--backend",
        choices=["auto", "onnx", "torch"],
        default="auto",
        help="embedding runtime (auto: ONNX Runtime when the model can be exported)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    from langchain_qgate import __version__
    from langchain_qgate.grounding.embeddings import DEFAULT_MODEL_NAME

    parser = argparse.ArgumentParser(
        prog="qgate",
        description="langchain-qgate: check answers against evidence (grounding, calibrated "
        "confidence, a pass/reject gate).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"qgate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser(
        "check",
        help="check an answer against evidence files (exit 0 pass, 2 rejected, 1 error)",
        description="Grade each claim of an answer against evidence files and apply the gate. "
        "Exit code: 0 passed, 2 rejected, 1 error.",
        epilog=_EPILOG.split("\n\n", 1)[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument(
        "--evidence",
        nargs="+",
        required=True,
        help="evidence files (text, markdown, or JSONL of documents); - for stdin",
    )
    check.add_argument("--answer", required=True, help="the answer file; - for stdin")
    check.add_argument("--question", default=None, help="the question the answer responds to")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument(
        "--profile",
        choices=["strict", "default", "brainstorm"],
        default="default",
        help="gate profile: grounding threshold 0.8 / 0.6 / 0.4 (default: %(default)s)",
    )
    check.add_argument(
        "--grounding-threshold",
        type=float,
        default=None,
        metavar="X",
        help="minimum grounding score to pass, in [0, 1] (overrides the profile)",
    )
    check.add_argument(
        "--confidence-threshold",
        type=float,
        default=None,
        metavar="X",
        help="minimum calibrated confidence to pass, in [0, 1] (overrides the profile)",
    )
    check.add_argument(
        "--max-contradictions",
        type=int,
        default=None,
        metavar="N",
        help="contradicted claims tolerated; -1 for no limit (overrides the profile)",
    )
    _add_model_options(check, DEFAULT_MODEL_NAME)
    check.set_defaults(func=_cmd_check)

    bench = sub.add_parser("bench", help="run a benchmark")
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    det = bench_sub.add_parser("detection", help="hallucination detection on labelled JSONL")
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
    _add_model_options(det, DEFAULT_MODEL_NAME)
    det.set_defaults(func=_cmd_bench_detection)

    warm = sub.add_parser("warm", help="load (and on first use export) the embedding model")
    _add_model_options(warm, DEFAULT_MODEL_NAME)
    warm.add_argument("--cache-dir", default=None, help="export folder (else $QGATE_CACHE_DIR)")
    warm.set_defaults(func=_cmd_warm)

    for name in _PLUGINS:
        try:
            module = import_module(name)
        except ImportError:
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``qgate`` console script."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
