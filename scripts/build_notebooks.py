"""Write the notebooks in ``notebooks/`` from the cell sources below, executed, with outputs.

The notebooks are generated so they can be reviewed as code: edit this file, then run
``python scripts/build_notebooks.py`` (from the repository's virtualenv; it executes every
notebook in ``notebooks/`` with nbclient, offline, and stores the outputs so they render when
browsed). Each notebook is stamped with the hash of its cell sources; ``--check`` (run by
``tests/integration_tests/test_notebooks.py``, fast: no execution) fails when a stored notebook
is not this script's current output: other sources, no outputs, an error output, or a machine
path in an output. The same test file also executes every notebook and checks its story.
"""

# ruff: noqa: E501 - long lines below are notebook cell sources (data), wrapped as a reader would
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "notebooks"

SETUP = """import importlib.util
import os
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the embedding model ships with the package
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(os.environ.get("QGATE_REPO", ".."))  # the repository; run from notebooks/
DOCS = ROOT / "examples" / "docs"


def example(name: str):
    \"\"\"An example script loaded as a module, for its data (its main() does not run).\"\"\"
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module"""

INSTALL = """

```bash
pip install "langchain-qgate[plot,sqlite]"   # from a checkout: pip install -e ".[plot,sqlite]"
```"""

REAL_MODEL = """# Swap in a real chat model (not run offline): ask for token logprobs, the calibrator reads
# them from response_metadata["logprobs"] when the answer states no confidence in words.
if os.environ.get("OPENAI_API_KEY"):
    from langchain.chat_models import init_chat_model

    model = init_chat_model("openai:gpt-4o-mini", logprobs=True)
elif os.environ.get("QGATE_USE_OLLAMA"):
    from langchain_ollama import ChatOllama  # pip install langchain-ollama (recent Ollama)

    model = ChatOllama(model="llama3.1", logprobs=True)  # check response_metadata["logprobs"]"""

Cell = tuple[str, str]  # ("md" | "code", source)


def md(text: str) -> Cell:
    return ("md", text.strip("\n"))


def code(text: str) -> Cell:
    return ("code", text.strip("\n"))


NOTEBOOKS: dict[str, list[Cell]] = {}

NOTEBOOKS["01_quickstart.ipynb"] = [
    md("""
# 1. Quickstart: check an answer against documents

`QualityGate.check(answer, evidence)` splits the answer into claims, grades each claim against
the evidence (GROUNDED / INFERRED / FABRICATED, contradictions named), calibrates the
confidence and decides: pass with annotations, or reject with retry guidance.
Everything here runs offline: the bundled all-MiniLM-L6-v2 embedding model plus deterministic
checks (numbers, dates, money, entities, negation). No LLM is called.
"""),
    code(SETUP),
    code("""from langchain_core.documents import Document

from langchain_qgate import FilteredOutput, GatePolicy, QualityGate

docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
print(f"{len(docs)} documents:", [d.id for d in docs])
print(docs[0].page_content)"""),
    md("An answer with one wrong figure, one supported claim, an inference and an opinion:"),
    code("""answer = (
    "Nordlicht Robotics was founded in 2016 in Hamburg. "
    "It reported revenue of €52.7 million in fiscal year 2024. "
    "The Kestrel P3 picks up to 1,200 items per hour, so it suits large warehouses. "
    "I think it is a good buy."
)
gate = QualityGate(policy=GatePolicy.from_profile("strict"))  # loads the model on first use
decision = gate.check(answer, docs, question="Tell me about Nordlicht Robotics.")
type(decision).__name__, decision.metadata.decision, round(decision.metadata.score, 2)"""),
    md("""
## The per-claim report
Each claim has a type (factual / reasoning / opinion), a grade, a support probability, the
evidence it rests on and, for a contradiction, what the evidence says instead. Opinions are
labelled but not counted against the answer.
"""),
    code("""for c in decision.metadata.claims:
    print(f"{c.label:<10} {c.type:<9} {c.support:.2f}  {c.text}")  # OPINION: labelled, not graded
    print(f"{'':>21}{c.contradiction or c.reason}  {c.evidence_ids[:1]}")"""),
    md("The grade breakdown, and each claim's support against the thresholds:"),
    code("""import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from IPython.display import Image

meta = decision.metadata
colors = {"grounded": "tab:green", "inferred": "tab:orange", "fabricated": "tab:red"}
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.2))
left.bar(list(meta.grades), list(meta.grades.values()), color=[colors[g] for g in meta.grades])
left.set_title(f"grades (score {meta.score:.2f}, needs {meta.grounding_threshold:.2f})")
left.set_ylabel("claims")
labels = [f"#{c.index + 1} {c.text[:28]}…" for c in meta.claims]
right.barh(labels, [c.support for c in meta.claims], color=[colors[c.grade] for c in meta.claims])
right.invert_yaxis()
right.set_xlim(0, 1)
right.set_title("support per claim")
fig.tight_layout()
png = io.BytesIO()
fig.savefig(png, format="png", dpi=100)
plt.close(fig)
Image(png.getvalue())"""),
    md("""
## Reject: guidance for the model, a summary for the user
Under the `strict` profile (grounding >= 0.8) the answer is rejected. The guidance is addressed
to the model (what to correct, with the evidence quoted); the summary is for people.
"""),
    code("""assert not isinstance(decision, FilteredOutput)
print(decision.guidance.to_model_message())
print("---")
print(decision.guidance.summary())"""),
    md("""
## Per-call overrides
Profiles and thresholds can be switched per call through `RunnableConfig["configurable"]`
(`qgate_profile`, `qgate_grounding_threshold`, `qgate_max_retries`, `qgate_on_exhausted`...).
Under the `brainstorm` profile (threshold 0.4, and the only profile that tolerates a contradicted
claim) the same answer passes, with the wrong figure flagged inline:
"""),
    code("""relaxed = gate.check(answer, docs, config={"configurable": {"qgate_profile": "brainstorm"}})
print(relaxed.metadata.decision)
print(relaxed.render_annotated())"""),
    md("""
## Only the grounding report
`HallucinationMonitor.verify_grounding` is the grading step alone; it returns a
`GroundingReport` (pydantic, JSON round-trip).
"""),
    code("""from langchain_qgate import HallucinationMonitor

monitor = gate.monitor  # the same HallucinationMonitor the gate created
report = monitor.verify_grounding("The Kestrel P3 comes with a 36-month warranty.", docs)
verdict = report.verdicts[0]
print(report.score, verdict.grade.value, verdict.contradiction.describe())
print(verdict.contradiction.quote)"""),
    md("## Stated confidence vs. calibrated confidence"),
    code("""confident = "I'm 95% sure: the Kestrel P3 comes with a 36-month warranty."
conf = gate.calibrator.calibrate(confident, monitor.verify_grounding(confident, docs))
print(f"stated {conf.raw:.2f}, calibrated {conf.calibrated:.2f}, overconfident={conf.overconfident}")
print(conf.reason)"""),
    code(REAL_MODEL),
]

