"""The learned verifier's part of each claim's signals.

The pair model (``grounding/crossencoder.py``) reads every claim with its nearest evidence
windows: the chunk that shares the claim's words first, then the most similar ones. Per claim
it gives two features of the grounding score, the largest P(entailed) over the windows and one
minus the largest P(contradicted), and it moves the contradiction decision:

- a polarity contradiction the rules found ("the evidence states the opposite") is dropped
  when some window entails the claim (P(entailed) >= ``overrule``): the model read the
  passage as saying the same thing. Only the polarity families are overruled: they read
  negation words, which conditions and idioms fool ("if it doesn't catch, ..."), while the
  value rules compare explicit figures and names, which the small model reads less well than
  the rules do ("first album" against "second album"); on the fit halves every value-rule
  contradiction was on a wrong answer (``scripts/fit_grounding.py --ablate``);
- a claim the rules found no value conflict in is contradicted when one window contradicts it
  (P(contradicted) >= ``contradict``) and no window entails it (P(entailed) < ``_NO_SUPPORT``);
  the report quotes that window's chunk. A record's window never contradicts: typed field
  comparisons (``grounding/fields.py``) read records better than the model does, and for the
  same reason the GROUNDED floor (``monitor.py``) does not apply to claims about a record.
  Both thresholds ship with the fitted combination and were chosen on the fit halves for few
  false contradictions (``scripts/fit_grounding.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from langchain_qgate.grounding.crossencoder import is_record_window, verifier_window
from langchain_qgate.schemas import Contradiction

if TYPE_CHECKING:
    from langchain_qgate.grounding.crossencoder import PairModel
    from langchain_qgate.grounding.evidence import EvidenceIndex
    from langchain_qgate.grounding.features import ClaimSignals

__all__ = ["OVERRULED_FAMILIES", "apply_pair_model", "pair_windows"]

_NO_SUPPORT = 0.2  # a model contradiction needs every window below this P(entailed)
OVERRULED_FAMILIES = frozenset({"negation"})
"""Rule families (``features.ClaimSignals.rule_family``) the model may overrule."""


def pair_windows(sig: ClaimSignals, index: EvidenceIndex, limit: int) -> list[tuple[int, str]]:
    """Up to ``limit`` distinct ``(chunk, window text)`` for one claim, aligned chunk first."""
    order = ([sig.aligned] if sig.aligned >= 0 else []) + [i for i, _ in sig.top]
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for i in order:
        text = verifier_window(index, i)
        if text in seen or not text.strip():
            continue
        seen.add(text)
        out.append((i, text))
        if len(out) >= limit:
            break
    return out


def apply_pair_model(
    model: PairModel,
    claims: Sequence[str],
    signals: Sequence[ClaimSignals],
    index: EvidenceIndex,
    *,
    windows: int,
    contradict: float,
    overrule: float,
) -> None:
    """Fill the pair features of ``signals`` in place and settle contradictions (see above)."""
    plan: list[list[tuple[int, str]]] = [
        pair_windows(sig, index, windows) if sig.top else [] for sig in signals
    ]
    pairs = [(claim, text) for claim, ws in zip(claims, plan, strict=True) for _, text in ws]
    probs = model.predict(pairs) if pairs else None
    row = 0
    for claim, sig, ws in zip(claims, signals, plan, strict=True):
        sig.rule_contradiction = sig.contradiction
        if not ws or probs is None:
            continue
        part = probs[row : row + len(ws)]
        row += len(ws)
        entailed = float(part[:, 0].max())
        at = int(part[:, 1].argmax())
        contradicted = float(part[at, 1])
        sig.pair_entailed = entailed
        sig.pair_contradicted = contradicted
        sig.pair_not_contradicted = 1.0 - contradicted
        sig.pair_window = ws[at][0]
        if (
            sig.contradiction is not None
            and sig.rule_family in OVERRULED_FAMILIES
            and entailed >= overrule
        ):
            sig.contradiction = None
            sig.no_contradiction = 1.0
        sig.pair_record = any(is_record_window(index, i) for i, _ in ws)
        cut = getattr(model, "truncated", None)
        sig.pair_cut = cut is not None and any(cut((claim, text)) for _, text in ws)
        if (
            sig.contradiction is None
            and contradicted >= contradict
            and entailed < _NO_SUPPORT
            and not is_record_window(index, ws[at][0])
        ):
            chunk = index.chunks[ws[at][0]]
            sig.contradiction = Contradiction(
                kind="statement",
                claim_value=claim,
                evidence_value="",
                evidence_id=chunk.id,
                quote=chunk.text,
            )
            sig.no_contradiction = 0.0
