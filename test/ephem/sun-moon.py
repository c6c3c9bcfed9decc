#!/usr/bin/python3
"""Sun and moon events from PyEphem (Debian's python3-ephem), the independent
side of test/astronomy-ephem.test.ts.

Reads [{"latitude", "longitude", "timezone", "date"}, ...] as JSON on stdin and
writes one result per case: event instants as Unix milliseconds (null when the
event does not happen that local day) and the moon's illumination in percent.

Conventions, chosen to match lib/astronomy.ts (astronomy-engine's SearchRiseSet):
- the local day runs from local midnight to the next local midnight, computed
  here with zoneinfo (the system's tzdata, not Node's ICU copy);
- rise and set are of the upper limb (PyEphem's default, use_center=False) on a
  horizon 34' below the geometric one, with PyEphem's own refraction switched
  off (pressure = 0): the 34' *is* the standard refraction, applied once;
- the first next_rising / next_setting after local midnight counts if it comes
  before the next local midnight; AlwaysUp/NeverUp mean no event;
- illumination is geocentric (Moon computed for a date, no observer) at local noon.
"""
import json
import sys
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import ephem


def ms(d):
    """ephem.Date (UTC) -> Unix milliseconds."""
    return (ephem.Date(d).datetime().replace(tzinfo=timezone.utc).timestamp()) * 1000


def local_instant(day, at, tz):
    """First instant whose local date and time is `day` `at`, stepping over a DST gap."""
    wall = datetime.combine(day, at)
    for minutes in range(0, 181):
        candidate = (wall + timedelta(minutes=minutes)).replace(tzinfo=tz, fold=0)
        back = candidate.astimezone(timezone.utc).astimezone(tz)
        if back.replace(tzinfo=None) == candidate.replace(tzinfo=None):
            return candidate.astimezone(timezone.utc)
    raise ValueError(f"no local {at} on {day} in {tz}")


def first_event(observer, body, start, end, method):
    observer.date = ephem.Date(start)
    try:
        t = getattr(observer, method)(body)
    except (ephem.AlwaysUpError, ephem.NeverUpError):
        return None
    return ms(t) if ms(t) < end.timestamp() * 1000 else None


def one(case):
    tz = ZoneInfo(case["timezone"])
    day = datetime.strptime(case["date"], "%Y-%m-%d").date()
    start = local_instant(day, time(0), tz)
    end = local_instant(day + timedelta(days=1), time(0), tz)
    noon = local_instant(day, time(12), tz)
    observer = ephem.Observer()
    observer.lat = str(case["latitude"])
    observer.lon = str(case["longitude"])
    observer.elevation = 0
    observer.pressure = 0
    observer.horizon = "-0:34"
    sun, moon = ephem.Sun(), ephem.Moon()
    geocentric = ephem.Moon(ephem.Date(noon.replace(tzinfo=None)))
    start_e = start.replace(tzinfo=None)
    return {
        "sunrise": first_event(observer, sun, start_e, end, "next_rising"),
        "sunset": first_event(observer, sun, start_e, end, "next_setting"),
        "moonrise": first_event(observer, moon, start_e, end, "next_rising"),
        "moonset": first_event(observer, moon, start_e, end, "next_setting"),
        "illumination": geocentric.moon_phase * 100,
        "next_full_moon": ms(ephem.next_full_moon(ephem.Date(start_e))),
        "next_new_moon": ms(ephem.next_new_moon(ephem.Date(start_e))),
    }


json.dump([one(c) for c in json.load(sys.stdin)], sys.stdout)
