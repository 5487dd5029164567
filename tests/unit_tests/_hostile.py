"""Hostile inputs (hypothesis strategies) and the contract every entry point must keep.

Shared by the fuzz tests (a few hundred inputs, fixed seed) and ``benchmarks/bench_hardening.py``
(the large run). The contract: an entry point returns a defined verdict or raises a
``QGateError`` subclass; claim spans lie inside the text; every score is finite, in [0, 1];
reports and decisions encode as JSON (no invalid Unicode left in them).
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.messages import ToolMessage

from langchain_qgate.schemas import Claim, GroundingReport

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00"]
FRAGMENTS = [
    "Acme was founded in 2020.",
    "Acme has 500 employees and an office in Berlin.",
    "Revenue was €48.2 million in fiscal year 2024, up 31% from $36.8M.",
    "It was not founded in 2019. ",
    "Therefore, revenue doubled. ",
    "I think Paris is the capital of France. ",
    "Hello! Hope this helps. ",
    "Dr. J. K. Rowling joined the U.S. Army on March 3, 2021. ",
    "What was the revenue? ",
    " ",
    "\n",
    "\n\n",
    "\t",
    "- ",
    "1. ",
    "# Heading\n",
    "> quote\n",
    "| a | b |\n|---|---|\n",
    "```\ncode()\n```\n",
    "    indented code\n",
    "---\n",
    "**bold** __under__ ",
    "<p>html <b>tag</b></p>",
    '{"a": [1, 2, {"b": null}]}',
    "https://example.com/a?b=c#d ",
    "www.example.org/x ",
    "[1] [2, 3] [^note] ",
    "e.g. ",
    "... ",
    "?!",
    "。",
    "中文句子。",
    "😀",
    "\u200b",
    "\u202e",
    "\x00",
    "\ufeff",
    "9" * 309,
    "1" * 400,
    "1e308 ",
    "-0 ",
    "NaN ",
    "inf ",
    "0.000000001 ",
    "1,000,000,000,000 ",
    "$" + "9" * 320 + " trillion ",
    "2020-02-30 ",
    "December 32nd, 2099 ",
    "the 2nd of 3rd ",
    "five hundred and twenty-two ",
    *SURROGATES,
]
_TOKEN_CHARS = ["x", "A", "1", " ", "a.", "-", "*", "é", "ab:/", "[1,", "$1 ", "\ud800", "\n"]


def long_tokens(max_len: int) -> st.SearchStrategy[str]:
    """One character pattern repeated up to ``max_len`` characters (base64, minified code)."""
    return st.builds(
        lambda chars, n: (chars * (n // len(chars) + 1))[:n],
        st.sampled_from(_TOKEN_CHARS),
        st.integers(1, max_len),
    )


def hostile_texts(*, max_token: int = 2_000, max_pieces: int = 10) -> st.SearchStrategy[str]:
    """Texts glued from prose, markdown, odd numbers, invalid Unicode and long tokens."""
    piece = st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(max_size=30),
        st.text(st.characters(codec=None, categories=["Cs", "Zs", "Cc", "So"]), max_size=5),
        long_tokens(max_token),
        st.integers(min_value=-(10**400), max_value=10**400).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
    )
    return st.lists(piece, max_size=max_pieces).map("".join)


def evidence_inputs(texts: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Evidence in every accepted shape, plus a few the API must refuse cleanly."""
    item = st.one_of(
        texts,
        st.builds(lambda t: Document(page_content=t, metadata={"source": "doc"}), texts),
        st.builds(
            lambda t, meta: {"page_content": t, "metadata": meta},
            texts,
            st.sampled_from([{}, {"source": "s\ud800"}, None, [1, 2], "x"]),
        ),
        st.builds(lambda t: ToolMessage(content=t, tool_call_id="call-1"), texts),
        st.sampled_from([None, 5, b"bytes", {"text": 3}]),
    )
    return st.one_of(st.none(), texts, st.lists(item, max_size=5))


def _unit(value: float, what: str) -> None:
    assert math.isfinite(value), f"{what} is not finite: {value}"
    assert 0.0 <= value <= 1.0, f"{what} is outside [0, 1]: {value}"


def check_claims(text: str, claims: list[Claim]) -> None:
    """Spans inside the text, in order, indexes 0..n-1."""
    for i, claim in enumerate(claims):
        assert claim.index == i
        assert 0 <= claim.start <= claim.end <= len(text), (claim.start, claim.end, len(text))


def check_report(text: str, report: GroundingReport) -> None:
    """Scores finite in [0, 1], spans inside ``text``, the report encodable as JSON."""
    _unit(report.score, "report.score")
    check_claims(text, [v.claim for v in report.verdicts])
    for v in report.verdicts:
        _unit(v.support, "verdict.support")
        _unit(v.credit, "verdict.credit")
    json.loads(report.model_dump_json())


def check_decision(decision: Any) -> None:
    """The gate's scores finite in [0, 1]; the decision encodable as JSON."""
    meta = decision.metadata
    _unit(meta.score, "metadata.score")
    _unit(meta.confidence, "metadata.confidence")
    json.loads(decision.model_dump_json())
