"""The gate's verdicts where production teams look: a flat record, log lines, OpenTelemetry
attributes and LangSmith feedback.

:func:`verdict_record` turns one decision into a :class:`VerdictRecord` (every field read from
the typed decision in this one module). :class:`GateObserver` sends it to three sinks:

- **Logs**: one line per verdict on the ``langchain_qgate.verdicts`` logger, with the record's
  attributes under ``extra={"qgate": {...}}``. ``pass`` and ``retry`` log at DEBUG (routine);
  ``pass_with_warning``, ``escalate`` and ``raise`` at INFO (the answer reaches a person
  degraded or not at all).
- **OpenTelemetry**: when ``opentelemetry`` is importable and the current span is recording,
  the attributes (``qgate.decision``, ``qgate.score``, ...) are set on it. Optional dependency.
- **LangSmith**: when tracing is on (``langsmith.utils.tracing_is_enabled()``) or a client was
  injected, the attributes go into the current run's metadata and one feedback score per key
  of :data:`FEEDBACK_KEYS` is created on the run (``client.create_feedback``).

A failing sink never fails the gate: the first failure of each sink is logged at WARNING on
``langchain_qgate.gate.telemetry``, later ones at DEBUG.

The integrations tell the observer which surface gated the answer (and, for callbacks, the
run id) through :func:`gate_scope`, a context variable, so ``QualityGate.check`` stays the one
place that observes.
"""

from __future__ import annotations

import contextvars
import importlib
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from langchain_qgate.gate.decisions import FilteredOutput, RejectedOutput
from langchain_qgate.gate.guidance import short

if TYPE_CHECKING:
    from langchain_qgate.schemas import GroundingReport

__all__ = [
    "FEEDBACK_KEYS",
    "VERDICT_LOGGER",
    "AttributeValue",
    "ContradictionNote",
    "GateObserver",
    "VerdictRecord",
    "current_scope",
    "gate_scope",
    "verdict_record",
]

AttributeValue = str | int | float | bool | list[str]
"""A value OpenTelemetry accepts as a span attribute (and JSON and LangSmith metadata too)."""

VERDICT_LOGGER = "langchain_qgate.verdicts"
"""Name of the logger that gets one line per verdict."""

FEEDBACK_KEYS = ("qgate.passed", "qgate.score", "qgate.decision", "qgate.contradictions")
"""LangSmith feedback keys written per gated answer: ``qgate.passed`` (score 1 or 0, the cause in
the comment), ``qgate.score`` (grounding score), ``qgate.decision`` (value: the decision),
``qgate.contradictions`` (count, the first contradicted claims in the comment)."""

_MAX_ITEMS = 5  # contradictions and reasons kept in a record
_MAX_SOURCES = 10
_TEXT = 200  # characters per quoted claim, quote or reason

logger = logging.getLogger(__name__)
verdict_logger = logging.getLogger(VERDICT_LOGGER)


@dataclass(frozen=True, kw_only=True)
class ContradictionNote:
    """One contradicted claim, capped for a log line.

    Attributes:
        kind: What disagrees (``number``, ``date``, ``negation``, ``statement``...).
        claim: The claim text.
        evidence: The disagreeing evidence quote.
    """

    kind: str
    claim: str
    evidence: str


