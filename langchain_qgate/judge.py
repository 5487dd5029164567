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

import heapq
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate.errors import InvalidInputError

__all__ = [
    "AgentResult",
    "CitationCheck",
    "CitationIssue",
    "CitationIssueKind",
    "CitationJudge",
    "Hypothesis",
    "IdSource",
    "InMemorySignalMemory",
    "JudgeCheck",
    "JudgeLayer",
    "JudgedResult",
    "SignalMemory",
    "format_valid_ids",
]

logger = logging.getLogger(__name__)

DEFAULT_MAX_LISTED_IDS = 20
"""How many valid ids a rejection message lists before ``... and N more``."""

_TITLE_CHARS = 60


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


# --------------------------------------------------------------------------- signal memory


@runtime_checkable
class SignalMemory(Protocol):
    """Knows which signal / evidence ids exist.

    Any object with a ``signal_ids()`` method works; return a set (or frozenset) so that
    lookups are O(1). The judge calls it once per ``judge`` / ``judge_many`` call.
    """

    def signal_ids(self) -> AbstractSet[str]:
        """Return the ids that results may cite."""
        ...


class InMemorySignalMemory:
    """A signal memory held in a set.

    Args:
        ids: Initial signal ids.

    Example:
        ```python
        memory = InMemorySignalMemory(["sig-1", "sig-2"])
        memory.add("sig-3")
        assert "sig-3" in memory.signal_ids()
        ```
    """

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self._ids: set[str] = set()
        self._frozen: frozenset[str] | None = None
        self.update(ids)

    def add(self, signal_id: str) -> None:
        """Record one signal id."""
        self.update((signal_id,))

    def update(self, ids: Iterable[str]) -> None:
        """Record several signal ids.

        Raises:
            InvalidInputError: If ``ids`` is a single string or contains a non-string.
        """
        if isinstance(ids, str):
            raise InvalidInputError("ids", "expected an iterable of ids, got a single string")
        for signal_id in ids:
            if not isinstance(signal_id, str):
                raise InvalidInputError("ids", f"signal ids are strings, got {signal_id!r}")
            self._ids.add(signal_id)
        self._frozen = None

    def discard(self, signal_id: str) -> None:
        """Forget one signal id (no error when absent)."""
        self._ids.discard(signal_id)
        self._frozen = None

    def signal_ids(self) -> frozenset[str]:
        """The recorded ids (an immutable snapshot, cached until the next change)."""
        if self._frozen is None:
            self._frozen = frozenset(self._ids)
        return self._frozen

    def __contains__(self, signal_id: object) -> bool:
        return signal_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return f"InMemorySignalMemory({len(self._ids)} ids)"


IdSource = SignalMemory | AbstractSet[str] | Callable[[], Iterable[str]] | Iterable[str]
"""Where valid ids come from: a signal memory, a set, a function returning ids, or any
iterable of ids (a single string is refused)."""


def resolve_ids(source: IdSource) -> AbstractSet[str]:
    """Turn an :data:`IdSource` into a set (sets pass through without copying).

    Raises:
        InvalidInputError: If ``source`` is a string.
    """
    if isinstance(source, str):
        raise InvalidInputError("valid_ids", "expected a collection of ids, got a single string")
    if isinstance(source, AbstractSet):
        return source
    if isinstance(source, SignalMemory):
        return source.signal_ids()
    if callable(source):
        return resolve_ids(source())
    return frozenset(source)


def format_valid_ids(ids: AbstractSet[str], *, limit: int = DEFAULT_MAX_LISTED_IDS) -> str:
    """Render valid ids for a rejection message, sorted.

    Up to ``limit`` ids are listed in full (``['a', 'b']``). Past that, the ``limit`` smallest
    ids are listed and the rest counted (``['a', ..., 't'] ... and 99,980 more``), found with
    a heap so the cost stays linear in the number of ids.
    """
    if not ids:
        return "none (no signals are recorded)"
    if len(ids) <= limit:
        return repr(sorted(ids))
    head = heapq.nsmallest(limit, ids)
    return f"{head!r} ... and {len(ids) - limit:,} more"


