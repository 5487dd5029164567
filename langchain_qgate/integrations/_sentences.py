"""Sentence-by-sentence gating of a streamed answer: the engine and the stream protocol.

:class:`SentenceStream` takes the model's tokens as they arrive, finds complete sentences
with the package's segmenter, grades each against the attempt's evidence index (built once)
and emits the ones that pass through a stream writer (LangGraph's custom stream). A failing
sentence is held back with everything after it and the whole-answer gate decides at the end,
as without streaming; with ``stop_early`` (retries left) it stops the draft instead (the model
stream is closed and the attempt is judged by that sentence). A sentence check never spends
the retry budget or raises; ``verified`` is True only for a sentence without contradicted or
fabricated claims.

The events (``qgate.*``) are TypedDicts, JSON-ready; :func:`step_events` turns a gate step on a
streamed draft into the events that follow the sentences (retracted, retry, escalated,
warning, done). The integrations (middleware, LCEL wrapper, graph helper) share this module;
it knows nothing of graph state.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from langchain_qgate.errors import QualityGateRejected
from langchain_qgate.gate import FilteredOutput, GateDecision, QualityGate, RejectedOutput
from langchain_qgate.gate.telemetry import current_scope, gate_scope
from langchain_qgate.grounding.claims.segment import split_sentences
from langchain_qgate.integrations._harvest import message_text

__all__ = [
    "STREAM_KEY",
    "QGateDoneEvent",
    "QGateEscalatedEvent",
    "QGateRetractedEvent",
    "QGateRetryEvent",
    "QGateSentenceEvent",
    "QGateStreamEvent",
    "QGateWarningEvent",
    "SentenceCheck",
    "SentenceStream",
    "SentenceVerdict",
    "StreamMode",
    "check_sentence",
    "check_streamed",
    "delivery_events",
    "floor_config",
    "rejection_events",
    "reviewer_retry_event",
    "sentence_checks",
    "stream_meta",
    "write_events",
]

StreamMode = Literal["sentences"]
"""How a gated answer streams: ``"sentences"`` grades each sentence as it completes and emits
only the ones that pass (``None`` where accepted: no streaming, the whole answer is gated)."""

STREAM_KEY = "qgate_stream"
"""``response_metadata`` key of a streamed draft: its sentences, whether it was stopped."""


class QGateSentenceEvent(TypedDict):
    """A sentence that passed its check (or, after the final decision, a held one).

    ``id`` is unique in the run (``<message id>:<index>``); ``grade`` is the worst grade of the
    sentence's counted claims (``None``: nothing checkable, e.g. "Here is a summary:");
    ``support`` the sentence's gate score. ``verified`` is True only for a sentence that passed
    its check with no claim graded ``fabricated`` (a contradicted or unsupported claim): a
    sentence the policy lets through anyway (a contradiction under the ``brainstorm``
    profile, a low-support claim above ``min_support``, a held sentence delivered under
    ``pass_with_warning``) is emitted with ``verified=False`` and its grade.
    """

    type: Literal["qgate.sentence"]
    attempt: int
    id: str
    index: int
    text: str
    grade: str | None
    support: float
    verified: bool


class QGateRetractedEvent(TypedDict):
    """Withdraw sentences already shown: their attempt was rejected or is held for review."""

    type: Literal["qgate.retracted"]
    attempt: int
    ids: list[str]


class QGateRetryEvent(TypedDict):
    """The attempt was rejected; the model answers again with guidance (attempt + 1)."""

    type: Literal["qgate.retry"]
    attempt: int
    summary: str
    stopped_early: bool
    failed_sentence: str | None
    retries_left: int


class QGateEscalatedEvent(TypedDict):
    """The retry budget is spent: the draft waits for a human (the run pauses)."""

    type: Literal["qgate.escalated"]
    attempt: int
    reason: str
    summary: str


class QGateWarningEvent(TypedDict):
    """``pass_with_warning``: the answer is delivered unverified; show this warning first."""

    type: Literal["qgate.warning"]
    attempt: int
    warning: str


class QGateDoneEvent(TypedDict):
    """The final answer: ``text`` is the delivered text (authoritative), ``decision`` the
    gate's (``pass``, ``pass_with_warning``) or the reviewer's (``approved``, ``edited``), the
    same value as the delivered message's ``response_metadata["qgate"]["decision"]``."""

    type: Literal["qgate.done"]
    attempt: int
    decision: str
    text: str
    score: float
    output: NotRequired[Any]


