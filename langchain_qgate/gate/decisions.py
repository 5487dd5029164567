"""The gate's decisions: a passed output, a rejected one with retry guidance, an escalation.

Re-exported by :mod:`langchain_qgate.gate`. All are frozen and round-trip through JSON
(``model_dump_json`` / ``model_validate_json``).
"""

from __future__ import annotations

from pydantic import Field

from langchain_qgate.gate.annotate import render_annotated
from langchain_qgate.gate.guidance import Dimension, FlaggedClaim
from langchain_qgate.gate.metadata import QualityMetadata, _Model
from langchain_qgate.schemas import GroundingReport

__all__ = ["Escalation", "FilteredOutput", "RejectedOutput", "RetryGuidance"]


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
