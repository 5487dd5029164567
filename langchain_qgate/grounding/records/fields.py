"""Typed matching of claims against structured fields (see ``structured``).

A claim about a record is compared with the record's fields by value type, not as prose:

- numbers, money and percentages with their units and currency ("2.5 kg", ``"total": 42.5``
  with ``"currency": "EUR"``), dates in any notation, times of day and ranges
  (``"11:00-21:00"`` is "from 11 am to 9 pm"; ``"17:30-23:0"`` and ``"11:30-2:0"`` as sources
  write them), price bands and bounds (``"£20-25"``, ``"less than £20"``: ``_field_values``);
- booleans by the sentence's polarity against the value, the key split into words and read
  with its group ("There is no valet, garage or lot parking" states ``BusinessParking.garage``
  false: ``_record_words``);
- closed vocabularies by class (order status, carrier, cuisine, venue type, area, price and
  rating bands: "cheap" is ``"less than £20"``, "delivered" is not ``"shipped"``);
- summaries over per-day fields ("every day", "on weekdays", "most days"), against each day;
- enumerations and lists by item ("Noodles, Ramen" supports "a ramen restaurant");
- other text by its words ("112 Pier St").

Which field a claim's value fills is read from the key words the claim uses ("open on
Tuesdays" names ``hours.Tuesday``; "costs", "total", "rated" and a few other synonyms name the
usual keys). The decision, precision first:

- **grounded**: every value of the claim is the value of a field of the record the claim is
  about, and the claim's other words are the record's name, the fields' keys or filler
  (opinions such as "delicious" neither support a claim nor count against it; a thing the
  place comes "with" that the record does not list, "a pub with a garden", is unsupported);
- **contradicted**: a value fills the slot of exactly one field of that record (same key, same
  type) and differs from it, or it is a sibling record's value of the same field;
- **partial**: fields state part of the claim and its other words are neither the record's
  nor filler ("a casual, relaxed atmosphere"): the learned verifier decides, grounding it
  (citing those fields) when it entails the claim from the record;
- **unstated**: no field states the claim, none holds a neighbouring band and the record lacks
  no field it names ("Children should not visit"): the verifier decides too; a claim about
  the record that it does not entail is unsupported;
- anything else is left to the prose path, except that a contradiction the prose path reads
  in a field statement is dropped: a field without a typed conflict is "unsupported", as is a
  value of a closed vocabulary whose field the record lacks ("cheap" with no price).

A claim that names no record is about the record the previous claim was about, or about the
only record of the evidence ("It has a large garden.").
"""

from __future__ import annotations

import datetime
import itertools
import math
import re
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from functools import cache, lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

from langchain_qgate.grounding.checks._lexicon import (
    AUXILIARIES,
    FUNCTION_WORDS,
    MEASURES,
    STRONG_VERBS,
    UNAPOSTROPHED_NEGATIONS,
    UNIT_SCALES,
    UNITS,
    WEEKDAYS,
)
from langchain_qgate.grounding.checks._lexicon import table as lexicon_table
from langchain_qgate.grounding.checks._lexicon import words as lexicon_words
from langchain_qgate.grounding.checks._word_relations import is_lemma, kin, kind_of, siblings
from langchain_qgate.grounding.checks.checks import (
    _MONTHS,
    _NUMBER_WORD_VALUES,
    TIME_LENGTHS,
    Quantity,
    comparable,
    date_parts,
    extract_quantities,
    has_negation,
    quantities_match,
    spelt_alike,
    tokens,
    untokenise,
    word_weight,
)
from langchain_qgate.grounding.evidence._flatten import EMPTY
from langchain_qgate.grounding.evidence.structured import field_info
from langchain_qgate.grounding.records._field_values import (
    bound_words,
    bounds,
    compound_lengths,
    duration_in_words,
    durations_in_words,
    held_zones,
    normalise_times,
    normalise_value,
    read_zones,
    weekday_ranges,
    weekday_value,
    within_band,
)
from langchain_qgate.grounding.records._record_words import (
    NEGATIVE_HEADS,
    TO_BOOT,
    RecordValues,
    RecordVocabulary,
    boolean_said,
    claim_tokens,
    in_vocabulary,
    negator,
    ordered_vocabulary,
    record_vocabulary,
    said_when,
    summary_days,
    unlisted_term,
    value_is_term,
    value_negated,
    vocabulary_term,
)
from langchain_qgate.grounding.records.lists import said_pick, supported_pick
from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds
from langchain_qgate.grounding.verifier.verifiers import VerificationItem, VerifierVerdict
from langchain_qgate.schemas import Contradiction, ContradictionKind

if TYPE_CHECKING:
    from langchain_qgate.grounding.checks.features import ClaimSignals
    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex

__all__ = ["FieldDecision", "apply_field_decisions", "decide_claims"]

_NAME_KEYS = frozenset({"name", "title", "businessname", "productname", "label", "company"})
_ID_KEYS = frozenset({"id", "orderid", "ordernumber", "sku", "code", "number"})
_GENERIC_KEYS = lexicon_words("fields.generic_keys")
# Claim words that name a key without spelling it.
_SYNONYMS: dict[str, tuple[str, ...]] = {
    k: tuple(v) for k, v in lexicon_table("key_word_synonyms").items()
}
_FILLER = lexicon_words("fields.filler")
_COUNT_KEYS = lexicon_words("fields.count_keys")  # "how many" of no thing: ``number_of_beds``
# Key words of a length of time (``rentalDays``, ``wait_min``): no amount of money, and a
# duration meets no field without one.
_DURATION_KEYS = lexicon_words("fields.duration_keys")
_ARITHMETIC_CUES = lexicon_words("fields.arithmetic_cues")  # "£12,000 more", "by 15 points"
_SCORE_WORDS = lexicon_words("fields.score_words")  # a scoreline's words: "won 2-1"
# A speaker's judgement, not a fact a record states (opinions are not counted against a
# claim; the rating words among them are read as the rating next to a rating word).
_OPINION_WORDS = lexicon_words("fields.opinion_words")
_WEEKDAYS = frozenset(WEEKDAYS)
_TRUE = frozenset({"true", "yes", "y", "free", "available", "included", "1"})
_FALSE = frozenset({"false", "no", "n", "none", "unavailable", "0"})
_CURRENCY_KEYS = {"usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "chf": "CHF",
                  "aud": "AUD", "cad": "CAD", "eth": "ETH", "btc": "BTC"}  # fmt: skip
_CURRENCY_WORDS = {"dollar": "USD", "euro": "EUR", "pound": "GBP", "yen": "JPY"}
_SPLIT_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\s./()\[\]-]+")
_SPELLINGS = {
    "st": "street", "ave": "avenue", "rd": "road", "blvd": "boulevard", "dr": "drive",
    "costumer": "customer",  # the common misspelling
    "nr": "near", "n": "and",  # as people type them ("nr the bridge", "cheap n cheerful")
    "does": "do",  # a function word, not the plural of "doe"
    "till": "until", "til": "until",  # "from eleven till half twelve"
    "children": "child", "women": "woman", "men": "man",  # plurals no "-s" undoes
    **UNAPOSTROPHED_NEGATIONS,  # "isnt" is "isn't"
}  # fmt: skip
_COVERED = 0.8  # share of the claim's content weight the record must account for


_CLITIC = re.compile(r"'(?:s|re|ll|ve|d|m)$")


def _norm(word: str) -> str:
    w = _CLITIC.sub("", word.lower())  # "it's", "there's": the word before the clitic
    w = _SPELLINGS.get(w, w)
    if word_weight(w) <= 0:
        return w  # a function word stays whole ("this" is no plural)
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("es") and not is_lemma(w[:-1]) and is_lemma(w[:-2]):
        return w[:-2]  # "goes", "tomatoes", "buses": not "goe"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "ous")):
        if is_lemma(w) and not is_lemma(w[:-1]):
            return w  # "plus", "status", "bus", "bonus": a word of its own, no plural
        return w[:-1]
    return w


@cache
def _field_words(vocabulary: RecordVocabulary) -> frozenset[str]:
    """The band words and their fields' names, as ``_words`` spells them ("reviews" ->
    "review")."""
    return frozenset(_norm(w) for w in vocabulary.field_words | vocabulary.term_words)


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def _words(text: str) -> list[str]:
    text = text.replace("²", "2")
    text = _THOUSANDS.sub("", text)  # "4,445 Stevenson Boulevard" is 4445
    text = re.sub(r"(?i)\bwi[- ]?fi\b", "wifi", text)
    text = re.sub(r"(?i)\btake[- ]out\b", "takeout", text)
    text = TO_BOOT.sub("too", text)
    return [_norm(t) for t in tokens(text)]


def _named(text: str, q: Quantity, names: list[list[str]]) -> bool:
    """Whether a figure of the claim is written as part of a record's name ("ICE 578", "Le
    Petit Four", "Zephyr Book 16 Pro"): the name's words stand next to it in the claim, so
    the "16" of "The Zephyr Book 16 Pro has 16 GB" names the laptop once and states its
    memory once. A name that is only the figure counts wherever the figure stands."""
    raw = [_norm(w) for w in re.split(r"[\s-]+", q.raw.lower()) if w]
    before, after = _words(text[: q.start]), _words(text[q.end :])
    for name in names:
        for j in range(len(name) - len(raw) + 1):
            if name[j : j + len(raw)] != raw:
                continue
            head, tail = name[:j], name[j + len(raw) :]
            if not head and not tail:
                return True
            if (head and before[-len(head) :] == head) or (tail and after[: len(tail)] == tail):
                return True
    return False


_KEY_FIGURE = re.compile(r"(\d+)([a-z]+)")  # a key word with its figure: "24h", "7d"
_WORD_AFTER = re.compile(r"\s*([a-z]+)")


def _of_a_key(text: str, q: Quantity, scope: list[_Field]) -> bool:
    """Whether a bare figure of the claim is the figure of a key word, not a value of its
    own: "the last 24 hours" of ``change_24h_pct`` (the key's letters, or a length of time
    they begin). (A figure beside the word it stands beside in a text value, "Terminal 1",
    was read the same way: it grounded a changed value of the SGD report half, so it is not.)"""
    raw = _norm(q.raw.strip())
    after = _WORD_AFTER.match(text[q.end : q.end + 16].lower())
    if not raw.isdigit() or after is None:
        return False
    word = _norm(after[1])  # "hours": "hour"
    for f in scope:
        for k in f.key_set:
            m = _KEY_FIGURE.fullmatch(k)
            if (
                m
                and m[1] == raw
                and (word == m[2] or (word[0] == m[2][0] and word in TIME_LENGTHS))
            ):
                return True
    return False


def _describes_field(
    words: list[str],
    i: int,
    figures: set[str] | frozenset[str] = frozenset(),
    vocabulary: RecordVocabulary | None = None,
) -> bool:
    """Whether ``words[i]``, within three words after "with", is part of a phrase about a
    field ("with prices averaging more than £30", "with a lower price range"; a stated
    figure in the phrase: "with an 8 percent chance of rain", "with a chance of rain at 10
    percent", "with a return of 7:10 pm"), not a thing the place comes with ("with a
    garden")."""
    start = max(0, i - 3) + words[max(0, i - 3) : i].index("with")
    named = _field_words(vocabulary or record_vocabulary())
    return any(w in named and word_weight(w) > 0 for w in words[start + 1 : i + 2]) or any(
        w in figures for w in words[start + 1 : start + _WITH_REACH]
    )


_WITH_REACH = 9  # words a "with" phrase runs to ("with a chance of rain at 10 percent")


def _modified_field(words: list[str], i: int, scope: list[_Field]) -> _Field | None:
    """The field whose head key word ``words[i]`` stands before, when it holds a word or two
    of text that the claim does not use ("savings account" for ``"account_type":
    "checking"``, "economy class" for ``"flight_class": "Business"``): the word says which
    value, differently. The head is the key's last word that names a thing (``type`` names
    none): "return flight" is no value of ``flight_class``."""
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if not nxt:
        return None
    for f in scope:
        if f.truth is not None or f.quantities or not 1 <= len(f.words) <= 2:
            continue
        heads = [k for k in f.keys if k not in _NAMING and k not in _GENERIC_KEYS]
        if heads and nxt == heads[-1] and _contains(words, f.words) < 0:
            return f
    return None


_WORD_OR_STOP = re.compile(r"[^\W_]+(?:'[^\W_]+)?|[.!?:]")


def _names_in(text: str) -> set[str]:
    """The words written with a capital inside a sentence ("Blueface", "Knockdown Center"), as
    ``_words`` spells them; one pass over the text."""
    out: set[str] = set()
    starts = True  # at the start of a sentence a capital says nothing
    for m in _WORD_OR_STOP.finditer(text):
        tok = m[0]
        if tok in ".!?:":
            starts = True
            continue
        if tok[0].isupper() and not starts:
            out.add(_norm(tok))
        starts = False
    return out


def _value_like(word: str, names: set[str]) -> bool:
    """Whether a claim word no field accounts for is a value of its own: a figure, a rank
    from third on ("moves them up to fourth": "first" and "second" say much else), or a name
    (``names``: :func:`_names_in` of the claim); a common word ("bus", "departs", "popular")
    is how the reply puts the record's values."""
    return any(c.isdigit() for c in word) or word in _RANKS or word in names


_RANKS = lexicon_words("fields.ranks")  # "third" on: "first", "second" say much else
# "the lower rate", "the cheapest fare": a comparison of the record's values, never another
# value of the field it stands before
_COMPARATIVES = lexicon_words("fields.comparatives")
_COMPARED = _COMPARATIVES | frozenset(p for p in lexicon_table("superlatives") if " " not in p)


_ITEM_GENERIC = frozenset({"bar", "restaurant", "shop", "place", "store", "house", "food"})


def _item(text: str) -> list[str]:
    """A list item's words; "Sushi Bars" is named by "sushi" ("a sushi restaurant")."""
    words = _words(text)
    kept = [w for w in words if w not in _ITEM_GENERIC]
    return kept if len(words) > 1 and kept else words


# the parts of a text value: "Lisbon Airport (LIS) - Terminal 1" is said as "Lisbon Airport,
# Terminal 1"; a dash between words, a parenthesis, a slash, a semicolon, a bar or a comma
_PARTS = re.compile(r"\s+[-\u2013\u2014/|]\s+|[(),;]")


def _value_items(value: str) -> list[list[str]]:
    """A text value's items: its whole and, where separators split it, each part."""
    parts = [p for p in _PARTS.split(value) if p.strip()]
    if len(parts) < 2:
        return [_item(value)]
    return [_item(p) for p in parts]


def _key_words(segment: str) -> list[str]:
    parts = [p for p in _SPLIT_CAMEL.split(segment) if p]
    return [_norm(p) for p in parts if not p.isdigit()]


@dataclass(eq=False)  # one object per field chunk: `f in stated` compares by identity
class _Field:
    chunk: int
    id: str
    record: str
    group: str
    value: str
    keys: list[str]  # the leaf key's words; the parents' words are in ``context``
    context: list[str]
    quantities: list[Quantity]
    words: list[str]
    items: list[list[str]]
    truth: bool | None
    unit: str = ""
    currency: str = ""
    numeric: bool = False
    band: str = ""  # the value with padded times and both ends of a band (``_field_values``)
    money: bool = False  # an amount of money (``_table``: its currency, or its key's word)
    duration: bool = False  # an ISO 8601 duration ("PT3H15M"), read in words

    @property
    def key_set(self) -> set[str]:
        return set(self.keys) | set(self.context)

    def aliases(self) -> set[str]:
        out = {k for k in self.key_set if k not in _GENERIC_KEYS}
        joined = "".join(self.keys)
        out.add(joined)
        for k in [*list(out), joined]:
            out.update(_norm(s) for s in _SYNONYMS.get(k, ()))
        return out


@dataclass
class _Table:
    fields: list[_Field]
    by_record: dict[str, list[_Field]]
    names: dict[str, list[list[str]]]
    tops: set[str]
    prose: bool = False  # some evidence chunk is prose, not a field
    lists: dict[str, dict[str, list[_Field]]] | None = None  # ``_lists``, once read
    own: dict[str, frozenset[str]] | None = None  # ``_own_words``, once read
    item_names: dict[str, list[list[str]]] = field(default_factory=dict)  # an item's own word
    naming: frozenset[int] = frozenset()  # chunks of the fields ``_names_its_item`` holds true
    zones: frozenset[int] | None = None  # ``_zones``, once read


@dataclass
class FieldDecision:
    """What the fields say about one claim.

    Attributes:
        grounded: Chunk indexes of the fields that state the claim (empty: not grounded).
        contradiction: The field the claim contradicts, named.
        chunk: Index of the contradicting field's chunk.
        records: The records the claim is about (carried to the next claim).
        structured: Whether the claim is about structured evidence at all.
        partial: Chunk indexes of fields that state part of the claim when its other words
            are neither the record's nor filler ("a casual, relaxed atmosphere"): the learned
            verifier decides (``apply_field_decisions``).
        unstated: No field states the claim, and none holds a neighbouring band or is
            missing from the record: the verifier decides.
        unplaced: The claim's content words no field accounts for (a partial claim).
        loose: A partial claim whose unplaced words are common words, no figure or name:
            every value it states is the record's, so it is at worst inferred.
        renamed: The field whose head key word a claim word the record does not hold stands
            before ("your savings account" for ``"account_type": "checking"``; its chunk,
            path and value) and that word: another value of it, if the verifier reads the
            record as contradicting the claim.
    """

    grounded: list[int] = field(default_factory=list)
    partial: list[int] = field(default_factory=list)
    contradiction: Contradiction | None = None
    chunk: int = -1
    records: set[str] = field(default_factory=set)
    structured: bool = False
    unstated: bool = False
    unplaced: list[str] = field(default_factory=list)
    loose: bool = False
    renamed: tuple[int, str, str, str] | None = None  # chunk, field, its value, the word


_TABLES: weakref.WeakKeyDictionary[EvidenceIndex, tuple[int, _Table]] = weakref.WeakKeyDictionary()


def _group(fid: str) -> str:
    return re.sub(r"row\([^)]*\)", "row(*)", re.sub(r"\[\d+\]", "[*]", fid))


def _table(index: EvidenceIndex) -> _Table | None:
    cached = _TABLES.get(index)
    if cached is not None and cached[0] == len(index.chunks):
        return cached[1]
    fields: list[_Field] = []
    prose = False
    for i, chunk in enumerate(index.chunks):
        info = field_info(chunk)
        prose = prose or info is None
        if info is None or info.get("kind") != "value":
            continue
        fid, record, value = info["path"], info["record"], info["value"]
        rel = fid[len(record) :].lstrip(".") if fid.startswith(record) else fid
        segments = [s for s in re.split(r"\.(?![^(]*\))", rel) if s]
        keys = _key_words(segments[-1]) if segments else []
        context = [w for s in segments[:-1] for w in _key_words(s)]
        band = normalise_value(value)
        quantities = extract_quantities(band, days=False) or _signed_value(band)
        if set(keys) & _SCORE_WORDS:  # "score": "3-1" holds both
            quantities += _second_scores(band, quantities)
        quantities = _with_counts(quantities, value, [*context, *keys])
        quantities = _scaled_by_key(_minor_units(quantities, keys), keys)
        low = value.strip().lower()
        truth = True if low in _TRUE else False if low in _FALSE else None
        items = _value_items(said := weekday_value(value))  # "Mon-Sat": "monday-saturday"
        f = _Field(
            chunk=i,
            id=fid,
            record=record,
            group=_group(fid),
            value=value,
            keys=keys,
            context=context,
            quantities=quantities,
            words=_words(said),
            items=[it for it in items if it],
            truth=truth,
            numeric=_numeric(band, quantities),
            band=band,
            duration=duration_in_words(value) is not None,
        )
        f.unit = _field_unit(f)
        fields.append(f)
    if not fields:
        _TABLES[index] = (len(index.chunks), _Table([], {}, {}, set()))
        return None
    by_record: dict[str, list[_Field]] = {}
    for f in fields:
        by_record.setdefault(f.record, []).append(f)
    _mark_money(by_record)
    names: dict[str, list[list[str]]] = {}
    item_names: dict[str, list[list[str]]] = {}  # by ``_names_its_item``
    naming = _item_naming(fields)
    for rec, fs in by_record.items():
        for f in fs:
            joined = "".join(f.keys)
            by_item = joined not in _NAME_KEYS | _ID_KEYS and f.chunk in naming
            if not f.context and len(f.value) >= 2 and (joined in _NAME_KEYS | _ID_KEYS or by_item):
                names.setdefault(rec, []).append(f.words)
                if by_item:
                    item_names.setdefault(rec, []).append(f.words)
                # a name's head before its comma names it too ("Wigmore Street" of "Wigmore
                # Street, Marylebone"), when it is two words or more
                head = _words(f.value.split(",", 1)[0])
                if "," in f.value and len(head) >= 2:
                    names[rec].append(head)
        label = re.search(r"row\(([^)]*)\)$", rec)
        if label:
            names.setdefault(rec, []).append(_words(label[1]))
    tops = {rec.split(".", 1)[0].split("[", 1)[0] for rec in by_record}
    table = _Table(fields, by_record, names, tops, prose, item_names=item_names, naming=naming)
    _TABLES[index] = (len(index.chunks), table)
    return table


_IDENTIFIERS = lexicon_words("fields.identifier_words")
_ITEM_NAMING = _IDENTIFIERS | {"name", "title", "label"}
_LIST_ITEM = re.compile(r"([^.\[\]]+)\[\d+\]$")


def _list_key(record: str) -> list[str]:
    """The key words of the list a record is an item of (``slot`` of ``record.slots[3]``);
    none for a record that is no list item."""
    m = _LIST_ITEM.search(record)
    return _key_words(m[1]) if m else []


def _item_naming(fields: list[_Field]) -> frozenset[int]:
    """The chunks of the fields that name their list item (``_names_its_item``)."""
    values = Counter((f.group, f.value.lower()) for f in fields)
    return frozenset(f.chunk for f in fields if _names_its_item(f, values))


def _names_its_item(f: _Field, values: Counter[tuple[str, str]]) -> bool:
    """Whether a field of a list item names the item: its value is the only one of its kind
    in the list (``values``: how many items hold each), and its key is the list's word for
    one item (``"flight": "BA117"`` in ``flights``, ``"course"`` in ``courses``; ``item`` in
    any list), that word before ``code``, or a word before an identifier word (``class_id``,
    ``claim_ref``, ``rx_number``; not ``reason_code``, a kind). A claim that writes the value
    is about that item ("BA117 is delayed."), as a claim that writes a ``name`` is about its
    record. Lists only: a lone record is what every claim is about already."""
    listed = _list_key(f.record)
    if not listed or not f.keys or f.truth is not None or f.numeric or f.context:
        return False
    if values[f.group, f.value.lower()] != 1:
        return False
    one = _norm(listed[-1])
    if f.keys in ([one], [one, "code"], ["item"]):  # "item": what an entry of any list is
        return True
    if len(f.keys) == 2 and f.keys[1] in _ITEM_NAMING and f.keys[0] not in _GENERIC_KEYS:
        return True
    return _proper_name(f.value) and not set(f.keys) & _STATE_KEYS  # "Sold Out" names nothing


_STATE_KEYS = frozenset({"status", "state", "availability", "result", "outcome"})


_PROPER_NAME = re.compile(r"[A-Z][a-z'’&.-]*[a-z](?: (?:[A-Z][a-z'’&.-]*[a-z]|&|of|the|on|upon))+")


def _proper_name(value: str) -> bool:
    """A value written as a name of two words or more, each capitalised ("Millbrook
    Autocentre", "Harley Street"): a list item's only such value names the item as a
    ``name`` would, whatever its key (``garage``, ``station``)."""
    return _PROPER_NAME.fullmatch(value.strip()) is not None


_DATE_KEY_STEMS = (
    "year", "date", "found", "establish", "born", "birth", "built", "build", "open", "since",
    "release", "publish", "launch", "creat", "start", "begin", "season", "vintage", "incorporat",
    "debut", "death", "died", "end", "updat", "modif", "expir", "valid", "time", "when", "day",
    "month", "period", "era", "century", "decade", "age",
)  # fmt: skip
"""Key words under which a bare integer in 1000-2099 can only be a year."""


def _with_counts(quantities: list[Quantity], value: str, keys: list[str]) -> list[Quantity]:
    """A bare integer in 1000-2099 (``"employees": 1234``) read both ways, as a year and as a
    count, unless its key says it is a date (``founded``, ``year``, ...): a claim's year
    ("in 1234") and a claim's count ("5,000 employees") are each compared with it.
    """
    if not value.strip().isdigit() or any(k.startswith(_DATE_KEY_STEMS) for k in keys):
        return quantities
    if "".join(keys[-2:]) in _ID_KEYS or (keys and keys[-1] in _ID_KEYS):
        return quantities  # an id ("order_id": 1043) is no amount either
    counts = [
        replace(q, kind="number", value=float(q.raw), precision=len(q.raw.strip("0")))
        for q in quantities
        if q.kind == "date" and q.raw.isdigit()
    ]
    return [*quantities, *counts]


_SCALE_WORDS = frozenset({"hundred", "thousand", "million", "billion", "trillion", "to", "and"})
# A key's word that scales its figures (``market_cap_usd_bn``: 3210 is $3.21 trillion).
_KEY_SCALES = {"thousand": 1e3, "thousands": 1e3, "mn": 1e6, "million": 1e6, "millions": 1e6,
               "bn": 1e9, "billion": 1e9, "billions": 1e9}  # fmt: skip


def _scaled_by_key(quantities: list[Quantity], keys: list[str]) -> list[Quantity]:
    """Figures of a key that names their scale, read at that scale; the figure as written
    stays a second reading (a reply may say "3210" of ``revenue_bn``: 3210)."""
    scale = next((_KEY_SCALES[k] for k in keys if k in _KEY_SCALES), None)
    if scale is None:
        return quantities
    return [
        replace(q, value=q.value * scale, alt=q.value)
        if q.kind in ("number", "money") and q.alt is None
        else q
        for q in quantities
    ]


