"""Numeric pieces of the tool-gating learning signal (see ``LearningSignal`` for definitions)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["LEXICAL_COHERENCE_CEILING", "flatness", "lexical_coherence", "map_unit",
           "mean_pairwise_cosine"]  # fmt: skip

LEXICAL_COHERENCE_CEILING = 0.25
"""Mean pairwise word Jaccard mapped to coherence 1 when no embedder is available."""

_WORD = re.compile(r"\w{3,}", re.UNICODE)


def map_unit(values: NDArray[np.float64], floor: float, ceiling: float) -> NDArray[np.float64]:
    """Linear map sending ``floor`` to 0 and ``ceiling`` to 1, clipped to ``[0, 1]``."""
    return np.clip((values - floor) / (ceiling - floor), 0.0, 1.0)


def flatness(matches: NDArray[np.float64], temperature: float) -> float:
    """Normalized Shannon entropy of ``softmax(matches / temperature)``; 0 for one item."""
    n = int(matches.shape[0])
    if n <= 1:
        return 0.0
    z = matches / temperature
    z = z - z.max()
    p = np.exp(z)
    p /= p.sum()
    nz = p[p > 0]
    h = float(-(nz * np.log(nz)).sum())
    return float(min(max(h / math.log(n), 0.0), 1.0))


def mean_pairwise_cosine(vectors: NDArray[np.float64]) -> float | None:
    """Mean cosine over distinct pairs of L2-normalised rows; ``None`` for fewer than two."""
    n = int(vectors.shape[0])
    if n < 2:
        return None
    gram = vectors @ vectors.T
    upper = gram[np.triu_indices(n, k=1)]
    return float(upper.mean())


def lexical_coherence(texts: Sequence[str]) -> float:
    """Mean pairwise Jaccard of word sets (words of 3+ characters), mapped to ``[0, 1]``.

    One text gives 1.0. Used when scores come from the retriever and no embedder is set.
    """
    if len(texts) < 2:
        return 1.0
    sets = [set(_WORD.findall(t.lower())) for t in texts]
    total, pairs = 0.0, 0
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            union = sets[i] | sets[j]
            total += len(sets[i] & sets[j]) / len(union) if union else 0.0
            pairs += 1
    return float(min(total / pairs / LEXICAL_COHERENCE_CEILING, 1.0))
