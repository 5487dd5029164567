"""Word relations from WordNet 3.0 (grounding/checks/_word_relations.py): the words a local change
swaps are read as the same, broader, narrower or opposite; names and unknown words as none."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks._word_relations import relation


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("called off", "cancelled", "same"),
        ("postponed", "put off", "same"),
        ("declined", "turned down", "same"),
        ("purchased", "bought", "same"),
        ("herbs", "basil", "broader"),
        ("Europe", "France", "broader"),
        ("a vehicle", "the car", "broader"),
        ("the violin", "a string instrument", "narrower"),
        ("open", "closed", "opposite"),
        ("fell", "rose", "opposite"),
        ("narrower", "wider", "opposite"),
        ("maximum", "minimum", "opposite"),
        ("rejected", "accepted", "opposite"),
        ("allowed", "forbidden", "opposite"),
        ("lowest", "highest", "opposite"),
        ("negative", "positive", "opposite"),
        ("underfunded", "overfunded", "opposite"),
        ("inbound", "outbound", "opposite"),
        ("clockwise", "anticlockwise", "opposite"),
        ("unable", "able", "opposite"),
        ("invaluable", "valuable", "same"),  # not a negating prefix: WordNet says so first
        ("inform", "form", None),
        ("after", "before", "opposite"),
        ("over", "under", "opposite"),
        ("Portugal", "Italy", None),
        ("Linux", "Apache Software", None),  # a name is read whole, not as "software"
        ("MySQL", "PostgreSQL", None),
        ("qwzx", "closed", None),
        ("", "closed", None),
        ("a the", "an", None),
        ("one two three four five six", "closed", None),
    ],
)
def test_relation(claim: str, evidence: str, expected: str | None) -> None:
    assert relation(claim, evidence) == expected
