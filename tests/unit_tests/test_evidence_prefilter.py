"""The lexical prefilter: only chunks sharing a claim's words are embedded and searched."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pytest

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.grounding.evidence.embeddings import HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex
from langchain_qgate.grounding.monitor import HallucinationMonitor

if TYPE_CHECKING:
    from numpy.typing import NDArray

FILLER = [f"Unrelated sentence number {w} talks about weather in {w}ville." for w in "abcdefgh"]
EVIDENCE = " ".join(
    [
        *FILLER[:4],
        "Acme was founded in 2020 in Berlin.",
        *FILLER[4:],
        "Acme has 500 employees in Berlin.",
        "The CEO of Acme is Jane Doe.",
    ]
)


class CountingEmbedder:
    """HashingEmbedder that records every call."""

    model_name = "counting"

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        return self.inner.embed(texts)


def test_candidates_rank_chunks_by_the_claims_words_and_unite_over_claims() -> None:
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    founded = index.views.index("Acme was founded in 2020 in Berlin.")
    ceo = index.views.index("The CEO of Acme is Jane Doe.")
    staff = index.views.index("Acme has 500 employees in Berlin.")
    assert index.candidates(["Acme was founded in Berlin."], 1) == [founded]
    assert index.candidates(["Jane Doe is the CEO."], 1) == [ceo]
    both = index.candidates(["Acme was founded in Berlin.", "Jane Doe is the CEO."], 1)
    assert both == sorted([founded, ceo])
    # Ties go to the earlier chunk: "Berlin" alone is in two chunks.
    assert index.candidates(["Berlin"], 2) == sorted([founded, staff])


def test_candidates_fill_up_with_the_first_chunks_when_few_share_a_word() -> None:
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    ceo = index.views.index("The CEO of Acme is Jane Doe.")
    assert index.candidates(["Jane Doe is the CEO."], 3) == sorted([ceo, 0, 1])
    assert index.candidates(["Zanzibar"], 2) == [0, 1]


def test_candidates_are_none_when_every_chunk_is_kept() -> None:
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    assert index.candidates(["anything"], len(index)) is None
    assert index.candidates(["Acme", "weather"], len(index) - 1) is None
    with pytest.raises(ValueError, match="per_query"):
        index.candidates(["Acme"], 0)


def test_only_candidate_chunks_are_embedded_with_the_queries_in_one_call() -> None:
    emb = CountingEmbedder()
    index = EvidenceIndex(EVIDENCE, embedder=emb)
    claims = ["Acme was founded in Berlin."]
    rows = index.candidates(claims, 2)
    assert rows is not None
    vecs = index.embed_queries(claims, rows=rows)
    assert emb.calls == [[index.views[i] for i in rows] + claims]
    scores, found = index.search(vecs, 5, rows=rows)
    assert found.shape == (1, 2)
    assert set(found[0].tolist()) == set(rows)
    assert scores[0, 0] >= scores[0, 1]
    # Searching again embeds nothing; a later full build embeds only the other chunks.
    index.search(vecs, 5, rows=rows)
    assert len(emb.calls) == 1
    assert index.vectors.shape == (len(index), HashingEmbedder().dim)
    assert emb.calls[1] == [v for i, v in enumerate(index.views) if i not in rows]


def test_search_over_candidates_matches_the_full_search_restricted_to_them() -> None:
    index = EvidenceIndex(EVIDENCE, embedder=HashingEmbedder())
    claims = ["Acme has 500 employees.", "Jane Doe runs Acme."]
    rows = index.candidates(claims, 3)
    assert rows is not None
    vecs = HashingEmbedder().embed(claims)
    scores, found = index.search(vecs, 3, rows=rows)
    exact = vecs @ HashingEmbedder().embed([index.views[i] for i in rows]).T
    for q in range(len(claims)):
        expected = [rows[j] for j in np.argsort(-exact[q], kind="stable")[:3]]
        assert found[q].tolist() == expected
        np.testing.assert_allclose(scores[q], np.sort(exact[q])[::-1][:3], rtol=1e-6)


def test_monitor_embeds_only_the_prefiltered_chunks() -> None:
    emb = CountingEmbedder()
    monitor = HallucinationMonitor(embedder=emb, policy=GroundingPolicy(prefilter_k=5))
    report = monitor.verify_grounding("Acme was founded in 2019.", EVIDENCE)
    assert len(emb.calls) == 1
    assert len(emb.calls[0]) == 5 + 1  # five chunks and the claim
    assert report.verdicts[0].contradiction is not None
    assert report.verdicts[0].evidence[0].quote == "Acme was founded in 2020 in Berlin."


def test_monitor_without_prefilter_embeds_every_chunk() -> None:
    emb = CountingEmbedder()
    monitor = HallucinationMonitor(embedder=emb, policy=GroundingPolicy(prefilter_k=None))
    monitor.verify_grounding("Acme was founded in 2019.", EVIDENCE)
    assert len(emb.calls[0]) == len(EvidenceIndex(EVIDENCE, embedder=emb)) + 1


def test_verdicts_do_not_depend_on_whether_the_index_was_built_before() -> None:
    monitor = HallucinationMonitor(embedder=HashingEmbedder())
    answer = "Acme was founded in 2019. Jane Doe is the CEO. It has 500 staff."
    fresh = monitor.verify_grounding(answer, EVIDENCE)
    index = monitor.build_index(EVIDENCE)
    index.vectors  # noqa: B018 - every chunk embedded, the full index built
    reused = monitor.verify_grounding(answer, index)
    assert fresh.model_dump() == reused.model_dump()


def test_prefilter_keeps_at_least_top_k_chunks_per_claim() -> None:
    emb = CountingEmbedder()
    policy = GroundingPolicy(top_k=7, prefilter_k=2)
    HallucinationMonitor(embedder=emb, policy=policy).verify_grounding("Acme is old.", EVIDENCE)
    assert len(emb.calls[0]) == 7 + 1


def test_policy_rejects_a_prefilter_below_one() -> None:
    with pytest.raises(ValueError, match="prefilter_k"):
        GroundingPolicy(prefilter_k=0)
    assert GroundingPolicy(prefilter_k=None).prefilter_k is None
    assert GroundingPolicy().prefilter_k == 5
