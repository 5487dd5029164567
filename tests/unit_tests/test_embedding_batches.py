"""Length-aware batching of the sentence-transformers embedder (no model: a scripted fake)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from langchain_qgate.grounding.evidence.embeddings import (
    HashingEmbedder,
    SentenceTransformerEmbedder,
    plan_batches,
)

_SPECIALS = ["[CLS]", "[SEP]"]


class _FakeTokenizer:
    """One token per word, between [CLS] and [SEP]; ids are positions in a growing vocab."""

    all_special_tokens = _SPECIALS

    def __init__(self) -> None:
        self.vocab: list[str] = list(_SPECIALS)

    def _id(self, token: str) -> int:
        if token not in self.vocab:
            self.vocab.append(token)
        return self.vocab.index(token)

    def __call__(
        self, texts: list[str], *, truncation: bool, max_length: int
    ) -> dict[str, list[list[int]]]:
        ids = []
        for text in texts:
            words = text.split()[: max_length - 2] if truncation else text.split()
            ids.append([0, *(self._id(w) for w in words), 1])
        return {"input_ids": ids}

    def convert_ids_to_tokens(self, ids: Sequence[int]) -> list[str]:
        return [self.vocab[i] for i in ids]


class _Tensor:
    def __init__(self, arr: np.ndarray) -> None:
        self.arr = arr

    def detach(self) -> _Tensor:
        return self

    def cpu(self) -> _Tensor:
        return self

    def numpy(self) -> np.ndarray:
        return self.arr


class _FakeModel:
    """Encodes like HashingEmbedder and records the batches it was given."""

    max_seq_length = 6

    def __init__(self, *, with_tokenizer: bool = True) -> None:
        if with_tokenizer:
            self.tokenizer = _FakeTokenizer()
        self.calls: list[list[str]] = []
        self.hashing = HashingEmbedder(dim=16)

    def encode(self, texts: list[str], **kwargs: Any) -> Any:
        assert kwargs["batch_size"] == len(texts), "one forward pass per planned batch"
        self.calls.append(list(texts))
        if kwargs.get("output_value") == "token_embeddings":
            out = []
            for text in texts:
                words = ["[CLS]", *text.split()[: self.max_seq_length - 2], "[SEP]"]
                out.append(_Tensor(self.hashing.embed(words) * 3.0))
            return out
        return self.hashing.embed(texts)

    def get_embedding_dimension(self) -> int:
        return 16


class _FakeEmbedder(SentenceTransformerEmbedder):
    def __init__(self, fake: _FakeModel, *, batch_size: int = 64) -> None:
        super().__init__("fake", batch_size=batch_size)
        self.fake = fake

    @property
    def model(self) -> Any:
        return self.fake


def test_plan_gives_a_long_text_its_own_batch_and_groups_similar_ones() -> None:
    assert plan_batches([120, 9, 10, 8], overhead=20) == [[0], [2, 1, 3]]


def test_plan_covers_every_text_once_longest_first_within_the_size_limit() -> None:
    lengths = [7, 40, 3, 3, 90, 12, 12, 5, 64, 8, 30, 2]
    batches = plan_batches(lengths, max_batch=3, overhead=16)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(1 <= len(b) <= 3 for b in batches)
    flat = [lengths[i] for b in batches for i in b]
    assert flat == sorted(lengths, reverse=True)


def test_plan_with_a_huge_call_cost_makes_one_batch_and_ties_keep_input_order() -> None:
    assert plan_batches([5, 50, 5, 7], overhead=10_000) == [[1, 3, 0, 2]]


def test_plan_without_call_cost_never_pads() -> None:
    lengths = [4, 9, 4, 9, 1]
    for batch in plan_batches(lengths, overhead=0):
        assert len({lengths[i] for i in batch}) == 1


def test_plan_of_nothing_is_empty_and_bad_options_are_rejected() -> None:
    assert plan_batches([]) == []
    with pytest.raises(ValueError, match="max_batch"):
        plan_batches([1], max_batch=0)
    with pytest.raises(ValueError, match="overhead"):
        plan_batches([1], overhead=-1)


def test_embed_returns_rows_in_input_order_whatever_the_batches() -> None:
    fake = _FakeModel()
    texts = ["a b c d e f g", "x", "one two", "x", "p q r s"]
    vecs = _FakeEmbedder(fake, batch_size=2).embed(texts)
    np.testing.assert_array_equal(vecs, fake.hashing.embed(texts))
    assert vecs.dtype == np.float32
    assert all(len(call) <= 2 for call in fake.calls)
    assert sorted(t for call in fake.calls for t in call) == sorted(texts)


def test_embed_batches_texts_of_similar_token_length_together() -> None:
    fake = _FakeModel()
    fake.max_seq_length = 512
    long = [" ".join(f"w{i}" for i in range(200)), " ".join(f"v{i}" for i in range(190))]
    short = ["a", "b", "c"]
    vecs = _FakeEmbedder(fake).embed([short[0], long[0], short[1], long[1], short[2]])
    # Padding three one-word texts to 200 tokens costs more than a second forward pass.
    assert fake.calls == [long, short]
    np.testing.assert_array_equal(vecs[1], fake.hashing.embed([long[0]])[0])


def test_embed_plans_on_truncated_token_lengths() -> None:
    fake = _FakeModel()  # max_seq_length 6: every text below is 6 tokens once truncated
    texts = ["a b c d", " ".join(f"w{i}" for i in range(300)), "e f g h"]
    _FakeEmbedder(fake).embed(texts)
    assert fake.calls == [texts]


def test_embed_without_a_tokenizer_falls_back_to_fixed_batches_in_order() -> None:
    fake = _FakeModel(with_tokenizer=False)
    texts = [f"text {i}" for i in range(5)]
    vecs = _FakeEmbedder(fake, batch_size=2).embed(texts)
    assert fake.calls == [texts[0:2], texts[2:4], texts[4:5]]
    np.testing.assert_array_equal(vecs, fake.hashing.embed(texts))


def test_embed_tokens_keeps_input_order_drops_specials_and_normalises() -> None:
    fake = _FakeModel()
    texts = ["alpha beta gamma delta", "x", "one two"]
    out = _FakeEmbedder(fake).embed_tokens(texts)
    assert [toks for toks, _ in out] == [["alpha", "beta", "gamma", "delta"], ["x"], ["one", "two"]]
    for toks, arr in out:
        assert arr.shape == (len(toks), 16)
        np.testing.assert_allclose(np.linalg.norm(arr, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(out[1][1][0], fake.hashing.embed(["x"])[0], rtol=1e-5)
