"""A reply that picks one result of a list: "the cheapest", "the earliest flight", "the only
one with free cancellation".

A built-in check of the ``Check`` protocol (``registry.py``), named ``list_pick``. It reads the
evidence's field chunks, groups them into lists of records (``results[0]``, ``results[1]``,
...; at least two), and finds the one item the claim names, by a value no other item holds
(a flight number, a hotel's name) or by the compared figure itself. Then:

- a superlative ("the cheapest", "the earliest", "the highest rated") measured on the one field
  of the list it can mean (a price, a time, a duration, a distance, a rating; the words are data,
  ``lexicon.json``: ``superlatives``, ``measures_of_lists``): the named item's value is the list's
  extreme (supported), or another item's is (a contradiction naming that item's field);
- "only" with a yes/no field the claim names by its key's words ("the only refundable one"):
  the named item is the one item where it is true, or it is not;
- a count of the whole list, with nothing that narrows it ("I found 4 flights.", "There are
  three options available."), against the number of items of the evidence's one list.

Precision first: no finding when the claim names no item or several, when two fields could be
measured, when the superlative is negated, ranked ("second cheapest") or compared ("cheaper
than the cheapest"), or when the named item is the extreme of the items that share a value the
claim also states ("the cheapest Alaska flight", "the cheapest nonstop"): the claim may say so.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from langchain_qgate.grounding.checks._lexicon import (
    AUXILIARIES,
    FUNCTION_WORDS,
    MONTHS,
    WEEKDAYS,
    table,
    words,
)
from langchain_qgate.grounding.checks.checks import NUMBER_WORDS, extract_quantities
from langchain_qgate.grounding.evidence.structured import field_info, field_words
from langchain_qgate.grounding.records._field_values import duration_minutes
from langchain_qgate.schemas import ContradictionKind, EvidenceChunk, Finding

__all__ = ["ListPick", "said_pick", "supported_pick"]

_SUPERLATIVES: dict[str, list[str]] = table("superlatives")
"""Superlative phrase -> [``min`` or ``max``, the measure it compares]."""
_MEASURES: dict[str, list[str]] = table("measures_of_lists")
"""Measure -> the words of a field key that name it (``price``: price, cost, fare...)."""
_ROLE_WORDS: dict[str, list[str]] = table("time_roles")
"""A time field's role (``start``, ``end``) -> the words a claim or a key says it with."""
_NOT_A_PICK = words("lists.not_a_pick")
_GENERIC = words("lists.generic_heads")
"""Nouns that head a pick without narrowing it ("the cheapest option", "the earliest one")."""
_ONLY_FLIPS = words("lists.only_flips")
"""Words that turn "the only one with X" into "the only one without X": not read."""
_HYPHENED = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
"""Words that make the superlative no pick of this item: a rank, a comparison, a negation."""
_PHRASE = re.compile(
    r"\b("
    + "|".join(sorted((re.escape(p) for p in _SUPERLATIVES), key=len, reverse=True))
    + r")\b",
    re.I,
)
_ALL_ROLES = frozenset(w for ws in _ROLE_WORDS.values() for w in ws)
_INDEX = re.compile(r"^(.*)\[(\d+)\]$")
_WORD = re.compile(r"[a-z0-9]+")
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::\d{2})?\s*([ap]\.?m\.?)?$", re.I)
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?")
_FIGURE = re.compile(
    r"^(?:[$€£¥]|US\$|(?:USD|EUR|GBP|JPY|CAD|AUD|INR)\s?)?(-?\d[\d,]*(?:\.\d+)?)\s*"
    r"(?:[$€£%]|[a-z]{1,5})?$",
    re.I,
)
_FIGURE_TOKENS = re.compile(r"\d[\d,.:]*\d|\d")
"""A claim's figures as written ("8.50", "12:30", "1,200"), each whole."""
_BARE = re.compile(r"^[\d\s.,:$€£¥%+-]*$")
_TRUE = frozenset({"true", "yes", "y", "1"})
_NULLS = frozenset({"", "null", "none", "n/a"})
_FALSE = frozenset({"false", "no", "n", "0"})


@dataclass(frozen=True)
class _Field:
    """One field of one item of a list."""

    chunk: EvidenceChunk
    key: str  # the key's words ("price usd")
    value: str


