"""Issue 24: the word-level readers behind field matching (``_record_words``, ``_field_values``)."""

from __future__ import annotations

import pytest

from langchain_qgate.grounding.checks.checks import extract_quantities
from langchain_qgate.grounding.records._field_values import (
    normalise_times,
    normalise_value,
    within_band,
)
from langchain_qgate.grounding.records._record_words import (
    boolean_said,
    claim_tokens,
    summary_days,
    unlisted_term,
    vocabulary_term,
)


def test_times_without_their_second_minute_digit_are_padded() -> None:
    assert normalise_times("17:30-23:0") == "17:30-23:00"
    assert normalise_times("opens from 8:0 to 14:0") == "opens from 8:00 to 14:00"
    assert normalise_times("11:30-2:0") == "11:30-2:00"
    assert normalise_times("10:30:15 and 3.5:1") == "10:30:15 and 3.5:1"  # not a short time


def test_a_price_band_states_both_ends() -> None:
    assert normalise_value("£20-25") == "£20-£25"
    assert normalise_value("$10 to 15") == "$10 to $15"


@pytest.mark.parametrize(
    ("claim", "value", "inside"),
    [
        ("It costs £22.", "£20-25", True),
        ("It costs 25 pounds.", "£20-25", True),
        ("It costs £26.", "£20-25", False),
        ("It costs £15.", "less than £20", True),
        ("It costs £25.", "less than £20", False),
        ("It costs £35.", "more than £30", True),
        ("It opens at 3 pm.", "11:00-21:00", False),  # an opening range is no band
        # a bound the claim puts on its figure must face the field's way
        ("It costs under £20.", "less than £20", True),
        ("It has a £20 maximum.", "less than £20", True),
        ("It costs over £20.", "less than £20", False),
        ("It has a £20 minimum.", "less than £20", False),
        ("It costs £20 or more.", "less than £20", False),
        ("It costs under £30.", "more than £30", False),
        ("It costs £30 or less.", "more than £30", False),
        ("It has a £30 minimum.", "more than £30", True),
        ("It costs over £30.", "more than £30", True),
        ("It costs upwards of £30.", "more than £30", True),
        ("It costs in excess of £30.", "more than £30", True),
        ("It costs in excess of £20.", "less than £20", False),
        # a bound denied is the other bound
        ("It costs no more than £20.", "less than £20", True),
        ("It costs no more than £30.", "more than £30", False),
        ("It costs not less than £30.", "more than £30", True),
        ("It doesn't cost more than £20.", "less than £20", True),
        ("It doesn't cost more than £30.", "more than £30", False),
        ("It does not cost less than £30.", "more than £30", True),
    ],
)
def test_a_figure_inside_a_band_or_on_the_side_of_a_bound(
    claim: str, value: str, inside: bool
) -> None:
    (q,) = extract_quantities(claim)
    band = normalise_value(value)
    assert within_band(q, band, extract_quantities(band), claim) is inside


