# %% [markdown]
# # 7. Verified streaming: gate an answer sentence by sentence
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# With `QualityGateMiddleware(stream="sentences")` the final answer is generated with the model's
# streaming API. Each sentence is graded against the evidence as soon as the next one starts;
# sentences that pass reach the app through LangGraph's custom stream (`stream_mode="custom"`) as
# `qgate.sentence` events. When a sentence fails (here: a contradicted growth figure) it and the
# rest are held back; by default the draft runs to its end and the gate decides on the whole
# answer, exactly as without streaming. Here `stop_early=True` closes the model stream at once
# instead: the sentences already shown are withdrawn (`qgate.retracted`), the retry gets that
# sentence's guidance (`qgate.retry`) and the corrected answer streams after it. The raw token
# stream (`stream_mode="messages"`) is not what the app renders.
#
# The model is the scripted streaming fake from `langchain_qgate.testing` (a token every 10 ms);
# the evidence is the company documents in `examples/docs`.

# %%
from notebook_helpers import DOCS, example, show

# %%
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import (
    GatePolicy,
    QualityGateMiddleware,
    attempt_timeline,
    plot_attempt_timeline,
)
from langchain_qgate.testing import (
    KeywordRetriever,
    ScriptedStreamingChatModel,
    load_docs,
    make_search_tool,
    tokenize,
)

script = example("streaming_agent")  # the scripted drafts and model behaviour
QUESTION, DRAFTS = script.QUESTION, script.DRAFTS
for i, draft in enumerate(DRAFTS, 1):
    print(f"draft {i}: {draft}")

# %% [markdown]
# ## The stream the user sees
#
# Only `qgate.*` events are rendered: a sentence is printed when it passes, a retraction removes
# sentences, `qgate.done` carries the delivered text.

# %%
model = ScriptedStreamingChatModel(respond=script.respond, token_delay=0.01)
agent = create_agent(
    model,
    tools=[make_search_tool(KeywordRetriever(docs=load_docs(DOCS), k=3))],
    middleware=[
        QualityGateMiddleware(policy=GatePolicy(max_retries=1), stream="sentences", stop_early=True)
    ],
    checkpointer=InMemorySaver(),
)
config = {"configurable": {"thread_id": "nb-stream"}}
screen: dict[str, str] = {}
events = []
for event in agent.stream({"messages": [("user", QUESTION)]}, config, stream_mode="custom"):
    events.append(event)
    if event["type"] == "qgate.sentence":
        screen[event["id"]] = event["text"]
        print(f"+ [{event['attempt']}] {event['grade']:9} {event['support']:.2f}  {event['text']}")
    elif event["type"] == "qgate.retracted":
        for sid in event["ids"]:
            print(f"- [{event['attempt']}] retracted  {screen.pop(sid)}")
    elif event["type"] == "qgate.retry":
        print(f"! [{event['attempt']}] rejected, stopped early: {event['stopped_early']}")
    elif event["type"] == "qgate.done":
        print(f"= [{event['attempt']}] {event['decision']}: {event['text']}")

# %%
contradicted = "Revenue grew 45%"
print(
    "contradicted sentence shown to the user:",
    any(contradicted in e.get("text", "") for e in events if e["type"] == "qgate.sentence"),
)
print(f"tokens of the first draft generated: {model.streamed[1]} of {len(tokenize(DRAFTS[0]))}")
final = agent.get_state(config).values["messages"][-1]
print("audit, partial draft:", final.response_metadata["qgate_rejected_drafts"][0]["draft"])
print(
    "the retry got:",
    next(e for e in events if e["type"] == "qgate.retry")["summary"].splitlines()[-1],
)

# %% [markdown]
# The turn, attempt by attempt: the first draft was stopped at its contradicted sentence (only
# the sentences generated before the stop were graded), the retry passed.

# %%
show(plot_attempt_timeline(attempt_timeline(final), title="streamed answer"))

# %% [markdown]
# ## The protocol
#
# | event | when | fields |
# |---|---|---|
# | `qgate.sentence` | a sentence passed (or, under `pass_with_warning`, a held one after the warning) | `attempt`, `id`, `index`, `text`, `grade`, `support`, `verified` (no claim contradicted or graded fabricated) |
# | `qgate.retracted` | an attempt with shown sentences is rejected or held for review | `attempt`, `ids` |
# | `qgate.retry` | the model answers again with guidance | `attempt`, `summary`, `stopped_early`, `failed_sentence`, `retries_left` |
# | `qgate.escalated` | the budget is spent, the run pauses for a human | `attempt`, `reason`, `summary` |
# | `qgate.warning` | `pass_with_warning`: shown before the unverified sentences | `attempt`, `warning` |
# | `qgate.done` | the answer is delivered | `attempt`, `decision`, `text`, `score` |
#
# Without `stop_early`, and on the last attempt even with it, the stream is not stopped: the
# failing sentence and everything after it are held back and the whole answer is decided (the
# whole draft goes to the reviewer, is delivered with a warning, or is retried).
# `with_quality_gate(..., stream="sentences").stream()` yields the same events, and
# `QualityGateStreamer` streams a model inside a hand-built graph node.
