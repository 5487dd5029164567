"""Exceptions raised by langchain-qgate.

Every error derives from :class:`QGateError`. Errors caused by bad input also derive from
:class:`ValueError`, so callers that already catch ``ValueError`` keep working. Errors that a
LangGraph ``RetryPolicy`` should retry (a rejected answer) deliberately do **not** subclass
``ValueError``.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CheckpointerRequiredError",
    "EmbeddingError",
    "InputTooLargeError",
    "InvalidInputError",
    "QGateError",
    "QualityGateRejected",
    "SettingsError",
]


class QGateError(Exception):
    """Root of every error raised by langchain-qgate."""


class InvalidInputError(QGateError, ValueError):
    """An argument has the wrong type or an unusable value.

    Attributes:
        argument: Name of the offending argument.
        detail: What is wrong with it.
    """

    def __init__(self, argument: str, detail: str) -> None:
        self.argument = argument
        self.detail = detail
        super().__init__(f"invalid {argument}: {detail}")


class SettingsError(InvalidInputError):
    """A setting from the environment or the config file has an unusable value.

    Attributes:
        argument: The environment variable (``QGATE_MAX_RETRIES``) or ``file: key``.
        detail: What is wrong with it.
    """


class InputTooLargeError(InvalidInputError):
    """An input exceeds a configured size limit.

    Attributes:
        size: The size that was given.
        limit: The configured limit.
        setting: The setting that holds the limit (``GroundingPolicy.max_claims``, ...).
    """

    def __init__(
        self,
        argument: str,
        size: int,
        limit: int,
        unit: str = "characters",
        *,
        setting: str | None = None,
    ) -> None:
        self.size = size
        self.limit = limit
        self.setting = setting
        where = setting if setting is not None else "the limit in the config"
        super().__init__(
            argument,
            f"{size:,} {unit} is over the limit of {limit:,} {unit}; raise {where} "
            "or split the input",
        )


class EmbeddingError(QGateError):
    """The embedding model could not be loaded or failed to encode.

    Attributes:
        model_name: The model that failed.
    """

    def __init__(self, model_name: str, cause: BaseException | str) -> None:
        self.model_name = model_name
        self.cause = cause
        super().__init__(f"embedding model {model_name!r} failed: {cause}")


class CheckpointerRequiredError(QGateError, RuntimeError):
    """An answer escalated to a human in a graph that has no checkpointer.

    ``interrupt()`` pauses a run that can only be resumed from a saved checkpoint, so the
    gate fails at the first escalation instead of returning a pause nobody can answer. A
    ``RuntimeError``: a LangGraph ``RetryPolicy`` does not retry it by default.

    Attributes:
        where: The component that escalated.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        super().__init__(
            f"{where} escalated an answer to a human (on_exhausted='escalate'), but the graph "
            "has no checkpointer, so the pause could never be resumed; pass "
            "checkpointer=InMemorySaver() (or another saver) to create_agent(...) or "
            "builder.compile(...), or set on_exhausted='pass_with_warning' or 'raise'"
        )


class QualityGateRejected(QGateError):  # noqa: N818 - public name fixed by the design
    """The gate rejected an output and the exhaustion policy is ``"raise"``.

    Not a ``ValueError``: a LangGraph ``RetryPolicy`` may retry it.

    Attributes:
        reasons: Human-readable reasons for the rejection.
        payload: The rejection (a ``RejectedOutput`` model) when available.
    """

    def __init__(self, reasons: list[str], payload: Any = None) -> None:
        self.reasons = list(reasons)
        self.payload = payload
        # each reason is a sentence: drop its own end mark before joining ("0.60).; " read badly)
        joined = "; ".join(r.rstrip().rstrip(".;") for r in self.reasons) or "no reason given"
        super().__init__(f"quality gate rejected the output after the retry budget: {joined}")
