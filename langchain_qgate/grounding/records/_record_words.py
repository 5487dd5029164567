"""How people name a record's fields: boolean keys and their polarity, closed vocabularies,
summaries over days.

Helpers of ``fields``:

- :func:`boolean_said` finds where a claim names a boolean field (its key split into words,
  ``OutdoorSeating`` -> "outdoor seating", with a few synonyms: "kid friendly" for
  ``familyFriendly``; a key inside a group also needs its group named: "garage" counts for
  ``BusinessParking.garage`` only next to "parking") and reads the polarity the claim gives
  it: "no outdoor seating", "Outdoor seating is not available", "non family-friendly",
  "There is no valet, garage or lot parking" all say false. The sentence's negation is
  compared with the value, never the words alone;
- :func:`vocabulary_term` reads a value of a closed vocabulary (order status, carrier,
  cuisine, venue type, price band, rating band) the claim gives a field, as an equivalence
  class, so "cheap" agrees with ``"less than £20"`` and "delivered" differs from
  ``"shipped"``;
- :func:`summary_days` reads "every day", "daily", "on weekdays", "most days".

All matching is on word lists (no regex backtracking).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from langchain_qgate.config import DEFAULT_RECORD_VOCABULARIES
from langchain_qgate.errors import QGateError
from langchain_qgate.grounding.checks._lexicon import (
    AUXILIARIES,
    BE_FORMS,
    UNAPOSTROPHED_NEGATIONS,
    WEEKDAYS,
)
from langchain_qgate.grounding.checks._lexicon import table as lexicon_table
from langchain_qgate.grounding.checks._lexicon import words as lexicon_words
from langchain_qgate.grounding.checks.checks import edits, spelt_alike

__all__ = [
    "DEFAULT_DOMAINS",
    "TO_BOOT",
    "RecordValues",
    "RecordVocabulary",
    "VocabTerm",
    "boolean_said",
    "claim_tokens",
    "in_vocabulary",
    "record_vocabulary",
    "summary_days",
    "unlisted_term",
    "vocabulary_term",
]

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?|[.,;:!?]")
_GENERIC = lexicon_words("record_words.generic")
# "X's" for "X is" before a word that says a thing is had or not, ending its clause ("parking's
# not included", "wifi's free for guests"); a possessive ("the cafe's prices", "the hotel's
# free parking") is left as it is written.
_IS_BEFORE_PREDICATE = re.compile(
    r"\b([a-z]+)'s\s+(?=(?:not\s+|also\s+|only\s+|still\s+)?(?:"
    + "|".join(sorted(lexicon_words("record_words.predicates") | {"included", "free", "extra"}))
    + r")(?:\s*[.,;:!?]|\s*$|\s+(?:for|at|in|on|to|with|too|as|here|there|today|now)\b))"
)
# A predicate with its negation inside the word ("a family unfriendly pub").
_UN_PREDICATES = lexicon_words("record_words.un_predicates")
_NEGATORS = lexicon_words("record_words.negators")
_BREAKS = lexicon_words("record_words.breaks")
# After "," or "and", these start a new clause (", and has outdoor seating").
_CLAUSE_STARTS = lexicon_words("record_words.clause_starts")
# Words that say a boolean holds ("kid friendly", "reservations accepted").
_PREDICATES = lexicon_words("record_words.predicates")
_WINDOW_BACK = 8
_WINDOW_AHEAD = 5


_WIFI = re.compile(r"\bwi[- ]?fi\b")
_OUT_OF = re.compile(r"\b([1-5])\s?/\s?(5)\b")
TO_BOOT = re.compile(r"(?i)\bto boot\b")  # an idiom: "as well"
_MORE_THAN_WELCOME = re.compile(r"\bmore than welcome\b")  # an idiom: "very welcome"
# A dash between words or a bracket sets a phrase apart as a comma does ("isn't in the city
# centre — it's by the river", "X (a pub by the river) costs ..."); "£20-25" keeps its hyphen.
_ASIDE = re.compile(r"\s[-\u2013\u2014]+\s|(?<!\d)[\u2013\u2014](?!\d)|[()\[\]]")


def claim_tokens(text: str) -> list[str]:
    """Lower-case words and clause punctuation ("doesn't" stays one word, "Wi-Fi" is "wifi",
    "3/5" is "3 out of 5")."""
    text = _OUT_OF.sub(r"\1 out of \2", _WIFI.sub("wifi", text.lower().replace("’", "'")))
    text = TO_BOOT.sub("too", text)
    if "'s " in text:  # "parking's included": the key word and its predicate
        text = _IS_BEFORE_PREDICATE.sub(r"\1 is ", text)
    return _TOKEN.findall(_ASIDE.sub(" , ", _MORE_THAN_WELCOME.sub("welcome", text)))


@lru_cache(maxsize=1 << 16)
def _value_tokens(value: str) -> tuple[str, ...]:
    """``claim_tokens`` of a field's value, kept: a table's values recur in every claim."""
    return tuple(claim_tokens(value))


@cache
def _term_tokens(term: str) -> list[str]:
    """``claim_tokens`` of a vocabulary's term (a fixed set); never mutate the list."""
    return claim_tokens(term)


class RecordValues:
    """A record's values, each distinct value tokenised once, for the reads of
    :func:`vocabulary_term` and :func:`unlisted_term`, which a claim makes once per field.

    Built once per claim (``fields``), it keeps what those reads ask of the values (their
    words, whether a term stands inside a longer value) and each field's vocabulary read, so a
    claim against a table of N records costs O(N), not O(N^2): ``vocabulary_term`` of the
    claim is the same for every field of one vocabulary and class.

    Example:
        >>> values = RecordValues(["Raja Indian Cuisine", "shipped", "shipped"])
        >>> len(values.tokens), values.inside_longer(["indian"])
        (2, True)
    """

    def __init__(self, values: Iterable[str], vocabulary: RecordVocabulary | None = None) -> None:
        self.vocabulary = vocabulary or record_vocabulary()
        self.tokens: list[list[str]] = [list(_value_tokens(v)) for v in dict.fromkeys(values)]
        self.words: frozenset[str] = frozenset(w for t in self.tokens for w in t)
        self._inside: dict[tuple[str, ...], bool] = {}
        self._terms: dict[tuple[tuple[str, ...], int, int], VocabTerm | None] = {}

    def inside_longer(self, words: list[str]) -> bool:
        """Whether ``words`` stand inside a longer value ("indian" in "Raja Indian Cuisine")."""
        key = tuple(words)
        found = self._inside.get(key)
        if found is None:
            found = any(len(o) > len(words) and _at(o, words) for o in self.tokens)
            self._inside[key] = found
        return found

    def vocabulary_read(self, tokens: list[str], vocab: _Vocabulary, mine: int) -> VocabTerm | None:
        """``vocabulary_term`` of a claim's ``tokens`` for a field of ``vocab`` whose value is
        in class ``mine``, read once: it depends on nothing else of the field."""
        key = (tuple(tokens), id(vocab), mine)
        if key not in self._terms:
            self._terms[key] = _vocabulary_term(tokens, vocab, mine, self)
        return self._terms[key]


def _record_values(
    values: Sequence[str] | RecordValues, vocabulary: RecordVocabulary | None = None
) -> RecordValues:
    return values if isinstance(values, RecordValues) else RecordValues(values, vocabulary)


def negator(tok: str, after: str = "") -> bool:
    if tok == "not" and after == "only":
        return False  # "not only ... but also"
    return tok in _NEGATORS or tok.endswith("n't") or tok in UNAPOSTROPHED_NEGATIONS


