"""Is the combination of signals, rather than the signals, what limits the catches? (issue 47)

Reads the cached signals of ``scripts/fit_grounding.py`` (run it once with ``--cache``) and
refits the shipped combination with one change at a time: monotone transforms of the
verifier's probabilities (log-odds, square root, interactions with coverage and with the
figure and name checks), another aggregation of claim supports into the answer's score (the
minimum, the mean of the minimum and the mean), and a looser false-reject budget. Each row
prints, per file, AUROC / false rejects % / wrong answers rejected % on the report halves,
leave-one-dataset-out (``LODO``) and fitted on every fit half (``ALL``), as fit_grounding does.

    python scripts/fit_grounding.py --cap 1200 --max-false-reject 0.06 \\
        --features <the eleven> --cache /tmp/qgate_features.pkl
    python benchmarks/bench_decision_layer.py --cache /tmp/qgate_features.pkl
"""

from __future__ import annotations

import argparse
import pickle
import sys
import types
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import fit_grounding as fg  # noqa: E402

BASE = [
    "similarity", "coverage_best", "coverage_topk", "novel_ok", "quantities_ok", "entities_ok",
    "no_contradiction", "negation_consistent", "values_consistent", "pair_entailed",
    "pair_not_contradicted",
]  # fmt: skip
NAMES = list(fg.FEATURE_NAMES)
IDX = {n: i for i, n in enumerate(NAMES)}
SHORT = {"halueval_qa": "Halu", "fever_symmetric_dev": "FEVER", "factcheck_gpt_stance": "Fact",
         "wice_dev": "WiCE", "summedits": "SumE", "e2e_structured_dev": "E2E"}  # fmt: skip


def _logit(p: np.ndarray, span: float = 5.0) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return np.clip((np.log(p / (1 - p)) + span) / (2 * span), 0, 1)


def _col(x: np.ndarray, name: str) -> np.ndarray:
    return x[:, IDX[name]]


DERIVED = {
    "ent_logit": lambda x: _logit(_col(x, "pair_entailed")),
    "notc_logit": lambda x: _logit(_col(x, "pair_not_contradicted")),
    "ent_sqrt": lambda x: np.sqrt(_col(x, "pair_entailed")),
    "ent_x_cov": lambda x: _col(x, "pair_entailed") * _col(x, "coverage_best"),
    "fig_or_ent": lambda x: np.maximum(
        _col(x, "quantities_ok"), np.minimum(1, _col(x, "pair_entailed") / 0.2)
    ),
    "name_or_ent": lambda x: np.maximum(
        _col(x, "entities_ok"), np.minimum(1, _col(x, "pair_entailed") / 0.1)
    ),
}
RUNS = [  # (aggregation, false-reject budget, derived features)
    ("mean", 0.06, []),
    ("mean", 0.06, ["ent_logit"]),
    ("mean", 0.06, ["ent_logit", "notc_logit"]),
    ("mean", 0.06, ["ent_sqrt"]),
    ("mean", 0.06, ["ent_x_cov"]),
    ("mean", 0.06, ["fig_or_ent"]),
    ("mean", 0.06, ["name_or_ent"]),
    ("min", 0.06, []),
    ("half", 0.06, []),
    ("mean", 0.07, []),
]


def _rows(feats: dict, extra: list[str]) -> dict:
    fg.FEATURE_NAMES = NAMES + extra
    out = {}
    for name, rows in feats.items():
        new = []
        for r in rows:
            x = r["x"]
            if len(x):
                x = np.hstack([x] + [DERIVED[n](r["x"])[:, None] for n in extra])
            else:
                x = np.zeros((0, len(fg.FEATURE_NAMES)))
            new.append({**r, "x": x})
        out[name] = new
    return out


def _scores(kind: str, original):
    """The answer's score from its claims' supports (``fit_grounding.claim_supports``): their
    mean as shipped, their minimum, or the mean of the two."""

    def output_scores(rows, cols, weights, bias):
        mean = original(rows, cols, weights, bias)
        if kind == "mean":
            return mean
        p, starts = fg.claim_supports(rows, cols, weights, bias)
        low = np.minimum.reduceat(p, starts)
        return low if kind == "min" else 0.5 * (low + mean)

    return output_scores


def run(feats: dict, kind: str, budget: float, extra: list[str]) -> None:
    rows = _rows(feats, extra)
    original = fg.output_scores
    fg.output_scores = _scores(kind, original)
    try:
        cols = [fg.FEATURE_NAMES.index(n) for n in BASE + extra]
        args = types.SimpleNamespace(max_false_contradiction=0.005, max_false_reject=budget)
        fitted = fg.make_fitted(cols, args, 0.6)
        fit = {k: [r for r in rows[k] if r["split"] == "fit"] for k in fg.FIT_FILES}
        rep = {k: [r for r in v if r["split"] == "report"] for k, v in rows.items()}
        line = {}
        for label, model_for in (("LODO", lambda n: {k: v for k, v in fit.items() if k != n}),
                                 ("ALL", lambda n: fit)):  # fmt: skip
            cells = []
            for name in fg.FILES:
                w, b, th = fitted(model_for(name))
                part = fg.with_thresholds(rep[name], *th)
                y = np.array([r["label"] for r in part])
                auroc = roc_auc_score(y, 1 - fg.output_scores(part, cols, w, b))
                fr, caught = fg.reject_rates(part, cols, w, b, 0.6)
                cells.append(f"{SHORT[name]}:{auroc:.3f}/{fr * 100:.1f}/{caught * 100:.1f}")
            line[label] = "  ".join(cells)
    finally:
        fg.output_scores = original
        fg.FEATURE_NAMES = NAMES
    print(f"== aggregation {kind}, false-reject budget {budget}, added: {extra or 'none'}")
    for label, text in line.items():
        print(f"  {label:5s} {text}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/qgate_features.pkl"))
    args = ap.parse_args()
    with open(args.cache, "rb") as fh:
        feats = pickle.load(fh)
    for kind, budget, extra in RUNS:
        run(feats, kind, budget, extra)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
