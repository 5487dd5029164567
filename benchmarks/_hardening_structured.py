"""Structured evidence under hostile shapes (issue 26): the fuzz set and the size table.

Fuzz set: ``records(seed, n)`` builds structured evidence of every hostile shape (deep,
wide, shared, cyclic, huge numbers, surrogates, odd keys, long lists, mixed) in every
accepted carrier (dict, list of records, JSON string, ``Document``, ``ToolMessage`` content
and artifact, ``.json`` and ``.jsonl`` files through ``qgate check``), each with a planted
record (``{"company": "Acme", "employees": N}``) and an answer that states another number
for it. ``run_fuzz`` sends each through one entry point (the monitor, the gate and every
integration) with the hashing embedder and counts verdicts, documented errors
(``QGateError`` subclasses, by class), anything else (must be 0), contract violations (must
be 0: scores in [0, 1], reports encodable as JSON, the planted contradiction never graded
GROUNDED, no source read past its caps) and inputs over the per-input budget.

Size table: ``size_rows`` times one ``verify_grounding`` call with the real bundled model
per row (answer 10 KB .. 1 MB, evidence 100 KB .. 10 MB, 1,000 .. 20,000 documents with and
without ids), each row in a fresh process so its peak RSS is its own.

Run through ``benchmarks/bench_hardening.py --structured N`` and ``--sizes-table``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from langchain_core.documents import Document  # noqa: E402
from langchain_core.messages import ToolMessage  # noqa: E402

from langchain_qgate.errors import QGateError  # noqa: E402
from langchain_qgate.grounding.evidence._flatten import MAX_FIELDS, MAX_VALUES  # noqa: E402
from langchain_qgate.schemas import Grade, GroundingReport  # noqa: E402

SHAPES = [
    "deep",
    "wide",
    "shared",
    "cyclic",
    "huge_numbers",
    "surrogates",
    "odd_keys",
    "long_list",
    "mixed",
]
CARRIERS = ["dict", "records", "json", "document", "tool_content", "tool_artifact", "file"]
ENTRIES = ["verify_grounding", "gate.check", "acheck", "middleware", "node", "callback", "runnable"]
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]


class _BadStr:
    """A key or value whose ``str`` raises."""

    def __str__(self) -> str:
        raise RuntimeError("a __str__ that raises")

    __repr__ = __str__


@dataclass
class Record:
    """One fuzz input.

    Attributes:
        shape: The hostile shape of the noise beside the planted record.
        carrier: How the evidence is passed.
        evidence: The evidence as passed (for ``file``: a ``(name, text)`` pair).
        answer: An answer that contradicts the planted record.
        employees: The planted value.
    """

    shape: str
    carrier: str
    evidence: Any
    answer: str
    employees: int


def _noise(shape: str, rng: random.Random, scale: float, *, text: bool = False) -> Any:
    def n(lo: int, hi: int) -> int:
        return rng.randint(lo, max(lo, int(hi * scale)))

    if shape == "deep":
        value: Any = rng.choice([1, "x", None, [1, 2]])
        for _ in range(n(30, 3_000)):
            value = {"a": value} if rng.random() < 0.7 else [value]
        return value
    if shape == "wide":
        width = rng.randint(100, max(6_000, int(12_000 * scale)))  # past the field cap too
        return {f"k{i}": rng.choice([i, f"v{i}", None, [i]]) for i in range(width)}
    if shape == "shared":
        value = rng.choice([None, 1, {"city": "Berlin"}])
        # 2**30 paths at any scale, the budget stops the walk; as JSON text (which cannot
        # share) at most 2**14 copies, or the generator itself would write gigabytes
        for _ in range(rng.randint(8, 14 if text else 30)):
            value = {"a": value, "b": value} if rng.random() < 0.8 else [value, value, value]
        return value
    if shape == "cyclic":
        loop: dict[str, Any] = {"total": 5}
        loop["self"] = loop
        items: list[Any] = [loop, {"price": 3}]
        items.append(items)
        loop["items"] = items
        return loop
    if shape == "huge_numbers":
        return {
            "big": 10 ** rng.randint(300, 60_000) * rng.choice([1, -1]),  # at any scale
            "float": rng.choice([float("inf"), float("-inf"), float("nan"), 1e308, -0.0]),
            "text": "9" * rng.randint(300, 6_000),
            "money": f"€{'9' * rng.randint(305, 400)} million",
        }
    if shape == "surrogates":
        s = rng.choice(SURROGATES)
        return {f"k{s}": f"value {s} 5", "list": [s, f"a{s}b"], s: {s: s}}
    if shape == "odd_keys":
        return {
            _BadStr(): 1,
            (1, 2): "tuple",
            None: "none",
            b"bytes": 2,
            frozenset({1}): 3,
            "x" * n(100, 100_000): 4,
            10**5000: 5,
            1.5: 6,
            "": 7,
            "\n\t": 8,
            "value": _BadStr(),
        }
    if shape == "long_list":
        return list(range(rng.randint(150, max(25_000, int(600_000 * scale)))))  # past the budget
    # mixed: a bit of everything, smaller
    return {s: _noise(s, rng, scale / 20, text=text) for s in rng.sample(SHAPES[:-1], 3)}


def _carry(carrier: str, data: dict[str, Any], rng: random.Random) -> Any:
    if carrier == "dict":
        return data
    if carrier == "records":
        return [data, {"company": "Other", "employees": 1}]
    if carrier == "tool_artifact":
        return ToolMessage(content="", artifact=data, tool_call_id="t", name="crm")
    text = _json_text(data)
    if carrier == "json":
        return text
    if carrier == "document":
        return Document(page_content=text, metadata={"source": "crm.json"})
    if carrier == "tool_content":
        return ToolMessage(content=text, tool_call_id="t", name="crm")
    name = rng.choice(["crm.json", "crm.jsonl"])
    if name.endswith(".jsonl"):
        return name, json.dumps({"text": text}) + "\n"
    return name, text


def _json_text(data: Any) -> str:
    """JSON of ``data`` as far as JSON can hold it (cycles, odd keys: the readable part)."""
    try:
        return json.dumps(data, default=str, skipkeys=True)
    except (ValueError, RecursionError, RuntimeError, TypeError):
        flat = {k: v for k, v in data.items() if k in ("company", "employees")}
        return json.dumps({**flat, "noise": "not representable in JSON"})


def records(seed: int, n: int, *, scale: float = 1.0) -> Iterator[Record]:
    """``n`` fuzz inputs, the same for the same seed; ``scale`` shrinks the big shapes."""
    rng = random.Random(seed)
    for i in range(n):
        shape = SHAPES[i % len(SHAPES)]
        carrier = rng.choice(CARRIERS)
        employees = rng.randint(2, 9_999)
        data: dict[str, Any] = {"company": "Acme", "employees": employees}
        as_text = carrier not in ("dict", "records", "tool_artifact")
        data["noise"] = _noise(shape, rng, scale, text=as_text)
        said = rng.choice([employees + rng.randint(1, 500), 10 ** rng.randint(309, 400) - 1])
        answer = f"Acme has {said} employees."
        yield Record(shape, carrier, _carry(carrier, data, rng), answer, employees)


def _check(record: Record, report: GroundingReport) -> list[str]:
    """Contract violations of one report."""
    from tests.unit_tests._hostile import check_report

    out: list[str] = []
    try:
        check_report(record.answer, report)
    except AssertionError as exc:
        out.append(str(exc))
    if report.evidence_count > 2 * (MAX_FIELDS + MAX_VALUES):
        out.append(f"{report.evidence_count} chunks: a source was read past its caps")
    graded = [v for v in report.verdicts if v.counted]
    if any(v.grade is Grade.GROUNDED for v in graded):
        out.append(f"contradicted claim graded GROUNDED: {record.answer[:60]!r}")
    return out


def _cli(record: Record, pair_model: str | None) -> tuple[int, str]:
    """``qgate check --json`` on the record's file: (exit code, stdout for a verdict (0 pass,
    1 rejected) or stderr for an input error (2))."""
    from contextlib import redirect_stderr, redirect_stdout

    from langchain_qgate.cli import main

    name, text = record.evidence
    with tempfile.TemporaryDirectory() as tmp:
        ev, ans = Path(tmp) / name, Path(tmp) / "answer.txt"
        ev.write_text(text, encoding="utf-8", errors="surrogatepass")
        ans.write_text(record.answer, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            argv = ["check", "--answer", str(ans), "--evidence", str(ev), "--json"]
            code = main([*argv, "--pair-model", str(pair_model)])
    return code, out.getvalue() if code in (0, 1) else err.getvalue()


def _hashing_cli() -> contextlib.AbstractContextManager[Any]:
    from unittest import mock

    import langchain_qgate.grounding.evidence.embeddings as embeddings
    from tests.unit_tests.test_fuzz import StrictEmbedder

    return mock.patch.object(embeddings, "default_embedder", return_value=StrictEmbedder())


def _one(record: Record, entry: str, pair_model: str | None) -> tuple[str, list[str]]:
    """Run one input: ("verdict", violations) or raise."""
    from tests.unit_tests.test_fuzz import GATE, MONITOR, _run

    if record.carrier == "file":
        with _hashing_cli():
            code, text = _cli(record, pair_model)
        if code == 2:  # an input error: one line, "qgate check: error: <file>: ..."
            if text.count("\n") != 1 or not text.startswith("qgate check: error: "):
                return "verdict", [f"CLI error not one line: {text[:200]!r}"]
            raise _CliDocumentedError(text)
        report = GroundingReport.model_validate(json.loads(text)["report"])
        return "verdict", _check(record, report)
    evidence = [record.evidence]
    if entry == "verify_grounding":
        report = MONITOR.verify_grounding(record.answer, evidence, question="How big is Acme?")
        return "verdict", _check(record, report)
    if entry == "gate.check":
        decision = GATE.check(record.answer, evidence, question="How big is Acme?")
        return "verdict", _check_decision(record, decision)
    if entry == "acheck":
        decision = asyncio.run(GATE.acheck(record.answer, evidence))
        return "verdict", _check_decision(record, decision)
    _run(entry, record.answer, evidence, "How big is Acme?")
    return "verdict", []


def _check_decision(record: Record, decision: Any) -> list[str]:
    from tests.unit_tests._hostile import check_decision

    check_decision(decision)  # AssertionError: a contract violation
    if any(c.counted and c.grade == "grounded" for c in decision.metadata.claims):
        return [f"contradicted claim graded grounded by the gate: {record.answer[:60]!r}"]
    return []


class _CliDocumentedError(Exception):
    """``qgate check`` exited 1 with its one-line error (a documented error)."""


def run_fuzz(
    n: int,
    seed: int = 26,
    *,
    scale: float = 1.0,
    budget_s: float = 10.0,
    pair_model: str | None = "bundled",
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run ``n`` structured fuzz inputs; counts as described in the module docstring.

    Args:
        n: Number of inputs.
        seed: Seed of the generator (same seed, same inputs).
        scale: Shrinks the big shapes (CI runs a small scale).
        budget_s: Inputs that take longer are listed in ``over_budget``.
        pair_model: ``GroundingPolicy.pair_model`` of the monitor, the gate and the CLI
            (``None``: the rules alone, several times cheaper per input on a busy machine;
            the walk, the parsing and the caps under test are the same).
        progress: Called with the number of inputs done, every 100.
    """
    rng = random.Random(seed + 1)
    shapes: Counter[str] = Counter()
    carriers: Counter[str] = Counter()
    verdicts = 0
    documented: Counter[str] = Counter()
    foreign: Counter[str] = Counter()
    violations: list[str] = []
    over: list[dict[str, Any]] = []
    slowest: dict[str, Any] = {"seconds": 0.0}
    start_all = time.perf_counter()
    with _pair_model(pair_model):
        for i, record in enumerate(records(seed, n, scale=scale)):
            entry = "cli" if record.carrier == "file" else rng.choice(ENTRIES)
            shapes[record.shape] += 1
            carriers[record.carrier] += 1
            start = time.perf_counter()
            where = {"shape": record.shape, "carrier": record.carrier, "entry": entry}
            tag = f"{record.shape}/{record.carrier}/{entry}"
            try:
                _, found = _one(record, entry, pair_model)
                verdicts += 1
                violations.extend(f"{tag}: {v}" for v in found)
            except _CliDocumentedError as exc:
                documented["CliError" if "nested" not in str(exc) else "CliError (nesting)"] += 1
            except QGateError as exc:
                documented[type(exc).__name__] += 1
            except AssertionError as exc:
                violations.append(f"{tag}: {exc}")
            except Exception as exc:  # the count that must stay 0
                foreign[f"{type(exc).__name__} in {tag}"] += 1
                if sum(foreign.values()) <= 3:
                    traceback.print_exc()
            took = time.perf_counter() - start
            if took > budget_s:
                over.append({**where, "seconds": round(took, 2)})
            if took > slowest["seconds"]:
                slowest = {**where, "seconds": round(took, 3)}
            if progress is not None and (i + 1) % 100 == 0:
                progress(i + 1)
    return {
        "inputs": n,
        "seed": seed,
        "scale": scale,
        "pair_model": pair_model,
        "inputs_by_shape": dict(sorted(shapes.items())),
        "inputs_by_carrier": dict(sorted(carriers.items())),
        "verdicts": verdicts,
        "documented_errors": dict(documented.most_common()),
        "foreign_errors": dict(foreign.most_common()),
        "contract_violations": violations[:20],
        "contract_violation_count": len(violations),
        "budget_s": budget_s,
        "over_budget": over,
        "slowest_input": slowest,
        "seconds": round(time.perf_counter() - start_all, 1),
    }


