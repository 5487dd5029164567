"""Training pairs for the claim-evidence verifier, generated from the fit halves of benchdata.

Every pair is ``(claim, window, label, family)`` with label 0 = entailed, 1 = contradicted,
2 = neutral. Windows are one or two evidence sentences (or a record's fields, linearised as the
verifier sees them at run time). Sources, all from rows whose ``split_of(id) == "fit"``:

- generated pairs from the fit contexts' sentences: copies, compressions, number rewrites,
  pronoun subjects, synonyms, references to a source (entailed); swapped numbers, dates,
  names, places, values moved to another slot, antonyms, negation added or removed, hedged
  figures changed, frequencies and day ranges changed, rounding beyond a hedge, denials in the
  evidence (contradicted); added facts, sentences of another passage or another sentence of the
  same passage, bare references to a source, questions (neutral);
- the fit halves' human labels where they name one claim (FEVER-Symmetric and Factcheck-GPT
  claims, HaluEval question + answer, SummEdits edited sentences found by diffing a document's
  consistent and edited summaries, E2E descriptions against their records and against records
  with one value changed or removed).

With ``--reworded`` (off for the shipped weights; BENCHMARKS.md, "Reworded claims"): WiCE's
partially supported and unsupported fit claims as neutral, and each human-labelled entailed
claim with one value changed as contradicted (``reworded``).

A sentence that also occurs in any ``report`` row's context is never used, so no report half
reaches training, not even through a generated example.

Run: python scripts/verifier_data.py --data ../shared/benchdata --out /tmp/verifier_pairs.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from langchain_qgate.evaluation import split_of  # noqa: E402
from langchain_qgate.grounding.claims.segment import split_sentences  # noqa: E402

ENTAILED, CONTRADICTED, NEUTRAL = 0, 1, 2
# A real NLI pair labelled only "not entailed" (contradicted or neutral, unknown which): the
# trainer scores it by the probability of either (``train_verifier.pair_loss``).
NOT_ENTAILED = 3
LABEL_NAMES = ["entailed", "contradicted", "neutral", "not_entailed"]
FILES = [
    "halueval_qa",
    "summedits",
    "fever_symmetric_dev",
    "factcheck_gpt_stance",
    "wice_dev",
    "e2e_structured_dev",
]
Pair = tuple[str, str, int, str]

# -- word lists -------------------------------------------------------------------------------

ANTONYMS = {
    "open": "closed", "opened": "closed", "increase": "decrease", "increased": "decreased",
    "increases": "decreases", "rise": "fall", "rose": "fell", "rising": "falling",
    "higher": "lower", "more": "fewer", "larger": "smaller", "largest": "smallest",
    "biggest": "smallest", "first": "last", "before": "after", "north": "south",
    "northern": "southern", "east": "west", "eastern": "western", "profit": "loss",
    "profits": "losses", "won": "lost", "win": "lose", "wins": "loses", "gain": "loss",
    "gained": "lost", "early": "late", "earlier": "later", "earliest": "latest",
    "male": "female", "men": "women", "man": "woman", "positive": "negative",
    "allowed": "prohibited", "permitted": "forbidden", "legal": "illegal",
    "include": "exclude", "includes": "excludes", "included": "excluded",
    "accepted": "rejected", "accept": "reject", "approved": "rejected", "success": "failure",
    "successful": "unsuccessful", "strong": "weak", "stronger": "weaker", "best": "worst",
    "better": "worse", "up": "down", "upper": "lower", "inside": "outside",
    "internal": "external", "maximum": "minimum", "minimum": "maximum", "high": "low",
    "cheap": "expensive", "cheaper": "more expensive", "young": "old", "younger": "older",
    "oldest": "youngest", "long": "short", "longer": "shorter", "longest": "shortest",
    "hot": "cold", "warm": "cool", "wet": "dry", "full": "empty", "public": "private",
    "domestic": "foreign", "rural": "urban", "ancient": "modern", "above": "below",
    "joined": "left", "start": "end", "started": "ended", "begins": "ends", "began": "ended",
    "buy": "sell", "bought": "sold", "born": "died", "alive": "dead", "supports": "opposes",
    "supported": "opposed", "agreed": "refused", "always": "never", "entered": "left",
    "added": "removed", "heavy": "light", "fast": "slow", "faster": "slower",
    "easy": "difficult", "simple": "complex", "majority": "minority", "true": "false",
    "available": "unavailable", "required": "optional", "mandatory": "optional",
    "inbound": "outbound", "import": "export", "imports": "exports", "south": "north",
    "west": "east", "closed": "open", "decrease": "increase", "decreased": "increased",
    "fell": "rose", "lower": "higher", "loss": "profit", "lost": "won", "last": "first",
    "after": "before", "fewer": "more", "smaller": "larger", "female": "male",
    "women": "men", "negative": "positive", "prohibited": "allowed", "forbidden": "allowed",
    "excluded": "included", "rejected": "accepted", "failure": "success", "weak": "strong",
    "worst": "best", "worse": "better", "low": "high", "expensive": "cheap", "old": "young",
    "short": "long", "cold": "hot", "private": "public", "urban": "rural", "below": "above",
    "sold": "bought", "died": "was born", "never": "always", "removed": "added",
    "slow": "fast", "difficult": "easy", "minority": "majority", "false": "true",
    "unavailable": "available", "optional": "required", "export": "import",
}  # fmt: skip
SYNONYMS = {
    "big": "large", "large": "big", "bought": "purchased", "purchased": "bought",
    "began": "started", "started": "began", "begin": "start", "start": "begin",
    "help": "assist", "helps": "assists", "about": "around", "approximately": "about",
    "around": "roughly", "roughly": "about", "built": "constructed", "constructed": "built",
    "famous": "well-known", "well-known": "famous", "shows": "demonstrates",
    "showed": "demonstrated", "died": "passed away", "said": "stated", "stated": "said",
    "city": "town", "movie": "film", "film": "movie", "quick": "fast", "rapid": "fast",
    "received": "got", "obtained": "got", "finished": "completed", "completed": "finished",
    "ended": "finished", "location": "place", "located": "situated", "situated": "located",
    "chief": "main", "main": "principal", "major": "significant", "significant": "major",
    "nearly": "almost", "almost": "nearly", "often": "frequently", "frequently": "often",
    "also": "additionally", "created": "made", "established": "founded",
    "founded": "established", "wrote": "authored", "authored": "wrote", "award": "prize",
    "prize": "award", "called": "named", "named": "called", "starring": "featuring",
    "features": "includes", "includes": "features", "children": "kids", "kids": "children",
    "sells": "offers", "offers": "provides", "provides": "offers", "restaurant": "eatery",
}  # fmt: skip
NEGATABLE = re.compile(
    r"\b(is|was|are|were|has been|have been|had been|can|could|will|would|should|does|did|do"
    r"|has|had|may|must)\b(?! not\b| never\b)",
    re.I,
)
NEGATION = re.compile(r"\s(?:not|never)\b|n't\b", re.I)
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")
YEAR = re.compile(r"\b(1[5-9]\d\d|20[0-4]\d)\b")
MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]  # fmt: skip
MONTH = re.compile(r"\b(" + "|".join(MONTHS) + r")\b")
NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:\s+(?:[A-Z][a-z]+|of|de|van|von))*)")
HEDGE = re.compile(
    r"\b(up to|about|around|approximately|roughly|nearly|almost|more than|over|less than"
    r"|under|at least|at most)\s+(\d[\d,]*(?:\.\d+)?)",
    re.I,
)
FREQUENCY = [
    "every day", "daily", "every week", "weekly", "every month", "monthly", "every year",
    "annually", "once a year", "twice a year", "every two years", "every three months",
    "every six months", "once a week", "twice a week", "every hour", "hourly",
]  # fmt: skip
DAY_RANGES = [
    "Monday to Friday", "on weekdays", "on weekends", "Saturday and Sunday", "every day",
    "Monday to Saturday", "only on Sundays", "Tuesday to Sunday", "seven days a week",
]  # fmt: skip
DAY_RANGE_ALTS = {
    "Monday to Friday": ["on weekends", "Saturday and Sunday", "only on Sundays"],
    "on weekdays": ["on weekends", "only on Saturdays"],
    "on weekends": ["on weekdays", "Monday to Friday"],
    "Saturday and Sunday": ["Monday to Friday", "on weekdays"],
    "Monday to Saturday": ["only on Sundays", "on Sundays"],
    "only on Sundays": ["Monday to Friday", "on weekdays"],
    "Tuesday to Sunday": ["on Mondays"],
}
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
REFERENCES = [
    "This is mentioned in passage {n}.", "See passage {n}.", "(Passage {n})", "[{n}]",
    "according to document {n}", "as stated in source {n}", "(see step {n})",
]  # fmt: skip
QUESTIONS = ["Did {s}?", "Is it true that {s}?", "Why {s}?", "Do you know whether {s}?"]
PRONOUNS = {"he", "she", "it", "they"}
DENIALS = [
    "It is false that {s}.", "Contrary to reports, it is not true that {s}.",
    "Claims that {s} are incorrect.", "It is not the case that {s}.",
    "Reports that {s} were wrong.",
]  # fmt: skip
ADDED_FACTS = [
    " in {year}", " for ${n} million", ", according to {name}", " in partnership with {name}",
    ", which employs {n} people", " after a {n}-day strike", ", earning {n} awards",
    " with the support of {name}", " for the {n}th time", ", {n} years earlier than planned",
]  # fmt: skip


# -- helpers ----------------------------------------------------------------------------------


def sentences(text: str) -> list[str]:
    return [text[s:e].strip() for s, e in split_sentences(text) if e - s > 0]


def usable(sentence: str) -> bool:
    words = sentence.split()
    return 5 <= len(words) <= 45 and sum(c.isalpha() for c in sentence) > 0.6 * len(sentence)


def as_clause(sentence: str) -> str:
    """The sentence without its final stop, first letter lowered unless it is a name."""
    s = sentence.rstrip(" .!")
    first = s.split(" ", 1)[0]
    if first in {"The", "A", "An", "This", "These", "Its", "It", "In", "On", "He", "She", "They"}:
        s = s[0].lower() + s[1:]
    return s


def end(sentence: str) -> str:
    s = sentence.rstrip()
    return s if s.endswith((".", "!", "?", '"', "”")) else s + "."


def fmt_number(value: float, like: str) -> str:
    """``value`` written like ``like`` (thousands separators, decimals)."""
    decimals = len(like.split(".")[1]) if "." in like else 0
    if decimals:
        out = f"{value:,.{decimals}f}" if "," in like else f"{value:.{decimals}f}"
    else:
        out = f"{round(value):,}" if "," in like else str(round(value))
    return out


def other_number(raw: str, rng: random.Random, far: bool = False) -> str | None:
    try:
        v = float(raw.replace(",", ""))
    except ValueError:
        return None
    if YEAR.fullmatch(raw):
        new = int(v) + rng.choice([-12, -7, -4, -3, -2, -1, 1, 2, 3, 5, 9, 14])
        return str(new)
    if v == 0:
        return None
    factors = [0.5, 0.6, 0.7, 1.3, 1.5, 2.0, 3.0] if far else [0.5, 0.75, 0.8, 1.2, 1.25, 1.5, 2]
    for _ in range(5):
        new = v * rng.choice(factors)
        if v < 20 and "." not in raw:
            new = v + rng.choice([-3, -2, -1, 1, 2, 3, 4])
            if new <= 0:
                continue
        out = fmt_number(new, raw)
        if out != raw and out.replace(",", "") != raw.replace(",", ""):
            return out
    return None


def replace_span(s: str, start: int, stop: int, new: str) -> str:
    return s[:start] + new + s[stop:]


def names_in(sentence: str) -> list[re.Match[str]]:
    return [m for m in NAME.finditer(sentence) if m.group(1) not in MONTHS + DAYS and m.start()]


# -- generated families -----------------------------------------------------------------------

Gen = Callable[[str, list[str], int, random.Random, "Pools"], Pair | None]


class Pools:
    """Names, sentences and numbers of other passages (for swaps and neutral pairs)."""

    def __init__(self, passages: list[list[str]], rng: random.Random) -> None:
        self.passages = passages
        self.rng = rng
        self.names: list[str] = []
        for p in passages:
            for s in p:
                self.names.extend(m.group(1) for m in names_in(s))
        self.names = sorted(set(self.names))

    def other_sentence(self, not_from: list[str]) -> str:
        while True:
            p = self.rng.choice(self.passages)
            if p is not not_from and p:
                return self.rng.choice(p)

    def name(self, not_equal: str) -> str:
        for _ in range(20):
            n = self.rng.choice(self.names)
            if n != not_equal and n not in not_equal and not_equal not in n:
                return n
        return "Jonathan Reed"


def window_of(passage: list[str], k: int, rng: random.Random) -> str:
    """One sentence, or two (the sentence and a neighbour), as the run-time windows are."""
    if len(passage) > 1 and rng.random() < 0.3:
        j = k + 1 if k + 1 < len(passage) and (k == 0 or rng.random() < 0.5) else k - 1
        a, b = sorted((k, j))
        return passage[a] + " " + passage[b]
    return passage[k]


def g_copy(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    return (s, window_of(p, k, rng), ENTAILED, "copy")


def g_compression(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    # Drop a parenthetical, a trailing clause after a comma, or a leading adjunct.
    cut = re.sub(r"\s*\([^()]{1,80}\)", "", s)
    if cut == s:
        m = re.search(r",\s+(?:which|who|where|while|and|but|although|with|including)\b", s)
        if m and len(s[: m.start()].split()) >= 5:
            cut = s[: m.start()] + "."
        else:
            m = re.match(r"(?:In|On|At|During|After|Before|By)\s[^,]{1,40},\s+(.+)", s)
            if not m:
                return None
            cut = m.group(1)[0].upper() + m.group(1)[1:]
    if cut == s or len(cut.split()) < 4:
        return None
    return (cut, window_of(p, k, rng), ENTAILED, "compression")


def g_number_rewrite(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    m = re.search(r"\b(\d{1,3}),(\d{3})(?:,(\d{3}))?\b(?![.,]\d)", s)
    if m:
        if m.group(3):
            v = int(m.group(0).replace(",", "")) / 1e6
            new = f"{v:.1f}".rstrip("0").rstrip(".") + " million"
        else:
            v = int(m.group(0).replace(",", ""))
            new = (
                f"{v // 1000} thousand"
                if v % 1000 == 0
                else (f"{v:d}" if rng.random() < 0.5 else f"{v / 1000:.1f} thousand")
            )
            if new.endswith(".0 thousand") or (v % 100 and "thousand" in new):
                new = f"{v:d}"
        return (replace_span(s, m.start(), m.end(), new), window_of(p, k, rng), 0, "number_rewrite")
    m = re.search(r"\b(\d+(?:\.\d+)?)\s?(per ?cent|percent|%)", s)
    if m:
        new = m.group(1) + (" percent" if m.group(2) == "%" else "%")
        return (replace_span(s, m.start(), m.end(), new), window_of(p, k, rng), 0, "number_rewrite")
    m = re.search(r"\b(\d+(?:\.\d+)?) million\b", s)
    if m and float(m.group(1)) < 1000:
        v = float(m.group(1)) * 1e6
        return (replace_span(s, m.start(), m.end(), f"{v:,.0f}"), window_of(p, k, rng), 0,
                "number_rewrite")  # fmt: skip
    m = re.search(r"\b(one|two|three|four|five|six|seven|eight|nine|ten)\b", s)
    if m:
        n = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        new = str(n.index(m.group(1)) + 1)
        return (replace_span(s, m.start(), m.end(), new), window_of(p, k, rng), 0, "number_rewrite")
    return None


def g_pronoun(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    m = re.match(r"((?:The )?[A-Z][\w'-]+(?: [A-Z][\w'-]+){0,3}) (is|was|has|had|became|won)\b", s)
    if not m:
        return None
    new = "It" if m.group(1).startswith("The ") else rng.choice(["He", "She", "It"])
    # The window names the subject; the claim refers to it by pronoun.
    return (new + s[m.end(1) :], window_of(p, k, rng), ENTAILED, "pronoun_subject")


def replace_word(s: str, table: dict[str, str], rng: random.Random, punct: str) -> str | None:
    """``s`` with one word found in ``table`` (chosen by ``rng``) replaced by its entry."""
    words = s.split(" ")
    spots = [i for i, w in enumerate(words) if w.lower().strip(punct) in table]
    if not spots:
        return None
    i = rng.choice(spots)
    core = words[i].strip(punct)
    words[i] = words[i].replace(core, _case_like(table[core.lower()], core))
    return " ".join(words)


def g_synonym(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    out = replace_word(s, SYNONYMS, rng, ",.")
    return None if out is None else (out, window_of(p, k, rng), ENTAILED, "synonym")


def g_reference(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    ref = rng.choice(REFERENCES).format(n=rng.randint(1, 6))
    if ref.startswith(("according", "as stated")):
        claim = ref[0].upper() + ref[1:] + ", " + as_clause(s) + "."
    else:
        claim = s + " " + ref
    return (claim, window_of(p, k, rng), ENTAILED, "reference_to_source")


def g_number_swap(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    ms = [m for m in NUMBER.finditer(s) if not YEAR.fullmatch(m.group(0))]
    if not ms:
        return None
    m = rng.choice(ms)
    new = other_number(m.group(0), rng)
    if new is None:
        return None
    return (replace_span(s, m.start(), m.end(), new), window_of(p, k, rng), CONTRADICTED,
            "number_swap")  # fmt: skip


def g_date_swap(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    ms = list(YEAR.finditer(s))
    if ms:
        m = rng.choice(ms)
        new = other_number(m.group(0), rng)
        assert new is not None
        return (replace_span(s, m.start(), m.end(), new), window_of(p, k, rng), 1, "date_swap")
    ms = list(MONTH.finditer(s))
    if ms:
        m = rng.choice(ms)
        new = rng.choice([x for x in MONTHS if x != m.group(0)])
        return (replace_span(s, m.start(), m.end(), new), window_of(p, k, rng), 1, "date_swap")
    return None


def g_name_swap(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    ms = names_in(s)
    if not ms:
        return None
    m = rng.choice(ms)
    # Another name of the same passage first (another person in the same role), else any.
    here = [x.group(1) for q in p for x in names_in(q) if x.group(1) != m.group(1)]
    here = [h for h in here if h not in m.group(1) and m.group(1) not in h]
    new = rng.choice(here) if here and rng.random() < 0.6 else pools.name(m.group(1))
    if new in s:
        return None
    return (replace_span(s, m.start(1), m.end(1), new), window_of(p, k, rng), CONTRADICTED,
            "entity_swap")  # fmt: skip


def g_slot_move(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    """Two values of one sentence trade places, or a value of a neighbour takes a slot."""
    ms = list(NUMBER.finditer(s))
    same = [
        (a, b)
        for i, a in enumerate(ms)
        for b in ms[i + 1 :]
        if a.group(0) != b.group(0)
        and bool(YEAR.fullmatch(a.group(0))) == bool(YEAR.fullmatch(b.group(0)))
    ]
    if same:
        a, b = rng.choice(same)
        out = s[: a.start()] + b.group(0) + s[a.end() : b.start()] + a.group(0) + s[b.end() :]
        return (out, window_of(p, k, rng), CONTRADICTED, "slot_move")
    ns = names_in(s)
    if len(ns) >= 2:
        a, b = ns[0], ns[1]
        if (
            a.group(1) != b.group(1)
            and a.group(1) not in b.group(1)
            and b.group(1) not in a.group(1)
        ):
            out = (s[: a.start(1)] + b.group(1) + s[a.end(1) : b.start(1)] + a.group(1)
                   + s[b.end(1) :])  # fmt: skip
            return (out, window_of(p, k, rng), CONTRADICTED, "slot_move")
    return None


def g_antonym(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    out = replace_word(s, ANTONYMS, rng, ",.;:")
    return None if out is None else (out, window_of(p, k, rng), CONTRADICTED, "antonym")


def g_negation(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    m = NEGATION.search(s)
    if m and rng.random() < 0.5:
        out = s[: m.start()] + s[m.end() :]
        out = re.sub(r"\b(ca|wo)\b", lambda x: {"ca": "can", "wo": "will"}[x.group(1)], out)
        out = re.sub(r"\s{2,}", " ", out)
        return (out, window_of(p, k, rng), CONTRADICTED, "negation_removed")
    if m:
        return None
    m = NEGATABLE.search(s)
    if not m:
        return None
    word = (
        rng.choice(["not", "not", "never"]) if m.group(1).lower() in {"has been", "was"} else "not"
    )
    out = s[: m.end()] + " " + word + s[m.end() :]
    return (out, window_of(p, k, rng), CONTRADICTED, "negation_added")


def g_hedge(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    m = HEDGE.search(s)
    if not m:
        return None
    new = other_number(m.group(2), rng, far=True)
    if new is None:
        return None
    return (replace_span(s, m.start(2), m.end(2), new), window_of(p, k, rng), CONTRADICTED,
            "hedge_changed")  # fmt: skip


def g_rounding(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    m = re.search(r"(?<![\d.,])(\d+)\.(\d)(?!\d)", s)
    if not m or HEDGE.search(s[max(0, m.start() - 15) : m.start()]):
        return None
    v = float(m.group(0))
    if rng.random() < 0.5:  # a round figure stated as exact
        return (replace_span(s, m.start(), m.end(), str(round(v) or 1)), window_of(p, k, rng), 1,
                "rounding_beyond_hedge")  # fmt: skip
    # ... while a hedge makes the rounding hold.
    hedged = replace_span(s, m.start(), m.end(), "about " + str(round(v) or 1))
    return (hedged, window_of(p, k, rng), ENTAILED, "rounding_within_hedge")


def g_frequency(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    low = s.lower()
    for f in FREQUENCY:
        i = low.find(f)
        if i >= 0:
            new = rng.choice(
                [x for x in FREQUENCY if x not in (f,) and x.split()[-1] != f.split()[-1]]
            )
            return (s[:i] + new + s[i + len(f) :], window_of(p, k, rng), 1, "frequency_changed")
    for d, alts in DAY_RANGE_ALTS.items():
        i = s.find(d)
        if i >= 0:
            return (s[:i] + rng.choice(alts) + s[i + len(d) :], window_of(p, k, rng), 1,
                    "frequency_changed")  # fmt: skip
    return None


def g_denial(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    """The evidence denies the statement (contradicted); or denies a changed version of it
    and states the true one (the true one is entailed, the changed one contradicted)."""
    clause = as_clause(s)
    if len(clause.split()) < 5:
        return None
    if rng.random() < 0.5:
        window = rng.choice(DENIALS).format(s=clause)
        return (s, window, CONTRADICTED, "denial_in_evidence")
    changed = g_number_swap(s, p, k, rng, pools) or g_name_swap(s, p, k, rng, pools)
    if changed is None:
        return None
    window = s + " " + rng.choice(DENIALS).format(s=as_clause(changed[0]))
    if rng.random() < 0.5:
        return (changed[0], window, CONTRADICTED, "denial_in_evidence")
    return (s, window, ENTAILED, "denial_of_other")


def g_added_fact(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    tail = rng.choice(ADDED_FACTS).format(
        year=rng.randint(1950, 2024), n=rng.randint(2, 90), name=pools.name("")
    )
    base = s.rstrip(" .")
    if rng.random() < 0.5:
        other = pools.other_sentence(p)
        claim = base + ", and " + as_clause(other) + "."
    else:
        claim = base + tail + "."
    return (claim, window_of(p, k, rng), NEUTRAL, "added_fact")


def g_other_passage(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    return (pools.other_sentence(p), window_of(p, k, rng), NEUTRAL, "other_passage")


def g_same_passage(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    if len(p) < 3:
        return None
    j = rng.choice([i for i in range(len(p)) if abs(i - k) > 1] or [k])
    if j == k:
        return None
    return (p[j], p[k], NEUTRAL, "same_passage_other_sentence")


def g_meta(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    if rng.random() < 0.5:
        claim = rng.choice(REFERENCES[:2]).format(n=rng.randint(1, 6))
    else:
        claim = rng.choice(QUESTIONS).format(s=as_clause(s))
    return (claim, window_of(p, k, rng), NEUTRAL, "meta_or_question")


# Paraphrases that keep the meaning (applied in either direction): minimal edits that are
# *entailed*, so that a changed word alone never reads as a contradiction.
PARAPHRASES = [
    ("cancelled", "called off"), ("because of", "due to"), ("chief executive", "CEO"),
    ("more than", "over"), ("at least", "no fewer than"), ("approximately", "about"),
    ("purchased", "bought"), ("began", "started"), ("located in", "based in"),
    ("prior to", "before"), ("following", "after"), ("numerous", "many"),
    ("a number of", "several"), ("residents", "inhabitants"), ("children", "kids"),
    ("physician", "doctor"), ("automobile", "car"), ("requires", "needs"),
    ("required", "needed"), ("demonstrated", "showed"), ("constructed", "built"),
    ("passed away", "died"), ("author", "writer"), ("United States", "US"),
    ("United Kingdom", "UK"), ("roughly", "about"), ("nearly", "almost"),
    ("situated", "located"), ("established", "founded"), ("premiered", "debuted"),
    ("largest", "biggest"), ("resigned", "stepped down"), ("acquired", "bought"),
    ("starts", "begins"), ("finishes", "ends"), ("repaired", "fixed"), ("television", "TV"),
    ("aired", "broadcast"), ("film", "movie"), ("received", "was given"),
    ("assists", "helps"), ("attempted", "tried"), ("sufficient", "enough"),
    ("commenced", "began"), ("terminated", "ended"), ("reside", "live"), ("resides", "lives"),
    ("large", "big"), ("small", "little"), ("quickly", "fast"), ("however", "but"),
    ("the majority of", "most"), ("in order to", "to"), ("is able to", "can"),
    ("was unable to", "could not"), ("a total of", ""), ("currently", "now"),
    ("employees", "staff"), ("occurred", "happened"), ("obtained", "got"),
    ("selected", "chosen"), ("modified", "changed"), ("permitted", "allowed"),
    ("prohibited", "forbidden"), ("immediately", "at once"), ("frequently", "often"),
    ("annually", "every year"), ("daily", "every day"), ("weekly", "every week"),
    ("monthly", "every month"), ("twice", "two times"), ("per cent", "percent"),
    ("does not", "doesn't"), ("is not", "isn't"), ("are not", "aren't"), ("was not", "wasn't"),
    ("cannot", "can't"), ("will not", "won't"), ("did not", "didn't"), ("has not", "hasn't"),
    ("do not", "don't"), ("should not", "shouldn't"), ("were not", "weren't"),
]  # fmt: skip
_ONE_WAY = {
    "to",
    "but",
    "now",
    "can",
    "over",
    "about",
    "most",
    "staff",
    "fast",
    "little",
    "got",
    "US",
    "UK",
    "big",
    "after",
    "before",
    "tried",
    "happened",
    "ends",
    "begins",
    "TV",
}
_PARA = [(re.compile(r"\b" + re.escape(a) + r"\b", re.I), b) for a, b in PARAPHRASES] + [
    (re.compile(r"\b" + re.escape(b) + r"\b", re.I), a)
    for a, b in PARAPHRASES
    if b and b not in _ONE_WAY
]
# Adjectives with a clear opposite: "is closed" says the same as "is not open".
OPPOSITES = {
    "open": "closed", "closed": "open", "available": "unavailable", "unavailable": "available",
    "allowed": "prohibited", "prohibited": "allowed", "permitted": "forbidden",
    "forbidden": "permitted", "legal": "illegal", "illegal": "legal", "included": "excluded",
    "required": "optional", "mandatory": "optional", "optional": "required", "true": "false",
    "false": "true", "successful": "unsuccessful", "alive": "dead", "dead": "alive",
    "full": "empty", "empty": "full", "enabled": "disabled", "disabled": "enabled",
    "possible": "impossible", "present": "absent", "absent": "present", "married": "single",
    "visible": "invisible", "valid": "invalid", "invalid": "valid", "safe": "unsafe",
    "active": "inactive", "public": "private", "private": "public", "free": "paid",
}  # fmt: skip
# Complementary pairs only: "not open" is "closed", but "not full" is not "empty".
BINARY = {
    "open", "closed", "available", "unavailable", "allowed", "prohibited", "permitted",
    "forbidden", "legal", "illegal", "required", "optional", "true", "false", "alive", "dead",
    "enabled", "disabled", "possible", "impossible", "present", "absent", "valid", "invalid",
    "active", "inactive", "visible", "invisible",
}  # fmt: skip
_COPULA_ADJ = re.compile(r"\b(is|are|was|were)\s+(" + "|".join(OPPOSITES) + r")\b(?!-)", re.I)


def _case_like(new: str, old: str) -> str:
    return new[0].upper() + new[1:] if old[:1].isupper() and new else new


def g_paraphrase(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    """One or two words or phrases replaced by others of the same meaning."""
    hits = [(m, b) for rx, b in _PARA for m in rx.finditer(s)]
    if not hits:
        return None
    rng.shuffle(hits)
    out, used = s, 0
    for m, b in sorted(hits[: rng.choice([1, 1, 2])], key=lambda x: -x[0].start()):
        if out[m.start() : m.end()] != m.group(0):
            continue
        if m.start() and m.group(0)[0].isupper() and not m.group(0).isupper():
            continue  # part of a name ("Video Games Live")
        out = out[: m.start()] + _case_like(b, m.group(0)) + out[m.end() :]
        used += 1
    out = re.sub(r"\s{2,}", " ", out)
    if not used or out == s:
        return None
    return (out, window_of(p, k, rng), ENTAILED, "paraphrase")


def g_opposite_negated(
    s: str, p: list[str], k: int, rng: random.Random, pools: Pools
) -> Pair | None:
    """ "is closed" -> "is not open" (entailed) and "is open" (contradicted), from one spot."""
    m = _COPULA_ADJ.search(s)
    if not m:
        return None
    opp = OPPOSITES[m.group(2).lower()]
    if rng.random() < 0.5 and {opp, m.group(2).lower()} <= BINARY:
        out = s[: m.start(2)] + "not " + opp + s[m.end(2) :]
        return (out, window_of(p, k, rng), ENTAILED, "opposite_negated")
    out = s[: m.start(2)] + opp + s[m.end(2) :]
    return (out, window_of(p, k, rng), CONTRADICTED, "antonym")


_LEADING = re.compile(r"^(In|On|During|By|Since|After|Before)\s([^,]{2,40}),\s+(.+?)([.!])$")
_TWO_PPS = re.compile(r"( (?:in|on|at|for) [^,;.]{2,30})( (?:in|on|at|for) [^,;.]{2,30})([.!])$")


def g_reorder(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    """A leading adjunct moved to the end, or two trailing phrases in the other order."""
    m = _LEADING.match(s)
    if m and m.group(3)[:1].isupper():
        body = m.group(3)
        if not re.match(r"(?:I|[A-Z]{2,}|[A-Z][a-z]+\s[A-Z])", body):
            body = body[0].lower() + body[1:] if body.split()[0] in {"The", "A", "An"} else body
        return (f"{body[0].upper()}{body[1:]} {m.group(1).lower()} {m.group(2)}{m.group(4)}",
                window_of(p, k, rng), ENTAILED, "reorder")  # fmt: skip
    m = _TWO_PPS.search(s)
    if m:
        out = s[: m.start()] + m.group(2) + m.group(1) + m.group(3)
        return (out, window_of(p, k, rng), ENTAILED, "reorder")
    return None


def g_never_to_not(s: str, p: list[str], k: int, rng: random.Random, pools: Pools) -> Pair | None:
    """ "was never captured" -> "was not captured": a weaker statement the window entails."""
    m = re.search(r"\b(is|was|were|are|has|have|had|has been|have been)\s+never\b", s)
    if not m:
        return None
    out = s[: m.start()] + m.group(1) + " not" + s[m.end() :]
    return (out, window_of(p, k, rng), ENTAILED, "negation_weakened")


GENERATORS: list[tuple[Gen, float]] = [
    (g_copy, 0.5),
    (g_compression, 0.5),
    (g_number_rewrite, 0.5),
    (g_pronoun, 0.3),
    (g_synonym, 0.3),
    (g_paraphrase, 0.6),
    (g_opposite_negated, 0.9),
    (g_reorder, 0.35),
    (g_never_to_not, 1.0),
    (g_reference, 0.12),
    (g_number_swap, 0.5),
    (g_date_swap, 0.5),
    (g_name_swap, 0.45),
    (g_slot_move, 0.35),
    (g_antonym, 0.45),
    (g_negation, 0.35),
    (g_hedge, 0.9),
    (g_rounding, 0.7),
    (g_frequency, 1.0),
    (g_denial, 0.15),
    (g_added_fact, 0.25),
    (g_other_passage, 0.25),
    (g_same_passage, 0.35),
    (g_meta, 0.08),
]

REWORDED_SOURCES = frozenset(
    {"human_fever_symmetric_dev", "human_factcheck_gpt_stance", "human_halueval_qa",
     "human_wice_supported"}
)  # fmt: skip
REWORDED_GENERATORS: list[Gen] = [
    g_number_swap, g_date_swap, g_name_swap, g_slot_move, g_antonym, g_negation
]  # fmt: skip


# -- templated product and policy sentences (frequencies, day ranges, hours, bounds) ---------

_ITEMS = ["the filter", "the water tank", "the battery", "the air filter", "the descaler",
          "the brew unit", "the seals", "the blades", "the sensor", "the pump"]  # fmt: skip
_PLACES = ["The museum", "The library", "The pharmacy", "The front desk", "The store",
           "The ticket office", "The gym", "The café", "The support line", "The lab"]  # fmt: skip
_PRODUCTS = ["Aurora X2", "Kestrel P3", "Volta S", "Nimbus 5", "Orion Mini", "Tern E1",
             "Lumen Pro", "Basalt 40", "Corvid R", "Helix 9"]  # fmt: skip


def templated(rng: random.Random, n: int) -> Iterator[Pair]:
    """Short sentences of the kinds product manuals and policies use. Their families are
    rare in the benchmark contexts; the words are this script's, not the report halves'."""
    for _ in range(n):
        kind = rng.randrange(5)
        if kind == 0:
            item = rng.choice(_ITEMS)
            f = rng.choice(FREQUENCY)
            ev = f"Replace {item} {f}."
            other = rng.choice([x for x in FREQUENCY if x.split()[-1] != f.split()[-1]])
            yield (f"You should replace {item} {f}.", ev, ENTAILED, "t_frequency_same")
            yield (f"Replace {item} {other}.", ev, CONTRADICTED, "t_frequency_changed")
        elif kind == 1:
            place = rng.choice(_PLACES)
            d = rng.choice(list(DAY_RANGE_ALTS))
            ev = f"{place} is open {d}, from {rng.randint(7, 10)} am to {rng.randint(4, 8)} pm."
            closed = rng.choice(DAYS)
            yield (f"{place} is open {d}.", ev, ENTAILED, "t_days_same")
            yield (f"{place} is open {rng.choice(DAY_RANGE_ALTS[d])}.", ev, 1, "t_days_changed")
            ev2 = f"{place} is closed on {closed}s."
            yield (f"{place} is open on {closed}s.", ev2, CONTRADICTED, "t_open_closed")
            yield (f"{place} does not open on {closed}s.", ev2, ENTAILED, "t_open_closed_same")
        elif kind == 2:
            prod = rng.choice(_PRODUCTS)
            v = rng.choice([40, 60, 80, 120, 150, 200, 250, 300, 450])
            unit = rng.choice(["km", "hours", "items per hour", "kg", "metres"])
            bound = rng.choice(["up to", "a maximum of", "at most", "no more than"])
            ev = f"The {prod} has a range of {bound} {v} {unit}."
            w = other_number(str(v), rng, far=True)
            yield (f"The {prod} offers {bound} {v} {unit}.", ev, ENTAILED, "t_bound_same")
            yield (f"The {prod} has a range of {bound} {w} {unit}.", ev, 1, "t_bound_changed")
        elif kind == 3:
            a, b = rng.sample(_PRODUCTS, 2)
            pa, pb = rng.sample([49, 79, 99, 129, 149, 199, 249, 299], 2)
            ev = f"The {a} costs €{pa}, while the {b} costs €{pb}."
            yield (f"The {a} costs €{pa}.", ev, ENTAILED, "t_two_prices_same")
            yield (f"The {a} costs €{pb}.", ev, CONTRADICTED, "t_two_prices_swapped")
            t1, t2 = rng.sample([2, 3, 4, 5, 8, 10, 12, 15], 2)
            ev = f"The {a} heats up in {t1} minutes and brews a cup in {t2} minutes."
            yield (f"The {a} brews a cup in {t2} minutes.", ev, ENTAILED, "t_two_times_same")
            yield (f"The {a} brews a cup in {t1} minutes.", ev, CONTRADICTED, "t_two_times_swapped")
        else:
            y1 = rng.randint(2015, 2024)
            v1, v2 = round(rng.uniform(20, 90), 1), round(rng.uniform(20, 90), 1)
            if abs(v1 - v2) < 2:
                continue
            co = rng.choice(["Kaffeewerk", "Acme", "Nordlicht", "Veltra", "Sorel Group"])
            ev = (f"In {y1}, {co} reported revenue of €{v1} million, compared with €{v2} million "
                  f"in {y1 - 1}.")  # fmt: skip
            yield (f"{co} reported revenue of €{v1} million in {y1}.", ev, 0, "t_year_same")
            yield (f"{co} reported revenue of €{v2} million in {y1}.", ev, 1, "t_year_moved")
            yield (f"{co}'s revenue was €{v2} million in {y1 - 1}.", ev, 0, "t_year_same")


_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve"]  # fmt: skip
_FRACTIONS = {50: ["half", "one half"], 25: ["a quarter", "one in four"],
              75: ["three quarters", "three in four"], 10: ["one in ten", "a tenth"],
              20: ["one in five", "a fifth"], 33: ["a third", "one in three"]}  # fmt: skip
_THINGS = ["The trail", "The cable", "The tunnel", "The pier", "The runway", "The canal",
           "The pipeline", "The ski slope", "The bike path", "The sea wall"]  # fmt: skip
_EVENTS = ["The guided walk", "The first lecture", "The ferry", "The matinee", "The workshop",
           "The shuttle bus", "The evening mass", "The market", "The tasting",
           "The briefing"]  # fmt: skip
_GROUPS = ["the respondents", "the students", "the patients", "the members", "the voters",
           "the households", "the participants", "the staff"]  # fmt: skip


def _metric(v: float, big: str, small: str, rng: random.Random) -> tuple[str, str]:
    """``v`` (in the big unit) written in the big unit and in the small one (x1000)."""
    a = f"{v:g} {big}"
    n = round(v * 1000)
    b = (f"{n:,}" if rng.random() < 0.6 else str(n)) + " " + small
    return a, b


def _clock(h: int, m: int, style: int) -> str:
    if style == 0:
        return f"{h:02d}:{m:02d}" if h >= 10 else f"{h}:{m:02d}"
    suffix = "am" if h < 12 else "pm"
    h12 = h % 12 or 12
    return (
        (f"{h12}:{m:02d} {suffix}" if m else f"{h12} {suffix}")
        if style == 1
        else (f"{h12}.{m:02d}{suffix}" if m else f"{h12}{suffix}")
    )


def templated_numbers(rng: random.Random, n: int) -> Iterator[Pair]:
    """The same figure in other units and notations (entailed) beside another figure in the
    claim's notation (contradicted): what changes the truth is the value, not how it is written."""
    for _ in range(n):
        kind = rng.randrange(7)
        if kind == 0:
            big, small, frame = rng.choice([
                ("km", rng.choice(["metres", "m", "meters"]), "{t} is {x} long."),
                ("kg", rng.choice(["grams", "g"]), "The package weighs {x}."),
                ("litres", rng.choice(["millilitres", "ml"]), "The tank holds {x}."),
                ("km", rng.choice(["metres", "m"]), "{t} rises to a height of {x}."),
            ])  # fmt: skip
            v = rng.choice([0.4, 0.8, 1.2, 1.5, 1.8, 2.5, 3.2, 4.5, 0.25, 1.75])
            w = rng.choice([x for x in [0.4, 0.8, 1.2, 1.5, 1.8, 2.5, 3.2, 4.5] if x != v])
            t = rng.choice(_THINGS)
            a, b = _metric(v, big, small, rng)
            _, c = _metric(w, big, small, rng)
            if rng.random() < 0.5:
                a, b = b, a
                c = _metric(w, big, small, rng)[0]
            ev = frame.format(t=t, x=a)
            yield (frame.format(t=t, x=b), ev, ENTAILED, "t_unit_same")
            yield (frame.format(t=t, x=c), ev, CONTRADICTED, "t_unit_changed")
        elif kind == 1:
            h, m = rng.randint(7, 21), rng.choice([0, 15, 30, 45])
            h2 = rng.choice([x for x in range(7, 22) if x != h and x % 12 != h % 12])
            ev_style, cl_style = rng.sample([0, 1, 2], 2)
            e = rng.choice(_EVENTS)
            ev = f"{e} starts at {_clock(h, m, ev_style)} every {rng.choice(DAYS)}."
            yield (f"{e} starts at {_clock(h, m, cl_style)}.", ev, ENTAILED, "t_clock_same")
            yield (f"{e} starts at {_clock(h2, m, cl_style)}.", ev, CONTRADICTED,
                   "t_clock_changed")  # fmt: skip
        elif kind == 2:
            pct = rng.choice(list(_FRACTIONS))
            other = rng.choice([x for x in _FRACTIONS if x != pct])
            g = rng.choice(_GROUPS)
            verb = rng.choice(
                [
                    "said they were satisfied",
                    "voted in favour",
                    "use public transport",
                    "had a pet",
                    "completed the course",
                ]
            )
            ev = f"In the survey, {pct}% of {g} {verb}."
            yield (f"{_case_like(rng.choice(_FRACTIONS[pct]), 'X')} of {g} {verb}.", ev,
                   ENTAILED, "t_fraction_same")  # fmt: skip
            yield (f"{_case_like(rng.choice(_FRACTIONS[other]), 'X')} of {g} {verb}.", ev,
                   CONTRADICTED, "t_fraction_changed")  # fmt: skip
        elif kind == 3:
            v = rng.choice([2, 3, 4, 5, 7, 8, 12, 15, 40, 56])
            w = rng.choice([x for x in [2, 3, 4, 5, 7, 8, 12, 15, 40, 56] if x != v])
            unit = rng.choice(["million", "thousand"])
            co = rng.choice(["Veltra", "The city council", "Nordlicht", "The foundation"])
            mult = 1_000_000 if unit == "million" else 1000
            forms = [f"${v} {unit}", f"${v * mult:,}", f"{v} {unit} dollars"]
            if v <= 12:
                forms.append(f"{_WORDS[v]} {unit} dollars")
            a, b = rng.sample(forms, 2)
            ev = f"{co} spent {a} on the new library."
            yield (f"{co} spent {b} on the new library.", ev, ENTAILED, "t_money_same")
            c = b.replace(f"{v * mult:,}", f"{w * mult:,}").replace(f"{v} ", f"{w} ")
            if c != b and (v > 12 or _WORDS[v] not in b):
                yield (f"{co} spent {c} on the new library.", ev, CONTRADICTED, "t_money_changed")
        elif kind == 4:
            v = rng.randint(2, 12)
            w = rng.choice([x for x in range(2, 13) if x != v])
            noun = rng.choice(["bedrooms", "platforms", "lanes", "floors", "exits", "stages"])
            t = rng.choice(["The building", "The station", "The venue", "The new wing"])
            if rng.random() < 0.5:
                ev, cl, bad = f"{t} has {v} {noun}.", f"{t} has {_WORDS[v]} {noun}.", _WORDS[w]
            else:
                ev, cl, bad = f"{t} has {_WORDS[v]} {noun}.", f"{t} has {v} {noun}.", str(w)
            yield (cl, ev, ENTAILED, "t_words_same")
            yield (f"{t} has {bad} {noun}.", ev, CONTRADICTED, "t_words_changed")
        elif kind == 5:
            subj = rng.choice(
                [
                    "Parking",
                    "The east entrance",
                    "Online booking",
                    "Photography",
                    "The rooftop terrace",
                    "Dark mode",
                    "The coastal road",
                    "Two-factor login",
                    "The old bridge",
                    "Remote access",
                ]
            )
            adj = rng.choice(sorted(a for a in BINARY if OPPOSITES.get(a) in BINARY))
            when = rng.choice(
                [
                    "on Sundays",
                    "during the winter",
                    "by default",
                    "for visitors",
                    "until further notice",
                    "after 8 pm",
                    "this week",
                    "",
                ]
            )
            ev = f"{subj} is {adj} {when}".strip() + "."
            yield (f"{subj} is not {OPPOSITES[adj]} {when}".strip() + ".", ev, ENTAILED,
                   "t_opposite_negated")  # fmt: skip
            yield (f"{subj} is {OPPOSITES[adj]} {when}".strip() + ".", ev, CONTRADICTED,
                   "t_opposite")  # fmt: skip
        else:
            mins = rng.choice([30, 45, 90, 120, 150, 180])
            hours = {
                30: "half an hour",
                45: "three quarters of an hour",
                90: "an hour and a half",
                120: "two hours",
                150: "two and a half hours",
                180: "three hours",
            }
            other = rng.choice([x for x in hours if x != mins])
            e = rng.choice(_EVENTS)
            if rng.random() < 0.5:
                ev, cl, bad = (f"{e} lasts {mins} minutes.", f"{e} takes {hours[mins]}.",
                               f"{e} takes {hours[other]}.")  # fmt: skip
            else:
                ev, cl, bad = (f"{e} lasts {hours[mins]}.", f"{e} takes {mins} minutes.",
                               f"{e} takes {other} minutes.")  # fmt: skip
            yield (cl, ev, ENTAILED, "t_duration_same")
            yield (bad, ev, CONTRADICTED, "t_duration_changed")


