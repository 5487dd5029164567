"""Claims about one item of a list a tool returned: the item's own words, a field of another
item, and a pick of one item that nothing verifies (records written for these tests)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records.lists import said_pick
from langchain_qgate.schemas import Grade
from tests.unit_tests._records import field_monitor, one_verdict

PRESCRIPTIONS = {
    "prescriptions": [
        {"drug": "Atorvastatin 20 mg", "status": "READY", "price_usd": 4.99},
        {"drug": "Amoxicillin 500 mg", "status": "PROCESSING", "price_usd": 3.25},
        {"drug": "Lisinopril 10 mg", "status": "ON_HOLD", "price_usd": 11.0},
    ]
}
GAMES = {
    "round": 7,
    "games": [
        {"home": "Porto", "away": "Braga", "state": "LIVE", "home_score": 1, "away_score": 0},
        {"home": "Lyon", "away": "Nantes", "state": "POSTPONED", "home_score": None},
    ],
}
COINS = {
    "assets": [
        {"symbol": "SOL", "name": "Solana", "change_24h_pct": 1.3},
        {"symbol": "ETH", "name": "Ethereum", "change_24h_pct": -4.1},
    ]
}
STATIONS = {
    "stations": [
        {"name": "Elm Road", "bikes_available": 7, "ebikes_available": 1, "distance_m": 300},
        {"name": "Mill Lane", "bikes_available": 12, "ebikes_available": 0, "distance_m": 450},
    ]
}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return field_monitor()


@pytest.mark.parametrize(
    "reply",
    [
        "The atorvastatin is ready to collect.",
        # "at the moment", "still", "yet": when a state holds, no fact of their own
        "Your atorvastatin is ready to collect at the moment.",
    ],
)
def test_the_words_of_the_item_whose_field_a_claim_states_are_the_records(
    monitor: HallucinationMonitor, reply: str
) -> None:
    # "atorvastatin" is no key and no name field: it is a value of the item whose status
    # the claim states, so the item's words account for it
    verdict = one_verdict(monitor, reply, PRESCRIPTIONS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert verdict.evidence[0].evidence_id.endswith("prescriptions[0].status")


def test_a_claim_naming_one_item_is_not_grounded_by_another_items_field(
    monitor: HallucinationMonitor,
) -> None:
    # "ready" is the atorvastatin's status; the amoxicillin is still processing
    verdict = one_verdict(monitor, "The amoxicillin is ready to collect.", PRESCRIPTIONS)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
    # "live" is the state of the Porto game, not of Lyon against Nantes (postponed)
    verdict = one_verdict(monitor, "Lyon and Nantes are live right now.", GAMES)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
    assert verdict.contradiction is None  # unsupported, not named: precision first
    # the same words about the item that holds the state are grounded
    verdict = one_verdict(monitor, "Porto and Braga are live right now.", GAMES)
    assert verdict.grade is Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize(
    "reply",
    [
        "The atorvastatin costs the least, at $4.99.",  # the amoxicillin costs less
        "Elm Road is the best option, 300 m away.",
    ],
)
def test_a_pick_of_one_item_that_nothing_verifies_is_not_grounded(
    monitor: HallucinationMonitor, reply: str
) -> None:
    record = PRESCRIPTIONS if "atorvastatin" in reply else STATIONS
    verdict = one_verdict(monitor, reply, record)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason
    assert verdict.contradiction is None
    assert "least" in verdict.reason or "best" in verdict.reason


def test_a_key_of_the_item_is_no_fact_the_claim_may_state_without_its_value(
    monitor: HallucinationMonitor,
) -> None:
    # the item's values account for words of a claim about it, its keys do not: "e-bikes"
    # names ``ebikes_available``, whose value (0 at Mill Lane, 1 at Elm Road) is unread here
    for reply in ("Mill Lane has e-bikes.", "Elm Road has no e-bikes."):
        verdict = one_verdict(monitor, reply, STATIONS)
        assert verdict.grade is not Grade.GROUNDED, (reply, verdict.reason)
    # with the value, the hyphenated word is the key's: "e-bike" of ``ebikes_available``
    verdict = one_verdict(monitor, "Elm Road has 1 e-bike.", STATIONS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    assert verdict.evidence[0].evidence_id.endswith("stations[0].ebikes_available")


def test_the_dimension_a_figure_is_said_in_is_no_fact_of_its_own(
    monitor: HallucinationMonitor,
) -> None:
    verdict = one_verdict(monitor, "Elm Road is 300 m away, with 7 bikes.", STATIONS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    # "away" after a figure only: a station "away from the river" states a place
    verdict = one_verdict(monitor, "Elm Road is away from the river, with 7 bikes.", STATIONS)
    assert verdict.grade is not Grade.GROUNDED, verdict.reason


@pytest.mark.parametrize(
    ("claim", "pick"),
    [
        ("The cheapest is Elm Road.", "cheapest"),
        ("Elm Road is cheapest.", "cheapest"),  # a measure of its own: no article needed
        ("Mill Lane has the most bikes.", "most"),
        ("Elm Road costs the least.", "least"),
        ("It's the best option.", "best"),
        ("It is open most days.", ""),  # "most" without "the" picks nothing
        ("It holds at most 12 bikes.", ""),
        ("Elm Road is the best-kept secret in town, at least for now.", "best"),
        ("The station has 7 bikes.", ""),
    ],
)
def test_said_pick_reads_the_words_that_single_out_one_item(claim: str, pick: str) -> None:
    assert said_pick(claim) == pick


def test_the_figure_of_a_key_word_is_no_value_of_its_own(monitor: HallucinationMonitor) -> None:
    # "24 hours" is the "24h" of ``change_24h_pct``, not a figure the record must hold
    verdict = one_verdict(monitor, "Solana is up 1.3% over the last 24 hours.", COINS)
    assert verdict.grade is not Grade.FABRICATED, verdict.reason
    # another figure, or another unit after it, is still read as a value
    for reply in ("Solana is up 1.3% over the last 24 days.", "Solana is up 2.5% in 24 hours."):
        verdict = one_verdict(monitor, reply, COINS)
        assert verdict.grade is Grade.FABRICATED, (reply, verdict.reason)


ORDERS = {
    "orders": [
        {"item": "Espresso machine", "status": "shipped", "total_usd": 249.0},
        {"item": "Milk frother", "status": "processing", "total_usd": 39.5},
        {"item": "Coffee grinder", "status": "delivered", "total_usd": 89.0},
    ]
}


def test_an_amount_of_money_is_the_price_a_pick_compares(monitor: HallucinationMonitor) -> None:
    # no key says "price": the orders' totals are what "the cheapest" compares
    verdict = one_verdict(monitor, "The milk frother is the cheapest of your orders.", ORDERS)
    assert verdict.grade is Grade.GROUNDED, verdict.reason
    verdict = one_verdict(monitor, "The coffee grinder is the cheapest of your orders.", ORDERS)
    assert verdict.contradiction is not None
    assert verdict.contradiction.field is not None
    assert verdict.contradiction.field.endswith("orders[1].total_usd")
