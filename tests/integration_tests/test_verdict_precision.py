"""Issue 13: every row of the verdict-precision table, with the real bundled model.

A contradiction is reported only when a passage says the same thing with another value in the
same slot; copies and restatements of the evidence are never contradicted; real swaps and
denials are still caught; markers and the question change no grade.
"""

from __future__ import annotations

import json

import pytest

from langchain_qgate.calibration import ConfidenceCalibrator
from langchain_qgate.gate import FilteredOutput, QualityGate
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade

pytestmark = pytest.mark.model

FLOOR_OPEN = pytest.mark.xfail(
    strict=True,
    reason="issue 23, open: GROUNDED needs the verifier's P(entailed) >= 0.5, and it reads a "
    "sentence whose subject is a pronoun or another name as not entailed",
)


@pytest.fixture(scope="module")
def monitor(real_embedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


def _contradictions(monitor, answer, evidence, question=None):
    return monitor.verify_grounding(answer, [evidence], question=question).contradictions


def test_type_blind_entity_rival(monitor) -> None:
    evidence = (
        "Curie was born in Warsaw, Poland, and moved to Paris, France, when she was 24 years old."
    )
    answer = "Sure! Marie Curie was born in Warsaw, Poland, and moved to Paris when she was 24."
    report = monitor.verify_grounding(answer, [evidence])
    assert report.contradictions == []
    assert report.verdicts[0].grade is Grade.GROUNDED
    assert all(v.grade is not Grade.FABRICATED for v in report.verdicts)


def test_discourse_word_as_a_name(monitor) -> None:
    evidence = (
        "Politically, the island is divided between the Republic of Ireland, which covers "
        "five-sixths of the island, and Northern Ireland, which is part of the United Kingdom."
    )
    answer = "Well Politically it is divided between the Republic of Ireland and Northern Ireland."
    report = monitor.verify_grounding(answer, [evidence])
    assert report.contradictions == []
    assert report.verdicts[0].grade is Grade.GROUNDED


def test_not_only_but_read_as_negation(monitor) -> None:
    evidence = (
        "The merger was not only the bank's largest deal, but one of the largest deals in the "
        "sector that year."
    )
    report = monitor.verify_grounding(
        "It was one of the largest deals in the sector that year.", [evidence]
    )
    assert report.contradictions == []
    assert report.verdicts[0].grade is Grade.GROUNDED


def test_number_split_by_a_space(monitor) -> None:
    evidence = "Vets treated 56 000 dogs for poisoning between 2010 and 2014."
    answer = "Around 56,000 dogs were treated for poisoning between 2010 and 2014."
    report = monitor.verify_grounding(answer, [evidence])
    assert report.contradictions == []
    assert report.verdicts[0].grade is Grade.GROUNDED


def test_structured_evidence_is_not_contradicted(monitor) -> None:
    evidence = json.dumps(
        {
            "name": "Harbor Noodle House",
            "address": "112 Pier St",
            "city": "Santa Barbara",
            "state": "CA",
            "categories": "Noodles, Ramen",
            "hours": {"Tuesday": "11:00-21:00"},
        }
    )
    answer = (
        "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
        "They are open on Tuesdays from 11 am to 9 pm."
    )
    report = monitor.verify_grounding(answer, [evidence])
    assert report.contradictions == []
    assert [c.claim.text for c in report.verdicts][-1].startswith("They are open")


def test_a_name_swapped_in_the_same_role(monitor) -> None:
    evidence = (
        "The royal wedding was attended by Queen Margrethe II of Denmark and King Carl XVI "
        "Gustaf of Sweden."
    )
    answer = (
        "The royal wedding was attended by Queen Margrethe II of Denmark and King Harald V of "
        "Sweden."
    )
    v = monitor.verify_grounding(answer, [evidence]).verdicts[0]
    assert v.grade is Grade.FABRICATED
    assert v.reason == "contradicted: the evidence says Carl XVI Gustaf, not Harald V"


def test_a_restatement_through_a_pronoun(monitor) -> None:
    evidence = (
        "The Oresund Bridge links Copenhagen and Malmo. It was opened to traffic on 1 July 2000."
    )
    v = monitor.verify_grounding(
        "The Oresund Bridge opened to traffic on 1 July 2000.", [evidence]
    ).verdicts[0]
    assert v.grade is Grade.GROUNDED
    assert v.evidence[0].quote == "It was opened to traffic on 1 July 2000."


@pytest.mark.parametrize(
    "denial",
    [
        "It is false that Acme reported revenue of 52.7 million euros in 2024.",
        "That Acme reported revenue of 52.7 million euros in 2024 is not true.",
        "Contrary to reports that Acme reported revenue of 52.7 million euros in 2024, the "
        "figure was never published.",
    ],
)
def test_evidence_that_denies_the_claim(monitor, denial) -> None:
    evidence = f"Acme is a software company based in Lyon. {denial}"
    v = monitor.verify_grounding(
        "Acme reported revenue of 52.7 million euros in 2024.", [evidence]
    ).verdicts[0]
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is not None
    assert v.contradiction.kind == "negation"


CONTEXT = (
    "Nordlicht Robotics is a warehouse automation company. It employs 340 people. "
    "Its main product is the Kestrel P3 picking robot. The company opened an office in Vienna. "
    "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million. "
    "The Kestrel P3 picks up to 1,200 items per hour. Every robot comes with a 24-month warranty."
)
WRONG = "Nordlicht Robotics reported revenue of €52.7 million in fiscal year 2024."


@pytest.mark.parametrize(
    "marker", [" [annual_report_2024#1]", " [verified: GROUNDED]", ", as the evidence confirms"]
)
def test_markers_in_the_answer(monitor, marker) -> None:
    plain = monitor.verify_grounding(WRONG, [CONTEXT])
    marked = monitor.verify_grounding(WRONG[:-1] + marker + ".", [CONTEXT])
    assert plain.verdicts[0].grade is Grade.FABRICATED
    assert plain.contradictions
    assert [v.grade for v in marked.verdicts] == [v.grade for v in plain.verdicts]
    assert marked.verdicts[0].support == pytest.approx(plain.verdicts[0].support, abs=0.02)
    assert marked.contradictions[0].reason == plain.contradictions[0].reason


def test_the_question_weakens_the_verdict(monitor, real_embedder) -> None:
    evidence = (
        "Acme is a software company. Acme was launched in March 2023 in Berlin by two founders."
    )
    answer = "Acme was launched in 2021 in Berlin."
    without = monitor.verify_grounding(answer, [evidence])
    asked = monitor.verify_grounding(
        answer, [evidence], question="When and where was Acme launched?"
    )
    for report in (without, asked):
        assert report.verdicts[0].reason == "contradicted: the evidence says March 2023, not 2021"
    gate = QualityGate(monitor=monitor)
    decision = gate.check(answer, [evidence], question="When and where was Acme launched?")
    assert not isinstance(decision, FilteredOutput)
    assert "March 2023, not 2021" in decision.guidance.to_model_message()


@pytest.mark.parametrize(
    ("evidence", "answer"),
    [
        ("He was paid $100,000 a week by the club.", "He was paid $100,000-a-week by the club."),
        (
            "The shop opens at 11:00 and closes at 21:00.",
            "The shop opens at 11 am and closes at 9 pm.",
        ),
        ("Vets treated 56.000 dogs in 2014.", "Vets treated 56,000 dogs in 2014."),
        (
            "Nikolaj Coster-Waldau -LRB- born 27 July 1970 -RRB- is a Danish actor . He worked "
            "in the U.S . for the Fox Broadcasting Company .",
            "Nikolaj Coster-Waldau worked for the Fox Broadcasting Company.",
        ),
        (
            "He did not win the first race in 2009, but he won the final in 2010.",
            "He won the final in 2010.",
        ),
        (
            "Cruz has modelled for Mango, Ralph Lauren and L'Oréal.",
            "Penélope Cruz modelled for L'Oréal.",
        ),
        (
            "The film stars Tom Hanks, Meg Ryan and Bill Pullman.",
            "The film stars Tom Hanks and Meg Ryan.",
        ),
        ("Artpop had first-week sales of 258,000 copies.", "Artpop sold more than 100,000 copies."),
        (
            "Potatoes were introduced to Europe in the 16th century.",
            "Potatoes were introduced to Spain in the 16th century.",
        ),
        ("Elvis Presley was born in Tupelo, Mississippi.", "Presley was born in Tupelo."),
    ],
)
def test_families_of_false_contradictions(monitor, evidence, answer) -> None:
    assert _contradictions(monitor, answer, evidence) == []


@pytest.mark.parametrize(
    ("evidence", "answer", "reason"),
    [
        (
            "Marie Curie was born in Warsaw in 1867.",
            "Marie Curie was born in Krakow in 1867.",
            "the evidence says Warsaw, not Krakow",
        ),
        (
            "Between 1989 and 2005, they won five League titles and five FA Cups.",
            "Between 1989 and 2005, Arsenal won six FA Cups.",
            "the evidence says five, not six",
        ),
        (
            "The company reported net income of $3.1 million in 2023.",
            "The company reported net income of $4.5 million in 2023.",
            "the evidence says $3.1 million, not $4.5 million",
        ),
        (
            "The shop opens at 11:00 on Tuesdays.",
            "The shop opens at 10 am on Tuesdays.",
            "the evidence says 11:00, not 10 am",
        ),
        (
            "The bridge was opened to traffic on 1 July 2000.",
            "The bridge was opened to traffic on 1 July 2001.",
            "the evidence says 1 July 2000, not 1 July 2001",
        ),
        (  # the encyclopaedic "Name (born ...; date)"
            "Anne Rice (born Howard Allen Frances O'Brien; October 4, 1941) is an American "
            "author of gothic fiction.",
            "Anne Rice was born in 1997.",
            "the evidence says October 4, 1941, not 1997",
        ),
        (  # a name both texts state anchors the value after it
            "Moonlight premiered at the Telluride Film Festival on September 2, 2016.",
            "Moonlight premiered at the Telluride Film Festival in 2014.",
            "the evidence says September 2, 2016, not 2014",
        ),
        pytest.param(  # the negated clause of a longer claim
            "Smart Navigation: with built-in navigational technology, AquaSonic covers the "
            "entire pool by itself.",
            "AquaSonic is a pool robot with a warranty, and it doesn't have smart navigation "
            "technology.",
            "the evidence states the opposite: 'Smart Navigation: with built-in navigational "
            "technology, AquaSonic covers the entire pool by itself.'",
            marks=pytest.mark.xfail(
                strict=True,
                reason="issue 23: the clause_negation rule family was deleted (no marginal "
                "value on the fit halves); the verifier does not name this one",
            ),
        ),
    ],
)
def test_real_swaps_are_named(monitor, evidence, answer, reason) -> None:
    found = _contradictions(monitor, answer, evidence)
    assert found
    assert found[0].reason == f"contradicted: {reason}"


def test_default_gate_passes_a_good_answer_without_stated_confidence(monitor) -> None:
    gate = QualityGate(monitor=monitor)
    answer = (
        "Nordlicht Robotics employs 340 people. The Kestrel P3 picks up to 1,200 items per hour."
    )
    decision = gate.check(answer, [CONTEXT])
    assert isinstance(decision, FilteredOutput)
    assert decision.metadata.failed_dimensions == []


def test_confidence_fails_on_stated_confidence_the_evidence_does_not_back(monitor) -> None:
    gate = QualityGate(monitor=monitor)
    answer = "I'm 100% certain: Nordlicht Robotics builds submarines for the navy."
    decision = gate.check(answer, [CONTEXT])
    assert "confidence" in decision.metadata.failed_dimensions
    assert decision.metadata.overconfident


def test_confidence_threshold_applies_to_a_map_fitted_on_own_outcomes(monitor) -> None:
    calibrator = ConfidenceCalibrator()
    # the user's own outcomes: only near-perfect grounding scores turned out right
    calibrator.fit([(0.97, True), (0.95, True), (0.8, False), (0.7, False)] * 5, method="platt")
    strict = QualityGate(monitor=monitor, calibrator=calibrator)
    weak = "The Kestrel P3 has a range of accessories. It ships worldwide."
    meta = strict.check(weak, [CONTEXT]).metadata
    assert meta.confidence < 0.5
    assert "confidence" in meta.failed_dimensions
    assert (
        "confidence"
        not in QualityGate(monitor=monitor).check(weak, [CONTEXT]).metadata.failed_dimensions
    )


def test_chat_reply_small_talk_is_not_claimed_and_facts_are_graded(monitor) -> None:
    reply = (
        "Hi there! Great question. The Oresund Bridge links Copenhagen and Malmo. "
        "I hope this helps! Do you want to know more?"
    )
    evidence = (
        "The Oresund Bridge links Copenhagen and Malmo. It was opened to traffic on 1 July 2000."
    )
    report = monitor.verify_grounding(reply, [evidence])
    assert [v.claim.text for v in report.verdicts] == [
        "The Oresund Bridge links Copenhagen and Malmo."
    ]
    assert report.verdicts[0].grade is Grade.GROUNDED


@pytest.mark.parametrize(
    ("question", "answer", "reason"),
    [
        ("When was Acme founded?", "1998", "the evidence says 2001, not 1998"),
        ("Who founded Acme?", "John Smith", "the evidence says Jane Doe, not John Smith"),
    ],
)
def test_a_short_answer_against_the_passage_that_answers_the_question(
    monitor, question, answer, reason
) -> None:
    evidence = "Acme was founded in 2001 in Berlin by Jane Doe."
    v = monitor.verify_grounding(answer, [evidence], question=question).verdicts[0]
    assert v.reason == f"contradicted: {reason}"
    right = monitor.verify_grounding("Jane Doe", [evidence], question="Who founded Acme?")
    assert right.contradictions == []


@FLOOR_OPEN
def test_a_sentence_cut_from_its_page_may_be_about_the_claims_subject(monitor) -> None:
    evidence = "It was discovered in 1935 by Arthur Jeffrey Dempster."
    v = monitor.verify_grounding("Uranium-235 was discovered in 1935.", [evidence]).verdicts[0]
    assert v.grade is Grade.GROUNDED
    assert v.signals["entities_ok"] == 1.0


def test_a_negated_value_that_the_evidence_replaces_agrees_with_it(monitor) -> None:
    evidence = "In 1975 Thatcher became the second woman to lead a major political party in the UK."
    claim = "Margaret Thatcher was not the first woman to lead a major political party in the UK."
    assert monitor.verify_grounding(claim, [evidence]).contradictions == []


@pytest.mark.benchdata
@pytest.mark.parametrize(
    "name",
    ["halueval_qa", "summedits", "fever_symmetric_dev", "factcheck_gpt_stance", "wice_dev"],
)
def test_a_copied_sentence_is_never_contradicted(name, benchdata_dir, monitor) -> None:
    """A fixed sample of the copied-sentence property (the whole corpus is a benchmark:
    benchmarks/bench_copied_sentences.py): each sentence of the first contexts of the file,
    as written and restated, against its own context, is never contradicted. The share of
    them GROUNDED is a measured figure: benchmarks/check_figures.py, ``copied_sentences``."""
    from langchain_qgate.evaluation import load_rows, run_copied_sentences

    seen: dict[str, str] = {}
    for row in load_rows(benchdata_dir / f"{name}.jsonl"):
        seen.setdefault(row.context, row.id)
        if len(seen) == 6:
            break
    result = run_copied_sentences(
        [(rid, ctx) for ctx, rid in seen.items()], monitor, max_sentences=60
    )
    assert result["sentences"] > 0
    for kind, stats in result["variants"].items():
        assert stats["contradicted"] == 0, (kind, result["contradiction_examples"])
