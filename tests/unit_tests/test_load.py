"""Cognitive load monitor: thresholds, counters as plain checkpointable data."""

from __future__ import annotations

import json
import operator
from typing import Annotated, TypedDict

import pytest
from langchain_core.messages import AIMessage

from langchain_qgate.gate.load import (
    CognitiveLoadMonitor,
    LoadAction,
    LoadAssessment,
    LoadBudget,
    LoadCounters,
    LoadCountersDict,
)


@pytest.fixture
def monitor() -> CognitiveLoadMonitor:
    return CognitiveLoadMonitor(LoadBudget())


def test_fresh_counters_continue(monitor: CognitiveLoadMonitor) -> None:
    result = monitor.assess(LoadCounters(), now=0.0)
    assert result.action is LoadAction.CONTINUE
    assert result.reason == "within budget"


def test_none_counters_are_fresh(monitor: CognitiveLoadMonitor) -> None:
    assert monitor.assess(None).action is LoadAction.CONTINUE


@pytest.mark.parametrize(
    ("counters", "action", "fragment"),
    [
        (LoadCounters(model_calls=19), LoadAction.CONTINUE, "within budget"),
        (LoadCounters(model_calls=20), LoadAction.THROTTLE, "20 of 25 model calls"),
        (LoadCounters(model_calls=25), LoadAction.ABORT, "25 of 25 model calls"),
        (LoadCounters(tokens_in=100_000, tokens_out=59_999), LoadAction.CONTINUE, "within"),
        (LoadCounters(tokens_in=100_000, tokens_out=60_000), LoadAction.THROTTLE, "tokens"),
        (LoadCounters(tokens_in=150_000, tokens_out=50_000), LoadAction.ABORT, "200,000 of"),
        (LoadCounters(tool_errors=3), LoadAction.CONTINUE, "within"),
        (LoadCounters(tool_errors=4), LoadAction.THROTTLE, "4 of 5 tool errors"),
        (LoadCounters(tool_errors=5), LoadAction.ABORT, "5 of 5 tool errors"),
        (LoadCounters(retries=2), LoadAction.CONTINUE, "within"),
        (LoadCounters(retries=3), LoadAction.THROTTLE, "3 of 3 retries"),
        (LoadCounters(retries=4), LoadAction.ABORT, "4 of 3 retries"),
    ],
)
def test_thresholds_throttle_at_ratio_and_abort_at_budget(
    monitor: CognitiveLoadMonitor, counters: LoadCounters, action: LoadAction, fragment: str
) -> None:
    result = monitor.assess(counters, now=0.0)
    assert result.action is action
    assert fragment in result.reason


@pytest.mark.parametrize(
    ("elapsed", "action"),
    [(100.0, LoadAction.CONTINUE), (240.0, LoadAction.THROTTLE), (300.0, LoadAction.ABORT)],
)
def test_elapsed_seconds_against_budget(
    monitor: CognitiveLoadMonitor, elapsed: float, action: LoadAction
) -> None:
    counters = LoadCounters(model_calls=1, started_at=1000.0)
    result = monitor.assess(counters, now=1000.0 + elapsed)
    assert result.action is action
    assert result.elapsed_seconds == pytest.approx(elapsed)
    assert result.usage["seconds"] == pytest.approx(elapsed / 300.0)


def test_custom_throttle_ratio() -> None:
    monitor = CognitiveLoadMonitor(LoadBudget(max_model_calls=10, throttle_ratio=0.5))
    assert monitor.assess(LoadCounters(model_calls=4)).action is LoadAction.CONTINUE
    assert monitor.assess(LoadCounters(model_calls=5)).action is LoadAction.THROTTLE


def test_abort_reason_lists_every_spent_budget(monitor: CognitiveLoadMonitor) -> None:
    result = monitor.assess(LoadCounters(model_calls=30, tool_errors=9), now=0.0)
    assert result.action is LoadAction.ABORT
    assert "30 of 25 model calls" in result.reason
    assert "9 of 5 tool errors" in result.reason


