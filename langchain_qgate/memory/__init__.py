"""Memory noise reduction for LangGraph long-term stores.

``QualityFilteredStore`` wraps any LangGraph ``BaseStore`` (``InMemoryStore``,
``PostgresStore``, ...) and applies three filters on ``put``: the significance filter and
near-duplicate dedup for episodes, the decision-noise filter for decisions. Trivial episodes
are soft-deleted (``active=False``) and restorable, never destroyed. ``MemoryRecordFilter``
applies the same filters to plain records for callers not on LangGraph stores.

Concurrency: puts into one namespace are serialised inside a process (the dedup check and
the write are atomic there). Several processes on one ``PostgresStore`` pass
``namespace_lock=PostgresAdvisoryLock(dsn)`` to get the same guarantee across processes;
without it two processes may both store one near-duplicate if they race.

Depends on :mod:`langchain_qgate.grounding` (the embedder for dedup), LangGraph's store and the
shared leaves; nothing in the package imports it but the facade.
"""

from __future__ import annotations

from langchain_qgate.memory.decisions import assess_decision
from langchain_qgate.memory.dedup import detail_tokens, find_duplicate
from langchain_qgate.memory.locks import PostgresAdvisoryLock
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
    "PostgresAdvisoryLock",
    "PutAction",
    "PutOutcome",
    "QualityFilteredStore",
    "SessionMetadata",
    "SignificanceReason",
    "SignificanceVerdict",
    "assess_decision",
    "assess_significance",
    "detail_tokens",
    "find_duplicate",
    "is_remember_request",
    "is_trivial_session",
]
