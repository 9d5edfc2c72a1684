#!/usr/bin/python3
"""smcr benchmark report: results.jsonl (tools/bench/guest.sh) -> results.json,
results.md and plot.png (gnuplot) in an output directory.

Round 0 is warm-up and left out when there are more rounds. Each figure is
the median over the remaining rounds, with the spread (min..max) beside it.
Latencies are one-way: half the round trip for the socket ping-pong,
ib_write_lat's own one-way figures for raw verbs.

The links and failover cases (smcr only) are reported apart: 8 streams over
a link group of one link and of two (median of the repeats), and the
failover gap, the median over the trials of the ms from `ip link set eth1
down` to the end of the longest pause between sends of any stream.

Usage: report.py RESULTS.jsonl OUTDIR
"""

import json
import os
import shutil
import statistics
import subprocess
import sys

SYSTEMS = ["smcr", "intree", "tcp", "raw"]
NAMES = {"smcr": "smcr", "intree": "in-tree SMC-R", "tcp": "TCP",
         "raw": "raw verbs"}


SEPARATE = ("many", "links", "failover")


def stat(vs):
    if not vs:
        return None
    return {"median": statistics.median(vs), "min": min(vs), "max": max(vs),
            "n": len(vs), "samples": vs}


def measured(r):
    """A failover trial measured something: the streams were sending from
    before the down until 1 s after it."""
    return r.get("down_after_start_ms", 0) >= 0 and r.get("down_before_end_ms", 1000) >= 1000


def links_summary(recs):
    """8 streams over one and two links, and the failover trials."""
    links = {}
    for r in recs:
        if r.get("mode") == "links" and "error" not in r:
            links.setdefault(r["links"], []).append(r["mbit_s"])
    fo = [r for r in recs if r.get("mode") == "failover" and "error" not in r and measured(r)]
    out = {"links_8_streams_mbit_s": {str(n): stat(vs) for n, vs in sorted(links.items())}}
    out["failover"] = {
        "trials": len(fo),
        "failed": sum(1 for r in recs if r.get("mode") == "failover" and "error" in r),
        "not_measured": sum(1 for r in recs if r.get("mode") == "failover" and "error" not in r
                            and not measured(r)),
        "down_to_resume_ms": stat([r["down_to_resume_ms"] for r in fo]),
        "stall_ms": stat([r["stall_ms"] for r in fo]),
        "max_gap_ms": stat([r["max_gap_ms"] for r in fo]),
        "mbit_s": stat([r["mbit_s"] for r in fo]),
    }
    return out


