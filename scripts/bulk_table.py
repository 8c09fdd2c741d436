#!/usr/bin/env python3
"""Regenerates the bulk table of docs/performance.md ("Bulk engine against the parser"):
runs `rapidurl bench` (the engine's column, a counting sink, the parse_ref loop and a
memchr pass, measured in turns) on a repeated corpus, then times the whole tool, and
prints a Markdown table of medians and ratios against the parse_ref loop of the same run.

    cargo build --release -p rapidurl-cli
    python3 scripts/bulk_table.py                      # kasztp x 20, userbait x 40
    python3 scripts/bulk_table.py --time 3 --runs 7

The tool's rows are whole processes (start, read, parse, format, write to /dev/null),
median of --runs runs, taken in turns; their ratio is ns/URL against the loop's ns/URL.
`lint` is also given against `check` (both whole processes, default threads): the
issue's target is at most 1.5x.
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


def bench(binary, path, threads, seconds):
    """`rapidurl bench`'s rows: label -> (ns/URL, ratio against the loop); and the URLs."""
    out = subprocess.run(
        [binary, "bench", "--threads", str(threads), "--time", str(seconds), path],
        check=True, capture_output=True, text=True,
    ).stdout
    urls = int(re.search(r"bytes, (\d+) URLs", out).group(1))
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(.+?)\s{2,}(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x"
                     r"\s+([\d.]+)\s+([\d.]+)x$", line)
        if m:
            rows[m.group(1).strip()] = (float(m.group(4)), float(m.group(5)), float(m.group(3)),
                                        float(m.group(6)), float(m.group(7)))
    return urls, rows, out


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
        ]
        hostname, fields, all_fields, origin, check, lint = tool_times(a.bin, commands, a.runs)
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
        print(f"| {label} | {ns:.1f} | {mbs:.0f} | {ratio:.2f}x speed | {cpu_ns:.1f} "
              f"| {cpu_ratio:.2f}x speed |")
    cpu_loop = next(v for k, v in rows.items() if k.startswith("parse_ref loop"))[3]
    for label, secs, cpu_secs in zip([
        "tool `parse --threads 1 --fields hostname`, whole process",
        "tool `parse --threads 1`, the default fields to TSV, whole process",
        "tool `parse --threads 1`, the 11 URL API fields to TSV, whole process",
        "tool `parse --fields origin` (2 threads), whole process",
        "tool `check` (2 threads), whole process",
        "tool `lint` (2 threads), whole process",
    ], [hostname, fields, all_fields, origin, check, lint], cpu):
        ns = secs * 1e9 / urls
        cpu_ns = cpu_secs * 1e9 / urls
        print(f"| {label} | {ns:.1f} | {size / secs / 1e6:.0f} | {ns / loop:.2f}x time "
              f"| {cpu_ns:.1f} | {cpu_ns / cpu_loop:.2f}x time |")
    print(f"\n`lint` against `check`: {lint / check:.2f}x time, {cpu[5] / cpu[4]:.2f}x CPU time "
          f"(target <= 1.5); the 11 URL API fields to TSV against the loop: "
          f"{all_fields * 1e9 / urls / loop:.2f}x time, {cpu[2] * 1e9 / urls / cpu_loop:.2f}x CPU "
          f"time (target <= 3.0).")
    print(f"\nTool, default fields, {os.path.basename(a.messy)} x {a.messy_times} "
          f"({messy_urls:,} lines): 1 thread {one * 1e3:.0f} ms, 2 threads {two * 1e3:.0f} ms, "
          f"speed-up {one / two:.2f}x.")


if __name__ == "__main__":
    main()
