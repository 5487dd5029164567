"""Human review of an escalated answer: the decision schema and the interrupt payload.

When the retry budget is spent and the policy is ``"escalate"``, the middleware and the gate
node call LangGraph ``interrupt()`` with an :class:`EscalationRequest` (as a JSON-ready dict).
The run resumes with ``Command(resume=decision)`` where ``decision`` is a
:class:`HumanDecision`, a dict of the same shape, or the bare string ``"approve"``.

A reject sends the reviewer's ``message`` to the model and grants a fresh retry budget for the
rest of the user turn: the policy's ``max_retries`` again, or exactly ``retries`` when the
decision says so. The grant lives in the checkpointed load counters
(:meth:`~langchain_qgate.gate.load.LoadCounters.with_fresh_retries`, :func:`grant_retries`) and
reaches the gate as the per-call ``qgate_max_retries`` override (:func:`granted_config`).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from langchain_qgate.errors import CheckpointerRequiredError, InvalidInputError
from langchain_qgate.gate.load import LoadCounters, LoadCountersDict
from langchain_qgate.gate.metadata import QualityMetadata

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "DecisionType",
    "EscalationRequest",
    "HumanDecision",
    "ask_human",
    "grant_retries",
    "granted_config",
    "parse_decision",
    "require_checkpointer",
    "resuming",
    "reviewed_metadata",
]

_CHECKPOINTER_KEY = "__pregel_checkpointer"  # where LangGraph puts the run's saver

DecisionType = Literal["approve", "edit", "reject"]
"""What the reviewer decided.

- ``"approve"``: deliver the draft as it is (marked as approved by a human).
- ``"edit"``: deliver the reviewer's ``text`` instead of the draft.
- ``"reject"``: drop the draft and send the reviewer's ``message`` to the model as feedback,
  with a fresh retry budget (the policy's ``max_retries``, or the decision's ``retries``); the
  gate checks each new answer and escalates again once that budget is spent.
