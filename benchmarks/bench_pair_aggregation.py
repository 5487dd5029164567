"""Other readings of the verifier's windows as the grounding score's feature, leave-one-dataset-out.

Each claim is read by the verifier against up to ``pair_windows`` evidence windows. The score
takes two features from them: the largest P(entailed) and one minus the largest
P(contradicted) (``grounding/verifier/pair_signals.py``). On WiCE the second ranks answers the
wrong way round (correct claims are long and a window that leaves part of one unsaid is read as
contradicting it), and the combination fitted without WiCE gives it a positive weight. This
benchmark asks whether another reading of the same probabilities does better on every file:

- ``shipped``: 1 - max P(contradicted) (what the package computes; reproduces its LODO table);
- ``entailed_minus_contradicted``: (1 + max P(entailed) - max P(contradicted)) / 2;
- ``at_best_entailed``: 1 - P(contradicted) of the window that entails the claim most;
- ``aligned_window``: 1 - P(contradicted) of the first window (the chunk sharing the claim's words);
- ``contradicted_outright``: 1 - the largest P(contradicted) of a window whose argmax it is;
- ``not_neutral``: 1 - min P(neutral) (some window speaks to the claim at all).

Each reading replaces the feature (``replace``) and is also tried as a twelfth feature beside
it (``add``); the combination and pair thresholds are refitted per fold exactly as
``scripts/fit_grounding.py`` fits them (same rows, cap, feature set, false-reject target).
The windows' probabilities are computed once with the real bundled models and cached.

Run: python benchmarks/bench_pair_aggregation.py --data ../shared/benchdata
Writes benchmarks/results/pair_aggregation.json and prints the table.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import fit_grounding as fg  # noqa: E402

from langchain_qgate.grounding.verifier.pair_signals import pair_windows  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "pair_aggregation.json"
# The eleven features of the documented LODO command (scripts/fit_grounding.py --features ...).
FEATURES = "similarity,coverage_best,coverage_topk,novel_ok,quantities_ok,entities_ok,no_contradiction,negation_consistent,values_consistent,pair_entailed,pair_not_contradicted"  # noqa: E501
Reading = Callable[[np.ndarray], float]


def _outright(p: np.ndarray) -> float:
    won = p[:, 1] >= p.max(axis=1)
    return 1.0 - (float(p[won, 1].max()) if won.any() else 0.0)


READINGS: dict[str, Reading] = {
    "shipped": lambda p: 1.0 - float(p[:, 1].max()),
    "entailed_minus_contradicted": lambda p: (1.0 + float(p[:, 0].max() - p[:, 1].max())) / 2,
    "at_best_entailed": lambda p: 1.0 - float(p[int(p[:, 0].argmax()), 1]),
    "aligned_window": lambda p: 1.0 - float(p[0, 1]),
    "contradicted_outright": _outright,
    "not_neutral": lambda p: 1.0 - float(p[:, 2].min()),
}


class _Recorder:
    """The monitor's verifier, keeping the probabilities of its last call."""

    def __init__(self, model) -> None:
        self.model = model
        self.last = np.zeros((0, 3))

    def __getattr__(self, name: str):
        return getattr(self.model, name)

    def predict(self, pairs):
        self.last = np.asarray(self.model.predict(pairs))
        return self.last


def compute(data: Path, cap: int, cache: Path) -> dict[str, list[dict]]:
    """``fit_grounding``'s cached rows, each with every claim's window probabilities."""
    if cache.exists():
        with open(cache, "rb") as fh:
            return pickle.load(fh)
    from langchain_qgate.grounding.monitor import HallucinationMonitor

    monitor = HallucinationMonitor()
    recorder = _Recorder(monitor.pair_model)
    monitor._pair_model = recorder  # type: ignore[assignment]
    out: dict[str, list[dict]] = {}
    for name in fg.FILES:
        t0 = time.time()
        rows = fg.cap_rows(fg.load_rows(data, name), cap)
        fg.warm_cache(monitor, rows)
        feats = []
        for r in rows:
            recorder.last = np.zeros((0, 3))
            prepared = monitor.prepare(r["response"], r["context"], question=r["question"])
            row = fg.row_features(monitor, r, prepared)
            _, index, items = prepared
            counts = [
                len(pair_windows(it.signals, index, monitor.policy.pair_windows))
                if it.signals.top
                else 0
                for it in items
            ]
            if sum(counts) != len(recorder.last):
                raise RuntimeError(f"{r['id']}: {sum(counts)} windows, {len(recorder.last)} probs")
            starts = np.cumsum([0, *counts])
            row["windows"] = [recorder.last[a:b] for a, b in itertools.pairwise(starts)]
            feats.append(row)
        out[name] = feats
        print(f"{name}: {len(rows)} rows in {time.time() - t0:.0f}s", file=sys.stderr)
    with open(cache, "wb") as fh:
        pickle.dump(out, fh)
    return out


