"""Fit a calibration map on labelled outcomes and compare ECE / Brier before and after.

The calibrator maps a grounding score to P(the output is supported). Here the labelled data is
a small hand-labelled set of claims about the documents in ``examples/docs`` (True = supported
by them); fit on one half, report on the other. For the shipped map (fitted on the fit split
of the human-labelled development data) see ``scripts/fit_calibration.py`` and BENCHMARKS.md.

Run: python examples/calibration_fit.py [--plot reliability.png]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from langchain_core.documents import Document

from langchain_qgate import ConfidenceCalibrator, HallucinationMonitor

DOCS = Path(__file__).parent / "docs"

LABELLED = [  # (claim, supported by the documents?)
    ("Nordlicht Robotics was founded in 2016 in Hamburg.", True),
    ("Nordlicht was started in Hamburg in 2016 by Mara Velden and Jonas Richter.", True),
    ("Nordlicht Robotics was founded in 2014 in Berlin.", False),
    ("The company builds autonomous picking robots for warehouses.", True),
    ("Nordlicht builds delivery drones for hospitals.", False),
    ("Nordlicht Robotics employs 340 people.", True),
    ("Nordlicht Robotics employs 430 people.", False),
    ("The chief executive officer is Mara Velden.", True),
    ("The chief executive officer is Jonas Richter.", False),
    ("The company is listed on the Frankfurt stock exchange.", False),
    ("Its largest shareholder is the Elbe Growth Fund.", True),
    ("In fiscal year 2024 revenue was €48.2 million.", True),
    ("In fiscal year 2024 revenue was €52.7 million.", False),
    ("Revenue grew 31% from €36.8 million in 2023.", True),
    ("Revenue grew 13% in 2024.", False),
    ("Net income for 2024 was €3.1 million.", True),
    ("Nordlicht made a net loss in 2024.", False),
    ("Nordlicht shipped 1,150 robots in 2024.", True),
    ("Nordlicht shipped 2,300 robots in 2024.", False),
    ("Baltic Freight was one of the largest customers in 2024.", True),
    ("Amazon was the largest customer in 2024.", False),
    ("The Austin office opened in September 2024.", True),
    ("The Austin office opened in 2021.", False),
    ("The Kestrel P3 runs for 14 hours on one charge.", True),
    ("The Kestrel P3 runs for 20 hours on one charge.", False),
    ("The Kestrel P3 recharges in 90 minutes.", True),
    ("The Kestrel P3 recharges in 30 minutes.", False),
    ("The list price of the Kestrel P3 is €85,000 per unit.", True),
    ("The Kestrel P3 is sold for €58,000.", False),
    ("The Heron L1 was launched in March 2024.", True),
    ("The Heron L1 was launched in 2022.", False),
    ("The Heron L1 picks up to 600 items per hour.", True),
    ("Every robot comes with a 24-month warranty.", True),
    ("Every robot comes with a 36-month warranty.", False),
    ("Batteries are covered for 12 months.", True),
    ("Batteries are not covered by the warranty.", False),
    ("Support is available around the clock.", True),
    ("Support is only available on weekdays.", False),
    ("On-site repairs are scheduled within two business days in Germany.", True),
    ("Owners get free replacement robots for life.", False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", default=None, help="write the reliability diagram PNG here")
    args = parser.parse_args()

    docs = [Document(p.read_text(encoding="utf-8"), id=p.stem) for p in sorted(DOCS.glob("*.md"))]
    monitor = HallucinationMonitor()  # the bundled MiniLM; one call per claim
    records = [(monitor.verify_grounding(c, docs).score, ok) for c, ok in LABELLED]
    fit, held_out = records[0::2], records[1::2]  # interleaved halves, both outcomes in each

    calibrator = ConfidenceCalibrator(None)  # start from the identity map
    before = calibrator.report(held_out)
    # Platt (two parameters) rather than isotonic: ten fitting claims are too few for a step map.
    calibrator.fit(fit, method="platt", fitted_on="examples/docs, 20 claims")
    plot = args.plot or str(Path(tempfile.mkdtemp()) / "reliability.png")
    after = calibrator.report(held_out, plot_path=plot)
    print(f"held-out claims: {after.n}")
    print(f"ECE   before {before.ece:.3f}  after {after.ece:.3f}")
    print(f"Brier before {before.brier:.3f}  after {after.brier:.3f}")
    if after.brier < before.brier:
        print("the fitted map beats the raw score on these held-out claims")
    else:  # ten outcomes rarely beat scores that already separate these claims well
        print(
            "the raw score is better calibrated on these held-out claims than a map fitted "
            "on ten outcomes: fit on more outcomes of your own traffic"
        )
    print(f"reliability diagram: {after.plot_path}")

    saved = calibrator.save(Path(tempfile.mkdtemp()) / "calibration.json")
    reloaded = ConfidenceCalibrator.load(saved)
    print(f"map saved to {saved.name}: {reloaded.map.method}, {reloaded.map.n_records} records")
    for score in (0.17, 0.5, 0.9, 0.99):
        print(f"  grounding {score:.2f} -> P(supported) {reloaded.map.apply(score):.2f}")


if __name__ == "__main__":
    main()
