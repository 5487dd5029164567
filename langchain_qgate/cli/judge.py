"""``qgate judge``: judge agent results (or any JSON with citations) against valid ids.

Examples:
    qgate judge results.json --ids signals.txt
    qgate judge answer.json --ids evidence_ids.json --citations "claims[].evidence_ids"

``RESULTS`` is a JSON file holding one object or a list of them (or JSON Lines, one object a
line). ``--ids`` is a text file with one id a line, or a JSON list. Without ``--citations``
each object is judged as an ``AgentResult`` by :class:`~langchain_qgate.judge.JudgeLayer`;
with it, by a :class:`~langchain_qgate.judge.CitationJudge` over those paths. Exit status:
0 when every object passes, 1 when any is rejected, 2 on a usage or input error (one line
``qgate judge: error: <file>: ...`` on stderr, printed by ``qgate``'s ``main``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from langchain_qgate.cli._io import EXIT_PASS, EXIT_REJECTED, CliError, emit, read_text
from langchain_qgate.judge import DEFAULT_MAX_LISTED_IDS, CitationJudge, JudgeLayer

__all__ = ["judge_file", "register"]


def _load_objects(path: Path) -> list[Any]:
    text = read_text(str(path))
    try:
        data = json.loads(text)
    except ValueError:
        data = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                data.append(json.loads(line))
            except ValueError as exc:
                raise CliError(f"{path} line {n}: not valid JSON or JSON Lines ({exc})") from exc
        return data
    return data if isinstance(data, list) else [data]


def _load_ids(path: Path) -> frozenset[str]:
    text = read_text(str(path))
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise CliError(f"{path}: not a valid JSON list of ids ({exc})") from exc
        return frozenset(str(i) for i in data)
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def judge_file(
    results: Path,
    ids: Path,
    *,
    citations: list[str] | None = None,
    max_listed_ids: int = DEFAULT_MAX_LISTED_IDS,
) -> list[dict[str, Any]]:
    """Judge every object of ``results`` against the ids in ``ids``.

    Returns:
        One record per object: ``index``, ``name`` (agent name, when there is one),
        ``valid``, ``check`` (the failed check or issue kind) and ``reason``.
    """
    objects = _load_objects(results)
    valid_ids = _load_ids(ids)
    records: list[dict[str, Any]] = []
    if citations:
        judge = CitationJudge(citations, valid_ids=valid_ids, max_listed_ids=max_listed_ids)
        for index, obj in enumerate(objects):
            check = judge.check(obj)
            records.append(
                {
                    "index": index,
                    "name": obj.get("agent_name") if isinstance(obj, dict) else None,
                    "valid": check.valid,
                    "check": check.issues[0].kind if check.issues else None,
                    "reason": check.reason or None,
                }
            )
        return records
    layer = JudgeLayer(valid_ids, max_listed_ids=max_listed_ids)
    for index, verdict in enumerate(layer.judge_each(objects)):
        obj = verdict.result
        records.append(
            {
                "index": index,
                "name": obj.get("agent_name") if isinstance(obj, dict) else None,
                "valid": verdict.valid,
                "check": verdict.failed_check,
                "reason": verdict.rejection_reason,
            }
        )
    return records


def _cmd_judge(args: argparse.Namespace) -> int:
    records = judge_file(
        Path(args.results),
        Path(args.ids),
        citations=args.citations,
        max_listed_ids=args.max_listed_ids,
    )
    if args.json:
        emit(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        lines = []
        for r in records:
            label = f"#{r['index']}" + (f" {r['name']!r}" if r["name"] is not None else "")
            lines.append(f"pass {label}" if r["valid"] else f"rejected {label}: {r['reason']}")
        rejected = sum(not r["valid"] for r in records)
        lines.append(f"{len(records) - rejected} passed, {rejected} rejected")
        emit("\n".join(lines))
    return EXIT_PASS if all(r["valid"] for r in records) else EXIT_REJECTED


def register(subparsers: Any) -> None:
    """Add ``qgate judge`` to the CLI."""
    cmd = subparsers.add_parser(
        "judge",
        help="judge agent results (or cited JSON) against the valid ids",
        description="Judge structured agent results (or any JSON that cites ids) against the\n"
        "valid ids: every hypothesis cites at least one signal, every cited id exists, every\n"
        "confidence is in [0, 1]. One line per object, or JSON with --json.",
    )
    cmd.add_argument("results", help="JSON / JSON Lines file with one object or a list")
    cmd.add_argument("--ids", required=True, help="valid ids: one a line, or a JSON list")
    cmd.add_argument(
        "--citations",
        action="append",
        default=None,
        metavar="PATH",
        help='citation path for generic JSON, e.g. "claims[].evidence_ids" (repeatable)',
    )
    cmd.add_argument(
        "--max-listed-ids",
        type=int,
        default=DEFAULT_MAX_LISTED_IDS,
        help="valid ids listed in a rejection message before '... and N more'",
    )
    cmd.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    cmd.set_defaults(func=_cmd_judge)
