"""A reply that picks one result of a list ("the cheapest", "the only refundable one") is read
against the whole list (``grounding/records/lists.py``, the built-in ``list_pick`` check)."""

from __future__ import annotations

import json

import pytest

from langchain_qgate import GroundingPolicy
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records.lists import ListPick
from langchain_qgate.schemas import EvidenceChunk

FLIGHTS = {
    "query": {"origin": "SFO", "destination": "SEA"},
    "results": [
        {"flightNumber": "AS 331", "carrier": "Alaska Airlines", "departureTime": "07:15",
         "arrivalTime": "09:20", "stops": 0, "priceUsd": 189, "isRefundable": "False"},
        {"flightNumber": "UA 1538", "carrier": "United", "departureTime": "10:05",
         "arrivalTime": "12:14", "stops": 0, "priceUsd": 214, "isRefundable": "True"},
        {"flightNumber": "DL 2410", "carrier": "Delta", "departureTime": "13:50",
         "arrivalTime": "17:45", "stops": 1, "priceUsd": 162, "isRefundable": "False"},
        {"flightNumber": "AS 345", "carrier": "Alaska Airlines", "departureTime": "18:30",
         "arrivalTime": "20:38", "stops": 0, "priceUsd": 176, "isRefundable": "True"},
    ],
}  # fmt: skip
HOTELS = [
    {"name": "Harbour Lights Inn", "pricePerNight": "$129", "rating": 4.1, "distance_km": 2.4,
     "breakfastIncluded": True},
    {"name": "The Grand Meridian", "pricePerNight": "$245", "rating": 4.7, "distance_km": 0.6,
     "breakfastIncluded": False},
    {"name": "Maple Court Hotel", "pricePerNight": "$159", "rating": 4.4, "distance_km": 1.1,
     "breakfastIncluded": False},
]  # fmt: skip


def _chunks(data: object) -> list[EvidenceChunk]:
    return list(EvidenceIndex([json.dumps(data)], embedder=HashingEmbedder()).chunks)


def _found(claim: str, data: object) -> list[tuple[str, str | None]]:
    return [(f.kind, f.evidence_id) for f in ListPick()(claim, _chunks(data))]


def _named_at(claim: str, data: object, field: str) -> None:
    """The claim's pick is contradicted by ``field`` of the item that holds the extreme."""
    ((kind, evidence_id),) = _found(claim, data)
    assert kind == "contradiction"
    assert evidence_id is not None
    assert evidence_id.endswith(field)


@pytest.mark.parametrize(
    ("claim", "data", "field"),
    [
        ("The cheapest option is Delta's DL 2410 at $162.", FLIGHTS, "results[2].priceUsd"),
        ("The earliest flight is AS 331, leaving at 7:15.", FLIGHTS, "results[0].departureTime"),
        ("The latest departure is AS 345 at 6:30 pm.", FLIGHTS, "results[3].departureTime"),
        ("The most expensive fare is United's UA 1538.", FLIGHTS, "results[1].priceUsd"),
        ("The Grand Meridian is the highest rated, at 4.7.", HOTELS, "[1].rating"),
        ("The closest hotel is The Grand Meridian, 0.6 km away.", HOTELS, "[1].distance_km"),
        ("Harbour Lights Inn is the cheapest at $129 a night.", HOTELS, "[0].pricePerNight"),
    ],
)
def test_a_right_pick_is_supported_by_the_field_it_is_measured_on(
    claim: str, data: object, field: str
) -> None:
    ((kind, evidence_id),) = _found(claim, data)
    assert kind == "supported"
    assert evidence_id is not None
    assert evidence_id.endswith(field)


@pytest.mark.parametrize(
    ("claim", "data", "field"),
    [
        ("The cheapest option is AS 345 at $176.", FLIGHTS, "results[2].priceUsd"),
        ("The earliest flight is UA 1538.", FLIGHTS, "results[0].departureTime"),
        ("UA 1538 arrives earliest, at 12:14.", FLIGHTS, "results[0].arrivalTime"),
        ("The cheapest is the $189 Alaska flight.", FLIGHTS, "results[2].priceUsd"),
        ("Maple Court Hotel is the highest rated of the three.", HOTELS, "[1].rating"),
        ("Maple Court Hotel is the cheapest at $159.", HOTELS, "[0].pricePerNight"),
        ("UA 1538 is the only refundable flight.", FLIGHTS, "results[3].isRefundable"),
    ],
)
def test_a_wrong_pick_is_contradicted_by_the_item_that_holds_the_extreme(
    claim: str, data: object, field: str
) -> None:
    ((kind, evidence_id),) = _found(claim, data)
    assert kind == "contradiction"
    assert evidence_id is not None
    assert evidence_id.endswith(field)


