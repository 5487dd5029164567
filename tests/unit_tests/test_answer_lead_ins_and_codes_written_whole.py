"""An answer or a reaction before a dash ("Yes - ...", "Good news — ...") is no part of the
claim, as one before a comma is not; and a value that is a code of figures and other signs
("2024-08", "PLAN-20GB-12"), written in the claim as it stands, is that field's value, not
figures no field holds, unless it is another list item's.

Hand-written records and sentences (a gym booking, an energy account's months, a phone plan),
not taken from any data set. The field matcher decides the record claims, so a hashing
embedder and no pair model give the decisions the shipped models give.
"""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.claims.claims import extract_claims, strip_preamble
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

GYM = {"booking": {"class": "Spin 45", "instructor": "Marta Kowalska", "starts": "18:30",
                   "spaces_left": 4, "price_gbp": 0, "waitlist_open": True}}  # fmt: skip
ENERGY = {
    "account": "EA-20381",
    "months": [
        {"month": "2024-07", "usage_kwh": 310.5, "cost_gbp": 74.12},
        {"month": "2024-08", "usage_kwh": 295.0, "cost_gbp": 70.4},
    ],
}
PLAN = {"line": {"plan_code": "PLAN-20GB-12", "monthly_gbp": 9.5, "data_gb": 20}}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    ("sentence", "rest"),
    [
        ("Yes - the class starts at 18:30.", "the class starts at 18:30."),
        ("Yes \u2014 the class starts at 18:30.", "the class starts at 18:30."),
        ("Yes\u2014the class starts at 18:30.", "the class starts at 18:30."),
        ("Good news - there are 4 spaces left.", "there are 4 spaces left."),
        ("Great news: there are 4 spaces left.", "there are 4 spaces left."),
        ("Unfortunately not - the waitlist is closed.", "the waitlist is closed."),
        ("No need - it's free.", "it's free."),
        ("Not right now \u2013 the class is full.", "the class is full."),
        # not a lead-in: a hyphenated word, a state ("Not yet" says what a value "not_yet"
        # does), a sentence that is only the answer
        ("No-one has booked it.", "No-one has booked it."),
        ("Not yet - the refund is pending.", "Not yet - the refund is pending."),
        ("Yes.", "Yes."),
    ],
)
def test_an_answer_before_a_dash_is_no_part_of_the_claim(sentence: str, rest: str) -> None:
    assert sentence[strip_preamble(sentence) :] == rest


def test_the_claim_after_an_answer_and_a_dash_is_its_statement() -> None:
    claims = extract_claims("Yes - the Spin 45 class starts at 18:30.")
    assert [c.text for c in claims] == ["the Spin 45 class starts at 18:30."]


def test_a_record_claim_after_an_answer_and_a_dash_is_grounded(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "Yes - the Spin 45 class starts at 18:30.", GYM)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    changed = one_verdict(monitor, "Yes - the Spin 45 class starts at 19:30.", GYM)
    assert changed.contradiction is not None, changed.reason
    assert changed.contradiction.field == "booking.starts"


@pytest.mark.parametrize(
    "reply",
    [
        "2024-08: usage 295.0 kWh, cost 70.40 GBP.",
        "In 2024-07 you used 310.5 kWh.",
    ],
)
def test_a_code_of_figures_written_whole_is_its_fields_value(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, ENERGY)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert verdict.contradiction is None


@pytest.mark.parametrize(
    "reply",
    [
        "2024-07: usage 295.0 kWh.",  # the August item's usage beside July's month
        "2024-08: usage 295.0 kWh, cost 74.12 GBP.",  # the July item's cost
    ],
)
def test_a_code_of_one_item_beside_another_items_figures_is_not_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, ENERGY)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason


def test_a_code_is_read_only_as_a_whole(monitor: HallucinationMonitor) -> None:
    # "2024-08-14" is a date, not the month "2024-08" with "-14" after it
    verdict = one_verdict(monitor, "The 2024-08-14 reading was 295.0 kWh.", ENERGY)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
    plan = one_verdict(monitor, "You're on PLAN-20GB-12 at 9.50 GBP a month.", PLAN)
    assert plan.grade is Grade.GROUNDED, plan.reason


DOGS = {
    "dogs": [
        {"name": "Rufus", "breed": "Beagle", "age_years": 6, "fee_gbp": 150},
        {"name": "Tilly", "breed": "Whippet", "age_years": 2, "fee_gbp": 200},
        {"name": "Bruno", "breed": "Boxer", "age_years": 9, "fee_gbp": 90},
    ]
}
SHOPS = {
    "shops": [
        {"shop": "Kerbside Cycles", "rating": 4.4, "distance_km": 1.1},
        {"shop": "Spoke & Chain", "rating": 4.9, "distance_km": 3.2},
    ]
}


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("The youngest is Rufus, at 6 years.", DOGS, "dogs[1].age_years"),
        ("Kerbside Cycles has the best rating, at 4.4.", SHOPS, "shops[1].rating"),
        ("Kerbside Cycles has the highest rating, at 4.4.", SHOPS, "shops[1].rating"),
    ],
)
def test_a_wrong_pick_by_age_or_rating_names_the_item_that_is(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object], field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == field


@pytest.mark.parametrize(
    ("reply", "record"),
    [
        ("The youngest is Tilly, at 2 years.", DOGS),
        ("Spoke & Chain has the best rating, at 4.9.", SHOPS),
    ],
)
def test_the_right_pick_by_age_or_rating_is_never_contradicted(
    monitor: HallucinationMonitor, reply: str, record: dict[str, object]
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.contradiction is None, verdict.reason
    assert verdict.grade is not Grade.FABRICATED, verdict.reason


CHARGE = {"session_id": "cs-118", "energy_kwh": 31.2, "total_eur": 12.48, "payment_status": "PAID"}


@pytest.mark.parametrize("reply", ["The session is paid.", "The charging session is already paid."])
def test_a_status_paid_said_by_its_word_is_stated(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, CHARGE)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert verdict.evidence[0].evidence_id == "record.payment_status"


def test_a_status_paid_said_the_other_way_is_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "The session is unpaid.", CHARGE)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "record.payment_status"
