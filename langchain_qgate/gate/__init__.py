"""The noise gate: pass an answer with quality metadata, or reject it with retry guidance.

:class:`QualityGate` grades an output (grounding), calibrates its confidence (calibration) and
checks the run's load, then :class:`NoiseGate` decides: a :class:`FilteredOutput` (metadata,
annotated rendering) or a :class:`RejectedOutput` (:class:`RetryGuidance` for the model, an
:class:`Escalation` once the retry budget is spent).

Modules: ``noise_gate`` (the gate), ``policy`` (thresholds, profiles, per-call overrides),
``metadata`` and ``decisions`` (the pydantic results), ``guidance`` (what to fix),
``annotate`` (citation markers), ``load`` (run counters and the retry budget),
``telemetry`` (verdicts to logs, OpenTelemetry, LangSmith), ``settings`` (environment and
config-file settings).

Depends on :mod:`langchain_qgate.calibration`, :mod:`langchain_qgate.grounding` (the monitor,
loaded on first use) and the shared leaves (``errors``, ``schemas``, ``_text``).
"""

from __future__ import annotations

from langchain_qgate._text import output_text
from langchain_qgate.gate.decisions import (
    Escalation,
    FilteredOutput,
    RejectedOutput,
    RetryGuidance,
)
from langchain_qgate.gate.guidance import Dimension, FlaggedClaim
from langchain_qgate.gate.load import (
    CognitiveLoadMonitor,
    LoadAction,
    LoadAssessment,
    LoadBudget,
    LoadCounters,
    LoadCountersDict,
)
from langchain_qgate.gate.metadata import (
    ClaimQuality,
    Decision,
    QualityMetadata,
    SourceRef,
    describe_decision,
)
from langchain_qgate.gate.noise_gate import (
    GateDecision,
    GroundingMonitor,
    NoiseGate,
    QualityGate,
    format_decision,
    load_text,
)
from langchain_qgate.gate.policy import (
    CONFIG_KEYS,
    PROFILE_FIELDS,
    PROFILES,
    ExhaustionPolicy,
    GatePolicy,
    ProfileName,
    as_gate_policy,
)
from langchain_qgate.gate.settings import GateSettings, load_settings
from langchain_qgate.gate.telemetry import (
    ContradictionNote,
    GateObserver,
    VerdictRecord,
    gate_scope,
    verdict_record,
)

__all__ = [
    "CONFIG_KEYS",
    "PROFILES",
    "PROFILE_FIELDS",
    "ClaimQuality",
    "CognitiveLoadMonitor",
    "ContradictionNote",
    "Decision",
    "Dimension",
    "Escalation",
    "ExhaustionPolicy",
    "FilteredOutput",
    "FlaggedClaim",
    "GateDecision",
    "GateObserver",
    "GatePolicy",
    "GateSettings",
    "GroundingMonitor",
    "LoadAction",
    "LoadAssessment",
    "LoadBudget",
    "LoadCounters",
    "LoadCountersDict",
    "NoiseGate",
    "ProfileName",
    "QualityGate",
    "QualityMetadata",
    "RejectedOutput",
    "RetryGuidance",
    "SourceRef",
    "VerdictRecord",
    "as_gate_policy",
    "describe_decision",
    "format_decision",
    "gate_scope",
    "load_settings",
    "load_text",
    "output_text",
    "verdict_record",
]
