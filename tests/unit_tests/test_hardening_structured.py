"""Structured evidence that never crashes, stalls or lets a contradiction through (issue 26).

One regression group per item, each with the issue's reproducer:

1. deep nesting              4. shared references and cycles   7. 310+ digit numbers compared
2. huge integers             5. long lists of numbers          8. odd keys, cuts reported
3. lone surrogates           6. duplicate source ids

Then the structured fuzz set of ``benchmarks/_hardening_structured.py`` with a fixed seed and
a small count. No timing assertions: the walks are pinned by what they visit (values read,
membership probes), the timings are in the benchmark.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from langchain_qgate.cli import main
from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import InputTooLargeError, InvalidInputError
from langchain_qgate.grounding import HallucinationMonitor
from langchain_qgate.grounding.evidence._flatten import (
    LIST_ITEMS,
    MAX_DEPTH,
    MAX_FIELDS,
    MAX_VALUES,
)
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.evidence.structured import CUT_KEY, recognise
from langchain_qgate.integrations._harvest import tool_output_evidence
from langchain_qgate.schemas import Grade
from tests.unit_tests.test_hardening import SpyEmbedder

REVENUE_EVIDENCE = "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million."
REVENUE_CLAIM = "Nordlicht Robotics reported revenue of €{} million in fiscal year 2024."


@pytest.fixture(scope="module")
def m() -> HallucinationMonitor:
    return HallucinationMonitor(embedder=HashingEmbedder())


class BadKey:
    """A key whose ``str`` raises."""

    def __str__(self) -> str:
        raise RuntimeError("boom")


def _deep_json(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def _fields(item: Any) -> dict[str, str]:
    src = recognise(item)
    assert src is not None
    return {f.path: f.value for f in src.fields}


# -- 1. deep nesting -------------------------------------------------------------------------


def test_deep_json_string_is_a_clear_invalid_input_error(m) -> None:
    with pytest.raises(InvalidInputError, match="JSON nested more than 500 levels"):
        m.verify_grounding("x.", [_deep_json(10_000)])


def test_deep_json_gets_the_same_answer_whatever_the_recursion_limit(m) -> None:
    import sys

    before = sys.getrecursionlimit()
    try:
        for limit in (1_000, 50_000):  # another library may have raised it in this process
            sys.setrecursionlimit(limit)
            with pytest.raises(InvalidInputError, match="JSON nested more than 500 levels"):
                m.verify_grounding("x.", [_deep_json(10_000)])
    finally:
        sys.setrecursionlimit(before)
    shallow = '{"total": 5, "deep": ' + _deep_json(400) + "}"  # under the limit: read
    assert m.verify_grounding("The total is 5.", [shallow]).verdicts[0].grade is Grade.GROUNDED


def test_json_depth_ignores_brackets_inside_strings() -> None:
    from langchain_qgate.grounding.evidence.structured import json_depth

    assert json_depth('{"a": "' + "[" * 2_000 + '"}') == 1
    assert json_depth("[" * 600 + "]" * 600) == 600
    assert json_depth('{"a": ' * 20 + "1" + "}" * 20) == 0  # too few brackets to be deep


def test_deep_dict_is_read_to_the_depth_limit_and_the_cut_noted(m) -> None:
    deep: Any = 1
    for _ in range(10_000):
        deep = {"a": deep}
    report = m.verify_grounding("The total is 5.", [{"total": 5, "deep": deep}])
    assert report.notes == [
        f"evidence record: nested more than {MAX_DEPTH} levels: deeper values not read"
    ]
    assert report.verdicts[0].grade is Grade.GROUNDED
    alone = m.verify_grounding("x.", [deep])
    assert alone.evidence_count == 0
    assert alone.notes[0].endswith(f"nested more than {MAX_DEPTH} levels: deeper values not read")


def test_moderately_deep_json_is_parsed_and_cut(m) -> None:
    text = '{"total": 5, "deep": ' + _deep_json(200) + "}"
    fields = _fields(text)
    assert fields["total"] == "5"
    assert not any(p.startswith("deep") for p in fields)  # 1 at level 201 is past the limit
    assert m.verify_grounding("x.", [text]).notes


@pytest.mark.parametrize(
    ("name", "content"),
    [("e.json", _deep_json(10_000)), ("e.jsonl", '{"text": ' + _deep_json(10_000) + "}")],
)
def test_cli_deep_json_file_exits_2_with_one_line(
    name, content, tmp_path, monkeypatch, capsys
) -> None:
    import langchain_qgate.grounding.evidence.embeddings as embeddings

    monkeypatch.setattr(embeddings, "default_embedder", lambda *a, **k: HashingEmbedder())
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (tmp_path / "a").write_text("Acme has 5 staff.", encoding="utf-8")
    (tmp_path / name).write_text(content, encoding="utf-8")
    code = main(["check", "--answer", str(tmp_path / "a"), "--evidence", str(tmp_path / name)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")  # an input error (issue 25's exit codes)
    assert err.count("\n") == 1
    assert err.startswith(f"qgate check: error: {tmp_path / name}")  # names the file
    assert "nested too deep" in err
    assert "Traceback" not in err


# -- 2. huge integers ------------------------------------------------------------------------


def test_huge_integer_is_written_out_exactly(m) -> None:
    assert _fields({"total": 10**5000, "n": 3}) == {"total": "1" + "0" * 5000, "n": "3"}
    report = m.verify_grounding("The total is 5.", [{"total": 10**5000}])
    assert report.evidence_count == 1
    assert report.verdicts[0].grade is Grade.FABRICATED
    json.loads(report.model_dump_json())


def test_integer_past_the_written_limit_is_skipped_and_noted(m) -> None:
    report = m.verify_grounding("x.", [{"total": 10**60_000, "n": 3}])
    assert report.evidence_count == 1  # n
    assert report.notes == ["evidence record: an integer of more than 50,000 digits was not read"]


def test_huge_integer_key_is_named() -> None:
    assert _fields({10**5000: 1, BadKey(): 2}) == {"1" + "0" * 59: "1", "BadKey": "2"}


# -- 3. lone surrogates ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "item",
    [
        '{"total": "5 \ud800"}',
        {"total": "5 \ud800"},
        {"tot\udfffal": "5"},
        "| city | total |\n|---|---|\n| Berlin\ud800 | 5 |\n| Paris | 6 |",
        ToolMessage(content="", artifact={"total": "5 \ud800"}, tool_call_id="t", name="a\ud800"),
    ],
)
def test_lone_surrogate_in_structured_evidence_is_repaired(item) -> None:
    spy = SpyEmbedder()
    report = HallucinationMonitor(embedder=spy).verify_grounding("The total is 5.", [item])
    assert report.evidence_count >= 1
    assert spy.seen
    assert not any(0xD800 <= ord(ch) <= 0xDFFF for t in spy.seen for ch in t)
    report.model_dump_json().encode("utf-8")


def test_repaired_value_keeps_a_replacement_character() -> None:
    assert _fields('{"total": "5 \ud800"}') == {"total": "5 \ufffd"}


# -- 4. shared references and cycles ---------------------------------------------------------


def _shared(depth: int) -> Any:
    # the leaf null is an item of a list, no field's "none": the walk is bounded by the
    # values it visits, not by the fields it writes
    x: Any = [None]
    for _ in range(depth):
        x = {"a": x, "b": x}
    return x


@pytest.mark.parametrize("depth", [22, 24, 28])
def test_shared_references_stop_at_the_value_budget(m, depth) -> None:
    report = m.verify_grounding(
        "x.", [ToolMessage(content="", artifact=_shared(depth), tool_call_id="t")]
    )
    assert report.notes == [
        f"evidence tool: more than {MAX_VALUES:,} values: the rest was not read"
    ]


def test_shared_leaves_are_read_once_per_path_within_the_budget() -> None:
    leaf = {"city": "Berlin"}
    x: Any = leaf
    for _ in range(10):  # 1,024 paths to the same leaf
        x = {"a": x, "b": x}
    src = recognise({"root": x})
    assert src is not None
    assert len(src.fields) == 1024
    assert src.cut == ""
    address = {"city": "Berlin"}
    assert _fields({"billing": address, "shipping": address, "n": 1}) == {
        "billing.city": "Berlin",
        "shipping.city": "Berlin",
        "n": "1",
    }


def test_self_referencing_dict_is_read_once_and_noted(m) -> None:
    loop: dict[str, Any] = {"total": 5}
    loop["self"] = loop
    loop["items"] = [loop, {"price": 3}]
    assert _fields(loop) == {"total": "5", "items[1].price": "3"}
    report = m.verify_grounding(
        "The total is 5.", [ToolMessage(content="", artifact=loop, tool_call_id="t")]
    )
    assert report.notes == [
        "evidence tool: a value contains itself: the repeated part was not read again"
    ]
    assert report.verdicts[0].grade is Grade.GROUNDED


def test_shared_artifact_through_the_integrations_is_bounded_and_noted(m) -> None:
    artifact = {"company": "Acme", "staff": 5, "tree": _shared(28)}
    (doc,) = tool_output_evidence(ToolMessage(content="", artifact=artifact, tool_call_id="t"))
    assert doc.page_content.count("null") < MAX_VALUES  # json.dumps wrote 2**28 of them
    cut = f"more than {MAX_VALUES:,} values: the rest was not read"
    assert doc.metadata[CUT_KEY] == cut
    report = m.verify_grounding("Acme has 5 staff.", [doc])
    assert report.notes == [f"evidence tool: {cut}"]
    assert report.verdicts[0].grade is Grade.GROUNDED


@pytest.mark.parametrize(
    "artifact",
    [
        {"total": 5, "big": 10**5000, 10**5000: 1, "bad": {BadKey(): 2}},
        {"total": 5, "loop": None},
        {"total": 5, "deep": _deep_json(5)},
    ],
    ids=["odd-keys-and-huge-ints", "cycle", "json-in-a-string"],
)
def test_tool_artifact_json_text_reads_as_the_artifact(artifact) -> None:
    if "loop" in artifact:
        artifact["loop"] = artifact
    (doc,) = tool_output_evidence(ToolMessage(content="", artifact=artifact, tool_call_id="t"))
    assert _fields(doc) == _fields(artifact)


# -- 5. long lists ---------------------------------------------------------------------------


def test_long_list_is_split_into_statements_of_100_values() -> None:
    fields = _fields({"values": list(range(250)), "n": 1})
    assert list(fields) == ["values[0-99]", "values[100-199]", "values[200-249]", "n"]
    assert fields["values[200-249]"] == ", ".join(map(str, range(200, 250)))
    assert _fields({"tags": ["a", "b"], "n": 1}) == {"tags": "a, b", "n": "1"}  # short: one


def test_list_of_half_a_million_numbers_is_read_to_the_budget(m) -> None:
    text = json.dumps({"values": list(range(512_000))})
    src = recognise(text)
    assert src is not None
    assert len(src.fields) == MAX_VALUES // LIST_ITEMS
    # the list itself is one of the values visited: 19,999 numbers are read
    assert src.fields[-1].path == f"[{MAX_VALUES - LIST_ITEMS}-{MAX_VALUES - 2}]"
    report = m.verify_grounding("x.", [text])
    assert report.notes == [
        f"evidence values: more than {MAX_VALUES:,} values: the rest was not read"
    ]


# -- 6. duplicate source ids -----------------------------------------------------------------


class CountingSet(set[str]):
    """A set that counts membership probes."""

    probes = 0

    def __contains__(self, item: object) -> bool:
        CountingSet.probes += 1
        return super().__contains__(item)


@pytest.mark.parametrize(
    "evidence",
    [
        ["c."] * 3_000,
        [{"page_content": "c.", "metadata": {"source": "s"}}] * 3_000,
        [[{"a": i} for i in range(3_000)]],
    ],
    ids=["same-text", "same-source", "records"],
)
def test_duplicate_source_ids_take_linear_probes(evidence) -> None:
    index = EvidenceIndex(embedder=HashingEmbedder())
    index._source_ids = CountingSet()
    CountingSet.probes = 0
    index.add(evidence)
    assert len({c.source_id for c in index.chunks}) == 3_000
    assert CountingSet.probes < 4 * 3_000  # a linear search per duplicate took ~n^2/2


def test_suffixes_are_the_least_free_ones() -> None:
    index = EvidenceIndex(["c.", "c."], embedder=HashingEmbedder())
    base = index.chunks[0].source_id
    index.add([{"page_content": "d.", "id": f"{base}~3"}, "c.", "c."])
    assert [c.source_id for c in index.chunks] == [
        base,
        f"{base}~2",
        f"{base}~3",
        f"{base}~4",
        f"{base}~5",
    ]


# -- 7. numbers of 310+ digits ---------------------------------------------------------------


@pytest.mark.parametrize("nines", [300, 310, 320, 5_000])
def test_revenue_past_a_float_is_contradicted(m, nines) -> None:
    claim = REVENUE_CLAIM.format("9" * nines)
    (verdict,) = m.verify_grounding(claim, [REVENUE_EVIDENCE]).verdicts
    assert verdict.grade is Grade.FABRICATED
    assert verdict.contradiction is not None
    assert "48.2 million" in verdict.reason


def test_the_same_huge_number_copied_is_not_contradicted(m) -> None:
    claim = REVENUE_CLAIM.format("9" * 320)
    (verdict,) = m.verify_grounding(claim, [claim]).verdicts
    assert verdict.contradiction is None
    assert verdict.grade is Grade.GROUNDED


# -- 8. odd keys and cuts --------------------------------------------------------------------


def test_key_whose_str_raises_is_named_by_its_type(m) -> None:
    assert _fields({BadKey(): 1, "b": 2}) == {"BadKey": "1", "b": "2"}
    report = m.verify_grounding("The b is 2.", [{BadKey(): 1, "b": 2}])
    assert report.evidence_count == 2


def test_json_source_cut_at_the_field_cap_is_reported(m, tmp_path, capsys) -> None:
    text = json.dumps({f"k{i}": i for i in range(MAX_FIELDS + 1_000)})
    report = m.verify_grounding("x.", [text])
    assert report.evidence_count == MAX_FIELDS
    assert report.notes == [
        f"evidence record: more than {MAX_FIELDS:,} fields: the rest was not read"
    ]
    table = "a,b\n" + "".join(f"r{i},{i}\n" for i in range(MAX_FIELDS))
    assert m.verify_grounding("x.", [table]).notes == [
        f"evidence table: more than {MAX_FIELDS:,} cells: the rest was not read"
    ]


def test_cli_prints_the_cut(tmp_path, monkeypatch, capsys) -> None:
    import langchain_qgate.grounding.evidence.embeddings as embeddings

    monkeypatch.setattr(embeddings, "default_embedder", lambda *a, **k: HashingEmbedder())
    (tmp_path / "a").write_text("The k1 is 1.", encoding="utf-8")
    data = json.dumps({f"k{i}": i for i in range(MAX_FIELDS + 10)})
    (tmp_path / "orders.json").write_text(data, encoding="utf-8")
    main(["check", "--answer", str(tmp_path / "a"), "--evidence", str(tmp_path / "orders.json")])
    out, _ = capsys.readouterr()
    assert f"note: evidence orders: more than {MAX_FIELDS:,} fields: the rest was not read" in out


# -- the structured fuzz set (benchmarks/_hardening_structured.py), fixed seed, small -------


def test_structured_fuzz_set_gives_no_foreign_error_and_no_contract_violation() -> None:
    from benchmarks._hardening_structured import SHAPES, run_fuzz

    result = run_fuzz(150, seed=26, scale=0.01, budget_s=60.0, pair_model=None)  # rules only
    assert set(result["inputs_by_shape"]) == set(SHAPES)
    assert result["foreign_errors"] == {}
    assert result["contract_violations"] == []
    assert result["verdicts"] + sum(result["documented_errors"].values()) == 150
    assert result["over_budget"] == []  # a per-input budget of 60 s (10 s in the benchmark)


# -- 13. size: the claim cap -----------------------------------------------------------------


def test_answer_over_the_claim_cap_is_a_clear_error_before_any_model_runs() -> None:
    spy = SpyEmbedder()
    monitor = HallucinationMonitor(embedder=spy)
    answer = "Acme Corp was founded in 2020 in Berlin. " * 251
    with pytest.raises(InputTooLargeError, match="251 claims is over the limit of 250 claims"):
        monitor.verify_grounding(answer, [REVENUE_EVIDENCE])
    assert spy.seen == []  # nothing was embedded


def test_claim_cap_is_a_setting() -> None:
    answer = "Acme Corp was founded in 2020 in Berlin. " * 30
    capped = HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(max_claims=20))
    with pytest.raises(InvalidInputError, match="30 claims is over the limit of 20 claims"):
        capped.verify_grounding(answer, [REVENUE_EVIDENCE])
    free = HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(max_claims=None))
    assert len(free.verify_grounding(answer, [REVENUE_EVIDENCE]).verdicts) == 30
    with pytest.raises(ValueError, match="max_claims must be None or >= 1"):
        GroundingPolicy(max_claims=0)


def test_evidence_over_the_chunk_cap_is_refused_before_it_is_all_chunked() -> None:
    spy = SpyEmbedder()
    monitor = HallucinationMonitor(embedder=spy)
    assert monitor.policy.max_evidence_chunks == 40_000  # about 3 MB of prose
    one_source = "Acme reported revenue of 5 million in 2020. " * 100_000  # 4.4 MB, one text
    with pytest.raises(InputTooLargeError, match=r"GroundingPolicy\.max_evidence_chunks") as err:
        monitor.verify_grounding("Acme reported revenue of 5 million.", [one_source])
    assert err.value.limit == 40_000
    assert err.value.size == 40_001  # it stopped at the first chunk past the cap
    assert spy.seen == []  # nothing was embedded


def test_a_refused_evidence_batch_leaves_the_index_as_it_was() -> None:
    index = EvidenceIndex(embedder=HashingEmbedder(), max_chunks=3)
    index.add(["Acme has 5 staff."])
    before = [c.id for c in index.chunks]
    with pytest.raises(InputTooLargeError, match="4 chunks is over the limit of 3 chunks"):
        index.add(["Acme is in Berlin.", "Acme sells robots.", "Acme was founded in 2020."])
    assert [c.id for c in index.chunks] == before  # nothing of the refused batch stays
    added = index.add(["Acme is in Berlin.", "Acme sells robots."])
    fresh = EvidenceIndex(embedder=HashingEmbedder(), max_chunks=3)
    fresh.add(["Acme has 5 staff."])
    expected = fresh.add(["Acme is in Berlin.", "Acme sells robots."])
    # its source ids were released: the same evidence gets the same ids as if never refused
    assert [c.id for c in added] == [c.id for c in expected]
    assert len(index) == 3


def test_two_numbers_past_a_float_are_the_same_value_only_when_equal() -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities, same_written_value

    (a,) = extract_quantities("9" * 320)
    (b,) = extract_quantities("9" * 319 + "8")
    (c,) = extract_quantities("9" * 320)
    assert a.value == b.value == float("inf")  # as floats they look equal
    assert not same_written_value(a, b)
    assert same_written_value(a, c)
