"""Generic citation judge: check the citation fields of any pydantic model or mapping.

Private module; the public names are re-exported by :mod:`langchain_qgate.judge`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate.errors import InvalidInputError
from langchain_qgate.judge.signals import (
    DEFAULT_MAX_LISTED_IDS,
    MISSING,
    IdSource,
    format_valid_ids,
    get_field,
    id_list,
    resolve_ids,
)

__all__ = ["CitationCheck", "CitationIssue", "CitationIssueKind", "CitationJudge"]

# --------------------------------------------------------------------------- citation judge

CitationIssueKind = Literal["unknown_id", "missing_citation", "malformed"]
"""What is wrong with a citation: it names an id that is not valid; an item that must cite
something cites nothing; or the citation field is not an id or a list of ids."""


class CitationIssue(BaseModel):
    """One problem found by :class:`CitationJudge`.

    Attributes:
        kind: Unknown id, missing citation or malformed field.
        location: Where, in path form with indexes (``"hypotheses[2].supporting_signals"``).
        cited_id: The offending id, for ``unknown_id``.
        message: A sentence naming the location, the id and (for unknown ids) the valid ids.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: CitationIssueKind
    location: str
    cited_id: str | None = None
    message: str


class CitationCheck(BaseModel):
    """The outcome of :meth:`CitationJudge.check`.

    Attributes:
        valid: Whether no issue was found.
        cited_ids: Every id cited, unique, in first-seen order.
        unknown_ids: Cited ids that are not valid, unique, in first-seen order.
        issues: Every issue found (only the first with ``fail_fast``).
        valid_id_count: How many ids were valid.
        citations: Every citation field reached, by location, with the ids cited there.
        reason: The first issue's message, plus a count of the others ("" when valid).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    valid: bool
    cited_ids: list[str] = Field(default_factory=list)
    unknown_ids: list[str] = Field(default_factory=list)
    issues: list[CitationIssue] = Field(default_factory=list)
    valid_id_count: int = Field(default=0, ge=0)
    citations: dict[str, list[str]] = Field(default_factory=dict)
    reason: str = ""


_SEGMENT = re.compile(r"^(?P<name>[^.\[\]]*)(?P<iters>(?:\[\])*)$")


@dataclass(frozen=True, slots=True)
class _Segment:
    name: str
    iterate: int


def _parse_path(path: str) -> tuple[_Segment, ...]:
    if not isinstance(path, str) or not path.strip():
        raise InvalidInputError(
            "paths", f"a citation path must be a non-empty string, got {path!r}"
        )
    segments: list[_Segment] = []
    for i, part in enumerate(path.strip().split(".")):
        match = _SEGMENT.match(part)
        if match is None or not part or (not match["name"] and i > 0):
            raise InvalidInputError(
                "paths",
                f"bad segment {part!r} in {path!r}; use field names joined by '.', with '[]' "
                "after a list field, e.g. 'hypotheses[].supporting_signals'",
            )
        segments.append(_Segment(match["name"], len(match["iters"]) // 2))
    return tuple(segments)


class CitationJudge:
    """Check the citations of any pydantic model (or mapping) against the valid ids.

    Citation fields are given as paths: field names joined by ``.``, with ``[]`` after a
    field that holds a list to check every element (``"hypotheses[].supporting_signals"``,
    ``"sections[].claims[].evidence_ids"``, ``"sources"``). A path may start with ``[]``
    when the object itself is a list. The field at the end of a path holds one id or a list
    of ids (``None`` counts as no citation).

    Args:
        paths: One path or several.
        valid_ids: Default valid ids (an :data:`IdSource`); can be given per call instead.
        require_citations: Every field reached by a path must cite at least one id.
        fail_fast: Stop at the first issue.
        max_listed_ids: How many valid ids a message lists in full.

    Raises:
        InvalidInputError: On an empty or malformed path.

    Example:
        ```python
        judge = CitationJudge("claims[].evidence_ids", require_citations=True)
        check = judge.check(answer, valid_ids={"doc-1#0", "doc-2#0"})
        if not check.valid:
            print(check.reason)
        ```
    """

    def __init__(
        self,
        paths: str | Sequence[str],
        *,
        valid_ids: IdSource | None = None,
        require_citations: bool = True,
        fail_fast: bool = False,
        max_listed_ids: int = DEFAULT_MAX_LISTED_IDS,
    ) -> None:
        raw = [paths] if isinstance(paths, str) else list(paths)
        if not raw:
            raise InvalidInputError("paths", "give at least one citation path")
        if max_listed_ids < 1:
            raise InvalidInputError("max_listed_ids", f"must be >= 1, got {max_listed_ids}")
        self.paths: tuple[str, ...] = tuple(p.strip() for p in raw)
        self._parsed = tuple(_parse_path(p) for p in raw)
        self.valid_ids = valid_ids
        self.require_citations = require_citations
        self.fail_fast = fail_fast
        self.max_listed_ids = max_listed_ids

    def cited_ids(self, obj: Any) -> list[str]:
        """Every id the object cites, unique, in first-seen order (no validation)."""
        seen: dict[str, None] = {}
        for _, values in self._leaves(obj):
            for v in values or ():
                if isinstance(v, str):
                    seen.setdefault(v, None)
        return list(seen)

    def check(self, obj: Any, valid_ids: IdSource | None = None) -> CitationCheck:
        """Check every citation of ``obj``.

        Args:
            obj: A pydantic model, an object with attributes, or a mapping.
            valid_ids: The ids that may be cited; defaults to the constructor's.

        Raises:
            InvalidInputError: When no valid ids were given, or a path names a field the
                model does not have.
        """
        source = valid_ids if valid_ids is not None else self.valid_ids
        if source is None:
            raise InvalidInputError("valid_ids", "give valid ids here or to the constructor")
        ids = resolve_ids(source)
        issues: list[CitationIssue] = []
        cited: dict[str, None] = {}
        unknown: dict[str, None] = {}
        listing: str | None = None
        by_location: dict[str, list[str]] = {}
        for location, found in self._leaves(obj):
            values = found if found is not None else []
            shown: list[str] = []
            by_location[location] = shown
            if found is None:
                issues.append(
                    CitationIssue(
                        kind="malformed",
                        location=location,
                        message=f"{location} is not an id or a list of ids",
                    )
                )
            elif not values and self.require_citations:
                issues.append(
                    CitationIssue(
                        kind="missing_citation",
                        location=location,
                        message=f"{location} cites nothing; cite at least one evidence id",
                    )
                )
            for v in values:
                if type(v) is str or isinstance(v, str):
                    shown.append(v)
                    cited.setdefault(v, None)
                    if v in ids:
                        continue
                    unknown.setdefault(v, None)
                else:
                    shown.append(repr(v))
                if listing is None:
                    listing = format_valid_ids(ids, limit=self.max_listed_ids)
                issues.append(
                    CitationIssue(
                        kind="unknown_id",
                        location=location,
                        cited_id=v if isinstance(v, str) else repr(v),
                        message=f"{location} cites unknown id {v!r}; valid ids: {listing}",
                    )
                )
            if self.fail_fast and issues:
                break
        reason = ""
        if issues:
            reason = issues[0].message
            if len(issues) > 1:
                reason += f" (and {len(issues) - 1} more issue{'s' if len(issues) > 2 else ''})"
        # Every field is built here from checked values: skip re-validating (100k entries).
        return CitationCheck.model_construct(
            valid=not issues,
            cited_ids=list(cited),
            unknown_ids=list(unknown),
            issues=issues[:1] if self.fail_fast else issues,
            valid_id_count=len(ids),
            citations=by_location,
            reason=reason,
        )

    def _leaves(self, obj: Any) -> list[tuple[str, list[Any] | None]]:
        """Every citation field reached by the paths: ``(location, ids or None)``."""
        out: list[tuple[str, list[Any] | None]] = []
        for path, segments in zip(self.paths, self._parsed, strict=True):
            _collect(obj, path, segments, out)
        return out


def _collect(
    obj: Any, path: str, segments: tuple[_Segment, ...], out: list[tuple[str, list[Any] | None]]
) -> None:
    """Append the citation fields ``path`` reaches in ``obj`` to ``out`` (plain recursion:
    much cheaper than nested generators on 100k-element lists)."""

    def walk(node: Any, k: int, location: str) -> None:
        seg = segments[k]
        value = node
        if seg.name:
            value = get_field(node, seg.name)
            if value is MISSING and isinstance(node, BaseModel):
                raise InvalidInputError(
                    "paths", f"{type(node).__name__} has no field {seg.name!r} (path {path!r})"
                )
            location = f"{location}.{seg.name}" if location else seg.name
        descend(value, seg.iterate, k + 1, location)

    def descend(value: Any, iterate: int, k: int, location: str) -> None:
        if iterate:
            items = id_list(value)
            if items is None or isinstance(value, str):
                out.append((location, None))
                return
            for i, item in enumerate(items):
                descend(item, iterate - 1, k, f"{location}[{i}]")
        elif k < len(segments):
            if value is not None and value is not MISSING:
                walk(value, k, location)
        else:
            out.append((location, id_list(value)))

    walk(obj, 0, "")