def _pence(keys: list[str]) -> bool:
    """Whether a key says pence: "pence", or "p" before "per" or after a word of money
    (``unit_rate_p_per_kwh``, ``price_p``; not ``p_value``)."""
    return any(
        k == "pence"
        or (k == "p" and i > 0 and (keys[i - 1] in _MONEY_KEYS or keys[i + 1 : i + 2] == ["per"]))
        for i, k in enumerate(keys)
    )


def _cents(keys: list[str]) -> bool:
    """Whether a key says cents (``amount_cents``; not ``growth_per_cent``)."""
    return any(k in ("cents", "cent") and keys[i - 1] != "per" for i, k in enumerate(keys) if i)


def _minor_units(quantities: list[Quantity], keys: list[str]) -> list[Quantity]:
    """Figures of a key in a currency's hundredths, read as money ("24.5p" of
    ``unit_rate_p_per_kwh: 24.5``); the figure as written stays a second reading."""
    if not (_pence(keys) or _cents(keys)):
        return quantities
    return [
        replace(q, kind="money", value=float(q.raw) / 100, alt=float(q.raw))
        if q.alt is None and q.kind in ("number", "date") and _PLAIN.fullmatch(q.raw)
        else q
        for q in quantities
    ]


_PLAIN = re.compile(r"\d{1,12}(?:\.\d{1,6})?")  # a figure as an API writes it: 1999, 24.5


def _numeric(value: str, quantities: list[Quantity]) -> bool:
    """Whether the value is its figures (and units): "11:00-21:00", "3.6 million", "2.5 kg"."""
    if not quantities:
        return False
    rest = value
    for q in reversed(quantities):
        rest = rest[: q.start] + " " + rest[q.end :]
    left = [w.lower() for w in tokens(rest) if not w.isdigit()]
    return (
        all(
            w in _SCALE_WORDS
            or _norm(w) in UNITS
            or _norm(w) in _DURATION_KEYS
            or _norm(w) in TIME_LENGTHS  # "6 months" of "P6M"
            for w in left
        )
        or len("".join(left)) <= 3
    )  # "3 hours 15 minutes (195 minutes)": a duration


_KEY_DEGREES = {"f": "degf", "c": "degc"}  # the last word of a key of degrees
_DEGREE_UNITS = frozenset({"deg", "degc", "degf"})


def _field_unit(f: _Field) -> str:
    if f.duration:
        return ""  # "PT3H15M": hours and minutes, no one unit
    after = re.search(r"\d\s*([A-Za-z]+)\b", f.value)
    if after and _norm(after[1]) in UNITS:
        return UNITS[_norm(after[1])]
    if len(f.keys) < 2:
        return ""
    if f.keys[-1] in _KEY_DEGREES:  # ``temperature_f``, ``target_c``
        return _KEY_DEGREES[f.keys[-1]]
    for i in range(len(f.keys) - 1, -1, -1):
        if f.keys[i] in UNITS:
            # a unit after "per" is a rate's (``co2_g_per_km``: "92 g/km"): no unit of ours
            before = f.keys[i - 1] if i > 0 else ""
            if before in _SQUARE and UNITS[f.keys[i]] + "2" in UNIT_SCALES:
                return UNITS[f.keys[i]] + "2"  # ``area_sq_ft``, ``square_feet``: an area
            return "" if before == "per" else UNITS[f.keys[i]]
    return ""


_SQUARE = frozenset({"sq", "square"})


# Key words of an amount of money, in any domain (a field's type from its key: ``"fare": "35"``).
_MONEY_KEYS = frozenset(
    {"price", "cost", "fare", "fee", "rent", "total", "amount", "balance", "charge", "salary",
     "pay", "payment", "wage", "budget", "tax", "tip", "subtotal", "deposit", "refund",
     "revenue", "income", "usd", "eur", "gbp", "jpy", "chf"}
)  # fmt: skip


_PERCENT_KEYS = frozenset({"pct", "percent", "percentage"})


def _money_keys(keys: list[str]) -> bool:
    """Whether a field's key words say it holds money: a money word and no word of a share
    (``charge_start_pct`` is a percentage, not a charge)."""
    return any(k in _MONEY_KEYS for k in keys) and not _PERCENT_KEYS & set(keys)


def _money_field(f: _Field) -> bool:
    return f.money


def _measures(f: _Field) -> bool:
    """Whether the field's key names a unit or a length of time (``weight_kg``,
    ``rentalDays``; not ``price_per_day``): its figure is no amount of the record's currency."""
    keys = f.keys
    if any(k in _MONEY_KEYS for k in keys):
        return False  # ``minPriceGbp`` ("min" is no unit of it)
    return bool(f.unit) or (
        bool(keys) and keys[-1] in _DURATION_KEYS and not (len(keys) > 1 and keys[-2] == "per")
    )


def _mark_money(by_record: dict[str, list[_Field]]) -> None:
    """Sets each field's ``currency`` and ``money``: its own currency, its key's, or its
    record's ``currency`` field (found once a record: read per field, a wide record was
    quadratic)."""
    for fs in by_record.values():
        currencies = [f for f in fs if "".join(f.keys) == "currency"]
        for f in fs:
            f.currency = _field_currency(f, currencies)
        # a record that marks its amounts with a currency marks them all: a field it leaves
        # unmarked holds no money whatever its key ("total": 2 bays beside "pricePerKwhGbp")
        marked = any(f.currency for f in fs)
        for f in fs:
            f.money = bool(f.currency) or (not marked and _money_keys(f.keys))


def _field_currency(f: _Field, currencies: list[_Field]) -> str:
    """The currency of the field's amount: its own, its key's, or that of a ``currency``
    field of its record (``currencies``, in record order)."""
    money = [q for q in f.quantities if q.kind == "money"]
    if money and money[0].currency:
        return money[0].currency
    if _pence(f.keys):
        return "GBP"
    for k in f.keys:
        if k in _CURRENCY_KEYS:
            return _CURRENCY_KEYS[k]
    for other in currencies:
        # the record's currency, or one beside the figure (``"salary": {"min": 60000,
        # "currency": "USD"}``)
        if other.context in ([], f.context):
            return other.value.strip().upper()[:3]
    return ""


def _contains(words: list[str], seq: list[str], *, typo: bool = False) -> int:
    """Start of ``seq`` in ``words`` (-1 when absent). With ``typo``, a name of two or more
    words also matches with one long word misspelt by a letter, or spelt alike
    (``checks.spelt_alike``): "Crown Plaza Hotel" for ``"near": "Crowne Plaza Hotel"``."""
    n = len(seq)
    if not n:
        return -1
    for i in range(len(words) - n + 1):
        if words[i : i + n] == seq:
            return i
    if typo and n >= 2:
        for i in range(len(words) - n + 1):
            off = [(a, b) for a, b in zip(words[i : i + n], seq, strict=True) if a != b]
            if len(off) == 1 and (_one_letter_apart(*off[0]) or spelt_alike(*off[0])):
                return i
    return -1


@cache
def _fillers(lex: RecordVocabulary) -> frozenset[str]:
    """The general filler words and those of the record vocabulary's domains."""
    return _FILLER | lex.filler


def _filler(word: str, fillers: frozenset[str] = _FILLER) -> bool:
    """A filler word, also with "-ing" or "-ed" ("boasting", "specializing")."""
    if word in fillers:
        return True
    for end in ("ing", "ed"):
        stem = word[: -len(end)]
        if word.endswith(end) and len(stem) >= 3 and (stem in fillers or stem + "e" in fillers):
            return True
    return False


# A clause joined to the one before it ("..., and its tables look out over the water").
_JOINED = re.compile(r"[,;]\s*(?:and|plus)\s+")


def _counts(word: str) -> bool:
    """Whether a claim word counts for or against its coverage: a word with weight, no
    figure, unit or opinion (an opinion neither supports a claim nor counts against it)."""
    return (
        bool(word)
        and not word.isdigit()
        and word not in UNITS
        and word not in _OPINION_WORDS
        and word_weight(word) > 0
    )


def _bare_clause(
    text: str,
    covered: set[str],
    figures: frozenset[str] = frozenset(),
    fillers: frozenset[str] = _FILLER,
) -> bool:
    """Whether a joined clause states only things the record does not hold: two content
    words or more and none of them the record's ("..., and its tables look out over the
    water"); the clause around it may be covered enough to hide it. A clause that states a
    figure of the record (``figures``: "..., and with a chance of raining at 13 percent") is
    about that field."""
    for clause in _JOINED.split(text)[1:]:
        said = _words(clause)
        if figures and any(w in figures for w in said):
            continue
        content = [w for w in said if _counts(w) and not _filler(w, fillers)]
        if len(content) >= 2 and not any(
            w in covered or _misspelt(w, covered, fillers) for w in content
        ):
            return True
    return False


def _averaged(words: list[str], i: int, measured: set[str], figures: set[str]) -> bool:
    """ "average" as a qualifier of a figure the record states: before the key word of a
    stated field of figures (``measured``) or the figure ("the average temperature",
    "averaging 83 degrees") or after "on"; "more than the average pub" is a comparison no
    field states."""
    if words[i] not in ("average", "averaging", "averaged"):
        return False
    nxt = words[i + 1] if i + 1 < len(words) else ""
    return nxt in measured or nxt in figures or (i > 0 and words[i - 1] == "on")


_LONG_UNITS = tuple(u for u in UNITS if len(u) >= 5 and u.isalpha())


@lru_cache(maxsize=8192)
def _unit_word(word: str) -> bool:
    """A unit's word as ``_words`` spells it ("degree", "celsius"), also misspelt ("dergrees
    Faherenheit", "Farenheit": ``checks.spelt_alike``)."""
    return (
        word in UNITS
        or word + "s" in UNITS
        or (len(word) >= 5 and any(spelt_alike(word, u) for u in _LONG_UNITS))
    )


def _misspelt(word: str, covered: set[str], fillers: frozenset[str] = _FILLER) -> bool:
    """A word that is no English word, spelt like a covered or filler word ("resturant",
    "restuarant" for "restaurant": ``checks.spelt_alike``); a real word ("closed" beside
    "close") never is."""
    return word_weight(word) >= 1.0 and any(spelt_alike(word, w) for w in (*covered, *fillers))


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether two words of at least five letters differ by one letter added, dropped or
    changed (in a name of several words: "Crown Plaza Hotel", "Crowne Plaza Hotel")."""
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = sorted((a, b), key=len)
    k = next(
        (i for i, (x, y) in enumerate(zip(short, long_[: len(short)], strict=True)) if x != y),
        len(short),
    )
    return long_[k + 1 :] == short[k:]  # one pass: drop the first letter that differs


# A part of the day beside a clock (``checks`` reads the clock with it: "7:45 in the evening"
# is 19:45 only); bounded repetition: linear time.
_PART_OF_DAY = re.compile(
    r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))"
    r"\s+(?:(?:in\s+the|this|that)\s+|at\s+)(morning|afternoon|evening|night)\b"
    r"|\b(morning|afternoon|evening|night)\s+(?:at|by|from|around|about|until|till)\s+\d",
    re.I,
)


def _state(r: _Reading, f: _Field, q: Quantity) -> None:
    """Field ``f`` states figure ``q``: its key words and the unit written after the figure
    ("1.2 kilos", "16 gigs") are the record's."""
    r.stated.append(f)
    r.covered.update(f.keys)
    if q.kind == "time":  # "at 7:45 this evening": the part of the day the clock was read with
        r.covered.update(_norm(m[1] or m[2]) for m in _PART_OF_DAY.finditer(r.text))
        r.covered.update(_parts_of_day(r.word_set, f))
    if _claim_unit(r.text, q):
        m = re.match(r"\s*-?\s*([A-Za-z]+)", r.text[q.end :])
        if m is not None:
            r.covered.add(_norm(m[1].lower()))
    if _negative(f):
        r.covered.update(_direction_words(r.text, q) & _FELL)  # "down 4.1%" of ``-4.1``


# the minutes after midnight each part of the day spans (the evening and the night overlap)
_DAY_PARTS = {
    part: tuple((int(lo), int(hi)) for lo, hi in spans)
    for part, spans in lexicon_table("day_parts").items()
}


def _parts_of_day(words: set[str], f: _Field) -> set[str]:
    """The parts of the day the claim names that hold the field's clock ("half past eleven
    on Tuesday morning" of ``11:30``): the clock's words, as "11:30 am" would be."""
    clocks = [int(next(iter(e.values()))) for e in f.quantities if e.kind == "time"]
    return {
        part
        for part, spans in _DAY_PARTS.items()
        if part in words and any(lo <= c < hi for c in clocks for lo, hi in spans)
    }


_DEGREES = re.compile(r"\s*°\s*([CF])\b", re.I)  # "19°C", "66 °F"


def _claim_unit(text: str, q: Quantity) -> str:
    deg = _DEGREES.match(text, q.end)
    if deg:
        return "degc" if deg[1].lower() == "c" else "degf"
    m = re.match(r"\s*-?\s*(square\s+|sq\.?\s+)?([A-Za-z]+)([²2]?)(?!\w)", text[q.end :], re.I)
    if m is None:
        return ""
    unit = UNITS.get(_norm(m[2]), "")
    if unit and (m[1] or m[3]):
        return f"{unit}2"
    if unit in _PER_HOUR and _HOURLY.match(text, q.end + m.end()):
        return _PER_HOUR[unit]  # "22 km/h" is ``kmh``
    return unit


_PER_HOUR = {"km": "kmh", "mi": "mph"}


def _converter(claim_unit: str, field_unit: str) -> Callable[[float], float] | None:
    """What turns a figure in ``claim_unit`` into ``field_unit`` ("140 metres" into 0.14 of
    ``distance_km``; 66 Fahrenheit into 18.9 of ``temp_c``); None for two measures."""
    units = {claim_unit, field_unit}
    if units == {"degc", "degf"}:
        if field_unit == "degc":
            return lambda v: (v - 32) * 5 / 9
        return lambda v: v * 9 / 5 + 32
    if "deg" in units and units <= _DEGREE_UNITS:
        return lambda v: v  # "11 degrees" of ``temp_c``: degrees of the field's scale
    a, b = UNIT_SCALES.get(claim_unit), UNIT_SCALES.get(field_unit)
    if a is None or b is None or a[0] != b[0]:
        return None
    factor = a[1] / b[1]
    return lambda v: v * factor


def _in_unit(q: Quantity, claim_unit: str, field_unit: str) -> Quantity:
    """``q`` read in the field's unit where the claim gives it in another of its measure."""
    if not claim_unit or not field_unit or claim_unit == field_unit or q.kind != "number":
        return q
    convert = _converter(claim_unit, field_unit)
    if convert is None:
        return q
    alt = None if q.alt is None else convert(q.alt)
    return replace(q, value=convert(q.value), alt=alt, exact=None)


_HOURLY = re.compile(r"\s*(?:/\s*h(?:r|our)?\b|(?:per|an|a)\s+hour\b)", re.I)


def _claim_currency(text: str, q: Quantity) -> str:
    if q.kind == "money" and q.currency:
        return q.currency
    m = re.match(r"\s*([A-Za-z]+)\b", text[q.end :])
    if m is not None:
        word = m[1]
        if word.lower() in _CURRENCY_KEYS:
            return _CURRENCY_KEYS[word.lower()]
        return _CURRENCY_WORDS.get(_norm(word), "")
    return ""


def _as_number(text: str, q: Quantity) -> Quantity:
    """ "1007 km²" is an amount, not the year 1007."""
    if q.kind == "date" and q.raw.isdigit() and _claim_unit(text, q):
        return replace(q, kind="number", value=float(q.raw), precision=len(q.raw.strip("0")))
    return q


def _close(q: Quantity, e: Quantity) -> bool:
    """A figure written with fewer digits than the field's is a rounding only within 2%
    ("$42" for 42.50, not "4 stars" for 4.5), unless the claim says it is approximate."""
    if q.hedged or q.precision >= e.precision or q.kind in ("date", "time"):
        return True
    return any(abs(a - b) <= 0.02 * max(abs(b), 1e-9) for a in q.values() for b in e.values())


_NEXT_WORD = re.compile(r"\s*([A-Za-z]+)")


_CLOCK_NEXT = FUNCTION_WORDS | AUXILIARIES | lexicon_words("fields.after_clock")
_AT_HOUR = re.compile(r"\b(?:from|at|until|till|til|by|after|before|around|past)\s+$", re.I)


def _unsupported(r: _Reading) -> FieldDecision:
    """No field states the claim's figure: unsupported (the record's, where the claim is
    about known records)."""
    r.out.structured = r.out.structured or r.decided
    return r.out


def _state_hours(r: _Reading, numeric: list[_Field]) -> bool:
    """States the fields of the hours the claim says alone ("check in from eight"); False
    when one is no clock of the record: unsupported, never named (a faithful reply of the
    hand-written set was contradicted when the one clock its words name was: an hour said
    alone is too loose a reading to name a field by)."""
    for q in list(r.free):
        hour = _bare_hour(r, numeric, q)
        if hour is None:
            continue
        if not isinstance(hour, _Field):
            return False
        r.free.remove(q)
        _state(r, hour, q)
    return True


def _bare_hour(r: _Reading, numeric: list[_Field], q: Quantity) -> _Field | bool | None:
    """A whole figure from 1 to 12 said as a clock ("check in from eight", "open until 6"),
    where the record holds clocks: the field whose clock is that hour (the first), False when
    none is (a clock is never another field's figure), None when the figure is no such
    hour."""
    if q.kind != "number" or not float(q.value).is_integer() or not 1 <= q.value <= 12:
        return None
    if not _AT_HOUR.search(r.text[max(0, q.start - 8) : q.start]):
        return None
    after = _NEXT_WORD.match(r.text, q.end)  # "from ten until ...", "at eleven is free"
    if after is not None and after.start(1) == q.end + 1 and _norm(after[1]) not in _CLOCK_NEXT:
        return None  # "at 5 stars", "from 3 stops"
    clocks = [f for f in numeric if any(e.kind == "time" for e in f.quantities)]
    if not clocks:
        return None
    hours = {int(q.value) * 60 % 720, int(q.value) * 60 % 720 + 720}
    held = [f for f in clocks if any(e.kind == "time" and e.value in hours for e in f.quantities)]
    return held[0] if held else False


def _counted_noun(text: str, q: Quantity) -> str:
    """The word written right after a figure ("0 *layovers*", "3 *bedrooms*"), as ``_words``
    spells it; empty for a unit, a time or a date, a verb, or none."""
    if q.kind in ("date", "time"):
        return ""
    m = _NEXT_WORD.match(text, q.end)
    if m is None:
        return ""
    word = _norm(m[1])
    if word in UNITS or word_weight(word) <= 0 or m[1].lower() in STRONG_VERBS:
        return ""  # a unit, a function word or a verb ("£96 came off") counts nothing
    return word


# An id or code as APIs write them: letters and digits together ("B12", "LH431", "14C").
_CODE = re.compile(r"(?<![\w-])(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{2,10}(?![\w-])")


def _changed_code(
    text: str, scope: list[_Field], claim_words: set[str]
) -> tuple[_Field, str] | None:
    """A code of the claim that no value of the record holds, where exactly one field holding
    a code has its key word next to it ("gate B12", "B12 gate"): that field, and the code."""
    held = {t for f in scope for t in _CODE.findall(f.value.upper())}
    for m in _CODE.finditer(text):
        if m[0] in held:
            continue
        beside = {*_words(text[max(0, m.start() - 24) : m.start()])[-2:]}
        beside |= {*_words(text[m.end() : m.end() + 24])[:1]}
        slots = [
            f
            for f in scope
            if _CODE.fullmatch(f.value.strip().upper()) is not None
            and any(k in beside for k in f.keys if k not in _GENERIC_KEYS | _NAMING)
        ]
        if len(slots) == 1:
            return slots[0], m[0]
    return None


_ENUM = re.compile(r"(?<![\w-])[A-Z][A-Z_]{2,30}(?![\w-])")
_COPULAS = frozenset({"is", "was", "are", "were", "now", "currently", "still", "set", "to", "of"})


def _changed_enum(text: str, scope: list[_Field]) -> tuple[_Field, str] | None:
    """An enum value written as a record writes one ("status PENDING", "reading_type is
    ACTUAL", "Decision: REFERRED") that no value of the record holds, right after the key
    words of the one field holding such a value: that field, and the value. An acronym said
    elsewhere ("including VAT") is next to no key."""
    held = {f.value.strip() for f in scope}
    enums = [
        (f, [keys for keys in (f.keys, [k for k in f.keys if k not in _GENERIC_KEYS | _NAMING])
             if keys])
        for f in scope
        if _ENUM.fullmatch(f.value.strip()) is not None
    ]  # fmt: skip
    if not enums:
        return None
    for m in _ENUM.finditer(text):
        if m[0] in held:
            continue
        before = [w for w in _words(text[max(0, m.start() - 40) : m.start()]) if w not in _COPULAS]
        slots = [f for f, forms in enums if any(before[-len(k) :] == k for k in forms)]
        if len(slots) == 1:
            return slots[0], m[0]
    return None


def _for_field(q: Quantity, f: _Field) -> Quantity:
    """A percentage read against a bare number (``"precipitation": "8"`` for "an 8 percent
    chance of rain"): APIs leave the percent sign out of the value; any unit is a number."""
    if q.kind != "percent" or f.unit or f.currency:
        return q
    if len(f.quantities) != 1 or f.quantities[0].kind != "number" or _RANGE.search(f.value):
        return q  # a range ("4.0-5.6") bounds a value; a percentage is no end of it
    return replace(q, kind="number")


_RANGE = re.compile(r"\d\s*[-\u2013]\s*\d")


_NEGATIVE = re.compile(r"-\d{1,15}(?:\.\d{1,15})?")


def _negative(f: _Field) -> bool:
    """Whether the field holds a negative figure ("-2.4": ``_signed_match`` reads it)."""
    return any(e.value < 0 for e in f.quantities if e.kind in ("number", "percent"))


def _signed_value(value: str) -> list[Quantity]:
    """A value that is a negative number alone ("-2.4"): the figure with its sign (a dash
    before a figure in text is no sign, so the text reading leaves it out)."""
    if not _NEGATIVE.fullmatch(value):
        return []
    digits = sum(c.isdigit() for c in value.lstrip("-0."))
    return [Quantity("number", float(value), value, 0, len(value), max(1, digits))]


# Words that say which way a change went, before its figure within three words ("down 4.1%",
# "slipped 2.4%", "fell by 3") or right after it ("4.1% down", "3 points lower").
_FELL = lexicon_words("fields.change_down")
_ROSE = lexicon_words("fields.change_up")


def _direction_words(text: str, q: Quantity) -> set[str]:
    """The three words before a figure and the one after it, as ``_words`` spells them."""
    before = _words(text[max(0, q.start - 40) : q.start])[-3:]
    return {*before, *_words(text[q.end : q.end + 20])[:1]}


def _change_sign(text: str, q: Quantity) -> int:
    """-1 where the claim says its figure is a fall, 1 a rise, 0 neither."""
    dash = q.start > 0 and text[q.start - 1] in "-\u2212"
    if dash and text[max(0, q.start - 2) : q.start - 1].strip() == "":
        return -1  # "-2.4%"
    said = _direction_words(text, q)
    fell, rose = bool(said & _FELL), bool(said & _ROSE)
    return -1 if fell and not rose else 1 if rose and not fell else 0


def _signed_match(text: str, q: Quantity, f: _Field) -> str:
    """A figure read against a field that holds a negative number: the same size with no
    direction said, or a fall ("down 4.1%" of ``-4.1``), is the value; a rise is another."""
    q = _for_field(q, f)
    sign = _change_sign(text, q)
    if q.value < 0:  # "-2.4%" as written
        q, sign = replace(q, value=-q.value), -1
    for e in f.quantities:
        if e.value >= 0 or not comparable(q, e):
            continue
        size = replace(e, value=-e.value, raw=e.raw.lstrip("-"))
        if quantities_match(q, size) and sign <= 0:
            return "same"
    return "differs"


def _value_match(text: str, q: Quantity, f: _Field) -> str:
    """``same``, ``unit`` (same figure, another unit or currency), ``bound`` (a bound that
    does not hold the field's band: unsupported) or ``differs``. A figure in another unit of
    the field's measure ("140 metres" of ``distance_km``) is read in the field's unit."""
    if _negative(f):
        return _signed_match(text, q, f)
    claim_unit = _claim_unit(text, q)
    q = _rounded(_in_unit(_for_field(q, f), claim_unit, f.unit))
    if _day_only(q):  # "on the 21st" against a full date: the same day, or another
        return "same" if any(_same_day(q, e) for e in f.quantities) else "differs"
    if q.kind == "money" and len(f.quantities) == 2 and any(bounds(q, text)):
        # "under £20" against "£20-25" (a time range "from 9 to 5" is no bound)
        return "same" if within_band(q, f.band, f.quantities, text) else "bound"
    if not any(quantities_match(q, e) and _close(q, e) for e in f.quantities):
        near = _near_clock(text, q, f) or _same_length(text, q, f)
        return "same" if near or within_band(q, f.band, f.quantities, text) else "differs"
    if claim_unit and f.unit and claim_unit != f.unit and _converter(claim_unit, f.unit) is None:
        return "unit"
    currency = _claim_currency(text, q)
    if currency and f.currency and currency != f.currency and not _any_dollar(q, f.currency):
        return "unit"
    per, said = _rate_period(f.keys), _period_after(text, q)
    if per and said and per != said:
        return "unit"  # "54p a week" of ``standing_charge_p_per_day``
    return "same"


