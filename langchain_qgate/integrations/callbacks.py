"""``QualityGateCallbackHandler``: grade the outputs of any chain, agent or model call.

The handler observes and annotates; it never blocks and never raises (blocking is the job of
:func:`~langchain_qgate.integrations.runnable.with_quality_gate` or the middleware). It
collects evidence from retriever and tool runs (``on_retriever_end``, ``on_tool_end``),
grades every final model output (``on_llm_end``, chat generations included; tool-calling turns
are skipped) against the evidence gathered so far in the same top-level run, and keeps one
:class:`QualityCheck` per model run id. Evidence is keyed by the top-level run, so one handler
shared by concurrent invocations never mixes their evidence.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from pydantic import BaseModel, ConfigDict

from langchain_qgate.errors import QualityGateRejected
from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityGate, RejectedOutput
from langchain_qgate.gate.telemetry import gate_scope
from langchain_qgate.integrations._describe import evidence_source, surface_repr
from langchain_qgate.integrations._harvest import (
    EvidenceItem,
    flatten_evidence,
    last_question,
    message_text,
    question_from_input,
    tool_output_evidence,
)
from langchain_qgate.integrations._step import default_gate

if TYPE_CHECKING:
    from langchain_core.documents import Document

__all__ = ["EvidenceCollector", "QualityCheck", "QualityGateCallbackHandler"]

logger = logging.getLogger(__name__)


class QualityCheck(BaseModel):
    """The gate's verdict on one model output seen by the callback handler.

    Attributes:
        run_id: The model run.
        root_run_id: The top-level run it belongs to.
        output: The graded text.
        question: The question it answers, when one was seen.
        decision: The gate decision (``None`` when grading failed).
        evidence_count: Evidence items it was graded against.
        error: Why grading failed, when it did.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    run_id: UUID
    root_run_id: UUID
    output: str
    question: str | None = None
    decision: FilteredOutput | RejectedOutput | None = None
    evidence_count: int = 0
    error: str | None = None

    @property
    def passed(self) -> bool:
        """Whether the gate passed the output."""
        return isinstance(self.decision, FilteredOutput)


