"""A sentence embedder on ONNX Runtime: the same vectors as sentence-transformers, faster.

On a CPU, ONNX Runtime runs all-MiniLM-L6-v2 faster than PyTorch (a SummEdits item with its
evidence not cached: median 0.10 s against 0.135 s on 2 cores, see BENCHMARKS.md) and gives the
same vectors (largest difference 4e-7 on SummEdits evidence), so every verdict is unchanged.
The model is exported from its local sentence-transformers folder once, on first use, into a
cache folder; later processes load the exported file without importing torch at all.

Cache folder: ``cache_dir``, else ``$QGATE_CACHE_DIR``, else ``$XDG_CACHE_HOME/langchain_qgate``,
else ``~/.cache/langchain_qgate`` (the temp folder when there is no home directory). An export
is keyed by the model folder's path and its files' sizes and modification times, so a changed
model is exported anew.

Supported models: a local sentence-transformers folder whose modules are a Transformer, a
Pooling in mean, CLS or max mode, and optionally Normalize (all-MiniLM-L6-v2 and
most sentence-transformers models). Anything else, or a missing ``onnxruntime`` / ``onnx``,
falls back to the PyTorch embedder when ``fallback=True`` (the default) and raises
``EmbeddingError`` otherwise.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from langchain_qgate.config import DEFAULT_MODEL_NAME
from langchain_qgate.errors import EmbeddingError
from langchain_qgate.grounding.evidence.torch_embedder import (
    SentenceTransformerEmbedder,
    normalise_rows,
    plan_batches,
    resolve_model_path,
)
from langchain_qgate.grounding.verifier._int8 import exact_session_source

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["OnnxEmbedder", "onnx_cache_dir"]

logger = logging.getLogger(__name__)

_FORMAT = 1  # bump when the export or its sidecar changes
_OPSET = 17
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")

Pooling = Literal["mean", "cls", "max"]

_LOCK = threading.Lock()
_LOADED: dict[tuple[str, str, int, bool], _OnnxModel] = {}


def onnx_cache_dir(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder that holds exported models (see the module docstring for the order)."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("QGATE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "langchain_qgate"
    try:
        return Path.home() / ".cache" / "langchain_qgate"
    except RuntimeError:  # no home directory (some service accounts): the temp folder
        return Path(tempfile.gettempdir()) / "langchain_qgate"


@dataclass(frozen=True)
class _OnnxModel:
    """A loaded export: the ONNX Runtime session, its tokenizer and the pooling recipe."""

    session: Any
    tokenizer: Any
    inputs: tuple[str, ...]
    pooling: Pooling
    dimension: int
    folder: Path
    quantized: bool = False


def _read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _pooling_of(st: Any) -> Pooling:
    """The pooling mode of a loaded sentence-transformers model; ``ValueError`` if unsupported."""
    modules = list(st)
    kinds = [type(m).__name__ for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or any(k != "Normalize" for k in kinds[2:]):
        raise ValueError(f"modules {kinds} (need Transformer, Pooling[, Normalize])")
    pool = modules[1]
    mode = getattr(pool, "pooling_mode", None)
    if mode is None and callable(getattr(pool, "get_pooling_mode_str", None)):
        mode = pool.get_pooling_mode_str()  # sentence-transformers < 6
    if mode not in ("mean", "cls", "max"):
        raise ValueError(f"pooling mode {mode!r} (need one of mean, cls, max)")
    chosen: Pooling = mode
    return chosen


def _export_key(model_dir: Path) -> str:
    """A key that changes when the model folder's files change."""
    files = []
    for path in sorted(model_dir.rglob("*")):
        if path.is_file():
            st = path.stat()
            files.append((str(path.relative_to(model_dir)), st.st_size, st.st_mtime_ns))
    blob = json.dumps({"path": str(model_dir.resolve()), "files": files, "format": _FORMAT})
    return hashlib.blake2b(blob.encode("utf-8"), digest_size=8).hexdigest()


