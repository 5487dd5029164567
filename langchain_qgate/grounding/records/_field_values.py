"""Field values the way sources write them, read the way people restate them.

Helpers of ``fields`` for the values of real records:

- times written without their second minute digit (``"17:30-23:0"``, ``"8:0-14:0"``) are
  padded (``"17:30-23:00"``) before figures are read, in fields and in claims alike; a range
  past midnight (``"11:30-2:0"``) needs nothing more, its closing time is 2 am;
- a price band (``"£20-25"``) states both its ends (``"£20-£25"``), and a figure inside the
  band or at its edge ("25 pounds") agrees with it;
- a bound (``"less than £20"``, ``"more than £30"``) agrees with a figure on its side.

Every pattern here is linear-time (no nested quantifiers).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from langchain_qgate.grounding.checks.checks import NUMBER_WORDS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from langchain_qgate.grounding.checks.checks import Quantity

__all__ = [
    "bound_words",
    "bounds",
    "compound_lengths",
    "held_zones",
    "normalise_times",
    "normalise_value",
    "read_zones",
    "weekday_ranges",
    "weekday_value",
    "within_band",
    "zone_minutes",
]

_SHORT_MINUTES = re.compile(r"(?<![\d:.])(\d{1,2}):(\d)(?![\d:])")
_MONEY_RANGE = re.compile(r"([£$€¥])(\d+(?:\.\d+)?)(\s?(?:-|–|to)\s?)(?=\d)")
_UPPER = re.compile(r"\b(?:less than|under|below|up to|at most|max(?:imum)?)$", re.I)
_LOWER = re.compile(
    r"\b(?:more than|over|above|at least|from|min(?:imum)?|in excess of|upwards of)$", re.I
)
# A bound denied is the other bound ("no more than £20": at most £20).
# "doesn't cost more than £20", "isnt less than": the denial may govern a verb before it.
_DENIED_BOUND = re.compile(
    r"(?:\b(?:no|not|never|doesnt|dont|isnt|wont|arent)|n't)\s+(?:(?:cost|costs|come|be|go)\s+(?:you\s+)?)?"
    r"(?:to\s+)?(?:(more|higher)|(less|lower))\s+than$",
    re.I,
)
_UPPER_AFTER = re.compile(
    r"\s*(?:max(?:imum)?\b|or (?:less|under|below)\b|and (?:under|below)\b)", re.I
)
_LOWER_AFTER = re.compile(
    r"\s*(?:min(?:imum)?\b|or (?:more|over|above)\b|and (?:up|over|above)\b|\+|plus\b)", re.I
)
_BAND_KINDS = frozenset({"money", "number", "percent"})


def normalise_times(text: str) -> str:
    """``"23:0"`` -> ``"23:00"``, ``"8:0 to 14:0"`` -> ``"8:00 to 14:00"``."""
    if ":" not in text:
        return text
    return _SHORT_MINUTES.sub(r"\1:\g<2>0", text)


# An ISO 8601 datetime as APIs write it ("2025-03-08T09:40:00Z", "...T09:40+01:00"): the date
# and the time of day, each read as such (the offset says which zone, not another value).
ISO_DATETIME = re.compile(
    r"\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b"
)  # the zone its third group


# The zone a reply writes after a clock: "17:45 (+01:00)", "17:45 UTC+1", "08:14 GMT", "17:45
# +01:00" (a bare offset only with its plus sign: "09:00-17:00" is a range), "08:14Z"; never
# "06:10 (+1)", the next day of an itinerary.
_CLOCK_ZONE = re.compile(
    r"(?:(?<=\d:\d\d)|(?<=\dam)|(?<=\dpm)|(?<=\d\sam)|(?<=\d\spm))"
    r"(?:\s?\(\s?(?P<paren>(?:utc|gmt)\s?[+-]\d{1,2}(?::?\d\d)?|[+-]\d\d:?\d\d|utc|gmt|z)\s?\)"
    r"|\s?(?P<named>(?:utc|gmt)(?:\s?[+-]\d{1,2}(?::?\d\d)?)?)\b"
    r"|\s?(?P<plus>\+\d\d:?\d\d)\b|(?P<z>z)\b)",
    re.I,
)
_OFFSET = re.compile(r"([+-])(\d{1,2})(?::?(\d\d))?")
_HELD_ZONE = re.compile(r"\d\d:\d\d(?::\d\d(?:\.\d+)?)?(z|[+-]\d\d:?\d\d)\b", re.I)


def zone_minutes(zone: str) -> int | None:
    """A zone as minutes east of UTC ("Z", "UTC", "GMT": 0; "+01:00", "UTC+1", "-0530":
    60, 60, -330); None for anything else or an offset past 14 hours."""
    zone = zone.strip().lower()
    if zone in ("z", "utc", "gmt"):
        return 0
    m = _OFFSET.search(zone)
    if m is None or zone[: m.start()].strip() not in ("", "utc", "gmt"):
        return None
    minutes = int(m[2]) * 60 + int(m[3] or 0)
    return None if minutes > 14 * 60 else (minutes if m[1] == "+" else -minutes)


def held_zones(values: Iterable[str]) -> frozenset[int]:
    """The zones of the datetimes among a record's values ("...T17:45:00+01:00": 60)."""
    out = {zone_minutes(m[1]) for v in values for m in _HELD_ZONE.finditer(v)}
    return frozenset(z for z in out if z is not None)


