"""Detection benchmark: run the monitor on labelled JSONL data and score it.

Rows follow the schema of ``../shared/benchdata/README.md`` (``id``, ``dataset``, ``task``,
``question``, ``context``, ``response``, ``label`` with 1 = hallucinated). The question, when
present, is part of what is checked. Hallucinated is the positive class; the monitor's
hallucination score is ``1 - grounding score``.

Every figure fitted on ``../shared/benchdata`` uses rows whose split is ``"fit"`` and reports on
rows whose split is ``"report"``. The split (:func:`split_of`) is a hash of the row id, so it is
stable across runs, machines and row order, and shared by every script (grounding weights,
calibration map).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

import numpy as np

from langchain_qgate.errors import InvalidInputError

if TYPE_CHECKING:
    from langchain_qgate.gate import QualityGate
    from langchain_qgate.grounding.evidence.embeddings import Embedder
    from langchain_qgate.grounding.monitor import HallucinationMonitor

__all__ = [
    "BenchRow",
    "Split",
    "baseline_score",
    "binary_metrics",
    "idf_coverage_score",
    "load_rows",
    "run_detection",
    "split_of",
]

Split = Literal["fit", "report"]
"""Which half of the development data a row belongs to."""


def split_of(row_id: str) -> Split:
    """Return ``"fit"`` or ``"report"`` for a data row id (about half each)."""
    digest = hashlib.blake2b(row_id.encode("utf-8"), digest_size=8).digest()
    return "fit" if digest[0] % 2 == 0 else "report"


@dataclass(frozen=True)
class BenchRow:
    """One labelled example."""

    id: str
    dataset: str
    task: str
    question: str | None
    context: str
    response: str
    label: int
    split: Split


def load_rows(path: Path, *, limit: int | None = None, split: str = "all") -> list[BenchRow]:
    """Read a JSONL file in the benchdata schema (``split``: all, fit or report)."""
    rows: list[BenchRow] = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(str(path), f"not UTF-8 text (at byte {exc.start})") from exc
    except OSError as exc:
        raise InvalidInputError(str(path), f"cannot read it: {exc.strerror or exc}") from exc
    for n, line in enumerate(text.split("\n"), 1):  # JSONL lines end at \n only
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            q = r.get("question")
            row = BenchRow(
                id=str(r["id"]),
                dataset=str(r.get("dataset", path.stem)),
                task=str(r.get("task", "")),
                question=None if q in (None, "", "None") else q,
                context=str(r["context"]),
                response=str(r["response"]),
                label=int(r["label"]),
                split=split_of(str(r["id"])),
            )
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            raise InvalidInputError(str(path), f"line {n}: {exc!r}") from exc
        if split in ("all", row.split):
            rows.append(row)
    if limit is not None:
        rows = _balanced_sample(rows, limit)
    return rows


def _balanced_sample(rows: list[BenchRow], limit: int) -> list[BenchRow]:
    """``limit`` rows balanced by label, chosen by a hash of the id.

    Files are often sorted (by domain, by label), so the first rows are not a fair sample;
    ordering by id hash spreads the sample over the whole file and is stable across runs.
    """

    def key(r: BenchRow) -> bytes:
        return hashlib.blake2b(r.id.encode("utf-8"), digest_size=8).digest()

    pos = sorted((r for r in rows if r.label == 1), key=key)
    neg = sorted((r for r in rows if r.label == 0), key=key)
    half = limit // 2
    take = pos[: max(half, limit - len(neg))] + neg[: max(limit - half, limit - len(pos))]
    return take[:limit]


def binary_metrics(
    labels: Sequence[int], risk: Sequence[float], threshold: float
) -> dict[str, Any]:
    """AUROC of ``risk`` and threshold metrics (positive = hallucinated = risk >= threshold)."""
    from sklearn.metrics import (
        balanced_accuracy_score,
        f1_score,
        precision_score,
        recall_score,
        roc_auc_score,
    )

    y = np.asarray(labels, dtype=int)
    r = np.asarray(risk, dtype=float)
    pred = (r >= threshold).astype(int)
    both = len(set(y.tolist())) == 2
    return {
        "n": len(y),
        "positives": int(y.sum()),
        "auroc": round(float(roc_auc_score(y, r)), 4) if both else None,
        "balanced_accuracy": round(float(balanced_accuracy_score(y, pred)), 4) if both else None,
        "precision": round(float(precision_score(y, pred, zero_division=0)), 4),
        "recall": round(float(recall_score(y, pred, zero_division=0)), 4),
        "f1": round(float(f1_score(y, pred, zero_division=0)), 4),
        "threshold": round(threshold, 4),
    }


def baseline_score(
    response: str, context: str, embedder: Embedder, question: str | None = None
) -> float:
    """The naive embedding-provenance baseline: the weakest response sentence's best cosine.

    Each response sentence is embedded and compared with every evidence sentence; the
    response's support is the minimum over its sentences of the best similarity.
    """
    from langchain_qgate.grounding.claims.segment import split_sentences

    sents = [response[s:e] for s, e in split_sentences(response)] or [response]
    if question:
        sents = [f"{question} {s}" for s in sents]
    ev = [context[s:e] for s, e in split_sentences(context)] or [context]
    a = embedder.embed(sents)
    b = embedder.embed(ev)
    return float((a @ b.T).max(axis=1).min())


def idf_coverage_score(response: str, context: str, question: str | None = None) -> float:
    """The simplest lexical alternative: the IDF-weighted share of the response's content
    words (question words left out) that the context contains.

    Weights come from the same general-English frequency table the monitor uses
    (:func:`~langchain_qgate.grounding.checks.checks.word_weight`); rare words weigh most.
    """
    from langchain_qgate.grounding.checks.checks import content_stems, coverage

    stems = content_stems(response)
    if question:
        asked = content_stems(question)
        stems = {s: w for s, w in stems.items() if s not in asked} or stems
    return coverage(stems, set(content_stems(context)))


def _percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 4) if values else None


def _progress(out: TextIO | None) -> Callable[[int, int, str], None]:
    def show(i: int, n: int, name: str) -> None:
        if out is None:
            return
        if i == n or i % 25 == 0:
            width = 30
            done = int(width * i / max(n, 1))
            out.write(f"\r{name:24s} [{'#' * done}{'.' * (width - done)}] {i}/{n}")
            if i == n:
                out.write("\n")
            out.flush()

    return show


@dataclass
class _Scored:
    """One file's rows as ``run_detection`` scores them, then its metrics."""

    labels: list[int] = field(default_factory=list)
    risks: list[float] = field(default_factory=list)
    base_risks: list[float] = field(default_factory=list)
    idf_risks: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    base_times: list[float] = field(default_factory=list)
    contradicted: list[bool] = field(default_factory=list)
    rejected: list[bool] = field(default_factory=list)
    failed_by: dict[str, int] = field(default_factory=dict)
    by_task: dict[str, tuple[list[int], list[float]]] = field(default_factory=dict)

    def add(
        self, row: BenchRow, monitor: HallucinationMonitor, gate: QualityGate, with_baseline: bool
    ) -> float:
        """Scores one row (the evidence not cached); returns its grounding score."""
        from langchain_qgate.grounding.evidence.embeddings import CachedEmbedder

        if isinstance(monitor.embedder, CachedEmbedder):
            monitor.embedder.clear()  # measure with the evidence not cached
        t0 = time.perf_counter()
        report = monitor.verify_grounding(row.response, row.context, question=row.question)
        self.times.append(time.perf_counter() - t0)
        self.labels.append(row.label)
        self.risks.append(1.0 - report.score)
        self.contradicted.append(bool(report.contradictions))
        meta = gate.decide(row.response, report).metadata
        self.rejected.append(meta.decision != "pass")
        if row.label == 0:
            for dim in meta.failed_dimensions:
                self.failed_by[str(dim)] = self.failed_by.get(str(dim), 0) + 1
        self.idf_risks.append(1.0 - idf_coverage_score(row.response, row.context, row.question))
        labels, risks = self.by_task.setdefault(row.task, ([], []))
        labels.append(row.label)
        risks.append(1.0 - report.score)
        if with_baseline:
            t0 = time.perf_counter()
            base = baseline_score(row.response, row.context, monitor.embedder, row.question)
            self.base_risks.append(1.0 - base)
            self.base_times.append(time.perf_counter() - t0)
        return report.score

    def entry(self, threshold: float, with_baseline: bool) -> dict[str, Any]:
        """The file's metrics at ``threshold``."""
        labels = self.labels
        entry = binary_metrics(labels, self.risks, 1.0 - threshold)
        entry.update(p50_s=_percentile(self.times, 50), p95_s=_percentile(self.times, 95))
        entry.update(_precision_columns(labels, self.contradicted, self.rejected, self.failed_by))
        entry["idf_coverage_auroc"] = binary_metrics(labels, self.idf_risks, 0.5)["auroc"]
        entry["tasks"] = {
            t: binary_metrics(ls, rs, 1.0 - threshold) for t, (ls, rs) in self.by_task.items()
        }
        if with_baseline:
            # The baseline has no shipped threshold: use the one that maximises balanced
            # accuracy on these very rows (generous to the baseline).
            bt = _best_threshold(labels, self.base_risks)
            base = binary_metrics(labels, self.base_risks, bt)
            base.update(
                p50_s=_percentile(self.base_times, 50), p95_s=_percentile(self.base_times, 95)
            )
            entry["baseline"] = base
        return entry


