"""How often something happens, read as a rate (grounding/checks/_frequency.py); sentences written
for this test."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks._frequency import frequencies, same_rate


def _spans(text: str) -> list[str]:
    words = text.split()
    return [" ".join(words[f.start : f.end]) for f in frequencies(words)]


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("Descale it every three months", ["every three months"]),
        ("Take it twice a day and once at night", ["twice a day"]),
        ("Take it four times per week", ["four times per week"]),
        ("It erupts every 5 to 10 minutes", ["every 5 to 10 minutes"]),
        ("Water it every other day", ["every other day"]),
        ("Backups run daily and reports weekly", ["daily", "weekly"]),
        ("Meet once every two weeks", ["once every two weeks"]),
        # which days, quantities per unit and vague counts are not rates
        ("Open seven days a week", []),
        ("Take 10 ml per day", []),
        ("It rains every few days", []),
        ("The 3 times table costs 5 each", []),
        ("It is published biweekly", []),
        ("", []),
        # digits float() refuses, and other scripts' digits
        ("Run it every ² days", []),
        ("Run it every ٣ days", ["every ٣ days"]),
    ],
)
def test_frequency_spans(text: str, spans: list[str]) -> None:
    assert _spans(text) == spans


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("quarterly", "every three months", True),
        ("every 90 days", "every three months", True),
        ("once a year", "annually", True),
        ("every hour", "every 60 minutes", True),
        ("every 8 hours", "three times a day", True),
        ("every 5 to 10 minutes", "every 8 minutes", True),
        ("daily", "weekly", False),
        ("every month", "every three months", False),
        ("twice a day", "four times a day", False),
        ("every 5 to 10 minutes", "once a day", False),
    ],
)
def test_same_rate_within_a_tenth(a: str, b: str, same: bool) -> None:
    (fa,) = frequencies(a.split())
    (fb,) = frequencies(b.split())
    assert same_rate(fa, fb) is same
    assert same_rate(fb, fa) is same
