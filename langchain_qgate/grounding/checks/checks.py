"""Deterministic consistency checks: quantities, dates, entities, negation, lexical coverage.

Sentence embeddings cannot see "2019" vs "2020"; these checks can. Everything here is plain
string processing: same input, same result, no model.

Quantities are normalised before comparison, so "$10M", "10 million dollars" and
"10,000,000 USD" are the same amount, and "5%" equals "five percent". A reference to a source
or to a part of a text ("passage 2", "[2]", "step 4", "section 3.2") is never a value to
compare, and a negation inside a conditional clause ("if the latch doesn't catch, ...") gives
the text no polarity.
"""

from __future__ import annotations

import bisect
import gzip
import itertools
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from typing import Literal

from langchain_qgate.grounding.checks._bignum import exact_matches, exact_value
from langchain_qgate.grounding.checks._lexicon import (
    IRREGULAR_FORMS,
    UNAPOSTROPHED_NEGATIONS,
    table,
)

__all__ = [
    "TIME_LENGTHS",
    "Quantity",
    "QuantityKind",
    "blank_references",
    "comparable",
    "condition_spans",
    "conflicting",
    "content_stems",
    "coverage",
    "date_parts",
    "extract_entities",
    "extract_quantities",
    "has_negation",
    "month_days",
    "negated_heads",
    "negated_spans",
    "negation_scopes",
    "negations_about",
    "quantities_match",
    "reference_spans",
    "same_written_value",
    "spelt_alike",
    "stem",
    "untokenise",
    "without_cues",
    "word_weight",
]

QuantityKind = Literal["number", "money", "percent", "date", "time"]
"""Kinds of value compared by the checks; contradictions are reported with these names."""


@dataclass(frozen=True, slots=True)
class Quantity:
    """A normalised numeric value found in text.

    Attributes:
        kind: number, money, percent, date or time (of day).
        value: The value (a date is ``year * 10_000 + month * 100 + day``, unknown parts 0; a
            time of day is minutes after midnight).
        raw: The text as written.
        start: Offset in the text.
        end: End offset in the text.
        precision: Significant digits as written (for tolerant comparison of rounded values).
        currency: Currency code for money.
        ordinal: A rank ("second", "3rd"), compared only with ranks.
        alt: Another reading of an ambiguous figure ("56.000" is 56 or 56,000), or None.
        hedged: Written as an approximation or bound ("about 500", "more than 20").
        reference: The number of a part of a text ("step 4", "section 3.2"): it names a
            place, so it can be found in evidence but never disagrees with another value.
        exact: The exact value of a number past a float (over 1.8e308; ``value`` is then
            ``inf``), compared instead of ``value``; None for every other number.
        length: A length of time in the smallest unit of its kind, for a figure written
            with a unit of time ("2.5 hours": ``("minutes", 150.0)``), else None: "two and a
            half hours" states the "150 minutes" of the evidence.
    """

    kind: QuantityKind
    value: float
    raw: str
    start: int
    end: int
    precision: int = 15
    currency: str = ""
    ordinal: bool = False
    alt: float | None = None
    hedged: bool = False
    reference: bool = False
    exact: Decimal | None = None
    length: tuple[str, float] | None = None

    def values(self) -> tuple[float, ...]:
        """The value and its alternative reading, if any."""
        return (self.value,) if self.alt is None else (self.value, self.alt)

    @property
    def year(self) -> int:
        """Year of a date quantity."""
        return int(self.value) // 10_000


_NUMBER_WORD_VALUES: dict[str, int] = table("number_words")
NUMBER_WORDS: dict[str, int] = _NUMBER_WORD_VALUES
"""Number words and their values ("three": 3, "dozen": 12), for readers of counts."""
_SCALES: dict[str, float] = table("scales")
_CURRENCY_SYMBOL: dict[str, str] = table("currency_symbols")
_CURRENCY_WORD: dict[str, str] = table("currency_words")
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")]
    )
    for m in names
}  # fmt: skip

_NUM_WORD = "|".join(sorted(_NUMBER_WORD_VALUES, key=len, reverse=True))
_SCALE_WORD = r"hundred|thousand|million|billion|trillion|mn|bn|tn|[kmbt]\b"
_MONTH_WORD = "|".join(sorted(_MONTHS, key=len, reverse=True))

_SUBUNIT = re.compile(r"\s?(?:cents?|¢|pence)\b|p\b(?!\.?\s?m\b)")
_DATE_ISO = re.compile(
    r"\b(1[0-9]{3}|20[0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?:\b|(?=T\d))"
)  # also the date of an ISO datetime ("2024-08-03T13:41:00")
# A time zone's offset written after a time ("T13:41:00+02:00", "21:05:40-05:00", "17:45
# (+01:00)"): no clock and no number of its own.
_ZONE = re.compile(r"(?<=\d\d:\d\d:\d\d)[+-]\d\d:?\d\d\b|(?<=\d\d:\d\d)\+\d\d:\d\d\b"
                   r"|\(\s?[+-]\d\d:\d\d\s?\)")  # fmt: skip
