"""Confidence calibrator: stated confidence, calibration map, fit/save/load, ECE/Brier."""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from langchain_qgate.calibration import (
    VERBAL_CONFIDENCE,
    CalibratedConfidence,
    CalibrationMap,
    CalibrationReport,
    ConfidenceCalibrator,
    ShapeRule,
    brier_score,
    expected_calibration_error,
    logprob_confidence,
    task_shape,
    verbalized_confidence,
)
from langchain_qgate.schemas import Claim, ClaimVerdict, Grade, GroundingReport


def _report(score: float, n_claims: int = 1, evidence_count: int = 5) -> GroundingReport:
    verdicts = [
        ClaimVerdict(
            claim=Claim(text=f"claim {i}", start=0, end=7, index=i),
            grade=Grade.GROUNDED,
            support=score,
            credit=score,
            reason="test",
        )
        for i in range(n_claims)
    ]
    return GroundingReport(score=score, verdicts=verdicts, evidence_count=evidence_count)


def _values(text: str) -> list[float]:
    return [v for _, v in verbalized_confidence(text)]


# --- verbalized confidence ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm 90% sure the answer is Paris.", [0.9]),
        ("I am 75 percent confident.", [0.75]),
        ("Confidence: 0.8", [0.8]),
        ("confidence level of 65%", [0.65]),
        ("I'd say 7/10 confident.", [0.7]),
        ("It is definitely Paris.", [0.95]),
        ("It is certainly true.", [0.95]),
        ("I believe it was 1999.", [0.65]),
        ("It probably rains.", [0.7]),
        ("It is likely true.", [0.7]),
        ("It might be Lyon.", [0.4]),
        ("I'm not sure, it could be Lyon.", [0.35, 0.4]),
        ("That is highly unlikely.", [0.1]),
        ("That is unlikely.", [0.2]),
        ("The capital is Paris.", []),
    ],
)
def test_verbalized_confidence_reads_numbers_and_phrases(text: str, expected: list[float]) -> None:
    assert _values(text) == pytest.approx(expected)


def test_numbers_win_over_phrases() -> None:
    assert _values("I think, and I'm 80% sure, that it is Paris.") == pytest.approx([0.8])


def test_typographic_apostrophe_is_understood() -> None:
    assert _values("I’m sure it is Paris.") == pytest.approx([0.95])


def test_unlikely_is_not_read_as_likely() -> None:
    assert _values("This is unlikely.") == [0.2]


def test_phrase_table_values_are_probabilities() -> None:
    assert all(0.0 <= v <= 1.0 for v in VERBAL_CONFIDENCE.values())
    assert VERBAL_CONFIDENCE["definitely"] > VERBAL_CONFIDENCE["probably"]
    assert VERBAL_CONFIDENCE["probably"] > VERBAL_CONFIDENCE["might"]


# --- logprobs ----------------------------------------------------------------------------------


def _logprob_message(logprobs: list[float], text: str = "Paris") -> AIMessage:
    content = [{"token": "t", "logprob": lp, "top_logprobs": []} for lp in logprobs]
    return AIMessage(content=text, response_metadata={"logprobs": {"content": content}})


def test_logprob_confidence_is_mean_token_probability() -> None:
    msg = _logprob_message([math.log(0.9), math.log(0.5)])
    value, n = logprob_confidence(msg)  # type: ignore[misc]
    assert value == pytest.approx(0.7)
    assert n == 2


def test_logprob_confidence_accepts_a_bare_list() -> None:
    msg = AIMessage(content="x", response_metadata={"logprobs": [{"token": "x", "logprob": 0.0}]})
    assert logprob_confidence(msg) == (1.0, 1)


@pytest.mark.parametrize(
    "meta", [{}, {"logprobs": None}, {"logprobs": {"content": []}}, {"logprobs": "bad"}]
)
def test_logprob_confidence_absent(meta: dict[str, object]) -> None:
    assert logprob_confidence(AIMessage(content="x", response_metadata=meta)) is None
    assert logprob_confidence("plain string") is None


# --- calibrate ---------------------------------------------------------------------------------


def test_no_stated_confidence_relies_on_grounding() -> None:
    cal = ConfidenceCalibrator(None)
    result = cal.calibrate("The capital is Paris.", _report(0.8))
    assert result.raw is None
    assert result.calibrated == pytest.approx(0.8)
    assert result.gap == 0.0
    assert result.overconfident is False
    assert result.reason.startswith("no stated confidence")
    assert [s.kind for s in result.sources] == ["grounding"]


