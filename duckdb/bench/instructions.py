#!/usr/bin/env python3
"""Instructions a row inside the extension's callback (`rapidurl_duckdb::invoke` and all
it calls), counted by callgrind, for one function over every line of a corpus (a DuckDB
table, one thread). Counts are steady where wall-clock times are not.

    python3 duckdb/bench/instructions.py [--function url_hostname] [CORPUS]
      (builds the extension first; CORPUS defaults to ../shared/corpora/kasztp.txt)
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def child(extension: str, corpus: str, function: str) -> None:
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true", "threads": "1"})
    con.execute(f"LOAD '{extension}'")
    con.execute(
        "CREATE TABLE t AS SELECT * FROM read_csv(?, header=false, columns={'u': 'VARCHAR'}, "
        "delim=chr(1), quote='', escape='')",
        [corpus],
    )
    rows, total = con.execute(f"SELECT count(*), sum(length({function}(u))) FROM t").fetchone()
    print(f"rows {rows} {total}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=str(ROOT.parent / "shared/corpora/kasztp.txt"))
    ap.add_argument("--function", default="url_hostname")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.corpus, args.function)
        return 0
    extension = subprocess.run(
        ["bash", str(ROOT / "duckdb/scripts/build.sh")], capture_output=True, text=True, check=True
    ).stdout.strip()
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
         "--toggle-collect=rapidurl_duckdb::invoke", sys.executable, __file__, args.corpus,
         "--function", args.function, "--child", extension],
        capture_output=True, text=True, check=True,
    )
    rows = int(re.search(r"rows (\d+)", run.stdout).group(1))
    collected = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
    print(f"{args.function} over {pathlib.Path(args.corpus).name} ({rows:,} rows): "
          f"{collected:,} instructions in the extension's callback, {collected / rows:,.0f} a row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
