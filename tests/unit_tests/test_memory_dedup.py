"""Near-duplicate dedup: direct cosine similarity within a 48 h window, threshold 0.85."""

from __future__ import annotations

import math

import numpy as np
import pytest
from langgraph.store.memory import InMemoryStore

from langchain_qgate.memory import (
    DedupUnavailableWarning,
    MemoryFilterPolicy,
    QualityFilteredStore,
    find_duplicate,
)
from langchain_qgate.memory._vectors import decode_vector, encode_vector, max_cosine
from langchain_qgate.memory.dedup import word_swaps
from tests.unit_tests._memory_fakes import (
    HOUR,
    ChosenVectorEmbedder,
    FailingEmbedder,
    FakeClock,
    HashingEmbedder,
    unit_at_cosine,
)

NS = ("user-1", "episodes")
BASE = "Deploy the billing service to staging"
NEAR = "Deploy billing to the staging cluster"  # cosine 0.90 with BASE
FAR = "Billing service staging deploy notes"  # cosine 0.80 with BASE
EDGE = "edge"  # cosine exactly 0.85


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def embedder() -> ChosenVectorEmbedder:
    return ChosenVectorEmbedder(
        {
            BASE: [1.0, 0.0],
            NEAR: unit_at_cosine(0.90),
            FAR: unit_at_cosine(0.80),
            EDGE: unit_at_cosine(0.85),
        }
    )


@pytest.fixture
def store(clock, embedder) -> QualityFilteredStore:
    return QualityFilteredStore(InMemoryStore(), embedder=embedder, clock=clock)


def put(store, key, text, session):
    # a first turn is always significant, so each put here reaches the dedup check
    return store.put_with_outcome(NS, key, {"content": text, "session_id": session})


def test_no_duplicate_when_the_new_episode_is_unlike_the_stored_ones(store):
    put(store, "a", BASE, "s1")
    outcome = put(store, "b", "Rotate the database credentials", "s2")
    assert outcome.action == "stored"
    assert outcome.duplicate.is_duplicate is False
    assert outcome.duplicate.candidates == 1


def test_episode_above_085_cosine_is_skipped_as_duplicate(store):
    put(store, "a", BASE, "s1")
    outcome = put(store, "b", NEAR, "s2")
    assert outcome.action == "skipped_duplicate"
    assert outcome.duplicate.score == pytest.approx(0.90, abs=1e-5)
    assert outcome.duplicate.match_key == "a"


def test_episode_at_080_cosine_is_not_a_duplicate(store):
    put(store, "a", BASE, "s1")
    outcome = put(store, "b", FAR, "s2")
    assert outcome.action == "stored"
    assert outcome.duplicate.score == pytest.approx(0.80, abs=1e-5)
    assert store.get(NS, "b") is not None


def test_threshold_is_strict_and_configurable(clock, embedder):
    strict = QualityFilteredStore(InMemoryStore(), embedder=embedder, clock=clock)
    put(strict, "a", BASE, "s1")
    assert put(strict, "b", EDGE, "s2").action == "stored"  # 0.85 is not above 0.85
    loose = QualityFilteredStore(
        InMemoryStore(),
        embedder=embedder,
        clock=clock,
        policy=MemoryFilterPolicy(dedup_threshold=0.75),
    )
    put(loose, "a", BASE, "s1")
    assert put(loose, "b", FAR, "s2").action == "skipped_duplicate"


def test_embedding_failure_degrades_to_not_duplicate_with_a_warning(clock):
    store = QualityFilteredStore(InMemoryStore(), embedder=FailingEmbedder(), clock=clock)
    with pytest.warns(DedupUnavailableWarning, match="model weights missing"):
        first = put(store, "a", BASE, "s1")
    with pytest.warns(DedupUnavailableWarning):
        second = put(store, "b", BASE, "s2")
    assert first.action == second.action == "stored"
    assert second.duplicate.degraded is True
    assert second.duplicate.is_duplicate is False
    assert store.get(NS, "b").value["qgate"]["embedding"] is None


def test_empty_store_has_no_duplicate(store):
    outcome = put(store, "a", BASE, "s1")
    assert outcome.action == "stored"
    assert outcome.duplicate.candidates == 0
    assert outcome.duplicate.score is None


def test_skipped_duplicate_creates_nothing_and_leaves_the_existing_record_untouched(store):
    put(store, "a", BASE, "s1")
    before = store.get(NS, "a")
    outcome = put(store, "b", NEAR, "s2")
    assert outcome.action == "skipped_duplicate"
    assert store.get(NS, "b") is None, "the duplicate must not be created"
    after = store.get(NS, "a")
    assert after == before, "the existing record is never modified or reused"
    assert [i.key for i in store.search(NS)] == ["a"]


def test_episode_older_than_48_hours_is_not_matched(store, clock):
    put(store, "a", BASE, "s1")
    clock.advance(48 * HOUR + 1)
    outcome = put(store, "b", BASE, "s2")
    assert outcome.action == "stored"
    assert outcome.duplicate.candidates == 0
    assert {i.key for i in store.search(NS)} == {"a", "b"}


def test_episode_just_inside_the_window_is_matched(store, clock):
    put(store, "a", BASE, "s1")
    clock.advance(47 * HOUR)
    assert put(store, "b", BASE, "s2").action == "skipped_duplicate"


