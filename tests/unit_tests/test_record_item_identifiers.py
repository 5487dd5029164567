"""Claims that say which item of a list they are about by the item's identifier ("BA117" of a
list of flights), fields a tool leaves null and a count said as "no ..." (records written for
these tests)."""

from __future__ import annotations

import json

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

FLIGHTS = {
    "passenger": "Ann Lee",
    "flights": [
        {"flight": "BA117", "departure": "09:40", "gate": "B12", "delayed": False},
        {"flight": "BA175", "departure": "14:10", "gate": None, "delayed": True},
    ],
}
CLAIMS = {
    "claims": [
        {"claim_ref": "MTR-77120", "type": "windscreen", "status": "SETTLED", "paid_gbp": 180.0},
        {"claim_ref": "MTR-80391", "type": "flood", "status": "DECLINED", "paid_gbp": 0.0},
    ]
}
RETURNS = {
    "items": [
        {"sku": "HD-200", "title": "Headphones", "reason_code": "DEFECTIVE", "refund_usd": 89.99},
        {"sku": "CB-2M", "title": "USB-C cable", "reason_code": "DEFECTIVE", "refund_usd": 9.99},
    ]
}


ORDERS = {
    "orders": [
        {"order_id": "A-1001", "item": "Espresso machine", "status": "shipped", "carrier": "UPS"},
        {"order_id": "A-1002", "item": "Milk frother", "status": "processing", "carrier": None},
    ]
}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("reply", "path"),
    [
        ("BA117 is delayed.", "flights[0].delayed"),
        ("BA175 is on time.", "flights[1].delayed"),
        ("BA117 leaves from gate B14.", "flights[0].gate"),
        ("BA175 leaves at 9:40.", "flights[1].departure"),
        ("Claim MTR-80391 paid out £180.", "claims[1].paid_gbp"),
    ],
)
def test_a_changed_value_of_the_item_a_claim_names_by_its_identifier_is_named(
    monitor: HallucinationMonitor, reply: str, path: str
) -> None:
    # "flight" is the list's word for one of its items and "claim_ref" an identifier: the
    # value names the item, so its fields are the ones the claim is read against
    verdict = one_verdict(monitor, reply, FLIGHTS if "BA" in reply else CLAIMS)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field.endswith(path)


@pytest.mark.parametrize(
    "reply",
    [
        "BA117 is not delayed.",
        "BA117 leaves from gate B12.",
        "BA175 is running late.",
        "Claim MTR-77120 was settled.",
    ],
)
def test_a_value_of_the_item_a_claim_names_by_its_identifier_is_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, FLIGHTS if "BA" in reply else CLAIMS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_a_claim_about_other_items_too_is_not_narrowed_to_the_one_it_names(
    monitor: HallucinationMonitor,
) -> None:
    # "the other one" is about BA175: the 14:10 departure is its own, not a changed BA117 time
    verdict = one_verdict(monitor, "BA117 is at 9:40 and the other one at 14:10.", FLIGHTS)
    assert verdict.contradiction is None


def test_a_value_another_field_of_the_same_list_holds_is_no_identifier(
    monitor: HallucinationMonitor,
) -> None:
    # ``reason_code`` is a kind, held by both items: "DEFECTIVE" names neither, and a claim
    # about the headphones' refund is read against the headphones
    verdict = one_verdict(monitor, "The headphones were refunded $89.99 as defective.", RETURNS)
    assert verdict.contradiction is None
    verdict = one_verdict(monitor, "The headphones were refunded $9.99.", RETURNS)
    assert verdict.grade is not Grade.GROUNDED


def test_an_identifier_of_a_lone_record_is_not_read_as_an_items(
    monitor: HallucinationMonitor,
) -> None:
    # outside a list, the key "flight" names no item: the record is what the claim is about
    record = {"flight": "BA117", "departure": "09:40", "delayed": False}
    assert one_verdict(monitor, "BA117 is delayed.", record).contradiction is not None
    assert one_verdict(monitor, "BA117 leaves at 9:40.", record).grade is Grade.GROUNDED


@pytest.mark.parametrize(
    "reply",
    [
        "No gate has been assigned to BA175 yet.",
        "The gate for BA175 hasn't been announced.",
        "BA175 has no gate yet.",
    ],
)
def test_a_null_field_said_to_have_no_value_is_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, FLIGHTS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_a_value_given_to_a_null_field_is_named_with_that_value(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "BA175 leaves from gate B12.", FLIGHTS)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field.endswith("flights[1].gate")
    assert verdict.contradiction.claim_value == "B12"  # not "true"


def test_a_count_said_as_none_is_read_against_the_field(monitor: HallucinationMonitor) -> None:
    record = {"route": "LAX-SAN", "transfers": 0, "seats_left": 4}
    assert one_verdict(monitor, "There are no transfers.", record).grade is Grade.GROUNDED
    changed = one_verdict(monitor, "There are no transfers.", {**record, "transfers": 2})
    assert changed.contradiction is not None
    assert changed.contradiction.field.endswith("transfers")
    # "no more than 4" is a bound with a figure, not a count of none
    assert one_verdict(monitor, "There are no seats left.", record).contradiction is not None


def test_every_claim_of_a_reply_about_two_flights_reads_its_own_item(
    monitor: HallucinationMonitor,
) -> None:
    reply = "BA117 leaves on time at twenty to ten from gate B12. BA175 is delayed."
    verdicts = monitor.verify_grounding(reply, json.dumps(FLIGHTS)).verdicts
    assert [v.grade for v in verdicts] == [Grade.GROUNDED, Grade.GROUNDED]


def test_the_item_of_an_order_names_it(monitor: HallucinationMonitor) -> None:
    # ``item`` is what an entry of any list is: "the milk frother" says which order
    assert one_verdict(monitor, "Your espresso machine has shipped with UPS.", ORDERS).grade is (
        Grade.GROUNDED
    )
    changed = one_verdict(monitor, "The milk frother has shipped.", ORDERS)
    assert changed.contradiction is not None
    assert changed.contradiction.field.endswith("orders[1].status")


def test_a_word_in_es_is_read_as_its_stem(monitor: HallucinationMonitor) -> None:
    # "goes" is "go" (it was read as "goe", a word of no field): a verb of the reply's own
    record = {"flight": "BA117", "departure": "09:40", "gate": "B12"}
    assert one_verdict(monitor, "BA117 goes from gate B12.", record).grade is Grade.GROUNDED
    assert one_verdict(monitor, "BA117 goes from gate B14.", record).contradiction is not None
