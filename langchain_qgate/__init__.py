"""langchain-qgate: a quality gate for LangChain and LangGraph.

Every answer is split into claims, each graded against the evidence the agent retrieved
(GROUNDED / INFERRED / FABRICATED, contradictions named); confidence is calibrated, and a
noise gate passes the answer with annotations or sends retry guidance back to the model.

Public names are imported lazily: ``import langchain_qgate`` loads no model and no torch.
This module is the facade: it re-exports from the subpackages (one per system, see the
README's "Architecture") and nothing in the package imports it but the CLI (``__version__``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_qgate._lazy import load_lazily

__version__ = "0.1.0"

if TYPE_CHECKING:
    from langchain_qgate.calibration import (
        CalibratedConfidence,
        ConfidenceCalibrator,
    )
    from langchain_qgate.config import (
        GradeWeights,
        GroundingPolicy,
    )
    from langchain_qgate.errors import (
        CheckpointerRequiredError,
        EmbeddingError,
        InputTooLargeError,
        InvalidInputError,
        QGateError,
        QualityGateRejected,
    )
    from langchain_qgate.gate import (
        CognitiveLoadMonitor,
        Escalation,
        FilteredOutput,
        GatePolicy,
        LoadAction,
        LoadAssessment,
        LoadBudget,
        LoadCounters,
        NoiseGate,
        QualityGate,
        QualityMetadata,
        RejectedOutput,
        RetryGuidance,
    )
    from langchain_qgate.grounding import (
        CascadeVerifier,
        DeterministicVerifier,
        Embedder,
        EvidenceChain,
        EvidenceIndex,
        HallucinationMonitor,
        HashingEmbedder,
        LLMVerifier,
        NLIVerifier,
        OnnxEmbedder,
        SentenceTransformerEmbedder,
        VerificationItem,
        Verifier,
        VerifierVerdict,
        default_embedder,
        extract_claims,
    )
    from langchain_qgate.integrations._review import (
        EscalationRequest,
        HumanDecision,
    )
    from langchain_qgate.integrations.callbacks import (
        QualityCheck,
        QualityGateCallbackHandler,
    )
    from langchain_qgate.integrations.graph import (
        QualityGateState,
        add_quality_gate,
        make_quality_gate_node,
        route_after_gate,
    )
    from langchain_qgate.integrations.judge_node import (
        JudgeState,
        judge_node,
    )
    from langchain_qgate.integrations.middleware import (
        QualityGateMiddleware,
    )
    from langchain_qgate.integrations.runnable import (
        QualityGateRunnable,
        with_quality_gate,
    )
    from langchain_qgate.integrations.streaming import (
        QGateDoneEvent,
        QGateEscalatedEvent,
        QGateRetractedEvent,
        QGateRetryEvent,
        QGateSentenceEvent,
        QGateStreamEvent,
        QGateWarningEvent,
        QualityGateStreamer,
        StreamMode,
    )
    from langchain_qgate.integrations.structured import (
        StructuredCitationMiddleware,
    )
    from langchain_qgate.integrations.timeline import (
        GateAttempt,
        attempt_timeline,
        plot_attempt_timeline,
    )
    from langchain_qgate.integrations.tool_gating_middleware import (
        ToolGatingMiddleware,
    )
    from langchain_qgate.judge import (
        AgentResult,
        CitationJudge,
        Hypothesis,
        InMemorySignalMemory,
        JudgedResult,
        JudgeLayer,
        SignalMemory,
    )
    from langchain_qgate.memory import (
        DecisionNoiseWarning,
        MemoryFilterPolicy,
        MemoryRecordFilter,
        QualityFilteredStore,
    )
    from langchain_qgate.schemas import (
        Claim,
        ClaimType,
        ClaimVerdict,
        Contradiction,
        EvidenceChunk,
        EvidenceLink,
        Grade,
        GroundingReport,
    )
    from langchain_qgate.tool_gating import (
        GatingLevel,
        JohariQuadrant,
        LearningSignal,
        SuggestedAction,
        ToolGatingConfig,
        ToolGatingEvaluator,
        ToolGatingWarning,
        compute_learning_signal,
        gated_retriever,
    )

_WHERE: dict[str, str] = {
    "AgentResult": "judge",
    "CalibratedConfidence": "calibration",
    "CascadeVerifier": "grounding",
    "CitationJudge": "judge",
    "Claim": "schemas",
    "ClaimType": "schemas",
    "ClaimVerdict": "schemas",
    "CheckpointerRequiredError": "errors",
    "CognitiveLoadMonitor": "gate",
    "ConfidenceCalibrator": "calibration",
    "Contradiction": "schemas",
    "DecisionNoiseWarning": "memory",
    "DeterministicVerifier": "grounding",
    "Embedder": "grounding",
    "EmbeddingError": "errors",
    "Escalation": "gate",
    "EscalationRequest": "integrations._review",
    "EvidenceChain": "grounding",
    "EvidenceChunk": "schemas",
    "EvidenceIndex": "grounding",
    "EvidenceLink": "schemas",
    "FilteredOutput": "gate",
    "GatePolicy": "gate",
    "GatingLevel": "tool_gating",
    "Grade": "schemas",
    "GradeWeights": "config",
    "GroundingPolicy": "config",
    "GroundingReport": "schemas",
    "HallucinationMonitor": "grounding",
    "HashingEmbedder": "grounding",
    "HumanDecision": "integrations._review",
    "Hypothesis": "judge",
    "InMemorySignalMemory": "judge",
    "InputTooLargeError": "errors",
    "InvalidInputError": "errors",
    "JohariQuadrant": "tool_gating",
    "JudgeLayer": "judge",
    "JudgeState": "integrations.judge_node",
    "JudgedResult": "judge",
    "LLMVerifier": "grounding",
    "LearningSignal": "tool_gating",
    "LoadAction": "gate",
    "LoadAssessment": "gate",
    "LoadBudget": "gate",
    "LoadCounters": "gate",
    "MemoryFilterPolicy": "memory",
    "MemoryRecordFilter": "memory",
    "NLIVerifier": "grounding",
    "OnnxEmbedder": "grounding",
    "NoiseGate": "gate",
    "QGateError": "errors",
    "QualityCheck": "integrations.callbacks",
    "QualityFilteredStore": "memory",
    "QualityGate": "gate",
    "QualityGateCallbackHandler": "integrations.callbacks",
    "QualityGateMiddleware": "integrations.middleware",
    "QualityGateRejected": "errors",
    "QualityGateRunnable": "integrations.runnable",
    "QGateDoneEvent": "integrations.streaming",
    "QGateEscalatedEvent": "integrations.streaming",
    "QGateRetractedEvent": "integrations.streaming",
    "QGateRetryEvent": "integrations.streaming",
    "QGateSentenceEvent": "integrations.streaming",
    "QGateStreamEvent": "integrations.streaming",
    "QGateWarningEvent": "integrations.streaming",
    "QualityGateStreamer": "integrations.streaming",
    "StreamMode": "integrations.streaming",
    "QualityGateState": "integrations.graph",
    "QualityMetadata": "gate",
    "RejectedOutput": "gate",
    "RetryGuidance": "gate",
    "SentenceTransformerEmbedder": "grounding",
    "SignalMemory": "judge",
    "StructuredCitationMiddleware": "integrations.structured",
    "SuggestedAction": "tool_gating",
    "ToolGatingConfig": "tool_gating",
    "ToolGatingEvaluator": "tool_gating",
    "ToolGatingMiddleware": "integrations.tool_gating_middleware",
    "ToolGatingWarning": "tool_gating",
    "VerificationItem": "grounding",
    "Verifier": "grounding",
    "VerifierVerdict": "grounding",
    "add_quality_gate": "integrations.graph",
    "attempt_timeline": "integrations.timeline",
    "plot_attempt_timeline": "integrations.timeline",
    "GateAttempt": "integrations.timeline",
    "compute_learning_signal": "tool_gating",
    "default_embedder": "grounding",
    "extract_claims": "grounding",
    "gated_retriever": "tool_gating",
    "judge_node": "integrations.judge_node",
    "make_quality_gate_node": "integrations.graph",
    "route_after_gate": "integrations.graph",
    "with_quality_gate": "integrations.runnable",
}

__all__ = [
    "AgentResult",
    "CalibratedConfidence",
    "CascadeVerifier",
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
    "GateAttempt",
    "GatePolicy",
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
    "SignalMemory",
    "StreamMode",
    "StructuredCitationMiddleware",
    "SuggestedAction",
    "ToolGatingConfig",
    "ToolGatingEvaluator",
    "ToolGatingMiddleware",
    "ToolGatingWarning",
    "VerificationItem",
    "Verifier",
    "VerifierVerdict",
    "__version__",
    "add_quality_gate",
    "attempt_timeline",
    "compute_learning_signal",
    "default_embedder",
    "extract_claims",
    "gated_retriever",
    "judge_node",
    "make_quality_gate_node",
    "plot_attempt_timeline",
    "route_after_gate",
    "with_quality_gate",
]


def __getattr__(name: str) -> Any:
    return load_lazily(__name__, _WHERE, globals(), name)


def __dir__() -> list[str]:
    return sorted(__all__)
