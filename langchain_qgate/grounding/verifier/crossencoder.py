"""The shipped claim-evidence verifier: a cross-encoder that reads a claim and one evidence
window together and gives P(entailed), P(contradicted), P(neutral).

A bi-encoder scores "closed on Mondays" and "open on Mondays" as the same statement; a
cross-encoder attends across both texts and sees the contrast. The model is all-MiniLM-L6-v2
(Apache-2.0) fine-tuned by ``scripts/train_verifier.py`` on pairs generated from the fit halves
of the development data (``scripts/verifier_data.py``), exported to ONNX and quantised to int8.
It ships in ``langchain_qgate/data/verifier/`` with its tokenizer and a manifest, is loaded on
first use (never at import), runs on ONNX Runtime without torch, and is deterministic.

Windows: a prose chunk is read as its lexical view (a leading pronoun resolved to the previous
sentence's subject); a field of a structured source is read together with its record's other
fields ("name: Alimentum. area: city centre. family friendly: false."), since a sentence about a
record usually states several fields at once.

Example:
    >>> model = default_pair_model()
    >>> p = model.predict([("The museum is open on Mondays.", "The museum is closed on Mondays.")])
    >>> p.argmax(axis=1).tolist()  # entailed, contradicted, neutral
    [1]
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from langchain_qgate.errors import EmbeddingError
from langchain_qgate.grounding.evidence.structured import field_words
from langchain_qgate.grounding.verifier._int8 import exact_session_source

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from langchain_qgate.grounding.evidence.evidence import EvidenceIndex

__all__ = [
    "LABELS",
    "PairModel",
    "default_pair_model",
    "is_record_window",
    "linearise_fields",
    "verifier_window",
]

LABELS: tuple[str, str, str] = ("entailed", "contradicted", "neutral")
"""Output order of the pair model's probabilities."""

_MAX_WINDOW_CHARS = 600  # a record's fields beyond this are left out of one window


def linearise_fields(fields: Sequence[tuple[str, str]]) -> str:
    """A record's ``(path, value)`` fields as one window: ``"area: city centre. ..."``."""
    parts: list[str] = []
    size = 0
    for path, value in fields:
        part = f"{field_words(path)}: {value.strip()}."
        if size + len(part) > _MAX_WINDOW_CHARS and parts:
            break
        parts.append(part)
        size += len(part) + 1
    return " ".join(parts)


def _field_of(chunk_text: str, chunk_id: str) -> tuple[str, str]:
    head, sep, value = chunk_text.partition(": ")
    return (head if sep else chunk_id), (value if sep else chunk_text)


def is_record_window(index: EvidenceIndex, i: int) -> bool:
    """Chunk ``i`` is a field of a structured source (its window is the whole record)."""
    meta = index.chunks[i].metadata
    return bool(meta) and "field" in meta


def verifier_window(index: EvidenceIndex, i: int) -> str:
    """The text the pair model reads for chunk ``i`` of ``index`` (see the module docstring)."""
    if not is_record_window(index, i):
        return index.views[i]
    # A field of a structured source: the record's fields, this one first.
    fields = index.record_fields(i)
    return linearise_fields([_field_of(t, cid) for cid, t in fields])


@dataclass(frozen=True)
class _Loaded:
    session: Any
    tokenizer: Any
    max_length: int
    inputs: tuple[str, ...]
    order: tuple[int, int, int]  # output columns of entailed, contradicted, neutral


_LOCK = threading.Lock()


_CACHE_PAIRS = 50_000
"""Pairs a :class:`PairModel` keeps scored; past it the cache starts over (between calls)."""


