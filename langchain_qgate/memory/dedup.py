"""Near-duplicate dedup of episodes by direct cosine similarity of their embeddings.

A new episode is compared with the active episodes created inside the time window (48 h by
default). When the best cosine similarity is strictly above the threshold (0.85) the new
episode is skipped; the existing record is never modified and its key is never reused.
If the embedder fails, the check degrades to "not a duplicate" with a warning.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from langchain_qgate.memory._vectors import max_cosine
from langchain_qgate.memory.models import DedupUnavailableWarning, DuplicateCheck
from langchain_qgate.memory.policy import MemoryFilterPolicy

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from langchain_qgate.grounding.embeddings import Embedder

__all__ = ["find_duplicate", "try_embed", "warn_dedup_unavailable", "within_window"]

logger = logging.getLogger(__name__)

_FLOAT32_SLACK = 1e-6
"""Scores are float32: a cosine of exactly the threshold must not count as above it."""


def try_embed(embedder: Embedder, text: str) -> tuple[NDArray[np.float32] | None, str | None]:
    """Embed one text; on any embedder error return ``(None, message)`` instead of raising.

    Dedup is an optimisation: a failing model must not lose the user's memory, so the
    episode is then stored without the check (see :func:`warn_dedup_unavailable`).
    """
    try:
        vecs = np.asarray(embedder.embed([text]), dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[0] != 1 or not np.all(np.isfinite(vecs)):
            raise ValueError(f"embedder returned shape {vecs.shape} or non-finite values")
    except Exception as exc:
        logger.warning("embedding failed, dedup skipped: %s", exc)
        return None, f"{type(exc).__name__}: {exc}"
    return vecs[0], None


def warn_dedup_unavailable(message: str) -> None:
    """Emit the ``DedupUnavailableWarning`` for an embedder failure."""
    warnings.warn(
        f"episode stored without the duplicate check: the embedder failed ({message})",
        DedupUnavailableWarning,
        stacklevel=4,
    )


def within_window(created_at: float, now: float, window_seconds: float) -> bool:
    """Whether an item created at ``created_at`` is inside the window ending at ``now``."""
    return created_at >= now - window_seconds


def find_duplicate(
    vector: NDArray[np.float32] | None,
    candidates: Sequence[tuple[str, NDArray[np.float32]]],
    policy: MemoryFilterPolicy | None = None,
) -> DuplicateCheck:
    """Compare a new episode's vector with candidate ``(key, vector)`` pairs.

    The caller passes only active candidates inside the time window. ``vector=None``
    (the embedder failed) yields a degraded "not a duplicate" result. Candidates of another
    dimension (a different model) are ignored.

    Example:
        >>> import numpy as np
        >>> v = np.array([1.0, 0.0], dtype=np.float32)
        >>> find_duplicate(v, [("old", v)]).is_duplicate
        True
    """
    policy = policy or MemoryFilterPolicy()
    threshold = policy.dedup_threshold
    if vector is None:
        return DuplicateCheck(
            is_duplicate=False,
            threshold=threshold,
            degraded=True,
            reason="embedding failed; stored without the duplicate check",
        )
    dim = int(np.asarray(vector).reshape(-1).shape[0])
    usable = [(k, v) for k, v in candidates if v.reshape(-1).shape[0] == dim]
    if not usable:
        return DuplicateCheck(
            is_duplicate=False, threshold=threshold, reason="no active episode in the window"
        )
    matrix = np.stack([v.reshape(-1) for _, v in usable]).astype(np.float32)
    best, score = max_cosine(vector, matrix, faiss_min=policy.faiss_min_candidates)
    key = usable[best][0]
    dup = score > threshold + _FLOAT32_SLACK
    verb = "above" if dup else "not above"
    return DuplicateCheck(
        is_duplicate=dup,
        score=round(score, 6),
        match_key=key,
        candidates=len(usable),
        threshold=threshold,
        reason=f"closest episode {key!r} has cosine {score:.3f}, {verb} {threshold}",
    )
