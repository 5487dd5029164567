"""A claim that restates one evidence sentence with a word or two changed.

The verifier (``grounding/verifier/crossencoder.py``) reads "The museum is open on Mondays." against
"The museum is closed on Mondays." as contradicted at P 0.99, but it reads some correct
answers the same way (adversarial FEVER claims, paraphrases), so a contradiction from the model
alone needs P >= 0.995. When the claim *is* the evidence sentence with one local change, the
model's reading is about that change only, and a lower threshold holds (``pair_signals.py``):
nothing else in the claim could be what the model objects to, and both sides can be quoted.

:func:`substitution` finds such a claim by aligning its words with the sentence's
(``difflib``, on short inputs only). The changes it accepts:

- one or two content words replaced by one to four evidence words ("open" for "closed",
  "John Smith" for "Maria Lopez", "south" for "north" and "Red" for "Mediterranean");
- one figure replaced by another in the same place ("up to 150 km" for "up to 120 km"): the
  words around it, unit included, are the same, so it is not a rewrite;
- the polarity flipped and nothing else ("did not qualify" for "qualified", "has an airport"
  for "has no airport");
- the whole claim restated under a denial ("It is false that ...", "It is a myth that ...";
  not "Contrary to reports, ...", which asserts what follows);
- two names or words trading places ("Chelsea beat Liverpool" for "Liverpool beat Chelsea",
  "from the club to the city" for "from the city to the club"), unless the order does not
  matter ("X and Y", "between X and Y");
- one frequency for another, read as rates (``_frequency.py``: "every month" for "every three
  months"; "quarterly" for it is the same rate and no change);
- a value taken from another clause of the sentence, the only change ("Anna Kovac won the
  title" for "Sofia Rossi won the title, beating Anna Kovac in the final"), unless that clause
  holds the claim's other names and figures (it says the same) or the claim's words come from
  it too;
- a name put in the role the sentence gives another, the words between skipped ("written by
  Tom Baker" for "written by Grace Holloway and illustrated by Tom Baker"; not a list, "with",
  an alias or a description of the name);
- the polarity flipped in one clause while the sentence goes on in another ("does not cause
  autism; large studies ..."), unless the other clause sets a condition, and a report of the
  claim denied after it ("The idea that ... is a misconception").

and what it leaves to the rules or reads as no change of fact:

- a figure written another way ("25%" for "a quarter", "2:30 pm" for "14:30");
- negation on both sides ("not" for "never");
- degree and focus words ("only", "mainly": the claim's own hedge, not a swapped fact);
- pronouns on either side ("it" for "Diwali": a reference, not a different thing);
- a name for a common word or the other way round ("a man" for "Luc Besson", "Helix Robotics"
  for "the company"): a generalisation or a reference, not a swap. Names for names and words
  for words pass; day and month names count as words;
- claim words with no counterpart at all (an addition, for the coverage features);
- a word WordNet reads as the same, broader or narrower (``_word_relations.py``: "called off"
  for "cancelled", "herbs" for "basil", "violin" for "string instrument"): a restatement, not a
  change of fact, even where the model reads it as contradicted.

A word for its WordNet opposite is marked (``LocalChange.opposite``): with the rest of the
sentence the same, that change is a contradiction on its own, whatever the model reads. So
are a flipped polarity, a denial, two things trading places, another frequency, a value moved
from another clause and a name in another's role. Other changes of names and
figures are marked ``names_or_figures``: the model may judge those; another word for a word
it may not.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from langchain_qgate.grounding.checks._frequency import frequencies, same_rate
from langchain_qgate.grounding.checks._lexicon import (
    COLLECTIVES,
    MONTHS,
    UNAPOSTROPHED_NEGATIONS,
    WEEKDAYS,
    words,
)
from langchain_qgate.grounding.checks._word_relations import relation
from langchain_qgate.grounding.checks.checks import spelt_alike, stem

__all__ = ["Change", "LocalChange", "substitution"]

Change = tuple[str, str]
"""One change: ``(claim words, evidence words)``; ``("not", "")`` or ``("", "not")`` for a
flipped polarity (the side that has the negation), ``("", "denied")`` for a denial."""


class LocalChange(NamedTuple):
    """The changes; whether one is a word for its opposite ("open" for "closed"), a flipped
    polarity or a denial; and whether every change is of a name or a figure, which the learned
    verifier may judge alone (a word for a word it reads less well: synonyms that WordNet does
    not list, "torn down" for "demolished", it can read as contradicted at P 0.99)."""

    changes: list[Change]
    opposite: bool = False
    names_or_figures: bool = False


_MAX_CLAIM_WORDS = 48
_MAX_SENTENCE_WORDS = 96
_MAX_CHANGED = 2  # replaced claim content words
_MAX_REPLACED = 4  # evidence words one replacement may stand for
_MIN_MATCHED_SHARE = 0.5
_MAX_SKIPPED = 5  # evidence words the claim may leave out between its first and last match

# A figure with its separators, or a word; each alternative is one character-class run.
_WORD = re.compile(r"\d+(?:[.,:]\d+)*|[^\W\d_][\w'’&-]*", re.UNICODE)
_FIGURE = re.compile(r"\d+(?:[.,:]\d+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_STOP = words("substitution.stop")
_STOP |= frozenset(map(stem, _STOP))  # and their stems ("this" -> "thi"), for stemmed words
_NEGATION = words("substitution.negation") | set(UNAPOSTROPHED_NEGATIONS)
_POLARITY_FILLER = words("substitution.polarity_filler")
_FOCUS = words("substitution.focus")
_PRONOUNS = words("substitution.pronouns")
_CALENDAR = frozenset(WEEKDAYS) | {d + "s" for d in WEEKDAYS} | frozenset(MONTHS)
_SYMMETRIC = words("substitution.symmetric")
_DENIAL = re.compile(r"\b(?:false|untrue|incorrect|myth|misconception|debunked)\b", re.IGNORECASE)
_REPORTED = words("substitution.reported")
_DENIAL_REACH = 4  # the denial word is at most this many words before the restated clause
_CLAUSE_WORDS = words("substitution.clause_words")
_CLAUSE_MARKS = frozenset(";,:()[]—–")
_CONDITIONS = words("substitution.conditions")
_COORDINATION = words("substitution.coordination")
_ALIAS = words("substitution.alias")
_RATE = "\x00rate"  # a frequency span, in the alignment of two frequencies


def _words(text: str, limit: int) -> list[str] | None:
    out: list[str] = []
    for m in _WORD.finditer(text):
        out.append(m.group())
        if len(out) > limit:
            return None
    return out


def _clauses(text: str) -> list[int]:
    """The clause number of each word of ``text``, one per word of :func:`_words` (called on
    a text it accepted): a clause ends at ``;``, ``,``, ``:``, a bracket or a dash, and before
    "and", "while", "but"."""
    out: list[int] = []
    clause, end = 0, 0
    for m in _WORD.finditer(text):
        gap = text[end : m.start()]
        if out and (any(ch in _CLAUSE_MARKS for ch in gap) or m.group().lower() in _CLAUSE_WORDS):
            clause += 1
        out.append(clause)
        end = m.end()
    return out


def _negated(words: list[str]) -> bool:
    return any(w.lower() in _NEGATION or w.lower().endswith(("n't", "n’t")) for w in words)


def _content(words: list[str]) -> str:
    return " ".join(w for w in words if w.lower() not in _STOP)


def _is_name(word: str, first: bool) -> bool:
    return word[:1].isupper() and not first and word.lower() not in _CALENDAR


def _value(figure: str) -> float | str:
    """A figure's value where it reads as one number ("0400" is 400), else its text."""
    try:
        return float(figure.replace(",", "") if _THOUSANDS.fullmatch(figure) else figure)
    except ValueError:
        return figure


