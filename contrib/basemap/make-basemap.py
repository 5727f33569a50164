#!/usr/bin/env python3
"""Builds the browser app's offline basemap: Sources/PlacesWeb/App/data/countries.json and
Sources/PlacesWeb/App/data/cities.json.

Development-time only: builds, CI and the app read the committed files.

Sources
- Country outlines: Natural Earth 1:110m Admin 0 countries (naturalearthdata.com), public
  domain ("No permission is needed to use Natural Earth"), as the geopandas 0.14.4 wheel on
  PyPI ships it: geopandas/datasets/naturalearth_lowres/ (177 countries, with geopandas'
  Crimea fix). The wheel's geopandas/datasets/naturalearth_cities/ (Natural Earth 1:110m
  populated places: every national capital and a few other large cities, public domain) marks
  the prominent cities.
- Cities: the project's gazetteer, Sources/PlacesGazetteer/Resources/gazetteer.tsv (GeoNames,
  geonames.org, CC BY 4.0; format in docs/discover.md, "Gazetteer data"): every city of at
  least 300,000 people, and the gazetteer city nearest to each Natural Earth populated place,
  leaving out a city within ~16 km of a larger one (GeoNames lists Brooklyn and Queens as cities).

How to run it (network needed once, for pip; no Python package is imported but the standard
library: the shapefile and its dBASE table are read here):

    tmp=$(mktemp -d) && pip download geopandas==0.14.4 --no-deps -d "$tmp"
    python3 contrib/basemap/make-basemap.py "$tmp"/geopandas-0.14.4-py3-none-any.whl

It prints the counts and sizes. The output is deterministic: the same inputs give the same
bytes.

Output
- countries.json: an RFC 7946 GeoJSON FeatureCollection, one Feature per country sorted by
  name, `properties` {"name", "iso"} (ISO 3166-1 alpha-3 or Natural Earth's own code), a
  Polygon or MultiPolygon geometry simplified (Douglas-Peucker, 0.08 degrees) and rounded to two
  decimals (~1 km), outer rings counter-clockwise, holes clockwise.
- cities.json: {"attribution": ..., "cities": [[name, lat, lon, population], ...]} sorted by
  population (largest first), `lat`/`lon` rounded to two decimals; a fifth element, 1, marks
  a Natural Earth populated place (the capitals), shown from the lowest zooms.
"""

import io
import json
import math
import os
import struct
import sys
import unicodedata
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAZETTEER = os.path.join(ROOT, "Sources", "PlacesGazetteer", "Resources", "gazetteer.tsv")
OUT = os.path.join(ROOT, "Sources", "PlacesWeb", "App", "data")
COUNTRIES = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
PLACES = "geopandas/datasets/naturalearth_cities/naturalearth_cities"
TOLERANCE = 0.08      # degrees, Douglas-Peucker
MIN_POPULATION = 300_000
MATCH_RADIUS = 0.35   # degrees: a Natural Earth place to its gazetteer city
NEIGHBOUR = 0.15      # degrees (~16 km): a smaller city this close to a kept one is left out
BUDGET = {"countries.json": 200_000, "cities.json": 60_000}


class Source:
    """Reads the dataset files from the wheel (a .whl is a zip) or an unpacked directory."""

    def __init__(self, path):
        self.path = path
        self.zip = zipfile.ZipFile(path) if zipfile.is_zipfile(path) else None

    def table(self, stem):
        encoding = self.read(stem + ".cpg").decode("ascii").strip() or "utf-8"
        return read_dbf(self.read(stem + ".dbf"), encoding)

    def read(self, name):
        if self.zip:
            return self.zip.read(name)
        with open(os.path.join(self.path, name), "rb") as f:
            return f.read()


def read_dbf(data, encoding):
    """dBASE III records as dicts of stripped strings, decoded as the .cpg file says."""
    count, header_len, record_len = struct.unpack("<IHH", data[4:12])
    fields, at = [], 32
    while data[at] != 0x0D:
        name = data[at:at + 11].split(b"\0")[0].decode("ascii")
        fields.append((name, data[at + 16]))
        at += 32
    records = []
    for i in range(count):
        base = header_len + i * record_len
        if data[base] == 0x2A:  # deleted
            continue
        at, record = base + 1, {}
        for name, length in fields:
            record[name] = data[at:at + length].decode(encoding).strip()
            at += length
        records.append(record)
    return records


