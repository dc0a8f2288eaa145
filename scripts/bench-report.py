#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn make bench's figures into its report and plots.

Usage: bench-report.py LOGS

Reads, in LOGS (written by scripts/bench.sh):
  raw.txt    the guest's figures, "SWITCH METRIC PARAM VALUE UNIT" a line
  clock.txt  "start|end GUEST_US HOST_S": the guest's clock at two console
             lines and the host's clock when they arrived
  meta.txt   date, host, load, knobs
Writes, in LOGS:
  bench.txt    the table: one line per measurement, the three switches
               side by side; the scaling sweep and the cost growth
               computed from it; the clock check
  results.tsv  one row per figure: measurement, switch, parameter, value
               (the mean where there are several runs), unit, runs, min,
               max
  *.dat, *.gp, *.svg   each plot's data, gnuplot script and picture
"""
import math
import os
import re
import subprocess
import sys
from collections import OrderedDict, defaultdict

SWITCHES = ["switchx2", "rocker", "bridge", "cable"]
# The switches proper: the bare cable (two hosts on one QEMU hub) has no
# FDB, no driver, no probe; it is the limit the others are measured to.
BRIDGES = ["switchx2", "rocker", "bridge"]
TITLE = {"switchx2": "SwitchX-2", "rocker": "rocker", "bridge": "Linux bridge",
         "cable": "bare cable"}
# The switches as routers (make bench's routing part)
ROUTER_TITLE = {"switchx2": "SwitchX-2 (ASIC)", "bridge": "Linux router (ip -batch)"}
# Rows measured over the bare cable too: each switch as a percentage of it.
LIMITED = {"tcp_throughput", "frame_rate"}

# The table's rows: metric, parameter (None: every run=K sample), label.
ROWS = [
    ("tcp_throughput", "flows=1", "TCP h1->h2, 1 stream"),
    ("tcp_throughput", "flows=2", "TCP h1->h2, 2 streams"),
    ("tcp_throughput", "flows=4", "TCP h1->h2, 4 streams"),
    ("tcp_throughput", "ports=4", "TCP h1->h2 + h3->h4 (4 ports)"),
    ("tcp_retransmits", "flows=1", "TCP retransmitted, 1 stream"),
    ("tcp_retransmits", "flows=2", "TCP retransmitted, 2 streams"),
    ("tcp_retransmits", "flows=4", "TCP retransmitted, 4 streams"),
    ("frame_rate", "64B", "64-byte frames h1->h2, received"),
    ("frame_offered", "64B", "64-byte frames h1->h2, offered by h1"),
    ("frame_delivered", "64B", "64-byte frames delivered"),
    ("fdb_static_rate", None, "static FDB, programming rate"),
    ("fdb_static_time", None, "static FDB, batch -> all offloaded"),
    ("probe_netdevs", None, "probe: modprobe -> all port netdevs"),
    ("probe_carrier", None, "probe: modprobe -> cabled carrier up"),
    ("learn_latency", None, "learned entry: sw learn -> extern_learn"),
    ("route_tcp", "flows=1", "routed TCP VLAN 10->20, 1 stream"),
    ("route_tcp", "flows=2", "routed TCP VLAN 10->20, 2 streams"),
    ("route_tcp", "flows=4", "routed TCP VLAN 10->20, 4 streams"),
    ("route_tcp_retransmits", "flows=1", "routed TCP retransmitted, 1 stream"),
    ("route_frame_rate", "64B", "routed 64-byte frames, received"),
    ("route_frame_offered", "64B", "routed 64-byte frames, offered"),
    ("route_frame_delivered", "64B", "routed 64-byte frames delivered"),
    ("route_cpu_rx", "64B", "routed 64-byte frames: h1's seen by CPU"),
]


def fmt(v):
    """A figure with the precision it deserves."""
    if v is None:
        return "-"
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}".replace(",", " ")
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


class Figures:
    """The guest's figures, by (switch, metric, param)."""

    def __init__(self, path):
        self.values = defaultdict(list)   # (sw, metric, param) -> [values]
        self.units = {}
        self.samples = defaultdict(list)  # (sw, metric) -> run=K values
        self.info = {}                    # "- METRIC - VALUE -" lines
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) != 5:
                    continue
                sw, metric, param, value, unit = parts
                if sw == "-":
                    self.info[metric] = value
                    continue
                try:
                    v = float(value)
                except ValueError:
                    continue
                self.units[metric] = unit
                if param.startswith("run="):
                    self.samples[(sw, metric)].append(v)
                else:
                    self.values[(sw, metric, param)].append(v)

    def one(self, sw, metric, param):
        vals = self.values.get((sw, metric, param))
        return vals[-1] if vals else None

    def runs(self, sw, metric):
        return self.samples.get((sw, metric), [])

    def sweep(self, sw, metric):
        """[(n, value)] of a metric with n=N parameters, by n."""
        out = []
        for (s, m, p), vals in self.values.items():
            if s == sw and m == metric and p.startswith("n="):
                out.append((int(p[2:]), vals[-1]))
        return sorted(out)


