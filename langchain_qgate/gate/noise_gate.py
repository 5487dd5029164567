"""The noise gate: pass an output with quality metadata, or reject it with retry guidance.

An output passes iff its grounding score >= ``grounding_threshold``, it has no more
contradicted claims than ``max_contradictions`` (none in the ``default`` and ``strict``
profiles; no limit in ``brainstorm``), its calibrated confidence >= ``confidence_threshold``
and its load is not ``ABORT``. A rejection carries
:class:`RetryGuidance` for the model; when the retry budget is spent (``retries_used >=
max_retries``, or load ``ABORT``: retrying would not help) the policy's ``on_exhausted``
decides: ``"escalate"`` (a :class:`RejectedOutput` with an :class:`Escalation` for a human),
``"pass_with_warning"`` (a :class:`FilteredOutput` with an explicit low-confidence warning) or
``"raise"`` (:class:`~langchain_qgate.errors.QualityGateRejected`).

Text the checks cannot read (an answer, or most of the evidence, in another language than
English; :mod:`langchain_qgate.grounding.claims.language`) is never graded as if it were English:
the metadata's ``language`` flags it and ``on_unsupported_language`` decides (``"warn"``: delivered
as ``pass_with_warning``; ``"reject"``; ``"verifier"``: the claims go to the monitor's LLM
verifier).

Per-call overrides come from ``RunnableConfig["configurable"]`` (see :data:`CONFIG_KEYS`):

=============================== ==========================================================
``qgate_profile``               ``"strict"`` / ``"default"`` / ``"brainstorm"`` (applied first;
                                thresholds only, see :data:`PROFILE_FIELDS`)
``qgate_grounding_threshold``   float in [0, 1]
``qgate_confidence_threshold``  float in [0, 1]
``qgate_inferred_weight``       float in [0, 1]
``qgate_max_retries``           int >= 0
``qgate_on_exhausted``          ``"escalate"`` / ``"pass_with_warning"`` / ``"raise"``
``qgate_max_contradictions``    int >= 0, or ``None`` for no limit
=============================== ==========================================================

Precedence: the instance's policy, then ``qgate_profile`` (it replaces the thresholds and
keeps the instance's ``max_retries`` and ``on_exhausted``), then the single keys.

In :class:`QualityGate` the retry budget of a call is :meth:`QualityGate.effective_policy`'s
``max_retries``: the policy's after these overrides, capped by an explicitly given load
monitor's ``LoadBudget.max_retries`` (without one, the load budget follows the policy).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, cast

from langchain_qgate._text import output_text
from langchain_qgate.calibration import CalibratedConfidence, ConfidenceCalibrator
from langchain_qgate.errors import InvalidInputError, QualityGateRejected
from langchain_qgate.gate._language import (
    evidence_unreadable,
    is_unreadable,
    language_exhaustion_reason,
    language_guidance,
    language_of_report,
    llm_verifier,
    mark_unread_claims,
    resolve_language,
    unread_warning,
)
from langchain_qgate.gate._no_evidence import warn_if_no_evidence
from langchain_qgate.gate.decisions import (
    Escalation,
    FilteredOutput,
    RejectedOutput,
    RetryGuidance,
)
from langchain_qgate.gate.guidance import (
    Dimension,
    FlaggedClaim,
    build_guidance_parts,
    contradicted_claims,
    short,
)
from langchain_qgate.gate.load import (
    CognitiveLoadMonitor,
    LoadAction,
    LoadAssessment,
    LoadBudget,
    LoadCounters,
)
from langchain_qgate.gate.metadata import (
    ClaimQuality,
    Decision,
    QualityMetadata,
    SourceRef,
    describe_decision,
)
from langchain_qgate.gate.policy import GatePolicy, as_gate_policy, describe_policy
from langchain_qgate.gate.settings import load_settings
from langchain_qgate.gate.telemetry import GateObserver, current_scope
from langchain_qgate.grounding.claims.language import LanguageCheck, check_languages
from langchain_qgate.schemas import Grade, GroundingReport

if TYPE_CHECKING:
    from langchain_qgate.grounding.verifier.verifiers import VerifierLike

__all__ = [
    "GateDecision",
    "GroundingMonitor",
    "NoiseGate",
    "QualityGate",
    "format_decision",
    "load_text",
]

GateDecision = FilteredOutput | RejectedOutput
"""What the gate returns."""


def _gate_score(report: GroundingReport, inferred_weight: float) -> float:
    """The report's score with each INFERRED claim's credit replaced by ``inferred_weight``."""
    counted = [v for v in report.verdicts if v.counted]
    if not counted or abs(inferred_weight - 0.5) < 1e-9:
        return report.score
    delta = sum(inferred_weight - v.credit for v in counted if v.grade is Grade.INFERRED)
    return max(0.0, min(1.0, report.score + delta / len(counted)))


def _claims_and_sources(report: GroundingReport) -> tuple[list[ClaimQuality], list[SourceRef]]:
    sources: dict[str, SourceRef] = {}
    claims: list[ClaimQuality] = []
    for v in report.verdicts:
        markers: list[int] = []
        ids = [e.evidence_id for e in v.evidence]
        if v.grade is Grade.GROUNDED and v.evidence:
            link = v.evidence[0]
            if link.evidence_id not in sources:
                sources[link.evidence_id] = SourceRef(
                    marker=len(sources) + 1,
                    evidence_id=link.evidence_id,
                    source_id=link.source_id,
                    quote=link.quote,
                )
            markers.append(sources[link.evidence_id].marker)
        claims.append(
            ClaimQuality(
                index=v.claim.index,
                text=v.claim.text,
                type=v.claim.type.value,
                grade=v.grade.value,
                support=v.support,
                counted=v.counted,
                start=v.claim.start,
                end=v.claim.end,
                evidence_ids=ids[:3],
                markers=markers,
                contradiction=v.contradiction.describe() if v.contradiction else None,
                reason=v.reason,
            )
        )
    return claims, list(sources.values())


class NoiseGate:
    """Passes or rejects an output given its grounding, confidence and load.

    Stateless: the retry count comes in with each call (``retries_used``), so one gate can
    serve many threads and runs.

    Example:
        ```python
        gate = NoiseGate(GatePolicy.from_profile("strict"))
        decision = gate.filter_output(answer, report, confidence, retries_used=1)
        if isinstance(decision, RejectedOutput):
            retry_prompt = decision.guidance.to_model_message()
        ```
    """

    def __init__(self, policy: GatePolicy | Mapping[str, Any] | None = None) -> None:
        """Create a gate.

        Args:
            policy: Thresholds and budget (a :class:`GatePolicy`, or a mapping of its fields,
                validated by :func:`~langchain_qgate.gate.policy.as_gate_policy`); the
                ``default`` profile when omitted.

        Raises:
            InvalidInputError: A mapping that is not a valid policy.
        """
        self.policy = as_gate_policy(policy)

    def filter_output(
        self,
        output: Any,
        grounding: GroundingReport,
        confidence: CalibratedConfidence | float | None = None,
        load: LoadAssessment | LoadAction | None = None,
        retries_used: int = 0,
        *,
        config: Mapping[str, Any] | None = None,
        language: LanguageCheck | None = None,
    ) -> GateDecision:
        """Pass or reject one output.

        Args:
            output: The output (string or message).
            grounding: Its grounding report.
            confidence: Its calibrated confidence (a bare float is taken as calibrated;
                ``None`` uses the grounding score).
            load: The run's load assessment (or just its action); ``None`` = not checked.
            retries_used: Rejections already retried for this answer.
            config: A ``RunnableConfig`` whose ``configurable`` may override the policy.
            language: The languages of the output and its evidence
                (:func:`~langchain_qgate.grounding.claims.language.check_languages`); ``None``
                detects them from the output and the evidence the report quotes.

        Returns:
            :class:`FilteredOutput` on pass (or on exhaustion with ``pass_with_warning``, or
            text it cannot read under ``on_unsupported_language="warn"``), otherwise
            :class:`RejectedOutput`.

        Raises:
            QualityGateRejected: Rejected with no retries left under ``on_exhausted="raise"``.
        """
        policy = self.policy.with_overrides(config)
        return _filter(
            policy,
            output,
            grounding,
            confidence=confidence,
            load=load,
            retries_used=retries_used,
            language=language,
        )

    async def afilter_output(
        self,
        output: Any,
        grounding: GroundingReport,
        confidence: CalibratedConfidence | float | None = None,
        load: LoadAssessment | LoadAction | None = None,
        retries_used: int = 0,
        *,
        config: Mapping[str, Any] | None = None,
        language: LanguageCheck | None = None,
    ) -> GateDecision:
        """Async twin of :meth:`filter_output` (pure computation, no I/O)."""
        return self.filter_output(
            output, grounding, confidence, load, retries_used, config=config, language=language
        )


def _filter(
    policy: GatePolicy,
    output: Any,
    grounding: GroundingReport,
    *,
    confidence: CalibratedConfidence | float | None,
    load: LoadAssessment | LoadAction | None,
    retries_used: int,
    language: LanguageCheck | None = None,
) -> GateDecision:
    """The gate decision under ``policy`` (overrides already applied)."""
    _check_retries(retries_used)
    conf = _as_confidence(confidence, grounding)
    assessment = _as_load(load)
    text = output_text(output)
    score = _gate_score(grounding, policy.inferred_weight)
    lang = language if language is not None else language_of_report(text, grounding)
    lang = resolve_language(lang, policy, grounding)
    unreadable = is_unreadable(lang)

    n_contra = len(contradicted_claims(grounding))
    too_many_contra = policy.max_contradictions is not None and n_contra > policy.max_contradictions
    failed = _failed(policy, score, conf, assessment, lang, too_many_contra=too_many_contra)

    base = _base(policy, grounding, conf, assessment, lang, failed, score, retries_used, n_contra)
    if not failed and unreadable:  # on_unsupported_language="warn": delivered unverified
        warning = unread_warning(lang, score)
        meta = QualityMetadata(decision="pass_with_warning", passed=False, warning=warning, **base)
        return FilteredOutput(text=text, metadata=meta, warning=warning)
    if not failed:
        meta = QualityMetadata(decision="pass", passed=True, **base)
        return FilteredOutput(text=text, metadata=meta)

    exhausted = retries_used >= policy.max_retries or "load" in failed
    if unreadable:  # no retry changes evidence the checks cannot read
        exhausted = exhausted or evidence_unreadable(lang)
    issues, actions, flagged = _guidance_parts(
        policy,
        grounding,
        conf,
        assessment,
        failed,
        score=score,
        too_many_contra=too_many_contra,
        language=lang if unreadable else None,
    )
    guidance = RetryGuidance(
        failed_dimensions=failed,
        issues=issues,
        actions=actions,
        flagged_claims=flagged,
        retries_used=retries_used,
        retries_left=0 if exhausted else max(0, policy.max_retries - retries_used),
        max_retries=policy.max_retries,
        should_escalate=exhausted,
    )
    if not exhausted:
        meta = QualityMetadata(decision="retry", passed=False, **base)
        return RejectedOutput(text=text, metadata=meta, guidance=guidance)

    if unreadable and "load" not in failed:
        why = language_exhaustion_reason(lang, retries_used, policy)
    else:
        why = _exhaustion_reason(failed, retries_used, policy, assessment)
    return _spent(policy, text, why, base, guidance, grounding, issues, flagged)


def _base(  # noqa: PLR0917
    policy: GatePolicy,
    grounding: GroundingReport,
    conf: CalibratedConfidence,
    assessment: LoadAssessment | None,
    lang: LanguageCheck,
    failed: list[Dimension],
    score: float,
    retries_used: int,
    n_contra: int,
) -> dict[str, Any]:
    """The metadata every decision carries."""
    claims, sources = _claims_and_sources(grounding)
    reasons = [lang.reason if not lang.supported else "", grounding.reason]
    return {
        "profile": policy.profile,
        "score": score,
        "report_score": grounding.score,
        "grounding_threshold": policy.grounding_threshold,
        "confidence": conf.calibrated,
        "raw_confidence": conf.raw,
        "confidence_threshold": policy.confidence_threshold,
        "overconfident": conf.overconfident,
        "confidence_gap": conf.gap,
        "confidence_reason": conf.reason,
        "load_action": assessment.action if assessment else None,
        "load_reason": assessment.reason if assessment else "",
        "failed_dimensions": failed,
        "claims": mark_unread_claims(claims, lang) if is_unreadable(lang) else claims,
        "sources": sources,
        "retries_used": retries_used,
        "max_retries": policy.max_retries,
        "contradictions": n_contra,
        "reason": "; ".join(r for r in reasons if r),
        "language": lang,
    }


def _failed(
    policy: GatePolicy,
    score: float,
    conf: CalibratedConfidence,
    assessment: LoadAssessment | None,
    lang: LanguageCheck,
    *,
    too_many_contra: bool,
) -> list[Dimension]:
    """The dimensions that fail; on text the checks cannot read, only load and a language
    rejection do."""
    failed: list[Dimension] = []
    if score < policy.grounding_threshold or too_many_contra:
        failed.append("grounding")
    if _confidence_fails(conf, policy):
        failed.append("confidence")
    if assessment is not None and assessment.action is LoadAction.ABORT:
        failed.append("load")
    if is_unreadable(lang):  # grounding and confidence read the text as English: no say
        kept: list[Dimension] = ["grounding"] if lang.action == "reject" else []
        failed = [*kept, *(d for d in failed if d == "load")]
    return failed


def _spent(  # noqa: PLR0917
    policy: GatePolicy,
    text: str,
    why: str,
    base: dict[str, Any],
    guidance: RetryGuidance,
    grounding: GroundingReport,
    issues: list[str],
    flagged: list[FlaggedClaim],
) -> GateDecision:
    """The decision once the retry budget is spent: a warning, an escalation or a raise."""
    if policy.on_exhausted == "pass_with_warning":
        warning = _warning(why, flagged)
        meta = QualityMetadata(decision="pass_with_warning", passed=False, warning=warning, **base)
        return FilteredOutput(text=text, metadata=meta, warning=warning)
    decision: Decision = "escalate" if policy.on_exhausted == "escalate" else "raise"
    meta = QualityMetadata(decision=decision, passed=False, **base)
    escalation = Escalation(reason=why, draft=text, report=grounding, guidance=guidance)
    rejected = RejectedOutput(text=text, metadata=meta, guidance=guidance, escalation=escalation)
    if decision == "raise":
        raise QualityGateRejected([why, *issues], payload=rejected)
    return rejected


def _guidance_parts(
    policy: GatePolicy,
    grounding: GroundingReport,
    conf: CalibratedConfidence,
    assessment: LoadAssessment | None,
    failed: list[Dimension],
    *,
    score: float,
    too_many_contra: bool,
    language: LanguageCheck | None,
) -> tuple[list[str], list[str], list[FlaggedClaim]]:
    """Issues, actions and flagged claims of a rejection. Text the checks cannot read
    (``language``) is rejected for its language alone: the guidance asks for English, flags no
    claim (its grades read it as English) and keeps only a load failure's lines."""
    report = grounding
    if language is not None:
        report = GroundingReport(score=score)
        failed = [d for d in failed if d == "load"]
        too_many_contra = False
    issues, actions, flagged = build_guidance_parts(
        report,
        conf,
        assessment,
        failed,
        score=score,
        grounding_threshold=policy.grounding_threshold,
        confidence_threshold=policy.confidence_threshold,
        contradiction_limit=policy.max_contradictions if too_many_contra else None,
    )
    if language is None:
        return issues, actions, flagged
    said, asked = language_guidance(language)
    return [*said, *issues], [*asked, *actions], flagged


