"""The command-line tool's Parquet output (`rapidurl parse … -o out.parquet`), read back by
pyarrow, Polars and DuckDB: the same rows as the tool's own TSV output (`--format tsv`),
for every codec (zstd by default, snappy, lz4, none, zstd at level 19) at one and two
worker threads, in row groups of 262,144 rows (fewer where a group's Arrow data reaches
32 MiB first), with the codec asked for, dictionary pages and column statistics.

The TSV output is itself checked, row for row, against values written out by hand for each
kind of input URL (below, `EXPECTED`), so the comparison does not rest on the tool alone.

The tool is the binary named by the environment variable RAPIDURL_CLI, else the newer of
target/release/rapidurl and target/debug/rapidurl (`cargo build -p rapidurl-cli`). It needs
pyarrow, polars and duckdb, not the rapidurl Python package.
"""

import csv
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]

ROWS = 300_000  # at least two row groups
ROW_GROUP = 262_144
FIELDS = ["href", "hostname", "port", "pathname", "search"]
COLUMNS = ["time", "url", "status", *FIELDS, "error"]
NO_SCHEME = (
    "missing-scheme-non-relative-URL at byte 0: the input has no scheme and there is no usable base URL"
)

# (id, extra arguments, the codec as pyarrow's metadata names it, as DuckDB's
# parquet_metadata() names it). pyarrow calls the format's LZ4_RAW codec "LZ4" (Arrow's
# raw LZ4; the format's older, framed LZ4 would be "LZ4_HADOOP" there and "LZ4" in DuckDB).
CODECS = [
    ("default", [], "ZSTD", "ZSTD"),
    ("snappy", ["--compression", "snappy"], "SNAPPY", "SNAPPY"),
    ("lz4", ["--compression", "lz4"], "LZ4", "LZ4_RAW"),
    ("none", ["--compression", "none"], "UNCOMPRESSED", "UNCOMPRESSED"),
    ("zstd-19", ["--compression-level", "19"], "ZSTD", "ZSTD"),
]
THREADS = [1, 2]


def tool() -> Path:
    env = os.environ.get("RAPIDURL_CLI")
    if env:
        path = Path(env)
        if not (path.is_file() and os.access(path, os.X_OK)):
            pytest.fail(
                f"RAPIDURL_CLI={env!r} is not an executable file: build the tool with "
                f"`cargo build -p rapidurl-cli` in {REPO} (target/debug/rapidurl)"
            )
        return path
    found = [p for p in (REPO / "target/release/rapidurl", REPO / "target/debug/rapidurl") if p.is_file()]
    if not found:
        pytest.fail(
            "the rapidurl command-line tool is not built: run `cargo build -p rapidurl-cli` "
            f"in {REPO} (or set RAPIDURL_CLI to the binary's path)"
        )
    return max(found, key=lambda p: p.stat().st_mtime)


# --- the input, and what the tool must make of it ----------------------------------------

KINDS = 13  # row i is of kind i % 13; its variant j = (i // 13) % 50


