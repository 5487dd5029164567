"""Memory noise reduction: replay a 1,000-turn multi-session log through the store wrapper.

The log (``benchmarks/_memory_log.py``, seeded) has greeting-only sessions, status chatter,
work sessions with tools, revisits that re-ask earlier questions, and decisions mixed with
status lines. Every turn is put as an episode (what agents do today) and every logged
decision as a decision, once into a plain store (no filters) and once through
``QualityFilteredStore`` with the REAL bundled model (``default_embedder()``); sessions are
closed with ``end_session``. Reported: stored episodes/decisions with and without filters,
the share of repeated turns removed, real facts lost (a fact with no active episode carrying
it at the end; target 0), real decisions flagged, and the cost per put on InMemoryStore and
(with ``QGATE_PG_DSN``) PostgresStore.

Usage:
    python benchmarks/bench_memory.py [--turns 1000] [--seed 7] [--no-postgres]
Writes ``benchmarks/results/memory.json`` and prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import uuid
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from _memory_log import Session, generate_log  # noqa: E402
from langgraph.store.base import BaseStore  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

from langchain_qgate.grounding.evidence.embeddings import default_embedder  # noqa: E402
from langchain_qgate.memory import (  # noqa: E402
    MemoryFilterPolicy,
    MemoryFilterWarning,
    QualityFilteredStore,
)

RESULTS = ROOT / "benchmarks" / "results"


class SimClock:
    """The log's simulated time, so the 48 h window sees the log's timeline."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _episode_value(turn: Any) -> dict[str, Any]:
    return {
        "content": f"{turn.user}\n{turn.assistant}",
        "user": turn.user,
        "assistant": turn.assistant,
        "session_id": turn.session_id,
        "tools_used": turn.tools,
        "turn": turn.turn_no,
        # ground truth rides along so the benchmark can score what was kept
        "bench_fact": turn.fact,
        "bench_kind": turn.kind,
    }


def replay(
    sessions: list[Session],
    store: BaseStore,
    *,
    filtered: bool,
    prefix: str,
    policy: MemoryFilterPolicy | None = None,
) -> dict[str, Any]:
    """Put every turn and decision; returns per-put timings (ms) and the final contents."""
    clock = SimClock()
    if filtered:
        store = QualityFilteredStore(
            store, embedder=default_embedder(), policy=policy or MemoryFilterPolicy(), clock=clock
        )
    ep_ms: list[float] = []
    dec_ms: list[float] = []
    end_ms: list[float] = []
    dkey = 0
    for sess in sessions:
        ep_ns = (prefix, sess.user_id, "episodes")
        dec_ns = (prefix, sess.user_id, "decisions")
        for turn in sess.turns:
            clock.now = turn.ts
            t0 = time.perf_counter()
            store.put(ep_ns, f"{sess.session_id}-t{turn.turn_no}", _episode_value(turn))
            ep_ms.append((time.perf_counter() - t0) * 1e3)
        for dec in sess.decisions:
            dkey += 1
            value = {"decision": dec.text, "reasons": dec.reasons, "bench_real": dec.real}
            t0 = time.perf_counter()
            store.put(dec_ns, f"d{dkey:05d}", value)
            dec_ms.append((time.perf_counter() - t0) * 1e3)
        if filtered and isinstance(store, QualityFilteredStore):
            clock.now = sess.turns[-1].ts + 60
            t0 = time.perf_counter()
            store.end_session(ep_ns, sess.session_id)
            end_ms.append((time.perf_counter() - t0) * 1e3)
    inner = store.store if isinstance(store, QualityFilteredStore) else store
    episodes = [i for i in _all(inner, (prefix,)) if i.namespace[-1] == "episodes"]
    decisions = [i for i in _all(inner, (prefix,)) if i.namespace[-1] == "decisions"]
    return {
        "episode_ms": ep_ms,
        "decision_ms": dec_ms,
        "end_session_ms": end_ms,
        "episodes": episodes,
        "decisions": decisions,
        "stats": store.stats if isinstance(store, QualityFilteredStore) else {},
    }


