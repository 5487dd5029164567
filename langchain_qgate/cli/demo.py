"""``qgate demo``: a small RAG agent whose answers go through the quality gate.

The agent (``create_agent`` + :class:`QualityGateMiddleware` + a retriever tool over the
documents in ``examples/docs``) runs with a scripted chat model, so the demo needs no LLM:

1. The first answer states a wrong revenue figure and an unsupported plan; the gate shows the
   per-claim verdicts, rejects it and sends guidance back; the corrected answer passes with
   its citations.
2. A second question keeps getting a wrong warranty answer; the retry budget runs out, the
   run pauses with ``interrupt()`` and resumes with a human decision (an edit).

The grounding check uses the real bundled embedding model (loaded once, a few seconds).
"""

from __future__ import annotations

import argparse
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_qgate.cli._io import CliError

if TYPE_CHECKING:
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.runnables import RunnableConfig

__all__ = ["DEMO_SCRIPT", "default_docs_dir", "register", "run_demo"]

WIDTH = 96

DEMO_SCRIPT: dict[str, list[str]] = {
    "What was Nordlicht Robotics' revenue in 2024, and how did it grow?": [
        "Nordlicht Robotics reported revenue of €52.7 million in fiscal year 2024. "
        "Revenue grew 31% from €36.8 million in fiscal year 2023. "
        "The company plans to list its shares on the Frankfurt stock exchange in 2026.",
        "In fiscal year 2024, Nordlicht Robotics reported revenue of €48.2 million. "
        "Revenue grew 31% from €36.8 million in fiscal year 2023. "
        "Net income for 2024 was €3.1 million.",
    ],
    "How long is the warranty on the Kestrel P3?": [
        "The Kestrel P3 comes with a 36-month warranty. "
        "Owners also get free replacement robots for life.",
        "The Kestrel P3 comes with a 36-month warranty that covers parts and labour.",
    ],
}
"""Question -> the scripted model's successive answers (the last one repeats)."""

HUMAN_EDIT = (
    "Every Nordlicht robot, including the Kestrel P3, comes with a 24-month warranty; "
    "batteries are covered for 12 months."
)


def default_docs_dir() -> Path | None:
    """``examples/docs`` of a source checkout, the current directory, or the installed wheel."""
    package = Path(__file__).resolve().parents[1]  # langchain_qgate/
    for base in (package.parent, Path.cwd()):
        candidate = base / "examples" / "docs"
        if candidate.is_dir():
            return candidate
    packaged = package / "data" / "demo_docs"
    return packaged if packaged.is_dir() else None


def _responder(script: dict[str, list[str]]) -> Callable[[list[BaseMessage]], AIMessage]:
    """Search first, then the next scripted answer for the question after each rejection."""
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from langchain_qgate.integrations._harvest import is_guidance

    def respond(messages: list[BaseMessage]) -> AIMessage:
        at = max(
            i for i, m in enumerate(messages) if isinstance(m, HumanMessage) and not is_guidance(m)
        )
        question = str(messages[at].content)
        after = messages[at + 1 :]
        if not any(isinstance(m, ToolMessage) for m in after):
            return AIMessage(
                content="",
                tool_calls=[{"name": "search_docs", "args": {"query": question}, "id": f"s{at}"}],
            )
        answers = script[question]
        k = sum(isinstance(m, HumanMessage) for m in after)
        return AIMessage(content=answers[min(k, len(answers) - 1)])

    return respond


# -- printing ------------------------------------------------------------------------------


def _out(text: str = "") -> None:
    """Print a line now. Into a closed pipe (``qgate demo | head``) this raises
    ``BrokenPipeError``, which ends the demo; ``main`` exits 141 without a message."""
    print(text, flush=True)


def _wrap(text: str, indent: int) -> str:
    return textwrap.fill(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * indent)


def _short(text: str, n: int) -> str:
    """``text`` on one line, cut at a word boundary to at most ``n`` characters."""
    return textwrap.shorten(text, width=n, placeholder=" …")


