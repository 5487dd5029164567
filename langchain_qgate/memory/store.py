"""``QualityFilteredStore``: a LangGraph ``BaseStore`` wrapper that filters memory noise.

Puts into managed namespaces (last label ``"episodes"`` or ``"decisions"`` by default) go
through the filters; every other operation passes straight to the wrapped store. Session
metadata is kept in the wrapped store under ``policy.metadata_namespace``, never on the
instance, so several wrappers (threads, processes) over one database share it. The
in-process locks live in a registry keyed by the wrapped store (:func:`store_locks`), so
every wrapper of one store object takes the same ones.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from langchain_qgate.memory._episodes import (
    ACTIVE,
    DAY,
    DAY_SECONDS,
    NOISE,
    QGATE,
    episode_text,
    session_of,
    turn_facts,
)
from langchain_qgate.memory._vectors import decode_vector, encode_vector, normalise
from langchain_qgate.memory.decisions import (
    assess_decision,
    decision_reasons,
    decision_text,
    warn_noisy_decision,
)
from langchain_qgate.memory.dedup import (
    DedupCandidate,
    find_duplicate,
    try_embed,
    warn_dedup_unavailable,
    within_window,
)
from langchain_qgate.memory.locks import store_locks
from langchain_qgate.memory.models import DuplicateCheck, PutOutcome, SignificanceVerdict
from langchain_qgate.memory.policy import MemoryFilterPolicy
from langchain_qgate.memory.significance import (
    SessionMetadata,
    assess_significance,
    is_trivial_session,
)

if TYPE_CHECKING:
    from langchain_qgate.grounding.evidence.embeddings import Embedder

__all__ = ["NamespaceLock", "QualityFilteredStore"]

NamespaceLock = Callable[[tuple[str, ...]], AbstractContextManager[object]]
"""Factory of a cross-process lock for one namespace (e.g. a PostgreSQL advisory lock)."""

_PAGE = 1_000

_Note = Callable[[], None]
"""A warning to emit once the write is done (so an ``error`` warnings filter loses no data)."""


def _emit(notes: list[_Note]) -> None:
    """Emit the warnings of a put, in the caller's thread (after the write)."""
    for note in notes:
        note()


