"""Tool gating: warn, or block, when a retrieval is too uncertain to build an answer on.

A retrieval (a query and the items it returned) becomes a :class:`LearningSignal`: an
**entropy** (how weakly and how ambiguously the items match the query) and a **coherence**
(how much the items agree with each other), both in ``[0, 1]``. The pair places the retrieval
in a Johari quadrant and, against the thresholds of a :class:`ToolGatingConfig`, at a
:class:`GatingLevel`. :class:`ToolGatingEvaluator` turns that into a
:class:`ToolGatingWarning` with suggested actions and ``should_gate``.

Example:
    >>> from langchain_qgate import HashingEmbedder
    >>> evaluator = ToolGatingEvaluator(embedder=HashingEmbedder())
    >>> warning = evaluator.assess("stuff", ["Paris is the capital of France."])
    >>> warning.level >= GatingLevel.WARNING
    True
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import BaseModel, ConfigDict, Field

from langchain_qgate.tool_gating.config import (
    GatingLevel,
    JohariQuadrant,
    SuggestedAction,
    ToolGatingConfig,
)
from langchain_qgate.tool_gating.retrieval import to_items
from langchain_qgate.tool_gating.signal import (
    flatness,
    lexical_coherence,
    map_unit,
    mean_pairwise_cosine,
)

if TYPE_CHECKING:
    from langchain_qgate.grounding.evidence.embeddings import Embedder

__all__ = [
    "WARNING_METADATA_KEY",
    "GatedRetriever",
    "LearningSignal",
    "ScoreSource",
    "ToolGatingEvaluator",
    "ToolGatingWarning",
    "compute_learning_signal",
    "gated_retriever",
]

ScoreSource = Literal["auto", "embedder", "metadata"]
"""Where match scores come from: ``"embedder"`` recomputes query-item cosines with the
embedder (known scale); ``"metadata"`` uses the retriever's own scores (``relevance_score``,
``score``... read as relevance in ``[0, 1]``); ``"auto"`` recomputes when an embedder is given,
else uses the retriever's scores when every item has one, else the default embedder."""

_DEFAULT_CONFIG = ToolGatingConfig()

_Unit = Field(ge=0.0, le=1.0)


class LearningSignal(BaseModel):
    """How uncertain one retrieval is.

    Let ``s_1 >= ... >= s_n`` be the items' match scores: query-item cosines mapped by
    ``m = clip((s - similarity_floor) / (similarity_ceiling - similarity_floor), 0, 1)`` when
    an embedder computed them, or the retriever's relevance scores clipped to ``[0, 1]``.

    - ``best_match = m_1``.
    - ``flatness`` = normalized Shannon entropy ``H(p) / ln n`` of ``p = softmax(m / T)``
      (0 when ``n == 1``): 1 when no item stands out.
    - ``entropy = w * (1 - best_match) + (1 - w) * flatness`` with ``w = weak_match_weight``
      (``w = 1`` when ``n == 1``: one item has no distribution to be flat): high when nothing
      matches well, and higher still when the matches are flat.
    - ``coherence`` = mean pairwise cosine of the items' embeddings, mapped
      ``clip((c - coherence_floor) / (coherence_ceiling - coherence_floor), 0, 1)``; without an
      embedder, the mean pairwise word Jaccard mapped by ``clip(j / 0.25, 0, 1)``. A single
      item has coherence 1 (it cannot disagree with itself; whether it matches is the
      entropy's job).
    - No items: ``entropy = 1``, ``coherence = 0``, ``best_match = 0``, ``flatness = 1``
      (maximal uncertainty: Critical, Blind).

    Example:
        >>> signal = LearningSignal(query="q", entropy=0.95, coherence=0.1, best_match=0.0,
        ...     flatness=0.75, n_items=3, scores=(0.1, 0.05, 0.0), score_source="embedder")
        >>> signal.quadrant()
        <JohariQuadrant.BLIND: 'blind'>
    """

    model_config = ConfigDict(frozen=True)

    query: str
    entropy: float = _Unit
    coherence: float = _Unit
    best_match: float = _Unit
    flatness: float = _Unit
    n_items: int = Field(ge=0)
    scores: tuple[float, ...] = ()
    """Raw scores in descending order (cosines, or the retriever's scores)."""
    score_source: Literal["embedder", "metadata", "none"] = "embedder"

    def quadrant(self, config: ToolGatingConfig | None = None) -> JohariQuadrant:
        """The Johari quadrant under ``config`` (default thresholds when ``None``)."""
        return (config or _DEFAULT_CONFIG).quadrant(self.entropy, self.coherence)

    def level(self, config: ToolGatingConfig | None = None) -> GatingLevel:
        """The gating level under ``config`` (default thresholds when ``None``)."""
        return (config or _DEFAULT_CONFIG).level(self.entropy, self.coherence)