def test_overconfident_when_stated_exceeds_calibrated_by_margin() -> None:
    cal = ConfidenceCalibrator(None)
    result = cal.calibrate("I'm 95% sure it is Lyon.", _report(0.3))
    assert result.raw == pytest.approx(0.95)
    assert result.gap == pytest.approx(0.65)
    assert result.overconfident is True
    assert "overconfident by 0.65" in result.reason


def test_margin_is_configurable() -> None:
    text = "It is probably Lyon."  # 0.7 stated
    assert ConfidenceCalibrator(None).calibrate(text, _report(0.45)).overconfident is True
    loose = ConfidenceCalibrator(None, overconfidence_margin=0.3)
    assert loose.calibrate(text, _report(0.45)).overconfident is False


def test_invalid_margin_is_rejected() -> None:
    with pytest.raises(ValueError, match="overconfidence_margin"):
        ConfidenceCalibrator(None, overconfidence_margin=1.5)


def test_logprobs_are_the_stated_confidence_when_nothing_is_verbalized() -> None:
    cal = ConfidenceCalibrator(None)
    msg = _logprob_message([math.log(0.99)] * 4)
    result = cal.calibrate(msg, _report(0.5))
    assert result.raw == pytest.approx(0.99)
    assert result.overconfident is True
    assert [s.kind for s in result.sources] == ["logprobs", "grounding"]


def test_verbalized_wins_over_logprobs_and_logprobs_can_be_disabled() -> None:
    msg = _logprob_message([math.log(0.99)], text="It might be Lyon.")
    assert ConfidenceCalibrator(None).calibrate(msg, _report(0.5)).raw == pytest.approx(0.4)
    plain = _logprob_message([math.log(0.99)])
    off = ConfidenceCalibrator(None, use_logprobs=False).calibrate(plain, _report(0.5))
    assert off.raw is None


def test_calibrate_applies_the_map_to_the_grounding_score() -> None:
    cmap = CalibrationMap(method="isotonic", x=[0.0, 0.5, 1.0], y=[0.1, 0.3, 0.9])
    result = ConfidenceCalibrator(cmap).calibrate("text", _report(0.75))
    assert result.calibrated == pytest.approx(0.6)


def test_report_without_claims_says_so() -> None:
    report = GroundingReport(score=1.0, reason="no checkable claims")
    result = ConfidenceCalibrator(None).calibrate("Hello!", report)
    assert "no checkable claims" in result.reason


def test_calibrated_confidence_json_round_trip() -> None:
    result = ConfidenceCalibrator(None).calibrate("I'm 90% sure.", _report(0.4))
    assert CalibratedConfidence.model_validate_json(result.model_dump_json()) == result


# --- maps, fit, save/load, report --------------------------------------------------------------


def test_map_methods_apply() -> None:
    assert CalibrationMap().apply(0.37) == pytest.approx(0.37)
    iso = CalibrationMap(method="isotonic", x=[0.2, 0.8], y=[0.1, 0.7])
    assert iso.apply(0.0) == pytest.approx(0.1)  # clipped
    assert iso.apply(0.5) == pytest.approx(0.4)
    assert iso.apply(1.0) == pytest.approx(0.7)
    platt = CalibrationMap(method="platt", coef=4.0, intercept=-2.0)
    assert platt.apply(0.5) == pytest.approx(0.5)
    assert platt.apply(1.0) == pytest.approx(1 / (1 + math.exp(-2.0)))


