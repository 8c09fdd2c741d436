#!/usr/bin/env python3
"""The tool against Polars (the `rapidurl.polars` plugin, streaming engine) and DuckDB (the
rapidurl extension) on the same questions over a web-log CSV, in one run, 2 threads each;
writes the table of docs/performance.md ("The tool against Polars and DuckDB").

    cargo build --release -p rapidurl-cli              # target/release/rapidurl
    duckdb/scripts/build.sh                            # target/release/rapidurl.duckdb_extension
    python3 -m venv .venv && .venv/bin/python -m pip install -r python/requirements-test.txt
    DIST=target/dist scripts/build-wheel.sh && .venv/bin/python -m pip install target/dist/rapidurl-*.whl
    .venv/bin/python scripts/engines_table.py          # writes the section of docs/performance.md
    .venv/bin/python scripts/engines_table.py --no-write --runs 3 --rows 200000

The data, made in a temporary directory: `log.csv` (header `time,url,status`, --rows rows,
the URLs of ../shared/corpora/kasztp.txt cycled, written by Python's csv module: RFC 4180
quoting, CRLF rows) and `urls.txt` (the same URLs, one a line). The questions:

- A: the 10 most frequent registrable domains: `rapidurl stats --by registrable_domain`;
  Polars `scan_csv(...).select(url.registrable_domain()).group_by().len()` collected by
  the streaming engine; DuckDB `SELECT url_registrable_domain(url) ... GROUP BY`.
- B: hostname, registrable_domain and pathname to Parquet: `rapidurl parse --fields ...
  --drop-columns --format parquet` (which adds its `error` column); Polars
  `url.parse([...])` (one parse a row; the struct holds the fields and `error`) unnested
  and `sink_parquet`; DuckDB `COPY (SELECT url_hostname(url), url_registrable_domain(url),
  url_pathname(url), url_error(url) ...) TO ... (FORMAT parquet)`. Each engine writes
  these four string columns with its own defaults (codec, row groups).
- C: `rapidurl check` on log.csv against the same URLs as lines (urls.txt).
- D: the tool's A and B at --threads 1 against --threads 2.

The tool's rows are whole processes (output to /dev/null, or the Parquet file). Each
engine runs in one Python process of its own (POLARS_MAX_THREADS=2; `SET threads = 2`),
started, with the plugin imported or the extension loaded, before the timing: its rows
are the query alone, the CSV's reading included (both engines read every column as a
string, as the tool does). Each figure is the median of --runs runs, taken in turns
(each round runs every contender once); the ratios are of figures of the same run. CPU
time: the children's getrusage for the tool, every thread of the engine's process
(`time.process_time`) for the engines.

The answers are checked: the tool's counts (`stats --format csv`, every value) against
DuckDB's and Polars' GROUP BY over the valid URLs; the tool's Parquet against `rapidurl
parse --format tsv` row for row (read back with pyarrow), and the engines' Parquet
columns against the tool's. A failed check exits with status 1 and writes nothing.
Polars or DuckDB missing (or the plugin, or the extension, not built) is skipped with a
message saying how to get it; the rest still runs. --no-write prints only; otherwise the
block between `<!-- perf:engines -->` and `<!-- /perf:engines -->` in docs/performance.md
is replaced.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import pathlib
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIELDS = ["hostname", "registrable_domain", "pathname"]
# Every column a string, for both engines: the tool reads a CSV's cells as strings.
DUCKDB_CSV = ("read_csv('{path}', header = true, auto_detect = false, delim = ',', "
              "quote = '\"', escape = '\"', "
              "columns = {{'time': 'VARCHAR', 'url': 'VARCHAR', 'status': 'VARCHAR'}})")
HOW = {
    "polars": "install Polars 2.1.0 and the rapidurl wheel into the venv this script runs "
              "in: `.venv/bin/python -m pip install -r python/requirements-test.txt`, then "
              "`DIST=target/dist scripts/build-wheel.sh && .venv/bin/python -m pip install "
              "target/dist/rapidurl-*.whl`",
    "duckdb": "install DuckDB into the venv this script runs in (`.venv/bin/python -m pip "
              "install -r python/requirements-test.txt`) and build the extension "
              "(`duckdb/scripts/build.sh`, or pass --extension FILE)",
}


def corpus() -> pathlib.Path:
    for d in [ROOT.parent / "shared" / "corpora", pathlib.Path("/work/shared/corpora")]:
        if (d / "kasztp.txt").exists():
            return d / "kasztp.txt"
    sys.exit("engines_table.py: no ../shared/corpora/kasztp.txt")


def generate(directory: str, rows: int) -> tuple[str, str]:
    """log.csv and urls.txt in `directory`: the corpus's lines (as the tool reads them: a
    BOM dropped, a trailing \\r removed) cycled to `rows` rows."""
    text = corpus().read_bytes().decode("utf-8-sig", errors="replace")
    urls = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    if text.endswith("\n"):
        urls.pop()
    rng = random.Random(20260101)
    statuses = rng.choices([200, 301, 302, 304, 404, 500], weights=[80, 3, 4, 8, 4, 1], k=rows)
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    log, lines = os.path.join(directory, "log.csv"), os.path.join(directory, "urls.txt")
    with open(log, "w", encoding="utf-8", newline="") as f, \
            open(lines, "w", encoding="utf-8", newline="\n") as g:
        w = csv.writer(f)  # the excel dialect: RFC 4180 quoting, CRLF rows
        w.writerow(["time", "url", "status"])
        for i in range(rows):
            url = urls[i % len(urls)]
            stamp = (start + datetime.timedelta(milliseconds=250 * i)).isoformat(
                timespec="milliseconds").replace("+00:00", "Z")
            w.writerow([stamp, url, statuses[i]])
            g.write(url + "\n")
    return log, lines


# ---- the engines' processes ------------------------------------------------------------

def worker(engine: str, path: str, extension: str) -> int:
    """One engine, in this process: answers the parent's requests (JSON lines on stdin)
    with a JSON line on stdout. The first line is {"ready": version} or {"skip": why}."""
    def say(obj):
        print(json.dumps(obj), flush=True)

    try:
        if engine == "polars":
            import polars as pl
            import rapidurl.polars  # noqa: F401  (registers .url)
            version = pl.__version__
            schema = {"time": pl.String, "url": pl.String, "status": pl.String}
            url = pl.col("url")

            def scan():
                return pl.scan_csv(path, schema=schema)

            def ask_a():
                return (scan().select(d=url.url.registrable_domain()).group_by("d").len()
                        .sort(["len", "d"], descending=[True, False], nulls_last=True)
                        .head(10).collect(engine="streaming").rows())

            def ask_b(out):
                scan().select(url.url.parse(FIELDS)).unnest("url").sink_parquet(out)

            def counts():
                return (scan().filter(url.url.error().is_null())
                        .select(d=url.url.registrable_domain()).group_by("d").len()
                        .collect(engine="streaming").rows())
        else:
            import duckdb
            if not os.path.exists(extension):
                say({"skip": f"no DuckDB extension at {extension}"})
                return 0
            version = duckdb.__version__
            con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
            con.execute(f"LOAD '{extension}'")
            con.execute("SET threads = 2")
            table = DUCKDB_CSV.format(path=path.replace("'", "''"))

            def ask_a():
                return con.execute(
                    f"SELECT url_registrable_domain(url) AS d, count(*) FROM {table} "
                    "GROUP BY d ORDER BY 2 DESC, d LIMIT 10").fetchall()

            def ask_b(out):
                con.execute(
                    "COPY (SELECT url_hostname(url) AS hostname, url_registrable_domain(url) "
                    "AS registrable_domain, url_pathname(url) AS pathname, url_error(url) AS "
                    f"error FROM {table}) TO '{out}' (FORMAT parquet)")

            def counts():
                return con.execute(
                    f"SELECT url_registrable_domain(url) AS d, count(*) FROM {table} "
                    "WHERE url_error(url) IS NULL GROUP BY d").fetchall()
    except Exception as e:  # ImportError, or an extension that does not load
        say({"skip": f"{type(e).__name__}: {e}"})
        return 0
    say({"ready": version})
    for line in sys.stdin:
        req = json.loads(line)
        wall, cpu = time.perf_counter(), time.process_time()
        if req["q"] == "A":
            ask_a()
        elif req["q"] == "B":
            ask_b(req["out"])
        else:
            say({"counts": counts()})
            continue
        say({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu})
    return 0


class Engine:
    """An engine's process (this script with --worker), started before any timing."""

    def __init__(self, name: str, path: str, extension: str):
        self.name = name
        env = {**os.environ, "POLARS_MAX_THREADS": "2"}
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", name, "--csv", path, "--extension", extension],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        first = self.read()
        self.skip = first.get("skip")
        self.version = first.get("ready")

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} process ended (exit status {self.proc.wait()})")
        return json.loads(line)

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def timed(self, **req) -> tuple[float, float]:
        """Wall and CPU seconds of one query, as the engine's process measured them."""
        r = self.ask(**req)
        return r["wall"], r["cpu"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# ---- timing ----------------------------------------------------------------------------

def run_tool(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process of the tool."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # `check` exits with 1 when some URL is invalid
        raise subprocess.CalledProcessError(done.returncode, cmd)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


# ---- checks ----------------------------------------------------------------------------

CHECKS: list[tuple[bool, str]] = []


def owner(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def check(ok: bool, what: str, detail: str):
    CHECKS.append((ok, f"- {what}: {'agree' if ok else 'MISMATCH'}, {detail}"))


def tool_counts(binary: str, log: str, rows: int) -> dict:
    out = subprocess.run([binary, "stats", "--threads", "2", "--by", "registrable_domain",
                          "--top", str(rows), "--format", "csv", log],
                         check=True, capture_output=True, text=True).stdout
    records = list(csv.reader(out.splitlines()))
    assert records[0] == ["value", "count", "share"], records[0]
    # An absent value (a host that is not a domain, or is a public suffix) is an empty cell.
    return {(v if v else None): int(n) for v, n, _ in records[1:]}


def compare_counts(tool: dict, other: list, name: str):
    theirs = {d: n for d, n in other}
    differ = sorted((k for k in tool.keys() | theirs.keys() if tool.get(k) != theirs.get(k)),
                    key=str)
    shown = ", ".join(f"{k!r}: tool {tool.get(k)}, {name} {theirs.get(k)}" for k in differ[:5])
    check(not differ, f"A: the tool's `stats --format csv` counts against {owner(name)} GROUP BY "
          "over the valid URLs",
          f"{len(tool):,} distinct values, {sum(tool.values()):,} URLs counted"
          if not differ else f"{len(differ)} values differ ({shown})")


def unescape(cell: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m.group(1), m.group(1)),
                  cell)


def check_parquet(binary: str, log: str, files: dict):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        print("B: the Parquet checks are skipped: no pyarrow (`.venv/bin/python -m pip install "
              "-r python/requirements-test.txt`)", file=sys.stderr)
        return
    tsv = subprocess.run([binary, "parse", "--threads", "2", log, "--fields", ",".join(FIELDS),
                          "--drop-columns", "--format", "tsv"],
                         check=True, capture_output=True).stdout.decode("utf-8")
    rows = tsv.split("\n")
    assert rows[0].split("\t")[:3] == FIELDS and rows[-1] == "", rows[0]
    columns = list(zip(*(r.split("\t")[:3] for r in rows[1:-1])))
    tool = pq.read_table(files["tool"], columns=FIELDS)
    differ = []
    for i, name in enumerate(FIELDS):
        got = ["" if v is None else v for v in tool.column(name).to_pylist()]
        want = [unescape(v) for v in columns[i]]
        bad = len(got) != len(want) or got != want
        if bad:
            first = next((j for j, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            differ.append(f"{name}: {len(got):,} rows against {len(want):,}, first at row {first + 1}")
    check(not differ, "B: the tool's Parquet (hostname, registrable_domain, pathname) against "
          "`rapidurl parse --format tsv`, row for row",
          f"{tool.num_rows:,} rows (null read as an empty cell)" if not differ else "; ".join(differ))
    for engine in ("Polars", "DuckDB"):
        if engine not in files:
            continue
        theirs = pq.read_table(files[engine], columns=FIELDS)
        differ = []
        for name in FIELDS:
            a, b = tool.column(name).to_pylist(), theirs.column(name).to_pylist()
            n = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
            if n:
                differ.append(f"{name}: {n:,} rows differ")
        check(not differ, f"B: {owner(engine)} Parquet against the tool's (the three columns, nulls too)",
              f"{theirs.num_rows:,} rows" if not differ else "; ".join(differ))


def check_summary(binary: str, log: str, lines: str):
    def summary(path):
        out = subprocess.run([binary, "check", "--threads", "2", path],
                             capture_output=True, text=True).stdout
        return {k: int(v) for k, v in re.findall(r"^(lines|valid|invalid): (\d+)$", out, re.M)}

    a, b = summary(log), summary(lines)
    check(a == b and len(a) == 3, "C: `rapidurl check` on log.csv against urls.txt",
          ", ".join(f"{k} {v:,}" for k, v in a.items()) if a == b else f"{a} against {b}")


# ---- the table -------------------------------------------------------------------------

def codec(path: str) -> str:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        return ""
    meta = pq.ParquetFile(path).metadata
    kinds = {meta.row_group(g).column(c).compression.lower()
             for g in range(meta.num_row_groups) for c in range(meta.num_columns)}
    groups = meta.num_row_groups
    return f", {'/'.join(sorted(kinds))}, {groups} row group{'s' if groups != 1 else ''}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md")
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "rapidurl"))
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    ap.add_argument("--extension", default=str(target / "release" / "rapidurl.duckdb_extension"))
    ap.add_argument("--worker", choices=["polars", "duckdb"], help=argparse.SUPPRESS)
    ap.add_argument("--csv", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker, args.csv, os.path.abspath(args.extension))
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"engines_table.py: no tool at {args.bin} (cargo build --release -p rapidurl-cli)")

    with tempfile.TemporaryDirectory() as d:
        log, lines = generate(d, args.rows)
        load = os.getloadavg()
        engines = {}
        for label, name in (("Polars", "polars"), ("DuckDB", "duckdb")):
            e = Engine(name, log, os.path.abspath(args.extension))
            if e.skip:
                print(f"{label} skipped ({e.skip}): {HOW[name]}", file=sys.stderr)
                e.close()
            else:
                engines[label] = e
        out = {who: os.path.join(d, f"{who}.parquet") for who in ("tool", "tool1", "Polars", "DuckDB")}
        stats = lambda n: [args.bin, "stats", "--threads", str(n), "--by", "registrable_domain",
                           "--top", "10", log]
        parse = lambda n, o: [args.bin, "parse", "--threads", str(n), log, "--fields",
                              ",".join(FIELDS), "--drop-columns", "--format", "parquet", "-o", o]
        contenders = [  # (key, run): run() -> (wall, cpu)
            ("A tool", lambda: run_tool(stats(2))),
            *[(f"A {k}", lambda e=e: e.timed(q="A")) for k, e in engines.items()],
            ("A tool 1", lambda: run_tool(stats(1))),
            ("B tool", lambda: run_tool(parse(2, out["tool"]))),
            *[(f"B {k}", lambda e=e, k=k: e.timed(q="B", out=out[k])) for k, e in engines.items()],
            ("B tool 1", lambda: run_tool(parse(1, out["tool1"]))),
            ("C csv", lambda: run_tool([args.bin, "check", "--threads", "2", log])),
            ("C lines", lambda: run_tool([args.bin, "check", "--threads", "2", lines])),
        ]
        walls = {k: [] for k, _ in contenders}
        cpus = {k: [] for k, _ in contenders}
        for r in range(args.runs):
            for key, f in contenders:
                w, c = f()
                walls[key].append(w)
                cpus[key].append(c)
            print(f"run {r + 1}/{args.runs}: " + ", ".join(
                f"{k} {walls[k][-1] * 1e3:.0f} ms" for k, _ in contenders), file=sys.stderr)
        wall = {k: statistics.median(v) for k, v in walls.items()}
        cpu = {k: statistics.median(v) for k, v in cpus.items()}
        size = {k: os.path.getsize(out[k]) for k in ("tool", "Polars", "DuckDB") if k in engines or k == "tool"}
        codecs = {k: codec(out[k]) for k in size}
        csv_mb, lines_mb = os.path.getsize(log) / 1e6, os.path.getsize(lines) / 1e6

        # The checks.
        counts = tool_counts(args.bin, log, args.rows)
        if "DuckDB" in engines:
            compare_counts(counts, engines["DuckDB"].ask(q="counts")["counts"], "DuckDB")
        else:
            print("A: the counts check against DuckDB is skipped (no DuckDB)", file=sys.stderr)
        if "Polars" in engines:
            compare_counts(counts, engines["Polars"].ask(q="counts")["counts"], "Polars")
        check_parquet(args.bin, log, {k: out[k] for k in size})
        check_summary(args.bin, log, lines)
        for e in engines.values():
            e.close()

    versions = ", ".join(
        f"{k} {e.version}" + (" (streaming engine, `POLARS_MAX_THREADS=2`)" if k == "Polars"
                              else " (`SET threads = 2`)")
        for k, e in engines.items()) or "no engine"
    shown = [a for a in sys.argv[1:] if a != "--no-write"]
    command = " ".join([".venv/bin/python scripts/engines_table.py"] + shown)
    text = [
        f"`{command}` (load average {load[0]:.1f} (1 min), {load[1]:.1f} (5 min) on "
        f"{os.cpu_count()} cores at the start):",
        "",
        f"log.csv: {args.rows:,} rows (`time,url,status`, kasztp.txt's URLs cycled; "
        f"{csv_mb:.0f} MB), urls.txt: the same URLs, one a line ({lines_mb:.0f} MB). {versions}; "
        f"the tool at `--threads 2` unless said. Median of {args.runs} runs taken in turns; "
        "the tool's rows are whole processes, the engines' the query alone (CSV reading "
        "included, engine start and extension load not).",
        "",
        "| question | contender | wall ms | CPU ms | output |",
        "| --- | --- | ---: | ---: | --- |",
    ]

    def row(question, label, key, output=""):
        text.append(f"| {question} | {label} | {wall[key] * 1e3:.0f} | {cpu[key] * 1e3:.0f} | {output} |")

    def parquet(k):
        return f"{size[k] / 1e6:.1f} MB{codecs[k]}"

    row("A: top 10 registrable domains", "tool `stats --by registrable_domain --top 10`", "A tool")
    if "Polars" in engines:
        row("", "Polars `url.registrable_domain()`, `group_by().len()`, streaming", "A Polars")
    if "DuckDB" in engines:
        row("", "DuckDB `url_registrable_domain(url)`, `GROUP BY`", "A DuckDB")
    row("", "tool, `--threads 1`", "A tool 1")
    row("B: hostname, registrable_domain, pathname (and error) to Parquet",
        "tool `parse --fields ... --drop-columns --format parquet`", "B tool", parquet("tool"))
    if "Polars" in engines:
        row("", "Polars `url.parse([...])`, `unnest`, `sink_parquet`", "B Polars", parquet("Polars"))
    if "DuckDB" in engines:
        row("", "DuckDB `COPY (SELECT url_hostname(url), ...) TO ... (FORMAT parquet)`",
            "B DuckDB", parquet("DuckDB"))
    row("", "tool, `--threads 1`", "B tool 1")
    row("C: `check`", "tool `check log.csv`", "C csv")
    row("", "tool `check urls.txt`", "C lines")

    ratios = []
    for q, target in (("A", 0.7), ("B", 0.8)):
        best = min((k for k in engines), key=lambda k: wall[f"{q} {k}"], default=None)
        if best:
            ratios.append(f"{q}: the tool against the faster engine ({best}): "
                          f"{wall[f'{q} tool'] / wall[f'{q} {best}']:.2f}x the time (target <= {target})")
        if q == "B" and "Polars" in size:
            ratios.append(f"the tool's Parquet against Polars': {size['tool'] / size['Polars']:.2f}x "
                          "the size")
    ratios.append(f"C: `check` on the CSV against the lines: {wall['C csv'] / wall['C lines']:.2f}x "
                  "the time (target <= 1.3)")
    ratios.append(f"D: 2 threads against 1: {wall['A tool 1'] / wall['A tool']:.2f}x (stats), "
                  f"{wall['B tool 1'] / wall['B tool']:.2f}x (Parquet) (target >= 1.6)")
    text += ["", "; ".join(ratios) + ".", "", "Checks:", ""] + [line for _, line in CHECKS]
    result = "\n".join(text)
    print(result)
    if not all(ok for ok, _ in CHECKS):
        print("engines_table.py: a check failed; docs/performance.md is left as it is", file=sys.stderr)
        return 1
    if not args.no_write:
        perf = ROOT / "docs" / "performance.md"
        doc = perf.read_text(encoding="utf-8")
        start, end = "<!-- perf:engines -->\n", "<!-- /perf:engines -->"
        a, b = doc.index(start) + len(start), doc.index(end)
        perf.write_text(doc[:a] + result + "\n" + doc[b:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
