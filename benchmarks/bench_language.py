"""How well the gate knows what it can read: the language detector on English and foreign text.

``langchain_qgate/grounding/claims/language.py`` tells English from other languages by script and by
function words. This benchmark measures, in one run:

- **False unsupported** on real English text: every response and every context of the
  benchmark files (``../shared/benchdata/*.jsonl``, deduplicated), each detected on its own
  (the answer's reading), and each (response, context) row through ``check_languages`` (the
  gate's reading). Every one is English, so any code other than ``en`` / ``und`` is a false
  alarm; the rows are listed.
- **Detection** on foreign sentences written for this project (``tests/data/
  language_sentences.jsonl``: 24 each in German, French, Spanish, Chinese and Arabic, 8 each in
  Italian, Portuguese, Dutch, Russian and Japanese; written before the word lists were last
  tuned) and a held-out set written after them (``language_sentences_heldout.jsonl``, 20 per
  language in de, fr, es, zh, ar, never used to tune anything): the share flagged unsupported
  and the share named right; and English sentences that quote foreign names, titles and
  places, which must stay English.
- **Mixed evidence**: an English context with foreign sentences appended, the share reported
  against the share written.
- **Speed**: characters per second on the benchmark contexts, and one call on 3 MB of evidence
  (read in part: at most 200,000 characters).

Run: python benchmarks/bench_language.py [--data ../shared/benchdata/*.jsonl]
Writes benchmarks/results/language.json and prints a summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from langchain_qgate.grounding.claims.language import (  # noqa: E402
    SUPPORTED_LANGUAGES,
    UNDETERMINED,
    check_languages,
    detect_language,
)

OUT = ROOT / "benchmarks" / "results" / "language.json"
SENTENCES = ROOT / "tests" / "data" / "language_sentences.jsonl"
HELDOUT = ROOT / "tests" / "data" / "language_sentences_heldout.jsonl"
DEFAULT_DATA = ROOT.parent / "shared" / "benchdata"
READABLE = SUPPORTED_LANGUAGES | {UNDETERMINED}


def _english_files(paths: list[Path]) -> dict[str, Any]:
    """Every response and context of the English benchmark files, detected."""
    out: dict[str, Any] = {}
    alarms: list[dict[str, str]] = []
    chars = 0
    seconds = 0.0
    for path in paths:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        stats: dict[str, Any] = {}
        for field in ("response", "context"):
            texts = list(dict.fromkeys(str(r[field]) for r in rows if r.get(field)))
            start = time.perf_counter()
            codes = [detect_language(t) for t in texts]
            seconds += time.perf_counter() - start
            chars += sum(len(t) for t in texts)
            counts = Counter(codes)
            wrong = [(t, c) for t, c in zip(texts, codes, strict=True) if c not in READABLE]
            alarms += [
                {"file": path.name, "field": field, "code": c, "text": t[:300]} for t, c in wrong
            ]
            stats[field] = {
                "texts": len(texts),
                "english": counts["en"],
                "undetermined": counts[UNDETERMINED],
                "false_unsupported": len(wrong),
                "false_unsupported_rate": round(len(wrong) / len(texts), 5) if texts else 0.0,
            }
        checks = [check_languages(str(r["response"]), [str(r["context"])]) for r in rows]
        flagged = sum(not c.supported for c in checks)
        stats["rows"] = {
            "rows": len(rows),
            "false_unsupported": flagged,
            "false_unsupported_rate": round(flagged / len(rows), 5) if rows else 0.0,
        }
        out[path.name] = stats
    texts = sum(s[f]["texts"] for s in out.values() for f in ("response", "context"))
    wrong = sum(s[f]["false_unsupported"] for s in out.values() for f in ("response", "context"))
    rows = sum(s["rows"]["rows"] for s in out.values())
    flagged = sum(s["rows"]["false_unsupported"] for s in out.values())
    return {
        "files": out,
        "texts": texts,
        "false_unsupported": wrong,
        "false_unsupported_rate": round(wrong / texts, 5) if texts else 0.0,
        "rows": rows,
        "rows_false_unsupported": flagged,
        "rows_false_unsupported_rate": round(flagged / rows, 5) if rows else 0.0,
        "alarms": alarms,
        "chars_per_second": round(chars / seconds) if seconds else None,
    }


def _sentences(path: Path) -> dict[str, Any]:
    """Per language: flagged unsupported (detected) and named right; English must stay."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    out: dict[str, Any] = {}
    for lang in dict.fromkeys(r["language"] for r in rows):
        texts = [r["text"] for r in rows if r["language"] == lang]
        codes = [detect_language(t) for t in texts]
        if lang == "en":
            kept = sum(c in READABLE for c in codes)
            out["en_quoting_foreign"] = {
                "sentences": len(texts),
                "stay_english": kept,
                "rate": round(kept / len(texts), 4),
                "misses": [t for t, c in zip(texts, codes, strict=True) if c not in READABLE],
            }
            continue
        flagged = sum(c not in READABLE for c in codes)
        named = sum(c == lang for c in codes)
        out[lang] = {
            "sentences": len(texts),
            "detected_unsupported": flagged,
            "detection_rate": round(flagged / len(texts), 4),
            "named_right": named,
            "codes": dict(Counter(codes)),
            "misses": [t for t, c in zip(texts, codes, strict=True) if c in READABLE],
        }
    return out


