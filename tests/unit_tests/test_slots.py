"""Slot-aligned contradictions and the value checks behind them (no model)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks.checks import (
    extract_entities,
    extract_quantities,
    negation_scopes,
    quantities_match,
    untokenise,
)
from langchain_qgate.grounding.checks.slots import passage, slot_conflict


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
        (  # "Man" is "Manchester" cut short, "City" is not "United"
            "The midfielder joined Man City in July 2023.",
            "The midfielder joined Manchester United in July 2023.",
            ("Man City", "Manchester United"),
        ),
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
        # a name written short, word by word (a newcomer's trial)
        ("Man Utd signed him in July 2023.", "Manchester United signed him in July 2023."),
        ("Manchester United signed him in July.", "Man Utd signed him in July."),
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


def test_a_count_of_pairs_is_not_a_count_of_the_things_paired() -> None:
    assert conflict("Pigs have 38 chromosomes.", "Pigs have 19 chromosome pairs.") is None
    found = conflict("Pigs have 21 chromosome pairs.", "Pigs have 19 chromosome pairs.")
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("21", "19")


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
    from langchain_qgate.grounding.checks.slots import negation_clash

    chunk = passage(
        "Colombia had been chosen to host the competition but, largely due to economic reasons, "
        "was not able to do so, and resigned in 1982."
    )
    assert not negation_clash(passage("Colombia was not able to do so."), chunk)


@pytest.mark.parametrize(
    ("claim", "evidence", "values"),
    [
        # a name both texts state anchors the value after it
        (
            "Moonlight premiered at the Telluride Film Festival in 2014.",
            "Moonlight premiered at the Telluride Film Festival on September 2, 2016.",
            ("2014", "September 2, 2016"),
        ),
        (
            "SpongeBob SquarePants is an American series.",
            "SpongeBob SquarePants is a French series.",
            ("American", "French"),
        ),
        # initials do not make two names one
        (
            "Middle-earth was created by the writer J. R. R. Martin.",
            "Middle-earth was created by the writer J. R. R. Tolkien.",
            ("Martin", "Tolkien"),
        ),
        # every reading of a figure differs
        (
            "The company agreed to accelerate 11 737 MAX 9 aircraft deliveries.",
            "The company agreed to accelerate 12 737 MAX 9 aircraft deliveries.",
            ("11 737", "12 737"),
        ),
    ],
)
def test_rivals_behind_a_shared_name_or_an_ambiguous_figure(claim, evidence, values) -> None:
    found = conflict(claim, evidence)
    assert found is not None
    assert (found.claim_value, found.evidence_value) == values


def test_a_name_after_the_value_is_no_anchor() -> None:
    # "the <Speaker> of the House of Commons" / "the <Report> of the House of Commons Commission"
    assert (
        conflict(
            "The Commissioner is appointed on the Speaker of the House of Commons.",
            "The Commissioner is appointed on the terms of the Report of the House of Commons.",
        )
        is None
    )


def test_a_rounded_figure_in_the_claim_does_not_state_the_passages_value() -> None:
    found = conflict(
        "Earnings rose to $5.52 a share; the company expects $5 per share next year.",
        "The company expects $6 per share next year.",
    )
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("$5", "$6")


def test_hedged_counts_conflict_beyond_the_hedge_when_every_count_disagrees() -> None:
    found = conflict(
        "Valencia has about 800,000 inhabitants in the city.",
        "Valencia is a city in Spain with around 10,000 inhabitants in the city.",
    )
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("800,000", "10,000")
    assert (
        conflict(
            "Global production is around 20,000 metric tons per year.",
            "The annual output is around 25,000 metric tons (1 metric ton = 1,000kg) per year.",
        )
        is None
    )


@pytest.mark.parametrize(
    ("claim", "evidence", "clash"),
    [
        # the restating clause of a longer claim, and a list the passage splits at commas
        ("The authorities, which have launched an investigation, have found evidence of poison.",
         "But the authorities have not found any evidence of poison.", True),
        ("We model syntax, but not morphology and semantics.",
         "We model syntax, semantics, and morphology.", True),
        # both negate what they share, in other words
        ("The authorities have found no signs of poison.",
         "The authorities have not found any evidence of poison.", False),
        # a question asserts nothing
        ("He does not need to restart his computer before launching them.",
         "Did you restart your computer before launching them?", False),
        # a copied sentence whose last clause is negated
        ("It was super easy because it was a block system.",
         "It was super easy because it was a block system and it wasn't super complex.", False),
        ("He is yet to visit Paris.", "He visited Paris.", True),
        # the negated word sits in a clause with a subject of its own: the visitors pay
        ("Residents do not pay for membership.",
         "Membership is free for residents, and visitors pay £5 a year.", False),
        ("Children do not pay for entry.",
         "Entry is free for children, but adults pay 10 euros.", False),
        ("Visitors do not pay for membership.",
         "Membership is free for residents, and visitors pay £5 a year.", True),
        ("Membership is not free for residents.",
         "Membership is free for residents, and visitors pay £5 a year.", True),
        # the passage says the claim, in its order, outside what its negation governs
        ("The cafe accepts cash.", "The cafe accepts cash and does not accept cards.", False),
        ("The cafe accepts cards.", "The cafe accepts cash and does not accept cards.", True),
        ("Copper can displace iron from its salt solution.",
         "So, iron can displace copper from its salt solution but copper cannot displace "
         "iron from its salt solution.", True),
        # ... and a subject the claim names, in the coordinated clause, still clashes
        ("Residents do not pay for parking.",
         "Parking is busy at weekends, and residents pay for parking by the hour.", True),
        # the negated word is another form of the claim's ("serve" / "serves")
        ("The hotel serves dinner.", "The hotel serves breakfast but does not serve dinner.",
         True),
        ("The hotel serves breakfast.",
         "The hotel serves breakfast but does not serve dinner.", False),
        ("The company did not hire engineers in 2023.",
         "The company hired 40 engineers in 2023.", True),
        # "free of charge" is "not charged"
        ("Hotel guests are not charged to use the pool.",
         "Guests can use the pool free of charge, but treatments must be booked.", False),
        # irregular forms, and the words that negate are no content ("declined to")
        ("Smith won the 2019 election.", "Smith did not win the 2019 election.", True),
        ("The court heard the case.", "The court declined to hear the case.", True),
        ("The court did not hear the case.", "The court declined to hear the case.", False),
        # a denied object takes the verb of the clause before it ("but not cards")
        ("The cafe accepts cards.", "The cafe accepts cash but not cards.", True),
        ("The cafe accepts cash.", "The cafe accepts cash but not cards.", False),
        ("The cafe does not accept cards.", "The cafe accepts cash but not cards.", False),
        ("The cafe does not accept cash.", "The cafe accepts cash but not cards.", True),
        ("The study included children.", "The study included 200 adults and no children.",
         True),
        ("The study included 200 adults.", "The study included 200 adults and no children.",
         False),
        ("The study did not include children.",
         "The study included 200 adults and no children.", False),
        ("Our hotels offer suites.", "Our hotels offer rooms but no suites.", True),
        ("The park is open in winter.", "The park is open in summer but not in winter.", True),
        ("The park is open in summer.", "The park is open in summer but not in winter.", False),
        ("Visitors may not bring alcohol.", "Visitors may bring food but not alcohol.", False),
        ("The museum is open on weekends.", "The museum is open daily and not just on weekends.",
         False),
        # no verb found to lend the denied object: the clause stays whole and keeps its negation
        ("Hollis Verdane did not paint portraits during the 1920s.",
         "During the 1920s Hollis Verdane painted landscapes and not portraits.", False),
        # a plural noun is no verb of the denied object's own
        ("Special exhibitions are not covered by the museum ticket.",
         "The museum ticket covers the main hall but no special exhibitions.", False),
        ("Special exhibitions are covered by the museum ticket.",
         "The museum ticket covers the main hall but no special exhibitions.", True),
    ],
)  # fmt: skip
def test_negation_compared_clause_by_clause(claim, evidence, clash) -> None:
    from langchain_qgate.grounding.checks.slots import negation_clash

    assert negation_clash(passage(claim), passage(evidence)) is clash


@pytest.mark.parametrize(
    ("claim", "evidence", "values"),
    [
        ("Anne Rice was born in 1997.",
         "Anne Rice (born Howard Allen Frances O'Brien; October 4, 1941) is an American author.",
         ("1997", "October 4, 1941")),
        ("Christopher Kyle died in 2014.",
         "Christopher Scott Kyle (April 8, 1974 − February 2, 2013) was a Navy SEAL veteran.",
         ("2014", "February 2, 2013")),
        ("Anne Rice was born in October.",
         "Anne Rice (born Howard Allen Frances O'Brien; October 4, 1941) is an American author.",
         None),
        # another person, a date the question gave, or no word saying which date is meant
        ("Stan Rice was born in 1997.",
         "Anne Rice (born Howard Allen Frances O'Brien; October 4, 1941) is an American author.",
         None),
        ("Christopher Kyle served from 1999 to 2009.",
         "Christopher Scott Kyle (April 8, 1974 − February 2, 2013) was a Navy SEAL veteran.",
         None),
    ],
)  # fmt: skip
def test_birth_and_death_dates_in_parentheses_after_the_name(claim, evidence, values) -> None:
    from langchain_qgate.grounding.checks.slots import lifespan_conflict

    found = lifespan_conflict(passage(claim), passage(evidence), evidence_id="e#0", quote=evidence)
    got = (found.claim_value, found.evidence_value) if found is not None else None
    assert got == values


def test_a_pronoun_is_not_resolved_to_a_negative_or_verb_group_subject() -> None:
    from langchain_qgate.grounding.claims._compound import resolve_pronoun, sentence_subject

    assert sentence_subject("Don't miss this golden opportunity.") is None
    assert sentence_subject("They're not being kept up late.") is None
    assert resolve_pronoun("It seemed long.", "No words just lightning.") == "It seemed long."
    assert resolve_pronoun("It never fails.", "It's never failed before.") == "It never fails."
    assert (
        resolve_pronoun("It was opened in 2000.", "The Oresund Bridge links Copenhagen and Malmo.")
        == "The Oresund Bridge was opened in 2000."
    )


def test_it_never_stands_for_a_plural() -> None:
    from langchain_qgate.grounding.claims._compound import resolve_pronoun, split_compound

    assert resolve_pronoun("It is child-friendly.", "The prices are high.") == (
        "It is child-friendly."
    )
    assert resolve_pronoun("It is new.", "The series was filmed in Oslo.") == ("The series is new.")
    parts = [p.text for p in split_compound("The prices are high but it is child-friendly.")]
    assert parts[-1] == "it is child-friendly."
    parts = [p.text for p in split_compound("The pub is old but it is child-friendly.")]
    assert parts[-1] == "The pub is child-friendly."


def test_names_do_not_run_across_a_sentence_end() -> None:
    text = (
        "It launches on Wednesday.\n\nStarbucks is debuting drinks. Dr. Smith lives in St. Louis."
    )
    names = [e for e, _, _ in extract_entities(text)]
    assert names == ["Wednesday", "Starbucks", "Dr. Smith", "St. Louis"]


def test_non_prefix_negates_the_word_it_is_attached_to() -> None:
    from langchain_qgate.grounding.checks.slots import negation_clash

    assert negation_clash(
        passage("Oil is a renewable resource."), passage("Oil is a non-renewable resource.")
    )
    assert not negation_clash(
        passage("Oil is a non-renewable resource."), passage("Oil is a non-renewable fuel.")
    )


def test_a_carried_subject_keeps_a_figure_with_a_thousands_comma() -> None:
    from langchain_qgate.grounding.claims._compound import split_compound

    parts = split_compound(
        "A crowd of 46,011, mostly home fans, turned out for the last match, and were treated "
        "to a classic."
    )
    assert parts[-1].text == "A crowd of 46,011 were treated to a classic."


def test_a_negation_typed_without_its_apostrophe_is_the_verb_of_its_clause() -> None:
    from langchain_qgate.grounding.claims._compound import split_compound

    # "doesnt" had been read as a word of the subject ("The cafe doesnt accepts cash.")
    parts = split_compound("The cafe doesnt take cards but it accepts cash.")
    assert [p.text for p in parts] == ["The cafe doesnt take cards.", "The cafe accepts cash."]


def test_a_misspelt_name_is_the_same_name() -> None:
    # one word of the pair is no common English word and one or two letters away
    assert conflict("Tolkein wrote several novels.", "Tolkien wrote several novels.") is None
    assert conflict("Homer Hickman wrote novels.", "Hickam has written novels.") is None
    # two common words a letter apart are two names
    found = conflict(
        "The capital of Slovakia is Ljubljana.", "The capital of Slovenia is Ljubljana."
    )
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("Slovakia", "Slovenia")


def test_a_code_a_digit_apart_is_another_code() -> None:
    found = conflict("Use the code ELITEFIT10 at checkout.", "Use the code ELITEFIT15 at checkout.")
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("ELITEFIT10", "ELITEFIT15")