@dataclass(frozen=True, kw_only=True)
class VerdictRecord:
    """One gate verdict as a flat record.

    Attributes:
        decision: ``pass`` / ``pass_with_warning`` / ``retry`` / ``escalate`` / ``raise``.
        passed: Whether every dimension passed.
        score: Grounding score the gate used.
        confidence: Calibrated confidence.
        profile: Policy profile.
        grounding_threshold: Threshold applied to ``score``.
        attempt: 1 for the first draft, 2 after one retry...
        max_retries: The retry budget.
        grades: Counted claims per grade (``grounded`` / ``inferred`` / ``fabricated``).
        contradictions: Number of contradicted claims.
        contradicted: The first contradicted claims (at most 5).
        failed_dimensions: ``grounding`` / ``confidence`` / ``load``.
        reasons: Why (the guidance's issues, the warning, or the report's reason; at most 5).
        sources: Source ids of the cited evidence (at most 10).
        surface: What gated the answer (``gate``, ``middleware``, ``graph``, ``callback``,
            ``runnable``, ``streaming``).
    """

    decision: str
    passed: bool
    score: float
    confidence: float
    profile: str
    grounding_threshold: float
    attempt: int
    max_retries: int
    grades: dict[str, int]
    contradictions: int
    contradicted: tuple[ContradictionNote, ...] = ()
    failed_dimensions: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    surface: str = "gate"

    @property
    def cause(self) -> str:
        """A short bucket for counting: ``ok``, or the failed dimensions with ``+contradiction``
        when a claim was contradicted (``grounding+contradiction``)."""
        if self.passed:
            return "ok"
        cause = "+".join(self.failed_dimensions) or self.decision
        return cause + ("+contradiction" if self.contradictions else "")

    def attributes(self) -> dict[str, AttributeValue]:
        """The record as flat ``qgate.*`` attributes (str, int, float, bool or list of str)."""
        attrs: dict[str, AttributeValue] = {
            "qgate.decision": self.decision,
            "qgate.passed": self.passed,
            "qgate.cause": self.cause,
            "qgate.score": round(self.score, 4),
            "qgate.confidence": round(self.confidence, 4),
            "qgate.profile": self.profile,
            "qgate.grounding_threshold": self.grounding_threshold,
            "qgate.attempt": self.attempt,
            "qgate.max_retries": self.max_retries,
            "qgate.contradictions": self.contradictions,
            "qgate.failed_dimensions": list(self.failed_dimensions),
            "qgate.reasons": list(self.reasons),
            "qgate.sources": list(self.sources),
            "qgate.surface": self.surface,
        }
        for grade, count in sorted(self.grades.items()):
            attrs[f"qgate.claims.{grade}"] = count
        attrs["qgate.contradiction.kinds"] = [c.kind for c in self.contradicted]
        attrs["qgate.contradiction.claims"] = [c.claim for c in self.contradicted]
        attrs["qgate.contradiction.evidence"] = [c.evidence for c in self.contradicted]
        return attrs

    def feedback(self) -> list[dict[str, Any]]:
        """Keyword arguments of one ``client.create_feedback`` call per :data:`FEEDBACK_KEYS`."""
        counts = ", ".join(f"{n} {g}" for g, n in self.grades.items())
        first = "; ".join(f"{c.claim!r} vs {c.evidence!r}" for c in self.contradicted[:2])
        return [
            {"key": "qgate.passed", "score": int(self.passed), "comment": self._why()},
            {"key": "qgate.score", "score": round(self.score, 4), "comment": counts},
            {"key": "qgate.decision", "value": self.decision, "comment": self.profile},
            {"key": "qgate.contradictions", "score": self.contradictions, "comment": first},
        ]

    def _why(self) -> str:
        head = f"{self.decision} ({self.cause})"
        return f"{head}: {self.reasons[0]}" if self.reasons else head

    def message(self) -> str:
        """The one-line log message."""
        return (
            f"qgate verdict: {self.decision} score={self.score:.2f} "
            f"threshold={self.grounding_threshold:.2f} profile={self.profile} "
            f"attempt={self.attempt}/{self.max_retries + 1} cause={self.cause} "
            f"surface={self.surface}"
        )