def run_detection(
    files: Iterable[Path],
    monitor: HallucinationMonitor,
    *,
    limit: int | None = None,
    split: str = "report",
    threshold: float | None = None,
    progress: TextIO | None = sys.stderr,
    scores_out: list[dict[str, Any]] | None = None,
    with_baseline: bool = True,
) -> dict[str, Any]:
    """Run the monitor (and the naive baseline) on each file; metrics per file and per task.

    Args:
        files: JSONL files in the benchdata schema.
        monitor: The monitor to evaluate.
        limit: At most this many rows per file (balanced by label).
        split: ``report`` (default: rows never fitted on), ``fit`` or ``all``.
        threshold: Grounding-score threshold below which an answer counts as hallucinated;
            the shipped default when None.
        progress: Where to draw the progress bar (None: silent).
        scores_out: When given, one dict per row is appended (id, dataset, label, score, split).
        with_baseline: Also score the naive embedding-similarity baseline.

    Returns:
        ``{"datasets": {stem: {...metrics, "p50_s", "p95_s", "baseline": {...},
        "tasks": {task: {...}}}}, "threshold": ..., "split": ...}``
    """
    from langchain_qgate.gate import GatePolicy, QualityGate
    from langchain_qgate.grounding.verifier.verifiers import load_combination

    # the default profile, as a user gets it; never the operator's QGATE_* settings, and the
    # benchmark's rows are not production verdicts (no logs, traces or feedback)
    gate = QualityGate(monitor=monitor, policy=GatePolicy(), observer=False)
    if threshold is None:
        threshold = float(load_combination().info.get("decision_threshold", 0.6))
    show = _progress(progress)
    results: dict[str, Any] = {}
    for path in files:
        stem = Path(path).stem
        rows = load_rows(Path(path), limit=limit, split=split)
        scored = _Scored()
        for i, row in enumerate(rows, 1):
            score = scored.add(row, monitor, gate, with_baseline)
            if scores_out is not None:
                scores_out.append(
                    {"id": row.id, "dataset": stem, "label": row.label, "score": score,
                     "split": row.split}
                )  # fmt: skip
            show(i, len(rows), stem)
        results[stem] = scored.entry(threshold, with_baseline)
    return {"datasets": results, "threshold": threshold, "split": split}


