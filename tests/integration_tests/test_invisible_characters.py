"""Issue 48 item 9, on the real bundled models: an invisible character inside a figure hides no
contradiction. "Acme was founded in 20\\u200b19." (zero-width space) and "20\\u202e19"
(right-to-left override) show the year 2019, so against "Acme was founded in 2017." they are
contradicted exactly as the plain "2019" is, by the monitor and by the gate.
"""

from __future__ import annotations

import pytest

from langchain_qgate.gate import FilteredOutput, QualityGate
from langchain_qgate.grounding.evidence.embeddings import CachedEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade

EVIDENCE = ["Acme was founded in 2017."]
PLAIN = "Acme was founded in 2019."
HIDDEN = {
    "zero-width space": "Acme was founded in 20\u200b19.",
    "right-to-left override": "Acme was founded in 20\u202e19.",
    "soft hyphen": "Acme was founded in 2\u00ad019.",
    "word joiner and isolates": "Acme was founded in \u20662\u2060019\u2069.",
}


@pytest.fixture(scope="module")
def monitor(real_embedder: CachedEmbedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


@pytest.mark.model
@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_hidden_character_in_a_year_is_contradicted_exactly_as_the_plain_year(
    monitor: HallucinationMonitor, name: str
) -> None:
    answer = HIDDEN[name]
    plain = monitor.verify_grounding(PLAIN, EVIDENCE).verdicts[0]
    hidden = monitor.verify_grounding(answer, EVIDENCE).verdicts[0]
    assert plain.grade is Grade.FABRICATED
    assert plain.reason == "contradicted: the evidence says 2017, not 2019"
    assert (hidden.grade, hidden.reason, hidden.contradiction) == (
        plain.grade,
        plain.reason,
        plain.contradiction,
    )
    assert hidden.support == pytest.approx(plain.support, abs=1e-6)
    assert hidden.claim.text == PLAIN
    assert answer[hidden.claim.start : hidden.claim.end] == answer  # the span is the answer's


@pytest.mark.model
@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_gate_rejects_a_hidden_character_year_as_it_rejects_the_plain_one(
    monitor: HallucinationMonitor, name: str
) -> None:
    gate = QualityGate(monitor=monitor, observer=False)
    plain = gate.check(PLAIN, EVIDENCE)
    hidden = gate.check(HIDDEN[name], EVIDENCE)
    assert not isinstance(plain, FilteredOutput)
    assert not plain.metadata.passed
    assert plain.metadata.contradictions == 1
    assert type(hidden) is type(plain)
    got, want = hidden.metadata, plain.metadata
    assert (got.decision, got.passed, got.contradictions, got.failed_dimensions) == (
        want.decision,
        want.passed,
        want.contradictions,
        want.failed_dimensions,
    )
    assert got.score == pytest.approx(want.score, abs=1e-6)


@pytest.mark.model
def test_hidden_character_in_the_evidence_year_still_contradicts(
    monitor: HallucinationMonitor,
) -> None:
    hidden = ["Acme was founded in 20\u200b17.", {"company": "Acme", "founded": "20\u202e17"}]
    for evidence in hidden:
        verdict = monitor.verify_grounding(PLAIN, [evidence]).verdicts[0]
        assert verdict.grade is Grade.FABRICATED
        assert verdict.contradiction is not None
        assert verdict.contradiction.evidence_value == "2017"