def _figure_swap(claim_side: list[str], evidence_side: list[str]) -> bool:
    """One figure for another in the same place (``150`` for ``120``, not ``400`` for ``0400``)."""
    if len(claim_side) != 1 or len(evidence_side) != 1:
        return False
    a, b = claim_side[0], evidence_side[0]
    return bool(_FIGURE.fullmatch(a) and _FIGURE.fullmatch(b)) and _value(a) != _value(b)


def _counts_groups(after: list[str]) -> bool:
    return any(w.lower() in COLLECTIVES for w in after)


def _word_swap(claim_side: list[str], evidence_side: list[str], c0: int, e0: int) -> str | None:
    """``"name"`` or ``"word"`` for a replacement of fact (no figure, negation, focus word or
    pronoun; names for names, words for words), else None."""
    for word in claim_side + evidence_side:
        if any(ch.isdigit() for ch in word) or word.lower() in _PRONOUNS:
            return None
    if _negated(claim_side + evidence_side) or any(w.lower() in _FOCUS for w in claim_side):
        return None
    claim_names = any(_is_name(w, c0 == 0 and i == 0) for i, w in enumerate(claim_side))
    evidence_names = any(_is_name(w, e0 == 0 and i == 0) for i, w in enumerate(evidence_side))
    if claim_names != evidence_names:
        return None
    return "name" if claim_names else "word"


