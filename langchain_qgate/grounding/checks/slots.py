"""Slot-aligned contradictions: the evidence says the same thing with another value.

A contradiction is a claim of precision, so it is reported only when an evidence passage
states the same thing as the claim with a different value **in the same slot**:

1. Claim and passage are turned into token streams in which every value (a number, an amount,
   a percentage, a date, a time of day, a rank, a name) is one placeholder of its type.
2. The streams are aligned word by word (``difflib``; deterministic). Two values sit in the
   same slot when their placeholders are aligned *and* a shared content word stands next to
   them in the aligned stretch ("born in <Warsaw>" / "born in <Krakow>"; "King <Harald V> of
   Sweden" / "King <Carl XVI Gustaf> of Sweden"). A list ("Hanks and <Rita Wilson>") or a
   value in a stretch the passage words differently has no such anchor.
3. The two values are of one kind and type (a person is not a place, a per-share figure is
   not a total, 5 km is not 5 miles), and the claim's own value appears nowhere in the
   passage (in any form: "56 000" = "56,000", "9 pm" = "21:00", "Presley" = "Elvis Presley").

A passage that disagrees on a date *and* on something else is about another time or event;
it makes the claim unsupported, not contradicted. Negation is compared on the passage that
restates the claim, and only for cues whose scope both texts share; a conditional clause ("if
the latch doesn't catch", "whether it aligns") states no polarity of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from langchain_qgate.grounding.checks._lexicon import (
    COLLECTIVES,
    FUNCTION_WORDS,
    UNITS,
    bare,
    first_verb,
    has_finite_verb,
    tokens_with_offsets,
    words,
)
from langchain_qgate.grounding.checks.checks import (
    Quantity,
    condition_spans,
    conflicting,
    content_stems,
    coverage,
    extract_entities,
    extract_quantities,
    negated_heads,
    negated_spans,
    negation_count,
    negations_about,
    quantities_match,
    same_written_value,
    spelt_alike,
    stem,
    tokens,
    without_cues,
    word_weight,
)
from langchain_qgate.grounding.claims._compound import split_compound
from langchain_qgate.schemas import Contradiction, ContradictionKind

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "Passage",
    "Value",
    "all_found",
    "answer_conflict",
    "found_in",
    "lifespan_conflict",
    "name_head",
    "negation_clash",
    "opens_with_parenthesis",
    "passage",
    "slot_conflict",
    "stated_in",
    "value_free_stems",
]

_CLAUSE_SPLIT = re.compile(r"([;:,]|\s(?:but|while|whereas|although|though)\s)", re.I)
_COORDINATOR = re.compile(r"\s*(?:and|but|yet|or|while|whereas)\s", re.I)
# A denied object coordinated with another ("200 adults and no children", "bicycles but not
# cars"): a clause with the verb of the one before it.
_GAP_SPLIT = re.compile(r"\s(?:and|or)\s+(?=(?:no|not)\s)", re.I)
_GAPPED = re.compile(r"\s*(?:(?:and|but|or|yet)\s+)?(?:no|not)\s", re.I)
_MAX_SUBJECT = 4  # an "-s" / "-ed" word read as the verb comes at most this many words in
_CLAUSE_COVERAGE = 0.6  # a negated clause of the passage must restate this much of the claim
_ANCHOR_SPAN = 3  # a shared content word at most this many words from the value
_MAX_GAP = 2  # function words between two matched stretches of one run
_HEDGE_TOLERANCE = 0.5  # "about 500" is not contradicted by 480 (only by < 250 or > 750)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_TITLES = words("slots.titles")
_ORG_WORDS = words("slots.org_words")
_PLACE_BEFORE = words("slots.place_before")
# "released in October" / "released on March 30": prepositions of time and place align.
# Frequent words that still name a slot next to a figure ("up 15%", "down 3%").
_DIRECTION_WORDS = frozenset({"up", "down"})
_SAME_KEY = {**dict.fromkeys(("in", "on", "at", "during"), "in"), "an": "a"}
_NAME_GLUE = words("slots.name_glue")
# Regions contain other places: "introduced to Europe" does not deny "introduced to Spain".
_REGIONS = words("slots.regions")
_BOUND_BELOW = re.compile(
    r"(?:over|more than|at least|upwards of|in excess of|just over|above|exceeding)\s*\S{0,2}$",
    re.I,
)
_BOUND_ABOVE = re.compile(
    r"(?:under|less than|fewer than|up to|at most|just under|below|nearly|almost)\s*\S{0,2}$",
    re.I,
)
_SCALE_WORDS = re.compile(r"\d\s?(?:thousand|million|billion|trillion|mn|bn|tn|[kmbt])\b", re.I)
_PER_SHARE = re.compile(r"\s*(?:a|per)\s+(?:diluted\s+|basic\s+)?share\b", re.I)
_NON_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=32)  # one question, read for each value of each claim
def _spaced_words(text: str) -> str:
    return f" {_NON_WORD.sub(' ', text.lower()).strip()} "


def stated_in(value: str, question: str) -> bool:
    """Whether ``question`` states ``value`` as whole words: a value the question gave is not
    the claim's own ("2" is not given by "in 2024", nor "Hi" by "this")."""
    words = _spaced_words(value)
    return len(words) > 2 and words in _spaced_words(question)