_DATE_MDY = re.compile(
    rf"\b({_MONTH_WORD})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s+(1[0-9]{{3}}|20[0-9]{{2}})\b",
    re.I,
)
_DATE_DMY = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORD})\.?,?\s+(1[0-9]{{3}}|20[0-9]{{2}})\b",
    re.I,
)
_DATE_MY = re.compile(rf"\b({_MONTH_WORD})\.?,?\s+(?:of\s+)?(1[0-9]{{3}}|20[0-9]{{2}})\b", re.I)
_DATE_M = re.compile(
    rf"\b(?:in|on|during|since|until|by|from|of|early|late|mid)[\s-]+({_MONTH_WORD})\b"
    rf"(?![\s.,]*\d)",
    re.I,
)
_TIME_12H = re.compile(r"\b(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s?([ap])(?:\.\s?m\.|\s?m\b)", re.I)
# A clock, its seconds read and dropped ("13:41:00"); not a zone's offset ("+01:00").
_TIME_24H = re.compile(r"(?<![\d:.+])([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?![\d:])")
_TIME_WORD = re.compile(r"\b(?:noon|midday|midnight)\b", re.I)
_LATER_IN_DAY = re.compile(
    r"\s+(?:(?:in\s+the|this|that)\s+(?:afternoon|evening)|at\s+night|tonight)\b", re.I
)
_EARLIER_IN_DAY = re.compile(r"\s+(?:in\s+the|this|that)\s+morning\b", re.I)
# The part of the day said just before a clock ("Thursday evening at 7:45", "this morning by
# 9:30"): read in the few characters before it (bounded: linear time).
_PART_REACH = 24
_LATER_BEFORE = re.compile(
    r"\b(?:afternoon|evening|tonight|night)\s+(?:at|by|from|around|about|until|till)?\s*$", re.I
)
_EARLIER_BEFORE = re.compile(r"\bmorning\s+(?:at|by|from|around|about|until|till)?\s*$", re.I)
# Two hours of a span that a part of the day or "am"/"pm" after it makes clocks ("from 1 to 3
# in the afternoon", "between 10 and 11:30 am"); without one, "from 1 to 3" is two numbers.
_HOUR_SPAN = re.compile(
    r"\b(?:from|between)\s+(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s*(?:to|and|until|till|-|–)\s*"
    r"(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?(?:\s?([ap])(?:\.\s?m\.|\s?m\b)"
    r"|(?=\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night)\b))",
    re.I,
)
# A clock in words after a word that sets a time ("at twenty to ten", "by half past six",
# "after ten past nine", "at nine thirty", "around 7 o'clock"); not a range ("from five to ten
# people", "around 30 to 4"): "to" takes only a clock's minutes (half, quarter, five, ten,
# twenty, twenty-five), and no plural after it ("five to ten people"; "this" is none: "at five
# to eight this evening"). Twelve-hour without "am"/"pm": either half of the day may be meant.
_HOUR_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|1[0-2]|0?[1-9])\b"
_TO_MINUTE = r"half|(?:a )?quarter|(?:five|ten|twenty|twenty[- ]five)(?: minutes)?"
_PAST_MINUTE = _TO_MINUTE + r"|[1-5]?\d(?: minutes)?"
_CLOCK_WORDS = re.compile(
    r"\b(?:at|by|until|till|around|about|before|after|since)\s+(?:"
    rf"(?P<min>{_PAST_MINUTE})\s+(?P<dir>past|after)\s+(?P<hour>{_HOUR_WORD})"
    rf"|(?P<tomin>{_TO_MINUTE})\s+(?P<todir>to|til|till|before)\s+(?P<tohour>{_HOUR_WORD})"
    rf"|(?P<hour2>{_HOUR_WORD})\s+(?P<min2>o['’]clock|fifteen|thirty|forty[- ]five|oh[- ]five"
    r"|twenty|forty|fifty|ten|five)\b"
    rf"|(?P<half>half)\s+(?P<hour3>{_HOUR_WORD})"  # "at half six": half past, as British say it
    r")(?:\s?(?P<ampm>[ap])(?:\.\s?m\.|\s?m\b))?"
    r"(?!\s*(?:[-–]|to\b|minutes?\b|hours?\b|people\b|percent\b|per\b|(?!this\b)[a-z]+s\b))",
    re.I,
)
# "half past eleven", "a quarter to eight": a clock whatever word comes before it ("from half
# past eleven"); "five to ten" may be a range and needs a word that sets a time (above).
_CLOCK_PHRASE = re.compile(
    rf"\b(?:(?P<min>half|(?:a )?quarter)\s+(?P<dir>past)\s+(?P<hour>{_HOUR_WORD})"
    rf"|(?P<tomin>(?:a )?quarter)\s+(?P<todir>to)\s+(?P<tohour>{_HOUR_WORD}))"
    r"(?:(?P<hour2>(?!))(?P<min2>(?!)))?"  # the groups of a bare hour, never here
    r"(?:\s?(?P<ampm>[ap])(?:\.\s?m\.|\s?m\b))?",
    re.I,
)
# An hour said with a part of the day after a word that sets a time ("after nine this
# evening", "at 7 in the morning").
_HOUR_OF_PART = re.compile(
    rf"\b(?:at|by|until|till|around|about|before|after|since)\s+(?P<hour>{_HOUR_WORD})"
    r"(?=(?:\s+(?:in\s+the|this)\s+(?:morning|afternoon|evening)|\s+at\s+night|\s+tonight)\b)",
    re.I,
)
_HOUR_VALUES = {
    w: i + 1
    for i, w in enumerate(
        ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")
    )
}  # fmt: skip
_CLOCK_MINUTES = {"half": 30, "quarter": 15, "a quarter": 15, "o'clock": 0, "o’clock": 0,
                  "oh five": 5, "oh-five": 5}  # fmt: skip
_NUMBER = re.compile(
    rf"(?P<cur>[$€£¥₹]|US\$|(?:EUR|USD|GBP|CHF|JPY|CAD|AUD|INR|CNY)(?=\s?\d))?\s?"
    rf"(?P<num>(?<![\w.,#/:-])\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?![\w#]*[#_])"
    rf"|(?<![\w.,#/:-])\d{{1,3}}(?:[ \u00a0\u202f\u2009]\d{{3}})+(?!\d|[.,]\d)"
    rf"|(?<![\w.,#/:-])\d+(?:\.\d+)?(?![\w]*[#_])"
    rf"|\b(?:{_NUM_WORD})(?:[\s-]+(?:{_NUM_WORD}))*\b)"
    rf"(?:\s?(?P<scale>{_SCALE_WORD}))?"
    rf"(?:\s?(?P<pct>%|percent\b|per\s?cent\b|pct\b|percentage points?\b))?"
    rf"(?:\s?(?P<curw>dollars?|usd|euros?|eur|pounds?|quid|gbp|yen|jpy|rupees|inr)\b)?",
    re.I,
)


_AND_A_PART = re.compile(r"\s+and\s+(?P<part>a\s+half|a\s+quarter|three\s+quarters)\b", re.I)
_PARTS = {"half": 0.5, "quarter": 0.25, "quarters": 0.75}

_AGE_BAND = re.compile(r"\b(?:under|over)[\s-](\d{1,3})s\b", re.I)


# A reference to a source ("passage 2", "(Document 3)", "[2]") or to a part of a text ("step
# 4", "pages 2-4", "section 3.2") names where something is said, not a figure: it is never a
# value to compare. The number of a part may still be looked up ("step 4" when there is none).
_REF_AMOUNT = r"(?![.,]\d|\s*(?:%|percent\b|hundred\b|thousand\b|million\b|billion\b))"
_REF_NUMBER = (
    r"(?:\d+(?:\.\d+)*[a-z]?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    + _REF_AMOUNT
)
_REF_LIST = r"(?:\s*(?:,|&|and|or|to|-|–)\s*\d+\b" + _REF_AMOUNT + r")*"
_SOURCE_WORD = r"passage|document|doc|source|excerpt|snippet|chunk|citation"
_PART_WORD = r"step|section|page|figure|fig\.|table|chapter|paragraph|appendix|footnote"
_PART_WORDS = r"steps|sections|pages|figures|figs\.|tables|chapters|paragraphs|footnotes"
_REFERENCE = re.compile(
    rf"(?P<source>\b(?:{_SOURCE_WORD})\s*(?:no\.\s*|#\s*)?{_REF_NUMBER}"
    rf"|\b(?:{_SOURCE_WORD})s\s*{_REF_NUMBER}{_REF_LIST}|\[\d+(?:\s*[,\-–]\s*\d+)*\])"
    rf"|(?P<part>\b(?:{_PART_WORD})\s*(?:no\.\s*|#\s*)?{_REF_NUMBER}"
    rf"|\b(?:{_PART_WORDS})\s*{_REF_NUMBER}{_REF_LIST})",
    re.I,
)
_REF_VALUE = re.compile(r"\d+(?:\.\d+)*|[a-z]+", re.I)


def reference_spans(text: str) -> list[tuple[int, int]]:
    """Spans of references to sources and to parts of a text ("passage 2", "(Step 4)",
    "documents 1 and 3", "[2]"): where a text says something is stated, never a value."""
    return [m.span() for m in _REFERENCE.finditer(text)]


def blank_references(text: str) -> str:
    """``text`` with its references (see :func:`reference_spans`) blanked out; offsets kept."""
    return _blank(text, reference_spans(text))


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts, prev = [], 0
    for a, b in spans:
        parts += [text[prev:a], " " * (b - a)]
        prev = b
    return "".join([*parts, text[prev:]])


def _part_numbers(m: re.Match[str]) -> Iterator[Quantity]:
    """The numbers of a reference to parts of a text ("steps 2 and 3" -> 2, 3)."""
    word = _TOKEN.match(m.group())
    for v in _REF_VALUE.finditer(m.group(), word.end() if word else 0):
        raw = v.group()
        value = float(raw) if raw[0].isdigit() else _NUMBER_WORD_VALUES.get(raw.lower())
        if value is not None:
            start = m.start() + v.start()
            yield Quantity("number", value, raw, start, start + len(raw), reference=True)