@pytest.mark.parametrize(
    ("sentence", "keys", "parents", "said"),
    [
        ("Outdoor seating is not available.", ["outdoor", "seating"], [], False),
        ("It has no outdoor seating.", ["outdoor", "seating"], [], False),
        ("It has outdoor seating.", ["outdoor", "seating"], [], True),
        ("It is a cheap, non family-friendly coffee shop.", ["family", "friendly"], [], False),
        ("We are not children friendly.", ["family", "friendly"], [], False),
        ("It is kid friendly.", ["family", "friendly"], [], True),
        ("There is no valet, garage or lot parking.", ["garage"], ["business", "parking"], False),
        ("There is no valet, garage or lot parking.", ["lot"], ["business", "parking"], False),
        ("There is no garage parking, but street parking is free.", ["street"], ["parking"], True),
        ("It doesn't take reservations.", ["restaurant", "reservation"], [], False),
        ("Dogs are not allowed.", ["dog", "allowed"], [], False),
        ("It is not expensive, and it has outdoor seating.", ["outdoor", "seating"], [], True),
        ("Takeout is available.", ["restaurant", "take", "out"], [], True),
        ("It is a not so children friendly place.", ["family", "friendly"], [], False),
        ("It is for adults only.", ["family", "friendly"], [], False),
        ("It is not only cheap but also kid friendly.", ["family", "friendly"], [], True),
        # typed without the apostrophe, misspelt, in other words for children
        ("It isnt family friendly.", ["family", "friendly"], [], False),
        ("We dont allow dogs.", ["dog", "allowed"], [], False),
        ("It is kid freindly.", ["family", "friendly"], [], True),
        ("Its not familiy friendly.", ["family", "friendly"], [], False),
        ("Youngsters are welcome.", ["family", "friendly"], [], True),
        ("It doesn't cater to children.", ["family", "friendly"], [], False),
        # idioms, a negation inside the word, a negation that ends at a comma
        ("Kids are more than welcome.", ["family", "friendly"], [], True),
        ("It is fine for the kids.", ["family", "friendly"], [], True),
        ("It is unsuitable for families.", ["family", "friendly"], [], False),
        ("It is not too dear, fine for the kids.", ["family", "friendly"], [], True),
        ("It is not, as it happens, kid friendly.", ["family", "friendly"], [], False),
        ("It is cheap, so leave the kids at home.", ["family", "friendly"], [], False),
        ("It is not one for the kids.", ["family", "friendly"], [], False),
        ("Riverside pub, kids ok.", ["family", "friendly"], [], True),
        ("It is not aimed at children.", ["family", "friendly"], [], False),
        ("It is not geared towards kids.", ["family", "friendly"], [], False),
        # a negation of a negative, a denied kind of place, good with kids, set up for them
        ("It's not unfriendly to families either.", ["family", "friendly"], [], True),
        ("It isn't unsuitable for kids.", ["family", "friendly"], [], True),
        ("It doesn't exclude children.", ["family", "friendly"], [], True),
        ("It excludes children.", ["family", "friendly"], [], False),
        ("It is not a pub that bans kids.", ["family", "friendly"], [], True),
        ("It is a pub that bans kids.", ["family", "friendly"], [], False),
        ("It's not a place that welcomes kids.", ["family", "friendly"], [], False),
        ("It is not a pub, which is kid friendly.", ["family", "friendly"], [], True),
        ("They're great with kids.", ["family", "friendly"], [], True),
        ("We're not really set up for children.", ["family", "friendly"], [], False),
        # a family word before a kind of place; an idiom for "too"
        ("It is a family restaurant.", ["family", "friendly"], [], True),
        ("It's not really a kids' place.", ["family", "friendly"], [], False),
        ("I don't think it's a family place.", ["family", "friendly"], [], False),
        ("It is child friendly to boot.", ["family", "friendly"], [], True),
        # after a clause link the negation that follows is still read
        ("It is cheap but outdoor seating is not available.", ["outdoor", "seating"], [], False),
        # a dash ends the negation as a comma does
        ("It isn't cheap \u2014 it has outdoor seating.", ["outdoor", "seating"], [], True),
    ],
)
def test_boolean_polarity_is_read_from_the_sentence(
    sentence: str, keys: list[str], parents: list[str], said: bool
) -> None:
    found = boolean_said(claim_tokens(sentence), keys, parents)
    assert found is not None
    assert found[0] is said


def test_a_key_inside_a_group_needs_its_group_named() -> None:
    toks = claim_tokens("There is a lot of choice on the menu.")
    assert boolean_said(toks, ["lot"], ["business", "parking"]) is None
    assert boolean_said(toks, ["outdoor", "seating"], []) is None


