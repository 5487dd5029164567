"""Shared fixtures: the fake embedder, the real bundled model, the benchmark data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain_qgate.grounding.evidence.embeddings import (
    CachedEmbedder,
    HashingEmbedder,
    default_embedder,
)

_DEFAULT_BENCHDATA = Path(__file__).resolve().parents[1].parent / "shared" / "benchdata"
BENCHDATA_DIR = Path(os.environ.get("QGATE_BENCHDATA", _DEFAULT_BENCHDATA))


@pytest.fixture
def hashing_embedder() -> HashingEmbedder:
    """A deterministic, model-free embedder."""
    return HashingEmbedder()


@pytest.fixture(scope="session")
def real_embedder() -> CachedEmbedder:
    """The bundled all-MiniLM-L6-v2 (loaded once per test session)."""
    return default_embedder()


def benchdata_missing(folder: Path) -> str | None:
    """Why the real-data tier cannot run from ``folder`` (naming the setting), or ``None``."""
    if (folder / "README.md").exists():
        return None
    return (
        f"benchmark data not found at {folder} (set QGATE_BENCHDATA=/path/to/benchdata, the "
        "folder with the benchmark JSONL files and their README.md)"
    )


@pytest.fixture(scope="session")
def benchdata_dir() -> Path:
    """``$QGATE_BENCHDATA``, else ``../shared/benchdata``; tests using it skip when absent."""
    reason = benchdata_missing(BENCHDATA_DIR)
    if reason is not None:
        pytest.skip(reason)
    return BENCHDATA_DIR
