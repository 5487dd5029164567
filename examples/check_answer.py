"""Check an answer against documents and read the per-claim report.

Run from the repository root: python examples/check_answer.py   (offline: bundled MiniLM)
"""

from __future__ import annotations

import sys
from pathlib import Path

from langchain_core.documents import Document

from langchain_qgate import FilteredOutput, GatePolicy, QualityGate

DOCS = Path("examples/docs")  # run from the repository root
docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
if not docs:  # no evidence: every claim would be graded fabricated
    sys.exit(f"no documents found in {DOCS.resolve()}; run from the repository root")
answer = (
    "Nordlicht Robotics was founded in 2016 in Hamburg. "
    "It reported revenue of €52.7 million in fiscal year 2024. "
    "The Kestrel P3 picks up to 1,200 items per hour."
)

gate = QualityGate(policy=GatePolicy.from_profile("strict"))  # bundled MiniLM, no LLM
decision = gate.check(answer, docs, question="Tell me about Nordlicht Robotics.")
for claim in decision.metadata.claims:
    print(f"{claim.grade:<10} {claim.support:.2f}  {claim.text}  <- {claim.reason}")
print(f"grounding {decision.metadata.score:.2f} -> {decision.metadata.decision}")
if isinstance(decision, FilteredOutput):
    print(decision.render_annotated())  # citation markers + sources
else:
    print(decision.guidance.to_model_message())  # what the model should fix

# The same answer under the brainstorm profile (threshold 0.4; the only profile that lets a
# contradicted claim through, flagged), chosen per call:
relaxed = gate.check(answer, docs, config={"configurable": {"qgate_profile": "brainstorm"}})
print(f"brainstorm profile -> {relaxed.metadata.decision}")
if isinstance(relaxed, FilteredOutput):
    print(relaxed.render_annotated())
