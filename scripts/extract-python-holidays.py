"""
Extracts every holiday python-holidays (vacanza/holidays, MIT) knows into pinned files under
sources/python-holidays/, so that the build reads facts, never Python:

  meta.json          version, years, and per country: name, languages, categories, subdivisions
  <CC>.csv           one row per (location, date, category, name) of every category but those in SKIPPED;
                     a subdivision's rows are given as its differences from the country's: `op` is `+` for a
                     row the subdivision adds, `-` for a country row it does not have (country rows: `op` empty)
  weekends.csv       each location's weekend, as dated spans (python-holidays' _get_weekend, day by day)

Run it through scripts/python-holidays.sh (a virtual environment with the pinned version). Output is sorted
and has no timestamps: the same version gives the same bytes.
"""
import csv
import io
import json
import os
import sys
from datetime import date, timedelta
from multiprocessing import Pool

import holidays
from holidays import country_holidays

FIRST, LAST = 1990, 2099
# Observances, school holidays and armed-forces days close nothing we publish (they are kept in the package).
SKIPPED = {"unofficial", "school", "armed_forces"}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
OUT = sys.argv[1] if len(sys.argv) > 1 else "sources/python-holidays"
# --only US,KZ: extract these countries' <CC>.csv only (the audit test re-extracts a sample to check the pins).
ONLY = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None


def english_of(languages, default):
    for want in ("en_US", "en_GB", "en"):
        if want in languages:
            return want
    for lang in languages:
        if lang.startswith("en"):
            return lang
    return None


def rows_of(cc, subdiv, categories, local, english):
    """(date, category, english name, local name) for every holiday of one location."""
    out = []
    years = range(FIRST, LAST + 1)
    for cat in categories:
        loc = country_holidays(cc, subdiv=subdiv, years=years, categories=(cat,), language=local)
        en = country_holidays(cc, subdiv=subdiv, years=years, categories=(cat,), language=english) if english else loc
        for d in sorted(loc.keys()):
            if not FIRST <= d.year <= LAST:
                continue
            local_names = loc.get_list(d)
            en_names = en.get_list(d)
            if len(local_names) != len(en_names):
                en_names = local_names if not english else [" / ".join(en_names)] * len(local_names)
            for ln, enn in zip(local_names, en_names):
                out.append((d.isoformat(), cat, enn, ln))
    return out


def weekend_spans(inst):
    """Dated weekend spans: [from, until, days] with from/until empty at the window's ends."""
    spans = []
    d = date(FIRST, 1, 1)
    end = date(LAST, 12, 31)
    while d <= end:
        wk = " ".join(WEEKDAYS[i] for i in sorted(inst._get_weekend(d)))
        if not spans or spans[-1][2] != wk:
            if spans:
                spans[-1][1] = (d - timedelta(days=1)).isoformat()
            spans.append([d.isoformat(), "", wk])
        d += timedelta(days=1)
    spans[0][0] = ""
    return spans


def country(cc):
    base = country_holidays(cc)
    local = base.default_language
    languages = list(base.supported_languages)
    english = english_of(languages, local) if languages else None
    if english == local:
        english = None
    categories = sorted(set(base.supported_categories) - SKIPPED)
    subdivisions = list(base.subdivisions)
    aliases = base.get_subdivision_aliases() if hasattr(base, "get_subdivision_aliases") else {}
    rows = []
    weekends = []
    workdays = []
    national = set(rows_of(cc, None, categories, local, english))
    rows += [(cc, "", *r) for r in national]
    for subdiv in subdivisions:
        own = set(rows_of(cc, subdiv, categories, local, english))
        location = f"{cc}-{subdiv}"
        rows += [(location, "+", *r) for r in own - national]
        rows += [(location, "-", *r) for r in national - own]
    for subdiv in [None] + subdivisions:
        location = cc if subdiv is None else f"{cc}-{subdiv}"
        inst = country_holidays(cc, subdiv=subdiv, years=range(FIRST, LAST + 1))
        for d in sorted(inst.weekend_workdays):
            if FIRST <= d.year <= LAST:
                workdays.append((location, d.isoformat()))
        for span in weekend_spans(inst):
            weekends.append((location, *span))
    rows.sort(key=lambda r: (r[0] != cc, r[0], r[2], r[1], r[3], r[4], r[5]))
    meta = {
        "name": type(base).__mro__[1].__name__ if type(base).__name__ == cc else type(base).__name__,
        "default_language": local,
        "english_language": english,
        "languages": sorted(languages),
        "categories": categories,
        "skipped_categories": sorted(set(base.supported_categories) & SKIPPED),
        "subdivisions": {s: sorted(n for n, code in [(a, v) for v, al in aliases.items() for a in al] if code == s) for s in subdivisions}
        if aliases
        else {s: [] for s in subdivisions},
        "start_year": getattr(base, "start_year", None),
        "end_year": getattr(base, "end_year", None),
    }
    return cc, meta, rows, weekends, sorted(set(workdays))


def csv_text(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def main():
    # Two-letter codes only: the three-letter ones are aliases of the same classes.
    codes = sorted(c for c in holidays.list_supported_countries() if len(c) == 2 and (ONLY is None or c in ONLY))
    os.makedirs(OUT, exist_ok=True)
    metas = {}
    weekends = []
    workdays = []
    with Pool(int(os.environ.get("WORKERS", "2"))) as pool:
        for i, (cc, meta, rows, wk, wd) in enumerate(pool.imap(country, codes)):
            metas[cc] = meta
            weekends += wk
            workdays += wd
            with open(os.path.join(OUT, f"{cc}.csv"), "w", encoding="utf-8", newline="") as f:
                f.write(csv_text(["location", "op", "date", "category", "name", "local_name"], rows))
            print(f"[{i + 1}/{len(codes)}] {cc}: {len(rows)} rows, {len(meta['subdivisions'])} subdivisions", file=sys.stderr, flush=True)
    if ONLY is not None:
        return
    with open(os.path.join(OUT, "weekends.csv"), "w", encoding="utf-8", newline="") as f:
        f.write(csv_text(["location", "from", "until", "weekend"], weekends))
    with open(os.path.join(OUT, "weekend-workdays.csv"), "w", encoding="utf-8", newline="") as f:
        f.write(csv_text(["location", "date"], workdays))
    with open(os.path.join(OUT, "meta.json"), "w", encoding="utf-8") as f:
        json.dump({"package": "holidays", "version": holidays.__version__, "first_year": FIRST, "last_year": LAST, "countries": metas}, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
