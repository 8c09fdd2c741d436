#!/usr/bin/env python3
"""Checks the extension's own catalog, `rapidurl_functions()`, against docs/duckdb.md's
table of functions, both ways, and against what DuckDB registered:

- every function of `rapidurl_functions()` is a row of the table and every row of the
  table is a function;
- each overload's parameter names are the table's (a `(url, base)` overload's
  description adds "(the input parsed against base)"), its description is the table's
  text (code spans unquoted), and the first form's return type is the table's;
- `duckdb_functions()` lists the same overloads (name, parameter types, return type) as
  `rapidurl_functions()`, both ways (DuckDB quotes the STRUCT members that are keywords,
  `"password"`, `"search"`; the quotes are not compared);
- the first form of each function has an example, and every example runs.

Exits 1 on any difference.

Usage: test_catalog.py EXTENSION [--cli DUCKDB] [--expect-version X.Y.Z]
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

from engines import add_arguments, load_statement, open_engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASE_SUFFIX = " (the input parsed against base)"


def table() -> dict[str, tuple[list[str], str, str]]:
    """The docs table: name -> (parameter names, return type, description)."""
    doc = (ROOT / "docs/duckdb.md").read_text(encoding="utf-8")
    rows = {}
    for m in re.finditer(r"^\| `(url_\w+)\(([\w, ]+)\)` \| ([^|]+) \| (.+) \|$", doc, re.M):
        name, params, ret, text = m.groups()
        rows[name] = ([p.strip() for p in params.split(",")], ret.strip(), text.replace("`", ""))
    return rows


def unquoted(ty: str) -> str:
    return ty.replace('"', "")


def split(joined: str | None) -> list[str]:
    return joined.split("|") if joined else []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("extension")
    add_arguments(ap)
    args = ap.parse_args()
    con = open_engine(args, None)
    listed = ("SELECT function_name, array_to_string(parameter_types, '|'), return_type "
              "FROM duckdb_functions() WHERE function_name LIKE 'url\\_%' ESCAPE '\\'")
    built_in = {tuple(r) for r in con.query(listed)}  # DuckDB's own (url_encode, ...)
    con.execute(load_statement(args.extension))
    docs = table()
    failures = []
    catalog = con.query(
        "SELECT function_name, array_to_string(parameters, '|'), "
        "array_to_string(parameter_types, '|'), return_type, description, example "
        "FROM rapidurl_functions()"
    )
    names = {row[0] for row in catalog}
    for missing in sorted(set(docs) - names):
        failures.append(f"{missing}: in docs/duckdb.md, not in rapidurl_functions()")
    seen: set[str] = set()
    examples = 0
    for name, params_joined, types_joined, ret, description, example in catalog:
        params, types = split(params_joined), split(types_joined)
        first_form = name not in seen
        seen.add(name)
        if name not in docs:
            failures.append(f"{name}: in rapidurl_functions(), not in docs/duckdb.md's table")
            continue
        want_params, want_ret, want_text = docs[name]
        if len(params) != len(types):
            failures.append(f"{name}: parameters {params}, types {types}")
        base_form = params == ["url", "base"]
        if base_form:
            want_text += BASE_SUFFIX
        elif params != want_params:
            failures.append(f"{name}{tuple(types)}: parameters {params}, docs say {want_params}")
        if description != want_text:
            failures.append(f"{name}{tuple(types)}: description\n  {description!r}\ndocs:\n  {want_text!r}")
        if first_form:
            if ret.split("(")[0] != want_ret.split("(")[0]:
                failures.append(f"{name}: returns {ret}, docs say {want_ret}")
            if example is None:
                failures.append(f"{name}: the first form has no example")
            else:
                con.query(f"SELECT {example}")
                examples += 1
        elif example is not None:
            failures.append(f"{name}{tuple(types)}: an example on a form that is not the first")
    registered = {(n, t or "", unquoted(r)) for n, t, r in con.query(listed)}
    registered -= {(n, t or "", unquoted(r)) for n, t, r in built_in}
    described = {(r[0], r[2] or "", unquoted(r[3])) for r in catalog}
    for extra in sorted(registered - described):
        failures.append(f"{extra}: in duckdb_functions(), not in rapidurl_functions()")
    for missing in sorted(described - registered):
        failures.append(f"{missing}: in rapidurl_functions(), not in duckdb_functions()")
    for f in failures:
        print(f)
    print(f"{con.name}: rapidurl_functions() {len(catalog)} overloads of {len(names)} functions, "
          f"duckdb_functions() {len(registered)}, {len(docs)} rows in docs/duckdb.md, "
          f"{examples} examples run, {len(failures)} differences")
    return 1 if failures or not catalog else 0


if __name__ == "__main__":
    sys.exit(main())