@dataclass(frozen=True, slots=True)
class Value:
    """A value in a text: a quantity or a name.

    Attributes:
        key: Placeholder compared by the aligner (``<num>``, ``<date>``, ``<ent>`` ...).
        text: As written.
        start: Offset in the text.
        end: End offset.
        quantity: The parsed quantity (None for names).
        unit: Stem of the unit word after a quantity ("dogs", "month"), or "".
        etype: For names: ``person``, ``org``, ``place`` or "" (unknown).
        core: For names: lower-cased name words without titles and glue words.
        subject: It opens its sentence (the subject, as far as position tells).
        negated: A negation governs it ("not an album by <X>"): the text denies it.
    """

    key: str
    text: str
    start: int
    end: int
    quantity: Quantity | None = None
    unit: str = ""
    etype: str = ""
    core: frozenset[str] = frozenset()
    subject: bool = False
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Passage:
    """A text prepared for alignment: its token keys, values and content stems."""

    text: str
    keys: tuple[str, ...]
    value_at: tuple[int, ...]  # index into ``values`` for each key, -1 for a word
    content: tuple[bool, ...]  # whether each key is a content word
    values: tuple[Value, ...]
    stems: frozenset[str]


def _quantity_key(q: Quantity) -> str:
    if q.ordinal:
        return "<rank>"
    if q.kind in ("number", "money"):
        return "<num>"
    return f"<{q.kind}>"


def _unit(text: str, end: int, raw: str) -> str:
    """The unit word written with a value ("24-month", "12 months", "$100,000-a-week")."""
    if "-" in raw and raw[-1:].isalpha():
        return stem(raw.rsplit("-", 1)[1].lower())
    words = _WORD.findall(text[end : end + 40])[:4]
    for k, word in enumerate(words[:3]):
        low = word.lower()
        if low in ("a", "an", "per", "each"):
            continue
        if word_weight(low) <= 0.0 or word[:1].isdigit():
            return ""
        after = words[k + 1].lower() if k + 1 < len(words) else ""
        # "19 chromosome pairs" counts pairs, not chromosomes
        return stem(after if after in COLLECTIVES else low)
    return ""


def _entity_type(text: str, start: int, words: Sequence[str]) -> str:
    lowered = [w.lower().strip(".,") for w in words]
    if lowered[0] in _TITLES:
        return "person"
    if any(w in _ORG_WORDS for w in lowered):
        return "org"
    before = _WORD.findall(text[max(0, start - 12) : start])
    if before and before[-1].lower() in _TITLES:
        return "person"
    if before and before[-1].lower() in _PLACE_BEFORE:
        return "place"
    return ""


def name_head(name: str) -> str:
    """The word a name is known by: its last word before any "of" ("Curie" in "Marie Curie",
    "Harald" in "King Harald V of Sweden"), lower-cased; "" when there is none."""
    words = name.split()
    if "of" in words[1:]:
        words = words[: words.index("of", 1)]
    for w in reversed(words):
        low = w.lower().strip(".,'’")
        if len(low) > 1 and low not in _TITLES and low not in _NAME_GLUE:
            return low
    return ""


def _core(words: Sequence[str]) -> frozenset[str]:
    out = set()
    for w in words:
        low = w.lower().strip(".,'’")
        if low.endswith(("'s", "’s")):
            low = low[:-2]
        if low and low not in _TITLES and low not in _NAME_GLUE:
            out.add(low)
    return frozenset(out)


_LEADING_ARTICLE = re.compile(r"\s*(?:(?:the|a|an)\s+)?", re.I)


def _values(text: str) -> list[Value]:
    values = _raw_values(text)
    opening = _LEADING_ARTICLE.match(text)
    first = opening.end() if opening else 0
    denied = negated_spans(text)
    return [
        replace(
            v,
            subject=v.start == first,
            negated=any(a <= v.start < b for a, b in denied),
        )
        for v in values
    ]


def _raw_values(text: str) -> list[Value]:
    out: list[Value] = []
    spans: list[tuple[int, int]] = []
    units: dict[int, str] = {}  # where a unit written after a count starts -> the unit
    for q in extract_quantities(text):
        if q.reference:
            continue  # "step 4" names a place in a text, not a value
        end = max(q.end, q.start + len(q.raw))
        # A unit belongs to a count or a rank ("340 people", "second album"), not to a date,
        # a time or a percentage ("2024 revenue" is no unit of 2024).
        counted = q.kind in ("number", "money")
        unit = _unit(text, q.end, q.raw) if counted else ""
        out.append(Value(_quantity_key(q), q.raw, q.start, end, q, unit))
        spans.append((q.start, end))
        if unit:
            units[end + len(text[end:]) - len(text[end:].lstrip())] = unit
    for name, s, e in extract_entities(text):
        if any(s < b and e > a for a, b in spans):
            continue  # "Windows 10", "Q3 2020": the quantity is the value
        if units.get(s) == name.lower() and name.lower() in UNITS:
            continue  # "32 GB", "65 W": the count's unit, no name of its own
        words = name.split()
        out.append(
            Value("<ent>", name, s, e, etype=_entity_type(text, s, words), core=_core(words))
        )
    out.sort(key=lambda v: v.start)
    return out


