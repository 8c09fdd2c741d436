#!/usr/bin/env python3
"""Hostile input for the host processes: the DuckDB extension and the Polars plugin,
each driven in a child process so that a crash (a segfault, an abort) or a hang of the
host is seen, recorded and survived.

    host_fuzz.py duckdb SECONDS [--seed N] [--artifacts DIR] [--corpus DIR]
    host_fuzz.py polars SECONDS ...
    host_fuzz.py duckdb --replay fuzz/artifacts/duckdb/crash-….json   # run one case again

The parent generates cases from a seeded random generator: batches of rows made by
mutating the seed inputs of ``fuzz/corpus/TARGET/`` (``fuzz/seed.py``: the WPT URL data,
URL patterns and a sample of the corpora) with URL syntax, non-ASCII, invalid UTF-8,
NULLs and long rows. Each case goes to a long-lived child process (``--child``) over a
pipe; the child runs it in the host and compares every row with the Rust API (the
Python package's ``parse_column``, ``URL`` and ``URLPattern``, which are the Rust code)
and answers. A case whose child dies (a signal or an exit) is a crash, one that takes
longer than ``--timeout`` seconds a hang (the child is killed), one with a difference or
an unexpected exception a difference; each is saved as JSON under ``--artifacts``
(``crash-*``, ``timeout-*``, ``diff-*``: the case and what happened) and the child is
started again.

DuckDB (``duckdb`` package, the extension file in ``$RAPIDURL_DUCKDB_EXTENSION``, default
``target/release/rapidurl.duckdb_extension``): every function of ``rapidurl_functions()``
and every overload (VARCHAR, BLOB, with a base), arguments as flat columns, constants
(``url_join('lit', col)``), dictionary vectors (an Arrow dictionary column, a Parquet
file's dictionary pages, the rows a filter, a join or a CASE selects, GROUP BY keys),
UNNEST of a list and a lambda over a list (``list_transform``), from Arrow ``string``,
``large_string`` and ``string_view`` columns. Polars (``rapidurl.polars``): every method
of the ``url`` namespace, ``field`` with every field name (``param:NAME`` included),
``parse``, ``error``, ``route`` and ``route_params``, with ``base`` as a ``str``, a
literal and a column, on frames of several chunks read from ``string``,
``large_string``, ``string_view``, ``binary`` and ``large_binary`` arrays and of the Null
type, eager, lazy, streaming, after a filter or a slice, in a window (``over``).

Status lines and the summary use libFuzzer's words, so ``fuzz/run.sh`` reads them: one
execution is one query (a batch of rows), ``corp`` the seed inputs, ``rss`` the child's
peak resident set.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import random
import select
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent

# --------------------------------------------------------------------------------------
# Generation (the parent)
# --------------------------------------------------------------------------------------

#: Pieces spliced into inputs: URL syntax, hosts, escapes, non-ASCII, controls.
PIECES = [
    "/", "//", "\\", ":", "@", "?", "#", "%", "%2e", "%2E%2e", "%00", "%zz", "%ff", ".", "..",
    "/../", "/./", "[", "]", "[::1]", "[::", "0x7f.1", "127.0.0.1", "1.2.3.4.5", ":80",
    ":65536", ":0", "&", "=", "+", " ", "\t", "\n", "\r", "\x00", "\x7f", "\x1f", "'", '"',
    "<", ">", "`", "{", "}", "|", "^", "é", "ß", "ﬀ", "Ａ", "１", "。", "\u200c", "\u200d",
    "\u00ad", "\ufffd", "\ufeff", "\U0001f600", "ل۰", "xn--", "xn--ghb65a953d", "xn--a",
    "http://", "https://", "file://", "file:///C|/", "ws://", "blob:", "data:,", "javascript:",
    "mailto:", "sc://", "non-spec:/", "www.", ".co.uk", ".github.io", "user:pw@", "*",
    ":id", "(\\d+)", "(.*)", "{/:x}?", "*.", "(?=a)", "\\1", "?q=", "#frag",
]

#: Patterns (URL Pattern constructor strings) mixed into the seeds.
PATTERN_PIECES = [
    "https://*.example.com/books/:id", "http{s}?://*/:a/:b?", "*://*/*", "https://h/:x(\\d+)",
    "https://example.com/:rest(.*)", "http://:host.test/*", "https://h/(a|b)+", "/rel/:id",
    "https://h/:a((?:a|a)*)b", "https://h/:a((?=(?:a|a)*b)\\w*)", "https://h/:a(\\1)",
    "https://h/*?q=:q#:f", "data\\:*", "https://u\\:p@h\\:8080/*", "https://h/{:opt}?",
]

PRESETS = ["dedup", "scrapy", "safe_browsing", "surt"]


def load_seeds(corpus: Path) -> list[str]:
    """The seed inputs: the files of ``corpus`` (``fuzz/seed.py TARGET``), decoded."""
    seeds = []
    if corpus.is_dir():
        for p in sorted(corpus.iterdir()):
            if p.is_file():
                seeds.append(p.read_bytes()[:4096].decode("utf-8", "replace"))
    if not seeds:
        seeds = ["https://example.com/", "http://a/b?c#d"]
    return seeds


class Gen:
    """A seeded generator of rows, bases, names and patterns."""

    def __init__(self, rng: random.Random, seeds: list[str]):
        """A generator over ``seeds`` drawing from ``rng``."""
        self.r = rng
        self.seeds = seeds

    def text(self) -> str:
        """A mutated seed (never a lone surrogate: a host string must be UTF-8)."""
        r = self.r
        s = r.choice(self.seeds)
        for _ in range(r.choice([0, 0, 1, 1, 2, 3, 6])):
            op = r.randrange(7)
            k = r.randrange(len(s) + 1)
            if op == 0:
                s = s[:k] + r.choice(PIECES) + s[k:]
            elif op == 1 and s:
                j = min(len(s), k + r.randrange(1, 8))
                s = s[:k] + s[j:]
            elif op == 2:
                s = s[:k] + chr(r.choice([r.randrange(0x20, 0x7f), r.randrange(0, 0x20),
                                          r.randrange(0x80, 0xd800), r.randrange(0xe000, 0x110000)])) + s[k:]
            elif op == 3:
                s = s[:k] + r.choice(self.seeds)[: r.randrange(1, 40)] + s[k:]
            elif op == 4:
                s = s.swapcase() if r.random() < 0.5 else s.upper()
            elif op == 5 and s:
                piece = s[k: k + r.randrange(1, 6)]
                s = s[:k] + piece * r.randrange(2, 40) + s[k:]
            else:
                s = s[:k]
        if r.random() < 0.01:
            s = s + r.choice(PIECES) * r.randrange(100, 3000)
        return s.encode("utf-8", "replace").decode("utf-8")[:8192]

    def url(self) -> str | None:
        """A row of a URL column: a mutated seed, or NULL (8%)."""
        return None if self.r.random() < 0.08 else self.text()

    def blob(self) -> bytes | None:
        """Bytes, often not UTF-8."""
        t = self.url()
        if t is None:
            return None
        b = bytearray(t.encode("utf-8"))
        for _ in range(self.r.choice([0, 1, 2, 4])):
            k = self.r.randrange(len(b) + 1)
            b[k:k] = bytes([self.r.choice([0x80, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf8, 0xff, 0xc0])])
        return bytes(b)

    def base(self) -> str | None:
        """A base: a fixed one (some not URLs), a mutated seed, or NULL."""
        r = self.r
        if r.random() < 0.1:
            return None
        if r.random() < 0.5:
            return r.choice(["https://example.com/a/b?c#d", "http://h/", "file:///C:/x",
                             "sc://x/", "about:blank", "https://[::1]:8080/", "not a url"])
        return self.text()

    def name(self) -> str | None:
        """A query parameter name, or NULL."""
        r = self.r
        if r.random() < 0.05:
            return None
        return r.choice(["q", "a", "", "utm_source", "lang", "b c", "é", "%20", "a+b", "x=y"] +
                        [self.text()[:8]])

    def preset(self) -> str | None:
        """A canonicalization preset (now and then an unknown one), or NULL."""
        r = self.r
        if r.random() < 0.05:
            return None
        return r.choice(PRESETS) if r.random() < 0.995 else r.choice(["DEDUP", "nope", ""])

    def pattern(self) -> str:
        """A URL pattern constructor string: a fixed one or a seed, perhaps spliced."""
        r = self.r
        p = r.choice(PATTERN_PIECES) if r.random() < 0.5 else r.choice(self.seeds)
        if r.random() < 0.5:
            k = r.randrange(len(p) + 1)
            p = p[:k] + r.choice(PIECES + PATTERN_PIECES) + p[k:]
        return p.encode("utf-8", "replace").decode("utf-8")[:512]

    def rows(self) -> int:
        """How many rows a batch has: mostly under 64, now and then past a DuckDB chunk."""
        r = self.r
        x = r.random()
        if x < 0.05:
            return r.choice([0, 1])
        if x < 0.85:
            return r.randrange(1, 64)
        if x < 0.99:
            return r.randrange(64, 2100)
        return r.randrange(2100, 5000)


#: Every SQL function of the extension: name -> (overloads, second argument's kind).
#: Checked against rapidurl_functions() by the child, so a function added there and not
#: here is reported at the start.
SQL_FIELDS = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
    "pathname", "search", "hash", "public_suffix", "registrable_domain", "subdomain",
    "display", "validation_errors", "surt", "canonical",
]
SQL_PER_URL = [f"url_{f}" for f in SQL_FIELDS] + ["url_valid", "url_error", "url_parse"]
SQL_PAIRS = {
    "url_query_param": "name",
    "url_join": "base_first",
    "url_canonicalize": "preset",
    "url_pattern_test": "pattern_first",
    "url_pattern_exec": "pattern_first",
}
DUCKDB_SHAPES = ["flat", "flat", "const", "dict_arrow", "parquet", "filter", "case", "join",
                 "groupby", "unnest", "lambda"]
STRING_TYPES = ["string", "large_string", "string_view"]


def duckdb_case(g: Gen) -> dict:
    """One query of the DuckDB target."""
    r = g.r
    fn = r.choice(SQL_PER_URL + list(SQL_PAIRS))
    n = g.rows()
    case = {"fn": fn, "shape": r.choice(DUCKDB_SHAPES), "type": r.choice(STRING_TYPES)}
    if fn in SQL_PAIRS:
        kind = SQL_PAIRS[fn]
        if kind == "pattern_first":
            pats = [g.pattern() for _ in range(r.choice([1, 1, 1, 2, 3]))]
            first = [r.choice(pats) if r.random() > 0.03 else None for _ in range(n)]
            second = [g.url() for _ in range(n)]
        elif kind == "base_first":
            one = [g.base() for _ in range(r.choice([1, 2, 5]))]
            first = [r.choice(one) for _ in range(n)]
            second = [g.url() for _ in range(n)]
        else:
            first = [g.url() for _ in range(n)]
            make = g.name if kind == "name" else g.preset
            one = [make() for _ in range(r.choice([1, 1, 3]))]
            second = [r.choice(one) for _ in range(n)]
        case.update(overload="two", a=first, b=second)
    else:
        overload = r.choice(["url", "url", "blob", "base"])
        if overload == "blob":
            case.update(overload="blob", a=[g.blob() for _ in range(n)], b=None)
        elif overload == "base":
            one = [g.base() for _ in range(r.choice([1, 2, 4, n or 1]))]
            case.update(overload="base", a=[g.url() for _ in range(n)],
                        b=[r.choice(one) for _ in range(n)])
        else:
            case.update(overload="url", a=[g.url() for _ in range(n)], b=None)
    if case["shape"] == "const":
        # Which argument is the literal: the first for url_join / patterns, the second
        # (a base, name, preset) otherwise; or every argument.
        case["const"] = r.choice(["first", "second", "all"]) if case["b"] is not None else "all"
        if not case["a"] and case["const"] != "second":
            case["shape"] = "flat"
    return case


POLARS_FIELDS = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
    "pathname", "search", "hash", "public_suffix", "registrable_domain", "subdomain",
    "display", "valid", "validation_errors", "surt", "canonical",
]
POLARS_INPUT_TYPES = ["string", "large_string", "string_view", "binary", "large_binary", "null"]
POLARS_MODES = ["eager", "lazy", "streaming", "filter", "slice", "with_columns", "over"]


def polars_case(g: Gen) -> dict:
    """One query of the Polars target."""
    r = g.r
    n = g.rows()
    chunks = []
    left = n
    while left > 0 or not chunks:
        k = left if r.random() < 0.6 else r.randrange(0, left + 1)
        chunks.append(k)
        left -= k
    itype = r.choice(POLARS_INPUT_TYPES)
    if itype in ("binary", "large_binary"):
        rows = [g.blob() for _ in range(n)]
    elif itype == "null":
        rows = [None] * n
    else:
        rows = [g.url() for _ in range(n)]
    method = r.choice(["getter"] * 6 + ["field", "parse", "error", "route", "route_params"])
    case = {"rows": rows, "chunks": chunks, "type": itype, "method": method,
            "mode": r.choice(POLARS_MODES)}
    if method == "getter":
        case["fields"] = [r.choice(POLARS_FIELDS)]
    elif method == "field":
        case["fields"] = [r.choice(POLARS_FIELDS + ["param:" + (g.name() or "q")])]
    elif method == "parse":
        pool = POLARS_FIELDS + ["param:q", "param:" + (g.name() or "a")]
        case["fields"] = (None if r.random() < 0.2
                          else r.sample(pool, r.randrange(0, 6)))
    if method in ("route", "route_params"):
        routes = []
        for _ in range(r.randrange(1, 5)):
            p = g.pattern()
            routes.append(p if r.random() < 0.4 else (r.choice(["a", "b", "user", ""]), p))
        case["routes"] = routes
        case["routes_base"] = r.choice([None, None, "https://example.com", g.base()])
    b = r.random()
    if b < 0.4:
        case["base"] = None
    elif b < 0.65:
        case["base"] = g.base() or "https://example.com/"
    elif b < 0.75:
        # A literal expression (pl.lit): one row, for every row.
        case["base"] = {"lit": g.base()}
    else:
        one = [g.base() for _ in range(r.choice([1, 2, 5]))]
        case["base"] = {"column": [r.choice(one) for _ in range(n)]}
        # The URL a literal, the bases a column.
        case["lit_url"] = n > 0 and itype != "null" and r.random() < 0.15
    return case


# --------------------------------------------------------------------------------------
# The child: each case run in the host and compared with the Rust API
# --------------------------------------------------------------------------------------


class Difference(Exception):
    """A row of the host differs from the Rust API (or a call failed unexpectedly)."""


def _pa():
    """pyarrow, imported where it is needed (the parent does not need it)."""
    import pyarrow as pa

    return pa


def arrow_strings(values, kind: str):
    """``values`` as an Arrow array of ``kind`` (a string, binary or the null type)."""
    pa = _pa()
    t = {"string": pa.string(), "large_string": pa.large_string(),
         "string_view": pa.string_view(), "binary": pa.binary(),
         "large_binary": pa.large_binary(), "null": pa.null()}[kind]
    if kind == "null":
        return pa.nulls(len(values))
    if kind.endswith("binary"):
        return pa.array([v.encode() if isinstance(v, str) else v for v in values], t)
    return pa.array(values, t)


def reference_fields(urls, fields, base=None, routes=None, routes_base=None):
    """``parse_column``'s columns as lists (the Rust API); ``urls`` a list or an Arrow
    array."""
    import rapidurl

    pa = _pa()
    if isinstance(urls, list):
        urls = pa.array(urls, pa.string()) if not any(isinstance(u, bytes) for u in urls) else \
            pa.array(urls, pa.binary())
    t = rapidurl.parse_column(urls, fields, base=base, routes=routes, routes_base=routes_base, threads=1)
    return t.to_pydict()


def first_pairs(pairs):
    """A JSON object's pairs, the first of equal keys kept (as the SQL MAP keeps it)."""
    out = {}
    for k, v in pairs:
        out.setdefault(k, v)
    return out


