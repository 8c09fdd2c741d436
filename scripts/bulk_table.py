#!/usr/bin/env python3
"""Makes the bulk table of docs/performance.md ("Bulk engine against the parser"; the
section is written by `scripts/perf_report.py --only bulk`, which runs this script):
runs `rapidurl bench` (the engine's column, a counting sink, the parse_ref loop, a memchr
pass, and the tool's paths on the same URLs: `check` on them as CSV records, `stats --by
registrable_domain`, Parquet of 3 fields on 1 and 2 threads; measured in turns) on a
repeated corpus, then times the whole tool, and prints a Markdown table of medians and
ratios against the parse_ref loop of the same run.

    cargo build --release -p rapidurl-cli
    python3 scripts/bulk_table.py                      # kasztp x 20, userbait x 40
    python3 scripts/bulk_table.py --time 3 --runs 7

The tool's rows are whole processes (start, read, parse, format, write to /dev/null or,
for Parquet, to a file in a temporary directory), median of --runs runs, taken in turns;
their ratio is ns/URL against the loop's ns/URL. The CSV rows read the repeated corpus
written as a CSV of `time,url,status` records (a URL with a comma, a quote or a line
break quoted per RFC 4180), in the temporary directory. `lint` is also given against
`check` (both whole processes, default threads): the issue's target is at most 1.5x;
and `check` on the CSV against `check` on the lines. A CPU figure `rapidurl bench` cannot
tell (a run too short for its CPU clock) is `-`.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SHARED = os.path.join(ROOT, "..", "shared", "corpora")


def repeated(corpus, times, directory):
    """The corpus file repeated `times` times, in a temporary file: each copy ends with a
    line feed (one is added when the file's last line has none), so that no two URLs are
    glued together where the copies meet."""
    path = os.path.join(directory, f"{os.path.basename(corpus)}.x{times}")
    with open(corpus, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        data += b"\n"
    with open(path, "wb") as out:
        for _ in range(times):
            out.write(data)
    return path


def csv_log(path, directory):
    """The lines of `path` as the tool reads them (a byte-order mark at the start dropped,
    a line's last carriage return removed, bad UTF-8 replaced) written as a CSV of
    `time,url,status` records, as `rapidurl bench` writes them; returns its path."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    out_path = os.path.join(directory, os.path.basename(path) + ".csv")
    with open(out_path, "w", encoding="utf-8", newline="") as out:
        out.write("time,url,status\n")
        for i, line in enumerate(lines):
            if line.endswith(b"\r"):
                line = line[:-1]
            url = line.decode("utf-8", errors="replace")
            if any(c in url for c in ',"\r\n'):
                url = '"' + url.replace('"', '""') + '"'
            s = i % 86400
            out.write(f"2025-01-01T{s // 3600:02}:{s // 60 % 60:02}:{s % 60:02}Z,{url},200\n")
    return out_path


# One row of `rapidurl bench`'s table: label, URLs/s, MB/s, ns/URL, speed against the
# loop, CPU ns/URL and CPU speed against the loop (both `-` when the CPU time cannot be
# told).
ROW = re.compile(r"^(.+?)\s{2,}(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x"
                 r"\s+([\d.]+|-)\s+(?:([\d.]+)x|-)$")


def number(text):
    """A figure of the table, or None for `-`."""
    return None if text in (None, "-") else float(text)


def bench(binary, path, threads, seconds):
    """`rapidurl bench`'s rows: label -> (ns/URL, ratio against the loop, MB/s, CPU ns/URL,
    CPU ratio), a CPU figure None when bench shows `-`; and the URLs."""
    out = subprocess.run(
        [binary, "bench", "--threads", str(threads), "--time", str(seconds), path],
        check=True, capture_output=True, text=True,
    ).stdout
    urls = int(re.search(r"bytes, (\d+) URLs", out).group(1))
    rows = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1).strip()] = (float(m.group(4)), float(m.group(5)), float(m.group(3)),
                                        number(m.group(6)), number(m.group(7)))
    return urls, rows, out


def cell(value, fmt, suffix=""):
    """`value` formatted, or `-` when it is None."""
    return "-" if value is None else format(value, fmt) + suffix


CPU = {}


