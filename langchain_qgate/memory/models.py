"""Verdicts, outcomes and warnings of the memory noise filters (plain data, JSON round-trip)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "DecisionNoiseVerdict",
    "DecisionNoiseWarning",
    "DedupUnavailableWarning",
    "DuplicateCheck",
    "MemoryFilterWarning",
    "NoiseReason",
    "PutAction",
    "PutOutcome",
    "SignificanceReason",
    "SignificanceVerdict",
]

SignificanceReason = Literal[
    "first_turn", "tools_used", "multi_turn", "substantial_content", "remember_request"
]
"""Why a turn is worth an episode (every reason that applies is listed)."""

NoiseReason = Literal["empty", "too_short", "status_words"]
"""Why a decision is noise: no text, short without reasons, or mostly status words."""

PutAction = Literal[
    "stored",
    "updated",
    "stored_flagged",
    "skipped_insignificant",
    "skipped_duplicate",
    "skipped_noise",
    "passed_through",
]
"""What a filtered put did. ``updated``: the key already existed, so it is not a new episode
(no significance or dedup check). ``passed_through``: the namespace is not managed."""


class MemoryFilterWarning(UserWarning):
    """Base category of the memory filters' warnings (filter them with this class)."""


class DecisionNoiseWarning(MemoryFilterWarning):
    """A decision looks like a status report rather than a decision."""


class DedupUnavailableWarning(MemoryFilterWarning):
    """The embedder failed, so an episode was stored without the duplicate check."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SignificanceVerdict(_Frozen):
    """Whether a turn creates an episode, and why.

    Attributes:
        significant: ``True`` when at least one reason applies.
        reasons: Every reason that applies (empty when the turn is trivial).
    """

    significant: bool
    reasons: tuple[SignificanceReason, ...] = ()


class DuplicateCheck(_Frozen):
    """Result of the near-duplicate check of a new episode.

    Attributes:
        is_duplicate: ``True`` when the best match is strictly above the threshold.
        score: Cosine similarity of the best active candidate (``None`` without one).
        match_key: Key of the best candidate (``None`` without one).
        candidates: Active episodes inside the time window that were compared.
        threshold: The threshold used.
        degraded: ``True`` when the embedder failed and the check was skipped.
        new_details: Numbers/identifiers of the new episode missing from an above-threshold
            match, which kept it (empty otherwise).
        reason: One line saying what happened.
    """

    is_duplicate: bool
    score: float | None = None
    match_key: str | None = None
    candidates: int = 0
    threshold: float
    degraded: bool = False
    new_details: tuple[str, ...] = ()
    reason: str


class DecisionNoiseVerdict(_Frozen):
    """Whether a decision is noise.

    Attributes:
        noisy: ``True`` when the decision looks like a status report or is too thin.
        reason: The rule that fired (``None`` when not noisy).
        status_share: Share of status words among the non-filler words.
        has_reasons: Whether the decision came with at least one non-empty reason.
        detail: One line for humans.
    """

    noisy: bool
    reason: NoiseReason | None = None
    status_share: float = 0.0
    has_reasons: bool = False
    detail: str


class PutOutcome(_Frozen):
    """What a put through :class:`~langchain_qgate.memory.QualityFilteredStore` did.

    Attributes:
        namespace: Namespace of the put.
        key: Key of the put.
        kind: Which filter applied.
        action: What happened to the item.
        significance: The significance verdict (episodes only).
        duplicate: The dedup check (episodes that passed significance only).
        decision: The noise verdict (decisions only).
    """

    namespace: tuple[str, ...]
    key: str
    kind: Literal["episode", "decision", "other"]
    action: PutAction
    significance: SignificanceVerdict | None = None
    duplicate: DuplicateCheck | None = None
    decision: DecisionNoiseVerdict | None = None

    @property
    def stored(self) -> bool:
        """Whether the item was written to the underlying store."""
        return not self.action.startswith("skipped")
