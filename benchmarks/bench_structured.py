"""Structured evidence: answers about JSON records, order lists and tables, with known errors.

Records and answers are generated with a fixed seed (no outside data, nothing to license):

- **listings**: a search tool's JSON with three business listings (name, address, city, state,
  categories, opening hours per day, attributes, stars, review count);
- **orders**: a database tool's list of orders (id, customer, status, total and currency,
  item count, order date);
- **cities**: a markdown or CSV table (city, country, population, area in km²).

Every record gets one faithful answer (several templates: 12 h and 24 h times, list items,
booleans, money, dates, figures written another way) and one answer per error type, each a
faithful answer with ONE claim changed:

- ``swapped_value``: the value of another field of the record, or of the same field of a sibling
  record (Wednesday's closing time for Tuesday, another listing's city, another row's population);
- ``wrong_number``: a figure changed (stars, review count, total, population, address number);
- ``wrong_unit``: the right figure with another unit or currency (miles for km², $ for EUR);
- ``wrong_time``: an opening or closing time off by one to three hours;
- ``missing_field``: a claim about a field the record lacks (delivery, parking, a phone number).

Per error type the report gives how often the changed claim is **contradicted with the field
named** (the right field), and how often it is **flagged** (not GROUNDED; for missing fields
the expected outcome: unsupported). On faithful answers: how often any claim is contradicted
(target <= 1%), how often every claim is GROUNDED, and how often the default gate rejects.

Seeds: ``--split dev`` (seed 1) was used while building the matcher; ``--split report`` (seeds
2-3) is the one reported in BENCHMARKS.md.

Run (real bundled model, about two minutes on 2 cores):

    python benchmarks/bench_structured.py --split report --json benchmarks/results/structured.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import partial
from pathlib import Path
from typing import Any

from langchain_qgate import QualityGate
from langchain_qgate.schemas import Grade, GroundingReport

ERRORS = ("swapped_value", "wrong_number", "wrong_unit", "wrong_time", "missing_field")
SEEDS = {"dev": [1], "report": [2, 3]}

_NAMES = (
    "Harbor Noodle House", "Blue Fern Cafe", "Golden Lantern", "Copper Kettle Diner",
    "Olive Tree Taverna", "Saffron Table", "Juniper Bistro", "Red Maple Grill", "Tidewater Tacos",
    "Little Kyoto", "Marigold Bakery", "Stone Oven Pizza", "Lotus Garden", "Prairie Smokehouse",
)  # fmt: skip
_STREETS = ("Pier St", "Elm Ave", "Mission Rd", "Harbor Blvd", "Cedar Ln", "Main St", "Oak Dr")
_CITIES = (
    ("Santa Barbara", "CA"), ("Portland", "OR"), ("Austin", "TX"), ("Boulder", "CO"),
    ("Madison", "WI"), ("Asheville", "NC"), ("Tucson", "AZ"), ("Savannah", "GA"),
)  # fmt: skip
_CATEGORIES = (
    ("Noodles", "noodle"), ("Ramen", "ramen"), ("Cafes", "cafe"), ("Pizza", "pizza"),
    ("Bakeries", "bakery"),
    ("Barbeque", "barbeque"), ("Seafood", "seafood"), ("Mexican", "Mexican"),
    ("Greek", "Greek"), ("Thai", "Thai"), ("Sushi Bars", "sushi"), ("Vegan", "vegan"),
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MISSING = (
    "They offer home delivery.",
    "There is free parking behind the building.",
    "You can reach them by phone at 555-0142.",
    "They take reservations online.",
    "The owner is a trained chef from Lyon.",
)
_CUSTOMERS = ("Ana Silva", "Ben Okafor", "Chen Wei", "Dara Novak", "Eli Haddad", "Fay Moreau")
_STATUSES = ("shipped", "delivered", "processing", "cancelled")
_TABLE_CITIES = (
    ("Berlin", "Germany"), ("Madrid", "Spain"), ("Vienna", "Austria"), ("Lisbon", "Portugal"),
    ("Prague", "Czechia"), ("Warsaw", "Poland"), ("Dublin", "Ireland"), ("Oslo", "Norway"),
    ("Helsinki", "Finland"), ("Athens", "Greece"), ("Budapest", "Hungary"), ("Riga", "Latvia"),
)  # fmt: skip
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


@dataclass
class Case:
    """One answer to grade: the evidence, the answer, and the changed claim (if any)."""

    kind: str  # record family
    error: str  # "faithful" or one of ERRORS
    evidence: Any
    answer: str
    target: str = ""  # the changed sentence
    field: str = ""  # the field the change is about (suffix of the field id)
    meta: dict[str, Any] = dc_field(default_factory=dict)


def _add_variant(
    out: list[Case],
    kind: str,
    evidence: Any,
    parts: list[str],
    i: int,
    new: str,
    error: str,
    fld: str,
) -> None:
    """Add the faithful answer ``parts`` with sentence ``i`` replaced by ``new`` (an error)."""
    changed = list(parts)
    changed[i] = new
    out.append(Case(kind, error, evidence, " ".join(changed), new, fld))


def _h12(minutes: int, rng: random.Random) -> str:
    h, m = divmod(minutes, 60)
    if rng.random() < 0.3:
        return f"{h:02d}:{m:02d}"
    suffix = "am" if h < 12 else "pm"
    h12 = h % 12 or 12
    text = f"{h12}:{m:02d}" if m else f"{h12}"
    return f"{text} {suffix}" if rng.random() < 0.7 else f"{text} {suffix[0]}.m."


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def _listing(rng: random.Random, name: str) -> dict[str, Any]:
    city, state = rng.choice(_CITIES)
    cats = rng.sample(_CATEGORIES, 2)
    hours: dict[str, str] = {}
    for day in _DAYS:
        if rng.random() < 0.15:
            continue
        open_ = rng.choice([7, 8, 9, 10, 11, 12]) * 60 + rng.choice([0, 0, 30])
        close = rng.choice([17, 18, 20, 21, 22, 23]) * 60
        hours[day] = f"{_hhmm(open_)}-{_hhmm(close)}"
    return {
        "name": name,
        "address": f"{rng.randint(10, 990)} {rng.choice(_STREETS)}",
        "city": city,
        "state": state,
        "categories": ", ".join(c for c, _ in cats),
        "hours": hours,
        "attributes": {
            "WiFi": rng.choice(["free", "no"]),
            "OutdoorSeating": rng.random() < 0.5,
            "RestaurantsTakeOut": rng.random() < 0.6,
        },
        "stars": rng.choice([3.0, 3.5, 4.0, 4.5, 5.0]),
        "review_count": rng.randint(12, 900),
    }


def _hours_claim(rec: dict[str, Any], day: str, rng: random.Random, o: int, c: int) -> str:
    name = rng.choice(["They", "It", rec["name"]])
    verb = "are" if name == "They" else "is"
    days = f"{day}s" if rng.random() < 0.5 else day
    return rng.choice(
        [
            f"{name} {verb} open on {days} from {_h12(o, rng)} to {_h12(c, rng)}.",
            f"On {days} {name if name == rec['name'] else name.lower()} "
            f"{'open' if name == 'They' else 'opens'}"
            f" at {_h12(o, rng)} and close{'' if name == 'They' else 's'} at {_h12(c, rng)}.",
        ]
    )


def _minutes(text: str) -> tuple[int, int]:
    a, b = text.split("-")
    ha, ma = a.split(":")
    hb, mb = b.split(":")
    return int(ha) * 60 + int(ma), int(hb) * 60 + int(mb)


def listing_cases(rng: random.Random, n: int) -> list[Case]:
    out: list[Case] = []
    for _ in range(n):
        names = rng.sample(_NAMES, 3)
        recs = [_listing(rng, nm) for nm in names]
        while len({r["city"] for r in recs}) < 3:
            recs[1]["city"], recs[1]["state"] = rng.choice(_CITIES)
            recs[2]["city"], recs[2]["state"] = rng.choice(_CITIES)
        k = rng.randrange(3)
        rec = recs[k]
        evidence: Any = (
            {"results": recs}
            if rng.random() < 0.5
            else json.dumps({"results": recs}, ensure_ascii=False)
        )
        cat = next(word for c, word in _CATEGORIES if c == rec["categories"].split(", ")[0])
        article = "an" if cat[0].lower() in "aeiou" else "a"
        intro = rng.choice(
            [
                f"{rec['name']} is {article} {cat} restaurant at {rec['address']}, "
                f"{rec['city']}, {rec['state']}.",
                f"{rec['name']} is {article} {cat} place located at {rec['address']} in "
                f"{rec['city']}.",
                f"{rec['name']} is located in {rec['city']}, {rec['state']}.",
            ]
        )
        day = rng.choice(list(rec["hours"]))
        o, c = _minutes(rec["hours"][day])
        hours = _hours_claim(rec, day, rng, o, c)
        wifi = rec["attributes"]["WiFi"] == "free"
        bool_claim = rng.choice(
            [
                "They offer free Wi-Fi." if wifi else "They do not offer Wi-Fi.",
                "It has outdoor seating."
                if rec["attributes"]["OutdoorSeating"]
                else "It has no outdoor seating.",
            ]
        )
        rating = rng.choice(
            [
                f"It is rated {rec['stars']:g} stars from {rec['review_count']} reviews.",
                f"It has {rec['review_count']} reviews and a rating of {rec['stars']:g} stars.",
            ]
        )
        parts = [intro, hours, bool_claim, rating]
        faithful = " ".join(parts)
        out.append(Case("listings", "faithful", evidence, faithful))

        variant = partial(_add_variant, out, "listings", evidence, parts)

        # swapped: another day's hours, or a sibling listing's city
        others = [d for d in rec["hours"] if rec["hours"][d] != rec["hours"][day]]
        if others and rng.random() < 0.6:
            od, oc = _minutes(rec["hours"][rng.choice(others)])
            if (od, oc) != (o, c):
                variant(1, _hours_claim(rec, day, rng, od, oc), "swapped_value", f"hours.{day}")
        else:
            sib = recs[(k + 1) % 3]
            variant(
                0,
                f"{rec['name']} is located in {sib['city']}, {sib['state']}.",
                "swapped_value",
                "city",
            )
        wrong = rng.choice(["stars", "reviews", "address"])
        if wrong == "stars":
            stars = rng.choice([s for s in (3.0, 3.5, 4.0, 4.5, 5.0) if s != rec["stars"]])
            variant(3, f"It is rated {stars:g} stars.", "wrong_number", "stars")
        elif wrong == "reviews":
            count = rec["review_count"] + rng.choice([-7, 13, 40, 100])
            variant(3, f"It has {count} reviews.", "wrong_number", "review_count")
        else:
            num, street = rec["address"].split(" ", 1)
            variant(
                0,
                f"{rec['name']} is at {int(num) + rng.choice([2, 10, 100])} {street}.",
                "wrong_number",
                "address",
            )
        shift = rng.choice([-120, -60, 60, 120, 180])
        if rng.random() < 0.5:
            t = _hours_claim(rec, day, rng, o, min(c + shift, 23 * 60 + 30))
        else:
            t = _hours_claim(rec, day, rng, max(o - abs(shift), 5 * 60), c)
        variant(1, t, "wrong_time", f"hours.{day}")
        variant(3, rng.choice(_MISSING), "missing_field", "")
    return out


def order_cases(rng: random.Random, n: int) -> list[Case]:
    out: list[Case] = []
    for _ in range(n):
        orders = []
        for i in range(4):
            cur = rng.choice(["USD", "EUR"])
            orders.append(
                {
                    "order_id": rng.randint(1000, 9999),
                    "customer": rng.choice(_CUSTOMERS),
                    "status": _STATUSES[i],
                    "total": round(rng.uniform(8, 400), 2),
                    "currency": cur,
                    "items": rng.randint(1, 9),
                    "placed": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                }
            )
        rng.shuffle(orders)
        k = rng.randrange(4)
        o = orders[k]
        evidence = json.dumps(orders) if rng.random() < 0.5 else {"orders": orders}
        sym = "$" if o["currency"] == "USD" else "€"
        money = rng.choice([f"{sym}{o['total']:.2f}", f"{o['total']:.2f} {o['currency']}"])
        y, mth, d = (int(x) for x in o["placed"].split("-"))
        date = rng.choice([f"{_MONTHS[mth - 1]} {d}, {y}", f"{d} {_MONTHS[mth - 1]} {y}"])
        parts = [
            f"Order {o['order_id']} was placed on {date}.",
            rng.choice([f"Its total is {money}.", f"The order totals {money}."]),
            f"It contains {o['items']} items.",
            f"The order status is {o['status']}.",
        ]
        out.append(Case("orders", "faithful", evidence, " ".join(parts)))

        variant = partial(_add_variant, out, "orders", evidence, parts)

        sib = orders[(k + 1) % 4]
        if rng.random() < 0.5 and sib["total"] != o["total"]:
            variant(1, f"Its total is {sym}{sib['total']:.2f}.", "swapped_value", "total")
        else:
            variant(3, f"The order status is {sib['status']}.", "swapped_value", "status")
        if rng.random() < 0.5:
            wrong_total = round(o["total"] * rng.choice([0.8, 1.1, 1.5]) + 1, 2)
            variant(1, f"Its total is {sym}{wrong_total:.2f}.", "wrong_number", "total")
        else:
            variant(
                2, f"It contains {o['items'] + rng.randint(1, 4)} items.", "wrong_number", "items"
            )
        other = "€" if sym == "$" else "$"
        variant(1, f"Its total is {other}{o['total']:.2f}.", "wrong_unit", "total")
        variant(
            3,
            rng.choice(["It ships by express courier.", "The order was paid by credit card."]),
            "missing_field",
            "",
        )
    return out


def _table_text(rows: list[dict[str, Any]], style: str) -> str:
    header = ["city", "country", "population", "area_km2"]
    if style == "md":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(str(r[h]) for h in header) + " |" for r in rows]
    else:
        lines = [",".join(header)] + [",".join(str(r[h]) for h in header) for r in rows]
    return "\n".join(lines)


def city_cases(rng: random.Random, n: int) -> list[Case]:
    out: list[Case] = []
    for _ in range(n):
        picks = rng.sample(_TABLE_CITIES, 4)
        rows = [
            {
                "city": c,
                "country": country,
                "population": f"{rng.randint(5, 49) / 10:.1f} million",
                "area_km2": rng.randint(80, 950),
            }
            for c, country in picks
        ]
        text = _table_text(rows, rng.choice(["md", "csv"]))
        k = rng.randrange(4)
        r = rows[k]
        pop = r["population"]
        parts = [
            rng.choice(
                [f"{r['city']} is in {r['country']}.", f"{r['city']} lies in {r['country']}."]
            ),
            rng.choice(
                [
                    f"{r['city']} has a population of {pop}.",
                    f"About {pop} people live in {r['city']}.",
                ]
            ),
            f"The city covers {r['area_km2']} km².",
        ]
        evidence = text
        out.append(Case("cities", "faithful", evidence, " ".join(parts)))

        variant = partial(_add_variant, out, "cities", evidence, parts)

        sib = rows[(k + 1) % 4]
        if sib["population"] != pop:
            variant(
                1,
                f"{r['city']} has a population of {sib['population']}.",
                "swapped_value",
                "population",
            )
        else:
            variant(2, f"The city covers {sib['area_km2']} km².", "swapped_value", "area_km2")
        variant(
            2,
            f"The city covers {r['area_km2'] + rng.choice([-30, 25, 120])} km².",
            "wrong_number",
            "area_km2",
        )
        variant(2, f"The city covers {r['area_km2']} square miles.", "wrong_unit", "area_km2")
        variant(
            2,
            rng.choice(
                [
                    f"{r['city']} has an average elevation of 34 metres.",
                    f"The mayor of {r['city']} was elected in 2019.",
                ]
            ),
            "missing_field",
            "",
        )
    return out


def build_cases(seed: int, n: int) -> list[Case]:
    rng = random.Random(seed)
    return listing_cases(rng, n) + order_cases(rng, n) + city_cases(rng, n)


def _target_verdicts(report: GroundingReport, answer: str, target: str) -> list[Any]:
    """The claims cut from the changed sentence (a sentence may give two claims)."""
    start = answer.index(target)
    end = start + len(target)
    inside = [v for v in report.verdicts if v.claim.start < end and v.claim.end > start]
    return inside or list(report.verdicts)


def evaluate(cases: list[Case], gate: QualityGate) -> dict[str, Any]:
    stats: dict[str, dict[str, int]] = {}
    examples: list[dict[str, str]] = []
    for case in cases:
        report = gate.monitor.verify_grounding(case.answer, case.evidence)
        s = stats.setdefault(case.error, {"n": 0, "named": 0, "flagged": 0, "contradicted": 0,
                                          "all_grounded": 0, "gate_rejects": 0})  # fmt: skip
        s["n"] += 1
        contradicted = [v for v in report.verdicts if v.contradiction is not None]
        if case.error == "faithful":
            s["contradicted"] += bool(contradicted)
            s["all_grounded"] += all(
                v.grade is Grade.GROUNDED for v in report.verdicts if v.counted
            )
            decision = gate.decide(case.answer, report)
            s["gate_rejects"] += decision.metadata.decision != "pass"
            if contradicted and len(examples) < 10:
                examples.append({"answer": case.answer, "reason": contradicted[0].reason})
            continue
        target = _target_verdicts(report, case.answer, case.target)
        found = [v.contradiction for v in target if v.contradiction is not None]
        s["contradicted"] += bool(found)
        s["named"] += any(
            (getattr(c, "field", None) or "").endswith(case.field) and case.field for c in found
        )
        s["flagged"] += any(v.grade is not Grade.GROUNDED for v in target)
        decision = gate.decide(case.answer, report)
        s["gate_rejects"] += decision.metadata.decision != "pass"
    return stats | {"_false_contradiction_examples": examples}  # type: ignore[dict-item]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=sorted(SEEDS), default="report")
    ap.add_argument("--records", type=int, default=40, help="records per family per seed")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument(
        "--as-text",
        action="store_true",
        help="pass dict evidence as its JSON text (what a tool's ToolMessage carries; for "
        "measuring a version that reads no dicts)",
    )
    args = ap.parse_args()
    gate = QualityGate()
    cases = [c for seed in SEEDS[args.split] for c in build_cases(seed, args.records)]
    if args.as_text:
        for c in cases:
            if not isinstance(c.evidence, str):
                c.evidence = json.dumps(c.evidence, ensure_ascii=False)
    start = time.perf_counter()
    stats = evaluate(cases, gate)
    elapsed = time.perf_counter() - start
    rows = []
    print(f"split={args.split} seeds={SEEDS[args.split]} answers={len(cases)}")
    print(f"{'answers':<15}{'n':>5}{'named field':>13}{'contradicted':>14}{'flagged':>9}"
          f"{'gate rejects':>14}{'all grounded':>14}")  # fmt: skip
    for key in ("faithful", *ERRORS):
        s = stats[key]
        n = s["n"]

        def pct(v: int, n: int = n) -> str:
            return f"{100 * v / n:.1f}%"

        named = "-" if key in ("faithful", "missing_field") else pct(s["named"])
        flagged = "-" if key == "faithful" else pct(s["flagged"])
        grounded = pct(s["all_grounded"]) if key == "faithful" else "-"
        print(f"{key:<15}{n:>5}{named:>13}{pct(s['contradicted']):>14}{flagged:>9}"
              f"{pct(s['gate_rejects']):>14}{grounded:>14}")  # fmt: skip
        rows.append({"answers": key, **s})
    for ex in stats["_false_contradiction_examples"]:
        print("false contradiction:", ex["reason"], "|", ex["answer"][:160])
    load = os.getloadavg()
    print(f"{elapsed:.1f} s, {platform.machine()}, {os.cpu_count()} cores, load {load[0]:.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        result = {"split": args.split, "seeds": SEEDS[args.split], "rows": rows,
                  "seconds": round(elapsed, 1), "load_average": [round(x, 2) for x in load],
                  "python": sys.version.split()[0]}  # fmt: skip
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
