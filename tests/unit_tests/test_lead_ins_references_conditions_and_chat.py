"""What the rules make of meta lead-ins, the question, references to sources, conditions and
first-person chat statements (the rule fixes of issue 23).

The model-free tests use the hashing embedder (contradictions are decided by the rules, not by
the embedding); the tests marked ``model`` grade with the real bundled model.
"""

from __future__ import annotations

import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityGate
from langchain_qgate.grounding.checks.checks import (
    comparable,
    extract_entities,
    extract_quantities,
    negation_count,
    reference_spans,
)
from langchain_qgate.grounding.checks.slots import negation_clash, passage, slot_conflict, stated_in
from langchain_qgate.grounding.claims.claims import (
    classify_sentence,
    extract_claims,
    strip_preamble,
)
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import ClaimType, Grade

FACTUAL, OPINION = ClaimType.FACTUAL, ClaimType.OPINION

REVENUE = "In 2024, Acme reported revenue of €48.2 million."
WRONG_REVENUE = "Acme reported revenue of €52.7 million in 2024."
WARRANTY = (
    "The WarmBrew 3 comes with a two-year warranty. The warranty does not cover limescale damage."
)
LATCH = (
    "When a door latch won't catch, it's because the latch doesn't align with the hole in the "
    "strike plate. Tighten the hinges first, then adjust the strike plate."
)


@pytest.fixture
def monitor() -> HallucinationMonitor:
    # The rules alone: what the learned verifier adds is tested with a scripted pair model in
    # test_pair_signals.py and with the shipped one in the model tier.
    return HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model=None))


def reasons(monitor: HallucinationMonitor, answer: str, evidence: str, **kw: str) -> list[str]:
    report = monitor.verify_grounding(answer, [evidence], **kw)
    return [v.reason for v in report.contradictions]


# --- 1. a meta lead-in ending in ":" hides no claim -------------------------------------------

LEAD_INS = [
    "Here is what I found:",
    "Here is the answer:",
    "Here's what the documents say:",
    "The evidence confirms this:",
    "The documents confirm this:",
    "According to my research:",
    "Let me explain:",
    "Key facts:",
]


@pytest.mark.parametrize("lead", LEAD_INS)
def test_a_meta_lead_in_before_content_is_stripped_and_the_rest_is_a_claim(lead: str) -> None:
    text = f"{lead} {WRONG_REVENUE}"
    claims = extract_claims(text)
    assert [(c.text, c.type) for c in claims] == [(WRONG_REVENUE, FACTUAL)]
    assert text[claims[0].start : claims[0].end] == WRONG_REVENUE
    assert text[strip_preamble(text) :] == WRONG_REVENUE


@pytest.mark.parametrize("lead", LEAD_INS)
def test_a_figure_after_a_meta_lead_in_is_contradicted(monitor, lead: str) -> None:
    report = monitor.verify_grounding(f"{lead} {WRONG_REVENUE}", [REVENUE])
    assert report.score < 0.5
    assert [v.reason for v in report.contradictions] == [
        "contradicted: the evidence says €48.2 million, not €52.7 million"
    ]


@pytest.mark.parametrize(
    "line", ["Here is a summary:", "Here is what I found:", "The evidence confirms this:"]
)
def test_a_meta_lead_in_alone_stays_a_non_claim(line: str) -> None:
    assert classify_sentence(line) is None
    assert extract_claims(f"{line}\n{WRONG_REVENUE}")[0].text == WRONG_REVENUE
    assert len(extract_claims(f"{line}\n{WRONG_REVENUE}")) == 1


def test_a_label_of_content_before_a_colon_is_part_of_the_claim() -> None:
    assert [c.text for c in extract_claims("Warning: the kettle is hot.")] == [
        "Warning: the kettle is hot."
    ]
    assert extract_claims("Sources: [1] https://example.com/report") == []


# --- 2. a question never hides a contradiction ------------------------------------------------

