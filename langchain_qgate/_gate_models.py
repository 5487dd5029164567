"""Pydantic models of the noise gate (re-exported by :mod:`langchain_qgate.gate`).

All are frozen and round-trip through JSON (``model_dump_json`` / ``model_validate_json``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate._annotate import render_annotated
from langchain_qgate._guidance import Dimension, FlaggedClaim
from langchain_qgate.load import LoadAction
from langchain_qgate.schemas import GroundingReport

__all__ = [
    "ClaimQuality",
    "Decision",
    "Escalation",
    "FilteredOutput",
    "QualityMetadata",
    "RejectedOutput",
    "RetryGuidance",
    "SourceRef",
]

Decision = Literal["pass", "pass_with_warning", "retry", "escalate", "raise"]
"""The gate's decision: passed; passed with a low-confidence warning after the budget was
spent; rejected with retries left; rejected and handed to a human; rejected and raised."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ClaimQuality(_Model):
    """Per-claim grade as attached to a message.

    Attributes:
        index: Position in the output.
        text: The claim.
        type: ``factual`` / ``reasoning`` / ``opinion``.
        grade: ``grounded`` / ``inferred`` / ``fabricated``.
        support: Probability the evidence supports it.
        counted: False for opinions.
        start: Span start in the output text.
        end: Span end (exclusive).
        evidence_ids: Best-matching evidence ids, best first (up to 3).
        markers: Citation markers (numbers in ``QualityMetadata.sources``) for grounded claims.
        contradiction: What the evidence says instead, for contradicted claims.
        reason: The verdict's reason.
    """

    index: int
    text: str
    type: str
    grade: str
    support: float
    counted: bool = True
    start: int = 0
    end: int = 0
    evidence_ids: list[str] = Field(default_factory=list)
    markers: list[int] = Field(default_factory=list)
    contradiction: str | None = None
    reason: str = ""

    @property
    def label(self) -> str:
        """The grade for display: ``GROUNDED`` / ``INFERRED`` / ``FABRICATED``, or
        ``OPINION`` for a claim that is labelled, not graded (``counted`` False)."""
        return self.grade.upper() if self.counted else "OPINION"


class SourceRef(_Model):
    """A cited evidence chunk.

    Attributes:
        marker: The number shown inline (``[1]``).
        evidence_id: Evidence chunk id.
        source_id: Document / tool message the chunk came from.
        quote: The chunk text the claim matched.
    """

    marker: int
    evidence_id: str
    source_id: str
    quote: str


class QualityMetadata(_Model):
    """The gate's verdict on an output, attached to messages as ``response_metadata["qgate"]``.

    Attributes:
        decision: What the gate decided.
        passed: Whether every dimension passed (False for ``pass_with_warning``).
        profile: Name of the policy profile.
        score: Grounding score used by the gate (the report's, re-weighted when the policy's
            ``inferred_weight`` differs from 0.5).
        report_score: The grounding report's own score.
        grounding_threshold: The threshold applied.
        confidence: Calibrated confidence: the probability, in [0, 1], that the answer is
            supported by the evidence, mapped from the grounding score (and any stated
            confidence) by the calibrator. ``confidence 0.35`` reads "about one chance in
            three that this answer is supported".
        raw_confidence: Stated confidence, when the output stated one.
        confidence_threshold: The threshold applied.
        overconfident: Stated confidence well above the calibrated one.
        confidence_gap: Stated minus calibrated (0 when nothing stated).
        confidence_reason: How the confidence was obtained.
        load_action: The load verdict (``None`` when load was not checked). ``throttle`` is
            advice for a further attempt (the run is close to its budget); on a passed answer
            it has no effect.
        load_reason: Why.
        failed_dimensions: Dimensions below threshold.
        claims: Per-claim grades.
        sources: Cited evidence, in marker order.
        retries_used: Retries used before this decision.
        max_retries: The retry budget applied to this call (after per-call overrides and,
            in ``QualityGate``, an explicit load budget's cap).
        contradictions: Counted claims graded FABRICATED because the evidence contradicts
            them (the policy's ``max_contradictions`` applies to this number).
        warning: The low-confidence warning of a ``pass_with_warning`` decision.
        reason: The grounding report's reason (e.g. why there was nothing to grade).
    """

    decision: Decision
    passed: bool
    profile: str = "default"
    score: float
    report_score: float
    grounding_threshold: float
    confidence: float
    raw_confidence: float | None = None
    confidence_threshold: float
    overconfident: bool = False
    confidence_gap: float = 0.0
    confidence_reason: str = ""
    load_action: LoadAction | None = None
    load_reason: str = ""
    failed_dimensions: list[Dimension] = Field(default_factory=list)
    claims: list[ClaimQuality] = Field(default_factory=list)
    sources: list[SourceRef] = Field(default_factory=list)
    retries_used: int = 0
    max_retries: int = 3
    contradictions: int = 0
    warning: str | None = None
    reason: str = ""

    @property
    def grades(self) -> dict[str, int]:
        """Counted claims per grade."""
        out = {"grounded": 0, "inferred": 0, "fabricated": 0}
        for c in self.claims:
            if c.counted:
                out[c.grade] = out.get(c.grade, 0) + 1
        return out