@dataclass
class _List:
    """The items of one list, each a mapping from its last key to its field, read once: per
    key, the items each value names and the figures (``None``: a key whose values are not
    all figures; an item whose value is null or missing has none: a postponed game's
    attendance)."""

    path: str
    items: list[dict[str, _Field]]
    naming: dict[str, dict[str, list[int]]] = dataclass_field(default_factory=dict)
    figures: dict[str, list[float | None] | None] = dataclass_field(default_factory=dict)

    def __post_init__(self) -> None:
        for i, item in enumerate(self.items):
            for key, f in item.items():
                if _BARE.match(f.value) or f.value.lower() in _TRUE | _FALSE:
                    continue  # bare figures and yes/no values name no item
                value = " ".join(_tokens(f.value))
                if len(value) >= 2:
                    self.naming.setdefault(key, {}).setdefault(value, []).append(i)
                head = _tokens(f.value.split(",", 1)[0])
                if "," in f.value and len(head) >= 2:  # "Wigmore Street" of "..., Marylebone"
                    self.naming[key].setdefault(" ".join(head), []).append(i)
        for key in self.items[0]:
            held = [it[key].value if key in it else "" for it in self.items]
            read = [None if v.strip().lower() in _NULLS else _measure(v) for v in held]
            unread = any(
                r is None and v.strip().lower() not in _NULLS
                for r, v in zip(read, held, strict=True)
            )
            measured = sum(r is not None for r in read)
            self.figures[key] = None if unread or measured < 2 else read


def _lists(evidence: Sequence[EvidenceChunk]) -> list[_List]:
    """The lists of at least two records the evidence's field chunks hold, in order (read once
    per evidence: a claim's candidates are every chunk, in another order)."""
    key = frozenset(id(c) for c in evidence)
    last = _LAST[0]
    if last is not None and last[0] == key:
        return last[1]
    found = _read_lists(evidence)
    _LAST[0] = (key, found, tuple(evidence))  # the chunks kept alive: their ids stay theirs
    return found


_LAST: list[tuple[frozenset[int], list[_List], tuple[EvidenceChunk, ...]] | None] = [None]
"""The last evidence read (its chunks' ids, its lists, the chunks), replaced as one tuple."""


def _read_lists(evidence: Sequence[EvidenceChunk]) -> list[_List]:
    groups: dict[str, dict[int, dict[str, _Field]]] = {}
    for chunk in evidence:
        info = field_info(chunk)
        if info is None or info.get("kind") != "value":
            continue
        m = _INDEX.match(info.get("record", ""))
        if m is None:
            continue
        key = info["path"][len(info["record"]) :].lstrip(".")
        if not key or "." in key or "[" in key:
            continue  # a field of the item itself, not of something nested in it
        items = groups.setdefault(m[1], {})
        items.setdefault(int(m[2]), {})[key] = _Field(chunk, field_words(key), info["value"])
    return [
        _List(path, [items[i] for i in sorted(items)])
        for path, items in groups.items()
        if len(items) >= 2
    ]


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _measure(value: str) -> float | None:
    """A comparable figure: a number ("$189", "1,200"), a clock ("7:15 pm": minutes), an ISO
    date or date-time (a number that orders them); None otherwise."""
    text = value.strip()
    minutes = duration_minutes(text)  # "PT1H5M": the shortest crossing, the longest class
    if minutes is not None:
        return minutes
    m = _DATE.match(text)
    if m:
        y, mo, d, hh, mm = m.groups()
        return float(f"{y}{mo}{d}{hh or '00'}{mm or '00'}")
    m = _CLOCK.match(text)
    if m:
        hours, minutes, half = int(m[1]), int(m[2]), (m[3] or "").lower().replace(".", "")
        if half == "pm" and hours < 12:
            hours += 12
        if half == "am" and hours == 12:
            hours = 0
        return float(hours * 60 + minutes)
    m = _FIGURE.match(text)
    if m:
        return float(m[1].replace(",", ""))
    return None