@lru_cache(maxsize=1 << 16)
def _stem_match(tok: str, word: str) -> bool:
    """Whether ``tok`` names ``word`` (one stem, a plural, a misspelling); kept, as every
    word of a claim meets every key word of a record."""
    if tok == word or tok.rstrip("s") == word or spelt_alike(tok, word):  # "freindly"
        return True
    n = max(4, len(word) - 3)
    if len(tok) < len(word) - 2:
        return False  # "take" does not name "takeout"
    if not (len(word) >= 4 and len(tok) >= n and tok[:n] == word[:n]):
        return False
    # one stem with endings ("delivers", "delivery"; "accessible", "accessibility"), not
    # two words that begin alike ("overstory" is no "overdue")
    short = min(len(tok), len(word))
    common = next((i for i in range(short) if tok[i] != word[i]), short)
    return any(tok[k:] in _ENDINGS and word[k:] in _ENDINGS for k in range(common, 3, -1))


# Endings of one stem's forms: inflections and the common derivations.
_ENDINGS = lexicon_words("record_words.endings")


def _names(tok: str, word: str, synonyms: dict[str, tuple[str, ...]]) -> bool:
    return _stem_match(tok, word) or any(_stem_match(tok, s) for s in synonyms.get(word, ()))


def _find(
    tokens: list[str], words: list[str], synonyms: dict[str, tuple[str, ...]]
) -> tuple[int, int] | None:
    """The first span of ``tokens`` naming every word of ``words`` within a short window."""
    if not words:
        return None
    width = len(words) + 2
    for i, tok in enumerate(tokens):
        if not any(_names(tok, w, synonyms) for w in words):
            continue
        window = tokens[i : i + width]
        hits = [
            next((j for j, t in enumerate(window) if _names(t, w, synonyms)), -1) for w in words
        ]
        if all(h >= 0 for h in hits):
            return i, i + max(hits)
    return None


def _negated(tokens: list[str], start: int, end: int, *, predicate: bool = False) -> bool:
    """Whether a negation governs the words ``tokens[start : end + 1]``; with ``predicate``
    (a boolean's words), not one whose own predicate ends at a comma before them."""
    comma = -1  # the comma nearest the negation between it and the words
    # "no room for bikes and catering isn't available": words with a verb of their own are a
    # clause of their own, which a conjunction before them opens
    clause = any(t in AUXILIARIES for t in tokens[start : end + 2])
    for j in range(start - 1, max(-1, start - 1 - _WINDOW_BACK), -1):
        tok = tokens[j]
        if tok == ",":
            comma = j
        if clause and tok in ("and", "but") and j + 1 == start:
            break
        if tok == "so" and j > 0 and tokens[j - 1] == "not":
            return True  # "a not so children friendly place"
        if tok in ("however", "though") and tokens[j - 1 : j] == [","] == tokens[j + 1 : j + 2]:
            continue  # "it is not, however, kid friendly": an aside
        if tok in _BREAKS:
            # "not a pub that bans kids", "not one of those places that turn kids away": the
            # relative clause is the denied thing's
            if tok in _RELATIVE and _denied_kind(tokens, j):
                return True
            break
        if tok in (",", "and") and j + 1 < start and tokens[j + 1] in _CLAUSE_STARTS:
            break
        if tok == "," and j + 1 < start and tokens[j + 1] in _PREDICATE_STARTS:
            break  # "not too dear, fine for the kids": a new predicate after the comma
        if tok == "non" and j < start - 2:
            continue  # "non family-friendly pub": "non" governs its compound only
        if tok == "friendly" and j > 0 and tokens[j - 1] in _FAMILY:
            break  # "not a children friendly English coffee shop": it governs the compound
        if _answer(tokens, j, start):
            break  # "No, it's still pending", "Not quite - ...": an answer, no denial of it
        if negator(tok, tokens[j + 1]):
            # "not cheap, kid friendly", "isn't adults only, a family-friendly café": the
            # negated predicate ends at the comma. The words' own: "not, sadly, kid friendly",
            # a list ("not cheap, or kid friendly"; "no valet, garage or lot parking"), a noun
            # phrase ("not a cheap, kid friendly pub")
            listed = {"or", "nor"} & {*tokens[j + 1 : start], *tokens[end + 1 : end + 3]}
            phrase = tokens[j + 1] in ("a", "an", "the", "one")  # the comma may be inside it
            own = (
                predicate
                and comma > j + 1
                and tok not in ("no", "without", "none", "nor", "neither")
                and tokens[j + 1] not in ("so", "too")
                # ... unless its head came first: "not a place for kids, adults only"
                and (not phrase or bool(_HEADS & {*tokens[j + 2 : comma]}))
            )
            return not own or bool(listed)
    for j in range(end + 1, min(len(tokens), end + 1 + _WINDOW_AHEAD)):
        tok = tokens[j]
        if tok in _BREAKS or tok in (",", "and", "or") or tok in _PHRASE_STARTS:
            break  # "a cordless kettle with no keep-warm function": another thing's negation
        after = tokens[j + 1] if j + 1 < len(tokens) else ""
        if negator(tok, after):
            # "a coffee shop on the riverside is not family-friendly", "a rating of 3 is not
            # suitable for children": a new predicate's negation, not the term's
            return not (after in _FAMILY or after == "friendly" or after in _PREDICATE_STARTS)
    return False


_ANSWER_WORDS = lexicon_words("record_words.answer_words")


def _answer(tokens: list[str], j: int, start: int) -> bool:
    """Whether the negation at ``tokens[j]`` opens the claim as an answer to a question ("No,
    ...", "Not quite - ...", "Not yet, ...", "No problem, ..."): it, a word or two of the
    answer (or one word of its own after "no"), then a comma, before ``start``."""
    if tokens[j] not in ("no", "not", "nope", "nah") or any(
        t not in _ANSWER_WORDS for t in tokens[:j]
    ):
        return False
    for t in tokens[j + 1 : j + 4]:
        if t == ",":
            return True
        if t not in _ANSWER_WORDS:
            break
    # "No problem, ...", "No worries, ...": "no", one word of its own, then a comma, all
    # before the words read ("No towel, I'm afraid" denies the towel)
    return tokens[j] == "no" and j + 2 < start and tokens[j + 2] == "," and tokens[j + 1].isalpha()


_RELATIVE = lexicon_words("record_words.relative")
# Words that end a denied noun phrase: its head ("not a family establishment, adults only") or
# what follows one ("not a place for kids, adults only").
_HEADS = lexicon_words("record_words.heads")
_KIND_WORDS = lexicon_words("record_words.kind_words")


_BETWEEN_DENIAL = lexicon_words("record_words.before_a_denied_value")


def value_negated(tokens: list[str], value: Sequence[str]) -> bool:
    """Whether the claim says a value's words right after a negation ("your refill isn't
    ready", "the car's not red", "not yet READY"), at the first place it says them; not where
    a relative clause follows ("not a pub that bans kids" denies the clause)."""
    n = len(value)
    for at in range(len(tokens) - n + 1):
        if list(tokens[at : at + n]) == list(value):
            if tokens[at + n : at + n + 1] and tokens[at + n] in _RELATIVE:
                return False
            j = at - 1
            while j >= 0 and tokens[j] in _BETWEEN_DENIAL:
                j -= 1
            return j >= 0 and negator(tokens[j], tokens[j + 1] if j + 1 < len(tokens) else "")
    return False


def _denied_kind(tokens: list[str], at: int) -> bool:
    """Whether a relative pronoun at ``at`` follows a denied kind of place ("not a pub that",
    "isn't one of those places that")."""
    for j in range(at - 1, max(-1, at - 7), -1):
        if negator(tokens[j], tokens[j + 1]) and tokens[j] not in ("non", "without", "no"):
            return j < at - 1
        if tokens[j] not in _KIND_WORDS:
            return False
    return False


_PREDICATE_STARTS = lexicon_words("record_words.predicate_starts")
_FAMILY = lexicon_words("record_words.family")
# Words after which a negation belongs to a new phrase, not to the words before them.
_PHRASE_STARTS = lexicon_words("record_words.phrase_starts")


def _adults_only(tokens: list[str]) -> tuple[int, int] | None:
    """The span of "adults only", "for adults", "leave the kids at home" (not for families)
    in the claim, or None."""
    for i, tok in enumerate(tokens):
        if tok in ("adult", "adults"):
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            before = tokens[i - 1] if i else ""
            if after == "only":
                return i, i + 1
            if before in ("for", "only"):
                return i - 1, i
        if tok in ("leave", "leaving"):  # "leave the kids at home"
            home = next((j for j in range(i + 2, i + 5) if tokens[j : j + 2] == ["at", "home"]), 0)
            if any(t in _FAMILY for t in tokens[i + 1 : home]):
                return i, home + 1
    return None