_VENUES = [
    "The Copper Kettle", "Blue Heron", "Saffron Court", "The Old Mill", "Luna Verde",
    "Harbour Lights", "The Green Fig", "Casa Morena", "Pinewood Grill", "Red Lantern",
]  # fmt: skip
_BOOL_FIELDS = {
    "OutdoorSeating": ("has outdoor seating", "has no outdoor seating"),
    "RestaurantsReservations": ("takes reservations", "does not take reservations"),
    "familyFriendly": ("is family-friendly", "is not family-friendly"),
    "WiFi": ("offers free Wi-Fi", "has no Wi-Fi"),
    "DogsAllowed": ("allows dogs", "does not allow dogs"),
    "gift_wrap": ("was gift wrapped", "was not gift wrapped"),
}
_CLOSED = {
    "status": ["shipped", "delivered", "processing", "cancelled", "returned"],
    "carrier": ["DHL", "UPS", "FedEx", "DPD", "Royal Mail"],
    "eatType": ["coffee shop", "pub", "restaurant"],
    "food": ["Italian", "Chinese", "French", "Indian", "Japanese", "English"],
}


def templated_records(rng: random.Random, n: int) -> Iterator[Pair]:
    """Records of this script's own making, stated in words: booleans as presence or absence,
    closed vocabularies, and a changed or missing field."""
    for _ in range(n):
        name = rng.choice(_VENUES)
        record: dict[str, object] = {"name": name}
        bools = rng.sample(sorted(_BOOL_FIELDS), 2)
        for b in bools:
            record[b] = rng.random() < 0.5
        closed = rng.sample(sorted(_CLOSED), 2)
        for c in closed:
            record[c] = rng.choice(_CLOSED[c])
        keys = list(record)
        rng.shuffle(keys)
        win = record_window({k: record[k] for k in keys})
        b = rng.choice(bools)
        yes, no = _BOOL_FIELDS[b]
        said, unsaid = (yes, no) if record[b] else (no, yes)
        yield (f"{name} {said}.", win, ENTAILED, "t_record_bool")
        yield (f"{name} {unsaid}.", win, CONTRADICTED, "t_record_bool_flipped")
        c = rng.choice(closed)
        other = rng.choice([v for v in _CLOSED[c] if v != record[c]])
        yield (f"The {_CAMEL_WORDS(c)} of {name} is {record[c]}.", win, ENTAILED, "t_record_value")
        yield (f"The {_CAMEL_WORDS(c)} of {name} is {other}.", win, 1, "t_record_value_changed")
        missing = rng.choice([k for k in _BOOL_FIELDS if k not in record])
        yield (f"{name} {_BOOL_FIELDS[missing][0]}.", win, NEUTRAL, "t_record_missing")


