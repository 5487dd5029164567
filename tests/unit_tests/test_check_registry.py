"""Checks as plug-ins: the built-in ones named and switched off by name, a user's own added
through ``GroundingPolicy.checks``, and their findings decided in one aggregation step."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from langchain_qgate import BUILTIN_CHECKS, Check, Finding, value_check
from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import QGateError
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import EvidenceChunk, Grade

LAPTOP = ["The Aero 14 laptop (SKU AE-1400) weighs 1.2 kg and costs $999."]
SKU = value_check("sku", r"\b[A-Z]{2}-\d{4}\b", field="product.sku")


def monitor(**policy: object) -> HallucinationMonitor:
    return HallucinationMonitor(policy=GroundingPolicy(**policy), embedder=HashingEmbedder())


def verdict(m: HallucinationMonitor, answer: str, evidence: Sequence[object] = LAPTOP):
    report = m.verify_grounding(answer, list(evidence))
    assert len(report.verdicts) == 1, report.verdicts
    return report.verdicts[0]


# -- the built-in checks, by name -----------------------------------------------------------


def test_a_built_in_contradiction_names_the_check_that_found_it() -> None:
    v = verdict(monitor(), "The Aero 14 weighs 1.5 kg.")
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is not None
    assert v.contradiction.check == "slot_aligned"
    assert v.contradiction.check in BUILTIN_CHECKS


def test_a_record_contradiction_is_the_records_check() -> None:
    record = json.dumps({"flight": "BA117", "gate": "B12"})
    v = verdict(monitor(), "Flight BA117 leaves from gate B14.", [record])
    assert v.contradiction is not None
    assert v.contradiction.check == "records"
    assert v.contradiction.field == "record.gate"


def test_a_switched_off_check_names_no_contradiction() -> None:
    v = verdict(monitor(disabled_checks={"slot_aligned"}), "The Aero 14 weighs 1.5 kg.")
    assert v.contradiction is None or v.contradiction.check != "slot_aligned"
    # the figure is still stated nowhere: never GROUNDED
    assert v.grade is not Grade.GROUNDED


def test_switching_off_the_records_check_leaves_the_record_to_the_prose_checks() -> None:
    record = json.dumps({"flight": "BA117", "gate": "B12"})
    m = monitor(disabled_checks={"records"})
    v = verdict(m, "Flight BA117 leaves from gate B14.", [record])
    assert v.contradiction is None or v.contradiction.check != "records"


def test_an_unknown_built_in_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="no built-in check named \\['slots'\\]") as err:
        GroundingPolicy(disabled_checks={"slots"})
    assert "slot_aligned" in str(err.value)
    with pytest.raises(ValueError, match="set of built-in check names"):
        GroundingPolicy(disabled_checks="negation")  # type: ignore[arg-type]


# -- a user's own checks -------------------------------------------------------------------


def test_a_value_check_grounds_its_value_where_the_evidence_writes_it() -> None:
    v = verdict(monitor(checks=[SKU]), "The Aero 14 (SKU AE-1400) costs $999.")
    assert v.contradiction is None
    assert [(f.check, f.kind, f.claim_value) for f in v.findings] == [
        ("sku", "supported", "AE-1400")
    ]
    assert v.findings[0].quote == LAPTOP[0]  # filled from the chunk it names


def test_a_value_check_names_another_value_as_a_contradiction() -> None:
    v = verdict(monitor(checks=[SKU]), "The Aero 14 (SKU AE-1401) costs $999.")
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is not None
    assert (v.contradiction.check, v.contradiction.field) == ("sku", "product.sku")
    assert (v.contradiction.claim_value, v.contradiction.evidence_value) == ("AE-1401", "AE-1400")
    assert v.reason == "contradicted: `product.sku` says AE-1400, not AE-1401"
    assert v.contradiction.quote == LAPTOP[0]


def test_a_value_the_evidence_never_gives_is_unsupported_not_contradicted() -> None:
    v = verdict(
        monitor(checks=[SKU]),
        "The Aero 14 (SKU AE-1400) weighs 1.2 kg.",
        ["The Aero 14 laptop weighs 1.2 kg."],
    )
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is None
    assert v.reason == "unsupported: no evidence gives any sku; the claim says AE-1400 (sku)"


def test_a_value_stated_in_a_chunk_beyond_the_nearest_ones_is_supported() -> None:
    filler = [f"Accessory {k} ships in a box (SKU BX-{1000 + k})." for k in range(8)]
    v = verdict(
        monitor(checks=[SKU], top_k=1, prefilter_k=1),
        "The Aero 14 (SKU AE-1400) is in stock.",
        [*filler, "Stock list: AE-1400 is in stock."],
    )
    assert [f.kind for f in v.findings] == ["supported"]
    assert v.contradiction is None


def test_a_plain_function_is_a_check_named_after_itself() -> None:
    def price_in_euros(claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
        if "€" in claim and not any("€" in c.text for c in evidence):
            return [Finding(kind="unsupported", reason="the evidence prices in dollars")]
        return []

    assert not isinstance(price_in_euros, type)
    v = verdict(monitor(checks=[price_in_euros]), "The Aero 14 costs €999.")
    assert v.grade is Grade.FABRICATED
    assert v.findings[0].check == "price_in_euros"
    assert v.reason == "unsupported: the evidence prices in dollars (price_in_euros)"


def test_a_class_with_a_name_satisfies_the_check_protocol() -> None:
    class Always:
        name = "always"

        def __call__(self, claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
            return [Finding(kind="contradiction", claim_value="x", evidence_value="y")]

    assert isinstance(Always(), Check)
    v = verdict(monitor(checks=[Always()]), "The Aero 14 weighs 1.2 kg.")
    assert v.contradiction is not None
    assert v.contradiction.check == "always"
    # a finding that names no chunk quotes the claim's nearest one
    assert v.contradiction.quote == LAPTOP[0]


def test_a_user_check_does_not_run_without_evidence() -> None:
    calls: list[str] = []

    def spy(claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
        calls.append(claim)
        return []

    report = monitor(checks=[spy]).verify_grounding("The Aero 14 weighs 1.2 kg.", [])
    assert calls == []
    assert report.verdicts[0].reason == "no evidence was provided"


def test_a_failing_check_is_a_qgate_error_naming_it() -> None:
    def broken(claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
        raise KeyError("sku")

    with pytest.raises(QGateError, match="check 'broken' failed"):
        monitor(checks=[broken]).verify_grounding("The Aero 14 weighs 1.2 kg.", LAPTOP)


def test_a_check_returning_something_else_is_a_qgate_error() -> None:
    def sloppy(claim: str, evidence: Sequence[EvidenceChunk]) -> list[object]:
        return ["contradicted"]

    with pytest.raises(QGateError, match=r"returned str, not a langchain_qgate\.Finding"):
        monitor(checks=[sloppy]).verify_grounding("The Aero 14 weighs 1.2 kg.", LAPTOP)


@pytest.mark.parametrize(
    ("checks", "message"),
    [
        ([42], "must hold checks"),
        (SKU, "must be a sequence of checks"),
        ([SKU, SKU], "'sku' is taken \\(given twice\\)"),
        ([value_check("negation", r"x")], "'negation' is taken \\(a built-in check\\)"),
    ],
)
def test_bad_checks_are_refused_when_the_policy_is_built(checks: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GroundingPolicy(checks=checks)  # type: ignore[arg-type]


def test_findings_survive_a_json_round_trip() -> None:
    report = monitor(checks=[SKU]).verify_grounding("The Aero 14 (SKU AE-1401) costs $999.", LAPTOP)
    again = type(report).model_validate_json(report.model_dump_json())
    assert again == report
    assert again.verdicts[0].findings[0].check == "sku"


def test_a_contradiction_without_values_says_otherwise_with_the_checks_reason() -> None:
    def no_red(claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
        return (
            [Finding(kind="contradiction", reason="we never sell red mugs")]
            if "red" in claim
            else []
        )

    v = verdict(monitor(checks=[no_red]), "The Aero 14 comes in red.")
    assert v.contradiction is not None
    assert v.contradiction.kind == "statement"
    assert v.reason == (
        f"contradicted: the evidence says otherwise: {LAPTOP[0]!r} (no_red: we never sell red mugs)"
    )


def test_a_check_may_return_one_finding_or_a_generator() -> None:
    def one(claim: str, evidence: Sequence[EvidenceChunk]) -> Finding:
        return Finding(kind="unsupported", reason="just one")

    def many(claim: str, evidence: Sequence[EvidenceChunk]):  # a generator
        yield Finding(kind="supported", evidence_id=evidence[0].id)

    v = verdict(monitor(checks=[one, many]), "The Aero 14 weighs 1.2 kg.")
    assert [(f.check, f.kind) for f in v.findings] == [
        ("one", "unsupported"),
        ("many", "supported"),
    ]
    assert v.findings[1].quote == LAPTOP[0]


@pytest.mark.parametrize("disabled", [None, 5, {"negation": False}])
def test_disabled_checks_of_a_wrong_type_are_refused(disabled: object) -> None:
    with pytest.raises(ValueError, match="set of built-in check names"):
        GroundingPolicy(disabled_checks=disabled)  # type: ignore[arg-type]
