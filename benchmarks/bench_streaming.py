"""Verified streaming: what early stop saves, and what sentence gating costs (issue 19).

A ``create_agent`` run with ``QualityGateMiddleware(stream="sentences", stop_early=True)``
(early stop is opt-in since issue 26) against the same run
with ``stream=None`` (the whole answer is generated, then gated; the app streams
``stream_mode=["custom", "messages"]`` in both, so the model streams in both), on a scripted
streaming model (``ScriptedStreamingChatModel``, one token every ``--delay`` seconds, 20 ms by
default: a hosted model at 50 tokens/s) and the default embedding model (ONNX MiniLM). Each
scenario's first draft has a contradicted sentence; the second draft is correct.

- **Demo scenario**: ``examples/streaming_agent.py`` (the contradiction is sentence 2 of 3).
- **Scripted long answers**: 8 and 16 sentences copied from ``examples/docs`` with one figure
  changed in sentence 2, in the middle, or in the last sentence.

Reported per scenario: tokens of the first draft generated (with and without early stop), and
wall time of the whole agent run (median over ``--runs``); emission overhead: for every
sentence shown, time from its last token to its emission (median, p95), split into the grading
itself and the wait for the next sentence's first word (a sentence is complete only then).

Usage::

    python benchmarks/bench_streaming.py --runs 3 --json benchmarks/results/streaming.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import GatePolicy, QualityGate, QualityGateMiddleware
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedStreamingChatModel,
    load_docs,
    make_search_tool,
    tokenize,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = load_docs(ROOT / "examples" / "docs")

SENTENCES = [  # copied from examples/docs (grounded); a figure at #2, #5, #8, #9 and #16
    "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million.",
    "Revenue grew 31% from €36.8 million in fiscal year 2023.",
    "Net income for 2024 was €3.1 million, the second profitable year after 2023.",
    "The largest customers in 2024 were Baltic Freight and Verano Foods.",
    "Nordlicht Robotics employs 340 people across offices in Hamburg, Rotterdam and Austin.",
    "The company opened its Austin office in September 2024.",
    "Nordlicht Robotics was founded in 2016 in Hamburg by Mara Velden and Jonas Richter.",
    "The Kestrel P3 runs for 14 hours on one charge and recharges in 90 minutes.",
    "The list price of the Kestrel P3 is €85,000 per unit.",
    "The Kestrel P3 is Nordlicht's flagship picking robot.",
    "It picks up to 1,200 items per hour.",
    "The Heron L1 is a lighter robot for small parcels.",
    "The Heron L1 picks up to 600 items per hour.",
    "Every Nordlicht robot comes with a 24-month warranty.",
    "On-site repairs are scheduled within two business days in Germany and the Netherlands.",
    "Nordlicht shipped 1,150 robots in 2024, up from 870 robots in 2023.",
]
CHANGES = {  # the contradicted version of the sentences a scenario breaks (one figure changed)
    1: SENTENCES[1].replace("31%", "45%"),
    4: SENTENCES[4].replace("340", "430"),
    7: SENTENCES[7].replace("14 hours", "20 hours"),
    8: SENTENCES[8].replace("85,000", "95,000"),
    15: SENTENCES[15].replace("1,150", "1,500"),
}


def long_answer(n: int, bad: int) -> tuple[str, str]:
    """An ``n``-sentence answer with sentence ``bad`` contradicted, and the correct one."""
    good = SENTENCES[:n]
    drafted = [CHANGES[i] if i == bad else s for i, s in enumerate(good)]
    return " ".join(drafted), " ".join(good)


def demo_answer() -> tuple[str, str]:
    sys.path.insert(0, str(ROOT / "examples"))
    import streaming_agent

    first, second = streaming_agent.DRAFTS
    return first, second


def _model(drafts: list[str], delay: float) -> ScriptedStreamingChatModel:
    def respond(messages: list[BaseMessage]) -> AIMessage:
        at = max(i for i, m in enumerate(messages) if m.type == "human" and m.id == "q")
        after = messages[at + 1 :]
        if not any(isinstance(m, ToolMessage) for m in after):
            call = {"name": "search_docs", "args": {"query": "Nordlicht"}, "id": "c1"}
            return AIMessage("", tool_calls=[call])
        retries = sum(isinstance(m, HumanMessage) for m in after)
        return AIMessage(drafts[min(retries, len(drafts) - 1)])

    return ScriptedStreamingChatModel(respond=respond, token_delay=delay)


def run_once(gate: QualityGate, drafts: list[str], *, stream: bool, delay: float) -> dict[str, Any]:
    model = _model(drafts, delay)
    # Every document is evidence (static evidence= too): the long answers cite all of them.
    tool = make_search_tool(KeywordRetriever(docs=DOCS, k=3))
    middleware = QualityGateMiddleware(  # early stop is opt-in since issue 26
        gate=gate, evidence=DOCS, stream="sentences" if stream else None, stop_early=stream
    )
    agent = create_agent(model, tools=[tool], middleware=[middleware], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "bench"}}
    question = HumanMessage("Tell me about Nordlicht Robotics.", id="q")
    began = time.perf_counter()
    # Both paths stream tokens (an app streaming "messages" today); the baseline gates after.
    for _ in agent.stream({"messages": [question]}, config, stream_mode=["custom", "messages"]):
        pass
    wall = time.perf_counter() - began
    final = agent.get_state(config).values["messages"][-1]
    shown: list[dict[str, Any]] = []
    record = final.response_metadata.get("qgate_stream") or {}
    shown += [s for s in record.get("sentences", []) if s.get("lag_ms") is not None]
    return {
        "wall_s": wall,
        "first_draft_tokens": model.streamed[1],
        "draft_tokens": len(tokenize(drafts[0])),
        "decision": final.response_metadata.get("qgate", {}).get("decision", "held"),
        "lags_ms": [s["lag_ms"] for s in shown],
        "checks_ms": [s["check_ms"] for s in shown],
    }


def _embedder_name(gate: QualityGate) -> str:
    embedder = getattr(gate.monitor, "embedder", None)
    inner = getattr(embedder, "inner", embedder)
    return f"{type(inner).__name__} {getattr(inner, 'model_name', '')}".strip()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--delay", type=float, default=0.02, help="seconds per token")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    gate = QualityGate(policy=GatePolicy(max_retries=1))
    gate.check("warm-up.", [d.page_content for d in DOCS])  # load the model once
    scenarios: dict[str, tuple[str, str]] = {"demo (3 sentences, bad #2)": demo_answer()}
    for n in (8, 16):
        for bad, where in ((1, "#2"), (n // 2, "middle"), (n - 1, "last")):
            scenarios[f"long {n} sentences, bad {where}"] = long_answer(n, bad)

    rows, lags, checks = [], [], []
    for name, (first, second) in scenarios.items():
        runs: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
        for _ in range(args.runs):
            for stream in (True, False):  # interleaved: machine noise hits both alike
                runs[stream].append(
                    run_once(gate, [first, second], stream=stream, delay=args.delay)
                )
        on, off = runs[True], runs[False]
        for r in on:
            lags += r["lags_ms"]
            checks += r["checks_ms"]
        row = {
            "scenario": name,
            "draft_tokens": on[0]["draft_tokens"],
            "tokens_streaming": statistics.median(r["first_draft_tokens"] for r in on),
            "tokens_whole": statistics.median(r["first_draft_tokens"] for r in off),
            "wall_streaming_s": statistics.median(r["wall_s"] for r in on),
            "wall_whole_s": statistics.median(r["wall_s"] for r in off),
            "decisions": sorted({r["decision"] for r in on + off}),
        }
        row["tokens_saved"] = row["tokens_whole"] - row["tokens_streaming"]
        row["time_saved_s"] = row["wall_whole_s"] - row["wall_streaming_s"]
        rows.append(row)
        print(
            f"{name:32} tokens {row['tokens_streaming']:>4.0f}/{row['tokens_whole']:<4.0f} "
            f"saved {row['tokens_saved']:>4.0f}   wall {row['wall_streaming_s']:.2f}s vs "
            f"{row['wall_whole_s']:.2f}s (saved {row['time_saved_s']:+.2f}s)  {row['decisions']}"
        )
    waits = [lag - chk for lag, chk in zip(lags, checks, strict=True)]
    overhead = {
        "sentences": len(lags),
        "emission_lag_ms": {"median": statistics.median(lags), "p95": pct(lags, 0.95)},
        "grading_ms": {"median": statistics.median(checks), "p95": pct(checks, 0.95)},
        "boundary_wait_ms": {"median": statistics.median(waits), "p95": pct(waits, 0.95)},
    }
    print(
        f"emission lag (last token -> emitted), {len(lags)} sentences: "
        f"median {overhead['emission_lag_ms']['median']:.1f} ms, "
        f"p95 {overhead['emission_lag_ms']['p95']:.1f} ms; of which grading median "
        f"{overhead['grading_ms']['median']:.1f} ms, p95 {overhead['grading_ms']['p95']:.1f} ms"
    )
    load = os.getloadavg()
    meta = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average": [round(x, 2) for x in load],
        "token_delay_s": args.delay,
        "runs": args.runs,
        "embedder": _embedder_name(gate),
    }
    print(json.dumps(meta))
    if args.json:
        args.json.write_text(
            json.dumps({"meta": meta, "scenarios": rows, "overhead": overhead}, indent=2) + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
