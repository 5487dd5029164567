"""Another kind of the same thing as a record's value is a changed value of that field
("your savings account" about ``"account_type": "checking"``; ``fields._another_sibling``)."""

from __future__ import annotations

import json

import pytest

from langchain_qgate.grounding.checks._word_relations import siblings
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor

ACCOUNT = {"bank": "Chase", "account_type": "checking", "balance": "$12,795.18"}
CAR = {"car_name": "Toyota Camry", "car_type": "Sedan", "pickup_location": "SFO",
       "price_per_day": "$45"}  # fmt: skip


def _verdict(claim: str, record: dict[str, str]) -> tuple[str, str | None]:
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    (v,) = monitor.verify_grounding(claim, [json.dumps(record)]).verdicts
    return v.grade.value, v.contradiction.field if v.contradiction else None


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("savings account", "checking account", True),
        ("SUV", "sedan", True),
        ("bank account", "checking account", False),  # the broader kind
        ("car", "sedan", False),
        ("sedan", "sedan", False),
    ],
)
def test_siblings_are_two_kinds_of_one_thing(a: str, b: str, expected: bool) -> None:
    assert siblings(a, b) is expected


@pytest.mark.parametrize(
    ("claim", "record", "field"),
    [
        ("The balance of your savings account is $12,795.18.", ACCOUNT, "record.account_type"),
        ("I found a compact car, a Toyota Camry, for $45 a day.", CAR, "record.car_type"),
    ],
)
def test_another_kind_is_a_changed_value_of_the_field(
    claim: str, record: dict[str, str], field: str
) -> None:
    assert _verdict(claim, record) == ("fabricated", field)


@pytest.mark.parametrize(
    ("claim", "record"),
    [
        ("The balance of your checking account is $12,795.18.", ACCOUNT),  # the value
        ("The balance of your bank account is $12,795.18.", ACCOUNT),  # a broader kind
        ("It is not a savings account: the balance is $12,795.18.", ACCOUNT),  # negated
        ("I found a Sedan, a Toyota Camry, for $45 a day.", CAR),
        ("I found an SUV, a Toyota Camry, for $45 a day.", CAR),  # no key noun: left alone
        ("The Toyota Camry is a nice car for $45 a day.", CAR),
    ],
)
def test_the_value_a_broader_word_or_a_negation_is_no_other_kind(
    claim: str, record: dict[str, str]
) -> None:
    assert _verdict(claim, record)[1] is None
