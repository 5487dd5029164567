"""Small word lists and token tests shared by claim extraction (no tagger, no downloads).

A "strong" verb form is almost never anything else (``is``, ``has``, ``became``,
``employs``); a "weak" one could be a noun or adjective too (``plays``, ``fried``) and only
counts as a verb when the next word looks like the start of an object or complement.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any

_LEXICON: dict[str, Any] = json.loads(
    (files("langchain_qgate") / "data" / "lexicon.json").read_text(encoding="utf-8")
)
"""``langchain_qgate/data/lexicon.json``: the package's word lists, read once, here only."""


def words(key: str) -> frozenset[str]:
    """The word list ``key`` of the lexicon ("claims.attribution_verbs": the module that
    reads it and its name there)."""
    return frozenset(_LEXICON["words"][key])


def table(key: str) -> dict[str, Any]:
    """The table ``key`` of the lexicon (``units``, ``number_words``, ``irregular_forms``...)."""
    return dict(_LEXICON[key])


UNITS: dict[str, str] = table("units")
"""Units of measure as written after a figure, each to one spelling ("kilo" -> "kg"); the one
table for prose (``slots``) and records (``fields``)."""
MEASURES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in table("measures").items()}
"""The key words naming what a unit measures ("89 degrees" fills ``temperature``)."""
UNIT_SCALES: dict[str, tuple[str, float]] = {
    unit: (measure, float(size)) for unit, (measure, size) in table("unit_scales").items()
}
"""A unit's measure and its size in the measure's base unit, exact by definition ("km" is
1000 of "m", "mi" 1609.344): a figure in one unit is read in another of its measure."""


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` as a frozen set."""
    return frozenset(text.split())


AUXILIARIES = words("lexicon.auxiliaries")
# Negated auxiliaries as people type them without the apostrophe ("it isnt family friendly"),
# with the word they stand for. "cant" and "wont" are rare words of their own; as typed they
# are the negation.
UNAPOSTROPHED_NEGATIONS: dict[str, str] = {
    w.replace("'", ""): w for w in words("lexicon.unapostrophed_negations")
}
AUXILIARIES |= frozenset(UNAPOSTROPHED_NEGATIONS)  # "doesnt" is a verb of the clause too
_NAME_LIKE_MODALS = words("lexicon.name_like_modals")
_IRREGULAR_PAST = words("lexicon.irregular_past")
_STRONG_PRESENT = words("lexicon.strong_present")
_WEAK_PRESENT = words("lexicon.weak_present")
STRONG_VERBS = AUXILIARIES | _IRREGULAR_PAST | _STRONG_PRESENT
_ED_NOT_VERBS = words("lexicon.ed_not_verbs")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The days of the week, in order, lower-cased."""
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
"""The months, in order, lower-cased."""
PRONOUNS = words("lexicon.pronouns")
COLLECTIVES = words("lexicon.collectives")
"""Nouns that count groups: "19 chromosome pairs" counts pairs, not chromosomes."""
_PLURAL_PRONOUNS = words("lexicon.plural_pronouns")
FUNCTION_WORDS = words("lexicon.function_words")
_OBJECT_STARTERS = words("lexicon.object_starters")
ADVERBS = words("lexicon.adverbs")
PARTICIPLES = words("lexicon.participles")
BE_FORMS = words("lexicon.be_forms")
IRREGULAR_FORMS: dict[str, str] = table("irregular_forms")
"""Irregular past forms and plurals with their base word. Forms that are as often another
word are left out ("found" a company, "left" side, a "saw", "rose", "felt", "lay", "born")."""
_TOKEN = re.compile(r"\S+")
_EDGE_PUNCT = "\"'“”‘’()[]{}*_,;:.!?"


def bare(token: str) -> str:
    """The token without surrounding punctuation, lowercased."""
    return token.strip(_EDGE_PUNCT).lower()


def is_past_form(word: str) -> bool:
    """A past tense or past participle (``acquired``, ``sent``, ``written``)."""
    return (
        word in _IRREGULAR_PAST
        or word in PARTICIPLES
        or (len(word) >= 4 and word.endswith("ed") and word.isalpha() and word not in _ED_NOT_VERBS)
    )


def is_weak_verb(word: str, original: str) -> bool:
    """A form that is a verb only in a verb context (``plays``, ``acquired``)."""
    if not original[:1].islower():
        return False
    if word in _WEAK_PRESENT:
        return True
    return len(word) >= 5 and word.endswith("ed") and word not in _ED_NOT_VERBS and word.isalpha()


def is_strong_verb(word: str, original: str) -> bool:
    """A form that is almost always a finite verb (``is``, ``became``, ``employs``)."""
    if original[:1].islower():
        return word in STRONG_VERBS
    # Capitalised: "Is"/"Was" may open a sentence; "May", "Will", "Can" are names/months.
    return word in AUXILIARIES and word not in _NAME_LIKE_MODALS


def starts_object(token: str | None) -> bool:
    """Whether ``token`` can begin the object/complement of a verb (guard for weak verbs)."""
    if token is None:
        return False
    word = bare(token)
    if not word:
        return False
    core = token.lstrip(_EDGE_PUNCT)
    return (
        word in _OBJECT_STARTERS
        or core[:1].isdigit()
        or core[:1] == "$"
        or core[:1].isupper()
        or word.endswith("ly")
    )


def verb_at(tokens: list[str], i: int) -> bool:
    """Whether ``tokens[i]`` is a finite verb (strong, or weak followed by an object)."""
    tok = tokens[i]
    word = bare(tok)
    if word == "am" and i > 0 and tokens[i - 1][-1:].isdigit():
        return False  # "departs at 8 am": the hour's, not "I am"
    if is_strong_verb(word, tok.lstrip(_EDGE_PUNCT)):
        return True
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return is_weak_verb(word, tok.lstrip(_EDGE_PUNCT)) and starts_object(nxt)


def pronoun_clause_at(tokens: list[str], i: int) -> bool:
    """``it has`` / ``she won`` / ``they live``: a pronoun followed by a verb."""
    if i + 1 >= len(tokens) or bare(tokens[i]) not in PRONOUNS:
        return False
    j = i + 1
    while j < len(tokens) - 1 and bare(tokens[j]) in ADVERBS:
        j += 1
    word = bare(tokens[j])
    original = tokens[j].lstrip(_EDGE_PUNCT)
    if is_strong_verb(word, original) or is_weak_verb(word, original):
        return True
    if not original[:1].islower() or not word.isalpha() or word in FUNCTION_WORDS:
        return False
    return word.endswith("s") or bare(tokens[i]) in _PLURAL_PRONOUNS


def tokens_with_offsets(text: str) -> tuple[list[str], list[int]]:
    """Whitespace tokens of ``text`` and their start offsets."""
    toks: list[str] = []
    starts: list[int] = []
    for m in _TOKEN.finditer(text):
        toks.append(m.group())
        starts.append(m.start())
    return toks, starts


def first_verb(tokens: list[str], lo: int, hi: int) -> int:
    """Index of the first finite verb in ``tokens[lo:hi]`` (-1 when none).

    A participle right after a comma ("Acme, founded in 2020, has") is an appositive, not
    the main verb.
    """
    for k in range(lo, hi):
        if pronoun_clause_at(tokens, k) and k + 1 < hi:
            return k + 1
        if verb_at(tokens, k):
            after_comma = k > lo and tokens[k - 1].endswith(",")
            if after_comma and is_weak_verb(bare(tokens[k]), tokens[k]):
                continue
            return k
    return -1


def has_finite_verb(text: str) -> bool:
    """Whether ``text`` contains a finite verb (used to tell fragments from sentences)."""
    tokens, _ = tokens_with_offsets(text)
    return any(verb_at(tokens, i) or pronoun_clause_at(tokens, i) for i in range(len(tokens)))
