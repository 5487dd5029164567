"""Options of the memory noise filters (significance, dedup, decision noise)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DecisionNoiseAction", "MemoryFilterPolicy"]

DecisionNoiseAction = Literal["flag", "skip"]
"""What happens to a noisy decision: ``"flag"`` stores it with ``qgate_noise=True`` and
warns (the default); ``"skip"`` does not store it (and still warns)."""

_DEFAULT_STATUS_WORDS = frozenset(
    [
        "completed",
        "complete",
        "done",
        "success",
        "successful",
        "successfully",
        "succeeded",
        "started",
        "starting",
        "start",
        "status",
        "progress",
        "update",
        "updated",
        "updating",
        "checked",
        "checking",
        "confirmed",
        "confirm",
        "ok",
        "okay",
        "finished",
        "finish",
        "running",
        "ran",
        "pending",
        "passed",
        "pass",
        "ready",
        "acknowledged",
        "ack",
        "working",
        "fine",
        "good",
        "all",
        "task",
        "step",
        "ongoing",
        "underway",
        "proceeding",
        "continuing",
    ]
)

_DEFAULT_FILLER_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "was",
        "are",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "it",
        "its",
        "this",
        "that",
        "in",
        "on",
        "of",
        "to",
        "for",
        "with",
        "and",
        "as",
        "at",
        "by",
        "now",
        "still",
        "so",
        "far",
        "again",
        "just",
    ]
)


@dataclass(frozen=True, kw_only=True)
class MemoryFilterPolicy:
    """Options of :class:`~langchain_qgate.memory.QualityFilteredStore` and the plain helper.

    Attributes:
        episode_namespaces: A namespace whose last label is one of these holds episodes.
        decision_namespaces: A namespace whose last label is one of these holds decisions.
        metadata_namespace: Prefix under which session metadata is stored; the episode
            namespace is appended (``("qgate_sessions", "user-1", "episodes")``).
        significance: Apply the significance filter to episodes.
        dedup: Apply near-duplicate dedup to episodes.
        decision_filter: Apply the decision-noise filter to decisions.
        min_significant_chars: Combined user + assistant characters that make a session
            significant after its first turn; also the "trivial" bound at session end.
        multi_turn_min: Turn count from which a session counts as multi-turn.
        dedup_threshold: Cosine similarity strictly above which a new episode is a duplicate.
        dedup_window_seconds: Only active episodes created this recently are compared.
        dedup_keep_new_details: An above-threshold match only makes a duplicate when it
            contains every number and identifier of the new episode. The bundled model
            scores "billing consumers scaled to 11" vs "search consumers scaled to 15" at
            0.90; without this guard the replay benchmark loses 35 of 438 real facts.
            It also keeps an episode that is its match with one or two words swapped for
            dissimilar ones (``dedup_swap_similarity``). ``False`` gives pure cosine dedup.
        dedup_swap_similarity: Swapped words less similar than this (by the embedder) mark a
            different subject ("pricing" vs "search": 0.30; "hi" vs "hello": 0.81).
        faiss_min_candidates: From this many candidates FAISS ``IndexFlatIP`` is used
            instead of numpy (both exact).
        decision_min_chars: A decision shorter than this with no reasons is noise.
        status_word_ratio: A decision with no reasons whose words are at least this share
            status words (filler words not counted) is noise.
        status_words: The status vocabulary (lower case; punctuation is stripped from the
            decision's words before matching).
        filler_words: Words ignored when computing the share ("the", "is", ...).
        on_noisy_decision: ``"flag"`` (default) or ``"skip"``.
        hide_inactive: Searches on managed namespaces return only active items unless the
            caller filters on ``active`` itself.
        tracked_keys_per_session: Episode keys remembered per session for the end-of-session
            check (only keys created while the session was still trivial are kept).
    """

    episode_namespaces: frozenset[str] = frozenset({"episodes"})
    decision_namespaces: frozenset[str] = frozenset({"decisions"})
    metadata_namespace: tuple[str, ...] = ("qgate_sessions",)
    significance: bool = True
    dedup: bool = True
    decision_filter: bool = True
    min_significant_chars: int = 200
    multi_turn_min: int = 3
    dedup_threshold: float = 0.85
    dedup_window_seconds: float = 48 * 3600.0
    dedup_keep_new_details: bool = True
    dedup_swap_similarity: float = 0.6
    faiss_min_candidates: int = 256
    decision_min_chars: int = 20
    status_word_ratio: float = 0.5
    status_words: frozenset[str] = _DEFAULT_STATUS_WORDS
    filler_words: frozenset[str] = _DEFAULT_FILLER_WORDS
    on_noisy_decision: DecisionNoiseAction = "flag"
    hide_inactive: bool = True
    tracked_keys_per_session: int = 16

    def __post_init__(self) -> None:
        object.__setattr__(self, "episode_namespaces", frozenset(self.episode_namespaces))
        object.__setattr__(self, "decision_namespaces", frozenset(self.decision_namespaces))
        object.__setattr__(self, "metadata_namespace", tuple(self.metadata_namespace))
        object.__setattr__(self, "status_words", frozenset(w.lower() for w in self.status_words))
        object.__setattr__(self, "filler_words", frozenset(w.lower() for w in self.filler_words))
        if self.episode_namespaces & self.decision_namespaces:
            raise ValueError("a namespace label cannot hold both episodes and decisions")
        if not self.metadata_namespace or any(
            not lbl or "." in lbl for lbl in self.metadata_namespace
        ):
            raise ValueError("metadata_namespace needs non-empty labels without '.'")
        if self.metadata_namespace[0] == "langgraph":
            raise ValueError("metadata_namespace cannot start with the reserved label 'langgraph'")
        if not -1.0 <= self.dedup_threshold <= 1.0:
            raise ValueError(f"dedup_threshold must be in [-1, 1], got {self.dedup_threshold}")
        if not -1.0 <= self.dedup_swap_similarity <= 1.0:
            raise ValueError("dedup_swap_similarity must be in [-1, 1]")
        if self.dedup_window_seconds <= 0:
            raise ValueError("dedup_window_seconds must be > 0")
        if not 0.0 <= self.status_word_ratio <= 1.0:
            raise ValueError(f"status_word_ratio must be in [0, 1], got {self.status_word_ratio}")
        for name in (
            "min_significant_chars",
            "multi_turn_min",
            "faiss_min_candidates",
            "decision_min_chars",
            "tracked_keys_per_session",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"MemoryFilterPolicy.{name} must be >= 1")
        if self.on_noisy_decision not in ("flag", "skip"):
            raise ValueError(
                f"on_noisy_decision must be 'flag' or 'skip', got {self.on_noisy_decision!r}"
            )

    def kind_of(self, namespace: tuple[str, ...]) -> Literal["episode", "decision"] | None:
        """Which filter applies to ``namespace`` (by its last label), if any."""
        if not namespace:
            return None
        last = namespace[-1]
        if last in self.episode_namespaces:
            return "episode"
        if last in self.decision_namespaces:
            return "decision"
        return None