NOTEBOOKS["02_agent_middleware.ipynb"] = [
    md("""
# 2. A RAG agent with `QualityGateMiddleware`

`create_agent(model, tools, middleware=[QualityGateMiddleware(...)])` gates every final answer
in `after_model`. The evidence is harvested from the run itself (the retriever tool's
`Document` artifacts). A rejected draft is removed from the conversation (kept for audit),
guidance goes back to the model as a user turn, and the agent jumps back to the model. When the
retry budget is spent the run pauses with `interrupt()` until a human decides.

The chat model here is scripted (no LLM): it searches first, then answers from a script, one
answer further after each guidance turn.
"""),
    code(SETUP),
    code("""from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_qgate.testing import KeywordRetriever, ScriptedChatModel, load_docs
from langchain_qgate.testing import make_search_tool
from langchain_qgate import GatePolicy, QualityGateMiddleware

SCRIPT = {
    "What was Nordlicht's revenue in 2024?": [
        "Nordlicht Robotics reported revenue of €52.7 million in fiscal year 2024. "
        "The company plans to list its shares in Frankfurt in 2026.",
        "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million, "
        "up 31% from €36.8 million in 2023.",
    ],
    "How long is the warranty on the Kestrel P3?": ["The Kestrel P3 comes with a 36-month warranty."],
}


def respond(messages: list[BaseMessage]) -> AIMessage:
    at = max(i for i, m in enumerate(messages) if m.type == "human" and m.content in SCRIPT)
    question, after = str(messages[at].content), messages[at + 1 :]
    if not any(isinstance(m, ToolMessage) for m in after):
        call = {"name": "search_docs", "args": {"query": question}, "id": f"call-{at}"}
        return AIMessage("", tool_calls=[call])
    answers = SCRIPT[question]
    return AIMessage(answers[min(sum(isinstance(m, HumanMessage) for m in after), len(answers) - 1)])


model = ScriptedChatModel(respond=respond)
search_docs = make_search_tool(KeywordRetriever(docs=load_docs(DOCS), k=3))"""),
    code(REAL_MODEL),
    code("""agent = create_agent(
    model,
    tools=[search_docs],
    middleware=[QualityGateMiddleware(policy=GatePolicy(max_retries=1))],
    checkpointer=InMemorySaver(),  # counters, retries and audit live in checkpointed state
)"""),
    md("""
## Rejected, guided, corrected
Streaming the updates shows each step: the tool call, the first draft, the gate's guidance
(the draft is replaced by it), the corrected answer.
"""),
    code("""config = {"configurable": {"thread_id": "revenue"}}
question = "What was Nordlicht's revenue in 2024?"
for chunk in agent.stream({"messages": [("user", question)]}, config, stream_mode="updates"):
    for node, update in chunk.items():
        for m in (update or {}).get("messages", []):
            if m.type == "remove":
                print(f"[{node}] removed the rejected draft")
            elif isinstance(m, AIMessage) and m.tool_calls:
                print(f"[{node}] tool call: {m.tool_calls[0]['args']}")
            elif m.type in ("ai", "human"):
                print(f"[{node}] {m.type}: {m.content}\\n")"""),
    code("""final = agent.get_state(config).values["messages"][-1]
meta = final.response_metadata["qgate"]
print(meta["decision"], round(meta["score"], 2), "retries used:", meta["retries_used"])
for c in meta["claims"]:
    print(f"  {c['grade']:<10} {c['text']}  [{', '.join(c['evidence_ids'][:1])}]")
print("audit:", [d["draft"][:60] for d in final.response_metadata["qgate_rejected_drafts"]])"""),
    md("""
## Budget spent: escalate to a human
The warranty answer stays wrong. After one retry the run pauses; the interrupt carries an
`EscalationRequest` (draft, reason, user-facing summary, report). While paused, the last
message of the conversation is a placeholder ("held for review"), never the rejected draft. The reviewer answers with
`Command(resume=...)`: `"approve"`, `{"type": "edit", "text": ...}` or
`{"type": "reject", "message": ...}` (feedback back to the model).
"""),
    code("""config = {"configurable": {"thread_id": "warranty"}}
result = agent.invoke({"messages": [("user", "How long is the warranty on the Kestrel P3?")]}, config)
request = result["__interrupt__"][0].value
print(request["reason"])
print(request["summary"])
print("rejected draft (in the interrupt):", request["draft"])
print("last message while paused:", result["messages"][-1].content[:60], "...")
print("allowed:", request["allowed_decisions"])"""),
    code("""edit = "Every Nordlicht robot, including the Kestrel P3, comes with a 24-month warranty."
result = agent.invoke(Command(resume={"type": "edit", "text": edit, "reviewer": "support"}), config)
final = result["messages"][-1]
print(final.content)
print(final.response_metadata["qgate_review"])"""),
    md("""
## Per-call policy
The same agent, a stricter profile for one call (and `pass_with_warning` instead of a human):
"""),
    code("""config = {"configurable": {"thread_id": "strict-1", "qgate_profile": "strict",
                          "qgate_on_exhausted": "pass_with_warning"}}
result = agent.invoke({"messages": [("user", "How long is the warranty on the Kestrel P3?")]}, config)
meta = result["messages"][-1].response_metadata["qgate"]
print(meta["profile"], meta["decision"], "-", meta["warning"])"""),
    md("""
## Structured evidence: a tool that returns JSON
Agents often answer from a tool's JSON rather than from prose. The gate reads a dict, a JSON
string, a list of records or a table as **fields**, one statement per field with its path as
the id (`get_listing.hours.Tuesday: 11:00-21:00`), and compares claims with them by type:
times and ranges ("from 11 am to 9 pm" is `11:00-21:00`), money with its currency, booleans,
list items. A value that differs from its field is a contradiction naming the field; a claim
about a field the record lacks is unsupported. The same code as
[examples/structured_tool.py](../examples/structured_tool.py):
"""),
    code("""from typing import Any

from langchain_core.tools import tool


@tool
def get_listing(name: str) -> dict[str, Any]:
    \"\"\"Look up a business listing by name.\"\"\"
    return {
        "name": "Harbor Noodle House", "address": "112 Pier St", "city": "Santa Barbara",
        "state": "CA", "categories": "Noodles, Ramen",
        "hours": {"Monday": "11:00-21:00", "Tuesday": "11:00-21:00", "Friday": "11:00-23:00"},
        "attributes": {"WiFi": "free", "OutdoorSeating": False}, "stars": 4.5,
    }


DRAFTS = [
    "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
    "They are open on Tuesdays from 11 am to 10 pm and offer free Wi-Fi.",
    "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
    "They are open on Tuesdays from 11 am to 9 pm and offer free Wi-Fi.",
]


def respond_listing(messages: list[BaseMessage]) -> AIMessage:
    if not any(isinstance(m, ToolMessage) for m in messages):
        call = {"name": "get_listing", "args": {"name": "Harbor Noodle House"}, "id": "call-1"}
        return AIMessage("", tool_calls=[call])
    retries = sum(isinstance(m, HumanMessage) for m in messages) - 1
    return AIMessage(DRAFTS[min(retries, len(DRAFTS) - 1)])


listing_agent = create_agent(
    ScriptedChatModel(respond=respond_listing),
    tools=[get_listing],
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
    print(f"  {c['grade']:<10} {c['text']}  [{', '.join(c['evidence_ids'])}]")"""),
]

