"""Every script in ``examples/`` runs offline in a fresh interpreter and prints what it claims.

Each example loads the bundled embedding model, so the tier is ``model``. The README's short
fragments (```` ```py ```` blocks, and those of ``docs/*.md``) are checked to be verbatim excerpts
of these scripts, so the docs cannot drift; its complete programs (```` ```python ````) are run
by ``test_readme.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration_tests._expect import Expected, missing, said

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


EXPECTED: dict[str, list[Expected]] = {
    "check_answer.py": [
        "grounded",
        "fabricated",
        said("€48.2 million", "€52.7 million"),
        "-> retry",
        "Your previous answer did not pass the fact check",
        "brainstorm profile -> pass",
        "Sources:",
    ],
    "agent_middleware.py": [
        "answer: In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million",
        "decision pass",
        "retries 1",
        "rejected draft: Nordlicht Robotics reported revenue of €52.7 million",
        said("€48.2 million", "€52.7 million"),
        "escalated: Failed: grounding",
        "after review: Every Nordlicht robot, including the Kestrel P3, comes with a 24-month",
        "review: edit",
    ],
    "graph_gate.py": [
        "paused for review: failed grounding",
        "draft: The Kestrel P3 runs for 20 hours on a single charge.",
        said("14", "20"),
        "retries used: 1",
        "resumed; final answer: The Kestrel P3 runs for 14 hours on one charge.",
        "metadata: edited",  # the reviewer edited the answer (issue 25, item 3)
    ],
    "calibration_fit.py": [
        "held-out claims: 20",
        "ECE   before",
        "reliability diagram:",
        "platt, 20 records",
    ],
    "tool_gating_judge.py": [
        "infra: retrieval ok: ['sig-disk', 'sig-cpu']",
        "network: retrieval critical",
        "accepted: ['infra: db-1 ran out of disk', 'app: release 2.14 leaks memory']",
        "rejected network (citations_known)",
        "cites unknown signal id 'sig-packet-loss'",
    ],
    "memory_replay.py": [
        "s3 turn 1: skipped_duplicate",
        "s4 turn 1: stored",
        "remember_request",
        "end of s1: trivial session, soft-deleted ['s1-1']",
        "decision 'Raise the billing memory limit to 1Gi': stored\n",
        "decision 'git clone success': stored_flagged",
        "DecisionNoiseWarning",
        "adds details it lacks (1024Mi); kept",
        "active episodes: ['s2-1', 's2-2', 's2-3', 's4-1', 's6-1']",
        "after restore: ['s1-1', 's2-1', 's2-2', 's2-3', 's4-1', 's6-1']",
    ],
    "lcel_and_callbacks.py": [
        "gated answer: Nordlicht shipped 1,150 robots in 2024",
        "pass, grounding",
        "retries 1",
        "observed: passed=False, evidence items=3",
        said("1,150", "1,500"),
    ],
    "verifiers.py": [
        "sent to the second stage: The company is listed on the Frankfurt stock exchange.",
        re.compile(r"grounded +[0-9.]+  Nordlicht Robotics employs 340 people\."),
        re.compile(r"fabricated +[0-9.]+  The company is listed on the Frankfurt stock exchange\."),
        "[second-opinion: not stated in the evidence]",
    ],
    "structured_tool.py": [
        "rejected draft: Harbor Noodle House is a ramen restaurant at 112 Pier St",
        "`get_listing.hours.Tuesday` says 11:00-21:00, not 10 pm",
        "decision pass",
        "retries 1",
        "supported by get_listing.hours.Tuesday",
        "[2] get_listing.hours.Tuesday: 11:00-21:00",
    ],
    "flight_status_agent.py": [
        "rejected draft: BA117 to JFK is delayed: it now leaves at 10:25 am from gate B12",
        "`get_flight_status.departure.gate` says B14, not B12",
        "decision pass",
        "retries 1",
        "grounded   BA117 to JFK is delayed: it now leaves at 10:25 am from gate B14",
        "[1] get_flight_status.departure.estimated: 10:25",
    ],
    "streaming_agent.py": [
        "[attempt 1] shown (grounded): In fiscal year 2024",
        "[attempt 1] retracted: In fiscal year 2024",
        "stopped early: True",
        "The evidence says 31%, not 45%",
        "[attempt 2] shown (grounded): Revenue grew 31% from €36.8 million",
        "done: pass",
        "contradicted sentence ever shown: False",
        "partial draft kept for audit:",
    ],
    # Written by the integrations engineer; run here so that every example stays executed.
    "demo_agent.py": [
        "Nordlicht shipped 1,150 robots in 2024",
        "decision pass",
        "rejected draft: Nordlicht shipped 1,500 robots in 2024.",
    ],
}


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1", "MPLBACKEND": "Agg"}


def _run(args: list[str], *, code: int = 0) -> str:
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=REPO,  # examples are run from the repository root
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == code, proc.stderr[-4000:]
    return proc.stdout


def test_every_example_script_is_covered():
    scripts = {p.name for p in EXAMPLES.glob("*.py")}
    assert scripts == set(EXPECTED)


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_example_runs_offline_and_prints_its_story(script, tmp_path):
    plot = tmp_path / "reliability.png"
    extra = ["--plot", str(plot)] if script == "calibration_fit.py" else []
    out = _run([str(EXAMPLES / script), *extra])
    lacking = missing(EXPECTED[script], out)
    assert not lacking, f"{script} output lacks {lacking}:\n{out}"
    if script == "calibration_fit.py":  # a monotone map, and a verdict true to its figures
        # Whether ten fitted outcomes beat the raw score on ten held-out ones is a measured
        # property of the scores, not of the code (BENCHMARKS.md, calibration): the example
        # says which it is, and the test checks that it says it truly.
        brier = re.search(r"Brier\s+before ([0-9.]+)\s+after ([0-9.]+)", out)
        assert brier is not None
        before, after = float(brier.group(1)), float(brier.group(2))
        assert 0.0 <= before <= 1.0
        assert 0.0 <= after <= 1.0
        verdict = "the fitted map beats the raw score"
        assert (verdict in out) == (after < before)
        mapped = [float(v) for v in re.findall(r"-> P\(supported\) ([0-9.]+)", out)]
        assert len(mapped) == 4
        assert mapped == sorted(mapped)  # 0.17, 0.5, 0.9, 0.99: never a lower P for more support
        assert plot.stat().st_size > 1000


def test_cli_check_prints_the_per_claim_report_and_the_decision(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("The Kestrel P3 comes with a 36-month warranty.", encoding="utf-8")
    docs = sorted(str(p) for p in (EXAMPLES / "docs").glob("*.md"))
    out = _run(
        ["-m", "langchain_qgate.cli", "check", "--evidence", *docs, "--answer", str(answer)], code=1
    )  # exit 1: rejected
    assert " fabricated " in out
    assert said("24", "36").search(out)
    assert "Gate decision: retry (rejected" in out


def _readme_fragments() -> list[str]:
    """The ``py`` fragments of the README and of the docs pages its depth moved to."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    return re.findall(r"```py\n(.*?)```", text, flags=re.DOTALL)