def _precision_columns(
    labels: list[int], contradicted: list[bool], rejected: list[bool], failed_by: dict[str, int]
) -> dict[str, Any]:
    """What the verdict does to correct answers and what it catches on wrong ones."""
    y = np.asarray(labels, dtype=int)
    c = np.asarray(contradicted, dtype=bool)
    r = np.asarray(rejected, dtype=bool)
    n0, n1 = int((y == 0).sum()), int((y == 1).sum())

    def share(mask: np.ndarray, n: int) -> float | None:
        return round(float(mask.sum()) / n, 4) if n else None

    return {
        "false_contradiction_rate": share(c & (y == 0), n0),
        "label1_contradiction_rate": share(c & (y == 1), n1),
        "false_reject_rate": share(r & (y == 0), n0),
        "false_reject_by_dimension": {k: round(v / n0, 4) for k, v in failed_by.items() if n0},
        "label1_reject_rate": share(r & (y == 1), n1),
    }


def _best_threshold(labels: list[int], risks: list[float]) -> float:
    from sklearn.metrics import balanced_accuracy_score

    if len(set(labels)) < 2:
        return 0.5
    cands = np.unique(np.round(risks, 4))
    best, best_t = -1.0, 0.5
    for t in cands:
        v = balanced_accuracy_score(labels, (np.asarray(risks) >= t).astype(int))
        if v > best:
            best, best_t = float(v), float(t)
    return best_t


