"""The learned verifier's part of the signals: windows, features, and contradiction decisions.

The pair model is replaced by a scripted fake (``predict`` returns fixed probabilities), so
these tests pin the decision logic; the real shipped model is exercised in
``tests/integration_tests/test_contradictions_real_model.py`` and ``test_minimal_pairs.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.grounding.checks.features import ClaimSignals
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.grounding.verifier.crossencoder import linearise_fields, verifier_window
from langchain_qgate.grounding.verifier.pair_signals import (
    OVERRULED_FAMILIES,
    apply_pair_model,
    pair_windows,
)
from langchain_qgate.grounding.verifier.verifiers import RULES_ONLY, load_combination
from langchain_qgate.schemas import Contradiction, Grade


class ScriptedPairModel:
    """Answers every pair with the probabilities given for its window (else neutral)."""

    def __init__(self, by_window: dict[str, tuple[float, float, float]]) -> None:
        self.by_window = by_window
        self.seen: list[tuple[str, str]] = []

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        self.seen.extend(pairs)
        return np.array(
            [self.by_window.get(w, (0.05, 0.05, 0.9)) for _, w in pairs], dtype=np.float32
        )


def _index(*texts: str) -> EvidenceIndex:
    return EvidenceIndex(list(texts), embedder=HashingEmbedder())


def _signals(index: EvidenceIndex, *chunks: int, aligned: int = -1) -> ClaimSignals:
    sig = ClaimSignals()
    sig.top = [(i, 0.9 - 0.1 * k) for k, i in enumerate(chunks)]
    sig.aligned = aligned if aligned >= 0 else chunks[0]
    return sig


def test_linearise_fields_splits_camel_case_and_keeps_the_parent_key() -> None:
    text = linearise_fields(
        [
            ("record.familyFriendly", "false"),
            ("listing.attributes.OutdoorSeating", "true"),
            ("order.items.0.sku", "KW-1"),
        ]
    )
    assert text == "family friendly: false. attributes outdoor seating: true. items sku: KW-1."


def test_window_of_a_record_field_is_the_whole_record_with_that_field_first() -> None:
    index = _index({"name": "Alimentum", "area": "city centre", "familyFriendly": False})
    ids = [c.id for c in index.chunks]
    k = ids.index("record.area") if "record.area" in ids else 1
    window = verifier_window(index, k)
    assert window.startswith("area: city centre.")
    assert "name: Alimentum." in window
    assert "family friendly: false." in window


def test_window_of_prose_is_the_chunk_view_with_its_pronoun_resolved() -> None:
    index = _index("The Kestrel P3 is a picking robot. It picks up to 1,200 items per hour.")
    assert verifier_window(index, 0) == "The Kestrel P3 is a picking robot."
    assert verifier_window(index, 1) == index.views[1]
    assert "Kestrel P3" in index.views[1]


def test_pair_windows_put_the_aligned_chunk_first_and_drop_repeats() -> None:
    index = _index("A one.", "B two.", "C three.", "D four.")
    sig = _signals(index, 0, 1, 2, 3, aligned=2)
    got = pair_windows(sig, index, 3)
    assert [i for i, _ in got] == [2, 0, 1]
    record = _index({"name": "X", "area": "riverside"})
    sig = _signals(record, 0, 1)
    assert len(pair_windows(sig, record, 3)) == 2  # each field first: two distinct windows


def _polarity_clash(index: EvidenceIndex, family: str = "negation") -> ClaimSignals:
    sig = _signals(index, 0)
    chunk = index.chunks[0]
    sig.contradiction = Contradiction(
        kind="negation", claim_value="c", evidence_value="", evidence_id=chunk.id, quote=chunk.text
    )
    sig.rule_family = family
    sig.no_contradiction = 0.0
    return sig


@pytest.mark.parametrize("family", sorted(OVERRULED_FAMILIES))
def test_polarity_contradiction_is_dropped_when_a_window_entails_the_claim(family: str) -> None:
    index = _index("If the latch doesn't catch, tighten the hinges.")
    sig = _polarity_clash(index, family)
    model = ScriptedPairModel({index.chunks[0].text: (0.95, 0.03, 0.02)})
    apply_pair_model(model, ["c"], [sig], index, windows=3, contradict=0.9, overrule=0.9)
    assert sig.contradiction is None
    assert sig.no_contradiction == 1.0
    assert sig.rule_contradiction is not None  # what the rules said is kept for diagnosis
    assert sig.pair_entailed == pytest.approx(0.95)


def test_polarity_contradiction_is_not_outvoted_by_a_window_that_only_shares_a_word() -> None:
    index = _index(
        "The laptop supports USB-C charging with the included 65 W charger.",
        "The laptop has two USB-C ports, one USB-A port and an HDMI 2.1 port.",
    )
    sig = _signals(index, 0, 1)
    found = Contradiction(
        kind="negation",
        claim_value="It does not support USB-C charging.",
        evidence_value="",
        evidence_id=index.chunks[0].id,
        quote=index.chunks[0].text,
    )
    sig.contradiction, sig.rule_family, sig.no_contradiction = found, "negation", 0.0
    model = ScriptedPairModel(
        {index.chunks[0].text: (0.15, 0.85, 0.0), index.chunks[1].text: (0.95, 0.05, 0.0)}
    )
    claim = "It does not support USB-C charging."
    apply_pair_model(model, [claim], [sig], index, windows=3, contradict=0.99, overrule=0.9)
    assert sig.contradiction is found  # the ports sentence shares "USB-C", not the claim
    assert sig.no_contradiction == 0.0
    assert sig.pair_entailed == pytest.approx(0.95)


def test_polarity_contradiction_is_dropped_by_a_window_that_restates_the_claim() -> None:
    index = _index(
        "If the latch doesn't catch, tighten the hinges.",
        "Tighten the hinges when the latch does not catch.",
    )
    sig = _signals(index, 0, 1)
    found = Contradiction(
        kind="negation",
        claim_value="c",
        evidence_value="",
        evidence_id=index.chunks[0].id,
        quote="q",
    )
    sig.contradiction, sig.rule_family, sig.no_contradiction = found, "negation", 0.0
    model = ScriptedPairModel(
        {index.chunks[0].text: (0.5, 0.4, 0.1), index.chunks[1].text: (0.95, 0.03, 0.02)}
    )
    claim = "Tighten the hinges when the latch does not catch."
    apply_pair_model(model, [claim], [sig], index, windows=3, contradict=0.99, overrule=0.9)
    assert sig.contradiction is None  # the other window holds the claim's words and entails it


def test_polarity_contradiction_in_a_passage_the_model_did_not_read_yields_to_entailment() -> None:
    index = _index(
        "Police issued this e-fit in a bid to identify the man.",
        "These are the three bodies found in Notts which have never been identified.",
    )
    sig = _signals(index, 1)  # the model reads only the second passage
    found = Contradiction(
        kind="negation",
        claim_value="c",
        evidence_value="",
        evidence_id=index.chunks[0].id,
        quote="q",
    )
    sig.contradiction, sig.rule_family, sig.no_contradiction = found, "negation", 0.0
    model = ScriptedPairModel({index.chunks[1].text: (0.99, 0.01, 0.0)})
    claim = "The man has never been identified."
    apply_pair_model(model, [claim], [sig], index, windows=3, contradict=0.99, overrule=0.9)
    assert sig.contradiction is None


def test_polarity_contradiction_stands_below_the_overrule_threshold() -> None:
    index = _index("If the latch doesn't catch, tighten the hinges.")
    sig = _polarity_clash(index)
    found = sig.contradiction
    model = ScriptedPairModel({index.chunks[0].text: (0.6, 0.3, 0.1)})
    apply_pair_model(model, ["c"], [sig], index, windows=3, contradict=0.9, overrule=0.9)
    assert sig.contradiction is found
    assert sig.no_contradiction == 0.0


@pytest.mark.parametrize("family", ["slot_aligned", "short_answer", "lifespan", "slot_rival"])
def test_value_contradiction_is_never_overruled(family: str) -> None:
    # "first album" against "second album": the rules compare the values, the model may not.
    index = _index("Acme was founded in 2020 in Berlin.")
    sig = _signals(index, 0)
    found = Contradiction(
        kind="date", claim_value="2019", evidence_value="2020", evidence_id="x#0", quote="q"
    )
    sig.contradiction, sig.rule_family, sig.no_contradiction = found, family, 0.0
    model = ScriptedPairModel({"Acme was founded in 2020 in Berlin.": (0.99, 0.01, 0.0)})
    apply_pair_model(model, ["c"], [sig], index, windows=3, contradict=0.9, overrule=0.9)
    assert sig.contradiction is found
    assert sig.no_contradiction == 0.0


def test_model_contradiction_quotes_the_window_that_says_otherwise() -> None:
    index = _index("The museum is closed on Mondays.", "Tickets cost 12 euros.")
    sig = _signals(index, 1, 0)
    model = ScriptedPairModel({"The museum is closed on Mondays.": (0.01, 0.97, 0.02)})
    claim = "The museum is open on Mondays."
    apply_pair_model(model, [claim], [sig], index, windows=3, contradict=0.9, overrule=0.9)
    assert sig.contradiction is not None
    assert sig.contradiction.kind == "statement"
    assert sig.contradiction.evidence_id == index.chunks[0].id
    assert sig.contradiction.quote == "The museum is closed on Mondays."
    assert sig.contradiction.describe() == (
        "the evidence says otherwise: 'The museum is closed on Mondays.'"
    )
    assert sig.no_contradiction == 0.0
    assert sig.pair_not_contradicted == pytest.approx(0.03, abs=1e-6)
    assert sig.pair_window == 0


def test_no_model_contradiction_when_another_window_supports_the_claim() -> None:
    index = _index("The museum is closed on Mondays.", "Since 2024 the museum opens on Mondays.")
    sig = _signals(index, 0, 1)
    model = ScriptedPairModel(
        {
            "The museum is closed on Mondays.": (0.01, 0.97, 0.02),
            "Since 2024 the museum opens on Mondays.": (0.85, 0.05, 0.1),
        }
    )
    apply_pair_model(
        model, ["The museum opens on Mondays."], [sig], index, windows=3, contradict=0.9,
        overrule=0.9,
    )  # fmt: skip
    assert sig.contradiction is None
    assert sig.pair_contradicted == pytest.approx(0.97)
    assert sig.pair_entailed == pytest.approx(0.85)


def test_no_model_contradiction_below_its_threshold() -> None:
    index = _index("The museum is closed on Mondays.")
    sig = _signals(index, 0)
    model = ScriptedPairModel({"The museum is closed on Mondays.": (0.05, 0.85, 0.1)})
    apply_pair_model(model, ["x"], [sig], index, windows=3, contradict=0.9, overrule=0.9)
    assert sig.contradiction is None
    assert sig.no_contradiction == 1.0


def test_claims_without_evidence_are_not_sent_to_the_model() -> None:
    index = _index("Something.")
    sig = ClaimSignals()
    model = ScriptedPairModel({})
    apply_pair_model(model, ["x"], [sig], index, windows=3, contradict=0.9, overrule=0.9)
    assert model.seen == []
    assert sig.pair_entailed == 0.0
    assert sig.pair_not_contradicted == 1.0


def test_monitor_without_a_pair_model_reads_the_rules_only_combination() -> None:
    monitor = HallucinationMonitor(
        policy=GroundingPolicy(pair_model=None), embedder=HashingEmbedder()
    )
    assert monitor.pair_model is None
    rules = load_combination(RULES_ONLY)
    weights = dict(zip(rules.features, rules.weights, strict=True))
    assert weights["pair_entailed"] == 0.0
    assert weights["pair_not_contradicted"] == 0.0
    report = monitor.verify_grounding("Acme was founded in 2019.", ["Acme was founded in 2020."])
    assert report.verdicts[0].contradiction is not None
    assert report.verdicts[0].contradiction.kind == "date"


def test_monitor_with_a_scripted_pair_model_reports_its_contradiction() -> None:
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = ScriptedPairModel(  # type: ignore[assignment]
        {"The museum is closed on Mondays.": (0.0005, 0.999, 0.0005)}
    )
    assert monitor.thresholds.contradict <= 0.999  # the shipped threshold
    report = monitor.verify_grounding(
        "The museum is open on Mondays.", ["The museum is closed on Mondays."]
    )
    verdict = report.verdicts[0]
    assert verdict.grade.value == "fabricated"
    assert verdict.reason == "contradicted: the evidence says otherwise: " + repr(
        "The museum is closed on Mondays."
    )
    assert verdict.signals["pair_not_contradicted"] == pytest.approx(0.001, abs=1e-4)


def test_grounded_needs_a_window_the_model_reads_as_entailing() -> None:
    # The same claim and evidence: without the model's entailment the claim is at most
    # INFERRED, whatever the other signals say; with it, it is GROUNDED.
    evidence = ["The Aurora X2 has a range of up to 120 km on one charge."]
    claim = "On one charge the Aurora X2 has a range of up to 120 km."  # not a word-for-word quote
    grades = {}
    for p_e in (0.9, 0.1):
        monitor = HallucinationMonitor(
            embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
        )
        monitor._pair_model = ScriptedPairModel(  # type: ignore[assignment]
            {evidence[0]: (p_e, 0.0, 1.0 - p_e)}
        )
        verdict = monitor.verify_grounding(claim, evidence).verdicts[0]
        grades[p_e] = (verdict.grade.value, verdict.support >= monitor.grounded_threshold)
    assert grades[0.9] == ("grounded", True)
    assert grades[0.1][0] == "inferred"


def test_no_grounded_floor_when_the_model_read_a_window_only_in_part() -> None:
    # A pair longer than the model's 128 tokens is truncated: its low P(entailed) does not
    # cap the grade (copied long sentences would otherwise be INFERRED).
    evidence = ["The Aurora X2 has a range of up to 120 km on one charge."]
    claim = "On one charge the Aurora X2 has a range of up to 120 km."

    class Truncating(ScriptedPairModel):
        def truncated(self, pair: tuple[str, str]) -> bool:
            return True

    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = Truncating({evidence[0]: (0.1, 0.0, 0.9)})  # type: ignore[assignment]
    verdict = monitor.verify_grounding(claim, evidence).verdicts[0]
    assert verdict.support >= monitor.grounded_threshold
    assert verdict.grade.value == "grounded"


def test_a_word_for_word_quote_is_grounded_whatever_the_model_reads() -> None:
    evidence = ["The Aurora X2 has a range of up to 120 km on one charge."]
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = ScriptedPairModel({evidence[0]: (0.1, 0.0, 0.9)})  # type: ignore[assignment]
    verdict = monitor.verify_grounding(evidence[0], evidence).verdicts[0]
    assert verdict.grade.value == "grounded"


@pytest.mark.parametrize(
    ("claim", "quoted"),
    [
        ("It has a range of up to 120 km on one charge.", True),  # a pronoun subject
        ("The new Aurora X2 has a range of up to 120 km on one charge.", True),  # fuller name
        ("The Aurora X3 has a range of up to 120 km on one charge.", False),  # another name
        ("Children older than 12 should not take aspirin.", False),  # another subject
    ],
)
def test_a_restated_subject_quotes_only_a_pronoun_or_another_form_of_the_name(
    claim: str, quoted: bool
) -> None:
    from langchain_qgate.grounding.aggregate import _quoted

    chunks = ["The Aurora X2 has a range of up to 120 km on one charge.",
              "Children under 12 should not take aspirin."]  # fmt: skip
    assert _quoted(claim, chunks) is quoted


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pair_model": ""}, "pair_model"),
        ({"pair_model": 3}, "pair_model"),
        ({"pair_windows": 0}, "pair_windows"),
    ],
)
def test_policy_rejects_bad_pair_settings(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        GroundingPolicy(**kwargs)  # type: ignore[arg-type]


def test_label_order_reads_any_nli_label_names() -> None:
    from langchain_qgate.grounding.verifier.crossencoder import _label_order

    assert _label_order(None) == (0, 1, 2)
    assert _label_order(["contradiction", "entailment", "neutral"]) == (1, 0, 2)
    assert _label_order(["ENTAILMENT", "NEUTRAL", "CONTRADICTION"]) == (0, 2, 1)
    with pytest.raises(ValueError, match="entailment, contradiction and neutral"):
        _label_order(["yes", "no"])


def test_missing_pair_model_folder_is_a_clear_qgate_error(tmp_path) -> None:
    from langchain_qgate.errors import EmbeddingError, QGateError
    from langchain_qgate.grounding.verifier.crossencoder import PairModel

    model = PairModel(tmp_path / "nowhere")
    with pytest.raises(EmbeddingError, match="pair model at") as info:
        model.predict([("a claim.", "some evidence.")])
    assert isinstance(info.value, QGateError)
    assert model.predict([]).shape == (0, 3)  # nothing to load for no pairs


@pytest.mark.model
def test_a_full_cache_starts_over_between_calls_never_inside_one(monkeypatch) -> None:
    import langchain_qgate.grounding.verifier.crossencoder as crossencoder

    pairs = [(f"Acme has {n} staff.", "Acme has 12 staff.") for n in range(6)]
    alone = np.stack([crossencoder.PairModel().predict([p])[0] for p in pairs])
    monkeypatch.setattr(crossencoder, "_CACHE_PAIRS", 4)
    model = crossencoder.PairModel()
    model.predict(pairs[:2])  # cached; the next call needs 6 more than the 4 it may hold
    np.testing.assert_array_equal(model.predict(pairs), alone)  # before: KeyError
    np.testing.assert_array_equal(model.predict(pairs[:3]), alone[:3])


def _named(sig: ClaimSignals) -> tuple[str, str] | None:
    """The (claim, evidence) words of the contradiction the signals carry, if any."""
    got = sig.contradiction
    return None if got is None else (got.claim_value, got.evidence_value)


def _settle(claim: str, index: EvidenceIndex, model: ScriptedPairModel, *chunks: int):
    sig = _signals(index, *chunks)
    apply_pair_model(
        model, [claim], [sig], index, windows=3, contradict=0.995, overrule=0.95, substitute=0.9
    )
    return sig


def test_a_local_change_is_named_below_the_whole_claim_threshold() -> None:
    index = _index("The CEO of Acme is Maria Lopez.", "Tickets cost 12 euros.")
    model = ScriptedPairModel({"The CEO of Acme is Maria Lopez.": (0.01, 0.96, 0.03)})
    sig = _settle("The CEO of Acme is John Smith.", index, model, 0, 1)
    assert sig.contradiction is not None
    assert (sig.contradiction.kind, sig.contradiction.claim_value) == ("statement", "John Smith")
    assert sig.contradiction.evidence_value == "Maria Lopez"
    assert sig.contradiction.evidence_id == index.chunks[0].id
    assert sig.contradiction.describe() == (
        "the evidence says 'Maria Lopez', not 'John Smith': 'The CEO of Acme is Maria Lopez.'"
    )
    assert sig.no_contradiction == 0.0
    assert sig.pair_change_p == pytest.approx(0.96)
    assert not sig.pair_change_opposite


def test_another_word_for_a_word_is_left_to_the_other_signals() -> None:
    # "torn down" for "demolished": WordNet lists no relation, and the small model misreads
    # such synonyms, so however sure it is, the local change is not named
    index = _index("The old mill was demolished to make way for flats.")
    model = ScriptedPairModel(
        {"The old mill was demolished to make way for flats.": (0.005, 0.99, 0.005)}
    )
    sig = _settle("The old mill was torn down to make way for flats.", index, model, 0)
    assert sig.pair_change is not None
    assert sig.pair_change_p == 0.0
    assert not sig.pair_change_opposite
    assert sig.contradiction is None


def test_a_local_change_below_its_threshold_is_kept_but_not_named() -> None:
    index = _index("The CEO of Acme is Maria Lopez.")
    model = ScriptedPairModel({"The CEO of Acme is Maria Lopez.": (0.05, 0.85, 0.1)})
    sig = _settle("The CEO of Acme is John Smith.", index, model, 0)
    assert sig.contradiction is None
    assert sig.pair_change is not None
    assert sig.pair_change_p == pytest.approx(0.85)
    assert not sig.pair_change_opposite


@pytest.mark.parametrize("probs", [(0.99, 0.005, 0.005), (0.05, 0.3, 0.65)])
def test_a_word_for_its_opposite_is_named_whatever_the_model_reads_of_it(
    probs: tuple[float, float, float],
) -> None:
    # the small model reads "maximum" for "minimum" as entailed; WordNet's antonym decides
    index = _index("The minimum age for the tour is 14.")
    model = ScriptedPairModel({"The minimum age for the tour is 14.": probs})
    sig = _settle("The maximum age for the tour is 14.", index, model, 0)
    assert sig.contradiction is not None
    assert sig.pair_change_opposite
    assert sig.contradiction.describe() == (
        "the evidence says 'minimum', not 'maximum': 'The minimum age for the tour is 14.'"
    )


@pytest.mark.parametrize(
    ("claim", "named"),
    [
        ("The library is open on Sundays.", ("is open", "closed")),
        ("The library opens on Sundays.", ("opens", "closed")),
        ("The library is open on weekdays.", None),  # one clause, as it is
        ("The library is closed on Sundays.", None),
    ],
)
def test_a_claim_may_restate_one_clause_of_a_compound_sentence(
    claim: str, named: tuple[str, str] | None
) -> None:
    # the model reads the whole sentence as entailing the claim; the change is in the clause
    # the claim restates ("The library closed on Sundays.", its subject carried)
    sentence = "The library is open on weekdays and closed on Sundays."
    index = _index(sentence)
    sig = _settle(claim, index, ScriptedPairModel({sentence: (0.98, 0.01, 0.01)}), 0)
    got = sig.contradiction
    assert _named(sig) == named
    if got is not None:
        assert got.quote == sentence  # the evidence's own words, not the carried clause
        assert sig.pair_change_opposite


@pytest.mark.parametrize(
    ("claim", "named"),
    [
        ("Salisbury Cathedral was consecrated in 1220.", ("1220", "1258")),
        ("Salisbury Cathedral was begun in 1258.", ("1258", "1220")),
        ("Salisbury Cathedral was consecrated in 1258.", None),
        ("Salisbury Cathedral was consecrated in 1260.", None),  # no clause's: the model's
    ],
)
def test_a_figure_moved_from_the_other_clause_is_named(
    claim: str, named: tuple[str, str] | None
) -> None:
    sentence = "Salisbury Cathedral was begun in 1220 and consecrated in 1258."
    index = _index(sentence)
    sig = _settle(claim, index, ScriptedPairModel({sentence: (0.9, 0.05, 0.05)}), 0)
    assert _named(sig) == named


def test_a_paraphrase_the_model_reads_as_contradicted_is_not_named() -> None:
    # not a local change (three words replaced), so only the 0.995 threshold could name it
    index = _index("The festival was cancelled because of heavy rain.")
    model = ScriptedPairModel(
        {"The festival was cancelled because of heavy rain.": (0.01, 0.99, 0.0)}
    )
    sig = _settle("The festival was called off due to heavy rain.", index, model, 0)
    assert sig.pair_change is None
    assert sig.contradiction is None


def test_no_local_change_is_named_when_a_window_supports_the_claim() -> None:
    index = _index("The museum is closed on Mondays.", "Since 2024 the museum is open on Mondays.")
    model = ScriptedPairModel(
        {
            "The museum is closed on Mondays.": (0.01, 0.97, 0.02),
            "Since 2024 the museum is open on Mondays.": (0.9, 0.05, 0.05),
        }
    )
    sig = _settle("The museum is open on Mondays.", index, model, 0, 1)
    assert sig.contradiction is None


def test_a_flipped_polarity_in_another_window_is_named_as_the_opposite() -> None:
    # the window the model reads as most contradicting is not a restatement; the next one is
    index = _index("Ferries are the only way to reach the island.", "Lindholm has no airport.")
    model = ScriptedPairModel(
        {
            "Ferries are the only way to reach the island.": (0.02, 0.96, 0.02),
            "Lindholm has no airport.": (0.01, 0.93, 0.06),
        }
    )
    sig = _settle("Lindholm has an airport.", index, model, 0, 1)
    assert sig.contradiction is not None
    assert sig.contradiction.kind == "negation"
    assert sig.contradiction.quote == "Lindholm has no airport."
    assert sig.contradiction.describe() == (
        "the evidence states the opposite: 'Lindholm has no airport.'"
    )


def test_a_record_window_never_yields_a_local_change() -> None:
    index = _index({"name": "Alimentum", "area": "city centre"})
    window = verifier_window(index, 0)
    model = ScriptedPairModel({window: (0.0, 0.99, 0.01)})
    sig = _settle(window.replace("city centre", "riverside"), index, model, 0)
    assert sig.pair_change is None
    assert sig.contradiction is None


class _ConstantPairModel(ScriptedPairModel):
    """Every window gets the same probabilities."""

    def __init__(self, probs: tuple[float, float, float]) -> None:
        super().__init__({})
        self.probs = probs

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        self.seen.extend(pairs)
        return np.array([self.probs for _ in pairs], dtype=np.float32)


def _record_verdict(sentence: str, record: dict, probs: tuple[float, float, float]):
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = _ConstantPairModel(probs)  # type: ignore[assignment]
    return monitor.verify_grounding(sentence, {"record": record}).verdicts[-1]


MILL = {"name": "The Mill", "eatType": "pub", "priceRange": "cheap", "familyFriendly": False}


@pytest.mark.parametrize(
    ("probs", "unsupported"),
    [((0.85, 0.05, 0.10), False), ((0.95, 0.01, 0.04), False), ((0.7, 0.05, 0.25), True)],
)
def test_a_claim_no_field_states_is_the_verifiers_from_0_8(probs, unsupported) -> None:
    # "Children should not visit." names no field the matcher reads; the record is the only
    # one, so the claim is about it (issue 24 item 2) and the verifier decides.
    v = _record_verdict("The Mill is a pub. Children should not visit.", MILL, probs)
    assert v.contradiction is None
    assert (v.grade is Grade.FABRICATED) is unsupported
    assert (v.support <= 0.3) is unsupported


@pytest.mark.parametrize(
    "sentence",
    [
        "The Mill is moderately priced.",  # a neighbouring band of "cheap": the matcher's call
        "The Mill is a pub with a beer garden.",  # a thing the record does not list
    ],
)
def test_the_verifier_does_not_ground_what_the_matcher_rules_out(sentence) -> None:
    v = _record_verdict(sentence, MILL, (0.99, 0.005, 0.005))
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is None


def test_a_pronoun_claim_about_the_only_record_is_about_it() -> None:
    # Before, "It has a large garden." named no record and was graded as prose (INFERRED).
    v = _record_verdict("It has a large garden.", MILL, (0.05, 0.05, 0.9))
    assert v.grade is Grade.FABRICATED
    assert v.support <= 0.3


def test_next_to_prose_a_pronoun_claim_may_be_about_the_prose() -> None:
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = _ConstantPairModel((0.3, 0.05, 0.65))  # type: ignore[assignment]
    doc = "The pub has a large garden overlooking the river."
    alone = monitor.verify_grounding("It has a large garden.", {"record": MILL}).verdicts[0]
    mixed = monitor.verify_grounding("It has a large garden.", [{"record": MILL}, doc])
    assert alone.support <= 0.3  # the record's alone: no field states it
    assert mixed.verdicts[0].support > 0.3
    assert mixed.verdicts[0].evidence[0].quote == doc


def test_verifier_thresholds_are_read_from_the_model_file() -> None:
    # Every cut-off on the verifier's probabilities is recorded beside the fitted combination,
    # so a refit for another verifier changes no code.
    import json
    from dataclasses import replace
    from importlib import resources

    from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds

    ref = resources.files("langchain_qgate") / "data" / "grounding_model.json"
    info = json.loads(ref.read_text(encoding="utf-8"))["info"]
    assert set(VerifierThresholds.KEYS.values()) <= set(info)
    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    assert monitor.thresholds == VerifierThresholds.from_info(info)
    monitor._pair_model = ScriptedPairModel(  # type: ignore[assignment]
        {"The museum is closed on Mondays.": (0.0005, 0.999, 0.0005)}
    )
    monitor.thresholds = replace(monitor.thresholds, contradict=0.9995)  # a stricter verifier
    report = monitor.verify_grounding(
        "The museum is open on Mondays.", ["The museum is closed on Mondays."]
    )
    assert "the evidence says otherwise" not in report.verdicts[0].reason


def test_thresholds_round_trip_through_the_info_block() -> None:
    from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds

    custom = VerifierThresholds(contradict=0.99, denied=0.4, fields_ground=0.7)
    assert VerifierThresholds.from_info(custom.to_info()) == custom
    assert VerifierThresholds.from_info({}) == VerifierThresholds()


def test_the_verifier_never_grounds_a_record_claim_that_denies_what_its_evidence_says() -> None:
    # A cross-encoder this small reads "not" poorly: one that reads every window as entailing
    # grounds "Dogs are welcome" through the record's name, never its denial.
    class Entailing(ScriptedPairModel):
        def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
            return np.array([(0.95, 0.02, 0.03)] * len(pairs), dtype=np.float32)

    monitor = HallucinationMonitor(
        embedder=HashingEmbedder(), policy=GroundingPolicy(pair_model="bundled")
    )
    monitor._pair_model = Entailing({})  # type: ignore[assignment]
    record = '{"hotel": "Hotel Lux", "pets_allowed": true, "price_per_night_eur": 120}'
    said = monitor.verify_grounding("Dogs are welcome at Hotel Lux.", record).verdicts[0]
    denied = monitor.verify_grounding("Dogs aren't allowed at Hotel Lux.", record).verdicts[0]
    assert said.grade.value == "grounded"
    assert denied.grade.value != "grounded"
    assert denied.signals["negation_consistent"] == 0.0