_UNIT_SUFFIX = re.compile(r"(?:-(?:a|an|per))?-[A-Za-z]{2,}\b")
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip
_ORDINAL_WORD = re.compile(r"\b(" + "|".join(_ORDINALS) + r")\s+([^\W\d_]+)", re.I)
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)\b", re.I)
_THE_BEFORE = re.compile(r"\bthe\s+$", re.I)
_BARE_AFTER = re.compile(
    r"\s*(?:$|[,.;:!?)]|(?:and|or|at|in|on|with|north|south|east|west)\b)", re.I
)


def _named_number(text: str, start: int, end: int, num: str) -> bool:
    """A bare figure after "the" that names a thing, not an amount ("he won the 100 and the
    200", "take the 405 north"): it is never compared as a count."""
    return (
        num.isdigit()
        and len(num) <= 3
        and _THE_BEFORE.search(text, max(0, start - 5), start) is not None
        and _BARE_AFTER.match(text, end) is not None
    )


def _clock_value(m: re.Match[str]) -> tuple[int, float | None] | None:
    """Minutes after midnight of a clock in words, and the other half of the day's reading
    when no "am"/"pm" says which ("twenty to ten" is 9:40 or 21:40)."""
    said_in = m.groupdict()
    hour_text = (m["hour"] or m["tohour"] or m["hour2"] or said_in.get("hour3") or "").lower()
    hour = int(hour_text) if hour_text.isdigit() else _NUMBER_WORD_VALUES.get(hour_text)
    said = (m["min"] or m["tomin"] or m["min2"] or said_in.get("half") or "").lower()
    said = said.replace(" minutes", "")
    named = _CLOCK_MINUTES.get(said)
    minute: float | None = named
    if named is None:
        minute = int(said) if said.isdigit() else _words_value(said)
    if hour is None or minute is None or not 1 <= hour <= 12 or not 0 <= minute < 60:
        return None
    if m["todir"]:
        hour, minute = (hour - 1) % 12 or 12, 60 - int(minute)
        if minute == 60:
            return None
    base = (hour % 12) * 60 + int(minute)
    if m["ampm"]:
        return base + (720 if m["ampm"].lower() == "p" else 0), None
    return base, float(base + 720)


def _words_value(text: str) -> float | None:
    total = 0.0
    for part in re.split(r"[\s-]+", text.lower()):
        if part in _NUMBER_WORD_VALUES:
            total += _NUMBER_WORD_VALUES[part]
        else:
            return None
    return total


_GROUP_SEPARATORS = re.compile(r"[, \u00a0\u202f\u2009]")
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")
_HEDGE_BEFORE = re.compile(
    r"\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|over|under|more than"
    r"|less than|fewer than|up to|at least|at most|close to|upwards of|in excess of|just over"
    r"|just under|an estimated|estimated|circa|c\.|~)\s*[$€£¥₹]?$",
    re.I,
)


def _sig_digits(num: str) -> int:
    """Digits as written ("500" -> 3, "1.20" -> 3, "0.05" -> 1): trailing zeros count."""
    digits = _GROUP_SEPARATORS.sub("", num).replace(".", "").lstrip("0")
    return max(1, len(digits))


# A day of a month without a year ("March 8th", "the 2nd of May", "8 March"): read only where
# the evidence's dates are full dates (records), so "March 8" meets ``"2019-03-08"``.
_DATE_MD = re.compile(
    rf"\b({_MONTH_WORD})\.?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\b(?![:.,]?\d)", re.I
)
_DATE_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORD})\b\.?", re.I)


def month_days(text: str) -> list[Quantity]:
    """Days of a month written without a year, as dates of an unknown year (``month * 100 +
    day``): "March 8th", "8 March", "the 2nd of May". A date with its year is left to
    :func:`extract_quantities`; "may" needs its figure to be a month."""
    out: list[Quantity] = []
    for pattern, month_at in ((_DATE_MD, 1), (_DATE_DM, 2)):
        for m in pattern.finditer(text):
            month = _MONTHS[m[month_at].lower()]
            day = int(m[3 - month_at])
            if not 1 <= day <= 31 or any(q.start < m.end() and m.start() < q.end for q in out):
                continue
            if m[month_at].islower() and m[month_at] == "may":
                continue  # "we may 2" is no date
            out.append(Quantity("date", month * 100 + day, m[0].rstrip("."), m.start(), m.end()))
    return out


class _Taken:
    """The spans taken so far, merged into disjoint sorted runs [starts[i], ends[i]): a span
    is free iff the last run starting before its end stops before its start. O(log n) per
    check, so thousands of numbers ("[1,[1,[1,...") stay linear-ish, not quadratic."""

    def __init__(self) -> None:
        self.out: list[Quantity] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, s: int, e: int) -> bool:
        i = bisect.bisect_left(self.starts, e) - 1
        return i < 0 or self.ends[i] <= s

    def add(self, q: Quantity) -> None:
        self.out.append(q)
        starts, ends = self.starts, self.ends
        lo = bisect.bisect_left(ends, q.start)  # first run that reaches q.start
        hi = bisect.bisect_right(starts, q.end)  # runs starting at or before q.end
        merged = lo < hi  # runs lo..hi-1 overlap or touch q: one run replaces them
        starts[lo:hi] = [min(q.start, starts[lo]) if merged else q.start]
        ends[lo:hi] = [max(q.end, ends[hi - 1]) if merged else q.end]


def extract_quantities(text: str, *, days: bool = True) -> list[Quantity]:
    """Find dates, money, percentages and plain numbers in ``text``, normalised.

    Years (1000-2099) standing alone are dates; ordinal-free small integers written as words
    ("five", "twenty-two") are numbers; a day of a month without a year ("by 30 September")
    is one date unless ``days`` is false (the records path reads those days itself, against
    the record's full dates: ``records.fields``).
    """
    taken = _Taken()
    references = list(_REFERENCE.finditer(text))
    text = _blank(
        text, sorted([m.span() for m in references] + [m.span() for m in _ZONE.finditer(text)])
    )
    for m in references:
        if m.lastgroup == "part":
            for q in _part_numbers(m):
                taken.add(q)
    _dates(text, taken, days)
    _times(text, taken)
    for m in _NUMBER.finditer(text):
        num = m["num"]
        if num and taken.free(m.start("num"), m.end("num")):
            found = _number(m, text)
            if found is not None:
                taken.add(found)
    for m in _AGE_BAND.finditer(text):
        # "free for under-12s", "the over 65s": an age band's figure is a number (the
        # hyphen that keeps "A-12" from being one does not apply).
        if taken.free(m.start(1), m.end()):  # "12s" whole: its "s" is no unit
            taken.add(
                Quantity("number", float(m[1]), text[m.start(1) : m.end()], m.start(1), m.end())
            )
    for m in _ORDINAL_WORD.finditer(text):
        # A rank before a content word ("its second studio album"), not "first of all".
        if taken.free(m.start(1), m.end(1)) and (
            word_weight(m[2].lower()) > 0.0 or m[2].lower() in ("and", "or")
        ):
            value = float(_ORDINALS[m[1].lower()])
            taken.add(Quantity("number", value, m[1], m.start(1), m.end(1), ordinal=True))
    out = taken.out
    out.sort(key=lambda q: q.start)
    return out