def passage(text: str) -> Passage:
    """Prepare ``text`` (one sentence or claim) for :func:`slot_conflict`."""
    values = _values(text)
    keys: list[str] = []
    value_at: list[int] = []
    content: list[bool] = []
    k = 0
    for m in _WORD.finditer(text):
        while k < len(values) and values[k].end <= m.start():
            k += 1
        if k < len(values) and values[k].start <= m.start() < values[k].end:
            if value_at and value_at[-1] == k:
                continue  # the rest of a value already placed
            keys.append(values[k].key)
            value_at.append(k)
            content.append(False)
            continue
        low = m.group(0).lower()
        keys.append(_SAME_KEY.get(low) or stem(low))
        value_at.append(-1)
        content.append(word_weight(low) > 0.0 or low in _DIRECTION_WORDS)
    return Passage(
        text=text,
        keys=tuple(keys),
        value_at=tuple(value_at),
        content=tuple(content),
        values=tuple(values),
        stems=frozenset(content_stems(text)),
    )


def value_free_stems(p: Passage) -> dict[str, float]:
    """Content stems of a passage outside its values (what "the same thing" is about)."""
    words = [p.keys[i] for i in range(len(p.keys)) if p.value_at[i] < 0 and p.content[i]]
    stems = content_stems(p.text)
    return {w: stems.get(w, 1.0) for w in words if w in stems}


def _name_found(v: Value, other: Passage) -> bool:
    """Whether the name ``v`` appears in ``other`` (partial names and acronyms count)."""
    if not v.core:
        return True
    for o in other.values:
        if o.key != "<ent>" or not o.core:
            continue
        if v.core <= o.core or o.core <= v.core or _acronym(v, o) or _acronym(o, v):
            return True
    return all(stem(w) in other.stems or w in other.text.lower() for w in v.core)


def _acronym(short: Value, long: Value) -> bool:
    letters = short.text.replace(".", "").replace(" ", "")
    if not (2 <= len(letters) <= 6 and letters.isupper()):
        return False
    initials = "".join(w[0] for w in long.text.split() if w[:1].isupper())
    return initials == letters


def _quantity_found(q: Quantity, other: Passage) -> bool:
    return any(o.quantity is not None and quantities_match(q, o.quantity) for o in other.values)


def found_in(v: Value, other: Passage) -> bool:
    """Whether ``other`` states the value ``v`` (in any written form)."""
    if v.quantity is not None:
        return _quantity_found(v.quantity, other)
    return _name_found(v, other)


def _states_exactly(p: Passage, v: Value) -> bool:
    """Whether ``p`` states ``v`` as written, not a rounding of it ("$5.52" does not state
    "$6"; a title's "(2005 film)" does not state "August 8, 2005")."""
    if v.quantity is None:
        return found_in(v, p)
    q = v.quantity
    return any(
        o.quantity is not None and o.quantity.kind == q.kind and same_written_value(q, o.quantity)
        for o in p.values
    )


def _small_gap(p: Passage, a: int, b: int) -> bool:
    """Tokens ``a:b`` are at most two function words ("founded <in> 2001")."""
    return b - a <= _MAX_GAP and all(p.value_at[k] < 0 and not p.content[k] for k in range(a, b))


Run = tuple[int, int, int, int]


def _aligned_runs(claim: Passage, chunk: Passage) -> list[tuple[Run, Run]]:
    """Each stretch the aligner matched, with the bounds of the run it belongs to: matched
    stretches separated only by a couple of function words on either side form one run."""
    matcher = SequenceMatcher(None, claim.keys, chunk.keys, autojunk=False)
    equal = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag == "equal"]
    out: list[tuple[Run, Run]] = []
    bounds: list[int] = []  # indexes into ``out`` of the current run
    for seg in equal:
        if bounds:
            prev = out[bounds[-1]][0]
            if not (_small_gap(claim, prev[1], seg[0]) and _small_gap(chunk, prev[3], seg[2])):
                bounds = []
        bounds.append(len(out))
        out.append((seg, seg))
        first = out[bounds[0]][0]
        run = (first[0], seg[1], first[2], seg[3])
        for k in bounds:
            out[k] = (out[k][0], run)
    return out


def _anchored(p: Passage, i: int, lo: int, hi: int, other: Passage) -> bool:
    """A content word, or a name before it that ``other`` states too, within ``_ANCHOR_SPAN``
    words of ``i`` inside the aligned run ("premiered at the <Telluride Film Festival> in
    <2014>"); other values in between are not counted ("founded in 2020 in <Munich>")."""
    for step in (-1, 1):
        k, words = i + step, 0
        while lo <= k < hi and words < _ANCHOR_SPAN:
            if p.value_at[k] < 0:
                if p.content[k]:
                    return True
                words += 1
            elif step < 0 and p.keys[k] == "<ent>" and found_in(p.values[p.value_at[k]], other):
                return True  # a name before the value only ("the <Speaker> of <the House>")
            k += step
    return False


