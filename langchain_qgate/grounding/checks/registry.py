"""The checks that read a claim against its evidence: one protocol, the built-in checks by
name, and a user's own.

A check is anything with a ``name`` that maps ``(claim, evidence)`` to findings
(``schemas.Finding``): a contradiction (another value, named), an unsupported claim, or the
evidence that states it. ``evidence`` is the claim's candidate chunks, best first: the chunk
that shares the claim's words, then the most similar ones (``GroundingPolicy.top_k``). A
plain function is a check too; its ``__name__`` is its name.

The built-in checks (``BUILTIN_CHECKS``) are switched off by name with
``GroundingPolicy(disabled_checks=...)``; a user's own are added with
``GroundingPolicy(checks=...)`` and run after them. No check changes another's findings:
they all go to one aggregation step (``grounding/aggregate.py``), which decides the grade,
the contradiction and the reason. ``value_check`` builds the commonest user check from a
pattern (a SKU, an order number, a ticker): a value of that pattern the evidence never
states, where the evidence gives another one, is a contradiction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from langchain_qgate.config import BUILTIN_CHECKS, check_name
from langchain_qgate.errors import QGateError
from langchain_qgate.schemas import Claim, EvidenceChunk, Finding

if TYPE_CHECKING:
    from langchain_qgate.grounding.checks.features import ClaimSignals
    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex

__all__ = [
    "BUILTIN_CHECKS",
    "Check",
    "CheckLike",
    "check_name",
    "claim_findings",
    "protocol_checks",
    "run_checks",
    "value_check",
]


@runtime_checkable
class Check(Protocol):
    """A check of one claim against its evidence (a class with a ``name``; a plain function
    of the same signature is a check too)."""

    @property
    def name(self) -> str:
        """The check's name, carried by its findings."""
        ...

    def __call__(self, claim: str, evidence: Sequence[EvidenceChunk]) -> Iterable[Finding]:
        """The findings about ``claim`` (none when the check has nothing to say)."""
        ...


CheckLike = Check | Callable[[str, Sequence[EvidenceChunk]], Iterable[Finding]]
"""A ``Check`` or a plain function of ``(claim, evidence)``."""


def protocol_checks(off: Collection[str], own: Sequence[CheckLike]) -> list[CheckLike]:
    """The checks that run through this protocol for a policy: the built-in ones not switched
    off (``list_pick``), then the user's own."""
    from langchain_qgate.grounding.records.lists import ListPick

    builtin: list[CheckLike] = [ListPick()]
    return [c for c in builtin if check_name(c) not in off] + list(own)


def claim_findings(  # noqa: PLR0917
    claim: Claim,
    sig: ClaimSignals,
    index: EvidenceIndex,
    question: str | None,
    disabled: Collection[str],
    own: Sequence[CheckLike],
    *,
    records: bool,
) -> list[Finding]:
    """The checks of this protocol on one claim (the built-in ``list_pick``, then the user's
    own, ``GroundingPolicy.checks``): the answer as it states it, and every chunk, its nearest
    first."""
    from langchain_qgate.grounding.aggregate import answer_only, nearest_first

    # lists are records, and a list read in part (a note says what was cut) has no extremes
    whole = records and not index.notes
    off = disabled if whole else BUILTIN_CHECKS
    checks = protocol_checks(off, own)
    if not checks or not len(index):
        return []
    near = [i for i, _ in nearest_first(sig)]
    taken = set(near)
    rest = [i for i in range(len(index)) if i not in taken]
    evidence = [index.chunks[i] for i in near + rest]
    return run_checks(checks, answer_only(claim, question).text, evidence)


def run_checks(
    checks: Sequence[CheckLike], claim: str, evidence: Sequence[EvidenceChunk]
) -> list[Finding]:
    """Every user check's findings about one claim, each named after its check and quoting
    the chunk it names. A check that raises, or returns anything but findings, raises
    ``QGateError`` naming it."""
    quotes = {c.id: c.text for c in evidence}
    out: list[Finding] = []
    for check in checks:
        name = check_name(check)
        try:
            returned = check(claim, evidence)
            found = [returned] if isinstance(returned, Finding) else list(returned or ())
        except QGateError:
            raise
        except Exception as exc:
            raise QGateError(f"check {name!r} failed on a claim: {exc!r}") from exc
        for f in found:
            if not isinstance(f, Finding):
                raise QGateError(
                    f"check {name!r} returned {type(f).__name__}, not a langchain_qgate.Finding"
                )
            update: dict[str, str] = {"check": name}
            if not f.quote and f.evidence_id in quotes:
                update["quote"] = quotes[f.evidence_id]
            out.append(f.model_copy(update=update))
    return out


@lru_cache(maxsize=65_536)
def _values(pattern: re.Pattern[str], text: str) -> tuple[str, ...]:
    """The pattern's matches in ``text`` (cached: the evidence is read once per claim)."""
    return tuple(m.group(0) for m in pattern.finditer(text))


@dataclass(frozen=True)
class _ValueCheck:
    """A value of one pattern, compared as the evidence writes it (see ``value_check``)."""

    name: str
    pattern: re.Pattern[str]
    field: str | None

    def __call__(self, claim: str, evidence: Sequence[EvidenceChunk]) -> list[Finding]:
        said = _values(self.pattern, claim)
        if not said:
            return []
        held = [(c, _values(self.pattern, c.text)) for c in evidence]
        out: list[Finding] = []
        for value in dict.fromkeys(said):
            where = next((c for c, vs in held if value in vs), None)
            if where is not None:
                out.append(
                    Finding(
                        kind="supported",
                        reason=f"{self.name} {value} is stated",
                        claim_value=value,
                        evidence_value=value,
                        evidence_id=where.id,
                        field=self.field,
                    )
                )
                continue
            rival = next(((c, vs) for c, vs in held if vs), None)
            if rival is None:
                out.append(
                    Finding(
                        kind="unsupported",
                        reason=f"no evidence gives any {self.name}; the claim says {value}",
                        claim_value=value,
                    )
                )
                continue
            chunk, values = rival
            out.append(
                Finding(
                    kind="contradiction",  # its values say it all: no reason of its own
                    claim_value=value,
                    evidence_value=values[0],
                    evidence_id=chunk.id,
                    field=self.field,
                )
            )
        return out


def value_check(name: str, pattern: str | re.Pattern[str], *, field: str | None = None) -> Check:
    """A check of the values matching ``pattern`` (a SKU, an order number, a ticker).

    A value the claim writes is ``supported`` where a candidate chunk writes it; where none
    does and one writes another value of the pattern, the claim is contradicted (the
    first such chunk, the claim's nearest first, is quoted); where none writes any, it is
    ``unsupported``.
    Values are compared as written: make the pattern match one spelling. The pattern runs on
    every claim and its candidate chunks, so keep it linear (no nested repetition).

    Args:
        name: The check's name (in findings and contradictions).
        pattern: A regular expression; its whole match is the value.
        field: A structured field to name in a contradiction (``product.sku``), if any.
    """
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern
    if not name or not isinstance(name, str):
        raise ValueError(f"value_check needs a name, got {name!r}")
    return _ValueCheck(name, compiled, field)
