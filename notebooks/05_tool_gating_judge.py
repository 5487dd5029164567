# %% [markdown]
# # 5. Tool gating and the judge layer in a fan-out graph
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# **Tool gating** measures a retrieval before the model builds on it: *entropy* (how weakly and
# how flatly the items match the query) and *coherence* (how much the items agree). The pair
# gives a Johari quadrant and a level NONE < CAUTION < WARNING < CRITICAL; with hard gating a
# Critical retrieval is withheld and replaced by a warning that tells the model to refine.
#
# The **judge layer** checks structured agent results deterministically before aggregation:
# non-empty agent name, every hypothesis cites a signal, every cited id exists, confidences in
# [0, 1]. A rejection names the offending item and the valid ids.

# %%
from notebook_helpers import example, show

# %%
from langchain_qgate import ToolGatingConfig, ToolGatingEvaluator

incident = example("tool_gating_judge")  # the incident graph of examples/tool_gating_judge.py
SIGNALS = incident.SIGNALS
for d in SIGNALS:
    print(f"{d.id:<11} {d.page_content}")
evaluator = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True))  # bundled MiniLM
retrievals = {
    "disk and CPU usage on the db-1 database host": SIGNALS[:2],
    "billing pods OOMKilled after the release deploy": SIGNALS[2:],
    "why is the db-1 disk full": [SIGNALS[0], SIGNALS[3]],
    "packet loss between availability zones": SIGNALS[2:],
    "quarterly marketing budget": [],
}
signals = {q: evaluator.measure(q, items) for q, items in retrievals.items()}
for q, s in signals.items():
    w = evaluator.evaluate(s)
    level = w.level.value if w else "none"
    print(
        f"{q[:48]:<48} entropy {s.entropy:.2f} coherence {s.coherence:.2f} "
        f"{s.quadrant().value:<8} {level:<8} gate={bool(w and w.should_gate)}"
    )

# %% [markdown]
# The retrievals on the entropy/coherence plane, with the Warning and Critical thresholds:

# %%
import matplotlib.pyplot as plt

cfg = evaluator.config
fig, ax = plt.subplots(figsize=(6, 4.5))
ax.axvspan(cfg.critical_entropy, 1.02, color="tab:red", alpha=0.12, label="critical")
ax.axvspan(
    cfg.warning_entropy, cfg.critical_entropy, color="tab:orange", alpha=0.12, label="warning"
)
ax.axhline(cfg.caution_coherence, color="grey", ls=":")
ax.axvline(cfg.caution_entropy, color="grey", ls=":")
for i, (q, s) in enumerate(signals.items(), 1):  # numbered marks, the queries in the key
    ax.scatter(s.entropy, s.coherence, s=70, zorder=3, label=f"{i}  {q}")
    ax.annotate(
        str(i),
        (s.entropy, s.coherence),
        xytext=(-12 if i % 2 else 6, 4),  # odd left, even right: coinciding marks stay legible
        textcoords="offset points",
        fontsize=9,
        fontweight="bold",
    )
ax.set(xlim=(0, 1.02), ylim=(-0.02, 1.05), xlabel="entropy", ylabel="coherence")
ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
show(fig)

# %% [markdown]
# The model-facing message of a withheld retrieval (what a `ToolGatingMiddleware` or a
# `gated_retriever` puts in place of the results):

# %%
warning = evaluator.evaluate(signals["packet loss between availability zones"])
print(warning.to_model_message())
print([a.value for a in warning.suggested_actions])

# %% [markdown]
# ## The fan-out graph
# Three scripted specialists run in parallel with `Send`, each searching through a
# `gated_retriever` (hard gating). The network specialist's search is withheld, and it invents a
# signal id anyway; `judge_node` leaves its result out before aggregation and records why. The
# graph is [examples/tool_gating_judge.py](../examples/tool_gating_judge.py)'s; its specialist:

# %%
import inspect

print(inspect.getsource(incident.specialist))
print(incident.graph.get_graph().draw_mermaid())

# %%
out = incident.graph.invoke({"signal_ids": [str(d.id) for d in SIGNALS]})
for note in sorted(out["searches"]):
    print(note)
print("accepted:", out["report"])
for r in out["rejections"]:
    print(f"rejected {r.agent_name} [{r.check}]: {r.reason}")

# %% [markdown]
# The judge on its own, on results restored from JSON (plain dicts work too):

# %%
from langchain_qgate import InMemorySignalMemory, JudgeLayer

judge = JudgeLayer(InMemorySignalMemory([str(d.id) for d in SIGNALS]))
for raw in [
    {
        "agent_name": "db",
        "hypotheses": [{"title": "disk", "supporting_signals": ["sig-disk"], "confidence": 0.8}],
    },
    {"agent_name": " ", "hypotheses": []},
    {
        "agent_name": "app",
        "hypotheses": [{"title": "leak", "supporting_signals": [], "confidence": 0.5}],
    },
    {
        "agent_name": "app",
        "hypotheses": [{"title": "leak", "supporting_signals": ["sig-oom"], "confidence": 1.5}],
    },
]:
    v = judge.judge(raw)
    print(v.valid, v.failed_check, "-", v.rejection_reason)
