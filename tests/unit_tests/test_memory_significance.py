"""Significance filter: which turns create episodes, and trivial sessions at session end."""

from __future__ import annotations

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_qgate.memory import (
    MemoryFilterPolicy,
    QualityFilteredStore,
    SessionMetadata,
    assess_significance,
    is_remember_request,
    is_trivial_session,
)
from tests.unit_tests._memory_fakes import FakeClock, HashingEmbedder

NS = ("user-1", "episodes")


@pytest.fixture
def store() -> QualityFilteredStore:
    return QualityFilteredStore(InMemoryStore(), embedder=HashingEmbedder(), clock=FakeClock())


def turn(store: QualityFilteredStore, key: str, user: str, assistant: str = "ok", **extra):
    value = {"session_id": extra.pop("session_id", "s1"), "user": user, "assistant": assistant}
    value.update(extra)
    return store.put_with_outcome(NS, key, value)


def test_first_turn_always_creates_an_episode(store):
    outcome = turn(store, "t1", "hi", "hello")
    assert outcome.action == "stored"
    assert outcome.significance.reasons == ("first_turn",)
    assert store.get(NS, "t1").value["active"] is True


def test_second_turn_that_is_trivial_creates_no_episode(store):
    turn(store, "t1", "hi", "hello")
    outcome = turn(store, "t2", "thanks", "you're welcome")
    assert outcome.action == "skipped_insignificant"
    assert outcome.significance.significant is False
    assert store.get(NS, "t2") is None
    assert store.session_metadata(NS, "s1").turn_count == 2


def test_turn_with_tools_used_creates_an_episode(store):
    turn(store, "t1", "hi", "hello")
    outcome = turn(store, "t2", "weather in Oslo?", "4 degrees", tools_used=["get_weather"])
    assert outcome.action == "stored"
    assert "tools_used" in outcome.significance.reasons
    assert store.session_metadata(NS, "s1").tools_used == ("get_weather",)


def test_multi_turn_session_creates_an_episode_from_the_third_turn(store):
    turn(store, "t1", "hi", "hello")
    assert turn(store, "t2", "how are you", "fine").action == "skipped_insignificant"
    outcome = turn(store, "t3", "tell me more", "about what?")
    assert outcome.action == "stored"
    assert "multi_turn" in outcome.significance.reasons


def test_combined_content_over_200_characters_after_a_turn_creates_an_episode(store):
    turn(store, "t1", "hi", "hello")
    outcome = turn(store, "t2", "Explain the retry budget " * 4, "It caps retries " * 6)
    assert outcome.action == "stored"
    assert outcome.significance.reasons == ("substantial_content",)
    assert store.session_metadata(NS, "s1").combined_chars >= 200


def test_remember_request_creates_an_episode(store):
    turn(store, "t1", "hi", "hello")
    outcome = turn(store, "t2", "Remember this: I deploy on Fridays", "Noted")
    assert outcome.action == "stored"
    assert outcome.significance.reasons == ("remember_request",)


def test_remember_request_detection_is_narrow():
    assert is_remember_request("please remember that my VPN is split-tunnel")
    assert is_remember_request("Don't forget the staging DB")
    assert is_remember_request("save this to memory")
    assert not is_remember_request("save this file as notes.txt")
    assert not is_remember_request("I remember when the build was green")


def test_trivial_session_episode_is_soft_deleted_at_session_end(store):
    turn(store, "t1", "hi", "hello")
    removed = store.end_session(NS, "s1")
    assert removed == ["t1"]
    item = store.get(NS, "t1")
    assert item is not None, "soft delete must never destroy the record"
    assert item.value["active"] is False
    assert item.value["qgate"]["deactivated"]["reason"] == "trivial_session"
    assert [i.key for i in store.list_inactive(NS)] == ["t1"]
    assert store.search(NS) == []  # hidden from ordinary searches


def test_non_trivial_session_episode_is_kept_at_session_end(store):
    turn(store, "t1", "hi", "hello", tools_used=["search"])
    assert store.end_session(NS, "s1") == []
    assert store.get(NS, "t1").value["active"] is True
    assert store.session_metadata(NS, "s1").ended is True


def test_trivial_rules_on_plain_metadata():
    policy = MemoryFilterPolicy()
    short = SessionMetadata(session_id="s", turn_count=1, user_chars=5, assistant_chars=5)
    assert is_trivial_session(short, policy)
    assert is_trivial_session(short.model_copy(update={"turn_count": 0}), policy)
    assert is_trivial_session(short.model_copy(update={"turn_count": 2}), policy)
    assert not is_trivial_session(short.model_copy(update={"turn_count": 3}), policy)
    assert not is_trivial_session(short.model_copy(update={"tools_used": ("search",)}), policy)
    assert not is_trivial_session(short.model_copy(update={"user_chars": 200}), policy)
    assert not is_trivial_session(short.model_copy(update={"remember_requested": True}), policy)
    second = short.model_copy(update={"turn_count": 2})
    assert assess_significance(second, policy).significant is False


def test_session_metadata_lives_in_the_store_not_on_the_wrapper(store):
    turn(store, "t1", "hi", "hello", session_id="abc")
    raw = store.store.get(("qgate_sessions", *NS), "abc")
    assert raw is not None
    assert raw.value["turn_count"] == 1
    # a second wrapper over the same store sees the same session
    other = QualityFilteredStore(store.store, embedder=HashingEmbedder(), clock=FakeClock())
    assert other.session_metadata(NS, "abc").turn_count == 1
