"""Locks for the dedup check-then-put: one registry per process, advisory locks across.

Within one process, every ``QualityFilteredStore`` wrapping the same store object shares the
locks of :func:`store_locks` (keyed by that object): puts to one namespace are serialised
whichever wrapper or thread makes them. Several processes writing to one ``PostgresStore``
need a lock the database holds: :class:`PostgresAdvisoryLock` takes a session-level
``pg_advisory_lock`` keyed by a hash of the namespace (released on exit, or by the server if
the process dies).
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["PostgresAdvisoryLock", "SharedStoreLocks", "advisory_key", "store_locks"]

_STRIPES = 64


class SharedStoreLocks:
    """The in-process locks of one wrapped store, shared by all of its wrappers.

    Attributes:
        io: Held around every call a wrapper makes to a store that is not thread-safe
            (``InMemoryStore`` iterates a dict that a concurrent put or get may grow);
            ``None`` for stores that are (databases).
    """

    def __init__(self, *, serialise_io: bool) -> None:
        self._stripes = [threading.Lock() for _ in range(_STRIPES)]
        self.io: threading.RLock | None = threading.RLock() if serialise_io else None

    def namespace(self, namespace: tuple[str, ...]) -> threading.Lock:
        """The lock of ``namespace`` (one of a fixed set of stripes)."""
        return self._stripes[hash(namespace) % _STRIPES]


_REGISTRY_LOCK = threading.Lock()
_REGISTRY: dict[int, tuple[Callable[[], object], SharedStoreLocks]] = {}


def _forget(key: int, entry: SharedStoreLocks) -> None:
    with _REGISTRY_LOCK:
        current = _REGISTRY.get(key)
        if current is not None and current[1] is entry:
            del _REGISTRY[key]


def store_locks(store: object) -> SharedStoreLocks:
    """The process-wide locks of ``store`` (created on first use, dropped with the store).

    Keyed by the store object itself, not by a wrapper: two wrappers of one
    ``InMemoryStore`` get the same locks; two different stores never share one.
    """
    from langgraph.store.memory import InMemoryStore

    key = id(store)
    with _REGISTRY_LOCK:
        found = _REGISTRY.get(key)
        if found is not None and found[0]() is store:
            return found[1]
        entry = SharedStoreLocks(serialise_io=isinstance(store, InMemoryStore))
        owner: Callable[[], object]
        try:
            owner = weakref.ref(store)
            weakref.finalize(store, _forget, key, entry)
        except TypeError:  # not weak-referenceable: keep it for the life of the process

            def owner() -> object:
                return store

        _REGISTRY[key] = (owner, entry)
        return entry


def advisory_key(namespace: tuple[str, ...]) -> int:
    """A stable signed 64-bit key for ``namespace`` (the same in every process)."""
    digest = hashlib.blake2b("\x1f".join(("qgate", *namespace)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresAdvisoryLock:
    """A ``namespace_lock`` for ``QualityFilteredStore`` backed by PostgreSQL advisory locks.

    Args:
        conninfo: A libpq connection string (the same database as the store).
        max_connections: Pool size: how many namespaces this process can lock at once.

    Example:
        >>> lock = PostgresAdvisoryLock(dsn)  # doctest: +SKIP
        >>> store = QualityFilteredStore(pg_store, namespace_lock=lock)  # doctest: +SKIP
    """

    def __init__(self, conninfo: str, *, max_connections: int = 4) -> None:
        if max_connections < 1:
            raise ValueError(f"max_connections must be >= 1, got {max_connections}")
        from psycopg_pool import ConnectionPool

        self._pool: Any = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True},
            open=True,
        )

    @contextmanager
    def __call__(self, namespace: tuple[str, ...]) -> Iterator[None]:
        """Hold the advisory lock of ``namespace`` for the duration of the block."""
        key = advisory_key(namespace)
        with self._pool.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def close(self) -> None:
        """Close the pool's connections."""
        self._pool.close()

    def __enter__(self) -> PostgresAdvisoryLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
