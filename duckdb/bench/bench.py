#!/usr/bin/env python3
"""The DuckDB extension's speed: the host of every URL of kasztp.txt x 20 (a table in an
in-memory database), one connection, one run:

- `url_hostname(u)` (this extension), 1 thread and 2 threads;
- `url_parse(u)` (the STRUCT of the URL API's eleven attributes), 1 thread;
- DuckDB's best built-in expression for the host: `lower(regexp_extract(u, …, 1))`;
- the Python UDF adapter `rapidurl.duckdb` (Arrow UDFs calling `parse_column`);
- the tool, `rapidurl parse --threads 1 --fields hostname` over the same lines as a file
  (whole process, output to /dev/null), for scale.

Each query aggregates its result (`sum(length(...))`) so that nothing is sent to Python;
the time is the fastest of --runs alternating passes. Prints a Markdown table.

    python3 duckdb/bench/bench.py [--runs 5] [--copies 20] [--write-docs]
      (builds the extension and the tool in release mode first; --write-docs replaces the
      block between `<!-- perf:duckdb -->` and `<!-- /perf:duckdb -->` in
      docs/performance.md with the table)
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import duckdb
import pyarrow as pa

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The host of an absolute URL with an authority: the scheme, `//`, credentials up to `@`,
# then a bracketed IPv6 address or everything up to `:`, `/`, `?`, `#` (lower-cased: hosts
# are case-insensitive). No percent-decoding, IDNA or IPv4 normalization: cheaper than
# what url_hostname computes.
REGEXP_HOST = (
    r"lower(regexp_extract(u, '^[A-Za-z][A-Za-z0-9+.\-]*://(?:[^/?#@]*@)?(\[[^\]]*\]|[^:/?#]*)', 1))"
)


def corpus() -> pathlib.Path:
    for d in [ROOT.parent / "shared" / "corpora", pathlib.Path("/work/shared/corpora")]:
        if (d / "kasztp.txt").exists():
            return d / "kasztp.txt"
    sys.exit("bench.py: no ../shared/corpora/kasztp.txt")


def build(tool: bool, extension: str | None) -> tuple[str, pathlib.Path]:
    ext = extension or subprocess.run(
        [str(ROOT / "duckdb/scripts/build.sh")], check=True, capture_output=True, text=True
    ).stdout.strip().splitlines()[-1]
    if tool:
        subprocess.run(["cargo", "build", "--locked", "--release", "-p", "rapidurl-cli"],
                       cwd=ROOT, check=True, capture_output=True)
    return ext, pathlib.Path(ext).parent / "rapidurl"


def timed(f) -> tuple[float, float]:
    """Wall-clock and CPU time (every thread of this process) of one call."""
    t, c = time.perf_counter(), time.process_time()
    f()
    return time.perf_counter() - t, time.process_time() - c


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--write-docs", action="store_true")
    ap.add_argument("--no-tool", action="store_true", help="leave out the tool's row")
    ap.add_argument("--extension", help="a built rapidurl.duckdb_extension (default: build it)")
    args = ap.parse_args()
    ext, tool = build(not args.no_tool, args.extension)
    lines = corpus().read_text(encoding="utf-8").splitlines() * args.copies
    n = len(lines)
    load = os.getloadavg()

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{ext}'")
    import rapidurl.duckdb

    rapidurl.duckdb.register(con, ["hostname"], prefix="py_url_")
    con.register("lines_in", pa.table({"u": pa.array(lines, pa.string())}))
    con.execute("CREATE TABLE urls AS SELECT u FROM lines_in")
    con.unregister("lines_in")

    def query(expr: str, threads: int):
        def run():
            con.execute(f"SET threads = {threads}")
            con.execute(f"SELECT sum(length({expr})) FROM urls").fetchall()
        return run

    contenders = [
        ("`url_hostname(u)`, this extension, 1 thread", query("url_hostname(u)", 1)),
        ("`url_hostname(u)`, this extension, 2 threads", query("url_hostname(u)", 2)),
        ("DuckDB `regexp_extract` host expression, 1 thread", query(REGEXP_HOST, 1)),
        ("DuckDB `regexp_extract` host expression, 2 threads", query(REGEXP_HOST, 2)),
        ("Python UDF adapter `rapidurl.duckdb` (`py_url_hostname`), 2 threads",
         query("py_url_hostname(u)", 2)),
        ("Python UDF adapter `rapidurl.duckdb` (`py_url_hostname`), 1 thread",
         query("py_url_hostname(u)", 1)),
        ("`sum(length(u))`: the scan and the aggregate alone, 1 thread", query("u", 1)),
        ("`url_parse(u).href`, this extension (every attribute computed), 1 thread",
         query("url_parse(u).href", 1)),
    ]
    # The answers agree where the regexp is right (plain http(s) URLs).
    same = con.execute(
        f"SELECT count(*) FROM urls WHERE url_hostname(u) IS DISTINCT FROM py_url_hostname(u)"
    ).fetchone()[0]
    assert same == 0, f"{same} rows differ between the extension and the Python adapter"

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name

    def tool_run():
        # The child's CPU time is not this process's: the tool's row has wall time only.
        subprocess.run([str(tool), "parse", "--threads", "1", "--fields", "hostname",
                        "--format", "tsv", "-o", "/dev/null", path], check=True)

    times: dict[str, float] = {}
    cpu: dict[str, float] = {}
    key = "tool `rapidurl parse --threads 1 --fields hostname`, whole process"
    if not args.no_tool:
        contenders.append((key, tool_run))
    for _ in range(args.runs):
        for name, f in contenders:
            wall, used = timed(f)
            times[name] = min(times.get(name, float("inf")), wall)
            cpu[name] = min(cpu.get(name, float("inf")), used)
    os.unlink(path)

    names = [name for name, _ in contenders]
    ext1, ext2, regexp1, regexp2, udf = (times[k] for k in names[:5])
    cext1, cregexp1, cudf = cpu[names[0]], cpu[names[2]], cpu[names[4]]
    out = [
        f"`python3 duckdb/bench/bench.py` (load average {load[0]:.1f} (1 min), {load[1]:.1f} (5 min) "
        f"on {os.cpu_count()} cores at the start):",
        "",
        f"kasztp.txt x {args.copies} ({n:,} URLs) as a DuckDB table, DuckDB {duckdb.__version__}, "
        f"one connection; fastest of {args.runs} alternating passes. CPU time is that of every "
        "thread of the process (the tool's is not measured).",
        "",
        "| query | wall ns/URL | CPU ns/URL | wall time against `url_hostname`, 1 thread |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name in names:
        t = times[name]
        c = f"{cpu[name] / n * 1e9:.1f}" if name in cpu and not name.startswith("tool") else ""
        ratio = "1.00x" if t == ext1 else f"{t / ext1:.2f}x"
        out.append(f"| {name} | {t / n * 1e9:.1f} | {c} | {ratio} |")
    out += [
        "",
        f"`url_hostname` against `regexp_extract`, 1 thread each: {regexp1 / ext1:.1f}x faster "
        f"(CPU time: {cregexp1 / cext1:.1f}x); against the Python UDF adapter: "
        f"{udf / ext2:.1f}x faster at 2 threads each, {times[names[5]] / ext1:.1f}x at 1 thread "
        f"(CPU time, 1 thread each: {cpu[names[5]] / cext1:.1f}x); 2 threads against 1: "
        f"{ext1 / ext2:.2f}x; `url_parse` against `url_hostname`, 1 thread each: "
        f"{times[names[7]] / ext1:.2f}x.",
    ]
    text = "\n".join(out)
    print(text)
    if args.write_docs:
        perf = ROOT / "docs/performance.md"
        doc = perf.read_text(encoding="utf-8")
        start, end = "<!-- perf:duckdb -->\n", "<!-- /perf:duckdb -->"
        a, b = doc.index(start) + len(start), doc.index(end)
        perf.write_text(doc[:a] + text + "\n" + doc[b:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