def _pair_model(pair_model: str | None) -> contextlib.AbstractContextManager[Any]:
    """The fuzz tests' monitor and gate with another pair model (unchanged for "bundled")."""
    from unittest import mock

    from langchain_qgate.config import GroundingPolicy
    from langchain_qgate.gate import QualityGate
    from langchain_qgate.grounding import HallucinationMonitor
    from tests.unit_tests import test_fuzz

    if pair_model == "bundled":
        return contextlib.nullcontext()
    policy = GroundingPolicy(pair_model=pair_model)
    monitor = HallucinationMonitor(embedder=test_fuzz.StrictEmbedder(), policy=policy)
    gate = QualityGate(monitor=monitor, policy=test_fuzz.POLICY)
    return mock.patch.multiple(test_fuzz, MONITOR=monitor, GATE=gate)


# -- size table ------------------------------------------------------------------------------

SIZE_ROWS: list[tuple[str, int]] = [
    ("answer_chars", 10_000),
    ("answer_chars", 19_500),  # just under the default max_claims (250)
    ("answer_chars", 100_000),
    ("answer_chars", 1_000_000),
    ("evidence_chars", 100_000),
    ("evidence_chars", 1_000_000),
    ("evidence_chars", 3_000_000),  # just under the default max_evidence_chunks (40,000)
    ("evidence_chars", 10_000_000),
    ("documents_with_ids", 1_000),
    ("documents_with_ids", 10_000),
    ("documents_with_ids", 20_000),
    ("documents_without_ids", 1_000),
    ("documents_without_ids", 10_000),
    ("documents_without_ids", 20_000),
]
SHORT_ANSWER = (
    "Nordlicht Robotics reported revenue of €48.2 million in fiscal year 2024. "
    "The company employs 310 people in Hamburg and Lyon."
)