def links_markdown(ls, recs):
    lines = []
    one = ls["links_8_streams_mbit_s"].get("1")
    two = ls["links_8_streams_mbit_s"].get("2")
    fo = ls["failover"]
    if not one and not two and not fo["trials"] and not fo["failed"]:
        return lines
    lines += ["", "## One link vs two links (smcr, 8 streams of 64 KiB messages)", ""]
    lines.append("| link group | Mbit/s | connections per link (client, mid-stream) |")
    lines.append("|---|---|---|")
    for n, s in (("1", one), ("2", two)):
        per = [r.get("link_conns") for r in recs if r.get("mode") == "links" and
               str(r.get("links")) == n and "error" not in r]
        lines.append(f"| {n} link{'s' if n == '2' else ''} | {fmt(s)} | "
                     f"{json.dumps(per[0]) if per else '-'} |")
    lines.append(f"\nTwo links / one link: "
                 f"{rstr(ratio(two and two['median'], one and one['median']))}")
    lines += ["", "## Failover gap (smcr, two links, eth1 down under 8 streams)", ""]
    lines.append(f"Trials: {fo['trials']} measured, {fo['failed']} failed, "
                 f"{fo['not_measured']} not measured (the down not within the streams' sending, "
                 "1 s before their end at the latest). "
                 "down->resume: ms from `ip link set eth1 down` to the end of the last-ending "
                 "pause (>= 10 ms between two 16 KiB sends) of any stream that ends after the "
                 "down and began before it or within 500 ms (0: none); stall: that pause; "
                 "longest pause: the longest of the whole trial, wherever it fell (the noise "
                 "floor of these VMs).")
    lines.append("")
    lines.append("| | median (min..max) |")
    lines.append("|---|---|")
    lines.append(f"| down->resume, ms | {fmt(fo['down_to_resume_ms'])} |")
    lines.append(f"| stall, ms | {fmt(fo['stall_ms'])} |")
    lines.append(f"| longest pause of the trial, ms | {fmt(fo['max_gap_ms'])} |")
    lines.append(f"| 8-stream Mbit/s across the trial | {fmt(fo['mbit_s'])} |")
    trials = [r for r in recs if r.get("mode") == "failover"]
    if trials:
        lines += ["", "| trial | down->resume ms | stall ms | stall starts after down, ms "
                  "| streams stalled | longest pause ms | connections per link before | result |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in trials:
            if "error" in r:
                lines.append(f"| {r.get('round')} | - | - | - | - | - | - | {r['error']} |")
                continue
            after = r.get("stall_starts_after_down_ms")
            res = "ok" if measured(r) else (
                f"not measured: down {r.get('down_after_start_ms', 0):.0f} ms after the start, "
                f"{r.get('down_before_end_ms', 0):.0f} ms before the end")
            lines.append(f"| {r['trial']} | {r['down_to_resume_ms']:.1f} | {r['stall_ms']:.1f} "
                         f"| {'-' if after is None else f'{after:.1f}'} | {r.get('stalled_conns')} "
                         f"| {r['max_gap_ms']:.1f} | {json.dumps(r.get('link_conns'))} | {res} |")
    return lines


def load(path):
    recs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError as e:
                print(f"report: {path}:{n}: {e}", file=sys.stderr)
    return recs


def one_way(rec, q):
    """One-way latency percentile q ('p50', 'p99', 'p999') in us."""
    if f"one_way_{q}_us" in rec:
        return rec[f"one_way_{q}_us"]
    if f"rtt_{q}_us" in rec:
        return rec[f"rtt_{q}_us"] / 2
    return None


def metrics(rec):
    """(key, {metric: value}) for one measurement record, or None."""
    mode = rec.get("mode")
    if "error" in rec:
        return None
    if mode == "stream":
        return ((mode, rec["msg_size"], rec.get("conns", 1), rec.get("rcvbuf", 0)),
                {"mbit_s": rec["mbit_s"]})
    if mode == "rr":
        m = {f"one_way_{q}_us": one_way(rec, q) for q in ("p50", "p99", "p999")}
        return ((mode, rec["msg_size"], 1, 0), {k: v for k, v in m.items() if v is not None})
    if mode == "crr":
        return ((mode, 1, 1, 0), {"conns_per_s": rec["conns_per_s"]})
    return None


def summarize(recs):
    rounds = sorted({r.get("round", 0) for r in recs if r.get("mode") not in SEPARATE})
    skip = {rounds[0]} if len(rounds) > 1 else set()
    samples = {}
    for rec in recs:
        if rec.get("round", 0) in skip:
            continue
        km = metrics(rec)
        if not km:
            continue
        key, ms = km
        for metric, v in ms.items():
            samples.setdefault((rec["system"], key, metric), []).append(v)
    summary = {}
    for (system, key, metric), vs in samples.items():
        summary.setdefault(system, {}).setdefault(key, {})[metric] = {
            "median": statistics.median(vs), "min": min(vs), "max": max(vs),
            "n": len(vs), "samples": vs}
    return summary, sorted(skip), rounds


def fig(summary, system, key, metric):
    try:
        return summary[system][key][metric]["median"]
    except KeyError:
        return None


def fmt(s, digits=1):
    if s is None:
        return "-"
    med, lo, hi = s["median"], s["min"], s["max"]
    if s["n"] == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({lo:.{digits}f}..{hi:.{digits}f})"


def size_name(n):
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def rstr(x):
    return "-" if x is None else f"{x:.2f}x"


def key_label(key):
    mode, size, conns, rcvbuf = key
    if mode == "stream":
        return (f"stream {size_name(size)}" + (f" x{conns} conns" if conns > 1 else "") +
                (f", SO_RCVBUF/SO_SNDBUF {size_name(rcvbuf)}" if rcvbuf else ""))
    if mode == "rr":
        return f"ping-pong {size_name(size)}"
    return "connect+1B+close"


def targets(summary, many):
    """The issue's targets: (text, value, ok)."""
    s64 = ("stream", 65536, 1, 0)
    out = []
    smcr = fig(summary, "smcr", s64, "mbit_s")
    r = ratio(smcr, fig(summary, "intree", s64, "mbit_s"))
    out.append(("stream 64 KiB >= 1.0x in-tree SMC-R", rstr(r), r is not None and r >= 1.0))
    r = ratio(smcr, fig(summary, "raw", s64, "mbit_s"))
    out.append(("stream 64 KiB >= 0.9x ib_write_bw", rstr(r), r is not None and r >= 0.9))
    rr1 = ("rr", 1, 1, 0)
    a, b = fig(summary, "smcr", rr1, "one_way_p50_us"), fig(summary, "intree", rr1, "one_way_p50_us")
    out.append(("ping-pong 1 B p50 <= in-tree SMC-R",
                "-" if a is None or b is None else f"{a:.0f} vs {b:.0f} us",
                a is not None and b is not None and a <= b))
    crr = ("crr", 1, 1, 0)
    r = ratio(fig(summary, "smcr", crr, "conns_per_s"), fig(summary, "intree", crr, "conns_per_s"))
    out.append(("connection rate >= 2x in-tree SMC-R", rstr(r), r is not None and r >= 2.0))
    m = many.get("smcr", {})
    opened = m.get("opened", 0)
    out.append(("10,000 concurrent connections (smcr)", f"{opened} open, {m.get('failed', '-')} failed",
                opened >= 10000 and not m.get("failed")))
    return out


def markdown(summary, many, skip, rounds, recs):
    keys = sorted({k for s in summary.values() for k in s},
                  key=lambda k: (["stream", "rr", "crr"].index(k[0]), k[2], k[3], k[1]))
    systems = [s for s in SYSTEMS if s in summary]
    lines = ["# smcr benchmark", ""]
    lines.append(f"Rounds {rounds}, warm-up discarded: {skip or 'none'}. "
                 "Median (min..max) over the other rounds; one boot, one rxe link.")
    lines.append("")
    lines.append("## Ratios (medians)")
    lines.append("")
    lines.append("| measurement | smcr/in-tree | smcr/TCP | smcr/raw |")
    lines.append("|---|---|---|---|")
    for key in keys:
        metric = {"stream": "mbit_s", "rr": "one_way_p50_us", "crr": "conns_per_s"}[key[0]]
        s = fig(summary, "smcr", key, metric)
        row = [rstr(ratio(s, fig(summary, o, key, metric))) for o in ("intree", "tcp", "raw")]
        note = " (latency: lower is better)" if key[0] == "rr" else ""
        lines.append(f"| {key_label(key)}{note} | " + " | ".join(row) + " |")
    lines.append("")
    lines.append("## Targets")
    lines.append("")
    for text, val, ok in targets(summary, many):
        lines.append(f"- {'met' if ok else 'MISSED'}: {text}: {val}")
    for title, mode, metrics_ in (
            ("Stream throughput, Mbit/s", "stream", ["mbit_s"]),
            ("Ping-pong one-way latency, us (p50 / p99 / p99.9)", "rr",
             ["one_way_p50_us", "one_way_p99_us", "one_way_p999_us"]),
            ("Connection setup: connect, 1-byte exchange, close; per second", "crr",
             ["conns_per_s"])):
        lines += ["", f"## {title}", ""]
        lines.append("| | " + " | ".join(NAMES[s] for s in systems) + " |")
        lines.append("|---" * (len(systems) + 1) + "|")
        for key in (k for k in keys if k[0] == mode):
            for metric in metrics_:
                cells = [fmt(summary.get(s, {}).get(key, {}).get(metric),
                             0 if mode == "rr" else 1) for s in systems]
                label = key_label(key) + ("" if len(metrics_) == 1 else " " + metric.split("_")[2])
                lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if many:
        lines += ["", "## Many connections (opened at once, held, 1-byte exchange each)", ""]
        lines.append("| system | opened | failed | s to open | conn/s | client KiB/conn "
                     "| server KiB/conn | RMB bytes (client / server) | link groups (server) |")
        bufs = {m.get("rcvbuf") for m in many.values()}
        lines.insert(-1, f"SO_RCVBUF/SO_SNDBUF: {', '.join(str(b) for b in sorted(bufs))}; "
                     "memory from MemTotal - MemAvailable; RMB bytes from the link group dump.\n")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for s in systems:
            m = many.get(s)
            if not m:
                continue
            n = max(m.get("opened", 0), 1)
            srv = m.get("server_mem_delta_kib")
            lines.append(
                f"| {NAMES[s]} | {m.get('opened', '-')} | {m.get('failed', '-')} "
                f"| {m.get('secs_to_open', 0):.1f} | {m.get('conns_per_s', 0):.0f} "
                f"| {m.get('kib_per_conn', 0):.1f} | {'-' if srv is None else f'{srv / n:.1f}'} "
                f"| {m.get('client_rmb_bytes', '-')} / {m.get('server_rmb_bytes', '-')} "
                f"| {m.get('server_lgrs', '-')} |")
    lines += links_markdown(links_summary(recs), recs)
    counters = [r for r in recs if r.get("mode") == "counters"]
    if counters:
        lines += ["", "## What carried the bytes (client VM, per round)", ""]
        lines.append("| system | round | SMC-R tx bytes | SMC-R rx bytes | fallbacks |")
        lines.append("|---|---|---|---|---|")
        for c in counters:
            lines.append(f"| {NAMES.get(c['system'], c['system'])} | {c['round']} | "
                         f"{c['smcr_tx_bytes']} | {c['smcr_rx_bytes']} | {c['fallbacks']} |")
    errors = [r for r in recs if "error" in r]
    if errors:
        lines += ["", "## Errors", ""]
        for e in errors:
            lines.append(f"- {e.get('system')} round {e.get('round')} {e.get('mode')}: {e['error']}")
    return "\n".join(lines) + "\n"


def plot(summary, outdir):
    if not shutil.which("gnuplot"):
        print("report: gnuplot not installed, no plot", file=sys.stderr)
        return False
    systems = [s for s in SYSTEMS if s in summary]
    data = []
    for s in systems:
        pts = sorted((k[1], v["mbit_s"]["median"]) for k, v in summary[s].items()
                     if k[0] == "stream" and k[2] == 1 and not k[3] and "mbit_s" in v)
        data.append("\n".join(f"{x} {y}" for x, y in pts) or "nan nan")
    lat = []
    for s in systems:
        v = summary[s].get(("rr", 1, 1, 0), {})
        lat.append(f'"{NAMES[s]}" ' + " ".join(
            str(v.get(m, {}).get("median", "nan"))
            for m in ("one_way_p50_us", "one_way_p99_us", "one_way_p999_us")))
    s64 = ("stream", 65536, 1, 0)
    parts = []
    for o in ("intree", "tcp", "raw"):
        r = ratio(fig(summary, "smcr", s64, "mbit_s"), fig(summary, o, s64, "mbit_s"))
        if r is not None:
            parts.append(f"smcr/{NAMES[o]} {r:.2f}x")
    title = "stream 64 KiB: " + ", ".join(parts) if parts else "smcr benchmark"
    script = f"""
set terminal pngcairo size 1400,600 font ",10" noenhanced
set output "{os.path.join(outdir, 'plot.png')}"
set multiplot layout 1,2 title "{title}"
set title "Stream throughput vs message size (1 connection)"
set logscale x 2
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576)
set yrange [0:*]
set xlabel "message size (bytes)"
set ylabel "Mbit/s (median)"
set key top left
set grid
plot {", ".join(f"'-' using 1:2 with linespoints title '{NAMES[s]}'" for s in systems)}
{"".join(d + chr(10) + "e" + chr(10) for d in data)}
unset logscale x
set title "One-way latency, 1-byte ping-pong (raw verbs: ib_write_lat)"
set xlabel ""
set ylabel "microseconds (median over rounds)"
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set key top left
plot '-' using 2:xtic(1) title 'p50', '' using 3 title 'p99', '' using 4 title 'p99.9'
{(chr(10).join(lat) + chr(10) + "e" + chr(10)) * 3}
unset multiplot
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"report: gnuplot failed: {e}", file=sys.stderr)
        return False
    return True


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 64
    recs = load(sys.argv[1])
    outdir = sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    summary, skip, rounds = summarize(recs)
    many = {r["system"]: r for r in recs if r.get("mode") == "many" and "error" not in r}
    flat = {s: {key_label(k): v for k, v in keys.items()} for s, keys in summary.items()}
    with open(os.path.join(outdir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"rounds": rounds, "warmup_discarded": skip, "summary": flat,
                   "many": many, "targets": [{"target": t, "value": v, "met": ok}
                                             for t, v, ok in targets(summary, many)],
                   "links": links_summary(recs),
                   "records": recs}, f, indent=1)
    md = markdown(summary, many, skip, rounds, recs)
    with open(os.path.join(outdir, "results.md"), "w", encoding="utf-8") as f:
        f.write(md)
    plot(summary, outdir)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