def _dates(text: str, taken: _Taken, days: bool) -> None:
    free, add = taken.free, taken.add
    for m in _DATE_ISO.finditer(text):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
        add(Quantity("date", y * 10_000 + mo * 100 + d, m[0], m.start(), m.end()))
    for m in _DATE_MDY.finditer(text):
        if free(m.start(), m.end()):
            mo, d, y = _MONTHS[m[1].lower()], int(m[2]), int(m[3])
            add(Quantity("date", y * 10_000 + mo * 100 + d, m[0], m.start(), m.end()))
    for m in _DATE_DMY.finditer(text):
        if free(m.start(), m.end()):
            d, mo, y = int(m[1]), _MONTHS[m[2].lower()], int(m[3])
            add(Quantity("date", y * 10_000 + mo * 100 + d, m[0], m.start(), m.end()))
    for m in _DATE_MY.finditer(text):
        if free(m.start(), m.end()) and m[1].lower() != "may":
            mo, y = _MONTHS[m[1].lower()], int(m[2])
            add(Quantity("date", y * 10_000 + mo * 100, m[0], m.start(), m.end()))
    for q in month_days(text) if days else ():
        # "by 30 September", "on March 8th": a day of a month without a year (year part 0),
        # so "30 October" meets it as another date and not as the number 30.
        if free(q.start, q.end):
            add(q)
    for m in _DATE_M.finditer(text):
        # "released in October": a month without a year (the year part is 0, unknown).
        if free(m.start(1), m.end(1)) and m[1].lower() not in ("may", "mar"):
            add(Quantity("date", _MONTHS[m[1].lower()] * 100, m[1], m.start(1), m.end(1)))


# A clock said as an approximation or a side of it ("just after noon", "around 7:15", "before
# 9"): no exact time, so another time is no changed value ("until" and "by" set a deadline).
_CLOCK_HEDGE = re.compile(
    r"\b(?:(?:just|shortly|right|soon|a\s+little|a\s+bit)\s+(?:after|before|past)|after|before"
    r"|around|about|approximately|roughly|circa|some\s+time\s+after)\s*$",
    re.I,
)


def _times(text: str, taken: _Taken) -> None:
    free = taken.free

    def add(q: Quantity) -> None:
        if not q.hedged and _CLOCK_HEDGE.search(text[max(0, q.start - 24) : q.start]):
            q = replace(q, hedged=True)
        taken.add(q)

    # a clock past 12:59 says the text writes a 24-hour day: its bare "9:00" is the morning's
    day_of_24 = any(int(m[1]) > 12 for m in _TIME_24H.finditer(text))
    for m in _HOUR_SPAN.finditer(text):
        _hour_span(text, m, add)
    for m in _TIME_12H.finditer(text):
        hour = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0)
        add(Quantity("time", hour * 60 + int(m[2] or 0), m[0].strip(), m.start(), m.end()))
    for m in _TIME_24H.finditer(text):
        if free(m.start(), m.end()):
            hour, alt = int(m[1]), None
            before = text[max(0, m.start() - _PART_REACH) : m.start()]
            if hour < 12 and (_LATER_IN_DAY.match(text, m.end()) or _LATER_BEFORE.search(before)):
                hour += 12  # "2:30 in the afternoon", "Thursday evening at 7:45": after noon
            elif (
                1 <= hour < 12
                and not day_of_24
                and not m[1].startswith("0")  # "07:45" is a 24-hour clock
                and not _EARLIER_IN_DAY.match(text, m.end())
                and not _EARLIER_BEFORE.search(before)
            ):
                alt = float((hour + 12) * 60 + int(m[2]))  # "at 7:45": either half of the day
            add(Quantity("time", hour * 60 + int(m[2]), m[0], m.start(), m.end(), alt=alt))
    for m in _TIME_WORD.finditer(text):
        if free(m.start(), m.end()):
            add(Quantity("time", 720 if m[0].lower() == "noon" else 0, m[0], m.start(), m.end()))
    for m in _HOUR_OF_PART.finditer(text):  # "after nine this evening": 21:00
        if free(m.start("hour"), m.end("hour")):
            hour = _HOUR_VALUES.get(m["hour"].lower()) or int(m["hour"])
            hour = hour % 12 + (12 if _LATER_IN_DAY.match(text, m.end()) else 0)
            bound = m[0].split()[0].lower() != "at"  # "after nine", "around 7": not exact
            span = (m.start("hour"), m.end("hour"))
            add(Quantity("time", hour * 60, m["hour"], *span, hedged=bound))
    for m in (*_CLOCK_WORDS.finditer(text), *_CLOCK_PHRASE.finditer(text)):
        start = next(m.start(g) for g in ("min", "tomin", "hour2", "half") if m.groupdict().get(g))
        if free(start, m.end()):
            clock = _clock_value(m)
            if clock is not None:
                minutes, alt = _part_of_day(text, m.end(), *clock)
                add(Quantity("time", minutes, text[start : m.end()], start, m.end(), alt=alt))


def _hour_span(text: str, m: re.Match[str], add: Callable[[Quantity], None]) -> None:
    """The two clocks of "from 1 to 3 in the afternoon" (15:00 at the end) or "between 10 and
    11:30 am"; the end written with "am"/"pm" is left to the twelve-hour clock. The part of
    the day said once may or may not hold for the start ("from 9 to 10 pm" may open at 9 am),
    so an unpadded start past noon is a second reading, never the only one."""
    later = (m[5] or "").lower() == "p" or bool(_LATER_IN_DAY.match(text, m.end()))
    end = int(m[3]) % 12 + (12 if later else 0)
    start = int(m[1]) % 12
    minutes = int(m[2] or 0)
    alt = None
    if later and not m[1].startswith("0") and start + 12 <= end:
        alt = float((start + 12) * 60 + minutes)  # "09:00" is a 24-hour clock: no second reading
    stop = m.end(2 if m[2] else 1)
    add(Quantity("time", start * 60 + minutes, text[m.start(1) : stop], m.start(1), stop, alt=alt))
    if not m[5]:
        stop = m.end(4 if m[4] else 3)
        add(Quantity("time", end * 60 + int(m[4] or 0), text[m.start(3) : stop], m.start(3), stop))


def _part_of_day(text: str, end: int, minutes: int, alt: float | None) -> tuple[int, float | None]:
    """A twelve-hour clock in words read with the part of the day said after it: "five past
    six in the evening" is 18:05 only, "... in the morning" 06:05 only; either, without one."""
    if alt is None:
        return minutes, alt
    if _LATER_IN_DAY.match(text, end):
        return int(max(minutes, alt)), None
    if _EARLIER_IN_DAY.match(text, end):
        return int(min(minutes, alt)), None
    return minutes, alt


def _scale_of(m: re.Match[str], is_word: bool) -> str:
    scale_word = (m["scale"] or "").lower()
    # Single letters are only scales right after a digit ("$10M", "5k"), never words.
    if scale_word in ("m", "b", "t", "k") and (is_word or m["scale"] is None):
        scale_word = ""
    if len(scale_word) == 1 and m.start("scale") != m.end("num"):
        scale_word = ""
    return scale_word


def _second_reading(num: str, digits: str) -> float | None:
    """ "56.000" is 56 in English and 56,000 in much of Europe; "12 737" may be 12,737 or 12
    and 737: the other reading of a figure written with separators."""
    if _DOT_THOUSANDS.fullmatch(num):
        return float(num.replace(".", ""))
    if digits != num.replace(",", ""):
        return float(_GROUP_SEPARATORS.split(num, maxsplit=1)[0])
    return None


