"""The gate's verdict on one output, as attached to messages: per-claim grades and sources.

Re-exported by :mod:`langchain_qgate.gate`. All models are frozen and round-trip through JSON
(``model_dump_json`` / ``model_validate_json``).
"""

from __future__ import annotations

import warnings
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate.gate.guidance import Dimension
from langchain_qgate.gate.load import LoadAction
from langchain_qgate.grounding.claims.language import LanguageCheck

__all__ = ["ClaimQuality", "Decision", "QualityMetadata", "SourceRef", "describe_decision"]

Decision = Literal[
    "pass", "pass_with_warning", "retry", "escalate", "raise", "approved", "edited", "rejected"
]
"""What was decided about an answer.

The gate's own decisions: ``pass``; ``pass_with_warning`` (the budget was spent, delivered
with a low-confidence warning); ``retry`` (rejected, retries left); ``escalate`` (rejected,
handed to a human); ``raise`` (rejected and raised). A human reviewer's decision on an
escalated answer replaces ``escalate``: ``approved`` (the draft is delivered), ``edited`` (the
reviewer's text is delivered) or ``rejected`` (the model answers again with the feedback)."""

_DECISION_TEXT: dict[str, str] = {
    "pass": "pass",
    "pass_with_warning": "pass_with_warning (delivered with a warning: the retry budget is "
    "spent, or the text is in a language the checks cannot read)",
    "retry": "retry (rejected; the model answers again with guidance)",
    "escalate": "escalate (rejected; retry budget spent, a human decides)",
    "raise": "raise (rejected; retry budget spent)",
    "approved": "approved (by a human reviewer after escalation)",
    "edited": "edited (a human reviewer's text replaced the draft)",
    "rejected": "rejected (by a human reviewer; the model answers again)",
}


# A file check (``qgate check``) has no model to answer again and no retry budget to spend:
# the decision says what it would mean in an agent.
_FILE_CHECK_TEXT: dict[str, str] = {
    "pass_with_warning": "pass_with_warning (passes, with the warning below)",
    "retry": (
        "retry (rejected: in an agent the model would be asked again with the guidance below)"
    ),
    "escalate": "escalate (rejected: in an agent with no retries left, a human reviewer would "
    "decide)",
    "raise": "raise (rejected: in an agent with no retries left, the gate would raise "
    "QualityGateRejected)",
}


def describe_decision(decision: str, *, model_in_loop: bool = True) -> str:
    """The decision for people: its value, then what it means (``retry (rejected; ...)``).

    Args:
        decision: A :data:`Decision` value.
        model_in_loop: False for a check with no model to answer again (``qgate check`` on
            files): a rejection then says what it would mean in an agent instead of speaking of
            retries that do not happen.
    """
    if not model_in_loop and decision in _FILE_CHECK_TEXT:
        return _FILE_CHECK_TEXT[decision]
    return _DECISION_TEXT.get(decision, decision)


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
        """Deprecated: use :attr:`grade` (lowercase) and :attr:`counted`.

        The old display form: ``GROUNDED`` / ``INFERRED`` / ``FABRICATED``, or ``OPINION`` for
        a claim that is labelled, not graded (``counted`` False).
        """
        warnings.warn(
            "ClaimQuality.label is deprecated: use .grade ('grounded' / 'inferred' / "
            "'fabricated'; lowercase everywhere) and .counted (False for an opinion)",
            DeprecationWarning,
            stacklevel=2,
        )
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
        decision: What the gate decided, or what a human reviewer decided on an escalated
            answer (``approved`` / ``edited`` / ``rejected``).
        passed: Whether the answer was accepted: every dimension passed, or a human approved
            or edited it (False for ``pass_with_warning``).
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
        reason: The grounding report's reason (e.g. why there was nothing to grade); for a
            human's decision, the reviewer's action first (``approved by a human reviewer...``).
            When the text cannot be read (``language.supported`` False), what could not be
            read and what the gate did come first.
        language: The languages of the answer and the evidence, whether the checks can read
            them and, when not, what ``GatePolicy.on_unsupported_language`` did
            (``{"answer": "de", "evidence": "en", "supported": false, "action": "warn",
            ...}``); ``None`` on verdicts made before it existed.
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
    language: LanguageCheck | None = None

    @property
    def grades(self) -> dict[str, int]:
        """Counted claims per grade."""
        out = {"grounded": 0, "inferred": 0, "fabricated": 0}
        for c in self.claims:
            if c.counted:
                out[c.grade] = out.get(c.grade, 0) + 1
        return out
