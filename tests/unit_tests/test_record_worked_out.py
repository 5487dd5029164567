"""Figures a reply works out from a tool result: totals over a list, differences between two
items, differences of percentages, approximate differences, counts of nights or days between
two dates, and a length of time beside another measure.

A worked-out figure is at best INFERRED (the record states its parts, not it), never
contradicted, and counts as a figure the record accounts for (``quantities_ok`` 1); a wrong
total or difference stays a figure the record does not hold. Hand-written records and
sentences (a sales ledger, a fitness log, a battery, test scores, a hotel stay), not taken
from any data set. The field matcher decides these claims, so a hashing embedder and no pair
model give the decisions the shipped models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

LEDGER = {
    "shop": "Fernhill Books",
    "weeks": [
        {"week": "2025-06-02", "orders": 14, "revenue_gbp": 212.5},
        {"week": "2025-06-09", "orders": 9, "revenue_gbp": 130.25},
        {"week": "2025-06-16", "orders": 11, "revenue_gbp": 187.0},
    ],
}
SCORES = {
    "pupil": "Amara",
    "subjects": [
        {"subject": "Geography", "score_pct": 72.0},
        {"subject": "Physics", "score_pct": 88.6},
        {"subject": "Music", "score_pct": 64.5},
    ],
}
BATTERY = {"device": "Trailcam X2", "charge_start_pct": 23, "charge_end_pct": 91, "energy_wh": 41.2}
RUN = {"athlete": "Jo", "distance_km": 12.4, "elevation_gain_m": 310, "duration": "PT58M"}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    "reply",
    [
        "Across the three weeks, Fernhill Books took 34 orders in total.",
        "Adding up the three weeks, Fernhill Books made £529.75 altogether.",
    ],
)
def test_a_total_over_every_item_of_a_list_is_worked_out(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, LEDGER)
    assert verdict.grade is Grade.INFERRED, verdict.reason
    assert verdict.signals["quantities_ok"] == 1.0
    assert verdict.contradiction is None


@pytest.mark.parametrize(
    "reply",
    [
        "Across the three weeks, Fernhill Books took 36 orders in total.",
        "Adding up the three weeks, Fernhill Books made £540.75 altogether.",
    ],
)
def test_a_wrong_total_stays_unsupported(monitor: HallucinationMonitor, reply: str) -> None:
    verdict = one_verdict(monitor, reply, LEDGER)
    assert verdict.signals["quantities_ok"] < 1.0, verdict.reason
    assert verdict.grade is not Grade.GROUNDED
    assert verdict.contradiction is None


def test_a_total_needs_a_word_that_says_it_is_one(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Fernhill Books took 34 orders.", LEDGER)
    assert verdict.signals["quantities_ok"] < 1.0, verdict.reason


def test_a_difference_between_two_items_the_reply_names(monitor: HallucinationMonitor) -> None:
    reply = "Amara scored 16.6 points higher in Physics than in Geography."
    verdict = one_verdict(monitor, reply, SCORES)
    assert verdict.grade is Grade.INFERRED, verdict.reason
    wrong = one_verdict(
        monitor, "Amara scored 19.6 points higher in Physics than in Geography.", SCORES
    )
    assert wrong.grade is Grade.FABRICATED, wrong.reason


@pytest.mark.parametrize(
    ("figure", "grade"), [("almost 17", Grade.INFERRED), ("almost 25", Grade.FABRICATED)]
)
def test_an_approximate_difference_is_worked_out_within_a_twentieth(
    monitor: HallucinationMonitor, figure: str, grade: Grade
) -> None:
    reply = f"Amara scored {figure} points higher in Physics than in Geography."
    assert one_verdict(monitor, reply, SCORES).grade is grade


@pytest.mark.parametrize(("points", "grade"), [(68, Grade.INFERRED), (58, Grade.FABRICATED)])
def test_percentage_points_are_the_difference_of_two_percentages(
    monitor: HallucinationMonitor, points: int, grade: Grade
) -> None:
    reply = f"The Trailcam X2 went from 23% to 91%, that's {points} percentage points more."
    verdict = one_verdict(monitor, reply, BATTERY)
    assert verdict.grade is grade, verdict.reason
    assert verdict.contradiction is None


def test_a_length_of_time_is_read_against_the_duration_beside_another_measure(
    monitor: HallucinationMonitor,
) -> None:
    # "58 minutes" is the duration's, not a changed distance or climb
    verdict = one_verdict(monitor, "Jo ran 12.4 km in 58 minutes, climbing 310 m.", RUN)
    assert verdict.grade is not Grade.FABRICATED, verdict.reason
    assert verdict.signals["quantities_ok"] == 1.0
    changed = one_verdict(monitor, "Jo ran 12.4 km in 52 minutes, climbing 310 m.", RUN)
    assert changed.grade is Grade.FABRICATED, changed.reason
    assert changed.contradiction is None or changed.contradiction.field == "record.duration"


STAY = {"hotel": "Hotel Lux", "check_in": "2025-05-02", "check_out": "2025-05-05"}


@pytest.mark.parametrize(
    ("reply", "worked_out"),
    [
        ("Your three-night stay at Hotel Lux starts on 2 May.", True),
        ("You stay 3 nights at Hotel Lux.", True),
        ("Your four-night stay at Hotel Lux starts on 2 May.", False),
        ("You stay 2 weeks at Hotel Lux.", False),
    ],
)
def test_a_count_of_nights_or_days_between_two_dates_is_worked_out(
    monitor: HallucinationMonitor, reply: str, worked_out: bool
) -> None:
    verdict = one_verdict(monitor, reply, STAY)
    assert (verdict.signals["quantities_ok"] == 1.0) is worked_out, verdict.reason
    assert verdict.grade is not Grade.GROUNDED
    assert verdict.contradiction is None
