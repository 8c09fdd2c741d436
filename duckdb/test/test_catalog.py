#!/usr/bin/env python3
"""Checks what DuckDB's catalog says of the extension against docs/duckdb.md's table of
functions: every `url_*` function of `duckdb_functions()` is in the table and every row of
the table is a function; each overload has named parameters (the table's, for the
one-argument VARCHAR form and the two-argument functions), a description equal to the
table's text (code spans unquoted; an overload with a base says so), and the first form
of each function an example that runs. Exits 1 on any difference.

Usage: test_catalog.py EXTENSION
"""

from __future__ import annotations

import pathlib
import re
import sys

import duckdb

ROOT = pathlib.Path(__file__).resolve().parents[2]


def table() -> dict[str, tuple[list[str], str, str]]:
    """The docs table: name -> (parameter names, return type, description)."""
    doc = (ROOT / "docs/duckdb.md").read_text(encoding="utf-8")
    rows = {}
    for m in re.finditer(r"^\| `(url_\w+)\(([\w, ]+)\)` \| ([^|]+) \| (.+) \|$", doc, re.M):
        name, params, ret, text = m.groups()
        rows[name] = ([p.strip() for p in params.split(",")], ret.strip(), text.replace("`", ""))
    return rows


def main() -> int:
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    query = "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name LIKE 'url\\_%' ESCAPE '\\'"
    built_in = {r[0] for r in con.execute(query).fetchall()}  # DuckDB's own (url_encode, ...)
    con.execute(f"LOAD '{sys.argv[1]}'")
    docs = table()
    failures = []
    overloads = con.execute(
        "SELECT function_name, parameters, parameter_types, return_type, description, examples "
        "FROM duckdb_functions() WHERE function_name LIKE 'url\\_%' ESCAPE '\\' "
        "ORDER BY function_name"
    ).fetchall()
    overloads = [o for o in overloads if o[0] not in built_in]
    names = {o[0] for o in overloads}
    for missing in sorted(set(docs) - names):
        failures.append(f"{missing}: in docs/duckdb.md, not registered")
    examples = 0
    for name, params, types, ret, description, example_list in overloads:
        if name not in docs:
            failures.append(f"{name}: registered, not in docs/duckdb.md's table")
            continue
        want_params, want_ret, want_text = docs[name]
        if any(re.fullmatch(r"col\d+", p) for p in params):
            failures.append(f"{name}{tuple(types)}: unnamed parameters {params}")
        base_form = params == ["url", "base"]
        if base_form:
            want_text += " (the input parsed against base)"
        elif params != want_params:
            failures.append(f"{name}{tuple(types)}: parameters {params}, docs say {want_params}")
        if description != want_text:
            failures.append(f"{name}{tuple(types)}: description\n  {description!r}\ndocs:\n  {want_text!r}")
        if not base_form and types[0] == "VARCHAR":
            if ret.split("(")[0] != want_ret.split("(")[0]:
                failures.append(f"{name}: returns {ret}, docs say {want_ret}")
            if len(example_list) != 1:
                failures.append(f"{name}: examples {example_list}")
            else:
                con.execute(f"SELECT {example_list[0]}").fetchall()
                examples += 1
    for f in failures:
        print(f)
    print(f"duckdb_functions(): {len(overloads)} overloads of {len(names)} functions, "
          f"{len(docs)} rows in docs/duckdb.md, {examples} examples run, {len(failures)} differences")
    return 1 if failures or not overloads else 0


if __name__ == "__main__":
    sys.exit(main())
