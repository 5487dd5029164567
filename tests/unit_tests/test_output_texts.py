"""What people read: CLI report, gate summary, guidance, demo table (issue 16, item 6)."""

from __future__ import annotations

import pytest

from langchain_qgate.cli import format_report
from langchain_qgate.errors import QualityGateRejected
from langchain_qgate.gate import (
    FilteredOutput,
    GatePolicy,
    NoiseGate,
    format_decision,
)
from langchain_qgate.gate.load import LoadAction, LoadAssessment, LoadCounters
from langchain_qgate.schemas import (
    Claim,
    ClaimType,
    ClaimVerdict,
    Contradiction,
    Grade,
    GroundingReport,
)
from tests.unit_tests._gate_reports import GOOD, TEXT, conf, report


def make_claim(text: str, index: int, ctype: ClaimType = ClaimType.FACTUAL) -> Claim:
    return Claim(text=text, type=ctype, start=0, end=len(text), index=index)


def _opinion() -> ClaimVerdict:
    return ClaimVerdict(
        claim=make_claim("I think it is a good buy.", 1, ClaimType.OPINION),
        grade=Grade.FABRICATED,
        support=0.1,
        credit=0.0,
        counted=False,
        reason="opinion: not counted",
    )


def test_an_opinion_is_shown_as_not_graded_not_as_fabricated():
    with_opinion = GroundingReport.model_validate(
        {**GOOD.model_dump(), "verdicts": [*GOOD.model_dump()["verdicts"], _opinion()]}
    )
    text = format_report(with_opinion)
    line = next(ln for ln in text.splitlines() if "opinion" in ln and ln.startswith("["))
    assert "not graded" in line
    assert "fabricated" not in line
    assert "1 opinion not graded" in text
    decision = NoiseGate().filter_output(TEXT, with_opinion, conf(0.9))
    assert decision.metadata.claims[-1].counted is False
    with pytest.deprecated_call(match=r"use \.grade"):
        assert decision.metadata.claims[-1].label == "OPINION"  # deprecated, still works


def test_a_contradicted_number_keeps_its_unit():
    c = Contradiction(
        kind="number",
        claim_value="650",
        evidence_value="504",
        evidence_id="products/p2#1",
        quote="The Heron L1 battery stores 504 Wh.",
    )
    assert c.describe() == "the evidence says 504 Wh, not 650 Wh"
    plain = c.model_copy(update={"quote": "It shipped 504 robots in Hamburg."})
    assert plain.describe() == "the evidence says 504, not 650"
    date = Contradiction(
        kind="date", claim_value="2019", evidence_value="2020", evidence_id="a#0", quote="2020 m"
    )
    assert date.describe() == "the evidence says 2020, not 2019"


def test_no_doubled_punctuation_in_guidance_or_the_raised_error():
    negation = Contradiction(
        kind="negation",
        claim_value="sells",
        evidence_value="",
        evidence_id="e#4",
        quote="Nordlicht does not sell robots directly to consumers.",
    )
    claim = make_claim("Nordlicht sells robots directly to consumers.", 0)
    verdict = ClaimVerdict(
        claim=claim,
        grade=Grade.FABRICATED,
        support=0.3,
        credit=0.0,
        reason=f"contradicted: {negation.describe()}",
        contradiction=negation,
    )
    policy = GatePolicy(max_retries=0, on_exhausted="raise")
    try:
        NoiseGate(policy).filter_output(claim.text, report(0.0, verdict), conf(0.1))
    except QualityGateRejected as exc:
        message = str(exc)
        guidance = exc.payload.guidance
    else:  # pragma: no cover
        raise AssertionError("expected a rejection")
    for text in [message, *guidance.actions, *guidance.issues]:
        for doubled in (".;", ".'.", ").;", "..", '.".', ")."):
            if doubled == ")." and text.endswith(")."):
                continue  # a sentence ending with a parenthesis is fine
            assert doubled not in text, (doubled, text)


def test_a_throttle_on_a_passed_answer_is_explained():
    throttle = LoadAssessment(
        action=LoadAction.THROTTLE,
        reason="close to budget: 3 of 3 retries",
        counters=LoadCounters(),
    )
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.9), throttle)
    assert isinstance(decision, FilteredOutput)
    block = format_decision(decision)
    assert "no effect on this answer" in block
    assert "calibrated probability that the answer is supported" in block


def test_demo_table_wraps_at_word_boundaries_and_labels_opinions():
    from langchain_qgate.cli.demo import WIDTH, _claims_table

    long_reason = "unsupported: no evidence backs it (not in evidence: " + ", ".join(
        ["replacement", "warehouse", "robots", "lifetime", "guarantee"] * 3
    )
    meta = {
        "claims": [
            {"index": 0, "text": "A " * 40 + "claim.", "grade": "fabricated", "support": 0.2,
             "reason": long_reason, "counted": True},
            {"index": 1, "text": "I think it is great.", "grade": "fabricated", "support": 0.1,
             "reason": "opinion", "counted": False},
        ]
    }  # fmt: skip
    lines = _claims_table(meta)
    assert all(len(line) <= WIDTH for line in lines)
    words = " ".join(" ".join(lines).split())
    assert "replacement, warehouse, robots, lifetime, guarantee" in words  # nothing cut
    assert "…" not in words
    assert any("opinion" in line and "fabricated" not in line for line in lines)


def test_a_check_without_evidence_says_so(caplog):
    from langchain_qgate.gate import QualityGate
    from tests.unit_tests._qgate_fakes import make_monitor

    gate = QualityGate(monitor=make_monitor())
    with caplog.at_level("WARNING", logger="langchain_qgate.gate"):
        gate.check("Nordlicht was founded in 2019.", [])
    assert "no evidence given" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="langchain_qgate.gate"):
        gate.check("Nordlicht was founded in 2019.", ["Nordlicht was founded in 2019."])
    assert "no evidence" not in caplog.text