_PERIODS = frozenset({"minute", "hour", "day", "night", "week", "month", "year"})
# what a claim writes after a rate's figure: "a day", "per night", "/month", "each week"
_PER_PERIOD = re.compile(r"\s*(?:per|a|an|each|every|/)\s*([a-z]+)\b", re.I)


def _rate_period(keys: list[str]) -> str:
    """The length of time a rate's key is per ("day" of ``standing_charge_p_per_day``)."""
    for a, b in pairwise(keys):
        if a == "per" and b in _PERIODS:
            return b
    return ""


def _period_after(text: str, q: Quantity) -> str:
    """The length of time the claim writes a figure per ("54p a day": "day")."""
    m = _PER_PERIOD.match(text, q.end)
    word = _norm(m[1]) if m else ""
    return word if word in _PERIODS else ""


def _rounded(q: Quantity) -> Quantity:
    """An approximate whole figure read to its last digit that is not a zero ("just over
    21,000" for 21,347; "about €9,860" for 9,862.17): the zeros after it only place it."""
    whole = q.kind in ("number", "money") and float(q.value).is_integer() and q.exact is None
    if not q.hedged or not whole or q.value == 0:
        return q
    digits = str(int(abs(q.value)))
    return replace(q, precision=min(q.precision, len(digits.rstrip("0"))))


# How far (minutes) the clock of a record may be from one a reply gives as approximate:
# "just after 1" is 1:00-1:15, "just before" the quarter before, "around 7" ten minutes
# either side; bounded words before the figure: linear time.
_APPROX_CLOCK = re.compile(
    r"\b(?:(?P<after>(?:just|shortly|right|a\s+little|a\s+bit)\s+(?:after|past))"
    r"|(?P<before>(?:just|shortly|right|a\s+little|a\s+bit)\s+before|nearly|almost)"
    r"|(?P<around>around|about|approximately|roughly|circa))\s*$",
    re.I,
)
_CLOCK_SLACK = {"after": (0, 15), "before": (-15, 0), "around": (-10, 10)}


def _near_clock(text: str, q: Quantity, f: _Field) -> bool:
    """Whether an approximate clock ("just after 1 in the afternoon", "around 7") holds the
    field's time (13:04; 19:05)."""
    if q.kind != "time" or not q.hedged:
        return False
    m = _APPROX_CLOCK.search(text, max(0, q.start - 24), q.start)
    if m is None:
        return False
    low, high = _CLOCK_SLACK[m.lastgroup or "around"]
    clocks = [e.value for e in f.quantities if e.kind == "time"]
    return any(low <= e - v <= high for e in clocks for v in q.values())


_DOLLARS = frozenset({"USD", "AUD", "CAD", "NZD", "SGD", "HKD"})


def _any_dollar(q: Quantity, currency: str) -> bool:
    """Whether a figure written with a bare "$" meets a field of any dollar ("$185" for
    ``estimatedCostAud``): "$" says dollars, not whose."""
    return q.raw.lstrip().startswith("$") and currency in _DOLLARS


def _loose_money(text: str, q: Quantity, f: _Field) -> bool:
    """A bare figure ("a 5 star place") read against a money field: no currency says so."""
    money = any(e.kind == "money" for e in f.quantities)
    if f.money and not money and q.kind == "number" and "per" in f.keys:
        # "four seats" against ``price_per_seat_gbp``: a count of what the rate is of
        per = f.keys[f.keys.index("per") + 1 :]
        money = any(_related(w, k, synonyms=False) for w in _next_words(text, q) for k in per)
    return money and q.kind != "money" and not _claim_currency(text, q)


# Key words that say a value names something, not what it is (no claim word "is" a name).
_NAMING = frozenset({"name", "title", "id", "number", "code", "label", "type"})
_KEY_NAMED = 2  # alignment of a field whose key word the claim uses (``_alignment``)
_STEM_SHARED = 5  # letters a claim word and a key word share to be one word ("departs")


@lru_cache(maxsize=8192)
def _related(word: str, key: str, synonyms: bool = True, verbs: bool = False) -> bool:
    """Whether a claim word names a key word in other words: the same stem ("departs" for
    ``departure``, "arrives" for ``arrival``) or, with ``synonyms``, a WordNet synonym
    ("leaving" for ``departure``, "layovers" for ``stops``, "costs" for ``price``; also
    "called" for ``phone``, so a synonym alone never names the field a contradiction cites),
    or a word whose most common sense is a kind of the key word ("rain" for
    ``precipitation``: as strong as the stem)."""
    if word == key or len(word) < 3 or word_weight(word) <= 0 or word_weight(key) <= 0:
        return word == key
    if word in _NUMBER_WORD_VALUES or key in _NUMBER_WORD_VALUES:
        return False  # a figure in words is a value, no key ("four" is no "living")
    n = min(len(word), len(key))
    if n >= _STEM_SHARED and word[:_STEM_SHARED] == key[:_STEM_SHARED]:
        return True
    if word.isdigit():
        return False
    if kind_of(word, key) or (synonyms and kin(word, key)):
        return True
    # with ``verbs``, a verb in -ing names a key as its noun does ("raining" as "rain", a
    # kind of ``precipitation``): the stem, or the stem with its "e", that WordNet lists. It
    # says which field a figure fills, never that a word is accounted for ("blowing" says
    # nothing of the unit of a wind speed)
    ing = verbs and word.endswith("ing") and len(word) > 5
    stems = [word[:-3], word[:-3] + "e"] if ing else []
    return any(is_lemma(s) and kind_of(s, key) for s in stems)


def _named_by_synonym(
    text: str, q: Quantity, f: _Field, unit: list[_Field], claim_words: set[str]
) -> bool:
    """Whether field ``f`` is the slot of figure ``q`` only through a WordNet synonym of its
    key ("called" for ``phone_number``): too weak to name it in a contradiction. A unit, the
    record's only money field and what the figure counts ("0 *layovers*") are strong."""
    if unit or (q.kind == "money" and _money_field(f)) or q.kind in ("time", "date"):
        return False  # a clock or a date fills only a field of its type: the type names it
    if _measured(text, q, [f]):
        return False
    if _counts_for(text, q, f):
        return False
    return _alignment(f, claim_words, synonyms=False) == 0


def _counts_for(text: str, q: Quantity, f: _Field, keys: list[str] | None = None) -> bool:
    """Whether what the figure counts names field ``f`` ("0 *layovers*": ``number_stops``),
    by one of ``keys`` (its key words by default)."""
    counted = _counted_noun(text, q)
    if not counted:
        return False
    keys = f.keys if keys is None else keys
    # the words after "per" name what a rate is of, never what a figure of it counts ("three
    # seats" is no ``price_per_seat``)
    keys = keys[: keys.index("per")] if "per" in keys else keys
    return any(_related(counted, k) for k in keys)


_GRAMMAR = FUNCTION_WORDS | AUXILIARIES  # key words that name no field ("in", "is")


def _alignment(f: _Field, claim_words: set[str], synonyms: bool = True) -> int:
    # a function word of a key says no field ("in" of ``check_in_closes``, "is" of ``is_open``)
    leaf = {k for k in f.keys if k not in _GENERIC_KEYS and k not in _GRAMMAR}
    joined = "".join(f.keys)
    hits = len(leaf & claim_words) * 2
    if joined in claim_words and len(f.keys) > 1:
        hits += 2
    for k in [*leaf, joined]:
        if any(_norm(s) in claim_words for s in _SYNONYMS.get(k, ())):
            hits += 1
            break
    else:
        if any(_related(w, k, synonyms, verbs=True) for k in leaf - _NAMING for w in claim_words):
            hits += 1  # "leaving" for ``departure``, "layovers" for ``stops``, "raining"
    context = {k for k in f.context if k not in _GENERIC_KEYS and k not in _GRAMMAR}
    hits += len(context & claim_words)
    if not hits and any(_related(w, k, synonyms) for k in context - _NAMING for w in claim_words):
        hits += 1  # "departs" for ``departure.scheduled``
    if any(_norm(s) in claim_words for k in context for s in _SYNONYMS.get(k, ())):
        hits += 1
    return hits


def _contradicted(
    out: FieldDecision,
    f: _Field,
    index: EvidenceIndex,
    kind: ContradictionKind,
    claim_value: str,
    *,
    evidence_value: str | None = None,
) -> FieldDecision:
    """``out`` with the claim contradicted by field ``f`` (its value quoted, its path named)."""
    chunk = index.chunks[f.chunk]
    out.contradiction = Contradiction(
        kind=kind,
        claim_value=claim_value,
        evidence_value=f.value if evidence_value is None else evidence_value,
        evidence_id=chunk.id,
        quote=chunk.text,
        field=f.id,
    )
    out.chunk = f.chunk
    out.structured = True
    return out


def _claim_quantities(text: str) -> list[Quantity]:
    """The claim's values, days of a month written without their year ("March 8th", "9th of
    March") read as dates a record's full dates can state (``extract_quantities``); the
    figure inside a code ("seat 14C") is no count."""
    codes = [(m.start(), m.end()) for m in _CODE.finditer(text)]
    found = [q for q in extract_quantities(text) if not any(s <= q.start < e for s, e in codes)]
    days = [
        Quantity("date", float(m[1]), m[0][m.start(1) - m.start() :], m.start(1), m.end())
        for m in _DAY_OF_MONTH.finditer(text)
    ]
    if days:  # "on the 21st": a day of the month, not a rank
        found = [q for q in found if not any(d.start < q.end and q.start < d.end for d in days)]
        found = sorted(found + days, key=lambda q: q.start)
    taken = [(q.start, q.end) for q in found]
    found += [  # "24h change -2.4%": a figure with its sign (the text reading leaves it out)
        Quantity("percent" if m[2] else "number", -float(m[1]), m[0], m.start(), m.end())
        for m in _NEGATIVE_FIGURE.finditer(text)
        if not any(s < m.end() and m.start() < e for s, e in taken)
    ]
    scored = set(_words(text)) & _SCORE_WORDS  # "won 2-1"; "open 10-6" is hours
    return found + _second_scores(text, found) if scored else found


# a minus sign right before a figure, after a space, a bracket, a colon or the start
_NEGATIVE_FIGURE = re.compile(
    r"(?:(?<=[\s(:=])|^)[-\u2212](\d{1,15}(?:\.\d{1,15})?)(%?)(?![\w-]|\.\d)"
)


# A day of the month said alone after a word that sets a date ("on the 21st", "until the
# 2nd", "due on the 26th"), not a rank ("the 21st floor", "came 3rd"); bounded: linear time.
_DAY_OF_MONTH = re.compile(
    r"\b(?:on|by|until|till|from|since|before|after|for|due)\s+the\s+"
    r"([1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
    r"(?=\s*(?:$|[,.;:!?)\u2013\u2014-]|(?:at|in|and|or|but|so|when|if|to|from|with)\b))",
    re.I,
)


def _day_only(q: Quantity) -> bool:
    """A day of the month without its month or year (``_DAY_OF_MONTH``)."""
    return q.kind == "date" and 1 <= q.value <= 31


def _same_day(q: Quantity, e: Quantity) -> bool | None:
    """For a day of the month alone: whether a date of the record is on that day (None: ``q``
    is no such day or ``e`` no full date)."""
    if not _day_only(q) or e.kind != "date" or not int(e.value) % 100:
        return None
    return int(e.value) % 100 == int(q.value)


_SCORELINE = re.compile(r"(?<![\w.,/:-])(\d{1,3})[-–](\d{1,3})(?![\w/:-]|[.,]\d|[-–]\d)")


def _second_scores(text: str, found: list[Quantity]) -> list[Quantity]:
    """The second figure of a scoreline ("won 2-1", "beat them 88-71"): two figures joined by a
    dash, the second the smaller, are no range (a range runs up), so both are values. Read
    where the words are a game's (``fields.score_words``): "open 10-6" is a span of hours."""
    firsts = {q.start: q for q in found if q.kind == "number"}
    out: list[Quantity] = []
    for m in _SCORELINE.finditer(text):
        first = firsts.get(m.start(1))
        if first is None or first.end != m.end(1) or int(m[2]) >= int(m[1]):
            continue
        out.append(Quantity("number", float(m[2]), m[2], m.start(2), m.end(2), len(m[2])))
    return out


@dataclass
class _Reading:
    """One claim read against a table: what the steps of ``_decide`` share and add to."""

    text: str
    toks: list[str]
    words: list[str]  # the claim's words, the record's name blanked
    word_set: set[str]  # every word of the claim, the name's too
    named: set[str]  # the records the claim names
    decided: bool  # the claim is about known records (a changed value contradicts)
    scope: list[_Field]
    out: FieldDecision
    index: EvidenceIndex
    table: _Table
    lex: RecordVocabulary
    record_values: RecordValues  # tokenised once per claim
    found_qs: list[Quantity]
    claim_qs: list[Quantity]  # the figures that are values (not the record's name's)
    reply_words: frozenset[str] = frozenset()  # every word of the reply, each claim's
    covered: set[str] = field(default_factory=set)  # claim words the record accounts for
    used_spans: list[tuple[int, int]] = field(default_factory=list)
    stated: list[_Field] = field(default_factory=list)
    free: list[Quantity] = field(default_factory=list)  # figures no step has placed yet
    blocked: bool = False  # a neighbouring band: unsupported
    named_by: list[_Field] = field(default_factory=list)  # name fields the claim uses
    compared: list[tuple[Quantity, _Field]] = field(default_factory=list)  # "18, below the range"
    computed: bool = False  # a figure is worked out from the record's: inferred at best
    cued: bool | None = None  # the claim says a sum or a difference ("more", "by"): once read
    unheld: list[Quantity] | None = None  # ``_unheld_amounts``, once read
    alignments: dict[int, int] = field(default_factory=dict)  # ``_aligned``: chunk -> hits
    unnamed: list[str] | None = None  # ``_unnamed``, once read
    unheld_zone: str = ""  # a zone the claim writes that no datetime of the record has
    said_as: dict[str, str] = field(default_factory=dict)  # "52 months": "four years and ..."
    month_item: str | None = None  # ``_month_item``, once read ("" for none)


_OTHERS = lexicon_words("fields.other_items")


def _reading(
    text: str,
    table: _Table,
    carried: set[str],
    index: EvidenceIndex,
    lex: RecordVocabulary,
    *,
    items: bool = True,
) -> _Reading | FieldDecision:
    """The claim's words, figures and the fields in scope; a decision when none is. Without
    ``items``, an identifier of a list item (``_names_its_item``) names nothing."""
    text, unheld_zone, said_as = _prepared(text, table)
    words = _words(text)
    word_set = set(words)
    # The records the claim names, else the one the previous claim was about.
    named, carried = _named_records(table, words, carried, items=items)
    # The most specific records named (a review's author names the review, not the listing).
    records = named or carried
    if not records and len(table.by_record) == 1:
        records = set(table.by_record)
    if not records:
        records = _keyed_outside_lists(table, set(words))

    def in_scope(rec: str) -> bool:
        if not records:
            return True
        return any(
            rec == r or r.startswith(rec + ".") or r.startswith(rec + "[") or rec.startswith(r)
            for r in records
        )

    scope = [f for f in table.fields if in_scope(f.record)]
    # A claim that names no record is about the only one when the evidence is that record
    # alone; next to prose it may be about the prose.
    out = FieldDecision(
        records=records, structured=bool(named or carried) or (bool(records) and not table.prose)
    )
    if not scope:
        return out
    covered: set[str] = set()
    for rec in records:
        for n in table.names.get(rec, []):
            covered.update(n)
            at = _contains(words, n)
            if at >= 0:  # the name says which record; its words are no field's value
                words = [*words[:at], *([""] * len(n)), *words[at + len(n) :]]
    in_names = [n for rec in records for n in table.names.get(rec, [])]
    word_set |= _key_forms(words)
    found_qs = _claim_quantities(text)
    claim_qs = [
        _as_number(text, q)
        for q in found_qs
        if not (
            q.ordinal
            or q.reference
            or (q.kind == "number" and (_named(text, q, in_names) or _of_a_key(text, q, scope)))
        )
    ]  # a figure of the record's name ("ICE 578", "Le Petit Four") or of a key is no value
    return _Reading(
        text=text,
        toks=claim_tokens(text),
        words=words,
        word_set=word_set,
        named=named,
        decided=bool(records),
        scope=scope,
        out=out,
        index=index,
        table=table,
        lex=lex,
        record_values=RecordValues((g.value for g in scope), lex),
        found_qs=found_qs,
        claim_qs=claim_qs,
        covered=covered,
        unheld_zone=unheld_zone,
        said_as=said_as,
    )


def _prepared(text: str, table: _Table) -> tuple[str, str, dict[str, str]]:
    """The claim's text as the steps read it, the first zone it writes that the record does
    not hold ("" if none), and the lengths it says in two units as it says them."""
    # "2024-11-08 19:55"; a zone written that the record does not hold: unsupported
    text, unheld_zone = read_zones(untokenise(text), _zones(table))
    text = normalise_times(durations_in_words(text))  # "PT37M": "37 minutes"
    said_as: dict[str, str] = {}
    text = compound_lengths(text, said_as)  # "four years and four months": "52 months"
    return weekday_ranges(text), unheld_zone, said_as  # "Monday to Saturday": "monday-saturday"


def _zones(table: _Table) -> frozenset[int]:
    """The zones of the record's datetimes (``held_zones``), once a table."""
    if table.zones is None:
        table.zones = held_zones(f.value for f in table.fields)
    return table.zones


def _named_records(
    table: _Table, words: list[str], carried: set[str], *, items: bool
) -> tuple[set[str], set[str]]:
    """The records whose names the claim writes, and the records carried from the claim
    before. "BA117 leaves at 9:40 and the other one at noon": a claim about other items of a
    list too (or read with ``items`` off) is not about the one whose identifier it writes, nor
    about an item the claim before named."""
    others = not items or bool(_OTHERS & set(words))
    skip = table.item_names if others else {}
    named = {
        rec
        for rec, names in table.names.items()
        if any(n and n not in skip.get(rec, ()) and _contains(words, n) >= 0 for n in names)
    }
    return named, {rec for rec in carried if "[" not in rec} if others else carried


def _keyed_outside_lists(table: _Table, words: set[str]) -> set[str]:
    """The record of the one yes/no field outside every list whose key words the claim says
    all ("your borrowing is suspended" of ``borrowing_suspended`` beside a list of loans),
    when no field of a list item has those words: the claim is about that record."""

    def heads(f: _Field) -> set[str]:
        return {k for k in f.keys if k not in _GENERIC_KEYS}

    keyed = [
        f
        for f in table.fields
        if f.truth is not None and "[" not in f.record and len(heads(f)) >= 2
        and heads(f) <= words
    ]  # fmt: skip
    if len(keyed) != 1:
        return set()
    said = heads(keyed[0])
    if any("[" in f.record and said <= set(f.keys) for f in table.fields):
        return set()
    return {keyed[0].record}


def _key_forms(words: list[str]) -> set[str]:
    """The forms a key may take of the claim's words: two words written as one ("pick up" is
    ``pickup``, "take off" ``takeoff``) and a verb's noun in -ing ("leaves" is "leaving", a
    synonym of ``departure``)."""
    joined = {a + b for a, b in pairwise(words) if a.isalpha() and b.isalpha()}
    verbs = {
        (w[:-1] if w.endswith("e") else w) + "ing"
        for w in words
        if w.isalpha() and len(w) > 3 and word_weight(w) > 0 and not w.endswith("ing")
    }
    return joined | {v for v in verbs if is_lemma(v)}  # not "portlanding"


def _text_with_figures(r: _Reading) -> FieldDecision | None:
    """Text values with figures ("112 Pier St"): stated, or the same words with another
    figure (a contradiction)."""
    for f in r.scope:
        if f.numeric or not f.quantities or len(f.words) < 2:
            continue
        # the whole value, or a part of it with a figure ("Terminal 1" of "Lisbon Airport
        # (LIS) - Terminal 1")
        parts = [f.words] + [it for it in f.items if len(it) >= 2 and it != f.words]
        said = [it for it in parts if _contains(r.words, it) >= 0 or _said_apart(r, it)]
        if f.words in said or any(w.isdigit() for it in said for w in it):
            r.stated.append(f)
            r.covered.update(w for it in said for w in it)
            for q in r.claim_qs:
                if any(quantities_match(q, e) for e in f.quantities):
                    r.used_spans.append((q.start, q.end))
            continue
        bound = [q for q in r.claim_qs if within_band(q, f.band, f.quantities, r.text)]
        if bound:  # "priced under £20" for ``"less than £20"``
            r.stated.append(f)
            r.covered.update(f.keys)
            r.covered.update(_norm(w) for q in bound for w in bound_words(q, r.text))
            r.used_spans.extend((q.start, q.end) for q in bound)
            continue
        letters = [w for w in f.words if not w.isdigit()]
        if r.decided and len(letters) >= 2:
            pattern = r"\b" + r"\W+".join(r"\d+" if w.isdigit() else re.escape(w) for w in f.words)
            # whole words only: "1 out of 5and" (a missing space) is the field's own figure
            m = re.search(pattern + r"(?!\w)", " ".join(r.words))
            if m is not None:
                return _contradicted(r.out, f, r.index, "number", _original(r.text, m[0]))
    return None


def _said_apart(r: _Reading, item: list[str]) -> bool:
    """Whether the claim says a text value with a figure in its own words: each of its
    words, and its figures as the claim writes them ("three months of payslips" for "3
    months payslips")."""
    digits = [w for w in item if w.isdigit()]
    letters = [w for w in item if not w.isdigit() and _counts(w)]
    # the claim's words without the records' names ("Zephyr Book 16 Pro" names; its 16 is
    # no figure of "16 GB")
    if not digits or not letters or not set(letters) <= set(r.words):
        return False
    figures = {q.value for q in r.claim_qs if q.kind == "number"}
    return all(float(d) in figures for d in digits)


def _figured_terms(r: _Reading) -> FieldDecision | None:
    """A closed vocabulary's term with a figure ("rated one star", "5 stars") is its field's;
    the figures left are the ones the next steps place."""
    for f in r.scope:
        if f in r.stated or not in_vocabulary(f.keys, f.value, r.lex):
            continue
        term = vocabulary_term(r.toks, f.keys, f.value, r.record_values)
        if term is not None and term.agrees and term.has_figure:
            r.stated.append(f)
            r.covered.update(_words(" ".join(term.words)))
            r.covered.update(f.keys)
            written = set(term.words)  # "five-star": the figure as written, not its raw span
            r.used_spans.extend(
                (q.start, q.end) for q in r.claim_qs if r.text[q.start : q.end].lower() in written
            )
    r.free = [q for q in r.claim_qs if not any(s <= q.start < e for s, e in r.used_spans)]
    colon = r.text.rfind(":")
    items = _listed(r.text) if colon >= 0 and r.free else []
    if items:  # "these two: X and Y": the figure counts the list after it, no value
        r.free = [
            q
            for q in r.free
            if not (q.kind == "number" and q.end <= colon and list(q.values()) == [len(items)])
        ]
    return None


def _summary_days(r: _Reading) -> FieldDecision | None:
    """ "every day", "on weekdays", "Fridays and Saturdays": the times said of every field of
    those days."""
    spans = _days_covered(r.toks, r.words, r.scope)
    if spans is None:
        return None
    times = [q for q in r.free if q.kind == "time"]
    pairs = _per_day(r.text, times, r.scope) if summary_days(r.toks) is None else None
    if pairs is None:
        outcome = _check_days(times, spans, r.decided, r.index)
    else:  # "11 am to 9 pm on Tuesdays and until 10:30 pm on Fridays": each day its own
        outcomes = [_check_days(ts, ([f], False), r.decided, r.index) for f, ts in pairs]
        contradictions = [o for o in outcomes if isinstance(o, Contradiction)]
        outcome = contradictions[0] if contradictions else all(o is True for o in outcomes)
    if isinstance(outcome, Contradiction):
        r.out.contradiction = outcome
        r.out.chunk = next(f.chunk for f in spans[0] if f is not None and f.id == outcome.field)
        r.out.structured = True
        return r.out
    if not outcome:
        r.out.structured = True
        return r.out  # holds for some covered days only, or a day lacks its field
    held = [f for f in spans[0] if f is not None]
    r.stated.extend(held)
    for f in held:
        r.covered.update(f.key_set)
    r.covered.update(_norm(t) for t in r.toks)
    r.free = [q for q in r.free if q.kind != "time"]
    return None


# A length of time after a figure ("3 hours", "15 mins"): what a duration field takes
_DURATION_SAID = re.compile(
    r"[\s-]*(?:years?|yrs?|months?|weeks?|wks?|days?|hours?|hrs?|h|minutes?|mins?|seconds?|secs?)\b",
    re.I,
)
"""A length of time's unit after its figure ("37 minutes", "6 months", "6-month": the figure
of a duration field)."""


def _holds_length(f: _Field) -> bool:
    """Whether the field holds a length of time: a duration, minutes or hours, or a key word
    of a unit of time that is no rate's period (``initial_period_months``, not
    ``price_per_day``)."""
    if f.duration or f.unit in ("min", "h"):
        return True
    return "per" not in f.keys and any(_norm(k) in TIME_LENGTHS for k in f.keys)


def _said_as_length(text: str, q: Quantity) -> bool:
    """Whether the figure is said with a unit of time, after it or joined to it ("6-month")."""
    return bool(_DURATION_SAID.match(text, q.end) or _DURATION_SAID.search(q.raw))


