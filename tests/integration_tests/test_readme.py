"""The README's complete programs run as written (issue 16, item 4 and the four surfaces).

Every ```` ```python ```` block of the README, and of the pages under ``docs/`` that its depth
moved to (issue 46, item 7), is a whole program with its imports: each runs in a fresh
interpreter from the repository root, offline (scripted chat models from
``langchain_qgate.testing``, the bundled embedding model), and prints what the page says it
does. Fragments (```` ```py ````) are checked as excerpts of the examples in
``test_examples.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
"""The README first, then the docs pages (their programs moved out of the README)."""
README = (REPO / "README.md").read_text(encoding="utf-8")
PROGRAMS = [
    program
    for page in DOCS
    for program in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
]

# What each program must print, keyed by a line that identifies it.
EXPECTED: dict[str, list[str]] = {
    'DOCS = Path("examples/docs")': [
        "grounded ",
        "fabricated",
        "the evidence says €48.2 million, not €52.7 million",
        "-> retry",
        "Your previous answer did not pass the fact check",
    ],
    "QualityGateMiddleware(policy=GatePolicy(max_retries=1))": [
        "Nordlicht Robotics reported revenue of €48.2 million in 2024.\n",
        "pass after 3 model calls",
    ],
    'stream="sentences"': [
        "[1] Nordlicht Robotics reported revenue of €48.2 million in 2024.  (grounded)",
        "[1] rejected, stopped early: True",
        "[2] Revenue grew 31% from €36.8 million in 2023.  (grounded)",
        "final: pass Nordlicht Robotics reported revenue of €48.2 million in 2024. Revenue",
    ],
    "add_quality_gate(": [
        "The Kestrel P3 runs for 14 hours on one charge.\n",
        "pass after 2 model calls",
    ],
    "with_quality_gate(": [
        "Nordlicht shipped 1,150 robots in 2024. -> pass",
        "the retry saw: Your previous answer did not pass the fact check",
    ],
    "client = FakeLangSmithClient()": [
        "rejected 1 of 3 gated answers\n",
        "   1  retry (grounding+contradiction)\n",
    ],
    "class JsonLines(logging.Formatter)": [
        "rejected 1 of 3 gated answers\n",
        "   1  grounding+contradiction\n",
    ],
    "QualityGateCallbackHandler()": [
        "How many robots did Nordlicht ship in 2024? -> failed",
        "fabricated Nordlicht shipped 1,500 robots in 2024.",
        "the evidence says 1,150, not 1,500",
    ],
    'value_check("sku"': [
        "grounded   The Aero 14 (SKU AE-1400) weighs 1.2 kg.  <- supported by catalogue#0\n",
        "fabricated The Aero 14 is SKU AE-1401.  <- contradicted: `product.sku` says AE-1400, "
        "not AE-1401\n",
        "built-in checks: slot_aligned, short_answer, lifespan, slot_rival, negation, verifier, "
        "local_change, records, list_pick\n",
    ],
    "flight_status = {": [
        "fabricated Flight BA117 now leaves at 10:25 am from gate B12.  [record.departure.gate]",
        "`record.departure.gate` says B14, not B12",
        "grounded   It departs on Saturday, March 8th.  [record.departure.scheduled]",
        "grounded   There are 4 seats left at $612.  [record.seats_left]",
        "fabricated Meals are included.",
    ],
    '"domain": "shipping"': [
        "fabricated Parcel JD0148823GB goes by economy.  `record.service_level` says express, "
        "not economy",
        "grounded   It weighs 1.8 kg.",
    ],
    '"OutdoorSeating": False': [
        "grounded   Outdoor seating is not available.  [business.attributes.OutdoorSeating]",
        "grounded   There is no valet, garage or lot parking.",
        "fabricated On Sundays it closes at 3 pm.  [business.hours.Sunday]",
        "`business.hours.Sunday` says 8:0-14:0, not 3 pm",
    ],
}


def _key(program: str) -> str:
    keys = [k for k in EXPECTED if k in program]
    assert len(keys) == 1, f"no single expectation for README program:\n{program}"
    return keys[0]


def test_readme_has_a_complete_program_for_each_surface():
    assert sorted(_key(p) for p in PROGRAMS) == sorted(EXPECTED)
    for program in PROGRAMS:
        assert program.lstrip().startswith(("from ", "import ")), "imports come first"
        assert "_demo_kit" not in program
        for line in program.splitlines():
            if line.startswith("from langchain_qgate"):
                assert line.startswith(
                    ("from langchain_qgate import", "from langchain_qgate.testing")
                )


@pytest.mark.parametrize("program", PROGRAMS, ids=[_key(p).split("(")[0] for p in PROGRAMS])
def test_readme_program_runs_as_written(program, tmp_path):
    script = tmp_path / "snippet.py"
    script.write_text(program, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=REPO, env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    lacking = [e for e in EXPECTED[_key(program)] if e not in proc.stdout]
    assert not lacking, f"output lacks {lacking}:\n{proc.stdout}"


def test_quickstart_says_so_when_no_evidence_is_found(tmp_path):
    (quickstart,) = [p for p in PROGRAMS if 'DOCS = Path("examples/docs")' in p]
    script = tmp_path / "quickstart.py"
    script.write_text(quickstart, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "no documents found" in proc.stderr
    assert "run from the repository root" in proc.stderr