def input_row(i: int):
    k, j = i % KINDS, (i // KINDS) % 50
    url = [
        f"https://www.example.com/page/{j}?q={i % 7}#f",
        "not a url",
        "",
        f"http://[2001:DB8:0:0:0:0:0:{j + 1:x}]:8080/v6",
        f"https://xn--bcher-kva.example/{j}",
        f"https://shop.example/a,b/{j}",  # a comma: quoted in the CSV
        f"HTTPS://UPPER.Example.COM/X{j}",
        f"https://bücher.example/{j}",
        f"https://esc.example/a\\b\t{j}\n\r",  # quoted; TSV writes \\ \t \n \r for it
        f"/relative/{j}",
        f'https://q.example/"x"?{j}',  # doubled quotes in the CSV
        f"http://example.org:{j}/",
        f"https://user:pa%20ss@Example.com:443/{j}",
    ][k]
    time = f"2026-11-26T07:{(i // 60) % 60:02d}:{i % 60:02d}Z"
    status = ["200", "404", "301", "500", "204"][i % 5]
    return time, url, status


# What the tool must make of each kind of URL, written out by hand: the fields href,
# hostname, port, pathname, search and the error, from (i, j).
EXPECTED = [
    lambda i, j: (f"https://www.example.com/page/{j}?q={i % 7}#f", "www.example.com", "", f"/page/{j}", f"?q={i % 7}", ""),
    lambda i, j: ("", "", "", "", "", NO_SCHEME),
    lambda i, j: ("", "", "", "", "", NO_SCHEME),
    lambda i, j: (f"http://[2001:db8::{j + 1:x}]:8080/v6", f"[2001:db8::{j + 1:x}]", "8080", "/v6", "", ""),
    lambda i, j: (f"https://xn--bcher-kva.example/{j}", "xn--bcher-kva.example", "", f"/{j}", "", ""),
    lambda i, j: (f"https://shop.example/a,b/{j}", "shop.example", "", f"/a,b/{j}", "", ""),
    lambda i, j: (f"https://upper.example.com/X{j}", "upper.example.com", "", f"/X{j}", "", ""),
    lambda i, j: (f"https://xn--bcher-kva.example/{j}", "xn--bcher-kva.example", "", f"/{j}", "", ""),
    lambda i, j: (f"https://esc.example/a/b{j}", "esc.example", "", f"/a/b{j}", "", ""),
    lambda i, j: ("", "", "", "", "", NO_SCHEME),
    lambda i, j: (f"https://q.example/%22x%22?{j}", "q.example", "", "/%22x%22", f"?{j}", ""),
    lambda i, j: (f"http://example.org:{j}/", "example.org", str(j), "/", "", ""),
    lambda i, j: (f"https://user:pa%20ss@example.com/{j}", "example.com", "", f"/{j}", "", ""),
]
FAILING_KINDS = (1, 2, 9)
FAILED_ROWS = 69_231  # rows of kinds 1, 2 and 9 among 300,000: 3 * 23,076 + 3


def expected_row(i: int):
    """The TSV row (unescaped) for input row i."""
    return (*input_row(i), *EXPECTED[i % KINDS](i, (i // KINDS) % 50))


ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}


def unescape(field: str) -> str:
    def one(m):
        assert m.group(1) in ESCAPES, f"unknown TSV escape \\{m.group(1)} in {field!r}"
        return ESCAPES[m.group(1)]

    return re.sub(r"\\(.)", one, field, flags=re.S) if "\\" in field else field


def read_tsv(path: Path):
    """The tool's TSV output: (header, columns), each column a list of str, unescaped."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    assert lines[-1] == "", "the TSV output does not end with a line feed"
    header = lines[0].split("\t")
    rows = [[unescape(f) for f in line.split("\t")] for line in lines[1:-1]]
    bad = [n for n, r in enumerate(rows) if len(r) != len(header)]
    assert not bad, f"TSV rows {bad[:5]} do not have {len(header)} fields"
    return header, [list(c) for c in zip(*rows)]


# --- running the tool once for every output -----------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    binary = tool()
    tmp = tmp_path_factory.mktemp("tool_parquet")
    src = tmp / "access.csv"
    with open(src, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["time", "url", "status"])
        w.writerows(input_row(i) for i in range(ROWS))
    raw = src.read_text(encoding="utf-8")  # the CSV quoting the input relies on
    assert '"https://shop.example/a,b/0"' in raw and '"https://q.example/""x""?0"' in raw

    base = [str(binary), "parse", str(src), "--fields", ",".join(FIELDS)]
    jobs = {}
    for threads in THREADS:
        tsv_argv = base + ["--format", "tsv", "--threads", str(threads)]
        jobs[("tsv", threads)] = (tsv_argv, tmp / f"t{threads}.tsv")
        for name, args, _, _ in CODECS:
            out = tmp / f"{name}-t{threads}.parquet"
            jobs[(name, threads)] = (base + ["-o", str(out), "--threads", str(threads), *args], out)

    def run(key):
        argv, out = jobs[key]
        err = out.with_suffix(".stderr")
        with open(err, "wb") as e:
            if key[0] == "tsv":
                with open(out, "wb") as o:
                    rc = subprocess.run(argv, stdout=o, stderr=e, timeout=300).returncode
            else:
                rc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=e, timeout=300).returncode
        return key, rc, err

    # Two runs at a time (the machine's two cores), zstd level 19, the slowest, first.
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, sorted(jobs, key=lambda k: k[0] != "zstd-19")))
    for key, rc, err in results:
        assert rc == 0, f"{jobs[key][0]} exited with {rc}: {err.read_text()[-2000:]}"
    return {key: out for key, (_, out) in jobs.items()}, {key: err for key, _, err in results}


@pytest.fixture(scope="module")
def tsv(runs):
    outputs, _ = runs
    header, columns = read_tsv(outputs[("tsv", 1)])
    table = pa.table({name: pa.array(col, pa.string()) for name, col in zip(header, columns)})
    return header, columns, table


def test_tsv_output_is_the_expected_rows(runs, tsv):
    outputs, errs = runs
    header, columns, _ = tsv
    assert header == COLUMNS
    assert len(columns[0]) == ROWS
    rows = list(zip(*columns))
    for i in range(ROWS):
        if rows[i] != expected_row(i):
            pytest.fail(f"TSV row {i} (kind {i % KINDS}): {rows[i]!r}, expected {expected_row(i)!r}")
    # The output is the same on two threads; every failed row is reported once on stderr.
    assert outputs[("tsv", 2)].read_bytes() == outputs[("tsv", 1)].read_bytes()
    assert sum(1 for i in range(ROWS) if i % KINDS in FAILING_KINDS) == FAILED_ROWS
    stderr = errs[("tsv", 1)].read_text(encoding="utf-8").splitlines()
    assert len(stderr) == FAILED_ROWS
    assert all("missing-scheme-non-relative-URL at byte 0" in line for line in stderr)


def as_strings(table: pa.Table, reader: str, header):
    """Each column as a pa.string() array (nulls kept), checking names and row count."""
    assert table.column_names == header, f"{reader}: columns {table.column_names}"
    assert table.num_rows == ROWS, f"{reader}: {table.num_rows} rows"
    return {name: table.column(name).combine_chunks().cast(pa.string()) for name in header}


def readers(path: Path):
    with duckdb.connect() as con:
        ddb = con.sql("SELECT * FROM read_parquet(?)", params=[str(path)]).to_arrow_table()
    return {
        "pyarrow": pq.read_table(path),
        "polars": pl.read_parquet(path).to_arrow(),
        "duckdb": ddb,
    }


def duckdb_codecs(path: Path):
    """The codecs of the file's column chunks, as DuckDB's parquet_metadata() names them."""
    with duckdb.connect() as con:
        rows = con.sql("SELECT DISTINCT compression FROM parquet_metadata(?)", params=[str(path)]).fetchall()
    return sorted(r[0] for r in rows)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("name,args,codec,duckdb_codec", CODECS, ids=[c[0] for c in CODECS])
def test_parquet_reads_back_as_the_tsv_rows(runs, tsv, name, args, codec, duckdb_codec, threads):
    outputs, _ = runs
    path = outputs[(name, threads)]
    header, columns, expected = tsv
    read = {reader: as_strings(t, reader, header) for reader, t in readers(path).items()}

    for reader, cols in read.items():
        for n, col_name in enumerate(header):
            got = cols[col_name].fill_null("")
            if not got.equals(expected.column(col_name).combine_chunks()):
                values = got.to_pylist()
                row = next(i for i in range(ROWS) if values[i] != columns[n][i])
                pytest.fail(
                    f"{reader}, {path.name}, column {col_name}, row {row}: {values[row]!r}, "
                    f"the TSV has {columns[n][row]!r}"
                )

    # Nulls: the fields of a failed row and the error of a good one; the readers agree.
    arrow = read["pyarrow"]
    failed = arrow["error"].is_valid()
    assert pc.sum(failed).as_py() == FAILED_ROWS
    for col_name in header:
        nulls = arrow[col_name].is_null()
        want = failed if col_name in FIELDS else pc.invert(failed) if col_name == "error" else None
        if want is None:
            assert arrow[col_name].null_count == 0, col_name
        else:
            assert nulls.equals(want), f"{col_name}: nulls are not where the rows failed"
        for reader in ("polars", "duckdb"):
            assert read[reader][col_name].is_null().equals(nulls), f"{reader}: nulls of {col_name}"

    # Metadata: the codec, the row groups, a dictionary page and statistics per column.
    assert duckdb_codecs(path) == [duckdb_codec]
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == ROWS
    assert meta.num_columns == len(header)
    # Row groups of 262,144 rows, or fewer where a group's Arrow data reaches 32 MiB
    # first (these rows are wide: href and the input among them), the last one the rest.
    groups = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
    assert len(groups) >= 2 and sum(groups) == ROWS, groups
    assert all(0 < n <= ROW_GROUP for n in groups), groups
    start = 0
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for c in range(group.num_columns):
            chunk = group.column(c)
            col_name = chunk.path_in_schema
            where = f"{path.name}, row group {g}, column {col_name}"
            assert col_name == header[c], where
            assert chunk.compression == codec, f"{where}: {chunk.compression}"
            if codec == "UNCOMPRESSED":
                assert chunk.total_compressed_size == chunk.total_uncompressed_size, where
            assert chunk.has_dictionary_page, f"{where}: no dictionary page"
            assert chunk.is_stats_set, f"{where}: no statistics"
            stats = chunk.statistics
            values = arrow[col_name].slice(start, group.num_rows)
            assert stats.has_null_count and stats.null_count == values.null_count, where
            assert stats.has_min_max, f"{where}: no min/max"
            bounds = pc.min_max(values)
            lo, hi = (bounds[k].as_py().encode() for k in ("min", "max"))
            # Exact up to 64 bytes; a longer value's bound is truncated (a prefix for min,
            # a larger string for max), as the format allows.
            if len(lo) <= 64:
                assert stats.min_raw == lo, f"{where}: min {stats.min_raw!r}, values' min {lo!r}"
            else:
                assert lo.startswith(stats.min_raw) and stats.min_raw, f"{where}: min {stats.min_raw!r}"
            if len(hi) <= 64:
                assert stats.max_raw == hi, f"{where}: max {stats.max_raw!r}, values' max {hi!r}"
            else:
                assert stats.max_raw > hi, f"{where}: max {stats.max_raw!r} below {hi!r}"
        start += group.num_rows
    if codec != "UNCOMPRESSED":
        chunks = [
            meta.row_group(g).column(c)
            for g in range(meta.num_row_groups)
            for c in range(len(header))
        ]
        stored = sum(chunk.total_compressed_size for chunk in chunks)
        plain = sum(chunk.total_uncompressed_size for chunk in chunks)
        assert stored < plain, f"{path.name}: {stored} bytes compressed, {plain} uncompressed"


@pytest.mark.parametrize("threads", THREADS)
def test_zstd_level_19_is_smaller_than_the_default(runs, threads):
    outputs, _ = runs
    default = outputs[("default", threads)].stat().st_size
    level19 = outputs[("zstd-19", threads)].stat().st_size
    plain = outputs[("none", threads)].stat().st_size
    assert level19 < default < plain, (level19, default, plain)
