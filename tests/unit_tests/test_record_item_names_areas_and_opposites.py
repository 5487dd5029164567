"""A list item named by a name-like value under any key ("Millbrook Autocentre" of
``"garage"``), areas in keys (``living_area_sq_ft``), a figure said as a difference, a clock
said with the date of one datetime of a list, and a one-word key said false by its opposite
("it's optional" of ``compulsory``); and what none of them may be read as.

Hand-written records and sentences (garage quotes, house listings, car hire results, vet
slots, a module enrolment, a coworking room), not taken from any data set. The field matcher
decides these claims, so a hashing embedder and no pair model give the decisions the shipped
models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks.checks import extract_quantities
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records.fields import (
    _difference_said,
    _months_named,
    _proper_name,
)
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

GARAGES = {
    "vehicle": "Vauxhall Astra",
    "quotes": [
        {"garage": "Millbrook Autocentre", "distance_miles": 1.2, "price_gbp": 189.0,
         "courtesy_car": "Y"},
        {"garage": "Halton Tyre Centre", "distance_miles": 3.4, "price_gbp": 149.99,
         "courtesy_car": "N"},
        {"garage": "Eastgate Motors", "distance_miles": 5.0, "price_gbp": 210.0,
         "courtesy_car": "N"},
    ],
}  # fmt: skip
HOUSES = {
    "listings": [
        {"street": "Maple Court", "beds": 3, "living_area_sq_ft": 1850, "price_usd": 450000},
        {"street": "Oak Lane", "beds": 2, "living_area_sq_ft": 1200, "price_usd": 380000},
    ]
}
FLATS = {
    "listings": [
        {"street": "Harbour View", "beds": 2, "area_sqm": 74, "rent_gbp": 1450},
        {"street": "Mill Yard", "beds": 1, "area_sqm": 48, "rent_gbp": 1100},
    ]
}
CARS = {
    "results": [
        {"supplier": "Hertz", "model": "Kia Rio", "dailyRateUsd": 41.5, "totalUsd": 124.5},
        {"supplier": "Budget", "model": "Nissan Versa", "dailyRateUsd": 38.9, "totalUsd": 116.7},
    ]
}
SLOTS = {
    "results": [
        {"vet": "Dr Amy Lowe", "startsAt": "2026-12-14T11:15:00+00:00", "priceGbp": 38.0},
        {"vet": "Dr Amy Lowe", "startsAt": "2026-12-15T09:00:00+00:00", "priceGbp": 38.0},
        {"vet": "Dr Sam Patel", "startsAt": "2026-12-16T13:00:00+00:00", "priceGbp": 45.0},
    ]
}
MODULE = {"enrolment": {"module": "CHEM2041", "compulsory": "yes", "credits": 20}}
ELECTIVE = {"enrolment": {"module": "HIST1102", "compulsory": "no", "credits": 10}}
ROOM = {"room": {"name": "Forge", "open": True, "capacity": 6}}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("Millbrook Autocentre", True),
        ("Dr Sam Patel", True),
        ("Bank of England", True),
        ("Kia Rio", True),
        ("Hertz", False),  # one word: a brand, a city, a kind as often as a name
        ("CONFIRMED", False),
        ("ON HOLD", False),  # a status written in capitals
        ("annual vaccination booster", False),
        ("12 Maple Court", False),  # an address: its number is a figure of its own
        ("Curator Talk: Ichthyosaurs", False),
    ],
)
def test_a_value_written_as_a_name_of_two_words_or_more_is_a_name(value: str, name: bool) -> None:
    assert _proper_name(value) is name


@pytest.mark.parametrize(
    ("reply", "field"),
    [
        ("Millbrook Autocentre is just 1.2 km away.", "record.quotes[0].distance_miles"),
        ("Millbrook Autocentre quotes £189 but can't offer a courtesy car.",
         "record.quotes[0].courtesy_car"),
        ("Millbrook Autocentre quotes £199 for the service.", "record.quotes[0].price_gbp"),
    ],
)  # fmt: skip
def test_an_item_named_by_a_name_under_any_key_has_its_changed_values_named(
    monitor: HallucinationMonitor, reply: str, field: str
) -> None:
    verdict = one_verdict(monitor, reply, GARAGES)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


@pytest.mark.parametrize(
    "reply",
    [
        "Millbrook Autocentre is just 1.2 miles away.",
        "Millbrook Autocentre quotes £189 and can offer a courtesy car.",
        "Halton Tyre Centre is the cheapest at £149.99.",
    ],
)
def test_an_item_named_by_a_name_under_any_key_grounds_its_own_values(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, GARAGES)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_a_name_two_items_share_names_neither(monitor: HallucinationMonitor) -> None:
    # "Dr Amy Lowe" has two slots: the claim's clock is either's, so no slot's clock is changed
    verdict = one_verdict(monitor, "Dr Amy Lowe has a slot at 10:30.", SLOTS)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is not Grade.GROUNDED


@pytest.mark.parametrize(
    ("text", "difference"),
    [
        ("just $7.80 more than the Budget car", True),
        ("leaves 20 minutes later", True),
        ("it is £5 cheaper", True),
        ("costs $7.80 in total", False),
        ("at $7.80, the cheapest", False),
    ],
)
def test_a_figure_with_a_comparative_after_it_is_a_difference(text: str, difference: bool) -> None:
    q = next(q for q in extract_quantities(text) if q.kind in ("money", "number"))
    assert _difference_said(text, q) is difference


def test_a_difference_from_another_item_is_never_a_changed_value_of_the_named_one(
    monitor: HallucinationMonitor,
) -> None:
    reply = "The Kia Rio is $124.50 in total, just $7.80 more than the Budget car."
    verdict = one_verdict(monitor, reply, CARS)
    assert verdict.contradiction is None, verdict.reason


@pytest.mark.parametrize(
    ("reply", "record", "grounded"),
    [
        ("Maple Court has 1,850 sq ft.", HOUSES, True),
        ("Harbour View is 74 square metres.", FLATS, True),
        ("Harbour View is 74 sq m.", FLATS, True),
    ],
)
def test_an_area_key_holds_square_units(
    monitor: HallucinationMonitor, reply: str, record: dict, grounded: bool
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is None, verdict.reason
    assert (verdict.grade is Grade.GROUNDED) is grounded, verdict.reason


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("Maple Court has 1,580 sq ft.", HOUSES,
         "listings[0].living_area_sq_ft"),
        ("Maple Court has 1,850 square metres.", HOUSES,
         "listings[0].living_area_sq_ft"),
        ("Harbour View is 74 sq ft.", FLATS, "listings[0].area_sqm"),
    ],
)  # fmt: skip
def test_an_area_in_another_unit_or_changed_is_named(
    monitor: HallucinationMonitor, reply: str, record: dict, field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


def test_a_clock_said_with_the_date_of_one_datetime_is_that_datetimes(
    monitor: HallucinationMonitor,
) -> None:
    changed = one_verdict(monitor, "There's a slot on 16 December at two in the afternoon.", SLOTS)
    assert changed.contradiction is not None, changed.reason
    assert changed.contradiction.field == "results[2].startsAt"
    reply = "Dr Sam Patel starts at one in the afternoon on 16 December."
    held = one_verdict(monitor, reply, SLOTS)
    assert held.contradiction is None, held.reason
    assert held.grade is Grade.GROUNDED, held.reason


def test_a_clock_said_with_a_date_no_datetime_holds_is_not_named(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "There's a slot on 18 December at two in the afternoon.", SLOTS)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is not Grade.GROUNDED


@pytest.mark.parametrize(
    ("reply", "record", "named"),
    [
        ("CHEM2041 is optional.", MODULE, True),
        ("No, it's optional for you.", MODULE, True),
        ("CHEM2041 is not optional.", MODULE, False),
        ("CHEM2041 is compulsory.", MODULE, False),
        ("HIST1102 is optional.", ELECTIVE, False),
        ("HIST1102 is not optional.", ELECTIVE, True),
    ],
)
def test_a_one_word_key_is_said_false_by_its_opposite_as_a_predicate(
    monitor: HallucinationMonitor, reply: str, record: dict, named: bool
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert (verdict.contradiction is not None) is named, verdict.reason
    if named:
        assert verdict.contradiction is not None
        assert verdict.contradiction.field == "enrolment.compulsory"


def test_an_opposite_with_a_time_after_it_says_when_not_whether(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "Forge is closed on Sundays.", ROOM)
    assert verdict.contradiction is None, verdict.reason


@pytest.mark.parametrize(
    "reply",
    [
        "Sadly, CHEM2041 is compulsory.",
        "Yep, CHEM2041 is compulsory.",
        "Good news: CHEM2041 is worth 20 credits.",
    ],
)
def test_a_discourse_marker_is_no_fact(monitor: HallucinationMonitor, reply: str) -> None:
    verdict = one_verdict(monitor, reply, MODULE)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


def test_till_is_until(monitor: HallucinationMonitor) -> None:
    record = {"room": {"name": "Anvil", "available_from": "11:00", "available_until": "12:30"}}
    verdict = one_verdict(monitor, "Anvil is available from eleven till half twelve.", record)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


SHOWINGS = {
    "film": "The Long Tide",
    "showtimes": [
        {"time": "18:20", "screen": 3, "seats_available": 0, "capacity": 120, "price_gbp": 9.5},
        {"time": "19:10", "screen": 5, "seats_available": 31, "capacity": 80, "price_gbp": 11.5},
        {"time": "20:45", "screen": 7, "seats_available": 12, "capacity": 60, "price_gbp": 11.5},
    ],
}


@pytest.mark.parametrize(
    "reply",
    [
        "The quarter to nine showing on screen 7 has 60 seats left.",  # the capacity as seats left
        "The 20:45 showing on screen 7 has 14 seats left.",
    ],
)
def test_a_value_of_the_one_item_the_other_figures_single_out_is_named(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, SHOWINGS)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "record.showtimes[2].seats_available"


@pytest.mark.parametrize(
    "reply",
    [
        "The 20:45 showing on screen 7 has 12 seats left.",
        # one figure besides: which showing is meant is not read from a price two share
        "The £11.50 showing has 14 seats left.",
        # the other figures are of two showings: no one item is singled out
        "The 20:45 showing on screen 5 has 14 seats left.",
    ],
)
def test_no_item_singled_out_by_the_other_figures_no_value_named(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, SHOWINGS)
    assert verdict.contradiction is None, verdict.reason


GYM = {"membership": {"member": "Ana Ruiz", "towel_included": True, "guest_passes": 2}}
PAYSLIP = {
    "payslip": {
        "overtime": {"hours": 6, "amount_gbp": 144.0},
        "deductions": {"income_tax_gbp": 482.6, "student_loan_gbp": 96.0},
        "total_deductions_gbp": 578.6,
    }
}


@pytest.mark.parametrize(
    "reply",
    ["No problem, a towel is included.", "No worries, a towel is included."],
)
def test_no_and_a_word_of_its_own_before_a_comma_answers_and_denies_nothing_after(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, GYM)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize("reply", ["No parking, sadly.", "No parking, but there is wifi."])
def test_a_denial_of_the_key_before_a_comma_still_denies_it(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, {"hotel": {"name": "Lux", "parking": True}})
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "hotel.parking"


def test_a_verb_after_an_amount_counts_nothing(monitor: HallucinationMonitor) -> None:
    # "came" is no noun naming ``amount`` or ``total``: the key words say the student loan
    verdict = one_verdict(monitor, "£96 came off for your student loan.", PAYSLIP)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is not Grade.FABRICATED, verdict.reason


BILLS = {
    "account": "GS-22",
    "history": [
        {"month": "2026-09", "amount": 31.1, "paid": True, "estimated": True},
        {"month": "2026-10", "amount": 58.72, "paid": True, "estimated": False},
        {"month": "2026-11", "amount": 86.05, "paid": False, "estimated": True},
    ],
}


@pytest.mark.parametrize(
    ("reply", "field"),
    [
        ("Your November bill is £68.05.", "record.history[2].amount"),
        ("Your November bill is paid.", "record.history[2].paid"),
        ("Your October bill was estimated.", "record.history[1].estimated"),
    ],
)
def test_the_one_item_of_a_month_the_claim_names_has_its_changed_values_named(
    monitor: HallucinationMonitor, reply: str, field: str
) -> None:
    verdict = one_verdict(monitor, reply, BILLS)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


@pytest.mark.parametrize(
    "reply",
    [
        "Your November bill is £86.05.",
        "Your October bill is paid.",
        # two months named: no one item is singled out
        "Your bill went from £31.10 in September to £58.72 in October.",
        # the month of a date is the date's, no item's
        "The bill was paid on 3 November.",
    ],
)
def test_a_month_singles_out_no_changed_value_where_none_is_changed(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, BILLS)
    assert verdict.contradiction is None, verdict.reason


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("October's pay went in on 23 October.", {10}),
        ("You may pay in May or June.", {5, 6}),
        ("Paid on 3 November.", set()),
    ],
)
def test_months_are_read_by_their_full_names_outside_dates(text: str, months: set[int]) -> None:
    dates = [q for q in extract_quantities(text) if q.kind == "date"]
    assert _months_named(text, dates) == months


ORDER = {
    "order_id": "MUS-88",
    "visit_date": "2027-01-09",
    "tickets": [
        {"type": "adult", "qty": 2, "unit_price_gbp": 16.0},
        {"type": "child", "qty": 2, "unit_price_gbp": 8.5},
        {"type": "under_5", "qty": 1, "unit_price_gbp": 0},
    ],
    "total_gbp": 49.0,
    "order_status": "confirmed",
}


def test_a_count_of_a_lists_noun_is_the_sum_of_its_items_quantities(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "It's £49 for five tickets.", ORDER)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    wrong = one_verdict(monitor, "It's £49 for six tickets.", ORDER)
    assert wrong.grade is not Grade.GROUNDED, wrong.reason


def test_children_is_the_plural_of_child(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Two children at £8.50 each.", ORDER)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        ("Your order is still awaiting payment.", True),
        ("Your order is confirmed.", False),
        # no word of the key: a status of something else ("your refund")
        ("Your refund is still awaiting payment.", False),
    ],
)
def test_a_status_of_the_one_record_is_named_when_the_claim_says_its_key(
    monitor: HallucinationMonitor, reply: str, named: bool
) -> None:
    verdict = one_verdict(monitor, reply, ORDER)
    assert (verdict.contradiction is not None) is named, verdict.reason
    if verdict.contradiction is not None:
        assert verdict.contradiction.field == "record.order_status"


def test_a_count_of_people_is_no_amount_of_money(monitor: HallucinationMonitor) -> None:
    # "24 people" is not stated by a rate of £24 (the verdict may still rest on other reads)
    record = {"rooms": [{"room": "Forge", "capacity": 6, "hourly_rate_gbp": 24.0}]}
    verdict = one_verdict(monitor, "Forge holds 24 people.", record)
    assert "hourly_rate_gbp" not in verdict.reason, verdict.reason
    priced = one_verdict(monitor, "Forge costs 24 pounds an hour.", record)
    assert priced.grade is Grade.GROUNDED, priced.reason
    assert "hourly_rate_gbp" in priced.reason, priced.reason


FLIGHT = {"flight": {"number": "BA117", "delayed": False, "gate": "B12"}}


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("Forge is closed at the moment.", ROOM, "room.open"),
        ("BA117 is delayed at Heathrow.", FLIGHT, "flight.delayed"),
    ],
)
def test_a_place_or_now_after_a_state_still_says_whether_it_holds(
    monitor: HallucinationMonitor, reply: str, record: dict, field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


@pytest.mark.parametrize(
    "reply", ["Forge is closed every Monday.", "Forge is closed on the weekend."]
)
def test_a_time_after_a_state_says_when_it_holds(monitor: HallucinationMonitor, reply: str) -> None:
    verdict = one_verdict(monitor, reply, ROOM)
    assert verdict.contradiction is None, verdict.reason


def test_a_comparative_in_the_next_clause_makes_no_difference_of_a_figure() -> None:
    text = "It costs £45, more than the other one."
    q = next(q for q in extract_quantities(text) if q.kind == "money")
    assert _difference_said(text, q) is False


def test_a_status_written_as_a_name_names_no_item(monitor: HallucinationMonitor) -> None:
    record = {
        "showings": [
            {"time": "18:20", "status": "Sold Out", "seats": 0},
            {"time": "19:10", "status": "Seats Left", "seats": 31},
        ]
    }
    # "sold out" is the first showing's status, not its name: the 19:10 claim is not read
    # as about the first showing, whose time it would then change ("says 18:20, not 19:10")
    verdict = one_verdict(monitor, "The 19:10 showing is sold out.", record)
    assert verdict.contradiction is None, verdict.reason


MATCH = {
    "match_id": 4418270,
    "home": {"team": "Bristol City", "score": 2},
    "away": {"team": "Norwich City", "score": 1},
    "var_used": True,
}


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        ("There was no VAR.", True),  # was GROUNDED: "no" read as a word of no weight
        ("No VAR in this one.", True),
        ("VAR was used.", False),
        # a compound: "no VAR decisions" says nothing of whether VAR was used
        ("No VAR decisions went against them.", False),
    ],
)
def test_none_of_the_thing_a_yes_no_key_is_a_state_of_says_it_false(
    monitor: HallucinationMonitor, reply: str, named: bool
) -> None:
    verdict = one_verdict(monitor, reply, MATCH)
    assert (verdict.contradiction is not None) is named, verdict.reason
    if verdict.contradiction is not None:
        assert verdict.contradiction.field == "record.var_used"
