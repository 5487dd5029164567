"""Claims that use another form of the evidence's word, graded with the real models.

``tests/data/word_forms.jsonl`` (48 pairs) was written by hand for this test by a helper that
read no code and no data file of the project, after the stemmer fix of BENCHMARKS.md section
13 ("Forms of one word") was committed. The claim restates or denies its evidence with another
inflection of the key word ("The ticket does not include parking." / "Parking is not included
in the ticket."); 12 claims per family:

- ``faithful_other_form``: a faithful restatement;
- ``faithful_negated_other_form``: a faithful restatement of a negation;
- ``wrong_negation_other_form``: the evidence's polarity flipped;
- ``wrong_negation_in_compound``: the negated clause of a compound sentence asserted ("The
  gallery displays paintings but does not display sculptures." / "The gallery displayed
  sculptures.").

Measured on the shipped models (BENCHMARKS.md section 13): before the stemmer fix, the flipped
polarities were named 9 of 12 and the compound negations 7 of 12; after it, at first reading
(held out), 12 and 7. Two refinements were written after reading the compound misses ("offer"
and "shipping" had no stem in common with "offers" and "ships"), so for that family the set is
not held out. A sentence-initial plural read as a name ("Goats are raised at Hilltop Farm")
still passes. The floor on the compound negations named is a measured figure, checked by
``benchmarks/check_figures.py`` (``word_forms``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from tests.integration_tests._expect import by_family

pytestmark = pytest.mark.model

DATA = Path(__file__).resolve().parents[1] / "data" / "word_forms.jsonl"
FAMILIES = (
    "faithful_other_form",
    "faithful_negated_other_form",
    "wrong_negation_other_form",
    "wrong_negation_in_compound",
)


@pytest.fixture(scope="module")
def outcomes(real_embedder) -> dict[str, list[str]]:
    monitor = HallucinationMonitor(embedder=real_embedder)
    return by_family(monitor, DATA)


def test_the_set_has_its_four_families(outcomes) -> None:
    assert {f: len(v) for f, v in outcomes.items()} == dict.fromkeys(FAMILIES, 12)


def test_a_faithful_claim_in_another_form_is_never_contradicted(outcomes) -> None:
    faithful = outcomes["faithful_other_form"] + outcomes["faithful_negated_other_form"]
    assert "contradicted" not in faithful


def test_a_faithful_claim_in_another_form_is_supported(outcomes) -> None:
    faithful = outcomes["faithful_other_form"] + outcomes["faithful_negated_other_form"]
    assert all(o in ("grounded", "inferred") for o in faithful), faithful


def test_a_flipped_polarity_in_another_form_is_named(outcomes) -> None:
    assert outcomes["wrong_negation_other_form"].count("contradicted") == 12