@pytest.mark.parametrize(
    "claim",
    [
        "AS 345 is the cheapest nonstop flight.",  # the cheapest of the nonstop ones: true
        "Alaska's AS 345 is the cheapest.",  # may mean the cheapest Alaska flight
        "DL 2410 is not the cheapest.",
        "AS 345 is the second cheapest.",
        "AS 345 is cheaper than the cheapest United fare.",
        "Is AS 345 the cheapest?",
        "The cheapest flight leaves at 1:50 pm and the earliest at 7:15.",  # two measures
        "The cheapest flight is a good deal.",  # names no item
        "AS 331 and AS 345 are the cheapest Alaska flights.",  # names two items
        "The earliest one is on Alaska Airlines.",  # a value two items share
    ],
)
def test_no_finding_when_the_claim_may_mean_something_else(claim: str) -> None:
    assert _found(claim, FLIGHTS) == []


def test_a_single_record_is_no_list() -> None:
    record = FLIGHTS["results"][1]  # type: ignore[index]
    assert _found("UA 1538 is the cheapest.", record) == []


def test_the_maximum_of_a_time_field_is_the_latest_and_its_role_picks_the_field() -> None:
    assert _found("DL 2410 lands latest.", FLIGHTS)[0][0] == "contradiction"
    assert _found("AS 345 lands latest.", FLIGHTS)[0][0] == "supported"


def test_the_gate_names_a_wrong_pick_and_cites_the_list() -> None:
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    report = monitor.verify_grounding(
        "The cheapest option is AS 345 at $176.", [json.dumps(FLIGHTS)]
    )
    (verdict,) = report.verdicts
    assert verdict.grade.value == "fabricated"
    assert verdict.contradiction is not None
    assert verdict.contradiction.check == "list_pick"
    assert verdict.contradiction.evidence_value == "162 (item 3)"
    assert "the cheapest of the 4 results" in verdict.reason


def test_list_pick_is_switched_off_by_name() -> None:
    monitor = HallucinationMonitor(
        policy=GroundingPolicy(disabled_checks={"list_pick"}), embedder=HashingEmbedder()
    )
    report = monitor.verify_grounding(
        "The cheapest option is AS 345 at $176.", [json.dumps(FLIGHTS)]
    )
    assert all(
        v.contradiction is None or v.contradiction.check != "list_pick" for v in report.verdicts
    )


def test_a_user_check_cannot_take_its_name() -> None:
    def list_pick(claim: str, evidence: object) -> list[object]:
        return []

    with pytest.raises(ValueError, match="list_pick"):
        GroundingPolicy(checks=[list_pick])


def test_prose_evidence_runs_no_list_check() -> None:
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    report = monitor.verify_grounding(
        "The cheapest flight is AS 345.", ["AS 345 is the cheapest flight, at 176 dollars."]
    )
    assert all(not v.findings for v in report.verdicts)


def test_a_list_read_only_in_part_is_not_compared() -> None:
    """Past the structured size cap the rest of a list is not read: its extremes are unknown."""
    items = [{"code": f"XX {i}", "priceUsd": 100 + i, "stops": i % 2} for i in range(2500)]
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    report = monitor.verify_grounding("The cheapest option is XX 1 at $101.", [json.dumps(items)])
    assert report.notes  # the cut is reported
    assert all(not v.findings for v in report.verdicts)
    whole = monitor.verify_grounding(
        "The cheapest option is XX 1 at $101.", [json.dumps(items[:40])]
    )
    assert [f.kind for v in whole.verdicts for f in v.findings] == ["contradiction"]