# --------------------------------------------------------------------------- helpers

_MISSING = object()


def _get(obj: Any, name: str) -> Any:
    """Read a field from a model, an object or a mapping; ``_MISSING`` when absent."""
    if isinstance(obj, Mapping):
        return obj.get(name, _MISSING)
    return getattr(obj, name, _MISSING)


def _id_list(value: Any) -> list[Any] | None:
    """Normalise a citation field to a list; ``None`` when it is not a list of ids."""
    if value is None or value is _MISSING:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence | AbstractSet) and not isinstance(value, bytes | bytearray):
        return list(value)
    return None


def _short(text: Any) -> str:
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
        return self._judge(result, resolve_ids(self.memory))

    def judge_each(self, results: Iterable[AgentResult | Mapping[str, Any]]) -> list[JudgedResult]:
        """Judge a batch and return every verdict, in input order (ids read once)."""
        valid_ids = resolve_ids(self.memory)
        return [self._judge(r, valid_ids) for r in results]

    def judge_many(
        self, results: Iterable[AgentResult | Mapping[str, Any]]
    ) -> list[AgentResult | Mapping[str, Any]]:
        """Keep the valid results of a batch, in order; log each rejection with its reason."""
        kept: list[AgentResult | Mapping[str, Any]] = []
        for verdict in self.judge_each(results):
            if verdict.valid:
                kept.append(verdict.result)
            else:
                name = _get(verdict.result, "agent_name")
                logger.log(
                    self.log_level,
                    "judge rejected the result of agent %r: %s",
                    None if name is _MISSING else name,
                    verdict.rejection_reason,
                )
        return kept

    def _judge(self, result: Any, valid_ids: AbstractSet[str]) -> JudgedResult:
        def reject(check: JudgeCheck, reason: str) -> JudgedResult:
            return JudgedResult(False, result, reason, check)

        name = _get(result, "agent_name")
        if not isinstance(name, str):
            shown = "missing" if name is _MISSING else f"not a string ({name!r})"
            return reject("agent_name", f"agent name is {shown}")
        if not name.strip():
            return reject(
                "agent_name", "agent name is empty" if not name else "agent name is whitespace-only"
            )

        raw = _get(result, "hypotheses")
        hypotheses = _id_list(raw)
        if hypotheses is None or any(isinstance(h, str) for h in hypotheses):
            return reject("citations_present", f"hypotheses is not a list (got {raw!r})")

        cited: list[list[Any]] = []
        for i, h in enumerate(hypotheses):
            signals = _id_list(_get(h, "supporting_signals"))
            if not signals:
                return reject(
                    "citations_present",
                    f"hypothesis {i} {_short(_get(h, 'title'))} cites no signals; "
                    "every hypothesis must cite at least one signal id",
                )
            cited.append(signals)

        for i, (h, signals) in enumerate(zip(hypotheses, cited, strict=True)):
            for sid in signals:
                if not isinstance(sid, str) or sid not in valid_ids:
                    listing = format_valid_ids(valid_ids, limit=self.max_listed_ids)
                    return reject(
                        "citations_known",
                        f"hypothesis {i} {_short(_get(h, 'title'))} cites unknown signal id "
                        f"{sid!r}; valid ids: {listing}",
                    )

        for i, h in enumerate(hypotheses):
            conf = _get(h, "confidence")
            if isinstance(conf, bool) or not isinstance(conf, int | float):
                shown = (
                    "no confidence" if conf is _MISSING else f"a non-numeric confidence {conf!r}"
                )
                return reject(
                    "confidence_range", f"hypothesis {i} {_short(_get(h, 'title'))} has {shown}"
                )
            if not 0.0 <= conf <= 1.0:  # also false for NaN
                return reject(
                    "confidence_range",
                    f"hypothesis {i} {_short(_get(h, 'title'))} has confidence {conf!r} "
                    "outside [0, 1]",
                )
        return JudgedResult(True, result)


# --------------------------------------------------------------------------- citation judge

CitationIssueKind = Literal["unknown_id", "missing_citation", "malformed"]
"""What is wrong with a citation: it names an id that is not valid; an item that must cite
something cites nothing; or the citation field is not an id or a list of ids."""