class ToolGatingWarning(BaseModel):
    """The verdict on an uncertain retrieval.

    Attributes:
        level: ``CAUTION``, ``WARNING`` or ``CRITICAL``.
        quadrant: The Johari quadrant.
        message: User-facing explanation.
        suggested_actions: Actions in priority order (most urgent first).
        should_gate: The result should be withheld (Critical, hard gating on, gated quadrant).
        signal: The measured signal.

    Example:
        >>> w = ToolGatingEvaluator().evaluate(LearningSignal(query="q", entropy=0.85,
        ...     coherence=0.9, best_match=0.1, flatness=0.9, n_items=2))
        >>> ToolGatingWarning.model_validate_json(w.model_dump_json()) == w
        True
    """

    model_config = ConfigDict(frozen=True)

    level: GatingLevel
    quadrant: JohariQuadrant
    message: str
    suggested_actions: tuple[SuggestedAction, ...] = ()
    should_gate: bool = False
    signal: LearningSignal

    def to_model_message(self) -> str:
        """A short note for the model (what is wrong and what to do next)."""
        actions = "; ".join(a.describe() for a in self.suggested_actions[:3])
        reasons = _reasons(self.signal)
        if self.should_gate:
            return (
                f"Search results withheld: nothing retrieved for {self.signal.query!r} is "
                f"reliable ({reasons}). Do not answer from them. Next: {actions}."
            )
        return (
            f"Retrieval quality {self.level.value}: {reasons}. Check these results before "
            f"relying on them. Suggested: {actions}."
        )

    def summary(self) -> str:
        """The user-facing one-line summary (same as ``message``)."""
        return self.message


def _reasons(signal: LearningSignal) -> str:
    if signal.n_items == 0:
        return "no results were returned"
    parts = [f"best match {signal.best_match:.2f}", f"entropy {signal.entropy:.2f}"]
    if signal.n_items > 1:
        parts.append(f"coherence {signal.coherence:.2f}")
    return ", ".join(parts)


def compute_learning_signal(
    query: str,
    items: Any,
    *,
    embedder: Embedder | None = None,
    config: ToolGatingConfig | None = None,
    score_source: ScoreSource = "auto",
) -> LearningSignal:
    """Measure a retrieval: see :class:`LearningSignal` for the definitions.

    Args:
        query: The query the items were retrieved for.
        items: Documents, strings, ``(item, score)`` pairs, dicts, or a sequence of these.
        embedder: Embedder used to recompute scores and coherence (default: the bundled
            model, loaded only when needed).
        config: Signal shaping (floors, ceilings, temperature, weights).
        score_source: See :data:`ScoreSource`.

    Returns:
        The signal.
    """
    cfg = config or _DEFAULT_CONFIG
    found = to_items(items)
    if not found:
        return LearningSignal(
            query=query, entropy=1.0, coherence=0.0, best_match=0.0, flatness=1.0, n_items=0,
            score_source="none",
        )  # fmt: skip
    use_metadata = score_source == "metadata" or (
        score_source == "auto" and embedder is None and all(i.score is not None for i in found)
    )
    texts = [i.text for i in found]
    if use_metadata:
        raw = np.asarray([i.score if i.score is not None else 0.0 for i in found], np.float64)
        mapped = np.clip(raw, 0.0, 1.0)
        vectors = None
        source: Literal["embedder", "metadata"] = "metadata"
    else:
        if embedder is None:
            from langchain_qgate.grounding.evidence.embeddings import default_embedder

            embedder = default_embedder()
        vecs = np.asarray(embedder.embed([query, *texts]), dtype=np.float64)
        raw = vecs[1:] @ vecs[0] if query.strip() else np.zeros(len(texts))
        mapped = map_unit(raw, cfg.similarity_floor, cfg.similarity_ceiling)
        vectors = vecs[1:]
        source = "embedder"
    order = np.argsort(-raw, kind="stable")[: cfg.max_items]  # the mapping is monotone
    mapped, raw = mapped[order], raw[order]
    best = float(mapped[0])
    flat = flatness(mapped, cfg.temperature)
    weight = cfg.weak_match_weight if len(order) > 1 else 1.0
    entropy = weight * (1.0 - best) + (1.0 - weight) * flat
    if vectors is not None:
        pair = mean_pairwise_cosine(vectors[order])
        coherence = (
            1.0
            if pair is None
            else float(map_unit(np.asarray([pair]), cfg.coherence_floor, cfg.coherence_ceiling)[0])
        )
    else:
        coherence = lexical_coherence([texts[i] for i in order])
    return LearningSignal(
        query=query,
        entropy=float(np.clip(entropy, 0.0, 1.0)),
        coherence=float(np.clip(coherence, 0.0, 1.0)),
        best_match=best,
        flatness=flat,
        n_items=len(order),
        scores=tuple(float(s) for s in raw),
        score_source=source,
    )


