"""Claim extraction: non-claims, typing, compound splitting, question pairs, spans."""

from __future__ import annotations

import pytest

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.grounding.claims.claims import (
    classify_sentence,
    extract_claims,
    split_compound,
    strip_preamble,
)
from langchain_qgate.schemas import Claim, ClaimType

FACTUAL, REASONING, OPINION = ClaimType.FACTUAL, ClaimType.REASONING, ClaimType.OPINION


def texts(text: str, **kwargs: str) -> list[str]:
    return [c.text for c in extract_claims(text, **kwargs)]


def assert_spans_exact(text: str, claims: list[Claim]) -> None:
    for i, c in enumerate(claims):
        assert c.index == i
        span = text[c.start : c.end]
        assert span == span.strip()
        assert span


# --- segmentation-driven cases ------------------------------------------------------------


def test_abbreviations_keep_one_claim() -> None:
    text = "Dr. Smith joined the U.S. Army in 1990. He retired in 2010."
    claims = extract_claims(text)
    assert [c.text for c in claims] == [
        "Dr. Smith joined the U.S. Army in 1990.",
        "He retired in 2010.",
    ]
    assert text[claims[1].start : claims[1].end] == "He retired in 2010."


def test_decimals_and_money_keep_one_claim() -> None:
    assert texts("Revenue grew 3.5% to $1.2 billion.") == ["Revenue grew 3.5% to $1.2 billion."]


def test_urls_do_not_split_claims() -> None:
    text = "The report at https://example.com/q3.pdf shows 12.5% growth."
    assert texts(text) == [text]


def test_bullets_are_claims_and_the_intro_line_is_not() -> None:
    text = "Key facts:\n- Acme was founded in 2020.\n- It has 500 employees.\n* Based in Berlin"
    claims = extract_claims(text)
    assert [c.text for c in claims] == [
        "Acme was founded in 2020.",
        "It has 500 employees.",
        "Based in Berlin",
    ]
    assert [text[c.start : c.end] for c in claims] == [c.text for c in claims]


def test_numbered_list_items_are_claims() -> None:
    text = "The plan has three steps:\n1. Acme hires 20 engineers.\n2) Acme opens an office."
    assert texts(text) == ["Acme hires 20 engineers.", "Acme opens an office."]


def test_headings_are_skipped() -> None:
    text = "# Company overview\n## History\nAcme was founded in 2020.\n\n**Summary**\nIt grew."
    assert texts(text) == ["Acme was founded in 2020.", "It grew."]


def test_title_line_without_verb_is_skipped() -> None:
    assert texts("Media Play News\nMedia Play News covers home entertainment.") == [
        "Media Play News covers home entertainment."
    ]


def test_code_blocks_are_skipped() -> None:
    text = (
        "Run this:\n\n```python\nx = 1. This is code.\nprint(x)\n```\n\n"
        "The script prints 1.\n\n    indented = code. Not a claim.\n\nIt runs on Python 3.12."
    )
    assert texts(text) == ["The script prints 1.", "It runs on Python 3.12."]


def test_blockquoted_tool_output_is_skipped() -> None:
    text = "The tool returned:\n> Revenue: $5M. Status: ok.\nRevenue was $5M in 2023."
    assert texts(text) == ["Revenue was $5M in 2023."]


def test_table_rows_are_skipped() -> None:
    assert texts("| Year | Revenue |\n|---|---|\n| 2020 | $5M |\nAcme grew fast.") == [
        "Acme grew fast."
    ]


def test_quoted_speech_inside_a_sentence_is_kept() -> None:
    text = 'The CEO said "We will grow by 20%. It is certain." in 2020.'
    assert texts(text) == [text]


