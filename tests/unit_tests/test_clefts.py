"""A cleft ("It was in 1998 that ...", "that was back in 1916, when ...") is checked in its
plain order: a wrong year or name in focus is named as it is in a plain sentence (issue 47,
item 3: a hedge no longer hides a contradiction)."""

from __future__ import annotations

import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.grounding.claims._cleft import unclefted
from langchain_qgate.grounding.claims.claims import extract_claims
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor

COACH = "The team's coach won the championship in 1920."


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model=None))


@pytest.mark.parametrize(
    ("sentence", "plain"),
    [
        (
            "I guess that was back in 1916, when the coach won the championship.",
            "I guess the coach won the championship in 1916.",
        ),
        ("It was in 1998 that Google was founded.", "Google was founded in 1998."),
        ("That was in 2010, when I moved to Berlin.", "I moved to Berlin in 2010."),
        ("It was at Oxford that he studied law", "He studied law at Oxford."),
        ("That's on Friday, when the store opens.", "The store opens on Friday."),
        ("It was Larry Page who founded Google.", "Larry Page founded Google."),
    ],
)
def test_a_cleft_is_read_in_its_plain_order(sentence: str, plain: str) -> None:
    assert unclefted(sentence) == plain


@pytest.mark.parametrize(
    "sentence",
    [
        "It is what it is.",
        "It was a great day when we met.",
        "It was the coach who won.",  # no name in focus: left as written
        "This is by far the best, when you consider the price.",
        "The coach won the championship in 1920.",
        "It was in " + "very " * 200 + "long ago that it happened.",  # over the size bound
    ],
)
def test_a_sentence_that_is_no_cleft_is_left_as_written(sentence: str) -> None:
    assert unclefted(sentence) == sentence


def test_a_clefts_claim_keeps_its_span_in_the_answer() -> None:
    answer = "Sure. It was in 1998 that Google was founded."
    (claim,) = extract_claims(answer)
    assert claim.text == "Google was founded in 1998."
    assert answer[claim.start : claim.end] == "It was in 1998 that Google was founded."


@pytest.mark.parametrize(
    "answer",
    [
        "The coach won the championship in 1916.",
        "I guess that was back in 1916, when the coach won the championship.",
        "It was in 1916 that the coach won the championship.",
    ],
)
def test_a_wrong_year_in_a_cleft_is_contradicted_as_in_a_plain_sentence(
    monitor: HallucinationMonitor, answer: str
) -> None:
    (verdict,) = monitor.verify_grounding(answer, [COACH]).verdicts
    assert verdict.contradiction is not None
    assert "1920" in verdict.reason
    assert "1916" in verdict.reason


def test_the_right_year_in_a_cleft_is_not_contradicted(monitor: HallucinationMonitor) -> None:
    answer = "It was in 1920 that the coach won the championship."
    report = monitor.verify_grounding(answer, [COACH])
    assert [v.contradiction for v in report.verdicts] == [None]
