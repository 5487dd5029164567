"""Issue 24: people's descriptions of a record, read field by field.

Hand-written sentences (not taken from any dataset) in the ways people describe a listing:
camel-case keys said in words, a place after a landmark, a negation that belongs to a
"kid friendly" compound, "British food", a landmark's name misspelt by one letter, and the
verbs of selling. The field matcher decides these claims, so a hashing embedder and no pair
model give the same decisions as the shipped models.
"""

from __future__ import annotations

import json

import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.evidence.structured import field_view, field_words
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.records.fields import _one_letter_apart

HERON = {
    "name": "The Blue Heron",
    "eatType": "pub",
    "food": "Italian",
    "priceRange": "moderate",
    "customerRating": "high",
    "area": "city centre",
    "familyFriendly": False,
    "near": "Grafton Bridge Market",
}


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return HallucinationMonitor(embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model=None))


def _verdict(monitor: HallucinationMonitor, claim: str, **changes: object) -> tuple[str, str]:
    record = {k: v for k, v in {**HERON, **changes}.items() if v is not None}
    report = monitor.verify_grounding(claim, json.dumps(record))
    assert len(report.verdicts) == 1, [v.claim.text for v in report.verdicts]
    v = report.verdicts[0]
    return v.grade.value, v.reason


def test_a_field_is_matched_by_its_key_in_words() -> None:
    assert field_words("record.customerRating") == "customer rating"
    assert field_words("listing.attributes.OutdoorSeating") == "attributes outdoor seating"
    assert field_words("rows[0].price_range") == "price range"
    index = EvidenceIndex(json.dumps(HERON), embedder=HashingEmbedder())
    views = dict(zip([c.id for c in index.chunks], index.views, strict=True))
    assert views["record.customerRating"] == "customer rating: high"
    assert views["record.familyFriendly"] == "family friendly: false"
    k = [c.id for c in index.chunks].index("record.customerRating")
    assert index.stems(k) == {"customer", "rate", "high"}  # "customer rating" matches it
    assert index.chunks[k].text == "record.customerRating: high"  # what is quoted is unchanged
    assert field_view(index.chunks[k]) == "customer rating: high"
    prose = EvidenceIndex(["The Blue Heron is a pub."], embedder=HashingEmbedder())
    assert field_view(prose.chunks[0]) is None