QUESTIONS = [
    "Hi",
    "Can you help me with something?",
    "Tell me about it.",
    "What do you know?",
]
CONTRADICTIONS = [
    # a number swap
    (REVENUE, WRONG_REVENUE, "contradicted: the evidence says €48.2 million, not €52.7 million"),
    # a negation
    (
        WARRANTY,
        "The warranty covers limescale damage.",
        "contradicted: the evidence states the opposite: 'The warranty does not cover "
        "limescale damage.'",
    ),
    # a name swap
    (
        "Acme was founded in 2001 in Berlin by Jane Doe.",
        "Acme was founded in 2001 in Berlin by John Smith.",
        "contradicted: the evidence says Jane Doe, not John Smith",
    ),
]


@pytest.mark.parametrize(("evidence", "answer", "reason"), CONTRADICTIONS)
def test_a_contradiction_found_without_a_question_is_found_with_any_question(
    monitor, evidence: str, answer: str, reason: str
) -> None:
    assert reasons(monitor, answer, evidence) == [reason]
    leading = f"Is it true that {answer[0].lower()}{answer[1:-1]}?"  # states the wrong value
    for question in [*QUESTIONS, leading]:
        assert reasons(monitor, answer, evidence, question=question) == [reason], question


def test_a_question_stating_the_claims_value_does_not_excuse_a_full_sentence(monitor) -> None:
    question = "Did Acme report revenue of €52.7 million in 2024?"
    assert reasons(monitor, f"Yes. {WRONG_REVENUE}", REVENUE, question=question) == [
        "contradicted: the evidence says €48.2 million, not €52.7 million"
    ]


def test_a_short_answer_is_still_verified_with_its_question(monitor) -> None:
    evidence = "Acme was founded in 2001 in Berlin by Jane Doe."
    assert reasons(monitor, "1998", evidence, question="When was Acme founded?") == [
        "contradicted: the evidence says 2001, not 1998"
    ]
    assert reasons(monitor, "2001", evidence, question="When was Acme founded?") == []


@pytest.mark.parametrize(
    ("value", "question", "stated"),
    [
        ("2019", "Was Acme founded in 2019?", True),
        ("€52.7 million", "Was revenue €52.7 million?", True),
        ("Jane Doe", "Who is Jane Doe?", True),
        ("2", "What happened in 2024?", False),
        ("Hi", "Is this right?", False),
        ("Doe", "Who wrote Does and Don'ts?", False),
        ("2019", "", False),
    ],
)
def test_a_question_states_a_value_only_as_whole_words(
    value: str, question: str, stated: bool
) -> None:
    assert stated_in(value, question) is stated


def test_a_value_given_only_as_part_of_a_word_of_the_question_still_conflicts() -> None:
    claim, evidence = "Acme has 2 offices in Berlin.", "Acme has 3 offices in Berlin."
    found = slot_conflict(
        passage(claim), passage(evidence), evidence_id="e#0", quote=evidence, given="in 2024?"
    )
    assert found is not None
    assert (found.claim_value, found.evidence_value) == ("2", "3")


# --- 3. references to sources are no figures --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "references"),
    [
        ("This is mentioned in passage 2.", ["passage 2"]),
        ("Tighten the hinges first (Passage 2).", ["Passage 2"]),
        ("According to document 3, the tank holds 2 litres.", ["document 3"]),
        ("Repeat step 4 after descaling.", ["step 4"]),
        ("See sections 2 and 3, page 12 and Table 4.", ["sections 2 and 3", "page 12", "Table 4"]),
        ("Revenue grew [2] in 2024 [3, 4].", ["[2]", "[3, 4]"]),
        ("The tank holds 2 litres.", []),
        ("Page 3 million people.", []),
    ],
)
def test_references_to_sources_and_parts_are_found(text: str, references: list[str]) -> None:
    assert [text[a:b] for a, b in reference_spans(text)] == references


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("This is mentioned in passage 2.", []),
        ("Tighten the hinges first (Passage 2).", []),
        ("According to document 3, the tank holds 2 litres.", ["2"]),
        ("Rinse the tank (see source 1) 3 times [2].", ["3"]),
        ("In step 2, 3 eggs are added.", ["3"]),
        ("Repeat step four three times.", ["three"]),
    ],
)
def test_a_reference_to_a_source_is_no_quantity(text: str, values: list[str]) -> None:
    assert [q.raw for q in extract_quantities(text) if not q.reference] == values


