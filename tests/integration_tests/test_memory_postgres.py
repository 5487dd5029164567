"""QualityFilteredStore over a real PostgresStore (QGATE_PG_DSN; `.ci/run` starts a server)."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from langchain_qgate.memory import DecisionNoiseWarning, QualityFilteredStore
from langchain_qgate.memory.locks import PostgresAdvisoryLock
from tests.unit_tests._memory_fakes import HOUR, FakeClock, HashingEmbedder

pytestmark = pytest.mark.postgres

DSN = os.environ.get("QGATE_PG_DSN")


@pytest.fixture(scope="module")
def pg_store() -> Iterator[object]:
    if not DSN:
        pytest.skip("QGATE_PG_DSN is not set: no PostgreSQL server for the store tests")
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(DSN) as store:
        store.setup()
        yield store


@pytest.fixture
def user() -> str:
    """A fresh top-level label per test: tests never see each other's rows."""
    return f"u{uuid.uuid4().hex[:12]}"


def test_store_round_trip_on_postgres_store(pg_store, user):
    clock = FakeClock()
    store = QualityFilteredStore(pg_store, embedder=HashingEmbedder(), clock=clock)
    ep, dec = (user, "episodes"), (user, "decisions")
    store.put(ep, "e1", {"content": "Set up CI with a Postgres service", "session_id": "s1"})
    dup = store.put_with_outcome(
        ep, "e2", {"content": "Set up CI with a Postgres service", "session_id": "s2"}
    )
    assert dup.action == "skipped_duplicate"
    assert dup.duplicate.match_key == "e1"
    with pytest.warns(DecisionNoiseWarning):
        store.put(dec, "d1", {"decision": "git clone success"})
    store.put(dec, "d2", {"decision": "Run CI on Postgres 15", "reasons": ["matches prod"]})
    store.put((user, "prefs"), "theme", {"theme": "dark"})

    item = store.get(ep, "e1")
    assert item.value["active"] is True
    assert item.value["qgate"]["embedding"]
    assert [i.key for i in store.search(ep)] == ["e1"]
    assert store.get(dec, "d1").value["qgate_noise"] is True
    assert [i.key for i in store.search(dec, filter={"qgate_noise": False})] == ["d2"]
    assert store.get((user, "prefs"), "theme").value == {"theme": "dark"}
    assert store.session_metadata(ep, "s2").turn_count == 1

    clock.advance(48 * HOUR + 1)  # outside the window: the same text is new again
    assert store.put_with_outcome(
        ep, "e3", {"content": "Set up CI with a Postgres service", "session_id": "s3"}
    ).stored


def test_restore_of_a_soft_deleted_episode_on_postgres(pg_store, user):
    store = QualityFilteredStore(pg_store, embedder=HashingEmbedder(), clock=FakeClock())
    ep = (user, "episodes")
    store.put(ep, "hi", {"content": "hello there", "session_id": "s1"})
    assert store.end_session(ep, "s1") == ["hi"]
    assert store.search(ep) == []
    assert [i.key for i in store.list_inactive(ep)] == ["hi"]
    assert store.restore(ep, "hi") is True
    assert store.get(ep, "hi").value["active"] is True
    assert [i.key for i in store.search(ep)] == ["hi"]


def test_two_wrappers_with_advisory_locks_store_each_episode_once(pg_store, user):
    """Two wrappers stand for two processes: only the database lock orders them."""
    from langgraph.store.postgres import PostgresStore

    ep = (user, "episodes")
    texts = [
        f"Runbook step {w} for the {w} service"
        for w in ("billing", "search", "ingest", "auth", "mailer", "reports")
    ]
    with (
        PostgresStore.from_conn_string(DSN) as second,
        PostgresAdvisoryLock(DSN) as lock_a,
        PostgresAdvisoryLock(DSN) as lock_b,
    ):
        wrappers = [
            QualityFilteredStore(pg_store, embedder=HashingEmbedder(), namespace_lock=lock_a),
            QualityFilteredStore(second, embedder=HashingEmbedder(), namespace_lock=lock_b),
        ]
        n = 6
        barrier = threading.Barrier(n)

        def worker(t: int) -> None:
            barrier.wait()
            for i, text in enumerate(texts):
                wrappers[t % 2].put(
                    ep, f"t{t}-{i}", {"content": text, "session_id": "s", "tools_used": ["sh"]}
                )

        with ThreadPoolExecutor(n) as pool:
            list(pool.map(worker, range(n)))
        stored = wrappers[0].search(ep, limit=1000)
        assert sorted(i.value["content"] for i in stored) == sorted(texts)
        assert wrappers[1].session_metadata(ep, "s").turn_count == n * len(texts)


async def test_async_put_through_postgres(pg_store, user):
    store = QualityFilteredStore(pg_store, embedder=HashingEmbedder(), clock=FakeClock())
    ep = (user, "episodes")
    await store.aput(ep, "a", {"content": "Deploy the billing service", "session_id": "s1"})
    await store.aput(ep, "b", {"content": "Deploy the billing service", "session_id": "s2"})
    assert [i.key for i in await store.asearch(ep)] == ["a"]