def _CAMEL_WORDS(key: str) -> str:  # noqa: N802
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).replace("_", " ").lower()


# -- human-labelled rows of the fit halves -----------------------------------------------------


def best_window(claim: str, passage: list[str]) -> tuple[int, str]:
    """The passage sentence (with its best neighbour) sharing most words with ``claim``."""
    want = {w.lower().strip(".,;:()\"'") for w in claim.split() if len(w) > 3}
    if not passage:
        return -1, ""
    scores = [len(want & {w.lower().strip(".,;:()\"'") for w in s.split()}) for s in passage]
    k = max(range(len(passage)), key=lambda i: scores[i])
    if len(passage[k].split()) < 25 and len(passage) > 1:
        j = k + 1 if k + 1 < len(passage) else k - 1
        if k + 1 < len(passage) and k > 0 and scores[k - 1] > scores[k + 1]:
            j = k - 1
        a, b = sorted((k, j))
        return k, passage[a] + " " + passage[b]
    return k, passage[k]


def record_window(record: dict[str, object]) -> str:
    """A record as the verifier reads it at run time (``structured_window``)."""
    from langchain_qgate.grounding.verifier.crossencoder import linearise_fields

    return linearise_fields([(f"record.{k}", _field_text(v)) for k, v in record.items()])


