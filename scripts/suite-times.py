#!/usr/bin/env python3
"""Where a test run's time went: each `swift test` step of a log (`make test`, `.ci/run`)
with its wall time, and the slowest suites and tests of each, from Swift Testing's
"passed after N seconds" lines.

    python3 scripts/suite-times.py /tmp/ci.log [--top 15]

Issue 34 (`make test` within 10 minutes) reads its before/after figures from this.
"""
import re
import sys

STEP = re.compile(r"^swift test .*")
RUN = re.compile(r"Test run with (\d+) tests? in (\d+) suites? (passed|failed) after ([\d.]+) seconds")
SUITE = re.compile(r'Suite "(.+)" (passed|failed) after ([\d.]+) seconds')
TEST = re.compile(r'Test "(.+)" (passed|failed) after ([\d.]+) seconds')


def main() -> None:
    args = sys.argv[1:]
    top = 15
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    steps = []
    current = None
    with open(args[0], encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            if STEP.match(line):
                current = {"command": line, "suites": [], "tests": [], "run": None}
                steps.append(current)
                continue
            if current is None:
                continue
            if m := RUN.search(line):
                current["run"] = (int(m[1]), int(m[2]), m[3], float(m[4]))
            elif m := SUITE.search(line):
                current["suites"].append((float(m[3]), m[1], m[2]))
            elif m := TEST.search(line):
                current["tests"].append((float(m[3]), m[1], m[2]))
    total = 0.0
    for step in steps:
        run = step["run"]
        if run is None:
            continue
        total += run[3]
        print(f"{run[3]:8.1f} s  {run[0]:4d} tests  {run[2]:6s}  {step['command']}")
        for seconds, name, result in sorted(step["suites"], reverse=True)[:top]:
            print(f"           {seconds:8.1f} s  suite {name} ({result})")
        slow = sorted(step["tests"], reverse=True)[:5]
        for seconds, name, result in slow:
            print(f"           {seconds:8.1f} s  test  {name[:90]} ({result})")
    print(f"{total:8.1f} s  in all the steps' test runs")


if __name__ == "__main__":
    main()
