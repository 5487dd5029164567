"""Hostile input (issue 15): linear-time rows and a large fuzz run.

(a) Linear time: seconds of ``extract_claims`` and ``verify_grounding`` (the real bundled
    model, ONNX Runtime) against the answer's size, for ordinary prose and for one long token
    (``"Acme reported " + token + " in 2020."``; the token is base64-like), 10 K .. 1 M chars.
    The evidence is the four example documents (69 chunks); a last row puts the long token in
    the evidence instead. Each figure is the median of ``--repeats`` runs, every run on new
    text (the embedding cache never answers).
(b) Fuzz: the strategies of ``tests/unit_tests/_hostile.py`` (hypothesis, fixed seed) with
    tokens up to ``--max-token`` chars, over extract_claims, verify_grounding, the gate and
    the integration entry points, with the hashing embedder. Counts inputs, verdicts,
    documented errors (``QGateError`` subclasses, by class), anything else (must be 0) and
    contract violations (must be 0), and the slowest input.

(c) Streaming (issue 26): ``--streaming N`` runs only the streaming fuzz set of
    ``benchmarks/_hardening_streaming.py`` (N cases, the real bundled model) and writes
    benchmarks/results/hardening_streaming.json.

Run: OMP_NUM_THREADS=2 python benchmarks/bench_hardening.py [--fuzz 3000] [--skip-linear]
     OMP_NUM_THREADS=2 python benchmarks/bench_hardening.py --streaming 400
Writes benchmarks/results/hardening.json.

Issue 26 (structured evidence, size): ``--structured 3000`` runs only the structured fuzz
set and ``--sizes-table`` only the size table (benchmarks/_hardening_structured.py); they
write benchmarks/results/hardening_structured.json.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import platform
import statistics
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from langchain_qgate.config import GroundingPolicy  # noqa: E402
from langchain_qgate.errors import QGateError  # noqa: E402
from langchain_qgate.gate import GatePolicy, QualityGate  # noqa: E402
from langchain_qgate.grounding import HallucinationMonitor, extract_claims  # noqa: E402
from langchain_qgate.testing import load_docs  # noqa: E402
from tests.unit_tests._hostile import (  # noqa: E402
    check_claims,
    check_decision,
    check_report,
    evidence_inputs,
    hostile_texts,
)
from tests.unit_tests.test_fuzz import ENTRY_POINTS, StrictEmbedder, _run  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "hardening.json"
OUT_STREAMING = ROOT / "benchmarks" / "results" / "hardening_streaming.json"
SIZES = [10_000, 100_000, 200_000, 1_000_000]
PROSE = [
    "Nordlicht Robotics reported revenue of €{k}.2 million in fiscal year {n}. ",
    "The company employs {k} people at its sites in Hamburg and Lyon since {n}. ",
    "Its Kestrel P{k} robot picks up to 1,{k} items per hour, Dr. Weber said in {n}. ",
    "Revenue grew {k}% from €36.8 million, so the board raised the dividend in {n}. ",
    "I think the warranty covers {k} months, but please check the {n} terms. ",
    "See https://example.com/report-{k}.pdf for the {n} details [1].\n\n",
]


def prose(size: int, seed: int) -> str:
    out: list[str] = []
    total, n = 0, 0
    while total < size:
        # Every sentence differs (k), so the embedding cache never answers.
        line = PROSE[n % len(PROSE)].format(n=1900 + (seed * 7 + n) % 199, k=seed * 100_000 + n)
        out.append(line)
        total += len(line)
        n += 1
    return "".join(out)[:size]


def long_token(size: int, seed: int) -> str:
    raw = bytes((seed * 31 + i * 17) % 256 for i in range(size * 3 // 4 + 3))
    token = base64.b64encode(raw).decode()[: size - 24]
    return f"Acme reported {token} in 2020."


def timed(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def linear_rows(repeats: int, sizes: list[int]) -> list[dict[str, Any]]:
    monitor = HallucinationMonitor(policy=GroundingPolicy(max_claims=None))  # 1 MB answers
    docs = load_docs(ROOT / "examples" / "docs")
    index = monitor.build_index(docs)
    monitor.verify_grounding("Nordlicht Robotics reported revenue of €48.2 million.", index)
    rows: list[dict[str, Any]] = []
    cases = [("ordinary text", prose, "answer"), ("one long token", long_token, "answer")]
    cases.append(("one long token", long_token, "evidence"))
    for shape, make, where in cases:
        for size in sizes:
            claims_s, verify_s, n_claims = [], [], 0
            for r in range(repeats):
                text = make(size, r + 1)
                claims_s.append(timed(lambda t=text: extract_claims(t)))
                n_claims = len(extract_claims(text))
                if where == "answer":
                    verify_s.append(timed(lambda t=text: monitor.verify_grounding(t, index)))
                else:
                    question = "What did Acme report?"
                    verify_s.append(
                        timed(
                            lambda t=text, q=question: monitor.verify_grounding(
                                "Acme reported its results in 2020.", [*docs, t], question=q
                            )
                        )
                    )
            row = {
                "shape": shape,
                "in": where,
                "chars": size,
                "claims": n_claims,
                "extract_claims_s": round(statistics.median(claims_s), 3),
                "verify_grounding_s": round(statistics.median(verify_s), 3),
            }
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    return rows


def fuzz(n: int, max_token: int) -> dict[str, Any]:
    texts = hostile_texts(max_token=max_token, max_pieces=12)
    monitor = HallucinationMonitor(embedder=StrictEmbedder())
    gate = QualityGate(monitor=monitor, policy=GatePolicy(max_retries=1))
    entries = ["extract_claims", "verify_grounding", "gate.check", *ENTRY_POINTS]
    inputs: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    documented: Counter[str] = Counter()
    other: Counter[str] = Counter()
    violations: list[str] = []
    slowest = {"seconds": 0.0, "entry": "", "chars": 0}
    chars = 0

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(
        entry=st.sampled_from(entries),
        answer=texts,
        evidence=evidence_inputs(texts),
        question=st.none() | texts,
    )
    def one(entry: str, answer: str, evidence: Any, question: str | None) -> None:
        nonlocal chars
        inputs[entry] += 1
        size = len(answer) + len(question or "") + len(str(evidence))
        chars += size
        start = time.perf_counter()
        try:
            if entry == "extract_claims":
                check_claims(answer, extract_claims(answer, question=question))
            elif entry == "verify_grounding":
                check_report(answer, monitor.verify_grounding(answer, evidence, question=question))
            elif entry == "gate.check":
                check_decision(gate.check(answer, evidence, question=question))
            else:
                _run(entry, answer, evidence, question or "")
            verdicts[entry] += 1
        except QGateError as exc:
            documented[type(exc).__name__] += 1
        except AssertionError as exc:
            violations.append(f"{entry}: {exc}")
        except Exception as exc:
            other[f"{type(exc).__name__} in {entry}"] += 1
            if sum(other.values()) <= 3:
                traceback.print_exc()
        took = time.perf_counter() - start
        if took > slowest["seconds"]:
            slowest.update(seconds=round(took, 3), entry=entry, chars=size)

    start = time.perf_counter()
    one()
    return {
        "inputs": sum(inputs.values()),
        "inputs_by_entry_point": dict(sorted(inputs.items())),
        "characters": chars,
        "verdicts": sum(verdicts.values()),
        "documented_errors": dict(documented.most_common()),
        "other_exceptions": dict(other.most_common()),
        "contract_violations": violations[:20],
        "contract_violation_count": len(violations),
        "slowest_input": slowest,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuzz", type=int, default=3000, help="fuzz inputs")
    ap.add_argument("--max-token", type=int, default=50_000, help="longest generated token")
    ap.add_argument("--repeats", type=int, default=3, help="runs per linear-time figure")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="answer sizes (chars)")
    ap.add_argument("--skip-linear", action="store_true")
    ap.add_argument("--streaming", type=int, default=0, help="run only N streaming cases")
    ap.add_argument("--seed", type=int, default=26, help="seed of the streaming cases")
    ap.add_argument("--structured", type=int, default=0, help="structured fuzz inputs (only)")
    ap.add_argument("--structured-scale", type=float, default=1.0, help="shrink its big shapes")
    ap.add_argument("--structured-pair-model", default="bundled", help="'none': rules only")
    ap.add_argument("--sizes-table", action="store_true", help="the size table (only)")
    args = ap.parse_args()
    if args.structured or args.sizes_table:
        from benchmarks import _hardening_structured

        command = f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '')} python "
        command += f"benchmarks/bench_hardening.py {' '.join(sys.argv[1:])}"
        _hardening_structured.run(
            args.structured,
            args.structured_scale,
            args.sizes_table,
            command,
            args.structured_pair_model,
        )
        return
    result: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "command": f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '')} python "
        f"benchmarks/bench_hardening.py {' '.join(sys.argv[1:])}".strip(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }
    if args.streaming:
        from benchmarks._hardening_streaming import run

        result["streaming"] = run(args.streaming, seed=args.seed, monitor=HallucinationMonitor())
        result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(result["streaming"]["total"], indent=2))
        OUT_STREAMING.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        return
    if not args.skip_linear:
        result["linear"] = linear_rows(args.repeats, [int(x) for x in args.sizes.split(",")])
    result["fuzz"] = fuzz(args.fuzz, args.max_token)
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result["fuzz"], indent=2))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