def verdict_record(
    decision: FilteredOutput | RejectedOutput,
    *,
    report: GroundingReport | None = None,
    surface: str = "gate",
) -> VerdictRecord:
    """The flat record of one gate decision.

    Args:
        decision: What the gate returned (or the payload of ``QualityGateRejected``).
        report: The grounding report, for each contradiction's kind and quote (without it
            they come from the decision's metadata and guidance).
        surface: What gated the answer.

    Returns:
        The record; every value is read from the decision's typed fields here.
    """
    m = decision.metadata
    reasons: list[str] = []
    if isinstance(decision, RejectedOutput):
        reasons = list(decision.guidance.issues)
        if decision.escalation is not None:
            reasons.insert(0, decision.escalation.reason)
    elif decision.warning:
        reasons = [decision.warning]
    if not reasons and m.reason:
        reasons = [m.reason]
    sources = list(dict.fromkeys(s.source_id for s in m.sources))
    return VerdictRecord(
        decision=m.decision,
        passed=m.passed,
        score=m.score,
        confidence=m.confidence,
        profile=m.profile,
        grounding_threshold=m.grounding_threshold,
        attempt=m.retries_used + 1,
        max_retries=m.max_retries,
        grades=m.grades,
        contradictions=m.contradictions,
        contradicted=tuple(_contradictions(decision, report)[:_MAX_ITEMS]),
        failed_dimensions=tuple(m.failed_dimensions),
        reasons=tuple(short(r, _TEXT) for r in reasons[:_MAX_ITEMS]),
        sources=tuple(sources[:_MAX_SOURCES]),
        surface=surface,
    )


def _contradictions(
    decision: FilteredOutput | RejectedOutput, report: GroundingReport | None
) -> list[ContradictionNote]:
    if report is not None:
        return [
            ContradictionNote(
                kind=v.contradiction.kind,
                claim=short(v.claim.text, _TEXT),
                evidence=short(v.contradiction.quote, _TEXT),
            )
            for v in report.verdicts
            if v.counted and v.contradiction is not None
        ]
    quotes: dict[int, str] = {}
    if isinstance(decision, RejectedOutput):
        quotes = {
            f.index: f.quote for f in decision.guidance.flagged_claims if f.kind == "contradicted"
        }
    return [
        ContradictionNote(
            kind="contradicted",
            claim=short(c.text, _TEXT),
            evidence=short(quotes.get(c.index) or c.contradiction or "", _TEXT),
        )
        for c in decision.metadata.claims
        if c.counted and c.contradiction is not None
    ]


# -- where the verdict happens ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class _Scope:
    surface: str = "gate"
    run_id: UUID | None = None
    observe: bool = True
    warn_no_evidence: bool = True


_SCOPE: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar("qgate_scope", default=None)


@contextmanager
def gate_scope(
    surface: str,
    *,
    run_id: UUID | None = None,
    observe: bool = True,
    warn_no_evidence: bool = True,
) -> Iterator[None]:
    """Within the block, gate calls are recorded as made by ``surface``.

    Args:
        surface: The integration that calls the gate.
        run_id: The LangChain run the verdict belongs to (callbacks know it; elsewhere the
            current LangSmith run tree is used).
        observe: False for intermediate checks that are not verdicts on an answer (a single
            streamed sentence).
        warn_no_evidence: False on later attempts of a run already warned about.
    """
    token = _SCOPE.set(
        _Scope(surface=surface, run_id=run_id, observe=observe, warn_no_evidence=warn_no_evidence)
    )
    try:
        yield
    finally:
        _SCOPE.reset(token)


def current_scope() -> tuple[str, bool, bool]:
    """The current surface, whether to observe, whether to warn about missing evidence."""
    scope = _SCOPE.get() or _Scope()
    return scope.surface, scope.observe, scope.warn_no_evidence


# -- the sinks -------------------------------------------------------------------------------


def _otel_span() -> Any:
    """The current OpenTelemetry span, or None when the package is not installed."""
    try:  # an optional dependency: imported by name so nothing requires it
        trace = importlib.import_module("opentelemetry.trace")
    except ImportError:
        return None
    return trace.get_current_span()


def _langsmith_run() -> tuple[Any, bool]:
    """The current LangSmith run tree (or None) and whether tracing is on."""
    from langsmith.run_helpers import get_current_run_tree
    from langsmith.utils import tracing_is_enabled

    return get_current_run_tree(), bool(tracing_is_enabled())


