"""The learned verifier's part of each claim's signals.

The pair model (``grounding/verifier/crossencoder.py``) reads every claim with its nearest evidence
windows: the chunk that shares the claim's words first, then the most similar ones. Per claim
it gives two features of the grounding score, the largest P(entailed) over the windows and one
minus the largest P(contradicted), and it moves the contradiction decision:

- a polarity contradiction the rules found ("the evidence states the opposite") is dropped
  when a window entails the claim (P(entailed) >= ``overrule``): the model read the passage as
  saying the same thing; but where the model read the contradicted passage as contradicting
  too, only that passage's window or one holding the claim's own words may (a neighbouring
  sentence that shares a word never outvotes a denial the model itself read). Only the
  polarity families are overruled: they read negation words, which conditions and idioms
  fool ("if it doesn't catch, ..."), while the value rules compare explicit figures and
  names, which the small model reads less well than the rules do ("first album" against
  "second album"); on the fit halves every value-rule
  contradiction was on a wrong answer (``scripts/fit_grounding.py --ablate``);
- a claim the rules found no value conflict in is contradicted when one window contradicts it
  (P(contradicted) >= ``contradict``) and no window entails it (P(entailed) < ``no_support``);
  the report quotes that window's chunk;
- a claim that restates one sentence of a window, or one standalone clause of it ("The
  library closed on Sundays." of "... open on weekdays and closed on Sundays"), with one local
  change (``grounding/checks/_substitution.py``) is contradicted, the report naming both words and
  quoting the sentence: a word for its opposite ("open" for "closed"), a flipped polarity, a denial,
  two things trading places, another frequency, a value moved from another clause or a name
  in another's role, whatever the model reads of that sentence, unless another
  window entails the claim (P(entailed) >= ``no_support``); another name or figure in the
  same place, at the lower ``substitute`` threshold with no window entailing the claim;
  another word for a word, never (the model misreads synonyms that WordNet does not list).

A record's window never contradicts: typed field comparisons (``grounding/records/fields.py``) read
records better than the model does, and for the same reason the GROUNDED floor
(``monitor.py``) does not apply to claims about a record. The two model thresholds ship with
the fitted combination and were chosen on the fit halves for few false contradictions
(``scripts/fit_grounding.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_qgate.grounding.checks._substitution import LocalChange, substitution
from langchain_qgate.grounding.checks.checks import content_stems, coverage
from langchain_qgate.grounding.claims._compound import sentence_subject, split_compound
from langchain_qgate.grounding.claims.segment import split_sentences
from langchain_qgate.grounding.verifier.crossencoder import is_record_window, verifier_window
from langchain_qgate.grounding.verifier.thresholds import VerifierThresholds
from langchain_qgate.schemas import Contradiction

if TYPE_CHECKING:
    from langchain_qgate.grounding.checks.features import ClaimSignals
    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
    from langchain_qgate.grounding.verifier.crossencoder import PairModel

__all__ = [
    "OVERRULED_FAMILIES",
    "SUBSTITUTION_THRESHOLD",
    "apply_pair_model",
    "local_change",
    "pair_text",
    "pair_windows",
]

_RESTATES = 0.8  # another window overrules a denial holding this much of the claim's predicate
_OTHER_CLAUSE = 0.5  # a claim with this much of another clause's words restates the sentence
SUBSTITUTION_THRESHOLD = VerifierThresholds().substitute
"""P(contradicted) at which a local change of names or figures in one evidence sentence is a
contradiction. Chosen with hand-written near copies beside the fit halves (BENCHMARKS.md,
"Local changes named"): on the fit halves no correct answer is contradicted through it at any
threshold from 0.9 up; at 0.9, some faithful synonym swaps of the hand-written set were, which
is why a word for a word is never the model's to name (``_substitution.py``)."""
OVERRULED_FAMILIES = frozenset({"negation"})
"""Rule families (``features.ClaimSignals.rule_family``) the model may overrule."""


