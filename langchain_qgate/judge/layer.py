"""Deterministic judge for structured agent results.

Parallel agents (a fan-out graph, a team of specialists) return structured results: a name and
a list of hypotheses, each citing the signals (evidence ids) it rests on. Before the results are
aggregated, :class:`JudgeLayer` checks each one without any model: same input, same verdict,
and a concrete reason naming the offending item.

:class:`CitationJudge` is the generic form: it checks any pydantic model (or plain mapping)
whose citation fields are given by name or by a small path syntax such as
``"hypotheses[].supporting_signals"``. The gate uses it for structured outputs
(``response_format`` / ``with_structured_output``) that cite evidence ids; see
:mod:`langchain_qgate.integrations.structured`.

All checks run in linear time: ids are looked up in a set, and the "valid ids" part of a
rejection message is built only on failure, listing at most ``max_listed_ids`` ids (the
smallest ones, sorted) followed by ``... and N more``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.judge.signals import (
    DEFAULT_MAX_LISTED_IDS,
    MISSING,
    IdSource,
    format_valid_ids,
    get_field,
    id_list,
    resolve_ids,
)

__all__ = [
    "AgentResult",
    "Hypothesis",
    "JudgeCheck",
    "JudgeLayer",
    "JudgedResult",
]

logger = logging.getLogger(__name__)

_TITLE_CHARS = 60

_R = TypeVar("_R", bound="AgentResult | Mapping[str, Any]")


# --------------------------------------------------------------------------- models


class Hypothesis(BaseModel):
    """One hypothesis of an agent, citing the signals it rests on.

    Attributes:
        title: Short name of the hypothesis.
        description: What the agent claims and why.
        supporting_signals: Ids of the signals (evidence) the hypothesis rests on.
        confidence: The agent's confidence, in [0, 1].

    Example:
        ```python
        Hypothesis(title="Disk full", supporting_signals=["sig-1"], confidence=0.8)
        ```
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    description: str = ""
    supporting_signals: list[str] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)


