"""Replies built on a tool's result, read by the values they state (issue 45).

Hand-written records and sentences of services other than restaurants (events, weather,
trains, buses, hotels), not taken from any dataset. The field matcher decides these claims,
so a hashing embedder and no pair model give the decisions the shipped models give.
"""

from __future__ import annotations

import json

import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.grounding.claims.claims import extract_claims, with_offers
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import ClaimType, Grade

CONCERT = {
    "event_name": "Harbour Lights",
    "venue": "Pier Hall",
    "date": "2025-07-19",
    "time": "20:00",
}
WEATHER = {"city": "Oslo", "chance_of_snow": "40", "temperature": "-3", "wind_kmh": "22"}
TRAIN = {"route": "Leeds to York", "fare": "12", "changes": "0", "passengers": "1"}
COACH = {"from_station": "Central", "departure_time": "06:40", "fare": "9", "transfers": "1"}
HOTEL = {"hotel_name": "Harbour Inn", "star_rating": "3", "price_per_night": "140"}
NURSE_ROLE = {"role": "Night nurse", "shifts_per_week": 4, "openings": 2}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model=None))


def _verdicts(monitor: HallucinationMonitor, reply: str, record: dict) -> list:
    return monitor.verify_grounding(reply, json.dumps(record)).verdicts


def _one(monitor: HallucinationMonitor, reply: str, record: dict):
    verdicts = _verdicts(monitor, reply, record)
    assert len(verdicts) == 1, [v.claim.text for v in verdicts]
    return verdicts[0]


def _names(v, field: str) -> None:
    """The verdict is a contradiction that names ``field``."""
    assert v.contradiction is not None, v.reason
    assert v.contradiction.field == field


def test_a_day_of_a_month_written_without_its_year_meets_the_records_date(monitor) -> None:
    v = _one(monitor, "Harbour Lights plays Pier Hall on July 19th at 8 pm.", CONCERT)
    assert v.grade is Grade.GROUNDED, v.reason
    v = _one(monitor, "Harbour Lights plays Pier Hall on July 21st at 8 pm.", CONCERT)
    _names(v, "record.date")
    assert v.contradiction.claim_value == "July 21st"


def test_a_weekday_is_read_against_the_weekday_of_the_records_date(monitor) -> None:
    # 2025-07-19 is a Saturday
    v = _one(monitor, "Harbour Lights plays Pier Hall this Saturday at 8 pm.", CONCERT)
    assert v.grade is Grade.GROUNDED, v.reason
    v = _one(monitor, "Harbour Lights plays Pier Hall this Sunday at 8 pm.", CONCERT)
    _names(v, "record.date")
    assert "Saturday" in v.contradiction.evidence_value


def test_a_percentage_meets_the_bare_number_an_api_returns(monitor) -> None:
    v = _one(monitor, "There is a 40 percent chance of snow in Oslo.", WEATHER)
    assert v.grade is Grade.GROUNDED, v.reason
    assert v.evidence[0].evidence_id == "record.chance_of_snow"
    v = _one(monitor, "There is a 70 percent chance of snow in Oslo.", WEATHER)
    assert v.contradiction is not None
    assert v.contradiction.field == "record.chance_of_snow"


def test_the_unit_written_after_a_figure_is_no_fact_of_its_own(monitor) -> None:
    v = _one(monitor, "The wind in Oslo is 22 km/h.", WEATHER)
    assert v.grade is Grade.GROUNDED, v.reason
    v = _one(monitor, "Oslo is at 4 degrees Celsius.", {**WEATHER, "temperature": "4"})
    assert v.grade is Grade.GROUNDED, v.reason


def test_a_figure_no_value_reading_takes_is_never_grounded(monitor) -> None:
    v = _one(monitor, "Oslo is at -5 degrees.", WEATHER)
    assert v.grade is not Grade.GROUNDED, v.reason


def test_an_amount_of_money_is_read_against_the_money_field_not_a_count(monitor) -> None:
    v = _one(monitor, "The Leeds to York ticket costs £12.", TRAIN)
    assert v.contradiction is None, v.reason
    assert v.grade is not Grade.FABRICATED, v.reason
    v = _one(monitor, "The Leeds to York ticket costs £15.", TRAIN)
    _names(v, "record.fare")


def test_values_all_stated_in_words_no_field_names_are_inferred_not_fabricated(monitor) -> None:
    v = _one(monitor, "A coach pulls out of Central at 6:40 am for $9.", COACH)
    assert v.grade is Grade.INFERRED, v.reason
    assert v.contradiction is None
    assert "coach" in v.reason  # the words the record does not place are named


def test_a_name_no_field_holds_is_no_way_of_putting_a_value(monitor) -> None:
    v = _one(monitor, "A Megabus coach pulls out of Central at 6:40 am for $9.", COACH)
    assert v.grade is Grade.FABRICATED, v.reason
    assert v.contradiction is None  # unsupported, never contradicted through another field


def test_an_offer_states_the_values_of_the_tool_result(monitor) -> None:
    v = _one(monitor, "How about Harbour Inn, a 3 star hotel at $140 a night?", HOTEL)
    assert v.grade is not Grade.FABRICATED, v.reason
    v = _one(monitor, "How about Harbour Inn, a 3 star hotel at $180 a night?", HOTEL)
    assert v.contradiction is not None
    assert v.contradiction.field == "record.price_per_night"
    # an offer that carries no value, and a question about prose, state nothing
    assert _verdicts(monitor, "Would you like to book it?", HOTEL) == []
    report = monitor.verify_grounding("How about Harbour Inn at $180?", "Harbour Inn costs $140.")
    assert report.verdicts == []


def test_a_question_that_asks_is_not_read_as_an_offer() -> None:
    text = "Is Harbour Inn cheap? Can I bring my dog to Harbour Inn? It costs $140 a night."
    from langchain_qgate.grounding.claims.claims import extract_claims

    claims = with_offers(text, extract_claims(text))
    assert [c.text for c in claims] == ["It costs $140 a night."]
    offered = with_offers("Do you want Harbour Inn at $140? It has 3 stars.", [])
    assert [c.text for c in offered] == ["Do you want Harbour Inn at $140?"]
    assert [c.index for c in with_offers("How about Harbour Inn? Or Pier Hall?", [])] == [0, 1]


FLIGHT = {
    "flight": "BA117",
    "departure": {"gate": "B14", "scheduled": "2025-03-08T09:40", "estimated": "10:25"},
    "seats_left": 4,
    "number_stops": "0",
    "passengers": "1",
}


def test_an_iso_datetime_states_its_date_and_its_time(monitor) -> None:
    v = _one(monitor, "BA117 departs on Saturday, March 8th.", FLIGHT)
    assert v.grade is Grade.GROUNDED, v.reason
    v = _one(monitor, "BA117 departs on March 9th.", FLIGHT)
    _names(v, "record.departure.scheduled")


def test_a_code_next_to_its_key_word_is_read_against_that_field(monitor) -> None:
    v = _one(monitor, "BA117 leaves from gate B14.", FLIGHT)
    assert v.grade is Grade.GROUNDED, v.reason
    v = _one(monitor, "BA117 leaves from gate B12.", FLIGHT)
    _names(v, "record.departure.gate")
    assert v.contradiction.claim_value == "B12"
    # the figure of a code is no count ("seat 14C" is not 14 seats)
    v = _one(monitor, "Your seat on BA117 is 14C.", FLIGHT)
    assert v.contradiction is None, v.reason


def test_what_a_figure_counts_names_its_field(monitor) -> None:
    # "passenger" is a key word of another field holding 1; "layovers" names number_stops
    v = _one(monitor, "BA117 has 0 layovers for one passenger.", FLIGHT)
    assert v.contradiction is None, v.reason
    v = _one(monitor, "BA117 has 2 layovers.", FLIGHT)
    _names(v, "record.number_stops")


def test_a_clock_said_in_the_afternoon_is_read_past_noon(monitor) -> None:
    window = {"carrier": "UPS", "window": {"start": "10:30", "end": "14:30"}}
    v = _one(
        monitor, "UPS delivers between 10:30 in the morning and 2:30 in the afternoon.", window
    )
    assert v.contradiction is None, v.reason
    v = _one(
        monitor, "UPS delivers between 10:30 in the morning and 4:30 in the afternoon.", window
    )
    assert v.grade is not Grade.GROUNDED, v.reason


