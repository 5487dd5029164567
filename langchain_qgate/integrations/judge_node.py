"""A LangGraph node that judges the results of parallel agents before aggregation.

Typical graph: fan out to several agents (``Send`` or parallel edges), each appends its
:class:`~langchain_qgate.judge.AgentResult` to a list in state (a reducer such as
``operator.add``), then :func:`judge_node` keeps the valid results under another key and
records why the others were rejected, and an aggregator reads the kept results only.
"""

from __future__ import annotations

import logging
import operator
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypedDict

from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel, ConfigDict

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.judge import (
    DEFAULT_MAX_LISTED_IDS,
    AgentResult,
    IdSource,
    JudgeCheck,
    JudgeLayer,
)

__all__ = ["JudgeNode", "JudgeRejection", "JudgeState", "judge_node"]

logger = logging.getLogger(__name__)


class JudgeRejection(BaseModel):
    """Why one result was left out.

    Attributes:
        agent_name: Name of the agent whose result was rejected (``None`` when missing).
        index: Position of the result in the input list.
        check: The check that failed.
        reason: The judge's message.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_name: str | None
    index: int
    check: JudgeCheck
    reason: str


class JudgeState(TypedDict, total=False):
    """Graph state keys used by :func:`judge_node` with its default key names.

    Agents append to ``results``; the node writes ``accepted`` (replaced each run) and
    appends to ``rejections``.
    """

    results: Annotated[list[AgentResult], operator.add]
    accepted: list[AgentResult]
    rejections: Annotated[list[JudgeRejection], operator.add]


class JudgeNode(RunnableLambda[Any, dict[str, Any]]):
    """The node :func:`judge_node` builds: a runnable that ``StateGraph.add_node`` takes for
    any state schema (it type-checks under ``mypy --strict`` with ``StateGraph(YourState)``),
    and still a plain function of the state (``node(state)`` returns the update).
    """

    def __init__(self, func: Callable[[Mapping[str, Any]], dict[str, Any]]) -> None:
        super().__init__(func, name="judge_node")
        self._judge = func

    def __call__(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """The node's update for ``state`` (the same as ``invoke``, without a run)."""
        return self._judge(state)


def judge_node(
    judge: JudgeLayer | IdSource | None = None,
    *,
    results_key: str = "results",
    accepted_key: str = "accepted",
    rejections_key: str = "rejections",
    valid_ids: Callable[[Mapping[str, Any]], IdSource] | None = None,
) -> JudgeNode:
    """Build a node that filters the list of agent results in state.

    The node reads ``state[results_key]``, judges every result (see
    :class:`~langchain_qgate.judge.JudgeLayer`), and returns
    ``{accepted_key: [valid results, in order], rejections_key: [JudgeRejection, ...]}``.
    Nothing in state is mutated; each rejection is also logged.

    Args:
        judge: A configured judge, or the valid ids to build one from. May be ``None`` when
            ``valid_ids`` is given.
        results_key: State key holding the results (a list).
        accepted_key: State key to write the valid results to. Use a key without an
            appending reducer, or the accepted list of a second run is added to the first.
        rejections_key: State key to write the rejection records to.
        valid_ids: Reads the valid ids from the state at run time (e.g. the signals the
            graph retrieved); takes precedence over the judge's memory.

    Returns:
        A :class:`JudgeNode` for ``graph.add_node("judge", node)`` (a runnable, callable as
        ``node(state)`` too).

    Raises:
        InvalidInputError: If neither ``judge`` nor ``valid_ids`` is given, or two keys clash.

    Example:
        ```python
        builder.add_node("judge", judge_node(InMemorySignalMemory(signal_ids)))
        builder.add_edge(["agent_a", "agent_b", "agent_c"], "judge")
        builder.add_edge("judge", "aggregate")  # reads state["accepted"]
        ```
    """
    if judge is None and valid_ids is None:
        raise InvalidInputError("judge", "give a JudgeLayer, the valid ids, or valid_ids=")
    if len({results_key, accepted_key, rejections_key}) != 3:
        raise InvalidInputError("keys", "results_key, accepted_key and rejections_key must differ")
    fixed = judge if isinstance(judge, JudgeLayer) or judge is None else JudgeLayer(judge)
    listed = fixed.max_listed_ids if fixed is not None else DEFAULT_MAX_LISTED_IDS
    level = fixed.log_level if fixed is not None else logging.WARNING

    def node(state: Mapping[str, Any]) -> dict[str, Any]:
        raw = state.get(results_key) or []
        if not isinstance(raw, list | tuple):
            raise InvalidInputError(results_key, f"expected a list of results, got {type(raw)}")
        layer = fixed
        if valid_ids is not None:
            layer = JudgeLayer(valid_ids(state), max_listed_ids=listed, log_level=level)
        if layer is None:  # unreachable: checked when the node was built
            raise InvalidInputError("judge", "no judge and no valid_ids")
        accepted: list[Any] = []
        rejections: list[JudgeRejection] = []
        for index, verdict in enumerate(layer.judge_each(raw)):
            if verdict.valid:
                accepted.append(verdict.result)
                continue
            name = _name(verdict.result)
            rejection = JudgeRejection(
                agent_name=name,
                index=index,
                check=verdict.failed_check or "agent_name",
                reason=verdict.rejection_reason or "",
            )
            logger.log(layer.log_level, "judge node left out agent %r: %s", name, rejection.reason)
            rejections.append(rejection)
        return {accepted_key: accepted, rejections_key: rejections}

    return JudgeNode(node)


def _name(result: Any) -> str | None:
    name = (
        result.get("agent_name")
        if isinstance(result, Mapping)
        else getattr(result, "agent_name", None)
    )
    return name if isinstance(name, str) else None
