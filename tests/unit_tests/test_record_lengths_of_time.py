"""Lengths of time in tool results and replies: ISO 8601 durations of weeks, months and years,
a figure joined to its unit of time ("a 6-month permit", "a two-year fix"), and a key that
names a share, not an amount of money.

Hand-written records and sentences (parking permits, a mortgage quote, a phone contract, a
battery), not taken from any data set. The field matcher decides these claims, so a hashing
embedder and no pair model give the decisions the shipped models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records._field_values import duration_in_words, duration_minutes
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

PERMITS = {
    "zone": "K",
    "options": [
        {"code": "R-3", "duration": "P3M", "price_gbp": 27.5},
        {"code": "R-6", "duration": "P6M", "price_gbp": 45.0},
        {"code": "R-12", "duration": "P1Y", "price_gbp": 78.0},
    ],
}
QUOTE = {"lender": "Fenwick", "initial_period_months": 24, "monthly_payment_gbp": 1210.4}
CONTRACT = {"plan": "Talk 30", "minimum_term": "P2W", "monthly_fee_gbp": 12}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("value", "words", "minutes"),
    [
        ("P6M", "6 months", None),
        ("P1Y6M", "1 year 6 months", None),
        ("P2W", "2 weeks", 20160.0),
        ("PT3H15M", "3 hours 15 minutes (195 minutes)", 195.0),
        ("P1DT2H", "1 day 2 hours", 1560.0),
        ("P", None, None),
        ("6M", None, None),
    ],
)
def test_iso_durations_of_weeks_months_and_years_are_read(
    value: str, words: str | None, minutes: float | None
) -> None:
    assert duration_in_words(value) == words
    assert duration_minutes(value) == minutes


def test_a_figure_joined_to_its_unit_of_time_is_the_durations(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "The 6-month permit costs £45.", PERMITS)
    assert verdict.grade is not Grade.FABRICATED, verdict.reason  # "permit": no field's word
    assert verdict.signals["quantities_ok"] == 1.0
    # another item's price for it is never grounded
    verdict = one_verdict(monitor, "The 6-month permit costs £27.50.", PERMITS)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason


def test_a_length_of_time_said_in_another_unit_is_the_keys(
    monitor: HallucinationMonitor,
) -> None:
    # "two-year" is the 24 months of the initial period, not a changed monthly payment
    verdict = one_verdict(monitor, "Fenwick's two-year deal costs £1,210.40 a month.", QUOTE)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    verdict = one_verdict(monitor, "Fenwick's three-year deal costs £1,210.40 a month.", QUOTE)
    assert verdict.signals["quantities_ok"] < 1.0, verdict.reason
    assert verdict.grade is not Grade.GROUNDED


def test_weeks_are_read_as_a_duration(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Talk 30 has a minimum term of 2 weeks.", CONTRACT)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_a_key_naming_a_percentage_holds_no_money(monitor: HallucinationMonitor) -> None:
    battery = {"device": "Trailcam X2", "charge_start_pct": 23, "charge_end_pct": 91}
    verdict = one_verdict(monitor, "The Trailcam X2 charged from 23% to 91%.", battery)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
