"""The hallucination monitor: extract claims, grade each against the evidence, score.

Example:
    >>> monitor = HallucinationMonitor()
    >>> report = monitor.verify_grounding(
    ...     "Acme was founded in 2019.", ["Acme was founded in 2020 in Berlin."]
    ... )
    >>> report.verdicts[0].grade, report.verdicts[0].reason
    (<Grade.FABRICATED: 'fabricated'>, 'contradicted: the evidence says 2020, not 2019')
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from langchain_qgate._text import repair_text
from langchain_qgate.config import BUILTIN_CHECKS, GroundingPolicy
from langchain_qgate.errors import InputTooLargeError, InvalidInputError
from langchain_qgate.grounding.aggregate import Cutoffs, aggregate, answer_only, nearest_first
from langchain_qgate.grounding.checks.features import ClaimSignals, compute_signals
from langchain_qgate.grounding.checks.registry import protocol_checks, run_checks
from langchain_qgate.grounding.claims.claims import extract_claims, with_offers
from langchain_qgate.grounding.evidence.evidence import (
    EvidenceIndex,
    EvidenceInput,
    content_to_text,
)
from langchain_qgate.grounding.records._record_words import record_vocabulary
from langchain_qgate.grounding.verifier.crossencoder import is_record_window
from langchain_qgate.grounding.verifier.pair_signals import apply_pair_model
from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds
from langchain_qgate.grounding.verifier.verifiers import (
    RULES_ONLY,
    DeterministicVerifier,
    VerificationItem,
    VerifierLike,
    VerifierVerdict,
    arun_verifier,
    load_combination,
    run_verifier,
)
from langchain_qgate.schemas import (
    Claim,
    ClaimVerdict,
    EvidenceLink,
    Finding,
    Grade,
    GroundingReport,
)

if TYPE_CHECKING:
    from langchain_qgate.grounding.evidence.embeddings import Embedder
    from langchain_qgate.grounding.verifier.crossencoder import PairModel

__all__ = ["ChainStep", "ClaimExtractor", "EvidenceChain", "HallucinationMonitor"]

ClaimExtractor = Callable[..., list[Claim]]
"""``extract(text, *, question=None) -> list[Claim]``; ``extract_claims`` by default."""


class ChainStep(BaseModel):
    """One premise of an inferred claim: a grounded claim and the evidence behind it."""

    model_config = ConfigDict(frozen=True)

    claim_index: int
    claim_text: str
    grade: Grade
    evidence: list[EvidenceLink]


class EvidenceChain(BaseModel):
    """How an INFERRED claim traces back to grounded premises and their evidence."""

    model_config = ConfigDict(frozen=True)

    claim_index: int
    claim_text: str
    steps: list[ChainStep]
    direct_evidence: list[EvidenceLink]


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return repair_text(output)
    content = getattr(output, "content", None)
    if content is not None:
        # A message's text as LangChain reads it (text blocks joined as they are), so a
        # streamed answer whose chunks are content blocks reads as the same text as a string.
        text = getattr(output, "text", None)
        if not isinstance(content, str) and isinstance(text, str):
            return repair_text(text)
        return repair_text(content_to_text(content))
    raise InvalidInputError(
        "output", f"expected a string or a message, got {type(output).__name__}"
    )


def _pair_text(claim: str, question: str | None) -> str:
    """What the pair model reads of a claim: a "question + answer" claim whose answer is a
    sentence of its own is read as the answer (the verifier reads a question as asking, not
    stating); a short answer ("Paris") keeps its question, as in its training pairs."""
    if question and claim.startswith(question):
        answer = claim[len(question) :].strip()
        if len(answer.split()) > 6:
            return answer
    return claim


class HallucinationMonitor:
    """Grades every claim of an output against the evidence the agent actually saw.

    Args:
        policy: Options (thresholds, grade weights, limits, embedding model).
        embedder: Sentence embedder; the bundled all-MiniLM-L6-v2 (cached) by default.
        verifier: Turns signals into support; the deterministic verifier by default. Use a
            ``CascadeVerifier`` to send uncertain claims to an NLI model or an LLM.
        extractor: Claim extractor; ``extract_claims`` by default.

    Example:
        >>> monitor = HallucinationMonitor()
        >>> report = monitor.verify_grounding(answer, [doc1, doc2], question="...")
        >>> report.score, [v.grade for v in report.verdicts]
    """

    def __init__(
        self,
        *,
        policy: GroundingPolicy | None = None,
        embedder: Embedder | None = None,
        verifier: VerifierLike | None = None,
        extractor: ClaimExtractor | None = None,
    ) -> None:
        self.policy = policy or GroundingPolicy()
        if embedder is None:
            from langchain_qgate.grounding.evidence.embeddings import default_embedder

            embedder = default_embedder(
                self.policy.model_name,
                backend=self.policy.embedding_backend,
                quantized=self.policy.embedding_quantized,
            )
        self.embedder = embedder
        shipped = load_combination() if self.policy.pair_model else load_combination(RULES_ONLY)
        self.verifier: VerifierLike = verifier or DeterministicVerifier(shipped)
        self.extractor: ClaimExtractor = extractor or extract_claims
        self._pair_model: PairModel | None = None
        # Every cut-off on the verifier's probabilities, as the fitted model file records them.
        # GROUNDED says a source states the claim: with the verifier on, it also needs one
        # window the verifier reads as entailing it (``grounded_floor``); otherwise the claim is
        # at most INFERRED. Claims about a record are left to the typed field checks
        # (fields.py), a claim or window too long for the model to read whole (128 tokens) to
        # the other signals, and a claim that quotes its evidence word for word is GROUNDED
        # whatever the model reads.
        self.thresholds = VerifierThresholds.from_info(shipped.info)
        self.record_vocabulary = record_vocabulary(self.policy.record_vocabularies)
        self.grounded_threshold = (
            self.policy.grounded_threshold
            if self.policy.grounded_threshold is not None
            else shipped.grounded_threshold
        )
        self.fabricated_threshold = (
            self.policy.fabricated_threshold
            if self.policy.fabricated_threshold is not None
            else min(shipped.fabricated_threshold, self.grounded_threshold)
        )

    @property
    def cutoffs(self) -> Cutoffs:
        """What the aggregation step decides with (``grounding/aggregate.py``)."""
        return Cutoffs(
            grounded=self.grounded_threshold,
            fabricated=self.fabricated_threshold,
            thresholds=self.thresholds,
            weights=self.policy.weights,
            vocabulary=self.record_vocabulary,
            off=frozenset(self.policy.disabled_checks),
        )

    @property
    def pair_model(self) -> PairModel | None:
        """The claim-evidence verifier (``GroundingPolicy.pair_model``), loaded on first use."""
        name = self.policy.pair_model
        if name is None:
            return None
        if self._pair_model is None:
            from langchain_qgate.grounding.verifier.crossencoder import (
                PairModel,
                default_pair_model,
            )

            self._pair_model = default_pair_model() if name == "bundled" else PairModel(name)
        return self._pair_model

    @property
    def model_name(self) -> str:
        """Name of the embedding model."""
        return str(getattr(self.embedder, "model_name", type(self.embedder).__name__))

    def build_index(self, evidence: EvidenceInput) -> EvidenceIndex:
        """An evidence index with this monitor's embedder (reuse it across calls)."""
        if isinstance(evidence, EvidenceIndex):
            return evidence
        return EvidenceIndex(
            evidence,
            embedder=self.embedder,
            approximate_threshold=self.policy.approximate_index_threshold,
            max_chunks=self.policy.max_evidence_chunks,
        )

    # -- preparation shared by sync and async paths ------------------------------------------

    def prepare(
        self, output: Any, evidence: EvidenceInput, *, question: str | None = None
    ) -> tuple[list[Claim], EvidenceIndex, list[VerificationItem]]:
        """Extract claims, index the evidence and compute every claim's signals."""
        text = _output_text(output)
        if len(text) > self.policy.max_output_chars:
            raise InputTooLargeError(
                "output",
                len(text),
                self.policy.max_output_chars,
                setting="GroundingPolicy.max_output_chars",
            )
        if question is not None and not isinstance(question, str):
            raise InvalidInputError("question", f"expected a string, got {type(question).__name__}")
        question = repair_text(question) if question is not None else None
        # Claims and signals both see the question as stripped, so "Q? A" claims start with it.
        asked = question.strip() if question else ""
        q = asked if (asked and self.policy.verify_question) else None
        claims = self.extractor(text, question=q)
        limit = self.policy.max_claims
        if limit is not None and len(claims) > limit:  # the verifier's time grows per claim
            raise InputTooLargeError(
                "output", len(claims), limit, "claims", setting="GroundingPolicy.max_claims"
            )
        index = self.build_index(evidence)
        records = any(is_record_window(index, i) for i in range(len(index)))
        if self.extractor is extract_claims and records:
            claims = with_offers(text, claims)  # an offer of a tool's result states its values
            if limit is not None and len(claims) > limit:
                raise InputTooLargeError(
                    "output", len(claims), limit, "claims", setting="GroundingPolicy.max_claims"
                )
        if not claims:
            return claims, index, []
        # Only the chunks a lexical prefilter keeps for some claim are embedded and searched;
        # they and the claims go to the model in one call.
        texts = [c.text for c in claims]
        k = self.policy.prefilter_k
        rows = index.candidates(texts, max(k, self.policy.top_k)) if k is not None else None
        vecs = index.embed_queries(texts, embedder=self.embedder, rows=rows)
        scores, neighbours = index.search(vecs, self.policy.top_k, rows=rows)
        off = frozenset(self.policy.disabled_checks)
        all_signals = [
            compute_signals(claim.text, index, scores[row], neighbours[row], question=q, off=off)
            if len(index)
            else ClaimSignals(quantities_ok=0.0, entities_ok=0.0)
            for row, claim in enumerate(claims)
        ]
        pair = self.pair_model
        if pair is not None and len(index):
            apply_pair_model(
                pair,
                [_pair_text(t, q) for t in texts],
                all_signals,
                index,
                windows=self.policy.pair_windows,
                contradict=self.thresholds.contradict,
                overrule=self.thresholds.overrule,
                substitute=self.thresholds.substitute,
                denied=self.thresholds.denied,
                no_support=self.thresholds.no_support,
                off=off,
            )
        items: list[VerificationItem] = []
        for claim, signals in zip(claims, all_signals, strict=True):
            chunks = [index.chunks[i] for i, _ in signals.top]
            found = self._check_findings(claim, signals, index, question, records=records)
            items.append(VerificationItem(claim, chunks, signals, question, found))
        return claims, index, items

    def _check_findings(
        self,
        claim: Claim,
        sig: ClaimSignals,
        index: EvidenceIndex,
        question: str | None,
        *,
        records: bool,
    ) -> list[Finding]:
        """The checks of the ``Check`` protocol on one claim (the built-in ``list_pick``, then
        the user's own, ``GroundingPolicy.checks``): the answer as it states it, and every
        chunk, its nearest first (``registry.py``)."""
        # lists are records, and a list read in part (a note says what was cut) has no extremes
        whole = records and not index.notes
        off = self.policy.disabled_checks if whole else BUILTIN_CHECKS
        checks = protocol_checks(off, self.policy.checks)
        if not checks or not len(index):
            return []
        near = [i for i, _ in nearest_first(sig)]
        taken = set(near)
        rest = [i for i in range(len(index)) if i not in taken]
        evidence = [index.chunks[i] for i in near + rest]
        return run_checks(checks, answer_only(claim, question).text, evidence)

    def _report(
        self,
        claims: list[Claim],
        index: EvidenceIndex,
        items: list[VerificationItem],
        verdicts: list[VerifierVerdict],
        question: str | None,
    ) -> GroundingReport:
        base = {
            "evidence_count": len(index),
            "question": question,
            "model_name": self.model_name,
            "notes": list(index.notes),
        }
        if not claims:
            return GroundingReport(
                score=self.policy.no_claims_score,
                reason="no checkable claims in the output (only questions, greetings, "
                "meta text or code)",
                **base,
            )
        graded = aggregate(items, verdicts, index, self.cutoffs)
        counted = [v for v in graded if v.counted]
        if not counted:
            return GroundingReport(
                score=self.policy.no_claims_score,
                verdicts=graded,
                reason="only opinions: labelled, not counted against the output",
                **base,
            )
        score = float(np.mean([v.credit for v in counted]))
        reason = "" if len(index) else "no evidence was provided: nothing can be grounded"
        return GroundingReport(
            score=min(1.0, max(0.0, score)), verdicts=graded, reason=reason, **base
        )

    # -- public API ---------------------------------------------------------------------------

    def verify_grounding(
        self,
        output: Any,
        evidence: EvidenceInput,
        *,
        question: str | None = None,
        verifier: VerifierLike | None = None,
    ) -> GroundingReport:
        """Grade every claim of ``output`` against ``evidence``.

        Args:
            output: The answer: a string, or a message (content blocks are flattened).
            evidence: Strings, Documents, ToolMessages, EvidenceChunks, dicts, an
                ``EvidenceIndex``, or a sequence of these.
            question: The user question; short answers are verified together with it.
            verifier: Grade this call's claims with this verifier instead of the monitor's
                (the gate hands text it cannot read to the LLM verifier this way).

        Returns:
            The per-claim report with the grounding score.

        Invalid Unicode (lone surrogates) in the output, the question or the evidence is
        read as U+FFFD before anything reaches the embedder.

        Raises:
            InvalidInputError: Wrong types (also a ``ValueError``).
            InputTooLargeError: Output or evidence over the configured limits.
        """
        question = repair_text(question) if isinstance(question, str) else question
        claims, index, items = self.prepare(output, evidence, question=question)
        chosen = self.verifier if verifier is None else verifier
        verdicts = run_verifier(chosen, items) if items else []
        return self._report(claims, index, items, verdicts, question)

    async def averify_grounding(
        self,
        output: Any,
        evidence: EvidenceInput,
        *,
        question: str | None = None,
        verifier: VerifierLike | None = None,
    ) -> GroundingReport:
        """Async twin of :meth:`verify_grounding` (embedding runs in a worker thread)."""
        question = repair_text(question) if isinstance(question, str) else question
        claims, index, items = await asyncio.to_thread(
            self.prepare, output, evidence, question=question
        )
        chosen = self.verifier if verifier is None else verifier
        verdicts = await arun_verifier(chosen, items) if items else []
        return self._report(claims, index, items, verdicts, question)

    @staticmethod
    def trace_evidence_chain(
        report: GroundingReport, claim: int | Claim | ClaimVerdict
    ) -> EvidenceChain:
        """The chain from a claim back to its grounded premises and their evidence.

        For a GROUNDED claim the chain has no steps and its direct evidence; for an
        INFERRED claim each step is a grounded premise with the evidence it rests on.
        """
        idx = (
            claim
            if isinstance(claim, int)
            else (claim.claim.index if isinstance(claim, ClaimVerdict) else claim.index)
        )
        by_index = {v.claim.index: v for v in report.verdicts}
        if idx not in by_index:
            raise InvalidInputError("claim", f"no claim with index {idx} in the report")
        target = by_index[idx]
        steps = [
            ChainStep(
                claim_index=p,
                claim_text=by_index[p].claim.text,
                grade=by_index[p].grade,
                evidence=by_index[p].evidence,
            )
            for p in target.premises
            if p in by_index
        ]
        direct = target.evidence if target.grade is Grade.GROUNDED else []
        return EvidenceChain(
            claim_index=idx, claim_text=target.claim.text, steps=steps, direct_evidence=direct
        )
