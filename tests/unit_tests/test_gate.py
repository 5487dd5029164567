"""Noise gate, gate policy, retry guidance and annotations (hand-built grounding reports)."""

from __future__ import annotations

import itertools
import json

import pytest
from langchain_core.messages import AIMessage

from langchain_qgate.calibration import (
    CalibratedConfidence,
    ConfidenceCalibrator,
    ConfidenceSignal,
)
from langchain_qgate.errors import InvalidInputError, QGateError, QualityGateRejected
from langchain_qgate.gate import (
    CONFIG_KEYS,
    Escalation,
    FilteredOutput,
    FlaggedClaim,
    GatePolicy,
    NoiseGate,
    QualityGate,
    QualityMetadata,
    RejectedOutput,
    RetryGuidance,
    format_decision,
)
from langchain_qgate.gate.load import LoadAction, LoadAssessment, LoadCounters
from langchain_qgate.schemas import GroundingReport
from tests.unit_tests._gate_reports import (
    BAD,
    GOOD,
    QUOTE_2020,
    TEXT,
    conf,
    grounded,
    inferred,
    report,
)

ABORT = LoadAssessment(
    action=LoadAction.ABORT,
    reason="budget spent: 25 of 25 model calls",
    counters=LoadCounters(model_calls=25),
)
OK_LOAD = LoadAssessment(
    action=LoadAction.CONTINUE, reason="within budget", counters=LoadCounters()
)


# --- every pass/fail combination -------------------------------------------------------------


@pytest.mark.parametrize(("g_ok", "c_ok", "l_ok"), list(itertools.product([True, False], repeat=3)))
def test_gate_passes_only_when_all_three_dimensions_pass(
    g_ok: bool, c_ok: bool, l_ok: bool
) -> None:
    gate = NoiseGate(GatePolicy(on_exhausted="escalate"))
    decision = gate.filter_output(
        TEXT, GOOD if g_ok else BAD, conf(0.8 if c_ok else 0.3), OK_LOAD if l_ok else ABORT
    )
    expected_failed = [
        d for d, ok in (("grounding", g_ok), ("confidence", c_ok), ("load", l_ok)) if not ok
    ]
    assert decision.metadata.failed_dimensions == expected_failed
    if not expected_failed:
        assert isinstance(decision, FilteredOutput)
        assert decision.metadata.decision == "pass"
        assert decision.metadata.passed is True
        assert decision.warning is None
    else:
        assert isinstance(decision, RejectedOutput)
        assert decision.guidance.failed_dimensions == expected_failed
        # load ABORT: retrying cannot help, the budget is treated as spent at once
        assert decision.guidance.should_escalate is (not l_ok)
        assert (decision.escalation is not None) is (not l_ok)
        assert decision.metadata.decision == ("escalate" if not l_ok else "retry")


def test_thresholds_are_inclusive() -> None:
    gate = NoiseGate()
    decision = gate.filter_output(TEXT, report(0.6, grounded()), conf(0.5))
    assert isinstance(decision, FilteredOutput)


def test_throttle_does_not_fail_the_load_dimension() -> None:
    throttle = LoadAssessment(
        action=LoadAction.THROTTLE, reason="close to budget", counters=LoadCounters()
    )
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.8), throttle)
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.load_action is LoadAction.THROTTLE


def test_throttle_adds_narrow_the_scope_to_guidance() -> None:
    throttle = LoadAssessment(
        action=LoadAction.THROTTLE, reason="close to budget", counters=LoadCounters()
    )
    decision = NoiseGate().filter_output(TEXT, BAD, conf(0.8), throttle)
    assert isinstance(decision, RejectedOutput)
    assert any("Narrow the scope" in a for a in decision.guidance.actions)


def test_bare_load_action_and_float_confidence_are_accepted() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, 0.9, LoadAction.ABORT)
    assert decision.metadata.failed_dimensions == ["load"]