def _all(store: BaseStore, prefix: tuple[str, ...]) -> list[Any]:
    out: list[Any] = []
    while True:
        page = store.search(prefix, limit=1000, offset=len(out))
        out.extend(page)
        if len(page) < 1000:
            return out


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "mean": round(statistics.fmean(values), 3),
        "p50": round(ordered[len(ordered) // 2], 3),
        "p95": round(ordered[int(len(ordered) * 0.95)], 3),
        "n": len(values),
    }


def score(sessions: list[Session], run: dict[str, Any]) -> dict[str, Any]:
    """Quality figures of one filtered run against the log's ground truth."""
    turns = [t for s in sessions for t in s.turns]
    decisions = [d for s in sessions for d in s.decisions]
    active = [i for i in run["episodes"] if i.value.get("active", True)]
    inactive = [i for i in run["episodes"] if not i.value.get("active", True)]
    active_keys = {(i.namespace[-2], i.key) for i in active}
    repeats = [t for t in turns if t.repeat]
    removed = [t for t in repeats if (t.user_id, f"{t.session_id}-t{t.turn_no}") not in active_keys]
    window = MemoryFilterPolicy().dedup_window_seconds
    in_window = [t for t in repeats if t.since_last is not None and t.since_last <= window]
    in_window_removed = [t for t in in_window if t in removed]
    facts = {(t.user_id, t.fact) for t in turns if t.fact}
    kept_facts = {(i.namespace[-2], i.value.get("bench_fact")) for i in active}
    lost = sorted(f"{u} {f}" for u, f in facts - kept_facts)
    by_kind_total = Counter(t.kind for t in turns)
    by_kind_kept = Counter(i.value.get("bench_kind") for i in active)
    stored_dec = run["decisions"]
    flagged = [i for i in stored_dec if i.value.get("qgate_noise")]
    real_total = sum(d.real for d in decisions)
    return {
        "turns": len(turns),
        "sessions": len(sessions),
        "episodes_active": len(active),
        "episodes_soft_deleted": len(inactive),
        "episodes_by_kind": {k: [by_kind_kept.get(k, 0), n] for k, n in by_kind_total.items()},
        "repeated_turns": len(repeats),
        "repeated_turns_removed": len(removed),
        "repeat_removed_share": round(len(removed) / max(1, len(repeats)), 4),
        "repeats_within_window": len(in_window),
        "repeats_within_window_removed": len(in_window_removed),
        "repeats_removed_by_kind": {
            k: [sum(1 for t in removed if t.kind == k), sum(1 for t in repeats if t.kind == k)]
            for k in sorted({t.kind for t in repeats})
        },
        "real_facts": len(facts),
        "real_facts_lost": len(lost),
        "lost_facts": lost,
        "decisions_logged": len(decisions),
        "decisions_stored": len(stored_dec),
        "noise_decisions": len(decisions) - real_total,
        "noise_flagged": sum(1 for i in flagged if not i.value.get("bench_real")),
        "real_decisions": real_total,
        "real_flagged": sum(1 for i in flagged if i.value.get("bench_real")),
        "stats": run["stats"],
    }


def _pg_store(dsn: str) -> Any:
    from langgraph.store.postgres import PostgresStore

    cm = PostgresStore.from_conn_string(dsn)
    store = cm.__enter__()
    store.setup()
    return cm, store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="torch intra-op threads (1: one short text per put gains nothing from more, "
        "and on a shared 2-core machine extra threads made encoding ~8x slower)",
    )
    parser.add_argument(
        "--pure-cosine", action="store_true", help="dedup_keep_new_details=False (spec rule)"
    )
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)
    warnings.simplefilter("ignore", MemoryFilterWarning)  # noisy decisions warn by design

    sessions = generate_log(args.turns, seed=args.seed)
    t0 = time.perf_counter()
    default_embedder().embed(["warm up"])
    load_s = time.perf_counter() - t0

    results: dict[str, Any] = {
        "command": "python benchmarks/bench_memory.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()} {os.cpu_count()} cpus, "
        f"Python {platform.python_version()}",
        "model_load_seconds": round(load_s, 2),
        "backends": {},
    }
    policy = MemoryFilterPolicy(dedup_keep_new_details=not args.pure_cosine)
    results["policy"] = {
        "dedup_threshold": policy.dedup_threshold,
        "dedup_window_hours": policy.dedup_window_seconds / 3600,
        "dedup_keep_new_details": policy.dedup_keep_new_details,
        "torch_threads": args.torch_threads,
    }
    results["load_average_at_start"] = os.getloadavg()[0]
    backends: list[tuple[str, Any, Any]] = [("InMemoryStore", None, None)]
    dsn = os.environ.get("QGATE_PG_DSN")
    if dsn and not args.no_postgres:
        backends.append(("PostgresStore", dsn, None))
    for name, dsn_, _ in backends:
        row: dict[str, Any] = {}
        for mode in ("plain", "filtered", "filtered_cached"):
            filtered = mode != "plain"
            if mode != "filtered_cached":
                default_embedder().clear()  # every backend pays the same embedding cost
            prefix = f"bench{uuid.uuid4().hex[:8]}"
            if dsn_:
                cm, store = _pg_store(dsn_)
            else:
                cm, store = None, InMemoryStore()
            try:
                run = replay(sessions, store, filtered=filtered, prefix=prefix, policy=policy)
            finally:
                if cm is not None:
                    cm.__exit__(None, None, None)
            row[mode] = {
                "episode_put_ms": _ms(run["episode_ms"]),
                "decision_put_ms": _ms(run["decision_ms"]),
                "end_session_ms": _ms(run["end_session_ms"]),
                "episodes_stored": len(run["episodes"]),
                "decisions_stored": len(run["decisions"]),
            }
            if mode == "filtered":
                row["quality"] = score(sessions, run)
        results["backends"][name] = row
    results["load_average_at_end"] = os.getloadavg()[0]
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "memory_pure_cosine.json" if args.pure_cosine else "memory.json"
    (RESULTS / name).write_text(json.dumps(results, indent=2) + "\n")
    print(render(results))


