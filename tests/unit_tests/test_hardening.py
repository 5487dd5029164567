"""Hostile, huge and malformed input (issue 15): one regression test group per item.

1. linear-time regexes on long tokens      5. CLI: one line on stderr, exit 2, ``--debug``
2. 309-digit integers                      6. several store wrappers over one store
3. lone surrogates                         7. escalation without a checkpointer
4. config overrides, counters, logprobs, evidence shapes

No timing assertions: the timings are in ``benchmarks/bench_hardening.py``. The tests pin
the behaviour that makes the code linear (a URL match never starts inside a token) and run
the inputs that used to take minutes, checking their results.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import threading
from decimal import Decimal
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langgraph.store.memory import InMemoryStore

from langchain_qgate.cli import CliError, main
from langchain_qgate.errors import CheckpointerRequiredError, InvalidInputError, QGateError
from langchain_qgate.gate import FilteredOutput, GatePolicy, QualityGate, RejectedOutput
from langchain_qgate.gate.load import LoadCounters
from langchain_qgate.grounding import HallucinationMonitor, extract_claims
from langchain_qgate.grounding.checks.checks import (
    extract_entities,
    extract_quantities,
    negation_scopes,
)
from langchain_qgate.grounding.claims.claims import _URL_OR_CITATION, classify_sentence
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from langchain_qgate.memory import QualityFilteredStore
from langchain_qgate.memory.locks import store_locks
from langchain_qgate.schemas import EvidenceChunk
from tests.unit_tests._qgate_fakes import (
    DOCS,
    GOOD,
    QUESTION,
    SEARCH_TOOL,
    build_rag_graph,
    make_monitor,
    scripted_model,
)

HUGE = "9" * 309  # over 1e308: float() gives inf
SURROGATE = "\ud800"


@pytest.fixture(scope="module")
def monitor() -> HallucinationMonitor:
    return make_monitor()


class SpyEmbedder(HashingEmbedder):
    """A hashing embedder that keeps every text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: Any) -> Any:
        self.seen.extend(texts)
        return super().embed(texts)


# -- 1. linear time on long tokens -----------------------------------------------------------


