"""A figure in another unit of the field's measure ("140 metres" of ``distance_km``, "19°C" of
``temperature_f``) is read in the field's unit, and a key word holding a figure ("24h" of
``open_24h``) is the claim's "24 hours" (records written for these tests)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
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