def _flip(
    c: list[str],
    e: list[str],
    ops: Sequence[tuple[str, int, int, int, int]],
    restated: tuple[int, int],
    clauses: list[int],
) -> bool:
    """The polarity differs and every other word is the same (a denial is the next test's).
    A clause of the sentence before or after the restated one is not read ("The MMR vaccine
    causes autism" for "The MMR vaccine does not cause autism; large studies ..."), unless it
    sets a condition ("If it rains, the match is not played")."""
    first, last = restated
    outside = e[:first] + e[last:]
    if (
        (first and clauses[first - 1] == clauses[first])
        or (last < len(e) and clauses[last] == clauses[last - 1])
        or any(w.lower() in _CONDITIONS for w in outside)
    ):
        first, last = 0, len(e)  # the sentence goes on in the restated clause: read it whole
    region = e[first:last]
    if _negated(c) == _negated(region) or _DENIAL.search(" ".join(e)):
        return False
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" or (tag == "insert" and (j2 <= first or j1 >= last)):
            continue
        side = c[i1:i2] + (e[j1:j2] if tag == "replace" else [])
        if tag == "insert":
            side = e[j1:j2] if not _negated(c) else []
        if any(w.lower() not in _POLARITY_FILLER and not _negated([w]) for w in side):
            return False
    return True


def _trade(r1: list[str], r2: list[str]) -> int | None:
    """``len(X)`` when ``r1`` is X M Y and ``r2`` is Y M X (X and Y not empty), else None."""
    n = len(r1)
    for a in range(1, n):
        for b in range(1, n - a + 1):
            if r1[:a] == r2[n - a :] and r1[n - b :] == r2[:b] and r1[a : n - b] == r2[b : n - a]:
                return a
    return None


def _kind(words: list[str]) -> str:
    """What a span holds: a figure, a name (a capital not on a function word), or words."""
    if any(_FIGURE.fullmatch(w) for w in words):
        return "figure"
    return "name" if any(_is_name(w, w.lower() in _STOP) for w in words) else "word"


def _exchange(c: list[str], cs: list[str], es: list[str]) -> LocalChange | None:
    """Two names or words trading places in a stretch of the sentence: a swap of roles
    ("Chelsea beat Liverpool" for "Liverpool beat Chelsea") is a change; the order of "X and
    Y", "between X and Y" or "in Lyon in 2012" (a place and a year) is none (None either way
    when there is no such stretch). ``cs`` and ``es`` are the claim's and sentence's stems."""
    same_words = sorted(cs)
    for start in range(len(es) - len(cs) + 1):
        window = es[start : start + len(cs)]
        if window == cs or sorted(window) != same_words:
            continue
        p = next(i for i in range(len(cs)) if cs[i] != window[i])
        q = next(i for i in range(len(cs) - 1, -1, -1) if cs[i] != window[i])
        a = _trade(cs[p : q + 1], window[p : q + 1])
        if a is None:
            return None
        x = c[p : p + a]
        y_len = next(b for b in range(1, q + 2 - p) if cs[q + 1 - b : q + 1] == window[p : p + b])
        y, between = c[q + 1 - y_len : q + 1], c[p + a : q + 1 - y_len]
        if any(w.lower() in _PRONOUNS for w in x + y) or all(w.lower() in _STOP for w in x + y):
            return None
        if _kind(x) != _kind(y):
            return None  # "in Lyon in 2012" for "in 2012 in Lyon": two roles, reordered
        before = c[p - 1].lower() if p else ""
        if all(w.lower() in _SYMMETRIC for w in between) or before in _SYMMETRIC:
            return None
        return LocalChange([(" ".join(x), " ".join(y))], opposite=True)
    return None


def _restated_at(
    ops: Sequence[tuple[str, int, int, int, int]], claim_len: int
) -> tuple[int, int] | None:
    """The sentence span from the first to the last word the claim matches, or None when the
    matches are spread over more than the claim's length and ``_MAX_SKIPPED`` words: not one
    restatement."""
    equal = [op for op in ops if op[0] == "equal"]
    if not equal or equal[-1][4] - equal[0][3] > claim_len + _MAX_SKIPPED:
        return None
    return equal[0][3], equal[-1][4]