# What may follow a denied family word for the denial to be the place's ("No children.", "a
# no children coffee shop"); "no kids menu" denies a menu, not the children.
_NO_CHILDREN_BEFORE = lexicon_words("record_words.no_children_before")


def _no_children(tokens: list[str]) -> bool:
    """ "No children.", "a no kids coffee shop": the family word itself denied. Not after
    "with" or as "without": "perfect for couples with no children" and "a night out without
    the kids" say who goes, not whom the place admits."""
    for i, tok in enumerate(tokens):
        if tok in _FAMILY or tok == "families":
            before = tokens[max(0, i - 2) : i]
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            if before[-1:] == ["no"] and before[:1] != ["with"] and after in _NO_CHILDREN_BEFORE:
                return True
    return False


# What "for kids" may follow to say the place is for them ("is for kids", "a pub for the whole
# family", "not for kids"); after other words it says nothing ("too loud for kids").
_FOR_FAMILY_AFTER = lexicon_words("record_words.for_family_after")


_PLACE_KINDS = lexicon_words("record_words.place_kinds")


def _family_kind(tokens: list[str]) -> tuple[int, int] | None:
    """The span of "a family restaurant", "a kids' place" in the claim, or None."""
    for i, tok in enumerate(tokens[:-1]):
        family = tok in _FAMILY or tok in ("families", "kid's", "kids'", "children's")
        if family and tokens[i + 1] in _PLACE_KINDS:
            return i, i + 1
    return None


_TAKE = lexicon_words("record_words.take")
# Words between a negation and the verb it denies ("not a place to bring children")
_TAKE_GAP = lexicon_words("record_words.take_gap")


def _take_the_kids(tokens: list[str]) -> tuple[bool, int, int] | None:
    """ "You should take the kids to X" (for families), "I wouldn't bring my kids here", "not a
    place to take children" (not): what it says and where the verb and the family word stand,
    or None: also when a negation further back may or may not be the verb's ("it is not
    recommended to bring children", "I never worry about bringing the kids")."""
    for i, tok in enumerate(tokens):
        if tok not in _TAKE:
            continue
        j = i + 1 + (i + 1 < len(tokens) and tokens[i + 1] in ("the", "your", "my", "our", "along"))
        if j < len(tokens) and (tokens[j] in _FAMILY or tokens[j] == "families"):
            for k in range(i - 1, max(-1, i - 6), -1):
                if negator(tokens[k], tokens[k + 1]):
                    return False, i, j
                if tokens[k] not in _TAKE_GAP:
                    break
            if _negated(tokens, i, j) or {"elsewhere", "else"} & set(tokens[j + 1 : j + 4]):
                return None  # "take the kids somewhere else"
            return True, i, j
    return None


_GOOD_WITH = lexicon_words("record_words.good_with")


def _for_family(tokens: list[str]) -> tuple[int, int] | None:
    """The span of "for kids", "for the whole family", "for families", "great with kids" in
    the claim, or None."""
    for i, tok in enumerate(tokens):
        if i == 0 or not (
            (tok == "for" and tokens[i - 1] in _FOR_FAMILY_AFTER)
            or (tok == "with" and tokens[i - 1] in _GOOD_WITH)  # "great with kids"
        ):
            continue
        for j in range(i + 1, min(len(tokens), i + 4)):
            if tokens[j] in _FAMILY or tokens[j] == "families":
                return i, j
            if tokens[j] not in ("the", "whole", "entire", "young", "small", "little", "your"):
                break
    return None


# A key that names the absence of a thing.
NEGATIVE_HEADS = lexicon_words("record_words.negative_heads")


def boolean_said(
    tokens: list[str],
    keys: list[str],
    parents: list[str],
    vocabulary: RecordVocabulary | None = None,
) -> tuple[bool, list[str]] | None:
    """What the claim says of a boolean field (True or False) and the words naming it, or None
    when it does not name it.

    Args:
        tokens: The claim's :func:`claim_tokens`.
        keys: The leaf key's words (``["outdoor", "seating"]``).
        parents: The words of the groups the key sits in (``["business", "parking"]``).
    """
    leaf = [k for k in keys if k not in _GENERIC]
    if not leaf:
        return None
    if len(leaf) > 1 and leaf[0] in NEGATIVE_HEADS:
        # ``non_refundable``, ``no_smoking``: the claim's word for the rest, read the other way
        # ("non-refundable" says the key, "refundable" denies it)
        positive = boolean_said(tokens, leaf[1:], parents, vocabulary)
        return None if positive is None else (not positive[0], positive[1])
    group = [p for p in parents if p not in _GENERIC]
    synonyms = (vocabulary or record_vocabulary()).key_synonyms
    if group and len(leaf) == 1 and not any(_names(t, g, synonyms) for t in tokens for g in group):
        return None  # "a lot of food" is not ``BusinessParking.lot``
    # "take out", "takeout"
    span = _find(tokens, leaf, synonyms) or _find(tokens, ["".join(leaf)], synonyms)
    if span is None and _FAMILY & set(leaf):
        if _no_children(tokens):  # "No children.", "a no kids coffee shop"
            return False, [t for t in tokens if t in _FAMILY or t == "families"]
        if (adults := _adults_only(tokens)) is not None:  # "adults only": not for families
            said = ("adult", "adults", "only", "leave", "leaving", "home", *_FAMILY, *_PREDICATES)
            named = [t for t in tokens if t in said]
            if _negated(tokens, *adults, predicate=True):  # "isn't adults only"
                return True, [*named, *(t for t in tokens[: adults[0]] if negator(t))]
            return False, named
        span = _for_family(tokens) or _family_kind(tokens)  # "a place for kids too"
    taken = _take_the_kids(tokens) if _FAMILY & set(leaf) else None
    if taken is not None and (span is None or span[1] == taken[2]):
        return taken[0], [tokens[taken[1]], tokens[taken[2]]]
    if span is None and (none := _none_of_thing(tokens, leaf, synonyms)) is not None:
        return False, ["no", tokens[none]]  # "There was no VAR." of ``var_used``
    if span is None:
        at = _antonym_at(tokens, leaf)  # "unlocked" of ``locked``, "offline" of ``online``
        if at is None:
            at = _predicate_opposite(tokens, leaf)  # "it's optional" of ``compulsory``
        if at is None:
            return _opposite_said(tokens, leaf, synonyms)
        return _negated(tokens, at, at, predicate=True), [tokens[at]]
    named = [t for t in tokens[span[0] : span[1] + 1] if t not in _NEGATORS]
    named += [t for t in tokens if t in _PREDICATES]
    named += [t for t in tokens if any(_names(t, g, synonyms) for g in group)]
    if _FAMILY & set(leaf):  # "not suitable for families with children"
        named += [t for t in tokens if t in _FAMILY or t == "families"]
    literal = _literal_after(tokens, span[1] + 1)
    if literal is not None:  # "New patient: false", "full protection: N", "Pets allowed = yes"
        return literal, [*named, tokens[span[1] + 1]]
    # "dogs are not allowed", "a family unfriendly pub"
    inside = any(negator(t, "") or t in _UN_PREDICATES for t in tokens[span[0] : span[1] + 1])
    # a negation of a negative is none ("not unfriendly to families", "isn't unsuitable")
    return inside == _negated(tokens, *span, predicate=True), named


# The words that say a key's last word does not hold ("extra" of ``breakfast_included``,
# "banned" of ``smoking_allowed``), by that word: lexicon.json, ``leaf_opposites``.
_LEAF_OPPOSITES: dict[str, frozenset[str]] = {
    k: frozenset(v) for k, v in lexicon_table("leaf_opposites").items()
}
_OPPOSITE_REACH = 3  # words from the key's thing to the word that denies it
_OPPOSITE_GAP = lexicon_words("record_words.opposite_gap")  # "is", "costs", "comes at"