QGateStreamEvent = (
    QGateSentenceEvent
    | QGateRetractedEvent
    | QGateRetryEvent
    | QGateEscalatedEvent
    | QGateWarningEvent
    | QGateDoneEvent
)
"""Every event the gate writes to the custom stream."""

Writer = Callable[[Any], None]

_WORST = {"fabricated": 3, "inferred": 2, "grounded": 1}


@dataclass(frozen=True)
class SentenceVerdict:
    """One sentence's check: ``ok`` under the policy, its worst grade and gate score.

    ``contradicted``: the evidence contradicts one of its claims (``ok`` may still be True
    under a policy that tolerates contradictions, such as the ``brainstorm`` profile).
    """

    ok: bool
    grade: str | None
    support: float
    reason: str = ""
    contradicted: bool = False

    @property
    def verified(self) -> bool:
        """Passed, and no claim is contradicted or graded ``fabricated``."""
        return self.ok and not self.contradicted and self.grade != "fabricated"


SentenceCheck = Callable[[str], SentenceVerdict]
"""``check(sentence) -> SentenceVerdict``: grade one sentence against the attempt's evidence."""


def floor_config(config: Mapping[str, Any] | None, floor: float) -> dict[str, Any]:
    """``config`` with the gate's grounding threshold set to ``floor`` (per-sentence check)."""
    base = dict(config or {})
    conf = dict(base.get("configurable") or {})
    conf["qgate_grounding_threshold"] = floor
    base["configurable"] = conf
    return base


def _sentence_config(config: Mapping[str, Any] | None, floor: float) -> dict[str, Any]:
    """:func:`floor_config` for a sentence check, which only reads the grounding dimension:
    it never spends the budget (a spent budget under ``on_exhausted="raise"`` would raise
    from inside the model's token callback and lose the draft)."""
    base = floor_config(config, floor)
    base["configurable"]["qgate_on_exhausted"] = "pass_with_warning"
    return base


def check_sentence(
    gate: QualityGate,
    text: str,
    evidence: Any,
    *,
    question: str | None,
    config: Mapping[str, Any] | None,
    floor: float | None,
) -> SentenceVerdict:
    """Grade one sentence with the gate's monitor and decide it under the gate's policy.

    The sentence fails when the gate's grounding dimension fails for it alone with the
    grounding threshold set to ``floor`` (default: half the policy's threshold): a
    contradiction the policy does not tolerate, or a score below the floor. It never raises
    :class:`~langchain_qgate.errors.QualityGateRejected`: only the whole answer spends the
    retry budget.

    Args:
        gate: The gate whose monitor and policy grade the sentence.
        text: The sentence.
        evidence: The attempt's evidence (or its index).
        question: The question, for a sentence that is the whole answer (a short answer
            such as "Paris." is read with it, as the whole-answer path does); ``None`` for a
            sentence of a longer answer, which is checked as the answer's sentence, so its
            claims (and the guidance quoting them) never include the question.
        config: The run's config (per-call policy overrides).
        floor: Per-sentence floor (``None``: half the policy's grounding threshold).
    """
    policy = gate.effective_policy(config)
    bar = policy.grounding_threshold / 2 if floor is None else floor
    report = gate.monitor.verify_grounding(text, evidence, question=question)
    with gate_scope(current_scope()[0], observe=False):  # a sentence, not a verdict on an answer
        decision = gate.decide(text, report, config=_sentence_config(config, bar))
    meta = decision.metadata
    counted = [c for c in meta.claims if c.counted]
    grade = max((c.grade for c in counted), key=lambda g: _WORST.get(g, 0), default=None)
    ok = "grounding" not in meta.failed_dimensions
    reason = ""
    if not ok:
        reason = "contradicted" if meta.contradictions else "unsupported"
    return SentenceVerdict(
        ok=ok,
        grade=grade,
        support=round(meta.score, 4),
        reason=reason,
        contradicted=meta.contradictions > 0,
    )


def sentence_checks(
    gate: QualityGate,
    evidence: Any,
    *,
    question: str | None,
    config: Mapping[str, Any] | None,
    floor: float | None,
) -> tuple[SentenceCheck, SentenceCheck]:
    """The two checks of a streamed attempt: a sentence of a longer answer (without the
    question) and a sentence that is the whole answer (with it); see :func:`check_sentence`.
    """

    def part(text: str) -> SentenceVerdict:
        return check_sentence(gate, text, evidence, question=None, config=config, floor=floor)

    def alone(text: str) -> SentenceVerdict:
        return check_sentence(gate, text, evidence, question=question, config=config, floor=floor)

    return part, alone


