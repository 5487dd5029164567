"""Judge layer: ordered deterministic checks on agent results, and the generic citation judge."""

from __future__ import annotations

import logging
import math

import pytest
from pydantic import BaseModel, ValidationError

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.judge import (
    AgentResult,
    CitationJudge,
    Hypothesis,
    InMemorySignalMemory,
    JudgedResult,
    JudgeLayer,
    SignalMemory,
    format_valid_ids,
)

VALID = ["sig-b", "sig-a", "sig-c"]


def hyp(title: str = "Disk full", signals: list[str] | None = None, confidence: float = 0.7):
    return Hypothesis(
        title=title,
        supporting_signals=["sig-a"] if signals is None else signals,
        confidence=confidence,
    )


@pytest.fixture
def judge() -> JudgeLayer:
    return JudgeLayer(InMemorySignalMemory(VALID))


# ---------------------------------------------------------------- models and memory


def test_hypothesis_validates_confidence_range() -> None:
    with pytest.raises(ValidationError):
        Hypothesis(title="x", supporting_signals=["a"], confidence=1.5)
    with pytest.raises(ValidationError):
        Hypothesis(title="x", supporting_signals=["a"], confidence=-0.1)
    with pytest.raises(ValidationError):
        Hypothesis(title="x", supporting_signals=["a"], confidence=math.nan)


def test_agent_result_round_trips_through_json() -> None:
    result = AgentResult(agent_name="infra", hypotheses=[hyp()], summary="s")
    assert AgentResult.model_validate_json(result.model_dump_json()) == result


def test_in_memory_signal_memory_satisfies_protocol_and_tracks_changes() -> None:
    memory = InMemorySignalMemory(["a"])
    assert isinstance(memory, SignalMemory)
    first = memory.signal_ids()
    assert memory.signal_ids() is first  # cached snapshot
    memory.add("b")
    assert memory.signal_ids() == {"a", "b"}
    assert first == {"a"}  # old snapshot unchanged
    memory.discard("a")
    assert memory.signal_ids() == {"b"}
    assert "b" in memory
    assert len(memory) == 1


def test_in_memory_signal_memory_refuses_a_bare_string() -> None:
    with pytest.raises(InvalidInputError):
        InMemorySignalMemory("abc")


# ---------------------------------------------------------------- each check


def test_valid_result_passes(judge: JudgeLayer) -> None:
    result = AgentResult(agent_name="infra", hypotheses=[hyp(), hyp("Net", ["sig-b", "sig-c"])])
    verdict = judge.judge(result)
    assert verdict == JudgedResult(valid=True, result=result)
    assert verdict.result is result


def test_zero_hypotheses_is_valid(judge: JudgeLayer) -> None:
    assert judge.judge(AgentResult(agent_name="infra")).valid


def test_empty_agent_name_is_rejected(judge: JudgeLayer) -> None:
    verdict = judge.judge(AgentResult(agent_name="", hypotheses=[hyp()]))
    assert not verdict.valid
    assert verdict.failed_check == "agent_name"
    assert verdict.rejection_reason == "agent name is empty"


@pytest.mark.parametrize("name", [" ", "\t\n", "   \u3000 "])
def test_whitespace_only_agent_name_is_rejected(judge: JudgeLayer, name: str) -> None:
    verdict = judge.judge(AgentResult(agent_name=name, hypotheses=[hyp()]))
    assert verdict.failed_check == "agent_name"
    assert verdict.rejection_reason == "agent name is whitespace-only"


def test_hypothesis_without_signals_is_rejected(judge: JudgeLayer) -> None:
    result = AgentResult(agent_name="infra", hypotheses=[hyp(), hyp("Bare claim", [])])
    verdict = judge.judge(result)
    assert verdict.failed_check == "citations_present"
    assert verdict.rejection_reason == (
        "hypothesis 1 ('Bare claim') cites no signals; "
        "every hypothesis must cite at least one signal id"
    )


