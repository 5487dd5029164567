"""Structured outputs that cite evidence ids: reject citations of evidence never retrieved.

An agent with ``response_format=<pydantic model>`` (``create_agent``) or a chain using
``with_structured_output`` may return an answer whose citation fields name evidence ids. A
cited id that is not the id of any evidence the run actually retrieved is a fabricated
citation: the answer is rejected with :class:`~langchain_qgate.gate.RetryGuidance` exactly as
a fabricated claim would be, the model retries, and when the retry budget of the
:class:`~langchain_qgate.gate.GatePolicy` is spent its ``on_exhausted`` policy applies.

- :func:`gate_structured_output`: the gate step for one structured answer (no agent needed).
- :func:`evidence_ids_from` / :func:`evidence_ids_from_messages`: the ids of evidence given
  directly (``Document``, ``EvidenceChunk``, dicts), or retrieved by a run, read from its
  ``ToolMessage`` artifacts (``Document.id`` / ``metadata["id"]``, ``EvidenceChunk.id``) and
  JSON tool results (``"id"`` / ``"evidence_id"`` / ``"doc_id"`` ... keys).
- :class:`StructuredCitationMiddleware`: the same inside ``create_agent``.

The check is deterministic and all-or-nothing: one unknown id rejects the answer whatever
the thresholds (the policy supplies the retry budget, the exhaustion policy and the profile
name). Free-text fields of the answer are not graded here; use ``QualityGate`` for those.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ResponseT,
    hook_config,
)
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.typing import ContextT
from pydantic import BaseModel

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityMetadata, RejectedOutput
from langchain_qgate.integrations._citations import (
    REJECTION_MARKER,
    as_judge,
    evidence_ids_from,
    evidence_ids_from_messages,
    gate_structured_output,
)
from langchain_qgate.integrations._review import (
    EscalationRequest,
    ask_human,
    granted_config,
    require_checkpointer,
    reviewed_metadata,
)
from langchain_qgate.integrations._step import current_config
from langchain_qgate.judge import CitationJudge, IdSource, resolve_ids

if TYPE_CHECKING:
    from langgraph.runtime import Runtime

__all__ = [
    "REJECTION_MARKER",
    "StructuredCitationMiddleware",
    "evidence_ids_from",
    "evidence_ids_from_messages",
    "gate_structured_output",
]


# --------------------------------------------------------------------------- middleware


def _marked(message: BaseMessage) -> bool:
    return bool(message.response_metadata.get(REJECTION_MARKER))


_REVIEW_KEY = "qgate_review_reject"
"""``response_metadata`` key of the message carrying a reviewer's reject: its value is
``{"retries": N}`` (``None``: the policy's budget), the fresh budget that reject granted."""


def _retries_used(messages: Sequence[BaseMessage]) -> tuple[int, int | None]:
    """Citation rejections since the last user turn or reviewer's reject (guidance turns
    excluded), and the retries that reject granted (``None``: the policy's budget)."""
    used = 0
    for message in reversed(messages):
        review = message.response_metadata.get(_REVIEW_KEY)
        if isinstance(review, Mapping):  # a reviewer's reject starts a fresh budget
            granted = review.get("retries")
            return used, granted if isinstance(granted, int) else None
        if _marked(message):
            used += 1
        elif isinstance(message, HumanMessage):
            break
    return used, None


def _with_metadata(message: AIMessage, meta: QualityMetadata) -> AIMessage:
    dumped = meta.model_dump(mode="json")
    return message.model_copy(
        update={"response_metadata": {**message.response_metadata, "qgate": dumped}}
    )


class StructuredCitationMiddleware(AgentMiddleware[AgentState[ResponseT], ContextT, ResponseT]):
    """Reject structured answers of ``create_agent`` that cite evidence never retrieved.

    Runs in ``after_model`` on every fresh ``structured_response`` (``ToolStrategy``,
    ``ProviderStrategy`` or a bare schema). The valid ids are the evidence the run retrieved
    (see :func:`evidence_ids_from_messages`), plus ``static_ids`` and ``evidence_ids(state)``.

    - Pass: the structured response stands; the model's message gets the quality metadata in
      ``response_metadata["qgate"]``.
    - Reject with retries left: the structured response is cleared and the model-facing
      guidance goes back to the model (as the structured-output tool's result under
      ``ToolStrategy``, as a user turn otherwise); the agent jumps back to the model.
    - Budget spent: ``"escalate"`` pauses with ``interrupt()`` (payload: an escalation
      request; resume with ``"approve"``, ``{"type": "edit", "text": <JSON answer>}`` or
      ``{"type": "reject", "message": ..., "retries": N}``), ``"pass_with_warning"`` keeps the
      answer with a warning in its metadata, ``"raise"`` raises ``QualityGateRejected``. A
      reject sends ``"A reviewer rejected your answer: <message>"`` to the model (as the
      structured-output tool's result or a user turn, as guidance goes) with a fresh retry
      budget: the policy's ``max_retries``, or ``retries`` when given.

    Retries are counted from the guidance messages of the current turn (since the last
    reviewer's reject), so they live in the checkpointed state, never on the middleware
    instance.

    Args:
        citations: A :class:`~langchain_qgate.judge.CitationJudge`, or the citation path(s)
            of the response schema (``"claims[].evidence_ids"``).
        policy: Retry budget and exhaustion policy (``GatePolicy()`` when omitted);
            per-call overrides come from ``config["configurable"]``.
        static_ids: Ids that are always valid (a static corpus given in the prompt).
        evidence_ids: ``evidence_ids(state) -> ids`` for evidence kept elsewhere in state.
        id_pattern: Regex reading ids from plain-text tool output (first group or match).

    Example:
        ```python
        agent = create_agent(
            model,
            tools=[search_docs],
            response_format=ToolStrategy(CitedAnswer),
            middleware=[StructuredCitationMiddleware("claims[].evidence_ids")],
        )
        result = agent.invoke({"messages": [("user", "When was ACME founded?")]})
        result["structured_response"]  # cites only retrieved evidence ids
        ```
    """

    def __init__(
        self,
        citations: CitationJudge | str | Sequence[str],
        *,
        policy: GatePolicy | None = None,
        static_ids: Iterable[str] = (),
        evidence_ids: Callable[[Mapping[str, Any]], IdSource] | None = None,
        id_pattern: str | re.Pattern[str] | None = None,
    ) -> None:
        super().__init__()
        if evidence_ids is not None and not callable(evidence_ids):
            raise InvalidInputError("evidence_ids", "must be a function of the state")
        if isinstance(static_ids, str):
            raise InvalidInputError("static_ids", "expected ids, got a single string")
        self.judge = as_judge(citations)
        self.policy = policy if policy is not None else GatePolicy()
        self.static_ids = tuple(static_ids)
        self.evidence_ids = evidence_ids
        self.id_pattern = re.compile(id_pattern) if isinstance(id_pattern, str) else id_pattern

    def _valid(self, state: Mapping[str, Any]) -> dict[str, str]:
        quotes = evidence_ids_from_messages(state.get("messages") or (), id_pattern=self.id_pattern)
        for i in self.static_ids:
            quotes.setdefault(i, "")
        if self.evidence_ids is not None:
            for i in resolve_ids(self.evidence_ids(state)):
                quotes.setdefault(i, "")
        return quotes

    def _guidance_update(
        self,
        messages: Sequence[AnyMessage],
        text: str,
        *,
        review: Mapping[str, Any] | None = None,
    ) -> list[AnyMessage]:
        """Replace the structured-output tool result with the guidance, or add a user turn.

        ``review`` (a reviewer's reject: ``{"retries": N}``) is recorded on the message, so
        the retries after it are counted against the budget it grants.
        """
        marker: dict[str, Any] = {REJECTION_MARKER: True}
        if review is not None:
            marker[_REVIEW_KEY] = dict(review)
        last = messages[-1] if messages else None
        prev = messages[-2] if len(messages) > 1 else None
        if (
            isinstance(last, ToolMessage)
            and last.id
            and isinstance(prev, AIMessage)
            and any(tc.get("id") == last.tool_call_id for tc in prev.tool_calls)
        ):
            return [
                ToolMessage(
                    content=text,
                    tool_call_id=last.tool_call_id,
                    name=last.name,
                    id=last.id,
                    status="error",
                    response_metadata=marker,
                )
            ]
        return [
            HumanMessage(
                content=text, id=f"qgate-citations-{uuid.uuid4().hex}", response_metadata=marker
            )
        ]

    def _gate(self, state: Mapping[str, Any]) -> dict[str, Any] | None:
        structured = state.get("structured_response")
        if structured is None:
            return None
        messages: list[AnyMessage] = list(state.get("messages") or [])
        ai = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        quotes = self._valid(state)
        used, granted = _retries_used(messages)
        decision = gate_structured_output(
            structured,
            quotes.keys(),
            judge=self.judge,
            policy=self.policy,
            retries_used=used,
            config=granted_config(current_config(), {"granted_retries": granted}),
            quotes=quotes,
        )
        if isinstance(decision, FilteredOutput):
            return {"messages": [_with_metadata(ai, decision.metadata)]} if ai else None
        if decision.escalation is None:
            return {
                "structured_response": None,
                "messages": self._guidance_update(messages, decision.guidance.to_model_message()),
                "jump_to": "model",
            }
        return self._escalate(structured, messages, ai, decision)

    def _escalate(
        self,
        structured: Any,
        messages: Sequence[AnyMessage],
        ai: AIMessage | None,
        rejected: RejectedOutput,
    ) -> dict[str, Any]:
        escalation = rejected.escalation
        request = EscalationRequest(
            reason=escalation.reason if escalation else "fabricated citations",
            draft=rejected.text,
            summary=rejected.guidance.summary(),
            guidance=rejected.guidance.model_dump(mode="json"),
            report=escalation.report.model_dump(mode="json") if escalation else {},
            metadata=rejected.metadata.model_dump(mode="json"),
            retries_used=rejected.metadata.retries_used,
        )
        require_checkpointer("StructuredCitationMiddleware")
        human = ask_human(request)
        update: dict[str, Any] = {}
        if human.type == "reject":  # feedback, and a fresh retry budget from here
            text = f"A reviewer rejected your answer: {human.message}"
            review = {"retries": human.retries}
            return {
                "structured_response": None,
                "messages": self._guidance_update(messages, text, review=review),
                "jump_to": "model",
            }
        if human.type == "edit":
            text = human.text or ""
            try:
                update["structured_response"] = (
                    type(structured).model_validate_json(text)
                    if isinstance(structured, BaseModel)
                    else json.loads(text)
                )
            except ValueError as exc:  # pydantic ValidationError and JSONDecodeError
                raise InvalidInputError(
                    "resume", f"the edited answer is not a valid {type(structured).__name__}: {exc}"
                ) from exc
        if ai is not None:
            meta = reviewed_metadata(rejected.metadata, human).model_copy(
                update={"warning": f"approved by a reviewer ({human.type})"}
            )
            update["messages"] = [_with_metadata(ai, meta)]
        return update

    @hook_config(can_jump_to=["model", "end"])
    def after_model(
        self, state: AgentState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Gate a fresh structured response on its citations.

        Args:
            state: Agent state (``messages``, ``structured_response``).
            runtime: The LangGraph runtime (unused).

        Returns:
            ``None`` when there is no structured response; the annotated message on pass;
            the cleared response, the guidance and ``jump_to="model"`` on rejection.

        Raises:
            QualityGateRejected: Budget spent under the ``"raise"`` policy.
        """
        return self._gate(state)

    @hook_config(can_jump_to=["model", "end"])
    async def aafter_model(
        self, state: AgentState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async :meth:`after_model` (pure computation; ``interrupt()`` works the same)."""
        return self._gate(state)
