#!/usr/bin/env python3
"""Runs DuckDB sqllogictest files (`.test`) against the rapidurl extension, through the
`duckdb` Python package: the subset of DuckDB's format that duckdb/test/sql/ uses.

    run_sqllogictest.py EXTENSION FILE_OR_DIR... [--cli DUCKDB] [--expect-version X.Y.Z]

Each file runs on a fresh database that allows unsigned extensions: in memory, through
the `duckdb` Python package of this interpreter, or a file of its own through the DuckDB
command-line tool given by `--cli` (engines.py).
Records (separated by blank lines; `#` starts a comment line):

    require rapidurl            LOAD the extension given on the command line
    statement ok                the SQL on the following lines succeeds
    statement error             it fails; the lines after `----`, if any, are a substring
                                of the error message
    query <types> [rowsort]     its result, after `----`: one line a row, columns separated
                                by tabs; <types> has one letter a column (T, I, B, …)

Values are compared as DuckDB's sqllogictest prints them: each column cast to VARCHAR by
DuckDB, NULL as `NULL`, the empty string as `(empty)`. `rowsort` sorts the rows (as
strings) before comparing. Prints the engine, one line a file and a closing `N passed, N
failed` (records); exits 1 when any failed.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from engines import EngineError, add_arguments, load_statement, open_engine


def render(value: str | None) -> str:
    if value is None:
        return "NULL"
    if value == "":
        return "(empty)"
    return str(value)


def records(path: pathlib.Path):
    """(line number, header words, SQL, expected lines or None) per record."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.startswith("#"):
            i += 1
            continue
        start = i
        header = line.split()
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].strip() and lines[i] != "----":
            body.append(lines[i])
            i += 1
        expected = None
        if i < len(lines) and lines[i] == "----":
            i += 1
            expected = []
            while i < len(lines) and lines[i] != "":
                expected.append(lines[i])
                i += 1
        yield start + 1, header, "\n".join(body), expected


def run_file(path: pathlib.Path, extension: str, args: argparse.Namespace) -> tuple[int, int, list[str]]:
    con = open_engine(args, None)
    passed = failed = 0
    problems: list[str] = []

    def fail(line: int, what: str) -> None:
        nonlocal failed
        failed += 1
        problems.append(f"{path}:{line}: {what}")

    for line, header, sql, expected in records(path):
        kind = header[0]
        if kind == "require":
            if header[1:] != ["rapidurl"]:
                fail(line, f"unknown requirement {header[1:]}")
                continue
            con.execute(load_statement(extension))
            passed += 1
        elif kind == "statement":
            mode = header[1] if len(header) > 1 else "ok"
            try:
                con.execute(sql)
            except EngineError as e:
                if mode != "error":
                    fail(line, f"statement failed: {e}\n{sql}")
                elif expected and "\n".join(expected) not in str(e):
                    want = "\n".join(expected)
                    fail(line, f"error {str(e)!r} does not contain {want!r}")
                else:
                    passed += 1
                continue
            if mode == "error":
                fail(line, f"statement succeeded, an error was expected\n{sql}")
            else:
                passed += 1
        elif kind == "query":
            types = header[1]
            sort = "rowsort" in header[2:]
            try:
                rows = [[render(v) for v in row] for row in con.query(sql)]
            except EngineError as e:
                fail(line, f"query failed: {e}\n{sql}")
                continue
            got = ["\t".join(r) for r in rows]
            if rows and len(rows[0]) != len(types):
                fail(line, f"{len(rows[0])} columns, the header says {len(types)} ({types})")
                continue
            want = list(expected or [])
            if sort:
                got, want = sorted(got), sorted(want)
            if got != want:
                diff = [f"  want {w!r}\n  got  {g!r}" for w, g in zip(want, got) if w != g][:5]
                fail(
                    line,
                    f"{len(got)} rows, {len(want)} expected\n{sql}\n" + "\n".join(diff),
                )
            else:
                passed += 1
        else:
            fail(line, f"unknown record {kind!r}")
    con.close()
    return passed, failed, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("extension")
    ap.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    add_arguments(ap)
    args = ap.parse_args()
    extension = str(pathlib.Path(args.extension).resolve())
    files: list[pathlib.Path] = []
    for arg in args.paths:
        p = pathlib.Path(arg)
        files.extend(sorted(p.rglob("*.test")) if p.is_dir() else [p])
    total_passed = total_failed = 0
    for f in files:
        passed, failed, problems = run_file(f, extension, args)
        total_passed += passed
        total_failed += failed
        print(f"{f}: {passed} passed, {failed} failed")
        for p in problems:
            print("  " + p.replace("\n", "\n    "))
    engine_name = open_engine(args, None).name
    print(f"{engine_name}: {total_passed} passed, {total_failed} failed")
    return 1 if total_failed or not total_passed else 0


if __name__ == "__main__":
    sys.exit(main())
