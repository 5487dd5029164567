"""Decision-noise filter: status chatter is flagged (warned, not dropped) unless configured."""

from __future__ import annotations

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_qgate.memory import (
    DecisionNoiseWarning,
    MemoryFilterPolicy,
    MemoryFilterWarning,
    QualityFilteredStore,
    assess_decision,
)
from tests.unit_tests._memory_fakes import FakeClock, HashingEmbedder

NS = ("user-1", "decisions")


@pytest.fixture
def store() -> QualityFilteredStore:
    return QualityFilteredStore(InMemoryStore(), embedder=HashingEmbedder(), clock=FakeClock())


def test_short_decision_without_reasons_is_noise():
    verdict = assess_decision("git clone success")
    assert verdict.noisy is True
    assert verdict.reason == "too_short"


def test_real_decision_is_not_noise():
    verdict = assess_decision("Move the session store from Redis to PostgreSQL")
    assert verdict.noisy is False
    assert verdict.reason is None


def test_decision_of_mostly_status_words_is_noise():
    verdict = assess_decision("Status update: task completed, checks passed successfully")
    assert verdict.noisy is True
    assert verdict.reason == "status_words"
    assert verdict.status_share >= 0.5


def test_status_words_with_reasons_are_not_noise():
    verdict = assess_decision(
        "Status update: task completed, checks passed successfully",
        reasons=["the migration gate requires a green run before the cutover"],
    )
    assert verdict.noisy is False
    assert verdict.has_reasons is True


def test_empty_decision_is_noise():
    assert assess_decision("").reason == "empty"
    assert assess_decision("   ...  ").reason == "empty"
    assert assess_decision("", reasons=["because"]).noisy is True


def test_normal_decision_with_reasons_is_not_noise():
    verdict = assess_decision("Use Postgres", reasons="several processes share the memory")
    assert verdict.noisy is False


def test_status_word_with_punctuation_attached_still_counts():
    verdict = assess_decision("Completed. Done! Success; checked, confirmed.")
    assert verdict.noisy is True
    assert verdict.reason == "status_words"
    assert verdict.status_share == 1.0
    assert assess_decision("completed.").noisy is True


def test_blank_reasons_do_not_count_as_reasons():
    assert assess_decision("git clone success", reasons=["", "  "]).noisy is True


def test_noisy_decision_is_stored_with_a_flag_and_a_warning_by_default(store):
    with pytest.warns(DecisionNoiseWarning, match="git clone success"):
        outcome = store.put_with_outcome(NS, "d1", {"decision": "git clone success"})
    assert outcome.action == "stored_flagged"
    item = store.get(NS, "d1")
    assert item.value["qgate_noise"] is True
    assert item.value["qgate"]["noise_reason"] == "too_short"


def test_noisy_decision_is_skipped_only_when_configured():
    store = QualityFilteredStore(
        InMemoryStore(),
        embedder=HashingEmbedder(),
        policy=MemoryFilterPolicy(on_noisy_decision="skip"),
    )
    with pytest.warns(MemoryFilterWarning, match="skipped"):
        outcome = store.put_with_outcome(NS, "d1", {"decision": "Task completed."})
    assert outcome.action == "skipped_noise"
    assert store.get(NS, "d1") is None


def test_real_decision_is_stored_unflagged_without_warning(store):
    value = {"decision": "Pin numpy below 3", "reasons": ["faiss wheels lag numpy majors"]}
    store.put(NS, "d2", value)
    item = store.get(NS, "d2")
    assert item.value["qgate_noise"] is False
    assert item.value["decision"] == "Pin numpy below 3"
    assert [i.key for i in store.search(NS, filter={"qgate_noise": False})] == ["d2"]


def test_policy_rejects_bad_options():
    with pytest.raises(ValueError, match="on_noisy_decision"):
        MemoryFilterPolicy(on_noisy_decision="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dedup_threshold"):
        MemoryFilterPolicy(dedup_threshold=1.5)
    with pytest.raises(ValueError, match="both"):
        MemoryFilterPolicy(
            episode_namespaces=frozenset({"x"}), decision_namespaces=frozenset({"x"})
        )
