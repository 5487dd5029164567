"""Text the gate cannot read: the language policy (``GatePolicy.on_unsupported_language``).

Private helper of :mod:`langchain_qgate.gate`. :func:`resolve` turns what the detector found
(:func:`~langchain_qgate.grounding.claims.language.check_languages`) into what the gate does with
it:

- ``warn``: the answer is delivered as ``pass_with_warning``; its grounding figures were
  computed as if it were English and decide nothing; the claims' reasons say they were not
  verified.
- ``reject``: rejected through the usual machinery (failed dimension ``grounding``) with
  guidance to answer in English; when the evidence itself cannot be read no retry can help, so
  the budget counts as spent and ``on_exhausted`` decides.
- ``verifier``: the claims were graded by the LLM verifier configured on the monitor
  (``QualityGate.check`` hands them over); its grades decide as usual. Without one (or when a
  finished report came in graded by the rules) it falls back to ``warn`` and says so.

The log warning is said once per run: on a run's first attempt, as the integrations mark it
for the no-evidence warning (``gate_scope``); a direct call of the gate is a run of its own.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from langchain_qgate.gate.telemetry import current_scope
from langchain_qgate.grounding.claims.language import (
    EVIDENCE_MAJORITY,
    SUPPORTED_LANGUAGES,
    UNDETERMINED,
    LanguageCheck,
    check_languages,
    describe_languages,
    language_name,
)

if TYPE_CHECKING:
    from langchain_qgate.gate.metadata import ClaimQuality
    from langchain_qgate.gate.policy import GatePolicy
    from langchain_qgate.grounding.verifier.verifiers import VerifierLike
    from langchain_qgate.schemas import GroundingReport

__all__ = [
    "evidence_unreadable",
    "is_unreadable",
    "language_exhaustion_reason",
    "language_guidance",
    "language_of_report",
    "llm_verifier",
    "mark_unread_claims",
    "resolve_language",
    "unread_warning",
]

logger = logging.getLogger(__name__)

_CONFIGURE = "HallucinationMonitor(verifier=CascadeVerifier(second=LLMVerifier(model)))"


def language_of_report(text: str, report: GroundingReport) -> LanguageCheck:
    """The check from the answer and the evidence the report quotes (each claim's nearest
    chunks): what ``decide`` has when it was not given the evidence itself."""
    quotes: dict[str, str] = {}
    for verdict in report.verdicts:
        for link in verdict.evidence:
            quotes.setdefault(link.evidence_id, link.quote)
    return check_languages(text, quotes.values())


def llm_verifier(monitor: Any) -> VerifierLike | None:
    """The LLM verifier configured on ``monitor``: its verifier when that is an
    ``LLMVerifier``, or the second stage of its ``CascadeVerifier``; else ``None``."""
    from langchain_qgate.grounding.verifier.verifiers import CascadeVerifier, LLMVerifier

    verifier = getattr(monitor, "verifier", None)
    if isinstance(verifier, LLMVerifier):
        return verifier
    if isinstance(verifier, CascadeVerifier):
        return verifier.second
    return None


def _llm_graded(report: GroundingReport) -> bool:
    counted = [v for v in report.verdicts if v.counted]
    return bool(counted) and all(v.verifier != "deterministic" for v in counted)


def is_unreadable(check: LanguageCheck) -> bool:
    """Whether the gate's grades on this text mean nothing (not handed to a verifier)."""
    return not check.supported and check.action != "verifier"


def resolve_language(
    check: LanguageCheck, policy: GatePolicy, report: GroundingReport
) -> LanguageCheck:
    """``check`` with the policy's action and its reason; logs it on a run's first attempt."""
    if check.supported:
        return check
    action = policy.on_unsupported_language
    reason = describe_languages(check)
    if action == "verifier":
        if _llm_graded(report):
            reason += "; its claims were graded by the LLM verifier"
        else:
            action = "warn"
            reason += (
                "; on_unsupported_language='verifier' but no LLM verifier graded its claims "
                f"(configure one: {_CONFIGURE}), so the gate warns instead"
            )
    if action == "warn":
        reason += "; delivered unverified with a warning"
    elif action == "reject":
        reason += "; rejected (on_unsupported_language='reject')"
    resolved = check.model_copy(update={"action": action, "reason": reason})
    if current_scope()[2]:
        logger.warning("quality gate: %s", reason)
    return resolved


def mark_unread_claims(claims: list[ClaimQuality], check: LanguageCheck) -> list[ClaimQuality]:
    """Each claim's reason says it was not verified: its grade read the text as English."""
    if check.answer not in SUPPORTED_LANGUAGES | {UNDETERMINED}:
        why = f"{language_name(check.answer)} text read as English"
    else:
        why = f"the evidence is mostly in {language_name(check.evidence)}"
    return [c.model_copy(update={"reason": f"not verified ({why}): {c.reason}"}) for c in claims]


def unread_warning(check: LanguageCheck, score: float) -> str:
    """The ``pass_with_warning`` warning of an answer delivered unverified."""
    return (
        f"Not verified. {describe_languages(check)}. The grounding score ({score:.2f}) read "
        "the text as English and decides nothing; set on_unsupported_language='reject' to "
        "require English, or 'verifier' with an LLM verifier to have it read."
    )


def language_guidance(check: LanguageCheck) -> tuple[list[str], list[str]]:
    """Issues and actions of a rejection for language, addressed to the model."""
    issues: list[str] = []
    actions: list[str] = []
    if check.answer not in SUPPORTED_LANGUAGES | {UNDETERMINED}:
        issues.append(
            f"The answer is in {language_name(check.answer)}; the fact check reads English only."
        )
        where = ", the language of the evidence" if check.evidence == "en" else ""
        actions.append(f"Write the whole answer in English{where}.")
    if evidence_unreadable(check):
        issues.append(
            f"{check.evidence_share:.0%} of the evidence is in other languages than English "
            f"(mostly {language_name(check.evidence)}); the fact check cannot read it."
        )
    return issues, actions


def evidence_unreadable(check: LanguageCheck) -> bool:
    """Most of the evidence cannot be read: no answer of the model can fix that."""
    return check.evidence_share > EVIDENCE_MAJORITY


def language_exhaustion_reason(check: LanguageCheck, retries_used: int, policy: GatePolicy) -> str:
    """Why a rejection for language goes to ``on_exhausted``."""
    what = describe_languages(check)
    if evidence_unreadable(check):
        return f"{what}; a retry cannot change the evidence"
    return f"{what}; still so after {retries_used} of {policy.max_retries} retries"
