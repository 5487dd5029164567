"""Overhead of QualityGateMiddleware beyond the gate itself, for a 3-tool-call agent run.

The same ``create_agent`` run (scripted model: three search calls, one per turn, then the final
answer; ``InMemorySaver``; a fresh thread per run; times are process CPU time, so other
processes on a busy machine do not inflate them) with and without ``QualityGateMiddleware``,
interleaved run by run so machine noise hits both alike. Inside the gated run the time spent in
the gate check and in the middleware's own code (``GateRunner.prepare`` / ``finish`` /
``record_model_call``: evidence harvesting, counters, message building) is measured directly:

- ``middleware code``: the middleware's own Python per run (four ``after_model`` calls);
- ``graph cost of the hook nodes``: ``agent+gate - agent - check - middleware code`` per run,
  i.e. LangGraph running the extra ``after_model`` node and checkpointing the extra keys;
- overhead beyond the gate = the sum of the two medians.

``gate alone`` is ``QualityGate.check`` on the same answer and evidence outside the agent.

The monitor uses the hashing embedder by default so the gate itself is cheap and the
overhead is visible; ``--real-model`` uses the bundled model for the ``gate`` context figure.

Usage::

    python benchmarks/bench_integration.py --runs 200 --json benchmarks/results/integration.json
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

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate.gate import GatePolicy
from langchain_qgate.grounding import HallucinationMonitor
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder, default_embedder
from langchain_qgate.integrations._harvest import collect_evidence
from langchain_qgate.integrations._step import GateRunner, default_gate, gate_load_monitor
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedChatModel,
    load_docs,
    make_search_tool,
)

DOCS_DIR = Path(__file__).resolve().parents[1] / "examples" / "docs"
QUESTION = (
    "What was Nordlicht Robotics' revenue in 2024, how many robots did it ship, "
    "and what does the Kestrel P3 cost?"
)
QUERIES = ["revenue 2024", "robots shipped 2024", "Kestrel P3 list price"]
ANSWER = (
    "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million. "
    "Nordlicht shipped 1,150 robots in 2024. "
    "The list price of the Kestrel P3 is €85,000 per unit."
)


def _clock() -> float:
    """CPU time of this process (all threads): other processes' load does not inflate it."""
    return time.process_time()


def respond(messages):
    done = sum(isinstance(m, ToolMessage) for m in messages)
    if done < len(QUERIES):
        call = {"name": "search_docs", "args": {"query": QUERIES[done]}, "id": f"c{done}"}
        return AIMessage(content="", tool_calls=[call])
    return AIMessage(content=ANSWER)


class HookTimer:
    """Accumulates the time spent in GateRunner methods (the middleware's own code)."""

    def __init__(self) -> None:
        self.total = {"check": 0.0, "own": 0.0}

    def install(self) -> None:
        for name in ("check", "prepare", "finish", "record_model_call"):
            original = getattr(GateRunner, name)
            setattr(GateRunner, name, self._wrap(original, "check" if name == "check" else "own"))

    def _wrap(self, fn, key):
        def timed(*args, **kwargs):
            t = _clock()
            try:
                return fn(*args, **kwargs)
            finally:
                self.total[key] += (_clock() - t) * 1000

        return timed

    def take(self) -> dict[str, float]:
        out, self.total = self.total, {"check": 0.0, "own": 0.0}
        return out


VARIANTS = (
    "agent",
    "agent+gate",
    "gate alone",
    "gate check inside the agent",
    "middleware code (harvest, state)",
    "graph cost of the hook nodes",
)


def summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {
        "min_ms": ms[0],
        "p10_ms": ms[int(0.1 * (len(ms) - 1))],
        "median_ms": statistics.median(ms),
        "p90_ms": ms[int(0.9 * (len(ms) - 1))],
        "mean_ms": statistics.fmean(ms),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--real-model", action="store_true", help="bundled model for the gate")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    docs = load_docs(DOCS_DIR)
    tool = make_search_tool(KeywordRetriever(docs=docs, k=3))
    embedder = default_embedder() if args.real_model else HashingEmbedder()
    monitor = HallucinationMonitor(embedder=embedder)
    policy = GatePolicy(max_retries=2)
    model = ScriptedChatModel(respond=respond)
    plain = create_agent(model, tools=[tool], checkpointer=InMemorySaver())
    middleware = QualityGateMiddleware(monitor=monitor, policy=policy)
    gated = create_agent(model, tools=[tool], middleware=[middleware], checkpointer=InMemorySaver())

    def run(agent):
        def go(thread: str) -> None:
            out = agent.invoke(
                {"messages": [HumanMessage(QUESTION)]}, {"configurable": {"thread_id": thread}}
            )
            assert out["messages"][-1].content == ANSWER

        return go

    check = gated.invoke(
        {"messages": [HumanMessage(QUESTION)]}, {"configurable": {"thread_id": "probe"}}
    )
    final = check["messages"][-1]
    assert final.response_metadata["qgate"]["decision"] == "pass", final.response_metadata
    state = gated.get_state({"configurable": {"thread_id": "probe"}}).values
    state_messages = [*state["messages"][:-1], AIMessage(content=ANSWER, id="final")]
    probe_state = {"messages": state_messages}
    evidence = collect_evidence(probe_state)
    assert len([m for m in state_messages if isinstance(m, ToolMessage)]) == 3

    gate = default_gate(monitor, policy)
    runner = GateRunner(gate, load_monitor=gate_load_monitor(gate))
    draft = state_messages[-1]
    result = gate.check(draft, evidence, question=QUESTION)

    def gate_only(_: str) -> None:
        gate.check(draft, evidence, question=QUESTION)

    def bookkeeping(_: str) -> None:
        prepared = runner.prepare(probe_state, draft)
        runner.finish(prepared, result)

    timer = HookTimer()
    timer.install()
    go_plain, go_gated = run(plain), run(gated)
    for i in range(5):
        go_plain(f"warm-plain-{i}")
        go_gated(f"warm-gated-{i}")
        gate_only("")
        bookkeeping("")
    timer.take()
    rows: dict[str, list[float]] = {k: [] for k in VARIANTS}
    for i in range(args.runs):  # interleaved, so machine noise hits every variant alike
        t = _clock()
        go_plain(f"plain-{i}")
        rows["agent"].append((_clock() - t) * 1000)
        timer.take()
        t = _clock()
        go_gated(f"gated-{i}")
        rows["agent+gate"].append((_clock() - t) * 1000)
        inside = timer.take()
        rows["gate check inside the agent"].append(inside["check"])
        rows["middleware code (harvest, state)"].append(inside["own"])
        rows["graph cost of the hook nodes"].append(
            rows["agent+gate"][-1] - rows["agent"][-1] - inside["check"] - inside["own"]
        )
        t = _clock()
        gate_only("")
        rows["gate alone"].append((_clock() - t) * 1000)
    timings = {k: summary(v) for k, v in rows.items()}
    overhead = (
        timings["middleware code (harvest, state)"]["median_ms"]
        + timings["graph cost of the hook nodes"]["median_ms"]
    )
    # Under CPU contention the per-run difference is noisy; the minimum of each variant is
    # the least disturbed run, so a min-based figure is reported alongside.
    overhead_min = (
        timings["agent+gate"]["min_ms"]
        - timings["agent"]["min_ms"]
        - timings["gate check inside the agent"]["min_ms"]
    )
    results = {
        "runs": args.runs,
        "embedder": "all-MiniLM-L6-v2" if args.real_model else "HashingEmbedder",
        "tool_calls": 3,
        "evidence_items": len(evidence),
        "timings": timings,
        "middleware_overhead_ms": overhead,
        "middleware_overhead_min_based_ms": overhead_min,
        "load_average": os.getloadavg(),
        "overhead_share_of_agent_run": overhead / timings["agent+gate"]["median_ms"],
        "machine": {
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
    }
    width = max(len(k) for k in timings)
    print(f"3-tool-call agent run, {args.runs} runs, embedder {results['embedder']}")
    for name, t in timings.items():
        print(
            f"  {name:<{width}}  min {t['min_ms']:7.2f}  median {t['median_ms']:7.2f}  "
            f"p90 {t['p90_ms']:7.2f} ms"
        )
    print(
        f"  middleware overhead beyond the gate: {overhead:.2f} ms per run "
        f"({100 * results['overhead_share_of_agent_run']:.1f}% of the gated run); "
        f"min-based {overhead_min:.2f} ms; load average {os.getloadavg()[0]:.1f}"
    )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
