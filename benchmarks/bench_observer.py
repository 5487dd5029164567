"""Cost of recording a verdict (issue 25, item 1) next to the cost of the check itself.

Times ``GateObserver.observe`` on one decision (a contradicted two-claim answer) for each sink
setup: no sink; logs on but the logger at WARNING (the default: nothing is formatted); logs at
DEBUG into a ``NullHandler``; a recording span (a fake with ``set_attributes``); LangSmith
feedback into the local fake client under a run tree; all together. Then the median of
``QualityGate.check`` on the same answer with the bundled model (ONNX Runtime, warm), with the
default observer (tracing off) and with ``observer=False``.

Run: OMP_NUM_THREADS=2 python benchmarks/bench_observer.py [--calls 2000] [--checks 30]
Writes benchmarks/results/observer.json.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from langsmith.run_helpers import tracing_context  # noqa: E402
from langsmith.run_trees import RunTree  # noqa: E402

from langchain_qgate.gate import GateObserver, QualityGate  # noqa: E402
from langchain_qgate.testing import FakeLangSmithClient  # noqa: E402

ANSWER = (
    "Nordlicht Robotics reported revenue of €52.7 million in fiscal year 2024. "
    "The company plans to list its shares on the Frankfurt stock exchange in 2026."
)
EVIDENCE = ["In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million."]


class _Span:
    def is_recording(self) -> bool:
        return True

    def set_attributes(self, attributes: dict[str, Any]) -> None:
        self.attributes = attributes


def _off() -> tuple[None, bool]:
    return None, False


def _per_call_us(fn: Any, calls: int) -> float:
    fn()  # warm
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return round((time.perf_counter() - start) / calls * 1e6, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--checks", type=int, default=30)
    args = parser.parse_args()
    result: dict[str, Any] = {
        "command": " ".join(["python", *sys.argv]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }
    gate = QualityGate(observer=False)
    report = gate.monitor.verify_grounding(ANSWER, EVIDENCE)
    decision = gate.decide(ANSWER, report)
    log = logging.getLogger("langchain_qgate.verdicts")
    span = _Span()
    client = FakeLangSmithClient()
    run = RunTree(name="bench", run_type="chain", client=client)

    def traced() -> tuple[RunTree, bool]:
        return run, True

    def observer(**kwargs: Any) -> GateObserver:
        base: dict[str, Any] = {
            "log": False,
            "opentelemetry": False,
            "langsmith": False,
            "run": _off,
        }
        return GateObserver(**{**base, **kwargs})

    setups = {
        "no sink": observer(),
        "logs, logger at WARNING": observer(log=True),
        "opentelemetry span": observer(opentelemetry=True, span=lambda: span),
        "langsmith feedback (fake client)": observer(langsmith=True, client=client, run=traced),
    }
    timings: dict[str, float] = {}
    for name, obs in setups.items():
        timings[name] = _per_call_us(
            lambda obs=obs: obs.observe(decision, report=report), args.calls
        )
    log.addHandler(logging.NullHandler())
    log.setLevel(logging.DEBUG)
    debug = observer(log=True)
    timings["logs at DEBUG (NullHandler)"] = _per_call_us(
        lambda: debug.observe(decision, report=report), args.calls
    )
    result["observe_us_per_verdict"] = timings
    log.setLevel(logging.NOTSET)

    checks: dict[str, float] = {}
    for name, obs in (("observer=False", False), ("default observer, tracing off", True)):
        g = QualityGate(monitor=gate.monitor, observer=obs)
        times = []
        for _ in range(args.checks):
            start = time.perf_counter()
            with tracing_context(enabled=False):
                g.check(ANSWER, EVIDENCE)
            times.append(time.perf_counter() - start)
        checks[name] = round(statistics.median(times) * 1e3, 2)
    result["check_ms_median"] = checks
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out = ROOT / "benchmarks" / "results" / "observer.json"
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
