"""Fit the monotone combination of grounding signals on the development data.

Reads the five JSONL files of ``../shared/benchdata``, computes every claim's deterministic
signals with the real bundled model (cached in ``--cache``), and fits a logistic combination
with **non-negative weights** (more support never raises the hallucination score).

Only rows whose split is ``"fit"`` (``langchain_qgate._splits.split_of``) are ever fitted on;
``"report"`` rows are only scored. It prints two tables:

- in-distribution: fitted on one file's fit half, reported on the same file's report half;
- leave-one-dataset-out (LODO): fitted on the other four files' fit halves, reported on the
  held-out file's report half (what a user with unseen data gets).

The shipped model (``--write``) is fitted on the fit halves of all five files, with the
feature set chosen by the LODO figures.

Run: python scripts/fit_grounding.py --data ../shared/benchdata --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import minimize
from sklearn.metrics import balanced_accuracy_score, roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from langchain_qgate._splits import split_of  # noqa: E402
from langchain_qgate.grounding.features import FEATURE_NAMES  # noqa: E402
from langchain_qgate.schemas import ClaimType  # noqa: E402

FILES = ["halueval_qa", "fever_symmetric_dev", "factcheck_gpt_stance", "wice_dev", "summedits"]
MODEL_OUT = ROOT / "langchain_qgate" / "data" / "grounding_model.json"


def load_rows(data: Path, name: str) -> list[dict]:
    rows = []
    with open(data / f"{name}.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            q = r.get("question")
            r["question"] = None if q in (None, "", "None") else q
            r["label"] = int(r["label"])
            r["split"] = split_of(r["id"])
            rows.append(r)
    return rows


def cap_rows(rows: list[dict], cap: int | None) -> list[dict]:
    """At most ``cap`` rows per split, chosen by a hash of the id (stable, order-free)."""
    if cap is None:
        return rows
    out = []
    for split in ("fit", "report"):
        part = [r for r in rows if r["split"] == split]
        part.sort(key=lambda r: hashlib.blake2b(r["id"].encode(), digest_size=8).digest())
        out.extend(part[:cap])
    return out


def compute_features(
    data: Path, cache: Path, emb_cache: Path | None = None, cap: int | None = None
) -> dict[str, list[dict]]:
    if cache.exists():
        with open(cache, "rb") as fh:
            return pickle.load(fh)
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    monitor = HallucinationMonitor()
    store = monitor.embedder._cache  # the content-hash cache of the default embedder
    if emb_cache is not None and emb_cache.exists():
        with open(emb_cache, "rb") as fh:
            store.update(pickle.load(fh))
    out: dict[str, list[dict]] = {}
    for name in FILES:
        t0 = time.time()
        rows = cap_rows(load_rows(data, name), cap)
        warm_cache(monitor, rows)
        feats = []
        for r in rows:
            claims, _, items = monitor.prepare(r["response"], r["context"], question=r["question"])
            x = (
                np.array([it.signals.vector() for it in items])
                if items
                else np.zeros((0, len(FEATURE_NAMES)))
            )
            counted = np.array([c.type is not ClaimType.OPINION for c in claims], dtype=bool)
            feats.append(
                {
                    "id": r["id"],
                    "label": r["label"],
                    "split": r["split"],
                    "x": x,
                    "counted": counted,
                }
            )
        out[name] = feats
        if emb_cache is not None:
            with open(emb_cache, "wb") as fh:
                pickle.dump(dict(store), fh)
        print(f"{name}: {len(rows)} rows in {time.time() - t0:.0f}s", file=sys.stderr)
    with open(cache, "wb") as fh:
        pickle.dump(out, fh)
    return out


def warm_cache(monitor, rows: list[dict]) -> None:
    """Embed every chunk and claim of ``rows`` in large batches (fills the content cache)."""
    from langchain_qgate.grounding.evidence import EvidenceIndex

    texts: list[str] = []
    for r in rows:
        texts.extend(c.text for c in monitor.extractor(r["response"], question=r["question"]))
        texts.extend(c.text for c in EvidenceIndex(r["context"], embedder=monitor.embedder).chunks)
    uniq = list(dict.fromkeys(texts))
    for i in range(0, len(uniq), 512):
        monitor.embedder.embed(uniq[i : i + 512])


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60, 60)))


def aggregate(row: dict, cols: list[int]) -> np.ndarray:
    x = row["x"]
    if len(x) == 0:
        return np.ones(len(cols))
    sel = x[row["counted"]] if row["counted"].any() else x
    return sel[:, cols].min(axis=0)


def fit(
    rows_by_ds: dict[str, list[dict]], cols: list[int], l2: float = 1e-3
) -> tuple[np.ndarray, float]:
    """Dataset-balanced logistic regression of 'supported' with weights >= 0."""
    xs, ys, ws = [], [], []
    for rows in rows_by_ds.values():
        if not rows:
            continue
        x = np.array([aggregate(r, cols) for r in rows])
        y = np.array([1 - r["label"] for r in rows], dtype=float)  # 1 = supported
        xs.append(x)
        ys.append(y)
        ws.append(np.full(len(rows), 1.0 / len(rows)))
    x = np.vstack(xs)
    y = np.concatenate(ys)
    w = np.concatenate(ws)
    w = w / w.sum()

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ theta[1:] + theta[0]
        p = sigmoid(z)
        eps = 1e-9
        ll = -(w * (y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))).sum()
        g = w * (p - y)
        grad = np.concatenate([[g.sum()], x.T @ g + 2 * l2 * theta[1:]])
        return ll + l2 * float(theta[1:] @ theta[1:]), grad

    theta0 = np.zeros(len(cols) + 1)
    bounds = [(None, None)] + [(0.0, None)] * len(cols)
    res = minimize(loss, theta0, jac=True, bounds=bounds, method="L-BFGS-B")
    return res.x[1:], float(res.x[0])


def output_scores(
    rows: list[dict], cols: list[int], weights: np.ndarray, bias: float
) -> np.ndarray:
    """Mean claim support (the monitor's grounding score with default grade weights)."""
    out = []
    for r in rows:
        x = r["x"]
        if len(x) == 0:
            out.append(1.0)
            continue
        sel = x[r["counted"]] if r["counted"].any() else x
        out.append(float(sigmoid(sel[:, cols] @ weights + bias).mean()))
    return np.array(out)


def evaluate(rows: list[dict], scores: np.ndarray, threshold: float) -> dict[str, float]:
    y = np.array([r["label"] for r in rows])
    pred = (scores < threshold).astype(int)
    return {
        "auroc": float(roc_auc_score(y, 1 - scores)),
        "bacc": float(balanced_accuracy_score(y, pred)),
        "n": len(rows),
    }


def best_threshold(rows_by_ds: dict[str, list[dict]], cols, weights, bias) -> float:
    """Threshold on the grounding score maximising mean balanced accuracy over datasets."""
    grid = np.linspace(0.05, 0.95, 91)
    best, best_t = -1.0, 0.5
    for t in grid:
        vals = []
        for rows in rows_by_ds.values():
            if rows:
                s = output_scores(rows, cols, weights, bias)
                y = np.array([r["label"] for r in rows])
                vals.append(balanced_accuracy_score(y, (s < t).astype(int)))
        m = float(np.mean(vals))
        if m > best:
            best, best_t = m, float(t)
    return best_t


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "benchdata")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/qgate_features.pkl"))
    ap.add_argument(
        "--emb-cache",
        type=Path,
        default=Path("/tmp/qgate_embeddings.pkl"),
        help="persist embeddings by content hash between runs",
    )
    ap.add_argument(
        "--cap",
        type=int,
        default=None,
        help="at most this many rows per split per file (hash-chosen)",
    )
    ap.add_argument("--features", default=",".join(FEATURE_NAMES))
    ap.add_argument("--write", action="store_true", help="write the shipped model file")
    ap.add_argument(
        "--gate-threshold",
        type=float,
        default=0.6,
        help="the gate's default grounding threshold the score is aligned to",
    )
    args = ap.parse_args()

    feats = compute_features(args.data, args.cache, args.emb_cache, args.cap)
    names = args.features.split(",")
    cols = [FEATURE_NAMES.index(n) for n in names]
    fit_rows = {k: [r for r in v if r["split"] == "fit"] for k, v in feats.items()}
    rep_rows = {k: [r for r in v if r["split"] == "report"] for k, v in feats.items()}

    print(f"features: {names}")
    print(
        f"{'dataset':24s} {'ID auroc':>9s} {'ID bacc':>8s} {'LODO auroc':>11s} {'LODO bacc':>10s}"
    )
    for name in FILES:
        w_id, b_id = fit({name: fit_rows[name]}, cols)
        t_id = best_threshold({name: fit_rows[name]}, cols, w_id, b_id)
        e_id = evaluate(rep_rows[name], output_scores(rep_rows[name], cols, w_id, b_id), t_id)
        others = {k: v for k, v in fit_rows.items() if k != name}
        w_lo, b_lo = fit(others, cols)
        t_lo = best_threshold(others, cols, w_lo, b_lo)
        e_lo = evaluate(rep_rows[name], output_scores(rep_rows[name], cols, w_lo, b_lo), t_lo)
        print(
            f"{name:24s} {e_id['auroc']:9.3f} {e_id['bacc']:8.3f} "
            f"{e_lo['auroc']:11.3f} {e_lo['bacc']:10.3f}"
        )

    weights, bias = fit(fit_rows, cols)
    t = best_threshold(fit_rows, cols, weights, bias)
    # Shift the bias so the best decision threshold on the fit data lands on the gate's default
    # threshold: ranking is unchanged, and "score < 0.6 -> reject" means what it should.
    logit = lambda p: np.log(p / (1 - p))  # noqa: E731
    shift = float(logit(args.gate_threshold) - logit(t))
    print(
        f"all-fit weights {dict(zip(names, np.round(weights, 3), strict=True))} bias {bias:.3f} "
        f"best threshold {t:.2f} -> bias shift {shift:+.3f}"
    )
    if args.write:
        full = np.zeros(len(FEATURE_NAMES))
        full[cols] = weights
        model = {
            "features": list(FEATURE_NAMES),
            "weights": [round(float(v), 6) for v in full],
            "bias": round(bias + shift, 6),
            "grounded_threshold": 0.7,
            "fabricated_threshold": 0.45,
            "info": {
                "fitted": True,
                "fitted_on": "fit split (split_of(id) == 'fit') of halueval_qa, summedits, "
                "fever_symmetric_dev, factcheck_gpt_stance, wice_dev; dataset-balanced",
                "features_used": names,
                "decision_threshold": args.gate_threshold,
                "script": "scripts/fit_grounding.py",
            },
        }
        MODEL_OUT.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_OUT}")


if __name__ == "__main__":
    main()