def _claims_table(meta: dict[str, Any]) -> list[str]:
    """One row per claim: grade, support, the claim, then its evidence or reason (wrapped at
    word boundaries, never cut)."""
    lines = [f"      {'#':>2}  {'grade':<11} {'support':>7}  claim  <- evidence or reason"]
    for c in meta.get("claims", []):
        counted = c.get("counted", True)
        if not counted:
            why = "an opinion: labelled, not graded"
        elif c.get("contradiction"):
            why = f"contradicted: {c['contradiction']}"
        elif c["grade"] == "grounded" and c.get("evidence_ids"):
            why = f"[{','.join(str(m) for m in c.get('markers', []))}] {c['evidence_ids'][0]}"
        else:
            why = c.get("reason", "")
        label = c["grade"] if counted else "opinion"
        support = f"{c['support']:>7.2f}" if counted else f"{'-':>7}"
        prefix = f"      {c['index'] + 1:>2}  {label:<11} {support}  "
        width = WIDTH - len(prefix)
        body = textwrap.wrap(" ".join(c["text"].split()), width)
        body += textwrap.wrap(f"<- {' '.join(why.split())}", width, subsequent_indent="   ")
        lines.append(prefix + body[0])
        lines.extend(" " * len(prefix) + rest for rest in body[1:])
    return lines


def _verdict_line(meta: dict[str, Any]) -> str:
    from langchain_qgate.gate import describe_decision

    label = describe_decision(meta["decision"])
    return (
        f"  [gate]   {label}   grounding {meta['score']:.2f} (needs "
        f"{meta['grounding_threshold']:.2f}), retries {meta['retries_used']}/"
        f"{meta['max_retries']}\n"
        f"           confidence {meta['confidence']:.2f} (calibrated probability that the "
        f"answer is supported; needs {meta['confidence_threshold']:.2f})"
    )


def _print_update(node: str, update: dict[str, Any]) -> None:
    from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage

    messages = update.get("messages") or []
    if node == "model":
        for m in messages:
            if isinstance(m, AIMessage) and m.tool_calls:
                for call in m.tool_calls:
                    _out(f"  [model]  calls {call['name']}({_short(str(call['args']), 70)})")
            elif isinstance(m, AIMessage):
                _out("  [model]  answer:")
                _out(_wrap(str(m.content), 11))
    elif node == "tools":
        for m in messages:
            if isinstance(m, ToolMessage):
                ids = [d.id for d in (m.artifact or [])]
                _out(f"  [tool]   {m.name} -> {len(ids)} passages: {', '.join(map(str, ids))}")
    elif node.endswith((".after_model", ".before_model")):
        removed = [m for m in messages if isinstance(m, RemoveMessage)]
        guidance = [m for m in messages if isinstance(m, HumanMessage)]
        if removed and guidance:
            record = (update.get("qgate_audit") or [{}])[-1]
            meta = record.get("metadata") or {}
            _out("  [gate]   claims:")
            for line in _claims_table(meta):
                _out(line)
            if meta:
                _out(_verdict_line(meta))
            _out(
                "  [gate]   guidance sent back to the model (the draft is removed, kept for audit):"
            )
            for line in str(guidance[0].content).splitlines():
                _out(_wrap(line, 13))
        for m in messages:
            if isinstance(m, AIMessage) and m.response_metadata.get("qgate_status"):
                _out("  [gate]   the draft is held: until a human decides, the conversation's last")
                _out("           message is a placeholder, not the rejected answer")
            if isinstance(m, AIMessage) and "qgate" in m.response_metadata:
                meta = m.response_metadata["qgate"]
                review = m.response_metadata.get("qgate_review")
                if review:
                    _out(f"  [human]  decision applied: {meta['decision']} by {review['reviewer']}")
                    _out("  [gate]   the reviewer's text, graded for the record:")
                else:
                    _out("  [gate]   claims:")
                for line in _claims_table(meta):
                    _out(line)
                if not review:
                    _out(_verdict_line(meta))


def _stream(agent: Any, payload: Any, config: RunnableConfig) -> Iterator[tuple[str, Any]]:
    for chunk in agent.stream(payload, config, stream_mode="updates"):
        yield from chunk.items()


def _final_answer(agent: Any, config: RunnableConfig) -> None:
    from langchain_qgate.gate import FilteredOutput, QualityMetadata

    final = agent.get_state(config).values["messages"][-1]
    meta = QualityMetadata.model_validate(final.response_metadata["qgate"])
    rendered = FilteredOutput(text=str(final.content), metadata=meta).render_annotated()
    _out("  Final answer, annotated:")
    for line in rendered.splitlines():
        _out(_wrap(line, 4) if line.strip() else "")


