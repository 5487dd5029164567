"""How a reply's figure finds its field beyond the key words: a function word of a key names
no field, a clock is the field of the date written with it, a text value with a figure is said
in words, amounts in pence or cents, a rate's period, what an amount includes, a yes/no field
said of what is to happen, and a name said in part (records written for these tests)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

FERRY = {
    "booking_ref": "FRY8Q2LM",
    "route": {"from": "Holyhead", "to": "Dublin Port"},
    "sailing": {"departs": "2025-06-27T14:10:00+01:00", "arrives": "2025-06-27T17:25:00+01:00"},
    "check_in_closes": "2025-06-27T13:10:00+01:00",
    "total_gbp": 312.0,
}
CLAIM = {
    "claimNumber": "CLM-2026-041877",
    "incident": {"date": "2026-11-09", "reportedAt": "2026-11-10T08:41:00+00:00"},
    "lossAdjuster": {"name": "Priya Nair", "visitScheduled": "2026-12-02T10:00:00+00:00"},
    "nextUpdateBy": "2026-12-09",
}
MORTGAGE = {
    "lender": "Northgate Bank",
    "maxBorrowingGbp": 268000,
    "conditions": ["proof of deposit", "3 months payslips"],
}
BILL = {
    "supplier": "Brightwire Energy",
    "unit_rate_p_per_kwh": 24.5,
    "standing_charge_p_per_day": 53.68,
    "subtotal_gbp": 76.32,
    "vat_gbp": 3.82,
    "total_gbp": 80.14,
    "payment_method": "direct_debit",
    "paid": False,
}
PEN = {"item": "Gel pen", "amount_cents": 1999, "currency": "usd"}
TRIAL = {"arm": "B", "p_value": 0.03, "participants": 120}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


def _cited(verdict) -> set[str]:  # type: ignore[no-untyped-def]
    return {link.evidence_id for link in verdict.evidence}


def test_a_function_word_of_a_key_names_no_field(monitor: HallucinationMonitor) -> None:
    # "in" of ``check_in_closes`` is no slot of "ten past two in the afternoon"
    verdict = one_verdict(
        monitor, "You sail from Holyhead at ten past two in the afternoon.", FERRY
    )
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert "record.sailing.departs" in _cited(verdict)


def test_a_clock_is_the_field_of_the_date_written_with_it(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Priya Nair is coming round at 10 am on 2 December.", CLAIM)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    verdict = one_verdict(monitor, "Priya Nair is coming round at 2 pm on 2 December.", CLAIM)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "record.lossAdjuster.visitScheduled"


def test_a_text_value_with_a_figure_is_said_in_words(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "They'll want three months of payslips.", MORTGAGE)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert "record.conditions" in _cited(verdict)
    verdict = one_verdict(monitor, "They'll want six months of payslips.", MORTGAGE)
    assert verdict.grade is not Grade.GROUNDED
    assert verdict.contradiction is None


@pytest.mark.parametrize(
    ("reply", "record", "field"),
    [
        ("The unit rate is 24.5p per kWh.", BILL, "record.unit_rate_p_per_kwh"),
        ("The unit rate is 24.5 pence.", BILL, "record.unit_rate_p_per_kwh"),
        ("The gel pen costs $19.99.", PEN, "record.amount_cents"),
    ],
)
def test_an_amount_in_pence_or_cents_is_read_in_the_currency(
    monitor: HallucinationMonitor, reply: str, record: dict, field: str
) -> None:
    verdict = one_verdict(monitor, reply, record)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert field in _cited(verdict)


def test_a_changed_amount_in_cents_is_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "The gel pen costs $18.99.", PEN)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "record.amount_cents"


def test_a_p_that_is_no_money_stays_a_number(monitor: HallucinationMonitor) -> None:
    # ``p_value`` is no amount in pence
    verdict = one_verdict(monitor, "Arm B has a p value of 0.03.", TRIAL)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert "record.p_value" in _cited(verdict)


def test_a_rate_said_per_another_period_is_named(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "The standing charge is 53.68p a day.", BILL)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    verdict = one_verdict(monitor, "The standing charge is 53.68p a week.", BILL)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "record.standing_charge_p_per_day"
    assert verdict.contradiction.evidence_value == "53.68 per day"
    assert verdict.contradiction.claim_value == "53.68p a week"


def test_what_an_amount_includes_is_not_its_field(monitor: HallucinationMonitor) -> None:
    # "including VAT": the total, not ``vat_gbp``
    verdict = one_verdict(monitor, "The bill comes to about £80 including VAT.", BILL)
    assert verdict.contradiction is None, verdict.reason
    assert "record.total_gbp" in _cited(verdict)
    assert "record.vat_gbp" not in _cited(verdict)


@pytest.mark.parametrize(
    "reply",
    ["It's set up to be paid by direct debit.", "The bill will be paid by direct debit."],
)
def test_a_yes_no_field_said_of_what_is_to_happen_is_not_its_value(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, BILL)
    assert verdict.contradiction is None, verdict.reason


def test_a_yes_no_field_said_of_what_holds_is_still_read(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "The bill has been paid.", BILL)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "record.paid"


def test_a_name_said_in_part_is_the_records(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Your Brightwire bill comes to £80.14.", BILL)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    verdict = one_verdict(monitor, "Your Voltix bill comes to £80.14.", BILL)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason


WALLET = {
    "assets": [
        {"symbol": "BTC", "name": "Bitcoin", "balance": 0.0421, "change_24h_pct": -2.4},
        {"symbol": "SOL", "name": "Solana", "balance": 22.0, "change_24h_pct": 1.3},
    ]
}


@pytest.mark.parametrize(
    "reply",
    ["Bitcoin slipped 2.4%.", "Bitcoin is down 2.4%.", "Bitcoin's 24h change is -2.4%."],
)
def test_a_fall_is_a_negative_value_however_it_is_said(
    monitor: HallucinationMonitor, reply: str
) -> None:
    verdict = one_verdict(monitor, reply, WALLET)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert "assets[0].change_24h_pct" in _cited(verdict)


def test_a_change_of_the_wrong_sign_is_never_grounded(monitor: HallucinationMonitor) -> None:
    verdict = one_verdict(monitor, "Solana's 24h change is -1.3%.", WALLET)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.field == "assets[1].change_24h_pct"
    verdict = one_verdict(monitor, "Bitcoin's 24h change is -3.4%.", WALLET)
    assert verdict.contradiction is not None, verdict.reason
    assert verdict.contradiction.evidence_value == "-2.4"
    verdict = one_verdict(monitor, "Bitcoin is up 2.4%.", WALLET)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