def _framed(cv: Value, ev: Value) -> bool:
    """Two names in one frame: "King <Harald V> of Sweden" / "King <Carl XVI Gustaf> of Sweden"."""
    if cv.key != "<ent>" or ev.key != "<ent>":
        return False
    a, b = cv.text.split(), ev.text.split()
    if min(len(a), len(b)) < 3 or a[0] != b[0] or a[-1] != b[-1]:
        return False
    return word_weight(a[0].lower()) > 0.0 and word_weight(a[-1].lower()) > 0.0


def _money_type(v: Value, text: str) -> str:
    """``per_share`` ("$2.55 per share"), ``scaled`` ("$3.5 billion") or ``plain``."""
    if _PER_SHARE.match(text, v.end):
        return "per_share"
    return "scaled" if _SCALE_WORDS.search(v.text) else "plain"


_WRITTEN_OUT = 1_000.0
"""A plain money figure this large is a total written out ("99999 euros" beside "€48.2
million"), not a price beside a total ("$9.95" beside "$3.5 billion")."""


def _written_out(forms: set[str], q: Quantity, r: Quantity) -> bool:
    """A plain and a scaled figure that are both totals, so they can disagree."""
    return forms == {"plain", "scaled"} and min(abs(q.value), abs(r.value)) >= _WRITTEN_OUT


def _quantity_rivals(
    cv: Value, ev: Value, claim: Passage, chunk: Passage, *, q: Quantity, r: Quantity
) -> bool:
    if not conflicting(q, r):
        return False
    if cv.unit and ev.unit and cv.unit != ev.unit:
        return False  # 5 km and 3 miles may be the same distance
    if q.currency and r.currency and q.currency != r.currency:
        return False
    forms = {_money_type(cv, claim.text), _money_type(ev, chunk.text)}
    if q.kind in ("money", "number") and len(forms) > 1 and not _written_out(forms, q, r):
        return False  # a per-share figure is not a total; "$9.95" is not "$3.5 billion"
    if q.hedged or r.hedged:
        before = claim.text[max(0, cv.start - 24) : cv.start]
        if _BOUND_BELOW.search(before):
            return r.value < q.value  # "more than 100,000" holds for 258,000
        if _BOUND_ABOVE.search(before):
            return r.value > q.value
        return abs(q.value - r.value) / max(abs(r.value), 1e-9) > _HEDGE_TOLERANCE
    return True


def _rivals(cv: Value, ev: Value, claim: Passage, chunk: Passage) -> bool:
    """Whether two slot-aligned values of the same placeholder can disagree."""
    if cv.quantity is not None and ev.quantity is not None:
        return _quantity_rivals(cv, ev, claim, chunk, q=cv.quantity, r=ev.quantity)
    if cv.key != "<ent>" or ev.key != "<ent>":
        return False
    if cv.etype and ev.etype and cv.etype != ev.etype:
        return False
    if cv.core & _REGIONS or ev.core & _REGIONS:
        return False
    if _shortened(cv.text, ev.text) or _shortened(ev.text, cv.text):
        return False  # "Man Utd" is "Manchester United" written short
    if any(spelt_alike(a, b) for a in cv.core for b in ev.core):
        return False  # "Tolkein" for "Tolkien", "Hickman" for "Hickam": one name misspelt
    # Names sharing a word are forms of one name ("Board of Education of Topeka" / "Board of
    # Education II"), unless they share a frame ("King ... of Sweden").
    shared = {w for w in cv.core & ev.core if len(w) > 1}  # initials: "J. R. R. Tolkien / Martin"
    return not shared or _framed(cv, ev)


def _shortened(short: str, long: str) -> bool:
    """Whether each word of ``short`` is the same word of ``long`` cut short: its first letter
    and then some of its letters in order ("Man Utd" / "Manchester United")."""
    a, b = short.lower().replace(".", "").split(), long.lower().replace(".", "").split()
    if len(a) != len(b) or a == b:
        return False
    for x, y in zip(a, b, strict=True):
        if x[:1] != y[:1] or len(x) > len(y):
            return False
        rest = iter(y[1:])
        if not all(ch in rest for ch in x[1:]):
            return False
    return True


def _left_words(p: Passage, k: int, span: int = 2 * _ANCHOR_SPAN) -> set[str]:
    return {p.keys[i] for i in range(max(0, k - span), k) if p.value_at[i] < 0 and p.content[i]}


def _right_words(p: Passage, v: Value, span: int = 3) -> set[str]:
    """Content stems of the words after a count, its unit left out ("six FA <Cups>")."""
    words = " ".join(_WORD.findall(p.text[v.end : v.end + 60])[:span])
    return set(content_stems(words)) - {v.unit}


