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

from pydantic import BaseModel, ConfigDict

from langchain_qgate._text import repair_text
from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import InputTooLargeError, InvalidInputError
from langchain_qgate.grounding.aggregate import Cutoffs
from langchain_qgate.grounding.claims.claims import extract_claims
from langchain_qgate.grounding.evidence.evidence import (
    EvidenceIndex,
    EvidenceInput,
    content_to_text,
)
from langchain_qgate.grounding.pipeline import agrade, grade, prepare
from langchain_qgate.grounding.records._record_words import record_vocabulary
from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds
from langchain_qgate.grounding.verifier.verifiers import (
    RULES_ONLY,
    DeterministicVerifier,
    VerificationItem,
    VerifierLike,
    load_combination,
)
from langchain_qgate.schemas import (
    Claim,
    ClaimVerdict,
    EvidenceLink,
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

    # -- the stages: grounding/pipeline.py ---------------------------------------------------

    def prepare(
        self, output: Any, evidence: EvidenceInput, *, question: str | None = None
    ) -> tuple[list[Claim], EvidenceIndex, list[VerificationItem]]:
        """Extract claims, index the evidence and compute every claim's signals: the output and
        the question read within this monitor's limits, then ``pipeline.prepare``."""
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
        return prepare(self, text, evidence, question, q)  # grounding/pipeline.py

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
        prepared = self.prepare(output, evidence, question=question)
        chosen = self.verifier if verifier is None else verifier
        return grade(self, prepared, chosen, question)

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
        prepared = await asyncio.to_thread(self.prepare, output, evidence, question=question)
        chosen = self.verifier if verifier is None else verifier
        return await agrade(self, prepared, chosen, question)

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
