"""Issue 16, item 5: a missing real-data tier says where the data must be and which setting."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.conftest import BENCHDATA_DIR, benchdata_missing

REPO = Path(__file__).resolve().parents[2]


def test_benchdata_skip_reason_names_the_folder_and_the_setting(tmp_path):
    reason = benchdata_missing(tmp_path)
    assert reason is not None
    assert str(tmp_path) in reason
    assert "QGATE_BENCHDATA" in reason
    (tmp_path / "README.md").write_text("data", encoding="utf-8")
    assert benchdata_missing(tmp_path) is None


def test_the_default_folder_is_next_to_the_clone_and_documented():
    assert BENCHDATA_DIR.name == "benchdata" or "QGATE_BENCHDATA" in __import__("os").environ
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "QGATE_BENCHDATA" in readme
    assert "QGATE_BENCHDATA" in (REPO / "Makefile").read_text(encoding="utf-8")


def test_sqlite_checkpointer_has_a_documented_extra():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(
        d.startswith("langgraph-checkpoint-sqlite")
        for d in project["optional-dependencies"]["sqlite"]
    )
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert 'pip install -e ".[sqlite]"' in readme  # from a clone: not on PyPI yet
    assert "pip install langchain-qgate" not in readme
    assert 'pip install "langchain-qgate' not in readme
