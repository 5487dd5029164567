"""The ``qgate`` command line: the parser, ``main`` and the ``check`` and ``warm`` commands.

``qgate check``   check an answer against evidence files, print the per-claim report; the exit
                  code says the verdict (0 passed, 1 rejected, 2 usage or input error; 3 an
                  answer with no checkable claims under ``--fail-on-empty``), so it can gate a
                  shell or CI step.
``qgate bench``   run the benchmarks (``qgate bench detection --data FILE ...``; ``bench.py``).
``qgate demo``    run the agent demo (when the integrations are installed; ``demo.py``).
``qgate judge``   judge structured agent results against valid ids (``judge.py``).
``qgate warm``    load the embedding model once (exports it to ONNX on first use), e.g. while
                  building a container image, so the first real check starts fast.

Every subcommand uses the exit codes of linters and test runners (``_io.py``): 0 passed,
1 rejected, 2 usage or input error, with one error line ``qgate <subcommand>: error: ...``.
Standard output closed early (``| head``) ends the output quietly (``_io.emit``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_qgate.cli._io import (
    EXIT_BROKEN_PIPE,
    EXIT_CODES_HELP,
    EXIT_EMPTY,
    EXIT_ERROR,
    EXIT_PASS,
    EXIT_REJECTED,
    CliError,
    discard_stdout,
    emit,
    flush_stdout,
    read_text,
)
from langchain_qgate.cli._options import add_model_options, pair_model_of
from langchain_qgate.cli._report import check_payload, format_file_decision, format_report
from langchain_qgate.cli.bench import register as register_bench
from langchain_qgate.errors import InvalidInputError, QGateError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "EXIT_ERROR",
    "EXIT_PASS",
    "EXIT_REJECTED",
    "CliError",
    "build_parser",
    "format_report",
    "main",
]

_EPILOG = (
    """\
