"""The monitor with the real bundled model.

Its detection figures on real human-labelled data (AUROC against chance and the naive
cosine) are measured figures, checked by ``benchmarks/check_figures.py`` (``detection_200``).
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade

EVIDENCE = [
    "Acme Corp was founded in 2020 in Berlin by Jane Doe. The company employs 500 people.",
    "In 2023 Acme reported revenue of $10M, up 5% from 2022. Acme does not sell hardware.",
]


@pytest.fixture(scope="module")
def monitor(real_embedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


@pytest.mark.model
def test_real_model_cannot_tell_years_apart_but_the_monitor_can(monitor, real_embedder) -> None:
    a, b = real_embedder.embed(["Acme was founded in 2019.", "Acme was founded in 2020."])
    assert float(a @ b) > 0.8  # the embedding alone sees almost no difference
    v = monitor.verify_grounding("Acme Corp was founded in 2019.", EVIDENCE).verdicts[0]
    assert v.grade is Grade.FABRICATED
    assert v.reason == "contradicted: the evidence says 2020, not 2019"


@pytest.mark.model
def test_real_model_grounds_a_paraphrase(monitor) -> None:
    v = monitor.verify_grounding("Acme Corp was established in Berlin in 2020.", EVIDENCE).verdicts[
        0
    ]
    assert v.grade is Grade.GROUNDED
    assert v.evidence[0].quote.startswith("Acme Corp was founded in 2020")


@pytest.mark.model
def test_real_model_flags_unsupported_and_normalised_amounts(monitor) -> None:
    report = monitor.verify_grounding(
        "In 2023 Acme reported revenue of 10 million dollars. Acme also builds rockets for NASA.",
        EVIDENCE,
    )
    grades = [v.grade for v in report.verdicts]
    assert grades[0] is Grade.GROUNDED
    # Support is generous by design (few false rejects on unseen data): an unsupported claim
    # about a named subject is at most INFERRED, never GROUNDED, and names what is missing.
    assert grades[1] is not Grade.GROUNDED
    assert "rockets" in report.verdicts[1].reason
    assert "NASA" in report.verdicts[1].reason
    assert report.verdicts[1].support < report.verdicts[0].support - 0.2
    assert 0.3 < report.score < 0.9


@pytest.mark.model
def test_real_model_reads_a_business_listing_as_fields(monitor) -> None:
    # The example: on main the faithful answer was "the evidence says 11, not 9".
    listing = {
        "name": "Harbor Noodle House",
        "address": "112 Pier St",
        "city": "Santa Barbara",
        "state": "CA",
        "categories": "Noodles, Ramen",
        "hours": {"Tuesday": "11:00-21:00"},
    }
    faithful = (
        "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
        "They are open on Tuesdays from 11 am to 9 pm."
    )
    report = monitor.verify_grounding(faithful, {"listing": listing})
    assert [v.grade for v in report.verdicts] == [Grade.GROUNDED, Grade.GROUNDED]
    assert report.verdicts[1].evidence[0].evidence_id == "listing.hours.Tuesday"
    wrong = faithful.replace("9 pm", "10 pm")
    (_, v) = monitor.verify_grounding(wrong, {"listing": listing}).verdicts
    assert v.reason == "contradicted: `listing.hours.Tuesday` says 11:00-21:00, not 10 pm"
    (v,) = monitor.verify_grounding("They offer home delivery.", {"listing": listing}).verdicts
    assert v.grade is not Grade.GROUNDED
    assert v.contradiction is None