# --- non-claims -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "Is Paris in France?",
        "What did Acme do in 2020?",
        "Hi!",
        "Hello there,",
        "Welcome to The Mill.",
        "Welcome back!",
        "Sure!",
        "Great question.",
        "Hope this helps!",
        "I hope this helps.",
        "Let me know if you need anything else.",
        "Feel free to ask more questions.",
        "Here is a summary:",
        "Here's what I found:",
        "The key dates are:",
        "Sources: [1] https://en.wikipedia.org/wiki/Acme",
        "[1] https://acme.com/about",
        "I don't know.",
        "The documents do not mention the founding date.",
        "As an AI, I have no opinions.",
    ],
)
def test_non_claims_classify_as_none(sentence: str) -> None:
    assert classify_sentence(sentence) is None
    assert extract_claims(sentence) == []


def test_a_welcome_with_a_fact_is_a_claim() -> None:
    assert [c.text for c in extract_claims("Welcome to Paris, the capital of France.")] == [
        "Welcome to Paris, the capital of France."
    ]
    assert [c.text for c in extract_claims("The museum welcomes children.")] == [
        "The museum welcomes children."
    ]


def test_greetings_and_meta_around_claims_are_dropped() -> None:
    text = (
        "Hi! Great question. Here's what I found:\n\nAcme was founded in 2020.\n\n"
        "Hope this helps! Let me know if you have other questions."
    )
    claims = extract_claims(text)
    assert [c.text for c in claims] == ["Acme was founded in 2020."]
    assert claims[0].start == text.index("Acme")


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Based on the documents, Acme was founded in 2020.", "Acme was founded in 2020."),
        ("Based on the provided context, Acme has 500 staff.", "Acme has 500 staff."),
        ("From the documents, Acme is based in Berlin.", "Acme is based in Berlin."),
        ("According to the search results, Acme is profitable.", "Acme is profitable."),
        ("Sure, Acme was founded in 2020.", "Acme was founded in 2020."),
        ("In summary, Acme was founded in 2020.", "Acme was founded in 2020."),
    ],
)
def test_meta_preamble_is_stripped_from_claim_and_span(text: str, claim: str) -> None:
    claims = extract_claims(text)
    assert [c.text for c in claims] == [claim]
    assert text[claims[0].start : claims[0].end] == claim


def test_attribution_to_a_named_source_is_kept() -> None:
    text = "According to the 2023 annual report, Acme earned $5M."
    assert texts(text) == [text]
    assert strip_preamble(text) == 0


# --- typing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "Therefore, revenue will double next year.",
        "Acme has 500 staff, so it is a large employer.",
        "This means the merger was approved.",
        "Thus the claim is false.",
        "Hence Acme pays no dividend.",
        "As a result, costs fell by 10%.",
        "Sales rose, which means demand was strong.",
        "It follows that Acme is solvent.",
    ],
)
def test_reasoning_sentences(sentence: str) -> None:
    assert classify_sentence(sentence) is REASONING


@pytest.mark.parametrize(
    "sentence",
    [
        "I recommend using Python for this task.",
        "You should upgrade to version 2.",
        "In my opinion, the design is clumsy.",
        "Python is a great language for beginners.",
        "Django is the best web framework.",
        "I think this approach is better.",
        "It seems fine.",
        "Arguably, the film works.",
        "Consider using a cache.",
    ],
)
def test_opinion_sentences(sentence: str) -> None:
    assert classify_sentence(sentence) is OPINION


@pytest.mark.parametrize(
    "sentence",
    [
        "Paris is the capital of France.",
        "It was probably founded in 2020.",
        "I think Paris is the capital of France.",
        "The film received excellent reviews from 40 critics.",
        "Howard Hawks was an eminent screenwriter.",
        "It is the best-selling car in Norway.",
        "Thanks to its size, Acme dominates the market.",
        "The following year, Acme grew.",
        "So-called dark matter makes up 27% of the universe.",
    ],
)
def test_factual_sentences(sentence: str) -> None:
    assert classify_sentence(sentence) is FACTUAL