def _opposite_said(
    tokens: list[str], leaf: list[str], synonyms: dict[str, tuple[str, ...]]
) -> tuple[bool, list[str]] | None:
    """A key of a thing and a predicate (``breakfast_included``) said false by the thing and a
    word opposite to the predicate right after it ("Breakfast costs extra.", "smoking is
    banned"); true when that word is denied ("breakfast isn't extra"). None otherwise."""
    opposites = _LEAF_OPPOSITES.get(leaf[-1]) if len(leaf) > 1 else None
    if not opposites:
        return None
    thing = _find(tokens, leaf[:-1], synonyms)
    if thing is None:
        return None
    for at in range(thing[1] + 1, min(len(tokens), thing[1] + 1 + _OPPOSITE_REACH)):
        if tokens[at] in opposites:
            named = tokens[thing[0] : at + 1]  # "is strictly", "isn't" placed with it
            inside = any(negator(t, "") for t in tokens[thing[1] + 1 : at])
            return inside != _negated(tokens, thing[0], at, predicate=True), named
        if tokens[at] not in _OPPOSITE_GAP and not negator(tokens[at], ""):
            return None  # "breakfast and extra towels": the word is another thing's
    return None


def _none_of_thing(
    tokens: list[str], leaf: list[str], synonyms: dict[str, tuple[str, ...]]
) -> int | None:
    """Where the claim says there is none of the thing a two-word key is a state of ("There
    was no VAR." of ``var_used``, "no wifi in the rooms" of ``wifi_available``): "no", the
    thing, then no word that makes it a compound ("no VAR decisions" says nothing of
    ``var_used``)."""
    if len(leaf) != 2 or _FAMILY & set(leaf):
        return None  # children have their own reading ("for couples with no children")
    for i in range(1, len(tokens)):
        if tokens[i - 1] != "no" or not _names(tokens[i], leaf[0], synonyms):
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if not after[:1].isalnum() or after in _AFTER_NONE:
            return i
    return None


_AFTER_NONE = frozenset(
    {"in", "at", "on", "for", "during", "this", "today", "tonight", "here", "there", "whatsoever",
     "was", "were", "is", "are", "and", "but", "or", "so", "either", "yet", "used", "involved"}
)  # fmt: skip


def _predicate_opposite(tokens: list[str], leaf: list[str]) -> int | None:
    """Where the claim says of its record a word opposite to a one-word key
    (``leaf_opposites``), as the predicate of a verb "be" ("it's optional", "the module is
    not optional" of ``compulsory``): the word says the field is false. Not with a time
    after it ("closed on Sundays" of ``open``)."""
    opposites = _LEAF_OPPOSITES.get(leaf[0]) if len(leaf) == 1 else None
    if not opposites:
        return None
    for i, tok in enumerate(tokens):
        if tok not in opposites:
            continue
        j = i - 1
        while j >= 0 and (negator(tokens[j], "") or tokens[j] in _BE_ADVERBS):
            j -= 1
        if _time_after(tokens, i + 1):
            continue  # "closed on Sundays" of ``open``: when, not whether
        if j >= 0 and (tokens[j] in _BE or tokens[j].endswith(("'s", "’s"))):
            return i
    return None


_WHEN_ALONE = frozenset({"every", "during", "between", "weekends", "weekdays", "overnight"})
_WHEN_PREPOSITIONS = frozenset(
    {"on", "at", "in", "over", "from", "after", "before", "most", "some"}
)
_TIMES = frozenset(
    {"weekend", "weekends", "weekday", "weekdays", "night", "nights", "holiday", "holidays",
     "christmas", "winter", "summer", "spring", "autumn", "evening", "evenings", "morning",
     "mornings", "afternoon", "afternoons", "lunchtime", "noon", "midnight", "bank", "public",
     "certain", "some"}
)  # fmt: skip
_PLURAL_DAYS = frozenset(d + "s" for d in WEEKDAYS)


def said_when(tokens: list[str], words: Sequence[str]) -> bool:
    """Whether the claim writes a time right after the last of ``words``: when a state holds,
    not whether it does ("closed on Sundays", "open at weekends", "shut every Monday";
    "delayed at Heathrow" and "closed until further notice" say whether)."""
    return bool(words) and any(
        t == words[-1] and _time_after(tokens, i + 1) for i, t in enumerate(tokens)
    )


def _time_after(tokens: list[str], i: int) -> bool:
    if i >= len(tokens):
        return False
    if tokens[i] in _WHEN_ALONE:
        return True
    k = i + 2 if tokens[i + 1 : i + 2] == ["the"] else i + 1  # "on the weekend"
    after = tokens[k] if k < len(tokens) else ""
    return tokens[i] in _WHEN_PREPOSITIONS and (
        after in _TIMES or after in WEEKDAYS or after in _PLURAL_DAYS or after[:1].isdigit()
    )


_BE = BE_FORMS | {"isn't", "aren't", "wasn't", "weren't"}
_BE_ADVERBS = frozenset({"completely", "entirely", "fully", "totally", "strictly", "still", "now"})
_NEGATIVE_PREFIXES = lexicon_words("record_words.negative_prefixes")
_ANTONYM_STEM = 4  # letters of the key word an antonym keeps after its prefix


def _antonym_at(tokens: list[str], leaf: list[str]) -> int | None:
    """Where the claim says a one-word key with a prefix that denies it ("unlocked" of
    ``locked``, "unavailable", "invalid", "disabled" of ``enabled``, "offline" of
    ``online``): the word says the field is false."""
    if len(leaf) != 1 or len(leaf[0]) < _ANTONYM_STEM:
        return None
    word = leaf[0]
    for i, tok in enumerate(tokens):
        if any(
            tok.startswith(pre) and _stem_match(tok[len(pre) :], word) for pre in _NEGATIVE_PREFIXES
        ):
            return i
        if word[:2] in ("on", "en") and tok == ("off" if word[:2] == "on" else "dis") + word[2:]:
            return i
    return None


_LITERAL_TRUE = lexicon_words("record_words.literal_true")
_LITERAL_FALSE = lexicon_words("record_words.literal_false")
_CLAUSE_ENDS = lexicon_words("record_words.clause_ends")


def _literal_after(tokens: list[str], at: int) -> bool | None:
    """The yes/no literal a key is written with, as a record writes it ("New patient: false",
    "full protection: N", "online false,"): the last word of its clause, after a colon or an
    equals sign, "is" or right after the key ("paid is false and in_credit is false")."""
    if at < len(tokens) and tokens[at] in (":", "=", "is"):
        at += 1  # "New patient: false"; also "online false," as a record's list writes it
    if at >= len(tokens) or (
        at + 1 < len(tokens) and tokens[at + 1] not in _CLAUSE_ENDS | {"and", "but"}
    ):
        return None
    word = tokens[at]
    return True if word in _LITERAL_TRUE else False if word in _LITERAL_FALSE else None


@dataclass(frozen=True)
class _Vocabulary:
    keys: frozenset[str]  # joined key words the vocabulary belongs to
    classes: tuple[tuple[str, ...], ...]  # equivalence classes of terms, in order
    anchors: frozenset[str] = frozenset()  # words an ambiguous term must stand next to
    ambiguous: frozenset[str] = frozenset()
    ordered: bool = False  # a band: only the two ends contradict each other
    # general words: never a contradiction; an addition only where the record says nothing
    # close to it (see ``unlisted_term``)
    soft: frozenset[str] = frozenset()
    relational: bool = False  # "north of the city centre" names a place, not the value
    single: bool = False  # one value: a second next to it ("a pub and restaurant") is an addition
    agree_only: frozenset[str] = frozenset()  # terms that agree with their class, never differ
    tensed: bool = False  # a state: "should be delivered by Friday" is no status
    # values sources write for a class ("$$" for moderate): read in fields, never in claims
    symbols: tuple[tuple[str, int], ...] = ()
    # terms true of a second class too ("reasonably priced" of a cheap place): term, class
    also: frozenset[tuple[str, int]] = frozenset()
    name: str = ""
    # terms that name a class only when they stand for it ("sushi" for Japanese food): beside
    # another term of the vocabulary, before one of ``dish_heads`` or as a list's item
    dishes: frozenset[str] = frozenset()
    dish_heads: frozenset[str] = frozenset()
    not_followed_by: tuple[tuple[str, frozenset[str]], ...] = ()  # "French fries"
    near_means_in: tuple[str, ...] = ()  # "near the river" is in the riverside
    soft_beside: str = ""  # the vocabulary whose field makes the soft terms no addition
    # whether a term is an addition where the record has no field of this vocabulary ("cheap"
    # about a record with no price); a state such as "open" or "delayed" is read only where a
    # field holds one of its values
    addition: bool = True

    @cached_property
    def heads(self) -> frozenset[str]:
        """The one-word terms other than dishes ("Italian", "British")."""
        return frozenset(t for c in self.classes for t in c if " " not in t) - self.dishes


