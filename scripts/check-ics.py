#!/usr/bin/env python3
"""Reads an .ics file with Python's icalendar package and prints what it understood as JSON.

The calendar tests (Tests/PlacesTripsTests/CalendarParserTests.swift) run it on the
calendar that TripCalendar writes, to prove the text imports into an independent, standard
parser without loss.

    scripts/check-ics.py FILE.ics

prints {"events": [...], "timezones": [...]}:
- each event: uid, summary, description, location, geo [lat, lon], url, categories, and
  its start and end as {"value": ISO local, "allDay", "tzid" (the TZID parameter), "zone"
  (the zone icalendar resolved, by name with zoneinfo), "utc" (the instant, ISO with Z;
  null for a floating time), "utcViaVTIMEZONE" (the instant when the TZID is read with the
  file's own VTIMEZONE instead of zoneinfo)};
- each VTIMEZONE: tzid, observances, samples (instants checked) and mismatches (instants
  where the VTIMEZONE's offset differs from zoneinfo's for the same name; empty when the
  two agree at every onset, a second before it, and every 6 hours between the first and
  the last onset, or over two years when there is one).

Exit status 2 when the file can't be read, 3 when icalendar is missing.
"""

import json
import sys
from datetime import date, datetime, timedelta, timezone

try:
    import icalendar
    import icalendar.parser
    from zoneinfo import ZoneInfo
except ImportError as error:  # pragma: no cover - the message is the point
    print(f"check-ics: {error}; run scripts/bootstrap.sh to install the pinned icalendar", file=sys.stderr)
    sys.exit(3)


def iso_utc(moment):
    try:
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:  # years 1 and 9999 at the edge of Python's datetime
        return "out of range"


def when(component, name, vtimezones):
    prop = component.get(name)
    if prop is None:
        return None
    value = prop.dt
    if isinstance(value, date) and not isinstance(value, datetime):
        return {"value": value.isoformat(), "allDay": True}
    tzid = prop.params.get("TZID")
    out = {
        "value": value.replace(tzinfo=None).isoformat(),
        "allDay": False,
        "tzid": tzid,
        "zone": None,
        "utc": None,
        "utcViaVTIMEZONE": None,
    }
    if value.tzinfo is not None:
        out["zone"] = getattr(value.tzinfo, "key", None) or str(value.tzinfo)
        out["utc"] = iso_utc(value)
    if tzid is not None and tzid in vtimezones:
        out["utcViaVTIMEZONE"] = iso_utc(value.replace(tzinfo=vtimezones[tzid]))
    return out


def text(component, name):
    value = component.get(name)
    return None if value is None else str(value)


def check_timezone(component, tz):
    """Compares the VTIMEZONE's offsets with zoneinfo's for its name."""
    tzid = str(component["TZID"])
    try:
        reference = ZoneInfo(tzid)
    except Exception as error:  # an id zoneinfo does not know can't be compared
        return {"tzid": tzid, "observances": len(component.subcomponents), "samples": 0,
                "mismatches": [f"zoneinfo does not know {tzid}: {error}"]}
    onsets = []
    for sub in component.subcomponents:
        local = sub["DTSTART"].dt
        offset_from = sub["TZOFFSETFROM"].td
        onsets.append((local - offset_from).replace(tzinfo=timezone.utc))
    onsets.sort()
    moments = set()
    for onset in onsets:
        moments.add(onset)
        moments.add(onset - timedelta(seconds=1))
    # A zone without transitions has one onset: still look at two years after it.
    last = max(onsets[-1], onsets[0] + timedelta(days=731))
    step = onsets[0]
    while step <= last:
        moments.add(step)
        step += timedelta(hours=6)
    mismatches = []
    for moment in sorted(moments):
        if moment < onsets[0]:
            continue
        ours = moment.astimezone(tz).utcoffset()
        theirs = moment.astimezone(reference).utcoffset()
        if ours != theirs:
            mismatches.append(f"{iso_utc(moment)}: VTIMEZONE {ours}, zoneinfo {theirs}")
    return {"tzid": tzid, "observances": len(component.subcomponents), "samples": len(moments),
            "mismatches": mismatches[:10]}


def main():
    if len(sys.argv) != 2:
        print("usage: check-ics.py FILE.ics", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], "rb") as handle:
            calendar = icalendar.Calendar.from_ical(handle.read())
    except Exception as error:
        print(f"check-ics: can't read {sys.argv[1]}: {error}", file=sys.stderr)
        return 2
    vtimezones = {}
    zones = []
    for component in calendar.walk("VTIMEZONE"):
        tz = component.to_tz(lookup_tzid=False)
        vtimezones[str(component["TZID"])] = tz
        zones.append(check_timezone(component, tz))
    events = []
    for event in calendar.walk("VEVENT"):
        geo = event.get("GEO")
        categories = event.get("CATEGORIES")
        events.append({
            "uid": text(event, "UID"),
            "summary": text(event, "SUMMARY"),
            "description": text(event, "DESCRIPTION"),
            "location": text(event, "LOCATION"),
            "geo": None if geo is None else [geo.latitude, geo.longitude],
            "url": text(event, "URL"),
            "categories": [] if categories is None else [str(c) for c in categories.cats],
            "start": when(event, "DTSTART", vtimezones),
            "end": when(event, "DTEND", vtimezones),
            "errors": [str(e) for e in getattr(event, "errors", [])],
        })
    json.dump({
        # An X- property's value is TEXT (RFC 5545 §3.8.8.2), which icalendar leaves raw.
        "name": None if "X-WR-CALNAME" not in calendar
        else icalendar.parser.unescape_backslash(calendar["X-WR-CALNAME"].to_ical().decode("utf-8")),
        "errors": [str(e) for e in getattr(calendar, "errors", [])],
        "timezones": zones,
        "events": events,
    }, sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