def _synthetic(n: int, seed: int) -> list[tuple[float, int]]:
    """Scores whose true P(correct) is score**2: uncalibrated by construction."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.random()
        out.append((s, int(rng.random() < s * s)))
    return out


@pytest.mark.parametrize("method", ["isotonic", "platt"])
def test_fit_improves_calibration_on_held_out_records(method: str) -> None:
    cal = ConfidenceCalibrator(None)
    cmap = cal.fit(_synthetic(4000, 1), method=method, fitted_on="synthetic")  # type: ignore[arg-type]
    assert cmap.method == method
    assert cmap.n_records == 4000
    held_out = _synthetic(4000, 2)
    rep = cal.report(held_out)
    assert rep.n == 4000
    assert rep.ece_uncalibrated > 0.1
    assert rep.ece < 0.05
    assert rep.brier < rep.brier_uncalibrated
    assert cal.map.apply(0.5) == pytest.approx(0.25, abs=0.07)


def test_fit_accepts_feature_mappings() -> None:
    records = [({"grounding": s}, c) for s, c in _synthetic(500, 3)]
    cmap = ConfidenceCalibrator(None).fit(records)
    assert cmap.feature == "grounding"
    assert cmap.x == sorted(cmap.x)


def test_fit_needs_both_outcomes() -> None:
    with pytest.raises(ValueError, match="both outcomes"):
        ConfidenceCalibrator(None).fit([(0.5, True), (0.9, True)])


def test_report_without_records_uses_fit_records_and_errors_when_none() -> None:
    cal = ConfidenceCalibrator(None)
    with pytest.raises(ValueError, match="labelled records"):
        cal.report()
    cal.fit(_synthetic(300, 4))
    assert cal.report().n == 300


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    cal = ConfidenceCalibrator(None)
    cal.fit(_synthetic(800, 5), method="isotonic")
    path = cal.save(tmp_path / "map.json")
    data = json.loads(path.read_text())
    assert data["method"] == "isotonic"
    assert len(data["x"]) == len(data["y"]) > 1
    loaded = ConfidenceCalibrator.load(path, overconfidence_margin=0.1)
    assert loaded.map == cal.map
    assert loaded.overconfidence_margin == 0.1
    platt = ConfidenceCalibrator(None)
    platt.fit(_synthetic(800, 6), method="platt")
    assert ConfidenceCalibrator.load(platt.save(tmp_path / "p.json")).map == platt.map


def test_reliability_diagram_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    cal = ConfidenceCalibrator(None)
    cal.fit(_synthetic(500, 7))
    rep = cal.report(_synthetic(500, 8), plot_path=tmp_path / "rel.png")
    assert rep.plot_path == str(tmp_path / "rel.png")
    assert (tmp_path / "rel.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert CalibrationReport.model_validate_json(rep.model_dump_json()) == rep
    assert sum(b.count for b in rep.bins) == 500


def test_ece_and_brier_values() -> None:
    assert expected_calibration_error([0.9, 0.9, 0.1, 0.1], [1, 1, 0, 0]) == pytest.approx(0.1)
    assert expected_calibration_error([0.5, 0.5], [1, 0]) == pytest.approx(0.0)
    assert brier_score([1.0, 0.0, 0.5], [1, 0, 1]) == pytest.approx(0.25 / 3)
    assert expected_calibration_error([], []) == 0.0


def test_default_calibrator_loads_the_shipped_map() -> None:
    cal = ConfidenceCalibrator()
    assert cal.map.method in {"isotonic", "platt", "identity"}
    low, high = cal.map.apply(0.05), cal.map.apply(0.95)
    assert 0.0 <= low <= high <= 1.0


# --- per-shape maps ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("has_question", "chars", "chunks", "shape"),
    [
        (True, 500, 1, "question"),
        (False, 40, None, "short_mid"),
        (False, 40, 3, "short_mid"),
        (False, 40, 2, "short_small"),
        (False, 40, 9, "short_large"),
        (False, 150, 1, "medium_small"),
        (False, 199, 8, "medium_mid"),
        (False, 200, 30, "long_large"),
    ],
)
def test_task_shape(has_question: bool, chars: int, chunks: int | None, shape: str) -> None:
    got = task_shape(has_question=has_question, output_chars=chars, evidence_chunks=chunks)
    assert got == shape


def test_task_shape_rule_is_configurable() -> None:
    rule = ShapeRule(short_chars=10, long_chars=20, small_evidence=0, large_evidence=1)
    assert task_shape(has_question=False, output_chars=15, rule=rule) == "medium_mid"
    assert task_shape(has_question=False, output_chars=5, evidence_chunks=0, rule=rule) == (
        "short_small"
    )
    assert task_shape(has_question=False, output_chars=25, evidence_chunks=2, rule=rule) == (
        "long_large"
    )


def _shaped(n: int, seed: int) -> list[tuple[dict[str, float], int]]:
    """Short outputs: P(correct) = score**2; long outputs: P(correct) = sqrt(score)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        s = rng.random()
        long = i % 2 == 1
        p = math.sqrt(s) if long else s * s
        feats = {
            "grounding": s,
            "has_question": 0.0,
            "output_chars": 400.0 if long else 40.0,
            "evidence_chunks": 5.0,
        }
        out.append((feats, int(rng.random() < p)))
    return out


