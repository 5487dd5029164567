"""Signals for one claim against the evidence index, and contradiction detection.

Every signal is oriented so that a larger value means *more support* (the learned combination
has non-negative weights, so more support can never raise the hallucination score and a
contradiction can never lower it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from langchain_qgate.grounding.checks.checks import (
    Quantity,
    comparable,
    content_stems,
    coverage,
    extract_entities,
    extract_quantities,
    negations_about,
    quantities_match,
    stem,
    tokens,
    untokenise,
)
from langchain_qgate.grounding.checks.slots import (
    Passage,
    Value,
    all_found,
    answer_conflict,
    found_in,
    lifespan_conflict,
    name_head,
    negation_clash,
    opens_with_parenthesis,
    passage,
    slot_conflict,
    stated_in,
    value_free_stems,
)
from langchain_qgate.grounding.claims._compound import sentence_subject
from langchain_qgate.grounding.evidence.structured import field_info
from langchain_qgate.schemas import Contradiction

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex

__all__ = ["FEATURE_NAMES", "ClaimSignals", "compute_signals"]

FEATURE_NAMES: tuple[str, ...] = (
    "similarity",
    "coverage_best",
    "coverage_topk",
    "coverage_all",
    "novel_ok",
    "quantities_ok",
    "entities_ok",
    "no_contradiction",
    "negation_consistent",
    "values_consistent",
    "pair_entailed",
    "pair_not_contradicted",
)
"""Order of the feature vector the learned combination reads (``pair_*``: the learned
claim-evidence verifier, see ``grounding/verifier/pair_signals.py``)."""

_ALIGNED_COVERAGE = 0.5  # a chunk "talks about the same thing" from this coverage on
_RIVAL_COVERAGE = 0.25  # a count of the claim's unit in the claim's context needs less
_QUESTION_COVERAGE = 0.75  # a passage answering the question restates this much of it
_LOOSE_NEGATION_COVERAGE = 0.4  # a negation about shared words lowers support from here on
_NEGATION_COVERAGE = 0.6  # a flipped negation needs a chunk that restates the claim ...
_STATED_COVERAGE = 0.8  # ... and a chunk this close with every value of the claim states it


@dataclass
class ClaimSignals:
    """Signals of one claim; ``vector()`` gives the features in ``FEATURE_NAMES`` order."""

    similarity: float = 0.0
    coverage_best: float = 0.0
    coverage_topk: float = 0.0
    coverage_all: float = 0.0
    novel_ok: float = 0.0
    quantities_ok: float = 1.0
    entities_ok: float = 1.0
    no_contradiction: float = 1.0
    negation_consistent: float = 1.0
    values_consistent: float = 1.0
    pair_entailed: float = 0.0
    pair_not_contradicted: float = 1.0
    top: list[tuple[int, float]] = field(default_factory=list)
    aligned: int = -1
    contradiction: Contradiction | None = None
    missing: list[str] = field(default_factory=list)
    rule_contradiction: Contradiction | None = None  # what the rules found, before the model
    rule_family: str = ""  # which rule family found it (an ablation key; see fit_grounding)
    pair_contradicted: float = 0.0  # the model's largest P(contradicted) over the windows
    pair_window: int = -1  # the chunk of that window
    pair_record: bool = False  # some window is a structured record (fields.py decides there)
    pair_cut: bool = False  # some window was too long for the model to read whole
    pair_change: Contradiction | None = None  # a local change of a window's sentence
    pair_change_p: float = 0.0  # that window's P(contradicted), when names or figures changed
    pair_change_opposite: bool = False  # the change is a word for its opposite (WordNet)
    pair_change_elsewhere: float = 0.0  # largest P(entailed) of the other windows
    field_grounded: bool = False  # a record's fields state the claim (fields.py decided)

    def vector(self) -> NDArray[np.float64]:
        """Features in ``FEATURE_NAMES`` order."""
        return np.array([getattr(self, n) for n in FEATURE_NAMES], dtype=np.float64)

    def as_dict(self) -> dict[str, float]:
        """Features by name (rounded for display)."""
        return {n: round(float(getattr(self, n)), 4) for n in FEATURE_NAMES}


def _entity_found(entity: str, index: EvidenceIndex) -> bool:
    """Whether the evidence names ``entity``: the word it is known by and at least half its
    words ("Marie Curie" in evidence that says "Curie", "Presley" in "Elvis Presley")."""
    text = index.all_entities_text
    if entity.lower() in text:
        return True
    parts = [stem(t.lower()) for t in tokens(entity)]
    parts = [p for p in parts if len(p) > 1]
    head = name_head(entity)
    return (
        bool(parts)
        and (not head or stem(head) in index.all_stems)
        and 2 * sum(p in index.all_stems for p in parts) >= len(parts)
    )


_POLAR = frozenset({"yes", "no"})
# A claim whose subject is the speaker ("I visited ...", "My dog ..."; not a belief about
# something else: "I think ...", "I'm sure ..."), and evidence in the first person (read
# lower-cased).
_SPEAKER = re.compile(
    r"\W*(?:I['’](?:m|ve|d|ll)|I(?!['’])|My)\b(?!\s+(?:\S+\s+){0,2}(?:think|believe|guess|suppose"
    r"|reckon|assume|feel|expect|know|understand|recall|remember|suspect|doubt|bet|imagine|hope"
    r"|mean|say|sure|certain|confident|afraid|convinced)\b)"
)
_FIRST_PERSON = re.compile(r"\b(?:i|i['’](?:m|ve|d|ll)|me|my|myself)\b")


def _is_polar(answer: str) -> bool:
    """Whether ``answer`` is a bare yes/no ("Yes.", "no")."""
    words = tokens(answer.lower())
    return len(words) == 1 and words[0] in _POLAR


def _contradiction(
    claim_text: str,
    asserted: str,
    index: EvidenceIndex,
    top: list[tuple[int, float]],
    *,
    asked: str,
    polar: bool,
    off: frozenset[str] = frozenset(),
) -> tuple[Contradiction | None, str]:
    """A slot-aligned value conflict or a negation clash with a passage restating the claim,
    and the check that found it (``config.BUILTIN_CHECKS``; the ones in ``off`` are skipped).

    The full claim is compared (words the question gave included); values the question states
    (``asked``, as whole words) are not the claim's own and never conflict.
    """
    claim = passage(untokenise(claim_text))
    about = value_free_stems(claim)
    if sum(about.values()) <= 0.0:
        return None, ""
    ranked = _ranked(claim, about, index, top)
    candidates = [(c, i) for c, i in ranked if c >= _ALIGNED_COVERAGE]

    def conflict(i: int, *, aligned: bool) -> Contradiction | None:
        chunk = index.chunks[i]
        return slot_conflict(
            claim,
            index.passage(i),
            evidence_id=chunk.id,
            quote=chunk.text,
            given=asked,
            settled=partial(_settled, index=index),
            aligned=aligned,
        )

    negated = False
    negated_at = candidates[0][1] if candidates else -1
    if candidates:
        said = passage(untokenise(asserted)) if asserted is not claim_text else claim
        best = candidates[0][1]
        negated = (
            "negation" not in off
            and not polar
            and _negation_against(said, candidates, index, whole=asserted is claim_text)
        )
        # A passage that states the claim with all its values and the same polarity settles it.
        for c, i in candidates:
            stated = c >= _STATED_COVERAGE and all_found(claim, index.passage(i), asked)
            if stated and (i != best or not negated):
                return None, ""
        for _, i in candidates if "slot_aligned" not in off else ():
            found = conflict(i, aligned=True)
            if found is not None:
                return found, "slot_aligned"
    if asserted is not claim_text and not polar and "short_answer" not in off:
        found = _answer_contradiction(asserted, claim_text, index, ranked, asked=asked)
        if found is not None:
            return found, "short_answer"
    found = _lifespan(claim, index, ranked, asked) if "lifespan" not in off else None
    if found is not None:
        return found, "lifespan"
    # A count of the same unit in the same context, in a passage sharing fewer words ("comes
    # with a 24-month warranty" against "the 36-month warranty covers parts and labour").
    for c, i in ranked if "slot_rival" not in off else ():
        if _RIVAL_COVERAGE <= c < _ALIGNED_COVERAGE:
            found = conflict(i, aligned=False)
            if found is not None:
                return found, "slot_rival"
    if negated:
        chunk = index.chunks[negated_at]
        return Contradiction(
            kind="negation",
            claim_value=claim_text,
            evidence_value="",
            evidence_id=chunk.id,
            quote=chunk.text,
        ), "negation"
    return None, ""


def _ranked(
    claim: Passage, about: dict[str, float], index: EvidenceIndex, top: list[tuple[int, float]]
) -> list[tuple[float, int]]:
    """Passages about the same thing first; among equals, the one stating more of the claim's
    values ("In fiscal year 2024, ... revenue of €48.2 million" before "... in fiscal 2023").
    (A passage is prepared for alignment only when it shares enough words to be used.)"""
    scored = [(coverage(about, index.stems(i)), i) for i, _ in top]
    return sorted(
        scored,
        key=lambda t: (
            -round(t[0], 2),
            -sum(found_in(v, index.passage(t[1])) for v in claim.values)
            if t[0] >= _RIVAL_COVERAGE
            else 0,
        ),
    )


def _settled(value: Value, *, index: EvidenceIndex) -> bool:
    """Evidence that states the claim's value anywhere makes a rival in one passage about
    another thing said with the same words, not a contradiction (a count only when it counts
    the same unit: "four games" does not settle "four league titles")."""
    if value.quantity is None:
        return _entity_found(value.text, index)
    q = value.quantity
    where = {j for j, e in index.all_quantities if quantities_match(q, e)}
    return any(
        o.unit == value.unit and o.quantity is not None and quantities_match(q, o.quantity)
        for j in where
        for o in index.passage(j).values
    )


def _negation_against(
    said: Passage, candidates: list[tuple[float, int]], index: EvidenceIndex, *, whole: bool
) -> bool:
    """Whether the passage about the same thing says the claim with the other polarity, and
    no other passage that states the claim says it with the same one (a copied sentence next
    to a neighbour that words it the other way)."""
    best_cov, best = candidates[0]
    # "X was not the first woman to ..." against "X became the second woman to ...": a
    # negated value the passage replaces with another one agrees with it.
    denied_other = any(v.negated and not found_in(v, index.passage(best)) for v in said.values)
    info = field_info(index.chunks[best])
    return (
        best_cov >= _NEGATION_COVERAGE
        # a field's "key: value" has no polarity of its own: fields.py reads booleans
        and (info is None or info.get("kind") != "value")
        and len(value_free_stems(said)) >= 2
        and not denied_other
        and negation_clash(said, index.passage(best), asserted_negation=whole)
        and not any(
            c >= _STATED_COVERAGE
            and not negation_clash(said, index.passage(i), asserted_negation=whole)
            for c, i in candidates[1:]
        )
    )


def _lifespan(
    claim: Passage, index: EvidenceIndex, ranked: list[tuple[float, int]], asked: str
) -> Contradiction | None:
    """ "born in 1997" against "Anne Rice (born ...; October 4, 1941) is ...": the dates
    after the name a passage opens on (it shares no other word with the claim)."""
    for _, i in ranked:
        if not opens_with_parenthesis(index.views[i]):
            continue
        chunk = index.chunks[i]
        found = lifespan_conflict(
            claim, index.passage(i), evidence_id=chunk.id, quote=chunk.text, given=asked
        )
        if found is not None:
            return found
    return None


def compute_signals(
    claim_text: str,
    index: EvidenceIndex,
    scores: NDArray[np.float32],
    neighbours: NDArray[np.int64],
    *,
    question: str | None = None,
    off: frozenset[str] = frozenset(),
) -> ClaimSignals:
    """Compute the signals of ``claim_text`` given its nearest chunks (``neighbours``).

    With a ``question``, the words the claim shares with the question are given, not
    asserted: lexical support is measured on what the answer adds. The question never hides
    a contradiction: only a "question + short answer" claim has values the question gave
    (values it states as whole words), and its answer is also checked on its own. The
    built-in checks named in ``off`` name no contradiction.
    """
    claim_text = untokenise(claim_text)
    question = untokenise(question) if question else question
    sig = ClaimSignals()
    top = [(int(i), float(s)) for i, s in zip(neighbours, scores, strict=True) if i >= 0]
    sig.top = top
    if not top:
        sig.quantities_ok = 0.0
        sig.entities_ok = 0.0
        return sig
    sig.similarity = max(0.0, top[0][1])
    c = _asserted(claim_text, question, index, top)
    per_chunk_cov = _coverage_signals(sig, c, index, top)
    aligned_cov, aligned = max(per_chunk_cov, key=lambda entry: _alignment(entry, c, index))
    sig.coverage_best = aligned_cov
    sig.aligned = aligned
    _value_signals(sig, c, index)
    _disagreement(sig, c, index, top, aligned_cov=aligned_cov, aligned=aligned, off=off)
    return sig


@dataclass
class _Asserted:
    """What a claim asserts beyond the question, read once for every signal."""

    claim_text: str
    asserted: str  # the answer of a "question + short answer" claim, else the claim
    asked: str  # the question ("" without one)
    quantities: list[Quantity]  # the values the claim asserts (not the question's)
    bare: str  # the asserted text without its values
    polar: bool  # a bare "yes" / "no"
    stems: dict[str, float]  # content stems and their weights
    subject: set[str]  # stems of a subject an open chunk does not name

    @property
    def answer(self) -> bool:
        return self.asserted is not self.claim_text


def _asserted(
    claim_text: str, question: str | None, index: EvidenceIndex, top: list[tuple[int, float]]
) -> _Asserted:
    # What the claim asserts beyond the question: a "question + short answer" claim asserts
    # only the answer, and values or names the question already gave are not the claim's.
    asserted = claim_text
    if question and claim_text.startswith(question):
        asserted = claim_text[len(question) :].strip() or claim_text
    asked = question or ""
    claim_quantities = [q for q in extract_quantities(asserted) if not stated_in(q.raw, asked)]
    # Quantities are checked separately: drop their words from lexical coverage.
    bare = asserted
    for q in reversed(claim_quantities):
        bare = bare[: q.start] + " " + bare[q.end :]
    # A bare "yes" / "no" affirms or denies the question: it adds no word of its own to look
    # up, and its polarity cannot be checked lexically.
    polar = asserted is not claim_text and _is_polar(asserted)
    if polar:
        bare = ""
    stems = content_stems(bare)
    if question:
        asked_stems = content_stems(question)
        novel = {s: w for s, w in stems.items() if s not in asked_stems}
        if novel:
            stems = novel
    # A retrieved chunk that opens on a subject it does not name ("It was discovered in
    # 1935.", a sentence cut from its page) may be about the subject the claim names.
    subject = _open_subject_stems(asserted, index, top) if asserted is claim_text else set()
    return _Asserted(claim_text, asserted, asked, claim_quantities, bare, polar, stems, subject)


def _coverage_signals(
    sig: ClaimSignals, c: _Asserted, index: EvidenceIndex, top: list[tuple[int, float]]
) -> list[tuple[float, int]]:
    """Lexical coverage of the claim's content stems by the top chunks and by all evidence,
    and the words no evidence holds; returns each top chunk's coverage."""
    topk_stems: set[str] = set()
    per_chunk_cov: list[tuple[float, int]] = []
    for i, _ in top:
        chunk_stems = index.stems(i) | c.subject if index.open[i] else index.stems(i)
        topk_stems |= chunk_stems
        per_chunk_cov.append((coverage(c.stems, chunk_stems), i))
    all_stems = index.all_stems | c.subject
    sig.coverage_topk = coverage(c.stems, topk_stems)
    sig.coverage_all = coverage(c.stems, all_stems)
    missing_weights = [w for s, w in c.stems.items() if s not in all_stems]
    sig.novel_ok = 1.0 - max(missing_weights, default=0.0)
    seen: set[str] = set()
    for tok in tokens(c.bare):
        st = stem(tok.lower())
        if st in c.stems and st not in all_stems and st not in seen:
            seen.add(st)
            sig.missing.append(tok)
    return per_chunk_cov


