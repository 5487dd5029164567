"""Issue 48, item 3, on the real models: text the gate cannot read never passes silently.

The issue's German answer (a wrong figure and a flipped negation against English evidence)
passed with grounding 0.61 and no warning. Now it, and the same answer in French, Spanish,
Chinese and Arabic, is flagged under ``on_unsupported_language="warn"`` (delivered as
``pass_with_warning`` with the flag and a reason) and rejected under ``"reject"`` with guidance
to answer in English. Evidence that is mostly in another language is flagged with its share;
English answers that quote foreign names stay English and pass.
"""

from __future__ import annotations

from typing import Any

import pytest

from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityGate, RejectedOutput
from langchain_qgate.grounding.evidence.embeddings import CachedEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor

pytestmark = pytest.mark.model

EVIDENCE = (
    "The Zephyr Book 14 has 16 GB of memory and supports USB-C charging with the included 65 W "
    "charger."
)
WRONG = {
    "de": "Das Zephyr Book 14 hat 32 GB Arbeitsspeicher und unterstützt kein Laden über USB-C.",
    "fr": "Le Zephyr Book 14 a 32 Go de mémoire et ne prend pas en charge la recharge par USB-C.",
    "es": "El Zephyr Book 14 tiene 32 GB de memoria y no admite la carga por USB-C.",
    "zh": "Zephyr Book 14 配备 32 GB 内存，不支持 USB-C 充电。",
    "ar": "يحتوي Zephyr Book 14 على ذاكرة بسعة 32 جيجابايت ولا يدعم الشحن عبر USB-C.",
}
GERMAN_DOC = (
    "Das Zephyr Book 14 wird in Stuttgart montiert. Der Akku hält bis zu zehn Stunden, und das "
    "Gerät wiegt 1,4 Kilogramm. Es hat zwei USB-C-Anschlüsse und einen HDMI-Ausgang."
)
ENGLISH_ANSWER = "The Zephyr Book 14 has 16 GB of memory and supports USB-C charging."


@pytest.fixture(scope="module")
def monitor(real_embedder: CachedEmbedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


def _gate(monitor: HallucinationMonitor, **policy: Any) -> QualityGate:
    return QualityGate(monitor=monitor, policy=GatePolicy(**policy), observer=False)


@pytest.mark.parametrize("lang", list(WRONG))
def test_a_foreign_answer_with_a_wrong_figure_is_flagged_under_warn(
    monitor: HallucinationMonitor, lang: str
) -> None:
    decision = _gate(monitor).check(WRONG[lang], [EVIDENCE])
    assert isinstance(decision, FilteredOutput)
    meta = decision.metadata
    assert meta.decision == "pass_with_warning"
    assert meta.passed is False
    assert meta.language is not None
    assert (meta.language.answer, meta.language.evidence) == (lang, "en")
    assert (meta.language.supported, meta.language.action) == (False, "warn")
    assert decision.warning is not None
    assert decision.warning.startswith("Not verified. The answer is in ")
    assert all(c.reason.startswith("not verified (") for c in meta.claims)


@pytest.mark.parametrize("lang", list(WRONG))
def test_a_foreign_answer_is_rejected_under_reject(
    monitor: HallucinationMonitor, lang: str
) -> None:
    decision = _gate(monitor, on_unsupported_language="reject").check(WRONG[lang], [EVIDENCE])
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.decision == "retry"
    assert decision.metadata.failed_dimensions == ["grounding"]
    assert decision.metadata.language is not None
    assert decision.metadata.language.action == "reject"
    message = decision.guidance.to_model_message()
    assert "the fact check reads English only" in message
    assert "Write the whole answer in English, the language of the evidence." in message


def test_the_cli_path_flags_the_german_answer_from_the_report_alone(
    monitor: HallucinationMonitor,
) -> None:
    """``qgate check`` grades with the monitor, then calls ``decide`` without the evidence."""
    report = monitor.verify_grounding(WRONG["de"], [EVIDENCE])
    decision = _gate(monitor).decide(WRONG["de"], report)
    assert decision.metadata.decision == "pass_with_warning"
    assert decision.metadata.language is not None
    assert decision.metadata.language.answer == "de"


def test_mixed_evidence_mostly_in_english_is_read_and_says_its_share(
    monitor: HallucinationMonitor,
) -> None:
    decision = _gate(monitor).check(ENGLISH_ANSWER, [EVIDENCE, EVIDENCE, GERMAN_DOC])
    meta = decision.metadata
    assert meta.decision == "pass"
    assert meta.language is not None
    assert meta.language.supported
    assert 0.3 < meta.language.evidence_share < 0.5
    assert set(meta.language.evidence_languages) == {"en", "de"}


def test_evidence_mostly_in_german_is_flagged_and_no_retry_is_offered(
    monitor: HallucinationMonitor,
) -> None:
    evidence = [EVIDENCE, GERMAN_DOC, GERMAN_DOC]
    warned = _gate(monitor).check(ENGLISH_ANSWER, evidence)
    assert warned.metadata.decision == "pass_with_warning"
    assert warned.metadata.language is not None
    assert warned.metadata.language.evidence == "de"
    assert warned.metadata.language.evidence_share > 0.5
    rejected = _gate(monitor, on_unsupported_language="reject").check(ENGLISH_ANSWER, evidence)
    assert isinstance(rejected, RejectedOutput)
    assert rejected.metadata.decision == "escalate"  # no answer can fix the evidence
    assert rejected.guidance.should_escalate


@pytest.mark.parametrize(
    ("answer", "evidence"),
    [
        (
            "The Zephyr Book 14 is assembled by Müller GmbH in Stuttgart.",
            "The Zephyr Book 14 is assembled by Müller GmbH in Stuttgart, Germany.",
        ),
        (
            "Société Générale finances the Zephyr Book 14 leasing plan.",
            "The Zephyr Book 14 leasing plan is financed by Société Générale.",
        ),
        (
            "The Zephyr Book 14 is made in Shenzhen (深圳).",
            "The Zephyr Book 14 is made in Shenzhen (深圳), China.",
        ),
    ],
)
def test_an_english_answer_quoting_a_foreign_name_stays_english_and_passes(
    monitor: HallucinationMonitor, answer: str, evidence: str
) -> None:
    decision = _gate(monitor, on_unsupported_language="reject").check(answer, [evidence])
    assert decision.metadata.language is not None
    assert decision.metadata.language.supported
    assert decision.metadata.language.answer in ("en", "und")  # undetermined is read
    assert decision.metadata.decision == "pass"
