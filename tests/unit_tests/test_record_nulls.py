"""A null, an empty list or an empty object under a key says the record has none of it
("gate": null, "alerts": []): read as the field's value "none", a yes/no field that is false.

Hand-written records (a flight, a solar system's status), not taken from any data set. The
field matcher decides these claims, so a hashing embedder and no pair model give the
decisions the shipped models give.
"""

from __future__ import annotations

import re

import pytest

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.grounding.evidence._flatten import EMPTY, flatten, json_safe
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

FLIGHT = {"flight": "BA117", "gate": None, "alerts": [], "extras": {}, "delayed": False}
_SAFE = re.compile(r"[^\w\-]")


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


def test_a_keyed_null_or_empty_value_is_a_field_that_says_none() -> None:
    fields = {path: value for path, _, value, _ in flatten(FLIGHT, safe=_SAFE).fields}
    assert fields == {
        "flight": "BA117",
        "gate": EMPTY,
        "alerts": EMPTY,
        "extras": EMPTY,
        "delayed": "false",
    }


def test_a_null_item_of_a_list_says_nothing() -> None:
    fields = flatten({"stops": [None, {"city": "Oslo"}]}, safe=_SAFE).fields
    assert [(path, value) for path, _, value, _ in fields] == [("stops[1].city", "Oslo")]


def test_a_denial_of_what_the_record_has_none_of_is_grounded(monitor) -> None:
    v = one_verdict(monitor, "There are no alerts.", FLIGHT)
    assert v.grade is Grade.GROUNDED, v.reason
    assert v.evidence[0].evidence_id == "record.alerts"


def test_a_value_for_a_field_the_record_says_is_none_is_contradicted(monitor) -> None:
    v = one_verdict(monitor, "BA117 leaves from gate B12.", FLIGHT)
    assert v.contradiction is not None, v.reason
    assert v.contradiction.field == "record.gate"


def test_a_record_of_nulls_alone_is_no_structured_evidence(monitor) -> None:
    # nothing but nulls states nothing: refused as a mapping without text, as before
    with pytest.raises(InvalidInputError, match="page_content"):
        monitor.verify_grounding("The gate is B12.", [{"gate": None}])


def test_a_string_none_the_record_holds_is_a_value_not_a_null(monitor) -> None:
    # only nulls and empty values make a record "nothing read", not the word "none" it holds
    report = monitor.verify_grounding("The result is none.", [{"result": "none"}])
    assert [e.evidence_id for v in report.verdicts for e in v.evidence] == ["record.result"]
    assert flatten({"result": "none"}, safe=_SAFE).empties == 0
    assert flatten({"gate": None, "alerts": []}, safe=_SAFE).empties == 2


def test_a_value_json_safe_could_not_read_is_left_out_not_written_as_a_null() -> None:
    looped: dict = {"total": 5}
    looped["loop"] = looped
    copied, cut = json_safe(looped, safe=_SAFE)
    assert copied == {"total": 5}
    assert cut == ["a value contains itself: the repeated part was not read again"]