def read_zones(text: str, held: frozenset[int]) -> tuple[str, str]:
    """A claim's ISO datetimes as a date and a clock ("2024-09-18 17:45"), and the zones it
    writes after a clock left out where the record holds that zone (it says which clock, not
    another value); also the first zone written that the record does not hold ("" if none):
    "17:45 (+03:00)" against ``"...T17:45:00+01:00"`` states a time the record does not give.
    """
    unheld = ""

    def iso(m: re.Match[str]) -> str:
        nonlocal unheld
        zone = m[3] or ""
        if zone and zone_minutes(zone) not in held and not unheld:
            unheld = zone
        return f"{m[1]} {m[2]}"

    def written(m: re.Match[str]) -> str:
        nonlocal unheld
        zone = next(z for z in m.groups() if z)
        minutes = zone_minutes(zone)
        if minutes is None:
            return m[0]  # "UTC+27": no zone, left as it is written
        if minutes not in held and not unheld:
            unheld = zone
        return ""

    text = ISO_DATETIME.sub(iso, text)
    if ":" in text or "m" in text.lower():
        text = _CLOCK_ZONE.sub(written, text)
    return text, unheld


# An ISO 8601 duration as APIs write it ("PT37M", "PT3H15M", "P2D", "P6M", "P1Y"): the whole
# value. "M" before "T" is months, after it minutes.
_ISO_DURATION = re.compile(
    r"\s*P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?\s*"
)
_DURATION_UNITS = ("years", "months", "weeks", "days", "hours", "minutes", "seconds")


def duration_in_words(value: str) -> str | None:
    """An ISO 8601 duration written as a reply says it ("PT3H15M": "3 hours 15 minutes (195
    minutes)", the whole in minutes too when it has hours and minutes; "P6M": "6 months");
    None for any other value."""
    m = _ISO_DURATION.fullmatch(value)
    if m is None or not any(m.groups()):
        return None
    parts = [(int(n), unit) for n, unit in zip(m.groups(), _DURATION_UNITS, strict=True) if n]
    text = " ".join(f"{n} {unit if n != 1 else unit[:-1]}" for n, unit in parts)
    if m[5] and m[6] and not any(m.groups()[:4]):
        text += f" ({int(m[5]) * 60 + int(m[6])} minutes)"
    return text


_ISO_DURATION_IN_TEXT = re.compile(
    r"\bP(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?\b"
)


_LENGTH_PAIRS = {"year": ("month", 12), "hour": ("minute", 60), "week": ("day", 7)}
_LENGTH_WORD = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_COMPOUND_LENGTH = re.compile(
    rf"\b(\d{{1,3}}|{_LENGTH_WORD})\s+(year|hour|week)s?,?\s+(?:and\s+)?"
    rf"(\d{{1,3}}|{_LENGTH_WORD})\s+(month|minute|min|day)s?\b",
    re.I,
)