def _unit_conflicts(claim: Passage, chunk: Passage, given: str) -> list[tuple[Value, Value]]:
    """Counts of the same thing the aligner paired elsewhere: "won <six> FA Cups" against
    "won five League titles and <five> FA Cups" (same unit word, a shared word before)."""
    out: list[tuple[Value, Value]] = []
    for i, vi in enumerate(claim.value_at):
        if vi < 0:
            continue
        cv = claim.values[vi]
        q = cv.quantity
        if q is None or q.ordinal or not cv.unit or stated_in(cv.text, given):
            continue
        if cv.negated:
            continue
        if found_in(cv, chunk):
            continue
        left, right = _left_words(claim, i), _right_words(claim, cv)
        counts: list[tuple[Value, bool]] = []  # the chunk's counts of that unit, rival or not
        for j, vj in enumerate(chunk.value_at):
            if vj < 0 or chunk.keys[j] != claim.keys[i]:
                continue
            ev = chunk.values[vj]
            # the same thing counted: what follows the unit, and what precedes when anything does
            context = right & _right_words(chunk, ev) and (not left or left & _left_words(chunk, j))
            if ev.unit == cv.unit and context:
                rival = not _states_exactly(claim, ev) and _rivals(cv, ev, claim, chunk)
                counts.append((ev, rival))
        # every count of that unit there disagrees ("around 25,000 metric tons (1 metric ton
        # = 1,000kg)" agrees with "around 20,000 metric tons")
        if counts and all(rival for _, rival in counts):
            out.append((cv, counts[0][0]))
    return out


def _difference(cv: Value, ev: Value) -> tuple[str, str]:
    """The differing words of two names ("King Harald V of Sweden" -> "Harald V")."""
    a, b = cv.text.split(), ev.text.split()
    lo = 0
    while lo < min(len(a), len(b)) - 1 and a[lo] == b[lo]:
        lo += 1
    hi = 0
    while hi < min(len(a), len(b)) - lo - 1 and a[-1 - hi] == b[-1 - hi]:
        hi += 1
    return " ".join(a[lo : len(a) - hi]), " ".join(b[lo : len(b) - hi])


def _kind(cv: Value, ev: Value) -> ContradictionKind:
    if cv.quantity is None or ev.quantity is None:
        return "entity"
    q, r = cv.quantity, ev.quantity
    if q.kind == "money" or r.kind == "money":
        return "money"
    return q.kind


def slot_conflict(
    claim: Passage,
    chunk: Passage,
    *,
    evidence_id: str,
    quote: str,
    given: str = "",
    settled: Callable[[Value], bool] | None = None,
    aligned: bool = True,
) -> Contradiction | None:
    """The value ``chunk`` states in a slot where ``claim`` states another, or None.

    Args:
        claim: The claim, prepared with :func:`passage`.
        chunk: One evidence passage, prepared with :func:`passage`.
        evidence_id: Id of the chunk (for the report).
        quote: The chunk's text as shown to users.
        given: The question: values it states (as whole words) are not the claim's.
        settled: Whether other evidence states a claim value (a name anywhere in the
            evidence, a quantity in another passage about the same thing): this passage
            then talks about another thing with the same words.
        aligned: Also pair values by aligning the texts word by word (the passage restates
            the claim); False pairs only counts of one unit in one context ("a <24>-month
            warranty" / "the <36>-month warranty"), for passages sharing fewer words.
    """
    conflicts: list[tuple[Value, Value]] = []
    for (i1, i2, j1, _), (lo, hi, clo, chi) in _aligned_runs(claim, chunk) if aligned else ():
        for off in range(i2 - i1):
            i, j = i1 + off, j1 + off
            if claim.value_at[i] < 0:
                continue
            cv = claim.values[claim.value_at[i]]
            ev = chunk.values[chunk.value_at[j]]
            if cv.negated or stated_in(cv.text, given) or found_in(cv, chunk):
                continue  # denied by the claim, or the passage states the claim's value
            if _states_exactly(claim, ev):
                continue  # the claim states the passage's value too
            if cv.key == "<ent>" and cv.subject != ev.subject:
                continue  # a sentence's subject and a name in another role
            if not _rivals(cv, ev, claim, chunk):
                continue
            if settled is not None and settled(cv):
                continue  # another passage about the same thing states it
            anchored = _anchored(claim, i, lo, hi, chunk) and _anchored(chunk, j, clo, chi, claim)
            if anchored or _framed(cv, ev):
                conflicts.append((cv, ev))
    if not conflicts:
        conflicts = [
            c for c in _unit_conflicts(claim, chunk, given) if settled is None or not settled(c[0])
        ]
    if not conflicts:
        return None
    dates = [c for c in conflicts if c[0].key == "<date>"]
    if dates and len(conflicts) > len(dates):
        return None  # another year *and* another value: a different event, not this one
    if not dates and any(v.key == "<date>" and not found_in(v, chunk) for v in claim.values):
        return None  # "10 trophies between 1989 and 2005" against "47 trophies": another period
    cv, ev = conflicts[0]
    claim_value, evidence_value = _difference(cv, ev) if cv.key == "<ent>" else (cv.text, ev.text)
    return Contradiction(
        kind=_kind(cv, ev),
        claim_value=claim_value,
        evidence_value=evidence_value,
        evidence_id=evidence_id,
        quote=quote,
    )


_OPENING_PARENS = re.compile(r"[^()]{1,80}?\(([^()]{1,160})\)")
_BORN = re.compile(r"\b(?:born|birth)\b", re.I)
_DIED = re.compile(r"\b(?:died|dies|death|passed away)\b", re.I)
_SPAN_DASH = re.compile(r"\s*(?:--|-|–|—|−|to)\s*")


