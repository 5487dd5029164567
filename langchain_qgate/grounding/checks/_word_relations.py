"""What a word a claim puts in place of an evidence word is to it, from WordNet 3.0.

``relation("called off", "cancelled")`` is ``"same"`` (one synset), ``relation("herbs",
"basil")`` is ``"broader"`` (a hypernym; a whole the thing is part or member of also counts:
"Europe" for "France"), ``relation("violin", "string instrument")`` is ``"narrower"``, and
``relation("open", "closed")`` is ``"opposite"`` (an antonym of one of its senses; an adjective
stands for its cluster; a word and the same word with an opposed or negating prefix also count:
"underfunded" / "overfunded", "inbound" / "outbound", "indicated" / "contraindicated").
Anything else, names and unknown words included, is ``None``: the
learned verifier decides those alone. A pair opposed in one sense is opposite even when
another sense is shared ("negative" and "positive" meet in one adjective cluster).

The relations come from Princeton WordNet 3.0 (Copyright 2006 by Princeton University, the
WordNet License in ``data/WORDNET_LICENSE``), cut to the 60,000 most frequent English words by
``scripts/build_word_relations.py`` into ``data/word_relations.tsv.gz`` (1.1 MB), loaded once
on first use (0.2 s; about 15 MB in memory). Word forms are reduced to lemmas by WordNet's
exception lists and its suffix rules ("rose" -> "rise", "narrower" -> "narrow", "called off"
-> "call off").
"""

from __future__ import annotations

import gzip
from array import array
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from langchain_qgate.grounding.checks._lexicon import words

__all__ = ["Relation", "is_lemma", "kin", "kind_of", "relation", "siblings"]

Relation = Literal["same", "broader", "narrower", "opposite"]

