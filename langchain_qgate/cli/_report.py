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
    """The gate's decision on a file check, for people.

    The figures of :func:`~langchain_qgate.gate.format_decision` without what only an agent
    has (the retries used, the attempts left, an escalation to a reviewer): a rejection says
    what it would mean in an agent, then the problems and fixes its model would be sent.
    """
    from langchain_qgate.gate import RejectedOutput, describe_decision, load_text

    m = decision.metadata

    def row(key: str, value: str) -> str:
        return f"  {key:<12} {value}"

    conf = (
        f"{m.confidence:.2f} (threshold {m.confidence_threshold:.2f}; calibrated probability "
        "that the answer is supported)"
    )
    if m.raw_confidence is not None:
        conf += f", stated {m.raw_confidence:.2f}" + (" - overconfident" if m.overconfident else "")
    lines = [
        f"Gate decision: {describe_decision(m.decision, model_in_loop=False)}"
        f"   [profile {m.profile}]",
        row("grounding", f"{m.score:.2f} (threshold {m.grounding_threshold:.2f})"),
        row("confidence", conf),
        row("load", load_text(m)),
    ]
    if m.failed_dimensions:
        lines.append(row("failed", ", ".join(m.failed_dimensions)))
    if m.warning:
        lines.append(row("warning", m.warning))
    if isinstance(decision, RejectedOutput):
        g = decision.guidance
        lines.append("")
        lines.append("Guidance (what an agent's model would be told):")
        if g.issues:
            lines.append("  Problems:")
            lines.extend(f"  - {i}" for i in g.issues)
        if g.actions:
            lines.append("  Revise it:")
            lines.extend(f"  - {a}" for a in g.actions)
    return "\n".join(lines)


def check_payload(report: GroundingReport, decision: GateDecision) -> dict[str, Any]:
    """The ``qgate check --json`` object: ``report`` and ``decision`` as JSON, figures rounded
    to four places (``0.9336889999999999`` -> ``0.9337``); the objects are not changed."""
    payload: dict[str, Any] = rounded(
        {"report": report.model_dump(mode="json"), "decision": decision.model_dump(mode="json")}
    )
    return payload