examples:
  qgate check --evidence examples/check/evidence.md --answer examples/check/answer.md
  qgate check --evidence examples/docs/*.md --answer answer.txt --profile strict --json
  echo "The Kestrel P3 carries 300 kg." | qgate check --evidence examples/check/evidence.md \\
      --answer - --grounding-threshold 0.7
  qgate demo
  qgate bench detection --data ../shared/benchdata/*.jsonl --split report

"""
    + EXIT_CODES_HELP
)

# Modules that add subcommands: each exposes ``register(subparsers)``.
_PLUGINS = ("langchain_qgate.cli.demo", "langchain_qgate.cli.judge")
_MAX_ERROR_CHARS = 400
_DEBUG_HELP = "on an error, show the full traceback instead of the one-line message"


def _jsonl_document(p: str, n: int, line: str) -> Any:
    from langchain_core.documents import Document

    from langchain_qgate.grounding.evidence.structured import MAX_JSON_DEPTH, json_depth

    too_deep = CliError(f"{p} line {n}: JSON nested too deep to read; flatten it")
    if json_depth(line) > MAX_JSON_DEPTH:
        raise too_deep
    try:
        item = json.loads(line)
    except ValueError as exc:  # JSONDecodeError, or an integer over Python's digit limit
        raise CliError(f"{p} line {n}: not valid JSON ({exc})") from exc
    except RecursionError:
        raise too_deep from None
    if not isinstance(item, dict):
        raise CliError(f"{p} line {n}: expected a JSON object, got {type(item).__name__}")
    meta = item.get("metadata", {})
    if not isinstance(meta, dict):
        raise CliError(f"{p} line {n}: 'metadata' must be an object")
    text = item.get("page_content", item.get("text", ""))
    return Document(page_content=str(text), metadata={"source": f"{p}:{n}", **meta})


def _check_json(p: str, text: str) -> None:
    from langchain_qgate.grounding.evidence.structured import MAX_JSON_DEPTH, json_depth

    too_deep = CliError(f"{p}: JSON nested too deep to read; flatten it")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise too_deep
    try:
        json.loads(text)
    except ValueError as exc:
        raise CliError(f"{p}: not valid JSON ({exc})") from exc
    except RecursionError:
        raise too_deep from None


def _evidence_docs(paths: Sequence[str]) -> list[Any]:
    from langchain_core.documents import Document

    docs = []
    for p in paths:
        text = read_text(p)
        if p.endswith(".jsonl"):
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    docs.append(_jsonl_document(p, n, line))
        else:
            if p.endswith(".json"):  # structured evidence: one field per statement
                _check_json(p, text)
            docs.append(Document(page_content=text, metadata={"source": Path(p).name}))
    return docs


def _cmd_check(args: argparse.Namespace) -> int:
    from langchain_qgate.config import GroundingPolicy
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    if [args.answer, *args.evidence].count("-") > 1:
        raise CliError("standard input (-) can feed --answer or one --evidence file, not both")
    answer = read_text(args.answer)
    evidence = _evidence_docs(args.evidence)
    from langchain_qgate.gate import FilteredOutput, QualityGate

    gate_policy = _gate_policy(args)
    policy = GroundingPolicy(
        model_name=args.model, embedding_backend=args.backend, pair_model=pair_model_of(args)
    )
    monitor = HallucinationMonitor(policy=policy)
    try:
        report = monitor.verify_grounding(answer, evidence, question=args.question)
    except InvalidInputError as exc:  # an input over a size limit: name the files it came from
        files = ", ".join(args.evidence)
        raise CliError(f"{args.answer} (evidence {files}): {exc}") from exc
    decision = QualityGate(monitor=monitor, policy=gate_policy).decide(answer, report)
    empty = not report.has_claims
    if empty:
        name = "standard input" if args.answer == "-" else args.answer
        why = f" ({report.reason})" if report.reason else ""
        verdict = (
            f"fails (--fail-on-empty, exit {EXIT_EMPTY})"
            if args.fail_on_empty
            else f"passes with grounding score {report.score:.2f}"
        )
        print(
            f"qgate check: warning: {name}: no checkable claims; the answer {verdict}{why}",
            file=sys.stderr,
        )
    if args.json:
        emit(json.dumps(check_payload(report, decision), indent=2, ensure_ascii=False))
    else:
        emit(f"{format_report(report)}\n\n{format_file_decision(decision)}")
    if empty and args.fail_on_empty:
        return EXIT_EMPTY
    return EXIT_PASS if isinstance(decision, FilteredOutput) else EXIT_REJECTED


def _gate_policy(args: argparse.Namespace) -> Any:
    """The gate policy of ``qgate check``: the profile, then the single threshold options."""
    from langchain_qgate.gate import GatePolicy

    overrides: dict[str, Any] = {}
    for name in ("grounding_threshold", "confidence_threshold", "max_contradictions"):
        value = getattr(args, name)
        if value is not None:
            overrides[name] = None if value == -1 else value
    if args.on_unsupported_language is not None:
        overrides["on_unsupported_language"] = args.on_unsupported_language
    try:
        return GatePolicy.from_profile(args.profile, **overrides)
    except ValueError as exc:
        raise CliError(" ".join(str(exc).split())) from exc


def _cmd_warm(args: argparse.Namespace) -> int:
    import time

    from langchain_qgate.grounding.evidence.embeddings import default_embedder
    from langchain_qgate.grounding.evidence.onnx_embedder import OnnxEmbedder

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
    emit(f"{args.model}: {where} ({time.perf_counter() - start:.1f} s)")
    pair_name = pair_model_of(args)
    if pair_name is not None:
        from langchain_qgate.grounding.verifier.crossencoder import PairModel

        start = time.perf_counter()
        pair = PairModel(None if pair_name == "bundled" else pair_name)
        pair.predict([("warm up", "warm up")])
        emit(f"pair model: {pair.folder} ({time.perf_counter() - start:.1f} s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    from langchain_qgate import __version__
    from langchain_qgate.config import DEFAULT_MODEL_NAME

    parser = argparse.ArgumentParser(
        prog="qgate",
        description="langchain-qgate: check answers against evidence (grounding, calibrated "
        "confidence, a pass/reject gate).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"qgate {__version__}")
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_check(sub, DEFAULT_MODEL_NAME)
    register_bench(sub)
    _add_warm(sub, DEFAULT_MODEL_NAME)
    for name in _PLUGINS:
        try:
            module = import_module(name)
        except ImportError:
            continue
        module.register(sub)
    _add_debug_flag(sub)
    return parser


def _add_check(sub: Any, model_name: str) -> None:
    """``qgate check``: an answer file against evidence files."""
    check = sub.add_parser(
        "check",
        help="check an answer against evidence files (exit 0 pass, 1 rejected, 2 error)",
        description="Grade each claim of an answer against evidence files and apply the gate.\n"
        "Exit code: 0 passed, 1 rejected, 2 usage or input error. With --fail-on-empty, 3 for\n"
        "an answer with no checkable claims. A file check has no model to ask again: a\n"
        "rejection shows the guidance an agent's model would be sent.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument(
        "--evidence",
        nargs="+",
        required=True,
        help="evidence files (text, markdown, JSON records/tables, or JSONL of documents); "
        "- for stdin",
    )
    check.add_argument("--answer", required=True, help="the answer file; - for stdin")
    check.add_argument("--question", default=None, help="the question the answer responds to")
    check.add_argument(
        "--json",
        action="store_true",
        help="print the report and decision as JSON (figures rounded to 4 places)",
    )
    check.add_argument(
        "--fail-on-empty",
        action="store_true",
        help=f"exit {EXIT_EMPTY} when the answer has no checkable claims (empty, or only "
        "questions or opinions); without it such an answer passes with a warning",
    )
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
    check.add_argument(
        "--on-unsupported-language",
        choices=("warn", "reject", "verifier"),
        default=None,
        help="an answer or evidence not in English: pass with a warning (warn, the default; "
        "exit 0), reject it (exit 1), or hand it to an LLM verifier (none in the CLI: warns)",
    )
    add_model_options(check, model_name)
    check.set_defaults(func=_cmd_check)


def _add_warm(sub: Any, model_name: str) -> None:
    """``qgate warm``: load (and export) the models once."""
    warm = sub.add_parser(
        "warm",
        help="load (and on first use export) the embedding model",
        description="Load the embedding model and the claim-evidence verifier once, exporting\n"
        "the model to ONNX on first use (e.g. while building a container image), so the\n"
        "first real check starts fast.",
    )
    add_model_options(warm, model_name)
    warm.add_argument("--cache-dir", default=None, help="export folder (else $QGATE_CACHE_DIR)")
    warm.set_defaults(func=_cmd_warm)


def _add_debug_flag(sub: Any) -> None:
    """``--debug`` after any subcommand too (``qgate check ... --debug``); each subcommand
    records its name (``qgate bench detection``) for its error lines, and lists the exit codes
    in its ``--help`` unless it says them itself."""
    for child in sub.choices.values():
        child.add_argument(
            "--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP
        )
        child.set_defaults(qgate_prog=child.prog)
        if not child.epilog:
            child.epilog = EXIT_CODES_HELP
            child.formatter_class = argparse.RawDescriptionHelpFormatter
        for action in child._actions:
            if isinstance(action, argparse._SubParsersAction):
                _add_debug_flag(action)


def _one_line(exc: BaseException) -> str:
    """``exc`` as one bounded line: our own errors by message, others with their type."""
    text = " ".join(str(exc).split())
    if not isinstance(exc, QGateError):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= _MAX_ERROR_CHARS else f"{text[: _MAX_ERROR_CHARS - 3]}..."


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``qgate`` console script.

    Returns 0 when the input passed, 1 when it was rejected (``qgate check``: by the gate;
    ``qgate judge``: any object). Any error (unreadable or non-UTF-8 files, malformed JSON,
    an input over the size limits, a bad option value...) prints one line
    ``qgate <subcommand>: error: <file>: ...`` on stderr and returns 2, as argparse's own
    usage errors do; ``--debug`` re-raises it with the traceback. ``qgate check
    --fail-on-empty`` returns 3 for an answer with no checkable claims. Standard output
    closed early (``| head``) ends the output without a message: the verdict (or argparse's
    status) is returned when it was made before writing, else 141 (128 + SIGPIPE, as a Unix
    tool ends).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit:  # --help, --version or a usage error, printed by argparse
        flush_stdout()  # into a closed pipe: quietly, with argparse's status
        raise
    prog = getattr(args, "qgate_prog", "qgate")
    try:
        result: int = args.func(args)
    except BrokenPipeError:  # the reader went away while the subcommand was still writing
        discard_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        print(f"{prog}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_ERROR
    flush_stdout()
    return result
