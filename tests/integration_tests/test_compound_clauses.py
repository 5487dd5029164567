"""Claims about one clause of a compound sentence, graded with the real models.

``tests/data/compound_clauses.jsonl`` (96 pairs) was written by hand for this test by a
helper that read no code and no data file of the project, after the coordinated-clause rules
were written (BENCHMARKS.md, "Polarity in coordinated clauses"). Every evidence sentence has
two or more clauses ("The pool is heated in winter and closed in August", "Members borrow
free, while guests pay £2 per book"); 12 claims per family:

- faithful: ``faithful_one_clause``, ``faithful_negated_clause``, ``faithful_other_subject``
  ("Members do not pay to borrow books"), ``faithful_whole``;
- wrong: ``wrong_opposite_in_clause`` (the other clause's verb or an antonym),
  ``wrong_value_moved`` (a value of one clause in the other's fact), ``wrong_negation``,
  ``wrong_other_subject`` (one subject's fact given to the other).

Measured on the shipped models when the set was added (before the rules -> after): faithful
contradicted 2 -> 1; wrong named 21 -> 24 of 48 (negations 7 -> 9, opposites 8 -> 9), values
moved between clauses 0. Naming a moved value (a clause's figure or name that is another
clause's) was written after reading this set's misses, so for that family the set is not held
out: 0 -> 4 of 12. Facts given to the other subject are still mostly GROUNDED. The one
faithful claim still contradicted is a strict xfail; the floors on the share supported and on
each wrong family named are measured figures, checked by ``benchmarks/check_figures.py``
(``compound_clauses``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from tests.integration_tests._expect import graded_pairs

pytestmark = pytest.mark.model

DATA = Path(__file__).resolve().parents[1] / "data" / "compound_clauses.jsonl"
# a contradiction through another subject's clause: "Students get a 30% discount on tickets,
# while pensioners pay the full price" against "Pensioners do not get a discount on tickets"
STILL_CONTRADICTED = {"cx-025"}


@pytest.fixture(scope="module")
def outcomes(real_embedder) -> dict[str, tuple[str, str]]:
    monitor = HallucinationMonitor(embedder=real_embedder)
    return {p["id"]: (p["family"], o) for p, o in graded_pairs(monitor, DATA)}


def _family(outcomes, family: str) -> list[str]:
    return [o for f, o in outcomes.values() if f == family]


def test_the_set_is_whole(outcomes) -> None:
    families = {f for f, _ in outcomes.values()}
    assert len(outcomes) == 96
    assert len(families) == 8
    assert all(len(_family(outcomes, f)) == 12 for f in families)


def test_faithful_claims_are_not_contradicted(outcomes) -> None:
    contradicted = {
        k for k, (f, o) in outcomes.items() if f.startswith("faithful") and o == "contradicted"
    }
    assert contradicted <= STILL_CONTRADICTED


@pytest.mark.xfail(strict=True, reason="another subject's clause read as the claim's (cx-025)")
def test_no_faithful_claim_is_contradicted(outcomes) -> None:
    assert not any(f.startswith("faithful") and o == "contradicted" for f, o in outcomes.values())
