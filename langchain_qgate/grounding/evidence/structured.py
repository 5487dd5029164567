"""Structured evidence: recognise JSON, records and tables, and linearise them into fields.

Agents answer from tool outputs: a search API's JSON, a database row, a list of records, a
markdown or CSV table, "key: value" lines. Embedded as prose, ``{"hours": {"Tuesday":
"11:00-21:00"}}`` is a bag of tokens; linearised, it is one short statement per field with a
readable id that keeps the path, so a citation points at the field::

    listing.hours.Tuesday: 11:00-21:00
    orders[3].total: 42.50
    table.row(Berlin).population: 3.6 million

Each statement is an ``EvidenceChunk`` whose ``metadata["field"]`` holds the path, the record
it belongs to and the value as written; ``fields`` compares claims with these values by type.
Long text values (a review, a description) stay prose: they are split into sentences with ids
``<field id>#<n>`` and matched like any other passage.

Example:
    >>> src = recognise({"listing": {"name": "Harbor Noodle House", "city": "Santa Barbara"}})
    >>> [c.text for c in src.chunks("record")]
    ['listing.name: Harbor Noodle House', 'listing.city: Santa Barbara']
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_qgate._text import repair_text, strip_format
from langchain_qgate.errors import InvalidInputError
from langchain_qgate.grounding.claims.segment import split_sentences
from langchain_qgate.grounding.evidence._flatten import MAX_FIELDS, flatten, json_safe, key_text
from langchain_qgate.schemas import EvidenceChunk

__all__ = [
    "CUT_KEY",
    "FIELD_KEY",
    "MAX_JSON_DEPTH",
    "FieldStatement",
    "StructuredSource",
    "field_info",
    "field_view",
    "field_words",
    "json_depth",
    "recognise",
    "structured_text",
]

FIELD_KEY = "field"
"""Key of a field chunk's ``metadata`` holding ``{"path", "record", "value", "kind"}``."""
CUT_KEY = "qgate_cut"
"""Key of a ``Document``'s ``metadata`` saying what ``structured_text`` left unread."""

_MAX_FIELDS = MAX_FIELDS  # statements per source; past this the rest is cut (and noted)
_DOCUMENT_KEYS = frozenset({"id", "metadata", "type"})
_KV_LINE = re.compile(r"^\s*(?:[-*]\s+)?([A-Za-z][\w .()/#-]{0,38}?)\s*:\s+(\S.{0,200})$")
_MD_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_ID_SAFE = re.compile(r"[^\w .()/@&+-]")


@dataclass(frozen=True)
class FieldStatement:
    """One linearised field.

    Attributes:
        path: Path inside the source (``hours.Tuesday``, ``[3].total``, ``row(Berlin).pop``).
        record: Path of the record the field belongs to (``""`` for the top level,
            ``[3]``, ``row(Berlin)``, ``reviews[0]``).
        value: The value as text (``"11:00-21:00"``, ``"true"``, ``"Noodles, Ramen"``).
        kind: ``"value"`` for a scalar or a list of scalars, ``"text"`` for long prose.
    """

    path: str
    record: str
    value: str
    kind: str = "value"