def _alignment(entry: tuple[float, int], c: _Asserted, index: EvidenceIndex) -> float:
    """The chunk that talks about the same thing: best coverage, plus credit for stating the
    claim's values; ties go to the most similar (``top`` is in similarity order)."""
    cov, i = entry
    if not c.quantities:
        return cov
    found = sum(
        any(quantities_match(q, e) for e in index.chunk_quantities(i)) for q in c.quantities
    )
    return cov + 0.5 * found / len(c.quantities)


def _value_signals(sig: ClaimSignals, c: _Asserted, index: EvidenceIndex) -> None:
    """Quantities and names: each must appear somewhere in the evidence."""
    if c.quantities:
        evidence_q = index.all_quantities
        unmatched = [
            q for q in c.quantities if not any(quantities_match(q, e) for _, e in evidence_q)
        ]
        sig.quantities_ok = 1.0 - len(unmatched) / len(c.quantities)
    entities = [e for e, _, _ in extract_entities(c.asserted) if not stated_in(e, c.asked)]
    if entities:
        missing_entities = [
            e
            for e in entities
            if not _entity_found(e, index)
            and not (c.subject and {stem(t.lower()) for t in tokens(e)} <= c.subject)
        ]
        sig.entities_ok = 1.0 - len(missing_entities) / len(entities)
    # "I saw them live in 2019": the speaker is the subject, and only evidence that speaks of
    # itself in the first person can say what the speaker did; other evidence names no one.
    if _SPEAKER.match(c.asserted) and not _FIRST_PERSON.search(index.all_entities_text):
        sig.entities_ok = 0.0