def test_fit_by_shape_calibrates_each_shape() -> None:
    pooled = ConfidenceCalibrator(None)
    pooled.fit(_shaped(6000, 1))
    shaped = ConfidenceCalibrator(None)
    cmap = shaped.fit(_shaped(6000, 1), by_shape=True)
    assert set(cmap.groups) == {"short_mid", "long_mid"}
    held = _shaped(6000, 2)
    for want_long in (False, True):
        part = [r for r in held if (r[0]["output_chars"] > 100) is want_long]
        assert shaped.report(part).ece < 0.05
        assert pooled.report(part).ece > 0.1
    assert cmap.apply(0.25, shape="short_mid") == pytest.approx(0.0625, abs=0.1)
    assert cmap.apply(0.25, shape="long_mid") == pytest.approx(0.5, abs=0.1)
    assert cmap.apply(0.25, shape="question") == pytest.approx(cmap.apply(0.25))


def test_shape_map_is_used_by_calibrate_and_survives_json(tmp_path: Path) -> None:
    cal = ConfidenceCalibrator(None)
    cal.fit(_shaped(6000, 3), by_shape=True)
    loaded = ConfidenceCalibrator.load(cal.save(tmp_path / "m.json"))
    assert loaded.map == cal.map
    short = loaded.calibrate("Paris.", _report(0.25))
    long = loaded.calibrate("x" * 400, _report(0.25))
    assert short.calibrated < 0.2 < 0.4 < long.calibrated
    assert "for long_mid outputs" in long.reason


def test_small_shapes_fall_back_to_the_pooled_map() -> None:
    cmap = ConfidenceCalibrator(None).fit(_shaped(400, 4), by_shape=True, min_group=300)
    assert cmap.groups == {}
    cmap = ConfidenceCalibrator(None).fit(_shaped(400, 4), by_shape=True, min_group=150)
    assert set(cmap.groups) == {"short_mid", "long_mid"}
    cmap = ConfidenceCalibrator(None).fit(_shaped(200, 4), by_shape=True)
    assert cmap.groups == {}


def test_reliability_diagram_without_matplotlib_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    cal = ConfidenceCalibrator(None)
    cal.fit(_synthetic(200, 9))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"langchain-qgate\[plot\]"):
        cal.report(plot_path=tmp_path / "x.png")


def _step(n: int, seed: int) -> list[tuple[float, int]]:
    """P(correct) jumps from 0.1 to 0.9 at score 0.5: a shape Platt scaling cannot follow."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.random()
        out.append((s, int(rng.random() < (0.1 if s < 0.5 else 0.9))))
    return out


def test_auto_method_picks_isotonic_for_a_step_and_is_calibrated() -> None:
    cal = ConfidenceCalibrator(None)
    cmap = cal.fit(_step(3000, 1), method="auto")
    assert cmap.method == "isotonic"
    assert cal.report(_step(3000, 2)).ece < 0.05


def test_auto_method_on_a_tiny_sample_falls_back_to_platt() -> None:
    cmap = ConfidenceCalibrator(None).fit([(0.1, 0), (0.9, 1), (0.2, 0), (0.8, 1)], method="auto")
    assert cmap.method == "platt"


# --- single-evidence bucket and the shipped rule -------------------------------------------------

_RULE = ShapeRule(
    short_chars=130, long_chars=200, single_evidence=1, small_evidence=5, large_evidence=12
)


@pytest.mark.parametrize(
    ("chars", "chunks", "shape"),
    [
        (40, 1, "short_single"),
        (129, 2, "short_small"),
        (129, 5, "short_small"),
        (130, 6, "medium_mid"),
        (199, 12, "medium_mid"),
        (250, 13, "long_large"),
        (250, 1, "long_single"),
        (40, None, "short_mid"),
    ],
)
def test_task_shape_with_a_single_evidence_bucket(
    chars: int, chunks: int | None, shape: str
) -> None:
    got = task_shape(has_question=False, output_chars=chars, evidence_chunks=chunks, rule=_RULE)
    assert got == shape


def test_rule_without_single_evidence_keeps_the_old_buckets() -> None:
    old = ShapeRule.model_validate(
        {"short_chars": 100, "long_chars": 200, "small_evidence": 2, "large_evidence": 8}
    )
    assert old.single_evidence is None
    assert task_shape(has_question=False, output_chars=40, evidence_chunks=1, rule=old) == (
        "short_small"
    )


def _single_vs_passage(n: int, seed: int) -> list[tuple[dict[str, float], int]]:
    """One evidence chunk: P(correct) = score**2; five chunks: P(correct) = sqrt(score)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        s = rng.random()
        single = i % 2 == 0
        p = s * s if single else math.sqrt(s)
        feats = {
            "grounding": s,
            "has_question": 0.0,
            "output_chars": 60.0,
            "evidence_chunks": 1.0 if single else 5.0,
        }
        out.append((feats, int(rng.random() < p)))
    return out