def test_closed_vocabulary_terms_agree_differ_or_contradict() -> None:
    toks = claim_tokens("The status is delivered.")
    term = vocabulary_term(toks, ["statu"], "shipped", [])
    assert term is not None
    assert term.contradicts
    assert term.term == "delivered"
    cheap = vocabulary_term(claim_tokens("It is cheap."), ["price", "range"], "less than £20", [])
    assert cheap is not None
    assert cheap.agrees
    # A neighbouring band is neither agreement nor contradiction.
    mid = vocabulary_term(claim_tokens("It is cheap."), ["price", "range"], "£20-25", [])
    assert mid is not None
    assert not mid.agrees
    assert not mid.contradicts
    # "high" names a rating only next to a rating word.
    rating = ["customer", "rating"]
    assert vocabulary_term(claim_tokens("It has a high price."), rating, "low", []) is None
    high = vocabulary_term(claim_tokens("It has a high customer rating."), rating, "low", [])
    assert high is not None
    assert high.contradicts
    # A term inside another field's value is that field's ("Raja Indian Cuisine").
    near = claim_tokens("It is near Raja Indian Cuisine.")
    assert vocabulary_term(near, ["food"], "English", ["Raja Indian Cuisine"]) is None


@pytest.mark.parametrize(
    ("sentence", "keys", "value", "reading"),
    [
        # a field of one value: denying another value says nothing false ...
        ("It isn't in the city centre.", ["area"], "riverside", "agrees"),
        ("It is not a pub.", ["eat", "type"], "restaurant", "agrees"),
        ("It doesn't serve Chinese food.", ["food"], "Italian", "agrees"),
        # ... denying its own value contradicts it, the denial quoted as written
        ("It is not an Italian restaurant.", ["food"], "Italian", "not an italian"),
        ("It isn't on the riverside.", ["area"], "riverside", "isn't on the riverside"),
        ("It doesn't serve Italian food.", ["food"], "Italian", "doesn't serve italian"),
        # ... but a band's edges are people's to draw: "isn't cheap" about a cheap place is
        # left unsupported
        ("It isn't cheap.", ["price", "range"], "cheap", None),
        # ... unless the negation denies something else or a qualified thing
        ("It is not a pub that bans kids.", ["eat", "type"], "pub", None),
        ("It wouldn't be complete without a riverside view.", ["area"], "riverside", None),
        ("It has no riverside terrace.", ["area"], "riverside", None),
        ("It is not just a pub.", ["eat", "type"], "pub", None),
        ("It is not far from the city centre.", ["area"], "riverside", None),
        # "not by the river" about a city centre: the other area of the two, as people write
        # it ("in the city centre, not by the river"); by the river was never a contradiction
        ("It is not by the river.", ["area"], "city centre", "agrees"),
        # the value denied after it: what is served
        ("Italian food is not served here.", ["food"], "Italian", "italian food is not served"),
        ("Italian isnt on the menu.", ["food"], "Italian", "italian isnt on the menu"),
        ("Chinese food is not served here.", ["food"], "Italian", "agrees"),
        # ... not a predicate of its own after it: the food is said, the kids' part is not
        ("Italian food is not suitable for kids.", ["food"], "Italian", "agrees"),
    ],
)
def test_a_denied_term_of_a_field_of_one_value(
    sentence: str, keys: list[str], value: str, reading: str | None
) -> None:
    term = vocabulary_term(claim_tokens(sentence), keys, value, [])
    if reading is None:
        assert term is None or not (term.agrees or term.contradicts), term
    elif reading == "agrees":
        assert term is not None
        assert term.agrees
    else:
        assert term is not None
        assert term.contradicts
        assert term.denies
        assert term.term == reading


@pytest.mark.parametrize(
    "sentence",
    [
        "It is rated 1 star out of 5.",
        "It has a one-star rating out of five.",
        "It has a single star out of five.",
        "It is rated 1 outta 5.",
        "It is rated 1/5.",
        "It has a rating of 1 on a scale of 5.",
    ],
)
def test_a_rating_said_with_stars_and_its_scale(sentence: str) -> None:
    term = vocabulary_term(claim_tokens(sentence), ["customer", "rating"], "1 out of 5", [])
    assert term is not None
    assert term.agrees
    assert term.has_figure