def format_table(result: dict[str, Any]) -> str:
    """The per-file table the CLI prints."""
    head = (
        f"{'dataset':24s} {'n':>5s} {'pos':>5s} {'AUROC':>6s} {'bAcc':>6s} {'P':>6s} "
        f"{'R':>6s} {'F1':>6s} {'p50 s':>7s} {'p95 s':>7s} | {'base AUROC':>10s} {'base bAcc':>9s}"
        f" {'IDF AUROC':>9s} | {'contra@0':>8s} {'contra@1':>8s} {'reject@0':>8s} {'reject@1':>8s}"
    )
    lines = [head, "-" * len(head)]

    def f(v: Any, w: int, p: int = 3) -> str:
        return f"{v:{w}.{p}f}" if isinstance(v, float) else f"{'-':>{w}s}"

    for name, e in result["datasets"].items():
        b = e.get("baseline", {})
        lines.append(
            f"{name:24s} {e['n']:5d} {e['positives']:5d} {f(e['auroc'], 6)} "
            f"{f(e['balanced_accuracy'], 6)} {f(e['precision'], 6)} {f(e['recall'], 6)} "
            f"{f(e['f1'], 6)} {f(e['p50_s'], 7)} {f(e['p95_s'], 7)} | "
            f"{f(b.get('auroc'), 10)} {f(b.get('balanced_accuracy'), 9)}"
            f" {f(e.get('idf_coverage_auroc'), 9)} | {f(e.get('false_contradiction_rate'), 8)}"
            f" {f(e.get('label1_contradiction_rate'), 8)} {f(e.get('false_reject_rate'), 8)}"
            f" {f(e.get('label1_reject_rate'), 8)}"
        )
        dims = e.get("false_reject_by_dimension") or {}
        if dims:
            lines.append(
                "  label-0 rejects by dimension: "
                + ", ".join(f"{k} {v:.3f}" for k, v in sorted(dims.items()))
            )
        if len(e["tasks"]) > 1:
            for task, t in e["tasks"].items():
                lines.append(
                    f"  task={task:17s} {t['n']:5d} {t['positives']:5d} {f(t['auroc'], 6)} "
                    f"{f(t['balanced_accuracy'], 6)}"
                )
    lines.append(
        f"split: {result['split']}; hallucinated when grounding score < {result['threshold']:.2f};"
        " contra@0 / contra@1: share of label-0 / label-1 rows with a contradiction; reject@0 /"
        " reject@1: share the default gate rejects; IDF AUROC: IDF-weighted word coverage alone"
    )
    return "\n".join(lines)


_DISCOURSE = ("Well, ", "Sure! ", "Yes, ", "So ")
_NEGATIVE_SUBJECTS = frozenset({"no", "none", "nothing", "nobody", "neither", "never", "not"})
_PRONOUN_SUBJECTS = frozenset(
    {"i", "you", "we", "he", "she", "it", "they", "this", "that", "there"}
)
# A figure next to another one ("1,506 884", two table cells) is left as written: "1 506 884"
# would read as one number.
_THOUSANDS = re.compile(
    r"(?<![\w.,])(?<!\d\s)\d{1,3}(?:,\d{3})+(?![\w,]|\.\d|\s\d)"
    r"|(?<![\w.,])(?<!\d\s)\d{4,9}(?![\w,]|\.\d|\s\d)"
)
_PERCENT = re.compile(r"(?<=\d)\s?%")


def _reformat_numbers(sentence: str) -> str:
    """Write figures other ways: "56,000" as "56 000", "56000" as "56,000", "5%" as "5 percent"."""

    def swap(m: re.Match[str]) -> str:
        raw = m.group(0)
        if "," in raw:
            return raw.replace(",", " ")
        if len(raw) == 4 and 1000 <= int(raw) <= 2099:
            return raw  # a year
        return f"{int(raw):,}"

    return _PERCENT.sub(" percent", _THOUSANDS.sub(swap, sentence))


