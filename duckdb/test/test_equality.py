#!/usr/bin/env python3
"""Row-for-row equality of the DuckDB extension with the Rust API (through the Python
package's `rapidurl.parse_column`, which computes each field with `rapidurl::field`):
every WPT urltestdata.json input (against its base) and every line of every corpus
(/work/shared/corpora or RAPIDURL_CORPORA_DIR), every field of `url_<field>`, plus
`url_error`.

    test_equality.py EXTENSION

Prints one line a data set and exits 1 on any difference. `url_valid` is compared where
the row parses (the Python package gives NULL for a row that does not parse; the SQL
function gives false).
"""

from __future__ import annotations

import json
import os
import pathlib
import sys

import duckdb
import pyarrow as pa
import rapidurl

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
    con.register("rows_in", table)
    def call(f: str) -> str:
        fn = "url_valid" if f == "valid" else f"url_{f}"
        return f"CASE WHEN b IS NULL THEN {fn}(u) ELSE {fn}(u, b) END AS {f}"
    cols = ", ".join(call(f) for f in FIELDS + ["error"])
    got = con.sql(f"SELECT {cols} FROM rows_in ORDER BY i").to_arrow_table().to_pydict()
    con.unregister("rows_in")
    want = rapidurl.parse_column(pa.array(urls, pa.string()), FIELDS,
                                 base=pa.array(bases, pa.string()) if bases is not None else None)
    want = want.to_pydict() if hasattr(want, "to_pydict") else want
    bad = 0
    for f in FIELDS + ["error"]:
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
    print(f"{name}: {n} rows x {len(FIELDS) + 1} columns, {bad} differences")
    return bad


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{pathlib.Path(sys.argv[1]).resolve()}'")
    urls, bases = wpt_rows()
    bad = compare(con, "WPT urltestdata.json", urls, bases)
    bad += compare(con, "corpora", corpus_rows(), None)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
