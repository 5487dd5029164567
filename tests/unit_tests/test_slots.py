"""Slot-aligned contradictions and the value checks behind them (no model)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks import (
    extract_entities,
    extract_quantities,
    negation_scopes,
    quantities_match,
    untokenise,
)
from langchain_qgate.grounding.slots import passage, slot_conflict


def conflict(claim: str, evidence: str, given: str = ""):
    return slot_conflict(
        passage(claim), passage(evidence), evidence_id="e#0", quote=evidence, given=given
    )


@pytest.mark.parametrize(
    ("claim", "evidence", "values"),
    [
        (
            "Marie Curie was born in Krakow.",
            "Marie Curie was born in Warsaw.",
            ("Krakow", "Warsaw"),
        ),
        (
            "Acme was founded in 2019 in Berlin.",
            "Acme was founded in 2020 in Berlin.",
            ("2019", "2020"),
        ),
        (
            "Attended by King Harald V of Sweden.",
            "Attended by King Carl XVI Gustaf of Sweden.",
            ("Harald V", "Carl XVI Gustaf"),
        ),
        ("The store opens at 10 am.", "The store opens at 11:00.", ("10 am", "11:00")),
        (
            "The album was released in October.",
            "The album was released on March 30, 2007.",
            ("October", "March 30, 2007"),
        ),
    ],
)
def test_another_value_in_the_same_slot_is_a_contradiction(claim, evidence, values) -> None:
    found = conflict(claim, evidence)
    assert found is not None
    assert (found.claim_value, found.evidence_value) == values


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Marie Curie was born in Warsaw.", "Curie was born in Warsaw."),  # partial name
        ("Presley was born in Tupelo.", "Elvis Presley was born in Tupelo."),
        (
            "The film stars Tom Hanks and Rita Wilson.",
            "The film stars Tom Hanks, Meg Ryan and Bill Pullman.",
        ),
        ("The U.S. government agreed.", "The United States government agreed."),  # acronym
        ("Revenue was $5 million in 2020.", "Revenue was $4 million in 2019."),  # another year
        ("Sales were more than 100,000 copies.", "Sales were 258,000 copies."),  # a bound
        ("Sales were about 500 copies.", "Sales were 480 copies."),  # an approximation
        ("The run was 5 km long.", "The run was 3 miles long."),  # another unit
        ("Earnings were $2.55 per share.", "Earnings were $3.5 billion."),  # per share vs total
        ("Potatoes reached Spain in 1570.", "Potatoes reached Europe in 1570."),  # a region
        ("The bank's deal was worth $5 billion.", "The bank's deal was worth $5 billion."),
    ],
)
def test_no_contradiction_without_a_rival_in_the_same_slot(claim, evidence) -> None:
    assert conflict(claim, evidence) is None


def test_a_value_the_question_gave_is_not_the_claims_own() -> None:
    claim, evidence = "Was Acme founded in 2019? Yes.", "Acme was founded in 2020."
    assert conflict(claim, evidence, given="was acme founded in 2019?") is None


def test_a_rival_the_claim_itself_states_is_not_a_contradiction() -> None:
    claim = "Profit was $8.2m, and $29.9m excluding items."
    assert conflict(claim, "Excluding items, profit was $29.9m.") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [("56 000", "56,000"), ("56.000 dogs", "56,000 dogs"), ("9 pm", "21:00"), ("11 am", "11:00"),
     ("noon", "12:00"), ("$100,000-a-week", "$100,000 a week")],
)  # fmt: skip
def test_one_figure_written_two_ways_matches(a, b) -> None:
    (qa,), (qb,) = extract_quantities(a), extract_quantities(b)
    assert quantities_match(qa, qb)
    assert quantities_match(qb, qa)


def test_a_time_is_never_compared_with_a_plain_number() -> None:
    (t,) = extract_quantities("at 9 pm")
    (n,) = extract_quantities("9 people")
    assert t.kind == "time"
    assert not quantities_match(t, n)


@pytest.mark.parametrize(
    ("text", "scopes"),
    [
        ("It was not only the largest deal, but one of the largest.", []),
        ("There is no doubt he won.", []),
        ("He was No. 5 in the list.", []),
        ("He did not win the race.", [{"win", "race"}]),
    ],
)
def test_negation_cues(text, scopes) -> None:
    assert negation_scopes(text) == scopes


def test_a_denial_governs_the_statement_it_denies() -> None:
    (scope,) = negation_scopes("It is false that Acme reported revenue of 52.7 million in 2024.")
    assert {"acme", "report", "revenue", "million"} <= scope
    (before,) = negation_scopes("That Acme reported revenue of 52.7 million is not true.")
    assert {"acme", "report", "revenue"} <= before


def test_treebank_tokens_and_decomposed_accents_are_undone() -> None:
    assert untokenise("He -LRB- born 1970 -RRB- went to the U.S . He do n't .") == (
        "He (born 1970) went to the U.S. He don't."
    )
    assert untokenise("L'Ore\u0301al") == "L'Oréal"


def test_discourse_words_and_sentence_adverbs_are_not_names() -> None:
    names = [
        e
        for e, _, _ in extract_entities(
            "Well Politically it is divided between Ireland and France."
        )
    ]
    assert names == ["Ireland", "France"]
    assert [e for e, _, _ in extract_entities("I'm calling from BestInsuranceXYZ.")] == [
        "BestInsuranceXYZ"
    ]


def test_counts_of_one_unit_conflict_only_about_the_same_thing() -> None:
    found = conflict(
        "Between 1989 and 2005, Arsenal won six FA Cups.",
        "Between 1989 and 2005, they won five League titles and five FA Cups.",
    )
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("six", "five")
    assert (
        conflict("Five people died in the fire.", "Three people were injured in the fire.") is None
    )


def test_a_value_the_claim_denies_never_conflicts() -> None:
    assert (
        conflict(
            "The Endless River is not an album by Danny DeVito.",
            "The Endless River is an album by the band Pink Floyd.",
        )
        is None
    )


def test_a_subject_never_conflicts_with_a_name_in_another_role() -> None:
    assert (
        conflict(
            "Wolfgang Mozart had two sons.", "He was survived by his wife Constanze and two sons."
        )
        is None
    )
    found = conflict("Jane Doe founded Acme in 2001.", "John Smith founded Acme in 2001.")
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("Jane Doe", "John Smith")


def test_a_count_for_a_period_the_passage_does_not_speak_of_is_no_contradiction() -> None:
    assert (
        conflict(
            "In total, Arsenal won 10 trophies between 1989 and 2005.",
            "In total, Arsenal won 47 trophies.",
        )
        is None
    )


def test_a_clause_cut_from_a_sentence_agrees_with_the_negation_it_keeps() -> None:
    from langchain_qgate.grounding.slots import negation_clash

    chunk = passage(
        "Colombia had been chosen to host the competition but, largely due to economic reasons, "
        "was not able to do so, and resigned in 1982."
    )
    assert not negation_clash(passage("Colombia was not able to do so."), chunk)
