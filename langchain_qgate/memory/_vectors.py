"""Vector helpers for dedup: compact encoding in store values and exact max-cosine search."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["decode_vector", "encode_vector", "max_cosine", "normalise", "ranked_cosine"]


def encode_vector(vector: NDArray[np.float32]) -> str:
    """Base64 of the little-endian float32 bytes (exact and about 5x smaller than a list)."""
    arr = np.ascontiguousarray(vector, dtype="<f4").reshape(-1)
    return base64.b64encode(arr.tobytes()).decode("ascii")


def decode_vector(text: object) -> NDArray[np.float32] | None:
    """Inverse of :func:`encode_vector`; ``None`` for anything that is not a valid vector.

    A plain list of numbers is accepted too (values written by other tools).
    """
    try:
        if isinstance(text, str):
            raw = base64.b64decode(text.encode("ascii"), validate=True)
            if not raw or len(raw) % 4:
                return None
            return np.frombuffer(raw, dtype="<f4").astype(np.float32)
        if isinstance(text, list) and text:
            return np.asarray(text, dtype=np.float32).reshape(-1)
    except (ValueError, TypeError):
        return None
    return None


def normalise(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    """Rows scaled to unit length (zero rows stay zero), so inner product = cosine."""
    arr = np.asarray(matrix, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    out: NDArray[np.float32] = (arr / np.maximum(norms, 1e-12)).astype(np.float32)
    return out


def ranked_cosine(
    query: NDArray[np.float32], candidates: NDArray[np.float32], *, faiss_min: int = 256
) -> tuple[list[int], list[float]]:
    """Candidate row indices by descending cosine similarity to ``query``, with the scores.

    Exact either way: numpy for small sets, FAISS ``IndexFlatIP`` from ``faiss_min`` rows.

    Raises:
        ValueError: ``candidates`` is empty or the dimensions differ.
    """
    q = normalise(query)
    c = normalise(candidates)
    if c.shape[0] == 0:
        raise ValueError("no candidates")
    if q.shape[1] != c.shape[1]:
        raise ValueError(f"dimension mismatch: {q.shape[1]} vs {c.shape[1]}")
    if c.shape[0] >= faiss_min:
        import faiss

        index = faiss.IndexFlatIP(c.shape[1])
        index.add(c)
        scores, ids = index.search(q, c.shape[0])
        return [int(i) for i in ids[0]], [float(s) for s in scores[0]]
    sims = c @ q[0]
    order = np.argsort(-sims, kind="stable")
    return [int(i) for i in order], [float(sims[i]) for i in order]


def max_cosine(
    query: NDArray[np.float32], candidates: NDArray[np.float32], *, faiss_min: int = 256
) -> tuple[int, float]:
    """Index and cosine similarity of the candidate row closest to ``query``."""
    order, scores = ranked_cosine(query, candidates, faiss_min=faiss_min)
    return order[0], scores[0]
