"""The ONNX Runtime embedder: same vectors as sentence-transformers, export cached, fallbacks.

Models here are tiny randomly initialised BERTs saved as sentence-transformers folders, so the
export and the comparison run in seconds without the bundled model.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import EmbeddingError
from langchain_qgate.grounding.evidence import onnx_embedder
from langchain_qgate.grounding.evidence.embeddings import (
    CachedEmbedder,
    SentenceTransformerEmbedder,
    default_embedder,
)
from langchain_qgate.grounding.evidence.onnx_embedder import OnnxEmbedder, onnx_cache_dir

from ._tiny_models import save_tiny_bert

TEXTS = [
    "Acme was founded in 2019 in Berlin.",
    "The sky is blue.",
    "x",
    "Héllo wörld, ümlauts and 日本語 text.",
    "A long sentence that goes on and on. " * 40,  # past max_seq_length: truncated alike
]


def _tiny_st_folder(root: Path, name: str, pooling: str, *, extra_module: bool = False) -> Path:
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer import modules as models
    from transformers import BertModel

    hf_dir = save_tiny_bert(root / f"{name}-hf", BertModel)
    word = models.Transformer(str(hf_dir), max_seq_length=64)
    pool = models.Pooling(32, pooling_mode=pooling)
    modules: list[torch.nn.Module] = [word, pool, models.Normalize()]
    if extra_module:
        modules.insert(2, models.Dense(32, 16))
    out = root / name
    SentenceTransformer(modules=modules, device="cpu").save(str(out))
    return out


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny-st")
    return {
        "mean": _tiny_st_folder(root, "mean", "mean"),
        "cls": _tiny_st_folder(root, "cls", "cls"),
        "max": _tiny_st_folder(root, "max", "max"),
        "dense": _tiny_st_folder(root, "dense", "mean", extra_module=True),
    }


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    onnx_embedder._LOADED.clear()
    return tmp_path / "cache"


@pytest.mark.parametrize("pooling", ["mean", "cls", "max"])
def test_onnx_vectors_equal_sentence_transformers(folders, cache, pooling) -> None:
    onnx = OnnxEmbedder(str(folders[pooling]), cache_dir=cache, fallback=False)
    torch_vecs = SentenceTransformerEmbedder(str(folders[pooling])).embed(TEXTS)
    vecs = onnx.embed(TEXTS)
    assert onnx.backend == "onnx"
    assert vecs.shape == (len(TEXTS), 32)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(vecs, torch_vecs, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def test_onnx_token_embeddings_equal_sentence_transformers(folders, cache) -> None:
    onnx = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False)
    expected = SentenceTransformerEmbedder(str(folders["mean"])).embed_tokens(TEXTS)
    got = onnx.embed_tokens(TEXTS)
    for (tok_a, vec_a), (tok_b, vec_b) in zip(got, expected, strict=True):
        assert tok_a == tok_b
        assert "[CLS]" not in tok_a
        assert "[SEP]" not in tok_a
        np.testing.assert_allclose(vec_a, vec_b, atol=1e-5)


def test_export_is_done_once_and_reused_by_a_new_process(folders, cache, monkeypatch) -> None:
    first = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False)
    before = first.embed(TEXTS)
    (export,) = list((cache / "onnx").iterdir())
    stamp = (export / "model.onnx").stat().st_mtime_ns
    assert json.loads((export / "meta.json").read_text())["pooling"] == "mean"

    onnx_embedder._LOADED.clear()  # as in a fresh process

    def no_export(*args: object) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_embedder, "_export", no_export)
    again = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False)
    np.testing.assert_array_equal(again.embed(TEXTS), before)
    assert (export / "model.onnx").stat().st_mtime_ns == stamp


def test_changed_model_files_get_a_new_export(folders, cache, tmp_path) -> None:
    model = tmp_path / "model"
    shutil.copytree(folders["mean"], model)
    OnnxEmbedder(str(model), cache_dir=cache, fallback=False).embed(["a"])
    (model / "README.md").write_text("changed", encoding="utf-8")
    onnx_embedder._LOADED.clear()
    OnnxEmbedder(str(model), cache_dir=cache, fallback=False).embed(["a"])
    assert len(list((cache / "onnx").iterdir())) == 2


def test_unsupported_pipeline_raises_without_fallback(folders, cache) -> None:
    with pytest.raises(EmbeddingError, match="ONNX backend"):
        OnnxEmbedder(str(folders["dense"]), cache_dir=cache, fallback=False).embed(["a"])


def test_unsupported_pipeline_falls_back_to_torch(folders, cache, caplog) -> None:
    emb = OnnxEmbedder(str(folders["dense"]), cache_dir=cache)
    vecs = emb.embed(TEXTS[:2])
    assert emb.backend == "torch"
    assert vecs.shape == (2, 16)  # the Dense layer ran: nothing was silently skipped
    np.testing.assert_allclose(
        vecs, SentenceTransformerEmbedder(str(folders["dense"])).embed(TEXTS[:2]), atol=1e-6
    )
    assert "using PyTorch" in caplog.text


def test_hub_name_is_not_exported(cache) -> None:
    with pytest.raises(EmbeddingError, match="not a local folder"):
        OnnxEmbedder("some-org/some-model", cache_dir=cache, fallback=False).embed(["a"])


def test_empty_input_gives_an_empty_matrix(folders, cache) -> None:
    emb = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False)
    assert emb.embed([]).shape == (0, 32)
    assert emb.embed_tokens([]) == []
    assert emb.dimension == 32


def test_concurrent_threads_get_the_same_vectors(folders, cache) -> None:
    emb = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False)
    expected = emb.embed(TEXTS)
    results: list[np.ndarray] = []
    lock = threading.Lock()

    def work() -> None:
        for _ in range(5):
            out = emb.embed(TEXTS)
            with lock:
                results.append(out)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 20
    for out in results:
        np.testing.assert_allclose(out, expected, atol=1e-6)


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="model_name"):
        OnnxEmbedder("")
    with pytest.raises(ValueError, match="batch_size"):
        OnnxEmbedder(batch_size=0)
    with pytest.raises(ValueError, match="num_threads"):
        OnnxEmbedder(num_threads=-1)
    with pytest.raises(ValueError, match="backend"):
        default_embedder(backend="gpu")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="embedding_backend"):
        GroundingPolicy(embedding_backend="gpu")  # type: ignore[arg-type]


def test_cache_dir_order(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("QGATE_CACHE_DIR", str(tmp_path / "q"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert onnx_cache_dir(tmp_path / "explicit") == tmp_path / "explicit"
    assert onnx_cache_dir() == tmp_path / "q"
    monkeypatch.delenv("QGATE_CACHE_DIR")
    assert onnx_cache_dir() == tmp_path / "x" / "langchain_qgate"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert onnx_cache_dir() == tmp_path / "home" / ".cache" / "langchain_qgate"

    def no_home() -> Path:
        raise RuntimeError("no home directory")

    monkeypatch.setattr(Path, "home", no_home)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(onnx_embedder.tempfile, "tempdir", None)
    assert onnx_cache_dir() == tmp_path / "tmp" / "langchain_qgate"


def test_default_embedder_backends_are_distinct_cached_instances() -> None:
    auto = default_embedder()
    assert isinstance(auto, CachedEmbedder)
    assert isinstance(auto.inner, OnnxEmbedder)
    assert default_embedder() is auto
    torch_backed = default_embedder(backend="torch")
    assert isinstance(torch_backed.inner, SentenceTransformerEmbedder)
    assert torch_backed is not auto


def test_quantized_export_is_made_once_next_to_the_float_one_and_is_close(folders, cache) -> None:
    plain = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False)
    exact = plain.embed(TEXTS)
    int8 = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False, quantized=True)
    vecs = int8.embed(TEXTS)
    assert int8.backend == "onnx"
    assert int8.export_folder == plain.export_folder
    (folder,) = list((cache / "onnx").iterdir())
    assert sorted(p.name for p in folder.glob("*.onnx")) == ["model.int8.onnx", "model.onnx"]
    assert vecs.shape == exact.shape
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert float(np.min(np.sum(vecs * exact, axis=1))) > 0.8  # close, not equal
    assert not np.allclose(vecs, exact, atol=1e-5)
    np.testing.assert_array_equal(plain.embed(TEXTS), exact)  # the float model is untouched
    stamp = (folder / "model.int8.onnx").stat().st_mtime_ns
    onnx_embedder._LOADED.clear()  # as in a fresh process: the int8 file is reused
    again = OnnxEmbedder(str(folders["mean"]), cache_dir=cache, fallback=False, quantized=True)
    np.testing.assert_array_equal(again.embed(TEXTS), vecs)
    assert (folder / "model.int8.onnx").stat().st_mtime_ns == stamp


def test_quantized_needs_the_onnx_backend() -> None:
    with pytest.raises(ValueError, match="embedding_quantized"):
        GroundingPolicy(embedding_backend="torch", embedding_quantized=True)
    with pytest.raises(ValueError, match="quantized"):
        default_embedder(backend="torch", quantized=True)
