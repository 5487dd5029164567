"""Stated confidence: verbalized phrases and numbers, token logprobs.

Private helper of :mod:`langchain_qgate.calibration` (names re-exported there).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["VERBAL_CONFIDENCE", "logprob_confidence", "verbalized_confidence"]

VERBAL_CONFIDENCE: dict[str, float] = {
    # near certainty
    "without a doubt": 0.95,
    "without doubt": 0.95,
    "undoubtedly": 0.95,
    "definitely": 0.95,
    "certainly": 0.95,
    "absolutely": 0.95,
    "i am certain": 0.95,
    "i'm certain": 0.95,
    "i am sure": 0.95,
    "i'm sure": 0.95,
    "for sure": 0.95,
    "guaranteed": 0.95,
    "almost certainly": 0.9,
    "highly likely": 0.9,
    "very likely": 0.9,
    "very probably": 0.9,
    "i am confident": 0.85,
    "i'm confident": 0.85,
    "confident that": 0.85,
    "most likely": 0.8,
    "in all likelihood": 0.8,
    # leaning
    "probably": 0.7,
    "likely": 0.7,
    "i believe": 0.65,
    "i think": 0.65,
    "it seems": 0.6,
    "seems to": 0.6,
    "appears to": 0.6,
    # hedged
    "possibly": 0.4,
    "perhaps": 0.4,
    "maybe": 0.4,
    "might": 0.4,
    "could be": 0.4,
    "may be": 0.4,
    "may have": 0.4,
    "not sure": 0.35,
    "unsure": 0.35,
    "not certain": 0.35,
    "uncertain": 0.35,
    "not confident": 0.35,
    # doubtful
    "not likely": 0.25,
    "unlikely": 0.2,
    "doubtful": 0.2,
    "i doubt": 0.2,
    "i don't know": 0.2,
    "i do not know": 0.2,
    "no idea": 0.2,
    "very unlikely": 0.1,
    "highly unlikely": 0.1,
}
"""Phrase -> stated probability (case-insensitive, whole words, longest phrase wins)."""

_PHRASES = sorted(VERBAL_CONFIDENCE, key=len, reverse=True)
_PHRASE_RE = re.compile(r"\b(" + "|".join(re.escape(p) for p in _PHRASES) + r")\b")
_NUM = r"(\d{1,3}(?:\.\d+)?)"
_PCT_WORD_RE = re.compile(
    _NUM + r"\s*(?:%|percent|per cent)\s*(?:sure|certain|confident|confidence|certainty|likely|"
    r"probability|chance)"
)
_CONF_RE = re.compile(
    r"\b(?:confidence|certainty|probability)(?:\s+(?:level|score))?\s*(?:of|is|:|=|at)?\s*"
    r"(?:about|around|roughly|approximately|~)?\s*" + _NUM + r"\s*(%|percent|/\s*10\b|/\s*100\b)?"
)
_OUT_OF_TEN_RE = re.compile(r"\b(\d{1,2})\s*/\s*10\s+(?:sure|certain|confident|confidence)")


def verbalized_confidence(text: str) -> list[tuple[str, float]]:
    """Stated confidences in ``text`` as ``(matched text, probability)`` pairs.

    Explicit numbers come first; when there are any, phrases are not returned.
    """
    low = text.lower().replace("’", "'")
    numbers: list[tuple[str, float]] = []
    for m in _PCT_WORD_RE.finditer(low):
        value = float(m.group(1))
        if value <= 100:
            numbers.append((m.group(0), value / 100))
    for m in _CONF_RE.finditer(low):
        value, unit = float(m.group(1)), (m.group(2) or "").replace(" ", "")
        if unit in {"%", "percent", "/100"}:
            value /= 100
        elif unit == "/10":
            value /= 10
        elif value > 1:
            value /= 100
        if 0 <= value <= 1 and not any(m.group(0) in n or n in m.group(0) for n, _ in numbers):
            numbers.append((m.group(0), value))
    for m in _OUT_OF_TEN_RE.finditer(low):
        value = float(m.group(1)) / 10
        if value <= 1:
            numbers.append((m.group(0), value))
    if numbers:
        return numbers
    return [(m.group(1), VERBAL_CONFIDENCE[m.group(1)]) for m in _PHRASE_RE.finditer(low)]


def logprob_confidence(output: Any) -> tuple[float, int] | None:
    """Mean token probability from OpenAI-shaped logprobs, with the token count.

    Reads ``output.response_metadata["logprobs"]``: ``{"content": [{"logprob": ...}, ...]}`` or
    the list of token entries itself. ``None`` when absent or empty.
    """
    meta = getattr(output, "response_metadata", None)
    if not isinstance(meta, Mapping):
        return None
    lp = meta.get("logprobs")
    entries = lp.get("content") if isinstance(lp, Mapping) else lp
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        return None
    probs = [
        p
        for e in entries
        if isinstance(e, Mapping) and (p := _token_prob(e.get("logprob"))) is not None
    ]
    if not probs:
        return None
    return sum(probs) / len(probs), len(probs)


def _token_prob(logprob: Any) -> float | None:
    """``exp(logprob)`` capped at 1; None for a non-number or NaN.

    An int beyond the float range (``-10**400``) is read as -inf (probability 0) or +inf (1).
    """
    if isinstance(logprob, bool) or not isinstance(logprob, int | float):
        return None
    try:
        value = float(logprob)
    except OverflowError:
        value = math.inf if logprob > 0 else -math.inf
    if math.isnan(value):
        return None
    return math.exp(min(0.0, value))