def test_unknown_signal_message_names_hypothesis_unknown_id_and_sorted_valid_ids(
    judge: JudgeLayer,
) -> None:
    result = AgentResult(
        agent_name="infra", hypotheses=[hyp(), hyp("Memory leak", ["sig-a", "sig-zz"])]
    )
    verdict = judge.judge(result)
    assert not verdict.valid
    assert verdict.failed_check == "citations_known"
    assert verdict.rejection_reason == (
        "hypothesis 1 ('Memory leak') cites unknown signal id 'sig-zz'; "
        "valid ids: ['sig-a', 'sig-b', 'sig-c']"
    )


def test_unknown_signal_with_empty_memory_says_nothing_is_recorded() -> None:
    verdict = JudgeLayer(InMemorySignalMemory()).judge(
        AgentResult(agent_name="a", hypotheses=[hyp()])
    )
    assert verdict.rejection_reason == (
        "hypothesis 0 ('Disk full') cites unknown signal id 'sig-a'; "
        "valid ids: none (no ids are recorded)"
    )


def test_model_construct_confidence_above_one_is_rejected(judge: JudgeLayer) -> None:
    bad = Hypothesis.model_construct(title="Hot CPU", supporting_signals=["sig-a"], confidence=1.5)
    result = AgentResult.model_construct(agent_name="infra", hypotheses=[hyp(), bad])
    verdict = judge.judge(result)
    assert verdict.failed_check == "confidence_range"
    assert verdict.rejection_reason == "hypothesis 1 ('Hot CPU') has confidence 1.5 outside [0, 1]"


@pytest.mark.parametrize(
    ("confidence", "expected"),
    [
        (-0.01, "has confidence -0.01 outside [0, 1]"),
        (math.nan, "has confidence nan outside [0, 1]"),
        ("high", "has a non-numeric confidence 'high'"),
        (None, "has a non-numeric confidence None"),
        (True, "has a non-numeric confidence True"),
    ],
)
def test_model_construct_bad_confidences_are_rejected(
    judge: JudgeLayer, confidence: object, expected: str
) -> None:
    bad = Hypothesis.model_construct(title="T", supporting_signals=["sig-a"], confidence=confidence)
    verdict = judge.judge(AgentResult.model_construct(agent_name="a", hypotheses=[bad]))
    assert verdict.failed_check == "confidence_range"
    assert verdict.rejection_reason == f"hypothesis 0 ('T') {expected}"


@pytest.mark.parametrize("confidence", [0, 0.0, 1, 1.0])
def test_confidence_bounds_are_inclusive(judge: JudgeLayer, confidence: float) -> None:
    ok = Hypothesis.model_construct(title="T", supporting_signals=["sig-a"], confidence=confidence)
    assert judge.judge(AgentResult.model_construct(agent_name="a", hypotheses=[ok])).valid


def test_model_construct_non_string_name_and_signal_are_rejected(judge: JudgeLayer) -> None:
    nameless = AgentResult.model_construct(agent_name=None, hypotheses=[])
    assert judge.judge(nameless).rejection_reason == "agent name is not a string (None)"
    odd = Hypothesis.model_construct(title="T", supporting_signals=[42], confidence=0.5)
    verdict = judge.judge(AgentResult.model_construct(agent_name="a", hypotheses=[odd]))
    assert verdict.failed_check == "citations_known"
    assert "cites unknown signal id 42;" in (verdict.rejection_reason or "")


def test_plain_mapping_results_are_judged_like_models(judge: JudgeLayer) -> None:
    good = {
        "agent_name": "a",
        "hypotheses": [{"title": "T", "supporting_signals": ["sig-c"], "confidence": 0.2}],
    }
    bad = {
        "agent_name": "a",
        "hypotheses": [{"title": "T", "supporting_signals": ["x"], "confidence": 0.2}],
    }
    assert judge.judge(good).valid
    assert judge.judge(bad).failed_check == "citations_known"
    assert judge.judge({"hypotheses": []}).rejection_reason == "agent name is missing"


# ---------------------------------------------------------------- order of checks