def _home(
    cs: list[str],
    ops: Sequence[tuple[str, int, int, int, int]],
    at: Sequence[int],
    clauses: list[int],
) -> set[int]:
    """The clauses of the sentence that the claim's matched content words come from (``at``
    maps an aligned position to its word in the sentence)."""
    home: set[int] = set()
    for tag, i1, i2, j1, _ in ops:
        if tag == "equal":
            home.update(clauses[at[j1 + k]] for k in range(i2 - i1) if cs[i1 + k] not in _STOP)
    return home


def _occurrences(x: list[str], words: list[str]) -> list[int]:
    """Where the run ``x`` stands in ``words``."""
    return [p for p in range(len(words) - len(x) + 1) if words[p : p + len(x)] == x]


def _elsewhere(
    c: list[str],
    cs: list[str],
    span: tuple[int, int],
    es: list[str],
    *,
    starts: list[int],
    clauses: list[int],
    home: set[int],
) -> list[bool]:
    """For each of ``starts`` (where the sentence says the claim's ``c[span]`` again), whether
    it stands in a clause the claim's matched words do not come from and that holds none of the
    claim's other names and figures: a value moved from another slot ("Anna Kovac won the
    title" for "Sofia Rossi won the title, beating Anna Kovac in the final"), not "$10 for
    seniors" for "$10 for adults; seniors $10" (that clause says the same) or "Trains run every
    30 minutes otherwise" for "... every 10 minutes at peak times and every 30 minutes
    otherwise" ("otherwise" comes from that clause)."""
    i1, i2 = span
    others = {
        cs[k]
        for k in range(len(c))
        if not i1 <= k < i2 and (_FIGURE.fullmatch(c[k]) or _is_name(c[k], k == 0))
    }
    said: dict[int, set[str]] = {}
    for word, clause in zip(es, clauses, strict=True):
        said.setdefault(clause, set()).add(word)
    return [clauses[p] not in home and not others & said[clauses[p]] for p in starts]


def _moved(
    c: list[str],
    cs: list[str],
    span: tuple[int, int],
    es: list[str],
    *,
    clauses: list[int],
    home: set[int],
) -> bool:
    """Whether the claim's ``c[span]``, put where the sentence has other words, is a value of
    another slot of the sentence (see :func:`_elsewhere`)."""
    x = cs[span[0] : span[1]]
    if not x or all(w in _STOP for w in x):
        return False
    starts = _occurrences(x, es)
    return any(_elsewhere(c, cs, span, es, starts=starts, clauses=clauses, home=home))


def _rate_change(
    c: list[str], cs: list[str], e: list[str], es: list[str], clauses: list[int]
) -> tuple[bool, LocalChange | None]:
    """``(True, change)`` when the claim restates the sentence with one frequency in place of
    another ("every month" for "every three months", "weekly" for "daily"), ``(True, None)``
    when the two state one rate ("quarterly" for "every three months") or the claim's rate is
    another clause's in a way the claim may mean, ``(False, None)`` when the claim is not the
    sentence with its frequency rewritten."""
    claim_rates = frequencies(c)
    evidence_rates = frequencies(e) if len(claim_rates) == 1 else []
    if not evidence_rates:
        return False, None
    f = claim_rates[0]
    ca = [*cs[: f.start], _RATE, *cs[f.end :]]
    ea: list[str] = []
    at: list[int] = []  # the sentence word each aligned position stands for
    k = 0
    for g in evidence_rates:
        ea += es[k : g.start]
        at += range(k, g.start)
        ea.append(_RATE)
        at.append(g.start)
        k = g.end
    ea += es[k:]
    at += range(k, len(es))
    ops = difflib.SequenceMatcher(a=ca, b=ea, autojunk=False).get_opcodes()
    restated = _restated_at(ops, len(ca))
    if restated is None:
        return False, None
    if _negated(c) != _negated(ea[restated[0] : restated[1]]):
        return False, None  # a polarity change too ("and do not exceed the dose" is not read)
    matched = 0
    aligned = None
    for tag, i1, i2, j1, _ in ops:
        if tag == "equal":
            matched += sum(1 for w in ca[i1:i2] if w not in _STOP)
            if i1 <= f.start < i2:
                start = at[j1 + f.start - i1]
                aligned = next(g for g in evidence_rates if g.start == start)
        elif tag != "insert" and any(w not in _STOP for w in ca[i1:i2]):
            return False, None  # another word changed too: not the frequency alone
    content = sum(1 for w in ca if w not in _STOP)
    if aligned is None or matched < max(3, _MIN_MATCHED_SHARE * content):
        return False, None
    if same_rate(f, aligned):
        return True, None
    home = _home(ca, ops, at, clauses) | {clauses[aligned.start]}
    same = [g.start for g in evidence_rates if same_rate(f, g)]
    span = (f.start, f.end)
    if same and not all(_elsewhere(c, cs, span, es, starts=same, clauses=clauses, home=home)):
        return True, None  # the claim's rate is the sentence's in a clause it may restate
    change = (" ".join(c[f.start : f.end]), " ".join(e[aligned.start : aligned.end]))
    return True, LocalChange([change], opposite=True)


