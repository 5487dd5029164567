"""Signal memory, id sources and the field readers shared by the judge and the citation judge.

Private module; the public names are re-exported by :mod:`langchain_qgate.judge`.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from langchain_qgate.errors import InvalidInputError

__all__ = [
    "DEFAULT_MAX_LISTED_IDS",
    "MISSING",
    "IdSource",
    "InMemorySignalMemory",
    "SignalMemory",
    "format_valid_ids",
    "get_field",
    "id_list",
    "resolve_ids",
]

DEFAULT_MAX_LISTED_IDS = 20
"""How many valid ids a rejection message lists before ``... and N more``."""

# --------------------------------------------------------------------------- signal memory


@runtime_checkable
class SignalMemory(Protocol):
    """Knows which signal / evidence ids exist.

    Any object with a ``signal_ids()`` method works; return a set (or frozenset) so that
    lookups are O(1). The judge calls it once per ``judge`` / ``judge_many`` call.
    """

    def signal_ids(self) -> AbstractSet[str]:
        """Return the ids that results may cite."""
        ...


class InMemorySignalMemory:
    """A signal memory held in a set.

    Args:
        ids: Initial signal ids.

    Example:
        ```python
        memory = InMemorySignalMemory(["sig-1", "sig-2"])
        memory.add("sig-3")
        assert "sig-3" in memory.signal_ids()
        ```
    """

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self._ids: set[str] = set()
        self._frozen: frozenset[str] | None = None
        self.update(ids)

    def add(self, signal_id: str) -> None:
        """Record one signal id."""
        self.update((signal_id,))

    def update(self, ids: Iterable[str]) -> None:
        """Record several signal ids.

        Raises:
            InvalidInputError: If ``ids`` is a single string or contains a non-string.
        """
        if isinstance(ids, str):
            raise InvalidInputError("ids", "expected an iterable of ids, got a single string")
        for signal_id in ids:
            if not isinstance(signal_id, str):
                raise InvalidInputError("ids", f"signal ids are strings, got {signal_id!r}")
            self._ids.add(signal_id)
        self._frozen = None

    def discard(self, signal_id: str) -> None:
        """Forget one signal id (no error when absent)."""
        self._ids.discard(signal_id)
        self._frozen = None

    def signal_ids(self) -> frozenset[str]:
        """The recorded ids (an immutable snapshot, cached until the next change)."""
        if self._frozen is None:
            self._frozen = frozenset(self._ids)
        return self._frozen

    def __contains__(self, signal_id: object) -> bool:
        return signal_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return f"InMemorySignalMemory({len(self._ids)} ids)"


IdSource = SignalMemory | AbstractSet[str] | Callable[[], Iterable[str]] | Iterable[str]
"""Where valid ids come from: a signal memory, a set, a function returning ids, or any
iterable of ids (a single string is refused)."""


def resolve_ids(source: IdSource) -> AbstractSet[str]:
    """Turn an :data:`IdSource` into a set (sets pass through without copying).

    Raises:
        InvalidInputError: If ``source`` is a string.
    """
    if isinstance(source, str):
        raise InvalidInputError("valid_ids", "expected a collection of ids, got a single string")
    if isinstance(source, AbstractSet):
        return source
    if isinstance(source, SignalMemory):
        return source.signal_ids()
    if callable(source):
        return resolve_ids(source())
    return frozenset(source)


def format_valid_ids(ids: AbstractSet[str], *, limit: int = DEFAULT_MAX_LISTED_IDS) -> str:
    """Render valid ids for a rejection message, sorted.

    Up to ``limit`` ids are listed in full (``['a', 'b']``). Past that, the ``limit`` smallest
    ids are listed and the rest counted (``['a', ..., 't'] ... and 99,980 more``), found with
    a heap so the cost stays linear in the number of ids.
    """
    if not ids:
        return "none (no ids are recorded)"
    if len(ids) <= limit:
        return repr(sorted(ids))
    head = heapq.nsmallest(limit, ids)
    return f"{head!r} ... and {len(ids) - limit:,} more"


# --------------------------------------------------------------------------- helpers

MISSING = object()


def get_field(obj: Any, name: str) -> Any:
    """Read a field from a model, an object or a mapping; ``MISSING`` when absent."""
    if isinstance(obj, BaseModel):  # fast path: the common case, checked without the ABC
        return getattr(obj, name, MISSING)
    if isinstance(obj, dict | Mapping):
        return obj.get(name, MISSING)
    return getattr(obj, name, MISSING)


def id_list(value: Any) -> list[Any] | None:
    """Normalise a citation field to a list (not copied when it is one already); ``None``
    when it is not an id or a list of ids."""
    if type(value) is list:
        return value
    if value is None or value is MISSING:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence | AbstractSet) and not isinstance(value, bytes | bytearray):
        return list(value)
    return None