def test_a_step_number_is_a_reference_that_never_disagrees_with_a_figure() -> None:
    (step,) = extract_quantities("Repeat step 4 after descaling.")
    (times,) = extract_quantities("Repeat it three times.")
    assert (step.raw, step.value, step.reference) == ("4", 4.0, True)
    assert not comparable(step, times)
    assert not comparable(times, step)


def test_a_reference_is_no_name() -> None:
    assert extract_entities("Tighten the hinges first (Passage 2).") == [("Tighten", 0, 7)]
    assert extract_entities("According to Document 3, Acme sells kettles.") == [("Acme", 25, 29)]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("This is mentioned in passage 2.", "Descale every 3 months, as passage 3 explains."),
        ("Repeat step 4 after descaling.", "Repeat steps 2 and 3 THREE times after descaling."),
        ("Repeat step 4 after descaling.", "Repeat the rinse cycle three times after descaling."),
        ("Step 2: rinse the tank twice.", "Step 3: rinse the tank twice."),
        ("Rinse the tank, according to document 2.", "Rinse the tank, according to document 3."),
    ],
)
def test_reference_numbers_are_never_values_in_a_slot(claim: str, evidence: str) -> None:
    found = slot_conflict(passage(claim), passage(evidence), evidence_id="e#0", quote=evidence)
    assert found is None


@pytest.mark.parametrize(
    "sentence",
    [
        "This is mentioned in passage 2.",
        "This is stated in documents 1 and 3.",
        "See passage 2.",
        "(Passage 2)",
        "According to source 3.",
    ],
)
def test_a_sentence_that_only_points_at_a_source_is_meta_text(sentence: str) -> None:
    assert classify_sentence(sentence) is None
    assert extract_claims(sentence) == []


def test_an_instruction_naming_a_step_is_still_a_claim() -> None:
    claims = extract_claims("Repeat step 4 after descaling.")
    assert [(c.text, c.type) for c in claims] == [("Repeat step 4 after descaling.", FACTUAL)]


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        ("Tighten the hinges first (Passage 2).", "Tighten the hinges first."),
        ("Tighten the hinges first [Passage 2].", "Tighten the hinges first."),
        ("Tighten the hinges first, according to document 2.", "Tighten the hinges first."),
        ("According to passage 2, tighten the hinges first.", "tighten the hinges first."),
    ],
)
def test_a_reference_to_a_source_is_dropped_from_the_claim(answer: str, claim: str) -> None:
    assert [c.text for c in extract_claims(answer)] == [claim]


def test_references_in_a_correct_answer_raise_no_contradiction(monitor) -> None:
    evidence = (
        "Descale the machine every three months. To descale, fill the tank with descaler, run "
        "a brew cycle, then rinse. Repeat steps 2 and 3 THREE times."
    )
    answer = (
        "Descale the machine every three months. This is mentioned in passage 2. "
        "Repeat step 4 after descaling. Rinse the tank after descaling (Passage 2)."
    )
    report = monitor.verify_grounding(answer, [evidence])
    assert report.contradictions == []
    assert [v.claim.text for v in report.verdicts] == [
        "Descale the machine every three months.",
        "Repeat step 4 after descaling.",
        "Rinse the tank after descaling.",
    ]


