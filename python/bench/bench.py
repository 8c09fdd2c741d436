"""Time per URL of rapidurl.parse_column against what Python users parse URL columns with
today, on one corpus, in one run (docs/performance.md quotes its output).

    python python/bench/bench.py [CORPUS] [--repeat N]

CORPUS defaults to ../shared/corpora/kasztp.txt beside the repository. Every contender
extracts the host of every line; each is timed `--repeat` times (after one warm-up) and
the median is reported. The Rust batch API is timed in the same run by the command-line
tool's `rapidurl bench` (batch::parse_lines, one thread and two), built here if missing.

Needs: pyarrow, polars, ada-url, tldextract, chdb (python/requirements-bench.txt).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def median_time(fn, repeat):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def rust_batch(corpus: Path):
    """ns/URL of the Rust batch API on 1 and 2 threads, from `rapidurl bench`."""
    exe = REPO / "target" / "release" / "rapidurl"
    subprocess.run(
        ["cargo", "build", "--release", "--locked", "-q", "-p", "rapidurl-cli"], cwd=REPO, check=True
    )
    out = subprocess.run(
        [str(exe), "bench", "--threads", "2", "--time", "3", str(corpus)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ns = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+\d+\s+\d+\s+[\d.]+\s+([\d.]+)\s*$", line)
        if m:
            ns[int(m.group(1))] = float(m.group(2))
    return ns, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=str(REPO.parent / "shared" / "corpora" / "kasztp.txt"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    corpus = Path(args.corpus)
    with open(corpus, "rb") as f:
        lines = [l.decode("utf-8", "replace") for l in f.read().split(b"\n")]
    if lines and lines[-1] == "":
        lines.pop()
    n = len(lines)

    import ada_url
    import chdb
    import polars as pl
    import pyarrow as pa
    import tldextract
    from urllib.parse import urlsplit

    import rapidurl

    arr = pa.array(lines)
    results = {}

    def ada_loop():
        out = []
        for u in lines:
            try:
                out.append(ada_url.URL(u).hostname)
            except ValueError:
                out.append(None)
        return out

    def urllib_loop():
        out = []
        for u in lines:
            try:
                out.append(urlsplit(u).hostname)
            except ValueError:
                out.append(None)
        return out

    # Offline: the snapshot of the Public Suffix List that the package ships.
    extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    def tld_loop():
        return [extract(u).fqdn for u in lines]

    series = pl.Series("u", lines)
    host_re = r"^[A-Za-z][A-Za-z0-9+.\-]*://(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)"

    def polars_regex():
        return series.str.extract(host_re, 1)

    chdb_table = pa.table({"u": arr})

    def clickhouse_domain():
        return chdb.query("SELECT domain(u) FROM Python(chdb_table)", "ArrowTable")

    def rapidurl_threads(t):
        return lambda: rapidurl.parse_column(arr, ["hostname"], threads=t)

    contenders = [
        ("rapidurl.parse_column(arr, ['hostname'], threads=1)", rapidurl_threads(1)),
        ("rapidurl.parse_column(arr, ['hostname'], threads=2)", rapidurl_threads(2)),
        ("rapidurl.URL(u).hostname loop", lambda: [u.hostname if (u := rapidurl.URL.parse(s)) else None for s in lines]),
        ("ada_url.URL(u).hostname loop", ada_loop),
        ("urllib.parse.urlsplit(u).hostname loop", urllib_loop),
        ("tldextract (offline snapshot) loop", tld_loop),
        ("Polars regex str.extract", polars_regex),
        ("ClickHouse domain() via chdb", clickhouse_domain),
    ]
    rust_ns, rust_out = rust_batch(corpus)
    for name, fn in contenders:
        results[name] = median_time(fn, args.repeat) / n * 1e9
    rust_ns_after, _ = rust_batch(corpus)

    print(f"corpus: {corpus.name}, {n} URLs; median of {args.repeat} runs; {os.cpu_count()} cores (shared machine)")
    print(rust_out.rstrip())
    print(f"{'contender':<55} {'ns/URL':>10} {'vs threads=1':>13}")
    base = results["rapidurl.parse_column(arr, ['hostname'], threads=1)"]
    for name, ns in results.items():
        print(f"{name:<55} {ns:>10.1f} {ns / base:>12.1f}x")
    rust1 = statistics.median([rust_ns.get(1, float("nan")), rust_ns_after.get(1, float("nan"))])
    rust2 = statistics.median([rust_ns.get(2, float("nan")), rust_ns_after.get(2, float("nan"))])
    print(f"Rust batch API (rapidurl bench, before/after mean) 1 thread {rust1:.1f} ns/URL, 2 threads {rust2:.1f} ns/URL")
    print(f"parse_column threads=1 / Rust batch 1 thread: {base / rust1:.2f}x (target <= 1.3)")
    ada = results["ada_url.URL(u).hostname loop"]
    print(f"ada_url loop / parse_column threads=1: {ada / base:.1f}x (target >= 50)")
    two = results["rapidurl.parse_column(arr, ['hostname'], threads=2)"]
    print(f"threads=1 / threads=2: {base / two:.2f}x (target >= 1.8)")


if __name__ == "__main__":
    sys.exit(main())
