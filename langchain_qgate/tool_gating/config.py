"""Tool-gating vocabularies and thresholds (re-exported by :mod:`langchain_qgate.tool_gating`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["GatingLevel", "JohariQuadrant", "SuggestedAction", "ToolGatingConfig"]

_RANK = {"none": 0, "caution": 1, "warning": 2, "critical": 3}


class GatingLevel(StrEnum):
    """How uncertain a retrieval is, ordered ``NONE < CAUTION < WARNING < CRITICAL``."""

    NONE = "none"
    CAUTION = "caution"
    WARNING = "warning"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        """0 for ``NONE`` up to 3 for ``CRITICAL``."""
        return _RANK[self.value]

    def __lt__(self, other: object) -> bool:
        if isinstance(other, GatingLevel):
            return self.rank < other.rank
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, GatingLevel):
            return self.rank <= other.rank
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, GatingLevel):
            return self.rank > other.rank
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, GatingLevel):
            return self.rank >= other.rank
        return NotImplemented


class JohariQuadrant(StrEnum):
    """Where a retrieval sits on the entropy x coherence plane.

    ``OPEN``: low entropy, high coherence (a good, consistent match). ``BLIND``: high entropy,
    low coherence (nothing matches and the items disagree). ``HIDDEN``: low entropy, low
    coherence (one good match among unrelated items). ``UNKNOWN``: high entropy, high
    coherence (the items agree with each other but not with the query).
    """

    OPEN = "open"
    BLIND = "blind"
    HIDDEN = "hidden"
    UNKNOWN = "unknown"


_ACTION_TEXT = {
    "refine_query": "rephrase the query with the specific names, terms or numbers you need",
    "add_context": "add context from the conversation (entities, dates, constraints) to the query",
    "ask_for_clarification": "ask the user what exactly they need before searching again",
    "narrow_scope": "narrow the query to a single topic or source",
    "get_neighborhood": "fetch the passages around the best match to see its context",
    "consolidate_memory": (
        "the store holds a consistent cluster that does not cover this query; "
        "update or consolidate the knowledge base"
    ),
}


class SuggestedAction(StrEnum):
    """What to do about an uncertain retrieval, in priority order (first = most urgent).

    Rules (``c`` = the config, ``q`` = the quadrant):

    - ``REFINE_QUERY``: entropy ``>= c.warning_entropy`` (the query matches nothing well).
    - ``ADD_CONTEXT``: entropy ``> c.caution_entropy`` (a mediocre match; a fuller query helps).
    - ``ASK_FOR_CLARIFICATION``: level ``CRITICAL`` and ``q`` is ``BLIND``, or no items at all.
    - ``NARROW_SCOPE``: coherence ``< c.caution_coherence`` (items spread over several topics).
    - ``GET_NEIGHBORHOOD``: ``q`` is ``HIDDEN`` (one good match among unrelated items).
    - ``CONSOLIDATE_MEMORY``: ``q`` is ``UNKNOWN`` (items agree with each other, not the query).
    """

    REFINE_QUERY = "refine_query"
    ADD_CONTEXT = "add_context"
    ASK_FOR_CLARIFICATION = "ask_for_clarification"
    NARROW_SCOPE = "narrow_scope"
    GET_NEIGHBORHOOD = "get_neighborhood"
    CONSOLIDATE_MEMORY = "consolidate_memory"

    @property
    def priority(self) -> int:
        """0 for the most urgent action."""
        return list(SuggestedAction).index(self)

    def describe(self) -> str:
        """A short imperative for the model or the user."""
        return _ACTION_TEXT[self.value]


def _in_unit(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value}")


@dataclass(frozen=True, kw_only=True)
class ToolGatingConfig:
    """Thresholds and signal shaping for tool gating.

    Levels (first rule that holds wins): ``CRITICAL`` when entropy ``>= critical_entropy`` or
    coherence ``<= critical_coherence``; ``WARNING`` when entropy ``>= warning_entropy`` or
    coherence ``<= warning_coherence``; ``CAUTION`` when entropy ``> caution_entropy`` or
    coherence ``< caution_coherence``; else ``NONE``. Quadrants split at the caution
    thresholds: entropy ``> caution_entropy`` is high, coherence ``< caution_coherence`` is low.

    Attributes:
        caution_entropy: Entropy above this is at least Caution (and "high").
        warning_entropy: Entropy at or above this is at least Warning.
        critical_entropy: Entropy at or above this is Critical.
        caution_coherence: Coherence below this is at least Caution (and "low").
        warning_coherence: Coherence at or below this is at least Warning.
        critical_coherence: Coherence at or below this is Critical.
        gated_quadrants: Quadrants in which a Critical retrieval may be blocked. ``HIDDEN``
            is not gated by default: its best item does match the query.
        hard_gating: Replace Critical results in gated quadrants by the warning.
        similarity_floor: Query-item cosine mapped to match 0 (unrelated text with
            all-MiniLM-L6-v2 sits around 0.0-0.2).
        similarity_ceiling: Cosine mapped to match 1 (relevant passages sit around 0.5-0.8).
        temperature: Softmax temperature over the mapped matches for the flatness term.
        weak_match_weight: Weight of ``1 - best match`` in the entropy; the normalized
            Shannon entropy of the softmax gets ``1 - weak_match_weight``. The defaults of
            the similarity floor/ceiling, temperature and this weight were grid-searched for
            all-MiniLM-L6-v2 on the "fit" half of the development data (BENCHMARKS.md).
        coherence_floor: Mean pairwise item cosine mapped to coherence 0.
        coherence_ceiling: Mean pairwise item cosine mapped to coherence 1.
        max_items: Keep only the best ``max_items`` items (``None``: all).

    Example:
        >>> ToolGatingConfig(hard_gating=True).critical_entropy
        0.9
    """

    caution_entropy: float = 0.6
    warning_entropy: float = 0.8
    critical_entropy: float = 0.9
    caution_coherence: float = 0.5
    warning_coherence: float = 0.3
    critical_coherence: float = 0.2
    gated_quadrants: frozenset[JohariQuadrant] = field(
        default_factory=lambda: frozenset({JohariQuadrant.BLIND, JohariQuadrant.UNKNOWN})
    )
    hard_gating: bool = False
    similarity_floor: float = 0.15
    similarity_ceiling: float = 0.8
    temperature: float = 0.2
    weak_match_weight: float = 0.6
    coherence_floor: float = 0.0
    coherence_ceiling: float = 0.35
    max_items: int | None = None

    def __post_init__(self) -> None:
        for name in (
            "caution_entropy",
            "warning_entropy",
            "critical_entropy",
            "caution_coherence",
            "warning_coherence",
            "critical_coherence",
            "weak_match_weight",
        ):
            _in_unit(name, getattr(self, name))
        if not self.caution_entropy < self.warning_entropy < self.critical_entropy:
            raise ValueError("entropy thresholds must satisfy caution < warning < critical")
        if not self.caution_coherence > self.warning_coherence > self.critical_coherence:
            raise ValueError("coherence thresholds must satisfy caution > warning > critical")
        if not self.similarity_floor < self.similarity_ceiling:
            raise ValueError("similarity_floor must be below similarity_ceiling")
        if not self.coherence_floor < self.coherence_ceiling:
            raise ValueError("coherence_floor must be below coherence_ceiling")
        if not (self.temperature > 0 and math.isfinite(self.temperature)):
            raise ValueError(f"temperature must be > 0, got {self.temperature}")
        if self.max_items is not None and self.max_items < 1:
            raise ValueError(f"max_items must be >= 1 or None, got {self.max_items}")
        bad = [q for q in self.gated_quadrants if not isinstance(q, JohariQuadrant)]
        if bad:
            raise ValueError(f"gated_quadrants must hold JohariQuadrant members, got {bad}")
        object.__setattr__(self, "gated_quadrants", frozenset(self.gated_quadrants))

    def level(self, entropy: float, coherence: float) -> GatingLevel:
        """The gating level of an (entropy, coherence) pair."""
        if entropy >= self.critical_entropy or coherence <= self.critical_coherence:
            return GatingLevel.CRITICAL
        if entropy >= self.warning_entropy or coherence <= self.warning_coherence:
            return GatingLevel.WARNING
        if entropy > self.caution_entropy or coherence < self.caution_coherence:
            return GatingLevel.CAUTION
        return GatingLevel.NONE

    def quadrant(self, entropy: float, coherence: float) -> JohariQuadrant:
        """The Johari quadrant of an (entropy, coherence) pair."""
        high_entropy = entropy > self.caution_entropy
        low_coherence = coherence < self.caution_coherence
        if high_entropy:
            return JohariQuadrant.BLIND if low_coherence else JohariQuadrant.UNKNOWN
        return JohariQuadrant.HIDDEN if low_coherence else JohariQuadrant.OPEN