NOTEBOOKS["03_graph_gate.ipynb"] = [
    md("""
# 3. A hand-built `StateGraph` with `add_quality_gate` and a checkpointer

`add_quality_gate(builder, after="generate", retry_to="generate", then=END)` adds the gate node
and its routing: pass -> `then`, reject -> `retry_to` with the guidance in `messages` (and in
`state["qgate_guidance"]` for generators that build prompts from state), budget spent ->
`interrupt()`. The state extends `QualityGateState`; evidence comes from `state["evidence"]`.
With a persistent checkpointer an escalated run can be resumed by another process.
"""),
    code(SETUP),
    code("""import tempfile

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from langchain_qgate.testing import KeywordRetriever, ScriptedChatModel, load_docs
from langchain_qgate import GatePolicy, QualityGateState, add_quality_gate

retriever = KeywordRetriever(docs=load_docs(DOCS), k=3)
DRAFTS = [
    "The Kestrel P3 runs for 20 hours on one charge.",
    "The Kestrel P3 runs for 20 hours on a single charge.",
]


def respond(messages: list[BaseMessage]) -> AIMessage:
    guidance_turns = sum(isinstance(m, HumanMessage) for m in messages) - 1
    return AIMessage(DRAFTS[min(guidance_turns, len(DRAFTS) - 1)])


model = ScriptedChatModel(respond=respond)"""),
    code(REAL_MODEL),
    code("""class RagState(QualityGateState, total=False):
    question: str


def retrieve(state: RagState) -> dict:
    question = str(state["messages"][-1].content)
    return {"question": question, "evidence": retriever.invoke(question)}


def generate(state: RagState) -> dict:
    context = "\\n".join(d.page_content for d in state.get("evidence", []))
    prompt = [SystemMessage(f"Answer from this context only:\\n{context}"), *state["messages"]]
    return {"messages": [model.invoke(prompt)]}


def build(checkpointer):
    builder = StateGraph(RagState)
    builder.add_node("retrieve", retrieve)
    builder.add_node("generate", generate)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "generate")
    add_quality_gate(builder, after="generate", retry_to="generate", then=END,
                     policy=GatePolicy(max_retries=1, on_exhausted="escalate"))
    return builder.compile(checkpointer=checkpointer)"""),
    md("The wiring, as Mermaid text (no rendering service needed):"),
    code("""from langgraph.checkpoint.memory import InMemorySaver

print(build(InMemorySaver()).get_graph().draw_mermaid())"""),
    md("""
## Run until the gate escalates
The first draft is rejected and retried with guidance; the retried draft is still wrong, so
the run pauses. The checkpoint lives in a SQLite file.
"""),
    code("""db = Path(tempfile.mkdtemp()) / "checkpoints.sqlite"
config = {"configurable": {"thread_id": "kestrel"}}
with SqliteSaver.from_conn_string(str(db)) as saver:
    graph = build(saver)
    out = graph.invoke({"messages": [("user", "How long does the Kestrel P3 run on one charge?")]}, config)
    request = out["__interrupt__"][0].value
    print("paused:", request["reason"])
    for step in out["qgate_audit"]:
        print("rejected draft:", step["draft"])
    print("guidance the model saw:")
    print(out["messages"][-2].content)"""),
    md("""
## Resume from a fresh graph object
As after a process restart: a new graph over the same file resumes with the human decision.
The reviewer's text is graded too, for the record.
"""),
    code("""with SqliteSaver.from_conn_string(str(db)) as saver:
    graph = build(saver)
    fixed = "The Kestrel P3 runs for 14 hours on one charge and recharges in 90 minutes."
    out = graph.invoke(Command(resume={"type": "edit", "text": fixed, "reviewer": "ops"}), config)
print(out["messages"][-1].content)
print(out["qgate_metadata"]["decision"], round(out["qgate_metadata"]["score"], 2))
print([(c["grade"], c["evidence_ids"][:1]) for c in out["qgate_metadata"]["claims"]])"""),
]

