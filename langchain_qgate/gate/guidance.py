"""Retry guidance content: the problems found in an output and what the model should do.

Private helper of :mod:`langchain_qgate.gate`. Builds plain lists from a grounding report, a
calibrated confidence and a load assessment; the gate wraps them in ``RetryGuidance``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from langchain_qgate.gate.load import LoadAction
from langchain_qgate.schemas import ClaimVerdict, Grade

if TYPE_CHECKING:
    from langchain_qgate.calibration import CalibratedConfidence
    from langchain_qgate.gate.load import LoadAssessment
    from langchain_qgate.schemas import GroundingReport

__all__ = ["Dimension", "FlaggedClaim", "build_guidance_parts", "contradicted_claims", "short"]

Dimension = Literal["grounding", "confidence", "load"]
"""A quality dimension the gate checks: grounding score, calibrated confidence, run load."""

FlagKind = Literal["contradicted", "unsupported"]
"""Why a claim is flagged: the evidence disagrees with it, or nothing supports it."""

_MAX_FLAGGED = 8


class FlaggedClaim(BaseModel):
    """A claim the model has to fix.

    Attributes:
        index: Position of the claim in the output.
        text: The claim text.
        kind: ``"contradicted"`` or ``"unsupported"``.
        correction: What the evidence says instead (contradictions), e.g.
            ``"the evidence says 2020, not 2019"``.
        evidence_id: The disagreeing (or closest) evidence chunk, when there is one.
        quote: The evidence text quoted.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    text: str
    kind: FlagKind
    correction: str = ""
    evidence_id: str | None = None
    quote: str = ""

    def describe(self) -> str:
        """One line naming the claim and, for a contradiction, quoting the evidence."""
        if self.kind == "contradicted":
            corr = self.correction[:1].upper() + self.correction[1:]
            if "states the opposite" in self.correction:  # the quote is already in it
                return f"{short(self.text)!r}: {corr} [{self.evidence_id}]"
            return f"{short(self.text)!r}: {corr}: {short(self.quote, 200)!r} [{self.evidence_id}]"
        return f"{short(self.text)!r}: nothing in the evidence supports it"