def _cents(m: re.Match[str], text: str, value: float, start: int) -> Quantity | None:
    """ "39 cents", "67p": a hundredth of the currency, whichever it is; "1080p" is a
    resolution (pence come under a hundred)."""
    sub = _SUBUNIT.match(text, m.end("num"))
    if sub is None or (sub[0] == "p" and value >= 100):
        return None
    num = m["num"]
    return Quantity(
        "money", value / 100, text[start : sub.end()], start, sub.end(),
        2 if not num[0].isdigit() else _sig_digits(num),
        hedged=_HEDGE_BEFORE.search(text[max(0, start - 24) : start]) is not None,
    )  # fmt: skip


def _number(m: re.Match[str], text: str) -> Quantity | None:
    """The quantity of one ``_NUMBER`` match: money, a percentage, a year, a rank or a number
    (None: not a value to check, "1990s", "one of the")."""
    num = m["num"]
    is_word = not num[0].isdigit()
    digits = _GROUP_SEPARATORS.sub("", num)
    value = _words_value(num) if is_word else float(digits)
    if value is None:
        return None
    # "six and a half hours", "2 and a quarter miles": the fraction is the figure's
    frac = None if m["scale"] or m["pct"] or m["curw"] else _AND_A_PART.match(text, m.end("num"))
    if frac is not None:
        value += _PARTS[frac["part"].lower().split()[-1]]
    alt = None if is_word or frac else _second_reading(num, digits)
    scale_word = _scale_of(m, is_word)
    scale = _SCALES.get(scale_word, 1.0)
    exact = None
    if not math.isfinite(value * scale):
        # Over 1.8e308 ("1" followed by 309 digits): inf, with the exact value beside it.
        exact = None if is_word else exact_value(digits, scale)
        if exact is None:
            return None
        alt = None
    end = m.end("scale") if scale_word else (frac.end() if frac else m.end("num"))
    start = m.start("num")
    currency = ""
    if m["cur"]:
        currency = _CURRENCY_SYMBOL.get(m["cur"], m["cur"] if m["cur"].isalpha() else "USD")
        start = m.start("cur")
    if m["curw"]:
        currency = _CURRENCY_WORD.get(m["curw"].lower(), "USD")
        end = m.end("curw")
    if m["pct"]:
        end = m.end("pct")
    unit = _UNIT_SUFFIX.match(text, end)
    shown_end = unit.end() if unit and not m["pct"] and not m["curw"] else end
    if not is_word and text[m.end("num") : m.end("num") + 1] == "s":
        return None  # "1990s", "80s": a span of values, not one value
    suffix = None if is_word or frac else _ORDINAL_SUFFIX.match(text, m.end("num"))
    if suffix is not None and not (scale_word or currency or m["pct"]):
        # "15th", "2nd": a rank, not an amount.
        stop = suffix.end()
        return Quantity("number", value, text[start:stop], start, stop, ordinal=True)
    kind: QuantityKind
    cents = None if currency or m["pct"] or scale_word or frac else _cents(m, text, value, start)
    if cents is not None:
        return cents
    if m["pct"]:
        kind = "percent"
    elif currency:
        kind = "money"
    elif (
        not is_word
        and scale == 1.0
        and re.fullmatch(r"1[0-9]{3}|20[0-9]{2}", num)
        and not (text[end : end + 1] == "s" or text[max(0, start - 1) : start] == "#")
    ):
        return Quantity("date", value * 10_000, text[start:end], start, end)
    else:
        kind = "number"
    if is_word and value <= 1 and not scale_word:
        return None  # "one of the", "zero-shot": too ambiguous to check
    return Quantity(
        kind,
        value * scale,
        text[start:shown_end].strip(),
        start,
        end,
        len(str(int(value))) + 1 if frac else (2 if is_word else _sig_digits(num)),
        currency,
        alt=alt * scale if alt is not None else None,
        hedged=_HEDGE_BEFORE.search(text[max(0, start - 24) : start]) is not None,
        exact=exact,
        reference=kind == "number" and _named_number(text, start, end, num),
        length=_length(text, end, value * scale) if kind == "number" else None,
    )


TIME_LENGTHS: dict[str, tuple[str, float]] = {
    w: (kind, float(n)) for w, (kind, n) in table("time_lengths").items()
}
"""A unit of time and its size in the smallest unit of its kind: years and months convert
exactly to months, weeks, days, hours and minutes to minutes; years to days do not."""
_UNIT_AFTER = re.compile(r"[\s-]*([A-Za-z]+)")


def _length(text: str, end: int, value: float) -> tuple[str, float] | None:
    """The figure as a length of time where a unit of time follows it ("90 minutes")."""
    m = _UNIT_AFTER.match(text, end)
    if m is None:
        return None
    word = m[1].lower()
    unit = TIME_LENGTHS.get(word) or TIME_LENGTHS.get(word.removesuffix("s"))
    return None if unit is None else (unit[0], value * unit[1])


def _round_sig(x: float, digits: int) -> float:
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, -math.floor(math.log10(abs(x))) + (digits - 1))


def comparable(claim: Quantity, evidence: Quantity) -> bool:
    """Whether two values can disagree: same kind family, and dates sharing a known part.

    A month without a year ("in October") and a year without a month ("2007") state
    nothing about each other; the number of a step or a section names a place, no amount.
    """
    if claim.reference or evidence.reference:
        return False
    if claim.kind == "date" or evidence.kind == "date":
        if claim.kind != evidence.kind:
            return False
        return _share_a_part(date_parts(claim.value), date_parts(evidence.value))
    if (claim.kind == "time") != (evidence.kind == "time") or claim.ordinal != evidence.ordinal:
        return False
    return (claim.kind == "percent") == (evidence.kind == "percent")


def date_parts(value: float) -> tuple[int, int, int]:
    """A date value's year, month and day (``year * 10_000 + month * 100 + day``; 0 unknown)."""
    v = int(value)
    return v // 10_000, v // 100 % 100, v % 100