def test_window_is_configurable(clock, embedder):
    store = QualityFilteredStore(
        InMemoryStore(),
        embedder=embedder,
        clock=clock,
        policy=MemoryFilterPolicy(dedup_window_seconds=HOUR),
    )
    put(store, "a", BASE, "s1")
    clock.advance(2 * HOUR)
    assert put(store, "b", BASE, "s2").action == "stored"


def test_soft_deleted_episode_is_not_a_dedup_candidate(store):
    put(store, "a", BASE, "s1")
    store.end_session(NS, "s1")  # "a" stayed trivial -> inactive
    assert put(store, "b", BASE, "s2").action == "stored"


def test_find_duplicate_uses_faiss_and_numpy_alike():
    rng = np.random.default_rng(7)
    cands = rng.normal(size=(300, 16)).astype(np.float32)
    query = cands[123] + 0.01
    i_np, s_np = max_cosine(query, cands, faiss_min=10_000)
    i_fa, s_fa = max_cosine(query, cands, faiss_min=1)
    assert i_np == i_fa == 123
    assert s_np == pytest.approx(s_fa, abs=1e-5)
    check = find_duplicate(query, [(str(i), v) for i, v in enumerate(cands)])
    assert check.is_duplicate is True
    assert check.match_key == "123"


def test_embeddings_round_trip_through_the_stored_value():
    vec = HashingEmbedder().embed(["stored with the episode"])[0]
    assert np.array_equal(decode_vector(encode_vector(vec)), vec)
    assert decode_vector("not base64!") is None
    assert decode_vector([0.5, 0.5]).shape == (2,)


SCALED_11 = "Scaled billing consumers to 11 with an HPA on queue depth"
SCALED_15 = "Scaled search consumers to 15 with an HPA on queue depth"  # cosine 0.90


def _swap_store(clock, **policy):
    embedder = ChosenVectorEmbedder(
        {SCALED_11: [1.0, 0.0], SCALED_15: unit_at_cosine(0.90), NEAR: unit_at_cosine(0.95)}
    )
    return QualityFilteredStore(
        InMemoryStore(), embedder=embedder, clock=clock, policy=MemoryFilterPolicy(**policy)
    )


def test_near_duplicate_with_new_numbers_is_kept_as_a_different_fact(clock):
    store = _swap_store(clock)
    put(store, "a", SCALED_11, "s1")
    outcome = put(store, "b", SCALED_15, "s2")
    assert outcome.action == "stored"
    assert outcome.duplicate.is_duplicate is False
    assert outcome.duplicate.score == pytest.approx(0.90, abs=1e-5)
    assert outcome.duplicate.new_details == ("15",)
    assert "adds details" in outcome.duplicate.reason


def test_pure_cosine_dedup_when_the_detail_guard_is_off(clock):
    store = _swap_store(clock, dedup_keep_new_details=False)
    put(store, "a", SCALED_11, "s1")
    assert put(store, "b", SCALED_15, "s2").action == "skipped_duplicate"


def test_a_lower_match_that_has_the_details_still_makes_a_duplicate(clock):
    lacking = "Scaled billing consumers to 11 with an HPA"  # cosine 0.95 to the new one
    having = "Search consumers: 15 replicas via the HPA"  # cosine 0.88, has "15" and "HPA"
    embedder = ChosenVectorEmbedder(
        {SCALED_15: [1.0, 0.0], lacking: unit_at_cosine(0.95), having: unit_at_cosine(0.88)}
    )
    store = QualityFilteredStore(InMemoryStore(), embedder=embedder, clock=clock)
    put(store, "a", lacking, "s1")
    assert put(store, "b", having, "s2").action == "stored"  # brings "15" and the new words
    outcome = put(store, "c", SCALED_15, "s3")
    assert outcome.action == "skipped_duplicate"
    assert outcome.duplicate.match_key == "b"
    assert outcome.duplicate.score == pytest.approx(0.88, abs=1e-5)


def test_episode_with_a_swapped_subject_is_kept_but_a_swapped_synonym_is_not(clock):
    pricing = "The pricing dashboard now shows hit rate per key prefix"
    search = "The search dashboard now shows hit rate per key prefix"  # cosine 0.90
    hello, hi = "Hello, what can you do?", "Hi, what can you do?"  # cosine 0.95
    embedder = ChosenVectorEmbedder(
        {
            pricing: [1.0, 0.0],
            search: unit_at_cosine(0.90),
            hello: [0.0, 1.0],
            hi: [math.sqrt(1 - 0.95**2), 0.95],
            "pricing": [1.0, 0.0],
            "search": [0.0, 1.0],  # 0.0: a different subject
            "hello": [1.0, 0.0],
            "hi": unit_at_cosine(0.8),  # 0.8: a synonym
        }
    )
    store = QualityFilteredStore(InMemoryStore(), embedder=embedder, clock=clock)
    put(store, "a", pricing, "s1")
    outcome = put(store, "b", search, "s2")
    assert outcome.action == "stored"
    assert outcome.duplicate.new_details == ("search",)
    put(store, "c", hello, "s3")
    assert put(store, "d", hi, "s4").action == "skipped_duplicate"


def test_word_swaps_only_for_same_length_texts_with_one_or_two_substitutions():
    assert word_swaps("the pricing pods", "the search pods") == (("pricing", "search"),)
    assert word_swaps("deploy billing to staging", "deploy the billing service") == ()
    assert word_swaps("a b c", "a b c") == ()
    assert word_swaps("x y z", "p q r") == ()