def test_a_figure_in_words_is_no_key_word() -> None:
    from langchain_qgate.grounding.records.fields import _related

    assert not _related("four", "living")
    assert _related("departs", "departure")
    assert _related("layovers", "stop")


def test_a_field_named_only_by_a_synonym_is_never_the_one_a_contradiction_names(monitor) -> None:
    flat = {"address": "12 Elm Row", "number_of_beds": "3", "phone_number": "925-827-3700"}
    # "called" shares a WordNet synset with "phone"; the bedrooms are no phone number
    v = _one(monitor, "The flat at 12 Elm Row called Elm House has 4 bedrooms.", flat)
    assert v.contradiction is None, v.reason
    assert v.grade is not Grade.GROUNDED, v.reason


def test_a_figure_the_record_holds_is_never_contradicted_by_a_range_beside_it(monitor) -> None:
    lab = {"test": "HbA1c", "value": 6.1, "reference_range": "4.0-5.6", "flag": "high"}
    v = _one(monitor, "Your HbA1c came back at 6.1%, a bit above the normal range.", lab)
    assert v.contradiction is None, v.reason


def test_a_figure_with_a_thousands_separator_is_one_figure_in_an_address(monitor) -> None:
    office = {"office": "Bay Dental", "address": "4445 Stevenson Boulevard"}
    v = _one(monitor, "Bay Dental is at 4,445 Stevenson Boulevard.", office)
    assert v.grade is Grade.GROUNDED, v.reason
    v = _one(monitor, "Bay Dental is at 4,446 Stevenson Boulevard.", office)
    _names(v, "record.address")
    assert v.contradiction.claim_value == "4446 Stevenson Boulevard"


BERGEN = {"city": "Bergen", "precipitation": "30", "humidity": "80", "temperature": "12"}


def test_a_word_for_a_kind_of_the_key_names_its_field(monitor) -> None:
    v = _one(monitor, "There is a 60 percent chance of rain in Bergen.", BERGEN)
    _names(v, "record.precipitation")
    v = _one(monitor, "There is a 30 percent chance of rain in Bergen.", BERGEN)
    assert v.contradiction is None, v.reason


def test_a_unit_names_what_it_measures(monitor) -> None:
    v = _one(monitor, "It is 18 degrees in Bergen.", BERGEN)
    _names(v, "record.temperature")
    assert _one(monitor, "It is 12 degrees in Bergen.", BERGEN).contradiction is None


def test_the_records_only_field_of_a_clock_is_the_slot_of_a_time(monitor) -> None:
    v = _one(monitor, "Harbour Lights plays Pier Hall at 9 pm.", CONCERT)
    _names(v, "record.time")
    v = _one(monitor, "Harbour Lights plays Pier Hall at 8 pm.", CONCERT)
    assert v.grade is Grade.GROUNDED, v.reason


def test_an_approximation_far_from_the_field_it_names_is_contradicted(monitor) -> None:
    v = _one(monitor, "The temperature in Bergen is about 20 degrees.", BERGEN)
    _names(v, "record.temperature")
    for near in ("about 13 degrees", "over 10 degrees", "over 20 degrees"):
        v = _one(monitor, f"The temperature in Bergen is {near}.", BERGEN)
        assert v.contradiction is None, (near, v.reason)  # near enough, or a bound


def test_a_figure_whose_noun_names_a_field_is_no_other_fields_value(monitor) -> None:
    fare = {"airline": "Delta", "number_stops": "0", "passengers": "1", "price": "323"}
    v = _one(monitor, "The Delta flight has 1 layover.", fare)
    _names(v, "record.number_stops")


def test_a_phrasal_verb_and_a_verbs_noun_name_keys(monitor) -> None:
    car = {"car_model": "Civic", "pickup_date": "2025-03-09", "dropoff_date": "2025-03-12"}
    v = _one(monitor, "You can pick up the Civic on March 10th.", car)
    _names(v, "record.pickup_date")
    flight = {"airline": "Delta", "departure_time": "06:35", "arrival_time": "09:10"}
    v = _one(monitor, "The Delta flight leaves at 7 am.", flight)
    _names(v, "record.departure_time")


LAB = {"analyte": "ferritin", "result": 9, "unit": "ug/L", "reference_range": "15-150"}
CARD = {"card": "Visa", "balance": 1200, "credit_limit": 5000}
DINER = {"name": "Quayside Grill", "price_range": "$20-$30"}


def test_a_figure_compared_with_a_range_is_no_value_of_the_range(monitor) -> None:
    # 9 is the result, and it is below 15-150: never "the range says 15-150, not 9"
    (below,) = _verdicts(monitor, "Your ferritin came back at 9 ug/L, below the normal range.", LAB)
    assert below.contradiction is None
    assert below.grade is Grade.GROUNDED
    (under,) = _verdicts(monitor, "Your balance of $1,200 is well under the credit limit.", CARD)
    assert under.contradiction is None
    assert under.grade is Grade.GROUNDED


def test_a_comparison_the_record_does_not_bear_out_is_unsupported(monitor) -> None:
    for reply, record in (
        ("Your ferritin came back at 9 ug/L, within the normal range.", LAB),
        ("Your ferritin came back at 9 ug/L, above the normal range.", LAB),
        ("Your balance of $1,200 is over your credit limit.", CARD),
    ):
        (v,) = _verdicts(monitor, reply, record)
        assert v.contradiction is None, reply
        assert v.grade is Grade.FABRICATED, reply


def test_a_range_stated_after_in_the_is_the_fields_value(monitor) -> None:
    (v,) = _verdicts(monitor, "Quayside Grill is in the price range $20-$30.", DINER)
    assert v.grade is Grade.GROUNDED
    (changed,) = _verdicts(monitor, "Quayside Grill is in the price range $40-$50.", DINER)
    assert changed.grade is Grade.FABRICATED


AKA = {"hotel_name": "Aka Central Park", "star_rating": "4", "price_per_night": "300"}
SONG = {"song_name": "Sick Love", "artist": "Red Hot Chili Peppers", "album": "The Getaway"}
FILM = {"title": "After", "genre": "Romance", "aggregate_rating": "5.8"}


def test_another_name_where_the_reply_puts_its_result_is_a_changed_name(monitor) -> None:
    v = _one(monitor, "How about Hate Me by Red Hot Chili Peppers?", SONG)
    _names(v, "record.song_name")
    assert v.contradiction.claim_value == "Hate Me"
    v = _one(monitor, "1 Hotel Brooklyn Bridge is a nice 4 star hotel.", AKA)
    _names(v, "record.hotel_name")
    assert _one(monitor, "How about Sick Love by Red Hot Chili Peppers?", SONG).grade is (
        Grade.GROUNDED
    )


def test_a_name_beside_the_result_is_no_changed_name(monitor) -> None:
    for reply in (
        "Times Square is a short walk away.",  # states no value of the result
        "Central Park is a 4 star hotel.",  # a word of the record's name: the reply uses it
        "Sure, how about a 5.8 star romance called After?",  # an interjection, a title
    ):
        for v in _verdicts(monitor, reply, FILM if "After" in reply else AKA):
            assert v.contradiction is None, (reply, v.reason)
    two = {"results": [AKA, {**AKA, "hotel_name": "The Jane"}]}
    for v in _verdicts(monitor, "1 Hotel Brooklyn Bridge is a nice 4 star hotel.", two):
        assert v.contradiction is None, v.reason  # more than one result: whose name?


BISTRO = {"restaurant_name": "The Twenty Two", "city": "Leeds", "rating": "4.5"}
INN = {"hotel_name": "The Waterman", "star_rating": "3", "price_per_night": "95"}


def test_the_records_name_written_another_way_is_no_changed_name(monitor) -> None:
    for reply, record in (
        ("How about 22 in Leeds?", BISTRO),  # figures for its number words
        ("How about TheWaterman, a 3 star hotel?", INN),  # joined
        ("Watermen is a 3 star hotel.", INN),  # misspelt
    ):
        for v in _verdicts(monitor, reply, record):
            assert v.contradiction is None, (reply, v.reason)
    v = _one(monitor, "How about Ferryman Lodge, a 3 star hotel?", INN)
    _names(v, "record.hotel_name")


FERRY = {"operator": "Northern Star Ferries", "departure_time": "08:15", "fare": "18"}
GIG = {"artist": "The Lanterns", "venue": "Riverside Concert Hall", "date": "2025-06-14"}


