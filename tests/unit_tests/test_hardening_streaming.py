"""Issue 26, streaming and escalation: a regression test per item (9-12) from the issue's
reproducers, and the streaming fuzz set (``benchmarks/_hardening_streaming.py``) at CI size
with a fixed seed."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from benchmarks._hardening_streaming import run
from langchain_qgate import (
    GatePolicy,
    QualityGate,
    QualityGateMiddleware,
    QualityGateStreamer,
    with_quality_gate,
)
from langchain_qgate.errors import InvalidInputError, QualityGateRejected
from langchain_qgate.gate import RejectedOutput
from langchain_qgate.integrations._sentences import (
    SentenceStream,
    SentenceVerdict,
    check_streamed,
)
from langchain_qgate.testing import ScriptedStreamingChatModel, tokenize
from tests.unit_tests._qgate_fakes import (
    BAD,
    GOOD,
    QUESTION,
    RETRIEVER,
    SEARCH_TOOL,
    make_monitor,
    rag_responder,
)

GOOD_1 = "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million."
BAD_2 = "Revenue grew 45% from €36.8 million in fiscal year 2023."
STREAM_BAD = f"{GOOD_1} {BAD_2}"
COMPANY_EVIDENCE = "Company7 was founded in 1907 in City7. Company7 has 107 employees."
COMPANY_ANSWER = f"{COMPANY_EVIDENCE} Its CEO is Zorblax, who owns 9000 spaceships."
PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Context:\n{context}"), ("human", "{question}")]
)


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _lcel(monitor, model, policy: GatePolicy, **options: Any):
    return with_quality_gate(
        PROMPT | model,
        evidence_fn=lambda x: x["context"],
        monitor=monitor,
        policy=policy,
        stream="sentences",
        **options,
    )


def _lcel_input() -> dict[str, Any]:
    return {"question": QUESTION, "context": RETRIEVER.invoke(QUESTION)}


async def _collect(gated, value, *, use_async: bool) -> list[dict[str, Any]]:
    if use_async:
        return [e async for e in gated.astream(value)]
    return list(gated.stream(value))


async def _outcome(gated, value, *, use_async: bool) -> tuple[Any, ...]:
    try:
        events = await _collect(gated, value, use_async=use_async)
    except Exception as exc:
        return ("raised", type(exc).__name__)
    done = events[-1]
    return ("done", done["output"].response_metadata["qgate"]["decision"], done["text"])


def _whole(gated, value) -> tuple[Any, ...]:
    try:
        out = gated.invoke(value)
    except Exception as exc:
        return ("raised", type(exc).__name__)
    return ("done", out.response_metadata["qgate"]["decision"], out.text)


# -- item 9: a contradicted sentence is never "verified" ---------------------------------------
def test_sentence_event_is_unverified_when_its_check_passes_a_contradiction():
    out: list[Any] = []

    def check(text: str) -> SentenceVerdict:  # what a permissive profile says of it
        return SentenceVerdict(ok=True, grade="fabricated", support=0.5, contradicted=True)

    stream = SentenceStream(check=check, writer=out.append, attempt=1, stop_on_fail=False)
    for token in tokenize(STREAM_BAD):
        stream.feed(token)
    stream.end()
    assert [(e["text"], e["grade"], e["verified"]) for e in out] == [
        (GOOD_1, "fabricated", False),
        (BAD_2, "fabricated", False),
    ]


@pytest.mark.parametrize("use_async", [False, True])
async def test_brainstorm_streams_a_contradicted_sentence_unverified_with_its_grade(
    monitor, use_async
):
    policy = GatePolicy.from_profile("brainstorm", max_retries=0, on_exhausted="raise")
    model = ScriptedStreamingChatModel.from_replies(STREAM_BAD)
    events = await _collect(_lcel(monitor, model, policy), _lcel_input(), use_async=use_async)
    sentences = {e["text"]: e for e in events if e["type"] == "qgate.sentence"}
    assert sentences[GOOD_1]["verified"] is True
    assert sentences[BAD_2]["grade"] == "fabricated"  # shown: brainstorm tolerates it
    assert sentences[BAD_2]["verified"] is False
    assert events[-1]["type"] == "qgate.done"


# -- item 10: the streamed decision is the whole-answer decision -------------------------------
@pytest.mark.parametrize("use_async", [False, True])
@pytest.mark.parametrize("profile", ["strict", "default", "brainstorm"])
async def test_streamed_and_whole_answer_decisions_are_equal(monitor, profile, use_async):
    policy = GatePolicy(max_retries=0, on_exhausted="raise").with_profile(profile)

    def gated(stream: bool):
        return with_quality_gate(
            ScriptedStreamingChatModel.from_replies(COMPANY_ANSWER),
            evidence=COMPANY_EVIDENCE,
            monitor=monitor,
            policy=policy,
            stream="sentences" if stream else None,
        )

    question = "Tell me about Company7."
    streamed = await _outcome(gated(True), question, use_async=use_async)
    assert streamed == _whole(gated(False), question)


def test_stop_early_is_an_option_off_by_default(monitor):
    runnable = with_quality_gate(
        ScriptedStreamingChatModel.from_replies(GOOD), monitor=monitor, stream="sentences"
    )
    assert runnable.stop_early is False
    middleware = QualityGateMiddleware(monitor=monitor, stream="sentences")
    assert middleware._streaming is not None
    assert middleware._streaming.stop_early is False
    assert QualityGateStreamer(gate=QualityGate(monitor=monitor))._agent.stop_early is False


def test_stop_early_judges_the_attempt_by_its_failing_sentence(monitor):
    tail = " The company sells its inspection robots across Europe through certified partners."
    model = ScriptedStreamingChatModel.from_replies(STREAM_BAD + tail, GOOD)
    gated = _lcel(monitor, model, GatePolicy(max_retries=1), stop_early=True)
    events = list(gated.stream(_lcel_input()))
    retry = next(e for e in events if e["type"] == "qgate.retry")
    assert retry["stopped_early"] is True
    assert model.streamed[0] < len(tokenize(STREAM_BAD + tail)) - 5  # closed at BAD_2
    assert events[-1]["text"] == GOOD


# -- item 11: the draft is kept; a sentence is checked as the answer's sentence ---------------
def _agent(monitor, *, stream: str | None, policy: GatePolicy):
    model = ScriptedStreamingChatModel(respond=rag_responder([STREAM_BAD]))
    middleware = QualityGateMiddleware(monitor=monitor, policy=policy, stream=stream)
    return create_agent(
        model, tools=[SEARCH_TOOL], middleware=[middleware], checkpointer=InMemorySaver()
    )


async def _as_awaitable(agent, payload, config):
    return agent.invoke(payload, config)


@pytest.mark.parametrize("use_async", [False, True])
async def test_streamed_rejection_that_raises_keeps_the_draft_for_audit(monitor, use_async):
    policy = GatePolicy(max_retries=0, on_exhausted="raise")
    kept = []
    for stream in ("sentences", None):
        agent = _agent(monitor, stream=stream, policy=policy)
        config = {"configurable": {"thread_id": f"raise-{stream}"}}
        payload = {"messages": [("user", QUESTION)]}
        call = (
            agent.ainvoke(payload, config) if use_async else _as_awaitable(agent, payload, config)
        )
        with pytest.raises(QualityGateRejected):
            await call
        last = agent.get_state(config).values["messages"][-1]
        assert isinstance(last, AIMessage)
        kept.append(last.content)
    assert kept == [STREAM_BAD, STREAM_BAD]


def test_streamed_sentence_is_graded_as_the_whole_answer_grades_it(monitor):
    fragment = "€52.7 million."  # read with the question, it looks grounded
    answer = f"{GOOD_1} {fragment} Revenue grew 31% from €36.8 million in fiscal year 2023."
    model = ScriptedStreamingChatModel.from_replies(answer)
    gated = _lcel(monitor, model, GatePolicy(max_retries=0, on_exhausted="pass_with_warning"))
    events = list(gated.stream(_lcel_input()))
    event = next(e for e in events if e["type"] == "qgate.sentence" and e["text"] == fragment)
    claims = events[-1]["output"].response_metadata["qgate"]["claims"]
    whole = next(c for c in claims if c["text"] == fragment)
    assert not any(c["text"].startswith(QUESTION) for c in claims)
    assert event["grade"] == whole["grade"] != "grounded"


def test_guidance_for_a_stopped_sentence_never_quotes_the_question(monitor):
    gate = QualityGate(monitor=monitor, policy=GatePolicy(max_retries=1))
    failed = "Definitely €52.7 million in fiscal year 2024."
    record = {
        "attempt": 1,
        "stopped": True,
        "ended": False,
        "failed": "a1:1",
        "floor": None,
        "sentences": [{"id": "a1:0", "text": GOOD_1}, {"id": "a1:1", "text": failed}],
    }
    draft = f"{GOOD_1} {failed}"
    evidence = RETRIEVER.invoke(QUESTION)
    result = check_streamed(
        gate, draft, record, evidence, config=None, question=QUESTION, retries_used=0
    )
    assert not any(c.text.startswith(QUESTION) for c in result.metadata.claims)
    if isinstance(result, RejectedOutput):
        assert QUESTION not in result.guidance.to_model_message()


def test_one_sentence_answer_is_still_read_with_its_question(monitor):
    model = ScriptedStreamingChatModel.from_replies("€48.2 million.")
    gated = _lcel(monitor, model, GatePolicy(max_retries=0, on_exhausted="pass_with_warning"))
    events = list(gated.stream(_lcel_input()))
    claims = events[-1]["output"].response_metadata["qgate"]["claims"]
    # verified as "Q? A" (the sentence's grade is the claim's), reported as the answer says it
    assert [c["text"] for c in claims] == ["€48.2 million."]
    sentence = next(e for e in events if e["type"] == "qgate.sentence")
    assert sentence["grade"] == claims[0]["grade"]
    alone = monitor.verify_grounding("€48.2 million.", _lcel_input()["context"])
    assert claims[0]["support"] != pytest.approx(alone.verdicts[0].support)


# -- item 12: a malformed resume value -------------------------------------------------------
def test_malformed_resume_raises_a_qgate_error_saying_what_is_valid(monitor):
    model = ScriptedStreamingChatModel(respond=rag_responder([BAD]))
    middleware = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(max_retries=0))
    agent = create_agent(
        model, tools=[SEARCH_TOOL], middleware=[middleware], checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": "resume"}}
    assert "__interrupt__" in agent.invoke({"messages": [("user", QUESTION)]}, config)
    for bad in ({"type": "edit"}, {"type": "maybe"}, 42, {"type": "approve", "why": 1}):
        with pytest.raises(InvalidInputError) as info:
            agent.invoke(Command(resume=bad), config)
        assert info.value.argument == "resume"
        assert '{"type": "edit", "text": ' in str(info.value)
        assert '"approve"' in str(info.value)
    result = agent.invoke(Command(resume={"type": "edit", "text": GOOD}), config)
    assert result["messages"][-1].content == GOOD


def test_malformed_on_escalate_answer_raises_a_qgate_error(monitor):
    gated = with_quality_gate(
        ScriptedStreamingChatModel.from_replies(BAD),
        evidence=RETRIEVER.invoke(QUESTION),
        monitor=monitor,
        policy=GatePolicy(max_retries=0),
        on_escalate=lambda escalation: {"type": "edit"},
    )
    with pytest.raises(InvalidInputError, match="needs the replacement 'text'") as info:
        gated.invoke(QUESTION)
    assert info.value.argument == "on_escalate"


# -- the streaming fuzz set at CI size -----------------------------------------------------------
def test_streaming_fuzz_set_holds_its_properties(monitor):
    # The fourth property of the benchmark (no run over 10 s) is a timing: measured in
    # benchmarks/bench_hardening.py --streaming, not asserted here.
    result = run(30, seed=26, monitor=monitor, workers=3)
    total = result["total"]
    assert total["runs"] == 90  # every case streamed sequentially, in threads and async
    assert total["foreign_error_count"] == 0, result["modes"]["sequential"]["foreign_errors"]
    assert total["contradicted_sentences_marked_verified"] == 0
    assert total["decision_mismatches"] == 0, result["modes"]["sequential"]["mismatch_examples"]
    assert total["broken_streams_not_retracted"] == 0
    # the set exercises what it claims to: every profile and stream mangling, shown
    # contradictions, and streamed outcomes compared with the whole answer
    assert set(result["profiles"]) == {"strict", "default", "brainstorm"}
    assert len(result["mangles"]) == 5
    assert total["contradicted_sentences_shown"] > 0
    assert total["compared_with_whole_answer"] > 60
