"""Fakes shared by the memory tests: a settable clock and an embedder with chosen vectors."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder

HOUR = 3600.0
T0 = 1_800_000_000.0  # a fixed "now" (2027-01-15); the day boundary is irrelevant to tests


class FakeClock:
    """A clock the test moves by hand (no sleeps)."""

    def __init__(self, start: float = T0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def unit_at_cosine(cosine: float) -> list[float]:
    """A 2-d unit vector whose cosine with ``[1, 0]`` is ``cosine``."""
    return [cosine, math.sqrt(max(0.0, 1.0 - cosine * cosine))]


class ChosenVectorEmbedder:
    """Returns the vector chosen for each text (``[0, 1]``-ish padding for unknown texts)."""

    model_name = "chosen"

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        rows = []
        for text in texts:
            vec = np.asarray(self.vectors.get(text, [0.0, 1.0]), dtype=np.float32)
            rows.append(vec / np.linalg.norm(vec))
        return np.stack(rows).astype(np.float32)


class FailingEmbedder:
    """An embedder whose model is broken."""

    model_name = "broken"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise RuntimeError("model weights missing")


__all__ = [
    "HOUR",
    "T0",
    "ChosenVectorEmbedder",
    "FailingEmbedder",
    "FakeClock",
    "HashingEmbedder",
    "unit_at_cosine",
]
