"""Structured evidence: JSON, records and tables linearised into fields, matched by type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain.agents import create_agent
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime

from langchain_qgate import cli
from langchain_qgate.gate import GatePolicy
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.evidence.structured import recognise
from langchain_qgate.integrations._harvest import tool_output_evidence
from langchain_qgate.integrations.graph import make_quality_gate_node
from langchain_qgate.integrations.middleware import QualityGateMiddleware
from langchain_qgate.integrations.runnable import with_quality_gate
from langchain_qgate.schemas import Grade
from langchain_qgate.testing import ScriptedChatModel
from tests.unit_tests._qgate_fakes import make_monitor

LISTING = {
    "name": "Harbor Noodle House",
    "address": "112 Pier St",
    "city": "Santa Barbara",
    "state": "CA",
    "categories": "Noodles, Ramen",
    "hours": {"Tuesday": "11:00-21:00", "Wednesday": "11:00-22:00"},
    "attributes": {"WiFi": "free", "OutdoorSeating": False},
    "stars": 4.5,
    "review_count": 245,
}
FAITHFUL = (
    "Harbor Noodle House is a ramen restaurant at 112 Pier St, Santa Barbara, CA. "
    "They are open on Tuesdays from 11 am to 9 pm."
)
ORDERS = [
    {"order_id": 1043, "status": "shipped", "total": 42.5, "currency": "EUR", "items": 3},
    {"order_id": 2210, "status": "delivered", "total": 18.0, "currency": "EUR", "items": 1},
]


@pytest.fixture(scope="module")
def monitor():
    return make_monitor()


def _verdicts(monitor, answer, evidence):
    return monitor.verify_grounding(answer, evidence).verdicts


# -- recognising and linearising ---------------------------------------------------------------


def test_a_named_record_becomes_one_statement_per_field_with_its_path(hashing_embedder) -> None:
    index = EvidenceIndex(Document(json.dumps(LISTING), id="listing"), embedder=hashing_embedder)
    texts = {c.id: c.text for c in index.chunks}
    assert texts["listing.hours.Tuesday"] == "listing.hours.Tuesday: 11:00-21:00"
    assert texts["listing.attributes.OutdoorSeating"] == (
        "listing.attributes.OutdoorSeating: false"
    )
    assert index.chunks[0].metadata["field"]["record"] == "listing"


def test_a_list_of_records_keeps_each_records_index(hashing_embedder) -> None:
    index = EvidenceIndex({"orders": ORDERS}, embedder=hashing_embedder)
    assert "orders[1].total: 18.0" in [c.text for c in index.chunks]
    assert index.chunks[-1].metadata["field"]["record"] == "orders[1]"


def test_markdown_and_csv_tables_are_read_by_row_label(hashing_embedder) -> None:
    md = "| city | population |\n|---|---|\n| Berlin | 3.6 million |\n| Madrid | 3.3 million |"
    csv_text = "city,population\nBerlin,3.6 million\nMadrid,3.3 million"
    for text in (md, csv_text):
        index = EvidenceIndex(text, embedder=hashing_embedder)
        assert "table.row(Berlin).population: 3.6 million" in [c.text for c in index.chunks]


def test_key_value_lines_are_a_record_but_prose_is_not() -> None:
    src = recognise("Name: Harbor Noodle House\nCity: Santa Barbara\nStars: 4.5")
    assert src is not None
    assert [f.path for f in src.fields] == ["Name", "City", "Stars"]
    assert recognise("Note: the company was founded in 2019.\nIt has 500 staff.") is None
    assert recognise("Acme was founded in 2020. It has 500 employees.") is None
    assert recognise({"page_content": "a document", "metadata": {}}) is None


def test_long_text_values_stay_prose_with_the_field_in_the_id(hashing_embedder) -> None:
    review = "The broth was rich and the noodles were fresh. Service was slow on a Friday."
    index = EvidenceIndex({"review": {"stars": 4, "text": review}}, embedder=hashing_embedder)
    assert [c.id for c in index.chunks] == ["review.stars", "review.text#0", "review.text#1"]
    assert index.chunks[1].text == "The broth was rich and the noodles were fresh."


def test_tool_message_with_a_dict_artifact_or_json_content_is_structured(hashing_embedder) -> None:
    by_artifact = ToolMessage(
        content="1 listing found", artifact=LISTING, tool_call_id="c1", name="get_listing"
    )
    by_content = ToolMessage(content=json.dumps(LISTING), tool_call_id="c2", name="get_listing")
    index = EvidenceIndex([by_artifact, by_content], embedder=hashing_embedder)
    ids = [c.id for c in index.chunks]
    assert "get_listing.city" in ids
    assert "get_listing~2.city" in ids


# -- verdicts --------------------------------------------------------------------------------------


def test_faithful_restatement_is_grounded_with_field_links(monitor) -> None:
    first, second = _verdicts(monitor, FAITHFUL, {"listing": LISTING})
    assert first.grade is Grade.GROUNDED
    assert first.evidence[0].evidence_id == "listing.address"
    assert all(e.evidence_id.startswith("listing.") for e in first.evidence)
    assert second.grade is Grade.GROUNDED
    assert second.evidence[0].evidence_id == "listing.hours.Tuesday"
    assert second.contradiction is None


def test_wrong_closing_time_is_a_contradiction_naming_the_field(monitor) -> None:
    answer = "Harbor Noodle House is open on Tuesdays from 11 am to 10 pm."
    (v,) = _verdicts(monitor, answer, {"listing": LISTING})
    assert v.grade is Grade.FABRICATED
    assert v.contradiction is not None
    assert v.contradiction.field == "listing.hours.Tuesday"
    assert v.reason == "contradicted: `listing.hours.Tuesday` says 11:00-21:00, not 10 pm"


def test_another_days_hours_is_a_swapped_value(monitor) -> None:
    answer = "Harbor Noodle House is open on Wednesdays from 11 am to 9 pm."
    (v,) = _verdicts(monitor, answer, {"listing": LISTING})
    assert v.contradiction is not None
    assert v.contradiction.field == "listing.hours.Wednesday"


def test_booleans_and_list_items_by_meaning(monitor) -> None:
    answer = "Harbor Noodle House offers free Wi-Fi. It has no outdoor seating."
    assert [v.grade for v in _verdicts(monitor, answer, {"listing": LISTING})] == [
        Grade.GROUNDED,
        Grade.GROUNDED,
    ]
    (v,) = _verdicts(monitor, "Harbor Noodle House has outdoor seating.", {"listing": LISTING})
    assert v.contradiction is not None
    assert v.contradiction.field == "listing.attributes.OutdoorSeating"


def test_a_field_the_record_lacks_is_unsupported_not_contradicted(monitor) -> None:
    answer = "Harbor Noodle House offers home delivery."
    (v,) = _verdicts(monitor, answer, {"listing": LISTING})
    assert v.grade is not Grade.GROUNDED
    assert v.contradiction is None


def test_wrong_figure_and_wrong_currency_are_contradicted(monitor) -> None:
    wrong = "Order 1043 totals €45.20."
    (v,) = _verdicts(monitor, wrong, {"orders": ORDERS})
    assert v.contradiction is not None
    assert (v.contradiction.field, v.contradiction.evidence_value) == ("orders[0].total", "42.5")
    (v,) = _verdicts(monitor, "Order 1043 totals $42.50.", {"orders": ORDERS})
    assert v.contradiction is not None
    assert v.contradiction.evidence_value == "42.5 EUR"
    (v,) = _verdicts(monitor, "Order 1043 totals €42.50.", {"orders": ORDERS})
    assert v.grade is Grade.GROUNDED


def test_a_sibling_records_value_is_a_contradiction(monitor) -> None:
    (v,) = _verdicts(monitor, "Order 1043 has been delivered.", {"orders": ORDERS})
    assert v.contradiction is not None
    assert v.contradiction.field == "orders[0].status"


def test_no_record_named_no_contradiction(monitor) -> None:
    # Two orders, none named: a total that neither has is unsupported, never contradicted.
    (v,) = _verdicts(monitor, "The order totals €99.00.", {"orders": ORDERS})
    assert v.contradiction is None


def test_prose_evidence_is_untouched(monitor) -> None:
    (v,) = _verdicts(monitor, "Acme was founded in 2019.", ["Acme was founded in 2020 in Berlin."])
    assert v.contradiction is not None
    assert v.contradiction.field is None
    assert v.reason == "contradicted: the evidence says 2020, not 2019"


# -- surfaces ----------------------------------------------------------------------------------


def test_harvest_turns_a_dict_artifact_into_structured_evidence(hashing_embedder) -> None:
    msg = ToolMessage(content="found it", artifact=LISTING, tool_call_id="c1", name="get_listing")
    (doc,) = tool_output_evidence(msg)
    assert json.loads(doc.page_content) == LISTING
    index = EvidenceIndex(doc, embedder=hashing_embedder)
    assert "get_listing.hours.Tuesday" in [c.id for c in index.chunks]


def _listing_agent(monitor, answers):
    @tool
    def get_listing(name: str) -> dict:
        """Look up a business listing."""
        return LISTING

    replies = iter(answers)

    def respond(messages):
        if not any(m.type == "tool" for m in messages):
            call = {"name": "get_listing", "args": {"name": "Harbor"}, "id": "c1"}
            return AIMessage("", tool_calls=[call])
        return AIMessage(next(replies))

    mw = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(max_retries=2))
    model = ScriptedChatModel(respond=respond)
    agent = create_agent(model, tools=[get_listing], middleware=[mw], checkpointer=InMemorySaver())
    return agent, model


def test_agent_with_a_json_tool_rejects_a_wrong_field_then_passes(monitor) -> None:
    wrong = "Harbor Noodle House is open on Tuesdays from 11 am to 10 pm."
    right = "Harbor Noodle House is open on Tuesdays from 11 am to 9 pm."
    agent, model = _listing_agent(monitor, [wrong, right])
    out = agent.invoke(
        {"messages": [HumanMessage("When is Harbor Noodle House open on Tuesday?")]},
        {"configurable": {"thread_id": "s1"}},
    )
    final = out["messages"][-1]
    assert final.content == right
    meta = final.response_metadata["qgate"]
    assert meta["decision"] == "pass"
    assert meta["sources"][0]["evidence_id"] == "get_listing.hours.Tuesday"
    guidance = [m.content for m in model.calls[-1] if m.type == "human"][-1]
    assert "`get_listing.hours.Tuesday` says 11:00-21:00, not 10 pm" in guidance


async def test_middleware_async_hook_reads_json_tool_content(monitor) -> None:
    call = AIMessage("", tool_calls=[{"name": "get_listing", "args": {}, "id": "c1"}])
    state = {
        "messages": [
            HumanMessage("When?"),
            call,
            ToolMessage(content=json.dumps(LISTING), tool_call_id="c1", name="get_listing"),
            AIMessage("Harbor Noodle House is open on Tuesdays from 11 am to 10 pm.", id="a"),
        ]
    }
    mw = QualityGateMiddleware(monitor=monitor, policy=GatePolicy(max_retries=2))
    update = await mw.aafter_model(state, Runtime())
    assert update is not None
    assert update.get("jump_to") == "model"


def test_graph_node_takes_dict_evidence(monitor) -> None:
    node = make_quality_gate_node(monitor=monitor)
    state = {
        "messages": [HumanMessage("When?", id="q"), AIMessage(FAITHFUL, id="a")],
        "evidence": [{"listing": LISTING}],
    }
    update = node.invoke(state)
    assert update["qgate_route"] == "pass"
    ids = [s["evidence_id"] for s in update["qgate_metadata"]["sources"]]
    assert "listing.hours.Tuesday" in ids


def test_lcel_wrapper_takes_dict_evidence(monitor) -> None:
    answers = iter(["Order 1043 totals €45.20.", "Order 1043 totals €42.50."])
    gated = with_quality_gate(
        RunnableLambda(lambda _: AIMessage(next(answers))),
        monitor=monitor,
        evidence={"orders": ORDERS},
        policy=GatePolicy(max_retries=2),
    )
    answer = gated.invoke("What did order 1043 cost?")
    assert answer.content == "Order 1043 totals €42.50."
    assert answer.response_metadata["qgate"]["sources"][0]["evidence_id"] == "orders[0].total"


def test_cli_reads_json_evidence_files(tmp_path: Path, capsys, monkeypatch) -> None:
    import langchain_qgate.grounding.monitor as monitor_module

    monkeypatch.setattr(monitor_module, "HallucinationMonitor", lambda **_: make_monitor())
    evidence = tmp_path / "listing.json"
    evidence.write_text(json.dumps(LISTING), encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text("Harbor Noodle House is open on Tuesdays from 11 am to 10 pm.")
    code = cli.main(["check", "--evidence", str(evidence), "--answer", str(answer)])
    out = capsys.readouterr().out
    assert code == cli.EXIT_REJECTED
    assert "`listing.hours.Tuesday` says 11:00-21:00, not 10 pm" in out
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert cli.main(["check", "--evidence", str(broken), "--answer", str(answer)]) == 2
    assert f"qgate check: error: {broken}: not valid JSON" in capsys.readouterr().err