_SURE = 0.8  # a stated confidence from here on is a claim of certainty ("definitely", "90%")


def _confidence_fails(conf: CalibratedConfidence, policy: GatePolicy) -> bool:
    """The confidence dimension adds what grounding does not already judge.

    It fails when the output claims certainty in words (a stated confidence of at least 0.8:
    "definitely", "I'm 90% sure") that the evidence does not back (overconfident: stated minus
    calibrated above the calibrator's margin); a hedge ("I think", "probably") never fails it.
    It also fails when the
    calibrated probability comes from a map fitted on the user's own outcomes (or was given
    as a number) and falls below ``confidence_threshold``. With the shipped map and no stated
    confidence it passes: that map only restates the grounding score, and judging the same
    score twice with two thresholds rejected good answers the grounding dimension passed.
    Token logprobs measure fluency, not support, so they never fail it on their own.
    """
    if conf.overconfident and conf.stated_in_words and (conf.raw or 0.0) >= _SURE:
        return True
    return conf.fitted and conf.calibrated < policy.confidence_threshold


def _warning(why: str, flagged: list[FlaggedClaim]) -> str:
    contra = sum(f.kind == "contradicted" for f in flagged)
    unsup = len(flagged) - contra
    text = f"Low confidence: this answer did not pass the quality check ({why})"
    counts = []
    if contra:
        counts.append(f"{contra} contradicted")
    if unsup:
        counts.append(f"{unsup} unsupported")
    if counts:
        text += f"; claims flagged: {', '.join(counts)}"
    return text + "."