def compound_lengths(text: str, said: dict[str, str] | None = None) -> str:
    """A length of time said in two units written in the smaller one ("four years and four
    months": "52 months", "2 hours 8 minutes": "128 minutes", "a week" not read), so it meets a
    field that holds it (``ageMonths: 52``, ``runtimeMinutes: 128``). ``said`` collects each
    written length with the words the claim said it in (a contradiction quotes those)."""
    if not any(u in text.lower() for u in ("year", "hour", "week")):
        return text

    def whole(m: re.Match[str]) -> str:
        small = "minute" if m[4].lower() == "min" else m[4].lower()
        unit, size = _LENGTH_PAIRS[m[2].lower()]
        a, b = (int(x) if x.isdigit() else NUMBER_WORDS.get(x.lower()) for x in (m[1], m[3]))
        if small != unit or a is None or b is None:
            return m[0]  # "2 hours 10 days": no one length
        written = f"{a * size + b} {unit}s"
        if said is not None:  # the figure alone too: a contradiction may quote only it
            said[written] = said[str(a * size + b)] = m[0]
        return written

    return _COMPOUND_LENGTH.sub(whole, text)


def durations_in_words(text: str) -> str:
    """A text with the ISO 8601 durations it copies written in words ("duration PT37M")."""
    if "P" not in text:
        return text
    return _ISO_DURATION_IN_TEXT.sub(lambda m: duration_in_words(m[0]) or m[0], text)


def duration_minutes(value: str) -> float | None:
    """An ISO 8601 duration in minutes ("PT1H5M": 65.0, "P1W": 10080.0); None for any other
    value and for years and months, whose length in minutes depends on the calendar."""
    m = _ISO_DURATION.fullmatch(value)
    if m is None or not any(m.groups()) or m[1] or m[2]:
        return None
    weeks, days, hours, minutes, seconds = (int(n or 0) for n in m.groups()[2:])
    return weeks * 10080.0 + days * 1440 + hours * 60 + minutes + seconds / 60


# A record's clock is a 24-hour one: "11:30" alone, or in "2026-12-01T11:30:00", is before
# noon, not "either half of the day" as "at 11:30" in a sentence is (from 01 to 09 the
# leading zero says so already)
_MORNING_CLOCK = re.compile(r"^\s*(1[01]:[0-5]\d)(?::[0-5]\d)?\s*$")


def _date_and_clock(m: re.Match[str]) -> str:
    clock = m[2] + " am" if m[2].startswith(("10", "11")) else m[2]
    return f"{m[1]} {clock}"


# The days of the week as records abbreviate them and people write them out ("Mon-Sat",
# "Monday to Saturday"): both are read as "monday-saturday".
_DAY = (
    r"(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?)\.?"
)
_DAY_NAMES = {
    "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
    "fri": "friday", "sat": "saturday", "sun": "sunday",
}  # fmt: skip
_DAY_RANGE = re.compile(
    rf"(?<![\w-]){_DAY}\s*(?:-|\u2013|\u2014|\bto\b|\bthrough\b|\bthru\b|\btill\b|\buntil\b)\s*"
    rf"{_DAY}(?![\w-])",
    re.I,
)
_DAY_WORD = re.compile(_DAY, re.I)
_DAY_TOKEN = re.compile(r"[A-Za-z]+\.?|[^\sA-Za-z]")
_DAY_GLUE = frozenset({"-", "\u2013", "\u2014", ",", "&", "/", "and", "to"})


def _day(abbreviation: str) -> str:
    return _DAY_NAMES[abbreviation.lower()[:3]]


def _range(m: re.Match[str]) -> str:
    # an abbreviation in a claim is a day's only capitalised ("Sat"; "sat" may be the verb)
    if any(len(d) <= 4 and not d[0].isupper() for d in (m[1], m[2])):
        return m[0]
    return f"{_day(m[1])}-{_day(m[2])}"


def weekday_ranges(text: str) -> str:
    """A range of days written out ("Monday to Saturday", "Mon–Sat") as ``monday-saturday``,
    the way :func:`weekday_value` writes a record's."""
    return _DAY_RANGE.sub(_range, text)


