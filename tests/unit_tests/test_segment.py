"""Sentence segmentation: spans, abbreviations, numbers, markdown, code, long inputs."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.claims.segment import Span, segment_text, split_sentences


def sentences(text: str, *, skip_code: bool = False) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text, skip_code=skip_code)]


def test_spans_are_exact_trimmed_and_ordered() -> None:
    text = "  Acme was founded in 2020.   It has 500 employees.\n"
    spans = split_sentences(text)
    assert spans == [Span(2, 27), Span(30, 51)]
    assert [text[s:e] for s, e in spans] == ["Acme was founded in 2020.", "It has 500 employees."]
    assert spans[0].start == 2


def test_empty_and_whitespace_give_no_spans() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\t\n") == []


@pytest.mark.parametrize(
    "text",
    [
        "Dr. Smith joined the U.S. Army in 1990.",
        "Mr. and Mrs. Jones met Prof. Lee at St. Mary's hospital.",
        "Fruits, e.g. apples, and nuts, i.e. almonds, etc. are sold here.",
        "Acme Inc. is based in the U.K. and sells tea.",
        "Apple vs. Microsoft is a classic rivalry from Jan. 1984 onward.",
        "J. K. Rowling wrote the books.",
        "The meeting ended at 5 p.m. with a vote.",
        "He lives at No. 10 Downing St. in London.",
        "Sam Smith Jr. and Co. Ltd. were partners.",
    ],
)
def test_abbreviations_do_not_end_a_sentence(text: str) -> None:
    assert sentences(text) == [text]


def test_maybe_final_abbreviation_ends_sentence_before_an_opener() -> None:
    text = "He moved to the U.S. The company followed. Acme Inc. It grew fast."
    assert sentences(text) == [
        "He moved to the U.S.",
        "The company followed.",
        "Acme Inc.",
        "It grew fast.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Revenue grew 3.5% to $1.2 billion.",
        "Version v2.1.0 fixed 1.5x slower starts and cost $1.2B.",
        "See https://example.com/a.b?x=1.2 or mail info@acme.co.uk for details.",
        "Pi is about 3.14159 and e is about 2.718.",
    ],
)
def test_decimals_versions_urls_and_emails_stay_in_one_sentence(text: str) -> None:
    assert sentences(text) == [text]


def test_url_at_end_of_sentence_still_splits() -> None:
    text = "Read more at https://example.com/page. Then come back."
    assert sentences(text) == ["Read more at https://example.com/page.", "Then come back."]


def test_ellipsis_question_and_exclamation() -> None:
    text = "Sales fell... Then they rose! Why? Nobody knows... and nobody cares."
    assert sentences(text) == [
        "Sales fell...",
        "Then they rose!",
        "Why?",
        "Nobody knows... and nobody cares.",
    ]


def test_closing_quotes_and_brackets_belong_to_the_sentence() -> None:
    text = 'He said "it works." Then he left (for good.) Later "Yes!" came back.'
    assert sentences(text) == [
        'He said "it works."',
        "Then he left (for good.)",
        'Later "Yes!" came back.',
    ]


def test_quoted_speech_inside_a_sentence_is_kept_whole() -> None:
    text = 'The CEO said "We won. It was great." Then he left.'
    assert sentences(text) == ['The CEO said "We won. It was great."', "Then he left."]


def test_lowercase_after_exclamation_is_not_a_boundary() -> None:
    assert sentences("Yahoo! is a web portal.") == ["Yahoo! is a web portal."]


def test_glued_full_stop_between_paragraphs_splits() -> None:
    text = "It was published in the 19th century.First for Women is a magazine."
    assert sentences(text) == [
        "It was published in the 19th century.",
        "First for Women is a magazine.",
    ]


def test_tokenized_fever_style_full_stops() -> None:
    text = "It is of recent origin , associated with dancehall music . It is loud ."
    assert sentences(text) == [
        "It is of recent origin , associated with dancehall music .",
        "It is loud .",
    ]


def test_markdown_bullets_numbers_and_headings_start_new_segments() -> None:
    text = (
        "# Overview\nKey facts:\n- Founded in 2020\n* Based in Berlin. Has 500 staff.\n"
        "1. First item\n2) Second item\n+ [x] Done item"
    )
    assert sentences(text) == [
        "Overview",
        "Key facts:",
        "Founded in 2020",
        "Based in Berlin.",
        "Has 500 staff.",
        "First item",
        "Second item",
        "Done item",
    ]
    kinds = [(s.kind, s.item) for s in segment_text(text)]
    assert kinds[0] == ("heading", False)
    assert kinds[2] == ("sentence", True)
    assert kinds[3] == ("sentence", True)
    assert kinds[4] == ("sentence", False)


def test_blank_lines_separate_paragraphs_without_punctuation() -> None:
    assert sentences("First part\n\nSecond part") == ["First part", "Second part"]


def test_single_newline_one_sentence_per_line_evidence() -> None:
    text = "Media Play News\nMedia Play News is the voice of the industry.\nHe joined in 1991."
    assert sentences(text) == [
        "Media Play News",
        "Media Play News is the voice of the industry.",
        "He joined in 1991.",
    ]


def test_hard_wrapped_prose_is_rejoined() -> None:
    text = "For more than 12 years he was the\npublisher of the magazine, and\nHome Media was"
    text += " its\nname."
    assert sentences(text) == [text]


def test_blockquotes_and_tables_are_marked_and_rules_dropped() -> None:
    text = "> Tool said: ok. Done.\n\n| a | b |\n|---|---|\n\n---\nPlain text."
    segs = segment_text(text)
    assert [(text[s.start : s.end], s.kind) for s in segs] == [
        ("Tool said: ok.", "quote"),
        ("Done.", "quote"),
        ("| a | b |", "table"),
        ("Plain text.", "sentence"),
    ]


CODE_TEXT = (
    "Intro text.\n\n```python\nx = 1. Y = 2\nprint(x)\n```\n\nAfter fence.\n\n"
    "    indented = code. More code\n\n~~~\nTilde code.\n~~~\nEnd."
)


def test_skip_code_drops_fenced_and_indented_blocks() -> None:
    assert sentences(CODE_TEXT, skip_code=True) == ["Intro text.", "After fence.", "End."]


def test_code_is_kept_as_one_span_per_fenced_block_by_default() -> None:
    segs = segment_text(CODE_TEXT)
    code = [CODE_TEXT[s.start : s.end] for s in segs if s.kind == "code"]
    assert code == ["x = 1. Y = 2\nprint(x)", "Tilde code."]
    assert "indented = code." in sentences(CODE_TEXT)


def test_unclosed_fence_skips_to_end() -> None:
    assert sentences("Before.\n```\ncode. More.\n", skip_code=True) == ["Before."]


def test_indented_nested_list_items_are_not_code() -> None:
    text = "- Parent item\n\n    - Child item is here."
    assert sentences(text, skip_code=True) == ["Parent item", "Child item is here."]


def test_cjk_full_stops_split_without_spaces() -> None:
    text = "东京是日本的首都。它很大！你去过吗？是的"
    assert sentences(text) == ["东京是日本的首都。", "它很大！", "你去过吗？", "是的"]


def test_german_abbreviation_with_space_does_not_crash() -> None:
    text = "Die Firma wurde 2020 gegründet. Sie hat 500 Mitarbeiter."
    assert sentences(text) == ["Die Firma wurde 2020 gegründet.", "Sie hat 500 Mitarbeiter."]


def test_spans_cover_all_prose_characters() -> None:
    text = "A b. C d!\n- e f\n# g\nh i? j"
    covered = set()
    for s, e in split_sentences(text):
        covered.update(range(s, e))
    assert {i for i, ch in enumerate(text) if ch.isalnum()} <= covered


def test_one_megabyte_input_is_segmented() -> None:
    unit = "Dr. Smith paid $1.5M in 2020. Is it true? Yes!\n"
    text = unit * (1_000_000 // len(unit) + 1)
    spans = split_sentences(text)
    assert len(text) >= 1_000_000
    assert len(spans) == 3 * (1_000_000 // len(unit) + 1)
    assert text[spans[-1].start : spans[-1].end] == "Yes!"


def test_one_megabyte_without_whitespace_or_boundaries() -> None:
    text = "a.b" * 350_000
    assert split_sentences(text) == [(0, len(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The Zephyr Book 14 weighs 1.3 kg. Owners also get free replacement laptops.",
            ["The Zephyr Book 14 weighs 1.3 kg.", "Owners also get free replacement laptops."],
        ),
        (
            "The battery lasts 10 hrs. Buyers love it.",
            ["The battery lasts 10 hrs.", "Buyers love it."],
        ),
        ("Add 2 kg. of flour.", ["Add 2 kg. of flour."]),
        ("The limit is 10 kg. per bag.", ["The limit is 10 kg. per bag."]),
        ("It is 5 km. 3 km more to go.", ["It is 5 km. 3 km more to go."]),
    ],
)
def test_unit_after_a_figure_ends_a_sentence_before_a_capital(text, expected) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i used to! it's so relaxing", ["i used to!", "it's so relaxing"]),
        ("right?! absolutely unreal", ["right?!", "absolutely unreal"]),
        ("very. more than 300 people died on it", ["very.", "more than 300 people died on it"]),
        ("Yahoo! is a company.", ["Yahoo! is a company."]),  # after a name
        ("He lists dogs, cats, etc. and more.", ["He lists dogs, cats, etc. and more."]),
        ("It costs approx. 5 dollars.", ["It costs approx. 5 dollars."]),
        ("Smith et al. found it.", ["Smith et al. found it."]),
        ("tough one... probably lisa", ["tough one... probably lisa"]),  # an ellipsis
        ("The tower is tall. the rest is prose.", ["The tower is tall. the rest is prose."]),
    ],
)
def test_terminal_before_a_lowercase_word_ends_a_chat_sentence(text, expected) -> None:
    assert [text[a:b] for a, b in split_sentences(text)] == expected
