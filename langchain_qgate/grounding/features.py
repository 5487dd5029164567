"""Signals for one claim against the evidence index, and contradiction detection.

Every signal is oriented so that a larger value means *more support* (the learned combination
has non-negative weights, so more support can never raise the hallucination score and a
contradiction can never lower it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from langchain_qgate.grounding.checks import (
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
    word_weight,
)
from langchain_qgate.schemas import Contradiction, ContradictionKind

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from langchain_qgate.grounding.evidence import EvidenceIndex
    from langchain_qgate.schemas import EvidenceChunk

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
)
"""Order of the feature vector the learned combination reads."""

_ALIGNED_COVERAGE = 0.5  # a chunk "talks about the same thing" from this coverage on
_RIVAL_COVERAGE = 0.25  # a chunk stating a rival value in the claim's unit needs less
_NEGATION_COVERAGE = 0.4  # ... and shares enough words for a flipped negation (about those
# shared words, see ``negations_about``) to be a contradiction


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
    top: list[tuple[int, float]] = field(default_factory=list)
    aligned: int = -1
    contradiction: Contradiction | None = None
    missing: list[str] = field(default_factory=list)

    def vector(self) -> NDArray[np.float64]:
        """Features in ``FEATURE_NAMES`` order."""
        return np.array([getattr(self, n) for n in FEATURE_NAMES], dtype=np.float64)

    def as_dict(self) -> dict[str, float]:
        """Features by name (rounded for display)."""
        return {n: round(float(getattr(self, n)), 4) for n in FEATURE_NAMES}


def _entity_found(entity: str, index: EvidenceIndex) -> bool:
    text = index.all_entities_text
    if entity.lower() in text:
        return True
    parts = [stem(t.lower()) for t in tokens(entity)]
    parts = [p for p in parts if len(p) > 1]
    return bool(parts) and all(p in index.all_stems for p in parts)


_POLAR = frozenset({"yes", "no"})


def _is_polar(answer: str) -> bool:
    """Whether ``answer`` is a bare yes/no ("Yes.", "no")."""
    words = tokens(answer.lower())
    return len(words) == 1 and words[0] in _POLAR


def _unit_after(text: str, q: Quantity) -> str:
    """The unit word written with a value ("24-month" / "12 months" -> "month"), or ""."""
    if "-" in q.raw:
        return stem(q.raw.rsplit("-", 1)[1].lower())
    words = tokens(text[q.end : q.end + 30])
    if not words or word_weight(words[0].lower()) <= 0.0:
        return ""  # "in", "of", "and": not a unit
    return stem(words[0].lower())


def _value_contradiction(q: Quantity, rival: Quantity, chunk: EvidenceChunk) -> Contradiction:
    """The evidence states ``rival`` where the claim says ``q``."""
    kind: ContradictionKind = "money" if q.kind == "number" and rival.kind == "money" else q.kind
    return Contradiction(
        kind=kind,
        claim_value=q.raw,
        evidence_value=rival.raw,
        evidence_id=chunk.id,
        quote=chunk.text,
    )


def compute_signals(
    claim_text: str,
    index: EvidenceIndex,
    scores: NDArray[np.float32],
    neighbours: NDArray[np.int64],
    *,
    question: str | None = None,
) -> ClaimSignals:
    """Compute the signals of ``claim_text`` given its nearest chunks (``neighbours``).

    With a ``question``, the words the claim shares with the question are given, not
    asserted: lexical support is measured on what the answer adds.
    """
    sig = ClaimSignals()
    top = [(int(i), float(s)) for i, s in zip(neighbours, scores, strict=True) if i >= 0]
    sig.top = top
    if not top:
        sig.quantities_ok = 0.0
        sig.entities_ok = 0.0
        return sig
    sig.similarity = max(0.0, top[0][1])

    # What the claim asserts beyond the question: a "question + short answer" claim asserts
    # only the answer, and values or names the question already gave are not the claim's.
    asserted = claim_text
    if question and claim_text.startswith(question):
        asserted = claim_text[len(question) :].strip() or claim_text
    asked_lower = question.lower() if question else ""
    claim_quantities = [
        q for q in extract_quantities(asserted) if not question or q.raw.lower() not in asked_lower
    ]
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
        asked = content_stems(question)
        novel = {s: w for s, w in stems.items() if s not in asked}
        if novel:
            stems = novel
    topk_stems: set[str] = set()
    per_chunk_cov: list[tuple[float, int]] = []
    for i, _ in top:
        topk_stems |= index.stems(i)
        per_chunk_cov.append((coverage(stems, index.stems(i)), i))
    sig.coverage_topk = coverage(stems, topk_stems)
    sig.coverage_all = coverage(stems, index.all_stems)
    missing_weights = [w for s, w in stems.items() if s not in index.all_stems]
    sig.novel_ok = 1.0 - max(missing_weights, default=0.0)
    seen: set[str] = set()
    for tok in tokens(bare):
        st = stem(tok.lower())
        if st in stems and st not in index.all_stems and st not in seen:
            seen.add(st)
            sig.missing.append(tok)

    # The chunk that talks about the same thing: best coverage, plus credit for stating the
    # claim's values; ties go to the most similar (``top`` is in similarity order).
    def alignment(entry: tuple[float, int]) -> float:
        cov, i = entry
        if not claim_quantities:
            return cov
        found = sum(
            any(quantities_match(q, e) for e in index.chunk_quantities(i)) for q in claim_quantities
        )
        return cov + 0.5 * found / len(claim_quantities)

    aligned_cov, aligned = max(per_chunk_cov, key=alignment)
    sig.coverage_best = aligned_cov
    sig.aligned = aligned

    # Quantities: each must appear somewhere in the evidence.
    if claim_quantities:
        evidence_q = index.all_quantities
        unmatched = [
            q for q in claim_quantities if not any(quantities_match(q, e) for _, e in evidence_q)
        ]
        sig.quantities_ok = 1.0 - len(unmatched) / len(claim_quantities)
        if unmatched and aligned_cov >= _ALIGNED_COVERAGE:
            # Rivals come from the aligned chunk and any other near chunk about the same thing;
            # a rival with the same unit ("36-month" vs "24-month") beats one nearby in text.
            near = [aligned] + [
                i for c, i in per_chunk_cov if i != aligned and c >= _ALIGNED_COVERAGE
            ]
            for q in unmatched:
                unit = _unit_after(asserted, q)
                found = [
                    (e, i) for i in near for e in index.chunk_quantities(i) if comparable(q, e)
                ]
                if found and unit:
                    # The evidence disagrees; a value with the claim's unit in a retrieved chunk
                    # that shares fewer words may still be the better rival ("24-month" over
                    # "12 months" when the claim says "36-month").
                    found += [
                        (e, i)
                        for c, i in per_chunk_cov
                        if i not in near and c >= _RIVAL_COVERAGE
                        for e in index.chunk_quantities(i)
                        if comparable(q, e) and _unit_after(index.chunks[i].text, e) == unit
                    ]
                if found:
                    rival, where = min(
                        found,
                        key=lambda t: (
                            _unit_after(index.chunks[t[1]].text, t[0]) != unit,
                            ("-" in t[0].raw) != ("-" in q.raw),
                            t[1] != aligned,
                            abs(t[0].start - q.start),
                        ),
                    )
                    sig.contradiction = _value_contradiction(q, rival, index.chunks[where])
                    sig.no_contradiction = 0.0
                    break
    if claim_quantities and sig.contradiction is None and aligned_cov >= _ALIGNED_COVERAGE:
        # A value found elsewhere in the evidence is still contradicted when the chunk about
        # the same thing gives another value of the same unit ("won four league titles" vs
        # "they won five League titles"; the "four" was about something else).
        here = index.chunk_quantities(aligned)
        text = index.chunks[aligned].text
        for q in claim_quantities:
            unit = _unit_after(asserted, q)
            if not unit or any(quantities_match(q, e) for e in here):
                continue
            rivals = [
                e
                for e in here
                if comparable(q, e)
                and _unit_after(text, e) == unit
                and not any(quantities_match(c, e) for c in claim_quantities)
            ]
            if rivals:
                rival = min(rivals, key=lambda e: abs(e.start - q.start))
                sig.contradiction = _value_contradiction(q, rival, index.chunks[aligned])
                sig.no_contradiction = 0.0
                break

    # Named entities: each must appear somewhere in the evidence.
    entities = [
        e for e, _, _ in extract_entities(asserted) if not question or e.lower() not in asked_lower
    ]
    if entities:
        missing_entities = [e for e in entities if not _entity_found(e, index)]
        sig.entities_ok = 1.0 - len(missing_entities) / len(entities)
        if missing_entities and sig.contradiction is None and aligned_cov >= 0.6:
            claim_lower = claim_text.lower()
            entity_rivals = [
                e
                for e in index.chunk_entities(aligned)
                if e.lower() not in claim_lower
                and e.lower() not in asked_lower
                and not any(stem(t.lower()) in stems for t in tokens(e))
            ]
            if entity_rivals:
                sig.contradiction = Contradiction(
                    kind="entity",
                    claim_value=missing_entities[0],
                    evidence_value=entity_rivals[0],
                    evidence_id=index.chunks[aligned].id,
                    quote=index.chunks[aligned].text,
                )
                sig.no_contradiction = 0.0

    # Negation: the aligned chunk says the opposite.
    # A bare answer to a question restates no negation, so only a negated answer can clash.
    if aligned_cov >= _NEGATION_COVERAGE and len(stems) >= 2 and not polar:
        # Only cues about what both say count: "nothing to do with Starbucks" in the chunk
        # says nothing about a claim that does not mention Starbucks.
        chunk_stems = index.stems(aligned)
        claim_neg = negations_about(asserted, chunk_stems) % 2
        chunk_neg = negations_about(index.chunks[aligned].text, set(stems)) % 2
        if claim_neg != chunk_neg and (claim_neg or asserted is claim_text):
            sig.negation_consistent = 0.0
            if sig.contradiction is None:
                sig.contradiction = Contradiction(
                    kind="negation",
                    claim_value=claim_text,
                    evidence_value="",
                    evidence_id=index.chunks[aligned].id,
                    quote=index.chunks[aligned].text,
                )
                sig.no_contradiction = 0.0
    return sig