def short(text: str, limit: int = 120) -> str:
    """Collapse whitespace and cut ``text`` to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _sentence(text: str) -> str:
    """``text`` ending in one full stop (a quote that ends a sentence gets none added)."""
    stripped = text.rstrip()
    if stripped.endswith((".", "!", "?", ".'", '."', "!'", "?'")):
        return stripped
    return stripped + "."


def _topic(text: str) -> str:
    return short(text.strip().rstrip(".!?;:"), 80)


def contradicted_claims(report: GroundingReport) -> list[ClaimVerdict]:
    """Counted claims graded FABRICATED because the evidence contradicts them.

    These are the claims :func:`flag` reports as ``"contradicted"`` (a contradiction the
    verifier overruled, on a claim not graded FABRICATED, is not one).
    """
    return [
        v
        for v in report.verdicts
        if v.counted and v.grade is Grade.FABRICATED and v.contradiction is not None
    ]


def _contradiction_issue(count: int, limit: int) -> str:
    claims = f"{count} claim{'s' if count != 1 else ''}"
    if limit == 0:
        return f"The answer contradicts the evidence in {claims}; no contradiction is allowed."
    return f"The answer contradicts the evidence in {claims}; at most {limit} allowed."


def _score_issue(report: GroundingReport, score: float, threshold: float) -> str:
    """The grounding score below its threshold, said for the answer's claims: all, part or
    none of them backed by the evidence (``inferred`` is backed in part), the contradicted
    ones said as such."""
    figures = f"(grounding {score:.2f}, needs {threshold:.2f})"
    counted = [v for v in report.verdicts if v.counted]
    n = len(counted)
    partly = sum(v.grade is Grade.INFERRED for v in counted)
    backed = n - sum(v.grade is Grade.FABRICATED for v in counted)
    contradicted = len(contradicted_claims(report))
    if n == 0:
        return f"The answer has no claim the evidence backs {figures}."
    if n == 1:
        if partly:
            return f"The answer's only claim is only partly backed by the evidence {figures}."
        if backed:
            return (
                f"The answer's only claim is backed by the evidence, but not strongly enough "
                f"{figures}."
            )
        verdict = "contradicted by" if contradicted else "not backed by"
        return f"The answer's only claim is {verdict} the evidence {figures}."
    if backed == n:
        if partly:
            return (
                f"Every claim has some support in the evidence, but {partly} of {n} only in "
                f"part {figures}."
            )
        return f"All {n} claims are backed by the evidence, but not strongly enough {figures}."
    if backed:
        return f"Only part of the answer is backed by the evidence {figures}."
    if contradicted == n:
        return f"All {n} claims of the answer are contradicted by the evidence {figures}."
    if contradicted:
        verb = "is" if contradicted == 1 else "are"
        return (
            f"None of the answer's {n} claims is backed by the evidence; {contradicted} "
            f"{verb} contradicted by it {figures}."
        )
    return f"None of the answer's {n} claims is backed by the evidence {figures}."


def flag(verdict: ClaimVerdict) -> FlaggedClaim | None:
    """The flag for a counted FABRICATED claim, ``None`` for any other verdict."""
    if not verdict.counted or verdict.grade is not Grade.FABRICATED:
        return None
    c = verdict.contradiction
    if c is not None:
        return FlaggedClaim(
            index=verdict.claim.index,
            text=verdict.claim.text,
            kind="contradicted",
            correction=c.describe(),
            evidence_id=c.evidence_id,
            quote=c.quote,
        )
    best = verdict.evidence[0] if verdict.evidence else None
    return FlaggedClaim(
        index=verdict.claim.index,
        text=verdict.claim.text,
        kind="unsupported",
        evidence_id=best.evidence_id if best else None,
        quote=best.quote if best else "",
    )


def _confidence_parts(  # noqa: PLR0917
    confidence: CalibratedConfidence,
    failed: list[Dimension],
    confidence_threshold: float,
    flagged: bool,
    issues: list[str],
    actions: list[str],
) -> None:
    """The issue and action of stated confidence above the evidence's, or of a confidence
    too low to pass."""
    if confidence.overconfident and confidence.raw is not None:
        issues.append(
            f"You stated {confidence.raw:.0%} confidence but the evidence supports about "
            f"{confidence.calibrated:.0%}."
        )
        actions.append("State your confidence in line with the evidence; hedge uncertain claims.")
    elif "confidence" in failed and "grounding" not in failed:
        # with grounding also failed, the grounding lines already say what is unsupported
        issues.append(
            f"The answer is unlikely to be supported (confidence {confidence.calibrated:.2f}, "
            f"needs {confidence_threshold:.2f})."
        )
        if not flagged:
            actions.append("Say only what the evidence states, and hedge the rest.")


def build_guidance_parts(
    report: GroundingReport,
    confidence: CalibratedConfidence,
    load: LoadAssessment | None,
    failed: list[Dimension],
    *,
    score: float,
    grounding_threshold: float,
    confidence_threshold: float,
    contradiction_limit: int | None = None,
) -> tuple[list[str], list[str], list[FlaggedClaim]]:
    """Issues (what is wrong), actions (what to do) and the flagged claims.

    Args:
        report: The grounding report.
        confidence: The calibrated confidence.
        load: The load assessment, when load was checked.
        failed: The failed dimensions.
        score: The gate's grounding score.
        grounding_threshold: The grounding threshold applied.
        confidence_threshold: The confidence threshold applied.
        contradiction_limit: The policy's ``max_contradictions`` when the contradicted claims
            exceeded it, else ``None``. Said as an issue when the score itself passes (the
            contradictions alone failed grounding); otherwise the score line and the flagged
            claims already say it.

    Returns:
        ``(issues, actions, flagged)``; the texts address the model and never mention the
        machinery around it.
    """
    issues: list[str] = []
    actions: list[str] = []
    flagged = [f for v in report.verdicts if (f := flag(v)) is not None]
    shown = flagged[:_MAX_FLAGGED]

    if "grounding" in failed and score < grounding_threshold:
        issues.append(_score_issue(report, score, grounding_threshold))
    elif contradiction_limit is not None:
        # the score passes: the contradictions alone failed the grounding dimension
        issues.append(_contradiction_issue(len(contradicted_claims(report)), contradiction_limit))
    for f in shown:
        issues.append(f.describe())
        if f.kind == "contradicted":
            actions.append(_sentence(f"Correct {_topic(f.text)!r}: {f.correction}"))
        else:
            actions.append(
                f"Search for evidence on {_topic(f.text)!r} before restating it, "
                "or hedge or remove it."
            )
    if len(flagged) > len(shown):
        issues.append(f"{len(flagged) - len(shown)} more claims have no support.")
    if "grounding" in failed:
        inferred = [v for v in report.verdicts if v.counted and v.grade is Grade.INFERRED]
        if inferred and not flagged:
            actions.append(
                "Cite the evidence for claims you inferred, or mark them clearly as inference."
            )
        if not report.has_claims and report.reason:
            issues.append(report.reason)
        if not flagged and not inferred:
            actions.append("Base the answer on the evidence you were given.")

    if "confidence" in failed or confidence.overconfident:
        _confidence_parts(confidence, failed, confidence_threshold, bool(flagged), issues, actions)
    if load is not None and load.action is not LoadAction.CONTINUE:
        if "load" in failed:
            issues.append(f"The work is over budget ({load.reason}).")
            actions.append(
                "Stop gathering more material; answer now with what the evidence covers."
            )
        else:
            actions.append("Narrow the scope: answer only what the evidence covers, briefly.")
    # keep order, drop repeats
    return list(dict.fromkeys(issues)), list(dict.fromkeys(actions)), flagged