@dataclass
class _Sentence:
    index: int
    id: str
    start: int
    end: int
    text: str
    status: Literal["shown", "held", "failed"] = "held"
    grade: str | None = None
    support: float = 0.0
    verified: bool = False
    lag: float | None = None  # seconds from the sentence's last token to its emission
    check_s: float | None = None  # seconds spent grading it


@dataclass
class SentenceStream:
    """The sentences of one streamed attempt: segment, grade, emit or stop.

    Args:
        check: Grades one sentence of the answer (``None``: no evidence to grade against;
            every sentence is held until the whole-answer gate decides).
        writer: Receives the ``qgate.sentence`` events.
        attempt: The attempt's number in the turn (1 = first answer).
        stop_on_fail: Stop the draft at a failing sentence (the ``stop_early`` option, with
            retries left); otherwise hold it and everything after it for the whole-answer
            decision.
        id_prefix: Prefix of the sentence ids (unique per attempt).
        floor: The per-sentence grounding floor ``check`` applies (recorded for the gate).
        check_alone: Grades a sentence that is the whole answer (read with the question);
            ``check`` when omitted.
    """

    check: SentenceCheck | None
    writer: Writer
    attempt: int
    stop_on_fail: bool
    id_prefix: str = ""
    floor: float | None = None
    check_alone: SentenceCheck | None = None
    clock: Callable[[], float] = time.perf_counter
    text: str = ""
    sentences: list[_Sentence] = field(default_factory=list)
    tokens: int = 0
    stopped: bool = False
    ended: bool = False
    tool_calls: bool = False
    holding: bool = False
    failed_reason: str | None = None
    _cursor: int = 0
    _token_ends: list[int] = field(default_factory=list)
    _token_times: list[float] = field(default_factory=list)

    # -- input -------------------------------------------------------------------------------
    def push(self, delta: str) -> list[_Sentence]:
        """Add a token; the sentences it completed (not graded yet)."""
        if self.stopped:
            return []
        self.tokens += 1
        if delta:
            self.text += delta
            self._token_ends.append(len(self.text))
            self._token_times.append(self.clock())
        return self._complete(final=False)

    def push_end(self) -> list[_Sentence]:
        """The stream ended: the last sentence is complete."""
        if self.stopped:
            return []
        return self._complete(final=True)

    def saw_tool_calls(self) -> None:
        """The message calls tools: not a final answer, nothing more is graded or shown."""
        self.tool_calls = True

    def process(self, ready: list[_Sentence]) -> bool:
        """Grade and emit (or hold) completed sentences in order; True when the draft stops."""
        for s in ready:
            if self.stopped:
                break
            self._process_one(s)
        return self.stopped

    def feed(self, delta: str) -> bool:
        """:meth:`push` then :meth:`process`; True when the draft must stop."""
        return self.process(self.push(delta))

    def end(self) -> bool:
        """:meth:`push_end` then :meth:`process`."""
        return self.process(self.push_end())

    # -- internals ---------------------------------------------------------------------------
    def _complete(self, *, final: bool) -> list[_Sentence]:
        self.ended = self.ended or final
        rest = self.text[self._cursor :]
        spans = split_sentences(rest)
        if not spans:
            return []
        if final:
            done = spans
        else:
            # The last span may still grow; the one before it is complete once the next
            # sentence's first word is (so "U.S. A" does not split before "Army").
            tail = rest[spans[-1][0] :]
            first_word_done = any(ch.isspace() for ch in tail.lstrip())
            done = spans[:-1] if first_word_done else spans[:-2]
        out: list[_Sentence] = []
        for a, b in done:
            start, end = self._cursor + a, self._cursor + b
            i = len(self.sentences)
            s = _Sentence(i, f"{self.id_prefix}:{i}", start, end, self.text[start:end])
            self.sentences.append(s)
            out.append(s)
        if done:
            self._cursor += done[-1][1]
        return out

    def _last_token_time(self, end: int) -> float | None:
        k = bisect.bisect_left(self._token_ends, end)
        return self._token_times[k] if k < len(self._token_times) else None

    def _process_one(self, s: _Sentence) -> None:
        if self.tool_calls or self.holding or self.check is None:
            return  # held until the whole-answer decision
        alone = self.ended and len(self.sentences) == 1 and self.check_alone is not None
        check = self.check_alone if alone and self.check_alone is not None else self.check
        began = self.clock()
        verdict = check(s.text)
        s.check_s = self.clock() - began
        s.grade, s.support = verdict.grade, verdict.support
        if verdict.ok:
            s.status, s.verified = "shown", verdict.verified
            last = self._last_token_time(s.end)
            self.writer(self.sentence_event(s))
            s.lag = None if last is None else max(0.0, self.clock() - last)
            return
        if self.stop_on_fail:
            s.status = "failed"
            self.stopped = True
            self.text = self.text[: s.end]
            self.failed_reason = verdict.reason
        else:
            self.holding = True

    def sentence_event(self, s: _Sentence, *, verified: bool | None = None) -> QGateSentenceEvent:
        """The ``qgate.sentence`` event of ``s``."""
        return QGateSentenceEvent(
            type="qgate.sentence",
            attempt=self.attempt,
            id=s.id,
            index=s.index,
            text=s.text,
            grade=s.grade,
            support=s.support,
            verified=s.verified if verified is None else verified,
        )

    # -- output ------------------------------------------------------------------------------
    @property
    def failed(self) -> _Sentence | None:
        """The sentence that stopped the draft."""
        return next((s for s in self.sentences if s.status == "failed"), None)

    @property
    def lags(self) -> list[float]:
        """Seconds from each shown sentence's last token to its emission."""
        return [s.lag for s in self.sentences if s.lag is not None]

    def meta(self) -> dict[str, Any]:
        """The draft's ``response_metadata["qgate_stream"]`` (JSON)."""
        failed = self.failed
        return {
            "attempt": self.attempt,
            "stopped": self.stopped,
            "ended": self.ended,
            "failed": None if failed is None else failed.id,
            "failed_reason": self.failed_reason,
            "tokens": self.tokens,
            "floor": self.floor,
            "sentences": [
                {
                    "id": s.id,
                    "index": s.index,
                    "start": s.start,
                    "end": s.end,
                    "text": s.text,
                    "status": s.status,
                    "verified": s.verified,
                    "grade": s.grade,
                    "support": s.support,
                    "lag_ms": None if s.lag is None else round(s.lag * 1000, 3),
                    "check_ms": None if s.check_s is None else round(s.check_s * 1000, 3),
                }
                for s in self.sentences
            ],
        }


