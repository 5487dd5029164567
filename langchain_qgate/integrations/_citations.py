"""Citation gate for structured outputs: evidence ids of a run, and the pass/reject step.

Private helper of :mod:`langchain_qgate.integrations.structured` (which re-exports the public
names); kept apart so the gate step has no dependency on the agent middleware machinery.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, ToolMessage
from pydantic import BaseModel

from langchain_qgate.errors import InvalidInputError, QualityGateRejected
from langchain_qgate.gate import (
    ClaimQuality,
    Decision,
    Escalation,
    FilteredOutput,
    FlaggedClaim,
    GatePolicy,
    QualityMetadata,
    RejectedOutput,
    RetryGuidance,
    SourceRef,
)
from langchain_qgate.judge import (
    CitationCheck,
    CitationJudge,
    IdSource,
    format_valid_ids,
    resolve_ids,
)
from langchain_qgate.schemas import EvidenceChunk, GroundingReport

__all__ = [
    "REJECTION_MARKER",
    "as_judge",
    "evidence_ids_from",
    "evidence_ids_from_messages",
    "gate_structured_output",
]

REJECTION_MARKER = "qgate_citation_rejection"
"""Key set in ``response_metadata`` of the messages carrying citation guidance; the
middleware counts them (in state, so checkpointed) to know how many retries were used."""

_ID_KEYS = ("id", "evidence_id", "doc_id", "document_id", "chunk_id", "source_id")
_TEXT_KEYS = ("page_content", "text", "content", "quote", "snippet")
_MAX_ISSUES = 8
_MAX_JSON_DEPTH = 4


# --------------------------------------------------------------------------- evidence ids


def _add_mapping(out: dict[str, str], item: Mapping[str, Any], depth: int) -> None:
    text = next((str(item[k]) for k in _TEXT_KEYS if isinstance(item.get(k), str)), "")
    for key in _ID_KEYS:
        value = item.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
            out.setdefault(str(value), text)
    if depth < _MAX_JSON_DEPTH:
        for value in item.values():
            if isinstance(value, list | dict):
                _add_any(out, value, depth + 1)


def _add_any(out: dict[str, str], item: Any, depth: int = 0) -> None:
    if isinstance(item, Document):
        for candidate in (item.id, *(item.metadata.get(k) for k in _ID_KEYS)):
            if isinstance(candidate, str | int) and not isinstance(candidate, bool):
                out.setdefault(str(candidate), item.page_content)
    elif isinstance(item, EvidenceChunk):
        out.setdefault(item.id, item.text)
        out.setdefault(item.source_id, item.text)
    elif isinstance(item, Mapping):
        _add_mapping(out, item, depth)
    elif isinstance(item, list | tuple) and depth < _MAX_JSON_DEPTH:
        for sub in item:
            _add_any(out, sub, depth + 1)


def _tool_text(message: ToolMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    return "".join(
        b if isinstance(b, str) else str(b.get("text", ""))
        for b in message.content
        if isinstance(b, str) or (isinstance(b, Mapping) and b.get("type") == "text")
    )


def evidence_ids_from_messages(
    messages: Iterable[BaseMessage], *, id_pattern: str | re.Pattern[str] | None = None
) -> dict[str, str]:
    """The evidence ids a run retrieved, each with its text (for quoting).

    Reads every successful ``ToolMessage``: ``Document`` / ``EvidenceChunk`` / dict artifacts,
    and content that is JSON (ids under ``id``, ``evidence_id``, ``doc_id``, ``document_id``,
    ``chunk_id`` or ``source_id``, at any depth up to 4). With ``id_pattern``, ids are also
    read from plain-text tool output (the first group of each match, or the whole match).
    Messages carrying citation guidance are skipped.

    Returns:
        ``{evidence id: its text}`` in first-seen order.
    """
    pattern = re.compile(id_pattern) if isinstance(id_pattern, str) else id_pattern
    out: dict[str, str] = {}
    for message in messages:
        if not isinstance(message, ToolMessage) or message.status == "error":
            continue
        if message.response_metadata.get(REJECTION_MARKER):
            continue
        if message.artifact is not None:
            _add_any(out, message.artifact)
        text = _tool_text(message)
        stripped = text.lstrip()
        if stripped[:1] in ("[", "{"):
            with contextlib.suppress(ValueError):
                _add_any(out, json.loads(stripped))
        if pattern is not None:
            for match in pattern.finditer(text):
                out.setdefault(match.group(1) if pattern.groups else match.group(0), "")
    return out


def evidence_ids_from(evidence: Any) -> dict[str, str]:
    """The ids of evidence given directly: ``Document`` (``id`` or ``metadata["id"]`` ...),
    ``EvidenceChunk`` (its id and source id), mappings with an id key, ``ToolMessage`` (as in
    :func:`evidence_ids_from_messages`), or a list of these.

    Returns:
        ``{evidence id: its text}`` in first-seen order.
    """
    items = evidence if isinstance(evidence, list | tuple) else [evidence]
    out: dict[str, str] = {}
    for item in items:
        if isinstance(item, ToolMessage):
            for key, text in evidence_ids_from_messages([item]).items():
                out.setdefault(key, text)
        elif item is not None:
            _add_any(out, item)
    return out


# --------------------------------------------------------------------------- the gate step


def as_judge(judge: CitationJudge | str | Sequence[str]) -> CitationJudge:
    return judge if isinstance(judge, CitationJudge) else CitationJudge(judge)


def _draft_text(structured: Any) -> str:
    if isinstance(structured, BaseModel):
        return structured.model_dump_json()
    try:
        return json.dumps(structured, default=str, sort_keys=True)
    except (TypeError, ValueError):
        return repr(structured)


def _score(check: CitationCheck) -> float:
    bad = {i.location for i in check.issues}
    if not check.citations:
        return 0.0 if bad else 1.0
    return sum(loc not in bad for loc in check.citations) / len(check.citations)


def _guidance(
    check: CitationCheck,
    valid: AbstractSet[str],
    *,
    retries_used: int,
    policy: GatePolicy,
    exhausted: bool,
) -> RetryGuidance:
    issues: list[str] = []
    flagged: list[FlaggedClaim] = []
    for n, issue in enumerate(check.issues):
        if issue.kind == "unknown_id":
            line = (
                f"{issue.location} cites {issue.cited_id!r}, which is not the id of any "
                "evidence you retrieved."
            )
        elif issue.kind == "missing_citation":
            line = f"{issue.location} cites no evidence."
        else:
            line = f"{issue.location} is not an evidence id or a list of ids."
        if n < _MAX_ISSUES:
            issues.append(line)
        flagged.append(
            FlaggedClaim(index=n, text=issue.location, kind="unsupported", evidence_id=None)
        )
    if len(check.issues) > _MAX_ISSUES:
        issues.append(f"{len(check.issues) - _MAX_ISSUES} more citation problems.")
    kinds = {i.kind for i in check.issues}
    actions: list[str] = []
    if "unknown_id" in kinds and not valid:
        actions.append("You have not retrieved any evidence yet: retrieve it before citing it.")
    elif "unknown_id" in kinds:
        actions.append(f"Cite only ids of evidence you retrieved: {format_valid_ids(valid)}.")
        actions.append(
            "If a claim needs a source you do not have, retrieve it first or drop the claim."
        )
    if "missing_citation" in kinds:
        actions.append("Give every claim at least one evidence id.")
    if "malformed" in kinds:
        actions.append("Write each citation as an evidence id string or a list of them.")
    left = 0 if exhausted else max(0, policy.max_retries - retries_used)
    return RetryGuidance(
        failed_dimensions=["grounding"],
        issues=issues,
        actions=actions,
        flagged_claims=flagged,
        retries_used=retries_used,
        retries_left=left,
        max_retries=policy.max_retries,
        should_escalate=exhausted,
    )


def _metadata(
    check: CitationCheck,
    policy: GatePolicy,
    decision: Decision,
    *,
    retries_used: int,
    quotes: Mapping[str, str],
    warning: str | None = None,
) -> QualityMetadata:
    bad = {i.location for i in check.issues}
    unknown = set(check.unknown_ids)
    markers: dict[str, int] = {}
    claims: list[ClaimQuality] = []
    for index, (location, ids) in enumerate(check.citations.items()):
        known = [i for i in ids if i not in unknown]
        for i in known:
            markers.setdefault(i, len(markers) + 1)
        ok = location not in bad
        claims.append(
            ClaimQuality(
                index=index,
                text=location,
                type="factual",
                grade="grounded" if ok else "fabricated",
                support=1.0 if ok else 0.0,
                evidence_ids=known[:3],
                markers=[markers[i] for i in known] if ok else [],
                reason="cites retrieved evidence" if ok else "cites evidence never retrieved",
            )
        )
    score = _score(check)
    return QualityMetadata(
        decision=decision,
        passed=check.valid,
        profile=policy.profile,
        score=score,
        report_score=score,
        grounding_threshold=policy.grounding_threshold,
        confidence=score,
        confidence_threshold=policy.confidence_threshold,
        confidence_reason="structured output: judged on its citations only",
        failed_dimensions=[] if check.valid else ["grounding"],
        claims=claims,
        sources=[
            SourceRef(marker=m, evidence_id=i, source_id=i, quote=quotes.get(i, ""))
            for i, m in markers.items()
        ],
        retries_used=retries_used,
        max_retries=policy.max_retries,
        warning=warning,
        reason=check.reason,
    )


def gate_structured_output(
    structured: Any,
    valid_ids: IdSource,
    *,
    judge: CitationJudge | str | Sequence[str],
    policy: GatePolicy | None = None,
    retries_used: int = 0,
    config: Mapping[str, Any] | None = None,
    quotes: Mapping[str, str] | None = None,
) -> FilteredOutput | RejectedOutput:
    """Pass or reject a structured answer on its citations.

    Args:
        structured: The answer (a pydantic model, a dataclass-like object or a mapping).
        valid_ids: Ids of the evidence actually retrieved (an ``IdSource``).
        judge: A :class:`~langchain_qgate.judge.CitationJudge`, or its citation path(s).
        policy: Retry budget, exhaustion policy and profile (default ``GatePolicy()``).
        retries_used: Rejections already retried for this answer.
        config: A ``RunnableConfig`` with per-call policy overrides.
        quotes: Evidence text by id, quoted in the metadata's sources.

    Returns:
        :class:`FilteredOutput` (``decision="pass"``, or ``"pass_with_warning"`` when the
        budget is spent under that policy) or :class:`RejectedOutput` (``"retry"`` with
        guidance; ``"escalate"`` with an :class:`Escalation` when the budget is spent).

    Raises:
        QualityGateRejected: Rejected with no retries left under ``on_exhausted="raise"``.
        InvalidInputError: Negative ``retries_used`` or a bad citation path.
    """
    if retries_used < 0:
        raise InvalidInputError("retries_used", f"must be >= 0, got {retries_used}")
    pol = (policy or GatePolicy()).with_overrides(config)
    valid = resolve_ids(valid_ids)
    check = as_judge(judge).check(structured, valid)
    quotes = quotes or {}
    text = _draft_text(structured)
    if check.valid:
        meta = _metadata(check, pol, "pass", retries_used=retries_used, quotes=quotes)
        return FilteredOutput(text=text, metadata=meta)
    exhausted = retries_used >= pol.max_retries
    guidance = _guidance(check, valid, retries_used=retries_used, policy=pol, exhausted=exhausted)
    if not exhausted:
        meta = _metadata(check, pol, "retry", retries_used=retries_used, quotes=quotes)
        return RejectedOutput(text=text, metadata=meta, guidance=guidance)
    reason = f"fabricated citations after {retries_used} of {pol.max_retries} retries"
    if pol.on_exhausted == "pass_with_warning":
        warning = f"Low confidence: this answer cites evidence that was never retrieved ({reason})."
        meta = _metadata(
            check,
            pol,
            "pass_with_warning",
            retries_used=retries_used,
            quotes=quotes,
            warning=warning,
        )
        return FilteredOutput(text=text, metadata=meta, warning=warning)
    decision: Decision = "raise" if pol.on_exhausted == "raise" else "escalate"
    meta = _metadata(check, pol, decision, retries_used=retries_used, quotes=quotes)
    report = GroundingReport(score=meta.score, reason=check.reason, evidence_count=len(valid))
    rejected = RejectedOutput(
        text=text,
        metadata=meta,
        guidance=guidance,
        escalation=Escalation(reason=reason, draft=text, report=report, guidance=guidance),
    )
    if decision == "raise":
        raise QualityGateRejected([reason, *guidance.issues], payload=rejected)
    return rejected