def test_calibrate_derives_the_single_evidence_shape_from_the_report(tmp_path: Path) -> None:
    cal = ConfidenceCalibrator(None)
    cmap = cal.fit(_single_vs_passage(4000, 5), by_shape=True, shape_rule=_RULE)
    assert set(cmap.groups) == {"short_single", "short_small"}
    loaded = ConfidenceCalibrator.load(cal.save(tmp_path / "rule.json"))
    assert loaded.map == cmap
    assert loaded.map.shape_rule.single_evidence == 1
    one = _report(0.25).model_copy(update={"evidence_count": 1})
    five = _report(0.25).model_copy(update={"evidence_count": 5})
    on_one = loaded.calibrate("The tower is 300 m tall.", one)
    on_five = loaded.calibrate("The tower is 300 m tall.", five)
    assert on_one.calibrated == pytest.approx(cmap.apply(0.25, shape="short_single"))
    assert on_five.calibrated == pytest.approx(cmap.apply(0.25, shape="short_small"))
    assert on_one.calibrated < 0.2 < 0.35 < on_five.calibrated
    assert "for short_single outputs" in on_one.reason


def test_shipped_map_is_monotone_in_every_shape() -> None:
    cmap = ConfidenceCalibrator().map
    grid = [i / 100 for i in range(101)]
    for shape in [None, *cmap.groups]:
        values = [cmap.apply(g, shape=shape) for g in grid]
        assert all(b >= a - 1e-12 for a, b in itertools.pairwise(values)), shape


def test_platt_never_fits_a_decreasing_map() -> None:
    rng = random.Random(6)
    recs = [(s, int(rng.random() < 1 - s)) for s in (rng.random() for _ in range(500))]
    cmap = ConfidenceCalibrator(None).fit(recs, method="platt")
    assert cmap.apply(0.1) <= cmap.apply(0.9)


def test_default_gate_passes_a_long_fully_grounded_answer_over_large_evidence() -> None:
    # The shipped map is pooled: it must not carry a long-output base rate that keeps a
    # verbatim, well-grounded multi-sentence answer below the default confidence threshold.
    from langchain_qgate.gate import FilteredOutput, QualityGate
    from langchain_qgate.grounding import HallucinationMonitor
    from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder

    facts = [
        f"Plant {name} in {city} opened in {year} and employs {staff} people."
        for name, city, year, staff in [
            ("Alder", "Hamburg", 2011, 120),
            ("Birch", "Leipzig", 2013, 95),
            ("Cedar", "Bremen", 2015, 210),
            ("Damson", "Kiel", 2016, 64),
            ("Elm", "Dresden", 2018, 180),
            ("Fir", "Rostock", 2019, 75),
            ("Gorse", "Essen", 2020, 130),
            ("Hazel", "Bonn", 2021, 55),
            ("Ivy", "Mainz", 2022, 40),
            ("Juniper", "Ulm", 2023, 88),
            ("Kale", "Trier", 2024, 33),
            ("Larch", "Jena", 2024, 47),
            ("Maple", "Halle", 2025, 52),
            ("Nettle", "Gera", 2025, 29),
        ]
    ]
    answer = " ".join(facts[:5])
    gate = QualityGate(monitor=HallucinationMonitor(embedder=HashingEmbedder()))
    decision = gate.check(answer, " ".join(facts))
    assert len(answer) > 250
    assert decision.metadata.score > 0.8
    assert isinstance(decision, FilteredOutput), decision.metadata.failed_dimensions
    assert decision.metadata.confidence >= 0.5


def test_calibration_is_marked_fitted_only_for_the_users_own_map(tmp_path: Path) -> None:
    rep = GroundingReport(score=0.7, verdicts=[], evidence_count=1)
    shipped = ConfidenceCalibrator()
    assert shipped.calibrate("Acme was founded in 2020.", rep).fitted is False
    own = ConfidenceCalibrator()
    own.fit([(0.9, True), (0.2, False)] * 10, method="platt")
    assert own.calibrate("Acme was founded in 2020.", rep).fitted is True
    path = own.save(tmp_path / "map.json")
    assert ConfidenceCalibrator.load(path).calibrate("x was y.", rep).fitted is True
    assert ConfidenceCalibrator(None).calibrate("x was y.", rep).fitted is False
