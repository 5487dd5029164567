"""Pydantic models that cross component boundaries (grounding).

Every model serializes to JSON with stable field names (``model_dump_json`` /
``model_validate_json`` round-trip). Models owned by a single component (calibration, gate,
tool gating, judge, memory) live next to that component and are re-exported from the package.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "Claim",
    "ClaimType",
    "ClaimVerdict",
    "Contradiction",
    "ContradictionKind",
    "EvidenceChunk",
    "EvidenceLink",
    "Finding",
    "FindingKind",
    "Grade",
    "GroundingReport",
]


class ClaimType(StrEnum):
    """What kind of statement a claim is."""

    FACTUAL = "factual"
    """A statement about the world that evidence can support or refute."""
    REASONING = "reasoning"
    """A conclusion derived from other statements ("therefore", "so", "which means")."""
    OPINION = "opinion"
    """A recommendation, hedged judgement or first-person view; labelled, not scored."""


class Grade(StrEnum):
    """How well the evidence backs a claim."""

    GROUNDED = "grounded"
    """The evidence supports it; the verdict links the evidence id and the quoted span."""
    INFERRED = "inferred"
    """It follows from grounded claims or evidence, but no single source states it."""
    FABRICATED = "fabricated"
    """No support, or contradicted by the best-matching evidence."""


_BARE_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# Unit symbols written after a number (a closed set: a plain word after a number is usually
# the next word of the sentence, "2 in Berlin", not a unit).
_UNIT = (
    r"kWh|MWh|Wh|mAh|kW|MW|W|V|A|kg|g|t|km/h|km|cm|mm|m|ms|s|h|min|GB|MB|TB|GHz|MHz|Hz|"
    r"°C|°F|dB|L|ml|lbs|lb|ft|mph"
)

ContradictionKind = Literal[
    "number", "date", "money", "percent", "time", "entity", "negation", "statement"
]
"""The kind of value on which a claim and its evidence disagree (``statement``: the learned
verifier reads the evidence sentence as saying otherwise, with no single value named)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Claim(_Model):
    """An atomic statement extracted from an output.

    Attributes:
        text: The claim as it will be verified (a carried-over subject may be prepended).
        type: Factual, reasoning or opinion.
        start: Character offset of the claim's span in the original text.
        end: End offset (exclusive) of the span in the original text.
        index: Position of the claim in the output (0-based).
    """

    text: str
    type: ClaimType = ClaimType.FACTUAL
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    index: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _span_ordered(self) -> Claim:
        if self.end < self.start:
            msg = f"claim span end ({self.end}) is before start ({self.start})"
            raise ValueError(msg)
        return self


class EvidenceChunk(_Model):
    """A sentence or passage of evidence with a stable id.

    Attributes:
        id: Stable id: ``<source id>#<chunk number>``; the same text from the same source gets
            the same id in every run.
        text: The chunk text.
        source_id: Id of the document / tool message the chunk came from.
        start: Character offset of the chunk in its source text.
        end: End offset (exclusive) in the source text.
        metadata: Metadata of the source (``Document.metadata``, tool name...).
    """

    id: str
    text: str
    source_id: str
    start: int = Field(default=0, ge=0)
    end: int = Field(default=0, ge=0)
    metadata: dict[str, Any] = Field(default_factory=dict)


class EvidenceLink(_Model):
    """A pointer from a claim to the evidence that bears on it.

    Attributes:
        evidence_id: Id of the evidence chunk.
        source_id: Id of the source the chunk belongs to.
        quote: The quoted evidence span.
        score: Similarity of claim and chunk (cosine, in [-1, 1]).
    """

    evidence_id: str
    source_id: str
    quote: str
    score: float


class Contradiction(_Model):
    """A value in the claim that disagrees with the best-matching evidence.

    Attributes:
        kind: Number, date, money, percent, time (of day), entity, negation, or statement
            (the learned verifier reads the quoted sentence as saying otherwise).
        claim_value: The value as the claim states it.
        evidence_value: The value the evidence gives instead ("" for a missing negation).
        evidence_id: The chunk that disagrees.
        quote: The disagreeing evidence text.
        field: The structured field that disagrees (``listing.hours.Tuesday``), if any.
        check: The check that found it: a built-in one (``slot_aligned``, ``negation``,
            ``records``, ``verifier``, ... : ``langchain_qgate.BUILTIN_CHECKS``) or a user's
            own (``GroundingPolicy.checks``); ``None`` when not recorded.
    """

    kind: ContradictionKind
    claim_value: str
    evidence_value: str
    evidence_id: str
    quote: str
    field: str | None = None
    check: str | None = None

    def describe(self) -> str:
        """One sentence naming both values, e.g. ``the evidence says 2020, not 2019``.

        A bare number gets the unit the evidence writes after it (``the evidence says 504 Wh,
        not 650 Wh``): the two values fill the same slot, so they share the unit.
        """
        if self.field is not None:  # a structured field, named (grounding/records/fields.py)
            if self.kind == "negation" and self.claim_value not in ("true", "false"):
                # a term of the field's own value denied ("isn't in the city centre")
                return (
                    f"`{self.field}` says {self.evidence_value}, which the claim denies: "
                    f"{self.claim_value!r}"
                )
            return f"`{self.field}` says {self.evidence_value}, not {self.claim_value}"
        if self.kind == "negation":
            return f"the evidence states the opposite: {self.quote!r}"
        if self.kind == "statement":
            if self.evidence_value:  # a local change: the words the claim swapped, named
                return (
                    f"the evidence says {self.evidence_value!r}, not {self.claim_value!r}: "
                    f"{self.quote!r}"
                )
            return f"the evidence says otherwise: {self.quote!r}"
        evidence, claim = self.evidence_value, self.claim_value
        unit = self._unit() if self.kind == "number" else ""
        if unit:
            evidence, claim = f"{evidence} {unit}", f"{claim} {unit}"
        return f"the evidence says {evidence}, not {claim}"

    def _unit(self) -> str:
        """The unit after the evidence's bare number in the quote (``504 Wh`` -> ``Wh``)."""
        if not _BARE_NUMBER.fullmatch(self.evidence_value) or not _BARE_NUMBER.fullmatch(
            self.claim_value
        ):
            return ""
        found = re.search(rf"(?<![\w.,]){re.escape(self.evidence_value)}\s?({_UNIT})\b", self.quote)
        return found.group(1) if found else ""


