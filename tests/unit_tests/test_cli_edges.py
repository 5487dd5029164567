"""Issue 48, item 6: the CLI's edges.

A closed pipe ends the output quietly; ``--json`` figures are rounded for reading only; a file
check says what a rejection means without a model in the loop; the score sentence of the
guidance fits the claims it is about; ``--fail-on-empty`` for CI; help text for ``--debug`` and
every subcommand; no internal sentinel in ``qgate judge`` messages. Grading runs on the
hashing embedder (no model).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from langchain_qgate.cli import EXIT_ERROR, EXIT_PASS, EXIT_REJECTED, main
from langchain_qgate.cli._io import EXIT_BROKEN_PIPE, EXIT_EMPTY, emit, rounded
from langchain_qgate.cli._report import check_payload
from langchain_qgate.gate import NoiseGate, RejectedOutput, describe_decision
from tests.unit_tests._gate_reports import (
    conf,
    contradicted,
    grounded,
    inferred,
    report,
    unsupported,
)
from tests.unit_tests._qgate_fakes import make_monitor

REPO = Path(__file__).resolve().parents[2]
EVIDENCE = REPO / "examples" / "check" / "evidence.md"
GOOD = "Nordlicht Robotics GmbH was founded in 2019 in Hamburg by Lena Brandt and Tomas Weber."
BAD = "Nordlicht Robotics GmbH was founded in 2015 in Hamburg by Lena Brandt and Tomas Weber."
SUBCOMMANDS = ["check", "judge", "bench", "bench detection", "demo", "warm"]

# ``qgate`` in a fresh interpreter with the hashing monitor in place of the model.
_HASHED_QGATE = """
import sys
import langchain_qgate.grounding.monitor as monitor_module
from tests.unit_tests._qgate_fakes import make_monitor
monitor = make_monitor()
monitor_module.HallucinationMonitor = lambda **_: monitor
from langchain_qgate.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(autouse=True)
def hashing_monitor(monkeypatch):
    import langchain_qgate.grounding.monitor as monitor_module

    monitor = make_monitor()
    monkeypatch.setattr(monitor_module, "HallucinationMonitor", lambda **_: monitor)


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's --help and usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _answer(tmp_path: Path, text: str) -> str:
    path = tmp_path / "answer.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _into_closed_pipe(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run ``python args...`` with standard output a pipe whose reader has already gone, as
    ``| head -c 10`` leaves it once ``head`` has its bytes."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    try:
        return subprocess.run(
            [sys.executable, *args], stdout=write_end, stderr=subprocess.PIPE, cwd=REPO,
            env=env, timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)


# --- a closed pipe ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        (["check", "--evidence", str(EVIDENCE), "--answer", "{good}", "--json"], EXIT_PASS),
        (["check", "--evidence", str(EVIDENCE), "--answer", "{bad}"], EXIT_REJECTED),
        (["judge", "{results}", "--ids", "{ids}"], EXIT_REJECTED),
        (["--help"], 0),
    ],
    ids=["check-json-pass", "check-text-rejected", "judge", "help"],
)
def test_check_closes_quietly_on_broken_pipe(tmp_path, command, verdict):
    files = {
        "good": _answer(tmp_path, GOOD),
        "bad": str(tmp_path / "bad.txt"),
        "results": str(tmp_path / "results.json"),
        "ids": str(tmp_path / "ids.txt"),
    }
    Path(files["bad"]).write_text(BAD, encoding="utf-8")
    Path(files["results"]).write_text(
        json.dumps([{"agent_name": "a", "hypotheses": [{"title": "t", "confidence": 0.5}]}]),
        encoding="utf-8",
    )
    Path(files["ids"]).write_text("s1\n", encoding="utf-8")
    argv = [part.format(**files) for part in command]
    proc = _into_closed_pipe(["-c", _HASHED_QGATE, *argv])
    assert proc.stderr.decode() == ""  # no BrokenPipeError, no "Exception ignored"
    assert proc.returncode == verdict  # the verdict was made before the output was written