def opens_with_parenthesis(text: str) -> bool:
    """Whether ``text`` has a parenthesis after its first words (a cheap test before
    :func:`lifespan_conflict`)."""
    return _OPENING_PARENS.match(text) is not None


def lifespan_conflict(
    claim: Passage, chunk: Passage, *, evidence_id: str, quote: str, given: str = ""
) -> Contradiction | None:
    """A birth or death date against the dates in parentheses after a passage's opening name.

    "Anne Rice was born in 1997." against "Anne Rice (born Howard Allen Frances O'Brien;
    October 4, 1941) is an American author": the encyclopaedic "Name (born D1)" / "Name (D1 -
    D2)" states the birth and death dates; the claim must name the same person (before the
    parenthesis) and say which date it gives ("born", "died").
    Dates the question states (``given``, as whole words) are not the claim's.
    """
    m = _OPENING_PARENS.match(chunk.text)
    subject = next((v for v in claim.values if v.key == "<ent>" and v.subject), None)
    if m is None or subject is None:
        return None
    # the same person: every word of the claim's name begins a word of the opening name, or
    # the other way round ("Chris Kyle" / "Christopher Scott Kyle"; not "Stan Rice" / "Anne Rice")
    opening = _WORD.findall(m.group(0)[: m.start(1)].lower())
    if not subject.core or not all(
        any(o.startswith(w) or w.startswith(o) for o in opening) for w in subject.core
    ):
        return None
    dates = [v for v in chunk.values if v.key == "<date>" and m.start(1) <= v.start < m.end(1)]
    birth = death = None
    if len(dates) == 2 and _SPAN_DASH.fullmatch(chunk.text[dates[0].end : dates[1].start]):
        birth, death = dates
    elif len(dates) == 1 and _BORN.search(m.group(1)[: dates[0].start - m.start(1)]):
        birth = dates[0]
    born, died = _BORN.search(claim.text), _DIED.search(claim.text)
    if bool(born) == bool(died):
        return None  # neither, or both: which date is meant is not clear
    target = birth if born else death
    claimed = [
        v
        for v in claim.values
        if v.key == "<date>" and not v.negated and not stated_in(v.text, given)
    ]
    if target is None or len(claimed) != 1:
        return None
    cv = claimed[0]
    q, r = cv.quantity, target.quantity
    if q is None or r is None or not conflicting(q, r):
        return None
    return Contradiction(
        kind="date",
        claim_value=cv.text,
        evidence_value=target.text,
        evidence_id=evidence_id,
        quote=quote,
    )


# "does not X until Y" says when X happens, not that it never does ("Do not remove the lid
# until the pressure drops", "it won't restart until an administrator restarts it"): its
# polarity is not comparable with a statement that does not say X before its own "until"
# ("it stays stopped until an administrator restarts it"); "was deemed a threat until 1997"
# against "was not deemed a threat until 1997" still clashes. Bounded, so linear in the text.
_NOT_UNTIL = re.compile(
    r"(?:\b(?:not|never)\b|n['’]t\b)\W+([^\W\d_]+)[^.;,!?]{0,60}?\buntil\b", re.I
)
_UNTIL = re.compile(r"\buntil\b", re.I)
_SENTENCE_START = re.compile(r"[.;!?]\s")
_UNTILS_READ = 5


def _when_not_whether(text: str, other: str) -> bool:
    """Whether ``text`` says "not X until Y" and ``other`` does not say X before an "until"
    of its own in the same sentence (see ``_NOT_UNTIL``)."""
    m = _NOT_UNTIL.search(text)
    if m is None:
        return False
    head = stem(m.group(1).lower())
    for k, u in enumerate(_UNTIL.finditer(other)):
        if k >= _UNTILS_READ:
            break
        lo = max(0, u.start() - 400)
        starts = [s.end() for s in _SENTENCE_START.finditer(other, lo, u.start())]
        if head in content_stems(other[starts[-1] if starts else lo : u.start()]):
            return False  # the other text says X until ...: the polarity is comparable
    return True


def negation_clash(claim: Passage, chunk: Passage, *, asserted_negation: bool = True) -> bool:
    """Whether ``chunk`` restates ``claim`` with the opposite polarity.

    Polarity is compared clause by clause: a negated clause of either text clashes when the
    other text restates that clause (most of its words) and no restating clause has the same
    polarity. So "Gold dissolves in mercury, and this is not a chemical reaction" does not deny
    "Gold is resistant to most chemical reactions", a copied sentence never clashes with
    itself, and "It is false that X" denies X. Only cues whose scope the other text shares
    count; ``asserted_negation`` False (a bare answer to a question) lets only a negated claim
    clash.
    """
    if negated_heads(claim.text) & negated_heads(chunk.text):
        return False  # both negate the same word ("was not able to"): they agree on it
    if chunk.text.rstrip().endswith("?"):
        return False  # a question asserts nothing ("Did you restart your computer?")
    if _when_not_whether(claim.text, chunk.text) or _when_not_whether(chunk.text, claim.text):
        return False  # "won't restart until an administrator restarts it": when, not whether
    mine = _clauses(claim.text, chunk.stems)
    theirs = _clauses(chunk.text, claim.stems)
    if _unmatched_negation(mine, theirs, whole=_clause(chunk.text, claim.stems)):
        return True
    if not asserted_negation:
        return False
    if not any(c.any_negation for c in mine) and _said_unnegated(claim.text, chunk.text):
        return False  # "The cafe accepts cash and does not accept cards" states "... cash"
    # The passage's negated clause must be about what the claim says: restate one of its
    # clauses, or the claim as a whole.
    restating = [c.stems for c in mine if len(c.stems) >= 2] + [value_free_stems(claim)]
    return _unmatched_negation(
        theirs, mine, restating=restating, whole=_clause(claim.text, chunk.stems)
    )