def test_missing_confidence_falls_back_to_grounding_score() -> None:
    decision = NoiseGate().filter_output(TEXT, report(0.55, grounded()))
    assert decision.metadata.confidence == pytest.approx(0.55)
    assert decision.metadata.failed_dimensions == ["grounding"]


# --- profiles and overrides --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "score", "passes"),
    [
        ("strict", 0.79, False),
        ("strict", 0.85, True),
        ("default", 0.59, False),
        ("default", 0.7, True),
        ("brainstorm", 0.39, False),
        ("brainstorm", 0.45, True),
    ],
)
def test_profiles_apply_their_grounding_threshold(profile: str, score: float, passes: bool) -> None:
    gate = NoiseGate(GatePolicy.from_profile(profile))
    decision = gate.filter_output(TEXT, report(score, grounded()), conf(0.95))
    assert isinstance(decision, FilteredOutput) is passes
    assert decision.metadata.profile == profile


def test_profile_thresholds() -> None:
    assert GatePolicy.from_profile("strict").grounding_threshold == 0.8
    assert GatePolicy.from_profile("default").grounding_threshold == 0.6
    assert GatePolicy.from_profile("brainstorm").grounding_threshold == 0.4
    assert GatePolicy.from_profile("default", max_retries=1).max_retries == 1


def test_unknown_profile_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown gate profile"):
        GatePolicy.from_profile("lenient")


def test_inferred_weight_reweights_inferred_claims() -> None:
    r = report(0.75, grounded(), inferred())
    low = NoiseGate(GatePolicy(inferred_weight=0.0)).filter_output(TEXT, r, conf(0.9))
    high = NoiseGate(GatePolicy(inferred_weight=1.0)).filter_output(TEXT, r, conf(0.9))
    assert low.metadata.score == pytest.approx(0.5)
    assert high.metadata.score == pytest.approx(1.0)
    assert low.metadata.report_score == 0.75


def test_config_override_from_runnable_config() -> None:
    gate = NoiseGate()
    cfg = {"configurable": {"qgate_grounding_threshold": "0.95", "thread_id": "t"}}
    decision = gate.filter_output(TEXT, GOOD, conf(0.9), config=cfg)
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.grounding_threshold == 0.95
    assert gate.policy.grounding_threshold == 0.6  # the gate's own policy is untouched


def test_config_profile_applies_first_then_keys() -> None:
    policy = GatePolicy().with_overrides(
        {"configurable": {"qgate_profile": "strict", "qgate_max_retries": 1}}
    )
    assert (policy.profile, policy.grounding_threshold, policy.max_retries) == ("strict", 0.8, 1)


def test_every_documented_config_key_is_applied() -> None:
    policy = GatePolicy().with_overrides(
        {
            "qgate_profile": "brainstorm",
            "qgate_grounding_threshold": 0.3,
            "qgate_confidence_threshold": 0.2,
            "qgate_inferred_weight": 0.9,
            "qgate_max_retries": "5",
            "qgate_on_exhausted": "raise",
            "qgate_max_contradictions": 2,
        }
    )
    assert len(CONFIG_KEYS) == 7
    assert policy == GatePolicy(
        grounding_threshold=0.3,
        confidence_threshold=0.2,
        inferred_weight=0.9,
        max_retries=5,
        on_exhausted="raise",
        max_contradictions=2,
        profile="brainstorm",
    )


def test_no_config_returns_the_same_policy() -> None:
    policy = GatePolicy()
    assert policy.with_overrides(None) is policy
    assert policy.with_overrides({"configurable": {"thread_id": "x"}}) is policy


