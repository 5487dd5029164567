"""The public API: every name in ``__all__`` imports, and the list is what we promise."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import langchain_qgate

EXPECTED_ALL = [
    "BUILTIN_CHECKS",
    "AgentResult",
    "CalibratedConfidence",
    "CascadeVerifier",
    "Check",
    "CheckpointerRequiredError",
    "CitationJudge",
    "Claim",
    "ClaimType",
    "ClaimVerdict",
    "CognitiveLoadMonitor",
    "ConfidenceCalibrator",
    "Contradiction",
    "DecisionNoiseWarning",
    "DeterministicVerifier",
    "Embedder",
    "EmbeddingError",
    "Escalation",
    "EscalationRequest",
    "EvidenceChain",
    "EvidenceChunk",
    "EvidenceIndex",
    "EvidenceLink",
    "FilteredOutput",
    "Finding",
    "GateAttempt",
    "GateObserver",
    "GatePolicy",
    "GateSettings",
    "GatingLevel",
    "Grade",
    "GradeWeights",
    "GroundingPolicy",
    "GroundingReport",
    "HallucinationMonitor",
    "HashingEmbedder",
    "HumanDecision",
    "Hypothesis",
    "InMemorySignalMemory",
    "InputTooLargeError",
    "InvalidInputError",
    "JohariQuadrant",
    "JudgeLayer",
    "JudgeState",
    "JudgedResult",
    "LLMVerifier",
    "LanguageCheck",
    "LearningSignal",
    "LoadAction",
    "LoadAssessment",
    "LoadBudget",
    "LoadCounters",
    "MemoryFilterPolicy",
    "MemoryRecordFilter",
    "NLIVerifier",
    "NoiseGate",
    "OnnxEmbedder",
    "QGateDoneEvent",
    "QGateError",
    "QGateEscalatedEvent",
    "QGateRetractedEvent",
    "QGateRetryEvent",
    "QGateSentenceEvent",
    "QGateStreamEvent",
    "QGateWarningEvent",
    "QualityCheck",
    "QualityFilteredStore",
    "QualityGate",
    "QualityGateCallbackHandler",
    "QualityGateMiddleware",
    "QualityGateRejected",
    "QualityGateRunnable",
    "QualityGateState",
    "QualityGateStreamer",
    "QualityMetadata",
    "RejectedOutput",
    "RetryGuidance",
    "SentenceTransformerEmbedder",
    "SettingsError",
    "SignalMemory",
    "StreamMode",
    "StructuredCitationMiddleware",
    "SuggestedAction",
    "ToolGatingConfig",
    "ToolGatingEvaluator",
    "ToolGatingMiddleware",
    "ToolGatingWarning",
    "VerdictRecord",
    "VerificationItem",
    "Verifier",
    "VerifierVerdict",
    "__version__",
    "add_quality_gate",
    "attempt_timeline",
    "check_languages",
    "compute_learning_signal",
    "default_embedder",
    "detect_language",
    "extract_claims",
    "gated_retriever",
    "judge_node",
    "load_settings",
    "make_quality_gate_node",
    "plot_attempt_timeline",
    "route_after_gate",
    "value_check",
    "verdict_record",
    "with_quality_gate",
]


def test_all_is_sorted_and_is_the_promised_api() -> None:
    assert langchain_qgate.__all__ == EXPECTED_ALL
    # constants first, then the rest in order (ruff's RUF022, as for every subpackage below)
    assert sorted(EXPECTED_ALL, key=lambda n: (not n.isupper(), n)) == EXPECTED_ALL
    assert "HallucinationMonitor" in langchain_qgate.__all__
    assert "QualityGateMiddleware" in langchain_qgate.__all__
    assert "QualityFilteredStore" in langchain_qgate.__all__


def test_every_public_name_imports() -> None:
    for name in langchain_qgate.__all__:
        assert getattr(langchain_qgate, name) is not None, name


SYSTEMS = [
    "calibration",
    "cli",
    "gate",
    "grounding",
    "integrations",
    "judge",
    "memory",
    "tool_gating",
]


def test_every_system_package_exports_what_its_all_lists() -> None:
    for system in SYSTEMS:
        module = importlib.import_module(f"langchain_qgate.{system}")
        assert module.__doc__, system
        assert module.__all__ == sorted(module.__all__, key=lambda n: (not n.isupper(), n))
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{system}.{name}"


def test_a_top_level_name_is_the_object_its_system_package_exports() -> None:
    for name, system in [
        ("QualityGate", "gate"),
        ("LoadCounters", "gate"),
        ("ConfidenceCalibrator", "calibration"),
        ("ToolGatingEvaluator", "tool_gating"),
        ("JudgeLayer", "judge"),
        ("HallucinationMonitor", "grounding"),
        ("QualityFilteredStore", "memory"),
        ("QualityGateMiddleware", "integrations"),
    ]:
        module = importlib.import_module(f"langchain_qgate.{system}")
        assert getattr(langchain_qgate, name) is getattr(module, name), name


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NoSuchThing"):
        langchain_qgate.NoSuchThing  # noqa: B018


def test_importing_the_package_loads_no_torch_or_model() -> None:
    code = (
        "import sys, langchain_qgate; "
        "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