def read_shp(data):
    """Shapes in file order: a list of rings (lists of (x, y)) for polygons, a point for points."""
    shapes, at = [], 100
    while at < len(data):
        _, words = struct.unpack(">ii", data[at:at + 8])
        content = data[at + 8:at + 8 + words * 2]
        at += 8 + words * 2
        kind = struct.unpack("<i", content[:4])[0]
        if kind == 0:
            shapes.append(None)
        elif kind == 1:
            shapes.append(struct.unpack("<2d", content[4:20]))
        elif kind == 5:
            parts, points = struct.unpack("<2i", content[36:44])
            starts = list(struct.unpack("<%di" % parts, content[44:44 + 4 * parts])) + [points]
            base = 44 + 4 * parts
            xy = struct.unpack("<%dd" % (2 * points), content[base:base + 16 * points])
            pts = [(xy[2 * i], xy[2 * i + 1]) for i in range(points)]
            shapes.append([pts[starts[i]:starts[i + 1]] for i in range(parts)])
        else:
            raise SystemExit("unexpected shape type %d" % kind)
    return shapes


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:])) / 2


def inside(point, ring):
    x, y = point
    result = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        if (y0 > y) != (y1 > y) and x < (x1 - x0) * (y - y0) / (y1 - y0) + x0:
            result = not result
    return result