def _size_inputs(kind: str, size: int) -> tuple[str, list[Any]]:
    from bench_hardening import prose

    from langchain_qgate.testing import load_docs

    if kind == "record_clauses":  # one claim of ``size`` clauses about a record's hours
        shop = {"name": "Shop", "hours": {"Monday": "10:00-18:00", "Saturday": "10:00-16:00"}}
        return "Shop is open " + ", ".join(["10 am to 6 pm on Mondays"] * size) + ".", [shop]
    docs = load_docs(ROOT / "examples" / "docs")
    if kind == "answer_chars":
        return prose(size, 1), docs
    if kind == "evidence_chars":
        return SHORT_ANSWER, [*docs, prose(size, 2)]
    text = prose(size * 200, 3)  # ~200 characters a document, all different
    parts = [text[i * 200 : (i + 1) * 200] for i in range(size)]
    if kind == "documents_with_ids":
        return SHORT_ANSWER, [*docs, *(Document(p, id=f"doc-{i}") for i, p in enumerate(parts))]
    # without ids, all from one source: every id is derived from the same source name
    return SHORT_ANSWER, [*docs, *(Document(p, metadata={"source": "dump"}) for p in parts)]


def size_row(kind: str, size: int) -> dict[str, Any]:
    """One row, measured in this process (call it in a fresh one: ``--size-row``)."""
    from langchain_qgate.grounding import HallucinationMonitor

    monitor = HallucinationMonitor()
    answer, evidence = _size_inputs(kind, size)
    monitor.verify_grounding(SHORT_ANSWER, evidence[:4])  # load both models
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    outcome: dict[str, Any]
    try:
        report = monitor.verify_grounding(answer, evidence)
        outcome = {"claims": len(report.verdicts), "evidence_chunks": report.evidence_count}
    except QGateError as exc:  # a cap: the documented error, and how fast it came
        outcome = {"error": f"{type(exc).__name__}: {exc}"}
    seconds = time.perf_counter() - start
    return {
        "input": kind,
        "size": size,
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "rss_before_call_mb": round(rss_before),
        **outcome,
    }