@pytest.mark.parametrize("token", ["x" * 5_000, "a/" * 3_000, "ab:" * 2_000, "é" * 4_000])
def test_long_token_url_match_never_starts_inside_a_token(token: str) -> None:
    # A match may only begin where a token begins: no start position re-scans the token,
    # which keeps the scan linear (the old pattern backtracked from every position).
    for pos in (1, 2, len(token) // 2, len(token) - 1):
        assert _URL_OR_CITATION.match(token + "://x", pos) is None
    assert _URL_OR_CITATION.match(token + "://x", 0) is not None


def test_long_token_claim_keeps_its_exact_span() -> None:
    text = "Acme reported " + "x" * 200_000 + " in 2020."
    (claim,) = extract_claims(text)
    assert (claim.start, claim.end) == (0, len(text))
    assert claim.text == text


@pytest.mark.parametrize(
    ("sentence", "is_claim"),
    [
        ("https://example.com/a?b=c", False),
        ("See www.example.com/x", True),
        ("[1] [2, 3] [^note]", False),
        ("prefix-https://x.io/" + "a" * 50_000, False),
        ("Revenue was €48.2 million [1].", True),
    ],
)
def test_long_token_urls_and_citations_are_still_not_claims(sentence: str, is_claim: bool) -> None:
    assert (classify_sentence(sentence) is not None) is is_claim


def test_long_token_whitespace_gap_between_names_is_one_entity() -> None:
    # The capitalised-run pattern matched a whitespace gap two ways (quadratic in the gap).
    text = "Acme" + " " * 50_000 + "Corp reported growth. Nordlicht" + "\t" * 20_000 + "x"
    names = [name for name, _, _ in extract_entities(text)]
    assert names == ["Acme Corp", "Nordlicht"]


def test_long_token_of_numbers_gives_every_quantity() -> None:
    # The overlap check against spans already taken was a scan of all of them (quadratic in
    # the number of quantities); the result must not change with the faster check.
    quantities = extract_quantities("[1," * 20_000 + " on March 3, 2021 for $5M (7%)")
    assert len(quantities) == 20_003
    assert [q.kind for q in quantities[-3:]] == ["date", "money", "percent"]
    assert quantities[0].start == 1
    assert all(a.end <= b.start for a, b in itertools.pairwise(quantities))


def test_long_run_of_negations_keeps_each_scope() -> None:
    # Each cue re-scanned the rest of the text for its clause end (quadratic without
    # punctuation: 120 s for 80 K chars of "not x not x ...").
    scopes = negation_scopes("not apples " * 20_000 + "never bananas, no cherries")
    assert len(scopes) == 20_002
    assert scopes[0] == {"apple"}  # the next 8 words: "apples not apples not ..."
    assert scopes[-3:] == [{"apple", "never", "banana"}, {"banana"}, {"cherry"}]


# -- 2. 309-digit integers -------------------------------------------------------------------


def test_309_digit_integer_is_kept_with_its_exact_value() -> None:
    # Issue 26 item 7: past a float the value is inf and the exact value is compared.
    quantities = extract_quantities(f"Acme has {HUGE} users and 12 staff.")
    assert [q.value for q in quantities] == [math.inf, 12.0]
    assert [q.exact for q in quantities] == [Decimal(HUGE), None]
    (money,) = extract_quantities(f"${HUGE} trillion")
    assert (money.kind, money.currency) == ("money", "USD")
    assert money.exact == Decimal(HUGE + "0" * 12)


def test_309_digit_integer_in_answer_and_evidence_gives_a_report(monitor) -> None:
    evidence = [f"Acme has {HUGE} users.", "Acme has 12 staff."]
    report = monitor.verify_grounding(f"Acme has {HUGE} users and 12 staff.", evidence)
    assert report.verdicts
    assert 0.0 <= report.score <= 1.0
    json.loads(report.model_dump_json())


def test_309_digit_integer_through_create_agent_is_gated(monitor) -> None:
    answer = f"{GOOD} The robots picked {HUGE} items."
    mw = QualityGateMiddleware(
        monitor=monitor,
        policy=GatePolicy(max_retries=0, on_exhausted="pass_with_warning"),
        evidence=[f"Nordlicht robots picked {HUGE} items."],
    )
    agent = create_agent(scripted_model([answer]), tools=[SEARCH_TOOL], middleware=[mw])
    result = agent.invoke({"messages": [("user", QUESTION)]})
    final = result["messages"][-1]
    assert final.content == answer
    assert 0.0 <= final.response_metadata["qgate"]["score"] <= 1.0


# -- 3. lone surrogates ----------------------------------------------------------------------


def test_lone_surrogate_is_read_as_replacement_character_with_same_spans() -> None:
    text = f"Acme{SURROGATE} was founded in 2020. It has 5 staff."
    claims = extract_claims(text, question=f"When{SURROGATE}?")
    assert [c.text for c in claims] == ["Acme\ufffd was founded in 2020.", "It has 5 staff."]
    assert text[claims[1].start : claims[1].end] == "It has 5 staff."


@pytest.mark.parametrize("where", ["answer", "evidence", "question", "chunk", "no_claims"])
def test_lone_surrogate_never_reaches_the_embedder(where: str) -> None:
    spy = SpyEmbedder()
    gate = QualityGate(monitor=HallucinationMonitor(embedder=spy))
    answer, question = "Acme was founded in 2020.", "When was Acme founded?"
    evidence: list[Any] = ["Acme was founded in 2020 in Berlin."]
    if where == "answer":
        answer = f"Acme was founded{SURROGATE} in 2020."
    elif where == "evidence":
        evidence = [f"Acme was{SURROGATE} founded in 2020.", {"page_content": SURROGATE}]
    elif where == "question":
        question = f"When{SURROGATE}?"
    elif where == "chunk":
        evidence = [EvidenceChunk(id=f"d{SURROGATE}#0", text=f"Acme{SURROGATE}", source_id="d")]
    else:
        answer = f"Hello{SURROGATE}!"
    message = AIMessage(content=[{"type": "text", "text": answer}])
    for output in (answer, message):
        decision = gate.check(output, evidence, question=question)
        assert isinstance(decision, FilteredOutput | RejectedOutput)
        json.loads(decision.model_dump_json())  # encodable: nothing invalid left
    assert spy.seen
    assert not any(SURROGATE in t for t in spy.seen)


async def test_lone_surrogate_async_report_is_encodable(monitor) -> None:
    report = await monitor.averify_grounding(
        f"Acme{SURROGATE} has 5 staff.", [f"Acme has 5{SURROGATE} staff."], question=SURROGATE
    )
    assert report.question == "\ufffd"
    json.loads(report.model_dump_json())


# -- 4. config overrides, counters, logprobs, evidence shapes --------------------------------


@pytest.mark.parametrize(
    ("config", "field"),
    [
        ({"qgate_max_contradictions": float("inf")}, "qgate_max_contradictions"),
        ({"qgate_grounding_threshold": 10**400}, "qgate_grounding_threshold"),
        ({"qgate_grounding_threshold": "nan"}, "qgate_grounding_threshold"),
        ({"qgate_confidence_threshold": float("-inf")}, "qgate_confidence_threshold"),
        ({"qgate_max_retries": 10**400}, "qgate_max_retries"),
        ({"qgate_max_retries": "2.5"}, "qgate_max_retries"),
        ({"qgate_max_retries": True}, "qgate_max_retries"),
        ({"qgate_max_retries": [1]}, "qgate_max_retries"),
        ({"qgate_on_exhausted": 5}, "qgate_on_exhausted"),
        (["x"], "config"),
        ({"configurable": "x"}, "configurable"),
    ],
)
def test_config_overrides_are_validated_with_the_field_named(config: Any, field: str) -> None:
    gate = QualityGate(monitor=make_monitor())
    with pytest.raises(InvalidInputError) as info:
        gate.check(GOOD, DOCS, config=config)
    assert info.value.argument == field
    assert "\n" not in str(info.value)


def test_config_overrides_still_accept_strings_and_integral_floats() -> None:
    policy = GatePolicy().with_overrides(
        {"qgate_max_retries": "2", "qgate_grounding_threshold": "0.7", "qgate_inferred_weight": 1}
    )
    assert (policy.max_retries, policy.grounding_threshold, policy.inferred_weight) == (2, 0.7, 1)
    assert (
        GatePolicy().with_overrides({"qgate_max_contradictions": "none"}).max_contradictions is None
    )
    assert GatePolicy().with_overrides({"configurable": None}) == GatePolicy()


@pytest.mark.parametrize("retries", ["1", 2.5, True, -1, None])
def test_config_retries_used_must_be_a_non_negative_int(retries: Any) -> None:
    gate = QualityGate(monitor=make_monitor())
    with pytest.raises(InvalidInputError, match="retries_used"):
        gate.check(GOOD, DOCS, retries_used=retries)


@pytest.mark.parametrize(
    "counters",
    [{"retries": "x"}, {"retries": -1}, {"started_at": float("nan")}, {"bogus": 1}, [1, 2]],
)
def test_config_counters_with_unusable_values_are_invalid_input(counters: Any) -> None:
    with pytest.raises(InvalidInputError, match="counters"):
        LoadCounters.from_state(counters)


@pytest.mark.parametrize(
    ("logprob", "expected"), [(-(10**400), 0.0), (10**400, 1.0), (float("nan"), None)]
)
def test_config_huge_logprobs_are_clamped(logprob: Any, expected: float | None) -> None:
    from langchain_qgate.calibration import logprob_confidence

    message = AIMessage(content="Acme has 5 staff.")
    message.response_metadata["logprobs"] = {"content": [{"logprob": logprob}]}
    found = logprob_confidence(message)
    assert (found[0] if found else None) == expected
    QualityGate(monitor=make_monitor()).check(message, ["Acme has 5 staff."])


def test_config_dict_evidence_metadata_must_be_a_mapping(monitor) -> None:
    with pytest.raises(InvalidInputError, match="metadata"):
        monitor.verify_grounding(GOOD, [{"page_content": "x", "metadata": [1, 2]}])


def test_config_evidence_list_that_contains_itself_is_invalid_input(monitor) -> None:
    evidence: list[Any] = ["Acme has 5 staff."]
    evidence.append(evidence)
    with pytest.raises(InvalidInputError, match="contains itself"):
        monitor.verify_grounding("Acme has 5 staff.", evidence)
    deep: list[Any] = ["Acme has 5 staff."]
    for _ in range(5_000):
        deep = [deep]
    with pytest.raises(InvalidInputError, match="nested more than"):
        EvidenceIndex(deep, embedder=HashingEmbedder())
    shared = ["Acme has 5 staff."]  # one list given twice is read once (linear in objects)
    assert len(EvidenceIndex([shared, shared], embedder=HashingEmbedder())) == 1
    with pytest.raises(InvalidInputError, match="contains itself"):
        QualityGateMiddleware(monitor=monitor, evidence=evidence)  # static evidence too
    with pytest.raises(InvalidInputError, match="nested more than"):
        QualityGateMiddleware(monitor=monitor, evidence=deep)


# -- 5. CLI ----------------------------------------------------------------------------------


@pytest.fixture
def hashing_cli(monkeypatch):
    """``qgate`` with the hashing embedder instead of the bundled model."""
    import langchain_qgate.grounding.evidence.embeddings as embeddings

    monkeypatch.setattr(embeddings, "default_embedder", lambda *a, **k: HashingEmbedder())


def _cli(argv: list[str], capsys, monkeypatch, stdin: bytes = b"") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


JSONL = ["--answer", "a", "--evidence", "e.jsonl"]


@pytest.mark.parametrize(
    ("files", "argv", "stdin", "message"),
    [
        ({"a": b"\xff\xfe\x00\x01PNG"}, ["--answer", "a", "--evidence", "a"], b"", "not UTF-8"),
        ({"a": "caf\xe9".encode("latin-1")}, ["--answer", "a", "--evidence", "a"], b"", "0xe9"),
        ({"e": b"x"}, ["--answer", "-", "--evidence", "e"], b"\xc3\x28 junk", "standard input"),
        ({"a": b"A.", "e.jsonl": b'{"text": "a"}\n{bad'}, JSONL, b"", "line 2: not valid JSON"),
        ({"a": b"A.", "e.jsonl": b"[1]"}, JSONL, b"", "expected a JSON object"),
        ({"a": b"A.", "e.jsonl": b'{"metadata": 1}'}, JSONL, b"", "'metadata' must be an object"),
        ({"a": b"A.", "e.jsonl": b'{"text": ' + b"1" * 5000 + b"}"}, JSONL, b"", "not valid JSON"),
        ({"a": b"x" * 2_000_001, "e": b"x"}, ["--answer", "a", "--evidence", "e"], b"",
         "over the limit"),
        ({}, ["--answer", "missing", "--evidence", "missing"], b"", "cannot read missing"),
        ({}, ["--answer", "-", "--evidence", "-"], b"Acme.", "not both"),
    ],
)  # fmt: skip
def test_cli_bad_input_exits_2_with_one_line(
    files, argv, stdin, message, tmp_path, monkeypatch, capsys, hashing_cli
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    code, out, err = _cli(["check", *argv], capsys, monkeypatch, stdin)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("qgate check: error: ")
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "content",
    [b'{"id": 1}\n', b"[1]\n", b"\xff\xfe", b'{"id": 1, "context": "c", "response": "r", '
     b'"label": ' + b"1" * 5000 + b"}\n"],
)  # fmt: skip
def test_cli_malformed_bench_jsonl_exits_2_with_one_line_naming_the_file(
    content, tmp_path, monkeypatch, capsys, hashing_cli
) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_bytes(content)
    code, _, err = _cli(["bench", "detection", "--data", str(data), "--quiet"], capsys, monkeypatch)
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith(f"qgate bench detection: error: invalid {data}: ")


def test_cli_309_digit_number_is_checked(tmp_path, monkeypatch, capsys, hashing_cli) -> None:
    (tmp_path / "a").write_text(f"Acme has {HUGE} users.", encoding="utf-8")
    (tmp_path / "e").write_text(f"Acme has {HUGE} users.", encoding="utf-8")
    argv = ["check", "--answer", str(tmp_path / "a"), "--evidence", str(tmp_path / "e"), "--json"]
    code, out, err = _cli(argv, capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)["report"]["verdicts"]


@pytest.mark.parametrize("where", ["before", "after"])
def test_cli_debug_shows_the_traceback(where, tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "a").write_bytes(b"\xff")
    argv = ["check", "--answer", str(tmp_path / "a"), "--evidence", str(tmp_path / "a")]
    argv = ["--debug", *argv] if where == "before" else [*argv, "--debug"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CliError, match="not UTF-8") as info:
        main(argv)
    assert isinstance(info.value.__cause__, UnicodeDecodeError)


# -- 6. several store wrappers over one store ------------------------------------------------


def test_store_wrappers_share_locks_keyed_by_the_wrapped_store() -> None:
    base, other = InMemoryStore(), InMemoryStore()
    a = QualityFilteredStore(base, embedder=HashingEmbedder())
    b = QualityFilteredStore(base, embedder=HashingEmbedder())
    c = QualityFilteredStore(other, embedder=HashingEmbedder())
    assert a._shared is b._shared is store_locks(base)
    assert c._shared is not a._shared
    assert a._shared.namespace(("u", "episodes")) is b._shared.namespace(("u", "episodes"))


def test_store_wrappers_from_threads_keep_exact_turn_counts() -> None:
    base = InMemoryStore()
    embedder = HashingEmbedder()
    wrappers = [QualityFilteredStore(base, embedder=embedder) for _ in range(8)]
    per_thread = 25
    errors: list[BaseException] = []
    outcomes: list[Any] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        store = wrappers[i]
        try:
            for t in range(per_thread):
                value = {
                    "session_id": "s1",
                    "user": f"question {t} from writer {i} about order {i * 1000 + t}",
                    "assistant": f"order {i * 1000 + t} ships on day {t}",
                }
                got = store.put_with_outcome(("u1", "episodes"), f"w{i}-{t}", value)
                # A second namespace per thread, also read by the others' scans.
                store.put(("u2", f"t{i}", "episodes"), f"k{t}", {"user": "hi", "session_id": "x"})
                with lock:
                    outcomes.append(got)
        except BaseException as exc:  # collected: the assertion below names it
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(wrappers))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    meta = wrappers[3].session_metadata(("u1", "episodes"), "s1")
    assert meta is not None
    assert meta.turn_count == len(wrappers) * per_thread
    stored = {o.key for o in outcomes if o.action == "stored"}
    kept = {item.key for item in base.search(("u1", "episodes"), limit=1_000)}
    assert kept == stored  # every stored episode is there: nothing destroyed
    assert len(outcomes) == len(wrappers) * per_thread