def _slot(r: _Reading, numeric: list[_Field], q: Quantity) -> tuple[list[_Field], list[_Field]]:
    """The fields that could hold ``q`` (not a single value another figure already states)
    and the best aligned of them with the claim's words (none when no key word is in it)."""
    candidates = [
        f
        for f in numeric
        if not any(cq is q and cf is f for cq, cf in r.compared)  # compared with, not held
        and not _numbered(r.text, f)
        and any(
            comparable(_for_field(q, f), e) or _same_day(q, e) is not None for e in f.quantities
        )
        and (not f.duration or _said_as_length(r.text, q))
        and (
            f not in r.stated
            or len({e.raw for e in f.quantities}) > 1  # a range holds two figures
            or _value_match(r.text, q, f) == "same"  # the same figure said twice
        )
    ]
    if q.kind == "money":  # an amount is a money field's, never a count's or a size's
        # (a field whose key names a unit or a length of time holds it, whatever the currency)
        money = [f for f in candidates if _money_field(f) and not _measures(f)]
        if len(money) == 1:
            return money, money  # the record's only amount is the slot
        candidates = money
    if q.kind == "number" and _said_as_length(r.text, q):
        # "a two-year tracker", "in 37 minutes": the field of a length of time that holds it
        # (24 months, "PT37M"); one that does not is no reason to read another field's figure
        # as changed
        timed = [f for f in candidates if _holds_length(f)]
        held = [f for f in timed if _value_match(r.text, q, f) == "same"]
        if held:
            return held, held
    by_noun = [f for f in candidates if _counts_for(r.text, q, f)]  # "0 layovers"
    if by_noun:
        return candidates, by_noun
    before = _word_before(r.text, q)
    keyed = [f for f in candidates if before and _key_word(f) == before]  # "balance 0.0421"
    if keyed:
        return candidates, keyed
    # a key written right before another figure is that figure's ("10:15 Jelena to Hvar Town:
    # arrival 11:20": "arrival" is not the slot of 10:15)
    taken = {_word_before(r.text, p) for p in r.claim_qs if p is not q} - {""}
    # what an amount includes or leaves out is not what it is ("£80 including VAT")
    taken |= {_norm(m[1]) for m in _INCLUDED.finditer(r.text)}
    scored = [(0 if _key_word(f) in taken else _aligned(r, f), f) for f in candidates]
    best = max((s for s, _ in scored), default=0)
    if best > 0:
        top = [f for s, f in scored if s == best]
        unit = _claim_unit(r.text, q)  # "8.6 km" of the distance, not of the minutes beside it
        own = [f for f in top if f.unit == unit] if unit else []
        return candidates, own or top
    measured = _measured(r.text, q, candidates)  # "89 degrees": the temperature
    if len(measured) == 1:
        return candidates, measured
    if q.kind in ("time", "date") and len(candidates) == 1:
        return candidates, candidates  # the record's one field of the figure's type
    dated = _on_its_date(r, q, candidates)  # "2 pm on 2 December": the field of that day
    return candidates, dated if len(dated) == 1 else []


def _on_its_date(r: _Reading, q: Quantity, candidates: list[_Field]) -> list[_Field]:
    """The fields of a clock that hold it with a date the claim writes ("at 2 pm on 2
    December" of ``visitScheduled: 2026-12-02T10:00``): the day says which time is meant."""
    if q.kind != "time":
        return []
    days = [d for d in r.claim_qs if d.kind == "date" and not _day_only(d)]
    return [
        f
        for f in candidates
        if any(e.kind == "date" and quantities_match(d, e) for d in days for e in f.quantities)
    ]


_INCLUDED = re.compile(
    r"\b(?:including|incl\.?|inclusive\s+of|excluding|excl\.?|exclusive\s+of)\s+([^\W\d_]+)", re.I
)
_KEY_BEFORE = re.compile(r"([^\W_]+)\s*[:=]?\s*$")  # the word right before a figure


def _word_before(text: str, q: Quantity) -> str:
    """The word written right before a figure, as ``_norm`` spells it ("" for none): a key,
    where the claim lists keys and values ("balance 0.0421, price 74,250.00 EUR", "adult
    fare: 14.00 EUR")."""
    m = _KEY_BEFORE.search(text, max(0, q.start - 24), q.start)
    return "" if m is None else _norm(m[1])


def _bare_keys(f: _Field) -> list[str]:
    """A field's key words without its unit or currency ("tip" of ``tip_gbp``)."""
    return [k for k in f.keys if k not in _CURRENCY_KEYS and not _unit_word(k)]


def _key_word(f: _Field) -> str:
    """The field's last key word that is no unit or currency ("fare" of ``adult_fare_eur``),
    as a claim writes it before the figure; "" for a function word ("at" of ``seen_at``, "by"
    of ``due_by``: it says no field)."""
    keys = _bare_keys(f)
    return keys[-1] if keys and _counts(keys[-1]) else ""


def _aligned(r: _Reading, f: _Field) -> int:
    """``_alignment`` of field ``f`` with the claim's words, read once a claim per field."""
    hits = r.alignments.get(f.chunk)
    if hits is None:
        hits = r.alignments[f.chunk] = _alignment(f, r.word_set)
    return hits


def _numbered(text: str, f: _Field) -> bool:
    """Whether the claim writes the field's value with a number sign ("PR #1289", "No. 7"):
    the field is the record's number, not an amount any figure could change."""
    value = f.value.strip()
    signed = _signed(text)  # the words after a number sign, read once a claim
    if not value or not signed:
        return False
    if any(c.isspace() for c in value):
        return re.search(rf"(?:#\s?|\bNo\.\s?){re.escape(value)}(?!\w|\.\d)", text) is not None
    after = re.compile(rf"{re.escape(value)}(?!\w|\.\d)")
    return any(after.match(word) for word in signed)


_SIGNED = re.compile(r"(?:#\s?|\bNo\.\s?)(\S+)")


@lru_cache(maxsize=1024)
def _signed(text: str) -> tuple[str, ...]:
    """What the claim writes right after each number sign ("#1289", "No. 7")."""
    return tuple(m[1] for m in _SIGNED.finditer(text))


def _measured(text: str, q: Quantity, fields: list[_Field]) -> list[_Field]:
    """The fields whose key names what the figure's unit measures ("89 degrees" for
    ``temperature``) or whose unit measures it too ("400 metres" of ``distance_km``)."""
    unit = _claim_unit(text, q)
    words = MEASURES.get(unit, ())
    measure = UNIT_SCALES[unit][0] if unit in UNIT_SCALES else ""
    return [
        f
        for f in fields
        if any(w in f.keys for w in words)
        or (measure and f.unit in UNIT_SCALES and UNIT_SCALES[f.unit][0] == measure)
    ]  # "400 metres" of ``distance_km``


# A comparison word, then the field it compares with within three words ("below the normal
# range", "within range", "over the limit"); bounded repetition: linear time.
_COMPARISON = re.compile(
    r"\b(?P<op>below|under|beneath|lower than|less than|above|over|higher than|more than"
    r"|greater than|exceeds|exceeding|exceed|within|inside|outside|out of|in)\s+"
    r"(?P<rest>(?:[^\W_]+\s+){0,2}[^\W_]+)",
    re.I,
)
_BELOW = frozenset({"below", "under", "beneath", "lower than", "less than"})
_ABOVE = frozenset({"above", "over", "higher than", "more than", "greater than", "exceeds"}) | {
    "exceeding",
    "exceed",
}
_OUTSIDE = frozenset({"outside", "out of"})


def _holds(op: str, value: float, low: float, high: float) -> bool:
    """Whether ``value`` stands as ``op`` says against the figures ``low``..``high``."""
    if op in _BELOW:
        return value < low
    if op in _ABOVE:
        return value > high
    if op in _OUTSIDE:
        return value < low or value > high
    return low <= value <= high  # within, inside, in


def _comparisons(r: _Reading) -> FieldDecision | None:
    """A figure compared with a field by its key ("18 ng/mL, which is below the normal range"
    for ``reference_range: "30-100"``): the field is what the figure is compared with, never
    its slot. A comparison the field's figures bear out states the field; one they do not is
    unsupported (never a contradiction of the field's value)."""
    for m in _COMPARISON.finditer(r.text):
        op = " ".join(m["op"].lower().split())
        rest = _words(m["rest"])
        if any(c.isdigit() for c in m["rest"]):
            continue  # "more than 2 stops", "over 10 degrees": a bound, read by the figures
        fields = [
            f
            for f in r.scope
            if f.quantities and f.numeric and f not in r.stated and set(f.keys) & set(rest)
        ]
        if len(fields) != 1 or (op == "in" and not _range_like(fields[0])):
            continue  # "in Chicago", "over the weekend": no field compared
        f = fields[0]
        near = [
            q
            for q in r.free
            if not m.start() <= q.start < m.end()
            and any(comparable(_for_field(q, f), e) for e in f.quantities)
            and _value_match(r.text, q, f) != "same"  # "in the price range £20-25": its value
        ]
        if not near:
            continue
        q = min(near, key=lambda q: min(abs(q.start - m.start()), abs(q.end - m.start())))
        held = [b for e in f.quantities if comparable(_for_field(q, f), e) for b in e.values()]
        if not all(_holds(op, a, min(held), max(held)) for a in q.values()):
            r.out.structured = True
            return r.out  # the record's figures do not bear it out: unsupported
        r.compared.append((q, f))
        r.stated.append(f)
        r.covered.update(f.keys)
        r.covered.update(_words(m[0]))
    return None


def _range_like(f: _Field) -> bool:
    """A field holding two figures, or named a range, a limit or a band."""
    return len({e.raw for e in f.quantities}) > 1 or bool(
        set(f.keys) & {"range", "limit", "band", "bounds"}
    )


_NOT_COUNTED = frozenset(UNITS) | frozenset(_CURRENCY_WORDS) | {"pounds", "percent", "per"}


def _state_held(r: _Reading, numeric: list[_Field]) -> None:
    """First the figures their best-aligned field holds exactly, so a field they state is not
    taken as the slot of another figure ("the 2020 report lists 1234 employees")."""
    for q in list(r.free):
        candidates, top = _slot(r, numeric, q)
        same = [f for f in top or candidates if _value_match(r.text, q, f) == "same"]
        by_noun = bool(top) and _counts_for(r.text, q, top[0])  # "1 layover" is no passenger
        if not same and top and _alignment(top[0], r.word_set) < _KEY_NAMED and not by_noun:
            # aligned only through a related word ("weather" for ``wind``): a field holding
            # the figure itself says more, unless it is money and the figure counts a thing
            # ("holds 24 people" is no rate of £24)
            after = _next_words(r.text, q)[:1]
            counts = q.kind == "number" and bool(after) and after[0] not in _NOT_COUNTED
            same = [
                f
                for f in candidates
                if _value_match(r.text, q, f) == "same" and not (counts and _money_field(f))
            ]
        if same:
            _state(r, same[0], q)
            r.free.remove(q)


def _bare_trip_clock(r: _Reading, q: Quantity, candidates: list[_Field]) -> bool:
    """The claim's one clock, tied by no key word ("a 6:50 pm with 1 layover"), where every
    field of its type is when the result starts or ends (a departure, an arrival, a pickup): a
    clock fills only a field of its type, and each holds another value; a trip's time said
    bare is when it starts (named first). A record whose clocks are of other kinds (a hotel's
    check-in) leaves a clock of something else ("the pool is open until 10 pm") unsupported.
    Two clocks may be one computed from the other ("around 11:28 rather than 11:16"): not
    read."""
    return (
        _one_result(r)
        and not q.hedged
        and not _APPROXIMATELY.search(r.text[max(0, q.start - 16) : q.start])
        and sum(x.kind == q.kind for x in r.claim_qs) == 1
        and _clock_slots(q, candidates)
        and all(set(f.keys) & (_START_WORDS | _END_WORDS) for f in candidates)
    )


# A figure (and its unit) that measures from another time ("43 minutes after you placed it",
# "two days before pickup"): worked out from two values, no field's own.
_OFFSET = re.compile(r"\s*(?:[^\W\d_]+\s+)?(?:after|before|later|earlier)\b", re.I)


def _decided(r: _Reading, f: _Field, q: Quantity) -> bool:
    """Whether a changed value ``q`` of field ``f`` contradicts the claim: the claim is about
    known records, or ``f`` is outside every list of the one tool result read (a nested
    object's field has one path, so no other record holds the claim's figure for it) and the
    claim ties the figure to it by its type (a clock, a date), its unit ("8.6 km" of
    ``distanceKm``) or the field's own key word ("£11.30 in booking fees" of ``fees_gbp``);
    or the figure is a clock the claim writes with the date of ``f``'s datetime."""
    if r.decided or _on_its_date(r, q, [f]):
        return True  # "on 16 December at two" of the one datetime holding that day
    if "[" in f.id or len(r.table.tops) != 1 or r.table.prose:
        return False
    unit = _claim_unit(r.text, q)
    return (
        q.kind in ("time", "date")
        or (bool(unit) and unit == f.unit)
        or bool({k for k in f.keys if k not in _GENERIC_KEYS | _NAMING} & r.word_set)
    )


_PART_OF = re.compile(r"\d\s+(?:out\s+)?of\s+$")  # "1 of 2 available": the whole after "of"


def _state_wholes(r: _Reading, numeric: list[_Field]) -> None:
    """The whole of a part the claim states ("1 of 2 available", "3 out of 4 spaces"): a
    field of the part's record that holds the figure after "of" states it."""
    records = {f.record for f in r.stated}
    for q in list(r.free):
        if not _PART_OF.search(r.text[max(0, q.start - 12) : q.start]):
            continue
        wholes = [
            f
            for f in numeric
            if f.record in records and f not in r.stated and _value_match(r.text, q, f) == "same"
        ]
        if wholes:
            _state(r, wholes[0], q)
            r.free.remove(q)


def _clock_changed(
    r: _Reading, q: Quantity, top: list[_Field], candidates: list[_Field]
) -> FieldDecision | None:
    """A clock or a date no single slot takes that every field its words name holds otherwise,
    or a trip's bare clock against its start and end (``_clock_slots``, ``_bare_trip_clock``)."""
    if all(_decided(r, f, q) for f in top) and not q.hedged and _clock_slots(q, top):
        return _changed_clock(r, q, top)
    if not top and _bare_trip_clock(r, q, candidates):
        starts = sorted(
            candidates,
            key=lambda f: len(set(f.keys) & _END_WORDS) - len(set(f.keys) & _START_WORDS),
        )
        return _changed_clock(r, q, starts)
    return None


def _figures(r: _Reading) -> FieldDecision | None:
    """Each figure left against the fields of its type: stated by one, or a changed value of
    the one slot it can fill (a contradiction), or unsupported."""
    numeric = [f for f in r.scope if f.quantities and f.numeric]
    out = r.out
    counts = [q for q in r.free if _count_phrase(r, q)][:_MAX_COUNTS] if _lists(r.table) else []
    for q in counts:  # "two of them", "the other three": how many results, no item's value
        counted = _counted(r, q)
        if counted is False:
            out.structured = True
            return out
        r.free.remove(q)  # counted, or what it counts is unknown: no value of a field
    for q in [q for q in r.free if _counts_a_list(r, q)][:_MAX_COUNTS]:
        r.free.remove(q)  # "your five courses": the length of the record's list of courses
    _state_held(r, numeric)
    _state_wholes(r, numeric)
    if not _state_hours(r, numeric):  # "from nine" where no clock says nine: unsupported
        return _unsupported(r)
    for q in r.free:
        candidates, top = _slot(r, numeric, q)
        if not candidates and _computed(r, q):
            continue  # a figure worked out from the record's ("by 15 points")
        if q.kind == "time" and candidates and _computed_clock(r, q, candidates):
            continue  # a clock worked out from the record's ("40 minutes, so done by 8:25")
        if not candidates:
            # a value no field of its type holds: unsupported
            out.structured = out.structured or r.decided  # the record's, not the prose's
            return out
        matches = [(f, _value_match(r.text, q, f)) for f in (top or candidates)]
        same = [f for f, m in matches if m == "same"]
        if same:
            _state(r, same[0], q)
            continue
        if _computed(r, q):
            continue  # "beat them by 15 points", "two £45 permits come to £90"
        if any(m == "bound" for _, m in matches):
            out.structured = out.structured or r.decided
            return out  # "under £20" against "£20-25": unsupported, never contradicted
        unit = [f for f, m in matches if m == "unit" and f in top]
        values = {f.value for f in top}
        singled = None if unit or len(values) == 1 else _singled(r, q, top)
        target = unit[0] if unit else (top[0] if len(values) == 1 else singled)
        if target is not None and not unit and _nearer_figure(r, q, target):
            # "trading at $131.20, ... for a market cap of $3.2 trillion": the key word is
            # the other figure's; this one is stated by a field holding it, or unsupported
            held = [
                f for f in candidates if f is not target and _value_match(r.text, q, f) == "same"
            ]
            if not held:
                out.structured = out.structured or r.decided
                return out
            _state(r, held[0], q)
            continue
        clock = None if target is not None else _clock_changed(r, q, top, candidates)
        if clock is not None:
            return clock
        if (
            target is None
            or not (target is singled or _decided(r, target, q))
            or (q.hedged and not _far_off(r, q, target))
            or _named_by_synonym(r.text, q, target, unit, r.word_set)
        ):
            # no single slot for the value, or a hedged one: unsupported, never contradicted;
            # a figure about the record ("a range of up to 150 km") is not the prose's to ground
            out.structured = out.structured or r.decided
            return out
        if _another_figure(r, q, target, candidates, bool(unit)):
            return out
        return _changed_figure(r, q, target, bool(unit))
    return None


def _singled(r: _Reading, q: Quantity, top: list[_Field]) -> _Field | None:
    """The one of ``top`` (a key of every item of a list) in the only item that holds every
    other figure of the claim, two or more ("the 20:45 showing on screen 7 has 60 seats
    left": the seats left of the showing at 20:45 on screen 7), or else the only item of a
    month the claim names alone ("your November gas bill" of the item whose ``month`` is
    ``2026-11``)."""
    if len(top) > _MAX_ITEMS or any("[" not in f.record for f in top):
        return None
    others = [c for c in r.claim_qs if c is not q][:_MAX_COUNTS]
    if len(others) >= 2:
        fits = [f for f in top if all(_holds_figure(r, f.record, c) for c in others)]
    else:
        fits = [f for f in top if f.record == _month_item(r)]
    return fits[0] if len(fits) == 1 else None


def _holds_figure(r: _Reading, record: str, c: Quantity) -> bool:
    return any(_value_match(r.text, c, g) == "same" for g in r.table.by_record.get(record, []))


_FULL_MONTHS = {m: n for m, n in _MONTHS.items() if len(m) > 3}
_YEAR_MONTH = re.compile(r"\d{4}-(\d{2})(?:-\d{2})?")


def _months_named(text: str, figures: Sequence[Quantity]) -> set[int]:
    """The months a claim names by their full names outside ``figures`` ("October's pay ...
    on 23 October": October, read outside the date); "May" only capitalised."""
    named = set()
    for m in re.finditer(r"[A-Za-z]+", text):
        if any(q.start <= m.start() < q.end for q in figures):
            continue
        word = m[0].lower()
        if word in _FULL_MONTHS or m[0] == "May":
            named.add(_MONTHS[word])
    return named


def _month_item(r: _Reading) -> str:
    """The only list item of the one month the claim names outside its dates ("September's
    payslip" of the item whose ``period`` is ``2026-09``), "" for none (read once a claim)."""
    if r.month_item is None:
        months = _months_named(r.text, [q for q in r.found_qs if q.kind == "date"])
        items = {f.record for f in r.table.fields if "[" in f.record} if len(months) == 1 else ()
        held = [rec for rec in items if months <= _item_months(r.table, rec)]
        r.month_item = held[0] if len(held) == 1 else ""
    return r.month_item


def _item_months(table: _Table, record: str) -> set[int]:
    """The months of an item's ISO dates and year-months ("2026-11", "2026-10-30")."""
    return {
        int(m[1])
        for f in table.by_record.get(record, [])
        if (m := _YEAR_MONTH.match(f.value.strip())) is not None
    }


def _another_figure(
    r: _Reading, q: Quantity, target: _Field, candidates: list[_Field], unit: bool
) -> bool:
    """Whether a figure the one slot ``target`` holds otherwise may be no value of it: a band
    in another currency, a bare figure against money, a rate against a total, another
    field's figure, a difference ("$7.80 more than"): unsupported, never a changed value."""
    return bool(
        (unit and target.band != target.value)
        or _loose_money(r.text, q, target)
        or _rate_of_another(r, q, target)
        or _held_elsewhere(r, q, target, candidates)
        or _denied_key(r, target)
        or _duration_of_another(r, q, target)
        or _OFFSET.match(r.text, q.end)
        or _modifier_of_another(q, target)
        or _difference_said(r.text, q)
    )


_NONE = frozenset({"no", "zero"})


def _none_of(r: _Reading) -> FieldDecision | None:
    """ "No absences", "zero transfers": a count the claim says is none, of the numeric field
    whose last key word it writes after "no" (its plural as ``_words`` spells it). Stated
    where the field holds 0; elsewhere a changed value, when the claim is about the record."""
    words = r.words
    for f in r.scope:
        if not (f.numeric and f.quantities and f.keys) or f in r.stated or f.money:
            continue
        key = f.keys if len(f.keys) > 1 and _contains(words, f.keys) >= 0 else f.keys[-1:]
        at = _after_none(words, key)
        end = at + len(key)
        if at < 0 or (end < len(words) and words[end].isdigit()):
            continue
        if all(e.value == 0 for e in f.quantities):
            r.stated.append(f)
            r.covered.update([*f.keys, words[at - 1]])
        elif r.decided and len({e.value for e in f.quantities}) == 1:
            said = _original(r.text, " ".join(words[at - 1 : end]))
            return _contradicted(r.out, f, r.index, "number", said)
    return None


def _after_none(words: list[str], key: list[str], *, lo: int = 1) -> int:
    """Where ``key`` stands right after "no" or "zero" in ``words`` (from ``lo`` on); -1 if
    nowhere."""
    n = len(key)
    return next(
        (i for i in range(lo, len(words)) if words[i : i + n] == key and words[i - 1] in _NONE),
        -1,
    )


# An amount of money said to be none: "no delivery fee" (a field's key after "no"), "no
# charge", "free of charge", "costs nothing" (any amount of the record), "it's free".
_ZERO_NOUNS = lexicon_words("fields.zero_amount_nouns")  # "no charge", "no extra fee"
_ZERO_BETWEEN = lexicon_words("fields.zero_amount_between")  # "no *extra* charge"
_PRICE_KEYS = lexicon_words("fields.price_keys")  # a key that says "the price" of a record
_ZERO_PHRASES = tuple(
    [_norm(w) for w in phrase.split()]
    for phrase in sorted(lexicon_words("fields.zero_amounts"), key=lambda p: (-len(p), p))
)  # the longest first: "free of charge" before "free"
_ANSWER_NO = re.compile(r"\W*no\s*[,;:.!–—-]", re.I)  # "No, the fee is £3": an answer, no amount


def _zero_amounts(r: _Reading) -> FieldDecision | None:
    """An amount of money the claim says is none. Named by a money field's key after "no"
    ("no restocking fee", "no tip"): stated where that field holds 0, a changed value where
    it is the one field so named and holds another amount. Said of no field ("no charge",
    "free of charge", "costs nothing"): stated by an amount of 0 of the claim's records that is
    a price or that the claim names (``_priced``), unsupported where none is and nothing but
    the record follows the words (``_said_of_all``; never a contradiction: which amount is
    meant is not said). "Free" alone ("it's free", "free with 4 spaces left") only supports: it also
    means "not taken" ("none of the bays are free")."""
    money = [f for f in r.scope if f.money and f.quantities]
    if not money:
        return None
    words = r.words
    first = 1 if _ANSWER_NO.match(r.text) else 0  # "No, ..." says no amount
    named = []
    for f in money:
        keys = _bare_keys(f)  # "tip" of ``tip_gbp``
        if not keys:
            continue
        key = keys if len(keys) > 1 and _contains(words, keys) >= 0 else keys[-1:]
        at = _after_none(words, key, lo=first + 1)
        end = at + len(key)
        if at > 0 and not (end < len(words) and words[end].isdigit()):
            named.append((f, at, end))
    if named:
        zero = [f for f, _, _ in named if _none_held(f)]
        if zero:
            r.stated.extend(f for f in zero if f not in r.stated)
            r.covered.update(w for _, at, end in named for w in words[at - 1 : end])
            return None
        f, at, end = named[0]
        if r.decided and len(named) == 1 and len({q.value for q in f.quantities}) == 1:
            said = _original(r.text, " ".join(words[at - 1 : end]))
            return _contradicted(r.out, f, r.index, "money", said)
        r.blocked = True  # "no fee" of two amounts, neither of them 0: unsupported
        return None
    own = r.covered | {w for f in r.stated for w in f.words}  # "no charge for Spin 45"
    zero_said = _zero_said(words, first, own)
    if zero_said is None:
        return None
    phrase, strong = zero_said
    zero = [f for f in money if _none_held(f) and _priced(f, r)]
    if zero:
        r.stated.extend(f for f in zero if f not in r.stated)
        r.covered.update(phrase)
    elif strong:
        r.blocked = True  # "no charge" of a record whose amounts are not none: unsupported
    return None


def _priced(f: _Field, r: _Reading) -> bool:
    """Whether a zero amount said of no field may be field ``f``'s: one of the claim's
    records, and a price by its key ("price_gbp", "fee") or named by the claim ("parking is
    free" of ``parking_fee``; not "breakfast is free")."""
    if r.named and f.record not in r.named:
        return False
    keys = _bare_keys(f)
    return all(k in _PRICE_KEYS for k in keys) or any(k in r.word_set for k in keys)


def _said_of_all(words: list[str], end: int, own: set[str]) -> bool:
    """Whether a zero amount ending at ``end`` is said of the whole record: no content word
    but the record's own (``own``: its name, a value already stated) follows it ("there's
    no charge for it", "no charge for Spin 45"; not "you can cancel for free", "no charge to
    cancel": what is free is then a thing done)."""
    return not any(w and _counts(w) and w not in own for w in words[end:])


def _none_held(f: _Field) -> bool:
    return all(q.value == 0 for q in f.quantities)