def _disagreement(
    sig: ClaimSignals,
    c: _Asserted,
    index: EvidenceIndex,
    top: list[tuple[int, float]],
    *,
    aligned_cov: float,
    aligned: int,
    off: frozenset[str] = frozenset(),
) -> None:
    """A contradiction: another value in the same slot of a passage about the same thing, or
    the opposite polarity (see ``slots``). Only a "question + answer" claim has values the
    question gave; a claim of the answer's own asserts every value it states, and the answer
    of a "question + answer" claim is also read alone: a question never hides a
    contradiction."""
    sig.contradiction, sig.rule_family = _contradiction(
        c.claim_text,
        c.asserted,
        index,
        top,
        asked=c.asked if c.answer else "",
        polar=c.polar,
        off=off,
    )
    if sig.contradiction is None and c.answer and not c.polar:
        sig.contradiction, sig.rule_family = _contradiction(
            c.asserted, c.asserted, index, top, asked="", polar=False, off=off
        )
    if sig.contradiction is not None:
        sig.contradiction = sig.contradiction.model_copy(update={"check": sig.rule_family})
        sig.no_contradiction = 0.0
    # Weaker disagreement lowers support without being reported as a contradiction: another
    # value of the claim's kind in the chunk about the same thing, or a negation about what
    # both say (the claim is then unsupported, never "contradicted").
    if aligned_cov >= _ALIGNED_COVERAGE and c.quantities:
        here = index.chunk_quantities(aligned)
        if any(
            any(comparable(q, e) for e in here)
            and not any(quantities_match(q, e) for _, e in index.all_quantities)
            for q in c.quantities
        ):
            sig.values_consistent = 0.0  # a value no evidence states, another one in its place
    if sig.contradiction is not None or (
        aligned_cov >= _LOOSE_NEGATION_COVERAGE
        and len(c.stems) >= 2
        and not c.polar
        and _polarity_differs(c.asserted, not c.answer, index, aligned)
    ):
        sig.negation_consistent = 0.0