def copied_sentence_variants(sentence: str, context: str, seed: int = 0) -> dict[str, str]:
    """A sentence copied from ``context`` and restatements that must never be contradicted.

    ``copy`` (the sentence), ``discourse`` (a discourse word in front), ``subject`` (its
    subject replaced by a pronoun, or by a fuller name the context gives), ``numbers`` (its
    figures written another way). Variants that would equal the copy are left out.
    """
    from langchain_qgate.grounding.checks.checks import extract_entities, word_weight
    from langchain_qgate.grounding.claims._compound import sentence_subject

    out = {"copy": sentence}
    first = sentence.split(" ", 1)[0]
    common = word_weight(first.lower().strip(",")) < 0.35
    is_i = first == "I" or first.startswith(("I'", "I’"))  # "I" stays a capital
    lower_first = first.lower() if common and not is_i else first
    prefix = _DISCOURSE[seed % len(_DISCOURSE)]
    out["discourse"] = prefix + lower_first + sentence[len(first) :]
    subject = sentence_subject(sentence)
    # "None of her training mattered" -> "It of ..." would change what the sentence says.
    if subject and subject.split()[0].lower() in _NEGATIVE_SUBJECTS:
        subject = None
    rest = sentence[len(subject) :].lstrip() if subject else ""
    # A pronoun is not replaced by another ("I mean." -> "It mean."), and a speaker label
    # ("Project Manager : Yes .") has no verb after it.
    if subject and (subject.lower() in _PRONOUN_SUBJECTS or not rest[:1].islower()):
        subject = None
    if subject and sentence.startswith(subject) and len(subject) < len(sentence) - 3:
        fuller = None
        if " " not in subject:
            for name, _, _ in extract_entities(context):
                if name.endswith(" " + subject) and len(name.split()) <= 4:
                    fuller = name
                    break
        if fuller is not None:
            out["subject"] = fuller + sentence[len(subject) :]
        else:
            verb = rest.split(" ", 1)[0].lower()
            plural = verb in ("are", "were", "have", "do")
            out["subject"] = ("They " if plural else "It ") + rest
    numbers = _reformat_numbers(sentence)
    if numbers != sentence:
        out["numbers"] = numbers
    return out


def run_copied_sentences(
    contexts: Iterable[tuple[str, str]],
    monitor: HallucinationMonitor,
    *,
    max_sentences: int | None = None,
    examples: int = 10,
) -> dict[str, Any]:
    """Check every sentence of each context, and its restatements, against that context.

    Args:
        contexts: ``(name, context)`` pairs (e.g. the distinct contexts of a dev file).
        monitor: The monitor to check with.
        max_sentences: Stop after this many sentences (all when None).
        examples: How many contradicted or non-grounded variants to keep for the report.

    Returns:
        ``{"sentences", "variants": {kind: {"n", "contradicted", "grounded", "claims",
        "no_claims"}}, "contradiction_examples", "not_grounded_examples"}``: ``grounded``
        counts variants whose counted claims are all GROUNDED, among the ``n - no_claims``
        variants that have any.
    """
    from langchain_qgate.schemas import Grade

    stats: dict[str, dict[str, int]] = {}
    contra_examples: list[dict[str, str]] = []
    weak_examples: list[dict[str, str]] = []
    sentences = 0
    for name, context in contexts:
        index = monitor.build_index([context])
        for k, chunk in enumerate(index.chunks):
            if max_sentences is not None and sentences >= max_sentences:
                break
            text = chunk.text.strip()
            if len(text.split()) < 4:
                continue
            sentences += 1
            for kind, variant in copied_sentence_variants(text, context, seed=k).items():
                report = monitor.verify_grounding(variant, index)
                s = stats.setdefault(
                    kind, {"n": 0, "contradicted": 0, "grounded": 0, "claims": 0, "no_claims": 0}
                )
                s["n"] += 1
                counted = [v for v in report.verdicts if v.counted]
                s["claims"] += len(counted)
                if not counted:
                    s["no_claims"] += 1  # a question, a heading, an opinion: nothing to grade
                    continue
                if report.contradictions:
                    s["contradicted"] += 1
                    if len(contra_examples) < examples:
                        contra_examples.append(
                            {"context": name, "kind": kind, "variant": variant,
                             "reason": report.contradictions[0].reason}
                        )  # fmt: skip
                if all(v.grade is Grade.GROUNDED for v in counted):
                    s["grounded"] += 1
                elif len(weak_examples) < examples:
                    weak_examples.append(
                        {"context": name, "kind": kind, "variant": variant,
                         "grades": ", ".join(f"{v.grade.value} {v.support:.2f}" for v in counted)}
                    )  # fmt: skip
        if max_sentences is not None and sentences >= max_sentences:
            break
    return {
        "sentences": sentences,
        "variants": stats,
        "contradiction_examples": contra_examples,
        "not_grounded_examples": weak_examples,
    }