def test_a_name_of_the_same_kind_as_a_fields_value_is_a_changed_value(monitor) -> None:
    v = _one(monitor, "Blue Line Ferries has a sailing at 8:15 am for $18.", FERRY)
    _names(v, "record.operator")
    assert v.contradiction.claim_value == "Blue Line Ferries"
    v = _one(monitor, "The Lanterns play at Kingsway Hall on June 14th.", GIG)
    _names(v, "record.venue")


def test_the_fields_own_name_shortened_or_respelt_is_no_other_of_its_kind(monitor) -> None:
    for reply, record in (
        ("Northern Star Ferries has a sailing at 8:15 am for $18.", FERRY),
        ("Northern Star has a sailing at 8:15 am for $18.", FERRY),
        ("NorthernStar Ferries has a sailing at 8:15 am for $18.", FERRY),
        ("The Lanterns play at Riverside Hall on June 14th.", GIG),  # shares a word: its own
    ):
        for v in _verdicts(monitor, reply, record):
            assert v.contradiction is None, (reply, v.reason)
    two = {"results": [FERRY, {**FERRY, "operator": "Harbour Ferries"}]}
    for v in _verdicts(monitor, "Blue Line Ferries has a sailing at 8:15 am.", two):
        assert v.contradiction is None, v.reason  # more than one result: whose operator?


RENTAL = {
    "car_name": "Fiesta",
    "pickup_location": "Leeds Bradford Airport",
    "pickup_date": "2025-05-02",
}
CAFE = {"cafe_name": "Brew Lab", "location": "Harrogate", "rating": "4.4"}
FLAT = {"property_name": "Mill View", "address": "12 Canal Street", "rent": "950"}


def test_a_place_the_reply_puts_its_result_in_or_at_is_a_changed_value(monitor) -> None:
    v = _one(monitor, "How about Brew Lab in Knaresborough?", CAFE)
    _names(v, "record.location")
    v = _one(monitor, "There's a Fiesta to pick up at Manchester Airport on May 2nd.", RENTAL)
    _names(v, "record.pickup_location")
    v = _one(monitor, "Mill View is at 40 Wharf Road for $950 a month.", FLAT)
    _names(v, "record.address")


def test_the_records_place_said_closer_shorter_or_otherwise_is_no_other_place(monitor) -> None:
    for reply, record in (
        ("How about Brew Lab in Harrogate?", CAFE),
        ("How about Brew Lab in Central Harrogate?", CAFE),  # more closely: its own
        ("There's a Fiesta at Leeds Bradford on May 2nd.", RENTAL),  # shorter
        ("Mill View is at 12 Canal St for $950 a month.", FLAT),  # abbreviated
        ("Mill View is available at 6 pm on May 2nd.", FLAT),  # a time, no place
        ("You can reach Mill View by phone at 555-0142.", FLAT),  # figures only, no place
    ):
        for v in _verdicts(monitor, reply, record):
            assert v.contradiction is None, (reply, v.reason)


def test_a_place_of_another_kind_at_the_records_place_may_be_inside_it(monitor) -> None:
    reply = "Your Fiesta is ready at Terminal 2 on May 2nd."
    for v in _verdicts(monitor, reply, RENTAL):
        assert v.contradiction is None, v.reason


ROUND_TRIP = {
    "airline": "Nordic Air",
    "inbound_arrival_time": "14:10",
    "inbound_departure_time": "09:30",
    "outbound_arrival_time": "19:20",
    "outbound_departure_time": "16:05",
}


def test_a_clock_no_field_its_words_name_holds_is_named_against_each_of_them(monitor) -> None:
    # "leaves" names both departures (not the arrivals): whichever was meant, it says otherwise
    v = _one(monitor, "The Nordic Air flight leaves at 8:50 pm.", ROUND_TRIP)
    _names(v, "record.inbound_departure_time")
    assert v.contradiction.claim_value == "8:50 pm"
    described = v.contradiction.describe()
    assert "09:30" in described
    assert "`record.outbound_departure_time` says 16:05" in described
    assert "arrival" not in described
    # a clock one of them holds is stated, by whichever holds it
    for reply in ("The Nordic Air flight leaves at 4:05 pm.", "It comes back at 9:30 am."):
        assert _one(monitor, reply, ROUND_TRIP).contradiction is None, reply


def test_a_clock_no_key_word_ties_to_a_field_is_unsupported_not_named(monitor) -> None:
    hotel = {"hotel_name": "Harbour Inn", "checkin_time": "15:00", "checkout_time": "11:00"}
    v = _one(monitor, "The Harbour Inn pool is open until 10 pm.", hotel)
    assert v.contradiction is None, v.reason
    assert v.grade is not Grade.GROUNDED, v.reason
    # one field of the type and its key word: that field is the slot, as before
    _names(
        _one(monitor, "Check-in at the Harbour Inn starts at 2 pm.", hotel), "record.checkin_time"
    )


class _RecordReads:
    """A pair model that reads every record window with the same probabilities."""

    def __init__(self, probabilities: tuple[float, float, float]) -> None:
        self.probabilities = probabilities

    def predict(self, pairs):
        import numpy as np

        return np.array([self.probabilities for _ in pairs], dtype=np.float32)


def _reading(probabilities: tuple[float, float, float]) -> HallucinationMonitor:
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = _RecordReads(probabilities)  # type: ignore[assignment]
    return monitor


ACCOUNT = {"account_balance": "12795.18", "account_type": "savings"}


def test_another_value_before_a_fields_key_word_is_named_when_the_verifier_contradicts() -> None:
    # "joint account" is no kind WordNet lists ("checking account" is: a sibling, named by
    # the rules alone)
    reply = "The balance of your joint account is $12,795.18."
    v = _one(_reading((0.001, 0.998, 0.001)), reply, ACCOUNT)
    _names(v, "record.account_type")
    assert v.contradiction.describe() == "`record.account_type` says savings, not joint"
    # the verifier does not read the record as contradicting it ("your main account"): the
    # word only describes the account, nothing is named
    v = _one(_reading((0.3, 0.4, 0.3)), "The balance of your main account is $12,795.18.", ACCOUNT)
    assert v.contradiction is None, v.reason
    # the field's own value is no other value, whatever the verifier reads
    v = _one(_reading((0.001, 0.998, 0.001)), "Your savings account holds $12,795.18.", ACCOUNT)
    assert v.contradiction is None or v.contradiction.field != "record.account_type"
    # a key word of the field before its head word names the field, not a value of it
    hotel = {"hotel_name": "Ibis Leeds", "customer_rating": "high"}
    v = _one(_reading((0.001, 0.998, 0.001)), "Ibis Leeds has a customer rating.", hotel)
    assert v.contradiction is None or v.contradiction.field != "record.customer_rating"


def test_a_name_the_record_does_not_hold_is_never_grounded_by_the_values_beside_it(
    monitor,
) -> None:
    car = {"car_name": "Altima", "pickup_location": "SFO International Airport", "type": "Compact"}
    v = _one(monitor, "There's a nice Compact Altima available at SFO International Airport.", car)
    assert v.grade is Grade.GROUNDED, v.reason
    # "Standard" is a value of its own (a capitalised word inside the sentence) no field holds
    v = _one(monitor, "There's a nice Standard Altima available at SFO International Airport.", car)
    assert v.grade is not Grade.GROUNDED, v.reason
    assert "Standard" in v.reason


def test_another_value_before_a_fields_key_word_is_never_grounded_by_the_verifier() -> None:
    fare = {"airline": "Nordic Air", "flight_class": "Economy", "price": "185"}
    entails = _reading((0.95, 0.02, 0.03))  # a verifier that reads the record as saying it
    v = _one(entails, "It is a business class ticket.", fare)
    assert v.grade is not Grade.GROUNDED, v.reason
    assert v.contradiction is None, v.reason  # and it does not contradict: unsupported
    assert _one(entails, "It is an economy class ticket.", fare).grade is Grade.GROUNDED


def test_a_clock_in_words_is_read_in_the_part_of_the_day_said_after_it(monitor) -> None:
    evening = {"train": "IC 512", "departure_time": "18:05", "platform": "4"}
    v = _one(monitor, "IC 512 leaves at five past six in the evening.", evening)
    assert v.contradiction is None, v.reason
    v = _one(monitor, "IC 512 leaves at five past six in the morning.", evening)
    _names(v, "record.departure_time")
    # without a part of the day either half may be meant
    assert _one(monitor, "IC 512 leaves at five past six.", evening).contradiction is None


