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
_NUMBER_WORDS: dict[str, float] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
}  # fmt: skip
_TOLERANCE = 1.1  # two rates within a tenth are one ("every 90 days", "every three months")


class Frequency(NamedTuple):
    """A frequency span: words ``start:end`` of the list, its rate per day as a range."""

    start: int
    end: int
    low: float
    high: float


def _number(word: str) -> float | None:
    w = word.lower()
    if w in _NUMBER_WORDS:
        return _NUMBER_WORDS[w]
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
        w = words[i].lower()
        count = _COUNTS.get(w)
        start = i
        if count is None and i + 1 < n and words[i + 1].lower() in ("times", "time"):
            count = _number(w)
            i += 1 if count is not None else 0
        if count is not None and i + 2 < n:
            nxt = words[i + 1].lower()
            if nxt in ("a", "an", "per", "each") and (u := _unit(words[i + 2])):
                out.append(Frequency(start, i + 3, count / u, count / u))
                i += 3
                continue
            if nxt in ("every", "each") and (p := _period(words, i + 2)):
                out.append(Frequency(start, p[0], count / p[2], count / p[1]))
                i = p[0]
                continue
        if count is not None and i + 1 < n and words[i + 1].lower() in _ADVERBS:
            period = _ADVERBS[words[i + 1].lower()]  # "twice daily", "three times weekly"
            out.append(Frequency(start, i + 2, count / period, count / period))
            i += 2
            continue
        if w in _ADVERBS:
            out.append(Frequency(i, i + 1, 1 / _ADVERBS[w], 1 / _ADVERBS[w]))
        elif w in ("every", "each") and (p := _period(words, i + 1)):
            out.append(Frequency(i, p[0], 1 / p[2], 1 / p[1]))
            i = p[0]
            continue
        i = start + 1
    return out


def same_rate(a: Frequency, b: Frequency) -> bool:
    """Whether two spans can state one rate (their ranges meet within a tenth)."""
    return a.low <= b.high * _TOLERANCE and b.low <= a.high * _TOLERANCE