def test_empty_name_is_reported_before_bad_citations(judge: JudgeLayer) -> None:
    bad = Hypothesis.model_construct(title="T", supporting_signals=["nope"], confidence=3.0)
    result = AgentResult.model_construct(agent_name="", hypotheses=[hyp("U", []), bad])
    verdict = judge.judge(result)
    assert verdict.failed_check == "agent_name"
    assert verdict.rejection_reason == "agent name is empty"


def test_missing_citation_is_reported_before_unknown_id_in_an_earlier_hypothesis(
    judge: JudgeLayer,
) -> None:
    result = AgentResult(agent_name="a", hypotheses=[hyp("First", ["nope"]), hyp("Second", [])])
    assert judge.judge(result).failed_check == "citations_present"


def test_unknown_id_is_reported_before_bad_confidence_in_an_earlier_hypothesis(
    judge: JudgeLayer,
) -> None:
    bad_conf = Hypothesis.model_construct(title="A", supporting_signals=["sig-a"], confidence=9.0)
    result = AgentResult.model_construct(agent_name="a", hypotheses=[bad_conf, hyp("B", ["x"])])
    verdict = judge.judge(result)
    assert verdict.failed_check == "citations_known"
    assert verdict.rejection_reason is not None
    assert verdict.rejection_reason.startswith("hypothesis 1 ('B') cites unknown signal id 'x'")


# ---------------------------------------------------------------- batches


def test_judge_many_keeps_valid_results_in_order_and_logs_each_rejection(
    judge: JudgeLayer, caplog: pytest.LogCaptureFixture
) -> None:
    r1 = AgentResult(agent_name="one", hypotheses=[hyp()])
    r2 = AgentResult(agent_name="two", hypotheses=[hyp("Ghost", ["sig-9"])])
    r3 = AgentResult(agent_name="three")
    r4 = AgentResult(agent_name=" ", hypotheses=[hyp()])
    before = [r.model_dump() for r in (r1, r2, r3, r4)]
    with caplog.at_level(logging.WARNING, logger="langchain_qgate.judge"):
        kept = judge.judge_many([r1, r2, r3, r4])
    assert kept == [r1, r3]
    assert kept[0] is r1
    messages = [rec.getMessage() for rec in caplog.records]
    assert messages == [
        "judge rejected the result of agent 'two': hypothesis 0 ('Ghost') cites unknown signal "
        "id 'sig-9'; valid ids: ['sig-a', 'sig-b', 'sig-c']",
        "judge rejected the result of agent ' ': agent name is whitespace-only",
    ]
    assert [r.model_dump() for r in (r1, r2, r3, r4)] == before  # nothing mutated


def test_judge_each_returns_every_verdict_and_reads_memory_once() -> None:
    calls = []

    class CountingMemory:
        def signal_ids(self) -> frozenset[str]:
            calls.append(1)
            return frozenset({"s"})

    layer = JudgeLayer(CountingMemory())
    results = [AgentResult(agent_name=str(i), hypotheses=[hyp(signals=["s"])]) for i in range(5)]
    verdicts = layer.judge_each(results)
    assert [v.valid for v in verdicts] == [True] * 5
    assert len(calls) == 1


def test_memory_may_be_a_plain_set_or_a_function() -> None:
    result = AgentResult(agent_name="a", hypotheses=[hyp(signals=["s"])])
    assert JudgeLayer({"s"}).judge(result).valid
    assert JudgeLayer(lambda: ["s"]).judge(result).valid
    assert not JudgeLayer(["t"]).judge(result).valid
    with pytest.raises(InvalidInputError):
        JudgeLayer("s")


def test_memory_changes_are_seen_by_later_judgements() -> None:
    memory = InMemorySignalMemory()
    layer = JudgeLayer(memory)
    result = AgentResult(agent_name="a", hypotheses=[hyp(signals=["new"])])
    assert not layer.judge(result).valid
    memory.add("new")
    assert layer.judge(result).valid


# ---------------------------------------------------------------- large inputs