def weekday_value(value: str) -> str:
    """A field value that is only days of the week ("Mon-Sat", "Sat & Sun") with each day
    written out ("monday-saturday", "saturday & sunday"); any other value unchanged ("sat"
    may be a verb, "sun" a noun: only a value of days alone is read as days)."""
    tokens = _DAY_TOKEN.findall(value)
    days = [t for t in tokens if _DAY_WORD.fullmatch(t)]
    if not days or any(t not in days and t.lower() not in _DAY_GLUE for t in tokens):
        return value
    days_out = _DAY_TOKEN.sub(lambda m: _day(m[0]) if _DAY_WORD.fullmatch(m[0]) else m[0], value)
    return weekday_ranges(days_out)


def normalise_value(value: str) -> str:
    """A field value with an ISO datetime split into its date and time, an ISO duration in
    words, padded times and both ends of a price band written out."""
    value = duration_in_words(value) or value
    text = normalise_times(ISO_DATETIME.sub(_date_and_clock, _MORNING_CLOCK.sub(r"\1 am", value)))
    return _MONEY_RANGE.sub(lambda m: f"{m[1]}{m[2]}{m[3]}{m[1]}", text)


def _denied_bound(q: Quantity, claim: str) -> tuple[int, re.Match[str] | None]:
    """A denied bound ("no more than") in the short window before the figure, and where the
    window starts in the claim."""
    window = max(0, q.start - 24)
    return window, _DENIED_BOUND.search(claim[window : q.start].rstrip())


def bounds(q: Quantity, claim: str) -> tuple[bool, bool]:
    """Whether the claim puts an upper or a lower bound on its figure ("under £20", "£30
    minimum")."""
    # a bound's words stand right beside the figure: read a short window, not the whole claim
    before, after = claim[max(0, q.start - 24) : q.start].rstrip(), claim[q.end : q.end + 24]
    _, denied = _denied_bound(q, claim)
    if denied:
        return bool(denied[1]), bool(denied[2])
    upper = bool(_UPPER.search(before) or _UPPER_AFTER.match(after))
    lower = bool(_LOWER.search(before) or _LOWER_AFTER.match(after))
    return upper, lower


def bound_words(q: Quantity, claim: str) -> list[str]:
    """The words of a denied bound before the figure ("won't cost you more than"), which
    state it as much as the figure does; empty when there is none."""
    window, denied = _denied_bound(q, claim)
    if denied is None:
        return []
    start = window + denied.start()
    while start and (claim[start - 1].isalnum() or claim[start - 1] in "'’"):
        start -= 1  # the whole word: "won't", not "n't"
    return claim[start : q.start].split()


def within_band(q: Quantity, value: str, quantities: list[Quantity], claim: str = "") -> bool:
    """Whether the claim's figure ``q`` lies in the band or on the side of the bound that the
    field ``value`` (read as ``quantities``) states: 22 in ``"£20-£25"``, 15 under ``"less
    than £20"``. ``claim`` is the claim's text (``q`` is read from it): a bound the claim
    puts on the figure must face the field's way ("over £20" or "a £20 minimum" is not
    ``"less than £20"``, "under £30" is not ``"more than £30"``). Times are never bands here
    (an opening range is not "open at 3 pm")."""
    if q.kind not in _BAND_KINDS:
        return False
    same = [e for e in quantities if e.kind == q.kind and e.currency == q.currency]
    if not same:
        return False
    if len(same) == 2 and len(quantities) == 2:
        between = value[same[0].end : same[1].start].strip().lower()
        if between in ("-", "–", "to", "and"):
            lo, hi = sorted((same[0].value, same[1].value))
            upper, lower = bounds(q, claim)
            if upper:  # "under £25" for "£20-£25" at most, never "under £20"
                return q.value == hi
            if lower:
                return q.value == lo
            return lo <= q.value <= hi
    if len(same) == 1:
        e = same[0]
        upper, lower = bounds(q, claim)
        if _UPPER.search(value[: e.start].rstrip()):
            return q.value <= e.value and not lower
        if _LOWER.search(value[: e.start].rstrip()):
            return q.value >= e.value and not upper
    return False
