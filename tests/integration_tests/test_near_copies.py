"""Issue 23: restatements of one evidence sentence, graded with the real bundled models.

Three sets of (evidence, claim) pairs, each written by hand for this test by a helper that read
no data file of the project; each claim restates one evidence sentence, most with one word or
short phrase changed:

- ``near_copies.jsonl`` (205): written first; the local-change rule
  (``grounding/_substitution.py``) was designed with it beside it (it is why another word for
  a word is never the model's to name). A development check.
- ``near_copies_heldout.jsonl`` (150): written after that design; the prefixed opposites
  ("underfunded" / "overfunded") and two things trading places were added after reading its
  misses.
- ``restatements_final.jsonl`` (170): written after the rule was frozen and measured once;
  the honest figure.
- ``frequencies_and_moves.jsonl`` (115): written by a helper that read no code, after
  frequencies and values moved within a sentence were added; measured once (frequency changes
  named 26/30, values moved 13/30, 3 of 55 correct restatements contradicted), then three
  misreadings its correct rows showed were fixed ("twice daily", "every quarter of an hour",
  two changes of which one is a moved word) and a negation in a clause the claim leaves out
  no longer stops a frequency being read.

Floors are what the commit reaches less a margin (BENCHMARKS.md, "Local changes named", has
the figures against the code before the rule). Faithful restatements: at most the
contradictions the value and entity rules drew before the rule ("Tokyo, not Japan", "24, not
two"), none among the synonyms.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor

pytestmark = pytest.mark.model

DATA = Path(__file__).resolve().parents[1] / "data"

# file -> (faithful families, most faithful pairs contradicted, {wrong families: floor})
SETS: dict[str, tuple[tuple[str, ...], int, dict[tuple[str, ...], float]]] = {
    "near_copies.jsonl": (
        ("synonym", "name_variant", "negation_paraphrase", "figure_same_value", "hypernym"),
        3,
        {("antonym",): 0.85, ("other_name", "other_figure"): 0.85, ("polarity_flip",): 0.85},
    ),
    "near_copies_heldout.jsonl": (
        ("phrasal_or_idiom", "domain_synonym", "reworded_clause"),
        0,
        {("antonym_or_reversal",): 0.5, ("role_or_entity_swap",): 0.65, ("negation",): 0.8},
    ),
    "restatements_final.jsonl": (
        ("close_paraphrase", "free_paraphrase", "compression"),
        1,
        {("opposite",): 0.5, ("swap",): 0.55, ("negation",): 0.85},
    ),
    "frequencies_and_moves.jsonl": (
        ("frequency_same", "value_in_own_clause"),
        1,
        {("frequency_changed",): 0.85, ("value_moved",): 0.4},
    ),
}


@pytest.fixture(scope="module")
def outcomes(real_embedder) -> dict[str, dict[str, list[tuple[str, bool]]]]:
    """file -> family -> [(id, contradicted)]."""
    monitor = HallucinationMonitor(embedder=real_embedder)
    out: dict[str, dict[str, list[tuple[str, bool]]]] = {}
    for name in SETS:
        by_family: dict[str, list[tuple[str, bool]]] = defaultdict(list)
        with (DATA / name).open(encoding="utf-8") as fh:
            for line in fh:
                pair: dict[str, Any] = json.loads(line)
                report = monitor.verify_grounding(pair["claim"], [pair["evidence"]])
                by_family[pair["family"]].append((pair["id"], bool(report.contradictions)))
        out[name] = by_family
    return out


@pytest.mark.parametrize("name", list(SETS))
def test_faithful_restatements_are_not_contradicted(outcomes, name: str) -> None:
    families, most, _ = SETS[name]
    hits = [i for f in families for i, contradicted in outcomes[name][f] if contradicted]
    assert all(outcomes[name][f] for f in families)
    assert len(hits) <= most, hits


def test_a_synonym_is_never_contradicted(outcomes) -> None:
    rows = (
        outcomes["near_copies.jsonl"]["synonym"]
        + outcomes["near_copies_heldout.jsonl"]["phrasal_or_idiom"]
    )
    assert len(rows) == 70
    assert [i for i, contradicted in rows if contradicted] == []


@pytest.mark.parametrize(
    ("name", "families"), [(name, fams) for name, (_, _, floors) in SETS.items() for fams in floors]
)
def test_changed_restatements_are_contradicted(outcomes, name: str, families) -> None:
    rows = [row for f in families for row in outcomes[name][f]]
    named = sum(contradicted for _, contradicted in rows)
    missed = [i for i, contradicted in rows if not contradicted]
    assert rows
    assert named / len(rows) >= SETS[name][2][families], missed
