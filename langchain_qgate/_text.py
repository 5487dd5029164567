"""Text of an output: a string, a message with string or block content, or anything else.

Private helper shared by the calibrator, the gate and the grounding entry points; also the
text every reader of figures and words sees: lone surrogates repaired (offsets kept) and
invisible format characters removed (with a map back to the original offsets).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

__all__ = [
    "FORMAT_CHARACTERS",
    "Unformatted",
    "output_text",
    "repair_text",
    "strip_format",
    "without_format",
]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Where Unicode puts its format characters (category Cf: soft hyphen, zero-width space,
# joiners, bidi marks, overrides and isolates, word joiner, BOM, tags, ...), up to Unicode
# 15.1; only the code points this Python's ``unicodedata`` calls Cf are kept.
_FORMAT_BLOCKS = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)  # fmt: skip
FORMAT_CHARACTERS = frozenset(
    chr(c)
    for lo, hi in _FORMAT_BLOCKS
    for c in range(lo, hi + 1)
    if unicodedata.category(chr(c)) == "Cf"
)
"""The Unicode format characters (category Cf) that :func:`strip_format` removes."""
_FORMAT = re.compile("[" + "".join(sorted(map(re.escape, FORMAT_CHARACTERS))) + "]")


def repair_text(text: str) -> str:
    """``text`` with every lone surrogate (``"\\ud800"``) replaced by U+FFFD.

    A Python string never holds a valid surrogate pair, so any code point in
    U+D800..U+DFFF is invalid Unicode that no encoder, tokenizer or JSON writer accepts.
    One code point replaces one code point: offsets (claim spans) stay valid.
    """
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


def strip_format(text: str) -> str:
    """``text`` without Unicode format characters (category Cf).

    They are invisible, yet a zero-width space or a right-to-left override inside
    ``"20\\u200b19"`` hides the year from every reader of figures and words; without them the
    text reads as it is shown.
    """
    if text.isascii():
        return text
    return _FORMAT.sub("", text)


@dataclass(frozen=True)
class Unformatted:
    """A text without its format characters, and the way back to the original offsets.

    Attributes:
        text: The text without format characters (:func:`strip_format`).
        cuts: For each removed character, in order, the offset in ``text`` of the first
            character kept after it.

    Example:
        >>> plain = without_format("Founded in 20\\u200b19.")
        >>> plain.text, plain.start(11), plain.end(15)
        ('Founded in 2019.', 11, 16)
    """

    text: str
    cuts: tuple[int, ...] = ()

    def start(self, i: int) -> int:
        """The original offset of ``text[i]`` (a span's start)."""
        return i + bisect_right(self.cuts, i)

    def end(self, i: int) -> int:
        """The original offset just after ``text[i - 1]`` (a span's exclusive end); format
        characters after a span's last character stay outside it."""
        return self.start(i - 1) + 1 if i > 0 else 0


def without_format(text: str) -> Unformatted:
    """``text`` without Unicode format characters, with a map back to its offsets.

    Spans found in the stripped text point into the original through
    :meth:`Unformatted.start` and :meth:`Unformatted.end`. Linear in the text.
    """
    if text.isascii() or _FORMAT.search(text) is None:
        return Unformatted(text)
    kept: list[str] = []
    cuts: list[int] = []
    pos = 0
    for m in _FORMAT.finditer(text):
        kept.append(text[pos : m.start()])
        cuts.append(m.start() - len(cuts))
        pos = m.end()
    kept.append(text[pos:])
    return Unformatted("".join(kept), tuple(cuts))


def output_text(output: Any) -> str:
    """The text of an output: a string, a message (content blocks joined) or ``str(output)``.

    Lone surrogates are replaced by U+FFFD (see :func:`repair_text`).
    """
    return repair_text(_raw_output_text(output))


def _raw_output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    text = getattr(output, "text", None)
    if isinstance(text, str):
        return text
    if callable(text):  # older message API: text() method
        value = text()
        if isinstance(value, str):
            return value
    content = getattr(output, "content", None)
    if isinstance(content, str):
        return content
    return str(output)