def _skipped_role(
    c: list[str], e: list[str], ops: Sequence[tuple[str, int, int, int, int]]
) -> LocalChange | None:
    """A name the claim puts where the sentence has another, the sentence's words between
    skipped: "written by Tom Baker" for "written by Grace Holloway and illustrated by Tom
    Baker", "directed by Marco Bellini" for "directed by Ana Ruiz and stars Marco Bellini".
    Not a list ("by Grace Holloway and Tom Baker", "with"), another name for the same person
    ("Samuel Clemens, known as Mark Twain"), or a description of the claim's name ("Ana
    Ruiz's collaborator Marco Bellini")."""
    for tag, i1, _, j1, j2 in ops:
        if tag != "insert" or not 0 < i1 < len(c) or j2 - j1 < 3:
            continue
        span = e[j1:j2]
        if not (_is_name(span[0], False) and _is_name(c[i1], False)):
            continue
        if span[-1].lower() in _COORDINATION or any(w.lower() in _ALIAS for w in span):
            continue
        if any(w.endswith(("'s", "’s")) for w in span):
            continue
        if not any(w.lower() not in _STOP and not _is_name(w, False) for w in span[1:]):
            continue  # no word of relation between the two names
        theirs = next(k for k in range(len(span)) if not _is_name(span[k], False))
        ours = next((k for k in range(i1, len(c)) if not _is_name(c[k], False)), len(c))
        return LocalChange([(" ".join(c[i1:ours]), " ".join(span[:theirs]))], opposite=True)
    return None


def substitution(claim: str, sentence: str) -> LocalChange | None:
    """The changes when ``claim`` restates ``sentence`` with one local change (see above).

    Example:
        >>> substitution("The museum is open on Mondays.", "The museum is closed on Mondays.")
        LocalChange(changes=[('open', 'closed')], opposite=True, names_or_figures=False)
        >>> substitution("The museum opened in 1901.", "The museum is closed on Mondays.") is None
        True
    """
    c = _words(claim, _MAX_CLAIM_WORDS)
    e = _words(sentence, _MAX_SENTENCE_WORDS)
    if not c or not e or len(c) < 3:
        return None
    cs, es = [stem(w) for w in c], [stem(w) for w in e]
    exchanged = _exchange(c, cs, es)
    if exchanged is not None:  # "Chelsea beat Liverpool" for "Liverpool beat Chelsea"
        return exchanged
    clauses = _clauses(sentence)
    rated, rate_change = _rate_change(c, cs, e, es, clauses)
    if rated:  # "every month" for "every three months"; "quarterly" for it is no change
        return rate_change
    ops = difflib.SequenceMatcher(a=cs, b=es, autojunk=False).get_opcodes()
    restated = _restated_at(ops, len(c))
    if restated is None:
        return None  # the matches are spread over the sentence: not one restatement
    first, last = restated
    home = _home(cs, ops, range(len(es)), clauses)
    if _flip(c, e, ops, restated, clauses):
        return LocalChange([("not", "")] if _negated(c) else [("", "not")], opposite=True)
    content = sum(1 for w in cs if w not in _STOP)
    t = _Tally()
    for tag, i1, i2, j1, j2 in ops:
        claim_content = [w for w, s in zip(c[i1:i2], cs[i1:i2], strict=True) if s not in _STOP]
        if tag == "replace" and any(w.lower() in _PRONOUNS for w in c[i1:i2] + e[j1:j2]):
            return None  # "It" for "Next calendar date": a reference, of unknown referent
        if tag == "equal":
            t.matched += len(claim_content)
        elif tag == "insert" or not claim_content:
            continue  # evidence words the claim leaves out, or function words only
        elif tag == "delete":
            return None  # claim content with no counterpart: an addition, not a swap
        elif not _replaced(t, _Pair(c, cs, e, es, clauses, home), (i1, i2, j1, j2)):
            return None
        else:
            t.changed += len(claim_content)
    if t.changed > _MAX_CHANGED or t.matched < max(2, _MIN_MATCHED_SHARE * content):
        return None
    if not t.changes:  # every claim word matched: a denial of the claim, or no change
        return _denied_or_skipped(c, e, ops, first, last)
    # a value moved is a change of fact when it is the only one ('Anna Kovac won' for 'Sofia
    # Rossi won ..., beating Anna Kovac'), not within a reworded clause ('scored a goal' for
    # '... scored the opening goal, and Petrov added a second')
    return LocalChange(
        t.changes, t.opposite or (t.moved and len(t.changes) == 1), t.names_or_figures
    )