def _exhaustion_reason(
    failed: list[Dimension],
    retries_used: int,
    policy: GatePolicy,
    load: LoadAssessment | None,
) -> str:
    dims = ", ".join(failed)
    if "load" in failed and load is not None:
        return f"failed {dims}; {load.reason}"
    return f"failed {dims} after {retries_used} of {policy.max_retries} retries"


def _check_retries(retries_used: Any) -> None:
    """``InvalidInputError`` unless ``retries_used`` is an int >= 0 (a bool is not)."""
    if isinstance(retries_used, bool) or not isinstance(retries_used, int):
        shown = repr(retries_used)
        shown = shown if len(shown) <= 60 else f"{shown[:57]}..."
        raise InvalidInputError("retries_used", f"expected an int >= 0, got {shown}")
    if retries_used < 0:
        raise InvalidInputError("retries_used", f"must be >= 0, got {retries_used}")


def _as_confidence(
    confidence: CalibratedConfidence | float | None, report: GroundingReport
) -> CalibratedConfidence:
    if isinstance(confidence, CalibratedConfidence):
        return confidence
    if confidence is None:
        return CalibratedConfidence(
            raw=None,
            calibrated=report.score,
            sources=[],
            overconfident=False,
            gap=0.0,
            reason="no calibrator: the grounding score is used as confidence",
        )
    value = float(confidence)
    if not 0.0 <= value <= 1.0:
        raise InvalidInputError("confidence", f"must be in [0, 1], got {value}")
    return CalibratedConfidence(
        raw=None,
        calibrated=value,
        sources=[],
        overconfident=False,
        gap=0.0,
        reason="given",
        fitted=True,
    )