@pytest.mark.parametrize(
    "configurable",
    [
        {"qgate_grounding_threshold": "high"},
        {"qgate_grounding_threshold": 1.5},
        {"qgate_on_exhausted": "ignore"},
        {"qgate_max_retries": 1.5},
        {"qgate_profile": "nope"},
    ],
)
def test_invalid_override_raises_invalid_input(configurable: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError) as info:
        GatePolicy().with_overrides({"configurable": configurable})
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"grounding_threshold": 1.2},
        {"confidence_threshold": -0.1},
        {"inferred_weight": 2.0},
        {"max_retries": -1},
        {"on_exhausted": "shrug"},
        {"max_contradictions": -1},
    ],
)
def test_policy_validates_at_construction(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="GatePolicy"):
        GatePolicy(**kwargs)  # type: ignore[arg-type]


def test_policy_is_frozen() -> None:
    with pytest.raises(AttributeError):
        GatePolicy().max_retries = 9  # type: ignore[misc]


# --- exhaustion policies -----------------------------------------------------------------------


def test_escalate_when_budget_spent_returns_escalation() -> None:
    decision = NoiseGate(GatePolicy(max_retries=2)).filter_output(
        TEXT, BAD, conf(0.3), retries_used=2
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.decision == "escalate"
    assert decision.guidance.should_escalate is True
    assert decision.guidance.retries_left == 0
    assert decision.escalation is not None
    assert decision.escalation.draft == TEXT
    assert decision.escalation.report == BAD
    assert decision.escalation.guidance == decision.guidance
    assert "after 2 of 2 retries" in decision.escalation.reason


def test_pass_with_warning_when_budget_spent() -> None:
    gate = NoiseGate(GatePolicy(on_exhausted="pass_with_warning"))
    decision = gate.filter_output(TEXT, BAD, conf(0.3), retries_used=3)
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.decision == "pass_with_warning"
    assert decision.metadata.passed is False
    assert decision.warning is not None
    assert decision.warning.startswith("Low confidence")
    assert decision.metadata.warning == decision.warning
    annotated = decision.render_annotated()
    assert annotated.startswith("⚠ Low confidence")
    assert "[⚠contradicted: the evidence says 2020, not 2019]" in annotated
    assert "[⚠unsupported]" in annotated


def test_raise_when_budget_spent_raises_quality_gate_rejected_not_value_error() -> None:
    gate = NoiseGate(GatePolicy(on_exhausted="raise", max_retries=1))
    with pytest.raises(QualityGateRejected) as info:
        gate.filter_output(TEXT, BAD, conf(0.3), retries_used=1)
    err = info.value
    assert isinstance(err, QGateError)
    assert not isinstance(err, ValueError)
    assert isinstance(err.payload, RejectedOutput)
    assert err.payload.metadata.decision == "raise"
    assert err.payload.guidance.should_escalate is True
    assert any("2020, not 2019" in r for r in err.reasons)


def test_raise_policy_still_returns_rejection_while_retries_remain() -> None:
    gate = NoiseGate(GatePolicy(on_exhausted="raise", max_retries=1))
    decision = gate.filter_output(TEXT, BAD, conf(0.3), retries_used=0)
    assert isinstance(decision, RejectedOutput)
    assert decision.escalation is None


def test_zero_retry_budget_escalates_on_first_rejection() -> None:
    decision = NoiseGate(GatePolicy(max_retries=0)).filter_output(TEXT, BAD, conf(0.3))
    assert isinstance(decision, RejectedOutput)
    assert decision.escalation is not None


def test_negative_retries_used_is_invalid() -> None:
    with pytest.raises(InvalidInputError):
        NoiseGate().filter_output(TEXT, GOOD, conf(0.9), retries_used=-1)


def test_retry_counting_across_calls_with_the_facade_counters() -> None:
    gate = QualityGate(calibrator=ConfidenceCalibrator(None), policy=GatePolicy(max_retries=3))
    counters = LoadCounters()
    seen = []
    for _ in range(5):
        decision = gate.decide(TEXT, BAD, counters=counters, now=0.0)
        assert isinstance(decision, RejectedOutput)
        seen.append(
            (
                decision.guidance.retries_used,
                decision.guidance.retries_left,
                decision.metadata.decision,
            )
        )
        counters = gate.record(counters, decision)
        if decision.escalation is not None:
            break
    assert seen == [(0, 3, "retry"), (1, 2, "retry"), (2, 1, "retry"), (3, 0, "escalate")]
    assert counters.retries == 3


def test_record_does_not_count_a_pass() -> None:
    gate = QualityGate(calibrator=ConfidenceCalibrator(None))
    decision = gate.decide(TEXT, GOOD)
    assert gate.record({"retries": 1}, decision).retries == 1


def test_facade_uses_the_larger_of_retries_used_and_counters() -> None:
    gate = QualityGate(calibrator=ConfidenceCalibrator(None))
    decision = gate.decide(TEXT, BAD, retries_used=1, counters={"retries": 3}, now=0.0)
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.retries_used == 3
    assert decision.escalation is not None


def test_facade_counts_load_from_counters() -> None:
    gate = QualityGate(calibrator=ConfidenceCalibrator(None))
    decision = gate.decide(TEXT, GOOD, counters=LoadCounters(model_calls=25), now=0.0)
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.failed_dimensions == ["load"]
    assert "25 of 25 model calls" in decision.escalation.reason  # type: ignore[union-attr]


# --- guidance content --------------------------------------------------------------------------


def _rejection() -> RejectedOutput:
    decision = NoiseGate().filter_output(TEXT, BAD, conf(0.3, raw=0.95), retries_used=1)
    assert isinstance(decision, RejectedOutput)
    return decision


def test_guidance_for_contradiction_names_the_claim_and_quotes_the_evidence() -> None:
    g = _rejection().guidance
    line = next(i for i in g.issues if "2019" in i)
    assert "Acme was founded in 2019." in line
    assert "The evidence says 2020, not 2019" in line
    assert QUOTE_2020 in line
    assert "[doc1#0]" in line
    flagged = g.flagged_claims[0]
    assert (flagged.kind, flagged.evidence_id, flagged.quote) == (
        "contradicted",
        "doc1#0",
        QUOTE_2020,
    )
    assert any(a.startswith("Correct 'Acme was founded in 2019'") for a in g.actions)


def test_guidance_for_unsupported_claim_asks_to_search_or_hedge() -> None:
    g = _rejection().guidance
    action = next(a for a in g.actions if "500 employees" in a)
    assert "Search for evidence on 'It has 500 employees' before restating it" in action
    assert "hedge or remove it" in action
    assert g.flagged_claims[1].kind == "unsupported"


def test_guidance_flags_overconfidence() -> None:
    g = _rejection().guidance
    assert any("You stated 95% confidence" in i for i in g.issues)
    assert g.failed_dimensions == ["grounding", "confidence"]


def test_guidance_counts_retries() -> None:
    g = _rejection().guidance
    assert (g.retries_used, g.retries_left, g.max_retries, g.should_escalate) == (1, 2, 3, False)


def test_model_message_is_short_actionable_and_never_mentions_machinery() -> None:
    msg = _rejection().guidance.to_model_message()
    low = msg.lower()
    for word in ("graph", "node", " run", "middleware", "langgraph", "gate"):
        assert word not in low
    assert "Revise it:" in msg
    assert "Attempts left: 2 of 3." in msg
    assert len(msg.splitlines()) <= 12


def test_model_message_when_escalating_says_no_attempts_left() -> None:
    decision = NoiseGate().filter_output(TEXT, BAD, conf(0.3), retries_used=3)
    assert isinstance(decision, RejectedOutput)
    assert decision.guidance.to_model_message().endswith("No attempts left.")


def test_user_summary_counts_problems_and_retries() -> None:
    summary = _rejection().guidance.summary()
    first = summary.splitlines()[0]
    assert first == (
        "Failed: grounding, confidence. 1 claim contradicted by the evidence; "
        "1 unsupported claim. 1 of 3 retries used; 2 left."
    )
    assert "- 'Acme was founded in 2019.'" in summary


def test_load_failure_guidance_says_stop_and_answer() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.9), ABORT)
    assert isinstance(decision, RejectedOutput)
    assert any("answer now" in a for a in decision.guidance.actions)


