"""``qgate check`` as a CI step: exit codes, profile and thresholds, --version, --help (item 3).

The grading runs on the deterministic hashing embedder (the CLI's monitor is swapped), so the
tier needs no model; ``tests/integration_tests/test_examples.py`` runs the real command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_qgate import __version__
from langchain_qgate.cli import app as cli
from tests.unit_tests._qgate_fakes import make_monitor

REPO = Path(__file__).resolve().parents[2]
EVIDENCE = REPO / "examples" / "check" / "evidence.md"
GOOD = "Nordlicht Robotics GmbH was founded in 2019 in Hamburg by Lena Brandt and Tomas Weber."
BAD = "Nordlicht Robotics GmbH was founded in 2015 in Hamburg by Lena Brandt and Tomas Weber."


@pytest.fixture(autouse=True)
def hashing_monitor(monkeypatch):
    import langchain_qgate.grounding.monitor as monitor_module

    monitor = make_monitor()
    monkeypatch.setattr(monitor_module, "HallucinationMonitor", lambda **_: monitor)


def _check(tmp_path: Path, answer: str, *extra: str) -> int:
    path = tmp_path / "answer.txt"
    path.write_text(answer, encoding="utf-8")
    return cli.main(["check", "--evidence", str(EVIDENCE), "--answer", str(path), *extra])


def test_check_exits_0_on_pass_and_1_on_reject(tmp_path, capsys):
    assert _check(tmp_path, GOOD) == cli.EXIT_PASS == 0
    assert "Gate decision: pass" in capsys.readouterr().out
    assert _check(tmp_path, BAD) == cli.EXIT_REJECTED == 1
    assert "Gate decision: retry" in capsys.readouterr().out


def test_profile_and_threshold_options_set_the_gate(tmp_path, capsys):
    _check(tmp_path, GOOD, "--json", "--profile", "strict")
    meta = json.loads(capsys.readouterr().out)["decision"]["metadata"]
    assert (meta["profile"], meta["grounding_threshold"]) == ("strict", 0.8)
    _check(
        tmp_path, GOOD, "--json", "--profile", "brainstorm", "--grounding-threshold", "0.55",
        "--confidence-threshold", "0.1", "--max-contradictions", "-1",
    )  # fmt: skip
    meta = json.loads(capsys.readouterr().out)["decision"]["metadata"]
    assert (meta["profile"], meta["grounding_threshold"]) == ("brainstorm", 0.55)
    assert meta["confidence_threshold"] == 0.1
    assert _check(tmp_path, GOOD, "--grounding-threshold", "1.0") == 1  # nothing is that good


def test_a_threshold_out_of_range_is_an_error_not_a_verdict(tmp_path, capsys):
    assert _check(tmp_path, GOOD, "--grounding-threshold", "1.5") == cli.EXIT_ERROR == 2
    err = capsys.readouterr().err
    assert err.startswith("qgate check: error: ")
    assert "grounding_threshold" in err


def test_version_and_help_with_examples_and_exit_codes(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"qgate {__version__}"
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert "examples:" in text
    assert "qgate check --evidence examples/check/evidence.md" in text
    assert "1  rejected (qgate check: the gate rejected the answer" in text
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    text = capsys.readouterr().out
    assert "--profile" in text
    assert "--grounding-threshold" in text
    assert "Exit code: 0 passed, 1 rejected, 2 usage or input error." in " ".join(text.split())


def test_the_help_examples_name_files_that_exist():
    for word in cli._EPILOG.split():
        if word.startswith("examples/") and "*" not in word:
            assert (REPO / word).exists(), word


def test_json_output_keeps_non_ascii_readable(tmp_path, capsys):
    _check(tmp_path, "Nordlicht has an office in Øresund.", "--json")
    out = capsys.readouterr().out
    assert "Øresund" in out
    assert "\\u00d8" not in out
