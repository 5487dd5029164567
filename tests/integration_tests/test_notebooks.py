"""Every notebook in ``notebooks/`` executes top to bottom, offline, in the venv's kernel.

Each notebook is written once, as a jupytext percent script ``notebooks/NN_name.py``; the
``.ipynb`` is generated from it and executed by ``scripts/build_notebooks.py`` and committed with
its outputs (checked current and clean by ``--check``). Here each notebook also runs with
nbclient (kernel ``python3``, which jupyter_client starts with this interpreter) in a scratch
directory, each source runs as a plain script, and the printed output is checked for the story
it tells.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import nbformat
import pytest

from tests.integration_tests._expect import Expected, missing, said

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"


EXPECTED: dict[str, list[Expected]] = {
    "01_quickstart.ipynb": [
        "fabricated factual",
        said("€48.2 million", "€52.7 million"),
        "Your previous answer did not pass the fact check",
        "pass\n",
        "Sources:",
        said("24", "36"),
        "overconfident=True",
    ],
    "02_agent_middleware.ipynb": [
        "removed the rejected draft",
        "[model] ai: In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million",
        re.compile(r"pass 0\.\d+ retries used: 1"),
        "[(1, 'retry', None), (2, 'escalate', 'edit'), (3, 'edited', 'edit')]",
        "Retry budget spent",
        "last message while paused: [Held for review]",
        "Every Nordlicht robot, including the Kestrel P3, comes with a 24-month warranty.",
        "'decision': 'edit'",
        "strict pass_with_warning",
        "`get_listing.hours.Tuesday` says 11:00-21:00, not 10 pm",
        "[get_listing.hours.Tuesday, get_listing.attributes.WiFi]",
    ],
    "03_graph_gate.ipynb": [
        "quality_gate",
        "paused: failed grounding",
        "rejected draft: The Kestrel P3 runs for 20 hours on one charge.",
        said("14", "20"),
        "The Kestrel P3 runs for 14 hours on one charge and recharges in 90 minutes.",
        re.compile(r"edited (0\.\d+|1\.0)"),  # a reviewer's edit (issue 25, item 3)
        "[(1, 'retry', None), (2, 'escalate', 'edit'), (3, 'edited', 'edit')]",
    ],
    "04_calibration.ipynb": [
        "20 fit / 20 held out",
        "ECE ",
        "Brier ",
        "P(supported)",
        "grounding  isotonic  platt",
        "platt 20 records",
    ],
    "05_tool_gating_judge.ipynb": [
        "Search results withheld",
        "network: retrieval critical",
        "accepted: ['infra: db-1 ran out of disk', 'app: release 2.14 leaks memory']",
        "rejected network [citations_known]",
        "False agent_name - agent name is whitespace-only",
        "False citations_present",
        "False confidence_range",
    ],
    "06_memory.ipynb": [
        "s3.1: skipped_duplicate",
        "s6.1: stored",
        "(1024Mi); kept",
        "soft-deleted at session end: {'s1': ['s1-1'], 's5': ['s5-1']}",
        "stored_flagged",
        "flagged (still stored, searchable): ['d1', 'd2']",
        "True\n",
    ],
    "07_streaming.ipynb": [
        "- [1] retracted  In fiscal year 2024",
        "! [1] rejected, stopped early: True",
        "+ [2] grounded",
        "= [2] pass: In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million.",
        "contradicted sentence shown to the user: False",
        "The evidence says 31%, not 45%",
    ],
}
PLOTS = {  # notebook -> pictures it shows (02, 03, 07: the per-attempt timelines)
    "01_quickstart.ipynb": 1,
    "02_agent_middleware.ipynb": 3,
    "03_graph_gate.ipynb": 1,
    "04_calibration.ipynb": 3,
    "05_tool_gating_judge.ipynb": 1,
    "06_memory.ipynb": 1,
    "07_streaming.ipynb": 1,
}


def _notebook(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def test_every_notebook_is_covered():
    assert {p.name for p in NOTEBOOKS.glob("*.ipynb")} == set(EXPECTED)
    assert {p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.py")} == {
        n.replace(".ipynb", ".py") for n in EXPECTED
    }


def test_notebooks_match_their_generator():
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "build_notebooks.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_is_stored_executed_by_the_build_script_and_clean(name):
    nb = _notebook(name)
    assert nb.metadata["qgate"]["source"] == name.replace(".ipynb", ".py")
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code)
    assert sum(bool(c.outputs) for c in code) >= len(code) // 2  # it renders when browsed
    assert "pip install" in nb.cells[0].source  # the first cell says how to install
    for cell in code:
        assert "sys.path" not in cell.source
        for out in cell.outputs:
            assert out.output_type != "error"
            text = out.get("text", "") + out.get("data", {}).get("text/plain", "")
            for path in (str(REPO), str(Path.home()), "/tmp/"):
                assert path not in text, f"machine path {path} in {name}"
        # files go to a temporary folder, never next to the notebook
        for call in ('savefig("', 'save("', 'plot_path="', "open("):
            assert call not in cell.source, call


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_runs_top_to_bottom_offline(name, tmp_path, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join((str(REPO), str(NOTEBOOKS))))
    monkeypatch.setenv("QGATE_REPO", str(REPO))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for key in ("OPENAI_API_KEY", "QGATE_USE_OLLAMA"):
        monkeypatch.delenv(key, raising=False)
    nb = _notebook(name)
    nb.cells.insert(0, nbformat.v4.new_code_cell("import sys\nprint(sys.executable)"))
    client = NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # jupyter_client / zmq noise
        client.execute()

    texts, images = [], 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", "".join(out.get("traceback", []))
            if out.output_type == "stream" and out.name == "stdout":
                texts.append(out.text)
            data = out.get("data", {})
            texts.append(data.get("text/plain", ""))
            images += "image/png" in data
    output = "".join(texts)
    assert output.startswith(sys.executable), "the kernel is not this venv's interpreter"
    lacking = missing(EXPECTED[name], output)
    assert not lacking, f"{name} output lacks {lacking}:\n{output[-6000:]}"
    assert images == PLOTS[name]


def _stream_text(nb: nbformat.NotebookNode) -> str:
    return "".join(
        out.text
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.output_type == "stream" and out.name == "stdout"
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_source_runs_as_a_plain_python_script(name, tmp_path):
    """``python notebooks/NN_name.py`` runs as it is and prints what the notebook printed."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "MPLBACKEND": "Agg"}
    for key in ("OPENAI_API_KEY", "QGATE_USE_OLLAMA", "QGATE_REPO"):
        env.pop(key, None)
    proc = subprocess.run(
        [sys.executable, str(NOTEBOOKS / name.replace(".ipynb", ".py"))],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    printed = [e for e in EXPECTED[name] if not missing([e], _stream_text(_notebook(name)))]
    assert printed, f"{name}: no expectation is printed (only displayed)"
    lacking = missing(printed, proc.stdout)
    assert not lacking, f"{name} as a script lacks {lacking}:\n{proc.stdout[-6000:]}"
    assert list(tmp_path.iterdir()) == [], "the script wrote files into its working directory"
