# %% [markdown]
# # 2. A RAG agent with `QualityGateMiddleware`
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# `create_agent(model, tools, middleware=[QualityGateMiddleware(...)])` gates every final answer
# in `after_model`. The evidence is harvested from the run itself (the retriever tool's
# `Document` artifacts). A rejected draft is removed from the conversation (kept for audit),
# guidance goes back to the model as a user turn, and the agent jumps back to the model. When the
# retry budget is spent the run pauses with `interrupt()` until a human decides.
#
# The chat model here is scripted (no LLM): it searches first, then answers from a script, one
# answer further after each guidance turn.

# %%
from notebook_helpers import DOCS, example, real_chat_model, show

# %%
import inspect

from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_qgate import (
    GatePolicy,
    QualityGateMiddleware,
    attempt_timeline,
    plot_attempt_timeline,
)
from langchain_qgate.testing import KeywordRetriever, ScriptedChatModel, load_docs, make_search_tool

scripted = example("agent_middleware")  # the scripted model of examples/agent_middleware.py
print(inspect.getsource(scripted.respond))
for question, answers in scripted.SCRIPT.items():
    print(question, "->", answers)
model = real_chat_model() or ScriptedChatModel(respond=scripted.respond)  # a real one if set
search_docs = make_search_tool(KeywordRetriever(docs=load_docs(DOCS), k=3))

# %%
agent = create_agent(
    model,
    tools=[search_docs],
    middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=1))],
    checkpointer=InMemorySaver(),  # counters, retries and audit live in checkpointed state
)

# %% [markdown]
# ## Rejected, guided, corrected
# Streaming the updates shows each step: the tool call, the first draft, the gate's guidance
# (the draft is replaced by it), the corrected answer.

# %%
config = {"configurable": {"thread_id": "revenue"}}
question = "What was Nordlicht's revenue in 2024?"
for chunk in agent.stream({"messages": [("user", question)]}, config, stream_mode="updates"):
    for node, update in chunk.items():
        for m in (update or {}).get("messages", []):
            if m.type == "remove":
                print(f"[{node}] removed the rejected draft")
            elif isinstance(m, AIMessage) and m.tool_calls:
                print(f"[{node}] tool call: {m.tool_calls[0]['args']}")
            elif m.type in ("ai", "human"):
                print(f"[{node}] {m.type}: {m.content}\n")

# %%
final = agent.get_state(config).values["messages"][-1]
meta = final.response_metadata["qgate"]
print(meta["decision"], round(meta["score"], 2), "retries used:", meta["retries_used"])
for c in meta["claims"]:
    print(f"  {c['grade']:<10} {c['text']}  [{', '.join(c['evidence_ids'][:1])}]")
print("audit:", [d["draft"][:60] for d in final.response_metadata["qgate_rejected_drafts"]])

# %% [markdown]
# What happened, attempt by attempt: each claim of each draft, coloured by its grade (a cross
# marks a claim the evidence contradicts), and what the gate did with the draft.

# %%
show(plot_attempt_timeline(attempt_timeline(final), title="revenue question"))

# %% [markdown]
# ## Budget spent: escalate to a human
# The warranty answer stays wrong. After one retry the run pauses; the interrupt carries an
# `EscalationRequest` (draft, reason, user-facing summary, report). While paused, the last
# message of the conversation is a placeholder ("held for review"), never the rejected draft.
# The reviewer answers with `Command(resume=...)`: `"approve"`, `{"type": "edit", "text": ...}` or
# `{"type": "reject", "message": ...}` (feedback back to the model).

# %%
config = {"configurable": {"thread_id": "warranty"}}
result = agent.invoke(
    {"messages": [("user", "How long is the warranty on the Kestrel P3?")]}, config
)
request = result["__interrupt__"][0].value
print(request["reason"])
print(request["summary"])
print("rejected draft (in the interrupt):", request["draft"])
print("last message while paused:", result["messages"][-1].content[:60], "...")
print("allowed:", request["allowed_decisions"])

# %%
edit = "Every Nordlicht robot, including the Kestrel P3, comes with a 24-month warranty."
result = agent.invoke(Command(resume={"type": "edit", "text": edit, "reviewer": "support"}), config)
final = result["messages"][-1]
print(final.content)
print(final.response_metadata["qgate_review"])

# %%
timeline = attempt_timeline(final, escalation=request)  # the request holds the escalated grading
print([(a.attempt, a.outcome, a.human_decision) for a in timeline])
show(plot_attempt_timeline(timeline, title="warranty question: escalated, edited by a human"))

# %% [markdown]
# ## Per-call policy
# The same agent, a stricter profile for one call (and `pass_with_warning` instead of a human):

# %%
config = {
    "configurable": {
        "thread_id": "strict-1",
        "qgate_profile": "strict",
        "qgate_on_exhausted": "pass_with_warning",
    }
}
result = agent.invoke(
    {"messages": [("user", "How long is the warranty on the Kestrel P3?")]}, config
)
meta = result["messages"][-1].response_metadata["qgate"]
print(meta["profile"], meta["decision"], "-", meta["warning"])

# %% [markdown]
# ## Structured evidence: a tool that returns JSON
# Agents often answer from a tool's JSON rather than from prose. The gate reads a dict, a JSON
# string, a list of records or a table as **fields**, one statement per field with its path as
# the id (`get_listing.hours.Tuesday: 11:00-21:00`), and compares claims with them by type:
# times and ranges ("from 11 am to 9 pm" is `11:00-21:00`), money with its currency, booleans,
# list items. A value that differs from its field is a contradiction naming the field; a claim
# about a field the record lacks is unsupported. The tool and the scripted drafts are those of
# [examples/structured_tool.py](../examples/structured_tool.py):

# %%
listing = example("structured_tool")  # get_listing (a @tool returning JSON) and the drafts
print(listing.get_listing.invoke({"name": "Harbor Noodle House"}))
for draft in listing.DRAFTS:
    print("scripted draft:", draft)

# %%
listing_agent = create_agent(
    ScriptedChatModel(respond=listing.respond),
    tools=[listing.get_listing],
    middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=2))],
    checkpointer=InMemorySaver(),
)
config = {"configurable": {"thread_id": "listing"}}
result = listing_agent.invoke(
    {"messages": [("user", "Tell me about Harbor Noodle House and its Tuesday hours.")]}, config
)
final = result["messages"][-1]
for draft in final.response_metadata["qgate_rejected_drafts"]:
    print("rejected:", draft["draft"])
    print(draft["guidance"])
meta = final.response_metadata["qgate"]
print("answer:", final.content)
print(meta["decision"], round(meta["score"], 2), "retries used:", meta["retries_used"])
for c in meta["claims"]:
    print(f"  {c['grade']:<10} {c['text']}  [{', '.join(c['evidence_ids'])}]")
show(plot_attempt_timeline(attempt_timeline(final), title="listing question"))