def test_low_grounding_with_only_inferred_claims_asks_for_citations() -> None:
    decision = NoiseGate().filter_output(TEXT, report(0.5, inferred()), conf(0.9))
    assert isinstance(decision, RejectedOutput)
    assert any("Cite the evidence" in a for a in decision.guidance.actions)


# --- metadata and annotation -------------------------------------------------------------------


def test_metadata_carries_per_claim_grades_and_sources() -> None:
    decision = NoiseGate().filter_output(
        TEXT, report(0.85, grounded(), inferred()), conf(0.9, raw=0.95)
    )
    m = decision.metadata
    assert [c.grade for c in m.claims] == ["grounded", "inferred"]
    assert m.claims[0].markers == [1]
    assert m.sources[0].evidence_id == "doc1#1"
    assert (m.raw_confidence, m.overconfident) == (0.95, False)
    assert m.grades == {"grounded": 1, "inferred": 1, "fabricated": 0}


def test_render_annotated_cites_grounded_and_flags_inferred() -> None:
    decision = NoiseGate().filter_output(TEXT, report(0.85, grounded(), inferred()), conf(0.9))
    assert isinstance(decision, FilteredOutput)
    assert decision.render_annotated() == (
        "Acme was founded in 2019. It has 500 employees [1]. So it is a mid-size firm [⚠inferred]."
        "\n\nSources:\n[1] doc1#1: 'Acme employs 500 people.'"
    )