# --- 4. a negation inside a condition is not the main clause's polarity -----------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("If the latch doesn't catch, tighten the hinges.", 0),
        ("Tighten the hinges if the latch doesn't catch.", 0),
        ("Unless the tank is not empty, refill it.", 0),
        ("Check whether the latch does not align.", 0),
        ("When a door latch won't catch, tighten the hinges.", 0),
        ("If the latch catches, the door does not rattle.", 1),
        ("It does not work when the latch is loose.", 1),
        ("When he did not return, police searched the area.", 1),  # a past event, asserted
    ],
)
def test_a_negation_in_a_conditional_clause_is_no_negation_of_the_text(
    text: str, count: int
) -> None:
    assert negation_count(text) == count


@pytest.mark.parametrize(
    "claim",
    [
        "If the latch still doesn't catch, tighten the hinges first.",
        "If the latch catches, tighten the hinges first.",
        "If the door latch still doesn't catch, check whether the latch aligns with the hole in "
        "the strike plate.",
        "Tighten the hinges first if the latch won't catch.",
    ],
)
def test_a_conditional_instruction_does_not_clash_with_a_negation(claim: str) -> None:
    evidence = LATCH.split(". ", maxsplit=1)[0] + "."
    assert not negation_clash(passage(claim), passage(evidence))


def test_a_main_clause_of_the_other_polarity_still_clashes() -> None:
    evidence = LATCH.split(". ", maxsplit=1)[0] + "."
    claim = "The latch aligns with the hole in the strike plate."
    assert negation_clash(passage(claim), passage(evidence))


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "If the service crashes three times, it won't restart until an administrator "
            "restarts it.",
            "If it crashes three times, it stays stopped until an administrator restarts it.",
        ),
        (
            "Do not remove the lid until the pressure drops.",
            "Remove the lid once the pressure drops.",
        ),
        ("The shop opens at 9 am.", "The shop does not open until 9 am."),
    ],
)
def test_not_until_says_when_not_whether(claim: str, evidence: str) -> None:
    assert not negation_clash(passage(claim), passage(evidence))


def test_until_on_both_sides_with_one_negated_still_clashes() -> None:
    claim = "The old bridge was considered safe for lorries until 2010."
    evidence = "The old bridge was not considered safe for lorries until its repair in 2010."
    assert negation_clash(passage(claim), passage(evidence))


def test_a_plain_negation_beside_until_still_clashes() -> None:
    claim = "The service does not restart automatically."
    evidence = "The service restarts automatically, and it runs until it is stopped."
    assert negation_clash(passage(claim), passage(evidence))


def test_a_conditional_instruction_is_not_contradicted_but_a_flipped_fact_is(monitor) -> None:
    claim = "If the latch still doesn't catch, tighten the hinges first."
    assert reasons(monitor, claim, LATCH) == []
    flipped = reasons(monitor, "The latch aligns with the hole in the strike plate.", LATCH)
    assert len(flipped) == 1
    assert flipped[0].startswith("contradicted: the evidence states the opposite")


# --- 5. first-person statements in chat replies -----------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "I visited the museum last year.",
        "I've read all her books.",
        "I saw them live in 2019.",
        "I have two dogs.",
        "I used to live in Lisbon.",
        "I have no dogs.",
        "I can't swim.",
        "I don't eat meat.",
    ],
)
def test_a_statement_about_the_assistant_itself_is_a_factual_claim(sentence: str) -> None:
    assert classify_sentence(sentence) is FACTUAL
    assert [(c.text, c.type) for c in extract_claims(sentence)] == [(sentence, FACTUAL)]


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        ("Hey, I saw them live in 2019!", "I saw them live in 2019!"),
        ("Oh wow, I visited the museum last year!", "I visited the museum last year!"),
        ("Sorry, I have two dogs.", "I have two dogs."),
        ("I'm not sure, but I saw them live in 2019.", "I saw them live in 2019."),
        ("Thanks, I've read all her books.", "I've read all her books."),
    ],
)
def test_a_statement_after_a_greeting_or_an_apology_is_still_a_claim(
    sentence: str, claim: str
) -> None:
    assert [(c.text, c.type) for c in extract_claims(sentence)] == [(claim, FACTUAL)]


