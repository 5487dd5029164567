"""The evidence index: chunks with stable ids, embeddings, FAISS search, lexical views.

Evidence comes as plain strings, LangChain ``Document``s, ``ToolMessage``s (content and
``Document`` artifacts), ``EvidenceChunk``s or dicts with ``page_content``/``content``/``text``.
Each source is split into sentences (long ones into word windows) with stable ids
``<source id>#<n>``; the same text from the same source gets the same ids in every run.
Invisible format characters (zero-width space, bidi controls, soft hyphen: Unicode category
Cf) are left out of every chunk's text and view, so "20\\u200b19" reads as the year it shows;
a chunk's ``start``/``end`` still point into its source as given.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from langchain_qgate._text import repair_text, strip_format, without_format
from langchain_qgate.errors import InputTooLargeError, InvalidInputError
from langchain_qgate.grounding.checks.checks import (
    Quantity,
    content_stems,
    extract_entities,
    extract_quantities,
    negation_count,
    untokenise,
)
from langchain_qgate.grounding.checks.slots import Passage, passage
from langchain_qgate.grounding.claims._compound import open_subject, resolve_pronoun
from langchain_qgate.grounding.claims.segment import split_sentences
from langchain_qgate.grounding.evidence.structured import (
    FIELD_KEY,
    StructuredSource,
    field_view,
    recognise,
)
from langchain_qgate.schemas import EvidenceChunk

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from langchain_qgate.grounding.evidence.embeddings import Embedder

__all__ = ["EvidenceIndex", "EvidenceInput", "content_to_text", "to_sources"]

EvidenceInput = Any
"""str | Document | BaseMessage | EvidenceChunk | Mapping | EvidenceIndex, or a sequence."""

_MAX_CHUNK_CHARS = 600
_PARALLEL_SEARCH_WORK = 2_000_000  # chunks x queries from which FAISS may use all cores
_FAISS_THREADS_LOCK = threading.Lock()
_WINDOW_WORDS = 80
_MAX_NESTING = 32  # nested evidence sequences (a list of lists of ...)


class _Containers:
    """The containers of one walk, each read once per object (``to_sources``,
    ``content_to_text``).

    A container met again inside itself is a cycle (an error); one met again elsewhere (a
    list shared by several paths: ``l = [l, l]`` twenty times) is skipped, so the walk is
    linear in the distinct objects, never in the paths. The containers read are kept
    alive until the walk ends, so no id is reused by another object.
    """

    def __init__(self, field: str, what: str, plural: str) -> None:
        self.field, self.what, self.plural = field, what, plural
        self.open: set[int] = set()  # being read (cycle guard)
        self.done: dict[int, Any] = {}  # read already: id -> the container

    @contextmanager
    def enter(self, item: Any) -> Iterator[bool]:
        """Yield whether ``item`` is to be read now (False: it was read already)."""
        key = id(item)
        if key in self.open:
            raise InvalidInputError(self.field, f"a {self.what} contains itself")
        if key in self.done:
            yield False
            return
        if len(self.open) >= _MAX_NESTING:
            raise InvalidInputError(
                self.field, f"{self.plural} nested more than {_MAX_NESTING} levels deep"
            )
        self.open.add(key)
        try:
            yield True
        finally:
            self.open.discard(key)
        self.done[key] = item


def content_to_text(content: Any) -> str:
    """Flatten LangChain message content (a string or a list of content blocks) to text.

    A list of blocks shared by several paths is read once; one that contains itself is
    ``InvalidInputError``.
    """
    return _content_text(content, _Containers("content", "content list", "content lists"))


def _content_text(content: Any, seen: _Containers) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        if content.get("type") in (None, "text", "output_text"):
            return str(content.get("text", ""))
        return ""
    if isinstance(content, Iterable) and not isinstance(content, bytes | bytearray):
        with seen.enter(content) as fresh:
            parts = [_content_text(block, seen) for block in content] if fresh else []
        return "\n".join(p for p in parts if p)
    raise InvalidInputError("content", f"unsupported content type {type(content).__name__}")


def _hash_id(text: str) -> str:
    return (
        "src-" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=5).hexdigest()
    )


@dataclass(frozen=True)
class _Source:
    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


def _from_document(doc: Any) -> _Source:
    meta = dict(getattr(doc, "metadata", None) or {})
    text = str(doc.page_content)
    sid = getattr(doc, "id", None) or meta.get("id") or meta.get("doc_id") or meta.get("source")
    return _Source(str(sid) if sid else _hash_id(text), text, meta)


def to_sources(evidence: EvidenceInput) -> list[_Source | EvidenceChunk | StructuredSource]:
    """Normalise any supported evidence input into sources (or ready-made chunks).

    Sequences are read in order, each sequence object once: one shared by several paths
    (``[docs, docs]``, ``l = [l, l]`` twenty times) gives its sources once, in time linear
    in the distinct objects. A sequence that contains itself, or sequences nested more than
    32 levels deep, are ``InvalidInputError``. An item (a string, a dict, a document, a
    message) met again gives its sources again without being read again (``[record] *
    1000`` parses the record once).
    """
    from langchain_core.documents import Document
    from langchain_core.messages import BaseMessage, ToolMessage

    out: list[_Source | EvidenceChunk | StructuredSource] = []
    sequences = _Containers("evidence", "sequence of evidence", "sequences")
    items = (str, bytes, bytearray, Mapping, Document, BaseMessage, EvidenceChunk)
    read: dict[int, tuple[Any, int, int]] = {}  # id -> (item, its first source, end)

    def visit(item: Any) -> None:
        if item is None:
            return
        if isinstance(item, Iterable) and not isinstance(item, items):
            with sequences.enter(item) as fresh:
                for sub in item if fresh else ():
                    visit(sub)
            return
        if id(item) in read:  # the same object again: the same sources, not read again
            _, first, end = read[id(item)]
            out.extend(out[first:end])
            return
        first = len(out)
        visit_item(item)
        read[id(item)] = (item, first, len(out))  # the item kept alive: its id stays its own

    def visit_item(item: Any) -> None:
        # Structured evidence (JSON, records, tables) becomes fields (evidence/structured.py)
        fields = recognise(item) if isinstance(item, str | Document | Mapping) else None
        if fields is not None:
            out.append(fields)
        elif isinstance(item, EvidenceChunk):
            out.append(item)
        elif isinstance(item, str):
            if item.strip():
                out.append(_Source(_hash_id(item), item))
        elif isinstance(item, Document):
            out.append(_from_document(item))
        elif isinstance(item, ToolMessage):
            artifact = item.artifact
            docs = artifact if isinstance(artifact, list) else [artifact]
            if artifact is not None and all(isinstance(d, Document) for d in docs):
                for d in docs:
                    visit(d)
                return
            out.extend(_from_tool_message(item))
        elif isinstance(item, BaseMessage):
            text = content_to_text(item.content)
            if text.strip():
                out.append(_Source(_hash_id(text), text))
        elif isinstance(item, Mapping):
            out.append(_from_mapping(item))
        elif isinstance(item, EvidenceIndex):
            out.extend(item.chunks)
        else:
            raise InvalidInputError(
                "evidence",
                f"unsupported evidence type {type(item).__name__}; pass strings, "
                "Documents, ToolMessages, EvidenceChunks or dicts",
            )

    visit(evidence)
    return out


def _from_tool_message(item: Any) -> list[_Source | StructuredSource]:
    """A tool result without documents: its fields (JSON content or artifact), else its text."""
    if (fields := recognise(item)) is not None:
        return [fields]
    text = content_to_text(item.content)
    if not text.strip():
        return []
    meta = {"tool": item.name} if item.name else {}
    return [_Source(f"tool-{item.tool_call_id}", text, meta)]


def _from_mapping(item: Mapping[str, Any]) -> _Source:
    """A document as a mapping: its text field, metadata and id."""
    text = item.get("page_content", item.get("content", item.get("text")))
    if not isinstance(text, str):
        raise InvalidInputError(
            "evidence", "a mapping needs a string 'page_content', 'content' or 'text' field"
        )
    raw_meta = item.get("metadata") or {}
    if not isinstance(raw_meta, Mapping):
        raise InvalidInputError(
            "evidence",
            f"a mapping's 'metadata' must be a mapping, got {type(raw_meta).__name__}",
        )
    meta = dict(raw_meta)
    sid = item.get("id") or meta.get("id") or meta.get("source")
    return _Source(str(sid) if sid else _hash_id(text), text, meta)


def _chunk_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for start, end in split_sentences(text):
        if end - start <= _MAX_CHUNK_CHARS:
            spans.append((start, end))
            continue
        # A very long "sentence" (tables, unpunctuated dumps): overlapping-free word windows.
        words = [(m_start, m_start + len(w)) for m_start, w in _iter_words(text, start, end)]
        for i in range(0, len(words), _WINDOW_WORDS):
            block = words[i : i + _WINDOW_WORDS]
            spans.append((block[0][0], block[-1][1]))
    return [(s, e) for s, e in spans if any(ch.isalnum() for ch in text[s:e])]


def _iter_words(text: str, start: int, end: int) -> Iterable[tuple[int, str]]:
    pos = start
    for word in text[start:end].split():
        pos = text.index(word, pos)
        yield pos, word
        pos += len(word)


@dataclass
class _Batch:
    """What one :meth:`EvidenceIndex.add` call chunks, before it joins the index."""

    new: list[EvidenceChunk] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)


class EvidenceIndex:
    """Chunks of evidence with embeddings and a FAISS inner-product index.

    Build it once and pass it to ``verify_grounding`` many times: chunking and embedding are
    done once; embeddings are also cached by content hash in the embedder.

    Args:
        evidence: Initial evidence (anything ``add`` accepts).
        embedder: The sentence embedder (the bundled default when None).
        approximate_threshold: From this many chunks on, an HNSW (approximate) index is used.
        max_chunks: More chunks raise ``InputTooLargeError``.

    Example:
        >>> index = EvidenceIndex(["Acme was founded in 2020."], embedder=HashingEmbedder())
        >>> index.chunks[0].id
        'src-...#0'
    """

    def __init__(
        self,
        evidence: EvidenceInput = None,
        *,
        embedder: Embedder | None = None,
        approximate_threshold: int = 20_000,
        max_chunks: int = 40_000,
    ) -> None:
        if embedder is None:
            from langchain_qgate.grounding.evidence.embeddings import default_embedder

            embedder = default_embedder()
        self.embedder = embedder
        self.approximate_threshold = approximate_threshold
        self.max_chunks = max_chunks
        self.chunks: list[EvidenceChunk] = []
        # What each chunk says, as matched: treebank tokens undone and a leading pronoun
        # ("It was opened in 2000") replaced by the previous sentence's subject.
        self.views: list[str] = []
        # Chunks opening on a subject they do not name ("It was discovered in 1935."; a chunk
        # cut from its page): the claim may name it.
        self.open: list[bool] = []
        self._ids: set[str] = set()
        self._source_ids: set[str] = set()
        self._next_suffix: dict[str, int] = {}  # base id -> first "~n" not yet tried
        # What was left unread (a structured source cut at a cap), for the report.
        self.notes: list[str] = []
        self._vectors: NDArray[np.float32] | None = None
        self._embedded: NDArray[np.bool_] = np.zeros(0, dtype=bool)  # rows of _vectors filled
        self._index: Any = None
        self._lock = threading.Lock()
        # Lexical views of single chunks, computed when first asked for.
        self._stems: dict[int, set[str]] = {}
        self._entities: dict[int, list[str]] = {}
        self._negations: dict[int, int] = {}
        self._passages: dict[int, Passage] = {}
        self._records: dict[tuple[str, int], list[int]] = {}
        if evidence is not None:
            self.add(evidence)

    def __len__(self) -> int:
        return len(self.chunks)

    def add(self, evidence: EvidenceInput) -> list[EvidenceChunk]:
        """Chunk and add evidence; returns the new chunks."""
        batch = _Batch()
        try:
            self._add_sources(evidence, batch)
        except InputTooLargeError:  # nothing of this call stays in the index
            self._ids.difference_update(c.id for c in batch.new)
            self._source_ids.difference_update(batch.roots)
            raise
        new, views, opened, notes = batch.new, batch.views, batch.opened, batch.notes
        with self._lock:
            self.chunks.extend(new)
            self.views.extend(views)
            self.open.extend(opened)
            self.notes.extend(notes)
            self._index = None
            self.__dict__.pop("all_stems", None)
            self.__dict__.pop("all_quantities", None)
            self.__dict__.pop("_quantities_by_chunk", None)
            self.__dict__.pop("all_entities_text", None)
            self.__dict__.pop("_postings", None)
        return new

    def _add_sources(self, evidence: EvidenceInput, batch: _Batch) -> None:
        """Chunk ``evidence`` into ``batch``; stops with ``InputTooLargeError`` as soon as the
        index would pass ``max_chunks``, so a huge input is refused before it is all chunked."""
        new, views, opened, notes, roots = (
            batch.new,
            batch.views,
            batch.opened,
            batch.notes,
            batch.roots,
        )

        def room() -> None:
            if len(self.chunks) + len(new) > self.max_chunks:
                raise InputTooLargeError(
                    "evidence",
                    len(self.chunks) + len(new),
                    self.max_chunks,
                    "chunks",
                    setting="GroundingPolicy.max_evidence_chunks",
                )

        for src in to_sources(evidence):
            if isinstance(src, EvidenceChunk):
                # Lone surrogates -> U+FFFD in everything that reaches the model or a report.
                fixed = {k: repair_text(getattr(src, k)) for k in ("id", "text", "source_id")}
                same = all(v == getattr(src, k) for k, v in fixed.items())
                given = src if same else src.model_copy(update=fixed)
                if given.id not in self._ids:
                    new.append(given)
                    views.append(untokenise(strip_format(given.text)))
                    opened.append(open_subject(views[-1]))
                    self._ids.add(given.id)
                    room()
                continue
            if isinstance(src, StructuredSource):  # one chunk per field, id = its path
                root = (
                    src.root if src.root not in self._source_ids else self._free_source_id(src.root)
                )
                self._source_ids.add(root)
                roots.append(root)
                if src.cut:
                    notes.append(f"evidence {root}: {src.cut}")
                for chunk in src.chunks(root):
                    if chunk.id not in self._ids:
                        new.append(chunk)
                        views.append(untokenise(field_view(chunk) or chunk.text))
                        opened.append(False)
                        self._ids.add(chunk.id)
                        room()
                continue
            base = repair_text(src.id)
            sid = base if base not in self._source_ids else self._free_source_id(base)
            self._source_ids.add(sid)
            roots.append(sid)
            # Lone surrogates -> U+FFFD (same offsets); format characters are not read
            # ("20\u200b19" is 2019) while start/end stay offsets in the source as given.
            plain = without_format(repair_text(src.text))
            text = plain.text
            previous = ""
            for k, (s, e) in enumerate(_chunk_spans(text)):
                view = resolve_pronoun(untokenise(text[s:e]), previous)
                views.append(view)
                opened.append(open_subject(view))
                previous = view
                chunk = EvidenceChunk(
                    id=f"{sid}#{k}",
                    text=text[s:e],
                    source_id=sid,
                    start=plain.start(s),
                    end=plain.end(e),
                    metadata=src.metadata,
                )
                new.append(chunk)
                self._ids.add(chunk.id)
                room()

    def _free_source_id(self, base: str) -> str:
        """``base~n`` with the least free ``n >= 2``; amortised O(1) per duplicate (every
        suffix below the remembered one is taken, as ids are never removed)."""
        n = self._next_suffix.get(base, 2)
        while f"{base}~{n}" in self._source_ids:
            n += 1
        self._next_suffix[base] = n + 1
        return f"{base}~{n}"

    @property
    def vectors(self) -> NDArray[np.float32]:
        """Embeddings of every chunk, shape ``(len(self), dim)`` (embeds the missing ones)."""
        self._ensure_index()
        assert self._vectors is not None
        return self._vectors

    def candidates(self, queries: Sequence[str], per_query: int) -> list[int] | None:
        """The chunks worth embedding for ``queries``: a cheap lexical prefilter.

        For each query, the ``per_query`` chunks whose content words carry the most of the
        query's weight (ties: the earlier chunk; chunks sharing no word fill up the count in
        index order), united over the queries and returned in index order. Deterministic: the
        same queries and evidence give the same chunks.

        Args:
            queries: The texts to be searched for (claims).
            per_query: Chunks kept per query (at least 1).

        Returns:
            Sorted chunk indices, or None when every chunk would be kept.
        """
        if per_query < 1:
            raise ValueError(f"per_query must be >= 1, got {per_query}")
        n = len(self.chunks)
        if n <= per_query:
            return None
        postings = self._postings
        chosen: set[int] = set()
        for query in queries:
            scores: dict[int, float] = {}
            for st, weight in content_stems(untokenise(query)).items():
                for i in postings.get(st, ()):
                    scores[i] = scores.get(i, 0.0) + weight
            best = sorted(scores, key=lambda i: (-scores[i], i))[:per_query]
            if len(best) < per_query:  # too few chunks share a word: the first ones fill up
                taken = set(best)
                best += [i for i in range(n) if i not in taken][: per_query - len(best)]
            chosen.update(best)
            if len(chosen) == n:
                return None
        return sorted(chosen)

    @cached_property
    def _postings(self) -> dict[str, list[int]]:
        """Content-word stem -> the chunks (in index order) that contain it."""
        out: dict[str, list[int]] = {}
        for i in range(len(self.chunks)):
            for st in self.stems(i):
                out.setdefault(st, []).append(i)
        return out

    def embed_queries(
        self,
        queries: Sequence[str],
        *,
        embedder: Embedder | None = None,
        rows: Sequence[int] | None = None,
    ) -> NDArray[np.float32]:
        """Embed ``queries`` (e.g. claims) and make sure the chunks to search are embedded.

        With this index's own embedder (``embedder`` None or the same object), chunks not
        embedded yet and the queries go to the model in ONE call: one set of length-sorted
        batches instead of two. Another embedder embeds the queries on its own.

        Args:
            queries: Texts to embed for ``search``.
            embedder: The embedder the queries must come from; this index's by default.
            rows: Only these chunks need vectors (``candidates``); every chunk when None
                (the search index is then built too).

        Returns:
            The query vectors, shape ``(len(queries), dim)``.
        """
        if embedder is not None and embedder is not self.embedder:
            self._embed_rows(rows)
            return embedder.embed(queries)
        if not queries:
            self._embed_rows(rows)
            assert self._vectors is not None
            return np.zeros((0, self._vectors.shape[1]), dtype=np.float32)
        asked = self._embed_rows(rows, queries)
        return self.embedder.embed(queries) if asked is None else asked

    def _embed_rows(
        self, rows: Sequence[int] | None, queries: Sequence[str] = ()
    ) -> NDArray[np.float32] | None:
        """Embed the chunks ``rows`` (all when None) not embedded yet, with ``queries``.

        Returns the query vectors, or None when nothing had to be embedded.
        """
        if rows is None:
            return self._ensure_index(queries)
        with self._lock:
            self._grow()
            todo = [i for i in rows if not self._embedded[i]]
            if not todo and self._vectors is not None:
                return None
            return self._embed_into(todo, queries)

    def _grow(self) -> None:
        """Extend the embedded-rows mask (and the vectors) to chunks added since."""
        n = len(self.chunks)
        if len(self._embedded) < n:
            self._embedded = np.concatenate(
                [self._embedded, np.zeros(n - len(self._embedded), dtype=bool)]
            )
        if self._vectors is not None and len(self._vectors) < n:
            pad = np.zeros((n - len(self._vectors), self._vectors.shape[1]), dtype=np.float32)
            self._vectors = np.vstack([self._vectors, pad])

    def _embed_into(self, todo: list[int], queries: Sequence[str]) -> NDArray[np.float32]:
        """Embed chunks ``todo`` and ``queries`` in one call; store the chunk rows (locked)."""
        both = self.embedder.embed([*(self.views[i] for i in todo), *queries])
        fresh, asked = both[: len(todo)], both[len(todo) :]
        if self._vectors is None:
            dim = both.shape[1] if both.ndim == 2 else 1
            self._vectors = np.zeros((len(self.chunks), dim), dtype=np.float32)
        if todo:
            self._vectors[todo] = fresh
            self._embedded[todo] = True
        return asked

    def _ensure_index(self, queries: Sequence[str] = ()) -> NDArray[np.float32] | None:
        """Embed every chunk not embedded yet (with ``queries``) and build the search index.

        Returns the query vectors, or None when the index was already built (nothing embedded).
        """
        with self._lock:
            if self._index is not None:
                return None
            import faiss

            self._grow()
            todo = np.flatnonzero(~self._embedded).tolist()
            asked = self._embed_into(todo, queries)
            assert self._vectors is not None
            dim = self._vectors.shape[1] if self._vectors.ndim == 2 else 1
            index: Any
            if len(self.chunks) >= self.approximate_threshold:
                index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
                index.hnsw.efSearch = 128
            else:
                index = faiss.IndexFlatIP(dim)
            if len(self._vectors):
                index.add(self._vectors)
            self._index = index
            return asked

    def search(
        self, queries: NDArray[np.float32], k: int, *, rows: Sequence[int] | None = None
    ) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
        """Top-``k`` chunks by inner product for each query row: ``(scores, indices)``.

        With ``rows``, only those chunks are searched, exactly (ties: the earlier chunk), and
        only they need vectors. Missing neighbours (fewer chunks than ``k``) have index -1.
        """
        if not self.chunks:
            n = len(queries)
            return np.zeros((n, 0), dtype=np.float32), np.zeros((n, 0), dtype=np.int64)
        q = np.ascontiguousarray(queries, dtype=np.float32)
        if rows is not None:
            self._embed_rows(rows)
            vectors = self._vectors
            assert vectors is not None
            pool = np.asarray(rows, dtype=np.int64)
            sims = q @ vectors[pool].T
            order = np.argsort(-sims, axis=1, kind="stable")[:, : min(k, len(pool))]
            return np.take_along_axis(sims, order, axis=1), pool[order]
        self._ensure_index()
        k = min(k, len(self.chunks))
        if len(self.chunks) * len(q) >= _PARALLEL_SEARCH_WORK:
            scores, idx = self._index.search(q, k)
            return scores, idx
        # Small searches: FAISS's OpenMP threads cost ~1000x the search itself on a busy
        # machine, so run single-threaded and restore the caller's setting.
        import faiss

        with _FAISS_THREADS_LOCK:
            before = faiss.omp_get_max_threads()
            faiss.omp_set_num_threads(1)
            try:
                scores, idx = self._index.search(q, k)
            finally:
                faiss.omp_set_num_threads(before)
        return scores, idx

    def stems(self, i: int) -> set[str]:
        """Content-word stems of chunk ``i`` (computed once, on first use)."""
        found = self._stems.get(i)
        if found is None:
            found = self._stems.setdefault(i, set(content_stems(self.views[i])))
        return found

    @cached_property
    def all_stems(self) -> set[str]:
        """Content-word stems of all evidence."""
        out: set[str] = set()
        for i in range(len(self.chunks)):
            out |= self.stems(i)
        return out

    @cached_property
    def all_quantities(self) -> list[tuple[int, Quantity]]:
        """Every quantity in the evidence, with the index of its chunk."""
        return [(i, q) for i, v in enumerate(self.views) for q in extract_quantities(v)]

    @cached_property
    def all_entities_text(self) -> str:
        """All evidence text, lower-cased, for entity look-up."""
        return "\n".join(v.lower() for v in self.views)

    @cached_property
    def _quantities_by_chunk(self) -> dict[int, list[Quantity]]:
        out: dict[int, list[Quantity]] = {}
        for j, q in self.all_quantities:
            out.setdefault(j, []).append(q)
        return out

    def chunk_quantities(self, i: int) -> list[Quantity]:
        """Quantities of chunk ``i``."""
        return self._quantities_by_chunk.get(i, [])

    def chunk_entities(self, i: int) -> list[str]:
        """Entities of chunk ``i`` (computed once, on first use; a new list each call)."""
        found = self._entities.get(i)
        if found is None:
            found = self._entities.setdefault(i, [e for e, _, _ in extract_entities(self.views[i])])
        return list(found)

    def chunk_negations(self, i: int) -> int:
        """Number of negation cues in chunk ``i`` (computed once, on first use)."""
        found = self._negations.get(i)
        if found is None:
            found = self._negations.setdefault(i, negation_count(self.views[i]))
        return found

    def passage(self, i: int) -> Passage:
        """Chunk ``i`` prepared for slot alignment (computed once, on first use)."""
        found = self._passages.get(i)
        if found is None:
            found = self._passages.setdefault(i, passage(self.views[i]))
        return found

    def record_fields(self, i: int) -> list[tuple[str, str]]:
        """``(id, text)`` of the chunks of chunk ``i``'s source, chunk ``i`` first (the
        fields of one record, for the pair model's window)."""
        sid = self._record_of(i)
        key = (sid, len(self.chunks))
        found = self._records.get(key)
        if found is None:
            found = [j for j in range(len(self.chunks)) if self._record_of(j) == sid]
            if len(self._records) > 64:
                self._records.clear()
            self._records[key] = found
        order = [i, *(j for j in found if j != i)]
        return [(self.chunks[j].id, self.chunks[j].text) for j in order]

    def _record_of(self, i: int) -> str:
        chunk = self.chunks[i]
        info = chunk.metadata.get(FIELD_KEY) if chunk.metadata else None
        record = info.get("record") if isinstance(info, dict) else None
        return record if isinstance(record, str) else chunk.source_id

    def ids(self) -> Sequence[str]:
        """Chunk ids in index order."""
        return [c.id for c in self.chunks]
