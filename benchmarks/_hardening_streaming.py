"""Streaming fuzz set (issue 26, items 9-12): ``with_quality_gate(..., stream="sentences")``.

Each case is a small fact sheet (the evidence), a question, one or two scripted replies built
from grounded, contradicted, unsupported, fragment and odd sentences (a retry gets the
second), a profile (strict, default, brainstorm), a retry budget, an exhaustion policy (with
an ``on_escalate`` that approves, answers with a malformed decision, or is absent) and a way
the model's stream is broken: none, an exception mid-stream, empty chunks, non-str content
(content blocks, reasoning blocks) or a tool-call chunk.

Every case is streamed sequentially (``.stream``), concurrently in threads (``.stream``) and
concurrently on one event loop (``.astream``), and gated whole once (``.invoke``). Measured:

- foreign errors: an exception that is neither a ``QGateError`` nor the stream's own
  injected ``StreamBrokenError`` (must be 0);
- runs over 10 s (must be 0);
- contradicted sentences marked verified: a ``qgate.sentence`` event with ``verified=True``
  whose sentence holds a claim the whole-answer report grades as contradicted (must be 0);
- decision mismatches: the streamed outcome (decision and delivered text, or the error
  class) differs from ``.invoke`` on the same replies (must be 0; streams that break are
  left out, they raise the model's error);
- broken streams whose shown sentences were not retracted before the error (must be 0).

``run(n, seed=..., monitor=...)`` returns the counts (JSON-ready); ``bench_hardening.py
--streaming N`` runs it with the real bundled model, the unit test with the hashing
embedder and a small ``n``.
"""

from __future__ import annotations

import asyncio
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessageChunk, BaseMessage

from langchain_qgate.errors import QGateError
from langchain_qgate.gate import GatePolicy
from langchain_qgate.gate.guidance import contradicted_claims
from langchain_qgate.integrations import with_quality_gate
from langchain_qgate.testing import ScriptedStreamingChatModel, StreamBrokenError

__all__ = ["MANGLES", "PROFILES", "Case", "MangledStreamingModel", "make_cases", "run"]

PROFILES = ("strict", "default", "brainstorm")
MANGLES = ("none", "break", "empty_chunks", "content_blocks", "tool_call_chunk")
EXHAUSTED = ("raise", "pass_with_warning", "escalate")
ON_ESCALATE = ("none", "approve", "malformed")
SLOW_S = 10.0
NAMES = ("Zorblax", "Quintara", "Mirela Voss", "Dr. Okafor", "J. R. Tolkien", "Ana Ruiz")


@dataclass(frozen=True)
class Case:
    """One fuzz case (see the module docstring)."""

    id: int
    question: str
    evidence: tuple[str, ...]
    replies: tuple[str, ...]
    profile: str
    max_retries: int
    on_exhausted: str
    on_escalate: str
    mangle: str
    break_after: int | None


class MangledStreamingModel(ScriptedStreamingChatModel):
    """The scripted streaming model with its chunks mangled as ``mangle`` says."""

    mangle: str = "none"

    def _chunks(self, messages: list[BaseMessage]) -> tuple[list[AIMessageChunk], int]:
        chunks, call = super()._chunks(messages)
        if self.mangle == "empty_chunks":
            out: list[AIMessageChunk] = []
            for i, chunk in enumerate(chunks):
                out.append(chunk)
                if i % 3 == 0:
                    out.append(AIMessageChunk(content=""))
                if i % 7 == 0:
                    out.append(AIMessageChunk(content=[]))
            return out, call
        if self.mangle == "content_blocks":
            blocks: list[AIMessageChunk] = []
            for i, chunk in enumerate(chunks):
                text = chunk.content if isinstance(chunk.content, str) else ""
                content: list[str | dict[str, Any]] = [{"type": "text", "text": text}]
                if i % 5 == 0:
                    content.insert(0, {"type": "reasoning", "reasoning": "checking. the. facts."})
                blocks.append(AIMessageChunk(content=content))
            return blocks, call
        if self.mangle == "tool_call_chunk":
            call_chunk = AIMessageChunk(
                content="",
                tool_call_chunks=[
                    {"name": "search_docs", "args": '{"query": "x"}', "id": "c1", "index": 0}
                ],
            )
            middle = len(chunks) // 2
            return [*chunks[:middle], call_chunk, *chunks[middle:]], call
        return chunks, call