NOTEBOOKS["04_calibration.ipynb"] = [
    md("""
# 4. Calibration: fit on labelled data, reliability before/after, ECE

The calibrator maps a grounding score to P(the output is supported). A map is fitted with
isotonic regression (or Platt scaling) on labelled outcomes, saved as JSON and reloaded.
Here the labelled data is a small hand-labelled set of 40 claims about the example documents
(`examples/calibration_fit.py`); fit on one half, evaluate on the other. The map shipped with
the package is fitted on the human-labelled development data (`scripts/fit_calibration.py`,
figures in BENCHMARKS.md).
"""),
    code(SETUP),
    code("""from langchain_core.documents import Document

from langchain_qgate import ConfidenceCalibrator, HallucinationMonitor

LABELLED = example("calibration_fit").LABELLED  # (claim, supported?) pairs
docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
monitor = HallucinationMonitor()
records = [(monitor.verify_grounding(c, docs).score, ok) for c, ok in LABELLED]
fit, held_out = records[0::2], records[1::2]
print(len(fit), "fit /", len(held_out), "held out")"""),
    md("""
The raw grounding scores: supported claims cluster near 1, contradicted ones at the bottom, and
a few unsupported claims still score high (a role swap, an antonym, an entity the evidence
never mentions): exactly what a calibration map has to account for.
"""),
    code("""for (claim, ok), (score, _) in sorted(zip(LABELLED, records), key=lambda t: t[1][0]):
    print(f"{score:.2f}  {'supported  ' if ok else 'UNSUPPORTED'}  {claim}")"""),
    code("""calibrator = ConfidenceCalibrator(None)  # identity: the raw score used as a probability
before = calibrator.report(held_out)
calibrator.fit(fit, method="isotonic", fitted_on="examples/docs, 20 claims")
after = calibrator.report(held_out)
print(f"held out n={after.n}")
print(f"ECE   {before.ece:.3f} -> {after.ece:.3f}")
print(f"Brier {before.brier:.3f} -> {after.brier:.3f}")"""),
    md("## Reliability diagrams, before and after"),
    code("""import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from IPython.display import Image

fig, axes = plt.subplots(1, 2, figsize=(9, 4))
for ax, rep, title in ((axes[0], before, "raw grounding score"), (axes[1], after, "isotonic map")):
    ax.plot([0, 1], [0, 1], "--", color="grey")
    ax.bar([(b.lower + b.upper) / 2 for b in rep.bins], [b.frequency for b in rep.bins],
           width=0.09, alpha=0.5, label="observed")
    ax.plot([b.mean_predicted for b in rep.bins], [b.frequency for b in rep.bins], "o-",
            label="bin mean")
    ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="predicted P(supported)",
           title=f"{title}: ECE {rep.ece:.3f}")
axes[0].set_ylabel("observed frequency")
axes[0].legend(loc="upper left")
fig.tight_layout()
png = io.BytesIO()
fig.savefig(png, format="png", dpi=100)
plt.close(fig)
Image(png.getvalue())"""),
    md("The package also writes a single diagram for any report:"),
    code("""import tempfile

scratch = Path(tempfile.mkdtemp())  # files go to a scratch folder, not the repository
report = calibrator.report(held_out, plot_path=scratch / "reliability_after.png")
Image(report.plot_path)"""),
    md("## Save, reload, use in the gate"),
    code("""path = calibrator.save(scratch / "my_calibration.json")
reloaded = ConfidenceCalibrator.load(path)
for score in (0.17, 0.5, 0.9, 0.99):
    print(f"grounding {score:.2f} -> P(supported) {reloaded.map.apply(score):.2f}")

from langchain_qgate import QualityGate

gate = QualityGate(monitor=monitor, calibrator=reloaded)
decision = gate.check("Support is only available on weekdays.", docs)
print(decision.metadata.decision, decision.metadata.score, decision.metadata.confidence)
print(decision.metadata.confidence_reason)"""),
    md("""
With only 20 fitting claims this map is a toy; on real traffic, log `(grounding score,
was the answer right)` pairs and refit. `fit(..., by_shape=True)` fits one map per output
shape (answer to a question / short / medium / long) where there is enough data.
"""),
    code(REAL_MODEL),
]