def _named(claim: str, found: _List, measured: str | None) -> set[int]:
    """The items the claim names: by a value no other item holds (its words in the claim in
    order), or by the figure of the measured field."""
    said = " " + " ".join(_tokens(claim)) + " "
    named: set[int] = set()
    for key, values in found.naming.items():
        if key == measured:
            continue
        for value, where in values.items():
            if len(where) == 1 and f" {value} " in said:
                named.add(where[0])
    figures = found.figures.get(measured or "")
    if figures is not None:
        said_figures = {_measure(t) for t in _FIGURE_TOKENS.findall(claim)}
        named.update(i for i, v in enumerate(figures) if v in said_figures)
    return named


def _content(said: Iterable[str]) -> set[str]:
    """The words that can name something: not a function word, not a single letter."""
    return {w for w in said if len(w) >= 2 and w not in FUNCTION_WORDS | AUXILIARIES}


def _keyed(key: str, vocabulary: Iterable[str]) -> bool:
    return any(w in vocabulary for w in key.split())


def _measured_fields(phrase_measure: str, claim_words: set[str], found: _List) -> list[str]:
    """The keys of the list the measure can mean, narrowed by the role the claim gives a time
    ("arrives earliest": the arrival); a time's start by default ("the earliest flight")."""
    first = found.items[0]
    keys = [
        k
        for k, f in first.items()
        if _keyed(f.key, _MEASURES.get(phrase_measure, ())) and found.figures.get(k) is not None
    ]
    if phrase_measure != "time" or len(keys) < 2:
        return keys
    dates = [k for k in keys if _DATE.match(first[k].value)]
    if dates and len(dates) < len(keys) and not claim_words & _ALL_ROLES:
        return []  # a day and a time of day: which orders the list is not said
    for role in ("end", "start"):
        cues = set(_ROLE_WORDS[role])
        if claim_words & cues:
            return [k for k in keys if _keyed(first[k].key, cues)]
    return [k for k in keys if _keyed(first[k].key, _ROLE_WORDS["start"])]


_BY_HEAD = frozenset({"named", "size"})
"""Measures of a superlative read from the noun after it ("the highest *attendance*")."""
_ENDS = {"min": frozenset({"min", "minimum", "from", "lowest", "starting"}),
         "max": frozenset({"max", "maximum", "highest", "top"})}  # fmt: skip
"""Key words of the end of a range a superlative's direction compares by."""
_HEAD_WORDS = 3  # words after a superlative read for the noun that names its field


def _phrase_at(claim: str, phrase: str) -> re.Match[str] | None:
    """Where the claim writes the superlative ``phrase`` (its first occurrence)."""
    return re.search(rf"\b{re.escape(phrase)}\b", claim, re.I)


def _headed(claim: str, phrase: str, found: _List) -> list[str]:
    """The keys of the list that the words right after the superlative ``phrase`` name ("the
    biggest *attendance*", "the most regular *bikes*"), the ones naming most of those words;
    none when a function word follows it ("most of them")."""
    m = _phrase_at(claim, phrase)
    if m is None:
        return []
    head: list[str] = []
    for w in _tokens(claim[m.end() : m.end() + 60])[:_HEAD_WORDS]:
        if w in FUNCTION_WORDS | AUXILIARIES or w.isdigit():
            break
        head.append(w)
    scored: dict[str, int] = {}
    for k, f in found.items[0].items():
        if found.figures.get(k) is None:
            continue
        said = {*f.key.split(), *(_stem(w) for w in f.key.split())}
        hits = sum(w in said or _stem(w) in said for w in head)
        if hits:
            scored[k] = hits
    best = max(scored.values(), default=0)
    return [k for k, n in scored.items() if n == best]


def _figured(claim: str, found: _List) -> list[str]:
    """The one key of the list holding a figure the claim writes, in one item only."""
    said = {_measure(t) for t in _FIGURE_TOKENS.findall(claim)} - {None}
    keys = [
        k
        for k, values in found.figures.items()
        if values is not None and sum(v in said for v in values) == 1
    ]
    return keys if len(keys) == 1 else []


def _naming_keys(claim: str, found: _List, pick: int) -> set[str]:
    """The keys whose value, stated in the claim, names the pick (its name, its code)."""
    said = " " + " ".join(_tokens(claim)) + " "
    return {
        key
        for key, values in found.naming.items()
        for value, where in values.items()
        if where == [pick] and f" {value} " in said
    }


