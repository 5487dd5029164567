"""Lazy attribute loading for package ``__init__`` modules (PEP 562).

Packages list ``{public name: submodule}`` and resolve a name on first access, so importing the
package loads neither torch nor LangGraph until a name that needs them is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

__all__ = ["load_lazily"]


def load_lazily(
    package: str, where: Mapping[str, str], namespace: dict[str, Any], name: str
) -> Any:
    """Import ``name`` from ``package.<where[name]>``, cache it in ``namespace``, return it."""
    module = where.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(import_module(f"{package}.{module}"), name)
    namespace[name] = value
    return value
