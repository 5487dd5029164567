"""The verifier's training-data script (``scripts/verifier_data.py``): the reworded
contradictions and the WiCE labels it takes from the fit halves."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import verifier_data as vd  # noqa: E402

WINDOW = (
    "Jamal Carter, 41, has been head chef at The Linden since 2018, after eight years in Paris."
)


def _pools() -> vd.Pools:
    passages = [["Maria Lopez opened the bakery in Seville in 2009 with her brother Tomas."]]
    return vd.Pools(passages, random.Random(1))


@pytest.mark.parametrize("seed", range(6))
def test_a_reworded_claim_a_person_wrote_gets_one_value_changed(seed: int) -> None:
    claim = "The Linden's head chef, Jamal Carter, took charge of its kitchen in 2018."
    pairs = [(claim, WINDOW, vd.ENTAILED, "human_wice_supported")]
    out = vd.reworded(pairs, random.Random(seed), _pools())
    assert len(out) == 1
    changed, window, label, family = out[0]
    assert window == WINDOW
    assert label == vd.CONTRADICTED
    assert family.startswith("reworded_")
    assert changed != claim
    # One change: most of the claim's words are still there.
    kept = set(claim.split()) & set(changed.split())
    assert len(kept) >= len(set(claim.split())) - 3


def test_only_entailed_human_claims_that_are_not_questions_are_reworded() -> None:
    claim = "Jamal Carter has run the kitchen of The Linden since 2018."
    pairs = [
        (claim, WINDOW, vd.CONTRADICTED, "human_wice_supported"),  # not entailed
        (claim, WINDOW, vd.ENTAILED, "copy"),  # generated: a near copy already
        (claim, WINDOW, vd.ENTAILED, "human_e2e_description"),  # records: another path
        ("Who runs The Linden? Jamal Carter", WINDOW, vd.ENTAILED, "human_halueval_qa"),
    ]
    assert vd.reworded(pairs, random.Random(0), _pools()) == []


def test_the_same_seed_gives_the_same_pairs() -> None:
    claim = "Jamal Carter, head chef of The Linden since 2018, spent eight years in Paris."
    pairs = [(claim, WINDOW, vd.ENTAILED, "human_factcheck_gpt_stance")] * 5
    first = vd.reworded(pairs, random.Random(7), _pools())
    assert first == vd.reworded(pairs, random.Random(7), _pools())
    assert len(first) == 5