def stream_meta(message: Any) -> dict[str, Any] | None:
    """The streaming record of a draft, ``None`` when it was not streamed by the gate."""
    meta = getattr(message, "response_metadata", None)
    if not isinstance(meta, Mapping):
        return None
    record = meta.get(STREAM_KEY)
    return record if isinstance(record, dict) else None


def _shown(record: Mapping[str, Any]) -> list[str]:
    return [s["id"] for s in record.get("sentences", []) if s.get("status") == "shown"]


def rejection_events(
    record: Mapping[str, Any], result: RejectedOutput, *, review: bool
) -> list[QGateStreamEvent]:
    """Events for a rejected streamed attempt: retract what was shown, then retry/escalate."""
    attempt = int(record.get("attempt", 1))
    events: list[QGateStreamEvent] = []
    shown = _shown(record)
    if shown:
        events.append(QGateRetractedEvent(type="qgate.retracted", attempt=attempt, ids=shown))
    if review or result.escalation is not None:
        reason = result.escalation.reason if result.escalation is not None else ""
        events.append(
            QGateEscalatedEvent(
                type="qgate.escalated",
                attempt=attempt,
                reason=reason,
                summary=result.guidance.summary(),
            )
        )
    else:
        events.append(
            QGateRetryEvent(
                type="qgate.retry",
                attempt=attempt,
                summary=result.guidance.summary(),
                stopped_early=bool(record.get("stopped")),
                failed_sentence=record.get("failed"),
                retries_left=result.guidance.retries_left,
            )
        )
    return events


def reviewer_retry_event(
    record: Mapping[str, Any], result: RejectedOutput, decision: Any
) -> QGateRetryEvent:
    """The event after a reviewer rejected an escalated draft: the model answers again with
    the reviewer's feedback and a fresh budget (the decision's ``retries``, else the
    policy's)."""
    granted = getattr(decision, "retries", None)
    message = getattr(decision, "message", None) or ""
    return QGateRetryEvent(
        type="qgate.retry",
        attempt=int(record.get("attempt", 1)),
        summary=f"Rejected by a reviewer: {message}" if message else "Rejected by a reviewer.",
        stopped_early=False,
        failed_sentence=None,
        retries_left=granted if granted is not None else result.guidance.max_retries,
    )