_DATA = "word_relations.tsv.gz"
_MAX_DEPTH = 10  # hypernym steps searched (WordNet's noun hierarchy is at most ~20 deep)
_MAX_PHRASE_WORDS = 4
_DETERMINERS = words("word_relations.determiners")
# WordNet's detachment rules (morphy), all parts of speech together
_SUFFIX_RULES = (
    ("ies", "y"), ("ied", "y"), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
    ("shes", "sh"), ("men", "man"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
    ("ing", "e"), ("ing", ""), ("er", ""), ("est", ""), ("er", "e"), ("est", "e"), ("s", ""),
)  # fmt: skip


@dataclass(frozen=True)
class _Relations:
    """Lemma -> senses, irregular forms, sense -> broader senses, antonym sense pairs; the
    lists live in flat arrays (``start[i]:start[i + 1]`` of ``flat``) to keep them small."""

    lemmas: dict[str, int]  # lemma -> row of lemma_start
    lemma_start: array[int]
    lemma_senses: array[int]
    exceptions: dict[str, tuple[str, ...]]
    broader_start: array[int]  # one row per sense
    broader_flat: array[int]
    antonyms: frozenset[tuple[int, int]]

    def senses(self, lemma: str) -> range | array[int]:
        row = self.lemmas.get(lemma)
        if row is None:
            return range(0)
        return self.lemma_senses[self.lemma_start[row] : self.lemma_start[row + 1]]

    def broader(self, sense: int) -> array[int]:
        return self.broader_flat[self.broader_start[sense] : self.broader_start[sense + 1]]


@lru_cache(maxsize=1)
def _load() -> _Relations:
    lemmas: dict[str, int] = {}
    lemma_start, lemma_senses = array("I", [0]), array("I")
    exceptions: dict[str, tuple[str, ...]] = {}
    broader_start, broader_flat = array("I", [0]), array("I")
    antonyms: set[tuple[int, int]] = set()
    n_senses = 0
    path = resources.files("langchain_qgate.data").joinpath(_DATA)
    with path.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        for line in lines:
            kind, _, rest = line.rstrip("\n").partition("\t")
            key, _, values = rest.partition("\t")
            if kind == "L":
                lemmas[key] = len(lemmas)
                lemma_senses.extend(int(v) for v in values.split(","))
                lemma_start.append(len(lemma_senses))
            elif kind == "X":
                exceptions[key] = tuple(values.split(","))
            elif kind == "B":  # in sense order: the senses skipped have none
                while len(broader_start) <= int(key):
                    broader_start.append(len(broader_flat))
                broader_flat.extend(int(v) for v in values.split(","))
                broader_start.append(len(broader_flat))
            elif kind == "A":
                antonyms.add((int(key), int(values)))
            elif kind.startswith("#"):
                n_senses = int(kind.split()[1])
    while len(broader_start) <= n_senses:
        broader_start.append(len(broader_flat))
    return _Relations(
        lemmas, lemma_start, lemma_senses, exceptions, broader_start, broader_flat,
        frozenset(antonyms),
    )  # fmt: skip


def _forms(word: str, rel: _Relations) -> list[str]:
    """``word`` and its lemmas that WordNet knows."""
    out = [word] if word in rel.lemmas else []
    out += rel.exceptions.get(word, ())
    for suffix, repl in _SUFFIX_RULES:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            base = word[: -len(suffix)] + repl
            if base in rel.lemmas and base not in out:
                out.append(base)
    return out


def _senses(phrase: str, rel: _Relations) -> set[int]:
    """Synsets of a phrase: whole, with its first or last word as a lemma, else its head (a
    name is read whole: "Apache Software" is not "software")."""
    name = any(w[:1].isupper() for w in phrase.split())
    words = [w for w in phrase.lower().replace("’", "'").split() if w not in _DETERMINERS]
    if not words or len(words) > _MAX_PHRASE_WORDS:
        return set()
    rest_first, rest_last = " ".join(words[1:]), " ".join(words[:-1])
    candidates = [" ".join(words)]
    candidates += [f"{f} {rest_first}".strip() for f in _forms(words[0], rel)]
    candidates += [f"{rest_last} {f}".strip() for f in _forms(words[-1], rel)]
    senses = {s for c in candidates for s in rel.senses(c)}
    if not senses and len(words) > 1 and not name:  # "fresh basil" -> "basil"
        senses = {s for f in _forms(words[-1], rel) for s in rel.senses(f)}
    return senses


def _ancestors(senses: set[int], rel: _Relations) -> set[int]:
    seen: set[int] = set()
    frontier = set(senses)
    for _ in range(_MAX_DEPTH):
        frontier = {p for s in frontier for p in rel.broader(s)} - seen
        if not frontier:
            break
        seen |= frontier
    return seen


_OPPOSED_WORDS = frozenset({frozenset({"before", "after"}), frozenset({"over", "under"})})
"""Opposites WordNet cannot list: it has no prepositions ("children under 12" / "over 12")."""
_OPPOSED_PREFIXES = (
    ("under", "over"),
    ("in", "out"),
    ("up", "down"),
    ("endo", "exo"),
    ("pre", "post"),
)
_NEGATING_PREFIXES = ("un", "non", "anti", "contra")
_MIN_BASE = 4


def _prefixed_opposites(a: str, b: str, rel: _Relations) -> bool:
    """ "underfunded" / "overfunded", "inbound" / "outbound", "indicated" / "contraindicated":
    one word, the other with an opposed or a negating prefix, the rest a word WordNet knows
    (both, or the shared base)."""
    a, b = a.lower(), b.lower()
    if " " in a or " " in b:
        return False
    for x, y in (*_OPPOSED_PREFIXES, *((p, "") for p in _NEGATING_PREFIXES)):
        for first, second in ((a, b), (b, a)):
            if not (first.startswith(x) and second.startswith(y)):
                continue
            base = first[len(x) :]
            if second[len(y) :] != base or len(base) < _MIN_BASE:
                continue
            if _forms(base, rel) or (_forms(first, rel) and _forms(second, rel)):
                return True
    return False


def relation(claim_words: str, evidence_words: str) -> Relation | None:
    """What ``claim_words``, put in place of ``evidence_words``, is to them (see above).

    Example:
        >>> relation("called off", "cancelled"), relation("open", "closed")
        ('same', 'opposite')
        >>> relation("Europe", "France"), relation("Portugal", "Italy") is None
        ('broader', True)
    """
    if frozenset({claim_words.lower(), evidence_words.lower()}) in _OPPOSED_WORDS:
        return "opposite"
    rel = _load()
    claim, evidence = _senses(claim_words, rel), _senses(evidence_words, rel)
    if not (claim & evidence) and _prefixed_opposites(claim_words, evidence_words, rel):
        return "opposite"
    if not claim or not evidence:
        return None
    opposite = any(
        (a, b) in rel.antonyms or (b, a) in rel.antonyms for a in claim for b in evidence
    )
    if opposite:  # also when a sense is shared: an adjective's cluster can reach the other's
        return "opposite"
    if claim & evidence:
        return "same"
    if claim & _ancestors(evidence, rel):
        return "broader"
    if evidence & _ancestors(claim, rel):
        return "narrower"
    return None


@lru_cache(maxsize=1 << 14)
def kind_of(word: str, other: str) -> bool:
    """Whether the most common sense of ``word`` is directly a kind of ``other`` ("rain" and
    "rainfall" of "precipitation"): a claim word naming a field by a narrower word. The first
    sense and its own hypernyms only: every sense, or hypernyms of hypernyms, reach too far
    ("bus" is a kind of "traveler" through a rare sense, a "bedroom" of "area" through "room",
    "HDL" of "unit")."""
    rel = _load()
    forms = _forms(word, rel)
    first = list(rel.senses(forms[0]))[:1] if forms else []
    if not first:
        return False
    return bool(set(rel.broader(first[0])) & _senses(other, rel))


@lru_cache(maxsize=1 << 14)
def siblings(word: str, other: str) -> bool:
    """Whether the most common senses of two different words are two kinds of one thing,
    neither a kind of the other: "savings account" and "checking account" (bank accounts),
    "SUV" and "sedan" (cars). First senses and their direct hypernyms only (see
    :func:`kind_of`)."""
    rel = _load()
    a, b = _first_sense(word.lower(), rel), _first_sense(other.lower(), rel)
    if a is None or b is None or a == b:
        return False
    up_a, up_b = set(rel.broader(a)), set(rel.broader(b))
    return bool(up_a & up_b) and a not in up_b and b not in up_a


def _first_sense(word: str, rel: _Relations) -> int | None:
    forms = _forms(word, rel)
    first = list(rel.senses(forms[0]))[:1] if forms else []
    return first[0] if first else None


def is_lemma(word: str) -> bool:
    """Whether WordNet lists ``word`` as written ("leaving" yes, "portlanding" no)."""
    return word in _load().lemmas


def kin(word: str, other: str) -> bool:
    """Whether two words share a synset ("layover" and "stop", "leaving" and "departure"): a
    claim word and the key word of a field it fills. Stricter than :func:`relation`, whose
    hypernyms reach too far for key words ("water" is a "food", "transfer" reaches half the
    verbs)."""
    rel = _load()
    a, b = _senses(word, rel), _senses(other, rel)
    if not a or not b:
        return False
    return bool(a & b)