class CitationIssue(BaseModel):
    """One problem found by :class:`CitationJudge`.

    Attributes:
        kind: Unknown id, missing citation or malformed field.
        location: Where, in path form with indexes (``"hypotheses[2].supporting_signals"``).
        cited_id: The offending id, for ``unknown_id``.
        message: A sentence naming the location, the id and (for unknown ids) the valid ids.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: CitationIssueKind
    location: str
    cited_id: str | None = None
    message: str


class CitationCheck(BaseModel):
    """The outcome of :meth:`CitationJudge.check`.

    Attributes:
        valid: Whether no issue was found.
        cited_ids: Every id cited, unique, in first-seen order.
        unknown_ids: Cited ids that are not valid, unique, in first-seen order.
        issues: Every issue found (only the first with ``fail_fast``).
        valid_id_count: How many ids were valid.
        citations: Every citation field reached, by location, with the ids cited there.
        reason: The first issue's message, plus a count of the others ("" when valid).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    valid: bool
    cited_ids: list[str] = Field(default_factory=list)
    unknown_ids: list[str] = Field(default_factory=list)
    issues: list[CitationIssue] = Field(default_factory=list)
    valid_id_count: int = Field(default=0, ge=0)
    citations: dict[str, list[str]] = Field(default_factory=dict)
    reason: str = ""


_SEGMENT = re.compile(r"^(?P<name>[^.\[\]]*)(?P<iters>(?:\[\])*)$")


@dataclass(frozen=True, slots=True)
class _Segment:
    name: str
    iterate: int


