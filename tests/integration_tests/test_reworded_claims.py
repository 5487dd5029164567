"""Issue 23: claims reworded the way a person summarises a source, graded with the real models.

``tests/data/reworded_claims.jsonl`` (160 pairs) was written by hand for this test by a helper
that read no code and no data file of the project, after the rules and the shipped verifier
were frozen. Unlike the minimal pairs and the restatement sets (near copies of one evidence
sentence), every claim here is worded otherwise than its evidence:

- ``faithful_paraphrase`` (40): fully supported, heavily reworded (first person turned into
  third, clauses merged or dropped, figures written otherwise);
- ``faithful_partial`` (40): one of several facts of the evidence, reworded;
- ``unsupported_related`` (40): the evidence's subject and much of its wording, plus one detail
  it never states ("for the third year running");
- ``contradicted`` (40): reworded, and false by the evidence (another year or place, the
  opposite outcome, a role given to another person).

First run, on the shipped verifier (BENCHMARKS.md, "Reworded claims"): no faithful claim
contradicted, 76 of 79 graded GROUNDED or INFERRED, 37 of 40 unsupported claims below GROUNDED;
but only 23 of 40 reworded wrong claims below GROUNDED and 3 named: the rules see a changed
value only where the claim copies the sentence around it, and the verifier reads rewording
and contradiction alike. Those shares are measured figures, checked (with the issue's 95%
target, still open) by ``benchmarks/check_figures.py`` (``reworded_claims``); here: the set's
shape, and no faithful claim contradicted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from tests.integration_tests._expect import by_family

pytestmark = pytest.mark.model

DATA = Path(__file__).resolve().parents[1] / "data" / "reworded_claims.jsonl"
FAMILIES = ("faithful_paraphrase", "faithful_partial", "unsupported_related", "contradicted")


@pytest.fixture(scope="module")
def outcomes(real_embedder) -> dict[str, list[str]]:
    monitor = HallucinationMonitor(embedder=real_embedder)
    return by_family(monitor, DATA)


def test_the_set_has_its_four_families(outcomes) -> None:
    assert {f: len(outcomes[f]) for f in FAMILIES} == dict.fromkeys(FAMILIES, 40)


def test_a_reworded_faithful_claim_is_never_contradicted(outcomes) -> None:
    faithful = outcomes["faithful_paraphrase"] + outcomes["faithful_partial"]
    assert faithful.count("contradicted") == 0