@pytest.mark.parametrize(
    "sentence",
    [
        "i guess that was back in 1916",  # a hedge does not make a stated fact safe
        "I read he broke his wrist",
        "i think it actually started in china as a way of preserving fish",
        "apparently she named it after poland, her home country",
        "i'm pretty sure he was born in brooklyn",
        "I know one player that was so good at football and then broke his wrist",
        "Owners also get free replacement robots for life.",
        "The company is so large that it has its own airport.",
    ],
)
def test_hedged_or_first_person_sentence_stating_a_fact_is_a_claim(sentence: str) -> None:
    assert classify_sentence(sentence) is FACTUAL


@pytest.mark.parametrize(
    "sentence",
    [
        "i think i'd be terrified",  # about the speaker
        "i'm so excited about it",
        "can't get enough of it",  # the speaker left out
        "it gives me chills every time",
        "i guess so",  # nothing said
        "so excited!",  # a verbless reaction
        "they really are, such majestic animals",
        "haha the classic photo, i'd totally do it too",
        "she's so clever and funny",  # a judgement, contracted copula
        "the film has a great storyline and the music is beautiful",
    ],
)
def test_reaction_or_sentence_about_the_speaker_is_no_claim_to_check(sentence: str) -> None:
    assert classify_sentence(sentence) is not FACTUAL


@pytest.mark.parametrize(
    "sentence",
    [
        "i love it, it's been on since 1995 and somehow it's still funny",
        "I'd recommend it, it has 5 stars on 2,000 reviews.",
        "we loved it; the tour lasted 3 hours",
    ],
)
def test_a_liking_beside_a_clause_with_a_figure_states_a_fact(sentence: str) -> None:
    assert classify_sentence(sentence) is FACTUAL


@pytest.mark.parametrize(
    "sentence",
    ["I love the 2019 model.", "I love this place, the staff are lovely.", "I'd recommend it."],
)
def test_a_liking_with_no_figure_beside_it_stays_an_opinion(sentence: str) -> None:
    assert classify_sentence(sentence) is OPINION


@pytest.mark.parametrize(
    "sentence",
    ["I can try!", "sure, I can try!", "We'll look into it.", "i can check", "I sure can."],
)
def test_an_offer_of_the_speaker_is_no_claim_to_check(sentence: str) -> None:
    assert classify_sentence(sentence) is not FACTUAL


@pytest.mark.parametrize(
    "sentence",
    ["I can swim.", "I can confirm the flight leaves at 9.", "I definitely have two dogs."],
)
def test_what_the_speaker_can_do_or_confirms_is_still_a_claim(sentence: str) -> None:
    assert classify_sentence(sentence) is FACTUAL


def test_conditional_inversion_in_prose_is_not_a_dropped_speaker() -> None:
    assert classify_sentence("Should the board approve it, shares rise by 5%.") is FACTUAL


def test_statement_before_the_answer_is_not_glued_to_it_as_a_question() -> None:
    # In a chat the previous turn may be a statement; only a question is glued to a fragment.
    claims = extract_claims("such majestic animals!", question="penguins are adorable")
    assert [(c.text, c.type) for c in claims] == [("such majestic animals!", OPINION)]
    assert texts("21 million max", question="how many bitcoins can exist?") == [
        "how many bitcoins can exist? 21 million max"
    ]
    assert texts("Lima", question="Name the capital of Peru") == ["Name the capital of Peru Lima"]


def test_opinion_answering_a_question_is_not_glued_to_it() -> None:
    question = "croissants or pain au chocolat?"
    claims = extract_claims("i'd say croissants, so good", question=question)
    assert all(question not in c.text and c.type is OPINION for c in claims)


def test_claims_carry_their_types() -> None:
    text = "Acme was founded in 2020. Therefore, it is young. I recommend buying its stock."
    assert [c.type for c in extract_claims(text)] == [FACTUAL, REASONING, OPINION]


# --- compound sentences -----------------------------------------------------------------------