def _zero_said(words: list[str], first: int, own: set[str]) -> tuple[list[str], bool] | None:
    """The words of a claim that say an amount is none, and whether they say it of money
    alone ("no charge", "free of charge": True; "free": False); None if none do."""
    for i in range(first, len(words)):
        if words[i] not in _NONE:
            continue
        j = i + 1 + (i + 1 < len(words) and words[i + 1] in _ZERO_BETWEEN)
        if j < len(words) and words[j] in _ZERO_NOUNS:
            return words[i : j + 1], _said_of_all(words, j + 1, own)
    for phrase in _ZERO_PHRASES:
        at = _contains(words, phrase)
        if at < 0:
            continue
        if phrase != ["free"]:
            return phrase, _said_of_all(words, at + len(phrase), own)
        after = words[at + 1 : at + 2]
        if not after or not _counts(after[0]) or after[0] in _FILLER:  # not "free parking"
            return phrase, False
    return None


_COUNT_OF = re.compile(r"\s+of\s+(?:them|these|those|the)\b", re.I)
_COUNT_OPENS = re.compile(r"\W*(?:(?:just|only)\s+)?$", re.I)
_COUNT_CLOSES = re.compile(r"\s*(?:[-–—:]|of\b)", re.I)
_OF_ALL = re.compile(r"\b(?:of the|of all|out of the)\s+$", re.I)  # "two of the three"
_MAX_COUNT = 50  # a count of results, not an amount
_REACH = 24  # characters before a figure read for the words that make it a count
_MAX_COUNTS = 5  # count phrases of a claim read against the lists
_MAX_ITEMS = 50  # items whose figures are read in pairs for a worked-out figure
_MAX_TIMES = 10  # "two £45 permits": a few of one thing
_MAX_OPERANDS = 40  # figures of one item read in pairs (a record of thousands: bounded)
_SAME = 0.005  # figures equal to the cent


def _count_phrase(r: _Reading, q: Quantity) -> bool:
    """Whether the figure counts results: "two of them", "three of the five", "the other
    three", or opening the claim before a dash or colon ("Just one - ...", "Two: ...");
    "only 2 spaces left" is a value."""
    if q.kind != "number" or q.hedged or not float(q.value).is_integer():
        return False
    before = r.text[max(0, q.start - _REACH) : q.start]  # the words just before: linear
    return bool(
        _COUNT_OF.match(r.text, q.end)
        or _OF_ALL.search(before)
        or before.rstrip().lower().endswith(" other")
        or (
            q.start < _REACH
            and _COUNT_OPENS.fullmatch(before)
            and _COUNT_CLOSES.match(r.text, q.end)
        )
    )


def _counts_a_list(r: _Reading, q: Quantity) -> bool:
    """Whether a whole figure counts the items of a list the noun after it names ("across
    his five courses" for five items under ``courses``, "your two tickets"): the noun's
    words are then the record's. A count the list does not have stays a figure to read."""
    if q.kind != "number" or q.hedged or not float(q.value).is_integer():
        return False
    noun = _counted_noun(r.text, q)
    if not noun:
        return False
    for path, items in _lists(r.table).items():
        keys = _key_words(path.rsplit(".", 1)[-1].split("[")[0])
        if not keys or not _related(noun, keys[-1], synonyms=False):
            continue
        if len(items) == q.value or _summed_count(items.values()) == q.value:
            r.covered.update((noun, keys[-1]))  # "five tickets": 2 adult, 2 child, 1 under-5
            return True
    # a list of values, read as one field: "your three (adult) seats" of F11, F12, F13
    nouns = _next_words(r.text, q)
    for f in r.scope:
        if len(f.items) == q.value > 1 and not f.numeric and f.keys:
            said = [w for w in nouns if _related(w, f.keys[-1], synonyms=False)]
            if said:
                r.covered.update((said[0], f.keys[-1]))  # not "child" of "two child seats"
                r.stated.append(f)
                return True
    return False


def _summed_count(items: Iterable[list[_Field]]) -> float | None:
    """The sum over a list's items of their one count field (``qty``, ``quantity``), None
    where an item has none or more than one."""
    total = 0.0
    for fields in items:
        counts = [f for f in fields if f.numeric and set(f.keys) & _QUANTITY_KEYS]
        if len(counts) != 1 or not counts[0].quantities:
            return None
        total += counts[0].quantities[0].value
    return total


_QUANTITY_KEYS = frozenset({"qty", "quantity", "count"})
_TWO_WORDS = re.compile(r"\s*([A-Za-z]+)(?:[\s-]+([A-Za-z]+))?")


def _difference_said(text: str, q: Quantity) -> bool:
    """Whether the figure is said as a difference: a comparative within the three words
    after it ("$7.80 more than the Budget car", "20 minutes later"). What it is the
    difference of may be another item's value: never a changed value of this one."""
    # "£45, more than ...": a comparative in the next clause is that clause's
    tail = _words(_CLAUSE_BREAK.split(text[q.end : q.end + 40], 1)[0])[:3]
    return any(w in _COMPARATIVES for w in tail)


def _next_words(text: str, q: Quantity) -> list[str]:
    """The one or two words right after a figure, as ``_words`` spells them ("three *adult
    seats*"): what it counts, a word that describes it first."""
    m = _TWO_WORDS.match(text, q.end)
    return [w for w in (_norm(m[1].lower()), _norm((m[2] or "").lower())) if w] if m else []


def _lists(table: _Table) -> dict[str, dict[str, list[_Field]]]:
    """The record's lists: each list's path -> its items (their records) -> their fields
    (read once per table)."""
    if table.lists is None:
        table.lists = {}
        for f in table.fields:
            if "[*]" in f.group:
                path = f.group[: f.group.rindex("[*]")]
                table.lists.setdefault(path, {}).setdefault(f.record, []).append(f)
    return table.lists


def _own_words(table: _Table) -> dict[str, frozenset[str]]:
    """Each list item's own words: the words of its values that no other item of its list
    holds and that tell one thing from another ("partizan", "monaco"; not "final"), read once
    per table."""
    if table.own is None:
        table.own = {}
        for items in _lists(table).values():
            held = {rec: {w for f in fs for w in f.words} for rec, fs in items.items()}
            seen = Counter(w for words in held.values() for w in words)  # linear in the list
            for rec, words in held.items():
                table.own[rec] = frozenset(
                    w for w in words if seen[w] == 1 and w.isalpha() and word_weight(w) >= _DISTINCT
                )
    return table.own


def _items_apart(r: _Reading) -> bool:
    """Whether the claim names an item of a list by its own words, states no field of it and
    states fields of other items of that list ("Partizan and Monaco are still playing" read
    against the state of the first game): the fields it states are not the named item's."""
    own = _own_words(r.table)
    used = {rec: words & r.word_set for rec, words in own.items()}
    named = {rec for rec, words in used.items() if words}
    stated = {f.record for f in r.stated if f.record in own}
    # the named item's fields whose words name it ("homeTeam": "Partizan") state no fact of it
    facts = {f.record for f in r.stated if f.record in named and not set(f.words) & used[f.record]}
    lists = {rec.rsplit("[", 1)[0] for rec in stated - named}
    return any(rec not in facts and rec.rsplit("[", 1)[0] in lists for rec in named)


def _counted(r: _Reading, q: Quantity) -> bool | None:
    """Whether a count of results is what the record holds: the items whose yes/no field named
    by the claim's words holds as the claim says (not, when it denies: "just one has no
    early repayment charge"; their fields are then stated), or every item of a list, or all
    but one ("the other three"). False: the named field holds for another number of them (a
    wrong count is unsupported, never a changed value of an item's field). None: nothing the
    record holds tells what is counted ("two of them do: ...", "of the two five-year fixes"):
    the figure is left unread, neither stated nor a value."""
    n = q.value
    if not 0 <= n <= _MAX_COUNT:
        return None
    lists = list(_lists(r.table).values())
    before = r.text[max(0, q.start - _REACH) : q.start]
    other = before.rstrip().lower().endswith(" other")
    whole = {len(items) - other for items in lists}
    if _OF_ALL.search(before):  # "of the three": the whole list, or a part of it
        return True if n in whole else None
    denied = any(negator(t) for t in r.toks)  # "can't", "no", "non-refundable"
    for items in lists:
        flags: dict[str, list[_Field]] = {}
        for fields in items.values():
            for f in fields:
                if f.truth is not None and not f.numeric:
                    flags.setdefault(f.group, []).append(f)
        named: list[tuple[list[_Field], set[str], set[str]]] = []
        for group in flags.values():
            heads = {k for k in group[0].keys if k not in _GENERIC_KEYS | NEGATIVE_HEADS}
            naming = {w for w in r.words if any(_related(w, k, False, verbs=True) for k in heads)}
            if naming and len(group) == len(items):
                named.append((group, heads, naming))
        if len(named) > 1:
            return None  # two yes/no fields the claim may mean
        if named:
            group, heads, naming = named[0]
            negative = bool({*group[0].keys} & NEGATIVE_HEADS)  # ``non_refundable``
            held = [f for f in group if f.truth is (denied == negative)]
            if len(held) != n:
                return False
            r.stated.extend(held)
            r.covered.update(naming | heads)
            r.covered.update(w for w in map(_norm, r.toks) if w.endswith("n't"))
            return True
    return True if n > 1 and n in whole else None


def _items_of_kind(r: _Reading, q: Quantity) -> dict[str, list[tuple[_Field, Quantity]]]:
    """The figures of the fields in scope of ``q``'s kind (money of its currency), by item;
    at most ``_MAX_OPERANDS`` an item (a record of thousands: bounded work)."""
    items: dict[str, list[tuple[_Field, Quantity]]] = {}
    money = q.kind == "money"
    for f in r.scope:
        if not f.numeric or money != _money_field(f):
            continue
        currency = f.currency or q.currency
        if money and currency and q.currency and currency != q.currency:
            continue  # "£54" is no sum of dollars
        for e in f.quantities:
            bare = q.kind == "percent" and e.kind == "number" and not (f.unit or f.currency)
            if e.kind == q.kind or (money and e.kind == "number") or bare:  # ``price_gbp: 18.0``
                if f.record not in items and len(items) >= _MAX_ITEMS:
                    continue
                pairs = items.setdefault(f.record, [])
                if len(pairs) < _MAX_OPERANDS:
                    pairs.append((f, e))
    return items


def _computed(r: _Reading, q: Quantity) -> bool:
    """Whether a figure no field holds is worked out from the record's: the difference of two
    figures of one item that share a key word or are both money ("beat them by 15 points",
    "£12,000 more than you asked for"), the sum of two amounts of one item ("£19.50 with the
    booking fee"), the total of one field over every item of a list ("7 absences in total"
    over five courses), the days or nights between two dates of one item ("a three-night
    stay", ``_days_between``), or a few times one amount ("two £45 permits come to £90", and the
    "two" itself). The claim is then at best inferred (``_Reading.computed``); a wrong sum
    stays unsupported, never a changed value. A hedged figure ("almost 12 points higher") is
    a sum or a difference within ``_APPROXIMATE`` of it, never a product; a percentage is
    only a difference ("66 percentage points" from 14% to 80%)."""
    if q.kind not in ("number", "money", "percent"):
        return False
    between = _days_between(r, q)
    if between:  # "a three-night stay" from check-in to check-out
        r.stated.extend(between)
        r.computed = True
        return True
    every = _items_of_kind(r, q)
    operands: list[_Field] = []
    if r.cued is None:
        r.cued = bool(set(r.toks) & _ARITHMETIC_CUES)  # once a claim
    near = _APPROXIMATE * abs(q.value) + _SAME if q.hedged else _SAME
    # a sum or a difference is said as one ("more", "by", "in total"); a product by its count
    items = every if r.cued else {}
    for pairs in items.values():
        for i, (f, a) in enumerate(pairs):
            for g, b in pairs[i + 1 :]:
                shared = ({*f.keys} & {*g.keys}) - _GENERIC_KEYS - _COUNT_KEYS
                if (shared or q.kind == "money") and f is not g:
                    apart = abs(abs(a.value - b.value) - q.value) < near
                    summed = q.kind == "money" and abs(a.value + b.value - q.value) < near
                    if apart or summed:  # "£12,000 more", "£19.50 with the booking fee"
                        operands = operands or [f, g]
    if not operands and r.cued:
        operands = _apart_items(r, q, every, near)
    if not operands and r.cued and q.kind != "percent":
        operands = _list_total(r, q, near)
    if q.hedged or q.kind == "percent":  # no count or product of one
        if operands:
            r.stated.extend(operands)
            r.computed = True
        return bool(operands)
    if not operands and q.kind == "money":
        times = {
            c.value
            for c in r.claim_qs[: _MAX_COUNTS * 4]  # the claim's first figures: bounded work
            if c is not q
            and c.kind == "number"
            and 1 < c.value <= _MAX_TIMES
            and float(c.value).is_integer()
        }
        operands = [
            f
            for pairs in every.values()
            for f, a in pairs
            if any(abs(k * a.value - q.value) < _SAME for k in times)
        ][:1]
    if not operands and q.kind == "number" and 1 < q.value <= _MAX_TIMES:
        # the "two" of "two £45 permits come to £90": a few of the amount the claim totals
        operands = [
            f
            for c in _unheld_amounts(r)
            for pairs in _items_of_kind(r, c).values()
            for f, a in pairs
            if abs(q.value * a.value - c.value) < _SAME
        ][:1]
    if operands:
        r.stated.extend(operands)
        r.computed = True
    return bool(operands)


_APPROXIMATE = 0.05  # a hedged figure worked out: within this share of it ("almost 12": 11.7)


_DAYS_IN = {"day": 1, "days": 1, "night": 1, "nights": 1, "week": 7, "weeks": 7}
"""Units of a count of days between two dates ("a three-night stay", "two days before")."""
_MAX_DATES = 20  # dates of one item read in pairs for a count of days between them


def _days_between(r: _Reading, q: Quantity) -> list[_Field]:
    """Two full dates of one item the figure counts the days (or nights, or weeks) between
    ("a three-night stay" of ``check_in``/``check_out``, "two days before pickup")."""
    if q.kind != "number" or q.hedged or q.value <= 0 or not float(q.value).is_integer():
        return []
    m = _HYPHENED_UNIT.search(q.raw) or _TIME_UNIT_AFTER.match(r.text, q.end)
    per = _DAYS_IN.get(m[1].lower()) if m else None
    if per is None:
        return []
    days: dict[str, list[tuple[_Field, int]]] = {}
    for f in r.scope:
        for e in f.quantities:
            day = _day_number(e)
            if day is not None and len(item := days.setdefault(f.record, [])) < _MAX_DATES:
                item.append((f, day))
    for item in days.values():
        for (f, a), (g, b) in itertools.combinations(item, 2):
            if f is not g and abs(a - b) == q.value * per:
                return [f, g]
    return []


def _day_number(e: Quantity) -> int | None:
    """A full date's day number (``date.toordinal``); None for anything else."""
    if e.kind != "date" or not math.isfinite(e.value):
        return None
    try:
        return datetime.date(*date_parts(e.value)).toordinal()
    except ValueError:  # a year or a month alone, or no such day
        return None


def _apart_items(
    r: _Reading, q: Quantity, every: dict[str, list[tuple[_Field, Quantity]]], near: float
) -> list[_Field]:
    """The same field of two items the claim names, the figure apart ("12 points higher in
    World History than in Chemistry" for their ``percent``)."""
    named = [rec for rec in every if rec in r.named]
    for i, a in enumerate(named):
        for b in named[i + 1 :]:
            for f, x in every[a]:
                for g, y in every[b]:
                    if f.keys == g.keys and abs(abs(x.value - y.value) - q.value) < near:
                        return [f, g]
    return []


def _list_total(r: _Reading, q: Quantity, near: float) -> list[_Field]:
    """The fields of one key, one in every item of a list, whose values add up to the figure
    ("7 absences in total" over five courses, "€397.40 so far" over four months)."""
    money = q.kind == "money"
    for items in _lists(r.table).values():
        if not 1 < len(items) <= _MAX_ITEMS:
            continue
        by_key: dict[tuple[str, ...], list[_Field]] = {}
        for fields in items.values():
            for f in fields:
                if not f.numeric or money != _money_field(f) or not f.quantities:
                    continue
                if money and f.currency and q.currency and f.currency != q.currency:
                    continue
                by_key.setdefault(tuple(f.keys), []).append(f)
        for group in by_key.values():
            if len(group) != len(items) or len({f.record for f in group}) != len(items):
                continue  # one figure in every item, or no total of the list
            if abs(sum(f.quantities[0].value for f in group) - q.value) < near:
                return group
    return []


_HYPHENED_UNIT = re.compile(r"-([A-Za-z]+)$")
_TIME_UNIT_AFTER = re.compile(r"[\s-]*([A-Za-z]+)")


def _same_length(text: str, q: Quantity, f: _Field) -> bool:
    """Whether a length of time said in one unit is the field's in another ("five-year
    fixes" for ``initial_period_months: 60``, "90 minutes" for ``duration_hours: 1.5``);
    only where the conversion is exact (no years to days)."""
    if q.kind != "number" or f.duration:
        return False
    m = _HYPHENED_UNIT.search(q.raw) or _TIME_UNIT_AFTER.match(text, q.end)
    word = m[1].lower() if m else ""
    said = TIME_LENGTHS.get(word) or TIME_LENGTHS.get(word.removesuffix("s"))
    held = next((TIME_LENGTHS[k] for k in reversed(f.keys) if k in TIME_LENGTHS), None)
    if said is None or held is None or said[0] != held[0] or said[1] == held[1]:
        return False
    return any(
        e.kind == "number" and abs(q.value * said[1] - e.value * held[1]) < _SAME
        for e in f.quantities
    )


def _modifier_of_another(q: Quantity, f: _Field) -> bool:
    """Whether a figure joined to its unit ("a two-year fix", "the 6-month permit") names a
    kind of thing whose unit ``f`` does not measure: no changed value of ``f`` (a rate, a
    price)."""
    m = _HYPHENED_UNIT.search(q.raw)
    if m is None:
        return False
    word = _norm(m[1].lower())
    unit = UNITS.get(word, "")
    return word not in f.key_set and not (unit and unit == f.unit) and not f.duration


def _unheld_amounts(r: _Reading) -> list[Quantity]:
    """The claim's first amounts that no field in scope holds (read once a claim)."""
    if r.unheld is None:
        money = [c for c in r.claim_qs if c.kind == "money"][:_MAX_COUNTS]
        r.unheld = [
            c for c in money if not any(_value_match(r.text, c, g) == "same" for g in r.scope)
        ]
    return r.unheld


def _held_elsewhere(r: _Reading, q: Quantity, f: _Field, candidates: list[_Field]) -> bool:
    """Whether another field of the figure's type holds it exactly ("the next 42 bus" about
    ``"route": "42"``, the key word ``next`` naming ``next_arrivals_min``): the figure may
    be that field's, so it is unsupported, never a changed value of ``f``."""
    if _counts_for(r.text, q, f, _heads(f)) or (
        _headed(r, f) and _head_near(r, f, q) and not _included(r, f)
    ):
        # "1 layover" (a unit or currency counts nothing: "0.25 ETH"), "a market cap of
        # $131.20": the field is named as the slot; "about £80 including VAT" is no VAT
        return False
    return any(g is not f and _value_match(r.text, q, g) == "same" for g in candidates)


_INCLUDING = frozenset(
    {"including", "incl", "inc", "excluding", "excl", "ex", "plus", "before", "after", "with",
     "without"}
)  # fmt: skip


_CLAUSE_BREAK = re.compile(r"[,;:()\u2013\u2014]|\s-\s")
_HEAD_REACH = 40  # characters between a figure and its field's head key word in one clause


def _head_near(r: _Reading, f: _Field, q: Quantity) -> bool:
    """Whether the field's head key word stands near the figure, in its clause ("used one
    credit, leaving you four": ``used`` is not the slot of "four")."""
    head = _heads(f)[-1]
    said = {_norm(s) for s in _SYNONYMS.get(head, ())}  # "seats left" of ``seats_available``
    for m in re.finditer(r"[A-Za-z]+", r.text):
        word = _norm(m[0].lower())
        if word != head and word not in said and not _related(word, head):
            continue
        lo, hi = (m.end(), q.start) if m.end() <= q.start else (q.end, m.start())
        if hi - lo <= _HEAD_REACH and not _CLAUSE_BREAK.search(r.text, lo, hi):
            return True
    return False


def _included(r: _Reading, f: _Field) -> bool:
    """Whether the field's head key word is said only as a part of another amount ("£80
    including VAT", "before tax"): the claim names what the figure includes, not its slot."""
    head = _heads(f)[-1]
    at = [i for i, t in enumerate(r.toks) if t == head]
    return bool(at) and all(i > 0 and r.toks[i - 1] in _INCLUDING for i in at)


def _headed(r: _Reading, f: _Field) -> bool:
    """Whether the claim says the field's head key word, its last that is no unit, scale,
    currency or type (``cap`` of ``market_cap_usd_bn``, ``posted`` of ``posted_date``,
    ``friday`` of ``hours.Friday``; not ``next`` of ``next_arrivals_min``): the claim names
    the field itself."""
    heads = _heads(f)
    return bool(heads) and heads[-1] in r.word_set


def _heads(f: _Field) -> list[str]:
    """The field's key words that say what it is: no unit, scale, currency or type."""
    return [
        k for k in f.keys
        if k not in _GENERIC_KEYS and k not in UNITS and k not in _KEY_SCALES
        and k not in _CURRENCY_KEYS and k not in _TYPE_KEYS and k not in _FUNCTION_KEYS
    ]  # fmt: skip


# A key's function words (``closesAt``, ``valid_to``): said by any claim, they name no field.
_FUNCTION_KEYS = frozenset({"at", "on", "in", "of", "by", "for", "to", "from", "the", "a"})


def _lasts(f: _Field, unit: str) -> bool:
    """Whether a length of time in ``unit`` ("min", "h") is the field's measure: a duration
    (``"PT37M"``) or a key naming one."""
    return unit in ("min", "h") and (f.duration or bool(_DURATION_KEYS & f.key_set))


def _duration_of_another(r: _Reading, q: Quantity, f: _Field) -> bool:
    """Whether a duration ("in 37 minutes") meets a field that holds no duration (a price per
    kWh): another measure, unsupported."""
    unit = _claim_unit(r.text, q)
    return unit in ("min", "h") and not (_lasts(f, unit) or f.unit in ("min", "h"))


def _denied_key(r: _Reading, f: _Field) -> bool:
    """Whether the claim denies the field by its head key word ("there was no idle fee"):
    it said the field's value, so another figure is no changed value of it."""
    heads = _heads(f)
    return bool(heads) and any(
        w == heads[-1] and any(x in ("no", "without", "zero") for x in r.words[max(0, i - 2) : i])
        for i, w in enumerate(r.words)
    )


def _computed_clock(r: _Reading, q: Quantity, fields: list[_Field]) -> bool:
    """Whether the clock is one of the fields' clocks moved by a duration the claim says
    ("booked for 40 minutes, so done by about 8:25" about a 07:45 start; "10 minutes early,
    so by 7:35"); if so, the field moved is stated and the claim worked out from it (inferred
    at best, as ``_computed`` leaves a sum)."""
    durations = set()
    for c in r.claim_qs:
        unit = _claim_unit(r.text, c) if c.kind == "number" else ""
        if unit in ("min", "h"):
            durations.add(round(c.value * (60 if unit == "h" else 1)))
    durations.discard(0)
    moved = [
        f
        for f in fields
        for c in f.quantities
        if c.kind == "time" and abs(q.value - c.value) % 1440 in durations
    ]
    if moved:  # at best inferred, as a sum is (``_computed``)
        r.stated.append(moved[0])
        r.computed = True
    return bool(moved)


_TYPE_KEYS = frozenset({"date", "time", "datetime", "timestamp", "ts", "utc", "iso"})


_WORD_AT = re.compile(r"[^\W_]+")


def _nearer_figure(r: _Reading, q: Quantity, f: _Field) -> bool:
    """Whether another figure of the claim not yet placed, of the same kind, stands nearer
    than ``q`` to every place the claim says ``f``'s key words: the field is that figure's
    slot."""
    keys = {k for k in f.keys if k not in _GENERIC_KEYS and k not in _NAMING}
    spans: list[list[int]] = []  # the key words as said, adjacent ones as one ("market cap")
    for m in _WORD_AT.finditer(r.text):
        if _norm(m[0].lower()) in keys:
            if spans and not r.text[spans[-1][1] : m.start()].strip(" -"):
                spans[-1][1] = m.end()
            else:
                spans.append([m.start(), m.end()])
    others = [o for o in r.free if o is not q and o.kind == q.kind]  # not yet placed
    if not spans or not others or "respectively" in r.word_set:
        return False  # "at 9:15 pm and 9:05 am respectively": in order, not by nearness

    def gap(x: Quantity, span: list[int]) -> int:
        return x.start - span[1] if x.start >= span[1] else span[0] - x.end

    return all(min(gap(o, sp) for o in others) < gap(q, sp) for sp in spans)


# A figure said per something ("€204 a night", "$12 per person", "3 times a week"); bounded:
# linear time.
_RATE = re.compile(r"\s*(?:a|an|per|each|every|/)\s*([^\W\d_]{2,20})\b", re.I)
_RATE_KEYS = {
    "night": ("nightly",), "month": ("monthly",), "year": ("yearly", "annual", "annually"),
    "week": ("weekly",), "day": ("daily",), "hour": ("hourly",),
}  # fmt: skip


