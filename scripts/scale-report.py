#!/usr/bin/env python3
"""Issue 34's cost curves: turns `places-bench`'s scale JSON (PLACES_BENCH_PROFILE=scale)
into docs/scale.md's measured part and one SVG per curve in docs/scale/ (log-log axes, the
measured points and the least-squares line through them, whose slope is the growth exponent).

Usage: scripts/scale-report.py RESULT.json [DOCS_DIR]   (DOCS_DIR defaults to docs)

Only the part of docs/scale.md between the two `scale-bench` markers is rewritten; the text
around it (what bends, and why) is kept. Standard library only.
"""

import json
import math
import os
import sys

BEGIN = "<!-- scale-bench: begin (written by scripts/scale-report.py; edit around it) -->"
END = "<!-- scale-bench: end -->"
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]



def idle_after_sync(point):
    """The receiver's RSS 13 s after its sync (after it gave memory back), or "—" in a report
    of a run made before it was measured."""
    value = point.get("receiverIdleRSSMB")
    return "—" if value is None else f"{value:.1f} MB"

def fit(xs, ys):
    """Least squares on log-log: (exponent, factor) with y ≈ factor · x^exponent."""
    pts = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx
    return slope, math.exp(my - slope * mx)


def ticks(lo, hi):
    """Tick values for a log axis from lo to hi: decades, or 1-2-5 steps when few decades."""
    first, last = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    steps = [1, 2, 5] if last - first <= 2 else [1]
    out = []
    for k in range(first, last + 1):
        for s in steps:
            v = s * 10**k
            if lo * 0.999 <= v <= hi * 1.001:
                out.append(v)
    return out


def label(v):
    if v >= 1e6 and v % 1e6 == 0:
        return f"{v / 1e6:g}M"
    if v >= 1e3 and v % 1e3 == 0:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def svg_plot(path, title, xlabel, ylabel, series, target=None):
    """series: [(name, xs, ys)]; target: (y, text) drawn as a dashed line."""
    xs_all = [x for _, xs, ys in series for x, y in zip(xs, ys) if x > 0 and y > 0]
    ys_all = [y for _, xs, ys in series for y in ys if y > 0]
    if target:
        ys_all.append(target[0])
    if not xs_all or not ys_all:
        return False
    xlo = 10 ** math.floor(math.log10(min(xs_all)))
    xhi = 10 ** math.ceil(math.log10(max(xs_all)))
    # A little room above and below, so that no point or target sits on the frame.
    ylo = 10 ** math.floor(math.log10(min(ys_all) / 1.3))
    yhi = 10 ** math.ceil(math.log10(max(ys_all) * 1.3))
    if xhi == xlo:
        xhi *= 10
    if yhi == ylo:
        yhi *= 10
    w, h, left, right, top, bottom = 560, 360, 70, 20, 40, 50
    pw, ph = w - left - right, h - top - bottom

    def px(x):
        return left + pw * (math.log10(x) - math.log10(xlo)) / (math.log10(xhi) - math.log10(xlo))

    def py(y):
        return top + ph * (1 - (math.log10(y) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo)))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{esc(title)}</text>',
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>',
    ]
    for v in ticks(xlo, xhi):
        x = px(v)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{top + ph + 16}" text-anchor="middle">{label(v)}</text>')
    for v in ticks(ylo, yhi):
        y = py(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{label(v)}</text>')
    out.append(f'<text x="{left + pw / 2}" y="{h - 12}" text-anchor="middle">{esc(xlabel)} (log)</text>')
    out.append(
        f'<text x="16" y="{top + ph / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {top + ph / 2})">{esc(ylabel)} (log)</text>'
    )
    if target:
        y = py(target[0])
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#888" stroke-dasharray="6 4"/>'
        )
        out.append(f'<text x="{left + pw - 4}" y="{y - 4:.1f}" text-anchor="end" fill="#666">{esc(target[1])}</text>')
    for i, (name, xs, ys) in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = [(x, y) for x, y in zip(xs, ys) if x > 0 and y > 0]
        f = fit([p[0] for p in pts], [p[1] for p in pts])
        if f:
            slope, factor = f
            x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
            out.append(
                f'<line x1="{px(x0):.1f}" y1="{py(factor * x0**slope):.1f}" x2="{px(x1):.1f}" '
                f'y2="{py(factor * x1**slope):.1f}" stroke="{color}" stroke-width="1.5"/>'
            )
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="{color}"/>')
        legend = name + (f" (exponent {f[0]:.2f})" if f else "")
        out.append(f'<circle cx="{left + 14}" cy="{top + 14 + 16 * i}" r="4" fill="{color}"/>')
        out.append(f'<text x="{left + 24}" y="{top + 18 + 16 * i}">{esc(legend)}</text>')
    out.append("</svg>")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")
    return True


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def exponent(xs, ys):
    f = fit(xs, ys)
    return f"{f[0]:.2f}" if f else "—"