DINNER = {"restaurant_name": "El Caminito", "city": "Los Gatos", "price_range": "moderate"}
TRACK = {"song_name": "Dance Macabre", "artist": "Ghost", "album": "Prequelle"}
PACKAGE = {"name": "fastparse-csv", "version": "2.4.1", "released": "2024-05-02"}
MEETING = {"title": "Q3 Budget Review", "start": "14:00", "room": "4.12"}


def test_another_name_after_an_offer_anywhere_in_the_claim_is_a_changed_name(monitor) -> None:
    v = _one(monitor, "The place I can recommend is Casa Lupe in Los Gatos.", DINNER)
    _names(v, "record.restaurant_name")
    assert v.contradiction.claim_value == "Casa Lupe"
    v = _one(monitor, "There's Casa Lupe in Los Gatos.", DINNER)  # the opener is no name
    assert v.contradiction.claim_value == "Casa Lupe"
    v = _one(monitor, "The place I can recommend is El Caminito in Los Gatos.", DINNER)
    assert v.contradiction is None


def test_a_name_of_another_thing_in_a_claim_that_states_a_value_is_no_changed_name(
    monitor,
) -> None:
    for reply, record in (
        ("Version 2.4.1 works with Python 3.9 and newer.", PACKAGE),  # a dependency
        ("Your RSVP is still tentative for the 2 pm review.", MEETING),  # an acronym
        ("The review is at 2 pm, so please bring the Q2 figures.", MEETING),
        ("There are TVs.", {"name": "Night Owl", "HasTV": True}),  # a key's word
    ):
        for v in _verdicts(monitor, reply, record):
            assert v.contradiction is None, (reply, v.reason)


def test_a_name_said_with_a_fields_key_word_is_another_value_of_that_field(monitor) -> None:
    for reply in (
        "Dance Macabre is on the album Badlands.",
        "Dance Macabre is on the album called Badlands.",
        "Dance Macabre is on the Badlands album.",
    ):
        v = _one(monitor, reply, TRACK)
        _names(v, "record.album")
        assert v.contradiction.claim_value == "Badlands"
    v = _one(monitor, "Dance Macabre is on the album Prequelle.", TRACK)
    assert v.contradiction is None
    # the key word used as a noun of the name only: here a producer follows it
    v = _one(monitor, "Ghost made the album with Tom Dalgety.", TRACK)
    assert v.contradiction is None, v.reason


def test_a_kind_is_compared_as_the_value_is_written_not_singularised(monitor) -> None:
    v = _one(monitor, "Your checking account has $12,795.18.", ACCOUNT)
    _names(v, "record.account_type")  # "savings" is no "saving"
    assert _one(monitor, "Your savings account has $12,795.18.", ACCOUNT).contradiction is None


def test_a_named_place_at_another_kind_of_place_is_another_place(monitor) -> None:
    v = _one(
        monitor, "There's a Fiesta to pick up at Harrogate Railway Station on May 2nd.", RENTAL
    )
    _names(v, "record.pickup_location")  # a station is no part of an airport
    reply = "Your Fiesta is ready at Terminal 2 on May 2nd."  # a part of it, maybe
    assert all(v.contradiction is None for v in _verdicts(monitor, reply, RENTAL))


def test_a_figure_anywhere_in_a_with_phrase_makes_it_about_a_field(monitor) -> None:
    v = _one(
        monitor, "It will be 12 degrees in Bergen, with a chance of rain at 30 percent.", BERGEN
    )
    assert v.grade is not Grade.FABRICATED, v.reason


def test_an_amount_of_money_is_never_read_as_a_count_or_a_size(monitor) -> None:
    # the record holds no money: the pay is unsupported, never the openings "changed"
    v = _one(monitor, "Each opening pays $52,000.", NURSE_ROLE)
    assert v.contradiction is None, v.contradiction
    assert v.grade is Grade.FABRICATED  # unsupported
    _names(_one(monitor, "There are 3 openings.", NURSE_ROLE), "record.openings")


def test_a_rate_is_no_changed_total(monitor) -> None:
    booking = {"booking": "B-1", "nights": 4, "total_price_usd": 800}
    v = _one(monitor, "That's $200 a night.", booking)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "The total comes to $900.", booking), "record.total_price_usd")
    inn = {"hotel": "Kestrel Inn", "price_per_night_usd": 150}
    _names(_one(monitor, "Kestrel Inn costs $170 a night.", inn), "record.price_per_night_usd")
    assert _one(monitor, "Kestrel Inn costs $150 a night.", inn).grade is Grade.GROUNDED


def test_a_currency_beside_a_figure_makes_it_money(monitor) -> None:
    order = {"order": "A-7", "items": 2, "refund": {"value": 250, "currency": "EUR"}}
    _names(_one(monitor, "Order A-7 gets a refund of €300.", order), "record.refund.value")
    assert _one(monitor, "Order A-7 gets a refund of €250.", order).contradiction is None


def test_a_currency_field_marks_the_amounts_of_its_own_record_wherever_it_stands(monitor) -> None:
    """Found once a record (a wide record was read field by field, quadratic in its width)."""
    wide = {"order": "A-7", **{f"note_{i}": f"line {i}" for i in range(300)}}
    wide.update({"refund": 250, "currency": "EUR"})
    _names(_one(monitor, "Order A-7 gets a refund of €300.", wide), "record.refund")
    assert _one(monitor, "Order A-7 gets a refund of €250.", wide).contradiction is None
    v = _one(monitor, "Order A-7 gets a refund of $250.", wide)  # a dollar is no euro
    assert v.grade is not Grade.GROUNDED, v.reason


def test_nothing_denies_what_follows_it(monitor) -> None:
    scan = {"scan": "S-3", "critical_finding": False}
    v = _one(monitor, "Nothing was flagged as a critical finding.", scan)
    assert v.contradiction is None, v.contradiction
    v = _one(
        monitor, "Nothing was flagged as a critical finding.", {**scan, "critical_finding": True}
    )
    _names(v, "record.critical_finding")


def test_an_hour_span_with_a_part_of_the_day_is_two_clocks(monitor) -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities

    spans = {  # the start past noon only as a second reading: the part of the day said once
        "from 1 to 3 in the afternoon": [("time", (60, 780)), ("time", (900,))],
        "between 10 and 11:30 am": [("time", (600,)), ("time", (690,))],
        "from 11 to 1 pm": [("time", (660,)), ("time", (780,))],
        "from 09:00 to 10 pm": [("time", (540,)), ("time", (1320,))],
        "from 1 to 3 people": [("number", (1.0,)), ("number", (3.0,))],
    }
    for text, want in spans.items():
        assert [(q.kind, q.values()) for q in extract_quantities(text)] == want, text
    day = {"event": "Open day", "start": "13:00", "end": "15:00", "visitors_expected": 40}
    v = _one(monitor, "The open day runs from 1 to 3 in the afternoon.", day)
    assert v.contradiction is None, v.contradiction


def test_a_key_word_belongs_to_the_figure_beside_it(monitor) -> None:
    quote = {"symbol": "NVDA", "price": 131.2, "market_cap_usd_bn": 3210, "currency": "USD"}
    v = _one(monitor, "NVDA trades at $131.20, for a market cap of $3,210 billion.", quote)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "NVDA has a market cap of $131.20.", quote), "record.market_cap_usd_bn")


def test_two_words_that_begin_alike_are_not_one_key(monitor) -> None:
    loan = {"title": "The Overstory", "due_date": "2026-12-14", "overdue": False}
    v = _one(monitor, "The Overstory is due back on December 14th.", loan)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "The Overstory is overdue.", loan), "record.overdue")


def test_a_scale_in_the_key_scales_its_figures(monitor) -> None:
    company = {"company": "Acme", "revenue_mn": 512, "employees": 1800}
    assert _one(monitor, "Acme's revenue is $512 million.", company).contradiction is None
    assert _one(monitor, "Acme's revenue is 512.", company).contradiction is None  # as written
    _names(_one(monitor, "Acme's revenue is $612 million.", company), "record.revenue_mn")


def test_a_number_written_with_a_number_sign_is_no_amount(monitor) -> None:
    pull = {"pr": 1289, "approvals": 1, "reviews_required": 2}
    v = _one(monitor, "PR #1289 has 1 of the 2 approvals it needs.", pull)
    assert v.contradiction is None, v.contradiction


