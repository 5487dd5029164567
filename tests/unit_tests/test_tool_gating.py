"""Tool gating: levels, quadrants, suggestions, the learning signal and the gated retriever."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import FrozenInstanceError
from typing import Any

import numpy as np
import pytest
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.tool_gating import (
    WARNING_METADATA_KEY,
    GatingLevel,
    JohariQuadrant,
    LearningSignal,
    SuggestedAction,
    ToolGatingConfig,
    ToolGatingEvaluator,
    ToolGatingWarning,
    compute_learning_signal,
    gated_retriever,
)
from langchain_qgate.tool_gating.retrieval import documents_in, split_passages, to_items

EPS = 1e-6
FORMULA = ToolGatingConfig(
    similarity_floor=0.1,
    similarity_ceiling=0.6,
    temperature=0.1,
    weak_match_weight=0.8,
    coherence_floor=0.0,
    coherence_ceiling=0.35,
)
CORPUS = [
    "Paris is the capital of France.",
    "France is a country in Western Europe; its capital is Paris.",
    "The Eiffel Tower is in Paris, France.",
]


def sig(entropy: float, coherence: float, *, n_items: int = 3, query: str = "q") -> LearningSignal:
    return LearningSignal(
        query=query,
        entropy=entropy,
        coherence=coherence,
        best_match=max(0.0, 1.0 - entropy),
        flatness=0.5,
        n_items=n_items,
    )


class TableEmbedder:
    """Embeds known texts to fixed unit vectors (exact cosines for formula tests)."""

    def __init__(self, table: dict[str, Sequence[float]]) -> None:
        self.table = {k: np.asarray(v, dtype=np.float32) for k, v in table.items()}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = [self.table[t] / np.linalg.norm(self.table[t]) for t in texts]
        return np.stack(rows).astype(np.float32) if rows else np.zeros((0, 3), np.float32)


def unit(cos_q: float, angle: float = 0.0) -> list[float]:
    """A vector with cosine ``cos_q`` to (1, 0, 0), rotated by ``angle`` around the x axis."""
    s = math.sqrt(1.0 - cos_q**2)
    return [cos_q, s * math.cos(angle), s * math.sin(angle)]


# -- levels ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entropy", "expected"),
    [
        (0.6 - EPS, GatingLevel.NONE),
        (0.6, GatingLevel.NONE),
        (0.6 + EPS, GatingLevel.CAUTION),
        (0.8 - EPS, GatingLevel.CAUTION),
        (0.8, GatingLevel.WARNING),
        (0.8 + EPS, GatingLevel.WARNING),
        (0.9 - EPS, GatingLevel.WARNING),
        (0.9, GatingLevel.CRITICAL),
        (0.9 + EPS, GatingLevel.CRITICAL),
        (1.0, GatingLevel.CRITICAL),
    ],
)
def test_entropy_thresholds_set_the_level(entropy: float, expected: GatingLevel) -> None:
    assert ToolGatingConfig().level(entropy, 1.0) is expected
    assert sig(entropy, 1.0).level() is expected


@pytest.mark.parametrize(
    ("coherence", "expected"),
    [
        (0.5 + EPS, GatingLevel.NONE),
        (0.5, GatingLevel.NONE),
        (0.5 - EPS, GatingLevel.CAUTION),
        (0.3 + EPS, GatingLevel.CAUTION),
        (0.3, GatingLevel.WARNING),
        (0.3 - EPS, GatingLevel.WARNING),
        (0.2 + EPS, GatingLevel.WARNING),
        (0.2, GatingLevel.CRITICAL),
        (0.2 - EPS, GatingLevel.CRITICAL),
        (0.0, GatingLevel.CRITICAL),
    ],
)
def test_coherence_thresholds_set_the_level(coherence: float, expected: GatingLevel) -> None:
    assert ToolGatingConfig().level(0.0, coherence) is expected


def test_worse_of_entropy_and_coherence_wins() -> None:
    assert ToolGatingConfig().level(0.85, 0.1) is GatingLevel.CRITICAL
    assert ToolGatingConfig().level(0.7, 0.25) is GatingLevel.WARNING


def test_levels_are_ordered_and_comparable() -> None:
    levels = [GatingLevel.CRITICAL, GatingLevel.NONE, GatingLevel.WARNING, GatingLevel.CAUTION]
    assert sorted(levels) == [
        GatingLevel.NONE,
        GatingLevel.CAUTION,
        GatingLevel.WARNING,
        GatingLevel.CRITICAL,
    ]
    assert max(levels) is GatingLevel.CRITICAL
    assert GatingLevel.CAUTION < GatingLevel.WARNING <= GatingLevel.WARNING < GatingLevel.CRITICAL
    assert GatingLevel.CRITICAL > GatingLevel.NONE
    assert GatingLevel.WARNING >= GatingLevel.CAUTION
    assert [lv.rank for lv in GatingLevel] == [0, 1, 2, 3]
    assert {GatingLevel.WARNING: 1}[GatingLevel("warning")] == 1


def test_evaluate_returns_none_below_caution() -> None:
    assert ToolGatingEvaluator().evaluate(sig(0.3, 0.9)) is None


# -- quadrants ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entropy", "coherence", "quadrant"),
    [
        (0.2, 0.9, JohariQuadrant.OPEN),
        (0.95, 0.1, JohariQuadrant.BLIND),
        (0.2, 0.1, JohariQuadrant.HIDDEN),
        (0.95, 0.9, JohariQuadrant.UNKNOWN),
        (0.6, 0.5, JohariQuadrant.OPEN),  # at both splits: low entropy, high coherence
        (0.6 + EPS, 0.5 - EPS, JohariQuadrant.BLIND),
    ],
)
def test_quadrant_follows_entropy_and_coherence(
    entropy: float, coherence: float, quadrant: JohariQuadrant
) -> None:
    assert sig(entropy, coherence).quadrant() is quadrant
    warning = ToolGatingEvaluator().evaluate(sig(entropy, coherence))
    if quadrant is JohariQuadrant.OPEN:
        assert warning is None
    else:
        assert warning is not None
        assert warning.quadrant is quadrant


# -- suggestions -------------------------------------------------------------------------


def suggest(entropy: float, coherence: float, n_items: int = 3) -> tuple[SuggestedAction, ...]:
    return ToolGatingEvaluator().suggest(sig(entropy, coherence, n_items=n_items))


def test_refine_query_from_warning_entropy() -> None:
    assert SuggestedAction.REFINE_QUERY in suggest(0.8, 0.9)
    assert SuggestedAction.REFINE_QUERY not in suggest(0.8 - EPS, 0.9)


def test_add_context_above_caution_entropy() -> None:
    assert SuggestedAction.ADD_CONTEXT in suggest(0.6 + EPS, 0.9)
    assert SuggestedAction.ADD_CONTEXT not in suggest(0.6, 0.9)


def test_ask_for_clarification_when_critical_and_blind_or_empty() -> None:
    assert SuggestedAction.ASK_FOR_CLARIFICATION in suggest(0.95, 0.1)
    assert SuggestedAction.ASK_FOR_CLARIFICATION not in suggest(0.85, 0.25)  # Blind, Warning
    assert SuggestedAction.ASK_FOR_CLARIFICATION not in suggest(0.95, 0.9)  # Unknown
    assert SuggestedAction.ASK_FOR_CLARIFICATION in suggest(1.0, 0.0, n_items=0)


def test_narrow_scope_below_caution_coherence() -> None:
    assert SuggestedAction.NARROW_SCOPE in suggest(0.2, 0.5 - EPS)
    assert SuggestedAction.NARROW_SCOPE not in suggest(0.2, 0.5)
    assert SuggestedAction.NARROW_SCOPE not in suggest(1.0, 0.0, n_items=0)


def test_get_neighborhood_in_hidden_quadrant() -> None:
    assert suggest(0.2, 0.1) == (SuggestedAction.NARROW_SCOPE, SuggestedAction.GET_NEIGHBORHOOD)
    assert SuggestedAction.GET_NEIGHBORHOOD not in suggest(0.95, 0.1)


def test_consolidate_memory_in_unknown_quadrant() -> None:
    assert suggest(0.7, 0.9) == (SuggestedAction.ADD_CONTEXT, SuggestedAction.CONSOLIDATE_MEMORY)
    assert SuggestedAction.CONSOLIDATE_MEMORY not in suggest(0.7, 0.4)


def test_suggestions_are_sorted_by_priority() -> None:
    actions = suggest(0.95, 0.1)
    assert actions == (
        SuggestedAction.REFINE_QUERY,
        SuggestedAction.ADD_CONTEXT,
        SuggestedAction.ASK_FOR_CLARIFICATION,
        SuggestedAction.NARROW_SCOPE,
    )
    assert [a.priority for a in SuggestedAction] == list(range(6))
    assert [a.value for a in SuggestedAction] == [
        "refine_query",
        "add_context",
        "ask_for_clarification",
        "narrow_scope",
        "get_neighborhood",
        "consolidate_memory",
    ]


# -- config, custom thresholds, hard gating ------------------------------------------------


def test_custom_thresholds_move_levels_and_quadrants() -> None:
    cfg = ToolGatingConfig(
        caution_entropy=0.3,
        warning_entropy=0.5,
        critical_entropy=0.7,
        caution_coherence=0.8,
        warning_coherence=0.6,
        critical_coherence=0.4,
    )
    assert cfg.level(0.5, 1.0) is GatingLevel.WARNING
    assert cfg.level(0.7, 1.0) is GatingLevel.CRITICAL
    assert cfg.level(0.3, 1.0) is GatingLevel.NONE
    assert cfg.level(0.0, 0.6) is GatingLevel.WARNING
    assert cfg.level(0.0, 0.7) is GatingLevel.CAUTION
    assert cfg.quadrant(0.4, 0.7) is JohariQuadrant.BLIND
    assert ToolGatingConfig().quadrant(0.4, 0.7) is JohariQuadrant.OPEN
    assert ToolGatingEvaluator(cfg).evaluate(sig(0.75, 1.0)).level is GatingLevel.CRITICAL


def test_config_defaults_match_the_design() -> None:
    cfg = ToolGatingConfig()
    assert (cfg.caution_entropy, cfg.warning_entropy, cfg.critical_entropy) == (0.6, 0.8, 0.9)
    assert (cfg.caution_coherence, cfg.warning_coherence, cfg.critical_coherence) == (
        0.5,
        0.3,
        0.2,
    )
    assert cfg.gated_quadrants == {JohariQuadrant.BLIND, JohariQuadrant.UNKNOWN}
    assert cfg.hard_gating is False
    with pytest.raises(FrozenInstanceError):
        cfg.hard_gating = True  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"warning_entropy": 1.5},
        {"caution_entropy": 0.85},
        {"critical_entropy": 0.8},
        {"warning_coherence": 0.6},
        {"critical_coherence": -0.1},
        {"temperature": 0.0},
        {"similarity_floor": 0.7, "similarity_ceiling": 0.6},
        {"coherence_floor": 0.5, "coherence_ceiling": 0.5},
        {"max_items": 0},
        {"weak_match_weight": 1.2},
        {"gated_quadrants": frozenset({"blind"})},
    ],
)
def test_config_rejects_invalid_values(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ToolGatingConfig(**kwargs)


def test_soft_gating_never_gates() -> None:
    warning = ToolGatingEvaluator().evaluate(sig(0.95, 0.1))
    assert warning is not None
    assert warning.level is GatingLevel.CRITICAL
    assert warning.should_gate is False


@pytest.mark.parametrize(
    ("entropy", "coherence", "gated"),
    [
        (0.95, 0.1, True),  # Critical, Blind
        (0.95, 0.9, True),  # Critical, Unknown
        (0.2, 0.1, False),  # Critical, Hidden: the best item matches
        (0.85, 0.9, False),  # Warning only
    ],
)
def test_hard_gating_gates_critical_in_gated_quadrants(
    entropy: float, coherence: float, gated: bool
) -> None:
    warning = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True)).evaluate(
        sig(entropy, coherence)
    )
    assert warning is not None
    assert warning.should_gate is gated


def test_gated_quadrants_are_configurable() -> None:
    cfg = ToolGatingConfig(hard_gating=True, gated_quadrants=frozenset({JohariQuadrant.HIDDEN}))
    assert ToolGatingEvaluator(cfg).evaluate(sig(0.2, 0.1)).should_gate is True
    assert ToolGatingEvaluator(cfg).evaluate(sig(0.95, 0.1)).should_gate is False


# -- warning content and JSON ------------------------------------------------------------


def test_warning_round_trips_through_json() -> None:
    warning = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True)).evaluate(sig(0.95, 0.1))
    assert warning is not None
    data = warning.model_dump(mode="json")
    assert data["level"] == "critical"
    assert data["quadrant"] == "blind"
    assert data["suggested_actions"][0] == "refine_query"
    again = ToolGatingWarning.model_validate_json(warning.model_dump_json())
    assert again == warning
    assert again.level is GatingLevel.CRITICAL
    assert again.level > GatingLevel.WARNING


def test_messages_name_the_problem_and_next_step() -> None:
    soft = ToolGatingEvaluator().evaluate(sig(0.85, 0.9, query="stuff"))
    assert soft is not None
    assert "'stuff'" in soft.message
    assert "warning" in soft.message
    assert "rephrase the query" in soft.to_model_message()
    assert soft.summary() == soft.message
    hard = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True)).evaluate(sig(0.95, 0.9))
    assert hard is not None
    assert hard.to_model_message().startswith("Search results withheld")


# -- the learning signal -----------------------------------------------------------------


def test_no_items_is_maximal_uncertainty() -> None:
    signal = compute_learning_signal("anything", [], embedder=HashingEmbedder())
    assert (signal.entropy, signal.coherence, signal.n_items) == (1.0, 0.0, 0)
    assert signal.score_source == "none"
    warning = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True)).evaluate(signal)
    assert warning is not None
    assert (warning.level, warning.quadrant, warning.should_gate) == (
        GatingLevel.CRITICAL,
        JohariQuadrant.BLIND,
        True,
    )
    assert "returned nothing" in warning.message


def test_entropy_combines_weak_match_and_flatness_exactly() -> None:
    # cosines 0.6 and 0.35 map to 1.0 and 0.5 with floor 0.1, ceiling 0.6.
    emb = TableEmbedder({"q": [1, 0, 0], "a": unit(0.6), "b": unit(0.35, math.pi / 2)})
    signal = compute_learning_signal("q", ["b", "a"], embedder=emb, config=FORMULA)
    p = np.exp(np.array([1.0, 0.5]) / 0.1)
    p /= p.sum()
    flat = float(-(p * np.log(p)).sum() / math.log(2))
    assert signal.best_match == pytest.approx(1.0)
    assert signal.flatness == pytest.approx(flat, abs=1e-6)
    assert signal.entropy == pytest.approx(0.8 * 0.0 + 0.2 * flat, abs=1e-6)
    assert signal.scores == pytest.approx((0.6, 0.35), abs=1e-6)
    pair = 0.6 * 0.35  # the orthogonal rotation leaves only the x components
    assert signal.coherence == pytest.approx(pair / 0.35, abs=1e-5)


def test_flat_weak_matches_reach_critical() -> None:
    emb = TableEmbedder({"q": [1, 0, 0], "a": unit(0.05), "b": unit(0.08, 0.3)})
    signal = compute_learning_signal("q", ["a", "b"], embedder=emb, config=FORMULA)
    assert signal.best_match == 0.0
    assert signal.flatness == pytest.approx(1.0)
    assert signal.entropy == pytest.approx(1.0)


def test_single_item_is_coherent_and_entropy_is_the_weak_match() -> None:
    emb = TableEmbedder({"q": [1, 0, 0], "a": unit(0.35)})
    signal = compute_learning_signal("q", ["a"], embedder=emb, config=FORMULA)
    assert signal.coherence == 1.0
    assert signal.flatness == 0.0
    assert signal.entropy == pytest.approx(0.5, abs=1e-6)


def test_blank_query_matches_nothing() -> None:
    signal = compute_learning_signal("  ", CORPUS, embedder=HashingEmbedder())
    assert signal.best_match == 0.0
    assert signal.level() is GatingLevel.CRITICAL


def test_specific_query_passes_and_vague_query_is_flagged() -> None:
    ev = ToolGatingEvaluator(embedder=HashingEmbedder())
    assert ev.assess("What is the capital city of France?", CORPUS) is None
    vague = ev.assess("things", CORPUS)
    assert vague is not None
    assert vague.level >= GatingLevel.WARNING
    assert vague.quadrant is JohariQuadrant.UNKNOWN


def test_retriever_scores_are_used_without_an_embedder() -> None:
    docs = [
        Document("Paris is the capital of France.", metadata={"relevance_score": 0.9}),
        Document("France borders Spain.", metadata={"score": 0.4}),
    ]
    signal = compute_learning_signal("capital of France", docs)
    assert signal.score_source == "metadata"
    assert signal.scores == (0.9, 0.4)
    assert signal.best_match == pytest.approx(0.9)
    # Lexical coherence: word Jaccard 1/6 ("france" of 6 words), mapped by / 0.25.
    assert signal.coherence == pytest.approx((1 / 6) / 0.25)


def test_embedder_recomputes_scores_when_given() -> None:
    docs = [Document("Paris is the capital of France.", metadata={"relevance_score": 0.01})]
    signal = compute_learning_signal("capital of France", docs, embedder=HashingEmbedder())
    assert signal.score_source == "embedder"
    assert signal.scores[0] > 0.5


def test_forced_metadata_scores_treat_missing_as_zero() -> None:
    items = [("Paris is the capital.", 0.7), "No score here."]
    signal = compute_learning_signal("capital", items, score_source="metadata")
    assert signal.scores == (0.7, 0.0)
    assert signal.best_match == pytest.approx(0.7)


def test_max_items_keeps_the_best_matches() -> None:
    emb = TableEmbedder({"q": [1, 0, 0], "a": unit(0.05), "b": unit(0.6), "c": unit(0.3)})
    signal = compute_learning_signal("q", ["a", "b", "c"], embedder=emb,
                                     config=ToolGatingConfig(max_items=2))  # fmt: skip
    assert signal.n_items == 2
    assert signal.scores == pytest.approx((0.6, 0.3), abs=1e-6)


async def test_async_assess_matches_sync() -> None:
    ev = ToolGatingEvaluator(embedder=HashingEmbedder())
    assert await ev.aassess("things", CORPUS) == ev.assess("things", CORPUS)


# -- item normalisation ------------------------------------------------------------------


def test_items_accept_documents_pairs_dicts_and_strings() -> None:
    items = to_items(
        [
            Document("a", metadata={"similarity": 0.3}),
            (Document("b"), 0.8),
            {"page_content": "c", "metadata": {"relevance_score": 0.5}},
            {"text": "d", "score": 0.1},
            "e",
            "   ",
            42,
        ]
    )
    assert [(i.text, i.score) for i in items] == [
        ("a", 0.3),
        ("b", 0.8),
        ("c", 0.5),
        ("d", 0.1),
        ("e", None),
    ]


def test_documents_in_recognises_document_lists_only() -> None:
    docs = documents_in([(Document("a"), 0.5), Document("b")])
    assert docs is not None
    assert docs[0].metadata == {"score": 0.5}
    assert documents_in(["a", Document("b")]) is None
    assert documents_in([]) is None
    assert documents_in("text") is None


def test_split_passages_reads_json_blank_lines_and_lines() -> None:
    assert [i.text for i in split_passages('[{"page_content": "x"}, "y"]')] == ["x", "y"]
    assert [i.text for i in split_passages("one\ntwo\n\nthree")] == ["one\ntwo", "three"]
    assert [i.text for i in split_passages("one\ntwo")] == ["one", "two"]


# -- gated retriever ---------------------------------------------------------------------


class FixedRetriever(BaseRetriever):
    docs: list[Document]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return list(self.docs)


def fixed() -> FixedRetriever:
    return FixedRetriever(docs=[Document(t, metadata={"i": i}) for i, t in enumerate(CORPUS)])


def test_gated_retriever_leaves_good_retrievals_alone() -> None:
    docs = gated_retriever(fixed(), embedder=HashingEmbedder()).invoke("capital of France")
    assert [d.metadata for d in docs] == [{"i": 0}, {"i": 1}, {"i": 2}]


def test_gated_retriever_attaches_the_warning() -> None:
    docs = gated_retriever(fixed(), embedder=HashingEmbedder()).invoke("things")
    assert len(docs) == 3
    assert all(d.metadata[WARNING_METADATA_KEY]["level"] == "critical" for d in docs)
    assert docs[0].metadata["i"] == 0


async def test_gated_retriever_hard_gating_replaces_the_result_async() -> None:
    retriever = gated_retriever(
        fixed(), config=ToolGatingConfig(hard_gating=True), embedder=HashingEmbedder()
    )
    docs = await retriever.ainvoke("things")
    assert len(docs) == 1
    assert docs[0].metadata["qgate_gated"] is True
    assert docs[0].page_content.startswith("Search results withheld")
    good = await retriever.ainvoke("capital of France")
    assert len(good) == 3


def test_scores_are_ranked_by_raw_cosine_even_when_both_map_to_one() -> None:
    emb = TableEmbedder({"q": [1, 0, 0], "a": unit(0.85), "b": unit(0.9, 1.0)})
    signal = compute_learning_signal("q", ["a", "b"], embedder=emb)
    assert signal.scores == pytest.approx((0.9, 0.85), abs=1e-6)
    assert signal.best_match == 1.0
