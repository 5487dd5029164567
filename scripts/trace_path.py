"""Follow one answer from the middleware's ``after_model`` to the gate's decision: the modules
of ``langchain_qgate`` it passes and how often it comes back to one it had left (issue 46).

A *stop* is a module where control is, counted each time a call or a return crosses from one
module of the package to another (frames of other packages are skipped; a module calling
itself is one stop). Only calls at most ``--depth`` levels below ``after_model`` count: depth
1 is what ``after_model`` calls, and each level below reads one step further into the helpers
(word stems, number patterns) that any reader skips. Prints the stop sequence, the number of
distinct modules and the number of returns to a module already left.

    python scripts/trace_path.py --depth 4
"""

from __future__ import annotations

import argparse
import sys
from types import FrameType
from typing import Any

_PACKAGE = "langchain_qgate"


def _module(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if name == _PACKAGE or name.startswith(_PACKAGE + ".") else None


def _state() -> dict[str, Any]:
    from langchain_core.documents import Document
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    docs = [
        Document(
            "Nordlicht Robotics reported revenue of €48.2 million in fiscal year 2024.",
            id="annual_report",
        ),
        Document("The Kestrel P3 picks up to 1,200 items per hour.", id="products"),
    ]
    call = AIMessage(
        "", tool_calls=[{"name": "search", "args": {"query": "revenue"}, "id": "c1"}], id="a0"
    )
    tool = ToolMessage("passages", artifact=docs, tool_call_id="c1", name="search", id="t1")
    answer = AIMessage(
        "Nordlicht Robotics reported revenue of €52.7 million in 2024. "
        "The Kestrel P3 picks up to 1,200 items per hour.",
        id="a1",
    )
    return {"messages": [HumanMessage("What did Nordlicht earn?", id="h1"), call, tool, answer]}


def trace(depth: int) -> list[str]:
    """The stop sequence of one ``after_model`` call (models loaded before tracing)."""
    from langgraph.runtime import Runtime

    from langchain_qgate.integrations.middleware import QualityGateMiddleware

    mw = QualityGateMiddleware()
    state = _state()
    mw.after_model(state, Runtime())  # warm: load the models outside the trace
    stops: list[str] = []
    levels: dict[int, int] = {}  # id(frame) -> depth below after_model

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event not in ("call", "return"):
            return
        here = _module(frame)
        if event == "call":
            parent = frame.f_back
            while parent is not None and id(parent) not in levels:
                if parent.f_code.co_name == "after_model" and _module(parent):
                    levels[id(parent)] = 0
                    break
                parent = parent.f_back
            if parent is None or here is None:
                return
            level = levels[id(parent)] + 1
            if level > depth:
                return
            levels[id(frame)] = level
            if not stops or stops[-1] != here:
                stops.append(here)
        elif id(frame) in levels:
            del levels[id(frame)]
            back = frame.f_back
            while back is not None and id(back) not in levels:
                back = back.f_back
            if back is not None:
                module = _module(back)
                if module and stops and stops[-1] != module:
                    stops.append(module)

    sys.setprofile(profile)
    try:
        mw.after_model(state, Runtime())
    finally:
        sys.setprofile(None)
    return stops


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--quiet", action="store_true", help="only the counts")
    args = parser.parse_args()
    stops = trace(args.depth)
    seen: set[str] = set()
    returns = 0
    for s in stops:
        returns += s in seen
        seen.add(s)
    if not args.quiet:
        for s in stops:
            print(" ", s.removeprefix(_PACKAGE + "."))
    print(
        f"depth {args.depth}: {len(stops)} stops in {len(seen)} modules, "
        f"{returns} returns to a module already left"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