def test_compound_with_shared_subject_splits_and_carries_subject() -> None:
    text = "Acme was founded in 2020 and has 500 employees."
    claims = extract_claims(text)
    assert [c.text for c in claims] == ["Acme was founded in 2020.", "Acme has 500 employees."]
    assert [text[c.start : c.end] for c in claims] == [
        "Acme was founded in 2020",
        "has 500 employees.",
    ]
    assert [c.index for c in claims] == [0, 1]


def test_compound_with_comma_and_pronoun_splits() -> None:
    text = "Acme was founded in 2020, and it has 500 employees."
    claims = extract_claims(text)
    assert [c.text for c in claims] == ["Acme was founded in 2020.", "Acme has 500 employees."]
    assert text[claims[1].start : claims[1].end] == "it has 500 employees."


def test_serial_verb_phrases_split_into_three() -> None:
    text = "The company was founded in 2020, has 500 employees, and sells software."
    assert texts(text) == [
        "The company was founded in 2020.",
        "The company has 500 employees.",
        "The company sells software.",
    ]


def test_semicolon_and_but_clauses_split() -> None:
    text = "Acme was profitable in 2020, but it lost money in 2021; Beta sells pears."
    claims = extract_claims(text)
    assert [c.text for c in claims] == [
        "Acme was profitable in 2020.",
        "Acme lost money in 2021.",
        "Beta sells pears.",
    ]
    assert text[claims[2].start : claims[2].end] == "Beta sells pears."


def test_clause_with_its_own_subject_keeps_it() -> None:
    assert texts("Acme sells apples, and Beta sells pears.") == [
        "Acme sells apples.",
        "Beta sells pears.",
    ]


def test_passive_coordination_carries_the_auxiliary() -> None:
    assert texts("The report was prepared by the ministry and published in May 2019.") == [
        "The report was prepared by the ministry.",
        "The report was published in May 2019.",
    ]


def test_leading_adverbial_is_not_carried_with_the_subject() -> None:
    assert texts("In 2018, Acme acquired Beta and moved to Berlin.") == [
        "In 2018, Acme acquired Beta.",
        "Acme moved to Berlin.",
    ]


def test_split_parts_are_typed_separately() -> None:
    claims = extract_claims("Acme was founded in 2020, and I recommend its products.")
    assert [(c.text, c.type) for c in claims] == [
        ("Acme was founded in 2020.", FACTUAL),
        ("I recommend its products.", OPINION),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "He bought salt and pepper.",
        "Johnson and Johnson is a company.",
        "Sales grew between 2019 and 2021.",
        "Acme invests in research and development.",
        "Tom and Jerry were friends.",
        "She is both a singer and an actress.",
        "They sell books, pens, and so on.",
        "The company designs and manufactures chips.",
        "Acme, a startup founded in 2020, and Beta merged.",
        "The dish contains rice and fried onions.",
        "Shakespeare wrote poems and plays.",
        "Vedam was written and directed by Radhakrishna Jagarlamudi .",
        "Revenue rose from $1M to $2M and margins improved slightly.",
    ],
)
def test_sentences_that_must_not_split(sentence: str) -> None:
    if sentence.startswith("Revenue"):
        # Two clauses with their own subjects but no comma: kept whole (conservative).
        assert len(extract_claims(sentence)) == 1
    else:
        assert texts(sentence) == [sentence]


def test_embedded_participle_blocks_a_wrong_subject() -> None:
    text = (
        "The government was responsible for children being diagnosed as incompetent "
        "and sent to hospitals."
    )
    assert texts(text) == [text]


def test_pronoun_is_not_replaced_by_a_non_person_subject() -> None:
    text = "The Flames retired his number in 2019; he played for them from 1996 to 2013."
    assert texts(text) == [
        "The Flames retired his number in 2019.",
        "he played for them from 1996 to 2013.",
    ]