def test_large_input_ten_thousand_hypotheses_one_hundred_thousand_ids() -> None:
    ids = [f"sig-{i:06d}" for i in range(100_000)]
    layer = JudgeLayer(InMemorySignalMemory(ids))
    hyps = [
        Hypothesis(title=f"h{i}", supporting_signals=[ids[(i * 7) % 100_000]], confidence=0.5)
        for i in range(10_000)
    ]
    assert layer.judge(AgentResult(agent_name="big", hypotheses=hyps)).valid

    bad = [*hyps[:-1], Hypothesis(title="last", supporting_signals=["sig-x"], confidence=0.5)]
    verdict = layer.judge(AgentResult(agent_name="big", hypotheses=bad))
    first20 = [f"sig-{i:06d}" for i in range(20)]
    assert verdict.rejection_reason == (
        f"hypothesis 9999 ('last') cites unknown signal id 'sig-x'; "
        f"valid ids: {first20!r} ... and 99,980 more"
    )


def test_format_valid_ids_lists_small_sets_in_full_and_truncates_large_ones() -> None:
    assert format_valid_ids({"b", "a"}) == "['a', 'b']"
    assert format_valid_ids({"c", "a", "b"}, limit=2) == "['a', 'b'] ... and 1 more"
    assert format_valid_ids(set(), limit=2) == "none (no ids are recorded)"
    assert format_valid_ids({str(i) for i in range(20)}).count("'") == 40  # 20 listed, no tail


def test_max_listed_ids_is_configurable_and_validated() -> None:
    layer = JudgeLayer({"a", "b", "c"}, max_listed_ids=1)
    verdict = layer.judge(AgentResult(agent_name="x", hypotheses=[hyp(signals=["z"])]))
    assert verdict.rejection_reason is not None
    assert verdict.rejection_reason.endswith("valid ids: ['a'] ... and 2 more")
    with pytest.raises(ValueError):
        JudgeLayer({"a"}, max_listed_ids=0)


def test_long_titles_are_shortened_in_messages(judge: JudgeLayer) -> None:
    verdict = judge.judge(AgentResult(agent_name="a", hypotheses=[hyp("x" * 200, [])]))
    assert verdict.rejection_reason is not None
    assert f"('{'x' * 57}...')" in verdict.rejection_reason


def test_same_input_same_verdict(judge: JudgeLayer) -> None:
    result = AgentResult(agent_name="a", hypotheses=[hyp(signals=["q", "r"])])
    assert judge.judge(result) == judge.judge(result)


# ---------------------------------------------------------------- citation judge


class Source(BaseModel):
    evidence_id: str
    quote: str = ""


class Claim(BaseModel):
    text: str
    evidence_ids: list[str] = []
    sources: list[Source] = []


class Answer(BaseModel):
    answer: str
    claims: list[Claim] = []
    primary_source: str | None = None


def test_citation_judge_accepts_known_ids() -> None:
    judge = CitationJudge("claims[].evidence_ids", valid_ids={"d1", "d2"})
    answer = Answer(answer="x", claims=[Claim(text="a", evidence_ids=["d1", "d2"])])
    check = judge.check(answer)
    assert check.valid
    assert check.reason == ""
    assert check.cited_ids == ["d1", "d2"]
    assert check.citations == {"claims[0].evidence_ids": ["d1", "d2"]}
    assert check.valid_id_count == 2


def test_citation_judge_reports_every_unknown_id_with_its_location() -> None:
    judge = CitationJudge(["claims[].evidence_ids", "primary_source"])
    answer = Answer(
        answer="x",
        claims=[Claim(text="a", evidence_ids=["d1", "d9"]), Claim(text="b", evidence_ids=["d8"])],
        primary_source="d9",
    )
    check = judge.check(answer, valid_ids={"d2", "d1"})
    assert not check.valid
    assert check.unknown_ids == ["d9", "d8"]
    assert [(i.kind, i.location, i.cited_id) for i in check.issues] == [
        ("unknown_id", "claims[0].evidence_ids", "d9"),
        ("unknown_id", "claims[1].evidence_ids", "d8"),
        ("unknown_id", "primary_source", "d9"),
    ]
    assert check.issues[0].message == (
        "claims[0].evidence_ids cites unknown id 'd9'; valid ids: ['d1', 'd2']"
    )
    assert check.reason == check.issues[0].message + " (and 2 more issues)"


