"""The detection table in the docs prints the last measured run, and nothing else.

The source of truth is ``benchmarks/results/detection.json`` (written by the documented
command); the table headed ``| dev file (report split) |`` (README.md, or a page of docs/) is
generated from it by ``scripts/readme_benchmarks.py``. BENCHMARKS.md's table 1, headed
``| dev file (report half) |`` (in BENCHMARKS.md, benchmarks/*.md or docs/), must agree with it
in the verifier column and the "after" figures. No figure is written here: every cell is
compared with the JSON, so a re-measured run changes the JSON and the tables, not this file.
Floors on the figures themselves are ``benchmarks/check_figures.py``'s.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
RESULTS = json.loads((REPO / "benchmarks" / "results" / "detection.json").read_text("utf-8"))
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
"""Where the generated table may be printed."""
BENCHMARKS_DOCS = [
    REPO / "BENCHMARKS.md",
    *sorted((REPO / "benchmarks").glob("*.md")),
    *sorted((REPO / "docs").glob("*.md")),
]
"""Where the per-change table 1 may be printed."""
COMMAND = "qgate bench detection --data ../shared/benchdata/*.jsonl --split report --limit"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "readme_benchmarks", REPO / "scripts" / "readme_benchmarks.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return _script()


def _tables(header: str, files: list[Path]) -> list[str]:
    """Every markdown table whose first line starts with ``header`` (at least one)."""
    found = []
    for path in files:
        if not path.exists():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.startswith(header):
                end = i
                while end < len(lines) and lines[end].startswith("|"):
                    end += 1
                found.append("\n".join(lines[i:end]))
    names = [str(p.relative_to(REPO)) for p in files]
    assert found, f"no table headed {header!r} in {names}"
    return found


def _rows(table: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 1 and cells[1] and cells[1][0].isdigit():
            out[cells[0]] = cells[1:]
    return out


def _detection_tables(script: ModuleType) -> list[str]:
    return _tables(script.HEADER.splitlines()[0], DOCS)


def test_the_table_is_generated_from_the_last_measured_run(script):
    for table in _detection_tables(script):
        assert table == script.render_table(RESULTS)


def test_every_figure_of_the_table_is_the_results_json_rounded(script):
    for table in _detection_tables(script):
        rows = _rows(table)
        assert set(rows) == {name for _, name in script.ROWS}
        for key, name in script.ROWS:
            e = RESULTS["datasets"][key]
            n, auroc, idf, naive, contra, rejects, wrong = rows[name]
            assert int(n) == e["n"], name
            assert auroc == script.auroc(e["auroc"]), name
            assert float(auroc) == pytest.approx(e["auroc"], abs=5e-4), name
            assert idf == script.auroc(e["idf_coverage_auroc"]), name
            assert naive == script.auroc(e["baseline"]["auroc"]), name
            assert contra == script.percent(e["false_contradiction_rate"]), name
            assert rejects == script.percent(e["false_reject_rate"]), name
            assert wrong == script.percent(e["label1_reject_rate"]), name


def test_the_documented_command_is_the_one_that_wrote_the_results():
    assert RESULTS["split"] == "report"
    text = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in DOCS if p.exists())
    match = re.search(re.escape(COMMAND) + r" (\d+)", text)
    assert match is not None, f"`{COMMAND} N` is documented nowhere"
    limit = int(match.group(1))
    assert all(e["n"] <= limit for e in RESULTS["datasets"].values())


def _after(cell: str) -> str:
    return cell.rsplit("→", maxsplit=1)[-1].strip()


def test_benchmarks_md_table_agrees_with_the_results_json(script):
    for table in _tables("| dev file (report half) |", BENCHMARKS_DOCS):
        rows = _rows(table)
        assert set(rows) == {name for _, name in script.ROWS}
        for key, name in script.ROWS:
            e = RESULTS["datasets"][key]
            n, _before, _rules, verifier, _delta, idf, contra, rejects, wrong = rows[name]
            assert int(n) == e["n"], name
            assert verifier == script.auroc(e["auroc"]), name
            assert idf == script.auroc(e["idf_coverage_auroc"]), name
            assert _after(contra) == script.percent(e["false_contradiction_rate"]), name
            assert _after(rejects) == script.percent(e["false_reject_rate"]), name
            assert _after(wrong) == script.percent(e["label1_reject_rate"]), name


def test_check_fails_on_a_stale_table_and_a_rewrite_fixes_it(script, tmp_path, monkeypatch, capsys):
    table = script.render_table(RESULTS)
    key, name = script.ROWS[0]
    e = RESULTS["datasets"][key]
    current = f"| {name} | {e['n']} | {script.auroc(e['auroc'])} |"
    other = "0.500" if script.auroc(e["auroc"]) != "0.500" else "0.600"
    stale = table.replace(current, f"| {name} | {e['n']} | {other} |")
    assert current in table
    assert stale != table
    page = f"# Results\n\n{script.START}\n{stale}\n{script.END}\n\nMore text.\n"
    readme = tmp_path / "README.md"
    readme.write_text(page, encoding="utf-8")
    monkeypatch.setattr(script, "README", readme)
    assert script.main(["--check"]) == 1
    assert "differs from benchmarks/results/detection.json" in capsys.readouterr().err
    assert script.main([]) == 0
    assert readme.read_text(encoding="utf-8") == page.replace(stale, table)
    assert script.main(["--check"]) == 0


def test_render_refuses_a_run_of_another_split(script):
    with pytest.raises(ValueError, match="'report' split"):
        script.render_table({**RESULTS, "split": "fit"})
