"""The per-attempt timeline of a gated turn (claims, grades, retries,
escalation), read from what the middleware and the graph node record, and drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from matplotlib.colors import to_rgba

from langchain_qgate import (
    GateAttempt,
    GatePolicy,
    QualityGateMiddleware,
    attempt_timeline,
    plot_attempt_timeline,
)
from langchain_qgate.errors import InvalidInputError
from langchain_qgate.integrations.timeline import GRADE_COLORS, TimelineClaim
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    SEARCH_TOOL,
    build_rag_graph,
    make_monitor,
    scripted_model,
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _agent(monitor, answers, **policy):
    mw = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(**policy))
    return create_agent(
        scripted_model(answers), tools=[SEARCH_TOOL], middleware=[mw], checkpointer=InMemorySaver()
    )


def _cfg(thread: str):
    return {"configurable": {"thread_id": thread}}


def _summary(attempts: list[GateAttempt]) -> list[tuple]:
    return [
        (a.attempt, a.outcome, a.human_decision, [(c.grade, c.contradicted) for c in a.claims])
        for a in attempts
    ]


def test_timeline_of_a_retried_agent_turn(monitor):
    result = _agent(monitor, [BAD, GOOD], max_retries=1).invoke(
        {"messages": [("user", QUESTION)]}, _cfg("retry")
    )
    final = result["messages"][-1]
    attempts = attempt_timeline(final)
    assert _summary(attempts) == [
        (1, "retry", None, [("fabricated", True), ("fabricated", False)]),
        (2, "pass", None, [("grounded", False), ("grounded", False)]),
    ]
    assert attempts[0].draft == BAD
    assert attempts[1].draft == GOOD
    assert attempts[0].score is not None
    assert attempts[0].score < 0.6 < attempts[1].score
    assert "52.7" in attempts[0].claims[0].text
    # the response_metadata mapping alone gives the same rows (without the final text)
    again = attempt_timeline(final.response_metadata)
    assert _summary(again) == _summary(attempts)
    assert again[1].draft == ""


def test_timeline_of_an_escalated_turn_edited_by_a_human(monitor):
    agent = _agent(monitor, [BAD], max_retries=1)
    paused = agent.invoke({"messages": [("user", QUESTION)]}, _cfg("esc"))
    request = paused["__interrupt__"][0].value
    result = agent.invoke(Command(resume={"type": "edit", "text": GOOD}), _cfg("esc"))
    final = result["messages"][-1]
    attempts = attempt_timeline(final, escalation=request)
    assert _summary(attempts) == [
        (1, "retry", None, [("fabricated", True), ("fabricated", False)]),
        (2, "escalate", "edit", [("fabricated", True), ("fabricated", False)]),
        (3, "edited", "edit", [("grounded", False), ("grounded", False)]),
    ]
    # without the interrupt's request the escalated draft's grading is unknown, not invented
    bare = attempt_timeline(final)
    assert bare[1].outcome == "escalate"
    assert bare[1].claims == ()
    assert bare[1].score is None


def test_timeline_of_a_graph_state(monitor):
    graph = build_rag_graph(
        scripted_model([BAD, GOOD]),
        checkpointer=InMemorySaver(),
        monitor=monitor,
        policy=GatePolicy(max_retries=2),
    )
    state = graph.invoke({"messages": [("user", QUESTION)]}, _cfg("graph"))
    attempts = attempt_timeline(state)
    assert [(a.outcome, a.draft) for a in attempts] == [("retry", BAD), ("pass", GOOD)]


def test_timeline_of_an_ungated_message_is_empty():
    assert attempt_timeline(AIMessage("hello")) == []
    assert attempt_timeline({}) == []


def test_timeline_rejects_other_input():
    with pytest.raises(InvalidInputError, match="expected a message or a mapping"):
        attempt_timeline("not a message")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="not the gate's metadata"):
        attempt_timeline({"qgate": {"decision": "maybe"}})
    with pytest.raises(InvalidInputError, match="not the gate's metadata"):
        attempt_timeline({"qgate_rejected_drafts": [{"draft": "x", "metadata": {"score": "?"}}]})


def _claim(grade: str, *, contradicted: bool = False, index: int = 0) -> TimelineClaim:
    return TimelineClaim(
        index=index, text=f"claim {index} {grade}", grade=grade, support=0.5,
        contradicted=contradicted,
    )  # fmt: skip


ATTEMPTS = [
    GateAttempt(
        attempt=1, draft="a", outcome="retry", score=0.21,
        claims=(_claim("fabricated", contradicted=True), _claim("inferred", index=1)),
    ),
    GateAttempt(attempt=2, draft="b", outcome="escalate", human_decision="edit"),
    GateAttempt(
        attempt=3, draft="c", outcome="pass", human_decision="edit", score=0.98,
        claims=(_claim("grounded"), _claim("opinion", index=1)),
    ),
]  # fmt: skip


def test_plot_marks_claims_by_grade_and_names_each_outcome():
    fig = plot_attempt_timeline(ATTEMPTS, title="run")
    try:
        (ax,) = fig.axes
        labels = [t.get_text() for t in ax.get_xticklabels()]
        assert labels == [
            "attempt 1 (0.21)\nrejected -> retry",
            "attempt 2\nescalated to a human\nhuman: edit",
            "attempt 3 (0.98)\npass\n(after human edit)",
        ]
        dots = [c for c in ax.collections if c.get_sizes()[0] == 140]
        points = [tuple(c.get_offsets()[0]) for c in dots]
        colors = [tuple(c.get_facecolor()[0]) for c in dots]
        assert points == [(0, 0), (0, 1), (2, 0), (2, 1)]
        assert colors == [
            to_rgba(GRADE_COLORS[g]) for g in ("fabricated", "inferred", "grounded", "opinion")
        ]
        crosses = [c for c in ax.collections if c.get_sizes()[0] == 90]
        assert [tuple(c.get_offsets()[0]) for c in crosses] == [(0, 0)]
        texts = [t.get_text() for t in ax.texts]
        assert "claim 0 fabricated" in texts
        assert "(grading not recorded)" in texts
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend == ["grounded", "inferred", "fabricated", "opinion", "contradicted"]
        assert ax.get_title(loc="left") == "run"
    finally:
        plt.close(fig)


def test_plot_cuts_long_claims_and_draws_into_given_axes():
    fig, ax = plt.subplots()
    try:
        long = TimelineClaim(index=0, text="x" * 80, grade="grounded", support=1.0,
                             contradicted=False)  # fmt: skip
        out = plot_attempt_timeline(
            [GateAttempt(attempt=1, draft="d", outcome="pass", claims=(long,))],
            ax=ax,
            text_width=10,
        )
        assert out is fig
        assert [t.get_text() for t in ax.texts] == ["x" * 9 + "…"]
    finally:
        plt.close(fig)


def test_plot_of_no_attempt_is_a_clear_error():
    with pytest.raises(InvalidInputError, match="no graded attempt"):
        plot_attempt_timeline([])