class FilteredOutput(_Model):
    """An output that passed the gate (or passed with a warning after the budget was spent).

    Attributes:
        text: The output text.
        metadata: The gate's verdict.
        warning: Low-confidence warning (``pass_with_warning`` only).

    Example:
        ```python
        if isinstance(decision, FilteredOutput):
            message.response_metadata["qgate"] = decision.metadata.model_dump(mode="json")
            print(decision.render_annotated())
        ```
    """

    text: str
    metadata: QualityMetadata
    warning: str | None = None

    def render_annotated(self) -> str:
        """The text with citation markers, flags on inferred / fabricated claims, the
        warning first and a ``Sources:`` footer."""
        return render_annotated(self.text, self.metadata, warning=self.warning)


class RetryGuidance(_Model):
    """What went wrong and what the model should do on its next attempt.

    Attributes:
        failed_dimensions: ``grounding`` / ``confidence`` / ``load``.
        issues: Problems, one line each (contradicted claims quote the evidence).
        actions: Concrete instructions.
        flagged_claims: The fabricated or contradicted claims, structured.
        retries_used: Retries used before this rejection.
        retries_left: Retries still allowed (0 when escalating).
        max_retries: The budget.
        should_escalate: True when the budget is spent: hand over instead of retrying.
    """

    failed_dimensions: list[Dimension]
    issues: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    flagged_claims: list[FlaggedClaim] = Field(default_factory=list)
    retries_used: int = 0
    retries_left: int = 0
    max_retries: int = 3
    should_escalate: bool = False

    def to_model_message(self) -> str:
        """The model-facing text: short, actionable, addressed to the model."""
        lines = ["Your previous answer did not pass the fact check against the evidence."]
        if self.issues:
            lines.append("Problems:")
            lines.extend(f"- {i}" for i in self.issues)
        if self.actions:
            lines.append("Revise it:")
            lines.extend(f"- {a}" for a in self.actions)
        if self.should_escalate:
            lines.append("No attempts left.")
        else:
            lines.append(f"Attempts left: {self.retries_left} of {self.max_retries}.")
        return "\n".join(lines)

    def summary(self, *, brief: bool = False) -> str:
        """The user-facing summary (``brief``: one line)."""
        contra = sum(f.kind == "contradicted" for f in self.flagged_claims)
        unsup = sum(f.kind == "unsupported" for f in self.flagged_claims)
        parts = [f"Failed: {', '.join(self.failed_dimensions)}."]
        counts = []
        if contra:
            counts.append(
                f"{contra} claim{'s' if contra != 1 else ''} contradicted by the evidence"
            )
        if unsup:
            counts.append(f"{unsup} unsupported claim{'s' if unsup != 1 else ''}")
        if counts:
            parts.append("; ".join(counts).capitalize() + ".")
        if self.should_escalate:
            parts.append(f"Retry budget spent ({self.retries_used} of {self.max_retries} used).")
        else:
            parts.append(
                f"{self.retries_used} of {self.max_retries} retries used; {self.retries_left} left."
            )
        head = " ".join(parts)
        if brief:
            return head
        return "\n".join([head, *(f"- {i}" for i in self.issues)])


class Escalation(_Model):
    """A rejected output handed to a human (the integrations pass it to ``interrupt()``).

    Attributes:
        reason: Why the gate gave up.
        draft: The rejected output text.
        report: Its grounding report.
        guidance: The last guidance.
    """

    reason: str
    draft: str
    report: GroundingReport
    guidance: RetryGuidance


class RejectedOutput(_Model):
    """An output the gate rejected.

    Attributes:
        text: The rejected output text.
        metadata: The gate's verdict.
        guidance: What to fix.
        escalation: Set when the budget is spent and the policy is ``escalate`` (or
            ``raise``: the payload of ``QualityGateRejected``).

    Example:
        ```python
        if isinstance(decision, RejectedOutput) and decision.escalation is None:
            messages.append(HumanMessage(decision.guidance.to_model_message()))
        ```
    """

    text: str
    metadata: QualityMetadata
    guidance: RetryGuidance
    escalation: Escalation | None = None