@pytest.mark.parametrize(
    "sentence",
    [
        "I love that film.",
        "I'd recommend the second one.",
        "I loved the Goya room.",
        "I don't like jazz.",
        "I'm a big fan of hers.",
    ],
)
def test_a_preference_is_an_opinion(sentence: str) -> None:
    assert classify_sentence(sentence) is OPINION


@pytest.mark.parametrize(
    "sentence",
    [
        "Hi there!",
        "Hello, and welcome!",
        "Thanks!",
        "Thank you so much!",
        "Haha, me too!",
        "Oh wow!",
        "Do you like jazz?",
        "Have you been to Lisbon?",
        "I don't know.",
        "I couldn't find that in the documents.",
        "I'm sorry, I couldn't find anything about that.",
        "I don't have any information about her tours.",
        "I have no information about that.",
        "I'm sorry to hear that.",
    ],
)
def test_greetings_thanks_questions_and_abstentions_are_no_claims(sentence: str) -> None:
    assert classify_sentence(sentence) is None
    assert extract_claims(sentence) == []


def test_a_chat_reply_keeps_its_first_person_facts_and_drops_the_small_talk() -> None:
    reply = (
        "Oh nice, I love that band! I saw them live in 2019 and I have read both of their "
        "biographies. Hope you get to see them too! Have you heard the new album?"
    )
    assert [(c.text, c.type) for c in extract_claims(reply)] == [
        ("I love that band!", OPINION),
        ("I saw them live in 2019.", FACTUAL),
        ("I have read both of their biographies.", FACTUAL),
    ]


PRADO = "The Prado Museum in Madrid houses works by Velázquez and Goya."


@pytest.mark.parametrize(
    ("claim", "evidence", "named"),
    [
        ("I visited the museum last year.", PRADO, 0.0),
        ("I've been to the Prado twice.", PRADO, 0.0),
        ("My sister lives in Madrid.", PRADO, 0.0),
        ("I have two dogs.", "I have two dogs and a cat.", 1.0),
        ("I think the Prado houses works by Goya.", PRADO, 1.0),  # a belief about the Prado
        ("I'm sure the Prado houses works by Goya.", PRADO, 1.0),
    ],
)
def test_the_speaker_is_a_subject_only_first_person_evidence_names(
    monitor, claim: str, evidence: str, named: float
) -> None:
    (verdict,) = monitor.verify_grounding(claim, [evidence]).verdicts
    assert verdict.signals["entities_ok"] == named


# --- with the real model ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_monitor(real_embedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


@pytest.mark.model
@pytest.mark.parametrize("lead", ["Here is what I found:", "The documents confirm this:"])
def test_strict_gate_rejects_a_wrong_figure_after_a_meta_lead_in(real_monitor, lead) -> None:
    gate = QualityGate(monitor=real_monitor, policy=GatePolicy.from_profile("strict"))
    decision = gate.check(f"{lead} {WRONG_REVENUE}", [REVENUE])
    assert not isinstance(decision, FilteredOutput)
    assert "€48.2 million, not €52.7 million" in decision.guidance.to_model_message()


@pytest.mark.model
@pytest.mark.parametrize(("evidence", "answer", "reason"), CONTRADICTIONS)
def test_the_default_gate_rejects_a_contradiction_whatever_the_question(
    real_monitor, evidence: str, answer: str, reason: str
) -> None:
    gate = QualityGate(monitor=real_monitor)
    for question in [None, *QUESTIONS]:
        report = real_monitor.verify_grounding(answer, [evidence], question=question)
        assert [v.reason for v in report.contradictions] == [reason], question
        assert report.verdicts[0].grade is Grade.FABRICATED
        decision = gate.check(answer, [evidence], question=question)
        assert not isinstance(decision, FilteredOutput), question


