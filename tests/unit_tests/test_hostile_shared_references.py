"""Issue 48 item 9: shared references are read once per object, not once per path.

``l = [None]`` then ``l = [l, l]`` twenty-six times is 27 list objects but 2**26 paths; the
evidence walk used to follow every path (minutes of CPU). Each test counts the reads (never
the time): a walk that followed the paths would count millions.
"""

from __future__ import annotations

from typing import Any

import pytest

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.grounding.evidence import _flatten, evidence
from langchain_qgate.grounding.evidence._flatten import MAX_VALUES, flatten, json_safe
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex, content_to_text, to_sources
from langchain_qgate.grounding.evidence.structured import _ID_SAFE, recognise
from langchain_qgate.schemas import Grade
from tests.unit_tests._qgate_fakes import make_monitor

LEVELS = 26


class _Counted(list[Any]):
    """A list that counts how often it is iterated (the walk reads a list by iterating it)."""

    reads = 0

    def __iter__(self) -> Any:
        _Counted.reads += 1
        return super().__iter__()


def _doubled(leaf: Any, levels: int = LEVELS, kind: type[list[Any]] = list) -> Any:
    shared = kind([leaf])
    for _ in range(levels):
        shared = kind([shared, shared])
    return shared


@pytest.fixture(autouse=True)
def _reset_counts() -> None:
    _Counted.reads = 0


def test_shared_lists_are_walked_once_per_list_not_once_per_path() -> None:
    assert to_sources(_doubled(None, kind=_Counted)) == []
    assert _Counted.reads == LEVELS + 1  # 27 lists, each read once (2**26 paths)


def _texts(sources: list[Any]) -> list[str]:
    return [s.text for s in sources]


def test_shared_list_of_text_gives_its_source_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = recognise

    def counting(item: Any) -> Any:
        calls.append(item)
        return real(item)

    monkeypatch.setattr(evidence, "recognise", counting)
    assert _texts(to_sources(_doubled("Acme was founded in 2017."))) == [
        "Acme was founded in 2017."
    ]
    assert calls == ["Acme was founded in 2017."]
    index = EvidenceIndex(_doubled("Acme was founded in 2017."), embedder=HashingEmbedder())
    assert [c.text for c in index.chunks] == ["Acme was founded in 2017."]


def test_a_repeated_record_is_parsed_once_and_kept_per_occurrence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []
    real = recognise

    def counting(item: Any) -> Any:
        calls.append(item)
        return real(item)

    monkeypatch.setattr(evidence, "recognise", counting)
    record = {"company": "Acme", "founded": 2017}
    sources = to_sources([record] * 1_000)
    assert len(sources) == 1_000  # each occurrence, as before
    assert calls == [record]  # parsed once
    index = EvidenceIndex([record, record], embedder=HashingEmbedder())
    assert index.ids() == [
        "record.company",
        "record.founded",
        "record~2.company",
        "record~2.founded",
    ]


def test_a_shared_list_is_read_where_it_is_first_met() -> None:
    shared = ["B is second."]
    sources = to_sources([["A is first."], shared, ["C is third."], shared])
    assert _texts(sources) == ["A is first.", "B is second.", "C is third."]


def test_trees_keep_every_item_in_order_with_repeated_texts() -> None:
    tree = [["Acme has 5 staff.", "Acme is in Berlin."], ["Acme has 5 staff."], "Acme is red."]
    assert _texts(to_sources(tree)) == [
        "Acme has 5 staff.",
        "Acme is in Berlin.",
        "Acme has 5 staff.",
        "Acme is red.",
    ]
    ids = [c.id for c in EvidenceIndex(tree, embedder=HashingEmbedder()).chunks]
    assert len(ids) == 4
    assert ids[2] == f"{ids[0].split('#')[0]}~2#0"


def test_equal_but_distinct_lists_are_each_read() -> None:
    one, two = ["Acme has 5 staff."], ["Acme has 5 staff."]
    assert len(to_sources([one, two])) == 2


def test_a_list_that_contains_itself_is_still_invalid_input() -> None:
    loop: list[Any] = ["Acme has 5 staff."]
    loop.append([loop])
    with pytest.raises(InvalidInputError, match="contains itself"):
        to_sources(loop)
    a: list[Any] = []
    b = [a, a]
    a.append(b)  # a cycle met through a list read twice
    with pytest.raises(InvalidInputError, match="contains itself"):
        to_sources(b)


def test_nesting_is_counted_in_levels_not_paths() -> None:
    assert to_sources(_doubled("x", levels=30)) != []  # 31 levels: under the limit of 32
    with pytest.raises(InvalidInputError, match="nested more than 32"):
        to_sources(_doubled("x", levels=40))


def test_generated_lists_are_read_though_their_ids_come_back() -> None:
    # Each temporary list dies after its read; a walk keyed on ids alone would skip the
    # next one, which may get the same id.
    sources = to_sources([s] for s in ("A is one.", "B is two.", "C is three."))
    assert _texts(sources) == ["A is one.", "B is two.", "C is three."]


def test_monitor_reads_a_doubled_evidence_list_like_the_flat_one() -> None:
    monitor = make_monitor()
    answer = "Acme was founded in 2019."
    doubled = monitor.verify_grounding(answer, _doubled("Acme was founded in 2017."))
    flat = monitor.verify_grounding(answer, ["Acme was founded in 2017."])
    assert doubled.verdicts[0].grade is flat.verdicts[0].grade is Grade.FABRICATED
    assert doubled.verdicts[0].reason == flat.verdicts[0].reason


def test_message_content_shared_blocks_are_read_once_and_cycles_refused() -> None:
    blocks = _doubled({"type": "text", "text": "Acme has 5 staff."}, kind=_Counted)
    assert content_to_text(blocks) == "Acme has 5 staff."
    assert _Counted.reads == LEVELS + 1
    loop: list[Any] = [{"type": "text", "text": "x"}]
    loop.append(loop)
    with pytest.raises(InvalidInputError, match="contains itself"):
        content_to_text(loop)


# -- structured records: per path by design, bounded by MAX_VALUES -------------------------


def test_flattening_a_doubled_record_list_stops_at_the_value_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks = 0
    real = _flatten._Walk.walk

    def counting(self: Any, *args: Any) -> None:
        nonlocal walks
        walks += 1
        real(self, *args)

    monkeypatch.setattr(_flatten._Walk, "walk", counting)
    flat = flatten({"orders": _doubled({"status": "shipped"})}, safe=_ID_SAFE)
    assert walks <= MAX_VALUES + 2 * (LEVELS + 2)  # the cap plus the early returns per level
    assert any("values: the rest was not read" in c or "fields" in c for c in flat.cut)


def test_json_copy_of_a_doubled_record_list_stops_at_the_value_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = 0
    real = _flatten.scalar_text

    def counting(value: Any) -> str | None:
        nonlocal texts
        texts += 1
        return real(value)

    monkeypatch.setattr(_flatten, "scalar_text", counting)
    _, cut = json_safe({"orders": _doubled({"status": "shipped"})}, safe=_ID_SAFE)
    assert texts <= MAX_VALUES
    assert any("values: the rest was not read" in c for c in cut)


def test_a_record_shared_by_two_keys_is_read_under_both() -> None:
    address = {"city": "Berlin"}
    src = recognise({"billing": address, "shipping": address})
    assert src is not None
    assert [(f.path, f.value) for f in src.fields] == [
        ("billing.city", "Berlin"),
        ("shipping.city", "Berlin"),
    ]
