"""Bounded linearisation of structured data: the walk behind ``structured``.

Any Python data a tool can return is read in time linear in the values read, whatever its
shape:

- nesting: containers deeper than ``MAX_DEPTH`` levels are not opened;
- sharing: a container reached by several paths is read once per path (each path is a
  field: ``billing.city`` and ``shipping.city`` of one shared address), but every value
  visited counts against ``MAX_VALUES`` per source, so ``x = {"a": x, "b": x}`` or
  ``l = [l, l]`` repeated 24 times (16 million paths) stops after ``MAX_VALUES`` visits
  instead of running for minutes;
- cycles: a container met again inside itself is not re-entered;
- long lists: a list of scalars becomes statements of ``LIST_ITEMS`` values each
  (``values[0-99]``, ``values[100-199]``...), so no statement grows with the list;
- fields: at most ``MAX_FIELDS`` statements per source.

Whatever is left unread is said in a note (``Flattened.cut``) that the evidence index puts
into the report, so a cut is never silent. Keys and values whose ``str`` fails, integers past
Python's digit limit and lone surrogates all become readable text; invisible format
characters (a zero-width space inside ``"20\\u200b19"``) are dropped from keys and values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from langchain_qgate._text import repair_text, strip_format
from langchain_qgate.grounding.claims.segment import split_sentences

__all__ = [
    "LIST_ITEMS",
    "MAX_DEPTH",
    "MAX_FIELDS",
    "MAX_VALUES",
    "Flattened",
    "flatten",
    "is_long",
    "json_safe",
    "key_text",
    "scalar_text",
]

MAX_FIELDS = 5_000
"""Statements per source; past this the rest of the source is not read (and the cut noted)."""
MAX_VALUES = 20_000
"""Values visited per source (containers, scalars, list items, once per path)."""
MAX_DEPTH = 32
"""Containers nested deeper than this are not opened."""
LIST_ITEMS = 100
"""Values per statement of a long list of scalars."""
MAX_INT_DIGITS = 50_000
"""Integers longer than this are not written out (Python's own limit is 4,300 digits)."""

_LONG_TEXT = 160  # a string value this long (or with several sentences) stays prose
_FAST_INT_BITS = 14_000  # under Python's 4,300-digit str() limit
_ID_CHARS = 60


_CUT = object()  # a value ``json_safe`` did not read: left out, never written as a null
EMPTY = "none"
"""The value read for a null and for an empty list or object: the record says there is none
("gate: none", "alerts: none"); a yes/no reading takes it as false."""


def _keyed(path: str) -> bool:
    """Whether a path ends with a key (``alerts``), not an item of a list (``[3]``): a null
    or empty item of a list says nothing."""
    return bool(path) and not path.endswith("]")


def is_long(text: str) -> bool:
    """Whether a string value is prose (long, or several sentences) rather than a value."""
    return len(text) > _LONG_TEXT or len(split_sentences(text)) > 1


def _int_text(value: int) -> str | None:
    if abs(value).bit_length() <= _FAST_INT_BITS:
        return int.__repr__(value)
    if abs(value).bit_length() * 0.30103 > MAX_INT_DIGITS:
        return None
    return str(Decimal(value))  # exact, without str()'s digit limit


def scalar_text(value: Any) -> str | None:
    """A scalar as text (``None`` for ``None``, containers, unreadable and empty values).

    Booleans read ``true``/``false``; integers of any length up to ``MAX_INT_DIGITS``
    digits are written out exactly; lone surrogates become U+FFFD; invisible format
    characters (``"20\\u200b19"``) are dropped; runs of whitespace become one space.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return _int_text(value)
    if isinstance(value, float):
        return float.__repr__(value)
    if isinstance(value, str):
        text = " ".join(strip_format(value).split())
        return repair_text(text) if text else None
    return None


def key_text(key: Any, *, safe: Any) -> str:
    """A mapping key as an id segment: its text with ``safe``'s unsafe characters as ``_``.

    A key whose ``str`` raises is named by its type; only the first 60 characters count.
    """
    if isinstance(key, str):
        raw = key
    elif isinstance(key, int | float) and (text := scalar_text(key)) is not None:
        raw = text
    else:
        try:
            raw = str(key)
        except Exception:  # a user type's __str__ may raise anything: name it by its type
            raw = type(key).__name__
    text = safe.sub("_", repair_text(strip_format(raw[: _ID_CHARS * 4]))).strip() or "_"
    return text[:_ID_CHARS]


@dataclass
class Flattened:
    """The statements read from one value and what was left unread.

    Attributes:
        fields: ``(path, record, value, kind)`` per statement, in document order.
        cut: Why part of the value was not read (empty when all of it was).
        empties: How many of ``fields`` are a null or an empty value read as ``EMPTY`` (a
            string ``"none"`` the data holds is a value, not one of them).
    """

    fields: list[tuple[str, str, str, str]] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)
    empties: int = 0

    def note(self, reason: str) -> None:
        if reason not in self.cut:
            self.cut.append(reason)


class _Walk:
    def __init__(self, safe: Any) -> None:
        self.safe = safe
        self.out = Flattened()
        self.visited = 0
        self.open: set[int] = set()  # ids of the containers being read (cycle guard)

    def fields_full(self) -> bool:
        if len(self.out.fields) >= MAX_FIELDS:
            self.out.note(f"more than {MAX_FIELDS:,} fields: the rest was not read")
            return True
        return False

    def full(self) -> bool:
        if self.fields_full():
            return True
        if self.visited >= MAX_VALUES:
            self.out.note(f"more than {MAX_VALUES:,} values: the rest was not read")
            return True
        return False

    def emit(self, path: str, record: str, value: str, kind: str = "value") -> None:
        if not self.fields_full():
            self.out.fields.append((path, record, value, kind))

    def empty(self, path: str, record: str) -> None:
        """A null or an empty container under a key: the record says there is none."""
        if not self.fields_full():
            self.out.fields.append((path, record, EMPTY, "value"))
            self.out.empties += 1

    def walk(self, value: Any, path: str, record: str, depth: int) -> None:
        if self.full():
            return
        self.visited += 1
        container = isinstance(value, Mapping | list | tuple)
        if depth > MAX_DEPTH:
            if container or value is not None:
                self.out.note(f"nested more than {MAX_DEPTH} levels: deeper values not read")
            return
        if not container:
            self.scalar(value, path, record)
            return
        if id(value) in self.open:
            self.out.note("a value contains itself: the repeated part was not read again")
            return
        self.open.add(id(value))
        try:
            if not value and _keyed(path):
                self.empty(path, record)  # ``"alerts": []``: there are none
            elif isinstance(value, Mapping):
                for k, v in value.items():
                    if self.full():
                        return
                    seg = key_text(k, safe=self.safe)
                    self.walk(v, f"{path}.{seg}" if path else seg, record, depth + 1)
            else:
                self.sequence(value, path, record, depth)
        finally:
            self.open.discard(id(value))

    def scalar(self, value: Any, path: str, record: str) -> None:
        text = scalar_text(value)
        if value is None and _keyed(path):
            self.empty(path, record)  # ``"gate": null``: the record says there is none
            return
        if text is None:
            if isinstance(value, int) and not isinstance(value, bool):
                self.out.note(f"an integer of more than {MAX_INT_DIGITS:,} digits was not read")
            return
        if path:
            self.emit(
                path, record, text, "text" if isinstance(value, str) and is_long(text) else "value"
            )

    def sequence(
        self, value: list[Any] | tuple[Any, ...], path: str, record: str, depth: int
    ) -> None:
        room = MAX_VALUES - self.visited
        head = value[:room]
        texts = self.short_scalars(head)
        if texts is None:
            for i, v in enumerate(value):
                if self.full():
                    return
                sub = f"{path}[{i}]"
                self.walk(v, sub, sub if isinstance(v, Mapping) else record, depth + 1)
            return
        self.visited += len(head)
        if len(value) <= LIST_ITEMS:
            self.emit(path, record, ", ".join(texts))
            return
        for start in range(0, len(texts), LIST_ITEMS):
            part = texts[start : start + LIST_ITEMS]
            self.emit(f"{path}[{start}-{start + len(part) - 1}]", record, ", ".join(part))
        if len(head) < len(value):
            self.out.note(f"more than {MAX_VALUES:,} values: the rest was not read")

    @staticmethod
    def short_scalars(items: list[Any] | tuple[Any, ...]) -> list[str] | None:
        """The items' texts when every item is a short scalar (one statement), else None."""
        if not items:
            return None
        texts: list[str] = []
        for v in items:
            if isinstance(v, Mapping | list | tuple):
                return None
            text = scalar_text(v)
            if text is None or (isinstance(v, str) and is_long(text)):
                return None
            texts.append(text)
        return texts


def flatten(data: Any, *, safe: Any) -> Flattened:
    """Linearise ``data`` into ``(path, record, value, kind)`` statements, within the caps.

    Args:
        data: A mapping, list or tuple (anything else gives no statements).
        safe: The compiled pattern of characters an id segment may not hold.

    Returns:
        The statements and, when the caps cut the data, why.
    """
    walk = _Walk(safe)
    walk.walk(data, "", "", 0)
    return walk.out


def json_safe(data: Any, *, safe: Any) -> tuple[Any, list[str]]:
    """A copy of ``data`` that ``json.dumps`` always writes, within the same caps.

    Tools hand the integrations artifacts of any shape; written as JSON text they become
    structured evidence. ``json.dumps`` fails on cycles, keys that are not strings, integers
    past 4,300 digits and deep nesting, and writes a shared structure once per path; this
    copy keeps what ``flatten`` would read (keys as id segments, scalars as they read, at
    most ``MAX_VALUES`` values, ``MAX_DEPTH`` levels, no cycle) and says what it left out.
    """
    cut = Flattened()
    visited = 0
    open_ids: set[int] = set()

    def copy(value: Any, depth: int) -> Any:
        nonlocal visited
        if visited >= MAX_VALUES:
            cut.note(f"more than {MAX_VALUES:,} values: the rest was not read")
            return _CUT
        visited += 1
        if not isinstance(value, Mapping | list | tuple):
            if value is None or isinstance(value, bool | float):
                return value
            if isinstance(value, int) and abs(value).bit_length() <= _FAST_INT_BITS:
                return int(value)
            text = scalar_text(value)
            if text is None and isinstance(value, int):
                cut.note(f"an integer of more than {MAX_INT_DIGITS:,} digits was not read")
            if text is None and not isinstance(value, int | str):
                text = _object_text(value)
            return text
        if depth >= MAX_DEPTH:
            cut.note(f"nested more than {MAX_DEPTH} levels: deeper values not read")
            return _CUT
        if id(value) in open_ids:
            cut.note("a value contains itself: the repeated part was not read again")
            return _CUT
        open_ids.add(id(value))
        try:
            if isinstance(value, Mapping):
                pairs = ((key_text(k, safe=safe), copy(v, depth + 1)) for k, v in value.items())
                return {k: v for k, v in pairs if v is not _CUT}
            items = (copy(v, depth + 1) for v in value[: max(0, MAX_VALUES - visited)])
            return [v for v in items if v is not _CUT]
        finally:
            open_ids.discard(id(value))

    data = copy(data, 0)
    return (None if data is _CUT else data), cut.cut


def _object_text(value: Any) -> str | None:
    """``str`` of another object (a date, a UUID, a Decimal), or None when it raises."""
    try:
        text = str(value)
    except Exception:  # a user type's __str__ may raise anything: leave the value out
        return None
    return scalar_text(text)
