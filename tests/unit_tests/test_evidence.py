"""The evidence index: inputs, stable ids, search, limits."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, ToolMessage

from langchain_qgate.errors import InputTooLargeError, InvalidInputError
from langchain_qgate.grounding.evidence.embeddings import CachedEmbedder, HashingEmbedder
from langchain_qgate.grounding.evidence.evidence import EvidenceIndex, content_to_text
from langchain_qgate.schemas import EvidenceChunk


def test_plain_string_is_split_into_sentence_chunks_with_stable_ids(hashing_embedder) -> None:
    text = "Acme was founded in 2020. It has 500 employees. Its CEO is Jane Doe."
    a = EvidenceIndex(text, embedder=hashing_embedder)
    b = EvidenceIndex(text, embedder=HashingEmbedder())
    assert [c.text for c in a.chunks] == [
        "Acme was founded in 2020.",
        "It has 500 employees.",
        "Its CEO is Jane Doe.",
    ]
    assert [c.id for c in a.chunks] == [c.id for c in b.chunks]
    assert a.chunks[1].id.endswith("#1")
    assert text[a.chunks[1].start : a.chunks[1].end] == "It has 500 employees."


def test_document_ids_and_metadata_become_source_ids(hashing_embedder) -> None:
    docs = [
        Document(page_content="Alpha is red.", metadata={"source": "a.md"}),
        Document(page_content="Beta is blue.", id="doc-b"),
    ]
    index = EvidenceIndex(docs, embedder=hashing_embedder)
    assert [c.id for c in index.chunks] == ["a.md#0", "doc-b#0"]
    assert index.chunks[0].metadata == {"source": "a.md"}


def test_tool_message_content_and_document_artifacts(hashing_embedder) -> None:
    plain = ToolMessage(content="Revenue was $10M.", tool_call_id="call_1", name="search")
    with_docs = ToolMessage(
        content="2 documents",
        tool_call_id="call_2",
        artifact=[Document(page_content="Gamma is green.", metadata={"source": "g"})],
    )
    index = EvidenceIndex([plain, with_docs], embedder=hashing_embedder)
    assert [c.id for c in index.chunks] == ["tool-call_1#0", "g#0"]
    assert index.chunks[0].metadata == {"tool": "search"}


def test_content_blocks_are_flattened() -> None:
    blocks = [{"type": "text", "text": "Hello."}, {"type": "image_url", "image_url": "x"}, "Bye."]
    assert content_to_text(blocks) == "Hello.\nBye."
    assert content_to_text(AIMessage(content=blocks).content) == "Hello.\nBye."


def test_dicts_and_ready_chunks_are_accepted(hashing_embedder) -> None:
    chunk = EvidenceChunk(id="kb-7", text="Delta is gold.", source_id="kb")
    index = EvidenceIndex(
        [{"page_content": "Epsilon is grey.", "metadata": {"id": "e"}}, chunk],
        embedder=hashing_embedder,
    )
    assert [c.id for c in index.chunks] == ["e#0", "kb-7"]


def test_duplicate_source_ids_are_disambiguated(hashing_embedder) -> None:
    docs = [Document(page_content="One.", id="x"), Document(page_content="Two.", id="x")]
    index = EvidenceIndex(docs, embedder=hashing_embedder)
    assert [c.id for c in index.chunks] == ["x#0", "x~2#0"]


def test_search_returns_the_most_similar_chunk_first(hashing_embedder) -> None:
    index = EvidenceIndex(
        ["The cat sat on the mat.", "Stock prices fell sharply in March.", "Dogs bark loudly."],
        embedder=hashing_embedder,
    )
    scores, idx = index.search(hashing_embedder.embed(["prices of stock fell in March"]), 2)
    assert index.chunks[int(idx[0][0])].text == "Stock prices fell sharply in March."
    assert scores[0][0] >= scores[0][1]


def test_empty_evidence_searches_to_nothing(hashing_embedder) -> None:
    index = EvidenceIndex([], embedder=hashing_embedder)
    scores, idx = index.search(hashing_embedder.embed(["anything"]), 5)
    assert scores.shape == (1, 0)
    assert idx.shape == (1, 0)


def test_very_long_unpunctuated_text_is_windowed(hashing_embedder) -> None:
    text = " ".join(f"word{i}" for i in range(1000))
    index = EvidenceIndex(text, embedder=hashing_embedder)
    assert len(index) == 13  # 1000 words in windows of 80
    assert all(len(c.text) <= 1000 for c in index.chunks)


def test_approximate_index_past_the_threshold_still_finds_exact_text(hashing_embedder) -> None:
    docs = [f"Item {i} has serial number SN{i:05d} and colour {i % 7}." for i in range(300)]
    index = EvidenceIndex(docs, embedder=hashing_embedder, approximate_threshold=100)
    assert type(index._index).__name__ == "NoneType"  # built lazily
    _, idx = index.search(hashing_embedder.embed([docs[123]]), 1)
    assert type(index._index).__name__ == "IndexHNSWFlat"
    assert index.chunks[int(idx[0][0])].text == docs[123]


def test_too_many_chunks_is_a_clear_error(hashing_embedder) -> None:
    with pytest.raises(InputTooLargeError, match="over the limit"):
        EvidenceIndex(
            ["Alpha is red. Beta is blue. Gamma is green."], embedder=hashing_embedder, max_chunks=2
        )


def test_unsupported_evidence_type_is_a_value_error(hashing_embedder) -> None:
    with pytest.raises(InvalidInputError, match="unsupported evidence type int"):
        EvidenceIndex([42], embedder=hashing_embedder)
    with pytest.raises(ValueError, match="page_content"):
        EvidenceIndex([{"page_content": 5}], embedder=hashing_embedder)
    with pytest.raises(ValueError, match="page_content"):
        EvidenceIndex([{"title": None}], embedder=hashing_embedder)  # a record with no value
    # A record with values is structured evidence: one statement per field.
    index = EvidenceIndex([{"title": "no text"}], embedder=hashing_embedder)
    assert [c.text for c in index.chunks] == ["record.title: no text"]


def test_embeddings_are_cached_by_content(hashing_embedder) -> None:
    cached = CachedEmbedder(hashing_embedder)
    EvidenceIndex(["Alpha is red. Beta is blue."], embedder=cached).vectors  # noqa: B018
    assert (cached.hits, cached.misses) == (0, 2)
    again = EvidenceIndex(["Beta is blue. Alpha is red."], embedder=cached)
    vecs = again.vectors
    assert (cached.hits, cached.misses) == (2, 2)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0)


def test_ten_thousand_chunks_are_indexed_and_searchable(hashing_embedder) -> None:
    docs = [f"Record {i} belongs to customer C{i}." for i in range(10_000)]
    index = EvidenceIndex(docs, embedder=hashing_embedder)
    assert len(index) == 10_000
    _, idx = index.search(hashing_embedder.embed(["Record 4242 belongs to customer C4242."]), 3)
    assert "4242" in index.chunks[int(idx[0][0])].text
