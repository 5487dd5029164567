"""Claims and chunks embedded in one call; per-chunk lexical views computed lazily, once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pytest

from langchain_qgate.grounding.checks import checks
from langchain_qgate.grounding.evidence.embeddings import CachedEmbedder, HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.monitor import HallucinationMonitor

if TYPE_CHECKING:
    from numpy.typing import NDArray

EVIDENCE = "Acme was founded in 2020 in Berlin. It has 500 employees. Its CEO is Jane Doe."


class CountingEmbedder:
    """HashingEmbedder that records every call."""

    model_name = "counting"

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        return self.inner.embed(texts)


def test_queries_and_unembedded_chunks_go_to_the_embedder_in_one_call() -> None:
    emb = CountingEmbedder()
    index = EvidenceIndex(EVIDENCE, embedder=emb)
    claims = ["Acme has 500 employees.", "Jane Doe runs Acme."]
    vecs = index.embed_queries(claims)
    assert emb.calls == [index.views + claims]
    np.testing.assert_array_equal(vecs, HashingEmbedder().embed(claims))
    np.testing.assert_array_equal(index.vectors, HashingEmbedder().embed(index.views))


def test_search_results_do_not_depend_on_how_the_vectors_were_embedded() -> None:
    claims = ["Acme has 500 employees.", "Acme was founded in 2019."]
    joint = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    alone = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    s1, i1 = joint.search(joint.embed_queries(claims), 2)
    s2, i2 = alone.search(HashingEmbedder().embed(claims), 2)
    np.testing.assert_array_equal(i1, i2)
    np.testing.assert_allclose(s1, s2)


def test_a_built_index_embeds_only_the_queries() -> None:
    emb = CountingEmbedder()
    index = EvidenceIndex(EVIDENCE, embedder=emb)
    index.embed_queries(["first claim."])
    index.embed_queries(["second claim."])
    assert emb.calls[1] == ["second claim."]


def test_chunks_added_later_are_embedded_with_the_next_queries() -> None:
    emb = CountingEmbedder()
    index = EvidenceIndex("Alpha is red.", embedder=emb)
    index.embed_queries(["q1"])
    index.add("Beta is blue.")
    index.embed_queries(["q2"])
    assert emb.calls[1] == ["Beta is blue.", "q2"]
    assert index.vectors.shape == (2, HashingEmbedder().dim)
    assert index.search(HashingEmbedder().embed(["Beta is blue."]), 1)[1][0, 0] == 1


def test_queries_for_another_embedder_are_embedded_by_it_alone() -> None:
    index_emb, query_emb = CountingEmbedder(), CountingEmbedder()
    index = EvidenceIndex(EVIDENCE, embedder=index_emb)
    index.embed_queries(["a claim."], embedder=query_emb)
    assert query_emb.calls == [["a claim."]]
    assert index_emb.calls == [index.views]


def test_no_queries_gives_an_empty_matrix_of_the_right_width() -> None:
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder(dim=32))
    assert index.embed_queries([]).shape == (0, 32)
    empty = EvidenceIndex(None, embedder=HashingEmbedder(dim=32))
    assert empty.embed_queries(["lonely claim"]).shape == (1, 32)


def test_monitor_embeds_claims_and_evidence_in_one_call_and_reuses_a_built_index() -> None:
    emb = CountingEmbedder()
    monitor = HallucinationMonitor(embedder=emb)
    report = monitor.verify_grounding("Acme was founded in 2019. It has 500 employees.", EVIDENCE)
    assert len(emb.calls) == 1
    assert len(report.verdicts) == 2
    index = monitor.build_index(EVIDENCE)
    monitor.verify_grounding("Its CEO is Jane Doe.", index)
    monitor.verify_grounding("Its CEO is Jane Doe.", index)
    assert emb.calls[-1] == ["Its CEO is Jane Doe."]


def test_cached_embedder_caches_claims_and_chunks_from_the_joint_call() -> None:
    cached = CachedEmbedder(HashingEmbedder())
    monitor = HallucinationMonitor(embedder=cached)
    monitor.verify_grounding("It has 500 employees.", EVIDENCE)
    misses = cached.misses
    monitor.verify_grounding("It has 500 employees.", EVIDENCE)
    assert cached.misses == misses
    assert cached.hits >= 4  # three chunks and the claim


def test_chunk_stems_are_computed_on_first_use_and_only_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[str] = []
    real = checks.content_stems

    def counting(text: str) -> dict[str, float]:
        seen.append(text)
        return real(text)

    monkeypatch.setattr("langchain_qgate.grounding.evidence.evidence.content_stems", counting)
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    assert seen == []
    first = index.stems(1)
    assert index.stems(1) is first
    assert seen == ["Acme has 500 employees."]  # the pronoun resolved to the previous subject
    assert "employe" in first or "employee" in first
    assert index.all_stems >= first
    assert len(seen) == 3


def test_all_stems_include_chunks_added_after_first_use() -> None:
    index = EvidenceIndex("Alpha is red.", embedder=HashingEmbedder())
    before = set(index.all_stems)
    index.add("Zebras gallop.")
    assert index.all_stems > before
    assert index.all_stems >= index.stems(1)


def test_chunk_entities_and_negations_are_cached_and_entities_are_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    real = checks.extract_entities

    def counting(text: str) -> list[tuple[str, int, int]]:
        calls.append(text)
        return real(text)

    monkeypatch.setattr("langchain_qgate.grounding.evidence.evidence.extract_entities", counting)
    text = "Jane Doe founded Acme in Berlin. It is not profitable."
    index = EvidenceIndex(text, embedder=HashingEmbedder())
    ents = index.chunk_entities(0)
    assert "Jane Doe" in ents
    ents.append("mutated")
    assert "mutated" not in index.chunk_entities(0)
    assert len(calls) == 1
    assert index.chunk_negations(1) == 1
    assert index.chunk_negations(0) == 0


def test_chunks_are_matched_with_a_leading_pronoun_resolved_and_quoted_as_written() -> None:
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    assert [c.text for c in index.chunks] == [
        "Acme was founded in 2020 in Berlin.",
        "It has 500 employees.",
        "Its CEO is Jane Doe.",
    ]
    assert index.views == [
        "Acme was founded in 2020 in Berlin.",
        "Acme has 500 employees.",
        "Acme's CEO is Jane Doe.",
    ]


def test_treebank_tokens_are_undone_for_matching() -> None:
    index = EvidenceIndex(
        ["Nikolaj -LRB- born 27 July 1970 -RRB- is a Danish actor ."], embedder=HashingEmbedder()
    )
    assert index.views == ["Nikolaj (born 27 July 1970) is a Danish actor."]