def _rate_of_another(r: _Reading, q: Quantity, f: _Field) -> bool:
    """Whether ``q`` is said per something ("€204 a night") that the record counts in another
    field (``"nights": 3``) while ``f`` is not keyed by it: a rate is no changed total
    (``"totalPrice": 612.0``); a price per night (``price_per_night``), or a rent "per
    month" where the record counts no months, is its own field's."""
    m = _RATE.match(r.text, q.end)
    if m is None:
        return False
    noun = _norm(m[1].lower())
    said = {noun, *_RATE_KEYS.get(noun, ())}
    if said & f.key_set or "per" in f.keys or "rate" in f.keys:
        return False
    return any(
        g is not f
        and g.record == f.record
        and noun in g.keys
        and any(c.kind == "number" and c.value > 1 for c in g.quantities)
        for g in r.scope
    )


_APPROXIMATELY = re.compile(
    r"\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|close to|circa)\s*$",
    re.I,
)
_APPROXIMATION = 0.2  # "about 88" is no approximation of 70


def _far_off(r: _Reading, q: Quantity, f: _Field) -> bool:
    """Whether an approximate figure ("about 88 degrees") is far from every figure of the
    field it names by its key word or unit (more than a fifth of it). A bound ("over 50,000
    km") is never far off: it is read as a bound; nor is a figure the field is only the likely
    slot of ("about 2.6 pounds" is no price of $1,099.99)."""
    if not _APPROXIMATELY.search(r.text[max(0, q.start - 16) : q.start]):
        return False
    if _alignment(f, r.word_set) < _KEY_NAMED and f not in _measured(r.text, q, [f]):
        return False
    held = [b for e in f.quantities if comparable(q, e) for b in e.values()]
    return bool(held) and all(
        abs(a - b) > _approximated_within(a, b) for a in q.values() for b in held
    )


_CLOSE_APPROXIMATION = 0.05  # "about 81" of 86 is no approximation: 81 is not rounded


def _rounding_step(a: float) -> float:
    """The step a figure is rounded to as written: 10 for 80, 5 for 15 or 85, 1 for 81, 0.1
    for 7.3 (its last non-zero digit's place, halved when the digit is a five)."""
    text = f"{abs(a):.6f}".rstrip("0").rstrip(".")
    if "." in text:
        place = 10.0 ** -len(text.split(".")[1])
        return place * (5 if text[-1] == "5" else 1)
    digits = text.lstrip("0") or "0"
    zeros = len(digits) - len(digits.rstrip("0"))
    last = digits.rstrip("0")[-1:] or "0"
    return 10.0**zeros * (5 if last == "5" else 1)


def _approximated_within(a: float, b: float) -> float:
    """How far an approximate figure ``a`` may be from the value ``b`` it approximates: its
    rounding step ("about 80" of 86, "around 15" of 17), at least a twentieth of the value
    ("about 99" of 102), never more than a fifth ("about 88" is no approximation of 70)."""
    scale = max(abs(b), 1.0)
    return min(_APPROXIMATION * scale, max(_rounding_step(a), _CLOSE_APPROXIMATION * scale))


def _changed_figure(r: _Reading, q: Quantity, target: _Field, unit: bool) -> FieldDecision:
    """The contradiction of a figure the one field it can fill holds otherwise."""
    shown = q.raw
    claim_unit = _claim_unit(r.text, q) or _claim_currency(r.text, q)
    said = _DURATION_SAID.match(r.text, q.end) if target.duration else None
    if (claim_unit or said) and q.kind not in ("money", "time", "date"):
        shown = f"{q.raw} {r.text[q.end :].split()[0].strip('.,;')}"
    evidence_value = target.value
    per, period = _rate_period(target.keys), _PER_PERIOD.match(r.text, q.end)
    if unit and per and period is not None and _norm(period[1]) in _PERIODS:
        shown, evidence_value = f"{q.raw}{period[0]}", f"{target.value} per {per}"
    elif unit and (target.unit or target.currency):
        evidence_value = f"{target.value} {target.unit or target.currency}"
    return _contradicted(r.out, target, r.index, q.kind, shown, evidence_value=evidence_value)


def _clock_slots(q: Quantity, top: list[_Field]) -> bool:
    """Whether a clock or a date fills one of several fields its words name, each holding
    another ("the flight leaves at 8:50 pm" against an outbound and a return departure, 16:05
    and 09:30): a clock fills only a field of its type, so whichever the claim meant holds
    another value. A figure no key word ties to a field stays unsupported."""
    return q.kind in ("time", "date") and 1 < len(top) <= _TIED_SLOTS


_TIED_SLOTS = 4  # fields of one type a clock's words may name at once and still be read
_START_WORDS = frozenset(lexicon_table("time_roles")["start"])  # "departure", "pickup", ...
_END_WORDS = frozenset(lexicon_table("time_roles")["end"])  # "arrival", "dropoff", ...


def _changed_clock(r: _Reading, q: Quantity, top: list[_Field]) -> FieldDecision:
    """The contradiction of a clock or a date against every field its words name, the first
    named as the field, each field's value quoted. A key word every one of them has ("time")
    tells them apart from no other: the fields the claim's other words name ("leaves" for the
    departures, not the arrivals) are kept when it names some."""
    common = set.intersection(*(set(f.keys) for f in top))
    scored = [(_alignment(f, r.word_set - common), f) for f in top]
    best = max(s for s, _ in scored)
    first, *rest = [f for s, f in scored if s == best] if best > 0 else top
    said = "; ".join([first.value, *(f"`{f.id}` says {f.value}" for f in rest)])
    return _contradicted(r.out, first, r.index, q.kind, q.raw, evidence_value=said)


def _codes(r: _Reading) -> FieldDecision | None:
    """A code ("gate B12", "seat 14C") or an enum value ("status PENDING") where the field its
    key names holds another one."""
    changed = None
    if r.decided:
        changed = _changed_code(r.text, r.scope, r.word_set) or _changed_enum(r.text, r.scope)
    if changed is not None:
        return _contradicted(r.out, changed[0], r.index, "entity", changed[1])
    return None


_NAME_TOKEN = re.compile(r"[^\W_]+(?:['&.-][^\W_]+)*")
_NAME_JOINS = frozenset({"of", "the", "and", "de", "la", "le", "du", "del", "on", "at"})
# Words after which a reply puts a result by its name ("How about Hate Me by Eurielle?").
_OFFERS_NAME = (("how", "about"), ("what", "about"), ("called",), ("named",), ("try",))


def _name_runs(text: str) -> list[tuple[int, int, bool]]:
    """Spans of names where a reply puts a result by its name: at the start of the claim
    ("1 Hotel Brooklyn Bridge is a 4 star hotel") or after an offer ("How about Hate Me?", the
    flag True): words written with a capital or as figures, with "of", "the", ... between
    them."""
    toks = [(m[0], m.start(), m.end()) for m in _NAME_TOKEN.finditer(text)]
    low = [t.lower() for t, _, _ in toks]
    first = "".join(t[0][0] for t in toks[:2])  # "Hate Me", "1 Hotel Brooklyn Bridge"
    lead = bool(first) and (first[0].isupper() or (first[0].isdigit() and first[1:].isupper()))
    starts = [(0, False)] if lead else []
    for cue in _OFFERS_NAME:
        n = len(cue)
        starts += [(i + n, True) for i in range(len(low) - n) if tuple(low[i : i + n]) == cue]
    runs = []
    reach = 0  # runs never overlap: the scan stays linear in the claim
    for i, offered in sorted(starts):
        if i < reach:
            continue
        j = i
        while j < len(toks) and (
            toks[j][0][0].isupper()
            or toks[j][0][0].isdigit()
            or (low[j] in _NAME_JOINS and j + 1 < len(toks) and toks[j + 1][0][0].isupper())
        ):
            j += 1
        if j > i and (j == len(toks) or not toks[j][0][0].isupper()):
            runs.append((toks[i][1], toks[j - 1][2], offered))
        reach = j
    return runs


def _held_name(words: list[str], held: set[str]) -> bool:
    """Whether a name's words are another field's value: some word of it is held and none it
    has besides tells it apart ("Brooklyn" of an address does not make "1 Hotel Brooklyn
    Bridge" that address: "Bridge" is no field's)."""
    return any(w in held for w in words) and not any(
        w not in held and word_weight(w) >= _OPENER for w in words
    )


def _uses_name(own: list[str], reply_words: frozenset[str]) -> bool:
    """Whether a reply uses a name of the words ``own`` (any of them: "Your RSVP ... for the
    review" may be about "Q3 Budget Review")."""
    return any(w in reply_words for w in own)


_ITEM_CUT = re.compile(r",\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", re.I)


def _listed(text: str) -> list[str]:
    """The items of the list a claim ends on: after a colon, two or more ("these two: X and
    Y"), else three or more joined by commas and a last "and" or "or" ("I found X, Y, and
    Z"); the first item of a list without a colon runs from the claim's start."""
    body = text.rstrip(" .!?")
    colon = body.rfind(":")
    part = body[colon + 1 :] if colon >= 0 else body
    items = [i.strip() for i in _ITEM_CUT.split(part) if i.strip()]
    has_last = re.search(r"\s(?:and|or)\s+\S+", part, re.I) is not None
    if not has_last or len(items) < (2 if colon >= 0 else 3):
        return []
    return items


def _other_offers(r: _Reading) -> list[str] | None:
    """The other items of a list of names one item of which is the result's name ("I found
    Dogman, Hackers, and High Life" about ``"movie_name": "Dogman"``): the results offered
    beside it, none this record's value (None when the claim lists no such names)."""
    name = _single_name(r) if _one_result(r) else None
    items = _listed(r.text) if name is not None else []
    if name is None or not items:
        return None
    mine = [
        i for i, item in enumerate(items) if _contains(_words(item), name.words) >= 0
    ]  # the first item may carry the words before the list ("I found Dogman")
    if len(mine) != 1:
        return None
    others = [item for i, item in enumerate(items) if i != mine[0]]
    if any(_said_otherwise(o, name.value) for o in others):
        return None
    if ":" not in r.text and not all(any(w[:1].isupper() for w in o.split()) for o in others):
        return None  # "is both, highly recommended and kid friendly": no list of names
    held = _record_words(r)
    if any(set(_words(o)) & held for o in others):
        return None  # another field's value in the list: no list of names
    return others


def _one_result(r: _Reading) -> bool:
    """Whether the claim is about known records and they are one result (whose name, place
    or value a changed one would be is then known)."""
    return r.decided and len({f.record for f in r.scope}) == 1


def _record_words(r: _Reading) -> set[str]:
    """Every word of every field in scope."""
    return {w for f in r.scope for w in f.words}


def _another_name(r: _Reading) -> FieldDecision | None:
    """A single result's name field whose value the reply never uses, and a claim that puts
    another name where a reply names its result: a changed name ("How about Hate Me?" about
    ``"song_name": "Sick Love"``), not an addition."""
    name = _single_name(r, figures=False) if _one_result(r) else None
    if name is None:
        return None
    own = [w for w in name.words if word_weight(w) > 0] or name.words  # "After" is a title
    if _uses_name(own, r.reply_words):
        return None  # the reply uses the record's name (or a word of it)
    stated = _record_words(r)
    for run, end, offered in _name_runs(r.text):
        # "There's Casa Lupe": the opener is no name
        start = run if offered else _opened(r.text, run, end)
        words = [w for w in _words(r.text[start:end]) if word_weight(w) > 0]
        if not words or any(w in _CALENDAR for w in words) or _MODIFIER.search(r.text[start:end]):
            continue
        if _held_name(words, stated | _key_words_of(r)):
            # another field's value ("45 Park Lane", the street address) or a key's word
            # with a value ("PR #1289" about ``"pr": 1289``): no name
            continue
        if not offered and r.text[end:].lstrip().startswith(","):
            continue  # "Sure, ...", "Mark, your table is booked": no subject
        if _said_otherwise(r.text[start:end], name.value):
            continue  # the record's name, misspelt, joined or with figures for its words
        if offered or _states_a_value(r, name, r.text[:start] + " " + r.text[end:]):
            return _contradicted(r.out, name, r.index, "entity", r.text[start:end])
    return None


_RUN_JOINS = frozenset({"of", "the", "and", "de", "la", "le", "du", "del"})
# A capitalised word joined to a lower-case one ("Apache-licensed", "London-based"): a
# compound that says what the result is, not another name for it
_MODIFIER = re.compile(r"-[a-z]+$")
_CALENDAR = _WEEKDAYS | frozenset(_MONTHS)
_DISTINCT = 0.45  # word weight from which a word tells one name from others ("Lupe", not "Hotel")
_OPENER = 0.35  # word weight below which a sentence's first word is no name ("There's", "I")
_SENTENCE = re.compile(r"[.!?]\s+")
# Words a reply puts a result's name within three words after: offering it, finding it,
# saying what it is ("I can recommend Casa Lupe", "There is City Centre", "you can watch X").
_NAMES_AFTER = lexicon_words("fields.names_after")


def _key_words_of(r: _Reading) -> set[str]:
    """The key words of the fields in scope, also in the plural ("tvs" for ``HasTV``)."""
    keys = {k for f in r.scope for k in f.key_set}
    return keys | {k + "s" for k in keys}


def _distinct(words: list[str], other: set[str]) -> list[str]:
    """The words of a name that tell it from the others: weighty, no other field's, no day."""
    return [
        w
        for w in words
        if word_weight(w) >= _DISTINCT and w not in other and w not in _CALENDAR and not w.isdigit()
    ]


def _single_name(r: _Reading, *, figures: bool = True) -> _Field | None:
    """The result's one name field: with ``figures``, a name with a figure in it counts ("1000
    Kiely"; no number or yes/no value); without, only a name of words."""
    named = [
        f
        for f in r.scope
        if not f.context
        and ((f.truth is None and not f.numeric) if figures else not f.quantities)
        and ("".join(f.keys) in _NAME_KEYS or (f.keys and f.keys[-1] in ("name", "title")))
    ]
    return named[0] if len(named) == 1 else None


def _opened(text: str, start: int, end: int) -> int:
    """Where a name starts in the run ``text[start:end]`` that opens a sentence: after its
    first words of little weight ("There's", "I"; a figure stays: "1 Hotel Brooklyn")."""
    for tok in _NAME_TOKEN.finditer(text, start, end):
        if tok[0][0].isdigit() or word_weight(tok[0].lower()) >= _OPENER:
            return tok.start()
    return end


def _name_spans(text: str) -> list[tuple[int, int]]:
    """Capitalised runs that may be names: a sentence's first words of little weight dropped
    ("There's Angels Flight Railway"), a figure alone ("14th") skipped."""
    starts = {0} | {m.end() for m in _SENTENCE.finditer(text)}
    spans = []
    for run, end in _capital_runs(text, single=True):
        start = _opened(text, run, end) if run in starts else run
        toks = _NAME_TOKEN.findall(text, start, end)
        if not toks or (len(toks) == 1 and toks[0][0].isdigit()):
            continue  # "14th": a figure alone is no name
        spans.append((start, end))
    return spans


def _another_name_anywhere(r: _Reading) -> FieldDecision | None:
    """A changed name where :func:`_another_name` does not look: a single result whose name
    the reply never uses (none of its distinctive words), and a capitalised run anywhere in the
    claim with a distinctive word no field holds, put where a reply names a result (within
    three words after an offer or a verb of being: "the one I can recommend is Casa Lupe").
    Not the record's name written another way, another field's value or a word of a key
    ("There are TVs" for ``HasTV``). Anywhere else a capitalised word may be another thing
    the claim mentions ("works with Python 3.9"), never read as the result's name."""
    name = _single_name(r) if _one_result(r) else None
    if name is None:
        return None
    other = {w for g in r.scope if g is not name for w in g.words}
    own = _distinct(name.words, other) or [w for w in name.words if word_weight(w) > 0]
    if any(w in r.reply_words for w in own):
        return None  # the reply uses the record's name (a word of it that tells it apart)
    stated = _record_words(r) | _key_words_of(r)  # "There are TVs": ``HasTV``
    for start, end in _name_spans(r.text):
        said = r.text[start:end]
        words = [w for w in _words(said) if word_weight(w) > 0]
        if (
            _MODIFIER.search(said)
            or not _distinct(words, stated)
            or _said_otherwise(said, name.value)
        ):
            continue
        if any(all(w in g.words for w in words) for g in r.scope if g is not name):
            continue  # another field's value
        if any(w in _NAMES_AFTER for w in _near_words(r.text, start, end)[0]):
            return _contradicted(r.out, name, r.index, "entity", said)
    return None


def _name_partly_changed(r: _Reading) -> FieldDecision | None:
    """A single result's name with one of its words put in place of another: a capitalised
    run that uses a word of the record's name no other field holds ("Mets Vs Braves" about
    ``"event_name": "Mets Vs Rockies"``) and has a telling word of its own that no field holds,
    where the reply never uses another word of the name. Not the record's name written another
    way, nor a run with a value of another field."""
    name = _single_name(r) if _one_result(r) else None
    if name is None:
        return None
    other = {w for g in r.scope if g is not name for w in g.words}
    if not any(w not in r.reply_words and word_weight(w) > 0 for w in name.words):
        return None  # the reply uses every word of the name
    stated = _record_words(r) | _key_words_of(r)
    for start, end in _capital_runs(r.text):
        said = r.text[start:end]
        words = [w for w in _words(said) if word_weight(w) > 0]
        if not any(w in name.words and w not in other for w in words):
            continue  # no word of the record's name: not its name
        new = _distinct([w for w in words if w not in name.words], stated)
        if not new or _said_otherwise(said, name.value):
            continue
        if any(w in other for w in words):
            continue  # another field's value in the run
        return _contradicted(r.out, name, r.index, "entity", said)
    return None


_NEAR = 80  # characters read on either side of a name for the words around it


def _near_words(text: str, start: int, end: int) -> tuple[list[str], list[str]]:
    """The last three words before ``text[start:end]`` and the first after it, read within
    ``_NEAR`` characters (a word cut by the window is dropped): constant work a name, so a
    claim of many names is read in linear time."""
    low = max(0, start - _NEAR)
    before = _words(text[low:start])
    if low > 0 and text[low - 1].isalnum() and text[low].isalnum():
        before = before[1:]
    return before[-3:], _words(text[end : end + _NEAR])[:1]


def _keyed_name(r: _Reading) -> FieldDecision | None:
    """A name said with a text field's head key word as its noun, whose value the reply never
    uses: "the album Badlands", "the album called Badlands", "the Dark Horse album" about
    ``"album": "Prequelle"``: another value of that field."""
    if not _one_result(r):
        return None
    stated = _record_words(r) | _key_words_of(r)
    fields = []
    for f in _unstated_words(r):
        heads = [k for k in f.keys if k not in _NAMING and k not in _GENERIC_KEYS]
        own = _distinct(f.words, set()) or f.words
        if heads and not f.numeric and not any(w in r.reply_words for w in own):
            fields.append((f, heads[-1]))
    for start, end in _capital_runs(r.text, single=True) if fields else ():
        said = r.text[start:end]
        if not _distinct([w for w in _words(said) if word_weight(w) > 0], stated):
            continue
        before, after = _near_words(r.text, start, end)
        for f, head in fields:
            # "by" names the maker of a work ("Cups by Anna Kendrick"): the value of a field
            # whose key is a kind of maker (``artist``)
            made = before[-1:] == ["by"] and _maker(head)
            if (_keyed(before, after, head) or made) and not _said_otherwise(said, f.value):
                return _contradicted(r.out, f, r.index, "entity", said)
    return None


@cache
def _maker(key: str) -> bool:
    """Whether a key word's most common sense is a kind of creator (``artist``)."""
    return kind_of(key, "creator")


_DETERMINERS = lexicon_words("fields.determiners")


def _keyed(before: list[str], after: list[str], head: str) -> bool:
    """Whether a name between the words ``before`` (its last three) and ``after`` (one) is
    said with the key word ``head`` used as a noun: "the album Badlands", "the album called
    Badlands", "the Badlands album"; not "near Café Rouge" (a key word that is no noun of the
    name)."""
    a, b, c = ["", "", "", *before][-3:]
    if a in _DETERMINERS and b == head and c in ("called", "named"):
        return True
    return (b in _DETERMINERS and c == head) or (c in _DETERMINERS and after == [head])


def _capital_runs(text: str, *, single: bool = False) -> list[tuple[int, int]]:
    """Spans of two or more words (``single``: one or more) written with a capital, the first
    also as a figure ("1290 San Tomas Road"), with "of", "the", ... between them ("American
    Airlines", "Banc of California Stadium"); one pass."""
    toks = [(m[0], m.start(), m.end()) for m in _NAME_TOKEN.finditer(text)]
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        j = i
        while (
            j < len(toks)
            and toks[j][0].lower() not in _CALENDAR
            and (
                toks[j][0][0].isupper()
                or (single and j == i and toks[j][0][0].isdigit())
                or (
                    j > i
                    and toks[j][0].lower() in _RUN_JOINS
                    and j + 1 < len(toks)
                    and toks[j + 1][0][0].isupper()
                    and toks[j + 1][0].lower() not in _CALENDAR
                )
            )
        ):
            j += 1
        if j - i >= (1 if single else 2):
            runs.append((toks[i][1], toks[j - 1][2]))
        i = max(j, i + 1)
    return runs


def _unstated_words(r: _Reading) -> list[_Field]:
    """The fields in scope that hold words (no figure, no yes/no) the claim does not write: the
    fields another name, kind or place in the claim could be a changed value of."""
    lowered = r.text.lower()
    return [
        f
        for f in r.scope
        if not f.quantities and f.truth is None and f.value.lower() not in lowered
    ]


def _another_of_its_kind(r: _Reading) -> FieldDecision | None:
    """A name of the same kind as a field's ("American Airlines" about ``"airlines": "Delta
    Airlines"``, "Dodger Stadium" about ``"event_location": "Banc of California Stadium"``):
    a run of capitalised words that ends on the last word of a single result's multi-word
    name, shares no other word with the record and is not that name written another way, is
    a changed value of that field."""
    if not _one_result(r):
        return None
    kinds = [
        f
        for f in _unstated_words(r)
        if len(f.words) >= 2
        and not any(c.isdigit() for c in f.value)
        and all(w[:1].isupper() for w in f.value.split() if w.lower() not in _NAME_JOINS)
    ]
    # a name whose last word is the key word of a field holding names ("American Airlines"
    # about ``"airlines": "Air Canada"``): the key word is the name's head noun, the kind
    headed = {
        id(f): f.keys[-1]
        for f in _unstated_words(r)
        if f.keys
        and f.keys[-1] not in _NAMING | _GENERIC_KEYS | _KIND_KEYS
        and not any(c.isdigit() for c in f.value)
        and all(w[:1].isupper() for w in f.value.split() if w.lower() not in _NAME_JOINS)
        and not _uses_name(_distinct(f.words, set()) or f.words, r.reply_words)
    }
    kinds += [f for f in r.scope if id(f) in headed and f not in kinds]
    if not kinds:
        return None
    stated = _record_words(r)
    for start, end in _capital_runs(r.text):
        said = _words(r.text[start:end])
        if said[:1] == ["the"] or said[:1] == ["a"] or said[:1] == ["an"]:
            said = said[1:]
        if len(said) < 2:
            continue
        for f in kinds:
            last = {f.words[-1], headed.get(id(f), f.words[-1])}
            if said[-1] not in last or any(w in stated for w in said[:-1]):
                continue
            if _said_otherwise(r.text[start:end], f.value):
                continue
            shown = r.text[start:end]
            return _contradicted(r.out, f, r.index, "entity", shown)
    return None


_KIND_KEYS = frozenset({"type", "category", "kind", "class", "style"})
"""Key words that say a field holds a kind of something, not what it is a kind of."""
_LETTERS = re.compile(r"[a-z]+")


def _another_sibling(r: _Reading) -> FieldDecision | None:
    """Another kind of the same thing as a field's value, said with the key's noun: "your
    savings account" about ``"account_type": "checking"``, "a compact car" about
    ``"car_type": "Sedan"`` (WordNet: their most common senses are two kinds of one thing,
    neither a kind of the other; the value read alone or with the key's noun, "checking
    account"). Only a field whose key says it holds a kind (``type``, ``category``,
    ``class``...), in a single result, where the claim does not state the value and negates
    nothing; dates are not kinds; a kind said without the key's noun ("an SUV", "a beer
    garden") may be an attribute beside the value and is left alone."""
    if not _one_result(r) or has_negation(r.text):
        return None
    lowered = r.text.lower()
    kinds = [
        f
        for f in _unstated_words(r)
        if 1 <= len(f.words) <= 2
        and set(f.keys) & _KIND_KEYS  # a field that holds a kind: a name is no kind
        and not set(f.words) & _CALENDAR
    ]
    if not kinds:
        return None
    stated = _record_words(r)
    toks = _LETTERS.findall(lowered)  # as written: "savings", not the singular
    free = {w for w in toks if w not in _CALENDAR and not set(_words(w)) & stated}
    hits = []
    for f in kinds:
        heads = {k for k in f.keys if k not in _KIND_KEYS}
        # the value as written ("savings") and as read ("saving", which WordNet lacks)
        values = {" ".join(f.words), " ".join(_LETTERS.findall(f.value.lower()))}
        forms = values | {f"{v} {k}" for v in values for k in heads}
        # the kind said with the key's own noun ("savings account"): a word alone may be an
        # attribute beside the value ("a pub with a beer garden"), not another value
        said = {f"{a} {b}" for a, b in itertools.pairwise(toks) if a in free and b in heads}
        found = sorted(x for x in said if any(siblings(x, v) for v in forms))
        if found:
            hits.append((f, found[0]))
    if len(hits) != 1:
        return None
    f, shown = hits[0]
    return _contradicted(r.out, f, r.index, "entity", shown)


_ARTICLES = frozenset({"a", "an"})
_CLAUSE_MARK = re.compile(r"[.!?;,:()]")


