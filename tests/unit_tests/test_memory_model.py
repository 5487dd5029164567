"""Dedup with the real bundled model (marked ``model``): paraphrases vs. entity swaps."""

from __future__ import annotations

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_qgate.memory import MemoryFilterPolicy, QualityFilteredStore
from tests.unit_tests._memory_fakes import FakeClock

pytestmark = pytest.mark.model

NS = ("user-1", "episodes")
GATEWAY = (
    "Why did producers spike?\nA retry storm in gateway: failed messages were requeued "
    "without backoff; added exponential backoff capped at 46s."
)
BILLING = GATEWAY.replace("gateway", "billing").replace("46s", "50s")


def _store(real_embedder, **policy) -> QualityFilteredStore:
    return QualityFilteredStore(
        InMemoryStore(),
        embedder=real_embedder,
        clock=FakeClock(),
        policy=MemoryFilterPolicy(**policy),
    )


def _put(store, key, text, session):
    return store.put_with_outcome(NS, key, {"content": text, "session_id": session})


def test_real_model_skips_a_paraphrased_greeting(real_embedder):
    store = _store(real_embedder)
    _put(store, "a", "Hello, what can you do?", "s1")
    outcome = _put(store, "b", "Hi! What can you do?", "s2")
    assert outcome.action == "skipped_duplicate"
    assert outcome.duplicate.score > 0.85


def test_real_model_keeps_an_unrelated_episode(real_embedder):
    store = _store(real_embedder)
    _put(store, "a", "We moved the session store to PostgreSQL.", "s1")
    outcome = _put(store, "b", "The weather in Oslo is 4 degrees.", "s2")
    assert outcome.action == "stored"
    assert outcome.duplicate.score < 0.5


def test_real_model_scores_an_entity_swap_above_085_and_the_guard_keeps_it(real_embedder):
    guarded = _store(real_embedder)
    _put(guarded, "a", GATEWAY, "s1")
    outcome = _put(guarded, "b", BILLING, "s2")
    assert outcome.duplicate.score > 0.85  # why pure cosine dedup loses real facts
    assert outcome.action == "stored"
    assert set(outcome.duplicate.new_details) == {"50s"}

    pure = _store(real_embedder, dedup_keep_new_details=False)
    _put(pure, "a", GATEWAY, "s1")
    assert _put(pure, "b", BILLING, "s2").action == "skipped_duplicate"


def test_real_model_keeps_a_subject_swap_without_numbers(real_embedder):
    store = _store(real_embedder)
    _put(store, "a", "Dashboards?\nThe search dashboard now shows hit rate per key prefix.", "s1")
    outcome = _put(
        store, "b", "Dashboards?\nThe pricing dashboard now shows hit rate per key prefix.", "s2"
    )
    assert outcome.duplicate.score > 0.85
    assert outcome.action == "stored"
    assert outcome.duplicate.new_details == ("pricing",)


def test_real_model_still_skips_a_greeting_with_a_synonym_swapped(real_embedder):
    store = _store(real_embedder)
    _put(store, "a", "Hello, what can you do?", "s1")
    assert _put(store, "b", "Hi, what can you do?", "s2").action == "skipped_duplicate"
