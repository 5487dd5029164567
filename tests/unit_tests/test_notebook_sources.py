"""Notebooks built from their sources: each notebook is written once, as a plain percent script
that runs as it is; the ``.ipynb`` files are generated from those sources (executed); 04's
calibration map is monotone and not a 0/1 step; the agent notebooks show a per-attempt timeline
picture.

Running the notebooks and their scripts is ``tests/integration_tests/test_notebooks.py``
(model tier); this file checks the stored files and the build script without executing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


@pytest.fixture(scope="module")
def build() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_notebooks", REPO / "scripts" / "build_notebooks.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stored(source: Path) -> nbformat.NotebookNode:
    return nbformat.read(source.with_suffix(".ipynb"), as_version=4)


def _outputs(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


def test_every_notebook_has_a_percent_source_and_the_reverse():
    assert [s.stem for s in SOURCES] == sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    assert len(SOURCES) == 7
    for source in SOURCES:
        assert source.read_text(encoding="utf-8").startswith("# %% [markdown]\n# # ")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_stored_notebook_is_its_source_converted_and_executed(build, source):
    stored = _stored(source)
    sha = hashlib.sha256(source.read_bytes()).hexdigest()
    assert stored.metadata["qgate"] == {"source": source.name, "sha256": sha}
    assert build.problems(stored, build.convert(source)) == []


def test_check_flags_a_stale_an_unexecuted_and_an_orphan_notebook(build, tmp_path, monkeypatch):
    monkeypatch.setattr(build, "NOTEBOOKS", tmp_path)
    source = tmp_path / "01_tiny.py"
    source.write_text('# %% [markdown]\n# # Tiny\n\n# %%\nprint("hi")\n', encoding="utf-8")
    assert build.check(build.sources()) == ["01_tiny.ipynb: missing"]
    nb = build.convert(source)
    assert [(c.cell_type, c.source) for c in nb.cells] == [
        ("markdown", "# Tiny"),
        ("code", 'print("hi")'),
    ]
    path = source.with_suffix(".ipynb")
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    assert build.check(build.sources()) == ["01_tiny.ipynb: not executed (no outputs)"]
    nb.cells[1].execution_count = 1
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="hi\n")]
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    assert build.check(build.sources()) == []
    assert build.main(["--check"]) == 0
    source.write_text(source.read_text() + 'print("more")\n', encoding="utf-8")
    assert build.check(build.sources()) == [
        "01_tiny.ipynb: stamped with another source (run python scripts/build_notebooks.py)",
        "01_tiny.ipynb: cells differ from the source",
    ]
    assert build.main(["--check"]) == 1
    shutil.copy(path, tmp_path / "02_orphan.ipynb")
    assert "02_orphan.ipynb: no source 02_orphan.py" in build.check(build.sources())


def test_the_build_script_is_small_and_holds_no_notebook_code():
    text = (REPO / "scripts" / "build_notebooks.py").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200  # was 982 lines holding copies of the examples
    assert "create_agent" not in text
    assert "Nordlicht" not in text


def test_notebooks_import_the_examples_instead_of_copying_them():
    uses = {
        "02_agent_middleware": ['example("agent_middleware")', 'example("structured_tool")'],
        "03_graph_gate": ['example("graph_gate")'],
        "04_calibration": ['example("calibration_fit")'],
        "05_tool_gating_judge": ['example("tool_gating_judge")'],
        "06_memory": ['example("memory_replay")'],
        "07_streaming": ['example("streaming_agent")'],
    }
    for stem, calls in uses.items():
        text = (NOTEBOOKS / f"{stem}.py").read_text(encoding="utf-8")
        for call in calls:
            assert call in text, (stem, call)
    # the definitions live in the examples only
    for name in ("def respond(", "def get_listing(", "class RagState(", "def specialist("):
        assert not any(name in s.read_text(encoding="utf-8") for s in SOURCES), name


def _map_rows(text: str) -> list[tuple[float, float, float]]:
    rows = re.findall(r"^\s*(0\.\d\d)\s+(\d\.\d\d)\s+(\d\.\d\d)$", text, flags=re.M)
    return [(float(a), float(b), float(c)) for a, b, c in rows]


def test_calibration_notebook_map_is_monotone_and_not_a_step():
    nb = _stored(NOTEBOOKS / "04_calibration.py")
    text = "".join(_outputs(c) for c in nb.cells)
    rows = _map_rows(text)
    assert [r[0] for r in rows] == [0.17, 0.5, 0.8, 0.9, 0.95, 0.99]
    platt = [r[2] for r in rows]
    assert platt == sorted(platt)
    assert platt[0] < platt[-1]
    at_090 = {r[0]: r[2] for r in rows}[0.9]
    assert 0.0 < at_090 < 1.0, "P(supported) at grounding 0.90 is a step value"
    # the reloaded map used by the gate is the Platt one
    reloaded = re.findall(r"grounding (0\.\d\d) -> P\(supported\) (\d\.\d\d)", text)
    assert dict(reloaded)["0.90"] != "0.00"
    assert "platt 20 records" in text


@pytest.mark.parametrize("stem", ["02_agent_middleware", "03_graph_gate", "07_streaming"])
def test_agent_notebooks_show_a_per_attempt_timeline(stem):
    nb = _stored(NOTEBOOKS / f"{stem}.py")
    cells = [c for c in nb.cells if "plot_attempt_timeline(" in c.source and c.cell_type == "code"]
    assert cells
    for cell in cells:
        pictures = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(pictures) == 1, cell.source


def test_tool_gating_scatter_names_points_in_a_key_not_on_the_plot():
    text = (NOTEBOOKS / "05_tool_gating_judge.py").read_text(encoding="utf-8")
    cell = next(c for c in text.split("# %%") if "ax.scatter(" in c)
    assert "bbox_to_anchor=(1.02, 1.0)" in cell  # the key sits right of the axes
    assert "str(i)," in cell  # only numbers next to the points, the queries in the key
    assert "xytext=(-12 if i % 2 else 6, 4)" in cell  # coinciding points: 1 left, 2 right
    assert "show(fig)" in cell  # saved with bbox_inches="tight": nothing cut
    helpers = (NOTEBOOKS / "notebook_helpers.py").read_text(encoding="utf-8")
    assert 'bbox_inches="tight"' in helpers


def test_readme_notebook_links_are_true():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = set(re.findall(r"\(notebooks/([\w.]+)\)", readme))
    assert {f"{s.stem}.ipynb" for s in SOURCES} <= links
    for link in links:
        assert (NOTEBOOKS / link).exists(), link


def test_make_lint_covers_the_notebook_sources():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    lint = re.search(r"^lint:.*?(?=^\S)", makefile, flags=re.M | re.S)
    assert lint is not None
    assert lint.group(0).count("notebooks") == 2  # ruff check and ruff format --check
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'extend-exclude = ["notebooks/*.ipynb"]' in pyproject  # generated files only
