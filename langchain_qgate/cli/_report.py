"""What ``qgate check`` prints: the per-claim report, the gate's decision, the JSON payload.

A file check has no model in the loop and no retry budget to spend, so the decision block says
what the verdict means for the file (``retry (rejected: in an agent the model would be asked
again with the guidance below)``) and shows no retries row; the JSON payload is the verdict
objects as they are, with every figure rounded to :data:`~langchain_qgate.cli._io.JSON_PLACES`
places for reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_qgate.cli._io import rounded

if TYPE_CHECKING:
    from langchain_qgate.gate import GateDecision
    from langchain_qgate.schemas import GroundingReport

__all__ = ["check_payload", "format_file_decision", "format_report"]


def format_report(report: GroundingReport) -> str:
    """One line per claim (type, grade, support, reason, evidence), then the score."""
    lines = []
    for v in report.verdicts:
        ev = v.evidence[0].evidence_id if v.evidence else "-"
        if not v.counted:  # an opinion is labelled, never graded against the evidence
            lines.append(f"[{v.claim.index}] {v.claim.type.value:9s} not graded (an opinion)")
            lines.append(f"     claim:  {v.claim.text}")
            continue
        lines.append(
            f"[{v.claim.index}] {v.claim.type.value:9s} {v.grade.value:10s} "
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
    lines.extend(f"note: {n}" for n in report.notes)
    return "\n".join(lines)


def format_file_decision(decision: GateDecision) -> str:
    """The gate's decision on a file check, for people: :func:`~langchain_qgate.gate.
    format_decision` without what only an agent has (retries, attempts left, escalation)."""
    from langchain_qgate.gate import format_decision

    return format_decision(decision, model_in_loop=False)


def check_payload(report: GroundingReport, decision: GateDecision) -> dict[str, Any]:
    """The ``qgate check --json`` object: ``report`` and ``decision`` as JSON, figures rounded
    to four places (``0.9336889999999999`` -> ``0.9337``); the objects are not changed."""
    payload: dict[str, Any] = rounded(
        {"report": report.model_dump(mode="json"), "decision": decision.model_dump(mode="json")}
    )
    return payload
