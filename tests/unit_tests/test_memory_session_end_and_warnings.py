"""Memory: a "hi" / "thanks" session is soft-deleted at session end, and memory
warnings point at the caller's line, not at the library's."""

from __future__ import annotations

import warnings

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from typing_extensions import TypedDict

from langchain_qgate.memory import (
    DecisionNoiseWarning,
    DedupUnavailableWarning,
    MemoryRecordFilter,
    QualityFilteredStore,
)
from tests.unit_tests._memory_fakes import FakeClock, HashingEmbedder

EP = ("user-1", "episodes")
DEC = ("user-1", "decisions")


@pytest.fixture
def store() -> QualityFilteredStore:
    return QualityFilteredStore(InMemoryStore(), embedder=HashingEmbedder(), clock=FakeClock())


def _turn(store: QualityFilteredStore, key: str, user: str, assistant: str, session: str = "s1"):
    return store.put_with_outcome(
        EP, key, {"session_id": session, "user": user, "assistant": assistant}
    )


def test_hi_thanks_session_is_soft_deleted_at_session_end(store):
    assert _turn(store, "t1", "hi", "Hello! How can I help?").action == "stored"
    assert _turn(store, "t2", "thanks", "You're welcome.").action == "skipped_insignificant"
    assert store.session_metadata(EP, "s1").turn_count == 2
    assert store.end_session(EP, "s1") == ["t1"]
    item = store.get(EP, "t1")
    assert item is not None, "soft delete only: the record stays"
    assert item.value["active"] is False
    assert item.value["qgate"]["deactivated"]["reason"] == "trivial_session"
    assert [i.key for i in store.list_inactive(EP)] == ["t1"]
    assert store.restore(EP, "t1") is True


def test_session_with_a_significant_later_turn_is_kept(store):
    _turn(store, "t1", "hi", "Hello!")
    outcome = store.put_with_outcome(
        EP, "t2", {"session_id": "s1", "user": "weather?", "assistant": "4 C", "tools_used": ["w"]}
    )
    assert outcome.action == "stored"
    assert store.end_session(EP, "s1") == []
    assert store.get(EP, "t1").value["active"] is True


def test_third_turn_makes_the_session_multi_turn_and_kept(store):
    _turn(store, "t1", "hi", "Hello!")
    _turn(store, "t2", "thanks", "Sure.")
    assert _turn(store, "t3", "bye", "Bye!").action == "stored"  # multi_turn
    assert store.end_session(EP, "s1") == []
    assert {i.key for i in store.search(EP)} == {"t1", "t3"}


def test_hi_thanks_session_of_the_record_helper_is_soft_deleted():
    mem = MemoryRecordFilter(embedder=HashingEmbedder(), clock=FakeClock())
    first = mem.add_episode("hi", session_id="s1", key="g1")
    assert first.stored
    assert mem.add_episode("thanks", session_id="s1").action == "skipped_insignificant"
    assert mem.end_session("s1") == ["g1"]
    assert mem.episodes() == []
    assert [e.key for e in mem.episodes(include_inactive=True)] == ["g1"]


def _record(call) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return caught


def _only(caught: list[warnings.WarningMessage], category: type[Warning]):
    hits = [w for w in caught if issubclass(w.category, category)]
    assert len(hits) == 1, [str(w.message) for w in caught]
    return hits[0]


def test_decision_noise_warning_points_at_the_callers_put(store):
    caught = _record(lambda: store.put(DEC, "d1", {"decision": "git clone success"}))
    hit = _only(caught, DecisionNoiseWarning)
    assert hit.filename == __file__
    assert "git clone success" in str(hit.message)


def test_decision_noise_warning_points_at_the_callers_put_with_outcome(store):
    caught = _record(lambda: store.put_with_outcome(DEC, "d1", {"decision": "done"}))
    assert _only(caught, DecisionNoiseWarning).filename == __file__


def test_decision_noise_warning_points_at_the_callers_batch(store):
    from langgraph.store.base import PutOp

    caught = _record(lambda: store.batch([PutOp(DEC, "d1", {"decision": "task completed"})]))
    assert _only(caught, DecisionNoiseWarning).filename == __file__


def test_decision_noise_warning_of_the_record_helper_points_at_the_caller():
    mem = MemoryRecordFilter(embedder=HashingEmbedder(), clock=FakeClock())
    caught = _record(lambda: mem.add_decision("build ok"))
    assert _only(caught, DecisionNoiseWarning).filename == __file__


async def test_decision_noise_warning_points_at_the_callers_aput(store):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await store.aput(DEC, "d1", {"decision": "deploy done"})
        await store.aput_with_outcome(DEC, "d2", {"decision": "tests passed"})
    hits = [w for w in caught if issubclass(w.category, DecisionNoiseWarning)]
    assert [w.filename for w in hits] == [__file__, __file__]


def test_decision_noise_warning_inside_a_graph_node_points_at_the_node():
    class State(TypedDict):
        text: str

    def node(state: State, runtime: Runtime) -> State:
        assert runtime.store is not None
        runtime.store.put(DEC, "d1", {"decision": state["text"]})
        return state

    store: BaseStore = QualityFilteredStore(
        InMemoryStore(), embedder=HashingEmbedder(), clock=FakeClock()
    )
    graph = StateGraph(State).add_node("n", node)
    graph.add_edge(START, "n")
    graph.add_edge("n", END)
    app = graph.compile(store=store)
    caught = _record(lambda: app.invoke({"text": "done"}))
    assert _only(caught, DecisionNoiseWarning).filename == __file__


class _BrokenEmbedder(HashingEmbedder):
    def embed(self, texts):  # type: ignore[override]
        raise RuntimeError("model file missing")


def test_dedup_unavailable_warning_points_at_the_caller():
    store = QualityFilteredStore(InMemoryStore(), embedder=_BrokenEmbedder(), clock=FakeClock())
    caught = _record(lambda: store.put(EP, "e1", {"content": "hello", "session_id": "s"}))
    hit = _only(caught, DedupUnavailableWarning)
    assert hit.filename == __file__
    assert store.get(EP, "e1").value["active"] is True