def test_check_output_into_a_closed_pipe_keeps_the_verdict_in_process(
    tmp_path, monkeypatch, capsys
):
    class ClosedPipe:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    argv = ["check", "--evidence", str(EVIDENCE), "--answer", _answer(tmp_path, BAD), "--json"]
    assert main(argv) == EXIT_REJECTED
    assert capsys.readouterr().err == ""
    emit("nothing to read it")  # no error either


def test_demo_into_a_closed_pipe_stops_with_the_sigpipe_status(monkeypatch, capsys):
    import langchain_qgate.cli.demo as demo

    def streaming_into_a_closed_pipe(*_: object, **__: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(demo, "run_demo", streaming_into_a_closed_pipe)
    code, _, err = _run(["demo"], capsys)
    assert (code, err) == (EXIT_BROKEN_PIPE, "") == (141, "")


# --- --json figures ----------------------------------------------------------------------------


def test_check_json_output_rounds_scores_to_four_places(tmp_path, capsys):
    argv = ["check", "--evidence", str(EVIDENCE), "--answer", _answer(tmp_path, BAD), "--json"]
    _, out, _ = _run(argv, capsys)
    figures = [float(x) for x in _json_floats(json.loads(out))]
    assert figures
    assert all(round(x, 4) == x for x in figures)


def _json_floats(value: object) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _json_floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in _json_floats(v)]
    return []


def test_check_json_rounding_leaves_the_verdict_in_memory_unchanged():
    raw = report(0.9336889999999999, grounded(), inferred())
    decision = NoiseGate().filter_output("Acme has 500 employees.", raw, conf(0.9))
    payload = check_payload(raw, decision)
    assert payload["report"]["score"] == 0.9337
    assert payload["decision"]["metadata"]["score"] == round(decision.metadata.score, 4)
    assert raw.score == 0.9336889999999999  # the verdict objects keep their figures
    assert rounded({"n": 3, "ok": True, "x": [0.123456, "0.123456"]}) == {
        "n": 3,
        "ok": True,
        "x": [0.1235, "0.123456"],
    }


# --- a file check has no model in the loop -----------------------------------------------------


def test_file_check_says_what_a_rejection_means_without_retries(tmp_path, capsys):
    argv = ["check", "--evidence", str(EVIDENCE), "--answer", _answer(tmp_path, BAD)]
    code, out, _ = _run(argv, capsys)
    assert code == EXIT_REJECTED
    assert (
        "Gate decision: retry (rejected: in an agent the model would be asked again with the "
        "guidance below)" in out
    )
    assert "retries" not in out
    assert "the model answers again" not in out
    assert "Attempts left" not in out
    assert "Guidance (what an agent's model would be told):" in out
    assert "  Problems:" in out


def test_file_check_descriptions_keep_the_decision_value_first():
    for decision in ("pass", "pass_with_warning", "retry", "escalate", "raise"):
        text = describe_decision(decision, model_in_loop=False)
        assert text.startswith(decision)
        assert "answers again" not in text
    assert describe_decision("retry") == "retry (rejected; the model answers again with guidance)"


# --- the score sentence fits the claims --------------------------------------------------------


def _score_issue(*verdicts: object, score: float = 0.3) -> str:
    decision = NoiseGate().filter_output("text", report(score, *verdicts), conf(0.9))
    assert isinstance(decision, RejectedOutput)
    return decision.guidance.issues[0]


def test_one_contradicted_claim_is_not_described_as_partly_backed():
    assert _score_issue(contradicted()) == (
        "The answer's only claim is contradicted by the evidence (grounding 0.30, needs 0.60)."
    )
    assert _score_issue(unsupported()) == (
        "The answer's only claim is not backed by the evidence (grounding 0.30, needs 0.60)."
    )


