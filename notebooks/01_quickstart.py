# %% [markdown]
# # 1. Quickstart: check an answer against documents
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# `QualityGate.check(answer, evidence)` splits the answer into claims, grades each claim against
# the evidence (grounded / inferred / fabricated, contradictions named), calibrates the
# confidence and decides: pass with annotations, or reject with retry guidance.
# Everything here runs offline: the bundled all-MiniLM-L6-v2 embedding model plus deterministic
# checks (numbers, dates, money, entities, negation). No LLM is called.

# %%
from notebook_helpers import DOCS, show

# %%
from langchain_core.documents import Document

from langchain_qgate import FilteredOutput, GatePolicy, QualityGate

docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
print(f"{len(docs)} documents:", [d.id for d in docs])
print(docs[0].page_content)

# %% [markdown]
# An answer with one wrong figure, one supported claim, an inference and an opinion:

# %%
answer = (
    "Nordlicht Robotics was founded in 2016 in Hamburg. "
    "It reported revenue of €52.7 million in fiscal year 2024. "
    "The Kestrel P3 picks up to 1,200 items per hour, so it suits large warehouses. "
    "I think it is a good buy."
)
gate = QualityGate(policy=GatePolicy.from_profile("strict"))  # loads the model on first use
decision = gate.check(answer, docs, question="Tell me about Nordlicht Robotics.")
type(decision).__name__, decision.metadata.decision, round(decision.metadata.score, 2)

# %% [markdown]
# ## The per-claim report
# Each claim has a type (factual / reasoning / opinion), a grade, a support probability, the
# evidence it rests on and, for a contradiction, what the evidence says instead. Opinions are
# labelled but not counted against the answer.

# %%
for c in decision.metadata.claims:
    grade = c.grade if c.counted else "opinion"  # an opinion is labelled, not graded
    print(f"{grade:<10} {c.type:<9} {c.support:.2f}  {c.text}")
    print(f"{'':>21}{c.contradiction or c.reason}  {c.evidence_ids[:1]}")

# %% [markdown]
# The grade breakdown, and each claim's support against the thresholds:

# %%
import matplotlib.pyplot as plt

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
show(fig)

# %% [markdown]
# ## Reject: guidance for the model, a summary for the user
# Under the `strict` profile (grounding >= 0.8) the answer is rejected. The guidance is addressed
# to the model (what to correct, with the evidence quoted); the summary is for people.

# %%
assert not isinstance(decision, FilteredOutput)
print(decision.guidance.to_model_message())
print("---")
print(decision.guidance.summary())

# %% [markdown]
# ## Per-call overrides
# Profiles and thresholds can be switched per call through `RunnableConfig["configurable"]`
# (`qgate_profile`, `qgate_grounding_threshold`, `qgate_max_retries`, `qgate_on_exhausted`...).
# Under the `brainstorm` profile (threshold 0.4, and the only profile that tolerates a contradicted
# claim) the same answer passes, with the wrong figure flagged inline:

# %%
relaxed = gate.check(answer, docs, config={"configurable": {"qgate_profile": "brainstorm"}})
print(relaxed.metadata.decision)
print(relaxed.render_annotated())

# %% [markdown]
# ## Only the grounding report
# `HallucinationMonitor.verify_grounding` is the grading step alone; it returns a
# `GroundingReport` (pydantic, JSON round-trip).

# %%
monitor = gate.monitor  # the same HallucinationMonitor the gate created
report = monitor.verify_grounding("The Kestrel P3 comes with a 36-month warranty.", docs)
verdict = report.verdicts[0]
print(report.score, verdict.grade.value, verdict.contradiction.describe())
print(verdict.contradiction.quote)

# %% [markdown]
# ## Stated confidence vs. calibrated confidence

# %%
confident = "I'm 95% sure: the Kestrel P3 comes with a 36-month warranty."
conf = gate.calibrator.calibrate(confident, monitor.verify_grounding(confident, docs))
print(
    f"stated {conf.raw:.2f}, calibrated {conf.calibrated:.2f}, overconfident={conf.overconfident}"
)
print(conf.reason)
