"""Hand-built grounding reports for the gate tests (no monitor, no model)."""

from __future__ import annotations

from langchain_qgate.calibration import CalibratedConfidence, ConfidenceSignal
from langchain_qgate.schemas import (
    Claim,
    ClaimType,
    ClaimVerdict,
    Contradiction,
    EvidenceLink,
    Grade,
    GroundingReport,
)

TEXT = "Acme was founded in 2019. It has 500 employees. So it is a mid-size firm."
QUOTE_2020 = "Acme was founded in 2020 in Berlin."


def make_claim(text: str, index: int, ctype: ClaimType = ClaimType.FACTUAL) -> Claim:
    start = TEXT.index(text)
    return Claim(text=text, type=ctype, start=start, end=start + len(text), index=index)


def contradicted() -> ClaimVerdict:
    return ClaimVerdict(
        claim=make_claim("Acme was founded in 2019.", 0),
        grade=Grade.FABRICATED,
        support=0.04,
        credit=0.0,
        reason="contradicted",
        evidence=[
            EvidenceLink(evidence_id="doc1#0", source_id="doc1", quote=QUOTE_2020, score=0.86)
        ],
        contradiction=Contradiction(
            kind="date",
            claim_value="2019",
            evidence_value="2020",
            evidence_id="doc1#0",
            quote=QUOTE_2020,
        ),
    )


def grounded(
    text: str = "It has 500 employees.", index: int = 1, eid: str = "doc1#1"
) -> ClaimVerdict:
    return ClaimVerdict(
        claim=make_claim(text, index),
        grade=Grade.GROUNDED,
        support=0.93,
        credit=1.0,
        reason="supported",
        evidence=[
            EvidenceLink(
                evidence_id=eid, source_id="doc1", quote="Acme employs 500 people.", score=0.9
            )
        ],
    )


def inferred() -> ClaimVerdict:
    return ClaimVerdict(
        claim=make_claim("So it is a mid-size firm.", 2, ClaimType.REASONING),
        grade=Grade.INFERRED,
        support=0.5,
        credit=0.5,
        reason="follows from claim 1",
        premises=[1],
    )


def unsupported() -> ClaimVerdict:
    return ClaimVerdict(
        claim=make_claim("It has 500 employees.", 1),
        grade=Grade.FABRICATED,
        support=0.1,
        credit=0.0,
        reason="no supporting evidence",
    )


def report(score: float, *verdicts: ClaimVerdict) -> GroundingReport:
    return GroundingReport(score=score, verdicts=list(verdicts), evidence_count=3)


def conf(value: float, raw: float | None = None, *, fitted: bool = True) -> CalibratedConfidence:
    """A calibrated confidence; by default from a map fitted on the user's own outcomes (the
    only case in which the gate holds it against its threshold), ``raw`` stated in words."""
    gap = (raw - value) if raw is not None else 0.0
    sources = (
        [ConfidenceSignal(kind="verbalized", value=raw, detail="test")] if raw is not None else []
    )
    return CalibratedConfidence(
        raw=raw,
        calibrated=value,
        sources=sources,
        overconfident=gap > 0.2,
        gap=gap,
        reason="test",
        fitted=fitted,
    )


GOOD = report(0.9, grounded(), inferred())
BAD = report(0.2, contradicted(), unsupported())