class QualityFilteredStore(BaseStore):
    """Wraps any LangGraph store and filters episodes and decisions on ``put``.

    Episodes (namespaces ending in ``"episodes"``): the significance filter reads the
    session's metadata (turn count, tools, characters, remember request; read from the
    value's ``session_id``/``user``/``assistant``/``tools_used``/``turn`` fields), then a
    new episode whose cosine similarity to an active episode of the last 48 hours is above
    0.85 is skipped. Stored episodes get ``active=True``, ``qgate_day`` and a ``qgate``
    dict carrying their embedding. ``end_session`` soft-deletes (``active=False``) the
    episode of a session that stayed trivial; ``list_inactive`` and ``restore`` undo it.

    Decisions (namespaces ending in ``"decisions"``): a noisy decision is stored with
    ``qgate_noise=True`` and a ``DecisionNoiseWarning`` (or skipped if configured).

    Args:
        store: The wrapped store (a new ``InMemoryStore`` by default).
        embedder: Embeds episodes for dedup (the bundled model by default, loaded lazily).
        policy: Filter options.
        clock: Seconds since the epoch (``time.time``); inject one in tests.
        namespace_lock: Optional cross-process lock per namespace (``PostgresAdvisoryLock``
            for ``PostgresStore``).

    Concurrency: within one process, the read-check-write of an episode put (session
    metadata, significance, dedup), ``end_session`` and ``restore`` are atomic per
    namespace, for every thread and every wrapper of the same store object: the locks come
    from a process-wide registry keyed by the wrapped store, not from the wrapper. Calls to
    an ``InMemoryStore`` (not thread-safe) are also serialised. Across processes nothing is
    serialised unless ``namespace_lock`` is given: without it two processes putting to the
    same session may lose a turn-count update (the last metadata write wins) and may both
    store the same near-duplicate. Nothing is ever deleted either way: filtered episodes
    are skipped or soft-deleted, never removed.

    Example:
        >>> from langgraph.store.memory import InMemoryStore
        >>> from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
        >>> store = QualityFilteredStore(InMemoryStore(), embedder=HashingEmbedder())
        >>> store.put(("u1", "episodes"), "e1", {"content": "Hello", "session_id": "s1"})
        >>> store.get(("u1", "episodes"), "e1").value["active"]
        True
    """

    def __init__(
        self,
        store: BaseStore | None = None,
        *,
        embedder: Embedder | None = None,
        policy: MemoryFilterPolicy | None = None,
        clock: Callable[[], float] = time.time,
        namespace_lock: NamespaceLock | None = None,
    ) -> None:
        if store is None:
            from langgraph.store.memory import InMemoryStore

            store = InMemoryStore()
        if not isinstance(store, BaseStore):
            raise TypeError(f"store must be a langgraph BaseStore, got {type(store).__name__}")
        if embedder is None:
            from langchain_qgate.grounding.evidence.embeddings import default_embedder

            embedder = default_embedder()
        self.store = store
        self.embedder = embedder
        self.policy = policy or MemoryFilterPolicy()
        self.clock = clock
        self.namespace_lock = namespace_lock
        self.supports_ttl = store.supports_ttl
        self.ttl_config = store.ttl_config
        self._shared = store_locks(store)
        self._stats: Counter[str] = Counter()
        self._stats_lock = threading.Lock()

    # ----------------------------------------------------------------- BaseStore API

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops``; managed puts are filtered, the rest goes to the wrapped store.

        Reads in the batch see the state before the batch's puts (as in LangGraph stores).
        """
        results, notes = self._batch_with_notes(list(ops))
        _emit(notes)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async ``batch``: filtered puts run in a worker thread (embedding is CPU-bound).

        Warnings are emitted back in the caller's thread, so they point at the caller's line.
        """
        ops = list(ops)
        if any(
            isinstance(op, PutOp) and op.value is not None and self.policy.kind_of(op.namespace)
            for op in ops
        ):
            results, notes = await asyncio.to_thread(self._batch_with_notes, ops)
            _emit(notes)
            return results
        if self._shared.io is not None:  # a store that is not thread-safe: one call at a time
            return await asyncio.to_thread(self.batch, ops)
        return await self.store.abatch([self._rewrite_search(op) for op in ops])

    def _batch_with_notes(self, ops: list[Op]) -> tuple[list[Result], list[_Note]]:
        results: list[Result] = [None] * len(ops)
        plain: list[tuple[int, Op]] = []
        managed: list[PutOp] = []
        for i, op in enumerate(ops):
            if isinstance(op, PutOp) and op.value is not None and self.policy.kind_of(op.namespace):
                managed.append(op)
            else:
                plain.append((i, self._rewrite_search(op)))
        if plain:
            got = self._batch([op for _, op in plain])
            for (i, _), res in zip(plain, got, strict=True):
                results[i] = res
        notes: list[_Note] = []
        for op in managed:
            notes.extend(self._put_managed(op)[1])
        return results, notes

    # ----------------------------------------------------------------- filtered puts

    def put_with_outcome(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Any = None,
    ) -> PutOutcome:
        """Like ``put`` but returns what the filters did (stored, skipped and why)."""
        outcome, notes = self._put_with_notes(namespace, key, value, index)
        _emit(notes)
        return outcome

    async def aput_with_outcome(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Any = None,
    ) -> PutOutcome:
        """Async ``put_with_outcome``."""
        outcome, notes = await asyncio.to_thread(self._put_with_notes, namespace, key, value, index)
        _emit(notes)
        return outcome

    def _put_with_notes(
        self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any], index: Any
    ) -> tuple[PutOutcome, list[_Note]]:
        op = PutOp(tuple(namespace), str(key), dict(value), index=index)
        if self.policy.kind_of(op.namespace) is None:
            self._batch([op])
            outcome = PutOutcome(
                namespace=op.namespace, key=op.key, kind="other", action="passed_through"
            )
            return outcome, []
        return self._put_managed(op)

    def _put_managed(self, op: PutOp) -> tuple[PutOutcome, list[_Note]]:
        """One filtered put; returns the outcome and the warnings still to emit."""
        kind = self.policy.kind_of(op.namespace)
        if kind == "episode":
            outcome, notes = self._put_episode(op)
        else:
            outcome, notes = self._put_decision(op)
        with self._stats_lock:
            self._stats[f"{outcome.kind}:{outcome.action}"] += 1
        return outcome, notes

    def _put_decision(self, op: PutOp) -> tuple[PutOutcome, list[_Note]]:
        value = dict(op.value or {})
        if not self.policy.decision_filter:
            self._batch([op])
            return PutOutcome(
                namespace=op.namespace, key=op.key, kind="decision", action="stored"
            ), []
        text = decision_text(value)
        verdict = assess_decision(text, decision_reasons(value), self.policy)
        notes: list[_Note] = []
        skip = verdict.noisy and self.policy.on_noisy_decision == "skip"
        if verdict.noisy:
            notes.append(lambda: warn_noisy_decision(text, verdict, skipped=skip))
        if skip:
            action = "skipped_noise"
        else:
            value[NOISE] = verdict.noisy
            if verdict.noisy:
                value[QGATE] = {"noise_reason": verdict.reason, "detail": verdict.detail}
            self._batch([op._replace(value=value)])
            action = "stored_flagged" if verdict.noisy else "stored"
        outcome = PutOutcome(
            namespace=op.namespace, key=op.key, kind="decision", action=action, decision=verdict
        )
        return outcome, notes

    def _put_episode(self, op: PutOp) -> tuple[PutOutcome, list[_Note]]:
        value = dict(op.value or {})
        ns, key = op.namespace, op.key
        session_id = session_of(value)
        meta_ns = self._meta_namespace(ns)
        notes: list[_Note] = []
        with self._lock(ns):
            now = self.clock()
            existing, meta_item = self._batch([GetOp(ns, key), GetOp(meta_ns, session_id)])
            if isinstance(existing, Item):
                return self._update_episode(op, value, existing, now, notes), notes
            meta = (
                SessionMetadata.model_validate(meta_item.value)
                if isinstance(meta_item, Item)
                else SessionMetadata(session_id=session_id)
            )
            meta = meta.observe_turn(now=now, **turn_facts(value))
            verdict = (
                assess_significance(meta, self.policy)
                if self.policy.significance
                else SignificanceVerdict(significant=True)
            )
            if not verdict.significant:
                self._write([PutOp(meta_ns, session_id, meta.model_dump(mode="json"))])
                return PutOutcome(
                    namespace=ns,
                    key=key,
                    kind="episode",
                    action="skipped_insignificant",
                    significance=verdict,
                ), notes
            vector, error = try_embed(self.embedder, episode_text(value))
            if error is not None:
                notes.append(lambda: warn_dedup_unavailable(error))
            check: DuplicateCheck | None = None
            if self.policy.dedup:
                check = find_duplicate(
                    vector,
                    self._candidates(ns, key, now),
                    self.policy,
                    text=episode_text(value),
                    word_similarity=self._word_similarity,
                )
            if check is not None and check.is_duplicate:
                self._write([PutOp(meta_ns, session_id, meta.model_dump(mode="json"))])
                return PutOutcome(
                    namespace=ns,
                    key=key,
                    kind="episode",
                    action="skipped_duplicate",
                    significance=verdict,
                    duplicate=check,
                ), notes
            value[ACTIVE] = True
            value[DAY] = int(now // DAY_SECONDS)
            value[QGATE] = {
                "created_at": now,
                "session_id": session_id,
                "significance": list(verdict.reasons),
                "embedding": encode_vector(vector) if vector is not None else None,
                "embedding_model": str(getattr(self.embedder, "model_name", "")) or None,
            }
            if meta.turn_count <= 1:
                meta = meta.with_episode(key, limit=self.policy.tracked_keys_per_session)
            self._write(
                [
                    op._replace(value=value),
                    PutOp(meta_ns, session_id, meta.model_dump(mode="json")),
                ]
            )
            return PutOutcome(
                namespace=ns,
                key=key,
                kind="episode",
                action="stored",
                significance=verdict,
                duplicate=check,
            ), notes

    def _update_episode(
        self,
        op: PutOp,
        value: dict[str, Any],
        existing: Item,
        now: float,
        notes: list[_Note],
    ) -> PutOutcome:
        """A put to an existing key edits that episode: no significance or dedup check."""
        old_meta = existing.value.get(QGATE)
        meta = dict(old_meta) if isinstance(old_meta, Mapping) else {}
        vector, error = try_embed(self.embedder, episode_text(value))
        if error is not None:
            notes.append(lambda: warn_dedup_unavailable(error))
        meta["embedding"] = encode_vector(vector) if vector is not None else None
        meta.setdefault("created_at", now)
        meta["updated_at"] = now
        value.setdefault(ACTIVE, existing.value.get(ACTIVE, True))
        value.setdefault(DAY, existing.value.get(DAY, int(now // DAY_SECONDS)))
        value[QGATE] = meta
        self._write([op._replace(value=value)])
        return PutOutcome(namespace=op.namespace, key=op.key, kind="episode", action="updated")

    def _candidates(self, namespace: tuple[str, ...], key: str, now: float) -> list[DedupCandidate]:
        """Active episodes of ``namespace`` created inside the window (exact, by day filter)."""
        window = self.policy.dedup_window_seconds
        first_day = int((now - window) // DAY_SECONDS)
        last_day = int(now // DAY_SECONDS)
        out: list[DedupCandidate] = []
        for item in self._scan(
            namespace, [{ACTIVE: True, DAY: d} for d in range(first_day, last_day + 1)]
        ):
            info = item.value.get(QGATE)
            if item.key == key or not isinstance(info, Mapping):
                continue
            created = info.get("created_at")
            vec = decode_vector(info.get("embedding"))
            if vec is None or not isinstance(created, int | float):
                continue
            if within_window(float(created), now, window):
                out.append(DedupCandidate(item.key, vec, episode_text(item.value)))
        return out

    def _scan(self, namespace: tuple[str, ...], filters: list[dict[str, Any]]) -> Iterator[Item]:
        """Every item of exactly ``namespace`` matching any of ``filters`` (paged)."""
        pending = [(f, 0) for f in filters]
        while pending:
            got = self._batch([SearchOp(namespace, f, _PAGE, offset) for f, offset in pending])
            nxt: list[tuple[dict[str, Any], int]] = []
            for (f, offset), page in zip(pending, got, strict=True):
                items = page if isinstance(page, list) else []
                for item in items:
                    if isinstance(item, Item) and item.namespace == namespace:
                        yield item
                if len(items) == _PAGE:
                    nxt.append((f, offset + _PAGE))
            pending = nxt

    # ----------------------------------------------------------------- sessions, restore

    def end_session(self, namespace: tuple[str, ...], session_id: str) -> list[str]:
        """Close a session; soft-delete its episode if the session stayed trivial.

        Returns:
            Keys of the episodes set to ``active=False`` (empty when the session mattered).
        """
        ns = tuple(namespace)
        meta_ns = self._meta_namespace(ns)
        with self._lock(ns):
            got = self._get(meta_ns, str(session_id))
            if got is None:
                return []
            meta = SessionMetadata.model_validate(got.value)
            removed: list[str] = []
            writes: list[Op] = []
            if is_trivial_session(meta, self.policy):
                items = self._batch([GetOp(ns, k) for k in meta.trivial_episode_keys])
                for item in items:
                    if isinstance(item, Item) and item.value.get(ACTIVE, True):
                        writes.append(PutOp(ns, item.key, self._deactivated(item.value)))
                        removed.append(item.key)
            ended = meta.model_copy(update={"ended": True, "updated_at": self.clock()})
            writes.append(PutOp(meta_ns, meta.session_id, ended.model_dump(mode="json")))
            self._write(writes)
        with self._stats_lock:
            self._stats["episode:soft_deleted"] += len(removed)
        return removed

    async def aend_session(self, namespace: tuple[str, ...], session_id: str) -> list[str]:
        """Async ``end_session``."""
        return await asyncio.to_thread(self.end_session, namespace, session_id)

    def session_metadata(
        self, namespace: tuple[str, ...], session_id: str
    ) -> SessionMetadata | None:
        """The stored metadata of a session of ``namespace`` (``None`` if never seen)."""
        got = self._get(self._meta_namespace(tuple(namespace)), str(session_id))
        return None if got is None else SessionMetadata.model_validate(got.value)

    def list_inactive(
        self, namespace: tuple[str, ...], *, limit: int = 100, offset: int = 0
    ) -> list[SearchItem]:
        """Soft-deleted episodes of ``namespace`` (restorable with :meth:`restore`)."""
        with self._io():
            return self.store.search(
                tuple(namespace), filter={ACTIVE: False}, limit=limit, offset=offset
            )

    async def alist_inactive(
        self, namespace: tuple[str, ...], *, limit: int = 100, offset: int = 0
    ) -> list[SearchItem]:
        """Async ``list_inactive``."""
        if self._shared.io is not None:
            return await asyncio.to_thread(
                self.list_inactive, namespace, limit=limit, offset=offset
            )
        return await self.store.asearch(
            tuple(namespace), filter={ACTIVE: False}, limit=limit, offset=offset
        )

    def restore(self, namespace: tuple[str, ...], key: str) -> bool:
        """Make a soft-deleted episode active again; ``False`` if it is missing or active."""
        ns = tuple(namespace)
        with self._lock(ns):
            item = self._get(ns, str(key))
            if item is None or item.value.get(ACTIVE, True):
                return False
            value = dict(item.value)
            value[ACTIVE] = True
            info = dict(value.get(QGATE) or {})
            info.pop("deactivated", None)
            info["restored_at"] = self.clock()
            value[QGATE] = info
            self._write([PutOp(ns, item.key, value)])
        return True

    async def arestore(self, namespace: tuple[str, ...], key: str) -> bool:
        """Async ``restore``."""
        return await asyncio.to_thread(self.restore, namespace, key)

    @property
    def stats(self) -> dict[str, int]:
        """Counts of filter outcomes since creation (``"episode:skipped_duplicate"``, ...)."""
        with self._stats_lock:
            return dict(self._stats)

    # ----------------------------------------------------------------- helpers

    def _word_similarity(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        words = sorted({w for pair in pairs for w in pair})
        vecs = normalise(np.asarray(self.embedder.embed(words), dtype=np.float32))
        row = {w: vecs[i] for i, w in enumerate(words)}
        return [float(row[a] @ row[b]) for a, b in pairs]

    def _deactivated(self, value: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(value)
        out[ACTIVE] = False
        info = dict(out.get(QGATE) or {})
        info["deactivated"] = {"at": self.clock(), "reason": "trivial_session"}
        out[QGATE] = info
        return out

    def _meta_namespace(self, namespace: tuple[str, ...]) -> tuple[str, ...]:
        return (*self.policy.metadata_namespace, *namespace)

    def _rewrite_search(self, op: Op) -> Op:
        """Hide soft-deleted episodes from searches of an episode namespace."""
        if (
            self.policy.hide_inactive
            and isinstance(op, SearchOp)
            and self.policy.kind_of(op.namespace_prefix) == "episode"
            and ACTIVE not in (op.filter or {})
        ):
            return op._replace(filter={**(op.filter or {}), ACTIVE: True})
        return op

    def _write(self, ops: list[Op]) -> None:
        self._batch(ops)

    def _io(self) -> AbstractContextManager[object]:
        return self._shared.io if self._shared.io is not None else nullcontext()

    def _batch(self, ops: list[Op]) -> list[Result]:
        with self._io():
            return self.store.batch(ops)

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        got = self._batch([GetOp(namespace, key)])[0]
        return got if isinstance(got, Item) else None

    @contextmanager
    def _lock(self, namespace: tuple[str, ...]) -> Iterator[None]:
        stripe = self._shared.namespace(namespace)
        outer = self.namespace_lock(namespace) if self.namespace_lock else nullcontext()
        with stripe, outer:
            yield
