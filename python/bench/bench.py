"""Time per URL of rapidurl.parse_column against the Rust batch API and what Python users
parse URL columns with today, on one corpus, in one run (docs/performance.md quotes it).

    python python/bench/bench.py [CORPUS] [--repeat N] [--instructions] [--canon]

CORPUS defaults to ../shared/corpora/kasztp.txt beside the repository. Every contender
extracts the host of every line. Wall clock: each is timed `--repeat` times after one
warm-up, interleaved round by round (so a burst of load hits every contender alike), and
the median is reported. `--instructions` also counts instructions per URL under
callgrind (valgrind), which does not move with the machine's load: each single-threaded
contender is run once and twice in fresh interpreters and the difference is one run.

"Rust batch API" is `rapidurl::batch::parse_lines` over the corpus bytes, called from the
same extension module (`rapidurl._rapidurl._batch_parse_lines`, GIL released), so both
sides share the build and the run; "Rust parse_ref loop" is the parser alone, a
`parse_ref` loop over the corpus's lines split beforehand in the same module
(`rapidurl._rapidurl._Lines`), the reference of `rapidurl bench`.

`--canon` times the canonical keys instead: parse_column(arr, ["surt"]) and
(arr, ["canonical"]) on one thread against loops of the `surt` package's surt.surt and
w3lib's canonicalize_url over the corpus's http(s) lines (with `--instructions`, their
instructions per URL too; `--repeat 0` for those alone).

Needs python/requirements-bench.txt (pyarrow, polars, ada-url, tldextract, chdb).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "kasztp.txt"
HOST_RE = r"^[A-Za-z][A-Za-z0-9+.\-]*://(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)"


def load(corpus):
    data = Path(corpus).read_bytes()
    lines = [l.decode("utf-8", "replace") for l in data.split(b"\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return data, lines


def contenders(data, lines):
    """name -> (setup, single-threaded?); setup() imports what it needs and returns the
    callable to time (so a callgrind run of one contender imports only its own library)."""

    def parse_column(threads, fields=("hostname",), output="utf8"):
        def setup():
            import pyarrow as pa

            import rapidurl

            arr = pa.array(lines)
            if fields is None:
                return lambda: rapidurl.parse_column(arr, threads=threads, output=output)
            if fields == "URL_API":
                names = list(rapidurl.URL_API_FIELDS)
                return lambda: rapidurl.parse_column(arr, names, threads=threads, output=output)
            return lambda: rapidurl.parse_column(arr, list(fields), threads=threads, output=output)

        return setup

    def rust_batch(threads):
        def setup():
            from rapidurl._rapidurl import _batch_parse_lines

            return lambda: _batch_parse_lines(data, threads=threads)

        return setup

    def parse_ref_loop():
        from rapidurl._rapidurl import _Lines

        held = _Lines(data)
        return held.parse_ref_loop

    def rapidurl_loop():
        from rapidurl import URL

        def run():
            out = []
            for s in lines:
                u = URL.parse(s)
                out.append(u.hostname if u is not None else None)
            return out

        return run

    def ada_loop():
        import ada_url

        def run():
            out = []
            for u in lines:
                try:
                    out.append(ada_url.URL(u).hostname)
                except ValueError:
                    out.append(None)
            return out

        return run

    def urllib_loop():
        from urllib.parse import urlsplit

        def run():
            out = []
            for u in lines:
                try:
                    out.append(urlsplit(u).hostname)
                except ValueError:
                    out.append(None)
            return out

        return run

    def tldextract_loop():
        import tldextract

        # Offline: the Public Suffix List snapshot the package ships (no download).
        extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
        return lambda: [extract(u).fqdn for u in lines]

    def polars_regex():
        import polars as pl

        series = pl.Series("u", lines)
        return lambda: series.str.extract(HOST_RE, 1)

    def polars_namespace(threads):
        def setup():
            import polars as pl

            import rapidurl.polars  # noqa: F401

            df = pl.DataFrame({"u": lines})
            # The plugin's threads are Polars' (POLARS_MAX_THREADS, read when polars is
            # imported): this row runs in this process's Polars, whatever `threads` says.
            return lambda: df.select(pl.col("u").url.field("hostname"))

        return setup

    def polars_series_direct(threads):
        def setup():
            import polars as pl

            from rapidurl._rapidurl import parse_column as native

            series = pl.Series("u", lines)
            return lambda: pl.DataFrame(native(series, ["hostname"], threads=threads)).to_series(0)

        return setup

    def clickhouse():
        import chdb
        import pyarrow as pa

        table = pa.table({"u": lines})

        def run():
            urls = table  # chdb finds the table by a name in the caller's frame
            return chdb.query("SELECT domain(u) FROM Python(urls)", "ArrowTable")

        return run

    return {
        "rapidurl.parse_column(arr, ['hostname'], threads=1)": (parse_column(1), True),
        "rapidurl.parse_column(arr, ['hostname'], threads=2)": (parse_column(2), False),
        "rapidurl.parse_column(arr, threads=1) (default fields)": (parse_column(1, None), True),
        "rapidurl.parse_column(arr, URL_API_FIELDS, threads=1)": (parse_column(1, "URL_API"), True),
        "rapidurl.parse_column(arr, threads=1, output='view')": (parse_column(1, None, "view"), True),
        "rapidurl.parse_column(arr, URL_API_FIELDS, threads=1, output='view')":
            (parse_column(1, "URL_API", "view"), True),
        "Rust parse_ref loop (the parser alone), 1 thread": (parse_ref_loop, True),
        "Rust batch API, 1 thread": (rust_batch(1), True),
        "Rust batch API, 2 threads": (rust_batch(2), False),
        "Polars pl.col('u').url.hostname() (plugin)": (polars_namespace(1), False),
        "Polars Series -> parse_column -> Series, 1 thread": (polars_series_direct(1), False),
        "rapidurl.URL.parse(u).hostname loop": (rapidurl_loop, True),
        "ada_url.URL(u).hostname loop": (ada_loop, True),
        "urllib.parse.urlsplit(u).hostname loop": (urllib_loop, True),
        "tldextract (offline snapshot) loop": (tldextract_loop, True),
        "Polars regex str.extract": (polars_regex, False),
        "ClickHouse domain() via chdb": (clickhouse, False),
    }


def canon_contenders(lines):
    """The canonical keys (``--canon``): rapidurl's fields against the packages' loops."""
    urls = [u for u in lines if u.lower().startswith(("http://", "https://"))]

    def field(name):
        def setup():
            import pyarrow as pa

            import rapidurl

            arr = pa.array(urls)
            return lambda: rapidurl.parse_column(arr, [name], threads=1)

        return setup

    def surt_loop():
        import surt

        return lambda: [surt.surt(u) for u in urls]

    def w3lib_loop():
        from w3lib.url import canonicalize_url

        return lambda: [canonicalize_url(u) for u in urls]

    return urls, {
        "rapidurl.parse_column(arr, ['surt'], threads=1)": (field("surt"), True),
        "rapidurl.parse_column(arr, ['canonical'], threads=1)": (field("canonical"), True),
        "rapidurl.parse_column(arr, ['hostname'], threads=1)": (field("hostname"), True),
        "surt.surt(u) loop": (surt_loop, True),
        "w3lib.url.canonicalize_url(u) loop": (w3lib_loop, True),
    }


CPU = {}


def wall_clock(table, n, repeat):
    """Median wall-clock ns/URL of each contender; their median CPU ns/URL (the process's,
    every thread: `time.process_time`, which a machine shared with other work moves much
    less) go to CPU."""
    fns = {name: setup() for name, (setup, _) in table.items()}
    for fn in fns.values():
        fn()  # warm-up
    times = {name: [] for name in table}
    cpu = {name: [] for name in table}
    for _ in range(repeat):
        for name, fn in fns.items():
            c = time.process_time()
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
            cpu[name].append(time.process_time() - c)
    CPU.update({name: statistics.median(ts) / n * 1e9 for name, ts in cpu.items()})
    return {name: statistics.median(ts) / n * 1e9 for name, ts in times.items()}


def callgrind(corpus, name, times, canon=False):
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, str(corpus), "--run", name, "--times", str(times)]
        + (["--canon"] if canon else []),
        capture_output=True, text=True, check=True,
    ).stderr
    m = re.search(r"Collected : (\d+)", out)
    if not m:
        raise RuntimeError(f"no instruction count for {name}:\n{out[-2000:]}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--canon", action="store_true")
    ap.add_argument("--only", help="comma-separated contenders to keep: those whose name starts "
                    "with one of these (e.g. 'rapidurl,Rust' without the other libraries installed)")
    ap.add_argument("--run", help=argparse.SUPPRESS)
    ap.add_argument("--times", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    data, lines = load(args.corpus)
    n = corpus_lines = len(lines)
    table = contenders(data, lines)
    if args.canon:
        lines, table = canon_contenders(lines)
        n = len(lines)
    if args.only:
        keep = tuple(args.only.split(","))
        table = {name: c for name, c in table.items() if name.startswith(keep)}
    if args.run:  # one contender, `--times` times (under callgrind)
        fn = table[args.run][0]()
        for _ in range(args.times):
            fn()
        return 0

    # The corpus's own count (its lines), whatever subset a mode times.
    print(f"corpus: {Path(args.corpus).name}, {corpus_lines} lines; {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f}); median of {args.repeat} interleaved runs")
    if args.canon and args.repeat > 0:
        ns = wall_clock(table, n, args.repeat)
        print(f"{n} http(s) URLs")
        for name, v in ns.items():
            print(f"{name:<60} {v:>9.1f} ns/URL")
        s = ns["rapidurl.parse_column(arr, ['surt'], threads=1)"]
        c = ns["rapidurl.parse_column(arr, ['canonical'], threads=1)"]
        print(f"surt.surt loop / parse_column(['surt']): {ns['surt.surt(u) loop'] / s:.0f}x (target >= 100)")
        print(f"canonicalize_url loop / parse_column(['canonical']): "
              f"{ns['w3lib.url.canonicalize_url(u) loop'] / c:.0f}x (target >= 100)")
    elif args.repeat > 0:
        ns = wall_clock(table, n, args.repeat)
        one = ns["rapidurl.parse_column(arr, ['hostname'], threads=1)"]
        print(f"{'contender':<60} {'ns/URL':>9} {'÷ parse_column t=1':>19} {'CPU ns/URL':>11}")
        for name, v in ns.items():
            print(f"{name:<60} {v:>9.1f} {v / one:>18.2f}x {CPU[name]:>11.1f}")
        if "ada_url.URL(u).hostname loop" in ns:
            print(f"ada_url loop / parse_column threads=1: {ns['ada_url.URL(u).hostname loop'] / one:.1f}x (target >= 50)")
        print(f"parse_column threads=1 / Rust batch API 1 thread: {one / ns['Rust batch API, 1 thread']:.2f} (target <= 1.3)")
        loop_name = "Rust parse_ref loop (the parser alone), 1 thread"
        loop = ns[loop_name]
        for output in ("", ", output='view'"):
            api_name = f"rapidurl.parse_column(arr, URL_API_FIELDS, threads=1{output})"
            default_name = (f"rapidurl.parse_column(arr, threads=1{output})" if output
                            else "rapidurl.parse_column(arr, threads=1) (default fields)")
            for what, name, target in (("URL_API_FIELDS", api_name, 2.0),
                                       ("default fields", default_name, 1.5)):
                print(f"parse_column(arr, threads=1{output}), {what} / parse_ref loop: "
                      f"{ns[name] / loop:.2f}x time, {CPU[name] / CPU[loop_name]:.2f}x CPU time "
                      f"(target <= {target})")
        host_name = "rapidurl.parse_column(arr, ['hostname'], threads=1)"
        print(f"parse_column(arr, ['hostname'], threads=1) / parse_ref loop: "
              f"{one / loop:.2f}x time, {CPU[host_name] / CPU[loop_name]:.2f}x CPU time "
              f"(target <= 1.0)")
        two = ns["rapidurl.parse_column(arr, ['hostname'], threads=2)"]
        rust = ns["Rust batch API, 1 thread"] / ns["Rust batch API, 2 threads"]
        print(f"parse_column threads=1 / threads=2: {one / two:.2f}x (target >= 1.8); Rust batch API: {rust:.2f}x")

    if args.instructions:
        print("\ninstructions per URL (callgrind; one run = two runs minus one, fresh interpreters)")
        counts = {}
        for name, (_, single) in table.items():
            if not single:
                continue
            counts[name] = (callgrind(args.corpus, name, 2, args.canon)
                            - callgrind(args.corpus, name, 1, args.canon)) / n
        base = counts["rapidurl.parse_column(arr, ['hostname'], threads=1)"]
        for name, c in counts.items():
            print(f"{name:<60} {c:>9.0f} {c / base:>18.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