def test_score_sentence_says_none_part_or_all_of_the_claims_are_backed():
    assert _score_issue(contradicted(), unsupported(), score=0.2) == (
        "None of the answer's 2 claims is backed by the evidence; 1 is contradicted by it "
        "(grounding 0.20, needs 0.60)."
    )
    assert _score_issue(contradicted(), contradicted(), score=0.2) == (
        "All 2 claims of the answer are contradicted by the evidence (grounding 0.20, needs 0.60)."
    )
    assert _score_issue(contradicted(), grounded(), score=0.5) == (
        "Only part of the answer is backed by the evidence (grounding 0.50, needs 0.60)."
    )
    assert _score_issue(grounded(), inferred(), score=0.55) == (
        "Every claim has some support in the evidence, but 1 of 2 only in part "
        "(grounding 0.55, needs 0.60)."
    )
    assert _score_issue(inferred(), score=0.5) == (
        "The answer's only claim is only partly backed by the evidence (grounding 0.50, "
        "needs 0.60)."
    )


# --- empty answers -----------------------------------------------------------------------------


def test_fail_on_empty_exits_nonzero_for_empty_answer(tmp_path, capsys):
    answer = _answer(tmp_path, "")
    argv = ["check", "--evidence", str(EVIDENCE), "--answer", answer]
    code, _, err = _run(argv, capsys)
    assert code == EXIT_PASS  # kept: an empty answer passes, with a warning
    assert "the answer passes" in err
    code, out, err = _run([*argv, "--fail-on-empty"], capsys)
    assert code == EXIT_EMPTY == 3
    assert code not in (EXIT_PASS, EXIT_REJECTED, EXIT_ERROR)
    assert "Gate decision: pass" in out  # the gate's verdict is still shown as it is
    assert err.startswith(f"qgate check: warning: {answer}: no checkable claims; the answer ")
    assert "fails (--fail-on-empty, exit 3)" in err
    code, _, _ = _run(["check", "--evidence", str(EVIDENCE), "--answer",
                       _answer(tmp_path, GOOD), "--fail-on-empty"], capsys)  # fmt: skip
    assert code == EXIT_PASS  # an answer with claims is judged as before


def test_fail_on_empty_and_its_exit_code_are_documented(capsys):
    _, out, _ = _run(["check", "--help"], capsys)
    text = " ".join(out.split())
    assert "--fail-on-empty" in text
    assert "3 qgate check --fail-on-empty: the answer has no checkable claims" in text


# --- help text ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_help_describes_it_and_its_debug_flag(command, capsys):
    code, out, _ = _run([*command.split(), "--help"], capsys)
    assert code == 0
    usage, description = out.split("\n\n")[:2]
    assert usage.startswith(f"usage: qgate {command}")
    assert not description.startswith(("options:", "positional arguments:"))
    assert len(description.split()) >= 8
    debug = next(line for line in out.splitlines() if line.strip().startswith("--debug"))
    assert "traceback" in debug


def test_demo_help_describes_the_demo(capsys):
    _, out, _ = _run(["demo", "--help"], capsys)
    text = " ".join(out.split())
    assert "scripted chat model" in text
    assert "interrupt()" in text


# --- qgate judge -------------------------------------------------------------------------------


def test_judge_names_a_hypothesis_without_a_title_without_an_internal_sentinel(tmp_path, capsys):
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            [
                {"agent_name": "a", "hypotheses": [{"supporting_signals": []}]},
                {"agent_name": "b", "hypotheses": ["plain text"]},
                {"agent_name": "c", "hypotheses": [{"title": None, "confidence": 0.5}]},
            ]
        ),
        encoding="utf-8",
    )
    ids = tmp_path / "ids.txt"
    ids.write_text("s1\n", encoding="utf-8")
    code, out, _ = _run(["judge", str(results), "--ids", str(ids)], capsys)
    assert code == EXIT_REJECTED
    assert "<object object" not in out
    assert " at 0x" not in out
    assert out.splitlines()[:3] == [
        f"rejected #{i} {name!r}: hypothesis 0 (no title) cites no signals; every hypothesis "
        "must cite at least one signal id"
        for i, name in enumerate("abc")
    ]