NOTEBOOKS["05_tool_gating_judge.ipynb"] = [
    md("""
# 5. Tool gating and the judge layer in a fan-out graph

**Tool gating** measures a retrieval before the model builds on it: *entropy* (how weakly and
how flatly the items match the query) and *coherence* (how much the items agree). The pair
gives a Johari quadrant and a level NONE < CAUTION < WARNING < CRITICAL; with hard gating a
Critical retrieval is withheld and replaced by a warning that tells the model to refine.

The **judge layer** checks structured agent results deterministically before aggregation:
non-empty agent name, every hypothesis cites a signal, every cited id exists, confidences in
[0, 1]. A rejection names the offending item and the valid ids.
"""),
    code(SETUP),
    code("""from langchain_core.documents import Document

from langchain_qgate.testing import KeywordRetriever
from langchain_qgate import ToolGatingConfig, ToolGatingEvaluator, gated_retriever

SIGNALS = [
    Document("Disk usage on the db-1 database host reached 95% at 02:10.", id="sig-disk"),
    Document("CPU on the db-1 database host spiked to 98% during the export.", id="sig-cpu"),
    Document("The billing pods were OOMKilled 4 times between 02:00 and 02:30.", id="sig-oom"),
    Document("Release 2.14 of the billing service was deployed at 01:55.", id="sig-deploy"),
]
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
    print(f"{q[:48]:<48} entropy {s.entropy:.2f} coherence {s.coherence:.2f} "
          f"{s.quadrant().value:<8} {level:<8} gate={bool(w and w.should_gate)}")"""),
    md("The retrievals on the entropy/coherence plane, with the Warning and Critical thresholds:"),
    code("""import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from IPython.display import Image

cfg = evaluator.config
fig, ax = plt.subplots(figsize=(6, 4.5))
ax.axvspan(cfg.critical_entropy, 1.02, color="tab:red", alpha=0.12, label="critical")
ax.axvspan(cfg.warning_entropy, cfg.critical_entropy, color="tab:orange", alpha=0.12, label="warning")
ax.axhline(cfg.caution_coherence, color="grey", ls=":")
ax.axvline(cfg.caution_entropy, color="grey", ls=":")
for i, (q, s) in enumerate(signals.items()):
    ax.scatter(s.entropy, s.coherence, s=60)
    ax.annotate(q[:24], (s.entropy, s.coherence), fontsize=8, xytext=(-60, 8 - 16 * (i % 2)),
                textcoords="offset points")
ax.set(xlim=(0, 1.02), ylim=(-0.02, 1.05), xlabel="entropy", ylabel="coherence")
ax.legend(loc="lower left")
fig.tight_layout()
png = io.BytesIO()
fig.savefig(png, format="png", dpi=100)
plt.close(fig)
Image(png.getvalue())"""),
    md("""
The model-facing message of a withheld retrieval (what a `ToolGatingMiddleware` or a
`gated_retriever` puts in place of the results):
"""),
    code("""warning = evaluator.evaluate(signals["packet loss between availability zones"])
print(warning.to_model_message())
print([a.value for a in warning.suggested_actions])"""),
    md("""
## The fan-out graph
Three scripted specialists run in parallel with `Send`, each searching through a
`gated_retriever`. The network specialist's search is withheld, and it invents a signal id
anyway; `judge_node` leaves its result out before aggregation and records why.
"""),
    code("""import operator
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from langchain_qgate import AgentResult, Hypothesis, JudgeState, judge_node

search = gated_retriever(KeywordRetriever(docs=SIGNALS, k=2), evaluator=evaluator)
AGENTS = {
    "infra": ("disk and CPU usage on the db-1 database host", "db-1 ran out of disk"),
    "app": ("billing pods OOMKilled after the release deploy", "release 2.14 leaks memory"),
    "network": ("packet loss between availability zones", "cross-zone packet loss"),
}


class IncidentState(JudgeState, total=False):
    signal_ids: list[str]
    searches: Annotated[list[str], operator.add]
    report: list[str]


class Task(TypedDict):
    agent: str


def fan_out(state: IncidentState) -> list[Send]:
    return [Send("specialist", {"agent": name}) for name in AGENTS]


def specialist(task: Task) -> dict[str, Any]:
    name = task["agent"]
    query, title = AGENTS[name]
    found = search.invoke(query)
    withheld = bool(found) and found[0].metadata.get("qgate_gated", False)
    cited = ["sig-packet-loss"] if withheld else [str(d.id) for d in found]
    result = AgentResult(agent_name=name, hypotheses=[
        Hypothesis(title=title, supporting_signals=cited, confidence=0.7)])
    note = f"{name}: {'withheld' if withheld else [d.id for d in found]}"
    return {"results": [result], "searches": [note]}


def aggregate(state: IncidentState) -> dict[str, Any]:
    return {"report": [f"{r.agent_name}: {r.hypotheses[0].title}" for r in state["accepted"]]}


builder = StateGraph(IncidentState)
builder.add_node("specialist", specialist)
builder.add_node("judge", judge_node(valid_ids=lambda state: state["signal_ids"]))
builder.add_node("aggregate", aggregate)
builder.add_conditional_edges(START, fan_out, ["specialist"])
builder.add_edge("specialist", "judge")
builder.add_edge("judge", "aggregate")
builder.add_edge("aggregate", END)
graph = builder.compile()

out = graph.invoke({"signal_ids": [str(d.id) for d in SIGNALS]})
print(sorted(out["searches"]))
print("accepted:", out["report"])
for r in out["rejections"]:
    print(f"rejected {r.agent_name} [{r.check}]: {r.reason}")"""),
    md("The judge on its own, on results restored from JSON (plain dicts work too):"),
    code("""from langchain_qgate import InMemorySignalMemory, JudgeLayer

judge = JudgeLayer(InMemorySignalMemory([str(d.id) for d in SIGNALS]))
for raw in [
    {"agent_name": "db", "hypotheses": [{"title": "disk", "supporting_signals": ["sig-disk"], "confidence": 0.8}]},
    {"agent_name": " ", "hypotheses": []},
    {"agent_name": "app", "hypotheses": [{"title": "leak", "supporting_signals": [], "confidence": 0.5}]},
    {"agent_name": "app", "hypotheses": [{"title": "leak", "supporting_signals": ["sig-oom"], "confidence": 1.5}]},
]:
    v = judge.judge(raw)
    print(v.valid, v.failed_check, "-", v.rejection_reason)"""),
    code(REAL_MODEL),
]