def _content_sequence(text: str) -> list[str]:
    return [stem(low) for low in (t.lower() for t in tokens(text)) if word_weight(low) > 0.0]


def _said_unnegated(claim: str, passage: str) -> bool:
    """Whether ``passage`` says every content word of ``claim``, in the claim's order,
    outside what its negations govern ("copper cannot displace iron" keeps "copper" only)."""
    spans = negated_spans(passage)
    kept, at = [], 0
    for a, b in sorted(spans):
        kept.append(passage[at:a])
        at = max(at, b)
    kept.append(passage[at:])
    words = iter(_content_sequence(" ".join(kept)))
    wanted = _content_sequence(claim)
    return bool(wanted) and all(w in words for w in wanted)  # a subsequence


class _Clause(NamedTuple):
    """One clause of a text, as polarity is compared (:func:`negation_clash`)."""

    stems: dict[str, float]  # content stems, in text order
    negated: int  # 1 when it negates what the other text says (the word first negated is there)
    any_negation: int  # 1 when it negates anything at all
    heads: frozenset[str]  # the words its negation words govern first ("does not **pay**")
    text: str = ""
    coordinated: bool = False  # it follows "and", "but", "while", ... (a clause of its own)
    gapped: bool = False  # "... but not cars": the frame of the clause before it, filled in


def _clause(
    text: str, other: frozenset[str], *, coordinated: bool = False, gapped: bool = False
) -> _Clause:
    strict = negations_about(text, set(other), strict=True) % 2
    heads = frozenset(negated_heads(text)) if strict else frozenset()
    stems = content_stems(without_cues(text))  # "declined to hear": the hearing is the content
    return _Clause(stems, strict, negation_count(text) % 2, heads, text, coordinated, gapped)


def _denied_objects(clause: str, frame: str) -> list[str]:
    """``clause`` cut before each denied object ("The study included 200 adults | and no
    children"), when there is a verb to read the denied object with; else whole (a clause
    that keeps its negation agrees with a claim that denies the same thing)."""
    parts = _GAP_SPLIT.split(clause)
    return parts if len(parts) > 1 and (frame or _frame(parts[0])) else [clause]


def _frame(clause: str) -> str:
    """The words of ``clause`` up to and including its first verb ("The city allows", "We
    study"), or "" when it has none. A verb is a finite one (:func:`_lexicon.first_verb`) or
    a lower-case "-s" / "-ed" word right after a short subject ("The cafe **accepts**"; not
    "The **hotels**"), whichever comes first."""
    toks, starts = tokens_with_offsets(clause)
    found = [first_verb(toks, 0, len(toks))]
    found += [k for k in range(2, min(len(toks), _MAX_SUBJECT + 1)) if _inflected(toks, k)][:1]
    k = min((i for i in found if i >= 0), default=-1)
    return clause[: starts[k] + len(toks[k])] if k >= 0 else ""


def _inflected(toks: list[str], k: int) -> bool:
    """``toks[k]`` is a lower-case "-s" / "-ed" word after a word that is no function word."""
    word = bare(toks[k])
    return (
        word.isalpha()
        and toks[k][:1].islower()
        and word.endswith(("s", "ed"))
        and bare(toks[k - 1]) not in FUNCTION_WORDS
        and word not in FUNCTION_WORDS
    )


def _clauses(text: str, other: frozenset[str]) -> list[_Clause]:
    """Each clause of ``text`` (see :class:`_Clause`). A conditional clause ("if the latch
    doesn't catch", "whether it aligns") states no polarity: it negates nothing, and as a
    restatement of a negated clause it agrees with it."""
    out = []
    frame = ""  # the subject and verb of the last clause that has a verb
    pieces = _CLAUSE_SPLIT.split(text)  # pieces and the separators between them
    for k in range(0, len(pieces), 2):
        piece = pieces[k]
        joined = (k > 0 and pieces[k - 1][:1].isspace()) or _COORDINATOR.match(piece) is not None
        # "... a block system and it wasn't super complex": each standalone clause apart;
        # "200 adults and no children": the denied object apart
        parts = [p for part in split_compound(piece) for p in _denied_objects(part.text, frame)]
        for n, clause in enumerate(parts):
            conditions = condition_spans(clause)
            main = clause
            for a, b in reversed(conditions):
                out.append(_Clause(content_stems(clause[a:b]), 0, 1, frozenset()))
                main = main[:a] + " " + main[b:]
            if not content_stems(main):
                continue
            gapped = bool(frame) and _GAPPED.match(main) is not None and not has_finite_verb(main)
            if gapped:  # "but not cars" after "The city allows bicycles"
                lead = _COORDINATOR.match(main)
                main = f"{frame} {main[lead.end() if lead else 0 :].strip()}"
            else:
                frame = _frame(main) or frame
            out.append(_clause(main, other, coordinated=joined or n > 0, gapped=gapped))
    return [c for c in out if c.stems]


