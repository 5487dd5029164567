"""Values of a tool result as replies write them: a clock with its zone ("17:45 (+01:00)"), an
hour said alone ("check in from eight"), a figure with a fraction ("six and a half hours"),
the length of a list of values ("your three seats"), and a sibling item's value denied ("Bellows
isn't available"); and what none of them may be read as: a count as a price per item, a
figure as a field whose key word stands in another clause, a zone the record does not hold as
the record's.

Hand-written records and sentences (a car hire, a cinema booking, a coworking desk, meeting
rooms), not taken from any data set. The field matcher decides these claims, so a hashing
embedder and no pair model give the decisions the shipped models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records._field_values import (
    compound_lengths,
    read_zones,
    zone_minutes,
)
from langchain_qgate.grounding.records._record_words import claim_tokens
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

HIRE = {
    "reservation": "RZ-4821",
    "dropoff": {"location": "Porto Campanha Station", "datetime": "2024-09-18T17:45:00+01:00"},
    "one_way_fee_eur": 65.0,
}
CINEMA = {
    "bookingRef": "CNX-7Q2",
    "seats": ["F11", "F12", "F13"],
    "ticketType": "adult",
    "pricePerSeatGbp": 14.2,
    "totalPaidGbp": 42.6,
}
DESK = {
    "booking": {
        "bookingId": "CW-551",
        "date": "2026-12-11",
        "checkInFrom": "08:00",
        "checkOutBy": "18:30",
        "creditsUsed": 1,
        "creditsRemaining": 4,
        "meetingRoomHours": 2,
        "overtimeHours": 6.5,
    }
}
ROOMS = {
    "rooms": [
        {"room": "Kiln", "capacity": 4, "status": "available"},
        {"room": "Bellows", "capacity": 12, "status": "fully_booked"},
    ]
}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("zone", "minutes"),
    [("Z", 0), ("UTC", 0), ("+01:00", 60), ("UTC+1", 60), ("-0530", -330), ("GMT-4", -240)],
)
def test_a_zone_is_read_as_minutes_east_of_utc(zone: str, minutes: int) -> None:
    assert zone_minutes(zone) == minutes


def test_a_zone_the_record_holds_is_left_out_and_another_is_returned() -> None:
    held = frozenset({60})
    assert read_zones("Drop-off at 17:45 (+01:00).", held) == ("Drop-off at 17:45.", "")
    assert read_zones("Drop-off at 17:45 UTC+1.", held) == ("Drop-off at 17:45.", "")
    assert read_zones("2024-09-18T17:45:00+01:00", held) == ("2024-09-18 17:45", "")
    assert read_zones("Drop-off at 17:45 (+03:00).", held)[1] == "+03:00"
    assert read_zones("2024-09-18T17:45:00+05:00", held) == ("2024-09-18 17:45", "+05:00")
    # the next day of an itinerary and a range of clocks are no zones
    assert read_zones("lands 06:10 (+1), open 09:00-17:00", held) == (
        "lands 06:10 (+1), open 09:00-17:00",
        "",
    )


@pytest.mark.parametrize(
    "reply",
    [
        "Drop-off is at 17:45 (+01:00).",
        "Drop-off is at 17:45 UTC+1.",
        "Drop-off: Porto Campanha Station, 2024-09-18 17:45 (+01:00).",
    ],
)
def test_a_clock_with_the_zone_the_record_holds_is_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, HIRE)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize(
    "reply",
    [
        "Drop-off is at 17:45 (+03:00).",
        "Drop-off is at 17:45 UTC.",
        "Drop-off is at 2024-09-18T17:45:00+05:00.",
    ],
)
def test_a_zone_the_record_does_not_hold_is_not_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, HIRE)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
    assert verdict.contradiction is None


def test_six_and_a_half_hours_states_6_5(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "You did six and a half hours of overtime.", DESK)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize("reply", ["You have three seats.", "You have three adult seats."])
def test_a_count_of_a_list_of_values_is_its_length(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, CINEMA)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize("reply", ["You have four seats.", "You have four adult seats."])
def test_a_count_is_never_a_changed_price_per_item(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, CINEMA)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is not Grade.GROUNDED


def test_a_changed_price_per_item_is_still_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Each seat costs £15.20.", CINEMA)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field == "record.pricePerSeatGbp"


def test_an_hour_said_alone_is_the_clock_of_the_record(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "You can check in from eight.", DESK)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert any(e.evidence_id == "booking.checkInFrom" for e in verdict.evidence)


def test_an_hour_no_clock_holds_is_no_other_fields_figure(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "You can check in from nine.", DESK)
    assert verdict.contradiction is None, verdict.reason  # not ``meetingRoomHours``
    assert verdict.grade is not Grade.GROUNDED


def test_an_hour_no_clock_holds_is_never_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "You'll need to be out by six.", DESK)
    assert verdict.contradiction is None, verdict.reason  # 18:30: unsupported, not named
    assert verdict.grade is not Grade.GROUNDED


def test_a_key_word_in_another_clause_is_no_slot_for_a_figure(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "That booking used one credit, leaving you four.", DESK)
    assert verdict.contradiction is None, verdict.reason  # four is ``creditsRemaining``


def test_a_figure_beside_its_key_word_is_still_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "You get 3 meeting room hours.", DESK)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field == "booking.meetingRoomHours"


@pytest.mark.parametrize("reply", ["Bellows isn't available.", "Bellows has no available slots."])
def test_a_siblings_value_denied_is_no_changed_value(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, ROOMS)
    assert verdict.contradiction is None, verdict.reason


def test_a_siblings_value_said_is_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Bellows is available.", ROOMS)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field == "rooms[1].status"


VISIT = {
    "appointment": {"ref": "VT-88", "status": "CONFIRMED", "start": "2026-12-08T09:40:00+00:00"}
}
PAY = {"payslip": {"employee": "E-308", "net_pay_gbp": 2480.5, "payment_status": "processed"}}
DESKS = {
    "date": "2026-12-15",
    "rooms": [
        {"room": "Kiln", "capacity": 4, "status": "available"},
        {"room": "Forge", "capacity": 6, "status": "fully_booked"},
    ],
}


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("The appointment is still pending confirmation.", VISIT, "appointment.status"),
        ("Not quite - the appointment is still pending.", VISIT, "appointment.status"),
        ("No, the appointment has been cancelled.", VISIT, "appointment.status"),
        ("Your net pay of £2,480.50 is still pending.", PAY, "payslip.payment_status"),
        ("Kiln is fully booked.", DESKS, "record.rooms[0].status"),
        ("Forge is available.", DESKS, "record.rooms[1].status"),
    ],
)
def test_a_status_said_in_another_class_of_its_vocabulary_is_named(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object], field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


@pytest.mark.parametrize(
    ("reply", "record"),
    [
        ("Yes, the appointment is confirmed.", VISIT),
        ("No, it isn't pending any more: the appointment is confirmed.", VISIT),
        ("Your net pay of £2,480.50 has been processed.", PAY),
        ("Kiln is available.", DESKS),
        ("Forge is sold out.", DESKS),
        ("Forge isn't available.", DESKS),
    ],
)
def test_a_status_said_in_its_own_class_or_denied_in_another_is_not_named(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object]
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is None, verdict.reason


DESK_AMENITIES = {"booking": {"site": "The Foundry", "amenities": {"wifi": True, "parking": False}}}
RESORT = {"resort": "Val Claree", "snow_park_open": True}


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("Parking's included at The Foundry.", DESK_AMENITIES, "booking.amenities.parking"),
        ("Parking is available at The Foundry.", DESK_AMENITIES, "booking.amenities.parking"),
        ("The snow park is closed today.", RESORT, "record.snow_park_open"),
    ],
)
def test_a_yes_no_field_under_amenities_or_of_a_thing_open_is_read_by_its_own_key(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object], field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


@pytest.mark.parametrize(
    ("reply", "record"),
    [
        ("Wifi's included at The Foundry.", DESK_AMENITIES),
        ("There's no parking at The Foundry.", DESK_AMENITIES),
        ("The snow park is open.", RESORT),
        ("The snow park isn't closed.", RESORT),
    ],
)
def test_a_yes_no_field_said_as_it_holds_is_not_named(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object]
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is Grade.GROUNDED, verdict.reason


LIFTS = {
    "lifts": [
        {"name": "Vallon", "status": "OPEN", "opensAt": "08:30", "closesAt": "16:45"},
        {"name": "Pic Blanc", "status": "CLOSED", "opensAt": None, "closesAt": None},
    ]
}
BILL = {"bill": "INV-1", "reading_type": "ESTIMATED", "paid": False, "delayed": False}


@pytest.mark.parametrize(
    ("reply", "record"),
    [
        ("Pic Blanc is closed for avalanche control.", LIFTS),  # no clock of a null closesAt
        ("INV-1: paid is false.", BILL),  # a key that is a state, said as it holds
        ("INV-1 hasn't been paid.", BILL),
    ],
)
def test_a_state_said_as_the_record_holds_it_is_not_named(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object]
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is None, verdict.reason


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("Pic Blanc is open.", LIFTS, "lifts[1].status"),
        ("INV-1 is paid.", BILL, "record.paid"),
        ("INV-1 is running late.", BILL, "record.delayed"),
    ],
)
def test_a_state_said_against_the_record_is_named(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object], field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


PET = {"animal": "Skye", "ageMonths": 52, "runtimeMinutes": 128}
MUSEUM = {
    "events": [
        {"title": "Family Dig Pit", "start": "11:00", "bookingRequired": False},
        {"title": "Fossil Tour", "start": "14:00", "bookingRequired": True},
    ]
}


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("four years and four months old", "52 months old"),
        ("runs 2 hours 8 minutes", "runs 128 minutes"),
        ("1 hour, 5 mins", "65 minutes"),
        ("3 weeks and 2 days", "23 days"),
        ("2 hours 10 days", "2 hours 10 days"),  # no one length
        ("four years old", "four years old"),
    ],
)
def test_a_length_said_in_two_units_is_read_in_the_smaller(text: str, written: str) -> None:
    assert compound_lengths(text) == written


def test_a_length_in_two_units_meets_the_field_that_holds_it(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "Skye is four years and four months old.", PET)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    changed = one_verdict(monitor, "Skye is four years and five months old.", PET)
    assert changed.contradiction is not None
    assert changed.contradiction.field == "record.ageMonths"
    assert changed.contradiction.claim_value == "four years and five months"  # as said


@pytest.mark.parametrize(
    ("reply", "holds"),
    [
        ("There's no need to book the Family Dig Pit.", True),
        ("No booking needed for the Family Dig Pit.", True),
        ("You need to book the Fossil Tour.", True),
        ("You'll need to book the Family Dig Pit in advance.", False),
        ("You don't need to book the Fossil Tour.", False),
    ],
)
def test_a_need_to_book_reads_a_booking_required_key(
    monitor: HallucinationMonitor, reply: str, holds: bool
) -> None:
    verdict = one_verdict(monitor, reply, MUSEUM)
    if holds:
        assert verdict.grade is Grade.GROUNDED, verdict.reason
    else:
        assert verdict.contradiction is not None, verdict.reason
        assert verdict.contradiction.field.endswith("bookingRequired")


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Parking's included.", ["parking", "is", "included", "."]),
        ("Wifi's free for guests", ["wifi", "is", "free", "for", "guests"]),
        ("The hotel's free parking", ["the", "hotel's", "free", "parking"]),  # a possessive
        ("the cafe's prices", ["the", "cafe's", "prices"]),
    ],
)
def test_an_s_before_a_predicate_that_ends_its_clause_is_read_as_is(
    text: str, tokens: list[str]
) -> None:
    assert claim_tokens(text) == tokens