def render(results: dict[str, Any]) -> str:
    """Markdown tables of the results."""
    lines: list[str] = []
    mem = results["backends"]["InMemoryStore"]
    q = mem["quality"]
    lines += [
        f"Log: {q['turns']} turns in {q['sessions']} sessions, 4 users, 14 simulated days.",
        "",
        "| | no filters | with filters |",
        "|---|---:|---:|",
        f"| episodes stored (active) | {mem['plain']['episodes_stored']} | "
        f"{q['episodes_active']} (+{q['episodes_soft_deleted']} soft-deleted) |",
        f"| decisions stored | {mem['plain']['decisions_stored']} | "
        f"{q['decisions_stored']} ({q['noise_flagged']}/{q['noise_decisions']} status lines "
        f"flagged, {q['real_flagged']}/{q['real_decisions']} real ones flagged) |",
        f"| repeated turns removed | 0 / {q['repeated_turns']} | "
        f"{q['repeated_turns_removed']} / {q['repeated_turns']} "
        f"({q['repeat_removed_share']:.1%}) |",
        f"| repeats said again within 48 h, removed | 0 / {q['repeats_within_window']} | "
        f"{q['repeats_within_window_removed']} / {q['repeats_within_window']} |",
        f"| real facts lost | 0 / {q['real_facts']} | {q['real_facts_lost']} / {q['real_facts']} |",
        "",
        "| kind of turn | turns | kept as active episodes |",
        "|---|---:|---:|",
    ]
    lines[-2] = "| kind of turn | turns | kept as active episodes | repeats removed |"
    lines[-1] = "|---|---:|---:|---:|"
    for kind, (kept, total) in sorted(q["episodes_by_kind"].items()):
        rem, rep = q["repeats_removed_by_kind"].get(kind, [0, 0])
        lines.append(f"| {kind} | {total} | {kept} | {rem} / {rep} |")
    lines += [
        "",
        "| backend | put | no filters | with filters | with filters, embeddings cached |",
        "|---|---|---:|---:|---:|",
    ]
    for name, row in results["backends"].items():
        for what in ("episode_put_ms", "decision_put_ms"):
            p, f, c = row["plain"][what], row["filtered"][what], row["filtered_cached"][what]
            lines.append(
                f"| {name} | {what.split('_')[0]} | {p['mean']:.2f} / {p['p95']:.2f} | "
                f"{f['mean']:.2f} / {f['p95']:.2f} | {c['mean']:.2f} / {c['p95']:.2f} |"
            )
        e, c = row["filtered"]["end_session_ms"], row["filtered_cached"]["end_session_ms"]
        lines.append(
            f"| {name} | end_session | - | {e['mean']:.2f} / {e['p95']:.2f} | "
            f"{c['mean']:.2f} / {c['p95']:.2f} |"
        )
    lines.append("")
    lines.append("Cells: mean / p95 milliseconds per call.")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
