"""Annotated rendering of a gated output: citation markers, flags and a sources footer.

Private helper of :mod:`langchain_qgate.gate` (``FilteredOutput.render_annotated``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from langchain_qgate.gate.metadata import QualityMetadata

__all__ = ["INFERRED_FLAG", "render_annotated"]

INFERRED_FLAG = "⚠inferred"
"""Flag appended to INFERRED claims."""
CONTRADICTED_FLAG = "⚠contradicted"
"""Flag appended to contradicted claims (only seen when an output passes with them)."""
UNSUPPORTED_FLAG = "⚠unsupported"
"""Flag appended to unsupported FABRICATED claims."""

_TRAILING = ".!?;:,"


def _marker(metadata: QualityMetadata, index: int) -> str:
    claim = metadata.claims[index]
    if claim.grade == "grounded":
        nums = [str(m) for m in claim.markers]
        return "".join(f"[{n}]" for n in nums)
    if claim.grade == "inferred":
        return f"[{INFERRED_FLAG}]"
    if claim.contradiction:
        return f"[{CONTRADICTED_FLAG}: {claim.contradiction}]"
    return f"[{UNSUPPORTED_FLAG}]"


def render_annotated(text: str, metadata: QualityMetadata, *, warning: str | None = None) -> str:
    """Mark each counted claim inline and append the sources.

    Grounded claims get citation markers (``[1]``) that map to evidence ids in a
    ``Sources:`` footer; inferred claims get ``[⚠inferred]``; fabricated claims (present only
    when an output passed with a warning or under a loose threshold) get ``[⚠contradicted:
    ...]`` or ``[⚠unsupported]``. Markers go before a claim's closing punctuation.

    Args:
        text: The output text the claim spans refer to.
        metadata: The gate's metadata for that text.
        warning: A warning line to put first (low-confidence pass).

    Returns:
        The annotated text.
    """
    inserts: list[tuple[int, str]] = []
    for i, claim in enumerate(metadata.claims):
        if not claim.counted:
            continue
        mark = _marker(metadata, i)
        if not mark:
            continue
        end = min(max(claim.end, 0), len(text))
        while end > claim.start and end > 0 and text[end - 1].isspace():
            end -= 1
        if end > claim.start and end > 0 and text[end - 1] in _TRAILING:
            end -= 1
        inserts.append((end, " " + mark))
    out = text
    for pos, mark in sorted(inserts, key=lambda x: x[0], reverse=True):
        out = out[:pos] + mark + out[pos:]
    parts: list[str] = []
    if warning:
        parts.append(f"⚠ {warning}")
        parts.append("")
    parts.append(out)
    if metadata.sources:
        parts.append("")
        parts.append("Sources:")
        for src in metadata.sources:
            quote = " ".join(src.quote.split())
            if len(quote) > 160:
                quote = quote[:159].rstrip() + "…"
            parts.append(f"[{src.marker}] {src.evidence_id}: {quote!r}")
    return "\n".join(parts)
