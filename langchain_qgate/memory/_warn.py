"""Warnings that point at the caller's line, not at the filter that noticed the problem.

A memory warning is raised several frames below the user's ``store.put`` (the filter, the
wrapper's ``batch``, LangGraph's ``BaseStore.put``), and the depth differs between entry
points (``put``, ``put_with_outcome``, ``MemoryRecordFilter.add_decision``, ``aput``). A fixed
``stacklevel`` is right for one of them only, so the level is counted: every frame inside this
package or inside LangGraph's store base is skipped.
"""

from __future__ import annotations

import os
import sys
import warnings

import langgraph.store.base

__all__ = ["warn_at_caller"]

_INTERNAL = (
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,  # langchain_qgate/
    os.path.dirname(os.path.abspath(langgraph.store.base.__file__ or "")) + os.sep,
)


def _is_internal(filename: str) -> bool:
    return os.path.abspath(filename).startswith(_INTERNAL)


def warn_at_caller(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` with the ``stacklevel`` of the first frame outside the library.

    When every frame is internal (a library thread), the outermost frame is used.
    """
    level = 2  # 1 is this function; 2 is its caller
    frame = sys._getframe(1)
    while frame.f_back is not None and _is_internal(frame.f_code.co_filename):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
