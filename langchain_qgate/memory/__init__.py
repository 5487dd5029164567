"""Memory noise reduction for LangGraph long-term stores.

``QualityFilteredStore`` wraps any LangGraph ``BaseStore`` (``InMemoryStore``,
``PostgresStore``, ...) and applies three filters on ``put``: the significance filter and
near-duplicate dedup for episodes, the decision-noise filter for decisions. Trivial episodes
are soft-deleted (``active=False``) and restorable, never destroyed. ``MemoryRecordFilter``
applies the same filters to plain records for callers not on LangGraph stores.
"""

from __future__ import annotations

from langchain_qgate.memory.decisions import assess_decision
from langchain_qgate.memory.dedup import find_duplicate
from langchain_qgate.memory.models import (
    DecisionNoiseVerdict,
    DecisionNoiseWarning,
    DedupUnavailableWarning,
    DuplicateCheck,
    MemoryFilterWarning,
    NoiseReason,
    PutAction,
    PutOutcome,
    SignificanceReason,
    SignificanceVerdict,
)
from langchain_qgate.memory.policy import DecisionNoiseAction, MemoryFilterPolicy
from langchain_qgate.memory.records import DecisionRecord, EpisodeRecord, MemoryRecordFilter
from langchain_qgate.memory.significance import (
    SessionMetadata,
    assess_significance,
    is_remember_request,
    is_trivial_session,
)
from langchain_qgate.memory.store import NamespaceLock, QualityFilteredStore

__all__ = [
    "DecisionNoiseAction",
    "DecisionNoiseVerdict",
    "DecisionNoiseWarning",
    "DecisionRecord",
    "DedupUnavailableWarning",
    "DuplicateCheck",
    "EpisodeRecord",
    "MemoryFilterPolicy",
    "MemoryFilterWarning",
    "MemoryRecordFilter",
    "NamespaceLock",
    "NoiseReason",
    "PutAction",
    "PutOutcome",
    "QualityFilteredStore",
    "SessionMetadata",
    "SignificanceReason",
    "SignificanceVerdict",
    "assess_decision",
    "assess_significance",
    "find_duplicate",
    "is_remember_request",
    "is_trivial_session",
]
