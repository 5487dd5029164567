"""Wrong and faithful answers of issue 23's table, graded with the real bundled models
(embedder + pair model).

Wrong answers that the bi-encoder and the rules graded GROUNDED are now graded below GROUNDED,
and the gate rejects them; antonyms, swaps and negations are named as contradictions. Correct
answers that drew false contradictions (references to a source, conditional instructions) are
not contradicted.
"""

from __future__ import annotations

import pytest

from langchain_qgate.gate import GatePolicy, QualityGate, RejectedOutput
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade, GroundingReport

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def monitor(real_embedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


@pytest.fixture(scope="module")
def gate(monitor) -> QualityGate:
    return QualityGate(monitor=monitor)


def _check(monitor, claim: str, evidence: str, question: str | None = None) -> GroundingReport:
    report = monitor.verify_grounding(claim, [evidence], question=question)
    assert report.verdicts, f"no claim extracted from {claim!r}"
    return report


def _contradicted(monitor, claim: str, evidence: str, question: str | None = None) -> None:
    report = _check(monitor, claim, evidence, question)
    assert report.contradictions, [(v.grade, v.support, v.reason) for v in report.verdicts]
    assert all(v.grade is not Grade.GROUNDED for v in report.verdicts if v.contradiction)


def _named_or_not(monitor, claim: str, evidence: str, *, named: bool) -> None:
    """Named as a contradiction when ``named``, else not contradicted at all."""
    if named:
        _contradicted(monitor, claim, evidence)
    else:
        report = _check(monitor, claim, evidence)
        assert not report.contradictions, [v.reason for v in report.verdicts]


def _not_grounded(monitor, claim: str, evidence: str) -> None:
    report = _check(monitor, claim, evidence)
    assert any(v.grade is not Grade.GROUNDED for v in report.verdicts), [
        (v.grade, v.support, v.reason) for v in report.verdicts
    ]


def test_museum_open_against_closed_on_mondays(monitor) -> None:
    _not_grounded(monitor, "The museum is open on Mondays.", "The museum is closed on Mondays.")


def test_museum_open_against_closed_on_mondays_is_named_a_contradiction(monitor) -> None:
    _contradicted(monitor, "The museum is open on Mondays.", "The museum is closed on Mondays.")


def test_profit_against_loss(monitor) -> None:
    _not_grounded(
        monitor,
        "The company reported a profit of $3 million.",
        "The company reported a loss of $3 million.",
    )


@pytest.mark.xfail(
    strict=True,
    reason="issue 23, open: WordNet lists no antonymy between 'profit' and 'loss' (only 'gain' / "
    "'loss'), and another word for a word is never the verifier's to name below P 0.995 (it "
    "reads synonyms it does not know as contradictions); graded INFERRED ('not in evidence: "
    "profit'), not named",
)
def test_profit_against_loss_is_named_a_contradiction(monitor) -> None:
    _contradicted(
        monitor,
        "The company reported a profit of $3 million.",
        "The company reported a loss of $3 million.",
    )


def test_nile_south_into_the_red_sea(monitor) -> None:
    _not_grounded(
        monitor,
        "The Nile flows south into the Red Sea.",
        "The Nile flows north into the Mediterranean Sea.",
    )


def test_nile_south_into_the_red_sea_is_named_a_contradiction(monitor) -> None:
    _contradicted(
        monitor,
        "The Nile flows south into the Red Sea.",
        "The Nile flows north into the Mediterranean Sea.",
    )


def test_another_person_as_ceo(monitor) -> None:
    _not_grounded(monitor, "The CEO of Acme is John Smith.", "The CEO of Acme is Maria Lopez.")


def test_another_person_as_ceo_is_named_a_contradiction(monitor) -> None:
    _contradicted(monitor, "The CEO of Acme is John Smith.", "The CEO of Acme is Maria Lopez.")


@pytest.mark.parametrize("figure", ["150", "300"])
def test_up_to_range_changed(monitor, gate, figure: str) -> None:
    evidence = "The Aurora X2 has a range of up to 120 km."
    claim = f"The Aurora X2 has a range of up to {figure} km."
    _not_grounded(monitor, claim, evidence)
    assert isinstance(gate.check(claim, [evidence]), RejectedOutput)


def test_figure_of_the_passage_bound_to_the_wrong_year(monitor) -> None:
    _not_grounded(
        monitor,
        "Kaffeewerk reported revenue of €72.8 million in 2024.",
        "In 2024, Kaffeewerk reported revenue of €81.5 million, up 12% from €72.8 million in 2023.",
    )


def test_figure_of_the_passage_bound_to_the_wrong_year_is_named_a_contradiction(monitor) -> None:
    _contradicted(
        monitor,
        "Kaffeewerk reported revenue of €72.8 million in 2024.",
        "In 2024, Kaffeewerk reported revenue of €81.5 million, up 12% from €72.8 million in 2023.",
    )


def test_two_products_prices_swapped(monitor) -> None:
    _not_grounded(
        monitor,
        "The WarmBrew 3 costs €149.",
        "The WarmBrew 3 costs €99, while the WarmBrew 5 costs €149.",
    )


def test_heat_up_time_given_as_brewing_time(monitor) -> None:
    _not_grounded(
        monitor,
        "The WarmBrew 3 brews a cup in 4 minutes.",
        "The WarmBrew 3 heats up in 4 minutes and brews a cup in 90 seconds.",
    )


@pytest.mark.parametrize("frequency", ["every month", "once a year"])
def test_descaling_frequency_changed(monitor, frequency: str) -> None:
    _not_grounded(
        monitor,
        f"The machine needs descaling {frequency}.",
        "The machine needs descaling every three months with the supplied descaler.",
    )


def test_opening_days_changed_to_weekends(monitor) -> None:
    _not_grounded(
        monitor,
        "The service desk is open on weekends.",
        "The service desk is open Monday to Friday, from 9 am to 5 pm.",
    )


def test_tank_size_rounded_without_a_hedge(monitor) -> None:
    _not_grounded(
        monitor,
        "The WarmBrew 3 has a 2-litre water tank.",
        "The WarmBrew 3 has a 1.8-litre water tank and a steel body.",
    )


def test_denial_in_the_evidence_never_grounds_the_claim(monitor) -> None:
    evidence = (
        "In 2024, Acme reported revenue of 48.2 million euros. It is false that Acme reported "
        "revenue of 52.7 million euros in 2024."
    )
    report = _check(monitor, "Acme reported revenue of 52.7 million euros in 2024.", evidence)
    verdict = report.verdicts[0]
    assert verdict.grade is not Grade.GROUNDED, (verdict.support, verdict.reason)
    assert not verdict.reason.startswith("supported by")


@pytest.mark.parametrize(
    "lead",
    ["Here is what I found:", "Here is the answer:", "The evidence confirms this:",
     "The documents confirm this:"],
)  # fmt: skip
def test_meta_lead_in_does_not_hide_the_claim(monitor, lead: str) -> None:
    evidence = "In 2024, Acme reported revenue of €48.2 million."
    answer = f"{lead} Acme reported revenue of €52.7 million in 2024."
    report = _check(monitor, answer, evidence)
    assert report.contradictions
    strict = QualityGate(monitor=monitor, policy=GatePolicy.from_profile("strict"))
    assert isinstance(strict.check(answer, [evidence]), RejectedOutput)


@pytest.mark.parametrize("question", [None, "Hi", "Does the warranty cover limescale damage?"])
def test_question_never_removes_the_contradiction(monitor, gate, question: str | None) -> None:
    evidence = (
        "The WarmBrew 3 comes with a two-year warranty. The warranty does not cover limescale "
        "damage."
    )
    answer = "The warranty covers limescale damage."
    _contradicted(monitor, answer, evidence, question)
    assert isinstance(gate.check(answer, [evidence], question=question), RejectedOutput)


@pytest.mark.parametrize(
    ("answer", "evidence"),
    [
        (
            "The filter should be rinsed weekly. This is mentioned in passage 2.",
            "Passage 1: The machine heats up in three minutes. Passage 2: The filter should be "
            "rinsed weekly. Passage 3: The tank holds 1.8 litres.",
        ),
        (
            "Rinse the filter under warm water (Passage 2).",
            "Passage 1: Unplug the machine. Passage 2: Rinse the filter under warm water. "
            "Passage 3: Let it dry for an hour.",
        ),
        (
            "Repeat step 4 until the water runs clear.",
            "Step 1: Fill the tank. Step 2: Add the descaler. Step 3: Run a brew cycle. "
            "Step 4: Rinse the tank. Repeat step 4 until the water runs clear.",
        ),
    ],
)
def test_references_to_a_source_are_not_figures(monitor, answer: str, evidence: str) -> None:
    report = _check(monitor, answer, evidence)
    assert report.contradictions == [], [v.reason for v in report.verdicts]


def test_conditional_instruction_is_not_a_negation_clash(monitor) -> None:
    evidence = (
        "When a door latch won't catch, it's because the latch doesn't align with the hole in "
        "the strike plate. Tighten the hinges first, then adjust the strike plate."
    )
    report = monitor.verify_grounding(
        "If the latch still doesn't catch, tighten the hinges first.", [evidence]
    )
    assert report.contradictions == [], [v.reason for v in report.verdicts]


# Written for the coordinated-clause fixes (2026-11-27): a claim that restates one clause of
# a compound sentence is compared with that clause, and a negation in another clause, or in
# a clause about someone else, is not the claim's.
_LIBRARY = "The library is open on weekdays and closed on Sundays."
_REVENUE = "Revenue grew by 12% last year, and operating costs rose by only 4%."
_ANNA = "Anna joined the firm in 2010 and became a partner in 2016."
_COMPOUND = [
    (_LIBRARY, "The library is open on weekdays.", "ok"),
    (_LIBRARY, "The library is closed on Sundays.", "ok"),
    (_LIBRARY, "The library is open on Sundays.", "named"),
    (_LIBRARY, "The library opens on Sundays.", "named"),
    ("The shop is open in summer and closed in winter.", "The shop is closed in winter.", "ok"),
    ("The shop is open in summer and closed in winter.", "The shop is open in winter.", "named"),
    ("Prices rose in 2023 and fell in 2024.", "Prices fell in 2024.", "ok"),
    ("Prices rose in 2023 and fell in 2024.", "Prices rose in 2024.", "named"),
    ("The team won the semi-final and lost the final.", "The team lost the final.", "ok"),
    ("The team won the semi-final and lost the final.", "The team won the final.", "named"),
    ("The bridge was opened in 1932 and closed to traffic in 1990.",
     "The bridge was opened in 1932 and closed to traffic in 1990.", "ok"),
    ("The bridge was opened in 1932 and closed to traffic in 1990.",
     "The bridge was opened to traffic in 1990.", "named"),
    ("The cafe accepts cash and does not accept cards.", "The cafe accepts cash.", "ok"),
    ("The cafe accepts cash and does not accept cards.", "The cafe accepts cards.", "named"),
    ("Membership is free for residents, and visitors pay £5 a year.",
     "Residents do not pay for membership.", "ok"),
    ("Membership is free for residents, and visitors pay £5 a year.",
     "Visitors do not pay for membership.", "named"),
    # a figure of one clause bound to the other clause's fact
    (_REVENUE, "Revenue grew by 12%.", "ok"),
    (_REVENUE, "Revenue grew by 4% last year.", "named"),
    (_ANNA, "Anna joined the firm in 2016.", "named"),
    (_ANNA, "Anna became a partner in 2016.", "ok"),
    ("The museum opened in 1901 and was renovated in 1998 and 2015.",
     "The museum was renovated in 2015.", "ok"),
    ("The train leaves at 8:15 and arrives at 10:40.", "The train arrives at 10:40.", "ok"),
    ("The basic plan includes 50 GB of storage, and the premium plan includes 2 TB.",
     "The premium plan includes 2 TB of storage.", "ok"),
]  # fmt: skip


@pytest.mark.parametrize(("evidence", "claim", "expected"), _COMPOUND)
def test_one_clause_of_a_compound_sentence(monitor, evidence: str, claim: str, expected) -> None:
    _named_or_not(monitor, claim, evidence, named=expected == "named")


# Written for the stemmer fix (2026-11-27): the rules compare words by stem, and a negation
# governs the claim's word only when every form of that word has one stem ("does not serve
# dinner" / "The hotel serves dinner" were graded GROUNDED: "serve" and "serves" were two stems).
_HOTEL = "The hotel serves breakfast but does not serve dinner."
_FERRY = "The ferry operates daily in summer and does not operate in winter."
_BAKERY = "The bakery uses organic flour and does not use sugar substitutes."
_FORMS = [
    (_HOTEL, "The hotel serves dinner.", "named"),
    (_HOTEL, "The hotel serves breakfast.", "ok"),
    (_HOTEL, "The hotel does not serve dinner.", "ok"),
    (_FERRY, "The ferry operates in winter.", "named"),
    (_FERRY, "The ferry does not operate in winter.", "ok"),
    (_BAKERY, "The bakery uses sugar substitutes.", "named"),
    (_BAKERY, "The bakery uses organic flour.", "ok"),
    ("The company hired 40 engineers in 2023.", "The company did not hire engineers in 2023.",
     "named"),
    ("The company hired 40 engineers in 2023.", "The company hired engineers in 2023.", "ok"),
    ("The factory does not produce steel.", "The factory produces steel.", "named"),
    ("The company has never changed its logo.", "The company changed its logo.", "named"),
    ("The studies did not include children.", "The study included children.", "named"),
    ("Guests can use the pool free of charge.", "Guests are not charged for the pool.", "ok"),
    ("Guests can use the pool free of charge.", "The pool is free for guests.", "ok"),
    # a count of pairs is no count of the things paired
    ("Pigs have 19 chromosome pairs, 38 chromosomes in all.", "A pig has 38 chromosomes.", "ok"),
    ("Pigs have 19 chromosome pairs.", "Pigs have 38 chromosomes.", "ok"),
    ("Pigs have 19 chromosome pairs.", "Pigs have 21 chromosome pairs.", "named"),
    # a denied object takes the verb of the clause before it (session 38)
    ("The city allows bicycles but not cars in the old town.",
     "The city allows cars in the old town.", "named"),
    ("The city allows bicycles but not cars in the old town.",
     "The city allows bicycles in the old town.", "ok"),
    ("The study included 200 adults and no children.", "The study included children.",
     "named"),
    ("The study included 200 adults and no children.", "The study included 200 adults.", "ok"),
    ("The hotel welcomes adults but no children.", "The hotel welcomes children.", "named"),
    ("The hotel welcomes adults but no children.", "The hotel does not welcome children.",
     "ok"),
    ("The cafe accepts cash but not cards.", "The cafe does not accept cards.", "ok"),
    # irregular forms have their base word's stem (2026-11-27, session 38); the words that
    # negate ("declined to") are not part of what the clause says
    ("The court declined to hear the case.", "The court heard the case.", "named"),
    ("The court declined to hear the case.", "The court did not hear the case.", "ok"),
    ("Smith did not win the 2019 election.", "Smith won the 2019 election.", "named"),
    ("The team lost the final in 2018.", "The team did not lose the final in 2018.", "named"),
    ("The team lost the final in 2018.", "The team lost the 2018 final.", "ok"),
    ("The school does not teach Latin.", "The school taught Latin.", "named"),
    ("The author wrote the foreword in 1990.", "The author has written the foreword.", "ok"),
    ("The plant lacks a cooling tower.", "The plant has a cooling tower.", "named"),
    ("The firm failed to meet its 2020 targets.", "The firm met its 2020 targets.", "named"),
    ("The firm failed to meet its 2020 targets.", "The firm did not meet its 2020 targets.",
     "ok"),
    # a misspelt name is no other person; two common names are
    ("Tolkien wrote several novels.", "Tolkein wrote several novels.", "ok"),
    ("Hickam has also written a number of memoirs and novels.", "Homer Hickman wrote novels.",
     "ok"),
    ("The capital of Slovenia is Ljubljana.", "The capital of Slovakia is Ljubljana.", "named"),
    ("The CEO of Acme is Maria Lopez.", "The CEO of Acme is Mario Lopez.", "named"),
]  # fmt: skip


@pytest.mark.parametrize(("evidence", "claim", "expected"), _FORMS)
def test_forms_of_one_word(monitor, evidence: str, claim: str, expected) -> None:
    _named_or_not(monitor, claim, evidence, named=expected == "named")