def _share_a_part(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Whether two dates' parts both state a year or both state a month."""
    return bool(a[0] and b[0]) or bool(a[1] and b[1])


def _apart(x: int, y: int) -> bool:
    """Two date parts both known and different."""
    return bool(x and y and x != y)


def conflicting(claim: Quantity, evidence: Quantity) -> bool:
    """Whether ``evidence`` states another value than ``claim`` for the same thing: comparable,
    not matching, and not only a year one side states and the other does not ("30 September
    2024" against "30 September" is unstated, not another date)."""
    if not comparable(claim, evidence) or quantities_match(claim, evidence):
        return False
    if claim.kind != "date":
        return True
    (ay, am, ad), (by, bm, bd) = date_parts(claim.value), date_parts(evidence.value)
    return bool(ay) == bool(by) or _apart(am, bm) or _apart(ad, bd)


def same_written_value(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities hold the same value, as written (no rounding tolerated).

    Numbers past a float compare their exact values: two of them are both ``inf``.
    """
    if a.exact is not None or b.exact is not None:
        return a.exact is not None and a.exact == b.exact
    return bool(set(a.values()) & set(b.values()))


def quantities_match(claim: Quantity, evidence: Quantity) -> bool:
    """Whether ``evidence`` states the same value as ``claim`` (rounding tolerated).

    Dates match when the parts both specify agree (a year matches a full date in that year,
    a month without a year matches that month of any year); a claim's year must be stated.
    Money and plain numbers may match each other; percentages only percentages; the number of
    a part of a text ("step 4") only the same plain number.
    """
    if claim.reference or evidence.reference:
        return claim.kind == evidence.kind == "number" and claim.value == evidence.value
    if claim.kind == "date" or evidence.kind == "date":
        if claim.kind != evidence.kind:
            return False  # a date against a number (which may be past a float): never
        a, b = date_parts(claim.value), date_parts(evidence.value)
        if not _share_a_part(a, b):
            return False
        if a[0] and a[0] != b[0]:
            return False  # the evidence must state the claim's year ("in December" is not 2013)
        return not (_apart(a[1], b[1]) or _apart(a[2], b[2]))
    if not comparable(claim, evidence):
        return False
    digits = min(claim.precision, evidence.precision)
    if claim.exact is not None or evidence.exact is not None:
        return exact_matches(claim.exact, evidence.exact, digits)  # past a float: exactly
    if _same_length(claim, evidence):
        return True  # "two and a half hours" and "150 minutes"
    return any(
        a == b or _round_sig(a, digits) == _round_sig(b, digits)
        for a in claim.values()
        for b in evidence.values()
    )


def _same_length(claim: Quantity, evidence: Quantity) -> bool:
    """Two lengths of time of one kind in other units, exactly equal in the smaller unit (a
    rounded figure is rounded in its own unit: "3 hours" is no "150 minutes")."""
    a, b = claim.length, evidence.length
    return a is not None and b is not None and a[0] == b[0] and a[1] == b[1]


_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|n't|unable|"
    r"neither|nowhere|lacks?|lacked|fails?\s+to|failed\s+to|(?:refus|declin)(?:e|es|ed)\s+to|"
    r"denied|denies|yet\s+to|free\s+(?:of|from)|non-|"
    + "|".join(sorted(UNAPOSTROPHED_NEGATIONS))  # "isnt", "doesnt"
    + r")\b|n't\b",
    re.I,
)
# Cue words that do not negate what follows: "not only ... but", "no doubt", "nothing but",
# "no less than", "none other than", "No. 5".
_NOT_NEGATING = re.compile(
    r"\s*(?:only|just|merely|simply|least|to mention|doubt|less than|more than|other than"
    r"|sooner|but|\.?\s*\d)\b",
    re.I,
)
# "No." / "No," opening an answer answers a question; it negates nothing that follows.
_ANSWER_NO = re.compile(r"no\s*[.,!:;]", re.I)
# Denials: "it is false that X" / "contrary to reports that X" govern the rest of the
# sentence; "X is not true" governs the clause before it.
_DENIAL_AHEAD = re.compile(
    r"\b(?:it|this)\s+(?:is|was|'s)\s+(?:false|untrue|not\s+true|a\s+myth|incorrect|wrong)"
    r"\s+that\b|\bcontrary\s+to\s+(?:\w+\s+){0,3}?(?:reports?|claims?|rumou?rs?|beliefs?"
    r"|reporting|speculation)(?:\s+that)?\b|\bthere\s+is\s+no\s+evidence\s+that\b"
    r"|\bfalsely\s+(?:claimed|reported|stated|said)\s+that\b",
    re.I,
)
_DENIAL_BEHIND = re.compile(
    r"\b(?:is|was|are|were)\s+(?:false|untrue|not\s+true|a\s+myth|incorrect)\b", re.I
)


# A condition states no polarity of its own: "If the latch doesn't catch, tighten the hinges"
# asserts nothing about whether it catches, nor does "check whether it aligns". A "when"
# clause in the past tells what happened ("When he did not return, police searched the area")
# and keeps its negation.
_CONDITION = re.compile(
    r"\b(?:if|unless|whenever|when|whether|in case|as long as|provided(?: that)?|providing)\b",
    re.I,
)
_PAST = re.compile(
    r"\b(?:was|were|did|had|wasn't|weren't|didn't|hadn't|failed|refused|declined|denied)\b", re.I
)


def condition_spans(text: str) -> list[tuple[int, int]]:
    """Spans of conditional clauses, from "if" / "unless" / "when" / "whether" to the clause
    end: what they say is no statement of the text's own, and a negation there no cue.

    Linear in ``text``: a marker inside the span already read is part of it.
    """
    out: list[tuple[int, int]] = []
    ends: _Ends | None = None
    read_to = -1
    for m in _CONDITION.finditer(text):
        if m.start() < read_to:
            continue
        ends = ends or _Ends(text)
        stop = ends.after(m.end(), sentence=False)
        read_to = stop
        if m.group().lower() == "when" and _PAST.search(text, m.end(), stop):
            continue
        out.append((m.start(), stop))
    return out


def _cues(text: str, *, in_conditions: bool = False) -> list[tuple[int, int, str]]:
    """Negation cues as ``(start, end, direction)``: ``ahead``, ``behind`` or ``word``.

    A negation word inside a conditional clause (see :func:`condition_spans`) gives the text
    no polarity, so it is no cue unless ``in_conditions`` (what it denies is still denied: "if
    you want a coffee shop that is not family-friendly, try X"). Linear in ``text``: cue spans
    are kept sorted and looked up by bisection.
    """
    denials = [(m.start(), m.end(), "ahead") for m in _DENIAL_AHEAD.finditer(text)]
    taken = [(a, b) for a, b, _ in denials]  # sorted, non-overlapping

    def inside(pos: int) -> bool:
        k = bisect.bisect_right(taken, (pos, len(text) + 1)) - 1
        return k >= 0 and taken[k][0] <= pos < taken[k][1]

    for m in _DENIAL_BEHIND.finditer(text):
        if not inside(m.start()):
            denials.append((m.start(), m.end(), "behind"))
    denials.sort()
    taken = [(a, b) for a, b, _ in denials]
    found = list(denials)
    conditions: list[tuple[int, int]] | None = [] if in_conditions else None  # found lazily
    for m in _NEGATION.finditer(text):
        if inside(m.start()) or _NOT_NEGATING.match(text, m.end()):
            continue
        if conditions is None:
            conditions = condition_spans(text)
        k = bisect.bisect_right(conditions, (m.start(), len(text) + 1)) - 1
        if k >= 0 and conditions[k][0] <= m.start() < conditions[k][1]:
            continue
        if _ANSWER_NO.match(text, m.start()):
            continue
        found.append((m.start(), m.end(), "word"))
    found.sort()
    return found


def without_cues(text: str) -> str:
    """``text`` with its negation cues blanked out: "declined to", "lacks", "free of", "it is
    false that" are how a text negates, not what it talks about."""
    out, at = [], 0
    for start, end, _ in _cues(text):
        if start >= at:
            out += [text[at:start], " " * (end - start)]
            at = end
    out.append(text[at:])
    return "".join(out)


def has_negation(text: str) -> bool:
    """Whether ``text`` negates something ("not", "never", "n't", "it is false that"...)."""
    return bool(_cues(text))


def negation_count(text: str) -> int:
    """Number of negation cues in ``text``."""
    return len(_cues(text))


_SCOPE_WORDS = 5
_DENIED_WORDS = 40  # a denied statement is read up to this many words
_CLAUSE_END = re.compile(r"[,;:.!?()\n]")
_SCOPE_SENTENCE_END = re.compile(r"[;!?\n]|\.(?!\d)")  # a denial reads up to here


class _Ends:
    """Clause and sentence ends of a text, found once (scopes stay linear in the text)."""

    def __init__(self, text: str) -> None:
        self.clause = [m.start() for m in _CLAUSE_END.finditer(text)]
        self.sentence = [m.start() for m in _SCOPE_SENTENCE_END.finditer(text)]
        self.size = len(text)

    def after(self, pos: int, *, sentence: bool) -> int:
        ends = self.sentence if sentence else self.clause
        k = bisect.bisect_left(ends, pos)
        return ends[k] if k < len(ends) else self.size

    def before(self, pos: int) -> int:
        k = bisect.bisect_left(self.sentence, pos) - 1
        return self.sentence[k] + 1 if k >= 0 else 0


def _words_between(text: str, start: int, stop: int, limit: int) -> list[str]:
    return [t.group() for t in itertools.islice(_TOKEN.finditer(text, start, stop), limit)]


def _scopes(text: str) -> list[tuple[str, list[str]]]:
    """Each negation cue's direction and the content stems it governs, in text order."""
    out: list[tuple[str, list[str]]] = []
    ends: _Ends | None = None
    for start, end, direction in _cues(text):
        ends = ends or _Ends(text)
        if direction == "ahead":
            stop = ends.after(end, sentence=True)
            words = _words_between(text, end, stop, _DENIED_WORDS)
            out.append((direction, list(content_stems(" ".join(words)))))
        elif direction == "behind":
            lo = max(ends.before(start), start - 20 * _DENIED_WORDS)
            words = _TOKEN.findall(text, lo, start)[-_DENIED_WORDS:]
            out.append((direction, list(content_stems(" ".join(words)))))
        else:
            stop = ends.after(end, sentence=False)
            words = _words_between(text, end, stop, _SCOPE_WORDS + 3)
            out.append((direction, list(content_stems(" ".join(words)))[:_SCOPE_WORDS]))
    return out


def negated_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of ``text`` that a negation governs (to the clause end after "not",
    the rest of the sentence after "it is false that", the clause before "is not true"), in
    conditional clauses too."""
    out: list[tuple[int, int]] = []
    ends: _Ends | None = None
    for start, end, direction in _cues(text, in_conditions=True):
        ends = ends or _Ends(text)
        if direction == "behind":
            out.append((ends.before(start), start))
        else:
            out.append((end, ends.after(end, sentence=direction == "ahead")))
    return out


def negated_heads(text: str) -> set[str]:
    """The first word each negation word governs ("not **able** to", "never **met**")."""
    return {scope[0] for direction, scope in _scopes(text) if direction == "word" and scope}


def negation_scopes(text: str) -> list[set[str]]:
    """For each negation cue in ``text``, the content stems it governs.

    The scope of a negation word is the next few content words up to a clause boundary
    ("did not want to **leave Savatage**", "nothing to do with **Starbucks**"); it is empty
    when the cue ends the clause. A denial governs a whole statement: the rest of the
    sentence after "it is false that", the clause before "... is not true".
    """
    return [set(scope) for _, scope in _scopes(text)]


def negations_about(text: str, other_stems: set[str], *, strict: bool = False) -> int:
    """Number of negation cues of ``text`` whose scope is about ``other_stems``.

    A cue with an empty scope ("it is not.") counts. By default a cue counts when its scope
    shares a word with ``other_stems``; with ``strict``, when the word it negates first
    ("not **changed** in size") is there, or most of a denied statement is. Used to compare
    the polarity of a claim and a chunk only on what they both talk about.
    """
    count = 0
    for direction, scope in _scopes(text):
        if not scope:
            count += 1
        elif not strict:
            count += bool(set(scope) & other_stems)
        elif direction == "word":
            count += scope[0] in other_stems
        else:
            count += 2 * sum(s in other_stems for s in scope) > len(scope)
    return count


@lru_cache(maxsize=1)
def _zipf_table() -> dict[str, int]:
    ref = resources.files("langchain_qgate") / "data" / "word_zipf_en.json.gz"
    with ref.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as fh:
        table: dict[str, int] = json.load(fh)["zipf"]
    return table


_STOP_ZIPF = 6.0


def word_weight(word: str) -> float:
    """IDF-like weight of a lower-cased word from general English frequencies.

    Frequent function words weigh ~0, rare words and names up to 1. Unknown words (names,
    numbers, jargon) weigh 1.
    """
    word = UNAPOSTROPHED_NEGATIONS.get(word, word)  # "isnt" weighs what "isn't" does
    zipf = _zipf_table().get(word, 0) / 10.0
    if zipf >= _STOP_ZIPF:
        return 0.0
    return min(1.0, (_STOP_ZIPF + 0.5 - zipf) / 4.5) if zipf else 1.0


_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_SUFFIXES = ("ational", "ization", "iveness", "fulness", "ousness", "ments", "ment", "ings",
             "ing", "edly", "ies", "ied", "ers", "er", "est", "ed", "ly", "s")  # fmt: skip
_EATS_E = frozenset({"ings", "ing", "edly", "ers", "er", "est", "ed"})  # "serving" ate an "e"
_ES_PLURAL = re.compile(r"(?:s|x|z|ch|sh|o)e$")  # "boxes", "churches", "tomatoes": "-es"


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A crude, deterministic suffix stripper that gives the forms of a word one stem
    ("served", "serving", "serves" -> "serve"; "companies", "studied" -> "company",
    "study"; "boxes" -> "box"). Where a suffix may have eaten a final "e" or be "-es", the
    more frequent English word of the candidates is the stem ("rated" -> "rate", "visited"
    -> "visit"; "shipping" -> "ship"; "houses" -> "house", "buses" -> "bus", "tomatoes" ->
    "tomato"). "-er" is a suffix only of a verb or an adjective ("worker" -> "work", "larger"
    -> "large"; "offer" and "water" stay). Irregular forms get their base word ("won" ->
    "win", "children" -> "child"; ``_lexicon.IRREGULAR_FORMS``)."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if w in IRREGULAR_FORMS:  # "won" -> "win", "children" -> "child"
        return stem(IRREGULAR_FORMS[w])
    for suf in _SUFFIXES:
        if not w.endswith(suf) or len(w) - len(suf) < 3 or (suf == "s" and w.endswith("ss")):
            continue
        base = w[: -len(suf)]
        if suf in ("ies", "ied"):
            return base + "y"
        if suf in _EATS_E:
            doubled = base[-1] == base[-2] and base[-1] not in "aeioulsfz"
            candidates = (base, base + "e", base[:-1]) if doubled else (base, base + "e")
            if suf in ("er", "ers") and not (
                _frequency(base + "est") >= _COMMON  # "bigger": "biggest"
                if doubled
                else any(map(_inflects, candidates))
            ):
                return w if suf == "er" else w[:-1]  # "offer", "summer": no "off", "summ" + "-er"
            return max(candidates, key=_frequency)  # the first on a tie
        if _ES_PLURAL.search(base) and len(base) > 3:
            return max((base, base[:-1]), key=_frequency)
        return base
    return w


def _frequency(word: str) -> int:
    return _zipf_table().get(word, 0)


_COMMON = 30  # Zipf 3.0: a word seen about once in a million


def _inflects(base: str) -> bool:
    """Whether ``base`` is a verb or an adjective ("worked", "writing", "largest") that "-er"
    may be a suffix of."""
    if base.endswith("e"):  # "writer": "writing" ("wrote" is irregular)
        forms = [base + "d", base + "st", base[:-1] + "ing"]
    else:
        forms = [base + "ed", base + "est"]
    return any(_frequency(f) >= _COMMON for f in forms)


_MAX_SPELLING = 30  # longer words are never compared letter by letter


def spelt_alike(a: str, b: str) -> bool:
    """Whether two different words of a name are one word misspelt: one of them is rare or no
    word at all in the bundled English word frequencies (two common words are two names:
    "Slovenia" / "Slovakia", "Maria" / "Mario"), both start with the same letter, have at
    least five letters (letters only: "ELITEFIT10" is a code), and are one edit apart (a
    letter added, dropped, changed, or two neighbours swapped), two from six letters on
    ("Hickam" / "Hickman")."""
    a, b = a.lower(), b.lower()
    short = min(len(a), len(b))
    if a == b or a[:1] != b[:1] or short < 5 or max(len(a), len(b)) > _MAX_SPELLING:
        return False
    if not (a.isalpha() and b.isalpha()):
        return False  # "ELITEFIT10" / "ELITEFIT15": codes, not spellings
    if word_weight(a) < 1.0 and word_weight(b) < 1.0:
        return False  # two words seen in English text: two names
    allowed = 2 if short >= 6 else 1
    return abs(len(a) - len(b)) <= allowed and edits(a, b) <= allowed


def edits(a: str, b: str) -> int:
    """Edits from ``a`` to ``b``, a swap of neighbouring letters counting one (optimal string
    alignment distance); both words are short (see ``_MAX_SPELLING``)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def tokens(text: str) -> list[str]:
    """Word tokens of ``text`` (letters and digits; apostrophes kept inside words)."""
    return _TOKEN.findall(text)


def content_stems(text: str) -> dict[str, float]:
    """Stems of the content words of ``text`` with their weights (function words dropped)."""
    out: dict[str, float] = {}
    for tok in tokens(text):
        low = tok.lower()
        w = word_weight(low)
        if w <= 0.0:
            continue
        s = stem(low)
        out[s] = max(out.get(s, 0.0), w)
    return out


def coverage(claim_stems: dict[str, float], evidence_stems: set[str]) -> float:
    """Weighted share of the claim's content words found in the evidence (1.0 if none)."""
    total = sum(claim_stems.values())
    if total <= 0:
        return 1.0
    hit = sum(w for s, w in claim_stems.items() if s in evidence_stems)
    return hit / total


_CAP_SEQ = re.compile(
    r"(?<![\w'’])(?:[A-Z][\w'’.-]*|[A-Z]{2,})(?:\s+(?:(?:of|the|de|la|von|van|and|&)\s*)?"
    r"(?:[A-Z][\w'’.-]*|[A-Z]{2,}|\d+))*"
)
_NOT_ENTITY = {
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "he", "she", "they", "we",
    "i", "you", "his", "her", "their", "our", "in", "on", "at", "for", "by", "with", "from",
    "as", "but", "and", "or", "if", "when", "while", "after", "before", "during", "there",
    "however", "also", "although", "because", "since", "so", "then", "thus", "yes", "no",
    "therefore", "hence", "consequently", "moreover", "furthermore", "additionally", "overall",
    "finally", "meanwhile", "indeed", "instead", "still", "yet", "today", "currently", "now",
    "here", "according", "based", "unlike", "like", "both", "each", "every", "all", "some",
    "well", "sure", "okay", "ok", "oh", "ah", "actually", "basically", "anyway", "alright",
    "yeah", "yep", "nope", "hmm", "um", "please", "perhaps", "maybe", "sadly", "certainly",
    "unfortunately", "fortunately", "hopefully", "interestingly", "notably", "importantly",
    "absolutely", "definitely", "great", "thanks", "hi", "hello", "hey", "dear",
}  # fmt: skip


def extract_entities(text: str) -> list[tuple[str, int, int]]:
    """Proper-noun-like spans (capitalised word runs, acronyms), with offsets.

    The first word of a sentence counts only when it is not a common word. Months and
    weekday names are left to the date check. "Apple and Google" gives two entities,
    "Johnson & Johnson" one. A reference to a source ("Passage 2", "Step 4") is no name.
    """
    found = _entities(text, mid_sentence=False)
    refs = reference_spans(text) if found else []
    if not refs:
        return found

    def in_reference(s: int, e: int) -> bool:
        k = bisect.bisect_left(refs, (e, 0)) - 1  # the last reference starting before ``e``
        return k >= 0 and refs[k][1] > s

    return [(name, s, e) for name, s, e in found if not in_reference(s, e)]


def _is_adverb(word: str) -> bool:
    """A capitalised common adverb ("Politically", "Recently"): a sentence opener, not a name."""
    low = word.lower().rstrip(",")
    return low.endswith("ly") and _zipf_table().get(low, 0) >= 25


_PTB_TOKENS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{",
               "-RCB-": "}", "``": '"', "''": '"'}  # fmt: skip
_PTB = re.compile(r"-[LR][RSC]B-|``|''")
_SPACED_PUNCT = re.compile(
    r"(?<=\S) +(?=[.,;:!?%)\]}](?:\s|$))|(?<=[(\[{$]) +|(?<=\w) +(?='s\b|n't\b)"
)


def untokenise(text: str) -> str:
    """Undo treebank tokenisation ("-LRB- born 1970 -RRB-", "U.S .", "do n't") for matching.

    Only for comparing texts: offsets into the result are not offsets into ``text``.
    """
    text = unicodedata.normalize("NFC", text)
    if "-" in text or "`" in text or "'" in text:
        text = _PTB.sub(lambda m: _PTB_TOKENS[m.group(0)], text)
    return _SPACED_PUNCT.sub("", text)


def _is_name(words: list[str], at_sentence_start: bool) -> bool:
    joined = " ".join(words)
    if joined.lower() in _MONTHS:
        return False
    common = _zipf_table().get(joined.lower(), 0) >= 40
    return not (len(words) == 1 and at_sentence_start and common)


_SENTENCE_END = re.compile(r"(?<=[a-z]{3})[.!?]\s+")  # "Wednesday. Starbucks" (not "St. Louis")


def _name_runs(text: str) -> Iterator[tuple[str, int]]:
    """Runs of capitalised words with their offsets, cut at sentence ends."""
    for m in _CAP_SEQ.finditer(text):
        run, last = m.group(0), 0
        for cut in _SENTENCE_END.finditer(run):
            yield run[last : cut.start() + 1], m.start() + last
            last = cut.end()
        yield run[last:], m.start() + last


def _entities(text: str, *, mid_sentence: bool) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for piece, offset in _name_runs(text):
        start = offset
        words = piece.rstrip(".-'’ ").split()
        # Drop a leading common word ("The", "In") at a sentence start.
        while words and (
            words[0].lower() in _NOT_ENTITY
            or words[0].lower().replace("’", "'").startswith("i'")
            or words[0].lower() in _MONTHS
            or words[0].isdigit()
            or _is_adverb(words[0])
        ):
            start = text.find(words[0], start) + len(words[0])
            while start < len(text) and text[start] == " ":
                start += 1
            words = words[1:]
        while words and words[-1].lower() in {"of", "the", "de", "la", "and", "&", "von", "van"}:
            words = words[:-1]
        if not words:
            continue
        at_start = not mid_sentence and (
            start == 0 or text[:start].rstrip().endswith((".", "!", "?", "\n"))
        )
        if "and" in words[1:-1]:
            # Coordinated names: each side is its own entity; a sentence-initial common word
            # ("Apple") counts as a name when the other side is one.
            cut = words.index("and", 1)
            head = " ".join(words[:cut])
            tail = " ".join(words[cut + 1 :])
            tail_at = text.find(tail, start + len(head))
            rest = [(e, s + tail_at, t + tail_at) for e, s, t in _entities(tail, mid_sentence=True)]
            if (rest and head.lower() not in _MONTHS) or _is_name(words[:cut], at_start):
                out.append((head, start, start + len(head)))
            out.extend(rest)
            continue
        if not _is_name(words, at_start):
            continue
        joined = " ".join(words)
        out.append((joined, start, start + len(joined)))
    return out
