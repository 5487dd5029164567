"""The word lists are data (``langchain_qgate/data/lexicon.json``), read by one owner module."""

from __future__ import annotations

import ast
import json
from importlib.resources import files
from pathlib import Path

import pytest

from langchain_qgate.grounding.checks import _lexicon
from langchain_qgate.grounding.checks.checks import NUMBER_WORDS, extract_quantities
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.monitor import HallucinationMonitor

GROUNDING = Path(_lexicon.__file__).parent.parent
"""``langchain_qgate/grounding/``: its modules sit in one folder per stage."""


def _data() -> dict[str, object]:
    text = (files("langchain_qgate") / "data" / "lexicon.json").read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def test_every_list_of_the_file_is_read_by_the_module_its_key_names() -> None:
    listed = _data()["words"]
    assert isinstance(listed, dict)
    by_name: dict[str, list[Path]] = {}
    for p in GROUNDING.rglob("*.py"):
        by_name.setdefault(p.stem.lstrip("_"), []).append(p)
    for key in listed:
        module, _, _name = key.partition(".")
        (path,) = by_name[module]  # a key names a module by its name alone: one module has it
        assert f'words("{key}")' in path.read_text(encoding="utf-8"), key


def test_only_the_owner_opens_the_file() -> None:
    readers = [
        p.name for p in GROUNDING.rglob("*.py") if '"lexicon.json"' in p.read_text(encoding="utf-8")
    ]
    assert readers == ["_lexicon.py"]


def test_no_word_list_is_left_in_the_code() -> None:
    """A ``word_set("...")`` of a literal is a list that belongs in the file."""
    for path in GROUNDING.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "word_set":
                assert not any(isinstance(a, ast.Constant) for a in node.args), (
                    path.name,
                    node.lineno,
                )


def test_an_unknown_key_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        _lexicon.words("claims.no_such_list")


def test_the_tables_read_as_the_code_used_them() -> None:
    assert _lexicon.UNITS["kilo"] == "kg"
    assert _lexicon.MEASURES["kg"] == ("weight",)
    assert _lexicon.UNIT_SCALES["km"] == ("length", 1000.0)
    assert NUMBER_WORDS["dozen"] == 12
    assert _lexicon.IRREGULAR_FORMS["began"] == "begin"
    assert "dozen" in _lexicon.table("number_words")


def test_a_unit_added_to_the_units_table_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one place to add a unit is the "units" table (patched here in memory): a record's
    weight in stone then meets a claim's weight in kilograms as another unit."""
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    record = '{"item": "rucksack", "weight": "3 stone"}'
    claim = "The rucksack weighs 3 kg."
    assert not monitor.verify_grounding(claim, [record]).contradictions
    monkeypatch.setitem(_lexicon.UNITS, "stone", "st")
    report = HallucinationMonitor(embedder=HashingEmbedder()).verify_grounding(
        "The rucksack weighs 3 kg.", ['{"item": "rucksack", "weight": "3 stone"}']
    )
    (found,) = report.contradictions
    assert (found.contradiction.field, found.contradiction.claim_value) == (
        "record.weight",
        "3 kg",
    )


def test_a_unit_added_with_its_scale_converts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With its measure and size in "unit_scales" too, a figure in the new unit is read in
    another unit of its measure: 3 stone is 19.05 kg."""
    monkeypatch.setitem(_lexicon.UNITS, "stone", "st")
    monkeypatch.setitem(_lexicon.UNIT_SCALES, "st", ("mass", 6.35029318))
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    record = ['{"item": "rucksack", "weight": "3 stone"}']
    assert not monitor.verify_grounding("The rucksack weighs about 19 kg.", record).contradictions
    (found,) = monitor.verify_grounding("The rucksack weighs 25 kg.", record).contradictions
    assert found.contradiction.field == "record.weight"


def test_number_words_and_scales_from_the_file_read_figures() -> None:
    values = sorted(q.value for q in extract_quantities("three million people and a dozen eggs"))
    assert values == [12.0, 3_000_000.0]