@pytest.mark.parametrize(
    ("sentence", "value", "reading"),
    [
        ("It won't break the bank.", "cheap", "agrees"),
        ("It is easy on the wallet.", "less than £20", "agrees"),
        ("It is at the cheaper end.", "cheap", "agrees"),
        ("It costs an arm and a leg.", "more than £30", "agrees"),
        ("It costs an arm and a leg.", "cheap", "contradicts"),
        ("It won't break the bank.", "more than £30", "contradicts"),
        ("It won't break the bank.", "£20-25", None),  # a neighbouring band
        # "reasonably priced" is true of the two lower bands, neither of the top one
        ("It is reasonably priced.", "cheap", "agrees"),
        ("It is reasonably priced.", "£20-25", "agrees"),
        ("It is reasonably priced.", "more than £30", None),
        ("It is fairly priced.", "cheap", "agrees"),
        ("It has decent prices.", "£20-25", "agrees"),
        ("It is okay priced.", "moderate", "agrees"),
        ("It has OK prices.", "more than £30", None),
        # a term of two bands beside a term of one: the one decides
        ("It is cheap, with fair prices.", "£20-25", None),
        ("It is cheap, with fair prices.", "cheap", "agrees"),
    ],
)
def test_price_idioms_name_their_band(sentence: str, value: str, reading: str | None) -> None:
    term = vocabulary_term(claim_tokens(sentence), ["price", "range"], value, [])
    assert term is not None
    assert (term.agrees, term.contradicts) == (reading == "agrees", reading == "contradicts")


def test_a_term_misspelt_by_one_letter_is_the_term_but_never_a_word_of_a_name() -> None:
    term = vocabulary_term(
        claim_tokens("It has avrage reviews."), ["customer", "rating"], "average", []
    )
    assert term is not None
    assert term.agrees
    term = vocabulary_term(claim_tokens("It serves Italain food."), ["food"], "Chinese", [])
    assert term is not None
    assert term.contradicts
    # two letters apart, or a word of another of the record's values, is no term
    sentence = claim_tokens("It is called Pasta Fresca.")
    assert vocabulary_term(sentence, ["food"], "Italian", ["Pasta Fresca", "Italian"]) is None
    assert vocabulary_term(claim_tokens("It serves Itlain fod."), ["food"], "Chinese", []) is None


def test_a_dash_or_a_bracket_is_a_comma_and_a_band_keeps_its_dash() -> None:
    assert claim_tokens("It isn't cheap \u2014 it's by the river.") == [
        "it", "isn't", "cheap", ",", "it's", "by", "the", "river", ".",
    ]  # fmt: skip
    assert claim_tokens("The Oak (a pub) - cheap") == [
        "the",
        "oak",
        ",",
        "a",
        "pub",
        ",",
        ",",
        "cheap",
    ]
    assert claim_tokens("£20\u201325 or £20-25") == ["20", "25", "or", "20", "25"]


def test_a_public_house_is_a_pub_and_quid_are_pounds() -> None:
    pub = vocabulary_term(claim_tokens("It is a public house."), ["eat", "type"], "pub", [])
    assert pub is not None
    assert pub.agrees
    (q,) = extract_quantities("It costs twenty quid.")
    (p,) = extract_quantities("It costs twenty pounds.")
    assert (q.value, q.currency) == (p.value, p.currency) == (20.0, "GBP")


def test_the_heart_of_the_city_is_the_city_centre() -> None:
    toks = claim_tokens("It is a cheap pub in the heart of the city.")
    term = vocabulary_term(toks, ["area"], "riverside", [])
    assert term is not None
    assert term.contradicts
    same = vocabulary_term(
        claim_tokens("It is in the centre of town."), ["area"], "city centre", []
    )
    assert same is not None
    assert same.agrees