def tool_times(binary, commands, runs):
    """Median wall time of each command (whole process), runs taken in turns; the median
    CPU time (user and system, every thread) of each goes to CPU[command]."""
    times = [[] for _ in commands]
    cpu = [[] for _ in commands]
    for _ in range(runs):
        for i, cmd in enumerate(commands):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run([binary] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # `check` and `lint` exit with 1 when some line is invalid or has an error.
            if done.returncode not in (0, 1):
                raise subprocess.CalledProcessError(done.returncode, [binary] + cmd)
            times[i].append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[i].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    for cmd, c in zip(commands, cpu):
        CPU[tuple(cmd)] = statistics.median(c)
    return [statistics.median(t) for t in times]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "rapidurl"))
    p.add_argument("--corpus", default=os.path.join(SHARED, "kasztp.txt"))
    p.add_argument("--times", type=int, default=20)
    p.add_argument("--messy", default=os.path.join(SHARED, "userbait.txt"))
    p.add_argument("--messy-times", type=int, default=40)
    p.add_argument("--time", type=float, default=2.0, help="bench seconds")
    p.add_argument("--runs", type=int, default=5, help="runs of each tool command")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = repeated(a.corpus, a.times, d)
        size = os.path.getsize(path)
        messy = repeated(a.messy, a.messy_times, d)
        csv = csv_log(path, d)
        csv_size = os.path.getsize(csv)
        urls, rows, raw = bench(a.bin, path, 2, a.time)
        print(raw, file=sys.stderr)
        loop = next(v for k, v in rows.items() if k.startswith("parse_ref loop"))[0]
        url_api = "href,origin,protocol,username,password,host,hostname,port,pathname,search,hash"
        commands = [
            ["parse", "--threads", "1", "--fields", "hostname", path],
            ["parse", "--threads", "1", path],
            ["parse", "--threads", "1", "--fields", url_api, path],
            ["parse", "--fields", "origin", path],
            ["check", path],
            ["lint", path],
            ["check", csv],
            ["stats", "--by", "registrable_domain", csv],
            ["parse", "--fields", "hostname,registrable_domain,pathname", "--drop-columns",
             "-o", os.path.join(d, "out.parquet"), csv],
        ]
        times = tool_times(a.bin, commands, a.runs)
        all_fields, check, lint, check_csv = times[2], times[4], times[5], times[6]
        cpu = [CPU[tuple(c)] for c in commands]
        with open(messy, "rb") as f:
            messy_urls = f.read().count(b"\n")  # every copy ends with a line feed
        one, two = tool_times(a.bin, [
            ["parse", "--threads", "1", messy],
            ["parse", "--threads", "2", messy],
        ], a.runs)
    name = os.path.basename(a.corpus)
    print(f"{name} x {a.times} ({urls:,} URLs), one run of `scripts/bulk_table.py`; "
          f"ratios against the parse_ref loop of the same run ({loop:.1f} ns/URL).\n")
    print("| path | ns/URL | MB/s | against the loop | CPU ns/URL | CPU against the loop |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, (ns, ratio, mbs, cpu_ns, cpu_ratio) in rows.items():
        print(f"| {label} | {ns:.1f} | {mbs:.0f} | {ratio:.2f}x speed | {cell(cpu_ns, '.1f')} "
              f"| {cell(cpu_ratio, '.2f', 'x speed')} |")
    cpu_loop = next(v for k, v in rows.items() if k.startswith("parse_ref loop"))[3]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    threads = f"{cores} thread{'s' if cores != 1 else ''}"
    for label, secs, cpu_secs, bytes_read in zip([
        "tool `parse --threads 1 --fields hostname`, whole process",
        "tool `parse --threads 1`, the default fields to TSV, whole process",
        "tool `parse --threads 1`, the 11 URL API fields to TSV, whole process",
        f"tool `parse --fields origin` ({threads}), whole process",
        f"tool `check` ({threads}), whole process",
        f"tool `lint` ({threads}), whole process",
        f"tool `check` on the CSV ({threads}), whole process",
        f"tool `stats --by registrable_domain` on the CSV ({threads}), whole process",
        f"tool `parse --fields hostname,registrable_domain,pathname --drop-columns -o "
        f"out.parquet` on the CSV ({threads}), whole process",
    ], times, cpu, [size] * 6 + [csv_size] * 3):
        ns = secs * 1e9 / urls
        cpu_ns = cpu_secs * 1e9 / urls
        cpu_ratio = ratio_of(cpu_ns, cpu_loop)
        print(f"| {label} | {ns:.1f} | {bytes_read / secs / 1e6:.0f} | {ns / loop:.2f}x time "
              f"| {cpu_ns:.1f} | {cell(cpu_ratio, '.2f', 'x time')} |")
    cpu_times = cell(ratio_of(cpu[2] * 1e9 / urls, cpu_loop), ".2f", "x")
    print(f"\nMB/s of the CSV rows: the CSV's bytes ({csv_size:,}; the lines' {size:,}); "
          f"`rapidurl bench`'s rows count the lines' bytes.")
    print(f"\n`lint` against `check`: {lint / check:.2f}x time, {cpu[5] / cpu[4]:.2f}x CPU time "
          f"(target <= 1.5); the 11 URL API fields to TSV against the loop: "
          f"{all_fields * 1e9 / urls / loop:.2f}x time, {cpu_times} CPU time (target <= 3.0); "
          f"`check` on the CSV against `check` on the lines: {check_csv / check:.2f}x time, "
          f"{cpu[6] / cpu[4]:.2f}x CPU time.")
    csv_1 = rows.get("CSV records, 1 thread")
    count_1 = rows.get("engine, counting sink, 1 thread")
    if csv_1 and count_1:
        print(f"\n`rapidurl bench`: CSV records against the counting sink on lines, 1 thread: "
              f"{csv_1[0] / count_1[0]:.2f}x time, "
              f"{cell(ratio_of(csv_1[3], count_1[3]), '.2f', 'x')} CPU time (the CSV reader's "
              f"cost, reading the file aside).")
    print(f"\nTool, default fields, {os.path.basename(a.messy)} x {a.messy_times} "
          f"({messy_urls:,} lines): 1 thread {one * 1e3:.0f} ms, 2 threads {two * 1e3:.0f} ms, "
          f"speed-up {one / two:.2f}x.")


def ratio_of(a, b):
    """a / b, or None when either is None."""
    return None if a is None or b is None or b == 0 else a / b


if __name__ == "__main__":
    main()