def _as_load(load: LoadAssessment | LoadAction | None) -> LoadAssessment | None:
    if load is None or isinstance(load, LoadAssessment):
        return load
    action = LoadAction(load)
    return LoadAssessment(action=action, reason=f"load {action.value}", counters=LoadCounters())


class GroundingMonitor(Protocol):
    """What the facade needs from a grounding monitor (``HallucinationMonitor`` fits)."""

    def verify_grounding(
        self, output: Any, evidence: Any, *, question: str | None = None
    ) -> GroundingReport:
        """Grade ``output`` against ``evidence``."""
        ...

    async def averify_grounding(
        self, output: Any, evidence: Any, *, question: str | None = None
    ) -> GroundingReport:
        """Async twin."""
        ...


class QualityGate:
    """Facade: grounding monitor -> calibrator -> load monitor -> noise gate, in one call.

    The retry budget has one source of truth per call, :meth:`effective_policy`'s
    ``max_retries``, which the metadata and the guidance report:

    * Without an explicit ``load_monitor``, the load budget's ``max_retries`` follows the
      policy's, per call: ``GatePolicy.max_retries`` after the ``qgate_profile`` /
      ``qgate_max_retries`` overrides of the call's ``RunnableConfig``.
    * With an explicit ``load_monitor``, the stricter of ``GatePolicy.max_retries`` (after
      overrides) and its ``LoadBudget.max_retries`` applies. Note that ``LoadBudget()``
      allows 3 retries unless told otherwise.

    Example:
        ```python
        gate = QualityGate(policy=GatePolicy.from_profile("strict"))
        decision = gate.check(answer, retrieved_docs, question=question, retries_used=0)
        if isinstance(decision, FilteredOutput):
            print(decision.render_annotated())
        else:
            print(decision.guidance.to_model_message())
        ```
    """

    def __init__(
        self,
        *,
        monitor: GroundingMonitor | None = None,
        calibrator: ConfidenceCalibrator | None = None,
        load_monitor: CognitiveLoadMonitor | None = None,
        policy: GatePolicy | Mapping[str, Any] | None = None,
        observer: GateObserver | bool = True,
    ) -> None:
        """Create the facade.

        Args:
            monitor: Grounding monitor; a ``HallucinationMonitor`` with the bundled embedding
                model is created on first use when omitted.
            calibrator: Confidence calibrator; the shipped default map when omitted.
            load_monitor: Load monitor. When omitted, the default :class:`LoadBudget` with
                ``max_retries`` taken from the policy (per call, overrides included). When
                given, its ``LoadBudget.max_retries`` caps the policy's.
            policy: Gate policy, or a mapping of its fields (validated; an invalid one raises
                :class:`~langchain_qgate.errors.InvalidInputError`). When omitted, the settings
                of the environment and the config file
                (:func:`~langchain_qgate.gate.settings.load_settings`) over the ``default``
                profile; an explicit policy wins over both.
            observer: Where each verdict is recorded (logs, OpenTelemetry, LangSmith; see
                :class:`~langchain_qgate.gate.telemetry.GateObserver`). ``True``: a default
                observer; ``False``: none.
        """
        settings = load_settings() if policy is None or monitor is None else None
        if policy is None and settings is not None:
            policy = settings.policy()
        self._grounding = settings.grounding_policy() if settings is not None else None
        self.observer: GateObserver | None = (
            GateObserver() if observer is True else (observer or None)
        )
        self._monitor = monitor
        self.calibrator = calibrator if calibrator is not None else ConfidenceCalibrator()
        self.gate = NoiseGate(policy)
        self._budget_follows_policy = load_monitor is None
        if load_monitor is None:
            budget = LoadBudget(max_retries=self.gate.policy.max_retries)
            load_monitor = CognitiveLoadMonitor(budget)
        self.load_monitor = load_monitor

    @property
    def policy(self) -> GatePolicy:
        """The gate policy (before per-call overrides)."""
        return self.gate.policy

    def effective_policy(self, config: Mapping[str, Any] | None = None) -> GatePolicy:
        """The policy one call runs under: per-call overrides applied, retries capped.

        Args:
            config: The call's ``RunnableConfig`` (or its ``configurable`` mapping).

        Returns:
            ``policy.with_overrides(config)``, with ``max_retries`` lowered to an explicit load
            monitor's ``LoadBudget.max_retries`` when that is stricter.

        Raises:
            InvalidInputError: An override has an unusable value.
        """
        return self._resolve(config)[0]

    def effective_load_monitor(
        self, config: Mapping[str, Any] | None = None
    ) -> CognitiveLoadMonitor:
        """The load monitor one call is assessed with.

        Without an explicit ``load_monitor``: the default budget with ``max_retries`` set to
        :meth:`effective_policy`'s. With one: that monitor, unchanged.

        Args:
            config: The call's ``RunnableConfig`` (or its ``configurable`` mapping).
        """
        return self._resolve(config)[1]

    def _resolve(self, config: Mapping[str, Any] | None) -> tuple[GatePolicy, CognitiveLoadMonitor]:
        policy = self.gate.policy.with_overrides(config)
        monitor = self.load_monitor
        limit = monitor.budget.max_retries
        if self._budget_follows_policy:
            if limit != policy.max_retries:
                budget = replace(monitor.budget, max_retries=policy.max_retries)
                monitor = CognitiveLoadMonitor(budget)
        elif limit < policy.max_retries:
            policy = replace(policy, max_retries=limit)
        return policy, monitor

    @property
    def monitor(self) -> GroundingMonitor:
        """The grounding monitor (created lazily)."""
        if self._monitor is None:
            from langchain_qgate.grounding import HallucinationMonitor

            monitor = HallucinationMonitor(policy=self._grounding)
            self._monitor = cast("GroundingMonitor", monitor)
        return self._monitor

    def decide(
        self,
        output: Any,
        report: GroundingReport,
        *,
        retries_used: int = 0,
        counters: LoadCounters | Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
        now: float | None = None,
        language: LanguageCheck | None = None,
    ) -> GateDecision:
        """Gate an output whose grounding report already exists (calibrate, assess, gate).

        Arguments as in :meth:`check`; the policy is :meth:`effective_policy` of ``config``.
        ``language`` is what :func:`~langchain_qgate.grounding.claims.language.check_languages`
        found; ``None`` detects it from the output and the evidence the report quotes.
        """
        _check_retries(retries_used)
        policy, load_monitor = self._resolve(config)
        confidence = self.calibrator.calibrate(output, report)
        load = None
        retries = retries_used
        if counters is not None:
            c = LoadCounters.from_state(counters)
            load = load_monitor.assess(c, now=now)
            retries = max(retries, c.retries)
        try:
            decision = _filter(
                policy,
                output,
                report,
                confidence=confidence,
                load=load,
                retries_used=retries,
                language=language,
            )
        except QualityGateRejected as exc:
            if isinstance(exc.payload, RejectedOutput):
                self._observe(exc.payload, report)
            raise
        self._observe(decision, report)
        return decision

    def _observe(self, decision: GateDecision, report: GroundingReport) -> None:
        """Record a verdict (unless the caller's ``gate_scope`` says it is not one)."""
        if self.observer is not None and current_scope()[1]:
            self.observer.observe(decision, report=report)

    def __repr__(self) -> str:
        monitor = "default" if self._monitor is None else type(self._monitor).__name__
        return f"QualityGate({describe_policy(self.policy)}, monitor={monitor})"

    def check(
        self,
        output: Any,
        evidence: Any,
        *,
        question: str | None = None,
        retries_used: int = 0,
        counters: LoadCounters | Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
        now: float | None = None,
    ) -> GateDecision:
        """Verify, calibrate, assess load and gate one output.

        The languages of the output and of the evidence are read first (a monitor with
        ``build_index`` indexes the evidence once, here); when the checks cannot read them and
        the policy's ``on_unsupported_language`` is ``"verifier"``, every claim is graded by
        the monitor's LLM verifier (its ``LLMVerifier``, or its ``CascadeVerifier``'s second
        stage).

        Args:
            output: The output (string or message).
            evidence: What the output must be grounded in (strings, Documents, ToolMessages,
                evidence chunks or dicts, or a sequence of these).
            question: The question answered, when known.
            retries_used: Rejections already retried; the larger of this and
                ``counters.retries`` is used.
            counters: The run's load counters (model, graph-state dict); ``None`` skips load.
            config: A ``RunnableConfig`` with per-call policy overrides.
            now: Current Unix time for the elapsed-time budget (deterministic tests).

        Returns:
            :class:`FilteredOutput` or :class:`RejectedOutput`.

        Raises:
            QualityGateRejected: Under ``on_exhausted="raise"`` with no retries left.
            InvalidInputError: Unusable input, naming the field: wrong types, ``retries_used``
                not an int >= 0, a ``config`` override that is not finite or out of range,
                malformed ``counters`` or evidence.
        """
        warn_if_no_evidence(evidence)
        index, language, verifier = self._read(output, evidence, config)
        if verifier is not None:  # text the rules cannot read goes to the LLM verifier
            monitor = cast("Any", self.monitor)
            report = monitor.verify_grounding(output, index, question=question, verifier=verifier)
        else:
            report = self.monitor.verify_grounding(output, index, question=question)
        return self.decide(
            output,
            report,
            retries_used=retries_used,
            counters=counters,
            config=config,
            now=now,
            language=language,
        )

    async def acheck(
        self,
        output: Any,
        evidence: Any,
        *,
        question: str | None = None,
        retries_used: int = 0,
        counters: LoadCounters | Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
        now: float | None = None,
    ) -> GateDecision:
        """Async twin of :meth:`check` (grounding runs through ``averify_grounding``)."""
        warn_if_no_evidence(evidence)
        index, language, verifier = await asyncio.to_thread(self._read, output, evidence, config)
        if verifier is not None:
            monitor = cast("Any", self.monitor)
            report = await monitor.averify_grounding(
                output, index, question=question, verifier=verifier
            )
        else:
            report = await self.monitor.averify_grounding(output, index, question=question)
        return self.decide(
            output,
            report,
            retries_used=retries_used,
            counters=counters,
            config=config,
            now=now,
            language=language,
        )

    def _read(
        self, output: Any, evidence: Any, config: Mapping[str, Any] | None
    ) -> tuple[Any, LanguageCheck | None, VerifierLike | None]:
        """The evidence to grade (indexed once when the monitor can, so its chunks are read
        here and graded there), the languages of the output and the evidence, and the LLM
        verifier to hand the claims to under ``on_unsupported_language="verifier"``.

        A monitor without ``build_index`` gets the evidence as given, and the languages are
        read in :meth:`decide` from the evidence its report quotes.
        """
        build = getattr(self.monitor, "build_index", None)
        if build is None:
            return evidence, None, None
        index = build(evidence)
        texts = [chunk.text for chunk in index.chunks]
        language = check_languages(output_text(output), texts)
        if language.supported:
            return index, language, None
        policy = self._resolve(config)[0]
        if policy.on_unsupported_language != "verifier":
            return index, language, None
        return index, language, llm_verifier(self.monitor)

    def record(
        self, counters: LoadCounters | Mapping[str, Any] | None, decision: GateDecision
    ) -> LoadCounters:
        """Counters after a decision: one more retry when the output goes back to the model."""
        c = LoadCounters.from_state(counters)
        if isinstance(decision, RejectedOutput) and not decision.guidance.should_escalate:
            return self.load_monitor.record_retry(c)
        return c