class EvidenceCollector(BaseCallbackHandler):
    """Collects retriever and tool results of one invocation (used by the LCEL wrapper)."""

    def __init__(self) -> None:
        """Create an empty collector."""
        self._lock = threading.Lock()
        self.evidence: list[EvidenceItem] = []

    def on_retriever_end(
        self, documents: Sequence[Document], *, run_id: UUID, **kwargs: Any
    ) -> None:
        """Keep the retrieved documents."""
        with self._lock:
            self.evidence.extend(documents)

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Keep the tool result."""
        items = tool_output_evidence(output, tool_name=kwargs.get("name"))
        with self._lock:
            self.evidence.extend(items)


class QualityGateCallbackHandler(BaseCallbackHandler):
    """Grade model outputs against the evidence retrieved in the same run.

    Args:
        gate: A configured gate; built from ``monitor`` and ``policy`` when omitted.
        monitor: Hallucination monitor for the default gate.
        policy: Gate policy for the default gate.
        evidence: Static evidence added to every check.
        annotate: Also attach the metadata to the generated message's
            ``response_metadata["qgate"]``.
        max_checks: Checks kept (oldest dropped first).

    Example:
        ```python
        handler = QualityGateCallbackHandler(policy=GatePolicy.from_profile("strict"))
        answer = rag_chain.invoke("What was 2024 revenue?", {"callbacks": [handler]})
        check = handler.latest()
        print(check.passed, check.decision.metadata.score)
        ```
    """

    raise_error = False

    def __init__(
        self,
        *,
        gate: QualityGate | None = None,
        monitor: Any = None,
        policy: GatePolicy | Mapping[str, Any] | None = None,
        evidence: Any = None,
        annotate: bool = True,
        max_checks: int = 1000,
    ) -> None:
        """Create the handler (see the class docstring for the arguments)."""
        if gate is not None and (monitor is not None or policy is not None):
            raise ValueError("pass either gate= or monitor=/policy=, not both")
        if max_checks < 1:
            raise ValueError(f"max_checks must be >= 1, got {max_checks}")
        self.gate = gate if gate is not None else default_gate(monitor, policy)
        self.static_evidence = flatten_evidence(evidence)
        self.annotate = annotate
        self.max_checks = max_checks
        self._lock = threading.Lock()
        self._parents: dict[UUID, UUID | None] = {}
        self._evidence: dict[UUID, list[EvidenceItem]] = {}
        self._questions: dict[UUID, str] = {}
        self._members: dict[UUID, list[UUID]] = {}
        self._checks: OrderedDict[UUID, QualityCheck] = OrderedDict()
        self._warned: set[UUID] = set()  # roots already warned about missing evidence

    def __repr__(self) -> str:
        source = evidence_source(
            harvested="retriever and tool results", static=self.static_evidence
        )
        return surface_repr(type(self).__name__, self.gate, source)

    # -- run tree --------------------------------------------------------------------------
    def _start(self, run_id: UUID, parent_run_id: UUID | None) -> None:
        with self._lock:
            self._parents[run_id] = parent_run_id
            self._members.setdefault(self._root(run_id), []).append(run_id)

    def _root(self, run_id: UUID) -> UUID:
        seen = set()
        current = run_id
        while (parent := self._parents.get(current)) is not None and current not in seen:
            seen.add(current)
            current = parent
        return current

    def _end_root(self, run_id: UUID, parent_run_id: UUID | None) -> None:
        if parent_run_id is not None:
            return
        with self._lock:
            self._evidence.pop(run_id, None)
            self._questions.pop(run_id, None)
            self._warned.discard(run_id)
            for member in self._members.pop(run_id, [run_id]):
                self._parents.pop(member, None)

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: dict[str, Any] | Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Track the run tree; a top-level chain's input gives the user's question."""
        self._start(run_id, parent_run_id)
        if parent_run_id is None:
            question = question_from_input(inputs)
            if question is not None:
                with self._lock:
                    self._questions[run_id] = question

    def on_chain_end(
        self,
        outputs: dict[str, Any] | Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Drop the evidence of a finished top-level run (its checks are kept)."""
        self._end_root(run_id, parent_run_id)

    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Track the run tree."""
        self._start(run_id, parent_run_id)

    def on_retriever_start(
        self,
        serialized: dict[str, Any] | None,
        query: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Track the run tree; the query stands in for the question when none is seen."""
        self._start(run_id, parent_run_id)
        with self._lock:
            self._questions.setdefault(self._root(run_id), query)

    def on_llm_start(
        self,
        serialized: dict[str, Any] | None,
        prompts: list[str],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Track the run tree."""
        self._start(run_id, parent_run_id)

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Track the run tree; the last user turn is the question when no chain gave one.

        A prompt template renders the question into a larger user turn (with the context), so
        the top-level chain's input (``question`` / ``input`` / ``query`` key, or a string)
        wins over it.
        """
        self._start(run_id, parent_run_id)
        question = last_question(messages[0]) if messages else None
        if question is not None:
            with self._lock:
                self._questions.setdefault(self._root(run_id), message_text(question))

    # -- evidence --------------------------------------------------------------------------
    def on_retriever_end(
        self,
        documents: Sequence[Document],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Add the retrieved documents to the evidence of the top-level run."""
        with self._lock:
            self._evidence.setdefault(self._root(run_id), []).extend(documents)

    def on_tool_end(
        self,
        output: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Add the tool result to the evidence of the top-level run."""
        items = tool_output_evidence(output, tool_name=kwargs.get("name"))
        with self._lock:
            self._evidence.setdefault(self._root(run_id), []).extend(items)

    # -- grading ---------------------------------------------------------------------------
    def on_llm_end(
        self,
        response: LLMResult,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Grade the first generation of a final answer; never raises."""
        if not response.generations or not response.generations[0]:
            return
        generation = response.generations[0][0]
        message = generation.message if isinstance(generation, ChatGeneration) else None
        if isinstance(message, AIMessage) and message.tool_calls:
            return
        with self._lock:
            self._parents.setdefault(run_id, parent_run_id)
            root = self._root(run_id)
            evidence = [*self.static_evidence, *self._evidence.get(root, [])]
            question = self._questions.get(root)
            first = root not in self._warned
            self._warned.add(root)
        output: Any = message if message is not None else generation.text
        with gate_scope("callback", run_id=run_id, warn_no_evidence=first):
            check = self._grade(run_id, root, output, evidence, question)
        if self.annotate and message is not None and check.decision is not None:
            message.response_metadata["qgate"] = check.decision.metadata.model_dump(mode="json")
        with self._lock:
            self._checks[run_id] = check
            while len(self._checks) > self.max_checks:
                self._checks.popitem(last=False)
        self._end_root(run_id, parent_run_id)

    def _grade(
        self,
        run_id: UUID,
        root: UUID,
        output: Any,
        evidence: list[EvidenceItem],
        question: str | None,
    ) -> QualityCheck:
        text = message_text(output) if not isinstance(output, str) else output
        base: dict[str, Any] = {
            "run_id": run_id,
            "root_run_id": root,
            "output": text,
            "question": question,
            "evidence_count": len(evidence),
        }
        try:
            decision = self.gate.check(output, evidence, question=question)
        except QualityGateRejected as exc:
            payload = exc.payload if isinstance(exc.payload, RejectedOutput) else None
            return QualityCheck(**base, decision=payload, error=str(exc))
        except Exception as exc:  # observe only: a grading failure must not break the run
            logger.warning("quality gate callback could not grade run %s: %s", run_id, exc)
            return QualityCheck(**base, error=f"{type(exc).__name__}: {exc}")
        return QualityCheck(**base, decision=decision)

    # -- reading ---------------------------------------------------------------------------
    @property
    def checks(self) -> dict[UUID, QualityCheck]:
        """All kept checks by model run id, oldest first (a copy)."""
        with self._lock:
            return dict(self._checks)

    def checks_for(self, root_run_id: UUID) -> list[QualityCheck]:
        """The checks of one top-level run, in order."""
        with self._lock:
            return [c for c in self._checks.values() if c.root_run_id == root_run_id]

    def latest(self) -> QualityCheck | None:
        """The most recent check, if any."""
        with self._lock:
            return next(reversed(self._checks.values()), None)

    def clear(self) -> None:
        """Forget every check and pending evidence."""
        with self._lock:
            self._checks.clear()
            self._evidence.clear()
            self._questions.clear()
            self._parents.clear()
            self._members.clear()
