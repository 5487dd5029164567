"""Grounding: claim extraction, the evidence index, consistency checks, verifiers, monitor.

Names are imported lazily, so ``import langchain_qgate.grounding.embeddings`` stays light.

The bottom system: it depends only on the shared leaves (``errors``, ``schemas``, ``config``,
``_text``) and its models; every other system may use it, it uses none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_qgate._lazy import load_lazily

if TYPE_CHECKING:
    from langchain_qgate.grounding.claims import classify_sentence, extract_claims
    from langchain_qgate.grounding.embeddings import (
        CachedEmbedder,
        Embedder,
        HashingEmbedder,
        SentenceTransformerEmbedder,
        default_embedder,
    )
    from langchain_qgate.grounding.evidence import EvidenceIndex
    from langchain_qgate.grounding.monitor import ChainStep, EvidenceChain, HallucinationMonitor
    from langchain_qgate.grounding.onnx_embedder import OnnxEmbedder
    from langchain_qgate.grounding.verifiers import (
        CascadeVerifier,
        CombinationModel,
        DeterministicVerifier,
        LLMVerifier,
        NLIVerifier,
        VerificationItem,
        Verifier,
        VerifierVerdict,
    )

_WHERE = {
    "classify_sentence": "claims",
    "extract_claims": "claims",
    "CachedEmbedder": "embeddings",
    "Embedder": "embeddings",
    "HashingEmbedder": "embeddings",
    "SentenceTransformerEmbedder": "embeddings",
    "default_embedder": "embeddings",
    "EvidenceIndex": "evidence",
    "ChainStep": "monitor",
    "EvidenceChain": "monitor",
    "HallucinationMonitor": "monitor",
    "OnnxEmbedder": "onnx_embedder",
    "CascadeVerifier": "verifiers",
    "CombinationModel": "verifiers",
    "DeterministicVerifier": "verifiers",
    "LLMVerifier": "verifiers",
    "NLIVerifier": "verifiers",
    "VerificationItem": "verifiers",
    "Verifier": "verifiers",
    "VerifierVerdict": "verifiers",
}

__all__ = [
    "CachedEmbedder",
    "CascadeVerifier",
    "ChainStep",
    "CombinationModel",
    "DeterministicVerifier",
    "Embedder",
    "EvidenceChain",
    "EvidenceIndex",
    "HallucinationMonitor",
    "HashingEmbedder",
    "LLMVerifier",
    "NLIVerifier",
    "OnnxEmbedder",
    "SentenceTransformerEmbedder",
    "VerificationItem",
    "Verifier",
    "VerifierVerdict",
    "classify_sentence",
    "default_embedder",
    "extract_claims",
]


def __getattr__(name: str) -> Any:
    return load_lazily(__name__, _WHERE, globals(), name)
