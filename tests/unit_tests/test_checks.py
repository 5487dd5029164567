"""Deterministic consistency checks: quantities, dates, entities, negation, coverage."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks.checks import (
    comparable,
    conflicting,
    content_stems,
    coverage,
    extract_entities,
    extract_quantities,
    has_negation,
    negation_scopes,
    negations_about,
    quantities_match,
    stem,
    without_cues,
    word_weight,
)


def one(text: str):
    qs = extract_quantities(text)
    assert len(qs) == 1, qs
    return qs[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("$10M", "10 million dollars"),
        ("$10M", "10,000,000 USD"),
        ("10 million dollars", "10,000,000 USD"),
        ("5%", "five percent"),
        ("3.5 %", "3.5 percent"),
        ("1.2 billion", "1,200,000,000"),
        ("about 1.2 million", "1,213,000"),
        ("twenty-two", "22"),
        ("March 3, 2020", "2020-03-03"),
        ("3 March 2020", "March 3rd, 2020"),
        ("in 2020", "on March 3, 2020"),
    ],
)
def test_equal_amounts_written_differently_match(a: str, b: str) -> None:
    assert quantities_match(one(a), one(b))
    assert quantities_match(one(b), one(a))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("in 2019", "in 2020"),
        ("$10M", "$12M"),
        ("500 employees", "520 employees"),
        ("5%", "5 million"),
        ("March 3, 2020", "March 4, 2020"),
        ("June 2020", "July 2020"),
        ("3.5%", "4.5%"),
    ],
)
def test_different_amounts_do_not_match(a: str, b: str) -> None:
    assert not quantities_match(one(a), one(b))


def test_quantity_kinds_and_values() -> None:
    qs = extract_quantities("Acme raised $10M in 2019 and grew 5% to 3.5 billion users.")
    assert [(q.kind, q.value) for q in qs] == [
        ("money", 10_000_000.0),
        ("date", 2019 * 10_000),
        ("percent", 5.0),
        ("number", 3.5e9),
    ]
    assert qs[0].currency == "USD"
    assert qs[0].raw == "$10M"


def test_decades_and_ambiguous_words_are_not_quantities() -> None:
    assert extract_quantities("In the 1990s it was one of the best.") == []


def test_abbreviation_periods_do_not_make_numbers() -> None:
    assert [q.raw for q in extract_quantities("Dr. Smith joined the U.S. Army in 1990.")] == [
        "1990"
    ]


def test_entities_skip_sentence_initial_common_words_and_years() -> None:
    ents = [e for e, _, _ in extract_entities("In 2019, The New York Times hired Dr. Jane Doe.")]
    assert "New York Times" in ents
    assert "Dr. Jane Doe" in ents
    assert all(not e[0].isdigit() for e in ents)


def test_entity_offsets_point_at_the_entity() -> None:
    text = "Yesterday Barack Obama met Angela Merkel in Berlin."
    for ent, s, e in extract_entities(text):
        assert text[s:e] == ent


def test_negation_detected() -> None:
    assert has_negation("The drug was not approved.")
    assert has_negation("It didn't rain.")
    assert has_negation("He never married.")
    assert not has_negation("The drug was approved in 2019.")
    # typed without the apostrophe; words that only end in "nt" are no negation
    assert has_negation("The cafe doesnt take cards.")
    assert has_negation("It isnt open on Sundays.")
    assert not has_negation("The constant want of water is a point.")


def test_function_words_weigh_nothing_and_rare_words_weigh_most() -> None:
    assert word_weight("the") == 0.0
    assert word_weight("dancehall") > word_weight("music") > 0.0
    assert word_weight("zzyzxqq") == 1.0


def test_coverage_is_weighted_share_of_content_words() -> None:
    claim = content_stems("Acme acquired Globex in Berlin")
    assert coverage(claim, set(content_stems("Acme acquired Globex in Berlin"))) == 1.0
    partial = coverage(claim, set(content_stems("Acme is based in Berlin")))
    assert 0.0 < partial < 1.0
    assert coverage({}, set()) == 1.0


def test_digits_inside_identifiers_are_not_values() -> None:
    qs = extract_quantities(
        "[warranty_and_support#0] id_3 and item#4 come with a 24-month warranty."
    )
    assert [(q.raw, q.value) for q in qs] == [("24-month", 24.0)]


def test_sentence_initial_connectives_are_not_part_of_entities() -> None:
    ents = [
        e for e, _, _ in extract_entities("Therefore Acme has grown. Moreover Globex Corp shrank.")
    ]
    assert ents == ["Acme", "Globex Corp"]


def test_coordinated_names_are_separate_entities_but_ampersand_names_are_one() -> None:
    text = "Apple and Google signed a deal; Johnson & Johnson and the Bank of England did not."
    ents = extract_entities(text)
    assert [e for e, _, _ in ents] == ["Apple", "Google", "Johnson & Johnson", "Bank of England"]
    for ent, s, e in ents:
        assert text[s:e] == ent


def test_coordinated_months_are_not_entities() -> None:
    assert extract_entities("In May and June it rained.") == []


def test_month_without_a_year_is_a_date() -> None:
    q = one("The album was released in October.")
    assert (q.kind, q.value, q.raw) == ("date", 10 * 100, "October")
    assert quantities_match(q, one("released on October 30, 2007"))
    assert not quantities_match(q, one("released on March 30, 2007"))
    # "May" is also a verb, and a month followed by a number is a fuller date.
    assert extract_quantities("It may rain in May.") == []
    assert [x.raw for x in extract_quantities("in October 2007")] == ["October 2007"]


def test_month_and_year_without_shared_parts_are_not_compared() -> None:
    month, year = one("in October"), one("in 2007")
    assert not comparable(month, year)
    assert not quantities_match(month, year)
    assert not quantities_match(year, month)


def test_a_claims_year_must_be_stated_by_the_evidence() -> None:
    assert not quantities_match(one("on 12 December 2013"), one("in December"))
    assert quantities_match(one("in December"), one("on 12 December 2013"))


@pytest.mark.parametrize(
    ("text", "value"),
    [("submitted by 30 September.", 930), ("on March 8th", 308), ("the 2nd of May", 502)],
)
def test_a_day_of_a_month_without_a_year_is_one_date_in_prose(text: str, value: int) -> None:
    q = one(text)
    assert (q.kind, q.value) == ("date", value)


@pytest.mark.parametrize(("text", "value"), [("free for under-12s", 12), ("the over 65s", 65)])
def test_an_age_band_is_a_number(text: str, value: int) -> None:
    q = one(text)
    assert (q.kind, q.value) == ("number", value)
    assert extract_quantities("in the 1990s") == []


def test_days_of_a_month_compare_by_month_and_day() -> None:
    sept, octo = one("by 30 September"), one("by 30 October")
    assert conflicting(octo, sept)
    assert not quantities_match(octo, sept)
    assert quantities_match(one("on September 30th"), sept)
    assert quantities_match(one("on 3 June"), one("on 3 June 2021"))
    assert conflicting(one("on 4 June"), one("on 3 June 2021"))


def test_a_year_only_one_side_states_is_unstated_not_another_value() -> None:
    claim = one("by 30 September 2024")
    for evidence in ("by 30 September", "in September"):
        assert comparable(claim, one(evidence)), evidence  # the same kind of thing
        assert not quantities_match(claim, one(evidence)), evidence  # not stated
        assert not conflicting(claim, one(evidence)), evidence  # nor another value
    assert conflicting(claim, one("by 30 October"))  # the month both state differs
    assert conflicting(one("in 2023"), one("in 2024"))


@pytest.mark.parametrize(
    "text", ["released on October 30 , 2007 by", "born in June of 1866", "April 14 , 1866 --"]
)
def test_dates_with_spaced_commas_or_of_are_one_date(text: str) -> None:
    assert one(text).kind == "date"
    assert one(text).value >= 1866 * 10_000


def test_negation_scope_is_the_next_content_words_of_the_clause() -> None:
    assert negation_scopes("He did not want to leave Savatage.") == [{"leave", "savatage"}]
    assert negation_scopes("Her chain, which sells coffee, has nothing to do with Starbucks.") == [
        {"starbuck"}
    ]
    assert negation_scopes("It is not.") == [set()]


@pytest.mark.parametrize(
    "forms",
    [
        ("serve", "serves", "served", "serving"),
        ("close", "closes", "closed", "closing"),
        ("charge", "charges", "charged"),
        ("derive", "derives", "derived"),
        ("company", "companies"),
        ("study", "studies", "studied"),
        ("identify", "identified", "identifies"),
        ("class", "classes"),
        ("employee", "employees"),
        ("large", "larger", "largest"),
        ("house", "houses"),
        ("box", "boxes"),
        ("tomato", "tomatoes"),
        ("shoe", "shoes"),
        ("rate", "rates", "rated"),
        ("visit", "visits", "visited"),
        ("ship", "ships", "shipped", "shipping"),
        ("offer", "offers", "offered", "offering"),
        ("work", "worker", "workers"),
        ("write", "writer", "writers", "writing"),
        ("big", "bigger", "biggest"),
        # irregular forms
        ("win", "wins", "won", "winning"),
        ("write", "wrote", "written", "writes"),
        ("hear", "heard", "hears"),
        ("teach", "taught", "teaches"),
        ("lose", "lost", "loses"),
        ("child", "children"),
        ("woman", "women"),
        ("analysis", "analyses"),
    ],
)
def test_every_form_of_a_word_has_one_stem(forms: tuple[str, ...]) -> None:
    # "does not serve dinner" governs the word of "The hotel serves dinner" only when
    # "serve" and "serves" are one stem
    assert len({stem(w) for w in forms}) == 1, {w: stem(w) for w in forms}


def test_different_words_keep_different_stems() -> None:
    pairs = [("class", "clash"), ("plan", "plane"), ("not", "note"), ("rat", "rate"),
             ("us", "use"), ("off", "offer"), ("sum", "summer"), ("din", "dinner"),
             ("custom", "customer"),
             # forms that are as often another word keep their own stem
             ("found", "find"), ("left", "leave"), ("saw", "see"), ("rose", "rise"),
             ("born", "bear"), ("felt", "feel")]  # fmt: skip
    for a, b in pairs:
        assert stem(a) != stem(b), (a, b)


def test_free_of_is_a_negation() -> None:
    assert negation_scopes("Guests can use the pool free of charge.") == [{"charge"}]
    assert has_negation("The water is free from lead.")
    assert not has_negation("Entry is free for residents.")


def test_refusing_and_declining_are_negations() -> None:
    assert has_negation("She refused to be a model.")
    assert has_negation("He declined to comment.")
    assert not has_negation("The offer was declined.")


def test_only_negations_about_the_other_texts_words_count() -> None:
    chunk = "Shahnaz says her chain will have nothing to do with Starbucks."
    assert negations_about(chunk, set(content_stems("Her chain will sell coffee."))) == 0
    assert negations_about(chunk, set(content_stems("Her chain is part of Starbucks."))) == 1
    assert negations_about("It is not.", set()) == 1


def test_ordinals_are_ranks_compared_only_with_ranks() -> None:
    first, second = one("her first studio album"), one("her second studio album")
    assert first.ordinal
    assert (first.raw, first.value) == ("first", 1.0)
    assert not quantities_match(first, second)
    assert quantities_match(second, one("the 2nd studio album"))
    assert not quantities_match(one("the 2nd studio album"), one("two studio albums"))
    assert one("the 15th century").raw == "15th"
    assert extract_quantities("At first, and first of all, it rained.") == []


def test_negation_cues_are_no_content() -> None:
    # the words that negate are blanked out, at their places; what they govern stays
    for text in ("The court declined to hear the case.", "The plant lacks a cooling tower.",
                 "It is false that Acme made a loss.", "Entry is free of charge."):  # fmt: skip
        blank = without_cues(text)
        assert len(blank) == len(text)
        assert has_negation(text)
        assert not has_negation(blank)
    assert set(content_stems(without_cues("The court declined to hear the case."))) == {
        "court", "hear", "case"}  # fmt: skip
    assert without_cues("The court heard the case.") == "The court heard the case."


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("leaves at twenty to ten", 9 * 60 + 40),
        ("opens at half past nine", 9 * 60 + 30),
        ("by quarter past ten", 10 * 60 + 15),
        ("at five to six", 5 * 60 + 55),
        ("at twenty-five past three", 3 * 60 + 25),
        ("at 10 past 6", 6 * 60 + 10),
        ("at nine thirty", 9 * 60 + 30),
        ("around 7 o'clock", 7 * 60),
        ("at twelve thirty", 30),
        ("doors open at half six", 6 * 60 + 30),  # British: half past six
    ],
)
def test_a_clock_in_words_is_a_time_of_either_half_of_the_day(text: str, minutes: int) -> None:
    (q,) = extract_quantities(text)
    assert (q.kind, q.value, q.alt) == ("time", minutes, minutes + 720)


@pytest.mark.parametrize(
    ("text", "minutes", "alt"),
    [
        ("starts at 7:45", 7 * 60 + 45, 19 * 60 + 45),  # either half of the day
        ("on Thursday evening at 7:45", 19 * 60 + 45, None),  # the part of the day before it
        ("starts at 7:45 that evening", 19 * 60 + 45, None),
        ("this morning at 7:45", 7 * 60 + 45, None),
        ("opens at 07:45", 7 * 60 + 45, None),  # a padded clock is a 24-hour one
    ],
)
def test_a_bare_clock_is_a_time_of_either_half_of_the_day_unless_said(
    text: str, minutes: int, alt: int | None
) -> None:
    (q,) = extract_quantities(text)
    assert (q.kind, q.value, q.alt) == ("time", minutes, alt)


@pytest.mark.parametrize(
    ("text", "hedged"),
    [("arrives just after noon", True), ("around 7:15 pm", True), ("before 9 am", True),
     ("at 8:04", False), ("by 11 am", False)],
)  # fmt: skip
def test_a_clock_said_as_an_approximation_or_a_side_of_it_is_hedged(
    text: str, *, hedged: bool
) -> None:
    (q,) = extract_quantities(text)
    assert (q.kind, q.hedged) == ("time", hedged)


def test_a_text_of_24_hour_clocks_reads_its_morning_clocks_as_such() -> None:
    first, second = extract_quantities("open from 9:00 to 17:30")
    assert (first.value, first.alt, second.value) == (540, None, 17 * 60 + 30)


def test_a_clock_in_words_with_pm_is_one_time() -> None:
    (q,) = extract_quantities("the last tour starts at ten past six pm")
    assert (q.kind, q.value, q.alt) == ("time", 18 * 60 + 10, None)


@pytest.mark.parametrize(
    "text",
    [
        "from five to ten people",
        "between five to ten minutes",
        "Acme had five to ten stores",
        "around 30 to 4",
        "they ate half six pies",
    ],
)
def test_a_range_of_counts_is_no_clock(text: str) -> None:
    assert all(q.kind == "number" for q in extract_quantities(text))


def test_a_clock_in_words_matches_the_record_time_it_restates() -> None:
    (said,) = extract_quantities("at twenty to ten")
    assert any(quantities_match(said, q) for q in extract_quantities("departs 21:40"))
    assert any(quantities_match(said, q) for q in extract_quantities("departs 09:40"))
    assert not any(quantities_match(said, q) for q in extract_quantities("departs 10:20"))


def test_a_bare_figure_after_the_names_a_thing_and_is_never_a_count() -> None:
    qs = extract_quantities("he won the 100 and the 200 at three olympics in a row")
    assert [(q.raw, q.reference) for q in qs] == [("100", True), ("200", True), ("three", False)]
    (count,) = extract_quantities("Acme hired the 40 engineers.")
    assert not count.reference


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("six and a half hours", 6.5),
        ("2 and a quarter miles", 2.25),
        ("one and a half days", 1.5),
        ("ten and three quarters", 10.75),
    ],
)
def test_a_figure_with_a_fraction_in_words_is_read_whole(text: str, value: float) -> None:
    (q,) = extract_quantities(text)
    assert q.value == value
    assert q.raw.startswith(text.split(" and ", maxsplit=1)[0])


@pytest.mark.parametrize(
    ("claim", "evidence", "same"),
    [
        ("two and a half hours", "150 minutes", True),
        ("2 weeks", "14 days", True),
        ("1.5 hours", "90 min", True),
        ("a year and", "12 months", False),  # "a year" is no figure
        ("3 hours", "150 minutes", False),  # rounded in its own unit: no conversion
    ],
)
def test_a_length_of_time_matches_the_same_length_in_another_unit(
    claim: str, evidence: str, same: bool
) -> None:
    claimed = extract_quantities(claim)
    found = extract_quantities(evidence)
    assert any(quantities_match(c, e) for c in claimed for e in found) is same