def test_store_soft_delete_and_restore_through_another_wrapper() -> None:
    base = InMemoryStore()
    writer = QualityFilteredStore(base, embedder=HashingEmbedder())
    reader = QualityFilteredStore(base, embedder=HashingEmbedder())
    ns = ("u1", "episodes")
    writer.put(ns, "e1", {"session_id": "s1", "user": "hi", "assistant": "hello"})
    assert reader.end_session(ns, "s1") == ["e1"]
    assert [i.key for i in writer.list_inactive(ns)] == ["e1"]
    assert writer.restore(ns, "e1")
    assert base.get(ns, "e1").value["active"] is True


# -- 7. escalation without a checkpointer ----------------------------------------------------


def test_escalation_without_checkpointer_fails_at_the_first_escalation(monitor) -> None:
    mw = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(max_retries=0))
    agent = create_agent(scripted_model(["Nordlicht had 9 staff."]), [SEARCH_TOOL], middleware=[mw])
    with pytest.raises(CheckpointerRequiredError, match=r"checkpointer=InMemorySaver\(\)") as info:
        agent.invoke({"messages": [("user", QUESTION)]})
    assert isinstance(info.value, QGateError)
    assert not isinstance(info.value, ValueError)  # not bad input: a wiring problem


def test_escalation_without_checkpointer_fails_in_the_graph_node(monitor) -> None:
    graph = build_rag_graph(
        scripted_model(["Nordlicht had 9 staff."]),
        monitor=monitor,
        policy=GatePolicy(max_retries=0),
    )
    with pytest.raises(CheckpointerRequiredError, match="no checkpointer"):
        graph.invoke({"messages": [("user", QUESTION)]})


def test_escalation_without_checkpointer_other_policies_still_run(monitor) -> None:
    mw = QualityGateMiddleware(
        monitor=monitor, policy=GatePolicy(max_retries=0, on_exhausted="pass_with_warning")
    )
    agent = create_agent(scripted_model(["Nordlicht had 9 staff."]), [SEARCH_TOOL], middleware=[mw])
    result = agent.invoke({"messages": [("user", QUESTION)]})
    assert "qgate_warning" in result["messages"][-1].response_metadata