class AgentResult(BaseModel):
    """The structured result of one agent.

    Attributes:
        agent_name: Name of the agent that produced the result.
        hypotheses: The agent's hypotheses (zero is valid).
        summary: Optional free-text summary.
        metadata: Anything else the agent wants to pass on.

    Example:
        ```python
        AgentResult(
            agent_name="infra",
            hypotheses=[Hypothesis(title="Disk full", supporting_signals=["sig-1"],
                                   confidence=0.8)],
        )
        ```
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_name: str
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    summary: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)


def _short(text: Any) -> str:
    """A hypothesis title for a message, quoted and cut: ``('Disk full')``, or ``(no title)``
    when there is none (a missing field, ``None``, or a hypothesis that is no record, whose
    ``title`` would be a method of its type)."""
    if text is MISSING or text is None or callable(text):
        return "(no title)"
    s = text if isinstance(text, str) else repr(text)
    return f"({s if len(s) <= _TITLE_CHARS else s[: _TITLE_CHARS - 3] + '...'!r})"


# --------------------------------------------------------------------------- judge layer

JudgeCheck = Literal["agent_name", "citations_present", "citations_known", "confidence_range"]
"""The judge's checks, in the order they run: the agent name is non-empty; every hypothesis
cites a signal; every cited id exists in memory; every confidence is in [0, 1]."""


@dataclass(frozen=True, slots=True)
class JudgedResult:
    """The judge's verdict on one result.

    Attributes:
        valid: Whether every check passed.
        result: The judged result, unchanged.
        rejection_reason: Why it was rejected (``None`` when valid).
        failed_check: Which check failed (``None`` when valid).
    """

    valid: bool
    result: Any
    rejection_reason: str | None = None
    failed_check: JudgeCheck | None = None


class JudgeLayer:
    """Deterministic validation of :class:`AgentResult` objects before aggregation.

    Checks run in this order and the first failure is returned:

    1. the agent name is non-empty after stripping whitespace;
    2. every hypothesis cites at least one signal (zero hypotheses is valid);
    3. every cited id exists in the signal memory (the message names the hypothesis, the
       unknown id and the valid ids, sorted; see :func:`format_valid_ids` for long lists);
    4. every confidence is a number in [0, 1], also for objects built with
       ``model_construct()`` that skipped validation.

    Results are read, never mutated. Plain mappings with the same fields are accepted too
    (e.g. a result restored from JSON).

    Args:
        memory: The valid signal ids (a :class:`SignalMemory`, a set, a function or an
            iterable of ids).
        max_listed_ids: How many valid ids a rejection message lists in full.
        log_level: Level at which :meth:`judge_many` logs each rejection.

    Example:
        ```python
        judge = JudgeLayer(InMemorySignalMemory(["sig-1", "sig-2"]))
        verdict = judge.judge(result)
        if not verdict.valid:
            print(verdict.rejection_reason)
        kept = judge.judge_many(results)  # valid ones, rejections logged
        ```
    """

    def __init__(
        self,
        memory: IdSource,
        *,
        max_listed_ids: int = DEFAULT_MAX_LISTED_IDS,
        log_level: int = logging.WARNING,
    ) -> None:
        if isinstance(memory, str):
            raise InvalidInputError("memory", "expected a signal memory or ids, got a string")
        if max_listed_ids < 1:
            raise InvalidInputError("max_listed_ids", f"must be >= 1, got {max_listed_ids}")
        self.memory = memory
        self.max_listed_ids = max_listed_ids
        self.log_level = log_level

    def judge(self, result: AgentResult | Mapping[str, Any]) -> JudgedResult:
        """Judge one result; see the class docstring for the checks."""
        return self._judge(result, resolve_ids(self.memory), {})

    def judge_each(self, results: Iterable[AgentResult | Mapping[str, Any]]) -> list[JudgedResult]:
        """Judge a batch and return every verdict, in input order (ids read once)."""
        valid_ids = resolve_ids(self.memory)
        memo: dict[str, str] = {}  # the valid-ids listing, built once per batch if needed
        return [self._judge(r, valid_ids, memo) for r in results]

    def judge_many(self, results: Iterable[_R]) -> list[_R]:
        """Keep the valid results of a batch, in order; log each rejection with its reason."""
        kept: list[_R] = []
        for verdict in self.judge_each(results):
            if verdict.valid:
                kept.append(verdict.result)
            else:
                name = get_field(verdict.result, "agent_name")
                logger.log(
                    self.log_level,
                    "judge rejected the result of agent %r: %s",
                    None if name is MISSING else name,
                    verdict.rejection_reason,
                )
        return kept

    def _judge(
        self, result: Any, valid_ids: AbstractSet[str], memo: dict[str, str]
    ) -> JudgedResult:
        def reject(check: JudgeCheck, reason: str) -> JudgedResult:
            return JudgedResult(False, result, reason, check)

        name = get_field(result, "agent_name")
        if not isinstance(name, str):
            shown = "missing" if name is MISSING else f"not a string ({name!r})"
            return reject("agent_name", f"agent name is {shown}")
        if not name.strip():
            return reject(
                "agent_name", "agent name is empty" if not name else "agent name is whitespace-only"
            )

        raw = get_field(result, "hypotheses")
        hypotheses = id_list(raw)
        if hypotheses is None or isinstance(raw, str):
            return reject("citations_present", f"hypotheses is not a list (got {raw!r})")

        # One pass in input order. A missing citation outranks everything after it, so it
        # returns at once; the first unknown id and the first bad confidence are remembered
        # and reported in check order once the pass is over.
        unknown: tuple[int, Any] | None = None
        bad_conf: tuple[int, Any] | None = None
        for i, h in enumerate(hypotheses):
            signals = id_list(get_field(h, "supporting_signals"))
            if not signals:
                return reject(
                    "citations_present",
                    f"hypothesis {i} {_short(get_field(h, 'title'))} cites no signals; "
                    "every hypothesis must cite at least one signal id",
                )
            if unknown is None:
                for sid in signals:
                    if (type(sid) is not str and not isinstance(sid, str)) or sid not in valid_ids:
                        unknown = (i, sid)
                        break
            if bad_conf is None:
                conf = get_field(h, "confidence")
                if (
                    type(conf) is not float
                    and (isinstance(conf, bool) or not isinstance(conf, int | float))
                ) or not 0.0 <= conf <= 1.0:
                    bad_conf = (i, conf)

        if unknown is not None:
            i, sid = unknown
            listing = memo.get("listing")
            if listing is None:
                listing = memo["listing"] = format_valid_ids(valid_ids, limit=self.max_listed_ids)
            return reject(
                "citations_known",
                f"hypothesis {i} {_short(get_field(hypotheses[i], 'title'))} cites unknown "
                f"signal id {sid!r}; valid ids: {listing}",
            )
        if bad_conf is not None:
            i, conf = bad_conf
            title = _short(get_field(hypotheses[i], "title"))
            if isinstance(conf, bool) or not isinstance(conf, int | float):
                shown = "no confidence" if conf is MISSING else f"a non-numeric confidence {conf!r}"
                return reject("confidence_range", f"hypothesis {i} {title} has {shown}")
            return reject(
                "confidence_range", f"hypothesis {i} {title} has confidence {conf!r} outside [0, 1]"
            )
        return JudgedResult(True, result)