@pytest.mark.parametrize(
    ("claim", "kind"),
    [
        ("I found 4 flights.", "supported"),
        ("We have four results for you.", "supported"),
        ("I found three flights.", "contradiction"),
        ("There are 5 options available.", "contradiction"),
    ],
)
def test_a_count_of_the_whole_list_is_read_against_its_length(claim: str, kind: str) -> None:
    assert [k for k, _ in _found(claim, FLIGHTS)] == [kind]


@pytest.mark.parametrize(
    "claim",
    [
        "I found 3 nonstop flights.",
        "There are 3 flights under $200.",
        "Two of them are refundable.",
    ],
)
def test_a_count_of_a_part_of_the_list_is_not_read(claim: str) -> None:
    assert _found(claim, FLIGHTS) == []


def test_the_gate_names_a_miscounted_list() -> None:
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    report = monitor.verify_grounding("I found three flights.", [json.dumps(FLIGHTS)])
    assert [v.contradiction.check for v in report.verdicts if v.contradiction] == ["list_pick"]


def test_only_the_named_item_when_it_does_not_hold_it_at_all() -> None:
    (finding,) = ListPick()("DL 2410 is the only refundable flight.", _chunks(FLIGHTS))
    assert finding.kind == "contradiction"
    assert finding.evidence_id is not None
    assert finding.evidence_id.endswith("results[2].isRefundable")
    assert "False for item 3" in finding.reason


PLACES = [
    {"name": "Trattoria Roma", "cuisine": "Italian", "distance_mi": 0.4, "hasParking": True},
    {"name": "Golden Dragon", "cuisine": "Chinese", "distance_mi": 1.2, "hasParking": True},
    {"name": "Chez Marie", "cuisine": "French", "distance_mi": 2.3, "hasParking": False},
    {"name": "Taco Loco", "cuisine": "Mexican", "distance_mi": 0.9, "hasParking": False},
]
SHOWS = [
    {"artist": "Arctic Monkeys", "date": "2025-03-08", "start_time": "6:30 PM"},
    {"artist": "Billie Eilish", "date": "2025-03-02", "start_time": "8:00 PM"},
    {"artist": "Muse", "date": "2025-03-15", "start_time": "7:00 PM"},
]


@pytest.mark.parametrize(
    ("claim", "data"),
    [
        # a value held by the pick alone, stated with its name: the part it picks from
        ("The closest Mexican place is Taco Loco.", PLACES),
        ("The closest Chinese restaurant is Golden Dragon, 1.2 miles away.", PLACES),
        # words the list does not place may narrow the pick
        ("The closest restaurant in the old town is Golden Dragon.", PLACES),
        ("The closest family-friendly place is Chez Marie.", PLACES),
        # a day and a time of day: which orders the list is not said
        ("The earliest concert is Billie Eilish on March 2.", SHOWS),
        ("The earliest show is Billie Eilish.", SHOWS),
        # "only" turned around
        ("Chez Marie is the only one without parking.", PLACES),
    ],
)
def test_a_pick_from_a_part_of_the_list_is_not_contradicted(claim: str, data: object) -> None:
    assert all(kind != "contradiction" for kind, _ in _found(claim, data))


def test_a_wrong_pick_with_a_head_noun_and_its_own_figure_is_still_named() -> None:
    ((kind, evidence_id),) = _found("The closest restaurant is Taco Loco, 0.9 miles away.", PLACES)
    assert kind == "contradiction"
    assert evidence_id is not None
    assert evidence_id.endswith("[0].distance_mi")


PERMITS = {
    "options": [
        {"code": "DAY-1", "label": "Day pass", "price_gbp": 6.5},
        {"code": "WK-1", "label": "Week pass", "price_gbp": 24.5},
        {"code": "MO-1", "label": "Month pass", "price_gbp": 80.0},
    ]
}


def test_the_picks_own_figure_written_another_way_narrows_nothing() -> None:
    # "£24.50" is the week pass's own price: no word left that could narrow the list
    ((kind, evidence_id),) = _found(
        "The cheapest option on the list is the Week pass at £24.50.", PERMITS
    )
    assert kind == "contradiction"
    assert evidence_id is not None
    assert evidence_id.endswith("options[0].price_gbp")
    ((kind, _),) = _found("The cheapest option on the list is the Day pass at £6.50.", PERMITS)
    assert kind == "supported"


