"""Issue 25 "In production": verdicts in LangSmith, OpenTelemetry and logs (item 1), reprs
(item 2), the no-evidence warning on every surface (item 6), settings from the environment
and a config file (item 7). LangSmith is a local fake client: no network."""

from __future__ import annotations

import json
import logging
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from langchain.agents import create_agent
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tracers.langchain import LangChainTracer
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langsmith.run_helpers import tracing_context
from langsmith.run_trees import RunTree

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import QualityGateRejected, SettingsError
from langchain_qgate.gate import (
    GateObserver,
    GatePolicy,
    GateSettings,
    QualityGate,
    load_settings,
    verdict_record,
)
from langchain_qgate.integrations.callbacks import QualityGateCallbackHandler
from langchain_qgate.integrations.graph import QualityGateState, add_quality_gate
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from langchain_qgate.integrations.runnable import with_quality_gate
from langchain_qgate.integrations.streaming import QualityGateStreamer
from langchain_qgate.testing import FakeLangSmithClient, ScriptedChatModel
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    REVENUE_DOCS,
    SEARCH_TOOL,
    make_monitor,
    scripted_model,
)

QGATE_ENV = (
    "QGATE_CONFIG",
    "QGATE_PROFILE",
    "QGATE_GROUNDING_THRESHOLD",
    "QGATE_CONFIDENCE_THRESHOLD",
    "QGATE_INFERRED_WEIGHT",
    "QGATE_MAX_RETRIES",
    "QGATE_ON_EXHAUSTED",
    "QGATE_MAX_CONTRADICTIONS",
    "QGATE_PAIR_MODEL",
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in QGATE_ENV:
        monkeypatch.delenv(name, raising=False)


def _observed(monitor, client=None, **policy) -> QualityGate:
    observer = GateObserver(client=client or FakeLangSmithClient())
    return QualityGate(monitor=monitor, policy=GatePolicy(**policy), observer=observer)


def _feedback(client: FakeLangSmithClient, key: str) -> list:
    return [f for f in client.feedback if f.key == key]


# -- item 1: the record --------------------------------------------------------------------------


def test_record_of_a_contradicted_answer(monitor):
    gate = QualityGate(monitor=monitor, observer=False)
    report = monitor.verify_grounding(BAD, REVENUE_DOCS, question=QUESTION)
    decision = gate.decide(BAD, report)
    record = verdict_record(decision, report=report, surface="middleware")
    assert (record.decision, record.passed, record.profile) == ("retry", False, "default")
    assert record.attempt == 1
    assert record.max_retries == 3
    assert record.grades == {"grounded": 0, "inferred": 0, "fabricated": 2}
    assert record.contradictions == 1
    assert record.cause == "grounding+contradiction"
    [note] = record.contradicted
    assert note.kind == "money"
    assert note.claim.startswith("Nordlicht Robotics reported revenue of €52.7 million")
    assert "€48.2 million" in note.evidence
    assert record.reasons[0].startswith("None of the answer's 2 claims is backed")

    attrs = record.attributes()
    assert attrs["qgate.decision"] == "retry"
    assert attrs["qgate.claims.fabricated"] == 2
    assert attrs["qgate.contradiction.kinds"] == ["money"]
    assert attrs["qgate.surface"] == "middleware"
    for key, value in attrs.items():  # OpenTelemetry-friendly: scalars or lists of str
        assert key.startswith("qgate.")
        ok = isinstance(value, str | int | float | bool)
        assert ok or (isinstance(value, list) and all(isinstance(v, str) for v in value)), key


def test_record_without_report_reads_guidance_quotes(monitor):
    gate = QualityGate(monitor=monitor, observer=False)
    decision = gate.check(BAD, REVENUE_DOCS, question=QUESTION)
    record = verdict_record(decision)
    [note] = record.contradicted
    assert note.kind == "contradicted"
    assert "€48.2 million" in note.evidence
    assert record.surface == "gate"


# -- item 1: LangSmith ---------------------------------------------------------------------------


def test_langsmith_feedback_through_fake_client(monitor):
    client = FakeLangSmithClient()
    gate = _observed(monitor, client)
    run = RunTree(name="answer", run_type="chain", client=client)
    with tracing_context(parent=run, enabled=True):
        decision = gate.check(BAD, REVENUE_DOCS, question=QUESTION)
    assert decision.metadata.decision == "retry"
    by_key = {f.key: f for f in client.feedback}
    assert sorted(by_key) == sorted(
        ["qgate.passed", "qgate.score", "qgate.decision", "qgate.contradictions"]
    )
    assert {f.run_id for f in client.feedback} == {run.id}
    assert by_key["qgate.passed"].score == 0
    assert by_key["qgate.passed"].comment.startswith("retry (grounding+contradiction): ")
    assert by_key["qgate.score"].score == round(decision.metadata.score, 4)
    assert by_key["qgate.decision"].value == "retry"
    assert by_key["qgate.contradictions"].score == 1
    assert "€48.2 million" in by_key["qgate.contradictions"].comment
    metadata = run.extra["metadata"]
    assert metadata["qgate.decision"] == "retry"
    assert metadata["qgate.contradictions"] == 1


def test_without_an_injected_client_the_traced_runs_client_is_used(monitor):
    client = FakeLangSmithClient()
    gate = QualityGate(monitor=monitor)  # the default observer
    run = RunTree(name="answer", run_type="chain", client=client)
    with tracing_context(parent=run, enabled=True):
        gate.check(GOOD, REVENUE_DOCS, question=QUESTION)
    assert [(f.key, f.run_id) for f in _feedback(client, "qgate.passed")] == [
        ("qgate.passed", run.id)
    ]


def _traced_agent(model, middleware: QualityGateMiddleware, client, thread: str):
    """A create_agent graph with ``middleware`` and the config of a run traced into
    ``client`` (through LangChain's own tracer)."""
    agent = create_agent(
        model, tools=[SEARCH_TOOL], middleware=[middleware], checkpointer=InMemorySaver()
    )
    tracer = LangChainTracer(client=client, project_name="qgate-test")
    return agent, {"configurable": {"thread_id": thread}, "callbacks": [tracer]}


def test_agent_run_traced_with_langchain_tracer_gets_feedback_per_attempt(monitor):
    client = FakeLangSmithClient()
    middleware = QualityGateMiddleware(gate=_observed(monitor, client))
    agent, config = _traced_agent(scripted_model([BAD, GOOD]), middleware, client, "t")
    agent.invoke({"messages": [("user", QUESTION)]}, config)
    decisions = [f.value for f in _feedback(client, "qgate.decision")]
    assert decisions == ["retry", "pass"]
    assert [f.score for f in _feedback(client, "qgate.passed")] == [0, 1]


async def test_async_agent_run_gets_feedback_per_attempt(monitor):
    client = FakeLangSmithClient()
    middleware = QualityGateMiddleware(gate=_observed(monitor, client))
    agent, config = _traced_agent(scripted_model([BAD, GOOD]), middleware, client, "at")
    await agent.ainvoke({"messages": [("user", QUESTION)]}, config)
    assert [f.value for f in _feedback(client, "qgate.decision")] == ["retry", "pass"]
    assert len({f.run_id for f in client.feedback}) == 2  # one traced run per attempt


def test_callback_handler_attaches_feedback_to_the_model_run(monitor):
    client = FakeLangSmithClient()
    handler = QualityGateCallbackHandler(gate=_observed(monitor, client), evidence=REVENUE_DOCS)
    model = GenericFakeChatModel(messages=iter([GOOD]))
    model.invoke(QUESTION, {"callbacks": [handler]})
    check = handler.latest()
    assert check is not None
    assert check.passed
    assert {f.run_id for f in client.feedback} == {check.run_id}
    assert _feedback(client, "qgate.passed")[0].score == 1


def test_no_langsmith_call_when_tracing_is_off(monitor, monkeypatch):
    import langsmith

    def no_client(*args, **kwargs):
        raise AssertionError("a LangSmith client was created with tracing off")

    monkeypatch.setattr(langsmith, "Client", no_client)
    gate = QualityGate(monitor=monitor, observer=GateObserver(run=lambda: (None, False)))
    assert gate.check(GOOD, REVENUE_DOCS, question=QUESTION).metadata.decision == "pass"


def test_tracing_failure_never_fails_the_gate_and_warns_once(monitor, caplog):
    class Broken(FakeLangSmithClient):
        def create_feedback(self, *args, **kwargs):
            raise ConnectionError("langsmith unreachable")

    run = RunTree(name="answer", run_type="chain", client=Broken())
    gate = _observed(monitor, Broken())
    with (
        caplog.at_level(logging.DEBUG, logger="langchain_qgate.gate.telemetry"),
        tracing_context(parent=run, enabled=True),
    ):
        first = gate.check(GOOD, REVENUE_DOCS, question=QUESTION)
        second = gate.check(GOOD, REVENUE_DOCS, question=QUESTION)
    assert first.metadata.decision == second.metadata.decision == "pass"
    failures = [r for r in caplog.records if "could not send the verdict" in r.getMessage()]
    assert [r.levelno for r in failures] == [logging.WARNING, logging.DEBUG]
    assert "ConnectionError: langsmith unreachable" in failures[0].getMessage()


def test_raise_policy_is_recorded_before_raising(monitor):
    client = FakeLangSmithClient()
    gate = _observed(monitor, client, max_retries=0, on_exhausted="raise")
    run = RunTree(name="answer", run_type="chain", client=client)
    with tracing_context(parent=run, enabled=True), pytest.raises(QualityGateRejected):
        gate.check(BAD, REVENUE_DOCS, question=QUESTION)
    assert [f.value for f in _feedback(client, "qgate.decision")] == ["raise"]


# -- item 1: OpenTelemetry and logs --------------------------------------------------------------


class FakeSpan:
    def __init__(self, recording: bool = True) -> None:
        self.recording = recording
        self.attributes: dict = {}

    def is_recording(self) -> bool:
        return self.recording

    def set_attributes(self, attributes: dict) -> None:
        self.attributes.update(attributes)


def test_opentelemetry_attributes_on_the_recording_span(monitor):
    span, idle = FakeSpan(), FakeSpan(recording=False)
    for target in (span, idle):
        observer = GateObserver(langsmith=False, span=lambda target=target: target)
        QualityGate(monitor=monitor, observer=observer).check(BAD, REVENUE_DOCS, question=QUESTION)
    assert span.attributes["qgate.decision"] == "retry"
    assert span.attributes["qgate.score"] < 0.6
    assert span.attributes["qgate.contradiction.kinds"] == ["money"]
    assert idle.attributes == {}


def test_one_structured_log_line_per_verdict(monitor, caplog):
    gate = QualityGate(
        monitor=monitor,
        policy=GatePolicy(max_retries=0),
        observer=GateObserver(langsmith=False, opentelemetry=False),
    )
    with caplog.at_level(logging.DEBUG, logger="langchain_qgate.verdicts"):
        gate.check(GOOD, REVENUE_DOCS, question=QUESTION)
        gate.check(BAD, REVENUE_DOCS, question=QUESTION)
    records = [r for r in caplog.records if r.name == "langchain_qgate.verdicts"]
    assert [(r.levelname, r.qgate["qgate.decision"]) for r in records] == [
        ("DEBUG", "pass"),
        ("INFO", "escalate"),
    ]
    assert records[1].getMessage().startswith("qgate verdict: escalate score=0.")
    assert "cause=grounding+contradiction surface=gate" in records[1].getMessage()
    assert records[1].qgate["qgate.claims.fabricated"] == 2


def test_streamed_sentences_are_not_separate_verdicts(monitor):
    from langchain_qgate.testing import ScriptedStreamingChatModel

    client = FakeLangSmithClient()
    gate = _observed(monitor, client)
    model = ScriptedStreamingChatModel.from_replies(
        AIMessage("", tool_calls=[{"name": "search_docs", "args": {"query": QUESTION}, "id": "c"}]),
        GOOD,
    )
    middleware = QualityGateMiddleware(gate=gate, stream="sentences")
    agent, config = _traced_agent(model, middleware, client, "s")
    agent.invoke({"messages": [("user", QUESTION)]}, config)
    assert [f.value for f in _feedback(client, "qgate.decision")] == ["pass"]


# -- item 1: the recipe "how often did the gate reject this week, and why" ---------------------


def _week_of_verdicts(monitor, client) -> None:
    gate = _observed(monitor, client)
    for answer in (GOOD, BAD, GOOD, BAD, BAD):
        run = RunTree(name="answer", run_type="chain", client=client)
        with tracing_context(parent=run, enabled=True):
            gate.check(answer, REVENUE_DOCS, question=QUESTION)


def test_rejections_this_week_recipe_with_the_langsmith_sdk(monitor):
    client = FakeLangSmithClient()
    _week_of_verdicts(monitor, client)

    # the recipe of docs/production.md, as written there
    since = datetime.now(UTC) - timedelta(days=7)
    runs = client.list_runs(
        project_name="my-agent", start_time=since, filter='eq(feedback_key, "qgate.passed")'
    )
    verdicts = list(
        client.list_feedback(run_ids=[r.id for r in runs], feedback_key=["qgate.passed"])
    )
    rejected = [f for f in verdicts if f.score == 0]
    why = Counter(f.comment.split(":")[0] for f in rejected)

    assert (len(rejected), len(verdicts)) == (3, 5)
    assert why == {"retry (grounding+contradiction)": 3}


def test_rejections_this_week_recipe_with_plain_json_logs(monitor, tmp_path):
    class JsonLines(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return json.dumps({"time": record.created, **getattr(record, "qgate", {})})

    path = tmp_path / "verdicts.jsonl"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(JsonLines())
    log = logging.getLogger("langchain_qgate.verdicts")
    log.addHandler(handler)
    old_level = log.level
    log.setLevel(logging.DEBUG)
    try:
        _week_of_verdicts(monitor, FakeLangSmithClient())
    finally:
        log.removeHandler(handler)
        log.setLevel(old_level)
        handler.close()

    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    week = [v for v in lines if v["time"] > datetime.now(UTC).timestamp() - 7 * 86400]
    rejected = [v for v in week if not v["qgate.passed"]]
    why = Counter(v["qgate.cause"] for v in rejected)

    assert (len(rejected), len(week)) == (3, 5)
    assert why == {"grounding+contradiction": 3}


# -- item 2: reprs -------------------------------------------------------------------------------

POLICY_REPR = (
    "profile='strict', grounding_threshold=0.8, confidence_threshold=0.7, "
    "max_contradictions=0, max_retries=1, on_exhausted='escalate'"
)


def test_reprs_show_profile_thresholds_budget_and_evidence_source(monitor):
    policy = GatePolicy.from_profile("strict", max_retries=1)
    secret = [Document(page_content="The vault code is 4711.")]

    def my_evidence(state):
        return secret

    gate = QualityGate(monitor=monitor, policy=policy, observer=False)
    assert repr(gate) == f"QualityGate({POLICY_REPR}, monitor=HallucinationMonitor)"

    middleware = QualityGateMiddleware(gate=gate, evidence=secret, evidence_fn=my_evidence)
    assert repr(middleware) == (
        f"QualityGateMiddleware({POLICY_REPR}, evidence='tool messages + "
        "evidence_fn=test_reprs_show_profile_thresholds_budget_and_evidence_source."
        "<locals>.my_evidence + 1 static')"
    )
    handler = QualityGateCallbackHandler(gate=gate)
    assert repr(handler) == (
        f"QualityGateCallbackHandler({POLICY_REPR}, evidence='retriever and tool results')"
    )
    wrapped = with_quality_gate(
        RunnableLambda(lambda x: AIMessage(GOOD), name="answer"), gate=gate, evidence=secret
    )
    assert repr(wrapped) == (
        f"QualityGateRunnable[answer]({POLICY_REPR}, "
        "evidence='retriever and tool results + 1 static')"
    )
    streamer = QualityGateStreamer(gate=gate, min_support=0.3)
    assert repr(streamer) == (
        f"QualityGateStreamer({POLICY_REPR}, evidence=\"tool messages + state['evidence']\", "
        "min_support=0.3)"
    )
    assert repr(GateObserver(client=FakeLangSmithClient())) == (
        "GateObserver(sinks=['log', 'opentelemetry', 'langsmith'], client=FakeLangSmithClient)"
    )
    for obj in (middleware, wrapped, handler, streamer):
        assert "4711" not in repr(obj)  # evidence contents never appear


def test_repr_of_a_default_gate_names_the_lazy_monitor():
    gate = QualityGate(policy=GatePolicy.from_profile("brainstorm"), observer=False)
    assert repr(gate) == (
        "QualityGate(profile='brainstorm', grounding_threshold=0.4, confidence_threshold=0.3, "
        "max_contradictions=any, max_retries=3, on_exhausted='escalate', monitor=default)"
    )


# -- item 6: the no-evidence warning on every surface, once per run -------------------------------


def _no_evidence_warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and "no evidence given" in r.getMessage()
    ]


def test_middleware_warns_once_per_run_without_evidence(monitor, caplog):
    middleware = QualityGateMiddleware(
        gate=QualityGate(monitor=monitor, policy=GatePolicy(max_retries=2), observer=False)
    )
    model = ScriptedChatModel.from_replies(GOOD, GOOD, GOOD)
    agent = create_agent(model, tools=[], middleware=[middleware], checkpointer=InMemorySaver())
    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        result = agent.invoke(
            {"messages": [("user", QUESTION)]}, {"configurable": {"thread_id": "m"}}
        )
    assert "__interrupt__" in result  # escalated after 3 attempts ...
    assert len(model.calls) == 3
    assert _no_evidence_warnings(caplog) == [  # ... and said why, once
        "quality gate (middleware): no evidence given, so every factual claim is graded "
        "fabricated; check that your documents or retriever results reach the gate"
    ]


def _graph(monitor, retrieved: list[Document]):
    gate = QualityGate(monitor=monitor, policy=GatePolicy(max_retries=1), observer=False)
    model = ScriptedChatModel.from_replies(GOOD, GOOD)

    def retrieve(state):
        return {"evidence": retrieved}

    def generate(state):
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(QualityGateState)
    builder.add_node("retrieve", retrieve)
    builder.add_node("generate", generate)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", then=END, gate=gate)
    return builder.compile(checkpointer=InMemorySaver()), model


def test_graph_node_warns_once_when_the_retriever_finds_only_empty_documents(monitor, caplog):
    graph, model = _graph(monitor, [Document(page_content="  ")])
    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        graph.invoke({"messages": [("user", QUESTION)]}, {"configurable": {"thread_id": "g"}})
    assert len(model.calls) == 2
    [warning] = _no_evidence_warnings(caplog)
    assert warning.startswith("quality gate (graph): no evidence given")


def test_callback_warns_once_per_root_run(monitor, caplog):
    handler = QualityGateCallbackHandler(
        gate=QualityGate(monitor=monitor, observer=False), evidence=None
    )

    def two_answers(question: str) -> str:
        model = GenericFakeChatModel(messages=iter([GOOD, GOOD]))
        model.invoke(question)
        return model.invoke(question).content

    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        RunnableLambda(two_answers).invoke(QUESTION, {"callbacks": [handler]})
        RunnableLambda(two_answers).invoke(QUESTION, {"callbacks": [handler]})
    assert len(handler.checks) == 4
    assert [w.split(":")[0] for w in _no_evidence_warnings(caplog)] == [
        "quality gate (callback)",
        "quality gate (callback)",
    ]


def test_runnable_warns_once_per_invoke(monitor, caplog):
    calls: list[object] = []

    def answer(value: object) -> AIMessage:
        calls.append(value)
        return AIMessage(GOOD)

    gate = QualityGate(
        monitor=monitor,
        policy=GatePolicy(max_retries=2, on_exhausted="pass_with_warning"),
        observer=False,
    )
    gated = with_quality_gate(RunnableLambda(answer), gate=gate, evidence_fn=lambda x: [])
    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        result = gated.invoke({"question": QUESTION, "guidance": ""})
    assert result.response_metadata["qgate"]["decision"] == "pass_with_warning"
    assert len(calls) == 3
    [warning] = _no_evidence_warnings(caplog)
    assert warning.startswith("quality gate (runnable): no evidence given")


async def test_runnable_ainvoke_warns_once(monitor, caplog):
    gate = QualityGate(
        monitor=monitor,
        policy=GatePolicy(max_retries=1, on_exhausted="pass_with_warning"),
        observer=False,
    )
    gated = with_quality_gate(
        RunnableLambda(lambda x: AIMessage(GOOD)), gate=gate, evidence_fn=lambda x: None
    )
    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        result = await gated.ainvoke({"question": QUESTION, "guidance": ""})
    assert result.response_metadata["qgate"]["decision"] == "pass_with_warning"
    [warning] = _no_evidence_warnings(caplog)
    assert warning.startswith("quality gate (runnable): no evidence given")


def test_streaming_generator_graph_warns_once(monitor, caplog):
    from langchain_qgate.testing import ScriptedStreamingChatModel

    gate = QualityGate(monitor=monitor, policy=GatePolicy(max_retries=1), observer=False)
    streamer = QualityGateStreamer(gate=gate)
    model = ScriptedStreamingChatModel.from_replies(GOOD, GOOD)

    def generate(state):
        return {"messages": [streamer.generate(model, state["messages"], state)]}

    builder = StateGraph(QualityGateState)
    builder.add_node("generate", generate)
    builder.add_edge(START, "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", then=END, gate=gate)
    graph = builder.compile(checkpointer=InMemorySaver())
    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        graph.invoke({"messages": [("user", QUESTION)]}, {"configurable": {"thread_id": "st"}})
    assert len(_no_evidence_warnings(caplog)) == 1


def test_direct_check_still_warns_every_call(monitor, caplog):
    gate = QualityGate(monitor=monitor, observer=False)
    with caplog.at_level(logging.WARNING, logger="langchain_qgate"):
        gate.check(GOOD, [])
        gate.check(GOOD, [Document(page_content="")])
        gate.check(GOOD, REVENUE_DOCS)
    assert len(_no_evidence_warnings(caplog)) == 2


# -- item 7: settings from the environment and a config file -------------------------------------


def test_settings_precedence_code_over_env_over_file_over_profile(tmp_path, monkeypatch):
    config = tmp_path / "qgate.toml"
    config.write_text(
        "[qgate]\nprofile = 'strict'\nmax_retries = 5\ngrounding_threshold = 0.75\n"
        "on_exhausted = 'raise'\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("QGATE_CONFIG", str(config))
    monkeypatch.setenv("QGATE_MAX_RETRIES", "2")

    settings = load_settings()
    assert settings.sources["max_retries"] == "QGATE_MAX_RETRIES"
    assert settings.sources["on_exhausted"] == f"{config}: on_exhausted"

    policy = settings.policy()
    assert policy.max_retries == 2  # env over file
    assert policy.on_exhausted == "raise"  # file over the profile's default
    assert policy.grounding_threshold == 0.75  # file over the profile's threshold
    assert policy.confidence_threshold == 0.7  # the strict profile's default
    assert policy.profile == "strict"
    assert settings.policy(max_retries=0, on_exhausted="escalate").max_retries == 0  # code wins

    gate = QualityGate(observer=False)  # no policy given: the settings apply
    assert (gate.policy.max_retries, gate.policy.profile) == (2, "strict")
    explicit = QualityGate(policy=GatePolicy(), observer=False)  # an explicit policy wins whole
    assert (explicit.policy.max_retries, explicit.policy.profile) == (3, "default")
    per_call = {"configurable": {"qgate_max_retries": 1}}  # per call: above everything
    assert gate.effective_policy(per_call).max_retries == 1


def test_pyproject_tool_table_and_middleware_default_gate(tmp_path, monkeypatch, monitor):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        "[project]\nname = 'x'\n"
        "[tool.qgate]\nprofile = 'brainstorm'\nmax_contradictions = 'none'\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("QGATE_CONFIG", str(pyproject))
    middleware = QualityGateMiddleware(monitor=monitor)
    assert middleware.gate.policy.profile == "brainstorm"
    assert middleware.gate.policy.max_contradictions is None
    assert load_settings(env={}).values == {}  # the file comes from the env given


def test_pair_model_setting_reaches_the_lazily_built_monitor(monkeypatch):
    import langchain_qgate.grounding as grounding

    built: list = []

    class Monitor:
        def __init__(self, *, policy=None):
            built.append(policy)

    monkeypatch.setattr(grounding, "HallucinationMonitor", Monitor)
    monkeypatch.setenv("QGATE_PAIR_MODEL", "none")
    assert isinstance(QualityGate(observer=False).monitor, Monitor)
    assert built[0].pair_model is None
    monkeypatch.setenv("QGATE_PAIR_MODEL", "/models/verifier-v3")
    assert isinstance(QualityGate(observer=False).monitor, Monitor)
    assert built[1].pair_model == "/models/verifier-v3"


def test_size_limits_are_settings(monkeypatch):
    monkeypatch.setenv("QGATE_MAX_CLAIMS", "600")
    monkeypatch.setenv("QGATE_MAX_EVIDENCE_CHUNKS", "100000")
    policy = load_settings().grounding_policy()
    assert policy is not None
    assert (policy.max_claims, policy.max_evidence_chunks) == (600, 100_000)
    assert policy.pair_model == GroundingPolicy().pair_model  # unset: the default
    monkeypatch.setenv("QGATE_MAX_CLAIMS", "none")
    unlimited = load_settings().grounding_policy()
    assert unlimited is not None
    assert unlimited.max_claims is None
    monkeypatch.delenv("QGATE_MAX_CLAIMS")
    monkeypatch.delenv("QGATE_MAX_EVIDENCE_CHUNKS")
    assert load_settings().grounding_policy() is None


@pytest.mark.parametrize(
    ("name", "value", "detail"),
    [
        ("QGATE_MAX_RETRIES", "-1", "must be in [0, 2147483647]"),
        ("QGATE_MAX_RETRIES", "two", "could not convert string to float"),
        ("QGATE_GROUNDING_THRESHOLD", "1.5", "must be in [0, 1]"),
        ("QGATE_CONFIDENCE_THRESHOLD", "nan", "not a finite number"),
        ("QGATE_PROFILE", "lenient", "unknown profile 'lenient'"),
        ("QGATE_ON_EXHAUSTED", "ignore", "on_exhausted must be one of"),
        ("QGATE_PAIR_MODEL", " ", "expected 'bundled', a folder path or 'none'"),
        ("QGATE_MAX_CLAIMS", "0", "expected an integer >= 1"),
        ("QGATE_MAX_EVIDENCE_CHUNKS", "lots", "invalid literal for int()"),
        ("QGATE_MAX_EVIDENCE_CHUNKS", "none", "invalid literal for int()"),
        ("QGATE_CONFIG", "/no/such/qgate.toml", "cannot read '/no/such/qgate.toml'"),
    ],
)
def test_invalid_setting_raises_naming_the_variable(monkeypatch, name, value, detail):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        QualityGate(observer=False)
    assert caught.value.argument == name
    assert str(caught.value).startswith(f"invalid {name}: ")
    assert detail in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_bad_config_file_names_the_file_and_key(tmp_path):
    config = tmp_path / "qgate.toml"
    config.write_text("[qgate]\nmax_retry = 2\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"qgate.toml: max_retry: unknown setting"):
        load_settings(env={}, config_file=config)
    config.write_text("[qgate\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"qgate.toml: not valid TOML"):
        load_settings(env={"QGATE_CONFIG": str(config)})
    config.write_text("[qgate]\ngrounding_threshold = true\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"grounding_threshold: cannot use True"):
        load_settings(env={}, config_file=config)


def test_settings_are_deterministic_and_empty_by_default():
    assert load_settings(env={}) == GateSettings()
    assert GateSettings().policy() == GatePolicy()