def test_a_figure_another_field_holds_is_never_a_changed_value(monitor) -> None:
    stop = {"stop": "Main St", "route": "42", "next_arrivals_min": [3, 15, 27]}
    v = _one(monitor, "The next 42 bus at Main St comes in 3 minutes.", stop)
    assert v.contradiction is None, v.contradiction


def test_the_unit_said_after_a_stated_figure_is_the_records(monitor) -> None:
    laptop = {"model": "ZenBook 14", "ram_gb": 16, "weight_kg": 1.2}
    for reply in ("The ZenBook 14 has 16 gigs of RAM.", "The ZenBook 14 weighs 1.2 kilos."):
        v = _one(monitor, reply, laptop)
        assert v.grade is Grade.GROUNDED, v.reason


# Rules of the SGD fit half's error analysis (session 58): names, places, bare clocks, names by
# role, lists of offers, verbs in -ing. Hand-written records and sentences.
LODGE = {"hotel_name": "Harbour View Lodge", "street_address": "12 Quay Road, Kingsbridge",
         "star_rating": "3"}  # fmt: skip
GALA = {"event_name": "Spring Gala", "event_location": "Riverside Hall",
        "address_of_location": "200 Elm Street", "city_of_event": "Dover"}  # fmt: skip
NORDIC = {"airline": "Nordic Air", "outbound_departure_time": "07:15",
          "outbound_arrival_time": "10:40", "price": "120"}  # fmt: skip
PAPER_BOATS = {"song_name": "Paper Boats", "artist": "Mira Lenz", "album": "Low Tide"}
FILM = {"movie_name": "Quiet Harbor", "genre": "Drama"}
RAIN = {"precipitation": "30", "humidity": "60", "temperature": "70"}


def test_a_name_with_a_word_no_field_holds_is_another_name(monitor) -> None:
    v = _one(monitor, "Kingsbridge Grand Hotel is a lovely 3 star hotel.", LODGE)
    _names(v, "record.hotel_name")
    assert _one(monitor, "Harbour View Lodge is a 3 star hotel.", LODGE).grade is Grade.GROUNDED
    v = _one(monitor, "It's a 3 star place on Quay Road in Kingsbridge.", LODGE)
    assert v.contradiction is None, v.contradiction


def test_a_place_said_without_a_figure_is_no_street_address(monitor) -> None:
    v = _one(monitor, "The Spring Gala is at the Granary Theatre on May 3rd.", GALA)
    _names(v, "record.event_location")
    _names(_one(monitor, "The Spring Gala is at Dover Granary Theatre.", GALA),
           "record.event_location")  # fmt: skip
    for reply in ("The Spring Gala is at 200 Elm Street.", "The Spring Gala is at Riverside Hall."):
        assert _one(monitor, reply, GALA).contradiction is None, reply
    rental = {"pickup_location": "14th Avenue Depot", "car_name": "Fiesta"}
    _names(_one(monitor, "Your Fiesta is ready at Northgate Terminal.", rental),
           "record.pickup_location")  # fmt: skip


def test_a_trips_one_clock_tied_to_no_key_word_is_when_it_starts(monitor) -> None:
    _names(_one(monitor, "There's a 9:05 am with no stops for $120.", NORDIC),
           "record.outbound_departure_time")  # fmt: skip
    assert _one(monitor, "There's a 7:15 am for $120.", NORDIC).contradiction is None
    assert _one(monitor, "There's one around 9 am.", NORDIC).contradiction is None  # hedged
    hotel = {"hotel_name": "Harbour Inn", "checkin_time": "15:00", "checkout_time": "11:00"}
    v = _one(monitor, "The gym at Harbour Inn is open until 10 pm.", hotel)
    assert v.contradiction is None, v.contradiction


def test_a_name_after_by_is_the_maker_and_a_names_head_word_its_field(monitor) -> None:
    _names(_one(monitor, "How about Paper Boats by Jonas Hale?", PAPER_BOATS), "record.artist")
    assert _one(monitor, "How about Paper Boats by Mira Lenz?", PAPER_BOATS).contradiction is None
    v = _one(monitor, "Paper Boats was recorded by the river.", PAPER_BOATS)
    assert v.contradiction is None, v.contradiction
    flight = {"airline": "Northwind Air", "departure_time": "06:00"}
    _names(_one(monitor, "I found a Bluejay Airlines flight at 6 am.", flight), "record.airline")


def test_names_offered_beside_the_results_name_are_offers(monitor) -> None:
    v = _one(monitor, "I found Quiet Harbor, Night Train, and The Glass Key.", FILM)
    assert v.grade is Grade.INFERRED, v.reason


def test_a_verb_in_ing_finds_the_field_its_noun_names(monitor) -> None:
    _names(_one(monitor, "There is a 45 percent chance of it raining.", RAIN),
           "record.precipitation")  # fmt: skip
    v = _one(monitor, "There is a 30 percent chance of raining.", RAIN)
    assert v.contradiction is None, v.contradiction


def test_a_time_zone_offset_is_no_clock_and_no_number() -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities

    found = [(q.kind, q.value) for q in extract_quantities("ends 2024-08-03T13:41:00+02:00.")]
    assert found == [("date", 20240803), ("time", 821)]
    found = [(q.kind, q.value) for q in extract_quantities("at 17:45 (+01:00) and 21:05:40-05:00")]
    assert found == [("time", 1065), ("time", 1265)]
    assert [q.value for q in extract_quantities("open 11:00-21:00")] == [660, 1260]


def test_a_yes_no_literal_after_a_key_is_read_as_the_record_writes_it(monitor) -> None:
    sensor = {"device": "Hall sensor", "online": False, "battery_pct": 71}
    assert _one(monitor, "Hall sensor: online false.", sensor).contradiction is None
    _names(_one(monitor, "Hall sensor: online true.", sensor), "record.online")
    room = {"room": "Garden Room", "pets_allowed": "N"}
    assert _one(monitor, "Garden Room, pets allowed: no.", room).contradiction is None


def test_cents_and_pence_are_money() -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities

    read = [(q.kind, q.value) for q in extract_quantities("31 cents, 67p and 50 pence at 5 pm")]
    assert read == [("money", 0.31), ("money", 0.67), ("money", 0.5), ("time", 1020)]


def test_a_bare_dollar_sign_meets_any_dollar(monitor) -> None:
    clinic = {"clinic": "North Dental", "fee_aud": 60, "slots_left": 2}
    assert _one(monitor, "North Dental charges a fee of $60.", clinic).contradiction is None
    _names(_one(monitor, "North Dental charges a fee of $70.", clinic), "record.fee_aud")


def test_a_denied_key_is_no_slot_for_another_figure(monitor) -> None:
    session = {"station": "Quay 4", "total_cost_eur": 20.5, "idle_fee_eur": 0}
    v = _one(monitor, "Quay 4 cost €20.50 and there was no idle fee.", session)
    assert v.contradiction is None, v.contradiction


def test_a_clock_computed_from_a_duration_is_no_changed_clock(monitor) -> None:
    visit = {"clinic": "North Dental", "start": "09:15", "duration_min": 30}
    v = _one(monitor, "The North Dental visit lasts 30 minutes, so you'll be out by 9:45.", visit)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "The North Dental visit starts at 9:45.", visit), "record.start")


def test_an_hour_with_a_part_of_the_day_is_a_clock() -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities

    (q,) = extract_quantities("just after nine this evening")
    assert (q.kind, q.value, q.hedged) == ("time", 1260, True)
    (q,) = extract_quantities("at 7 in the morning")
    assert (q.kind, q.value, q.hedged) == ("time", 420, False)


def test_a_duration_is_no_value_of_a_field_of_another_measure(monitor) -> None:
    charge = {"station": "Quay 4", "price_per_kwh_eur": 0.4, "energy_kwh": 30}
    v = _one(monitor, "At Quay 4 it took 25 minutes to add 30 kWh.", charge)
    assert v.contradiction is None, v.contradiction


def test_a_keys_word_with_its_value_is_no_name(monitor) -> None:
    pull = {"pr": 1289, "title": "Fix cache eviction", "state": "open", "approvals": 1}
    v = _one(monitor, "PR #1289 has 1 approval.", pull)
    assert v.contradiction is None, v.contradiction


def test_a_resolution_is_no_amount_of_pence() -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities

    assert "money" not in [q.kind for q in extract_quantities("a 1080p display")]