def pair_text(claim: str, question: str | None) -> str:
    """What the pair model reads of a claim: a "question + answer" claim whose answer is a
    sentence of its own is read as the answer (the verifier reads a question as asking, not
    stating); a short answer ("Paris") keeps its question, as in its training pairs."""
    if question and claim.startswith(question):
        answer = claim[len(question) :].strip()
        if len(answer.split()) > 6:
            return answer
    return claim


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
    substitute: float = SUBSTITUTION_THRESHOLD,
    denied: float = VerifierThresholds().denied,
    no_support: float = VerifierThresholds().no_support,
    off: frozenset[str] = frozenset(),
) -> None:
    """Fill the pair features of ``signals`` in place and settle contradictions (see above).
    The cut-offs are the verifier's (``thresholds.VerifierThresholds``); the built-in checks
    named in ``off`` (``verifier``, ``local_change``) name no contradiction."""
    plan: list[list[tuple[int, str]]] = [
        pair_windows(sig, index, windows) if sig.top else [] for sig in signals
    ]
    pairs = [(claim, text) for claim, ws in zip(claims, plan, strict=True) for _, text in ws]
    probs = model.predict(pairs) if pairs else None
    cuts = _Cuts(contradict, overrule, substitute, denied, no_support, off)
    cut = getattr(model, "truncated", None)
    row = 0
    for claim, sig, ws in zip(claims, signals, plan, strict=True):
        sig.rule_contradiction = sig.contradiction
        if not ws or probs is None:
            continue
        part = probs[row : row + len(ws)]
        row += len(ws)
        _read_windows(claim, sig, ws, part, index, cuts)
        sig.pair_cut = cut is not None and any(cut((claim, text)) for _, text in ws)


@dataclass(frozen=True)
class _Cuts:
    """The verifier's cut-offs ``apply_pair_model`` settles contradictions with."""

    contradict: float
    overrule: float
    substitute: float
    denied: float
    no_support: float
    off: frozenset[str] = frozenset()


def _read_windows(  # noqa: PLR0917
    claim: str,
    sig: ClaimSignals,
    ws: list[tuple[int, str]],
    part: Any,
    index: EvidenceIndex,
    cuts: _Cuts,
) -> None:
    """One claim's pair features from the verifier's probabilities on its windows, and its
    contradiction settled."""
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
        and _overruled(
            claim, sig.contradiction.evidence_id, ws, part, index, (cuts.overrule, cuts.denied)
        )
    ):
        sig.contradiction = None
        sig.no_contradiction = 1.0
    sig.pair_record = any(is_record_window(index, i) for i, _ in ws)
    if (
        sig.contradiction is None
        and "verifier" not in cuts.off
        and contradicted >= cuts.contradict
        and entailed < cuts.no_support
        and not is_record_window(index, ws[at][0])
    ):
        chunk = index.chunks[ws[at][0]]
        sig.contradiction = Contradiction(
            kind="statement",
            claim_value=claim,
            evidence_value="",
            evidence_id=chunk.id,
            quote=chunk.text,
            check="verifier",
        )
        sig.no_contradiction = 0.0
    elsewhere = _changed_window(claim, sig, ws, part, index, entailed)
    if (
        sig.contradiction is None
        and sig.pair_change is not None
        and "local_change" not in cuts.off
        and (
            (sig.pair_change_opposite and elsewhere < cuts.no_support)
            or (sig.pair_change_p >= cuts.substitute and entailed < cuts.no_support)
        )
    ):
        sig.contradiction = sig.pair_change.model_copy(update={"check": "local_change"})
        sig.no_contradiction = 0.0


def _changed_window(  # noqa: PLR0917
    claim: str,
    sig: ClaimSignals,
    ws: list[tuple[int, str]],
    part: Any,
    index: EvidenceIndex,
    entailed: float,
) -> float:
    """The window that says the claim with one local change, most contradicting first, into
    the pair-change features; returns P(entailed) of the windows other than the changed one
    (``entailed`` when none is)."""
    for k in sorted(range(len(ws)), key=lambda j: -float(part[j, 1])):
        i, text = ws[k]
        if is_record_window(index, i):
            continue
        found = local_change(claim, text, index.chunks[i].id)
        if found is not None:
            sig.pair_change, local = found
            sig.pair_change_opposite = local.opposite
            sig.pair_change_p = float(part[k, 1]) if local.names_or_figures else 0.0
            elsewhere = max((float(part[j, 0]) for j in range(len(ws)) if j != k), default=0.0)
            sig.pair_change_elsewhere = elsewhere
            return elsewhere
    return entailed