def _squash(code: str) -> str:
    """Lines without their indentation (snippets may come from inside a function)."""
    return "\n".join(line.strip() for line in code.strip().splitlines())


def test_readme_fragments_are_excerpts_of_the_examples():
    sources = [_squash(p.read_text(encoding="utf-8")) for p in EXAMPLES.glob("*.py")]
    blocks = _readme_fragments()
    assert blocks, "the README has no fragments"
    for block in blocks:
        snippet = _squash(block)
        assert any(snippet in src for src in sources), f"not in any example:\n{snippet}"


def test_cli_check_gives_the_same_report_on_both_embedding_backends(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text(
        "Nordlicht Robotics was founded in 2016 in Hamburg. The Kestrel P3 comes with a "
        "36-month warranty.",
        encoding="utf-8",
    )
    docs = sorted(str(p) for p in (EXAMPLES / "docs").glob("*.md"))
    base = ["-m", "langchain_qgate.cli", "check", "--evidence", *docs, "--answer", str(answer)]
    reports = [_run([*base, "--json", "--backend", b], code=1) for b in ("onnx", "torch")]
    onnx, torch_ = (json.loads(r)["report"] for r in reports)
    assert [v["grade"] for v in onnx["verdicts"]] == ["grounded", "fabricated"]
    assert [v["grade"] for v in torch_["verdicts"]] == ["grounded", "fabricated"]
    assert onnx["score"] == pytest.approx(torch_["score"], abs=1e-5)


def test_readme_cli_example_runs_and_exits_1_on_its_rejected_answer():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (line,) = [
        ln for ln in readme.splitlines() if ln.startswith("qgate check --evidence examples/check")
    ]
    args = line.split()[1:]
    out = _run(["-m", "langchain_qgate.cli", *args], code=1)
    assert "Gate decision: retry (rejected" in out
    assert said("12%", "15%").search(out)


def test_cli_warm_exports_once_into_the_cache_dir(tmp_path):
    cache = tmp_path / "cache"
    first = _run(["-m", "langchain_qgate.cli", "warm", "--cache-dir", str(cache)])
    assert "backend onnx, dimension 384" in first
    (export,) = (cache / "onnx").iterdir()
    assert str(export) in first
    stamp = (export / "model.onnx").stat().st_mtime_ns
    again = _run(["-m", "langchain_qgate.cli", "warm", "--cache-dir", str(cache)])
    assert str(export) in again
    assert (export / "model.onnx").stat().st_mtime_ns == stamp
    forced = _run(["-m", "langchain_qgate.cli", "warm", "--backend", "torch"])
    assert "backend torch, dimension 384" in forced
