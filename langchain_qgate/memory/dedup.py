"""Near-duplicate dedup of episodes by direct cosine similarity of their embeddings.

A new episode is compared with the active episodes created inside the time window (48 h by
default). When the best cosine similarity is strictly above the threshold (0.85) the new
episode is skipped; the existing record is never modified and its key is never reused.
If the embedder fails, the check degrades to "not a duplicate" with a warning. By default a
near-duplicate that brings numbers or identifiers its match lacks is kept (see
``MemoryFilterPolicy.dedup_keep_new_details``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from langchain_qgate.memory._vectors import ranked_cosine
from langchain_qgate.memory._warn import warn_at_caller
from langchain_qgate.memory.models import DedupUnavailableWarning, DuplicateCheck
from langchain_qgate.memory.policy import MemoryFilterPolicy

if TYPE_CHECKING:
    from langchain_qgate.grounding.evidence.embeddings import Embedder

__all__ = [
    "DedupCandidate",
    "WordSimilarity",
    "detail_tokens",
    "find_duplicate",
    "try_embed",
    "warn_dedup_unavailable",
    "within_window",
    "word_swaps",
]

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
    warn_at_caller(
        f"episode stored without the duplicate check: the embedder failed ({message})",
        DedupUnavailableWarning,
    )


def within_window(created_at: float, now: float, window_seconds: float) -> bool:
    """Whether an item created at ``created_at`` is inside the window ending at ``now``."""
    return created_at >= now - window_seconds


class DedupCandidate(NamedTuple):
    """An active episode inside the window: its key, embedding and (optionally) text."""

    key: str
    vector: NDArray[np.float32]
    text: str | None = None


_TOKEN = re.compile(r"[^\s,;()\[\]{}<>\"'`]+")
_IDENT = re.compile(r"\d|\w[./:_@-]\w|[a-z][A-Z]|^[A-Z]{2,}\d*$")


def detail_tokens(text: str) -> frozenset[str]:
    """Numbers and identifiers in ``text``: what tells two similar facts apart.

    A token counts when it has a digit (``512Mi``, ``v2.3``, ``02:00``), internal ``.``,
    ``/``, ``:``, ``_``, ``@`` or ``-`` (``secret/auth/prod``, ``db.example.com``,
    ``billing-dlq``), camelCase or is an acronym (``DATABASE_URL``). Trailing sentence
    punctuation is ignored.

    Example:
        >>> sorted(detail_tokens("Scaled billing to 11 pods via hpa/queue-depth."))
        ['11', 'hpa/queue-depth']
    """
    out: set[str] = set()
    for raw in _TOKEN.findall(text):
        tok = raw.strip(".:!?")
        if tok and _IDENT.search(tok):
            out.add(tok)
    return frozenset(out)


WordSimilarity = Callable[[Sequence[tuple[str, str]]], Sequence[float]]
"""Cosine similarity of each ``(new_word, old_word)`` pair (the store uses its embedder)."""

_WORDS = re.compile(r"\w+")


def word_swaps(new: str, old: str, *, max_pairs: int = 2) -> tuple[tuple[str, str], ...]:
    """The ``(new, old)`` word pairs when ``new`` is ``old`` with one or two words swapped.

    Empty unless both texts have the same number of words and differ in 1..``max_pairs``
    distinct substitutions (a template filled with another subject).

    Example:
        >>> word_swaps("The pricing dashboard is up", "The search dashboard is up")
        (('pricing', 'search'),)
    """
    a, b = _WORDS.findall(new.lower()), _WORDS.findall(old.lower())
    if len(a) != len(b):
        return ()
    pairs = sorted({(x, y) for x, y in zip(a, b, strict=True) if x != y})
    return tuple(pairs) if 0 < len(pairs) <= max_pairs else ()


def _dissimilar_swaps(
    new: str, old: str, similarity: WordSimilarity, policy: MemoryFilterPolicy
) -> frozenset[str]:
    swaps = word_swaps(new, old)
    if not swaps:
        return frozenset()
    try:
        sims = list(similarity(swaps))
    except Exception as exc:  # the check is a refinement: never fail the put for it
        logger.warning("word similarity failed, swap check skipped: %s", exc)
        return frozenset()
    return frozenset(
        n for (n, _), sim in zip(swaps, sims, strict=True) if sim < policy.dedup_swap_similarity
    )


def find_duplicate(
    vector: NDArray[np.float32] | None,
    candidates: Sequence[DedupCandidate | tuple[str, NDArray[np.float32]]],
    policy: MemoryFilterPolicy | None = None,
    *,
    text: str | None = None,
    word_similarity: WordSimilarity | None = None,
) -> DuplicateCheck:
    """Compare a new episode's vector with the candidates by direct cosine similarity.

    The caller passes only active candidates inside the time window. ``vector=None``
    (the embedder failed) yields a degraded "not a duplicate" result. Candidates of another
    dimension (a different model) are ignored.

    With ``policy.dedup_keep_new_details`` (the default) and ``text`` given, a candidate
    above the threshold only makes the new episode a duplicate when it contains every
    number and identifier of the new one (:func:`detail_tokens`): "billing pods scaled to
    11" and "search pods scaled to 15" score 0.9 with MiniLM yet are different facts.
    With ``word_similarity`` too, a candidate that differs from the new text only by one or
    two swapped words (:func:`word_swaps`) whose similarity is under
    ``policy.dedup_swap_similarity`` is not a match either ("the pricing dashboard ..." vs
    "the search dashboard ..."), while "Hi, what can you do?" still matches "Hello, ...".

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
    usable = _same_dimension(vector, candidates)
    if not usable:
        return DuplicateCheck(
            is_duplicate=False, threshold=threshold, reason="no active episode in the window"
        )
    matrix = np.stack([c.vector.reshape(-1) for c in usable]).astype(np.float32)
    order, scores = ranked_cosine(vector, matrix, faiss_min=policy.faiss_min_candidates)
    guard = policy.dedup_keep_new_details and text is not None
    mine = detail_tokens(text) if guard and text is not None else frozenset()
    best_key, best_score = usable[order[0]].key, scores[0]
    vetoed: tuple[str, ...] = ()
    for idx, score in zip(order, scores, strict=True):
        if score <= threshold + _FLOAT32_SLACK:
            break
        cand = usable[idx]
        missing: frozenset[str] = (
            mine - detail_tokens(cand.text) if cand.text is not None else frozenset()
        )
        if not missing and guard and word_similarity is not None and cand.text is not None:
            missing = _dissimilar_swaps(text or "", cand.text, word_similarity, policy)
        if not missing:
            return DuplicateCheck(
                is_duplicate=True,
                score=round(score, 6),
                match_key=cand.key,
                candidates=len(usable),
                threshold=threshold,
                reason=f"episode {cand.key!r} has cosine {score:.3f}, above {threshold}",
            )
        if not vetoed:
            vetoed = tuple(sorted(missing))
    return _kept(best_key, best_score, threshold, len(usable), vetoed)