def test_a_clock_said_as_half_past_or_a_quarter_to_is_a_clock_after_any_word() -> None:
    from langchain_qgate.grounding.checks.checks import extract_quantities

    read = [(q.kind, q.value) for q in extract_quantities("open from half past nine")]
    assert read == [("time", 570)]
    read = [(q.kind, q.value) for q in extract_quantities("Tuesday from a quarter to eight")]
    assert read == [("time", 465)]
    # "five to ten" may be a range: only after a word that sets a time
    assert [q.kind for q in extract_quantities("from five to ten people")] == ["number"] * 2


def test_a_key_function_word_does_not_name_its_field(monitor) -> None:
    # "at" of ``closesAt`` is in every clock's "at": the clock is another field's
    shop = {
        "store": "Quay Pharmacy",
        "readyAt": "2026-03-03T10:15:00+00:00",
        "collection": {"desk": "Counter 2", "closesAt": "18:00"},
    }
    v = _one(monitor, "Quay Pharmacy: collection at a quarter past ten.", shop)
    assert v.contradiction is None, v.contradiction
    _names(
        _one(monitor, "Quay Pharmacy collection closes at 7 pm.", shop),
        "record.collection.closesAt",
    )


def test_a_rate_keys_unit_is_no_unit_of_the_figure(monitor) -> None:
    van = {"van": "Transit Custom", "co2_g_per_km": 164, "seats": 3}
    v = _one(monitor, "The Transit Custom emits 164 g/km of CO2.", van)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "The Transit Custom emits 180 g/km of CO2.", van), "record.co2_g_per_km")


def test_a_literal_after_is_is_read_as_the_record_writes_it(monitor) -> None:
    invoice = {"invoice": "INV-204", "settled": False, "disputed": True}
    v = _one(monitor, "INV-204: settled is false and disputed is true.", invoice)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "INV-204: settled is true.", invoice), "record.settled")


def test_a_negation_in_a_condition_after_the_words_does_not_deny_them(monitor) -> None:
    cafe = {"cafe": "Dockside Deli", "has_terrace": True}
    v = _one(monitor, "Dockside Deli has a terrace if you don't want to sit inside.", cafe)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "Dockside Deli has no terrace.", cafe), "record.has_terrace")


def test_the_head_of_a_name_before_its_comma_names_its_list_item(monitor) -> None:
    stops = {
        "stops": [
            {"name": "Canal Basin, Northside", "bikes": 7},
            {"name": "Mill Road", "bikes": 0},
        ]
    }
    reply = "Mill Road is empty, but Canal Basin has 7 bikes."
    assert all(v.contradiction is None for v in _verdicts(monitor, reply, stops))
    _names(_one(monitor, "Canal Basin has 9 bikes.", stops), "stops[0].bikes")


def test_an_amount_including_a_keys_word_is_no_value_of_that_field(monitor) -> None:
    bill = {"account": "W-881", "net_gbp": 50.0, "vat_gbp": 10.0, "total_gbp": 60.0}
    v = _one(monitor, "Account W-881 owes about £60 including VAT.", bill)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "Account W-881 owes £14 of VAT.", bill), "record.vat_gbp")


def test_an_enum_value_after_its_key_is_read_as_the_record_writes_it(monitor) -> None:
    order = {"order": "SO-7731", "fulfilment_status": "PARTIALLY_SHIPPED", "carrier": "DPD"}
    v = _one(monitor, "Order SO-7731 has fulfilment status PARTIALLY_SHIPPED.", order)
    assert v.grade is Grade.GROUNDED, v.reason
    _names(_one(monitor, "Order SO-7731 has fulfilment status DELIVERED.", order),
           "record.fulfilment_status")  # fmt: skip
    _names(
        _one(monitor, "SO-7731: fulfilment_status is CANCELLED.", order), "record.fulfilment_status"
    )
    # an acronym next to no key word is no enum value of a field
    assert _one(monitor, "Order SO-7731 ships with DPD via UPS.", order).contradiction is None


def test_a_yes_no_field_outside_a_list_is_read_when_the_claim_says_its_key_words(monitor) -> None:
    account = {
        "member": "J. Osei",
        "loans": [{"title": "Dune", "overdue": True}, {"title": "Emma", "overdue": False}],
        "borrowing_suspended": False,
    }
    _names(_one(monitor, "Your borrowing is suspended.", account), "record.borrowing_suspended")
    assert _one(monitor, "Your borrowing isn't suspended.", account).grade is Grade.GROUNDED
    # a key word a list item shares ("overdue") says nothing of the record around the list
    assert _one(monitor, "Nothing is overdue.", account).contradiction is None


def test_a_yes_no_field_named_by_a_state_is_read_by_the_words_for_that_state(monitor) -> None:
    on_time = {"train": "IC 2214", "platform": "7", "delayed": False}
    late = {"train": "IC 2214", "platform": "7", "delayed": True}
    _names(_one(monitor, "Train IC 2214 is running late.", on_time), "record.delayed")
    _names(_one(monitor, "Train IC 2214 is on time.", late), "record.delayed")
    assert _one(monitor, "Train IC 2214 is running behind.", late).contradiction is None
    # another state where the field is false is neither stated nor a changed value
    assert _one(monitor, "Train IC 2214 has been cancelled.", on_time).contradiction is None


def test_another_kind_written_in_capitals_after_a_names_the_kind_field(monitor) -> None:
    clinic = {"clinic_name": "Elm Court Practice", "category": "Dental Surgery", "town": "Hexham"}
    v = _one(monitor, "Elm Court Practice is a Dental Surgery in Hexham.", clinic)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "Elm Court Practice is an Eye Clinic in Hexham.", clinic),
           "record.category")  # fmt: skip
    van = {"vehicle_name": "Transit", "type": "Long Wheelbase", "depot": "Kelso Yard"}
    _names(_one(monitor, "There's a Short Wheelbase van, a Transit, at Kelso Yard.", van),
           "record.type")  # fmt: skip
    # a capitalised word before a noun no key names is an attribute of that noun, not the kind
    gig = {"performer": "Ines Duarte", "category": "Music", "venue": "Corn Exchange"}
    reply = "I found a Portuguese singer named Ines Duarte at the Corn Exchange."
    assert all(v.contradiction is None for v in _verdicts(monitor, reply, gig))


def test_a_name_with_one_of_its_words_replaced_by_another_names_the_name_field(monitor) -> None:
    match = {"match_name": "Falcons Vs Otters", "ground": "Riverside Park", "date": "2024-06-08"}
    v = _one(monitor, "Falcons Vs Otters is at Riverside Park on June 8th.", match)
    assert v.contradiction is None, v.contradiction
    _names(_one(monitor, "Falcons Vs Herons is at Riverside Park on June 8th.", match),
           "record.match_name")  # fmt: skip
    # the name shortened, or with another field's value beside it, is no other name
    for reply in ("The Falcons play at Riverside Park on June 8th.",
                  "Falcons Vs Otters at Riverside Park is on June 8th."):  # fmt: skip
        assert all(v.contradiction is None for v in _verdicts(monitor, reply, match)), reply


def test_an_approximate_figure_is_read_to_the_step_it_is_rounded_to(monitor) -> None:
    forecast = {"town": "Alnwick", "temperature": "64", "humidity": "55", "wind": "9"}
    # "about 58" is rounded to no step: 6 off 64 is another figure, not an approximation
    _names(_one(monitor, "It will be about 58 degrees in Alnwick.", forecast),
           "record.temperature")  # fmt: skip
    # "around 60" is rounded to tens: 64 is within its step
    for reply in ("It will be around 60 degrees in Alnwick.",
                  "It will be about 64 degrees in Alnwick."):  # fmt: skip
        assert _one(monitor, reply, forecast).contradiction is None, reply


def test_runs_written_as_a_kind_never_overlap_so_the_scan_stays_linear(monitor) -> None:
    from langchain_qgate.grounding.records.fields import _kind_run

    # every "A" is an article and a capitalised word: one run, not one run per "A"
    assert len(_kind_run("It is " + "A " * 200 + "thing.")) == 1
    place = {"name": "Quay Hall", "type": "Concert Venue"}
    v = _one(monitor, "Quay Hall is " + "A " * 2000 + "Museum.", place)
    assert v.grade is Grade.FABRICATED