FindingKind = Literal["contradiction", "unsupported", "supported"]
"""What a check found: the evidence says otherwise, no evidence holds what the claim says, or
the evidence states it."""


class Finding(_Model):
    """What one check found about one claim (``langchain_qgate.Check``).

    Attributes:
        kind: ``contradiction`` (the evidence gives another value: the claim is FABRICATED
            and the contradiction named), ``unsupported`` (the evidence holds nothing that
            states it: FABRICATED, never "contradicted") or ``supported`` (cited; the grade is
            left to the other signals).
        reason: A short concrete reason, shown in the verdict.
        claim_value: The value as the claim states it.
        evidence_value: The value the evidence gives instead (a contradiction).
        evidence_id: The chunk the finding rests on, when there is one.
        quote: That chunk's text (filled from ``evidence_id`` when left empty).
        field: A structured field path the finding is about, if any.
        value_kind: The kind of value, for a contradiction (``entity`` by default).
        check: The check's name (filled in by the registry).
    """

    kind: FindingKind
    reason: str = ""
    claim_value: str = ""
    evidence_value: str = ""
    evidence_id: str | None = None
    quote: str = ""
    field: str | None = None
    value_kind: ContradictionKind = "entity"
    check: str = ""

    def contradiction(self) -> Contradiction:
        """The finding as the verdict's ``Contradiction`` (one that names no values reads as
        the evidence saying otherwise, quoting its chunk)."""
        return Contradiction(
            kind=self.value_kind if self.claim_value or self.evidence_value else "statement",
            claim_value=self.claim_value,
            evidence_value=self.evidence_value,
            evidence_id=self.evidence_id or "",
            quote=self.quote,
            field=self.field,
            check=self.check or None,
        )


class ClaimVerdict(_Model):
    """The grade of one claim and why.

    Attributes:
        claim: The claim.
        grade: Grounded, inferred or fabricated.
        support: Probability in [0, 1] that the evidence supports the claim.
        credit: The claim's contribution to the grounding score.
        counted: False for opinions (labelled, not counted against the output).
        reason: A short concrete reason (``"contradicted"`` for contradictions).
        evidence: Best-matching evidence, best first.
        contradiction: The disagreeing value, when the claim is contradicted.
        premises: For inferred claims, indexes of the grounded claims it rests on.
        verifier: Name of the verifier that produced the final grade.
        signals: The numeric signals behind the verdict (for explanation and debugging).
        findings: What the checks of the ``Check`` protocol found about it: the built-in
            ``list_pick`` and the user's own (``GroundingPolicy.checks``).
    """

    claim: Claim
    grade: Grade
    support: float = Field(ge=0.0, le=1.0)
    credit: float = Field(ge=0.0, le=1.0)
    counted: bool = True
    reason: str
    evidence: list[EvidenceLink] = Field(default_factory=list)
    contradiction: Contradiction | None = None
    premises: list[int] = Field(default_factory=list)
    verifier: str = "deterministic"
    signals: dict[str, float] = Field(default_factory=dict)
    findings: list[Finding] = Field(default_factory=list)

    @property
    def contradicted(self) -> bool:
        """Whether the claim is fabricated because evidence contradicts it."""
        return self.contradiction is not None


class GroundingReport(_Model):
    """Per-claim verdicts and the overall grounding score of one output.

    Attributes:
        score: Weighted mean credit over counted claims, in [0, 1].
        verdicts: One verdict per claim, in output order.
        reason: Why the score is what it is when there is nothing to grade.
        evidence_count: Number of evidence chunks searched.
        question: The question the output answers, when given.
        model_name: The embedding model used.
        notes: What of the evidence was left unread ("evidence orders: more than 5,000
            fields: the rest was not read"), so a cut is never silent.
    """

    score: float = Field(ge=0.0, le=1.0)
    verdicts: list[ClaimVerdict] = Field(default_factory=list)
    reason: str = ""
    evidence_count: int = Field(default=0, ge=0)
    question: str | None = None
    model_name: str = ""
    notes: list[str] = Field(default_factory=list)

    @property
    def counts(self) -> dict[Grade, int]:
        """Number of counted claims per grade."""
        out = dict.fromkeys(Grade, 0)
        for v in self.verdicts:
            if v.counted:
                out[v.grade] += 1
        return out

    @property
    def fabricated(self) -> list[ClaimVerdict]:
        """Counted claims graded FABRICATED (contradicted or unsupported)."""
        return [v for v in self.verdicts if v.counted and v.grade is Grade.FABRICATED]

    @property
    def contradictions(self) -> list[ClaimVerdict]:
        """Claims the evidence contradicts."""
        return [v for v in self.verdicts if v.contradiction is not None]

    @property
    def has_claims(self) -> bool:
        """Whether any counted claim was graded."""
        return any(v.counted for v in self.verdicts)
