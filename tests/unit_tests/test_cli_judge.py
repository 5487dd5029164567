"""``qgate judge``: verdicts printed per object, exit status 0 / 1 / 2 (through ``main``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_qgate.cli import main
from langchain_qgate.cli.judge import judge_file


def run(argv: list[str]) -> int:
    return main(argv)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    results = [
        {
            "agent_name": "infra",
            "hypotheses": [{"title": "Disk", "supporting_signals": ["s1"], "confidence": 0.9}],
        },
        {
            "agent_name": "net",
            "hypotheses": [{"title": "Loss", "supporting_signals": ["s9"], "confidence": 0.4}],
        },
    ]
    rpath = tmp_path / "results.json"
    rpath.write_text(json.dumps(results))
    ipath = tmp_path / "ids.txt"
    ipath.write_text("s1\ns2\n\n")
    return rpath, ipath


def test_judge_prints_verdicts_and_exits_1_when_any_is_rejected(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    rpath, ipath = files
    assert run(["judge", str(rpath), "--ids", str(ipath)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "pass #0 'infra'",
        "rejected #1 'net': hypothesis 0 ('Loss') cites unknown signal id 's9'; "
        "valid ids: ['s1', 's2']",
        "1 passed, 1 rejected",
    ]


def test_judge_json_output_and_exit_0_when_all_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rpath = tmp_path / "r.jsonl"
    rpath.write_text('{"agent_name": "a", "hypotheses": []}\n{"agent_name": "b"}\n')
    ipath = tmp_path / "ids.json"
    ipath.write_text('["x"]')
    assert run(["judge", str(rpath), "--ids", str(ipath), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["valid"]) for r in records] == [("a", True), ("b", True)]


def test_judge_generic_citations_path(tmp_path: Path) -> None:
    rpath = tmp_path / "answer.json"
    rpath.write_text(json.dumps({"claims": [{"evidence_ids": ["d1"]}, {"evidence_ids": ["d3"]}]}))
    ipath = tmp_path / "ids.txt"
    ipath.write_text("d1\nd2\n")
    (record,) = judge_file(rpath, ipath, citations=["claims[].evidence_ids"])
    assert record["valid"] is False
    assert record["check"] == "unknown_id"
    assert (
        record["reason"] == "claims[1].evidence_ids cites unknown id 'd3'; valid ids: ['d1', 'd2']"
    )


def test_judge_exits_2_on_unreadable_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.json"
    assert run(["judge", str(missing), "--ids", str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err.startswith(f"qgate judge: error: cannot read {missing}: ")
