"""Grounding: claim extraction, the evidence index, consistency checks, verifiers, monitor.

One folder per stage (``claims/``, ``evidence/``, ``checks/``, ``verifier/``, ``records/``),
run in order by ``pipeline.py``; ``monitor.py`` holds ``HallucinationMonitor``. Names are
imported lazily, so ``import langchain_qgate.grounding.evidence.embeddings`` stays light.

The bottom system: it depends only on the shared leaves (``errors``, ``schemas``, ``config``,
``_text``) and its models; every other system may use it, it uses none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_qgate._lazy import load_lazily

if TYPE_CHECKING:
    from langchain_qgate.grounding.claims.claims import classify_sentence, extract_claims
    from langchain_qgate.grounding.evidence.embeddings import (
        CachedEmbedder,
        Embedder,
        HashingEmbedder,
        SentenceTransformerEmbedder,
        default_embedder,
    )
    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
    from langchain_qgate.grounding.evidence.onnx_embedder import OnnxEmbedder
    from langchain_qgate.grounding.monitor import ChainStep, EvidenceChain, HallucinationMonitor
    from langchain_qgate.grounding.verifier.verifiers import (
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
    "classify_sentence": "claims.claims",
    "extract_claims": "claims.claims",
    "CachedEmbedder": "evidence.embeddings",
    "Embedder": "evidence.embeddings",
    "HashingEmbedder": "evidence.embeddings",
    "SentenceTransformerEmbedder": "evidence.embeddings",
    "default_embedder": "evidence.embeddings",
    "EvidenceIndex": "evidence.evidence",
    "ChainStep": "monitor",
    "EvidenceChain": "monitor",
    "HallucinationMonitor": "monitor",
    "OnnxEmbedder": "evidence.onnx_embedder",
    "CascadeVerifier": "verifier.verifiers",
    "CombinationModel": "verifier.verifiers",
    "DeterministicVerifier": "verifier.verifiers",
    "LLMVerifier": "verifier.verifiers",
    "NLIVerifier": "verifier.verifiers",
    "VerificationItem": "verifier.verifiers",
    "Verifier": "verifier.verifiers",
    "VerifierVerdict": "verifier.verifiers",
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
