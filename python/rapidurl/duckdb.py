"""DuckDB: scalar functions ``url_<field>(VARCHAR) -> VARCHAR`` over Arrow batches.

>>> import duckdb, rapidurl.duckdb
>>> con = duckdb.connect()
>>> rapidurl.duckdb.register(con)
>>> con.execute("select url_hostname('https://a.example/x') as h").fetchall()
[('a.example',)]

Each function is registered with ``type="arrow"``: DuckDB hands it a whole vector as an
Arrow array and ``rapidurl.parse_column`` parses it in Rust. Invalid URLs give NULL;
``url_error(u)`` gives the validation-error name.

``register`` needs pyarrow (DuckDB hands an Arrow function pyarrow arrays) and numpy
(DuckDB's ``create_function`` imports it): ``pip install "rapidurl[duckdb]"`` installs
both with DuckDB. Importing this module needs neither.

The DuckDB extension (``rapidurl.duckdb_extension``, docs/duckdb.md) defines functions of
the same names; on a connection that has loaded it, register these under another prefix
(``register(con, prefix="py_url_")``), or use the extension's.
"""

from __future__ import annotations

from typing import Iterable, Optional

from . import URL_API_FIELDS, parse_column

__all__ = ["register"]

#: What ``register`` needs besides DuckDB, by module name.
NEEDS = ("pyarrow", "numpy")


def _function(field: Optional[str]):
    fields = [] if field is None else [field]
    column = "error" if field is None else field

    def run(urls):
        return parse_column(urls, fields)[column].combine_chunks()

    return run


def _missing() -> list[str]:
    """The modules of ``NEEDS`` that cannot be imported."""
    missing = []
    for name in NEEDS:
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    return missing


def _taken(con, names: list[str]) -> list[str]:
    """The names of ``names`` that are functions of ``con`` already."""
    rows = con.execute(
        "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name IN ("
        + ", ".join("?" for _ in names)
        + ")",
        names,
    ).fetchall()
    return sorted(row[0] for row in rows)


def register(con, fields: Optional[Iterable[str]] = None, *, prefix: str = "url_") -> None:
    """Registers ``{prefix}{field}`` for each field (default: every URL API attribute)
    and ``{prefix}error`` on the DuckDB connection ``con``.

    Raises ``ImportError`` naming what is missing when pyarrow or numpy is not installed
    (``pip install "rapidurl[duckdb]"``), and ``ValueError`` naming the functions when
    any of the names is taken on ``con`` (the DuckDB extension's functions have the
    default names: pass another ``prefix=``, e.g. ``prefix="py_url_"``); nothing is
    registered then.
    """
    missing = _missing()
    if missing:
        raise ImportError(
            "rapidurl.duckdb.register needs " + " and ".join(missing)
            + " (DuckDB's Arrow functions use them): pip install \"rapidurl[duckdb]\""
            + " (or pip install " + " ".join(missing) + ")"
        )
    from duckdb.sqltypes import VARCHAR

    wanted = list(URL_API_FIELDS if fields is None else fields) + [None]
    names = [prefix + ("error" if field is None else field) for field in wanted]
    taken = _taken(con, names)
    if taken:
        raise ValueError(
            f"rapidurl.duckdb.register: {', '.join(taken)} already exist on this connection"
            " (the rapidurl DuckDB extension is loaded?): register under another prefix,"
            ' e.g. register(con, prefix="py_url_"), or use the extension\'s functions'
        )
    for name, field in zip(names, wanted):
        con.create_function(
            name, _function(field), [VARCHAR], VARCHAR, type="arrow", null_handling="special"
        )