def _qualified(  # noqa: PLR0917
    claim: str, claim_words: set[str], found: _List, pick: int, key: str, phrase: str, low: bool
) -> bool:
    """Whether the pick is the extreme of the items sharing a value of another field that the
    claim states ("the cheapest nonstop", "the closest Mexican place", "the cheapest Alaska
    flight"): not the measured field, nor the fields that name the pick."""
    items, values = found.items, found.figures[key] or []
    stems = {_stem(w) for w in claim_words}
    naming = _naming_keys(claim, found, pick)
    # one value names the pick; with two ("the closest Mexican place is Taco Loco"), either may
    # be the part of the list the claim picks from
    skip = (naming if len(naming) == 1 else set()) | {key}
    phrase_words = _phrase_words(claim, phrase)
    for other, f in items[pick].items():
        if other in skip:
            continue
        said = _value_words(f.value, claim)
        by_value = bool(said & claim_words)
        if by_value and not said & phrase_words:
            continue  # the value names the pick after its verb ("the shortest is the talk")
        by_key = {_stem(w) for w in _content(f.key.split())}
        if (
            not by_value
            and not by_key & (claim_words | stems)
            and not any(len(w) >= 4 and w in c for w in by_key for c in claim_words)
        ):
            continue
        share = [i for i, it in enumerate(items) if other in it and it[other].value == f.value]
        if len(share) == 1 and not by_value:
            continue  # "flight" names the key of a flight number, not a part of the list
        if len(share) < len(items):
            among = [v for i in share if (v := values[i]) is not None]
            if among and values[pick] == (min(among) if low else max(among)):
                return True
    return False


_CLAUSE_END = re.compile(r"[,;:()\u2013\u2014]|\s-\s")


def _phrase_words(claim: str, phrase: str) -> set[str]:
    """The words that may narrow the list a superlative picks from: its own noun phrase, from
    the superlative to the first verb or break ("the cheapest *Alaska flight* is ...", "the
    cheapest *room with a screen*, at ..."), and every word before it ("*Alaska's AS 345* is
    the cheapest", "*Of the lifts running*, Vallon has the biggest"); not the words after its
    verb, which name the pick ("the shortest is *the curator talk*")."""
    m = _phrase_at(claim, phrase)
    if m is None:
        return set()
    out = set(_tokens(claim[: m.start()]))  # the subject too: "Alaska's AS 345 is the cheapest"
    rest = claim[m.end() :]
    cut = _CLAUSE_END.search(rest)
    for w in _tokens(rest[: cut.start()] if cut else rest):
        if w in AUXILIARIES:
            break
        out.add(w)
    return out


def _value_words(value: str, claim: str) -> set[str]:
    """A field value's words the claim can state: its content words, and its figures only as
    whole figures of the claim (the "50" of a duration is not the pence of "£8.50")."""
    figures = set(_FIGURE_TOKENS.findall(claim))
    return {w for w in _content(_tokens(value)) if not w.isdigit() or w in figures}


def _unplaced(claim: str, found: _List, pick: int, key: str, phrase: str) -> int:
    """How many words of the claim say something the list does not place: not the superlative,
    the pick's values, the measure's and its key's words, a number word, a generic head
    ("option", "one"); a hyphenated modifier ("pet-friendly", "5-star") counts twice. Two or
    more may narrow the pick to a part of the list ("the cheapest hotel in the centre")."""
    item = found.items[pick]
    known = set(_tokens(phrase)) | _GENERIC | set(NUMBER_WORDS) | set(MONTHS) | set(WEEKDAYS)
    for f in item.values():
        known |= set(_tokens(f.value))
    known |= set(item[key].key.split()) | {w for ws in _MEASURES.values() for w in ws}
    known |= {w for ws in _ROLE_WORDS.values() for w in ws}
    # the list's own noun ("rooms": "the cheapest room") and what is true of the pick ("with
    # a screen" of ``"screen": "Y"``; a part of the list it is not the extreme of is read
    # by ``_qualified`` first)
    known |= set(field_words(found.path.rsplit(".", 1)[-1]).split())
    known |= {w for f in item.values() if f.value.lower() in _TRUE for w in f.key.split()}
    # the pick's own figures, however written ("at £27.50" of ``"price_gbp": 27.5``)
    held = {v for f in item.values() if (v := _measure(f.value)) is not None}
    for q in extract_quantities(claim):
        if q.value in held:
            known |= set(_tokens(q.raw))
    known |= {_stem(w) for w in known}
    left = 0
    for word in _HYPHENED.findall(claim.lower()):
        if not {_stem(w) for w in _tokens(word)} <= known:
            left += 2
    for word in _tokens(claim):
        if _stem(word) in known or (not word.isdigit() and word in FUNCTION_WORDS | AUXILIARIES):
            continue
        left += 1
    return left


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") else word