def test_render_annotated_reuses_a_marker_for_the_same_evidence() -> None:
    r = report(1.0, grounded("Acme was founded in 2019.", 0, "doc1#1"), grounded())
    decision = NoiseGate().filter_output(TEXT, r, conf(0.9))
    assert isinstance(decision, FilteredOutput)
    out = decision.render_annotated()
    assert out.count("[1]") == 3  # two claims + the footer
    assert "[2]" not in out


def test_metadata_attaches_to_a_message_as_json() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.9))
    msg = AIMessage(
        content=TEXT, response_metadata={"qgate": decision.metadata.model_dump(mode="json")}
    )
    restored = QualityMetadata.model_validate(
        json.loads(json.dumps(msg.response_metadata["qgate"]))
    )
    assert restored == decision.metadata


def test_message_output_with_content_blocks() -> None:
    msg = AIMessage(content=[{"type": "text", "text": TEXT}])
    decision = NoiseGate().filter_output(msg, GOOD, conf(0.9))
    assert decision.text == TEXT


# --- JSON round-trips --------------------------------------------------------------------------


def test_every_model_round_trips_through_json() -> None:
    rejected = NoiseGate().filter_output(TEXT, BAD, conf(0.3, raw=0.9), OK_LOAD, retries_used=3)
    passed = NoiseGate(GatePolicy(on_exhausted="pass_with_warning")).filter_output(
        TEXT, BAD, conf(0.3), retries_used=3
    )
    assert isinstance(rejected, RejectedOutput)
    assert isinstance(passed, FilteredOutput)
    assert rejected.escalation is not None
    items = [
        (RejectedOutput, rejected),
        (FilteredOutput, passed),
        (QualityMetadata, rejected.metadata),
        (RetryGuidance, rejected.guidance),
        (Escalation, rejected.escalation),
        (FlaggedClaim, rejected.guidance.flagged_claims[0]),
        (CalibratedConfidence, conf(0.3, raw=0.9)),
        (LoadAssessment, OK_LOAD),
    ]
    for cls, obj in items:
        assert cls.model_validate_json(obj.model_dump_json()) == obj
        assert cls.model_validate(json.loads(json.dumps(obj.model_dump(mode="json")))) == obj


# --- async twins and CLI text ------------------------------------------------------------------


