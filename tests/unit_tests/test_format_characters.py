"""Issue 48 item 9: an invisible format character inside a figure hides nothing.

"20\\u202e19" (a right-to-left override) or "20\\u200b19" (a zero-width space) shows as 2019;
answer and evidence are read without Unicode format characters (category Cf), while a claim's
span and an evidence chunk's offsets still point into the text as given.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest

from langchain_qgate._text import FORMAT_CHARACTERS, strip_format, without_format
from langchain_qgate.grounding.claims.claims import extract_claims
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.evidence.structured import recognise
from langchain_qgate.schemas import Grade
from tests.unit_tests._qgate_fakes import make_monitor

INVISIBLE = {
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "left-to-right mark": "\u200e",
    "right-to-left override": "\u202e",
    "left-to-right isolate": "\u2066",
    "pop directional isolate": "\u2069",
    "word joiner": "\u2060",
    "soft hyphen": "\u00ad",
    "byte order mark": "\ufeff",
}


def test_every_format_character_of_this_python_is_removed_and_nothing_else() -> None:
    cf = {chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    assert cf == FORMAT_CHARACTERS, "a new Unicode version: extend _text._FORMAT_BLOCKS"
    assert strip_format("".join(sorted(cf))) == ""
    kept = "Ärger 2019 – 12,5 % → 東京 \u00a0 \u2028 café"
    assert strip_format(kept) == kept


def test_plain_text_is_returned_as_it_is() -> None:
    text = "Acme was founded in 2017."
    assert strip_format(text) is text
    plain = without_format(text)
    assert plain.text is text
    assert plain.cuts == ()


def test_offsets_map_back_to_the_text_as_given() -> None:
    text = "\ufeffAcme\u200b\u200b was founded in 20\u202e19.\u200d Next."
    plain = without_format(text)
    assert plain.text == "Acme was founded in 2019. Next."
    for i, ch in enumerate(plain.text):
        assert text[plain.start(i)] == ch
    year = plain.text.index("2019")
    assert text[plain.start(year) : plain.end(year + 4)] == "20\u202e19"
    sentence = plain.text.index(".") + 1
    assert (
        text[plain.start(0) : plain.end(sentence)] == "Acme\u200b\u200b was founded in 20\u202e19."
    )


@pytest.mark.parametrize("name", sorted(INVISIBLE))
def test_claims_read_the_figure_and_keep_their_span_in_the_answer(name: str) -> None:
    mark = INVISIBLE[name]
    answer = f"Acme was founded in 20{mark}19. It has 5{mark}00 staff."
    claims = extract_claims(answer)
    assert [c.text for c in claims] == ["Acme was founded in 2019.", "It has 500 staff."]
    assert [answer[c.start : c.end] for c in claims] == [
        f"Acme was founded in 20{mark}19.",
        f"It has 5{mark}00 staff.",
    ]


def test_split_clauses_keep_their_own_spans_in_the_answer() -> None:
    plain = "Acme was founded in 2019 and has 500 staff. It is in Berlin."
    hidden = "\u200eAcme was founded in 20\u200b19 and has 5\u202e00 staff.\ufeff It is in Berlin."
    want, got = extract_claims(plain), extract_claims(hidden)
    assert [(c.text, c.type) for c in got] == [(c.text, c.type) for c in want]
    assert len(got) == 3
    for g, w in zip(got, want, strict=True):
        assert strip_format(hidden[g.start : g.end]) == plain[w.start : w.end]
        assert hidden[g.start] == plain[w.start]
        assert hidden[g.end - 1] == plain[w.end - 1]


def test_a_format_character_between_sentences_still_splits_them() -> None:
    answer = "Acme was founded in 2019.\u200b It has 500 staff."
    claims = extract_claims(answer)
    assert [c.text for c in claims] == ["Acme was founded in 2019.", "It has 500 staff."]
    assert [answer[c.start : c.end] for c in claims] == [
        "Acme was founded in 2019.",
        "It has 500 staff.",
    ]


def test_a_short_answer_joined_to_its_question_is_read_without_them() -> None:
    claims = extract_claims("20\u200b19", question="When was Acme\u200b founded?")
    assert [c.text for c in claims] == ["When was Acme founded? 2019"]
    assert (claims[0].start, claims[0].end) == (0, 5)


def test_evidence_chunks_read_the_figure_and_point_into_the_source() -> None:
    source = "Acme was founded in 20\u200b17. It has 5\u202e00 staff."
    index = EvidenceIndex([source], embedder=HashingEmbedder())
    assert [c.text for c in index.chunks] == ["Acme was founded in 2017.", "It has 500 staff."]
    assert index.views == ["Acme was founded in 2017.", "Acme has 500 staff."]
    assert [source[c.start : c.end] for c in index.chunks] == [
        "Acme was founded in 20\u200b17.",
        "It has 5\u202e00 staff.",
    ]


def test_structured_values_keys_and_cells_are_read_without_them() -> None:
    record = recognise({"company": "Acme", "found\u200bed": "20\u202e17"})
    table = recognise("| company | founded |\n|---|---|\n| Acme | 20\u200b17 |")
    as_json = recognise('\ufeff{"company": "Acme", "founded": "20\\u200b17"}')
    assert record is not None
    assert table is not None
    assert as_json is not None
    assert [(f.path, f.value) for f in record.fields] == [("company", "Acme"), ("founded", "2017")]
    assert table.fields[-1].value == "2017"
    assert [(f.path, f.value) for f in as_json.fields] == [("company", "Acme"), ("founded", "2017")]


@pytest.mark.parametrize("name", sorted(INVISIBLE))
def test_a_hidden_character_in_a_year_is_contradicted_like_the_plain_year(name: str) -> None:
    monitor = make_monitor()
    evidence = ["Acme was founded in 2017."]
    plain = monitor.verify_grounding("Acme was founded in 2019.", evidence).verdicts[0]
    hidden = monitor.verify_grounding(f"Acme was founded in 20{INVISIBLE[name]}19.", evidence)
    verdict = hidden.verdicts[0]
    assert plain.grade is Grade.FABRICATED
    assert plain.contradiction is not None
    assert verdict.grade is plain.grade
    assert verdict.reason == plain.reason
    assert verdict.contradiction == plain.contradiction


@pytest.mark.parametrize("evidence", [
    ["Acme was founded in 20\u200b17."],
    [{"company": "Acme", "founded": "20\u202e17"}],
    ["| company | founded |\n|---|---|\n| Acme | 20\u00ad17 |"],
])  # fmt: skip
def test_a_hidden_character_in_the_evidence_year_still_contradicts(evidence: list[object]) -> None:
    verdict = make_monitor().verify_grounding("Acme was founded in 2019.", evidence).verdicts[0]
    assert verdict.grade is Grade.FABRICATED
    assert verdict.contradiction is not None
    assert (verdict.contradiction.claim_value, verdict.contradiction.evidence_value) == (
        "2019",
        "2017",
    )
