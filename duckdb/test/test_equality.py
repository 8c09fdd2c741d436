#!/usr/bin/env python3
"""Row-for-row equality of the DuckDB extension with the Rust API (through the Python
package's `rapidurl.parse_column`, which computes each field with `rapidurl::field`):
every WPT urltestdata.json input (against its base) and every line of every corpus
(/work/shared/corpora or RAPIDURL_CORPORA_DIR), every field of `url_<field>`, plus
`url_error`; and `url_canonicalize(url, 'safe_browsing')` against `rapidurl.canonicalize(url,
"safe_browsing")`, which takes any input (one that does not parse too).

    test_equality.py EXTENSION [--cli DUCKDB] [--expect-version X.Y.Z]

The rows go to DuckDB as a Parquet file and come back as one (`COPY ... TO`), so that the
same test runs on the `duckdb` Python package and on the command-line tool (engines.py).
Prints one line a data set and exits 1 on any difference. `url_valid` is compared where
the row parses (the Python package gives NULL for a row that does not parse; the SQL
function gives false).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq
import rapidurl

from engines import add_arguments, open_engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIELDS = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
    "pathname", "search", "hash", "public_suffix", "registrable_domain", "subdomain",
    "display", "valid", "validation_errors", "surt", "canonical",
]


def shared_dir() -> pathlib.Path:
    for candidate in [ROOT.parent / "shared", pathlib.Path("/work/shared")]:
        if (candidate / "wpt").is_dir():
            return candidate
    sys.exit("test_equality.py: no ../shared (WPT data and corpora) beside the repository")


def wpt_rows() -> tuple[list[str], list[str | None]]:
    wpt = pathlib.Path(os.environ.get("RAPIDURL_WPT_DIR", shared_dir() / "wpt"))
    urls, bases = [], []
    for entry in json.loads((wpt / "urltestdata.json").read_text(encoding="utf-8")):
        if isinstance(entry, str):
            continue
        try:
            entry["input"].encode("utf-8")
            (entry.get("base") or "").encode("utf-8")
        except UnicodeEncodeError:
            continue  # lone surrogates: not a DuckDB string
        urls.append(entry["input"])
        bases.append(entry.get("base"))
    return urls, bases


def corpus_rows() -> list[str]:
    corpora = pathlib.Path(os.environ.get("RAPIDURL_CORPORA_DIR", shared_dir() / "corpora"))
    lines: list[str] = []
    for f in sorted(corpora.glob("*.txt")):
        lines.extend(f.read_text(encoding="utf-8", errors="replace").splitlines())
    return lines


def compare(con, name: str, urls: list[str], bases: list[str | None] | None) -> int:
    n = len(urls)
    table = pa.table({
        "i": pa.array(range(n), pa.int64()),
        "u": pa.array(urls, pa.string()),
        "b": pa.array(bases if bases is not None else [None] * n, pa.string()),
    })

    def call(f: str) -> str:
        fn = "url_valid" if f == "valid" else f"url_{f}"
        return f"CASE WHEN b IS NULL THEN {fn}(u) ELSE {fn}(u, b) END AS {f}"
    cols = ", ".join(call(f) for f in FIELDS + ["error"])
    cols += ", url_canonicalize(u, 'safe_browsing') AS safe_browsing"
    with tempfile.TemporaryDirectory(prefix="rapidurl-equality-") as tmp:
        rows_in, rows_out = pathlib.Path(tmp, "in.parquet"), pathlib.Path(tmp, "out.parquet")
        pq.write_table(table, rows_in)
        con.execute(f"COPY (SELECT {cols} FROM read_parquet('{rows_in}') ORDER BY i) "
                    f"TO '{rows_out}' (FORMAT parquet)")
        got = pq.read_table(rows_out).to_pydict()
    want = rapidurl.parse_column(pa.array(urls, pa.string()), FIELDS,
                                 base=pa.array(bases, pa.string()) if bases is not None else None)
    want = want.to_pydict() if hasattr(want, "to_pydict") else want
    want["safe_browsing"] = [rapidurl.canonicalize(u, "safe_browsing") for u in urls]
    bad = 0
    for f in FIELDS + ["error", "safe_browsing"]:
        g, w = got[f], want[f]
        for r in range(n):
            gv, wv = g[r], w[r]
            if f == "valid":
                if want["error"][r] is not None:
                    continue
                gv = None if gv is None else ("true" if gv else "false")
            if gv != wv:
                bad += 1
                if bad <= 10:
                    print(f"  {name} row {r} {f}: {urls[r]!r} base {bases[r] if bases else None!r}:"
                          f" extension {gv!r}, Rust API {wv!r}")
    print(f"{con.name}, {name}: {n} rows x {len(FIELDS) + 2} columns, {bad} differences")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("extension")
    add_arguments(ap)
    args = ap.parse_args()
    con = open_engine(args, args.extension)
    urls, bases = wpt_rows()
    bad = compare(con, "WPT urltestdata.json", urls, bases)
    bad += compare(con, "corpora", corpus_rows(), None)
    con.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
