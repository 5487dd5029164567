"""Numbers past a float (over 1.8e308): exact values, so they can still disagree.

``float("9" * 320)`` is ``inf``: two such numbers would look equal and a claim stating one
would slip past the contradiction check. ``extract_quantities`` keeps the value as ``inf``
(its sign and order hold) and the exact ``Decimal`` beside it; ``quantities_match`` compares
the exact values, rounded to the digits both sides state.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation, localcontext

__all__ = ["exact_matches", "exact_value"]


def exact_value(digits: str, scale: float) -> Decimal | None:
    """``digits`` (``"999.5"``, separators removed) times ``scale`` (1, 1e6...), exactly."""
    try:
        with localcontext() as ctx:
            ctx.prec = len(digits) + 20
            return Decimal(digits) * Decimal(scale)
    except (InvalidOperation, ValueError):
        return None


def _significant(value: Decimal, digits: int) -> str:
    with localcontext() as ctx:
        ctx.prec = max(1, digits)
        return f"{+value:e}"  # unary plus rounds to the context's precision


def exact_matches(a: Decimal | None, b: Decimal | None, digits: int) -> bool:
    """Whether two exact values agree to ``digits`` significant digits (None never does)."""
    if a is None or b is None:
        return False
    return a == b or _significant(a, digits) == _significant(b, digits)
