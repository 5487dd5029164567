"""Short, stable reprs of the integration objects: the policy and where evidence comes from.

Shared by the middleware, the callback handler, the runnable wrapper and the streamer. A repr
shows the gate's profile, thresholds, retry budget and the evidence *source*, never evidence
contents (they can be large or private).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_qgate.gate import QualityGate
from langchain_qgate.gate.policy import describe_policy

__all__ = ["evidence_source", "surface_repr"]


def _callable_name(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__qualname__", None) or type(fn).__name__)


def evidence_source(
    *,
    harvested: str | None,
    static: Sequence[Any] = (),
    evidence_fn: Callable[..., Any] | None = None,
    evidence_key: str | None = None,
) -> str:
    """Where a surface reads evidence, e.g. ``"tool messages + state['evidence'] + 2 static"``.

    Args:
        harvested: What the surface collects on its own (``"tool messages"``), if anything.
        static: Evidence given to the constructor (only counted).
        evidence_fn: The user's evidence function (only named).
        evidence_key: The state key read.
    """
    parts = [harvested] if harvested else []
    if evidence_key is not None:
        parts.append(f"state[{evidence_key!r}]")
    if evidence_fn is not None:
        parts.append(f"evidence_fn={_callable_name(evidence_fn)}")
    if static:
        parts.append(f"{len(static)} static")
    return " + ".join(parts) or "none"


def surface_repr(name: str, gate: QualityGate | Any, evidence: str, **extra: Any) -> str:
    """``Name(profile=..., grounding_threshold=..., ..., evidence='...', **extra)``.

    A gate that is not a ``QualityGate`` (a duck-typed stand-in) is shown by its type name.
    """
    fields = (
        [describe_policy(gate.policy)]
        if isinstance(gate, QualityGate)
        else [f"gate={type(gate).__name__}"]
    )
    fields.append(f"evidence={evidence!r}")
    fields += [f"{k}={v!r}" for k, v in extra.items() if v is not None]
    return f"{name}({', '.join(fields)})"
