#!/usr/bin/env python3
"""Clustered city route instances for route-bench, and their LKH-3 reference lengths.

    python3 scripts/clustered-cities.py generate      # writes bench/clustered/*.csv
    python3 scripts/clustered-cities.py reference     # needs `pip install elkai==2.0.1`

`generate` is deterministic (Python's `random.Random(seed)`), so the committed files can be
regenerated bit for bit. Each instance is a real city's centre with 3-6 neighbourhoods
("clusters") of Gaussian spread 250-700 m, 100-200 places in all, written as
`id,latitude,longitude` with 6 decimals (about 0.1 m).

The cost matrix is the one route-bench builds and the one LKH is given: the built-in
walking model of PlacesRoutes (haversine on a sphere of radius 6,371,008.8 m, x 1.25
detour, / (5000/3600) m/s), in deciseconds, rounded half up: floor(10 * seconds + 0.5).
The operations are done in the same order as GeoPoint.greatCircleDistanceMeters and
GreatCircleMatrixProvider (both use the platform libm), and the matrix's checksum (sum of
all entries) is written to reference.tsv so route-bench can prove it built the same one.

`reference` runs LKH-3 (the copy bundled in elkai 2.0.1, LKH-3.0.8) on each matrix with
RUNS = 10, MAX_TRIALS = n (default) and three seeds, keeps the shortest tour, and writes
bench/clustered/reference.tsv. Development time only: CI reads the committed file.
"""
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "bench", "clustered")
EARTH_RADIUS = 6371008.8
DETOUR = 1.25
SPEED = 5000.0 / 3600.0

# name, centre latitude, centre longitude, clusters, places, seed
CITIES = [
    ("paris", 48.8566, 2.3522, 5, 150, 1),
    ("rome", 41.8967, 12.4822, 4, 120, 2),
    ("lisbon", 38.7223, -9.1393, 3, 100, 3),
    ("tokyo", 35.6812, 139.7671, 6, 200, 4),
    ("barcelona", 41.3874, 2.1686, 4, 140, 5),
    ("prague", 50.0755, 14.4378, 3, 110, 6),
    ("kyoto", 35.0116, 135.7681, 5, 170, 7),
    ("newyork", 40.7580, -73.9855, 6, 190, 8),
    ("istanbul", 41.0082, 28.9784, 5, 160, 9),
    ("amsterdam", 52.3676, 4.9041, 4, 130, 10),
]


def generate():
    os.makedirs(OUT, exist_ok=True)
    for name, lat0, lon0, clusters, places, seed in CITIES:
        rng = random.Random(seed)
        m_lat = 111195.0
        m_lon = m_lat * math.cos(math.radians(lat0))
        centres = []
        for _ in range(clusters):
            # Neighbourhoods within about 4 km of the centre, each with its own spread.
            centres.append((rng.uniform(-4000, 4000), rng.uniform(-4000, 4000), rng.uniform(250, 700)))
        # Uneven cluster sizes: random weights, at least 10 places each.
        weights = [rng.uniform(0.5, 1.5) for _ in range(clusters)]
        sizes = [10] * clusters
        for _ in range(places - 10 * clusters):
            r = rng.uniform(0, sum(weights))
            for k, w in enumerate(weights):
                r -= w
                if r <= 0 or k == clusters - 1:
                    sizes[k] += 1
                    break
        rows = []
        for (cx, cy, spread), size in zip(centres, sizes):
            for _ in range(size):
                x = cx + rng.gauss(0, spread)
                y = cy + rng.gauss(0, spread)
                rows.append((lat0 + y / m_lat, lon0 + x / m_lon))
        rng.shuffle(rows)
        with open(os.path.join(OUT, f"{name}.csv"), "w") as f:
            f.write("id,latitude,longitude\n")
            for i, (lat, lon) in enumerate(rows):
                f.write(f"{i},{lat:.6f},{lon:.6f}\n")
        print(f"{name}: {len(rows)} places in {clusters} clusters {sizes}")


def load(name):
    points = []
    with open(os.path.join(OUT, f"{name}.csv")) as f:
        next(f)
        for line in f:
            _, lat, lon = line.strip().split(",")
            points.append((float(lat), float(lon)))
    return points


def haversine(a, b):
    # Same operations, same order as GeoPoint.greatCircleDistanceMeters.
    rad = math.pi / 180
    phi1 = a[0] * rad
    phi2 = b[0] * rad
    d_phi = phi2 - phi1
    d_lambda = (b[1] - a[1]) * rad
    s_phi = math.sin(d_phi / 2)
    s_lambda = math.sin(d_lambda / 2)
    h = s_phi * s_phi + math.cos(phi1) * math.cos(phi2) * s_lambda * s_lambda
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(h)))


def matrix(points):
    n = len(points)
    w = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            meters = haversine(points[i], points[j]) * DETOUR
            value = math.floor((meters / SPEED) * 10 + 0.5)
            w[i][j] = value
            w[j][i] = value
    return w


def tour_length(w, tour):
    return sum(w[tour[k]][tour[(k + 1) % len(tour)]] for k in range(len(tour)))


def reference():
    import elkai  # noqa: F401  (development time only)
    from elkai import _elkai

    seeds = [1, 2, 3]
    lines = [
        "# Reference tour lengths (round trips) for bench/clustered, in deciseconds of walking.",
        "# Solver: LKH-3.0.8 as bundled in elkai 2.0.1 (pip install elkai==2.0.1).",
        "# Parameters per seed: RUNS = 10, MAX_TRIALS = n (the default), defaults otherwise;"
        " seeds " + " ".join(map(str, seeds)) + "; the shortest tour is kept.",
        "# Matrix: floor(10 * haversine * 1.25 / (5000/3600) + 0.5), see scripts/clustered-cities.py.",
        "# name\tn\tchecksum\tlkh_length\tseeds_reaching_it",
    ]
    for name, *_ in CITIES:
        points = load(name)
        w = matrix(points)
        n = len(w)
        checksum = sum(map(sum, w))
        problem = (
            f"TYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\n"
            "EDGE_WEIGHT_SECTION\n" + "".join(" ".join(map(str, row)) + "\n" for row in w)
        )
        results = []
        for seed in seeds:
            params = f"RUNS = 10\nSEED = {seed}\nPROBLEM_FILE = :stdin:\n"
            tour = [i - 1 for i in _elkai.solve_problem(params, problem)]
            assert sorted(tour) == list(range(n)), "LKH returned a non-permutation"
            results.append(tour_length(w, tour))
        best = min(results)
        hits = sum(1 for r in results if r == best)
        print(f"{name}: n={n} checksum={checksum} lkh={best} per seed={results}", flush=True)
        lines.append(f"{name}\t{n}\t{checksum}\t{best}\t{hits}/{len(seeds)}")
    with open(os.path.join(OUT, "reference.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "generate":
        generate()
    elif command == "reference":
        reference()
    else:
        sys.exit(__doc__)