async def test_afilter_output_matches_filter_output() -> None:
    gate = NoiseGate()
    for r in (GOOD, BAD):
        sync = gate.filter_output(TEXT, r, conf(0.7), OK_LOAD, 1)
        assert await gate.afilter_output(TEXT, r, conf(0.7), OK_LOAD, 1) == sync


async def test_afilter_output_raises_under_raise_policy() -> None:
    gate = NoiseGate(GatePolicy(on_exhausted="raise", max_retries=0))
    with pytest.raises(QualityGateRejected):
        await gate.afilter_output(TEXT, BAD, conf(0.2))


def test_format_decision_shows_decision_figures_and_guidance() -> None:
    out = format_decision(_rejection())
    lines = out.splitlines()
    assert lines[0] == (
        "Gate decision: retry (rejected; the model answers again with guidance)   [profile default]"
    )
    assert lines[1] == "  grounding    0.20 (threshold 0.60)"
    assert "  retries      1 of 3 used" in lines
    assert "Guidance for the model:" in lines
    assert any("The evidence says 2020, not 2019" in line for line in lines)


def test_format_decision_for_a_pass_has_no_guidance() -> None:
    out = format_decision(NoiseGate().filter_output(TEXT, GOOD, conf(0.9)))
    assert out.startswith("Gate decision: pass")
    assert "Guidance" not in out


# --- facade with a scripted monitor -------------------------------------------------------------


class _ScriptedMonitor:
    """Returns the next report of a script; records what it was asked."""

    def __init__(self, *reports: GroundingReport) -> None:
        self.reports = list(reports)
        self.calls: list[tuple[object, object, str | None, str]] = []

    def verify_grounding(
        self, output: object, evidence: object, question: str | None = None
    ) -> GroundingReport:
        self.calls.append((output, evidence, question, "sync"))
        return self.reports.pop(0)

    async def averify_grounding(
        self, output: object, evidence: object, question: str | None = None
    ) -> GroundingReport:
        self.calls.append((output, evidence, question, "async"))
        return self.reports.pop(0)


def test_facade_check_runs_monitor_calibrator_load_and_gate() -> None:
    monitor = _ScriptedMonitor(BAD, GOOD)
    gate = QualityGate(monitor=monitor, calibrator=ConfidenceCalibrator(None))
    first = gate.check("I'm 95% sure. " + TEXT, ["evidence"], question="When?")
    assert isinstance(first, RejectedOutput)
    assert first.metadata.overconfident is True
    assert first.metadata.raw_confidence == pytest.approx(0.95)
    counters = gate.record(LoadCounters(), first)
    second = gate.check(TEXT, ["evidence"], counters=counters, now=0.0)
    assert isinstance(second, FilteredOutput)
    assert second.metadata.load_action is LoadAction.CONTINUE
    assert monitor.calls[0][1:] == (["evidence"], "When?", "sync")


async def test_facade_acheck_uses_the_async_monitor() -> None:
    monitor = _ScriptedMonitor(GOOD)
    gate = QualityGate(monitor=monitor, calibrator=ConfidenceCalibrator(None))
    decision = await gate.acheck(TEXT, "evidence text", question=None)
    assert isinstance(decision, FilteredOutput)
    assert monitor.calls[0][3] == "async"


async def test_facade_acheck_raises_under_raise_policy() -> None:
    gate = QualityGate(
        monitor=_ScriptedMonitor(BAD),
        calibrator=ConfidenceCalibrator(None),
        policy=GatePolicy(on_exhausted="raise", max_retries=0),
    )
    with pytest.raises(QualityGateRejected):
        await gate.acheck(TEXT, "evidence")


def test_facade_config_override_per_call() -> None:
    gate = QualityGate(monitor=_ScriptedMonitor(GOOD), calibrator=ConfidenceCalibrator(None))
    decision = gate.check(TEXT, "e", config={"configurable": {"qgate_profile": "strict"}})
    # GOOD scores 0.9 but its calibrated confidence (0.9) passes strict's 0.7 too
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.profile == "strict"
    assert gate.policy.profile == "default"