def test_a_misspelt_unit_after_a_figure_is_the_figures_unit(monitor) -> None:
    forecast = {"town": "Whitby", "temperature": "61", "precipitation": "30"}
    for reply in ("It will be 61 dergrees Farenheit in Whitby.",
                  "The average temperature in Whitby will be 61 degrees Fahrenheit."):  # fmt: skip
        assert _one(monitor, reply, forecast).grade is Grade.GROUNDED, reply
    # a changed figure is not the record's, whatever the spelling of its unit
    v = _one(monitor, "It will be 67 dergrees Farenheit in Whitby.", forecast)
    assert v.grade is Grade.FABRICATED, v.reason
    _names(_one(monitor, "It will be 67 degrees Fahrenheit in Whitby.", forecast),
           "record.temperature")  # fmt: skip


def test_a_joined_clause_stating_a_records_figure_is_about_that_field(monitor) -> None:
    forecast = {"town": "Whitby", "temperature": "61", "precipitation": "30"}
    reply = "Whitby should see 61 degrees, and with a chance of showers at 30 percent."
    assert _one(monitor, reply, forecast).grade is not Grade.FABRICATED
    # a joined clause of words alone that the record does not hold is still unsupported
    reply = "Whitby should see 61 degrees, and with a harbour that hosts a seafood festival."
    assert _one(monitor, reply, forecast).grade is Grade.FABRICATED


CAR_PARKS = {
    "car_parks": [
        {"name": "Quayside", "spaces_free": 40, "ev_charging": True},
        {"name": "Abbey Road", "spaces_free": 0, "ev_charging": False},
        {"name": "Mill Lane", "spaces_free": 12, "ev_charging": True},
        {"name": "Station", "spaces_free": 5, "ev_charging": False},
    ]
}


def test_a_count_of_results_is_read_against_the_items_the_named_yes_no_field_holds_for(
    monitor,
) -> None:
    for reply in ("Two of them have EV charging.", "Two of them don't have EV charging.",
                  "Two of the four have EV charging."):  # fmt: skip
        assert _one(monitor, reply, CAR_PARKS).grade is Grade.GROUNDED, reply
    # a wrong count is unsupported, never a changed value of an item's field
    v = _one(monitor, "Three of them have EV charging.", CAR_PARKS)
    assert v.grade is Grade.FABRICATED, v.reason
    assert v.contradiction is None, v.reason


def test_a_key_naming_an_absence_is_read_the_other_way(monitor) -> None:
    fares = {"fares": [{"code": "SAVER", "price_gbp": 42, "non_refundable": True},
                       {"code": "FLEX", "price_gbp": 88, "non_refundable": False}]}  # fmt: skip
    assert _one(monitor, "SAVER is non-refundable.", fares).grade is Grade.GROUNDED
    assert _one(monitor, "FLEX is refundable.", fares).grade is Grade.GROUNDED
    _names(_one(monitor, "SAVER is refundable.", fares), "fares[0].non_refundable")
    _names(_one(monitor, "FLEX is non-refundable.", fares), "fares[1].non_refundable")


def test_a_figure_worked_out_from_two_of_the_records_is_inferred_never_a_changed_value(
    monitor,
) -> None:
    match = {"home": "Harrow Hawks", "away": "Leyton Larks", "home_score": 88, "away_score": 71}
    v = _one(monitor, "The Hawks beat the Larks by 17 points, 88-71.", match)
    assert v.grade is Grade.INFERRED, v.reason
    assert v.contradiction is None, v.reason
    v = _one(monitor, "The Hawks beat the Larks by 13 points, 88-71.", match)
    assert v.grade is Grade.FABRICATED, v.reason
    ticket = {"event": "Harbour Lights", "price_gbp": 18.0, "booking_fee_gbp": 1.5}
    for reply in ("Three tickets would come to £54.",
                  "With the booking fee it comes to £19.50."):  # fmt: skip
        v = _one(monitor, reply, ticket)
        assert v.grade is not Grade.FABRICATED, reply
        assert v.contradiction is None, reply
    # two beds and one bath say "how many" of two things: 3 - 1 is no figure the reply means
    flat = {"address": "12 Quay St", "number_of_beds": 3, "number_of_baths": 1, "rent": 1450}
    _names(_one(monitor, "The flat at 12 Quay St has 2 beds.", flat), "record.number_of_beds")


def test_a_scoreline_states_both_scores_and_a_rank_is_a_value(monitor) -> None:
    match = {"home": {"team": "Bristol City", "score": 2}, "away": {"team": "Norwich", "score": 1}}
    assert _one(monitor, "Bristol City won 2-1.", match).grade is not Grade.FABRICATED
    for reply in ("Bristol City won 2-3.", "Bristol City won 2-1, moving up to fourth."):
        assert _one(monitor, reply, match).grade is Grade.FABRICATED, reply
    # hours are no scoreline: "10-6" is a span, its 6 is not a second value
    from langchain_qgate.grounding.records.fields import _claim_quantities

    assert [q.raw for q in _claim_quantities("The office is open 10-6.")] == ["10"]
    assert [q.raw for q in _claim_quantities("They won 3-1.")] == ["3", "1"]


def test_a_result_recommended_or_presented_by_its_values_is_checked(monitor) -> None:
    clinic = {"therapist_name": "Becker Hubert J", "type": "Psychiatrist", "city": "Redwood City"}
    # an opinion in prose is no claim; about a tool's result, its values are checked
    text = "I recommend Becker Hubert J, a Psychologist in Redwood City."
    assert [c.type for c in extract_claims(text)] == [ClaimType.OPINION]
    _names(_one(monitor, text, clinic), "record.type")
    _names(_one(monitor, "Here is a Psychologist, Becker Hubert J in Redwood City.", clinic),
           "record.type")  # fmt: skip
    v = _one(monitor, "I recommend Becker Hubert J, a psychiatrist in Redwood City.", clinic)
    assert v.grade is Grade.GROUNDED, v.reason
    # a liking with no name or figure stays an opinion, not checked
    verdicts = _verdicts(
        monitor, "Becker Hubert J is in Redwood City. You might like them.", clinic
    )
    assert [v.counted for v in verdicts] == [True, False]


PARCEL = {
    "tracking": "1Z-448-CX",
    "carrier": {"name": "Parcelia", "depot": "Leeds North"},
    "shipment": {"weight_kg": 3.2, "distance_km": 412, "transit_days": 2},
    "charges": {"postage_gbp": 7.4, "insurance_gbp": 1.5},
    "collected_at": "2026-11-30T09:15:00+00:00",
    "events": [
        {"at": "2026-11-30T09:15:00+00:00", "place": "Leeds North", "status": "COLLECTED"},
        {"at": "2026-11-30T18:40:00+00:00", "place": "Crewe Hub", "status": "IN_TRANSIT"},
    ],
}


def test_a_changed_value_of_a_nested_objects_field_is_named(monitor) -> None:
    # a field outside every list has one path: its key word, unit or type names it
    for reply in ("Your parcel weighs 3.2 kg and is travelling 412 km.",
                  "The insurance costs £1.50 on top of £7.40 postage."):  # fmt: skip
        verdicts = _verdicts(monitor, reply, PARCEL)
        assert verdicts, reply
        assert all(v.grade is not Grade.FABRICATED for v in verdicts), reply
    _names(_one(monitor, "Your parcel weighs 4.2 kg.", PARCEL), "record.shipment.weight_kg")
    _names(_one(monitor, "The insurance costs £2.50.", PARCEL), "record.charges.insurance_gbp")
    _names(_one(monitor, "It was collected at half past ten.", PARCEL), "record.collected_at")


def test_a_figures_unit_picks_its_field_among_those_the_claims_words_name(monitor) -> None:
    # "km" names the distance, not the days beside it in the claim
    v = _one(monitor, "It has 512 km to go in 2 days.", PARCEL)
    _names(v, "record.shipment.distance_km")
    assert v.contradiction.claim_value.startswith("512")
    v = _one(monitor, "It has 412 km to go in 3 days.", PARCEL)
    assert v.contradiction is None or v.contradiction.field != "record.shipment.distance_km"


def test_a_nested_field_the_claim_does_not_tie_to_its_figure_is_never_contradicted(
    monitor,
) -> None:
    # no key word, unit or type of the field beside the figure: unsupported, not named
    v = _one(monitor, "Parcelia handles 5 parcels for you this week.", PARCEL)
    assert v.contradiction is None, v.reason
    # a figure measured from another time is worked out, not the field's own
    v = _one(monitor, "It reached Crewe Hub 9 hours after it was collected.", PARCEL)
    assert v.contradiction is None, v.reason
    # an amount of money is no length of time, whatever the record's currency
    rental = {"currency": "USD", "rentalDays": 3, "car": {"model": "Kia Rio", "totalUsd": 124.5}}
    v = _one(monitor, "The Kia Rio comes to $124.50 for the whole rental.", rental)
    assert v.contradiction is None, v.reason


