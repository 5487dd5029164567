"""Memory noise reduction: replay a chat log into a LangGraph store through the filters.

``QualityFilteredStore`` wraps any LangGraph ``BaseStore`` (here ``InMemoryStore``; a
``PostgresStore`` works the same). Episodes go through the significance filter and the
near-duplicate check (cosine > 0.85 within 48 h is skipped); decisions through the
decision-noise filter (status reports are flagged with a warning, never silently dropped).
A session that stayed trivial is soft-deleted when it ends, and can be restored.

Run: python examples/memory_replay.py   (offline: bundled MiniLM)
"""

from __future__ import annotations

import warnings
from typing import Any

from langgraph.store.memory import InMemoryStore

from langchain_qgate import DecisionNoiseWarning, QualityFilteredStore

EPISODES = ("user-42", "episodes")
DECISIONS = ("user-42", "decisions")

LOG = [  # (session, turn, user, assistant, tools used)
    ("s1", 1, "hi", "Hello! How can I help?", []),
    ("s2", 1, "The billing pods keep getting OOMKilled in production.",
     "kubectl shows the billing container hitting its 512Mi limit during the nightly batch.",
     ["kubectl"]),
    ("s2", 2, "Raised the limit, what else?",
     "Set the JVM -Xmx to 75% of the limit so the heap leaves room for off-heap buffers.", []),
    ("s2", 3, "thanks", "You're welcome.", []),
    ("s3", 1, "The billing pods keep getting OOMKilled in production.",  # asked again
     "kubectl shows the billing container hitting its 512Mi limit during the nightly batch.",
     ["kubectl"]),
    ("s4", 1, "Remember this: the on-call rotation changes every Monday at 09:00.",
     "Noted: the rotation changes on Mondays at 09:00.", []),
    ("s5", 1, "ok", "Anything else?", []),
    ("s6", 1, "The billing pods keep getting OOMKilled in production.",  # new numbers: kept
     "kubectl shows the billing container hitting its 1024Mi limit during the nightly batch.",
     ["kubectl"]),
]  # fmt: skip

DECISION_LOG: list[dict[str, Any]] = [
    {"decision": "Raise the billing memory limit to 1Gi",
     "reasons": ["the nightly batch peaks at 800Mi"]},
    {"decision": "git clone success"},
    {"decision": "status: deployment completed, all checks passed"},
]  # fmt: skip


def main() -> None:
    clock = iter(range(1_800_000_000, 1_800_100_000, 60))  # one minute per put
    store = QualityFilteredStore(InMemoryStore(), clock=lambda: float(next(clock)))

    for session, turn, user, assistant, tools in LOG:
        value = {"session_id": session, "turn": turn, "user": user, "assistant": assistant,
                 "tools_used": tools}  # fmt: skip
        outcome = store.put_with_outcome(EPISODES, f"{session}-{turn}", value)
        dup = outcome.duplicate
        detail = dup.reason if dup and (dup.is_duplicate or dup.new_details) else ""
        reasons = ",".join(outcome.significance.reasons) if outcome.significance else ""
        print(f"{session} turn {turn}: {outcome.action:<22} {reasons:<32} {detail}")

    for session in dict.fromkeys(session for session, *_ in LOG):
        removed = store.end_session(EPISODES, session)
        if removed:
            print(f"end of {session}: trivial session, soft-deleted {removed}")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DecisionNoiseWarning)
        for n, decision in enumerate(DECISION_LOG):
            outcome = store.put_with_outcome(DECISIONS, f"d{n}", decision)
            print(f"decision {decision['decision']!r}: {outcome.action}")
    print(f"{len(caught)} DecisionNoiseWarning(s): {caught[0].message}" if caught else "")

    active = [item.key for item in store.search(EPISODES, limit=50)]
    print("active episodes:", active)
    print("soft-deleted:", [item.key for item in store.list_inactive(EPISODES)])
    store.restore(EPISODES, "s1-1")
    print("after restore:", sorted(item.key for item in store.search(EPISODES, limit=50)))
    print("stats:", dict(sorted(store.stats.items())))


if __name__ == "__main__":
    main()