# --- question + short answer ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Where is the Red Fort?", "Delhi"),
        (
            "Which magazine was started first Arthur's Magazine or First for Women?",
            "Arthur's Magazine",
        ),
        ("When was Arthur's Magazine founded?", "1844"),
        ("Are both bands from the UK?", "yes"),
        ("Who played Will in the film?", "Will Traynor"),
        ("When was he born?", "May 30, 1943"),
        ("What is the band called?", "Hey Monday"),
        ("Who was Ida Lee?", "is a British author"),
    ],
)
def test_short_answer_is_verified_with_the_question(question: str, answer: str) -> None:
    text = f"  {answer}\n"
    claims = extract_claims(text, question=question)
    assert len(claims) == 1
    assert claims[0].text == f"{question} {answer}"
    assert claims[0].type is FACTUAL
    assert text[claims[0].start : claims[0].end] == answer


def test_full_sentence_answer_ignores_the_question() -> None:
    question = "Which magazine was started first Arthur's Magazine or First for Women?"
    assert texts("First for Women was started first.", question=question) == [
        "First for Women was started first."
    ]


def test_multi_sentence_answer_ignores_the_question() -> None:
    assert texts("Delhi. It is in India.", question="Where is the Red Fort?") == [
        "Delhi.",
        "It is in India.",
    ]


def test_pleasantry_answer_with_question_has_no_claims() -> None:
    assert extract_claims("Hope this helps!", question="Where is the Red Fort?") == []


# --- inputs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["a list"], {"text": "x"}])
def test_non_string_input_raises_invalid_input(bad: object) -> None:
    with pytest.raises(InvalidInputError, match="invalid text"):
        extract_claims(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        extract_claims(bad)  # type: ignore[arg-type]


def test_non_string_question_raises_invalid_input() -> None:
    with pytest.raises(InvalidInputError, match="invalid question"):
        extract_claims("Delhi", question=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_empty_text_has_no_claims(text: str) -> None:
    assert extract_claims(text) == []


def test_non_english_text_does_not_crash() -> None:
    text = "Die Firma wurde 2020 gegründet. 东京是日本的首都。它很大！日本の首都は東京です。"
    claims = extract_claims(text)
    assert [c.text for c in claims] == [
        "Die Firma wurde 2020 gegründet.",
        "东京是日本的首都。",
        "它很大！",
        "日本の首都は東京です。",
    ]
    assert_spans_exact(text, claims)


def test_spans_are_exact_on_a_mixed_answer() -> None:
    text = (
        "Sure! Based on the documents, Acme Inc. was founded in 2020 and has 500 staff.\n\n"
        "- Revenue grew 3.5% to $1.2B.\n- It is based in Berlin, and it sells tea.\n\n"
        "Therefore, Acme is growing. I think it is great. Hope this helps!"
    )
    claims = extract_claims(text)
    assert [c.text for c in claims] == [
        "Acme Inc. was founded in 2020.",
        "Acme Inc. has 500 staff.",
        "Revenue grew 3.5% to $1.2B.",
        "It is based in Berlin.",
        "it sells tea.",
        "Therefore, Acme is growing.",
        "I think it is great.",
    ]
    assert [c.type for c in claims][-2:] == [REASONING, OPINION]
    assert_spans_exact(text, claims)
    assert text[claims[1].start : claims[1].end] == "has 500 staff."


def test_one_megabyte_answer() -> None:
    unit = "Acme was founded in 2020 and has 500 employees. Is it big? Hope this helps!\n"
    n = 1_000_000 // len(unit) + 1
    text = unit * n
    claims = extract_claims(text)
    assert len(text) >= 1_000_000
    assert len(claims) == 2 * n
    assert claims[-1].index == 2 * n - 1
    assert text[claims[-1].start : claims[-1].end] == "has 500 employees."


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        ("Revenue was 5 million [annual_report_2024#1].", "Revenue was 5 million."),
        ("Revenue was 5 million [1].", "Revenue was 5 million."),
        ("Revenue was 5 million [verified: GROUNDED].", "Revenue was 5 million."),
        # not ids: an editor's insertion and a formula stay as written
        ("I didn't know what to do for [Aaron].", "I didn't know what to do for [Aaron]."),
        ("H[AuCl4] is a gold compound.", "H[AuCl4] is a gold compound."),
    ],
)
def test_citation_markers_are_dropped_and_bracketed_words_kept(answer: str, claim: str) -> None:
    assert [c.text for c in extract_claims(answer)] == [claim]