MATCHES = {
    "round": 9,
    "games": [
        {"home": "Harrow Hawks", "away": "Leyton Larks", "attendance": 8120, "corners": 7},
        {"home": "Derby Dons", "away": "Ely Eagles", "attendance": 12430, "corners": 3},
        {"home": "Fife Falcons", "away": "Bath Bears", "attendance": None, "corners": None},
        {"home": "Kent Kites", "away": "York Yaks", "attendance": 5610, "corners": 11},
    ],
}


def test_a_superlative_of_no_measure_is_measured_on_the_field_its_noun_names() -> None:
    # "the biggest attendance", "the most corners": the key after the superlative; a game with
    # no figure (postponed: null) is no candidate
    ((kind, _),) = _found("The biggest attendance was at Derby Dons, 12,430.", MATCHES)
    assert kind == "supported"
    _named_at("Harrow Hawks had the biggest attendance.", MATCHES, "games[1].attendance")
    ((kind, _),) = _found("Kent Kites saw the most corners, 11.", MATCHES)
    assert kind == "supported"
    ((kind, _),) = _found("Derby Dons had the fewest corners.", MATCHES)
    assert kind == "supported"
    # no noun of a field after it: nothing measured
    assert _found("Most of the games were at Derby Dons.", MATCHES) == []
    assert _found("Fife Falcons had the biggest crowd.", MATCHES) == []


SHOWS_PRICED = {
    "results": [
        {"venue": "North Hall", "date": "2027-02-12", "minPriceGbp": 42.5, "maxPriceGbp": 89},
        {"venue": "South Hall", "date": "2027-02-13", "minPriceGbp": 48.0, "maxPriceGbp": 75},
    ]
}


def test_the_cheapest_of_a_range_of_prices_is_measured_by_its_lower_end() -> None:
    ((kind, _),) = _found("The cheapest is North Hall, from £42.50.", SHOWS_PRICED)
    assert kind == "supported"
    _named_at("The cheapest is South Hall.", SHOWS_PRICED, "results[0].minPriceGbp")
    ((kind, _),) = _found("The most expensive is North Hall.", SHOWS_PRICED)
    assert kind == "supported"


def test_a_name_is_known_by_its_head_before_a_comma() -> None:
    stations = {"stations": [
        {"name": "Wigmore Street, Marylebone", "distance_m": 140},
        {"name": "Cavendish Square", "distance_m": 260},
    ]}  # fmt: skip
    ((kind, _),) = _found("Wigmore Street is the closest.", stations)
    assert kind == "supported"
    ((kind, _),) = _found("Cavendish Square is the closest.", stations)
    assert kind == "contradiction"


def test_a_right_pick_accounts_for_its_superlative_in_the_records_reading() -> None:
    # "cheapest" is what the list holds, as a value is: the claim is grounded, not partial
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model=None)
    )
    (v,) = monitor.verify_grounding(
        "The cheapest option on the list is the Day pass at £6.50.", json.dumps(PERMITS)
    ).verdicts
    assert v.grade.value == "grounded", v.reason
    (v,) = monitor.verify_grounding(
        "The priciest option on the list is the Week pass at £24.50.", json.dumps(PERMITS)
    ).verdicts
    assert v.contradiction is not None, v.reason


def test_the_only_one_with_no_x_is_the_only_one_without_it() -> None:
    quotes = {"quotes": [
        {"lender": "Harbour", "early_repayment_charge": True},
        {"lender": "Northgate", "early_repayment_charge": True},
        {"lender": "Clearwater", "early_repayment_charge": False},
    ]}  # fmt: skip
    assert _found("Only Clearwater has no early repayment charge.", quotes) == []
    ((kind, _),) = _found("Only Clearwater has an early repayment charge.", quotes)
    assert kind == "contradiction"


def test_an_iso_duration_orders_the_list_by_its_length() -> None:
    sailings = {"sailings": [{"vessel": "Jelena", "duration": "PT2H"},
                             {"vessel": "Krilo Star", "duration": "PT1H5M"}]}  # fmt: skip
    assert _found("The quickest is the Krilo Star.", sailings)[0][0] == "supported"
    _named_at("The quickest is the Jelena.", sailings, "sailings[1].duration")