def _answer_contradiction(
    answer: str,
    claim_text: str,
    index: EvidenceIndex,
    ranked: list[tuple[float, int]],
    *,
    asked: str,
) -> Contradiction | None:
    """A short answer whose value the evidence never states, against the passage that
    restates the question with another answer of the asked kind."""
    said = passage(answer)
    if len(said.values) != 1:
        return None
    value = said.values[0]
    if value.quantity is not None:
        if any(quantities_match(value.quantity, e) for _, e in index.all_quantities):
            return None
    elif _entity_found(value.text, index):
        return None
    question = claim_text[: len(claim_text) - len(answer)].strip()
    about = passage(question)
    wanted = value_free_stems(about)
    best = max(((coverage(wanted, index.stems(i)), i) for _, i in ranked), default=(0.0, -1))
    if best[0] < _QUESTION_COVERAGE:
        return None
    chunk = index.chunks[best[1]]
    return answer_conflict(
        asked or question, said, index.passage(best[1]), evidence_id=chunk.id, quote=chunk.text
    )


def _polarity_differs(asserted: str, whole: bool, index: EvidenceIndex, i: int) -> bool:
    claim_neg = negations_about(asserted, index.stems(i)) % 2
    chunk_neg = negations_about(index.views[i], set(content_stems(asserted))) % 2
    return claim_neg != chunk_neg and (bool(claim_neg) or whole)


def _open_subject_stems(
    asserted: str, index: EvidenceIndex, top: list[tuple[int, float]]
) -> set[str]:
    """The stems of the claim's subject when a retrieved chunk leaves its subject open."""
    if not any(index.open[i] for i, _ in top):
        return set()
    subject = sentence_subject(asserted, name_fallback=False)
    return set(content_stems(subject)) if subject else set()