def test_copied_sentence_generator_keeps_adjacent_figures_apart() -> None:
    from langchain_qgate.evaluation import copied_sentence_variants

    variants = copied_sentence_variants("Sales were 1,506 884 units and 56,000 cars.", "")
    assert variants["numbers"] == "Sales were 1,506 884 units and 56 000 cars."
    assert "subject" not in copied_sentence_variants("I mean it.", "")


def test_there_is_with_a_judgement_still_states_what_is_there() -> None:
    sentence = "There's a really nice Standard Accord available at Fresno Station next Thursday."
    assert classify_sentence(sentence) is FACTUAL
    assert classify_sentence("The Standard Accord is really nice.") is OPINION


def test_a_hedged_day_or_month_is_a_fact_to_check_in_lowercase_chat() -> None:
    assert classify_sentence("apparently it's open on sundays.") is FACTUAL
    assert classify_sentence("It seems fine.") is OPINION


def test_a_row_of_acknowledgements_is_no_claim() -> None:
    assert classify_sentence("Okay sure.") is None
    assert classify_sentence("Yes, okay!") is None
    assert classify_sentence("Okay, the bus leaves at 6.") is ClaimType.FACTUAL


def test_waiting_a_search_done_and_a_fetch_promised_are_no_claims() -> None:
    for sentence in ("One moment please.", "Just a second...", "Please hold on.",
                     "I'll fetch the nearest pharmacies for you.",
                     "I've found a flat that matches your search."):  # fmt: skip
        assert classify_sentence(sentence) is None, sentence
    # a count of what was found, or a second of time, is still a fact to check
    assert classify_sentence("I found 4 flats that match your search.") is FACTUAL
    assert classify_sentence("One second later the valve opened.") is FACTUAL


def test_a_liking_foretold_for_the_listener_is_an_opinion() -> None:
    assert classify_sentence("You might like them.") is OPINION
    assert classify_sentence("You'll love it!") is OPINION
    # "this" that opens a noun phrase states what follows
    sentence = "You might like this Compact Yaris at Leeds Station for Friday."
    assert classify_sentence(sentence) is FACTUAL
    assert classify_sentence("You would like them to arrive at 5 pm.") is FACTUAL


def test_am_after_an_hour_is_no_verb_so_the_subject_ends_before_it() -> None:
    parts = split_compound("The ferry sails at 9 am has 2 stops and it costs $14.")
    assert len(parts) == 2
    # "it" stands for words that keep the hour's "am": "9" alone would be no clock
    assert "at 9 am costs $14" in parts[1].text


def test_a_thanks_or_an_acknowledgement_before_a_comma_leaves_the_fact_after_it() -> None:
    [claim] = extract_claims("No problem, your savings account holds $1,204.50 today.")
    assert claim.text == "your savings account holds $1,204.50 today."
    for sentence in ("No problem!", "Got it.", "Perfect!"):
        assert extract_claims(sentence) == [], sentence


def test_a_line_with_a_contracted_is_is_a_sentence_not_a_heading() -> None:
    assert [c.text for c in extract_claims("There's Quay Tavern in Whitby")] == [
        "There's Quay Tavern in Whitby"
    ]
    # a short label without a verb still heads the lines under it
    claims = extract_claims("Key facts\nThe tower is 300 m tall.")
    assert [c.text for c in claims] == ["The tower is 300 m tall."]