NOTEBOOKS["06_memory.ipynb"] = [
    md("""
# 6. Memory noise reduction on a replayed chat log

`QualityFilteredStore` wraps any LangGraph `BaseStore` (`InMemoryStore` here, `PostgresStore`
in deployments). Puts into an `(..., "episodes")` namespace go through the **significance
filter** (first turn always recorded; tools used, multi-turn, >= 200 characters or an explicit
"remember this" make a turn significant) and **near-duplicate dedup** (cosine > 0.85 within
48 h is skipped, unless the new episode brings numbers or identifiers the old one lacks; the
old record's id is never reused). Puts into `(..., "decisions")` go
through the **decision-noise filter**: status reports are flagged with a warning, not dropped.
A session that stayed trivial is **soft-deleted** at its end, and can be restored.
"""),
    code(SETUP),
    code("""import warnings
from collections import Counter

from langgraph.store.memory import InMemoryStore

from langchain_qgate import DecisionNoiseWarning, QualityFilteredStore

replay = example("memory_replay")  # the example's chat log
DECISION_LOG, DECISIONS, EPISODES, LOG = (
    replay.DECISION_LOG, replay.DECISIONS, replay.EPISODES, replay.LOG
)

clock = iter(range(1_800_000_000, 1_800_100_000, 60))  # one minute per put, deterministic
store = QualityFilteredStore(InMemoryStore(), clock=lambda: float(next(clock)))
for session, turn, user, _assistant, tools in LOG:
    print(f"{session}.{turn}  tools={tools}  user: {user}")"""),
    md("## Replay the log"),
    code("""outcomes = []
for session, turn, user, assistant, tools in LOG:
    value = {"session_id": session, "turn": turn, "user": user, "assistant": assistant,
             "tools_used": tools}
    outcome = store.put_with_outcome(EPISODES, f"{session}-{turn}", value)
    outcomes.append(outcome)
    dup = outcome.duplicate
    why = dup.reason if dup and (dup.is_duplicate or dup.new_details) else ""
    print(f"{session}.{turn}: {outcome.action:<20} {list(outcome.significance.reasons)} {why}")"""),
    code("""ended = {s: store.end_session(EPISODES, s) for s in dict.fromkeys(s for s, *_ in LOG)}
print("soft-deleted at session end:", {s: keys for s, keys in ended.items() if keys})
print("active:", [i.key for i in store.search(EPISODES, limit=50)])
print("recoverable:", [i.key for i in store.list_inactive(EPISODES)])"""),
    md("## Decisions: real ones vs. status reports"),
    code("""with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", DecisionNoiseWarning)
    for n, decision in enumerate(DECISION_LOG):
        out = store.put_with_outcome(DECISIONS, f"d{n}", decision)
        print(f"{out.action:<15} {decision['decision']!r}  {out.decision.detail}")
for w in caught:
    print("warning:", w.message)
flagged = [i.key for i in store.search(DECISIONS, filter={"qgate_noise": True})]
print("flagged (still stored, searchable):", flagged)"""),
    md("## Where the writes went"),
    code("""import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from IPython.display import Image

stats = Counter(store.stats)
fig, ax = plt.subplots(figsize=(7, 3))
ax.barh(list(stats), list(stats.values()), color="tab:blue")
ax.invert_yaxis()
ax.set_xlabel("puts")
ax.set_title(f"{len(LOG)} turns, {len(DECISION_LOG)} decisions replayed")
fig.tight_layout()
png = io.BytesIO()
fig.savefig(png, format="png", dpi=100)
plt.close(fig)
Image(png.getvalue())"""),
    md("Soft-deleted episodes are restorable:"),
    code("""print(store.restore(EPISODES, "s1-1"))
print(sorted(i.key for i in store.search(EPISODES, limit=50)))"""),
    md("""
In a LangGraph app, pass the wrapped store to `builder.compile(store=store)` (or
`create_agent(..., store=store)`); nodes and tools keep calling `store.put(...)` as before.
"""),
    code(REAL_MODEL),
]


