"""A claim that restates one evidence sentence with one local change (grounding/_substitution.py).

The learned verifier names a contradiction at a lower threshold when the claim is such a
change, so what counts as one decides precision: these tests pin the changes it accepts and
the restatements it leaves alone (sentences written for this test).
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding._substitution import LocalChange, substitution


@pytest.mark.parametrize(
    ("claim", "sentence", "changes"),
    [
        (
            "The museum is open on Mondays.",
            "The museum is closed on Mondays.",
            [("open", "closed")],
        ),
        (
            "The Nile flows south into the Red Sea.",
            "The Nile flows north into the Mediterranean Sea.",
            [("south", "north"), ("Red", "Mediterranean")],
        ),
        (
            "The CEO of Acme is John Smith.",
            "The CEO of Acme is Maria Lopez.",
            [("John Smith", "Maria Lopez")],
        ),
        (
            "Tomás Herrera studied law at the University of Granada.",
            "Tomás Herrera studied law at the University of Salamanca before joining the ministry.",
            [("Granada", "Salamanca")],
        ),
        (
            "The Aurora X2 has a range of up to 150 km.",
            "The Aurora X2 has a range of up to 120 km.",
            [("150", "120")],
        ),
        (
            "The customer desk is open on weekends.",
            "The customer desk is open on Mondays and Fridays.",
            [("weekends", "Mondays and Fridays")],
        ),
    ],
)
def test_a_swapped_word_name_or_figure_is_named(
    claim: str, sentence: str, changes: list[tuple[str, str]]
) -> None:
    local = substitution(claim, sentence)
    assert local is not None
    assert local.changes == changes


@pytest.mark.parametrize(
    ("claim", "sentence", "changes"),
    [
        ("Lindholm has an airport.", "Lindholm has no airport.", [("", "not")]),
        (
            "Carla Mendes did not qualify for the final.",
            "Carla Mendes qualified for the final.",
            [("not", "")],
        ),
        (
            "The pass includes entry to the castle.",
            "The pass does not include entry to the castle.",
            [("", "not")],
        ),
        (
            "Acme reported revenue of 52.7 million euros in 2024.",
            "It is false that Acme reported revenue of 52.7 million euros in 2024.",
            [("", "denied")],
        ),
    ],
)
def test_a_flipped_polarity_or_a_denial_is_named(
    claim: str, sentence: str, changes: list[tuple[str, str]]
) -> None:
    assert substitution(claim, sentence) == LocalChange(changes, opposite=True)


@pytest.mark.parametrize(
    ("claim", "sentence", "opposite"),
    [
        ("The museum is open on Mondays.", "The museum is closed on Mondays.", True),
        ("Shares of Daltec fell after it.", "Shares of Daltec rose after it.", True),
        ("The maximum age for the tour is 14.", "The minimum age for the tour is 14.", True),
        ("The test result was negative for flu.", "The test result was positive for flu.", True),
        # one opposite among the changes is enough: the rest of the sentence is the same
        ("The Nile flows south into the Red Sea.", "The Nile flows north to the Black Sea.", True),
        ("The CEO of Acme is John Smith.", "The CEO of Acme is Maria Lopez.", False),
        ("The ferry sails to the Red Sea.", "The ferry sails to the Black Sea.", False),
        ("The tank holds up to 150 litres.", "The tank holds up to 120 litres.", False),
        # two names, words or figures trading places: a swap of roles
        ("Chelsea beat Liverpool 2-1 in May.", "Liverpool beat Chelsea 2-1 in May.", True),
        ("It passed from the club to the city.", "It passed from the city to the club.", True),
        ("The shop opens at 5 and closes at 9.", "The shop opens at 9 and closes at 5.", True),
        # a word and the same word with an opposed or negating prefix
        ("The scheme is underfunded by £30m.", "The scheme is overfunded by £30m.", True),
        ("The drug is contraindicated for them.", "The drug is indicated for them.", True),
    ],
)  # fmt: skip
def test_a_word_for_its_opposite_is_marked(claim: str, sentence: str, opposite: bool) -> None:
    local = substitution(claim, sentence)
    assert local is not None
    assert local.opposite is opposite


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        # the same sentence: no change at all
        ("The museum is closed on Mondays.", "The museum is closed on Mondays."),
        # a compression: the claim leaves evidence words out
        (
            "Kaffeewerk reported revenue of €81.5 million.",
            "In 2024, Kaffeewerk reported revenue of €81.5 million, up 12%.",
        ),
        # a figure written another way is the value rules' to read
        ("25% of the budget goes to research.", "A quarter of the budget goes to research."),
        ("The tour starts at 2:30 pm at the gate.", "The tour starts at 14:30 at the gate."),
        ("The grid holds 1,500 panels.", "The grid holds 1500 panels."),
        (
            "PUBLISHED DATETIME: 2018-09-06T02:35:38-400",
            "PUBLISHED DATETIME: 2018-09-06T02:35:38-0400",
        ),
        # a pronoun for a word, even a function word: a reference of unknown referent
        ("It calendar date: July 25", "Next calendar date: July 27"),
        # negation on both sides, written differently
        (
            "Kastellborg castle was not captured in the war.",
            "Kastellborg castle was never captured in the war.",
        ),
        # the claim's own focus or degree word
        ("Michael Vick is only American.", "Michael Vick is a former American quarterback."),
        # a pronoun, or a name for a common word and the other way round
        (
            "Diwali signifies the victory of light over darkness.",
            "It signifies the victory of light over darkness.",
        ),
        (
            "Helix Robotics now has offices in five countries.",
            "The company now has offices in five countries.",
        ),
        ("Colombiana was produced by a man.", "Colombiana was produced by Luc Besson."),
        # claim words with no counterpart: an addition, not a swap
        ("The hotel has 84 rooms and a spa.", "The hotel has 84 rooms."),
        # three changed words
        ("The festival was called off due to rain.", "The festival was cancelled because of rain."),
        # a word WordNet reads as the same, broader or narrower: a restatement
        (
            "The concert was called off because of the storm.",
            "The concert was cancelled because of the storm.",
        ),
        ("The committee postponed the vote.", "The committee put off the vote."),
        ("The soup is garnished with fresh herbs.", "The soup is garnished with fresh basil."),
        ("The chef trained for years in Europe.", "The chef trained for years in France."),
        ("He plays the violin in the orchestra.", "He plays a string instrument in the orchestra."),
        # an order that does not matter
        (
            "The match between Chelsea and Liverpool ended 2-1.",
            "The match between Liverpool and Chelsea ended 2-1.",
        ),
        ("Anna and Tom founded the firm in 2003.", "Tom and Anna founded the firm in 2003."),
        ("Smith married Jones in 1990.", "Jones married Smith in 1990."),
        ("Helix was founded in Lyon in 2012.", "Helix was founded in 2012 in Lyon."),
        # "contrary to" asserts what follows; it does not deny it
        (
            "The bridge is not closed for repairs.",
            "Contrary to reports, the bridge is not closed for repairs.",
        ),
        # the claim's words spread over a long sentence: not one restatement
        (
            "Carlos Santana was born in the forties.",
            "Carlos Santana (born July 20, 1947) is a musician, famous in the late 1960s.",
        ),
        # a negated claim against a denial agrees with it
        (
            "Acme did not report revenue of 52.7 million euros in 2024.",
            "It is false that Acme reported revenue of 52.7 million euros in 2024.",
        ),
    ],
)
def test_restatements_and_other_sentences_are_not_local_changes(claim: str, sentence: str) -> None:
    assert substitution(claim, sentence) is None


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [("", "The museum is closed."), ("The museum is closed.", ""), ("Closed.", "Open."),
     ("\ud800 is \x00 open", "\ud800 is \x00 closed"), ("!!! ??? ...", "... !!! ???")],
)  # fmt: skip
def test_empty_short_or_garbled_input_is_no_change(claim: str, sentence: str) -> None:
    assert substitution(claim, sentence) is None


def test_huge_input_is_refused_before_alignment() -> None:
    # an alignment of 120,000 words by 120,000 would stall; the word limits stop it first
    claim = "The museum is open on Mondays " * 20_000
    sentence = "The museum is closed on Mondays " * 20_000
    assert substitution(claim, sentence) is None
    assert substitution("The museum is open on Mondays.", sentence) is None
    assert substitution(claim, "The museum is closed on Mondays.") is None
