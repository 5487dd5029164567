"""A gated run, attempt by attempt: the claims of every draft, their grades, how each ended.

:func:`attempt_timeline` reads what the middleware, the graph node and the runnable already
record (the final message's ``response_metadata`` or a graph's state: ``qgate``,
``qgate_rejected_drafts`` / ``qgate_audit``, ``qgate_review``) into :class:`GateAttempt` rows;
:func:`plot_attempt_timeline` draws them (needs matplotlib: ``pip install
'langchain-qgate[plot]'``): attempts left to right, each claim a mark coloured by its grade,
contradicted claims crossed, and each attempt's outcome (retry, escalation, human decision,
pass) written under it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, ValidationError

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.gate import QualityMetadata

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "GRADE_COLORS",
    "GateAttempt",
    "TimelineClaim",
    "attempt_timeline",
    "plot_attempt_timeline",
]

GRADE_COLORS: dict[str, str] = {
    "grounded": "tab:green",
    "inferred": "tab:orange",
    "fabricated": "tab:red",
    "opinion": "tab:gray",
}
"""The colour of each grade's marks (``opinion``: a claim labelled, not graded)."""


class TimelineClaim(BaseModel):
    """One claim of one attempt.

    Attributes:
        index: Position in the draft.
        text: The claim.
        grade: ``grounded`` / ``inferred`` / ``fabricated``, or ``opinion`` (not counted).
        support: Probability the evidence supports it.
        contradicted: The evidence states something else (``contradiction`` is set).
    """

    model_config = ConfigDict(frozen=True)

    index: int
    text: str
    grade: str
    support: float
    contradicted: bool


class GateAttempt(BaseModel):
    """One draft the gate graded, and what came of it.

    Attributes:
        attempt: 1 for the first draft.
        draft: The draft's text.
        outcome: The gate's decision on it (``retry``, ``escalate``, ``pass``,
            ``pass_with_warning``, ...; ``approved`` / ``edited`` after a reviewer).
        human_decision: The reviewer's decision (``approve`` / ``edit`` / ``reject``) on this
            attempt's escalation, or, on the delivered answer, the decision that produced it
            (``edit``: the reviewer's text, graded for the record); else ``None``.
        score: The grounding score (``None`` when the record holds no grading).
        claims: The graded claims (empty when the record holds no grading).
    """

    model_config = ConfigDict(frozen=True)

    attempt: int
    draft: str
    outcome: str
    human_decision: str | None = None
    score: float | None = None
    claims: tuple[TimelineClaim, ...] = ()


def _claims(meta: QualityMetadata) -> tuple[TimelineClaim, ...]:
    return tuple(
        TimelineClaim(
            index=c.index,
            text=c.text,
            grade=c.grade if c.counted else "opinion",
            support=c.support,
            contradicted=c.contradiction is not None,
        )
        for c in meta.claims
    )


def _metadata(value: Any) -> QualityMetadata | None:
    if isinstance(value, QualityMetadata):
        return value
    if isinstance(value, Mapping):
        try:
            return QualityMetadata.model_validate(value)
        except ValidationError as exc:
            detail = f"a gate record is not the gate's metadata: {exc.errors()[0]['msg']}"
            raise InvalidInputError("source", detail) from exc
    return None


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p if isinstance(p, str) else str(p.get("text", "")) if isinstance(p, Mapping) else ""
            for p in content
        )
    return ""


def _parts(
    source: BaseMessage | Mapping[str, Any],
) -> tuple[list[Mapping[str, Any]], QualityMetadata | None, str, str | None]:
    """(audit records, final metadata, final text, human decision on the final text)."""
    meta: Mapping[str, Any]
    if isinstance(source, BaseMessage):
        meta, text = source.response_metadata, _text(source.content)
        audit_key, final_key = "qgate_rejected_drafts", "qgate"
    elif isinstance(source, Mapping) and ("qgate_audit" in source or "qgate_metadata" in source):
        meta, audit_key, final_key = source, "qgate_audit", "qgate_metadata"
        messages = source.get("messages") or []
        text = _text(getattr(messages[-1], "content", "")) if messages else ""
    elif isinstance(source, Mapping):
        meta, text = source, ""
        audit_key, final_key = "qgate_rejected_drafts", "qgate"
    else:
        raise InvalidInputError(
            "source", f"expected a message or a mapping, got {type(source).__name__}"
        )
    audit = [r for r in meta.get(audit_key) or [] if isinstance(r, Mapping)]
    review = meta.get("qgate_review")
    human = _human({"human_decision": review}) if review is not None else None
    if human is None and audit and audit[-1].get("escalated"):
        human = _human(audit[-1])
    return audit, _metadata(meta.get(final_key)), text, human


def _human(record: Mapping[str, Any]) -> str | None:
    """The reviewer's decision type in an audit record (``approve`` / ``edit`` / ``reject``)."""
    decision = record.get("human_decision")
    if not isinstance(decision, Mapping):
        return None
    got = decision.get("decision", decision.get("type"))
    return str(got) if got else None