@dataclass(frozen=True)
class StructuredSource:
    """Structured evidence recognised in one input, ready to become chunks.

    Attributes:
        root: The readable name the ids start with (``listing``, ``orders``, ``table``).
        fields: The linearised fields, in document order.
        metadata: Metadata of the source (tool name, file name...).
        named: Whether ``root`` was given (a document id, a tool or file name) rather than
            chosen from the shape (``record``, ``records``, ``table``).
        cut: What was left unread (nesting, size caps, cycles), or ``""`` when nothing
            was; the evidence index reports it (``GroundingReport.notes``).
    """

    root: str
    fields: list[FieldStatement]
    metadata: dict[str, Any] = field(default_factory=dict)
    named: bool = False
    cut: str = ""

    def chunks(self, root: str | None = None) -> list[EvidenceChunk]:
        """One chunk per field (long text: one per sentence), ids starting with ``root``."""
        base = root or self.root
        out: list[EvidenceChunk] = []
        for f in self.fields:
            fid = _join(base, f.path)
            info = {"path": fid, "record": _join(base, f.record), "value": f.value}
            if f.kind == "text":
                for k, (s, e) in enumerate(split_sentences(f.value)):
                    text = f.value[s:e]
                    if any(ch.isalnum() for ch in text):
                        meta = {**self.metadata, FIELD_KEY: {**info, "kind": "text"}}
                        out.append(
                            EvidenceChunk(id=f"{fid}#{k}", text=text, source_id=base, metadata=meta)
                        )
                continue
            meta = {**self.metadata, FIELD_KEY: {**info, "kind": "value"}}
            out.append(
                EvidenceChunk(id=fid, text=f"{fid}: {f.value}", source_id=base, metadata=meta)
            )
        return out


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def field_words(path: str) -> str:
    """``record.attributes.OutdoorSeating`` -> ``attributes outdoor seating`` (the last two
    keys, camel case split, list indices dropped)."""
    keys = [k for k in path.split(".")[1:] if k and not k.isdigit() and not k.startswith("[")]
    keys = keys[-2:] if keys else path.split(".")[-1:]
    words = " ".join(_CAMEL.sub(" ", k).replace("_", " ") for k in keys)
    return words.lower()


def field_view(chunk: EvidenceChunk) -> str | None:
    """What a field chunk says, as matched: its key in words and its value
    (``customer rating: high`` for ``record.customerRating: high``, so that a description's
    "customer rating" finds the field's words); None for other chunks and for long text."""
    info = field_info(chunk)
    if info is None or info.get("kind") != "value":
        return None
    return f"{field_words(info['path'])}: {info['value']}"


def field_info(chunk: EvidenceChunk) -> dict[str, str] | None:
    """The field a chunk states (``path``, ``record``, ``value``, ``kind``), or None."""
    info = chunk.metadata.get(FIELD_KEY) if chunk.metadata else None
    if isinstance(info, Mapping) and isinstance(info.get("path"), str):
        return {str(k): str(v) for k, v in info.items()}
    return None


def _join(root: str, path: str) -> str:
    if not path:
        return root
    return f"{root}{path}" if path.startswith("[") else f"{root}.{path}"


def _key(key: Any) -> str:
    return key_text(key, safe=_ID_SAFE)


def _linearise(data: Any) -> tuple[list[FieldStatement], str, bool]:
    """The fields of ``data``, what was cut, and whether any field holds a value (not only
    nulls and empty values) (bounded walk: grounding/evidence/_flatten.py)."""
    flat = flatten(data, safe=_ID_SAFE)
    fields = [FieldStatement(*f) for f in flat.fields]
    return fields, "; ".join(flat.cut), len(fields) > flat.empties


def _document_like(item: Mapping[str, Any]) -> bool:
    """A mapping the evidence index reads as a document (``page_content``/``content``/``text``
    with nothing else but ``id``, ``metadata`` and ``type``)."""
    if "page_content" in item:
        return True
    for key in ("content", "text"):
        if isinstance(item.get(key), str):
            return set(item) - {key} <= _DOCUMENT_KEYS
    return False


def _from_data(data: Any, name: str | None, metadata: dict[str, Any]) -> StructuredSource | None:
    root = name
    if root is None and isinstance(data, Mapping) and len(data) == 1:
        (only,) = data
        if isinstance(data[only], Mapping | list):
            root, data = _key(only), data[only]  # {"listing": {...}} reads listing.<field>
    default = "records" if isinstance(data, list | tuple) else "record"
    fields, cut, valued = _linearise(data)
    if not valued and not cut:
        return None  # nothing read (nulls alone) and nothing cut: not structured evidence
    return StructuredSource(root or default, fields, metadata, named=root is not None, cut=cut)