NOTEBOOKS["07_streaming.ipynb"] = [
    md("""
# 7. Verified streaming: gate an answer sentence by sentence

With `QualityGateMiddleware(stream="sentences")` the final answer is generated with the model's
streaming API. Each sentence is graded against the evidence as soon as the next one starts;
sentences that pass reach the app through LangGraph's custom stream (`stream_mode="custom"`) as
`qgate.sentence` events. When a sentence fails (here: a contradicted growth figure) it and the
rest are held back; by default the draft runs to its end and the gate decides on the whole
answer, exactly as without streaming. Here `stop_early=True` closes the model stream at once
instead: the sentences already shown are withdrawn (`qgate.retracted`), the retry gets that
sentence's guidance (`qgate.retry`) and the corrected answer streams after it. The raw token
stream (`stream_mode="messages"`) is not what the app renders.

The model is the scripted streaming fake from `langchain_qgate.testing` (a token every 10 ms);
the evidence is the company documents in `examples/docs`.
"""),
    code(SETUP),
    code("""from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver

from langchain_qgate import GatePolicy, QualityGateMiddleware
from langchain_qgate.testing import KeywordRetriever, ScriptedStreamingChatModel
from langchain_qgate.testing import load_docs, make_search_tool, tokenize

script = example("streaming_agent")  # the scripted drafts and model behaviour
QUESTION, DRAFTS = script.QUESTION, script.DRAFTS
for i, draft in enumerate(DRAFTS, 1):
    print(f"draft {i}: {draft}")"""),
    md("""
## The stream the user sees

Only `qgate.*` events are rendered: a sentence is printed when it passes, a retraction removes
sentences, `qgate.done` carries the delivered text.
"""),
    code("""model = ScriptedStreamingChatModel(respond=script.respond, token_delay=0.01)
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
        print(f"= [{event['attempt']}] {event['decision']}: {event['text']}")"""),
    code("""contradicted = "Revenue grew 45%"
print("contradicted sentence shown to the user:",
      any(contradicted in e.get("text", "") for e in events if e["type"] == "qgate.sentence"))
print(f"tokens of the first draft generated: {model.streamed[1]} of {len(tokenize(DRAFTS[0]))}")
final = agent.get_state(config).values["messages"][-1]
print("audit, partial draft:", final.response_metadata["qgate_rejected_drafts"][0]["draft"])
print("the retry got:", [e for e in events if e["type"] == "qgate.retry"][0]["summary"]
      .splitlines()[-1])"""),
    md("""
## The protocol

| event | when | fields |
|---|---|---|
| `qgate.sentence` | a sentence passed (or, under `pass_with_warning`, a held one after the warning) | `attempt`, `id`, `index`, `text`, `grade`, `support`, `verified` (no claim contradicted or graded fabricated) |
| `qgate.retracted` | an attempt with shown sentences is rejected or held for review | `attempt`, `ids` |
| `qgate.retry` | the model answers again with guidance | `attempt`, `summary`, `stopped_early`, `failed_sentence`, `retries_left` |
| `qgate.escalated` | the budget is spent, the run pauses for a human | `attempt`, `reason`, `summary` |
| `qgate.warning` | `pass_with_warning`: shown before the unverified sentences | `attempt`, `warning` |
| `qgate.done` | the answer is delivered | `attempt`, `decision`, `text`, `score` |

Without `stop_early`, and on the last attempt even with it, the stream is not stopped: the
failing sentence and everything after it are held back and the whole answer is decided (the
whole draft goes to the reviewer, is delivered with a warning, or is retried).
`with_quality_gate(..., stream="sentences").stream()` yields the same events, and
`QualityGateStreamer` streams a model inside a hand-built graph node.
"""),
]


