"""A figure in another unit of the field's measure ("140 metres" of ``distance_km``, "19°C" of
``temperature_f``) is read in the field's unit, a key word holding a figure ("24h" of
``open_24h``) is the claim's "24 hours", and a range of days is one however it is written
("Mon-Sat", "Monday to Saturday"); a key written right before a figure is its slot
(records written for these tests)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records._field_values import weekday_ranges, weekday_value
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

DOCK = {"station": "Wigmore Street", "distance_km": 0.14, "bikes": 3}
ROOM = {"room": "Living room", "temperature_f": 66, "target_f": 70}
WEATHER = {"city": "Leeds", "current": {"tempC": 11, "feelsLikeC": 8}}
LAPTOP = {"laptop": "ZenBook 14", "weight_kg": 1.2}
CHARGER = {"site": "BP Pulse", "open_24h": False, "power_kw": 50}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("reply", "record"),
    [
        ("Wigmore Street is about 140 metres away.", DOCK),
        ("Wigmore Street is 140 m away.", DOCK),
        ("It's about 19°C in the living room.", ROOM),
        ("The target is set to 21°C.", ROOM),
        ("It's about 52°F in Leeds.", WEATHER),
        ("It's 11 degrees in Leeds.", WEATHER),
        ("The ZenBook 14 weighs 1200 grams.", LAPTOP),
    ],
)
def test_a_figure_in_another_unit_of_the_measure_is_read_in_the_fields_unit(
    monitor: HallucinationMonitor, reply: str, record: dict
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("Wigmore Street is 400 metres away.", DOCK, "record.distance_km"),
        ("It's about 25°C in the living room.", ROOM, "record.temperature_f"),
        ("It's 14 degrees in Leeds.", WEATHER, "record.current.tempC"),
        ("The ZenBook 14 weighs 1800 grams.", LAPTOP, "record.weight_kg"),
    ],
)
def test_another_value_in_another_unit_is_named(
    monitor: HallucinationMonitor, reply: str, record: dict, field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


def test_degrees_of_no_scale_are_the_fields_degrees(monitor: HallucinationMonitor) -> None:
    # "11 degrees" of ``tempC`` holding 11 is no unit confused
    verdict = one_verdict(monitor, "It feels like 8 degrees in Leeds.", WEATHER)
    assert verdict.contradiction is None
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_a_unit_of_another_measure_is_still_a_unit_confused(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "The ZenBook 14 weighs 1.2 lb.", LAPTOP)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field == "record.weight_kg"


@pytest.mark.parametrize(
    ("reply", "truth"),
    [
        ("BP Pulse isn't open 24 hours.", True),
        ("BP Pulse is open 24 hours.", False),
        ("BP Pulse is open 24h.", False),
    ],
)
def test_a_boolean_whose_key_holds_a_figure_is_read_by_the_claims_words(
    monitor: HallucinationMonitor, reply: str, truth: bool
) -> None:
    verdict = one_verdict(monitor, reply, CHARGER)
    if truth:
        assert verdict.grade is Grade.GROUNDED, verdict.reason
    else:
        assert verdict.contradiction is not None, verdict.reason
        assert verdict.contradiction.field == "record.open_24h"


PARKING = {"zone": "K", "controlledHours": {"days": "Mon-Sat", "from": "08:30", "to": "18:30"}}
DATED = {"store": "CareWell", "date": "2026-12-03", "days": "Mon-Sat"}


@pytest.mark.parametrize(
    "reply",
    [
        "Controls in zone K run Monday to Saturday.",
        "Controls in zone K run from Monday through Saturday, 8:30 to 18:30.",
        "Controls in zone K run Mon–Sat.",
    ],
)
def test_a_range_of_days_is_stated_however_it_is_written(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, PARKING)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_another_range_of_days_is_not_stated(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Controls in zone K run Monday to Friday.", PARKING)
    assert verdict.grade is not Grade.GROUNDED


def test_days_a_field_of_days_states_are_no_dates_weekday(monitor: HallucinationMonitor) -> None:
    # the record's one date is a Thursday; "Monday to Saturday" is its days field's
    verdict = one_verdict(monitor, "CareWell is open Monday to Saturday.", DATED)
    assert verdict.contradiction is None, verdict.reason
    verdict = one_verdict(monitor, "CareWell's date is on a Friday.", DATED)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field == "record.date"


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("Mon-Sat", "monday-saturday"),
        ("Mon to Sat", "monday-saturday"),
        ("Sat & Sun", "saturday & sunday"),
        ("sat down", "sat down"),  # a value not all days is left as it is
        ("The sun", "The sun"),
    ],
)
def test_a_value_of_days_alone_is_read_as_days(value: str, read: str) -> None:
    assert weekday_value(value) == read


def test_a_lowercase_abbreviation_in_a_claim_is_no_day() -> None:
    assert weekday_ranges("I sat to sun") == "I sat to sun"
    assert weekday_ranges("Open Mon-Fri and Saturday to Sunday") == (
        "Open monday-friday and saturday-sunday"
    )


WALLET = {
    "assets": [
        {"symbol": "BTC", "balance": 0.0421, "price_eur": 74250.0, "value_eur": 3125.93},
        {"symbol": "ETH", "balance": 1.85, "price_eur": 1980.4, "value_eur": 3663.74},
    ]
}
SAILINGS = {
    "sailings": [
        {"departure": "07:30", "arrival": "09:30", "vessel": "Petar", "seats_left": 210},
        {"departure": "10:15", "arrival": "11:20", "vessel": "Jelena", "seats_left": 12},
    ]
}
SEEN = {"device": "Garage Camera", "online": False, "last_seen_at": "2025-02-01T06:12:00"}


def test_a_key_written_right_before_a_figure_is_its_slot(monitor: HallucinationMonitor) -> None:
    # "balance 0.0421, price 74,250.00 EUR, value 3,125.93 EUR": each key says its figure's field
    reply = "BTC: balance 0.0421, price 74,250.00 EUR, value 3,125.93 EUR."
    verdict = one_verdict(monitor, reply, WALLET)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    verdict = one_verdict(monitor, "BTC: balance 0.0521, price 74,250.00 EUR.", WALLET)
    assert verdict.grade is not Grade.GROUNDED


def test_a_key_before_another_figure_is_not_this_ones_slot(monitor: HallucinationMonitor) -> None:
    # "arrival" is the key of 11:20, not the slot of 10:15
    verdict = one_verdict(monitor, "10:15 Jelena: arrival 11:20, seats left 12.", SAILINGS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_a_function_word_of_a_key_is_no_key_before_a_figure(
    monitor: HallucinationMonitor,
) -> None:
    # "at" of ``last_seen_at`` before "6:12" says no field
    verdict = one_verdict(monitor, "The Garage Camera was last seen at 6:12 am.", SEEN)
    assert verdict.contradiction is None, verdict.reason