def delivery_events(
    record: Mapping[str, Any],
    result: FilteredOutput | RejectedOutput,
    *,
    text: str,
    decision: str,
    check: SentenceCheck | None,
    show_held: bool,
    check_alone: SentenceCheck | None = None,
) -> list[QGateStreamEvent]:
    """Events for a delivered streamed answer: warning, held sentences, done.

    A held sentence is graded again for its event (``check``, or ``check_alone`` when it is
    the whole answer); ``verified`` as in :class:`QGateSentenceEvent`.
    """
    attempt = int(record.get("attempt", 1))
    events: list[QGateStreamEvent] = []
    warning = result.warning if isinstance(result, FilteredOutput) else None
    if warning:
        events.append(QGateWarningEvent(type="qgate.warning", attempt=attempt, warning=warning))
    if _alone(record) and check_alone is not None:
        check = check_alone
    if show_held:
        for s in record.get("sentences", []):
            if s.get("status") == "shown":
                continue
            verdict = check(s["text"]) if check is not None else None
            events.append(
                QGateSentenceEvent(
                    type="qgate.sentence",
                    attempt=attempt,
                    id=s["id"],
                    index=s["index"],
                    text=s["text"],
                    grade=verdict.grade if verdict else s.get("grade"),
                    support=verdict.support if verdict else float(s.get("support") or 0.0),
                    verified=bool(verdict and verdict.verified),
                )
            )
    events.append(
        QGateDoneEvent(
            type="qgate.done",
            attempt=attempt,
            decision=decision,
            text=text,
            score=round(result.metadata.score, 4),
        )
    )
    return events


def check_streamed(
    gate: QualityGate,
    draft: Any,
    record: Mapping[str, Any],
    evidence: Any,
    *,
    config: Mapping[str, Any] | None,
    **kwargs: Any,
) -> GateDecision:
    """The gate's verdict on a streamed draft.

    A draft stopped at a failing sentence (``stop_early``) is judged by that sentence, read
    as the answer's sentence (its guidance goes to the model), with the partial draft as the
    rejected text; a finished draft is judged whole, exactly as without streaming. Shown
    sentences are retracted before a ``raise``.

    Args:
        gate: The gate.
        draft: The draft (message or text).
        record: Its streaming record (:func:`stream_meta`).
        evidence: The evidence.
        config: The run's config.
        **kwargs: ``question``, ``retries_used``, ``counters`` for :meth:`QualityGate.check`.
    """
    sentences = record.get("sentences", [])
    failed = next((s for s in sentences if s["id"] == record.get("failed")), None)
    try:
        if record.get("stopped") and failed is not None:
            policy = gate.effective_policy(config)
            bar = max(policy.grounding_threshold, float(record.get("floor") or 0.0))
            # the sentence as the answer's sentence: the question only when it is the answer
            alone = {} if _alone(record) else {"question": None}
            result = gate.check(
                failed["text"], evidence, config=floor_config(config, bar), **{**kwargs, **alone}
            )
            if isinstance(result, RejectedOutput):
                return _as_draft(result, message_text(draft))
        return gate.check(draft, evidence, config=config, **kwargs)
    except QualityGateRejected as exc:
        if isinstance(exc.payload, RejectedOutput):
            write_events(rejection_events(record, exc.payload, review=True)[:-1])
        raise


def _alone(record: Mapping[str, Any]) -> bool:
    """Whether the streamed draft was one sentence, to its end (the whole answer)."""
    return bool(record.get("ended")) and len(record.get("sentences", [])) == 1


def _as_draft(result: RejectedOutput, text: str) -> RejectedOutput:
    """A sentence's rejection carried by the whole (partial) draft it stopped."""
    update: dict[str, Any] = {"text": text}
    if result.escalation is not None:
        update["escalation"] = result.escalation.model_copy(update={"draft": text})
    return result.model_copy(update=update)


def write_events(events: Sequence[QGateStreamEvent], writer: Writer | None = None) -> None:
    """Write events to ``writer`` or LangGraph's custom stream (nothing outside a graph)."""
    if writer is None:
        from langgraph.config import get_stream_writer

        try:
            writer = get_stream_writer()
        except RuntimeError:
            return
    for event in events:
        writer(event)