def with_reading(
    feats: dict[str, list[dict]], reading: Reading, add: bool
) -> dict[str, list[dict]]:
    k = fg.FEATURE_NAMES.index("pair_not_contradicted")
    out: dict[str, list[dict]] = {}
    for name, rows in feats.items():
        new = []
        for r in rows:
            col = np.array(
                [reading(p) if len(p) else r["x"][i, k] for i, p in enumerate(r["windows"])]
            )
            x = np.column_stack([r["x"], col]) if add else r["x"].copy()
            if not add and len(col):
                x[:, k] = col
            new.append({**r, "x": x})
        out[name] = new
    return out


def evaluate(feats: dict[str, list[dict]], cols: list[int], args) -> dict[str, dict[str, float]]:
    fitted = fg.make_fitted(cols, args, args.gate_threshold)
    fit_rows = {k: [r for r in feats[k] if r["split"] == "fit"] for k in fg.FIT_FILES}
    out: dict[str, dict[str, float]] = {}
    for name in fg.FILES:
        w, b, th = fitted({k: v for k, v in fit_rows.items() if k != name})
        rows = fg.with_thresholds([r for r in feats[name] if r["split"] == "report"], *th)
        y = np.array([r["label"] for r in rows])
        auroc = roc_auc_score(y, 1 - fg.output_scores(rows, cols, w, b))
        false_reject, caught = fg.reject_rates(rows, cols, w, b, args.gate_threshold)
        out[name] = {
            "lodo_auroc": round(float(auroc), 4),
            "lodo_false_reject": round(false_reject, 4),
            "lodo_rejected_label1": round(caught, 4),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "benchdata")
    ap.add_argument("--cap", type=int, default=1200)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/qgate_pair_windows.pkl"))
    ap.add_argument("--max-false-reject", type=float, default=0.06)
    ap.add_argument("--max-false-contradiction", type=float, default=0.005)
    ap.add_argument("--gate-threshold", type=float, default=0.6)
    args = ap.parse_args()

    feats = compute(args.data, args.cap, args.cache)
    base = [fg.FEATURE_NAMES.index(n) for n in FEATURES.split(",")]
    results: dict[str, dict] = {}
    for mode in ("replace", "add"):
        if mode == "add":
            fg.FEATURE_NAMES = [*fg.FEATURE_NAMES, "reading"]
        for label, reading in READINGS.items():
            if mode == "add" and label == "shipped":
                continue
            cols = [*base, len(fg.FEATURE_NAMES) - 1] if mode == "add" else base
            results[f"{mode} {label}"] = evaluate(
                with_reading(feats, reading, mode == "add"), cols, args
            )
    names = [n[:9] for n in fg.FILES]
    print(f"{'reading (LODO AUROC, report halves)':42s}" + "".join(f"{n:>10s}" for n in names))
    for key, per in results.items():
        print(f"{key:42s}" + "".join(f"{per[n]['lodo_auroc']:10.3f}" for n in fg.FILES))
    print(f"\n{'reading (LODO false rejects / label 1 rejected)':48s}")
    for key, per in results.items():
        cells = [
            f"{per[n]['lodo_false_reject']:.3f}/{per[n]['lodo_rejected_label1']:.3f}"
            for n in fg.FILES
        ]
        print(f"{key:42s}" + "".join(f"{c:>13s}" for c in cells))
    OUT.write_text(
        json.dumps(
            {
                "command": "python benchmarks/bench_pair_aggregation.py --data ../shared/benchdata",
                "cap": args.cap,
                "max_false_reject": args.max_false_reject,
                "results": results,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"\nwrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