MAX_JSON_DEPTH = 500
"""JSON text nested deeper is refused (``InvalidInputError``) whatever the process's recursion
limit, so the same text always gets the same answer; deeper Python objects are read to
:data:`~langchain_qgate.grounding.evidence._flatten.MAX_DEPTH` levels with a note."""
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_depth(text: str) -> int:
    """The deepest bracket nesting of JSON ``text`` (brackets inside strings not counted).

    Linear; the per-token scan runs only when the text has enough brackets to be deep.
    """
    if text.count("{") + text.count("[") <= MAX_JSON_DEPTH:
        return 0  # cannot be deeper than the limit
    depth = deepest = 0
    for m in _JSON_TOKEN.finditer(text):
        token = m[0]
        if token in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "}]":
            depth -= 1
    return deepest


def _parse_json(text: str) -> Any:
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = re.sub(r"^```[\w-]*\s*|\s*```$", "", stripped)
    if not stripped or stripped[0] not in "{[" or stripped[-1] not in "}]":
        return None
    if json_depth(stripped) > MAX_JSON_DEPTH:
        raise InvalidInputError(
            "evidence",
            f"JSON nested more than {MAX_JSON_DEPTH} levels; flatten it before passing it as "
            "evidence",
        )
    try:
        data = json.loads(stripped)
    except ValueError:  # not JSON, or an integer over Python's digit limit: prose
        return None
    except RecursionError:  # a caller's stack already deep: the same answer, not a crash
        raise InvalidInputError(
            "evidence",
            f"JSON nested more than {MAX_JSON_DEPTH} levels or the caller's stack is too deep; "
            "flatten it before passing it as evidence",
        ) from None
    if isinstance(data, Mapping) and data:
        return data
    if isinstance(data, list) and data and any(isinstance(d, Mapping) for d in data):
        return data
    return None


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


def _table_fields(header: list[str], rows: list[list[str]]) -> list[FieldStatement]:
    if len(header) < 2 or not rows or any(len(r) != len(header) for r in rows):
        return []
    if any(not h or len(h) > 40 for h in header):
        return []
    labels = [r[0] for r in rows]
    unique = len(set(labels)) == len(labels) and all(labels)
    out: list[FieldStatement] = []
    for i, row in enumerate(rows):
        record = f"row({_key(row[0])})" if unique else f"row[{i}]"
        for h, cell in zip(header, row, strict=True):
            value = " ".join(cell.split())
            if value:
                out.append(FieldStatement(f"{record}.{_key(h)}", record, value))
    return out


def _parse_table(text: str) -> list[FieldStatement]:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 3:
        return []
    if all(ln.lstrip().startswith("|") for ln in lines) and _MD_SEPARATOR.match(lines[1]):
        return _table_fields(_cells(lines[0]), [_cells(ln) for ln in lines[2:]])
    if all("," in ln or "\t" in ln for ln in lines):
        dialect = "excel-tab" if all("\t" in ln for ln in lines) else "excel"
        try:
            rows = list(csv.reader(io.StringIO("\n".join(lines)), dialect=dialect))
        except csv.Error:
            return []
        header = [h.strip() for h in rows[0]]
        # A header names columns: short labels, not sentences or figures.
        if any(h.endswith(".") or h.replace(".", "").isdigit() for h in header):
            return []
        return _table_fields(header, [[c.strip() for c in r] for r in rows[1:]])
    return []


def _parse_key_values(text: str) -> dict[str, str] | None:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 2:
        return None
    found: dict[str, str] = {}
    for ln in lines:
        m = _KV_LINE.match(ln)
        if m is None or len(m[1].split()) > 4 or m[2].rstrip().endswith((".", "?", "!")):
            return None  # one line of prose: the text is not a record
        found.setdefault(m[1].strip(), m[2].strip())
    return found if len(found) >= 2 else None