_COUNT = re.compile(
    r"^\s*(?:(?:i|we)\s+(?:found|have|got|see)|there\s+(?:are|were)|(?:i|we)\s*'ve\s+found)\s+"
    r"(\w+)\s+([a-z]+s)(?:\s+(?:available|in\s+total|altogether|for\s+you))?\s*[.!]?\s*$",
    re.I,
)
"""A count of the whole list, and nothing that narrows it ("I found 4 flights.", "There are
three options available."): "3 nonstop flights" or "3 flights under $200" count a part."""


def _count(claim: str, found: _List) -> list[Finding]:
    """A count of the results against the list's length (the evidence's one list)."""
    m = _COUNT.match(claim)
    if m is None:
        return []
    said = m[1].lower()
    n = int(said) if said.isdigit() else NUMBER_WORDS.get(said)
    if n is None:
        return []
    total = len(found.items)
    first = next(iter(found.items[0].values())).chunk
    if n == total:
        return [Finding(kind="supported", reason=f"{total} results", evidence_id=first.id)]
    return [
        Finding(
            kind="contradiction",
            reason=f"the list holds {total} results",
            claim_value=f"{n} {m[2]}",
            evidence_value=f"{total} results",
            evidence_id=first.id,
            field=found.path or None,
            value_kind="number",
        )
    ]


