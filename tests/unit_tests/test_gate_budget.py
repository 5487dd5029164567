"""The facade's retry budget: one limit per call, from the policy or the stricter load budget."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from langchain_qgate.calibration import ConfidenceCalibrator
from langchain_qgate.errors import InvalidInputError
from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityGate, RejectedOutput
from langchain_qgate.gate.load import CognitiveLoadMonitor, LoadAction, LoadBudget, LoadCounters
from tests.unit_tests._gate_reports import BAD, GOOD, TEXT, contradicted, grounded, report


class _Monitor:
    """Grounding monitor that always returns the same report."""

    def __init__(self, grounding: object) -> None:
        self.grounding = grounding

    def verify_grounding(self, output: object, evidence: object, *, question: object = None):
        return self.grounding

    async def averify_grounding(self, output: object, evidence: object, *, question: object = None):
        return self.grounding


def _gate(
    policy: GatePolicy | None = None, budget: LoadBudget | None = None, grounding=BAD
) -> QualityGate:
    return QualityGate(
        monitor=_Monitor(grounding),
        calibrator=ConfidenceCalibrator(None),
        policy=policy,
        load_monitor=CognitiveLoadMonitor(budget) if budget is not None else None,
    )


def _cfg(**configurable: object) -> dict[str, object]:
    return {"configurable": {"thread_id": "t", **configurable}}


def _run(gate: QualityGate, config: Mapping[str, object] | None = None) -> list[tuple]:
    """Reject a bad answer until the gate escalates; one row per check, counters carried."""
    counters = LoadCounters()
    rows = []
    for _ in range(12):
        decision = gate.check(TEXT, ["evidence"], counters=counters, config=config, now=0.0)
        assert isinstance(decision, RejectedOutput)
        g = decision.guidance
        rows.append((g.retries_used, g.retries_left, g.max_retries, decision.metadata.decision))
        assert "load" not in decision.metadata.failed_dimensions
        assert decision.metadata.load_action is not LoadAction.ABORT
        counters = gate.record(counters, decision)
        if decision.escalation is not None:
            assert counters.retries == g.retries_used
            return rows
    raise AssertionError("the gate never escalated")


def _expected(limit: int) -> list[tuple]:
    rows: list[tuple] = [(i, limit - i, limit, "retry") for i in range(limit)]
    return [*rows, (limit, 0, limit, "escalate")]


# --- no explicit load monitor: the budget follows the effective policy --------------------------


@pytest.mark.parametrize("limit", [0, 1, 3, 5, 7])
def test_default_budget_follows_the_policy_max_retries(limit: int) -> None:
    gate = _gate(GatePolicy(max_retries=limit))
    assert _run(gate) == _expected(limit)
    assert gate.load_monitor.budget.max_retries == limit


def test_five_retries_are_granted_past_the_old_fixed_budget_of_three() -> None:
    rows = _run(_gate(GatePolicy(max_retries=5)))
    assert [r[0] for r in rows] == [0, 1, 2, 3, 4, 5]
    assert rows[-1] == (5, 0, 5, "escalate")


@pytest.mark.parametrize(("override", "limit"), [(0, 0), (1, 1), (5, 5), ("6", 6)])
def test_default_budget_follows_a_per_call_max_retries_override(
    override: object, limit: int
) -> None:
    gate = _gate(GatePolicy(max_retries=3))
    assert _run(gate, _cfg(qgate_max_retries=override)) == _expected(limit)
    assert _run(gate) == _expected(3)  # the gate's own policy is untouched


def test_a_per_call_profile_keeps_the_instance_budget_and_keys_still_override_it() -> None:
    # qgate_profile replaces the thresholds only; the instance's max_retries stays, keys win.
    gate = _gate(GatePolicy(max_retries=1))
    assert _run(gate, _cfg(qgate_profile="strict")) == _expected(1)
    assert _run(gate, _cfg(qgate_profile="brainstorm", qgate_max_retries=4)) == _expected(4)


def test_a_good_answer_after_four_retries_passes_when_five_are_allowed() -> None:
    gate = _gate(grounding=GOOD)
    decision = gate.check(
        TEXT, ["e"], counters={"retries": 4}, config=_cfg(qgate_max_retries=5), now=0.0
    )
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.load_action is LoadAction.CONTINUE
    assert (decision.metadata.retries_used, decision.metadata.max_retries) == (4, 5)


def test_the_last_allowed_retry_throttles_but_does_not_fail_load() -> None:
    gate = _gate(GatePolicy(max_retries=5), grounding=GOOD)
    decision = gate.decide(TEXT, GOOD, counters={"retries": 5}, now=0.0)
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.load_action is LoadAction.THROTTLE
    assert decision.metadata.load_reason == "close to budget: 5 of 5 retries"


def test_default_budget_keeps_the_other_default_limits() -> None:
    gate = _gate(GatePolicy(max_retries=6))
    monitor = gate.effective_load_monitor(_cfg(qgate_max_retries=2))
    assert monitor.budget == LoadBudget(max_retries=2)
    assert gate.effective_load_monitor() is gate.load_monitor
    assert gate.load_monitor.budget == LoadBudget(max_retries=6)


# --- an explicit load monitor: the stricter of the two applies ----------------------------------


@pytest.mark.parametrize(
    ("policy_retries", "budget_retries", "limit"),
    [(3, 1, 1), (2, 5, 2), (4, 4, 4), (5, 3, 3), (0, 2, 0), (3, 0, 0)],
)
def test_explicit_budget_and_policy_the_stricter_applies(
    policy_retries: int, budget_retries: int, limit: int
) -> None:
    gate = _gate(GatePolicy(max_retries=policy_retries), LoadBudget(max_retries=budget_retries))
    assert _run(gate) == _expected(limit)
    assert gate.effective_policy().max_retries == limit
    assert gate.policy.max_retries == policy_retries  # the configured policy is untouched


@pytest.mark.parametrize(("override", "limit"), [(1, 1), (2, 2), (9, 2)])
def test_explicit_budget_caps_per_call_overrides(override: int, limit: int) -> None:
    gate = _gate(GatePolicy(max_retries=3), LoadBudget(max_retries=2))
    assert _run(gate, _cfg(qgate_max_retries=override)) == _expected(limit)


def test_an_explicit_budget_caps_retries_at_its_default_of_three() -> None:
    gate = _gate(budget=LoadBudget(max_model_calls=10))  # max_retries left at its default, 3
    assert _run(gate, _cfg(qgate_max_retries=5)) == _expected(3)


def test_explicit_budget_applies_without_counters() -> None:
    gate = _gate(GatePolicy(max_retries=3), LoadBudget(max_retries=1))
    first = gate.check(TEXT, ["e"], retries_used=0)
    second = gate.check(TEXT, ["e"], retries_used=1)
    assert isinstance(first, RejectedOutput)
    assert first.escalation is None
    assert first.guidance.retries_left == 1
    assert isinstance(second, RejectedOutput)
    assert second.escalation is not None
    assert second.escalation.reason == "failed grounding after 1 of 1 retries"


def test_explicit_budget_keeps_its_monitor_and_other_limits() -> None:
    monitor = CognitiveLoadMonitor(LoadBudget(max_retries=2, max_model_calls=4))
    gate = QualityGate(
        monitor=_Monitor(GOOD), calibrator=ConfidenceCalibrator(None), load_monitor=monitor
    )
    assert gate.load_monitor is monitor
    assert gate.effective_load_monitor(_cfg(qgate_max_retries=1)) is monitor
    decision = gate.check(TEXT, ["e"], counters={"model_calls": 4}, now=0.0)
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.failed_dimensions == ["load"]
    assert decision.escalation is not None
    assert decision.escalation.reason == "failed load; budget spent: 4 of 4 model calls"


def test_stale_counters_over_the_budget_still_abort() -> None:
    # Counters restored from a run that used more retries than this call allows.
    gate = _gate(GatePolicy(max_retries=1), grounding=GOOD)
    decision = gate.check(TEXT, ["e"], counters={"retries": 2}, now=0.0)
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.failed_dimensions == ["load"]
    assert decision.metadata.load_reason == "budget spent: 2 of 1 retries"


# --- what the caller sees -----------------------------------------------------------------------


def test_effective_policy_applies_overrides_and_the_cap() -> None:
    gate = _gate(GatePolicy.from_profile("strict"), LoadBudget(max_retries=2))
    policy = gate.effective_policy(_cfg(qgate_max_retries=4, qgate_grounding_threshold=0.9))
    assert (policy.profile, policy.grounding_threshold, policy.max_retries) == ("strict", 0.9, 2)
    assert gate.effective_policy(None).max_retries == 2
    assert gate.effective_policy({"qgate_max_retries": 1}).max_retries == 1


def test_effective_policy_rejects_a_bad_override() -> None:
    with pytest.raises(InvalidInputError):
        _gate().effective_policy(_cfg(qgate_max_retries=-1))


def test_metadata_and_guidance_report_the_limit_applied() -> None:
    gate = _gate(GatePolicy(max_retries=4), LoadBudget(max_retries=2))
    decision = gate.check(TEXT, ["e"], retries_used=1)
    assert isinstance(decision, RejectedOutput)
    assert decision.metadata.max_retries == 2
    assert decision.guidance.to_model_message().endswith("Attempts left: 1 of 2.")
    assert decision.guidance.summary(brief=True).endswith("1 of 2 retries used; 1 left.")


async def test_acheck_honours_the_same_budget() -> None:
    gate = _gate(GatePolicy(max_retries=3))
    cfg = _cfg(qgate_max_retries=5)
    retry = await gate.acheck(TEXT, ["e"], counters={"retries": 4}, config=cfg, now=0.0)
    spent = await gate.acheck(TEXT, ["e"], counters={"retries": 5}, config=cfg, now=0.0)
    assert isinstance(retry, RejectedOutput)
    assert (retry.escalation, retry.guidance.retries_left) == (None, 1)
    assert isinstance(spent, RejectedOutput)
    assert spent.escalation is not None
    assert spent.metadata.failed_dimensions == ["grounding"]  # shipped map: grounding judges alone


def test_a_contradiction_at_a_passing_score_uses_the_same_budget() -> None:
    high = report(0.85, contradicted(), grounded())
    gate = _gate(GatePolicy(max_retries=2), grounding=high)
    assert _run(gate) == _expected(2)
    assert _run(gate, _cfg(qgate_max_retries=4)) == _expected(4)


# --- the integrations' default gate follows per-call overrides both ways ------------------------


def _run_agent(max_retries: int, configurable: dict[str, object]) -> tuple[dict, int]:
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from langchain_qgate.integrations.middleware import QualityGateMiddleware
    from tests.unit_tests import _qgate_fakes as fakes

    model = fakes.scripted_model([fakes.BAD, fakes.BAD, fakes.BAD, fakes.BAD, fakes.GOOD])
    agent = create_agent(
        model,
        tools=[fakes.SEARCH_TOOL],
        middleware=[
            QualityGateMiddleware(
                monitor=fakes.make_monitor(), policy=GatePolicy(max_retries=max_retries)
            )
        ],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "budget", **configurable}}
    result = agent.invoke({"messages": [("user", fakes.QUESTION)]}, config)
    return result, len(model.calls)


def test_middleware_grants_more_retries_when_a_call_raises_the_budget() -> None:
    result, calls = _run_agent(1, {"qgate_max_retries": 4})
    assert "__interrupt__" not in result
    meta = result["messages"][-1].response_metadata["qgate"]
    assert (meta["decision"], meta["retries_used"], meta["max_retries"]) == ("pass", 4, 4)
    assert calls == 6  # tool call, first draft, four retries


def test_middleware_escalates_when_a_call_lowers_the_budget() -> None:
    result, calls = _run_agent(4, {"qgate_max_retries": 2})
    payload = result["__interrupt__"][0].value
    assert payload["retries_used"] == 2
    assert payload["metadata"]["max_retries"] == 2
    assert calls == 4  # tool call, first draft, two retries
