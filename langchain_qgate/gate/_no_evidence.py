"""The warning for a check with nothing to grade against (every factual claim would fail).

Private helper of :mod:`langchain_qgate.gate`: ``QualityGate.check`` / ``acheck`` call it; the
integrations set, through ``gate_scope``, which surface is calling and whether this attempt is
the run's first (one warning per run).
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_qgate.gate.telemetry import current_scope

__all__ = ["warn_if_no_evidence"]

logger = logging.getLogger(__name__)


def _is_empty(evidence: Any) -> bool:
    """No evidence, or only items without text (an evidence path that found nothing)."""
    if evidence is None:
        return True
    if isinstance(evidence, str):
        return not evidence.strip()
    if isinstance(evidence, dict):
        return not evidence
    if isinstance(evidence, list | tuple | set):
        return all(_is_blank_item(item) for item in evidence)
    return False


def _is_blank_item(item: Any) -> bool:
    """An item with no text: empty itself, or a Document / message / chunk with blank text."""
    if item is None:
        return True
    if isinstance(item, str):
        return not item.strip()
    if isinstance(item, dict | list | tuple | set):  # one level only: nested data is not read
        return not item
    for name in ("page_content", "content", "text"):
        value = getattr(item, name, None)
        if isinstance(value, str):
            return not value.strip()
    return False


def warn_if_no_evidence(evidence: Any) -> None:
    """Log when a check has nothing to grade against (every factual claim will fail).

    Once per run: the integrations turn it off for later attempts (``gate_scope``); the
    message names the surface that called the gate.
    """
    surface, _, warn = current_scope()
    if warn and _is_empty(evidence):
        where = "quality gate" if surface == "gate" else f"quality gate ({surface})"
        logger.warning(
            "%s: no evidence given, so every factual claim is graded fabricated; "
            "check that your documents or retriever results reach the gate",
            where,
        )