class ListPick:
    """The ``list_pick`` check (module docstring)."""

    name = "list_pick"

    def __call__(self, claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
        claim_words = set(_tokens(claim))
        if claim_words & _NOT_A_PICK or "?" in claim:
            return []
        if not (_PHRASE.search(claim) or "only" in claim_words or _COUNT.match(claim)):
            return []  # nothing picked or counted: the evidence need not be read
        lists = _lists(evidence)
        if not lists:
            return []
        out: list[Finding] = []
        for found in lists:
            out.extend(self._superlative(claim, claim_words, found))
            out.extend(self._only(claim, claim_words, found))
        if len(lists) == 1:
            out.extend(_count(claim, lists[0]))
        return out[:1]

    def _superlative(self, claim: str, claim_words: set[str], found: _List) -> list[Finding]:
        phrase = _the_superlative(claim)
        if not phrase:
            return []
        direction, measure = _SUPERLATIVES[phrase]
        keys = _measured_fields(measure, claim_words, found)
        if not keys and measure in _BY_HEAD:  # "the biggest attendance", "the most bikes"
            keys = _headed(claim, phrase, found)
        figured = not keys and measure in _BY_HEAD
        if figured:  # "your biggest holding at €3,663.74": the field of the figure it gives
            keys = _figured(claim, found)
        if len(keys) == 2:  # "the cheapest" of ``minPrice`` and ``maxPrice``: the lower end
            first = found.items[0]
            keys = [k for k in keys if set(first[k].key.split()) & _ENDS[direction]] or keys
        if len(keys) != 1:
            return []
        (key,) = keys
        items = found.items
        named = _named(claim, found, key)
        values = found.figures[key]
        if len(named) != 1 or values is None:
            return []
        (pick,) = named
        held = [v for v in values if v is not None]
        if values[pick] is None:
            return []  # the pick has no such figure (a null): not read
        best = min(held) if direction == "min" else max(held)
        if values[pick] == best:
            f = items[pick][key]
            return [
                Finding(
                    kind="supported",
                    reason=f"{phrase} of the {len(items)} results by {f.key}",
                    evidence_id=f.chunk.id,
                    field=f.chunk.id,
                )
            ]
        if figured or _qualified(
            claim, claim_words, found, pick, key, phrase, low=direction == "min"
        ):
            return []  # a measure the claim does not name is never read as a wrong pick
        if _unplaced(claim, found, pick, key, phrase) >= 2:
            return []  # the claim may pick from a part of the list the list cannot tell
        winner = values.index(best)
        w, mine = items[winner][key], items[pick][key]
        return _contradicted(
            w,
            f"the {phrase} of the {len(items)} results by {w.key} is item {winner + 1}",
            f"{mine.value} (item {pick + 1})",
            f"{w.value} (item {winner + 1})",
            "number",
        )

    def _only(self, claim: str, claim_words: set[str], found: _List) -> list[Finding]:
        if "only" not in claim_words or claim_words & _ONLY_FLIPS:
            return []
        items = found.items
        keys = [
            k
            for k, f in items[0].items()
            if all(k in it and it[k].value.lower() in _TRUE | _FALSE for it in items)
            and _content(f.key.split())
            and _content(f.key.split()) <= claim_words
        ]
        if len(keys) != 1:
            return []
        (key,) = keys
        named = _named(claim, found, None)
        if len(named) != 1:
            return []
        (pick,) = named
        true = [i for i, it in enumerate(items) if it[key].value.lower() in _TRUE]
        if true == [pick]:
            f = items[pick][key]
            return [Finding(kind="supported", reason="the only one", evidence_id=f.chunk.id)]
        said = " ".join(w for w in items[pick][key].key.split() if w in _content([w]))
        if pick not in true:  # the named item is not one of them
            f = items[pick][key]
            return _contradicted(
                f, f"{said} is {f.value} for item {pick + 1}", f"only item {pick + 1}", f.value
            )
        other = next(i for i in true if i != pick)
        return _contradicted(
            items[other][key],
            f"{said} holds for {len(true)} of the {len(items)} results",
            f"only item {pick + 1}",
            f"also item {other + 1}",
        )


def _the_superlative(claim: str) -> str:
    """The one superlative of the claim ("" for none or several); of two, the one that names
    its measure ("the cheapest and most popular": "cheapest")."""
    phrases = {m.lower() for m in _PHRASE.findall(claim)}
    if len(phrases) > 1:
        phrases = {p for p in phrases if _SUPERLATIVES[p][1] != "named"}
    return next(iter(phrases)) if len(phrases) == 1 else ""


_PICKED = re.compile(r"\b(?:the|its|their)\s+(?:(?:one|two|three|single|very)\s+)?$", re.I)
_NAMED_ONLY = frozenset(p for p, (_, measure) in _SUPERLATIVES.items() if measure == "named")
_PICK_WORDS = re.compile(
    r"\b(" + "|".join(map(re.escape, sorted(words("lists.pick_words")))) + r")\b", re.I
)
"""Words that pick an item without naming a measure the list check reads ("the best deal",
"costs the least"): a pick, never verified."""


def said_pick(claim: str) -> str:
    """The superlative a claim picks an item with ("the cheapest", "is cheapest", "the most
    regular bikes"), "" for none. A superlative that names no measure ("most", "highest")
    picks only after "the", "its" or "their": "most days" or "at most" pick nothing."""
    for m in itertools.chain(_PHRASE.finditer(claim), _PICK_WORDS.finditer(claim)):
        phrase = m[1].lower()
        if phrase in _SUPERLATIVES and phrase not in _NAMED_ONLY:
            return phrase
        if _PICKED.search(claim[max(0, m.start() - 24) : m.start()]):
            return phrase
    return ""


def supported_pick(claim: str, evidence: Sequence[EvidenceChunk]) -> str:
    """The superlative of a claim that picks the one item of a list that is its extreme ("the
    cheapest", of the item whose price is the lowest), "" when it picks none or another: the
    record accounts for the word as it does for a value."""
    if not _PHRASE.search(claim):
        return ""
    claim_words = set(_tokens(claim))
    if claim_words & _NOT_A_PICK or "?" in claim:
        return ""
    pick = ListPick()
    for found in _lists(evidence):
        findings = pick._superlative(claim, claim_words, found)
        if findings and findings[0].kind == "supported":
            return _the_superlative(claim)
    return ""


def _contradicted(
    f: _Field,
    reason: str,
    claim_value: str,
    evidence_value: str,
    kind: ContradictionKind = "entity",
) -> list[Finding]:
    """A contradiction resting on field ``f`` of an item."""
    return [
        Finding(
            kind="contradiction",
            reason=reason,
            claim_value=claim_value,
            evidence_value=evidence_value,
            evidence_id=f.chunk.id,
            field=f.chunk.id,
            value_kind=kind,
        )
    ]
