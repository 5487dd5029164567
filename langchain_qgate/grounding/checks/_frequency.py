"""How often something happens, read from a sentence's words: "every three months",
"twice a day", "quarterly", "every 5 to 10 minutes".

A frequency is a rate, so two wordings of one rate are the same fact ("every three months"
and "quarterly", "every 90 days" and "every three months" within a tenth) and two rates are
two facts ("daily" and "weekly"). :func:`frequencies` finds the spans and their rates in a
list of words (``_substitution.py``'s tokens); nothing here is a regular expression over the
text, so it runs in time linear in the words.

What it leaves out, on purpose: "biweekly", "bimonthly" and "biannually" (each read both
ways by people), "every few days" (no rate), "seven days a week" and "on Tuesdays" (which
days, not how often: the day rules' business), and quantities per unit ("10 ml per day").
"""

from __future__ import annotations

from typing import NamedTuple

from langchain_qgate.grounding.checks.checks import NUMBER_WORDS

__all__ = ["Frequency", "frequencies", "same_rate"]

_DAYS_PER: dict[str, float] = {
    "second": 1 / 86400,
    "minute": 1 / 1440,
    "min": 1 / 1440,
    "hour": 1 / 24,
    "day": 1.0,
    "night": 1.0,
    "week": 7.0,
    "fortnight": 14.0,
    "month": 30.44,
    "quarter": 91.31,
    "year": 365.25,
    "decade": 3652.5,
}
"""A unit's length in days (singular; a plural ``s`` is stripped before the look-up)."""

_ADVERBS: dict[str, float] = {
    "hourly": 1 / 24,
    "daily": 1.0,
    "nightly": 1.0,
    "weekly": 7.0,
    "fortnightly": 14.0,
    "monthly": 30.44,
    "quarterly": 91.31,
    "yearly": 365.25,
    "annually": 365.25,
    "biennially": 730.5,
    "semiannually": 182.6,
    "semi-annually": 182.6,
}
"""A frequency adverb and the period it names, in days."""

_PARTS: dict[str, float] = {"quarter": 0.25, "half": 0.5}  # of the unit after them
_COUNTS: dict[str, float] = {"once": 1.0, "twice": 2.0, "thrice": 3.0}
_TOLERANCE = 1.1  # two rates within a tenth are one ("every 90 days", "every three months")


class Frequency(NamedTuple):
    """A frequency span: words ``start:end`` of the list, its rate per day as a range."""

    start: int
    end: int
    low: float
    high: float


def _number(word: str) -> float | None:
    w = word.lower()
    if w in NUMBER_WORDS:
        return NUMBER_WORDS[w] or None  # "zero" is no count
    if w.isdecimal() and len(w) <= 4:  # not "²", which isdigit() but float() refuses
        return float(w)
    return None


def _unit(word: str) -> float | None:
    w = word.lower()
    if w in _DAYS_PER:
        return _DAYS_PER[w]
    return _DAYS_PER.get(w[:-1]) if w.endswith("s") else None


def _period(words: list[str], i: int) -> tuple[int, float, float] | None:
    """After "every"/"each" at ``i - 1``: ``(end, shortest, longest period in days)`` for
    "month", "other day", "three months", "5 to 10 minutes"."""
    n = len(words)
    part = _PARTS.get(words[i].lower()) if i < n else None
    if part is not None:  # "every quarter of an hour", "every half hour"
        k = i + 1
        while k < n and k < i + 3 and words[k].lower() in ("of", "an", "a"):
            k += 1
        unit = _unit(words[k]) if k < n else None
        if unit is not None:
            return k + 1, part * unit, part * unit
    if i < n and words[i].lower() == "other" and i + 1 < n and (u := _unit(words[i + 1])):
        return i + 2, 2 * u, 2 * u
    if i < n and (u := _unit(words[i])):  # "every month", and "every quarter" alone
        return i + 1, u, u
    a = _number(words[i]) if i < n else None
    if a is None or a == 0:
        return None
    if (
        i + 3 < n
        and words[i + 1].lower() in ("to", "or")
        and (b := _number(words[i + 2]))
        and (u := _unit(words[i + 3]))
    ):
        return i + 4, min(a, b) * u, max(a, b) * u
    if i + 1 < n and (u := _unit(words[i + 1])):
        return i + 2, a * u, a * u
    return None


def frequencies(words: list[str]) -> list[Frequency]:
    """The frequency spans of ``words``, in order.

    Example:
        >>> [f[:2] for f in frequencies("Descale it every three months".split())]
        [(2, 5)]
    """
    out: list[Frequency] = []
    n, i = len(words), 0
    while i < n:
        found = _count_per(words, i) or _every(words, i)
        if found is None:
            i += 1
            continue
        out.append(found)
        i = found.end
    return out


def _count_per(words: list[str], i: int) -> Frequency | None:
    """A count and its period from ``i``: "twice a day", "three times per week", "once every
    two weeks", "twice daily"."""
    n = len(words)
    w = words[i].lower()
    count, after = _COUNTS.get(w), i + 1  # ``after``: the word after the count
    if count is None and after < n and words[after].lower() in ("times", "time"):
        count, after = _number(w), after + 1
    if count is None or after >= n:
        return None
    nxt = words[after].lower()
    if nxt in _ADVERBS:  # "twice daily", "three times weekly"
        return Frequency(i, after + 1, count / _ADVERBS[nxt], count / _ADVERBS[nxt])
    if nxt in ("a", "an", "per", "each") and after + 1 < n and (u := _unit(words[after + 1])):
        return Frequency(i, after + 2, count / u, count / u)
    if nxt in ("every", "each") and (p := _period(words, after + 1)):
        return Frequency(i, p[0], count / p[2], count / p[1])
    return None


def _every(words: list[str], i: int) -> Frequency | None:
    """A frequency adverb ("weekly") or "every"/"each" and a period at ``i``."""
    w = words[i].lower()
    if w in _ADVERBS:
        return Frequency(i, i + 1, 1 / _ADVERBS[w], 1 / _ADVERBS[w])
    if w in ("every", "each") and (p := _period(words, i + 1)):
        return Frequency(i, p[0], 1 / p[2], 1 / p[1])
    return None


def same_rate(a: Frequency, b: Frequency) -> bool:
    """Whether two spans can state one rate (their ranges meet within a tenth)."""
    return a.low <= b.high * _TOLERANCE and b.low <= a.high * _TOLERANCE
