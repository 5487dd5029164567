"""Expected-output helpers shared by the integration tests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langchain_qgate.schemas import Grade

Expected = str | re.Pattern[str]
"""A literal substring of the output, or a pattern to search for."""


def said(value: str, instead: str) -> re.Pattern[str]:
    """A contradiction description, whatever unit words the checks attach to the values."""
    return re.compile(rf"the evidence says {re.escape(value)}\S*( \w+)?, not {re.escape(instead)}")


def missing(expected: list[Expected], out: str) -> list[str]:
    """The expectations ``out`` does not meet."""
    return [
        e.pattern if isinstance(e, re.Pattern) else e
        for e in expected
        if (e.search(out) is None if isinstance(e, re.Pattern) else e not in out)
    ]


def outcome(report: Any) -> str:
    """A grounding report in one word: 'contradicted', else the weakest counted grade, else
    'none' (no claim extracted)."""
    if report.contradictions:
        return "contradicted"
    grades = [v.grade for v in report.verdicts if v.counted]
    if not grades:
        return "none"
    order = [Grade.FABRICATED, Grade.INFERRED, Grade.GROUNDED]
    return min(grades, key=order.index).value


def graded_pairs(monitor: Any, path: Path) -> Iterator[tuple[dict[str, Any], str]]:
    """Each (evidence, claim) pair of a hand-written JSONL set with its :func:`outcome`."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            pair: dict[str, Any] = json.loads(line)
            report = monitor.verify_grounding(pair["claim"], [pair["evidence"]])
            yield pair, outcome(report)


def by_family(monitor: Any, path: Path) -> dict[str, list[str]]:
    """The :func:`outcome` of each pair of a hand-written JSONL set, listed by family."""
    out: dict[str, list[str]] = {}
    for pair, graded in graded_pairs(monitor, path):
        out.setdefault(pair["family"], []).append(graded)
    return out