@pytest.mark.model
def test_a_correct_answer_citing_passages_and_steps_is_grounded(real_monitor) -> None:
    evidence = (
        "Descale the machine every three months. To descale, fill the tank with descaler, run "
        "a brew cycle, then rinse the tank. Repeat steps 2 and 3 three times."
    )
    answer = "Descale the machine every three months. This is mentioned in passage 2."
    report = real_monitor.verify_grounding(answer, [evidence])
    assert report.contradictions == []
    assert [(v.claim.text, v.grade) for v in report.verdicts] == [
        ("Descale the machine every three months.", Grade.GROUNDED)
    ]


@pytest.mark.model
def test_a_conditional_instruction_from_the_evidence_is_grounded(real_monitor) -> None:
    claim = "If the latch still doesn't catch, tighten the hinges first."
    report = real_monitor.verify_grounding(claim, [LATCH])
    assert report.contradictions == []
    assert report.verdicts[0].grade is not Grade.FABRICATED


@pytest.mark.model
def test_a_chat_reply_with_unsupported_experiences_is_not_grounded(real_monitor) -> None:
    knowledge = PRADO
    reply = (
        "Hey, I visited the museum in 2019. I love the Goya room! "
        "The Prado houses works by Velázquez and Goya. Have you been?"
    )
    report = real_monitor.verify_grounding(reply, [knowledge])
    graded = [(v.claim.text, v.claim.type, v.grade, v.counted) for v in report.verdicts]
    assert graded == [
        ("I visited the museum in 2019.", FACTUAL, Grade.FABRICATED, True),
        ("I love the Goya room!", OPINION, graded[1][2], False),
        ("The Prado houses works by Velázquez and Goya.", FACTUAL, Grade.GROUNDED, True),
    ]
    assert report.score < 0.75  # the grounded fact alone does not carry the reply


@pytest.mark.model
@pytest.mark.parametrize(
    "claim", ["I visited the museum last year.", "I used to live in Madrid.", "I have two dogs."]
)
def test_an_experience_of_the_speaker_is_never_grounded_by_third_person_evidence(
    real_monitor, claim: str
) -> None:
    knowledge = PRADO
    (verdict,) = real_monitor.verify_grounding(claim, [knowledge]).verdicts
    assert verdict.counted
    assert verdict.grade is not Grade.GROUNDED
    assert verdict.signals["entities_ok"] == 0.0


@pytest.mark.model
def test_a_persona_in_the_first_person_grounds_the_speakers_statement(real_monitor) -> None:
    persona = "I have two dogs. I used to live in Lisbon before moving to Madrid."
    (verdict,) = real_monitor.verify_grounding("I have two dogs.", [persona]).verdicts
    assert verdict.grade is Grade.GROUNDED
    assert verdict.signals["entities_ok"] == 1.0


@pytest.mark.model
def test_a_wrong_date_beside_a_liking_is_counted_and_not_grounded(real_monitor) -> None:
    knowledge = (
        "The Simpsons is an American animated sitcom created by Matt Groening. "
        "It first aired as a half-hour series on 17 December 1989."
    )
    reply = "i love it, it's been on since 1995 and somehow it's still funny"
    (verdict,) = real_monitor.verify_grounding(reply, [knowledge]).verdicts
    assert (verdict.claim.type, verdict.counted) == (FACTUAL, True)
    assert verdict.grade is Grade.FABRICATED


@pytest.mark.model
def test_a_chat_reply_that_denies_its_passage_is_never_grounded(real_monitor) -> None:
    # The bundled verifier reads the denial as entailed (P about 0.9); the claim's polarity
    # differs from its passage: INFERRED below the GROUNDED threshold, not contradicted.
    knowledge = (
        "Python 3.0, released in 2008, was a major revision that was not completely "
        "backward-compatible with earlier versions."
    )
    reply = "yeah, python 3 was fully backward compatible so old code just runs"
    (verdict,) = real_monitor.verify_grounding(reply, [knowledge]).verdicts
    assert verdict.signals["negation_consistent"] == 0.0
    assert verdict.grade is Grade.INFERRED
    assert verdict.support < real_monitor.grounded_threshold
    assert verdict.contradiction is None
