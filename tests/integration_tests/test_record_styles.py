"""Issue 24: descriptions of restaurant records in the styles people write, real models.

Three files of 300 lines each, written by hand for these tests by helpers that read no code
and no data file of the project: invented records with the E2E keys and a description each,

- ``faithful`` (200): every fact is the record's (opinions allowed);
- ``changed`` (50): one value of a field the record has is changed;
- ``added`` (50): one fact the record does not give.

``record_styles.jsonl`` (session 39, eleven styles: plain, reordered, typos, first person,
promotional, family words, price words, rating words, area words, fragments, many fields in
one sentence). Held out at first reading against 7d75408: faithful flagged 32 (one
contradicted: "isnt family friendly" read as asserting it), changed 45, added 45; after the
fixes of sessions 39 and 40 it is 9 / 47 / 43 with nothing contradicted. What is left of its
faithful misses is mostly first-person experience ("I ate at Golden Lotus last week."), a
claim by design (DESIGN: an assistant's experience needs evidence).

``record_idioms.jsonl`` (session 40, twelve styles chosen to be hard: idioms, reviews, heavy
negation, question and answer, lists, long sentences, choppy fragments, British casual,
figures in words, comparatives, typos, formal). At first reading against d8f71db: faithful
flagged 90, changed 48, added 46, nothing contradicted. The session's fixes were written
after reading its misses (a field of one value denied, ratings with stars and their scale,
"public house", "quid", price idioms, "leave the kids at home", "not one for the kids"); it
is a development set now: 57 / 48 / 45. Most of what is left are idioms no word list should
chase ("set you back a pretty penny", "neither here nor there", "the ratings are pants").

``record_voices.jsonl`` (session 40, ten voices: crowd-worker, tourist guide, text message,
two sentences with a pronoun, learner English, appositives, contrast, passive, announcement,
an answer to a question). Held out for the first fixes of session 40: faithful flagged 26 ->
22 at d8f71db -> the first three rounds, changed 50 and added 42 unchanged. Read afterwards
for the last two rounds (a band said in words beside its figure, "kids ok", "not aimed at
children", "by river", "in centre of city", a figure that is a word of the name such as
"Le Petit Four"): 9 / 50 / 41 (the addition lost, "reservations are essential at
weekends", is read as advice and not counted, the rest of its sentence now grounded).

``record_registers.jsonl`` (session 41, ten registers: an owner's first person, a friend's
recommendation, fronted phrases, relative clauses, asides in brackets and dashes, hearsay and
hedges, a parent's view, headlines, many true negations, figures in words). At first reading
against f298819: faithful flagged 49 (two contradicted: "not unfriendly to families", "not
unsuitable for kids" read as denials), changed 50 (40 named), added 42. Read for the
session's fixes (a negation of a negative, a dash or bracket as a comma, hedges, "great with
kids", "set up for children", "a family place", "doesn't cost more than £20"): 34 / 50 / 42,
nothing contradicted. What is left is mostly talk to the reader ("Pop in and say hello",
"You'd love it", "worth a night off") and a parent's own story.

``record_crowd.jsonl`` (session 41, 240 faithful / 30 changed / 30 added in the E2E
crowd-workers' manner: one or two sentences, the name last, lists, learner English, chatty).
Written after most of the session's fixes and read only for the faithful lines it flags
(advice and opinions the fields do not hold: "so I'd think twice", "so maybe try
elsewhere", "highly recomend!", "a stylish ... restaurant ..., adults only"): 4 / 30 (23
named) / 28.

``record_guides.jsonl`` (session 42, 200 / 50 / 50, ten styles: guide blurbs, social posts,
"If you're looking for ...", run-on sentences, a pronoun pair, true negations, figures in
words, the place first, comparatives, terse notes). At first reading against a278a30: faithful
flagged 39, changed 48 (31 named), added 39, and one added line **contradicted** ("isn't
adults only – a family-friendly ... café" read the negation across the dash). Read for the
session's fixes (a negation with its own predicate before a comma, "not by the river" of a city
centre, dishes named as the cuisine, "mid-range", "avg", "top marks", "won't cost you more
than", "bring / take the kids"): 27 / 48 (31) / 39, nothing contradicted. What is left is
mostly social-media talk ("Solid.", "Sign me up", "#bargain") and comparisons ("costs a bit
more than the usual riverside café").

The floors on each file (faithful flagged at most, changed flagged and named, added flagged at
least) are measured figures, checked by ``benchmarks/check_figures.py`` (``record_styles``);
here: every file has its labels and styles, and no faithful description and no added fact is
ever contradicted. The floors were measured with the exact integer sums of
``grounding/verifier/_int8.py`` (session 43), which every CPU computes alike: session 42 had read
the sets on a CPU without VNNI, whose saturating int8 kernel moved verifier probabilities across
their thresholds (it blamed a fresh install; BENCHMARKS.md, "Int8 on every CPU"). With exact
sums the final code of session 42 reads styles 9 / 48 (32) / 43, idioms 52 / 48 (29) / 46,
voices 9 / 50 (31) / 42, registers 30 / 50 (40) / 43, crowd 4 / 30 (23) / 28, guides 28 / 48
(31) / 41; the figures above are those of the CPU each session had.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

from langchain_qgate.grounding.monitor import HallucinationMonitor
from langchain_qgate.schemas import Grade

pytestmark = pytest.mark.model

DATA = Path(__file__).resolve().parents[1] / "data"


class Shape(NamedTuple):
    labels: tuple[int, int, int]  # faithful, changed, added
    styles: int


FILES = {
    "record_styles.jsonl": Shape((200, 50, 50), 11),
    "record_idioms.jsonl": Shape((200, 50, 50), 12),
    "record_voices.jsonl": Shape((200, 50, 50), 10),
    "record_registers.jsonl": Shape((200, 50, 50), 10),
    "record_crowd.jsonl": Shape((240, 30, 30), 6),
    "record_guides.jsonl": Shape((200, 50, 50), 10),
}


class Outcome(NamedTuple):
    label: str
    style: str
    response: str
    flagged: bool
    contradicted: bool


def _outcome(monitor: HallucinationMonitor, row: dict) -> Outcome:
    report = monitor.verify_grounding(row["response"], json.dumps(row["record"]))
    flagged = any(v.grade is Grade.FABRICATED for v in report.verdicts if v.counted)
    contradicted = bool(report.contradictions)
    return Outcome(
        row["label"], row["style"], row["response"], flagged or contradicted, contradicted
    )


@pytest.fixture(scope="module")
def outcomes(real_embedder) -> dict[str, list[Outcome]]:
    monitor = HallucinationMonitor(embedder=real_embedder)
    found = {}
    for name in FILES:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        found[name] = [_outcome(monitor, json.loads(line)) for line in lines if line]
    return found


@pytest.mark.parametrize("name", FILES)
def test_the_file_has_every_label_and_style(outcomes, name: str) -> None:
    faithful, changed, added = FILES[name].labels
    counts = {"faithful": faithful, "changed": changed, "added": added}
    assert Counter(o.label for o in outcomes[name]) == counts
    assert len({o.style for o in outcomes[name]}) == FILES[name].styles


@pytest.mark.parametrize("name", FILES)
def test_a_faithful_description_is_never_contradicted(outcomes, name: str) -> None:
    assert [o.response for o in outcomes[name] if o.label == "faithful" and o.contradicted] == []


@pytest.mark.parametrize("name", FILES)
def test_an_added_fact_is_never_contradicted(outcomes, name: str) -> None:
    added = [o for o in outcomes[name] if o.label == "added"]
    assert [o.response for o in added if o.contradicted] == []
