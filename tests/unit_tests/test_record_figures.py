"""How a reply's figures and denials meet a tool result's values: days of the month said
alone, approximate clocks and whole figures, clocks in words before a part of the day,
lengths of time in another unit, figures joined to a unit, counts of a list's items,
comparisons, and a denial that stops where a clause with its own verb begins.

Hand-written records and sentences (a library, a charging session, a stadium, a food order,
a report card, mortgage quotes, a venue), not taken from any data set. The field matcher
decides these claims, so a hashing embedder and no pair model give the decisions the
shipped models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks.checks import extract_quantities
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

LOAN = {"title": "Piranesi", "due_date": "2025-03-26", "branch": "Central Library"}
SESSION = {"started_at": "2024-08-03T13:04:00+02:00", "energy_kwh": 52.8}
LATE_SESSION = {**SESSION, "started_at": "2024-08-03T13:24:00+02:00"}
MATCH = {"venue": {"name": "Ashton Gate", "attendance": 21347}}
DELIVERY = {"restaurant": "Wok Inn", "eta": "2026-11-30T19:55:00Z"}
QUOTES = {
    "lender": "Harbour",
    "initial_period_months": 60,
    "initial_rate_pct": 4.29,
    "revert_rate_pct": 7.49,
    "rate_type": "fixed",
}
TWO_QUOTES = {
    "quotes": [
        {"name": "Harbour", "rate_type": "fixed", "initial_rate_pct": 4.29, "product_fee_gbp": 999},
        {"name": "Ashby", "rate_type": "tracker", "initial_rate_pct": 4.39, "product_fee_gbp": 495},
    ]
}
REPORT = {
    "student": "Daniel",
    "courses": [
        {"course": "Chemistry", "grade": "B", "percent": 84.0, "absences": 1},
        {"course": "World History", "grade": "A", "percent": 95.7, "absences": 0},
        {"course": "Spanish", "grade": "C+", "percent": 78.9, "absences": 3},
    ],
}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


def test_a_day_of_the_month_said_alone_meets_the_records_date(monitor) -> None:
    v = one_verdict(monitor, "Piranesi is due back on the 26th.", LOAN)
    assert v.grade is Grade.GROUNDED, v.reason
    v = one_verdict(monitor, "Piranesi is due back on the 24th.", LOAN)
    assert v.contradiction is not None, v.reason
    assert v.contradiction.field == "record.due_date"
    assert v.contradiction.claim_value == "24th"


def test_an_ordinal_before_a_noun_is_no_day_of_the_month(monitor) -> None:
    v = one_verdict(monitor, "Piranesi is kept on the 24th floor of Central Library.", LOAN)
    assert v.contradiction is None, v.reason


def test_an_approximate_clock_holds_the_time_within_its_reach(monitor) -> None:
    v = one_verdict(monitor, "The session started just after 1 in the afternoon.", SESSION)
    assert v.contradiction is None, v.reason
    assert v.grade is not Grade.FABRICATED, v.reason
    # twenty-four minutes past is not "just after": unsupported, never contradicted
    v = one_verdict(monitor, "The session started just after 1 in the afternoon.", LATE_SESSION)
    assert v.contradiction is None, v.reason
    assert v.grade is not Grade.GROUNDED, v.reason


def test_an_approximate_whole_figure_is_read_to_its_last_digit_that_is_not_zero(monitor) -> None:
    v = one_verdict(monitor, "Just over 21,000 were at Ashton Gate.", MATCH)
    assert v.grade is Grade.GROUNDED, v.reason
    v = one_verdict(monitor, "Just over 23,000 were at Ashton Gate.", MATCH)
    assert v.grade is not Grade.GROUNDED, v.reason


def test_a_clock_in_words_before_a_part_of_the_day_is_a_time() -> None:
    (q,) = extract_quantities("It's due at five to eight this evening.")
    assert (q.kind, q.value, q.raw) == ("time", 19 * 60 + 55, "five to eight")
    # a range of people stays two numbers
    people = extract_quantities("five to ten people came")
    assert [q.kind for q in people] == ["number", "number"]


def test_a_changed_clock_in_words_is_named(monitor) -> None:
    v = one_verdict(monitor, "Wok Inn's order is due at five to eight this evening.", DELIVERY)
    assert v.contradiction is None, v.reason
    late = {**DELIVERY, "eta": "2026-11-30T19:35:00Z"}
    v = one_verdict(monitor, "Wok Inn's order is due at five to eight this evening.", late)
    assert v.contradiction is not None, v.reason
    assert v.contradiction.field == "record.eta", v.reason


def test_a_figure_joined_to_its_unit_is_no_changed_value_of_a_rate(monitor) -> None:
    # "two-year" names a kind of fix, not the rate beside it: unsupported, never contradicted
    v = one_verdict(monitor, "Harbour's two-year fix has a revert rate of 7.49%.", QUOTES)
    assert v.contradiction is None, v.reason


def test_a_length_of_time_said_in_another_unit_is_converted_where_exact(monitor) -> None:
    v = one_verdict(monitor, "Harbour's initial rate of 4.29% is fixed for five years.", QUOTES)
    assert v.grade is Grade.GROUNDED, v.reason
    v = one_verdict(monitor, "Harbour's initial rate of 4.29% is fixed for four years.", QUOTES)
    assert v.grade is not Grade.GROUNDED, v.reason


def test_a_comparison_is_no_other_value_of_the_field_it_stands_before(monitor) -> None:
    v = one_verdict(monitor, "Harbour has the lower rate at 4.29%.", TWO_QUOTES)
    assert v.grade is not Grade.FABRICATED, v.reason
    assert v.contradiction is None, v.reason


def test_a_count_of_a_lists_items_said_with_its_noun(monitor) -> None:
    v = one_verdict(monitor, "Daniel takes three courses.", REPORT)
    assert v.grade is Grade.GROUNDED, v.reason
    assert v.evidence[0].evidence_id == "record.student"  # no item's 3 absences
    v = one_verdict(monitor, "Daniel takes five courses.", REPORT)
    assert v.grade is not Grade.GROUNDED, v.reason
    assert v.contradiction is None, v.reason


VENUE = {"venue": "Hall A", "bike_storage": False, "catering_available": False}


def test_a_denial_does_not_reach_across_and_into_a_clause_with_its_own_verb(monitor) -> None:
    # "no" denies the room for bikes, not "catering isn't available" after "and"
    v = one_verdict(monitor, "There's no room for bikes and catering isn't available.", VENUE)
    assert v.contradiction is None, v.reason
    v = one_verdict(monitor, "There's no bike storage and catering is available.", VENUE)
    assert v.contradiction is not None, v.reason
    assert v.contradiction.field == "record.catering_available"
    # a list still shares its denial
    v = one_verdict(monitor, "There's no bike storage or catering.", VENUE)
    assert v.grade is Grade.GROUNDED, v.reason