def attempt_timeline(
    source: BaseMessage | Mapping[str, Any],
    *,
    escalation: Mapping[str, Any] | None = None,
) -> list[GateAttempt]:
    """The attempts of one gated turn, oldest first.

    Args:
        source: The final ``AIMessage`` of a ``create_agent`` run with
            ``QualityGateMiddleware`` (or its ``response_metadata``), or the final state of a
            graph with ``add_quality_gate`` (``qgate_audit``, ``qgate_metadata``).
        escalation: The interrupt's ``EscalationRequest`` (as a dict), when the turn was
            escalated: the escalated draft's grading is in it, not in the audit trail.

    Returns:
        One :class:`GateAttempt` per draft the gate graded; the last one is the delivered
        answer (after a human edit: the reviewer's text, graded for the record).

    Raises:
        InvalidInputError: ``source`` is neither a message nor a mapping, or a gate record in
            it is not the gate's metadata.

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> attempt_timeline(AIMessage("hi"))
        []
    """
    audit, final, text, human = _parts(source)
    attempts: list[GateAttempt] = []
    for record in audit:
        number = len(attempts) + 1
        draft = str(record.get("draft", ""))
        if record.get("escalated"):  # graded in the interrupt's request, not in the record
            meta = _metadata(escalation.get("metadata")) if escalation else None
            outcome, decided = "escalate", human
        else:
            meta = _metadata(record.get("metadata"))
            outcome, decided = (meta.decision if meta else "retry"), _human(record)
        attempts.append(
            GateAttempt(
                attempt=number,
                draft=draft,
                outcome=outcome,
                human_decision=decided,
                score=meta.score if meta else None,
                claims=_claims(meta) if meta else (),
            )
        )
    if final is not None:
        reviewed = bool(attempts) and attempts[-1].outcome == "escalate"
        attempts.append(
            GateAttempt(
                attempt=len(attempts) + 1,
                draft=text,
                outcome=final.decision,
                human_decision=human if reviewed else None,
                score=final.score,
                claims=_claims(final),
            )
        )
    return attempts


def _label(a: GateAttempt) -> str:
    """The outcome written under an attempt's column."""
    if a.outcome == "escalate":
        return "escalated to a human" + (f"\nhuman: {a.human_decision}" if a.human_decision else "")
    if a.outcome == "retry":
        return "rejected -> retry" + (f"\nhuman: {a.human_decision}" if a.human_decision else "")
    return a.outcome.replace("_", " ") + (
        f"\n(after human {a.human_decision})" if a.human_decision else ""
    )


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _draw_attempt(ax: Any, col: int, a: Any, text_width: int) -> None:
    """One attempt's column: a dot per claim in its grade's colour, a cross where it is
    contradicted, the claim's text beside it."""
    for row, c in enumerate(a.claims):
        ax.scatter(col, row, s=140, color=GRADE_COLORS.get(c.grade, "black"), zorder=3)
        if c.contradicted:
            ax.scatter(col, row, s=90, marker="x", color="black", zorder=4)
        ax.annotate(
            _short(c.text, text_width),
            (col, row),
            xytext=(10, 0),
            textcoords="offset points",
            va="center",
            fontsize=7.5,
        )
    if not a.claims:
        note = "(grading not recorded)"
        ax.annotate(note, (col, 0), xytext=(10, 0), textcoords="offset points",
                    va="center", fontsize=7.5, color="grey")  # fmt: skip
    if col:
        ax.axvline(col - 0.04, color="lightgrey", lw=0.8, zorder=1)


def _legend(attempts: Sequence[Any], line: Any) -> list[Any]:
    """A legend entry per grade drawn, and one for the contradiction cross if drawn."""
    handles = [
        line([], [], marker="o", ls="", color=color, label=grade)
        for grade, color in GRADE_COLORS.items()
        if any(c.grade == grade for a in attempts for c in a.claims)
    ]
    if any(c.contradicted for a in attempts for c in a.claims):
        handles.append(line([], [], marker="x", ls="", color="black", label="contradicted"))
    return handles


def plot_attempt_timeline(
    attempts: list[GateAttempt],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    text_width: int = 46,
) -> Figure:
    """Draw ``attempts`` (from :func:`attempt_timeline`): one column per attempt.

    Each claim is a mark coloured by its grade (:data:`GRADE_COLORS`), crossed when the
    evidence contradicts it, with its text beside it; the attempt's outcome is written under
    the column (``rejected -> retry``, ``escalated to a human``, ``pass``), and an attempt
    after an escalation is titled with the human's decision.

    Args:
        attempts: The attempts to draw.
        ax: Draw into these axes (a new figure by default).
        title: The figure title.
        text_width: Claim texts are cut to this many characters.

    Returns:
        The matplotlib figure (close it with ``matplotlib.pyplot.close(fig)``).

    Raises:
        ImportError: matplotlib is not installed (``pip install 'langchain-qgate[plot]'``).
        InvalidInputError: ``attempts`` is empty.
    """
    if not attempts:
        raise InvalidInputError("attempts", "nothing to draw: the run has no graded attempt")
    try:
        import matplotlib.pyplot as plt
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
    except ImportError as exc:
        msg = "the attempt timeline needs matplotlib: pip install 'langchain-qgate[plot]'"
        raise ImportError(msg) from exc
    rows = max(1, *(len(a.claims) for a in attempts))
    if ax is None:
        _, ax = plt.subplots(figsize=(3.4 * len(attempts) + 0.6, 0.55 * rows + 1.9))
    fig = ax.figure if isinstance(ax.figure, Figure) else ax.figure.figure  # a subfigure's root
    for col, a in enumerate(attempts):
        _draw_attempt(ax, col, a, text_width)
    ax.set_xlim(-0.3, len(attempts) - 0.05)
    ax.set_ylim(rows - 0.4, -0.8)
    ax.set_yticks([])
    ax.set_xticks(range(len(attempts)))
    ax.set_xticklabels(
        [
            f"attempt {a.attempt}"
            + (f" ({a.score:.2f})" if a.score is not None else "")
            + f"\n{_label(a)}"
            for a in attempts
        ],
        fontsize=8,
    )
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    handles = _legend(attempts, Line2D)
    if handles:
        ax.legend(handles=handles, loc="upper left", ncols=len(handles), fontsize=7.5,
                  frameon=False, bbox_to_anchor=(0, 1.0))  # fmt: skip
    if title:
        ax.set_title(title, fontsize=10, loc="left")
    fig.tight_layout()
    return fig
