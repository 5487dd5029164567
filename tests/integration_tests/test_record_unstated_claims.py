"""Claims about a record that no field states, graded with the real models (issue 24).

Sentences written by hand for this test. A claim that names no record when the evidence
holds one record is about that record (issue 24, item 2): "It has a large garden." against a
pub's record was graded as prose before (INFERRED, about 0.64) and is unsupported now. A
claim about a record that no field states, bands or lacks is the verifier's to read
(``VerifierThresholds.fields_ground``); what the matcher rules out (a neighbouring band, a
thing the place comes "with") stays unsupported, and none of these is ever contradicted.
"""

from __future__ import annotations

import json

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade

pytestmark = pytest.mark.model

MILL = {
    "name": "The Mill",
    "eatType": "pub",
    "food": "Italian",
    "priceRange": "cheap",
    "area": "riverside",
    "familyFriendly": False,
}
KETTLE = {
    "name": "The Copper Kettle",
    "eatType": "coffee shop",
    "food": "English",
    "customerRating": "5 out of 5",
    "area": "city centre",
    "familyFriendly": True,
}
LOTUS = {
    "name": "Golden Lotus",
    "eatType": "restaurant",
    "food": "Chinese",
    "priceRange": "more than £30",
    "customerRating": "high",
    "familyFriendly": False,
}

ADDED = [
    (MILL, "It has a large garden."),
    (MILL, "It offers takeaway."),
    (MILL, "It serves vegan dishes."),
    (MILL, "It has live music on Fridays."),
    (KETTLE, "It has free WiFi."),
    (KETTLE, "It opens at 7 am."),
    (KETTLE, "The Copper Kettle is famous for its scones."),
    (MILL, "The Mill is a pub with a lovely garden."),
    (MILL, "The Mill is a cheap pub with a garden and a view of the river."),
]
FAITHFUL = [
    (MILL, "The Mill is a cheap Italian pub by the river. Kids are not welcome there."),
    (MILL, "The Mill is a cheap Italian pub by the river. It is no place for children."),
    (KETTLE, "The Copper Kettle is a coffee shop in the city centre. Children are very welcome."),
    (KETTLE, "The Copper Kettle is a top-rated English coffee shop in the city centre."),
    # "with" before a field's words is no addition ("with prices averaging", "with a lower
    # price range"); "it" after a plural stands for the place, not for the prices
    (LOTUS, "Golden Lotus is highly rated, with prices averaging more than £30."),
    (MILL, "The Mill is an Italian pub with a lower price range."),
    (LOTUS, "The prices are high at Golden Lotus but it is not suitable for children."),
]


@pytest.fixture(scope="module")
def monitor(real_embedder) -> HallucinationMonitor:
    return HallucinationMonitor(embedder=real_embedder)


@pytest.mark.parametrize(("record", "sentence"), ADDED)
def test_a_fact_the_record_does_not_give_is_unsupported(monitor, record, sentence) -> None:
    report = monitor.verify_grounding(sentence, json.dumps(record))
    (v,) = [v for v in report.verdicts if v.counted]
    assert v.grade is Grade.FABRICATED, (v.grade, v.reason)
    assert v.contradiction is None


@pytest.mark.parametrize(("record", "answer"), FAITHFUL)
def test_a_faithful_description_is_grounded(monitor, record, answer) -> None:
    report = monitor.verify_grounding(answer, json.dumps(record))
    assert report.contradictions == []
    assert all(v.grade is Grade.GROUNDED for v in report.verdicts if v.counted), [
        (v.claim.text, v.grade, v.reason) for v in report.verdicts
    ]


def test_a_welcome_is_no_claim(monitor) -> None:
    report = monitor.verify_grounding(
        "Welcome to The Mill. It is a cheap Italian pub by the river.", json.dumps(MILL)
    )
    assert [v.claim.text for v in report.verdicts] == ["It is a cheap Italian pub by the river."]
    assert report.verdicts[0].grade is Grade.GROUNDED
