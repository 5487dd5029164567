# %% [markdown]
# # 6. Memory noise reduction on a replayed chat log
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# `QualityFilteredStore` wraps any LangGraph `BaseStore` (`InMemoryStore` here, `PostgresStore`
# in deployments). Puts into an `(..., "episodes")` namespace go through the **significance
# filter** (first turn always recorded; tools used, multi-turn, >= 200 characters or an explicit
# "remember this" make a turn significant) and **near-duplicate dedup** (cosine > 0.85 within
# 48 h is skipped, unless the new episode brings numbers or identifiers the old one lacks; the
# old record's id is never reused). Puts into `(..., "decisions")` go
# through the **decision-noise filter**: status reports are flagged with a warning, not dropped.
# A session that stayed trivial is **soft-deleted** at its end, and can be restored.

# %%
from notebook_helpers import example, show

# %%
import warnings
from collections import Counter

from langgraph.store.memory import InMemoryStore

from langchain_qgate import DecisionNoiseWarning, QualityFilteredStore

replay = example("memory_replay")  # the example's chat log
DECISION_LOG, DECISIONS, EPISODES, LOG = (
    replay.DECISION_LOG,
    replay.DECISIONS,
    replay.EPISODES,
    replay.LOG,
)

clock = iter(range(1_800_000_000, 1_800_100_000, 60))  # one minute per put, deterministic
store = QualityFilteredStore(InMemoryStore(), clock=lambda: float(next(clock)))
for session, turn, user, _assistant, tools in LOG:
    print(f"{session}.{turn}  tools={tools}  user: {user}")

# %% [markdown]
# ## Replay the log

# %%
outcomes = []
for session, turn, user, assistant, tools in LOG:
    value = {
        "session_id": session,
        "turn": turn,
        "user": user,
        "assistant": assistant,
        "tools_used": tools,
    }
    outcome = store.put_with_outcome(EPISODES, f"{session}-{turn}", value)
    outcomes.append(outcome)
    dup = outcome.duplicate
    why = dup.reason if dup and (dup.is_duplicate or dup.new_details) else ""
    print(f"{session}.{turn}: {outcome.action:<20} {list(outcome.significance.reasons)} {why}")

# %%
ended = {s: store.end_session(EPISODES, s) for s in dict.fromkeys(s for s, *_ in LOG)}
print("soft-deleted at session end:", {s: keys for s, keys in ended.items() if keys})
print("active:", [i.key for i in store.search(EPISODES, limit=50)])
print("recoverable:", [i.key for i in store.list_inactive(EPISODES)])

# %% [markdown]
# ## Decisions: real ones vs. status reports

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", DecisionNoiseWarning)
    for n, decision in enumerate(DECISION_LOG):
        out = store.put_with_outcome(DECISIONS, f"d{n}", decision)
        print(f"{out.action:<15} {decision['decision']!r}  {out.decision.detail}")
for w in caught:
    print("warning:", w.message)
flagged = [i.key for i in store.search(DECISIONS, filter={"qgate_noise": True})]
print("flagged (still stored, searchable):", flagged)

# %% [markdown]
# ## Where the writes went

# %%
import matplotlib.pyplot as plt

stats = Counter(store.stats)
fig, ax = plt.subplots(figsize=(7, 3))
ax.barh(list(stats), list(stats.values()), color="tab:blue")
ax.invert_yaxis()
ax.set_xlabel("puts")
ax.set_title(f"{len(LOG)} turns, {len(DECISION_LOG)} decisions replayed")
show(fig)

# %% [markdown]
# Soft-deleted episodes are restorable:

# %%
print(store.restore(EPISODES, "s1-1"))
print(sorted(i.key for i in store.search(EPISODES, limit=50)))

# %% [markdown]
# In a LangGraph app, pass the wrapped store to `builder.compile(store=store)` (or
# `create_agent(..., store=store)`); nodes and tools keep calling `store.put(...)` as before.
