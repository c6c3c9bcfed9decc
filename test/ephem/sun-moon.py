#!/usr/bin/python3
"""Sun and moon events from PyEphem (Debian's python3-ephem), the independent
side of test/astronomy-ephem.test.ts.

Reads [{"latitude", "longitude", "timezone", "date"}, ...] as JSON on stdin and
writes one result per case: event instants as Unix milliseconds (null when the
event does not happen) and the moon's illumination in percent.

Conventions, chosen to match lib/astronomy.ts:
- the local day runs from local midnight to the next local midnight, computed
  here with zoneinfo (the system's tzdata, not Node's ICU copy);
- sunrise and sunset are of the upper limb (PyEphem's default, use_center=False)
  on a horizon 34' below the geometric one, with PyEphem's own refraction
  switched off (pressure = 0): the 34' *is* the standard refraction, applied once;
- twilight (-6, -12, -18 degrees) and the golden and blue hours (-4, +6) are the
  geometric altitude of the sun's centre (use_center=True, no refraction);
- a rising (sunrise, dawn, the morning hours) is the first next_rising after
  local midnight, if it comes before the next local midnight;
- a setting (sunset, dusk, the evening hours) belongs to the day that begins
  at that date's sunrise: it is PyEphem's next_setting searched from the
  sunrise, which keeps to that circuit of the sky (antitransit to antitransit),
  so it may fall after midnight, and is none when the sun does not go down
  through that altitude in it. Without a sunrise that date, the first
  next_setting within the local day;
- AlwaysUpError/NeverUpError mean no event; moonrise and moonset are the first
  within the local day;
- illumination is geocentric (Moon computed for a date, no observer) at local noon.
"""
import json
import sys
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import ephem

# name -> (horizon, use_center)
LEVELS = {
    "horizon": ("-0:34", False),
    "civil": ("-6", True),
    "nautical": ("-12", True),
    "astronomical": ("-18", True),
    "minus4": ("-4", True),
    "plus6": ("6", True),
}


def ms(d):
    """ephem.Date (UTC) -> Unix milliseconds."""
    return (ephem.Date(d).datetime().replace(tzinfo=timezone.utc).timestamp()) * 1000


def ephem_date(milliseconds):
    """Unix milliseconds -> ephem.Date."""
    return ephem.Date(datetime.fromtimestamp(milliseconds / 1000, timezone.utc).replace(tzinfo=None))


def local_instant(day, at, tz):
    """First instant whose local date and time is `day` `at`, stepping over a DST gap."""
    wall = datetime.combine(day, at)
    for minutes in range(0, 181):
        candidate = (wall + timedelta(minutes=minutes)).replace(tzinfo=tz, fold=0)
        back = candidate.astimezone(timezone.utc).astimezone(tz)
        if back.replace(tzinfo=None) == candidate.replace(tzinfo=None):
            return candidate.astimezone(timezone.utc)
    raise ValueError(f"no local {at} on {day} in {tz}")


def search(observer, body, start, method, level="horizon"):
    """PyEphem's next rising or setting after `start` (ephem.Date) through `level`, in ms, or None."""
    observer.horizon, use_center = LEVELS[level]
    observer.date = start
    try:
        return ms(getattr(observer, method)(body, use_center=use_center))
    except ephem.CircumpolarError:
        return None


def within(t, end_ms):
    return t if t is not None and t < end_ms else None


def one(case):
    tz = ZoneInfo(case["timezone"])
    day = datetime.strptime(case["date"], "%Y-%m-%d").date()
    start = local_instant(day, time(0), tz)
    end_ms = local_instant(day + timedelta(days=1), time(0), tz).timestamp() * 1000
    noon = local_instant(day, time(12), tz)
    observer = ephem.Observer()
    observer.lat = str(case["latitude"])
    observer.lon = str(case["longitude"])
    observer.elevation = 0
    observer.pressure = 0
    sun, moon = ephem.Sun(), ephem.Moon()
    start_e = ephem.Date(start.replace(tzinfo=None))

    out = {}
    for level in LEVELS:
        out[f"{level}_rising"] = within(search(observer, sun, start_e, "next_rising", level), end_ms)
    sunrise = out["horizon_rising"]
    for level in LEVELS:
        if sunrise is None:
            out[f"{level}_setting"] = within(search(observer, sun, start_e, "next_setting", level), end_ms)
        else:
            out[f"{level}_setting"] = search(observer, sun, ephem_date(sunrise), "next_setting", level)

    geocentric = ephem.Moon(ephem.Date(noon.replace(tzinfo=None)))
    out.update({
        "moonrise": within(search(observer, moon, start_e, "next_rising"), end_ms),
        "moonset": within(search(observer, moon, start_e, "next_setting"), end_ms),
        "illumination": geocentric.moon_phase * 100,
        "next_full_moon": ms(ephem.next_full_moon(start_e)),
        "next_new_moon": ms(ephem.next_new_moon(start_e)),
    })
    return out


json.dump([one(c) for c in json.load(sys.stdin)], sys.stdout)