def _mixed(english: str, foreign: list[str]) -> list[dict[str, Any]]:
    """English context plus k foreign sentences: the share the check reports."""
    out = []
    for k in (0, 2, 6, 12, 24):
        parts = [english, *foreign[:k]]
        written = sum(len(t) for t in foreign[:k]) / sum(len(t) for t in parts)
        check = check_languages("It has 16 GB of memory.", parts)
        out.append(
            {
                "foreign_sentences": k,
                "foreign_share_written": round(written, 3),
                "reported_share": check.evidence_share,
                "evidence": check.evidence,
                "supported": check.supported,
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="*", type=Path, default=None)
    args = parser.parse_args(argv)
    paths = args.data or sorted(DEFAULT_DATA.glob("*.jsonl"))
    if not paths:
        print(f"no benchmark data at {DEFAULT_DATA}; pass --data", file=sys.stderr)
        return 2
    english = _english_files(paths)
    first = _sentences(SENTENCES)
    heldout = _sentences(HELDOUT) if HELDOUT.exists() else {}
    rows = [json.loads(x) for x in SENTENCES.read_text(encoding="utf-8").splitlines()]
    german = [r["text"] for r in rows if r["language"] == "de"]
    context = (
        "The Zephyr Book 14 has 16 GB of memory and supports USB-C charging with the included "
        "65 W charger. It has two USB-C ports, one USB-A port and an HDMI 2.1 port. The "
        "battery lasts up to ten hours. The laptop weighs 1.4 kg and ships with Windows 11."
    )
    big = [context] * (3_000_000 // len(context))
    start = time.perf_counter()
    check_languages("It has 16 GB of memory.", big)
    big_seconds = time.perf_counter() - start
    result = {
        "command": "python benchmarks/bench_language.py",
        "english_benchmark_files": english,
        "sentences": first,
        "sentences_heldout": heldout,
        "mixed_evidence_german": _mixed(context, german),
        "evidence_3mb_seconds": round(big_seconds, 3),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"English benchmark files: {english['false_unsupported']} of {english['texts']} texts "
        f"read as another language ({english['false_unsupported_rate']:.3%}); rows flagged "
        f"{english['rows_false_unsupported']} of {english['rows']}; "
        f"{english['chars_per_second']:,} chars/s"
    )
    for name, table in (("sentences", first), ("held out", heldout)):
        for lang, row in table.items():
            if lang == "en_quoting_foreign":
                kept = f"{row['stay_english']}/{row['sentences']}"
                print(f"{name:>9} en quoting foreign names: {kept} stay English")
            else:
                print(
                    f"{name:>9} {lang}: detected {row['detected_unsupported']}/{row['sentences']}"
                    f", named right {row['named_right']}"
                )
    print(f"3 MB of evidence: {big_seconds:.2f} s")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
