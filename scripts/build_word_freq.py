"""Build the shipped word-frequency table used for IDF weighting.

Needs the dev-only package ``wordfreq`` (``pip install wordfreq``); the result is a small
gzip'd JSON file committed to the package, so users never need wordfreq. General-language
frequencies (not the development data) keep the weighting independent of any benchmark.

Run: python scripts/build_word_freq.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from wordfreq import top_n_list, zipf_frequency

OUT = Path(__file__).resolve().parents[1] / "langchain_qgate" / "data" / "word_zipf_en.json.gz"
N_WORDS = 60_000


def main() -> None:
    table: dict[str, int] = {}
    for word in top_n_list("en", N_WORDS):
        if not word.isascii() and not word.isalpha():
            continue
        table[word] = round(zipf_frequency(word, "en") * 10)
    payload = {
        "source": f"wordfreq {N_WORDS} most frequent English words",
        "unit": "zipf*10",
        "zipf": table,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(OUT, "wt", encoding="utf-8") as fh:
        json.dump(payload, fh, separators=(",", ":"), sort_keys=True)
    print(f"wrote {len(table)} words to {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