def _own_subject(clause: _Clause, claim: set[str]) -> bool:
    """Whether ``clause`` is a coordinated clause about something the claim does not name:
    it follows "and", "but", ... and opens with a word of its own ("... and **visitors** pay
    £5 a year")."""
    first = next(iter(clause.stems), "")
    return (
        clause.coordinated and first.isalpha() and first not in claim and first not in clause.heads
    )


def _unmatched_negation(
    side: list[_Clause],
    other: list[_Clause],
    *,
    whole: _Clause,
    restating: list[dict[str, float]] | None = None,
) -> bool:
    """A negated clause of ``side`` that ``other`` restates only with the opposite polarity.

    A clause of ``other`` restates it, or else ``whole`` (the other text as one clause) does;
    a restating clause with any negation agrees ("have found no signs of poison" / "have not
    found any evidence of poison"). A restating clause that lacks the word the negation
    governs does not count when that word sits in a clause with a subject of its own:
    "Membership is free for residents, and visitors pay £5 a year" does not deny "Residents
    do not pay for membership" (the paying is the visitors'). With ``restating``, a clause of
    ``side`` counts only when it restates one of those word sets (the passage's clause must
    be about what the claim says).
    """
    named = {stem for clause in side for stem in clause.stems}
    for clause in side:
        stems, heads = clause.stems, clause.heads
        if not clause.negated:
            continue
        if restating is not None and all(
            coverage(r, set(stems)) < _CLAUSE_COVERAGE for r in restating
        ):
            continue
        # a gapped clause restates only a clause about its object ("The cafe accepts not
        # cards" says nothing of "The cafe does not accept cash")
        restaters = [
            c
            for c in other
            if coverage(stems, set(c.stems)) >= _CLAUSE_COVERAGE
            and (not c.gapped or c.heads & stems.keys())
        ]
        if not any(heads & c.stems.keys() for c in restaters) and any(
            heads & c.stems.keys() and _own_subject(c, named) for c in other
        ):
            continue
        twins = [c.any_negation for c in restaters]
        if not twins and len(stems) >= 2 and coverage(stems, set(whole.stems)) >= _CLAUSE_COVERAGE:
            twins = [whole.any_negation]
        if twins and 1 not in twins:
            return True
    return False


def all_found(claim: Passage, chunk: Passage, given: str = "") -> bool:
    """Whether every value the claim asserts appears in ``chunk``."""
    return all(stated_in(v.text, given) or found_in(v, chunk) for v in claim.values)


_WH_KEYS = (
    (re.compile(r"\b(?:when|what year|which year|in what year|what date)\b", re.I), "<date>"),
    (re.compile(r"\bhow (?:many|much|long|old|tall|far|big)\b", re.I), "<num>"),
    (re.compile(r"\b(?:who|whom|whose|where|which|what)\b", re.I), "<ent>"),
)


_WHO = re.compile(r"\b(?:who|whom|whose)\b", re.I)
_WHERE = re.compile(r"\bwhere\b", re.I)


def answer_conflict(
    question: str, answer: Passage, chunk: Passage, *, evidence_id: str, quote: str
) -> Contradiction | None:
    """A short answer against a passage that restates the question and gives another answer.

    "When was Acme founded? 1998" against "Acme was founded in 2001 in Berlin.": the passage
    answers the question with the one value of the asked kind that the question does not
    give. Used only when the answer's value appears nowhere in the evidence.
    """
    if len(answer.values) != 1:
        return None
    key = next((k for pattern, k in _WH_KEYS if pattern.search(question)), None)
    cv = answer.values[0]
    if key is None or cv.key != key:
        return None
    asked = question.lower()
    avoid = "place" if _WHO.search(question) else ""
    want = "place" if _WHERE.search(question) else ""
    rivals = [
        ev
        for ev in chunk.values
        if ev.key == key
        and not stated_in(ev.text, asked)
        and not _name_in(ev, asked)
        and not (avoid and ev.etype == avoid)
        and not (want and ev.etype not in (want, ""))
    ]
    if len(rivals) != 1 or found_in(cv, chunk):
        return None
    ev = rivals[0]
    if cv.quantity is not None and ev.quantity is not None:
        if not conflicting(cv.quantity, ev.quantity):
            return None
    elif (cv.etype and ev.etype and cv.etype != ev.etype) or cv.core & ev.core:
        return None
    return Contradiction(
        kind=_kind(cv, ev),
        claim_value=cv.text,
        evidence_value=ev.text,
        evidence_id=evidence_id,
        quote=quote,
    )


def _name_in(v: Value, text: str) -> bool:
    return bool(v.core) and all(stated_in(w, text) for w in v.core)
