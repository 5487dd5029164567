"""Judge layer: time to judge large agent results, and how it scales.

Measures ``JudgeLayer.judge`` on one ``AgentResult`` with N hypotheses (one cited id each)
against a signal memory of M ids:

* the headline case: N = 10,000 hypotheses, M = 100,000 ids, all valid;
* the same with the last hypothesis citing an unknown id (the rejection message, with its
  truncated sorted list of valid ids, is built);
* scaling in N (1k / 10k / 100k hypotheses at M = 100k) and in M (1k / 10k / 100k ids at
  N = 10k), to show linear time: the time per hypothesis stays flat;
* ``CitationJudge.check`` on the same result (path ``hypotheses[].supporting_signals``).

Building the inputs is not timed. Figures: best CPU time of the process, best and median
wall time, over ``--repeats`` runs.

Usage:
    python benchmarks/bench_judge.py [--repeats 9]
Writes ``benchmarks/results/judge.json`` and prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from langchain_qgate.judge import (  # noqa: E402
    AgentResult,
    CitationJudge,
    Hypothesis,
    InMemorySignalMemory,
    JudgeLayer,
)

RESULTS = ROOT / "benchmarks" / "results"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def make_ids(m: int) -> list[str]:
    return [f"sig-{i:07d}" for i in range(m)]


def make_result(n: int, ids: list[str], *, bad_last: bool = False) -> AgentResult:
    hyps = [
        Hypothesis(title=f"h{i}", supporting_signals=[ids[(i * 7919) % len(ids)]], confidence=0.5)
        for i in range(n)
    ]
    if bad_last:
        hyps[-1] = Hypothesis(title="last", supporting_signals=["sig-unknown"], confidence=0.5)
    return AgentResult(agent_name="bench", hypotheses=hyps)


def timed(fn, repeats: int) -> dict:
    """Best CPU time of this process, best and median wall time, in milliseconds.

    CPU time (``time.process_time``) is the figure to read on a shared machine: wall time
    also counts the time the process waited for a core while other jobs ran.
    """
    cpu, wall = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return {
        "cpu_ms": round(min(cpu) * 1e3, 2),
        "wall_ms": round(min(wall) * 1e3, 2),
        "wall_ms_median": round(statistics.median(wall) * 1e3, 2),
    }


def judge_case(n: int, m: int, repeats: int, *, bad_last: bool = False) -> dict:
    ids = make_ids(m)
    memory = InMemorySignalMemory(ids)
    layer = JudgeLayer(memory)
    result = make_result(n, ids, bad_last=bad_last)
    verdict = layer.judge(result)
    assert verdict.valid is (not bad_last), verdict.rejection_reason
    t = timed(lambda: layer.judge(result), repeats)
    return {
        "hypotheses": n,
        "valid_ids": m,
        "valid": verdict.valid,
        **t,
        "cpu_us_per_hypothesis": round(t["cpu_ms"] * 1e3 / n, 2),
    }


def citation_case(n: int, m: int, repeats: int) -> dict:
    ids = make_ids(m)
    valid = frozenset(ids)
    judge = CitationJudge("hypotheses[].supporting_signals")
    result = make_result(n, ids)
    assert judge.check(result, valid).valid
    t = timed(lambda: judge.check(result, valid), repeats)
    return {
        "hypotheses": n,
        "valid_ids": m,
        **t,
        "cpu_us_per_hypothesis": round(t["cpu_ms"] * 1e3 / n, 2),
    }


def table(rows: list[dict], cols: list[str]) -> str:
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append(
            "| "
            + " | ".join(
                f"{r[c]:,}" if isinstance(r[c], int) and not isinstance(r[c], bool) else str(r[c])
                for c in cols
            )
            + " |"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    r = args.repeats

    headline = judge_case(10_000, 100_000, r)
    headline_bad = judge_case(10_000, 100_000, r, bad_last=True)
    scale_n = [judge_case(n, 100_000, r) for n in (1_000, 10_000, 100_000)]
    scale_m = [judge_case(10_000, m, r) for m in (1_000, 10_000, 100_000)]
    scale_m_bad = [judge_case(10_000, m, r, bad_last=True) for m in (1_000, 10_000, 100_000)]
    citation = [citation_case(n, 100_000, r) for n in (1_000, 10_000, 100_000)]

    out = {
        "machine": machine(),
        "repeats": r,
        "statistic": "cpu_ms / wall_ms = best of repeats; wall_ms_median = median",
        "headline_valid": headline,
        "headline_rejected_last": headline_bad,
        "scaling_hypotheses": scale_n,
        "scaling_ids": scale_m,
        "scaling_ids_rejected_last": scale_m_bad,
        "citation_judge": citation,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "judge.json").write_text(json.dumps(out, indent=2) + "\n")

    cols = [
        "hypotheses",
        "valid_ids",
        "cpu_ms",
        "wall_ms",
        "wall_ms_median",
        "cpu_us_per_hypothesis",
    ]
    print(f"Machine: {out['machine']}; best and median of {r} runs\n")
    print("Headline (10k hypotheses, 100k ids):")
    print(
        table(
            [{**headline, "case": "valid"}, {**headline_bad, "case": "last cites unknown id"}],
            ["case", *cols],
        )
    )
    print("\nScaling in hypotheses (100k ids):")
    print(table(scale_n, cols))
    print("\nScaling in valid ids (10k hypotheses), valid / last cites an unknown id:")
    rows = [
        {**a, "cpu_ms_rejected": b["cpu_ms"]} for a, b in zip(scale_m, scale_m_bad, strict=True)
    ]
    print(table(rows, [*cols, "cpu_ms_rejected"]))
    print("\nCitationJudge.check (100k ids):")
    print(table(citation, cols))


if __name__ == "__main__":
    main()
