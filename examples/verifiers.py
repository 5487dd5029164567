"""Verifier choice: the deterministic default, a cascade to an NLI model or an LLM, and
swapping the claim-evidence verifier (another ONNX NLI model, or HHEM-2.1-open).

Every claim gets the cheap deterministic verdict; a ``CascadeVerifier`` sends only the claims
whose support falls in an uncertain band to a second, expensive verifier. Any object with
``verify(items)`` or a plain function works as a verifier; here the second stage is a small
function (offline), and the NLI cross-encoder and the LLM versions run when configured.

Run from the repository root: python examples/verifiers.py
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from langchain_core.documents import Document

from langchain_qgate import (
    CascadeVerifier,
    HallucinationMonitor,
    QualityGate,
    VerificationItem,
    VerifierVerdict,
)

DOCS = Path("examples/docs")
docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
answer = (
    "Nordlicht Robotics employs 340 people. The company is listed on the Frankfurt stock exchange."
)


def second_opinion(items: Sequence[VerificationItem]) -> list[VerifierVerdict]:
    """Stand-in for an expensive verifier (it sees only the claims the first stage is unsure
    of): supported when every content word of the claim occurs in its nearest evidence."""
    verdicts = []
    for item in items:
        print("sent to the second stage:", item.claim.text)
        evidence = set(re.findall(r"\w+", " ".join(c.text for c in item.evidence).lower()))
        words = set(re.findall(r"\w+", item.claim.text.lower())) - {"the", "is", "on", "a"}
        found = words <= evidence
        reason = "every word is in the evidence" if found else "not stated in the evidence"
        support = 0.95 if found else 0.1
        verdicts.append(VerifierVerdict(support=support, verifier="second-opinion", reason=reason))
    return verdicts


cascade = CascadeVerifier(second=second_opinion, band=(0.1, 0.9))  # default (0.25, 0.75)
gate = QualityGate(monitor=HallucinationMonitor(verifier=cascade))
decision = gate.check(answer, docs)
for claim in decision.metadata.claims:
    print(f"{claim.grade:<10} {claim.support:.2f}  {claim.text}  <- {claim.reason}")

if os.environ.get("QGATE_NLI_MODEL"):  # e.g. "cross-encoder/nli-deberta-v3-small"
    from langchain_qgate import NLIVerifier

    nli = CascadeVerifier(second=NLIVerifier(os.environ["QGATE_NLI_MODEL"]))
    gate = QualityGate(monitor=HallucinationMonitor(verifier=nli))

if os.environ.get("OPENAI_API_KEY"):  # any chat model with structured output
    from langchain.chat_models import init_chat_model

    from langchain_qgate import LLMVerifier

    llm = LLMVerifier(init_chat_model("openai:gpt-4o-mini", temperature=0))
    gate = QualityGate(monitor=HallucinationMonitor(verifier=CascadeVerifier(llm, max_second=5)))
    print(gate.check(answer, docs).metadata.decision)

if os.environ.get("QGATE_PAIR_MODEL"):  # a folder: model.onnx, tokenizer.json, verifier.json
    from langchain_qgate import GroundingPolicy

    folder = os.environ["QGATE_PAIR_MODEL"]
    monitor = HallucinationMonitor(policy=GroundingPolicy(pair_model=folder))
    gate = QualityGate(monitor=monitor)
    print(gate.check(answer, docs).metadata.decision)

if os.environ.get("QGATE_HHEM"):  # HHEM-2.1-open from a hub cache: a second-stage verifier
    from transformers import AutoModelForSequenceClassification

    hhem = AutoModelForSequenceClassification.from_pretrained(
        "vectara/hallucination_evaluation_model", trust_remote_code=True
    )

    def hhem_verify(items: Sequence[VerificationItem]) -> list[VerifierVerdict]:
        pairs = [(" ".join(c.text for c in it.evidence), it.claim.text) for it in items]
        scores = hhem.predict(pairs).tolist()  # P(consistent) per (premise, hypothesis)
        return [VerifierVerdict(support=s, verifier="hhem-2.1-open") for s in scores]

    monitor = HallucinationMonitor(verifier=CascadeVerifier(second=hhem_verify))
    print(QualityGate(monitor=monitor).check(answer, docs).metadata.decision)