def _kind_run(text: str) -> list[tuple[int, int, str]]:
    """Capitalised runs written as a kind: after "a" or "an" and at most two lower-case words
    ("It's a kid-friendly Place of Worship", "a Family Counselor named ...", "a Standard car"),
    with "of", "and", ... between their words, cut at a punctuation mark; each with the word
    right after it in its clause ("" at its end)."""
    toks = [(m[0], m.start(), m.end()) for m in _NAME_TOKEN.finditer(text)]
    out = []
    reach = 0  # runs never overlap: the scan stays linear in the claim ("A A A A ...")
    for i, (tok, _, end) in enumerate(toks):
        if i < reach or tok.lower() not in _ARTICLES:
            continue
        j = i + 1
        while (
            j < len(toks)
            and j - i <= 2
            and toks[j][0][0].islower()
            and toks[j][0].lower() not in _ARTICLES
            and not _CLAUSE_MARK.search(text, toks[j - 1][2], toks[j][1])
        ):
            j += 1
        if j >= len(toks) or not toks[j][0][0].isupper():
            continue
        if _CLAUSE_MARK.search(text, end, toks[j][1]):
            continue
        a = j
        while j < len(toks) and (
            toks[j][0][0].isupper()
            or (
                toks[j][0].lower() in _RUN_JOINS
                and j + 1 < len(toks)
                and toks[j + 1][0][0].isupper()
            )
        ):
            if j > a and _CLAUSE_MARK.search(text, toks[j - 1][2], toks[j][1]):
                break
            j += 1
        reach = j
        after = ""
        if j < len(toks) and not _CLAUSE_MARK.search(text, toks[j - 1][2], toks[j][1]):
            after = toks[j][0]
        out.append((toks[a][1], toks[j - 1][2], after))
    return out


def _another_kind_written(r: _Reading) -> FieldDecision | None:
    """Another kind written as a kind is written, in capitals after "a" or "an" ("It's a Place
    of Worship", "a Family Counselor named Ann Lee", "a Standard car"), about a single result
    whose one field that holds a kind (its key a kind word alone: ``type``, ``category``) the
    reply never states: a changed value of that field. No word of the run may be a value of
    the record (another field's value, "a Smokey Robinson event" of the event's name), and a
    run followed by a noun of weight that is no key's word is an attribute of that noun ("a
    popular Spanish musician"), not the kind."""
    if not _one_result(r):
        return None
    kinds = [
        f
        for f in r.scope
        if f.keys
        and set(f.keys) <= _KIND_KEYS
        and not f.context
        and not f.quantities
        and f.truth is None
        and 1 <= len(f.words) <= 3
        and not set(f.words) & _CALENDAR
    ]
    if len(kinds) != 1:
        return None
    f = kinds[0]
    if any(w in r.reply_words for w in f.words if word_weight(w) > 0):
        return None  # the reply states the kind (a word of it) somewhere
    held = _record_words(r)
    keys = _key_words_of(r)
    for start, end, after in _kind_run(r.text):
        words = [w for w in _words(r.text[start:end]) if word_weight(w) > 0]
        if not words or any(w in held or w in _CALENDAR for w in words):
            continue
        nxt = _words(after)[:1] if after[:1].islower() else []
        noun = bool(nxt) and nxt[0] not in keys and word_weight(nxt[0]) >= _OPENER
        if noun and not after.lower().endswith("ed"):  # "named", "called": no noun
            continue  # "a Spanish musician": an attribute of another noun
        if _said_otherwise(r.text[start:end], f.value):
            continue
        return _contradicted(r.out, f, r.index, "entity", r.text[start:end])
    return None


# Where a reply puts a place: "in Concord" (a town, a city), "at Union Station" (a station, a
# venue, an address), "from Pleasant Hill". The key words of the fields such a place is the
# value of, by preposition; general English, no domain's words.
_PLACE_AT = re.compile(r"\b(?:at|from)\s+(?:the\s+)?(?=[A-Z0-9])")
_PLACE_IN = re.compile(r"\b(?:in|from)\s+(?=[A-Z])")
_IN_KEYS = frozenset({"city", "town", "location"})
_AT_KEYS = frozenset({"location", "venue", "station", "airport", "address"})


def _place_field(
    r: _Reading, keys: frozenset[str], used: set[str], figured: bool = True
) -> _Field | None:
    """The one field of the result a place said this way fills and the reply does not use;
    a place said without a figure ("at the Foundry") is no street address ("1 Main Street"):
    where several fields fit, those whose value has a figure are not its slot."""
    fields = [
        f
        for f in r.scope
        # an ordinal is a word of a place's name ("30th Street Station"), no figure of it
        if (not f.quantities or "address" in f.keys or all(q.ordinal for q in f.quantities))
        and f.truth is None
        and f.keys
        and f.keys[-1] in keys
        and not set(f.words) & used
    ]
    if len(fields) > 1 and not figured:
        fields = [f for f in fields if not any(c.isdigit() for c in f.value)]
    return fields[0] if len(fields) == 1 else None


def _another_place(r: _Reading) -> FieldDecision | None:
    """A place the reply puts its result in or at ("How about La Pinata in Pittsburg?" about
    ``"location": "Burlingame"``; "available at Salesforce Transit Center" about
    ``"pickup_location": "SFO International Airport"``): in a single result with one place
    field of that kind whose value the reply never uses, a place with a word no field holds
    (and no word of another field) is a changed value of it; the record's place said another
    way or more closely ("Downtown San Jose" for "San Jose") is not."""
    if not _one_result(r):
        return None
    reply = set(r.reply_words) if r.reply_words else set(r.words)
    runs = dict(_capital_runs(r.text, single=True))  # start -> end: one lookup a place
    for pattern, keys in ((_PLACE_IN, _IN_KEYS), (_PLACE_AT, _AT_KEYS)):
        for m in pattern.finditer(r.text):
            end = runs.get(m.end())
            if end is None:
                continue
            said = r.text[m.end() : end]
            words = [w for w in _words(said) if w not in _RUN_JOINS]
            if not words or (words[0].isdigit() and len(words) < 2):
                continue  # "at 6 pm": a time, no place
            if all(any(c.isdigit() for c in w) for w in words):
                continue  # "by phone at 555-0142": figures only, no place
            if any(w in _CALENDAR for w in words):
                continue
            f = _place_field(r, keys, reply - set(words), any(c.isdigit() for c in said))
            if f is None or _said_otherwise(said, f.value):
                continue
            elsewhere = {w for g in r.scope if g is not f for w in g.words}
            if all(w in f.words for w in words):
                continue  # the record's own words: its place
            if _held_name(words, elsewhere):
                continue  # another field's value (a word of the city in a venue's name is not)
            inside = keys is _AT_KEYS and not words[0].isdigit() and len(f.words) > 1
            part = len(words) < 2 or any(c.isdigit() for c in said)  # "Terminal 2", "Gate"
            if inside and words[-1] != f.words[-1] and part:
                continue  # a place inside the field's, maybe; a named place is another one
            return _contradicted(r.out, f, r.index, "entity", said)
    return None


_SAME_NAME = 0.8  # share of characters two spellings of one name have in common, at least
_NAME_CHARS = 120  # longer names are not compared (quadratic in their length)


def _squashed(name: str) -> str:
    """A name as letters and figures only, its figures and number words as numbers and a
    leading "the" dropped ("The Twenty Two" and "22" alike)."""
    text = name.lower()
    for q in reversed(extract_quantities(text, days=False)):
        text = text[: q.start] + " " + format(q.values()[0], "g") + " " + text[q.end :]
    words = _words(text)
    if words[:1] == ["the"]:
        words = words[1:]
    return "".join(words)


def _said_otherwise(said: str, name: str) -> bool:
    """Whether ``said`` is ``name`` written another way: misspelt ("Watermen"), joined or split
    ("TheWaterman", "Blue Note"/"BlueNote"), with figures for number words ("22" for "Twenty
    Two") or one inside the other ("Nando's" for "Nando's Restaurant")."""
    if len(said) > 2 * _NAME_CHARS or len(name) > 2 * _NAME_CHARS:
        return False  # no name: read once, not compared
    a, b = _squashed(said), _squashed(name)
    if not a or not b or len(a) > _NAME_CHARS or len(b) > _NAME_CHARS:
        return False
    return a in b or b in a or SequenceMatcher(None, a, b).ratio() >= _SAME_NAME


def _states_a_value(r: _Reading, name: _Field, rest: str) -> bool:
    """Whether the claim, its name aside, states a value of another field ("... is a nice 4
    star hotel"): the name is then its result's, not a place nearby ("Times Square is a short
    walk away")."""
    words = _words(rest)
    figures = extract_quantities(rest, days=False)
    for f in r.scope:
        if f is name:
            continue
        if any(quantities_match(q, e) for q in figures for e in f.quantities):
            return True
        if any(
            it and any(word_weight(w) > 0 for w in it) and _contains(words, it) >= 0
            for it in f.items
        ):
            return True
    return False


def _state_boolean(r: _Reading, f: _Field) -> FieldDecision | None:
    """A yes/no field whose key is a state of a closed vocabulary of statuses (``delayed``,
    ``cancelled``, ``approved``): the claim's term of that vocabulary says whether the state
    holds ("running late" says ``delayed``, "not delayed" denies it, "on time" is another
    state). Said as the field holds it: stated; the state said where the field is false, or
    denied or another state said where it is true: a changed value. Another state where the
    field is false ("cancelled" beside ``delayed: false``) is neither."""
    state = " ".join(f.keys)
    if not in_vocabulary(["status"], state, r.lex):
        return None
    term = vocabulary_term(r.toks, ["status"], state, r.record_values, r.lex)
    if term is None or not (term.agrees or term.contradicts):
        return None
    if said_when(r.toks, term.words):
        return None  # "closed on Sundays" of ``open``: when it holds, not whether
    holds = term.agrees and not term.denies
    if holds == f.truth and (holds or term.denies):
        r.stated.append(f)
        r.covered.update(_words(" ".join(term.words)))
        r.covered.update(f.keys)
        return None
    if not r.decided or (not holds and not f.truth):
        return None
    kind: ContradictionKind = "negation" if term.denies else "entity"
    return _contradicted(r.out, f, r.index, kind, _original(r.text, term.term))


_YES_NO = frozenset({"true", "false", "yes", "no", "y", "n", "1", "0", "on", "off"})


def _status_said(r: _Reading, f: _Field) -> FieldDecision | None:
    """A status of a known vocabulary that also reads as yes or no ("available"), said in
    another class of its vocabulary ("fully booked"): contradicted before its polarity is
    read ("Forge is fully booked" names nothing as yes or no)."""
    if f.value.strip().lower() in _YES_NO or not in_vocabulary(f.keys, f.value, r.lex):
        return None
    term = vocabulary_term(r.toks, f.keys, f.value, r.record_values)
    if term is None or not term.contradicts or not r.decided:
        return None
    kind: ContradictionKind = "negation" if term.denies else "entity"
    return _contradicted(r.out, f, r.index, kind, _original(r.text, term.term))


def _said_in_words(r: _Reading) -> FieldDecision | None:
    """Booleans by polarity, closed vocabularies by class, lists by item, other text by
    words."""
    toks, lex = r.toks, r.lex
    for f in r.scope:
        if f.quantities and f.numeric and not in_vocabulary(f.keys, f.value, lex):
            continue  # a band with figures ("£20-25") is also said in words ("mid-priced")
        if f in r.stated:
            if in_vocabulary(f.keys, f.value, lex):  # "cheap, with prices under £20": both its
                term = vocabulary_term(toks, f.keys, f.value, r.record_values)
                if term is not None and term.agrees:
                    r.covered.update(_words(" ".join(term.words)))
            continue
        status = _status_said(r, f) if f.truth is not None else None
        if status is not None:
            return status
        if f.truth is not None or (f.value.lower() in ("free", "paid") and f.keys):
            said = _boolean(r, f)
            if said is None and f.truth is not None and f not in r.stated:
                # a key that is a state ("paid": false) the claim has not said as it holds
                # ("paid is false" is read by ``_boolean``: stated, and no state's term)
                said = _state_boolean(r, f)
            if said is not None:
                return said
            if f.truth is not None or f in r.stated:
                continue  # "free" and "paid" not said as yes or no: a word, as any value's
        term = vocabulary_term(toks, f.keys, f.value, r.record_values)
        if term is not None and term.agrees:
            r.stated.append(f)
            r.covered.update(_words(" ".join(term.words)))
            r.covered.update(f.keys)
            continue
        if term is not None and term.contradicts and (r.decided or _the_records(r, f)):
            kind: ContradictionKind = "negation" if term.denies else "entity"
            return _contradicted(r.out, f, r.index, kind, _original(r.text, term.term))
        r.blocked = r.blocked or term is not None  # a neighbouring band: unsupported
        if term is None and in_vocabulary(f.keys, f.value, lex) and _unsaid_term(r, f):
            continue  # "low" alone is no rating: a band's words count next to their key
        hit = [(it, at) for it in f.items if (at := _contains(r.words, it, typo=True)) >= 0]
        if hit:
            if "".join(f.keys) in _NAME_KEYS and not f.context and len(r.scope) > 1:
                r.named_by.append(f)
                continue  # the name says which record; it states no fact on its own
            if in_vocabulary(f.keys, f.value, lex) and _denied_value(r, f):
                r.blocked = True  # "your refill isn't ready": unsupported, never stated
                continue
            r.stated.append(f)
            for it, at in hit:
                r.covered.update(r.words[at : at + len(it)])  # the claim's words, as spelt
            r.covered.update(f.keys)
            continue
        if r.decided and f.truth is None:
            sibling = _siblings_value(r, f)
            if sibling is not None:
                return sibling
    return None


def _the_records(r: _Reading, f: _Field) -> bool:
    """Whether a claim that names no record is about ``f`` all the same: ``f`` is outside
    every list of the one tool result read and the claim says its key's own word ("your
    order" of ``order_status``)."""
    if "[" in f.id or len(r.table.tops) != 1 or r.table.prose:
        return False
    return bool({k for k in f.keys if k not in _GENERIC_KEYS | _NAMING} & r.word_set)


def _unsaid_term(r: _Reading, f: _Field) -> bool:
    """Whether a value of a known vocabulary that no term of it states is not stated by its
    own words either: a band of an ordered vocabulary ("low" of a rating: only next to its
    key), or a term of its vocabulary in a claim with a negation ("not a pub that bans kids":
    the vocabulary reads where the negation reaches). A status said by its own word where its
    vocabulary has no such term ("Your refill is ready." of ``READY``) is stated."""
    if ordered_vocabulary(f.keys, f.value, r.lex):
        return True
    return value_is_term(f.keys, f.value, r.lex) and any(negator(t) for t in r.toks)


def _denied_value(r: _Reading, f: _Field) -> bool:
    """Whether the claim says the value right after a negation ("your refill isn't ready" of
    ``"READY"``). Read for the values of a known vocabulary only: on every text value it
    contradicted faithful replies ("isn't on the honor roll, with ... a" read "a" as the grade
    "A-"), so "the car isn't red" of ``"colour": "red"`` is not read (BENCHMARKS, session 66)."""
    said = claim_tokens(f.value)
    return any(word_weight(w) > 0 for w in said) and value_negated(r.toks, said)


def _keys_as_said(tokens: list[str], keys: list[str]) -> list[str]:
    """A field's key words with a key word that holds a figure ("24h" of ``open_24h``) in the
    claim's own two words where it writes them ("open 24 hours")."""
    out: list[str] = []
    for k in keys:
        m = _KEY_FIGURE.fullmatch(k)
        at = tokens.index(m[1]) if m and m[1] in tokens[:-1] else -1
        said = _norm(tokens[at + 1]) if at >= 0 else ""
        if m and said and (said == m[2] or (said[0] == m[2][0] and said in TIME_LENGTHS)):
            out += tokens[at : at + 2]
        else:
            out.append(k)
    return out


def _boolean(r: _Reading, f: _Field) -> FieldDecision | None:
    """A boolean field the claim names: stated in its polarity, or contradicted."""
    tokens = _unnamed(r)
    mention = boolean_said(tokens, _keys_as_said(tokens, f.keys), f.context, r.lex)
    if mention is None:
        return None
    said, naming = mention
    empty = f.value == EMPTY and f.truth is False  # a null: the record holds no value
    if empty and f.keys[-1] in _WHEN_KEYS:
        return None  # "Pic Blanc is closed" says nothing of a null ``closesAt``: a clock's slot
    said_after = _denied_after(_unnamed(r), naming) if empty and said else None
    if said_after is not None:  # "the gate for BA175 hasn't been announced"
        said = False
    truth = f.truth if f.truth is not None else True
    month = _month_item(r)
    if month and "[" in f.record and f.record != month:
        return None  # "September's payslip included a bonus": another month's item says nothing
    if said == truth:
        r.stated.append(f)
        r.covered.update(f.keys)
        r.covered.update(f.words)
        r.covered.update(_norm(w) for w in naming)
        if not said:  # the negation that says it ("isn't", "doesnt": ``_norm`` spells both)
            r.covered.update(w for w in map(_norm, r.toks) if w.endswith("n't"))
        if empty:  # "no gate has been assigned yet": how the reply says there is none (its
            # common words; a figure or a name there is a value of its own)
            names = _names_in(r.text)
            said_none = said_after or _clause_after(_unnamed(r), naming)
            r.covered.update(w for w in map(_norm, said_none) if w.isalpha() and w not in names)
        return None
    decided = r.decided or f.record == month or _the_records(r, f)
    if decided and not _of_a_set(r.text, naming) and not _not_a_state(r.toks, naming):
        given = [w for w in _clause_after(r.toks, naming) if _value_like(w, {w})] if empty else []
        if given:  # "gate B12" of a null ``gate``: the value the claim gives it
            return _contradicted(r.out, f, r.index, "entity", _original(r.text, given[0]))
        return _contradicted(r.out, f, r.index, "negation", "true" if said else "false")
    return None


_WHEN_KEYS = frozenset({"at", "on", "by", "time", "date", "until", "from"})
_CLAUSE_ENDS = frozenset({",", ";", ".", "and", "but", "or", "while", "though", "because", "so"})


def _not_a_state(tokens: list[str], naming: Sequence[str]) -> bool:
    """Whether the words that name a yes/no field say what is to happen or how, not what
    holds: after "to be" ("it's set up to be paid"; not "to bring") or before the means
    ("paid by direct debit"). Not read as its value: unsupported at worst. A modal is no such
    cue ("it will be delayed" of ``delayed: false`` is a changed value)."""
    low = [t.lower() for t in tokens]
    for i, t in enumerate(low):
        if t not in naming and tokens[i] not in naming:
            continue
        if low[max(0, i - 2) : i] == ["to", "be"] or low[i + 1 : i + 2] in (["by"], ["via"]):
            return True
    return False


def _clause_after(tokens: list[str], naming: Sequence[str]) -> list[str]:
    """The claim's words after the last word that names a field, to the end of its clause."""
    at = max((i for i, t in enumerate(tokens) if t in naming), default=-1)
    out: list[str] = []
    for t in tokens[at + 1 :]:
        if t in _CLAUSE_ENDS:
            break
        out.append(t)
    return out


def _denied_after(tokens: list[str], naming: Sequence[str]) -> list[str] | None:
    """The words of a clause that denies the null field its words name after them ("the gate
    for BA175 hasn't been announced", "the gate is not known yet"): the negation and the words
    after it, alphabetic; None when the clause says no negation."""
    after = _clause_after(tokens, naming)
    nxt = [*after[1:], ""]
    at = next((i for i, t in enumerate(after) if negator(t, nxt[i])), -1)
    if at < 0:
        return None
    return [t for t in after[at:] if t.isalpha() or negator(t)]


# "the ones that aren't overdue", "those which are open": a clause that picks a part of a list
_SET_CLAUSE = re.compile(r"\b(?:ones|those|others)\s+(?:that|which|who)\b", re.I)


def _of_a_set(text: str, naming: Sequence[str]) -> bool:
    """Whether the words that name a yes/no field stand in a clause that picks a part of a list
    ("of the ones that aren't overdue, the DVD is next"): it says which items are looked at,
    not the value of the item the claim names."""
    low = text.lower()
    at = min((i for w in naming if (i := low.find(w.lower())) >= 0), default=-1)
    if at < 0:
        return False
    opened = [m.end() for m in _SET_CLAUSE.finditer(low, 0, at)]
    return bool(opened) and not re.search(r"[,;:.!?–—]", low[opened[-1] : at])


def _unnamed(r: _Reading) -> list[str]:
    """The claim's tokens without the words of the names it gives its records ("lock" of the
    "Front Door Lock" names no ``locked`` field)."""
    if r.unnamed is None:
        named = {w for rec in r.named for n in r.table.names.get(rec, []) for w in n}
        r.unnamed = [t for t in r.toks if _norm(t) not in named] if named else r.toks
    return r.unnamed


def _siblings_value(r: _Reading, f: _Field) -> FieldDecision | None:
    """A sibling record's value of the same field, where this record has another."""
    for other in r.table.fields:
        if other.group != f.group or other.record == f.record or other.value == f.value:
            continue
        for it in other.items:
            if (
                it
                and any(word_weight(w) > 0 for w in it)
                and _contains(r.words, it) >= 0
                and not any(_contains(it, mine) >= 0 for mine in f.items)
                and not any(_contains(g.words, it) >= 0 for g in r.scope if g is not f)
                # "Bellows isn't available", "no available slots" of ``fully_booked``: the
                # sibling's value denied says nothing against this one
                and not value_negated(r.toks, claim_tokens(" ".join(it)))
            ):
                return _contradicted(r.out, f, r.index, "entity", _original(r.text, " ".join(it)))
    return None


def _stated_fields(r: _Reading) -> FieldDecision | None:
    """Whether any field states the claim; a weekday none holds; a field the record lacks."""
    out, scope, covered = r.out, r.scope, r.covered
    # a day a field of days states ("Monday to Saturday" of ``"days": "Mon-Sat"``) is no date's
    wrong_day = _weekdays(r.word_set - covered, scope, r.stated, covered)
    if wrong_day is not None and r.decided:
        (f, weekday), day = wrong_day
        shown = f"{f.value} (a {weekday.capitalize()})"
        return _contradicted(out, f, r.index, "date", day.capitalize(), evidence_value=shown)
    if not r.stated:  # "It is called The Cricketers": the name is the fact
        r.stated = r.named_by or [
            f
            for f in scope
            if f.record in r.named and "".join(f.keys) in _NAME_KEYS and not f.context
        ]
    # an amount of money is a price ("the cheapest of your orders" of ``total_usd``)
    named_keys = [f.keys for f in scope] + ([["price"]] if any(f.money for f in scope) else [])
    unlisted = unlisted_term(r.toks, named_keys, r.record_values) is not None
    if not r.stated:
        # No field states the claim, none holds a neighbouring band, the record lacks no field
        # it names ("Children should not visit"): the verifier reads it against the record.
        out.unstated = not r.blocked and not unlisted
        out.renamed = _renamed_value(r, set())  # "a business class ticket" about "Economy"
        return out
    out.structured = True
    if r.blocked or unlisted:
        return out  # a neighbouring band, or a value of a field the record lacks: unsupported
    for f in r.stated:
        covered.update(f.aliases())
        covered.update(_list_words(r, f.record))  # "the 16:50 slot" of ``slots[3].start_time``
        covered.update(_kind_words(r.table, f.record))  # "the session" of ``session_id``
    naming = _naming_fields(r)  # "Flight BA117": the key of the field that names the item
    for f in naming:
        covered.update(f.aliases())
    item = _item_words(r)
    covered.update(item)
    covered.update(_compounds_of(r.text, covered))
    keys = {k for f in [*r.stated, *naming] for k in f.key_set if k not in _GENERIC_KEYS | _NAMING}
    covered.update(w for w in r.word_set - covered if any(_related(w, k) for k in keys))
    for f in scope:  # "The (customer) rating is not child friendly": the record has that field
        if len(f.keys) > 1 and f.truth is None and _contains(r.words, f.keys[-1:]) >= 0:
            covered.update(f.keys)
    for f in scope:  # "grab coffee" at a ``"coffee shop"``: a word of the record's kind of place
        if in_vocabulary(f.keys, f.value, r.lex):
            covered.update(_words(f.value))
    # Every weekday the claim names must be a key of a field that states it.
    days = (r.word_set & _WEEKDAYS) - covered
    if days and not days <= {k for f in r.stated for k in f.key_set}:
        return out
    return None


# words that pick an item of a list by its place, which no field states ("the first slot",
# "the next one", "the only option left")
_PLACE_PICKS = lexicon_words("fields.place_picks")


def _list_words(r: _Reading, record: str) -> set[str]:
    """The words of the list a record is an item of, each as one item's ("slot" of
    ``record.slots[3]``), where the claim says them of the item, not of its place in the list
    ("the first slot" picks an item no field names): none for a record that is no list item."""
    out = set()
    for w in _list_key(record):
        at = [i for i, x in enumerate(r.words) if x == w]
        if (
            w not in _GENERIC_KEYS
            and at
            and not any(_PLACE_PICKS & set(r.words[max(0, i - 2) : i]) for i in at)
        ):
            out.add(w)
    return out


def _kind_words(table: _Table, record: str) -> set[str]:
    """The words that say what a record is, from the key of its identifier ("session" of
    ``session_id``, "reservation" of ``reservationId``): a claim about the record says them
    of it ("The session took 37 minutes.")."""
    return {
        g.keys[0]
        for g in table.by_record.get(record, [])
        if len(g.keys) == 2 and g.keys[1] in _IDENTIFIERS and g.keys[0] not in _GENERIC_KEYS
    }


def _naming_fields(r: _Reading) -> list[_Field]:
    """The fields that name the list items the claim names by their values ("BA117" of
    ``flights[0].flight``): their keys are how the claim says which item."""
    naming = r.table.naming
    return [
        f
        for f in r.scope
        if f.chunk in naming and f.record in r.named and set(f.words) <= r.word_set
    ]


_COMPOUND = re.compile(r"\b([^\W\d_]+)-([^\W\d_]+)\b")