def num(v, digits=0):
    if v is None:
        return "—"
    return f"{v:,.{digits}f}"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/scale-report.py RESULT.json [DOCS_DIR]")
    with open(sys.argv[1]) as fh:
        r = json.load(fh)
    docs = sys.argv[2] if len(sys.argv) > 2 else "docs"
    plots = os.path.join(docs, "scale")
    os.makedirs(plots, exist_ok=True)
    md = []
    md.append(
        f"Measured {r.get('started', '?')} to {r.get('finished', 'an unfinished run')} (release build). "
        f"1-core Ed25519 sign rate **{num(r.get('signRate'))}/s** (issue 34's absolute targets hold at ≥ 50,000/s), "
        f"1-core verify rate {num(r.get('verifyRate'))}/s. Load average before the run {r.get('loadBefore', '?')}, "
        + (f"after it {r['loadAfter']}." if "loadAfter" in r else
         "(these figures are the checkpoint of a run that had not finished: larger sizes missing).")
    )
    md.append("")
    for error in r.get("errors", []):
        md.append(f"Stopped early: `{esc(error)}` (the sizes before it are below).")
        md.append("")

    def img(name, alt):
        md.append(f"![{alt}](scale/{name})")
        md.append("")

    history = r.get("history") or []
    if history:
        ops = [p["ops"] for p in history]
        start = [p["startSeconds"] for p in history]
        sync = [p["syncSeconds"] for p in history]
        p50 = [p["live"]["p50"] for p in history]
        p99 = [p["live"]["p99"] for p in history]
        rss = [p["idleRSSMB"] for p in history]
        size = [p["fileBytes"] / 1e6 for p in history]
        rec = [p["reconnectMs"] for p in history]
        md.append("### History: one trip, growing history")
        md.append("")
        md.append(
            "| ops | stops | cold start to serving | full sync (fresh daemon) | sync rate | live edit p50 / p99 "
            "| idle RSS after start | receiver RSS 1 s / 13 s after sync | file size "
            "| B restarted: reconnect agrees nothing changed | writing the history |"
        )
        md.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for p in history:
            md.append(
                f"| {num(p['ops'])} | {num(p['stops'])} | {p['startSeconds']:.3f} s | {p['syncSeconds']:.1f} s "
                f"| {num(p['syncedOps'] / p['syncSeconds'])} ops/s "
                f"| {p['live']['p50']:.2f} / {p['live']['p99']:.2f} ms ({p['live']['count']} edits) "
                f"| {p['idleRSSMB']:.1f} MB | {p['receiverRSSMB']:.1f} / {idle_after_sync(p)} | {p['fileBytes'] / 1e6:.1f} MB "
                f"| {p['reconnectMs']:.0f} ms | {p['appendSeconds']:.1f} s |"
            )
        md.append("")
        md.append(
            f"Growth exponents (least squares on log-log, 1 = linear, 0 = flat): start {exponent(ops, start)}, "
            f"sync {exponent(ops, sync)}, live edit p50 {exponent(ops, p50)} / p99 {exponent(ops, p99)}, "
            f"idle RSS {exponent(ops, rss)}, file size {exponent(ops, size)}, reconnect {exponent(ops, rec)}."
        )
        md.append("")
        last = history[-1]
        md.append(
            f"Targets at {num(last['ops'])} ops: start ≤ 2 s: {last['startSeconds']:.3f} s "
            f"({'met' if last['startSeconds'] <= 2 else '**missed**'}); idle RSS ≤ 100 MB: {last['idleRSSMB']:.1f} MB "
            f"({'met' if last['idleRSSMB'] <= 100 else '**missed**'}); live edit p99 ≤ 10 ms: {last['live']['p99']:.2f} ms "
            f"({'met' if last['live']['p99'] <= 10 else '**missed**'}); sync linear: exponent {exponent(ops, sync)}."
        )
        md.append("")
        if svg_plot(f"{plots}/history-start.svg", "Cold start to serving", "ops in the trip", "seconds",
                    [("start", ops, start)], (2, "target at 1M: 2 s")):
            img("history-start.svg", "cold start against history length")
        if svg_plot(f"{plots}/history-sync.svg", "A fresh daemon's full sync", "ops in the trip", "seconds",
                    [("sync", ops, sync)]):
            img("history-sync.svg", "full sync time against history length")
        if svg_plot(f"{plots}/history-live.svg", "Live edit, PATCH at A to B's event", "ops in the trip", "ms",
                    [("p50", ops, p50), ("p99", ops, p99)], (10, "p99 target: 10 ms")):
            img("history-live.svg", "live edit latency against history length")
        if svg_plot(f"{plots}/history-rss.svg", "Idle RSS after a cold start", "ops in the trip", "MB",
                    [("idle RSS", ops, rss)], (100, "target at 1M: 100 MB")):
            img("history-rss.svg", "idle RSS against history length")
        if svg_plot(f"{plots}/history-file.svg", "Database file size", "ops in the trip", "MB",
                    [("file", ops, size)]):
            img("history-file.svg", "file size against history length")
        if svg_plot(f"{plots}/history-reconnect.svg", "Reconnect agreeing nothing changed", "ops in the trip", "ms",
                    [("reconnect", ops, rec)]):
            img("history-reconnect.svg", "reconnect time against history length")

    breadth = r.get("breadth") or []
    if breadth:
        n = [p["docs"] for p in breadth]
        start = [p["startSeconds"] for p in breadth]
        rss = [p["idleRSSMB"] for p in breadth]
        rec = [p["reconnectMs"] for p in breadth]
        md.append("### Breadth: many shared trips")
        md.append("")
        md.append(
            "| shared trips | start to serving | idle RSS | reconnect agrees nothing changed (median of 3) "
            "| one check of both `GET /v1/peers`, idle | setting up (create + share + sync) |"
        )
        md.append("| ---: | ---: | ---: | ---: | ---: | ---: |")
        for p in breadth:
            md.append(
                f"| {num(p['docs'])} | {p['startSeconds']:.3f} s | {p['idleRSSMB']:.1f} MB "
                f"| {p['reconnectMs']:.0f} ms ({', '.join(f'{v:.0f}' for v in p['reconnectsMs'])}) "
                f"| {p['peersPollMs']:.1f} ms | {p['setupSeconds']:.1f} s |"
            )
        md.append("")
        md.append(
            f"Growth exponents: start {exponent(n, start)}, idle RSS {exponent(n, rss)}, "
            f"reconnect {exponent(n, rec)}."
        )
        md.append("")
        last = breadth[-1]
        md.append(
            f"Target at {num(last['docs'])} trips: reconnect ≤ 200 ms: {last['reconnectMs']:.0f} ms "
            f"({'met' if last['reconnectMs'] <= 200 else '**missed**'})."
        )
        md.append("")
        if svg_plot(f"{plots}/breadth-start.svg", "Start to serving", "shared trips", "seconds",
                    [("start", n, start)]):
            img("breadth-start.svg", "start against shared trips")
        if svg_plot(f"{plots}/breadth-rss.svg", "Idle RSS", "shared trips", "MB", [("idle RSS", n, rss)]):
            img("breadth-rss.svg", "idle RSS against shared trips")
        if svg_plot(f"{plots}/breadth-reconnect.svg", "Reconnect: agreeing nothing changed", "shared trips", "ms",
                    [("reconnect", n, rec)], (200, "target at 10,000: 200 ms")):
            img("breadth-reconnect.svg", "reconnect time against shared trips")

    fan = r.get("fanout") or []
    if fan:
        md.append("### Fan-out: one trip among many daemons")
        md.append("")
        md.append(
            "| daemons | topology | TCP connections | edit to the farthest p50 / p99 | bytes sent per edit (all connections) "
            "| of it, idle traffic | most on one connection per edit | ops sent per edit "
            "| ops sent twice on one connection | extra `changed` events |"
        )
        md.append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for p in fan:
            md.append(
                f"| {p['daemons']} | {p['topology']} | {p['connections'] // 2} "
                f"| {p['latestArrival']['p50']:.2f} / {p['latestArrival']['p99']:.2f} ms ({p['edits']} edits) "
                f"| {num(p['bytesPerEdit'])} | {num(p['idleBytesPerEdit'])} | {num(p['maxConnectionBytesPerEdit'])} "
                f"| {num(p.get('opsSentPerEdit'), 1)} | {p.get('opsSentAgain', '—')} | {p['extraEvents']} |"
            )
        md.append("")
        series_lat, series_bytes = [], []
        exps = []
        for topo in ["line", "mesh"]:
            pts = [p for p in fan if p["topology"] == topo or (p["daemons"] == 2)]
            pts = sorted({p["daemons"]: p for p in pts}.values(), key=lambda p: p["daemons"])
            if len(pts) < 1:
                continue
            d = [p["daemons"] for p in pts]
            series_lat.append((f"{topo} p50", d, [p["latestArrival"]["p50"] for p in pts]))
            series_lat.append((f"{topo} p99", d, [p["latestArrival"]["p99"] for p in pts]))
            series_bytes.append((topo, d, [p["bytesPerEdit"] for p in pts]))
            exps.append(
                f"{topo}: latency p50 {exponent(d, [p['latestArrival']['p50'] for p in pts])}, "
                f"bytes per edit {exponent(d, [p['bytesPerEdit'] for p in pts])}"
            )
        md.append("Growth exponents in the number of daemons (the 2-daemon pair counts in both): " + "; ".join(exps) + ".")
        md.append("")
        if svg_plot(f"{plots}/fanout-latency.svg", "An edit reaching the farthest daemon", "daemons", "ms",
                    series_lat):
            img("fanout-latency.svg", "edit latency to the farthest daemon against daemons")
        if svg_plot(f"{plots}/fanout-bytes.svg", "Bytes sent per edit, all connections", "daemons", "bytes",
                    series_bytes):
            img("fanout-bytes.svg", "bytes per edit against daemons")

    generated = "\n".join([BEGIN, ""] + md + [END])
    path = os.path.join(docs, "scale.md")
    if os.path.exists(path):
        with open(path) as fh:
            text = fh.read()
    else:
        text = "# How cost grows\n\n" + BEGIN + "\n" + END + "\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        text = head + generated + tail
    else:
        text = text.rstrip("\n") + "\n\n" + generated + "\n"
    with open(path, "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