class DuckdbChild:
    """Runs DuckDB cases in this process."""

    def __init__(self):
        """Opens an in-memory database (one thread) with the extension loaded."""
        import duckdb

        ext = os.environ.get("RAPIDURL_DUCKDB_EXTENSION",
                             str(REPO / "target" / "release" / "rapidurl.duckdb_extension"))
        self.con = duckdb.connect(config={"allow_unsigned_extensions": "true", "threads": 1})
        self.con.execute(f"LOAD '{ext}'")
        names = {r[0] for r in self.con.execute("SELECT function_name FROM rapidurl_functions()").fetchall()}
        missing = names - set(SQL_PER_URL) - set(SQL_PAIRS)
        if missing:
            raise SystemExit(f"host_fuzz.py: functions not driven: {sorted(missing)}")
        self.tmp = tempfile.mkdtemp(prefix="rapidurl-hostfuzz-")

    @staticmethod
    def lit(v) -> str:
        """``v`` as a SQL literal."""
        if v is None:
            return "NULL::VARCHAR"
        if isinstance(v, bytes):
            return "'" + "".join(f"\\x{c:02x}" for c in v) + "'::BLOB"
        return "'" + v.replace("'", "''") + "'"

    def run(self, case: dict):
        """Runs one case; raises ``Difference`` unless every row is the Rust API's."""
        pa = _pa()
        fn, shape = case["fn"], case["shape"]
        a, b = case["a"], case["b"]
        n = len(a)
        blob = case["overload"] == "blob"
        akind = "binary" if blob else case["type"]
        cols = {"i": pa.array(range(n), pa.int64()), "a": arrow_strings(a, akind)}
        if b is not None:
            cols["b"] = arrow_strings(b, case["type"])
        table = pa.table(cols)
        sel = list(range(n))  # the rows the function is evaluated on, in result order
        source = "t"
        args = ["a"] + (["b"] if b is not None else [])
        extra_where = ""
        if shape == "dict_arrow":
            cols2 = dict(cols)
            for c in args:
                if case["type"] != "string_view" or c == "a" and blob:
                    cols2[c] = cols[c].dictionary_encode()
            table = pa.table(cols2)
        elif shape == "parquet":
            import pyarrow.parquet as pq

            path = os.path.join(self.tmp, "t.parquet")
            t2 = pa.table({k: (v.cast(pa.string()) if v.type == pa.string_view() else v)
                           for k, v in cols.items()})
            pq.write_table(t2, path, use_dictionary=True, row_group_size=max(1, n // 2 + 1))
            source = f"read_parquet('{path}')"
        elif shape == "filter":
            extra_where = "WHERE i % 3 <> 1"
            sel = [i for i in range(n) if i % 3 != 1]
        self.con.register("t", table)
        self.con.register("s", pa.table({k: v for k, v in cols.items() if k != "a"}))

        call_args = list(args)
        params = []
        if shape == "const":
            # A literal (constant-folded when every argument is one), or a prepared
            # statement's parameter for a value with a NUL: both constant vectors.
            def constant(v):
                """The SQL for a constant argument ``v`` (a literal, or a parameter for a NUL)."""
                if isinstance(v, str) and "\x00" in v:
                    params.append(v)
                    return "?::VARCHAR"
                return self.lit(v)
            which = case["const"]
            if which in ("first", "all") and n:
                call_args[0] = constant(a[0])
                a = [a[0]] * n
            if b is not None and which in ("second", "all") and n:
                call_args[1] = constant(b[0])
                b = [b[0]] * n
        if shape == "join":
            call_args = ["t.a"] + (["s.b"] if b is not None else [])
        call = f"{fn}({', '.join(call_args)})"
        if shape == "join":
            sql = f"SELECT t.i, {call} FROM t JOIN s ON t.i = s.i ORDER BY t.i"
        elif shape == "case":
            sel = [i for i in range(n) if i % 2 == 0]
            sql = f"SELECT i, CASE WHEN i % 2 = 0 THEN {call} END FROM t WHERE i % 2 = 0 ORDER BY i"
        elif shape == "groupby":
            keys = ", ".join(args)
            sql = f"SELECT min(i), {call} FROM (SELECT * FROM t) GROUP BY {keys} ORDER BY 1"
            firsts = {}
            for i in range(n):
                firsts.setdefault((a[i], b[i] if b is not None else None), i)
            sel = sorted(firsts.values())
        elif shape == "lambda":
            # A lambda over a list: the function runs on the list's child vector, the
            # second argument captured from the row.
            inner = f"{fn}({', '.join(['x'] + call_args[1:])})"
            sql = f"SELECT i, list_transform(list_value(a, a), lambda x: {inner})[2] FROM t ORDER BY i"
        elif shape == "unnest":
            lists = ", ".join(f"list({c} ORDER BY i) AS {c}" for c in args)
            inner = ", ".join(f"unnest({c}) AS {c}" for c in args)
            sql = (f"SELECT row_number() OVER () - 1, {call} FROM (SELECT {inner} FROM "
                   f"(SELECT {lists} FROM t))")
            if n == 0:
                sel = []
        else:
            sql = f"SELECT i, {call} FROM {source} {extra_where} ORDER BY i"
        a_sel = [a[i] for i in sel]
        b_sel = [b[i] for i in sel] if b is not None else None
        want, want_error = self.expected(fn, case["overload"], a_sel, b_sel)
        if shape == "const" and any(c == "NULL::VARCHAR" for c in call_args):
            # A NULL literal: DuckDB folds the call to NULL without calling the function
            # (so a bad pattern or preset beside it is never seen).
            want, want_error = [None] * len(sel), None
        try:
            got = self.con.execute(sql, params).fetchall()
            got_error = None
        except Exception as e:  # noqa: BLE001 (a query error is compared, not raised)
            got, got_error = None, f"{type(e).__name__}: {e}"
        finally:
            self.con.unregister("t")
            self.con.unregister("s")
        if want_error or got_error:
            if bool(want_error) != bool(got_error) or "internal error" in (got_error or ""):
                raise Difference(f"{sql}\nquery error {got_error!r}, Rust API error {want_error!r}")
            return
        if len(got) != len(sel):
            raise Difference(f"{sql}\n{len(got)} rows, expected {len(sel)}")
        for k, (row, w) in enumerate(zip(got, want)):
            if w is not Ellipsis and row[1] != w:
                raise Difference(f"{sql}\nrow {sel[k]}: a={a_sel[k]!r} b={b_sel[k] if b_sel else None!r}: "
                                 f"DuckDB {row[1]!r}, Rust API {w!r}")
        return len(sel)

    def expected(self, fn: str, overload: str, a: list, b: list | None):
        """The rows the Rust API gives, and whether the query must fail (a message)."""
        import rapidurl

        n = len(a)
        pa = _pa()
        if fn in ("url_query_param",):
            out = []
            for u, name in zip(a, b):
                url = None if u is None or name is None else rapidurl.URL.parse(u)
                out.append(None if url is None else url.search_params.get(name))
            return out, None
        if fn == "url_join":
            out = []
            for base, rel in zip(a, b):
                if base is None or rel is None or not rapidurl.URL.can_parse(base):
                    out.append(None)
                    continue
                url = rapidurl.URL.parse(rel, base=base)
                out.append(None if url is None else url.href)
            return out, None
        if fn == "url_canonicalize":
            out = []
            for u, preset in zip(a, b):
                if preset is None or u is None:  # a NULL argument: NULL, the preset unread
                    out.append(None)
                    continue
                if preset not in PRESETS:
                    try:
                        rapidurl.canonicalize("http://h/", preset=preset)
                    except ValueError:
                        return None, f"unknown preset {preset!r}"
                url = rapidurl.URL.parse(u)
                if url is None:
                    out.append(None)
                elif preset == "surt":
                    out.append(rapidurl.surt(url.href))
                else:
                    out.append(rapidurl.canonicalize(url.href, preset=preset))
            return out, None
        if fn in ("url_pattern_test", "url_pattern_exec"):
            out = []
            compiled = {}
            for p, u in zip(a, b):
                if p is None or u is None:  # a NULL argument: NULL, the pattern unread
                    out.append(None)
                    continue
                if p not in compiled:
                    try:
                        compiled[p] = rapidurl.URLPattern(p)
                    except rapidurl.PatternError as e:
                        return None, f"invalid pattern {p!r}: {e}"
                if rapidurl.URL.parse(u) is None:
                    out.append(None)
                    continue
                if fn == "url_pattern_test":
                    try:
                        out.append(compiled[p].test(u))
                    except rapidurl.PatternError as e:
                        return None, f"match limit: {e}"
                    continue
                if p.startswith(("/", "{/", "\\/")):
                    out.append(Ellipsis)  # a path route in a route table: not comparable
                    continue
                t = reference_fields([u], ["route_params"], routes=[("r", p)])
                if t["error"][0] == "route-match-limit":
                    return None, "match limit"
                v = t["route_params"][0]
                out.append(None if v is None else json.loads(v, object_pairs_hook=first_pairs))
            return out, None
        # The per-URL functions.
        urls = arrow_strings(a, "binary" if overload == "blob" else "string")
        base = None if b is None else pa.array(b, pa.string())
        if fn == "url_parse":
            api = ["href", "origin", "protocol", "username", "password", "host", "hostname",
                   "port", "pathname", "search", "hash"]
            t = reference_fields(urls, api, base=base)
            out = [None if t["error"][i] is not None or a[i] is None else {f: t[f][i] for f in api}
                   for i in range(n)]
        elif fn == "url_error":
            t = reference_fields(urls, [], base=base)
            out = t["error"]
        elif fn == "url_valid":
            t = reference_fields(urls, ["valid"])
            out = [None if a[i] is None else t["valid"][i] == "true" for i in range(n)]
            if b is not None:
                for i in range(n):
                    if b[i] is None or not rapidurl.URL.can_parse(b[i]):
                        out[i] = None
        else:
            f = fn[len("url_"):]
            t = reference_fields(urls, [f], base=base)
            out = t[f]
        if b is not None:
            out = [None if b[i] is None else out[i] for i in range(n)]
        return out, None


class PolarsChild:
    """Runs Polars cases in this process."""

    def __init__(self):
        """Imports Polars and registers the ``url`` namespace."""
        import polars as pl
        import rapidurl.polars  # noqa: F401  (registers the namespace)

        self.pl = pl

    def frame(self, case):
        """The case's rows as a frame of its chunks (and its base column)."""
        pl = self.pl
        pa = _pa()
        rows, chunks = case["rows"], case["chunks"]
        base = case.get("base")
        frames = []
        at = 0
        for k in chunks:
            part = rows[at: at + k]
            cols = {"u": arrow_strings(part, case["type"])}
            if isinstance(base, dict) and "column" in base:
                cols["b"] = pa.array(base["column"][at: at + k], pa.string())
            frames.append(pl.from_arrow(pa.table(cols), rechunk=False))
            at += k
        df = pl.concat(frames, rechunk=False) if len(frames) > 1 else frames[0]
        return df

    def expr(self, case):
        """The case's expression of the ``url`` namespace."""
        pl = self.pl
        base = case.get("base")
        b = base
        if isinstance(base, dict):
            b = pl.col("b") if "column" in base else pl.lit(base["lit"], dtype=pl.String)
        if case.get("lit_url"):
            first = case["rows"][0]
            u = pl.lit(first, dtype=pl.Binary if isinstance(first, bytes) else pl.String).url
        else:
            u = pl.col("u").url
        m = case["method"]
        if m == "getter":
            return getattr(u, case["fields"][0])(base=b)
        if m == "field":
            return u.field(case["fields"][0], base=b)
        if m == "parse":
            return u.parse(case["fields"], base=b)
        if m == "error":
            return u.error(base=b)
        fn = u.route if m == "route" else u.route_params
        return fn(case["routes"], routes_base=case["routes_base"], base=b)

    def run(self, case):
        """Runs one case; raises ``Difference`` unless every row is the Rust API's."""
        import rapidurl

        pl = self.pl
        pa = _pa()
        df = self.frame(case)
        n = df.height
        rows = case["rows"]
        sel = list(range(n))
        mode = case["mode"]
        # The reference: parse_column over the same rows (the Rust API).
        m = case["method"]
        fields = case.get("fields")
        if m == "parse":
            # A field named twice is one member of the struct.
            fields = list(dict.fromkeys(rapidurl.DEFAULT_FIELDS if fields is None else fields))
        ref_fields = {"getter": fields, "field": fields, "parse": fields, "error": [],
                      "route": ["route"], "route_params": ["route_params"]}[m]
        routes = None
        if m in ("route", "route_params"):
            routes = [tuple(r) if isinstance(r, (list, tuple)) else r for r in case["routes"]]
        base = case.get("base")
        want_error = None
        try:
            expr = self.expr(case)
        except (ValueError, TypeError) as e:  # an unknown field, a bad pattern: refused up front
            try:
                reference_fields([], ref_fields, routes=routes, routes_base=case.get("routes_base"))
            except (ValueError, TypeError):
                return 0
            raise Difference(f"the expression was refused ({e!r}) but parse_column accepts it")
        if mode == "filter":
            sel = [i for i in range(n) if i % 3 != 1]
        elif mode == "slice":
            sel = list(range(n // 3, n))

        def query():
            """The case's query, run."""
            if mode == "filter":
                return df.with_row_index("i").filter(pl.col("i") % 3 != 1).select(expr)
            if mode == "slice":
                return df.slice(n // 3).select(expr)
            if mode == "with_columns":
                return df.with_columns(expr.alias("out")).select("out")
            if mode == "over":
                return df.with_row_index("i").select(expr.over(pl.col("i") % 3))
            if mode == "lazy":
                return df.lazy().select(expr).collect()
            if mode == "streaming":
                return df.lazy().select(expr).collect(engine="streaming")
            return df.select(expr)

        ref_rows = [rows[0] if case.get("lit_url") else rows[i] for i in sel]
        is_bin = case["type"] in ("binary", "large_binary")
        urls = arrow_strings(ref_rows, case["type"] if case["type"] != "string_view" else "string")
        if isinstance(base, dict) and "column" in base:
            ref_base = pa.array([base["column"][i] for i in sel], pa.string())
        elif isinstance(base, dict):
            ref_base = pa.array([base["lit"]] * len(sel), pa.string())
        else:
            ref_base = base
        try:
            want = reference_fields(urls, ref_fields, base=ref_base, routes=routes,
                                    routes_base=case.get("routes_base"))
        except rapidurl.ParseError as e:
            want, want_error = None, repr(e)
        try:
            got = query()
            got_error = None
        except pl.exceptions.PolarsError as e:
            got, got_error = None, f"{type(e).__name__}: {e}"
        if want_error and not got_error and mode == "over" and n == 0:
            return 0  # Polars calls nothing over an empty window: no base is read
        if want_error or got_error:
            if bool(want_error) != bool(got_error) or "internal error" in (got_error or ""):
                raise Difference(f"Polars error {got_error!r}, Rust API error {want_error!r}")
            return 0
        col = got.to_series(0)
        if len(col) != len(sel):
            raise Difference(f"{len(col)} rows, expected {len(sel)}")
        if m == "parse":
            got_cols = {f: col.struct.field(f).to_list() for f in list(fields) + ["error"]}
            if list(col.struct.fields) != list(fields) + ["error"]:
                raise Difference(f"struct fields {col.struct.fields}, expected {list(fields) + ['error']}")
            want_cols = {f: want[f] for f in list(fields) + ["error"]}
        else:
            name = ref_fields[0] if ref_fields else "error"
            got_cols = {name: col.to_list()}
            want_cols = {name: want[name]}
            if not case.get("lit_url") and mode != "with_columns" and col.name != name:
                raise Difference(f"column named {col.name!r}, expected {name!r}")
        for f, w in want_cols.items():
            g = got_cols[f]
            for k in range(len(sel)):
                if g[k] != w[k]:
                    r = ref_rows[k]
                    raise Difference(f"{f} row {sel[k]}: {r!r} ({case['type']}, binary={is_bin}): "
                                     f"Polars {g[k]!r}, Rust API {w[k]!r}")
        return len(sel)


def child_main(target: str) -> None:
    """Answers cases on stdin until it closes: each a length-prefixed pickle."""
    os.environ.setdefault("POLARS_MAX_THREADS", "2")
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    runner = DuckdbChild() if target == "duckdb" else PolarsChild()

    def send(obj):
        """Writes one answer to the parent."""
        data = pickle.dumps(obj)
        out.write(struct.pack("<I", len(data)) + data)
        out.flush()

    send(("ready", None))
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return
        (size,) = struct.unpack("<I", head)
        case = pickle.loads(inp.read(size))
        try:
            rows = runner.run(case)
            send(("ok", rows or 0))
        except Difference as e:
            send(("diff", str(e)))
        except Exception:  # noqa: BLE001 (any other exception is a finding too)
            send(("error", traceback.format_exc()))


# --------------------------------------------------------------------------------------
# The parent: the child's supervisor
# --------------------------------------------------------------------------------------


class Child:
    """A child process running ``--child TARGET``, its stderr in a file."""

    def __init__(self, target: str, stderr_path: Path):
        """Starts the child and waits for it to be ready."""
        self.stderr_path = stderr_path
        self.stderr = open(stderr_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--child", target],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
        )
        status, detail = self.receive(120)
        if status != "ready":
            raise SystemExit(f"host_fuzz.py: the child did not start ({status}): "
                             f"{detail or ''}{self.stderr_tail()}")

    def stderr_tail(self) -> str:
        """The end of what the child wrote to stderr."""
        self.stderr.flush()
        try:
            return self.stderr_path.read_bytes()[-4000:].decode("utf-8", "replace")
        except OSError:
            return ""

    def receive(self, timeout: float):
        """("ok"|"diff"|"error"|"ready", detail), ("crash", status) or ("timeout", None)."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        buf = b""
        need = 4
        size = None
        while len(buf) < need:
            left = deadline - time.monotonic()
            if left <= 0:
                return ("timeout", None)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, need - len(buf))
            if not chunk:
                return ("crash", self.proc.wait())
            buf += chunk
            if size is None and len(buf) == 4:
                (size,) = struct.unpack("<I", buf)
                need = 4 + size
        return pickle.loads(buf[4:])

    def send(self, case) -> bool:
        """Sends one case; False when the child is gone."""
        data = pickle.dumps(case)
        try:
            self.proc.stdin.write(struct.pack("<I", len(data)) + data)
            self.proc.stdin.flush()
            return True
        except BrokenPipeError:
            return False

    def kill(self):
        """Ends the child (it is ours: killed by its own process object)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.stderr.close()


def encode(obj):
    """A case as JSON: bytes as {"bytes_hex": …}."""
    if isinstance(obj, bytes):
        return {"bytes_hex": obj.hex()}
    if isinstance(obj, dict):
        return {k: encode(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [encode(v) for v in obj]
    return obj


def decode(obj):
    """The inverse of ``encode``."""
    if isinstance(obj, dict):
        if set(obj) == {"bytes_hex"}:
            return bytes.fromhex(obj["bytes_hex"])
        return {k: decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [decode(v) for v in obj]
    return obj


def save(artifacts: Path, kind: str, case: dict, detail: str) -> Path:
    """Saves a case and what happened as ``KIND-<sha1 of the case>.json``; returns the path."""
    text = json.dumps({"case": encode(case), "what": detail}, ensure_ascii=True, indent=1)
    digest = hashlib.sha1(json.dumps(encode(case), sort_keys=True).encode()).hexdigest()
    path = artifacts / f"{kind}-{digest}.json"
    path.write_text(text + "\n")
    return path


def child_rss_mb(child: "Child", peak: list) -> int:
    """The largest peak resident set (MiB) of the children so far (``peak``: one int)."""
    try:
        for line in Path(f"/proc/{child.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak[0] = max(peak[0], int(line.split()[1]) // 1024)
    except OSError:
        pass
    return peak[0]


def main() -> int:
    """The parent: runs cases for SECONDS (or replays saved ones), prints the summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", choices=["duckdb", "polars"])
    ap.add_argument("seconds", type=float, nargs="?", default=60)
    ap.add_argument("--seed", type=int, default=None, help="the generator's seed (default: the time)")
    ap.add_argument("--artifacts", type=Path, default=None)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--timeout", type=float, default=30, help="seconds a query may take")
    ap.add_argument("--replay", type=Path, nargs="*", help="run these saved cases once each")
    args = ap.parse_args()
    target = args.target
    artifacts = args.artifacts or FUZZ / "artifacts" / target
    artifacts.mkdir(parents=True, exist_ok=True)
    stderr_path = artifacts / "child.stderr"

    if args.replay:
        child = Child(target, stderr_path)
        failed = 0
        for path in args.replay:
            case = decode(json.loads(path.read_text())["case"])
            if not child.send(case):
                status = ("crash", child.proc.wait())
            else:
                status = child.receive(args.timeout)
            print(f"{path}: {status[0]}: {status[1]}")
            failed += status[0] not in ("ok",)
            if status[0] in ("crash", "timeout"):
                child.kill()
                child = Child(target, stderr_path)
        child.kill()
        return 1 if failed else 0

    seed = args.seed if args.seed is not None else int(time.time())
    seeds = load_seeds(args.corpus or FUZZ / "corpus" / target)
    corpus_bytes = sum(len(s.encode()) for s in seeds)
    rng = random.Random(seed)
    gen = Gen(rng, seeds)
    make = duckdb_case if target == "duckdb" else polars_case
    print(f"INFO: host_fuzz.py {target}: seed {seed}, {len(seeds)} seed inputs", flush=True)
    child = Child(target, stderr_path)
    peak = [0]
    start = time.monotonic()
    execs = rows = crashes = hangs = diffs = 0
    next_pulse = 2
    print(f"#0\tINITED corp: {len(seeds)}/{corpus_bytes // 1024}Kb exec/s: 0 rss: {child_rss_mb(child, peak)}Mb",
          flush=True)
    while time.monotonic() - start < args.seconds:
        case = make(gen)
        if child.send(case):
            status, detail = child.receive(args.timeout)
        else:
            status, detail = "crash", child.proc.wait()
        execs += 1
        if status == "ok":
            rows += detail
        else:
            if status == "crash":
                crashes += 1
                detail = f"the child ended with status {detail}\n{child.stderr_tail()}"
            elif status == "timeout":
                hangs += 1
                detail = f"no answer in {args.timeout} s"
            else:
                diffs += 1
            kind = {"crash": "crash", "timeout": "timeout"}.get(status, "diff")
            path = save(artifacts, kind, case, str(detail))
            print(f"FINDING {kind}: {path}\n{str(detail)[:2000]}", flush=True)
            if status in ("crash", "timeout"):
                child.kill()
                child = Child(target, stderr_path)
        if execs % 64 == 0:
            child_rss_mb(child, peak)
        if execs >= next_pulse:
            el = time.monotonic() - start
            print(f"#{execs}\tpulse  corp: {len(seeds)}/{corpus_bytes // 1024}Kb "
                  f"exec/s: {int(execs / el)} rss: {child_rss_mb(child, peak)}Mb rows: {rows}", flush=True)
            next_pulse *= 2
    el = time.monotonic() - start
    child_rss_mb(child, peak)
    child.kill()
    print(f"#{execs}\tDONE   corp: {len(seeds)}/{corpus_bytes // 1024}Kb exec/s: {int(execs / el)} "
          f"rss: {child_rss_mb(child, peak)}Mb rows: {rows}", flush=True)
    print(f"stat::number_of_executed_units: {execs}")
    print(f"stat::rows: {rows}")
    print(f"stat::crashes: {crashes} hangs: {hangs} differences: {diffs}")
    return 1 if crashes or hangs or diffs else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        child_main(sys.argv[2])
    else:
        sys.exit(main())