_NUMBER_WORDS = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five"}
_FIGURE_WORDS = frozenset(_NUMBER_WORDS.values())


def _scores(n: str) -> tuple[str, ...]:
    """A rating of ``n`` out of five the ways people write it ("3 of 5", "three stars")."""
    said = (n, _NUMBER_WORDS[n], *(("a single", "single") if n == "1" else ()))
    stars = ("star", "stars", "star rating")
    out_of = (
        "out of", "of", "out", "on", "out of a possible", "our of", "outta",  # typos
        "on a scale of", "on the scale of",
    )  # fmt: skip
    return (
        *(f"{a} {o} {b}" for a in said for o in out_of for b in ("5", "five")),
        # "1 star out of 5", "a one-star rating out of five": one term, both figures its own
        *(f"{a} {s} {o} {b}" for a in said for s in stars for o in out_of for b in ("5", "five")),
        *(f"{a} {s}" for a in said for s in ("star", "stars")),
        # a bare figure right after its rating word ("a rating of 3", "Customer rating is a 3")
        *(f"rating {v} {n}" for v in ("of", "is", "of a", "is a")),
    )


_ANCHOR_REACH = 3
_VOCABULARY_FILE = "record_vocabularies.json"
DEFAULT_DOMAINS = DEFAULT_RECORD_VOCABULARIES


@dataclass(frozen=True, eq=False)
class RecordVocabulary:
    """The closed vocabularies and key synonyms a record is read with, from data files.

    Attributes:
        vocabularies: Every vocabulary of the chosen domains, in file order.
        key_synonyms: Other words for a key word ("kids" for ``family``).
        field_words: Words that name a band's field ("prices", "reviews").
        term_words: The words of the vocabularies' terms ("reasonable", "top"), of those
            whose terms may be additions (a state such as "open" is read only in its field).
        filler: Words of the domains a claim may use without stating a fact ("eatery",
            "cuisine" of the restaurants domain): they count for its coverage.
    """

    vocabularies: tuple[_Vocabulary, ...]
    key_synonyms: dict[str, tuple[str, ...]]
    field_words: frozenset[str]
    term_words: frozenset[str]
    filler: frozenset[str] = frozenset()

    def named(self, name: str) -> _Vocabulary | None:
        return next((v for v in self.vocabularies if v.name == name), None)