def test_a_vocabulary_term_of_a_field_the_record_lacks() -> None:
    keys = [["name"], ["area"]]
    assert unlisted_term(claim_tokens("It is a cheap place."), keys, ["X", "riverside"]) == "cheap"
    near = claim_tokens("It is near Café Brazil.")
    assert unlisted_term(near, keys, ["X", "Café Brazil"]) is None


def test_summaries_over_days() -> None:
    every = summary_days(claim_tokens("open every day"))
    assert every is not None
    assert len(every[0]) == 7
    assert not every[1]
    weekdays = summary_days(claim_tokens("on weekdays"))
    assert weekdays is not None
    assert weekdays[0][-1] == "friday"
    most = summary_days(claim_tokens("on most days"))
    assert most is not None
    assert most[1]
    assert summary_days(claim_tokens("on Tuesday")) is None


def _at_spelt_word_by_word(tokens: list[str], term: list[str], values: set[str]) -> list[int]:
    """Every place of ``term`` in ``tokens``, read word by word at every start (the reading the
    index replaced, kept here as its reference)."""
    from langchain_qgate.grounding.checks.checks import edits, spelt_alike

    def alike(t: str, w: str) -> bool:
        return t == w or (
            len(w) >= 5 and t not in values and spelt_alike(t, w) and edits(t, w) <= 1
        )

    n = len(term)
    return [
        i
        for i in range(len(tokens) - n + 1)
        if all(alike(t, w) for t, w in zip(tokens[i : i + n], term, strict=True))
    ]


@pytest.mark.parametrize(
    ("claim", "term", "values", "places"),
    [
        ("an avrage priced coffee shop of average price", ["average"], set(), [1, 6]),
        ("it is expencive and very expensive", ["expensive"], set(), [2, 5]),
        ("a family friendly place , not family freindly", ["family", "friendly"], set(), [1, 6]),
        ("cafe frenchy serves french food", ["french"], {"frenchy"}, [3]),
        ("cafe frenchy serves french food", ["french"], set(), [1, 3]),
        ("french", ["french", "food"], set(), []),
        ("", ["cheap"], set(), []),
    ],
)
def test_the_term_index_finds_every_place_a_word_by_word_reading_finds(
    claim: str, term: list[str], values: set[str], places: list[int]
) -> None:
    from langchain_qgate.grounding.records._record_words import _Spots

    tokens = claim.split()
    assert _Spots(tokens).at_spelt(term, values) == places
    assert _at_spelt_word_by_word(tokens, term, values) == places


def test_a_term_is_found_where_it_stands_and_nowhere_else() -> None:
    """``_at`` and ``_Spots.at_spelt`` answer at once for a term whose first word the claim
    lacks; where it has it, every start of the whole term, in order."""
    from langchain_qgate.grounding.records._record_words import _at, _Spots

    tokens = claim_tokens("in transit now, still in transit, in the van")
    assert _at(tokens, ["in", "transit"]) == [0, 5]  # "," is a token
    assert _at(tokens, ["transit", "van"]) == []
    assert _at(tokens, ["parcel"]) == []
    assert _at(tokens, []) == list(range(len(tokens) + 1))  # an empty term is everywhere
    spots = _Spots(claim_tokens("a fine Chines place, chinese food"))
    assert spots.at_spelt(["chinese"], frozenset()) == [2, 5]  # misspelt by one letter too
    assert spots.at_spelt(["chinese"], frozenset({"chines"})) == [5]  # a value's own word
    assert spots.at_spelt(["thai"], frozenset()) == []
    assert spots.at_spelt(["fine", "chinese"], frozenset()) == [1]


def test_a_word_names_a_key_word_by_its_stem_or_a_misspelling_and_the_answer_is_kept() -> None:
    from langchain_qgate.grounding.records._record_words import _stem_match

    assert _stem_match("delivers", "delivery")
    assert _stem_match("freindly", "friendly")
    assert not _stem_match("take", "takeout")
    assert not _stem_match("overstory", "overdue")
    before = _stem_match.cache_info().hits
    assert _stem_match("delivers", "delivery")
    assert _stem_match.cache_info().hits == before + 1