def size_rows(rows: list[tuple[str, int]] | None = None) -> list[dict[str, Any]]:
    """Every row of the size table, each in a fresh process (its own peak RSS)."""
    out: list[dict[str, Any]] = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for kind, size in rows or SIZE_ROWS:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--size-row", kind, str(size)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        row = (
            json.loads(lines[-1])
            if done.returncode == 0 and lines
            else {
                "input": kind,
                "size": size,
                "error": (done.stderr.strip().splitlines() or ["no output"])[-1][:200],
            }
        )
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


OUT = ROOT / "benchmarks" / "results" / "hardening_structured.json"


def run(
    structured: int, scale: float, sizes: bool, command: str, pair_model: str = "bundled"
) -> None:
    """The ``--structured N`` and ``--sizes-table`` parts of ``bench_hardening.py``: print
    and merge into ``benchmarks/results/hardening_structured.json``."""
    import platform

    result: dict[str, Any] = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    result["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    if structured:
        before = [round(x, 2) for x in os.getloadavg()]
        fuzz = run_fuzz(
            structured,
            scale=scale,
            pair_model=None if pair_model.lower() == "none" else pair_model,
            progress=lambda i: print("done", i, flush=True),
        )
        after = [round(x, 2) for x in os.getloadavg()]
        result["fuzz"] = {"command": command, "load_average": [before, after], **fuzz}
        print(json.dumps(result["fuzz"], indent=2, ensure_ascii=False))
    if sizes:
        before = [round(x, 2) for x in os.getloadavg()]
        rows = size_rows()
        after = [round(x, 2) for x in os.getloadavg()]
        result["sizes"] = {"command": command, "load_average": [before, after], "rows": rows}
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":  # one size-table row in a fresh process: --size-row INPUT SIZE
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    print(json.dumps(size_row(sys.argv[2], int(sys.argv[3]))))
