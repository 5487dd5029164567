"""Cross-process namespace locks for the dedup check-then-put on a shared database.

Within one process ``QualityFilteredStore`` serialises puts per namespace with its own
locks. Several processes writing to one ``PostgresStore`` need a lock the database holds:
:class:`PostgresAdvisoryLock` takes a session-level ``pg_advisory_lock`` keyed by a hash of
the namespace (released on exit, or by the server if the process dies).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["PostgresAdvisoryLock", "advisory_key"]


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