def recognise_text(
    text: str, name: str | None = None, metadata: dict[str, Any] | None = None
) -> StructuredSource | None:
    """Structured evidence in a string (JSON, a markdown/CSV table, "key: value" lines)."""
    meta = dict(metadata or {})
    # Lone surrogates -> U+FFFD and no invisible format characters ("20\u200b19" is 2019) in
    # values, keys and table cells.
    text = strip_format(repair_text(text))
    if "{" in text[:4] or "[" in text[:4] or text.lstrip().startswith("```"):
        data = _parse_json(text)
        if data is not None:
            return _from_data(data, name, meta)
    if "\n" not in text.strip():
        return None
    rows = _parse_table(text)
    if rows:
        cut = f"more than {_MAX_FIELDS:,} cells: the rest was not read"
        return StructuredSource(
            name or "table",
            rows[:_MAX_FIELDS],
            meta,
            named=name is not None,
            cut=cut if len(rows) > _MAX_FIELDS else "",
        )
    pairs = _parse_key_values(text)
    if pairs is not None:
        return _from_data(pairs, name, meta)
    return None


def _name_from(meta: Mapping[str, Any], given: Any) -> str | None:
    """A readable root: a tool's name, a file's stem, or the given id."""
    source = meta.get("source")
    if isinstance(source, str) and source.startswith("tool:"):
        return _key(source[5:]) or None
    if given:
        return _key(given)
    if isinstance(source, str) and source:
        stem = source.rsplit("/", 1)[-1].split(":", 1)[0]
        return _key(stem.rsplit(".", 1)[0] if "." in stem else stem)
    return None


def recognise(item: Any) -> StructuredSource | None:
    """Structured evidence in one evidence item, or None when it is prose.

    Recognised: a mapping that is not document-shaped, a ``Document`` or string holding JSON,
    a markdown/CSV table or "key: value" lines, and a ``ToolMessage`` whose artifact is a dict
    or list of records, or whose content is such a string.
    """
    from langchain_core.documents import Document
    from langchain_core.messages import ToolMessage

    if isinstance(item, str):
        return recognise_text(item)
    if isinstance(item, Document):
        meta = dict(item.metadata or {})
        cut = meta.pop(CUT_KEY, None)
        src = recognise_text(item.page_content, _name_from(meta, item.id), meta)
        if src is not None and isinstance(cut, str) and cut:
            parts = [*cut.split("; "), *(src.cut.split("; ") if src.cut else [])]
            return replace(src, cut="; ".join(dict.fromkeys(parts)))  # each reason once
        return src
    if isinstance(item, ToolMessage):
        meta = {"tool": item.name} if item.name else {}
        name = _key(item.name) if item.name else "tool"
        artifact = item.artifact
        if isinstance(artifact, Mapping) and not _document_like(artifact):
            return _from_data(artifact, name, meta)
        if (
            isinstance(artifact, list)
            and artifact
            and all(isinstance(a, Mapping) and not _document_like(a) for a in artifact)
        ):
            return _from_data(artifact, name, meta)
        content = item.content
        if isinstance(content, str):
            return recognise_text(content, name, meta)
        return None
    if isinstance(item, Mapping) and not _document_like(item):
        return _from_data(item, None, {})
    return None


def structured_text(data: Any) -> tuple[str, str]:
    """JSON text of a tool's structured output, whatever its shape, and what was left out.

    ``json.dumps`` alone fails on cycles, odd keys, huge integers and deep nesting and
    writes a shared structure once per path; the text holds what ``recognise`` would read
    (grounding/evidence/_flatten.py). Put the second value under ``CUT_KEY`` in the metadata.
    """
    safe, cut = json_safe(data, safe=_ID_SAFE)
    return json.dumps(safe, ensure_ascii=False), "; ".join(cut)


def is_records(value: Any) -> bool:
    """Whether ``value`` is a list of records (dicts that are not document-shaped)."""
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str | bytes)
        and bool(value)
        and all(isinstance(v, Mapping) and not _document_like(v) for v in value)
    )
