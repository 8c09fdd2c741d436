"""WHATWG URL Standard parsing: the URL API, and Arrow-native bulk parsing.

``rapidurl.URL`` and ``rapidurl.URLSearchParams`` behave as ``new URL()`` and
``URLSearchParams`` do in a browser. ``rapidurl.parse_column`` parses a whole column of
URLs (pyarrow, Polars, pandas, DuckDB, DataFusion, Spark — anything with the Arrow
PyCapsule interface, or a sequence of ``str``) in parallel, with the GIL released, into one
Arrow string column per field plus an ``error`` column.

Engine adapters live in submodules: ``rapidurl.polars`` (the ``url`` expression
namespace), ``rapidurl.duckdb``, ``rapidurl.datafusion`` and ``rapidurl.spark``.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Union

from ._rapidurl import ArrowTable, ParseError, URL, URLSearchParams, can_parse
from ._rapidurl import PatternError, URLPattern
from ._rapidurl import _field_names
from ._rapidurl import canonicalize, surt
from ._rapidurl import parse_column as _parse_column

__all__ = [
    "URL",
    "URLSearchParams",
    "ParseError",
    "URLPattern",
    "PatternError",
    "ArrowTable",
    "can_parse",
    "parse_column",
    "URL_API_FIELDS",
    "DEFAULT_FIELDS",
    "surt",
    "canonicalize",
]

#: The URL API's attributes, in the order of the Standard's IDL: each is a field of
#: ``parse_column`` (the Rust library's ``rapidurl::field::Field`` may define more).
#: ``DEFAULT_FIELDS``: what ``parse_column`` returns when no field is named (the
#: command-line tool's default columns).
URL_API_FIELDS, DEFAULT_FIELDS = (tuple(names) for names in _field_names())


def parse_column(
    urls: Any,
    fields: Optional[Union[str, Iterable[str]]] = None,
    *,
    base: Any = None,
    threads: Optional[int] = None,
    routes: Optional[Iterable[Union[str, "tuple[str, str]"]]] = None,
    routes_base: Optional[str] = None,
    output: str = "utf8",
) -> Any:
    """Parse a column of URLs into one string column per field, plus ``error``.

    ``urls`` is anything exposing the Arrow PyCapsule interface (``__arrow_c_stream__`` or
    ``__arrow_c_array__``: a pyarrow ``Array`` or ``ChunkedArray``, a Polars ``Series``, a
    pandas ``Series`` with an Arrow-backed dtype…) holding utf8, large_utf8 or string_view
    strings, which are read in place; or a sequence of ``str`` and ``None``.

    ``fields`` names the columns to compute (``rapidurl.URL_API_FIELDS`` and whatever else
    the library defines; default ``DEFAULT_FIELDS``). ``base`` is a ``str`` (one base for
    every row) or a column of the same length (a base per row, ``None`` for none).
    ``threads=None`` (or ``0``, as the tool's ``--threads 0``) uses every core;
    ``threads=1`` parses on the calling thread; ``threads=N`` on a pool of N threads
    while the calling thread waits. The GIL is released meanwhile. Where no thread can
    be started (a process or ``pids`` limit, a sandbox), the call parses on the calling
    thread, with the same result.
    ``routes`` is a route table for the fields ``route`` (the first matching pattern's
    name, else its text; empty when none matches) and ``route_params`` (its groups as a
    JSON object): a list of URL patterns (``rapidurl.URLPattern`` constructor strings) or
    of ``(name, pattern)`` pairs; an invalid one raises ``rapidurl.PatternError``. A
    pattern is absolute (``"https://example.com/users/:id"``) or a path: one starting
    with ``/`` (``"/users/:id"``, ``"/find?q=:q"``) matches on any protocol, host and
    port. ``routes_base`` (a URL) is the base of relative patterns, each read as
    ``URLPattern(pattern, routes_base)``: a path then matches only on the base's
    protocol, host and port. A row on which a pattern with a backreference or a
    lookaround gives up (after 10**6 steps) has NULL fields and the error
    ``route-match-limit``.

    ``output`` lays the field columns out: ``"utf8"`` (the default) copies every value into
    the column; ``"view"`` returns ``string_view`` columns that share the input's buffers
    instead: a value that is a slice of the input (every field of an already-canonical
    URL but a built ``origin``: ``href``, ``hostname``, ``pathname``…) points into the
    input's memory, a value of up to 12 bytes is held in its view, and only the others
    are copied. pyarrow, Polars and DuckDB read ``string_view`` natively; the columns
    keep the input's buffers alive. ``error`` is utf8 either way.

    A valid row has its fields and a null ``error``; an invalid row is null in every field
    and its ``error`` is the URL Standard's validation-error name (a per-row base that does
    not parse gives ``base-URL-invalid``); a null input row is null everywhere.

    Returns a ``pyarrow.Table`` when pyarrow is installed, else a ``rapidurl.ArrowTable``,
    which any Arrow consumer reads through ``__arrow_c_stream__``.

    >>> t = parse_column(["https://a.example:8080/x", "nope"], ["hostname", "port"])
    >>> t.to_pydict()
    {'hostname': ['a.example', None], 'port': ['8080', None], 'error': [None, 'missing-scheme-non-relative-URL']}
    """
    if isinstance(fields, str):
        fields = [fields]
    elif fields is not None:
        fields = list(fields)
    if routes is not None and not isinstance(routes, str):
        routes = list(routes)
    table = _parse_column(
        urls, fields, base=base, threads=threads, routes=routes, routes_base=routes_base,
        output=output,
    )
    try:
        import pyarrow
    except ImportError:
        return table
    return pyarrow.table(table)