def stats(vals):
    n = len(vals)
    mean = sum(vals) / n
    return mean, min(vals), max(vals), n


def growth(points):
    """Least-squares slope of log2(y) over log2(x): y grows as x^k."""
    pts = [(math.log2(x), math.log2(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def growth_word(k):
    if k < -0.15:
        return "falls"
    if k <= 0.15:
        return "flat"
    if k <= 0.6:
        return "sub-linear"
    if k <= 1.3:
        return "linear"
    return "super-linear"


def growth_line(what, points, per):
    """'what: xR per doubling of PER (exponent k): word'."""
    k = growth(points)
    if k is None:
        return f"{what}: too few points"
    return (f"{what}: x{2 ** k:.2f} per doubling of {per} "
            f"(exponent {k:+.2f}): {growth_word(k)}")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def gnuplot(logs, name, script):
    gp = os.path.join(logs, name + ".gp")
    head = ('set terminal svg size 760,440 dynamic noenhanced font "sans,11" '
            'background "white"\n'
            f'set output "{name}.svg"\n'
            'set datafile missing "-"\n'
            'set key top right\nset grid ytics\n')
    write(gp, head + script)
    subprocess.run(["gnuplot", name + ".gp"], cwd=logs, check=True)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench-report.py LOGS")
    logs = sys.argv[1]
    fig = Figures(os.path.join(logs, "raw.txt"))
    meta = open(os.path.join(logs, "meta.txt")).read().splitlines()
    tsv = ["measurement\tswitch\tparameter\tvalue\tunit\truns\tmin\tmax"]
    out = ["make bench: SwitchX-2 model vs rocker vs Linux bridge, "
           "and the bare cable"]
    out += ["  " + m for m in meta]
    out.append("")

    # --- The side-by-side table -------------------------------------
    w0, w = 50, 20
    out.append(f"{'measurement':<{w0}}" +
               "".join(f"{TITLE[s]:<{w}}" for s in SWITCHES) +
               "limit % (SX2/rkr/br)")
    out.append("-" * (w0 + w * (len(SWITCHES) + 1)))
    for metric, param, label in ROWS:
        unit = fig.units.get(metric, "")
        if metric not in fig.units:
            continue
        label = f"{label} ({unit})" if unit != "%" else f"{label} (%)"
        cells = []
        for sw in SWITCHES:
            if sw == "cable" and metric not in LIMITED | {"tcp_retransmits"}:
                cells.append("")
                continue
            if param is not None:
                v = fig.one(sw, metric, param)
                if v is None:
                    cells.append("n/a")
                elif unit == "segments":
                    cells.append(f"{v:.0f}")
                else:
                    cells.append(fmt(v))
                if v is not None:
                    tsv.append(f"{metric}\t{sw}\t{param}\t{v}\t{unit}\t1\t{v}\t{v}")
                continue
            vals = fig.runs(sw, metric)
            if not vals:
                cells.append("n/a")
                continue
            mean, lo, hi, n = stats(vals)
            cell = f"{fmt(mean)} ({fmt(lo)}-{fmt(hi)})"
            if sw == "bridge" and metric.startswith("fdb_static"):
                cell += " *"
            cells.append(cell)
            tsv.append(f"{metric}\t{sw}\tmean of {n}\t{mean:.3f}\t{unit}\t{n}\t{lo}\t{hi}")
        if metric in LIMITED and param is not None:
            cells.append(limit_cell(fig, metric, param, tsv))
        out.append(f"{label:<{w0}}" + "".join(f"{c:<{w}}" for c in cells).rstrip())
    runs = {m: max((len(fig.runs(s, m)) for s in SWITCHES), default=0)
            for m, p, _ in ROWS if p is None}
    out.append("")
    out.append("Several runs: mean (min-max); runs: " +
               ", ".join(f"{m} {n}" for m, n in runs.items() if n) + ".")
    out.append("* the Linux bridge has nothing to offload: its figure is "
               "the `bridge -batch` itself, in software.")
    if "route_tcp" in fig.units:
        out.append("routed rows: the Linux bridge column is the Linux router "
                   "(the same VLAN-aware bridge and uppers over virtio NICs, "
                   "the guest's kernel routing); SwitchX-2's router routes in "
                   "the ASIC.")
    out.append("limit %: each switch's figure as a percentage of the bare "
               "cable's (the same two virtio hosts on one QEMU hub), "
               "SwitchX-2 / rocker / Linux bridge.")
    twice = [TITLE[s] for s in SWITCHES
             if fig.one(s, "fdb_offloads_per_add", "-") == 2]
    if twice:
        out.append(f"{', '.join(twice)}: each `bridge fdb add` without a VLAN "
                   "is offloaded twice (no VLAN, and VLAN 1, which the ports "
                   "of a VLAN-unaware bridge have too); rates count bridge "
                   "entries.")
    out.append("")

    # --- Scaling ------------------------------------------------------
    size = fig.one("switchx2", "fdb_size", "-")
    if size is not None:
        tsv.append(f"fdb_size\tswitchx2\t-\t{size:.0f}\tentries\t1\t{size}\t{size}")
    grow = []
    for metric, title, unit, per in (
            ("fdb_fill_rate", "FDB programming rate as the table fills "
             "(each step adds the entries up to N)", "entries/s",
             "time per entry"),
            ("lookup_rate", "64-byte frame rate h1->h2 to entry N-1, "
             "with N entries in the FDB", "frames/s", "time per frame"),
            ("lpm_fill_rate", "LPM programming rate as the routes grow "
             "(each step adds the /24 routes up to N; Linux bridge column: "
             "the Linux router, the kernel's `ip -batch` alone)", "routes/s",
             "time per route"),
            ("lpm_flush_rate", "LPM: all N routes deleted (to the sentinel "
             "route in the ASIC; Linux router: `ip -batch` alone)",
             "routes/s", "time per route")):
        sweeps = {sw: fig.sweep(sw, metric) for sw in BRIDGES}
        ns = sorted({n for pts in sweeps.values() for n, _ in pts})
        if not ns:
            continue
        out.append(f"{title}, {unit}")
        out.append(f"{'N':>8}  " + "".join(f"{TITLE[s]:>16}" for s in BRIDGES))
        for n in ns:
            row = f"{n:>8}  "
            for sw in BRIDGES:
                v = dict(sweeps[sw]).get(n)
                row += f"{fmt(v):>16}"
                if v is not None:
                    tsv.append(f"{metric}\t{sw}\tn={n}\t{v}\t{unit}\t1\t{v}\t{v}")
            out.append(row)
        if metric == "lookup_rate":
            for sw in BRIDGES:
                short = [f"N={n}: {v:g}%" for n, v in fig.sweep(sw, "lookup_delivered")
                         if v < 99]
                if short:
                    out.append(f"  {TITLE[sw]} delivered less than 99% of the "
                               "frames sent: " + ", ".join(short))
        for sw in BRIDGES:
            pts = [(n, 1.0 / v) for n, v in sweeps[sw] if v > 0]
            if len(pts) >= 2:
                grow.append(growth_line(f"{TITLE[sw]}, {per} vs N",
                                        pts, "N"))
        out.append("")
        write(os.path.join(logs, metric + ".dat"),
              "# N " + " ".join(BRIDGES) + f"  ({unit})\n" +
              "".join(f"{n} " + " ".join(
                  fmt_dat(dict(sweeps[sw]).get(n)) for sw in BRIDGES) + "\n"
                  for n in ns))
    for sw in SWITCHES:
        flows = sorted((int(p.split("=")[1]), vals[-1])
                       for (s, m, p), vals in fig.values.items()
                       if s == sw and m == "tcp_throughput" and p.startswith("flows="))
        if len(flows) >= 2:
            grow.append(growth_line(f"{TITLE[sw]}, aggregate TCP throughput "
                                    "vs streams", flows, "streams"))
        one, four = fig.one(sw, "tcp_throughput", "flows=1"), \
            fig.one(sw, "tcp_throughput", "ports=4")
        if one and four:
            grow.append(growth_line(f"{TITLE[sw]}, aggregate TCP throughput, "
                                    "2 ports (1 pair) -> 4 ports (2 pairs)",
                                    [(2, one), (4, four)], "ports"))
    if grow:
        out.append("Cost growth, from the figures above (least-squares "
                   "exponent k of value ~ x^k; flat |k| <= 0.15, linear "
                   "0.6 < k <= 1.3):")
        out += ["  " + g for g in grow]
        out.append("")

    # --- The guest's clock against the host's --------------------------
    clock = {}
    path = os.path.join(logs, "clock.txt")
    if os.path.exists(path):
        for line in open(path):
            label, guest_us, host_s = line.split()
            clock[label] = (int(guest_us) / 1e6, float(host_s))
    if "start" in clock and "end" in clock:
        g = clock["end"][0] - clock["start"][0]
        h = clock["end"][1] - clock["start"][1]
        dev = 100.0 * (g / h - 1) if h > 0 else 0.0
        out.append(f"Guest clock check: the guest counted {g:.1f} s while "
                   f"the host counted {h:.1f} s ({dev:+.2f}%).")
        if abs(dev) > 2:
            out.append("WARNING: the guest's clock drifted from the host's "
                       "by more than 2%: every guest-timed figure is off by "
                       "about as much.")
        tsv.append(f"guest_clock_drift\t-\t-\t{dev:.3f}\t%\t1\t{dev}\t{dev}")
        out.append("")
    # Kernel reports during the run: the figures stand, but say so.
    reports, where = [], ""
    path = os.path.join(logs, "bench.log")
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            text = line.split(" ", 1)[-1].strip()
            if any(k in text for k in ("] BUG:", "] WARNING:", "] Oops", "] KASAN",
                                       "] general protection", "] Kernel panic")):
                reports.append(text)
            # The first module function in the first report's trace;
            # "? " frames are stale stack words, not the call chain
            m = re.search(r"\]\s+(\w+)\+0x\w+/0x\w+ \[(\w+)\]", text)
            if len(reports) == 1 and m and not where:
                where = f" in {m.group(1)} [{m.group(2)}]"
    if reports:
        out.append(f"Kernel log: {len(reports)} BUG/WARNING/Oops report(s) during "
                   f"the run, first: {reports[0]}{where} (see bench.log)")
    else:
        out.append("Kernel log: no BUG, WARNING or Oops during the run.")
    source = fig.info.get("clocksource", "unknown")
    if source == "tsc":
        out.append("Guest clocksource: tsc (under TCG the host's TSC, its "
                   "frequency given by tsc_early_khz).")
    else:
        out.append(f"Guest clocksource: {source}: timer ticks, 4 ms "
                   "resolution (HZ=250), and ticks get lost on a busy host.")
    out.append("Plots: " + ", ".join(plots(logs, fig)) + f" in {logs}/")
    write(os.path.join(logs, "bench.txt"), "\n".join(out) + "\n")
    write(os.path.join(logs, "results.tsv"), "\n".join(tsv) + "\n")


def limit_cell(fig, metric, param, tsv):
    """The switches' figures as percentages of the bare cable's."""
    cable = fig.one("cable", metric, param)
    if not cable:
        return "n/a"
    cells = []
    for sw in BRIDGES:
        v = fig.one(sw, metric, param)
        if v is None:
            cells.append("-")
            continue
        pct = 100.0 * v / cable
        cells.append(f"{pct:.0f}")
        tsv.append(f"{metric}_limit\t{sw}\t{param}\t{pct:.1f}\t%\t1\t{pct}\t{pct}")
    return " / ".join(cells)


def fmt_dat(v):
    return "-" if v is None else f"{v:g}"


def plots(logs, fig):
    """Write the .dat files and the SVGs; return the SVGs' names."""
    made = []
    cols = " ".join(f'"{TITLE[s]}"' for s in SWITCHES)

    # TCP throughput: configurations x switches
    confs = [("flows=1", "1 stream"), ("flows=2", "2 streams"),
             ("flows=4", "4 streams"), ("ports=4", "4 ports, 2 pairs")]
    rows = [(lab, [fig.one(s, "tcp_throughput", p) for s in SWITCHES])
            for p, lab in confs]
    rows = [r for r in rows if any(v is not None for v in r[1])]
    if rows:
        write(os.path.join(logs, "tcp.dat"), f"# config {cols} (Mbit/s)\n" +
              "".join(f'"{lab}" ' + " ".join(fmt_dat(v) for v in vals) + "\n"
                      for lab, vals in rows))
        gnuplot(logs, "tcp", histogram("TCP throughput (iperf3), aggregate",
                                       "Mbit/s", "tcp.dat"))
        made.append("tcp.svg")

    # 64-byte frames: switches x (received, sent)
    vals = [(s, fig.one(s, "frame_rate", "64B"), fig.one(s, "frame_offered", "64B"))
            for s in SWITCHES]
    if any(v[1] is not None for v in vals):
        write(os.path.join(logs, "frames.dat"), "# switch received sent (frames/s)\n" +
              "".join(f'"{TITLE[s]}" {fmt_dat(r)} {fmt_dat(o)}\n' for s, r, o in vals))
        gnuplot(logs, "frames", histogram(
            "64-byte frames h1 -> h2 (mausezahn)", "frames/s", "frames.dat",
            titles=("received by h2", "offered: sent by h1")))
        made.append("frames.svg")

    # Runs with a spread: mean with min and max, per switch
    for name, metrics, title, unit in (
            ("fdb_static", [("fdb_static_rate", "entries/s")],
             "Static FDB programming (bridge -batch until all offloaded)",
             "entries/s"),
            ("probe", [("probe_netdevs", "netdevs"), ("probe_carrier", "carrier up")],
             "Probe: modprobe -> ports", "ms")):
        lines = []
        for s in SWITCHES:
            cells = []
            for m, _ in metrics:
                v = fig.runs(s, m)
                cells += list(stats(v)[:3]) if v else [None] * 3
            if any(c is not None for c in cells):
                lines.append(f'"{TITLE[s]}" ' + " ".join(fmt_dat(c) for c in cells))
        if not lines:
            continue
        write(os.path.join(logs, name + ".dat"),
              "# switch " + " ".join(f"{m}_mean {m}_min {m}_max" for m, _ in metrics) +
              f" ({unit})\n" + "\n".join(lines) + "\n")
        using = ", ".join(
            f'"{name}.dat" using {2 + 3 * i}:{3 + 3 * i}:{4 + 3 * i}:xtic(1) '
            f'title "{t}"' for i, (_, t) in enumerate(metrics))
        gnuplot(logs, name,
                f'set title "{title}"\nset ylabel "{unit} (mean, bars: min-max)"\n'
                'set style data histograms\n'
                'set style histogram errorbars gap 2 lw 1\n'
                'set style fill solid 0.7 border -1\nset boxwidth 0.9\n'
                'set yrange [0:*]\n'
                f'plot {using}\n')
        made.append(name + ".svg")

    # Learned-entry latency: the distribution, one CDF per switch
    blocks = []
    for s in SWITCHES:
        v = sorted(fig.runs(s, "learn_latency"))
        if v:
            blocks.append((s, v))
    if blocks:
        text = ""
        for s, v in blocks:
            text += f"# {TITLE[s]}: latency (ms), fraction of runs\n"
            text += "".join(f"{x:g} {(i + 1) / len(v):.4f}\n" for i, x in enumerate(v))
            text += "\n\n"
        write(os.path.join(logs, "learn_latency.dat"), text)
        plot = ", ".join(f'"learn_latency.dat" index {i} using 1:2 with steps '
                         f'lw 2 title "{TITLE[s]} ({len(v)} runs)"'
                         for i, (s, v) in enumerate(blocks))
        gnuplot(logs, "learn_latency",
                'set title "Learned-entry latency: bridge learns -> extern_learn"\n'
                'set xlabel "ms"\nset ylabel "fraction of runs at or below"\n'
                'set yrange [0:1.05]\nset xrange [0:*]\nset key bottom right\n'
                f'plot {plot}\n')
        made.append("learn_latency.svg")

    # The sweep: rate against N, log2 axis
    bridge_titles = {s: TITLE[s] for s in BRIDGES}
    for metric, title, unit, xlabel, titles in (
            ("fdb_fill_rate", "FDB programming rate as the table fills", "entries/s",
             "N, entries in the FDB", bridge_titles),
            ("lookup_rate", "64-byte frame rate with N entries in the FDB", "frames/s",
             "N, entries in the FDB", bridge_titles),
            ("lpm_fill_rate", "LPM programming rate as the routes grow", "routes/s",
             "N, routes in the LPM table", ROUTER_TITLE)):
        if not os.path.exists(os.path.join(logs, metric + ".dat")):
            continue
        # The .dat has a column per bridge, in BRIDGES order.
        plot = ", ".join(f'"{metric}.dat" using 1:{BRIDGES.index(s) + 2} with '
                         f'linespoints lw 2 pt 7 title "{t}"'
                         for s, t in titles.items())
        gnuplot(logs, metric,
                f'set title "{title}"\nset xlabel "{xlabel}"\n'
                f'set ylabel "{unit}"\nset logscale x 2\nset yrange [0:*]\n'
                f'set key outside right\nplot {plot}\n')
        made.append(metric + ".svg")
    return made


def histogram(title, unit, dat, titles=None):
    ncols = len(titles) if titles else len(SWITCHES)
    names = titles or [TITLE[s] for s in SWITCHES]
    using = ", ".join(f'"{dat}" using {i + 2}{":xtic(1)" if i == 0 else ""} '
                      f'title "{names[i]}"' for i in range(ncols))
    return (f'set title "{title}"\nset ylabel "{unit}"\n'
            'set style data histograms\nset style histogram clustered gap 1\n'
            'set style fill solid 0.7 border -1\nset boxwidth 0.9\n'
            'set yrange [0:*]\n'
            f'plot {using}\n')


if __name__ == "__main__":
    main()