def _parse_path(path: str) -> tuple[_Segment, ...]:
    if not isinstance(path, str) or not path.strip():
        raise InvalidInputError(
            "paths", f"a citation path must be a non-empty string, got {path!r}"
        )
    segments: list[_Segment] = []
    for i, part in enumerate(path.strip().split(".")):
        match = _SEGMENT.match(part)
        if match is None or not part or (not match["name"] and i > 0):
            raise InvalidInputError(
                "paths",
                f"bad segment {part!r} in {path!r}; use field names joined by '.', with '[]' "
                "after a list field, e.g. 'hypotheses[].supporting_signals'",
            )
        segments.append(_Segment(match["name"], len(match["iters"]) // 2))
    return tuple(segments)


class CitationJudge:
    """Check the citations of any pydantic model (or mapping) against the valid ids.

    Citation fields are given as paths: field names joined by ``.``, with ``[]`` after a
    field that holds a list to check every element (``"hypotheses[].supporting_signals"``,
    ``"sections[].claims[].evidence_ids"``, ``"sources"``). A path may start with ``[]``
    when the object itself is a list. The field at the end of a path holds one id or a list
    of ids (``None`` counts as no citation).

    Args:
        paths: One path or several.
        valid_ids: Default valid ids (an :data:`IdSource`); can be given per call instead.
        require_citations: Every field reached by a path must cite at least one id.
        fail_fast: Stop at the first issue.
        max_listed_ids: How many valid ids a message lists in full.

    Raises:
        InvalidInputError: On an empty or malformed path.

    Example:
        ```python
        judge = CitationJudge("claims[].evidence_ids", require_citations=True)
        check = judge.check(answer, valid_ids={"doc-1#0", "doc-2#0"})
        if not check.valid:
            print(check.reason)
        ```
    """

    def __init__(
        self,
        paths: str | Sequence[str],
        *,
        valid_ids: IdSource | None = None,
        require_citations: bool = True,
        fail_fast: bool = False,
        max_listed_ids: int = DEFAULT_MAX_LISTED_IDS,
    ) -> None:
        raw = [paths] if isinstance(paths, str) else list(paths)
        if not raw:
            raise InvalidInputError("paths", "give at least one citation path")
        if max_listed_ids < 1:
            raise InvalidInputError("max_listed_ids", f"must be >= 1, got {max_listed_ids}")
        self.paths: tuple[str, ...] = tuple(p.strip() for p in raw)
        self._parsed = tuple(_parse_path(p) for p in raw)
        self.valid_ids = valid_ids
        self.require_citations = require_citations
        self.fail_fast = fail_fast
        self.max_listed_ids = max_listed_ids

    def cited_ids(self, obj: Any) -> list[str]:
        """Every id the object cites, unique, in first-seen order (no validation)."""
        seen: dict[str, None] = {}
        for _, values in self._leaves(obj):
            for v in values or ():
                if isinstance(v, str):
                    seen.setdefault(v, None)
        return list(seen)

    def check(self, obj: Any, valid_ids: IdSource | None = None) -> CitationCheck:
        """Check every citation of ``obj``.

        Args:
            obj: A pydantic model, an object with attributes, or a mapping.
            valid_ids: The ids that may be cited; defaults to the constructor's.

        Raises:
            InvalidInputError: When no valid ids were given, or a path names a field the
                model does not have.
        """
        source = valid_ids if valid_ids is not None else self.valid_ids
        if source is None:
            raise InvalidInputError("valid_ids", "give valid ids here or to the constructor")
        ids = resolve_ids(source)
        issues: list[CitationIssue] = []
        cited: dict[str, None] = {}
        unknown: dict[str, None] = {}
        listing: str | None = None
        by_location: dict[str, list[str]] = {}
        for location, values in self._leaves(obj):
            by_location[location] = [v if isinstance(v, str) else repr(v) for v in values or ()]
            if values is None:
                issues.append(
                    CitationIssue(
                        kind="malformed",
                        location=location,
                        message=f"{location} is not an id or a list of ids",
                    )
                )
            elif not values and self.require_citations:
                issues.append(
                    CitationIssue(
                        kind="missing_citation",
                        location=location,
                        message=f"{location} cites nothing; cite at least one evidence id",
                    )
                )
            for v in values or ():
                if isinstance(v, str):
                    cited.setdefault(v, None)
                    if v in ids:
                        continue
                    unknown.setdefault(v, None)
                if listing is None:
                    listing = format_valid_ids(ids, limit=self.max_listed_ids)
                issues.append(
                    CitationIssue(
                        kind="unknown_id",
                        location=location,
                        cited_id=v if isinstance(v, str) else repr(v),
                        message=f"{location} cites unknown id {v!r}; valid ids: {listing}",
                    )
                )
            if self.fail_fast and issues:
                break
        reason = ""
        if issues:
            reason = issues[0].message
            if len(issues) > 1:
                reason += f" (and {len(issues) - 1} more issue{'s' if len(issues) > 2 else ''})"
        return CitationCheck(
            valid=not issues,
            cited_ids=list(cited),
            unknown_ids=list(unknown),
            issues=issues[:1] if self.fail_fast else issues,
            valid_id_count=len(ids),
            citations=by_location,
            reason=reason,
        )

    def _leaves(self, obj: Any) -> Iterator[tuple[str, list[Any] | None]]:
        for path, segments in zip(self.paths, self._parsed, strict=True):
            yield from self._walk(obj, segments, "", path)

    def _walk(
        self, obj: Any, segments: tuple[_Segment, ...], location: str, path: str
    ) -> Iterator[tuple[str, list[Any] | None]]:
        seg, rest = segments[0], segments[1:]
        value = obj
        if seg.name:
            value = _get(obj, seg.name)
            if value is _MISSING and isinstance(obj, BaseModel):
                raise InvalidInputError(
                    "paths", f"{type(obj).__name__} has no field {seg.name!r} (path {path!r})"
                )
            location = f"{location}.{seg.name}" if location else seg.name
        yield from self._descend(value, seg.iterate, rest, location, path)

    def _descend(
        self, value: Any, iterate: int, rest: tuple[_Segment, ...], location: str, path: str
    ) -> Iterator[tuple[str, list[Any] | None]]:
        if iterate:
            items = _id_list(value)
            if items is None or isinstance(value, str):
                yield location, None
                return
            for i, item in enumerate(items):
                yield from self._descend(item, iterate - 1, rest, f"{location}[{i}]", path)
        elif rest:
            if value is None or value is _MISSING:
                return
            yield from self._walk(value, rest, location, path)
        else:
            yield location, _id_list(value)
