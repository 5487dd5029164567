"""Verified streaming (``stream="sentences"``): sentences gated as they complete, early stop,
the ``qgate.*`` events on retry, escalation and ``pass_with_warning``; agents, LCEL, graphs;
sync and async; a stream that breaks mid-sentence; a model that cannot stream."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from langchain_qgate import (
    GatePolicy,
    QualityGate,
    QualityGateMiddleware,
    QualityGateState,
    QualityGateStreamer,
    add_quality_gate,
    with_quality_gate,
)
from langchain_qgate.integrations._sentences import SentenceStream, SentenceVerdict
from langchain_qgate.testing import (
    ScriptedChatModel,
    ScriptedStreamingChatModel,
    StreamBrokenError,
    tokenize,
)
from tests.unit_tests._qgate_fakes import (
    QUESTION,
    RETRIEVER,
    SEARCH_TOOL,
    make_monitor,
    rag_responder,
)

GOOD_1 = "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million."
GOOD_2 = "Revenue grew 31% from €36.8 million in fiscal year 2023."
BAD_2 = "Revenue grew 45% from €36.8 million in fiscal year 2023."
TAIL = (
    " The company designs autonomous inspection robots for industrial sites,"
    " and it sells them across Europe through a network of certified partners."
)
GOOD = f"{GOOD_1} {GOOD_2}"
STREAM_BAD = f"{GOOD_1} {BAD_2}{TAIL}"


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


# what the app sees when a first draft fails on a sentence and the retry passes
RETRY_THEN_PASS = [
    "qgate.sentence",
    "qgate.retracted",
    "qgate.retry",
    "qgate.sentence",
    "qgate.sentence",
    "qgate.done",
]


def _model(answers, cls: type[ScriptedChatModel] = ScriptedStreamingChatModel, **options):
    return cls(respond=rag_responder(answers), **options)


def _agent(monitor, model, *, stream="sentences", stop_early=False, **policy):
    gate_mw = QualityGateMiddleware(
        monitor=monitor, policy=GatePolicy(**policy), stream=stream, stop_early=stop_early
    )
    return create_agent(
        model, tools=[SEARCH_TOOL], middleware=[gate_mw], checkpointer=InMemorySaver()
    )


def _run(agent, thread="t1", payload=None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    config = {"configurable": {"thread_id": thread}}
    payload = payload if payload is not None else {"messages": [("user", QUESTION)]}
    events = [e for mode, e in agent.stream(payload, config, stream_mode=["custom"]) if e]
    return events, agent.get_state(config).values


async def _arun(agent, thread="t1", payload=None):
    config = {"configurable": {"thread_id": thread}}
    payload = payload if payload is not None else {"messages": [("user", QUESTION)]}
    events = [e async for mode, e in agent.astream(payload, config, stream_mode=["custom"])]
    return events, (await agent.aget_state(config)).values


def _types(events) -> list[str]:
    return [e["type"] for e in events]


# -- the engine ------------------------------------------------------------------------------
def _engine(check=None, *, stop=True) -> tuple[SentenceStream, list[Any]]:
    out: list[Any] = []
    ok = check or (lambda text: SentenceVerdict(ok=True, grade="grounded", support=1.0))
    return SentenceStream(check=ok, writer=out.append, attempt=1, stop_on_fail=stop), out


def test_sentence_is_complete_only_when_the_next_one_has_started():
    stream, out = _engine()
    text = "Dr. Smith grew revenue 3.5% in the U.S. Army market. It was 2024."
    for tok in tokenize(text):
        stream.feed(tok)
        if tok == " It":  # the next sentence's first word is not finished yet
            assert out == []
    assert [e["text"] for e in out] == ["Dr. Smith grew revenue 3.5% in the U.S. Army market."]
    stream.end()
    assert [e["text"] for e in out][-1] == "It was 2024."
    assert all(e["type"] == "qgate.sentence" and e["verified"] for e in out)
    assert len(stream.lags) == 2


def test_failing_sentence_stops_the_stream_and_keeps_the_partial_draft():
    def check(text):
        return SentenceVerdict(ok="45%" not in text, grade="fabricated", support=0.1)

    stream, out = _engine(check)
    stopped_at = None
    for n, tok in enumerate(tokenize(STREAM_BAD)):
        if stream.feed(tok):
            stopped_at = n
            break
    assert stopped_at is not None
    assert stopped_at < len(tokenize(STREAM_BAD)) - 5
    assert stream.text == f"{GOOD_1} {BAD_2}"
    meta = stream.meta()
    assert meta["stopped"]
    assert meta["failed"] == stream.sentences[1].id
    assert [s["status"] for s in meta["sentences"]] == ["shown", "failed"]
    assert [e["text"] for e in out] == [GOOD_1]


def test_last_attempt_holds_the_failing_sentence_and_the_rest():
    def check(text):
        return SentenceVerdict(ok="45%" not in text, grade=None, support=0.0)

    stream, out = _engine(check, stop=False)
    for tok in tokenize(STREAM_BAD):
        assert not stream.feed(tok)
    stream.end()
    assert [e["text"] for e in out] == [GOOD_1]
    assert [s.status for s in stream.sentences] == ["shown", "held", "held", "held"][
        : len(stream.sentences)
    ]


def test_no_evidence_holds_every_sentence_for_the_final_decision():
    out: list[Any] = []
    stream = SentenceStream(check=None, writer=out.append, attempt=1, stop_on_fail=True)
    for tok in tokenize(GOOD):
        stream.feed(tok)
    stream.end()
    assert out == []
    assert len(stream.sentences) == 2


# -- the agent middleware ---------------------------------------------------------------------
def test_agent_stop_early_stops_a_contradicted_draft_and_streams_the_correction(monitor):
    model = _model([STREAM_BAD, GOOD])
    events, state = _run(_agent(monitor, model, max_retries=1, stop_early=True))
    assert _types(events) == RETRY_THEN_PASS
    first, retracted, retry = events[:3]
    assert first["text"] == GOOD_1
    assert first["attempt"] == 1
    assert first["grade"] == "grounded"
    assert retracted["ids"] == [first["id"]]
    assert retry["stopped_early"]
    assert retry["failed_sentence"] == f"{first['id'][:-2]}:1"
    assert "45%" in retry["summary"]
    assert [e["text"] for e in events[3:5]] == [GOOD_1, GOOD_2]
    assert all(e["attempt"] == 2 for e in events[3:])
    assert events[-1]["decision"] == "pass"
    assert events[-1]["text"] == GOOD
    # the model stream was closed at the failing sentence
    assert model.streamed[1] < len(tokenize(STREAM_BAD))
    assert not any(BAD_2 in e.get("text", "") for e in events if e["type"] == "qgate.sentence")
    final = state["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate"]["decision"] == "pass"
    audit = final.response_metadata["qgate_rejected_drafts"]
    assert audit[0]["draft"] == f"{GOOD_1} {BAD_2}"  # the partial draft, kept for audit


def test_agent_runs_a_failing_draft_to_its_end_and_retries_on_the_whole_answer(monitor):
    model = _model([STREAM_BAD, GOOD])
    events, state = _run(_agent(monitor, model, max_retries=1))
    assert _types(events) == RETRY_THEN_PASS
    retry = events[2]
    assert retry["stopped_early"] is False
    assert retry["failed_sentence"] is None
    assert "45%" in retry["summary"]
    assert model.streamed[1] == len(tokenize(STREAM_BAD))  # not stopped: judged whole
    final = state["messages"][-1]
    assert final.content == GOOD
    assert final.response_metadata["qgate_rejected_drafts"][0]["draft"] == STREAM_BAD


async def test_agent_async_stop_early_stops_and_streams_the_correction(monitor):
    model = _model([STREAM_BAD, GOOD], token_delay=0.001)
    events, state = await _arun(_agent(monitor, model, max_retries=1, stop_early=True))
    assert _types(events) == RETRY_THEN_PASS
    assert model.streamed[1] < len(tokenize(STREAM_BAD))
    assert state["messages"][-1].content == GOOD


@pytest.mark.parametrize(
    ("answers", "policy"),
    [
        ([GOOD], {"max_retries": 1}),
        ([STREAM_BAD, GOOD], {"max_retries": 1}),
        ([STREAM_BAD], {"max_retries": 0, "on_exhausted": "pass_with_warning"}),
    ],
)
def test_streamed_and_whole_answer_paths_reach_the_same_decision(monitor, answers, policy):
    decisions = []
    for stream in ("sentences", None):
        model = _model(answers)
        _events, state = _run(_agent(monitor, model, stream=stream, **policy), thread="same")
        final = state["messages"][-1]
        audit = final.response_metadata.get("qgate_rejected_drafts", [])
        decisions.append((final.content, final.response_metadata["qgate"]["decision"], len(audit)))
    assert decisions[0] == decisions[1]


def test_escalation_retracts_what_was_shown_and_resumes_with_done(monitor):
    model = _model([STREAM_BAD])
    agent = _agent(monitor, model, max_retries=0)
    events, state = _run(agent, thread="esc")
    assert _types(events) == ["qgate.sentence", "qgate.retracted", "qgate.escalated"]
    assert model.streamed[1] == len(tokenize(STREAM_BAD))  # last attempt: not stopped
    assert events[1]["ids"] == [events[0]["id"]]
    assert state["messages"][-1].response_metadata["qgate_status"] == "held_for_review"
    resumed, state = _run(agent, thread="esc", payload=Command(resume={"type": "approve"}))
    assert _types(resumed) == ["qgate.done"]
    assert resumed[0]["decision"] == "approved"
    assert resumed[0]["text"] == STREAM_BAD


def test_reviewer_reject_streams_a_retry_then_the_new_attempt(monitor):
    model = _model([STREAM_BAD, GOOD])
    agent = _agent(monitor, model, max_retries=0)
    events, _state = _run(agent, thread="esc-reject")
    assert _types(events) == ["qgate.sentence", "qgate.retracted", "qgate.escalated"]
    decision = {"type": "reject", "message": "Use the annual report's growth figure."}
    resumed, state = _run(agent, thread="esc-reject", payload=Command(resume=decision))
    assert _types(resumed) == ["qgate.retry", "qgate.sentence", "qgate.sentence", "qgate.done"]
    assert resumed[0]["summary"] == "Rejected by a reviewer: Use the annual report's growth figure."
    assert resumed[0]["retries_left"] == 0  # the policy's budget again (max_retries=0)
    assert resumed[-1]["decision"] == "pass"
    assert resumed[-1]["text"] == GOOD
    assert state["messages"][-1].content == GOOD


def test_pass_with_warning_shows_the_warning_before_the_held_sentences(monitor):
    model = _model([STREAM_BAD])
    agent = _agent(monitor, model, max_retries=0, on_exhausted="pass_with_warning")
    events, state = _run(agent, thread="warn")
    assert _types(events)[:2] == ["qgate.sentence", "qgate.warning"]
    held = [e for e in events[2:] if e["type"] == "qgate.sentence"]
    assert held[0]["text"] == BAD_2
    assert held[0]["verified"] is False
    assert events[-1]["type"] == "qgate.done"
    assert events[-1]["decision"] == "pass_with_warning"
    shown = " ".join(e["text"] for e in events if e["type"] == "qgate.sentence")
    assert shown == STREAM_BAD
    assert state["messages"][-1].response_metadata["qgate_warning"]


def test_broken_stream_retracts_the_shown_sentences_and_raises(monitor):
    model = _model([STREAM_BAD], break_after=20, break_on_call=1)
    agent = _agent(monitor, model, max_retries=1)
    events: list[Any] = []
    config = {"configurable": {"thread_id": "broken"}}

    def consume() -> None:
        stream = agent.stream({"messages": [("user", QUESTION)]}, config, stream_mode=["custom"])
        events.extend(event for _mode, event in stream)

    with pytest.raises(StreamBrokenError):
        consume()
    assert _types(events) == ["qgate.sentence", "qgate.retracted"]
    assert events[0]["text"] == GOOD_1


async def test_broken_stream_async_retracts_and_raises(monitor):
    model = _model([GOOD], break_after=18, break_on_call=1)
    agent = _agent(monitor, model, max_retries=1)
    events: list[Any] = []
    config = {"configurable": {"thread_id": "abroken"}}

    async def consume() -> None:
        payload = {"messages": [("user", QUESTION)]}
        async for _mode, event in agent.astream(payload, config, stream_mode=["custom"]):
            events.append(event)

    with pytest.raises(StreamBrokenError):
        await consume()
    assert _types(events) == ["qgate.sentence", "qgate.retracted"]


@pytest.mark.parametrize("use_async", [False, True])
async def test_model_that_cannot_stream_is_gated_as_a_whole_message(monitor, use_async):
    model = _model([STREAM_BAD, GOOD], cls=ScriptedChatModel)
    agent = _agent(monitor, model, max_retries=1)
    events, state = await _arun(agent, "ns") if use_async else _run(agent, "ns")
    # no early stop without a token stream: the first sentence was shown, then retracted
    assert _types(events) == RETRY_THEN_PASS
    assert state["messages"][-1].content == GOOD


def test_tool_calling_turns_emit_nothing(monitor):
    model = _model([GOOD])
    events, _state = _run(_agent(monitor, model, max_retries=1), thread="tools")
    assert all(e["attempt"] == 1 for e in events)
    assert _types(events) == ["qgate.sentence", "qgate.sentence", "qgate.done"]


def test_stream_option_is_validated():
    with pytest.raises(ValueError, match="stream"):
        QualityGateMiddleware(stream="tokens")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="min_support"):
        QualityGateMiddleware(stream="sentences", min_support=2.0)


# -- LCEL -------------------------------------------------------------------------------------
_PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Context:\n{context}"), ("human", "{question}")]
)


def _lcel(monitor, model, *, stop_early=False):
    return with_quality_gate(
        _PROMPT | model,
        evidence_fn=lambda x: x["context"],
        monitor=monitor,
        policy=GatePolicy(max_retries=1),
        stream="sentences",
        stop_early=stop_early,
    )


def _lcel_input():
    return {"question": QUESTION, "context": RETRIEVER.invoke(QUESTION)}


@pytest.mark.parametrize("stop_early", [False, True])
def test_lcel_stream_yields_gated_sentences_and_the_output(monitor, stop_early):
    model = ScriptedStreamingChatModel.from_replies(STREAM_BAD, GOOD)
    events = list(_lcel(monitor, model, stop_early=stop_early).stream(_lcel_input()))
    assert _types(events) == RETRY_THEN_PASS
    assert events[2]["stopped_early"] is stop_early
    whole = model.streamed[0] == len(tokenize(STREAM_BAD))
    assert whole is not stop_early
    output = events[-1]["output"]
    assert output.content == GOOD
    assert output.response_metadata["qgate"]["decision"] == "pass"
    guidance = model.calls[1][-1].content  # the retry gets the failing sentence's guidance
    assert guidance.startswith("Your previous answer")
    assert "not 45%" in guidance


async def test_lcel_astream_yields_gated_sentences(monitor):
    model = ScriptedStreamingChatModel.from_replies(STREAM_BAD, GOOD, token_delay=0.001)
    events = [e async for e in _lcel(monitor, model).astream(_lcel_input())]
    assert _types(events)[:3] == ["qgate.sentence", "qgate.retracted", "qgate.retry"]
    assert events[-1]["type"] == "qgate.done"
    assert events[-1]["text"] == GOOD


def test_lcel_without_stream_option_streams_as_before(monitor):
    model = ScriptedStreamingChatModel.from_replies(GOOD)
    gated = with_quality_gate(_PROMPT | model, evidence_fn=lambda x: x["context"], monitor=monitor)
    chunks = list(gated.stream(_lcel_input()))
    assert len(chunks) == 1
    assert chunks[0].content == GOOD


# -- a streaming generator node in a hand-built graph -----------------------------------------
def _graph(monitor, model, *, use_async=False, stop_early=False):
    gate = QualityGate(monitor=monitor, policy=GatePolicy(max_retries=1))
    streamer = QualityGateStreamer(gate=gate, stop_early=stop_early)

    def prompt(state):
        context = ToolMessage(
            content="\n".join(d.page_content for d in state["evidence"]), tool_call_id="ctx"
        )
        return [state["messages"][0], context, *state["messages"][1:]]

    def retrieve(state):
        return {"evidence": RETRIEVER.invoke(QUESTION)}

    def generate(state):
        return {"messages": [streamer.generate(model, prompt(state), state)]}

    async def agenerate(state):
        return {"messages": [await streamer.agenerate(model, prompt(state), state)]}

    builder = StateGraph(QualityGateState)
    builder.add_node("retrieve", retrieve)
    builder.add_node("generate", agenerate if use_async else generate)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", then=END, gate=gate)
    return builder.compile(checkpointer=InMemorySaver())


@pytest.mark.parametrize("stop_early", [False, True])
def test_graph_gate_node_works_with_a_streaming_generator(monitor, stop_early):
    model = _model([STREAM_BAD, GOOD])
    graph = _graph(monitor, model, stop_early=stop_early)
    config = {"configurable": {"thread_id": "g"}}
    events = list(graph.stream({"messages": [("user", QUESTION)]}, config, stream_mode="custom"))
    assert _types(events) == RETRY_THEN_PASS
    assert (model.streamed[0] < len(tokenize(STREAM_BAD))) is stop_early
    state = graph.get_state(config).values
    assert state["messages"][-1].content == GOOD
    assert state["qgate_metadata"]["decision"] == "pass"


async def test_graph_gate_node_works_with_an_async_streaming_generator(monitor):
    model = _model([STREAM_BAD, GOOD], token_delay=0.001)
    graph = _graph(monitor, model, use_async=True)
    config = {"configurable": {"thread_id": "ag"}}
    events = [
        e
        async for e in graph.astream(
            {"messages": [("user", QUESTION)]}, config, stream_mode="custom"
        )
    ]
    assert _types(events)[:3] == ["qgate.sentence", "qgate.retracted", "qgate.retry"]
    assert events[-1]["type"] == "qgate.done"
    assert events[-1]["text"] == GOOD


def test_streaming_fake_sends_tool_calls_as_a_chunk():
    call = {"name": "search_docs", "args": {"query": "x"}, "id": "c1"}
    model = ScriptedStreamingChatModel.from_replies(AIMessage("Searching.", tool_calls=[call]))
    chunks = list(model.stream("q"))
    assert "".join(str(c.content) for c in chunks) == "Searching."
    assert any(c.tool_call_chunks for c in chunks)