"""


def _all_decisions() -> list[DecisionType]:
    return ["approve", "edit", "reject"]


class HumanDecision(BaseModel):
    """A reviewer's answer to an escalation, given as ``Command(resume=...)``.

    Attributes:
        type: ``"approve"``, ``"edit"`` or ``"reject"``.
        text: The replacement answer (required for ``"edit"``).
        message: Feedback for the model (required for ``"reject"``).
        retries: Only with ``"reject"``: the retries the model gets after the feedback (an
            int >= 0; ``0``: one new answer, escalated again if it fails). ``None``
            (default): the policy's ``max_retries`` again.
        reviewer: Optional reviewer name, recorded in the audit metadata.

    Example:
        ```python
        agent.invoke(Command(resume={"type": "edit", "text": "Revenue was $12.4M."}), config)
        agent.invoke(Command(resume="approve"), config)
        agent.invoke(
            Command(resume={"type": "reject", "message": "Quote the 10-K.", "retries": 1}),
            config,
        )
        ```
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: DecisionType
    text: str | None = None
    message: str | None = None
    retries: int | None = Field(default=None, ge=0)
    reviewer: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_shorthand(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"type": value}
        return value

    @field_validator("retries", mode="before")
    @classmethod
    def _retries_count(cls, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(
                "'retries' must be an int >= 0 (the retries the model gets after this reject)"
            )
        return value

    @model_validator(mode="after")
    def _required_fields(self) -> HumanDecision:
        if self.type == "edit" and not (self.text or "").strip():
            raise ValueError("an 'edit' decision needs the replacement 'text'")
        if self.type == "reject" and not (self.message or "").strip():
            raise ValueError("a 'reject' decision needs a 'message' for the model")
        if self.retries is not None and self.type != "reject":
            raise ValueError(f"'retries' goes with a 'reject' decision, not {self.type!r}")
        return self


class EscalationRequest(BaseModel):
    """What the reviewer sees in the interrupt (``Interrupt.value`` is its JSON dict).

    Attributes:
        kind: Always ``"qgate_escalation"`` (lets clients route the interrupt).
        reason: Why the run escalated.
        draft: The answer that failed the gate.
        summary: User-facing summary of the problems.
        guidance: The structured retry guidance (JSON).
        report: The grounding report (JSON).
        metadata: The draft's quality metadata (JSON).
        retries_used: Retries spent before escalating.
        allowed_decisions: The decision types the reviewer may send.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["qgate_escalation"] = "qgate_escalation"
    reason: str
    draft: str
    summary: str
    guidance: dict[str, Any] = Field(default_factory=dict)
    report: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    retries_used: int = 0
    allowed_decisions: list[DecisionType] = Field(default_factory=_all_decisions)


def require_checkpointer(where: str) -> None:
    """Raise :class:`CheckpointerRequiredError` when the running graph has no checkpointer.

    Called right before ``interrupt()``. Outside a graph, or when LangGraph does not say,
    nothing is checked (``interrupt()`` reports its own error there).

    Args:
        where: The component about to escalate (named in the message).
    """
    from langgraph.config import get_config

    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:
        return
    if _CHECKPOINTER_KEY in configurable and configurable[_CHECKPOINTER_KEY] is None:
        raise CheckpointerRequiredError(where)


VALID_RESUME = (
    'a valid resume value is "approve", {"type": "approve"}, '
    '{"type": "edit", "text": "<the answer to deliver>"} or '
    '{"type": "reject", "message": "<feedback for the model>"} '
    '(a reject may add "retries": <int >= 0>, the retries the model gets; each may add '
    '"reviewer": "<name>"), or a HumanDecision'
)
"""What :func:`parse_decision` tells a caller who resumed with something else."""


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


def _problems(exc: ValidationError) -> str:
    out = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error.get("loc", ()))
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        given = _brief(error.get("input"))
        out.append(f"{where}={given}: {message}" if where else f"{given}: {message}")
    return "; ".join(out)


def _invalid(exc: ValidationError, argument: str) -> InvalidInputError:
    """The error for a value that is not a decision, marked as an invalid resume value (so
    LangGraph saves nothing and the interrupt can be answered again)."""
    error = InvalidInputError(
        argument, f"not a reviewer decision ({_problems(exc)}); {VALID_RESUME}"
    )
    try:
        from langgraph.errors import _mark_invalid_resume
    except ImportError:  # pragma: no cover - older langgraph: nothing to mark
        return error
    _mark_invalid_resume(error)
    return error


def parse_decision(value: Any, *, argument: str = "resume") -> HumanDecision:
    """A reviewer's decision from a resume value (or an ``on_escalate`` answer).

    Args:
        value: A :class:`HumanDecision`, a dict of the same shape, or ``"approve"``.
        argument: What the value was given as (named in the error).

    Raises:
        InvalidInputError: ``value`` is not a decision; the message says what one looks like.
    """
    if isinstance(value, HumanDecision):
        return value
    try:
        return HumanDecision.model_validate(value)
    except ValidationError as exc:
        raise _invalid(exc, argument) from None


def resuming() -> bool:
    """Whether this run resumes a paused escalation, so ``interrupt()`` answers at once.

    LangGraph runs the interrupted node again from its start on a resume; what it wrote
    before the interrupt (the stream's retraction and ``qgate.escalated``) was already sent
    when the run paused and is not sent twice. Read from LangGraph's run scratchpad; where a
    release keeps it elsewhere, the events are repeated rather than lost.
    """
    try:
        from langgraph.config import get_config

        scratchpad = get_config()["configurable"].get("__pregel_scratchpad")
        if scratchpad is None:
            return False
        return bool(scratchpad.resume) or scratchpad.get_null_resume(False) is not None
    except (RuntimeError, KeyError, AttributeError, TypeError):
        return False


def ask_human(request: EscalationRequest) -> HumanDecision:
    """``interrupt()`` with the request; the reviewer's answer as a decision.

    LangGraph checks the resume value against :class:`HumanDecision` before it saves it.

    Raises:
        InvalidInputError: The run was resumed with something that is not a decision (nothing
            is saved: resume again with a valid value).
    """
    from langgraph.types import interrupt

    payload = request.model_dump(mode="json")
    if "response_schema" not in inspect.signature(interrupt).parameters:  # pragma: no cover
        return parse_decision(interrupt(payload))  # older langgraph: checked after saving
    try:
        raw = interrupt(payload, response_schema=HumanDecision)
    except ValidationError as exc:
        raise _invalid(exc, "resume") from None
    return parse_decision(raw)


_REVIEWED: dict[DecisionType, tuple[Literal["approved", "edited", "rejected"], str]] = {
    "approve": ("approved", "approved by a human reviewer{by} after escalation"),
    "edit": ("edited", "edited by a human reviewer{by} after escalation; the reviewer's text is "
             "delivered (its grades are recorded for information)"),
    "reject": ("rejected", "rejected by a human reviewer{by} after escalation; the model "
               "answers again with the reviewer's feedback and {budget}"),
}  # fmt: skip


def reviewed_metadata(metadata: QualityMetadata, human: HumanDecision) -> QualityMetadata:
    """``metadata`` of an escalated answer with the reviewer's decision in it.

    The decision becomes ``approved`` / ``edited`` / ``rejected``, ``passed`` says whether the
    answer is delivered (True for approved and edited), and ``reason`` starts with the
    reviewer's action (and name, when given); the gate's figures stay as they were.
    """
    decision, text = _REVIEWED[human.type]
    budget = (
        "a fresh retry budget (the policy's)"
        if human.retries is None
        else f"a fresh retry budget of {human.retries}"
    )
    reason = text.format(by=f" ({human.reviewer})" if human.reviewer else "", budget=budget)
    if metadata.reason:
        reason = f"{reason}; {metadata.reason}"
    return metadata.model_copy(
        update={"decision": decision, "passed": decision != "rejected", "reason": reason}
    )


def grant_retries(
    counters: LoadCounters | Mapping[str, Any] | None, decision: HumanDecision | None
) -> LoadCountersDict | None:
    """The counters (graph-state dict) after ``decision``: a fresh retry budget on a reject.

    Args:
        counters: The load counters the review step wrote to state.
        decision: The reviewer's decision (``None`` or not a reject: ``None`` is returned).

    Returns:
        The counters with ``retries`` back to 0 and ``granted_retries`` set to the decision's
        ``retries`` (``None``: the policy's ``max_retries``), or ``None`` when nothing changes.
    """
    if decision is None or decision.type != "reject":
        return None
    fresh = LoadCounters.from_state(counters).with_fresh_retries(decision.retries)
    return fresh.to_state()


def granted_config(
    config: RunnableConfig | None, counters: LoadCounters | Mapping[str, Any] | None
) -> RunnableConfig | None:
    """``config`` with a reviewer's grant as the per-call ``qgate_max_retries`` override.

    The gate's retry budget is ``GatePolicy.max_retries`` after the call's overrides; a grant
    in the counters (``granted_retries``) replaces it for the rest of the user turn. An
    explicit ``load_monitor``'s ``LoadBudget.max_retries`` still caps it, as it caps the
    policy's.

    Args:
        config: The call's ``RunnableConfig`` (``None`` outside a graph).
        counters: The current turn's load counters.

    Returns:
        ``config`` unchanged when nothing was granted, else a copy with the override.
    """
    granted = LoadCounters.from_state(counters).granted_retries
    if granted is None:
        return config
    base: dict[str, Any] = dict(config or {})
    configurable = {**(base.get("configurable") or {}), "qgate_max_retries": granted}
    return cast("RunnableConfig", {**base, "configurable": configurable})
