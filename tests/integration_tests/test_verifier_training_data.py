"""The verifier's training pairs, built from the real benchdata (``scripts/verifier_data.py``),
as shipped and with the reworded-claims experiment (``--reworded``): no report half reaches
them, and each human-labelled or reworded family has the label it should."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import verifier_data as vd  # noqa: E402

pytestmark = pytest.mark.model


@pytest.fixture(scope="module", params=[False, True], ids=["shipped", "reworded"])
def built(request, benchdata_dir: Path) -> tuple[list[vd.Pair], dict]:
    return vd.build(benchdata_dir, 13, 1.6, 1500, reworded_pairs=request.param)


def test_no_report_sentence_reaches_the_training_pairs(built, benchdata_dir: Path) -> None:
    pairs, _ = built
    report: set[str] = set()
    for name in vd.FILES:
        for r in vd.load(benchdata_dir, name):
            if r["split"] == "report":
                report.update(vd.sentences(r["context"]))
    used = {s for _, window, _, _ in pairs for s in vd.sentences(window)}
    long_enough = {s for s in report if len(s.split()) >= 8}  # short ones recur by chance
    assert not used & long_enough


def test_each_human_family_has_its_label(built) -> None:
    pairs, manifest = built
    labels: dict[str, set[int]] = {}
    for _, _, label, family in pairs:
        labels.setdefault(family, set()).add(label)
    assert labels["human_wice_supported"] == {vd.ENTAILED}
    counts = Counter(family for *_, family in pairs)
    reworded = [f for f in labels if f.startswith("reworded_")]
    if not manifest["reworded_pairs"]:
        assert "human_wice_unsupported" not in labels
        assert reworded == []
        return
    assert labels["human_wice_unsupported"] == {vd.NEUTRAL}
    assert counts["human_wice_unsupported"] > 100
    assert len(reworded) >= 4
    assert all(labels[f] == {vd.CONTRADICTED} for f in reworded)
    assert sum(counts[f] for f in reworded) > 200
