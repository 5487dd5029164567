"""A denial of a whole statement ("it is false that ...") governs the rest of its sentence
and no further: a stop after a figure and a semicolon end it too (until session 62 the scope
read another pattern, meant for runs of names, and ran on into the next sentence)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks.checks import negated_spans


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        (
            "It is false that the bridge opened in 2020. The mayor attended.",
            " the bridge opened in 2020",
        ),
        ("It is false that the bridge closed; only one lane is affected.", " the bridge closed"),
        (
            "It is false that the fare rose to 3.50 euros. Buses run hourly.",
            " the fare rose to 3.50 euros",
        ),
    ],
)
def test_a_denial_ends_with_its_sentence(text: str, denied: str) -> None:
    assert [text[a:b] for a, b in negated_spans(text)] == [denied]
