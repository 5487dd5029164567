"""Cognitive load monitor: per-run counters against a budget, and the retry budget.

The counters are plain data (:class:`LoadCounters`, a frozen pydantic model that dumps to a
JSON-ready dict, or the :class:`LoadCountersDict` TypedDict) so they can live in LangGraph
state: a checkpointer persists them and a resumed run continues the count. The monitor itself
holds only the budget, so one instance can be shared across threads and runs.

Rules (``budget`` = the :class:`LoadBudget` field, ``ratio`` = ``throttle_ratio``):

* ``ABORT`` when a consumable counter reaches its budget: model calls, tokens (in + out), tool
  errors, elapsed seconds (``counter >= budget``). Retries are different: the budget is the
  number of retries allowed, so using all of them is fine and only ``retries > max_retries``
  aborts.
* ``THROTTLE`` when any counter reaches ``ratio * budget`` (or ``retries == max_retries``: no
  retry left).
* ``CONTINUE`` otherwise.

A human reviewer who rejects an escalated answer grants a fresh retry budget: the counters'
``retries`` start again from 0 and ``granted_retries`` holds the retries granted (``None``: the
budget's own ``max_retries``). Both are counters, so the grant is checkpointed with them; a new
user question starts fresh counters and ends the grant.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from langchain_qgate.errors import InvalidInputError

__all__ = [
    "CognitiveLoadMonitor",
    "LoadAction",
    "LoadAssessment",
    "LoadBudget",
    "LoadCounters",
    "LoadCountersDict",
]


class LoadAction(StrEnum):
    """What the run should do given its load."""

    CONTINUE = "continue"
    """Within budget."""
    THROTTLE = "throttle"
    """Close to a budget: narrow the scope, avoid further retries or tool calls."""
    ABORT = "abort"
    """A budget is spent: stop and hand over (the gate treats it as an exhausted retry budget)."""


@dataclass(frozen=True, kw_only=True)
class LoadBudget:
    """Limits of one run.

    Attributes:
        max_model_calls: Model calls at which the run aborts.
        max_tokens: Input + output tokens at which the run aborts.
        max_tool_errors: Tool errors at which the run aborts.
        max_retries: Gate retries allowed (more than this aborts). A ``QualityGate``
            built without a load monitor sets it from ``GatePolicy.max_retries`` per call;
            a monitor you pass keeps it, and the stricter of the two limits applies.
        max_seconds: Elapsed seconds at which the run aborts.
        throttle_ratio: Fraction of any budget at which the run is throttled.

    Example:
        ```python
        budget = LoadBudget(max_model_calls=10, throttle_ratio=0.7)
        ```
    """

    max_model_calls: int = 25
    max_tokens: int = 200_000
    max_tool_errors: int = 5
    max_retries: int = 3
    max_seconds: float = 300.0
    throttle_ratio: float = 0.8

    def __post_init__(self) -> None:
        for name in ("max_model_calls", "max_tokens", "max_tool_errors"):
            if getattr(self, name) < 1:
                raise ValueError(f"LoadBudget.{name} must be >= 1, got {getattr(self, name)}")
        if self.max_retries < 0:
            raise ValueError(f"LoadBudget.max_retries must be >= 0, got {self.max_retries}")
        if self.max_seconds <= 0:
            raise ValueError(f"LoadBudget.max_seconds must be > 0, got {self.max_seconds}")
        if not 0.0 < self.throttle_ratio <= 1.0:
            raise ValueError(
                f"LoadBudget.throttle_ratio must be in (0, 1], got {self.throttle_ratio}"
            )


class LoadCountersDict(TypedDict, total=False):
    """The counters as a plain dict (graph-state shape of :class:`LoadCounters`)."""

    model_calls: int
    tokens_in: int
    tokens_out: int
    tool_errors: int
    retries: int
    started_at: float | None
    granted_retries: int | None


class LoadCounters(BaseModel):
    """Per-run counters; immutable, every ``record_*`` returns a new object.

    Attributes:
        model_calls: Model calls so far.
        tokens_in: Input tokens (from ``usage_metadata`` when the messages carry it).
        tokens_out: Output tokens.
        tool_errors: Tool calls that ended in an error.
        retries: Gate retries so far (since the last reviewer's reject, if any).
        started_at: Unix time of the first recorded event (``None`` before any).
        granted_retries: The retry budget a reviewer granted with a reject (``{"type":
            "reject", "retries": N}``); ``None``: the budget's ``max_retries`` applies.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_calls: int = Field(default=0, ge=0)
    tokens_in: int = Field(default=0, ge=0)
    tokens_out: int = Field(default=0, ge=0)
    tool_errors: int = Field(default=0, ge=0)
    retries: int = Field(default=0, ge=0)
    started_at: float | None = Field(default=None, allow_inf_nan=False)
    granted_retries: int | None = Field(default=None, ge=0)

    @property
    def tokens(self) -> int:
        """Input + output tokens."""
        return self.tokens_in + self.tokens_out

    def to_state(self) -> LoadCountersDict:
        """The counters as a plain dict for graph state."""
        return LoadCountersDict(
            model_calls=self.model_calls,
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
            tool_errors=self.tool_errors,
            retries=self.retries,
            started_at=self.started_at,
            granted_retries=self.granted_retries,
        )

    @classmethod
    def from_state(cls, value: LoadCounters | Mapping[str, Any] | None) -> LoadCounters:
        """Rebuild counters from graph state (a dict, a model or ``None`` for fresh ones)."""
        if value is None:
            return cls()
        if isinstance(value, LoadCounters):
            return value
        if not isinstance(value, Mapping):
            raise InvalidInputError(
                "counters", f"expected a mapping or LoadCounters, got {type(value).__name__}"
            )
        try:
            return cls.model_validate(dict(value))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "counters"
            raise InvalidInputError(f"counters.{where}", first["msg"]) from None

    def with_fresh_retries(self, granted: int | None = None) -> LoadCounters:
        """These counters with a fresh retry budget (a reviewer rejected an escalated answer).

        Args:
            granted: Retries granted (``None``: the budget's own ``max_retries`` again).

        Returns:
            New counters: ``retries`` 0, ``granted_retries`` set, the clock restarted (the
            time a human took to review is not run time); the other counters stay.

        Raises:
            InvalidInputError: ``granted`` is not an int >= 0.
        """
        if granted is not None and (
            isinstance(granted, bool) or not isinstance(granted, int) or granted < 0
        ):
            raise InvalidInputError("granted_retries", f"expected an int >= 0, got {granted!r}")
        return self.model_copy(
            update={"retries": 0, "granted_retries": granted, "started_at": None}
        )

    def retry_limit(self, budget_retries: int) -> int:
        """Retries allowed in the current round: the reviewer's grant, else ``budget_retries``."""
        return budget_retries if self.granted_retries is None else self.granted_retries


class LoadAssessment(BaseModel):
    """The load verdict of a run.

    Attributes:
        action: Continue, throttle or abort.
        reason: Which budget drove the action, with the numbers.
        counters: The counters assessed.
        elapsed_seconds: Seconds since ``counters.started_at`` (0 when not started).
        usage: Fraction of each budget used (``model_calls``, ``tokens``, ``tool_errors``,
            ``retries``, ``seconds``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: LoadAction
    reason: str
    counters: LoadCounters
    elapsed_seconds: float = 0.0
    usage: dict[str, float] = Field(default_factory=dict)


def _usage_tokens(message: Any) -> tuple[int, int]:
    usage = getattr(message, "usage_metadata", None)
    if isinstance(usage, Mapping):
        return int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0)
    meta = getattr(message, "response_metadata", None)
    if isinstance(meta, Mapping):
        tu = meta.get("token_usage") or meta.get("usage")
        if isinstance(tu, Mapping):
            tin = tu.get("prompt_tokens", tu.get("input_tokens", 0)) or 0
            tout = tu.get("completion_tokens", tu.get("output_tokens", 0)) or 0
            return int(tin), int(tout)
    return 0, 0


class CognitiveLoadMonitor:
    """Assesses run counters against a :class:`LoadBudget`.

    Stateless apart from the budget: counters are passed in and new counters are returned.

    Example:
        ```python
        monitor = CognitiveLoadMonitor(LoadBudget(max_model_calls=5))
        counters = LoadCounters()
        counters = monitor.record_model_call(counters, ai_message)
        monitor.assess(counters).action  # LoadAction.CONTINUE
        ```
    """

    def __init__(self, budget: LoadBudget | None = None) -> None:
        """Create a monitor.

        Args:
            budget: The limits; the defaults of :class:`LoadBudget` when omitted.
        """
        self.budget = budget if budget is not None else LoadBudget()

    def retries_left(self, counters: LoadCounters | Mapping[str, Any] | None) -> int:
        """Retries still allowed by the budget (or by a reviewer's grant in the counters)."""
        c = LoadCounters.from_state(counters)
        return max(0, c.retry_limit(self.budget.max_retries) - c.retries)

    def assess(
        self, counters: LoadCounters | Mapping[str, Any] | None, *, now: float | None = None
    ) -> LoadAssessment:
        """Decide CONTINUE / THROTTLE / ABORT.

        Args:
            counters: The run's counters (model, graph-state dict, or ``None`` = fresh).
            now: Current Unix time (defaults to ``time.time()``; pass it for determinism).

        Returns:
            The action, a reason naming the budget and the numbers, and the usage ratios.
        """
        c = LoadCounters.from_state(counters)
        b = self.budget
        if c.started_at is None:
            elapsed = 0.0
        else:
            elapsed = max(0.0, (time.time() if now is None else now) - c.started_at)
        max_retries = c.retry_limit(b.max_retries)  # a reviewer's grant replaces the budget's
        # name, value, budget, abort predicate
        rows: list[tuple[str, float, float, bool]] = [
            ("model_calls", c.model_calls, b.max_model_calls, c.model_calls >= b.max_model_calls),
            ("tokens", c.tokens, b.max_tokens, c.tokens >= b.max_tokens),
            ("tool_errors", c.tool_errors, b.max_tool_errors, c.tool_errors >= b.max_tool_errors),
            ("seconds", elapsed, b.max_seconds, elapsed >= b.max_seconds),
            ("retries", c.retries, max_retries, c.retries > max_retries),
        ]
        usage = {
            name: (value / limit if limit > 0 else (1.0 if value > 0 else 0.0))
            for name, value, limit, _ in rows
        }
        labels = {
            "model_calls": "model calls",
            "tokens": "tokens",
            "tool_errors": "tool errors",
            "seconds": "seconds",
            "retries": "retries",
        }

        def fmt(name: str, value: float, limit: float) -> str:
            if name == "seconds":
                return f"{value:.1f} of {limit:g} {labels[name]}"
            return f"{int(value):,} of {int(limit):,} {labels[name]}"

        aborts = [fmt(n, v, lim) for n, v, lim, hit in rows if hit]
        if aborts:
            return LoadAssessment(
                action=LoadAction.ABORT,
                reason="budget spent: " + "; ".join(aborts),
                counters=c,
                elapsed_seconds=elapsed,
                usage=usage,
            )
        throttles = []
        for n, v, lim, _ in rows:
            near = v >= lim if n == "retries" else v >= b.throttle_ratio * lim
            if near and v > 0:
                throttles.append(fmt(n, v, lim))
        if throttles:
            return LoadAssessment(
                action=LoadAction.THROTTLE,
                reason="close to budget: " + "; ".join(throttles),
                counters=c,
                elapsed_seconds=elapsed,
                usage=usage,
            )
        return LoadAssessment(
            action=LoadAction.CONTINUE,
            reason="within budget",
            counters=c,
            elapsed_seconds=elapsed,
            usage=usage,
        )

    @staticmethod
    def _start(c: LoadCounters, now: float | None) -> float:
        if c.started_at is not None:
            return c.started_at
        return time.time() if now is None else now

    def record_model_call(
        self,
        counters: LoadCounters | Mapping[str, Any] | None,
        message: Any = None,
        *,
        now: float | None = None,
    ) -> LoadCounters:
        """Count one model call and its tokens.

        Args:
            counters: Current counters.
            message: The model's reply; tokens are read from ``usage_metadata`` (or OpenAI-style
                ``response_metadata["token_usage"]``) when present.
            now: Current Unix time, used to start the clock on the first event.

        Returns:
            New counters.
        """
        c = LoadCounters.from_state(counters)
        tin, tout = _usage_tokens(message) if message is not None else (0, 0)
        return c.model_copy(
            update={
                "model_calls": c.model_calls + 1,
                "tokens_in": c.tokens_in + tin,
                "tokens_out": c.tokens_out + tout,
                "started_at": self._start(c, now),
            }
        )

    def record_tool_error(
        self, counters: LoadCounters | Mapping[str, Any] | None, *, now: float | None = None
    ) -> LoadCounters:
        """Count one tool error; returns new counters."""
        c = LoadCounters.from_state(counters)
        return c.model_copy(
            update={"tool_errors": c.tool_errors + 1, "started_at": self._start(c, now)}
        )

    def record_retry(
        self, counters: LoadCounters | Mapping[str, Any] | None, *, now: float | None = None
    ) -> LoadCounters:
        """Count one gate retry; returns new counters."""
        c = LoadCounters.from_state(counters)
        return c.model_copy(update={"retries": c.retries + 1, "started_at": self._start(c, now)})