class ToolGatingEvaluator:
    """Turns learning signals into gating warnings.

    Args:
        config: Thresholds and signal shaping (defaults from the design).
        embedder: Embedder for :meth:`measure` (default: the bundled model, loaded lazily).
        score_source: Where match scores come from (see :data:`ScoreSource`).

    Example:
        >>> from langchain_qgate import HashingEmbedder
        >>> ev = ToolGatingEvaluator(ToolGatingConfig(hard_gating=True), embedder=HashingEmbedder())
        >>> ev.assess("anything", []).should_gate
        True
    """

    def __init__(
        self,
        config: ToolGatingConfig | None = None,
        *,
        embedder: Embedder | None = None,
        score_source: ScoreSource = "auto",
    ) -> None:
        self.config = config or _DEFAULT_CONFIG
        self.embedder = embedder
        self.score_source: ScoreSource = score_source

    def suggest(self, signal: LearningSignal) -> tuple[SuggestedAction, ...]:
        """Actions for ``signal``, most urgent first (rules on :class:`SuggestedAction`)."""
        c = self.config
        quadrant = c.quadrant(signal.entropy, signal.coherence)
        level = c.level(signal.entropy, signal.coherence)
        chosen: set[SuggestedAction] = set()
        if signal.entropy >= c.warning_entropy:
            chosen.add(SuggestedAction.REFINE_QUERY)
        if signal.entropy > c.caution_entropy:
            chosen.add(SuggestedAction.ADD_CONTEXT)
        if signal.n_items == 0 or (
            level is GatingLevel.CRITICAL and quadrant is JohariQuadrant.BLIND
        ):
            chosen.add(SuggestedAction.ASK_FOR_CLARIFICATION)
        if signal.coherence < c.caution_coherence and signal.n_items > 0:
            chosen.add(SuggestedAction.NARROW_SCOPE)
        if quadrant is JohariQuadrant.HIDDEN:
            chosen.add(SuggestedAction.GET_NEIGHBORHOOD)
        if quadrant is JohariQuadrant.UNKNOWN:
            chosen.add(SuggestedAction.CONSOLIDATE_MEMORY)
        return tuple(sorted(chosen, key=lambda a: a.priority))

    def evaluate(self, signal: LearningSignal) -> ToolGatingWarning | None:
        """The warning for ``signal``, or ``None`` when its level is ``NONE``."""
        c = self.config
        level = c.level(signal.entropy, signal.coherence)
        if level is GatingLevel.NONE:
            return None
        quadrant = c.quadrant(signal.entropy, signal.coherence)
        should_gate = (
            c.hard_gating and level is GatingLevel.CRITICAL and quadrant in c.gated_quadrants
        )
        what = {
            JohariQuadrant.BLIND: "nothing matches the query well and the results disagree",
            JohariQuadrant.UNKNOWN: "the results agree with each other but match the query poorly",
            JohariQuadrant.HIDDEN: "one result matches but the others are unrelated",
            JohariQuadrant.OPEN: "the results are borderline",
        }[quadrant]
        if signal.n_items == 0:
            what = "the retrieval returned nothing"
        message = (
            f"Retrieval for {signal.query!r} is {level.value} ({quadrant.value}): {what} "
            f"({_reasons(signal)})."
        )
        return ToolGatingWarning(
            level=level,
            quadrant=quadrant,
            message=message,
            suggested_actions=self.suggest(signal),
            should_gate=should_gate,
            signal=signal,
        )

    def measure(self, query: str, items: Any) -> LearningSignal:
        """Compute the signal of a retrieval with this evaluator's embedder and config."""
        return compute_learning_signal(
            query, items, embedder=self.embedder, config=self.config,
            score_source=self.score_source,
        )  # fmt: skip

    def assess(self, query: str, items: Any) -> ToolGatingWarning | None:
        """``evaluate(measure(query, items))``."""
        return self.evaluate(self.measure(query, items))

    async def ameasure(self, query: str, items: Any) -> LearningSignal:
        """Async :meth:`measure` (embedding runs in a worker thread)."""
        return await asyncio.to_thread(self.measure, query, items)

    async def aassess(self, query: str, items: Any) -> ToolGatingWarning | None:
        """Async :meth:`assess`."""
        return self.evaluate(await self.ameasure(query, items))