def run_demo(docs_dir: Path, *, max_retries: int = 1) -> int:
    """Run both demo conversations and print what happens; returns an exit code."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from langchain_qgate.gate import GatePolicy
    from langchain_qgate.grounding import HallucinationMonitor
    from langchain_qgate.integrations.middleware import QualityGateMiddleware
    from langchain_qgate.testing import (
        KeywordRetriever,
        ScriptedChatModel,
        load_docs,
        make_search_tool,
    )

    docs = load_docs(docs_dir)
    files = sorted({d.metadata["source"] for d in docs})
    _out("=" * WIDTH)
    _out("qgate demo: a RAG agent (create_agent + QualityGateMiddleware), scripted model")
    _out("=" * WIDTH)
    _out(f"Documents: {len(files)} files, {len(docs)} passages from {docs_dir}")
    started = time.perf_counter()
    monitor = HallucinationMonitor()
    monitor.verify_grounding("Warm-up sentence.", ["Warm-up sentence."])
    _out(f"Embedding model loaded in {time.perf_counter() - started:.1f}s")
    policy = GatePolicy(max_retries=max_retries, on_exhausted="escalate")
    _out(
        f"Policy: grounding >= {policy.grounding_threshold}, confidence >= "
        f"{policy.confidence_threshold}, {policy.max_retries} retry, then escalate to a human"
    )
    agent = create_agent(
        ScriptedChatModel(respond=_responder(DEMO_SCRIPT)),
        tools=[make_search_tool(KeywordRetriever(docs=docs, k=3))],
        middleware=[QualityGateMiddleware(monitor=monitor, policy=policy)],
        checkpointer=InMemorySaver(),
    )
    questions = list(DEMO_SCRIPT)
    t0 = time.perf_counter()

    for run, question in enumerate(questions, 1):
        config: RunnableConfig = {"configurable": {"thread_id": f"demo-{run}"}}
        _out()
        _out(f"Run {run}: {question}")
        _out("-" * WIDTH)
        interrupted = None
        for node, update in _stream(agent, {"messages": [("user", question)]}, config):
            if node == "__interrupt__":
                interrupted = update[0]
            elif isinstance(update, dict):
                _print_update(node, update)
        if interrupted is not None:
            value = interrupted.value
            _out("  [gate]   claims of the last draft:")
            for line in _claims_table(value["metadata"]):
                _out(line)
            _out(_verdict_line(value["metadata"]))
            _out("  [pause]  interrupt() -> the run waits for a reviewer. The reviewer sees:")
            for line in value["summary"].splitlines():
                _out(_wrap(line, 13))
            decision = {"type": "edit", "text": HUMAN_EDIT, "reviewer": "support-lead"}
            _out("  [human]  Command(resume={'type': 'edit', 'text': ...}) with:")
            _out(_wrap(HUMAN_EDIT, 13))
            for node, update in _stream(agent, Command(resume=decision), config):
                if isinstance(update, dict):
                    _print_update(node, update)
        _final_answer(agent, config)
        audit = agent.get_state(config).values.get("qgate_audit", [])
        _out(f"  Audit: {len(audit)} rejected draft(s) kept in state for this turn.")

    _out()
    _out(f"Both runs took {time.perf_counter() - t0:.1f}s after the model load.")
    return 0


def _quiet_model_loading() -> None:
    """Hide the transformers weight-loading progress bar (the demo prints its own timing)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - transformers comes with sentence-transformers
        return
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]


def _cmd_demo(args: argparse.Namespace) -> int:
    _quiet_model_loading()
    docs = Path(args.docs) if args.docs else default_docs_dir()
    if docs is None or not docs.is_dir():
        where = args.docs or "examples/docs"
        raise CliError(f"{where}: documents folder not found; pass --docs examples/docs")
    return run_demo(docs, max_retries=args.max_retries)


_DESCRIPTION = """\
Run a small RAG agent (create_agent + QualityGateMiddleware + a retriever tool
over examples/docs) with a scripted chat model: no LLM, no network.

  run 1  a wrong revenue figure is rejected with per-claim verdicts, the guidance
         goes back to the model and the corrected answer passes with citations
  run 2  a wrong warranty answer spends the retry budget; the run pauses with
         interrupt() and resumes with a human reviewer's edit

Grading uses the bundled embedding model (loaded once, a few seconds)."""


def register(subparsers: Any) -> None:
    """Add ``qgate demo`` to the CLI."""
    demo = subparsers.add_parser(
        "demo",
        help="run the RAG agent demo with the quality gate",
        description=_DESCRIPTION,
    )
    demo.add_argument("--docs", default=None, help="folder of .md/.txt documents")
    demo.add_argument("--max-retries", type=int, default=1, help="retry budget before escalating")
    demo.set_defaults(func=_cmd_demo)
