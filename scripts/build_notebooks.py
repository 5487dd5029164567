"""Generate ``notebooks/*.ipynb`` from their sources, ``notebooks/NN_name.py``, executed.

Each notebook is written once, as a jupytext percent script (``# %%`` code cells,
``# %% [markdown]`` text cells) that also runs as it is: ``python notebooks/NN_name.py``. This
script converts every source to a notebook, executes it with nbclient (offline, this
interpreter's kernel, in ``notebooks/``) and stores it with its outputs so it renders when
browsed, stamped with the sha256 of its source.

``--check`` (fast, no execution; run by ``tests/integration_tests/test_notebooks.py``) fails
when a stored notebook is not the executed form of its current source: another stamp or other
cells, no outputs, an error output, a machine path in an output, or a source without its
notebook (or the reverse).

Run: python scripts/build_notebooks.py [--check] [NN_name ...]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import warnings
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def sources() -> list[Path]:
    """The notebook sources: ``notebooks/NN_*.py`` (helpers have no number)."""
    return sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.py"))


def digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def convert(source: Path) -> nbformat.NotebookNode:
    """The notebook of ``source`` (not executed), stamped with the source's hash."""
    nb = jupytext.read(source, fmt="py:percent")
    nb.metadata = {
        "kernelspec": KERNEL,
        "language_info": {"name": "python"},
        "qgate": {"source": source.name, "sha256": digest(source)},
    }
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{source.stem[:2]}-{i:02d}"
        cell.metadata = {}
    return nb


def _machine_paths() -> list[str]:
    """Paths of this machine that must not appear in stored outputs."""
    paths = {str(ROOT), str(Path.home()), tempfile.gettempdir(), sys.prefix}
    return sorted(p for p in paths if len(p) > 1)


def _output_texts(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(output type, text) of every output, images excluded."""
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "stream":
                texts.append((out.output_type, out.text))
            elif out.output_type == "error":
                texts.append(("error", "\n".join(out.get("traceback", []))))
            else:
                texts.append((out.output_type, out.get("data", {}).get("text/plain", "")))
    return texts


def problems(stored: nbformat.NotebookNode, expected: nbformat.NotebookNode) -> list[str]:
    """Why ``stored`` is not the executed form of ``expected`` (empty when it is)."""
    found = []
    if stored.metadata.get("qgate") != expected.metadata["qgate"]:
        found.append("stamped with another source (run python scripts/build_notebooks.py)")
    shape = [(c.cell_type, c.source, c.get("id")) for c in stored.cells]
    if shape != [(c.cell_type, c.source, c.get("id")) for c in expected.cells]:
        found.append("cells differ from the source")
    code = [c for c in stored.cells if c.cell_type == "code"]
    if any(c.execution_count is None for c in code) or not any(c.outputs for c in code):
        found.append("not executed (no outputs)")
    texts = _output_texts(stored)
    if any(kind == "error" for kind, _ in texts):
        found.append("an output is an error")
    for path in _machine_paths():
        if any(path in text for _, text in texts):
            found.append(f"an output contains the machine path {path}")
    return found


def execute(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Run the notebook in ``notebooks/`` (offline, this interpreter's kernel)."""
    from nbclient import NotebookClient

    env = os.environ
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["HF_HUB_OFFLINE"] = "1"
    env["TOKENIZERS_PARALLELISM"] = "false"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ next to the notebooks
    for key in ("OPENAI_API_KEY", "QGATE_USE_OLLAMA", "QGATE_REPO", "MPLBACKEND"):
        env.pop(key, None)
    client = NotebookClient(
        nb,
        timeout=900,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # jupyter_client / zmq noise
        client.execute()
    return nb


def check(selected: list[Path]) -> list[str]:
    """Every problem of the stored notebooks of ``selected`` (and notebooks without a source)."""
    stale = []
    for source in selected:
        path = source.with_suffix(".ipynb")
        if not path.exists():
            stale.append(f"{path.name}: missing")
            continue
        stored = nbformat.read(path, as_version=4)
        stale.extend(f"{path.name}: {why}" for why in problems(stored, convert(source)))
    known = {s.with_suffix(".ipynb").name for s in sources()}
    stale.extend(
        f"{p.name}: no source {p.stem}.py" for p in NOTEBOOKS.glob("*.ipynb") if p.name not in known
    )
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a notebook is not current")
    parser.add_argument("names", nargs="*", help="only these notebooks (stems, default: all)")
    args = parser.parse_args(argv)
    selected = [s for s in sources() if not args.names or s.stem in args.names]
    if args.check:
        stale = check(selected)
        if stale:
            print("out of date (run python scripts/build_notebooks.py):")
            print("\n".join(f"  {s}" for s in stale))
            return 1
        print(f"{len(selected)} notebooks match their sources")
        return 0
    for source in selected:
        expected = convert(source)
        before = set(NOTEBOOKS.iterdir())
        nb = execute(convert(source))
        stray = sorted(p.name for p in set(NOTEBOOKS.iterdir()) - before)
        found = problems(nb, expected) + [f"left a stray file {s}" for s in stray]
        if found:
            print(f"{source.name}: " + "; ".join(found))
            return 1
        path = source.with_suffix(".ipynb")
        path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
