# %% [markdown]
# # 4. Calibration: fit on labelled data, reliability before/after, ECE
#
# ```bash
# pip install -e ".[plot,sqlite]"   # in a clone of the repository (not on PyPI yet)
# ```
#
# The calibrator maps a grounding score to P(the output is supported). A map is fitted with
# isotonic regression (or Platt scaling) on labelled outcomes, saved as JSON and reloaded.
# Here the labelled data is a small hand-labelled set of 40 claims about the example documents
# (`examples/calibration_fit.py`); fit on one half, evaluate on the other. The map shipped with
# the package is fitted on the human-labelled development data (`scripts/fit_calibration.py`,
# figures in BENCHMARKS.md).

# %%
from notebook_helpers import DOCS, example, show, show_png

# %%
from langchain_core.documents import Document

from langchain_qgate import ConfidenceCalibrator, HallucinationMonitor

LABELLED = example("calibration_fit").LABELLED  # (claim, supported?) pairs
docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
monitor = HallucinationMonitor()
records = [(monitor.verify_grounding(c, docs).score, ok) for c, ok in LABELLED]
fit, held_out = records[0::2], records[1::2]
print(len(fit), "fit /", len(held_out), "held out")

# %% [markdown]
# The raw grounding scores: supported claims cluster near 1, contradicted ones at the bottom, and
# a few unsupported claims still score high (a role swap, an antonym, an entity the evidence
# never mentions): exactly what a calibration map has to account for.

# %%
for (claim, ok), (score, _) in sorted(zip(LABELLED, records, strict=True), key=lambda t: t[1][0]):
    print(f"{score:.2f}  {'supported  ' if ok else 'UNSUPPORTED'}  {claim}")

# %% [markdown]
# ## Which map: isotonic or Platt
# Isotonic regression fits a monotone step function: on 20 fitting claims it jumps from 0 to 1
# between the highest unsupported and the lowest supported score, so a grounding score of 0.90
# maps to P(supported) 0.00 and 0.97 to 1.00. Platt scaling fits two parameters (a sigmoid),
# so its map is monotone and smooth; it is what `examples/calibration_fit.py` uses on this
# data. Isotonic is the right choice with hundreds of labelled outcomes (the shipped map is
# isotonic, fitted on the development data).
#
# Both maps put 0.90 close to 0, and that is the data, not a bug: on these documents every
# fitting claim that scored below about 0.95 was unsupported (the plot below), so the raw score
# is overconfident at the top and the map pulls it down: only claims above about 0.95 are
# likely supported here.

# %%
import matplotlib.pyplot as plt

isotonic = ConfidenceCalibrator(None)
isotonic.fit(fit, method="isotonic", fitted_on="examples/docs, 20 claims")
calibrator = ConfidenceCalibrator(None)  # identity: the raw score used as a probability
before = calibrator.report(held_out)
calibrator.fit(fit, method="platt", fitted_on="examples/docs, 20 claims")
after = calibrator.report(held_out)
print(f"{'grounding':>9}  {'isotonic':>8}  {'platt':>5}")
for score in (0.17, 0.5, 0.8, 0.9, 0.95, 0.99):
    iso, platt = isotonic.map.apply(score), calibrator.map.apply(score)
    print(f"{score:9.2f}  {iso:8.2f}  {platt:5.2f}")

grid = [i / 200 for i in range(201)]
fig, ax = plt.subplots(figsize=(6, 3.6))
ax.plot(grid, [isotonic.map.apply(x) for x in grid], drawstyle="steps-post", label="isotonic")
ax.plot(grid, [calibrator.map.apply(x) for x in grid], label="platt")
ax.scatter(
    [x for x, _ in fit],
    [float(ok) for _, ok in fit],
    s=18,
    color="black",
    label="fitting claims (1 = supported)",
    zorder=3,
)
ax.set(
    xlabel="grounding score",
    ylabel="P(supported)",
    xlim=(0, 1),
    ylim=(-0.05, 1.05),
    title="calibration maps fitted on 20 claims",
)
ax.legend(loc="upper left")
show(fig)

# %% [markdown]
# On the 20 held-out claims. With so few claims ECE is noisy (its bins hold one or two claims
# each, and a steep map moves claims between bins); the Brier score, a per-claim squared error,
# is the steadier figure.

# %%
print(f"held out n={after.n}")
print(f"ECE   {before.ece:.3f} -> {after.ece:.3f}")
print(f"Brier {before.brier:.3f} -> {after.brier:.3f}")

# %% [markdown]
# ## Reliability diagrams, before and after

# %%
fig, axes = plt.subplots(1, 2, figsize=(9, 4))
for ax, rep, title in ((axes[0], before, "raw grounding score"), (axes[1], after, "platt map")):
    ax.plot([0, 1], [0, 1], "--", color="grey")
    ax.bar(
        [(b.lower + b.upper) / 2 for b in rep.bins],
        [b.frequency for b in rep.bins],
        width=0.09,
        alpha=0.5,
        label="observed",
    )
    ax.plot(
        [b.mean_predicted for b in rep.bins],
        [b.frequency for b in rep.bins],
        "o-",
        label="bin mean",
    )
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1),
        xlabel="predicted P(supported)",
        title=f"{title}: ECE {rep.ece:.3f}",
    )
axes[0].set_ylabel("observed frequency")
axes[0].legend(loc="upper left")
show(fig)

# %% [markdown]
# The package also writes a single diagram for any report:

# %%
import tempfile
from pathlib import Path

scratch = Path(tempfile.mkdtemp())  # files go to a scratch folder, not the repository
report = calibrator.report(held_out, plot_path=scratch / "reliability_after.png")
show_png(report.plot_path)

# %% [markdown]
# ## Save, reload, use in the gate

# %%
path = calibrator.save(scratch / "my_calibration.json")
reloaded = ConfidenceCalibrator.load(path)
print(reloaded.map.method, reloaded.map.n_records, "records")
for score in (0.17, 0.5, 0.9, 0.99):
    print(f"grounding {score:.2f} -> P(supported) {reloaded.map.apply(score):.2f}")

from langchain_qgate import QualityGate

gate = QualityGate(monitor=monitor, calibrator=reloaded)
decision = gate.check("Support is only available on weekdays.", docs)
meta = decision.metadata
print(meta.decision, round(meta.score, 2), round(meta.confidence, 2))
print(meta.confidence_reason)

# %% [markdown]
# With only 20 fitting claims this map is a toy; on real traffic, log `(grounding score,
# was the answer right)` pairs and refit. `fit(..., by_shape=True)` fits one map per output
# shape (answer to a question / short / medium / long) where there is enough data.