def _same_dimension(
    vector: NDArray[np.float32],
    candidates: Sequence[DedupCandidate | tuple[str, NDArray[np.float32]]],
) -> list[DedupCandidate]:
    """The candidates of the new vector's dimension (another model's are ignored)."""
    dim = int(np.asarray(vector).reshape(-1).shape[0])
    usable = [DedupCandidate(*c) for c in candidates]
    return [c for c in usable if c.vector.reshape(-1).shape[0] == dim]


def _kept(
    best_key: str, best_score: float, threshold: float, n: int, vetoed: tuple[str, ...]
) -> DuplicateCheck:
    """No duplicate: the closest episode is under the threshold, or every one above it lacks
    a detail of the new episode (``vetoed``)."""
    if vetoed:
        shown = ", ".join(vetoed[:5])
        reason = (
            f"closest episode {best_key!r} has cosine {best_score:.3f}, above {threshold}, "
            f"but the new episode adds details it lacks ({shown}); kept"
        )
    else:
        reason = f"closest episode {best_key!r} has cosine {best_score:.3f}, not above {threshold}"
    return DuplicateCheck(
        is_duplicate=False,
        score=round(best_score, 6),
        match_key=best_key,
        candidates=n,
        threshold=threshold,
        new_details=vetoed,
        reason=reason,
    )
