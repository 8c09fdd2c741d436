"""DuckDB: scalar functions ``url_<field>(VARCHAR) -> VARCHAR`` over Arrow batches.

>>> import duckdb, rapidurl.duckdb
>>> con = duckdb.connect()
>>> rapidurl.duckdb.register(con)
>>> con.execute("select url_hostname('https://a.example/x') as h").fetchall()
[('a.example',)]

Each function is registered with ``type="arrow"``: DuckDB hands it a whole vector as an
Arrow array and ``rapidurl.parse_column`` parses it in Rust. Invalid URLs give NULL;
``url_error(u)`` gives the validation-error name.
"""

from __future__ import annotations

from typing import Iterable, Optional

import pyarrow as pa

from . import URL_API_FIELDS, parse_column

__all__ = ["register"]


def _function(field: Optional[str]):
    fields = [] if field is None else [field]
    column = "error" if field is None else field

    def run(urls):
        return parse_column(urls, fields)[column].combine_chunks()

    return run


def register(con, fields: Optional[Iterable[str]] = None, *, prefix: str = "url_") -> None:
    """Registers ``{prefix}{field}`` for each field (default: every URL API attribute)
    and ``{prefix}error`` on the DuckDB connection ``con``."""
    import duckdb
    from duckdb.sqltypes import VARCHAR

    for field in list(URL_API_FIELDS if fields is None else fields) + [None]:
        name = prefix + ("error" if field is None else field)
        con.create_function(
            name, _function(field), [VARCHAR], VARCHAR, type="arrow", null_handling="special"
        )
