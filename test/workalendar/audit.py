"""Differential audit helper: our business-day answers against workalendar's.

Run with Debian's interpreter (python3-workalendar 17 is installed there):

    /usr/bin/python3 test/workalendar/audit.py answers.json
    /usr/bin/python3 test/workalendar/audit.py --codes   (the codes it has)

answers.json (written by test/workalendar.test.ts):

    {"years": [2018, ...],
     "locations": {"US-CA": {"closed": ["2018-01-01", ...],
                             "open_weekend": ["2018-...", ...]}}}

`closed` lists every date of the years that is NOT a business day for us
(weekends included); every other date is open. `open_weekend` lists the
Saturdays and Sundays we answer open (informative only: it is implied by
`closed`).

Prints JSON on stdout:

    {"workalendar": "17.0.0",
     "locations": {"US-CA": {"days": 2922,
                             "disagreements": [{"date": "...", "ours": "open",
                                                "theirs": "closed",
                                                "their_names": ["..."]}],
                             "errors": [], "warnings": []}},
     "missing": ["XX", ...]}

`missing` = codes workalendar has no calendar for. A year workalendar cannot
compute (it raises) is left out and named in `errors`, never guessed.
"""
import json
import sys
import warnings
from datetime import date, timedelta

from workalendar.core import Calendar
from workalendar.registry import registry


def their_names(cal, years):
    """date -> [labels], from holidays() of the years and their neighbours
    (a holiday observed across a year end is listed under either year)."""
    names = {}
    for y in range(min(years) - 1, max(years) + 2):
        try:
            rows = cal.holidays(y)
        except Exception:  # noqa: BLE001 - a year it cannot compute
            continue
        for day, label in rows:
            lst = names.setdefault(day.isoformat(), [])
            if label not in lst:
                lst.append(label)
    return names


def audit_location(cls, closed, years):
    cal = cls()
    names = their_names(cal, years)
    weekend = set(cal.get_weekend_days())
    # China, Taiwan and Russia override is_working_day (working weekends):
    # ask them; everywhere else use the base rule inline, for speed.
    custom = type(cal).is_working_day is not Calendar.is_working_day
    out = {"days": 0, "disagreements": [], "errors": []}
    for y in years:
        try:
            hol = cal.holidays_set(y)
            if custom:
                cal.is_working_day(date(y, 1, 1))
        except Exception as err:  # noqa: BLE001
            out["errors"].append(f"{y}: {type(err).__name__}: {err}")
            continue
        day = date(y, 1, 1)
        end = date(y, 12, 31)
        one = timedelta(days=1)
        while day <= end:
            iso = day.isoformat()
            # Same rule as Calendar.is_working_day, without its per-call
            # date cleaning (it is the hot loop: ~700k days).
            if custom:
                theirs_closed = not cal.is_working_day(day)
            else:
                theirs_closed = day.weekday() in weekend or day in hol
            ours_closed = iso in closed
            out["days"] += 1
            if theirs_closed != ours_closed:
                out["disagreements"].append({
                    "date": iso,
                    "ours": "closed" if ours_closed else "open",
                    "theirs": "closed" if theirs_closed else "open",
                    "their_names": names.get(iso, []),
                })
            day += one
    return out


def main():
    if sys.argv[1] == "--codes":
        codes = sorted(registry.get_calendars(include_subregions=True))
        json.dump(codes, sys.stdout)
        sys.stdout.write("\n")
        return
    with open(sys.argv[1], encoding="utf-8") as f:
        answers = json.load(f)
    years = answers["years"]
    calendars = registry.get_calendars(include_subregions=True)
    result = {"locations": {}, "missing": []}
    try:
        from importlib.metadata import version
        result["workalendar"] = version("workalendar")
    except Exception:  # noqa: BLE001
        result["workalendar"] = "unknown"
    for code in sorted(answers["locations"]):
        cls = calendars.get(code)
        if cls is None:
            result["missing"].append(code)
            continue
        closed = set(answers["locations"][code]["closed"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            entry = audit_location(cls, closed, years)
        entry["warnings"] = sorted({str(w.message) for w in caught})
        result["locations"][code] = entry
    json.dump(result, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
