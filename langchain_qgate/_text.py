"""Text of an output: a string, a message with string or block content, or anything else.

Private helper shared by the calibrator and the gate.
"""

from __future__ import annotations

from typing import Any

__all__ = ["output_text"]


def output_text(output: Any) -> str:
    """The text of an output: a string, a message (content blocks joined) or ``str(output)``."""
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