def simplify(points, tolerance):
    """Douglas-Peucker on an open polyline (iterative)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (ax, ay), (bx, by) = points[first], points[last]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        worst, index = 0.0, None
        for i in range(first + 1, last):
            px, py = points[i]
            d = abs(dy * (px - ax) - dx * (py - ay)) / norm if norm else math.hypot(px - ax, py - ay)
            if d > worst:
                worst, index = d, i
        if index is not None and worst > tolerance:
            keep[index] = True
            stack.append((first, index))
            stack.append((index, last))
    return [p for p, k in zip(points, keep) if k]


def simplify_ring(ring, tolerance):
    """A closed ring: split at its farthest point from the start so both halves keep their ends."""
    ring = ring[:-1] if ring[0] == ring[-1] else ring
    if len(ring) < 4:
        return ring + [ring[0]]
    far = max(range(len(ring)), key=lambda i: (ring[i][0] - ring[0][0]) ** 2 + (ring[i][1] - ring[0][1]) ** 2)
    half1 = simplify(ring[:far + 1], tolerance)
    half2 = simplify(ring[far:] + [ring[0]], tolerance)
    return half1[:-1] + half2


def rounded(ring):
    out = []
    for x, y in ring:
        p = (round(x, 2), round(y, 2))
        if not out or out[-1] != p:
            out.append(p)
    if out and out[0] != out[-1]:
        out.append(out[0])
    return out


def geometry(rings):
    """Shapefile rings (outer clockwise, holes counter-clockwise) to a GeoJSON geometry."""
    outers, holes = [], []
    for ring in rings:
        (outers if signed_area(ring) < 0 else holes).append(ring)
    polygons = [[outer] for outer in outers]
    for hole in holes:
        owner = next((p for p in polygons if inside(hole[0], p[0])), None)
        if owner is not None:
            owner.append(hole)
    result = []
    for polygon in polygons:
        done = []
        for i, ring in enumerate(polygon):
            small = rounded(simplify_ring(ring, TOLERANCE))
            if len(small) < 4 or abs(signed_area(small)) < 1e-9:
                if i == 0:
                    break  # an outer ring too small to draw: drop the whole polygon
                continue
            # RFC 7946: exterior counter-clockwise, holes clockwise.
            if (signed_area(small) > 0) != (i == 0):
                small.reverse()
            done.append([[x, y] for x, y in small])
        if done:
            result.append(done)
    if not result:
        return None
    if len(result) == 1:
        return {"type": "Polygon", "coordinates": result[0]}
    return {"type": "MultiPolygon", "coordinates": result}


def countries(source):
    records = source.table(COUNTRIES)
    shapes = read_shp(source.read(COUNTRIES + ".shp"))
    assert len(records) == len(shapes), "dbf and shp disagree"
    features = []
    for record, rings in zip(records, shapes):
        if not rings:
            continue
        geo = geometry(rings)
        if geo is None:
            continue
        features.append({"type": "Feature", "properties": {"name": record["name"], "iso": record["iso_a3"]},
                         "geometry": geo})
    features.sort(key=lambda f: (f["properties"]["name"], f["properties"]["iso"]))
    return {
        "type": "FeatureCollection",
        "attribution": "Country outlines: Natural Earth (naturalearthdata.com), public domain, 1:110m, "
                       "simplified. Made by contrib/basemap/make-basemap.py.",
        "features": features,
    }


def gazetteer_cities():
    with open(GAZETTEER, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if not line.startswith("#")]
    header = lines[0].split("\t")
    assert header[0] == "places-gazetteer" and header[1] == "1", "unknown gazetteer format"
    continents, countries_, regions, cities = map(int, header[2:6])
    rows = lines[1:]
    first = continents + countries_ + regions
    assert len(rows) == first + cities, "gazetteer counts disagree with its header"
    result = []
    for row in rows[first:]:
        code, name, lat, lon, population = row.split("\t")[:5]
        result.append({"id": code, "name": name, "lat": float(lat), "lon": float(lon), "population": int(population)})
    return result


def fold(name):
    return "".join(ch for ch in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(ch))


def distance(city, lat, lon):
    return math.hypot(city["lat"] - lat, (city["lon"] - lon) * math.cos(math.radians(lat)))


def cities(source):
    all_cities = gazetteer_cities()
    places = read_shp(source.read(PLACES + ".shp"))
    names = [r["name"] for r in source.table(PLACES)]
    major, unmatched = set(), []
    for name, point in zip(names, places):
        lon, lat = point
        near = [c for c in all_cities
                if abs(c["lat"] - lat) <= MATCH_RADIUS and abs(c["lon"] - lon) <= MATCH_RADIUS / max(math.cos(math.radians(lat)), 0.2)]
        if not near:
            unmatched.append(name)
            continue
        # The city of that name close by, else the nearest one (Natural Earth spells some
        # capitals otherwise: "Nur-Sultan", "Ulaanbaatar", "Washington, D.C.").
        # Nearest among the sizeable ones: not a downtown quarter the gazetteer lists as a city
        # ("Northwest One" for Washington).
        same = [c for c in near if fold(c["name"]) == fold(name)]
        largest = max(c["population"] for c in near)
        sizeable = [c for c in near if c["population"] * 4 >= largest]
        best = min(same or sizeable, key=lambda c: (distance(c, lat, lon), c["id"]))
        if not same:
            print("  %s -> %s" % (name, best["name"]))
        major.add(best["id"])
    candidates = [c for c in all_cities if c["population"] >= MIN_POPULATION or c["id"] in major]
    candidates.sort(key=lambda c: (-c["population"], c["name"], c["id"]))
    # GeoNames lists some districts as cities (Brooklyn, Bucharest's sectors): one within
    # NEIGHBOUR degrees of a larger city already kept is left out (a capital never is).
    chosen, dropped = [], []
    for c in candidates:
        if c["id"] not in major and any(distance(k, c["lat"], c["lon"]) < NEIGHBOUR for k in chosen):
            dropped.append(c["name"])
            continue
        chosen.append(c)
    chosen.sort(key=lambda c: (-c["population"], c["name"], c["id"]))
    print("  %d districts or suburbs left out, e.g. %s" % (len(dropped), ", ".join(dropped[:12])))
    rows = [[c["name"], round(c["lat"], 2), round(c["lon"], 2), c["population"]] + ([1] if c["id"] in major else [])
            for c in chosen]
    return {
        "attribution": "GeoNames (geonames.org), CC BY 4.0; capitals: Natural Earth, public domain",
        "columns": ["name", "lat", "lon", "population", "major?"],
        "cities": rows,
    }, len(major), unmatched


def write(name, value):
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    # One feature or city per line: readable diffs, a few bytes more.
    if name == "countries.json":
        text = text.replace(',{"type":"Feature"', ',\n{"type":"Feature"')
    else:
        text = text.replace('],["', '],\n["')
    data = (text + "\n").encode("utf-8")
    path = os.path.join(OUT, name)
    os.makedirs(OUT, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    if len(data) > BUDGET[name]:
        raise SystemExit("%s is %d bytes, over its budget of %d" % (name, len(data), BUDGET[name]))
    return len(data)


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    source = Source(argv[1])
    world = countries(source)
    size = write("countries.json", world)
    points = sum(len(r) for f in world["features"]
                 for poly in ([f["geometry"]["coordinates"]] if f["geometry"]["type"] == "Polygon" else f["geometry"]["coordinates"])
                 for r in poly)
    print("countries.json: %d countries, %d points, %d bytes" % (len(world["features"]), points, size))
    table, majors, unmatched = cities(source)
    size = write("cities.json", table)
    print("cities.json: %d cities (%d marked major), %d bytes" % (len(table["cities"]), majors, size))
    if unmatched:
        print("Natural Earth places with no gazetteer city near: " + ", ".join(unmatched))


if __name__ == "__main__":
    main(sys.argv)
