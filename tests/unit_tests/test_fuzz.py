"""Fuzz the public entry points with hostile input (fixed seed, bounded budget).

Contract (issue 15): a defined verdict or a ``QGateError`` subclass, never another exception;
claim spans inside the text; scores finite in [0, 1]; invalid Unicode never reaches the
embedder. The large run with figures is ``benchmarks/bench_hardening.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.runnables import RunnableLambda
from langgraph.runtime import Runtime
from langgraph.store.memory import InMemoryStore

from langchain_qgate.errors import QGateError
from langchain_qgate.gate import GatePolicy, QualityGate
from langchain_qgate.grounding import HallucinationMonitor, extract_claims
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.integrations import (
    QualityGateCallbackHandler,
    QualityGateMiddleware,
    make_quality_gate_node,
    with_quality_gate,
)
from langchain_qgate.memory import QualityFilteredStore
from tests.unit_tests._hostile import (
    check_claims,
    check_decision,
    check_report,
    evidence_inputs,
    hostile_texts,
)

FUZZ = settings(
    derandomize=True,  # fixed seed: the same inputs on every run
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TEXTS = hostile_texts()
POLICY = GatePolicy(max_retries=1, on_exhausted="pass_with_warning")


class StrictEmbedder(HashingEmbedder):
    """The hashing embedder, failing the test if invalid Unicode reaches it."""

    def embed(self, texts: Any) -> Any:
        for text in texts:
            text.encode("utf-8")  # UnicodeEncodeError (not a QGateError) on a surrogate
        return super().embed(texts)


MONITOR = HallucinationMonitor(embedder=StrictEmbedder())
GATE = QualityGate(monitor=MONITOR, policy=POLICY)


@settings(FUZZ, max_examples=150)
@given(text=TEXTS, question=st.none() | TEXTS)
def test_fuzz_extract_claims_spans_inside_the_text(text: str, question: str | None) -> None:
    check_claims(text, extract_claims(text, question=question))


@settings(FUZZ, max_examples=150)
@given(answer=TEXTS, evidence=evidence_inputs(TEXTS), question=st.none() | TEXTS)
def test_fuzz_verify_and_gate_return_a_verdict_or_a_qgate_error(
    answer: str, evidence: Any, question: str | None
) -> None:
    try:
        report = MONITOR.verify_grounding(answer, evidence, question=question)
    except QGateError:
        return
    check_report(answer, report)
    check_decision(GATE.decide(answer, report))


ENTRY_POINTS = ["acheck", "middleware", "node", "callback", "runnable", "store"]


def _run(entry: str, answer: str, evidence: Any, question: str) -> None:
    messages = [HumanMessage(question, id="q-1"), AIMessage(answer, id="a-1")]
    if entry == "acheck":
        check_decision(asyncio.run(GATE.acheck(answer, evidence, question=question)))
    elif entry == "middleware":
        mw = QualityGateMiddleware(gate=GATE, evidence=evidence)
        update = mw.after_model({"messages": messages}, Runtime())
        assert update is not None
        assert "qgate_counters" in update
    elif entry == "node":
        node = make_quality_gate_node(gate=GATE)
        update = node.invoke({"messages": messages, "evidence": evidence})
        assert update["qgate_route"] in ("pass", "retry")
    elif entry == "callback":
        handler = QualityGateCallbackHandler(gate=GATE, evidence=evidence)
        generation = ChatGeneration(message=AIMessage(answer))
        handler.on_llm_end(LLMResult(generations=[[generation]]), run_id=_uuid())
        check = handler.latest()
        assert check is not None
        if check.decision is not None:
            check_decision(check.decision)
        else:  # the callback never raises: it records why grading failed
            assert check.error
            assert check.error.split(":")[0] in _QGATE_ERROR_NAMES, check.error
    elif entry == "runnable":
        gated = with_quality_gate(RunnableLambda(lambda _: answer), gate=GATE, evidence=evidence)
        gated.invoke(question)
    else:
        store = QualityFilteredStore(InMemoryStore(), embedder=StrictEmbedder())
        value = {"user": question, "assistant": answer, "session_id": question[:20]}
        outcome = store.put_with_outcome(("u", "episodes"), "k", value)
        assert outcome.action in ("stored", "skipped_insignificant", "skipped_duplicate")


_QGATE_ERROR_NAMES = {cls.__name__ for cls in (QGateError, *QGateError.__subclasses__())} | {
    sub.__name__ for cls in QGateError.__subclasses__() for sub in cls.__subclasses__()
}


def _uuid() -> Any:
    import uuid

    return uuid.uuid4()


@settings(FUZZ, max_examples=120)
@given(
    entry=st.sampled_from(ENTRY_POINTS),
    answer=TEXTS,
    evidence=evidence_inputs(TEXTS),
    question=TEXTS,
)
def test_fuzz_integrations_return_a_verdict_or_a_qgate_error(
    entry: str, answer: str, evidence: Any, question: str
) -> None:
    with contextlib.suppress(QGateError):
        _run(entry, answer, evidence, question)


@settings(FUZZ, max_examples=40)
@given(answer=TEXTS, evidence=TEXTS)
def test_fuzz_cli_check_exits_0_1_or_2_with_one_line(answer: str, evidence: str) -> None:
    import tempfile
    from contextlib import redirect_stderr, redirect_stdout
    from pathlib import Path
    from unittest import mock

    import langchain_qgate.grounding.evidence.embeddings as embeddings
    from langchain_qgate.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        a, e = Path(tmp) / "answer.txt", Path(tmp) / "evidence.md"
        a.write_bytes(answer.encode("utf-8", "surrogatepass"))  # surrogates: not UTF-8
        e.write_bytes(evidence.encode("utf-8", "surrogatepass"))
        out, err = io.StringIO(), io.StringIO()
        with (
            mock.patch.object(embeddings, "default_embedder", return_value=StrictEmbedder()),
            redirect_stdout(out),
            redirect_stderr(err),
        ):
            code = main(["check", "--answer", str(a), "--evidence", str(e), "--json"])
    if code in (0, 1):  # passed / rejected by the gate
        verdicts = json.loads(out.getvalue())["report"]["verdicts"]
        if any(v["counted"] for v in verdicts):
            assert err.getvalue() == ""
        else:  # one note: an answer without checkable claims passes
            assert code == 0
            assert err.getvalue().startswith(f"qgate check: warning: {a}: no checkable claims")
            assert err.getvalue().count("\n") == 1
    else:
        assert code == 2
        assert err.getvalue().count("\n") == 1
        assert err.getvalue().startswith("qgate check: error: ")