def test_record_model_call_reads_usage_metadata_and_returns_new_counters(
    monitor: CognitiveLoadMonitor,
) -> None:
    before = LoadCounters()
    msg = AIMessage(
        content="hi", usage_metadata={"input_tokens": 12, "output_tokens": 5, "total_tokens": 17}
    )
    after = monitor.record_model_call(before, msg, now=50.0)
    assert (after.model_calls, after.tokens_in, after.tokens_out) == (1, 12, 5)
    assert after.started_at == 50.0
    assert before.model_calls == 0  # unchanged
    again = monitor.record_model_call(after, msg, now=99.0)
    assert (again.model_calls, again.tokens, again.started_at) == (2, 34, 50.0)


def test_record_model_call_reads_openai_token_usage(monitor: CognitiveLoadMonitor) -> None:
    msg = AIMessage(
        content="x", response_metadata={"token_usage": {"prompt_tokens": 7, "completion_tokens": 3}}
    )
    after = monitor.record_model_call(None, msg, now=0.0)
    assert (after.tokens_in, after.tokens_out) == (7, 3)


def test_record_model_call_without_message_counts_call_only(
    monitor: CognitiveLoadMonitor,
) -> None:
    after = monitor.record_model_call(LoadCounters(), now=0.0)
    assert (after.model_calls, after.tokens) == (1, 0)


def test_record_tool_error_and_retry(monitor: CognitiveLoadMonitor) -> None:
    c = monitor.record_tool_error({}, now=1.0)
    c = monitor.record_retry(c, now=2.0)
    c = monitor.record_retry(c, now=3.0)
    assert (c.tool_errors, c.retries, c.started_at) == (1, 2, 1.0)
    assert monitor.retries_left(c) == 1


def test_counters_are_plain_data_that_round_trip_through_a_dict(
    monitor: CognitiveLoadMonitor,
) -> None:
    c = LoadCounters(model_calls=3, tokens_in=10, tokens_out=2, tool_errors=1, retries=2)
    state: LoadCountersDict = c.to_state()
    assert json.loads(json.dumps(state)) == state
    assert LoadCounters.from_state(state) == c
    assert monitor.assess(state, now=0.0) == monitor.assess(c, now=0.0)


def test_assessment_json_round_trip(monitor: CognitiveLoadMonitor) -> None:
    result = monitor.assess(LoadCounters(model_calls=21, started_at=0.0), now=10.0)
    assert LoadAssessment.model_validate_json(result.model_dump_json()) == result
    assert LoadCounters.model_validate_json(result.counters.model_dump_json()) == result.counters


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_model_calls": 0},
        {"max_tokens": 0},
        {"max_tool_errors": 0},
        {"max_retries": -1},
        {"max_seconds": 0.0},
        {"throttle_ratio": 0.0},
        {"throttle_ratio": 1.5},
    ],
)
def test_budget_rejects_invalid_values(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="LoadBudget"):
        LoadBudget(**kwargs)  # type: ignore[arg-type]


def test_counters_reject_negative_values() -> None:
    with pytest.raises(ValueError):
        LoadCounters(model_calls=-1)


class _State(TypedDict):
    steps: Annotated[list[str], operator.add]
    qgate_load: LoadCountersDict


def test_counters_persist_in_a_checkpointed_graph_and_resume() -> None:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph

    monitor = CognitiveLoadMonitor(LoadBudget(max_model_calls=3, throttle_ratio=0.6))

    def model(state: _State) -> dict[str, object]:
        msg = AIMessage(
            content="ok", usage_metadata={"input_tokens": 4, "output_tokens": 1, "total_tokens": 5}
        )
        counters = monitor.record_model_call(state.get("qgate_load"), msg, now=0.0)
        action = monitor.assess(counters, now=1.0).action
        return {"steps": [action.value], "qgate_load": counters.to_state()}

    builder = StateGraph(_State)
    builder.add_node("model", model)
    builder.add_edge(START, "model")
    builder.add_edge("model", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "t1"}}
    graph.invoke({"steps": []}, cfg)  # type: ignore[arg-type]
    graph.invoke({"steps": []}, cfg)  # type: ignore[arg-type]
    final = graph.invoke({"steps": []}, cfg)  # type: ignore[arg-type]
    assert final["steps"] == ["continue", "throttle", "abort"]
    assert final["qgate_load"]["model_calls"] == 3
    assert final["qgate_load"]["tokens_in"] == 12
    other = graph.invoke({"steps": []}, {"configurable": {"thread_id": "t2"}})  # type: ignore[arg-type]
    assert other["qgate_load"]["model_calls"] == 1