WARNING_METADATA_KEY = "tool_gating_warning"
"""Key under which warnings are stored in ``Document.metadata`` / ``response_metadata``."""


class GatedRetriever(BaseRetriever):
    """A retriever that measures each retrieval and attaches the tool-gating warning.

    Every returned Document carries ``metadata["tool_gating_warning"]`` (the warning as
    JSON-ready dict) when the retrieval reaches Caution or above. When the warning says
    ``should_gate`` (hard gating, Critical), the result is replaced by a single Document
    whose content is the model-facing warning and whose metadata has ``qgate_gated=True``.
    Build one with :func:`gated_retriever`.

    Example:
        >>> from langchain_qgate import HashingEmbedder
        >>> from langchain_core.retrievers import BaseRetriever
        >>> class Fixed(BaseRetriever):
        ...     def _get_relevant_documents(self, query, *, run_manager):
        ...         return [Document("Paris is the capital of France.")]
        >>> r = gated_retriever(Fixed(), embedder=HashingEmbedder())
        >>> "tool_gating_warning" in r.invoke("quantum gravity")[0].metadata
        True
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retriever: BaseRetriever
    evaluator: ToolGatingEvaluator

    def _apply(self, docs: list[Document], warning: ToolGatingWarning | None) -> list[Document]:
        if warning is None:
            return docs
        payload = warning.model_dump(mode="json")
        if warning.should_gate:
            meta = {WARNING_METADATA_KEY: payload, "qgate_gated": True}
            return [Document(page_content=warning.to_model_message(), metadata=meta)]
        return [
            d.model_copy(update={"metadata": {**d.metadata, WARNING_METADATA_KEY: payload}})
            for d in docs
        ]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        docs = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        return self._apply(docs, self.evaluator.assess(query, docs))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        docs = await self.retriever.ainvoke(query, config={"callbacks": run_manager.get_child()})
        return self._apply(docs, await self.evaluator.aassess(query, docs))


def gated_retriever(
    retriever: BaseRetriever,
    *,
    config: ToolGatingConfig | None = None,
    embedder: Embedder | None = None,
    evaluator: ToolGatingEvaluator | None = None,
) -> GatedRetriever:
    """Wrap ``retriever`` so each retrieval is measured and gated (see :class:`GatedRetriever`).

    Args:
        retriever: Any LangChain retriever.
        config: Gating config (ignored when ``evaluator`` is given).
        embedder: Embedder for the signal (ignored when ``evaluator`` is given).
        evaluator: A ready evaluator to share with other components.

    Returns:
        A drop-in retriever for LCEL chains.
    """
    ev = evaluator or ToolGatingEvaluator(config, embedder=embedder)
    return GatedRetriever(retriever=retriever, evaluator=ev)