@dataclass
class _Tally:
    """What the restatement's replaced spans add up to."""

    matched: int = 0
    changed: int = 0
    changes: list[Change] = field(default_factory=list)
    opposite: bool = False
    names_or_figures: bool = True
    moved: bool = False


@dataclass(frozen=True)
class _Pair:
    """The claim's and the sentence's words and stems, the sentence's clauses, and the
    clauses the claim restates."""

    c: list[str]
    cs: list[str]
    e: list[str]
    es: list[str]
    clauses: list[int]
    home: set[int]


def _replaced(t: _Tally, p: _Pair, span: tuple[int, int, int, int]) -> bool:
    """Adds one replaced span to ``t``; False when it is no local change of a value."""
    i1, i2, j1, j2 = span
    c, cs, e, es, clauses, home = p.c, p.cs, p.e, p.es, p.clauses, p.home
    evidence_side = e[j1:j2]
    if i2 == len(c) and len(evidence_side) > _MAX_REPLACED:  # the sentence goes on
        evidence_side = evidence_side[: i2 - i1]
    if len(evidence_side) > _MAX_REPLACED or all(stem(w) in _STOP for w in evidence_side):
        return False
    claim_side = c[i1:i2]
    kind = _word_swap(claim_side, evidence_side, i1, j1)
    figure = kind is None and _figure_swap(claim_side, evidence_side)
    if figure and _counts_groups(e[j2 : j2 + 2]) != _counts_groups(c[i2 : i2 + 2]):
        return False  # "38 chromosomes" for "19 chromosome pairs": other things counted
    if any(clauses[q] in home and not j1 <= q < j2 for q in _occurrences(cs[i1:i2], es)):
        return False  # the claim's word is in a clause it restates: a reordering
    # a value for a value in one clause ("Prescott, Arizona" for "Prescott ([...]; ...) is a
    # city in Yavapai County, Arizona" is none)
    slot = len(set(clauses[j1:j2])) == 1 and abs((j2 - j1) - (i2 - i1)) <= 1
    if (
        (kind is not None or figure)
        and slot
        and _moved(c, cs, (i1, i2), es, clauses=clauses, home=home | set(clauses[j1:j2]))
    ):
        t.moved = True  # the claim's value is another slot's in this sentence
    if kind == "name" and any(spelt_alike(a, b) for a in claim_side for b in evidence_side):
        return False  # "Thelfall" for "Threlfall": the same name misspelt
    if kind is not None:
        meaning = relation(_content(claim_side), _content(evidence_side))
        if kind == "name" and meaning not in ("broader", "narrower"):
            meaning = None  # "Red" in "Red Sea" is no colour: only places nest
        if meaning in ("same", "broader", "narrower"):
            return False
        t.opposite = t.opposite or meaning == "opposite"
        t.names_or_figures = t.names_or_figures and kind == "name"
    elif not figure:
        return False
    t.changes.append((" ".join(claim_side), " ".join(evidence_side)))
    return True


def _denied_or_skipped(
    c: list[str], e: list[str], ops: list[Any], first: int, last: int
) -> LocalChange | None:
    """Every claim word matched: the sentence denies the claim ("the idea that ... is a
    myth", "some sources claim that ..., but this is incorrect"), or skips a role of it."""
    lead = e[max(0, first - _DENIAL_REACH) : first]
    trail = e[last : last + _DENIAL_REACH]
    told = len(lead) >= 2 and lead[-1].lower() == "that" and lead[-2].lower() in _REPORTED
    denied = bool(_DENIAL.search(" ".join(lead))) or (
        told and bool(_DENIAL.search(" ".join(trail)))
    )
    if denied and not _negated(c):
        return LocalChange([("", "denied")], opposite=True)
    return _skipped_role(c, e, ops)  # "written by Tom Baker" for "... and illustrated by"