@pytest.mark.parametrize(
    ("claim", "changes", "grade", "reason"),
    [
        # a place after a landmark: "near X in the city centre" places it in the city centre
        ("The Blue Heron sits near the Grafton Bridge Market in the city centre.", {},
         "grounded", "supported by record.area"),
        ("The Blue Heron sits near the Grafton Bridge Market in the city centre.",
         {"area": "riverside"}, "fabricated", "`record.area` says riverside, not city centre"),
        # a relation still says where it is not: no contradiction
        ("The Blue Heron is north of the city centre.", {"area": "riverside"}, None, ""),
        ("The Blue Heron is on the edge of the city centre.", {"area": "riverside"}, None, ""),
        # ... and outside one area of two is in the other
        ("The Blue Heron is on the outskirts of the city centre.", {"area": "riverside"},
         "grounded", "supported by record.area"),
        ("The Blue Heron is away from the city centre.", {"area": "riverside"}, "grounded",
         "supported by record.area"),
        ("The Blue Heron is outside the city centre.", {}, None, ""),
        # "not" before "kid friendly" governs the compound, not the cuisine or the venue
        ("The Blue Heron is not a kid friendly Italian pub.", {}, "grounded", "supported by"),
        ("The Blue Heron is not a kid friendly French pub.", {}, "fabricated",
         "`record.food` says Italian, not French"),
        ("The Blue Heron is a kid friendly Italian pub.", {}, "fabricated",
         "`record.familyFriendly` says false, not true"),
        # ... and after the place, "is not family-friendly" is about families, not the place
        ("The Blue Heron pub in the city centre is not family-friendly.", {}, "grounded",
         "supported by"),
        ("The Blue Heron pub in the city centre is not family-friendly.",
         {"familyFriendly": True}, "fabricated", "`record.familyFriendly` says true, not false"),
        # a negation typed without its apostrophe is the negation, and says the field
        ("The Blue Heron isnt family friendly.", {}, "grounded", "supported by"),
        ("The Blue Heron isn't family friendly.", {}, "grounded", "supported by"),
        ("The Blue Heron isnt family friendly.", {"familyFriendly": True}, "fabricated",
         "`record.familyFriendly` says true, not false"),
        ("The Blue Heron doesnt welcome kids.", {}, "grounded", "supported by"),
        # British food is English food; it is not Italian food
        ("The Blue Heron is a pub serving British food.", {"food": "English"}, "grounded",
         "supported by"),
        ("The Blue Heron is a pub serving British food.", {}, "fabricated",
         "`record.food` says Italian, not British"),
        # the verbs of selling and a writer's asides are filler
        ("The Blue Heron is a pub selling Italian food.", {}, "grounded", "supported by"),
        ("Unfortunately The Blue Heron is not a family friendly environment.", {}, "grounded",
         "supported by record.familyFriendly"),
        # a landmark's name misspelt by one letter is still that landmark; two letters are not
        ("The Blue Heron is near the Grafton Bridge Markt.", {}, "grounded",
         "supported by record.near"),
        ("The Blue Heron is near the Grafton Brdge Markt.", {}, None, ""),
        # children allowed or not, a place "for kids": the family-friendly field
        ("Children are not allowed at The Blue Heron.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("Children are not allowed at The Blue Heron.", {"familyFriendly": True}, "fabricated",
         "`record.familyFriendly` says true, not false"),
        ("The Blue Heron is a pub for the whole family.", {}, "fabricated",
         "`record.familyFriendly` says false, not true"),
        ("The Blue Heron is a pub for the whole family.", {"familyFriendly": True}, "grounded",
         "supported by"),
        ("The Blue Heron is not for kids.", {}, "grounded", "supported by record.familyFriendly"),
        ("The Blue Heron is unsuitable for kids.", {}, "grounded",
         "supported by record.familyFriendly"),  # a negation inside the word
        # "for kids" after other words says nothing of the field: never a contradiction
        ("The Blue Heron is too loud for kids.", {}, None, ""),
        # every rating word next to the band is the rating's ("customer reviews")
        ("The Blue Heron has excellent customer reviews.", {}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron has poor customer reviews.", {}, "fabricated",
         "`record.customerRating` says high, not poor"),
        # a price band next to "priced" is the price's, even where the rating has that word
        ("The Blue Heron is an average priced pub.", {"priceRange": None,
         "customerRating": "average"}, None, ""),
        ("The Blue Heron has an average rating.", {"priceRange": None,
         "customerRating": "average"}, "grounded", "supported by record.customerRating"),
        # a second kind of venue is an addition, not a contradiction
        ("The Blue Heron is a pub and restaurant.", {}, None, ""),
        ("The Blue Heron is a pub and coffee shop.", {}, None, ""),
        ("The Blue Heron is a pub.", {}, "grounded", "supported by record.eatType"),
        # "restaurant" says what kind of place it is where the record does not ...
        ("The Blue Heron is a restaurant in the city centre.", {"eatType": None, "food": None},
         None, ""),
        # ... and is the general word where the record says what it serves
        ("The Blue Heron is an Italian restaurant in the city centre.", {"eatType": None},
         "grounded", "supported by"),
        # a rating out of five in words, "of five", in stars
        ("The Blue Heron has a customer rating of five out of five.", {}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron is rated 5 of 5.", {}, "grounded", "supported by record.customerRating"),
        ("The Blue Heron is a five star pub.", {}, "grounded", "supported by"),
        ("The Blue Heron is a five-star pub.", {}, "grounded", "supported by"),
        ("The Blue Heron is a one-star pub.", {}, "fabricated",
         "`record.customerRating` says high, not one-star"),
        ("The Blue Heron is rated three out of five.", {"customerRating": "3 out of 5"},
         "grounded", "supported by record.customerRating"),
        ("The Blue Heron is moderately rated.", {"customerRating": "average"}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron is moderately rated.", {}, None, ""),  # a neighbouring band
        ("The Blue Heron has an average costumer rating.", {"customerRating": "average"},
         "grounded", "supported by record.customerRating"),
        # a price band with figures is said in words too
        ("The Blue Heron is a mid-priced pub.", {"priceRange": "£20-25"}, "grounded",
         "supported by"),
        ("The Blue Heron is an expensive pub.", {"priceRange": "less than £20"}, "fabricated",
         "`record.priceRange` says less than £20, not expensive"),
        ("The Blue Heron is a cheap pub.", {"priceRange": "£20-25"}, None, ""),
        # near the river is by the river: the riverside, never another area's contradiction
        ("The Blue Heron is near the riverside.", {"area": "riverside"}, "grounded",
         "supported by record.area"),
        ("The Blue Heron is near the riverside.", {}, None, ""),
        ("The Blue Heron has a perfect customer rating.", {}, "grounded",
         "supported by record.customerRating"),
        # "served", "within": filler
        ("Italian food is served at The Blue Heron.", {}, "grounded", "supported by record.food"),
        ("The Blue Heron is located within the city centre.", {}, "grounded",
         "supported by record.area"),
        # fourth round. A bound that faces the other way is not the field's bound
        ("The Blue Heron costs under £30.", {"priceRange": "more than £30"}, None, ""),
        ("The Blue Heron costs over £20.", {"priceRange": "less than £20"}, None, ""),
        ("The Blue Heron has a £30 minimum.", {"priceRange": "more than £30"}, "grounded",
         "supported by record.priceRange"),
        ("Prices at The Blue Heron vary between £20 and £25.", {"priceRange": "£20-25"},
         "grounded", "supported by record.priceRange"),
        ("The Blue Heron charges less than 20 pounds.", {"priceRange": "less than £20"},
         "grounded", "supported by record.priceRange"),
        # "highly priced", "higher priced": the top band; "more than the average" compares
        ("The Blue Heron is a highly priced pub.", {"priceRange": "high"}, "grounded",
         "supported by"),
        ("The Blue Heron is a highly priced pub.", {"priceRange": "cheap"}, "fabricated",
         "`record.priceRange` says cheap, not highly"),
        ("The Blue Heron is highly rated.", {"priceRange": "cheap"}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron costs more than the average pub.", {"priceRange": "high"}, None, ""),
        # a band word is the band of the nearest anchor ("price range" and "customer rating")
        ("Prices are in the high range at The Blue Heron.", {"priceRange": "high",
         "customerRating": "low"}, "grounded", "supported by record.priceRange"),
        ("Prices are in the high range at The Blue Heron.", {"priceRange": "cheap"},
         "fabricated", "`record.priceRange` says cheap, not high"),
        ("The Blue Heron has a cheap price range and an average customer rating.",
         {"priceRange": "cheap", "customerRating": "average"}, "grounded", "supported by"),
        ("The Blue Heron has an average price range and a low customer rating.",
         {"priceRange": "less than £20", "customerRating": "low"}, None, ""),
        # by the river in other words: the riverside; close to another area: unsupported
        ("The Blue Heron is a pub beside the river.", {"area": "riverside"}, "grounded",
         "supported by"),
        ("The Blue Heron is a pub beside the river.", {}, None, ""),
        ("The Blue Heron is close to the city centre.", {"area": "riverside"}, None, ""),
        # the family field said in other ways, in both polarities
        ("The Blue Heron is not a place to bring children.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron is not a place to bring children.", {"familyFriendly": True},
         "fabricated", "`record.familyFriendly` says true, not false"),
        ("The Blue Heron is a good place to bring the kids.", {}, "fabricated",
         "`record.familyFriendly` says false, not true"),
        ("The Blue Heron is a family unfriendly pub.", {}, "grounded", "supported by"),
        ("The Blue Heron is a family unfriendly pub.", {"familyFriendly": True}, "fabricated",
         "`record.familyFriendly` says true, not false"),
        ("The Blue Heron is not family oriented.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("No children at The Blue Heron.", {}, "grounded", "supported by record.familyFriendly"),
        ("No children at The Blue Heron.", {"familyFriendly": True}, "fabricated",
         "`record.familyFriendly` says true, not false"),
        # ... who goes is not whom the place admits: never the field's denial
        ("The Blue Heron is perfect for couples with no children.", {"familyFriendly": True},
         None, ""),
        ("For a night out without the kids, try The Blue Heron.", {"familyFriendly": True},
         None, ""),
        ("The Blue Heron is a pub for the entire family.", {"familyFriendly": True},
         "grounded", "supported by"),
        # ... but a denied kids' menu or family area is not the field's denial
        ("The Blue Heron has no kids menu.", {"familyFriendly": True}, None, ""),
        ("There is no family area at The Blue Heron.", {"familyFriendly": True}, None, ""),
        # a rating out of five written loosely
        ("The Blue Heron has a customer rating of 3.", {"customerRating": "3 out of 5"},
         "grounded", "supported by record.customerRating"),
        ("The Blue Heron is rated 3 out 5.", {"customerRating": "3 out of 5"}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron is rated one out of a possible five.", {"customerRating": "1 out of 5"},
         "grounded", "supported by record.customerRating"),
        ("The Blue Heron is rated one out of a possible five.", {}, "fabricated", ""),
        # a speaker's judgement, a word to the reader, a misspelt filler word: not a new fact
        ("The Blue Heron serves delicious, authentic Italian food.", {}, "grounded",
         "supported by record.food"),
        ("Please note that The Blue Heron is not kid friendly.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron is situatd in the city centre.", {}, "grounded",
         "supported by record.area"),
        # ... but a real word one letter from a filler word is its own word
        ("The Blue Heron in the city centre is closed.", {}, None, ""),
        ("The Blue Heron is close to the Grafton Bridge Market.", {}, "grounded",
         "supported by record.near"),
        ("The Blue Heron is a coffee shop style eatery.", {"eatType": "coffee shop"},
         "grounded", "supported by record.eatType"),
        ("The Blue Heron is a great place to grab coffee.", {"eatType": "coffee shop"},
         "grounded", "supported by"),
        # ... while a fact the record lacks is still an addition
        ("The Blue Heron serves delicious Italian food at a pub with a garden.", {}, None, ""),
        ("The Blue Heron serves Italian breakfast.", {}, None, ""),
        ("The Blue Heron is a pub with a dedicated play area.", {"familyFriendly": True}, None,
         ""),
        ("The Blue Heron is a child friendly pub.", {"familyFriendly": None}, None, ""),
        ("The Blue Heron is a child friendly pub.", {"familyFriendly": True}, "grounded",
         "supported by"),
        # a bound on a band's figure: "under £20" is outside "£20-25", "under £25" its top
        ("The Blue Heron serves meals for under £20.", {"priceRange": "£20-25"}, None, ""),
        ("The Blue Heron serves meals for under £25.", {"priceRange": "£20-25"}, "grounded",
         "supported by record.priceRange"),
        # a band denied: true of every other band, never the field's own
        ("The Blue Heron isn't cheap.", {"priceRange": "high"}, "grounded",
         "supported by record.priceRange"),
        ("The Blue Heron isn't cheap.", {"priceRange": "cheap"}, None, ""),
        ("The Blue Heron is an upscale pub.", {"priceRange": "high"}, "grounded", "supported by"),
        ("The Blue Heron is an upscale pub.", {"priceRange": "cheap"}, "fabricated",
         "`record.priceRange` says cheap, not upscale"),
        ("The Blue Heron is well reviewed.", {}, "grounded", "supported by record.customerRating"),
        ("The Blue Heron is rated 3/5.", {"customerRating": "3 out of 5"}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron is rated 1/5.", {"customerRating": "5 out of 5"}, None, ""),
        # a place after a comma is not in the relation before it ("Near X, by the river")
        ("Near Grafton Bridge Market, by the river, is The Blue Heron.",
         {"area": "riverside"}, "grounded", "supported by record.area"),
        ("Near Grafton Bridge Market, by the river, is The Blue Heron.", {}, None, ""),
        ("The Blue Heron is by the river.", {}, None, ""),  # a city centre may lie on a river
        # "our of": a typo of "out of" in a rating
        ("The Blue Heron has a 3 our of 5 customer rating.", {"customerRating": "3 out of 5"},
         "grounded", "supported by record.customerRating"),
        ("The Blue Heron has a 1 our of 5 customer rating.", {"customerRating": "3 out of 5"},
         None, ""),
        # "medium" is the middle price band next to its anchor
        ("The Blue Heron has a medium price range.", {}, "grounded",
         "supported by record.priceRange"),
        ("The Blue Heron has a medium price range.", {"priceRange": "high"}, None, ""),
        # a field of the record named as the subject of another field's statement
        ("The customer rating is not child friendly.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("The price range is kid friendly.", {"familyFriendly": True}, "grounded",
         "supported by record.familyFriendly"),
        ("The price range is kid friendly.", {}, "fabricated",
         "`record.familyFriendly` says false"),
        # a field of one value: denying another value is true, denying its own contradicts
        ("The Blue Heron isn't in the city centre but on the riverside.",
         {"area": "riverside"}, "grounded", "supported by record.area"),
        ("The Blue Heron is not an Italian pub.", {}, "fabricated",
         "`record.food` says Italian, which the claim denies: 'not an Italian'"),
        ("The Blue Heron isn't in the city centre.", {}, "fabricated",
         "`record.area` says city centre, which the claim denies"),
        # "not too dear, fine for the kids": the negation ends at the comma
        ("The Blue Heron is not too dear, fine for the kids.", {"familyFriendly": True}, None,
         ""),
        # people's words and forms for a field's value
        ("The Blue Heron is a public house in the city centre.", {}, "grounded", "supported by"),
        ("The Blue Heron has a one-star rating out of five.", {"customerRating": "1 out of 5"},
         "grounded", "supported by record.customerRating"),
        ("The Blue Heron is rated 1 outta 5.", {"customerRating": "1 out of 5"}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron costs twenty to twenty-five quid.", {"priceRange": "£20-25"},
         "grounded", "supported by record.priceRange"),
        ("The Blue Heron has middling prices.", {}, "grounded", "supported by record.priceRange"),
        ("The Blue Heron is nr Grafton Bridge Market.", {}, "grounded",
         "supported by record.near"),
        ("The Blue Heron is on the riverbank.", {"area": "riverside"}, "grounded",
         "supported by record.area"),
        # a band said in words and with its figure: both are the field's
        ("The Blue Heron is cheap, with prices under £20.", {"priceRange": "less than £20"},
         "grounded", "supported by record.priceRange"),
        ("The Blue Heron is inexpensive at under £20.", {"priceRange": "less than £20"},
         "grounded", "supported by record.priceRange"),
        ("The Blue Heron is expensive, with prices under £20.",
         {"priceRange": "less than £20"}, None, ""),
        # a figure of the record's name is no value ("Le Petit Four")
        ("Le Petit Four is an Italian pub.", {"name": "Le Petit Four"}, "grounded",
         "supported by"),
        # places as learners and text messages write them
        ("The Blue Heron is by river.", {"area": "riverside"}, "grounded",
         "supported by record.area"),
        ("The Blue Heron is in centre of city.", {}, "grounded", "supported by record.area"),
        ("The Blue Heron is a pub doing Italian food.", {}, "grounded", "supported by"),
        # a field's head noun as the subject; a negation ends at a new clause ("and it's")
        ("The rating is not kid friendly.", {}, "grounded", "supported by record.familyFriendly"),
        ("The Blue Heron does not allow children and it's a 5 star pub.", {}, "grounded",
         "supported by"),
        # a dash or a bracket sets a phrase apart as a comma does
        ("The Blue Heron isn't in the city centre \u2014 it's a pub by the river.",
         {"area": "riverside"}, "grounded", "supported by"),
        ("The Blue Heron (a pub in the city centre) isn't really for children.", {},
         "grounded", "supported by"),
        # a negation after the value with a predicate of its own ("... is not suitable")
        ("The Blue Heron, with a high rating is not suitable for children.", {}, "grounded",
         "supported by"),
        # the value denied after it ("Italian food is not served") is the field's denial
        ("Italian food is not served at The Blue Heron.", {}, "fabricated",
         "`record.food` says Italian, which the claim denies: 'Italian food is not served'"),
        ("Italian isnt on the menu at The Blue Heron.", {}, "fabricated",
         "`record.food` says Italian, which the claim denies"),
        ("French food is not served at The Blue Heron.", {}, "grounded",
         "supported by record.food"),
        # a negation of a negative is none
        ("The Blue Heron is not unfriendly to families either.", {"familyFriendly": True},
         "grounded", "supported by record.familyFriendly"),
        ("The Blue Heron is not unsuitable for kids.", {}, "fabricated",
         "`record.familyFriendly` says false, not true"),
        ("The Blue Heron is not a pub that bans kids.", {"familyFriendly": True}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron is not a pub that welcomes kids.", {}, "grounded",
         "supported by record.familyFriendly"),
        # hedges say how sure the writer is, not another fact
        ("Apparently The Blue Heron is not really for kids.", {}, "grounded", "supported by"),
        ("I've heard The Blue Heron is an Italian pub.", {}, "grounded", "supported by"),
        # fair, decent and OK prices: of the two lower bands
        ("The Blue Heron is fairly priced.", {}, "grounded", "supported by record.priceRange"),
        ("The Blue Heron has OK prices.", {"priceRange": "cheap"}, "grounded",
         "supported by record.priceRange"),
        ("The Blue Heron has decent prices.", {"priceRange": "high"}, None, ""),
        ("The Blue Heron is cheap, with fair prices.", {}, None, ""),
        # a joined clause that states nothing the record holds is an addition
        ("The Blue Heron is an Italian pub in the city centre, and its tables look out over "
         "the water.", {}, None, ""),
    ],
)  # fmt: skip
def test_descriptions_of_a_record(
    monitor: HallucinationMonitor, claim: str, changes: dict, grade: str | None, reason: str
) -> None:
    got, why = _verdict(monitor, claim, **changes)
    if grade is None:  # neither grounded nor contradicted
        assert got != "grounded", why
        assert "contradicted" not in why, why
        return
    assert got == grade, (got, why)
    assert reason in why, why


def test_a_contradiction_quotes_the_claims_own_word(monitor: HallucinationMonitor) -> None:
    # "Chinese", not the first word sharing its first letters ("children")
    got, why = _verdict(
        monitor, "The Blue Heron is not a children friendly Chinese pub.", food="English"
    )
    assert got == "fabricated"
    assert why.endswith("`record.food` says English, not Chinese")


@pytest.mark.parametrize(
    ("a", "b", "apart"),
    [
        ("crown", "crowne", True),  # a letter added
        ("market", "markt", True),  # dropped
        ("bridge", "brudge", True),  # changed
        ("bridge", "bridge", False),  # the same word is an exact match, not a typo
        ("clown", "crowne", False),  # two letters
        ("ridge", "bridge", True),
        ("park", "parks", False),  # words under five letters never
        ("a" * 200_000, "a" * 100_000 + "b" + "a" * 99_999, True),  # one pass, any length
        ("a" * 200_000, "b" * 200_001, False),
    ],
)
def test_one_letter_apart(a: str, b: str, apart: bool) -> None:
    assert _one_letter_apart(a, b) is apart
    assert _one_letter_apart(b, a) is apart


def test_the_prose_polarity_rule_leaves_field_statements_to_the_fields(
    monitor: HallucinationMonitor,
) -> None:
    # "family friendly: false" has no polarity of its own: only the typed boolean reads it
    _, _, items = monitor.prepare("It is not family-friendly.", json.dumps(HERON))
    assert items[0].signals.rule_contradiction is None
    assert _verdict(monitor, "The Blue Heron is not family-friendly.")[0] == "grounded"


@pytest.mark.parametrize(
    ("record", "grade"),
    [
        # nothing says what kind of place it is: "a restaurant" is an addition
        ({"name": "Casa Verde", "attributes": {"OutdoorSeating": True}}, "fabricated"),
        # a key names restaurants, or a category says what it serves: the general word
        ({"name": "Casa Verde", "attributes": {"OutdoorSeating": True,
          "RestaurantsReservations": True}}, "grounded"),
        ({"name": "Casa Verde", "categories": "Mexican, Bars",
          "attributes": {"OutdoorSeating": True}}, "grounded"),
    ],
)  # fmt: skip
def test_a_restaurant_is_said_of_a_record_that_says_it_serves_food(
    monitor: HallucinationMonitor, record: dict, grade: str
) -> None:
    report = monitor.verify_grounding(
        "Casa Verde is a restaurant with outdoor seating.", json.dumps(record)
    )
    assert [v.grade.value for v in report.verdicts] == [grade], report.verdicts[0].reason
    assert report.verdicts[0].contradiction is None  # never a contradiction


ORDER = {"order_id": "KW-10442", "status": "shipped", "carrier": "DHL", "gift_wrap": False}


@pytest.mark.parametrize(
    ("claim", "grade", "reason"),
    [
        ("Order KW-10442 has shipped and is in transit.", "grounded", "supported by record.status"),
        # a state foretold is no status: unsupported (no date in the record), not contradicted
        ("Order KW-10442 should be delivered by Friday.", None, ""),
        ("Order KW-10442 will be delivered tomorrow.", None, ""),
        ("Order KW-10442 has been delivered.", "fabricated",
         "`record.status` says shipped, not delivered"),
        # a state is one of a sequence: two of them are not a second value of the field
        ("Order KW-10442 has shipped and is in transit with DHL.", "grounded", "supported by"),
    ],
)  # fmt: skip
def test_an_order_status_foretold_is_no_status(
    monitor: HallucinationMonitor, claim: str, grade: str | None, reason: str
) -> None:
    report = monitor.verify_grounding(claim, json.dumps(ORDER))
    assert len(report.verdicts) == 1, [v.claim.text for v in report.verdicts]
    v = report.verdicts[0]
    if grade is None:
        assert v.grade.value != "grounded", v.reason
        assert v.contradiction is None, v.reason
        return
    assert v.grade.value == grade, (v.grade.value, v.reason)
    assert reason in v.reason, v.reason


SCOOTER = {"product": "Aurora X2", "range_km": 120, "weight_kg": 18.5, "foldable": True}


@pytest.mark.parametrize(
    ("claim", "grade"),
    [
        ("The Aurora X2 has a range of up to 120 km.", "grounded"),
        # a hedged figure the field does not hold, or a figure no field holds: the record's to
        # decide (unsupported), not the prose similarity to ``product: Aurora X2``
        ("The Aurora X2 has a range of up to 150 km.", "fabricated"),
        ("The Aurora X2 costs about 900 euros.", "fabricated"),
    ],
)
def test_a_figure_about_the_only_record_is_the_records_to_ground(
    monitor: HallucinationMonitor, claim: str, grade: str
) -> None:
    report = monitor.verify_grounding(claim, json.dumps(SCOOTER))
    assert [v.grade.value for v in report.verdicts] == [grade], report.verdicts[0].reason
    assert report.verdicts[0].contradiction is None


def _check_record(
    monitor: HallucinationMonitor, record: dict, claim: str, grade: str | None, reason: str
) -> None:
    """One claim about ``record``: graded ``grade`` with ``reason`` in its reason, or (None)
    neither grounded nor contradicted."""
    (v,) = monitor.verify_grounding(claim, json.dumps(record)).verdicts
    if grade is None:
        assert v.grade.value != "grounded", v.reason
        assert v.contradiction is None, v.reason
        return
    assert v.grade.value == grade, v.reason
    assert reason in v.reason, v.reason


KETTLE = {"product": {"name": "AeroBrew 2", "cordless": True, "keep_warm": False}}
NOODLES = {"name": "Noodle Bar", "price_range": "$$", "category": "Noodles"}


@pytest.mark.parametrize(
    ("record", "claim", "grade", "reason"),
    [
        # a negation after "with" or "without" is another thing's, not the word before it
        (KETTLE, "The AeroBrew 2 is a cordless kettle with no keep-warm function.", None, ""),
        (KETTLE, "The AeroBrew 2 is a cordless kettle without a keep-warm setting.", None, ""),
        ({**KETTLE, "product": {**KETTLE["product"], "cordless": False}},
         "The AeroBrew 2 is cordless.", "fabricated", "`product.cordless` says false, not true"),
        # a band as listings write it ("$$")
        (NOODLES, "Noodle Bar is a moderately priced noodle shop.", "grounded",
         "supported by record.price_range"),
        ({**NOODLES, "price_range": "$$$$"}, "Noodle Bar is a cheap noodle shop.", "fabricated",
         "`record.price_range` says $$$$, not cheap"),
        ({**NOODLES, "price_range": "$"}, "Noodle Bar is a cheap noodle shop.", "grounded",
         "supported by record.price_range"),
        ({"order": "A-1", "status": "shipped", "carrier": "DHL"}, "It's on its way via DHL.",
         "grounded", "supported by record.carrier"),
    ],
)  # fmt: skip
def test_other_records_read_as_people_write(
    monitor: HallucinationMonitor, record: dict, claim: str, grade: str | None, reason: str
) -> None:
    _check_record(monitor, record, claim, grade, reason)


NOODLE_CO = {"name": "Noodle Co", "hours": {"Tuesday": "11:0-21:0", "Friday": "11:0-22:30"}}
SHOP = {"name": "Shop", "hours": {"Monday": "10:00-18:00", "Saturday": "10:00-16:00"}}


@pytest.mark.parametrize(
    ("record", "claim", "grade", "reason"),
    [
        # each day with its own hours, clause by clause
        (NOODLE_CO, "It's open from 11 am to 9 pm on Tuesdays and until 10:30 pm on Fridays.",
         "grounded", "supported by record.hours"),
        (NOODLE_CO, "It's open from 11 am to 9 pm on Tuesdays and until 11:30 pm on Fridays.",
         "fabricated", "`record.hours.Friday` says 11:0-22:30, not 11:30 pm"),
        (SHOP, "Shop is open 10 am to 6 pm on Mondays and 10 am to 4 pm on Saturdays.",
         "grounded", "supported by record.hours"),
        (SHOP, "Shop is open on Mondays from 10 am to 6 pm, and on Saturdays from 10 am to 4 pm.",
         "grounded", "supported by record.hours"),
        # a day the record lacks: unsupported
        (SHOP, "Shop is open 10 am to 6 pm on Mondays and 10 am to 4 pm on Sundays.", None, ""),
        # hours shared by both days must hold on both
        (SHOP, "Shop is open on Mondays and Saturdays from 10 am to 6 pm.", None, ""),
        ({"name": "Shop", "hours": {"Monday": "10:00-18:00", "Saturday": "10:00-18:00"}},
         "Shop is open on Mondays and Saturdays from 10 am to 6 pm.", "grounded",
         "supported by record.hours"),
    ],
)  # fmt: skip
def test_a_sentence_gives_each_day_its_own_hours(
    monitor: HallucinationMonitor, record: dict, claim: str, grade: str | None, reason: str
) -> None:
    _check_record(monitor, record, claim, grade, reason)


@pytest.mark.parametrize(
    ("claim", "changes", "grade", "reason"),
    [
        # a denial of "by the river" places it in the other area, and contradicts a riverside
        ("The Blue Heron isn't by the river.", {}, "grounded", "supported by record.area"),
        ("The Blue Heron isn't by the river.", {"area": "riverside"}, "fabricated",
         "`record.area` says riverside, which the claim denies"),
        # a dish named as the cuisine agrees with it and never contradicts another
        ("The Blue Heron is a pizza place in the city centre.", {}, "grounded",
         "supported by record"),
        ("The Blue Heron - sushi, moderate prices, city centre.", {"food": "Japanese"},
         "grounded", "supported by record"),
        ("The Blue Heron serves English breakfast.", {"food": "English"}, "grounded",
         "supported by record.food"),
        ("The Blue Heron is a pizza place in the city centre.", {"food": "Indian"}, None, ""),
        # ... a dish of the menu is a fact the record does not give, and its denial none
        ("The Blue Heron is known for its handmade pasta.", {}, None, ""),
        ("I had the fish and chips at The Blue Heron.", {"food": "English"}, None, ""),
        ("The Blue Heron doesn't serve pizza.", {}, None, ""),
        # a negation with its own predicate before a comma is not the next one's
        ("The Blue Heron is not cheap, kid friendly and in the city centre.",
         {"familyFriendly": True}, "grounded", "supported by record"),
        ("The Blue Heron isn't adults only.", {"familyFriendly": True}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron isn't adults only.", {}, "fabricated",
         "`record.familyFriendly` says false, not true"),
        ("The Blue Heron is not cheap, or family friendly.", {"familyFriendly": True},
         "fabricated", "`record.familyFriendly` says true, not false"),
        ("The Blue Heron is not, however, family friendly.", {"familyFriendly": True},
         "fabricated", "`record.familyFriendly` says true, not false"),
        # ... nor is a denied noun phrase's once its head has come ("a place for kids")
        ("The Blue Heron is not a family establishment, adults only.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron is not a place for kids, adults only.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron is not a place for kids, adults only.", {"familyFriendly": True},
         "fabricated", "`record.familyFriendly` says true, not false"),
        ("The Blue Heron is not a cheap, kid friendly pub.", {"familyFriendly": True},
         "fabricated", "`record.familyFriendly` says true, not false"),
        # a figure glued to the next word is no other figure ("5and": unsupported, not named)
        ("The Blue Heron has a rating of 5 out of 5and is popular.",
         {"customerRating": "5 out of 5"}, None, ""),
        ("The Blue Heron has a rating of 3 out of 5 from diners.",
         {"customerRating": "5 out of 5"}, "fabricated",
         "`record.customerRating` says 5 out of 5, not 3 out of 5"),
        # band words
        ("The Blue Heron is not the cheapest.", {}, "grounded", "supported by record.priceRange"),
        ("The Blue Heron is no bargain.", {}, "grounded", "supported by record.priceRange"),
        ("The Blue Heron is mid-range with avg reviews.", {"customerRating": "average"},
         "grounded", "supported by record"),
        ("The Blue Heron is mid-range with avg reviews.", {}, None, ""),
        ("The Blue Heron gets top marks from diners.", {}, "grounded",
         "supported by record.customerRating"),
        ("The Blue Heron gets top marks from diners.", {"customerRating": "low"}, "fabricated",
         "`record.customerRating` says low"),
        ("The Blue Heron won't cost you more than £20.", {"priceRange": "less than £20"},
         "grounded", "supported by record.priceRange"),
        ("The Blue Heron serves Chines food.", {"food": "Chinese"}, "grounded",
         "supported by record.food"),
        # a reader told what to do with the children, beside the field that says it
        ("The Blue Heron is not family friendly, so leave the kids at home.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("The Blue Heron is family friendly, so bring the kids.", {"familyFriendly": True},
         "grounded", "supported by record.familyFriendly"),
        # taking the children there says who it is for; only a negation of the verb denies it
        ("You should take the kids to The Blue Heron.", {"familyFriendly": True}, "grounded",
         "supported by record.familyFriendly"),
        ("I wouldn't take my kids to The Blue Heron.", {}, "grounded",
         "supported by record.familyFriendly"),
        ("I wouldn't take my kids to The Blue Heron.", {"familyFriendly": True}, "fabricated",
         "`record.familyFriendly` says true, not false"),
        ("It is not recommended to bring children to The Blue Heron.", {}, "grounded",
         "supported by record.familyFriendly"),
    ],
)  # fmt: skip
def test_denials_dishes_and_band_words(
    monitor: HallucinationMonitor, claim: str, changes: dict, grade: str | None, reason: str
) -> None:
    record = {k: v for k, v in {**HERON, **changes}.items() if v is not None}
    _check_record(monitor, record, claim, grade, reason)
