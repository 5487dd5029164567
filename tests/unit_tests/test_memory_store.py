"""QualityFilteredStore as a LangGraph store: round trips, restore, threads, async, graphs."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypedDict

import pytest
from langchain.agents import create_agent
from langchain.tools import ToolRuntime
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_qgate.memory import (
    DecisionNoiseWarning,
    MemoryFilterPolicy,
    MemoryRecordFilter,
    QualityFilteredStore,
)
from tests.unit_tests._memory_fakes import HOUR, FakeClock, HashingEmbedder

EP = ("user-1", "episodes")
DEC = ("user-1", "decisions")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(clock) -> QualityFilteredStore:
    return QualityFilteredStore(InMemoryStore(), embedder=HashingEmbedder(), clock=clock)


def test_store_round_trip_on_in_memory_store(store):
    assert isinstance(store, BaseStore)
    store.put(EP, "e1", {"content": "Set up CI with a Postgres service", "session_id": "s1"})
    store.put(DEC, "d1", {"decision": "Run CI on Postgres 15", "reasons": ["matches prod"]})
    store.put(("user-1", "prefs"), "theme", {"theme": "dark"})
    ep = store.get(EP, "e1")
    assert ep.value["content"] == "Set up CI with a Postgres service"
    assert ep.value["active"] is True
    assert ep.value["qgate"]["session_id"] == "s1"
    assert ep.value["qgate"]["embedding"]  # kept with the episode for dedup
    assert store.get(DEC, "d1").value["qgate_noise"] is False
    assert store.get(("user-1", "prefs"), "theme").value == {"theme": "dark"}  # untouched
    assert [i.key for i in store.search(EP)] == ["e1"]
    assert ("user-1", "episodes") in store.list_namespaces(prefix=("user-1",))
    store.delete(("user-1", "prefs"), "theme")
    assert store.get(("user-1", "prefs"), "theme") is None


def test_other_namespaces_pass_through_unfiltered(store):
    for i in range(3):
        store.put(("user-1", "notes"), f"n{i}", {"content": "hi"})
    assert len(store.search(("user-1", "notes"))) == 3
    assert "qgate" not in store.get(("user-1", "notes"), "n0").value


def test_restore_of_a_soft_deleted_episode(store):
    store.put(EP, "e1", {"content": "hello", "session_id": "s1"})
    assert store.end_session(EP, "s1") == ["e1"]
    assert store.search(EP) == []
    assert store.restore(EP, "e1") is True
    item = store.get(EP, "e1")
    assert item.value["active"] is True
    assert "deactivated" not in item.value["qgate"]
    assert [i.key for i in store.search(EP)] == ["e1"]
    assert store.list_inactive(EP) == []
    assert store.restore(EP, "e1") is False  # already active
    assert store.restore(EP, "missing") is False


def test_search_can_still_ask_for_inactive_items_explicitly(store):
    store.put(EP, "e1", {"content": "hello", "session_id": "s1"})
    store.end_session(EP, "s1")
    assert [i.key for i in store.search(EP, filter={"active": False})] == ["e1"]
    assert store.get(EP, "e1") is not None


def test_put_to_an_existing_key_updates_the_episode_without_filters(store):
    store.put(EP, "e1", {"content": "Plan the migration", "session_id": "s1"})
    outcome = store.put_with_outcome(
        EP, "e1", {"content": "Plan the migration (revised)", "session_id": "s1"}
    )
    assert outcome.action == "updated"
    item = store.get(EP, "e1")
    assert item.value["content"] == "Plan the migration (revised)"
    assert item.value["active"] is True


def test_concurrent_puts_from_several_threads_lose_and_double_nothing(clock):
    store = QualityFilteredStore(InMemoryStore(), embedder=HashingEmbedder(), clock=clock)
    topics = [
        f"{a} {b}"
        for a, b in zip(
            ["invoice", "kernel", "garden", "violin", "glacier", "compiler", "saffron", "harbor"],
            [
                "reconciliation",
                "panic",
                "irrigation",
                "tuning",
                "retreat",
                "bootstrap",
                "risotto",
                "pilotage",
            ],
            strict=True,
        )
    ]
    n_threads = 8
    barrier = threading.Barrier(n_threads)

    def worker(t: int) -> None:
        barrier.wait()
        for i, topic in enumerate(topics):
            # every thread offers every topic: exactly one copy of each may be stored
            store.put(
                EP,
                f"t{t}-{i}",
                {"content": f"Notes on {topic}", "session_id": "shared", "tools_used": ["x"]},
            )
            store.put(("user-1", "notes"), f"t{t}-{i}", {"n": i})

    with ThreadPoolExecutor(n_threads) as pool:
        list(pool.map(worker, range(n_threads)))

    stored = store.search(EP, limit=1000)
    assert sorted(i.value["content"] for i in stored) == sorted(f"Notes on {t}" for t in topics)
    assert store.session_metadata(EP, "shared").turn_count == n_threads * len(topics)
    assert len(store.search(("user-1", "notes"), limit=1000)) == n_threads * len(topics)
    assert store.stats["episode:stored"] == len(topics)
    assert store.stats["episode:skipped_duplicate"] == (n_threads - 1) * len(topics)


async def test_async_api_filters_like_the_sync_api(store):
    await store.aput(EP, "e1", {"content": "Deploy the billing service", "session_id": "s1"})
    await store.aput(EP, "e2", {"content": "Deploy the billing service", "session_id": "s2"})
    items = await store.asearch(EP)
    assert [i.key for i in items] == ["e1"]
    assert (await store.aget(EP, "e1")).value["active"] is True
    outcome = await store.aput_with_outcome(EP, "e3", {"content": "hi", "session_id": "s3"})
    assert outcome.action == "stored"
    assert await store.aend_session(EP, "s3") == ["e3"]
    assert [i.key for i in await store.alist_inactive(EP)] == ["e3"]
    assert await store.arestore(EP, "e3") is True
    with pytest.warns(DecisionNoiseWarning):
        await store.aput(DEC, "d1", {"decision": "done"})


def test_state_graph_compiled_with_the_wrapper_writes_filtered_memory(store):
    class State(TypedDict):
        text: str
        session: str

    def remember(state: State, runtime: Runtime) -> dict[str, Any]:
        key = f"{state['session']}-{len(state['text'])}"
        runtime.store.put(EP, key, {"content": state["text"], "session_id": state["session"]})
        return {}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(store=store)
    graph.invoke({"text": "Hello, what can you do?", "session": "a"})
    graph.invoke({"text": "Hello, what can you do?", "session": "b"})  # duplicate greeting
    graph.invoke({"text": "Rotate the staging database credentials", "session": "c"})
    contents = sorted(i.value["content"] for i in store.search(EP))
    assert contents == ["Hello, what can you do?", "Rotate the staging database credentials"]


class _ToolCallingFake(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> _ToolCallingFake:
        return self


def test_create_agent_tool_writes_through_runtime_store(store):
    @tool
    def save_decision(decision: str, runtime: ToolRuntime) -> str:
        """Record a decision in long-term memory."""
        runtime.store.put(DEC, f"d{len(decision)}", {"decision": decision})
        return "saved"

    script = iter(
        [
            AIMessage(
                content="",
                tool_calls=[{"name": "save_decision", "args": {"decision": "done"}, "id": "c1"}],
            ),
            AIMessage(content="Recorded."),
        ]
    )
    agent = create_agent(_ToolCallingFake(messages=script), tools=[save_decision], store=store)
    with pytest.warns(DecisionNoiseWarning, match="'done'"):
        result = agent.invoke({"messages": [HumanMessage("note that we are done")]})
    assert result["messages"][-1].content == "Recorded."
    item = store.get(DEC, "d4")
    assert item.value["qgate_noise"] is True  # flagged, not dropped


def test_episode_namespaces_are_configurable(clock):
    policy = MemoryFilterPolicy(episode_namespaces=frozenset({"memories"}))
    store = QualityFilteredStore(
        InMemoryStore(), embedder=HashingEmbedder(), clock=clock, policy=policy
    )
    store.put(("u", "memories"), "m1", {"content": "same", "session_id": "a"})
    store.put(("u", "memories"), "m2", {"content": "same", "session_id": "b"})
    store.put(("u", "episodes"), "e1", {"content": "same"})
    store.put(("u", "episodes"), "e2", {"content": "same"})
    assert [i.key for i in store.search(("u", "memories"))] == ["m1"]
    assert len(store.search(("u", "episodes"))) == 2


def test_plain_record_helper_applies_the_same_filters(clock):
    mem = MemoryRecordFilter(embedder=HashingEmbedder(), clock=clock)
    assert mem.add_episode("Hello, what can you do?", session_id="s1", key="g1").stored
    assert mem.add_episode("Hello, what can you do?", session_id="s2").action == (
        "skipped_duplicate"
    )
    assert mem.add_episode("ok", session_id="s1").action == "skipped_insignificant"
    assert mem.end_session("s2") == []
    clock.advance(HOUR)
    mem.add_episode("Fix the flaky login test", session_id="s3", tools_used=["pytest"], key="w1")
    assert mem.end_session("s1") == ["g1"]  # "Hello" + "ok": no significant later turn
    assert [e.key for e in mem.episodes()] == ["w1"]
    with pytest.warns(DecisionNoiseWarning):
        mem.add_decision("git clone success")
    mem.add_decision("Quarantine the flaky test", reasons=["it blocks merges"])
    decisions = {d.text: d for d in mem.decisions()}
    assert decisions["git clone success"].noisy is True
    assert decisions["Quarantine the flaky test"].noisy is False
    assert [d.text for d in mem.decisions(include_noisy=False)] == ["Quarantine the flaky test"]


def test_wrapper_rejects_a_non_store():
    with pytest.raises(TypeError, match="BaseStore"):
        QualityFilteredStore({}, embedder=HashingEmbedder())  # type: ignore[arg-type]