def _export(model_dir: Path, target: Path) -> None:
    """Export the folder's transformer to ``target`` (written atomically)."""
    import torch
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(str(model_dir), device="cpu")
    pooling = _pooling_of(st)
    hf: Any = st[0].auto_model
    hf.eval()
    tokenizer = st.tokenizer
    names = [n for n in _INPUTS if n in getattr(tokenizer, "model_input_names", _INPUTS)]

    class _Wrapped(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *args: Any) -> Any:
            return self.inner(**dict(zip(names, args, strict=True))).last_hidden_state

    sample = tokenizer(["a short text", "a somewhat longer sample text"], padding=True)
    args = tuple(torch.tensor(sample[n], dtype=torch.long) for n in names)
    axes = {n: {0: "batch", 1: "tokens"} for n in names}
    axes["last_hidden_state"] = {0: "batch", 1: "tokens"}
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
    tmp.chmod(0o755)  # readable by other users of a shared cache, as os.makedirs would be
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Wrapped(hf),
                args,
                str(tmp / "model.onnx"),
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes=axes,
                opset_version=_OPSET,
                dynamo=False,
            )
        tokenizer.backend_tokenizer.save(str(tmp / "tokenizer.json"))
        meta = {
            "format": _FORMAT,
            "source": str(model_dir.resolve()),
            "inputs": names,
            "pooling": pooling,
            "dimension": int(hf.config.hidden_size),
            "max_seq_length": int(st.max_seq_length or 512),
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        try:
            os.replace(tmp, target)  # atomic; another process may have won the race
        except OSError:
            if not (target / "meta.json").exists():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _quantize(folder: Path) -> Path:
    """A dynamically quantised (int8 weights) copy of the folder's export, made once."""
    target = folder / "model.int8.onnx"
    if target.exists():
        return target
    from onnxruntime.quantization import QuantType, quantize_dynamic

    fd, tmp = tempfile.mkstemp(prefix=".int8-", suffix=".onnx", dir=folder)
    os.close(fd)
    try:
        # quantize_dynamic logs a hint with ``logging.warning``, which would install a stderr
        # handler on an unconfigured root logger for good: give the root a handler meanwhile.
        root = logging.getLogger()
        quiet = logging.NullHandler() if not root.handlers else None
        if quiet is not None:
            root.addHandler(quiet)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                quantize_dynamic(folder / "model.onnx", tmp, weight_type=QuantType.QInt8)
        finally:
            if quiet is not None:
                root.removeHandler(quiet)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)  # atomic; another process may have won the race
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return target


def _load(model_dir: Path, root: Path, threads: int, quantized: bool = False) -> _OnnxModel:
    key = (str(model_dir.resolve()), str(root), threads, quantized)
    found = _LOADED.get(key)
    if found is not None:
        return found
    with _LOCK:
        found = _LOADED.get(key)
        if found is not None:
            return found
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = root / "onnx" / f"{model_dir.name}-{_export_key(model_dir)}"
        if not (folder / "meta.json").exists():
            logger.info("exporting %s to ONNX in %s (once)", model_dir, folder)
            _export(model_dir, folder)
        meta = _read_json(folder / "meta.json")
        weights = _quantize(folder) if quantized else folder / "model.onnx"
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # Idle pool threads sleep instead of spinning: an agent process has other work for
        # the cores, and on 2 cores spinning bought nothing measurable (benchmarks/).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # int8 weights rewritten so that every CPU computes the same sums (verifier/_int8.py)
        source = exact_session_source(str(weights)) if quantized else str(weights)
        session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(int(meta["max_seq_length"]))
        found = _OnnxModel(
            session=session,
            tokenizer=tokenizer,
            inputs=tuple(meta["inputs"]),
            pooling=meta["pooling"],
            dimension=int(meta["dimension"]),
            folder=folder,
            quantized=quantized,
        )
        _LOADED[key] = found
    return found


