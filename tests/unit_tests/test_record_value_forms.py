"""How a tool's values are said in a reply: a text value by its parts, a status by its own
word, a record's clock as a 24-hour one with the part of the day that holds it, a list's item
by the list's word (records written for these tests)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records.fields import _norm
from langchain_qgate.schemas import ClaimVerdict, Grade
from tests.unit_tests._records import field_monitor, one_verdict

RENTAL = {
    "pickup": {"location": "Lisbon Airport (LIS) - Terminal 1", "datetime": "2024-09-14T09:30:00"},
    "dropoff": {"location": "Porto Campanhã Station", "datetime": "2024-09-18T17:45:00"},
}
REFILL = {
    "rxNumber": "RX-6604821",
    "refillStatus": "READY",
    "readyAt": "2026-12-01T11:30:00-05:00",
    "copayUsd": 4.99,
}
SLOTS = {
    "date": "2025-01-21",
    "slots": [
        {"start_time": "08:15", "dentist": "Dr. Aisha Raman", "fee_aud": 210.0},
        {"start_time": "11:30", "dentist": "Dr. Tom Okafor", "fee_aud": 195.0},
        {"start_time": "16:50", "dentist": "Dr. Lena Fischer", "fee_aud": 225.0},
    ],
}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


def named_field(verdict: ClaimVerdict) -> str:
    """The path of the field a contradicted verdict names ("" when it names none)."""
    assert verdict.contradiction is not None, verdict.reason
    return verdict.contradiction.field or ""


@pytest.mark.parametrize(
    "reply",
    [
        "Pickup is at Lisbon Airport, Terminal 1.",
        "The pickup location is Terminal 1.",
    ],
)
def test_a_text_value_is_stated_by_the_parts_its_separators_set_apart(
    monitor: HallucinationMonitor, reply: str
) -> None:
    # "Lisbon Airport (LIS) - Terminal 1": a dash and a parenthesis set its parts apart
    assert one_verdict(monitor, reply, RENTAL).grade is Grade.GROUNDED


def test_a_part_with_another_figure_is_not_stated(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Pickup is at Lisbon Airport, Terminal 2.", RENTAL)
    assert verdict.grade is not Grade.GROUNDED


@pytest.mark.parametrize("reply", ["Your refill is ready.", "It is ready."])
def test_a_status_is_stated_by_its_own_word(monitor: HallucinationMonitor, reply: str) -> None:
    # "READY" of a collection status: no phrase of its class ("ready for pickup") is needed
    verdict = one_verdict(monitor, reply, REFILL)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert "refillStatus" in verdict.reason


@pytest.mark.parametrize("reply", ["Your refill isn't ready.", "It's not ready yet."])
def test_a_status_said_after_a_negation_is_not_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    assert one_verdict(monitor, reply, REFILL).grade is not Grade.GROUNDED


def test_another_status_of_the_vocabulary_is_still_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Your refill has been collected.", REFILL)
    assert named_field(verdict).endswith("refillStatus")


def test_a_part_of_the_day_that_holds_the_clock_is_the_clocks(
    monitor: HallucinationMonitor,
) -> None:
    # 11:30 is before noon: "on Tuesday morning" says so, "on Tuesday evening" does not
    said = "It is ready from half past eleven on Tuesday {}."
    assert one_verdict(monitor, said.format("morning"), REFILL).grade is Grade.GROUNDED
    assert one_verdict(monitor, said.format("evening"), REFILL).grade is not Grade.GROUNDED


@pytest.mark.parametrize(
    "reply", ["It is ready from 11:30 pm.", "It is ready from 11:30 at night."]
)
def test_a_records_clock_is_a_24_hour_one(monitor: HallucinationMonitor, reply: str) -> None:
    # "2026-12-01T11:30:00": half past eleven in the morning, never in the evening
    assert named_field(one_verdict(monitor, reply, REFILL)).endswith("readyAt")
    assert one_verdict(monitor, "It is ready from 11:30.", REFILL).grade is Grade.GROUNDED


def test_the_lists_word_names_an_item_whose_field_the_claim_states(
    monitor: HallucinationMonitor,
) -> None:
    # "slot" is the word of ``slots`` for one of its items
    verdict = one_verdict(monitor, "The 16:50 slot is with Dr. Lena Fischer.", SLOTS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize("reply", ["The first slot is at 16:50.", "The last slot is at 8:15."])
def test_an_item_picked_by_its_place_in_the_list_is_not_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    # no field says which slot is the first: the pick is unread, so never grounded
    assert one_verdict(monitor, reply, SLOTS).grade is not Grade.GROUNDED


@pytest.mark.parametrize(
    ("word", "stem"),
    [("plus", "plus"), ("status", "status"), ("bus", "bus"), ("tablets", "tablet")],
)
def test_a_word_ending_in_s_loses_it_only_when_it_is_a_plural(word: str, stem: str) -> None:
    assert _norm(word) == stem


def test_a_word_inside_a_hyphenated_word_is_no_carrier(monitor: HallucinationMonitor) -> None:
    # "check-ups" is no UPS: the carrier's name is a common word, read beside a delivery word
    record = {"appointment_type": "CHECKUP", "duration_min": 30}
    assert one_verdict(monitor, "Check-ups are 30 minutes.", record).grade is not Grade.FABRICATED
    order = {"order": "A1", "status": "shipped", "carrier": "DHL"}
    verdict = one_verdict(monitor, "Your order was shipped with UPS.", order)
    assert verdict.contradiction is not None
    assert verdict.contradiction.claim_value == "UPS"


WALLET = {
    "assets": [
        {"symbol": "BTC", "name": "Bitcoin", "balance": 0.0421, "value_eur": 3125.93},
        {"symbol": "ETH", "name": "Ethereum", "balance": 1.85, "value_eur": 3663.74},
        {"symbol": "USDC", "name": "USD Coin", "balance": 500.0, "value_eur": 460.0},
    ]
}


def test_a_superlative_without_a_measure_is_read_by_the_figure_the_claim_gives(
    monitor: HallucinationMonitor,
) -> None:
    # "biggest" names no field of the list: the figure written with it is the value's
    said = "Ethereum is your biggest holding at €3,663.74."
    assert one_verdict(monitor, said, WALLET).grade is Grade.GROUNDED
    # another item's figure: the pick is not verified, and, the measure being the claim's
    # guess, not named as a wrong pick either
    verdict = one_verdict(monitor, "Bitcoin is your biggest holding at €3,125.93.", WALLET)
    assert verdict.grade is not Grade.GROUNDED
    assert verdict.contradiction is None


LOANS = {
    "loans": [
        {"title": "The Overstory", "due_date": "2026-12-07", "renewable": True},
        {"title": "Paddington 2", "due_date": "2026-12-02", "renewable": True},
    ]
}


@pytest.mark.parametrize(
    "reply",
    [
        "The next one due back is The Overstory, on 7 December.",
        "The first one due back is The Overstory, on 7 December.",
        "The last one due back is Paddington 2, on 2 December.",
    ],
)
def test_a_pick_by_place_in_a_list_is_never_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    # the item's own values are right; which is next, first or last no field says
    assert one_verdict(monitor, reply, LOANS).grade is not Grade.GROUNDED


def test_an_item_named_without_a_pick_is_grounded(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "The Overstory is due back on 7 December.", LOANS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


CHARGING = {
    "session_id": "cs_9f2a71c4",
    "duration": "PT37M",
    "energy_kwh": 52.8,
    "total_cost_eur": 20.59,
}


def test_the_word_before_a_records_identifier_says_what_the_record_is(
    monitor: HallucinationMonitor,
) -> None:
    # ``session_id``: the record is a session, so "the session" is the record's own word
    assert one_verdict(monitor, "The session took 37 minutes.", CHARGING).grade is Grade.GROUNDED
    verdict = one_verdict(monitor, "The session cost €25.", CHARGING)
    assert named_field(verdict).endswith("total_cost_eur")
    # a word the record does not hold is still unplaced
    said = "The session took 37 minutes at a supercharger."
    assert one_verdict(monitor, said, CHARGING).grade is not Grade.GROUNDED
