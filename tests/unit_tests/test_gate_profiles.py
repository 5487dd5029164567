"""Each profile's handling of contradicted claims, and the guidance such a rejection carries."""

from __future__ import annotations

import pytest

from langchain_qgate.calibration import ConfidenceCalibrator
from langchain_qgate.gate import (
    PROFILES,
    FilteredOutput,
    GatePolicy,
    NoiseGate,
    QualityGate,
    RejectedOutput,
)
from langchain_qgate.schemas import Grade
from tests.unit_tests._gate_reports import (
    QUOTE_2020,
    TEXT,
    conf,
    contradicted,
    grounded,
    report,
)

# One contradicted claim, two grounded ones: the score (0.85) passes every profile's threshold.
CONTRADICTED_BUT_HIGH = report(
    0.85, contradicted(), grounded(), grounded("So it is a mid-size firm.", 2, "doc1#2")
)
CLAIM_LINE = (
    "'Acme was founded in 2019.': The evidence says 2020, not 2019: "
    "'Acme was founded in 2020 in Berlin.' [doc1#0]"
)


@pytest.mark.parametrize(
    ("profile", "max_contradictions", "passes"),
    [("strict", 0, False), ("default", 0, False), ("brainstorm", None, True)],
)
def test_each_profile_handles_a_contradicted_claim_with_a_passing_score(
    profile: str, max_contradictions: int | None, passes: bool
) -> None:
    policy = GatePolicy.from_profile(profile)
    assert policy.max_contradictions == max_contradictions
    decision = NoiseGate(policy).filter_output(TEXT, CONTRADICTED_BUT_HIGH, conf(0.9))
    assert isinstance(decision, FilteredOutput) is passes
    assert decision.metadata.score == pytest.approx(0.85)
    assert decision.metadata.contradictions == 1
    assert decision.metadata.failed_dimensions == ([] if passes else ["grounding"])


def test_the_plain_policy_is_the_default_profile_and_rejects_contradictions() -> None:
    assert GatePolicy() == GatePolicy.from_profile("default") == PROFILES["default"]
    decision = NoiseGate().filter_output(TEXT, CONTRADICTED_BUT_HIGH, conf(0.9))
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.profile == "default"


def test_default_rejection_names_the_claim_and_quotes_the_evidence() -> None:
    decision = NoiseGate().filter_output(TEXT, CONTRADICTED_BUT_HIGH, conf(0.9))
    assert isinstance(decision, RejectedOutput)
    g = decision.guidance
    assert g.issues == [
        "The answer contradicts the evidence in 1 claim; no contradiction is allowed.",
        CLAIM_LINE,
    ]
    assert g.actions == ["Correct 'Acme was founded in 2019': the evidence says 2020, not 2019."]
    assert [(f.kind, f.evidence_id, f.quote) for f in g.flagged_claims] == [
        ("contradicted", "doc1#0", QUOTE_2020)
    ]
    assert g.to_model_message() == "\n".join(
        [
            "Your previous answer did not pass the fact check against the evidence.",
            "Problems:",
            "- The answer contradicts the evidence in 1 claim; no contradiction is allowed.",
            f"- {CLAIM_LINE}",
            "Revise it:",
            "- Correct 'Acme was founded in 2019': the evidence says 2020, not 2019.",
            "Attempts left: 3 of 3.",
        ]
    )
    assert g.summary(brief=True) == (
        "Failed: grounding. 1 claim contradicted by the evidence. 0 of 3 retries used; 3 left."
    )


def test_a_passing_score_is_not_reported_as_too_low() -> None:
    decision = NoiseGate().filter_output(TEXT, CONTRADICTED_BUT_HIGH, conf(0.9))
    assert isinstance(decision, RejectedOutput)
    assert not any("Only part of the answer" in i for i in decision.guidance.issues)


def test_a_low_score_with_a_contradiction_reports_the_score_then_names_the_claim() -> None:
    low = report(0.5, contradicted(), grounded())
    decision = NoiseGate().filter_output(TEXT, low, conf(0.9))
    assert isinstance(decision, RejectedOutput)
    assert decision.guidance.issues == [
        "Only part of the answer is backed by the evidence (grounding 0.50, needs 0.60).",
        CLAIM_LINE,
    ]


def test_brainstorm_still_rejects_a_contradicted_answer_whose_score_is_too_low() -> None:
    low = report(0.35, contradicted(), grounded())
    decision = NoiseGate(GatePolicy.from_profile("brainstorm")).filter_output(TEXT, low, conf(0.9))
    assert isinstance(decision, RejectedOutput)
    assert decision.guidance.issues[0] == (
        "Only part of the answer is backed by the evidence (grounding 0.35, needs 0.40)."
    )
    assert CLAIM_LINE in decision.guidance.issues


