"""Gate an LCEL chain (``with_quality_gate``) and observe any chain (callback handler).

1. ``with_quality_gate(prompt | model, evidence_fn=...)``: the first answer is rejected; the
   gate works at the chat-model level, so the model is called again with its draft and the
   guidance appended as messages (any prompt works, no ``{guidance}`` slot needed), and the
   corrected answer passes.
2. ``QualityGateCallbackHandler``: grades what a retrieval chain's model says against what
   its retriever returned, without blocking anything.

Run: python examples/lcel_and_callbacks.py   (offline: scripted chat model, bundled MiniLM)
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from langchain_qgate import GatePolicy, QualityGateCallbackHandler, with_quality_gate
from langchain_qgate.testing import KeywordRetriever, ScriptedChatModel, load_docs

docs = load_docs(Path(__file__).parent / "docs")
retriever = KeywordRetriever(docs=docs, k=3)


def respond(messages: list[BaseMessage]) -> AIMessage:
    """Scripted model: a wrong figure first, the right one once the guidance turn follows."""
    if "did not pass the fact check" in str(messages[-1].content):
        return AIMessage("Nordlicht shipped 1,150 robots in 2024, up from 870 in 2023.")
    return AIMessage("Nordlicht shipped 1,500 robots in 2024, up from 870 in 2023.")


model = ScriptedChatModel(respond=respond)
prompt = ChatPromptTemplate.from_messages(
    [("system", "Answer from the context only.\n\nContext:\n{context}"), ("human", "{question}")]
)

# 1. Gate + retry with guidance.
gated = with_quality_gate(
    prompt | model,
    evidence_fn=lambda x: x["context"],
    policy=GatePolicy(max_retries=2, on_exhausted="pass_with_warning"),
)
question = "How many robots did Nordlicht ship in 2024?"
answer = gated.invoke({"question": question, "context": retriever.invoke(question)})
meta = answer.response_metadata["qgate"]
print("gated answer:", answer.content)
print(f"  {meta['decision']}, grounding {meta['score']:.2f}, retries {meta['retries_used']}")

# 2. Observe only: the handler collects the retriever's documents and grades the model output.
handler = QualityGateCallbackHandler()
as_text = RunnableLambda(lambda docs: "\n\n".join(d.page_content for d in docs))
chain = {"context": retriever | as_text, "question": RunnablePassthrough()} | prompt | model
chain.invoke(question, {"callbacks": [handler]})
check = handler.latest()
print(f"observed: passed={check.passed}, evidence items={check.evidence_count}")
for claim in check.decision.metadata.claims:
    print(f"  {claim.grade:<10} {claim.text}  <- {claim.reason}")
