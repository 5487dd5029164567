# %% [markdown]
# # 3. A hand-built `StateGraph` with `add_quality_gate` and a checkpointer
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# `add_quality_gate(builder, after="generate", retry_to="generate", then=END)` adds the gate node
# and its routing: pass -> `then`, reject -> `retry_to` with the guidance in `messages` (and in
# `state["qgate_guidance"]` for generators that build prompts from state), budget spent ->
# `interrupt()`. The state extends `QualityGateState`; evidence comes from `state["evidence"]`.
# With a persistent checkpointer an escalated run can be resumed by another process.

# %%
from notebook_helpers import example, real_chat_model, show

# %% [markdown]
# The graph is the one of [examples/graph_gate.py](../examples/graph_gate.py), written once and
# imported here: a retriever node, a generator node (a scripted model offline), and the gate.

# %%
import inspect
import tempfile
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from langchain_qgate import attempt_timeline, plot_attempt_timeline

rag = example("graph_gate")
rag.model = real_chat_model() or rag.model  # generate() calls this model
for part in (rag.RagState, rag.retrieve, rag.generate, rag.build):
    print(inspect.getsource(part))
print("scripted drafts:", rag.DRAFTS)
build = rag.build

# %% [markdown]
# The wiring, as Mermaid text (no rendering service needed):

# %%
from langgraph.checkpoint.memory import InMemorySaver

print(build(InMemorySaver()).get_graph().draw_mermaid())

# %% [markdown]
# ## Run until the gate escalates
# The first draft is rejected and retried with guidance; the retried draft is still wrong, so
# the run pauses. The checkpoint lives in a SQLite file.

# %%
db = Path(tempfile.mkdtemp()) / "checkpoints.sqlite"
config = {"configurable": {"thread_id": "kestrel"}}
with SqliteSaver.from_conn_string(str(db)) as saver:
    graph = build(saver)
    out = graph.invoke(
        {"messages": [("user", "How long does the Kestrel P3 run on one charge?")]}, config
    )
    request = out["__interrupt__"][0].value
    print("paused:", request["reason"])
    for step in out["qgate_audit"]:
        print("rejected draft:", step["draft"])
    print("guidance the model saw:")
    print(out["messages"][-2].content)

# %% [markdown]
# ## Resume from a fresh graph object
# As after a process restart: a new graph over the same file resumes with the human decision.
# The reviewer's text is graded too, for the record.

# %%
with SqliteSaver.from_conn_string(str(db)) as saver:
    graph = build(saver)
    fixed = "The Kestrel P3 runs for 14 hours on one charge and recharges in 90 minutes."
    out = graph.invoke(Command(resume={"type": "edit", "text": fixed, "reviewer": "ops"}), config)
print(out["messages"][-1].content)
print(out["qgate_metadata"]["decision"], round(out["qgate_metadata"]["score"], 2))
print([(c["grade"], c["evidence_ids"][:1]) for c in out["qgate_metadata"]["claims"]])

# %% [markdown]
# The turn, attempt by attempt: the first draft rejected and retried, the second escalated
# (its grading is in the interrupt's request), and the reviewer's text graded for the record.

# %%
timeline = attempt_timeline(out, escalation=request)
print([(a.attempt, a.outcome, a.human_decision) for a in timeline])
show(plot_attempt_timeline(timeline, title="Kestrel P3 runtime: retried, escalated, edited"))