def _with_install(cells: list[Cell]) -> list[Cell]:
    """The first cell (the title) also shows how to install the package."""
    (kind, first), rest = cells[0], cells[1:]
    assert kind == "md", "a notebook starts with its title"
    title, _, body = first.partition("\n")
    return [("md", f"{title}{INSTALL}\n{body}"), *rest]


def _digest(cells: list[Cell]) -> str:
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode("utf-8")).hexdigest()


def build(name: str, cells: list[Cell]) -> nbformat.NotebookNode:
    """The notebook's cells (not executed), stamped with the hash of their sources."""
    cells = _with_install(cells)
    nb = new_notebook()
    nb.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["qgate"] = {"generator": "scripts/build_notebooks.py", "sources": _digest(cells)}
    nb.cells = [
        new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in cells
    ]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{Path(name).stem[:2]}-{i:02d}"
    return nb


def _machine_paths() -> list[str]:
    """Paths of this machine that must not appear in stored outputs."""
    paths = {str(ROOT), str(Path.home()), tempfile.gettempdir(), sys.prefix}
    return sorted(p for p in paths if len(p) > 1)


def _output_texts(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(output type, text) of every output, images excluded."""
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "stream":
                texts.append((out.output_type, out.text))
            elif out.output_type == "error":
                texts.append(("error", "\n".join(out.get("traceback", []))))
            else:
                texts.append((out.output_type, out.get("data", {}).get("text/plain", "")))
    return texts


def problems(stored: nbformat.NotebookNode, expected: nbformat.NotebookNode) -> list[str]:
    """Why ``stored`` is not the executed form of ``expected`` (empty when it is)."""
    found = []
    if stored.metadata.get("qgate") != expected.metadata["qgate"]:
        found.append("stamped with other sources")
    pairs = list(zip(stored.cells, expected.cells, strict=False))
    if len(stored.cells) != len(expected.cells) or any(
        (a.cell_type, a.source, a.get("id")) != (b.cell_type, b.source, b.get("id"))
        for a, b in pairs
    ):
        found.append("cell sources differ from the generator")
    code = [c for c in stored.cells if c.cell_type == "code"]
    if any(c.execution_count is None for c in code) or not any(c.outputs for c in code):
        found.append("not executed (no outputs)")
    texts = _output_texts(stored)
    if any(kind == "error" for kind, _ in texts):
        found.append("an output is an error")
    for path in _machine_paths():
        if any(path in text for _, text in texts):
            found.append(f"an output contains the machine path {path}")
    return found


def execute(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Run the notebook in ``notebooks/`` (offline, this interpreter's kernel)."""
    from nbclient import NotebookClient

    env = os.environ
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["HF_HUB_OFFLINE"] = "1"
    env["TOKENIZERS_PARALLELISM"] = "false"
    env["MPLBACKEND"] = "Agg"
    for key in ("OPENAI_API_KEY", "QGATE_USE_OLLAMA", "QGATE_REPO"):
        env.pop(key, None)
    client = NotebookClient(
        nb,
        timeout=900,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(OUT)}},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # jupyter_client / zmq noise
        client.execute()
    return nb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="fail if a stored notebook is not current"
    )
    parser.add_argument("names", nargs="*", help="only these notebooks (default: all)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    stale = []
    for name, cells in NOTEBOOKS.items():
        if args.names and name not in args.names:
            continue
        expected = build(name, cells)
        path = OUT / name
        if args.check:
            stored = nbformat.read(path, as_version=4) if path.exists() else None
            found = ["missing"] if stored is None else problems(stored, expected)
            stale.extend(f"{name}: {why}" for why in found)
            continue
        before = set(OUT.iterdir())
        nb = execute(expected)
        stray = sorted(p.name for p in set(OUT.iterdir()) - before)
        found = problems(nb, expected) + [f"left a stray file {s}" for s in stray]
        if found:
            print(f"{name}: " + "; ".join(found))
            return 1
        path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("out of date (run python scripts/build_notebooks.py):")
        print("\n".join(f"  {s}" for s in stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
