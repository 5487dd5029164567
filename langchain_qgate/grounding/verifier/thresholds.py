"""Every cut-off on the verifier's probabilities, in one place, read from the fitted model file.

The values belong to one verifier: a retrained or swapped verifier reads the same text with
other probabilities, so ``scripts/fit_grounding.py --write`` refits or records them in the
``info`` block of ``langchain_qgate/data/grounding_model.json`` next to the combination's
weights. Code reads them from there (``VerifierThresholds.from_info``); the defaults below are
the values fitted for the shipped verifier and apply only to a model file written before a key
existed. Swapping the verifier with its refit changes no code.

Cut-offs on shares of words (coverage) are not here: they do not depend on the verifier.

Example:
    >>> VerifierThresholds.from_info({"pair_contradiction_threshold": 0.99}).contradict
    0.99
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

__all__ = ["VerifierThresholds"]


@dataclass(frozen=True)
class VerifierThresholds:
    """Cut-offs on P(entailed) / P(contradicted) of the claim-evidence verifier.

    Attributes:
        contradict: P(contradicted) at which the verifier alone names a contradiction.
        overrule: P(entailed) of another window at which a rule's contradiction is dropped.
        substitute: P(contradicted) at which a one-word substitution of the evidence sentence is
            named a contradiction (``_substitution``).
        grounded_floor: GROUNDED also needs one window read as entailing with at least this.
        no_support: the verifier names a contradiction only while every window's P(entailed)
            stays below this.
        denied: P(contradicted) of the denied passage's own window at which only that window
            (or one restating the claim's predicate) may overrule a rule's denial.
        fields_ground: P(entailed) at which the verifier grounds the words of a record claim
            that the typed fields leave open (``fields.apply_field_decisions``).
        not_entailed: below this P(entailed) in every window, a claim most of whose words are
            in no passage is unsupported (``monitor._unread``).
        phrase_entailed: below this P(entailed), a claim read against passages of a word or
            two each is unsupported (one-word documents).
        field_renamed: P(contradicted) of a record at which a word put before a field's key
            word in place of its value ("your checking account" for ``"account_type":
            "savings"``) names that field (``fields.apply_field_decisions``).
    """

    contradict: float = 0.995
    overrule: float = 0.95
    substitute: float = 0.95
    grounded_floor: float = 0.5
    no_support: float = 0.2
    denied: float = 0.5
    fields_ground: float = 0.8
    not_entailed: float = 0.05
    phrase_entailed: float = 0.5
    field_renamed: float = 0.995

    # the key of each field in the model file's ``info`` block
    KEYS: ClassVar[dict[str, str]] = {
        "contradict": "pair_contradiction_threshold",
        "overrule": "pair_overrule_threshold",
        "substitute": "pair_substitution_threshold",
        "grounded_floor": "pair_grounded_floor",
        "no_support": "pair_no_support_threshold",
        "denied": "pair_denied_threshold",
        "fields_ground": "pair_fields_ground_threshold",
        "not_entailed": "pair_not_entailed_threshold",
        "phrase_entailed": "pair_phrase_entailed_threshold",
        "field_renamed": "pair_field_renamed_threshold",
    }

    @classmethod
    def from_info(cls, info: Mapping[str, Any]) -> VerifierThresholds:
        """The thresholds a model file records, the defaults for keys it lacks."""
        values: dict[str, float] = {}
        for f in fields(cls):
            key = cls.KEYS[f.name]
            if key in info:
                values[f.name] = float(info[key])
        return cls(**values)

    def to_info(self) -> dict[str, float]:
        """The ``info`` entries of these thresholds (what the refit script writes)."""
        return {self.KEYS[f.name]: float(getattr(self, f.name)) for f in fields(self)}
