"""Issue 25, item 4: one exit-code scheme for every ``qgate`` subcommand.

0 passed, 1 rejected, 2 usage or input error (as linters and test runners do); every error is
one line ``qgate <subcommand>: error: ...`` naming the file it is about; the scheme is in
``--help``; an answer without checkable claims passes and says so on stderr. Grading runs on
the hashing embedder (no model).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_qgate.cli import EXIT_ERROR, EXIT_PASS, EXIT_REJECTED, main
from langchain_qgate.errors import EmbeddingError
from tests.unit_tests._qgate_fakes import make_monitor

REPO = Path(__file__).resolve().parents[2]
EVIDENCE = REPO / "examples" / "check" / "evidence.md"
GOOD = "Nordlicht Robotics GmbH was founded in 2019 in Hamburg by Lena Brandt and Tomas Weber."
BAD = "Nordlicht Robotics GmbH was founded in 2015 in Hamburg by Lena Brandt and Tomas Weber."
SUBCOMMANDS = ["check", "judge", "bench", "bench detection", "demo", "warm"]


@pytest.fixture(autouse=True)
def hashing_monitor(monkeypatch):
    import langchain_qgate.grounding.monitor as monitor_module

    monitor = make_monitor()
    monkeypatch.setattr(monitor_module, "HallucinationMonitor", lambda **_: monitor)


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors and --help
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _error_line(err: str, prog: str) -> str:
    assert err.count("\n") == 1, err
    assert err.startswith(f"{prog}: error: "), err
    return err


def test_exit_codes_are_0_pass_1_rejected_2_error():
    assert (EXIT_PASS, EXIT_REJECTED, EXIT_ERROR) == (0, 1, 2)


def test_check_exits_0_1_2(tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    argv = ["check", "--evidence", str(EVIDENCE), "--answer", str(answer)]
    answer.write_text(GOOD, encoding="utf-8")
    assert _run(argv, capsys)[0] == 0
    answer.write_text(BAD, encoding="utf-8")
    code, out, err = _run(argv, capsys)
    assert (code, err) == (1, "")
    assert "Gate decision: retry (rejected" in out
    missing = tmp_path / "missing.md"
    code, out, err = _run(["check", "--evidence", str(missing), "--answer", str(answer)], capsys)
    assert (code, out) == (2, "")
    assert f"cannot read {missing}:" in _error_line(err, "qgate check")
    broken = tmp_path / "facts.json"
    broken.write_text("{not json", encoding="utf-8")
    code, _, err = _run(["check", "--evidence", str(broken), "--answer", str(answer)], capsys)
    assert code == 2
    assert f"qgate check: error: {broken}: not valid JSON" in _error_line(err, "qgate check")
    code, _, err = _run([*argv, "--grounding-threshold", "7"], capsys)
    assert code == 2
    assert "grounding_threshold" in _error_line(err, "qgate check")


def test_an_answer_over_the_size_limit_names_its_file(tmp_path, capsys):
    answer = tmp_path / "huge.txt"
    answer.write_text("x" * 2_000_001, encoding="utf-8")
    code, _, err = _run(["check", "--evidence", str(EVIDENCE), "--answer", str(answer)], capsys)
    assert code == 2
    line = _error_line(err, "qgate check")
    assert f"{answer} (evidence {EVIDENCE})" in line
    assert "over the limit" in line


def test_an_empty_answer_passes_and_says_no_checkable_claims(tmp_path, capsys):
    answer = tmp_path / "empty.txt"
    answer.write_text("", encoding="utf-8")
    argv = ["check", "--evidence", str(EVIDENCE), "--answer", str(answer), "--json"]
    code, out, err = _run(argv, capsys)
    assert code == 0
    assert json.loads(out)["report"]["score"] == 1.0
    assert err.startswith(f"qgate check: warning: {answer}: no checkable claims; the answer ")
    assert "grounding score 1.00" in err
    assert err.count("\n") == 1


def test_judge_exits_0_1_2(tmp_path, capsys):
    ids = tmp_path / "ids.txt"
    ids.write_text("s1\n", encoding="utf-8")
    results = tmp_path / "results.json"
    good = {
        "agent_name": "a",
        "hypotheses": [{"title": "t", "supporting_signals": ["s1"], "confidence": 0.9}],
    }
    bad = {
        "agent_name": "b",
        "hypotheses": [{"title": "t", "supporting_signals": ["s9"], "confidence": 0.4}],
    }
    results.write_text(json.dumps([good]), encoding="utf-8")
    assert _run(["judge", str(results), "--ids", str(ids)], capsys)[0] == 0
    results.write_text(json.dumps([good, bad]), encoding="utf-8")
    code, out, _ = _run(["judge", str(results), "--ids", str(ids)], capsys)
    assert code == 1
    assert "rejected #1 'b'" in out
    results.write_text('{"agent_name": "a",\n{"x"', encoding="utf-8")
    code, _, err = _run(["judge", str(results), "--ids", str(ids)], capsys)
    assert code == 2
    line = _error_line(err, "qgate judge")
    assert line.startswith(f"qgate judge: error: {results} line 1: not valid JSON")
    results.write_text(json.dumps([good]), encoding="utf-8")
    ids_json = tmp_path / "ids.json"
    ids_json.write_text('["s1",', encoding="utf-8")
    code, _, err = _run(["judge", str(results), "--ids", str(ids_json)], capsys)
    assert code == 2
    assert f"{ids_json}: not a valid JSON list of ids" in _error_line(err, "qgate judge")


def test_bench_exits_0_on_a_run_and_2_on_bad_data(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    row = {"id": "r1", "context": "Acme was founded in 2019.", "response": "Acme was founded "
           "in 2019.", "label": 0}  # fmt: skip
    rows.write_text(json.dumps(row) + "\n" + json.dumps({**row, "id": "r2", "label": 1}) + "\n")
    argv = ["bench", "detection", "--data", str(rows), "--split", "all", "--quiet"]
    assert _run([*argv, "--no-baseline"], capsys)[0] == 0
    rows.write_bytes(b"\xff\xfe")
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert f"invalid {rows}: not UTF-8 text" in _error_line(err, "qgate bench detection")


def test_demo_and_warm_exit_2_on_an_error(tmp_path, capsys, monkeypatch):
    import langchain_qgate.grounding.evidence.embeddings as embeddings

    missing = tmp_path / "no-docs"
    code, _, err = _run(["demo", "--docs", str(missing)], capsys)
    assert code == 2
    assert f"{missing}: documents folder not found" in _error_line(err, "qgate demo")

    def broken(*_: object, **__: object) -> None:
        raise EmbeddingError("some/model", "not found")

    monkeypatch.setattr(embeddings, "default_embedder", broken)
    code, _, err = _run(["warm", "--model", "some/model"], capsys)
    assert code == 2
    assert "embedding model 'some/model' failed" in _error_line(err, "qgate warm")


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_usage_errors_exit_2_and_help_lists_the_exit_codes(command, capsys):
    code, _, err = _run([*command.split(), "--no-such-option"], capsys)
    assert code == 2
    assert f"qgate {command}: error: " in err or "qgate: error: " in err
    code, out, _ = _run([*command.split(), "--help"], capsys)
    assert code == 0
    text = " ".join(out.split())
    assert "0 passed" in text
    assert "1 rejected" in text
    assert "2 usage or input error" in text