def test_exhausted_default_escalates_with_the_contradiction_in_the_escalation() -> None:
    decision = NoiseGate(GatePolicy(max_retries=0)).filter_output(
        TEXT, CONTRADICTED_BUT_HIGH, conf(0.9)
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.escalation is not None
    assert decision.escalation.reason == "failed grounding after 0 of 0 retries"
    assert CLAIM_LINE in decision.guidance.to_model_message()


def test_pass_with_warning_counts_the_contradicted_claim() -> None:
    policy = GatePolicy(max_retries=0, on_exhausted="pass_with_warning")
    decision = NoiseGate(policy).filter_output(TEXT, CONTRADICTED_BUT_HIGH, conf(0.9))
    assert isinstance(decision, FilteredOutput)
    assert decision.warning == (
        "Low confidence: this answer did not pass the quality check (failed grounding after "
        "0 of 0 retries); claims flagged: 1 contradicted."
    )


@pytest.mark.parametrize(
    ("configurable", "passes"),
    [
        ({"qgate_profile": "brainstorm"}, True),
        ({"qgate_max_contradictions": None}, True),
        ({"qgate_max_contradictions": "none"}, True),
        ({"qgate_max_contradictions": 1}, True),
        ({"qgate_profile": "brainstorm", "qgate_max_contradictions": 0}, False),
        ({"qgate_profile": "strict"}, False),
        ({"qgate_grounding_threshold": 0.5}, False),
    ],
)
def test_contradiction_tolerance_follows_per_call_overrides(
    configurable: dict[str, object], passes: bool
) -> None:
    decision = NoiseGate().filter_output(
        TEXT, CONTRADICTED_BUT_HIGH, conf(0.9), config={"configurable": configurable}
    )
    assert isinstance(decision, FilteredOutput) is passes


def test_a_numeric_limit_names_the_limit_when_exceeded() -> None:
    two = report(0.7, contradicted(), contradicted().model_copy(update={"claim": grounded().claim}))
    decision = NoiseGate(GatePolicy(max_contradictions=1)).filter_output(TEXT, two, conf(0.9))
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.contradictions == 2
    assert decision.guidance.issues[0] == (
        "The answer contradicts the evidence in 2 claims; at most 1 allowed."
    )


def test_a_contradiction_the_verifier_overruled_does_not_count() -> None:
    # The checks saw a rival value but the verifier judged the claim supported (GROUNDED):
    # nothing to name in the guidance, so nothing to reject for.
    overruled = contradicted().model_copy(
        update={"grade": Grade.GROUNDED, "support": 0.9, "credit": 1.0, "reason": "supported"}
    )
    decision = NoiseGate().filter_output(TEXT, report(0.95, overruled, grounded()), conf(0.9))
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.contradictions == 0


def test_an_opinion_is_not_counted_as_a_contradiction() -> None:
    opinion = contradicted().model_copy(update={"counted": False})
    decision = NoiseGate().filter_output(TEXT, report(0.9, opinion, grounded()), conf(0.9))
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.contradictions == 0


# --- through the facade with the real monitor (hashing embedder) --------------------------------

EVIDENCE = [
    "Acme was founded in 2020 in Berlin. Acme employs 500 people. Acme sells industrial robots. "
    "Acme has offices in Munich and Vienna."
]
MOSTLY_RIGHT = (
    "Acme was founded in 2019 in Berlin. Acme employs 500 people. Acme sells industrial robots. "
    "Acme has offices in Munich and Vienna."
)


@pytest.fixture
def facade(hashing_embedder: object) -> QualityGate:
    from langchain_qgate.grounding import HallucinationMonitor

    return QualityGate(
        monitor=HallucinationMonitor(embedder=hashing_embedder),
        calibrator=ConfidenceCalibrator(None),
    )


@pytest.mark.parametrize(
    ("profile", "decision"), [("strict", "retry"), ("default", "retry"), ("brainstorm", "pass")]
)
def test_facade_profiles_on_a_mostly_grounded_answer_with_one_wrong_date(
    facade: QualityGate, profile: str, decision: str
) -> None:
    result = facade.check(
        MOSTLY_RIGHT, EVIDENCE, config={"configurable": {"qgate_profile": profile}}
    )
    assert result.metadata.score >= 0.6  # the score alone would pass default and brainstorm
    assert result.metadata.contradictions == 1
    assert result.metadata.decision == decision


def test_facade_default_rejection_quotes_the_evidence(facade: QualityGate) -> None:
    result = facade.check(MOSTLY_RIGHT, EVIDENCE)
    assert isinstance(result, RejectedOutput)
    assert result.metadata.failed_dimensions == ["grounding"]
    message = result.guidance.to_model_message()
    assert "'Acme was founded in 2019 in Berlin.': The evidence says 2020, not 2019:" in message
    assert "'Acme was founded in 2020 in Berlin.'" in message
    assert "The answer contradicts the evidence in 1 claim; no contradiction is allowed." in message
