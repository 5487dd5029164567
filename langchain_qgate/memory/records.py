"""The memory filters for callers not on LangGraph stores: episodes and decisions as records.

``MemoryRecordFilter`` runs exactly the store wrapper's filters (it wraps a private
``InMemoryStore``) and hands back plain pydantic records the caller can persist anywhere.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from langchain_qgate.memory._episodes import ACTIVE, NOISE, QGATE, episode_text, session_of
from langchain_qgate.memory.decisions import decision_reasons, decision_text
from langchain_qgate.memory.models import PutOutcome
from langchain_qgate.memory.policy import MemoryFilterPolicy
from langchain_qgate.memory.store import QualityFilteredStore

if TYPE_CHECKING:
    from langgraph.store.base import Item

    from langchain_qgate.grounding.evidence.embeddings import Embedder

__all__ = ["DecisionRecord", "EpisodeRecord", "MemoryRecordFilter"]

_EPISODES = ("records", "episodes")
_DECISIONS = ("records", "decisions")


class EpisodeRecord(BaseModel):
    """One stored episode.

    Attributes:
        key: Its id (never reused for another episode).
        session_id: The session it came from.
        text: The episode text.
        active: ``False`` once soft-deleted.
        created_at: Clock time of creation.
        significance: Why it was recorded.
        value: The full stored value (including the wrapper's fields).
    """

    model_config = ConfigDict(frozen=True)

    key: str
    session_id: str
    text: str
    active: bool
    created_at: float | None
    significance: tuple[str, ...] = ()
    value: dict[str, Any]


class DecisionRecord(BaseModel):
    """One stored decision.

    Attributes:
        key: Its id.
        text: The decision.
        reasons: Why it was taken.
        noisy: Flagged by the decision-noise filter.
        noise_reason: The rule that flagged it.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    text: str
    reasons: tuple[str, ...] = ()
    noisy: bool = False
    noise_reason: str | None = None


class MemoryRecordFilter:
    """Significance, dedup and decision-noise filters over plain records.

    Args:
        embedder: Embeds episodes for dedup (the bundled model by default).
        policy: Filter options (namespace settings are ignored).
        clock: Seconds since the epoch; inject one in tests.

    Example:
        >>> from langchain_qgate import HashingEmbedder
        >>> mem = MemoryRecordFilter(embedder=HashingEmbedder())
        >>> mem.add_episode("Hello, what can you do?", session_id="s1").action
        'stored'
        >>> mem.add_episode("Hello, what can you do?", session_id="s2").action
        'skipped_duplicate'
    """

    def __init__(
        self,
        *,
        embedder: Embedder | None = None,
        policy: MemoryFilterPolicy | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = QualityFilteredStore(embedder=embedder, policy=policy, clock=clock)

    def add_episode(
        self,
        text: str,
        *,
        session_id: str,
        user: str | None = None,
        assistant: str | None = None,
        tools_used: Sequence[str] = (),
        remember: bool | None = None,
        key: str | None = None,
    ) -> PutOutcome:
        """Offer one turn's episode; returns whether it was stored and why."""
        value: dict[str, Any] = {"content": text, "session_id": session_id}
        if user is not None:
            value["user"] = user
        if assistant is not None:
            value["assistant"] = assistant
        if tools_used:
            value["tools_used"] = list(tools_used)
        if remember is not None:
            value["remember"] = remember
        return self._store.put_with_outcome(self._episodes_ns, key or uuid.uuid4().hex, value)

    def add_decision(
        self, text: str, *, reasons: Iterable[str] = (), key: str | None = None
    ) -> PutOutcome:
        """Offer one decision; noisy ones are flagged (or skipped if configured)."""
        value = {"decision": text, "reasons": list(reasons)}
        return self._store.put_with_outcome(self._decisions_ns, key or uuid.uuid4().hex, value)

    def end_session(self, session_id: str) -> list[str]:
        """Soft-delete the session's episode if the session stayed trivial; returns keys."""
        return self._store.end_session(self._episodes_ns, session_id)

    def restore(self, key: str) -> bool:
        """Reactivate a soft-deleted episode."""
        return self._store.restore(self._episodes_ns, key)

    def episodes(self, *, include_inactive: bool = False) -> list[EpisodeRecord]:
        """Stored episodes (active only unless ``include_inactive``), oldest first."""
        flt = None if include_inactive else {ACTIVE: True}
        items = list(self._store.store.search(self._episodes_ns, filter=flt, limit=1_000_000))
        records = [self._episode(item) for item in items]
        return sorted(records, key=lambda r: (r.created_at or 0.0, r.key))

    def decisions(self, *, include_noisy: bool = True) -> list[DecisionRecord]:
        """Stored decisions (noisy ones included unless ``include_noisy=False``)."""
        flt = None if include_noisy else {NOISE: False}
        items = self._store.store.search(self._decisions_ns, filter=flt, limit=1_000_000)
        return [
            DecisionRecord(
                key=item.key,
                text=decision_text(item.value),
                reasons=tuple(decision_reasons(item.value)),
                noisy=bool(item.value.get(NOISE, False)),
                noise_reason=(item.value.get(QGATE) or {}).get("noise_reason"),
            )
            for item in items
        ]

    @property
    def _episodes_ns(self) -> tuple[str, ...]:
        return (_EPISODES[0], next(iter(sorted(self._store.policy.episode_namespaces))))

    @property
    def _decisions_ns(self) -> tuple[str, ...]:
        return (_DECISIONS[0], next(iter(sorted(self._store.policy.decision_namespaces))))

    @staticmethod
    def _episode(item: Item) -> EpisodeRecord:
        info = item.value.get(QGATE) or {}
        created = info.get("created_at")
        return EpisodeRecord(
            key=item.key,
            session_id=session_of(item.value),
            text=episode_text(item.value),
            active=bool(item.value.get(ACTIVE, True)),
            created_at=float(created) if isinstance(created, int | float) else None,
            significance=tuple(info.get("significance") or ()),
            value=dict(item.value),
        )