class OnnxEmbedder:
    """Embeds with a sentence-transformers model exported to ONNX Runtime (CPU).

    Args:
        model_name: The bundled all-MiniLM-L6-v2 or a local sentence-transformers folder.
        batch_size: Most texts in one forward pass (batches are planned by token length).
        cache_dir: Where exports are kept (see the module docstring for the default).
        num_threads: ONNX Runtime intra-op threads; 0 lets it choose (one per core).
        fallback: When the model cannot run on ONNX Runtime (a hub name, an unsupported
            pooling, ``onnxruntime`` missing, an unwritable cache), use the PyTorch
            ``SentenceTransformerEmbedder`` instead and log why. With ``False``, raise
            ``EmbeddingError``.
        quantized: Run a dynamically quantised copy of the export (int8 weights, made once
            next to it): about 1.5x faster on a CPU, but the vectors differ from the float
            model's (cosine about 0.96 on the dev data), so scores move a little; see
            BENCHMARKS.md (issue 18) before choosing it. The PyTorch fallback is not quantised.

    Example:
        >>> emb = OnnxEmbedder()
        >>> emb.embed(["The sky is blue."]).shape
        (1, 384)
        >>> emb.backend
        'onnx'
    """

    def __init__(
        self,
        model_name: str = DEFAULT_MODEL_NAME,
        *,
        batch_size: int = 64,
        cache_dir: str | os.PathLike[str] | None = None,
        num_threads: int = 0,
        fallback: bool = True,
        quantized: bool = False,
    ) -> None:
        if not model_name:
            raise ValueError("model_name must be a non-empty string")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if num_threads < 0:
            raise ValueError(f"num_threads must be >= 0, got {num_threads}")
        self.model_name = model_name
        self.batch_size = batch_size
        self.cache_dir = onnx_cache_dir(cache_dir)
        self.num_threads = num_threads
        self.fallback = fallback
        self.quantized = quantized
        self._model: _OnnxModel | None = None
        self._torch: SentenceTransformerEmbedder | None = None
        self._init_lock = threading.Lock()

    def _resolve(self) -> _OnnxModel | SentenceTransformerEmbedder:
        if self._model is not None:
            return self._model
        if self._torch is not None:
            return self._torch
        with self._init_lock:
            if self._model is None and self._torch is None:
                try:
                    path = Path(resolve_model_path(self.model_name))
                    if not path.is_dir():
                        raise ValueError("not a local folder (export needs one)")
                    self._model = _load(path, self.cache_dir, self.num_threads, self.quantized)
                except Exception as exc:
                    if not self.fallback:
                        raise EmbeddingError(self.model_name, f"ONNX backend: {exc}") from exc
                    logger.warning(
                        "%s cannot run on ONNX Runtime (%s); using PyTorch", self.model_name, exc
                    )
                    self._torch = SentenceTransformerEmbedder(
                        self.model_name, batch_size=self.batch_size
                    )
        resolved = self._model or self._torch
        assert resolved is not None
        return resolved

    @property
    def backend(self) -> Literal["onnx", "torch"]:
        """Which runtime embeds (``"torch"`` after a fallback); resolves the model."""
        return "onnx" if isinstance(self._resolve(), _OnnxModel) else "torch"

    @property
    def dimension(self) -> int:
        """Embedding dimension of the model."""
        model = self._resolve()
        return model.dimension

    @property
    def export_folder(self) -> Path | None:
        """Folder of the ONNX export in use (``None`` after a fallback to PyTorch)."""
        model = self._resolve()
        return model.folder if isinstance(model, _OnnxModel) else None

    def _forward(
        self, model: _OnnxModel, texts: list[str]
    ) -> tuple[list[Any], list[NDArray[np.float32]]]:
        """Tokenise once, run length-planned batches; each text's encoding and hidden states."""
        encodings = model.tokenizer.encode_batch(texts)
        states: list[NDArray[np.float32]] = [np.empty(0, np.float32)] * len(texts)
        for idx in plan_batches([len(e.ids) for e in encodings], max_batch=self.batch_size):
            width = max(len(encodings[i].ids) for i in idx)
            feed = {n: np.zeros((len(idx), width), dtype=np.int64) for n in model.inputs}
            for row, i in enumerate(idx):
                enc = encodings[i]
                n = len(enc.ids)
                feed["input_ids"][row, :n] = enc.ids
                if "attention_mask" in feed:
                    feed["attention_mask"][row, :n] = 1
                if "token_type_ids" in feed:
                    feed["token_type_ids"][row, :n] = enc.type_ids
            hidden = model.session.run(None, feed)[0]
            for row, i in enumerate(idx):
                states[i] = hidden[row, : len(encodings[i].ids)]
        return encodings, states

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts`` into L2-normalised vectors."""
        model = self._resolve()
        if isinstance(model, SentenceTransformerEmbedder):
            return model.embed(texts)
        if not texts:
            return np.zeros((0, model.dimension), dtype=np.float32)
        try:
            _, states = self._forward(model, list(texts))
        except Exception as exc:
            raise EmbeddingError(self.model_name, exc) from exc
        if model.pooling == "mean":
            pooled = np.stack([s.mean(axis=0) for s in states])
        elif model.pooling == "cls":
            pooled = np.stack([s[0] for s in states])
        else:
            pooled = np.stack([s.max(axis=0) for s in states])
        return normalise_rows(pooled)

    def embed_tokens(self, texts: Sequence[str]) -> list[tuple[list[str], NDArray[np.float32]]]:
        """Word-piece tokens and their normalised contextual embeddings (no special tokens)."""
        model = self._resolve()
        if isinstance(model, SentenceTransformerEmbedder):
            return model.embed_tokens(texts)
        if not texts:
            return []
        try:
            encodings, states = self._forward(model, list(texts))
        except Exception as exc:
            raise EmbeddingError(self.model_name, exc) from exc
        out: list[tuple[list[str], NDArray[np.float32]]] = []
        for enc, state in zip(encodings, states, strict=True):
            keep = [i for i, special in enumerate(enc.special_tokens_mask) if not special]
            out.append(([enc.tokens[i] for i in keep], normalise_rows(state[keep])))
        return out
