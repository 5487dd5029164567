"""Decision-noise filter: status reports ("git clone success") are not decisions.

A decision with no reasons is noise when it is shorter than ``decision_min_chars`` or when
at least ``status_word_ratio`` of its words (punctuation stripped, filler words ignored)
are status words. An empty decision is always noise. Noise is flagged and warned about by
default, never silently dropped; skipping is opt-in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from langchain_qgate.memory._warn import warn_at_caller
from langchain_qgate.memory.models import DecisionNoiseVerdict, DecisionNoiseWarning
from langchain_qgate.memory.policy import MemoryFilterPolicy

__all__ = ["assess_decision", "decision_reasons", "decision_text", "warn_noisy_decision"]

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*", re.UNICODE)

DECISION_TEXT_FIELDS = ("decision", "content", "text", "summary")
DECISION_REASON_FIELDS = ("reasons", "reason", "rationale", "because")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _has_reasons(reasons: str | Iterable[str] | None) -> bool:
    if reasons is None:
        return False
    if isinstance(reasons, str):
        return bool(reasons.strip())
    return any(isinstance(r, str) and r.strip() for r in reasons)


def assess_decision(
    text: str,
    reasons: str | Iterable[str] | None = None,
    policy: MemoryFilterPolicy | None = None,
) -> DecisionNoiseVerdict:
    """Whether a decision is noise.

    Args:
        text: The decision ("Use PostgreSQL for the session store").
        reasons: Why it was taken (a string or several); any non-empty reason exempts the
            decision from the length and status-word rules.
        policy: Thresholds and vocabulary.

    Example:
        >>> assess_decision("Task completed.").noisy
        True
        >>> assess_decision("Use PostgreSQL", reasons=["needs multi-process access"]).noisy
        False
    """
    policy = policy or MemoryFilterPolicy()
    has_reasons = _has_reasons(reasons)
    stripped = text.strip()
    words = [w for w in _words(stripped) if w not in policy.filler_words]
    status = sum(1 for w in words if w in policy.status_words)
    share = status / len(words) if words else 0.0
    if not stripped or not _words(stripped):
        return DecisionNoiseVerdict(
            noisy=True,
            reason="empty",
            has_reasons=has_reasons,
            detail="the decision has no text",
        )
    if has_reasons:
        return DecisionNoiseVerdict(
            noisy=False, status_share=share, has_reasons=True, detail="a decision with reasons"
        )
    if len(stripped) < policy.decision_min_chars:
        return DecisionNoiseVerdict(
            noisy=True,
            reason="too_short",
            status_share=share,
            detail=f"{len(stripped)} characters and no reasons (under {policy.decision_min_chars})",
        )
    if words and share >= policy.status_word_ratio:
        return DecisionNoiseVerdict(
            noisy=True,
            reason="status_words",
            status_share=share,
            detail=f"{status} of {len(words)} words are status words and no reasons are given",
        )
    return DecisionNoiseVerdict(noisy=False, status_share=share, detail="a decision")


def decision_text(value: Mapping[str, Any]) -> str:
    """The decision text of a stored value (first of ``decision``/``content``/``text``/...)."""
    for name in DECISION_TEXT_FIELDS:
        got = value.get(name)
        if isinstance(got, str):
            return got
    return ""


def decision_reasons(value: Mapping[str, Any]) -> list[str]:
    """The reasons of a stored value (``reasons``/``reason``/``rationale``/``because``)."""
    out: list[str] = []
    for name in DECISION_REASON_FIELDS:
        got = value.get(name)
        if isinstance(got, str):
            out.append(got)
        elif isinstance(got, list | tuple):
            out.extend(str(r) for r in got if isinstance(r, str))
    return out


def warn_noisy_decision(text: str, verdict: DecisionNoiseVerdict, *, skipped: bool) -> None:
    """Emit a ``DecisionNoiseWarning`` naming the decision and the rule, at the caller's line."""
    action = "skipped" if skipped else "stored with qgate_noise=True"
    shown = text if len(text) <= 80 else text[:77] + "..."
    warn_at_caller(
        f"decision {shown!r} looks like noise ({verdict.reason}: {verdict.detail}); {action}. "
        "Add reasons to record it as a real decision.",
        DecisionNoiseWarning,
    )