def load_text(metadata: QualityMetadata) -> str:
    """The load verdict for people: a throttle only concerns a further attempt, so on a passed
    answer it is said as such (the answer itself is delivered)."""
    action = metadata.load_action
    if action is None:
        return "not checked"
    text = f"{action.value}: {metadata.load_reason}"
    if action is LoadAction.THROTTLE and metadata.decision in ("pass", "pass_with_warning"):
        text += " (would slow a further attempt; no effect on this answer)"
    return text


def format_decision(decision: GateDecision, *, model_in_loop: bool = True) -> str:
    """Plain-text block for the CLI: the decision, the figures and, on reject, the guidance.

    ``model_in_loop=False`` (a file check, ``qgate check``): without what only an agent has
    (the retries used, the attempts left, an escalation); a rejection says what it would mean
    in an agent, then the problems and fixes its model would be sent.
    """
    m = decision.metadata
    label = describe_decision(m.decision, model_in_loop=model_in_loop)
    lang = m.language
    unread = lang is not None and not lang.supported and lang.action == "warn"
    if unread and m.decision == "pass_with_warning" and not m.failed_dimensions:
        label = "pass_with_warning (not verified: the text is in a language the checks cannot read)"

    def row(key: str, value: str) -> str:
        return f"  {key:<12} {value}"

    conf = (
        f"{m.confidence:.2f} (threshold {m.confidence_threshold:.2f}; calibrated probability "
        "that the answer is supported)"
    )
    if m.raw_confidence is not None:
        conf += f", stated {m.raw_confidence:.2f}" + (" - overconfident" if m.overconfident else "")
    lines = [
        f"Gate decision: {label}   [profile {m.profile}]",
        row("grounding", f"{m.score:.2f} (threshold {m.grounding_threshold:.2f})"),
        row("confidence", conf),
        row("load", load_text(m)),
    ]
    if model_in_loop:
        lines.append(row("retries", f"{m.retries_used} of {m.max_retries} used"))
    if m.failed_dimensions:
        lines.append(row("failed", ", ".join(m.failed_dimensions)))
    if lang is not None and not lang.supported:
        lines.append(row("language", lang.reason))
    if m.warning:
        lines.append(row("warning", m.warning))
    if isinstance(decision, RejectedOutput) and not model_in_loop:
        g = decision.guidance
        lines.append("")
        lines.append("Guidance (what an agent's model would be told):")
        if g.issues:
            lines.append("  Problems:")
            lines.extend(f"  - {i}" for i in g.issues)
        if g.actions:
            lines.append("  Revise it:")
            lines.extend(f"  - {a}" for a in g.actions)
    elif isinstance(decision, RejectedOutput):
        g = decision.guidance
        lines.append("")
        lines.append("Guidance for the model:")
        lines.extend("  " + line for line in g.to_model_message().splitlines())
        if decision.escalation is not None:
            lines.append("")
            lines.append(f"Escalation: {short(decision.escalation.reason, 200)}")
    return "\n".join(lines)
