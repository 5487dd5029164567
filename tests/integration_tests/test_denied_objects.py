"""Denied objects, irregular forms and misspelt names, graded with the real models.

``tests/data/denied_objects.jsonl`` (72 pairs) was written by hand for this test by a helper
that read no code and no data file of the project, after the changes of BENCHMARKS.md section
14 were committed (b8c2a0c). 12 claims per family:

- ``wrong_denied_object``: the evidence allows one thing and denies another in one clause
  ("The gym offers yoga classes but not pilates."), the claim asserts the denied one;
- ``faithful_denied_object``: the claim restates the allowed thing or the denial;
- ``wrong_irregular``: the claim flips the evidence's polarity with another form of an
  irregular word ("did not sell" / "sold");
- ``faithful_irregular``: a faithful restatement in another form of an irregular word;
- ``misspelt_name``: a faithful claim with one name misspelt by a letter or two;
- ``wrong_other_name``: another person, place or organisation in the same role.

At first reading (held out), against the package before section 14 (7d3caf4) and after it
(b8c2a0c): denied objects named 5 -> 10, flipped irregular forms named 0 -> 12, other names
named 10 -> 10; faithful denied objects contradicted 1 -> 2, misspelt names contradicted
3 -> 3. The misspelt names and the two faithful denials were fixed after reading them (the
local-change reading compares spellings too; a denied object is cut off only when it has a
verb to borrow, and a plural noun is no verb of its own), so for those two families the set
is not held out. The floors on the denied objects and the other names named are measured
figures, checked by ``benchmarks/check_figures.py`` (``denied_objects``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from tests.integration_tests._expect import by_family

pytestmark = pytest.mark.model

DATA = Path(__file__).resolve().parents[1] / "data" / "denied_objects.jsonl"
FAMILIES = (
    "wrong_denied_object",
    "faithful_denied_object",
    "wrong_irregular",
    "faithful_irregular",
    "misspelt_name",
    "wrong_other_name",
)


@pytest.fixture(scope="module")
def outcomes(real_embedder) -> dict[str, list[str]]:
    monitor = HallucinationMonitor(embedder=real_embedder)
    return by_family(monitor, DATA)


def test_the_set_has_its_six_families(outcomes) -> None:
    assert {f: len(v) for f, v in outcomes.items()} == dict.fromkeys(FAMILIES, 12)


def test_a_faithful_claim_is_never_contradicted(outcomes) -> None:
    for family in ("faithful_denied_object", "faithful_irregular", "misspelt_name"):
        assert "contradicted" not in outcomes[family], (family, outcomes[family])


def test_a_faithful_claim_is_supported(outcomes) -> None:
    faithful = outcomes["faithful_denied_object"] + outcomes["faithful_irregular"]
    assert all(o in ("grounded", "inferred") for o in faithful), faithful


def test_a_flipped_polarity_in_an_irregular_form_is_named(outcomes) -> None:
    assert outcomes["wrong_irregular"].count("contradicted") == 12, outcomes["wrong_irregular"]