# -- cases ------------------------------------------------------------------------------------
def _facts(rng: random.Random, i: int) -> dict[str, Any]:
    return {
        "co": f"Company{i}",
        "city": f"City{i}",
        "year": 1900 + rng.randrange(120),
        "staff": 10 + rng.randrange(5000),
        "revenue": round(rng.uniform(1, 900), 1),
        "growth": rng.randrange(2, 60),
        "ceo": rng.choice(NAMES[1:]),
    }


def _evidence(f: dict[str, Any]) -> tuple[str, ...]:
    return (
        f"{f['co']} was founded in {f['year']} in {f['city']}. {f['co']} has {f['staff']} "
        f"employees.",
        f"In 2024, {f['co']} reported revenue of €{f['revenue']} million, up {f['growth']}% "
        f"from 2023. Its chief executive is {f['ceo']}.",
    )


def _sentence(rng: random.Random, f: dict[str, Any]) -> str:
    co = f["co"]
    kind = rng.randrange(14)
    if kind == 0:
        return f"{co} was founded in {f['year']} in {f['city']}."
    if kind == 1:
        return f"{co} has {f['staff']} employees."
    if kind == 2:
        return f"In 2024, {co} reported revenue of €{f['revenue']} million."
    if kind == 3:  # contradicted number
        return f"{co} was founded in {f['year'] + rng.randrange(1, 40)} in {f['city']}."
    if kind == 4:  # contradicted number
        return f"{co} has {f['staff'] * 2 + 7} employees."
    if kind == 5:  # contradicted percentage
        return f"Revenue grew {f['growth'] + rng.randrange(5, 30)}% from 2023."
    if kind == 6:  # unsupported
        return f"Its CEO is Zorblax, who owns {rng.randrange(100, 99999)} spaceships."
    if kind == 7:  # fragment
        return rng.choice([f"Exactly {f['staff']} employees.", "Definitely.", f"{f['year']}."])
    if kind == 8:
        return rng.choice(["Great question!", "Here is a summary:", "Is that right?"])
    if kind == 9:  # abbreviations, decimals, a list item
        return f"- The U.S. office of {co} opened in {f['year'] + 1}, growing 3.5% a year."
    if kind == 10:
        return f"Its chief executive is {rng.choice(NAMES)}."
    if kind == 11:  # odd text: a lone surrogate, zero-width space, markdown
        return rng.choice(["Revenue \ud800 rose.", "**Note**: it\u200bgrew.", "```x = 1```"])
    if kind == 12:
        return f"I think {co} probably has around {f['staff']} people, but check."
    return ""  # an empty piece