class PairModel:
    """A claim-evidence cross-encoder on ONNX Runtime.

    Args:
        folder: A folder with ``model.onnx``, ``tokenizer.json`` and ``verifier.json``; the
            shipped verifier by default. ``verifier.json`` names the output columns in
            ``labels`` (entailment / contradiction / neutral, any order), so any 3-way NLI
            cross-encoder exported to ONNX with inputs ``input_ids``, ``attention_mask`` (and
            ``token_type_ids`` if it has them) and output logits can be used.
        batch_size: Pairs per ONNX Runtime call. 1 by default: the int8 model quantises
            its activations with one scale per call, so a pair batched with others (and their
            padding) can get other probabilities (up to 0.5 apart on the minimal-pair suite);
            one pair per call keeps every claim's verdict independent of the rest of the
            answer, at about 0.7x the throughput of batches of 32.

    Example:
        >>> probs = PairModel().predict([(claim, evidence_sentence)])  # (n, 3)
    """

    def __init__(self, folder: str | Path | None = None, *, batch_size: int = 1) -> None:
        self.folder = Path(folder) if folder is not None else _shipped_folder()
        self.batch_size = batch_size
        self._loaded: _Loaded | None = None
        self._cache: dict[tuple[str, str], NDArray[np.float32]] = {}
        self._cut: set[tuple[str, str]] = set()  # pairs longer than max_length (truncated)

    @property
    def manifest(self) -> dict[str, Any]:
        """The model's ``verifier.json`` (labels, max length, how it was trained)."""
        with open(self.folder / "verifier.json", encoding="utf-8") as fh:
            data: dict[str, Any] = json.load(fh)
        return data

    def _load(self) -> _Loaded:
        if self._loaded is not None:
            return self._loaded
        with _LOCK:
            if self._loaded is None:
                try:
                    self._loaded = self._open()
                except Exception as exc:  # missing or broken files: one clear error
                    raise EmbeddingError(f"pair model at {self.folder}", exc) from exc
        assert self._loaded is not None
        return self._loaded

    def clear(self) -> None:
        """Forget the cached probabilities (benchmarks time the model, not the cache)."""
        self._cache.clear()
        self._cut.clear()

    def truncated(self, pair: tuple[str, str]) -> bool:
        """Whether the model read only part of ``pair`` (longer than ``max_length`` tokens);
        known for the pairs :meth:`predict` has scored."""
        return pair in self._cut

    def _open(self) -> _Loaded:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        manifest = self.manifest
        max_length = int(manifest.get("max_length", 128))
        tok = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        tok.enable_truncation(max_length=max_length, strategy="longest_first")
        tok.no_padding()
        opts = ort.SessionOptions()
        opts.inter_op_num_threads = 1
        # int8 weights rewritten so that every CPU computes the same sums (verifier/_int8.py)
        source = exact_session_source(str(self.folder / str(manifest.get("file", "model.onnx"))))
        session = ort.InferenceSession(
            source,
            sess_options=opts,
            providers=["CPUExecutionProvider"],
        )
        names = tuple(i.name for i in session.get_inputs())
        return _Loaded(session, tok, max_length, names, _label_order(manifest.get("labels")))

    def predict(self, pairs: Sequence[tuple[str, str]]) -> NDArray[np.float32]:
        """Probabilities ``(len(pairs), 3)`` in ``LABELS`` order; cached by pair text."""
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        uniq = list(dict.fromkeys(p for p in pairs if p not in self._cache))
        if uniq:
            loaded = self._load()
            if len(self._cache) + len(uniq) > _CACHE_PAIRS:  # full: start over, never mid-call
                kept = {p: self._cache[p] for p in pairs if p in self._cache}
                cut = self._cut & set(kept)
                self._cache.clear()
                self._cut.clear()
                self._cache.update(kept)
                self._cut.update(cut)
            enc = loaded.tokenizer.encode_batch([(c, w) for c, w in uniq])
            order = sorted(range(len(uniq)), key=lambda j: len(enc[j].ids))
            for start in range(0, len(order), self.batch_size):
                part = order[start : start + self.batch_size]
                width = max(len(enc[j].ids) for j in part)
                ids = np.zeros((len(part), width), dtype=np.int64)
                types = np.zeros_like(ids)
                mask = np.zeros_like(ids)
                for r, j in enumerate(part):
                    n = len(enc[j].ids)
                    ids[r, :n] = enc[j].ids
                    types[r, :n] = enc[j].type_ids
                    mask[r, :n] = 1
                feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
                logits = loaded.session.run(None, {k: feed[k] for k in loaded.inputs})[0]
                logits = logits[:, list(loaded.order)]
                z = logits - logits.max(axis=1, keepdims=True)
                probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
                for r, j in enumerate(part):
                    if enc[j].overflowing:
                        self._cut.add(uniq[j])
                    # Rounded, so that a pair scored in another batch (other padding) reads
                    # the same: same input, same verdict.
                    self._cache[uniq[j]] = np.round(probs[r], 4).astype(np.float32)
        for k, p in enumerate(pairs):
            out[k] = self._cache[p]
        return out


def _label_order(labels: Any) -> tuple[int, int, int]:
    """Columns of entailed, contradicted, neutral in a model's output, from its label names
    ("entailment", "contradiction", "neutral" in any order and spelling)."""
    if labels is None:
        return (0, 1, 2)
    names = [str(n).lower() for n in labels]
    found = [
        next((k for k, n in enumerate(names) if n.startswith(stem)), -1)
        for stem in ("entail", "contradict", "neutral")
    ]
    if -1 in found:
        msg = f"labels {labels!r} must name entailment, contradiction and neutral"
        raise ValueError(msg)
    return (found[0], found[1], found[2])


def _shipped_folder() -> Path:
    ref = resources.files("langchain_qgate") / "data" / "verifier"
    return Path(str(ref))


@lru_cache(maxsize=1)
def default_pair_model() -> PairModel:
    """The shipped pair model (one per process; loaded on first ``predict``)."""
    return PairModel()