@dataclass(kw_only=True)
class GateObserver:
    """Sends each verdict to the logs, the current OpenTelemetry span and LangSmith.

    Attributes:
        log: Write one line per verdict on the ``langchain_qgate.verdicts`` logger.
        opentelemetry: Set ``qgate.*`` attributes on the current recording span.
        langsmith: Add run metadata and feedback when tracing is on (or a client is given).
        client: The LangSmith client (anything with ``create_feedback``); the current run
            tree's client, else ``langsmith.Client()``, when omitted. Inject a fake in tests.
        span: Returns the current span (default: OpenTelemetry's current span).
        run: Returns ``(run_tree, tracing_on)`` (default: LangSmith's context).

    Example:
        ```python
        gate = QualityGate(observer=GateObserver(client=my_langsmith_client))
        ```
    """

    log: bool = True
    opentelemetry: bool = True
    langsmith: bool = True
    client: Any = None
    span: Callable[[], Any] = _otel_span
    run: Callable[[], tuple[Any, bool]] = _langsmith_run
    _failed: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _client: Any = field(default=None, init=False, repr=False, compare=False)

    def __repr__(self) -> str:
        sinks = [n for n in ("log", "opentelemetry", "langsmith") if getattr(self, n)]
        client = "" if self.client is None else f", client={type(self.client).__name__}"
        return f"GateObserver(sinks={sinks}{client})"

    def observe(
        self,
        decision: FilteredOutput | RejectedOutput,
        *,
        report: GroundingReport | None = None,
        surface: str | None = None,
        run_id: UUID | None = None,
    ) -> VerdictRecord:
        """Record one verdict in every enabled sink; never raises.

        Args:
            decision: The gate's decision.
            report: Its grounding report (contradiction kinds and quotes).
            surface: What gated it (default: the current :func:`gate_scope`'s, else ``gate``).
            run_id: The run to attach feedback to (default: the scope's, else the current
                LangSmith run tree's).

        Returns:
            The record that was sent.
        """
        scope = _SCOPE.get() or _Scope()
        record = verdict_record(decision, report=report, surface=surface or scope.surface)
        attrs = record.attributes()
        level = logging.DEBUG if record.decision in ("pass", "retry") else logging.INFO
        if self.log and verdict_logger.isEnabledFor(level):
            verdict_logger.log(level, record.message(), extra={"qgate": attrs})
        if self.opentelemetry:
            self._safely("opentelemetry", self._to_span, attrs)
        if self.langsmith:
            self._safely("langsmith", self._to_langsmith, record, run_id or scope.run_id)
        return record

    def _to_span(self, attrs: dict[str, AttributeValue]) -> None:
        span = self.span()
        if span is not None and span.is_recording():
            span.set_attributes(attrs)

    def _to_langsmith(self, record: VerdictRecord, run_id: UUID | None) -> None:
        run_tree, tracing = self.run()
        if not tracing and self.client is None:
            return
        if run_tree is not None:
            run_tree.add_metadata(record.attributes())
            run_id = run_id or run_tree.id
        if run_id is None:
            return
        client = self.client or getattr(run_tree, "client", None) or self._default_client()
        for kwargs in record.feedback():
            client.create_feedback(run_id, **kwargs)

    def _default_client(self) -> Any:
        """One ``langsmith.Client()`` per observer, made on first need (tracing on)."""
        if self._client is None:
            from langsmith import Client

            self._client = Client()
        return self._client

    def _safely(self, sink: str, send: Callable[..., None], *args: Any) -> None:
        try:
            send(*args)
        except Exception as exc:  # a tracing failure must never fail the gate
            first = sink not in self._failed
            self._failed.add(sink)
            logger.log(
                logging.WARNING if first else logging.DEBUG,
                "quality gate: could not send the verdict to %s (%s: %s); the gate goes on "
                "without it%s",
                sink,
                type(exc).__name__,
                exc,
                "" if first else " (repeated)",
            )