def make_cases(n: int, *, seed: int = 26) -> list[Case]:
    """``n`` fuzz cases from ``seed`` (the same seed gives the same cases)."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for i in range(n):
        f = _facts(rng, i)
        replies = []
        for _ in range(rng.choice((1, 1, 2))):
            pieces = [_sentence(rng, f) for _ in range(rng.randrange(0, 6))]
            replies.append(" ".join(p for p in pieces if p) if rng.random() < 0.9 else "")
        question = rng.choice(
            (f"Tell me about {f['co']}.", f"How many employees does {f['co']} have?", "")
        )
        mangle = rng.choice(MANGLES)
        cases.append(
            Case(
                id=i,
                question=question or "Summarise the evidence.",
                evidence=_evidence(f) if rng.random() < 0.9 else (),
                replies=tuple(replies),
                profile=rng.choice(PROFILES),
                max_retries=rng.choice((0, 1)),
                on_exhausted=rng.choice(EXHAUSTED),
                on_escalate=rng.choice(ON_ESCALATE),
                mangle=mangle,
                break_after=rng.randrange(0, 30) if mangle == "break" else None,
            )
        )
    return cases


# -- running ----------------------------------------------------------------------------------
def _escalate(kind: str) -> Callable[[Any], Any] | None:
    if kind == "approve":
        return lambda _escalation: {"type": "approve"}
    if kind == "malformed":
        return lambda _escalation: {"type": "edit"}
    return None


def _gated(case: Case, monitor: Any, *, stream: bool) -> Any:
    model = MangledStreamingModel.from_replies(
        *case.replies or ("",), mangle=case.mangle if stream else "none"
    )
    if stream and case.break_after is not None:
        model.break_after = case.break_after
    policy = GatePolicy(
        max_retries=case.max_retries,
        on_exhausted=case.on_exhausted,  # type: ignore[arg-type]
    ).with_profile(case.profile)
    return with_quality_gate(
        model,
        evidence=list(case.evidence) or None,
        monitor=monitor,
        policy=policy,
        on_escalate=_escalate(case.on_escalate),
        stream="sentences" if stream else None,
    )


def _text(output: Any) -> str:
    return output if isinstance(output, str) else str(getattr(output, "text", output))


def whole(case: Case, monitor: Any) -> tuple[Any, ...]:
    """The whole-answer outcome: ``("done", decision, text)`` or ``("raised", error class)``."""
    try:
        out = _gated(case, monitor, stream=False).invoke(case.question)
    except Exception as exc:
        return ("raised", type(exc).__name__)
    return ("done", out.response_metadata["qgate"]["decision"], _text(out))


def _outcome(events: list[dict[str, Any]], error: BaseException | None) -> tuple[Any, ...]:
    if error is not None:
        return ("raised", type(error).__name__)
    done = events[-1] if events and events[-1]["type"] == "qgate.done" else None
    if done is None:
        return ("no done event",)
    meta = getattr(done.get("output"), "response_metadata", {}) or {}
    decision = meta.get("qgate", {}).get("decision", done["decision"])
    return ("done", decision, done["text"])


def _stream_sync(case: Case, monitor: Any) -> tuple[list[dict[str, Any]], BaseException | None]:
    events: list[dict[str, Any]] = []
    try:
        for event in _gated(case, monitor, stream=True).stream(case.question):
            events.append(event)
    except Exception as exc:
        return events, exc
    return events, None


async def _stream_async(
    case: Case, monitor: Any
) -> tuple[list[dict[str, Any]], BaseException | None]:
    events: list[dict[str, Any]] = []
    try:
        async for event in _gated(case, monitor, stream=True).astream(case.question):
            events.append(event)
    except Exception as exc:
        return events, exc
    return events, None


class _Tally:
    """The counts of one mode (sequential, threads, async)."""

    def __init__(self, monitor: Any) -> None:
        self.monitor = monitor
        self.runs = 0
        self.foreign: Counter[str] = Counter()
        self.documented: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.slow = 0
        self.slowest = 0.0
        self.sentences = 0
        self.verified = 0
        self.contradicted_shown = 0
        self.contradicted_verified = 0
        self.mismatches: list[dict[str, Any]] = []
        self.compared = 0
        self.unretracted = 0
        self._contradicted: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def _spans(self, case: Case, attempt: int) -> list[tuple[int, int]]:
        key = (case.id, attempt)
        if key not in self._contradicted:
            answer = case.replies[min(attempt, len(case.replies)) - 1] if case.replies else ""
            spans: list[tuple[int, int]] = []
            if case.evidence and answer.strip():
                report = self.monitor.verify_grounding(
                    answer, list(case.evidence), question=case.question
                )
                spans = [(v.claim.start, v.claim.end) for v in contradicted_claims(report)]
            self._contradicted[key] = spans
        return self._contradicted[key]

    def add(
        self,
        case: Case,
        events: list[dict[str, Any]],
        error: BaseException | None,
        seconds: float,
        reference: tuple[Any, ...],
    ) -> None:
        self.runs += 1
        self.slowest = max(self.slowest, seconds)
        self.slow += seconds > SLOW_S
        broke = isinstance(error, StreamBrokenError) and case.mangle == "break"
        if error is not None and not broke:
            name = type(error).__name__
            if isinstance(error, QGateError):
                self.documented[name] += 1
            else:
                self.foreign[name] += 1
                if sum(self.foreign.values()) <= 3:
                    traceback.print_exception(error)
        self._sentences(case, events)
        if broke:
            self._retraction(events)
            self.outcomes["stream broke (model error)"] += 1
            return
        outcome = _outcome(events, error)
        self.outcomes[" ".join(str(x) for x in outcome[:2])] += 1
        self.compared += 1
        if outcome != reference:
            self.mismatches.append(
                {"case": case.id, "streamed": list(outcome), "whole": list(reference)}
            )

    def _sentences(self, case: Case, events: list[dict[str, Any]]) -> None:
        cursor: dict[int, int] = {}
        for e in events:
            if e["type"] != "qgate.sentence":
                continue
            self.sentences += 1
            self.verified += bool(e["verified"])
            attempt = int(e["attempt"])
            answer = case.replies[min(attempt, len(case.replies)) - 1]
            start = answer.find(e["text"], cursor.get(attempt, 0))
            if start < 0:
                continue
            end = start + len(e["text"])
            cursor[attempt] = end
            spans = self._spans(case, attempt)
            if any(a < end and b > start for a, b in spans):
                self.contradicted_shown += 1
                self.contradicted_verified += bool(e["verified"])

    def _retraction(self, events: list[dict[str, Any]]) -> None:
        last = max((int(e["attempt"]) for e in events), default=0)
        shown = {
            e["id"] for e in events if e["type"] == "qgate.sentence" and int(e["attempt"]) == last
        }
        retracted = {i for e in events if e["type"] == "qgate.retracted" for i in e["ids"]}
        self.unretracted += bool(shown - retracted)

    def summary(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "foreign_errors": dict(self.foreign.most_common()),
            "foreign_error_count": sum(self.foreign.values()),
            "documented_errors": dict(self.documented.most_common()),
            "runs_over_10s": self.slow,
            "slowest_run_s": round(self.slowest, 3),
            "sentence_events": self.sentences,
            "verified_sentence_events": self.verified,
            "contradicted_sentences_shown": self.contradicted_shown,
            "contradicted_sentences_marked_verified": self.contradicted_verified,
            "compared_with_whole_answer": self.compared,
            "decision_mismatches": len(self.mismatches),
            "mismatch_examples": self.mismatches[:5],
            "broken_streams_not_retracted": self.unretracted,
            "outcomes": dict(sorted(self.outcomes.items())),
        }


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def run(n: int, *, seed: int = 26, monitor: Any, workers: int = 4) -> dict[str, Any]:
    """Run the streaming fuzz set; counts per mode and in total (see the module docstring).

    Args:
        n: Cases (each is streamed three times and gated whole once).
        seed: Seed of the cases.
        monitor: The grounding monitor (the real one for the benchmark).
        workers: Threads (and concurrent async tasks) of the concurrent modes.
    """
    cases = make_cases(n, seed=seed)
    started = time.perf_counter()
    reference = {c.id: whole(c, monitor) for c in cases}
    modes: dict[str, _Tally] = {m: _Tally(monitor) for m in ("sequential", "threads", "async")}
    for case in cases:
        (events, error), took = _timed(lambda c=case: _stream_sync(c, monitor))
        modes["sequential"].add(case, events, error, took, reference[case.id])

    def threaded(case: Case) -> tuple[Case, list[dict[str, Any]], BaseException | None, float]:
        (events, error), took = _timed(lambda: _stream_sync(case, monitor))
        return case, events, error, took

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for case, events, error, took in pool.map(threaded, cases):
            modes["threads"].add(case, events, error, took, reference[case.id])

    async def concurrent() -> None:
        limit = asyncio.Semaphore(workers)

        async def one(case: Case) -> None:
            async with limit:
                start = time.perf_counter()
                events, error = await _stream_async(case, monitor)
                took = time.perf_counter() - start
            modes["async"].add(case, events, error, took, reference[case.id])

        await asyncio.gather(*(one(c) for c in cases))

    asyncio.run(concurrent())
    per_mode = {name: tally.summary() for name, tally in modes.items()}
    keys = (
        "runs",
        "foreign_error_count",
        "runs_over_10s",
        "contradicted_sentences_shown",
        "contradicted_sentences_marked_verified",
        "compared_with_whole_answer",
        "decision_mismatches",
        "broken_streams_not_retracted",
        "sentence_events",
    )
    total = {k: sum(per_mode[m][k] for m in per_mode) for k in keys}
    return {
        "cases": n,
        "seed": seed,
        "profiles": dict(Counter(c.profile for c in cases)),
        "mangles": dict(Counter(c.mangle for c in cases)),
        "whole_answer_outcomes": dict(
            Counter(" ".join(map(str, r[:2])) for r in reference.values())
        ),
        "total": total,
        "modes": per_mode,
        "seconds": round(time.perf_counter() - started, 1),
    }
