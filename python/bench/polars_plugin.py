#!/usr/bin/env python3
"""The Polars plugin's speed against `parse_column` and the peers, in one run: every URL
of kasztp.txt x 20, each contender the fastest of --runs passes (taken in turn), one
thread (`POLARS_MAX_THREADS=1`, `parse_column(..., threads=1)`), then the plugin's
`url.hostname()` at 2 threads (`POLARS_MAX_THREADS=2`, a second process).

    python python/bench/polars_plugin.py [--runs 5] [--copies 20] [--write-docs]

Needs pyarrow, polars, the rapidurl package (the wheel) and polars-tldextract 0.2.1
(python/requirements-bench.txt). --write-docs replaces the block between
`<!-- perf:polars -->` and `<!-- /perf:polars -->` in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def corpus() -> pathlib.Path:
    for d in [ROOT.parent / "shared" / "corpora", pathlib.Path("/work/shared/corpora")]:
        if (d / "kasztp.txt").exists():
            return d / "kasztp.txt"
    sys.exit("polars_plugin.py: no ../shared/corpora/kasztp.txt")


def measure(runs: int, copies: int, only: str | None) -> dict[str, float]:
    """Best seconds of each contender (run in a process whose POLARS_MAX_THREADS is set)."""
    import polars as pl
    import polars_tldextract as tld
    import pyarrow as pa

    import rapidurl
    import rapidurl.polars  # noqa: F401  (registers .url)

    lines = corpus().read_text(encoding="utf-8").splitlines() * copies
    flat = pa.array(lines, pa.string())
    view = flat.cast(pa.string_view())
    series = pl.Series("u", lines)
    df = pl.DataFrame({"u": series})
    api = list(rapidurl.URL_API_FIELDS)
    host_regex = r"^[A-Za-z][A-Za-z0-9+.\-]*://(?:[^/?#@]*@)?(\[[^\]]*\]|[^:/?#]*)"
    u = pl.col("u")
    contenders = {
        "parse_column(['hostname']), pa.string()": lambda: rapidurl.parse_column(flat, ["hostname"], threads=1),
        "parse_column(['hostname']), pa.string_view()": lambda: rapidurl.parse_column(view, ["hostname"], threads=1),
        "parse_column(['hostname']), Polars Series": lambda: rapidurl.parse_column(series, ["hostname"], threads=1),
        "plugin `u.url.hostname()`": lambda: df.select(u.url.hostname()),
        "parse_column(11 URL API fields), pa.string()": lambda: rapidurl.parse_column(flat, api, threads=1),
        "parse_column(11 URL API fields), pa.string_view()": lambda: rapidurl.parse_column(view, api, threads=1),
        "plugin `u.url.parse(11 URL API fields)`": lambda: df.select(u.url.parse(api)),
        "plugin `u.url.registrable_domain()`": lambda: df.select(u.url.registrable_domain()),
        "polars-tldextract 0.2.1 `registrable_domain` (private section on)": lambda: df.select(
            tld.registrable_domain(u, include_private=True, parallel=False)),
        "Polars `str.extract` host regex + `to_lowercase`": lambda: df.select(
            u.str.extract(host_regex, 1).str.to_lowercase()),
    }
    if only:
        contenders = {k: v for k, v in contenders.items() if only in k}
    best = {name: float("inf") for name in contenders}
    for _ in range(runs):
        for name, f in contenders.items():
            t = time.perf_counter()
            f()
            best[name] = min(best[name], time.perf_counter() - t)
    best["urls"] = len(lines)
    return best


def child(threads: int, runs: int, copies: int, only: str | None) -> dict[str, float]:
    env = {**os.environ, "POLARS_MAX_THREADS": str(threads)}
    args = [sys.executable, __file__, "--child", "--runs", str(runs), "--copies", str(copies)]
    if only:
        args += ["--only", only]
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--write-docs", action="store_true")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--only", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(args.runs, args.copies, args.only)))
        return 0
    import polars as pl

    load = os.getloadavg()
    one = child(1, args.runs, args.copies, None)
    two = child(2, args.runs, args.copies, "plugin `u.url.hostname()`")
    n = one.pop("urls")
    two.pop("urls")
    ns = {k: v / n * 1e9 for k, v in one.items()}
    out = [
        f"`python python/bench/polars_plugin.py` (load average {load[0]:.1f} (1 min), "
        f"{load[1]:.1f} (5 min) on {os.cpu_count()} cores at the start):",
        "",
        f"kasztp.txt x {args.copies} ({n:,} URLs), Polars {pl.__version__}, one thread "
        f"(`POLARS_MAX_THREADS=1`, `threads=1`); fastest of {args.runs} passes.",
        "",
        "| what | ns/URL |",
        "| --- | ---: |",
    ]
    out += [f"| {k} | {v:.1f} |" for k, v in ns.items()]
    names = list(ns)
    h_flat, h_view, _, plugin_h, f_flat, f_view, plugin_parse, plugin_rd, tld_rd = (ns[k] for k in names[:9])
    two_h = two["plugin `u.url.hostname()`"] / n * 1e9
    out += [
        "",
        f"Plugin `url.hostname()` against `parse_column(['hostname'])` on `pa.string()`: "
        f"{plugin_h / h_flat:.2f}x the time (target: at most 1.2x). `registrable_domain`: "
        f"{tld_rd / plugin_rd:.1f}x faster than polars-tldextract (target: 3x). "
        f"`url.parse` of the 11 URL API fields against `parse_column` on `pa.string()`: "
        f"{plugin_parse / f_flat:.2f}x the time (target: at most 1x). `parse_column` on "
        f"`pa.string_view()` against `pa.string()`: {h_view / h_flat:.2f}x (hostname), "
        f"{f_view / f_flat:.2f}x (11 fields) (target: at most 1.1x). `url.hostname()` at "
        f"2 threads: {two_h:.1f} ns/URL, {plugin_h / two_h:.2f}x one thread (target: 1.7x).",
    ]
    text = "\n".join(out)
    print(text)
    if args.write_docs:
        perf = ROOT / "docs/performance.md"
        doc = perf.read_text(encoding="utf-8")
        start, end = "<!-- perf:polars -->\n", "<!-- /perf:polars -->"
        a, b = doc.index(start) + len(start), doc.index(end)
        perf.write_text(doc[:a] + text + "\n" + doc[b:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
