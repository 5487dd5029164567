"""A claim that restates one evidence sentence with one local change
(grounding/checks/_substitution.py).

The learned verifier names a contradiction at a lower threshold when the claim is such a
change, so what counts as one decides precision: these tests pin the changes it accepts and
the restatements it leaves alone (sentences written for this test).
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks._substitution import LocalChange, substitution


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
        ("Pigs have 21 chromosome pairs.", "Pigs have 19 chromosome pairs.", [("21", "19")]),
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
        # a count of pairs is no count of the things paired
        ("Pigs have 38 chromosomes.", "Pigs have 19 chromosome pairs."),
        ("Pigs have 19 chromosome pairs.", "Pigs have 38 chromosomes."),
    ],
)
def test_restatements_and_other_sentences_are_not_local_changes(claim: str, sentence: str) -> None:
    assert substitution(claim, sentence) is None


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [("", "The museum is closed."), ("The museum is closed.", ""), ("Closed.", "Open."),
     ("\ud800 is \x00 open", "\ud800 is \x00 closed"), ("!!! ??? ...", "... !!! ???"),
     ("The pump runs every ² days.", "The pump runs every 3 days.")],
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


@pytest.mark.parametrize(
    ("claim", "sentence", "change"),
    [
        (
            "The Brewmaster should be descaled every month.",
            "The Brewmaster should be descaled every three months.",
            ("every month", "every three months"),
        ),
        ("Backups run weekly at 2 am.", "Backups run daily at 2 am.", ("weekly", "daily")),
        (
            "The festival is held every two years in June.",
            "The festival is held annually in June.",
            ("every two years", "annually"),
        ),
        (
            "Doses are given every 6 hours.",
            "Doses are given three times a day.",
            ("every 6 hours", "three times a day"),
        ),
        (
            "The geyser erupts once a day.",
            "The geyser erupts every 5 to 10 minutes.",
            ("once a day", "every 5 to 10 minutes"),
        ),
        # the claim's rate is the other clause's, bound to this clause's words
        (
            "Trains run every 30 minutes at peak times.",
            "Trains run every 10 minutes at peak times and every 30 minutes otherwise.",
            ("every 30 minutes", "every 10 minutes"),
        ),
    ],
)
def test_another_frequency_is_named(claim: str, sentence: str, change: tuple[str, str]) -> None:
    assert substitution(claim, sentence) == LocalChange([change], opposite=True)


@pytest.mark.parametrize(
    ("claim", "sentence", "change"),
    [
        (
            "Anna Kovac won the women's singles title.",
            "Sofia Rossi won the women's singles title, beating Anna Kovac in the final.",
            ("Anna Kovac", "Sofia Rossi"),
        ),
        (
            "Tom Riley founded Tidewater in 2011.",
            "Anna Berg founded Tidewater in 2011, and Tom Riley became its chief executive.",
            ("Tom Riley", "Anna Berg"),
        ),
        (
            "The free tier allows 50,000 API calls per day.",
            "The free tier allows 1,000 API calls per day; the paid tier allows 50,000.",
            ("50,000", "1,000"),
        ),
        (
            "Express delivery takes 3 to 5 working days.",
            "Standard delivery takes 3 to 5 working days; express delivery takes 1 day.",
            ("Express", "Standard"),
        ),
        (
            "Children pay 12 euros.",
            "Adults pay 12 euros, children pay 6 euros and students pay 12 euros.",
            ("Children", "Adults"),
        ),
    ],
)
def test_a_value_moved_from_another_clause_is_named(
    claim: str, sentence: str, change: tuple[str, str]
) -> None:
    local = substitution(claim, sentence)
    assert local is not None
    assert local.changes == [change]
    assert local.opposite


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        # one rate, written another way
        ("The Brewmaster is descaled quarterly.", "The Brewmaster is descaled every three months."),
        ("Passwords are changed every three months.", "Passwords are changed every 90 days."),
        ("Take one tablet two times a day.", "Take one tablet twice a day."),
        ("The newsletter comes out once a month.", "The newsletter comes out monthly."),
        (
            "The bus leaves every hour from the station.",
            "The bus leaves every 60 minutes from the station.",
        ),
        ("Doses are given every 8 hours.", "Doses are given three times a day."),
        # the claim restates the other clause, with a word of it ("otherwise", "Sundays")
        (
            "Trains run every 30 minutes otherwise.",
            "Trains run every 10 minutes at peak times and every 30 minutes otherwise.",
        ),
        ("Backups run weekly on Sundays.", "Backups run daily at 2 am and weekly on Sundays."),
        (
            "The committee meets twice a year.",
            "The committee meets twice a year, and its board meets monthly.",
        ),
        # the clause that holds the claim's value holds its other figure too
        (
            "Students pay 12 euros.",
            "Adults pay 12 euros, children pay 6 euros and students pay 12 euros.",
        ),
        (
            "The paid tier allows 50,000 calls.",
            "The free tier allows 1,000 calls; the paid tier allows 50,000.",
        ),
        # the name restated where the sentence gives it its role
        (
            "Sofia Rossi won the women's singles title.",
            "Sofia Rossi won the women's singles title, beating Anna Kovac in the final.",
        ),
        (
            "Anna Kovac reached the final.",
            "Sofia Rossi won the title, and Anna Kovac reached the final.",
        ),
        (
            "Maria Lopez is the CEO of Acme.",
            "The CEO of Acme, Maria Lopez, replaced John Smith in 2020.",
        ),
        ("Mark Twain wrote Tom Sawyer.", "Samuel Clemens, known as Mark Twain, wrote Tom Sawyer."),
        ("Red wine goes with meat.", "Red wine goes with meat, and white wine goes with fish."),
    ],
)
def test_one_rate_or_a_value_in_its_own_clause_is_no_change(claim: str, sentence: str) -> None:
    local = substitution(claim, sentence)
    assert local is None or not local.opposite


@pytest.mark.parametrize(
    ("claim", "sentence", "change"),
    [
        # a clause before or after the restated one is not read for its polarity
        (
            "The MMR vaccine causes autism.",
            "The MMR vaccine does not cause autism; large studies have ruled out any link.",
            ("", "not"),
        ),
        (
            "The Maritime Museum charges an entry fee.",
            "Contrary to what travel sites say, the Maritime Museum does not charge an entry fee.",
            ("", "not"),
        ),
        ("The museum is open.", "The museum is not open, except on Mondays.", ("", "not")),
        # a report of the claim, denied after it
        (
            "The painter Marieke Hals was born in Antwerp.",
            "Some sources claim that the painter Marieke Hals was born in Antwerp, but this is "
            "incorrect: she was born in Ghent.",
            ("", "denied"),
        ),
        (
            "The Pixa 5 overheats during 4K recording.",
            "The idea that the Pixa 5 overheats during 4K recording is a misconception.",
            ("", "denied"),
        ),
        # the name put where the sentence has another, the words between skipped
        (
            "Salt Harbour was written by Tom Baker.",
            "The novel Salt Harbour was written by Grace Holloway and illustrated by Tom Baker.",
            ("Tom Baker", "Grace Holloway"),
        ),
        (
            "Night Ferry was directed by Marco Bellini.",
            "The film Night Ferry was directed by Ana Ruiz and stars Marco Bellini.",
            ("Marco Bellini", "Ana Ruiz"),
        ),
    ],
)
def test_polarity_past_a_clause_a_later_denial_and_a_skipped_role_are_named(
    claim: str, sentence: str, change: tuple[str, str]
) -> None:
    assert substitution(claim, sentence) == LocalChange([change], opposite=True)


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        # the negation is in the restated clause, which goes on: a compression
        ("The museum is open.", "The museum is not open on Mondays."),
        # a condition the claim leaves out
        ("The match is played.", "If it rains, the match is not played."),
        ("The match is played on Sunday.", "The match is not played on Sunday if it rains."),
        ("The device is charging.", "If the light does not blink, the device is charging."),
        # "false" after a clause that is no report of it
        (
            "The sample was contaminated.",
            "The lab confirmed that the sample was contaminated, a false positive.",
        ),
        ("The alarm was triggered at 3 am.", "The alarm was triggered at 3 am, but it was false."),
        # a list, another name of the same person, a description of the claim's name
        (
            "The bridge was designed by Hans Richter.",
            "The bridge was designed by Karl Vogt, an engineer from Munich, and Hans Richter.",
        ),
        (
            "Tom Sawyer was written by Mark Twain.",
            "Tom Sawyer was written by Samuel Clemens, better known as Mark Twain.",
        ),
        (
            "The film was directed by Marco Bellini.",
            "The film was directed by Ana Ruiz's longtime collaborator Marco Bellini.",
        ),
        (
            "The paper was written by Tom Baker.",
            "The paper was written by Ana Ruiz, a professor at MIT, with Tom Baker.",
        ),
        (
            "The talk was given by Anna Berg.",
            "The talk was given by Professor of Physics Anna Berg.",
        ),
    ],
)
def test_a_compression_condition_or_other_name_is_not_named(claim: str, sentence: str) -> None:
    local = substitution(claim, sentence)
    assert local is None or not local.opposite


def test_a_misspelt_name_is_no_change() -> None:
    # a name one or two letters off, and no English word, is the same name misspelt
    sentence = "Orsino Foods hired Lucan Threlfall as chief executive in 2017."
    assert (
        substitution("Orsino Foods hired Lucan Thelfall as chief executive in 2017.", sentence)
        is None
    )
    change = substitution("Orsino Foods hired Lucan Marsh as chief executive in 2017.", sentence)
    assert change is not None
    assert change.changes == [("Marsh", "Threlfall")]