def _overruled(  # noqa: PLR0917
    claim: str,
    evidence_id: str,
    ws: Sequence[tuple[int, str]],
    part: Any,
    index: EvidenceIndex,
    cuts: tuple[float, float],
) -> bool:
    """Whether the model reads the claim as stated where a rule found it denied.

    Some window entails the claim (P(entailed) >= ``overrule``, the first of ``cuts``). When the
    model also read the contradicted passage and found it contradicting (P(contradicted) >=
    ``denied``, the second), only that
    passage's window or one holding the claim's content words (``_RESTATES``) may overrule: a
    neighbouring sentence that merely shares a word ("It has two USB-C ports" beside "supports
    USB-C charging") never outvotes a denial the model itself read. The claim's words are
    those of its predicate: "These bodies have never been identified" restates "The man has never
    been identified."
    """
    overrule, denial = cuts
    own = [k for k, (i, _) in enumerate(ws) if index.chunks[i].id == evidence_id]
    denied = any(float(part[k, 1]) >= denial for k in own)
    words = _predicate_stems(claim)
    for k, (_, text) in enumerate(ws):
        if float(part[k, 0]) < overrule:
            continue
        if not denied or k in own or coverage(words, set(content_stems(text))) >= _RESTATES:
            return True
    return False


def _predicate_stems(claim: str) -> dict[str, float]:
    """The claim's content words outside its subject ("never been identified" of "The man has
    never been identified."): what a window must state to restate the claim, whatever it calls
    the subject; all of them when the subject is not found or is the whole claim."""
    words = content_stems(claim)
    subject = sentence_subject(claim, name_fallback=False)
    rest = {w: v for w, v in words.items() if w not in content_stems(subject or "")}
    return rest or words


def _clause_change(claim: str, sentence: str) -> LocalChange | None:
    """A local change of one standalone clause of ``sentence`` that the claim restates
    alone, its opposite first ("open on weekdays" against "open on Sundays" only swaps a
    day). The claim must not say another clause's words beyond the ones it changes: "opened
    in 1895 and closed in 1962" against the same sentence, or "open in summer" against "...
    open in summer and closed in winter", restate another clause, not this one."""
    parts = split_compound(sentence)
    if len(parts) < 2:
        return None
    said = set(content_stems(claim))
    words = [content_stems(p.text) for p in parts]
    changes = []
    for k, part in enumerate(parts):
        found = substitution(claim, part.text)
        if found is None:
            continue
        changed = set(content_stems(" ".join(a for a, _ in found.changes)))
        rest = {
            s: w
            for j, ws in enumerate(words)
            if j != k
            for s, w in ws.items()
            if s not in words[k] and s not in changed
        }
        if not rest or coverage(rest, said) >= _OTHER_CLAUSE:
            continue
        others = [p.text for j, p in enumerate(parts) if j != k]
        if found.names_or_figures and _moved(found, others):
            found = found._replace(opposite=True)
        changes.append(found)
    return next((c for c in changes if c.opposite), changes[0] if changes else None)


def _moved(found: LocalChange, other_clauses: list[str]) -> bool:
    """Whether the claim's one changed name or figure is another clause's: "Salisbury
    Cathedral was consecrated in 1220" against "... begun in 1220 and consecrated in 1258"
    binds the beginning's year to the consecration, which is wrong whatever the model reads."""
    if len(found.changes) != 1:
        return False
    said = found.changes[0][0]
    return any(_says(said, text) for text in other_clauses)


def _says(words: str, text: str) -> bool:
    """Whether ``text`` has ``words`` as whole words ("1220", not "12200" or "1,220")."""
    return re.search(rf"(?<![\w.,:]){re.escape(words)}(?![\w]|[.,:]\d)", text, re.I) is not None


def local_change(
    claim: str, window: str, evidence_id: str
) -> tuple[Contradiction, LocalChange] | None:
    """The contradiction a local change of one of ``window``'s sentences would be, with the
    change (which says who may name it: the change alone when ``opposite``, the verifier when
    ``names_or_figures``, neither for another word for a word), if there is one."""
    for start, end in split_sentences(window):
        sentence = window[start:end]
        local = substitution(claim, sentence)
        if local is None:
            # "The library is open on weekdays and closed on Sundays": the claim may restate
            # one standalone clause, its subject carried ("The library closed on Sundays.")
            local = _clause_change(claim, sentence)
        if local is None:
            continue
        changes = local.changes
        claim_words = " / ".join(a for a, _ in changes)
        evidence_words = " / ".join(b for _, b in changes)
        polarity = evidence_words in ("not", "denied") or claim_words == "not"
        return Contradiction(
            kind="negation" if polarity else "statement",
            claim_value=claim if polarity else claim_words,
            evidence_value="" if polarity else evidence_words,
            evidence_id=evidence_id,
            quote=sentence,
        ), local
    return None