def _terms(cls: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for term in cls:  # "@out_of_five:3": every way of writing a rating of 3 of 5
        out.extend(_scores(term.split(":")[1]) if term.startswith("@out_of_five:") else [term])
    return tuple(out)


def _vocabulary_of(d: dict[str, Any]) -> _Vocabulary:
    classes = tuple(_terms(c) for c in d["classes"])
    ambiguous = d.get("ambiguous", [])
    if ambiguous == "@one_word_terms":
        ambiguous = [t for c in classes for t in c if " " not in t]
    return _Vocabulary(
        keys=frozenset(d["keys"]),
        classes=classes,
        anchors=frozenset(d.get("anchors", ())),
        ambiguous=frozenset(ambiguous),
        ordered=d.get("ordered", False),
        soft=frozenset(d.get("soft", ())),
        relational=d.get("relational", False),
        single=d.get("single", False),
        agree_only=frozenset(d.get("agree_only", ())),
        tensed=d.get("tensed", False),
        symbols=tuple((sym, i) for sym, i in d.get("symbols", ())),
        also=frozenset((t, i) for t, i in d.get("also", ())),
        name=d["name"],
        dishes=frozenset(d.get("dishes", ())),
        dish_heads=frozenset(d.get("dish_heads", ())),
        not_followed_by=tuple((t, frozenset(w)) for t, w in d.get("not_followed_by", {}).items()),
        near_means_in=tuple(d.get("near_means_in", ())),
        soft_beside=d.get("soft_beside", ""),
        addition=d.get("addition", True),
    )


@cache
def _document(source: str) -> dict[str, Any]:
    path = Path(source) if source else files("langchain_qgate") / "data" / _VOCABULARY_FILE
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise QGateError(f"cannot read the record vocabulary {source!r}: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("vocabularies", []), list):
        raise QGateError(f"{source!r} is no record vocabulary file (see {_VOCABULARY_FILE})")
    return doc


@cache
def record_vocabulary(sources: tuple[str, ...] = DEFAULT_DOMAINS) -> RecordVocabulary:
    """The vocabularies of ``sources``: bundled domain names ("orders", "prices", "ratings",
    "restaurants", "listings", "statuses") or paths of JSON files shaped like the bundled one, whose
    entries are all read. Loaded once per tuple of sources.

    Raises:
        QGateError: A file cannot be read or is not shaped like the bundled one.
    """
    domains = {s for s in sources if not s.endswith(".json")}
    paths = [s for s in sources if s.endswith(".json")]
    bundled = _document("")
    known = {d.get("domain") for d in bundled["vocabularies"]} | {bundled["key_synonyms"]["domain"]}
    if domains - known:
        raise QGateError(
            f"unknown record vocabulary domain(s) {sorted(domains - known)}; the bundled ones "
            f"are {sorted(known)}, or give the path of a .json file"
        )
    vocabs: list[_Vocabulary] = []
    synonyms: dict[str, tuple[str, ...]] = {}
    filler: set[str] = set()
    for source, doc in [("", bundled), *((p, _document(p)) for p in paths)]:
        try:
            for d in doc.get("vocabularies", []):
                if source or d.get("domain") in domains:
                    vocabs.append(_vocabulary_of(d))
            block = doc.get("key_synonyms") or {}
            if source or block.get("domain") in domains:
                for word, others in block.get("words", {}).items():
                    synonyms[word] = (*synonyms.get(word, ()), *others)
            fill = doc.get("filler") or {}
            if source or fill.get("domain") in domains:
                filler.update(str(w).lower() for w in fill.get("words", []))
        except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise QGateError(f"malformed record vocabulary in {source!r}: {exc!r}") from exc
    return RecordVocabulary(
        vocabularies=tuple(vocabs),
        key_synonyms=synonyms,
        field_words=frozenset(w for v in vocabs for w in v.anchors),
        term_words=frozenset(
            w for v in vocabs if v.addition for c in v.classes for t in c for w in t.split()
        ),
        filler=frozenset(filler),
    )


@dataclass(frozen=True)
class VocabTerm:
    """A closed-vocabulary term the claim gives a field.

    Attributes:
        term: The term as matched ("delivered", "cheap").
        agrees: It names the field's own class of values.
        contradicts: It names another class that excludes the field's (for a band, the other
            end; a neighbouring class is neither agreement nor contradiction), or denies the
            field's own class.
        words: The claim words the term and its anchor account for.
        denies: The claim denies the field's own class ("not an Italian restaurant"); ``term``
            is the denial as written ("not an italian").
    """

    term: str
    agrees: bool
    contradicts: bool
    words: tuple[str, ...]
    denies: bool = False

    @property
    def has_figure(self) -> bool:
        """Whether the term says a figure ("5 stars", "three out of five")."""
        return any(w[0].isdigit() or w in _FIGURE_WORDS for w in self.words)


def _class_of(vocab: _Vocabulary, value: str) -> int:
    low = " ".join(value.lower().replace("_", " ").split())  # "IN_TRANSIT" is "in transit"
    for symbol, i in vocab.symbols:
        if low == symbol:
            return i
    for i, cls in enumerate(vocab.classes):
        if low in cls:
            return i
    return -1


def _at(tokens: list[str], term: list[str]) -> list[int]:
    n = len(term)
    if n and term[0] not in tokens:
        return []  # the usual case: every term of every vocabulary meets every claim
    return [i for i in range(len(tokens) - n + 1) if tokens[i : i + n] == term]


class _Spots:
    """The claim's words indexed once by spelling and by (first letter, length), so that
    finding every term of a vocabulary reads only the places a term's first word can be.

    ``at_spelt(term, values)`` is ``_at`` with a word of five letters or more also misspelt by
    one letter ("avrage", "expencive"); never a word of another of the record's values
    ("Pasta Fresca" is no "French").
    """

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.exact: dict[str, list[int]] = {}
        self.shape: dict[tuple[str, int], list[int]] = {}
        for i, t in enumerate(tokens):
            self.exact.setdefault(t, []).append(i)
            self.shape.setdefault((t[:1].lower(), len(t)), []).append(i)

    def at_spelt(self, term: list[str], values: frozenset[str] | set[str]) -> list[int]:
        """Where ``term`` starts in the claim, in order."""
        tokens, n, first = self.tokens, len(term), term[0]
        if len(first) < 5 and first not in self.exact:
            return []  # the usual case: a short word is found only as it is spelt
        starts = set(self.exact.get(first, ()))
        if len(first) >= 5:
            head = first[:1].lower()
            for size in (len(first) - 1, len(first), len(first) + 1):
                near = self.shape.get((head, size), ())
                starts.update(i for i in near if _misspelt(tokens[i], first, values))
        out: list[int] = []
        for i in sorted(starts):
            if i + n > len(tokens):
                continue
            for t, w in zip(tokens[i + 1 : i + n], term[1:], strict=True):
                if t != w and not _misspelt(t, w, values):
                    break
            else:
                out.append(i)
        return out


def _misspelt(t: str, w: str, values: frozenset[str] | set[str]) -> bool:
    """``t`` is ``w`` misspelt by one letter. The first two tests are implied by the last two
    (one edit changes the length by one at most; ``spelt_alike`` needs the same first letter)
    and come first because they are cheap: the claim's every word meets every term."""
    return (
        len(w) >= 5
        and abs(len(t) - len(w)) <= 1
        and t[:1].lower() == w[:1].lower()
        and t not in values
        and spelt_alike(t, w)
        and edits(t, w) <= 1
    )


def _joined(keys: list[str]) -> str:
    joined = "".join(keys)
    return joined + "s" if joined.endswith("statu") else joined  # keys come singularised


def _names_vocabulary(vocab: _Vocabulary, joined: str) -> bool:
    if joined.endswith("status") and "status" in vocab.keys:
        return True  # ``flight_status``, ``claimStatus``: a status of something
    return joined in vocab.keys or joined + "s" in vocab.keys  # "star" for ``stars``


def _vocabularies(
    keys: list[str], value: str, vocabulary: RecordVocabulary | None
) -> tuple[tuple[_Vocabulary, int], ...]:
    """Every vocabulary the field belongs to (by its key) whose classes hold its value, with
    the value's class, in file order: a status of "pending" is an order's and an
    application's. Read once per field: every claim asks it of every field, several times."""
    return _vocabularies_of(tuple(keys), value, vocabulary or record_vocabulary())


@lru_cache(maxsize=1 << 14)
def _vocabularies_of(
    keys: tuple[str, ...], value: str, vocabulary: RecordVocabulary
) -> tuple[tuple[_Vocabulary, int], ...]:
    joined = _joined(list(keys))
    found = []
    for vocab in vocabulary.vocabularies:
        if _names_vocabulary(vocab, joined):
            mine = _class_of(vocab, value)
            if mine >= 0:
                found.append((vocab, mine))
    return tuple(found)


def in_vocabulary(keys: list[str], value: str, vocabulary: RecordVocabulary | None = None) -> bool:
    """Whether the field's value belongs to a closed vocabulary this module knows."""
    return bool(_vocabularies(keys, value, vocabulary))


def ordered_vocabulary(
    keys: list[str], value: str, vocabulary: RecordVocabulary | None = None
) -> bool:
    """Whether the field's value is a band of an ordered vocabulary ("low" of a rating, "£"
    of a price band): its words are its field's only next to the field's key."""
    return any(vocab.ordered for vocab, _ in _vocabularies(keys, value, vocabulary))


def value_is_term(keys: list[str], value: str, vocabulary: RecordVocabulary | None = None) -> bool:
    """Whether the field's value is itself a term of its vocabulary ("pub" of a venue type),
    which ``vocabulary_term`` reads, negations included; "ready" of a collection status
    ``READY``, whose terms are "ready for pickup", "ready to collect", ..., is not."""
    own = " ".join(claim_tokens(value))
    return any(
        own in cls for vocab, _ in _vocabularies(keys, value, vocabulary) for cls in vocab.classes
    )


def _agreeing(agree: VocabTerm | None, term: str, words: tuple[str, ...]) -> VocabTerm:
    """The agreement so far with ``words`` added (every term of the class the claim uses:
    "shipped and in transit"); the first term found names it."""
    if agree is None:
        return VocabTerm(term, True, False, words)
    return VocabTerm(agree.term, True, False, (*agree.words, *words))


def vocabulary_term(
    tokens: list[str],
    keys: list[str],
    value: str,
    other_values: Sequence[str] | RecordValues,
    vocabulary: RecordVocabulary | None = None,
) -> VocabTerm | None:
    """The term of the field's closed vocabulary the claim uses, compared with ``value``.

    ``other_values`` are the record's values (a ``RecordValues`` when the caller reads many
    fields): a term inside a longer one ("Raja Indian Cuisine" for ``near``) is that field's,
    not this one's. None when the field has no known vocabulary, its value is not in it, or
    the claim uses no term of it (or negates it).
    """
    values = _record_values(other_values, vocabulary)
    for vocab, mine in _vocabularies(keys, value, values.vocabulary):
        term = values.vocabulary_read(tokens, vocab, mine)
        if term is not None:
            return term  # the first vocabulary whose terms the claim uses
    return None


@dataclass
class _TermReads:
    """What the terms of one vocabulary in a claim say of a field's class, as they are read."""

    agree: VocabTerm | None = None
    differ: VocabTerm | None = None
    denied: VocabTerm | None = None
    firm: bool = False  # an agreeing term true of the field's class alone

    def agreeing(self, term: str, words: tuple[str, ...]) -> None:
        self.agree = _agreeing(self.agree, term, words)

    def differing(self, term: str, far: bool, words: tuple[str, ...]) -> None:
        self.differ = self.differ or VocabTerm(term, False, far, words)

    def result(self, vocab: _Vocabulary) -> VocabTerm | None:
        if self.denied is not None:
            return self.denied
        if self.agree is None:
            return self.differ
        if self.differ is not None and vocab.single:
            # "a coffee shop and restaurant": a second kind the record does not give it
            return VocabTerm(self.differ.term, False, False, self.differ.words)
        if self.differ is not None and not self.firm and vocab.ordered:
            return self.differ  # "cheap, for fair prices" about £20-25: "fair" is true of both
        return self.agree


@dataclass(frozen=True)
class _Occurrence:
    """A term of class ``i`` of ``vocab`` at ``tokens[at : at + n]``; the field's class is
    ``mine``."""

    tokens: list[str]
    at: int
    n: int
    term: str
    i: int
    vocab: _Vocabulary
    mine: int


def _vocabulary_term(
    tokens: list[str], vocab: _Vocabulary, mine: int, values: RecordValues
) -> VocabTerm | None:
    """``vocabulary_term`` for the field's vocabulary and class ``mine``."""
    reads = _TermReads()
    spots = _Spots(tokens)
    for i, cls in enumerate(vocab.classes):
        for term in cls:
            words = _term_tokens(term)
            for at in spots.at_spelt(words, values.words):
                if not values.inside_longer(words):
                    _read_term(
                        reads, _Occurrence(tokens, at, len(words), term, i, vocab, mine), values
                    )
    return reads.result(vocab)


def _read_term(reads: _TermReads, o: _Occurrence, values: RecordValues) -> None:
    """Adds what one occurrence of a term says to ``reads``."""
    tokens, at, term, vocab = o.tokens, o.at, o.term, o.vocab
    written = tuple(tokens[at : at + o.n])  # "Chines" for "chinese"
    anchors = _anchors(tokens, at, o.n, vocab)
    if term in vocab.ambiguous and not (
        anchors and _owns(tokens, at, term, vocab, values.vocabulary)
    ):
        return
    if "than" in tokens[max(0, at - 2) : at]:
        return  # "more than the average": a comparison, not the band
    if _negated(tokens, at, at + o.n - 1):
        _read_denial(reads, o, (*written, *anchors))
        return
    if vocab.tensed and (_expected(tokens, at) or _acts_on(tokens, at, at + o.n)):
        return
    if _not_followed_by(vocab, term, tokens, at + o.n):
        return  # "French fries" at a fast food place
    if term in vocab.dishes and not _names_class(vocab, tokens, at, o.n):
        return  # "I had the fish and chips", "handmade pasta": a dish, an addition
    said = (*written, *anchors)
    if term in vocab.agree_only and o.i != o.mine:
        # "by the river" about a city centre: unsupported, never contradicted
        reads.differing(term, False, said)
        return
    if vocab.relational and _related(tokens, at):
        outside = _outside(tokens, at)
        if o.i != o.mine and outside and vocab.single:
            # "on the outskirts of the city centre" about a riverside: not there, as a denial
            # says it
            reads.agreeing(term, (*outside, *said))
            return
        if o.i != o.mine:  # "close to the city centre" about a riverside: unsupported
            reads.differing(term, False, said)
            return
        if not _near_means_in(vocab, tokens, at):
            return  # agrees with a riverside, never contradicts another area
        said = (*said, "near", "close")
    if o.i == o.mine or (term, o.mine) in vocab.also:  # "shipped and in transit"
        reads.agreeing(term, said)
        reads.firm = reads.firm or term not in {t for t, _ in vocab.also}
        return
    far = (not vocab.ordered or abs(o.i - o.mine) > 1) and term not in vocab.soft
    reads.differing(term, far, said)


def _read_denial(reads: _TermReads, o: _Occurrence, said: tuple[str, ...]) -> None:
    """A term the claim negates: a denial of the field's own class, or (for a band or a field
    of one value) an agreement with every other class."""
    tokens, at, vocab = o.tokens, o.at, o.vocab
    if o.term in vocab.dishes:
        return  # "no pizza" says nothing of an Italian menu as a whole
    denial = tuple(t for t in tokens[max(0, at - 3) : at] if negator(t))
    start, stop = _denies(tokens, at, at + o.n), at + o.n
    if start < 0 and (after := _denied_after(tokens, stop)) > 0:
        start, stop, denial = at, after, ()  # "Chinese food is not served"
    if o.i == o.mine and start >= 0:
        # "is not an Italian restaurant" about an Italian one contradicts it, the denial as
        # written its term; "isn't cheap" about a cheap place is unsupported (a band's edges
        # are people's to draw)
        phrase = " ".join(tokens[start:stop])
        words = (*denial, *tokens[at:stop])
        reads.denied = reads.denied or VocabTerm(phrase, False, not vocab.ordered, words, True)
    elif (
        (vocab.ordered or vocab.single)
        and o.i != o.mine
        and not (vocab.relational and _related(tokens, at))
    ):
        # "isn't cheap" about a high price: true of every other band; "isn't in the city
        # centre" about a riverside: a field of one value
        reads.agreeing(o.term, (*denial, *said))


# Words that may stand between a negation and the term it denies ("isn't in the city centre",
# "does not serve Italian food"); any other ("not just a pub", "not far from the city
# centre") leaves the denial unread.
_DENIAL_GAP = lexicon_words("record_words.denial_gap")


# Words that may follow a denied term ("not an Italian restaurant", "isn't in the city centre
# area", "doesn't serve Chinese food, but ..."); any other makes it a qualified thing's denial
# ("not a pub that bans kids", "no riverside view").
_DENIED_HEADS = lexicon_words("record_words.denied_heads")


def _denies(tokens: list[str], at: int, end: int) -> int:
    """The index of a negation right before the term ``tokens[at:end]`` that denies it, or
    -1. Only a plain denial counts: the term ends the phrase or names the place's kind after
    it ("not an Italian restaurant"); "without a riverside view" denies a view."""
    after = tokens[end] if end < len(tokens) else "."
    if after.isalnum() and after not in _DENIED_HEADS:
        return -1
    for j in range(at - 1, max(-1, at - 5), -1):
        if negator(tokens[j], tokens[j + 1]):
            # "non family-friendly" is a boolean's; "without" says what something lacks
            return j if tokens[j] not in ("non", "without") else -1
        if tokens[j] not in _DENIAL_GAP:
            return -1
    return -1


_SERVED = lexicon_words("record_words.served")


def _denied_after(tokens: list[str], end: int) -> int:
    """The end of a denial of what is served right after a term ("Chinese food is not
    served", "Italian isn't on the menu"), or -1."""
    j = end + (end < len(tokens) and tokens[end] in ("food", "cuisine", "dishes"))
    if j < len(tokens) and tokens[j] in ("is", "are"):
        j += 1
    said = tokens[j] if j < len(tokens) else ""
    if not (said in ("not", "never") or said.endswith("n't") or said in UNAPOSTROPHED_NEGATIONS):
        return -1
    j += 1
    if j < len(tokens) and tokens[j] in _SERVED:
        menu = tokens[j] == "on" and tokens[j + 1 : j + 3] == ["the", "menu"]
        return j + 3 if menu else j + 1
    return -1


def unlisted_term(
    tokens: list[str],
    keys: list[list[str]],
    values: Sequence[str] | RecordValues,
    vocabulary: RecordVocabulary | None = None,
) -> str | None:
    """A term of a closed vocabulary whose field the record lacks ("cheap" about a record
    with no price), or None. ``keys`` are the key words of the record's fields, ``values``
    its values: a term inside one of them ("Café Brazil", "Raja Indian Cuisine") is that
    field's."""
    # a key names a vocabulary whole or by one of its words (``star_rating``, ``price_per_night``)
    present = {_joined(k) for k in keys} | {w for k in keys for w in k}
    values = _record_values(values, vocabulary)
    said = boolean_said(tokens, ["family", "friendly"], [], values.vocabulary)
    if not any(_FAMILY & set(k) for k in keys) and said:
        return "family friendly"  # "a child friendly cafe" about a record silent on children
    tokens = list(tokens)
    keyed = {w for k in keys for w in k}
    stated: set[str] = set()  # words of the record's values ("Cafes, Tea" states "cafe")
    for words in values.tokens:  # each distinct value once: the same blanks
        stated.update(w.rstrip("s") for w in words)
        if len(words) > 1:
            for at in _at(tokens, words):
                tokens[at : at + len(words)] = [""] * len(words)

    # A general word ("restaurant") is an addition only where nothing says what is served
    # and no key names it (``RestaurantsReservations``).
    def serves(vocab: _Vocabulary) -> bool:
        beside = values.vocabulary.named(vocab.soft_beside)
        return beside is not None and any(_names_vocabulary(beside, k) for k in present)

    for vocab in values.vocabulary.vocabularies:
        if not vocab.addition or any(_names_vocabulary(vocab, k) for k in present):
            continue
        for cls in vocab.classes:
            for term in cls:
                words = _term_tokens(term)
                found = _at(tokens, words)
                if not found:
                    continue  # the usual case, and the cheapest test
                if term in vocab.soft and (serves(vocab) or any(term in k for k in present)):
                    continue
                if term not in vocab.ambiguous and all(w.rstrip("s") in stated for w in words):
                    continue  # an anchored band ("average priced") is no other field's word
                if all(w in keyed for w in words):
                    continue  # a key says it ("upscale" for ``Ambience.upscale``)
                for at in found:
                    if term in vocab.ambiguous and not (
                        _anchors(tokens, at, len(words), vocab)
                        and _owns(tokens, at, term, vocab, values.vocabulary)
                    ):
                        continue
                    if vocab.tensed and _acts_on(tokens, at, at + len(words)):
                        continue  # "the search returned 4 results": a verb, no status
                    return term
    return None


_RELATIONS = lexicon_words("record_words.relations")


_LOCATIVE = lexicon_words("record_words.locative")


def _relation(tokens: list[str], at: int) -> int:
    """The index of the relation a place word stands in ("north of the city centre"), or -1;
    a locative preposition nearer to it places it ("near Burger King in riverside": in
    riverside)."""
    for j in range(at - 1, max(-1, at - 5), -1):
        if tokens[j] in _LOCATIVE or tokens[j] == ",":  # "Near Café Brazil, by the river"
            return -1
        if tokens[j] in _RELATIONS:
            return j
    return -1


def _related(tokens: list[str], at: int) -> bool:
    return _relation(tokens, at) >= 0


_OUTSIDE = lexicon_words("record_words.outside")


def _outside(tokens: list[str], at: int) -> tuple[str, ...]:
    """The words placing a place word's area outside it ("on the outskirts of the city
    centre", "away from the city centre"), or none; "north of" or "near" it says no such
    thing."""
    j = _relation(tokens, at)
    if j > 0 and tokens[j] == "from" and tokens[j - 1] in _OUTSIDE:
        j -= 1  # "away from"
    return tuple(tokens[j:at]) if j >= 0 and tokens[j] in _OUTSIDE else ()


_MODALS = lexicon_words("record_words.modals")


_OBJECT_STARTS = lexicon_words("record_words.object_starts")


_PASSIVE = BE_FORMS | lexicon_words("record_words.get_forms")  # "was returned", "got returned"


def _acts_on(tokens: list[str], at: int, end: int) -> bool:
    """Whether a state word (``tokens[at:end]``) is a verb with an object after it ("the
    search returned 4 results", "they delivered the parcels"): what someone did, not the
    record's status. A passive ("was delivered the next day") is the status."""
    if at > 0 and (tokens[at - 1] in _PASSIVE or tokens[at - 1].endswith("n't")):
        return False
    nxt = tokens[end] if end < len(tokens) else ""
    return nxt.isdigit() or nxt in _OBJECT_STARTS


def _expected(tokens: list[str], at: int) -> bool:
    """Whether a state is foretold, not stated ("should be delivered by Friday", "once it
    is delivered", "waiting to be picked up")."""
    if tokens[max(0, at - 2) : at] == ["to", "be"]:
        return True
    for t in reversed(tokens[max(0, at - 4) : at]):
        if t in _BREAKS or t == ",":
            return False
        if t in _MODALS or t.endswith("'ll"):
            return True
    return False


def _near_means_in(vocab: _Vocabulary, tokens: list[str], at: int) -> bool:
    """ "near the riverside", "close to the river": by the river, which is the riverside."""
    near = any(t in ("near", "close") for t in tokens[max(0, at - 4) : at])
    return near and tokens[at].startswith(vocab.near_means_in)


def _not_followed_by(vocab: _Vocabulary, term: str, tokens: list[str], end: int) -> bool:
    """Whether the word after a term makes it name something else ("French fries")."""
    after = dict(vocab.not_followed_by).get(term)
    return after is not None and end < len(tokens) and tokens[end] in after


def _names_class(vocab: _Vocabulary, tokens: list[str], at: int, n: int) -> bool:
    """Whether a dish at ``tokens[at : at + n]`` stands for its class: beside another term
    ("English breakfast"), before a kind of place or food ("a sushi restaurant", "breakfast
    food"), or as a list's item ("sushi, cheap, riverside"); "I had the fish and chips" and
    "handmade pasta" name a dish, which the record does not give."""
    before = tokens[at - 1] if at else ""
    after = tokens[at + n] if at + n < len(tokens) else ""
    edges = _ITEM_EDGES
    return (
        before in vocab.heads or after in vocab.dish_heads or (before in edges and after in edges)
    )


_ITEM_EDGES = lexicon_words("record_words.item_edges")


# Words a term's reach passes over ("Prices are in the high range": "high" is the price's),
# within a fixed window.
_GLUE_REACH = 8
_GLUE = lexicon_words("record_words.glue")


def _sides(tokens: list[str], at: int, n: int) -> tuple[list[tuple[str, int, int]], ...]:
    """The words before (nearest first) and after the term at ``at``, within
    ``_GLUE_REACH`` words, each with how far it stands: in words other than glue, and in all
    words."""
    before = range(at - 1, max(-1, at - 1 - _GLUE_REACH), -1)
    after = range(at + n, min(len(tokens), at + n + _GLUE_REACH))
    out = []
    for side in (before, after):
        steps, words = 0, []
        for raw, j in enumerate(side, 1):
            steps += tokens[j] not in _GLUE
            words.append((tokens[j], steps, raw))
        out.append(words)
    return tuple(out)


def _nearest(tokens: list[str], at: int, n: int, anchors: frozenset[str]) -> tuple[int, int]:
    """How far the nearest of ``anchors`` stands from the term at ``at``: in words other
    than glue, then in all words."""
    near = [
        next(((steps, raw) for tok, steps, raw in side if tok in anchors), None)
        for side in _sides(tokens, at, n)
    ]
    return min((d for d in near if d is not None), default=(len(tokens) + 1, len(tokens) + 1))


def _owns(
    tokens: list[str], at: int, term: str, vocab: _Vocabulary, vocabulary: RecordVocabulary
) -> bool:
    """Whether a band word shared by several vocabularies is this one's: no other's anchor
    stands nearer ("an average customer rating" after "price range" is the rating's)."""
    n = len(term.split())
    mine = _nearest(tokens, at, n, vocab.anchors)
    return not any(
        other is not vocab
        and term in other.ambiguous
        and _nearest(tokens, at, n, other.anchors) < mine
        for other in vocabulary.vocabularies
    )


def _anchors(tokens: list[str], at: int, n: int, vocab: _Vocabulary) -> tuple[str, ...]:
    """Every anchor word in reach of a term ("average customer reviews": both); the reach is
    counted in words other than glue."""
    found: list[str] = []
    for side in _sides(tokens, at, n):
        for tok, steps, _ in side:
            if tok in vocab.anchors or any(spelt_alike(tok, a) for a in vocab.anchors):
                found.append(tok)  # "average reveiws": an anchor misspelt
            if steps >= _ANCHOR_REACH:
                break
    return tuple(found)


_DAYS = WEEKDAYS
_SUMMARIES: tuple[tuple[tuple[str, ...], tuple[str, ...], bool], ...] = (
    (("every", "day"), _DAYS, False),
    (("daily",), _DAYS, False),
    (("seven", "days"), _DAYS, False),
    (("7", "days"), _DAYS, False),
    (("all", "week"), _DAYS, False),
    (("weekdays",), _DAYS[:5], False),
    (("weekday",), _DAYS[:5], False),
    (("monday", "to", "friday"), _DAYS[:5], False),
    (("monday", "through", "friday"), _DAYS[:5], False),
    (("weekends",), _DAYS[5:], False),
    (("weekend",), _DAYS[5:], False),
    (("most", "days"), _DAYS, True),
)


def summary_days(tokens: list[str]) -> tuple[tuple[str, ...], bool] | None:
    """The days a summary covers ("every day": all seven) and whether it claims only most
    of them, or None when the claim summarises no days."""
    for words, days, most in _SUMMARIES:
        if _at(tokens, list(words)):
            return days, most
    return None
