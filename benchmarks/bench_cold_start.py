"""Cold start: how long a fresh process takes to give its first verdict.

Three figures, each the median of ``--runs`` fresh processes (5 by default), after one warm-up
process that is not counted (so the ONNX export of the embedding model is cached, as it is on
every run after the first ever):

- ``import``: ``import langchain_qgate``, timed inside the process;
- ``first_check``: ``from langchain_qgate import QualityGate`` then the first
  ``QualityGate().check(answer, evidence)`` (models loaded on first use), timed inside the
  process from before the import to the verdict; the check call alone is reported beside it;
- ``cli``: ``qgate check --evidence examples/check/evidence.md --answer
  examples/check/answer.md``, wall time seen from outside, interpreter start included.

The machine is printed and stored with the figures: CPU count and the load average before
and after (other jobs on a small machine make every figure slower; compare figures only at a
similar load).

Run: python benchmarks/bench_cold_start.py [--runs 5]
Writes benchmarks/results/cold_start.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "cold_start.json"
EVIDENCE = ROOT / "examples" / "check" / "evidence.md"
ANSWER = ROOT / "examples" / "check" / "answer.md"

IMPORT = """
import time
t0 = time.perf_counter()
import langchain_qgate
print(time.perf_counter() - t0)
"""

FIRST_CHECK = """
import sys, time
t0 = time.perf_counter()
from langchain_qgate import QualityGate
t1 = time.perf_counter()
evidence = [open(sys.argv[1], encoding="utf-8").read()]
answer = open(sys.argv[2], encoding="utf-8").read()
decision = QualityGate().check(answer, evidence)
t2 = time.perf_counter()
print(t2 - t0, t2 - t1, decision.metadata.decision)
"""


def _env() -> dict[str, str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def _python(code: str, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip().splitlines()[-1]


def _qgate() -> list[str]:
    script = Path(sys.executable).with_name("qgate")
    return [str(script)] if script.exists() else [sys.executable, "-m", "langchain_qgate.cli"]


def _cli_seconds() -> tuple[float, int]:
    argv = [*_qgate(), "check", "--evidence", str(EVIDENCE), "--answer", str(ANSWER)]
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=ROOT, env=_env(), capture_output=True, check=False)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # pass or rejected; anything else is a failure
        raise RuntimeError(proc.stderr.decode(errors="replace")[-2000:])
    return seconds, proc.returncode


def _summary(values: list[float]) -> dict[str, Any]:
    return {
        "median_s": round(statistics.median(values), 3),
        "min_s": round(min(values), 3),
        "max_s": round(max(values), 3),
        "runs_s": [round(v, 3) for v in values],
    }


def _machine() -> dict[str, Any]:
    return {
        "cpu_count": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "platform": platform.platform(),
        "python": platform.python_version(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per figure")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the JSON")
    args = parser.parse_args(argv)

    before = _machine()
    print(
        f"machine: {before['cpu_count']} CPUs, load average {before['load_average_1_5_15']} "
        f"(1/5/15 min), {before['platform']}, Python {before['python']}"
    )
    _python(FIRST_CHECK, str(EVIDENCE), str(ANSWER))  # warm-up: the ONNX export is cached

    imports = [float(_python(IMPORT)) for _ in range(args.runs)]
    totals, calls, decisions = [], [], set()
    for _ in range(args.runs):
        total, call, decision = _python(FIRST_CHECK, str(EVIDENCE), str(ANSWER)).split()
        totals.append(float(total))
        calls.append(float(call))
        decisions.add(decision)
    cli, codes = [], set()
    for _ in range(args.runs):
        seconds, code = _cli_seconds()
        cli.append(seconds)
        codes.add(code)

    after = _machine()
    result = {
        "what": "fresh processes, ONNX export cached (one warm-up process first)",
        "runs": args.runs,
        "machine": {**before, "load_average_after": after["load_average_1_5_15"]},
        "import": _summary(imports),
        "first_check": {
            **_summary(totals),
            "check_call": _summary(calls),
            "decision": sorted(decisions),
        },
        "cli": {
            **_summary(cli),
            "command": "qgate check --evidence examples/check/evidence.md "
            "--answer examples/check/answer.md",
            "exit_codes": sorted(codes),
        },
    }
    print(f"import langchain_qgate                   median {result['import']['median_s']:.3f} s")
    print(
        f"import + first QualityGate().check(...)  median {result['first_check']['median_s']:.3f}"
        f" s (the check call alone {result['first_check']['check_call']['median_s']:.3f} s)"
    )
    print(f"qgate check (CLI wall time)              median {result['cli']['median_s']:.3f} s")
    print(f"load average after: {after['load_average_1_5_15']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
