"""The gate's language policy (issue 48, item 3): text it cannot read never passes silently.

``GatePolicy.on_unsupported_language``: ``warn`` (the default) delivers it as
``pass_with_warning`` with the flag, a reason and a log line; ``reject`` rejects it through the
usual machinery with guidance to answer in English; ``verifier`` hands the claims to the LLM
verifier configured on the monitor, or warns when there is none. Hand-built reports and the
rules-only monitor with the hashing embedder: no model.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import InvalidInputError, QualityGateRejected, SettingsError
from langchain_qgate.gate import (
    FilteredOutput,
    GatePolicy,
    NoiseGate,
    QualityGate,
    QualityMetadata,
    RejectedOutput,
    format_decision,
    load_settings,
)
from langchain_qgate.gate.load import LoadAction
from langchain_qgate.gate.policy import as_gate_policy, describe_policy
from langchain_qgate.gate.telemetry import gate_scope
from langchain_qgate.grounding.claims.language import LanguageCheck
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.verifier.verifiers import (
    CascadeVerifier,
    VerificationItem,
    VerifierVerdict,
)
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from langchain_qgate.schemas import (
    Claim,
    ClaimVerdict,
    EvidenceLink,
    Grade,
    GroundingReport,
)
from tests.unit_tests._gate_reports import contradicted, report
from tests.unit_tests._qgate_fakes import GOOD, QUESTION, SEARCH_TOOL, scripted_model

GERMAN = "Das Zephyr Book 14 hat 32 GB Arbeitsspeicher und unterstützt kein Laden über USB-C."
ENGLISH = "The Zephyr Book 14 has 16 GB of memory and supports USB-C charging."
EVIDENCE = (
    "The Zephyr Book 14 has 16 GB of memory and supports USB-C charging with the included "
    "65 W charger."
)
GERMAN_EVIDENCE = (
    "Das Zephyr Book 14 hat 16 GB Arbeitsspeicher und wird über USB-C mit dem mitgelieferten "
    "Netzteil geladen."
)
LOGGER = "langchain_qgate.gate._language"


def _report(
    text: str, quote: str = EVIDENCE, *, verifier: str = "deterministic"
) -> GroundingReport:
    """A report that grounds ``text`` as one claim on ``quote`` (as the rules might misread it)."""
    verdict = ClaimVerdict(
        claim=Claim(text=text, start=0, end=len(text), index=0),
        grade=Grade.GROUNDED,
        support=0.9,
        credit=0.9,
        reason="supported by doc#0",
        evidence=[EvidenceLink(evidence_id="doc#0", source_id="doc", quote=quote, score=0.8)],
        verifier=verifier,
    )
    return GroundingReport(score=0.9, verdicts=[verdict], evidence_count=1)


def _gate(**policy: Any) -> NoiseGate:
    return NoiseGate(GatePolicy(**policy))


# -- the policy field and its settings -----------------------------------------------------------


def test_the_language_policy_defaults_to_warn_and_refuses_other_values() -> None:
    assert GatePolicy().on_unsupported_language == "warn"
    assert GatePolicy.from_profile("strict").on_unsupported_language == "warn"
    with pytest.raises(ValueError, match="on_unsupported_language must be one of"):
        GatePolicy(on_unsupported_language="ignore")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="on_unsupported_language"):
        as_gate_policy({"on_unsupported_language": "translate"})


def test_a_profile_keeps_the_language_policy() -> None:
    policy = GatePolicy(on_unsupported_language="reject").with_profile("brainstorm")
    assert policy.on_unsupported_language == "reject"
    assert policy.with_overrides(
        {"configurable": {"qgate_profile": "strict"}}
    ).on_unsupported_language == ("reject")


def test_the_policy_repr_names_the_language_policy_only_when_it_is_not_the_default() -> None:
    assert "on_unsupported_language" not in describe_policy(GatePolicy())
    assert describe_policy(GatePolicy(on_unsupported_language="reject")).endswith(
        ", on_unsupported_language='reject'"
    )


def test_the_language_policy_comes_from_the_environment_and_the_config_file(
    tmp_path: Path,
) -> None:
    env = {"QGATE_ON_UNSUPPORTED_LANGUAGE": "reject"}
    assert load_settings(env).policy().on_unsupported_language == "reject"
    config = tmp_path / "qgate.toml"
    config.write_text('[qgate]\non_unsupported_language = "verifier"\n', encoding="utf-8")
    settings = load_settings({}, config_file=config)
    assert settings.policy().on_unsupported_language == "verifier"
    assert settings.sources["on_unsupported_language"] == f"{config}: on_unsupported_language"
    assert load_settings(env, config_file=config).policy().on_unsupported_language == "reject"


def test_an_unusable_language_policy_setting_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="QGATE_ON_UNSUPPORTED_LANGUAGE") as info:
        load_settings({"QGATE_ON_UNSUPPORTED_LANGUAGE": "translate"})
    assert "on_unsupported_language must be one of" in str(info.value)


# -- warn ------------------------------------------------------------------------------------------


def test_warn_delivers_a_german_answer_with_a_warning_never_as_a_silent_pass() -> None:
    decision = _gate().filter_output(GERMAN, _report(GERMAN))
    assert isinstance(decision, FilteredOutput)
    meta = decision.metadata
    assert meta.decision == "pass_with_warning"
    assert meta.passed is False
    assert meta.failed_dimensions == []
    assert meta.language is not None
    assert (meta.language.answer, meta.language.evidence) == ("de", "en")
    assert meta.language.supported is False
    assert meta.language.action == "warn"
    assert meta.reason.startswith("The answer is in German (de): the claim checks read English")
    assert decision.warning is not None
    assert decision.warning.startswith("Not verified. The answer is in German (de)")
    assert "decides nothing" in decision.warning
    assert meta.claims[0].grade == "grounded"
    assert meta.claims[0].reason.startswith("not verified (German text read as English): ")


def test_warn_does_not_reject_on_grades_computed_as_if_the_text_were_english() -> None:
    failing = _report(GERMAN).model_copy(update={"score": 0.1})
    decision = _gate(max_retries=0, on_exhausted="raise").filter_output(GERMAN, failing)
    assert decision.metadata.decision == "pass_with_warning"
    assert isinstance(decision, FilteredOutput)
    assert "0.10" in (decision.warning or "")


def test_warn_still_fails_a_run_over_its_load_budget() -> None:
    decision = _gate(on_exhausted="escalate").filter_output(
        GERMAN, _report(GERMAN), load=LoadAction.ABORT
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.failed_dimensions == ["load"]
    assert decision.metadata.language is not None
    assert decision.metadata.language.action == "warn"


def test_an_english_answer_is_decided_as_before_and_says_it_was_read() -> None:
    decision = _gate().filter_output(ENGLISH, _report(ENGLISH))
    meta = decision.metadata
    assert meta.decision == "pass"
    assert meta.passed is True
    assert meta.warning is None
    assert meta.language == LanguageCheck(
        answer="en", evidence="en", supported=True, evidence_languages={"en": 1.0}
    )


def test_a_short_answer_is_undetermined_and_decided_as_before() -> None:
    decision = _gate().filter_output("16 GB.", _report("16 GB."))
    assert decision.metadata.decision == "pass"
    assert decision.metadata.language is not None
    assert decision.metadata.language.answer == "und"
    assert decision.metadata.language.supported


# -- reject ----------------------------------------------------------------------------------------


def test_reject_sends_a_german_answer_back_with_guidance_to_answer_in_english() -> None:
    decision = _gate(on_unsupported_language="reject").filter_output(GERMAN, _report(GERMAN))
    assert isinstance(decision, RejectedOutput)
    meta = decision.metadata
    assert meta.decision == "retry"
    assert meta.failed_dimensions == ["grounding"]
    assert meta.language is not None
    assert meta.language.action == "reject"
    guidance = decision.guidance
    assert guidance.flagged_claims == []  # its grades read it as English: no claim is named
    assert guidance.issues == ["The answer is in German; the fact check reads English only."]
    assert guidance.actions == ["Write the whole answer in English, the language of the evidence."]
    assert "Write the whole answer in English" in guidance.to_model_message()
    assert guidance.retries_left == 3


def test_reject_escalates_when_the_retries_are_spent() -> None:
    decision = _gate(on_unsupported_language="reject", max_retries=1).filter_output(
        GERMAN, _report(GERMAN), retries_used=1
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.decision == "escalate"
    assert decision.escalation is not None
    assert decision.escalation.reason == (
        "The answer is in German (de): the claim checks read English only; "
        "still so after 1 of 1 retries"
    )


def test_reject_raises_through_the_exhaustion_policy() -> None:
    gate = _gate(on_unsupported_language="reject", max_retries=0, on_exhausted="raise")
    with pytest.raises(QualityGateRejected) as info:
        gate.filter_output(GERMAN, _report(GERMAN))
    assert info.value.payload.metadata.decision == "raise"
    assert "The answer is in German (de)" in str(info.value)


def test_reject_hands_unreadable_evidence_to_on_exhausted_at_once() -> None:
    """No answer can fix evidence the checks cannot read: no retry is offered."""
    decision = _gate(on_unsupported_language="reject", on_exhausted="escalate").filter_output(
        ENGLISH, _report(ENGLISH, quote=GERMAN_EVIDENCE)
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.decision == "escalate"
    assert decision.guidance.should_escalate
    assert decision.guidance.issues == [
        "100% of the evidence is in other languages than English (mostly German); the fact "
        "check cannot read it."
    ]
    assert decision.escalation is not None
    assert decision.escalation.reason.endswith("a retry cannot change the evidence")
    assert decision.metadata.claims[0].reason.startswith(
        "not verified (the evidence is mostly in German): "
    )


# -- verifier --------------------------------------------------------------------------------------


def test_verifier_without_an_llm_verifier_warns_and_says_so() -> None:
    decision = _gate(on_unsupported_language="verifier").filter_output(GERMAN, _report(GERMAN))
    assert decision.metadata.decision == "pass_with_warning"
    language = decision.metadata.language
    assert language is not None
    assert language.action == "warn"
    assert "no LLM verifier graded its claims" in language.reason
    assert "CascadeVerifier(second=LLMVerifier(model))" in language.reason


def test_verifier_lets_the_llm_verifiers_grades_decide() -> None:
    decision = _gate(on_unsupported_language="verifier").filter_output(
        GERMAN, _report(GERMAN, verifier="llm")
    )
    assert decision.metadata.decision == "pass"
    language = decision.metadata.language
    assert language is not None
    assert (language.supported, language.action) == (False, "verifier")
    assert language.reason.endswith("its claims were graded by the LLM verifier")
    assert not decision.metadata.claims[0].reason.startswith("not verified")


class _FakeLLM:
    """A second-stage verifier that reads any language: it contradicts claims with "32"."""

    name = "llm"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def verify(self, items: Sequence[VerificationItem]) -> list[VerifierVerdict]:
        self.seen += [it.claim.text for it in items]
        return [
            VerifierVerdict(
                support=0.05 if "32" in it.claim.text else 0.95,
                verifier=self.name,
                contradicted="32" in it.claim.text,
                reason="fake",
            )
            for it in items
        ]


def _monitor(verifier: object | None = None) -> HallucinationMonitor:
    return HallucinationMonitor(
        policy=GroundingPolicy(pair_model=None),
        embedder=HashingEmbedder(),
        verifier=verifier,  # type: ignore[arg-type]
    )


def test_check_hands_every_claim_of_a_german_answer_to_the_cascades_llm() -> None:
    llm = _FakeLLM()
    gate = QualityGate(
        monitor=_monitor(CascadeVerifier(second=llm)),
        policy=GatePolicy(on_unsupported_language="verifier", max_retries=0),
        observer=False,
    )
    decision = gate.check(GERMAN, [EVIDENCE])
    assert llm.seen == [GERMAN]  # every claim, not only the cascade's uncertain band
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.failed_dimensions == ["grounding"]
    assert decision.metadata.language is not None
    assert decision.metadata.language.action == "verifier"


async def test_acheck_hands_the_claims_to_the_llm_too() -> None:
    llm = _FakeLLM()
    gate = QualityGate(
        monitor=_monitor(CascadeVerifier(second=llm)),
        policy=GatePolicy(on_unsupported_language="verifier"),
        observer=False,
    )
    german = "Das Zephyr Book 14 hat 16 GB Arbeitsspeicher und wird über USB-C geladen."
    decision = await gate.acheck(german, [EVIDENCE])
    assert llm.seen == [german]
    assert decision.metadata.decision == "pass"
    assert decision.metadata.language is not None
    assert decision.metadata.language.action == "verifier"


def test_check_leaves_an_english_answer_to_the_usual_verifier() -> None:
    llm = _FakeLLM()
    gate = QualityGate(
        monitor=_monitor(CascadeVerifier(second=llm, band=(0.0, 0.0))),
        policy=GatePolicy(on_unsupported_language="verifier"),
        observer=False,
    )
    decision = gate.check(ENGLISH, [EVIDENCE])
    assert llm.seen == []
    assert decision.metadata.language is not None
    assert decision.metadata.language.supported


def test_check_without_an_llm_verifier_warns_on_a_german_answer() -> None:
    gate = QualityGate(
        monitor=_monitor(), policy={"on_unsupported_language": "verifier"}, observer=False
    )
    decision = gate.check(GERMAN, [EVIDENCE])
    assert decision.metadata.decision == "pass_with_warning"
    assert decision.metadata.language is not None
    assert decision.metadata.language.action == "warn"


def test_check_reads_the_whole_evidence_for_the_share() -> None:
    gate = QualityGate(monitor=_monitor(), observer=False)
    decision = gate.check(ENGLISH, [EVIDENCE, GERMAN_EVIDENCE, GERMAN_EVIDENCE])
    language = decision.metadata.language
    assert language is not None
    assert language.evidence == "de"
    assert language.evidence_share > 0.5
    assert decision.metadata.decision == "pass_with_warning"


# -- the log line, the metadata, the CLI block ------------------------------------------------


def test_the_warning_is_logged_on_a_runs_first_attempt_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    gate = _gate()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        gate.filter_output(GERMAN, _report(GERMAN))
        with gate_scope("middleware", warn_no_evidence=False):  # a later attempt of the run
            gate.filter_output(GERMAN, _report(GERMAN))
        gate.filter_output(ENGLISH, _report(ENGLISH))
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert lines == [
        "quality gate: The answer is in German (de): the claim checks read English only; "
        "delivered unverified with a warning"
    ]


def test_the_language_flag_round_trips_through_json() -> None:
    meta = _gate().filter_output(GERMAN, _report(GERMAN)).metadata
    again = QualityMetadata.model_validate_json(meta.model_dump_json())
    assert again == meta
    assert meta.model_dump(mode="json")["language"]["answer"] == "de"
    assert (
        QualityMetadata.model_validate(
            {k: v for k, v in meta.model_dump().items() if k != "language"}
        ).language
        is None
    )


def test_the_decision_block_says_the_text_could_not_be_read() -> None:
    text = format_decision(_gate().filter_output(GERMAN, _report(GERMAN)))
    assert "Gate decision: pass_with_warning (not verified: the text is in a language" in text
    assert "  language     The answer is in German (de)" in text


# -- an agent run ----------------------------------------------------------------------------------


def test_an_agent_answering_in_german_is_asked_for_english_and_passes_in_english() -> None:
    german = (
        "Nordlicht Robotics meldete für das Geschäftsjahr 2024 einen Umsatz von 48,2 Millionen "
        "Euro, und der Umsatz ist um 31 Prozent gestiegen."
    )
    model = scripted_model([german, GOOD])
    mw = QualityGateMiddleware(
        monitor=_monitor(), policy={"on_unsupported_language": "reject", "max_retries": 1}
    )
    agent: Any = create_agent(
        model, tools=[SEARCH_TOOL], middleware=[mw], checkpointer=InMemorySaver()
    )
    result = agent.invoke({"messages": [("user", QUESTION)]}, {"configurable": {"thread_id": "de"}})
    final = result["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate"]["decision"] == "pass"
    guidance = model.calls[-1][-1]  # the model saw the guidance as the last user turn
    assert isinstance(guidance, HumanMessage)
    assert "The answer is in German; the fact check reads English only." in guidance.content
    assert "Write the whole answer in English" in guidance.content


def test_reject_over_the_load_budget_names_the_language_and_the_load_only() -> None:
    decision = _gate(on_unsupported_language="reject").filter_output(
        GERMAN, report(0.1, contradicted()), load=LoadAction.ABORT
    )
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.failed_dimensions == ["grounding", "load"]
    assert decision.metadata.decision == "escalate"
    issues = decision.guidance.issues
    assert issues[0] == "The answer is in German; the fact check reads English only."
    assert issues[1].startswith("The work is over budget")
    assert len(issues) == 2