# --- facade with the real monitor (hashing embedder) --------------------------------------------

EVIDENCE = ["Acme was founded in 2020 in Berlin. Acme employs 500 people."]


@pytest.fixture
def real_gate(hashing_embedder: object) -> QualityGate:
    from langchain_qgate.grounding import HallucinationMonitor

    return QualityGate(
        monitor=HallucinationMonitor(embedder=hashing_embedder),
        calibrator=ConfidenceCalibrator(None),
    )


def test_facade_passes_a_grounded_answer_with_citations(real_gate: QualityGate) -> None:
    decision = real_gate.check(
        "Acme was founded in 2020 in Berlin. It employs 500 people.", EVIDENCE
    )
    assert isinstance(decision, FilteredOutput)
    annotated = decision.render_annotated()
    assert "Berlin [1]." in annotated
    assert "people [2]." in annotated
    assert "Sources:" in annotated
    assert decision.metadata.sources[0].quote == "Acme was founded in 2020 in Berlin."


def test_facade_rejects_a_contradicted_answer_with_quoted_evidence(real_gate: QualityGate) -> None:
    decision = real_gate.check("Acme was founded in 2019 in Berlin.", EVIDENCE)
    assert isinstance(decision, RejectedOutput)
    assert "grounding" in decision.metadata.failed_dimensions
    message = decision.guidance.to_model_message()
    assert "The evidence says 2020, not 2019" in message
    assert "'Acme was founded in 2020 in Berlin.'" in message


async def test_facade_acheck_matches_check(real_gate: QualityGate) -> None:
    answer = "Acme was founded in 2019 in Berlin. It employs 500 people."
    assert await real_gate.acheck(answer, EVIDENCE) == real_gate.check(answer, EVIDENCE)


def test_confidence_only_failure_asks_to_stick_to_the_evidence() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.3))
    assert isinstance(decision, RejectedOutput)
    g = decision.guidance
    assert g.failed_dimensions == ["confidence"]
    assert g.issues == ["The answer is unlikely to be supported (confidence 0.30, needs 0.50)."]
    assert g.actions == ["Say only what the evidence states, and hedge the rest."]


# --- the confidence dimension adds information, it does not re-judge grounding -------------


def test_confidence_from_the_shipped_map_is_not_held_against_a_second_threshold() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.1, fitted=False))
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.failed_dimensions == []


def test_confidence_fails_on_a_confidence_stated_in_words_that_the_evidence_does_not_back() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.4, raw=0.95, fitted=False))
    assert decision.metadata.failed_dimensions == ["confidence"]
    assert decision.metadata.overconfident is True


def test_token_logprobs_alone_never_fail_the_confidence_dimension() -> None:
    fluent = CalibratedConfidence(
        raw=0.99,
        calibrated=0.4,
        sources=[ConfidenceSignal(kind="logprobs", value=0.99, detail="mean of 12 tokens")],
        overconfident=True,
        gap=0.59,
    )
    decision = NoiseGate().filter_output(TEXT, GOOD, fluent)
    assert isinstance(decision, FilteredOutput)


def test_confidence_from_a_map_fitted_on_own_outcomes_is_held_to_the_threshold() -> None:
    decision = NoiseGate().filter_output(TEXT, GOOD, conf(0.3, fitted=True))
    assert decision.metadata.failed_dimensions == ["confidence"]
    assert isinstance(NoiseGate().filter_output(TEXT, GOOD, 0.3), RejectedOutput)  # a given number


def test_a_hedge_stated_in_words_never_fails_the_confidence_dimension() -> None:
    hedged = conf(0.3, raw=0.6, fitted=False)  # "I think ...": overconfident by 0.3, but a hedge
    assert hedged.overconfident
    decision = NoiseGate().filter_output(TEXT, GOOD, hedged)
    assert isinstance(decision, FilteredOutput)