def _field_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def reworded(pairs: list[Pair], rng: random.Random, pools: Pools) -> list[Pair]:
    """Reworded contradictions: each claim a person wrote that its window entails (so it is
    worded otherwise than the window; ``REWORDED_SOURCES``) with one value changed (another
    number, year or name, an antonym, a negation, two values trading places), against the same
    window. Generated contradictions are near copies of their window; without these the model
    read a reworded claim with a changed value as entailed and a reworded faithful claim as
    contradicted. A "question + answer" claim is left out (a changed question is not a wrong
    answer)."""
    out: list[Pair] = []
    for claim, win, label, family in pairs:
        if label != ENTAILED or family not in REWORDED_SOURCES or "?" in claim:
            continue
        for gen in rng.sample(REWORDED_GENERATORS, len(REWORDED_GENERATORS)):
            made = gen(claim, [win], 0, rng, pools)
            if made is not None and made[0] != claim and made[0].strip():
                out.append((made[0], win, CONTRADICTED, f"reworded_{made[3]}"))
                break
    return out


# -- main -------------------------------------------------------------------------------------


def load(data: Path, name: str) -> list[dict]:
    with open(data / f"{name}.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    for r in rows:
        q = r.get("question")
        r["question"] = None if q in (None, "", "None") else q
        r["label"] = int(r["label"])
        r["split"] = split_of(str(r["id"]))
    return rows


def build(
    data: Path,
    seed: int,
    per_sentence: float,
    templated_n: int,
    *,
    reworded_pairs: bool = False,
    real_pairs: bool = False,
    mnli: bool = True,
    claims_of_records: bool = False,
) -> tuple[list[Pair], dict]:
    """All pairs, shuffled, and their manifest. ``reworded_pairs`` adds the WiCE fit half's
    unsupported claims as neutral and the reworded contradictions (``reworded``): a measured
    experiment (BENCHMARKS.md, "Reworded claims"), off for the shipped weights. ``real_pairs``
    adds the training folder's real pairs (``real``) and chatty framings of generated claims
    (``chatty``); without ``mnli``, FEVER-NLI's alone. ``claims_of_records`` adds the SGD
    replies one sentence at a time (``record_claims``)."""
    rng = random.Random(seed)
    rows = {name: load(data, name) for name in FILES}
    banned: set[str] = set()  # every sentence of every report row's context and response
    for rs in rows.values():
        for r in rs:
            if r["split"] == "report":
                banned.update(sentences(r["context"]))
                banned.update(sentences(r["response"]))

    def clean(passage: list[str]) -> list[str]:
        return [s for s in passage if s not in banned]

    passages: list[list[str]] = []
    seen_ctx: set[str] = set()
    for name in FILES:
        if name == "e2e_structured_dev":
            continue
        for r in rows[name]:
            if r["split"] != "fit" or r["context"] in seen_ctx:
                continue
            seen_ctx.add(r["context"])
            p = clean(sentences(r["context"]))
            if p:
                passages.append(p)
    pools = Pools(passages, rng)
    pairs: list[Pair] = []
    for p in passages:
        for k, s in enumerate(p):
            if not usable(s):
                continue
            for gen, prob in GENERATORS:
                if rng.random() < prob * per_sentence:
                    out = gen(s, p, k, rng, pools)
                    if out is not None and out[0].strip() and out[1].strip():
                        pairs.append(out)
    pairs.extend(templated(rng, templated_n))
    pairs.extend(templated_records(rng, templated_n // 3))
    pairs.extend(templated_numbers(rng, templated_n))

    # Human labels where one claim is labelled.
    for name in ("fever_symmetric_dev", "factcheck_gpt_stance"):
        for r in rows[name]:
            if r["split"] != "fit":
                continue
            p = clean(sentences(r["context"]))
            _, win = best_window(r["response"], p)
            if win:
                pairs.append((r["response"], win, CONTRADICTED if r["label"] else ENTAILED,
                              f"human_{name}"))  # fmt: skip
    for r in rows["halueval_qa"]:
        if r["split"] != "fit":
            continue
        # A short answer is checked with its question ("Q? A"), as the monitor does.
        said = sentences(r["response"])
        p = clean(sentences(r["context"]))
        if len(said) == 1 and p:
            claim = f"{r['question']} {said[0]}" if len(said[0].split()) <= 6 else said[0]
            _, win = best_window(claim, p)
            pairs.append(
                (claim, win, CONTRADICTED if r["label"] else ENTAILED, "human_halueval_qa")
            )
    # WiCE: a supported claim is entailed by its window. With ``reworded_pairs``, a partially
    # supported or unsupported one is neutral: its window is about the same thing but leaves
    # part of the claim unsaid, which the model otherwise reads as a contradiction.
    for r in rows["wice_dev"]:
        if r["split"] != "fit" or (r["label"] and not reworded_pairs):
            continue
        p = clean(sentences(r["context"]))
        _, win = best_window(r["response"], p)
        if win and len(r["response"].split()) <= 40:
            label, family = (
                (NEUTRAL, "human_wice_unsupported") if r["label"] else
                (ENTAILED, "human_wice_supported")
            )  # fmt: skip
            pairs.append((r["response"], win, label, family))
    if reworded_pairs:
        pairs.extend(reworded(pairs, rng, pools))
    # SummEdits: sentences of an edited summary that no consistent summary of the same
    # document has are the edits (contradicted); sentences of consistent summaries entailed.
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for r in rows["summedits"]:
        by_doc[r["context"]].append(r)
    for doc, rs in by_doc.items():
        if any(r["split"] == "report" for r in rs):
            continue  # the document is in a report row: none of it is used
        p = clean(sentences(doc))
        good = {s for r in rs if r["label"] == 0 for s in sentences(r["response"])}
        for s in sorted(good):  # a fixed order: the same pairs in every process
            if usable(s) and rng.random() < 0.5:
                _, win = best_window(s, p)
                pairs.append((s, win, ENTAILED, "human_summedits_consistent"))
        if not good:
            continue
        for r in rs:
            if r["label"] != 1:
                continue
            edited = [s for s in sentences(r["response"]) if s not in good]
            if len(edited) == 1 and usable(edited[0]):
                _, win = best_window(edited[0], p)
                pairs.append((edited[0], win, CONTRADICTED, "human_summedits_edit"))
    # E2E: fit descriptions against their record, a record with one value changed, and one
    # with that field removed.
    for r in rows["e2e_structured_dev"]:
        if r["split"] != "fit" or r["label"] or r["context"] in banned:
            continue
        record = json.loads(r["context"])
        claims = sentences(r["response"])
        claims = [c for c in claims if c not in banned]
        if not claims:
            continue
        win = record_window(record)
        for c in claims:
            if rng.random() < 0.35:
                pairs.append((c, win, ENTAILED, "human_e2e_description"))
        mutated = _mutate_record(record, claims, rng)
        if mutated is not None:
            rec2, claim, label = mutated
            pairs.append((claim, record_window(rec2), label, "e2e_record_changed"))

    if real_pairs:
        pairs.extend(chatty(pairs, rng))
        pairs.extend(real(data, banned, mnli=mnli))
    if claims_of_records:
        pairs.extend(record_claims(data, rng))

    rng.shuffle(pairs)
    manifest = {
        "seed": seed,
        "reworded_pairs": reworded_pairs,
        "per_sentence": per_sentence,
        "templated": templated_n,
        "files": {
            name: hashlib.sha256((data / f"{name}.jsonl").read_bytes()).hexdigest()[:16]
            for name in FILES + (TRAINING_FILES if real_pairs or claims_of_records else [])
        },
        "split": "fit halves only (langchain_qgate.evaluation.split_of); report sentences banned",
        "pairs": len(pairs),
        "real_pairs": real_pairs,
        **({} if mnli else {"mnli": False}),
        **({"claims_of_records": True} if claims_of_records else {}),
        "labels": dict(Counter(LABEL_NAMES[p[2]] for p in pairs)),
        "families": dict(sorted(Counter(p[3] for p in pairs).items())),
        "family_labels": {
            fam: dict(sorted(Counter(LABEL_NAMES[p[2]] for p in pairs if p[3] == fam).items()))
            for fam in sorted({p[3] for p in pairs})
        },
    }
    return pairs, manifest


TRAINING_FILES = ["training/nli_fever_mnli", "training/sgd_records_train"]

# First-person and hedged framings of a stated fact (issue 47): a hedge or a chat opener does
# not change what the sentence states, so the framed claim keeps its pair's label.
_FRAMES = [
    "I think {c}", "I guess {c}", "I believe {c}", "I read that {c}", "I heard that {c}",
    "Apparently {c}", "It seems {c}", "As far as I know, {c}", "Oh, {c}", "Yeah, {c}",
    "Did you know that {c}", "I'm pretty sure {c}", "Well, I think {c}", "Fun fact: {c}",
]  # fmt: skip
_FRAMED_FAMILIES = frozenset(
    {"copy", "compression", "paraphrase", "synonym", "number_swap", "date_swap", "entity_swap",
     "negation_added", "antonym", "added_fact", "number_rewrite", "denial_in_evidence"}
)  # fmt: skip


_LOWER_FIRST = frozenset(
    {
        "The", "A", "An", "It", "He", "She", "They", "We", "There", "This", "That", "These",
        "Those", "Its", "His", "Her", "Their", "In", "On", "At", "During", "After", "Before",
        "By", "Since", "Most", "Many", "Some", "All",
    }
)  # fmt: skip


def chatty(pairs: list[Pair], rng: random.Random, share: float = 0.12) -> list[Pair]:
    """A share of the generated pairs again, the claim framed as a chat reply ("I guess ...",
    "Apparently ..."), same window, same label."""
    out: list[Pair] = []
    for claim, win, label, family in pairs:
        if family not in _FRAMED_FAMILIES or rng.random() >= share or claim.endswith("?"):
            continue
        first, _, rest = claim.partition(" ")
        body = f"{first.lower()} {rest}" if first in _LOWER_FIRST else claim
        frame = rng.choice(_FRAMES)
        text = frame.format(c=body)
        if frame.startswith("Did you know"):
            text = text.rstrip(".!") + "?"
        out.append((text, win, label, f"chatty_{family}"))
    return out


_KEY_GENERIC = frozenset(
    {"has", "is", "are", "offers", "serves", "number", "of", "good", "for", "free"}
)


def _mentions(sentence: str, key: str, value: str) -> bool:
    """Whether a reply sentence states the field ``key`` (its value, or for a yes/no field one
    of the key's own words)."""
    low = sentence.lower()
    if value in ("True", "False"):
        words = [w for w in re.split(r"[_\W]+", key.lower()) if w and w not in _KEY_GENERIC]
        return any(re.search(rf"\b{re.escape(w.rstrip('s')[:5])}", low) for w in words)
    return len(value) > 1 and value.lower() in low


def _sgd_rows(data: Path) -> Iterator[tuple[dict, dict]]:
    """The SGD training rows whose context is a JSON record, with the record."""
    with open(data / "training" / "sgd_records_train.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            try:
                record = json.loads(r["context"])
            except (ValueError, TypeError):
                continue
            if isinstance(record, dict):
                yield r, record


def _yes_no(value: object) -> bool:
    return str(value) in ("True", "False")


def record_claims(data: Path, rng: random.Random, share: float = 0.5) -> list[Pair]:
    """One sentence of a faithful SGD reply at a time, as the gate checks it at run time
    (issue 45, item 3): entailed by its record; neutral when the field it states is removed; a
    yes/no field it states flipped, contradicted. People's own wording of 24 services' fields
    ("it allows pets" for ``pets_allowed``), not this script's templates."""
    out: list[Pair] = []
    for r, record in _sgd_rows(data):
        if int(r["label"]):
            continue
        stated = [k for k in (r.get("meta") or {}).get("stated", []) if k in record]
        stated += [k for k, v in record.items() if _yes_no(v)]
        window = record_window(record)
        for s in sentences(str(r["response"])):
            if s.rstrip().endswith("?") or len(s.split()) < 3 or rng.random() >= share:
                continue
            out.append((s, window, ENTAILED, "real_sgd_claim"))
            hit = [k for k in stated if _mentions(s, k, str(record[k]))]
            if hit:
                out.extend(_without_or_flipped(s, record, rng.choice(hit)))
    return out


def _without_or_flipped(claim: str, record: dict, key: str) -> list[Pair]:
    """``claim`` against its record with ``key`` removed (neutral) and, for a yes/no field,
    with it flipped (contradicted)."""
    rest = {k: v for k, v in record.items() if k != key}
    out = [(claim, record_window(rest), NEUTRAL, "real_sgd_claim_missing")]
    if _yes_no(record[key]):
        flipped = {**record, key: "False" if record[key] == "True" else "True"}
        out.append((claim, record_window(flipped), CONTRADICTED, "real_sgd_bool_flipped"))
    return out


def real(data: Path, banned: set[str], *, mnli: bool = True) -> list[Pair]:
    """The training folder's real pairs (no report half; issue 47): FEVER-NLI and MultiNLI
    premise / hypothesis (label 1 = not entailed, contradicted or neutral: ``NOT_ENTAILED``),
    and SGD tool records / replies (a reply with one value changed is contradicted; a faithful
    reply entailed), the record linearised as the verifier reads it at run time and the
    reply's questions left out. A hypothesis that is a sentence of a report row is dropped."""
    out: list[Pair] = []
    with open(data / "training" / "nli_fever_mnli.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if not mnli and r["dataset"] == "mnli":
                continue
            hyp, prem = str(r["response"]).strip(), str(r["context"]).strip()
            if not hyp or not prem or hyp in banned:
                continue
            label = NOT_ENTAILED if int(r["label"]) else ENTAILED
            out.append((hyp, prem, label, f"real_{r['dataset']}"))
    for r, record in _sgd_rows(data):
        said = [s for s in sentences(str(r["response"])) if not s.rstrip().endswith("?")]
        if not said:
            continue
        label = CONTRADICTED if int(r["label"]) else ENTAILED
        out.append((" ".join(said), record_window(record), label, "real_sgd_reply"))
    return out


_E2E_VALUES = {
    "eatType": ["coffee shop", "pub", "restaurant"],
    "food": ["Chinese", "English", "French", "Fast food", "Indian", "Italian", "Japanese"],
    "priceRange": ["cheap", "moderate", "high", "less than £20", "£20-25", "more than £30"],
    "customer rating": ["low", "average", "high", "1 out of 5", "3 out of 5", "5 out of 5"],
    "area": ["city centre", "riverside"],
}


def _mutate_record(
    record: dict[str, object], claims: list[str], rng: random.Random
) -> tuple[dict[str, object], str, int] | None:
    """A record with one value the description states changed (contradicted) or removed
    (neutral), and the claim that states it."""
    options = []
    for key, value in record.items():
        if key == "name" or key == "near":
            continue
        if isinstance(value, bool):
            words = ("family", "kid", "child")
            hit = [c for c in claims if any(w in c.lower() for w in words)]
        else:
            hit = [c for c in claims if str(value).lower() in c.lower()]
        if hit:
            options.append((key, value, hit[0]))
    if not options:
        return None
    key, value, claim = rng.choice(options)
    rec = dict(record)
    if rng.random() < 0.3:
        del rec[key]
        return rec, claim, NEUTRAL
    if isinstance(value, bool):
        rec[key] = not value
    else:
        alts = [v for v in _E2E_VALUES.get(key, []) if v.lower() != str(value).lower()]
        if not alts:
            return None
        rec[key] = rng.choice(alts)
    return rec, claim, CONTRADICTED


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "benchdata")
    ap.add_argument("--out", type=Path, default=Path("/tmp/verifier_pairs.jsonl"))
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--per-sentence", type=float, default=1.6)
    ap.add_argument("--templated", type=int, default=1500)
    ap.add_argument("--reworded", action="store_true", help="the reworded-claims experiment")
    ap.add_argument("--real", action="store_true", help="add the training folder's real pairs")
    args = ap.parse_args()
    pairs, manifest = build(
        args.data,
        args.seed,
        args.per_sentence,
        args.templated,
        reworded_pairs=args.reworded,
        real_pairs=args.real,
    )
    with open(args.out, "w", encoding="utf-8") as fh:
        for c, w, y, fam in pairs:
            fh.write(json.dumps({"claim": c, "window": w, "label": y, "family": fam}) + "\n")
    args.out.with_suffix(".manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
