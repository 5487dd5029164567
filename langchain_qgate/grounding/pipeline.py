"""One answer through grounding, the stages in order (``HallucinationMonitor`` runs them).

1. claims (``claims/``): the answer's text as typed claims.
2. evidence (``evidence/``): the evidence as one index; each claim's nearest chunks.
3. checks (``checks/``): the built-in prose checks give each claim's signals.
4. verifier (``verifier/``): the claim-evidence model reads each claim with its nearest
   windows, the checks of the ``Check`` protocol read it against every chunk, and the verifier
   turns its signals into support.
5. aggregation (``aggregate.py``, with the record checks of ``records/``): each claim's grade,
   contradiction and reason, decided once, and the score.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import InputTooLargeError
from langchain_qgate.grounding.aggregate import Cutoffs, report
from langchain_qgate.grounding.checks.features import ClaimSignals, compute_signals
from langchain_qgate.grounding.checks.registry import claim_findings
from langchain_qgate.grounding.claims.claims import extract_claims, with_offers
from langchain_qgate.grounding.verifier.crossencoder import is_record_window
from langchain_qgate.grounding.verifier.pair_signals import apply_pair_model, pair_text
from langchain_qgate.grounding.verifier.verifiers import (
    VerificationItem,
    VerifierLike,
    arun_verifier,
    run_verifier,
)
from langchain_qgate.schemas import Claim, GroundingReport

if TYPE_CHECKING:
    from langchain_qgate.grounding.evidence.embeddings import Embedder
    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex, EvidenceInput
    from langchain_qgate.grounding.verifier.crossencoder import PairModel
    from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds

__all__ = ["Monitor", "Prepared", "agrade", "grade", "prepare"]

Prepared = tuple[list[Claim], "EvidenceIndex", list[VerificationItem]]
"""The claims, the evidence index and every claim's item for the verifier."""


class Monitor(Protocol):
    """What the stages read of a ``HallucinationMonitor``: its settings and its models."""

    policy: GroundingPolicy
    embedder: Embedder
    extractor: Callable[..., list[Claim]]
    thresholds: VerifierThresholds

    @property
    def pair_model(self) -> PairModel | None: ...
    @property
    def cutoffs(self) -> Cutoffs: ...
    @property
    def model_name(self) -> str: ...
    def build_index(self, evidence: EvidenceInput) -> EvidenceIndex: ...


def prepare(
    monitor: Monitor, text: str, evidence: EvidenceInput, question: str | None, q: str | None
) -> Prepared:
    """Stages 1 to 4 up to the verifier: the claims, the evidence index and every claim's item
    (its chunks, signals and findings); ``q`` is the question the claims are read with."""
    policy = monitor.policy
    claims = _at_most(policy, monitor.extractor(text, question=q))  # 1. claims
    index = monitor.build_index(evidence)  # 2. evidence
    records = any(is_record_window(index, i) for i in range(len(index)))
    if monitor.extractor is extract_claims and records:
        claims = _at_most(policy, with_offers(text, claims))  # an offer states its values
    if not claims:
        return claims, index, []
    # Only the chunks a lexical prefilter keeps for some claim are embedded and searched;
    # they and the claims go to the model in one call.
    texts = [c.text for c in claims]
    k = policy.prefilter_k
    rows = index.candidates(texts, max(k, policy.top_k)) if k is not None else None
    vecs = index.embed_queries(texts, embedder=monitor.embedder, rows=rows)
    scores, neighbours = index.search(vecs, policy.top_k, rows=rows)
    off = frozenset(policy.disabled_checks)
    signals = [  # 3. checks
        compute_signals(claim.text, index, scores[row], neighbours[row], question=q, off=off)
        if len(index)
        else ClaimSignals(quantities_ok=0.0, entities_ok=0.0)
        for row, claim in enumerate(claims)
    ]
    pair = monitor.pair_model  # 4. verifier: the claim-evidence model, then the protocol checks
    if pair is not None and len(index):
        cut = monitor.thresholds
        apply_pair_model(
            pair, [pair_text(t, q) for t in texts], signals, index, windows=policy.pair_windows,
            contradict=cut.contradict, overrule=cut.overrule, substitute=cut.substitute,
            denied=cut.denied, no_support=cut.no_support, off=off,
        )  # fmt: skip
    items: list[VerificationItem] = []
    for claim, sig in zip(claims, signals, strict=True):
        chunks = [index.chunks[i] for i, _ in sig.top]
        found = claim_findings(
            claim, sig, index, question, policy.disabled_checks, policy.checks, records=records
        )
        items.append(VerificationItem(claim, chunks, sig, question, found))
    return claims, index, items


def grade(
    monitor: Monitor, prepared: Prepared, verifier: VerifierLike, question: str | None
) -> GroundingReport:
    """4. The verifier's support for every claim; 5. one aggregation step and the score."""
    claims, index, items = prepared
    verdicts = run_verifier(verifier, items) if items else []
    return report(
        claims, index, items, verdicts, question, monitor.cutoffs,
        model_name=monitor.model_name, no_claims_score=monitor.policy.no_claims_score,
    )  # fmt: skip


async def agrade(
    monitor: Monitor, prepared: Prepared, verifier: VerifierLike, question: str | None
) -> GroundingReport:
    """Async twin of :func:`grade` (the verifier's ``averify`` when it has one)."""
    claims, index, items = prepared
    verdicts = await arun_verifier(verifier, items) if items else []
    return report(
        claims, index, items, verdicts, question, monitor.cutoffs,
        model_name=monitor.model_name, no_claims_score=monitor.policy.no_claims_score,
    )  # fmt: skip


def _at_most(policy: GroundingPolicy, claims: list[Claim]) -> list[Claim]:
    limit = policy.max_claims
    if limit is not None and len(claims) > limit:  # the verifier's time grows per claim
        raise InputTooLargeError(
            "output", len(claims), limit, "claims", setting="GroundingPolicy.max_claims"
        )
    return claims
