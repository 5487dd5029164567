"""An amount of money a reply says is none: "no delivery fee", "there's no charge", "free of
charge", "it's free", read against the record's amounts (records written for these tests)."""

from __future__ import annotations

import json

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

ORDER = {"order_id": "A-1043", "subtotal_gbp": 45.0, "delivery_fee_gbp": 2.99, "tip_gbp": 0.0}
CLASS_FREE = {"class": "Spin 45", "instructor": "Marta Kowalska", "price_gbp": 0.0}
CLASS_PAID = {"class": "Spin 45", "instructor": "Marta Kowalska", "price_gbp": 8.5}
HOTEL = {
    "hotel": "Harbour Inn",
    "breakfast_included": False,
    "parking_fee_eur": 0,
    "city_tax_eur": 2.5,
}
CHARGE = {"price_per_kwh_eur": 0.39, "total_cost_eur": 20.59, "idle_fee_eur": 0}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("There's no tip on the order.", ORDER, "record.tip_gbp"),
        ("There was no idle fee.", CHARGE, "record.idle_fee_eur"),
        ("Spin 45 is free.", CLASS_FREE, "record.price_gbp"),
        ("Spin 45 costs nothing.", CLASS_FREE, "record.price_gbp"),
        ("There's no charge for Spin 45.", CLASS_FREE, "record.price_gbp"),
        ("Parking is free of charge at the Harbour Inn.", HOTEL, "record.parking_fee_eur"),
    ],
)
def test_a_zero_amount_is_stated_by_words_that_say_none(
    monitor: HallucinationMonitor, reply: str, record: dict, field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert field in {link.evidence_id for link in verdict.evidence}


@pytest.mark.parametrize(
    ("reply", "field"),
    [
        ("There's no delivery fee.", "record.delivery_fee_gbp"),
        ("The order has no delivery fee.", "record.delivery_fee_gbp"),
    ],
)
def test_no_amount_of_a_field_named_by_its_key_is_a_changed_value(
    monitor: HallucinationMonitor, reply: str, field: str
) -> None:
    verdict = one_verdict(monitor, reply, ORDER)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field
    assert verdict.contradiction.evidence_value == "2.99"


@pytest.mark.parametrize(
    "reply",
    ["There's no charge for Spin 45.", "Spin 45 costs nothing.", "Spin 45 is free of charge."],
)
def test_no_charge_of_a_record_whose_amount_is_not_none_is_unsupported(
    monitor: HallucinationMonitor, reply: str
) -> None:
    # which amount "no charge" means is not said: never named, never grounded
    verdict = one_verdict(monitor, reply, CLASS_PAID)
    assert verdict.grade is Grade.FABRICATED, verdict.reason
    assert verdict.contradiction is None


def test_a_zero_amount_of_another_thing_states_no_field(monitor: HallucinationMonitor) -> None:
    # the parking fee is 0; breakfast is no amount of the record
    verdict = one_verdict(monitor, "Breakfast is free at the Harbour Inn.", HOTEL)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
    assert "record.parking_fee_eur" not in {link.evidence_id for link in verdict.evidence}


def test_free_before_a_thing_is_no_amount(monitor: HallucinationMonitor) -> None:
    # "free" before a noun says what is offered ("free parking"), "free" alone may mean
    # "not taken": neither is read as a price of 0 against a record whose price is not 0
    verdict = one_verdict(monitor, "Spin 45 has free towels.", CLASS_PAID)
    assert verdict.grade is not Grade.GROUNDED
    assert verdict.contradiction is None
    verdict = one_verdict(monitor, "Spin 45 is free.", CLASS_PAID)
    assert verdict.contradiction is None


def test_an_answer_no_before_a_key_says_no_amount(monitor: HallucinationMonitor) -> None:
    verdicts = monitor.verify_grounding(
        "No, the delivery fee is £2.99.", json.dumps(ORDER)
    ).verdicts
    assert [v.grade for v in verdicts] == [Grade.GROUNDED]
    assert verdicts[0].contradiction is None


def test_a_zero_amount_leaves_an_approximate_total_to_the_total(
    monitor: HallucinationMonitor,
) -> None:
    # "no idle fee" is not the slot of "about 21 euros"
    verdict = one_verdict(monitor, "About 21 euros, and there was no idle fee.", CHARGE)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