def _compounds_of(text: str, covered: set[str]) -> set[str]:
    """The parts of the claim's hyphenated words that, joined, are a word the record
    accounts for ("drop-off" of ``dropoff``, "e-bikes" of ``ebikes_available``)."""
    parts: set[str] = set()
    for m in _COMPOUND.finditer(text):
        if _norm(m[1] + m[2]) in covered:
            parts.update((_norm(m[1]), _norm(m[2])))
    return parts


def _item_words(r: _Reading) -> set[str]:
    """The words of the one list item whose fields the claim states: its name and its other
    values ("the front door isn't locked" states ``devices[1].state.locked`` of
    the item named "Front Door"). A claim that states fields of two items gets none: which
    of its words names which item is not read here. (A nested object's words, credited the
    same way, grounded a changed value of the hand-written set: not done.)"""
    items = {f.record for f in r.stated}
    if len(items) != 1:
        return set()
    (item,) = items
    if not item.endswith("]"):
        return set()
    # its values only: the key of a field the claim states no value of is a fact unread
    # ("Mill Lane has e-bikes" beside ``ebikes_available: 0``)
    return {w for f in r.table.by_record.get(item, []) for w in f.words}


_DIMENSIONS = lexicon_words("fields.dimensions")


def _after_figure(word: str, figures: set[str]) -> bool:
    """Whether a claim word is a figure or the unit written after one."""
    return word in figures or _unit_word(word)


def _has_items(table: _Table) -> bool:
    """Whether the table holds items of a list (records whose path ends in an index)."""
    return any(rec.endswith("]") for rec in table.by_record)


def _coverage(r: _Reading) -> FieldDecision:
    """Grounded when the stated fields account for the claim's content words; partial (and
    loose where the words left are common words) otherwise."""
    out, words, covered = r.out, r.words, r.covered
    offers = _other_offers(r) if r.stated else None
    if offers:  # the results offered beside this one: no word of them is this record's fact
        covered = covered | {w for o in offers for w in _words(o)}
    total = got = 0.0
    added = False  # a thing the place comes "with" that the record does not give
    unplaced: list[str] = []  # content words no field accounts for
    figures = {w for q in r.claim_qs for w in _words(q.raw)}  # once: linear in the claim
    measured = {k for f in r.stated if f.numeric for k in f.keys}  # "average temperature"
    fillers = _fillers(r.lex)
    picked = supported_pick(r.text, r.index.chunks)
    if picked:  # "the cheapest" of the item whose price is the list's lowest
        covered = covered | set(_words(picked))
    # a pick of one item of a list that the list check did not verify ("the most regular
    # bikes": a word of no weight) is no fact the record states
    unpicked = "" if picked or not _has_items(r.table) else said_pick(r.text)
    covered = covered | _codes_stated(r)  # "2025-03: generation ..." of ``month: "2025-03"``
    read = {w for q in r.found_qs for w in _words(q.raw)} | covered
    parts = _name_parts(r)  # "your Brightwire bill" of ``supplier: "Brightwire Energy"``
    for i, w in enumerate(words):
        if w.isdigit() and w not in read:
            return out  # a figure no value reading took ("-3 degrees"): unsupported
        if not _counts(w) or w in figures:
            continue
        weight = word_weight(w)
        total += weight
        near = _of_a_figure(words, i, figures, measured)
        if (
            w in covered
            or w in parts
            or _filler(w, fillers)
            or near
            or _misspelt(w, covered, fillers)
        ):
            got += weight
        elif "with" in words[max(0, i - 3) : i] and not _describes_field(words, i, figures, r.lex):
            added = True  # "... pub with a garden", "with live music"
        elif words[i + 1 : i + 2] == ["friendly"]:
            added = True  # "dog friendly": a thing the record does not give
        else:
            unplaced.append(w)
    digits = frozenset(w for w in figures if w.isdigit())
    if added or _bare_clause(r.text, covered, digits, fillers):
        return out  # a thing the record does not list: unsupported, not the verifier's to read
    # Identifiers last: "Order 1043 totals €42.50" cites the total first.
    ordered = sorted(r.stated, key=lambda f: "".join(f.keys) in _NAME_KEYS | _ID_KEYS)
    chunks = list(dict.fromkeys(f.chunk for f in ordered))
    names = _names_in(r.text) if unplaced else set()
    out.renamed = _renamed_value(r, figures)
    # A value of its own no field holds (a name, another value of a field) is never grounded,
    # however few the claim's other words: the record does not state it.
    # "House" of the album "Summer House"; "VAT" of ``vat_gbp``: the record's own words
    held = {w for f in r.scope for w in (*f.words, *f.keys)}
    valued = any(_value_like(w, names) and w not in held for w in unplaced)
    valued = valued or (out.renamed is not None and out.renamed[3] in unplaced)
    if r.computed and not valued:  # worked out, not stated: at best inferred
        out.partial, out.unplaced, out.loose = chunks, unplaced, True
        return out
    if total and (got / total < _COVERED or valued or offers or unpicked or _items_apart(r)):
        out.partial = chunks
        out.unplaced = [unpicked, *unplaced] if unpicked not in ("", *unplaced) else unplaced
        out.loose = not valued and (
            r.text.rstrip().endswith("?")  # an offer of the record by its name
            or bool(offers)  # ... or one of a list of names offered
            or any("".join(f.keys) not in _NAME_KEYS | _ID_KEYS for f in r.stated)
        )  # a value besides the name: "famous for its scones" states none
        return out
    out.grounded = chunks
    return out


def _of_a_figure(words: list[str], i: int, figures: set[str], measured: set[str]) -> bool:
    """Whether the claim's word ``i`` goes with a figure or a place, not a fact of its own."""
    w = words[i]
    near = w == "close" and words[i + 1 : i + 2] in (["to"], ["by"])  # not "closed"
    # the unit written after a figure ("72 degrees Fahrenheit"): the figure's, not a fact
    # ("celsius" as ``_norm`` spells it; "degrees F")
    a_unit = _unit_word(w) or (
        w in ("f", "c") and (words[i - 1] == "degree" or words[i - 1] in figures)
    )
    near = near or (a_unit and i > 0 and (words[i - 1] in figures or _unit_word(words[i - 1])))
    near = near or _averaged(words, i, measured, figures)
    # the dimension a figure is said in ("300 m away", "3 hours long", "4 years old")
    return near or (w in _DIMENSIONS and i > 0 and _after_figure(words[i - 1], figures))


def _codes_stated(r: _Reading) -> set[str]:
    """The words of the codes the claim writes whole (``_verbatim``), their fields stated in
    place of the same field of another item that a figure of the code alone read ("2025")."""
    out: set[str] = set()
    for f in _verbatim(r):
        r.stated = [g for g in r.stated if g.group != f.group or g is f]
        if f not in r.stated:
            r.stated.append(f)
        out.update(f.words)
    return out


def _verbatim(r: _Reading) -> list[_Field]:
    """The fields of the claim's records whose value, a code of figures and other signs
    ("2025-03", "SIMO-30GB-24", "07700 900321"), the claim writes as it stands: its figures are
    that value's, not amounts no field holds; not a list item's value beside figures of
    another item ("2025-02: generation 702.8 kWh" of the March item's generation)."""
    low = r.text.lower()
    codes = [f for f in r.scope if _code(f.value) and _written(low, f.value.strip().lower())]
    # the list items the claim's other figures state ("2025" alone reads every month's code)
    items = {f.record for f in r.stated if "[" in f.record and not _code(f.value)}
    return [f for f in codes if "[" not in f.record or items <= {f.record}]


def _code(value: str) -> bool:
    v = value.strip()
    return len(v) >= _CODE_LENGTH and any(c.isdigit() for c in v) and not _PLAIN_NUMBER.fullmatch(v)


_CODE_LENGTH = 4  # "B12" is a code too short to tell from a word's letters and a figure
_PLAIN_NUMBER = re.compile(r"[\d.,]+")


def _written(text: str, value: str) -> bool:
    """Whether ``value`` stands in ``text`` as a whole (not "2025-03" of "2025-03-14")."""
    return re.search(rf"(?<![^\W_]){re.escape(value)}(?![^\W_])(?![-/:.]\d)", text) is not None


def _name_parts(r: _Reading) -> set[str]:
    """The claim's capitalised words that are words of a text value of two words or more
    of the one record whose fields the claim states (a claim that states fields of two
    items of a list gets none: which item "HDL" of "HDL Cholesterol" names is not read)."""
    names = _names_in(r.text)
    records = {f.record for f in r.stated}
    if not names or len(records) != 1:
        return set()
    return names & {
        w
        for f in r.scope
        if f.record in records and not f.numeric and len(f.words) >= 2
        for w in f.words
    }


def _renamed_value(r: _Reading, figures: set[str]) -> tuple[int, str, str, str] | None:
    """The first claim word the record does not hold that stands before the key word of a
    field of a word or two the claim does not use ("your savings account" for
    ``"account_type": "checking"``; also a common word: "checking"), with that field's chunk,
    path and value: perhaps another value of it (``FieldDecision.renamed``)."""
    words = r.words
    for i, w in enumerate(words):
        if w in r.covered or w in figures or w in _COMPARED or not _counts(w):
            continue
        f = _modified_field(words, i, r.scope)
        if f is not None and w not in f.keys:  # "customer rating" names the field, no value
            return f.chunk, f.id, f.value, w
    return None


def _decide(
    text: str,
    table: _Table,
    carried: set[str],
    index: EvidenceIndex,
    lex: RecordVocabulary,
    *,
    reply_words: frozenset[str] = frozenset(),
) -> FieldDecision:
    """What the record's fields say of one claim: each step places the claim's values (or
    finds one changed) and the last weighs the words left."""
    r = _reading(text, table, carried, index, lex)
    if isinstance(r, FieldDecision):
        return r
    decision = _steps(r, reply_words)
    if decision.grounded or decision.partial or decision.contradiction is not None:
        return _figure_key_denied(r, _zone_held(r, decision))
    if not any(rec in table.item_names for rec in r.named):
        return decision
    # a claim about the item it names by its identifier that the item's fields leave
    # unsupported may state other items' values too: read as if it named no item
    wide = _reading(text, table, carried, index, lex, items=False)
    return decision if isinstance(wide, FieldDecision) else _zone_held(r, _steps(wide, reply_words))


def _figure_key_denied(r: _Reading, decision: FieldDecision) -> FieldDecision:
    """Unsupported where the claim denies what a field it is grounded by says with its key:
    "not paid for yet - it'll come to £44.10" beside ``"totalPaidGbp": 44.1`` (the figure is
    the field's, the denial of its key's word is not; a zero, "no idle fee", is read where
    the figures are)."""
    if not decision.grounded:
        return decision
    words = r.words
    for f in r.stated:
        if not f.numeric or not f.quantities or any(q.value == 0 for q in f.quantities):
            continue
        heads = set(_heads(f))
        for i, w in enumerate(words):
            before = words[max(0, i - 2) : i]
            if w in heads and any(negator(b, nxt) for b, nxt in pairwise([*before, w])):
                decision.grounded, decision.partial, decision.loose = [], [], False
                return decision
    return decision


def _zone_held(r: _Reading, decision: FieldDecision) -> FieldDecision:
    """Unsupported where the claim writes a zone no datetime of the record has (the clock
    is the record's, the zone after it no value of it): "17:45 (+03:00)" beside
    ``"2024-09-18T17:45:00+01:00"``. A contradiction quotes a length as the claim said it
    ("4 hours 15 minutes", read as "255 minutes")."""
    if r.unheld_zone and (decision.grounded or decision.partial):
        decision.grounded, decision.partial, decision.loose = [], [], False
        decision.unplaced = [r.unheld_zone]
    c = decision.contradiction
    if c is not None and c.claim_value in r.said_as:
        decision.contradiction = c.model_copy(update={"claim_value": r.said_as[c.claim_value]})
    return decision


def _steps(r: _Reading, reply_words: frozenset[str]) -> FieldDecision:
    r.reply_words = reply_words
    for step in _STEPS:
        decision = step(r)
        if decision is not None:
            return decision
    return _coverage(r)


_STEPS: tuple[Callable[[_Reading], FieldDecision | None], ...] = (
    _another_name,
    _another_name_anywhere,
    _name_partly_changed,
    _keyed_name,
    _another_of_its_kind,
    _another_place,
    _another_sibling,
    _another_kind_written,
    _text_with_figures,
    _figured_terms,
    _summary_days,
    _comparisons,
    _zero_amounts,  # before the figures: "no idle fee" is no slot for "about 21 euros"
    _figures,
    _none_of,
    _codes,
    _said_in_words,
    _stated_fields,
)


def _weekdays(
    claim_words: set[str], scope: list[_Field], stated: list[_Field], covered: set[str]
) -> tuple[tuple[_Field, str], str] | None:
    """A weekday said of a record's date ("next Friday" for ``"2019-03-08"``): the field that
    holds it is stated and the word covered; a weekday none holds, where the record has one
    date, is returned with that field and its weekday (a contradiction)."""
    dated = _dated(scope) if claim_words & _WEEKDAYS else []
    wrong: tuple[tuple[_Field, str], str] | None = None
    for day in sorted(claim_words & _WEEKDAYS) if dated else ():
        holding = [f for f, weekday in dated if weekday == day]
        if holding:
            stated.extend(f for f in holding[:1] if f not in stated)
            covered.add(day)
        elif len(dated) == 1 and wrong is None:
            wrong = dated[0], day
    return wrong


def _dated(scope: list[_Field]) -> list[tuple[_Field, str]]:
    """The fields holding one full date, each with its weekday; none where a key of the
    record is a weekday (opening hours by day: ``_days_covered`` reads those)."""
    if any(k in _WEEKDAYS for f in scope for k in f.key_set):
        return []
    out: list[tuple[_Field, str]] = []
    for f in scope:
        dates = [int(q.value) for q in f.quantities if q.kind == "date"]
        if len(dates) != 1:
            continue
        try:
            out.append((f, WEEKDAYS[datetime.date(*date_parts(dates[0])).weekday()]))
        except ValueError:  # a year or a day missing, or no such day
            continue
    return out


def _by_day(scope: list[_Field]) -> dict[str, _Field]:
    """The record's per-day fields by weekday (``hours.Monday`` under "monday")."""
    return {"".join(f.keys): f for f in scope if len(f.keys) == 1 and f.keys[0] in _WEEKDAYS}


def _days_covered(
    toks: list[str], words: list[str], scope: list[_Field]
) -> tuple[list[_Field | None], bool] | None:
    """The per-day fields a claim covers ("every day": all seven, "Fridays and Saturdays":
    two; None for the day's field missing) and whether it claims only most of them. None when
    the claim covers fewer than two days or the record has no per-day fields."""
    by_day = _by_day(scope)
    if not by_day:
        return None
    summary = summary_days(toks)
    if summary is not None:
        days, most = summary
    else:
        days, most = tuple(d for d in _DAY_ORDER if d in words), False
        if len(days) < 2:
            return None
    return [by_day.get(d) for d in days], most


_DAY_ORDER = WEEKDAYS
_DAY_NAME = re.compile(rf"\b({'|'.join(_DAY_ORDER)})s?\b", re.I)
_CLAUSE_CUT = re.compile(r"\band\b|[;,]", re.I)


def _per_day(
    text: str, times: list[Quantity], scope: list[_Field]
) -> list[tuple[_Field | None, list[Quantity]]] | None:
    """Each day's own times when a claim gives days different hours, clause by clause ("open
    from 11 am to 9 pm on Tuesdays and until 10:30 pm on Fridays"); None when any clause
    with a day has no times or several days, or times stand in a clause without a day (then
    every time is every day's: "on Fridays and Saturdays from 9 to 5")."""
    by_day = _by_day(scope)
    cuts = [0, *(m.end() for m in _CLAUSE_CUT.finditer(text)), len(text) + 1]
    pairs: list[tuple[_Field | None, list[Quantity]]] = []
    ordered = sorted(times, key=lambda q: q.start)
    k = 0  # one pass over the times: linear in the claim however many clauses it has
    for start, end in itertools.pairwise(cuts):
        days = {m[1].lower() for m in _DAY_NAME.finditer(text, start, min(end, len(text)))}
        own = []
        while k < len(ordered) and ordered[k].start < end:
            own.append(ordered[k])
            k += 1
        if not days and not own:
            continue
        if len(days) != 1 or not own:
            return None
        pairs.append((by_day.get(days.pop()), own))
    return pairs if len(pairs) >= 2 else None


_CLOSED = frozenset({"closed", "close", "none", "n/a", "-"})


def _check_days(
    times: list[Quantity],
    days: tuple[list[_Field | None], bool],
    decided: bool,
    index: EvidenceIndex,
) -> bool | Contradiction:
    """Whether times (or being open) hold on the covered days: True for all of them (most of
    them for "most days"); a contradiction when they hold on none and every covered day
    states the same other hours; False (unsupported) otherwise."""
    fields, most = days

    def holds(f: _Field | None) -> bool:
        if f is None or f.value.strip().lower() in _CLOSED:
            return False
        return all(any(quantities_match(q, e) for e in f.quantities) for q in times)

    held = sum(holds(f) for f in fields)
    if held == len(fields) or (most and held * 2 > len(fields)):
        return True
    present = [f for f in fields if f is not None]
    if (
        held == 0
        and times
        and decided
        and not most
        and len(present) == len(fields)
        and len({f.band for f in present}) == 1
    ):
        f = present[0]
        chunk = index.chunks[f.chunk]
        return Contradiction(
            kind="time",
            claim_value=" - ".join(q.raw for q in times),
            evidence_value=f.value,
            evidence_id=chunk.id,
            quote=chunk.text,
            field=f.id,
        )
    return False


def _original(text: str, normalised: str) -> str:
    """The claim's own wording of a normalised word sequence (best effort)."""
    parts = normalised.split()
    if not parts:
        return normalised
    text = _THOUSANDS.sub("", text)  # as ``_words`` reads it
    exact = re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, parts)) + r"(?!\w)", text, re.I)
    if exact:
        return exact[0]  # "Chinese" itself, not the first word sharing its start ("children")
    pattern = r"\W+".join(rf"{re.escape(p[:3])}\w*" for p in parts)
    m = re.search(pattern, text, re.I)
    return m[0] if m else normalised


def decide_claims(
    texts: Sequence[str], index: EvidenceIndex, vocabulary: RecordVocabulary | None = None
) -> list[FieldDecision] | None:
    """Field decisions for claims in answer order (None when the evidence has no fields).
    ``vocabulary`` holds the closed vocabularies of the domains read (default: the bundled
    default domains)."""
    lex = vocabulary or record_vocabulary()
    table = _table(index)
    if table is None:
        return None
    out: list[FieldDecision] = []
    carried: set[str] = set()
    reply_words = frozenset(w for text in texts for w in _words(text))
    for text in texts:
        decision = _decide(text, table, carried, index, lex, reply_words=reply_words)
        if decision.records:
            carried = decision.records
        out.append(decision)
    return out


_GROUNDED_SUPPORT = 0.95  # support of a claim every value of which a field states
# P(entailed) from which the verifier decides a claim about a record that the fields state in
# part or not at all: ``VerifierThresholds.fields_ground``, with the verifier's other cut-offs
# (chosen on the E2E fit half: 0.9 -> 0.8 kept 15 of its 80 faithful rows with a FABRICATED
# claim and flagged 3 of 241 label-1 rows fewer).
_CONTRADICTED_SUPPORT = 0.05
_UNSTATED_SUPPORT = 0.3  # a claim about a record that no field states: unsupported


def apply_field_decisions(
    items: Sequence[VerificationItem],
    verdicts: Sequence[VerifierVerdict],
    index: EvidenceIndex,
    pair_grounds: float = VerifierThresholds().fields_ground,
    loose_support: float | None = None,
    *,
    vocabulary: RecordVocabulary | None = None,
    renamed_contradicts: float = VerifierThresholds().field_renamed,
) -> list[VerifierVerdict]:
    """Replace the prose verdicts of claims the fields decide; keep the others.

    ``pair_grounds`` is the verifier's P(entailed) from which it grounds a claim's words that
    the fields leave open; ``loose_support`` the support of a claim whose values the fields
    all state and whose other words are common words no field names (None: such a claim is
    left to the verifier as any partial claim).

    A grounded claim cites the fields that state it; a contradicted one names its field. A
    contradiction the prose path read in a field statement, with no typed conflict behind it,
    is dropped (the claim is then graded on its support: "unsupported" at worst). A word put
    before a field's key word in place of its value ("your checking account" for
    ``"account_type": "savings"``) names that field when the verifier reads the record as
    contradicting the claim with P(contradicted) >= ``renamed_contradicts``: the typed
    reading finds the field, the verifier tells another value from a word that only
    describes it ("your main account").
    """
    texts = [it.claim.text for it in items]
    decisions = decide_claims(texts, index, vocabulary) if items else None
    if decisions is None:
        return list(verdicts)
    return [
        _applied(
            item,
            verdict,
            _renamed(decision, item.signals, index, renamed_contradicts),
            index,
            pair_grounds=pair_grounds,
            loose_support=loose_support,
        )
        for item, verdict, decision in zip(items, verdicts, decisions, strict=True)
    ]


def _renamed(
    decision: FieldDecision, sig: ClaimSignals, index: EvidenceIndex, threshold: float
) -> FieldDecision:
    """``decision`` with the field another value of which the claim puts before its key word
    contradicted, when the verifier reads the record as contradicting the claim."""
    if decision.contradiction is not None or decision.renamed is None:
        return decision
    window = sig.pair_window
    if sig.pair_contradicted < threshold or window is None:
        return decision
    if "field" not in (index.chunks[window].metadata or {}):
        return decision  # a passage beside the record contradicts: not the field's to name
    at, fid, value, word = decision.renamed
    chunk = index.chunks[at]
    named = replace(decision, chunk=at)
    named.contradiction = Contradiction(
        kind="entity",
        claim_value=word,
        evidence_value=value,
        evidence_id=chunk.id,
        quote=chunk.text,
        field=fid,
    )
    return named


def _applied(
    item: VerificationItem,
    verdict: VerifierVerdict,
    decision: FieldDecision,
    index: EvidenceIndex,
    *,
    pair_grounds: float,
    loose_support: float | None,
) -> VerifierVerdict:
    """One claim's verdict with its field decision applied (see ``apply_field_decisions``)."""
    sig = item.signals
    scores = dict(sig.top)
    if decision.contradiction is not None:
        sig.contradiction = decision.contradiction.model_copy(update={"check": "records"})
        sig.no_contradiction = 0.0
        sig.top = [(decision.chunk, scores.get(decision.chunk, 1.0))] + [
            t for t in sig.top if t[0] != decision.chunk
        ]
        sig.aligned = decision.chunk
        return replace(
            verdict,
            support=min(verdict.support, _CONTRADICTED_SUPPORT),
            contradicted=True,
            evidence_id=index.chunks[decision.chunk].id,
        )
    grounded = decision.grounded
    if (
        not grounded
        and decision.partial
        and sig.pair_entailed >= pair_grounds
        and sig.negation_consistent > 0.0
    ):
        # the rest of its words: the verifier reads the record, unless the claim denies what
        # its evidence affirms or the reverse ("Dogs aren't allowed at Hotel Lux" beside
        # ``pets_allowed: true``): a cross-encoder this small reads "not" poorly
        grounded = decision.partial
    if not grounded and decision.partial and decision.loose and loose_support is not None:
        return _inferred_from_values(item, verdict, decision, index, loose_support)
    if grounded:
        sig.field_grounded = True
        sig.top = [(i, scores.get(i, 1.0)) for i in grounded]  # the fields only
        sig.aligned = grounded[0]
        sig.contradiction = None
        sig.missing = []
        return replace(
            verdict,
            support=max(verdict.support, _GROUNDED_SUPPORT),
            contradicted=False,
            evidence_id=index.chunks[grounded[0]].id,
        )
    if (
        decision.structured
        and sig.top
        and _is_field(index, index.chunks[sig.top[0][0]].id)
        and not (
            decision.unstated and decision.renamed is None and sig.pair_entailed >= pair_grounds
        )
    ):
        # About a record, stated by none of its fields: prose similarity to "key: value"
        # statements is no support ("offers home delivery" next to ``listing.name``), unless
        # the verifier reads the record as entailing it ("Children should not visit").
        verdict = replace(verdict, support=min(verdict.support, _UNSTATED_SUPPORT))
    found = sig.contradiction
    read = found.evidence_id if found is not None else verdict.evidence_id
    if found is None and verdict.contradicted and sig.top:
        read = read or index.chunks[sig.top[0][0]].id
    if (
        (verdict.contradicted or found is not None)
        and (found is None or found.field is None)
        and read
        and _is_field(index, read)
    ):
        sig.contradiction = None  # prose slot alignment does not read field statements
        return replace(verdict, contradicted=False)
    return verdict


def _inferred_from_values(
    item: VerificationItem,
    verdict: VerifierVerdict,
    decision: FieldDecision,
    index: EvidenceIndex,
    support: float,
) -> VerifierVerdict:
    """A claim every value of which is the record's, put in words no field says ("a bus
    departing at 7:40 am"): inferred, citing those fields and naming the words, never
    fabricated."""
    sig = item.signals
    scores = dict(sig.top)
    sig.top = [(i, scores.get(i, 1.0)) for i in decision.partial]
    sig.aligned = decision.partial[0]
    sig.contradiction = None
    sig.missing = decision.unplaced
    sig.quantities_ok = 1.0  # its figures are the fields'
    chunk = index.chunks[decision.partial[0]]
    return replace(verdict, support=support, contradicted=False, evidence_id=chunk.id)


def _is_field(index: EvidenceIndex, evidence_id: str) -> bool:
    for chunk in index.chunks:
        if chunk.id == evidence_id:
            info = field_info(chunk)
            return info is not None and info.get("kind") == "value"
    return False
