#!/usr/bin/env python3
"""Writes Tests/PlacesDestinationsTests/sun-vectors.tsv: sunrise and sunset from PyPI `astral`
(an independent implementation of NOAA's solar calculator), the reference SunTimesTests
checks PlacesDestinations.SunTimes against (within 2 minutes).

Development-time only (`pip install astral==3.2`); the tests read the committed file.

Columns: label, latitude, longitude, date, sunrise and sunset in minutes after 00:00 UTC of
the date (the events of the local solar day: the day around the position's solar noon), or
`polar-day` / `polar-night` in both columns when the sun does not rise or set.
"""

import datetime
import os
import sys

import astral
from astral import Observer
from astral.sun import elevation, noon, sunrise, sunset

PLACES = [
    ("Quito", -0.2299, -78.5249), ("Singapore", 1.2897, 103.8501), ("Kiritimati", 1.8721, -157.4278),
    ("Apia", -13.8333, -171.7667), ("Suva", -18.1416, 178.4415), ("Lisbon", 38.7251, -9.1498),
    ("New York", 40.7143, -74.006), ("Sydney", -33.8679, 151.2073), ("Cape Town", -33.9258, 18.4232),
    ("Ushuaia", -54.8019, -68.303), ("Reykjavik", 64.1355, -21.8954), ("Fairbanks", 64.8378, -147.7164),
    ("Arkhangelsk", 64.5401, 40.5433), ("Oulu", 65.0124, 25.4682), ("Tromso", 69.6496, 18.957),
    ("Longyearbyen", 78.2232, 15.6267), ("McMurdo", -77.846, 166.676), ("Utqiagvik", 71.2906, -156.7887),
]
DATES = ["2026-03-20", "2026-06-21", "2026-09-23", "2026-12-21", "2025-02-10", "2027-08-05", "2026-11-29"]


def minutes(moment, day):
    start = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.timezone.utc)
    return round((moment - start).total_seconds() / 60, 2)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "PlacesDestinationsTests",
                       "sun-vectors.tsv")
    lines = [f"# astral {astral.__version__ if hasattr(astral, '__version__') else '3.2'}; made by "
             "contrib/destinations/sun-vectors.py"]
    for name, lat, lon in PLACES:
        # The local solar day: events of the day whose noon is the position's solar noon.
        zone = datetime.timezone(datetime.timedelta(minutes=round(lon * 4)))
        observer = Observer(latitude=lat, longitude=lon)
        for text in DATES:
            day = datetime.date.fromisoformat(text)
            try:
                rise = minutes(sunrise(observer, day, tzinfo=zone), day)
                set_ = minutes(sunset(observer, day, tzinfo=zone), day)
                lines.append(f"{name}\t{lat}\t{lon}\t{text}\t{rise}\t{set_}")
            except ValueError:
                high = elevation(observer, noon(observer, day, tzinfo=zone)) > 0
                kind = "polar-day" if high else "polar-night"
                lines.append(f"{name}\t{lat}\t{lon}\t{text}\t{kind}\t{kind}")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print(len(lines) - 1, "vectors")


if __name__ == "__main__":
    sys.exit(main())
