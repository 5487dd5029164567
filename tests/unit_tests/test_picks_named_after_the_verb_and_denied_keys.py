"""A pick from a list is narrowed only by the words of its own phrase: a value that names the
picked item after the verb ("the shortest is *the harbour walk*") is the item, not a part of
the list the claim picks from; a figure of a field counts only written whole ("£8.50" holds no
"50"); the list's own noun ("the cheapest *room*") and what is true of the item ("with a
*screen*") are the list's words. A claim that denies the key word of a field with a figure it
states ("not paid for yet - it will come to £26.80" beside ``"total_paid_gbp": 26.8``) is
not grounded by it.

Hand-written records and sentences (guided walks, pharmacy orders, meeting rooms, a cinema
booking), not taken from any data set. The field matcher decides the record claims, so a
hashing embedder and no pair model give the decisions the shipped models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records.lists import ListPick
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict
from tests.unit_tests.test_list_pick import _chunks

WALKS = {
    "walks": [
        {"title": "Old Town: Castle and Cathedral", "kind": "walk", "minutes": 90,
         "price_gbp": 12.9},
        {"title": "Harbour Walk: Lighthouses", "kind": "walk", "minutes": 50,
         "price_gbp": 8.5},
        {"title": "Ghosts of the Closes", "kind": "evening walk", "minutes": 75,
         "price_gbp": 15.0},
    ]
}  # fmt: skip
ORDERS = {
    "orders": [
        {"item": "Cetirizine 10 mg tablets", "status": "ready", "price_usd": 6.49},
        {"item": "Omeprazole 20 mg capsules", "status": "ready", "price_usd": 12.8},
        {"item": "Loratadine 10 mg tablets", "status": "processing", "price_usd": 4.25},
    ]
}  # fmt: skip
ROOMS = {
    "rooms": [
        {"room": "Cedar", "seats": 4, "rate_gbp_hour": 20, "projector": "N"},
        {"room": "Birch", "seats": 6, "rate_gbp_hour": 28, "projector": "Y"},
        {"room": "Rowan", "seats": 10, "rate_gbp_hour": 35, "projector": "Y"},
        {"room": "Alder", "seats": 8, "rate_gbp_hour": 25, "projector": "Y"},
    ]
}  # fmt: skip
BOOKING = {"booking_ref": "QX-4471", "status": "PAID", "seats": ["H4", "H5"],
           "booking_fee_gbp": 1.2, "total_paid_gbp": 26.8}  # fmt: skip


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


def _picked(claim: str, data: object) -> list[tuple[str, str | None]]:
    return [(f.kind, f.field) for f in ListPick()(claim, _chunks(data))]


@pytest.mark.parametrize(
    ("claim", "data", "field"),
    [
        # "Ghosts" and "walk" stand after "is": they name the pick (the only evening walk), they
        # narrow no part of the list; the shortest walk is the harbour walk
        ("The shortest is the Ghosts walk, at 75 minutes.", WALKS, "walks[1].minutes"),
        # the item's name after the verb, said in part ("cetirizine" of "Cetirizine 10 mg
        # tablets"); the cheapest order is the loratadine
        ("The cheapest of your orders is the cetirizine at $6.49.", ORDERS,
         "orders[2].price_usd"),
    ],
)  # fmt: skip
def test_a_value_naming_the_pick_after_the_verb_does_not_narrow_the_list(
    claim: str, data: object, field: str
) -> None:
    assert _picked(claim, data) == [("contradiction", field)]


@pytest.mark.parametrize(
    ("claim", "data"),
    [
        # a value in the superlative's own phrase is a part of the list: the cheapest of the
        # "evening walk" kind is the ghost walk
        ("The cheapest evening walk is Ghosts of the Closes at £15.", WALKS),
        # a lead-in before it says the same
        ("Of the ready orders, the cheapest is the cetirizine at $6.49.", ORDERS),
    ],
)
def test_a_value_in_the_pick_phrase_still_narrows_the_list(claim: str, data: object) -> None:
    assert all(kind != "contradiction" for kind, _ in _picked(claim, data))


def test_a_figure_of_a_field_narrows_only_when_written_whole() -> None:
    # "£12.90" holds the figures 12 and 90 but says no walk of 90 minutes: the old town walk is
    # the cheapest of the 90-minute walks (there is one), not of the walks
    wrong = _picked("The cheapest walk is the Old Town: Castle and Cathedral at £12.90.", WALKS)
    assert wrong == [("contradiction", "walks[1].price_gbp")]
    said = _picked("The cheapest 90-minute walk is the Old Town: Castle and Cathedral.", WALKS)
    assert all(kind != "contradiction" for kind, _ in said)


def test_the_lists_noun_and_what_is_true_of_the_pick_are_the_lists_words() -> None:
    # "room" is the list's noun, "projector" is true of Rowan; Rowan is neither the cheapest
    # room (Cedar, £20) nor the cheapest with a projector (Alder, £25): the pick is wrong either
    # way, and the list's cheapest is named
    assert _picked("Rowan is the cheapest room with a projector, at £35 an hour.", ROOMS) == [
        ("contradiction", "rooms[0].rate_gbp_hour")
    ]
    # the cheapest room with a projector is Alder: the part of the list the claim names holds
    assert all(
        kind != "contradiction"
        for kind, _ in _picked("Alder is the cheapest room with a projector, at £25.", ROOMS)
    )


def test_a_denied_key_word_of_a_stated_figure_is_not_grounded(
    monitor: HallucinationMonitor,
) -> None:
    denied = one_verdict(monitor, "It's not paid for yet - it will come to £26.80.", BOOKING)
    assert denied.grade is not Grade.GROUNDED, denied.reason
    said = one_verdict(monitor, "It's paid for - it came to £26.80.", BOOKING)
    assert said.grade is Grade.GROUNDED, said.reason