YOGA = {"class": "Yin Yoga", "studio": "Studio 1", "start": "2026-12-03T19:45:00+00:00"}


def test_a_part_of_the_day_beside_a_clock_is_the_clocks(monitor) -> None:
    # "in the evening" is how the clock was read: no word of a fact the record lacks
    for reply in ("Yin Yoga starts at quarter to eight in the evening.",
                  "Yin Yoga starts at 7:45 this evening.",
                  "Yin Yoga is on Thursday evening at 7:45.",
                  "Yin Yoga starts at 7:45."):  # fmt: skip
        v = _one(monitor, reply, YOGA)
        assert v.grade is Grade.GROUNDED, (reply, v.reason)
    _names(_one(monitor, "Yin Yoga starts at 7:45 in the morning.", YOGA), "record.start")


def test_a_records_datetime_copied_into_the_reply_is_its_value(monitor) -> None:
    v = _one(monitor, "Yin Yoga starts 2026-12-03T19:45:00+00:00.", YOGA)
    assert v.grade is Grade.GROUNDED, v.reason
    _names(_one(monitor, "Yin Yoga starts 2026-12-03T18:45:00+00:00.", YOGA), "record.start")


CHARGERS = {"results": [
    {"name": "Park Lane Hub", "powerKw": 50, "available": 1, "total": 2, "pricePerKwhGbp": 0.69},
    {"name": "Vauxhall Yard", "powerKw": 150, "available": 3, "total": 4, "pricePerKwhGbp": 0.79},
]}  # fmt: skip


def test_a_field_a_record_leaves_without_its_currency_holds_no_money(monitor) -> None:
    # the record marks its amounts ("...Gbp"): "total" (bays) is a count, never an amount
    v = _one(monitor, "Park Lane Hub charges 69p per kWh and has 2 bays in total.", CHARGERS)
    assert v.contradiction is None, v.reason
    v = _one(monitor, "Park Lane Hub charges 75p per kWh.", CHARGERS)
    _names(v, "results[0].pricePerKwhGbp")
    v = _one(monitor, "Park Lane Hub charges 69p per kWh, 72p at peak times.", CHARGERS)
    assert v.contradiction is None or "total" not in (v.contradiction.field or ""), v.reason


LOANS = {"loans": [
    {"title": "The Overstory", "due_date": "2026-12-07", "overdue": False},
    {"title": "Piranesi", "due_date": "2026-11-26", "overdue": True},
    {"title": "Paddington 2", "due_date": "2026-12-02", "overdue": False},
]}  # fmt: skip


def test_a_yes_no_value_in_a_clause_picking_part_of_a_list_is_not_the_named_items(
    monitor,
) -> None:
    v = _verdicts(monitor, "Of the ones that aren't overdue, Paddington 2 is due first.", LOANS)
    assert all(x.contradiction is None for x in v), [x.reason for x in v]
    v = _verdicts(monitor, "Piranesi, of the ones that aren't overdue, is due first.", LOANS)
    assert all(x.contradiction is None for x in v), [x.reason for x in v]
    # said of the named item itself, it is still read
    _names(_one(monitor, "Piranesi isn't overdue.", LOANS), "loans[1].overdue")


CROSSING = {
    "sailing": {"departs": "2025-06-27T14:10:00+01:00", "duration": "PT3H15M", "vessel": "Yeats"},
    "bags_allowed": 2,
}


def test_an_iso_duration_is_read_as_the_length_of_time_a_reply_says(monitor) -> None:
    for reply in ("The crossing takes 3 hours 15 minutes.", "The crossing takes 195 minutes.",
                  "The crossing lasts about 3 hours."):  # fmt: skip
        v = _one(monitor, reply, CROSSING)
        assert v.grade is not Grade.FABRICATED, (reply, v.reason)
    v = _one(monitor, "The crossing takes 4 hours 15 minutes.", CROSSING)
    _names(v, "record.sailing.duration")
    assert v.contradiction.claim_value == "4 hours 15 minutes"  # read as 255 minutes
    # a figure of no length of time is never the duration's ("take 3 bags")
    _names(_one(monitor, "You can take 3 bags on the crossing.", CROSSING), "record.bags_allowed")
    # a reply that copies the record's duration as the record writes it
    assert _one(monitor, "The sailing's duration is PT3H15M.", CROSSING).grade is Grade.GROUNDED


DEVICES = {"devices": [
    {"name": "Front Door Lock", "online": True, "state": {"locked": False, "battery_pct": 18}},
    {"name": "Garage Camera", "online": False, "state": None},
]}  # fmt: skip


def test_a_yes_no_key_with_a_prefix_that_denies_it_is_read_the_other_way(monitor) -> None:
    # "unlocked" of ``locked``, "offline" of ``online``; a container such as ``state`` is no
    # part of the key's meaning, and "Lock" of the record's name names no field
    for reply in ("The Front Door Lock is unlocked.", "The Garage Camera is offline.",
                  "Front Door Lock: locked false, battery 18%."):  # fmt: skip
        assert _one(monitor, reply, DEVICES).grade is Grade.GROUNDED, reply
    _names(_one(monitor, "The Front Door Lock is locked.", DEVICES), "devices[0].state.locked")
    _names(_one(monitor, "The Front Door Lock isn't unlocked.", DEVICES),
           "devices[0].state.locked")  # fmt: skip
    _names(_one(monitor, "The Front Door Lock is offline.", DEVICES), "devices[0].online")


HARBOUR = {"hotel": "Harbour Inn", "breakfast_included": False, "smoking_allowed": False,
       "parking_included": True}  # fmt: skip


def test_a_word_opposite_to_a_keys_predicate_says_the_field_is_false(monitor) -> None:
    # "extra" of ``breakfast_included``, "banned" of ``smoking_allowed``, after the key's thing
    for reply in ("Breakfast costs extra.", "Breakfast is charged separately.",
                  "Smoking is strictly prohibited.", "Parking isn't extra."):  # fmt: skip
        assert _one(monitor, reply, HARBOUR).grade is Grade.GROUNDED, reply
    _names(_one(monitor, "Parking costs extra.", HARBOUR), "record.parking_included")
    _names(_one(monitor, "Breakfast isn't extra.", HARBOUR), "record.breakfast_included")
    # the word of another thing after a conjunction says nothing of the field
    v = _one(monitor, "Parking and extra towels are included.", HARBOUR)
    assert v.contradiction is None, v.reason


def test_the_whole_of_a_part_the_claim_states_is_a_field_of_its_record(monitor) -> None:
    # "1 of 2 available": the 2 is the record's total, not another field's changed value
    hub = {"name": "Park Lane Hub", "distanceKm": 4.6, "powerKw": 50, "available": 1, "total": 8,
           "pricePerKwhGbp": 0.67}  # fmt: skip
    reply = "Park Lane Hub: 4.6 km, 50 kW, 1 of 8 available, £0.67/kWh."
    assert _one(monitor, reply, hub).grade is Grade.GROUNDED
    v = _one(monitor, "Park Lane Hub: 4.6 km, 1 of 3 available.", hub)
    assert v.grade is Grade.FABRICATED, v.reason
    assert v.contradiction is None, v.reason
    _names(_one(monitor, "Park Lane Hub: 50 kW, 2 of 8 available.", hub), "record.available")


def test_a_capitalised_word_joined_to_a_lower_case_one_is_no_other_name(monitor) -> None:
    # "Apache-licensed" says what the package is, not another name for it
    package = {"package": {"name": "requests", "license": "Apache-2.0", "requires_python": ">=3.8"}}
    v = _one(monitor, "It's Apache-licensed and needs Python 3.8 or newer.", package)
    assert v.contradiction is None, v.reason
    # another name put where the reply names its result is still one
    _names(_one(monitor, "Flask is licensed under Apache-2.0.", package), "package.name")


def test_a_clock_said_as_an_approximation_is_no_changed_value(monitor) -> None:
    train = {"train": "ICE 578", "departs": "08:04", "arrives": "12:02", "platform": "7"}
    # "just after noon" of 12:02: no exact time, never contradicted
    v = _one(monitor, "ICE 578 gets into Munich just after noon.", train)
    assert v.contradiction is None, v.reason
    # said exactly, another time is still named
    _names(_one(monitor, "ICE 578 arrives at 12:40.", train), "record.arrives")
