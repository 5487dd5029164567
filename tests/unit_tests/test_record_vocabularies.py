"""Closed vocabularies of record fields are data: bundled domains a policy picks, and a
user's own file of the same shape (``langchain_qgate/data/record_vocabularies.json``).

Hand-written records and sentences. The field matcher decides these claims, so a hashing
embedder and no pair model give the decisions the shipped models give.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_qgate.config import DEFAULT_RECORD_VOCABULARIES, GroundingPolicy
from langchain_qgate.errors import QGateError
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records._record_words import record_vocabulary
from langchain_qgate.schemas import Grade

PARCEL = {"tracking_id": "JD0148823GB", "service_level": "express", "weight_kg": 1.8}
TRATTORIA = {"name": "Luigi's", "food": "Italian", "area": "city centre"}
SERVICE_LEVELS = {
    "vocabularies": [
        {
            "name": "service level",
            "domain": "shipping",
            "keys": ["servicelevel", "service", "tier"],
            "classes": [["standard", "economy", "ground"], ["express", "next day", "overnight"]],
            "single": True,
        }
    ]
}


def _monitor(*vocabularies: str) -> HallucinationMonitor:
    policy = GroundingPolicy(pair_model=None, record_vocabularies=vocabularies)
    return HallucinationMonitor(embedder=HashingEmbedder(), policy=policy)


def _one(monitor: HallucinationMonitor, reply: str, record: dict):
    verdicts = monitor.verify_grounding(reply, json.dumps(record)).verdicts
    assert len(verdicts) == 1, [v.claim.text for v in verdicts]
    return verdicts[0]


@pytest.fixture
def shipping(tmp_path: Path) -> str:
    path = tmp_path / "shipping.json"
    path.write_text(json.dumps(SERVICE_LEVELS), encoding="utf-8")
    return str(path)


def test_a_users_vocabulary_file_names_a_changed_value_of_its_field(shipping: str) -> None:
    without = _one(_monitor("orders"), "Parcel JD0148823GB goes by economy.", PARCEL)
    assert without.contradiction is None, without.reason
    v = _one(_monitor("orders", shipping), "Parcel JD0148823GB goes by economy.", PARCEL)
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is not None
    assert v.contradiction.field == "record.service_level"
    assert v.contradiction.claim_value == "economy"


def test_a_term_of_the_fields_own_class_is_accounted_for(shipping: str) -> None:
    reply = "Parcel JD0148823GB goes overnight."
    assert "overnight" in _one(_monitor("orders"), reply, PARCEL).reason
    v = _one(_monitor("orders", shipping), reply, PARCEL)
    assert v.contradiction is None
    assert "overnight" not in v.reason, v.reason


def test_a_bundled_domain_left_out_reads_none_of_its_terms() -> None:
    reply = "Luigi's is a pizza place in the city centre."
    assert _one(_monitor(*DEFAULT_RECORD_VOCABULARIES), reply, TRATTORIA).grade is Grade.GROUNDED
    v = _one(_monitor("orders", "prices", "ratings"), reply, TRATTORIA)
    assert v.grade is not Grade.GROUNDED
    assert "pizza" in v.reason, v.reason


def test_the_default_domains_are_the_bundled_files_in_file_order() -> None:
    names = [v.name for v in record_vocabulary().vocabularies]
    assert names == [
        "order status", "carrier", "cuisine", "venue type", "area", "price band", "rating",
        "travel status", "review status", "collection status", "run status", "test result",
        "reference flag",
        "account status", "booking status", "payment status", "availability", "open status",
    ]  # fmt: skip
    assert [v.name for v in record_vocabulary(("ratings", "orders")).vocabularies] == [
        "order status", "carrier", "rating"
    ]  # fmt: skip
    assert record_vocabulary(("orders",)).key_synonyms == {}
    assert "kids" in record_vocabulary(("listings",)).key_synonyms["family"]


def test_an_unknown_domain_is_a_clear_error() -> None:
    with pytest.raises(QGateError, match="unknown record vocabulary domain"):
        _monitor("restaurant")  # the domain is "restaurants"


def test_a_file_not_shaped_like_a_vocabulary_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"vocabularies": [{"name": "x"}]}', encoding="utf-8")
    with pytest.raises(QGateError, match="malformed record vocabulary"):
        _monitor(str(bad))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(QGateError, match="cannot read the record vocabulary"):
        _monitor(str(broken))
    with pytest.raises(QGateError, match="cannot read"):
        _monitor(str(tmp_path / "missing.json"))


def test_record_vocabularies_must_be_names_or_paths() -> None:
    with pytest.raises(ValueError, match="record_vocabularies"):
        GroundingPolicy(record_vocabularies="restaurants")  # type: ignore[arg-type]
    for wrong in (5, None, ("orders", 3), {"orders": True}):
        with pytest.raises(ValueError, match="record_vocabularies"):
            GroundingPolicy(record_vocabularies=wrong)  # type: ignore[arg-type]
    assert GroundingPolicy(record_vocabularies=["orders"]).record_vocabularies == ("orders",)  # type: ignore[arg-type]


# States an API reports in a status field: read only where a field holds one of them.
_STATES = [
    # (record, reply, the field named or None for no contradiction)
    ({"tracking_id": "1Z9", "status": "in_transit"}, "Your parcel has been delivered.", "status"),
    ({"tracking_id": "1Z9", "status": "IN_TRANSIT"}, "The parcel is in transit.", None),
    ({"flight": "LX318", "flight_status": "DELAYED"}, "LX318 has been cancelled.", "flight_status"),
    ({"flight": "LX318", "flight_status": "DELAYED"}, "LX318 is on time.", "flight_status"),
    ({"flight": "LX318", "flight_status": "DELAYED"}, "LX318 is running late.", None),
    ({"flight": "LX318", "status": "ON_TIME"}, "LX318 isn't delayed.", None),
    ({"flight": "LX318", "status": "ON_TIME"}, "LX318 is delayed.", "status"),
    ({"permit": "P-40", "status": "under_review"}, "Permit P-40 was approved.", "status"),
    ({"permit": "P-40", "status": "under_review"}, "Permit P-40 should be approved soon.", None),
    ({"permit": "P-40", "status": "ACCEPTED"}, "Permit P-40 was denied.", "status"),
    ({"permit": "P-40", "status": "pending"}, "Permit P-40 was approved.", "status"),
    ({"order": "A-7", "status": "pending"}, "Order A-7 has shipped.", "status"),
    ({"job": "nightly-etl", "state": "failed"}, "The nightly-etl job succeeded.", "state"),
    ({"job": "nightly-etl", "conclusion": "success"}, "The nightly-etl job passed.", None),
    ({"sample": "S-1", "result": "not detected"}, "Sample S-1 came back negative.", None),
    ({"sample": "S-1", "result": "not detected"}, "Sample S-1 came back positive.", "result"),
    ({"analyte": "TSH", "flag": "H"}, "Your TSH is within the normal range.", "flag"),
    ({"card": "Gold", "card_status": "suspended"}, "Your Gold card is active.", "card_status"),
    ({"store": "Elm St", "business_status": "CLOSED_TEMPORARILY"}, "Elm St is open now.",
     "business_status"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "reply", "field"), _STATES)
def test_a_status_field_is_read_by_the_words_people_use_for_its_state(
    record: dict[str, str], reply: str, field: str | None
) -> None:
    v = _one(_monitor(*DEFAULT_RECORD_VOCABULARIES), reply, record)
    if field is None:
        assert v.contradiction is None, v.reason
    else:
        assert v.contradiction is not None, v.reason
        assert v.contradiction.field == f"record.{field}", v.contradiction


def test_a_state_is_no_addition_where_the_record_has_no_status() -> None:
    museum = {"name": "City Museum", "closes": "18:00"}
    v = _one(_monitor(*DEFAULT_RECORD_VOCABULARIES), "The City Museum is open now.", museum)
    assert v.contradiction is None
    assert "open" not in record_vocabulary().term_words  # never a field's word in a "with" phrase


def test_the_status_domain_can_be_left_out() -> None:
    reply, record = "LX318 has been cancelled.", {"flight": "LX318", "status": "DELAYED"}
    without = tuple(d for d in DEFAULT_RECORD_VOCABULARIES if d != "statuses")
    assert _one(_monitor(*DEFAULT_RECORD_VOCABULARIES), reply, record).contradiction is not None
    assert _one(_monitor(*without), reply, record).contradiction is None


def test_a_domains_filler_words_are_data_and_leave_with_the_domain(tmp_path: Path) -> None:
    # "eatery" says nothing a restaurant's record must hold, but only where the restaurants
    # domain is read: the record code holds no such word
    assert "eatery" in record_vocabulary().filler
    assert "eatery" not in record_vocabulary(("orders", "prices", "statuses")).filler
    depot = {"name": "Northgate Depot", "city": "Leeds"}
    reply = "Northgate Depot is a friendly eatery in Leeds."
    assert "eatery" not in _one(_monitor(*DEFAULT_RECORD_VOCABULARIES), reply, depot).reason
    assert "eatery" in _one(_monitor("orders"), reply, depot).reason
    # a user's file adds filler words of its own
    path = tmp_path / "depots.json"
    path.write_text(json.dumps({"vocabularies": [], "filler": {"words": ["Depot", "yard"]}}))
    assert {"depot", "yard"} <= record_vocabulary(("orders", str(path))).filler


def test_a_hold_ready_for_collection_is_read_by_the_words_people_use_for_it() -> None:
    hold = {
        "holdId": "H-77",
        "status": "READY_FOR_PICKUP",
        "title": "Piranesi",
        "pickupBy": "2026-12-05",
    }
    monitor = _monitor(*DEFAULT_RECORD_VOCABULARIES)
    for reply in ("Piranesi is waiting for you.", "Piranesi is ready to collect."):
        assert _one(monitor, reply, hold).grade is Grade.GROUNDED, reply
    for reply in ("Piranesi has been picked up.", "Piranesi is still in transit."):
        v = _one(monitor, reply, hold)
        assert v.contradiction is not None, reply
        assert v.contradiction.field == "record.status"
    # what must or will happen states no state ("must be picked up by 5 December")
    for reply in (
        "Piranesi must be picked up by 5 December.",
        "Piranesi is waiting to be picked up.",
    ):
        assert _one(monitor, reply, hold).contradiction is None, reply


def test_a_state_word_with_an_object_after_it_is_a_verb_not_a_status() -> None:
    # "returned" is an order status; "the search returned 4 results" says what a search did
    search = {"search_id": "S-88", "location": "Denver", "results": [{"car": "Rio"}] * 4}
    monitor = _monitor(*DEFAULT_RECORD_VOCABULARIES)
    (v,) = monitor.verify_grounding("Search S-88 at Denver returned 4 results.", [search]).verdicts
    assert v.grade is Grade.INFERRED, v.reason  # "returned" a word no field places
    assert v.contradiction is None
    # ... while the status itself is still read against an order's
    order = {"order_id": "A-1", "status": "shipped"}
    (v,) = monitor.verify_grounding("Order A-1 was returned.", [order]).verdicts
    assert v.contradiction is not None, v.reason
    assert v.contradiction.field == "record.status"


def test_a_passive_state_word_is_the_status_whatever_follows_it() -> None:
    monitor = _monitor(*DEFAULT_RECORD_VOCABULARIES)
    order = {"order_id": "A-1", "status": "shipped"}
    for reply in ("Order A-1 was delivered this morning.", "Order A-1 was returned the next day."):
        (v,) = monitor.verify_grounding(reply, [order]).verdicts
        assert v.contradiction is not None, reply
        assert v.contradiction.field == "record.status"