def test_citation_judge_nested_lists_and_objects() -> None:
    judge = CitationJudge("claims[].sources[].evidence_id", valid_ids={"d1"})
    answer = Answer(
        answer="x",
        claims=[Claim(text="a", sources=[Source(evidence_id="d1"), Source(evidence_id="dX")])],
    )
    check = judge.check(answer)
    assert [i.location for i in check.issues] == ["claims[0].sources[1].evidence_id"]


def test_citation_judge_requires_citations_unless_told_otherwise() -> None:
    answer = Answer(answer="x", claims=[Claim(text="a")])
    strict = CitationJudge("claims[].evidence_ids", valid_ids={"d1"}).check(answer)
    assert [(i.kind, i.location) for i in strict.issues] == [
        ("missing_citation", "claims[0].evidence_ids")
    ]
    lenient = CitationJudge("claims[].evidence_ids", valid_ids={"d1"}, require_citations=False)
    assert lenient.check(answer).valid
    # no claims at all: nothing to cite, valid
    assert CitationJudge("claims[].evidence_ids", valid_ids={"d1"}).check(Answer(answer="x")).valid


def test_citation_judge_fail_fast_keeps_only_the_first_issue() -> None:
    judge = CitationJudge("claims[].evidence_ids", valid_ids={"d1"}, fail_fast=True)
    answer = Answer(answer="x", claims=[Claim(text="a", evidence_ids=["q"]), Claim(text="b")])
    check = judge.check(answer)
    assert len(check.issues) == 1
    assert check.reason == check.issues[0].message


def test_citation_judge_works_on_mappings_and_root_lists() -> None:
    judge = CitationJudge("[].refs", valid_ids={"a"})
    check = judge.check([{"refs": "a"}, {"refs": ["a", "b"]}, {"refs": 5}])
    assert check.unknown_ids == ["b"]
    assert [i.kind for i in check.issues] == ["unknown_id", "malformed"]


def test_citation_judge_works_for_the_agent_result_model() -> None:
    judge = CitationJudge("hypotheses[].supporting_signals", valid_ids=InMemorySignalMemory(VALID))
    result = AgentResult(agent_name="a", hypotheses=[hyp(), hyp("B", ["zz"])])
    assert judge.check(result).unknown_ids == ["zz"]


def test_citation_judge_rejects_bad_paths_and_unknown_fields() -> None:
    for bad in ["", "a..b", "a[", "a.[]", "a[]b"]:
        with pytest.raises(InvalidInputError):
            CitationJudge(bad)
    with pytest.raises(InvalidInputError):
        CitationJudge([])
    with pytest.raises(InvalidInputError, match="Answer has no field 'claimz'"):
        CitationJudge("claimz[].evidence_ids", valid_ids={"a"}).check(Answer(answer="x"))
    with pytest.raises(InvalidInputError, match="valid_ids"):
        CitationJudge("claims[].evidence_ids").check(Answer(answer="x"))


def test_citation_check_round_trips_through_json() -> None:
    judge = CitationJudge("claims[].evidence_ids", valid_ids={"d1"})
    check = judge.check(Answer(answer="x", claims=[Claim(text="a", evidence_ids=["d2"])]))
    assert type(check).model_validate_json(check.model_dump_json()) == check


def test_cited_ids_lists_ids_without_validation() -> None:
    judge = CitationJudge(["claims[].evidence_ids", "primary_source"])
    answer = Answer(
        answer="x", claims=[Claim(text="a", evidence_ids=["d2", "d1"])], primary_source="d2"
    )
    assert judge.cited_ids(answer) == ["d2", "d1"]
