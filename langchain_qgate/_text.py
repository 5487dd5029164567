"""Text of an output: a string, a message with string or block content, or anything else.

Private helper shared by the calibrator, the gate and the grounding entry points.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["output_text", "repair_text"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def repair_text(text: str) -> str:
    """``text`` with every lone surrogate (``"\\ud800"``) replaced by U+FFFD.

    A Python string never holds a valid surrogate pair, so any code point in
    U+D800..U+DFFF is invalid Unicode that no encoder, tokenizer or JSON writer accepts.
    One code point replaces one code point: offsets (claim spans) stay valid.
    """
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


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
